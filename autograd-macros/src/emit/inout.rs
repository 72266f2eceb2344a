//! In-out (`&mut`) arguments: the hidden VJP works on owned copies of
//! them and writes their final values back after the forward sweep; its
//! pullback takes one seed for the result, then one for each in-out
//! argument's final value. The public items of such a function.

use proc_macro2::{Ident, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};

use super::names;
use super::{Gen, Shape, adjoint_slots, generics, hygienic_inputs, many_arguments, where_clause};
use crate::ir::{Function, Operand};
use crate::sig::{ParamKind, Ret, Signature};

/// Whether the argument `i` is a `&mut [..]` (not an owned `Vec`).
fn is_slice(shape: &Shape, i: usize) -> bool {
    matches!(&*shape.inputs[i].ty, syn::Type::Reference(r) if matches!(&*r.elem, syn::Type::Slice(_)))
}

/// Whether the argument `i` is a `&mut Vec<..>`, which the function may
/// resize.
fn is_vec(shape: &Shape, i: usize) -> bool {
    let syn::Type::Reference(r) = &*shape.inputs[i].ty else {
        return false;
    };
    let syn::Type::Path(p) = &*r.elem else {
        return false;
    };
    p.path.segments.last().is_some_and(|s| s.ident == "Vec")
}

