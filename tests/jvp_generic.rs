//! `#[differentiable(jvp)]` on functions generic over their scalar
//! (`T: Float`, bounds in a `where` clause, `T: RealField`): `NAME_jvp` is
//! generic with the same bounds, and at `f64` and `f32`
//!
//! - its value is bit for bit the primal's;
//! - its tangent agrees with central differences of the primal along the
//!   same direction (`fd_support`: `FD64_ABS` / `FD64_REL` at `f64`,
//!   `FD32_ABS` / `FD32_REL` at `f32`, evaluated at dyadic points);
//! - the dot-product identity ⟨u, J·v⟩ = ⟨Jᵀ·u, v⟩ holds against
//!   `NAME_vjp`: the same derivative summed in two orders, to `1e-12`
//!   relative at `f64`, `1e-5` at `f32`.
//!
//! Through loops (`for`, `while`), slices, branches, calls to other generic
//! `jvp` functions (and from a function of `f64`), `autograd::prelude`'s
//! `relu`/`sigmoid`, tuples from calls, and next to `hessian`.

#![allow(clippy::needless_range_loop, clippy::assign_op_pattern)]

mod fd_support;

use std::fmt::Debug;

use autograd::differentiable;
use autograd::num_traits::Float;
use autograd::prelude::{relu, sigmoid};
use fd_support::{FD32_ABS, FD32_REL, FD64_ABS, FD64_REL, fd32, fd64};

const DOT64: f64 = 1e-12;
const DOT32: f64 = 1e-5;

fn close(got: f64, want: f64, abs: f64, rel: f64) -> bool {
    (got - want).abs() <= abs.max(rel * want.abs())
}

fn dot<T: Float>(a: &[T], b: &[T]) -> T {
    a.iter().zip(b).fold(T::zero(), |s, (x, y)| s + *x * *y)
}

/// `x + t·d`, element by element.
fn along<T: Float>(x: &[T], d: &[T], t: T) -> Vec<T> {
    x.iter().zip(d).map(|(x, d)| *x + t * *d).collect()
}

// ---------------------------------------------------------------------------
// A loop over a slice with a branch inside and after it; constants through
// `T`'s functions.

#[differentiable(jvp)]
fn weighted<T: Float>(x: T, w: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..w.len() {
        let term = w[i] * (x * T::from(i + 1).unwrap()).sin();
        if term > T::zero() {
            s = s + term * term;
        } else {
            s = s - term;
        }
    }
    let half = T::from(0.5).unwrap();
    if s > half {
        s.sqrt() + x.exp()
    } else {
        s * half + T::one() / (T::one() + x * x)
    }
}

/// Checks `weighted_jvp` at one point and direction, at `f64`.
fn check_weighted64(x: f64, w: &[f64], dx: f64, dw: &[f64], u: f64) {
    let (value, tangent) = weighted_jvp(x, w, dx, dw);
    assert_eq!(value.to_bits(), weighted(x, w).to_bits());
    let want = fd64(|t| weighted(x + t * dx, &along(w, dw, t)), 0.0);
    assert!(
        close(tangent, want, FD64_ABS, FD64_REL),
        "{tangent} vs {want}"
    );
    let (_, pullback) = weighted_vjp(x, w);
    let (gx, gw) = pullback(u);
    let rhs = gx * dx + dot(&gw, dw);
    assert!(close(u * tangent, rhs, DOT64, DOT64), "{tangent} vs {rhs}");
}

#[test]
fn loop_over_a_slice_with_branches_at_f64() {
    // Terms of both signs at each point; s ≈ 2.8 > 1/2 at the first point
    // (the square root), s ≈ 0.012 at the second.
    check_weighted64(0.3, &[1.0, -0.5, 2.0], 0.7, &[0.2, -1.0, 0.4], 1.3);
    check_weighted64(0.05, &[0.5, -0.1, 0.2], -0.4, &[1.0, 0.3, -0.6], -0.8);
}

