//! The README's conventions at non-differentiable and singular points
//! (relu, abs and the max/min ties are in `scalar_methods.rs` and
//! `matrix_seed.rs`), and IEEE propagation of NaN and infinity through
//! `NAME_grad`: straight-line code, branches, loops over slices, a
//! `while` whose condition is NaN, calls and matrices. Nothing here may
//! panic; every expected value is the IEEE result of the closed form.

// Loops over indices are what the macro differentiates.
#![allow(clippy::needless_range_loop)]

use autograd::differentiable;
use nalgebra::DMatrix;

#[differentiable]
fn root(x: f64) -> f64 {
    x.sqrt()
}

#[differentiable]
fn log(x: f64) -> f64 {
    x.ln()
}

#[differentiable]
fn power(x: f64, y: f64) -> f64 {
    x.powf(y)
}

#[test]
fn sqrt_at_zero_has_an_infinite_slope() {
    // d√x = 1 / (2√x): 1 / 0 = +∞ for both signs of zero's root (√-0 = -0).
    assert_eq!(root_grad(0.0), (0.0, f64::INFINITY));
    let (value, dx) = root_grad(-0.0);
    assert_eq!(value.to_bits(), (-0.0_f64).to_bits());
    assert_eq!(dx, f64::NEG_INFINITY);
    // Below zero the value is NaN and so is the slope.
    let (value, dx) = root_grad(-1.0);
    assert!(value.is_nan() && dx.is_nan());
}

#[test]
fn ln_at_zero_has_an_infinite_slope() {
    // d ln x = 1 / x.
    assert_eq!(log_grad(0.0), (f64::NEG_INFINITY, f64::INFINITY));
    assert_eq!(log_grad(-0.0), (f64::NEG_INFINITY, f64::NEG_INFINITY));
    let (value, dx) = log_grad(-1.0);
    assert!(value.is_nan());
    assert_eq!(dx, -1.0);
}

#[test]
fn powf_conventions() {
    // A zero result gives the exponent no adjoint (0 · ln 0 would be NaN).
    let (value, dx, dy) = power_grad(0.0, 2.5);
    assert_eq!((value, dx, dy), (0.0, 0.0, 0.0));
    // A negative base: the base's adjoint is y·x^(y-1), the exponent's is
    // NaN (ln of a negative number).
    let (value, dx, dy) = power_grad(-2.0, 3.0);
    assert_eq!(value, -8.0);
    assert_eq!(dx, 12.0);
    assert!(dy.is_nan());
    // An ordinary point, for contrast: d/dy 2^3 = 8 ln 2.
    let (_, dx, dy) = power_grad(2.0, 3.0);
    assert_eq!(dx, 12.0);
    assert!((dy - 8.0 * 2.0_f64.ln()).abs() < 1e-14);
}

/// A branchy function whose condition sees the NaN.
#[differentiable]
fn clipped(x: f64, y: f64) -> f64 {
    let s = x * y;
    if s > 1.0 { s.ln() } else { s * s }
}

/// A loop over a slice and a reduction.
#[differentiable]
fn weighted_sum(w: &[f64], a: f64) -> f64 {
    let mut total = 0.0;
    for i in 0..w.len() {
        total += (w[i] * a).exp();
    }
    total
}

/// A `while` that exits when its condition is false, which it is for NaN.
#[differentiable]
fn halve_until_small(x: f64) -> f64 {
    let mut v = x;
    let mut n = 0;
    while v > 1.0 && n < 60 {
        v *= 0.5;
        n += 1;
    }
    v * x
}

#[differentiable]
fn through_a_call(x: f64, y: f64) -> f64 {
    clipped(x, y) + x
}

#[differentiable]
fn matrix_loss(w: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
    (w * x).map(|z| z.tanh()).sum()
}

