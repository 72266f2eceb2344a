//! Vector mode through calls: `NAME_jacobian` and `NAME_jacobian_sparse`
//! of a body calling other `#[differentiable(jvp)]` functions sweep
//! `K = autograd::lanes::LANES` directions at once through each callee's
//! hidden K-lane JVP. A callee whose body cannot carry lanes has a K-lane
//! JVP that says so, and the caller's Jacobian sweeps one direction at a
//! time, as before.
//!
//! Every Jacobian is checked entry for entry against the columns of
//! `NAME_jvp` at the unit tangents (the one-direction path: 1e-12
//! relative) and against central differences of the primal (`FD64_*`:
//! 1e-9 absolute, 1e-8 relative), at n = 1, 3, K − 1, K + 3 and 2K + 3.
//! Which path was taken is a count: a plain helper called in the callees'
//! bodies counts the callees' sweeps, `⌈n/K⌉` a call site with lanes and
//! `n` without. Casts (`k as f64` of an integer) carry the lanes.

// The bodies index slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

mod fd_support;

use std::cell::Cell;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::lanes::LANES;
use autograd::nalgebra::DMatrix;
use fd_support::{FD64_ABS, FD64_REL};

thread_local! {
    /// How many times the callees' bodies ran on this thread.
    static SWEEPS: Cell<usize> = const { Cell::new(0) };
}

/// `w`, counting the calls: primal code of the callees, which runs once
/// per sweep through them.
fn counted(w: f64) -> f64 {
    SWEEPS.with(|c| c.set(c.get() + 1));
    w
}

/// The callees' sweeps that `f` runs.
fn sweeps_of(f: impl FnOnce()) -> usize {
    SWEEPS.with(|c| c.set(0));
    f();
    SWEEPS.with(Cell::get)
}

/// The Jacobian of `f` at `x` by central differences, step 10⁻⁶.
fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> DMatrix<f64> {
    let h = 1e-6;
    let m = f(x).len();
    DMatrix::from_fn(m, x.len(), |r, c| {
        let moved = |d: f64| {
            let mut y = x.to_vec();
            y[c] += d;
            f(&y)[r]
        };
        (moved(h) - moved(-h)) / (2.0 * h)
    })
}

fn assert_same(a: &DMatrix<f64>, b: &DMatrix<f64>, abs: f64, rel: f64) {
    assert_eq!(a.shape(), b.shape());
    for (x, y) in a.iter().zip(b.iter()) {
        assert_relative_eq!(x, y, epsilon = abs, max_relative = rel);
    }
}

/// A unit vector of `n` entries along `k`.
fn unit(n: usize, k: usize) -> Vec<f64> {
    (0..n).map(|i| f64::from(u8::from(i == k))).collect()
}

fn point(n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.3 + 0.7 * (i as f64 * 1.3).sin()).collect()
}

const SIZES: [usize; 5] = [1, 3, LANES - 1, LANES + 3, 2 * LANES + 3];

/// A helper of two floats.
#[differentiable(jvp)]
fn bump(a: f64, b: f64) -> f64 {
    let w = counted(0.5);
    a * b.exp() + w * a * a
}

/// A helper of a slice, calling another helper.
#[differentiable(jvp)]
fn energy(x: &[f64], #[constant] k: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += k * x[i] * x[i] + bump(x[i], 0.1 * x[i]);
    }
    s.sqrt()
}

/// A helper returning several floats, read element by element.
#[differentiable(jvp)]
fn pair(a: f64, b: f64) -> [f64; 2] {
    let w = counted(1.0);
    [a.sin() * b, w * a + b.cos()]
}

/// 2n + 2 outputs through every kind of call: a helper's float scaled,
/// added and negated, a helper of the whole slice, a helper's array.
#[differentiable(jvp)]
fn with_calls(x: &[f64], #[constant] c: f64) -> Vec<f64> {
    let n = x.len();
    let mut out = Vec::new();
    for i in 0..n {
        let next = x[(i + 1) % n];
        let p = pair(x[i], next);
        out.push(2.0 * bump(x[i], next) - x[i].cos() * c);
        out.push(p[0] - p[1] * next);
    }
    out.push(energy(x, c));
    out.push(-bump(x[0], c));
    out
}

#[test]
fn calls_sweep_lanes_at_every_size_around_the_lane_count() {
    for n in SIZES {
        let (x, c) = (point(n), 0.7);
        let (value, j) = with_calls_jacobian(&x, c);
        assert_eq!(value, with_calls(&x, c));
        assert_eq!(j.shape(), (2 * n + 2, n));
        let columns =
            DMatrix::from_fn(2 * n + 2, n, |r, k| with_calls_jvp(&x, c, &unit(n, k)).1[r]);
        assert_same(&j, &columns, 0.0, 1e-12);
        let fd = fd_jacobian(|y| with_calls(y, c), &x);
        assert_same(&j, &fd, FD64_ABS, FD64_REL);
    }
}

