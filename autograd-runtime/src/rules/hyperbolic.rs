//! Hyperbolic functions and their inverses: `sinh cosh tanh asinh acosh
//! atanh`.

use super::Real;
use super::trigonometric::one_minus_square;

/// Hyperbolic sine.
#[inline(always)]
pub fn sinh<T: Real>(x: T) -> T {
    x.sinh()
}
/// d/dx sinh x = cosh x: reads the input (`√(1 + out²)` would overflow
/// where `cosh x` does not).
#[inline(always)]
pub fn sinh_grad<T: Real>(grad: T, x: T) -> T {
    grad * x.cosh()
}
/// ẏ = cosh x·ẋ: [`sinh_grad`] at seed ẋ.
#[inline(always)]
pub fn sinh_tangent<T: Real>(dx: T, x: T) -> T {
    sinh_grad(dx, x)
}

/// Hyperbolic cosine.
#[inline(always)]
pub fn cosh<T: Real>(x: T) -> T {
    x.cosh()
}
/// d/dx cosh x = sinh x: reads the input (the output does not give the
/// sign).
#[inline(always)]
pub fn cosh_grad<T: Real>(grad: T, x: T) -> T {
    grad * x.sinh()
}
/// ẏ = sinh x·ẋ: [`cosh_grad`] at seed ẋ.
#[inline(always)]
pub fn cosh_tangent<T: Real>(dx: T, x: T) -> T {
    cosh_grad(dx, x)
}

/// Hyperbolic tangent.
#[inline(always)]
pub fn tanh<T: Real>(x: T) -> T {
    x.tanh()
}
/// d/dx tanh x = 1 − tanh² x = 1 − out²: reads the output.
#[inline(always)]
pub fn tanh_grad<T: Real>(grad: T, out: T) -> T {
    grad * (T::one() - out * out)
}
/// ẏ = (1 − tanh² x)·ẋ: [`tanh_grad`] at seed ẋ.
#[inline(always)]
pub fn tanh_tangent<T: Real>(dx: T, out: T) -> T {
    tanh_grad(dx, out)
}

/// Inverse hyperbolic sine.
#[inline(always)]
pub fn asinh<T: Real>(x: T) -> T {
    x.asinh()
}
/// d/dx asinh x = 1/√(x² + 1): reads the input; `√(x² + 1)` is
/// `hypot(x, 1)`, which does not overflow for large `x`.
#[inline(always)]
pub fn asinh_grad<T: Real>(grad: T, x: T) -> T {
    grad / x.hypot(T::one())
}
/// ẏ = ẋ/√(x² + 1): [`asinh_grad`] at seed ẋ.
#[inline(always)]
pub fn asinh_tangent<T: Real>(dx: T, x: T) -> T {
    asinh_grad(dx, x)
}

/// Inverse hyperbolic cosine, for x ≥ 1 (NaN below).
#[inline(always)]
pub fn acosh<T: Real>(x: T) -> T {
    x.acosh()
}
/// d/dx acosh x = 1/√(x² − 1): reads the input; computed as
/// `1/(√(x − 1)·√(x + 1))`, exact near 1 and without overflow for large
/// `x`. At x = 1 the one-sided limit +∞ (for a positive adjoint); NaN for
/// x < 1, as the value.
#[inline(always)]
pub fn acosh_grad<T: Real>(grad: T, x: T) -> T {
    grad / ((x - T::one()).sqrt() * (x + T::one()).sqrt())
}
/// ẏ = ẋ/√(x² − 1): [`acosh_grad`] at seed ẋ.
#[inline(always)]
pub fn acosh_tangent<T: Real>(dx: T, x: T) -> T {
    acosh_grad(dx, x)
}

/// Inverse hyperbolic tangent, for |x| ≤ 1 (±∞ at ±1, NaN beyond).
#[inline(always)]
pub fn atanh<T: Real>(x: T) -> T {
    x.atanh()
}
/// d/dx atanh x = 1/(1 − x²): reads the input; `1 − x²` as
/// `(1 − x)(1 + x)`. At x = ±1 the pole's +∞ (for a positive adjoint:
/// `grad/0`); for |x| > 1, where the value is NaN, `1/(1 − x²)`, the slope
/// of the real part `½·ln|(1 + x)/(1 − x)|`, as [`ln_grad`](super::ln_grad)
/// gives `1/x` below 0.
#[inline(always)]
pub fn atanh_grad<T: Real>(grad: T, x: T) -> T {
    grad / one_minus_square(x)
}
/// ẏ = ẋ/(1 − x²): [`atanh_grad`] at seed ẋ.
#[inline(always)]
pub fn atanh_tangent<T: Real>(dx: T, x: T) -> T {
    atanh_grad(dx, x)
}
