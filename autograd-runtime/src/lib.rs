//! The runtime of autograd: derivative rules, the op registry, a dynamic
//! graph, solvers and gradient checks.
#![deny(missing_docs)]

pub mod prelude;
pub mod rules;

/// Passes `value` through unchanged; inside `#[differentiable]` code no
/// gradient flows back through it.
#[inline(always)]
pub fn stop_gradient<T>(value: T) -> T {
    value
}
