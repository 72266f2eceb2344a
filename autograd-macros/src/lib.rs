//! The `#[differentiable]` attribute of autograd.
//!
//! A small compiler: the function is parsed ([`sig`], syn), lowered to an
//! IR of operations with structured control flow ([`lower`], [`ir`]),
//! analyzed for activity ([`analysis`]), and emitted as a primal sweep and
//! an adjoint sweep that call the runtime's rules ([`codegen`]). Which
//! syntax maps to which rule, and everything else the macro knows of a
//! rule, is in one table ([`table`]).
#![forbid(unsafe_code)]

mod analysis;
mod attr;
mod checkpoint;
mod codegen;
mod ctxt;
mod expand;
mod fusion;
mod hessian;
mod hessian_link;
mod ir;
mod lower;
mod sig;
mod structs;
mod table;
mod tangent_derive;
mod unannotated;

use proc_macro::TokenStream;

/// Generates `NAME_grad`, `NAME_vjp` and `NAME_check` next to a numeric
/// function. See the `autograd` crate for the full documentation.
#[proc_macro_attribute]
pub fn differentiable(attr: TokenStream, item: TokenStream) -> TokenStream {
    expand::expand(attr.into(), item.into()).into()
}

/// `#[derive(Tangent)]`: a struct of `f64`/`f32` parameters usable as an
/// argument of a `#[differentiable]` function, its adjoint the same struct.
/// Fields marked `#[constant]` and non-float fields are not differentiated.
#[proc_macro_derive(Tangent, attributes(constant))]
pub fn derive_tangent(item: TokenStream) -> TokenStream {
    tangent_derive::derive(item.into()).into()
}

/// Proves at compile time that every runtime function of the rule table
/// exists with the signature the generated code calls it at; `autograd`
/// expands it once. The argument is the path of the runtime's `rules`
/// module, `::autograd::__private::rules` if omitted.
#[doc(hidden)]
#[proc_macro]
pub fn __rule_table_check(input: TokenStream) -> TokenStream {
    let rules = proc_macro2::TokenStream::from(input);
    let rules = if rules.is_empty() {
        quote::quote!(::autograd::__private::rules)
    } else {
        rules
    };
    match table::check::assertions(&rules, table::RULES) {
        Ok(assertions) => assertions.into(),
        Err(incomplete) => quote::quote!(::core::compile_error!(#incomplete);).into(),
    }
}

#[cfg(test)]
mod snapshot_tests;

#[cfg(test)]
mod fuzz_tests;

#[cfg(test)]
mod scaling_tests;

#[cfg(test)]
mod size_tests;
