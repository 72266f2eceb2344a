//! The dot-product test for matrix-valued functions:
//! ⟨J·v, u⟩ = ⟨v, Jᵀ·u⟩ for a direction `v` in the arguments and a
//! cotangent `u` of the result, with Jᵀ·u from `NAME_vjp` and J·v from a
//! five-point central difference of the primal along `v`.
//!
//! Each test also checks that the pullback's adjoints have the shapes of
//! their arguments.

mod matrix_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::prelude::*;
use matrix_support::{fd_curve, inner, lcg_matrix, lcg_vector};
use nalgebra::{DMatrix, DVector, Dyn};

/// ⟨J·v, u⟩ against ⟨v, Jᵀ·u⟩. The difference quotient's error (≈ 10⁻¹³
/// relative to the entries, a few tens of them summed) bounds the gap.
const DOT_ABS: f64 = 1e-10;
const DOT_REL: f64 = 1e-9;

fn as_matrix(v: &DVector<f64>) -> DMatrix<f64> {
    DMatrix::from_column_slice(v.len(), 1, v.as_slice())
}

#[differentiable]
fn product(w: &DMatrix<f64>, x: &DMatrix<f64>) -> DMatrix<f64> {
    w * x
}

#[test]
fn matrix_product() {
    let (w, x) = (
        lcg_matrix(3, 4, 1, -1.0, 1.0),
        lcg_matrix(4, 2, 2, -1.0, 1.0),
    );
    let (vw, vx) = (
        lcg_matrix(3, 4, 3, -1.0, 1.0),
        lcg_matrix(4, 2, 4, -1.0, 1.0),
    );
    let u = lcg_matrix(3, 2, 5, -1.0, 1.0);

    let jv = fd_curve(|t| product(&(&w + &vw * t), &(&x + &vx * t)));
    let (_, pullback) = product_vjp(&w, &x);
    let (dw, dx) = pullback(u.clone());
    assert_eq!((dw.shape(), dx.shape()), (w.shape(), x.shape()));
    assert_relative_eq!(
        inner(&jv, &u),
        inner(&vw, &dw) + inner(&vx, &dx),
        epsilon = DOT_ABS,
        max_relative = DOT_REL
    );
}

#[differentiable]
fn relu_product(a: &DMatrix<f64>, b: DMatrix<f64>) -> DMatrix<f64> {
    (a * b).relu()
}

#[test]
fn relu_of_a_product() {
    let (a, b) = (
        lcg_matrix(4, 3, 11, -1.0, 1.0),
        lcg_matrix(3, 5, 12, -1.0, 1.0),
    );
    // Away from relu's kink, so the difference quotient sees one side only;
    // both signs occur, so the mask is exercised.
    let ab = &a * &b;
    assert!(ab.iter().all(|v| v.abs() > 0.05), "{ab}");
    assert!(ab.iter().any(|&v| v < 0.0) && ab.iter().any(|&v| v > 0.0));
    let (va, vb) = (
        lcg_matrix(4, 3, 13, -1.0, 1.0),
        lcg_matrix(3, 5, 14, -1.0, 1.0),
    );
    let u = lcg_matrix(4, 5, 15, -1.0, 1.0);

    let jv = fd_curve(|t| relu_product(&(&a + &va * t), &b + &vb * t));
    let (_, pullback) = relu_product_vjp(&a, b.clone());
    let (da, db) = pullback(u.clone());
    assert_eq!((da.shape(), db.shape()), (a.shape(), b.shape()));
    assert_relative_eq!(
        inner(&jv, &u),
        inner(&va, &da) + inner(&vb, &db),
        epsilon = DOT_ABS,
        max_relative = DOT_REL
    );
}

/// `a` reaches the result twice: through the product and directly.
#[differentiable]
fn hadamard_plus(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    a.component_mul(b) + a
}

