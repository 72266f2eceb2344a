// A tuple from a `match` whose arm computes before its tuple: each
// component is a `let` of its own branch, so the arm's statements would
// run once per component (finding 034, section 2). The error says to
// bind each component with its own `match`.
use autograd::differentiable;

#[differentiable]
fn ends(u: &[f64], #[constant] i: usize) -> f64 {
    let (l, r) = match i {
        0 => {
            let d = u[1] - u[0];
            (u[0] - d, u[0])
        }
        _ => (u[i - 1], u[i]),
    };
    r - l
}

fn main() {}
