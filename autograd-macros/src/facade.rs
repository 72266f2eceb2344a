//! The name under which the user's crate sees the facade crate.
//!
//! Generated code reaches the runtime through `::autograd::...` paths. A
//! user who renames the dependency (`ag = { package = "autograd", .. }`,
//! the way Cargo resolves name clashes) has no `::autograd`: the facade is
//! `::ag` there. The macros write `::autograd` throughout and rename the
//! leading segment once, on the way out, to the name the user's
//! `Cargo.toml` gives the package (read by `proc-macro-crate`, cached per
//! manifest).

use proc_macro2::{Group, Ident, Spacing, TokenStream, TokenTree};

/// The facade's package name, as a user's `Cargo.toml` names it.
const PACKAGE: &str = "autograd";

/// The facade's library name: the crate name of a dependency that is not
/// renamed (`[lib] name`, which may differ from the package's).
const LIBRARY: &str = "autograd";

/// `tokens` with every path that starts `::autograd` starting with the
/// user's name for the facade instead; unchanged where that name is
/// `autograd` or cannot be read (no Cargo manifest, the facade reached
/// through another crate), the paths then meaning what they always did.
pub fn rename(tokens: TokenStream) -> TokenStream {
    match user_name() {
        Some(name) => rename_in(tokens, &name),
        None => tokens,
    }
}

/// Whether the code expanded is the facade's own (its library, examples
/// and doctests), where `autograd` names the crate being compiled.
pub fn within_facade() -> bool {
    matches!(
        proc_macro_crate::crate_name(PACKAGE),
        Ok(proc_macro_crate::FoundCrate::Itself)
    )
}

/// The user's name for the facade where it is not `autograd`.
fn user_name() -> Option<String> {
    match proc_macro_crate::crate_name(PACKAGE) {
        // A dependency key equal to the package name is not a rename: its
        // crate is the library's name.
        Ok(proc_macro_crate::FoundCrate::Name(name))
            if name != PACKAGE.replace('-', "_") && name != LIBRARY =>
        {
            Some(name)
        }
        // `Itself`: the facade's own code, examples and doctests, where
        // `extern crate self as autograd` and the library name hold.
        _ => None,
    }
}

/// Renames the ident of each leading `::autograd` path segment (one that
/// follows `::` not itself preceded by a path segment), keeping its span.
fn rename_in(tokens: TokenStream, name: &str) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    for token in tokens {
        let token = match token {
            TokenTree::Group(group) => {
                let mut renamed = Group::new(group.delimiter(), rename_in(group.stream(), name));
                renamed.set_span(group.span());
                TokenTree::Group(renamed)
            }
            TokenTree::Ident(ident) if ident == LIBRARY && leading_path_separator(&out) => {
                TokenTree::Ident(Ident::new(name, ident.span()))
            }
            other => other,
        };
        out.push(token);
    }
    out.into_iter().collect()
}

/// Whether `before` ends in a `::` that starts a path: `::` after anything
/// but a path segment (`a::autograd` is a path inside `a`; a keyword such
/// as `use`, `mut` or `dyn` ends no path). After a `>` it starts one too
/// (`impl<T> ::autograd::Trait for ..`, `-> ::autograd::X`): an item named
/// `autograd` of a qualified type (`<T as Tr>::autograd`) is not one the
/// macros write.
fn leading_path_separator(before: &[TokenTree]) -> bool {
    let n = before.len();
    let separator = n >= 2
        && matches!(&before[n - 2], TokenTree::Punct(p) if p.as_char() == ':' && p.spacing() == Spacing::Joint)
        && matches!(&before[n - 1], TokenTree::Punct(p) if p.as_char() == ':');
    separator
        && match n.checked_sub(3).map(|i| &before[i]) {
            Some(TokenTree::Ident(ident)) => KEYWORDS.contains(&ident.to_string().as_str()),
            _ => true,
        }
}

/// The keywords a path may follow (`crate`, `self`, `super` and `Self` are
/// path segments themselves).
const KEYWORDS: &[&str] = &[
    "as", "async", "await", "box", "break", "const", "continue", "dyn", "else", "enum", "extern",
    "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "static", "struct", "trait", "type", "unsafe", "use", "where", "while", "yield",
];

#[cfg(test)]
mod tests {
    use super::rename_in;
    use quote::quote;

    #[test]
    fn renames_leading_facade_paths_only() {
        let tokens = quote! {
            use ::autograd::__private::rules as r;
            let v = ::autograd::stop_gradient(x) + m::autograd::f(y);
            fn g() -> ::autograd::GradientCheck { impl<T> ::autograd::Tr for S {} }
            let r: &mut ::autograd::Stack = match k { _ => ::autograd::y, };
        };
        let expected = quote! {
            use ::ag::__private::rules as r;
            let v = ::ag::stop_gradient(x) + m::autograd::f(y);
            fn g() -> ::ag::GradientCheck { impl<T> ::ag::Tr for S {} }
            let r: &mut ::ag::Stack = match k { _ => ::ag::y, };
        };
        assert_eq!(rename_in(tokens, "ag").to_string(), expected.to_string());
    }
}
