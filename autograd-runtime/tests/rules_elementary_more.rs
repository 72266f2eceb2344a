//! The rules of every float method beyond the seed's: each primal against
//! the standard library, each pullback against its closed form (computed
//! here in `f64`, by a formula written independently of the rule's) and
//! against central differences at several points, negative and large
//! arguments included, for `f32` and `f64`; the element-wise lifting to
//! matrices and the type-dispatched forms the macro calls.

mod common;

use autograd_runtime::central_difference;
use autograd_runtime::rules::generic as g;
use autograd_runtime::rules::{self, Real, elementwise as ew};
use common::Rng;
use nalgebra::{DMatrix, DVector};

type M = DMatrix<f64>;
type V = DVector<f64>;

/// What a pullback reads besides the adjoint.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Reads {
    X,
    Out,
    Nothing,
}

/// Calls a unary pullback with what it reads (the other values unused).
macro_rules! call {
    ($f:path, $g:expr, $x:expr, $out:expr, X) => {{
        let _ = &$out;
        $f($g, $x)
    }};
    ($f:path, $g:expr, $x:expr, $out:expr, Out) => {{
        let _ = &$x;
        $f($g, $out)
    }};
    ($f:path, $g:expr, $x:expr, $out:expr, Nothing) => {{
        let _ = (&$x, &$out);
        $f($g)
    }};
}

/// One unary rule at type `T`.
struct Unary<T> {
    name: &'static str,
    primal: fn(T) -> T,
    /// The standard library's method, which the primal must reproduce.
    method: fn(T) -> T,
    /// `(grad, x, out) ↦ adjoint`.
    pullback: fn(T, T, T) -> T,
    /// The derivative's closed form, in `f64`.
    derivative: fn(f64) -> f64,
    points: &'static [f64],
    /// Where the derivative has a pole or the function a jump: a central
    /// difference is trusted only where its step is a tenth of the way
    /// there.
    singular: &'static [f64],
    /// Up to which |x| a central difference in `f32` is accurate to 2·10⁻³
    /// (exponentials change too fast over f32's large step beyond).
    f32_fd_max: f64,
    /// Absolute error allowed against the closed form, in units of the
    /// type's epsilon times |grad| (0: relative error only).
    abs_eps: f64,
}

/// One unary rule lifted to matrices, with its dispatched forms.
struct Lifted {
    name: &'static str,
    reads: Reads,
    primal: fn(&M) -> M,
    pullback: fn(&M, &M, &M) -> M,
    scalar: fn(f64, f64, f64) -> f64,
    dispatched: fn(&f64, &f64, &f64) -> f64,
    dispatched_acc: fn(&mut f64, &f64, &f64, &f64),
    dispatched_owned: fn(f64, &f64, &f64) -> f64,
    map: fn(&M, &M, &M) -> M,
    map_acc: fn(&mut M, &M, &M, &M),
    map_owned: fn(M, &M, &M) -> M,
    map_vector: fn(&V, &V, &V) -> V,
    /// `(grad, x, out) ↦` the broadcast form, where the rule reads a value.
    map_broadcast: Option<fn(f64, &M, &M) -> M>,
    points: &'static [f64],
    singular: &'static [f64],
}

/// The `_acc` map form of a pullback with what it reads.
macro_rules! map_acc_call {
    ($f:path, $acc:expr, $g:expr, $x:expr, $out:expr, X) => {{
        let _ = &$out;
        $f($acc, $g, $x)
    }};
    ($f:path, $acc:expr, $g:expr, $x:expr, $out:expr, Out) => {{
        let _ = &$x;
        $f($acc, $g, $out)
    }};
    ($f:path, $acc:expr, $g:expr, $x:expr, $out:expr, Nothing) => {{
        let _ = (&$x, &$out);
        $f($acc, $g)
    }};
}
macro_rules! broadcast {
    ($f:ident, X) => {
        Some(|g: f64, x: &M, _: &M| g::$f(g, x.clone()))
    };
    ($f:ident, Out) => {
        Some(|g: f64, _: &M, out: &M| g::$f(g, out.clone()))
    };
    ($f:ident, Nothing) => {
        None
    };
}

