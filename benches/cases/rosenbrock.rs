//! Rosenbrock over a slice: f(x) = Σᵢ (1 − xᵢ)² + 100·(xᵢ₊₁ − xᵢ²)².

use autograd::differentiable;
use autograd::graph::{Graph, GraphError};
use num_dual::{Dual64, DualNum};

use super::{Flat, Tolerances, fd_slice, lcg_vec};

/// Ours, the graph and num-dual differ from the hand-written gradient by
/// reassociation only: a few ulps of terms up to |400·x·b| ≈ 5000.
pub const TOLERANCES: Tolerances = Tolerances {
    abs: 1e-9,
    rel: 1e-12,
    fd_abs: 1e-6,
    fd_rel: 1e-7,
};

/// The case's inputs: a point in `[-2, 2)ⁿ`.
pub struct Inputs {
    /// The point.
    pub x: Vec<f64>,
}

impl Inputs {
    /// A deterministic point of dimension `n` (at least 2).
    pub fn new(n: usize) -> Inputs {
        Inputs {
            x: lcg_vec(n, 42 + n as u64, -2.0, 2.0),
        }
    }
}

/// The primal, as the macro sees it.
// `jvp` and `hessian` for benches/jvp.rs and benches/second_order.rs.
#[differentiable(jvp, hessian)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

/// The value.
pub fn primal(inp: &Inputs) -> f64 {
    rosenbrock(&inp.x)
}

/// The macro's gradient.
pub fn ours(inp: &Inputs) -> (f64, Vec<f64>) {
    rosenbrock_grad(&inp.x)
}

/// The caller's gradient buffer of the accumulating contenders.
pub type Buffers = Vec<f64>;

/// Zeroed buffers for `inp`.
pub fn buffers(inp: &Inputs) -> Buffers {
    vec![0.0; inp.x.len()]
}

/// The macro's gradient added into the caller's buffer (`_grad_acc`).
pub fn ours_acc(inp: &Inputs, dx: &mut Buffers) -> f64 {
    rosenbrock_grad_acc(&inp.x, dx)
}

/// By hand into the caller's buffer, in one forward pass: term i
/// contributes `−2aᵢ − 400·xᵢ·bᵢ` to ∂f/∂xᵢ and `200·bᵢ` to ∂f/∂xᵢ₊₁; the
/// latter is carried in a local to the next iteration rather than written
/// to memory and read back.
pub fn hand_acc(inp: &Inputs, g: &mut Buffers) -> f64 {
    let x = &inp.x[..];
    let n = x.len();
    assert_eq!(g.len(), n, "a buffer of the point's length");
    let mut s = 0.0;
    let mut carry = 0.0;
    for (gi, w) in g.iter_mut().zip(x.windows(2)) {
        let (xi, xn) = (w[0], w[1]);
        let a = 1.0 - xi;
        let b = xn - xi * xi;
        s += a * a + 100.0 * b * b;
        *gi += carry - 2.0 * a - 400.0 * xi * b;
        carry = 200.0 * b;
    }
    g[n - 1] += carry;
    s
}

/// By hand: [`hand_acc`] into a fresh zeroed result.
pub fn hand(inp: &Inputs) -> (f64, Vec<f64>) {
    let mut g = buffers(inp);
    let s = hand_acc(inp, &mut g);
    (s, g)
}

fn graph_impl(x: &[f64]) -> Result<(f64, Vec<f64>), GraphError> {
    let mut g = Graph::new();
    let xs: Vec<_> = x.iter().map(|&v| g.input(v)).collect();
    let one = g.input(1.0);
    let hundred = g.input(100.0);
    let mut s = g.input(0.0);
    for i in 0..x.len() - 1 {
        let a = g.sub(one, xs[i])?;
        let sq = g.mul(xs[i], xs[i])?;
        let b = g.sub(xs[i + 1], sq)?;
        let a2 = g.mul(a, a)?;
        let b2 = g.mul(b, b)?;
        let hb2 = g.mul(hundred, b2)?;
        let t = g.add(a2, hb2)?;
        s = g.add(s, t)?;
    }
    let value = g.value(s)?.as_scalar().unwrap_or(f64::NAN);
    let grads = g.backward(s)?;
    let dx = xs
        .iter()
        .map(|&id| grads.scalar(id).unwrap_or(f64::NAN))
        .collect();
    Ok((value, dx))
}

/// The dynamic graph, recorded on every call.
pub fn graph(inp: &Inputs) -> (f64, Vec<f64>) {
    graph_impl(&inp.x).expect("the graph records Rosenbrock")
}

/// Central differences: 2n primal calls.
pub fn fd(inp: &Inputs) -> (f64, Vec<f64>) {
    (rosenbrock(&inp.x), fd_slice(rosenbrock, &inp.x))
}

/// The primal, generic over num-dual's numbers.
pub fn rosenbrock_generic<T: DualNum<f64> + Copy>(x: &[T]) -> T {
    let mut s = T::from(0.0);
    for i in 0..x.len() - 1 {
        let a = -(x[i] - 1.0);
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + b * b * 100.0;
    }
    s
}

/// Forward mode: n passes with `Dual64`, one per component.
pub fn dual(inp: &Inputs) -> (f64, Vec<f64>) {
    let mut xs: Vec<Dual64> = inp.x.iter().map(|&v| Dual64::from_re(v)).collect();
    let mut value = 0.0;
    let mut g = Vec::with_capacity(xs.len());
    for i in 0..xs.len() {
        xs[i].eps = 1.0;
        let y = rosenbrock_generic(&xs);
        xs[i].eps = 0.0;
        value = y.re;
        g.push(y.eps);
    }
    (value, g)
}

/// Every contender's value and gradient.
pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
    let flat = |name, (v, g): (f64, Vec<f64>)| Flat::new(name, v, g);
    vec![
        Flat::new("primal", primal(inp), Vec::new()),
        flat("ours", ours(inp)),
        flat("hand", hand(inp)),
        super::accumulated("ours_acc", inp, buffers, ours_acc, |g| g.clone()),
        super::accumulated("hand_acc", inp, buffers, hand_acc, |g| g.clone()),
        flat("graph", graph(inp)),
        flat("fd", fd(inp)),
        flat("dual", dual(inp)),
    ]
}
