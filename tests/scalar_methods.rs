//! Every scalar method of the spec (`exp ln sqrt powi powf sin cos tanh abs
//! max min relu sigmoid`), as a method and in the path form `f64::exp(x)`,
//! for `f64` and `f32` functions, against closed forms and central finite
//! differences of the primal at several points.
//!
//! Tolerances:
//!
//! - `f64` against the closed form: `epsilon = 1e-13`, `max_relative = 1e-12`
//!   (the closed forms are written differently from the rules, e.g.
//!   `1/cosh²` for tanh, so a few roundings apart);
//! - `f32` against the closed form (evaluated in `f64` at the same point):
//!   `epsilon = 1e-6`, `max_relative = 1e-5` (a few `f32` roundings,
//!   2⁻²⁴ ≈ 6·10⁻⁸ each, amplified at most tenfold by `1 - out²`-style
//!   cancellations at the points used);
//! - against finite differences: `fd_support`'s `FD64_*` / `FD32_*`.
//!
//! Points avoid the kinks (abs and relu at 0, max/min at a tie), except in
//! the tests of the documented conventions: relu has slope 0 at ±0, abs
//! copysign(1, x) (the piece the zero's sign picks), and on a tie max/min
//! give the whole adjoint to the first argument.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::prelude::*;
use fd_support::{
    CF32_ABS, CF32_REL, CF64_ABS, CF64_REL, FD32_ABS, FD32_REL, FD64_ABS, FD64_REL, LINE32, LINE64,
    POS32, POS64, fd32, fd32_2, fd64, fd64_2,
};

/// Pairs away from ties, with a positive first component (for powf).
const PAIRS64: &[(f64, f64)] = &[(2.0, 3.0), (0.5, 1.5), (3.7, -0.8), (1.2, 2.5), (10.0, 0.3)];
/// Pairs away from ties, for max and min, of both signs.
const MIXED64: &[(f64, f64)] = &[
    (1.0, 2.0),
    (2.0, 1.0),
    (-3.0, 0.5),
    (0.25, -4.0),
    (-1.5, -0.5),
];
const PAIRS32: &[(f32, f32)] = &[
    (2.0, 3.0),
    (0.5, 1.5),
    (3.75, -0.75),
    (1.25, 2.5),
    (10.0, 0.25),
];
const MIXED32: &[(f32, f32)] = &[
    (1.0, 2.0),
    (2.0, 1.0),
    (-3.0, 0.5),
    (0.25, -4.0),
    (-1.5, -0.5),
];

// f64: each method, then its path form.

#[differentiable]
fn exp_f64(x: f64) -> f64 {
    x.exp()
}
#[differentiable]
fn exp_f64_path(x: f64) -> f64 {
    f64::exp(x)
}

#[differentiable]
fn ln_f64(x: f64) -> f64 {
    x.ln()
}
#[differentiable]
fn ln_f64_path(x: f64) -> f64 {
    f64::ln(x)
}

#[differentiable]
fn sqrt_f64(x: f64) -> f64 {
    x.sqrt()
}
#[differentiable]
fn sqrt_f64_path(x: f64) -> f64 {
    f64::sqrt(x)
}

#[differentiable]
fn sin_f64(x: f64) -> f64 {
    x.sin()
}
#[differentiable]
fn sin_f64_path(x: f64) -> f64 {
    f64::sin(x)
}

#[differentiable]
fn cos_f64(x: f64) -> f64 {
    x.cos()
}
#[differentiable]
fn cos_f64_path(x: f64) -> f64 {
    f64::cos(x)
}

#[differentiable]
fn tanh_f64(x: f64) -> f64 {
    x.tanh()
}
#[differentiable]
fn tanh_f64_path(x: f64) -> f64 {
    f64::tanh(x)
}

#[differentiable]
fn abs_f64(x: f64) -> f64 {
    x.abs()
}
#[differentiable]
fn abs_f64_path(x: f64) -> f64 {
    f64::abs(x)
}

#[differentiable]
fn relu_f64(x: f64) -> f64 {
    x.relu()
}
#[differentiable]
fn relu_f64_path(x: f64) -> f64 {
    f64::relu(x)
}

#[differentiable]
fn sigmoid_f64(x: f64) -> f64 {
    x.sigmoid()
}
#[differentiable]
fn sigmoid_f64_path(x: f64) -> f64 {
    f64::sigmoid(x)
}

