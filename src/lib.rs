//! Reverse-mode automatic differentiation at compile time.
//!
//! Put `#[differentiable]` on an ordinary numeric function and get
//! `NAME_grad` (value and gradient) and `NAME_vjp` (value and pullback),
//! built from straight-line adjoint code the macro writes.

pub use autograd_macros::differentiable;
pub use autograd_runtime::*;

/// Paths the generated code uses. Not part of the public API.
#[doc(hidden)]
pub mod __private {
    pub use autograd_runtime::rules;
    pub use core::option::Option;
}
