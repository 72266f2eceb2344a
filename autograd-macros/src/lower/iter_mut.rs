//! `iter_mut()` of a local array or `Vec`: the index loop it is, whose
//! element writes the ordinary pipeline keeps.
//!
//! A walk over a local's elements, `for v in p.iter_mut()` or
//! `for (i, v) in p.iter_mut().enumerate()` and their `for_each` forms, is
//! lowered where it stands ([`Walk`], `Lowerer::lower_walk`): a loop over
//! `0..p.len()` whose element `v` is a value, read once from `p` where
//! the body reads it, and replaced by each write `*v = e` (`*v op= e`),
//! which also writes `p`'s element. Rust lets the body touch `p` only
//! through `v` while `iter_mut()` borrows it, so `v` is always its element.
//! The rows of a local array of arrays are walked so too
//! (`Lowerer::lower_rows_walk`): a loop over the rows' indices whose row
//! `row` is read only by its own walks (`row.iter_mut()`, as above, over
//! the flat array from the row's start) and its `len()`.
//!
//! The other forms are lowered as the index loop they are, made where the
//! lowerer meets the loop (`Lowerer::positions_loop`,
//! `Lowerer::positions_for_each`): a chain with `zip`, `rev`, `skip`,
//! `take` or `step_by`, a place other than a name (`g[r]`, `self.p`), and
//! the rows of an array of arrays whose elements the body walks by such a
//! chain, which the lowering of arrays of arrays (nested.rs) reads only by
//! element, `g[r][c]` (the inner loop, met in the outer one's body, is
//! then one over `g[row]`):
//!
//! ```text
//! for (r, &x) in res.iter_mut().zip(xs) { *r = x * w; }
//!     →   for (r, &x) in (0..res.len()).zip(xs) { res[r] = x * w; }
//! for row in g.iter_mut() { for v in row.iter_mut().rev() { *v = 1.0; } }
//!     →   for row in 0..g.len() { for v in (0..g[row].len()).rev() { g[row][v] = 1.0; } }
//! ```
//!
//! There the element's name becomes its index (or the counter of
//! `enumerate` does), the same binding, so no name is made up; `*v` and
//! `v.method(..)` become `p[v]`. Either way, any other use of the element
//! (`let w = v;`, `f(v)`) or a second binding of its name in the loop's
//! body is one error. The adapters kept are those that move positions only
//! (`enumerate`, `zip`, `rev`, `skip`, `take`, `step_by`); with any other
//! the chain is left as written, for the iterator error.

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::*;

impl Lowerer<'_> {
    /// A `for` loop over an `iter_mut()` chain that no [`Walk`] covers, as
    /// the loop over positions it is (see the module doc), to lower in its
    /// place; `None` for any other loop.
    pub(super) fn positions_loop(&mut self, f: &syn::ExprForLoop) -> Option<syn::ExprForLoop> {
        if walk(&f.expr, &f.pat, &|v| v.visit_block(&f.body)).is_some() {
            return None;
        }
        Rewrite { cx: self.cx }.for_loop(f)
    }

    /// `chain.for_each(|v| ..)` over an `iter_mut()` chain that no
    /// [`Walk`] covers, as the loop over positions it is; `None` for any
    /// other call.
    pub(super) fn positions_for_each(
        &mut self,
        m: &syn::ExprMethodCall,
    ) -> Option<syn::ExprForLoop> {
        if for_each_walk(m).is_some() {
            return None;
        }
        let mut rewrite = Rewrite { cx: self.cx };
        match rewrite.for_each(&Expr::MethodCall(m.clone()))? {
            Expr::ForLoop(f) => Some(f),
            _ => None,
        }
    }
}

/// Whether a body calls `iter_mut()` of `element` other than in a walk
/// (closures included).
#[derive(Default)]
pub(super) struct Finder {
    found: bool,
    element: Option<syn::Ident>,
}

impl Finder {
    fn of_element(&self, e: &Expr) -> bool {
        matches!(strip_parens(e), Expr::Path(p) if p.path.get_ident().is_some_and(|i| self.element.as_ref().is_some_and(|el| same_binding(el, i))))
    }
}