macro_rules! unary_table {
    ($($name:ident, $grad:ident, $acc:ident, $owned:ident,
       $map:ident, $map_acc:ident, $map_owned:ident, $map_broadcast:ident,
       $reads:ident, |$x:ident| $derivative:expr,
       $points:expr, $singular:expr, $f32_fd_max:expr, $abs_eps:expr;)*) => {
        fn unary_rules<T: Real + core::fmt::Debug>() -> Vec<Unary<T>> {
            vec![$(Unary {
                name: stringify!($name),
                primal: rules::$name,
                method: |x: T| x.$name(),
                pullback: |g: T, x: T, out: T| call!(rules::$grad, g, x, out, $reads),
                derivative: |$x: f64| $derivative,
                points: $points,
                singular: $singular,
                f32_fd_max: $f32_fd_max,
                abs_eps: $abs_eps,
            }),*]
        }

        fn lifted_rules() -> Vec<Lifted> {
            vec![$(Lifted {
                name: stringify!($name),
                reads: Reads::$reads,
                primal: ew::$name,
                pullback: |g: &M, x: &M, out: &M| call!(ew::$grad, g, x, out, $reads),
                scalar: |g: f64, x: f64, out: f64| call!(rules::$grad, g, x, out, $reads),
                dispatched: g::$grad::<f64>,
                dispatched_acc: g::$acc::<f64>,
                dispatched_owned: g::$owned::<f64>,
                map: |gr: &M, x: &M, out: &M| call!(g::$map, gr, x, out, $reads),
                map_acc: |acc: &mut M, gr: &M, x: &M, out: &M| {
                    map_acc_call!(g::$map_acc, acc, gr, x, out, $reads)
                },
                map_owned: |gr: M, x: &M, out: &M| call!(g::$map_owned, gr, x, out, $reads),
                map_vector: |gr: &V, x: &V, out: &V| {
                    call!(g::$map, gr, x, out, $reads)
                },
                map_broadcast: broadcast!($map_broadcast, $reads),
                points: $points,
                singular: $singular,
            }),*]
        }
    };
}

/// tan's poles near the points checked: (k + ½)π for k = −1, 0, 1, 31.
const TAN_POLES: &[f64] = &[
    -std::f64::consts::FRAC_PI_2,
    std::f64::consts::FRAC_PI_2,
    1.5 * std::f64::consts::PI,
    31.5 * std::f64::consts::PI,
];

/// The jumps of signum, floor, ceil, round and trunc near the points
/// checked: the integers and the halves between them.
const JUMPS: &[f64] = &[
    -8.0, -7.5, -7.0, -4.0, -3.5, -3.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 2.5, 3.0, 9.0, 9.5,
];

