//! Matrix and vector operations through `#[differentiable]`: element-wise
//! product and quotient, scalar·matrix, matrix·scalar, matrix/scalar,
//! sums, differences, negation, `DVector` arguments and returns, by-value
//! and by-reference arguments, element-wise maps, and a dense layer
//! against its closed form.
//!
//! Expected adjoints are closed forms written out here (pullback of the
//! seed `G`) or five-point central differences of the primal
//! (`matrix_support`); none comes from the generated code.

mod matrix_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::graph::Graph;
use autograd::prelude::*;
use matrix_support::{
    FD_ABS, FD_REL, assert_close, assert_close_vec, fd, fd_matrix, fd_vector, inner, lcg_matrix,
    lcg_vector,
};
use nalgebra::{DMatrix, DVector};

/// Tolerances for closed forms evaluated in `f64` with a few roundings.
const CLOSED_ABS: f64 = 1e-12;
const CLOSED_REL: f64 = 1e-12;

fn a23() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 3, &[0.5, -1.25, 2.0, 3.0, 0.75, -0.5])
}
fn b23() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 3, &[1.5, 2.0, -0.5, 0.25, -3.0, 4.0])
}
fn g23() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 3, &[1.0, -2.0, 0.5, 3.0, -1.0, 2.5])
}

// ---------------------------------------------------------------------------
// Element-wise product and quotient.

#[differentiable]
fn hadamard(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    a.component_mul(b)
}

#[differentiable]
fn quotient(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    a.component_div(b)
}

/// The operand borrowed at the call, the receiver by value.
#[differentiable]
fn hadamard_owned(a: DMatrix<f64>, b: DMatrix<f64>) -> DMatrix<f64> {
    a.component_mul(&b)
}