#[differentiable]
fn powi3_f64(x: f64) -> f64 {
    x.powi(3)
}
#[differentiable]
fn powi3_f64_path(x: f64) -> f64 {
    f64::powi(x, 3)
}
#[differentiable]
fn powi_neg2_f64(x: f64) -> f64 {
    x.powi(-2)
}
#[differentiable]
fn powi0_f64(x: f64) -> f64 {
    x.powi(0)
}
/// The exponent is an integer argument: no slot in the tuple.
#[differentiable]
fn powi_n_f64(x: f64, n: i32) -> f64 {
    x.powi(n)
}

#[differentiable]
fn powf_f64(x: f64, y: f64) -> f64 {
    x.powf(y)
}
#[differentiable]
fn powf_f64_path(x: f64, y: f64) -> f64 {
    f64::powf(x, y)
}

#[differentiable]
fn max_f64(x: f64, y: f64) -> f64 {
    x.max(y)
}
#[differentiable]
fn max_f64_path(x: f64, y: f64) -> f64 {
    f64::max(x, y)
}

#[differentiable]
fn min_f64(x: f64, y: f64) -> f64 {
    x.min(y)
}
#[differentiable]
fn min_f64_path(x: f64, y: f64) -> f64 {
    f64::min(x, y)
}

// f32: each method, then its path form.

#[differentiable]
fn exp_f32(x: f32) -> f32 {
    x.exp()
}
#[differentiable]
fn exp_f32_path(x: f32) -> f32 {
    f32::exp(x)
}

#[differentiable]
fn ln_f32(x: f32) -> f32 {
    x.ln()
}
#[differentiable]
fn ln_f32_path(x: f32) -> f32 {
    f32::ln(x)
}

#[differentiable]
fn sqrt_f32(x: f32) -> f32 {
    x.sqrt()
}
#[differentiable]
fn sqrt_f32_path(x: f32) -> f32 {
    f32::sqrt(x)
}

#[differentiable]
fn sin_f32(x: f32) -> f32 {
    x.sin()
}
#[differentiable]
fn sin_f32_path(x: f32) -> f32 {
    f32::sin(x)
}

#[differentiable]
fn cos_f32(x: f32) -> f32 {
    x.cos()
}
#[differentiable]
fn cos_f32_path(x: f32) -> f32 {
    f32::cos(x)
}

#[differentiable]
fn tanh_f32(x: f32) -> f32 {
    x.tanh()
}
#[differentiable]
fn tanh_f32_path(x: f32) -> f32 {
    f32::tanh(x)
}

#[differentiable]
fn abs_f32(x: f32) -> f32 {
    x.abs()
}
#[differentiable]
fn abs_f32_path(x: f32) -> f32 {
    f32::abs(x)
}

#[differentiable]
fn relu_f32(x: f32) -> f32 {
    x.relu()
}
#[differentiable]
fn relu_f32_path(x: f32) -> f32 {
    f32::relu(x)
}

#[differentiable]
fn sigmoid_f32(x: f32) -> f32 {
    x.sigmoid()
}
#[differentiable]
fn sigmoid_f32_path(x: f32) -> f32 {
    f32::sigmoid(x)
}

#[differentiable]
fn powi3_f32(x: f32) -> f32 {
    x.powi(3)
}
#[differentiable]
fn powi3_f32_path(x: f32) -> f32 {
    f32::powi(x, 3)
}
#[differentiable]
fn powi_neg2_f32(x: f32) -> f32 {
    x.powi(-2)
}
#[differentiable]
fn powi0_f32(x: f32) -> f32 {
    x.powi(0)
}
/// The exponent is an integer argument: no slot in the tuple.
#[differentiable]
fn powi_n_f32(x: f32, n: i32) -> f32 {
    x.powi(n)
}

#[differentiable]
fn powf_f32(x: f32, y: f32) -> f32 {
    x.powf(y)
}
#[differentiable]
fn powf_f32_path(x: f32, y: f32) -> f32 {
    f32::powf(x, y)
}

#[differentiable]
fn max_f32(x: f32, y: f32) -> f32 {
    x.max(y)
}
#[differentiable]
fn max_f32_path(x: f32, y: f32) -> f32 {
    f32::max(x, y)
}

