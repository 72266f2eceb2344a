//! relu and sigmoid.

use super::Real;

/// `max(0, x)`.
#[inline(always)]
pub fn relu<T: Real>(x: T) -> T {
    if x > T::zero() { x } else { T::zero() }
}
/// d/dx relu x = 1 where x > 0, else 0: a hard mask. At the kink, `+0`
/// and `−0` alike, the slope of the left piece, the constant 0, whose
/// value relu returns there: relu is `max(0, x)` with the tie to the
/// first argument ([`max_grad_rhs`](super::max_grad_rhs)), as the
/// machine-learning frameworks take it. (Unlike `abs`, the zero's sign
/// does not pick the piece: a network at zero pre-activation passes no
/// gradient, whichever way its zeros are signed.)
#[inline(always)]
pub fn relu_grad<T: Real>(grad: T, x: T) -> T {
    if x > T::zero() { grad } else { T::zero() }
}
/// ẏ = ẋ where x > 0, else 0: [`relu_grad`] at seed ẋ.
#[inline(always)]
pub fn relu_tangent<T: Real>(dx: T, x: T) -> T {
    relu_grad(dx, x)
}

/// `1 / (1 + e^-x)`.
#[inline(always)]
pub fn sigmoid<T: Real>(x: T) -> T {
    T::one() / (T::one() + (-x).exp())
}
/// d/dx σ(x) = σ(x)(1 - σ(x)) = out·(1 - out).
#[inline(always)]
pub fn sigmoid_grad<T: Real>(grad: T, out: T) -> T {
    grad * out * (T::one() - out)
}
/// ẏ = σ(x)(1 − σ(x))·ẋ: [`sigmoid_grad`] at seed ẋ.
#[inline(always)]
pub fn sigmoid_tangent<T: Real>(dx: T, out: T) -> T {
    sigmoid_grad(dx, out)
}