#[test]
fn nan_propagates_as_ieee_arithmetic_does() {
    let nan = f64::NAN;
    // s = NaN: the comparison is false, so the `else` arm runs: s², 2s·y.
    let (value, dx, dy) = clipped_grad(nan, 2.0);
    assert!(value.is_nan() && dx.is_nan() && dy.is_nan());
    // The other input's adjoint depends on x = NaN too (d/dy = 2s·x).
    let (value, dx, dy) = clipped_grad(1.0, nan);
    assert!(value.is_nan() && dx.is_nan() && dy.is_nan());

    // One NaN weight poisons the value and `a`'s adjoint, but the other
    // weights' adjoints are a·exp(w_i·a), untouched.
    let w = [0.5, nan, -1.0];
    let (value, dw, da) = weighted_sum_grad(&w, 2.0);
    assert!(value.is_nan() && da.is_nan());
    assert_eq!(dw[0], 2.0 * 1.0_f64.exp());
    assert!(dw[1].is_nan());
    assert_eq!(dw[2], 2.0 * (-2.0_f64).exp());

    // NaN > 1 is false: no halving, v·x = x², slope 2x = NaN.
    let (value, dx) = halve_until_small_grad(nan);
    assert!(value.is_nan() && dx.is_nan());

    let (value, dx, dy) = through_a_call_grad(nan, 1.0);
    assert!(value.is_nan() && dx.is_nan() && dy.is_nan());

    let mut w = DMatrix::from_row_slice(2, 2, &[0.1, 0.2, 0.3, 0.4]);
    let x = DMatrix::from_row_slice(2, 1, &[1.0, -1.0]);
    w[(0, 1)] = nan;
    let (value, dw, dx) = matrix_loss_grad(&w, &x);
    assert!(value.is_nan());
    // Row 0 of W·x is NaN: its row of dW and all of dx are NaN; row 1 of
    // dW is x_j·(1 - tanh²(z_1)) with z_1 = 0.3 - 0.4.
    assert!(dw[(0, 0)].is_nan() && dw[(0, 1)].is_nan());
    let z1: f64 = 0.3 - 0.4; // row 1 of W·x
    let slope = 1.0 - z1.tanh().powi(2);
    assert!((dw[(1, 0)] - slope).abs() < 1e-15);
    assert!((dw[(1, 1)] + slope).abs() < 1e-15);
    assert!(dx.iter().all(|d| d.is_nan()));
}

#[test]
fn infinity_propagates_as_ieee_arithmetic_does() {
    let inf = f64::INFINITY;
    // s = +∞ > 1: ln s = +∞, d/dx = y/s = 0, d/dy = x/s = NaN (∞/∞).
    let (value, dx, dy) = clipped_grad(inf, 2.0);
    assert_eq!(value, inf);
    assert_eq!(dx, 0.0);
    assert!(dy.is_nan());

    // exp(w·a) overflows to +∞ for w·a = 1000: the value and `a`'s
    // adjoint are +∞; that weight's adjoint is a·∞ = +∞.
    let (value, dw, da) = weighted_sum_grad(&[500.0, 0.0], 2.0);
    assert_eq!(value, inf);
    assert_eq!(da, inf);
    assert_eq!(dw, vec![inf, 2.0]);

    // ∞ is halved 60 times and stays ∞ (the counter stops the loop): the
    // value is ∞·∞, the slope 2^-60·∞ + ∞ = ∞.
    let (value, dx) = halve_until_small_grad(inf);
    assert_eq!((value, dx), (inf, inf));

    // tanh saturates: row 0 of W·x is +∞, tanh gives 1 and a zero slope,
    // so row 0 of dW is x_j · 0 = ±0; dx = Wᵀ·dz meets ∞ · 0 = NaN in its
    // first component only.
    let w = DMatrix::from_row_slice(2, 2, &[inf, 0.2, 0.3, 0.4]);
    let x = DMatrix::from_row_slice(2, 1, &[1.0, -1.0]);
    let (value, dw, dx) = matrix_loss_grad(&w, &x);
    let z1: f64 = 0.3 - 0.4; // row 1 of W·x
    assert_eq!(value, 1.0 + z1.tanh());
    // x_j · 0: zeros (of either sign).
    assert_eq!(dw[(0, 0)], 0.0);
    assert_eq!(dw[(0, 1)], 0.0);
    assert!(dx[(0, 0)].is_nan());
    assert!(dx[(1, 0)].is_finite());
}
