//! `+ - * /`, unary minus, powers, and the two-argument `max` / `min`.

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

/// `a^b` with a floating-point exponent (`powf`).
#[inline(always)]
pub fn pow<T: Real>(a: T, b: T) -> T {
    a.powf(b)
}
/// d(a^b)/da = b·a^(b-1).
#[inline(always)]
pub fn pow_grad_lhs<T: Real>(grad: T, a: T, b: T) -> T {
    grad * b * a.powf(b - T::ONE)
}
/// d(a^b)/db = a^b·ln(a) = out·ln(a); 0 where the output is 0 (a = 0 with
/// b > 0, the limit from the right), NaN for a negative base, where `a^b`
/// is not differentiable in `b`.
#[inline(always)]
pub fn pow_grad_rhs<T: Real>(grad: T, a: T, out: T) -> T {
    if out == T::ZERO {
        T::ZERO
    } else {
        grad * out * a.ln()
    }
}

/// `a^n` with an integer exponent (`powi`).
#[inline(always)]
pub fn powi<T: Real>(a: T, n: i32) -> T {
    a.powi(n)
}
/// d(a^n)/da = n·a^(n-1); the exponent is a constant and gets no adjoint.
#[inline(always)]
pub fn powi_grad<T: Real>(grad: T, a: T, n: i32) -> T {
    if n == 0 {
        T::ZERO
    } else {
        grad * T::from_i32(n) * a.powi(n - 1)
    }
}

/// Whether `a.max(b)` takes its value from `a`: the first argument wins a
/// tie (as the seed's max reduction does), and a NaN loses, as in
/// `f64::max`, so the adjoint goes where the value came from.
#[inline(always)]
pub fn max_takes_lhs<T: Real>(a: T, b: T) -> bool {
    a >= b || b.is_nan()
}
/// d max(a,b)/da: 1 where `a` is the value `max` returned, else 0.
#[inline(always)]
pub fn max_grad_lhs<T: Real>(grad: T, a: T, b: T) -> T {
    if max_takes_lhs(a, b) { grad } else { T::ZERO }
}
/// d max(a,b)/db: 1 where `b` is the value `max` returned, else 0.
#[inline(always)]
pub fn max_grad_rhs<T: Real>(grad: T, a: T, b: T) -> T {
    if max_takes_lhs(a, b) { T::ZERO } else { grad }
}

/// Whether `a.min(b)` takes its value from `a` (first wins a tie, NaN loses).
#[inline(always)]
pub fn min_takes_lhs<T: Real>(a: T, b: T) -> bool {
    a <= b || b.is_nan()
}
/// d min(a,b)/da: 1 where `a` is the value `min` returned, else 0.
#[inline(always)]
pub fn min_grad_lhs<T: Real>(grad: T, a: T, b: T) -> T {
    if min_takes_lhs(a, b) { grad } else { T::ZERO }
}
/// d min(a,b)/db: 1 where `b` is the value `min` returned, else 0.
#[inline(always)]
pub fn min_grad_rhs<T: Real>(grad: T, a: T, b: T) -> T {
    if min_takes_lhs(a, b) { T::ZERO } else { grad }
}
