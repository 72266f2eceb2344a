//! A dual number `re + eps·ε` (ε² = 0): a value and its directional
//! derivative carried together, along one direction (`Dual<T>`) or along
//! `K` at once ([`DualLanes<T, K>`], the ε part a [`Lanes<T, K>`]).
//!
//! Second-order code instantiates a generated reverse sweep at
//! `Dual<f64>`: the real parts are the primal's values and gradient, the
//! ε parts their derivative along the seeded direction (forward over
//! reverse, so the gradient's tangent is a Hessian-vector product). At
//! `DualLanes<f64, K>` one sweep gives `K` such products, the columns
//! `NAME_hessian` and `NAME_hessian_sparse` recover the Hessian from: the
//! value and every derivative factor a rule computes from it (`cos x` for
//! `sin x`) once for `K` directions.
//!
//! Every method's ε part comes from the tangent rule of the same operation
//! in [`crate::rules`], applied direction by direction ([`Directions`]):
//! no derivative formula is written here. The real part is computed by the
//! same `f32`/`f64` operation as the primal, so it is the primal's value
//! bit for bit. Comparisons look at real parts only, so branches take the
//! primal's path.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::dual::{Dual, DualLanes};
//! use autograd_runtime::lanes::Lanes;
//! use num_traits::Float;
//!
//! // sin(x·y) along (1, 0) and (0, 1) at once: both partial derivatives.
//! let (x, y) = (0.5_f64, 2.0_f64);
//! let x = DualLanes::new(x, Lanes([1.0, 0.0]));
//! let y = DualLanes::new(y, Lanes([0.0, 1.0]));
//! let z = (x * y).sin();
//! assert_eq!(z.re, 1.0_f64.sin());
//! assert_eq!(z.eps.0, [2.0 * 1.0_f64.cos(), 0.5 * 1.0_f64.cos()]);
//! // One lane is the one-direction dual number's derivative, bit for bit.
//! let one = (Dual::new(0.5, 1.0) * Dual::new(2.0, 0.0)).sin();
//! assert_eq!(one.eps, z.eps[0]);
//! ```

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

use crate::lanes::Lanes;
use crate::rules;

/// `re + eps·ε`: a value and its derivative along one direction (`E = T`,
/// the default) or along several ([`DualLanes`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Dual<T, E = T> {
    /// The value.
    pub re: T,
    /// The derivative along the seeded direction (each seeded direction's,
    /// lane by lane).
    pub eps: E,
}

/// A dual number with `K` tangent lanes: lane `j` the derivative along
/// direction `j`.
pub type DualLanes<T, const K: usize> = Dual<T, Lanes<T, K>>;

/// The ε part of a [`Dual`]: the derivative along one direction (`T`)
/// or along `K` ([`Lanes<T, K>`]). A scalar tangent rule is applied to it
/// direction by direction, so each rule is written once, for one.
pub trait Directions<T>: Copy {
    /// The derivative along every direction zero.
    fn zero() -> Self;
    /// `f` of each direction's derivative.
    fn map(self, f: impl FnMut(T) -> T) -> Self;
    /// `f` of each direction's derivatives in `self` and `b`.
    fn zip(self, b: Self, f: impl FnMut(T, T) -> T) -> Self;
    /// `f` of each direction's derivatives in `self`, `b` and `c`.
    fn zip3(self, b: Self, c: Self, f: impl FnMut(T, T, T) -> T) -> Self;
    /// `f` of each direction's derivative, for a rule of two outputs.
    fn map2(self, f: impl FnMut(T) -> (T, T)) -> (Self, Self);
}

impl<T: Float> Directions<T> for T {
    #[inline(always)]
    fn zero() -> Self {
        T::zero()
    }
    #[inline(always)]
    fn map(self, mut f: impl FnMut(T) -> T) -> Self {
        f(self)
    }
    #[inline(always)]
    fn zip(self, b: Self, mut f: impl FnMut(T, T) -> T) -> Self {
        f(self, b)
    }
    #[inline(always)]
    fn zip3(self, b: Self, c: Self, mut f: impl FnMut(T, T, T) -> T) -> Self {
        f(self, b, c)
    }
    #[inline(always)]
    fn map2(self, mut f: impl FnMut(T) -> (T, T)) -> (Self, Self) {
        f(self)
    }
}

