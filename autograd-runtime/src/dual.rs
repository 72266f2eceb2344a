//! A dual number `re + eps·ε` (ε² = 0): a value and one directional
//! derivative carried together.
//!
//! Second-order code instantiates a generated reverse sweep at
//! `Dual<f64>`: the real parts are the primal's values and gradient, the
//! ε parts their derivative along the seeded direction (forward over
//! reverse, so the gradient's tangent is a Hessian-vector product).
//!
//! Every method's ε part comes from the tangent rule of the same operation
//! in [`crate::rules`]: no derivative formula is written here. The real
//! part is computed by the same `f32`/`f64` operation as the primal, so it
//! is the primal's value bit for bit. Comparisons look at real parts only,
//! so branches take the primal's path.

use core::cmp::Ordering;
use core::iter::{Product, Sum};
use core::num::FpCategory;
use core::ops::{
    Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, RemAssign, Sub, SubAssign,
};

use num_traits::{
    Bounded, Float, FloatConst, FromPrimitive, MulAdd, MulAddAssign, Num, NumCast, One, Signed,
    ToPrimitive, Zero,
};

use crate::rules;

/// `re + eps·ε`: a value and its derivative along one direction.
#[derive(Clone, Copy, Debug, Default)]
pub struct Dual<T> {
    /// The value.
    pub re: T,
    /// The derivative along the seeded direction.
    pub eps: T,
}

impl<T: Float> Dual<T> {
    /// `re + eps·ε`.
    pub fn new(re: T, eps: T) -> Self {
        Dual { re, eps }
    }

    /// A constant: derivative 0.
    pub fn constant(re: T) -> Self {
        Dual { re, eps: T::zero() }
    }
}

/// The value, as the function's own float prints (an assertion's message
/// in a second-order body); the derivative is not shown.
impl<T: std::fmt::Display> std::fmt::Display for Dual<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.re.fmt(f)
    }
}

impl<T: Float> From<T> for Dual<T> {
    fn from(re: T) -> Self {
        Dual::constant(re)
    }
}

impl<T: Float> PartialEq for Dual<T> {
    fn eq(&self, other: &Self) -> bool {
        self.re == other.re
    }
}

impl<T: Float> PartialOrd for Dual<T> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.re.partial_cmp(&other.re)
    }
}

impl<T: Float> Add for Dual<T> {
    type Output = Self;
    fn add(self, b: Self) -> Self {
        Dual::new(self.re + b.re, rules::add_tangent(self.eps, b.eps))
    }
}

impl<T: Float> Sub for Dual<T> {
    type Output = Self;
    fn sub(self, b: Self) -> Self {
        Dual::new(self.re - b.re, rules::sub_tangent(self.eps, b.eps))
    }
}

impl<T: Float> Mul for Dual<T> {
    type Output = Self;
    fn mul(self, b: Self) -> Self {
        Dual::new(
            self.re * b.re,
            rules::mul_tangent(self.eps, b.eps, self.re, b.re),
        )
    }
}

impl<T: Float> Div for Dual<T> {
    type Output = Self;
    fn div(self, b: Self) -> Self {
        let out = self.re / b.re;
        Dual::new(out, rules::div_tangent(self.eps, b.eps, b.re, out))
    }
}

impl<T: Float> Rem for Dual<T> {
    type Output = Self;
    /// `a % b = a − trunc(a/b)·b`, with `trunc` piecewise constant.
    fn rem(self, b: Self) -> Self {
        let q = (self.re / b.re).trunc();
        Dual::new(
            self.re % b.re,
            rules::sub_tangent(self.eps, rules::mul_tangent(T::zero(), b.eps, q, b.re)),
        )
    }
}

impl<T: Float> Neg for Dual<T> {
    type Output = Self;
    fn neg(self) -> Self {
        Dual::new(-self.re, rules::neg_tangent(self.eps))
    }
}

macro_rules! assign_ops {
    ($($trait:ident $method:ident $op:tt;)*) => {$(
        impl<T: Float> $trait for Dual<T> {
            fn $method(&mut self, b: Self) {
                *self = *self $op b;
            }
        }
    )*};
}

assign_ops! {
    AddAssign add_assign +;
    SubAssign sub_assign -;
    MulAssign mul_assign *;
    DivAssign div_assign /;
    RemAssign rem_assign %;
}

