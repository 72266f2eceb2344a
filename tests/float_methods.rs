//! The float methods added with the rule table, through the macro: each in
//! method form `x.f()` and path form `f64::f(x)`, for `f64` and `f32`
//! functions, on the result of a call (the dispatched rule), and
//! element-wise on a matrix as `m.map(f64::f)`, `m.map(|v| v.f())` and a
//! closure compiled as its own function, against the closed form of the
//! derivative and central differences of the primal at several points.
//!
//! Tolerances:
//!
//! - `f64` against the closed form: `epsilon = 1e-13`, `max_relative =
//!   1e-12` (the closed forms are written differently from the rules, a
//!   few roundings apart);
//! - `f32` against the closed form evaluated in `f64` at the same point:
//!   `epsilon = 1e-6`, `max_relative = 1e-5` (a few `f32` roundings of
//!   2⁻²⁴ each, amplified at most tenfold at the points used);
//! - against finite differences: `fd_support`'s `FD64_*` / `FD32_*`.
//!
//! Points stay inside each function's domain and away from its poles and
//! jumps; the last section tests the documented conventions at those
//! points, through the macro.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::{
    CF32_ABS, CF32_REL, CF64_ABS, CF64_REL, FD32_ABS, FD32_REL, FD64_ABS, FD64_REL, LINE32, LINE64,
    POS32, POS64, fd32, fd32_2, fd64, fd64_2,
};
use nalgebra::DMatrix;

/// The `_grad` of a function of two `f64`s.
type Grad2 = fn(f64, f64) -> (f64, f64, f64);

/// Makes a call's result of a type the macro cannot see, so a method on it
/// goes through the dispatched rule.
#[differentiable]
fn identity(x: f64) -> f64 {
    x
}

