//! The in-place forms of the dispatched rules (`_acc`, `_owned`) give what
//! the by-value form gives: `acc + rule(..)` and `rule(..)`, for every
//! storage the generated code meets.

use autograd_runtime::rules::generic as g;
use nalgebra::{DMatrix, DVector, Matrix1, RowDVector};

fn m(r: usize, c: usize, seed: f64) -> DMatrix<f64> {
    DMatrix::from_fn(r, c, |i, j| ((i * 7 + j * 3) as f64 * 0.37 + seed).sin())
}

fn close<T: AsRef<[f64]>>(a: T, b: T) {
    let (a, b) = (a.as_ref(), b.as_ref());
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= 1e-12 * (1.0 + y.abs()), "{x} vs {y}");
    }
}

/// Checks `_acc` against `acc + by_value` and `_owned` against `by_value`
/// for one binary rule at one pair of operands.
macro_rules! check_binary {
    ($lhs:ident, $rhs:ident, $a:expr, $b:expr) => {{
        let (a, b) = ($a, $b);
        let out = &a * &b;
        let grad = out.map(|v| 0.5 - v);
        let da = g::$lhs(&grad, &a, &b);
        let db = g::$rhs(&grad, &a, &b);
        let mut acc_a = a.map(|v| v * 0.25);
        let expected_a = &acc_a + &da;
        in_place::$lhs(&mut acc_a, &grad, &a, &b);
        close(acc_a.as_slice(), expected_a.as_slice());
        let mut acc_b = b.map(|v| v * 0.25);
        let expected_b = &acc_b + &db;
        in_place::$rhs(&mut acc_b, &grad, &a, &b);
        close(acc_b.as_slice(), expected_b.as_slice());
        close(owned::$lhs(grad.clone(), &a, &b).as_slice(), da.as_slice());
        close(owned::$rhs(grad.clone(), &a, &b).as_slice(), db.as_slice());
    }};
}

macro_rules! paste_checks {
    ($lhs:ident, $rhs:ident, $a:ident, $b:ident, $out:ident, $grad:ident, $da:ident, $db:ident) => {{
        // Accumulating into a nonzero adjoint.
        let mut acc_a = $a.map(|v| v * 0.25);
        let expected_a = &acc_a + &$da;
        in_place::$lhs(&mut acc_a, &$grad, &$a, &$b, &$out);
        close(acc_a.as_slice(), expected_a.as_slice());
        let mut acc_b = $b.map(|v| v * 0.25);
        let expected_b = &acc_b + &$db;
        in_place::$rhs(&mut acc_b, &$grad, &$a, &$b, &$out);
        close(acc_b.as_slice(), expected_b.as_slice());
        // Taking the incoming adjoint by value.
        close(
            owned::$lhs($grad.clone(), &$a, &$b, &$out).as_slice(),
            $da.as_slice(),
        );
        close(
            owned::$rhs($grad.clone(), &$a, &$b, &$out).as_slice(),
            $db.as_slice(),
        );
    }};
}

mod in_place {
    pub use autograd_runtime::rules::generic::{
        component_div_grad_lhs_acc as component_div_grad_lhs,
        component_div_grad_rhs_acc as component_div_grad_rhs,
        component_mul_grad_lhs_acc as component_mul_grad_lhs,
        component_mul_grad_rhs_acc as component_mul_grad_rhs, mul_grad_lhs_acc as mul_grad_lhs,
        mul_grad_rhs_acc as mul_grad_rhs,
    };
}

mod owned {
    pub use autograd_runtime::rules::generic::{
        component_div_grad_lhs_owned as component_div_grad_lhs,
        component_div_grad_rhs_owned as component_div_grad_rhs,
        component_mul_grad_lhs_owned as component_mul_grad_lhs,
        component_mul_grad_rhs_owned as component_mul_grad_rhs, mul_grad_lhs_owned as mul_grad_lhs,
        mul_grad_rhs_owned as mul_grad_rhs,
    };
}

#[test]
fn matrix_products_in_place_match_the_by_value_rules() {
    check_binary!(mul_grad_lhs, mul_grad_rhs, m(3, 4, 0.1), m(4, 2, 0.2));
    check_binary!(
        mul_grad_lhs,
        mul_grad_rhs,
        m(3, 4, 0.3),
        DVector::from_fn(4, |i, _| i as f64 - 1.5)
    );
    check_binary!(
        mul_grad_lhs,
        mul_grad_rhs,
        RowDVector::from_fn(3, |_, j| j as f64 + 0.5),
        m(3, 4, 0.4)
    );
    check_binary!(
        mul_grad_lhs,
        mul_grad_rhs,
        DVector::from_fn(3, |i, _| i as f64 - 0.5),
        RowDVector::from_fn(2, |_, j| 2.0 - j as f64)
    );
    check_binary!(
        mul_grad_lhs,
        mul_grad_rhs,
        RowDVector::from_fn(3, |_, j| j as f64 + 0.5),
        DVector::from_fn(3, |i, _| 1.0 - i as f64)
    );
}

#[test]
fn matrix_product_adjoints_are_the_closed_forms() {
    let (w, x) = (
        m(3, 4, 0.7),
        DVector::from_fn(4, |i, _| i as f64 * 0.3 - 0.4),
    );
    let out = &w * &x;
    let grad = DVector::from_fn(3, |i, _| 1.0 + i as f64);
    let dw: DMatrix<f64> = g::mul_grad_lhs(&grad, &w, &x);
    let dx: DVector<f64> = g::mul_grad_rhs(&grad, &w, &x);
    assert_eq!(out.len(), 3);
    close(dw.as_slice(), (&grad * x.transpose()).as_slice());
    close(dx.as_slice(), (w.transpose() * &grad).as_slice());
}

