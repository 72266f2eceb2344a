//! Integer methods in index arithmetic (finding 034, section 6): `pow`,
//! `saturating_sub`, `min`, `max`, `abs_diff`, `rem_euclid`, `usize::min`
//! of integers are primal code, as the integer operators are: they
//! compile in every mode, and the floats they pick carry their
//! derivatives. Expected adjoints come from closed forms (tolerance
//! `CF64_*`).

// Bodies index in `for i in 0..n` loops, the form whose integer
// arithmetic is under test.
#![allow(clippy::needless_range_loop)]

#[path = "fd_support/mod.rs"]
mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::*;

/// `Σ (i + 1)² x_i²`, the weight an integer `pow`.
#[differentiable(jvp, hessian)]
fn square_index_weights(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (i + 1).pow(2) as f64 * x[i] * x[i];
    }
    s
}

/// Neighbours clamped into the slice by integer methods.
#[differentiable(jvp, hessian)]
fn clamped_neighbours(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        let j = i.saturating_sub(1).min(n - 2);
        let k = usize::min(i + 1, n - 1);
        let m = i.abs_diff(k) + (i + 1).max(2);
        let w = (i as i64 - 2).rem_euclid(3);
        s += x[j] * x[k] * m as f64 + w as f64 * x[i];
    }
    s
}

/// An index computed from a float and clamped by an integer method: the
/// integer has no derivative; the element it picks has its own.
/// (`hessian` is left out: its twin's scalar has no `as usize`.)
#[differentiable(jvp)]
fn floor_index_clamped(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        let c = (x[i].abs().floor() as usize).min(n - 1);
        s += x[c] * x[i];
    }
    s
}

/// The integer methods' results in plain Rust, for the closed forms.
fn neighbours(n: usize, i: usize) -> (usize, usize, f64, f64) {
    let j = i.saturating_sub(1).min(n - 2);
    let k = usize::min(i + 1, n - 1);
    let m = i.abs_diff(k) + (i + 1).max(2);
    let w = (i as i64 - 2).rem_euclid(3);
    (j, k, m as f64, w as f64)
}

#[test]
fn integer_methods_in_index_arithmetic() {
    let x = [0.7, -1.2, 0.4, 2.0, -0.3];
    let n = x.len();
    let dir = [0.3, -0.5, 1.1, 0.2, -0.7];

    // ∂/∂x_i = 2 (i + 1)² x_i; the Hessian is diagonal, 2 (i + 1)².
    let (v, g) = square_index_weights_grad(&x);
    assert_eq!(v, square_index_weights(&x));
    let (_, t) = square_index_weights_jvp(&x, &dir);
    let (_, gh, h) = square_index_weights_hessian(&x);
    let mut along = 0.0;
    for i in 0..n {
        let w = ((i + 1) * (i + 1)) as f64;
        assert_relative_eq!(
            g[i],
            2.0 * w * x[i],
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
        assert_relative_eq!(gh[i], g[i], epsilon = CF64_ABS, max_relative = CF64_REL);
        for l in 0..n {
            let want = if l == i { 2.0 * w } else { 0.0 };
            assert_relative_eq!(h[(i, l)], want, epsilon = CF64_ABS, max_relative = CF64_REL);
        }
        along += g[i] * dir[i];
    }
    assert_relative_eq!(t, along, epsilon = CF64_ABS, max_relative = CF64_REL);

    // Each term m x_j x_k + w x_i adds m x_k to ∂/∂x_j, m x_j to ∂/∂x_k
    // and w to ∂/∂x_i; m to the Hessian at (j, k) and at (k, j).
    let (mut want_g, mut want_h) = (vec![0.0; n], vec![vec![0.0; n]; n]);
    for i in 0..n {
        let (j, k, m, w) = neighbours(n, i);
        want_g[j] += m * x[k];
        want_g[k] += m * x[j];
        want_g[i] += w;
        want_h[j][k] += m;
        want_h[k][j] += m;
    }
    let (v, g) = clamped_neighbours_grad(&x);
    assert_eq!(v, clamped_neighbours(&x));
    let (_, t) = clamped_neighbours_jvp(&x, &dir);
    let (_, gh, h) = clamped_neighbours_hessian(&x);
    let mut along = 0.0;
    for i in 0..n {
        assert_relative_eq!(g[i], want_g[i], epsilon = CF64_ABS, max_relative = CF64_REL);
        assert_relative_eq!(
            gh[i],
            want_g[i],
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
        for l in 0..n {
            assert_relative_eq!(
                h[(i, l)],
                want_h[i][l],
                epsilon = CF64_ABS,
                max_relative = CF64_REL
            );
        }
        along += want_g[i] * dir[i];
    }
    assert_relative_eq!(t, along, epsilon = CF64_ABS, max_relative = CF64_REL);

    // Each term x_c x_i, c = min(floor(|x_i|), n - 1) constant near x,
    // adds x_i to ∂/∂x_c and x_c to ∂/∂x_i.
    let mut want_g = vec![0.0; n];
    for i in 0..n {
        let c = (x[i].abs().floor() as usize).min(n - 1);
        want_g[c] += x[i];
        want_g[i] += x[c];
    }
    let (v, g) = floor_index_clamped_grad(&x);
    assert_eq!(v, floor_index_clamped(&x));
    let (_, t) = floor_index_clamped_jvp(&x, &dir);
    let mut along = 0.0;
    for i in 0..n {
        assert_relative_eq!(g[i], want_g[i], epsilon = CF64_ABS, max_relative = CF64_REL);
        along += want_g[i] * dir[i];
    }
    assert_relative_eq!(t, along, epsilon = CF64_ABS, max_relative = CF64_REL);
}
