use autograd::differentiable;

#[differentiable]
fn cube(x: f64) -> f64 {
    let f = |v: f64| v * v * v;
    let g = f;
    g(x)
}

fn main() {}
