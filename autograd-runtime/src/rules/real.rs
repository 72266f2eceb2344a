use core::fmt::Debug;
use core::ops::{Add, AddAssign, Div, Mul, Neg, Sub, SubAssign};

/// A floating-point scalar the rules are written for: `f32` or `f64`.
///
/// Sealed: the rules' conventions at non-differentiable points are stated
/// for IEEE binary floats only.
pub trait Real:
    Copy
    + PartialOrd
    + Debug
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + sealed::Sealed
{
    /// Additive identity.
    const ZERO: Self;
    /// Multiplicative identity.
    const ONE: Self;
    /// Two, spelled once so the rules read like their formulas.
    const TWO: Self;
    /// Machine epsilon: the gap between 1 and the next larger value.
    const EPSILON: Self;
    /// ln 2, the slope factor of `exp2` and `log2`.
    const LN_2: Self;
    /// ln 10, the slope factor of `log10`.
    const LN_10: Self;
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
    /// Widens to `f64` (exact for both `f32` and `f64`).
    fn to_f64(self) -> f64;
    /// Narrows from `f64`, rounding to nearest for `f32`.
    fn from_f64(x: f64) -> Self;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for f32 {}
    impl Sealed for f64 {}
}

macro_rules! impl_real {
    ($t:ident) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const TWO: Self = 2.0;
            const EPSILON: Self = <$t>::EPSILON;
            const LN_2: Self = core::$t::consts::LN_2;
            const LN_10: Self = core::$t::consts::LN_10;
            #[inline(always)]
            fn from_i32(n: i32) -> Self {
                n as $t
            }
            #[inline(always)]
            fn exp(self) -> Self {
                <$t>::exp(self)
            }
            #[inline(always)]
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn sin(self) -> Self {
                <$t>::sin(self)
            }
            #[inline(always)]
            fn cos(self) -> Self {
                <$t>::cos(self)
            }
            #[inline(always)]
            fn tanh(self) -> Self {
                <$t>::tanh(self)
            }
            #[inline(always)]
            fn abs(self) -> Self {
                <$t>::abs(self)
            }
            #[inline(always)]
            fn exp2(self) -> Self {
                <$t>::exp2(self)
            }
            #[inline(always)]
            fn exp_m1(self) -> Self {
                <$t>::exp_m1(self)
            }
            #[inline(always)]
            fn ln_1p(self) -> Self {
                <$t>::ln_1p(self)
            }
            #[inline(always)]
            fn log2(self) -> Self {
                <$t>::log2(self)
            }
            #[inline(always)]
            fn log10(self) -> Self {
                <$t>::log10(self)
            }
            #[inline(always)]
            fn cbrt(self) -> Self {
                <$t>::cbrt(self)
            }
            #[inline(always)]
            fn recip(self) -> Self {
                <$t>::recip(self)
            }
            #[inline(always)]
            fn tan(self) -> Self {
                <$t>::tan(self)
            }
            #[inline(always)]
            fn asin(self) -> Self {
                <$t>::asin(self)
            }
            #[inline(always)]
            fn acos(self) -> Self {
                <$t>::acos(self)
            }
            #[inline(always)]
            fn atan(self) -> Self {
                <$t>::atan(self)
            }
            #[inline(always)]
            fn sinh(self) -> Self {
                <$t>::sinh(self)
            }
            #[inline(always)]
            fn cosh(self) -> Self {
                <$t>::cosh(self)
            }
            #[inline(always)]
            fn asinh(self) -> Self {
                <$t>::asinh(self)
            }
            #[inline(always)]
            fn acosh(self) -> Self {
                <$t>::acosh(self)
            }
            #[inline(always)]
            fn atanh(self) -> Self {
                <$t>::atanh(self)
            }
            #[inline(always)]
            fn signum(self) -> Self {
                <$t>::signum(self)
            }
            #[inline(always)]
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
            #[inline(always)]
            fn ceil(self) -> Self {
                <$t>::ceil(self)
            }
            #[inline(always)]
            fn round(self) -> Self {
                <$t>::round(self)
            }
            #[inline(always)]
            fn trunc(self) -> Self {
                <$t>::trunc(self)
            }
            #[inline(always)]
            fn fract(self) -> Self {
                <$t>::fract(self)
            }
            #[inline(always)]
            fn log(self, base: Self) -> Self {
                <$t>::log(self, base)
            }
            #[inline(always)]
            fn atan2(self, other: Self) -> Self {
                <$t>::atan2(self, other)
            }
            #[inline(always)]
            fn hypot(self, other: Self) -> Self {
                <$t>::hypot(self, other)
            }
            #[inline(always)]
            fn clamp(self, min: Self, max: Self) -> Self {
                <$t>::clamp(self, min, max)
            }
            #[inline(always)]
            fn mul_add(self, a: Self, b: Self) -> Self {
                <$t>::mul_add(self, a, b)
            }
            #[inline(always)]
            fn sin_cos(self) -> (Self, Self) {
                <$t>::sin_cos(self)
            }
            #[inline(always)]
            fn powf(self, exponent: Self) -> Self {
                <$t>::powf(self, exponent)
            }
            #[inline(always)]
            fn powi(self, exponent: i32) -> Self {
                <$t>::powi(self, exponent)
            }
            #[inline(always)]
            fn copysign(self, sign: Self) -> Self {
                <$t>::copysign(self, sign)
            }
            #[inline(always)]
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            #[inline(always)]
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
            #[inline(always)]
            fn is_infinite(self) -> bool {
                <$t>::is_infinite(self)
            }
            #[inline(always)]
            fn to_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn from_f64(x: f64) -> Self {
                x as $t
            }
        }
    };
}

impl_real!(f32);
impl_real!(f64);
