use autograd::differentiable;

// The IR has no tuples: `sin_cos` is lowered where its values are bound to
// names, `let (s, c) = x.sin_cos();`.
#[differentiable]
fn sine(x: f64) -> f64 {
    x.sin_cos().0
}

fn main() {}
