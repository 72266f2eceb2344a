//! `NAME_jacobian` (and `NAME_jacobian_acc`) of a function with `jvp`: forward sweeps
//! when there are fewer inputs than outputs, else the reverse rows (see
//! `autograd_runtime::jacobian::forward_jacobian_acc`). The forward sweeps
//! go through the hidden K-lane JVP where the function has one (see
//! `tangent::lanes`), K flattened inputs a sweep
//! (`autograd_runtime::lanes::forward_jacobian_lanes_acc`), else the
//! hidden JVP, one input a sweep.

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

use super::{Shape, forward, names};
use crate::sig::{ParamKind, Signature};

/// The forward-mode Jacobian into `jac` (`target` a
/// `__private::Target`): an expression, `Some(value)` when forward sweeps
/// take fewer sweeps and were taken, else `None` (see
/// `autograd_runtime::jacobian::forward_jacobian_acc`). `None` where
/// forward sweeps cannot be built: a generic scalar (no unit tangent of an
/// unknown type), or a constant argument of a type the macro does not
/// know (each sweep takes the arguments again, which needs `Clone`).
/// With `lanes`, through the hidden K-lane JVP.
pub fn forward_columns(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    local: &names::WrapperLocals,
    (jac, target): (&TokenStream, &TokenStream),
    lanes: bool,
) -> Option<TokenStream> {
    let mixed = Span::mixed_site();
    let private = quote_spanned!(mixed=> ::autograd::__private);
    let (inputs, start, k, forward) = (
        local.local("inputs"),
        local.local("start"),
        local.local("k"),
        local.local("forward"),
    );
    let Sweep {
        buffers,
        directions,
        call,
    } = sweep(item, sig, shape, local, false)?;
    // The directions' pooled buffers go back, so that a loop of calls
    // takes the same ones again.
    let one_at_a_time = quote_spanned! {mixed=>
        {
            #(#buffers)*
            let #inputs = 0 #(+ #private::Direction::entries(&#directions))*;
            let #forward = #private::forward_jacobian_acc(#inputs, #jac, #target, |#k| {
                let mut #start = 0;
                #(#private::Direction::aim(&mut #directions, #k, &mut #start);)*
                #call
            });
            #(#private::Direction::release(#directions);)*
            #forward
        }
    };
    if !lanes {
        return Some(one_at_a_time);
    }
    let Sweep {
        buffers,
        directions,
        call,
    } = sweep(item, sig, shape, local, true)?;
    let (first, swept) = (local.local("first"), local.local("swept"));
    // Where a callee has no K-lane JVP, the first K-lane sweep says so
    // before anything is written, and the sweeps go one direction at a time.
    Some(quote_spanned! {mixed=>
        {
            #(#buffers)*
            let #inputs = 0 #(+ #private::LaneDirection::lane_entries(&#directions))*;
            let #forward = #private::forward_jacobian_lanes_acc(#inputs, #jac, #target, |#first| {
                let mut #start = 0;
                #(#private::LaneDirection::aim_lanes(&mut #directions, #first, &mut #start);)*
                #call
            });
            #(#private::LaneDirection::release_lanes(#directions);)*
            match #forward {
                #private::Swept::Done(#swept) => #swept,
                #private::Swept::Unavailable => #one_at_a_time,
            }
        }
    })
}