#[test]
fn loop_over_a_slice_with_branches_at_f32() {
    for (x, w, dx, dw) in [
        (
            0.375_f32,
            [1.0_f32, -0.5, 2.0],
            0.75_f32,
            [0.25_f32, -1.0, 0.5],
        ),
        (0.0625, [0.5, -0.125, 0.25], -0.5, [1.0, 0.25, -0.625]),
    ] {
        let (value, tangent) = weighted_jvp(x, &w, dx, &dw);
        assert_eq!(value.to_bits(), weighted(x, &w).to_bits());
        let want = fd32(|t| weighted(x + t * dx, &along(&w, &dw, t)), 0.0);
        assert!(
            close(f64::from(tangent), want, FD32_ABS, FD32_REL),
            "{tangent} vs {want}"
        );
        // The same derivative at f64: f32 rounding of a few operations.
        let w64 = w.map(f64::from);
        let dw64 = dw.map(f64::from);
        let (_, t64) = weighted_jvp(f64::from(x), &w64, f64::from(dx), &dw64);
        assert!(close(f64::from(tangent), t64, 1e-5, 1e-5));
        let (_, pullback) = weighted_vjp(x, &w);
        let (gx, gw) = pullback(1.0);
        let rhs = gx * dx + dot(&gw, &dw);
        assert!(close(f64::from(tangent), f64::from(rhs), DOT32, DOT32));
    }
}

/// A generic caller of the generated item, knowing nothing more of `T`.
fn slope<T: Float>(x: T, w: &[T], dw: &[T]) -> T {
    weighted_jvp(x, w, T::one(), dw).1
}

#[test]
fn the_generated_item_instantiates_in_a_generic_caller() {
    let (w, dw) = ([1.0, -0.5, 2.0], [0.0; 3]);
    let want = fd64(|x| weighted(x, &w), 0.3);
    assert!(close(slope(0.3, &w, &dw), want, FD64_ABS, FD64_REL));
    let (w32, dw32) = ([1.0_f32, -0.5, 2.0], [0.0_f32; 3]);
    let want = fd32(|x| weighted(x, &w32), 0.375);
    assert!(close(
        f64::from(slope(0.375_f32, &w32, &dw32)),
        want,
        FD32_ABS,
        FD32_REL
    ));
}

// ---------------------------------------------------------------------------
// Bounds in a `where` clause; a `while` loop; calls between generic
// functions (with and without a turbofish) and from a function of `f64`.

#[differentiable(jvp)]
fn logistic<T>(x: T, k: T) -> T
where
    T: Float + Debug,
{
    T::one() / (T::one() + (-k * x).exp())
}

#[differentiable(jvp)]
fn halvings<T: Float + Debug>(x: T, k: T) -> T {
    // Halves `y` until it is at most `k`: the trip count depends on the
    // values, the derivative flows through every trip.
    let two = T::from(2.0).unwrap();
    let mut y = x * x + T::one();
    let mut n = 0;
    while y > k && n < 50 {
        y = y / two + (x * k).sin() * T::from(0.01).unwrap();
        n += 1;
    }
    y * logistic::<T>(x, k)
}

#[differentiable(jvp)]
fn composed<T: Float + Debug>(x: T, k: T, w: &[T]) -> T {
    halvings(x, k) * weighted(x, w) + logistic(weighted(k, w), x)
}

#[differentiable(jvp)]
fn concrete_caller(x: f64, w: &[f64], #[constant] k: f64) -> f64 {
    composed(x, k, w) - logistic(k, x) * halvings::<f64>(k, x)
}

