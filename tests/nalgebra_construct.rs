//! nalgebra values built in the body from differentiable floats:
//! `Vector3::new(..)`, `Matrix2::new(..)` (row by row), `RowVector2::new`,
//! `Matrix2x3::new`, `DVector::from_vec(vec![..])`,
//! `DVector::from_column_slice(&[..])`, `DMatrix::from_row_slice(2, 2,
//! &[..])` and `from_column_slice`, in `_grad`, `_jvp`, `_hessian` and a
//! vector result's `_jacobian`.
//!
//! Expected derivatives: closed forms (exact where the arithmetic is, else
//! 1e-12 relative) and central differences of the plain function (step
//! 1e-6, tolerance 1e-7 absolute).

mod fd_support;

use autograd::differentiable;
use nalgebra::{
    DMatrix, DVector, Matrix2, Matrix2x3, Matrix3, RowVector2, SMatrix, SVector, Vector2, Vector3,
};

/// A spring's potential energy between two points of the plane, the
/// displacement built from the coordinates.
#[differentiable]
fn spring_energy(x1: f64, y1: f64, x2: f64, y2: f64, #[constant] rest: f64) -> f64 {
    let d = Vector2::new(x2 - x1, y2 - y1);
    let stretch = d.norm() - rest;
    0.5 * stretch * stretch
}

/// A rotation's matrix from its angle, applied to a fixed vector.
#[differentiable(jvp, hessian)]
fn rotated_target(theta: f64, s: f64) -> f64 {
    let (sin, cos) = theta.sin_cos();
    let r = Matrix2::new(cos, -sin, sin, cos);
    let p = r * Vector2::new(s, 0.0);
    let target = Vector2::new(0.0, 1.0);
    (p - target).norm_squared()
}

/// The three forms of a vector built from floats, and a row and a 2 × 3
/// matrix (entries row by row).
#[differentiable]
fn built_forms(a: f64, b: f64) -> f64 {
    let u = Vector3::new(a, b, a * b);
    let v = DVector::from_vec(vec![a, 2.0 * b]);
    let w = DVector::from_column_slice(&[b, a]);
    let row = RowVector2::new(a, b);
    let m = Matrix2x3::new(a, 0.0, b, 1.0, a * a, 0.0);
    u.norm_squared() + v.dot(&w) + row[(0, 1)] + m[(0, 2)] * m[(1, 1)]
}

/// A 2 × 2 `DMatrix` built row by row and column by column.
#[differentiable]
fn dynamic_forms(a: f64, b: f64) -> f64 {
    let rows = DMatrix::from_row_slice(2, 2, &[a, b, 0.0, 1.0]);
    let cols = DMatrix::from_column_slice(2, 2, &[a, b, 0.0, 1.0]);
    rows[(0, 1)] * 3.0 + cols[(1, 0)] * cols[(0, 0)] + (rows * cols).trace()
}

/// A right-hand side returning a fixed-size vector built from its entries.
#[differentiable]
fn harmonic_rhs(s: &Vector3<f64>, k: f64) -> Vector3<f64> {
    Vector3::new(s[1], -k * s[0], -0.1 * s[2])
}

/// A projectile stepped until it lands, its state in `Vector2`s read by
/// component: the loop's condition and the landing point read `pos.y` and
/// `pos.x`.
#[differentiable]
fn landing_miss(v0: f64, angle: f64, #[constant] target: f64) -> f64 {
    let dt = 0.01;
    let g = Vector2::new(0.0, -9.81);
    let mut pos = Vector2::new(0.0, 0.0);
    let mut vel = Vector2::new(v0 * angle.cos(), v0 * angle.sin());
    let mut prev = pos;
    while pos.y >= 0.0 {
        prev = pos;
        vel += g * dt;
        pos += vel * dt;
    }
    let frac = prev.y / (prev.y - pos.y);
    let landing = prev.x + frac * (pos.x - prev.x);
    (landing - target).powi(2)
}

