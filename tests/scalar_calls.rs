//! Straight-line bodies beyond single methods: a variable along many
//! routes, shadowing, calls to other `#[differentiable]` functions three
//! deep (by name and by module path), `stop_gradient`, constant arguments
//! (`#[constant]`, integers, `bool`), integer constants and `as` casts,
//! parentheses, unary minus, typed `let`, `return`.
//!
//! Every expected adjoint is a closed form (`epsilon = 1e-13`,
//! `max_relative = 1e-12`: the same arithmetic up to a few roundings) and a
//! central finite difference (`fd_support`'s `FD64_*` tolerances); every
//! value is compared bit for bit with the primal's.

mod fd_support;

use approx::assert_relative_eq;
use autograd::{differentiable, stop_gradient};
use fd_support::{FD64_ABS, FD64_REL, fd64, fd64_2};

const CF_ABS: f64 = 1e-13;
const CF_REL: f64 = 1e-12;

const POINTS: &[(f64, f64)] = &[(3.0, 4.0), (0.7, -1.3), (-2.1, 0.4), (1.5, 2.5)];

/// Points for `f`, whose `sin(eˣ)` has fifth derivatives of order e⁵ˣ: kept
/// to x ≤ 1.5 so the five-point stencil's truncation error (h⁴·|f⁽⁵⁾|/30)
/// stays far below the tolerance.
const COMPOSE_POINTS: &[(f64, f64)] = &[(1.0, 4.0), (0.7, -1.3), (-2.1, 0.4), (1.5, 2.5)];

/// Checks `(value, dx, dy)` against the primal's bits, a closed form and
/// finite differences.
fn check2(
    name: &str,
    f: impl Fn(f64, f64) -> f64,
    got: (f64, f64, f64),
    closed: (f64, f64),
    x: f64,
    y: f64,
) {
    let (value, dx, dy) = got;
    assert_eq!(
        value.to_bits(),
        f(x, y).to_bits(),
        "{name} value at ({x}, {y})"
    );
    let (fx, fy) = fd64_2(&f, x, y);
    for (what, a, c, d) in [("x", dx, closed.0, fx), ("y", dy, closed.1, fy)] {
        assert!(
            approx::relative_eq!(a, c, epsilon = CF_ABS, max_relative = CF_REL),
            "{name} d{what} at ({x}, {y}): adjoint {a}, closed form {c}"
        );
        assert!(
            approx::relative_eq!(a, d, epsilon = FD64_ABS, max_relative = FD64_REL),
            "{name} d{what} at ({x}, {y}): adjoint {a}, finite difference {d}"
        );
    }
}

// ---------------------------------------------------------------- routes

/// x reaches the result along five routes: x·x (two), x·3, x/2, sin x.
#[differentiable]
fn five_routes(x: f64) -> f64 {
    x * x + x * 3.0 - x / 2.0 + x.sin()
}

