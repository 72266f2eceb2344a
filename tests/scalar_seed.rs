//! The seed chapter's worked examples (chapter 16), through the macro.
//!
//! Every expected number is the chapter's own, or its closed form. Values
//! that are exact in binary (sums and products of small integers, seeds
//! times 0.25 or 1) are asserted with `assert_eq!`; the rest with a stated
//! tolerance:
//!
//! - against a closed form: `epsilon = 1e-14`, `max_relative = 1e-14`
//!   (the adjoint evaluates the same formula, a few roundings apart);
//! - against finite differences: the tolerances of `fd_support`.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::prelude::*;
use fd_support::{FD64_ABS, FD64_REL, fd64, fd64_2};

/// Closed-form tolerances (see the module docs).
const CF_ABS: f64 = 1e-14;
const CF_REL: f64 = 1e-14;

/// 16.1 / 16.2: the running example.
#[differentiable]
fn w(x: f64, y: f64) -> f64 {
    let z = x * y;
    z + x
}

/// 16.2.3: u = exp(x).
#[differentiable]
fn u(x: f64) -> f64 {
    x.exp()
}

/// 16.4.1: c = a - b.
#[differentiable]
fn sub(a: f64, b: f64) -> f64 {
    a - b
}

/// 16.4.1: c = a / b.
#[differentiable]
fn div(a: f64, b: f64) -> f64 {
    a / b
}

/// 16.4.2: a^b.
#[differentiable]
fn pow(a: f64, b: f64) -> f64 {
    a.powf(b)
}

/// 16.4.2: ln x.
#[differentiable]
fn log(x: f64) -> f64 {
    x.ln()
}

/// 16.5.1: relu.
#[differentiable]
fn relu(x: f64) -> f64 {
    x.relu()
}

/// 16.5.2: sigmoid.
#[differentiable]
fn sigmoid(x: f64) -> f64 {
    x.sigmoid()
}

/// 16.5.2: tanh.
#[differentiable]
fn tanh(x: f64) -> f64 {
    x.tanh()
}

/// 16.5.3: sin.
#[differentiable]
fn sin(x: f64) -> f64 {
    x.sin()
}

/// 16.5.3: cos.
#[differentiable]
fn cos(x: f64) -> f64 {
    x.cos()
}

/// Worked Example 16.2.2: w(3, 4) = 15, ∂w/∂x = y + 1 = 5, ∂w/∂y = x = 3.
#[test]
fn running_example_at_3_4() {
    assert_eq!(w_grad(3.0, 4.0), (15.0, 5.0, 3.0));
    let (value, pullback) = w_vjp(3.0, 4.0);
    assert_eq!(value, 15.0);
    assert_eq!(pullback(1.0), (5.0, 3.0));
}

/// Self-check question 1: at (5, 2), x.grad = 1 (add) + 2 (mul) = 3 and
/// y.grad = 5.
#[test]
fn running_example_at_5_2() {
    assert_eq!(w_grad(5.0, 2.0), (15.0, 3.0, 5.0));
}

/// Self-check question 2: with y = 0 the mul node hands x nothing, so only
/// the add route's 1 remains.
#[test]
fn running_example_with_y_zero() {
    assert_eq!(w_grad(4.0, 0.0), (4.0, 1.0, 4.0));
}

/// The pullback is linear in the seed: seed s gives s·(5, 3).
#[test]
fn running_example_seed_scales() {
    let (_, pullback) = w_vjp(3.0, 4.0);
    assert_eq!(pullback(-2.5), (-12.5, -7.5));
}

/// Worked Example 16.2.3: exp at 1 is e, and so is its derivative.
#[test]
fn exp_at_one() {
    let (value, du) = u_grad(1.0);
    assert_relative_eq!(
        value,
        std::f64::consts::E,
        epsilon = CF_ABS,
        max_relative = CF_REL
    );
    assert_relative_eq!(
        du,
        std::f64::consts::E,
        epsilon = CF_ABS,
        max_relative = CF_REL
    );
    // ExpOp reuses the output: the adjoint is the value, bit for bit.
    assert_eq!(du.to_bits(), value.to_bits());
}

/// Worked Example 16.4.1: a - b at (8, 5) is 3 with adjoints (1, -1).
#[test]
fn sub_at_8_5() {
    assert_eq!(sub_grad(8.0, 5.0), (3.0, 1.0, -1.0));
}

