//! The README's conventions at non-differentiable and singular points
//! (relu and the max/min ties also in `scalar_methods.rs` and
//! `matrix_seed.rs`), and IEEE propagation of NaN and infinity through
//! `NAME_grad`: straight-line code, branches, loops over slices, a
//! `while` whose condition is NaN, calls and matrices. Nothing here may
//! panic; every expected value is the IEEE result of the closed form.
//!
//! At a kink or a tie the derivative is the derivative of one adjacent
//! smooth piece (ISSUE35, "Kinks: take one side"): functions smooth
//! through the kink keep their exact first and second derivatives at
//! both signed zeros, in `NAME_grad`, `NAME_jvp`, `NAME_hvp` and
//! `NAME_hessian`, at `f64` and generically at `f32`. At a cone's tip
//! (`hypot`, `norm` at 0), where no piece is smooth, the gradient is 0.

// Loops over indices are what the macro differentiates.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::num_traits::Float;
use nalgebra::{DMatrix, DVector};

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

/// x² by `powf`, for second order at the base 0.
#[differentiable(jvp, hessian)]
fn square_by_powf(x: f64) -> f64 {
    x.powf(2.0)
}

#[test]
fn powf_at_base_zero_takes_a_piece() {
    // Both zeros: x² has f' = 0, f'' = 2 on either side.
    for z in [0.0, -0.0] {
        assert_eq!(square_by_powf_grad(z).1, 0.0);
        assert_eq!(square_by_powf_jvp(z, 1.0).1, 0.0);
        let (_, g, h) = square_by_powf_hessian(z);
        assert_eq!((g[0], h[(0, 0)]), (0.0, 2.0), "at {z}");
    }
    // x⁻²: the zero's sign picks the side of the pole, −2·x⁻³ → ∓∞.
    assert_eq!(power_grad(0.0, -2.0).1, f64::NEG_INFINITY);
    assert_eq!(power_grad(-0.0, -2.0).1, f64::INFINITY);
    // √x has only the right piece: +∞ at both zeros.
    assert_eq!(power_grad(0.0, 0.5).1, f64::INFINITY);
    assert_eq!(power_grad(-0.0, 0.5).1, f64::INFINITY);
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

// ---------------------------------------------------------------------------
// Kinks: one adjacent piece, first and second order, at +0 and −0.

/// |x²|: x·x is +0 at both zeros, the right piece of abs: x².
#[differentiable(jvp, hessian)]
fn abs_of_square<T: Float>(x: T) -> T {
    (x * x).abs()
}

/// |−x²|: −x·x is −0 at both zeros, the left piece of abs, −(−x²) = x².
#[differentiable(jvp, hessian)]
fn abs_of_negated_square<T: Float>(x: T) -> T {
    (-x * x).abs()
}

/// |x|²: the zero's sign picks ±x, and (±x)² = x² either way.
#[differentiable(jvp, hessian)]
fn square_of_abs<T: Float>(x: T) -> T {
    x.abs().powi(2)
}

/// |x|·x: x² on the right (+0), −x² on the left (−0).
#[differentiable(jvp, hessian)]
fn abs_times_x<T: Float>(x: T) -> T {
    x.abs() * x
}

/// A tie of a value with itself: the first operand's piece, x.
#[differentiable(jvp, hessian)]
fn max_with_itself<T: Float>(x: T) -> T {
    x.max(x)
}

#[differentiable(jvp, hessian)]
fn min_with_itself<T: Float>(x: T) -> T {
    x.min(x)
}

/// The same functions, not generic (their own generated code, no `Dual`
/// instantiation of a generic body).
#[differentiable(jvp, hessian)]
fn abs_of_negated_square_f64(x: f64) -> f64 {
    (-x * x).abs()
}

#[differentiable(jvp, hessian)]
fn abs_times_x_f64(x: f64) -> f64 {
    x.abs() * x
}

#[differentiable(jvp, hessian)]
fn square_of_abs_f64(x: f64) -> f64 {
    x.abs().powi(2)
}

/// The first and second derivative of the piece on the side `s` (±1) of
/// 0, from the primal: one-sided second-order differences at h = s·2⁻⁸,
/// exact for the quadratics here (every value is a power of two).
fn one_sided(f: fn(f64) -> f64, s: f64) -> (f64, f64) {
    let h = s * 2f64.powi(-8);
    let (f0, f1, f2) = (f(0.0), f(h), f(2.0 * h));
    (
        (-3.0 * f0 + 4.0 * f1 - f2) / (2.0 * h),
        (f2 - 2.0 * f1 + f0) / (h * h),
    )
}

/// `NAME_hessian` of a function of one scalar: value, gradient, Hessian.
type Hessian<T> = fn(T) -> (T, DVector<T>, DMatrix<T>);

/// What the macro generates for one of the functions above, at one float
/// type.
struct Generated<T: nalgebra::Scalar> {
    name: &'static str,
    primal: fn(T) -> T,
    grad: fn(T) -> (T, T),
    jvp: fn(T, T) -> (T, T),
    hvp: fn(T, T) -> (T, T, T),
    hessian: Hessian<T>,
}

macro_rules! generated {
    ($t:ty: $($f:ident, $grad:ident, $jvp:ident, $hvp:ident, $hessian:ident;)*) => {
        [$(Generated::<$t> {
            name: concat!(stringify!($f), " at ", stringify!($t)),
            primal: $f,
            grad: $grad,
            jvp: $jvp,
            hvp: $hvp,
            hessian: $hessian,
        }),*]
    };
}

/// The closed forms of the chosen piece at `+0` (`side` 1) or `−0` (−1):
/// (f', f'') per function, in the order of [`generic_kinks`].
fn pieces(side: f64) -> [(f64, f64); 6] {
    [
        (0.0, 2.0),        // |x²| = x²
        (0.0, 2.0),        // |−x²| = x²
        (0.0, 2.0),        // |x|² = x²
        (0.0, 2.0 * side), // |x|·x = ±x²
        (1.0, 0.0),        // max(x, x) = x
        (1.0, 0.0),        // min(x, x) = x
    ]
}

macro_rules! generic_kinks {
    ($t:ty) => {
        generated! { $t:
            abs_of_square, abs_of_square_grad, abs_of_square_jvp, abs_of_square_hvp, abs_of_square_hessian;
            abs_of_negated_square, abs_of_negated_square_grad, abs_of_negated_square_jvp,
                abs_of_negated_square_hvp, abs_of_negated_square_hessian;
            square_of_abs, square_of_abs_grad, square_of_abs_jvp, square_of_abs_hvp, square_of_abs_hessian;
            abs_times_x, abs_times_x_grad, abs_times_x_jvp, abs_times_x_hvp, abs_times_x_hessian;
            max_with_itself, max_with_itself_grad, max_with_itself_jvp, max_with_itself_hvp,
                max_with_itself_hessian;
            min_with_itself, min_with_itself_grad, min_with_itself_jvp, min_with_itself_hvp,
                min_with_itself_hessian;
        }
    };
}

/// Asserts every generated derivative of `f` at the zero of sign `side`
/// is `(d1, d2)`, to `tol` (the values are exact: 0, ±1, ±2).
fn assert_piece<T>(f: &Generated<T>, side: f64, (d1, d2): (f64, f64), widen: fn(T) -> f64)
where
    T: Float + nalgebra::Scalar + From<i8>,
{
    let zero = if side > 0.0 { T::zero() } else { -T::zero() };
    let one = T::one();
    let name = f.name;
    let (value, g) = (f.grad)(zero);
    assert_eq!(widen(value), widen((f.primal)(zero)), "{name}: value");
    let (_, t) = (f.jvp)(zero, one);
    let (_, hg, hv) = (f.hvp)(zero, one);
    let (_, hessian_g, h) = (f.hessian)(zero);
    for (what, got, want) in [
        ("grad", g, d1),
        ("jvp", t, d1),
        ("hvp gradient", hg, d1),
        ("hessian gradient", hessian_g[0], d1),
        ("hvp H·1", hv, d2),
        ("hessian", h[(0, 0)], d2),
    ] {
        assert!(
            approx::relative_eq!(widen(got), want, epsilon = 1e-15, max_relative = 1e-15),
            "{name} {what} at {side}·0: {:?}, the piece's {want}",
            widen(got)
        );
    }
    // A direction scales the tangents: jvp and H·v are linear in it.
    let two = <T as From<i8>>::from(2);
    assert_eq!(widen((f.jvp)(zero, two).1), 2.0 * d1, "{name} jvp seed 2");
    assert_eq!(widen((f.hvp)(zero, two).2), 2.0 * d2, "{name} H·2");
}

#[test]
fn functions_smooth_through_a_kink_keep_exact_derivatives_at_both_zeros() {
    // The closed forms are the primal's own pieces: one-sided differences.
    let primals: [fn(f64) -> f64; 6] = [
        abs_of_square,
        abs_of_negated_square,
        square_of_abs,
        abs_times_x,
        max_with_itself,
        min_with_itself,
    ];
    for side in [1.0, -1.0] {
        for (f, want) in primals.iter().zip(pieces(side)) {
            assert_eq!(one_sided(*f, side), want);
        }
    }
    for side in [1.0, -1.0] {
        for (f, want) in generic_kinks!(f64).iter().zip(pieces(side)) {
            assert_piece(f, side, want, |x| x);
        }
        for (f, want) in generic_kinks!(f32).iter().zip(pieces(side)) {
            assert_piece(f, side, want, f64::from);
        }
        let not_generic = generated! { f64:
            abs_of_negated_square_f64, abs_of_negated_square_f64_grad, abs_of_negated_square_f64_jvp,
                abs_of_negated_square_f64_hvp, abs_of_negated_square_f64_hessian;
            square_of_abs_f64, square_of_abs_f64_grad, square_of_abs_f64_jvp, square_of_abs_f64_hvp,
                square_of_abs_f64_hessian;
            abs_times_x_f64, abs_times_x_f64_grad, abs_times_x_f64_jvp, abs_times_x_f64_hvp,
                abs_times_x_f64_hessian;
        };
        let [_, neg_square, square, times, ..] = pieces(side);
        for (f, want) in not_generic.iter().zip([neg_square, square, times]) {
            assert_piece(f, side, want, |x| x);
        }
    }
}

// ---------------------------------------------------------------------------
// A cone's tip: `hypot` and `norm` at the origin, no adjacent smooth piece.

#[differentiable(jvp, hessian)]
fn cone<T: Float>(x: T, y: T) -> T {
    x.hypot(y)
}

/// Ackley's function in n dimensions, its radius by `norm`: minimum 0 at
/// the origin, the tip of its cone term.
#[differentiable(jvp, hessian)]
fn ackley(v: &DVector<f64>) -> f64 {
    let n = v.len() as f64;
    let r = v.norm() / n.sqrt();
    let mut c = 0.0;
    for i in 0..v.len() {
        c += (2.0 * std::f64::consts::PI * v[i]).cos();
    }
    -20.0 * (-0.2 * r).exp() - (c / n).exp() + std::f64::consts::E + 20.0
}

/// The same radius written out by hand: the square root of a sum of
/// squares.
#[differentiable(jvp, hessian)]
fn radius(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

#[test]
fn hypot_at_the_origin_has_gradient_zero_at_every_order() {
    for (x, y) in [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0)] {
        assert_eq!(cone_grad(x, y), (0.0, 0.0, 0.0), "grad at ({x}, {y})");
        assert_eq!(cone_jvp(x, y, 1.0, -0.5), (0.0, 0.0), "jvp at ({x}, {y})");
        let (_, gx, gy, hx, hy) = cone_hvp(x, y, 1.0, -0.5);
        assert_eq!((gx, gy, hx, hy), (0.0, 0.0, 0.0, 0.0), "hvp at ({x}, {y})");
        let (_, g, h) = cone_hessian(x, y);
        assert_eq!(g, DVector::zeros(2));
        assert_eq!(h, DMatrix::zeros(2, 2));
        let (x, y) = (x as f32, y as f32);
        assert_eq!(cone_grad(x, y), (0.0, 0.0, 0.0), "f32 grad at ({x}, {y})");
        assert_eq!(cone_jvp(x, y, 1.0, -0.5), (0.0, 0.0), "f32 jvp");
        let (_, g, h) = cone_hessian(x, y);
        assert_eq!(g, DVector::zeros(2));
        assert_eq!(h, DMatrix::zeros(2, 2));
    }
    // Off the tip, the cone's slope: (x, y)/r.
    let (_, gx, gy) = cone_grad(3.0, -4.0);
    assert_relative_eq!(gx, 0.6, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(gy, -0.8, epsilon = 1e-15, max_relative = 1e-15);
}

#[test]
fn ackley_by_norm_has_gradient_zero_at_its_minimum() {
    use std::f64::consts::{E, PI};
    for n in [1, 2, 3] {
        let origin = DVector::zeros(n);
        let (value, g) = ackley_grad(&origin);
        assert_relative_eq!(value, 0.0, epsilon = 1e-14, max_relative = 1e-14);
        assert_eq!(g, DVector::zeros(n), "n = {n}: an optimizer stays");
        let (_, t) = ackley_jvp(&origin, &DVector::from_element(n, 1.0));
        assert_eq!(t, 0.0);
        // The Hessian: the cone term's is 0 (the norm's convention), the
        // cosine term's −e·(1/n)·(−4π²) on the diagonal.
        let (_, g, h) = ackley_hessian(&origin);
        assert_eq!(g, DVector::zeros(n));
        let diagonal = 4.0 * PI * PI * E / n as f64;
        let want = DMatrix::from_diagonal_element(n, n, diagonal);
        assert_relative_eq!(h, want, epsilon = 1e-13, max_relative = 1e-14);
    }
    // Away from the tip the gradient is the function's: central differences.
    let v = DVector::from_vec(vec![0.3, -0.7, 0.05]);
    assert!(ackley_check(&v).is_within(1e-6, 1e-6));
}

/// `(x*x + y*y).sqrt()` at the origin: the square root's slope at 0 is its
/// piece's +∞, and the chain rule multiplies it by d(x²)/dx = 0: NaN, in
/// every mode. No rule sees the cone; `hypot` and `norm` do (above).
/// `NAME_check` shows the point (a NaN fails it).
#[test]
fn a_hand_written_radius_at_the_origin_is_nan() {
    let (value, dx, dy) = radius_grad(0.0, 0.0);
    assert_eq!(value, 0.0);
    assert!(dx.is_nan() && dy.is_nan());
    assert!(radius_jvp(0.0, 0.0, 1.0, 1.0).1.is_nan());
    let (_, g, h) = radius_hessian(0.0, 0.0);
    assert!(g.iter().chain(h.iter()).all(|d| d.is_nan()));
    assert!(!radius_check(0.0, 0.0).is_within(1e-6, 1e-6));
    // Anywhere else it is the cone's slope.
    let (_, dx, dy) = radius_grad(3.0, -4.0);
    assert_relative_eq!(dx, 0.6, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(dy, -0.8, epsilon = 1e-15, max_relative = 1e-15);
}

// ---------------------------------------------------------------------------
// A tie the program itself branches on: the taken branch's derivative.

/// The Laplace CDF as it is often written: the tail of |x| on one side,
/// its complement on the other. Smooth at 0, with slope ½.
#[differentiable]
fn laplace_cdf(x: f64) -> f64 {
    let tail = 0.5 * (-x.abs()).exp();
    if x > 0.0 { 1.0 - tail } else { tail }
}

#[test]
fn a_branch_on_a_tie_gives_the_taken_branchs_derivative_and_check_shows_it() {
    // x = −0: the `else` branch, tail(|x|) = ½eˣ, with abs on the left
    // piece (the zero's sign): ½, the slope of the function.
    let (_, dx) = laplace_cdf_grad(-0.0);
    assert_relative_eq!(dx, 0.5, epsilon = 1e-15, max_relative = 1e-15);
    // x = +0: the program still takes `else` (0 > 0 is false), but abs
    // takes the right piece: −½, the slope of a piece the program does not
    // use at x > 0. No rule can see the branch; the check does.
    let (_, dx) = laplace_cdf_grad(0.0);
    assert_relative_eq!(dx, -0.5, epsilon = 1e-15, max_relative = 1e-15);
    // The difference straddles 0, where F'' jumps from ½ to −½: an error
    // of h/4 ≈ 1.5e-6 at the step ∛ε.
    assert!(!laplace_cdf_check(0.0).is_within(1e-5, 1e-5));
    assert!(laplace_cdf_check(-0.0).is_within(1e-5, 1e-5));
    assert!(laplace_cdf_check(0.25).is_within(1e-6, 1e-6));
}

/// The same kinks element by element, through `m.map(..)` (the lifted
/// rules) and `norm` at the zero vector.
#[differentiable(jvp, hessian)]
fn mapped_kinks(v: &DVector<f64>) -> f64 {
    v.map(|x| x.abs() * x + (-x * x).abs()).sum() + v.norm()
}

#[test]
fn element_wise_kinks_take_the_same_pieces() {
    // |x|·x + |−x²| on the side of each zero: f' = 0, f'' = 2·copysign(1,
    // x) + 2; the norm at the zero vector adds its convention's 0.
    let v = DVector::from_vec(vec![0.0, -0.0]);
    let (_, g) = mapped_kinks_grad(&v);
    assert_eq!(g, DVector::zeros(2));
    let (_, t) = mapped_kinks_jvp(&v, &DVector::from_vec(vec![1.0, -2.0]));
    assert_eq!(t, 0.0);
    let (_, g, h) = mapped_kinks_hessian(&v);
    assert_eq!(g, DVector::zeros(2));
    let want = DMatrix::from_diagonal(&DVector::from_vec(vec![4.0, 0.0]));
    assert_relative_eq!(h, want, epsilon = 1e-15, max_relative = 1e-15);
}