#[test]
fn the_callees_run_once_per_k_directions() {
    for n in SIZES {
        let (x, c) = (point(n), 0.7);
        // One evaluation: n calls of `pair`, n + 1 of `bump` and n more
        // inside `energy`.
        let per_sweep = sweeps_of(|| {
            with_calls(&x, c);
        });
        assert_eq!(per_sweep, 3 * n + 1);
        let jacobian = sweeps_of(|| {
            with_calls_jacobian(&x, c);
        });
        assert_eq!(jacobian, n.div_ceil(LANES) * per_sweep, "n = {n}");
    }
}

/// A generic helper: its K-lane JVP returns `None`, so the caller's
/// Jacobian sweeps one direction at a time.
#[differentiable(jvp)]
fn generic_bump<T: num_traits::Float>(a: T, b: T) -> T {
    a * b.exp()
}

#[differentiable(jvp)]
fn through_generic(x: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 0..x.len() {
        out.push(bump(x[i], 1.0) + generic_bump(x[i], x[(i + 1) % x.len()]));
        out.push(x[i] * x[i]);
    }
    out
}

#[test]
fn a_callee_without_lanes_sweeps_one_direction_at_a_time() {
    for n in SIZES {
        let x = point(n);
        let (value, j) = through_generic_jacobian(&x);
        assert_eq!(value, through_generic(&x));
        let columns = DMatrix::from_fn(2 * n, n, |r, k| through_generic_jvp(&x, &unit(n, k)).1[r]);
        assert_same(&j, &columns, 0.0, 1e-12);
        assert_same(&j, &fd_jacobian(through_generic, &x), FD64_ABS, FD64_REL);
        // The first K-lane sweep calls `bump` once and stops at the
        // generic call; then n sweeps of one direction, n calls each.
        let sweeps = sweeps_of(|| {
            through_generic_jacobian(&x);
        });
        assert_eq!(sweeps, 1 + n * n, "n = {n}");
    }
}

/// A banded residual through a helper: 3 colours whatever n.
#[differentiable(jvp)]
fn link(l: f64, m: f64, r: f64) -> f64 {
    let w = counted(2.0);
    (l - w * m + r) + m.sin() * r
}

#[differentiable(jvp)]
fn chain(u: &[f64]) -> Vec<f64> {
    let n = u.len();
    let mut r = Vec::new();
    for i in 0..n {
        let l = if i >= 1 { u[i - 1] } else { 0.0 };
        let right = if i + 1 < n { u[i + 1] } else { 0.0 };
        r.push(link(l, u[i], right));
    }
    r.push(u[0]);
    r
}

#[test]
fn a_sparse_jacobian_through_a_call() {
    for n in [3, LANES - 1, 2 * LANES + 3] {
        let u = point(n);
        let coloring = chain_jacobian_pattern(&u);
        assert_eq!(coloring.colors(), 3);
        let (value, sparse) = chain_jacobian_sparse(&u, &coloring);
        assert_eq!(value, chain(&u));
        let columns = DMatrix::from_fn(n + 1, n, |r, k| chain_jvp(&u, &unit(n, k)).1[r]);
        assert_same(&DMatrix::from(&sparse), &columns, 0.0, 1e-12);
        assert_same(&columns, &fd_jacobian(chain, &u), FD64_ABS, FD64_REL);
        // Three colours: one K-lane sweep.
        let sweeps = sweeps_of(|| {
            chain_jacobian_sparse(&u, &coloring);
        });
        assert_eq!(sweeps, n);
        let mut into = coloring.zeros();
        chain_jacobian_sparse_into(&u, &coloring, &mut into);
        assert_eq!(into.values(), sparse.values());
    }
}

/// A helper with a loop and an unused argument, as the fuzz generator
/// writes them.
#[differentiable(jvp)]
fn wavy(x: &[f64], _c: f64) -> f64 {
    let mut s1 = 0.0;
    let mut i2 = 1;
    while i2 < x.len() {
        let i = i2;
        i2 += 1;
        if i % 2 == 0 {
            s1 += (x[i] * x[i] + 1.0).ln();
        }
        s1 += ((x[i - 1]) * -0.25).sin();
    }
    ((s1 * 0.125) * 0.2554828622248366).tanh()
}