impl<T: Float, const K: usize> Directions<T> for Lanes<T, K> {
    #[inline(always)]
    fn zero() -> Self {
        Lanes::zero()
    }
    #[inline(always)]
    fn map(self, mut f: impl FnMut(T) -> T) -> Self {
        Lanes::from_fn(|k| f(self.0[k]))
    }
    #[inline(always)]
    fn zip(self, b: Self, mut f: impl FnMut(T, T) -> T) -> Self {
        Lanes::from_fn(|k| f(self.0[k], b.0[k]))
    }
    #[inline(always)]
    fn zip3(self, b: Self, c: Self, mut f: impl FnMut(T, T, T) -> T) -> Self {
        Lanes::from_fn(|k| f(self.0[k], b.0[k], c.0[k]))
    }
    #[inline(always)]
    fn map2(self, mut f: impl FnMut(T) -> (T, T)) -> (Self, Self) {
        let (mut a, mut b) = (Lanes::zero(), Lanes::zero());
        for k in 0..K {
            (a.0[k], b.0[k]) = f(self.0[k]);
        }
        (a, b)
    }
}

impl<T, E> Dual<T, E> {
    /// `re + eps·ε`.
    #[inline(always)]
    pub fn new(re: T, eps: E) -> Self {
        Dual { re, eps }
    }
}

impl<T: Float> Dual<T> {
    /// A constant: derivative 0.
    #[inline(always)]
    pub fn constant(re: T) -> Self {
        Dual { re, eps: T::zero() }
    }
}

impl<T: Float, const K: usize> DualLanes<T, K> {
    /// A constant: derivative 0 along every direction.
    #[inline(always)]
    pub fn constant_lanes(re: T) -> Self {
        Dual::real(re)
    }
}

impl<T: Float, E: Directions<T>> Dual<T, E> {
    /// `re` with derivative 0, for any number of directions.
    #[inline(always)]
    fn real(re: T) -> Self {
        Dual { re, eps: E::zero() }
    }
}

/// The value, as the function's own float prints (an assertion's message
/// in a second-order body); the derivative is not shown.
impl<T: std::fmt::Display, E> std::fmt::Display for Dual<T, E> {
    #[inline]
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.re.fmt(f)
    }
}

impl<T: Float, E: Directions<T>> From<T> for Dual<T, E> {
    #[inline]
    fn from(re: T) -> Self {
        Dual::real(re)
    }
}

impl<T: Float, E: Directions<T>> PartialEq for Dual<T, E> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.re == other.re
    }
}

impl<T: Float, E: Directions<T>> PartialOrd for Dual<T, E> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.re.partial_cmp(&other.re)
    }
}

impl<T: Float, E: Directions<T>> Add for Dual<T, E> {
    type Output = Self;
    #[inline]
    fn add(self, b: Self) -> Self {
        Dual::new(self.re + b.re, self.eps.zip(b.eps, rules::add_tangent))
    }
}

impl<T: Float, E: Directions<T>> Sub for Dual<T, E> {
    type Output = Self;
    #[inline]
    fn sub(self, b: Self) -> Self {
        Dual::new(self.re - b.re, self.eps.zip(b.eps, rules::sub_tangent))
    }
}

impl<T: Float, E: Directions<T>> Mul for Dual<T, E> {
    type Output = Self;
    #[inline]
    fn mul(self, b: Self) -> Self {
        let (x, y) = (self.re, b.re);
        Dual::new(
            x * y,
            self.eps
                .zip(b.eps, |dx, dy| rules::mul_tangent(dx, dy, x, y)),
        )
    }
}

impl<T: Float, E: Directions<T>> Div for Dual<T, E> {
    type Output = Self;
    #[inline]
    fn div(self, b: Self) -> Self {
        let out = self.re / b.re;
        let y = b.re;
        Dual::new(
            out,
            self.eps
                .zip(b.eps, |dx, dy| rules::div_tangent(dx, dy, y, out)),
        )
    }
}

