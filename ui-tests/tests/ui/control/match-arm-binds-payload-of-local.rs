use autograd::differentiable;

// A field bound out of a differentiable value would lose its derivative:
// one error at the arm. (A `#[constant]` scrutinee's fields are fine.)
#[differentiable]
fn positive_part(x: f64) -> f64 {
    let o = if x > 0.0 { Some(x) } else { None };
    match o {
        Some(v) => v,
        None => 0.0,
    }
}

fn main() {}
