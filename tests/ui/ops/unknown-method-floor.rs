use autograd::differentiable;

#[differentiable]
fn stepped(x: f64) -> f64 {
    x.floor() * x
}

fn main() {
    // The generated items still exist: no cascade of errors here.
    let _ = stepped_grad(1.5);
}