/// Worked Example 16.4.1: a / b at (8, 5) is 1.6 with adjoints 1/b = 0.2
/// and -a/b² = -0.32, cross-checked against finite differences (the
/// chapter's one-sided nudge gives -0.31994; the central difference is
/// far closer).
#[test]
fn div_at_8_5() {
    let (value, da, db) = div_grad(8.0, 5.0);
    assert_eq!(value, 8.0 / 5.0);
    assert_relative_eq!(da, 0.2, epsilon = CF_ABS, max_relative = CF_REL);
    assert_relative_eq!(db, -0.32, epsilon = CF_ABS, max_relative = CF_REL);

    let (fa, fb) = fd64_2(div, 8.0, 5.0);
    assert_relative_eq!(da, fa, epsilon = FD64_ABS, max_relative = FD64_REL);
    assert_relative_eq!(db, fb, epsilon = FD64_ABS, max_relative = FD64_REL);
    let (sa, sb) = fd64_2(sub, 8.0, 5.0);
    assert_relative_eq!(1.0, sa, epsilon = FD64_ABS, max_relative = FD64_REL);
    assert_relative_eq!(-1.0, sb, epsilon = FD64_ABS, max_relative = FD64_REL);

    // The chapter's own one-sided check: (8/5.001 - 1.6)/0.001 ≈ -0.31994,
    // "matching the analytic -0.32 to four digits".
    let one_sided = (div(8.0, 5.001) - div(8.0, 5.0)) / 0.001;
    assert_relative_eq!(db, one_sided, epsilon = 1e-4, max_relative = 1e-3);
}

/// Worked Example 16.4.2: 2³ = 8, ∂/∂a = 3·2² = 12, ∂/∂b = 8·ln 2 ≈ 5.545.
#[test]
fn pow_at_2_3() {
    let (value, da, db) = pow_grad(2.0, 3.0);
    assert_eq!(value, 8.0);
    assert_relative_eq!(da, 12.0, epsilon = CF_ABS, max_relative = CF_REL);
    assert_relative_eq!(
        db,
        8.0 * std::f64::consts::LN_2,
        epsilon = CF_ABS,
        max_relative = CF_REL
    );
    // The chapter's rounded figure.
    assert_relative_eq!(db, 5.545, epsilon = 1e-3, max_relative = 0.0);

    let (fa, fb) = fd64_2(pow, 2.0, 3.0);
    assert_relative_eq!(da, fa, epsilon = FD64_ABS, max_relative = FD64_REL);
    assert_relative_eq!(db, fb, epsilon = FD64_ABS, max_relative = FD64_REL);
}

/// Worked Example 16.4.2: ln 2 ≈ 0.6931, d/dx ln x = 1/x = 0.5.
#[test]
fn ln_at_2() {
    let (value, dx) = log_grad(2.0);
    assert_relative_eq!(
        value,
        std::f64::consts::LN_2,
        epsilon = CF_ABS,
        max_relative = CF_REL
    );
    assert_eq!(dx, 0.5);
    assert_relative_eq!(
        dx,
        fd64(log, 2.0),
        epsilon = FD64_ABS,
        max_relative = FD64_REL
    );
}

/// Worked Example 16.5.1: relu on [-2, 3, -1, 5] passes the seed where
/// x > 0 and nothing elsewhere; self-check question 4 adds x = 0, which
/// gets 0 (the strict mask).
#[test]
fn relu_mask() {
    let xs = [-2.0, 3.0, -1.0, 5.0, -3.0, 2.0, 0.0];
    let expected_value = [0.0, 3.0, 0.0, 5.0, 0.0, 2.0, 0.0];
    let expected_grad = [0.0, 1.0, 0.0, 1.0, 0.0, 1.0, 0.0];
    for ((&x, &v), &g) in xs.iter().zip(&expected_value).zip(&expected_grad) {
        assert_eq!(relu_grad(x), (v, g), "relu at {x}");
    }
}