#[differentiable]
fn min_f32(x: f32, y: f32) -> f32 {
    x.min(y)
}
#[differentiable]
fn min_f32_path(x: f32, y: f32) -> f32 {
    f32::min(x, y)
}

/// A one-argument `f64` case: the function, its `_grad`, `_vjp`'s value,
/// the closed-form derivative and the points to check.
struct Unary64 {
    name: &'static str,
    f: fn(f64) -> f64,
    grad: fn(f64) -> (f64, f64),
    vjp_value: fn(f64) -> f64,
    derivative: fn(f64) -> f64,
    points: &'static [f64],
}

struct Unary32 {
    name: &'static str,
    f: fn(f32) -> f32,
    grad: fn(f32) -> (f32, f32),
    vjp_value: fn(f32) -> f32,
    derivative: fn(f64) -> f64,
    points: &'static [f32],
}

macro_rules! unary64 {
    ($f:ident, $grad:ident, $vjp:ident, $d:expr, $points:expr) => {
        Unary64 {
            name: stringify!($f),
            f: $f,
            grad: $grad,
            vjp_value: |x| $vjp(x).0,
            derivative: $d,
            points: $points,
        }
    };
}

macro_rules! unary32 {
    ($f:ident, $grad:ident, $vjp:ident, $d:expr, $points:expr) => {
        Unary32 {
            name: stringify!($f),
            f: $f,
            grad: $grad,
            vjp_value: |x| $vjp(x).0,
            derivative: $d,
            points: $points,
        }
    };
}

fn d_exp(x: f64) -> f64 {
    x.exp()
}
fn d_ln(x: f64) -> f64 {
    1.0 / x
}
fn d_sqrt(x: f64) -> f64 {
    0.5 / x.sqrt()
}
fn d_sin(x: f64) -> f64 {
    x.cos()
}
fn d_cos(x: f64) -> f64 {
    -x.sin()
}
fn d_tanh(x: f64) -> f64 {
    1.0 / (x.cosh() * x.cosh())
}
fn d_abs(x: f64) -> f64 {
    x.signum()
}
fn d_relu(x: f64) -> f64 {
    if x > 0.0 { 1.0 } else { 0.0 }
}
fn d_sigmoid(x: f64) -> f64 {
    let e = (-x).exp();
    e / ((1.0 + e) * (1.0 + e))
}
fn d_powi3(x: f64) -> f64 {
    3.0 * x * x
}
fn d_powi_neg2(x: f64) -> f64 {
    -2.0 / (x * x * x)
}
fn d_zero(_: f64) -> f64 {
    0.0
}

fn cases64() -> Vec<Unary64> {
    vec![
        unary64!(exp_f64, exp_f64_grad, exp_f64_vjp, d_exp, LINE64),
        unary64!(
            exp_f64_path,
            exp_f64_path_grad,
            exp_f64_path_vjp,
            d_exp,
            LINE64
        ),
        unary64!(ln_f64, ln_f64_grad, ln_f64_vjp, d_ln, POS64),
        unary64!(ln_f64_path, ln_f64_path_grad, ln_f64_path_vjp, d_ln, POS64),
        unary64!(sqrt_f64, sqrt_f64_grad, sqrt_f64_vjp, d_sqrt, POS64),
        unary64!(
            sqrt_f64_path,
            sqrt_f64_path_grad,
            sqrt_f64_path_vjp,
            d_sqrt,
            POS64
        ),
        unary64!(sin_f64, sin_f64_grad, sin_f64_vjp, d_sin, LINE64),
        unary64!(
            sin_f64_path,
            sin_f64_path_grad,
            sin_f64_path_vjp,
            d_sin,
            LINE64
        ),
        unary64!(cos_f64, cos_f64_grad, cos_f64_vjp, d_cos, LINE64),
        unary64!(
            cos_f64_path,
            cos_f64_path_grad,
            cos_f64_path_vjp,
            d_cos,
            LINE64
        ),
        unary64!(tanh_f64, tanh_f64_grad, tanh_f64_vjp, d_tanh, LINE64),
        unary64!(
            tanh_f64_path,
            tanh_f64_path_grad,
            tanh_f64_path_vjp,
            d_tanh,
            LINE64
        ),
        unary64!(abs_f64, abs_f64_grad, abs_f64_vjp, d_abs, LINE64),
        unary64!(
            abs_f64_path,
            abs_f64_path_grad,
            abs_f64_path_vjp,
            d_abs,
            LINE64
        ),
        unary64!(relu_f64, relu_f64_grad, relu_f64_vjp, d_relu, LINE64),
        unary64!(
            relu_f64_path,
            relu_f64_path_grad,
            relu_f64_path_vjp,
            d_relu,
            LINE64
        ),
        unary64!(
            sigmoid_f64,
            sigmoid_f64_grad,
            sigmoid_f64_vjp,
            d_sigmoid,
            LINE64
        ),
        unary64!(
            sigmoid_f64_path,
            sigmoid_f64_path_grad,
            sigmoid_f64_path_vjp,
            d_sigmoid,
            LINE64
        ),
        unary64!(powi3_f64, powi3_f64_grad, powi3_f64_vjp, d_powi3, LINE64),
        unary64!(
            powi3_f64_path,
            powi3_f64_path_grad,
            powi3_f64_path_vjp,
            d_powi3,
            LINE64
        ),
        unary64!(
            powi_neg2_f64,
            powi_neg2_f64_grad,
            powi_neg2_f64_vjp,
            d_powi_neg2,
            LINE64
        ),
        unary64!(powi0_f64, powi0_f64_grad, powi0_f64_vjp, d_zero, LINE64),
    ]
}