/// The bodies of `NAME_jacobian_pattern`, `NAME_jacobian_sparse` and
/// `NAME_jacobian_sparse_into` (`coloring` and `jac` the latter's
/// arguments): forward sweeps along flat
/// directions (see `autograd_runtime::sparse::jacobian_pattern`), or
/// `None` where [`forward_columns`] cannot build them. With `lanes`, K
/// inputs (colours) a sweep through the hidden K-lane JVP (see
/// `autograd_runtime::lanes::jacobian_sparse_lanes`).
pub fn sparse_bodies(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    local: &names::WrapperLocals,
    (coloring, jac): (&syn::Ident, &syn::Ident),
    lanes: bool,
) -> Option<[TokenStream; 3]> {
    let mixed = Span::mixed_site();
    let private = quote_spanned!(mixed=> ::autograd::__private);
    let (inputs, start, seed) = (
        local.local("inputs"),
        local.local("start"),
        local.local("seed"),
    );
    let one_at_a_time = one_at_a_time_bodies(item, sig, shape, local, (coloring, jac))?;
    if !lanes {
        return Some(one_at_a_time);
    }
    let Sweep {
        buffers,
        directions,
        call,
    } = sweep(item, sig, shape, local, true)?;
    let (result, swept) = (local.local("result"), local.local("swept"));
    // Where a callee has no K-lane JVP, the first K-lane sweep says so
    // before anything is written, and the sweeps go one direction (one
    // colour) at a time.
    let [pattern, sparse, sparse_into] = one_at_a_time;
    let or_one_at_a_time = |body: TokenStream| {
        quote_spanned! {mixed=>
            match #result {
                #private::Swept::Done(#swept) => #swept,
                #private::Swept::Unavailable => { #body }
            }
        }
    };
    let (pattern, sparse, sparse_into) = (
        or_one_at_a_time(pattern),
        or_one_at_a_time(sparse),
        or_one_at_a_time(sparse_into),
    );
    // The pattern: `seed` holds K lanes an input (NaN along K inputs).
    // The sparse Jacobian: lane `j` the seed of colour `first + j`,
    // read from the colouring's colours (no seed is built). The
    // directions' pooled buffers go back, so that the next call takes
    // the same ones again.
    let (colors, first) = (local.local("colors"), local.local("first"));
    let setup = quote_spanned! {mixed=>
        #(#buffers)*
        let #inputs = 0 #(+ #private::LaneDirection::lane_entries(&#directions))*;
    };
    let by_colour = quote_spanned! {mixed=>
        |#colors, #first| {
            let mut #start = 0;
            #(#private::LaneDirection::color_lanes(&mut #directions, #colors, #first, &mut #start);)*
            #call
        }
    };
    let release = quote_spanned! {mixed=>
        #(#private::LaneDirection::release_lanes(#directions);)*
    };
    Some([
        quote_spanned! {mixed=>
            #setup
            let #result = #private::jacobian_pattern_lanes(#inputs, |#seed| {
                let mut #start = 0;
                #(#private::LaneDirection::set_lanes(&mut #directions, #seed, &mut #start);)*
                #call
            });
            #(#private::LaneDirection::release_lanes(#directions);)*
            #pattern
        },
        quote_spanned! {mixed=>
            #setup
            let #result = #private::jacobian_sparse_lanes(#coloring, #inputs, #by_colour);
            #release
            #sparse
        },
        quote_spanned! {mixed=>
            #setup
            let #result = #private::jacobian_sparse_lanes_into(#coloring, #inputs, #jac, #by_colour);
            #release
            #sparse_into
        },
    ])
}

/// [`sparse_bodies`] one direction (one colour) a sweep, through the
/// hidden JVP.
fn one_at_a_time_bodies(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    local: &names::WrapperLocals,
    (coloring, jac): (&syn::Ident, &syn::Ident),
) -> Option<[TokenStream; 3]> {
    let mixed = Span::mixed_site();
    let private = quote_spanned!(mixed=> ::autograd::__private);
    let (inputs, start, seed, result) = (
        local.local("inputs"),
        local.local("start"),
        local.local("seed"),
        local.local("result"),
    );
    let Sweep {
        buffers,
        directions,
        call,
    } = sweep(item, sig, shape, local, false)?;
    let setup = quote_spanned! {mixed=>
        #(#buffers)*
        let #inputs = 0 #(+ #private::Direction::entries(&#directions))*;
    };
    let closure = quote_spanned! {mixed=>
        |#seed: &[f64]| {
            let mut #start = 0;
            #(#private::Direction::set(&mut #directions, #seed, &mut #start);)*
            #call
        }
    };
    let release = quote_spanned! {mixed=>
        #(#private::Direction::release(#directions);)*
    };
    Some([
        quote_spanned! {mixed=>
            #setup
            let #result = ::autograd::sparse::jacobian_pattern(#inputs, #closure);
            #release
            #result
        },
        quote_spanned! {mixed=>
            #setup
            let #result = ::autograd::sparse::jacobian_sparse(#coloring, #inputs, #closure);
            #release
            #result
        },
        quote_spanned! {mixed=>
            #setup
            let #result = ::autograd::sparse::jacobian_sparse_into(#coloring, #inputs, #jac, #closure);
            #release
            #result
        },
    ])
}

