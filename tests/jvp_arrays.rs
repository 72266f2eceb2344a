//! `#[differentiable(jvp)]` through arrays, `Vec`s and vector results:
//! array and `Vec` arguments with their tangents (`&[f64; N]`, `&[f64]`),
//! element writes in loops, `vec!` + `push`, tuple, array, `Vec` and
//! `DVector` results. Each `_jvp`'s value is bit for bit the primal's; its
//! tangent equals `_jacobian`·v (the Jacobian from the reverse sweep, so
//! forward and reverse check each other to rounding, 1e-12 relative) and
//! five-point central differences of the primal along v (`FD64_*`). The
//! RK4 oscillator with `[f64; 2]` state is tested in tests/arrays.rs.

// Bodies index arrays in `for i in a..b` loops and write an element from
// its own value (`v[i] = v[i].sin()`), the constructs under test.
#![allow(clippy::needless_range_loop, clippy::assign_op_pattern)]

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::nalgebra::{DMatrix, DVector};
use fd_support::{FD64_ABS, FD64_REL};

/// `J·v` of a Jacobian (rows outputs, columns inputs).
fn times(j: &DMatrix<f64>, v: &[f64]) -> Vec<f64> {
    (j * DVector::from_column_slice(v))
        .iter()
        .copied()
        .collect()
}

/// The directional derivative of `f` at `x` along `v` by five-point
/// central differences of `t ↦ f(x + t·v)` at 0, with `h = 10⁻⁴` (as
/// tests/arrays.rs: the iterated loops bend enough that `fd64`'s longer
/// step's truncation error exceeds the tolerance; rounding, ≈ 1.5·ε·|f|/h,
/// stays well inside it).
fn fd_along(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64]) -> Vec<f64> {
    let m = f(x).len();
    (0..m)
        .map(|r| {
            let at = |t: f64| {
                let moved: Vec<f64> = x.iter().zip(v).map(|(a, b)| a + t * b).collect();
                f(&moved)[r]
            };
            let h = 1e-4;
            (8.0 * (at(h) - at(-h)) - (at(2.0 * h) - at(-2.0 * h))) / (12.0 * h)
        })
        .collect()
}

fn assert_rounding(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_relative_eq!(*x, *y, epsilon = 1e-13, max_relative = 1e-12);
    }
}

fn assert_fd(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_relative_eq!(*x, *y, epsilon = FD64_ABS, max_relative = FD64_REL);
    }
}

// ---------------------------------------------------------------------------
// Element writes in loops, `Vec` arguments and results.

#[differentiable(jvp)]
fn waves(x: [f64; 3], w: f64) -> [f64; 3] {
    let mut v = x;
    for _ in 0..4 {
        for i in 0..3 {
            v[i] = (v[i] * w).sin();
        }
        v[0] = v[0] + v[2] * v[1];
    }
    v
}

#[differentiable(jvp)]
fn cumulative(x: Vec<f64>, a: f64) -> Vec<f64> {
    let n = x.len();
    let mut out = vec![0.0; n];
    let mut total = 0.0;
    for i in 0..n {
        total += a * x[i] * x[i];
        out[i] = total.sqrt();
    }
    out
}

#[differentiable(jvp)]
fn squash(x: Vec<f64>, w: f64) -> Vec<f64> {
    let mut v = x;
    for i in 0..v.len() {
        v[i] = (w * v[i]).sin();
    }
    v[0] = v[0].sin();
    v
}

#[test]
fn element_writes_in_loops() {
    let x = vec![0.4, -1.2, 2.5];
    let dx = [0.5, 1.0, -0.75];
    let (value, t) = squash_jvp(x.clone(), 1.1, &dx, 0.2);
    assert_eq!(value, squash(x.clone(), 1.1));
    // Closed form: d sin(w x) = cos(w x)(w dx + x dw), then the first
    // element once more through sin.
    let mut expected: Vec<f64> = x
        .iter()
        .zip(dx)
        .map(|(a, d)| (1.1 * a).cos() * (1.1 * d + a * 0.2))
        .collect();
    expected[0] *= (1.1 * x[0]).sin().cos();
    assert_rounding(&t, &expected);

    let x = [0.3, -0.8, 1.2];
    let (_, j) = waves_jacobian(x, 1.3);
    for v in [[1.0, 0.0, 0.0, 0.0], [0.2, -0.5, 0.9, 1.5]] {
        let (value, t) = waves_jvp(x, 1.3, &[v[0], v[1], v[2]], v[3]);
        assert_eq!(value, waves(x, 1.3));
        assert_rounding(&t, &times(&j, &v));
        let fd = fd_along(
            |p| waves([p[0], p[1], p[2]], p[3]).to_vec(),
            &[x[0], x[1], x[2], 1.3],
            &v,
        );
        assert_fd(&t, &fd);
    }

    let x = vec![0.5, 1.5, -0.7, 2.0];
    let dx = [1.0, -0.3, 0.25, 0.6];
    let (value, t) = cumulative_jvp(x.clone(), 0.8, &dx, -0.4);
    assert_eq!(value, cumulative(x.clone(), 0.8));
    let (_, j) = cumulative_jacobian(x.clone(), 0.8);
    let v = [dx[0], dx[1], dx[2], dx[3], -0.4];
    assert_rounding(&t, &times(&j, &v));
    let fd = fd_along(
        |p| cumulative(p[..4].to_vec(), p[4]),
        &[0.5, 1.5, -0.7, 2.0, 0.8],
        &v,
    );
    assert_fd(&t, &fd);
}

