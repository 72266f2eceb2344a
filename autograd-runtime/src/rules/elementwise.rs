//! The element-wise rules lifted to `DMatrix<f64>`.
//!
//! Each function applies the scalar rule of the same name to every element,
//! so a matrix derivative is never a second copy of a formula: `exp_grad`
//! here is `rules::exp_grad` per element, and `exp_tangent` is
//! `rules::exp_tangent` per element. The Jacobian of an element-wise
//! function is diagonal, so a lifted pullback and the lifted tangent are
//! the same function of their seed. Operands of a binary rule must have
//! the same shape.
//!
//! Every unary scalar rule is lifted: `neg exp exp2 exp_m1 ln ln_1p log2
//! log10 sqrt cbrt recip sin cos tan asin acos atan sinh cosh tanh asinh
//! acosh atanh abs signum floor ceil round trunc fract relu sigmoid`, each
//! as `NAME(x)`, `NAME_grad(grad, reads..)` and `NAME_tangent(dx,
//! reads..)` reading what the scalar pullback reads.
//!
//! The elements are walked in their column-major storage, not column by
//! column as nalgebra's `map` does: the time is the element count's
//! whatever the shape, so an empty `0 × 2⁶⁴⁻¹` matrix costs nothing
//! (nalgebra would visit each of its empty columns).
//!
//! # Panics
//!
//! The binary rules panic when their operands' shapes differ. The registry
//! and the dynamic graph check shapes first and return an error instead.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::rules::elementwise;
//! use nalgebra::DMatrix;
//!
//! let x = DMatrix::from_row_slice(1, 2, &[0.0, 1.0]);
//! let y = elementwise::exp(&x);
//! let dx = elementwise::exp_grad(&DMatrix::repeat(1, 2, 1.0), &y);
//! assert_eq!(dx, y); // d/dx e^x = e^x
//! ```

use nalgebra::DMatrix;

use crate::rules as s;

type M = DMatrix<f64>;

/// `f(x[i])` for every element.
#[inline]
fn map1(x: &M, f: impl Fn(f64) -> f64) -> M {
    let data = x.as_slice().iter().map(|&x| f(x)).collect();
    M::from_vec(x.nrows(), x.ncols(), data)
}

/// `f(a[i], b[i])` for every element.
///
/// # Panics
///
/// When the shapes differ.
#[inline]
fn map2(a: &M, b: &M, f: impl Fn(f64, f64) -> f64) -> M {
    assert_eq!(
        a.shape(),
        b.shape(),
        "element-wise operands of different shapes"
    );
    let data = a
        .as_slice()
        .iter()
        .zip(b.as_slice())
        .map(|(&a, &b)| f(a, b))
        .collect();
    M::from_vec(a.nrows(), a.ncols(), data)
}

/// `f(a[i], b[i], c[i])` for every element.
///
/// # Panics
///
/// When the shapes differ.
#[inline]
fn map3(a: &M, b: &M, c: &M, f: impl Fn(f64, f64, f64) -> f64) -> M {
    assert!(
        a.shape() == b.shape() && b.shape() == c.shape(),
        "element-wise operands of different shapes"
    );
    let data = a
        .as_slice()
        .iter()
        .zip(b.as_slice())
        .zip(c.as_slice())
        .map(|((&a, &b), &c)| f(a, b, c))
        .collect();
    M::from_vec(a.nrows(), a.ncols(), data)
}

/// `f([a₁[i], .., a_N[i]])` for every element: the tangents of the binary
/// rules, which read up to five matrices.
///
/// # Panics
///
/// When the shapes differ.
#[inline]
fn map_n<const N: usize>(args: [&M; N], f: impl Fn([f64; N]) -> f64) -> M {
    let (rows, cols) = args[0].shape();
    assert!(
        args.iter().all(|a| a.shape() == (rows, cols)),
        "element-wise operands of different shapes"
    );
    let slices = args.map(|a| a.as_slice());
    let data = (0..rows * cols).map(|i| f(slices.map(|s| s[i]))).collect();
    M::from_vec(rows, cols, data)
}

/// `a + b`, element-wise.
#[inline]
pub fn add(a: &M, b: &M) -> M {
    map2(a, b, s::add)
}
/// d(a+b)/da = 1: the incoming adjoint passes through to `a`.
#[inline]
pub fn add_grad_lhs(grad: &M) -> M {
    map1(grad, s::add_grad_lhs)
}
/// d(a+b)/db = 1: the incoming adjoint passes through to `b`.
#[inline]
pub fn add_grad_rhs(grad: &M) -> M {
    map1(grad, s::add_grad_rhs)
}
/// ẏ = ȧ + ḃ, element-wise.
#[inline]
pub fn add_tangent(da: &M, db: &M) -> M {
    map2(da, db, s::add_tangent)
}

