//! The reverse sweep's buffer reuse on matrices: adjoints added in place
//! (`_acc`), an incoming adjoint's buffer taken by its last rule
//! (`_owned`), a sum's seed kept as one scalar until an element-wise map
//! takes it (`_broadcast`, in the mapped result's buffer), and forward
//! operands moved into the operation that last reads them. Each function
//! is checked against closed forms or central differences of the primal,
//! and its value against the primal's bit for bit.

mod matrix_support;

use autograd::differentiable;
use matrix_support::{
    FD_ABS, FD_REL, assert_close, assert_close_vec, fd_matrix, fd_vector, lcg_matrix, lcg_vector,
};
use nalgebra::{DMatrix, DVector};

const CLOSED_ABS: f64 = 1e-12;
const CLOSED_REL: f64 = 1e-12;

/// `Σ exp(W·x + b)`: the sum's seed goes straight into `exp`'s rule.
#[differentiable]
fn exp_layer(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (w * x + b).map(f64::exp).sum()
}

#[test]
fn a_sums_seed_reaches_the_map_as_a_scalar() {
    let w = lcg_matrix(3, 4, 1, -0.5, 0.5);
    let x = lcg_vector(4, 2, -1.0, 1.0);
    let b = lcg_vector(3, 3, -0.5, 0.5);
    let (value, dw, dx, db) = exp_layer_grad(&w, &x, &b);
    assert_eq!(value.to_bits(), exp_layer(&w, &x, &b).to_bits());
    // d = exp(W·x + b); dW = d·xᵀ, dx = Wᵀ·d, db = d.
    let d = (&w * &x + &b).map(f64::exp);
    assert_close_vec(&db, &d, CLOSED_ABS, CLOSED_REL, "db");
    let dw_closed = &d * x.transpose();
    assert_close(&dw, &dw_closed, CLOSED_ABS, CLOSED_REL, "dW");
    assert_close_vec(&dx, &(w.transpose() * &d), CLOSED_ABS, CLOSED_REL, "dx");
}

/// `Σ sigmoid(z)` and `Σ sqrt(z)`, through closures.
#[differentiable]
fn closures(z: &DMatrix<f64>) -> f64 {
    let s = (z * 2.0).map(|v| v.sqrt()).sum();
    let t = z.map(|v| v.sqrt()).sum();
    s + t
}

#[test]
fn closures_of_one_rule_take_the_scalar_seed_too() {
    let z = lcg_matrix(3, 2, 4, 0.5, 2.0);
    let (value, dz) = closures_grad(&z);
    assert_eq!(value.to_bits(), closures(&z).to_bits());
    // d/dz √(2z) = 1/√(2z), d/dz √z = 1/(2√z).
    let closed = z.map(|v| 1.0 / (2.0 * v).sqrt() + 0.5 / v.sqrt());
    assert_close(&dz, &closed, CLOSED_ABS, CLOSED_REL, "dz");
}

/// The map's operand receives another contribution first (from `z.sum()`,
/// later in the body), so the seed of `h.sum()` is broadcast after all and
/// the tanh adjoint is added into `z`'s in place.
#[differentiable]
fn shared_operand(w: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
    let z = w * x;
    let h = z.map(f64::tanh);
    let a = z.sum();
    let s = h.sum();
    s + 3.0 * a
}

#[test]
fn a_deferred_seed_is_broadcast_when_the_operand_already_has_an_adjoint() {
    let w = lcg_matrix(2, 3, 5, -0.5, 0.5);
    let x = lcg_matrix(3, 2, 6, -1.0, 1.0);
    let (value, dw, dx) = shared_operand_grad(&w, &x);
    assert_eq!(value.to_bits(), shared_operand(&w, &x).to_bits());
    // dZ = 1 − tanh²(Z) + 3; dW = dZ·Xᵀ, dX = Wᵀ·dZ.
    let dz = (&w * &x).map(|v| 1.0 - v.tanh() * v.tanh() + 3.0);
    assert_close(&dw, &(&dz * x.transpose()), CLOSED_ABS, CLOSED_REL, "dW");
    assert_close(&dx, &(w.transpose() * &dz), CLOSED_ABS, CLOSED_REL, "dX");
}

/// `x` is an operand of three products and a sum: its adjoint is created
/// by the first contribution and the rest are added in place.
#[differentiable]
fn reused(a: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
    let y = a * x + x;
    let p = x.transpose() * y.clone();
    let q = (-y).component_mul(x);
    p.map(f64::tanh).sum() + q.sum()
}

#[test]
fn contributions_to_one_adjoint_add_in_place() {
    let a = lcg_matrix(3, 3, 7, -0.5, 0.5);
    let x = lcg_matrix(3, 2, 8, -1.0, 1.0);
    let (value, da, dx) = reused_grad(&a, &x);
    assert_eq!(value.to_bits(), reused(&a, &x).to_bits());
    let fa = fd_matrix(|a| reused(a, &x), &a);
    let fx = fd_matrix(|x| reused(&a, x), &x);
    assert_close(&da, &fa, FD_ABS, FD_REL, "dA");
    assert_close(&dx, &fx, FD_ABS, FD_REL, "dX");
}

/// Operands moved in the forward sweep (`W·x` into `+ b`, that into `- c`
/// and the map), a vector transpose and a scalar factor.
#[differentiable]
fn chain(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>, c: f64) -> f64 {
    let z = w * x + b - x * c;
    let h = z.map(|v| v.sigmoid());
    let r = h.transpose() * b;
    r.sum() + 0.5 * h.sum()
}