fn cases32() -> Vec<Unary32> {
    vec![
        unary32!(exp_f32, exp_f32_grad, exp_f32_vjp, d_exp, LINE32),
        unary32!(
            exp_f32_path,
            exp_f32_path_grad,
            exp_f32_path_vjp,
            d_exp,
            LINE32
        ),
        unary32!(ln_f32, ln_f32_grad, ln_f32_vjp, d_ln, POS32),
        unary32!(ln_f32_path, ln_f32_path_grad, ln_f32_path_vjp, d_ln, POS32),
        unary32!(sqrt_f32, sqrt_f32_grad, sqrt_f32_vjp, d_sqrt, POS32),
        unary32!(
            sqrt_f32_path,
            sqrt_f32_path_grad,
            sqrt_f32_path_vjp,
            d_sqrt,
            POS32
        ),
        unary32!(sin_f32, sin_f32_grad, sin_f32_vjp, d_sin, LINE32),
        unary32!(
            sin_f32_path,
            sin_f32_path_grad,
            sin_f32_path_vjp,
            d_sin,
            LINE32
        ),
        unary32!(cos_f32, cos_f32_grad, cos_f32_vjp, d_cos, LINE32),
        unary32!(
            cos_f32_path,
            cos_f32_path_grad,
            cos_f32_path_vjp,
            d_cos,
            LINE32
        ),
        unary32!(tanh_f32, tanh_f32_grad, tanh_f32_vjp, d_tanh, LINE32),
        unary32!(
            tanh_f32_path,
            tanh_f32_path_grad,
            tanh_f32_path_vjp,
            d_tanh,
            LINE32
        ),
        unary32!(abs_f32, abs_f32_grad, abs_f32_vjp, d_abs, LINE32),
        unary32!(
            abs_f32_path,
            abs_f32_path_grad,
            abs_f32_path_vjp,
            d_abs,
            LINE32
        ),
        unary32!(relu_f32, relu_f32_grad, relu_f32_vjp, d_relu, LINE32),
        unary32!(
            relu_f32_path,
            relu_f32_path_grad,
            relu_f32_path_vjp,
            d_relu,
            LINE32
        ),
        unary32!(
            sigmoid_f32,
            sigmoid_f32_grad,
            sigmoid_f32_vjp,
            d_sigmoid,
            LINE32
        ),
        unary32!(
            sigmoid_f32_path,
            sigmoid_f32_path_grad,
            sigmoid_f32_path_vjp,
            d_sigmoid,
            LINE32
        ),
        unary32!(powi3_f32, powi3_f32_grad, powi3_f32_vjp, d_powi3, LINE32),
        unary32!(
            powi3_f32_path,
            powi3_f32_path_grad,
            powi3_f32_path_vjp,
            d_powi3,
            LINE32
        ),
        unary32!(
            powi_neg2_f32,
            powi_neg2_f32_grad,
            powi_neg2_f32_vjp,
            d_powi_neg2,
            LINE32
        ),
        unary32!(powi0_f32, powi0_f32_grad, powi0_f32_vjp, d_zero, LINE32),
    ]
}

