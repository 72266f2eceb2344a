//! The element-wise rules lifted to `DMatrix<f64>`.
//!
//! Each function applies the scalar rule of the same name to every element,
//! so a matrix derivative is never a second copy of a formula: `exp_grad`
//! here is `rules::exp_grad` per element. Operands of a binary rule must
//! have the same shape.
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

/// `-x`, element-wise.
#[inline]
pub fn neg(x: &M) -> M {
    map1(x, s::neg)
}
/// d(-x)/dx = -1: adjoint of `-x`.
#[inline]
pub fn neg_grad(grad: &M) -> M {
    map1(grad, s::neg_grad)
}

/// `e^x`, element-wise.
#[inline]
pub fn exp(x: &M) -> M {
    map1(x, s::exp)
}
/// d/dx e^x = out: adjoint of `e^x`, reusing the output.
#[inline]
pub fn exp_grad(grad: &M, out: &M) -> M {
    map2(grad, out, s::exp_grad)
}

/// Natural logarithm, element-wise.
#[inline]
pub fn ln(x: &M) -> M {
    map1(x, s::ln)
}
/// d/dx ln x = 1/x: adjoint of `ln x`.
#[inline]
pub fn ln_grad(grad: &M, x: &M) -> M {
    map2(grad, x, s::ln_grad)
}

/// Square root, element-wise.
#[inline]
pub fn sqrt(x: &M) -> M {
    map1(x, s::sqrt)
}
/// d/dx √x = 1/(2·out): adjoint of `√x`, reusing the output.
#[inline]
pub fn sqrt_grad(grad: &M, out: &M) -> M {
    map2(grad, out, s::sqrt_grad)
}

/// `max(0, x)`, element-wise.
#[inline]
pub fn relu(x: &M) -> M {
    map1(x, s::relu)
}
/// d/dx relu x = 1 where x > 0, else 0 (also at exactly 0): a mask on the incoming adjoint.
#[inline]
pub fn relu_grad(grad: &M, x: &M) -> M {
    map2(grad, x, s::relu_grad)
}

/// The logistic sigmoid, element-wise.
#[inline]
pub fn sigmoid(x: &M) -> M {
    map1(x, s::sigmoid)
}
/// dσ/dx = out·(1-out): adjoint of the sigmoid, reusing the output.
#[inline]
pub fn sigmoid_grad(grad: &M, out: &M) -> M {
    map2(grad, out, s::sigmoid_grad)
}

/// Hyperbolic tangent, element-wise.
#[inline]
pub fn tanh(x: &M) -> M {
    map1(x, s::tanh)
}
/// d/dx tanh x = 1 - out²: adjoint of `tanh`, reusing the output.
#[inline]
pub fn tanh_grad(grad: &M, out: &M) -> M {
    map2(grad, out, s::tanh_grad)
}

/// Sine, element-wise.
#[inline]
pub fn sin(x: &M) -> M {
    map1(x, s::sin)
}
/// d/dx sin x = cos x: adjoint of `sin`.
#[inline]
pub fn sin_grad(grad: &M, x: &M) -> M {
    map2(grad, x, s::sin_grad)
}

/// Cosine, element-wise.
#[inline]
pub fn cos(x: &M) -> M {
    map1(x, s::cos)
}
/// d/dx cos x = -sin x: adjoint of `cos`.
#[inline]
pub fn cos_grad(grad: &M, x: &M) -> M {
    map2(grad, x, s::cos_grad)
}

/// Absolute value, element-wise.
#[inline]
pub fn abs(x: &M) -> M {
    map1(x, s::abs)
}
/// d/dx |x| = sign x (0 at 0): adjoint of `|x|`.
#[inline]
pub fn abs_grad(grad: &M, x: &M) -> M {
    map2(grad, x, s::abs_grad)
}