/// Every component name of a `Vector3` and of a `Matrix3`, in every mode.
#[differentiable(jvp, hessian)]
fn named_entries(a: f64, b: f64) -> f64 {
    let u = Vector3::new(a, b, a * b);
    let m = Matrix3::new(a, b, 0.0, 1.0, a * a, 0.0, 0.0, b, 2.0);
    u.x * u.z + u.y + m.m12 * m.m22 + m.m32 - m.m33
}

/// The generic spellings with the shape in the turbofish, under `hessian`.
#[differentiable(hessian)]
fn generic_spellings(a: f64, b: f64) -> f64 {
    let m = SMatrix::<f64, 2, 2>::new(a, b, a * b, 1.0);
    let v = SVector::<f64, 2>::new(b, 1.0);
    (m * v).norm_squared()
}

/// A triangle's area from its edge vectors as a matrix's columns.
#[differentiable(hessian)]
fn triangle_area(x1: f64, y1: f64, x2: f64, y2: f64, x3: f64, y3: f64) -> f64 {
    let e1 = Vector2::new(x2 - x1, y2 - y1);
    let e2 = Vector2::new(x3 - x1, y3 - y1);
    0.5 * Matrix2::from_columns(&[e1, e2]).determinant()
}

/// Columns computed by a closure, and rows.
#[differentiable]
fn from_vectors(a: f64, b: f64) -> f64 {
    let column = |t: f64| Vector3::new(t, t * t, 1.0);
    let m = Matrix3::from_columns(&[column(a), column(b), Vector3::new(0.0, 1.0, b)]);
    let r = Matrix2::from_rows(&[RowVector2::new(a, b), RowVector2::new(b * b, 1.0)]);
    m.determinant() + r[(1, 0)] * r[(0, 1)]
}

/// Central differences of the plain function, step 1e-6.
fn central(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    fd_support::central_slice(f, x, 1e-6)
}

#[test]
fn a_displacement_vector_has_the_closed_form_gradient() {
    let (x1, y1, x2, y2, rest) = (0.0, 0.5, 3.0, 4.5, 2.0);
    let (v, d1, e1, d2, e2) = spring_energy_grad(x1, y1, x2, y2, rest);
    assert_eq!(v, spring_energy(x1, y1, x2, y2, rest));
    // Length 5, stretch 3: ∂/∂p2 = stretch · d/|d| = 3 · (0.6, 0.8).
    let want = [-1.8, -2.4, 1.8, 2.4];
    for (got, want) in [d1, e1, d2, e2].iter().zip(want) {
        assert!((got - want).abs() < 1e-12, "{got} vs {want}");
    }
    let fd = central(
        |p| spring_energy(p[0], p[1], p[2], p[3], rest),
        &[x1, y1, x2, y2],
    );
    for (got, want) in [d1, e1, d2, e2].iter().zip(&fd) {
        assert!((got - want).abs() < 1e-7, "{got} vs {want}");
    }
}

#[test]
fn a_rotation_built_from_its_entries_in_every_mode() {
    let (theta, s) = (0.4, 1.5);
    // |R(θ)(s, 0) − (0, 1)|² = s² − 2 s sin θ + 1.
    let (v, dt, ds) = rotated_target_grad(theta, s);
    assert_eq!(v, rotated_target(theta, s));
    let (want_t, want_s) = (-2.0 * s * theta.cos(), 2.0 * s - 2.0 * theta.sin());
    assert!(
        (dt - want_t).abs() < 1e-12 && (ds - want_s).abs() < 1e-12,
        "{dt} {ds}"
    );
    let (v, tangent) = rotated_target_jvp(theta, s, 0.3, -0.7);
    assert_eq!(v, rotated_target(theta, s));
    assert!(
        (tangent - (0.3 * want_t - 0.7 * want_s)).abs() < 1e-12,
        "{tangent}"
    );
    let (v, g, h) = rotated_target_hessian(theta, s);
    assert_eq!(v, rotated_target(theta, s));
    assert!((g[0] - want_t).abs() < 1e-12 && (g[1] - want_s).abs() < 1e-12);
    // ∂²/∂θ² = 2 s sin θ, ∂²/∂θ∂s = −2 cos θ, ∂²/∂s² = 2.
    let want = [
        [2.0 * s * theta.sin(), -2.0 * theta.cos()],
        [-2.0 * theta.cos(), 2.0],
    ];
    for i in 0..2 {
        for j in 0..2 {
            assert!(
                (h[(i, j)] - want[i][j]).abs() < 1e-12,
                "h[{i},{j}] = {}",
                h[(i, j)]
            );
        }
    }
}

