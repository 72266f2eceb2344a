//! How many sweeps vector mode takes, counted: a plain helper called once
//! in each body counts the body's runs, so the count is the number of
//! sweeps an evaluation of a generated derivative takes.
//!
//! - `NAME_jacobian` and `NAME_jacobian_sparse` (forward sweeps of
//!   `K = autograd::lanes::LANES` lanes): `⌈n/K⌉` sweeps for `n` inputs
//!   or `n` colours, the last sweep's unused lanes seeded zero.
//! - `NAME_hessian` and `NAME_hessian_sparse` (reverse sweeps at a dual
//!   number of `K = autograd::lanes::HESSIAN_LANES` lanes): `⌈n/K⌉`
//!   sweeps, except where the last group of columns (colours) holds 2 to
//!   `K/2`: those take one `NAME_hvp` each, since an idle lane costs
//!   about what a used one does (`BENCHMARKS.md`).
//!
//! The functions have dense derivatives, so a colouring has one colour
//! per input and the sparse derivatives sweep as many directions as the
//! dense ones. Every column is checked against the one-direction path
//! (`NAME_jvp`, `NAME_hvp` along the unit direction: 1e-12 relative), a
//! closed form (1e-12 relative, 1e-13 absolute), and central differences
//! of the primal (`FD64_*`) or of `NAME_grad` (five-point, step 10⁻³:
//! 1e-7).

// The bodies index slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

mod fd_support;

use std::cell::Cell;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::lanes::{HESSIAN_LANES, LANES};
use autograd::nalgebra::DMatrix;
use fd_support::{CF64_ABS, CF64_REL, FD64_ABS, FD64_REL};

thread_local! {
    /// How many times a body ran on this thread.
    static RUNS: Cell<usize> = const { Cell::new(0) };
}

/// A length, counting the calls: each sweep through a body calls it
/// once. (A method of an integer: a second-order body calls only
/// `#[differentiable]` functions.)
trait Counted {
    fn counted(self) -> Self;
}

impl Counted for usize {
    fn counted(self) -> usize {
        RUNS.with(|c| c.set(c.get() + 1));
        self
    }
}

/// The body runs `f` takes.
fn runs_of<T>(f: impl FnOnce() -> T) -> (usize, T) {
    RUNS.with(|c| c.set(0));
    let out = f();
    (RUNS.with(Cell::get), out)
}

/// The sizes: fewer than a sweep, one sweep and one more, two sweeps and
/// one more, and each size of last group the Hessian treats apart.
const SIZES: [usize; 9] = [1, 3, 5, 8, 9, 12, 14, 16, 17];

/// The Hessian's sweeps, from the rule its documentation states.
fn hessian_sweeps(n: usize) -> usize {
    let (full, rest) = (n / HESSIAN_LANES, n % HESSIAN_LANES);
    if (2..=HESSIAN_LANES / 2).contains(&rest) {
        full + rest
    } else {
        n.div_ceil(HESSIAN_LANES)
    }
}

fn point(n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.3 + 0.7 * (i as f64 * 1.3).sin()).collect()
}

fn unit(n: usize, k: usize) -> Vec<f64> {
    (0..n).map(|i| f64::from(u8::from(i == k))).collect()
}

fn assert_same(what: &str, a: &DMatrix<f64>, b: &DMatrix<f64>, abs: f64, rel: f64) {
    assert_eq!(a.shape(), b.shape(), "{what}");
    for (x, y) in a.iter().zip(b.iter()) {
        assert_relative_eq!(x, y, epsilon = abs, max_relative = rel);
    }
}

#[test]
fn the_rule_gives_the_ceiling_at_9_16_and_17() {
    assert_eq!(HESSIAN_LANES, 8);
    assert_eq!(LANES, 8);
    for n in [9, 16, 17] {
        assert_eq!(hessian_sweeps(n), n.div_ceil(8));
    }
    assert_eq!(hessian_sweeps(12), 1 + 4);
    assert_eq!(hessian_sweeps(14), 2);
}

// ---- second order ----

/// s³/6 + Σ xᵢ·sin xᵢ with s = Σ xᵢ: every pair of inputs interacts,
/// H = s·𝟙𝟙ᵀ + diag(2 cos xᵢ − xᵢ sin xᵢ).
#[differentiable(hessian)]
fn coupled(x: &[f64]) -> f64 {
    let n = x.len().counted();
    let mut s = 0.0;
    let mut q = 0.0;
    for i in 0..n {
        s += x[i];
        q += x[i] * x[i].sin();
    }
    s * s * s / 6.0 + q
}

fn coupled_closed_form(x: &[f64]) -> DMatrix<f64> {
    let s: f64 = x.iter().sum();
    DMatrix::from_fn(x.len(), x.len(), |i, j| {
        let diagonal = if i == j {
            2.0 * x[i].cos() - x[i] * x[i].sin()
        } else {
            0.0
        };
        s + diagonal
    })
}

/// The Hessian by five-point central differences of `coupled_grad`,
/// step 10⁻³.
fn coupled_by_differences(x: &[f64]) -> DMatrix<f64> {
    let h = 1e-3;
    let n = x.len();
    let mut m = DMatrix::zeros(n, n);
    for j in 0..n {
        let at = |d: f64| {
            let mut y = x.to_vec();
            y[j] += d;
            coupled_grad(&y).1
        };
        let (p1, m1, p2, m2) = (at(h), at(-h), at(2.0 * h), at(-2.0 * h));
        for i in 0..n {
            m[(i, j)] = (8.0 * (p1[i] - m1[i]) - (p2[i] - m2[i])) / (12.0 * h);
        }
    }
    m
}

