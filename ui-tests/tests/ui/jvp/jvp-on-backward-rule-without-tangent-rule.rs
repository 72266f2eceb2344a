use autograd::differentiable;

fn backward(grad: f64, _x: f64, out: f64) -> (f64,) {
    (grad * out,)
}

#[differentiable(jvp, backward = backward)]
fn f(x: f64) -> f64 {
    x.exp()
}

fn main() {
    let _ = f(1.0);
}
