use autograd::differentiable;

#[differentiable(hessian, hessian)]
fn f(x: f64) -> f64 {
    x * x
}

fn main() {}