#[test]
fn unary_f64_against_closed_form_and_finite_differences() {
    for case in cases64() {
        for &x in case.points {
            let (value, dx) = (case.grad)(x);
            assert_eq!(
                value.to_bits(),
                (case.f)(x).to_bits(),
                "{} value at {x}",
                case.name
            );
            assert_eq!(
                (case.vjp_value)(x).to_bits(),
                (case.f)(x).to_bits(),
                "{} vjp value at {x}",
                case.name
            );
            let closed = (case.derivative)(x);
            assert!(
                approx::relative_eq!(dx, closed, epsilon = CF64_ABS, max_relative = CF64_REL),
                "{} at {x}: adjoint {dx}, closed form {closed}",
                case.name
            );
            let fd = fd64(case.f, x);
            assert!(
                approx::relative_eq!(dx, fd, epsilon = FD64_ABS, max_relative = FD64_REL),
                "{} at {x}: adjoint {dx}, finite difference {fd}",
                case.name
            );
        }
    }
}

#[test]
fn unary_f32_against_closed_form_and_finite_differences() {
    for case in cases32() {
        for &x in case.points {
            let (value, dx) = (case.grad)(x);
            assert_eq!(
                value.to_bits(),
                (case.f)(x).to_bits(),
                "{} value at {x}",
                case.name
            );
            assert_eq!(
                (case.vjp_value)(x).to_bits(),
                (case.f)(x).to_bits(),
                "{} vjp value at {x}",
                case.name
            );
            let dx = f64::from(dx);
            let closed = (case.derivative)(f64::from(x));
            assert!(
                approx::relative_eq!(dx, closed, epsilon = CF32_ABS, max_relative = CF32_REL),
                "{} at {x}: adjoint {dx}, closed form {closed}",
                case.name
            );
            let fd = fd32(case.f, x);
            assert!(
                approx::relative_eq!(dx, fd, epsilon = FD32_ABS, max_relative = FD32_REL),
                "{} at {x}: adjoint {dx}, finite difference {fd}",
                case.name
            );
        }
    }
}