#[test]
fn where_bounds_while_loops_and_calls_at_f64() {
    let w = [0.9, -0.3, 1.4];
    let mut cases = 0;
    for (x, k) in [(1.7_f64, 0.8_f64), (2.9, 1.3), (0.2, 1.5)] {
        let (dx, dk, dw, u) = (0.6, -0.9, [0.3, 0.5, -0.2], 0.7);
        let (value, tangent) = composed_jvp(x, k, &w, dx, dk, &dw);
        assert_eq!(value.to_bits(), composed(x, k, &w).to_bits());
        let want = fd64(
            |t| composed(x + t * dx, k + t * dk, &along(&w, &dw, t)),
            0.0,
        );
        assert!(
            close(tangent, want, FD64_ABS, FD64_REL),
            "{tangent} vs {want}"
        );
        let (_, pullback) = composed_vjp(x, k, &w);
        let (gx, gk, gw) = pullback(u);
        let rhs = gx * dx + gk * dk + dot(&gw, &dw);
        assert!(close(u * tangent, rhs, DOT64, DOT64), "{tangent} vs {rhs}");

        // `k` is a constant of the f64 caller: no tangent for it.
        let (value, tangent) = concrete_caller_jvp(x, &w, k, dx, &dw);
        assert_eq!(value.to_bits(), concrete_caller(x, &w, k).to_bits());
        let want = fd64(|t| concrete_caller(x + t * dx, &along(&w, &dw, t), k), 0.0);
        assert!(
            close(tangent, want, FD64_ABS, FD64_REL),
            "{tangent} vs {want}"
        );
        let (_, pullback) = concrete_caller_vjp(x, &w, k);
        let (gx, gw) = pullback(u);
        assert!(close(u * tangent, gx * dx + dot(&gw, &dw), DOT64, DOT64));
        cases += 1;
    }
    assert_eq!(cases, 3);
}

#[test]
fn where_bounds_while_loops_and_calls_at_f32() {
    let w = [0.875_f32, -0.25, 1.375];
    for (x, k) in [(1.75_f32, 0.75_f32), (0.25, 1.5)] {
        let (dx, dk, dw) = (0.625_f32, -0.875_f32, [0.25_f32, 0.5, -0.25]);
        let (value, tangent) = composed_jvp(x, k, &w, dx, dk, &dw);
        assert_eq!(value.to_bits(), composed(x, k, &w).to_bits());
        let want = fd32(
            |t| composed(x + t * dx, k + t * dk, &along(&w, &dw, t)),
            0.0,
        );
        assert!(
            close(f64::from(tangent), want, FD32_ABS, FD32_REL),
            "{tangent} vs {want}"
        );
        let (_, pullback) = composed_vjp(x, k, &w);
        let (gx, gk, gw) = pullback(1.0);
        let rhs = gx * dx + gk * dk + dot(&gw, &dw);
        assert!(close(f64::from(tangent), f64::from(rhs), DOT32, DOT32));
    }
}

// ---------------------------------------------------------------------------
// `autograd::prelude`'s generic `relu` and `sigmoid`, and a tuple from a
// call (`let (a, b) = helper(..)`).

#[differentiable(jvp)]
fn activations<T: Float>(x: T, y: T) -> T {
    relu(x) * sigmoid(y) + sigmoid(x * y) - relu(-y)
}

// A generic function returns its scalar, so the tuples come from helpers of
// `f64` and of `f32`.
#[differentiable(jvp)]
fn polar(r: f64, theta: f64) -> (f64, f64) {
    (r * theta.cos(), r * theta.sin())
}

#[differentiable(jvp)]
fn through_tuple(r: f64, theta: f64) -> f64 {
    let (a, b) = polar(r, theta);
    a * a.exp() + b * relu(b) + sigmoid(a * b)
}

#[differentiable(jvp)]
fn polar32(r: f32, theta: f32) -> (f32, f32) {
    (r * theta.cos(), r * theta.sin())
}

#[differentiable(jvp)]
fn through_tuple32(r: f32, #[constant] scale: f32, theta: f32) -> f32 {
    let (a, b) = polar32(r, theta);
    let (c, _) = polar32(scale, theta);
    a / (1.0 + b * b) + relu(a * b) * c
}