use autograd::prelude::*;

#[test]
fn moved_operands_keep_values_and_gradients() {
    let w = lcg_matrix(3, 3, 9, -0.5, 0.5);
    let x = lcg_vector(3, 10, -1.0, 1.0);
    let b = lcg_vector(3, 11, -0.5, 0.5);
    let c = 0.75;
    let (value, dw, dx, db, dc) = chain_grad(&w, &x, &b, c);
    assert_eq!(value.to_bits(), chain(&w, &x, &b, c).to_bits());
    let fw = fd_matrix(|w| chain(w, &x, &b, c), &w);
    let fx = fd_vector(|x| chain(&w, x, &b, c), &x);
    let fb = fd_vector(|b| chain(&w, &x, b, c), &b);
    assert_close(&dw, &fw, FD_ABS, FD_REL, "dW");
    assert_close_vec(&dx, &fx, FD_ABS, FD_REL, "dx");
    assert_close_vec(&db, &fb, FD_ABS, FD_REL, "db");
    let h = 1e-5;
    let fc = (chain(&w, &x, &b, c + h) - chain(&w, &x, &b, c - h)) / (2.0 * h);
    assert!((dc - fc).abs() <= 1e-7, "dc: got {dc}, expected {fc}");
    assert!(chain_check(&w, &x, &b, c).is_within(1e-7, 1e-6));
}

/// A closure of several operations: its pullback runs per element, into
/// the incoming adjoint's buffer or added into `z`'s adjoint in place.
#[differentiable]
fn compiled_closure(w: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
    let z = w * x;
    let h = z.map(|v| v * v + v.exp());
    let a = z.sum();
    let s = h.map(|v| v.sin() * 2.0).sum();
    s + a
}

#[test]
fn compiled_closures_accumulate_in_place() {
    let w = lcg_matrix(2, 3, 12, -0.5, 0.5);
    let x = lcg_matrix(3, 2, 13, -1.0, 1.0);
    let (value, dw, dx) = compiled_closure_grad(&w, &x);
    assert_eq!(value.to_bits(), compiled_closure(&w, &x).to_bits());
    // dZ = 2·cos(h)·(2z + eᶻ) + 1 with h = z² + eᶻ.
    let dz = (&w * &x).map(|z| {
        let h = z * z + z.exp();
        2.0 * h.cos() * (2.0 * z + z.exp()) + 1.0
    });
    assert_close(&dw, &(&dz * x.transpose()), CLOSED_ABS, CLOSED_REL, "dW");
    assert_close(&dx, &(w.transpose() * &dz), CLOSED_ABS, CLOSED_REL, "dX");
}

/// `p - b` with `p` a local and `b` an argument: `p`'s adjoint borrows the
/// difference's (d(p−b)/dp = 1) and is added into `x`'s in place, while
/// `b`'s takes (and negates) the difference's buffer at the end.
#[differentiable]
fn lent_difference(x: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    let p = x.component_mul(x);
    let q = p - b;
    q.map(f64::exp).sum() + x.sum()
}

#[test]
fn a_lent_adjoint_is_read_in_place() {
    let x = lcg_matrix(3, 2, 14, -1.0, 1.0);
    let b = lcg_matrix(3, 2, 15, -0.5, 0.5);
    let (value, dx, db) = lent_difference_grad(&x, &b);
    assert_eq!(value.to_bits(), lent_difference(&x, &b).to_bits());
    // e = exp(x² − b): dx = 2x·e + 1, db = −e.
    let e = x.zip_map(&b, |x, b| (x * x - b).exp());
    let dx_closed = x.zip_map(&e, |x, e| 2.0 * x * e + 1.0);
    assert_close(&dx, &dx_closed, CLOSED_ABS, CLOSED_REL, "dx");
    assert_close(&db, &(-&e), CLOSED_ABS, CLOSED_REL, "db");
}

/// Two lent sums in a row, through a transpose and a map.
#[differentiable]
fn lent_chain(w: &DMatrix<f64>, x: &DMatrix<f64>, b: &DMatrix<f64>, c: &DMatrix<f64>) -> f64 {
    let e = (w * x).map(f64::exp) - b;
    let f = e.transpose() + c;
    f.map(f64::tanh).sum()
}

#[test]
fn lent_adjoints_chain_through_rules() {
    let w = lcg_matrix(2, 3, 16, -0.5, 0.5);
    let x = lcg_matrix(3, 4, 17, -1.0, 1.0);
    let b = lcg_matrix(2, 4, 18, -0.5, 0.5);
    let c = lcg_matrix(4, 2, 19, -0.5, 0.5);
    let (value, dw, dx, db, dc) = lent_chain_grad(&w, &x, &b, &c);
    assert_eq!(value.to_bits(), lent_chain(&w, &x, &b, &c).to_bits());
    let fw = fd_matrix(|w| lent_chain(w, &x, &b, &c), &w);
    let fx = fd_matrix(|x| lent_chain(&w, x, &b, &c), &x);
    let fb = fd_matrix(|b| lent_chain(&w, &x, b, &c), &b);
    let fc = fd_matrix(|c| lent_chain(&w, &x, &b, c), &c);
    assert_close(&dw, &fw, FD_ABS, FD_REL, "dW");
    assert_close(&dx, &fx, FD_ABS, FD_REL, "dX");
    assert_close(&db, &fb, FD_ABS, FD_REL, "dB");
    assert_close(&dc, &fc, FD_ABS, FD_REL, "dC");
}
