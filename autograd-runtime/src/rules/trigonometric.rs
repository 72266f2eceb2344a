//! Circular functions and their inverses: `sin cos tan asin acos atan
//! atan2 sin_cos`.

use super::Real;

/// Sine.
#[inline(always)]
pub fn sin<T: Real>(x: T) -> T {
    x.sin()
}
/// d/dx sin x = cos x: reads the input (the output does not give cos's
/// sign).
#[inline(always)]
pub fn sin_grad<T: Real>(grad: T, x: T) -> T {
    grad * x.cos()
}
/// ẏ = cos x·ẋ: [`sin_grad`] at seed ẋ.
#[inline(always)]
pub fn sin_tangent<T: Real>(dx: T, x: T) -> T {
    sin_grad(dx, x)
}

/// Cosine.
#[inline(always)]
pub fn cos<T: Real>(x: T) -> T {
    x.cos()
}
/// d/dx cos x = −sin x: reads the input.
#[inline(always)]
pub fn cos_grad<T: Real>(grad: T, x: T) -> T {
    -(grad * x.sin())
}
/// ẏ = −sin x·ẋ: [`cos_grad`] at seed ẋ.
#[inline(always)]
pub fn cos_tangent<T: Real>(dx: T, x: T) -> T {
    cos_grad(dx, x)
}

/// `(sin x, cos x)`, the value of `f64::sin_cos`: one operation with two
/// outputs.
#[inline(always)]
pub fn sin_cos<T: Real>(x: T) -> (T, T) {
    x.sin_cos()
}
/// The pullback of both outputs at once: `grad_sin·cos x − grad_cos·sin x`,
/// reading the input. An output that gets no adjoint contributes with a
/// zero one.
#[inline(always)]
pub fn sin_cos_grad<T: Real>(grad_sin: T, grad_cos: T, x: T) -> T {
    sin_grad(grad_sin, x) + cos_grad(grad_cos, x)
}
/// `(cos x·ẋ, −sin x·ẋ)`, the tangents of both outputs: [`sin_cos_grad`]
/// at seeds `(ẋ, 0)` and `(0, ẋ)`, that is the pullbacks of `sin` and `cos`.
#[inline(always)]
pub fn sin_cos_tangent<T: Real>(dx: T, x: T) -> (T, T) {
    (sin_grad(dx, x), cos_grad(dx, x))
}

/// Tangent.
#[inline(always)]
pub fn tan<T: Real>(x: T) -> T {
    x.tan()
}
/// d/dx tan x = 1 + tan² x = 1 + out²: reads the output.
#[inline(always)]
pub fn tan_grad<T: Real>(grad: T, out: T) -> T {
    grad * (T::one() + out * out)
}
/// ẏ = (1 + tan² x)·ẋ: [`tan_grad`] at seed ẋ.
#[inline(always)]
pub fn tan_tangent<T: Real>(dx: T, out: T) -> T {
    tan_grad(dx, out)
}

/// Arcsine, in `[−π/2, π/2]`; NaN outside `[−1, 1]`.
#[inline(always)]
pub fn asin<T: Real>(x: T) -> T {
    x.asin()
}
/// d/dx asin x = 1/√(1 − x²): reads the input. `1 − x²` is computed as
/// `(1 − x)(1 + x)`, exact near ±1. At x = ±1 the one-sided limit +∞ (for
/// a positive adjoint: `grad/0`); NaN for |x| > 1, as the value.
#[inline(always)]
pub fn asin_grad<T: Real>(grad: T, x: T) -> T {
    grad / one_minus_square(x).sqrt()
}
/// ẏ = ẋ/√(1 − x²): [`asin_grad`] at seed ẋ.
#[inline(always)]
pub fn asin_tangent<T: Real>(dx: T, x: T) -> T {
    asin_grad(dx, x)
}

/// Arccosine, in `[0, π]`; NaN outside `[−1, 1]`.
#[inline(always)]
pub fn acos<T: Real>(x: T) -> T {
    x.acos()
}
/// d/dx acos x = −1/√(1 − x²): reads the input. At x = ±1 the one-sided
/// limit −∞ (for a positive adjoint); NaN for |x| > 1, as the value.
#[inline(always)]
pub fn acos_grad<T: Real>(grad: T, x: T) -> T {
    -(grad / one_minus_square(x).sqrt())
}
/// ẏ = −ẋ/√(1 − x²): [`acos_grad`] at seed ẋ.
#[inline(always)]
pub fn acos_tangent<T: Real>(dx: T, x: T) -> T {
    acos_grad(dx, x)
}

/// `1 − x²` as `(1 − x)(1 + x)`: no cancellation near ±1.
#[inline(always)]
pub(super) fn one_minus_square<T: Real>(x: T) -> T {
    (T::one() - x) * (T::one() + x)
}

/// Arctangent.
#[inline(always)]
pub fn atan<T: Real>(x: T) -> T {
    x.atan()
}
/// d/dx atan x = 1/(1 + x²): reads the input; 0 at x = ±∞ (and where `x²`
/// overflows, where the exact value is subnormal).
#[inline(always)]
pub fn atan_grad<T: Real>(grad: T, x: T) -> T {
    grad / (T::one() + x * x)
}
/// ẏ = ẋ/(1 + x²): [`atan_grad`] at seed ẋ.
#[inline(always)]
pub fn atan_tangent<T: Real>(dx: T, x: T) -> T {
    atan_grad(dx, x)
}

/// `y.atan2(x)`: the angle of the point `(x, y)`, in `[−π, π]`.
#[inline(always)]
pub fn atan2<T: Real>(y: T, x: T) -> T {
    y.atan2(x)
}
/// ∂/∂y atan2(y, x) = x/(x² + y²): reads both operands.
///
/// Computed as `(x/r)/r` with `r = hypot(x, y)`, so neither tiny nor huge
/// coordinates overflow or underflow on the way. Conventions: at the
/// origin (any signs of zero), where the angle jumps, 0 for both operands;
/// where `r = ∞` and no operand is NaN, 0, the limit of a partial that
/// falls like `1/r`.
#[inline(always)]
pub fn atan2_grad_lhs<T: Real>(grad: T, y: T, x: T) -> T {
    grad * inverse_square_part(x, y)
}
/// ∂/∂x atan2(y, x) = −y/(x² + y²): reads both operands; conventions as
/// [`atan2_grad_lhs`].
#[inline(always)]
pub fn atan2_grad_rhs<T: Real>(grad: T, y: T, x: T) -> T {
    -(grad * inverse_square_part(y, x))
}
/// The angle's tangent `(x·ẏ − y·ẋ)/(x² + y²)`: the two pullbacks at
/// seeds `dy` (ẏ) and `dx` (ẋ).
#[inline(always)]
pub fn atan2_tangent<T: Real>(dy: T, dx: T, y: T, x: T) -> T {
    atan2_grad_lhs(dy, y, x) + atan2_grad_rhs(dx, y, x)
}

/// `a/(a² + b²)` as `(a/r)/r`, `r = hypot(a, b)`; 0 at the origin and where
/// `r = ∞` with no NaN (see [`atan2_grad_lhs`]).
#[inline(always)]
fn inverse_square_part<T: Real>(a: T, b: T) -> T {
    let r = a.hypot(b);
    if r == T::zero() || (r.is_infinite() && !a.is_nan() && !b.is_nan()) {
        return T::zero();
    }
    a / r / r
}