unary_table! {
    exp2, exp2_grad, exp2_grad_acc, exp2_grad_owned,
        map_exp2_grad, map_exp2_grad_acc, map_exp2_grad_owned, map_exp2_grad_broadcast,
        Out, |x| x.exp2() * std::f64::consts::LN_2,
        &[-30.0, -3.7, -0.5, 0.0, 0.3, 2.5, 9.0, 100.0], &[], 10.0, 0.0;
    exp_m1, exp_m1_grad, exp_m1_grad_acc, exp_m1_grad_owned,
        map_exp_m1_grad, map_exp_m1_grad_acc, map_exp_m1_grad_owned, map_exp_m1_grad_broadcast,
        Out, |x| x.exp(),
        &[-40.0, -2.0, -1e-3, 1e-8, 0.7, 5.0, 60.0], &[], 10.0, 2.0;
    ln_1p, ln_1p_grad, ln_1p_grad_acc, ln_1p_grad_owned,
        map_ln_1p_grad, map_ln_1p_grad_acc, map_ln_1p_grad_owned, map_ln_1p_grad_broadcast,
        X, |x| 1.0 / (x + 1.0),
        &[-0.9, -0.3, 1e-6, 0.5, 7.0, 1e6, 1e30], &[-1.0], f64::INFINITY, 0.0;
    log2, log2_grad, log2_grad_acc, log2_grad_owned,
        map_log2_grad, map_log2_grad_acc, map_log2_grad_owned, map_log2_grad_broadcast,
        X, |x| std::f64::consts::LOG2_E / x,
        &[1e-20, 0.3, 1.0, 2.5, 1e6, 1e30], &[0.0], f64::INFINITY, 0.0;
    log10, log10_grad, log10_grad_acc, log10_grad_owned,
        map_log10_grad, map_log10_grad_acc, map_log10_grad_owned, map_log10_grad_broadcast,
        X, |x| std::f64::consts::LOG10_E / x,
        &[1e-20, 0.3, 1.0, 2.5, 1e6, 1e30], &[0.0], f64::INFINITY, 0.0;
    cbrt, cbrt_grad, cbrt_grad_acc, cbrt_grad_owned,
        map_cbrt_grad, map_cbrt_grad_acc, map_cbrt_grad_owned, map_cbrt_grad_broadcast,
        Out, |x| x.abs().powf(-2.0 / 3.0) / 3.0,
        &[-1e12, -27.0, -0.5, 1e-9, 0.8, 64.0, 1e15], &[0.0], f64::INFINITY, 0.0;
    recip, recip_grad, recip_grad_acc, recip_grad_owned,
        map_recip_grad, map_recip_grad_acc, map_recip_grad_owned, map_recip_grad_broadcast,
        Out, |x| -1.0 / (x * x),
        &[-1e6, -2.5, -0.01, 0.3, 7.0, 1e10], &[0.0], f64::INFINITY, 0.0;
    tan, tan_grad, tan_grad_acc, tan_grad_owned,
        map_tan_grad, map_tan_grad_acc, map_tan_grad_owned, map_tan_grad_broadcast,
        Out, |x| 1.0 / (x.cos() * x.cos()),
        &[-1.4, -0.7, 0.0, 0.4, 1.2, 3.0, 100.0], TAN_POLES, f64::INFINITY, 0.0;
    asin, asin_grad, asin_grad_acc, asin_grad_owned,
        map_asin_grad, map_asin_grad_acc, map_asin_grad_owned, map_asin_grad_broadcast,
        X, |x| 1.0 / (1.0 - x * x).sqrt(),
        &[-0.99, -0.5, 0.0, 0.3, 0.9], &[-1.0, 1.0], f64::INFINITY, 0.0;
    acos, acos_grad, acos_grad_acc, acos_grad_owned,
        map_acos_grad, map_acos_grad_acc, map_acos_grad_owned, map_acos_grad_broadcast,
        X, |x| -1.0 / (1.0 - x * x).sqrt(),
        &[-0.99, -0.5, 0.0, 0.3, 0.9], &[-1.0, 1.0], f64::INFINITY, 0.0;
    atan, atan_grad, atan_grad_acc, atan_grad_owned,
        map_atan_grad, map_atan_grad_acc, map_atan_grad_owned, map_atan_grad_broadcast,
        X, |x| 1.0 / (1.0 + x * x),
        &[-1e8, -30.0, -1.5, 0.0, 0.4, 2.0, 1e5], &[], f64::INFINITY, 0.0;
    sinh, sinh_grad, sinh_grad_acc, sinh_grad_owned,
        map_sinh_grad, map_sinh_grad_acc, map_sinh_grad_owned, map_sinh_grad_broadcast,
        X, |x| (x.exp() + (-x).exp()) / 2.0,
        &[-30.0, -2.0, -1e-3, 0.0, 0.5, 3.0, 40.0], &[], 10.0, 0.0;
    cosh, cosh_grad, cosh_grad_acc, cosh_grad_owned,
        map_cosh_grad, map_cosh_grad_acc, map_cosh_grad_owned, map_cosh_grad_broadcast,
        X, |x| (x.exp() - (-x).exp()) / 2.0,
        &[-30.0, -2.0, -0.4, 0.5, 3.0, 40.0], &[], 10.0, 0.0;
    asinh, asinh_grad, asinh_grad_acc, asinh_grad_owned,
        map_asinh_grad, map_asinh_grad_acc, map_asinh_grad_owned, map_asinh_grad_broadcast,
        X, |x| 1.0 / (x * x + 1.0).sqrt(),
        &[-1e10, -3.0, -0.2, 0.0, 0.7, 50.0, 1e15], &[], f64::INFINITY, 0.0;
    acosh, acosh_grad, acosh_grad_acc, acosh_grad_owned,
        map_acosh_grad, map_acosh_grad_acc, map_acosh_grad_owned, map_acosh_grad_broadcast,
        X, |x| 1.0 / (x * x - 1.0).sqrt(),
        &[1.001, 1.5, 3.0, 100.0, 1e12], &[1.0], f64::INFINITY, 0.0;
    atanh, atanh_grad, atanh_grad_acc, atanh_grad_owned,
        map_atanh_grad, map_atanh_grad_acc, map_atanh_grad_owned, map_atanh_grad_broadcast,
        X, |x| 1.0 / (1.0 - x * x),
        &[-0.99, -0.5, 0.0, 0.2, 0.95], &[-1.0, 1.0], f64::INFINITY, 0.0;
    signum, signum_grad, signum_grad_acc, signum_grad_owned,
        map_signum_grad, map_signum_grad_acc, map_signum_grad_owned, none,
        Nothing, |_x| 0.0,
        &[-7.4, -3.7, -1.2, -0.3, 0.4, 2.6, 9.3, 1e20], JUMPS, f64::INFINITY, 0.0;
    floor, floor_grad, floor_grad_acc, floor_grad_owned,
        map_floor_grad, map_floor_grad_acc, map_floor_grad_owned, none,
        Nothing, |_x| 0.0,
        &[-7.4, -3.7, -1.2, -0.3, 0.4, 2.6, 9.3], JUMPS, f64::INFINITY, 0.0;
    ceil, ceil_grad, ceil_grad_acc, ceil_grad_owned,
        map_ceil_grad, map_ceil_grad_acc, map_ceil_grad_owned, none,
        Nothing, |_x| 0.0,
        &[-7.4, -3.7, -1.2, -0.3, 0.4, 2.6, 9.3], JUMPS, f64::INFINITY, 0.0;
    round, round_grad, round_grad_acc, round_grad_owned,
        map_round_grad, map_round_grad_acc, map_round_grad_owned, none,
        Nothing, |_x| 0.0,
        &[-7.4, -3.7, -1.2, -0.3, 0.4, 2.6, 9.3], JUMPS, f64::INFINITY, 0.0;
    trunc, trunc_grad, trunc_grad_acc, trunc_grad_owned,
        map_trunc_grad, map_trunc_grad_acc, map_trunc_grad_owned, none,
        Nothing, |_x| 0.0,
        &[-7.4, -3.7, -1.2, -0.3, 0.4, 2.6, 9.3], JUMPS, f64::INFINITY, 0.0;
    fract, fract_grad, fract_grad_acc, fract_grad_owned,
        map_fract_grad, map_fract_grad_acc, map_fract_grad_owned, none,
        Nothing, |_x| 1.0,
        &[-7.4, -3.7, -1.2, -0.3, 0.4, 2.6, 9.3], JUMPS, f64::INFINITY, 0.0;
}