#[test]
fn prelude_activations_and_tuples_at_f64() {
    // relu on both sides of its kink (x > 0 and x < 0, y of both signs).
    for (x, y) in [(0.7_f64, -0.4_f64), (-0.6, 1.1), (1.3, 0.9)] {
        let (dx, dy, u) = (0.8, -0.3, 1.7);
        let (value, tangent) = activations_jvp(x, y, dx, dy);
        assert_eq!(value.to_bits(), activations(x, y).to_bits());
        let want = fd64(|t| activations(x + t * dx, y + t * dy), 0.0);
        assert!(
            close(tangent, want, FD64_ABS, FD64_REL),
            "{tangent} vs {want}"
        );
        let (_, pullback) = activations_vjp(x, y);
        let (gx, gy) = pullback(u);
        assert!(close(u * tangent, gx * dx + gy * dy, DOT64, DOT64));

        // b = r·sin θ of both signs: relu(b) on both sides.
        let (r, theta) = (x.abs() + 0.5, y);
        let (value, tangent) = through_tuple_jvp(r, theta, dx, dy);
        assert_eq!(value.to_bits(), through_tuple(r, theta).to_bits());
        let want = fd64(|t| through_tuple(r + t * dx, theta + t * dy), 0.0);
        assert!(
            close(tangent, want, FD64_ABS, FD64_REL),
            "{tangent} vs {want}"
        );
        let (_, pullback) = through_tuple_vjp(r, theta);
        let (gr, gt) = pullback(u);
        assert!(close(u * tangent, gr * dx + gt * dy, DOT64, DOT64));
    }
    let ((a, b), (ta, tb)) = polar_jvp(1.5, 0.4, 0.3, -0.7);
    assert_eq!((a, b), polar(1.5, 0.4));
    let want_a = fd64(|t| polar(1.5 + t * 0.3, 0.4 - t * 0.7).0, 0.0);
    let want_b = fd64(|t| polar(1.5 + t * 0.3, 0.4 - t * 0.7).1, 0.0);
    assert!(close(ta, want_a, FD64_ABS, FD64_REL));
    assert!(close(tb, want_b, FD64_ABS, FD64_REL));
}

#[test]
fn prelude_activations_and_tuples_at_f32() {
    for (x, y) in [(0.75_f32, -0.375_f32), (-0.625, 1.125)] {
        let (dx, dy) = (0.75_f32, -0.25_f32);
        let (value, tangent) = activations_jvp(x, y, dx, dy);
        assert_eq!(value.to_bits(), activations(x, y).to_bits());
        let want = fd32(|t| activations(x + t * dx, y + t * dy), 0.0);
        assert!(close(f64::from(tangent), want, FD32_ABS, FD32_REL));

        let (r, theta) = (x.abs() + 0.5, y);
        let (value, tangent) = through_tuple32_jvp(r, 1.25, theta, dx, dy);
        assert_eq!(value.to_bits(), through_tuple32(r, 1.25, theta).to_bits());
        let want = fd32(|t| through_tuple32(r + t * dx, 1.25, theta + t * dy), 0.0);
        assert!(
            close(f64::from(tangent), want, FD32_ABS, FD32_REL),
            "{tangent} vs {want}"
        );
        let (_, pullback) = through_tuple32_vjp(r, 1.25, theta);
        let (gr, gt) = pullback(1.0);
        assert!(close(
            f64::from(tangent),
            f64::from(gr * dx + gt * dy),
            DOT32,
            DOT32
        ));
    }
}

// ---------------------------------------------------------------------------
// `nalgebra::RealField`: the generated items keep the bound and add
// `Float`.

#[differentiable(jvp)]
fn field<T: nalgebra::RealField + Copy>(x: T, y: &[T]) -> T {
    let two: T = nalgebra::convert(2.0);
    let third = T::from_f64(1.0 / 3.0).unwrap();
    let mut acc = x.sin() * two;
    for i in 0..y.len() {
        acc = acc + y[i].powi(2) * third * x.exp();
    }
    if acc > T::zero() { acc.sqrt() } else { -acc }
}

