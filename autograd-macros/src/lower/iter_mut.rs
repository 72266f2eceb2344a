//! `iter_mut()` of a local array or `Vec`, rewritten before lowering into
//! the index loop it is, whose element writes the ordinary pipeline keeps:
//!
//! ```text
//! for v in p.iter_mut() { *v = (*v - m).exp(); }
//!     →   for v in 0..p.len() { p[v] = (p[v] - m).exp(); }
//! for (i, d) in df.iter_mut().enumerate() { *d = f(i); }
//!     →   for i in 0..df.len() { df[i] = f(i); }
//! for (r, &x) in res.iter_mut().zip(xs) { *r = x * w; }
//!     →   for (r, &x) in (0..res.len()).zip(xs) { res[r] = x * w; }
//! u.iter_mut().for_each(|v| *v *= 2.0);
//!     →   for v in 0..u.len() { u[v] *= 2.0; }
//! ```
//!
//! The element's name becomes its index (or the counter of `enumerate`
//! does), the same binding, so no name is made up; `*v` and
//! `v.method(..)` become `p[v]`. Any other use of the
//! element (`let w = v;`, `f(v)`) or a second binding of its name in the
//! loop's body is one error, since the name then no longer means the
//! element. The adapters kept are those that move positions only
//! (`enumerate`, `zip`, `rev`, `skip`, `take`, `step_by`); with any other
//! the chain is left as written, for the iterator error.

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::*;

/// The rewritten body; `None` if it iterates no `iter_mut()`.
pub(super) fn desugar(cx: &Ctxt, body: &syn::Block) -> Option<syn::Block> {
    let mut finder = Finder::default();
    finder.visit_block(body);
    if !finder.found {
        return None;
    }
    let mut body = body.clone();
    let mut rewrite = Rewrite { cx, changed: false };
    rewrite.visit_block_mut(&mut body);
    rewrite.changed.then_some(body)
}

/// Whether a body calls `iter_mut()` anywhere (closures included).
#[derive(Default)]
struct Finder {
    found: bool,
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if m.method == "iter_mut" {
            self.found = true;
        }
        syn::visit::visit_expr_method_call(self, m);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

/// A chain with its `iter_mut()` replaced by the range of its positions.
struct Positions {
    chain: Expr,
    /// Where the element is in the chain's item: the components to take,
    /// outermost first (`(i, v)` of `enumerate` is `[1]`).
    path: Vec<usize>,
    /// The array or `Vec` iterated (`p`, `grid[r]`).
    place: Expr,
}

/// `p`, `self.p`, `grid[r]`: an expression naming a place without
/// computing anything but an index, so that it may be written once per
/// element.
fn is_place(e: &Expr) -> bool {
    match e {
        Expr::Path(p) => p.qself.is_none() && p.path.get_ident().is_some(),
        Expr::Paren(p) => is_place(&p.expr),
        Expr::Field(f) => is_place(&f.base),
        Expr::Index(i) => is_place(&i.expr) && matches!(&*i.index, Expr::Path(_) | Expr::Lit(_)),
        _ => false,
    }
}

/// `chain` with its `iter_mut()` (at its root, or at the root of a `zip`'s
/// argument) iterating positions instead; `None` if it has none or an
/// adapter that does not keep positions.
fn positions(chain: &Expr) -> Option<Positions> {
    let Expr::MethodCall(m) = strip_parens(chain) else {
        return None;
    };
    let name = m.method.to_string();
    match name.as_str() {
        "iter_mut" if m.args.is_empty() && is_place(&m.receiver) => {
            let place = strip_parens(&m.receiver).clone();
            let span = m.method.span();
            Some(Positions {
                chain: syn::parse_quote_spanned!(span=> (0..#place.len())),
                path: Vec::new(),
                place,
            })
        }
        "enumerate" | "rev" | "skip" | "take" | "step_by" => {
            let mut inner = positions(&m.receiver)?;
            let mut call = m.clone();
            call.receiver = Box::new(inner.chain);
            inner.chain = Expr::MethodCall(call);
            if name == "enumerate" {
                inner.path.insert(0, 1);
            }
            Some(inner)
        }
        "zip" if m.args.len() == 1 => {
            let mut call = m.clone();
            let mut found = if let Some(inner) = positions(&m.receiver) {
                call.receiver = Box::new(inner.chain.clone());
                (inner, 0)
            } else {
                let inner = positions(&m.args[0])?;
                call.args[0] = inner.chain.clone();
                (inner, 1)
            };
            found.0.path.insert(0, found.1);
            found.0.chain = Expr::MethodCall(call);
            Some(found.0)
        }
        _ => None,
    }
}

/// The sub-pattern at `path` of `pat`.
fn element_pattern<'p>(pat: &'p mut Pat, path: &[usize]) -> Option<&'p mut Pat> {
    match pat {
        Pat::Paren(p) => element_pattern(&mut p.pat, path),
        pat if path.is_empty() => Some(pat),
        Pat::Tuple(t) if t.elems.len() == 2 => element_pattern(&mut t.elems[path[0]], &path[1..]),
        _ => None,
    }
}

struct Rewrite<'a> {
    cx: &'a Ctxt,
    changed: bool,
}