/// A forward sweep of the hidden JVP (with `lanes`, the hidden K-lane
/// JVP) over owned direction buffers.
struct Sweep {
    /// The buffers' declarations.
    buffers: Vec<TokenStream>,
    /// The buffers, one per differentiable argument.
    directions: Vec<syn::Ident>,
    /// The sweep: the hidden JVP at the arguments and the buffers.
    call: TokenStream,
}

fn sweep(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    local: &names::WrapperLocals,
    lanes: bool,
) -> Option<Sweep> {
    let unknown_by_value = sig.params.iter().zip(&shape.inputs).any(|(p, pt)| {
        matches!(p.kind, ParamKind::Other) && !matches!(*pt.ty, syn::Type::Reference(_))
    });
    if sig.scalar.is_some() || unknown_by_value {
        return None;
    }
    let mixed = Span::mixed_site();
    let private = quote_spanned!(mixed=> ::autograd::__private);
    let name = &item.sig.ident;
    let hidden = match lanes {
        true => names::JVP_LANES,
        false => names::JVP_FULL,
    };
    let jvp_full = forward::hidden_path(&name.clone().into(), hidden);
    let mut buffers = Vec::new();
    let mut directions = Vec::new();
    let tangents = sig.params.iter().map(|p| {
        if !p.differentiable {
            return quote_spanned!(mixed=> #private::NoGradient);
        }
        let arg = names::hygienic(&p.ident);
        let buffer = local.adjoint(&p.ident);
        if lanes {
            // K lanes of zeros shaped like the argument; the hidden K-lane
            // JVP takes a float's by value and every other by reference.
            buffers.push(quote_spanned!(mixed=> let mut #buffer = #private::lane_zeros(&#arg);));
            directions.push(buffer.clone());
            return match p.kind {
                ParamKind::Float(_) => quote_spanned!(mixed=> #buffer),
                _ => quote_spanned!(mixed=> &#buffer),
            };
        }
        // An owned buffer of the argument's shape; the hidden JVP takes a
        // float's tangent by value and every other by reference.
        let (zero, pass) = match &p.kind {
            ParamKind::Float(_) => (
                quote_spanned!(mixed=> #private::zero_like(&#arg)),
                quote_spanned!(mixed=> #buffer),
            ),
            ParamKind::Array {
                owned,
                by_ref: false,
                ..
            } if !matches!(**owned, syn::Type::Array(_)) => (
                quote_spanned!(mixed=> #private::zeros_like_slice(&#arg)),
                quote_spanned!(mixed=> &#buffer),
            ),
            ParamKind::Slice(_) => (
                quote_spanned!(mixed=> #private::zeros_like_slice(&#arg)),
                quote_spanned!(mixed=> &#buffer),
            ),
            ParamKind::Matrix { by_ref: true, .. } | ParamKind::Array { by_ref: true, .. } => (
                quote_spanned!(mixed=> #private::zero_like(#arg)),
                quote_spanned!(mixed=> &#buffer),
            ),
            _ => (
                quote_spanned!(mixed=> #private::zero_like(&#arg)),
                quote_spanned!(mixed=> &#buffer),
            ),
        };
        buffers.push(quote_spanned!(mixed=> let mut #buffer = #zero;));
        directions.push(buffer);
        pass
    });
    let tangents: Vec<_> = tangents.collect();
    let args = sig.params.iter().map(|p| {
        let arg = names::hygienic(&p.ident);
        quote_spanned!(mixed=> ::core::clone::Clone::clone(&#arg))
    });
    Some(Sweep {
        buffers,
        directions,
        call: quote_spanned!(mixed=> #jvp_full(#(#args,)* #(#tangents),*)),
    })
}
