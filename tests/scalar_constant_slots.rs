//! A caller's active value passed into a callee's `#[constant]` argument.
//!
//! The callee's `_vjp` has no adjoint slot for a constant argument, so the
//! caller gets nothing back for it. When the value passed there depends on
//! the caller's differentiable arguments, the caller's derivative silently
//! misses that route: known macro bug, kept as an ignored test. (A fix
//! may instead make this a compile error, in which case this file belongs
//! in the UI suite.)
//!
//! Reproduction:
//!
//! ```ignore
//! #[differentiable]
//! fn with_constant(x: f64, #[constant] k: f64, y: f64) -> f64 { k * x * y + k.sin() * x }
//! #[differentiable]
//! fn leak(x: f64, y: f64) -> f64 { with_constant(x, y, 1.0) }
//! // leak(x, y) = y·x + sin(y)·x, so ∂/∂y = x + cos(y)·x ≈ 0.887 at (0.7, -1.3),
//! // but leak_grad(0.7, -1.3) returns 0.0 for it.
//! ```
//!
//! Tolerances: closed form `epsilon = 1e-13`, `max_relative = 1e-12`;
//! finite differences `fd_support`'s `FD64_*`.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::{FD64_ABS, FD64_REL, fd64_2};

/// `k` is a constant of this function.
#[differentiable]
fn with_constant(x: f64, #[constant] k: f64, y: f64) -> f64 {
    k * x * y + k.sin() * x
}

/// Passes an inactive literal to the constant slot: correct.
#[differentiable]
fn constant_given_a_literal(x: f64, y: f64) -> f64 {
    with_constant(x, 2.0, y)
}

/// Passes `y`, which is differentiable here, to the constant slot.
#[differentiable]
fn active_value_into_constant(x: f64, y: f64) -> f64 {
    with_constant(x, y, 1.0)
}

#[test]
fn a_constant_slot_given_a_constant() {
    let (x, y) = (0.7, -1.3);
    let (value, dx, dy) = constant_given_a_literal_grad(x, y);
    assert_eq!(value.to_bits(), constant_given_a_literal(x, y).to_bits());
    assert_relative_eq!(
        dx,
        2.0 * y + 2f64.sin(),
        epsilon = 1e-13,
        max_relative = 1e-12
    );
    assert_relative_eq!(dy, 2.0 * x, epsilon = 1e-13, max_relative = 1e-12);
}

#[test]
#[ignore = "macro bug: an active value passed to a callee's #[constant] argument silently gets no gradient"]
fn an_active_value_in_a_constant_slot() {
    let (x, y) = (0.7, -1.3);
    let (value, dx, dy) = active_value_into_constant_grad(x, y);
    assert_eq!(value.to_bits(), active_value_into_constant(x, y).to_bits());
    // f = y·x·1 + sin(y)·x.
    assert_relative_eq!(dx, y + y.sin(), epsilon = 1e-13, max_relative = 1e-12);
    assert_relative_eq!(dy, x + y.cos() * x, epsilon = 1e-13, max_relative = 1e-12);
    let (fx, fy) = fd64_2(active_value_into_constant, x, y);
    assert_relative_eq!(dx, fx, epsilon = FD64_ABS, max_relative = FD64_REL);
    assert_relative_eq!(dy, fy, epsilon = FD64_ABS, max_relative = FD64_REL);
}