#[test]
fn every_constructor_form_has_the_closed_form_gradient() {
    let (a, b) = (0.7, -1.3);
    let (v, da, db) = built_forms_grad(a, b);
    assert_eq!(v, built_forms(a, b));
    // a² + b² + a²b² + (a b + 2 a b) + b + b a².
    let want_a = 2.0 * a + 2.0 * a * b * b + 3.0 * b + 2.0 * a * b;
    let want_b = 2.0 * b + 2.0 * a * a * b + 3.0 * a + 1.0 + a * a;
    assert!(
        (da - want_a).abs() < 1e-12 * want_a.abs().max(1.0),
        "{da} vs {want_a}"
    );
    assert!(
        (db - want_b).abs() < 1e-12 * want_b.abs().max(1.0),
        "{db} vs {want_b}"
    );
    let fd = central(|p| built_forms(p[0], p[1]), &[a, b]);
    assert!((da - fd[0]).abs() < 1e-7 && (db - fd[1]).abs() < 1e-7);
}

#[test]
fn a_fixed_size_result_built_from_entries_has_the_closed_form_jacobian() {
    let s = Vector3::new(0.3, -0.8, 2.0);
    let (out, jac) = harmonic_rhs_jacobian(&s, 4.0);
    assert_eq!(out, harmonic_rhs(&s, 4.0));
    // Columns: s0, s1, s2, k.
    let want = [
        [0.0, 1.0, 0.0, 0.0],
        [-4.0, 0.0, 0.0, -s[0]],
        [0.0, 0.0, -0.1, 0.0],
    ];
    for (i, row) in want.iter().enumerate() {
        for (j, w) in row.iter().enumerate() {
            assert_eq!(jac[(i, j)], *w, "jac[{i},{j}]");
        }
    }
}

#[test]
fn row_and_column_layouts_have_the_closed_form_gradient() {
    let (a, b) = (0.6, -0.4);
    let (v, da, db) = dynamic_forms_grad(a, b);
    assert_eq!(v, dynamic_forms(a, b));
    // rows = [[a, b], [0, 1]], cols = [[a, 0], [b, 1]]: 3b + a b + tr(rows·cols),
    // tr = a² + b² + 1.
    let (want_a, want_b) = (b + 2.0 * a, 3.0 + a + 2.0 * b);
    assert!((da - want_a).abs() < 1e-12, "{da} vs {want_a}");
    assert!((db - want_b).abs() < 1e-12, "{db} vs {want_b}");
    let fd = central(|p| dynamic_forms(p[0], p[1]), &[a, b]);
    assert!((da - fd[0]).abs() < 1e-7 && (db - fd[1]).abs() < 1e-7);
}

#[test]
fn vector_components_read_by_name_match_central_differences() {
    for (v0, angle) in [(20.0, 0.7), (35.0, 0.4)] {
        let (v, dv0, dangle) = landing_miss_grad(v0, angle, 30.0);
        assert_eq!(v, landing_miss(v0, angle, 30.0));
        let fd = central(|p| landing_miss(p[0], p[1], 30.0), &[v0, angle]);
        // The landing point interpolates between the last two steps, so
        // the function is smooth between step-count changes.
        assert!(
            (dv0 - fd[0]).abs() < 1e-6 * fd[0].abs().max(1.0),
            "{dv0} vs {}",
            fd[0]
        );
        assert!(
            (dangle - fd[1]).abs() < 1e-6 * fd[1].abs().max(1.0),
            "{dangle} vs {}",
            fd[1]
        );
    }
}