fn check_hessian(what: &str, x: &[f64], h: &DMatrix<f64>) {
    let n = x.len();
    let columns = DMatrix::from_fn(n, n, |i, j| coupled_hvp(x, &unit(n, j)).2[i]);
    assert_same(what, h, &columns, 1e-300, 1e-12);
    assert_same(what, h, &coupled_closed_form(x), CF64_ABS, CF64_REL);
    assert_same(what, h, &coupled_by_differences(x), 1e-7, 1e-7);
}

#[test]
fn the_dense_hessian_takes_the_stated_sweeps() {
    for n in SIZES {
        let x = point(n);
        let (runs, (value, grad, h)) = runs_of(|| coupled_hessian(&x));
        assert_eq!(runs, hessian_sweeps(n), "n = {n}");
        assert_eq!(value.to_bits(), coupled(&x).to_bits());
        assert_eq!(grad.as_slice(), &coupled_grad(&x).1[..]);
        check_hessian(&format!("dense n = {n}"), &x, &h);
    }
}

#[test]
fn the_sparse_hessian_takes_the_stated_sweeps() {
    for n in SIZES {
        let x = point(n);
        let coloring = coupled_hessian_pattern(&x);
        assert_eq!(coloring.colors(), n, "a dense pattern: one colour an input");
        let (runs, (value, grad, sparse)) = runs_of(|| coupled_hessian_sparse(&x, &coloring));
        assert_eq!(runs, hessian_sweeps(n), "n = {n}");
        assert_eq!(value.to_bits(), coupled(&x).to_bits());
        assert_eq!(grad.as_slice(), &coupled_grad(&x).1[..]);
        assert_eq!(sparse.nnz(), n * n);
        check_hessian(&format!("sparse n = {n}"), &x, &DMatrix::from(&sparse));
    }
}

// ---- Jacobians ----

/// 2n + 1 outputs, each depending on every input through s = Σ xᵢ:
/// (xᵢ·s, sin xᵢ + s²)ᵢ and eˢ.
#[differentiable(jvp)]
fn spread(x: &[f64]) -> Vec<f64> {
    let n = x.len().counted();
    let mut s = 0.0;
    for i in 0..n {
        s += x[i];
    }
    let mut out = Vec::new();
    for i in 0..n {
        out.push(x[i] * s);
        out.push(x[i].sin() + s * s);
    }
    out.push(s.exp());
    out
}

fn spread_closed_form(x: &[f64]) -> DMatrix<f64> {
    let (n, s) = (x.len(), x.iter().sum::<f64>());
    DMatrix::from_fn(2 * n + 1, n, |r, k| match (r / 2, r % 2) {
        (i, _) if i == n => s.exp(),
        (i, 0) => x[i] + if i == k { s } else { 0.0 },
        (i, _) => 2.0 * s + if i == k { x[i].cos() } else { 0.0 },
    })
}

/// Central differences of the primal, step 10⁻⁶.
fn spread_by_differences(x: &[f64]) -> DMatrix<f64> {
    let h = 1e-6;
    DMatrix::from_fn(2 * x.len() + 1, x.len(), |r, c| {
        let moved = |d: f64| {
            let mut y = x.to_vec();
            y[c] += d;
            spread(&y)[r]
        };
        (moved(h) - moved(-h)) / (2.0 * h)
    })
}

fn check_jacobian(what: &str, x: &[f64], j: &DMatrix<f64>) {
    let n = x.len();
    let columns = DMatrix::from_fn(2 * n + 1, n, |r, k| spread_jvp(x, &unit(n, k)).1[r]);
    assert_same(what, j, &columns, 0.0, 1e-12);
    assert_same(what, j, &spread_closed_form(x), CF64_ABS, CF64_REL);
    assert_same(what, j, &spread_by_differences(x), FD64_ABS, FD64_REL);
}

#[test]
fn the_dense_jacobian_takes_a_sweep_per_k_inputs() {
    for n in SIZES {
        let x = point(n);
        let (runs, (value, j)) = runs_of(|| spread_jacobian(&x));
        assert_eq!(runs, n.div_ceil(LANES), "n = {n}");
        assert_eq!(value, spread(&x));
        check_jacobian(&format!("dense n = {n}"), &x, &j);
    }
}

#[test]
fn the_sparse_jacobian_takes_a_sweep_per_k_colours() {
    for n in SIZES {
        let x = point(n);
        let coloring = spread_jacobian_pattern(&x);
        assert_eq!(coloring.colors(), n, "a dense pattern: one colour an input");
        let (runs, (value, sparse)) = runs_of(|| spread_jacobian_sparse(&x, &coloring));
        assert_eq!(runs, n.div_ceil(LANES), "n = {n}");
        assert_eq!(value, spread(&x));
        check_jacobian(&format!("sparse n = {n}"), &x, &DMatrix::from(&sparse));
        let mut into = coloring.zeros();
        let (runs, _) = runs_of(|| spread_jacobian_sparse_into(&x, &coloring, &mut into));
        assert_eq!(runs, n.div_ceil(LANES), "into, n = {n}");
        assert_eq!(into.values(), sparse.values());
    }
}
