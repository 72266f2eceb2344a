//! Wrapper bodies that hand the hidden VJP's results on through one
//! generic runtime helper (`__private::grad`, `__private::grad_acc`)
//! instead of taking its tuple apart and rebuilding it: less for rustc to
//! check in every annotated function. They apply when the hidden VJP's
//! adjoint tuple is the public one, every argument differentiable (with
//! or without the arguments it reached, see `__private::Reached`).

use proc_macro2::{Span, TokenStream};
use quote::quote_spanned;

use super::scalar::Scalar;
use crate::sig::{Ret, Signature};

/// The most differentiable arguments the runtime's tuple helpers take
/// (`autograd::__private::Prepend` and `AddInto`).
pub const MAX_ARITY: usize = 12;

/// Whether the hidden VJP's pullback returns the public adjoint tuple:
/// one adjoint per argument, none of them a constant's placeholder.
pub fn applies(sig: &Signature) -> bool {
    (1..=MAX_ARITY).contains(&sig.params.len())
        && sig
            .params
            .iter()
            .all(|p| p.differentiable && p.adjoint_ty().is_some())
}

/// `NAME_vjp`'s body: the hidden VJP's value and pullback as they are,
/// or (`reach`: the pullback says which arguments it reached) with a
/// pullback returning the adjoints only.
pub fn vjp(sig: &Signature, vjp_full: &syn::Path, args: &[syn::Ident], reach: bool) -> TokenStream {
    let call = quote_spanned!(Span::mixed_site()=> #vjp_full(#(#args),*));
    match (reach, &sig.ret) {
        (false, _) => call,
        (true, Ret::Result { .. }) => quote_spanned! {Span::mixed_site()=>
            ::core::result::Result::map(#call, ::autograd::__private::vjp)
        },
        (true, _) => quote_spanned!(Span::mixed_site()=> ::autograd::__private::vjp(#call)),
    }
}

/// `NAME_grad`'s body: the hidden VJP at seed one, its value in front.
pub fn grad(sig: &Signature, vjp_full: &syn::Path, args: &[syn::Ident]) -> TokenStream {
    let call = quote_spanned!(Span::mixed_site()=> #vjp_full(#(#args),*));
    match sig.ret {
        Ret::Result { .. } => quote_spanned! {Span::mixed_site()=>
            ::core::result::Result::map(#call, ::autograd::__private::grad)
        },
        _ => quote_spanned!(Span::mixed_site()=> ::autograd::__private::grad(#call)),
    }
}

/// `NAME_grad_acc`'s body, when the buffers take the adjoints through
/// `Accumulate` (a generic scalar's do not: `None`).
pub fn grad_acc(
    sig: &Signature,
    scalar: &Scalar,
    vjp_full: &syn::Path,
    args: &[syn::Ident],
    buffers: &[syn::Ident],
) -> Option<TokenStream> {
    if scalar.param().is_some() {
        return None;
    }
    let mixed = Span::mixed_site();
    Some(match sig.ret {
        Ret::Result { .. } => quote_spanned! {mixed=>
            ::core::result::Result::Ok(
                ::autograd::__private::grad_acc(#vjp_full(#(#args),*)?, (#(#buffers,)*))
            )
        },
        _ => quote_spanned! {mixed=>
            ::autograd::__private::grad_acc(#vjp_full(#(#args),*), (#(#buffers,)*))
        },
    })
}