#[test]
fn named_entries_have_the_closed_form_derivatives() {
    let (a, b) = (0.8, -1.7);
    // a · a b + b + b · a² + b − 2 = a² b + a² b + 2 b − 2.
    let want = [4.0 * a * b, 2.0 * a * a + 2.0];
    let (v, da, db) = named_entries_grad(a, b);
    assert_eq!(v, named_entries(a, b));
    assert!(
        (da - want[0]).abs() < 1e-12 && (db - want[1]).abs() < 1e-12,
        "{da} {db}"
    );
    let (_, tangent) = named_entries_jvp(a, b, 1.0, 0.5);
    assert!(
        (tangent - (want[0] + 0.5 * want[1])).abs() < 1e-12,
        "{tangent}"
    );
    let (_, g, h) = named_entries_hessian(a, b);
    assert!((g[0] - want[0]).abs() < 1e-12 && (g[1] - want[1]).abs() < 1e-12);
    let want_h = [[4.0 * b, 4.0 * a], [4.0 * a, 0.0]];
    for i in 0..2 {
        for j in 0..2 {
            assert!(
                (h[(i, j)] - want_h[i][j]).abs() < 1e-12,
                "h[{i},{j}] = {}",
                h[(i, j)]
            );
        }
    }
}

#[test]
fn generic_spellings_have_the_closed_form_gradient() {
    let (a, b) = (0.6, -1.1);
    // m v = (a b + b, a b² + 1): f = (a b + b)² + (a b² + 1)².
    let (p, q) = (a * b + b, a * b * b + 1.0);
    let want = [
        2.0 * p * b + 2.0 * q * b * b,
        2.0 * p * (a + 1.0) + 4.0 * q * a * b,
    ];
    let (v, da, db) = generic_spellings_grad(a, b);
    assert_eq!(v, generic_spellings(a, b));
    assert!(
        (da - want[0]).abs() < 1e-12 && (db - want[1]).abs() < 1e-12,
        "{da} {db}"
    );
    let (_, g, h) = generic_spellings_hessian(a, b);
    assert!((g[0] - want[0]).abs() < 1e-12 && (g[1] - want[1]).abs() < 1e-12);
    // ∂²f/∂a² = 2 b² + 2 b⁴.
    let want_aa = 2.0 * b * b + 2.0 * b.powi(4);
    assert!((h[(0, 0)] - want_aa).abs() < 1e-12, "{h}");
}

#[test]
fn matrices_from_columns_and_rows_match_closed_forms_and_differences() {
    // Area 3 of (0, 0), (2, 0), (0, 3); ∂A/∂(x1, y1, ..) = ½ (y2 − y3, x3 − x2, y3 − y1, x1 − x3, y1 − y2, x2 − x1).
    let p = [0.0, 0.0, 2.0, 0.0, 0.0, 3.0];
    let (v, d1, e1, d2, e2, d3, e3) = triangle_area_grad(p[0], p[1], p[2], p[3], p[4], p[5]);
    assert_eq!(v, 3.0);
    assert_eq!([d1, e1, d2, e2, d3, e3], [-1.5, -1.0, 1.5, 0.0, 0.0, 1.0]);
    // The area is bilinear: ∂²A/∂x2∂y3 = ½, ∂²A/∂x2² = 0.
    let (_, _, h) = triangle_area_hessian(p[0], p[1], p[2], p[3], p[4], p[5]);
    assert_eq!((h[(2, 5)], h[(2, 2)]), (0.5, 0.0));
    for (a, b) in [(0.7, -0.4), (-1.2, 0.9)] {
        let (v, da, db) = from_vectors_grad(a, b);
        assert_eq!(v, from_vectors(a, b));
        let fd = central(|q| from_vectors(q[0], q[1]), &[a, b]);
        assert!(
            (da - fd[0]).abs() < 1e-7 && (db - fd[1]).abs() < 1e-7,
            "{da} {db} vs {fd:?}"
        );
    }
}
