use autograd::differentiable;

// A field bound out of a differentiable value would lose its derivative:
// one error at the arm. (A `#[constant]` scrutinee's fields are fine.)
#[differentiable]
fn positive_part(x: f64) -> f64 {
    match (x > 0.0).then_some(x) {
        Some(v) => v,
        None => 0.0,
    }
}

fn main() {}
