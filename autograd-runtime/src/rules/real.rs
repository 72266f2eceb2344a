use core::ops::{Add, Div, Mul, Neg, Sub};

use num_traits::Float;

/// A floating-point scalar the rules are written for: every
/// [`num_traits::Float`] — `f32`, `f64`, and a user's type such as a dual
/// number — through the one blanket impl below.
///
/// The rules' conventions at non-differentiable points are stated for IEEE
/// binary floats; another `Float` gets them through its own `Float`
/// methods. The supertraits are exactly what `Float` implies, so a generic
/// function bounded by `T: Float` alone reaches every rule.
///
/// Constants are functions (a blanket impl has no `const`s to give): the
/// names below never meet a user's `T::one()` in generated code, which
/// names this trait only through fully qualified paths.
pub trait Real:
    Copy
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
{
    /// Additive identity.
    fn zero() -> Self;
    /// Multiplicative identity.
    fn one() -> Self;
    /// Two, spelled once so the rules read like their formulas.
    fn two() -> Self;
    /// Machine epsilon: the gap between 1 and the next larger value.
    fn epsilon() -> Self;
    /// ln 2, the slope factor of `exp2` and `log2`.
    fn ln_2() -> Self;
    /// ln 10, the slope factor of `log10`.
    fn ln_10() -> Self;
    /// Converts an `i32`: exactly for `f64`; for `f32`, rounded to nearest
    /// where `|n| > 2²⁴`.
    fn from_i32(n: i32) -> Self;
    /// `e^self`.
    fn exp(self) -> Self;
    /// Natural logarithm.
    fn ln(self) -> Self;
    /// Square root.
    fn sqrt(self) -> Self;
    /// Sine.
    fn sin(self) -> Self;
    /// Cosine.
    fn cos(self) -> Self;
    /// Hyperbolic tangent.
    fn tanh(self) -> Self;
    /// Absolute value.
    fn abs(self) -> Self;
    /// `2^self`.
    fn exp2(self) -> Self;
    /// `e^self − 1`, accurate near 0.
    fn exp_m1(self) -> Self;
    /// `ln(1 + self)`, accurate near 0.
    fn ln_1p(self) -> Self;
    /// Base-2 logarithm.
    fn log2(self) -> Self;
    /// Base-10 logarithm.
    fn log10(self) -> Self;
    /// Cube root.
    fn cbrt(self) -> Self;
    /// `1 / self`.
    fn recip(self) -> Self;
    /// Tangent.
    fn tan(self) -> Self;
    /// Arcsine.
    fn asin(self) -> Self;
    /// Arccosine.
    fn acos(self) -> Self;
    /// Arctangent.
    fn atan(self) -> Self;
    /// Hyperbolic sine.
    fn sinh(self) -> Self;
    /// Hyperbolic cosine.
    fn cosh(self) -> Self;
    /// Inverse hyperbolic sine.
    fn asinh(self) -> Self;
    /// Inverse hyperbolic cosine.
    fn acosh(self) -> Self;
    /// Inverse hyperbolic tangent.
    fn atanh(self) -> Self;
    /// 1 for `+0` and positive values, −1 for `−0` and negative ones, NaN for NaN.
    fn signum(self) -> Self;
    /// The largest integer not above `self`.
    fn floor(self) -> Self;
    /// The smallest integer not below `self`.
    fn ceil(self) -> Self;
    /// The nearest integer, halves away from zero.
    fn round(self) -> Self;
    /// The integer part, rounded towards zero.
    fn trunc(self) -> Self;
    /// `self − self.trunc()`.
    fn fract(self) -> Self;
    /// The least nonnegative remainder of `self` by `m`, as
    /// `f64::rem_euclid` computes it.
    fn rem_euclid(self, m: Self) -> Self;
    /// `self % m`: the remainder of truncated division, as `f64`'s `%`.
    fn rem(self, m: Self) -> Self;
    /// Degrees to radians.
    fn to_radians(self) -> Self;
    /// Radians to degrees.
    fn to_degrees(self) -> Self;
    /// Logarithm to `base`: `self.ln() / base.ln()`.
    fn log(self, base: Self) -> Self;
    /// The angle of the point `(other, self)`: `self` is y.
    fn atan2(self, other: Self) -> Self;
    /// `√(self² + other²)` without overflow or underflow in between.
    fn hypot(self, other: Self) -> Self;
    /// `self` limited to `[min, max]`.
    ///
    /// # Panics
    ///
    /// Like `f64::clamp`, when `min > max` or either is NaN.
    fn clamp(self, min: Self, max: Self) -> Self;
    /// `self·a + b` with one rounding.
    fn mul_add(self, a: Self, b: Self) -> Self;
    /// `(sin self, cos self)`.
    fn sin_cos(self) -> (Self, Self);
    /// `self` to a floating-point power.
    fn powf(self, exponent: Self) -> Self;
    /// `self` to an integer power.
    fn powi(self, exponent: i32) -> Self;
    /// `self`'s magnitude with the sign of `sign`.
    fn copysign(self, sign: Self) -> Self;
    /// Whether the value is NaN.
    fn is_nan(self) -> bool;
    /// Whether the value is neither infinite nor NaN.
    fn is_finite(self) -> bool;
    /// Whether the value is +∞ or −∞.
    fn is_infinite(self) -> bool;
    /// Whether the sign bit is set: `−0`, negative values, `−∞` and NaNs
    /// with the sign bit.
    fn is_sign_negative(self) -> bool;
    /// Widens to `f64` (exact for both `f32` and `f64`).
    fn to_f64(self) -> f64;
    /// Narrows from `f64`, rounding to nearest for `f32`.
    fn from_f64(x: f64) -> Self;
}

