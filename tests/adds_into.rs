//! Calls a caller's reverse sweep makes, of helpers with an array result:
//! the helper adds its adjoints straight into the caller's (its hidden
//! `__add_into`) where every argument is a distinct differentiable float,
//! slice, array or sub-slice, else its pullback returns them. Jacobians
//! against closed forms, in arguments whose adjoints already hold
//! contributions when the helper adds into them. And a slice argument
//! passed whole to a call whose pullback the forward sweep keeps, and read
//! nowhere else, whose adjoint is the one the pullback returns.
#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

/// (Σ aᵢ², a₀ Σ aᵢ²): a loop the sweeps fuse.
#[differentiable]
fn sums(a: &[f64]) -> [f64; 2] {
    let mut s = 0.0;
    for i in 0..a.len() {
        s += a[i] * a[i];
    }
    [s, a[0] * s]
}

/// With y = (2x₀, x₁, x₂), s = Σ yᵢ²: (s + y₀y₁, y₀ s). `sums(&y)` borrows
/// a local, so the reverse sweep makes it, after `y₀y₁` has added into
/// y's adjoint.
#[differentiable]
fn through_a_local(x: &[f64]) -> [f64; 2] {
    let y = [x[0] * 2.0, x[1], x[2]];
    let r = sums(&y);
    [r[0] + y[0] * y[1], r[1]]
}

/// (a₀ a₁ t, a₁ + t).
#[differentiable]
fn scaled(a: &[f64], t: f64) -> [f64; 2] {
    [a[0] * a[1] * t, a[1] + t]
}

/// A sub-slice of an argument the body also reads, and a local float:
/// (x₁ x₂ u + x₁, x₂ + u + x₀ u), u = x₀².
#[differentiable]
fn through_a_sub_slice(x: &[f64]) -> [f64; 2] {
    let u = x[0] * x[0];
    let r = scaled(&x[1..3], u);
    [r[0] + x[1], r[1] + x[0] * u]
}

/// (a₀ b₁, a₁ + b₀).
#[differentiable]
fn mixed(a: &[f64], b: &[f64]) -> [f64; 2] {
    [a[0] * b[1], a[1] + b[0]]
}

/// The same local twice (`mixed(&y, &y)`): through the pullback. With
/// y = (x₀, x₀x₁): (x₀²x₁ + x₀x₁, x₀x₁ + x₀).
#[differentiable]
fn the_same_local_twice(x: &[f64]) -> [f64; 2] {
    let y = [x[0], x[0] * x[1]];
    let r = mixed(&y, &y);
    [r[0] + y[1], r[1]]
}

/// (a₀ c, a₁) with c constant.
#[differentiable]
fn with_a_constant(a: &[f64], #[constant] c: f64) -> [f64; 2] {
    [a[0] * c, a[1]]
}

/// A helper with a `#[constant]` argument: through the pullback.
#[differentiable]
fn through_a_constant(x: &[f64]) -> [f64; 2] {
    let y = [x[0] * x[1], x[1]];
    let r = with_a_constant(&y, 3.0);
    [r[0] + y[0], r[1] * x[0]]
}

/// (w Σ xᵢ², x₀ Σ xᵢ² − w): `x`'s adjoint is the one `sums`' pullback
/// returns.
#[differentiable]
fn passed_on(x: &[f64], w: f64) -> [f64; 2] {
    let r = sums(x);
    [w * r[0], r[1] - w]
}

fn assert_close(got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len());
    for (g, w) in got.iter().zip(want) {
        assert!(
            (g - w).abs() <= 1e-12 * w.abs().max(1.0),
            "{got:?} against {want:?}"
        );
    }
}

/// Row-major rows of a column-major Jacobian.
fn rows(j: &autograd::nalgebra::DMatrix<f64>) -> Vec<f64> {
    j.transpose().as_slice().to_vec()
}

#[test]
fn a_helper_adds_into_a_locals_adjoint_that_holds_a_contribution() {
    let x = [0.5, -1.5, 2.0];
    let (value, j) = through_a_local_jacobian(&x);
    let s = 4.0 * 0.25 + 2.25 + 4.0;
    assert_close(&value, &[s + 2.0 * 0.5 * -1.5, 2.0 * 0.5 * s]);
    assert_close(
        &rows(&j),
        &[
            8.0 * 0.5 + 2.0 * -1.5,
            2.0 * -1.5 + 2.0 * 0.5,
            2.0 * 2.0,
            2.0 * s + 16.0 * 0.25,
            4.0 * 0.5 * -1.5,
            4.0 * 0.5 * 2.0,
        ],
    );
}

#[test]
fn a_helper_adds_into_a_sub_slice_and_a_float() {
    let (x0, x1, x2) = (0.75, -1.25, 2.5);
    let u = x0 * x0;
    let (value, j) = through_a_sub_slice_jacobian(&[x0, x1, x2]);
    assert_close(&value, &[x1 * x2 * u + x1, x2 + u + x0 * u]);
    assert_close(
        &rows(&j),
        &[
            x1 * x2 * 2.0 * x0,
            x2 * u + 1.0,
            x1 * u,
            2.0 * x0 + 3.0 * x0 * x0,
            0.0,
            1.0,
        ],
    );
}

#[test]
fn the_same_local_twice_goes_through_the_pullback() {
    let (x0, x1) = (1.5, -0.5);
    let (value, j) = the_same_local_twice_jacobian(&[x0, x1]);
    assert_close(&value, &[x0 * x0 * x1 + x0 * x1, x0 * x1 + x0]);
    assert_close(&rows(&j), &[2.0 * x0 * x1 + x1, x0 * x0 + x0, x1 + 1.0, x0]);
}

#[test]
fn a_helper_with_a_constant_goes_through_the_pullback() {
    let (x0, x1) = (1.5, -0.5);
    // (3x₀x₁ + x₀x₁, x₁x₀).
    let (value, j) = through_a_constant_jacobian(&[x0, x1]);
    assert_close(&value, &[4.0 * x0 * x1, x1 * x0]);
    assert_close(&rows(&j), &[4.0 * x1, 4.0 * x0, x1, x0]);
}

#[test]
fn a_vjp_adds_into_the_same_adjoints_as_the_jacobian() {
    let x = [0.5, -1.5, 2.0];
    let (_, j) = through_a_local_jacobian(&x);
    let (_, pullback) = through_a_local_vjp(&x);
    let (dx,) = pullback([0.25, -2.0]);
    let want: Vec<f64> = (0..3).map(|c| 0.25 * j[(0, c)] - 2.0 * j[(1, c)]).collect();
    assert_close(&dx, &want);
}

#[test]
fn a_slice_passed_on_whole_takes_the_callees_adjoint() {
    let (x, w) = ([0.5, -1.5, 2.0], 3.0);
    let s = 0.25 + 2.25 + 4.0;
    let (value, j) = passed_on_jacobian(&x, w);
    assert_close(&value, &[w * s, 0.5 * s - w]);
    assert_close(
        &rows(&j),
        &[
            w * 1.0,
            w * -3.0,
            w * 4.0,
            s,
            s + 2.0 * 0.25,
            2.0 * 0.5 * -1.5,
            2.0 * 0.5 * 2.0,
            -1.0,
        ],
    );
    let (_, pullback) = passed_on_vjp(&x, w);
    let (dx, dw) = pullback([1.0, 0.0]);
    assert_close(&dx, &[w * 1.0, w * -3.0, w * 4.0]);
    assert_close(&[dw], &[s]);
}
