//! nalgebra vectors as people use them: `a.dot(&b)`, `v.norm()`,
//! `v.norm_squared()`, `v.len()` / `m.nrows()` / `m.ncols()` as loop
//! bounds, reads `v[i]` and `m[(i, j)]`, `m.column(j)` / `m.row(i)` as
//! values, products of references `&a * &b`, in straight-line code, loops
//! and branches; a least-squares loss and a Gauss–Newton residual sum.
//!
//! References: closed forms (dot: the other vector; norm: x/|x|;
//! norm_squared: 2x; least squares: 2Aᵀr, 2r·xᵀ, −2r) and five-point
//! central differences of the primal (`matrix_support`), never the
//! program's own output.

mod matrix_support;

use autograd::differentiable;
use matrix_support::{
    FD_ABS, FD_REL, assert_close, assert_close_vec, fd_matrix, fd_vector, lcg_matrix, lcg_vector,
};
use nalgebra::{DMatrix, DVector, Matrix2x3, Matrix3, SMatrix, SVector, Vector2, Vector3};

const CLOSED_ABS: f64 = 1e-13;
const CLOSED_REL: f64 = 1e-12;

/// Points of three elements: signs mixed, one tiny element, one large.
fn points() -> Vec<DVector<f64>> {
    [
        [3.0, 4.0, 0.0],
        [-1.5, 0.25, 2.0],
        [1e-3, -7.0, 0.5],
        [40.0, -0.3, 12.5],
    ]
    .iter()
    .map(|p| DVector::from_row_slice(p))
    .collect()
}

// ---------------------------------------------------------------------------
// dot, norm, norm_squared against closed forms and differences.

#[differentiable]
fn dot_refs(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    a.dot(b)
}

#[differentiable]
fn dot_owned(a: DVector<f64>, b: DVector<f64>) -> f64 {
    a.dot(&b)
}

#[differentiable]
fn norm_of(x: &DVector<f64>) -> f64 {
    x.norm()
}

#[differentiable]
fn norm_squared_of(x: DVector<f64>) -> f64 {
    x.norm_squared()
}

#[test]
fn dot_gives_each_operand_the_other() {
    let b = DVector::from_vec(vec![0.5, -2.0, 1.25]);
    for a in points() {
        let (v, da, db) = dot_refs_grad(&a, &b);
        assert_eq!(v, a.dot(&b), "the value is the primal's");
        assert_close_vec(&da, &b, CLOSED_ABS, CLOSED_REL, "d(a·b)/da = b");
        assert_close_vec(&db, &a, CLOSED_ABS, CLOSED_REL, "d(a·b)/db = a");
        let fd_a = fd_vector(|t| t.dot(&b), &a);
        assert_close_vec(&da, &fd_a, FD_ABS, FD_REL, "d(a·b)/da, differences");
        let (v2, da2, db2) = dot_owned_grad(a.clone(), b.clone());
        assert_eq!((v2, &da2, &db2), (v, &da, &db), "by value as by reference");
    }
}

#[test]
fn norm_gives_the_unit_vector() {
    for x in points() {
        let (n, dx) = norm_of_grad(&x);
        assert_eq!(n, x.norm());
        assert_close_vec(&dx, &(&x / x.norm()), CLOSED_ABS, CLOSED_REL, "x/|x|");
        let fd_x = fd_vector(|t| t.norm(), &x);
        assert_close_vec(&dx, &fd_x, FD_ABS, FD_REL, "d|x|/dx, differences");
        let check = norm_of_check(&x);
        assert!(check.is_within(FD_ABS, FD_REL), "{check}");
    }
}

#[test]
fn norm_squared_gives_twice_the_vector() {
    for x in points() {
        let (n, dx) = norm_squared_of_grad(x.clone());
        assert_eq!(n, x.norm_squared());
        assert_close_vec(&dx, &(&x * 2.0), CLOSED_ABS, CLOSED_REL, "2x");
        let fd_x = fd_vector(|t| t.norm_squared(), &x);
        assert_close_vec(&dx, &fd_x, FD_ABS, FD_REL, "d|x|²/dx, differences");
    }
}

