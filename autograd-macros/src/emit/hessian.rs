//! `NAME_hvp` and `NAME_hessian` of a `#[differentiable(hessian)]`
//! function: its twin's gradient (see `crate::hessian`) at
//! `Dual<f64>` (forward over reverse), and for the full sweeps of
//! `NAME_hessian` and `NAME_hessian_sparse` at `HessianDual<f64>`, a dual
//! number of `HESSIAN_LANES` tangent lanes.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use super::{generics, hygienic_inputs, names, shape, where_clause};
use crate::sig::{Param, ParamKind, Signature};

const PRIVATE: &str = "::autograd::__private";

fn private() -> TokenStream {
    PRIVATE.parse().unwrap_or_default()
}

/// What every second-order wrapper starts from: its hygienic inputs and
/// generics, its locals, the arguments it passes on, and the
/// differentiable parameters.
struct Wrapper<'a> {
    inputs: Vec<syn::PatType>,
    generics: Option<TokenStream>,
    where_clause: TokenStream,
    local: names::WrapperLocals,
    args: Vec<syn::Ident>,
    diff: Vec<&'a Param>,
    in_out: InOut,
}

/// An in-out (`&mut`) argument's value on entry, which every sweep starts
/// from: `entry` rebinds each such argument to a copy of its value (of
/// its owned type, as its `kind` says), so the wrapper's code reads it as
/// an argument taken by value; the function itself runs last, on
/// `primal_args` (the arguments as the caller passed them), and leaves them
/// as it does.
struct InOut {
    entry: TokenStream,
    primal_args: Vec<TokenStream>,
}

impl<'a> Wrapper<'a> {
    fn new(item: &syn::ItemFn, sig: &'a Signature) -> Self {
        let shape = shape(item, sig);
        Wrapper {
            inputs: hygienic_inputs(&shape.inputs),
            generics: generics(item, &shape),
            where_clause: where_clause(item, &shape),
            local: names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident)),
            args: sig
                .params
                .iter()
                .map(|p| names::hygienic(&p.ident))
                .collect(),
            diff: sig.params.iter().filter(|p| p.differentiable).collect(),
            in_out: InOut::new(sig),
        }
    }
}

impl InOut {
    fn new(sig: &Signature) -> Self {
        let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
        let mut entry = TokenStream::new();
        let primal_args = sig
            .params
            .iter()
            .map(|p| {
                let x = names::hygienic(&p.ident);
                if !p.inout {
                    return x.into_token_stream();
                }
                let written = local.local(&format!("written_{}", p.ident));
                entry.extend(quote! {
                    let #written = #x;
                    let #x = ::std::borrow::ToOwned::to_owned(&*#written);
                });
                written.into_token_stream()
            })
            .collect();
        InOut { entry, primal_args }
    }
}

