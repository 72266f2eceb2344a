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

mod activations;
mod arithmetic;
mod elementary;
mod real;

pub use activations::*;
pub use arithmetic::*;
pub use elementary::*;
pub use real::Real;