impl<T: Float> Zero for Dual<T> {
    fn zero() -> Self {
        Dual::constant(T::zero())
    }
    fn is_zero(&self) -> bool {
        self.re.is_zero()
    }
}

impl<T: Float> One for Dual<T> {
    fn one() -> Self {
        Dual::constant(T::one())
    }
}

impl<T: Float> Num for Dual<T> {
    type FromStrRadixErr = T::FromStrRadixErr;
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
        T::from_str_radix(s, radix).map(Dual::constant)
    }
}

impl<T: Float> ToPrimitive for Dual<T> {
    fn to_i64(&self) -> Option<i64> {
        ToPrimitive::to_i64(&self.re)
    }
    fn to_u64(&self) -> Option<u64> {
        ToPrimitive::to_u64(&self.re)
    }
    fn to_f64(&self) -> Option<f64> {
        ToPrimitive::to_f64(&self.re)
    }
    fn to_f32(&self) -> Option<f32> {
        ToPrimitive::to_f32(&self.re)
    }
}

impl<T: Float> NumCast for Dual<T> {
    fn from<N: ToPrimitive>(n: N) -> Option<Self> {
        <T as NumCast>::from(n).map(Dual::constant)
    }
}

// The rest of the num-traits family a `T: Float + ..` body may bound its
// scalar by (`FromPrimitive`, `FloatConst`, `Sum`, `Product`, `Signed`,
// `Bounded`, `MulAdd`), so that a generic function instantiates at
// `Dual<T>` under the bounds its author wrote. Each conversion and
// constant is a constant (derivative 0) whose value is `T`'s own, bit for
// bit; each operation is one of `Dual`'s, whose derivative comes from the
// rules.

impl<T: Float + FromPrimitive> FromPrimitive for Dual<T> {
    fn from_isize(n: isize) -> Option<Self> {
        T::from_isize(n).map(Dual::constant)
    }
    fn from_i8(n: i8) -> Option<Self> {
        T::from_i8(n).map(Dual::constant)
    }
    fn from_i16(n: i16) -> Option<Self> {
        T::from_i16(n).map(Dual::constant)
    }
    fn from_i32(n: i32) -> Option<Self> {
        T::from_i32(n).map(Dual::constant)
    }
    fn from_i64(n: i64) -> Option<Self> {
        T::from_i64(n).map(Dual::constant)
    }
    fn from_i128(n: i128) -> Option<Self> {
        T::from_i128(n).map(Dual::constant)
    }
    fn from_usize(n: usize) -> Option<Self> {
        T::from_usize(n).map(Dual::constant)
    }
    fn from_u8(n: u8) -> Option<Self> {
        T::from_u8(n).map(Dual::constant)
    }
    fn from_u16(n: u16) -> Option<Self> {
        T::from_u16(n).map(Dual::constant)
    }
    fn from_u32(n: u32) -> Option<Self> {
        T::from_u32(n).map(Dual::constant)
    }
    fn from_u64(n: u64) -> Option<Self> {
        T::from_u64(n).map(Dual::constant)
    }
    fn from_u128(n: u128) -> Option<Self> {
        T::from_u128(n).map(Dual::constant)
    }
    fn from_f32(n: f32) -> Option<Self> {
        T::from_f32(n).map(Dual::constant)
    }
    fn from_f64(n: f64) -> Option<Self> {
        T::from_f64(n).map(Dual::constant)
    }
}

macro_rules! float_constants {
    ($($name:ident)*) => {$(
        fn $name() -> Self {
            Dual::constant(T::$name())
        }
    )*};
}

#[allow(non_snake_case)]
impl<T: Float + FloatConst> FloatConst for Dual<T> {
    float_constants! {
        E FRAC_1_PI FRAC_1_SQRT_2 FRAC_2_PI FRAC_2_SQRT_PI FRAC_PI_2 FRAC_PI_3
        FRAC_PI_4 FRAC_PI_6 FRAC_PI_8 LN_10 LN_2 LOG10_E LOG2_E PI SQRT_2
        TAU LOG10_2 LOG2_10
    }
}

