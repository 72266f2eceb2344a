//! The user guide: what `#[differentiable]` takes and what it gives,
//! construct by construct. These modules hold documentation only; every
//! example in them is a doctest.
//!
//! | chapter | what it covers |
//! |---|---|
//! | [`body`] | what a differentiable body may contain: expressions, float methods, slices, arrays, iterators, control flow, calls |
//! | [`generics`] | functions generic over their scalar (`T: Float`, `T: RealField`) |
//! | [`structs`] | `#[derive(Tangent)]` structs as arguments, methods and `impl` blocks |
//! | [`matrices`] | nalgebra values: layers, losses, training |
//! | [`forward_and_second_order`] | the opt-in `jvp` and `hessian` items |
//! | [`solvers`] | the implicit-function hook, custom rules, the bracketing solvers |
//! | [`loops_and_checkpoint`] | what a loop's reverse sweep keeps, and `#[checkpoint]` |
//! | [`conventions`] | the derivative at non-differentiable points, NaN and infinity |
//! | [`errors`] | what is rejected, and what to write instead |
//! | [`performance`] | what the generated code looks like and what it costs |
//! | [`runtime`] | the rules, the registry and the dynamic graph without the macro |
//!
//! The crate root ([`crate`]) is the reference: the generated items, the
//! argument and result types, and the attribute's options.

#[doc = include_str!("body.md")]
pub mod body {}

#[doc = include_str!("generics.md")]
pub mod generics {}

#[doc = include_str!("structs.md")]
pub mod structs {}

#[doc = include_str!("matrices.md")]
pub mod matrices {}

#[doc = include_str!("forward_and_second_order.md")]
pub mod forward_and_second_order {}

#[doc = include_str!("solvers.md")]
pub mod solvers {}

#[doc = include_str!("loops_and_checkpoint.md")]
pub mod loops_and_checkpoint {}

#[doc = include_str!("conventions.md")]
pub mod conventions {}

#[doc = include_str!("errors.md")]
pub mod errors {}

#[doc = include_str!("performance.md")]
pub mod performance {}

#[doc = include_str!("runtime.md")]
pub mod runtime {}
