// A tuple bound from a `match` whose arms give tuples of different shapes
// (issue 36: a tuple-valued branch is one φ per component, so every arm
// gives a tuple of the same shape).
use autograd::differentiable;

#[differentiable]
fn ends(u: &[f64], #[constant] i: usize) -> f64 {
    let (l, r) = match i {
        0 => (u[0], u[1]),
        _ => ((u[i - 1], u[i]), u[i]),
    };
    r - l
}

fn main() {}