impl<T: Float> Bounded for Dual<T> {
    fn min_value() -> Self {
        Dual::constant(T::min_value())
    }
    fn max_value() -> Self {
        Dual::constant(T::max_value())
    }
}

/// `Signed` by `Float`'s methods of the same names.
impl<T: Float> Signed for Dual<T> {
    fn abs(&self) -> Self {
        Float::abs(*self)
    }
    fn abs_sub(&self, other: &Self) -> Self {
        Float::abs_sub(*self, *other)
    }
    fn signum(&self) -> Self {
        Float::signum(*self)
    }
    fn is_positive(&self) -> bool {
        self.re > T::zero()
    }
    fn is_negative(&self) -> bool {
        self.re < T::zero()
    }
}

impl<T: Float> MulAdd for Dual<T> {
    type Output = Self;
    fn mul_add(self, a: Self, b: Self) -> Self {
        Float::mul_add(self, a, b)
    }
}

impl<T: Float> MulAddAssign for Dual<T> {
    fn mul_add_assign(&mut self, a: Self, b: Self) {
        *self = Float::mul_add(*self, a, b);
    }
}

/// A sum from `−0` by `+`, in order, as `f64`'s `Sum` adds (so the real
/// part is its sum bit for bit, the sign of an empty or all-`−0` sum
/// included).
impl<T: Float> Sum for Dual<T> {
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Dual::constant(T::neg_zero()), |s, x| s + x)
    }
}

impl<'a, T: Float> Sum<&'a Dual<T>> for Dual<T> {
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Dual::constant(T::neg_zero()), |s, x| s + *x)
    }
}

/// A product from `1` by `*`, in order, as `f64`'s `Product` multiplies.
impl<T: Float> Product for Dual<T> {
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(<Self as One>::one(), |p, x| p * x)
    }
}

impl<'a, T: Float> Product<&'a Dual<T>> for Dual<T> {
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(<Self as One>::one(), |p, x| p * *x)
    }
}

/// Methods whose tangent rule reads the input: `(dx, x)`.
macro_rules! reads_input {
    ($($name:ident $tangent:ident;)*) => {$(
        fn $name(self) -> Self {
            Dual::new(self.re.$name(), rules::$tangent(self.eps, self.re))
        }
    )*};
}

/// Methods whose tangent rule reads the output: `(dx, out)`.
macro_rules! reads_output {
    ($($name:ident $tangent:ident;)*) => {$(
        fn $name(self) -> Self {
            let out = self.re.$name();
            Dual::new(out, rules::$tangent(self.eps, out))
        }
    )*};
}

/// Piecewise-constant methods: tangent 0, from the rule.
macro_rules! reads_nothing {
    ($($name:ident $tangent:ident;)*) => {$(
        fn $name(self) -> Self {
            Dual::new(self.re.$name(), rules::$tangent(self.eps))
        }
    )*};
}

/// Predicates and constants, which read or give the real part.
macro_rules! on_real {
    ($($name:ident -> $ty:ty;)*) => {$(
        fn $name(self) -> $ty {
            self.re.$name()
        }
    )*};
}

macro_rules! constants {
    ($($name:ident;)*) => {$(
        fn $name() -> Self {
            Dual::constant(T::$name())
        }
    )*};
}

impl<T: Float> Float for Dual<T> {
    constants! {
        nan;
        infinity;
        neg_infinity;
        neg_zero;
        min_value;
        min_positive_value;
        max_value;
        epsilon;
    }

    on_real! {
        is_nan -> bool;
        is_infinite -> bool;
        is_finite -> bool;
        is_normal -> bool;
        classify -> FpCategory;
        is_sign_positive -> bool;
        is_sign_negative -> bool;
        integer_decode -> (u64, i16, i8);
    }

    reads_input! {
        abs abs_tangent;
        ln ln_tangent;
        ln_1p ln_1p_tangent;
        log2 log2_tangent;
        log10 log10_tangent;
        sin sin_tangent;
        cos cos_tangent;
        asin asin_tangent;
        acos acos_tangent;
        atan atan_tangent;
        sinh sinh_tangent;
        cosh cosh_tangent;
        asinh asinh_tangent;
        acosh acosh_tangent;
        atanh atanh_tangent;
    }

