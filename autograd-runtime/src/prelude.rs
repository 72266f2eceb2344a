//! `use autograd::prelude::*` gives scalars (and matrices) `relu()` and
//! `sigmoid()` as methods.

use nalgebra::{DefaultAllocator, Dim, OMatrix, allocator::Allocator};

use crate::rules::{self, Real};

/// The activation functions as methods of `f32` / `f64`.
///
/// # Example
///
/// ```
/// use autograd_runtime::prelude::*;
/// use nalgebra::DMatrix;
///
/// assert_eq!((-2.0_f64).relu(), 0.0);
/// assert_eq!(0.0_f32.sigmoid(), 0.5);
/// let m = DMatrix::from_row_slice(1, 3, &[-1.0, 0.0, 2.0]);
/// assert_eq!(m.relu(), DMatrix::from_row_slice(1, 3, &[0.0, 0.0, 2.0]));
/// ```
pub trait Activation: Sized {
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

/// The activation functions as methods of matrices, element-wise. They
/// borrow the matrix (`m.relu()` leaves `m` usable), where the scalar
/// [`Activation`] takes its `Copy` receiver by value (so `f64::relu(x)`
/// works too).
pub trait ElementwiseActivation: Sized {
    /// `max(0, x)` per element.
    fn relu(&self) -> Self;
    /// `1 / (1 + e^-x)` per element.
    fn sigmoid(&self) -> Self;
}

/// Element-wise on any owned `f64` matrix or vector (`DMatrix`, `DVector`,
/// fixed sizes), applying the scalar rule per element.
impl<R: Dim, C: Dim> ElementwiseActivation for OMatrix<f64, R, C>
where
    DefaultAllocator: Allocator<R, C>,
{
    #[inline]
    fn relu(&self) -> Self {
        self.map(rules::relu)
    }
    #[inline]
    fn sigmoid(&self) -> Self {
        self.map(rules::sigmoid)
    }
}