impl Rewrite<'_> {
    /// `for pat in chain { body }` with `iter_mut()` in `chain`: the loop
    /// over positions, or `None` (left as written).
    fn for_loop(&mut self, f: &syn::ExprForLoop) -> Option<syn::ExprForLoop> {
        if let Some(looped) = self.enumerated(f) {
            return looped;
        }
        let found = positions(&f.expr)?;
        let mut looped = f.clone();
        looped.expr = Box::new(match found.path.is_empty() {
            // The range itself, as an index loop is written (what a
            // nested array's column check knows).
            true => strip_parens(&found.chain).clone(),
            false => found.chain,
        });
        let Some(element) = element_pattern(&mut looped.pat, &found.path) else {
            self.cx.error_spanned_by(
                &f.pat,
                "this pattern does not match the iterator's items; bind the element of `iter_mut()` to a name, `for (i, v) in a.iter_mut().enumerate()`",
            );
            return None;
        };
        let ident = match element {
            Pat::Wild(_) => return Some(looped),
            Pat::Ident(pi)
                if pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none() =>
            {
                pi.ident.clone()
            }
            other => {
                self.cx.error_spanned_by(
                    &*other,
                    "bind the element of `iter_mut()` to a name and write it through `*v`, `for v in a.iter_mut() { *v = .. }`",
                );
                return None;
            }
        };
        Some(self.elements(looped, &ident, &ident, &found.place))
    }

    /// `for (i, v) in a.iter_mut().enumerate()`: the loop `for i in
    /// 0..a.len()` writing `a[i]`; `None` for any other loop.
    fn enumerated(&mut self, f: &syn::ExprForLoop) -> Option<Option<syn::ExprForLoop>> {
        let Expr::MethodCall(m) = strip_parens(&f.expr) else {
            return None;
        };
        let Expr::MethodCall(root) = strip_parens(&m.receiver) else {
            return None;
        };
        let (Pat::Tuple(t), true, true) = (
            &*f.pat,
            m.method == "enumerate" && m.args.is_empty(),
            root.method == "iter_mut" && root.args.is_empty() && is_place(&root.receiver),
        ) else {
            return None;
        };
        let plain = |p: &Pat| match p {
            Pat::Ident(pi)
                if pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none() =>
            {
                Some(pi.ident.clone())
            }
            _ => None,
        };
        let (index, element) = match (
            t.elems.len(),
            t.elems.first().and_then(plain),
            t.elems.last().and_then(plain),
        ) {
            (2, Some(i), Some(v)) => (i, v),
            (2, None, Some(v)) if matches!(t.elems[0], Pat::Wild(_)) => (v.clone(), v),
            _ => return None,
        };
        let place = strip_parens(&root.receiver).clone();
        let mut looped = f.clone();
        let span = root.method.span();
        looped.expr = Box::new(syn::parse_quote_spanned!(span=> 0..#place.len()));
        looped.pat = Box::new(Pat::Ident(syn::PatIdent {
            attrs: Vec::new(),
            by_ref: None,
            mutability: None,
            ident: index.clone(),
            subpat: None,
        }));
        Some(Some(self.elements(looped, &element, &index, &place)))
    }

    /// `looped` with the element named `element` written as `place[index]`
    /// in its body; after an error, with an empty body.
    fn elements(
        &mut self,
        mut looped: syn::ExprForLoop,
        element: &syn::Ident,
        index: &syn::Ident,
        place: &Expr,
    ) -> syn::ExprForLoop {
        let mut elements = Elements {
            cx: self.cx,
            ident: element,
            index,
            place,
            failed: false,
        };
        elements.visit_block_mut(&mut looped.body);
        if elements.failed {
            // The error is said: an empty loop, so that nothing else
            // reports the element or the `iter_mut()` again.
            looped.body.stmts.clear();
        }
        looped
    }

    /// `chain.for_each(|pat| body)` with `iter_mut()` in `chain`, as the
    /// `for` loop it is; `None` for any other call.
    fn for_each(&mut self, e: &Expr) -> Option<Expr> {
        let Expr::MethodCall(m) = strip_parens(e) else {
            return None;
        };
        if m.method != "for_each" || m.args.len() != 1 {
            return None;
        }
        let Expr::Closure(c) = &m.args[0] else {
            return None;
        };
        positions(&m.receiver)?;
        if c.inputs.len() != 1 {
            return None;
        }
        // A `return` in the closure ends one item, not the function.
        let mut exits =
            super::exits::Finder::new(|e: &Expr| matches!(e, Expr::Return(_) | Expr::Try(_)));
        exits.visit_expr(&c.body);
        // `|v: &mut f64|`: a `for` pattern takes no type.
        let pat = match &c.inputs[0] {
            Pat::Type(t) => &*t.pat,
            p => p,
        };
        let chain = &m.receiver;
        let body = &c.body;
        let mut f: syn::ExprForLoop =
            syn::parse_quote_spanned!(m.method.span()=> for #pat in #chain { #body; });
        if exits.found {
            self.cx.error_spanned_by(
                &c.body,
                "a `return` or `?` in the closure of `iter_mut().for_each(..)` is not supported; write the `for` loop, `for v in a.iter_mut() { .. }`, with `continue`",
            );
            f.body.stmts.clear();
        }
        self.for_loop(&f).map(Expr::ForLoop)
    }
}

impl VisitMut for Rewrite<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        let looped = match &*e {
            Expr::ForLoop(f) => self.for_loop(f).map(Expr::ForLoop),
            e => self.for_each(e),
        };
        if let Some(looped) = looped {
            *e = looped;
            self.changed = true;
        }
        // Inner loops, over the rows this one names (`row.iter_mut()` is
        // now `grid[row].iter_mut()`).
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// Rewrites the element's uses in a loop's body into the place's element.
struct Elements<'a> {
    cx: &'a Ctxt,
    /// The element's name.
    ident: &'a syn::Ident,
    /// Its position's: the same name, or the counter of `enumerate`.
    index: &'a syn::Ident,
    place: &'a Expr,
    failed: bool,
}

impl Elements<'_> {
    fn is_element(&self, e: &Expr) -> bool {
        matches!(strip_parens(e), Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some_and(|i| same_binding(i, self.ident)))
    }

    fn element(&self) -> Expr {
        let (place, index) = (self.place, self.index);
        syn::parse_quote_spanned!(self.ident.span()=> #place[#index])
    }
}

impl VisitMut for Elements<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) && self.is_element(&u.expr) => {
                *e = self.element();
            }
            Expr::MethodCall(m) if self.is_element(&m.receiver) => {
                *m.receiver = self.element();
                for a in m.args.iter_mut() {
                    self.visit_expr_mut(a);
                }
            }
            e if self.is_element(e) => {
                self.failed = true;
                self.cx.error_spanned_by(
                    &*e,
                    format!(
                        "the element of `iter_mut()` is read and written here through `*{0}` only; write `*{0}`, or copy it first, `let x = *{0};`",
                        self.ident
                    ),
                );
            }
            e => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
        if same_binding(&p.ident, self.ident) {
            self.failed = true;
            self.cx.error_spanned_by(
                &p.ident,
                format!(
                    "`{}` names the element of `iter_mut()` in this loop; give this binding another name",
                    self.ident
                ),
            );
        }
        syn::visit_mut::visit_pat_ident_mut(self, p);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        crate::ir::visit_macro_args(mac, &mut |a| self.visit_expr_mut(a));
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
