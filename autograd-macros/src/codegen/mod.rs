//! Code generation: the items `#[differentiable]` adds next to the user's
//! function.

mod forward;
pub mod names;
mod paths;
mod reverse;
mod scopes;

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::visit_mut::VisitMut;

use crate::analysis::{Analysis, LoopSaves, movable};
use crate::ir::*;
use crate::sig::{ParamKind, Ret, Signature};
use forward::Mode;

pub struct Gen<'a> {
    f: &'a Function,
    an: &'a Analysis,
    /// Loops at the top level of the body: their stacks are filled by the
    /// forward sweep and moved into the pullback.
    top_loops: HashSet<u32>,
    /// Adjoints already created while emitting the reverse sweep.
    declared: HashSet<ValueId>,
    /// Matrices an operator or `map` may take by value (see
    /// `analysis::movable`).
    movable: HashSet<ValueId>,
    /// Adjoints left as one scalar for every element (a `sum`'s seed), with
    /// the expression that would broadcast them: emitted where the value's
    /// own reverse cannot take the scalar.
    broadcast: HashMap<ValueId, (TokenStream, TokenStream)>,
    /// Adjoints held as a reference to another adjoint (a pass-through
    /// rule's `_ref` form).
    lent: HashSet<ValueId>,
    /// Contributions emitted at the end of the sweep, once what borrows
    /// their adjoint is done.
    deferred: Vec<TokenStream>,
    /// Slice reads whose adjoint goes into a loop's pending local (see
    /// `analysis::Stencil`) rather than straight into the slice's adjoint.
    windows: HashMap<ValueId, proc_macro2::Ident>,
    /// Calls of the function itself in branches, recorded by the forward
    /// sweep with their pullbacks (see `forward::recorded_calls`).
    recorded: HashSet<ValueId>,
    /// The type a recorded call's pullback is boxed as.
    recorded_pullback_ty: TokenStream,
    /// Whether the code being generated is the pullback's: there a recorded
    /// call is read from its record rather than made.
    in_pullback: bool,
}

impl<'a> Gen<'a> {
    /// What a loop saves on its stack and what its reverse recomputes.
    fn saves(&self, l: &Loop) -> &'a LoopSaves {
        self.an.saves(l)
    }

    fn nested_loops(&self, b: &'a Block, out: &mut Vec<&'a Loop>) {
        for stmt in &b.stmts {
            match stmt {
                Stmt::Let { .. } => {}
                Stmt::If(i) => {
                    self.nested_loops(&i.then_blk, out);
                    self.nested_loops(&i.else_blk, out);
                }
                Stmt::Loop(l) => {
                    if !self.top_loops.contains(&l.id) && self.saves(l).any() {
                        out.push(l);
                    }
                    self.nested_loops(&l.body, out);
                }
            }
        }
    }
}

/// Gives every elided lifetime of the arguments a name, so the returned
/// pullback can say which borrows it keeps (`+ use<..>`) in any edition.
struct NameLifetimes {
    named: Vec<syn::Lifetime>,
}

impl NameLifetimes {
    fn fresh(&mut self) -> syn::Lifetime {
        let lt = syn::Lifetime::new(
            &format!("'__ad_l{}", self.named.len()),
            proc_macro2::Span::call_site(),
        );
        self.named.push(lt.clone());
        lt
    }
}

impl VisitMut for NameLifetimes {
    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        match &r.lifetime {
            Some(lt) if lt.ident != "_" => {
                if !self.named.iter().any(|n| n.ident == lt.ident) {
                    self.named.push(lt.clone());
                }
            }
            _ => r.lifetime = Some(self.fresh()),
        }
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
    fn visit_lifetime_mut(&mut self, lt: &mut syn::Lifetime) {
        if lt.ident == "_" {
            *lt = self.fresh();
        } else if !self.named.iter().any(|n| n.ident == lt.ident) {
            self.named.push(lt.clone());
        }
    }
}

