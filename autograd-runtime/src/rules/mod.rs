//! The derivative rules, each written once.
//!
//! Every rule is a forward function and one backward function per
//! differentiable input, named `NAME_grad` (one input) or
//! `NAME_grad_lhs` / `NAME_grad_rhs` (two inputs). A backward function takes
//! the adjoint arriving at the output (`grad`) followed by exactly the primal
//! values its formula reads, so a caller keeps only those alive. The code
//! `#[differentiable]` generates calls these functions directly, and the
//! registry and the dynamic graph call them too: there is no second copy of
//! any rule.
//!
//! The scalar rules below are generic over [`Real`] (`f32`, `f64`). The
//! rules for `nalgebra::DMatrix<f64>` live in one module per family, so
//! their names can match the scalar ones without clashing:
//!
//! - [`elementwise`]: every element-wise scalar rule lifted to matrices,
//!   applying the scalar rule per element;
//! - [`linalg`]: the matrix product;
//! - [`reductions`]: `sum` and `max` (with its winning index);
//! - [`shape`]: `reshape` and `transpose`.

mod activations;
mod arithmetic;
mod elementary;
pub mod elementwise;
pub mod generic;
pub mod linalg;
mod real;
pub mod reductions;
pub mod shape;

pub use activations::*;
pub use arithmetic::*;
pub use elementary::*;
pub use real::Real;
