//! What a body may hold besides its computation: assertions, which the
//! forward sweep runs (once) and nothing differentiates, and `const`,
//! `static` and `use` items, which the generated code declares as the body
//! does.

use syn::punctuated::Punctuated;

use super::*;

/// The assertion macros a body may use.
pub(super) const ASSERTS: &[&str] = &[
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
];

/// Whether a macro is one of [`ASSERTS`] (by its last path segment, as
/// `std::assert!` is `assert!`).
pub(super) fn is_assert(mac: &syn::Macro) -> bool {
    mac.path
        .segments
        .last()
        .is_some_and(|s| ASSERTS.iter().any(|a| s.ident == a))
}

/// The variables a format string captures by name (`"{x}"`, `"{x:.3}"`).
fn inline_names(format: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut chars = format.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '{' {
            continue;
        }
        if chars.peek() == Some(&'{') {
            chars.next();
            continue;
        }
        let name: String = chars
            .by_ref()
            .take_while(|c| *c != '}' && *c != ':')
            .collect();
        let name = name.trim();
        let identifier = name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if identifier && !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    names
}

impl Lowerer<'_> {
    /// A macro in statement position: an assertion, kept as primal code
    /// the forward sweep runs as a statement (see `Op::is_effect`).
    pub(super) fn lower_macro_stmt(&mut self, mac: &syn::Macro, span: Span) {
        if !is_assert(mac) {
            self.cx
                .error_spanned_by(mac, super::expr::unsupported_macro(mac));
            return;
        }
        // A malformed assertion is rustc's to report, on the primal.
        let Ok(args) = mac.parse_body_with(Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        else {
            return;
        };
        let mut args: Vec<Expr> = args.into_iter().collect();
        let compared = if mac.path.segments.last().is_some_and(|s| {
            let s = s.ident.to_string();
            s.ends_with("_eq") || s.ends_with("_ne")
        }) {
            2
        } else {
            1
        };
        // A variable the message names inline (`"{x}"`) is passed by name,
        // so that the sweep's value of it is the one printed.
        if let Some(Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(format),
            ..
        })) = args.get(compared)
        {
            let format = format.clone();
            let mut named: Vec<String> = args
                .iter()
                .filter_map(|a| match a {
                    Expr::Assign(a) => Some(a.left.to_token_stream().to_string()),
                    _ => None,
                })
                .collect();
            for name in inline_names(&format.value()) {
                let ident = syn::Ident::new(&name, format.span());
                if !named.contains(&name) && self.lookup(&ident).is_some() {
                    args.push(syn::parse_quote!(#ident = #ident));
                    named.push(name);
                }
            }
        }
        let mut bindings = Vec::new();
        for a in &mut args {
            let value = match a {
                Expr::Assign(a) => &mut *a.right,
                e => e,
            };
            self.scopes.push(Vec::new());
            self.resolve_parts_in(value);
            self.placeholders_in(value, &mut bindings);
            self.scopes.pop();
        }
        let path = &mac.path;
        let expr: Expr = syn::parse_quote_spanned!(span=> #path!(#(#args),*));
        self.emit(Op::Primal { expr, bindings }, Kind::Bool, span);
    }

    /// An item in the body: `const`, `static` (not `mut`) and `use` items
    /// are kept for the generated code; others are not supported.
    pub(super) fn lower_item_stmt(&mut self, item: &syn::Item) {
        match item {
            syn::Item::Const(_) => self.body_items.push(item.clone()),
            // A name the rewritten body may no longer read (`use std::mem;`
            // for a `mem::swap` lowered as assignments) must not warn in
            // the generated functions.
            syn::Item::Use(u) => {
                let mut u = u.clone();
                u.attrs.push(syn::parse_quote!(#[allow(unused_imports)]));
                self.body_items.push(syn::Item::Use(u));
            }
            syn::Item::Static(s) if matches!(s.mutability, syn::StaticMutability::None) => {
                self.body_items.push(item.clone())
            }
            _ => self.cx.error_spanned_by(
                item,
                "items are not supported inside a `#[differentiable]` body but `const`, `static` and `use` ones; define them outside the function",
            ),
        }
    }
}

/// The generated functions declare the body's items once, at their top: an
/// item of an inner block whose name is read outside that block (a module
/// `const` of the same name) or declared again would change what those
/// reads mean. One error at each such item.
pub(crate) fn check_hoisted_items(cx: &Ctxt, body: &syn::Block) {
    #[derive(Default)]
    struct Scan {
        /// The blocks enclosing the visit, outermost first.
        stack: Vec<usize>,
        next: usize,
        /// Each item: its name and the block declaring it.
        items: Vec<(syn::Ident, usize)>,
        /// Each read of a bare name, and the blocks enclosing it.
        reads: Vec<(String, Vec<usize>)>,
    }
    impl<'ast> Visit<'ast> for Scan {
        fn visit_block(&mut self, b: &'ast syn::Block) {
            self.stack.push(self.next);
            self.next += 1;
            syn::visit::visit_block(self, b);
            self.stack.pop();
        }
        fn visit_item_const(&mut self, i: &'ast syn::ItemConst) {
            self.items
                .push((i.ident.clone(), *self.stack.last().unwrap_or(&0)));
            syn::visit::visit_item_const(self, i);
        }
        fn visit_item_static(&mut self, i: &'ast syn::ItemStatic) {
            self.items
                .push((i.ident.clone(), *self.stack.last().unwrap_or(&0)));
            syn::visit::visit_item_static(self, i);
        }
        fn visit_path(&mut self, p: &'ast syn::Path) {
            if let Some(first) = p.segments.first() {
                self.reads
                    .push((first.ident.to_string(), self.stack.clone()));
            }
            syn::visit::visit_path(self, p);
        }
    }
    let mut scan = Scan::default();
    scan.visit_block(body);
    for (k, (ident, block)) in scan.items.iter().enumerate() {
        if *block == 0 {
            continue;
        }
        let name = ident.to_string();
        let read_outside = scan
            .reads
            .iter()
            .any(|(r, stack)| *r == name && !stack.contains(block));
        let declared_again = scan
            .items
            .iter()
            .enumerate()
            .any(|(j, (other, _))| j != k && *other == name);
        if read_outside || declared_again {
            cx.error_spanned_by(
                ident,
                format!(
                    "the derivative code declares the body's items for the whole function, and `{name}` also names something outside this inner block; give this item another name, or declare it at the top of the function body"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::inline_names;

    #[test]
    fn inline_format_arguments_are_named_variables_only() {
        assert_eq!(
            inline_names("{x} {{y}} {0} {z:.3} {} {x} {w:>8}"),
            ["x", "z", "w"]
        );
    }
}
