use autograd::differentiable;

#[differentiable]
fn head_or_tail(x: &[f64], c: bool) -> f64 {
    let s = if c { &x[0..2] } else { &x[2..4] };
    s[0] * s[1]
}

fn main() {}
