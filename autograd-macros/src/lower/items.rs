//! Tuples and patterns. The IR has no tuple values: a tuple exists only
//! while lowering, as the values of its components. A name bound to a
//! tuple or to a window of `x.windows(k)` holds a value that stands for
//! the whole (see `Lowerer::aggregates`); `t.0`, `w[1]` and patterns
//! resolve to the components' own values.

use super::sequence::Sequence;
use super::*;

/// What an expression of the body denotes while lowering.
#[derive(Clone)]
pub(super) enum Item {
    /// One value: a float, an integer, a `bool`, a matrix.
    Value(Operand),
    /// `(a, b)`, each component an item.
    Tuple(Vec<Item>),
    /// A sequence read by index (a window of `windows(k)`).
    Seq(Sequence),
}

/// A literal index into a tuple or window: `t.0`, `w[1]`.
fn literal_index(e: &Expr) -> Option<usize> {
    match strip_parens(e) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) => i.base10_parse().ok(),
        _ => None,
    }
}

/// The type a reference type refers to (`&f64` is `f64`): an iterator's
/// item is a value here, whatever the closure's parameter type says.
pub(super) fn referent(ty: &syn::Type) -> &syn::Type {
    match ty {
        syn::Type::Reference(r) => referent(&r.elem),
        syn::Type::Paren(p) => referent(&p.elem),
        syn::Type::Group(g) => referent(&g.elem),
        ty => ty,
    }
}