/// Worked Example 16.5.2 and self-check question 5: at x = 0 with seed 2,
/// sigmoid hands back 2·0.5·0.5 = 0.5 and tanh 2·(1 - 0²) = 2.
#[test]
fn sigmoid_and_tanh_at_0_with_seed_2() {
    let (s, pullback) = sigmoid_vjp(0.0);
    assert_eq!(s, 0.5);
    assert_eq!(pullback(2.0), (0.5,));

    let (t, pullback) = tanh_vjp(0.0);
    assert_eq!(t, 0.0);
    assert_eq!(pullback(2.0), (2.0,));

    // With seed 1, the local slopes: 0.25 and 1, tanh four times steeper.
    assert_eq!(sigmoid_grad(0.0), (0.5, 0.25));
    assert_eq!(tanh_grad(0.0), (0.0, 1.0));
}

/// Worked Example 16.5.3: at 0, sin passes the seed through (cos 0 = 1)
/// and cos hands back -sin 0 = 0.
#[test]
fn sin_and_cos_at_0() {
    assert_eq!(sin_grad(0.0), (0.0, 1.0));
    let (value, d) = cos_grad(0.0);
    assert_eq!(value, 1.0);
    assert_eq!(d, 0.0);

    let (_, pullback) = sin_vjp(0.0);
    assert_eq!(pullback(3.0), (3.0,));
    let (_, pullback) = cos_vjp(0.0);
    assert_eq!(pullback(3.0).0, 0.0);
}

/// Every example's `_grad` and `_vjp` value is bit for bit the primal's.
#[test]
fn values_are_bit_exact() {
    fn same(a: f64, b: f64, what: &str) {
        assert_eq!(a.to_bits(), b.to_bits(), "{what}: {a} vs {b}");
    }
    for (x, y) in [(3.0, 4.0), (5.0, 2.0), (0.3, -1.7), (8.0, 5.0), (2.0, 3.0)] {
        same(w_grad(x, y).0, w(x, y), "w_grad");
        same(w_vjp(x, y).0, w(x, y), "w_vjp");
        same(sub_grad(x, y).0, sub(x, y), "sub_grad");
        same(sub_vjp(x, y).0, sub(x, y), "sub_vjp");
        same(div_grad(x, y).0, div(x, y), "div_grad");
        same(div_vjp(x, y).0, div(x, y), "div_vjp");
        same(pow_grad(x.abs(), y).0, pow(x.abs(), y), "pow_grad");
        same(pow_vjp(x.abs(), y).0, pow(x.abs(), y), "pow_vjp");
    }
    for x in [-2.0, -0.3, 0.0, 0.7, 1.0, 2.0, 3.5] {
        same(u_grad(x).0, u(x), "u_grad");
        same(u_vjp(x).0, u(x), "u_vjp");
        same(relu_grad(x).0, relu(x), "relu_grad");
        same(relu_vjp(x).0, relu(x), "relu_vjp");
        same(sigmoid_grad(x).0, sigmoid(x), "sigmoid_grad");
        same(sigmoid_vjp(x).0, sigmoid(x), "sigmoid_vjp");
        same(tanh_grad(x).0, tanh(x), "tanh_grad");
        same(tanh_vjp(x).0, tanh(x), "tanh_vjp");
        same(sin_grad(x).0, sin(x), "sin_grad");
        same(sin_vjp(x).0, sin(x), "sin_vjp");
        same(cos_grad(x).0, cos(x), "cos_grad");
        same(cos_vjp(x).0, cos(x), "cos_vjp");
        if x > 0.0 {
            same(log_grad(x).0, log(x), "log_grad");
            same(log_vjp(x).0, log(x), "log_vjp");
        }
    }
}

/// `NAME_check` agrees on the seed's examples, and reports the adjoints it
/// was given.
#[test]
fn generated_checks_pass() {
    let check = w_check(3.0, 4.0);
    assert!(check.is_within(1e-8, 1e-8), "{check}");
    assert_eq!(check.value(), 15.0);
    let adjoints: Vec<f64> = check.components().iter().map(|c| c.adjoint).collect();
    assert_eq!(adjoints, [5.0, 3.0]);

    for check in [
        div_check(8.0, 5.0),
        pow_check(2.0, 3.0),
        sub_check(8.0, 5.0),
    ] {
        assert!(check.is_within(1e-7, 1e-7), "{check}");
    }
    for check in [
        u_check(1.0),
        log_check(2.0),
        sigmoid_check(0.0),
        tanh_check(0.0),
        sin_check(0.0),
        cos_check(0.0),
        relu_check(3.0),
    ] {
        assert!(check.is_within(1e-7, 1e-7), "{check}");
    }
}
