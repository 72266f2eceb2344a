//! Piecewise functions: `abs`, `clamp`, and the piecewise-constant
//! `signum floor ceil round trunc` with the sawtooth `fract` and
//! `rem_euclid`.
//!
//! **At a point without a derivative (a kink, a jump, a tie) every rule
//! gives the derivative of one of the adjacent smooth pieces**, the same
//! piece in the pullback, the tangent and so in second order (a dual
//! number's real part decides, as the primal's value did), so a function
//! that is smooth through the kink keeps its exact first and second
//! derivatives. Each rule says which piece:
//!
//! - `abs`: the sign of the zero picks it, `copysign(1, x)`: `+0` the
//!   right piece `x` (slope 1), `−0` the left piece `−x` (slope −1). An
//!   IEEE product or quotient signs a zero by its operands' signs (`−x·x`
//!   at `x = +0` is `−0`, the left piece's side), so `(x * x).abs()`, `(-x * x).abs()`, `x.abs().powi(2)` and
//!   `x.abs() * x` have their exact derivatives at both zeros.
//! - `clamp` at a bound: the piece `x` (the value is `x` there).
//! - A piecewise-constant function at a jump: either piece is a constant,
//!   so the derivative is 0; these pullbacks read nothing and return 0
//!   whatever the operand and the adjoint, NaN and ±∞ included, as
//!   [`pow_grad_lhs`](super::pow_grad_lhs) does for the constant `a^0`. A
//!   NaN operand still shows: the value is NaN.
//!   Its result is a constant: no path runs through it, in every mode
//!   (the macro treats it as inactive, as `stop_gradient`'s), so an
//!   infinite slope before it (`x.sqrt().ceil()` at 0) gives 0, not
//!   `0·∞ = NaN`; the dynamic graph and the sparse tracer agree.
//! - `fract` is `x − trunc(x)` and `rem_euclid` `x − m·q`: slope 1 in `x`
//!   on either side of a jump, so 1 at the jump; in `m`, `−q` of the side
//!   the value is on.

use super::Real;

/// Absolute value.
#[inline(always)]
pub fn abs<T: Real>(x: T) -> T {
    x.abs()
}
/// d/dx |x| = sign(x): reads the input. At `x = ±0` the slope of the
/// piece the zero's sign picks, `copysign(1, x)`: 1 at `+0`, −1 at `−0`
/// (see the module's documentation). At NaN, 0: no piece, and the value
/// is NaN.
#[inline(always)]
pub fn abs_grad<T: Real>(grad: T, x: T) -> T {
    if x.is_nan() {
        T::zero()
    } else if x.is_sign_negative() {
        -grad
    } else {
        grad
    }
}
/// ẏ = copysign(1, x)·ẋ: [`abs_grad`] at seed ẋ, the same piece at ±0.
#[inline(always)]
pub fn abs_tangent<T: Real>(dx: T, x: T) -> T {
    abs_grad(dx, x)
}

/// Defines a piecewise-constant function: its primal, a pullback and a
/// tangent that read nothing and are 0 (see the module's documentation).
macro_rules! piecewise_constant {
    ($($name:ident, $grad:ident, $tangent:ident: $what:literal;)*) => {$(
        #[doc = $what]
        #[inline(always)]
        pub fn $name<T: Real>(x: T) -> T {
            x.$name()
        }
        #[doc = concat!("d/dx `", stringify!($name), "` = 0, also at its jumps (the slope of either adjacent constant piece), NaN and ±∞ included: reads nothing, and is 0 whatever the adjoint.")]
        #[inline(always)]
        pub fn $grad<T: Real>(_grad: T) -> T {
            T::zero()
        }
        #[doc = concat!("ẏ = 0: [`", stringify!($grad), "`] at seed ẋ.")]
        #[inline(always)]
        pub fn $tangent<T: Real>(dx: T) -> T {
            $grad(dx)
        }
    )*};
}

piecewise_constant! {
    signum, signum_grad, signum_tangent: "The sign: 1 for `+0` and above, −1 for `−0` and below, NaN for NaN (`f64::signum`).";
    floor, floor_grad, floor_tangent: "The largest integer not above `x`.";
    ceil, ceil_grad, ceil_tangent: "The smallest integer not below `x`.";
    round, round_grad, round_tangent: "The nearest integer, halves away from zero.";
    trunc, trunc_grad, trunc_tangent: "The integer part of `x`, rounded towards zero.";
}

/// `x − trunc(x)`: the fractional part, with the sign of `x`.
#[inline(always)]
pub fn fract<T: Real>(x: T) -> T {
    x.fract()
}
/// d/dx fract x = 1, also at the integers where it jumps (the one-sided
/// derivatives): the adjoint passes through; reads nothing.
#[inline(always)]
pub fn fract_grad<T: Real>(grad: T) -> T {
    grad
}
/// ẏ = ẋ: [`fract_grad`] at seed ẋ.
#[inline(always)]
pub fn fract_tangent<T: Real>(dx: T) -> T {
    fract_grad(dx)
}

