//! The derivative rules, each written once.
//!
//! Every rule is a forward function, one backward function (pullback) per
//! differentiable input and one tangent function. The pullbacks are named
//! `NAME_grad` (one input), `NAME_grad_lhs` / `NAME_grad_rhs` (two inputs)
//! or `NAME_grad_OPERAND` (three: `clamp_grad_x`, `clamp_grad_lo`,
//! `clamp_grad_hi`; `mul_add_grad_a`, `_b`, `_c`). A pullback takes the
//! adjoint arriving at the output (`grad`) followed by exactly the primal
//! values its formula reads — the operands it needs, then the output — so
//! a caller keeps only those alive; each doc comment says what it reads
//! and what it gives at the points where the function has no derivative.
//! The code `#[differentiable]` generates calls these functions directly,
//! and the registry and the dynamic graph call them too: there is no second
//! copy of any rule.
//!
//! # Tangents
//!
//! Forward mode needs, next to every pullback, the rule's tangent
//! `NAME_tangent(dx.., reads..)`: one tangent per differentiable operand,
//! in operand order, then the primal values the pullbacks read (operands in
//! order, then the output), returning ẏ = Σᵢ ∂f/∂xᵢ·ẋᵢ.
//!
//! For a scalar rule the pullback of operand `i` at adjoint `g` is
//! `g·∂f/∂xᵢ`, so at `g = ẋᵢ` it is that operand's term of the tangent:
//! **every scalar tangent is the sum of the pullbacks at seeds ẋᵢ**, and is
//! written so, which makes it exact (the same floating-point operations) and
//! gives it the pullbacks' conventions at non-differentiable points. A
//! two-output rule (`sin_cos`) has a pullback taking both outputs'
//! adjoints and a tangent returning both outputs' tangents.
//!
//! Matrix rules are not scalar: the product's tangent is `Ȧ·B + A·Ḃ`, a
//! reduction's tangent is a sum where its pullback broadcasts. Their
//! tangents are written out in [`linalg`], [`reductions`] and [`shape`],
//! and [`elementwise`] lifts every scalar tangent. The tests check every
//! scalar tangent against its pullbacks and central differences, and every
//! matrix tangent against its pullbacks by the dot-product identity
//! ⟨J·v, u⟩ = ⟨v, Jᵀ·u⟩.
//!
//! # Families
//!
//! The scalar rules are generic over [`Real`] (`f32`, `f64` and every other `num_traits::Float`), one module
//! per family, all re-exported here: arithmetic (`+ - * /`, `neg`,
//! `mul_add`, `pow`, `powi`, `max`, `min`), exponentials, logarithms and
//! roots (`exp exp2 exp_m1 ln ln_1p log log2 log10 sqrt cbrt recip
//! hypot`), trigonometric (`sin cos tan asin acos atan atan2 sin_cos`),
//! hyperbolic (`sinh cosh tanh asinh acosh atanh`), piecewise (`abs clamp
//! signum floor ceil round trunc fract`), activations (`relu sigmoid`) and
//! special functions (`erf erfc norm_cdf norm_pdf norm_inv_cdf ln_gamma
//! gamma digamma beta`, with `trigamma` and `tetragamma` for digamma's
//! derivatives; free functions, [`crate::special`]).
//! The rules for `nalgebra::DMatrix<f64>` (generic over
//! [`linalg::MatrixScalar`], so also for the dual matrices of second
//! order) live in one module per family, so their names can match the
//! scalar ones without clashing:
//!
//! - [`elementwise`]: every element-wise scalar rule lifted to matrices,
//!   applying the scalar rule per element;
//! - [`linalg`]: the matrix product;
//! - [`determinant`]: `determinant`, whose derivatives are the cofactors
//!   and the signed minors at every rank;
//! - [`reductions`]: `sum` and `max` (with its winning index);
//! - [`shape`]: `reshape` and `transpose`;
//! - [`vectors`]: `dot`, `cross`, `norm`, `norm_squared`, `column`, `row`;
//! - [`generic`]: the pullbacks dispatched on their operands' types, for
//!   generated code that cannot see whether an operand is a scalar.
//!
//! # Adding an operation
//!
//! An operation is a handful of functions, each a line or two, in the
//! module of its family:
//!
//! 1. **The primal** `NAME(x..)`, calling the method it stands for (so the
//!    value is bit for bit the user's), with the math in its doc comment.
//! 2. **One pullback per differentiable operand**, `NAME_grad(grad,
//!    reads..)` (or `_grad_lhs`/`_grad_rhs`, `_grad_OPERAND`), reading the
//!    cheapest of inputs and output: the output where the derivative is a
//!    function of it (`exp`, `tanh`, `recip`), the input where it is not
//!    (`sin`, `cosh`), nothing where it is constant (`floor`). Its doc
//!    comment says what it reads and states the convention at every point
//!    without a derivative (a jump, a kink, a pole, a domain boundary);
//!    that convention gets a test.
//! 3. **The tangent** `NAME_tangent(dx.., reads..)`: for a scalar rule the
//!    sum of the pullbacks at seeds `dx..`; for a matrix rule `J·ẋ` written
//!    out.
//! 4. **Element-wise lifting**, where the function applies per element:
//!    the primal, pullback and tangent in [`elementwise`] (one line each,
//!    the scalar rule per element), the dispatch trait in [`generic`]
//!    (`unary_rule!` and a line in `scalar_unaries!`, or `binary_rule!`)
//!    and the `m.map(f)` forms in `generic`'s `mapped_rules!` list.
//! 5. **Tests**: the primal and every pullback against the closed form and
//!    central differences at several points (negative and large arguments
//!    too), `f32` and `f64`, scalar and element-wise matrix; each
//!    convention; the tangent against the pullbacks.
//!
//! ## The macro's side
//!
//! One entry in `autograd-macros/src/table/mod.rs`, usually one line:
//! `TAN = Rule { expensive: true, ..unary("tan", READS_OUT) };` (a free
//! function of [`crate::special`], called by path, is
//! `ERF = special("erf", READS_X);`). It says
//! what each pullback reads (`READS_X`, `READS_OUT`, `READS_NOTHING`, or
//! `float(&[Arg(i), Out])` per operand; `named("lo", ..)` for three
//! operands). Building `autograd` then proves that every function the
//! entry names exists with the signature the generated code calls it at
//! (the facade expands the macro crate's hidden table check). A line in
//! `tests/float_methods.rs` tests the method and path forms at both
//! floats and element-wise.

mod activations;
mod angles;
mod arithmetic;
pub mod determinant;
mod elementary;
pub mod elementwise;
pub mod generic;
mod hyperbolic;
pub mod linalg;
mod piecewise;
mod real;
pub mod reductions;
pub mod shape;
mod special;
mod trigonometric;
pub mod vectors;

pub use activations::*;
pub use angles::*;
pub use arithmetic::*;
pub use elementary::*;
pub use hyperbolic::*;
pub use piecewise::*;
pub use real::{FromFloatAs, Real, float_as};
pub use special::*;
pub use trigonometric::*;