#[test]
fn elementwise_rules_in_place_match_the_by_value_rules() {
    macro_rules! elementwise {
        ($lhs:ident, $rhs:ident, $a:expr, $b:expr) => {{
            let (a, b) = ($a, $b);
            let out = a.component_mul(&b) + &a;
            let grad = out.map(|v| 0.5 - v);
            let da = g::$lhs(&grad, &a, &b, &out);
            let db = g::$rhs(&grad, &a, &b, &out);
            paste_checks!($lhs, $rhs, a, b, out, grad, da, db);
        }};
    }
    // The pass-through rules read no operand.
    let grad = m(2, 3, 0.9);
    let base = m(2, 3, 0.1);
    let mut acc = base.clone();
    g::sub_grad_rhs_acc(&mut acc, &grad);
    close(acc.as_slice(), (&base - &grad).as_slice());
    close(
        g::sub_grad_rhs_owned(grad.clone()).as_slice(),
        (-&grad).as_slice(),
    );
    close(
        g::add_grad_lhs_owned(grad.clone()).as_slice(),
        grad.as_slice(),
    );
    elementwise!(
        component_mul_grad_lhs,
        component_mul_grad_rhs,
        DVector::from_fn(4, |i, _| i as f64 - 1.5),
        DVector::from_fn(4, |i, _| 0.5 + i as f64)
    );
    elementwise!(
        component_div_grad_lhs,
        component_div_grad_rhs,
        m(3, 2, 0.2),
        m(3, 2, 2.0).add_scalar(3.0)
    );
}

#[test]
fn unary_and_mapped_rules_in_place_match_the_by_value_rules() {
    let x = DVector::from_fn(5, |i, _| i as f64 * 0.4 - 1.0);
    let y = x.map(f64::tanh);
    let grad = DVector::from_fn(5, |i, _| 1.0 - 0.3 * i as f64);
    let base = x.map(|v| v * 0.5);

    let dx = g::map_tanh_grad(&grad, &y);
    let mut acc = base.clone();
    g::map_tanh_grad_acc(&mut acc, &grad, &y);
    close(acc.as_slice(), (&base + &dx).as_slice());
    close(
        g::map_tanh_grad_owned(grad.clone(), &y).as_slice(),
        dx.as_slice(),
    );
    let closed: Vec<f64> = (0..5).map(|i| grad[i] * (1.0 - y[i] * y[i])).collect();
    close(dx.as_slice(), &closed[..]);

    let r = x.map(|v| v.max(0.0));
    let dx = g::relu_grad(&grad, &x, &r);
    let mut acc = base.clone();
    g::relu_grad_acc(&mut acc, &grad, &x, &r);
    close(acc.as_slice(), (&base + &dx).as_slice());
    close(
        g::relu_grad_owned(grad.clone(), &x, &r).as_slice(),
        dx.as_slice(),
    );

    let n = -&x;
    let dx = g::neg_grad(&grad, &x, &n);
    close(
        g::neg_grad_owned(grad.clone(), &x, &n).as_slice(),
        dx.as_slice(),
    );

    // The sum's scalar seed, broadcast or added in place.
    let s = x.sum();
    let dx: DVector<f64> = g::sum_grad(&2.5, &x, &s);
    close(dx.as_slice(), &[2.5; 5]);
    let mut acc = base.clone();
    g::sum_grad_acc(&mut acc, &2.5, &x, &s);
    close(acc.as_slice(), base.add_scalar(2.5).as_slice());

    // The largest element takes the whole seed.
    let (mx, _) = autograd_runtime::rules::reductions::max(&x);
    let mut acc = base.clone();
    g::max_element_grad_acc(&mut acc, &2.0, &x, &mx);
    let mut expected = base.clone();
    expected[4] += 2.0;
    close(acc.as_slice(), expected.as_slice());

    // Transposes, of a vector and of a matrix.
    let t = x.transpose();
    let gt = RowDVector::from_fn(5, |_, j| j as f64);
    let dx: DVector<f64> = g::transpose_grad(&gt, &x, &t);
    close(dx.as_slice(), gt.as_slice());
    close(
        g::transpose_grad_owned(gt.clone(), &x, &t).as_slice(),
        gt.as_slice(),
    );
    let mut acc = base.clone();
    g::transpose_grad_acc(&mut acc, &gt, &x, &t);
    close(acc.as_slice(), (&base + &dx).as_slice());
    let a = m(2, 3, 0.5);
    let ga = m(3, 2, 0.8);
    let mut acc = a.clone();
    g::transpose_grad_acc(&mut acc, &ga, &a, &a.transpose());
    close(acc.as_slice(), (&a + ga.transpose()).as_slice());

    // A 1×1 product adjoint accumulates too.
    let one = Matrix1::new(0.5);
    let mut acc = Matrix1::new(1.0);
    g::add_grad_lhs_acc(&mut acc, &one);
    assert_eq!(acc[0], 1.5);
}

#[test]
fn the_lent_left_adjoints_are_the_rules_values() {
    // `add_grad_lhs_ref` and `sub_grad_lhs_ref` stand for rules that are
    // the identity; check that they are, on every element.
    let grad = m(3, 2, 0.6);
    assert_eq!(g::add_grad_lhs_ref(&grad), &g::add_grad_lhs(&grad));
    assert_eq!(g::sub_grad_lhs_ref(&grad), &g::sub_grad_lhs(&grad));
    for v in [-2.5, 0.0, -0.0, 1e300, f64::NAN] {
        let (a, b) = (
            autograd_runtime::rules::add_grad_lhs(v),
            autograd_runtime::rules::sub_grad_lhs(v),
        );
        assert_eq!(a.to_bits(), v.to_bits());
        assert_eq!(b.to_bits(), v.to_bits());
    }
}