    reads_output! {
        exp exp_tangent;
        exp2 exp2_tangent;
        exp_m1 exp_m1_tangent;
        sqrt sqrt_tangent;
        cbrt cbrt_tangent;
        recip recip_tangent;
        tan tan_tangent;
        tanh tanh_tangent;
    }

    reads_nothing! {
        floor floor_tangent;
        ceil ceil_tangent;
        round round_tangent;
        trunc trunc_tangent;
        signum signum_tangent;
        fract fract_tangent;
        to_degrees to_degrees_tangent;
        to_radians to_radians_tangent;
    }

    fn mul_add(self, b: Self, c: Self) -> Self {
        Dual::new(
            self.re.mul_add(b.re, c.re),
            rules::mul_add_tangent(self.eps, b.eps, c.eps, self.re, b.re),
        )
    }

    fn powi(self, n: i32) -> Self {
        Dual::new(self.re.powi(n), rules::powi_tangent(self.eps, self.re, n))
    }

    fn powf(self, b: Self) -> Self {
        let out = self.re.powf(b.re);
        Dual::new(out, rules::pow_tangent(self.eps, b.eps, self.re, b.re, out))
    }

    fn log(self, base: Self) -> Self {
        let out = self.re.log(base.re);
        Dual::new(
            out,
            rules::log_tangent(self.eps, base.eps, self.re, base.re, out),
        )
    }

    fn max(self, b: Self) -> Self {
        Dual::new(
            rules::max(self.re, b.re),
            rules::max_tangent(self.eps, b.eps, self.re, b.re),
        )
    }

    fn min(self, b: Self) -> Self {
        Dual::new(
            rules::min(self.re, b.re),
            rules::min_tangent(self.eps, b.eps, self.re, b.re),
        )
    }

    /// `max(a − b, 0)`, composed from the rules of `−` and `max`.
    fn abs_sub(self, b: Self) -> Self {
        (self - b).max(<Self as Zero>::zero())
    }

    fn hypot(self, b: Self) -> Self {
        let out = self.re.hypot(b.re);
        Dual::new(
            out,
            rules::hypot_tangent(self.eps, b.eps, self.re, b.re, out),
        )
    }

    fn sin_cos(self) -> (Self, Self) {
        let (s, c) = self.re.sin_cos();
        let (ds, dc) = rules::sin_cos_tangent(self.eps, self.re);
        (Dual::new(s, ds), Dual::new(c, dc))
    }

    fn atan2(self, x: Self) -> Self {
        Dual::new(
            self.re.atan2(x.re),
            rules::atan2_tangent(self.eps, x.eps, self.re, x.re),
        )
    }

    fn clamp(self, lo: Self, hi: Self) -> Self {
        Dual::new(
            rules::clamp(self.re, lo.re, hi.re),
            rules::clamp_tangent(self.eps, lo.eps, hi.eps, self.re, lo.re, hi.re),
        )
    }
}

// `Real` comes to `Dual` through its blanket impl over `Float`.
const _: fn() = || {
    fn is_real<R: rules::Real>() {}
    is_real::<Dual<f64>>();
    is_real::<Dual<f32>>();
};

/// `s * m`: a dual scalar scales a dual matrix from the left, as nalgebra
/// lets `f64` do (`2.0 * m`): element by element, by [`Dual`]'s own
/// product, so the real parts are `f64`'s `s * m` bit for bit.
macro_rules! left_scaling {
    ($($m:ident),*) => {$(
        impl<T: Float + core::fmt::Debug + 'static> Mul<nalgebra::$m<Dual<T>>> for Dual<T> {
            type Output = nalgebra::$m<Dual<T>>;
            #[inline]
            fn mul(self, mut m: nalgebra::$m<Dual<T>>) -> nalgebra::$m<Dual<T>> {
                m.apply(|e| *e = self * *e);
                m
            }
        }
        impl<'a, T: Float + core::fmt::Debug + 'static> Mul<&'a nalgebra::$m<Dual<T>>> for Dual<T> {
            type Output = nalgebra::$m<Dual<T>>;
            #[inline]
            fn mul(self, m: &'a nalgebra::$m<Dual<T>>) -> nalgebra::$m<Dual<T>> {
                m.map(|e| self * e)
            }
        }
    )*};
}
left_scaling!(DMatrix, DVector, RowDVector);
