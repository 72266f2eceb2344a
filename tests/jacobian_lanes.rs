//! Vector mode (issue 39): `NAME_jacobian` of a function with `jvp` and
//! more outputs than inputs sweeps `K = autograd::lanes::LANES` flattened
//! inputs at once through the hidden K-lane JVP, so `n` inputs cost
//! `⌈n/K⌉` sweeps; `NAME_jacobian_sparse` sweeps `K` colours at once and
//! `NAME_jacobian_pattern` `K` inputs.
//!
//! Every Jacobian is checked entry for entry against the columns of
//! `NAME_jvp` at the unit tangents (the one-direction path, which applies
//! the same scalar rules: to 1e-15 relative) and against central
//! differences of the primal (`FD64_*`, `f32` to 1e-3 relative); the sizes
//! straddle the lane count: n = 1, 3, K − 1, K, K + 1, 2K + 3.

// The bodies index slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

mod fd_support;

use approx::assert_relative_eq;
use autograd::__private::{NoGradient, lane_zeros};
use autograd::differentiable;
use autograd::lanes::LANES;
use autograd::nalgebra::{DMatrix, DVector, Vector3};
use fd_support::{FD64_ABS, FD64_REL};

/// `NAME_jacobian` of this function sweeps lanes: its hidden K-lane JVP
/// (here at zero tangents, `NoGradient` for a constant argument) sweeps.
/// A function whose body cannot carry lanes has one that returns `None`
/// at once, and its Jacobian sweeps one direction at a time.
macro_rules! sweeps_lanes {
    ($f:ident($($arg:expr),*)) => {
        assert!(
            $f::__jvp_lanes($($arg),*).is_some(),
            "`{}` sweeps lanes",
            stringify!($f)
        )
    };
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

/// 2n + 1 outputs over n inputs: products, transcendental rules, a
/// running sum.
#[differentiable(jvp)]
fn wave(x: &[f64], #[constant] a: f64) -> Vec<f64> {
    let n = x.len();
    let mut out = Vec::new();
    let mut s = 0.0;
    for i in 0..n {
        let next = x[(i + 1) % n];
        out.push(x[i].sin() * next + a * (0.3 * x[i]).exp());
        out.push((x[i] * x[i] + 1.0).ln() / (2.0 + next.cos()));
        s += x[i] * x[i];
    }
    out.push(s.sqrt());
    out
}

fn point(n: usize) -> Vec<f64> {
    (0..n).map(|i| 0.3 + 0.7 * (i as f64 * 1.3).sin()).collect()
}

#[test]
fn a_slice_of_every_size_around_the_lane_count() {
    for n in [1, 3, LANES - 1, LANES, LANES + 1, 2 * LANES + 3] {
        let (x, a) = (point(n), 0.8);
        sweeps_lanes!(wave(&x, a, &lane_zeros(&x[..]), NoGradient));
        let (value, j) = wave_jacobian(&x, a);
        assert_eq!(value, wave(&x, a));
        assert_eq!(j.shape(), (2 * n + 1, n));
        let columns = DMatrix::from_fn(2 * n + 1, n, |r, c| wave_jvp(&x, a, &unit(n, c)).1[r]);
        assert_same(&j, &columns, 0.0, 1e-15);
        let fd = fd_jacobian(|y| wave(y, a), &x);
        assert_same(&j, &fd, FD64_ABS, FD64_REL);
    }
}

#[test]
fn jacobian_acc_adds_the_lane_columns_into_the_callers_matrix() {
    let (x, a) = (point(LANES + 1), 0.8);
    let (_, j) = wave_jacobian(&x, a);
    let start = DMatrix::from_fn(j.nrows(), j.ncols(), |r, c| (r * 31 + c) as f64);
    let mut acc = start.clone();
    let value = wave_jacobian_acc(&x, a, &mut acc);
    assert_eq!(value, wave(&x, a));
    assert_same(&acc, &(start + j), 0.0, 1e-15);
}

/// A float, a fixed-size array and a `Vec` argument, a constant between
/// them, a fixed-size array result.
#[differentiable(jvp)]
fn mixed(s: f64, p: [f64; 3], #[constant] c: &[f64], v: Vec<f64>) -> [f64; 12] {
    let mut out = [0.0; 12];
    for i in 0..12 {
        let k = i % 3;
        out[i] = s * p[k] * c[i % c.len()] + (v[i % v.len()] * p[(k + 1) % 3]).tanh();
    }
    out
}

#[test]
fn floats_arrays_and_vecs_with_a_constant_between_them() {
    let (s, p, c, v) = (0.7, [1.1, -0.4, 0.9], [0.5, 2.0], vec![0.3, -0.8, 1.4, 0.2]);
    sweeps_lanes!(mixed(
        s,
        p,
        &c,
        v.clone(),
        lane_zeros(&s),
        &lane_zeros(&p),
        NoGradient,
        &lane_zeros(&v)
    ));
    let (value, j) = mixed_jacobian(s, p, &c, v.clone());
    assert_eq!(value, mixed(s, p, &c, v.clone()));
    assert_eq!(j.shape(), (12, 8));
    let columns = DMatrix::from_fn(12, 8, |r, col| {
        let e = unit(8, col);
        let (_, t) = mixed_jvp(s, p, &c, v.clone(), e[0], &[e[1], e[2], e[3]], &e[4..]);
        t[r]
    });
    assert_same(&j, &columns, 0.0, 1e-15);
    let fd = fd_jacobian(
        |y| mixed(y[0], [y[1], y[2], y[3]], &c, y[4..].to_vec()).to_vec(),
        &[s, p[0], p[1], p[2], v[0], v[1], v[2], v[3]],
    );
    assert_same(&j, &fd, FD64_ABS, FD64_REL);
}

/// A `DVector` argument read element by element, a tuple result.
#[differentiable(jvp)]
fn from_vector(x: &DVector<f64>, t: f64) -> (f64, f64, f64, f64, f64, f64, f64, f64) {
    let n = x.len();
    let mut acc = [0.0; 8];
    for i in 0..8 {
        acc[i] = x[i % n] * (t * (i as f64)).cos() + x[(i + 1) % n] * t;
    }
    (
        acc[0], acc[1], acc[2], acc[3], acc[4], acc[5], acc[6], acc[7],
    )
}

#[test]
fn a_dvector_argument_and_a_tuple_result() {
    let (x, t) = (DVector::from_vec(vec![0.4, -1.1, 0.9, 2.0, 0.1]), 0.35);
    sweeps_lanes!(from_vector(&x, t, &lane_zeros(&x), lane_zeros(&t)));
    let (value, j) = from_vector_jacobian(&x, t);
    assert_eq!(value, from_vector(&x, t));
    assert_eq!(j.shape(), (8, 6));
    let columns = DMatrix::from_fn(8, 6, |r, c| {
        let e = unit(6, c);
        let (_, d) = from_vector_jvp(&x, t, &DVector::from_vec(e[..5].to_vec()), e[5]);
        [d.0, d.1, d.2, d.3, d.4, d.5, d.6, d.7][r]
    });
    assert_same(&j, &columns, 0.0, 1e-15);
    let fd = fd_jacobian(
        |y| {
            let v = from_vector(&DVector::from_vec(y[..5].to_vec()), y[5]);
            vec![v.0, v.1, v.2, v.3, v.4, v.5, v.6, v.7]
        },
        &[x[0], x[1], x[2], x[3], x[4], t],
    );
    assert_same(&j, &fd, FD64_ABS, FD64_REL);
}

/// An `f32` function: lanes of `f32`, the matrix of `f64`.
#[differentiable(jvp)]
fn single(x: &[f32]) -> Vec<f32> {
    let mut out = Vec::new();
    for i in 0..x.len() {
        out.push(x[i].exp() * x[(i + 1) % x.len()]);
        out.push(x[i] * x[i]);
    }
    out
}

#[test]
fn an_f32_function() {
    for n in [3, LANES + 1] {
        let x: Vec<f32> = (0..n).map(|i| 0.25 + 0.125 * i as f32).collect();
        sweeps_lanes!(single(&x, &lane_zeros(&x[..])));
        let (value, j) = single_jacobian(&x);
        assert_eq!(value, single(&x));
        let columns = DMatrix::from_fn(2 * n, n, |r, c| {
            let e: Vec<f32> = (0..n).map(|i| f32::from(u8::from(i == c))).collect();
            f64::from(single_jvp(&x, &e).1[r])
        });
        assert_same(&j, &columns, 0.0, 1e-7);
        // Central differences in f64 of the f32 primal's formula.
        let fd = fd_jacobian(
            |y| {
                let mut out = Vec::new();
                for i in 0..y.len() {
                    out.push(y[i].exp() * y[(i + 1) % y.len()]);
                    out.push(y[i] * y[i]);
                }
                out
            },
            &x.iter().map(|v| f64::from(*v)).collect::<Vec<_>>(),
        );
        assert_same(&j, &fd, 1e-5, 1e-5);
    }
}

/// Branches on the value, a `while` loop whose trip count depends on it,
/// `abs` and `max`.
#[differentiable(jvp)]
fn steps(x: &[f64], #[constant] limit: f64) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 0..x.len() {
        let y = if x[i] > 0.0 {
            x[i] * x[i]
        } else {
            -x[i].abs() * 0.5
        };
        let mut z = y;
        let mut k = 0;
        while z.abs() < limit && k < 5 {
            z = z * 1.5 + x[(i + 1) % x.len()] * 0.1;
            k += 1;
        }
        out.push(z);
        out.push(y.max(x[i] * 0.25));
    }
    out
}

