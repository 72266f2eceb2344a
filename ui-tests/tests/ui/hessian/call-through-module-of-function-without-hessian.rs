use autograd::differentiable;

mod kernels {
    use autograd::differentiable;

    #[differentiable(hessian)]
    pub fn square(x: f64) -> f64 {
        x * x
    }

    #[differentiable]
    pub fn bump(x: f64, v: &[f64]) -> f64 {
        (-x * x).exp() * v[0]
    }
}

// Only the call of the function without `hessian` is an error, once, at the
// call, though the function calls it in a loop and reads its value twice.
#[differentiable(hessian)]
fn outer(x: f64, v: &[f64]) -> f64 {
    let mut s = kernels::square(x);
    for _ in 0..3 {
        let b = kernels::bump(x, v);
        s += b * b;
    }
    s
}

fn main() {
    let _ = outer_hessian(1.0, &[2.0]);
}