/// The convention at the one point where `norm` has no derivative: the
/// gradient is 0, like `x.hypot(y)` at (0, 0) (the least-norm
/// subgradient), never NaN.
#[test]
fn the_norm_of_the_zero_vector_has_gradient_zero() {
    for n in [1, 3] {
        let zero = DVector::zeros(n);
        let (v, dx) = norm_of_grad(&zero);
        assert_eq!(v, 0.0);
        assert_eq!(dx, DVector::zeros(n));
    }
    // Consistent with hypot, its two-element case.
    let (_, dx, dy) = hypot_of_grad(0.0, 0.0);
    assert_eq!((dx, dy), (0.0, 0.0));
}

#[differentiable]
fn hypot_of(x: f64, y: f64) -> f64 {
    x.hypot(y)
}

/// `norm` of a matrix is the Frobenius norm: gradient M/|M|.
#[test]
fn the_norm_of_a_matrix_is_frobenius() {
    let m = lcg_matrix(2, 3, 7, -1.0, 1.0);
    let (n, dm) = matrix_norm_grad(&m);
    assert_eq!(n, m.norm());
    assert_close(&dm, &(&m / m.norm()), CLOSED_ABS, CLOSED_REL, "M/|M|");
}

#[differentiable]
fn matrix_norm(m: &DMatrix<f64>) -> f64 {
    m.norm()
}

// ---------------------------------------------------------------------------
// Indexing, lengths and shapes in loops and branches.

/// Σ v_i³ over `0..v.len()`, by index.
#[differentiable]
fn cubes(v: &DVector<f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i] * v[i] * v[i];
    }
    s
}

#[test]
fn vector_reads_in_a_loop() {
    for x in points() {
        let (s, dx) = cubes_grad(&x);
        assert_eq!(s, x.iter().map(|v| v * v * v).sum::<f64>());
        let closed = x.map(|v| 3.0 * v * v);
        assert_close_vec(&dx, &closed, CLOSED_ABS, CLOSED_REL, "3v²");
    }
}

/// Σ_ij w_ij · m_ij² over `nrows × ncols`, with a branch on the element.
#[differentiable]
fn weighted_squares(m: &DMatrix<f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..m.nrows() {
        for j in 0..m.ncols() {
            let e = m[(i, j)];
            if e > 0.0 {
                s += (i + 1) as f64 * e * e;
            } else {
                s -= e;
            }
        }
    }
    s
}

#[test]
fn matrix_reads_in_nested_loops_with_a_branch() {
    let m = lcg_matrix(3, 4, 11, -1.0, 1.0);
    let (s, dm) = weighted_squares_grad(&m);
    let closed = DMatrix::from_fn(3, 4, |i, j| {
        let e = m[(i, j)];
        if e > 0.0 {
            2.0 * (i + 1) as f64 * e
        } else {
            -1.0
        }
    });
    assert_close(&dm, &closed, CLOSED_ABS, CLOSED_REL, "dM");
    let fd_m = fd_matrix(
        |t| {
            let mut s = 0.0;
            for i in 0..3 {
                for j in 0..4 {
                    let e = t[(i, j)];
                    s += if e > 0.0 { (i + 1) as f64 * e * e } else { -e };
                }
            }
            s
        },
        &m,
    );
    assert_eq!(s, weighted_squares(&m));
    assert_close(&dm, &fd_m, FD_ABS, FD_REL, "dM, differences");
}

/// Straight-line reads, of an argument and of a local, with constant
/// indices.
#[differentiable]
fn corners(m: DMatrix<f64>, v: &DVector<f64>) -> f64 {
    let w = &m * v;
    m[(0, 0)] * v[2] + w[1] - m[(1, 2)].sin()
}

