//! An iterator chain against the index loop it lowers to:
//! f(x, y) = Σᵢ (xᵢ − yᵢ)², once as `x.iter().zip(y).map(..).sum()` and
//! once as `for i in 0..x.len()`. Not one of the six-contender cases: it
//! times the macro against itself, so the chain's gradient should cost
//! what the loop's does.

use autograd::differentiable;

use super::lcg_vec;

/// The case's inputs: two vectors in `[-1, 1)ⁿ`.
pub struct Inputs {
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

impl Inputs {
    /// Deterministic vectors of length `n`.
    pub fn new(n: usize) -> Inputs {
        Inputs {
            x: lcg_vec(n, 7, -1.0, 1.0),
            y: lcg_vec(n, 8, -1.0, 1.0),
        }
    }
}

/// The chain.
#[differentiable]
pub fn chain(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum::<f64>()
}

/// The index loop.
#[differentiable]
pub fn index_loop(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let d = x[i] - y[i];
        s += d * d;
    }
    s
}

/// The gradient through the chain.
pub fn chain_grad_of(inp: &Inputs) -> (f64, Vec<f64>, Vec<f64>) {
    chain_grad(&inp.x, &inp.y)
}

/// The gradient through the index loop.
pub fn loop_grad_of(inp: &Inputs) -> (f64, Vec<f64>, Vec<f64>) {
    index_loop_grad(&inp.x, &inp.y)
}

/// Whether both gradients agree exactly (the same operations in the same
/// order; the sums differ only in the sign of an all-zero sum).
pub fn check() -> Result<(), String> {
    let inp = Inputs::new(1000);
    let (a, b) = (chain_grad_of(&inp), loop_grad_of(&inp));
    if a.1 != b.1 || a.2 != b.2 || (a.0 - b.0).abs() > 1e-12 * b.0.abs() {
        return Err("the chain's gradient differs from the index loop's".into());
    }
    Ok(())
}
