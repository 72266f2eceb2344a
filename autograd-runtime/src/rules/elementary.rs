//! Exponentials, logarithms and roots: `exp exp2 exp_m1 ln ln_1p log log2
//! log10 sqrt cbrt recip hypot`.

use super::Real;

/// `e^x`.
#[inline(always)]
pub fn exp<T: Real>(x: T) -> T {
    x.exp()
}
/// d/dx e^x = e^x: reads the output instead of recomputing it.
#[inline(always)]
pub fn exp_grad<T: Real>(grad: T, out: T) -> T {
    grad * out
}
/// ẏ = e^x·ẋ: [`exp_grad`] at seed ẋ.
#[inline(always)]
pub fn exp_tangent<T: Real>(dx: T, out: T) -> T {
    exp_grad(dx, out)
}

/// `2^x`.
#[inline(always)]
pub fn exp2<T: Real>(x: T) -> T {
    x.exp2()
}
/// d/dx 2^x = 2^x·ln 2: reads the output.
#[inline(always)]
pub fn exp2_grad<T: Real>(grad: T, out: T) -> T {
    grad * (out * T::ln_2())
}
/// ẏ = 2^x·ln 2·ẋ: [`exp2_grad`] at seed ẋ.
#[inline(always)]
pub fn exp2_tangent<T: Real>(dx: T, out: T) -> T {
    exp2_grad(dx, out)
}

/// `e^x − 1`, accurate near 0.
#[inline(always)]
pub fn exp_m1<T: Real>(x: T) -> T {
    x.exp_m1()
}
/// d/dx (e^x − 1) = e^x = out + 1: reads the output.
#[inline(always)]
pub fn exp_m1_grad<T: Real>(grad: T, out: T) -> T {
    grad * (out + T::one())
}
/// ẏ = e^x·ẋ: [`exp_m1_grad`] at seed ẋ.
#[inline(always)]
pub fn exp_m1_tangent<T: Real>(dx: T, out: T) -> T {
    exp_m1_grad(dx, out)
}

/// Natural logarithm (the registry calls it `log`; [`log`] here is the
/// logarithm to a given base).
#[inline(always)]
pub fn ln<T: Real>(x: T) -> T {
    x.ln()
}
/// d/dx ln x = 1/x: reads the input; at x = 0 the pole's `grad/0`
/// (+∞ for a positive adjoint); for x < 0, where `ln x` is NaN, `1/x`, the
/// slope of `ln |x|`.
#[inline(always)]
pub fn ln_grad<T: Real>(grad: T, x: T) -> T {
    grad / x
}
/// ẏ = ẋ/x: [`ln_grad`] at seed ẋ.
#[inline(always)]
pub fn ln_tangent<T: Real>(dx: T, x: T) -> T {
    ln_grad(dx, x)
}

/// `ln(1 + x)`, accurate near 0.
#[inline(always)]
pub fn ln_1p<T: Real>(x: T) -> T {
    x.ln_1p()
}
/// d/dx ln(1 + x) = 1/(1 + x): reads the input. At x = −1 the pole's
/// `grad/0` (+∞ for a positive adjoint); for x < −1, where the value is
/// NaN, `1/(1 + x)`, as [`ln_grad`] does below 0.
#[inline(always)]
pub fn ln_1p_grad<T: Real>(grad: T, x: T) -> T {
    grad / (T::one() + x)
}
/// ẏ = ẋ/(1 + x): [`ln_1p_grad`] at seed ẋ.
#[inline(always)]
pub fn ln_1p_tangent<T: Real>(dx: T, x: T) -> T {
    ln_1p_grad(dx, x)
}

/// `x.log(base)`, the logarithm of `x` to `base`: `ln x / ln base`, as
/// `f64::log` computes it.
#[inline(always)]
pub fn log<T: Real>(x: T, base: T) -> T {
    x.log(base)
}
/// ∂/∂x log_b x = 1/(x·ln b): reads `x` and `base`.
///
/// Conventions (the IEEE value of the formula): `x = 0`: ±∞ (the pole);
/// `base = 1`: `grad/(x·(+0))`, +∞ for a positive adjoint and `x > 0` (the
/// one-sided limits differ in sign; the value itself is ±∞, or NaN at
/// `x = 1`); `base = 0`: 0 for `x ≠ 0` (`ln b = −∞`); `base < 0`: NaN
/// (`ln b` is NaN, as is the value).
#[inline(always)]
pub fn log_grad_lhs<T: Real>(grad: T, x: T, base: T) -> T {
    grad / (x * base.ln())
}
/// ∂/∂b log_b x = −ln x/(b·(ln b)²) = −out/(b·ln b): reads `base` and the
/// output.
///
/// Conventions (the IEEE value of the formula): `base = 1`: ∓∞, the
/// two-sided limit, for `x ≠ 1`, and NaN at `x = 1` (the value `0/0` is
/// NaN); `base = 0`: NaN (`0·∞` in the denominator); `base < 0`: NaN.
#[inline(always)]
pub fn log_grad_rhs<T: Real>(grad: T, base: T, out: T) -> T {
    -(grad * out / (base * base.ln()))
}
/// ẏ = ẋ/(x·ln b) − ḃ·out/(b·ln b): the two pullbacks at seeds ẋ and ḃ.
#[inline(always)]
pub fn log_tangent<T: Real>(dx: T, dbase: T, x: T, base: T, out: T) -> T {
    log_grad_lhs(dx, x, base) + log_grad_rhs(dbase, base, out)
}