#[test]
fn component_mul_pulls_back_the_other_operand() {
    let (a, b, g) = (a23(), b23(), g23());
    let (y, pullback) = hadamard_vjp(&a, &b);
    let expected_y = DMatrix::from_fn(2, 3, |i, j| a[(i, j)] * b[(i, j)]);
    assert_relative_eq!(
        y,
        expected_y,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let (da, db) = pullback(g.clone());
    let expected_da = DMatrix::from_fn(2, 3, |i, j| g[(i, j)] * b[(i, j)]);
    let expected_db = DMatrix::from_fn(2, 3, |i, j| g[(i, j)] * a[(i, j)]);
    assert_relative_eq!(
        da,
        expected_da,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(
        db,
        expected_db,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );

    let (y, pullback) = hadamard_owned_vjp(a.clone(), b.clone());
    assert_relative_eq!(
        y,
        expected_y,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let (da, db) = pullback(g);
    assert_relative_eq!(
        da,
        expected_da,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(
        db,
        expected_db,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
}

#[test]
fn component_div_pulls_back_one_over_b_and_minus_a_over_b_squared() {
    let (a, b, g) = (a23(), b23(), g23());
    let (y, pullback) = quotient_vjp(&a, &b);
    let expected_y = DMatrix::from_fn(2, 3, |i, j| a[(i, j)] / b[(i, j)]);
    assert_relative_eq!(
        y,
        expected_y,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let (da, db) = pullback(g.clone());
    let expected_da = DMatrix::from_fn(2, 3, |i, j| g[(i, j)] / b[(i, j)]);
    let expected_db = DMatrix::from_fn(2, 3, |i, j| {
        -g[(i, j)] * a[(i, j)] / (b[(i, j)] * b[(i, j)])
    });
    assert_relative_eq!(
        da,
        expected_da,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(
        db,
        expected_db,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
}

// ---------------------------------------------------------------------------
// Scalars and matrices.

#[differentiable]
fn scalar_times(s: f64, a: &DMatrix<f64>) -> DMatrix<f64> {
    s * a
}

#[differentiable]
fn times_scalar(a: &DMatrix<f64>, s: f64) -> DMatrix<f64> {
    a * s
}

#[differentiable]
fn over_scalar(a: DMatrix<f64>, s: f64) -> DMatrix<f64> {
    a / s
}

#[test]
fn scalar_matrix_products_and_quotient() {
    let (a, g, s) = (a23(), g23(), -1.75);
    let ga = inner(&g, &a);

    // s·A: ds = ⟨G, A⟩, dA = s·G.
    let (y, pullback) = scalar_times_vjp(s, &a);
    assert_relative_eq!(y, &a * s, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let (ds, da) = pullback(g.clone());
    assert_relative_eq!(ds, ga, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(da, &g * s, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);

    // A·s: the same, in the other order.
    let (y, pullback) = times_scalar_vjp(&a, s);
    assert_relative_eq!(y, &a * s, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let (da, ds) = pullback(g.clone());
    assert_relative_eq!(ds, ga, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(da, &g * s, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);

    // A/s: dA = G/s, ds = -⟨G, A⟩/s².
    let (y, pullback) = over_scalar_vjp(a.clone(), s);
    assert_relative_eq!(y, &a / s, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let (da, ds) = pullback(g.clone());
    assert_relative_eq!(da, &g / s, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(
        ds,
        -ga / (s * s),
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
}

// ---------------------------------------------------------------------------
// Sums, differences, negation.

#[differentiable]
fn plus(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    a + b
}

#[differentiable]
fn minus(a: &DMatrix<f64>, b: DMatrix<f64>) -> DMatrix<f64> {
    a - b
}

#[differentiable]
fn negated(a: DMatrix<f64>) -> DMatrix<f64> {
    -a
}

/// `a` reaches the result along three paths: 2a - (-a) - b = 3a - b.
#[differentiable]
fn three_paths(a: &DMatrix<f64>, b: &DMatrix<f64>) -> DMatrix<f64> {
    let twice = a + a;
    let neg = -a;
    twice - neg - b
}

#[test]
fn add_sub_neg_pass_the_seed_with_signs() {
    let (a, b, g) = (a23(), b23(), g23());

    let (y, pullback) = plus_vjp(&a, &b);
    assert_relative_eq!(y, &a + &b, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let (da, db) = pullback(g.clone());
    assert_relative_eq!(da, g, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(db, g, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);

    let (y, pullback) = minus_vjp(&a, b.clone());
    assert_relative_eq!(y, &a - &b, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let (da, db) = pullback(g.clone());
    assert_relative_eq!(da, g, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(db, -&g, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);

    let (y, pullback) = negated_vjp(a.clone());
    assert_relative_eq!(y, -&a, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let (da,) = pullback(g.clone());
    assert_relative_eq!(da, -&g, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);

    let (y, pullback) = three_paths_vjp(&a, &b);
    assert_relative_eq!(
        y,
        &a * 3.0 - &b,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let (da, db) = pullback(g.clone());
    assert_relative_eq!(
        da,
        &g * 3.0,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(db, -&g, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
}

// ---------------------------------------------------------------------------
// DVector arguments and returns; by value and by reference.

/// y = W·x + b.
#[differentiable]
fn affine(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> DVector<f64> {
    w * x + b
}

/// The same, every argument by value.
#[differentiable]
fn affine_owned(w: DMatrix<f64>, x: DVector<f64>, b: DVector<f64>) -> DVector<f64> {
    w * x + b
}

/// A mix: `w` borrowed, `x` owned, `b` borrowed.
#[differentiable]
fn affine_mixed(w: &DMatrix<f64>, x: DVector<f64>, b: &DVector<f64>) -> DVector<f64> {
    w * x + b
}

#[test]
fn affine_map_on_vectors() {
    let w = lcg_matrix(3, 4, 1, -1.0, 1.0);
    let x = lcg_vector(4, 2, -1.0, 1.0);
    let b = lcg_vector(3, 3, -1.0, 1.0);
    let g = DVector::from_vec(vec![0.5, -1.5, 2.0]);
    let expected_y = DVector::from_fn(3, |i, _| {
        (0..4).map(|k| w[(i, k)] * x[k]).sum::<f64>() + b[i]
    });
    // dW = g·xᵀ, dx = Wᵀ·g, db = g.
    let expected_dw = DMatrix::from_fn(3, 4, |i, j| g[i] * x[j]);
    let expected_dx = DVector::from_fn(4, |j, _| (0..3).map(|i| w[(i, j)] * g[i]).sum());

    let check = |y: DVector<f64>, (dw, dx, db): (DMatrix<f64>, DVector<f64>, DVector<f64>)| {
        assert_relative_eq!(
            y,
            expected_y,
            epsilon = CLOSED_ABS,
            max_relative = CLOSED_REL
        );
        assert_eq!(dw.shape(), (3, 4));
        assert_relative_eq!(
            dw,
            expected_dw,
            epsilon = CLOSED_ABS,
            max_relative = CLOSED_REL
        );
        assert_relative_eq!(
            dx,
            expected_dx,
            epsilon = CLOSED_ABS,
            max_relative = CLOSED_REL
        );
        assert_relative_eq!(db, g, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    };

    let (y, pullback) = affine_vjp(&w, &x, &b);
    check(y, pullback(g.clone()));
    let (y, pullback) = affine_owned_vjp(w.clone(), x.clone(), b.clone());
    check(y, pullback(g.clone()));
    let (y, pullback) = affine_mixed_vjp(&w, x.clone(), &b);
    check(y, pullback(g.clone()));
}

/// ⟨x, y⟩ as Σ x∘y: dx = y, dy = x. (Written as `(x.transpose() * y).sum()`
/// it does not compile: see `row_times_column` below.)
#[differentiable]
fn dot(x: &DVector<f64>, y: &DVector<f64>) -> f64 {
    x.component_mul(y).sum()
}

/// ‖x‖² · s with the norm computed as Σ x∘x, mixed with scalar code.
#[differentiable]
fn scaled_square_norm(x: &DVector<f64>, s: f64) -> f64 {
    let n2 = x.component_mul(x).sum();
    let t = s * n2;
    t + n2.sqrt()
}

#[test]
fn vector_reductions_and_scalar_code() {
    let x = DVector::from_vec(vec![1.0, -2.0, 0.5]);
    let y = DVector::from_vec(vec![3.0, 0.25, -4.0]);
    let (v, dx, dy) = dot_grad(&x, &y);
    assert_relative_eq!(
        v,
        3.0 - 0.5 - 2.0,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(dx, y, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(dy, x, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);

    // d/dx (s‖x‖² + ‖x‖) = 2s·x + x/‖x‖; d/ds = ‖x‖².
    let s = 0.75;
    let (v, dx, ds) = scaled_square_norm_grad(&x, s);
    let n2 = 1.0 + 4.0 + 0.25;
    assert_relative_eq!(
        v,
        s * n2 + n2.sqrt(),
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let expected_dx = &x * (2.0 * s) + &x / n2.sqrt();
    assert_relative_eq!(
        dx,
        expected_dx,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(ds, n2, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    let check = scaled_square_norm_check(&x, s);
    assert!(check.is_within(1e-7, 1e-6), "{check}");
}

// ---------------------------------------------------------------------------
// Element-wise maps and activations.

#[differentiable]
fn mapped(a: &DMatrix<f64>) -> DMatrix<f64> {
    let e = a.map(f64::exp);
    let t = a.map(|v| 2.0 * v.tanh() + v * v);
    e + t.sigmoid()
}

#[test]
fn element_wise_maps_differentiate_their_closure() {
    let a = a23();
    let g = g23();
    let (y, pullback) = mapped_vjp(&a);
    let sig = |v: f64| 1.0 / (1.0 + (-v).exp());
    let inner_t = |v: f64| 2.0 * v.tanh() + v * v;
    let expected_y = a.map(|v| v.exp() + sig(inner_t(v)));
    assert_relative_eq!(
        y,
        expected_y,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    let (da,) = pullback(g.clone());
    // d/dv [e^v + σ(2 tanh v + v²)] = e^v + σ'(t)·(2(1 - tanh² v) + 2v).
    let expected = DMatrix::from_fn(2, 3, |i, j| {
        let v = a[(i, j)];
        let st = sig(inner_t(v));
        g[(i, j)] * (v.exp() + st * (1.0 - st) * (2.0 * (1.0 - v.tanh().powi(2)) + 2.0 * v))
    });
    assert_relative_eq!(da, expected, epsilon = 1e-12, max_relative = 1e-11);
}

// ---------------------------------------------------------------------------
// The dense layer: L = Σ tanh(W·x + b) against its closed form.

#[differentiable]
fn dense(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
    let z = w * x + b;
    z.map(|v| v.tanh()).sum()
}

#[test]
fn dense_layer_matches_its_closed_form() {
    let w = lcg_matrix(4, 3, 11, -0.8, 0.8);
    let x = lcg_vector(3, 12, -1.0, 1.0);
    let b = lcg_vector(4, 13, -0.5, 0.5);
    let z = DVector::from_fn(4, |i, _| {
        (0..3).map(|k| w[(i, k)] * x[k]).sum::<f64>() + b[i]
    });
    // s = 1 - tanh²(z); dW = s·xᵀ, db = s, dx = Wᵀ·s.
    let s = z.map(|v| 1.0 - v.tanh() * v.tanh());
    let expected_dw = DMatrix::from_fn(4, 3, |i, j| s[i] * x[j]);
    let expected_dx = DVector::from_fn(3, |j, _| (0..4).map(|i| w[(i, j)] * s[i]).sum());

    let (l, dw, dx, db) = dense_grad(&w, &x, &b);
    assert_relative_eq!(
        l,
        z.map(f64::tanh).sum(),
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(
        dw,
        expected_dw,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );
    assert_relative_eq!(db, s, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    assert_relative_eq!(
        dx,
        expected_dx,
        epsilon = CLOSED_ABS,
        max_relative = CLOSED_REL
    );

    // The runtime's dynamic graph agrees (x and b as n×1 matrices).
    let mut g = Graph::new();
    let (gw, gx, gb) = (g.input(w.clone()), g.input(x.clone()), g.input(b.clone()));
    let wx = g.apply("matmul", &[gw, gx]).expect("matmul");
    let z_node = g.apply("add", &[wx, gb]).expect("add");
    let t = g.apply("tanh", &[z_node]).expect("tanh");
    let out = g.apply("sum", &[t]).expect("sum");
    let grads = g.backward(out).expect("backward");
    let graph_dw = grads.matrix(gw).expect("dW from the graph");
    let graph_dx = grads.matrix(gx).expect("dx from the graph");
    let graph_db = grads.matrix(gb).expect("db from the graph");
    assert_close(&dw, graph_dw, CLOSED_ABS, CLOSED_REL, "dW vs graph");
    assert_eq!(graph_dx.shape(), (3, 1));
    assert_close(
        &DMatrix::from_column_slice(3, 1, dx.as_slice()),
        graph_dx,
        CLOSED_ABS,
        CLOSED_REL,
        "dx vs graph",
    );
    assert_close(
        &DMatrix::from_column_slice(4, 1, db.as_slice()),
        graph_db,
        CLOSED_ABS,
        CLOSED_REL,
        "db vs graph",
    );

    // And against finite differences of the primal.
    let check = dense_check(&w, &x, &b);
    assert!(check.is_within(1e-7, 1e-6), "{check}");
    let fd_w = fd_matrix(|w| dense(w, &x, &b), &w);
    assert_close(&dw, &fd_w, FD_ABS, FD_REL, "dW vs fd");
    let fd_x = fd_vector(|x| dense(&w, x, &b), &x);
    assert_close_vec(&dx, &fd_x, FD_ABS, FD_REL, "dx vs fd");
}

// ---------------------------------------------------------------------------
// Scalars and matrices mixed in one body.

/// s·Σ(A∘B) + t²·max(Aᵀ) - Σ(A/t).
#[differentiable]
fn mixed(a: &DMatrix<f64>, b: &DMatrix<f64>, s: f64, t: f64) -> f64 {
    let p = a.component_mul(b).sum();
    let m = a.transpose().max();
    let q = (a / t).sum();
    s * p + t * t * m - q
}

#[test]
fn mixed_scalar_and_matrix_code_against_finite_differences() {
    let (a, b) = (a23(), b23());
    let (s, t) = (0.5, 1.25);
    let (v, da, db, ds, dt) = mixed_grad(&a, &b, s, t);
    assert_relative_eq!(v, mixed(&a, &b, s, t), epsilon = 0.0, max_relative = 0.0);
    let check = mixed_check(&a, &b, s, t);
    assert!(check.is_within(1e-7, 1e-6), "{check}");
    assert_close(
        &da,
        &fd_matrix(|a| mixed(a, &b, s, t), &a),
        FD_ABS,
        FD_REL,
        "dA",
    );
    assert_close(
        &db,
        &fd_matrix(|b| mixed(&a, b, s, t), &b),
        FD_ABS,
        FD_REL,
        "dB",
    );
    assert_relative_eq!(
        ds,
        fd(|s| mixed(&a, &b, s, t), s),
        epsilon = FD_ABS,
        max_relative = FD_REL
    );
    assert_relative_eq!(
        dt,
        fd(|t| mixed(&a, &b, s, t), t),
        epsilon = FD_ABS,
        max_relative = FD_REL
    );
}

// ---------------------------------------------------------------------------
// Regression test: `NAME_check` of a function with a by-value matrix
// argument once moved the argument into `NAME_grad` and then borrowed it.
mod by_value_scalar_return {
    use super::*;

    #[differentiable]
    fn owned_sum(x: DMatrix<f64>) -> f64 {
        x.sum()
    }

    #[test]
    fn owned_scalar_return() {
        let x = a23();
        let (v, dx) = owned_sum_grad(x.clone());
        assert_relative_eq!(v, x.sum(), epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
        assert_relative_eq!(
            dx,
            DMatrix::repeat(2, 3, 1.0),
            epsilon = CLOSED_ABS,
            max_relative = CLOSED_REL
        );
        assert!(owned_sum_check(x).is_within(1e-7, 1e-6));
    }
}

// Regression test: `xᵀ·y` of two `DVector`s is nalgebra's 1×1 `Matrix1`,
// which the dispatched rules once did not cover.
mod row_times_column {
    use super::*;

    #[differentiable]
    fn dot_t(x: &DVector<f64>, y: &DVector<f64>) -> f64 {
        (x.transpose() * y).sum()
    }

    #[test]
    fn transpose_times_vector() {
        let x = DVector::from_vec(vec![1.0, -2.0, 0.5]);
        let y = DVector::from_vec(vec![3.0, 0.25, -4.0]);
        let (v, dx, dy) = dot_t_grad(&x, &y);
        assert_relative_eq!(v, 0.5, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
        assert_relative_eq!(dx, y, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
        assert_relative_eq!(dy, x, epsilon = CLOSED_ABS, max_relative = CLOSED_REL);
    }
}
