//! Paths into the facade crate: generated code names the runtime only
//! through `::autograd::__private`, so it compiles in any crate that
//! depends on `autograd` alone.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote_spanned};

/// A backward rule, spanned on the user's operation so a type error
/// underlines their code.
pub fn rule(name: &str, span: Span) -> TokenStream {
    let name = format_ident!("{}", name, span = span);
    quote_spanned!(span=> ::autograd::__private::rules::#name)
}

/// A dispatched backward rule (`rules::generic`), chosen by trait
/// resolution on its operands' types.
pub fn generic_rule(name: &str, span: Span) -> TokenStream {
    let name = format_ident!("{}", name, span = span);
    quote_spanned!(span=> ::autograd::__private::rules::generic::#name)
}