impl<'ast> Visit<'ast> for Finder {
    fn visit_expr(&mut self, e: &'ast Expr) {
        if self.element.is_some() {
            // The element's own walks are lowered (`Lowerer::lower_walk`).
            let walked = |w: &Walk| {
                self.of_element(&Expr::Path(syn::ExprPath {
                    attrs: Vec::new(),
                    qself: None,
                    path: w.array.clone().into(),
                }))
            };
            match e {
                Expr::ForLoop(f) if walk(&f.expr, &f.pat, &|_| {}).is_some_and(|w| walked(&w)) => {
                    return self.visit_block(&f.body);
                }
                Expr::MethodCall(m) if for_each_walk(m).is_some_and(|(w, _)| walked(&w)) => {
                    return self.visit_expr(&m.args[0]);
                }
                _ => {}
            }
        }
        syn::visit::visit_expr(self, e);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        if m.method == "iter_mut" && (self.element.is_none() || self.of_element(&m.receiver)) {
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

/// Said where the element of `iter_mut()` is used other than through `*v`
/// or as a method's receiver.
fn used_whole(ident: &syn::Ident) -> String {
    format!(
        "the element of `iter_mut()` is read and written here through `*{ident}` only; write `*{ident}`, or copy it first, `let x = *{ident};`"
    )
}

/// Said where the loop's body binds the element's name again.
fn bound_again(ident: &syn::Ident) -> String {
    format!(
        "`{ident}` names the element of `iter_mut()` in this loop; give this binding another name"
    )
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
                self.cx.error_spanned_by(&*e, used_whole(self.ident));
            }
            e => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    fn visit_pat_ident_mut(&mut self, p: &mut syn::PatIdent) {
        if same_binding(&p.ident, self.ident) {
            self.failed = true;
            self.cx.error_spanned_by(&p.ident, bound_again(self.ident));
        }
        syn::visit_mut::visit_pat_ident_mut(self, p);
    }

    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        crate::ir::visit_macro_args(mac, &mut |a| self.visit_expr_mut(a));
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// A walk over a local array's elements that lowering takes where it
/// stands: `for v in p.iter_mut()`, `for (i, v) in p.iter_mut().enumerate()`
/// (`_` for either), `p.iter_mut().for_each(|v| ..)` and its enumerated
/// form, `p` a local's name whose element's own `iter_mut()` the body calls
/// only in such walks (the rows of an array of arrays; any other chain on
/// a row is left to the rewrite above).
pub(super) struct Walk<'e> {
    /// The array walked.
    array: syn::Ident,
    /// The name of `enumerate`'s count.
    count: Option<syn::Ident>,
    /// The element's pattern.
    element: &'e Pat,
    span: Span,
}

/// `chain` walked with `pat` as a [`Walk`], `body` the loop's body.
pub(super) fn walk<'e>(
    chain: &'e Expr,
    pat: &'e Pat,
    body: &dyn Fn(&mut Finder),
) -> Option<Walk<'e>> {
    let pat = match pat {
        Pat::Paren(p) => &*p.pat,
        p => p,
    };
    let Expr::MethodCall(m) = strip_parens(chain) else {
        return None;
    };
    let (root, count, element) = if m.method == "enumerate" && m.args.is_empty() {
        let Pat::Tuple(t) = pat else { return None };
        let [count, element] = t.elems.iter().collect::<Vec<_>>()[..] else {
            return None;
        };
        let count = match count {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(pi.ident.clone()),
            Pat::Wild(_) => None,
            _ => return None,
        };
        let Expr::MethodCall(root) = strip_parens(&m.receiver) else {
            return None;
        };
        (root, count, element)
    } else {
        (m, None, pat)
    };
    if root.method != "iter_mut" || !root.args.is_empty() {
        return None;
    }
    let Expr::Path(p) = strip_parens(&root.receiver) else {
        return None;
    };
    let array = p.path.get_ident().filter(|_| p.qself.is_none())?.clone();
    // A row's elements walked in the body other than by a walk (with
    // `zip`, `rev`, ..): the rewrite above, which indexes them.
    if let Pat::Ident(pi) = element {
        let mut finder = Finder {
            found: false,
            element: Some(pi.ident.clone()),
        };
        body(&mut finder);
        if finder.found {
            return None;
        }
    }
    Some(Walk {
        array,
        count,
        element,
        span: root.method.span(),
    })
}