impl<T: Float, E: Directions<T>> Rem for Dual<T, E> {
    type Output = Self;
    /// `a % b = a − trunc(a/b)·b`, with `trunc` piecewise constant.
    #[inline]
    fn rem(self, b: Self) -> Self {
        let (q, y) = ((self.re / b.re).trunc(), b.re);
        Dual::new(
            self.re % b.re,
            self.eps.zip(b.eps, |dx, dy| {
                rules::sub_tangent(dx, rules::mul_tangent(T::zero(), dy, q, y))
            }),
        )
    }
}

impl<T: Float, E: Directions<T>> Neg for Dual<T, E> {
    type Output = Self;
    #[inline]
    fn neg(self) -> Self {
        Dual::new(-self.re, self.eps.map(rules::neg_tangent))
    }
}

macro_rules! assign_ops {
    ($($trait:ident $method:ident $op:tt;)*) => {$(
        impl<T: Float, E: Directions<T>> $trait for Dual<T, E> {
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

impl<T: Float, E: Directions<T>> Zero for Dual<T, E> {
    #[inline]
    fn zero() -> Self {
        Dual::real(T::zero())
    }
    #[inline]
    fn is_zero(&self) -> bool {
        self.re.is_zero()
    }
}

impl<T: Float, E: Directions<T>> One for Dual<T, E> {
    #[inline]
    fn one() -> Self {
        Dual::real(T::one())
    }
}

impl<T: Float, E: Directions<T>> Num for Dual<T, E> {
    type FromStrRadixErr = T::FromStrRadixErr;
    #[inline]
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
        T::from_str_radix(s, radix).map(Dual::real)
    }
}

impl<T: Float, E: Directions<T>> ToPrimitive for Dual<T, E> {
    #[inline]
    fn to_i64(&self) -> Option<i64> {
        ToPrimitive::to_i64(&self.re)
    }
    #[inline]
    fn to_u64(&self) -> Option<u64> {
        ToPrimitive::to_u64(&self.re)
    }
    #[inline]
    fn to_f64(&self) -> Option<f64> {
        ToPrimitive::to_f64(&self.re)
    }
    #[inline]
    fn to_f32(&self) -> Option<f32> {
        ToPrimitive::to_f32(&self.re)
    }
}

impl<T: Float, E: Directions<T>> NumCast for Dual<T, E> {
    #[inline]
    fn from<N: ToPrimitive>(n: N) -> Option<Self> {
        <T as NumCast>::from(n).map(Dual::real)
    }
}

// The rest of the num-traits family a `T: Float + ..` body may bound its
// scalar by (`FromPrimitive`, `FloatConst`, `Sum`, `Product`, `Signed`,
// `Bounded`, `MulAdd`), so that a generic function instantiates at
// `Dual<T, E>` under the bounds its author wrote. Each conversion and
// constant is a constant (derivative 0) whose value is `T`'s own, bit for
// bit; each operation is one of `Dual`'s, whose derivative comes from the
// rules.

impl<T: Float + FromPrimitive, E: Directions<T>> FromPrimitive for Dual<T, E> {
    #[inline]
    fn from_isize(n: isize) -> Option<Self> {
        T::from_isize(n).map(Dual::real)
    }
    #[inline]
    fn from_i8(n: i8) -> Option<Self> {
        T::from_i8(n).map(Dual::real)
    }
    #[inline]
    fn from_i16(n: i16) -> Option<Self> {
        T::from_i16(n).map(Dual::real)
    }
    #[inline]
    fn from_i32(n: i32) -> Option<Self> {
        T::from_i32(n).map(Dual::real)
    }
    #[inline]
    fn from_i64(n: i64) -> Option<Self> {
        T::from_i64(n).map(Dual::real)
    }
    #[inline]
    fn from_i128(n: i128) -> Option<Self> {
        T::from_i128(n).map(Dual::real)
    }
    #[inline]
    fn from_usize(n: usize) -> Option<Self> {
        T::from_usize(n).map(Dual::real)
    }
    #[inline]
    fn from_u8(n: u8) -> Option<Self> {
        T::from_u8(n).map(Dual::real)
    }
    #[inline]
    fn from_u16(n: u16) -> Option<Self> {
        T::from_u16(n).map(Dual::real)
    }
    #[inline]
    fn from_u32(n: u32) -> Option<Self> {
        T::from_u32(n).map(Dual::real)
    }
    #[inline]
    fn from_u64(n: u64) -> Option<Self> {
        T::from_u64(n).map(Dual::real)
    }
    #[inline]
    fn from_u128(n: u128) -> Option<Self> {
        T::from_u128(n).map(Dual::real)
    }
    #[inline]
    fn from_f32(n: f32) -> Option<Self> {
        T::from_f32(n).map(Dual::real)
    }
    #[inline]
    fn from_f64(n: f64) -> Option<Self> {
        T::from_f64(n).map(Dual::real)
    }
}

macro_rules! float_constants {
    ($($name:ident)*) => {$(
        fn $name() -> Self {
            Dual::real(T::$name())
        }
    )*};
}

#[allow(non_snake_case)]
impl<T: Float + FloatConst, E: Directions<T>> FloatConst for Dual<T, E> {
    float_constants! {
        E FRAC_1_PI FRAC_1_SQRT_2 FRAC_2_PI FRAC_2_SQRT_PI FRAC_PI_2 FRAC_PI_3
        FRAC_PI_4 FRAC_PI_6 FRAC_PI_8 LN_10 LN_2 LOG10_E LOG2_E PI SQRT_2
        TAU LOG10_2 LOG2_10
    }
}

impl<T: Float, E: Directions<T>> Bounded for Dual<T, E> {
    #[inline]
    fn min_value() -> Self {
        Dual::real(T::min_value())
    }
    #[inline]
    fn max_value() -> Self {
        Dual::real(T::max_value())
    }
}

/// `Signed` by `Float`'s methods of the same names.
impl<T: Float, E: Directions<T>> Signed for Dual<T, E> {
    #[inline]
    fn abs(&self) -> Self {
        Float::abs(*self)
    }
    #[inline]
    fn abs_sub(&self, other: &Self) -> Self {
        Float::abs_sub(*self, *other)
    }
    #[inline]
    fn signum(&self) -> Self {
        Float::signum(*self)
    }
    #[inline]
    fn is_positive(&self) -> bool {
        self.re > T::zero()
    }
    #[inline]
    fn is_negative(&self) -> bool {
        self.re < T::zero()
    }
}

impl<T: Float, E: Directions<T>> MulAdd for Dual<T, E> {
    type Output = Self;
    #[inline]
    fn mul_add(self, a: Self, b: Self) -> Self {
        Float::mul_add(self, a, b)
    }
}

impl<T: Float, E: Directions<T>> MulAddAssign for Dual<T, E> {
    #[inline]
    fn mul_add_assign(&mut self, a: Self, b: Self) {
        *self = Float::mul_add(*self, a, b);
    }
}

/// A sum from `−0` by `+`, in order, as `f64`'s `Sum` adds (so the real
/// part is its sum bit for bit, the sign of an empty or all-`−0` sum
/// included).
impl<T: Float, E: Directions<T>> Sum for Dual<T, E> {
    #[inline]
    fn sum<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(Dual::real(T::neg_zero()), |s, x| s + x)
    }
}

impl<'a, T: Float, E: Directions<T>> Sum<&'a Dual<T, E>> for Dual<T, E> {
    #[inline]
    fn sum<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(Dual::real(T::neg_zero()), |s, x| s + *x)
    }
}

/// A product from `1` by `*`, in order, as `f64`'s `Product` multiplies.
impl<T: Float, E: Directions<T>> Product for Dual<T, E> {
    #[inline]
    fn product<I: Iterator<Item = Self>>(iter: I) -> Self {
        iter.fold(<Self as One>::one(), |p, x| p * x)
    }
}

impl<'a, T: Float, E: Directions<T>> Product<&'a Dual<T, E>> for Dual<T, E> {
    #[inline]
    fn product<I: Iterator<Item = &'a Self>>(iter: I) -> Self {
        iter.fold(<Self as One>::one(), |p, x| p * *x)
    }
}