/// Base-2 logarithm.
#[inline(always)]
pub fn log2<T: Real>(x: T) -> T {
    x.log2()
}
/// d/dx log₂ x = 1/(x·ln 2): reads the input; at 0 and below as [`ln_grad`].
#[inline(always)]
pub fn log2_grad<T: Real>(grad: T, x: T) -> T {
    grad / (x * T::ln_2())
}
/// ẏ = ẋ/(x·ln 2): [`log2_grad`] at seed ẋ.
#[inline(always)]
pub fn log2_tangent<T: Real>(dx: T, x: T) -> T {
    log2_grad(dx, x)
}

/// Base-10 logarithm.
#[inline(always)]
pub fn log10<T: Real>(x: T) -> T {
    x.log10()
}
/// d/dx log₁₀ x = 1/(x·ln 10): reads the input; at 0 and below as
/// [`ln_grad`].
#[inline(always)]
pub fn log10_grad<T: Real>(grad: T, x: T) -> T {
    grad / (x * T::ln_10())
}
/// ẏ = ẋ/(x·ln 10): [`log10_grad`] at seed ẋ.
#[inline(always)]
pub fn log10_tangent<T: Real>(dx: T, x: T) -> T {
    log10_grad(dx, x)
}

/// Square root.
#[inline(always)]
pub fn sqrt<T: Real>(x: T) -> T {
    x.sqrt()
}
/// d/dx √x = 1/(2√x) = 1/(2·out): reads the output; +∞ at x = +0 (for a
/// positive adjoint), the slope of the only piece, `x ≥ 0`, at its end
/// (−∞ at `−0`, whose root is `−0`). So a hand-written `(x * x + y *
/// y).sqrt()` at the origin has gradient NaN: the chain rule multiplies
/// this ∞ by d(x·x)/dx = 0. `x.hypot(y)` and `v.norm()` have a rule
/// there, and give 0.
#[inline(always)]
pub fn sqrt_grad<T: Real>(grad: T, out: T) -> T {
    grad / (T::two() * out)
}
/// ẏ = ẋ/(2√x): [`sqrt_grad`] at seed ẋ.
#[inline(always)]
pub fn sqrt_tangent<T: Real>(dx: T, out: T) -> T {
    sqrt_grad(dx, out)
}

/// Cube root (real, odd: `cbrt(−8) = −2`).
#[inline(always)]
pub fn cbrt<T: Real>(x: T) -> T {
    x.cbrt()
}
/// d/dx ∛x = 1/(3·∛x²) = 1/(3·out²): reads the output; at x = ±0 the
/// two-sided limit +∞ (for a positive adjoint). `out²` neither overflows
/// nor underflows for any finite `x`.
#[inline(always)]
pub fn cbrt_grad<T: Real>(grad: T, out: T) -> T {
    grad / (T::from_i32(3) * (out * out))
}
/// ẏ = ẋ/(3·∛x²): [`cbrt_grad`] at seed ẋ.
#[inline(always)]
pub fn cbrt_tangent<T: Real>(dx: T, out: T) -> T {
    cbrt_grad(dx, out)
}

/// `1/x`.
#[inline(always)]
pub fn recip<T: Real>(x: T) -> T {
    x.recip()
}
/// d/dx (1/x) = −1/x² = −out²: reads the output; at x = ±0 (out = ±∞) the
/// two-sided limit −∞ (for a positive adjoint). Multiplied as
/// `(grad·out)·out`, so a small adjoint does not overflow with `out²`.
#[inline(always)]
pub fn recip_grad<T: Real>(grad: T, out: T) -> T {
    -(grad * out * out)
}
/// ẏ = −ẋ/x²: [`recip_grad`] at seed ẋ.
#[inline(always)]
pub fn recip_tangent<T: Real>(dx: T, out: T) -> T {
    recip_grad(dx, out)
}

/// `x.hypot(y)`: `√(x² + y²)` without overflow or underflow in between.
#[inline(always)]
pub fn hypot<T: Real>(x: T, y: T) -> T {
    x.hypot(y)
}
/// ∂/∂x hypot(x, y) = x/out: reads `x` and the output. At (0, 0), a cone's
/// tip, no adjacent piece is smooth, and the rule takes 0 for both
/// operands, signed zeros included: the subgradient of least norm, what a
/// hand-written optimisation gradient gives there, so an optimizer at
/// such a minimum (Ackley's) stays instead of stepping to NaN. The tangent
/// is 0 there too, so second order sees a gradient constant 0 (Hessian 0).
/// An infinite operand gives NaN (`∞/∞`), the other 0.
#[inline(always)]
pub fn hypot_grad_lhs<T: Real>(grad: T, x: T, out: T) -> T {
    hypot_part(grad, x, out)
}
/// ∂/∂y hypot(x, y) = y/out: reads `y` and the output; conventions as
/// [`hypot_grad_lhs`].
#[inline(always)]
pub fn hypot_grad_rhs<T: Real>(grad: T, y: T, out: T) -> T {
    hypot_part(grad, y, out)
}
/// ẏ = (x·ẋ + y·ẏ)/out: the two pullbacks at seeds `dx` and `dy`.
#[inline(always)]
pub fn hypot_tangent<T: Real>(dx: T, dy: T, x: T, y: T, out: T) -> T {
    hypot_grad_lhs(dx, x, out) + hypot_grad_rhs(dy, y, out)
}

/// `grad·(v/out)`, 0 at `out = 0`: `v/out` lies in [−1, 1], so dividing
/// first keeps a large adjoint from overflowing.
#[inline(always)]
fn hypot_part<T: Real>(grad: T, v: T, out: T) -> T {
    if out == T::zero() {
        T::zero()
    } else {
        grad * (v / out)
    }
}
