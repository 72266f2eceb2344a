//! Statements and bindings: `let`, assignment and compound assignment,
//! blocks, and the tail value of a body.

use super::calls::SplitTarget;
use super::items::Item;
use super::*;

fn compound_rule(op: &BinOp) -> Option<(&'static Rule, TokenStream)> {
    Some(match op {
        BinOp::AddAssign(_) => (table::operator_rule(Operator::Add), quote!(+)),
        BinOp::SubAssign(_) => (table::operator_rule(Operator::Sub), quote!(-)),
        BinOp::MulAssign(_) => (table::operator_rule(Operator::Mul), quote!(*)),
        BinOp::DivAssign(_) => (table::operator_rule(Operator::Div), quote!(/)),
        _ => return None,
    })
}

/// `let z;` or `let mut z: T;`: its name, mutability and type.
fn deferred_let(local: &syn::Local) -> Option<(syn::Ident, bool, Option<syn::Type>)> {
    if local.init.is_some() || !local.attrs.is_empty() {
        return None;
    }
    let (pat, ty) = match &local.pat {
        Pat::Type(pt) => (&*pt.pat, Some((*pt.ty).clone())),
        p => (p, None),
    };
    match pat {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
            Some((pi.ident.clone(), pi.mutability.is_some(), ty))
        }
        _ => None,
    }
}

/// Whether an `if` is an expression with a value rather than a statement
/// (whose blocks end in statements, so its value is `()`).
fn if_yields_value(i: &syn::ExprIf) -> bool {
    let Some((_, else_branch)) = &i.else_branch else {
        return false;
    };
    ends_in_value(&i.then_branch)
        && match &**else_branch {
            Expr::If(nested) => if_yields_value(nested),
            Expr::Block(b) => ends_in_value(&b.block),
            _ => true,
        }
}

/// Whether a block ends in a value: an expression, or `matches!(..)`
/// (which parses as a macro statement there).
fn ends_in_value(b: &syn::Block) -> bool {
    match b.stmts.last() {
        Some(SynStmt::Expr(e, None)) => yields_value(e),
        Some(SynStmt::Macro(m)) => m.semi_token.is_none() && super::matching::is_matches(&m.mac),
        _ => false,
    }
}

/// Whether an expression in tail position is a value (not `()`).
fn yields_value(e: &Expr) -> bool {
    match e {
        Expr::ForLoop(_) | Expr::While(_) | Expr::Assign(_) => false,
        Expr::Binary(b) => compound_rule(&b.op).is_none(),
        Expr::If(i) => if_yields_value(i),
        Expr::Macro(m) => !super::asserts::is_assert(&m.mac),
        // A `match` as its chain, its scrutinee bound first.
        Expr::Block(b) => ends_in_value(&b.block),
        _ => true,
    }
}

