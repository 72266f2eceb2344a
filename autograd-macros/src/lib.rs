//! The `#[differentiable]` attribute of autograd.
//!
//! A small compiler: the function is parsed ([`sig`], syn), lowered to an
//! IR of operations with structured control flow ([`lower`], [`ir`]),
//! analyzed for activity ([`analysis`]), and emitted as a primal sweep and
//! an adjoint sweep that call the runtime's rules ([`codegen`]). The
//! catalog of which syntax maps to which rule is in [`catalog`].
#![forbid(unsafe_code)]

mod analysis;
mod attr;
mod catalog;
mod checkpoint;
mod codegen;
mod ctxt;
mod expand;
mod ir;
mod lower;
mod sig;

use proc_macro::TokenStream;

/// Generates `NAME_grad`, `NAME_vjp` and `NAME_check` next to a numeric
/// function. See the `autograd` crate for the full documentation.
#[proc_macro_attribute]
pub fn differentiable(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(attr.into(), item.into()).into()
}

#[cfg(test)]
mod snapshot_tests;

#[cfg(test)]
mod fuzz_tests;

#[cfg(test)]
mod scaling_tests;
