//! A callee's `#[constant]` argument seen from a caller.
//!
//! The callee's pullback has no adjoint for a constant argument. A constant
//! value may be passed there; a differentiable one is a compile error
//! (ui-tests/tests/ui/calls), since its gradient would be lost. `stop_gradient` says
//! that is intended.
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

/// Passes `y`, differentiable here, to the constant slot through
/// `stop_gradient`: no gradient flows along that route, by request.
#[differentiable]
fn stopped_value_into_constant(x: f64, y: f64) -> f64 {
    with_constant(x, autograd::stop_gradient(y), 1.0)
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
fn a_stopped_value_in_a_constant_slot() {
    let (x, y) = (0.7, -1.3);
    let (value, dx, dy) = stopped_value_into_constant_grad(x, y);
    assert_eq!(value.to_bits(), stopped_value_into_constant(x, y).to_bits());
    // f = y·x·1 + sin(y)·x with y held constant.
    assert_relative_eq!(dx, y + y.sin(), epsilon = 1e-13, max_relative = 1e-12);
    assert_eq!(dy, 0.0);
    let (fx, _) = fd64_2(stopped_value_into_constant, x, y);
    assert_relative_eq!(dx, fx, epsilon = FD64_ABS, max_relative = FD64_REL);
}
