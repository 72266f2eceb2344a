//! How second-order twins find each other: through the trait
//! `autograd::__private::SecondOrder<S, A>`, implemented for the type named like
//! a `#[differentiable(hessian)]` function, rather than by the twin's name.
//! A callee without `hessian` has no implementation, so the caller's twin
//! fails with the trait's one message, at the call, naming the callee; by
//! name it would fail with several errors naming the missing twin. A call
//! passing in-out arguments reaches its callee twin's hidden items the same
//! way: `InOutTwin` on the callee's type names the twin, whose
//! `InOutSecondOrder` implementations forward to each item.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};
use syn::visit_mut::VisitMut;

use crate::emit::names;

/// The twins a twin calls: each twin's name, and the callee's own name.
pub type Callees = HashMap<String, syn::Ident>;

/// Rewrites the calls of callees' twins in a twin's expansion into calls
/// through their `SecondOrder` implementations, and drops the callee identity
/// checks (the function's own reverse sweep already makes them).
pub fn route_calls(file: &mut syn::File, callees: &Callees) {
    ThroughTrait { callees }.visit_file_mut(file);
}

struct ThroughTrait<'a> {
    callees: &'a Callees,
}

enum Hidden {
    Primal,
    VjpFull,
    SameCallee,
}

impl ThroughTrait<'_> {
    /// The callee's path (its name back, no generic arguments), which of its
    /// twin's items the call reaches, and the span of the call's name.
    fn callee(&self, path: &syn::Path) -> Option<(syn::Path, Hidden, Span)> {
        let n = path.segments.len();
        let at = path
            .segments
            .iter()
            .position(|s| self.callees.contains_key(&s.ident.to_string()))?;
        let item = match (n - at, path.segments.last()) {
            (1, _) => Hidden::Primal,
            (2, Some(s)) if s.ident == names::VJP_FULL => Hidden::VjpFull,
            (2, Some(s)) if s.ident == names::SAME_CALLEE => Hidden::SameCallee,
            _ => return None,
        };
        let twin = &path.segments[at].ident;
        let span = twin.span();
        let mut own = self.callees[&twin.to_string()].clone();
        own.set_span(span);
        let mut callee = path.clone();
        while callee.segments.len() > at {
            callee.segments.pop();
        }
        callee.segments.push(syn::PathSegment::from(own));
        Some((callee, item, span))
    }

    /// For a hidden item of a call passing in-out arguments
    /// (`__ad_hessian_step::__inout_call`, `..::__inout_call__vjp_full`):
    /// the callee's path (its name back) and the item's name.
    fn inout_item(&self, path: &syn::Path) -> Option<(syn::Path, syn::Ident)> {
        let n = path.segments.len();
        let last = &path.segments.last()?.ident;
        let twin = &path.segments.get(n.checked_sub(2)?)?.ident;
        let own = self.callees.get(&twin.to_string())?;
        let name = last.to_string();
        if !name.starts_with(crate::ir::INOUT_CALL) && !name.starts_with(crate::ir::INOUT_RESULT) {
            return None;
        }
        let mut own = own.clone();
        own.set_span(twin.span());
        let mut callee = path.clone();
        callee.segments.pop();
        callee.segments.pop();
        callee.segments.push(syn::PathSegment::from(own));
        Some((callee, last.clone()))
    }
}

