use autograd::differentiable;

#[differentiable(hessian)]
fn inner(x: f64, w: f64) -> f64 {
    (x * w - 1.0).powi(2) + w.sin()
}

#[differentiable]
fn after_step(x: f64, w: f64, lr: f64) -> f64 {
    let (value, pullback) = inner_vjp(x, w);
    let (_, dw) = pullback(1.0);
    value - lr * dw
}

fn main() {}