/// `chain.for_each(|pat| body)` as a [`Walk`] and its closure.
pub(super) fn for_each_walk(m: &syn::ExprMethodCall) -> Option<(Walk<'_>, &syn::ExprClosure)> {
    if m.method != "for_each" || m.args.len() != 1 {
        return None;
    }
    let Expr::Closure(c) = &m.args[0] else {
        return None;
    };
    let [input] = c.inputs.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    // `|v: &mut f64|`: the pattern without its type.
    let pat = match input {
        Pat::Type(t) => &*t.pat,
        p => p,
    };
    let w = walk(&m.receiver, pat, &|f| f.visit_expr(&c.body))?;
    Some((w, c))
}

/// The uses of a walk's element in its body: one error for each that is
/// not `*v` or `v.method(..)`, or that binds its name again; whether any
/// reads it.
struct Uses<'a> {
    cx: &'a Ctxt,
    ident: &'a syn::Ident,
    reads: bool,
    failed: bool,
}

impl Uses<'_> {
    fn is_element(&self, e: &Expr) -> bool {
        matches!(strip_parens(e), Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some_and(|i| same_binding(i, self.ident)))
    }

    fn is_deref(&self, e: &Expr) -> bool {
        matches!(strip_parens(e), Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) && self.is_element(&u.expr))
    }
}

