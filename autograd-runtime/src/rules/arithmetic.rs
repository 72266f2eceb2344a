//! `+ - * /`, unary minus, `mul_add`, powers, and the two-argument `max` /
//! `min`.

use super::Real;

/// `a + b`.
#[inline(always)]
pub fn add<T: Real>(a: T, b: T) -> T {
    a + b
}
/// d(a+b)/da = 1: the adjoint passes through.
#[inline(always)]
pub fn add_grad_lhs<T: Real>(grad: T) -> T {
    grad
}
/// d(a+b)/db = 1: the adjoint passes through.
#[inline(always)]
pub fn add_grad_rhs<T: Real>(grad: T) -> T {
    grad
}
/// ẏ = ȧ + ḃ: the pullbacks at seeds ȧ and ḃ.
#[inline(always)]
pub fn add_tangent<T: Real>(da: T, db: T) -> T {
    add_grad_lhs(da) + add_grad_rhs(db)
}

/// `a - b`.
#[inline(always)]
pub fn sub<T: Real>(a: T, b: T) -> T {
    a - b
}
/// d(a-b)/da = 1.
#[inline(always)]
pub fn sub_grad_lhs<T: Real>(grad: T) -> T {
    grad
}
/// d(a-b)/db = -1.
#[inline(always)]
pub fn sub_grad_rhs<T: Real>(grad: T) -> T {
    -grad
}
/// ẏ = ȧ − ḃ: the pullbacks at seeds ȧ and ḃ.
#[inline(always)]
pub fn sub_tangent<T: Real>(da: T, db: T) -> T {
    sub_grad_lhs(da) + sub_grad_rhs(db)
}

/// `a * b`.
#[inline(always)]
pub fn mul<T: Real>(a: T, b: T) -> T {
    a * b
}
/// d(a·b)/da = b: the other operand's value.
#[inline(always)]
pub fn mul_grad_lhs<T: Real>(grad: T, b: T) -> T {
    grad * b
}
/// d(a·b)/db = a.
#[inline(always)]
pub fn mul_grad_rhs<T: Real>(grad: T, a: T) -> T {
    grad * a
}
/// ẏ = ȧ·b + a·ḃ: the pullbacks at seeds ȧ and ḃ.
#[inline(always)]
pub fn mul_tangent<T: Real>(da: T, db: T, a: T, b: T) -> T {
    mul_grad_lhs(da, b) + mul_grad_rhs(db, a)
}

/// `a.mul_add(b, c)`: `a·b + c` with one rounding.
#[inline(always)]
pub fn mul_add<T: Real>(a: T, b: T, c: T) -> T {
    a.mul_add(b, c)
}
/// ∂(a·b + c)/∂a = b: the exact product's partial (the fused rounding is
/// not differentiated); reads `b`.
#[inline(always)]
pub fn mul_add_grad_a<T: Real>(grad: T, b: T) -> T {
    mul_grad_lhs(grad, b)
}
/// ∂(a·b + c)/∂b = a; reads `a`.
#[inline(always)]
pub fn mul_add_grad_b<T: Real>(grad: T, a: T) -> T {
    mul_grad_rhs(grad, a)
}
/// ∂(a·b + c)/∂c = 1: the adjoint passes through; reads nothing.
#[inline(always)]
pub fn mul_add_grad_c<T: Real>(grad: T) -> T {
    grad
}
/// ẏ = ȧ·b + a·ḃ + ċ: the three pullbacks at seeds ȧ, ḃ, ċ.
#[inline(always)]
pub fn mul_add_tangent<T: Real>(da: T, db: T, dc: T, a: T, b: T) -> T {
    mul_add_grad_a(da, b) + mul_add_grad_b(db, a) + mul_add_grad_c(dc)
}

/// `a / b`.
#[inline(always)]
pub fn div<T: Real>(a: T, b: T) -> T {
    a / b
}
/// d(a/b)/da = 1/b.
#[inline(always)]
pub fn div_grad_lhs<T: Real>(grad: T, b: T) -> T {
    grad / b
}
/// d(a/b)/db = -a/b² = -(a/b)/b: reuses the output.
#[inline(always)]
pub fn div_grad_rhs<T: Real>(grad: T, b: T, out: T) -> T {
    -(grad * out / b)
}
/// ẏ = ȧ/b − ḃ·out/b: the pullbacks at seeds ȧ and ḃ.
#[inline(always)]
pub fn div_tangent<T: Real>(da: T, db: T, b: T, out: T) -> T {
    div_grad_lhs(da, b) + div_grad_rhs(db, b, out)
}

/// `-a`.
#[inline(always)]
pub fn neg<T: Real>(a: T) -> T {
    -a
}
/// d(-a)/da = -1.
#[inline(always)]
pub fn neg_grad<T: Real>(grad: T) -> T {
    -grad
}
/// ẏ = −ẋ: [`neg_grad`] at seed ẋ.
#[inline(always)]
pub fn neg_tangent<T: Real>(dx: T) -> T {
    neg_grad(dx)
}