/// The signature pieces every generated item shares.
struct Shape {
    /// Arguments without `#[constant]` or `mut`, elided lifetimes named.
    inputs: Vec<syn::PatType>,
    lifetimes: Vec<syn::Lifetime>,
    /// Adjoint types, one per argument (`NoGradient` for constants).
    full_tys: Vec<TokenStream>,
}

fn shape(item: &syn::ItemFn, sig: &Signature) -> Shape {
    let mut named = NameLifetimes { named: Vec::new() };
    let mut inputs = Vec::new();
    for arg in &item.sig.inputs {
        if let syn::FnArg::Typed(pt) = arg {
            let mut pt = pt.clone();
            pt.attrs.clear();
            if let syn::Pat::Ident(pi) = &mut *pt.pat {
                pi.mutability = None;
            }
            named.visit_type_mut(&mut pt.ty);
            inputs.push(pt);
        }
    }
    let full_tys = sig
        .params
        .iter()
        .map(|p| {
            p.adjoint_ty()
                .unwrap_or_else(|| quote!(::autograd::__private::NoGradient))
        })
        .collect();
    Shape {
        inputs,
        lifetimes: named.named,
        full_tys,
    }
}

/// The all-arguments VJP: the forward sweep, then a pullback closure
/// holding the reverse sweep.
fn vjp_fn(
    name: &syn::Ident,
    primal: Option<&syn::Ident>,
    vis: &syn::Visibility,
    shape: &Shape,
    sig: &Signature,
    f: &Function,
    an: &Analysis,
) -> TokenStream {
    let mut top_loops = HashSet::new();
    for stmt in &f.body.stmts {
        if let Stmt::Loop(l) = stmt {
            top_loops.insert(l.id);
        }
    }
    let seed_ty = sig.ret.seed();
    let full_tys = &shape.full_tys;
    let mut g = Gen {
        f,
        an,
        top_loops,
        declared: HashSet::new(),
        movable: movable(f, an),
        broadcast: HashMap::new(),
        lent: HashSet::new(),
        deferred: Vec::new(),
        windows: HashMap::new(),
        recorded: forward::recorded_calls(f, an, primal, shape.lifetimes.len()),
        recorded_pullback_ty: quote! {
            ::autograd::__private::Box<
                dyn ::core::ops::FnOnce(#seed_ty) -> (#(#full_tys,)*) + '_
            >
        },
        in_pullback: false,
    };

    let forward = g.forward_block(&f.body, Mode::Record, None);
    g.in_pullback = true;
    let mut nested = Vec::new();
    g.nested_loops(&f.body, &mut nested);
    let stacks: Vec<_> = nested
        .iter()
        .map(|l| {
            let saves = an.saves(l);
            let (s, c) = (names::stack(l.id), names::cache(l.id));
            let stack = saves
                .stacked()
                .then(|| quote!(let mut #s = ::autograd::__private::Vec::new();));
            let cache = (!saves.cached.is_empty())
                .then(|| quote!(let mut #c = ::autograd::__private::Cache::new();));
            quote!(#stack #cache)
        })
        .collect();
    let slice_adjoints: Vec<_> = f
        .params
        .iter()
        .zip(&sig.params)
        .filter(|(_, p)| p.differentiable && matches!(p.kind, ParamKind::Slice(_)))
        .map(|(v, p)| {
            let adj = names::adjoint(f, *v);
            let x = &p.ident;
            quote!(let mut #adj = ::autograd::__private::zeros_like_slice(#x);)
        })
        .collect();
    let seed = names::seed();
    let incoming = an
        .active_operand(&f.ret)
        .map(|r| (r, seed.to_token_stream()))
        .into_iter()
        .collect();
    let mut reverse = g.reverse_block(&f.body, incoming);
    reverse.extend(std::mem::take(&mut g.deferred));
    let results: Vec<_> = f
        .params
        .iter()
        .zip(&sig.params)
        .map(|(v, p)| {
            if !p.differentiable {
                quote!(::autograd::__private::NoGradient)
            } else if g.declared.contains(v) || matches!(p.kind, ParamKind::Slice(_)) {
                names::adjoint(f, *v).into_token_stream()
            } else {
                g.zero(*v)
            }
        })
        .collect();
    // The result is returned and may also be read by the reverse sweep.
    let ret = match f.ret.value() {
        Some(r) if !f.info(r).kind.is_copy() && an.needs(&f.body).contains(&r) => g.owned(r),
        _ => g.operand(&f.ret),
    };
    let helpers = &f.helpers;
    let Shape {
        inputs, lifetimes, ..
    } = shape;
    let generics = (!lifetimes.is_empty()).then(|| quote!(<#(#lifetimes),*>));
    // The sweeps reproduce the primal without calling it; naming it keeps a
    // caller of only the generated functions free of a dead-code warning.
    let primal = primal.map(|p| quote!(let _ = #p;));
    let (body, declared_up_front) = scopes::declare_up_front(quote! {
        #primal
        #(#helpers)*
        #forward
        (#ret, move |#seed: #seed_ty| {
            #(#stacks)*
            #(#slice_adjoints)*
            #reverse
            (#(#results,)*)
        })
    });
    // A local declared up front and assigned a value nothing reads is
    // reported as an unused assignment rather than an unused variable.
    let unused_assignments = declared_up_front.then(|| quote!(unused_assignments,));
    quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, unused_mut, unused_parens, #unused_assignments clippy::all)]
        #vis fn #name #generics (#(#inputs),*)
            -> (#seed_ty, impl FnOnce(#seed_ty) -> (#(#full_tys,)*) + use<#(#lifetimes),*>)
        {
            #body
        }
    }
}

/// The compiled closure of a `map`: a scalar VJP named after the closure.
pub fn helper(item: &syn::ItemFn, sig: &Signature, f: &Function, an: &Analysis) -> TokenStream {
    let shape = shape(item, sig);
    vjp_fn(
        &item.sig.ident,
        None,
        &syn::Visibility::Inherited,
        &shape,
        sig,
        f,
        an,
    )
}

/// Everything generated for a function whose adjoint comes from its body.
pub fn generate(item: &syn::ItemFn, sig: &Signature, f: &Function, an: &Analysis) -> TokenStream {
    let shape = shape(item, sig);
    let name = &item.sig.ident;
    let mut out = vjp_fn(
        &names::vjp_full(name),
        Some(name),
        &item.vis,
        &shape,
        sig,
        f,
        an,
    );
    out.extend(public_items(item, sig, &shape));
    out
}

/// `NAME_vjp`, `NAME_grad` and `NAME_check`, all built on the hidden
/// all-arguments VJP, however that was made.
fn public_items(item: &syn::ItemFn, sig: &Signature, shape: &Shape) -> TokenStream {
    // The wrappers' own locals (`value`, `pullback`, `check`, ..) must not
    // meet an argument of the same name.
    let mixed = proc_macro2::Span::mixed_site();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let vjp_full = names::vjp_full(name);
    let seed_ty = sig.ret.seed();
    let inputs = &shape.inputs;
    let lifetimes = &shape.lifetimes;
    let generics = (!lifetimes.is_empty()).then(|| quote!(<#(#lifetimes),*>));
    let arg_names: Vec<_> = sig.params.iter().map(|p| &p.ident).collect();
    let public_tys: Vec<TokenStream> = sig.params.iter().filter_map(|p| p.adjoint_ty()).collect();
    let slots: Vec<TokenStream> = sig
        .params
        .iter()
        .map(|p| {
            if p.differentiable {
                format_ident!("d_{}", p.ident, span = proc_macro2::Span::mixed_site())
                    .into_token_stream()
            } else {
                quote!(_)
            }
        })
        .collect();
    let adjoints: Vec<_> = slots.iter().filter(|n| n.to_string() != "_").collect();
    // A fallible function (`Result<f64, E>`) wraps both in its `Result`.
    let (try_, ok, wrap) = match &sig.ret {
        Ret::Result { err, .. } => (
            quote!(?),
            quote!(::core::result::Result::Ok),
            Some(err.clone()),
        ),
        _ => (TokenStream::new(), TokenStream::new(), None),
    };
    let wrapped = |t: TokenStream| match &wrap {
        Some(err) => quote!(::core::result::Result<#t, #err>),
        None => t,
    };
    let vjp = names::public(name, "vjp");
    let vjp_ty = wrapped(quote_spanned! {mixed=>
        (#seed_ty, impl FnOnce(#seed_ty) -> (#(#public_tys,)*) + use<#(#lifetimes),*>)
    });
    let doc_vjp = format!(
        " The value of [`{name}`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.\n\n Generated by `#[differentiable]`; the value is bit for bit what `{name}` returns."
    );
    let mut out = quote_spanned! {mixed=>
        #[doc = #doc_vjp]
        #[inline]
        #vis fn #vjp #generics (#(#inputs),*) -> #vjp_ty {
            let (value, pullback) = #vjp_full(#(#arg_names),*)#try_;
            #ok((value, move |seed: #seed_ty| {
                let (#(#slots,)*) = pullback(seed);
                (#(#adjoints,)*)
            }))
        }
    };
    if matches!(sig.ret, Ret::Matrix(_)) {
        return out;
    }
    let grad = names::public(name, "grad");
    let grad_ty = wrapped(quote!((#seed_ty, #(#public_tys),*)));
    let doc_grad = format!(
        " The value of [`{name}`] followed by its gradient: one adjoint per differentiable argument, in argument order.\n\n Generated by `#[differentiable]`: `{vjp}` with seed 1."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_grad]
        #[inline]
        #vis fn #grad #generics (#(#inputs),*) -> #grad_ty {
            let (value, pullback) = #vjp_full(#(#arg_names),*)#try_;
            let (#(#slots,)*) = pullback(1.0);
            #ok((value, #(#adjoints),*))
        }
    });
    if !matches!(sig.ret, Ret::Float(_)) {
        return out;
    }
    let check = names::public(name, "check");
    let doc_check = format!(
        " Compares [`{grad}`] at this point with central finite differences of [`{name}`], component by component.\n\n Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy."
    );
    let checks = sig.params.iter().filter(|p| p.differentiable).map(|p| {
        let x = &p.ident;
        let label = x.to_string();
        let dx = format_ident!("d_{}", x, span = proc_macro2::Span::mixed_site());
        let method = match p.kind {
            ParamKind::Slice(_) => quote!(slice),
            ParamKind::Matrix { vector: true, .. } => quote!(vector),
            ParamKind::Matrix { .. } => quote!(matrix),
            _ => quote!(scalar),
        };
        let (at, adjoint) = match p.kind {
            ParamKind::Float(_) => (quote!(#x), quote!(#dx)),
            ParamKind::Matrix { by_ref: false, .. } => (quote!(&#x), quote!(&#dx)),
            _ => (quote!(#x), quote!(&#dx)),
        };
        let call_args = sig.params.iter().map(|q| match q.kind {
            // The check hands the perturbed copy by reference.
            ParamKind::Matrix { by_ref: false, .. } if q.ident == *x => quote!(#x.clone()),
            ParamKind::Matrix { by_ref: false, .. } => {
                let q = &q.ident;
                quote!(#q.clone())
            }
            _ => q.ident.to_token_stream(),
        });
        quote_spanned! {mixed=>
            check.#method(#label, #at, #adjoint, |#x| #name(#(#call_args),*));
        }
    });
    // The arguments are still needed after `_grad`: owned matrices go in as clones.
    let kept_args = call_args(sig);
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_check]
        #vis fn #check #generics (#(#inputs),*) -> ::autograd::GradientCheck {
            let (value, #(#adjoints),*) = #grad(#(#kept_args),*);
            let mut check = ::autograd::GradientCheck::new(::autograd::__private::to_f64(value));
            #(#checks)*
            check
        }
    });
    out
}

/// Arguments as the user's own function takes them, for calling it while
/// keeping them: owned matrices are cloned.
fn call_args(sig: &Signature) -> Vec<TokenStream> {
    sig.params
        .iter()
        .map(|p| {
            let x = &p.ident;
            match p.kind {
                ParamKind::Matrix { by_ref: false, .. } => quote!(#x.clone()),
                _ => quote!(#x),
            }
        })
        .collect()
}

/// `#[differentiable(implicit = residual)]`: the body runs as written (a
/// solver); the adjoint comes from the implicit function theorem. With
/// r(x, θ) = 0 at the solution x, x̄ = seed gives θ̄ = −(seed / ∂r/∂x)·∂r/∂θ,
/// and one pullback of the residual at seed 1 gives every partial.
pub fn implicit(item: &syn::ItemFn, sig: &Signature, residual: &syn::Path) -> TokenStream {
    // The wrappers' own locals (`value`, `pullback`, `check`, ..) must not
    // meet an argument of the same name.
    let mixed = proc_macro2::Span::mixed_site();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let shape = shape(item, sig);
    let vjp_full = names::vjp_full(name);
    let residual_vjp = forward::vjp_path(residual);
    let seed_ty = sig.ret.seed();
    let Shape {
        inputs,
        lifetimes,
        full_tys,
    } = &shape;
    let generics = (!lifetimes.is_empty()).then(|| quote_spanned!(mixed=> <#(#lifetimes),*>));
    let args = call_args(sig);
    let arg_names: Vec<_> = sig.params.iter().map(|p| &p.ident).collect();
    let partials: Vec<_> = (0..sig.params.len())
        .map(|i| format_ident!("__ad_dr{}", i, span = proc_macro2::Span::mixed_site()))
        .collect();
    let private = quote_spanned!(mixed=> ::autograd::__private);
    let (ret_ty, solve, check, ok) = match &sig.ret {
        Ret::Result { err, .. } => (
            quote_spanned! {mixed=>
                ::core::result::Result<
                    (#seed_ty, impl FnOnce(#seed_ty) -> (#(#full_tys,)*) + use<#(#lifetimes),*>),
                    #err,
                >
            },
            quote_spanned!(mixed=> #name(#(#args),*)?),
            quote_spanned! {mixed=>
                if let ::core::result::Result::Err(e) = #private::invertible(#private::to_f64(__ad_dx)) {
                    return ::core::result::Result::Err(::core::convert::From::from(e));
                }
            },
            quote_spanned!(mixed=> ::core::result::Result::Ok),
        ),
        _ => (
            quote_spanned!(mixed=> (#seed_ty, impl FnOnce(#seed_ty) -> (#(#full_tys,)*) + use<#(#lifetimes),*>)),
            quote_spanned!(mixed=> #name(#(#args),*)),
            TokenStream::new(),
            TokenStream::new(),
        ),
    };
    let mut out = quote_spanned! {mixed=>
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, clippy::all)]
        #vis fn #vjp_full #generics (#(#inputs),*) -> #ret_ty {
            let __ad_x = #solve;
            let (_, __ad_pullback) = #residual_vjp(__ad_x, #(#arg_names),*);
            let (__ad_dx, #(#partials,)*) = __ad_pullback(1.0);
            #check
            #ok((__ad_x, move |__ad_seed: #seed_ty| {
                let __ad_lambda = #private::implicit_multiplier(__ad_seed, __ad_dx);
                (#(#private::scale(#partials, __ad_lambda),)*)
            }))
        }
    };
    out.extend(public_items(item, sig, &shape));
    out
}

/// `#[differentiable(backward = rule)]`: the body runs as written and the
/// user's rule `rule(grad_output, args.., output) -> (adjoints..)` is the
/// pullback.
pub fn custom(item: &syn::ItemFn, sig: &Signature, rule: &syn::Path) -> TokenStream {
    // The wrappers' own locals (`value`, `pullback`, `check`, ..) must not
    // meet an argument of the same name.
    let mixed = proc_macro2::Span::mixed_site();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let shape = shape(item, sig);
    let vjp_full = names::vjp_full(name);
    let seed_ty = sig.ret.seed();
    let Shape {
        inputs,
        lifetimes,
        full_tys,
    } = &shape;
    let generics = (!lifetimes.is_empty()).then(|| quote_spanned!(mixed=> <#(#lifetimes),*>));
    let args = call_args(sig);
    let arg_names: Vec<_> = sig.params.iter().map(|p| &p.ident).collect();
    let adjoints: Vec<_> = sig
        .params
        .iter()
        .filter(|p| p.differentiable)
        .map(|p| format_ident!("__ad_d_{}", p.ident, span = proc_macro2::Span::mixed_site()))
        .collect();
    let results = sig.params.iter().map(|p| {
        if p.differentiable {
            format_ident!("__ad_d_{}", p.ident, span = proc_macro2::Span::mixed_site())
                .into_token_stream()
        } else {
            quote_spanned!(mixed=> ::autograd::__private::NoGradient)
        }
    });
    let output = match &sig.ret {
        Ret::Matrix(_) => quote_spanned!(mixed=> __ad_output.clone()),
        _ => quote_spanned!(mixed=> __ad_output),
    };
    let mut out = quote_spanned! {mixed=>
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, clippy::all)]
        #vis fn #vjp_full #generics (#(#inputs),*)
            -> (#seed_ty, impl FnOnce(#seed_ty) -> (#(#full_tys,)*) + use<#(#lifetimes),*>)
        {
            let __ad_output = #name(#(#args),*);
            (#output, move |__ad_seed: #seed_ty| {
                let (#(#adjoints,)*) = #rule(__ad_seed, #(#arg_names,)* __ad_output);
                (#(#results,)*)
            })
        }
    };
    out.extend(public_items(item, sig, &shape));
    out
}

/// Stand-ins with the right signatures, emitted next to compile errors so
/// the user sees those errors and not a cascade of missing items.
pub fn stubs(item: &syn::ItemFn, sig: &Signature) -> TokenStream {
    let vis = &item.vis;
    let name = &item.sig.ident;
    let seed_ty = sig.ret.seed();
    let inputs: Vec<_> = item
        .sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(pt) => {
                let mut pt = pt.clone();
                pt.attrs.clear();
                pt.pat = Box::new(syn::parse_quote!(_));
                Some(pt)
            }
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let public_tys: Vec<TokenStream> = sig.params.iter().filter_map(|p| p.adjoint_ty()).collect();
    let full_tys: Vec<TokenStream> = sig
        .params
        .iter()
        .map(|p| {
            p.adjoint_ty()
                .unwrap_or_else(|| quote!(::autograd::__private::NoGradient))
        })
        .collect();
    let vjp_full = names::vjp_full(name);
    let vjp = names::public(name, "vjp");
    let grad = names::public(name, "grad");
    let check = names::public(name, "check");
    let mut out = quote! {
        #[doc(hidden)]
        #[allow(unused_variables, unreachable_code, clippy::all)]
        #vis fn #vjp_full(#(#inputs),*) -> (#seed_ty, fn(#seed_ty) -> (#(#full_tys,)*)) {
            ::core::unreachable!()
        }
        #[allow(unused_variables, unreachable_code, clippy::all)]
        #vis fn #vjp(#(#inputs),*) -> (#seed_ty, fn(#seed_ty) -> (#(#public_tys,)*)) {
            ::core::unreachable!()
        }
    };
    if let Ret::Float(_) = &sig.ret {
        out.extend(quote! {
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #grad(#(#inputs),*) -> (#seed_ty, #(#public_tys),*) {
                ::core::unreachable!()
            }
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #check(#(#inputs),*) -> ::autograd::GradientCheck {
                ::core::unreachable!()
            }
        });
    }
    out
}