#[test]
fn variable_used_along_many_routes() {
    for x in [-2.0, -0.3, 0.0, 0.8, 4.5] {
        let (value, dx) = five_routes_grad(x);
        assert_eq!(value.to_bits(), five_routes(x).to_bits());
        let closed = 2.0 * x + 3.0 - 0.5 + x.cos();
        assert_relative_eq!(dx, closed, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(
            dx,
            fd64(five_routes, x),
            epsilon = FD64_ABS,
            max_relative = FD64_REL
        );
    }
}

/// A diamond: `a` and `b` both read `x` and `y`, and `x` also skips ahead.
#[differentiable]
fn diamond(x: f64, y: f64) -> f64 {
    let a = x * y;
    let b = x + y;
    let c = a * b;
    c + a / b + x
}

#[test]
fn diamond_sums_every_path() {
    for &(x, y) in POINTS {
        let (a, b) = (x * y, x + y);
        // d/dx (ab + a/b + x) = y·b + a + y/b - a/b² + 1, and symmetrically.
        let dx = y * b + a + y / b - a / (b * b) + 1.0;
        let dy = x * b + a + x / b - a / (b * b);
        check2("diamond", diamond, diamond_grad(x, y), (dx, dy), x, y);
    }
}

// ------------------------------------------------------------- shadowing

/// `x` is shadowed twice; the adjoint goes to the argument.
#[differentiable]
fn shadowing(x: f64, y: f64) -> f64 {
    let x = x * 2.0;
    let x = x + y;
    let y = x * y;
    x * y
}

#[test]
fn shadowed_bindings() {
    for &(x, y) in POINTS {
        // x' = 2x + y; y' = x'·y; result x'·y' = (2x + y)²·y.
        let s = 2.0 * x + y;
        let closed = (4.0 * s * y, 2.0 * s * y + s * s);
        check2("shadowing", shadowing, shadowing_grad(x, y), closed, x, y);
    }
}

// ---------------------------------------------------------- composition

/// h(a, b) = a·b + sin a.
#[differentiable]
fn h(a: f64, b: f64) -> f64 {
    a * b + a.sin()
}

/// g(u, v) = h(u, v²) + u.
#[differentiable]
fn g(u: f64, v: f64) -> f64 {
    h(u, v * v) + u
}

/// f(x, y) = 2·g(eˣ, y): f calls g calls h.
#[differentiable]
fn f(x: f64, y: f64) -> f64 {
    g(x.exp(), y) * 2.0
}

/// The same chain through a module path.
mod inner {
    use autograd::differentiable;

    /// h(a, b) = a·b + sin a.
    #[differentiable]
    pub fn h(a: f64, b: f64) -> f64 {
        a * b + a.sin()
    }

    pub mod deeper {
        use autograd::differentiable;

        /// g(u, v) = h(u, v²) + u, calling up through `super::h`.
        #[differentiable]
        pub fn g(u: f64, v: f64) -> f64 {
            super::h(u, v * v) + u
        }
    }
}

/// f(x, y) = 2·g(eˣ, y) with g and h reached by path.
#[differentiable]
fn f_by_path(x: f64, y: f64) -> f64 {
    inner::deeper::g(x.exp(), y) * 2.0
}

/// f(x, y) = h(x, y) + inner::h(y, x): the same callee twice, one call
/// nested in another's argument.
#[differentiable]
fn nested_calls(x: f64, y: f64) -> f64 {
    h(inner::h(x, y), x) + inner::h(y, x)
}

/// The closed form of f (and f_by_path): with u = eˣ,
/// f = 2(u·y² + sin u + u), df/dx = 2u(y² + cos u + 1), df/dy = 4uy.
fn f_closed(x: f64, y: f64) -> (f64, f64) {
    let u = x.exp();
    (2.0 * u * (y * y + u.cos() + 1.0), 4.0 * u * y)
}

#[test]
fn composition_three_deep() {
    for &(x, y) in COMPOSE_POINTS {
        check2("f", f, f_grad(x, y), f_closed(x, y), x, y);
        check2(
            "g",
            g,
            g_grad(x, y),
            (y * y + x.cos() + 1.0, 2.0 * x * y),
            x,
            y,
        );
        check2("h", h, h_grad(x, y), (y + x.cos(), x), x, y);
    }
}

#[test]
fn composition_by_module_path() {
    for &(x, y) in COMPOSE_POINTS {
        check2(
            "f_by_path",
            f_by_path,
            f_by_path_grad(x, y),
            f_closed(x, y),
            x,
            y,
        );
        check2(
            "inner::deeper::g",
            inner::deeper::g,
            inner::deeper::g_grad(x, y),
            (y * y + x.cos() + 1.0, 2.0 * x * y),
            x,
            y,
        );
        // The two routes to the same function agree to the bit.
        assert_eq!(f_by_path_grad(x, y), f_grad(x, y));
    }
}

#[test]
fn nested_and_repeated_calls() {
    for &(x, y) in COMPOSE_POINTS {
        // p = inner::h(x, y) = xy + sin x; result h(p, x) + (yx + sin y)
        // = p·x + sin p + xy + sin y.
        let p = x * y + x.sin();
        let (px, py) = (y + x.cos(), x);
        let dx = px * x + p + p.cos() * px + y;
        let dy = py * x + p.cos() * py + x + y.cos();
        check2(
            "nested_calls",
            nested_calls,
            nested_calls_grad(x, y),
            (dx, dy),
            x,
            y,
        );
    }
}

/// The pullback of a composite with a seed other than 1.
#[test]
fn composite_pullback_scales_with_the_seed() {
    let (x, y) = (0.4, -0.9);
    let (value, pullback) = f_vjp(x, y);
    assert_eq!(value.to_bits(), f(x, y).to_bits());
    let (dx, dy) = pullback(-3.0);
    let (cx, cy) = f_closed(x, y);
    assert_relative_eq!(dx, -3.0 * cx, epsilon = CF_ABS, max_relative = CF_REL);
    assert_relative_eq!(dy, -3.0 * cy, epsilon = CF_ABS, max_relative = CF_REL);
}

// --------------------------------------------------------- stop_gradient

/// The product's value flows, its gradient does not: only the `+ x` route
/// reaches x, and nothing reaches y.
#[differentiable]
fn stopped(x: f64, y: f64) -> f64 {
    autograd::stop_gradient(x * y) + x
}

/// `stop_gradient` by its plain name, on part of an expression.
#[differentiable]
fn partly_stopped(x: f64, y: f64) -> f64 {
    let s = stop_gradient(x.sin());
    s * x + y * y
}

/// The value of `stop_gradient(e)` is `e`, so the primal equals this
/// plain function bit for bit.
fn stopped_plain(x: f64, y: f64) -> f64 {
    x * y + x
}

#[test]
fn stop_gradient_blocks_the_gradient_not_the_value() {
    for &(x, y) in POINTS {
        let (value, dx, dy) = stopped_grad(x, y);
        assert_eq!(value.to_bits(), stopped(x, y).to_bits());
        assert_eq!(value.to_bits(), stopped_plain(x, y).to_bits());
        assert_eq!((dx, dy), (1.0, 0.0));

        let (value, dx, dy) = partly_stopped_grad(x, y);
        assert_eq!(value.to_bits(), partly_stopped(x, y).to_bits());
        // d/dx (s·x) with s held constant is s = sin x; d/dy y² = 2y.
        assert_relative_eq!(dx, x.sin(), epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(dy, 2.0 * y, epsilon = CF_ABS, max_relative = CF_REL);
    }
}

// ---------------------------------------------------- constant arguments

/// `k` is `#[constant]`: no slot, so `_grad` returns (value, dx, dy).
#[differentiable]
fn with_constant(x: f64, #[constant] k: f64, y: f64) -> f64 {
    k * x * y + k.sin() * x
}

/// An integer and a `bool`, neither of which gets a slot.
#[differentiable]
fn with_int_and_bool(n: u32, x: f64, flip: bool, y: f64) -> f64 {
    let s = if flip { -1.0 } else { 1.0 };
    s * x.powi(n as i32) + y * n as f64
}

#[test]
fn constant_arguments_have_no_slot() {
    for &(x, y) in POINTS {
        for k in [-1.5, 0.0, 2.0] {
            let (value, dx, dy): (f64, f64, f64) = with_constant_grad(x, k, y);
            assert_eq!(value.to_bits(), with_constant(x, k, y).to_bits());
            let closed = (k * y + k.sin(), k * x);
            assert_relative_eq!(dx, closed.0, epsilon = CF_ABS, max_relative = CF_REL);
            assert_relative_eq!(dy, closed.1, epsilon = CF_ABS, max_relative = CF_REL);
            let (fx, fy) = fd64_2(|x, y| with_constant(x, k, y), x, y);
            assert_relative_eq!(dx, fx, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(dy, fy, epsilon = FD64_ABS, max_relative = FD64_REL);

            let (value, pullback) = with_constant_vjp(x, k, y);
            assert_eq!(value.to_bits(), with_constant(x, k, y).to_bits());
            let (px, py): (f64, f64) = pullback(1.0);
            assert_eq!((px, py), (dx, dy));
        }
        for n in [0_u32, 1, 3] {
            for flip in [false, true] {
                let (value, dx, dy): (f64, f64, f64) = with_int_and_bool_grad(n, x, flip, y);
                assert_eq!(value.to_bits(), with_int_and_bool(n, x, flip, y).to_bits());
                let s = if flip { -1.0 } else { 1.0 };
                let cx = if n == 0 {
                    0.0
                } else {
                    s * f64::from(n) * x.powi(n as i32 - 1)
                };
                assert_relative_eq!(dx, cx, epsilon = CF_ABS, max_relative = CF_REL);
                assert_eq!(dy, f64::from(n));
            }
        }
    }
}

/// The generated check skips constant arguments too.
#[test]
fn check_covers_only_differentiable_arguments() {
    let check = with_constant_check(0.7, 2.0, -1.3);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
    let names: Vec<&str> = check
        .components()
        .iter()
        .map(|c| c.argument.as_str())
        .collect();
    assert_eq!(names, ["x", "y"]);
    let check = with_int_and_bool_check(3, 0.7, true, -1.3);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
    assert_eq!(check.components().len(), 2);
}

// ----------------------------------------- integer constants and casts

const SCALE: i32 = 3;

/// Integer arithmetic on constants, `as f64` casts of integer arguments,
/// literals and a `const`. (`7 as f64` is the syntax under test.)
#[allow(clippy::unnecessary_cast)]
#[differentiable]
fn int_constants(x: f64, n: usize, m: i64) -> f64 {
    let k = (n * 2 + 1) as f64;
    let j = 4;
    let c = (SCALE * j - 2) as f64;
    x * k + x * x * (m as f64) + (7 as f64) * x / c + 1.0 / (j as f64)
}

#[test]
fn integer_constants_and_casts() {
    for x in [-1.5, 0.0, 0.25, 2.0] {
        for (n, m) in [(0_usize, 0_i64), (3, -2), (10, 5)] {
            let (value, dx): (f64, f64) = int_constants_grad(x, n, m);
            assert_eq!(value.to_bits(), int_constants(x, n, m).to_bits());
            let k = (2 * n + 1) as f64;
            let closed = k + 2.0 * x * m as f64 + 7.0 / 10.0;
            assert_relative_eq!(dx, closed, epsilon = CF_ABS, max_relative = CF_REL);
            assert_relative_eq!(
                dx,
                fd64(|x| int_constants(x, n, m), x),
                epsilon = FD64_ABS,
                max_relative = FD64_REL
            );
        }
    }
}

// --------------------------------------- parentheses, unary minus, let

/// Nested parentheses and unary minus in every position.
#[differentiable]
fn signs(x: f64, y: f64) -> f64 {
    -(x - (y * -x)) * -(-y) + -(-(x * x))
}

/// Typed `let`, a `let` of a literal, `return` as the last statement
/// (the syntax under test).
#[allow(clippy::needless_return)]
#[differentiable]
fn typed_and_return(x: f64, y: f64) -> f64 {
    let a: f64 = x / y;
    let two = 2.0;
    let b: f64 = (a - two) * (a + two);
    return b * y;
}

#[test]
fn parentheses_and_unary_minus() {
    for &(x, y) in POINTS {
        // -(x + xy)·y + x² = -xy - xy² + x².
        let closed = (-y - y * y + 2.0 * x, -x - 2.0 * x * y);
        check2("signs", signs, signs_grad(x, y), closed, x, y);
    }
}

#[test]
fn typed_let_and_return() {
    for &(x, y) in POINTS {
        // (a² - 4)·y with a = x/y: x²/y - 4y.
        let closed = (2.0 * x / y, -(x * x) / (y * y) - 4.0);
        check2(
            "typed_and_return",
            typed_and_return,
            typed_and_return_grad(x, y),
            closed,
            x,
            y,
        );
    }
}

/// Constants as receivers and arguments of methods: a constant base
/// (`2^x`), a constant exponent, a constant receiver of `min`, a constant
/// first argument of `f64::max`, a method on a cast, and an integer `let`
/// computed from an integer argument.
#[differentiable]
fn constant_operands(x: f64, n: i32) -> f64 {
    let m = n + 1;
    2.0_f64.powf(x) + x.powf(2.0) + 0.5_f64.min(x) + f64::max(1.0, x) - x.exp()
        + (m as f64).sqrt() * x
        + x * m as f64
}

#[test]
fn constants_in_method_positions() {
    // x on both sides of 0.5 and 1.0, away from the ties.
    for x in [0.2, 0.7, 1.6] {
        for n in [0, 3] {
            let (value, dx) = constant_operands_grad(x, n);
            assert_eq!(value.to_bits(), constant_operands(x, n).to_bits());
            let m = f64::from(n + 1);
            let min_slope = if x < 0.5 { 1.0 } else { 0.0 };
            let max_slope = if x > 1.0 { 1.0 } else { 0.0 };
            let closed = 2f64.powf(x) * std::f64::consts::LN_2 + 2.0 * x + min_slope + max_slope
                - x.exp()
                + m.sqrt()
                + m;
            assert_relative_eq!(dx, closed, epsilon = CF_ABS, max_relative = CF_REL);
            assert_relative_eq!(
                dx,
                fd64(|x| constant_operands(x, n), x),
                epsilon = FD64_ABS,
                max_relative = FD64_REL
            );
        }
    }
}

/// A call's result bound once and used twice, a method on a call, and a
/// call whose argument is stopped.
#[differentiable]
fn call_results_reused(x: f64, y: f64) -> f64 {
    let a = h(x, y);
    a * a + h(x, y).exp() + h(stop_gradient(x), y)
}

#[test]
fn call_results_used_more_than_once() {
    for &(x, y) in COMPOSE_POINTS {
        let a = h(x, y);
        let (ha, hb) = (y + x.cos(), x);
        // The stopped call contributes x·1 to dy only.
        let closed = (2.0 * a * ha + a.exp() * ha, 2.0 * a * hb + a.exp() * hb + x);
        let (value, dx, dy) = call_results_reused_grad(x, y);
        assert_eq!(value.to_bits(), call_results_reused(x, y).to_bits());
        assert_relative_eq!(dx, closed.0, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(dy, closed.1, epsilon = CF_ABS, max_relative = CF_REL);
    }
}

/// An argument the result does not depend on, and a constant result.
#[differentiable]
fn ignores_y(x: f64, _y: f64) -> f64 {
    x * 2.0
}

#[differentiable]
fn constant_result(_x: f64) -> f64 {
    3.0
}

/// An argument returned as it is.
#[differentiable]
fn identity(x: f64) -> f64 {
    x
}

#[test]
fn inactive_arguments_get_zero() {
    assert_eq!(ignores_y_grad(1.5, -2.0), (3.0, 2.0, 0.0));
    assert_eq!(constant_result_grad(1.5), (3.0, 0.0));
    assert_eq!(identity_grad(1.5), (1.5, 1.0));
    let (_, pullback) = identity_vjp(1.5);
    assert_eq!(pullback(-4.0), (-4.0,));
    assert_eq!(ignores_y(1.5, -2.0), 3.0);
    assert_eq!(constant_result(1.5), 3.0);
    assert_eq!(identity(1.5), 1.5);
}

/// Every function of this file: `_vjp`'s value is the primal's, bit for
/// bit (the `_grad` values are checked in each test).
#[test]
fn vjp_values_are_bit_exact() {
    for &(x, y) in POINTS {
        let pairs: [(f64, f64); 14] = [
            (five_routes_vjp(x).0, five_routes(x)),
            (diamond_vjp(x, y).0, diamond(x, y)),
            (shadowing_vjp(x, y).0, shadowing(x, y)),
            (h_vjp(x, y).0, h(x, y)),
            (g_vjp(x, y).0, g(x, y)),
            (f_vjp(x, y).0, f(x, y)),
            (f_by_path_vjp(x, y).0, f_by_path(x, y)),
            (nested_calls_vjp(x, y).0, nested_calls(x, y)),
            (stopped_vjp(x, y).0, stopped(x, y)),
            (partly_stopped_vjp(x, y).0, partly_stopped(x, y)),
            (with_constant_vjp(x, 2.0, y).0, with_constant(x, 2.0, y)),
            (
                with_int_and_bool_vjp(2, x, true, y).0,
                with_int_and_bool(2, x, true, y),
            ),
            (signs_vjp(x, y).0, signs(x, y)),
            (typed_and_return_vjp(x, y).0, typed_and_return(x, y)),
        ];
        for (i, (a, b)) in pairs.into_iter().enumerate() {
            assert_eq!(a.to_bits(), b.to_bits(), "function #{i} at ({x}, {y})");
        }
        assert_eq!(
            int_constants_vjp(x, 3, -2).0.to_bits(),
            int_constants(x, 3, -2).to_bits()
        );
        assert_eq!(inner::h_vjp(x, y).0.to_bits(), inner::h(x, y).to_bits());
    }
}

/// `_check` on the composites.
#[test]
fn generated_checks_on_composites() {
    for &(x, y) in POINTS {
        for check in [
            f_check(x, y),
            f_by_path_check(x, y),
            nested_calls_check(x, y),
            diamond_check(x, y),
            shadowing_check(x, y),
        ] {
            assert!(check.is_within(1e-6, 1e-6), "{check}");
        }
    }
}

// ---------------------------------------------------------------------------
// A function without the attribute giving an integer, under `hessian`: its
// call stays as written in the second-order copy (it went through the
// callee's second order, which a plain function has none of: rustc's
// "expected type, found function"), and its cast is a constant's.

/// How many terms the weight counts: plain Rust, no attribute.
fn terms(i: usize) -> usize {
    i + 1
}

/// 3·x·y: gradient (3y, 3x), Hessian [[0, 3], [3, 0]].
#[differentiable(hessian)]
fn weighted_by_a_plain_count(x: f64, y: f64) -> f64 {
    let k = terms(2);
    x * y * k as f64
}

#[test]
fn a_plain_integer_function_under_hessian() {
    for &(x, y) in POINTS {
        let (value, gx, gy) = weighted_by_a_plain_count_grad(x, y);
        assert_eq!(value.to_bits(), weighted_by_a_plain_count(x, y).to_bits());
        assert_relative_eq!(gx, 3.0 * y, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(gy, 3.0 * x, epsilon = CF_ABS, max_relative = CF_REL);
        let (value, grad, h) = weighted_by_a_plain_count_hessian(x, y);
        assert_eq!(value.to_bits(), weighted_by_a_plain_count(x, y).to_bits());
        assert_relative_eq!(grad[0], 3.0 * y, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(grad[1], 3.0 * x, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(h[(0, 0)], 0.0, epsilon = CF_ABS);
        assert_relative_eq!(h[(0, 1)], 3.0, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(h[(1, 0)], 3.0, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(h[(1, 1)], 0.0, epsilon = CF_ABS);
    }
}

// `f64::from(n)` of an integer: a conversion with no derivative, as `n as
// f64` is (it was "unsupported function `f64::from`").

/// n·x²: 2n·x, second derivative 2n.
#[differentiable(jvp, hessian)]
fn scaled_by_from(x: f64, n: u32) -> f64 {
    x * x * f64::from(n)
}

/// The mean of the squares, the count converted by `f64::from`: 2xᵢ/n.
#[differentiable]
fn mean_square_from(x: &[f64]) -> f64 {
    let n = x.len() as u32;
    x.iter().map(|v| v * v).sum::<f64>() / f64::from(n)
}

#[test]
fn a_float_from_an_integer() {
    for &(x, _) in POINTS {
        let n = 3;
        let (value, d) = scaled_by_from_grad(x, n);
        assert_eq!(value.to_bits(), scaled_by_from(x, n).to_bits());
        assert_relative_eq!(d, 6.0 * x, epsilon = CF_ABS, max_relative = CF_REL);
        let (_, t) = scaled_by_from_jvp(x, n, 1.0);
        assert_relative_eq!(t, 6.0 * x, epsilon = CF_ABS, max_relative = CF_REL);
        let (_, _, h) = scaled_by_from_hessian(x, n);
        assert_relative_eq!(h[(0, 0)], 6.0, epsilon = CF_ABS, max_relative = CF_REL);
    }
    let xs = [0.5, -1.25, 2.0, 3.5];
    let (value, g) = mean_square_from_grad(&xs);
    assert_eq!(value.to_bits(), mean_square_from(&xs).to_bits());
    for (gi, xi) in g.iter().zip(xs) {
        assert_relative_eq!(*gi, 2.0 * xi / 4.0, epsilon = CF_ABS, max_relative = CF_REL);
    }
}