#[test]
fn straight_line_reads_of_arguments_and_locals() {
    let m = lcg_matrix(2, 3, 5, -1.0, 1.0);
    let v = DVector::from_vec(vec![0.5, -1.5, 2.0]);
    let (s, dm, dv) = corners_grad(m.clone(), &v);
    assert_eq!(s, corners(m.clone(), &v));
    let mut closed_m = DMatrix::zeros(2, 3);
    closed_m[(0, 0)] = v[2];
    for j in 0..3 {
        closed_m[(1, j)] += v[j];
    }
    closed_m[(1, 2)] -= m[(1, 2)].cos();
    assert_close(&dm, &closed_m, CLOSED_ABS, CLOSED_REL, "dM");
    let mut closed_v = m.row(1).transpose();
    closed_v[2] += m[(0, 0)];
    assert_close_vec(&dv, &closed_v, CLOSED_ABS, CLOSED_REL, "dv");
}

// ---------------------------------------------------------------------------
// Columns and rows as values; products of references.

/// Σ_j (m_j · x)², each column read as `m.column(j)`.
#[differentiable]
fn column_projections(m: &DMatrix<f64>, x: &DVector<f64>) -> f64 {
    let mut s = 0.0;
    for j in 0..m.ncols() {
        let p = m.column(j).dot(x);
        s += p * p;
    }
    s
}

#[test]
fn columns_in_a_loop() {
    let m = lcg_matrix(3, 2, 21, -1.0, 1.0);
    let x = lcg_vector(3, 22, -1.0, 1.0);
    let (s, dm, dx) = column_projections_grad(&m, &x);
    // s = |mᵀx|²: ds/dm = 2·x·(mᵀx)ᵀ, ds/dx = 2·m·(mᵀx).
    let p = m.transpose() * &x;
    assert_eq!(s, column_projections(&m, &x));
    assert_close(
        &dm,
        &(&x * p.transpose() * 2.0),
        CLOSED_ABS,
        CLOSED_REL,
        "dM",
    );
    assert_close_vec(&dx, &(&m * &p * 2.0), CLOSED_ABS, CLOSED_REL, "dx");
}

/// A column bound with `into_owned()`, a row summed, in a branch.
#[differentiable]
fn column_and_row(m: &DMatrix<f64>, j: usize) -> f64 {
    let c = m.column(j).into_owned();
    let r = m.row(0).into_owned();
    if c.norm() > 1.0 {
        c.norm() + r.sum()
    } else {
        c.norm_squared() - r.sum()
    }
}

#[test]
fn columns_and_rows_bound_and_in_branches() {
    for seed in [31, 32, 33, 34] {
        let m = lcg_matrix(3, 3, seed, -1.0, 1.0);
        for j in 0..3 {
            let (v, dm) = column_and_row_grad(&m, j);
            assert_eq!(v, column_and_row(&m, j));
            let fd_m = fd_matrix(|t| column_and_row(t, j), &m);
            assert_close(&dm, &fd_m, FD_ABS, FD_REL, "dM");
        }
    }
}

#[differentiable]
fn product_of_references(a: &DMatrix<f64>, b: &DMatrix<f64>, x: &DVector<f64>) -> f64 {
    let c = &(a * b) * 2.0;
    let y = &c * x;
    (&y - x).norm_squared()
}

#[test]
fn products_of_references() {
    let a = lcg_matrix(3, 3, 41, -1.0, 1.0);
    let b = lcg_matrix(3, 3, 42, -1.0, 1.0);
    let x = lcg_vector(3, 43, -1.0, 1.0);
    let (v, da, db, dx) = product_of_references_grad(&a, &b, &x);
    assert_eq!(v, product_of_references(&a, &b, &x));
    let f =
        |a: &DMatrix<f64>, b: &DMatrix<f64>, x: &DVector<f64>| (a * b * 2.0 * x - x).norm_squared();
    assert_close(&da, &fd_matrix(|t| f(t, &b, &x), &a), FD_ABS, FD_REL, "dA");
    assert_close(&db, &fd_matrix(|t| f(&a, t, &x), &b), FD_ABS, FD_REL, "dB");
    assert_close_vec(&dx, &fd_vector(|t| f(&a, &b, t), &x), FD_ABS, FD_REL, "dx");
}

