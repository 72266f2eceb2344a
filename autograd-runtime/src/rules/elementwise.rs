//! The element-wise rules lifted to `DMatrix<f64>`.
//!
//! Each function applies the scalar rule of the same name to every element
//! (`map`, `zip_map`, `zip_zip_map`), so a matrix derivative is never a
//! second copy of a formula: `exp_grad` here is `rules::exp_grad` per
//! element. Operands of a binary rule must have the same shape.
//!
//! # Panics
//!
//! The binary rules panic (inside nalgebra) when their operands' shapes
//! differ. The registry and the dynamic graph check shapes first and return
//! an error instead.
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

/// `a + b`, element-wise.
#[inline]
pub fn add(a: &M, b: &M) -> M {
    a.zip_map(b, s::add)
}
/// d(a+b)/da = 1: the incoming adjoint passes through to `a`.
#[inline]
pub fn add_grad_lhs(grad: &M) -> M {
    grad.map(s::add_grad_lhs)
}
/// d(a+b)/db = 1: the incoming adjoint passes through to `b`.
#[inline]
pub fn add_grad_rhs(grad: &M) -> M {
    grad.map(s::add_grad_rhs)
}

/// `a - b`, element-wise.
#[inline]
pub fn sub(a: &M, b: &M) -> M {
    a.zip_map(b, s::sub)
}
/// d(a-b)/da = 1: adjoint of `a - b` for `a`.
#[inline]
pub fn sub_grad_lhs(grad: &M) -> M {
    grad.map(s::sub_grad_lhs)
}
/// d(a-b)/db = -1: `b` gets the negated incoming adjoint.
#[inline]
pub fn sub_grad_rhs(grad: &M) -> M {
    grad.map(s::sub_grad_rhs)
}

/// `a ∘ b`, the element-wise product (nalgebra's `component_mul`).
#[inline]
pub fn mul(a: &M, b: &M) -> M {
    a.zip_map(b, s::mul)
}
/// d(a∘b)/da = b: the adjoint of `a` is `grad ∘ b`.
#[inline]
pub fn mul_grad_lhs(grad: &M, b: &M) -> M {
    grad.zip_map(b, s::mul_grad_lhs)
}
/// d(a∘b)/db = a: the adjoint of `b` is `grad ∘ a`.
#[inline]
pub fn mul_grad_rhs(grad: &M, a: &M) -> M {
    grad.zip_map(a, s::mul_grad_rhs)
}

/// `a ⊘ b`, the element-wise quotient (nalgebra's `component_div`).
#[inline]
pub fn div(a: &M, b: &M) -> M {
    a.zip_map(b, s::div)
}
/// d(a/b)/da = 1/b: the adjoint of `a` is `grad ⊘ b`.
#[inline]
pub fn div_grad_lhs(grad: &M, b: &M) -> M {
    grad.zip_map(b, s::div_grad_lhs)
}
/// d(a/b)/db = -out/b: the adjoint of `b` reuses the output.
#[inline]
pub fn div_grad_rhs(grad: &M, b: &M, out: &M) -> M {
    grad.zip_zip_map(b, out, s::div_grad_rhs)
}

/// `a^b` per element (`powf`).
#[inline]
pub fn pow(a: &M, b: &M) -> M {
    a.zip_map(b, s::pow)
}
/// d(a^b)/da = b·a^(b-1): adjoint of `a^b` for the base.
#[inline]
pub fn pow_grad_lhs(grad: &M, a: &M, b: &M) -> M {
    grad.zip_zip_map(a, b, s::pow_grad_lhs)
}
/// d(a^b)/db = out·ln a (0 where out = 0): adjoint for the exponent, reusing the output.
#[inline]
pub fn pow_grad_rhs(grad: &M, a: &M, out: &M) -> M {
    grad.zip_zip_map(a, out, s::pow_grad_rhs)
}

/// `-x`, element-wise.
#[inline]
pub fn neg(x: &M) -> M {
    x.map(s::neg)
}
/// d(-x)/dx = -1: adjoint of `-x`.
#[inline]
pub fn neg_grad(grad: &M) -> M {
    grad.map(s::neg_grad)
}

/// `e^x`, element-wise.
#[inline]
pub fn exp(x: &M) -> M {
    x.map(s::exp)
}
/// d/dx e^x = out: adjoint of `e^x`, reusing the output.
#[inline]
pub fn exp_grad(grad: &M, out: &M) -> M {
    grad.zip_map(out, s::exp_grad)
}

/// Natural logarithm, element-wise.
#[inline]
pub fn ln(x: &M) -> M {
    x.map(s::ln)
}
/// d/dx ln x = 1/x: adjoint of `ln x`.
#[inline]
pub fn ln_grad(grad: &M, x: &M) -> M {
    grad.zip_map(x, s::ln_grad)
}

/// Square root, element-wise.
#[inline]
pub fn sqrt(x: &M) -> M {
    x.map(s::sqrt)
}
/// d/dx √x = 1/(2·out): adjoint of `√x`, reusing the output.
#[inline]
pub fn sqrt_grad(grad: &M, out: &M) -> M {
    grad.zip_map(out, s::sqrt_grad)
}

/// `max(0, x)`, element-wise.
#[inline]
pub fn relu(x: &M) -> M {
    x.map(s::relu)
}
/// d/dx relu x = 1 where x > 0, else 0 (also at exactly 0): a mask on the incoming adjoint.
#[inline]
pub fn relu_grad(grad: &M, x: &M) -> M {
    grad.zip_map(x, s::relu_grad)
}

/// The logistic sigmoid, element-wise.
#[inline]
pub fn sigmoid(x: &M) -> M {
    x.map(s::sigmoid)
}
/// dσ/dx = out·(1-out): adjoint of the sigmoid, reusing the output.
#[inline]
pub fn sigmoid_grad(grad: &M, out: &M) -> M {
    grad.zip_map(out, s::sigmoid_grad)
}

/// Hyperbolic tangent, element-wise.
#[inline]
pub fn tanh(x: &M) -> M {
    x.map(s::tanh)
}
/// d/dx tanh x = 1 - out²: adjoint of `tanh`, reusing the output.
#[inline]
pub fn tanh_grad(grad: &M, out: &M) -> M {
    grad.zip_map(out, s::tanh_grad)
}

/// Sine, element-wise.
#[inline]
pub fn sin(x: &M) -> M {
    x.map(s::sin)
}
/// d/dx sin x = cos x: adjoint of `sin`.
#[inline]
pub fn sin_grad(grad: &M, x: &M) -> M {
    grad.zip_map(x, s::sin_grad)
}

/// Cosine, element-wise.
#[inline]
pub fn cos(x: &M) -> M {
    x.map(s::cos)
}
/// d/dx cos x = -sin x: adjoint of `cos`.
#[inline]
pub fn cos_grad(grad: &M, x: &M) -> M {
    grad.zip_map(x, s::cos_grad)
}

/// Absolute value, element-wise.
#[inline]
pub fn abs(x: &M) -> M {
    x.map(s::abs)
}
/// d/dx |x| = sign x (0 at 0): adjoint of `|x|`.
#[inline]
pub fn abs_grad(grad: &M, x: &M) -> M {
    grad.zip_map(x, s::abs_grad)
}