/// `x.rem_euclid(m)`: the least nonnegative remainder `x − m·q` (`q` the
/// integer `f64::div_euclid` gives), computed as `f64::rem_euclid` does,
/// so it is the primal's bit for bit at `f64` and `f32` and differentiable
/// at a dual number (whose `%` carries its tangent).
#[inline(always)]
pub fn rem_euclid<T: Real>(x: T, m: T) -> T {
    x.rem_euclid(m)
}
/// ∂/∂x rem_euclid(x, m) = 1 between the jumps and, as for `fract`, at
/// them (the one-sided derivatives): the adjoint passes through.
#[inline(always)]
pub fn rem_euclid_grad_lhs<T: Real>(grad: T) -> T {
    grad
}
/// ∂/∂m rem_euclid(x, m) = −q, the integer `(x − out) / m`: rounded,
/// since the division of the exact difference is within an ulp of it.
/// At a jump, the quotient of the side `out` is on.
#[inline(always)]
pub fn rem_euclid_grad_rhs<T: Real>(grad: T, x: T, m: T, out: T) -> T {
    -grad * ((x - out) / m).round()
}
/// ẏ = ẋ − q·ṁ: [`rem_euclid_grad_lhs`] and [`rem_euclid_grad_rhs`] at
/// seeds ẋ and ṁ.
#[inline(always)]
pub fn rem_euclid_tangent<T: Real>(dx: T, dm: T, x: T, m: T, out: T) -> T {
    rem_euclid_grad_lhs(dx) + rem_euclid_grad_rhs(dm, x, m, out)
}

/// `x % m`: the remainder of truncated division (C's `fmod`), as `f64`'s
/// `%`, `x − q·m` with `q = trunc(x / m)`.
#[inline(always)]
pub fn rem<T: Real>(x: T, m: T) -> T {
    x.rem(m)
}
/// ∂(x % m)/∂x = 1: [`rem_euclid_grad_lhs`], the same slope.
#[inline(always)]
pub fn rem_grad_lhs<T: Real>(grad: T) -> T {
    rem_euclid_grad_lhs(grad)
}
/// ∂(x % m)/∂m = −q: [`rem_euclid_grad_rhs`], whose quotient
/// `(x − out) / m` is the truncated one for `%`'s `out`.
#[inline(always)]
pub fn rem_grad_rhs<T: Real>(grad: T, x: T, m: T, out: T) -> T {
    rem_euclid_grad_rhs(grad, x, m, out)
}
/// ẏ = ẋ − q·ṁ: [`rem_euclid_tangent`] at `%`'s `out`.
#[inline(always)]
pub fn rem_tangent<T: Real>(dx: T, dm: T, x: T, m: T, out: T) -> T {
    rem_euclid_tangent(dx, dm, x, m, out)
}

/// `x.clamp(lo, hi)`: `lo` where `x < lo`, `hi` where `x > hi`, else `x`
/// (NaN `x` included), as `f64::clamp`.
///
/// # Panics
///
/// Like `f64::clamp` (whose value the generated code must reproduce),
/// when `lo > hi` or either bound is NaN.
#[inline(always)]
pub fn clamp<T: Real>(x: T, lo: T, hi: T) -> T {
    x.clamp(lo, hi)
}
/// Whether `x.clamp(lo, hi)` takes its value from `x`: `lo ≤ x ≤ hi`,
/// bounds included, or `x` is NaN. `clamp(x, lo, hi)` is
/// `min(max(x, lo), hi)`, and [`max_takes_lhs`](super::max_takes_lhs) and
/// [`min_takes_lhs`](super::min_takes_lhs) give a tie to the first
/// argument, so `x` wins at either bound.
#[inline(always)]
pub fn clamp_takes_x<T: Real>(x: T, lo: T, hi: T) -> bool {
    x.is_nan() || (lo <= x && x <= hi)
}
/// ∂ clamp/∂x: 1 where the value comes from `x` ([`clamp_takes_x`]:
/// `lo ≤ x ≤ hi`, at the bounds too, or NaN `x`), else 0; reads `x`, `lo`
/// and `hi`. At a bound, so, the slopes of the middle piece `x` (1 for
/// `x`, 0 for the bound), one of the two adjacent pieces.
#[inline(always)]
pub fn clamp_grad_x<T: Real>(grad: T, x: T, lo: T, hi: T) -> T {
    if clamp_takes_x(x, lo, hi) {
        grad
    } else {
        T::zero()
    }
}
/// Whether `x.clamp(lo, hi)` takes its value from `lo`: `x < lo`,
/// strictly (a tie goes to `x`).
#[inline(always)]
pub fn clamp_takes_lo<T: Real>(x: T, lo: T) -> bool {
    x < lo
}
/// Whether `x.clamp(lo, hi)` takes its value from `hi`: `x > hi`,
/// strictly.
#[inline(always)]
pub fn clamp_takes_hi<T: Real>(x: T, hi: T) -> bool {
    x > hi
}
/// ∂ clamp/∂lo: 1 where the value is `lo` ([`clamp_takes_lo`]), else 0;
/// reads `x` and `lo`.
#[inline(always)]
pub fn clamp_grad_lo<T: Real>(grad: T, x: T, lo: T) -> T {
    if clamp_takes_lo(x, lo) {
        grad
    } else {
        T::zero()
    }
}
/// ∂ clamp/∂hi: 1 where the value is `hi` ([`clamp_takes_hi`]), else 0;
/// reads `x` and `hi`.
#[inline(always)]
pub fn clamp_grad_hi<T: Real>(grad: T, x: T, hi: T) -> T {
    if clamp_takes_hi(x, hi) {
        grad
    } else {
        T::zero()
    }
}
/// ẏ = the tangent of the operand the value came from: the three
/// pullbacks at seeds ẋ, l̇o, ḣi (the two others give 0).
#[inline(always)]
pub fn clamp_tangent<T: Real>(dx: T, dlo: T, dhi: T, x: T, lo: T, hi: T) -> T {
    clamp_grad_x(dx, x, lo, hi) + clamp_grad_lo(dlo, x, lo) + clamp_grad_hi(dhi, x, hi)
}
