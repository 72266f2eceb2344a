//! `use autograd::prelude::*` gives scalars (and matrices) `relu()` and
//! `sigmoid()` as methods.

use crate::rules::{self, Real};

/// The activation functions as methods, element-wise on matrices.
pub trait Activation {
    /// `max(0, x)`.
    fn relu(self) -> Self;
    /// `1 / (1 + e^-x)`.
    fn sigmoid(self) -> Self;
}

impl<T: Real> Activation for T {
    #[inline(always)]
    fn relu(self) -> Self {
        rules::relu(self)
    }
    #[inline(always)]
    fn sigmoid(self) -> Self {
        rules::sigmoid(self)
    }
}
