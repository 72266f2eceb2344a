//! Functions generic over their scalar (`T: Float` or `T: RealField`): the
//! generated items are generic with the same bounds and agree at `f32` and
//! `f64` with closed forms and central differences of the primal.

// The bodies are written as generic numeric code is: indexed loops, and
// `s = s + ..` (`Float` has no `+=`).
#![allow(clippy::needless_range_loop, clippy::assign_op_pattern)]

use std::fmt::Debug;

use autograd::differentiable;
use autograd::num_traits::{self, Float};

/// Central difference of `f` at `x` in double precision, step 1e-6.
fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6;
    (f(x + h) - f(x - h)) / (2.0 * h)
}

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

// A loop over a slice, a branch, constants through `T`'s functions.
#[differentiable]
fn weighted<T: num_traits::Float>(x: T, w: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..w.len() {
        s = s + w[i] * (x * T::from(i + 1).unwrap()).sin();
    }
    let half = T::from(0.5).unwrap();
    if s > T::zero() {
        s.powi(2) * half + x.exp()
    } else {
        -s + T::one() / (T::one() + x * x) - T::epsilon()
    }
}

/// ∂/∂x and ∂/∂w_i of `weighted`, by hand.
fn weighted_closed(x: f64, w: &[f64]) -> (f64, Vec<f64>) {
    let s: f64 = w
        .iter()
        .enumerate()
        .map(|(i, wi)| wi * (x * (i + 1) as f64).sin())
        .sum();
    let ds_dx: f64 = w
        .iter()
        .enumerate()
        .map(|(i, wi)| wi * (i + 1) as f64 * (x * (i + 1) as f64).cos())
        .sum();
    let ds_dw: Vec<f64> = (0..w.len()).map(|i| (x * (i + 1) as f64).sin()).collect();
    if s > 0.0 {
        let dx = s * ds_dx + x.exp();
        (dx, ds_dw.iter().map(|d| s * d).collect())
    } else {
        let dx = -ds_dx - 2.0 * x / (1.0 + x * x).powi(2);
        (dx, ds_dw.iter().map(|d| -d).collect())
    }
}

#[test]
fn loops_branches_and_slices_at_f64_against_closed_forms() {
    // Both branches: s > 0 at the first point, s < 0 at the second.
    for (x, w) in [(0.3, vec![1.0, 0.5, -0.2]), (0.7, vec![-1.0, 0.25, -0.5])] {
        let (value, dx, dw) = weighted_grad(x, &w);
        assert_eq!(value, weighted(x, &w));
        let (want_dx, want_dw) = weighted_closed(x, &w);
        assert!(close(dx, want_dx, 1e-12), "{dx} vs {want_dx}");
        for (got, want) in dw.iter().zip(&want_dw) {
            assert!(close(*got, *want, 1e-12), "{got} vs {want}");
        }
        assert!(weighted_check(x, &w).is_within(1e-6, 1e-6));
    }
}

#[test]
fn the_same_function_at_f32_agrees_with_f64_to_f32_precision() {
    let (x, w) = (0.3_f32, [1.0_f32, 0.5, -0.2]);
    let (value, dx, dw) = weighted_grad(x, &w);
    assert_eq!(value, weighted(x, &w));
    let w64: Vec<f64> = w.iter().map(|&v| v as f64).collect();
    let (want_dx, want_dw) = weighted_closed(x as f64, &w64);
    // f32 rounding of a handful of operations: 1e-5 relative.
    assert!(close(dx as f64, want_dx, 1e-5), "{dx} vs {want_dx}");
    for (got, want) in dw.iter().zip(&want_dw) {
        assert!(close(*got as f64, *want, 1e-5));
    }
    let f32_w = vec![1.0_f32, 0.5, -0.2];
    assert!(weighted_check(x, &f32_w).is_within(1e-2, 1e-2));
}

#[test]
fn vjp_scales_by_the_seed_and_grad_acc_adds_into_buffers() {
    let (x, w) = (0.3, [1.0, 0.5, -0.2]);
    let (_, dx, dw) = weighted_grad(x, &w);
    let (value, pullback) = weighted_vjp(x, &w);
    assert_eq!(value, weighted(x, &w));
    let (sx, sw) = pullback(-2.0);
    assert_eq!(sx, -2.0 * dx);
    assert_eq!(sw, dw.iter().map(|d| -2.0 * d).collect::<Vec<_>>());

    let mut bx = 1.0;
    let mut bw = vec![1.0; 3];
    let value = weighted_grad_acc(x, &w, &mut bx, &mut bw);
    assert_eq!(value, weighted(x, &w));
    assert_eq!(bx, 1.0 + dx);
    assert_eq!(bw, dw.iter().map(|d| 1.0 + d).collect::<Vec<_>>());

    let mut bx32 = 0.0_f32;
    let mut bw32 = [0.0_f32; 3];
    weighted_grad_acc(0.3_f32, &[1.0, 0.5, -0.2], &mut bx32, &mut bw32);
    assert!(close(bx32 as f64, dx, 1e-5));
}

