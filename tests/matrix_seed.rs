//! The seed chapter's matrix examples (chapter 16: matmul, relu, sum, max
//! with its tie, reshape, transpose) through `#[differentiable]`.
//!
//! Every expected value is the chapter's hand-derived number or a closed
//! form written out here; none comes from the generated code. All values
//! are small integers (or sums of a few), exact in `f64`, so the
//! tolerances are a few ulps.

mod matrix_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::graph::Graph;
use autograd::prelude::*;
use matrix_support::{FD_ABS, FD_REL, assert_close, fd_matrix};
use nalgebra::{DMatrix, DVector, Dyn};

/// Tolerances for values that are exact in `f64`.
const EXACT_ABS: f64 = 1e-12;
const EXACT_REL: f64 = 1e-12;

/// The chapter's running example: X (2×3), M (3×2).
fn seed_x() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
}
fn seed_m() -> DMatrix<f64> {
    DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
}

// ---------------------------------------------------------------------------
// 16.3: matmul, dL/dX = G·Mᵀ and dL/dM = Xᵀ·G.

#[differentiable]
fn matmul_by_value(x: DMatrix<f64>, m: DMatrix<f64>) -> DMatrix<f64> {
    x * m
}

#[differentiable]
fn matmul_by_ref(x: &DMatrix<f64>, m: &DMatrix<f64>) -> DMatrix<f64> {
    x * m
}

/// L = Σ (X·M): its gradient is the all-ones upstream case.
#[differentiable]
fn matmul_sum(x: &DMatrix<f64>, m: &DMatrix<f64>) -> f64 {
    (x * m).sum()
}

