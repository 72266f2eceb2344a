//! `use autograd::prelude::*` gives scalars (and matrices) `relu()` and
//! `sigmoid()` as methods, and `relu(x)` and `sigmoid(x)` as functions,
//! which a `#[differentiable]` body calls as any differentiable function.

pub use autograd_runtime::prelude::*;

use crate::differentiable;

/// `max(0, x)`: [`Activation::relu`] as a function, with its generated
/// derivatives (its derivative at 0 is 0, as the method's).
///
/// # Example
///
/// ```
/// use autograd::prelude::*;
///
/// assert_eq!(relu(-2.0_f64), 0.0);
/// assert_eq!(relu_grad(3.0_f64), (3.0, 1.0));
/// assert_eq!(relu_jvp(-1.0_f32, 2.0), (0.0, 0.0));
/// ```
#[differentiable(jvp)]
pub fn relu<T: num_traits::Float>(x: T) -> T {
    x.relu()
}

/// `1 / (1 + e^-x)`: [`Activation::sigmoid`] as a function, with its
/// generated derivatives.
///
/// # Example
///
/// ```
/// use autograd::prelude::*;
///
/// assert_eq!(sigmoid(0.0_f32), 0.5);
/// assert_eq!(sigmoid_grad(0.0_f64), (0.5, 0.25));
/// assert_eq!(sigmoid_jvp(0.0_f64, 2.0), (0.5, 0.5));
/// ```
#[differentiable(jvp)]
pub fn sigmoid<T: num_traits::Float>(x: T) -> T {
    x.sigmoid()
}