// ---------------------------------------------------------------------------
// `vec!` + `push`, a tuple result, a `DVector` result.

#[differentiable(jvp)]
fn powers(x: f64, n: usize) -> Vec<f64> {
    let mut p = vec![1.0];
    let mut last = 1.0;
    for _ in 0..n {
        last = last * x;
        p.push(last.tanh());
    }
    p.push(0.5);
    p
}

#[differentiable(jvp)]
fn polar(r: f64, theta: f64, offset: [f64; 2]) -> (f64, f64) {
    (r * theta.cos() + offset[0], r * theta.sin() * offset[1])
}

#[differentiable(jvp)]
fn scaled(x: &DVector<f64>, s: f64) -> DVector<f64> {
    x.map(f64::exp) * s
}

#[test]
fn push_tuple_and_dvector_results() {
    let (value, t) = powers_jvp(0.7, 4, 1.0);
    assert_eq!(value, powers(0.7, 4));
    assert_eq!(t.len(), 6);
    // d tanh(x^k)/dx = k x^(k-1) (1 - tanh²(x^k)); the constants' are zero.
    let mut expected = vec![0.0];
    for k in 1..=4 {
        let xk = 0.7f64.powi(k);
        expected.push(k as f64 * 0.7f64.powi(k - 1) * (1.0 - xk.tanh().powi(2)));
    }
    expected.push(0.0);
    assert_rounding(&t, &expected);

    let v = [0.4, -1.0, 2.0, 0.5];
    let (value, t) = polar_jvp(1.5, 0.6, [0.25, 2.0], v[0], v[1], &[v[2], v[3]]);
    assert_eq!(value, polar(1.5, 0.6, [0.25, 2.0]));
    let (_, j) = polar_jacobian(1.5, 0.6, [0.25, 2.0]);
    assert_rounding(&[t.0, t.1], &times(&j, &v));
    let fd = fd_along(
        |p| {
            let (a, b) = polar(p[0], p[1], [p[2], p[3]]);
            vec![a, b]
        },
        &[1.5, 0.6, 0.25, 2.0],
        &v,
    );
    assert_fd(&[t.0, t.1], &fd);

    let x = DVector::from_vec(vec![0.1, -0.6, 0.9]);
    let dx = DVector::from_vec(vec![1.0, 0.5, -2.0]);
    let (value, t) = scaled_jvp(&x, 3.0, &dx, 0.25);
    assert_eq!(value, scaled(&x, 3.0));
    let expected: Vec<f64> = x
        .iter()
        .zip(dx.iter())
        .map(|(a, d)| 3.0 * a.exp() * d + 0.25 * a.exp())
        .collect();
    assert_rounding(t.as_slice(), &expected);
}

/// t·v[0] + v[1]², taking a slice.
#[differentiable(jvp)]
fn weighted(t: f64, v: &[f64]) -> f64 {
    t * v[0] + v[1] * v[1]
}

/// A local array passed where a slice is taken (issue 35: `&[f64; 2]:
/// IntoTangent<&[f64]>` was not satisfied): t·x[1] + x[2]².
#[differentiable(jvp)]
fn local_array_as_slice(t: f64, x: &[f64]) -> f64 {
    let y = [x[1], x[2]];
    weighted(t, &y)
}

/// An array argument passed on as a slice: 2·x[0] + x[1]².
#[differentiable(jvp)]
fn array_argument_as_slice(x: &[f64; 2]) -> f64 {
    weighted(2.0, x)
}

#[test]
fn arrays_passed_where_slices_are_taken() {
    let (t, x) = (1.5, [9.0, -2.0, 0.5]);
    let (dt, dx) = (0.25, [7.0, 1.0, -3.0]);
    let (value, tangent) = local_array_as_slice_jvp(t, &x, dt, &dx);
    assert_eq!(value, local_array_as_slice(t, &x));
    // ∂t = x[1], ∂x[1] = t, ∂x[2] = 2·x[2].
    let want = x[1] * dt + t * dx[1] + 2.0 * x[2] * dx[2];
    assert_relative_eq!(tangent, want, epsilon = 1e-15, max_relative = 1e-15);

    let (value, tangent) = array_argument_as_slice_jvp(&[0.5, 3.0], &[1.0, -1.0]);
    assert_eq!(value, 10.0);
    // ∂x[0] = 2, ∂x[1] = 2·x[1].
    assert_relative_eq!(tangent, 2.0 - 6.0, epsilon = 1e-15, max_relative = 1e-15);
}
