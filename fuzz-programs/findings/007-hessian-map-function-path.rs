//! Finding 007 (seed 31337 (0x7a69), chunk 0 of the long run on the
//! generator's branch: f369, f441, f442, f624, every matrix `hessian`
//! program whose map is `z.map(f64::tanh)`): a function path passed to
//! `map` in a `#[differentiable(hessian)]` function does not compile:
//!
//!     error: `map` takes a closure `|v| ...` or a function path such as `f64::exp`
//!       --> #[differentiable(hessian)]
//!
//! README ("Second order", matrix arguments) documents `map(f64::tanh)`;
//! the same body compiles without `hessian`, and `map(|v| v.tanh())`
//! compiles with it.
//!
//! Cause: the second-order twin is the body made generic over its scalar
//! (`Generic` in autograd-macros/src/hessian.rs); it rewrites `f64::exp(x)`
//! calls into the scalar's method but took a bare `f64::tanh` path for a
//! constant such as `f64::EPSILON`, which `map` then rejected.
//!
//! Status: fixed as a class: a float function path passed to any method
//! (`map`, an iterator's `map`) is the scalar's method in the twin, as in
//! a call. Test: tests/hessian_map_paths.rs (`_hvp` against central
//! differences of `_grad`, `_hessian` symmetric and equal to `_hvp`).
//! Also found in the same chunk: f374, a generator bug (an untyped float
//! local whose `tanh` was ambiguous), fixed in build/fields.rs.

use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

#[differentiable(hessian)]
fn f(w: &DMatrix<f64>, x: &DVector<f64>) -> f64 {
    (w * x).map(f64::tanh).sum()
}