#[test]
fn real_field_functions_at_f64_and_f32() {
    for (x, y) in [(0.4_f64, [0.5_f64, -1.5]), (-0.9, [0.1, 0.2])] {
        let (dx, dy, u) = (0.5, [-0.25, 0.75], -1.1);
        let (value, tangent) = field_jvp(x, &y, dx, &dy);
        assert_eq!(value.to_bits(), field(x, &y).to_bits());
        let want = fd64(|t| field(x + t * dx, &along(&y, &dy, t)), 0.0);
        assert!(
            close(tangent, want, FD64_ABS, FD64_REL),
            "{tangent} vs {want}"
        );
        let (_, pullback) = field_vjp(x, &y);
        let (gx, gy) = pullback(u);
        assert!(close(u * tangent, gx * dx + dot(&gy, &dy), DOT64, DOT64));
    }
    let (x, y, dx, dy) = (0.375_f32, [0.5_f32, -1.5], 0.5_f32, [-0.25_f32, 0.75]);
    let (value, tangent) = field_jvp(x, &y, dx, &dy);
    assert_eq!(value.to_bits(), field(x, &y).to_bits());
    let want = fd32(|t| field(x + t * dx, &along(&y, &dy, t)), 0.0);
    assert!(close(f64::from(tangent), want, FD32_ABS, FD32_REL));
}

// ---------------------------------------------------------------------------
// `jvp` next to `hessian` on a generic function.

#[differentiable(jvp, hessian)]
fn rosenbrock<T: Float>(x: &[T]) -> T {
    let hundred = T::from(100.0).unwrap();
    let mut s = T::zero();
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = T::one() - x[i];
        s = s + hundred * a * a + b * b;
    }
    s
}

#[test]
fn jvp_and_hessian_together() {
    let x = [0.3_f64, -0.8, 1.2, 0.45];
    let v = [0.5, -0.25, 0.125, 1.0];
    // The gradient in closed form: the tangent is its dot with v.
    let n = x.len();
    let mut g = vec![0.0; n];
    for i in 0..n - 1 {
        let a = x[i + 1] - x[i] * x[i];
        g[i] += -400.0 * x[i] * a - 2.0 * (1.0 - x[i]);
        g[i + 1] += 200.0 * a;
    }
    let (value, tangent) = rosenbrock_jvp(&x, &v);
    assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
    assert!(close(tangent, dot(&g, &v), 1e-12, 1e-12));
    let want = fd64(|t| rosenbrock(&along(&x, &v, t)), 0.0);
    assert!(close(tangent, want, FD64_ABS, FD64_REL));
    // H·v from `_hvp`, against central differences of the closed-form
    // gradient along v (five points, as `fd64`).
    let grad_at = |t: f64| {
        let y = along(&x, &v, t);
        let mut g = vec![0.0; n];
        for i in 0..n - 1 {
            let a = y[i + 1] - y[i] * y[i];
            g[i] += -400.0 * y[i] * a - 2.0 * (1.0 - y[i]);
            g[i + 1] += 200.0 * a;
        }
        g
    };
    let (value, grad, hv) = rosenbrock_hvp(&x, &v);
    assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
    for i in 0..n {
        assert!(close(grad[i], g[i], 1e-12, 1e-12));
        let want = fd64(|t| grad_at(t)[i], 0.0);
        assert!(
            close(hv[i], want, FD64_ABS, FD64_REL),
            "{} vs {want}",
            hv[i]
        );
    }
    let x32 = x.map(|v| v as f32);
    let v32 = v.map(|v| v as f32);
    let (value, tangent) = rosenbrock_jvp(&x32, &v32);
    assert_eq!(value.to_bits(), rosenbrock(&x32).to_bits());
    assert!(close(f64::from(tangent), dot(&g, &v), 1e-3, 1e-4));
}