/// Methods whose tangent rule reads the input: `(dx, x)`.
macro_rules! reads_input {
    ($($name:ident $tangent:ident;)*) => {$(
        fn $name(self) -> Self {
            let x = self.re;
            Dual::new(x.$name(), self.eps.map(|dx| rules::$tangent(dx, x)))
        }
    )*};
}

/// Methods whose tangent rule reads the output: `(dx, out)`.
macro_rules! reads_output {
    ($($name:ident $tangent:ident;)*) => {$(
        fn $name(self) -> Self {
            let out = self.re.$name();
            Dual::new(out, self.eps.map(|dx| rules::$tangent(dx, out)))
        }
    )*};
}

/// Piecewise-constant methods: tangent 0, from the rule.
macro_rules! reads_nothing {
    ($($name:ident $tangent:ident;)*) => {$(
        fn $name(self) -> Self {
            Dual::new(self.re.$name(), self.eps.map(rules::$tangent))
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
            Dual::real(T::$name())
        }
    )*};
}

impl<T: Float, E: Directions<T>> Float for Dual<T, E> {
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

    #[inline]
    fn mul_add(self, b: Self, c: Self) -> Self {
        let (x, y) = (self.re, b.re);
        Dual::new(
            x.mul_add(y, c.re),
            self.eps.zip3(b.eps, c.eps, |dx, dy, dz| {
                rules::mul_add_tangent(dx, dy, dz, x, y)
            }),
        )
    }

