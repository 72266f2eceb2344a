//! How second-order twins find each other: through the trait
//! `autograd::__private::SecondOrder<S, A>`, implemented for the type named like
//! a `#[differentiable(hessian)]` function, rather than by the twin's name.
//! A callee without `hessian` has no implementation, so the caller's twin
//! fails with the trait's one message, at the call, naming the callee; by
//! name it would fail with several errors naming the missing twin.

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
            !matches!(self.callee(&p.path), Some((_, Hidden::SameCallee, _)))
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
        let Some((callee, item, span)) = self.callee(&p.path) else {
            return;
        };
        let args = call.args.iter();
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
/// whose hidden all-arguments VJP is read from the twin's expansion.
pub fn implementation(file: &syn::File, name: &syn::Ident, twin: &syn::Ident) -> TokenStream {
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
    let tys: Vec<&syn::Type> = vjp
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(pt) => Some(&*pt.ty),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let args: Vec<syn::Ident> = (0..tys.len())
        .map(|i| syn::Ident::new(&format!("__ad_a{i}"), Span::mixed_site()))
        .collect();
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
            syn::PathArguments::Parenthesized(p) => match &p.output {
                syn::ReturnType::Type(_, adj) => Some((scalar.clone(), (**adj).clone())),
                syn::ReturnType::Default => None,
            },
            _ => None,
        },
        _ => None,
    })
}
