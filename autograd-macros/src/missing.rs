//! Stand-ins for the items the function does not have: those an option it
//! lacks would generate (`NAME_jvp` without `jvp`, `NAME_hvp` and
//! `NAME_hessian` without `hessian`), and those of another kind of result
//! (`NAME_grad` of a function returning several numbers or a matrix,
//! `NAME_jacobian` of one returning one number). A call of one is a single
//! error saying what generates it or what to call instead, where it was
//! rustc's bare "cannot find function". Without
//! `hessian`, also the hidden items through which a differentiable body
//! differentiates a call of `NAME_grad` (see `emit::nested`): such a
//! call is one error saying to add the option.
//!
//! Each stand-in takes the item's number of arguments, bounds the first
//! one's type by a trait nothing implements (its `on_unimplemented` message
//! is the error) and returns any type, so the call's other uses raise
//! nothing more: one of `autograd::checks::not_generated`, re-exported
//! under the item's name. They are reached through a glob import: an item
//! the user writes under the same name shadows a glob without a conflict.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::attr::{self, Jvp, Mode};
use crate::ctxt::Ctxt;
use crate::emit::names;
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
    let generated = matches!(options.mode, Mode::Generated);
    // Each missing item: its suffix, its number of arguments, the marker
    // whose message is the error.
    let mut missing: Vec<(&str, usize, &str)> = Vec::new();
    let by_result = |missing: &mut Vec<(&str, usize, &str)>,
                     suffixes: &[&'static str],
                     marker: &'static str| {
        for suffix in suffixes {
            let count = match *suffix {
                "grad_acc" | "hvp" | "jvp" => args + differentiable,
                "jacobian_acc" | "hessian_sparse" | "jacobian_sparse" => args + 1,
                "jacobian_sparse_into" => args + 2,
                _ => args,
            };
            missing.push((suffix, count, marker));
        }
    };
    let second_order = ["hessian", "hvp", "hessian_pattern", "hessian_sparse"];
    match &signature.ret {
        // A gradient, no Jacobian.
        sig::Ret::Float(float) => {
            if generated {
                by_result(
                    &mut missing,
                    &[
                        "jacobian",
                        "jacobian_acc",
                        "jacobian_pattern",
                        "jacobian_sparse",
                        "jacobian_sparse_into",
                    ],
                    "OneResult",
                );
            }
            if options.hessian.is_none() {
                by_result(&mut missing, &second_order, "HessianOption");
            } else if float.0 != "f64" || signature.scalar.is_some() {
                by_result(
                    &mut missing,
                    &["hessian_pattern", "hessian_sparse"],
                    "SparseOfF64",
                );
            }
        }
        // A Jacobian, no gradient and no second order.
        sig::Ret::Outputs(_) if generated => {
            by_result(
                &mut missing,
                &["grad", "grad_acc", "check"],
                "SeveralResults",
            );
            by_result(&mut missing, &second_order, "SeveralResults");
            if signature.scalar.is_some() {
                by_result(
                    &mut missing,
                    &[
                        "jacobian",
                        "jacobian_acc",
                        "jacobian_pattern",
                        "jacobian_sparse",
                        "jacobian_sparse_into",
                    ],
                    "GenericJacobian",
                );
            } else if matches!(options.jvp, Jvp::Off) {
                by_result(
                    &mut missing,
                    &[
                        "jacobian_pattern",
                        "jacobian_sparse",
                        "jacobian_sparse_into",
                    ],
                    "JvpOption",
                );
            }
        }
        // A pullback only.
        sig::Ret::Matrix(_) if generated => {
            by_result(
                &mut missing,
                &["grad", "grad_acc", "check", "jacobian", "jacobian_acc"],
                "MatrixResult",
            );
            by_result(&mut missing, &second_order, "MatrixResult");
        }
        _ => {
            if options.hessian.is_none() {
                by_result(&mut missing, &["hessian", "hvp"], "HessianOption");
            }
        }
    }
    if matches!(options.jvp, Jvp::Off) {
        by_result(&mut missing, &["jvp"], "JvpOption");
    }
    let mut items = TokenStream::new();
    let runtime = !crate::facade::within_facade();
    for (suffix, count, marker) in missing {
        items.extend(stand_in(name, suffix, count, marker, runtime));
    }
    if options.hessian.is_none() {
        items.extend(crate::emit::nested::stand_in(&func, &signature));
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

/// `NAME_suffix`: the runtime's stand-in for `marker` and `args`
/// arguments, re-exported under that name (nothing for rustc to check in
/// the user's crate, where an item of its own is one more body to
/// type-check, borrow-check and encode per missing item and function); or
/// `pub fn NAME_suffix<A0: marker, A1, .., R>(_: A0, _: A1, ..) -> R` of
/// its own, beyond the runtime's arities and where `runtime` is false: in
/// the facade's own code, whose re-export of a runtime stand-in
/// (`relu_jacobian`) rustc would name in every user's error instead of
/// the stand-in's path.
fn stand_in(
    name: &syn::Ident,
    suffix: &str,
    args: usize,
    marker: &str,
    runtime: bool,
) -> TokenStream {
    let item = names::public(name, suffix);
    if runtime && args <= names::RUNTIME_ARITY {
        let stand_in = format_ident!("{}_{}", snake_case(marker), args);
        return quote! {
            pub use ::autograd::checks::not_generated::#stand_in as #item;
        };
    }
    let marker = format_ident!("{}", marker);
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

/// `one_result` for `OneResult`: the runtime's stand-ins are named after
/// their bound.
fn snake_case(marker: &str) -> String {
    let mut out = String::new();
    for c in marker.chars() {
        if c.is_ascii_uppercase() {
            if !out.is_empty() {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