    #[inline]
    fn powi(self, n: i32) -> Self {
        let x = self.re;
        Dual::new(x.powi(n), self.eps.map(|dx| rules::powi_tangent(dx, x, n)))
    }

    #[inline]
    fn powf(self, b: Self) -> Self {
        let (x, y) = (self.re, b.re);
        let out = x.powf(y);
        Dual::new(
            out,
            self.eps
                .zip(b.eps, |dx, dy| rules::pow_tangent(dx, dy, x, y, out)),
        )
    }

    #[inline]
    fn log(self, base: Self) -> Self {
        let (x, b) = (self.re, base.re);
        let out = x.log(b);
        Dual::new(
            out,
            self.eps
                .zip(base.eps, |dx, db| rules::log_tangent(dx, db, x, b, out)),
        )
    }

    #[inline]
    fn max(self, b: Self) -> Self {
        let (x, y) = (self.re, b.re);
        Dual::new(
            rules::max(x, y),
            self.eps
                .zip(b.eps, |dx, dy| rules::max_tangent(dx, dy, x, y)),
        )
    }

    #[inline]
    fn min(self, b: Self) -> Self {
        let (x, y) = (self.re, b.re);
        Dual::new(
            rules::min(x, y),
            self.eps
                .zip(b.eps, |dx, dy| rules::min_tangent(dx, dy, x, y)),
        )
    }

    /// `max(a − b, 0)`, composed from the rules of `−` and `max`.
    #[inline]
    fn abs_sub(self, b: Self) -> Self {
        (self - b).max(<Self as Zero>::zero())
    }

    #[inline]
    fn hypot(self, b: Self) -> Self {
        let (x, y) = (self.re, b.re);
        let out = x.hypot(y);
        Dual::new(
            out,
            self.eps
                .zip(b.eps, |dx, dy| rules::hypot_tangent(dx, dy, x, y, out)),
        )
    }

    #[inline]
    fn sin_cos(self) -> (Self, Self) {
        let x = self.re;
        let (s, c) = x.sin_cos();
        let (ds, dc) = self.eps.map2(|dx| rules::sin_cos_tangent(dx, x));
        (Dual::new(s, ds), Dual::new(c, dc))
    }

    #[inline]
    fn atan2(self, x: Self) -> Self {
        let (y, xr) = (self.re, x.re);
        Dual::new(
            y.atan2(xr),
            self.eps
                .zip(x.eps, |dy, dx| rules::atan2_tangent(dy, dx, y, xr)),
        )
    }

    #[inline]
    fn clamp(self, lo: Self, hi: Self) -> Self {
        let (x, l, h) = (self.re, lo.re, hi.re);
        Dual::new(
            rules::clamp(x, l, h),
            self.eps.zip3(lo.eps, hi.eps, |dx, dl, dh| {
                rules::clamp_tangent(dx, dl, dh, x, l, h)
            }),
        )
    }
}

// `Real` comes to `Dual` through its blanket impl over `Float`.
const _: fn() = || {
    #[inline]
    fn is_real<R: rules::Real>() {}
    is_real::<Dual<f64>>();
    is_real::<Dual<f32>>();
    is_real::<DualLanes<f64, 8>>();
    is_real::<DualLanes<f32, 8>>();
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
