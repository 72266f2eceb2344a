//! `NAME_jacobian` of a function with `jvp` picks its sweeps at run time:
//! one forward sweep per flattened input when there are fewer inputs than
//! outputs, else one reverse sweep per output. Both shapes are checked
//! against central differences of the primal (`FD64_*`) and against the
//! matrix the other mode builds by hand (from `_vjp` rows or `_jvp`
//! columns) to 1e-12 relative: forward and reverse check each other.

// The body indexes the constant times in a `for i in a..b` loop, the
// construct the forward sweep supports.
#![allow(clippy::needless_range_loop)]

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::nalgebra::DMatrix;
use fd_support::{FD64_ABS, FD64_REL};

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

/// Six outputs over three inputs: the forward columns.
#[differentiable(jvp)]
fn decay(a: f64, p: [f64; 2], #[constant] ts: &[f64]) -> Vec<f64> {
    let mut out = Vec::new();
    for i in 0..ts.len() {
        out.push(a * (-p[0] * ts[i]).exp() * (p[1] * ts[i]).sin());
    }
    out
}

/// Two outputs over five inputs: the reverse rows.
#[differentiable(jvp)]
fn mix(x: &[f64], s: f64) -> (f64, f64) {
    (x[0] * x[1] * s, (x[2] * s).sin() + x[3] * x[3])
}

const TS: [f64; 6] = [0.1, 0.4, 0.9, 1.3, 2.0, 2.8];

#[test]
fn more_outputs_than_inputs_sweeps_forward() {
    let (a, p) = (1.3, [0.7, 2.1]);
    let (value, j) = decay_jacobian(a, p, &TS);
    assert_eq!(value, decay(a, p, &TS));
    assert_eq!(j.shape(), (6, 3));
    let fd = fd_jacobian(|x| decay(x[0], [x[1], x[2]], &TS), &[a, p[0], p[1]]);
    assert_same(&j, &fd, FD64_ABS, FD64_REL);
    // The reverse rows, one `_vjp` per output.
    let rows = DMatrix::from_fn(6, 3, |r, c| {
        let (value, pullback) = decay_vjp(a, p, &TS);
        let seed: Vec<f64> = (0..value.len())
            .map(|i| f64::from(u8::from(i == r)))
            .collect();
        let (da, dp) = pullback(seed);
        [da, dp[0], dp[1]][c]
    });
    assert_same(&j, &rows, 1e-15, 1e-12);
}

#[test]
fn fewer_outputs_than_inputs_sweeps_in_reverse() {
    let (x, s) = ([0.4, -1.2, 2.5, 0.8], 0.6);
    let (value, j) = mix_jacobian(&x, s);
    assert_eq!(value, mix(&x, s));
    assert_eq!(j.shape(), (2, 5));
    let fd = fd_jacobian(
        |v| {
            let (u, w) = mix(&v[..4], v[4]);
            vec![u, w]
        },
        &[x[0], x[1], x[2], x[3], s],
    );
    assert_same(&j, &fd, FD64_ABS, FD64_REL);
    // The forward columns, one `_jvp` per input.
    let columns = DMatrix::from_fn(2, 5, |r, c| {
        let unit = |i: usize| f64::from(u8::from(i == c));
        let (_, (du, dw)) = mix_jvp(&x, s, &[unit(0), unit(1), unit(2), unit(3)], unit(4));
        [du, dw][r]
    });
    assert_same(&j, &columns, 1e-15, 1e-12);
}

#[test]
fn empty_result_has_no_rows() {
    let (value, j) = decay_jacobian(1.0, [0.5, 0.5], &[]);
    assert!(value.is_empty());
    assert_eq!(j.shape(), (0, 3));
}
