use autograd::differentiable;

fn euler_rule(grad_output: f64, x0: f64, n: usize, _output: f64) -> (f64,) {
    (grad_output * (1.0 + 1e-3_f64).powi(n as i32) * x0.signum(),)
}

#[differentiable(backward = euler_rule)]
fn euler(x0: f64, n: usize) -> f64 {
    let mut x = x0;
    #[checkpoint]
    for _ in 0..n {
        x = x + 1e-3 * x;
    }
    x
}

fn main() {}
