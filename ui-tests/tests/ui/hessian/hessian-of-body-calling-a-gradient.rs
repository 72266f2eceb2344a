use autograd::differentiable;

#[differentiable(hessian)]
fn inner(x: f64, w: f64) -> f64 {
    (x * w - 1.0).powi(2) + w.sin()
}

#[differentiable(hessian)]
fn after_step(x: f64, w: f64, lr: f64) -> f64 {
    let (_, _, dw) = inner_grad(x, w);
    inner(x, w - lr * dw)
}

fn main() {}