/// `a^b` with a floating-point exponent (`powf`).
#[inline(always)]
pub fn pow<T: Real>(a: T, b: T) -> T {
    a.powf(b)
}
/// d(a^b)/da = b·a^(b−1), the adjoint `grad·(b·a^(b−1))`.
///
/// Conventions (each tested against its closed form):
/// - `b = 0`: 0 for every `a`, including 0, ±∞ and NaN, whatever `grad`:
///   `a^0 = 1` is a constant function of `a`.
/// - `b = 1`: `grad` for every `a` (`a^0 = 1`).
/// - `a = 0`: 0 for `b > 1`; +∞ for `0 < b < 1` (the one-sided limit);
///   for `b < 0`, the pole's infinity `b·(±0)^(b−1)`, signed as IEEE
///   `powf` signs `(±0)^(b−1)`. So, as for `abs`, the zero's sign picks
///   the piece where two exist (an integer `b`: `−0` the left one, e.g.
///   +∞ for `b = −2`), and where only the right one exists (`a^b` is NaN
///   for `a < 0` and a non-integer `b`) both zeros take it.
/// - `a < 0`: for an integer `b`, the derivative, with the sign of
///   `a^(b−1)` also where `b − 1` is not a float (`|b| ≥ 2⁵³` for `f64`,
///   `2²⁴` for `f32`: every such `b` is even, `b − 1` odd and rounded to
///   `b`, so `a^(b−1)` is computed as `a^b / a`); NaN for a non-integer
///   `b`, where `a^b` itself is NaN.
/// - `a = ±∞` and `b = ±∞`: the IEEE value of `b·a^(b−1)` (NaN where
///   that is `0·∞`).
#[inline(always)]
pub fn pow_grad_lhs<T: Real>(grad: T, a: T, b: T) -> T {
    if b == T::zero() {
        return T::zero();
    }
    grad * (b * pow_minus_one(a, b))
}

/// `a^(b−1)` for the base's derivative: `a.powf(b − 1)` wherever `b − 1`
/// is exact, else `a^b / a` (see [`pow_grad_lhs`]).
#[inline(always)]
fn pow_minus_one<T: Real>(a: T, b: T) -> T {
    // Below 2/ε every float is an integer or has b − 1 exact.
    if !b.is_finite() || b.abs() < T::two() / T::epsilon() {
        return a.powf(b - T::one());
    }
    odd_power_below(a, a.powf(b))
}

/// `a^(k−1)` from `a^k` for an even `k`: `a^k / a`, and at `a = ±0` or
/// `±∞`, where that division is `0/0` or `∞/∞`, `a^k` with the sign of `a`
/// (an odd power of `±0` is `±0` or `±∞`, of `±∞` is `±∞` or `±0`).
#[inline(always)]
fn odd_power_below<T: Real>(a: T, even_power: T) -> T {
    if a == T::zero() || !a.is_finite() {
        even_power.copysign(a)
    } else {
        even_power / a
    }
}

/// d(a^b)/db = a^b·ln(a) = out·ln(a), the adjoint `grad·(out·ln a)`.
///
/// Conventions:
/// - `out = 0` with `a ≥ 0` (`a = 0` with `b > 0`, or an underflow): 0,
///   the limit from the right; `a = 0`, `b = 0`: −∞ (`0^b` drops from 1
///   to 0 for `b > 0` and rises to ∞ for `b < 0`).
/// - `a = 1`: 0 for every `b` (`1^b = 1`, NaN `b` included).
/// - `a < 0`: NaN, also at an integer `b` and where `out` underflows: `a^b`
///   is real only at integer `b`, so it has no derivative in `b`.
/// - `a = +∞`: +∞ for `b > 0`, 0 for `b < 0`.
#[inline(always)]
pub fn pow_grad_rhs<T: Real>(grad: T, a: T, out: T) -> T {
    if out == T::zero() && a >= T::zero() {
        T::zero()
    } else {
        grad * (out * a.ln())
    }
}
/// ẏ = b·a^(b−1)·ȧ + out·ln a·ḃ: the pullbacks at seeds ȧ and ḃ, with
/// their conventions.
#[inline(always)]
pub fn pow_tangent<T: Real>(da: T, db: T, a: T, b: T, out: T) -> T {
    pow_grad_lhs(da, a, b) + pow_grad_rhs(db, a, out)
}