/// A sweep's arguments, `lifted` from the values (on entry): an in-out
/// argument is passed by `&mut`, as the function takes it.
fn passed(sig: &Signature, lifted: Vec<TokenStream>) -> Vec<TokenStream> {
    sig.params
        .iter()
        .zip(lifted)
        .map(|(p, a)| if p.inout { quote!(&mut #a) } else { a })
        .collect()
}

/// The arguments of each call of `NAME_hvp` a wrapper makes: a constant
/// taken by value is cloned, and so is an in-out argument's value on
/// entry, which each call updates.
fn kept_args(sig: &Signature, args: &[syn::Ident]) -> Vec<TokenStream> {
    sig.params
        .iter()
        .zip(args)
        .map(|(p, x)| match p.kind {
            _ if p.inout => quote!(&mut ::core::clone::Clone::clone(&#x)),
            ParamKind::Other
            | ParamKind::Matrix { by_ref: false, .. }
            | ParamKind::Array { by_ref: false, .. } => quote!(::core::clone::Clone::clone(&#x)),
            _ => x.to_token_stream(),
        })
        .collect()
}

/// `v_x` for `x`, lengthened while an argument has that name.
fn direction_name(sig: &Signature, p: &Param) -> syn::Ident {
    let taken: Vec<String> = sig.params.iter().map(|q| q.ident.to_string()).collect();
    let mut name = format!("v_{}", p.ident.to_string().trim_start_matches("r#"));
    while taken.contains(&name) {
        name.push('_');
    }
    names::hygienic(&syn::Ident::new(&name, p.ident.span()))
}

/// The direction of a differentiable argument, typed like its tangent.
pub fn direction_ty(p: &Param) -> Option<TokenStream> {
    match &p.kind {
        ParamKind::Float(t) if p.differentiable => Some(quote!(#t)),
        ParamKind::Slice(t) if p.differentiable => Some(quote!(&[#t])),
        ParamKind::Matrix { owned, .. } if p.differentiable => Some(quote!(&#owned)),
        ParamKind::Array { elem, .. } if p.differentiable => Some(quote!(&[#elem])),
        _ => None,
    }
}

/// A `Vec<f64>` taken by value: its dual copy is a `Vec` of dual numbers,
/// its direction a slice.
fn is_owned_vec(p: &Param) -> bool {
    matches!(&p.kind, ParamKind::Array { owned, by_ref: false, .. } if !matches!(**owned, syn::Type::Array(_)))
}

/// Whether the function takes a matrix: its `_hvp` returns the primal's
/// own value (see `generate`).
fn takes_matrices(sig: &Signature) -> bool {
    sig.params
        .iter()
        .any(|p| matches!(p.kind, ParamKind::Matrix { .. }))
}

/// Everything `hessian` adds next to the function: the mark callers'
/// twins check, `NAME_hvp` and `NAME_hessian`.
/// `builds_matrices`: the body builds a nalgebra value from floats (see
/// `lower::builds_matrices`).
pub fn generate(
    item: &syn::ItemFn,
    sig: &Signature,
    float: &syn::Ident,
    builds_matrices: bool,
) -> TokenStream {
    let mixed = Span::mixed_site();
    let private = private();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let Wrapper {
        inputs,
        generics,
        where_clause,
        local,
        args,
        diff,
        in_out,
    } = Wrapper::new(item, sig);
    let dual = quote!(::autograd::Dual<#float>);

    // The type whose hidden items a caller's second order calls when it
    // passes in-out arguments: the twin, or a generic function itself.
    let twin = if sig.scalar.is_some() {
        name.clone()
    } else {
        crate::sig::twin_name(name)
    };
    let in_out_twin = sig.has_inout().then(|| {
        quote! {
            #[doc(hidden)]
            impl #private::InOutTwin for #name {
                type Twin = #twin;
            }
        }
    });
    let mark = (!names::has_no_carrier(name)).then(|| {
        quote! {
            #[doc(hidden)]
            impl #private::HasSecondOrder for #name {}
            #in_out_twin
        }
    });

    // A helper that only updates its in-out arguments, or returns several
    // numbers, has no Hessian of its own: callers' second order goes
    // through its twin.
    if matches!(sig.ret, crate::sig::Ret::Unit | crate::sig::Ret::Outputs(_)) {
        return mark.into_token_stream();
    }

    // ---- NAME_hvp ----
    let dir_names: Vec<syn::Ident> = diff.iter().map(|p| direction_name(sig, p)).collect();
    let dir_tys: Vec<TokenStream> = diff.iter().filter_map(|p| direction_ty(p)).collect();
    let mut dirs = dir_names.iter();
    // The dual argument made by `func` of the runtime from the argument
    // (with its direction), passed as the user's is: by reference or by
    // value.
    let lifted = |x: &syn::Ident, by_ref: bool, func: TokenStream, dir: Option<&syn::Ident>| {
        let dir = dir.map(|v| quote!(, #v));
        if by_ref {
            quote!(&#private::#func(#x #dir))
        } else {
            quote!(#private::#func(&#x #dir))
        }
    };
    let dual_args: Vec<TokenStream> = sig
        .params
        .iter()
        .zip(&args)
        .map(|(p, x)| match (&p.kind, p.differentiable) {
            (ParamKind::Float(_), true) => {
                let v = dirs.next();
                quote!(<#dual>::new(#x, #v))
            }
            (ParamKind::Float(_), false) => quote!(<#dual>::constant(#x)),
            (ParamKind::Slice(_), true) => {
                let v = dirs.next();
                quote!(&#private::dual_slice(#x, #v))
            }
            (ParamKind::Slice(_), false) => quote!(&#private::dual_constants(#x)),
            (ParamKind::Array { .. }, true) if is_owned_vec(p) => {
                let v = dirs.next();
                quote!(#private::dual_slice(&#x, #v))
            }
            (ParamKind::Array { .. }, false) if is_owned_vec(p) => {
                quote!(#private::dual_constants(&#x))
            }
            // A fixed-size array, `[f64; N]` or `&[f64; N]` (of a generic
            // scalar too): an array of dual numbers, its direction a slice.
            (ParamKind::Array { by_ref, .. }, true) => {
                lifted(x, *by_ref, quote!(dual_array), dirs.next())
            }
            (ParamKind::Array { by_ref, .. }, false) => {
                lifted(x, *by_ref, quote!(dual_array_constant), None)
            }
            (ParamKind::Matrix { by_ref, .. }, true) => {
                lifted(x, *by_ref, quote!(dual_matrix), dirs.next())
            }
            (ParamKind::Matrix { by_ref, .. }, false) => {
                lifted(x, *by_ref, quote!(dual_matrix_constant), None)
            }
            _ => x.to_token_stream(),
        })
        .collect();
    let dual_args = passed(sig, dual_args);
    let grads: Vec<syn::Ident> = diff.iter().map(|p| local.adjoint(&p.ident)).collect();
    let value = local.local("value");
    let reals = grads.iter().map(|g| quote!(#private::real_part(&#g)));
    let tangents = grads.iter().map(|g| quote!(#private::dual_part(&#g)));
    let grad_tys: Vec<TokenStream> = diff.iter().filter_map(|p| p.adjoint_ty()).collect();
    let instance = super::instance(item);
    let turbofish = (!instance.is_empty()).then(|| quote!(::<#(#instance),*>));
    let lengths: Vec<&syn::Ident> = item.sig.generics.const_params().map(|c| &c.ident).collect();
    // A generic function is its own twin, its scalar inferred from the
    // dual arguments.
    let grad = if sig.scalar.is_some() {
        names::public(name, "grad").into_token_stream()
    } else {
        let twin_grad = names::public(&crate::sig::twin_name(name), "grad");
        quote!(#twin_grad::<#dual #(, #lengths)*>)
    };
    let hvp = names::public(name, "hvp");
    let doc_hvp = format!(
        " The value of [`{name}`], its gradient and the Hessian-vector product `H·v`: one direction per differentiable argument, in argument order; returns the value, then one gradient entry per differentiable argument, then one `H·v` entry per differentiable argument (flat, like `{name}_grad`).\n\n Generated by `#[differentiable(hessian)]`: the reverse sweep run on dual numbers (forward over reverse), at about the cost of two gradients; the value is bit for bit what `{name}` returns, the gradient equal to `{name}_grad`'s to rounding (a loop `{name}_grad` runs as one fused pass sums in another order).\n\n # Panics\n\n If a slice direction's length is not its argument's."
    );
    // Without a differentiable argument there is nothing to differentiate
    // (and no twin): the value alone.
    let InOut { entry, primal_args } = &in_out;
    let hvp_body = if diff.is_empty() {
        quote!((#name(#(#primal_args),*),))
    } else if sig.has_inout() {
        // Every sweep starts from the in-out arguments' values on entry;
        // the function runs last, on the arguments themselves.
        quote! {
            #entry
            let (_, #(#grads),*) = #grad(#(#dual_args),*);
            (#name(#(#primal_args),*), #(#reals,)* #(#tangents),*)
        }
    } else if takes_matrices(sig) || builds_matrices {
        // The twin's products of dual matrices run nalgebra's generic
        // kernel, which sums in another order than `f64`'s blocked one for
        // large matrices: the value is the primal's own, computed after.
        quote! {
            let (_, #(#grads),*) = #grad(#(#dual_args),*);
            (#name(#(#args),*), #(#reals,)* #(#tangents),*)
        }
    } else {
        quote! {
            let (#value, #(#grads),*) = #grad(#(#dual_args),*);
            (#value.re, #(#reals,)* #(#tangents),*)
        }
    };
    let mut out = quote_spanned! {mixed=>
        #mark
        #[doc = #doc_hvp]
        #[inline]
        #[allow(clippy::too_many_arguments)]
        #vis fn #hvp #generics (#(#inputs,)* #(#dir_names: #dir_tys),*)
            -> (#float, #(#grad_tys,)* #(#grad_tys),*)
            #where_clause
        {
            let _ = #name #turbofish;
            #hvp_body
        }
    };
    // A function of matrices keeps one direction a sweep: its twin
    // computes with matrices of the scalar, which only `Dual<f64>` is an
    // element of (`MatrixScalar`: products, the determinant's cofactors).
    // So does one taking a fixed-size array: its dual copy and its
    // gradient are arrays on the stack, 9 times the `f64` array's at 8
    // lanes (`tests/large_arrays.rs` runs a 2048-element one on 256 kB).
    let lanes = !(diff.is_empty()
        || takes_matrices(sig)
        || builds_matrices
        || sig
            .params
            .iter()
            .any(|p| matches!(p.kind, ParamKind::Array { .. }) && !is_owned_vec(p)));
    out.extend(hessian_fn(item, sig, float, None, lanes));
    out.extend(super::nested::generate(item, sig));
    // The sparse Hessian is of `f64` (nalgebra-sparse's matrices of the
    // facade's type); a generic function's bounds may ask more of its
    // scalar than the tracer has.
    if float == "f64" && sig.scalar.is_none() && !diff.is_empty() {
        out.extend(sparse_fns(item, sig, builds_matrices));
    }
    out
}

/// The twin's gradient at `HessianDual<float>` (the dual number of
/// `HESSIAN_LANES` lanes): one reverse sweep giving the gradient and the
/// Hessian along `HESSIAN_LANES` directions, each differentiable argument
/// seeded by `seed` from its offset among the flattened inputs. Arguments
/// are borrowed or cloned: the call is made once per sweep.
fn lane_gradient(
    item: &syn::ItemFn,
    sig: &Signature,
    float: &syn::Ident,
    args: &[syn::Ident],
    offsets: &[syn::Ident],
    seed: &syn::Ident,
) -> TokenStream {
    let private = private();
    let name = &item.sig.ident;
    let mut offs = offsets.iter();
    let lane_args: Vec<TokenStream> = sig
        .params
        .iter()
        .zip(args)
        .map(|(p, x)| match (&p.kind, p.differentiable) {
            (ParamKind::Float(_), true) => {
                let o = offs.next();
                quote!(#private::lane_scalar(#x, #seed, #o))
            }
            (ParamKind::Float(_), false) => quote!(#private::lane_constant(#x)),
            (ParamKind::Slice(_), true) => {
                let o = offs.next();
                quote!(&#private::lane_slice(#x, #seed, #o))
            }
            (ParamKind::Slice(_), false) => quote!(&#private::lane_constants(#x)),
            (ParamKind::Array { .. }, true) if is_owned_vec(p) => {
                let o = offs.next();
                quote!(#private::lane_slice(&#x, #seed, #o))
            }
            (ParamKind::Array { .. }, false) if is_owned_vec(p) => {
                quote!(#private::lane_constants(&#x))
            }
            (ParamKind::Array { by_ref, .. }, true) => {
                let o = offs.next();
                let x = if *by_ref { quote!(#x) } else { quote!(&#x) };
                let array = quote!(#private::lane_array(#x, #seed, #o));
                if *by_ref { quote!(&#array) } else { array }
            }
            (ParamKind::Array { by_ref, .. }, false) => {
                let x = if *by_ref { quote!(#x) } else { quote!(&#x) };
                let array = quote!(#private::lane_array_constant(#x));
                if *by_ref { quote!(&#array) } else { array }
            }
            (ParamKind::Other, _) => quote!(::core::clone::Clone::clone(&#x)),
            _ => x.to_token_stream(),
        })
        .collect();
    let lane_args = passed(sig, lane_args);
    // A generic function is its own twin, its scalar inferred from the
    // dual arguments.
    let grad = if sig.scalar.is_some() {
        names::public(name, "grad").into_token_stream()
    } else {
        let twin_grad = names::public(&crate::sig::twin_name(name), "grad");
        let lengths = item.sig.generics.const_params().map(|c| &c.ident);
        quote!(#twin_grad::<#private::HessianDual<#float> #(, #lengths)*>)
    };
    quote!(#grad(#(#lane_args),*))
}

/// `NAME_hessian_pattern` and `NAME_hessian_sparse`: the pattern from one
/// run of the twin at `autograd::sparse::Tracer` (the dense pattern for
/// a function of matrices, whose twin asks more of its scalar), and one
/// `NAME_hvp` per colour with the colour's summed seed.
fn sparse_fns(item: &syn::ItemFn, sig: &Signature, builds_matrices: bool) -> TokenStream {
    let mixed = Span::mixed_site();
    let private = private();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let Wrapper {
        inputs,
        generics,
        where_clause,
        local,
        args,
        diff,
        in_out,
    } = Wrapper::new(item, sig);
    let sparse = quote!(::autograd::sparse);
    let (n, session, traced, c, seed, flat, compressed, grad, value, column, v) = (
        local.local("n"),
        local.local("session"),
        local.local("traced"),
        local.local("c"),
        local.local("seed"),
        local.local("flat"),
        local.local("compressed"),
        local.local("grad"),
        local.local("value"),
        local.local("column"),
        local.local("v"),
    );
    let FlatInputs {
        lens,
        offsets,
        offset_lets,
    } = FlatInputs::new(&diff, &local);
    // The twin's arguments at the tracer, as `NAME_hvp` passes them at
    // dual numbers.
    let matrices = takes_matrices(sig) || builds_matrices;
    let pattern_body = if matrices {
        quote!(#sparse::Coloring::dense_hessian(#n))
    } else {
        let mut offs = offsets.iter();
        let tracer_args: Vec<TokenStream> = sig
            .params
            .iter()
            .zip(&args)
            .map(|(p, x)| match (&p.kind, p.differentiable) {
                (ParamKind::Float(_), true) => {
                    let o = offs.next();
                    quote!(#session.input(#x, #o))
                }
                (ParamKind::Float(_), false) => quote!(#sparse::Tracer::constant(#x)),
                (ParamKind::Slice(_), true) => {
                    let o = offs.next();
                    quote!(&#session.inputs(#x, #o))
                }
                (ParamKind::Slice(_), false) => quote!(&#sparse::Tracer::constants(#x)),
                (ParamKind::Array { .. }, true) if is_owned_vec(p) => {
                    let o = offs.next();
                    quote!(#session.inputs(&#x, #o))
                }
                (ParamKind::Array { .. }, false) if is_owned_vec(p) => {
                    quote!(#sparse::Tracer::constants(&#x))
                }
                // A fixed-size array: the same tracers, as an array.
                (ParamKind::Array { by_ref, .. }, differentiable) => {
                    let values = if differentiable {
                        let o = offs.next();
                        quote!(#session.inputs(&#x[..], #o))
                    } else {
                        quote!(#sparse::Tracer::constants(&#x[..]))
                    };
                    let array = quote!({
                        let values = #values;
                        ::core::array::from_fn(|i| values[i])
                    });
                    if *by_ref { quote!(&#array) } else { array }
                }
                _ => x.to_token_stream(),
            })
            .collect();
        let tracer_args = passed(sig, tracer_args);
        let twin = crate::sig::twin_name(name);
        let lengths = item.sig.generics.const_params().map(|c| &c.ident);
        quote! {
            let #session = #sparse::Session::new(#n);
            let #traced = #twin::<#sparse::Tracer #(, #lengths)*>(#(#tracer_args),*);
            #session.hessian(#traced)
        }
    };
    let takes: Vec<TokenStream> = diff
        .iter()
        .map(|p| {
            let x = names::hygienic(&p.ident);
            match p.kind {
                ParamKind::Slice(_) | ParamKind::Array { .. } => {
                    quote!(&#private::take_slice(&mut #flat, #x.len()))
                }
                ParamKind::Matrix { by_ref: true, .. } => {
                    quote!(&#private::take_matrix(&mut #flat, #x))
                }
                ParamKind::Matrix { by_ref: false, .. } => {
                    quote!(&#private::take_matrix(&mut #flat, &#x))
                }
                _ => quote!(#private::take_scalar(&mut #flat)),
            }
        })
        .collect();
    let kept = kept_args(sig, &args);
    let grads: Vec<syn::Ident> = diff.iter().map(|p| local.adjoint(&p.ident)).collect();
    let hs: Vec<syn::Ident> = diff
        .iter()
        .map(|p| local.adjoint(&syn::Ident::new(&format!("h_{}", p.ident), p.ident.span())))
        .collect();
    let hvp = names::public(name, "hvp");
    let pattern_name = names::public(name, "hessian_pattern");
    let sparse_name = names::public(name, "hessian_sparse");
    let coloring = names::extra_parameter("coloring", sig.params.iter().map(|p| &p.ident));
    let doc_pattern = format!(
        " The sparsity pattern of [`{name}`]'s Hessian at this point and its star colouring, for [`{sparse_name}`].\n\n Generated by `#[differentiable(hessian)]`: one run of `{name}` on `autograd::sparse::Tracer`, which records the pairs of inputs that interact non-linearly. The pattern is local: it holds at every point where `{name}` takes the branches it takes here; it is global (`is_global()`, it holds at every point) when the run decided nothing on a value that depends on the inputs (no comparison, `max`/`min` pick, `clamp` or integer conversion of one), or the pattern is dense. Structural, not numerical: an entry that happens to be 0 here is kept."
    );
    let how = if matrices {
        format!("one `{hvp}` per colour, along the sum of the colour's unit directions")
    } else {
        format!(
            "the Hessian along the sum of each colour's unit directions, K = `autograd::lanes::HESSIAN_LANES` colours a reverse sweep (vector mode), the last colours in one sweep too when more than K / 2 are left, else one `{hvp}` each: ⌈p / K⌉ sweeps for p colours unless p mod K is 2 to K / 2"
        )
    };
    let doc_sparse = format!(
        " The value of [`{name}`], its gradient and its Hessian as a sparse matrix of the pattern `coloring` holds ([`{pattern_name}`]), over the differentiable arguments flattened as in `{name}_hessian`.\n\n Generated by `#[differentiable(hessian)]`: {how}, the entries recovered from the products. Each stored entry equals `{name}_hessian`'s; entries outside the pattern are not computed.\n\n # Panics\n\n If `coloring` is not of this function's number of inputs."
    );
    let sparse_body = if matrices {
        quote! {
            let mut #compressed = #private::Vec::with_capacity(#n * #coloring.colors());
            let mut #value = ::core::option::Option::None;
            let mut #grad = ::autograd::nalgebra::DVector::<f64>::zeros(#n);
            let mut #seed = #private::vec![0.0f64; #n];
            // Without a colour (no structural non-zero), the zero
            // direction still gives the value and the gradient.
            for #c in 0..#coloring.colors().max(1) {
                if #c < #coloring.colors() {
                    #coloring.seed_into(#c, &mut #seed);
                }
                let mut #flat = #seed.clone().into_iter();
                let (#v, #(#grads,)* #(#hs),*) = #hvp(#(#kept,)* #(#takes),*);
                if #c == 0 {
                    let mut #column = #private::Vec::with_capacity(#n);
                    #(#private::push_flat(&mut #column, #grads);)*
                    #grad = ::autograd::nalgebra::DVector::from_vec(#column);
                    #value = ::core::option::Option::Some(#v);
                }
                if #c < #coloring.colors() {
                    #(#private::push_flat(&mut #compressed, #hs);)*
                }
            }
        }
    } else {
        let float = syn::Ident::new("f64", Span::call_site());
        let (first, lane_seed, lanes_end, colors) = (
            local.local("first"),
            local.local("lane_seed"),
            local.local("lanes_end"),
            local.local("colors"),
        );
        let sweep = lane_gradient(item, sig, &float, &args, &offsets, &lane_seed);
        quote! {
            #(#offset_lets)*
            let #colors = #coloring.colors();
            let mut #compressed = #private::vec![0.0f64; #n * #colors];
            let mut #value = ::core::option::Option::None;
            let mut #grad = ::autograd::nalgebra::DVector::<f64>::zeros(#n);
            // Sweeps of K colours, the last one too if it fills more than
            // half its lanes; the colours past them one `_hvp` each (an
            // idle lane costs about what a used one does).
            let #lanes_end = #private::lane_columns(#colors);
            for #first in (0..#lanes_end).step_by(#private::HESSIAN_LANES) {
                let #lane_seed = #private::LaneSeed::colors(#coloring.column_colors(), #first);
                let (#v, #(#grads),*) = #sweep;
                if #value.is_none() {
                    let mut #column = #private::Vec::with_capacity(#n);
                    #(#private::push_lane_values(&mut #column, &#grads);)*
                    #grad = ::autograd::nalgebra::DVector::from_vec(#column);
                    #value = ::core::option::Option::Some(#v.re);
                }
                #(#private::put_lanes(&mut #compressed, #n, &#grads, #offsets, #lane_seed);)*
            }
            let mut #seed = #private::vec![0.0f64; #n];
            // Without a colour (no structural non-zero), the zero
            // direction still gives the value and the gradient.
            for #c in #lanes_end..#colors.max(1) {
                if #c < #colors {
                    #coloring.seed_into(#c, &mut #seed);
                }
                let mut #flat = #seed.clone().into_iter();
                let (#v, #(#grads,)* #(#hs),*) = #hvp(#(#kept,)* #(#takes),*);
                if #value.is_none() {
                    let mut #column = #private::Vec::with_capacity(#n);
                    #(#private::push_flat(&mut #column, #grads);)*
                    #grad = ::autograd::nalgebra::DVector::from_vec(#column);
                    #value = ::core::option::Option::Some(#v);
                }
                if #c < #colors {
                    let mut #column = #private::Vec::with_capacity(#n);
                    #(#private::push_flat(&mut #column, #hs);)*
                    #compressed[#c * #n..(#c + 1) * #n].copy_from_slice(&#column);
                }
            }
        }
    };
    let InOut { entry, primal_args } = &in_out;
    // The function itself runs last, on the in-out arguments as passed.
    let run = sig.has_inout().then(|| quote!(#name(#(#primal_args),*);));
    let pattern_body = match &run {
        Some(run) => quote!({
            let #c = { #pattern_body };
            #run
            #c
        }),
        None => pattern_body,
    };
    quote_spanned! {mixed=>
        #[doc = #doc_pattern]
        #[allow(clippy::too_many_arguments, clippy::all)]
        #vis fn #pattern_name #generics (#(#inputs),*) -> #sparse::Coloring
            #where_clause
        {
            #entry
            #(#offset_lets)*
            let #n: usize = 0usize #(+ #lens)*;
            #pattern_body
        }

        #[doc = #doc_sparse]
        #[allow(clippy::too_many_arguments, clippy::all)]
        #vis fn #sparse_name #generics (#(#inputs,)* #coloring: &#sparse::Coloring)
            -> (f64, ::autograd::nalgebra::DVector<f64>, ::autograd::nalgebra_sparse::CscMatrix<f64>)
            #where_clause
        {
            #entry
            let #n: usize = 0usize #(+ #lens)*;
            ::core::assert_eq!(
                #coloring.ncols(), #n,
                "the colouring is of {} inputs, the function's arguments have {}",
                #coloring.ncols(), #n
            );
            #sparse_body
            let #value = match #value {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => ::core::unreachable!("one product at least"),
            };
            #run
            (#value, #grad, #coloring.recover(&#compressed))
        }
    }
}

/// `NAME_hessian`: with `lanes`, one reverse sweep at the dual number of
/// `HESSIAN_LANES` lanes per `HESSIAN_LANES` unit directions (see
/// `lane_columns` for the last ones); otherwise one `NAME_hvp` per unit
/// direction. A solver's (`err`, its `Result`'s
/// error) returns its `Result`.
fn hessian_fn(
    item: &syn::ItemFn,
    sig: &Signature,
    float: &syn::Ident,
    err: Option<&syn::Type>,
    lanes: bool,
) -> TokenStream {
    let mixed = Span::mixed_site();
    let private = private();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let Wrapper {
        inputs,
        generics,
        where_clause,
        local,
        args,
        diff,
        in_out,
    } = Wrapper::new(item, sig);
    let grads: Vec<syn::Ident> = diff.iter().map(|p| local.adjoint(&p.ident)).collect();
    let value = local.local("value");
    let hvp = names::public(name, "hvp");
    let (try_, ok, ret_ty) = {
        let ret = quote!((#float, ::autograd::nalgebra::DVector<#float>, ::autograd::nalgebra::DMatrix<#float>));
        match err {
            Some(e) => (
                quote!(?),
                quote!(::core::result::Result::Ok),
                quote!(::core::result::Result<#ret, #e>),
            ),
            None => (TokenStream::new(), TokenStream::new(), ret),
        }
    };
    let hessian = names::public(name, "hessian");
    // A generic scalar in nalgebra's vector and matrix.
    let where_clause = match &sig.scalar {
        Some(s) => {
            let t = &s.ident;
            let bound = quote!(#t: ::core::fmt::Debug + 'static);
            if where_clause.is_empty() {
                quote!(where #bound)
            } else {
                quote!(#where_clause, #bound)
            }
        }
        None => where_clause,
    };
    let (n, j, grad, h, column) = (
        local.local("n"),
        local.local("j"),
        local.local("grad"),
        local.local("h"),
        local.local("column"),
    );
    let FlatInputs {
        lens,
        offsets,
        offset_lets,
    } = FlatInputs::new(&diff, &local);
    let unit_dirs: Vec<TokenStream> = diff
        .iter()
        .zip(&offsets)
        .zip(&lens)
        .map(|((p, o), len)| match p.kind {
            ParamKind::Slice(_) | ParamKind::Array { .. } => {
                quote!(&#private::unit_slice::<#float>(#len, #j, #o))
            }
            ParamKind::Matrix { by_ref: true, .. } => {
                let x = names::hygienic(&p.ident);
                quote!(&#private::unit_matrix(#x, #j, #o))
            }
            ParamKind::Matrix { by_ref: false, .. } => {
                let x = names::hygienic(&p.ident);
                quote!(&#private::unit_matrix(&#x, #j, #o))
            }
            _ => quote!(#private::unit_scalar::<#float>(#j, #o)),
        })
        .collect();
    let hs: Vec<syn::Ident> = diff
        .iter()
        .map(|p| local.adjoint(&syn::Ident::new(&format!("h_{}", p.ident), p.ident.span())))
        .collect();
    let kept = kept_args(sig, &args);
    let v = local.local("v");
    let InOut { entry, primal_args } = &in_out;
    // Without a differentiable input, the value alone; the function itself
    // runs last, on the in-out arguments as passed.
    let (alone, run) = if sig.has_inout() {
        (&kept, Some(quote!(#name(#(#primal_args),*);)))
    } else {
        (&args.iter().map(|a| a.to_token_stream()).collect(), None)
    };
    let how = if lanes {
        format!(
            "column j is the derivative of the gradient along input j, K = `autograd::lanes::HESSIAN_LANES` columns a reverse sweep (forward over reverse at a dual number of K lanes, vector mode), the last columns in one sweep too when more than K / 2 are left, else one `{hvp}` each: ⌈n / K⌉ sweeps for n inputs unless n mod K is 2 to K / 2, each column equal to `{hvp}` along its input"
        )
    } else {
        format!("column j is `{hvp}` along input j, so n Hessian-vector products for n inputs")
    };
    let doc_hessian = format!(
        " The value of [`{name}`], its gradient and its Hessian, over the differentiable arguments flattened in argument order (a number one entry, a slice its elements, a matrix its entries column by column).\n\n Generated by `#[differentiable(hessian)]`: {how}. For a twice continuously differentiable function the result is symmetric up to rounding (not averaged: each column is exactly the derivative of `{name}_grad` along its input, which a `stop_gradient` can make asymmetric). The value is bit for bit what `{name}` returns."
    );
    if lanes {
        let (first, seed, lanes_end) = (
            local.local("first"),
            local.local("seed"),
            local.local("lanes_end"),
        );
        let sweep = lane_gradient(item, sig, float, &args, &offsets, &seed);
        return quote_spanned! {mixed=>
            #[doc = #doc_hessian]
            #[allow(clippy::too_many_arguments, clippy::all)]
            #vis fn #hessian #generics (#(#inputs),*)
                -> #ret_ty
                #where_clause
            {
                #entry
                #(#offset_lets)*
                let #n: usize = 0usize #(+ #lens)*;
                let mut #grad = ::autograd::nalgebra::DVector::<#float>::zeros(#n);
                let mut #h = ::autograd::nalgebra::DMatrix::<#float>::zeros(#n, #n);
                let mut #value = ::core::option::Option::None;
                // Sweeps of K columns, the last one too if it fills more
                // than half its lanes; the columns past them one `_hvp`
                // each (an idle lane costs about what a used one does).
                let #lanes_end = #private::lane_columns(#n);
                for #first in (0..#lanes_end).step_by(#private::HESSIAN_LANES) {
                    let #seed = #private::LaneSeed::columns(#first);
                    let (#v, #(#grads),*) = #sweep;
                    if #value.is_none() {
                        let mut #column = #private::Vec::with_capacity(#n);
                        #(#private::push_lane_values(&mut #column, &#grads);)*
                        #grad = ::autograd::nalgebra::DVector::from_vec(#column);
                        #value = ::core::option::Option::Some(#v.re);
                    }
                    #(#private::put_lanes(#h.as_mut_slice(), #n, &#grads, #offsets, #seed);)*
                }
                for #j in #lanes_end..#n {
                    let (#v, #(#grads,)* #(#hs),*) = #hvp(#(#kept,)* #(#unit_dirs),*);
                    if #value.is_none() {
                        let mut #column = #private::Vec::with_capacity(#n);
                        #(#private::push_flat(&mut #column, #grads);)*
                        #grad = ::autograd::nalgebra::DVector::from_vec(#column);
                        #value = ::core::option::Option::Some(#v);
                    }
                    let mut #column = #private::Vec::with_capacity(#n);
                    #(#private::push_flat(&mut #column, #hs);)*
                    #h.set_column(#j, &::autograd::nalgebra::DVector::from_vec(#column));
                }
                let #value = match #value {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => #name(#(#alone),*),
                };
                #run
                (#value, #grad, #h)
            }
        };
    }
    quote_spanned! {mixed=>
        #[doc = #doc_hessian]
        #[allow(clippy::too_many_arguments, clippy::all)]
        #vis fn #hessian #generics (#(#inputs),*)
            -> #ret_ty
            #where_clause
        {
            #entry
            #(#offset_lets)*
            let #n: usize = 0usize #(+ #lens)*;
            let mut #grad = ::autograd::nalgebra::DVector::<#float>::zeros(#n);
            let mut #h = ::autograd::nalgebra::DMatrix::<#float>::zeros(#n, #n);
            let mut #value = ::core::option::Option::None;
            for #j in 0..#n {
                let (#v, #(#grads,)* #(#hs),*) = #hvp(#(#kept,)* #(#unit_dirs),*)#try_;
                if #j == 0 {
                    let mut #column = #private::Vec::with_capacity(#n);
                    #(#private::push_flat(&mut #column, #grads);)*
                    #grad = ::autograd::nalgebra::DVector::from_vec(#column);
                }
                #value = ::core::option::Option::Some(#v);
                let mut #column = #private::Vec::with_capacity(#n);
                #(#private::push_flat(&mut #column, #hs);)*
                #h.set_column(#j, &::autograd::nalgebra::DVector::from_vec(#column));
            }
            let #value = match #value {
                ::core::option::Option::Some(v) => v,
                ::core::option::Option::None => #name(#(#alone),*)#try_,
            };
            #run
            #ok((#value, #grad, #h))
        }
    }
}

/// `#[differentiable(hessian, implicit = residual)]`: with r(z, θ) = 0 at
/// the solution z, the gradient z′ = −(∂r/∂θ)/(∂r/∂z) from the residual's
/// gradient, and H·v of z from one Hessian-vector product of the residual
/// along (z′·v, v) (see `implicit_second_order`). Where ∂r/∂z is zero or
/// not finite, a `Result` solver returns `SolveError::SingularDerivative`
/// and a plain one NaN, as its `_grad` does.
pub fn implicit(
    item: &syn::ItemFn,
    sig: &Signature,
    residual: &syn::Path,
    float: &syn::Ident,
) -> TokenStream {
    let mixed = Span::mixed_site();
    let private = private();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let Wrapper {
        inputs,
        generics,
        where_clause: _,
        local,
        args,
        diff,
        ..
    } = Wrapper::new(item, sig);
    let dir_names: Vec<syn::Ident> = diff.iter().map(|p| direction_name(sig, p)).collect();
    let dir_tys: Vec<TokenStream> = diff.iter().filter_map(|p| direction_ty(p)).collect();
    let grad_tys: Vec<TokenStream> = diff.iter().filter_map(|p| p.adjoint_ty()).collect();
    let (z, r_z, flat_r, flat_v, flat_a, a_z, second, gradient, hv) = (
        local.local("x"),
        local.local("dr_dx"),
        local.local("dr_dtheta"),
        local.local("v"),
        local.local("a"),
        local.local("a_x"),
        local.local("second"),
        local.local("gradient"),
        local.local("hvp"),
    );
    let r_thetas: Vec<syn::Ident> = (0..diff.len())
        .map(|k| local.local(&format!("dr{k}")))
        .collect();
    let a_thetas: Vec<syn::Ident> = (0..diff.len())
        .map(|k| local.local(&format!("a{k}")))
        .collect();
    let skipped = diff.iter().map(|_| quote!(_));
    let takes = |flat: &syn::Ident| -> Vec<TokenStream> {
        diff.iter()
            .map(|p| {
                let x = names::hygienic(&p.ident);
                match p.kind {
                    ParamKind::Slice(_) => quote!(#private::take_slice(&mut #flat, #x.len())),
                    ParamKind::Matrix { by_ref: true, .. } => {
                        quote!(#private::take_matrix(&mut #flat, #x))
                    }
                    ParamKind::Matrix { by_ref: false, .. } => {
                        quote!(#private::take_matrix(&mut #flat, &#x))
                    }
                    _ => quote!(#private::take_scalar(&mut #flat)),
                }
            })
            .collect()
    };
    let (gradient_out, hv_out) = (takes(&gradient), takes(&hv));
    let residual_grad = {
        let mut p = residual.clone();
        if let Some(last) = p.segments.last_mut() {
            last.ident = names::public(&last.ident, "grad");
        }
        p
    };
    let residual_hvp = {
        let mut p = residual.clone();
        if let Some(last) = p.segments.last_mut() {
            last.ident = names::public(&last.ident, "hvp");
        }
        p
    };
    let err = match &sig.ret {
        crate::sig::Ret::Result { err, .. } => Some(err),
        _ => None,
    };
    let (try_, check, ok, ret_ty) = {
        let ret = quote!((#float, #(#grad_tys,)* #(#grad_tys),*));
        match err {
            Some(e) => (
                quote!(?),
                quote! {
                    if let ::core::result::Result::Err(e) =
                        #private::derivative_exists(#second.singular, #private::to_f64(#r_z))
                    {
                        return ::core::result::Result::Err(::core::convert::From::from(e));
                    }
                },
                quote!(::core::result::Result::Ok),
                quote!(::core::result::Result<#ret, #e>),
            ),
            None => (
                TokenStream::new(),
                TokenStream::new(),
                TokenStream::new(),
                ret,
            ),
        }
    };
    let callee = residual
        .segments
        .last()
        .map_or_else(Span::call_site, |s| s.ident.span());
    let residual_check = quote_spanned! {callee=>
        const _: () = ::autograd::__private::assert_hessian::<#residual>();
    };
    let mark = (!names::has_no_carrier(name)).then(|| {
        quote! {
            #[doc(hidden)]
            impl #private::HasSecondOrder for #name {}
        }
    });
    let hvp = names::public(name, "hvp");
    let doc_hvp = format!(
        " The solution of [`{name}`], its gradient and the Hessian-vector product `H·v` of the solution, one direction per differentiable argument (flat, like `{name}_grad`).\n\n Generated by `#[differentiable(hessian, implicit = ..)]`: from the residual's gradient and one Hessian-vector product of the residual at the solution; the solution is bit for bit what `{name}` returns.\n\n # Panics\n\n If a slice direction's length is not its argument's."
    );
    // The solver and the residual's two calls each take the arguments: a
    // matrix or constant taken by value is cloned for them.
    let kept: Vec<TokenStream> = sig
        .params
        .iter()
        .zip(&args)
        .map(|(p, x)| match p.kind {
            ParamKind::Other | ParamKind::Matrix { by_ref: false, .. } => {
                quote!(::core::clone::Clone::clone(&#x))
            }
            _ => x.to_token_stream(),
        })
        .collect();
    let mut out = quote_spanned! {mixed=>
        #residual_check
        #mark
        #[doc = #doc_hvp]
        #[allow(clippy::too_many_arguments)]
        #vis fn #hvp #generics (#(#inputs,)* #(#dir_names: #dir_tys),*) -> #ret_ty {
            let #z = #name(#(#kept),*)#try_;
            let (_, #r_z, #(#r_thetas),*) = #residual_grad(#z, #(#kept),*);
            let mut #flat_r = #private::Vec::new();
            #(#private::push_flat(&mut #flat_r, #r_thetas);)*
            let mut #flat_v = #private::Vec::new();
            #(#private::push_flat(&mut #flat_v, #dir_names);)*
            let #second = #private::implicit_second_order(#r_z, #flat_r, #flat_v, |along| {
                let (_, _, #(#skipped,)* #a_z, #(#a_thetas),*) =
                    #residual_hvp(#z, #(#kept,)* along, #(#dir_names),*);
                let mut #flat_a = #private::Vec::new();
                #(#private::push_flat(&mut #flat_a, #a_thetas);)*
                (#a_z, #flat_a)
            });
            #check
            let mut #gradient = #second.gradient.into_iter();
            let mut #hv = #second.hvp.into_iter();
            #ok((#z, #(#gradient_out,)* #(#hv_out),*))
        }
    };
    out.extend(hessian_fn(item, sig, float, err, false));
    out
}

/// Where each differentiable argument's entries start among the flattened
/// inputs: its length expression, the local holding its offset, and the
/// `let`s computing the offsets in argument order.
struct FlatInputs {
    lens: Vec<TokenStream>,
    offsets: Vec<syn::Ident>,
    offset_lets: Vec<TokenStream>,
}

impl FlatInputs {
    fn new(diff: &[&Param], local: &names::WrapperLocals) -> Self {
        let lens: Vec<TokenStream> = diff
            .iter()
            .map(|p| {
                let x = names::hygienic(&p.ident);
                match p.kind {
                    ParamKind::Slice(_) | ParamKind::Matrix { .. } | ParamKind::Array { .. } => {
                        quote!(#x.len())
                    }
                    _ => quote!(1usize),
                }
            })
            .collect();
        let offsets: Vec<syn::Ident> = (0..diff.len())
            .map(|k| local.local(&format!("offset{k}")))
            .collect();
        let offset_lets = offsets
            .iter()
            .zip(&lens)
            .scan(quote!(0usize), |acc, (o, len)| {
                let this = quote!(let #o: usize = #acc;);
                *acc = quote!(#o + #len);
                Some(this)
            })
            .collect();
        Self {
            lens,
            offsets,
            offset_lets,
        }
    }
}
