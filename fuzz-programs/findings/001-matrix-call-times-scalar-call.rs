//! Finding 001 (fuzz generator, matrix-returning callees): a matrix that a
//! call returns, multiplied or divided by a scalar that a call returns, does
//! not compile.
//!
//! Both operands are results of calls, whose types the macro cannot see
//! (`Kind::Unknown`). `binary_operand` (emit/forward.rs) wraps an unknown
//! operand in `operator_operand` only when the *other* operand is known to be
//! a matrix; with two unknowns both are passed by reference, and nalgebra has
//! no `&DMatrix<f64> * &f64`, `&DMatrix<f64> / &f64` nor `&f64 * &DMatrix<f64>`:
//!
//!     error[E0277]: cannot multiply `&Matrix<f64, Dyn, Dyn, ..>` by `&f64`
//!       --> (the `*` of `double(m) * sin(a)`)
//!
//! The primal compiles (`DMatrix<f64> * f64` by value). Found by the
//! generator at its default seed once functions returning matrices were added
//! (f285 of 300: `v0.clone() * (v7 + v6 + v3 + v2 + v1)` with `v0 = f22(..)`
//! a matrix and `v3`, `v6` scalar call results).
//!
//! Expected (closed form, checked by central differences, h = 1e-6): at
//! m = [[1, 3], [2, 4]] (column-major [1, 2, 3, 4]), a = 0.5,
//!   f = 2·sin(a)·Σm = 9.58851077208406,
//!   df/da = 2·cos(a)·Σm = 17.551651237807455 (FD 17.551651238179033),
//!   df/dm_ij = 2·sin(a) = 0.958851077208406 (FD 0.9588510785363269).
//! The macro gives: a compile error (the three functions below, one each).
//!
//! Status: fixed on main by 6c47d8b ("Two values of unknown type (a matrix
//! and a scalar from calls) meet in an operator through operator_operand"),
//! after this branch's first commits were merged; this branch does not have
//! the fix.
//!
//! The generator no longer avoids the shape (`FnGen::scale_factor` takes any
//! scalar), and `tests/trust.rs` keeps the program as a regression test.

use autograd::differentiable;
use nalgebra::DMatrix;

#[differentiable]
fn double(m: &DMatrix<f64>) -> DMatrix<f64> {
    m * 2.0
}

#[differentiable]
fn sin(x: f64) -> f64 {
    x.sin()
}

#[differentiable]
fn f(m: &DMatrix<f64>, a: f64) -> f64 {
    (double(m) * sin(a)).sum()
}

#[differentiable]
fn f_div(m: &DMatrix<f64>, a: f64) -> f64 {
    (double(m) / sin(a).exp()).sum()
}

#[differentiable]
fn f_left(m: &DMatrix<f64>, a: f64) -> f64 {
    (sin(a) * double(m)).sum()
}

#[test]
fn matrix_call_times_scalar_call() {
    let m = DMatrix::from_column_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let (value, dm, da) = f_grad(&m, 0.5);
    assert!((value - 9.58851077208406).abs() < 1e-12);
    assert!((da - 17.551651237807455).abs() < 1e-9);
    assert!(dm.iter().all(|d| (d - 0.958851077208406).abs() < 1e-12));
}