/// `a^n` with an integer exponent (`powi`).
#[inline(always)]
pub fn powi<T: Real>(a: T, n: i32) -> T {
    a.powi(n)
}
/// d(a^n)/da = n·a^(n−1), the adjoint `grad·(n·a^(n−1))`; the exponent is
/// a constant and gets no adjoint.
///
/// Conventions (each tested against its closed form):
/// - `n = 0`: 0 for every `a`, including 0, ±∞ and NaN, whatever `grad`:
///   `a^0 = 1` is a constant function of `a`.
/// - `n = i32::MIN`: `n − 1` is no `i32`, so `a^(n−1)` is computed as
///   `a^n / a` (at `a = ±0`, ±∞ signed like `a`; at `a = ±∞`, ±0): the
///   derivative at −1 is 2³¹, at 1 it is −2³¹.
/// - `a = 0`: 0 for `n ≥ 2`, 1 for `n = 1`; for `n < 0`, the pole's
///   infinity `n·(±0)^(n−1)`, the one-sided limit on the side of the zero's
///   sign (−∞ on both sides for `n = −1`).
/// - `a < 0`: the derivative, `n·a^(n−1)` with the sign of the odd or even
///   power.
/// - `a = ±∞`: the limit: ±∞ for `n ≥ 2`, 1 for `n = 1`, ±0 for `n < 0`.
/// - `n` is converted to the float type, exactly for `f64`; for `f32`, an
///   `|n| > 2²⁴` is rounded to the nearest `f32` (a relative error below
///   `f32::EPSILON`).
#[inline(always)]
pub fn powi_grad<T: Real>(grad: T, a: T, n: i32) -> T {
    if n == 0 {
        return T::zero();
    }
    let power = match n.checked_sub(1) {
        Some(below) => a.powi(below),
        None => odd_power_below(a, a.powi(n)),
    };
    grad * (T::from_i32(n) * power)
}
/// ẏ = n·a^(n−1)·ȧ: [`powi_grad`] at seed ȧ (the exponent is constant).
#[inline(always)]
pub fn powi_tangent<T: Real>(da: T, a: T, n: i32) -> T {
    powi_grad(da, a, n)
}

/// `a.max(b)`: the operand [`max_takes_lhs`] picks, so the value comes
/// from where the adjoint goes.
#[inline(always)]
pub fn max<T: Real>(a: T, b: T) -> T {
    if max_takes_lhs(a, b) { a } else { b }
}
/// Whether `a.max(b)` takes its value from `a`: the first argument wins a
/// tie (as the seed's max reduction does), and a NaN loses, as in
/// `f64::max`, so the adjoint goes where the value came from.
#[inline(always)]
pub fn max_takes_lhs<T: Real>(a: T, b: T) -> bool {
    a >= b || b.is_nan()
}
/// d max(a,b)/da: 1 where `a` is the value `max` returned, else 0. On a
/// tie (`a == b`, `+0` against `−0` too) the slopes of the piece `a`, one
/// of the two adjacent pieces (on the side where `a` is the larger), in
/// the pullbacks, the tangent and second order alike: `x.max(x)` has
/// slope 1 and curvature 0.
#[inline(always)]
pub fn max_grad_lhs<T: Real>(grad: T, a: T, b: T) -> T {
    if max_takes_lhs(a, b) { grad } else { T::zero() }
}
/// Whether `a.max(b)` takes its value from `b`: not from `a`.
#[inline(always)]
pub fn max_takes_rhs<T: Real>(a: T, b: T) -> bool {
    !max_takes_lhs(a, b)
}
/// d max(a,b)/db: 1 where `b` is the value `max` returned, else 0.
#[inline(always)]
pub fn max_grad_rhs<T: Real>(grad: T, a: T, b: T) -> T {
    if max_takes_rhs(a, b) { grad } else { T::zero() }
}
/// ẏ = the tangent of the operand `max` took: the pullbacks at seeds ȧ
/// and ḃ.
#[inline(always)]
pub fn max_tangent<T: Real>(da: T, db: T, a: T, b: T) -> T {
    max_grad_lhs(da, a, b) + max_grad_rhs(db, a, b)
}

/// `a.min(b)`: the operand [`min_takes_lhs`] picks.
#[inline(always)]
pub fn min<T: Real>(a: T, b: T) -> T {
    if min_takes_lhs(a, b) { a } else { b }
}
/// Whether `a.min(b)` takes its value from `a` (first wins a tie, NaN loses).
#[inline(always)]
pub fn min_takes_lhs<T: Real>(a: T, b: T) -> bool {
    a <= b || b.is_nan()
}
/// d min(a,b)/da: 1 where `a` is the value `min` returned, else 0; on a
/// tie the piece `a`, as [`max_grad_lhs`].
#[inline(always)]
pub fn min_grad_lhs<T: Real>(grad: T, a: T, b: T) -> T {
    if min_takes_lhs(a, b) { grad } else { T::zero() }
}
/// Whether `a.min(b)` takes its value from `b`: not from `a`.
#[inline(always)]
pub fn min_takes_rhs<T: Real>(a: T, b: T) -> bool {
    !min_takes_lhs(a, b)
}
/// d min(a,b)/db: 1 where `b` is the value `min` returned, else 0.
#[inline(always)]
pub fn min_grad_rhs<T: Real>(grad: T, a: T, b: T) -> T {
    if min_takes_rhs(a, b) { grad } else { T::zero() }
}
/// ẏ = the tangent of the operand `min` took: the pullbacks at seeds ȧ
/// and ḃ.
#[inline(always)]
pub fn min_tangent<T: Real>(da: T, db: T, a: T, b: T) -> T {
    min_grad_lhs(da, a, b) + min_grad_rhs(db, a, b)
}
