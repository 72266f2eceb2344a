use autograd::differentiable;

fn tangent(_x: f64, dx: f64, out: f64) -> f64 {
    dx * out
}

#[differentiable(jvp = tangent)]
fn f(x: f64) -> f64 {
    x.exp()
}

fn main() {
    let _ = f(1.0);
}
