//! Functions taking `Tangent` structs (`p: &Params`, `p: Params`) and
//! methods reading their receiver's fields (`&self`, `self`).
//!
//! The macro cannot see a struct's fields, so it does not lower the struct
//! itself: every field the body reads (`p.a`) becomes an `f64` argument of
//! a hidden copy of the function (the "flat" function), which the ordinary
//! pipeline differentiates. The public items call the flat function's VJP
//! with the fields' values and assemble each struct's adjoint from its
//! argument (`Tangent::zero_adjoint`: constants cloned) plus one hidden
//! `__autograd_add_FIELD` per field read, which the derive generates (a
//! no-op for a constant field). The flat function lives in a module inside
//! the VJP wrapper, so the same expansion works inside an `impl` block,
//! where a free item cannot be emitted.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{FnArg, Type};

use crate::ctxt::Ctxt;
use crate::sig::{self, ParamKind};

/// An argument of the user's function, as the wrappers see it.
struct Arg {
    ident: syn::Ident,
    kind: ArgKind,
}

enum ArgKind {
    /// A `Tangent` struct (or the receiver): `ty` is its owned type.
    Struct { ty: Type, by_ref: bool },
    /// Any other argument: the flat function takes it as written.
    Other { by_value_clone: bool },
}

/// The owned type of a `Tangent` struct argument, and whether it is passed
/// by reference: a path without generic arguments starting with a capital
/// (`Params`, `model::Params`, `Self`) that is no type the macro knows.
fn struct_type(ty: &Type) -> Option<(Type, bool)> {
    let (owned, by_ref) = match ty {
        Type::Reference(r) if r.mutability.is_none() => (&*r.elem, true),
        ty => (ty, false),
    };
    let Type::Path(p) = owned else { return None };
    let last = p.path.segments.last()?;
    let capital = last
        .ident
        .to_string()
        .starts_with(|c: char| c.is_ascii_uppercase());
    let known = ["String", "Vec", "Box", "Option", "Result"];
    (p.qself.is_none()
        && capital
        && last.arguments.is_none()
        && p.path.segments.iter().all(|s| s.arguments.is_none())
        && !known.iter().any(|k| last.ident == k))
    .then(|| (owned.clone(), by_ref))
}

/// The function's arguments, if one of them is a `Tangent` struct or the
/// receiver; `None` sends the function down the ordinary pipeline.
fn args(func: &syn::ItemFn) -> Option<Vec<Arg>> {
    let mut any = false;
    let args = func
        .sig
        .inputs
        .iter()
        .map(|arg| match arg {
            FnArg::Receiver(r) => {
                any = true;
                Some(Arg {
                    ident: syn::Ident::new("self", r.self_token.span),
                    kind: ArgKind::Struct {
                        ty: syn::parse_quote!(Self),
                        by_ref: !matches!(r.kind, syn::ReceiverKind::Value),
                    },
                })
            }
            FnArg::Typed(pt) => {
                let syn::Pat::Ident(pi) = &*pt.pat else {
                    return None;
                };
                let constant = pt.attrs.iter().any(sig::is_constant_attr);
                let kind = match struct_type(&pt.ty) {
                    Some((ty, by_ref)) if !constant => {
                        any = true;
                        ArgKind::Struct { ty, by_ref }
                    }
                    _ => ArgKind::Other {
                        by_value_clone: !matches!(&*pt.ty, Type::Reference(_)),
                    },
                };
                Some(Arg {
                    ident: pi.ident.clone(),
                    kind,
                })
            }
        })
        .collect::<Option<Vec<_>>>()?;
    any.then_some(args)
}

/// Replaces each read `p.field` of a struct argument by the flat
/// function's argument for it; any other use of the struct is an error.
struct Flatten<'a> {
    cx: &'a Ctxt,
    structs: Vec<syn::Ident>,
    /// `(struct, field)` in the order of first read.
    reads: Vec<(syn::Ident, syn::Ident)>,
    /// Integer fields read through a cast (`p.n as usize`): the flat
    /// function's constant argument for each, the field and the type.
    casts: Vec<(syn::Ident, syn::Expr, Type)>,
}