// ---------------------------------------------------------------------------
// Least squares and a Gauss–Newton residual sum.

#[differentiable]
fn loss(a: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (a * x - b).norm_squared()
}

#[test]
fn least_squares_against_its_closed_form() {
    let a = lcg_matrix(4, 3, 51, -1.0, 1.0);
    let x = lcg_vector(3, 52, -1.0, 1.0);
    let b = lcg_vector(4, 53, -1.0, 1.0);
    let (l, da, dx, db) = loss_grad(&a, &x, &b);
    let r = &a * &x - &b;
    assert_eq!(l, r.norm_squared());
    assert_close(
        &da,
        &(&r * x.transpose() * 2.0),
        CLOSED_ABS,
        CLOSED_REL,
        "2r·xᵀ",
    );
    assert_close_vec(
        &dx,
        &(a.transpose() * &r * 2.0),
        CLOSED_ABS,
        CLOSED_REL,
        "2Aᵀr",
    );
    assert_close_vec(&db, &(&r * -2.0), CLOSED_ABS, CLOSED_REL, "−2r");
    let check = loss_check(&a, &x, &b);
    assert!(check.is_within(FD_ABS, FD_REL), "{check}");
}

/// ½ Σ_i (Σ_k J_ik p_k − y_i)², element by element.
#[differentiable]
fn gauss_newton(jac: &DMatrix<f64>, p: &DVector<f64>, y: &DVector<f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..jac.nrows() {
        let mut r = -y[i];
        for k in 0..jac.ncols() {
            r += jac[(i, k)] * p[k];
        }
        s += r * r;
    }
    0.5 * s
}

#[test]
fn gauss_newton_residual_sum_by_elements() {
    let jac = lcg_matrix(5, 3, 61, -1.0, 1.0);
    let p = lcg_vector(3, 62, -1.0, 1.0);
    let y = lcg_vector(5, 63, -1.0, 1.0);
    let (s, dj, dp, dy) = gauss_newton_grad(&jac, &p, &y);
    let r = &jac * &p - &y;
    assert!((s - 0.5 * r.norm_squared()).abs() < 1e-14);
    assert_close(&dj, &(&r * p.transpose()), CLOSED_ABS, CLOSED_REL, "r·pᵀ");
    assert_close_vec(&dp, &(jac.transpose() * &r), CLOSED_ABS, CLOSED_REL, "Jᵀr");
    assert_close_vec(&dy, &-&r, CLOSED_ABS, CLOSED_REL, "−r");
}

/// A vector argument's adjoint has its length, also where no element is
/// read.
#[differentiable]
fn first_only(v: &DVector<f64>, n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += v[i];
    }
    s
}

#[test]
fn unread_elements_get_zero() {
    let v = DVector::from_vec(vec![1.0, 2.0, 3.0, 4.0]);
    let (_, dv) = first_only_grad(&v, 2);
    assert_eq!(dv, DVector::from_vec(vec![1.0, 1.0, 0.0, 0.0]));
    let (_, dv) = first_only_grad(&v, 0);
    assert_eq!(dv, DVector::zeros(4));
}

// ---------------------------------------------------------------------------
// The two-operand float functions element-wise through `map`, with a
// constant other operand on either side.

#[differentiable]
fn binary_maps(m: &DMatrix<f64>, #[constant] c: f64) -> f64 {
    let a = m.map(|v| v.atan2(c) + c.atan2(v) + v.hypot(c) + v.powf(c) + c.powf(v));
    let b = m.map(|v| v.powi(3) + v.log(c) + c.log(v) + v.max(c) + v.min(c));
    let d = m.map(|v| v.clamp(-c, c) + v.mul_add(c, 1.0) + c.mul_add(v, v));
    a.sum() + b.sum() + d.sum()
}

