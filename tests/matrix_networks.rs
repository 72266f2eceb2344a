//! Small networks through `#[differentiable]`: a two-layer network's loss
//! on a batch (mean squared error and logistic loss) and a three-step
//! recurrence `h = tanh(W·h + x_t)` written as a loop, each against
//! central finite differences of every weight.
//!
//! Two references: `NAME_check` (the runtime's central differences, asserted
//! with `is_within`) and the five-point differences of `matrix_support`,
//! entry by entry.

mod matrix_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use matrix_support::{
    FD_ABS, FD_REL, assert_close, assert_close_vec, fd, fd_matrix, fd_vector, lcg_matrix,
    lcg_vector,
};
use nalgebra::{DMatrix, DVector};

/// `NAME_check` tolerances: its step `∛ε·max(1, |x|)` leaves a truncation
/// error of order `h²·|f'''| ≈ 4·10⁻¹¹·|f'''|` and a rounding error of order
/// `ε·|f|/h ≈ 4·10⁻¹¹·|f|`.
const CHECK_ABS: f64 = 1e-7;
const CHECK_REL: f64 = 1e-6;

// ---------------------------------------------------------------------------
// Two-layer network on a batch: X (8×3) → tanh(X·W1 + 1·b1) (8×5) → ·W2 + b2.
// `ones` (8×1) broadcasts the bias rows over the batch as a matrix product.

/// Mean squared error of the network's output against `y`.
#[differentiable]
fn mse_loss(
    w1: &DMatrix<f64>,
    b1: &DMatrix<f64>,
    w2: &DMatrix<f64>,
    b2: f64,
    #[constant] x: &DMatrix<f64>,
    #[constant] y: &DMatrix<f64>,
    #[constant] ones: &DMatrix<f64>,
) -> f64 {
    // The batch size as Σ 1 (`x.nrows()` is not accepted in a body).
    let n = ones.sum();
    let h = (x * w1 + ones * b1).map(f64::tanh);
    let out = h * w2 + ones * b2;
    let r = out - y;
    r.component_mul(&r).sum() / n
}

/// Logistic loss, mean over the batch of softplus(z) - y·z, with softplus
/// written stably as max(z, 0) + ln(1 + e^-|z|).
#[differentiable]
fn logistic_loss(
    w1: &DMatrix<f64>,
    b1: &DMatrix<f64>,
    w2: &DMatrix<f64>,
    b2: f64,
    #[constant] x: &DMatrix<f64>,
    #[constant] y: &DMatrix<f64>,
    #[constant] ones: &DMatrix<f64>,
) -> f64 {
    let h = (x * w1 + ones * b1).map(|v| v.tanh());
    let z = h * w2 + ones * b2;
    let softplus = z.map(|v| v.max(0.0) + (1.0 + (-v.abs()).exp()).ln());
    (softplus - y.component_mul(&z)).sum() / ones.sum()
}

struct Batch {
    w1: DMatrix<f64>,
    b1: DMatrix<f64>,
    w2: DMatrix<f64>,
    b2: f64,
    x: DMatrix<f64>,
    y: DMatrix<f64>,
    ones: DMatrix<f64>,
}

fn batch() -> Batch {
    let x = lcg_matrix(8, 3, 21, -1.0, 1.0);
    // Labels 0/1 from a fixed rule on the inputs.
    let y = DMatrix::from_fn(8, 1, |i, _| {
        if x[(i, 0)] + 0.5 * x[(i, 1)] - x[(i, 2)] > 0.0 {
            1.0
        } else {
            0.0
        }
    });
    Batch {
        w1: lcg_matrix(3, 5, 22, -0.9, 0.9),
        b1: lcg_matrix(1, 5, 23, -0.3, 0.3),
        w2: lcg_matrix(5, 1, 24, -0.9, 0.9),
        b2: 0.15,
        x,
        y,
        ones: DMatrix::repeat(8, 1, 1.0),
    }
}

type Loss = fn(
    &DMatrix<f64>,
    &DMatrix<f64>,
    &DMatrix<f64>,
    f64,
    &DMatrix<f64>,
    &DMatrix<f64>,
    &DMatrix<f64>,
) -> f64;

/// Compares the four adjoints with five-point differences of `loss`,
/// every entry of every weight.
fn assert_matches_fd(
    loss: Loss,
    p: &Batch,
    (dw1, db1, dw2, db2): (&DMatrix<f64>, &DMatrix<f64>, &DMatrix<f64>, f64),
) {
    let (x, y, ones) = (&p.x, &p.y, &p.ones);
    let fd_w1 = fd_matrix(|w1| loss(w1, &p.b1, &p.w2, p.b2, x, y, ones), &p.w1);
    let fd_b1 = fd_matrix(|b1| loss(&p.w1, b1, &p.w2, p.b2, x, y, ones), &p.b1);
    let fd_w2 = fd_matrix(|w2| loss(&p.w1, &p.b1, w2, p.b2, x, y, ones), &p.w2);
    let fd_b2 = fd(|b2| loss(&p.w1, &p.b1, &p.w2, b2, x, y, ones), p.b2);
    assert_close(dw1, &fd_w1, FD_ABS, FD_REL, "dW1");
    assert_close(db1, &fd_b1, FD_ABS, FD_REL, "db1");
    assert_close(dw2, &fd_w2, FD_ABS, FD_REL, "dW2");
    assert_relative_eq!(db2, fd_b2, epsilon = FD_ABS, max_relative = FD_REL);
}

