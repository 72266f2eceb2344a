//! The functions the benchmark suite times, shared by the bench
//! (`benches/gradients.rs`) and its correctness test
//! (`tests/bench_handwritten.rs`), which both include this file with
//! `#[path]`, so the code that is tested is the code that is timed.
//!
//! Every case module offers the same contenders, each a plain function of
//! the case's `Inputs`:
//!
//! | name | what |
//! |---|---|
//! | `primal` | the `#[differentiable]` function itself: the value only |
//! | `ours` | the macro's `NAME_grad` |
//! | `ours_acc` | the macro's `NAME_grad_acc`, adding into the case's caller-owned `Buffers` |
//! | `hand` | a hand-written analytic value and gradient, written as a careful person would (one pass, no allocation but the result): `hand_acc` into fresh zeroed buffers |
//! | `hand_acc` | the hand-written gradient added into the caller's `Buffers` (no allocation) |
//! | `graph` | the runtime's dynamic graph, built afresh on every call as a tape-based user would |
//! | `fd` | central finite differences: 2n primal calls |
//! | `dual` | forward mode with `num_dual::Dual64`: n forward passes, one per input |
//!
//! and an `all_gradients` that runs every contender and flattens its
//! gradient into one `Vec<f64>` in argument order, for the checks. The
//! user cases ([`least_squares`], [`monte_carlo`]) have no `graph` and no
//! `dual`.

// A `#[differentiable]` body indexes slices in `for i in a..b` loops (its
// supported iteration form); clippy would rather see iterators.
#![allow(clippy::needless_range_loop)]

pub mod black_scholes;
pub mod bond;
pub mod dense;
pub mod iterators;
pub mod least_squares;
pub mod monte_carlo;
pub mod rosenbrock;
pub mod zspread;

use autograd::central_difference_step;

/// The contenders, in the order the bench runs and the report prints them.
pub const CONTENDERS: [&str; 8] = [
    "primal", "ours", "ours_acc", "hand", "hand_acc", "graph", "fd", "dual",
];

/// A contender's value and its gradient flattened in argument order
/// (matrices column-major).
#[derive(Clone, Debug)]
pub struct Flat {
    /// The contender's name, one of [`CONTENDERS`].
    pub name: &'static str,
    /// The function's value as the contender computed it.
    pub value: f64,
    /// The gradient, flattened.
    pub grad: Vec<f64>,
}

impl Flat {
    /// A named value and gradient.
    pub fn new(name: &'static str, value: f64, grad: Vec<f64>) -> Flat {
        Flat { name, value, grad }
    }
}

/// An accumulating contender's gradient: called twice on zeroed `buffers`
/// and halved (exact in binary floating point), so a contender that
/// overwrites its buffers instead of adding into them fails the check.
pub fn accumulated<I, B>(
    name: &'static str,
    inp: &I,
    buffers: impl Fn(&I) -> B,
    acc: impl Fn(&I, &mut B) -> f64,
    flatten: impl Fn(&B) -> Vec<f64>,
) -> Flat {
    let mut b = buffers(inp);
    acc(inp, &mut b);
    let value = acc(inp, &mut b);
    let grad = flatten(&b).into_iter().map(|g| g / 2.0).collect();
    Flat::new(name, value, grad)
}

/// How close a contender must come to the hand-written gradient.
#[derive(Clone, Copy, Debug)]
pub struct Tolerances {
    /// Absolute tolerance for the exact methods (ours, graph, dual).
    pub abs: f64,
    /// Relative tolerance for the exact methods.
    pub rel: f64,
    /// Absolute tolerance for central differences, to which
    /// `1e-9·|value|` is added (their rounding error is about
    /// `ε·|f|/h ≈ 4e-11·|f|` for components of magnitude up to 1).
    pub fd_abs: f64,
    /// Relative tolerance for central differences.
    pub fd_rel: f64,
}