fn strip_parens(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip_parens(&p.expr),
        e => e,
    }
}

fn field_arg(base: &syn::Ident, field: &syn::Ident) -> syn::Ident {
    format_ident!("__ad_{}_{}", base, field, span = field.span())
}

impl Flatten<'_> {
    fn struct_of(&self, e: &syn::Expr) -> Option<syn::Ident> {
        let syn::Expr::Path(p) = e else { return None };
        let ident = p.path.get_ident()?;
        self.structs.iter().find(|s| *s == ident).cloned()
    }
}

impl VisitMut for Flatten<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::Cast(c) = e
            && let syn::Expr::Field(f) = strip_parens(&c.expr)
            && matches!(f.member, syn::Member::Named(_))
            && self.struct_of(&f.base).is_some()
        {
            let arg = format_ident!("__ad_cast{}", self.casts.len(), span = c.span());
            self.casts
                .push((arg.clone(), syn::Expr::Field(f.clone()), (*c.ty).clone()));
            *e = syn::parse_quote!(#arg);
            return;
        }
        if let syn::Expr::Field(f) = e
            && let syn::Member::Named(field) = &f.member
            && let Some(base) = self.struct_of(&f.base)
        {
            let field = field.clone();
            if !self.reads.iter().any(|(b, r)| *b == base && *r == field) {
                self.reads.push((base.clone(), field.clone()));
            }
            let arg = field_arg(&base, &field);
            *e = syn::parse_quote!(#arg);
            return;
        }
        if let Some(base) = self.struct_of(e) {
            self.cx.error_spanned_by(
                &*e,
                format!(
                    "a `#[differentiable]` body reads a `Tangent` struct by its fields (`{base}.a`); passing `{base}` on whole or calling its methods is not supported"
                ),
            );
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

/// The expansion of a function with a `Tangent` struct argument or a
/// receiver, or `None` for every other function.
pub fn expand(attr: &TokenStream, func: &syn::ItemFn) -> Option<TokenStream> {
    let args = args(func)?;
    let cx = Ctxt::default();
    let is_method = args.iter().any(|a| a.ident == "self");
    for input in &func.sig.inputs {
        if let FnArg::Receiver(r) = input
            && (r.mutability.is_some()
                || !matches!(
                    r.kind,
                    syn::ReceiverKind::Value | syn::ReceiverKind::Reference(_, _, None)
                ))
        {
            cx.error_spanned_by(
                r,
                "a `#[differentiable]` method takes `&self` or `self`: it must not write through its receiver",
            );
        }
    }
    if !func.sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &func.sig.generics,
            "a `#[differentiable]` function taking a `Tangent` struct cannot be generic",
        );
    }
    let ret = match &func.sig.output {
        syn::ReturnType::Type(_, ty) if matches!(&**ty, Type::Path(p) if p.path.is_ident("f64") || p.path.is_ident("f32")) => {
            (**ty).clone()
        }
        output => {
            cx.error_spanned_by(
                output,
                "a `#[differentiable]` function taking a `Tangent` struct returns `f64` or `f32`",
            );
            syn::parse_quote!(f64)
        }
    };

    let mut flatten = Flatten {
        cx: &cx,
        structs: args
            .iter()
            .filter(|a| matches!(a.kind, ArgKind::Struct { .. }))
            .map(|a| a.ident.clone())
            .collect(),
        reads: Vec::new(),
        casts: Vec::new(),
    };
    let mut body = (*func.block).clone();
    flatten.visit_block_mut(&mut body);
    let (reads, casts) = (flatten.reads, flatten.casts);

    // The flat function: one `f64` per field read, then the other
    // arguments as written.
    let name = &func.sig.ident;
    let field_inputs = reads.iter().map(|(b, f)| {
        let a = field_arg(b, f);
        quote!(#a: f64)
    });
    let cast_inputs = casts.iter().map(|(a, _, ty)| quote!(#[constant] #a: #ty));
    let other_inputs: Vec<TokenStream> = func
        .sig
        .inputs
        .iter()
        .zip(&args)
        .filter(|(_, a)| matches!(a.kind, ArgKind::Other { .. }))
        .map(|(input, _)| input.to_token_stream())
        .collect();
    let flat: syn::ItemFn = syn::parse_quote! {
        pub fn #name(#(#field_inputs,)* #(#cast_inputs,)* #(#other_inputs),*) -> #ret #body
    };
    let flat_sig = {
        let scratch = Ctxt::default();
        let parsed = sig::parse(&scratch, &flat.sig, false);
        let _ = scratch.check();
        parsed
    };
    let others: Vec<Option<sig::Param>> = match &flat_sig {
        Some(s) => {
            let mut params = s.params.iter().skip(reads.len() + casts.len());
            args.iter()
                .map(|a| match a.kind {
                    ArgKind::Other { .. } => params.next().cloned(),
                    ArgKind::Struct { .. } => None,
                })
                .collect()
        }
        None => args.iter().map(|_| None).collect(),
    };
    let flat_items = crate::expand::expand(attr.clone(), flat.to_token_stream());

    // The user's function as written.
    let mut user = func.clone();
    for arg in &mut user.sig.inputs {
        if let FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| !sig::is_constant_attr(a));
        }
    }
    let mut out = user.to_token_stream();
    if let Err(e) = cx.check() {
        out.extend(e.to_compile_error());
        return Some(out);
    }

    let mixed = Span::mixed_site();
    let vis = &func.vis;
    let inputs: Vec<&FnArg> = user.sig.inputs.iter().collect();
    let callee = |suffix: &str| {
        let n = if suffix.is_empty() {
            name.clone()
        } else {
            format_ident!("{}_{}", name, suffix)
        };
        if is_method {
            quote!(Self::#n)
        } else {
            quote!(#n)
        }
    };
    let names: Vec<&syn::Ident> = args.iter().map(|a| &a.ident).collect();

    // The adjoint slots: a struct's is its own type; another argument's
    // the flat function's, if it is differentiable.
    let slot_tys: Vec<Option<TokenStream>> = args
        .iter()
        .zip(&others)
        .map(|(a, other)| match &a.kind {
            ArgKind::Struct { ty, .. } => Some(ty.to_token_stream()),
            ArgKind::Other { .. } => other.as_ref().and_then(|p| p.adjoint_ty()),
        })
        .collect();
    let slots: Vec<syn::Ident> = (0..slot_tys.len())
        .map(|i| format_ident!("__ad_slot{}", i, span = mixed))
        .collect();
    let kept_slots: Vec<&syn::Ident> = slots
        .iter()
        .zip(&slot_tys)
        .filter(|(_, t)| t.is_some())
        .map(|(s, _)| s)
        .collect();
    let kept_tys: Vec<&TokenStream> = slot_tys.iter().flatten().collect();

    // `_vjp`: the flat VJP at the fields' values, each struct's adjoint
    // assembled from its zero and the adjoints of the fields read.
    let flat_vjp = format_ident!("{}_vjp", name);
    let field_values = reads.iter().map(|(b, f)| {
        let span = f.span();
        quote_spanned!(span=> ::autograd::__private::float_field(#b.#f))
    });
    let cast_values = casts.iter().map(|(_, field, ty)| {
        let span = field.span();
        quote_spanned!(span=> ::autograd::__private::int_field(#field) as #ty)
    });
    let other_values = args
        .iter()
        .filter(|a| matches!(a.kind, ArgKind::Other { .. }))
        .map(|a| &a.ident);
    let zeros = args.iter().zip(&slots).filter_map(|(a, slot)| match &a.kind {
        ArgKind::Struct { ty, by_ref } => {
            let x = &a.ident;
            let at = if *by_ref { quote!(#x) } else { quote!(&#x) };
            Some(quote_spanned!(mixed=> let mut #slot = <#ty as ::autograd::Tangent>::zero_adjoint(#at);))
        }
        ArgKind::Other { .. } => None,
    });
    let flat_grads: Vec<syn::Ident> = (0..reads.len())
        .map(|i| format_ident!("__ad_field{}", i, span = mixed))
        .collect();
    let other_grads: Vec<TokenStream> = args
        .iter()
        .zip(&slots)
        .zip(&slot_tys)
        .filter(|((a, _), _)| matches!(a.kind, ArgKind::Other { .. }))
        .filter(|(_, t)| t.is_some())
        .map(|((_, s), _)| s.to_token_stream())
        .collect();
    let adds = reads.iter().zip(&flat_grads).map(|((b, f), g)| {
        let i = args
            .iter()
            .position(|a| a.ident == *b)
            .expect("a struct argument");
        let slot = &slots[i];
        let add = crate::tangent_derive::add_method(f);
        quote_spanned!(mixed=> #slot.#add(#g);)
    });
    let vjp = format_ident!("{}_vjp", name);
    let doc_vjp = format!(
        " The value of [`{name}`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order; a `Tangent` struct's adjoint is the struct.\n\n Generated by `#[differentiable]`."
    );
    let zeros: Vec<TokenStream> = zeros.collect();
    // The wrappers reproduce the function without calling it; naming it
    // keeps a caller of only the generated items free of a dead-code warning.
    let primal = callee("");
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_vjp]
        #[allow(clippy::too_many_arguments)]
        #vis fn #vjp(#(#inputs),*) -> (#ret, impl ::core::ops::FnOnce(#ret) -> (#(#kept_tys,)*)) {
            #[allow(dead_code, unused_imports, non_snake_case, clippy::all)]
            mod __ad_flat {
                use super::*;
                #flat_items
            }
            let _ = #primal;
            #(#zeros)*
            let (__ad_value, __ad_pullback) = __ad_flat::#flat_vjp(#(#field_values,)* #(#cast_values,)* #(#other_values),*);
            (__ad_value, move |__ad_seed: #ret| {
                let (#(#flat_grads,)* #(#other_grads,)*) = __ad_pullback(__ad_seed);
                #(#adds)*
                (#(#kept_slots,)*)
            })
        }
    });

    // `_grad`: the VJP with seed 1.
    let grad = format_ident!("{}_grad", name);
    let call_vjp = callee("vjp");
    let doc_grad = format!(
        " The value of [`{name}`] followed by its gradient: one adjoint per differentiable argument, in argument order.\n\n Generated by `#[differentiable]`: `{vjp}` with seed 1."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_grad]
        #[allow(clippy::too_many_arguments)]
        #vis fn #grad(#(#inputs),*) -> (#ret, #(#kept_tys),*) {
            let (__ad_value, __ad_pullback) = #call_vjp(#(#names),*);
            let (#(#kept_slots,)*) = __ad_pullback(1.0);
            (__ad_value, #(#kept_slots),*)
        }
    });

    // `_grad_acc`: the gradient added into the caller's buffers.
    let taken: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut buffers = Vec::new();
    let mut accumulate = Vec::new();
    for (i, ((a, slot), ty)) in args.iter().zip(&slots).zip(&slot_tys).enumerate() {
        let Some(ty) = ty else { continue };
        let mut buffer = format!("d_{}", a.ident);
        while taken.contains(&buffer) {
            buffer.push('_');
        }
        let buffer = syn::Ident::new(&buffer, mixed);
        match &a.kind {
            ArgKind::Struct { .. } => {
                buffers.push(quote_spanned!(mixed=> #buffer: &mut #ty));
                accumulate.push(
                    quote_spanned!(mixed=> ::autograd::Tangent::add_adjoint(#buffer, &#slot);),
                );
            }
            ArgKind::Other { .. } => {
                let buffer_ty = others[i].as_ref().and_then(|p| p.buffer_ty());
                buffers.push(quote_spanned!(mixed=> #buffer: #buffer_ty));
                accumulate.push(
                    quote_spanned!(mixed=> ::autograd::__private::Accumulate::accumulate(#buffer, #slot);),
                );
            }
        }
    }
    let grad_acc = format_ident!("{}_grad_acc", name);
    let doc_acc = format!(
        " The value of [`{name}`], its gradient added into one buffer per differentiable argument (`d_x += ∂{name}/∂x`), in argument order.\n\n Generated by `#[differentiable]`."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_acc]
        #[allow(clippy::too_many_arguments)]
        #vis fn #grad_acc(#(#inputs,)* #(#buffers),*) -> #ret {
            let (__ad_value, __ad_pullback) = #call_vjp(#(#names),*);
            let (#(#kept_slots,)*) = __ad_pullback(1.0);
            #(#accumulate)*
            __ad_value
        }
    });

    // `_check`: each struct's differentiable fields and each other
    // differentiable argument against central differences of the function.
    let call = callee("");
    let at = syn::Ident::new("__ad_at", mixed);
    let kept = |replaced: Option<usize>| -> Vec<TokenStream> {
        args.iter()
            .enumerate()
            .map(|(i, a)| {
                let x = &a.ident;
                let by_value = match &a.kind {
                    ArgKind::Struct { by_ref, .. } => !by_ref,
                    ArgKind::Other { by_value_clone, .. } => {
                        *by_value_clone
                            && !matches!(
                                others[i].as_ref().map(|p| &p.kind),
                                Some(ParamKind::Float(_) | ParamKind::Int | ParamKind::Bool)
                            )
                    }
                };
                match (replaced == Some(i), by_value) {
                    (true, true) => quote!(::core::clone::Clone::clone(#at)),
                    (true, false) => quote!(#at),
                    (false, true) => quote!(::core::clone::Clone::clone(&#x)),
                    (false, false) => quote!(#x),
                }
            })
            .collect()
    };
    let checks = args.iter().enumerate().zip(&slots).filter_map(|((i, a), slot)| {
        slot_tys[i].as_ref()?;
        let x = &a.ident;
        let label = x.to_string();
        let call_args = kept(Some(i));
        Some(match &a.kind {
            ArgKind::Struct { by_ref, .. } => {
                let at = if *by_ref { quote!(#x) } else { quote!(&#x) };
                quote_spanned! {mixed=>
                    ::autograd::__private::TangentCheck::check_fields(#at, &#slot, #label, &mut __ad_check, &mut |__ad_at| #call(#(#call_args),*));
                }
            }
            ArgKind::Other { .. } => {
                let kind = &others[i].as_ref()?.kind;
                let (method, at, adjoint, call_args) = match kind {
                    ParamKind::Float(_) => (quote!(scalar), quote!(#x), quote!(#slot), kept(Some(i))),
                    ParamKind::Slice(_) => (quote!(slice), quote!(#x), quote!(&#slot), call_args),
                    ParamKind::Matrix { fixed, vector, by_ref, .. } => {
                        let method = if *fixed {
                            quote!(fixed)
                        } else if *vector {
                            quote!(vector)
                        } else {
                            quote!(matrix)
                        };
                        let at = if *by_ref { quote!(#x) } else { quote!(&#x) };
                        (method, at, quote!(&#slot), call_args)
                    }
                    _ => return None,
                };
                quote_spanned! {mixed=>
                    __ad_check.#method(#label, #at, #adjoint, |__ad_at| #call(#(#call_args),*));
                }
            }
        })
    });
    let checks: Vec<TokenStream> = checks.collect();
    let check = format_ident!("{}_check", name);
    let call_grad = callee("grad");
    let kept_all = kept(None);
    let doc_check = format!(
        " Compares [`{grad}`] at this point with central finite differences of [`{name}`], component by component (a `Tangent` struct field by field).\n\n Generated by `#[differentiable]`."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_check]
        #[allow(clippy::too_many_arguments)]
        #vis fn #check(#(#inputs),*) -> ::autograd::GradientCheck {
            let (__ad_value, #(#kept_slots),*) = #call_grad(#(#kept_all),*);
            let mut __ad_check = ::autograd::GradientCheck::new(::autograd::__private::to_f64(__ad_value));
            #(#checks)*
            __ad_check
        }
    });
    Some(out)
}