/// `a - b`, element-wise.
#[inline]
pub fn sub(a: &M, b: &M) -> M {
    map2(a, b, s::sub)
}
/// d(a-b)/da = 1: adjoint of `a - b` for `a`.
#[inline]
pub fn sub_grad_lhs(grad: &M) -> M {
    map1(grad, s::sub_grad_lhs)
}
/// d(a-b)/db = -1: `b` gets the negated incoming adjoint.
#[inline]
pub fn sub_grad_rhs(grad: &M) -> M {
    map1(grad, s::sub_grad_rhs)
}
/// ẏ = ȧ − ḃ, element-wise.
#[inline]
pub fn sub_tangent(da: &M, db: &M) -> M {
    map2(da, db, s::sub_tangent)
}

/// `a ∘ b`, the element-wise product (nalgebra's `component_mul`).
#[inline]
pub fn mul(a: &M, b: &M) -> M {
    map2(a, b, s::mul)
}
/// d(a∘b)/da = b: the adjoint of `a` is `grad ∘ b`.
#[inline]
pub fn mul_grad_lhs(grad: &M, b: &M) -> M {
    map2(grad, b, s::mul_grad_lhs)
}
/// d(a∘b)/db = a: the adjoint of `b` is `grad ∘ a`.
#[inline]
pub fn mul_grad_rhs(grad: &M, a: &M) -> M {
    map2(grad, a, s::mul_grad_rhs)
}
/// ẏ = ȧ∘b + a∘ḃ, element-wise.
#[inline]
pub fn mul_tangent(da: &M, db: &M, a: &M, b: &M) -> M {
    map_n([da, db, a, b], |[da, db, a, b]| {
        s::mul_tangent(da, db, a, b)
    })
}

/// `a ⊘ b`, the element-wise quotient (nalgebra's `component_div`).
#[inline]
pub fn div(a: &M, b: &M) -> M {
    map2(a, b, s::div)
}
/// d(a/b)/da = 1/b: the adjoint of `a` is `grad ⊘ b`.
#[inline]
pub fn div_grad_lhs(grad: &M, b: &M) -> M {
    map2(grad, b, s::div_grad_lhs)
}
/// d(a/b)/db = -out/b: the adjoint of `b` reuses the output.
#[inline]
pub fn div_grad_rhs(grad: &M, b: &M, out: &M) -> M {
    map3(grad, b, out, s::div_grad_rhs)
}
/// ẏ = ȧ⊘b − ḃ∘out⊘b, element-wise.
#[inline]
pub fn div_tangent(da: &M, db: &M, b: &M, out: &M) -> M {
    map_n([da, db, b, out], |[da, db, b, out]| {
        s::div_tangent(da, db, b, out)
    })
}

/// `a^b` per element (`powf`).
#[inline]
pub fn pow(a: &M, b: &M) -> M {
    map2(a, b, s::pow)
}
/// d(a^b)/da = b·a^(b-1): adjoint of `a^b` for the base, per element by
/// [`rules::pow_grad_lhs`](crate::rules::pow_grad_lhs), with its
/// conventions (0 where `b = 0`, whatever the base).
#[inline]
pub fn pow_grad_lhs(grad: &M, a: &M, b: &M) -> M {
    map3(grad, a, b, s::pow_grad_lhs)
}
/// d(a^b)/db = out·ln a: adjoint for the exponent, reusing the output, per
/// element by [`rules::pow_grad_rhs`](crate::rules::pow_grad_rhs), with its
/// conventions (0 where `out = 0` and `a ≥ 0`, NaN for a negative base).
#[inline]
pub fn pow_grad_rhs(grad: &M, a: &M, out: &M) -> M {
    map3(grad, a, out, s::pow_grad_rhs)
}
/// ẏ = b·a^(b−1)·ȧ + out·ln a·ḃ per element, by
/// [`rules::pow_tangent`](crate::rules::pow_tangent) with the pullbacks'
/// conventions.
#[inline]
pub fn pow_tangent(da: &M, db: &M, a: &M, b: &M, out: &M) -> M {
    map_n([da, db, a, b, out], |[da, db, a, b, out]| {
        s::pow_tangent(da, db, a, b, out)
    })
}