/// `|a − b| ≤ abs + rel·max(|a|, |b|)`; equal infinities pass.
fn close(a: f64, b: f64, abs: f64, rel: f64) -> bool {
    a == b || (a - b).abs() <= abs + rel * a.abs().max(b.abs())
}

/// Whether a central difference with step `h` at `x` is accurate to `rel`
/// near the singular points: its truncation error grows like
/// `(h/distance)²`, so it needs `distance ≥ h/√rel`.
fn clear_of(x: f64, h: f64, rel: f64, singular: &[f64]) -> bool {
    singular.iter().all(|s| (x - s).abs() >= h / rel.sqrt())
}

/// The tolerance of a central difference of `f` at a value `fx`: `rel`
/// relative, plus ten rounding errors of `f`'s values over the step `h`
/// and of the adjoint `a`.
fn fd_tolerance<T: Real + core::fmt::Debug>(fx: f64, h: f64, a: f64) -> f64 {
    10.0 * T::epsilon().to_f64() * (fx.abs() / h + a.abs())
}

/// Relative tolerance of a central difference: its truncation error.
fn fd_rel<T: Real + core::fmt::Debug>() -> f64 {
    if T::epsilon().to_f64() > 1e-10 {
        2e-3
    } else {
        1e-6
    }
}

/// Relative tolerance against a closed form: a few hundred ulps.
fn closed_rel<T: Real + core::fmt::Debug>() -> f64 {
    if T::epsilon().to_f64() > 1e-10 {
        2e-5
    } else {
        1e-13
    }
}

/// Every unary rule: the primal is the standard method, the pullback the
/// closed form times the seed, and with seed 1 a central difference.
/// Returns how many comparisons with a central difference ran.
fn check_unary<T: Real + core::fmt::Debug>() -> usize {
    let is_f32 = T::epsilon().to_f64() > 1e-10;
    let mut fd_checks = 0;
    for rule in unary_rules::<T>() {
        for &p in rule.points {
            let x = T::from_f64(p);
            let xf = x.to_f64();
            let out = (rule.primal)(x);
            let method = (rule.method)(x);
            assert!(
                out.to_f64() == method.to_f64() || out.is_nan() && method.is_nan(),
                "{} at {p}: primal {out:?}, method {method:?}",
                rule.name
            );
            for seed in [1.0, -0.7, 2.5] {
                let a = (rule.pullback)(T::from_f64(seed), x, out).to_f64();
                let expected = seed * (rule.derivative)(xf);
                let abs = rule.abs_eps * T::epsilon().to_f64() * seed.abs();
                assert!(
                    close(a, expected, abs, closed_rel::<T>()),
                    "{} at {p}, seed {seed}: pullback {a}, closed form {expected}",
                    rule.name
                );
            }
            let h = autograd_runtime::central_difference_step(x).to_f64();
            if !clear_of(xf, h, fd_rel::<T>(), rule.singular) || is_f32 && p.abs() > rule.f32_fd_max
            {
                continue;
            }
            let a = (rule.pullback)(T::one(), x, out).to_f64();
            let fd = central_difference(rule.primal, x);
            let tol = fd_tolerance::<T>(out.to_f64(), h, a);
            assert!(
                close(a, fd, tol, fd_rel::<T>()),
                "{} at {p}: pullback {a}, central difference {fd}",
                rule.name
            );
            fd_checks += 1;
        }
    }
    fd_checks
}

#[test]
fn every_new_unary_rule_matches_its_closed_form_and_finite_differences_f64() {
    assert_eq!(unary_rules::<f64>().len(), 22);
    // Every point but those too near a singular point for the step.
    assert_eq!(check_unary::<f64>(), 140);
}

#[test]
fn every_new_unary_rule_matches_its_closed_form_and_finite_differences_f32() {
    // f32's step is ∛ε₃₂·max(1, |x|) ≈ 5·10⁻³·max(1, |x|): fewer points
    // are far enough from a singular point, or slow enough.
    assert_eq!(check_unary::<f32>(), 93);
}

