//! relu and sigmoid.

use super::Real;

/// `max(0, x)`.
#[inline(always)]
pub fn relu<T: Real>(x: T) -> T {
    if x > T::ZERO { x } else { T::ZERO }
}
/// d/dx relu x = 1 where x > 0, else 0: a hard mask, 0 at exactly x = 0.
#[inline(always)]
pub fn relu_grad<T: Real>(grad: T, x: T) -> T {
    if x > T::ZERO { grad } else { T::ZERO }
}

/// `1 / (1 + e^-x)`.
#[inline(always)]
pub fn sigmoid<T: Real>(x: T) -> T {
    T::ONE / (T::ONE + (-x).exp())
}
/// d/dx σ(x) = σ(x)(1 - σ(x)) = out·(1 - out).
#[inline(always)]
pub fn sigmoid_grad<T: Real>(grad: T, out: T) -> T {
    grad * out * (T::ONE - out)
}
