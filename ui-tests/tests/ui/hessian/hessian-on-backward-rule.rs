use autograd::differentiable;

fn square_rule(g: f64, x: f64, _out: f64) -> (f64,) {
    (2.0 * x * g,)
}

#[differentiable(backward = square_rule, hessian)]
fn square(x: f64) -> f64 {
    x * x
}

fn main() {}