/// One binary rule at type `T`: `(grad, a, b, out) ↦ (∂a, ∂b)`.
struct Binary<T> {
    name: &'static str,
    primal: fn(T, T) -> T,
    method: fn(T, T) -> T,
    pullback: fn(T, T, T, T) -> (T, T),
    /// `(a, b) ↦ (∂f/∂a, ∂f/∂b)` in closed form.
    partials: fn(f64, f64) -> (f64, f64),
    points: &'static [(f64, f64)],
    /// `(a, b, ha, hb, rel)`: whether central differences with steps `ha`,
    /// `hb` are accurate to `rel` near the singular points (see
    /// [`clear_of`]).
    fd_safe: fn(f64, f64, f64, f64, f64) -> bool,
}

fn binary_rules<T: Real + core::fmt::Debug>() -> Vec<Binary<T>> {
    const PAIRS: &[(f64, f64)] = &[
        (1.0, 2.0),
        (-3.0, 0.5),
        (2.0, -7.0),
        (-0.1, -0.2),
        (0.0, 5.0),
        (-4.0, 0.0),
        (2e18, -5e18),
        (3e-25, -1e-25),
    ];
    let away_from_origin =
        |a: f64, b: f64, ha: f64, hb: f64, rel: f64| a.hypot(b) >= ha.max(hb) / rel.sqrt();
    vec![
        Binary {
            name: "atan2",
            primal: rules::atan2,
            method: |y: T, x: T| y.atan2(x),
            pullback: |g, y, x, _| {
                (
                    rules::atan2_grad_lhs(g, y, x),
                    rules::atan2_grad_rhs(g, y, x),
                )
            },
            partials: |y, x| (x / (x * x + y * y), -y / (x * x + y * y)),
            points: PAIRS,
            fd_safe: away_from_origin,
        },
        Binary {
            name: "hypot",
            primal: rules::hypot,
            method: |x: T, y: T| x.hypot(y),
            pullback: |g, x, y, out| {
                (
                    rules::hypot_grad_lhs(g, x, out),
                    rules::hypot_grad_rhs(g, y, out),
                )
            },
            partials: |x, y| {
                let r = (x * x + y * y).sqrt();
                (x / r, y / r)
            },
            points: PAIRS,
            fd_safe: away_from_origin,
        },
        Binary {
            name: "log",
            primal: rules::log,
            method: |x: T, b: T| x.log(b),
            pullback: |g, x, b, out| (rules::log_grad_lhs(g, x, b), rules::log_grad_rhs(g, b, out)),
            partials: |x, b| (1.0 / (x * b.ln()), -x.ln() / (b * b.ln() * b.ln())),
            points: &[
                (8.0, 2.0),
                (0.3, 10.0),
                (5.0, 0.5),
                (1e20, 3.0),
                (1e-10, 7.0),
                (2.5, 1.5),
                (0.7, 1e6),
            ],
            fd_safe: |x, b, hx, hb, rel| {
                x >= hx / rel.sqrt() && b.min((b - 1.0).abs()) >= hb / rel.sqrt()
            },
        },
    ]
}

/// Returns how many comparisons with a central difference ran.
fn check_binary<T: Real + core::fmt::Debug>() -> usize {
    let mut fd_checks = 0;
    for rule in binary_rules::<T>() {
        for &(pa, pb) in rule.points {
            let (a, b) = (T::from_f64(pa), T::from_f64(pb));
            let out = (rule.primal)(a, b);
            assert_eq!(
                out.to_f64(),
                (rule.method)(a, b).to_f64(),
                "{} primal at ({pa}, {pb})",
                rule.name
            );
            let (ea, eb) = (rule.partials)(a.to_f64(), b.to_f64());
            for seed in [1.0, -0.7, 2.5] {
                let (da, db) = (rule.pullback)(T::from_f64(seed), a, b, out);
                for (side, got, want) in [("lhs", da, ea), ("rhs", db, eb)] {
                    let (got, want) = (got.to_f64(), seed * want);
                    assert!(
                        close(got, want, 0.0, closed_rel::<T>()),
                        "{} {side} at ({pa}, {pb}), seed {seed}: pullback {got}, closed form {want}",
                        rule.name
                    );
                }
            }
            let ha = autograd_runtime::central_difference_step(a).to_f64();
            let hb = autograd_runtime::central_difference_step(b).to_f64();
            if !(rule.fd_safe)(a.to_f64(), b.to_f64(), ha, hb, fd_rel::<T>()) {
                continue;
            }
            let (da, db) = (rule.pullback)(T::one(), a, b, out);
            let fd_a = central_difference(|a| (rule.primal)(a, b), a);
            let fd_b = central_difference(|b| (rule.primal)(a, b), b);
            for (side, got, fd, h) in [("lhs", da, fd_a, ha), ("rhs", db, fd_b, hb)] {
                let got = got.to_f64();
                let tol = fd_tolerance::<T>(out.to_f64(), h, got);
                assert!(
                    close(got, fd, tol, fd_rel::<T>()),
                    "{} {side} at ({pa}, {pb}): pullback {got}, central difference {fd}",
                    rule.name
                );
                fd_checks += 1;
            }
        }
    }
    fd_checks
}