/// A unary float method `$method` with derivative `$d` (a closure of
/// `f64`), at the `f64` points `$at64` and `f32` points `$at32`.
macro_rules! unary_method {
    ($name:ident: $method:ident, d = $d:expr, at64 = $at64:expr, at32 = $at32:expr) => {
        mod $name {
            use super::*;

            #[differentiable]
            fn method64(x: f64) -> f64 {
                x.$method()
            }
            #[differentiable]
            fn path64(x: f64) -> f64 {
                f64::$method(x)
            }
            #[differentiable]
            fn dispatched(x: f64) -> f64 {
                identity(x).$method()
            }
            #[differentiable]
            fn method32(x: f32) -> f32 {
                x.$method()
            }
            #[differentiable]
            fn path32(x: f32) -> f32 {
                f32::$method(x)
            }
            #[differentiable]
            fn map_path(m: &DMatrix<f64>) -> f64 {
                m.map(f64::$method).sum()
            }
            #[differentiable]
            fn map_closure(m: DMatrix<f64>) -> f64 {
                let y = m.map(|v| v.$method());
                y.sum()
            }
            #[differentiable]
            fn map_compiled(m: &DMatrix<f64>) -> f64 {
                m.map(|v| 2.0 * v.$method() + v).sum()
            }

            fn derivative(x: f64) -> f64 {
                let d: fn(f64) -> f64 = $d;
                d(x)
            }

            #[test]
            fn f64_against_closed_form_and_differences() {
                let grads: [fn(f64) -> (f64, f64); 3] =
                    [method64_grad, path64_grad, dispatched_grad];
                for &x in $at64 {
                    let fd = fd64(|t| t.$method(), x);
                    for grad in grads {
                        let (y, dx) = grad(x);
                        assert_eq!(y.to_bits(), x.$method().to_bits(), "value at {x}");
                        assert_relative_eq!(
                            dx,
                            derivative(x),
                            epsilon = CF64_ABS,
                            max_relative = CF64_REL
                        );
                        assert_relative_eq!(dx, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
                    }
                }
            }

            #[test]
            fn f32_against_closed_form_and_differences() {
                let grads: [fn(f32) -> (f32, f32); 2] = [method32_grad, path32_grad];
                for &x in $at32 {
                    let fd = fd32(|t| t.$method(), x);
                    for grad in grads {
                        let (y, dx) = grad(x);
                        assert_eq!(y.to_bits(), x.$method().to_bits(), "value at {x}");
                        let dx = f64::from(dx);
                        assert_relative_eq!(
                            dx,
                            derivative(f64::from(x)),
                            epsilon = CF32_ABS,
                            max_relative = CF32_REL
                        );
                        assert_relative_eq!(dx, fd, epsilon = FD32_ABS, max_relative = FD32_REL);
                    }
                }
            }

            #[test]
            fn element_wise_on_a_matrix() {
                let points: &[f64] = $at64;
                let m = DMatrix::from_row_slice(1, points.len(), points);
                let d = m.map(derivative);
                let (y, dm) = map_path_grad(&m);
                assert_eq!(y.to_bits(), m.map(|v| v.$method()).sum().to_bits());
                assert_relative_eq!(dm, d, epsilon = CF64_ABS, max_relative = CF64_REL);
                let (_, dm) = map_closure_grad(m.clone());
                assert_relative_eq!(dm, d, epsilon = CF64_ABS, max_relative = CF64_REL);
                let (_, dm) = map_compiled_grad(&m);
                let d = d.map(|d| 2.0 * d + 1.0);
                assert_relative_eq!(dm, d, epsilon = CF64_ABS, max_relative = CF64_REL);
            }
        }
    };
}

// ---------------------------------------------------------------------------
// Exponentials, logarithms and roots.

unary_method!(exp2: exp2, d = |x| x.exp2() * std::f64::consts::LN_2, at64 = LINE64, at32 = LINE32);
unary_method!(exp_m1: exp_m1, d = |x| x.exp(), at64 = LINE64, at32 = LINE32);
unary_method!(ln_1p: ln_1p, d = |x| 1.0 / (1.0 + x), at64 = &[-0.7, -0.2, 0.3, 1.5, 9.0], at32 = &[-0.75, -0.25, 0.375, 1.5, 9.0]);
unary_method!(log2: log2, d = |x| 1.0 / (x * std::f64::consts::LN_2), at64 = POS64, at32 = POS32);
unary_method!(log10: log10, d = |x| 1.0 / (x * std::f64::consts::LN_10), at64 = POS64, at32 = POS32);
unary_method!(cbrt: cbrt, d = |x| 1.0 / (3.0 * x.abs().powf(2.0 / 3.0)), at64 = LINE64, at32 = LINE32);
unary_method!(recip: recip, d = |x| -1.0 / (x * x), at64 = LINE64, at32 = LINE32);

#[differentiable]
fn log64(x: f64, base: f64) -> f64 {
    x.log(base)
}
#[differentiable]
fn log64_path(x: f64, base: f64) -> f64 {
    f64::log(x, base)
}
#[differentiable]
fn log32(x: f32, base: f32) -> f32 {
    x.log(base)
}
#[differentiable]
fn log_dispatched(x: f64, base: f64) -> f64 {
    identity(x).log(identity(base))
}

/// ∂/∂x log_b x = 1/(x ln b), ∂/∂b = −ln x/(b ln² b).
fn log_partials(x: f64, b: f64) -> (f64, f64) {
    (1.0 / (x * b.ln()), -x.ln() / (b * b.ln() * b.ln()))
}

#[test]
fn log_to_a_base() {
    for &(x, b) in &[(2.0, 3.0), (0.5, 10.0), (7.5, 0.4), (30.0, 2.0)] {
        let (dx, db) = log_partials(x, b);
        let (fdx, fdb) = fd64_2(|x, b| x.log(b), x, b);
        let grads: [Grad2; 3] = [log64_grad, log64_path_grad, log_dispatched_grad];
        for grad in grads {
            let (y, gx, gb) = grad(x, b);
            assert_eq!(y.to_bits(), x.log(b).to_bits());
            assert_relative_eq!(gx, dx, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gb, db, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gx, fdx, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(gb, fdb, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
    }
    for &(x, b) in &[(2.0f32, 3.0f32), (0.5, 10.0), (7.5, 0.375), (30.0, 2.0)] {
        let (dx, db) = log_partials(f64::from(x), f64::from(b));
        let (fdx, fdb) = fd32_2(|x, b| x.log(b), x, b);
        let (_, gx, gb) = log32_grad(x, b);
        let (gx, gb) = (f64::from(gx), f64::from(gb));
        assert_relative_eq!(gx, dx, epsilon = CF32_ABS, max_relative = CF32_REL);
        assert_relative_eq!(gb, db, epsilon = CF32_ABS, max_relative = CF32_REL);
        assert_relative_eq!(gx, fdx, epsilon = FD32_ABS, max_relative = FD32_REL);
        assert_relative_eq!(gb, fdb, epsilon = FD32_ABS, max_relative = FD32_REL);
    }
}

#[differentiable]
fn hypot64(x: f64, y: f64) -> f64 {
    x.hypot(y)
}
#[differentiable]
fn hypot64_path(x: f64, y: f64) -> f64 {
    f64::hypot(x, y)
}
#[differentiable]
fn hypot32(x: f32, y: f32) -> f32 {
    x.hypot(y)
}
#[differentiable]
fn hypot_dispatched(x: f64, y: f64) -> f64 {
    identity(x).hypot(y)
}

#[test]
fn hypot_is_the_distance_from_the_origin() {
    for &(x, y) in &[(3.0f64, 4.0f64), (-1.5, 0.5), (0.25, -2.0), (-7.0, -1.0)] {
        let r = (x * x + y * y).sqrt();
        let (fdx, fdy) = fd64_2(|x, y| x.hypot(y), x, y);
        let grads: [Grad2; 3] = [hypot64_grad, hypot64_path_grad, hypot_dispatched_grad];
        for grad in grads {
            let (v, gx, gy) = grad(x, y);
            assert_eq!(v.to_bits(), x.hypot(y).to_bits());
            assert_relative_eq!(gx, x / r, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gy, y / r, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gx, fdx, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(gy, fdy, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
    }
    for &(x, y) in &[(3.0f32, 4.0f32), (-1.5, 0.5), (0.25, -2.0)] {
        let (xf, yf) = (f64::from(x), f64::from(y));
        let r = (xf * xf + yf * yf).sqrt();
        let (fdx, fdy) = fd32_2(|x, y| x.hypot(y), x, y);
        let (_, gx, gy) = hypot32_grad(x, y);
        assert_relative_eq!(
            f64::from(gx),
            xf / r,
            epsilon = CF32_ABS,
            max_relative = CF32_REL
        );
        assert_relative_eq!(
            f64::from(gy),
            yf / r,
            epsilon = CF32_ABS,
            max_relative = CF32_REL
        );
        assert_relative_eq!(
            f64::from(gx),
            fdx,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
        assert_relative_eq!(
            f64::from(gy),
            fdy,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
    }
}

// ---------------------------------------------------------------------------
// Trigonometric.

/// Inside (−1, 1), for asin and acos, where the differences of the primal
/// are still accurate (their error grows towards the poles at ±1).
const UNIT64: &[f64] = &[-0.9, -0.5, 0.1, 0.6, 0.8];
const UNIT32: &[f32] = &[-0.75, -0.5, 0.125, 0.625, 0.8125];

unary_method!(tan: tan, d = |x| 1.0 / (x.cos() * x.cos()), at64 = &[-1.2, -0.4, 0.3, 0.9, 1.3], at32 = &[-1.25, -0.375, 0.25, 0.875, 1.25]);
unary_method!(asin: asin, d = |x| 1.0 / (1.0 - x * x).sqrt(), at64 = UNIT64, at32 = UNIT32);
unary_method!(acos: acos, d = |x| -1.0 / (1.0 - x * x).sqrt(), at64 = UNIT64, at32 = UNIT32);
unary_method!(atan: atan, d = |x| 1.0 / (1.0 + x * x), at64 = LINE64, at32 = LINE32);

#[differentiable]
fn atan2_64(y: f64, x: f64) -> f64 {
    y.atan2(x)
}
#[differentiable]
fn atan2_64_path(y: f64, x: f64) -> f64 {
    f64::atan2(y, x)
}
#[differentiable]
fn atan2_32(y: f32, x: f32) -> f32 {
    y.atan2(x)
}
#[differentiable]
fn atan2_dispatched(y: f64, x: f64) -> f64 {
    identity(y).atan2(identity(x))
}

#[differentiable(jvp, hessian)]
fn rem_euclid_64(x: f64, m: f64) -> f64 {
    x.rem_euclid(m)
}
#[differentiable]
fn rem_euclid_64_path(x: f64, m: f64) -> f64 {
    f64::rem_euclid(x, m)
}
#[differentiable]
fn rem_euclid_32(x: f32, m: f32) -> f32 {
    x.rem_euclid(m)
}
#[differentiable]
fn rem_euclid_dispatched(x: f64, m: f64) -> f64 {
    identity(x).rem_euclid(identity(m))
}

/// A phase wrapped by a constant period, squared: smooth between wraps.
#[differentiable(jvp, hessian)]
fn wrapped_phase(w: f64, t: f64) -> f64 {
    let phase = (w * t + 0.3).rem_euclid(std::f64::consts::TAU);
    phase * phase
}

/// Away from the jumps (x a multiple of m): ∂/∂x = 1, ∂/∂m = −q with q the
/// Euclidean quotient, for either sign of x and m; value bit for bit.
#[test]
fn rem_euclid_between_its_jumps() {
    for &(x, m) in &[
        (7.3f64, 2.0f64),
        (-7.3, 2.0),
        (7.3, -2.0),
        (-7.3, -2.0),
        (0.4, 1.5),
    ] {
        let q = x.div_euclid(m);
        let (fdx, fdm) = fd64_2(|x, m| x.rem_euclid(m), x, m);
        let grads: [Grad2; 3] = [
            rem_euclid_64_grad,
            rem_euclid_64_path_grad,
            rem_euclid_dispatched_grad,
        ];
        for grad in grads {
            let (v, gx, gm) = grad(x, m);
            assert_eq!(v.to_bits(), x.rem_euclid(m).to_bits());
            assert_eq!(gx, 1.0);
            assert_relative_eq!(gm, -q, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gx, fdx, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(gm, fdm, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
        // Forward mode: ẋ − q·ṁ; second order: zero (piecewise linear).
        let (v, t) = rem_euclid_64_jvp(x, m, 0.5, -2.0);
        assert_eq!(v.to_bits(), x.rem_euclid(m).to_bits());
        assert_relative_eq!(
            t,
            0.5 + 2.0 * q,
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
        let (v, g, h) = rem_euclid_64_hessian(x, m);
        assert_eq!(v.to_bits(), x.rem_euclid(m).to_bits());
        assert_eq!((g[0], g[1]), (1.0, -q));
        assert!(h.iter().all(|&e| e == 0.0), "{h}");
    }
    for &(x, m) in &[(7.3f32, 2.0f32), (-7.3, 2.0), (7.3, -2.0)] {
        let (fdx, fdm) = fd32_2(|x, m| x.rem_euclid(m), x, m);
        let (v, gx, gm) = rem_euclid_32_grad(x, m);
        assert_eq!(v.to_bits(), x.rem_euclid(m).to_bits());
        assert_eq!(gx, 1.0);
        assert_eq!(gm, -x.div_euclid(m));
        let (gx, gm) = (f64::from(gx), f64::from(gm));
        assert_relative_eq!(gx, fdx, epsilon = FD32_ABS, max_relative = FD32_REL);
        assert_relative_eq!(gm, fdm, epsilon = FD32_ABS, max_relative = FD32_REL);
    }
    // A constant period: d/dw (r²) = 2r·t, d²/dw² = 2t², away from a wrap.
    for &(w, t) in &[(1.0, 0.7), (3.1, 2.9), (-2.2, 1.3)] {
        let r = (w * t + 0.3f64).rem_euclid(std::f64::consts::TAU);
        let (v, gw, gt) = wrapped_phase_grad(w, t);
        assert_eq!(v.to_bits(), wrapped_phase(w, t).to_bits());
        assert_relative_eq!(gw, 2.0 * r * t, epsilon = CF64_ABS, max_relative = CF64_REL);
        assert_relative_eq!(gt, 2.0 * r * w, epsilon = CF64_ABS, max_relative = CF64_REL);
        let (_, _, h) = wrapped_phase_hessian(w, t);
        assert_relative_eq!(
            h[(0, 0)],
            2.0 * t * t,
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
        assert_relative_eq!(
            h[(0, 1)],
            2.0 * (w * t + r),
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
        let (_, jt) = wrapped_phase_jvp(w, t, 1.0, 0.0);
        assert_relative_eq!(jt, gw, epsilon = CF64_ABS, max_relative = CF64_REL);
    }
}

#[test]
fn atan2_in_every_quadrant() {
    for &(y, x) in &[(1.0f64, 2.0f64), (0.5, -1.5), (-2.0, -0.25), (-1.0, 3.0)] {
        let r2 = x * x + y * y;
        let (fdy, fdx) = fd64_2(|y, x| y.atan2(x), y, x);
        let grads: [Grad2; 3] = [atan2_64_grad, atan2_64_path_grad, atan2_dispatched_grad];
        for grad in grads {
            let (v, gy, gx) = grad(y, x);
            assert_eq!(v.to_bits(), y.atan2(x).to_bits());
            assert_relative_eq!(gy, x / r2, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gx, -y / r2, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gy, fdy, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(gx, fdx, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
    }
    for &(y, x) in &[(1.0f32, 2.0f32), (0.5, -1.5), (-2.0, -0.25), (-1.0, 3.0)] {
        let (yf, xf) = (f64::from(y), f64::from(x));
        let r2 = xf * xf + yf * yf;
        let (fdy, fdx) = fd32_2(|y, x| y.atan2(x), y, x);
        let (_, gy, gx) = atan2_32_grad(y, x);
        assert_relative_eq!(
            f64::from(gy),
            xf / r2,
            epsilon = CF32_ABS,
            max_relative = CF32_REL
        );
        assert_relative_eq!(
            f64::from(gx),
            -yf / r2,
            epsilon = CF32_ABS,
            max_relative = CF32_REL
        );
        assert_relative_eq!(
            f64::from(gy),
            fdy,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
        assert_relative_eq!(
            f64::from(gx),
            fdx,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
    }
}

/// `sin_cos` where its values are bound, both used: d/dx (s·c + 2c) =
/// cos 2x − 2 sin x.
#[differentiable]
fn sin_cos64(x: f64) -> f64 {
    let (s, c) = x.sin_cos();
    s * c + 2.0 * c
}
#[differentiable]
fn sin_cos64_path(x: f64) -> f64 {
    let (s, c) = f64::sin_cos(x);
    s * c + 2.0 * c
}
#[differentiable]
fn sin_cos32(x: f32) -> f32 {
    let (s, c) = x.sin_cos();
    s * c + 2.0 * c
}
/// One component bound, the other ignored, on a call's result.
#[differentiable]
fn sin_cos_first(x: f64) -> f64 {
    let (s, _) = (identity(x) * 3.0).sin_cos();
    s
}

#[test]
fn sin_cos_bound_to_names() {
    let f = |x: f64| {
        let (s, c) = x.sin_cos();
        s * c + 2.0 * c
    };
    for &x in LINE64 {
        let d = (2.0 * x).cos() - 2.0 * x.sin();
        let fd = fd64(f, x);
        let grads: [fn(f64) -> (f64, f64); 2] = [sin_cos64_grad, sin_cos64_path_grad];
        for grad in grads {
            let (y, dx) = grad(x);
            assert_eq!(y.to_bits(), f(x).to_bits());
            assert_relative_eq!(dx, d, epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(dx, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
        let (y, dx) = sin_cos_first_grad(x);
        assert_eq!(y.to_bits(), (x * 3.0).sin_cos().0.to_bits());
        assert_relative_eq!(
            dx,
            3.0 * (3.0 * x).cos(),
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
    }
    for &x in LINE32 {
        let xf = f64::from(x);
        let (_, dx) = sin_cos32_grad(x);
        let d = (2.0 * xf).cos() - 2.0 * xf.sin();
        let fd = fd32(
            |x| {
                let (s, c) = x.sin_cos();
                s * c + 2.0 * c
            },
            x,
        );
        assert_relative_eq!(
            f64::from(dx),
            d,
            epsilon = CF32_ABS,
            max_relative = CF32_REL
        );
        assert_relative_eq!(
            f64::from(dx),
            fd,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
    }
}

// ---------------------------------------------------------------------------
// Hyperbolic.

unary_method!(sinh: sinh, d = |x| x.cosh(), at64 = LINE64, at32 = LINE32);
unary_method!(cosh: cosh, d = |x| x.sinh(), at64 = LINE64, at32 = LINE32);
unary_method!(asinh: asinh, d = |x| 1.0 / (x * x + 1.0).sqrt(), at64 = LINE64, at32 = LINE32);
unary_method!(acosh: acosh, d = |x| 1.0 / (x * x - 1.0).sqrt(), at64 = &[1.2, 1.5, 2.5, 7.0, 30.0], at32 = &[1.25, 1.5, 2.5, 7.0, 30.0]);
unary_method!(atanh: atanh, d = |x| 1.0 / (1.0 - x * x), at64 = UNIT64, at32 = UNIT32);

// ---------------------------------------------------------------------------
// Piecewise: constant between jumps, `fract` of slope 1, and `clamp`.

/// Away from integers and halves (where `round` jumps), for `f64` and for
/// `f32` with every difference step on the same side.
const STEPS64: &[f64] = &[-2.3, -0.7, 0.4, 1.6, 3.2];
const STEPS32: &[f32] = &[-2.375, -0.625, 0.375, 1.625, 3.125];

unary_method!(signum: signum, d = |_| 0.0, at64 = STEPS64, at32 = STEPS32);
unary_method!(floor: floor, d = |_| 0.0, at64 = STEPS64, at32 = STEPS32);
unary_method!(ceil: ceil, d = |_| 0.0, at64 = STEPS64, at32 = STEPS32);
unary_method!(round: round, d = |_| 0.0, at64 = STEPS64, at32 = STEPS32);
unary_method!(trunc: trunc, d = |_| 0.0, at64 = STEPS64, at32 = STEPS32);
unary_method!(fract: fract, d = |_| 1.0, at64 = STEPS64, at32 = STEPS32);

#[differentiable]
fn clamp64(x: f64, lo: f64, hi: f64) -> f64 {
    x.clamp(lo, hi)
}
#[differentiable]
fn clamp64_path(x: f64, lo: f64, hi: f64) -> f64 {
    f64::clamp(x, lo, hi)
}
#[differentiable]
fn clamp32(x: f32, lo: f32, hi: f32) -> f32 {
    x.clamp(lo, hi)
}
#[differentiable]
fn clamp_dispatched(x: f64, lo: f64, hi: f64) -> f64 {
    identity(x).clamp(lo, identity(hi))
}

/// The `_grad` of a function of three `f64`s.
type Grad3 = fn(f64, f64, f64) -> (f64, f64, f64, f64);

#[test]
fn clamp_passes_the_adjoint_to_the_operand_it_returns() {
    // (x, lo, hi) inside, below and above; the adjoints go to x, lo, hi.
    let cases = [
        ((0.3, -1.0, 2.0), (1.0, 0.0, 0.0)),
        ((-4.5, -1.0, 2.0), (0.0, 1.0, 0.0)),
        ((7.25, -1.0, 2.0), (0.0, 0.0, 1.0)),
    ];
    for ((x, lo, hi), (ex, elo, ehi)) in cases {
        let fx = fd64(|t: f64| t.clamp(lo, hi), x);
        let flo = fd64(|t: f64| x.clamp(t, hi), lo);
        let fhi = fd64(|t: f64| x.clamp(lo, t), hi);
        let grads: [Grad3; 3] = [clamp64_grad, clamp64_path_grad, clamp_dispatched_grad];
        for grad in grads {
            let (y, dx, dlo, dhi) = grad(x, lo, hi);
            assert_eq!(y.to_bits(), x.clamp(lo, hi).to_bits());
            assert_eq!((dx, dlo, dhi), (ex, elo, ehi));
            assert_relative_eq!(dx, fx, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(dlo, flo, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(dhi, fhi, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
        let (x, lo, hi) = (x as f32, lo as f32, hi as f32);
        let (y, dx, dlo, dhi) = clamp32_grad(x, lo, hi);
        assert_eq!(y.to_bits(), x.clamp(lo, hi).to_bits());
        assert_eq!((dx, dlo, dhi), (ex as f32, elo as f32, ehi as f32));
        let fx = fd32(|t: f32| t.clamp(lo, hi), x);
        assert_relative_eq!(
            f64::from(dx),
            fx,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
    }
}

// ---------------------------------------------------------------------------
// The conventions at points without a derivative, as the rules document
// them, through the macro.

#[differentiable]
fn asin_acos(x: f64, y: f64) -> f64 {
    x.asin() + y.acos()
}
#[differentiable]
fn steps(x: f64) -> f64 {
    x.signum() + x.floor() + x.round() + x.fract()
}

#[test]
fn conventions_where_there_is_no_derivative() {
    // clamp at its bounds: the value is `x`, and so is the adjoint.
    assert_eq!(clamp64_grad(-1.0, -1.0, 2.0), (-1.0, 1.0, 0.0, 0.0));
    assert_eq!(clamp64_grad(2.0, -1.0, 2.0), (2.0, 1.0, 0.0, 0.0));
    // hypot at the origin, a cone's tip: 0 for both (least-norm subgradient).
    assert_eq!(hypot64_grad(0.0, 0.0), (0.0, 0.0, 0.0));
    assert_eq!(hypot64_grad(-0.0, 0.0), (0.0, 0.0, 0.0));
    // atan2 at the origin, where the angle jumps: 0 for both.
    for (y, x) in [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0)] {
        let (_, dy, dx) = atan2_64_grad(y, x);
        assert_eq!((dy, dx), (0.0, 0.0), "at ({y}, {x})");
    }
    // asin and acos at ±1: the one-sided limits +∞ and −∞.
    for x in [1.0, -1.0] {
        let (_, dasin, dacos) = asin_acos_grad(x, x);
        assert_eq!((dasin, dacos), (f64::INFINITY, f64::NEG_INFINITY), "at {x}");
    }
    // At their jumps the piecewise-constant functions have slope 0 and
    // `fract` slope 1: signum at 0, floor and fract at an integer, round
    // at a half.
    for x in [0.0, -0.0, 2.0, -3.0, 0.5, -1.5] {
        let (_, dx) = steps_grad(x);
        assert_eq!(dx, 1.0, "at {x}");
    }
}

// ---------------------------------------------------------------------------
// Fused multiply-add.

#[differentiable]
fn mul_add64(a: f64, b: f64, c: f64) -> f64 {
    a.mul_add(b, c)
}
#[differentiable]
fn mul_add64_path(a: f64, b: f64, c: f64) -> f64 {
    f64::mul_add(a, b, c)
}
#[differentiable]
fn mul_add32(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}
#[differentiable]
fn mul_add_dispatched(a: f64, b: f64, c: f64) -> f64 {
    identity(a).mul_add(b, identity(c))
}

#[test]
fn mul_add_is_the_product_plus_the_addend() {
    for (a, b, c) in [(1.5, -2.0, 0.25), (-3.0, 0.5, 7.0), (0.125, 4.0, -1.0)] {
        let fa = fd64(|t: f64| t.mul_add(b, c), a);
        let fb = fd64(|t: f64| a.mul_add(t, c), b);
        let fc = fd64(|t: f64| a.mul_add(b, t), c);
        let grads: [Grad3; 3] = [mul_add64_grad, mul_add64_path_grad, mul_add_dispatched_grad];
        for grad in grads {
            let (y, da, db, dc) = grad(a, b, c);
            assert_eq!(y.to_bits(), a.mul_add(b, c).to_bits());
            assert_eq!((da, db, dc), (b, a, 1.0));
            assert_relative_eq!(da, fa, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(db, fb, epsilon = FD64_ABS, max_relative = FD64_REL);
            assert_relative_eq!(dc, fc, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
        let (a, b, c) = (a as f32, b as f32, c as f32);
        let (y, da, db, dc) = mul_add32_grad(a, b, c);
        assert_eq!(y.to_bits(), a.mul_add(b, c).to_bits());
        assert_eq!((da, db, dc), (b, a, 1.0));
        let fa = fd32(|t: f32| t.mul_add(b, c), a);
        assert_relative_eq!(
            f64::from(da),
            fa,
            epsilon = FD32_ABS,
            max_relative = FD32_REL
        );
    }
}

/// `%` of floats, truncated division's remainder: an angle wrapped into
/// one turn, and a remainder by a differentiable modulus.
#[differentiable(jvp, hessian)]
fn wrapped_energy(theta: f64, w: f64) -> f64 {
    let turn = (theta * 3.0) % 1.5;
    let mut m = theta;
    m %= w;
    (turn - 0.7).powi(2) + m * w
}

#[test]
fn float_remainder_has_the_slopes_of_its_pieces() {
    for (t, w) in [(2.3, 1.7), (-4.1, 0.6), (0.4, 0.9)] {
        let (value, dt, dw) = wrapped_energy_grad(t, w);
        assert_eq!(value.to_bits(), wrapped_energy(t, w).to_bits());
        // Closed form: with q = trunc(t / w) and u = (3t) % 1.5,
        // f = (u − 0.7)² + (t − q·w)·w; ∂t = 6(u − 0.7) + w,
        // ∂w = (t % w) − q·w, ∂²t = 18, ∂t∂w = 1, ∂²w = −2q.
        let (q, u) = ((t / w).trunc(), (t * 3.0) % 1.5);
        assert_relative_eq!(dt, 6.0 * (u - 0.7) + w, max_relative = 1e-12);
        assert_relative_eq!(dw, t % w - q * w, max_relative = 1e-12);
        let (v, tangent) = wrapped_energy_jvp(t, w, 1.0, -0.5);
        assert_eq!(v.to_bits(), value.to_bits());
        assert_relative_eq!(tangent, dt - 0.5 * dw, max_relative = 1e-12);
        let (_, _, h) = wrapped_energy_hessian(t, w);
        assert_eq!((h[(0, 0)], h[(0, 1)], h[(1, 1)]), (18.0, 1.0, -2.0 * q));
    }
}
