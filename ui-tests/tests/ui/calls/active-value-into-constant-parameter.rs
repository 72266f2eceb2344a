use autograd::differentiable;

#[differentiable]
fn scale(x: f64, #[constant] k: f64) -> f64 {
    x * k
}

// `x` flows into `scale`'s `#[constant]` parameter: its derivative through
// that path would be dropped, so this must not compile.
#[differentiable]
fn square(x: f64) -> f64 {
    scale(x, x)
}

fn main() {
    let _ = square(3.0);
}