#[test]
fn matmul_all_ones_upstream_gives_the_chapters_gradients() {
    let expected_y = DMatrix::from_row_slice(2, 2, &[22.0, 28.0, 49.0, 64.0]);
    let expected_dx = DMatrix::from_row_slice(2, 3, &[3.0, 7.0, 11.0, 3.0, 7.0, 11.0]);
    let expected_dm = DMatrix::from_row_slice(3, 2, &[5.0, 5.0, 7.0, 7.0, 9.0, 9.0]);
    let ones = DMatrix::repeat(2, 2, 1.0);

    let (y, pullback) = matmul_by_value_vjp(seed_x(), seed_m());
    assert_relative_eq!(y, expected_y, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let (dx, dm) = pullback(ones.clone());
    assert_relative_eq!(
        dx,
        expected_dx,
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );
    assert_relative_eq!(
        dm,
        expected_dm,
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );

    let (x, m) = (seed_x(), seed_m());
    let (y, pullback) = matmul_by_ref_vjp(&x, &m);
    assert_relative_eq!(y, expected_y, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let (dx, dm) = pullback(ones);
    assert_relative_eq!(
        dx,
        expected_dx,
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );
    assert_relative_eq!(
        dm,
        expected_dm,
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );

    // The same numbers as the gradient of the scalar Σ(X·M).
    let (l, dx, dm) = matmul_sum_grad(&x, &m);
    assert_relative_eq!(l, 163.0, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    assert_relative_eq!(
        dx,
        expected_dx,
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );
    assert_relative_eq!(
        dm,
        expected_dm,
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );
}

/// Three ways to the same gradient of Σ(X·M): the macro, the runtime's
/// dynamic graph, and finite differences of the primal.
#[test]
fn matmul_three_way_agreement() {
    let (x, m) = (seed_x(), seed_m());
    let (_, dx, dm) = matmul_sum_grad(&x, &m);

    let mut g = Graph::new();
    let (gx, gm) = (g.input(x.clone()), g.input(m.clone()));
    let y = g.apply("matmul", &[gx, gm]).expect("matmul");
    let s = g.apply("sum", &[y]).expect("sum");
    let grads = g.backward(s).expect("backward");
    let graph_dx = grads.matrix(gx).expect("dX from the graph");
    let graph_dm = grads.matrix(gm).expect("dM from the graph");
    assert_relative_eq!(dx, *graph_dx, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    assert_relative_eq!(dm, *graph_dm, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    assert_close(
        &dx,
        &fd_matrix(|x| (x * &m).sum(), &x),
        FD_ABS,
        FD_REL,
        "dX",
    );
    assert_close(
        &dm,
        &fd_matrix(|m| (&x * m).sum(), &m),
        FD_ABS,
        FD_REL,
        "dM",
    );
}

/// Self-check question 3: with G = I, dL/dX = I·Mᵀ = Mᵀ (and dL/dM = Xᵀ·I = Xᵀ).
#[test]
fn matmul_identity_upstream_gives_the_transposes() {
    let (x, m) = (seed_x(), seed_m());
    let (_, pullback) = matmul_by_ref_vjp(&x, &m);
    let (dx, dm) = pullback(DMatrix::identity(2, 2));
    let m_t = DMatrix::from_row_slice(2, 3, &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
    let x_t = DMatrix::from_row_slice(3, 2, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    assert_relative_eq!(dx, m_t, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    assert_relative_eq!(dm, x_t, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    let (_, pullback) = matmul_by_value_vjp(x, m);
    let (dx, dm) = pullback(DMatrix::identity(2, 2));
    assert_relative_eq!(dx, m_t, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    assert_relative_eq!(dm, x_t, epsilon = EXACT_ABS, max_relative = EXACT_REL);
}

// ---------------------------------------------------------------------------
// 16.5: relu, a hard mask on x > 0 (so 0 at exactly 0).

#[differentiable]
fn relu_vector(x: &DVector<f64>) -> DVector<f64> {
    x.relu()
}

#[differentiable]
fn relu_matrix(x: DMatrix<f64>) -> DMatrix<f64> {
    x.relu()
}

#[test]
fn relu_worked_example_masks_the_negatives() {
    // Worked example 16.5.1.
    let x = DVector::from_vec(vec![-2.0, 3.0, -1.0, 5.0]);
    let (y, pullback) = relu_vector_vjp(&x);
    let expected_y = DVector::from_vec(vec![0.0, 3.0, 0.0, 5.0]);
    assert_relative_eq!(y, expected_y, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let (dx,) = pullback(DVector::repeat(4, 1.0));
    let expected = DVector::from_vec(vec![0.0, 1.0, 0.0, 1.0]);
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);
}

#[test]
fn relu_gradient_at_exactly_zero_is_zero() {
    // Self-check question 4: the x = 0.0 entry gets 0, not 1.
    let x = DVector::from_vec(vec![-3.0, 2.0, 0.0, -1.0, 5.0]);
    let (_, pullback) = relu_vector_vjp(&x);
    let (dx,) = pullback(DVector::repeat(5, 1.0));
    let expected = DVector::from_vec(vec![0.0, 1.0, 0.0, 0.0, 1.0]);
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    // Negative zero is zero too; a non-unit upstream passes through the mask.
    let x = DMatrix::from_row_slice(2, 2, &[0.0, -0.0, 1.5, -1.5]);
    let (y, pullback) = relu_matrix_vjp(x);
    let expected_y = DMatrix::from_row_slice(2, 2, &[0.0, 0.0, 1.5, 0.0]);
    assert_relative_eq!(y, expected_y, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let (dx,) = pullback(DMatrix::from_row_slice(2, 2, &[2.0, 3.0, 4.0, 5.0]));
    let expected = DMatrix::from_row_slice(2, 2, &[0.0, 0.0, 4.0, 0.0]);
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);
}

// ---------------------------------------------------------------------------
// 16.6: sum broadcasts the adjoint back to every element.

#[differentiable]
fn total(x: &DMatrix<f64>) -> f64 {
    x.sum()
}

#[differentiable]
fn scaled_total(x: &DMatrix<f64>) -> f64 {
    2.5 * x.sum()
}

#[test]
fn sum_spreads_the_gradient_evenly() {
    let x = DMatrix::from_row_slice(2, 2, &[3.0, 7.0, 2.0, 9.0]);
    let (s, dx) = total_grad(&x);
    assert_relative_eq!(s, 21.0, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    assert_relative_eq!(
        dx,
        DMatrix::repeat(2, 2, 1.0),
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );

    let (_, pullback) = scaled_total_vjp(&x);
    let (dx,) = pullback(2.0);
    assert_relative_eq!(
        dx,
        DMatrix::repeat(2, 2, 5.0),
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );
}

// ---------------------------------------------------------------------------
// 16.6: max routes the whole adjoint to one index; the first wins a tie.

#[differentiable]
fn largest(x: &DVector<f64>) -> f64 {
    x.max()
}

#[differentiable]
fn largest_entry(x: &DMatrix<f64>) -> f64 {
    x.max()
}

#[test]
fn max_routes_the_gradient_to_the_winner() {
    // Worked example 16.6.2: x = [3, 7, 2, 9] → [0, 0, 0, 1].
    let x = DVector::from_vec(vec![3.0, 7.0, 2.0, 9.0]);
    let (m, dx) = largest_grad(&x);
    assert_relative_eq!(m, 9.0, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let expected = DVector::from_vec(vec![0.0, 0.0, 0.0, 1.0]);
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);
}

#[test]
fn max_tie_goes_to_the_first_index_and_conserves_the_total() {
    // The chapter's common trap: x = [1, 5, 3, 5] → [0, 1, 0, 0], not
    // [0, 1, 0, 1] (which would invent gradient out of the tie).
    let x = DVector::from_vec(vec![1.0, 5.0, 3.0, 5.0]);
    let (m, dx) = largest_grad(&x);
    assert_relative_eq!(m, 5.0, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let expected = DVector::from_vec(vec![0.0, 1.0, 0.0, 0.0]);
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    // Total out = total in, for any seed.
    for seed in [1.0, 2.0, -0.75] {
        let (_, pullback) = largest_vjp(&x);
        let (dx,) = pullback(seed);
        assert_relative_eq!(
            dx.sum(),
            seed,
            epsilon = EXACT_ABS,
            max_relative = EXACT_REL
        );
        assert_relative_eq!(dx[1], seed, epsilon = EXACT_ABS, max_relative = EXACT_REL);
        assert_eq!(dx[3], 0.0, "the second 5 gets nothing");
    }

    // All negative, tied: the first of the two -1s.
    let x = DVector::from_vec(vec![-3.0, -1.0, -2.0, -1.0]);
    let (m, dx) = largest_grad(&x);
    assert_relative_eq!(m, -1.0, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let expected = DVector::from_vec(vec![0.0, 1.0, 0.0, 0.0]);
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);
}

#[test]
fn max_of_a_matrix_ties_in_storage_order() {
    // nalgebra stores column-major, so "first" is first down the columns:
    // in [[1, 5], [5, 2]] the 5 at (1, 0) comes before the 5 at (0, 1).
    let x = DMatrix::from_row_slice(2, 2, &[1.0, 5.0, 5.0, 2.0]);
    let (m, dx) = largest_entry_grad(&x);
    assert_relative_eq!(m, 5.0, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let expected = DMatrix::from_row_slice(2, 2, &[0.0, 0.0, 1.0, 0.0]);
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);
}

// ---------------------------------------------------------------------------
// 16.6: reshape and transpose undo, on the adjoint, what they did forward.

/// Reshape 2×6 → 3×4 (nalgebra's reshape keeps the column-major order).
#[differentiable]
fn reshape_to_3x4(x: DMatrix<f64>) -> DMatrix<f64> {
    x.reshape_generic(Dyn(3), Dyn(4))
}

/// 2×6 → 3×4 → 2×6: the identity.
#[differentiable]
fn reshape_round_trip(x: DMatrix<f64>) -> DMatrix<f64> {
    let y = x.reshape_generic(Dyn(3), Dyn(4));
    y.reshape_generic(Dyn(2), Dyn(6))
}

/// A reshape of a borrowed argument, weighted by a constant 3×4 matrix.
#[differentiable]
fn weighted_reshape(x: &DMatrix<f64>, #[constant] w: &DMatrix<f64>) -> f64 {
    let y = x.clone().reshape_generic(Dyn(3), Dyn(4));
    y.component_mul(w).sum()
}

#[test]
fn reshape_2x6_to_3x4_and_back() {
    // Chapter 13.3's twelve values 0..11.
    let values: Vec<f64> = (0..12).map(f64::from).collect();
    let x = DMatrix::from_row_slice(2, 6, &values);

    let (y, pullback) = reshape_to_3x4_vjp(x.clone());
    assert_eq!(y.shape(), (3, 4));
    // Column-major data unchanged: no value moved.
    assert_eq!(y.as_slice(), x.as_slice());
    let g = DMatrix::from_fn(3, 4, |i, j| 100.0 + (i + 3 * j) as f64);
    let (dx,) = pullback(g.clone());
    assert_eq!(dx.shape(), (2, 6));
    let expected = DMatrix::from_column_slice(2, 6, g.as_slice());
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    let (z, pullback) = reshape_round_trip_vjp(x.clone());
    assert_relative_eq!(z, x, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let g = DMatrix::from_fn(2, 6, |i, j| (i as f64) - 2.0 * (j as f64));
    let (dx,) = pullback(g.clone());
    assert_relative_eq!(dx, g, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    // d/dx Σ reshape(x) ∘ w = w reshaped back to 2×6: x's entry with
    // column-major index k meets w's entry with column-major index k.
    let w = DMatrix::from_fn(3, 4, |i, j| 1.0 + (i * 4 + j) as f64);
    let (v, dx) = weighted_reshape_grad(&x, &w);
    let expected_v: f64 = (0..12).map(|k| x.as_slice()[k] * w.as_slice()[k]).sum();
    assert_relative_eq!(v, expected_v, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let expected = DMatrix::from_fn(2, 6, |i, j| {
        let k = i + 2 * j;
        w[(k % 3, k / 3)]
    });
    assert_relative_eq!(dx, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);
}

#[differentiable]
fn transposed(a: &DMatrix<f64>) -> DMatrix<f64> {
    a.transpose()
}

#[differentiable]
fn transposed_twice(a: DMatrix<f64>) -> DMatrix<f64> {
    a.transpose().transpose()
}

/// Σ Aᵀ ∘ W for a constant W (3×2): dA = Wᵀ.
#[differentiable]
fn weighted_transpose(a: &DMatrix<f64>, #[constant] w: &DMatrix<f64>) -> f64 {
    a.transpose().component_mul(w).sum()
}

#[test]
fn transpose_transposes_the_gradient_back() {
    // Chapter 13.2: A = [[1,2,3],[4,5,6]].
    let a = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let (at, pullback) = transposed_vjp(&a);
    let expected_at = DMatrix::from_row_slice(3, 2, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
    assert_relative_eq!(
        at,
        expected_at,
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );
    let g = DMatrix::from_row_slice(3, 2, &[10.0, 20.0, 30.0, 40.0, 50.0, 60.0]);
    let (da,) = pullback(g);
    let expected = DMatrix::from_row_slice(2, 3, &[10.0, 30.0, 50.0, 20.0, 40.0, 60.0]);
    assert_relative_eq!(da, expected, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    let (a2, pullback) = transposed_twice_vjp(a.clone());
    assert_relative_eq!(a2, a, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    let g = DMatrix::from_row_slice(2, 3, &[1.0, -1.0, 2.0, -2.0, 3.0, -3.0]);
    let (da,) = pullback(g.clone());
    assert_relative_eq!(da, g, epsilon = EXACT_ABS, max_relative = EXACT_REL);

    let w = DMatrix::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let (v, da) = weighted_transpose_grad(&a, &w);
    // Σ Aᵀ∘W = 1·1 + 4·2 + 2·3 + 5·4 + 3·5 + 6·6.
    assert_relative_eq!(v, 86.0, epsilon = EXACT_ABS, max_relative = EXACT_REL);
    assert_relative_eq!(
        da,
        w.transpose(),
        epsilon = EXACT_ABS,
        max_relative = EXACT_REL
    );
}