impl VisitMut for ThroughTrait<'_> {
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        b.stmts.retain(|s| {
            let syn::Stmt::Expr(syn::Expr::Call(call), Some(_)) = s else {
                return true;
            };
            let syn::Expr::Path(p) = &*call.func else {
                return true;
            };
            let in_out_check = self
                .inout_item(&p.path)
                .is_some_and(|(_, item)| item.to_string().ends_with(names::SAME_CALLEE));
            !in_out_check && !matches!(self.callee(&p.path), Some((_, Hidden::SameCallee, _)))
        });
        syn::visit_mut::visit_block_mut(self, b);
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        syn::visit_mut::visit_expr_mut(self, e);
        let syn::Expr::Call(call) = e else { return };
        let syn::Expr::Path(p) = &*call.func else {
            return;
        };
        if p.qself.is_some() {
            return;
        }
        let args = call.args.iter();
        // A call passing in-out arguments: through the `InOutSecondOrder`
        // of the type the callee's `InOutTwin` names, for the item.
        if let Some((callee, item)) = self.inout_item(&p.path) {
            let Some((hidden, method)) = inout_trait_item(&item) else {
                return;
            };
            let span = callee
                .segments
                .last()
                .map_or(item.span(), |s| s.ident.span());
            let path = respan(
                quote!(<<#callee as ::autograd::__private::InOutTwin>::Twin as ::autograd::__private::InOutSecondOrder<#hidden, _>>::#method),
                span,
            );
            let mut tuple =
                proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, quote!(#(#args,)*));
            tuple.set_span(span);
            let mut list = proc_macro2::Group::new(
                proc_macro2::Delimiter::Parenthesis,
                tuple.into_token_stream(),
            );
            list.set_span(span);
            if let Ok(through) = syn::parse2(quote!(#path #list)) {
                *e = through;
            }
            return;
        }
        let Some((callee, item, span)) = self.callee(&p.path) else {
            return;
        };
        let through = |method: TokenStream| {
            // Every token of the path at the call's name: the trait's
            // error, if any, is reported there, once.
            let path = respan(
                quote!(<#callee as ::autograd::__private::SecondOrder<_, _>>::#method),
                span,
            );
            // The argument list's parentheses too, so that the whole call
            // expression is at the call's name.
            let mut tuple =
                proc_macro2::Group::new(proc_macro2::Delimiter::Parenthesis, quote!(#(#args,)*));
            tuple.set_span(span);
            let mut list = proc_macro2::Group::new(
                proc_macro2::Delimiter::Parenthesis,
                tuple.into_token_stream(),
            );
            list.set_span(span);
            quote!(#path #list)
        };
        let method = match item {
            Hidden::Primal => quote!(primal),
            Hidden::VjpFull => quote!(vjp_full),
            // Removed with its statement, in `visit_block_mut`.
            Hidden::SameCallee => return,
        };
        if let Ok(through) = syn::parse2(through(method)) {
            *e = through;
        }
    }
}

/// For a hidden item of a call passing in-out arguments (see
/// `ir::INOUT_CALL`), the `Item` of its `InOutSecondOrder` and the method:
/// `__inout_call_1__vjp_full` is `(InOutCall<1>, vjp_full)`.
fn inout_trait_item(item: &syn::Ident) -> Option<(TokenStream, TokenStream)> {
    let name = item.to_string();
    let (base, method) = match name.strip_suffix(names::VJP_FULL) {
        Some(base) => (base, quote!(vjp_full)),
        None => (name.as_str(), quote!(call)),
    };
    let private = quote!(::autograd::__private);
    let hidden = if base == crate::ir::INOUT_RESULT {
        quote!(#private::InOutResult)
    } else {
        let j: usize = match base.strip_prefix(crate::ir::INOUT_CALL)? {
            "" => 0,
            rest => rest.strip_prefix('_')?.parse().ok()?,
        };
        quote!(#private::InOutCall<#j>)
    };
    Some((hidden, method))
}

fn respan(tokens: TokenStream, span: Span) -> TokenStream {
    tokens
        .into_iter()
        .map(|mut t| {
            if let proc_macro2::TokenTree::Group(g) = &t {
                let mut group = proc_macro2::Group::new(g.delimiter(), respan(g.stream(), span));
                group.set_span(span);
                t = group.into();
            } else {
                t.set_span(span);
            }
            t
        })
        .collect()
}

/// `impl SecondOrder<S, (args..)> for NAME`, forwarding to the twin `twin`,
/// whose hidden all-arguments VJP is read from the twin's expansion (and
/// `InOutSecondOrder` for the hidden items of a call passing in-out
/// arguments, if it takes any).
pub fn implementation(file: &syn::File, name: &syn::Ident, twin: &syn::Ident) -> TokenStream {
    let mut out = inout_implementations(file, twin);
    out.extend(own_implementation(file, name, twin));
    out
}

/// `implementation`'s `SecondOrder` part: none for a function of in-out
/// arguments, which callers reach through `InOutSecondOrder`.
fn own_implementation(file: &syn::File, name: &syn::Ident, twin: &syn::Ident) -> TokenStream {
    let Some(vjp) = file.items.iter().find_map(|item| match item {
        syn::Item::Impl(i) if matches!(&*i.self_ty, syn::Type::Path(t) if t.path.is_ident(twin)) => {
            i.items.iter().find_map(|f| match f {
                syn::ImplItem::Fn(f) if f.sig.ident == names::VJP_FULL => Some(&f.sig),
                _ => None,
            })
        }
        _ => None,
    }) else {
        return TokenStream::new();
    };
    let syn::ReturnType::Type(_, ret) = &vjp.output else {
        return TokenStream::new();
    };
    let Some((scalar, adjoints)) = value_and_adjoints(ret) else {
        return TokenStream::new();
    };
    let (tys, args) = tuple_inputs(vjp);
    let (impl_generics, _, where_clause) = vjp.generics.split_for_impl();
    let vjp_full = names::hidden(twin, names::VJP_FULL);
    let private = quote!(::autograd::__private);
    quote_spanned! {Span::mixed_site()=>
        // Not listed to the user as a candidate when a callee lacks
        // `hessian`: its parameters are generated names.
        #[doc(hidden)]
        #[diagnostic::do_not_recommend]
        impl #impl_generics #private::SecondOrder<#scalar, (#(#tys,)*)> for #name #where_clause {
            type Adjoints = #adjoints;
            #[inline(always)]
            fn primal((#(#args,)*): (#(#tys,)*)) -> #scalar {
                #twin(#(#args),*)
            }
            #[inline(always)]
            fn vjp_full((#(#args,)*): (#(#tys,)*))
                -> (#scalar, impl ::core::ops::FnOnce(#scalar) -> Self::Adjoints)
            {
                #twin::#vjp_full(#(#args),*)
            }
        }
    }
}

/// `impl InOutSecondOrder<ITEM, (args..)> for TWIN`, one per hidden item
/// of a call passing in-out arguments in the twin `twin`'s expansion,
/// forwarding to it (the function's `InOutTwin` names `twin`).
fn inout_implementations(file: &syn::File, twin: &syn::Ident) -> TokenStream {
    let Some(items) = file.items.iter().find_map(|item| match item {
        syn::Item::Impl(i)
            if i.trait_.is_none()
                && matches!(&*i.self_ty, syn::Type::Path(t) if t.path.is_ident(twin))
                && i.items.iter().any(
                    |f| matches!(f, syn::ImplItem::Fn(f) if crate::ir::is_inout_item(&f.sig.ident)),
                ) =>
        {
            Some(&i.items)
        }
        _ => None,
    }) else {
        return TokenStream::new();
    };
    let fns: Vec<&syn::Signature> = items
        .iter()
        .filter_map(|f| match f {
            syn::ImplItem::Fn(f) => Some(&f.sig),
            _ => None,
        })
        .collect();
    let private = quote!(::autograd::__private);
    let mut out = TokenStream::new();
    for call in fns.iter().filter(|f| crate::ir::is_inout_item(&f.ident)) {
        let vjp_name = format!("{}{}", call.ident, names::VJP_FULL);
        let Some(vjp) = fns.iter().find(|f| f.ident == vjp_name) else {
            continue;
        };
        let syn::ReturnType::Type(_, ret) = &vjp.output else {
            continue;
        };
        let Some((out_ty, adjoints)) = value_and_adjoints(ret) else {
            continue;
        };
        let Some((hidden, _)) = inout_trait_item(&call.ident) else {
            continue;
        };
        let (tys, args) = tuple_inputs(vjp);
        // The items name the function's lifetimes; an impl may take only
        // those its argument types use.
        let used = quote!(#(#tys)*).to_string();
        let used: Vec<&str> = used
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '\''))
            .collect();
        let mut generics = vjp.generics.clone();
        generics.params = generics
            .params
            .into_iter()
            .filter(|p| match p {
                syn::GenericParam::Lifetime(l) => used.contains(&l.lifetime.to_string().as_str()),
                _ => true,
            })
            .collect();
        let (impl_generics, _, where_clause) = generics.split_for_impl();
        let call_name = &call.ident;
        let vjp_name = &vjp.ident;
        out.extend(quote_spanned! {Span::mixed_site()=>
            #[doc(hidden)]
            #[diagnostic::do_not_recommend]
            impl #impl_generics #private::InOutSecondOrder<#hidden, (#(#tys,)*)> for #twin #where_clause {
                type Out = #out_ty;
                type Adjoints = #adjoints;
                #[inline(always)]
                fn call((#(#args,)*): (#(#tys,)*)) -> #out_ty {
                    #twin::#call_name(#(#args),*)
                }
                #[inline(always)]
                fn vjp_full((#(#args,)*): (#(#tys,)*))
                    -> (#out_ty, impl ::core::ops::FnOnce(#out_ty) -> Self::Adjoints)
                {
                    #twin::#vjp_name(#(#args),*)
                }
            }
        });
    }
    out
}

/// A hidden item's argument types, which a trait takes as one tuple, and
/// names for its elements.
fn tuple_inputs(item: &syn::Signature) -> (Vec<&syn::Type>, Vec<syn::Ident>) {
    let tys: Vec<&syn::Type> = item
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(pt) => Some(&*pt.ty),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let args = (0..tys.len())
        .map(|i| syn::Ident::new(&format!("__ad_a{i}"), Span::mixed_site()))
        .collect();
    (tys, args)
}

/// From `(S, impl FnOnce(S) -> ADJOINTS + use<..>)`: `S` and `ADJOINTS`.
fn value_and_adjoints(ret: &syn::Type) -> Option<(syn::Type, syn::Type)> {
    let syn::Type::Tuple(t) = ret else {
        return None;
    };
    let mut elems = t.elems.iter();
    let (Some(scalar), Some(syn::Type::ImplTrait(pullback))) = (elems.next(), elems.next()) else {
        return None;
    };
    pullback.bounds.iter().find_map(|b| match b {
        syn::TypeParamBound::Trait(tb) => match &tb.path.segments.last()?.arguments {
            // A function of in-out arguments (whose pullback takes their
            // final values' seeds too) is called through its twin's own
            // hidden items instead.
            syn::PathArguments::Parenthesized(p) if p.inputs.len() != 1 => None,
            syn::PathArguments::Parenthesized(p) => match &p.output {
                syn::ReturnType::Type(_, adj) => Some((scalar.clone(), (**adj).clone())),
                syn::ReturnType::Default => None,
            },
            _ => None,
        },
        _ => None,
    })
}
