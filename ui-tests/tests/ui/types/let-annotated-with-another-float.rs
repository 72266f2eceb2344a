use autograd::differentiable;

// A type error in the body is rustc's, reported once: the generated code
// types `n` from its value, so it does not report the annotation again.
// The two errors are the ones the function without the attribute has.
#[differentiable]
fn twice(x: f64) -> f64 {
    let n: f32 = x * 2.0;
    n.sin()
}

fn main() {}