#[test]
fn atan2_hypot_and_log_match_their_closed_forms_and_finite_differences() {
    // All but the points too near the origin (atan2, hypot) or 0 (log).
    assert_eq!(check_binary::<f64>(), 40);
    assert_eq!(check_binary::<f32>(), 40);
}

/// `clamp` and `mul_add`: the three partials against the closed form and
/// central differences, in every region of `clamp`.
fn check_ternary<T: Real + core::fmt::Debug>() {
    let t = T::from_f64;
    let rel = fd_rel::<T>();
    // (x, lo, hi) with the value from x, from lo, from hi.
    let clamps = [
        (0.5, -1.0, 2.0, [1.0, 0.0, 0.0]),
        (-1.5, -1.0, 2.0, [0.0, 1.0, 0.0]),
        (5.0, -1.0, 2.0, [0.0, 0.0, 1.0]),
        (-3e6, -1e6, 1e6, [0.0, 1.0, 0.0]),
        (2e7, -1e6, 1e6, [0.0, 0.0, 1.0]),
        (-0.25, -8.0, -0.1, [1.0, 0.0, 0.0]),
    ];
    for (x, lo, hi, expected) in clamps {
        let (xt, lt, ht) = (t(x), t(lo), t(hi));
        assert_eq!(rules::clamp(xt, lt, ht).to_f64(), xt.clamp(lt, ht).to_f64());
        for seed in [1.0, -2.5] {
            let g = t(seed);
            let got = [
                rules::clamp_grad_x(g, xt, lt, ht),
                rules::clamp_grad_lo(g, xt, lt),
                rules::clamp_grad_hi(g, xt, ht),
            ];
            for (k, (got, want)) in got.iter().zip(expected).enumerate() {
                assert_eq!(got.to_f64(), seed * want, "clamp partial {k} at {x}");
            }
        }
        let fds = [
            central_difference(|x| rules::clamp(x, lt, ht), xt),
            central_difference(|lo| rules::clamp(xt, lo, ht), lt),
            central_difference(|hi| rules::clamp(xt, lt, hi), ht),
        ];
        for (k, (fd, want)) in fds.iter().zip(expected).enumerate() {
            assert!(
                close(*fd, want, 1e-9, rel),
                "clamp partial {k} at {x}: {fd}"
            );
        }
    }
    let fmas = [
        (1.5, -2.0, 0.25),
        (-3.0, -7.0, 1e3),
        (1e10, -3e-5, 7.0),
        (-0.001, 4e6, -2.0),
    ];
    for (a, b, c) in fmas {
        let (at, bt, ct) = (t(a), t(b), t(c));
        assert_eq!(
            rules::mul_add(at, bt, ct).to_f64(),
            at.mul_add(bt, ct).to_f64()
        );
        let g = t(-1.25);
        let got = [
            rules::mul_add_grad_a(g, bt),
            rules::mul_add_grad_b(g, at),
            rules::mul_add_grad_c(g),
        ];
        let want = [bt.to_f64(), at.to_f64(), 1.0].map(|p| -1.25 * p);
        for (k, (got, want)) in got.iter().zip(want).enumerate() {
            let got = got.to_f64();
            assert!(
                close(got, want, 0.0, closed_rel::<T>()),
                "mul_add partial {k} at ({a}, {b}, {c}): {got} vs {want}"
            );
        }
        let out = rules::mul_add(at, bt, ct).to_f64();
        let fds = [
            (central_difference(|a| rules::mul_add(a, bt, ct), at), at),
            (central_difference(|b| rules::mul_add(at, b, ct), bt), bt),
            (central_difference(|c| rules::mul_add(at, bt, c), ct), ct),
        ];
        for (k, ((fd, h_at), want)) in fds.iter().zip(want).enumerate() {
            let want = want / -1.25;
            let h = autograd_runtime::central_difference_step(*h_at).to_f64();
            let tol = fd_tolerance::<T>(out, h, want);
            assert!(
                close(*fd, want, tol, rel),
                "mul_add partial {k}: {fd} vs {want}"
            );
        }
    }
}

#[test]
fn clamp_and_mul_add_match_their_partials_f64_and_f32() {
    check_ternary::<f64>();
    check_ternary::<f32>();
}

