//! exp, ln, sqrt, sin, cos, tanh, abs.

use super::Real;

/// `e^x`.
#[inline(always)]
pub fn exp<T: Real>(x: T) -> T {
    x.exp()
}
/// d/dx e^x = e^x: reuses the output instead of recomputing it.
#[inline(always)]
pub fn exp_grad<T: Real>(grad: T, out: T) -> T {
    grad * out
}

/// Natural logarithm (the registry calls it `log`).
#[inline(always)]
pub fn ln<T: Real>(x: T) -> T {
    x.ln()
}
/// d/dx ln x = 1/x; +inf at x = 0 (for a positive adjoint), as IEEE division gives.
#[inline(always)]
pub fn ln_grad<T: Real>(grad: T, x: T) -> T {
    grad / x
}

/// Square root.
#[inline(always)]
pub fn sqrt<T: Real>(x: T) -> T {
    x.sqrt()
}
/// d/dx √x = 1/(2√x) = 1/(2·out); +inf at x = 0 (for a positive adjoint).
#[inline(always)]
pub fn sqrt_grad<T: Real>(grad: T, out: T) -> T {
    grad / (T::TWO * out)
}

/// Sine.
#[inline(always)]
pub fn sin<T: Real>(x: T) -> T {
    x.sin()
}
/// d/dx sin x = cos x: needs the input, not the output.
#[inline(always)]
pub fn sin_grad<T: Real>(grad: T, x: T) -> T {
    grad * x.cos()
}

/// Cosine.
#[inline(always)]
pub fn cos<T: Real>(x: T) -> T {
    x.cos()
}
/// d/dx cos x = -sin x.
#[inline(always)]
pub fn cos_grad<T: Real>(grad: T, x: T) -> T {
    -(grad * x.sin())
}

/// Hyperbolic tangent.
#[inline(always)]
pub fn tanh<T: Real>(x: T) -> T {
    x.tanh()
}
/// d/dx tanh x = 1 - tanh² x = 1 - out².
#[inline(always)]
pub fn tanh_grad<T: Real>(grad: T, out: T) -> T {
    grad * (T::ONE - out * out)
}

/// Absolute value.
#[inline(always)]
pub fn abs<T: Real>(x: T) -> T {
    x.abs()
}
/// d/dx |x| = sign(x), and 0 at x = 0 (the subgradient of least norm).
#[inline(always)]
pub fn abs_grad<T: Real>(grad: T, x: T) -> T {
    if x > T::ZERO {
        grad
    } else if x < T::ZERO {
        -grad
    } else {
        T::ZERO
    }
}
