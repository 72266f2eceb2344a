//! A pullback gives what the reverse sweep seeded with its argument gives,
//! at every seed, ∞ and NaN included (issue 35 follow-up). A function with
//! `NAME_grad_acc` sweeps once at seed one and scales the gradient by a
//! finite seed; at ∞ or NaN that product is not the sweep's: an entry
//! whose seed-one adjoint is 0 because a partial is 0 (`∂(x₀x₁)/∂x₀` at
//! x₁ = 0) or because contributions cancel (2 − 2) is ∞·0 = NaN, or
//! ∞ − ∞ = NaN, in the sweep, and stayed 0. An input the output does not
//! read is 0 at every seed, in both.
//!
//! Expected values are the closed form of each adjoint evaluated as the
//! sweep evaluates it, in IEEE arithmetic: `seed · ∂f/∂x_j` where the
//! sweep multiplies, a sum where it adds.

#![allow(clippy::needless_range_loop)]
// `x[0] * 2.0 - x[0] * 2.0`: contributions that cancel are the construct under test.
#![allow(clippy::eq_op)]

use autograd::differentiable;

/// ∂/∂x₀ = x₁ (seed · x₁), ∂/∂x₁ = x₀, x₂ unread; y unread.
#[differentiable]
fn product(x: &[f64], y: f64) -> f64 {
    let _ = y;
    x[0] * x[1]
}

/// ∂/∂x₀ = 2 − 2 (two contributions, seed·2 and −seed·2), ∂/∂x₁ = 1.
#[differentiable]
fn cancelling(x: &[f64]) -> f64 {
    x[0] * 2.0 - x[0] * 2.0 + x[1]
}

/// Σ_{i<2} x_i²: a fused loop whose unit adjoints are `NAME_grad_acc`'s
/// buffer; ∂/∂x_i = seed·x_i + seed·x_i for i < 2, x₂ unread.
#[differentiable]
fn squares(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..2 {
        s += x[i] * x[i];
    }
    s
}

/// Bitwise equality, NaN equal to NaN.
fn same(got: &[f64], want: &[f64]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.to_bits() == w.to_bits() || g.is_nan() && w.is_nan())
}

#[test]
fn an_infinite_seed_gives_nan_where_the_sweep_multiplies_a_zero_partial() {
    let x = [3.0, 0.0, 5.0];
    for seed in [f64::INFINITY, f64::NEG_INFINITY, f64::NAN] {
        let (_, pullback) = product_vjp(&x, 2.0);
        let (dx, dy) = pullback(seed);
        let want = [seed * x[1], seed * x[0], 0.0];
        assert!(same(&dx, &want), "seed {seed}: {dx:?}, want {want:?}");
        assert_eq!(dy.to_bits(), 0.0f64.to_bits(), "seed {seed}: y is unread");
    }
}

#[test]
fn an_infinite_seed_gives_nan_where_contributions_cancel() {
    let x = [3.0, 4.0];
    for seed in [f64::INFINITY, f64::NAN] {
        let (_, pullback) = cancelling_vjp(&x);
        let (dx,) = pullback(seed);
        let want = [seed * 2.0 + -(seed * 2.0), seed];
        assert!(same(&dx, &want), "seed {seed}: {dx:?}, want {want:?}");
    }
}

#[test]
fn an_infinite_seed_through_a_fused_loop_into_grad_acc_buffers() {
    let x = [3.0, 0.0, 5.0];
    for seed in [f64::INFINITY, f64::NAN] {
        let (_, pullback) = squares_vjp(&x);
        let (dx,) = pullback(seed);
        let d = |i: usize| seed * x[i] + seed * x[i];
        let want = [d(0), d(1), 0.0];
        assert!(same(&dx, &want), "seed {seed}: {dx:?}, want {want:?}");
    }
}

#[test]
fn a_finite_seed_still_scales_the_gradient() {
    let x = [3.0, 0.0, 5.0];
    let (_, pullback) = squares_vjp(&x);
    let (dx,) = pullback(-0.5);
    assert_eq!(dx, vec![-3.0, 0.0, 0.0]);
    let (_, pullback) = product_vjp(&x, 2.0);
    let (dx, dy) = pullback(4.0);
    assert_eq!((dx, dy), (vec![0.0, 12.0, 0.0], 0.0));
    // And `NAME_grad_acc` is the seed-one sweep, added in.
    let mut dx = vec![1.0; 3];
    squares_grad_acc(&x, &mut dx);
    assert_eq!(dx, vec![7.0, 1.0, 1.0]);
}

/// √x computed, read only where c > 0. At c ≤ 0 the result is x, read on
/// no path through √x, so ∂/∂x = 1 and ∂/∂c = 0 at every x, x = 0
/// included, where √x's slope is ∞: the chain rule has no term 0·∞ there
/// (the dynamic graph gives 1). Finding 029.
#[differentiable]
fn root_read_in_one_branch(x: f64, c: f64) -> f64 {
    let t = x.sqrt();
    if c > 0.0 { t } else { x }
}

#[test]
fn a_value_the_result_does_not_read_on_this_run_adds_nothing() {
    let (value, dx, dc) = root_read_in_one_branch_grad(0.0, -1.0);
    assert_eq!(value, 0.0);
    assert_eq!(dx, 1.0);
    assert_eq!(dc, 0.0);
}

/// Read in the taken branch, √x gives its slope: 1/(2·0.5) = 1 at
/// x = 0.25, and +∞ at x = 0.
#[test]
fn a_value_read_on_this_run_gives_its_slope() {
    let (_, dx, _) = root_read_in_one_branch_grad(0.25, 1.0);
    assert_eq!(dx, 1.0);
    let (_, dx, _) = root_read_in_one_branch_grad(0.0, 1.0);
    assert_eq!(dx, f64::INFINITY);
}