/// Finding 040 (reduced from the fuzz CI seed's f23): a kept call
/// (`wavy(xs, r2)`, borrowing nothing of the function's own) in a reverse
/// sweep long enough that its `let`s are declared up front. The `let`
/// taking the kept pullback out read the name it shadowed, which became
/// the new, unassigned local: it did not compile.
#[differentiable(jvp)]
#[rustfmt::skip]
fn kept_in_a_long_sweep(a0: f64, xs: &[f64]) -> Vec<f64> {
    let w1 = vec![a0, a0];
    let mut r2 = a0;
    for i in 0..xs.len() {
        r2 = r2.tanh() * 0.5 + (xs[i] * 0.25);
    }
    let h3 = wavy(xs, r2);
    let mut s5 = 0.0;
    let mut i6 = 0;
    while i6 < w1.len() {
        let i = i6;
        i6 += 1;
        s5 += w1[i] / (w1[i] * w1[i] + 1.0);
    }
    let h7 = wavy(&w1, (h3 * 0.25).tanh());
    vec![
        (a0 * a0) * 0.25 + (((h7 * 0.25).tanh()) * 1.5) + ((((h3 * 0.25).tanh()) * ((h3 * 0.25).tanh())) * 0.5) + ((((h3 * 0.25).tanh()) * ((h3 * 0.25).tanh()) + 1.0).ln()),
        (a0 * a0) * 0.25 + (((h7 * 0.25).tanh()) * 1.5) + (a0 / (a0 * a0 + 1.0)) + (((s5 * 0.058823529411764705).tanh()) / (((h3 * 0.25).tanh()) * ((h3 * 0.25).tanh()) + 1.0)),
    ]
}

#[test]
fn a_kept_call_in_a_long_reverse_sweep_matches_central_differences() {
    let (a, xs) = (0.7, [0.4, -1.2, 0.9, 1.5]);
    let f = |v: &[f64]| kept_in_a_long_sweep(v[0], &v[1..]);
    let mut x = vec![a];
    x.extend_from_slice(&xs);
    let (value, jac) = kept_in_a_long_sweep_jacobian(a, &xs);
    assert_eq!(value, f(&x));
    assert_same(&jac, &fd_jacobian(f, &x), FD64_ABS, FD64_REL);
    // The pullback (the reverse sweep with the kept call) gives Jᵀ·w.
    let (_, pullback) = kept_in_a_long_sweep_vjp(a, &xs);
    let (da, dxs) = pullback(vec![0.75, -0.5]);
    let row = |c: usize| 0.75 * jac[(0, c)] - 0.5 * jac[(1, c)];
    assert_relative_eq!(da, row(0), epsilon = 1e-12, max_relative = 1e-12);
    for (j, d) in dxs.iter().enumerate() {
        assert_relative_eq!(*d, row(j + 1), epsilon = 1e-12, max_relative = 1e-12);
    }
}

/// A helper with casts: a float of an integer that depends on an input
/// (`k as f64`), whose tangent is zero, and an integer of a float.
#[differentiable(jvp)]
fn cast_bump(a: f64, b: f64) -> f64 {
    let w = counted(1.0);
    let k = autograd::stop_gradient(a.abs() * 4.0) as usize;
    let step = k as f64 * 0.25 + (k % 3) as f64;
    w * (a * b).sin() + step * b
}

/// A caller casting too: 2n outputs, n calls of `cast_bump` a sweep.
#[differentiable(jvp)]
fn through_casts(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut out = Vec::new();
    for i in 0..n {
        let weight = (i % 3) as f64 + autograd::stop_gradient((x[i] * 2.0).floor()) as i32 as f64;
        out.push(cast_bump(x[i], x[(i + 1) % n]));
        out.push(x[i] * x[i] + weight * x[i]);
    }
    out
}

/// The steps of `cast_bump` and `through_casts`, as their bodies compute
/// them (piecewise constant: zero derivative).
fn steps(a: f64, i: usize) -> (f64, f64) {
    let k = (a.abs() * 4.0) as usize;
    let step = k as f64 * 0.25 + (k % 3) as f64;
    let weight = (i % 3) as f64 + (a * 2.0).floor();
    (step, weight)
}

#[test]
fn casts_carry_lanes() {
    for n in SIZES {
        let x = point(n);
        let (value, j) = through_casts_jacobian(&x);
        assert_eq!(value, through_casts(&x));
        let columns = DMatrix::from_fn(2 * n, n, |r, k| through_casts_jvp(&x, &unit(n, k)).1[r]);
        assert_same(&j, &columns, 0.0, 1e-12);
        assert_same(&j, &fd_jacobian(through_casts, &x), FD64_ABS, FD64_REL);
        // Closed form: ∂/∂a = b cos(ab), ∂/∂b = a cos(ab) + step; the
        // second output 2xᵢ + weight.
        let mut closed = DMatrix::zeros(2 * n, n);
        for i in 0..n {
            let next = (i + 1) % n;
            let (a, b) = (x[i], x[next]);
            let (step, weight) = steps(a, i);
            closed[(2 * i, i)] += b * (a * b).cos();
            closed[(2 * i, next)] += a * (a * b).cos() + step;
            closed[(2 * i + 1, i)] += 2.0 * a + weight;
        }
        assert_same(&j, &closed, 1e-13, 1e-12);
        // ⌈n/K⌉ sweeps of n calls each; one direction a sweep would take
        // n sweeps (and the first, refused K-lane one, a call).
        let sweeps = sweeps_of(|| {
            through_casts_jacobian(&x);
        });
        assert_eq!(sweeps, n.div_ceil(LANES) * n, "n = {n}");
    }
}
