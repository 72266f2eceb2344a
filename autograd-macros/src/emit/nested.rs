//! The hidden items of `NAME_grad` of a `#[differentiable(hessian)]`
//! function, through which another differentiable body differentiates a
//! call of the gradient (nested differentiation: the loss after a gradient
//! step, `w - lr * inner_grad(x, w).2`).
//!
//! A caller's sweeps reach a callee through the type named like it
//! (`emit::carrier`): `inner_grad::__vjp_full`, `inner_grad::__same_callee`
//! and `<inner_grad as ForwardMode>::JVP`. Here that type is written for the
//! gradient. The gradient's outputs are the value v and the gradient g of
//! `NAME`; its derivative is second order, one `NAME_hvp` (forward over
//! reverse) per sweep:
//! - reverse, seeds (v̄, ḡ): the arguments' adjoints are v̄·g + H·ḡ (H is
//!   symmetric);
//! - forward, tangent ẋ: the outputs' tangents are (g·ẋ, H·ẋ).
//!
//! A function without `hessian` has stand-ins of these items instead (see
//! `crate::missing`), whose call is one error saying to add the option.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};

use super::{hygienic_inputs, names, shape};
use crate::sig::{ParamKind, Ret, Signature};

/// The most differentiable arguments a differentiated `NAME_grad` takes:
/// its tuple (the value and one entry per argument) is at most the
/// runtime's longest float tuple, eight.
const MAX_DIFFERENTIABLE: usize = 7;

/// Whether a caller can differentiate a call of the function's `NAME_grad`:
/// a function of `f64`/`f32` arguments (integers, `bool`s and `#[constant]`
/// floats beside them, none in-out) returning one number, not generic, whose gradient
/// is a tuple of floats.
pub fn differentiable_gradient(item: &syn::ItemFn, sig: &Signature) -> bool {
    let differentiable = sig.params.iter().filter(|p| p.differentiable).count();
    sig.scalar.is_none()
        && !sig.has_inout()
        && item.sig.generics.params.is_empty()
        && matches!(sig.ret, Ret::Float(_))
        && (1..=MAX_DIFFERENTIABLE).contains(&differentiable)
        && !names::has_no_carrier(&item.sig.ident)
        // An in-out argument's final value is a second result.
        && !sig.has_inout()
        && sig.params.iter().all(|p| {
            matches!(
                p.kind,
                ParamKind::Float(_) | ParamKind::Int | ParamKind::Bool
            )
        })
}

/// The types of `NAME_grad`'s tuple, of its pullback's adjoints (one per
/// argument, `NoGradient` for a constant) and of its JVP's tangents.
pub struct GradientTypes {
    pub outputs: TokenStream,
    pub adjoints: Vec<TokenStream>,
    pub tangents: Vec<TokenStream>,
}

