//! The runtime of autograd: derivative rules, the op registry, a dynamic
//! graph, solvers and gradient checks.
//!
//! - [`rules`]: every derivative rule, written once, for `f32`/`f64` and
//!   for `nalgebra::DMatrix<f64>`: a primal, a pullback per operand and a
//!   tangent (forward-mode) rule for every float method of `f64`, the
//!   matrix product, reductions and reshapes; the code `#[differentiable]`
//!   generates calls these functions directly. Its section "Adding an
//!   operation" lists the functions a new operation provides.
//! - [`registry`]: the [`Differentiable`] trait, the eighteen named ops, an
//!   [`OpRegistry`], [`chain_rule_step`] and [`CustomFunction`].
//! - [`graph`]: a small dynamic graph that records ops and runs the reverse
//!   pass in topological order.
//! - [`solve`]: bracketing root finders (`bisect`, `brent`) with typed errors, for values defined implicitly by an equation.
//! - [`check`]: [`GradientCheck`], adjoints against central finite
//!   differences.
//! - [`jacobian`]: the Jacobian of a result of several floats, one reverse
//!   sweep per output.
//! - [`sparse`]: sparse Jacobians and Hessians by colouring.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::graph::Graph;
//!
//! // w = x·y + x at x = 3, y = 4.
//! let mut g = Graph::new();
//! let (x, y) = (g.input(3.0), g.input(4.0));
//! let z = g.mul(x, y)?;
//! let w = g.add(z, x)?;
//! let grads = g.backward(w)?;
//! assert_eq!((grads.scalar(x), grads.scalar(y)), (Some(5.0), Some(3.0)));
//! # Ok::<(), autograd_runtime::graph::GraphError>(())
//! ```
#![deny(missing_docs)]

// One nalgebra, chosen by a feature. The default 0.34 is the dependency
// named `nalgebra`; another version is brought in under that name, so the
// code reads `nalgebra::` whichever it is.
#[cfg(all(
    feature = "nalgebra_v0_33",
    not(feature = "nalgebra_v0_34"),
    not(feature = "nalgebra_v0_35")
))]
extern crate nalgebra_v0_33 as nalgebra;
#[cfg(all(feature = "nalgebra_v0_35", not(feature = "nalgebra_v0_34")))]
extern crate nalgebra_v0_35 as nalgebra;

// Cargo turns on every feature any crate of a build asks for, so two
// crates asking for different nalgebras meet here: one error, saying how
// to ask for one (the facade forwards its features of the same names).
#[cfg(any(
    all(feature = "nalgebra_v0_33", feature = "nalgebra_v0_34"),
    all(feature = "nalgebra_v0_33", feature = "nalgebra_v0_35"),
    all(feature = "nalgebra_v0_34", feature = "nalgebra_v0_35")
))]
compile_error!(
    "autograd is built for one nalgebra, and two of its features `nalgebra_v0_33`, \
     `nalgebra_v0_34`, `nalgebra_v0_35` are on. `nalgebra_v0_34` is a default feature: \
     to use another version, every Cargo.toml of your build that depends on autograd \
     must turn the default off, as in `autograd = { version = \"0.1\", \
     default-features = false, features = [\"nalgebra_v0_35\"] }` (the version your own \
     nalgebra has); `cargo tree -e features -i autograd-runtime` shows which crate \
     turns on each"
);
#[cfg(not(any(
    feature = "nalgebra_v0_33",
    feature = "nalgebra_v0_34",
    feature = "nalgebra_v0_35"
)))]
compile_error!(
    "autograd needs its nalgebra feature: with `default-features = false`, add \
     `features = [\"nalgebra_v0_34\"]` (or `nalgebra_v0_33`, `nalgebra_v0_35`: the version \
     your own nalgebra has)"
);

pub mod check;
#[doc(hidden)]
pub mod checkpoint;
pub mod dual;
pub mod graph;
pub mod jacobian;
pub mod lanes;
#[doc(hidden)]
pub mod pool;
pub mod prelude;
pub mod registry;
pub mod rules;
pub mod solve;
pub mod sparse;
pub mod special;
mod value;

/// The nalgebra-sparse version of autograd's nalgebra: the sparse
/// matrices of [`sparse`].
#[cfg(feature = "nalgebra_v0_34")]
pub use nalgebra_sparse;
/// The nalgebra-sparse version of autograd's nalgebra (0.10, for nalgebra
/// 0.33): the sparse matrices of [`sparse`].
#[cfg(all(
    feature = "nalgebra_v0_33",
    not(feature = "nalgebra_v0_34"),
    not(feature = "nalgebra_v0_35")
))]
pub extern crate nalgebra_sparse_v0_10 as nalgebra_sparse;
/// The nalgebra-sparse version of autograd's nalgebra (0.12, for nalgebra
/// 0.35): the sparse matrices of [`sparse`].
#[cfg(all(feature = "nalgebra_v0_35", not(feature = "nalgebra_v0_34")))]
pub extern crate nalgebra_sparse_v0_12 as nalgebra_sparse;

pub use check::{
    CheckedComponent, GradientCheck, Position, central_difference, central_difference_step,
};
pub use dual::Dual;
pub use registry::{
    CustomFunction, Differentiable, OpError, OpRegistry, ReshapeOp, chain_rule_step,
};
pub use value::{MAX_ELEMENTS, Shape, Value};

/// Passes `value` through unchanged; inside `#[differentiable]` code no
/// gradient flows back through it.
#[inline(always)]
pub fn stop_gradient<T>(value: T) -> T {
    value
}
