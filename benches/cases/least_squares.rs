//! A user's least-squares loss written as an iterator chain,
//! `L(x) = Σᵢ (xᵢ − yᵢ)²` over n = 1000 points, with the observations y
//! `#[constant]`: ∂L/∂xᵢ = 2(xᵢ − yᵢ).

use autograd::differentiable;

use super::{Flat, Tolerances, fd_slice, lcg_vec};

/// Ours and the hand-written gradient compute the same `2·(xᵢ − yᵢ)` up to
/// the order of one multiplication; central differences of a quadratic
/// are exact but for rounding, about ε·|L|/h ≈ 1e-8 at |L| ≈ 600.
pub const TOLERANCES: Tolerances = Tolerances {
    abs: 1e-12,
    rel: 1e-14,
    fd_abs: 1e-6,
    fd_rel: 1e-8,
};

/// The number of points.
pub const POINTS: usize = 1000;

/// The case's inputs.
pub struct Inputs {
    /// The fitted values.
    pub x: Vec<f64>,
    /// The observations.
    pub y: Vec<f64>,
}

impl Inputs {
    /// Deterministic values and observations in `[-1, 1)`.
    pub fn new() -> Inputs {
        Inputs {
            x: lcg_vec(POINTS, 21, -1.0, 1.0),
            y: lcg_vec(POINTS, 22, -1.0, 1.0),
        }
    }
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::new()
    }
}

/// The loss as a user writes it.
#[differentiable]
pub fn least_squares(x: &[f64], #[constant] y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum::<f64>()
}

/// The value.
pub fn primal(inp: &Inputs) -> f64 {
    least_squares(&inp.x, &inp.y)
}

/// The macro's gradient.
pub fn ours(inp: &Inputs) -> (f64, Vec<f64>) {
    least_squares_grad(&inp.x, &inp.y)
}

/// The caller's gradient buffer of the accumulating contenders.
pub type Buffers = Vec<f64>;

/// A zeroed buffer for `inp`.
pub fn buffers(inp: &Inputs) -> Buffers {
    vec![0.0; inp.x.len()]
}

/// The macro's gradient added into the caller's buffer (`_grad_acc`).
pub fn ours_acc(inp: &Inputs, dx: &mut Buffers) -> f64 {
    least_squares_grad_acc(&inp.x, &inp.y, dx)
}

/// By hand into the caller's buffer, in one pass: ∂L/∂xᵢ = 2(xᵢ − yᵢ).
pub fn hand_acc(inp: &Inputs, dx: &mut Buffers) -> f64 {
    assert_eq!(dx.len(), inp.x.len(), "a buffer of the values' length");
    let mut loss = 0.0;
    for ((g, &x), &y) in dx.iter_mut().zip(&inp.x).zip(&inp.y) {
        let r = x - y;
        loss += r * r;
        *g += 2.0 * r;
    }
    loss
}

/// By hand: [`hand_acc`] into a fresh zeroed result.
pub fn hand(inp: &Inputs) -> (f64, Vec<f64>) {
    let mut g = buffers(inp);
    let loss = hand_acc(inp, &mut g);
    (loss, g)
}

/// Central differences: 2n primal calls.
pub fn fd(inp: &Inputs) -> (f64, Vec<f64>) {
    (primal(inp), fd_slice(|x| least_squares(x, &inp.y), &inp.x))
}

/// Every contender's value and gradient.
pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
    let flat = |name, (v, g): (f64, Vec<f64>)| Flat::new(name, v, g);
    vec![
        Flat::new("primal", primal(inp), Vec::new()),
        flat("ours", ours(inp)),
        super::accumulated("ours_acc", inp, buffers, ours_acc, |g| g.clone()),
        flat("hand", hand(inp)),
        super::accumulated("hand_acc", inp, buffers, hand_acc, |g| g.clone()),
        flat("fd", fd(inp)),
    ]
}