/// Checks every contender of `all` against the hand-written one:
/// `|g - h| <= abs + rel·max(|g|, |h|)` component by component, and the
/// value likewise. Returns a description of the first mismatch.
pub fn compare(all: &[Flat], tol: Tolerances) -> Result<(), String> {
    let hand = all
        .iter()
        .find(|f| f.name == "hand")
        .ok_or("no hand-written gradient")?;
    for f in all {
        let (abs, rel) = if f.name == "fd" {
            (tol.fd_abs + 1e-9 * hand.value.abs(), tol.fd_rel)
        } else {
            (tol.abs, tol.rel)
        };
        let close = |a: f64, b: f64| (a - b).abs() <= abs + rel * a.abs().max(b.abs());
        if !close(f.value, hand.value) {
            return Err(format!(
                "{}: value {} but the hand-written value is {}",
                f.name, f.value, hand.value
            ));
        }
        if f.name == "primal" {
            continue;
        }
        if f.grad.len() != hand.grad.len() {
            return Err(format!(
                "{}: {} gradient components, the hand-written gradient has {}",
                f.name,
                f.grad.len(),
                hand.grad.len()
            ));
        }
        for (i, (&g, &h)) in f.grad.iter().zip(&hand.grad).enumerate() {
            if !close(g, h) {
                return Err(format!(
                    "{}: component {i} is {g}, the hand-written one is {h} (|diff| = {:e})",
                    f.name,
                    (g - h).abs()
                ));
            }
        }
    }
    Ok(())
}

/// The Rosenbrock dimensions benchmarked.
pub const ROSENBROCK_SIZES: [usize; 4] = [2, 10, 100, 1000];

/// Every case's name (the criterion group), with its contenders' values
/// and gradients and its tolerances.
pub fn every_case() -> Vec<(String, Vec<Flat>, Tolerances)> {
    let mut out = Vec::new();
    for n in ROSENBROCK_SIZES {
        let inp = rosenbrock::Inputs::new(n);
        out.push((
            format!("rosenbrock_n{n}"),
            rosenbrock::all_gradients(&inp),
            rosenbrock::TOLERANCES,
        ));
    }
    out.push((
        "black_scholes".to_owned(),
        black_scholes::all_gradients(&black_scholes::Inputs::new()),
        black_scholes::TOLERANCES,
    ));
    out.push((
        "bond".to_owned(),
        bond::all_gradients(&bond::Inputs::new()),
        bond::TOLERANCES,
    ));
    out.push((
        "dense_loops".to_owned(),
        dense::loops::all_gradients(&dense::loops::Inputs::new()),
        dense::TOLERANCES,
    ));
    out.push((
        "dense_nalgebra".to_owned(),
        dense::matrix::all_gradients(&dense::matrix::Inputs::new()),
        dense::TOLERANCES,
    ));
    out.push((
        "zspread".to_owned(),
        zspread::all_gradients(&zspread::Inputs::new()),
        zspread::TOLERANCES,
    ));
    out.push((
        "least_squares".to_owned(),
        least_squares::all_gradients(&least_squares::Inputs::new()),
        least_squares::TOLERANCES,
    ));
    out.push((
        "monte_carlo".to_owned(),
        monte_carlo::all_gradients(&monte_carlo::Inputs::new()),
        monte_carlo::TOLERANCES,
    ));
    out
}

/// Checks every case ([`compare`]); the first mismatch, named by case.
pub fn check_every_case() -> Result<(), String> {
    for (name, all, tol) in every_case() {
        compare(&all, tol).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// A deterministic vector in `[lo, hi)` (an LCG: no RNG dependency, the
/// same inputs on every run).
pub fn lcg_vec(n: usize, seed: u64, lo: f64, hi: f64) -> Vec<f64> {
    let mut s = seed
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let u = (s >> 11) as f64 / (1_u64 << 53) as f64;
            lo + (hi - lo) * u
        })
        .collect()
}

/// Central differences of `f` in every component of `x`: 2n calls of `f`,
/// each component bumped in place by the runtime's step
/// `∛ε·max(1, |x_i|)`.
pub fn fd_slice(mut f: impl FnMut(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut work = x.to_vec();
    let mut grad = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        let xi = x[i];
        let h = central_difference_step(xi);
        let (up, down) = (xi + h, xi - h);
        work[i] = up;
        let fp = f(&work);
        work[i] = down;
        let fm = f(&work);
        work[i] = xi;
        grad.push((fp - fm) / (up - down));
    }
    grad
}

/// The central difference of `f` at `x` with the runtime's step.
pub fn fd_scalar(mut f: impl FnMut(f64) -> f64, x: f64) -> f64 {
    let h = central_difference_step(x);
    let (up, down) = (x + h, x - h);
    (f(up) - f(down)) / (up - down)
}
