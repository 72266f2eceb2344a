//! Matrix values in control flow and composition: `if`/`else` on a
//! matrix-derived condition, compound assignment (`+=`, `-=`, `*=`) on
//! matrices in loops, calls between `#[differentiable]` functions with
//! matrix arguments and returns, `stop_gradient` on a matrix, aliasing
//! through `.clone()`, and shape mismatches that panic in the primal with
//! nalgebra's own message.
//!
//! References: closed forms and five-point central differences of the
//! primal (`matrix_support`).

mod matrix_support;

use std::panic::{AssertUnwindSafe, catch_unwind};

use approx::assert_relative_eq;
use autograd::differentiable;
use matrix_support::{
    FD_ABS, FD_REL, assert_close, assert_close_vec, fd, fd_matrix, fd_vector, lcg_matrix,
    lcg_vector,
};
use nalgebra::{DMatrix, DVector};

const CLOSED_ABS: f64 = 1e-12;
const CLOSED_REL: f64 = 1e-12;

// ---------------------------------------------------------------------------
// Branches.

/// 2A if ΣA > 0, else A∘A; the result summed with weights.
#[differentiable]
fn branchy(a: &DMatrix<f64>, #[constant] w: &DMatrix<f64>) -> f64 {
    let m = if a.sum() > 0.0 {
        a * 2.0
    } else {
        a.component_mul(a)
    };
    m.component_mul(w).sum()
}

#[test]
fn branch_on_a_matrix_condition() {
    let w = DMatrix::from_row_slice(2, 2, &[1.0, -2.0, 0.5, 3.0]);
    let pos = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, -0.5, 0.25]);
    let (_, da) = branchy_grad(&pos, &w);
    assert_relative_eq!(
        da,
        &w * 2.0,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );

    let neg = -&pos;
    let (_, da) = branchy_grad(&neg, &w);
    let expected = neg.component_mul(&w) * 2.0;
    assert_relative_eq!(
        da,
        expected,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
}

// ---------------------------------------------------------------------------
// Compound assignment on matrices.

/// acc = Σₖ (A∘Bᵏ-ish): acc += A∘B, B *= s, acc -= A/4, repeated.
#[differentiable]
fn compound(a: &DMatrix<f64>, b: &DMatrix<f64>, s: f64) -> f64 {
    let mut acc = a.component_mul(b);
    let mut p = b.clone();
    for _ in 0..3 {
        p *= s;
        acc += a.component_mul(&p);
        acc -= a / 4.0;
    }
    acc.map(|v| v * v).sum()
}

#[test]
fn compound_assignment_in_a_loop() {
    let a = lcg_matrix(2, 3, 51, -1.0, 1.0);
    let b = lcg_matrix(2, 3, 52, -1.0, 1.0);
    let s = 0.7;
    let (v, da, db, ds) = compound_grad(&a, &b, s);
    // acc = A∘B(1 + s + s² + s³) - ¾A; the reference value in plain nalgebra.
    let k = 1.0 + s + s * s + s * s * s;
    let acc = a.component_mul(&b) * k - &a * 0.75;
    assert_relative_eq!(
        v,
        acc.map(|x| x * x).sum(),
        epsilon = 1e-13,
        max_relative = 1e-12
    );
    // dA = 2acc∘(kB - ¾), dB = 2acc∘A·k, ds = Σ 2acc∘A∘B·(1 + 2s + 3s²).
    let expected_da = DMatrix::from_fn(2, 3, |i, j| 2.0 * acc[(i, j)] * (k * b[(i, j)] - 0.75));
    let expected_db = DMatrix::from_fn(2, 3, |i, j| 2.0 * acc[(i, j)] * a[(i, j)] * k);
    let expected_ds =
        (acc.component_mul(&a).component_mul(&b) * 2.0).sum() * (1.0 + 2.0 * s + 3.0 * s * s);
    assert_relative_eq!(da, expected_da, epsilon = 1e-13, max_relative = 1e-12);
    assert_relative_eq!(db, expected_db, epsilon = 1e-13, max_relative = 1e-12);
    assert_relative_eq!(ds, expected_ds, epsilon = 1e-13, max_relative = 1e-12);
    assert!(compound_check(&a, &b, s).is_within(1e-7, 1e-6));
}