// Bounds in a `where` clause, with extra bounds.
#[differentiable]
fn logistic<T>(x: T, k: T) -> T
where
    T: Float + Debug + Copy,
{
    T::one() / (T::one() + (-k * x).exp())
}

// Calls between generic functions, with and without a turbofish.
#[differentiable]
fn twice_logistic<T: Float + Debug>(x: T) -> T {
    let k = T::from(3.0).unwrap();
    logistic(x, k) * logistic::<T>(x * x, k)
}

// A function of `f64` calling a generic one.
#[differentiable]
fn concrete_caller(x: f64, y: f64) -> f64 {
    twice_logistic(x) * y + logistic(y, x)
}

#[test]
fn calls_between_generic_functions_and_from_f64() {
    let s = |x: f64, k: f64| 1.0 / (1.0 + (-k * x).exp());
    for x in [-0.4, 0.2, 1.1] {
        let (value, dx) = twice_logistic_grad(x);
        assert_eq!(value, twice_logistic(x));
        let want = central(|x| s(x, 3.0) * s(x * x, 3.0), x);
        // Central differences with step 1e-6: 1e-8 relative.
        assert!(close(dx, want, 1e-8), "{dx} vs {want}");
        let (v32, d32) = twice_logistic_grad(x as f32);
        assert!(close(v32 as f64, value, 1e-6));
        assert!(close(d32 as f64, dx, 1e-5), "{d32} vs {dx}");

        let y = 0.8;
        let (value, dx, dy) = concrete_caller_grad(x, y);
        assert_eq!(value, concrete_caller(x, y));
        let f = |x: f64, y: f64| s(x, 3.0) * s(x * x, 3.0) * y + s(y, x);
        assert!(close(dx, central(|x| f(x, y), x), 1e-8));
        assert!(close(dy, central(|y| f(x, y), y), 1e-8));
    }
}

/// The generated items are generic over every `Float`, not only `f32` and
/// `f64`: callable from a caller that knows nothing more of `T`.
fn slope_of_weighted<T: Float>(x: T, w: &[T]) -> T {
    weighted_grad(x, w).1
}

fn pullback_of_weighted<T: Float>(x: T, w: &[T], seed: T) -> Vec<T> {
    weighted_vjp(x, w).1(seed).1
}

#[test]
fn generated_items_instantiate_in_a_generic_caller() {
    let w = [1.0, 0.5, -0.2];
    assert_eq!(slope_of_weighted(0.3, &w), weighted_grad(0.3, &w).1);
    let w32 = [1.0_f32, 0.5, -0.2];
    assert_eq!(
        slope_of_weighted(0.3_f32, &w32),
        weighted_grad(0.3_f32, &w32).1
    );
    assert_eq!(pullback_of_weighted(0.3, &w, 1.0), weighted_grad(0.3, &w).2);
}

// `nalgebra::RealField`: the function keeps its bounds; the generated items
// also ask for `Float`, which `f32` and `f64` are.
#[differentiable]
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
    let f = |x: f64, y: &[f64]| {
        let acc = 2.0 * x.sin() + y.iter().map(|v| v * v / 3.0 * x.exp()).sum::<f64>();
        if acc > 0.0 { acc.sqrt() } else { -acc }
    };
    let (x, y) = (0.4, [0.5, -1.5]);
    let (value, dx, dy) = field_grad(x, &y);
    assert_eq!(value, field(x, &y));
    assert!(close(dx, central(|x| f(x, &y), x), 1e-8));
    for i in 0..2 {
        let fi = |v: f64| {
            let mut y = y;
            y[i] = v;
            f(x, &y)
        };
        assert!(close(dy[i], central(fi, y[i]), 1e-8));
    }
    assert!(field_check(x, &y).is_within(1e-6, 1e-6));
    let (v32, dx32, _) = field_grad(0.4_f32, &[0.5_f32, -1.5]);
    assert!(close(v32 as f64, value, 1e-6));
    assert!(close(dx32 as f64, dx, 1e-5));
}

// Lifetime parameters, with a generic scalar and without.
#[allow(clippy::needless_lifetimes)]
#[differentiable]
fn first_plus<'a>(x: &'a [f64], y: &'a [f64]) -> f64 {
    x[0] * y[1]
}

#[allow(clippy::needless_lifetimes)]
#[differentiable]
fn generic_first<'a, T: Float>(x: &'a [T], s: T) -> T {
    x[0] * s + x[1]
}

#[test]
fn lifetime_parameters() {
    let (value, dx, dy) = first_plus_grad(&[2.0, 3.0], &[4.0, 5.0]);
    assert_eq!((value, dx, dy), (10.0, vec![5.0, 0.0], vec![0.0, 2.0]));
    let (value, dx, ds) = generic_first_grad(&[2.0_f32, 3.0], 4.0);
    assert_eq!((value, dx, ds), (11.0, vec![4.0, 1.0], 2.0));
}