fn check_sin_cos<T: Real + core::fmt::Debug>() {
    let is_f32 = T::epsilon().to_f64() > 1e-10;
    for p in [-100.0, -2.0, 0.0, 0.7, 3.0, 1e4] {
        let x = T::from_f64(p);
        let (s, c) = rules::sin_cos(x);
        assert_eq!(
            (s.to_f64(), c.to_f64()),
            (x.sin().to_f64(), x.cos().to_f64())
        );
        let xf = x.to_f64();
        for (gs, gc) in [(1.0, 0.0), (0.0, 1.0), (0.8, -1.7)] {
            let a = rules::sin_cos_grad(T::from_f64(gs), T::from_f64(gc), x).to_f64();
            let want = gs * xf.cos() - gc * xf.sin();
            assert!(
                close(a, want, 4.0 * T::epsilon().to_f64(), closed_rel::<T>()),
                "sin_cos at {p}, seeds ({gs}, {gc}): {a} vs {want}"
            );
            // The step grows with |x|: over a period it is no derivative.
            if p.abs() > if is_f32 { 10.0 } else { 100.0 } {
                continue;
            }
            let fd = central_difference(
                |x: T| {
                    let (s, c) = rules::sin_cos(x);
                    T::from_f64(gs) * s + T::from_f64(gc) * c
                },
                x,
            );
            let h = autograd_runtime::central_difference_step(x).to_f64();
            let tol = fd_tolerance::<T>(gs.abs() + gc.abs(), h, a);
            assert!(
                close(a, fd, tol, fd_rel::<T>()),
                "sin_cos at {p}: {a} vs central difference {fd}"
            );
        }
    }
}

#[test]
fn sin_cos_pulls_back_both_outputs() {
    check_sin_cos::<f64>();
    check_sin_cos::<f32>();
}

// ---- element-wise on matrices, and the dispatched forms ----

/// The rule's points as a 2 × n matrix, the second row reversed.
fn points_matrix(points: &[f64]) -> M {
    let n = points.len();
    M::from_fn(2, n, |i, j| points[if i == 0 { j } else { n - 1 - j }])
}

#[test]
fn every_new_unary_rule_lifts_to_matrices_element_by_element() {
    let mut rng = Rng::new(0xE1E);
    let rules = lifted_rules();
    assert_eq!(rules.len(), 22);
    for rule in rules {
        let x = points_matrix(rule.points);
        let (r, c) = x.shape();
        let out = (rule.primal)(&x);
        let grad = rng.signed_matrix(r, c, 0.5, 2.0);
        let dx = (rule.pullback)(&grad, &x, &out);
        let mut acc = rng.signed_matrix(r, c, 0.5, 2.0);
        let acc_before = acc.clone();
        (rule.map_acc)(&mut acc, &grad, &x, &out);
        let mapped = (rule.map)(&grad, &x, &out);
        let owned = (rule.map_owned)(grad.clone(), &x, &out);
        for i in 0..x.len() {
            let scalar = (rule.scalar)(grad[i], x[i], out[i]);
            let name = rule.name;
            assert_eq!(
                out[i].to_bits(),
                unary_primal(name, x[i]).to_bits(),
                "{name} value {i}"
            );
            assert_eq!(dx[i], scalar, "{name}: lifted pullback, element {i}");
            assert_eq!(mapped[i], scalar, "{name}: map form, element {i}");
            assert_eq!(owned[i], scalar, "{name}: map _owned form, element {i}");
            assert_eq!(
                acc[i],
                acc_before[i] + scalar,
                "{name}: map _acc form, element {i}"
            );
            // The dispatched scalar forms.
            let (g, xi, oi) = (grad[i], x[i], out[i]);
            assert_eq!(
                (rule.dispatched)(&g, &xi, &oi),
                scalar,
                "{name}: dispatched"
            );
            assert_eq!(
                (rule.dispatched_owned)(g, &xi, &oi),
                scalar,
                "{name}: _owned"
            );
            let mut a = 0.5;
            (rule.dispatched_acc)(&mut a, &g, &xi, &oi);
            assert_eq!(a, 0.5 + scalar, "{name}: dispatched _acc");
        }
        // A vector's map form, and the broadcast form from one scalar seed.
        let column = |m: &M| DVector::from_column_slice(m.column(0).as_slice());
        let v = (rule.map_vector)(&column(&grad), &column(&x), &column(&out));
        assert_eq!(v, column(&dx), "{}: map form on a DVector", rule.name);
        if let Some(broadcast) = rule.map_broadcast {
            let b = broadcast(1.75, &x, &out);
            let want = M::from_fn(r, c, |i, j| (rule.scalar)(1.75, x[(i, j)], out[(i, j)]));
            assert_eq!(b, want, "{}: map _broadcast form", rule.name);
        } else {
            assert_eq!(
                rule.reads,
                Reads::Nothing,
                "{}: no broadcast form",
                rule.name
            );
        }
    }
}

/// The scalar primal by name, for the lifted primal's check.
fn unary_primal(name: &str, x: f64) -> f64 {
    let rule = unary_rules::<f64>()
        .into_iter()
        .find(|r| r.name == name)
        .expect("every lifted rule has a scalar row");
    (rule.primal)(x)
}