#[test]
fn branches_and_loops() {
    for n in [LANES - 1, 2 * LANES + 3] {
        let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.9 + 0.3).sin() * 1.7).collect();
        sweeps_lanes!(steps(&x, 2.0, &lane_zeros(&x[..]), NoGradient));
        let (value, j) = steps_jacobian(&x, 2.0);
        assert_eq!(value, steps(&x, 2.0));
        let columns = DMatrix::from_fn(2 * n, n, |r, c| steps_jvp(&x, 2.0, &unit(n, c)).1[r]);
        assert_same(&j, &columns, 0.0, 1e-15);
        let fd = fd_jacobian(|y| steps(y, 2.0), &x);
        assert_same(&j, &fd, FD64_ABS, FD64_REL);
    }
}

/// A banded residual: 5 colours, one K-lane sweep.
#[differentiable(jvp)]
fn banded(u: &[f64], #[constant] h: f64) -> Vec<f64> {
    let n = u.len();
    let mut r = Vec::new();
    for i in 0..n {
        let l2 = if i >= 2 { u[i - 2] } else { 0.0 };
        let l1 = if i >= 1 { u[i - 1] } else { 0.0 };
        let r1 = if i + 1 < n { u[i + 1] } else { 0.0 };
        let r2 = if i + 2 < n { u[i + 2] } else { 0.0 };
        r.push((l2 - 4.0 * l1 + 6.0 * u[i] - 4.0 * r1 + r2) / h + u[i].sin() * r1);
    }
    r.push(u[0] * u[n - 1]);
    r
}

