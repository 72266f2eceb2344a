use autograd::differentiable;

#[differentiable]
fn inner(x: f64, w: f64) -> f64 {
    (x * w - 1.0).powi(2) + w.sin()
}

#[differentiable(jvp)]
fn after_step(x: f64, w: f64, lr: f64) -> f64 {
    let (_, _, dw) = inner_grad(x, w);
    w - lr * dw + x
}

fn main() {}
