//! Control flow: `if` (with its φ-nodes), `for` over ranges, `while`,
//! the short-circuit operators, and `#[cfg]` statements as branches
//! decided at compile time.

use super::*;

/// The attributes of a statement, where it has them.
pub(super) fn stmt_attrs(stmt: &SynStmt) -> Option<&Vec<syn::Attribute>> {
    match stmt {
        SynStmt::Local(l) => Some(&l.attrs),
        SynStmt::Macro(m) => Some(&m.attrs),
        SynStmt::Expr(e, _) => expr_attrs(e),
        SynStmt::Item(_) => None,
    }
}

pub(super) fn stmt_attrs_mut(stmt: &mut SynStmt) -> Option<&mut Vec<syn::Attribute>> {
    match stmt {
        SynStmt::Local(l) => Some(&mut l.attrs),
        SynStmt::Macro(m) => Some(&mut m.attrs),
        SynStmt::Expr(e, _) => expr_attrs_mut(e),
        SynStmt::Item(_) => None,
    }
}

/// The predicate of `#[cfg(..)]` attributes (all of them, if several),
/// or `None` without one. `#[cfg_attr(P, cfg(Q))]` keeps the statement
/// where P implies Q, which is `cfg(any(not(P), Q))`: rewritten, never
/// evaluated (nested `cfg_attr`s conjoin their predicates).
pub(super) fn cfg_predicate(cx: &Ctxt, attrs: &[syn::Attribute]) -> Option<TokenStream> {
    let mut predicates = Vec::new();
    for a in attrs {
        added_cfgs(cx, &a.meta, None, &mut predicates);
    }
    match predicates.len() {
        0 => None,
        1 => predicates.pop(),
        _ => Some(quote!(all(#(#predicates),*))),
    }
}

/// The `cfg` predicates `meta` adds where `guard` (the enclosing
/// `cfg_attr`s' predicates) holds.
fn added_cfgs(
    cx: &Ctxt,
    meta: &syn::Meta,
    guard: Option<&TokenStream>,
    out: &mut Vec<TokenStream>,
) {
    if meta.path().is_ident("cfg") {
        match meta.require_list() {
            Ok(list) => {
                let q = &list.tokens;
                out.push(match guard {
                    Some(g) => quote!(any(not(#g), #q)),
                    None => q.clone(),
                });
            }
            Err(e) => cx.error_at(e.span(), e),
        }
    } else if let Some((p, metas)) = crate::sig::cfg_attr_parts(meta) {
        let inner = match guard {
            Some(g) => quote!(all(#g, #p)),
            None => p.to_token_stream(),
        };
        for m in &metas {
            added_cfgs(cx, m, Some(&inner), out);
        }
    }
}

/// `attrs` without what adds `cfg`: `cfg` itself dropped, a `cfg_attr`
/// keeping its other attributes (its predicate is in [`cfg_predicate`]'s).
pub(super) fn strip_cfgs(attrs: &mut Vec<syn::Attribute>) {
    attrs.retain_mut(|a| match without_cfg(&a.meta) {
        Some(meta) => {
            a.meta = meta;
            true
        }
        None => false,
    });
}

fn without_cfg(meta: &syn::Meta) -> Option<syn::Meta> {
    if meta.path().is_ident("cfg") {
        return None;
    }
    let Some((p, metas)) = crate::sig::cfg_attr_parts(meta) else {
        return Some(meta.clone());
    };
    let kept: Vec<syn::Meta> = metas.iter().filter_map(without_cfg).collect();
    (!kept.is_empty()).then(|| syn::parse_quote!(cfg_attr(#p, #(#kept),*)))
}

/// Whether an attribute is `cfg`, or `cfg_attr` that may add one.
pub(super) fn adds_cfg(meta: &syn::Meta) -> bool {
    meta.path().is_ident("cfg")
        || crate::sig::cfg_attr_parts(meta).is_some_and(|(_, metas)| metas.iter().any(adds_cfg))
}

/// The predicate of a condition `::core::cfg!(P)`, which the lowering of
/// a `match` with `#[cfg]` arms writes: a branch decided at compile time,
/// emitted as its arms under `#[cfg(P)]` and `#[cfg(not(P))]` (so code
/// that exists in one configuration only is compiled in that one only).
pub(super) fn cfg_condition(cond: &Expr) -> Option<TokenStream> {
    let Expr::Macro(m) = cond else {
        return None;
    };
    let path = &m.mac.path;
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    (path.leading_colon.is_some() && names == ["core", "cfg"]).then(|| m.mac.tokens.clone())
}

/// The outer attributes of an expression statement: syn puts a
/// statement's attributes on its expression (`#[cfg(..)] return v;`,
/// `#[cfg(..)] break;`), of whichever kind it is.
macro_rules! expr_attrs {
    ($($variant:ident),*) => {
        fn expr_attrs(e: &Expr) -> Option<&Vec<syn::Attribute>> {
            match e {
                $(Expr::$variant(x) => Some(&x.attrs),)*
                _ => None,
            }
        }

        fn expr_attrs_mut(e: &mut Expr) -> Option<&mut Vec<syn::Attribute>> {
            match e {
                $(Expr::$variant(x) => Some(&mut x.attrs),)*
                _ => None,
            }
        }
    };
}

expr_attrs!(
    Array, Assign, Async, Await, Binary, Block, Break, Call, Cast, Closure, Const, Continue, Field,
    ForLoop, Group, If, Index, Infer, Let, Lit, Loop, Macro, Match, MethodCall, Paren, Path, Range,
    RawAddr, Reference, Repeat, Return, Struct, Try, TryBlock, Tuple, Unary, Unsafe, While, Yield
);

/// Whether two branches' items (materialized) are of one shape: values,
/// or tuples of as many components of one shape. A sub-slice is chosen
/// at run time by neither (see `chooses_sub_slice`).
fn same_shape(a: &Item, b: &Item) -> bool {
    match (a, b) {
        (Item::Value(_), Item::Value(_)) => true,
        (Item::Tuple(a), Item::Tuple(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(a, b)| same_shape(a, b))
        }
        _ => false,
    }
}

/// Replaces every read of a key of `map` with its value.
fn substitute(v: &mut ValueId, map: &HashMap<ValueId, ValueId>) {
    if let Some(n) = map.get(v) {
        *v = *n;
    }
}

impl Lowerer<'_> {
    pub(super) fn lower_if(&mut self, i: &syn::ExprIf, want_value: bool) -> Operand {
        match self.lower_if_of(i, want_value, false) {
            Item::Value(value) => value,
            // Tuples are not looked for.
            _ => self.missing(i.span()),
        }
    }

    /// An `if` whose value is a tuple (`if c { (a, b) } else { (u, v) }`,
    /// and a `match` giving tuples, as its `if` chain): one φ per
    /// component.
    pub(super) fn lower_if_tuple(&mut self, i: &syn::ExprIf) -> Item {
        self.lower_if_of(i, true, true)
    }

    /// An `if`, its branches' values tuples where `tuples` (see
    /// [`Self::lower_block_item`]), one value otherwise.
    fn lower_if_of(&mut self, i: &syn::ExprIf, want_value: bool, tuples: bool) -> Item {
        // The type expected of the `if`'s value is each branch's.
        let expected = self.expected.take();
        if let Expr::Let(l) = &*i.cond {
            self.cx
                .error_spanned_by(l, "`if let` is not supported; compare values instead");
            return Item::Value(self.missing(i.span()));
        }
        let predicate = cfg_condition(&i.cond);
        let cond = match &predicate {
            Some(p) => Operand::Const(quote!(::core::cfg!(#p))),
            None => self.lower_expr(&i.cond),
        };
        let then_expected = expected.clone();
        let then = |l: &mut Self| {
            l.expected = then_expected;
            l.lower_block_item(&i.then_branch.stmts, tuples)
        };
        let otherwise = |l: &mut Self| match &i.else_branch {
            None => None,
            Some((_, e)) => match &**e {
                Expr::Block(b) => {
                    l.expected = expected;
                    l.lower_block_item(&b.block.stmts, tuples)
                }
                Expr::If(nested) => {
                    l.expected = expected;
                    Some(l.lower_if_of(nested, want_value, tuples))
                }
                other if tuples => Some(l.lower_item_expr(other)),
                other => Some(Item::Value(l.lower_expr(other))),
            },
        };
        let else_span = i.else_branch.as_ref().map_or(i.span(), |(_, e)| e.span());
        match self.lower_branches(
            cond,
            predicate,
            want_value,
            (i.then_branch.span(), then),
            (else_span, otherwise),
        ) {
            Ok(Some(item)) => item,
            Ok(None) => Item::Value(Operand::Const(quote!(()))),
            Err(()) => {
                self.cx.error_spanned_by(
                    i,
                    if tuples {
                        "an `if` or `match` giving a tuple needs a value of the same shape from every branch, `(a, b)` in each"
                    } else {
                        "an `if` used as a value needs an `else` branch, and both branches need a value"
                    },
                );
                Item::Value(self.missing(i.span()))
            }
        }
    }

    /// A block's value: a tuple (see [`Self::lower_item`]) where `tuples`
    /// and its tail gives one, otherwise the value of its tail, if any.
    fn lower_block_item(&mut self, stmts: &[SynStmt], tuples: bool) -> Option<Item> {
        if tuples
            && let Some((SynStmt::Expr(tail, None), rest)) = stmts.split_last()
            && self.yields_tuple(tail)
        {
            self.lower_stmts(rest);
            self.nesting += 1;
            let item = self.lower_item_expr(tail);
            self.nesting -= 1;
            return Some(item);
        }
        self.lower_stmts(stmts).map(Item::Value)
    }

    /// Whether an expression's value is a tuple, as its syntax (or the
    /// name it reads) shows: a tuple expression, a tuple bound by name, or
    /// an `if` or block with one at a branch's end.
    pub(super) fn yields_tuple(&self, e: &Expr) -> bool {
        let block = |b: &syn::Block| matches!(b.stmts.last(), Some(SynStmt::Expr(tail, None)) if self.yields_tuple(tail));
        match strip_parens(e) {
            Expr::Tuple(t) => !t.elems.is_empty(),
            Expr::If(i) => {
                block(&i.then_branch)
                    || i.else_branch
                        .as_ref()
                        .is_some_and(|(_, e)| self.yields_tuple(e))
            }
            Expr::Block(b) => b.label.is_none() && block(&b.block),
            // Lowered as its `if` chain, of the arms' values.
            Expr::Match(m) => m.arms.iter().any(|a| self.yields_tuple(&a.body)),
            e @ Expr::Path(_) => self
                .local_ident(e)
                .is_some_and(|v| matches!(self.aggregates.get(&v), Some(Item::Tuple(_)))),
            _ => false,
        }
    }

    /// Two branches on `cond` (decided at compile time where `predicate`
    /// is a `cfg` predicate), each lowered by its closure in a block and a
    /// scope of its own, its value materialized there; the `If` is pushed
    /// with a φ for each variable either branch assigns and, where
    /// `want_value`, one for each value of the branches' items, which must
    /// have one shape. `Ok(None)` without `want_value`; `Err` where a
    /// branch has no value or the shapes differ (the `If` pushed still).
    pub(super) fn lower_branches(
        &mut self,
        cond: Operand,
        predicate: Option<TokenStream>,
        want_value: bool,
        (then_span, then): (Span, impl FnOnce(&mut Self) -> Option<Item>),
        (else_span, otherwise): (Span, impl FnOnce(&mut Self) -> Option<Item>),
    ) -> Result<Option<Item>, ()> {
        let before = self.snapshot();

        self.begin_block();
        self.scopes.push(Vec::new());
        self.enter_cfg(predicate.as_ref(), true);
        let then_item = then(self);
        self.leave_cfg(predicate.as_ref());
        self.scopes.pop();
        let then_item = then_item.map(|t| self.materialize_item(t, then_span));
        let then_blk = self.end_block();
        let after_then = self.snapshot();
        self.restore(&before);

        self.begin_block();
        self.scopes.push(Vec::new());
        self.enter_cfg(predicate.as_ref(), false);
        let else_item = otherwise(self);
        self.leave_cfg(predicate.as_ref());
        self.scopes.pop();
        let else_item = else_item.map(|t| self.materialize_item(t, else_span));
        let else_blk = self.end_block();
        let after_else = self.snapshot();

        let mut phis = self.assignment_phis(&before, &after_then, &after_else);
        let result = match (want_value, then_item, else_item) {
            (true, Some(t), Some(e)) if same_shape(&t, &e) => {
                Ok(Some(self.join_items(t, e, &mut phis)))
            }
            (true, _, _) => Err(()),
            (false, _, _) => Ok(None),
        };
        self.push(Stmt::If(If {
            cond,
            then_blk,
            else_blk,
            phis,
            cfg: predicate,
        }));
        result
    }

    /// Each value of a branch's item bound in the branch's block.
    fn materialize_item(&mut self, item: Item, span: Span) -> Item {
        match item {
            Item::Value(o) => {
                let kind = self.kind(&o).unwrap_or(Kind::Float);
                Item::Value(Operand::Value(self.materialize(o, kind, span)))
            }
            Item::Tuple(items) => Item::Tuple(
                items
                    .into_iter()
                    .map(|i| self.materialize_item(i, span))
                    .collect(),
            ),
            seq @ Item::Seq(_) => seq,
        }
    }

    /// The item after two branches of one shape: a φ per value.
    fn join_items(&mut self, then: Item, otherwise: Item, phis: &mut Vec<Phi>) -> Item {
        match (then, otherwise) {
            (Item::Value(Operand::Value(t)), Item::Value(Operand::Value(e))) => {
                let kind = self.values[t].kind;
                let dst = self.new_value(kind, None);
                self.values[dst].float = self.phi_float(t, e);
                phis.push(Phi {
                    dst,
                    then_src: t,
                    else_src: e,
                });
                Item::Value(Operand::Value(dst))
            }
            (Item::Tuple(t), Item::Tuple(e)) => Item::Tuple(
                t.into_iter()
                    .zip(e)
                    .map(|(t, e)| self.join_items(t, e, phis))
                    .collect(),
            ),
            // Not of one shape: see `same_shape`.
            (t, _) => t,
        }
    }

    /// `a && b` or `a || b` whose operands hold `if` expressions or blocks:
    /// two branches on `a`, the one that evaluates `b` taken only when the
    /// primal evaluates it, the other giving the constant `false` or `true`.
    pub(super) fn lower_short_circuit(&mut self, b: &syn::ExprBinary) -> Operand {
        let span = b.span();
        let cond = self.lower_expr(&b.left);
        let right = |l: &mut Self| Some(Item::Value(l.lower_expr(&b.right)));
        let constant = |value: bool| {
            move |l: &mut Self| {
                let v = l.materialize(Operand::Const(quote!(#value)), Kind::Bool, span);
                Some(Item::Value(Operand::Value(v)))
            }
        };
        let joined = match b.op {
            BinOp::And(_) => {
                self.lower_branches(cond, None, true, (span, right), (span, constant(false)))
            }
            _ => self.lower_branches(cond, None, true, (span, constant(true)), (span, right)),
        };
        match joined {
            Ok(Some(Item::Value(value))) => value,
            // An operand that is no one value was reported.
            _ => self.missing(span),
        }
    }

    pub(super) fn lower_for(&mut self, f: &syn::ExprForLoop) {
        if let Some(positions) = self.positions_loop(f) {
            return self.lower_for(&positions);
        }
        if let Some(label) = &f.label {
            self.cx
                .error_spanned_by(label, "loop labels are not supported");
        }
        if let Some(walk) = super::iter_mut::walk(&f.expr, &f.pat, &|v| {
            syn::visit::Visit::visit_block(v, &f.body)
        }) {
            let syntax = Expr::Block(syn::ExprBlock {
                attrs: Vec::new(),
                label: None,
                block: f.body.clone(),
            });
            self.lower_walk(walk, &syntax, &mut |l| {
                if let Some(t) = l.lower_stmts(&f.body.stmts) {
                    l.value_unused(t);
                }
            });
            return;
        }
        let range = match strip_parens(&f.expr) {
            Expr::MethodCall(m) if m.method == "rev" && m.args.is_empty() => {
                strip_parens(&m.receiver)
            }
            e => e,
        };
        if !matches!(range, Expr::Range(_)) {
            return self.lower_for_iter(f);
        }
        let index_ident = match &*f.pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(pi.ident.clone()),
            Pat::Wild(_) => None,
            other => {
                self.cx
                    .error_spanned_by(other, "unsupported loop pattern; write `for i in a..b`");
                return;
            }
        };
        let (range, reversed) = match &*f.expr {
            Expr::MethodCall(m) if m.method == "rev" && m.args.is_empty() => {
                (strip_parens(&m.receiver), true)
            }
            e => (strip_parens(e), false),
        };
        let Expr::Range(r) = range else {
            self.cx.error_spanned_by(
                &f.expr,
                "`for` loops iterate over integer ranges only: `a..b`, `a..=b` or `(a..b).rev()`",
            );
            return;
        };
        let (Some(start), Some(end)) = (&r.start, &r.end) else {
            self.cx
                .error_spanned_by(r, "the range of a `for` loop needs both bounds");
            return;
        };
        let start = self.lower_expr(start);
        let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
        // The index is below the end: what a column of an array of arrays
        // may be (see `nested`).
        let exclusive_end = self.range_end(end, inclusive);
        let end = self.lower_expr(end);
        let checkpoint = crate::checkpoint::of_loop(self.cx, &f.attrs);
        let bounded = index_ident.is_some();
        self.lower_loop(&f.body, checkpoint, |l| {
            let index = index_ident.map(|ident| {
                let v = l.new_value(Kind::Int, Some(ident.to_string()));
                l.bind(&ident, v, false, None);
                l.range_ends.push((v, exclusive_end));
                v
            });
            LoopHeader::Range {
                index,
                start,
                end,
                inclusive,
                reversed,
            }
        });
        if bounded {
            self.range_ends.pop();
        }
    }

    pub(super) fn lower_while(&mut self, w: &syn::ExprWhile) {
        if let Some(label) = &w.label {
            self.cx
                .error_spanned_by(label, "loop labels are not supported");
        }
        if let Expr::Let(l) = &*w.cond {
            self.cx.error_spanned_by(
                l,
                "`while let` is not supported; use `while` with a comparison",
            );
            return;
        }
        let checkpoint = crate::checkpoint::of_loop(self.cx, &w.attrs);
        self.lower_loop(&w.body, checkpoint, |l| {
            l.begin_block();
            let cond = l.lower_expr(&w.cond);
            let cond_blk = l.end_block();
            LoopHeader::While { cond_blk, cond }
        });
    }

    /// Lowers a loop body; `header` runs inside the body's scope, after the
    /// loop-carried entry values exist.
    fn lower_loop(
        &mut self,
        syn_body: &syn::Block,
        checkpoint: Option<crate::ir::Checkpoint>,
        header: impl FnOnce(&mut Self) -> LoopHeader,
    ) {
        self.lower_loop_with(checkpoint, syn_body.span(), |l| {
            let header = header(l);
            if let Some(t) = l.lower_stmts(&syn_body.stmts) {
                l.value_unused(t);
            }
            header
        });
    }

    /// Lowers a loop whose header and body `build` lowers, inside the
    /// body's scope, after the loop-carried entry values exist.
    pub(super) fn lower_loop_with(
        &mut self,
        checkpoint: Option<crate::ir::Checkpoint>,
        body_span: Span,
        build: impl FnOnce(&mut Self) -> LoopHeader,
    ) {
        let id = LoopId(self.next_loop);
        self.next_loop += 1;
        let before = self.snapshot();
        self.begin_block();
        // Every mutable variable may be carried; those the body never
        // assigns are folded back into their value before the loop below.
        let mut candidates = Vec::new();
        for s in 0..self.scopes.len() {
            for b in 0..self.scopes[s].len() {
                let binding = &self.scopes[s][b];
                if !binding.mutable {
                    continue;
                }
                let init = binding.value;
                let name = binding.name.clone();
                let kind = self.values[init].kind;
                let entry = self.new_value(kind, Some(name.clone()));
                self.values[entry].float = self.values[init].float.clone();
                self.scopes[s][b].value = entry;
                candidates.push((s, b, name, init, entry));
            }
        }
        self.scopes.push(Vec::new());
        let mut header = build(self);
        self.scopes.pop();
        let mut body = self.end_block();

        let mut carried = Vec::new();
        let mut fold = HashMap::new();
        for (s, b, name, init, entry) in candidates {
            let exit = self.scopes[s][b].value;
            if exit == entry {
                fold.insert(entry, init);
            } else {
                carried.push((s, b, name, init, entry, exit));
            }
        }
        body.for_each_read_mut(&mut |v| substitute(v, &fold));
        if let LoopHeader::While { cond_blk, cond } = &mut header {
            cond_blk.for_each_read_mut(&mut |v| substitute(v, &fold));
            if let Operand::Value(v) = cond {
                substitute(v, &fold);
            }
        }
        self.restore(&before);
        let mut taken: Vec<String> = Vec::new();
        let carried = carried
            .into_iter()
            .map(|(s, b, mut name, init, entry, exit)| {
                // Variables of the same text but different hygiene get
                // distinct generated names.
                if taken.contains(&name) {
                    name = format!("{name}_{}", entry.index());
                }
                taken.push(name.clone());
                let mut kind = self.values[entry].kind;
                if name.starts_with(super::exits::LOOP_VALUE)
                    && self.values[init].kind == Kind::Float
                    && self.values[exit].kind == Kind::Matrix
                {
                    self.loop_value_needs_type(body_span);
                    kind = Kind::Matrix;
                }
                let after = self.new_value(kind, Some(name.clone()));
                self.values[after].float = self.values[entry].float.clone();
                self.values[after].exists = self.values[init].exists.clone();
                self.scopes[s][b].value = after;
                Carried {
                    name,
                    init,
                    entry,
                    exit,
                    after,
                }
            })
            .collect();
        self.push(Stmt::Loop(Loop {
            id,
            header,
            body,
            carried,
            checkpoint,
        }));
    }

    /// φ-nodes for the variables the two arms of a branch left with
    /// different values; each variable is rebound to its φ.
    pub(super) fn assignment_phis(
        &mut self,
        before: &[Vec<ValueId>],
        after_then: &[Vec<ValueId>],
        after_else: &[Vec<ValueId>],
    ) -> Vec<Phi> {
        let mut phis = Vec::new();
        for (s, scope) in before.iter().enumerate() {
            for (b, pre) in scope.iter().enumerate() {
                let (t, e) = (after_then[s][b], after_else[s][b]);
                if t == *pre && e == *pre {
                    continue;
                }
                let kind = self.values[t].kind;
                let name = self.scopes[s][b].name.clone();
                let dst = self.new_value(kind, Some(name));
                self.values[dst].float = self.phi_float(t, e);
                // Assigned, the name exists where it did before.
                self.values[dst].exists = self.values[*pre].exists.clone();
                phis.push(Phi {
                    dst,
                    then_src: t,
                    else_src: e,
                });
                self.scopes[s][b].value = dst;
            }
        }
        phis
    }

    /// A statement under `#[cfg(..)]`: its predicate (all of them, if
    /// several) and the statement without them. Lint attributes change
    /// nothing the sweeps compute; `cfg_attr` that may expand to `cfg`
    /// counts by what it adds.
    pub(super) fn cfg_split(&self, stmt: &SynStmt) -> Option<(TokenStream, SynStmt)> {
        let predicate = cfg_predicate(self.cx, stmt_attrs(stmt)?)?;
        let mut stmt = stmt.clone();
        if let Some(attrs) = stmt_attrs_mut(&mut stmt) {
            strip_cfgs(attrs);
        }
        Some((predicate, stmt))
    }

    /// Lowering the arm of a branch on `predicate` where it holds (or not).
    fn enter_cfg(&mut self, predicate: Option<&TokenStream>, holds: bool) {
        if let Some(p) = predicate {
            self.cfgs
                .push(if holds { p.clone() } else { quote!(not(#p)) });
        }
    }

    fn leave_cfg(&mut self, predicate: Option<&TokenStream>) {
        if predicate.is_some() {
            self.cfgs.pop();
        }
    }

    /// `#[cfg_attr(P, checkpoint ..)]` on a loop: the loop with the
    /// `#[checkpoint ..]` and the loop without it, for [`Self::lower_cfg_choice`]
    /// (what else the `cfg_attr` adds stays on both under `P`).
    pub(super) fn checkpoint_split(
        &self,
        stmt: &SynStmt,
    ) -> Option<(TokenStream, SynStmt, SynStmt)> {
        if !matches!(
            stmt,
            SynStmt::Expr(Expr::ForLoop(_) | Expr::While(_) | Expr::Loop(_), _)
        ) {
            return None;
        }
        let attrs = stmt_attrs(stmt)?;
        let (at, predicate, checkpoints, others) =
            attrs.iter().enumerate().find_map(|(at, a)| {
                let (predicate, metas) = crate::sig::cfg_attr_parts(&a.meta)?;
                let (checkpoints, others): (Vec<_>, Vec<_>) = metas
                    .into_iter()
                    .partition(|m| m.path().is_ident("checkpoint"));
                (!checkpoints.is_empty()).then_some((at, predicate, checkpoints, others))
            })?;
        let rest: Vec<syn::Attribute> = if others.is_empty() {
            Vec::new()
        } else {
            vec![syn::parse_quote!(#[cfg_attr(#predicate, #(#others),*)])]
        };
        let mut with = stmt.clone();
        let mut without = stmt.clone();
        for (out, added) in [(&mut with, true), (&mut without, false)] {
            let Some(attrs) = stmt_attrs_mut(out) else {
                continue;
            };
            let mut replaced: Vec<syn::Attribute> = rest.clone();
            if added {
                replaced.extend(checkpoints.iter().map(|m| syn::parse_quote!(#[#m])));
            }
            attrs.splice(at..=at, replaced);
        }
        Some((predicate.to_token_stream(), with, without))
    }

    /// A statement written two ways, `with` where `predicate` holds and
    /// `without` where it does not: a branch decided at compile time, as
    /// in [`Self::lower_cfg`]. Neither binds a name (both are loops).
    pub(super) fn lower_cfg_choice(
        &mut self,
        predicate: TokenStream,
        with: &SynStmt,
        without: &SynStmt,
    ) {
        let before = self.snapshot();
        let arm = |l: &mut Self, stmt: &SynStmt, holds: bool| {
            l.begin_block();
            l.scopes.push(Vec::new());
            l.enter_cfg(Some(&predicate), holds);
            l.lower_stmts(std::slice::from_ref(stmt));
            l.leave_cfg(Some(&predicate));
            l.scopes.pop();
            let blk = l.end_block();
            (blk, l.snapshot())
        };
        let (then_blk, after_then) = arm(self, with, true);
        self.restore(&before);
        let (else_blk, after_else) = arm(self, without, false);
        let phis = self.assignment_phis(&before, &after_then, &after_else);
        self.push(Stmt::If(If {
            cond: Operand::Const(quote!(::core::cfg!(#predicate))),
            then_blk,
            else_blk,
            phis,
            cfg: Some(predicate),
        }));
    }

    /// `#[cfg(p)] stmt`: a branch decided at compile time, lowered like
    /// `if cfg!(p) { stmt }` and emitted with the same `#[cfg]`s, so the
    /// sweeps compute what the primal does in every configuration. A
    /// `let` under `cfg` binds its name after the statement to a φ whose
    /// other source is the name's previous binding, or nothing where there
    /// was none (the name then exists in that configuration only, as in
    /// the primal).
    pub(super) fn lower_cfg(&mut self, predicate: TokenStream, stmt: &SynStmt) {
        if matches!(stmt, SynStmt::Expr(Expr::Return(_), _)) {
            self.cx.error_spanned_by(
                stmt,
                "`return` under `#[cfg]` is not supported; compute the value under `#[cfg]` and return it after",
            );
            return;
        }
        let before = self.snapshot();
        self.begin_block();
        self.scopes.push(Vec::new());
        self.enter_cfg(Some(&predicate), true);
        match stmt {
            SynStmt::Local(local) => self.lower_local(local),
            // Never a tail: a tail expression cannot carry attributes.
            SynStmt::Expr(e, _) => self.lower_stmt_expr(e),
            other => {
                self.lower_stmts(std::slice::from_ref(other));
            }
        }
        self.leave_cfg(Some(&predicate));
        let introduced = self.scopes.pop().unwrap_or_default();
        let then_blk = self.end_block();
        let after_then = self.snapshot();
        self.restore(&before);

        self.begin_block();
        // The previous binding of each introduced name (its value and
        // mutability), or a value that exists in no configuration where
        // the statement is compiled out.
        let else_sources: Vec<(ValueId, bool, bool)> = introduced
            .iter()
            .map(|b| {
                // A struct local's own binding holds no value (its
                // fields' bindings do).
                if b.record.is_some() {
                    return (b.value, false, false);
                }
                let outer = self
                    .scopes
                    .iter()
                    .rev()
                    .flat_map(|s| s.iter().rev())
                    .find(|o| o.name == b.name && o.context == b.context)
                    .filter(|o| o.record.is_none())
                    .map(|o| (o.value, false, o.mutable));
                outer.unwrap_or_else(|| {
                    let kind = self.values[b.value].kind;
                    (self.emit(Op::Absent, kind, Span::call_site()), true, false)
                })
            })
            .collect();
        let else_blk = self.end_block();

        let mut phis = self.assignment_phis(&before, &after_then, &before);
        let mut rebound = Vec::new();
        for (b, (else_src, absent, outer_mutable)) in introduced.into_iter().zip(else_sources) {
            if b.record.is_some() {
                rebound.push(b);
                continue;
            }
            let kind = self.values[b.value].kind;
            let dst = self.new_value(kind, Some(b.name.clone()));
            self.values[dst].float = self.phi_float(b.value, else_src);
            // The name exists where the statement is compiled in, and
            // elsewhere where its previous binding does.
            self.values[dst].exists = if absent {
                Some(predicate.clone())
            } else {
                self.values[else_src]
                    .exists
                    .as_ref()
                    .map(|e| quote!(any(#predicate, #e)))
            };
            phis.push(Phi {
                dst,
                then_src: b.value,
                else_src,
            });
            // Mutable where either binding is: where the statement is
            // compiled out, a later loop assigns the previous binding, and
            // must carry it.
            let mutable = b.mutable || outer_mutable;
            rebound.push(Binding {
                value: dst,
                mutable,
                ..b
            });
        }
        let cond = Operand::Const(quote!(::core::cfg!(#predicate)));
        self.push(Stmt::If(If {
            cond,
            then_blk,
            else_blk,
            phis,
            cfg: Some(predicate),
        }));
        if let Some(scope) = self.scopes.last_mut() {
            scope.extend(rebound);
        }
    }
}