/// `let (a, b) = x.split_at(k);` of a place `x`, as the two sub-slices
/// it is: `let a = &x[..k]; let b = &x[k..];`, the split point bound
/// first (in the macro's hygiene) unless it is a name or a literal.
/// `None` for anything else.
fn split_at_halves(components: &syn::PatTuple, e: &Expr) -> Option<Vec<SynStmt>> {
    let Expr::MethodCall(m) = strip_parens(e) else {
        return None;
    };
    if m.method != "split_at"
        || m.args.len() != 1
        || m.turbofish.is_some()
        || components.elems.len() != 2
        || !super::matching::is_place(&m.receiver)
    {
        return None;
    }
    let (x, k) = (&m.receiver, &m.args[0]);
    let span = m.method.span();
    let mut stmts = Vec::new();
    let k: Expr = if matches!(strip_parens(k), Expr::Path(_) | Expr::Lit(_)) {
        k.clone()
    } else {
        let at = syn::Ident::new("k", Span::mixed_site().located_at(span));
        stmts.push(syn::parse_quote_spanned!(span=> let #at = #k;));
        syn::parse_quote!(#at)
    };
    let halves: [Expr; 2] = [
        syn::parse_quote_spanned!(span=> &#x[..#k]),
        syn::parse_quote_spanned!(span=> &#x[#k..]),
    ];
    for (pat, half) in components.elems.iter().zip(halves) {
        match pat {
            Pat::Wild(_) => {}
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                stmts.push(syn::parse_quote_spanned!(pi.ident.span()=> let #pat = #half;));
            }
            _ => return None,
        }
    }
    Some(stmts)
}

/// Whether `e` is `x.iter().enumerate().max_by(..)` (or `min_by`,
/// `max_by_key`, `min_by_key`, after any adapters), unwrapped or not.
fn is_enumerated_best(e: &Expr) -> bool {
    let mut e = strip_parens(e);
    if let Expr::MethodCall(m) = e
        && (m.method == "unwrap" || m.method == "expect")
    {
        e = strip_parens(&m.receiver);
    }
    let Expr::MethodCall(best) = e else {
        return false;
    };
    if !["max_by", "min_by", "max_by_key", "min_by_key"]
        .iter()
        .any(|name| best.method == name)
    {
        return false;
    }
    let mut receiver = strip_parens(&best.receiver);
    while let Expr::MethodCall(m) = receiver {
        if m.method == "enumerate" {
            return true;
        }
        receiver = strip_parens(&m.receiver);
    }
    false
}

/// Whether a call is `std::mem::swap(x, y)` (or `core::mem::swap`,
/// `mem::swap`): the path names the module, so a function of the user's
/// own named `swap` is not taken for it.
pub(super) fn is_mem_swap(c: &syn::ExprCall) -> bool {
    let Expr::Path(p) = &*c.func else {
        return false;
    };
    let segments: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    c.args.len() == 2
        && p.qself.is_none()
        && matches!(
            segments.iter().map(String::as_str).collect::<Vec<_>>()[..],
            ["std" | "core", "mem", "swap"] | ["mem", "swap"]
        )
}

impl Lowerer<'_> {
    /// Lowers statements; returns the block's tail value, if any.
    pub(super) fn lower_stmts(&mut self, stmts: &[SynStmt]) -> Option<Operand> {
        self.nesting += 1;
        let tail = self.lower_stmts_inner(stmts);
        self.nesting -= 1;
        tail
    }

    fn lower_stmts_inner(&mut self, stmts: &[SynStmt]) -> Option<Operand> {
        // The type expected of the block's value is its tail's.
        let expected = self.expected.take();
        let mut tail = None;
        // A deferred `let` (see [`super::deferred`]) and the mutability
        // it is declared with, given back after the statement assigning it.
        let mut deferred: Option<(usize, syn::Ident, bool)> = None;
        for (i, stmt) in stmts.iter().enumerate() {
            if let Some((_, ident, mutable)) = deferred.take_if(|(k, _, _)| *k + 1 < i)
                && let Some(binding) = self.lookup_mut(&ident)
            {
                binding.mutable = mutable;
            }
            let last = i + 1 == stmts.len();
            if let SynStmt::Local(local) = stmt
                && let Some((ident, mutable, ty)) = deferred_let(local)
                && stmts
                    .get(i + 1)
                    .is_some_and(|next| super::deferred::assigned_by(next, &ident))
            {
                let v = self.emit(Op::Absent, Kind::Unknown, local.span());
                self.values[v].name = Some(ident.to_string());
                self.bind(&ident, v, true, ty);
                deferred = Some((i, ident, mutable));
                continue;
            }
            // A `return` closing the body is its value whatever its
            // `#[cfg]`: where it is compiled out, the primal has no value
            // and does not compile.
            let closing_return = last && matches!(stmt, SynStmt::Expr(Expr::Return(_), _));
            if !closing_return && let Some((predicate, stmt)) = self.cfg_split(stmt) {
                self.lower_cfg(predicate, &stmt);
                continue;
            }
            if let Some((predicate, with, without)) = self.checkpoint_split(stmt) {
                self.lower_cfg_choice(predicate, &with, &without);
                continue;
            }
            // `let s = x.first();` taken apart by the statements after it.
            if let SynStmt::Local(local) = stmt
                && self.bind_end(local, &stmts[i + 1..])
            {
                continue;
            }
            // `let mut o: Option<f64> = None;`, its flag and value.
            if let SynStmt::Local(local) = stmt
                && self.bind_option(local, &stmts[i + 1..])
            {
                continue;
            }
            match stmt {
                SynStmt::Local(local) => self.lower_local(local),
                SynStmt::Expr(Expr::Return(r), _) => {
                    if !last || self.nesting > 1 {
                        // The exits pass has rewritten every `return` that
                        // is a statement: this one is inside an expression.
                        self.cx
                            .error_spanned_by(r, super::expr::RETURN_IN_EXPRESSION);
                    }
                    match &r.expr {
                        Some(e) => {
                            self.expected = expected.clone();
                            tail = Some(self.lower_expr(e));
                        }
                        None => self.cx.error_spanned_by(r, "`return` needs a value"),
                    }
                }
                SynStmt::Expr(e, None) if last => {
                    let chain = self.match_chain(e);
                    let e = chain.as_ref().unwrap_or(e);
                    // A trailing loop, assignment or statement-`if` is `()`.
                    tail = if yields_value(e) {
                        self.expected = expected.clone();
                        Some(self.lower_expr(e))
                    } else {
                        self.lower_stmt_expr(e);
                        None
                    };
                }
                SynStmt::Expr(e, _) => self.lower_stmt_expr(e),
                SynStmt::Item(item) => self.lower_item_stmt(item),
                // A block's tail `matches!(..)` parses as a macro statement.
                SynStmt::Macro(m)
                    if last && m.semi_token.is_none() && super::matching::is_matches(&m.mac) =>
                {
                    tail = self.lower_matches(&m.mac).or_else(|| {
                        self.lower_macro_stmt(&m.mac, m.span());
                        None
                    });
                }
                SynStmt::Macro(m) => self.lower_macro_stmt(&m.mac, m.span()),
            }
        }
        if let Some((_, ident, mutable)) = deferred
            && let Some(binding) = self.lookup_mut(&ident)
        {
            binding.mutable = mutable;
        }
        tail
    }

    pub(super) fn lower_local(&mut self, local: &syn::Local) {
        if self.bind_nested(local) {
            return;
        }
        // `let s = State { x, v };`: a struct local, one binding per field.
        if self.bind_record(local) {
            return;
        }
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some((*pt.ty).clone())),
            p => (p, None),
        };
        // `let s = if c { &x[..2] } else { &x[2..] };`: the adjoint would
        // need choosing too; one error for the whole choice.
        if let Some(init) = &local.init
            && chooses_sub_slice(&init.expr)
        {
            self.cx.error_spanned_by(
                &init.expr,
                "a sub-slice chosen at run time is not supported; choose its bounds instead, `let k = if c { 0 } else { 2 }; let s = &x[k..k + 2];`",
            );
            return;
        }
        if let Some(init) = &local.init
            && init.diverge.is_none()
            && self.bind_closure(pat, &init.expr)
        {
            return;
        }
        if let (Pat::Tuple(components), Some(init)) = (pat, &local.init)
            && self.lower_split(SplitTarget::Pattern(components), &init.expr)
        {
            return;
        }
        if let (Pat::Ident(pi), Some(init)) = (pat, &local.init)
            && pi.by_ref.is_none()
            && pi.subpat.is_none()
            && self.lower_split(SplitTarget::Named(&pi.ident), &init.expr)
        {
            return;
        }
        // An array destructured: `let [a, b] = state;`, `let [b0, b1] = *params;`.
        if let (Pat::Slice(_), Some(init)) = (pat, &local.init)
            && init.diverge.is_none()
            && let Some(seq) = self.sequence_of(&init.expr)
        {
            self.bind_pattern(&local.pat, Item::Seq(seq), None, init.expr.span());
            return;
        }
        // A tuple, or a part of one: `let (a, b) = (x, y);`, `let t = (x, y);`.
        if let Some(init) = &local.init
            && init.diverge.is_none()
            && let Some(item) = self.lower_item(&init.expr)
        {
            self.bind_pattern(&local.pat, item, None, init.expr.span());
            return;
        }
        if let (Pat::Tuple(components), Some(init)) = (pat, &local.init)
            && init.diverge.is_none()
            && (self.bind_call_tuple(components, &init.expr)
                || self.bind_data_tuple(components, &init.expr))
        {
            return;
        }
        if let (Pat::Tuple(components), Some(init)) = (pat, &local.init)
            && init.diverge.is_none()
            && let Some(halves) = split_at_halves(components, &init.expr)
        {
            for half in &halves {
                if let SynStmt::Local(half) = half {
                    self.lower_local(half);
                }
            }
            return;
        }
        if let (Pat::Tuple(_), Some(init)) = (pat, &local.init)
            && matches!(
                strip_parens(&init.expr),
                Expr::Call(_) | Expr::MethodCall(_)
            )
        {
            let message = if is_enumerated_best(&init.expr) {
                "an arg-max (or arg-min) of `enumerate()` is not supported as a tuple; take the index with an integer search and read the element by it, `let i = (0..x.len()).max_by(|&i, &j| x[i].total_cmp(&x[j])).unwrap(); let top = x[i];`"
            } else if matches!(strip_parens(&init.expr), Expr::MethodCall(m) if m.method == "split_at")
            {
                "`split_at` is supported on a slice or array named by a variable; take the sub-slices, `let (a, b) = (&x[..k], &x[k..]);`"
            } else {
                "destructuring a tuple that a call returns is not supported; destructure a tuple expression, `let (a, b) = (f(x), g(x));`"
            };
            self.cx.error_spanned_by(&init.expr, message);
            return;
        }
        let (ident, mutable) = match pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                (Some(pi.ident.clone()), pi.mutability.is_some())
            }
            Pat::Wild(_) => (None, false),
            // `let [z1, z2] = normals[k];` of `#[constant] normals: &[[f64; 2]]`
            // (the elements of constant data), or `let [a, b] = v.map(f);`
            // (of a computed array).
            Pat::Slice(s)
                if !s.elems.iter().any(|p| matches!(p, Pat::Rest(_)))
                    && let Some(init) = local.init.as_ref().filter(|i| i.diverge.is_none()) =>
            {
                let span = init.expr.span();
                let value = self.lower_expr(&init.expr);
                let Operand::Value(v) = value else {
                    self.cx.error_spanned_by(pat, "this pattern does not match the value's shape; bind each component to a name or `_`");
                    return;
                };
                if let Some(elements) = self.data_array(v, s.elems.len(), span) {
                    for (p, element) in s.elems.iter().zip(elements) {
                        if !matches!(p, Pat::Wild(_)) {
                            self.bind_pattern(p, element, None, span);
                        }
                    }
                } else if self.values[v].kind == Kind::Array {
                    self.bind_pattern(
                        pat,
                        Item::Seq(super::sequence::Sequence::Array(v)),
                        None,
                        span,
                    );
                } else if !self.missing.contains(&v) {
                    self.cx.error_spanned_by(
                        pat,
                        "an array pattern takes apart an array: a local, a computed one (`let [a, b] = v.map(f);`) or an element of constant data",
                    );
                }
                return;
            }
            other => {
                self.cx.error_spanned_by(
                    other,
                    "unsupported pattern in `let`; bind a single name, such as `let y = ...`",
                );
                return;
            }
        };
        let Some(init) = &local.init else {
            self.cx.error_spanned_by(
                local,
                "a `let` without a value is supported when the next statement assigns it, last in every arm of an `if` or `match` (`let y; if c { y = a; } else { y = b; }`); otherwise write `let y = ...`",
            );
            // Bound anyway, so later uses of the name report nothing more.
            if let Some(ident) = ident {
                let v = self.emit(Op::Missing, Kind::Unknown, local.span());
                self.bind(&ident, v, true, None);
            }
            return;
        };
        if let Some((_, diverge)) = &init.diverge {
            self.cx
                .error_spanned_by(diverge, "`let ... else` is not supported");
        }
        let span = init.expr.span();
        // `let times: &[f64] = &sched.times;`: a field of a `#[constant]`
        // argument, whose type the macro sees only here, is constant data
        // of that type, read by index and iterated.
        let data = match (&ty, &ident) {
            (Some(t), Some(_))
                if self.scalar_ident(t).is_none() && self.constant_field(&init.expr) =>
            {
                Some(t.clone())
            }
            _ => None,
        };
        let operand = match data {
            Some(_) => self.lower_primal(&init.expr, Kind::Unknown),
            None => {
                if let Some(syn::Type::Array(a)) = &ty {
                    self.expected = Some(a.clone());
                }
                self.lower_expr(&init.expr)
            }
        };
        // `let r: f64 = market.rate;` in the twin: the data's float
        // converted to the scalar the annotation now names.
        let operand = match &ty {
            Some(t) if self.scalar_ident(t).is_some() => self.lift_opaque(operand, span),
            _ => operand,
        };
        self.bind_operand(ident.as_ref(), mutable, ty, operand, span);
        if let (Some(t), Some(ident)) = (data, &ident)
            && let Some(v) = self.lookup(ident).map(|b| b.value)
        {
            self.record_data(v, &t);
        }
    }

    /// Binds a name (or `_`) to an operand, as `let` does: an untyped name
    /// denotes the value itself; a typed one, or a constant, gets its own
    /// value, as written.
    pub(super) fn bind_operand(
        &mut self,
        ident: Option<&syn::Ident>,
        mutable: bool,
        ty: Option<syn::Type>,
        operand: Operand,
        span: Span,
    ) {
        let name = ident.map(|i| i.to_string());
        // `let n: f32 = x * 2.0` in an `f64` function: rustc reports the
        // annotation in the function as written; the generated copies type
        // the name from its value, so they do not report it again.
        let ty = match (&ty, &operand) {
            (Some(t), Operand::Value(v))
                if self.values[*v].kind == Kind::Float
                    && let Some(written) = self.scalar_ident(t)
                    && self.values[*v]
                        .float
                        .as_ref()
                        .is_some_and(|f| *f != written) =>
            {
                None
            }
            _ => ty,
        };
        // `let y: f64 = call(..)`: the annotation says what the call
        // returns, and the typed copy below carries it to the sweeps, where
        // a generic callee (`stop_gradient(x)`) would leave it to inference.
        if let (Some(t), Operand::Value(v)) = (&ty, &operand)
            && self.values[*v].kind == Kind::Unknown
            && let Some(written) = self.scalar_ident(t)
        {
            self.values[*v].kind = Kind::Float;
            self.values[*v].float = Some(written);
        }
        let value = match operand {
            // An untyped `let` of a value, or any `let` of a matrix (rustc
            // has checked the annotation): the name denotes the value itself.
            Operand::Value(v) if ty.is_none() || !self.values[v].kind.is_copy() => {
                let info = &mut self.values[v];
                // `let z: DMatrix<f64> = call(..)` tells what the call returns.
                if info.kind == Kind::Unknown && ty.as_ref().is_some_and(crate::sig::is_matrix) {
                    info.kind = Kind::Matrix;
                }
                if info.name.is_none() && info.param.is_none() {
                    info.name.clone_from(&name);
                }
                if let Some(elem) = ty
                    .as_ref()
                    .and_then(|t| crate::sig::float_collection_elem(t, self.scalar.as_ref()))
                    && matches!(info.kind, Kind::Unknown | Kind::Array)
                {
                    info.kind = Kind::Array;
                    info.float = Some(elem.0);
                    self.annotate_last_let(v, ty.clone());
                }
                v
            }
            // A typed `let` or a constant gets its own binding, as written.
            operand => {
                let kind = match (&ty, &operand) {
                    (Some(t), _) if self.scalar_ident(t).is_some() => Kind::Float,
                    (_, Operand::Value(v)) => self.values[*v].kind,
                    (_, Operand::Const(t)) => syn::parse2::<Expr>(t.clone())
                        .map_or(Kind::Unknown, |e| self.const_kind(&e)),
                };
                let dst = self.new_value(kind, name.clone());
                if self.lifts_constants
                    && kind == Kind::Unknown
                    && matches!(operand, Operand::Const(_))
                {
                    self.lifted.insert(dst);
                }
                self.values[dst].float = ty
                    .as_ref()
                    .and_then(|t| self.scalar_ident(t))
                    .or_else(|| self.float_of(&operand));
                self.push(Stmt::Let {
                    dst,
                    op: Op::Copy(operand),
                    span,
                    ty: ty.clone().map(Box::new),
                });
                dst
            }
        };
        if let Some(ident) = ident {
            self.bind(ident, value, mutable, ty);
        }
    }

    pub(super) fn lower_stmt_expr(&mut self, e: &Expr) {
        if let Some(chain) = self.match_chain(e) {
            return self.lower_stmt_expr(&chain);
        }
        // `*x = e;`, `*x += e;` of an in-out argument assign its variable.
        let through_inout = match e {
            Expr::Assign(a) => self.inout_target_place(&a.left).map(|left| {
                Expr::Assign(syn::ExprAssign {
                    left: Box::new(left),
                    ..a.clone()
                })
            }),
            Expr::Binary(b) if compound_rule(&b.op).is_some() => {
                self.inout_target_place(&b.left).map(|left| {
                    Expr::Binary(syn::ExprBinary {
                        left: Box::new(left),
                        ..b.clone()
                    })
                })
            }
            _ => None,
        };
        if let Some(e) = through_inout {
            return self.lower_stmt_expr(&e);
        }
        // `a %= b` is `a = a % b` (`%` of floats is a rule, of integers
        // primal code): the place read again is a variable, a field or an
        // element, whose reading has no effect.
        if let Expr::Binary(b) = e
            && matches!(b.op, BinOp::RemAssign(_))
        {
            let (left, right) = (&b.left, &b.right);
            let assign: Expr = syn::parse_quote_spanned!(b.span()=> #left = #left % (#right));
            return self.lower_stmt_expr(&assign);
        }
        match e {
            // `s.x = e`, `s = State { .. }`, `s.x += e` of a struct local.
            Expr::Assign(a) if self.lower_record_assign(a) => {}
            Expr::Binary(b)
                if let Some(compound) = compound_rule(&b.op)
                    && self.lower_record_compound(b, compound) => {}
            Expr::Assign(a) if matches!(&*a.left, Expr::Index(_)) => {
                if let Expr::Index(target) = &*a.left {
                    self.lower_element_write(target, None, &a.right, a.span());
                }
            }
            Expr::Binary(b)
                if compound_rule(&b.op).is_some() && matches!(&*b.left, Expr::Index(_)) =>
            {
                if let Expr::Index(target) = &*b.left {
                    self.lower_element_write(target, compound_rule(&b.op), &b.right, b.span());
                }
            }
            Expr::MethodCall(m) if m.method == "push" && m.args.len() == 1 => self.lower_push(m),
            Expr::MethodCall(m) if let Some(swap) = self.swap_of_elements(m) => {
                self.scopes.push(Vec::new());
                self.lower_stmts(&swap);
                self.scopes.pop();
            }
            Expr::Assign(a) if let Expr::Tuple(targets) = &*a.left => {
                self.lower_tuple_assign(targets, &a.right, a.span());
            }
            Expr::Assign(a) if self.lower_nested_assign(a) => {}
            Expr::Assign(a) if self.lower_option_assign(a) => {}
            Expr::Assign(a) if self.lower_from_fn_assign(&a.left, &a.right, a.span()) => {}
            Expr::Assign(a) if self.lower_element_assign(&a.left, None, &a.right, a.span()) => {}
            Expr::Binary(b)
                if compound_rule(&b.op).is_some()
                    && self.lower_element_assign(
                        &b.left,
                        compound_rule(&b.op),
                        &b.right,
                        b.span(),
                    ) => {}
            Expr::Assign(a) => {
                let operand = self.lower_expr(&a.right);
                self.assign(&a.left, operand, a.span());
            }
            Expr::Binary(b) if compound_rule(&b.op).is_some() => {
                let Some((rule, token)) = compound_rule(&b.op) else {
                    return;
                };
                let Some(current) = self.assign_target(&b.left) else {
                    return;
                };
                let rhs = self.lower_expr(&b.right);
                let kind = self.result_kind(&[Operand::Value(current), rhs.clone()]);
                let v = self.emit(
                    Op::Rule {
                        rule,
                        args: vec![Operand::Value(current), rhs],
                        syntax: Syntax::Operator(token),
                    },
                    kind,
                    b.span(),
                );
                self.assign(&b.left, Operand::Value(v), b.span());
            }
            Expr::If(i) => {
                self.lower_if(i, false);
            }
            Expr::Macro(m) => self.lower_macro_stmt(&m.mac, m.span()),
            Expr::ForLoop(f) => self.lower_for(f),
            Expr::While(w) => self.lower_while(w),
            Expr::Block(b) if b.label.is_none() => {
                self.scopes.push(Vec::new());
                if let Some(t) = self.lower_stmts(&b.block.stmts) {
                    self.value_unused(t);
                }
                self.scopes.pop();
            }
            Expr::Call(c) if is_mem_swap(c) => self.lower_mem_swap(c),
            Expr::Call(_) => {
                self.inout_statement = true;
                let operand = self.lower_expr(e);
                self.inout_statement = false;
                self.value_unused(operand);
            }
            other => {
                let operand = self.lower_expr(other);
                self.value_unused(operand);
            }
        }
    }

    /// `std::mem::swap(&mut a, &mut b);` of two local variables: the
    /// destructuring assignment `(a, b) = (b, a);` it is, whose adjoints
    /// the assignments carry.
    fn lower_mem_swap(&mut self, c: &syn::ExprCall) {
        // A variable, or a struct local's field (`&mut s.x`).
        let local = |e: &Expr| match e {
            Expr::Reference(r) if r.mutability.is_some() => match &*r.expr {
                Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                    Some((*r.expr).clone())
                }
                Expr::Field(f) if self.field_place(f).is_some() => Some((*r.expr).clone()),
                _ => None,
            },
            _ => None,
        };
        let (Some(a), Some(b)) = (local(&c.args[0]), local(&c.args[1])) else {
            self.cx.error_spanned_by(
                c,
                "`std::mem::swap` is supported of two local variables, `std::mem::swap(&mut a, &mut b);`; swap two elements of an array with `v.swap(i, j);`, and anything else through a temporary, `let t = a; a = v[0]; v[0] = t;`",
            );
            return;
        };
        let targets: syn::ExprTuple = syn::parse_quote_spanned!(c.span()=> (#a, #b));
        let value: Expr = syn::parse_quote_spanned!(c.span()=> (#b, #a));
        self.lower_tuple_assign(&targets, &value, c.span());
    }

    /// `(a, b) = e;`, a destructuring assignment of local variables (or
    /// `_`): as `let (a, b) = e;` in a scope of its own, whatever `let`
    /// takes (a tuple, a call returning one), then each variable assigned
    /// the value bound to its name, after the whole right side is
    /// evaluated (`(a, b) = (b, a)` swaps).
    fn lower_tuple_assign(&mut self, targets: &syn::ExprTuple, value: &Expr, span: Span) {
        let mut pats: Vec<Pat> = Vec::new();
        // A struct local's field (`(s.x, s.v) = ..`) is bound to a name of
        // the macro's hygiene, then assigned.
        let field_name = |k: usize| syn::Ident::new(&format!("field{k}"), Span::mixed_site());
        for (k, target) in targets.elems.iter().enumerate() {
            match target {
                Expr::Infer(_) => pats.push(syn::parse_quote!(_)),
                Expr::Path(p) if p.qself.is_none() && p.path.get_ident().is_some() => {
                    let ident = p.path.get_ident();
                    pats.push(syn::parse_quote!(#ident));
                }
                Expr::Field(f) if self.field_place(f).is_some() => {
                    let ident = field_name(k);
                    pats.push(syn::parse_quote!(#ident));
                }
                other => {
                    self.cx.error_spanned_by(
                        other,
                        "a destructuring assignment is supported into local variables and `_`, `(a, b) = f(x);`; assign the others one by one",
                    );
                    return;
                }
            }
        }
        let pat: Pat = syn::parse_quote_spanned!(targets.span()=> (#(#pats),*));
        let local: SynStmt = syn::parse_quote_spanned!(span=> let #pat = #value;);
        let SynStmt::Local(local) = local else { return };
        self.scopes.push(Vec::new());
        self.lower_local(&local);
        let bound = self.scopes.pop().unwrap_or_default();
        for (k, target) in targets.elems.iter().enumerate() {
            if let Expr::Field(f) = target {
                let ident = field_name(k);
                let context = hygiene(&ident);
                let value = bound
                    .iter()
                    .rev()
                    .find(|b| ident == b.name && b.context == context);
                if let (Some(b), Some(place)) = (value, self.field_place(f)) {
                    self.assign_at(place, Operand::Value(b.value), span);
                }
                continue;
            }
            let Expr::Path(p) = target else { continue };
            let Some(ident) = p.path.get_ident() else {
                continue;
            };
            // The value the pattern bound to this name (the last binding:
            // `(a, a) = ..` assigns the second, as Rust does).
            let context = hygiene(ident);
            if let Some(b) = bound
                .iter()
                .rev()
                .find(|b| ident == &b.name && b.context == context)
            {
                self.assign(target, Operand::Value(b.value), span);
            }
        }
    }

    /// Gives the `let` defining `v` the type the user wrote for it, if it
    /// is the block's last statement (`let v: [f32; 3] = [0.0; 3];`, whose
    /// literal would otherwise be an `f64`).
    fn annotate_last_let(&mut self, v: ValueId, ty: Option<syn::Type>) {
        if let Some((_, stmts)) = self.open_blocks.last_mut()
            && let Some(Stmt::Let { dst, ty: slot, .. }) = stmts.last_mut()
            && *dst == v
            && slot.is_none()
        {
            *slot = ty.map(Box::new);
        }
    }

    /// `v.swap(a, b)` of a local array or `Vec` as the element writes it
    /// is: `let (i, j) = (a, b); let t = v[i]; v[i] = v[j]; v[j] = t;`,
    /// whose adjoints the array-write rule keeps (locals in the macro's
    /// hygiene). `None` for any other receiver.
    fn swap_of_elements(&self, m: &syn::ExprMethodCall) -> Option<Vec<SynStmt>> {
        if m.method != "swap" || m.args.len() != 2 || m.turbofish.is_some() {
            return None;
        }
        let v = self.local_ident(&m.receiver)?;
        // `p.swap(i, j)` of an array of arrays swaps rows.
        if self.nested_named(&m.receiver).is_some()
            || !matches!(self.values[v].kind, Kind::Array | Kind::Unknown)
        {
            return None;
        }
        let (a, b, array) = (&m.args[0], &m.args[1], &m.receiver);
        let at = Span::mixed_site().located_at(m.method.span());
        let (i, j, t) = (
            syn::Ident::new("i", at),
            syn::Ident::new("j", at),
            syn::Ident::new("t", at),
        );
        let block: syn::Block = syn::parse_quote_spanned! {m.span()=> {
            let (#i, #j) = (#a, #b);
            let #t = #array[#i];
            #array[#i] = #array[#j];
            #array[#j] = #t;
        }};
        Some(block.stmts)
    }

    /// A statement whose value is dropped has no effect on the result.
    pub(super) fn value_unused(&mut self, _operand: Operand) {}

    /// The current value of an assignment's target.
    pub(super) fn assign_target(&mut self, target: &Expr) -> Option<ValueId> {
        match target {
            Expr::Path(_) => {
                let v = self.local_ident(target);
                if v.is_none() {
                    self.cx.error_spanned_by(
                        target,
                        "assignment to something other than a local variable is not supported",
                    );
                }
                v
            }
            Expr::Field(f) if self.named_element(f).is_some() => {
                self.cx.error_spanned_by(
                    target,
                    "a component of a nalgebra value is read here, not written; assign the whole value (`pos = Vector2::new(pos.x + dx, pos.y)`)",
                );
                None
            }
            Expr::Field(f) if matches!(f.member, syn::Member::Unnamed(_)) => {
                self.cx.error_spanned_by(
                    target,
                    "a component is written in a tuple bound from a tuple of values (`let mut t = (a, b);`); bind the components of this one to names to write them, `let (mut a, mut b) = ..;`",
                );
                None
            }
            Expr::Index(_) => {
                self.cx.error_spanned_by(
                    target,
                    "writing into a slice is not supported: a differentiable function does not modify its arguments; accumulate into a local variable",
                );
                None
            }
            _ => {
                self.cx.error_spanned_by(
                    target,
                    "unsupported assignment target; assign to a local variable",
                );
                None
            }
        }
    }

    pub(super) fn assign(&mut self, target: &Expr, operand: Operand, span: Span) {
        if self.assign_target(target).is_none() {
            return;
        }
        let Expr::Path(p) = target else { return };
        let Some(ident) = p.path.get_ident() else {
            return;
        };
        if let Some(at) = self.position(ident) {
            self.assign_at(at, operand, span);
        }
    }

    /// Assigns the binding at `(scope, index)` (a variable's, a struct
    /// local's field's) a new value.
    pub(super) fn assign_at(&mut self, (s, b): (usize, usize), operand: Operand, span: Span) {
        let binding = &self.scopes[s][b];
        let (name, previous, declared) = (binding.name.clone(), binding.value, binding.ty.clone());
        let mut kind = self.values[previous].kind;
        let literal = match &operand {
            Operand::Const(t) => syn::parse2::<Expr>(t.clone()).ok().map(|e| const_kind(&e)),
            Operand::Value(_) => None,
        };
        // A float literal is a float, whatever the variable held before (a
        // call's result, of a type the macro cannot see).
        if kind == Kind::Unknown && literal == Some(Kind::Float) {
            kind = Kind::Float;
        }
        let value = match operand {
            // A literal takes the variable's type, as the assignment does in
            // the primal: each assignment is a new local here, and
            // `v = 0.5; v.cos()` would otherwise be an ambiguous `{float}`,
            // or an `f64` where the variable is an `f32`.
            Operand::Const(c) if kind.is_copy() && literal.is_some_and(|k| k != Kind::Unknown) => {
                let ty = declared.or_else(|| {
                    let float = self.values[previous].float.clone()?;
                    Some(syn::Type::Verbatim(float.into_token_stream()))
                });
                let op = match ty {
                    Some(_) => Op::Copy(Operand::Const(c)),
                    // `true` and `false` have one type.
                    None if literal == Some(Kind::Bool) => Op::Copy(Operand::Const(c)),
                    // The type is the previous value's, whatever it is.
                    None => Op::Literal {
                        lit: c,
                        like: previous,
                    },
                };
                let dst = self.new_value(kind, None);
                self.values[dst].float = self.values[previous].float.clone();
                self.push(Stmt::Let {
                    dst,
                    op,
                    span,
                    ty: ty.map(Box::new),
                });
                dst
            }
            operand => self.materialize(operand, kind, span),
        };
        self.scopes[s][b].value = value;
        let info = &mut self.values[value];
        if info.name.is_none() && info.param.is_none() {
            info.name = Some(name);
        }
    }
}

/// An `if` or `match` whose value is a sub-slice (`&x[a..b]`) in one of
/// its arms.
fn chooses_sub_slice(e: &Expr) -> bool {
    fn is_sub_slice(e: &Expr) -> bool {
        match strip_parens(e) {
            Expr::Reference(r) => is_sub_slice(&r.expr),
            Expr::Index(i) => matches!(strip_parens(&i.index), Expr::Range(_)),
            Expr::Block(b) => block_value(&b.block).is_some_and(is_sub_slice),
            e => chooses_sub_slice(e),
        }
    }
    fn block_value(b: &syn::Block) -> Option<&Expr> {
        match b.stmts.last()? {
            SynStmt::Expr(e, None) => Some(e),
            _ => None,
        }
    }
    match strip_parens(e) {
        Expr::If(i) => {
            block_value(&i.then_branch).is_some_and(is_sub_slice)
                || i.else_branch.as_ref().is_some_and(|(_, e)| is_sub_slice(e))
        }
        Expr::Match(m) => m.arms.iter().any(|a| is_sub_slice(&a.body)),
        _ => false,
    }
}