#[test]
fn two_operand_functions_are_element_wise_through_map() {
    // Positive elements (for `log` and `powf`), away from the kinks at ±c
    // and from 1, where `c.log(v)` has a pole.
    let m = DMatrix::from_row_slice(2, 3, &[0.3, 0.6, 1.7, 2.6, 0.45, 3.3]);
    for c in [1.25, 2.0] {
        let (v, dm) = binary_maps_grad(&m, c);
        assert_eq!(v, binary_maps(&m, c));
        let fd_m = fd_matrix(|t| binary_maps(t, c), &m);
        assert_close(&dm, &fd_m, FD_ABS, FD_REL, "d/dM of every function");
    }
}

// ---------------------------------------------------------------------------
// `sin_cos` bound to one name, read as `sc.0` and `sc.1`.

#[differentiable]
fn sin_cos_pair(x: f64, y: f64) -> f64 {
    let sc = x.sin_cos();
    let p = f64::sin_cos(y);
    sc.0 * sc.1 + p.1 - sc.0
}

#[test]
fn sin_cos_bound_to_one_name() {
    for (x, y) in [(0.3, -1.2), (2.5, 0.7), (-3.0, 4.0)] {
        let (v, dx, dy) = sin_cos_pair_grad(x, y);
        assert_eq!(v, sin_cos_pair(x, y));
        // d/dx (sin x cos x − sin x) = cos 2x − cos x; d/dy cos y = −sin y.
        let (ex, ey) = ((2.0 * x).cos() - x.cos(), -y.sin());
        assert!((dx - ex).abs() < 1e-14, "{dx} vs {ex}");
        assert!((dy - ey).abs() < 1e-15, "{dy} vs {ey}");
    }
}

// ---------------------------------------------------------------------------
// Fixed-size types: `SVector<f64, N>`, `SMatrix<f64, R, C>` and their
// aliases, by value and by reference, adjoints of the same type.

/// The gradient of a function of a fixed-size value by differences.
fn fd_fixed<const R: usize, const C: usize>(
    f: impl Fn(&SMatrix<f64, R, C>) -> f64,
    x: &SMatrix<f64, R, C>,
) -> DMatrix<f64> {
    let dynamic = DMatrix::from_column_slice(R, C, x.as_slice());
    fd_matrix(|t| f(&SMatrix::from_column_slice(t.as_slice())), &dynamic)
}

fn dynamic<const R: usize, const C: usize>(m: &SMatrix<f64, R, C>) -> DMatrix<f64> {
    DMatrix::from_column_slice(R, C, m.as_slice())
}

#[differentiable]
fn fixed_dot(a: Vector3<f64>, b: &Vector3<f64>) -> f64 {
    a.dot(b)
}

#[differentiable]
fn fixed_norms(x: &SVector<f64, 2>) -> f64 {
    x.norm() + x.norm_squared()
}

#[test]
fn fixed_size_closed_forms() {
    let a = Vector3::new(0.5, -2.0, 1.25);
    let b = Vector3::new(3.0, 0.25, -1.0);
    let (v, da, db): (f64, Vector3<f64>, Vector3<f64>) = fixed_dot_grad(a, &b);
    assert_eq!((v, da, db), (a.dot(&b), b, a), "d(a·b) = (b, a)");
    for x in [Vector2::new(3.0, 4.0), Vector2::new(-0.5, 2.0)] {
        let (_, dx): (f64, Vector2<f64>) = fixed_norms_grad(&x);
        let closed = x / x.norm() + 2.0 * x;
        assert!((dx - closed).norm() < 1e-14, "x/|x| + 2x at {x}");
    }
    // The zero vector: norm's part is 0, norm_squared's 2·0.
    let (_, dz) = fixed_norms_grad(&Vector2::zeros());
    assert_eq!(dz, Vector2::zeros());
}

