//! Stand-ins for the items an option the function does not have would
//! generate: `NAME_jvp` without `jvp`, `NAME_hvp` and `NAME_hessian`
//! without `hessian`. A call of one is a single error saying which option
//! generates it, where it was rustc's bare "cannot find function". Without
//! `hessian`, also the hidden items through which a differentiable body
//! differentiates a call of `NAME_grad` (see `codegen::nested`): such a
//! call is one error saying to add the option.
//!
//! Each stand-in takes the item's number of arguments, bounds the first
//! one's type by a trait nothing implements (its `on_unimplemented` message
//! is the error) and returns any type, so the call's other uses raise
//! nothing more. They are reached through a glob import: an item the user
//! writes under the same name shadows a glob without a conflict.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::attr::{self, Jvp, Mode};
use crate::codegen::names;
use crate::ctxt::Ctxt;
use crate::sig;

/// The stand-ins for `item`'s missing items, or nothing where the function
/// is not one the attribute generates items for as a free function (a
/// method, a function it rejects, one without arguments).
pub fn stand_ins(attr: TokenStream, item: &TokenStream) -> TokenStream {
    let Ok(func) = syn::parse2::<syn::ItemFn>(item.clone()) else {
        return TokenStream::new();
    };
    // A method, or a function naming `Self`, is an item of an `impl`
    // block, which cannot hold the stand-ins' module.
    if func.sig.receiver().is_some() || crate::expand::names_self(&func) {
        return TokenStream::new();
    }
    // The expansion reports any error in these; here they only say that
    // there is nothing to stand in for.
    let cx = Ctxt::default();
    let options = attr::parse(&cx, attr);
    let signature = sig::parse(&cx, &func.sig, matches!(options.mode, Mode::Implicit(_)));
    let (Ok(()), Some(signature)) = (cx.check(), signature) else {
        return TokenStream::new();
    };
    let args = signature.params.len();
    let differentiable = signature.params.iter().filter(|p| p.differentiable).count();
    if args == 0 {
        return TokenStream::new();
    }
    let name = &func.sig.ident;
    let mut items = TokenStream::new();
    if matches!(options.jvp, Jvp::Off) {
        items.extend(stand_in(
            name,
            "jvp",
            args + differentiable,
            quote!(JvpOption),
        ));
    }
    if options.hessian.is_none() {
        items.extend(stand_in(name, "hessian", args, quote!(HessianOption)));
        items.extend(stand_in(
            name,
            "hvp",
            args + differentiable,
            quote!(HessianOption),
        ));
        items.extend(crate::codegen::nested::stand_in(&func, &signature));
    }
    if items.is_empty() {
        return TokenStream::new();
    }
    let module = format_ident!("{}_not_generated", name);
    let vis = &func.vis;
    quote! {
        #[doc(hidden)]
        #[allow(non_snake_case)]
        mod #module {
            #items
        }
        #[doc(hidden)]
        #[allow(unused_imports)]
        #vis use #module::*;
    }
}

/// `pub fn NAME_suffix<A0: marker, A1, .., R>(_: A0, _: A1, ..) -> R`.
fn stand_in(name: &syn::Ident, suffix: &str, args: usize, marker: TokenStream) -> TokenStream {
    let item = names::public(name, suffix);
    let types: Vec<syn::Ident> = (0..args).map(|i| format_ident!("A{}", i)).collect();
    let first = &types[0];
    let rest = &types[1..];
    quote! {
        #[doc(hidden)]
        #[allow(dead_code, clippy::too_many_arguments)]
        pub fn #item<#first: ::autograd::checks::#marker, #(#rest,)* R>(#(_: #types),*) -> R {
            ::core::unreachable!()
        }
    }
}