/// Every input reaches a row of its own and the last row: n colours, so
/// ⌈n/K⌉ sweeps, the last one ragged.
#[differentiable(jvp)]
fn arrow(u: &[f64]) -> Vec<f64> {
    let mut r = Vec::new();
    let mut s = 0.0;
    for i in 0..u.len() {
        r.push(u[i].exp());
        s += u[i] * u[i];
    }
    r.push(s);
    r
}

fn assert_sparse_equals_dense(
    sparse: &autograd::nalgebra_sparse::CscMatrix<f64>,
    dense: &DMatrix<f64>,
) {
    let s = DMatrix::from(sparse);
    assert_same(&s, dense, 0.0, 1e-15);
}

#[test]
fn sparse_jacobians_sweep_k_colours_at_once() {
    let u = point(20);
    sweeps_lanes!(banded(&u, 0.1, &lane_zeros(&u[..]), NoGradient));
    sweeps_lanes!(arrow(&u, &lane_zeros(&u[..])));
    let coloring = banded_jacobian_pattern(&u, 0.1);
    assert_eq!(coloring.colors(), 5);
    // The band of five, less the corners, and the last row's two.
    assert_eq!(coloring.nnz(), 5 * 20 - 2 * (1 + 2) + 2);
    let (value, sparse) = banded_jacobian_sparse(&u, 0.1, &coloring);
    assert_eq!(value, banded(&u, 0.1));
    let (_, dense) = banded_jacobian(&u, 0.1);
    assert_sparse_equals_dense(&sparse, &dense);
    assert_same(
        &dense,
        &fd_jacobian(|y| banded(y, 0.1), &u),
        FD64_ABS,
        FD64_REL,
    );
    for n in [1, LANES, 2 * LANES + 3] {
        let u = point(n);
        let coloring = arrow_jacobian_pattern(&u);
        assert_eq!(coloring.colors(), n);
        assert_eq!(coloring.nnz(), 2 * n);
        let (value, sparse) = arrow_jacobian_sparse(&u, &coloring);
        assert_eq!(value, arrow(&u));
        let (_, dense) = arrow_jacobian(&u);
        assert_sparse_equals_dense(&sparse, &dense);
        assert_same(&dense, &fd_jacobian(arrow, &u), FD64_ABS, FD64_REL);
    }
}

#[differentiable(jvp)]
fn bump(a: f64, b: f64) -> f64 {
    a * b.exp()
}

/// A call: through the callee's K-lane JVP (see
/// `tests/jacobian_lanes_calls.rs`).
#[differentiable(jvp)]
fn with_a_call(x: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; 2 * x.len()];
    for i in 0..x.len() {
        out[2 * i] = bump(x[i], x[(i + 1) % x.len()]);
        out[2 * i + 1] = x[i].cos();
    }
    out
}

/// A vector built from its elements: no K-lane JVP (a constructor may
/// be written at `f64`), one direction a sweep as before.
#[differentiable(jvp)]
fn built(x: &[f64]) -> Vector3<f64> {
    Vector3::new(bump(x[0], x[1]), x[0].cos(), x[0] * x[1])
}

#[test]
fn calls_sweep_lanes_and_built_vectors_one_direction_at_a_time() {
    for n in [3, LANES + 1] {
        let x = point(n);
        sweeps_lanes!(with_a_call(&x, &lane_zeros(&x[..])));
        let (value, j) = with_a_call_jacobian(&x);
        assert_eq!(value, with_a_call(&x));
        assert_same(&j, &fd_jacobian(with_a_call, &x), FD64_ABS, FD64_REL);
    }
    let x = [0.4, 1.3];
    // Its K-lane JVP returns `None` at once (and takes no tangents).
    assert!(built::__jvp_lanes(&x, NoGradient).is_none());
    let (value, j) = built_jacobian(&x);
    assert_eq!(value, built(&x));
    let fd = fd_jacobian(|y| built(y).as_slice().to_vec(), &x);
    assert_same(&j, &fd, FD64_ABS, FD64_REL);
}