/// `x.powi(n)` with `n` an `i32` argument: one adjoint slot only.
#[test]
fn powi_with_integer_argument() {
    for n in [-3, -1, 0, 1, 2, 5] {
        for &x in LINE64 {
            let (value, dx): (f64, f64) = powi_n_f64_grad(x, n);
            assert_eq!(value.to_bits(), powi_n_f64(x, n).to_bits());
            let closed = if n == 0 {
                0.0
            } else {
                f64::from(n) * x.powi(n - 1)
            };
            assert_relative_eq!(dx, closed, epsilon = CF64_ABS, max_relative = CF64_REL);
            let fd = fd64(|t| powi_n_f64(t, n), x);
            assert_relative_eq!(dx, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
        for &x in LINE32 {
            let (value, dx): (f32, f32) = powi_n_f32_grad(x, n);
            assert_eq!(value.to_bits(), powi_n_f32(x, n).to_bits());
            let xd = f64::from(x);
            let closed = if n == 0 {
                0.0
            } else {
                f64::from(n) * xd.powi(n - 1)
            };
            assert_relative_eq!(
                f64::from(dx),
                closed,
                epsilon = CF32_ABS,
                max_relative = CF32_REL
            );
            let fd = fd32(|t| powi_n_f32(t, n), x);
            assert_relative_eq!(
                f64::from(dx),
                fd,
                epsilon = FD32_ABS,
                max_relative = FD32_REL
            );
        }
    }
}

type Binary64 = (
    &'static str,
    fn(f64, f64) -> f64,
    fn(f64, f64) -> (f64, f64, f64),
    fn(f64, f64) -> (f64, f64),
    &'static [(f64, f64)],
);
type Binary32 = (
    &'static str,
    fn(f32, f32) -> f32,
    fn(f32, f32) -> (f32, f32, f32),
    fn(f64, f64) -> (f64, f64),
    &'static [(f32, f32)],
);

fn d_powf(a: f64, b: f64) -> (f64, f64) {
    (b * a.powf(b - 1.0), a.powf(b) * a.ln())
}
fn d_max(a: f64, b: f64) -> (f64, f64) {
    if a > b { (1.0, 0.0) } else { (0.0, 1.0) }
}
fn d_min(a: f64, b: f64) -> (f64, f64) {
    if a < b { (1.0, 0.0) } else { (0.0, 1.0) }
}

#[test]
fn binary_f64_against_closed_form_and_finite_differences() {
    let cases: [Binary64; 6] = [
        ("powf", powf_f64, powf_f64_grad, d_powf, PAIRS64),
        (
            "f64::powf",
            powf_f64_path,
            powf_f64_path_grad,
            d_powf,
            PAIRS64,
        ),
        ("max", max_f64, max_f64_grad, d_max, MIXED64),
        ("f64::max", max_f64_path, max_f64_path_grad, d_max, MIXED64),
        ("min", min_f64, min_f64_grad, d_min, MIXED64),
        ("f64::min", min_f64_path, min_f64_path_grad, d_min, MIXED64),
    ];
    for (name, f, grad, closed, points) in cases {
        for &(x, y) in points {
            let (value, dx, dy) = grad(x, y);
            assert_eq!(
                value.to_bits(),
                f(x, y).to_bits(),
                "{name} value at ({x}, {y})"
            );
            let (cx, cy) = closed(x, y);
            let (fx, fy) = fd64_2(f, x, y);
            for (what, got, c, fd) in [("x", dx, cx, fx), ("y", dy, cy, fy)] {
                assert!(
                    approx::relative_eq!(got, c, epsilon = CF64_ABS, max_relative = CF64_REL),
                    "{name} d{what} at ({x}, {y}): adjoint {got}, closed form {c}"
                );
                assert!(
                    approx::relative_eq!(got, fd, epsilon = FD64_ABS, max_relative = FD64_REL),
                    "{name} d{what} at ({x}, {y}): adjoint {got}, finite difference {fd}"
                );
            }
        }
    }
    for &(x, y) in PAIRS64 {
        assert_eq!(powf_f64_vjp(x, y).0.to_bits(), powf_f64(x, y).to_bits());
    }
    for &(x, y) in MIXED64 {
        assert_eq!(max_f64_vjp(x, y).0.to_bits(), max_f64(x, y).to_bits());
        assert_eq!(
            min_f64_path_vjp(x, y).0.to_bits(),
            min_f64_path(x, y).to_bits()
        );
    }
}

#[test]
fn binary_f32_against_closed_form_and_finite_differences() {
    let cases: [Binary32; 6] = [
        ("powf", powf_f32, powf_f32_grad, d_powf, PAIRS32),
        (
            "f32::powf",
            powf_f32_path,
            powf_f32_path_grad,
            d_powf,
            PAIRS32,
        ),
        ("max", max_f32, max_f32_grad, d_max, MIXED32),
        ("f32::max", max_f32_path, max_f32_path_grad, d_max, MIXED32),
        ("min", min_f32, min_f32_grad, d_min, MIXED32),
        ("f32::min", min_f32_path, min_f32_path_grad, d_min, MIXED32),
    ];
    for (name, f, grad, closed, points) in cases {
        for &(x, y) in points {
            let (value, dx, dy) = grad(x, y);
            assert_eq!(
                value.to_bits(),
                f(x, y).to_bits(),
                "{name} value at ({x}, {y})"
            );
            let (cx, cy) = closed(f64::from(x), f64::from(y));
            let (fx, fy) = fd32_2(f, x, y);
            for (what, got, c, fd) in [("x", dx, cx, fx), ("y", dy, cy, fy)] {
                let got = f64::from(got);
                assert!(
                    approx::relative_eq!(got, c, epsilon = CF32_ABS, max_relative = CF32_REL),
                    "{name} d{what} at ({x}, {y}): adjoint {got}, closed form {c}"
                );
                assert!(
                    approx::relative_eq!(got, fd, epsilon = FD32_ABS, max_relative = FD32_REL),
                    "{name} d{what} at ({x}, {y}): adjoint {got}, finite difference {fd}"
                );
            }
        }
    }
    for &(x, y) in PAIRS32 {
        assert_eq!(powf_f32_vjp(x, y).0.to_bits(), powf_f32(x, y).to_bits());
    }
    for &(x, y) in MIXED32 {
        assert_eq!(
            max_f32_path_vjp(x, y).0.to_bits(),
            max_f32_path(x, y).to_bits()
        );
        assert_eq!(min_f32_vjp(x, y).0.to_bits(), min_f32(x, y).to_bits());
    }
}

/// The documented conventions at the kinks: relu has the slope of its
/// constant piece, 0, at both zeros; abs the slope of the piece the zero's
/// sign picks, copysign(1, x) (ISSUE35, "Kinks: take one side").
#[test]
fn relu_and_abs_at_zero() {
    for (z, abs_slope) in [(0.0, 1.0), (-0.0, -1.0)] {
        assert_eq!(relu_f64_grad(z).1, 0.0);
        assert_eq!(relu_f64_path_grad(z).1, 0.0);
        assert_eq!(abs_f64_grad(z).1, abs_slope);
        assert_eq!(abs_f64_path_grad(z).1, abs_slope);
        assert_eq!(relu_f32_grad(z as f32).1, 0.0);
        assert_eq!(relu_f32_path_grad(z as f32).1, 0.0);
        assert_eq!(abs_f32_grad(z as f32).1, abs_slope as f32);
        assert_eq!(abs_f32_path_grad(z as f32).1, abs_slope as f32);
    }
    // Just off the kink the slopes are the one-sided ones.
    assert_eq!(relu_f64_grad(1e-300).1, 1.0);
    assert_eq!(relu_f64_grad(-1e-300).1, 0.0);
    assert_eq!(abs_f64_grad(1e-300).1, 1.0);
    assert_eq!(abs_f64_grad(-1e-300).1, -1.0);
}

/// `y.max(x)`: the receiver is the first argument.
#[differentiable]
fn max_swapped(x: f64, y: f64) -> f64 {
    y.max(x)
}

/// `y.min(x)`.
#[differentiable]
fn min_swapped(x: f64, y: f64) -> f64 {
    y.min(x)
}

/// On a tie, max and min give the whole adjoint to their first argument
/// (the receiver, or the first argument of the path form), none to the
/// second.
#[test]
fn max_and_min_ties_go_to_the_first_argument() {
    for t in [-1.5, 0.0, 2.0] {
        assert_eq!(max_f64_grad(t, t), (t, 1.0, 0.0));
        assert_eq!(max_f64_path_grad(t, t), (t, 1.0, 0.0));
        assert_eq!(min_f64_grad(t, t), (t, 1.0, 0.0));
        assert_eq!(min_f64_path_grad(t, t), (t, 1.0, 0.0));
        assert_eq!(max_swapped_grad(t, t), (t, 0.0, 1.0));
        assert_eq!(min_swapped_grad(t, t), (t, 0.0, 1.0));
        let t32 = t as f32;
        assert_eq!(max_f32_grad(t32, t32), (t32, 1.0, 0.0));
        assert_eq!(max_f32_path_grad(t32, t32), (t32, 1.0, 0.0));
        assert_eq!(min_f32_grad(t32, t32), (t32, 1.0, 0.0));
        assert_eq!(min_f32_path_grad(t32, t32), (t32, 1.0, 0.0));
    }
    for (x, y) in [(1.0, 2.0), (2.0, 1.0), (-0.5, -0.5)] {
        assert_eq!(
            max_swapped_grad(x, y).0.to_bits(),
            max_swapped(x, y).to_bits()
        );
        assert_eq!(
            min_swapped_grad(x, y).0.to_bits(),
            min_swapped(x, y).to_bits()
        );
    }
    // Off the tie, the adjoint follows the value.
    assert_eq!(max_swapped_grad(1.0, 2.0), (2.0, 0.0, 1.0));
    assert_eq!(max_swapped_grad(2.0, 1.0), (2.0, 1.0, 0.0));
    assert_eq!(min_swapped_grad(1.0, 2.0), (1.0, 1.0, 0.0));
}

/// Every method once, each on a composite argument so the chain rule runs
/// through it, mixing method and path forms.
#[differentiable]
fn all_methods_f64(x: f64, y: f64) -> f64 {
    let a = (0.3 * x).exp() + f64::ln(x * x + 1.0) + (y * y + 0.5).sqrt();
    let b = x.powi(3) * 0.1 + (y * y + 1.0).powf(0.5 * x) + (x - y).sin() * f64::cos(x + y);
    let c = (0.7 * x).tanh() + (x - 0.1).abs() + f64::relu(y + 0.2) + (x * y).sigmoid();
    let d = a.max(b) + f64::min(b, c) * 0.5;
    a * 0.5 + b * 0.25 + c + d
}

/// The same in `f32`.
#[differentiable]
fn all_methods_f32(x: f32, y: f32) -> f32 {
    let a = (0.3 * x).exp() + f32::ln(x * x + 1.0) + (y * y + 0.5).sqrt();
    let b = x.powi(3) * 0.1 + (y * y + 1.0).powf(0.5 * x) + (x - y).sin() * f32::cos(x + y);
    let c = (0.7 * x).tanh() + (x - 0.1).abs() + f32::relu(y + 0.2) + (x * y).sigmoid();
    let d = a.max(b) + f32::min(b, c) * 0.5;
    a * 0.5 + b * 0.25 + c + d
}

/// Points where no kink of `all_methods` is within the stencil's reach
/// (`|x - 0.1|`, `|y + 0.2|`, `|a - b|`, `|b - c|` all above 0.1).
const ALL_POINTS: &[(f64, f64)] = &[(0.75, 0.5), (-1.25, 1.5), (1.5, -0.5), (2.25, 1.25)];

#[test]
fn all_methods_composed() {
    for &(x, y) in ALL_POINTS {
        let (value, dx, dy) = all_methods_f64_grad(x, y);
        assert_eq!(value.to_bits(), all_methods_f64(x, y).to_bits());
        assert_eq!(all_methods_f64_vjp(x, y).0.to_bits(), value.to_bits());
        let (fx, fy) = fd64_2(all_methods_f64, x, y);
        assert_relative_eq!(dx, fx, epsilon = FD64_ABS, max_relative = FD64_REL);
        assert_relative_eq!(dy, fy, epsilon = FD64_ABS, max_relative = FD64_REL);
        let check = all_methods_f64_check(x, y);
        assert!(check.is_within(1e-6, 1e-6), "{check}");

        let (x32, y32) = (x as f32, y as f32);
        let (value, dx, dy) = all_methods_f32_grad(x32, y32);
        assert_eq!(value.to_bits(), all_methods_f32(x32, y32).to_bits());
        assert_eq!(all_methods_f32_vjp(x32, y32).0.to_bits(), value.to_bits());
        let (fx, fy) = fd32_2(all_methods_f32, x32, y32);
        assert_relative_eq!(
            f64::from(dx),
            fx,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
        assert_relative_eq!(
            f64::from(dy),
            fy,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
        // The f32 gradient is the f64 one to f32 accuracy.
        let (_, dx64, dy64) = all_methods_f64_grad(x, y);
        assert_relative_eq!(f64::from(dx), dx64, epsilon = 1e-4, max_relative = 1e-4);
        assert_relative_eq!(f64::from(dy), dy64, epsilon = 1e-4, max_relative = 1e-4);
    }
}

/// The kinks stay clear of the points of `all_methods_composed` (a guard
/// on the test itself).
#[test]
fn all_methods_points_are_smooth() {
    for &(x, y) in ALL_POINTS {
        let a = (0.3 * x).exp() + (x * x + 1.0).ln() + (y * y + 0.5).sqrt();
        let b = x.powi(3) * 0.1 + (y * y + 1.0).powf(0.5 * x) + (x - y).sin() * (x + y).cos();
        let c = (0.7 * x).tanh() + (x - 0.1).abs() + (y + 0.2).relu() + (x * y).sigmoid();
        for gap in [x - 0.1, y + 0.2, a - b, b - c] {
            assert!(gap.abs() > 0.1, "({x}, {y}): gap {gap}");
        }
    }
}

/// The generated checks on a few of the methods.
#[test]
fn generated_checks() {
    for &x in POS64 {
        assert!(ln_f64_check(x).is_within(1e-6, 1e-6));
        assert!(sqrt_f64_path_check(x).is_within(1e-6, 1e-6));
    }
    for &x in LINE64 {
        assert!(tanh_f64_check(x).is_within(1e-6, 1e-6));
        assert!(sigmoid_f64_path_check(x).is_within(1e-6, 1e-6));
    }
    for &(x, y) in PAIRS64 {
        let check = powf_f64_check(x, y);
        assert!(check.is_within(1e-6, 1e-6), "{check}");
    }
    // f32: the check's own step (∛ε) leaves about 1e-4 of error.
    for &x in LINE32 {
        let check = sin_f32_check(x);
        assert!(check.is_within(1e-3, 1e-3), "{check}");
    }
}
