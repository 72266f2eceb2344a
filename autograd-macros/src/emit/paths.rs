//! Paths into the facade crate: generated code names the runtime only
//! through `::autograd::__private`, so it compiles in any crate that
//! depends on `autograd` alone.

use proc_macro2::{Span, TokenStream, TokenTree};
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
    let rules = super::names::rules();
    match f.module {
        Module::Rules => quote_spanned!(span=> #rules::#name),
        Module::Generic => quote_spanned!(span=> #rules::generic::#name),
    }
}

/// `use ::autograd::__private::rules as __ad_rules;` for a function body
/// (or a closure's) that calls a rule by [`path`]; nothing for one that
/// does not, which the import would leave unused.
pub fn import_rules(body: &TokenStream) -> Option<TokenStream> {
    fn mentions(tokens: &TokenStream, name: &proc_macro2::Ident) -> bool {
        tokens.clone().into_iter().any(|t| match t {
            TokenTree::Ident(i) => i == *name,
            TokenTree::Group(g) => mentions(&g.stream(), name),
            _ => false,
        })
    }
    let rules = super::names::rules();
    mentions(body, &rules)
        .then(|| quote_spanned!(Span::mixed_site()=> use ::autograd::__private::rules as #rules;))
}
