//! Paths into the facade crate: generated code names the runtime only
//! through `::autograd::__private`, so it compiles in any crate that
//! depends on `autograd` alone.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote_spanned};

use crate::table::{Func, Module, Rule, RuntimeFn};

/// A runtime function of a rule, spanned on the user's operation so a type
/// error underlines their code.
pub fn runtime(rule: &Rule, func: Func, span: Span) -> TokenStream {
    let what = || format!("{func:?} of `{}`", rule.name);
    path(rule.runtime(func).as_ref(), what, span)
}

/// The path of a runtime function, spanned. Code generation asks only for
/// functions the table says exist; a missing one (`what`) is reported,
/// not a panic.
pub fn path(f: Option<&RuntimeFn>, what: impl Fn() -> String, span: Span) -> TokenStream {
    let Some(f) = f else {
        let message = format!("autograd's rule table has no {}", what());
        return quote_spanned!(span=> ::core::compile_error!(#message));
    };
    let name = format_ident!("{}", f.name, span = span);
    match f.module {
        Module::Rules => quote_spanned!(span=> ::autograd::__private::rules::#name),
        Module::Generic => quote_spanned!(span=> ::autograd::__private::rules::generic::#name),
    }
}