/// Products, sums, `transpose`, `component_mul`, `map`, `sum`, scalar
/// times vector, `dot`, `norm`, `norm_squared` and indexing together.
#[differentiable]
fn fixed_energy(k: &Matrix3<f64>, x: Vector3<f64>, w: &SVector<f64, 3>) -> f64 {
    let y = k * x;
    let z = (y + w).component_mul(&x);
    let t = k.transpose() * w;
    let u = 2.0 * x - w;
    let mut s = z.sum() + 0.5 * x.dot(&t) + u.norm() + x.map(|v| v.sin()).sum();
    for i in 0..x.len() {
        if x[i] > 0.0 {
            s += k[(i, i)] * x[i];
        }
    }
    s - (x * 0.5).norm_squared()
}

fn fixed_energy_ref(k: &Matrix3<f64>, x: &Vector3<f64>, w: &Vector3<f64>) -> f64 {
    let z = (k * x + w).component_mul(x);
    let mut s = z.sum() + 0.5 * x.dot(&(k.transpose() * w)) + (2.0 * x - w).norm();
    s += x.iter().map(|v| v.sin()).sum::<f64>();
    for i in 0..3 {
        if x[i] > 0.0 {
            s += k[(i, i)] * x[i];
        }
    }
    s - (x * 0.5).norm_squared()
}

#[test]
fn fixed_size_arguments_through_the_operations() {
    let k = Matrix3::new(0.5, -1.0, 0.25, 2.0, 0.75, -0.5, 1.5, 0.1, -2.0);
    for x in [Vector3::new(0.3, -1.2, 2.0), Vector3::new(-0.7, 0.4, 1.1)] {
        let w = SVector::<f64, 3>::new(1.0, -0.5, 0.25);
        let (v, dk, dx, dw): (f64, Matrix3<f64>, Vector3<f64>, Vector3<f64>) =
            fixed_energy_grad(&k, x, &w);
        assert_eq!(v, fixed_energy(&k, x, &w));
        assert!((v - fixed_energy_ref(&k, &x, &w)).abs() < 1e-14);
        let fd_k = fd_fixed(|t| fixed_energy_ref(t, &x, &w), &k);
        let fd_x = fd_fixed(|t| fixed_energy_ref(&k, t, &w), &x);
        let fd_w = fd_fixed(|t| fixed_energy_ref(&k, &x, t), &w);
        assert_close(&dynamic(&dk), &fd_k, FD_ABS, FD_REL, "dK");
        assert_close(&dynamic(&dx), &fd_x, FD_ABS, FD_REL, "dx");
        assert_close(&dynamic(&dw), &fd_w, FD_ABS, FD_REL, "dw");
        let check = fixed_energy_check(&k, x, &w);
        assert!(check.is_within(FD_ABS, FD_REL), "{check}");
    }
}

/// A non-square fixed-size matrix by value, read by `column` and `row`.
#[differentiable]
fn fixed_lines(m: Matrix2x3<f64>, x: Vector2<f64>) -> f64 {
    let mut s = 0.0;
    for j in 0..m.ncols() {
        s += m.column(j).dot(&x) * (j + 1) as f64;
    }
    s + m.row(1).sum() * m.nrows() as f64
}

#[test]
fn fixed_size_columns_and_rows() {
    let m = Matrix2x3::new(1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
    let x = Vector2::new(0.5, -1.5);
    let (v, dm, dx) = fixed_lines_grad(m, x);
    assert_eq!(v, fixed_lines(m, x));
    // s = Σ_j (j+1)·m_jᵀx + 2·Σ m_1j.
    let closed_m =
        Matrix2x3::from_fn(|i, j| (j + 1) as f64 * x[i] + if i == 1 { 2.0 } else { 0.0 });
    let closed_x = Vector2::from_fn(|i, _| (0..3).map(|j| (j + 1) as f64 * m[(i, j)]).sum());
    assert_eq!(dm, closed_m);
    assert_eq!(dx, closed_x);
}
