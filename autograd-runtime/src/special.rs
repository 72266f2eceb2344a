//! Special functions, callable from plain code and inside
//! `#[differentiable]` bodies: `erf`, `erfc`, `norm_cdf`, `norm_pdf`,
//! `norm_inv_cdf`, `ln_gamma`, `gamma`, `digamma` and `beta`, for `f32`,
//! `f64` and any generic `T: num_traits::Float`.
//!
//! In a `#[differentiable]` body, call them as `autograd::special::erf(x)`,
//! `special::erf(x)` after `use autograd::special;`, or `erf(x)` after
//! `use autograd::special::erf;` (or `::*`): each has its derivative rule
//! in [`crate::rules`] (`erf_grad`, `erf_tangent`, ..), so every generated
//! item (`_grad`, `_vjp`, `_jvp`, `_hessian`, ..) differentiates it, to
//! second order. The same function called through another crate
//! (`libm::erf`, `statrs::function::erf::erf`) is a compile error there
//! naming the function here.
//!
//! Values: `erf`, `erfc`, `ln_gamma` and `gamma` are libm's (`erf`,
//! `erfc`, `lgamma`, `tgamma`; `erff`, .. at `f32`) bit for bit; `norm_cdf`
//! is `½·erfc(−x/√2)`; the others state their method and accuracy.
//!
//! Domains: `gamma`, `ln_gamma` and `digamma` have poles at the
//! non-positive integers (`gamma(±0) = ±∞`, `ln_gamma = +∞`, `digamma(±0) =
//! ∓∞`, NaN at the negative integers for `gamma` and `digamma`), and so do
//! their derivatives; `norm_inv_cdf` is NaN outside `[0, 1]`, and `∓∞` at
//! 0 and 1.
//!
//! They are generic, like `num_traits`' functions: a bare float literal
//! argument whose result has a method called on it needs its type
//! (`erf(0.5_f64).abs()`).
//!
//! # Example
//!
//! ```
//! use autograd_runtime::special::{norm_cdf, norm_inv_cdf};
//!
//! let z = norm_inv_cdf(0.975_f64);
//! assert!((z - 1.959963984540054).abs() < 1e-15);
//! assert!((norm_cdf(z) - 0.975).abs() < 1e-15);
//! ```

pub use crate::rules::{
    beta, digamma, erf, erfc, gamma, ln_gamma, norm_cdf, norm_inv_cdf, norm_pdf,
};

/// That the function a `#[differentiable]` body calls by the name of one
/// of this module's (`erf`, `special::erf`) is that function: implemented
/// for a function item by itself only.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "this `{Self}` is not the function of `autograd::special` its name says",
    label = "`#[differentiable]` differentiates this name as `autograd::special`'s",
    note = "import `autograd::special`'s (`use autograd::special::*;`), or call this one by a path that does not end in `special::NAME`; another crate's special functions have no derivative rule"
)]
pub trait SpecialFunction<Ours> {}
impl<F> SpecialFunction<F> for F {}

/// `ours`, the primal of a rule of this module, once rustc has checked
/// that `written`, the function a body's call names, is the same function
/// item: a call of another function is a compile error at its path, never
/// differentiated by the wrong rule.
#[doc(hidden)]
#[inline(always)]
pub fn checked<O: Copy, W: SpecialFunction<O>>(ours: O, written: W) -> O {
    let _ = written;
    ours
}
