use autograd::differentiable;

#[differentiable]
fn pick(a: &[f64], b: &[f64], first: bool) -> f64 {
    let y = if first { a } else { b };
    y[0] * 2.0
}

fn main() {}
