//! Fixed-size nalgebra results: a column vector (`Vector3<f64>`,
//! `SVector<f64, N>`) gets `NAME_vjp` with a seed of its type and
//! `NAME_jacobian`; a matrix (`Matrix2<f64>`, `SMatrix<f64, R, C>`) gets
//! `NAME_vjp` with a seed of its type.
//!
//! References: central differences of the primal (`fd_support`-style,
//! step 1e-6, tolerance 1e-7 relative to the entry's size), never the
//! program's own output; the vjp against seedᵀ·J of those differences.

use autograd::differentiable;
use nalgebra::{DMatrix, Matrix2, Matrix3, SMatrix, SVector, Vector2, Vector3};

const STEP: f64 = 1e-6;
const TOL: f64 = 1e-7;

fn assert_near(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() <= TOL * (1.0 + want.abs()),
        "{what}: {got} vs {want}"
    );
}

/// The cross-product matrix of the z axis: `K·v = z × v`.
fn z_generator() -> Matrix3<f64> {
    Matrix3::new(0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0)
}

/// Rotation about z by `theta` (Rodrigues: `v + sin θ·K v + (1 − cos θ)·K² v`;
/// the macro does not lower `Matrix3::new(..)`), scaled by `v`'s first
/// entry so that the Jacobian in `v` is not the rotation itself.
#[differentiable]
fn rotate(theta: f64, v: &Vector3<f64>, #[constant] k: &Matrix3<f64>) -> Vector3<f64> {
    let kv = k * v;
    let kkv = k * kv;
    (v + kv * theta.sin() + kkv * (1.0 - theta.cos())) * v[0]
}

fn rotate_ref(theta: f64, v: &Vector3<f64>) -> Vector3<f64> {
    let (c, s) = (theta.cos(), theta.sin());
    Matrix3::new(c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0) * v * v[0]
}

/// Columns: θ, then v's three entries.
fn rotate_fd(theta: f64, v: &Vector3<f64>) -> DMatrix<f64> {
    let mut j = DMatrix::zeros(3, 4);
    for c in 0..4 {
        let (mut tp, mut tm, mut vp, mut vm) = (theta, theta, *v, *v);
        if c == 0 {
            tp += STEP;
            tm -= STEP;
        } else {
            vp[c - 1] += STEP;
            vm[c - 1] -= STEP;
        }
        let d = (rotate_ref(tp, &vp) - rotate_ref(tm, &vm)) / (2.0 * STEP);
        j.column_mut(c).copy_from(&d);
    }
    j
}

#[test]
fn rotate_jacobian_matches_differences() {
    for (theta, v) in [
        (0.3, Vector3::new(1.0, -2.0, 0.5)),
        (-2.1, Vector3::new(-0.7, 0.4, 3.0)),
    ] {
        let (value, j): (Vector3<f64>, DMatrix<f64>) = rotate_jacobian(theta, &v, &z_generator());
        assert_eq!(value, rotate(theta, &v, &z_generator()));
        assert_eq!(j.shape(), (3, 4));
        let fd = rotate_fd(theta, &v);
        for (got, want) in j.iter().zip(fd.iter()) {
            assert_near(*got, *want, "rotate jacobian");
        }
    }
}

#[test]
fn rotate_vjp_is_seed_times_jacobian() {
    let (theta, v) = (0.8, Vector3::new(0.25, 1.5, -1.0));
    let seed = Vector3::new(2.0, -0.5, 1.25);
    let k = z_generator();
    let (value, pullback) = rotate_vjp(theta, &v, &k);
    assert_eq!(value, rotate(theta, &v, &z_generator()));
    let (d_theta, d_v): (f64, Vector3<f64>) = pullback(seed);
    let fd = rotate_fd(theta, &v);
    let want = fd.transpose() * DMatrix::from_column_slice(3, 1, seed.as_slice());
    assert_near(d_theta, want[0], "dθ");
    for i in 0..3 {
        assert_near(d_v[i], want[i + 1], "dv");
    }
}

/// An `SVector` alias by its generic name, the seed of the same type.
#[differentiable]
fn scaled(x: SVector<f64, 2>, k: f64) -> SVector<f64, 2> {
    x * (k * k)
}