#[test]
fn two_layer_mse_loss_against_finite_differences() {
    let p = batch();
    let (l, dw1, db1, dw2, db2) = mse_loss_grad(&p.w1, &p.b1, &p.w2, p.b2, &p.x, &p.y, &p.ones);
    assert_eq!(
        l,
        mse_loss(&p.w1, &p.b1, &p.w2, p.b2, &p.x, &p.y, &p.ones),
        "value bit for bit"
    );
    assert_eq!(dw1.shape(), (3, 5));
    assert_eq!(db1.shape(), (1, 5));
    assert_eq!(dw2.shape(), (5, 1));

    let check = mse_loss_check(&p.w1, &p.b1, &p.w2, p.b2, &p.x, &p.y, &p.ones);
    assert!(check.is_within(CHECK_ABS, CHECK_REL), "{check}");
    // 15 + 5 + 5 + 1 weights, and nothing for the constants.
    assert_eq!(check.components().len(), 26, "{check}");

    assert_matches_fd(mse_loss, &p, (&dw1, &db1, &dw2, db2));

    // A few entries against the closed form of the output layer:
    // dL/dW2 = (2/n)·Hᵀ·r, dL/db2 = (2/n)·Σ r.
    let h = (&p.x * &p.w1 + &p.ones * &p.b1).map(f64::tanh);
    let r = &h * &p.w2 + &p.ones * p.b2 - &p.y;
    let expected_dw2 = h.transpose() * &r * (2.0 / 8.0);
    assert_close(&dw2, &expected_dw2, 1e-13, 1e-12, "dW2 closed form");
    assert_relative_eq!(
        db2,
        r.sum() * 2.0 / 8.0,
        epsilon = 1e-13,
        max_relative = 1e-12
    );
}

#[test]
fn two_layer_logistic_loss_against_finite_differences() {
    let p = batch();
    let (l, dw1, db1, dw2, db2) =
        logistic_loss_grad(&p.w1, &p.b1, &p.w2, p.b2, &p.x, &p.y, &p.ones);
    assert_eq!(
        l,
        logistic_loss(&p.w1, &p.b1, &p.w2, p.b2, &p.x, &p.y, &p.ones),
        "value bit for bit"
    );
    let check = logistic_loss_check(&p.w1, &p.b1, &p.w2, p.b2, &p.x, &p.y, &p.ones);
    assert!(check.is_within(CHECK_ABS, CHECK_REL), "{check}");
    assert_eq!(check.components().len(), 26, "{check}");

    assert_matches_fd(logistic_loss, &p, (&dw1, &db1, &dw2, db2));

    // dL/dz = (σ(z) - y)/n, so dL/db2 = Σ(σ(z) - y)/n.
    let h = (&p.x * &p.w1 + &p.ones * &p.b1).map(f64::tanh);
    let z = &h * &p.w2 + &p.ones * p.b2;
    let dz = DMatrix::from_fn(8, 1, |i, _| {
        (1.0 / (1.0 + (-z[(i, 0)]).exp()) - p.y[(i, 0)]) / 8.0
    });
    assert_relative_eq!(db2, dz.sum(), epsilon = 1e-13, max_relative = 1e-12);
    assert_close(
        &dw2,
        &(h.transpose() * &dz),
        1e-13,
        1e-12,
        "dW2 closed form",
    );
}

// ---------------------------------------------------------------------------
// A loop of matrix operations: three steps of h = tanh(W·h + x_t).

/// x_t is column t of `xs`, taken as `xs·e₀` while `xs` shifts one column
/// left per step (`xs·S`): every step's input stays differentiable.
#[differentiable]
fn recurrence(
    w: &DMatrix<f64>,
    h0: &DVector<f64>,
    xs: &DMatrix<f64>,
    #[constant] first: &DVector<f64>,
    #[constant] shift: &DMatrix<f64>,
) -> f64 {
    let mut h = h0.clone();
    let mut rest = xs.clone();
    for _ in 0..3 {
        h = (w * h + rest.clone() * first).map(f64::tanh);
        rest *= shift;
    }
    h.sum()
}

/// The same recurrence with the three inputs as separate vectors, picked
/// per step with `if`/`else`, and a weighted read-out.
#[differentiable]
fn recurrence_args(
    w: &DMatrix<f64>,
    h0: &DVector<f64>,
    x0: &DVector<f64>,
    x1: &DVector<f64>,
    x2: &DVector<f64>,
    #[constant] v: &DVector<f64>,
) -> f64 {
    let mut h = h0.clone();
    for t in 0..3 {
        let xt = if t == 0 {
            x0.clone()
        } else if t == 1 {
            x1.clone()
        } else {
            x2.clone()
        };
        h = (w * h + xt).map(|u| u.tanh());
    }
    v.component_mul(&h).sum()
}