/// Lifts unary scalar rules: for each, the primal, the pullback and the
/// tangent, reading what the scalar pullback reads (`x`, `out` or nothing).
macro_rules! lift_unary {
    ($($name:ident, $grad:ident, $tangent:ident ($($read:ident)?): $what:literal;)*) => {$(
        #[doc = concat!($what, ", element-wise: [`rules::", stringify!($name), "`](crate::rules::", stringify!($name), ") per element.")]
        #[inline]
        pub fn $name(x: &M) -> M {
            map1(x, s::$name)
        }
        lift_unary!(@grad $name, $grad, $tangent, $($read)?);
    )*};
    (@grad $name:ident, $grad:ident, $tangent:ident, $read:ident) => {
        #[doc = concat!("The adjoint of `", stringify!($name), "` per element by [`rules::", stringify!($grad), "`](crate::rules::", stringify!($grad), "), reading `", stringify!($read), "`.")]
        #[inline]
        pub fn $grad(grad: &M, $read: &M) -> M {
            map2(grad, $read, s::$grad)
        }
        #[doc = concat!("The tangent of `", stringify!($name), "` per element by [`rules::", stringify!($tangent), "`](crate::rules::", stringify!($tangent), "), reading `", stringify!($read), "`.")]
        #[inline]
        pub fn $tangent(dx: &M, $read: &M) -> M {
            map2(dx, $read, s::$tangent)
        }
    };
    (@grad $name:ident, $grad:ident, $tangent:ident,) => {
        #[doc = concat!("The adjoint of `", stringify!($name), "` per element by [`rules::", stringify!($grad), "`](crate::rules::", stringify!($grad), "), reading nothing.")]
        #[inline]
        pub fn $grad(grad: &M) -> M {
            map1(grad, s::$grad)
        }
        #[doc = concat!("The tangent of `", stringify!($name), "` per element by [`rules::", stringify!($tangent), "`](crate::rules::", stringify!($tangent), "), reading nothing.")]
        #[inline]
        pub fn $tangent(dx: &M) -> M {
            map1(dx, s::$tangent)
        }
    };
}

lift_unary! {
    neg, neg_grad, neg_tangent(): "`-x`";
    exp, exp_grad, exp_tangent(out): "`e^x`";
    exp2, exp2_grad, exp2_tangent(out): "`2^x`";
    exp_m1, exp_m1_grad, exp_m1_tangent(out): "`e^x − 1`";
    ln, ln_grad, ln_tangent(x): "The natural logarithm";
    ln_1p, ln_1p_grad, ln_1p_tangent(x): "`ln(1 + x)`";
    log2, log2_grad, log2_tangent(x): "The base-2 logarithm";
    log10, log10_grad, log10_tangent(x): "The base-10 logarithm";
    sqrt, sqrt_grad, sqrt_tangent(out): "The square root";
    cbrt, cbrt_grad, cbrt_tangent(out): "The cube root";
    recip, recip_grad, recip_tangent(out): "`1/x`";
    sin, sin_grad, sin_tangent(x): "The sine";
    cos, cos_grad, cos_tangent(x): "The cosine";
    tan, tan_grad, tan_tangent(out): "The tangent";
    asin, asin_grad, asin_tangent(x): "The arcsine";
    acos, acos_grad, acos_tangent(x): "The arccosine";
    atan, atan_grad, atan_tangent(x): "The arctangent";
    sinh, sinh_grad, sinh_tangent(x): "The hyperbolic sine";
    cosh, cosh_grad, cosh_tangent(x): "The hyperbolic cosine";
    tanh, tanh_grad, tanh_tangent(out): "The hyperbolic tangent";
    asinh, asinh_grad, asinh_tangent(x): "The inverse hyperbolic sine";
    acosh, acosh_grad, acosh_tangent(x): "The inverse hyperbolic cosine";
    atanh, atanh_grad, atanh_tangent(x): "The inverse hyperbolic tangent";
    abs, abs_grad, abs_tangent(x): "The absolute value";
    signum, signum_grad, signum_tangent(): "The sign";
    floor, floor_grad, floor_tangent(): "Rounding down";
    ceil, ceil_grad, ceil_tangent(): "Rounding up";
    round, round_grad, round_tangent(): "Rounding to nearest, halves away from zero";
    trunc, trunc_grad, trunc_tangent(): "Rounding towards zero";
    fract, fract_grad, fract_tangent(): "The fractional part `x − trunc(x)`";
    to_radians, to_radians_grad, to_radians_tangent(): "Degrees to radians";
    to_degrees, to_degrees_grad, to_degrees_tangent(): "Radians to degrees";
    relu, relu_grad, relu_tangent(x): "`max(0, x)`";
    sigmoid, sigmoid_grad, sigmoid_tangent(out): "The logistic sigmoid";
}
