//! Implicit-hook and custom-rule functions (returning plain `f64`) called
//! from other `#[differentiable]` code like any other differentiable
//! function: the caller's gradient goes through their pullbacks.
//!
//! Expected gradients come from closed forms and from central finite
//! differences of the callers (which re-solve at every point).

use approx::{assert_abs_diff_eq, assert_relative_eq};
use autograd::solve::{bisect, brent};
use autograd::{central_difference, differentiable};

/// x² − c.
#[differentiable]
fn square_residual(x: f64, c: f64) -> f64 {
    x * x - c
}

/// √c by bisection, plain `f64` (NaN without a root).
#[differentiable(implicit = square_residual)]
fn sqrt_implicit(c: f64) -> f64 {
    bisect(|x| square_residual(x, c), 0.0, c.max(1.0), 1e-15).unwrap_or(f64::NAN)
}

fn sqrt_rule(grad_output: f64, _c: f64, output: f64) -> (f64,) {
    (grad_output / (2.0 * output),)
}

/// √c by Brent's method with a hand-written adjoint.
#[differentiable(backward = sqrt_rule)]
fn sqrt_custom(c: f64) -> f64 {
    brent(|x| x * x - c, 0.0, c.max(1.0), 1e-15).unwrap_or(f64::NAN)
}

/// r(x, a, b) = x·eˣ − a·b: x is Lambert's W of a·b.
#[differentiable]
fn lambert_residual(x: f64, a: f64, b: f64) -> f64 {
    x * x.exp() - a * b
}

/// W(a·b) for a·b ≥ 0, two arguments through the hook.
#[differentiable(implicit = lambert_residual)]
fn lambert_w(a: f64, b: f64) -> f64 {
    bisect(|x| lambert_residual(x, a, b), 0.0, (a * b).max(1.0), 1e-15).unwrap_or(f64::NAN)
}

/// A caller mixing both kinds with ordinary operations:
/// f(a, b) = √(a² + b²) · 2 + √a·b + W(a·b).
#[differentiable]
fn caller(a: f64, b: f64) -> f64 {
    let h = sqrt_implicit(a * a + b * b);
    let s = sqrt_custom(a);
    let w = lambert_w(a, b);
    h * 2.0 + s * b + w
}

/// A loop that calls a solver each step: Σᵢ √(c + i).
#[differentiable]
fn sum_of_roots(c: f64, #[constant] n: usize) -> f64 {
    let mut acc = 0.0;
    for i in 0..n {
        acc += sqrt_implicit(c + i as f64) - sqrt_custom(c * (i as f64 + 1.0));
    }
    acc
}

/// Slices through the hook: the x with Σᵢ wᵢ·exp(x·tᵢ) = target.
#[differentiable]
fn growth_residual(x: f64, w: &[f64], target: f64, #[constant] t: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * (x * t[i]).exp();
    }
    s - target
}

#[differentiable(implicit = growth_residual)]
fn growth_rate(w: &[f64], target: f64, #[constant] t: &[f64]) -> f64 {
    brent(|x| growth_residual(x, w, target, t), -1.0, 1.0, 1e-15).unwrap_or(f64::NAN)
}

/// Calls the slice solver and uses its result in a further expression.
#[differentiable]
fn doubling_time(w: &[f64], target: f64, #[constant] t: &[f64]) -> f64 {
    let g = growth_rate(w, target, t);
    std::f64::consts::LN_2 / g
}

#[test]
fn caller_gradient_against_the_closed_form() {
    for (a, b) in [(1.0, 2.0), (3.0, 0.5), (0.2, 4.0)] {
        let (v, da, db) = caller_grad(a, b);
        let h = (a * a + b * b).sqrt();
        let w = lambert_w(a, b);
        assert_abs_diff_eq!(v, 2.0 * h + a.sqrt() * b + w, epsilon = 1e-12);
        // dW/dx = W / (x (1 + W)) at x = a·b.
        let dw = w / (a * b * (1.0 + w));
        let da_expected = 2.0 * a / h + b / (2.0 * a.sqrt()) + b * dw;
        let db_expected = 2.0 * b / h + a.sqrt() + a * dw;
        assert_relative_eq!(da, da_expected, epsilon = 0.0, max_relative = 1e-11);
        assert_relative_eq!(db, db_expected, epsilon = 0.0, max_relative = 1e-11);
    }
}

#[test]
fn caller_gradient_against_finite_differences() {
    for (a, b) in [(1.0, 2.0), (3.0, 0.5), (0.2, 4.0)] {
        let (_, da, db) = caller_grad(a, b);
        assert_relative_eq!(
            da,
            central_difference(|a: f64| caller(a, b), a),
            epsilon = 1e-7,
            max_relative = 1e-6
        );
        assert_relative_eq!(
            db,
            central_difference(|b: f64| caller(a, b), b),
            epsilon = 1e-7,
            max_relative = 1e-6
        );
        let check = caller_check(a, b);
        assert!(check.is_within(1e-7, 1e-6), "{check:?}");
    }
}

#[test]
fn solvers_called_in_a_loop() {
    let n = 6;
    for c in [0.5, 2.0, 7.0] {
        let (v, dc) = sum_of_roots_grad(c, n);
        let (mut expected, mut d_expected) = (0.0, 0.0);
        for i in 0..n {
            let k = i as f64 + 1.0;
            expected += (c + i as f64).sqrt() - (c * k).sqrt();
            d_expected += 0.5 / (c + i as f64).sqrt() - 0.5 * k / (c * k).sqrt();
        }
        assert_abs_diff_eq!(v, expected, epsilon = 1e-13);
        assert_relative_eq!(dc, d_expected, epsilon = 1e-12, max_relative = 1e-11);
        let fd = central_difference(|c: f64| sum_of_roots(c, n), c);
        assert_relative_eq!(dc, fd, epsilon = 1e-7, max_relative = 1e-6);
    }
}

#[test]
fn a_slice_solver_inside_other_code() {
    let w = [0.2, 0.3, 0.5];
    let t = [1.0, 2.0, 4.0];
    let target = 1.3;
    let (v, dw, dtarget) = doubling_time_grad(&w, target, &t);
    let g = growth_rate(&w, target, &t);
    assert_abs_diff_eq!(v, std::f64::consts::LN_2 / g, epsilon = 1e-12);
    // Closed form: dg/dθ = −(∂r/∂θ)/(∂r/∂g), ∂r/∂g = Σ wᵢtᵢe^{g tᵢ},
    // ∂r/∂wᵢ = e^{g tᵢ}, ∂r/∂target = −1; then d(ln2/g) = −ln2/g² · dg.
    let r_g: f64 = (0..3).map(|i| w[i] * t[i] * (g * t[i]).exp()).sum();
    let outer = -std::f64::consts::LN_2 / (g * g);
    for i in 0..3 {
        let dg = -(g * t[i]).exp() / r_g;
        assert_relative_eq!(dw[i], outer * dg, epsilon = 0.0, max_relative = 1e-11);
    }
    assert_relative_eq!(dtarget, outer / r_g, epsilon = 0.0, max_relative = 1e-11);
    let check = doubling_time_check(&w, target, &t);
    assert!(check.is_within(1e-6, 1e-6), "{check:?}");
}