/// The recurrence unrolled by hand in plain nalgebra: the reference value.
fn unrolled(w: &DMatrix<f64>, h0: &DVector<f64>, xs: [&DVector<f64>; 3]) -> DVector<f64> {
    let mut h = h0.clone();
    for x in xs {
        h = (w * &h + x).map(f64::tanh);
    }
    h
}

#[test]
fn recurrence_over_columns_against_finite_differences() {
    let n = 3;
    let w = lcg_matrix(n, n, 31, -0.8, 0.8);
    let h0 = lcg_vector(n, 32, -0.5, 0.5);
    let xs = lcg_matrix(n, 3, 33, -1.0, 1.0);
    let first = DVector::from_vec(vec![1.0, 0.0, 0.0]);
    // Column j of xs·S is column j+1 of xs (the last becomes zero).
    let shift = DMatrix::from_fn(3, 3, |i, j| if i == j + 1 { 1.0 } else { 0.0 });

    let (l, dw, dh0, dxs) = recurrence_grad(&w, &h0, &xs, &first, &shift);
    let cols: Vec<DVector<f64>> = (0..3).map(|t| xs.column(t).into_owned()).collect();
    let reference = unrolled(&w, &h0, [&cols[0], &cols[1], &cols[2]]).sum();
    assert_relative_eq!(l, reference, epsilon = 1e-14, max_relative = 1e-14);

    let check = recurrence_check(&w, &h0, &xs, &first, &shift);
    assert!(check.is_within(CHECK_ABS, CHECK_REL), "{check}");
    assert_eq!(check.components().len(), 9 + 3 + 9, "{check}");

    let f = |w: &DMatrix<f64>, h0: &DVector<f64>, xs: &DMatrix<f64>| {
        let cols: Vec<DVector<f64>> = (0..3).map(|t| xs.column(t).into_owned()).collect();
        unrolled(w, h0, [&cols[0], &cols[1], &cols[2]]).sum()
    };
    assert_close(
        &dw,
        &fd_matrix(|w| f(w, &h0, &xs), &w),
        FD_ABS,
        FD_REL,
        "dW",
    );
    assert_close_vec(
        &dh0,
        &fd_vector(|h0| f(&w, h0, &xs), &h0),
        FD_ABS,
        FD_REL,
        "dh0",
    );
    assert_close(
        &dxs,
        &fd_matrix(|xs| f(&w, &h0, xs), &xs),
        FD_ABS,
        FD_REL,
        "dxs",
    );

    // The last step's input enters once, right before the read-out:
    // d/dx₂ Σ tanh(W·h₂ + x₂) = 1 - h₃².
    let h3 = unrolled(&w, &h0, [&cols[0], &cols[1], &cols[2]]);
    let expected_dx2 = h3.map(|v| 1.0 - v * v);
    assert_close_vec(
        &dxs.column(2).into_owned(),
        &expected_dx2,
        1e-14,
        1e-13,
        "dx2 closed form",
    );
}

#[test]
fn recurrence_over_separate_vectors_against_finite_differences() {
    let n = 4;
    let w = lcg_matrix(n, n, 41, -0.7, 0.7);
    let h0 = lcg_vector(n, 42, -0.5, 0.5);
    let x0 = lcg_vector(n, 43, -1.0, 1.0);
    let x1 = lcg_vector(n, 44, -1.0, 1.0);
    let x2 = lcg_vector(n, 45, -1.0, 1.0);
    let v = DVector::from_vec(vec![1.0, -0.5, 2.0, 0.25]);

    let (l, dw, dh0, dx0, dx1, dx2) = recurrence_args_grad(&w, &h0, &x0, &x1, &x2, &v);
    let f =
        |w: &DMatrix<f64>, h0: &DVector<f64>, xs: [&DVector<f64>; 3]| v.dot(&unrolled(w, h0, xs));
    assert_relative_eq!(
        l,
        f(&w, &h0, [&x0, &x1, &x2]),
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    let check = recurrence_args_check(&w, &h0, &x0, &x1, &x2, &v);
    assert!(check.is_within(CHECK_ABS, CHECK_REL), "{check}");

    assert_close(
        &dw,
        &fd_matrix(|w| f(w, &h0, [&x0, &x1, &x2]), &w),
        FD_ABS,
        FD_REL,
        "dW",
    );
    assert_close_vec(
        &dh0,
        &fd_vector(|h0| f(&w, h0, [&x0, &x1, &x2]), &h0),
        FD_ABS,
        FD_REL,
        "dh0",
    );
    assert_close_vec(
        &dx0,
        &fd_vector(|x| f(&w, &h0, [x, &x1, &x2]), &x0),
        FD_ABS,
        FD_REL,
        "dx0",
    );
    assert_close_vec(
        &dx1,
        &fd_vector(|x| f(&w, &h0, [&x0, x, &x2]), &x1),
        FD_ABS,
        FD_REL,
        "dx1",
    );
    assert_close_vec(
        &dx2,
        &fd_vector(|x| f(&w, &h0, [&x0, &x1, x]), &x2),
        FD_ABS,
        FD_REL,
        "dx2",
    );
}