impl<'ast> Visit<'ast> for Uses<'_> {
    fn visit_expr(&mut self, e: &'ast Expr) {
        match e {
            // `*v = e` writes without reading.
            Expr::Assign(a) if self.is_deref(&a.left) => self.visit_expr(&a.right),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) && self.is_element(&u.expr) => {
                self.reads = true;
            }
            Expr::MethodCall(m) if self.is_element(&m.receiver) => {
                self.reads = true;
                for a in &m.args {
                    self.visit_expr(a);
                }
            }
            e if self.is_element(e) => {
                self.failed = true;
                self.cx.error_spanned_by(e, used_whole(self.ident));
            }
            e => syn::visit::visit_expr(self, e),
        }
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        if same_binding(&p.ident, self.ident) {
            self.failed = true;
            self.cx.error_spanned_by(&p.ident, bound_again(self.ident));
        }
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        if let Ok(args) = mac
            .parse_body_with(syn::punctuated::Punctuated::<Expr, syn::Token![,]>::parse_terminated)
        {
            for a in &args {
                self.visit_expr(a);
            }
        }
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl Lowerer<'_> {
    /// A [`Walk`]: the index loop over the array's positions, its element
    /// bound to the element's value, read once where the body reads it,
    /// and written through `*v` (see [`Self::lower_element_assign`]).
    /// `syntax` is the body as written, `body` lowers it.
    pub(super) fn lower_walk(&mut self, w: Walk, syntax: &Expr, body: &mut dyn FnMut(&mut Self)) {
        let element = match w.element {
            Pat::Wild(_) => None,
            Pat::Ident(pi)
                if pi.by_ref.is_none() && pi.mutability.is_none() && pi.subpat.is_none() =>
            {
                Some(pi.ident.clone())
            }
            other => {
                self.cx.error_spanned_by(
                    other,
                    "bind the element of `iter_mut()` to a name and write it through `*v`, `for v in a.iter_mut() { *v = .. }`",
                );
                return;
            }
        };
        let target: Expr = Expr::Path(syn::ExprPath {
            attrs: Vec::new(),
            qself: None,
            path: w.array.clone().into(),
        });
        if let Some(shape) = self.nested_named(&target) {
            self.lower_rows_walk(&w, shape, element, syntax, body);
            return;
        }
        // A row of an array of arrays being walked: its elements.
        let row = self
            .rows_walked
            .iter()
            .rev()
            .find(|(r, _, _)| same_binding(r, &w.array))
            .cloned();
        let mut reads = false;
        if let Some(ident) = &element {
            let mut uses = Uses {
                cx: self.cx,
                ident,
                reads: false,
                failed: false,
            };
            uses.visit_expr(syntax);
            if uses.failed {
                return;
            }
            reads = uses.reads;
        }
        let span = w.span;
        // The array written, the elements' count, and where a row starts
        // in the flat array (its index times the width).
        let (array, len, row) = match row {
            Some((_, shape, r)) => {
                let cols = shape.cols();
                let len = self.lower_expr(&syn::parse_quote!((#cols)));
                (shape.name().clone(), len.clone(), Some((r, len)))
            }
            None => {
                let Some((array, value)) = self.written_array(&target, &target, "`iter_mut()`")
                else {
                    return;
                };
                let len = Operand::Value(self.emit(Op::Len { slice: value }, Kind::Int, span));
                (array, len, None)
            }
        };
        let name = w.count.as_ref().or(element.as_ref()).map(|i| i.to_string());
        let with_index = w.count.is_some() || element.is_some();
        self.lower_loop_with(None, span, |l| {
            let index = with_index.then(|| l.new_value(Kind::Int, name));
            if let (Some(count), Some(i)) = (&w.count, index) {
                l.bind(count, i, false, None);
            }
            // The element's position in the flat array: `r * cols + i`.
            let at = match (row, index) {
                (Some((r, cols)), Some(i)) => {
                    let start = l.int_rule(Operator::Mul, Operand::Value(r), cols, span);
                    Some(l.int_rule(
                        Operator::Add,
                        Operand::Value(start),
                        Operand::Value(i),
                        span,
                    ))
                }
                _ => index,
            };
            if let (Some(ident), Some(i)) = (&element, at) {
                if reads && let Some(current) = l.lookup(&array).map(|b| b.value) {
                    let read = l.slice_element(current, Operand::Value(i), ident.span());
                    let v = l.materialize(read, Kind::Float, ident.span());
                    l.bind(ident, v, true, None);
                }
                l.walked.push((ident.clone(), array.clone(), i));
            }
            body(l);
            if element.is_some() {
                l.walked.pop();
            }
            LoopHeader::Range {
                index,
                start: super::iter::int_const(0, span),
                end: len,
                inclusive: false,
                reversed: false,
            }
        });
    }

    /// `*v = rhs`, or `*v op= rhs` with the operator's rule and token, of
    /// the element of a walk: the array's element written, and `v` the
    /// value written; `false` if `target` is no walk's element.
    pub(super) fn lower_element_assign(
        &mut self,
        target: &Expr,
        compound: Option<(&'static Rule, TokenStream)>,
        rhs: &Expr,
        span: Span,
    ) -> bool {
        let Expr::Unary(u) = strip_parens(target) else {
            return false;
        };
        let Expr::Path(p) = strip_parens(&u.expr) else {
            return false;
        };
        let Some(found) = p.path.get_ident().and_then(|ident| {
            self.walked
                .iter()
                .rev()
                .find(|(e, _, _)| same_binding(e, ident))
                .cloned()
        }) else {
            return false;
        };
        if !matches!(u.op, UnOp::Deref(_)) {
            return false;
        }
        let (element, array, index) = found;
        let mut elem = self.lower_expr(rhs);
        if let Some((rule, token)) = compound {
            let old = match self.lookup(&element).map(|b| b.value) {
                Some(v) => Operand::Value(v),
                None => self.missing(span),
            };
            let args = vec![old, elem];
            let kind = self.result_kind(&args);
            elem = Operand::Value(self.emit(
                Op::Rule {
                    rule,
                    args,
                    syntax: Syntax::Operator(token),
                },
                kind,
                span,
            ));
        }
        let Some(place) = self.position(&array) else {
            return true;
        };
        let current = self.scopes[place.0][place.1].value;
        self.store_element(place, current, Operand::Value(index), elem.clone(), span);
        // `v` reads what was written (the array is not read otherwise
        // while `iter_mut()` borrows it).
        let Some(previous) = self.lookup(&element).map(|b| b.value) else {
            return true;
        };
        let value = match elem {
            Operand::Value(v) => v,
            // A literal takes the element's type, as the write does.
            c => {
                let float = self.values[previous].float.clone();
                let dst = self.new_value(Kind::Float, None);
                self.values[dst].float = float.clone();
                self.push(Stmt::Let {
                    dst,
                    op: Op::Copy(c),
                    span,
                    ty: float.map(|f| Box::new(syn::Type::Verbatim(f.into_token_stream()))),
                });
                dst
            }
        };
        if let Some(b) = self.lookup_mut(&element) {
            b.value = value;
        }
        true
    }
}

impl Lowerer<'_> {
    /// `p.iter_mut().for_each(|v| body)`: the loop it is, the closure's
    /// body its body; a `return` in the closure (the end of one item) is
    /// one error.
    pub(super) fn lower_for_each(&mut self, w: Walk, closure: &syn::ExprClosure) {
        let mut exits =
            super::exits::Finder::new(|e: &Expr| matches!(e, Expr::Return(_) | Expr::Try(_)));
        exits.visit_expr(&closure.body);
        if exits.found {
            self.cx.error_spanned_by(
                &closure.body,
                "a `return` or `?` in the closure of `iter_mut().for_each(..)` is not supported; write the `for` loop, `for v in a.iter_mut() { .. }`, with `continue`",
            );
            return;
        }
        let body = self.inline_body(closure);
        self.lower_walk(w, &closure.body, &mut |l| l.lower_stmt_expr(&body));
    }
}

/// The uses of the row of a walk over an array of arrays that are not the
/// walk of its elements (`row.iter_mut()`, with its adapters) or its
/// `len()`, with what to say at each; whether the body walks the row.
struct RowUses<'a> {
    ident: &'a syn::Ident,
    walks: bool,
    others: Vec<(Span, String)>,
}

impl<'ast> Visit<'ast> for RowUses<'_> {
    fn visit_expr(&mut self, e: &'ast Expr) {
        let is_row = |e: &Expr| matches!(strip_parens(e), Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some_and(|i| same_binding(i, self.ident)));
        match e {
            Expr::MethodCall(m)
                if is_row(&m.receiver) && m.args.is_empty() && m.method == "len" => {}
            Expr::MethodCall(m)
                if is_row(&m.receiver) && m.args.is_empty() && m.method == "iter_mut" =>
            {
                self.walks = true;
            }
            e if is_row(e) => self.others.push((e.span(), used_whole(self.ident))),
            e => syn::visit::visit_expr(self, e),
        }
    }

    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        if same_binding(&p.ident, self.ident) {
            self.others.push((p.ident.span(), bound_again(self.ident)));
        }
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

impl Lowerer<'_> {
    /// A [`Walk`] over the rows of an array of arrays (`for row in
    /// p.iter_mut()`, enumerated or by `for_each`): the loop over the rows'
    /// indices, in which each walk of the row's elements (`row.iter_mut()`)
    /// walks the flat array from the row's start (see `rows_walked`).
    fn lower_rows_walk(
        &mut self,
        w: &Walk,
        shape: super::nested::Shape,
        element: Option<syn::Ident>,
        syntax: &Expr,
        body: &mut dyn FnMut(&mut Self),
    ) {
        if let Some(ident) = &element {
            let mut uses = RowUses {
                ident,
                walks: false,
                others: Vec::new(),
            };
            uses.visit_expr(syntax);
            if !uses.others.is_empty() {
                if uses.walks {
                    // As the element of a walk is said.
                    for (span, message) in uses.others {
                        self.cx.error_at(span, message);
                    }
                } else {
                    // A row used as an array: the array of arrays is read by
                    // element.
                    self.nested_misused(&Expr::Path(syn::ExprPath {
                        attrs: Vec::new(),
                        qself: None,
                        path: w.array.clone().into(),
                    }));
                }
                return;
            }
        }
        let span = w.span;
        let rows = shape.rows();
        let rows = self.lower_expr(&syn::parse_quote!((#rows)));
        let name = w.count.as_ref().or(element.as_ref()).map(|i| i.to_string());
        self.lower_loop_with(None, span, |l| {
            let index = l.new_value(Kind::Int, name);
            if let Some(count) = &w.count {
                l.bind(count, index, false, None);
            }
            if let Some(ident) = &element {
                l.rows_walked.push((ident.clone(), shape.clone(), index));
            }
            body(l);
            if element.is_some() {
                l.rows_walked.pop();
            }
            LoopHeader::Range {
                index: Some(index),
                start: super::iter::int_const(0, span),
                end: rows,
                inclusive: false,
                reversed: false,
            }
        });
    }

    /// `a op b` of integers.
    fn int_rule(&mut self, op: Operator, a: Operand, b: Operand, span: Span) -> ValueId {
        let token = match op {
            Operator::Mul => quote!(*),
            _ => quote!(+),
        };
        self.emit(
            Op::Rule {
                rule: table::operator_rule(op),
                args: vec![a, b],
                syntax: Syntax::Operator(token),
            },
            Kind::Int,
            span,
        )
    }
}