pub fn gradient_types(sig: &Signature) -> GradientTypes {
    let no_gradient = quote!(::autograd::__private::NoGradient);
    let float = match &sig.ret {
        Ret::Float(f) => f.0.to_token_stream(),
        _ => quote!(f64),
    };
    let entries = sig
        .params
        .iter()
        .filter(|p| p.differentiable)
        .map(|_| float.clone());
    let per_param: Vec<TokenStream> = sig
        .params
        .iter()
        .map(|p| match p.differentiable {
            true => float.clone(),
            false => no_gradient.clone(),
        })
        .collect();
    GradientTypes {
        outputs: quote!((#float, #(#entries,)*)),
        adjoints: per_param.clone(),
        tangents: per_param,
    }
}

/// The type named like `NAME_grad` with its hidden VJP and JVP, and its
/// `ForwardMode` implementation; nothing for a function whose gradient a
/// caller cannot differentiate (see [`differentiable_gradient`]).
pub fn generate(item: &syn::ItemFn, sig: &Signature) -> TokenStream {
    if !differentiable_gradient(item, sig) {
        return not_differentiated(item, sig, item.vis.to_token_stream());
    }
    let mixed = Span::mixed_site();
    let private = quote!(::autograd::__private);
    let vis = &item.vis;
    let name = &item.sig.ident;
    let grad = names::public(name, "grad");
    let hvp = names::public(name, "hvp");
    let shape = shape(item, sig);
    let inputs = hygienic_inputs(&shape.inputs);
    let input_tys: Vec<&syn::Type> = shape.inputs.iter().map(|pt| &*pt.ty).collect();
    let args: Vec<syn::Ident> = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let GradientTypes {
        outputs,
        adjoints,
        tangents,
    } = gradient_types(sig);
    let diff: Vec<usize> = (0..sig.params.len())
        .filter(|&i| sig.params[i].differentiable)
        .collect();
    // The gradient's entries, the seeds (or tangents) of the differentiable
    // arguments, and the Hessian's products with them.
    let (value, seed_value) = (local.local("value"), local.local("seed"));
    let entry = |stem: &str| -> Vec<syn::Ident> {
        diff.iter()
            .map(|&i| local.local(&format!("{stem}_{}", trimmed(&sig.params[i].ident))))
            .collect()
    };
    let (g, s, h) = (entry("g"), entry("s"), entry("h"));
    let t: Vec<syn::Ident> = sig
        .params
        .iter()
        .map(|p| local.local(&format!("t_{}", trimmed(&p.ident))))
        .collect();
    let t_diff: Vec<&syn::Ident> = diff.iter().map(|&i| &t[i]).collect();
    // The pullback's adjoint of each argument: v̄·g + H·ḡ, or none.
    let mut k = 0;
    let adjoint_of: Vec<TokenStream> = sig
        .params
        .iter()
        .map(|p| {
            if !p.differentiable {
                return quote!(#private::NoGradient);
            }
            let (g, h) = (&g[k], &h[k]);
            k += 1;
            quote!(#seed_value * #g + #h)
        })
        .collect();
    let values: Vec<TokenStream> = (0..diff.len())
        .map(|_| quote!(_))
        .chain(std::iter::once(quote!(_)))
        .collect();
    let carrier = &grad;
    let jvp_full = syn::Ident::new(names::JVP_FULL, Span::call_site());
    let jvp_lanes = syn::Ident::new(names::JVP_LANES, Span::call_site());
    let no_gradients = t.iter().map(|_| quote!(#private::NoGradient));
    let vjp_full = syn::Ident::new(names::VJP_FULL, Span::call_site());
    let same_callee = syn::Ident::new(names::SAME_CALLEE, Span::call_site());
    quote::quote_spanned! {mixed=>
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #carrier {}
        #[doc(hidden)]
        impl #carrier {
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
                #private::same_function(called, #private::type_id_of(&#grad))
            }
            #[doc(hidden)]
            #[inline]
            #[allow(clippy::too_many_arguments)]
            #vis fn #vjp_full(#(#inputs),*)
                -> (#outputs, impl ::core::ops::FnOnce(#outputs) -> (#(#adjoints,)*))
            {
                let (#value, #(#g,)*) = #grad(#(#args),*);
                ((#value, #(#g,)*), move |(#seed_value, #(#s,)*): #outputs| {
                    let (#(#values,)* #(#h,)*) = #hvp(#(#args,)* #(#s),*);
                    (#(#adjoint_of,)*)
                })
            }
            /// No K-lane JVP: a caller's K-lane sweep reaching a call of
            /// the gradient gives up, and its Jacobian sweeps one
            /// direction at a time.
            #[doc(hidden)]
            #[inline]
            #[allow(clippy::too_many_arguments, unused_variables, clippy::type_complexity)]
            #vis fn #jvp_lanes(#(#inputs,)* #(#t: #private::NoGradient),*)
                -> ::core::option::Option<(#outputs, #private::LaneTangentOf<#outputs>)>
            {
                ::core::option::Option::None
            }
            #[doc(hidden)]
            #[inline]
            #[allow(clippy::too_many_arguments, unused_variables)]
            #vis fn #jvp_full(#(#inputs,)* #(#t: #tangents),*) -> (#outputs, #outputs) {
                let (#value, #(#g,)*) = #grad(#(#args),*);
                let (#(#values,)* #(#h,)*) = #hvp(#(#args,)* #(#t_diff),*);
                ((#value, #(#g,)*), (#(#g * #t_diff)+*, #(#h,)*))
            }
        }
        // Not listed to the user as a candidate in another error (emitted
        // with `hessian` only, as the twin's and the tangent's are).
        #[doc(hidden)]
        #[diagnostic::do_not_recommend]
        #[allow(clippy::type_complexity)]
        impl #private::ForwardMode for #carrier {
            type Fn = fn(#(#input_tys,)* #(#tangents),*) -> (#outputs, #outputs);
            const JVP: Self::Fn = #carrier::#jvp_full;
            type Lanes = fn(#(#input_tys,)* #(#no_gradients),*)
                -> ::core::option::Option<(#outputs, #private::LaneTangentOf<#outputs>)>;
            const JVP_LANES: Self::Lanes = #carrier::#jvp_lanes;
        }
    }
}

/// An argument's name without `r#`, for the locals named after it.
fn trimmed(ident: &syn::Ident) -> String {
    ident.to_string().trim_start_matches("r#").to_owned()
}

/// The stand-ins of [`generate`]'s items for a function without `hessian`
/// (see `crate::missing`): the type named like `NAME_grad` is an alias of
/// a type with untyped stand-ins of the items, at a parameter that the
/// runtime's `GradientOfGradient` gives and no function has. A caller's
/// sweeps, which reach the items through the alias, fail where they name
/// it, at the call, with the trait's one message saying to add the option.
pub fn stand_in(item: &syn::ItemFn, sig: &Signature) -> TokenStream {
    if !differentiable_gradient(item, sig) {
        return not_differentiated(item, sig, quote!(pub));
    }
    let name = &item.sig.ident;
    let gradient = quote!(
        <::autograd::checks::FunctionWithoutHessian as ::autograd::checks::GradientOfGradient>::Gradient
    );
    untyped(
        name,
        sig.params.len(),
        gradient,
        quote!(pub),
        "grad_without_hessian",
    )
}

/// For a function with `NAME_grad` whose gradient a caller cannot
/// differentiate (of slices, arrays, matrices, a generic scalar): the type
/// named like `NAME_grad` is an alias of a type with untyped stand-ins of
/// the hidden items, at a parameter the runtime's `GradientOfNumbers`
/// gives and nothing has, so a call in a differentiable body is one error
/// at the call saying what is supported. Nothing for a function without
/// `NAME_grad`, or without the type named like the function. `vis`: the
/// items' visibility (`pub` in the stand-ins' module, which a glob
/// re-exports at the function's).
fn not_differentiated(item: &syn::ItemFn, sig: &Signature, vis: TokenStream) -> TokenStream {
    let name = &item.sig.ident;
    if !matches!(sig.ret, Ret::Float(_)) || names::has_no_carrier(name) {
        return TokenStream::new();
    }
    let gradient = quote!(
        <::autograd::checks::GradientOfArrays as ::autograd::checks::GradientOfNumbers>::Gradient
    );
    untyped(
        name,
        sig.params.len(),
        gradient,
        vis,
        "grad_not_differentiated",
    )
}

/// `NAME_grad` as an alias of a type whose hidden items take any `args`
/// arguments and return any type, at `gradient`, a parameter nothing has:
/// the runtime's type of that many arguments (nothing for rustc to check
/// in the user's crate), or beyond its arities one of the function's own,
/// `NAME_suffix`.
fn untyped(
    name: &syn::Ident,
    args: usize,
    gradient: TokenStream,
    vis: TokenStream,
    suffix: &str,
) -> TokenStream {
    let carrier = names::public(name, "grad");
    if args <= names::RUNTIME_ARITY {
        let runtime = quote::format_ident!("gradient_{}", args);
        return quote! {
            #[doc(hidden)]
            #[allow(non_camel_case_types)]
            #vis type #carrier = ::autograd::checks::not_generated::#runtime<#gradient>;
        };
    }
    let stand_in = names::public(name, suffix);
    let types: Vec<syn::Ident> = (0..args).map(|i| quote::format_ident!("A{}", i)).collect();
    let vjp_full = syn::Ident::new(names::VJP_FULL, Span::call_site());
    let same_callee = syn::Ident::new(names::SAME_CALLEE, Span::call_site());
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        #vis type #carrier = #stand_in<#gradient>;
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #stand_in<T>(::core::marker::PhantomData<T>);
        #[doc(hidden)]
        #[allow(dead_code, clippy::too_many_arguments)]
        impl<T> #stand_in<T> {
            #vis fn #same_callee<F, V, P>(_: &F, _: &V, _: &P) {}
            #vis fn #vjp_full<#(#types,)* R>(#(_: #types),*) -> R {
                ::core::unreachable!()
            }
        }
    }
}