#[test]
fn hadamard_plus_identity() {
    let (a, b) = (
        lcg_matrix(3, 3, 21, -2.0, 2.0),
        lcg_matrix(3, 3, 22, -2.0, 2.0),
    );
    let (va, vb) = (
        lcg_matrix(3, 3, 23, -1.0, 1.0),
        lcg_matrix(3, 3, 24, -1.0, 1.0),
    );
    let u = lcg_matrix(3, 3, 25, -1.0, 1.0);

    let jv = fd_curve(|t| hadamard_plus(&(&a + &va * t), &(&b + &vb * t)));
    let (_, pullback) = hadamard_plus_vjp(&a, &b);
    let (da, db) = pullback(u.clone());
    assert_relative_eq!(
        inner(&jv, &u),
        inner(&va, &da) + inner(&vb, &db),
        epsilon = DOT_ABS,
        max_relative = DOT_REL
    );
}

/// Shapes move: (A·B)ᵀ through tanh, divided element-wise by a reshape of C.
#[differentiable]
fn shapes(a: &DMatrix<f64>, b: &DMatrix<f64>, c: DMatrix<f64>) -> DMatrix<f64> {
    let t = (a * b).transpose().map(|v| v.tanh());
    let d = c.reshape_generic(Dyn(4), Dyn(2));
    t.component_div(&d)
}

#[test]
fn transpose_tanh_reshape_divide() {
    let (a, b) = (
        lcg_matrix(2, 3, 31, -1.0, 1.0),
        lcg_matrix(3, 4, 32, -1.0, 1.0),
    );
    // c (2×4) away from zero: it divides.
    let c = lcg_matrix(2, 4, 33, 1.0, 2.0);
    let (va, vb, vc) = (
        lcg_matrix(2, 3, 34, -1.0, 1.0),
        lcg_matrix(3, 4, 35, -1.0, 1.0),
        lcg_matrix(2, 4, 36, -1.0, 1.0),
    );
    let u = lcg_matrix(4, 2, 37, -1.0, 1.0);

    let jv = fd_curve(|t| shapes(&(&a + &va * t), &(&b + &vb * t), &c + &vc * t));
    let (y, pullback) = shapes_vjp(&a, &b, c.clone());
    assert_eq!(y.shape(), (4, 2));
    let (da, db, dc) = pullback(u.clone());
    assert_eq!(
        (da.shape(), db.shape(), dc.shape()),
        (a.shape(), b.shape(), c.shape())
    );
    assert_relative_eq!(
        inner(&jv, &u),
        inner(&va, &da) + inner(&vb, &db) + inner(&vc, &dc),
        epsilon = DOT_ABS,
        max_relative = DOT_REL
    );
}

/// A vector-valued function with scalar, matrix and vector arguments:
/// s·σ(W·x) - x∘x + b, iterated twice in a loop.
#[differentiable]
fn vector_valued(s: f64, w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> DVector<f64> {
    let mut h = x.clone();
    for _ in 0..2 {
        h = s * (w * h.clone()).sigmoid() - h.component_mul(&h) + b;
    }
    h
}

#[test]
fn vector_valued_loop() {
    let s = 0.8;
    let w = lcg_matrix(3, 3, 41, -1.0, 1.0);
    let x = lcg_vector(3, 42, -1.0, 1.0);
    let b = lcg_vector(3, 43, -0.5, 0.5);
    let (vs, vw, vx, vb) = (
        -0.6,
        lcg_matrix(3, 3, 44, -1.0, 1.0),
        lcg_vector(3, 45, -1.0, 1.0),
        lcg_vector(3, 46, -1.0, 1.0),
    );
    let u = lcg_vector(3, 47, -1.0, 1.0);

    let jv = fd_curve(|t| {
        as_matrix(&vector_valued(
            s + vs * t,
            &(&w + &vw * t),
            &(&x + &vx * t),
            &(&b + &vb * t),
        ))
    });
    let (_, pullback) = vector_valued_vjp(s, &w, &x, &b);
    let (ds, dw, dx, db) = pullback(u.clone());
    assert_eq!((dx.len(), db.len(), dw.shape()), (3, 3, (3, 3)));
    assert_relative_eq!(
        inner(&jv, &as_matrix(&u)),
        vs * ds + inner(&vw, &dw) + inner(&as_matrix(&vx), &as_matrix(&dx)) + vb.dot(&db),
        epsilon = DOT_ABS,
        max_relative = DOT_REL
    );
}
