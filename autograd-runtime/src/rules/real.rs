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
    ($t:ty) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const TWO: Self = 2.0;
            const EPSILON: Self = <$t>::EPSILON;
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