#[test]
fn lifted_pullbacks_satisfy_the_dot_product_identity_with_finite_differences() {
    let mut rng = Rng::new(0xD07);
    for rule in lifted_rules() {
        // Moderate points clear of the singular ones for a step of 1e-6·s.
        let points: Vec<f64> = rule
            .points
            .iter()
            .copied()
            .filter(|&p| {
                p.abs() <= 50.0 && clear_of(p, 1e-6 * p.abs().max(1.0), 1e-6, rule.singular)
            })
            .collect();
        assert!(points.len() >= 2, "{}: too few points", rule.name);
        let x = points_matrix(&points);
        let (r, c) = x.shape();
        let scale = x.map(|v| v.abs().max(1.0));
        let t = rng.signed_matrix(r, c, 0.1, 1.0).component_mul(&scale);
        let cot = rng.signed_matrix(r, c, 0.5, 2.0);
        let out = (rule.primal)(&x);
        let vjp = common::dot(&(rule.pullback)(&cot, &x, &out), &t);
        let fd = common::directional_fd(rule.primal, &x, &t, &cot);
        let size = common::dot(&out.abs(), &cot.abs()) / 1e-6;
        assert!(
            close(vjp, fd, 10.0 * f64::EPSILON * size, 1e-6),
            "{}: ⟨vjp(c), t⟩ = {vjp}, ⟨J·t, c⟩ = {fd}",
            rule.name
        );
    }
}

// ---- the dispatched forms of the binary, three-operand and two-output rules ----

#[test]
fn dispatched_binary_ternary_and_sin_cos_forms_call_the_scalar_rules() {
    let (y, x, gr) = (0.7_f64, -1.9_f64, 1.3_f64);
    let out = y.atan2(x);
    let cases: [(&str, f64, f64, f64, f64); 3] = [
        (
            "atan2",
            g::atan2_grad_lhs(&gr, &y, &x, &out),
            rules::atan2_grad_lhs(gr, y, x),
            g::atan2_grad_rhs(&gr, &y, &x, &out),
            rules::atan2_grad_rhs(gr, y, x),
        ),
        (
            "hypot",
            g::hypot_grad_lhs(&gr, &y, &x, &y.hypot(x)),
            rules::hypot_grad_lhs(gr, y, y.hypot(x)),
            g::hypot_grad_rhs(&gr, &y, &x, &y.hypot(x)),
            rules::hypot_grad_rhs(gr, x, y.hypot(x)),
        ),
        (
            "log",
            g::log_grad_lhs(&gr, &2.5, &3.0, &2.5f64.log(3.0)),
            rules::log_grad_lhs(gr, 2.5, 3.0),
            g::log_grad_rhs(&gr, &2.5, &3.0, &2.5f64.log(3.0)),
            rules::log_grad_rhs(gr, 3.0, 2.5f64.log(3.0)),
        ),
    ];
    for (name, lhs, want_lhs, rhs, want_rhs) in cases {
        assert_eq!((lhs, rhs), (want_lhs, want_rhs), "{name}");
    }
    let mut acc = 0.25;
    g::atan2_grad_rhs_acc(&mut acc, &gr, &y, &x, &out);
    assert_eq!(acc, 0.25 + rules::atan2_grad_rhs(gr, y, x));
    assert_eq!(
        g::hypot_grad_lhs_owned(gr, &y, &x, &y.hypot(x)),
        rules::hypot_grad_lhs(gr, y, y.hypot(x))
    );

    // clamp with the value from lo: only lo's adjoint is nonzero.
    let (v, lo, hi) = (-3.0_f32, -1.0_f32, 2.0_f32);
    let out = v.clamp(lo, hi);
    let g32 = 1.5_f32;
    assert_eq!(g::clamp_grad_x(&g32, &v, &lo, &hi, &out), 0.0);
    assert_eq!(g::clamp_grad_lo(&g32, &v, &lo, &hi, &out), 1.5);
    assert_eq!(g::clamp_grad_hi_owned(g32, &v, &lo, &hi, &out), 0.0);
    let mut acc = 1.0_f32;
    g::clamp_grad_lo_acc(&mut acc, &g32, &v, &lo, &hi, &out);
    assert_eq!(acc, 2.5);

    let (a, b, c) = (2.0_f64, -3.0_f64, 0.5_f64);
    let out = a.mul_add(b, c);
    assert_eq!(g::mul_add_grad_a(&gr, &a, &b, &c, &out), gr * b);
    assert_eq!(g::mul_add_grad_b(&gr, &a, &b, &c, &out), gr * a);
    assert_eq!(g::mul_add_grad_c_owned(gr, &a, &b, &c, &out), gr);

    let x = 0.9_f64;
    let out = x.sin_cos();
    let seeds = (0.4, -1.1);
    assert_eq!(
        g::sin_cos_grad(&seeds, &x, &out),
        rules::sin_cos_grad(0.4, -1.1, x)
    );
    let mut acc = 3.0;
    g::sin_cos_grad_acc(&mut acc, &seeds, &x, &out);
    assert_eq!(acc, 3.0 + rules::sin_cos_grad(0.4, -1.1, x));
}