impl Lowerer<'_> {
    /// The item an expression denotes, where it is a tuple or holds one
    /// (`(a, b)`, `t`, `t.1` of a nested tuple, `t.0`, a `fold` with a
    /// tuple accumulator); `None`, lowering nothing, for any other
    /// expression.
    pub(super) fn lower_item(&mut self, e: &Expr) -> Option<Item> {
        match strip_parens(e) {
            // `s.x` of a struct local.
            Expr::Field(f) if let Some(item) = self.record_field(f) => Some(item),
            Expr::Tuple(t) => Some(Item::Tuple(
                t.elems.iter().map(|e| self.lower_item_expr(e)).collect(),
            )),
            Expr::Call(c) => {
                let local = self.local_closure(&c.func)?;
                Some(self.inline_closure(local, c))
            }
            e @ Expr::Path(_) => {
                if let Some(tuple) = self.record_tuple(e) {
                    return Some(tuple);
                }
                let v = self.local_ident(e)?;
                self.aggregates.get(&v).cloned()
            }
            Expr::Field(f) => {
                let syn::Member::Unnamed(index) = &f.member else {
                    return None;
                };
                let components = match self.lower_item(&f.base)? {
                    Item::Tuple(components) => components,
                    _ => return None,
                };
                match components.get(index.index as usize) {
                    Some(c) => Some(c.clone()),
                    None => {
                        self.cx.error_spanned_by(
                            &f.member,
                            format!("this tuple has {} components", components.len()),
                        );
                        Some(Item::Value(self.missing(f.span())))
                    }
                }
            }
            Expr::Reference(_) => self.sub_slice_of(e).map(Item::Seq),
            // A `match` or an `if let` giving tuples, as its `if` chain.
            e @ (Expr::Match(_) | Expr::If(_))
                if self.yields_tuple(e)
                    && let Some(chain) = self.match_chain(e) =>
            {
                self.lower_item(&chain)
            }
            // `rest` of `let Some((a, rest)) = x.split_first()`.
            Expr::Match(m) => self.lower_end_rest(m).map(Item::Seq),
            Expr::Index(i) if matches!(strip_parens(&i.index), Expr::Range(_)) => {
                self.sub_slice_of(e).map(Item::Seq)
            }
            Expr::Index(i) => {
                let Item::Seq(seq) = self.lower_item(&i.expr)? else {
                    return None;
                };
                Some(Item::Value(self.window_element(&seq, &i.index)))
            }
            Expr::MethodCall(m) if self.is_iterator_fold(m) => Some(self.lower_fold(m)),
            // `if c { (a, b) } else { (u, v) }`, and a `match` giving tuples
            // (as its `if` chain): one φ per component.
            Expr::If(i) if self.yields_tuple(e) => Some(self.lower_if_tuple(i)),
            // `{ let t = ..; (acc + t, v) }`, a `fold` closure's body that
            // binds a part first (or a `match` binding its scrutinee before
            // its arms): the statements, then the tuple.
            Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                let (SynStmt::Expr(tail, None), rest) = b.block.stmts.split_last()? else {
                    return None;
                };
                if !self.yields_tuple(tail) {
                    return None;
                }
                self.scopes.push(Vec::new());
                self.lower_stmts(rest);
                self.nesting += 1;
                let item = self.lower_item_expr(tail);
                self.nesting -= 1;
                self.scopes.pop();
                Some(item)
            }
            _ => None,
        }
    }

    /// Any expression as an item.
    pub(super) fn lower_item_expr(&mut self, e: &Expr) -> Item {
        match self.lower_item(e) {
            Some(item) => item,
            None => Item::Value(self.lower_expr(e)),
        }
    }

    /// `w[k]` of a window: `k` a literal within its width, as the primal
    /// would otherwise panic where the sweeps read past the window.
    fn window_element(&mut self, seq: &Sequence, index: &Expr) -> Operand {
        let width = match seq {
            Sequence::Window { width, .. } => *width,
            // `s[i]` of a sub-slice: any index, checked as the primal's.
            Sequence::Sub { .. } => {
                let span = index.span();
                let index = self.lower_expr(index);
                return self.sub_slice_element(seq, index, span);
            }
            _ => usize::MAX,
        };
        match literal_index(index) {
            Some(k) if k < width => {
                let k = syn::LitInt::new(&k.to_string(), index.span()).into_token_stream();
                self.sequence_element(seq, Operand::Const(k), index.span())
            }
            Some(_) => {
                self.cx.error_spanned_by(
                    index,
                    format!("index out of the window: it has {width} elements"),
                );
                self.missing(index.span())
            }
            None => {
                self.cx.error_spanned_by(
                    index,
                    "a window is indexed by a literal, such as `w[0]`, `w[1]`; for a computed index, index the slice itself in an index loop",
                );
                self.missing(index.span())
            }
        }
    }

    /// A use of a tuple or window in a place that takes one value: its
    /// component, if `e` reads one (`t.0`, `w[1]`); an error if `e` names
    /// the whole. `None` where `e` reads no tuple or window.
    pub(super) fn lower_part(&mut self, e: &Expr) -> Option<Operand> {
        // A struct local is read by its fields, never whole.
        if matches!(e, Expr::Path(_))
            && let Some(whole) = self.lower_record_whole(e)
        {
            return Some(whole);
        }
        if self.aggregates.is_empty() && matches!(e, Expr::Path(_)) {
            return None;
        }
        match self.lower_item(e)? {
            Item::Value(o) => Some(o),
            Item::Tuple(_) => {
                self.cx.error_spanned_by(
                    e,
                    "a tuple is used as one value here; read its components (`t.0`) or bind them with `let (a, b) = ..;`",
                );
                Some(self.missing(e.span()))
            }
            Item::Seq(Sequence::Sub { .. }) => {
                self.cx.error_spanned_by(
                    e,
                    "a sub-slice is used as one value here; index it (`s[i]`), iterate over it, take its `len()` or pass it to a `#[differentiable]` function",
                );
                Some(self.missing(e.span()))
            }
            Item::Seq(_) => {
                self.cx.error_spanned_by(
                    e,
                    "a window is used as one value here; read its elements (`w[0]`) or iterate over it",
                );
                Some(self.missing(e.span()))
            }
        }
    }

    /// Binds a pattern (of a `let`, a `for` loop or a closure parameter) to
    /// an item; `ty` is the pattern's type where one was written.
    pub(super) fn bind_pattern(
        &mut self,
        pat: &Pat,
        item: Item,
        ty: Option<&syn::Type>,
        span: Span,
    ) {
        match (pat, item) {
            (Pat::Type(pt), item) => self.bind_pattern(&pt.pat, item, Some(&pt.ty), span),
            (Pat::Paren(p), item) => self.bind_pattern(&p.pat, item, ty, span),
            // References are values here: `&v` and `v` bind the element.
            (Pat::Reference(r), item) => self.bind_pattern(&r.pat, item, None, span),
            (Pat::Wild(_), _) => {}
            (Pat::Ident(pi), Item::Value(o)) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                let ty = ty.map(referent).cloned();
                self.bind_operand(Some(&pi.ident), pi.mutability.is_some(), ty, o, span);
            }
            (Pat::Ident(pi), Item::Tuple(items))
                if pi.mutability.is_some()
                    && pi.by_ref.is_none()
                    && pi.subpat.is_none()
                    && self.bind_tuple(&pi.ident, &items, ty.map(referent), span) => {}
            (Pat::Ident(pi), item) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                if pi.mutability.is_some() {
                    self.cx.error_spanned_by(
                        pi,
                        "a mutable tuple is bound from a tuple of values, `let mut t = (a, b);`; bind the components of this one to names, `let (mut a, mut b) = ..;`",
                    );
                }
                let whole = self.new_value(Kind::Unknown, Some(pi.ident.to_string()));
                self.aggregates.insert(whole, item);
                self.bind(&pi.ident, whole, false, None);
            }
            (Pat::Tuple(t), Item::Tuple(components))
                if t.elems.len() == components.len()
                    && !t.elems.iter().any(|p| matches!(p, Pat::Rest(_))) =>
            {
                let types: Vec<Option<&syn::Type>> = match ty.map(referent) {
                    Some(syn::Type::Tuple(tt)) if tt.elems.len() == components.len() => {
                        tt.elems.iter().map(Some).collect()
                    }
                    _ => vec![None; components.len()],
                };
                for ((p, c), t) in t.elems.iter().zip(components).zip(types) {
                    self.bind_pattern(p, c, t, span);
                }
            }
            // Elements read by constant index: a window's, or an array's
            // (whose length Rust checks against the pattern's).
            (Pat::Slice(s), Item::Seq(seq))
                if !s.elems.iter().any(|p| matches!(p, Pat::Rest(_)))
                    && match &seq {
                        Sequence::Window { width, .. } => *width == s.elems.len(),
                        _ => true,
                    } =>
            {
                for (k, p) in s.elems.iter().enumerate() {
                    if matches!(p, Pat::Wild(_)) {
                        continue;
                    }
                    let k = syn::LitInt::new(&k.to_string(), span).into_token_stream();
                    let element = self.sequence_element(&seq, Operand::Const(k), span);
                    self.bind_pattern(p, Item::Value(element), None, span);
                }
            }
            // An element of `#[constant] pairs: &[(f64, f64)]` in `for &(a,
            // b) in pairs`: the components of constant data.
            (Pat::Tuple(t), Item::Value(Operand::Value(v)))
                if self.is_data_tuple(v, t.elems.len()) =>
            {
                if let Some(components) = self.data_tuple(v, t.elems.len(), span) {
                    self.bind_pattern(pat, Item::Tuple(components), ty, span);
                }
            }
            // An element of a `const` array of tuples, `for &(a, b) in
            // EDGES.iter()`: its components, constants.
            (Pat::Tuple(t), Item::Value(o))
                if !t.elems.iter().any(|p| matches!(p, Pat::Rest(_)))
                    && match &o {
                        Operand::Const(_) => true,
                        Operand::Value(v) => self.constant_elements.contains(v),
                    } =>
            {
                let components = (0..t.elems.len())
                    .map(|k| {
                        let k = syn::Index::from(k);
                        Item::Value(match &o {
                            Operand::Const(c) => Operand::Const(quote!((#c).#k)),
                            Operand::Value(v) => {
                                let p = super::primal::placeholder(0, span);
                                let expr: Expr = syn::parse_quote!(#p.#k);
                                let bindings = vec![(p.to_string(), *v)];
                                Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Unknown, span))
                            }
                        })
                    })
                    .collect();
                self.bind_pattern(pat, Item::Tuple(components), ty, span);
            }
            // A value reported already: each name is bound to it, so that
            // their uses report nothing more.
            (Pat::Tuple(t), Item::Value(Operand::Value(v))) if self.missing.contains(&v) => {
                for p in &t.elems {
                    self.bind_pattern(p, Item::Value(Operand::Value(v)), None, span);
                }
            }
            (Pat::Tuple(_) | Pat::Slice(_), _) => self.cx.error_spanned_by(
                pat,
                "this pattern does not match the value's shape; bind each component to a name or `_`",
            ),
            (other, _) => self.cx.error_spanned_by(
                other,
                "unsupported pattern; bind a name, `_`, or a tuple of them such as `(a, b)`",
            ),
        }
    }
}