/// Each method is the `Float` method of the same name; the constants come
/// from `Float` too (ln 2 and ln 10 rounded from `f64`, which for `f32`
/// is the nearest `f32`, as `core::f32::consts` has it).
impl<T: Float> Real for T {
    #[inline(always)]
    fn zero() -> Self {
        T::zero()
    }
    #[inline(always)]
    fn one() -> Self {
        T::one()
    }
    #[inline(always)]
    fn two() -> Self {
        T::one() + T::one()
    }
    #[inline(always)]
    fn epsilon() -> Self {
        T::epsilon()
    }
    #[inline(always)]
    fn ln_2() -> Self {
        <T as Real>::from_f64(core::f64::consts::LN_2)
    }
    #[inline(always)]
    fn ln_10() -> Self {
        <T as Real>::from_f64(core::f64::consts::LN_10)
    }
    #[inline(always)]
    fn from_i32(n: i32) -> Self {
        // Every `Float` converts every `i32` (rounded for `f32`).
        T::from(n).unwrap_or_else(T::nan)
    }
    #[inline(always)]
    fn exp(self) -> Self {
        Float::exp(self)
    }
    #[inline(always)]
    fn ln(self) -> Self {
        Float::ln(self)
    }
    #[inline(always)]
    fn sqrt(self) -> Self {
        Float::sqrt(self)
    }
    #[inline(always)]
    fn sin(self) -> Self {
        Float::sin(self)
    }
    #[inline(always)]
    fn cos(self) -> Self {
        Float::cos(self)
    }
    #[inline(always)]
    fn tanh(self) -> Self {
        Float::tanh(self)
    }
    #[inline(always)]
    fn abs(self) -> Self {
        Float::abs(self)
    }
    #[inline(always)]
    fn exp2(self) -> Self {
        Float::exp2(self)
    }
    #[inline(always)]
    fn exp_m1(self) -> Self {
        Float::exp_m1(self)
    }
    #[inline(always)]
    fn ln_1p(self) -> Self {
        Float::ln_1p(self)
    }
    #[inline(always)]
    fn log2(self) -> Self {
        Float::log2(self)
    }
    #[inline(always)]
    fn log10(self) -> Self {
        Float::log10(self)
    }
    #[inline(always)]
    fn cbrt(self) -> Self {
        Float::cbrt(self)
    }
    #[inline(always)]
    fn recip(self) -> Self {
        Float::recip(self)
    }
    #[inline(always)]
    fn tan(self) -> Self {
        Float::tan(self)
    }
    #[inline(always)]
    fn asin(self) -> Self {
        Float::asin(self)
    }
    #[inline(always)]
    fn acos(self) -> Self {
        Float::acos(self)
    }
    #[inline(always)]
    fn atan(self) -> Self {
        Float::atan(self)
    }
    #[inline(always)]
    fn sinh(self) -> Self {
        Float::sinh(self)
    }
    #[inline(always)]
    fn cosh(self) -> Self {
        Float::cosh(self)
    }
    #[inline(always)]
    fn asinh(self) -> Self {
        Float::asinh(self)
    }
    #[inline(always)]
    fn acosh(self) -> Self {
        Float::acosh(self)
    }
    #[inline(always)]
    fn atanh(self) -> Self {
        Float::atanh(self)
    }
    #[inline(always)]
    fn signum(self) -> Self {
        Float::signum(self)
    }
    #[inline(always)]
    fn floor(self) -> Self {
        Float::floor(self)
    }
    #[inline(always)]
    fn ceil(self) -> Self {
        Float::ceil(self)
    }
    #[inline(always)]
    fn round(self) -> Self {
        Float::round(self)
    }
    #[inline(always)]
    fn trunc(self) -> Self {
        Float::trunc(self)
    }
    #[inline(always)]
    fn fract(self) -> Self {
        Float::fract(self)
    }
    #[inline(always)]
    fn rem(self, m: Self) -> Self {
        self % m
    }
    #[inline(always)]
    fn rem_euclid(self, m: Self) -> Self {
        // `f64::rem_euclid`'s own steps, which `Float` has no method for.
        let r = self % m;
        if r < Self::zero() { r + m.abs() } else { r }
    }
    #[inline(always)]
    fn to_radians(self) -> Self {
        Float::to_radians(self)
    }
    #[inline(always)]
    fn to_degrees(self) -> Self {
        Float::to_degrees(self)
    }
    #[inline(always)]
    fn log(self, base: Self) -> Self {
        Float::log(self, base)
    }
    #[inline(always)]
    fn atan2(self, other: Self) -> Self {
        Float::atan2(self, other)
    }
    #[inline(always)]
    fn hypot(self, other: Self) -> Self {
        Float::hypot(self, other)
    }
    #[inline(always)]
    fn powf(self, exponent: Self) -> Self {
        Float::powf(self, exponent)
    }
    #[inline(always)]
    fn copysign(self, sign: Self) -> Self {
        Float::copysign(self, sign)
    }
    #[inline(always)]
    fn clamp(self, min: Self, max: Self) -> Self {
        Float::clamp(self, min, max)
    }
    #[inline(always)]
    fn mul_add(self, a: Self, b: Self) -> Self {
        Float::mul_add(self, a, b)
    }
    #[inline(always)]
    fn sin_cos(self) -> (Self, Self) {
        Float::sin_cos(self)
    }
    #[inline(always)]
    fn powi(self, exponent: i32) -> Self {
        Float::powi(self, exponent)
    }
    #[inline(always)]
    fn is_nan(self) -> bool {
        Float::is_nan(self)
    }
    #[inline(always)]
    fn is_finite(self) -> bool {
        Float::is_finite(self)
    }
    #[inline(always)]
    fn is_infinite(self) -> bool {
        Float::is_infinite(self)
    }
    #[inline(always)]
    fn is_sign_negative(self) -> bool {
        Float::is_sign_negative(self)
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        // Exact for `f32` and `f64`; another `Float` without an `f64` view
        // gives NaN, which a gradient check reports.
        num_traits::ToPrimitive::to_f64(&self).unwrap_or(f64::NAN)
    }
    #[inline(always)]
    fn from_f64(x: f64) -> Self {
        // `f64` to `f32` rounds to nearest, as `as` does.
        <T as num_traits::NumCast>::from(x).unwrap_or_else(T::nan)
    }
}

/// `x as I` for a float `x` of any `num_traits::Float` type: Rust's `as`
/// (towards zero, saturating at `I`'s range, NaN to 0) of its value. A
/// second-order twin computes in a dual number, which has no `as`; its
/// value is the real part.
#[inline(always)]
pub fn float_as<I: FromFloatAs, S: Float>(x: S) -> I {
    I::from_f64_as(num_traits::ToPrimitive::to_f64(&x).unwrap_or(f64::NAN))
}

/// The integer types [`float_as`] casts to.
pub trait FromFloatAs {
    /// `x as Self`.
    fn from_f64_as(x: f64) -> Self;
}

macro_rules! from_float_as {
    ($($t:ty),*) => {$(
        impl FromFloatAs for $t {
            #[inline(always)]
            fn from_f64_as(x: f64) -> Self {
                x as $t
            }
        }
    )*};
}
from_float_as!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize
);