/// A matrix variable read, then re-assigned: Σa · Σ(a∘a).
#[differentiable]
fn reassigned(a: &DMatrix<f64>) -> f64 {
    let mut m = a.clone();
    let s0 = m.sum();
    m = m.component_mul(a);
    s0 * m.sum()
}

/// Shadowing an argument: Σ (2a)∘(2a).
#[differentiable]
fn shadowed(a: &DMatrix<f64>) -> f64 {
    let a = a * 2.0;
    let a = a.component_mul(&a);
    a.sum()
}

/// A `mut` by-value argument updated in place.
#[differentiable]
fn updated_in_place(mut a: DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    a += b;
    a *= 3.0;
    a
}

#[test]
fn reassignment_shadowing_and_mut_arguments() {
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    // d/da [Σa · Σa²] = Σa² + 2Σa·a = 30 + 20a.
    let (v, da) = reassigned_grad(&a);
    assert_relative_eq!(v, 300.0, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let expected = a.map(|x| 30.0 + 20.0 * x);
    assert_relative_eq!(
        da,
        expected,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );

    let (v, da) = shadowed_grad(&a);
    assert_relative_eq!(v, 120.0, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(
        da,
        &a * 8.0,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );

    let b = DMatrix::from_row_slice(2, 2, &[0.5, -0.5, 1.0, -1.0]);
    let (y, pullback) = updated_in_place_vjp(a.clone(), &b);
    assert_relative_eq!(
        y,
        (&a + &b) * 3.0,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let g = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, -1.0, 0.5]);
    let (da, db) = pullback(g.clone());
    assert_relative_eq!(
        da,
        &g * 3.0,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(
        db,
        &g * 3.0,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
}

// Regression test: a `while` loop carrying a matrix once moved the
// carried value at the loop head and read it again after `break`.
mod while_over_matrices {
    use super::*;

    #[differentiable]
    fn while_recurrence(w: &DMatrix<f64>, x: &DVector<f64>) -> f64 {
        let mut h = x.clone();
        let mut i = 0;
        while i < 3 {
            h = (w * h).map(|v| v.sin());
            i += 1;
        }
        h.sum()
    }

    #[test]
    fn while_loop_carrying_a_matrix() {
        let w = DMatrix::from_row_slice(2, 2, &[0.5, -0.3, 0.2, 0.8]);
        let x = DVector::from_vec(vec![0.3, -0.2]);
        let reference = |w: &DMatrix<f64>| {
            let mut h = x.clone();
            for _ in 0..3 {
                h = (w * h).map(f64::sin);
            }
            h.sum()
        };
        let (_, dw, _) = while_recurrence_grad(&w, &x);
        assert_close(&dw, &fd_matrix(reference, &w), FD_ABS, FD_REL, "dW");
    }
}

// ---------------------------------------------------------------------------
// Calls between #[differentiable] functions.

#[differentiable]
fn layer(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> DVector<f64> {
    (w * x + b).map(f64::tanh)
}

#[differentiable]
fn score(h: &DVector<f64>, #[constant] v: &DVector<f64>) -> f64 {
    h.component_mul(v).sum()
}

/// Two layers that share the bias: the first through a call, its result
/// used by matrix code; the read-out through a call on arguments.
/// (Passing the local `h1` on to another call does not compile yet: see
/// `calls_on_locals` below.)
#[differentiable]
fn stacked(
    w1: &DMatrix<f64>,
    w2: &DMatrix<f64>,
    x: &DVector<f64>,
    b: &DVector<f64>,
    #[constant] v: &DVector<f64>,
) -> f64 {
    let h1 = layer(w1, x, b);
    let h2 = (w2 * h1 + b).map(f64::tanh);
    h2.component_mul(v).sum() + score(x, v)
}

fn stacked_ref(
    w1: &DMatrix<f64>,
    w2: &DMatrix<f64>,
    x: &DVector<f64>,
    b: &DVector<f64>,
    v: &DVector<f64>,
) -> f64 {
    let h1 = (w1 * x + b).map(f64::tanh);
    let h2 = (w2 * h1 + b).map(f64::tanh);
    h2.dot(v) + x.dot(v)
}

#[test]
fn calls_with_matrix_arguments_and_returns() {
    let w1 = lcg_matrix(3, 3, 61, -1.0, 1.0);
    let w2 = lcg_matrix(3, 3, 62, -1.0, 1.0);
    let x = lcg_vector(3, 63, -1.0, 1.0);
    let b = lcg_vector(3, 64, -0.5, 0.5);
    let v = DVector::from_vec(vec![1.0, -1.0, 0.5]);
    let (l, dw1, dw2, dx, db) = stacked_grad(&w1, &w2, &x, &b, &v);
    assert_relative_eq!(
        l,
        stacked_ref(&w1, &w2, &x, &b, &v),
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    let fw1 = fd_matrix(|w1| stacked_ref(w1, &w2, &x, &b, &v), &w1);
    let fw2 = fd_matrix(|w2| stacked_ref(&w1, w2, &x, &b, &v), &w2);
    let fx = fd_vector(|x| stacked_ref(&w1, &w2, x, &b, &v), &x);
    let fb = fd_vector(|b| stacked_ref(&w1, &w2, &x, b, &v), &b);
    assert_close(&dw1, &fw1, FD_ABS, FD_REL, "dW1");
    assert_close(&dw2, &fw2, FD_ABS, FD_REL, "dW2");
    assert_close_vec(&dx, &fx, FD_ABS, FD_REL, "dx");
    assert_close_vec(&db, &fb, FD_ABS, FD_REL, "db (shared)");
}

#[differentiable]
fn doubled(a: &DMatrix<f64>) -> DMatrix<f64> {
    a * 2.0
}

/// Methods on a call's matrix result: Σ (2A)ᵀ∘W.
#[differentiable]
fn call_then_methods(a: &DMatrix<f64>, #[constant] w: &DMatrix<f64>) -> f64 {
    let z: DMatrix<f64> = doubled(a);
    z.transpose().component_mul(w).sum() + doubled(a).sum()
}

#[test]
fn methods_on_call_results() {
    let a = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let w = DMatrix::from_row_slice(3, 2, &[1.0, -1.0, 0.5, 2.0, -3.0, 0.25]);
    let (v, da) = call_then_methods_grad(&a, &w);
    let expected_v = (a.transpose() * 2.0).component_mul(&w).sum() + 2.0 * a.sum();
    assert_relative_eq!(
        v,
        expected_v,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    // dA = 2Wᵀ + 2.
    let expected = w.transpose().map(|x| 2.0 * x + 2.0);
    assert_relative_eq!(
        da,
        expected,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
}

// Regression test: `.map(..)` on a matrix returned by a call was once
// rejected with the scalar method list.
mod map_on_call_result {
    use super::*;

    #[differentiable]
    fn call_then_map(a: &DMatrix<f64>) -> f64 {
        let z = doubled(a);
        z.map(f64::exp).sum()
    }

    #[test]
    fn map_on_a_call_result() {
        let a = DMatrix::from_row_slice(2, 2, &[0.1, -0.2, 0.3, 0.4]);
        let (_, da) = call_then_map_grad(&a);
        let expected = a.map(|x| 2.0 * (2.0 * x).exp());
        assert_relative_eq!(
            da,
            expected,
            epsilon = CLOSED_ABS,
            max_relative = CLOSED_REL
        );
    }
}

// ---------------------------------------------------------------------------
// stop_gradient and aliasing.

/// Σ A∘sg(A): the value of ΣA², the gradient of Σ A∘C for C = A frozen.
#[differentiable]
fn frozen(a: &DMatrix<f64>) -> f64 {
    let c = autograd::stop_gradient(a.clone());
    a.component_mul(&c).sum()
}

/// b is a copy of a; both reach the result: Σ (a∘b + b) = Σ a² + a.
#[differentiable]
fn aliased(a: &DMatrix<f64>) -> f64 {
    let b = a.clone();
    let c = b.clone();
    let d = a.component_mul(&b) + c;
    d.sum()
}

#[test]
fn stop_gradient_and_clones() {
    let a = DMatrix::from_row_slice(2, 2, &[1.0, -2.0, 3.0, 0.5]);
    let (v, da) = frozen_grad(&a);
    assert_relative_eq!(v, 14.25, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(da, a, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);

    let (v, da) = aliased_grad(&a);
    assert_relative_eq!(
        v,
        14.25 + 2.5,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let expected = a.map(|x| 2.0 * x + 1.0);
    assert_relative_eq!(
        da,
        expected,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
}

/// A scalar read off a matrix scales another: (ΣA)·B, then Σ of its square.
#[differentiable]
fn scalar_from_matrix(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    let s = a.sum();
    let m = s * b;
    m.component_mul(&m).sum() + a.max() * s
}

#[test]
fn scalars_read_off_matrices() {
    let a = lcg_matrix(2, 2, 71, -1.0, 1.0);
    let b = lcg_matrix(2, 2, 72, -1.0, 1.0);
    let (_, da, db) = scalar_from_matrix_grad(&a, &b);
    let fa = fd_matrix(|a| scalar_from_matrix(a, &b), &a);
    let fb = fd_matrix(|b| scalar_from_matrix(&a, b), &b);
    assert_close(&da, &fa, FD_ABS, FD_REL, "dA");
    assert_close(&db, &fb, FD_ABS, FD_REL, "dB");
    // One-entry spot check along the diagonal of B, by the scalar stencil.
    let f = |t: f64| {
        let mut b2 = b.clone();
        b2[(1, 1)] = t;
        scalar_from_matrix(&a, &b2)
    };
    assert_relative_eq!(
        db[(1, 1)],
        fd(f, b[(1, 1)]),
        epsilon = FD_ABS,
        max_relative = FD_REL
    );
}

// ---------------------------------------------------------------------------
// Shape mismatches panic in the primal, as nalgebra's own operations do.

#[differentiable]
fn product(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    a * b
}

#[differentiable]
fn elementwise_sum(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    (a + b).sum()
}

fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

#[test]
fn shape_mismatch_panics_with_nalgebras_message() {
    let (a, b) = (DMatrix::repeat(2, 3, 1.0), DMatrix::repeat(2, 3, 1.0));
    let primal = panic_message(|| drop(&a * &b));
    let through_vjp = panic_message(|| drop(product_vjp(&a, &b)));
    assert!(!primal.is_empty());
    assert_eq!(through_vjp, primal);

    let c = DMatrix::repeat(3, 2, 1.0);
    let primal = panic_message(|| {
        let _ = (&a + &c).sum();
    });
    let through_grad = panic_message(|| drop(elementwise_sum_grad(&a, &c)));
    assert!(!primal.is_empty());
    assert_eq!(through_grad, primal);
}

// Regression test: a matrix local passed on to another `#[differentiable]`
// call (by reference: the callee's pullback borrowed a local the pullback
// closure moves; by value: the local was moved into the call).
mod calls_on_locals {
    use super::*;

    #[differentiable]
    fn layer_owned(w: &DMatrix<f64>, x: DVector<f64>, b: &DVector<f64>) -> DVector<f64> {
        (w * x + b).map(f64::tanh)
    }

    #[differentiable]
    fn stacked_by_ref(
        w1: &DMatrix<f64>,
        w2: &DMatrix<f64>,
        x: &DVector<f64>,
        b: &DVector<f64>,
        #[constant] v: &DVector<f64>,
    ) -> f64 {
        let h1 = layer(w1, x, b);
        let h2 = layer(w2, &h1, b);
        score(&h2, v)
    }

    #[differentiable]
    fn stacked_by_value(
        w1: &DMatrix<f64>,
        w2: &DMatrix<f64>,
        x: &DVector<f64>,
        b: &DVector<f64>,
        #[constant] v: &DVector<f64>,
    ) -> f64 {
        let h1 = layer(w1, x, b);
        let h2 = layer_owned(w2, h1, b);
        h2.component_mul(v).sum()
    }

    #[test]
    fn locals_passed_to_calls() {
        let w1 = lcg_matrix(3, 3, 61, -1.0, 1.0);
        let w2 = lcg_matrix(3, 3, 62, -1.0, 1.0);
        let x = lcg_vector(3, 63, -1.0, 1.0);
        let b = lcg_vector(3, 64, -0.5, 0.5);
        let v = DVector::from_vec(vec![1.0, -1.0, 0.5]);
        // stacked_ref's x·v term does not depend on W1.
        let fw1 = fd_matrix(|w1| stacked_ref(w1, &w2, &x, &b, &v), &w1);
        let (_, dw1, _, _, _) = stacked_by_ref_grad(&w1, &w2, &x, &b, &v);
        assert_close(&dw1, &fw1, FD_ABS, FD_REL, "dW1 (by ref)");
        let (_, dw1, _, _, _) = stacked_by_value_grad(&w1, &w2, &x, &b, &v);
        assert_close(&dw1, &fw1, FD_ABS, FD_REL, "dW1 (by value)");
    }
}