#[test]
fn svector_jacobian_closed_form() {
    let x = Vector2::new(3.0, -1.0);
    let (value, j) = scaled_jacobian(x, 0.5);
    assert_eq!(value, x * 0.25);
    // d(x·k²)/dx = k²·I, d/dk = 2k·x.
    let want = DMatrix::from_row_slice(2, 3, &[0.25, 0.0, 3.0, 0.0, 0.25, -1.0]);
    assert_eq!(j, want);
}

/// A 2×2 matrix result: the outer product scaled by a scalar.
#[differentiable]
fn outer(a: &Vector2<f64>, b: Vector2<f64>, s: f64) -> Matrix2<f64> {
    a * b.transpose() * s.sin()
}

fn outer_ref(a: &Vector2<f64>, b: &Vector2<f64>, s: f64) -> Matrix2<f64> {
    a * b.transpose() * s.sin()
}

#[test]
fn matrix_vjp_matches_differences_of_the_seeded_result() {
    let (a, b, s) = (Vector2::new(0.5, -1.5), Vector2::new(2.0, 0.75), 0.4);
    let seed = Matrix2::new(1.0, -2.0, 0.5, 3.0);
    let (value, pullback) = outer_vjp(&a, b, s);
    assert_eq!(value, outer(&a, b, s));
    let (da, db, ds): (Vector2<f64>, Vector2<f64>, f64) = pullback(seed);
    let seeded = |a: &Vector2<f64>, b: &Vector2<f64>, s: f64| seed.dot(&outer_ref(a, b, s));
    let e = |i| Vector2::from_fn(|k, _| if k == i { STEP } else { 0.0 });
    for i in 0..2 {
        let fa = (seeded(&(a + e(i)), &b, s) - seeded(&(a - e(i)), &b, s)) / (2.0 * STEP);
        let fb = (seeded(&a, &(b + e(i)), s) - seeded(&a, &(b - e(i)), s)) / (2.0 * STEP);
        assert_near(da[i], fa, "da");
        assert_near(db[i], fb, "db");
    }
    let fs = (seeded(&a, &b, s + STEP) - seeded(&a, &b, s - STEP)) / (2.0 * STEP);
    assert_near(ds, fs, "ds");
}

/// A non-square `SMatrix` result.
#[differentiable]
fn widen(x: &Vector2<f64>, y: &SVector<f64, 3>) -> SMatrix<f64, 2, 3> {
    x * y.transpose()
}

#[test]
fn smatrix_vjp_closed_form() {
    let (x, y) = (Vector2::new(1.0, -2.0), Vector3::new(0.5, 1.0, 4.0));
    let seed = SMatrix::<f64, 2, 3>::new(1.0, 0.0, 2.0, -1.0, 3.0, 0.5);
    let (value, pullback) = widen_vjp(&x, &y);
    assert_eq!(value, x * y.transpose());
    let (dx, dy) = pullback(seed);
    // ⟨S, x yᵀ⟩: d/dx = S y, d/dy = Sᵀ x.
    assert_eq!(dx, seed * y);
    assert_eq!(dy, seed.transpose() * x);
}

/// A fixed-size vector result keeps `jvp`, as a matrix result has it.
#[differentiable(jvp)]
fn squash(x: &Vector2<f64>, s: f64) -> Vector2<f64> {
    x * (x[0] * s.tanh())
}

fn squash_ref(x: &Vector2<f64>, s: f64) -> Vector2<f64> {
    x * (x[0] * s.tanh())
}

#[test]
fn vector_result_jvp_matches_differences() {
    let (x, s) = (Vector2::new(0.7, -1.3), 0.45);
    let (dx, ds) = (Vector2::new(0.5, 2.0), -0.75);
    let (value, tangent): (Vector2<f64>, Vector2<f64>) = squash_jvp(&x, s, &dx, ds);
    assert_eq!(value, squash(&x, s));
    let fd = (squash_ref(&(x + dx * STEP), s + ds * STEP)
        - squash_ref(&(x - dx * STEP), s - ds * STEP))
        / (2.0 * STEP);
    for i in 0..2 {
        assert_near(tangent[i], fd[i], "tangent");
    }
}
