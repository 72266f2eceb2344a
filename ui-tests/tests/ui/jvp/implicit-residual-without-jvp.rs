use autograd::differentiable;

#[differentiable]
fn residual(x: f64, c: f64) -> f64 {
    x * x - c
}

#[differentiable(jvp, implicit = residual)]
fn root(c: f64) -> f64 {
    c.sqrt()
}

fn main() {
    let _ = root_jvp(2.0, 1.0);
}
