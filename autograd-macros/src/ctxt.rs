//! Error collection: lowering reports every unsupported construct in one
//! compile instead of stopping at the first; and `type_text`, a type as
//! the messages write it.

use std::cell::RefCell;
use std::fmt::Display;

use quote::ToTokens;

#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Vec<syn::Error>>,
}

impl Ctxt {
    /// Records an error spanning the given tokens.
    pub fn error_spanned_by<T: ToTokens, M: Display>(&self, tokens: T, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new_spanned(tokens.into_token_stream(), message));
    }

    /// Records an error at a span.
    pub fn error_at<M: Display>(&self, span: proc_macro2::Span, message: M) {
        self.errors
            .borrow_mut()
            .push(syn::Error::new(span, message));
    }

    pub fn has_errors(&self) -> bool {
        !self.errors.borrow().is_empty()
    }

    /// All errors as one, or `Ok` if there were none.
    pub fn check(self) -> Result<(), syn::Error> {
        let mut errors = self.errors.into_inner().into_iter();
        let Some(mut first) = errors.next() else {
            return Ok(());
        };
        for e in errors {
            first.combine(e);
        }
        Err(first)
    }
}

/// A type as a person writes it (`&[f64]`, not `& [f64]`), for messages.
pub fn type_text(ty: &syn::Type) -> String {
    let mut text = ty.to_token_stream().to_string();
    for (spaced, tight) in [
        (" < ", "<"),
        ("< ", "<"),
        (" >", ">"),
        ("& ", "&"),
        (" :: ", "::"),
        (":: ", "::"),
        ("[ ", "["),
        (" ]", "]"),
        (" ,", ","),
        ("' ", "'"),
    ] {
        text = text.replace(spaced, tight);
    }
    text
}