/// The owned copy of each in-out argument, bound to the argument's name
/// (the sweeps' value of it), its write-back after the forward sweep, and
/// the pullback's seed for each final value with its type.
pub(super) fn copies(
    sig: &Signature,
    shape: &Shape,
    f: &Function,
    g: &Gen<'_>,
) -> (TokenStream, TokenStream, Vec<(Ident, TokenStream)>) {
    let (mut copies, mut stores, mut seeds) = (TokenStream::new(), TokenStream::new(), Vec::new());
    let mut outs = f.outs.iter();
    for (i, p) in sig.params.iter().enumerate() {
        if !p.inout {
            continue;
        }
        let Some(out) = outs.next() else { break };
        let x = &p.ident;
        let place = format_ident!("__ad_inout_{}", x.to_string().trim_start_matches("r#"));
        let last = g.operand(&Operand::Value(*out));
        if is_slice(shape, i) {
            copies.extend(quote!(let #place = #x; let mut #x = #place.to_vec();));
            stores.extend(quote!(#place.copy_from_slice(&#last);));
        } else {
            copies.extend(
                quote!(let #place = #x; let mut #x = ::core::clone::Clone::clone(&*#place);),
            );
            stores.extend(quote!(::core::clone::Clone::clone_from(#place, &#last);));
        }
        let seed = format_ident!("__ad_seed_{}", x.to_string().trim_start_matches("r#"));
        seeds.push((seed, p.adjoint_ty().unwrap_or_else(|| quote!(()))));
    }
    (copies, stores, seeds)
}

/// The seed types of the in-out arguments' final values, in order.
pub(super) fn seed_tys(sig: &Signature) -> Vec<TokenStream> {
    sig.params
        .iter()
        .filter(|p| p.inout)
        .map(|p| p.adjoint_ty().unwrap_or_else(|| quote!(())))
        .collect()
}

/// What a pullback captures: the shape's, but the lifetime of an in-out
/// argument's reference that no other argument names (the pullback holds
/// copies of it, so the caller may read the argument before seeding).
pub(super) fn captures(sig: &Signature, shape: &Shape) -> Vec<TokenStream> {
    let lifetime = |ty: &syn::Type| match ty {
        syn::Type::Reference(r) => r.lifetime.clone(),
        _ => None,
    };
    let own: Vec<syn::Lifetime> = sig
        .params
        .iter()
        .zip(&shape.inputs)
        .filter(|(p, _)| p.inout)
        .filter_map(|(_, pt)| lifetime(&pt.ty))
        .filter(|lt| {
            let named = sig
                .params
                .iter()
                .zip(&shape.inputs)
                .filter(|(p, pt)| !p.inout || lifetime(&pt.ty).as_ref() != Some(lt))
                .any(|(_, pt)| {
                    pt.ty
                        .to_token_stream()
                        .to_string()
                        .contains(&lt.to_string())
                });
            !named
        })
        .collect();
    let own: Vec<String> = own
        .iter()
        .map(|lt| lt.to_token_stream().to_string())
        .collect();
    shape
        .captures
        .iter()
        .filter(|c| !own.contains(&c.to_string()))
        .cloned()
        .collect()
}

/// `NAME_vjp` and, for a float result, `NAME_grad` and `NAME_check` of a
/// function with in-out arguments.
pub(super) fn public_items(item: &syn::ItemFn, sig: &Signature, shape: &Shape) -> TokenStream {
    let mixed = proc_macro2::Span::mixed_site();
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let (value, pullback, seed) = (
        local.local("value"),
        local.local("pullback"),
        local.local("seed"),
    );
    let vis = &item.vis;
    let name = &item.sig.ident;
    let vjp_full = super::forward::hidden_path(&name.clone().into(), names::VJP_FULL);
    let inputs = hygienic_inputs(&shape.inputs);
    let many = many_arguments(inputs.len());
    let captures = captures(sig, shape);
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let arg_names: Vec<Ident> = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    // The hidden VJP takes the in-out arguments reborrowed: the wrappers
    // read them again.
    let passed: Vec<TokenStream> = sig
        .params
        .iter()
        .zip(&arg_names)
        .map(|(p, x)| {
            if p.inout {
                quote!(&mut *#x)
            } else {
                quote!(#x)
            }
        })
        .collect();
    let public_tys: Vec<TokenStream> = sig.params.iter().filter_map(|p| p.adjoint_ty()).collect();
    let slots = adjoint_slots(sig, &local);
    let adjoints: Vec<&TokenStream> = slots.iter().filter(|n| n.to_string() != "_").collect();
    let out_tys = seed_tys(sig);
    let out_seeds: Vec<Ident> = sig
        .params
        .iter()
        .filter(|p| p.inout)
        .map(|p| {
            local.local(&format!(
                "seed_{}",
                p.ident.to_string().trim_start_matches("r#")
            ))
        })
        .collect();
    let ret_ty = sig.ret.seed();
    let (seed_param, seed_arg, seed_ty) = match &sig.ret {
        Ret::Unit => (None, quote!(()), None),
        _ => (
            Some(quote!(#seed: #ret_ty,)),
            seed.to_token_stream(),
            Some(quote!(#ret_ty,)),
        ),
    };
    let inout_names: Vec<String> = sig
        .params
        .iter()
        .filter(|p| p.inout)
        .map(|p| format!("`{}`", p.ident))
        .collect();
    let doc_vjp = format!(
        " The value of [`{name}`] and its pullback. The arguments are left as `{name}` leaves them (the in-out arguments {} hold their final values). The pullback takes {}one seed for the final value of each in-out argument, in argument order, and returns the adjoints of the differentiable arguments' values on entry, in argument order.\n\n Generated by `#[differentiable]`; the value is bit for bit what `{name}` returns.",
        inout_names.join(", "),
        if matches!(sig.ret, Ret::Unit) {
            ""
        } else {
            "the adjoint of the result, then "
        },
    );
    let vjp = names::public(name, "vjp");
    let pulled_vjp = shape.adjoints_of(quote!(#pullback(#seed_arg #(, #out_seeds)*)));
    let mut out = quote_spanned! {mixed=>
        #[doc = #doc_vjp]
        #[inline]
        #many
        #vis fn #vjp #generics (#(#inputs),*)
            -> (#ret_ty, impl ::core::ops::FnOnce(#seed_ty #(#out_tys),*) -> (#(#public_tys,)*) + use<#(#captures),*>)
            #where_clause
        {
            let (#value, #pullback) = #vjp_full(#(#passed),*);
            (#value, move |#seed_param #(#out_seeds: #out_tys),*| {
                let (#(#slots,)*) = #pulled_vjp;
                (#(#adjoints,)*)
            })
        }
    };
    if !matches!(sig.ret, Ret::Float(_)) {
        return out;
    }
    // Zeros of the final values' shapes, taken on entry (the argument
    // keeps its length), or for a `&mut Vec<T>`, which may grow or shrink,
    // from the final value.
    let (mut zeros, mut final_zeros) = (Vec::new(), Vec::new());
    for ((i, p), seed) in sig
        .params
        .iter()
        .enumerate()
        .filter(|(_, p)| p.inout)
        .zip(&out_seeds)
    {
        let x = &arg_names[i];
        match p.kind {
            _ if is_slice(shape, i) => {
                zeros.push(quote!(let #seed = ::autograd::__private::zeros_like_slice(&*#x);))
            }
            _ if is_vec(shape, i) => {
                final_zeros.push(quote!(let #seed = ::autograd::__private::zero_like(&*#x);))
            }
            // A generic scalar has no `ZeroLike`: its zero by `Real`.
            ParamKind::Float(_) if sig.scalar.is_some() => {
                let zero = shape.scalar.zero();
                zeros.push(quote!(let #seed = #zero;))
            }
            _ => zeros.push(quote!(let #seed = ::autograd::__private::zero_like(&*#x);)),
        }
    }
    let one = shape.scalar.one();
    let pulled_grad = shape.adjoints_of(quote!(#pullback(#one #(, #out_seeds)*)));
    let grad = names::public(name, "grad");
    let doc_grad = format!(
        " The value of [`{name}`] followed by its gradient: one adjoint per differentiable argument, of its value on entry, in argument order. The arguments are left as `{name}` leaves them.\n\n Generated by `#[differentiable]`: `{vjp}` with seed 1 for the result and 0 for the in-out arguments' final values."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_grad]
        #[inline]
        #many
        #vis fn #grad #generics (#(#inputs),*) -> (#ret_ty, #(#public_tys),*) #where_clause {
            #(#zeros)*
            let (#value, #pullback) = #vjp_full(#(#passed),*);
            #(#final_zeros)*
            let (#(#slots,)*) = #pulled_grad;
            (#value, #(#adjoints),*)
        }
    });
    out.extend(super::grad_acc(item, sig, shape));
    out.extend(check(item, sig, shape, &local, &arg_names));
    out
}

/// `NAME_check`: `NAME_grad` on the arguments (left as `NAME` leaves
/// them), compared with central differences of `NAME` run on copies of
/// the arguments' values on entry.
fn check(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    local: &names::WrapperLocals,
    arg_names: &[Ident],
) -> TokenStream {
    let mixed = proc_macro2::Span::mixed_site();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let grad = names::public(name, "grad");
    let check = names::public(name, "check");
    let inputs = hygienic_inputs(&shape.inputs);
    let many = many_arguments(inputs.len());
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let value = local.local("value");
    let check_local = local.local("check");
    // The values on entry, which every evaluation starts from.
    let entry = |i: usize| local.local(&format!("entry{i}"));
    let mut saved = TokenStream::new();
    for (i, p) in sig.params.iter().enumerate() {
        if p.inout {
            let (e, x) = (entry(i), &arg_names[i]);
            saved.extend(if is_slice(shape, i) {
                quote_spanned!(mixed=> let #e = #x.to_vec();)
            } else {
                quote_spanned!(mixed=> let #e = ::core::clone::Clone::clone(&*#x);)
            });
        }
    }
    // The primal on copies of the entry values, `moved` (argument `k`) the
    // closure's own.
    let call = |moved: Option<usize>| {
        let args = sig.params.iter().enumerate().map(|(i, p)| {
            let x = &arg_names[i];
            match (p.inout, moved == Some(i)) {
                (true, true) if is_slice(shape, i) => quote!(&mut #x.to_vec()),
                (true, true) if matches!(p.kind, ParamKind::Float(_)) => {
                    quote!(&mut ::core::convert::identity(#x))
                }
                (true, true) => quote!(&mut ::core::clone::Clone::clone(#x)),
                (true, false) => {
                    let e = entry(i);
                    quote!(&mut ::core::clone::Clone::clone(&#e))
                }
                (false, true) => match p.kind {
                    ParamKind::Matrix { by_ref: false, .. }
                    | ParamKind::Array { by_ref: false, .. } => {
                        quote!(::core::clone::Clone::clone(#x))
                    }
                    _ => quote!(#x),
                },
                (false, false) => match p.kind {
                    ParamKind::Matrix { by_ref: false, .. }
                    | ParamKind::Array { by_ref: false, .. } => {
                        quote!(::core::clone::Clone::clone(&#x))
                    }
                    _ => quote!(#x),
                },
            }
        });
        quote!(#name(#(#args),*))
    };
    let adjoints: Vec<Ident> = sig
        .params
        .iter()
        .filter(|p| p.differentiable)
        .map(|p| local.adjoint(&p.ident))
        .collect();
    let passed = sig.params.iter().zip(arg_names).map(|(p, x)| {
        if p.inout {
            quote!(&mut *#x)
        } else {
            match p.kind {
                ParamKind::Matrix { by_ref: false, .. }
                | ParamKind::Array { by_ref: false, .. } => {
                    quote!(::core::clone::Clone::clone(&#x))
                }
                _ => quote!(#x),
            }
        }
    });
    let checks = sig.params.iter().enumerate().filter(|(_, p)| p.differentiable).map(|(i, p)| {
        let x = &arg_names[i];
        let label = p.ident.to_string();
        let dx = local.adjoint(&p.ident);
        let at = if p.inout { entry(i).to_token_stream() } else { x.to_token_stream() };
        let fixed = matches!(&p.kind, ParamKind::Array { owned, .. } if matches!(**owned, syn::Type::Array(_)));
        let method = match p.kind {
            ParamKind::Slice(_) => quote!(slice),
            ParamKind::Array { .. } if fixed => quote!(array),
            ParamKind::Array { .. } => quote!(slice),
            ParamKind::Matrix { vector: true, .. } => quote!(vector),
            ParamKind::Matrix { .. } => quote!(matrix),
            _ => quote!(scalar),
        };
        let (at, adjoint) = match p.kind {
            ParamKind::Float(_) => (quote!(#at), quote!(#dx)),
            ParamKind::Slice(_) => (quote!(#at), quote!(&#dx)),
            _ => (quote!(&#at), quote!(&#dx)),
        };
        let body = call(Some(i));
        quote_spanned! {mixed=>
            #check_local.#method(#label, #at, #adjoint, |#x| #body);
        }
    });
    let doc = format!(
        " Compares [`{grad}`] at this point with central finite differences of [`{name}`] (each run on copies of the in-out arguments' values on entry), component by component. The arguments are left as `{name}` leaves them.\n\n Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy."
    );
    quote_spanned! {mixed=>
        #[doc = #doc]
        #[inline]
        #many
        #vis fn #check #generics (#(#inputs),*) -> ::autograd::GradientCheck #where_clause {
            #saved
            let (#value, #(#adjoints),*) = #grad(#(#passed),*);
            let mut #check_local = ::autograd::GradientCheck::new(::autograd::__private::to_f64(#value));
            #(#checks)*
            #check_local
        }
    }
}

/// The hidden `__inout_call` of a function of one in-out argument, by
/// which a differentiable body calls it (see `names::INOUT_CALL`): the
/// function on the argument's value, returning its final value (the
/// result is dropped, as the statement calling it drops it), with its VJP
/// and the check that a caller's function is this one.
pub(super) fn call_items(item: &syn::ItemFn, sig: &Signature, shape: &Shape) -> TokenStream {
    let inout: Vec<usize> = (0..sig.params.len())
        .filter(|i| sig.params[*i].inout)
        .collect();
    if names::has_no_carrier(&item.sig.ident) {
        return TokenStream::new();
    }
    // A function generic over its scalar or lengths: the items' check
    // names them (see `multi_call_items`), however many in-out arguments
    // it takes.
    let lengths = item.sig.generics.const_params().next().is_some() || sig.scalar.is_some();
    let ([io], false) = (inout.as_slice(), lengths) else {
        return multi_call_items(item, sig, shape, &inout);
    };
    let p = &sig.params[*io];
    if let ParamKind::Array { elem, .. } = &p.kind
        && is_slice(shape, *io)
        && p.differentiable
    {
        return slice_call_items(item, sig, shape, *io, &elem.0);
    }
    let owned = match &p.kind {
        ParamKind::Float(t) => t.to_token_stream(),
        ParamKind::Array { owned, .. } | ParamKind::Matrix { owned, .. } => owned.to_token_stream(),
        _ => return TokenStream::new(),
    };
    let x = &p.ident;
    let vis = &item.vis;
    let name = &item.sig.ident;
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let inputs = shape.inputs.iter().enumerate().map(|(i, pt)| {
        if i == *io {
            quote!(#x: #owned)
        } else {
            pt.to_token_stream()
        }
    });
    let inputs: Vec<TokenStream> = inputs.collect();
    let args: Vec<TokenStream> = sig
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let a = &p.ident;
            if i == *io {
                quote!(&mut #a)
            } else {
                quote!(#a)
            }
        })
        .collect();
    let pulled = shape.pulled_ty();
    let captures = captures(sig, shape);
    let call = format_ident!("{}", names::INOUT_CALL);
    let vjp = format_ident!("{}", names::inout_call_item(names::VJP_FULL));
    let same = format_ident!("{}", names::inout_call_item(names::SAME_CALLEE));
    let vjp_full = names::hidden(name, names::VJP_FULL);
    let zero = match &sig.ret {
        Ret::Unit => quote!(()),
        _ => quote!(::autograd::__private::zero_like(&__ad_value)),
    };
    // The result, where the caller reads it: the function again, its
    // final value seeded with zero.
    let result = (!matches!(sig.ret, Ret::Unit)).then(|| {
        let ret_ty = sig.ret.seed();
        let call = format_ident!("{}", names::INOUT_RESULT);
        let vjp = format_ident!("{}{}", names::INOUT_RESULT, names::VJP_FULL);
        let same = format_ident!("{}{}", names::INOUT_RESULT, names::SAME_CALLEE);
        quote! {
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, clippy::all)]
            #vis fn #call #generics (#(#inputs),*) -> #ret_ty #where_clause {
                let mut #x = #x;
                #name(#(#args),*)
            }
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, unused_variables, clippy::all)]
            #vis fn #vjp #generics (#(#inputs),*)
                -> (#ret_ty, impl ::core::ops::FnOnce(#ret_ty) -> #pulled + use<#(#captures),*>)
                #where_clause
            {
                let mut #x = #x;
                let (__ad_value, __ad_pullback) = Self::#vjp_full(#(#args),*);
                let __ad_final = ::autograd::__private::zero_like(&#x);
                (__ad_value, move |__ad_seed: #ret_ty| __ad_pullback(__ad_seed, __ad_final))
            }
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P) {
                ::autograd::__private::same_function(
                    called,
                    ::autograd::__private::type_id_of(&Self::#call),
                )
            }
        }
    });
    quote! {
        #result
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut, clippy::all)]
        #vis fn #call #generics (#(#inputs),*) -> #owned #where_clause {
            let mut #x = #x;
            let _ = #name(#(#args),*);
            #x
        }
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut, unused_variables, clippy::all)]
        #vis fn #vjp #generics (#(#inputs),*)
            -> (#owned, impl ::core::ops::FnOnce(#owned) -> #pulled + use<#(#captures),*>)
            #where_clause
        {
            let mut #x = #x;
            let (__ad_value, __ad_pullback) = Self::#vjp_full(#(#args),*);
            (#x, move |__ad_seed: #owned| __ad_pullback(#zero, __ad_seed))
        }
        #[doc(hidden)]
        #[inline(always)]
        #vis fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P) {
            ::autograd::__private::same_function(
                called,
                ::autograd::__private::type_id_of(&Self::#call),
            )
        }
    }
}

/// [`call_items`] of a function whose in-out argument is a `&mut [T]`: the
/// caller may pass a `Vec<T>` or a `[T; N]` (rustc coerces either), so the
/// items take and return the caller's own type, `__AdState`, any
/// `AsMut<[T]>`, its final value's seed and its adjoint on entry too (the
/// function's VJP holds them as `Vec<T>` inside).
fn slice_call_items(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    io: usize,
    t: &Ident,
) -> TokenStream {
    let p = &sig.params[io];
    let x = &p.ident;
    let vis = &item.vis;
    let name = &item.sig.ident;
    let state = format_ident!("__AdState");
    let vec = quote!(::autograd::__private::Vec<#t>);
    let mut gens: syn::Generics = generics(item, shape)
        .and_then(|g| syn::parse2(g).ok())
        .unwrap_or_default();
    gens.params
        .push(syn::parse_quote!(#state: ::core::convert::AsMut<[#t]>));
    let where_clause = where_clause(item, shape);
    let inputs: Vec<TokenStream> = shape
        .inputs
        .iter()
        .enumerate()
        .map(|(i, pt)| match i == io {
            true => quote!(#x: #state),
            false => pt.to_token_stream(),
        })
        .collect();
    // The arguments' types for the bound by which the check names the
    // function at one instance (any lifetime), in argument order: the
    // in-out argument's the caller's `Vec`.
    let instance: Vec<TokenStream> = shape
        .inputs
        .iter()
        .enumerate()
        .map(|(i, pt)| {
            if i == io {
                return vec.clone();
            }
            let mut ty = (*pt.ty).clone();
            syn::visit_mut::VisitMut::visit_type_mut(&mut super::ElideLifetimes, &mut ty);
            ty.into_token_stream()
        })
        .collect();
    let args: Vec<TokenStream> = sig
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let a = &p.ident;
            match i == io {
                true => quote!(::core::convert::AsMut::as_mut(&mut #a)),
                false => quote!(#a),
            }
        })
        .collect();
    let slots: Vec<Ident> = (0..sig.params.len())
        .map(|i| format_ident!("__ad_d{i}"))
        .collect();
    let d_io = &slots[io];
    let returned: Vec<TokenStream> = slots
        .iter()
        .enumerate()
        .map(|(i, d)| match i == io {
            true => quote!(__ad_state),
            false => quote!(#d),
        })
        .collect();
    let full_tys: Vec<TokenStream> = shape
        .full_tys
        .iter()
        .enumerate()
        .map(|(i, ty)| match i == io {
            true => state.to_token_stream(),
            false => ty.clone(),
        })
        .collect();
    // The pullback passes on which arguments the function's reached (see
    // `Shape::reach`): a caller adds nothing through one it did not.
    let (pulled, take, give) = match shape.reach {
        true => {
            let n = proc_macro2::Literal::usize_unsuffixed(full_tys.len());
            (
                quote!(::autograd::__private::Reached<(#(#full_tys,)*), #n>),
                quote!(let ((#(#slots,)*), __ad_reached) = ::autograd::__private::reached),
                quote!(::autograd::__private::Reached((#(#returned,)*), __ad_reached)),
            )
        }
        false => (
            quote!((#(#full_tys,)*)),
            quote!(let (#(#slots,)*) = ),
            quote!((#(#returned,)*)),
        ),
    };
    let mut captures = captures(sig, shape);
    captures.push(state.to_token_stream());
    let call = format_ident!("{}", names::INOUT_CALL);
    let vjp = format_ident!("{}", names::inout_call_item(names::VJP_FULL));
    let same = format_ident!("{}", names::inout_call_item(names::SAME_CALLEE));
    let vjp_full = names::hidden(name, names::VJP_FULL);
    // The adjoint on entry, written into a buffer of the caller's type.
    let back = quote! {
        ::core::convert::AsMut::as_mut(&mut __ad_state).copy_from_slice(&#d_io);
    };
    let zero = match &sig.ret {
        Ret::Unit => quote!(()),
        _ => quote!(::autograd::__private::zero_like(&__ad_value)),
    };
    let result = (!matches!(sig.ret, Ret::Unit)).then(|| {
        let ret_ty = sig.ret.seed();
        let call = format_ident!("{}", names::INOUT_RESULT);
        let vjp = format_ident!("{}{}", names::INOUT_RESULT, names::VJP_FULL);
        let same = format_ident!("{}{}", names::INOUT_RESULT, names::SAME_CALLEE);
        quote! {
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, clippy::all)]
            #vis fn #call #gens (#(#inputs),*) -> #ret_ty #where_clause {
                let mut #x = #x;
                #name(#(#args),*)
            }
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, unused_variables, clippy::all)]
            #vis fn #vjp #gens (#(#inputs),*)
                -> (#ret_ty, impl ::core::ops::FnOnce(#ret_ty) -> #pulled + use<#(#captures),*>)
                #where_clause
            {
                let mut #x = #x;
                let (__ad_value, __ad_pullback) = Self::#vjp_full(#(#args),*);
                let __ad_final = ::autograd::__private::zeros_like_slice(
                    ::core::convert::AsMut::as_mut(&mut #x),
                );
                let mut __ad_state = #x;
                (__ad_value, move |__ad_seed: #ret_ty| {
                    #take(__ad_pullback(__ad_seed, __ad_final));
                    #back
                    #give
                })
            }
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P)
            where
                F: ::core::ops::Fn(#(#instance),*) -> #ret_ty,
            {
                ::autograd::__private::same_function(
                    called,
                    ::autograd::__private::type_id_of(&Self::#call::<#vec>),
                )
            }
        }
    });
    quote! {
        #result
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut, clippy::all)]
        #vis fn #call #gens (#(#inputs),*) -> #state #where_clause {
            let mut #x = #x;
            let _ = #name(#(#args),*);
            #x
        }
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut, unused_variables, clippy::all)]
        #vis fn #vjp #gens (#(#inputs),*)
            -> (#state, impl ::core::ops::FnOnce(#state) -> #pulled + use<#(#captures),*>)
            #where_clause
        {
            let mut #x = #x;
            let (__ad_value, __ad_pullback) = Self::#vjp_full(#(#args),*);
            (#x, move |mut __ad_state: #state| {
                let __ad_seed = ::core::convert::AsMut::as_mut(&mut __ad_state).to_vec();
                #take(__ad_pullback(#zero, __ad_seed));
                #back
                #give
            })
        }
        #[doc(hidden)]
        #[inline(always)]
        #vis fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P)
        where
            F: ::core::ops::Fn(#(#instance),*) -> #vec,
        {
            ::autograd::__private::same_function(
                called,
                ::autograd::__private::type_id_of(&Self::#call::<#vec>),
            )
        }
    }
}

/// How [`multi_call_items`] takes an in-out argument: a `&mut [T]` as the
/// caller's own type (`__AdStateI: AsMut<[T]>`, see [`slice_call_items`]),
/// anything else as its owned type.
enum Taken {
    Slice { state: Ident, vec: TokenStream },
    Owned(TokenStream),
}

impl Taken {
    /// The type the items take and return it as.
    fn ty(&self) -> TokenStream {
        match self {
            Taken::Slice { state, .. } => state.to_token_stream(),
            Taken::Owned(t) => t.clone(),
        }
    }

    /// The type the same-callee check instantiates it at.
    fn instance(&self) -> TokenStream {
        match self {
            Taken::Slice { vec, .. } => vec.clone(),
            Taken::Owned(t) => t.clone(),
        }
    }
}

/// How the items by which a caller calls a function of in-out arguments
/// take them (see [`multi_call_items`]): their generics (a `&mut [T]`'s
/// caller type added), each in-out argument as [`Taken`], their inputs,
/// the function's arguments built from them, and the rebinding of the
/// taken values as mutable locals.
struct CallShape {
    gens: syn::Generics,
    taken: Vec<Taken>,
    inputs: Vec<TokenStream>,
    args: Vec<TokenStream>,
    rebind: TokenStream,
}

/// The [`CallShape`] of the in-out arguments `inout`; `None` where one
/// has a type the items do not take.
fn call_shape(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    inout: &[usize],
) -> Option<CallShape> {
    let mut gens: syn::Generics = generics(item, shape)
        .and_then(|g| syn::parse2(g).ok())
        .unwrap_or_default();
    let mut taken: Vec<Taken> = Vec::new();
    for &i in inout {
        let p = &sig.params[i];
        taken.push(match &p.kind {
            ParamKind::Array { elem, .. } if is_slice(shape, i) && p.differentiable => {
                let t = &elem.0;
                let state = format_ident!("__AdState{i}");
                gens.params
                    .push(syn::parse_quote!(#state: ::core::convert::AsMut<[#t]>));
                let vec = quote!(::autograd::__private::Vec<#t>);
                Taken::Slice { state, vec }
            }
            ParamKind::Float(t) => Taken::Owned(t.to_token_stream()),
            ParamKind::Array { owned, .. } | ParamKind::Matrix { owned, .. } => {
                Taken::Owned(owned.to_token_stream())
            }
            _ => return None,
        });
    }
    let how = |i: usize| inout.iter().position(|&k| k == i).map(|j| &taken[j]);
    let inputs: Vec<TokenStream> = (shape.inputs.iter().enumerate())
        .map(|(i, pt)| match how(i) {
            Some(t) => {
                let (x, ty) = (&sig.params[i].ident, t.ty());
                quote!(#x: #ty)
            }
            None => pt.to_token_stream(),
        })
        .collect();
    let args: Vec<TokenStream> = (sig.params.iter().enumerate())
        .map(|(i, p)| {
            let a = &p.ident;
            match how(i) {
                Some(Taken::Slice { .. }) => quote!(::core::convert::AsMut::as_mut(&mut #a)),
                Some(Taken::Owned(_)) => quote!(&mut #a),
                None => quote!(#a),
            }
        })
        .collect();
    let xs: Vec<&Ident> = inout.iter().map(|&i| &sig.params[i].ident).collect();
    let rebind = quote!(#(let mut #xs = #xs;)*);
    Some(CallShape {
        gens,
        taken,
        inputs,
        args,
        rebind,
    })
}

/// [`call_items`] of a function of several in-out arguments: for the
/// `j`-th of them, `ir::inout_call(j)` (`__inout_call`, `__inout_call_1`,
/// ..), the function on the arguments' values returning that one's final
/// value, whose pullback seeds it and gives the others' final values a
/// zero seed; and `__inout_result` where the caller reads the result. A
/// caller's `step(&mut q, &mut p, dt);` calls the first two on the same
/// values: the function runs once for each final value in the sweeps.
fn multi_call_items(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    inout: &[usize],
) -> TokenStream {
    let vis = &item.vis;
    let name = &item.sig.ident;
    let Some(CallShape {
        gens,
        taken,
        inputs,
        args,
        rebind,
    }) = call_shape(item, sig, shape, inout)
    else {
        return TokenStream::new();
    };
    let how = |i: usize| inout.iter().position(|&k| k == i).map(|j| &taken[j]);
    let where_clause = where_clause(item, shape);
    // The same-callee check names the function at one instance: the
    // caller's buffers as `Vec`s, any lifetime of the other arguments.
    let states: Vec<&Ident> = (taken.iter())
        .filter_map(|t| match t {
            Taken::Slice { state, .. } => Some(state),
            Taken::Owned(_) => None,
        })
        .collect();
    let vecs: Vec<TokenStream> = (taken.iter())
        .filter_map(|t| match t {
            Taken::Slice { vec, .. } => Some(vec.clone()),
            Taken::Owned(_) => None,
        })
        .collect();
    let instance: Vec<TokenStream> = (shape.inputs.iter().enumerate())
        .map(|(i, pt)| match how(i) {
            Some(t) => t.instance(),
            None => {
                let mut ty = (*pt.ty).clone();
                syn::visit_mut::VisitMut::visit_type_mut(&mut super::ElideLifetimes, &mut ty);
                ty.into_token_stream()
            }
        })
        .collect();
    // The pullback's adjoints at that instance: a slice's in a `Vec`.
    let instance_tys = (shape.full_tys.iter().enumerate()).map(|(i, ty)| match how(i) {
        Some(t @ Taken::Slice { .. }) => t.instance(),
        _ => ty.clone(),
    });
    let pulled_instance = match shape.reach {
        true => {
            let n = proc_macro2::Literal::usize_unsuffixed(shape.full_tys.len());
            quote!(::autograd::__private::Reached<(#(#instance_tys,)*), #n>)
        }
        false => quote!((#(#instance_tys,)*)),
    };
    let lengths: Vec<syn::ConstParam> = (item.sig.generics.const_params())
        .map(|c| syn::ConstParam {
            attrs: Vec::new(),
            ..c.clone()
        })
        .collect();
    let length_idents: Vec<&Ident> = lengths.iter().map(|c| &c.ident).collect();
    // Generic over its scalar: the check is generic as the items are, the
    // caller's buffer types included, instantiated at the call's value
    // and pullback (whose adjoints name the scalar and the lengths).
    let scalar_and_lengths = super::scalar_and_lengths(item, shape);
    let instance_args = super::instance(item);
    let state_params: Vec<&syn::TypeParam> = (gens.type_params())
        .filter(|p| states.contains(&&p.ident))
        .collect();
    let called_tys: Vec<TokenStream> = (shape.inputs.iter().enumerate())
        .map(|(i, pt)| {
            let mut ty = match how(i) {
                Some(t) => syn::parse2(t.ty()).unwrap_or_else(|_| (*pt.ty).clone()),
                None => (*pt.ty).clone(),
            };
            syn::visit_mut::VisitMut::visit_type_mut(&mut super::ElideLifetimes, &mut ty);
            ty.into_token_stream()
        })
        .collect();
    let generic_check = |call: &Ident, same: &Ident, out: &TokenStream, pulled: &TokenStream| {
        quote! {
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #same<
                #(#scalar_and_lengths,)*
                #(#state_params,)*
                __AdCalled: ::core::ops::Fn(#(#called_tys),*) -> #out,
                P: ::core::ops::FnOnce(#out) -> #pulled,
            >(called: &__AdCalled, _: &#out, _: &P)
            #where_clause
            {
                ::autograd::__private::same_generic_function(
                    called,
                    ::core::any::type_name_of_val(
                        &Self::#call::<#(#instance_args,)* #(#states),*>,
                    ),
                )
            }
        }
    };
    let same_check = |call: &Ident, same: &Ident, out: &TokenStream| match (
        states.is_empty(),
        lengths.is_empty(),
    ) {
        // Generic over lengths: instantiated at the lengths of the call's
        // pullback's adjoints, which the bounds relate to the caller's
        // item, and compared by name (as `emit::carrier`'s check).
        (_, false) => quote! {
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #same<#(#lengths,)* __AdCalled, V, P>(called: &__AdCalled, _: &V, _: &P)
            where
                __AdCalled: ::core::ops::Fn(#(#instance),*) -> #out,
                P: ::core::ops::FnOnce(#out) -> #pulled_instance,
            {
                ::autograd::__private::same_generic_function(
                    called,
                    ::core::any::type_name_of_val(&Self::#call::<#(#length_idents,)* #(#vecs),*>),
                )
            }
        },
        (true, true) => quote! {
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P) {
                ::autograd::__private::same_function(
                    called,
                    ::autograd::__private::type_id_of(&Self::#call),
                )
            }
        },
        (false, true) => quote! {
            #[doc(hidden)]
            #[inline(always)]
            #vis fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P)
            where
                F: ::core::ops::Fn(#(#instance),*) -> #out,
            {
                ::autograd::__private::same_function(
                    called,
                    ::autograd::__private::type_id_of(&Self::#call::<#(#vecs),*>),
                )
            }
        },
    };
    // The pullback gives a slice's adjoint on entry in a buffer of the
    // caller's type, and passes on which arguments the function reached
    // (see `Shape::reach`).
    let slots: Vec<Ident> = (0..sig.params.len())
        .map(|i| format_ident!("__ad_d{i}"))
        .collect();
    let buffer = |i: usize| format_ident!("__ad_state{i}");
    let full_tys: Vec<TokenStream> = (shape.full_tys.iter().enumerate())
        .map(|(i, ty)| match how(i) {
            Some(Taken::Slice { state, .. }) => state.to_token_stream(),
            _ => ty.clone(),
        })
        .collect();
    let returned: Vec<TokenStream> = (slots.iter().enumerate())
        .map(|(i, d)| match how(i) {
            Some(Taken::Slice { .. }) => buffer(i).to_token_stream(),
            _ => d.to_token_stream(),
        })
        .collect();
    let (pulled, take, give) = match shape.reach {
        true => {
            let n = proc_macro2::Literal::usize_unsuffixed(full_tys.len());
            (
                quote!(::autograd::__private::Reached<(#(#full_tys,)*), #n>),
                quote!(let ((#(#slots,)*), __ad_reached) = ::autograd::__private::reached),
                quote!(::autograd::__private::Reached((#(#returned,)*), __ad_reached)),
            )
        }
        false => (
            quote!((#(#full_tys,)*)),
            quote!(let (#(#slots,)*) = ),
            quote!((#(#returned,)*)),
        ),
    };
    let backs: Vec<TokenStream> = (inout.iter().zip(&taken))
        .filter(|(_, t)| matches!(t, Taken::Slice { .. }))
        .map(|(&i, _)| {
            let (b, d) = (buffer(i), &slots[i]);
            quote!(::core::convert::AsMut::as_mut(&mut #b).copy_from_slice(&#d);)
        })
        .collect();
    let mut captures = captures(sig, shape);
    captures.extend(states.iter().map(|s| s.to_token_stream()));
    let vjp_full = names::hidden(name, names::VJP_FULL);
    let finals: Vec<Ident> = inout
        .iter()
        .map(|&i| format_ident!("__ad_final{i}"))
        .collect();
    // A generic scalar has no `ZeroLike`: its zero by `Real`.
    let scalar_zero = shape.scalar.zero();
    let generic_float =
        |i: usize| sig.scalar.is_some() && matches!(sig.params[i].kind, ParamKind::Float(_));
    // Before the pullback: a zero seed for each final value but `seeded`'s,
    // and a slice's buffer for its adjoint (the final value moved in).
    let zeros = |seeded: Option<usize>| -> TokenStream {
        let mut out = TokenStream::new();
        for ((&i, t), f) in inout.iter().zip(&taken).zip(&finals) {
            let (x, b) = (&sig.params[i].ident, buffer(i));
            if seeded == Some(i) {
                continue;
            }
            out.extend(match t {
                Taken::Slice { .. } => quote! {
                    let #f = ::autograd::__private::zeros_like_slice(
                        ::core::convert::AsMut::as_mut(&mut #x),
                    );
                    let mut #b = #x;
                },
                Taken::Owned(_) if generic_float(i) => quote!(let #f = #scalar_zero;),
                Taken::Owned(_) => quote!(let #f = ::autograd::__private::zero_like(&#x);),
            });
        }
        out
    };
    let mut out = TokenStream::new();
    if !matches!(sig.ret, Ret::Unit) {
        let ret_ty = sig.ret.seed();
        let call = format_ident!("{}", names::INOUT_RESULT);
        let vjp = format_ident!("{}{}", names::INOUT_RESULT, names::VJP_FULL);
        let same = format_ident!("{}{}", names::INOUT_RESULT, names::SAME_CALLEE);
        let zeros = zeros(None);
        out.extend(quote! {
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, clippy::all)]
            #vis fn #call #gens (#(#inputs),*) -> #ret_ty #where_clause {
                #rebind
                #name(#(#args),*)
            }
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, unused_variables, clippy::all)]
            #vis fn #vjp #gens (#(#inputs),*)
                -> (#ret_ty, impl ::core::ops::FnOnce(#ret_ty) -> #pulled + use<#(#captures),*>)
                #where_clause
            {
                #rebind
                let (__ad_value, __ad_pullback) = Self::#vjp_full(#(#args),*);
                #zeros
                (__ad_value, move |__ad_seed: #ret_ty| {
                    #take(__ad_pullback(__ad_seed, #(#finals),*));
                    #(#backs)*
                    #give
                })
            }
        });
        out.extend(match sig.scalar {
            Some(_) => generic_check(&call, &same, &ret_ty, &pulled),
            None => same_check(&call, &same, &ret_ty),
        });
    }
    let zero = match &sig.ret {
        Ret::Unit => quote!(()),
        Ret::Float(_) if sig.scalar.is_some() => scalar_zero.clone(),
        _ => quote!(::autograd::__private::zero_like(&__ad_value)),
    };
    for (j, (&i, t)) in inout.iter().zip(&taken).enumerate() {
        let call_name = crate::ir::inout_call(j);
        let call = format_ident!("{call_name}");
        let vjp = format_ident!("{call_name}{}", names::VJP_FULL);
        let same = format_ident!("{call_name}{}", names::SAME_CALLEE);
        let (x, ty, f) = (&sig.params[i].ident, t.ty(), &finals[j]);
        let zeros = zeros(Some(i));
        // The seed of this final value, and for a slice its buffer too.
        let seed = match t {
            Taken::Slice { .. } => {
                let b = buffer(i);
                quote! {
                    let mut #b = __ad_seed;
                    let #f = ::core::convert::AsMut::as_mut(&mut #b).to_vec();
                }
            }
            Taken::Owned(_) => quote!(let #f = __ad_seed;),
        };
        out.extend(quote! {
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, clippy::all)]
            #vis fn #call #gens (#(#inputs),*) -> #ty #where_clause {
                #rebind
                let _ = #name(#(#args),*);
                #x
            }
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, unused_variables, clippy::all)]
            #vis fn #vjp #gens (#(#inputs),*)
                -> (#ty, impl ::core::ops::FnOnce(#ty) -> #pulled + use<#(#captures),*>)
                #where_clause
            {
                #rebind
                let (__ad_value, __ad_pullback) = Self::#vjp_full(#(#args),*);
                #zeros
                (#x, move |__ad_seed: #ty| {
                    #seed
                    #take(__ad_pullback(#zero, #(#finals),*));
                    #(#backs)*
                    #give
                })
            }
        });
        out.extend(match sig.scalar {
            Some(_) => generic_check(&call, &same, &t.ty(), &pulled),
            None => same_check(&call, &same, &t.instance()),
        });
    }
    out
}

/// The forward mode of [`call_items`], for a function with `jvp`: next to
/// each call item `ITEM` (`__inout_call`, `__inout_call_1`, ..,
/// `__inout_result`), `ITEM__jvp_full(values.., tangents..) -> (value,
/// tangent)`, through which a caller's forward sweep goes. It runs the
/// function's hidden JVP on the values (a tangent for each argument,
/// `NoGradient` for a constant one, an in-out argument's that of its value
/// on entry) and gives the item's value with its tangent: the final value
/// of its in-out argument, in the caller's type, or the result.
pub(super) fn forward_call_items(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    tangent_tys: &[TokenStream],
) -> TokenStream {
    let inout: Vec<usize> = (0..sig.params.len())
        .filter(|i| sig.params[*i].inout)
        .collect();
    let name = &item.sig.ident;
    if names::has_no_carrier(name) {
        return TokenStream::new();
    }
    let Some(CallShape {
        mut gens,
        taken,
        inputs,
        args,
        rebind,
    }) = call_shape(item, sig, shape, &inout)
    else {
        return TokenStream::new();
    };
    // A slice's final tangent goes back in the caller's type (a copy of
    // the final value, the tangent written into it), as its value does:
    // the caller's sweep holds a value and its tangent alike.
    for t in &taken {
        if let Taken::Slice { state, .. } = t {
            for param in gens.type_params_mut() {
                if param.ident == *state {
                    param.bounds.push(syn::parse_quote!(::core::clone::Clone));
                }
            }
        }
    }
    let vis = &item.vis;
    let where_clause = where_clause(item, shape);
    let jvp_full = names::hidden(name, names::JVP_FULL);
    let tangents: Vec<Ident> = (0..sig.params.len())
        .map(|i| format_ident!("__ad_t{i}"))
        .collect();
    let finals: Vec<Ident> = inout
        .iter()
        .map(|&i| format_ident!("__ad_final{i}"))
        .collect();
    let own = (!matches!(sig.ret, Ret::Unit)).then(|| quote!(__ad_tangent,));
    let swept = quote! {
        #rebind
        let (__ad_value, #own #(#finals,)*) =
            Self::#jvp_full(#(#args,)* #(#tangents),*);
    };
    let head = |call: &Ident, ty: &TokenStream| {
        let jvp = format_ident!("{call}{}", names::JVP_FULL);
        quote! {
            #[doc(hidden)]
            #[inline]
            #[allow(unused_mut, unused_variables, clippy::all)]
            #vis fn #jvp #gens (#(#inputs,)* #(#tangents: #tangent_tys),*) -> (#ty, #ty)
                #where_clause
        }
    };
    // Each item's `ForwardInOut`, through which a caller's sweep finds it
    // (a callee without `jvp` has none: the trait's error at the call).
    let how = |i: usize| inout.iter().position(|&k| k == i).map(|j| &taken[j]);
    let input_tys: Vec<TokenStream> = (shape.inputs.iter().enumerate())
        .map(|(i, pt)| match how(i) {
            Some(t) => t.ty(),
            None => pt.ty.to_token_stream(),
        })
        .collect();
    let states: Vec<&syn::TypeParam> = gens
        .type_params()
        .filter(|p| p.ident.to_string().starts_with("__AdState"))
        .collect();
    let state_idents = states.iter().map(|p| &p.ident);
    let state_tuple = quote!((#(#state_idents,)*));
    let lifetimes = &shape.lifetimes;
    let binder = (!lifetimes.is_empty()).then(|| quote!(for<#(#lifetimes),*>));
    let private = quote!(::autograd::__private);
    // The scalar and the lengths (`T`, `[(); N]` each), in the function's
    // order: the caller's arguments choose them.
    let lengths = super::scalar_and_lengths(item, shape);
    let length_args = (item.sig.generics.params.iter()).filter_map(|p| match p {
        syn::GenericParam::Type(t) => Some(t.ident.to_token_stream()),
        syn::GenericParam::Const(c) => {
            let n = &c.ident;
            Some(quote!([(); #n]))
        }
        syn::GenericParam::Lifetime(_) => None,
    });
    let length_tuple = quote!((#(#length_args,)*));
    let mode = |call: &Ident, marker: TokenStream, ty: &TokenStream| {
        let jvp = format_ident!("{call}{}", names::JVP_FULL);
        quote! {
            #[doc(hidden)]
            #[diagnostic::do_not_recommend]
            #[allow(clippy::type_complexity)]
            impl<#(#states,)* #(#lengths),*> #private::ForwardInOut<#marker, #state_tuple, #length_tuple> for #name #where_clause {
                type Fn = #binder fn(#(#input_tys,)* #(#tangent_tys),*) -> (#ty, #ty);
                const JVP: Self::Fn = #name::#jvp;
            }
        }
    };
    let mut out = TokenStream::new();
    let mut modes = TokenStream::new();
    if own.is_some() {
        let call = format_ident!("{}", names::INOUT_RESULT);
        let ret_ty = sig.ret.seed();
        let head = head(&call, &ret_ty);
        out.extend(quote! {
            #head {
                #swept
                (__ad_value, __ad_tangent)
            }
        });
        modes.extend(mode(&call, quote!(#private::InOutResult), &ret_ty));
    }
    for (j, (&i, t)) in inout.iter().zip(&taken).enumerate() {
        let call = format_ident!("{}", crate::ir::inout_call(j));
        let head = head(&call, &t.ty());
        let marker = proc_macro2::Literal::usize_unsuffixed(j);
        modes.extend(mode(&call, quote!(#private::InOutCall<#marker>), &t.ty()));
        let (x, f) = (&sig.params[i].ident, &finals[j]);
        let tangent = match t {
            Taken::Slice { .. } => quote! {
                let mut __ad_final = ::core::clone::Clone::clone(&#x);
                ::core::convert::AsMut::as_mut(&mut __ad_final).copy_from_slice(&#f);
            },
            Taken::Owned(_) => quote!(let __ad_final = #f;),
        };
        out.extend(quote! {
            #head {
                #swept
                #tangent
                (#x, __ad_final)
            }
        });
    }
    quote! {
        #[doc(hidden)]
        impl #name {
            #out
        }
        #modes
    }
}

/// How the in-out arguments of a function taking `Tangent` structs (or of
/// a method) cross its public items, which `crate::structs` writes: their
/// seeds, and the arguments with their lifetimes named, so that the
/// pullback holds no borrow of an in-out argument (as [`captures`] does
/// here) and the caller may read it before seeding.
pub(crate) struct StructInOut {
    /// `<'m, 'y>`: every lifetime of the arguments, named.
    pub generics: TokenStream,
    /// The arguments, their lifetimes named.
    pub inputs: Vec<syn::FnArg>,
    /// `+ use<'m>`: the lifetimes but the in-out arguments' own.
    pub captures: TokenStream,
    /// One seed per in-out argument's final value, and its type.
    pub seeds: Vec<(Ident, TokenStream)>,
}

impl StructInOut {
    /// `inputs` are the wrappers' arguments; `inout` gives, for each
    /// in-out one, its seed's type (`()` for a constant).
    pub(crate) fn new(
        func: &syn::ItemFn,
        inputs: &[syn::FnArg],
        inout: &[Option<TokenStream>],
    ) -> Self {
        let mut named = super::NameLifetimes::new(func);
        let mut own = Vec::new();
        let mut inputs = inputs.to_vec();
        for (arg, p) in inputs.iter_mut().zip(inout) {
            let before = named.fresh.len();
            match arg {
                syn::FnArg::Typed(pt) => named.name_argument(&pt.pat, &mut pt.ty),
                syn::FnArg::Receiver(r) => {
                    if let syn::ReceiverKind::Reference(_, lt, _) = &mut r.kind
                        && lt.as_ref().is_none_or(|lt| lt.ident == "_")
                    {
                        "this".clone_into(&mut named.base);
                        *lt = Some(named.fresh());
                    }
                }
            }
            if p.is_some() {
                own.extend(named.fresh[before..].iter().cloned());
            }
        }
        let all = &named.fresh;
        let kept = all.iter().filter(|lt| !own.contains(lt));
        let seeds = inout
            .iter()
            .zip(&inputs)
            .filter_map(|(ty, arg)| {
                let name = match arg {
                    syn::FnArg::Receiver(_) => "self".to_owned(),
                    syn::FnArg::Typed(pt) => match &*pt.pat {
                        syn::Pat::Ident(pi) => pi.ident.to_string(),
                        _ => return None,
                    },
                };
                let seed = format_ident!(
                    "__ad_seed_{}",
                    name.trim_start_matches("r#"),
                    span = proc_macro2::Span::mixed_site()
                );
                Some((seed, ty.clone()?))
            })
            .collect();
        StructInOut {
            generics: quote!(<#(#all),*>),
            inputs,
            captures: quote!(+ use<#(#kept),*>),
            seeds,
        }
    }
}

/// The zero seed of an in-out argument `x`'s final value, bound to
/// `seed`, and whether it is taken after the call: a `&mut Vec<T>` may
/// grow or shrink, every other argument keeps its length (`ty` is the
/// argument's type as written).
pub(crate) fn zero_seed(
    p: &crate::sig::Param,
    ty: &syn::Type,
    x: &Ident,
    seed: &Ident,
) -> (TokenStream, bool) {
    let slice = matches!(ty, syn::Type::Reference(r) if matches!(&*r.elem, syn::Type::Slice(_)));
    let vec = matches!(ty, syn::Type::Reference(r)
        if matches!(&*r.elem, syn::Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "Vec")));
    match () {
        _ if !p.differentiable => (quote!(let #seed = ();), false),
        _ if slice => (
            quote!(let #seed = ::autograd::__private::zeros_like_slice(&*#x);),
            false,
        ),
        _ => (
            quote!(let #seed = ::autograd::__private::zero_like(&*#x);),
            vec,
        ),
    }
}
