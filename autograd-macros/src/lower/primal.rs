//! Primal-only code: comparisons, logic, integer arithmetic and the
//! methods of `#[constant]` arguments, kept as written with each variable
//! replaced by the value it holds.

use super::expr::is_logical;
use super::*;
use quote::quote_spanned;

/// Finds constructs a primal-only expression must not hold either.
struct Forbidden<'a> {
    cx: &'a Ctxt,
    /// Whether closures are allowed: those of an iterator method that
    /// computes an integer or a `bool` (`position`, `any`, `count`).
    closures: bool,
}

impl<'ast> Visit<'ast> for Forbidden<'_> {
    fn visit_expr_macro(&mut self, m: &'ast syn::ExprMacro) {
        self.cx
            .error_spanned_by(m, super::expr::unsupported_macro(&m.mac));
    }
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        if self.closures {
            return syn::visit::visit_expr_closure(self, c);
        }
        self.cx.error_spanned_by(
            c,
            "closures are not supported in a `#[differentiable]` body",
        );
    }
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.cx
            .error_spanned_by(a, "assignment inside a condition is not supported");
    }
    fn visit_expr_block(&mut self, b: &'ast syn::ExprBlock) {
        self.cx
            .error_spanned_by(b, "blocks inside a condition are not supported");
    }
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.cx.error_spanned_by(
            m,
            "`match` is not supported here; compute the value in a `let` before it",
        );
    }
    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        self.cx.error_spanned_by(
            l,
            "`let` patterns are not supported here; compare values instead",
        );
    }
    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.cx
            .error_spanned_by(f, "loops are not supported inside an expression here");
    }
    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        self.cx
            .error_spanned_by(w, "loops are not supported inside an expression here");
    }
    fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
        self.cx
            .error_spanned_by(l, "loops are not supported inside an expression here");
    }
    fn visit_expr_unsafe(&mut self, u: &'ast syn::ExprUnsafe) {
        self.cx.error_spanned_by(
            u,
            "`unsafe` blocks are not supported in a `#[differentiable]` body",
        );
    }
}

/// A placeholder for the `k`-th value a primal expression reads.
pub(super) fn placeholder(k: usize, span: Span) -> syn::Ident {
    syn::Ident::new(&format!("__ad_p{k}"), span)
}

/// Whether an expression holds an `if`, a block, a `match`, `matches!` or
/// an iterator chain (outside closures): such a condition is lowered operand by
/// operand, so the values its branches and loops compute are the sweep's
/// own.
pub(super) fn has_value_blocks(e: &Expr) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr(&mut self, e: &'ast Expr) {
            match e {
                Expr::If(_) | Expr::Block(_) | Expr::Match(_) => self.0 = true,
                Expr::Macro(m) if super::matching::is_matches(&m.mac) => self.0 = true,
                Expr::MethodCall(m) if super::iter::is_consumer(m) || super::iter::is_search(m) => {
                    self.0 = true
                }
                Expr::Closure(_) => {}
                e => syn::visit::visit_expr(self, e),
            }
        }
    }
    let mut finder = Finder(false);
    finder.visit_expr(e);
    finder.0
}

impl Lowerer<'_> {
    /// Whether an operand of `!`, a comparison or `&&` / `||` is lowered as a
    /// value rather than primal code: it holds a value block (see
    /// [`has_value_blocks`]) or reads an `Option` local's value
    /// (`o.unwrap_or(d)`, two branches).
    pub(super) fn by_operands(&self, e: &Expr) -> bool {
        has_value_blocks(e) || self.reads_option_value(e) || self.calls_local_closure(e)
    }

    /// Whether an expression calls a closure bound by `let` (outside
    /// closures of its own): the call is its body inlined, a value of the
    /// sweep, with no function of that name in the generated code.
    fn calls_local_closure(&self, e: &Expr) -> bool {
        struct Finder<'a, 'b> {
            lowerer: &'a Lowerer<'b>,
            found: bool,
        }
        impl<'ast> Visit<'ast> for Finder<'_, '_> {
            fn visit_expr(&mut self, e: &'ast Expr) {
                match e {
                    Expr::Call(c) if self.lowerer.local_closure(&c.func).is_some() => {
                        self.found = true
                    }
                    Expr::Closure(_) => {}
                    e => syn::visit::visit_expr(self, e),
                }
            }
            fn visit_item(&mut self, _: &'ast syn::Item) {}
        }
        if self.closures.is_empty() {
            return false;
        }
        let mut finder = Finder {
            lowerer: self,
            found: false,
        };
        finder.visit_expr(e);
        finder.found
    }
}

/// Replaces each local variable a primal expression reads, resolved with
/// its hygiene, by a placeholder naming the value it holds: the code
/// generator then writes the value's local, whatever text the user's
/// variable had.
struct Placeholders<'a, 'b> {
    lowerer: &'a Lowerer<'b>,
    bindings: &'a mut Vec<(String, ValueId)>,
    /// The parameters of the closures and the names of the `match` arms
    /// the visit is inside: they shadow the body's variables of their names.
    shadowed: Vec<syn::Ident>,
    /// Reads of `Option` locals that no value holds, and what to say there.
    misread: Vec<(Span, String)>,
}

impl Placeholders<'_, '_> {
    /// The placeholder of the `k`-th value read, `v`, the same for each read.
    fn placeholder_of(&mut self, v: ValueId, span: Span) -> syn::Ident {
        let k = match self.bindings.iter().position(|b| b.1 == v) {
            Some(k) => k,
            None => {
                let name = placeholder(self.bindings.len(), span).to_string();
                self.bindings.push((name, v));
                self.bindings.len() - 1
            }
        };
        placeholder(k, span)
    }
}

impl VisitMut for Placeholders<'_, '_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Closure(c) = e {
            let outer = self.shadowed.len();
            for input in &c.inputs {
                pattern_idents(input, &mut self.shadowed);
            }
            self.visit_expr_mut(&mut c.body);
            self.shadowed.truncate(outer);
            return;
        }
        // An arm's pattern binds names for its guard and body.
        if let Expr::Match(m) = e {
            self.visit_expr_mut(&mut m.expr);
            for arm in &mut m.arms {
                let outer = self.shadowed.len();
                pattern_idents(&arm.pat, &mut self.shadowed);
                self.visit_arm_mut(arm);
                self.shadowed.truncate(outer);
            }
            return;
        }
        if let Expr::Path(p) = e
            && let Some(ident) = p.path.get_ident()
            && self.shadowed.contains(ident)
        {
            return;
        }
        // `o.is_some()`, `o.is_none()` of an `Option` local: its flag.
        if let Expr::MethodCall(m) = e
            && !matches!(&*m.receiver, Expr::Path(p) if p.path.get_ident().is_some_and(|i| self.shadowed.contains(i)))
            && let Some((flag, negated)) = self.lowerer.option_flag_read(m)
        {
            let ident = self.placeholder_of(flag, e.span());
            *e = if negated {
                syn::parse_quote!((!#ident))
            } else {
                syn::parse_quote!(#ident)
            };
            return;
        }
        // Any other read of one: no value holds it.
        if matches!(e, Expr::Path(_))
            && let Some(o) = self.lowerer.option_named(e)
        {
            self.misread
                .push((e.span(), super::options::misread_message(&o.name)));
            return;
        }
        if matches!(e, Expr::Path(_))
            && let Some(v) = self.lowerer.local_ident(e)
        {
            let ident = self.placeholder_of(v, e.span());
            *e = syn::parse_quote!(#ident);
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

/// The names a pattern binds.
fn pattern_idents(pat: &Pat, out: &mut Vec<syn::Ident>) {
    struct Names<'o>(&'o mut Vec<syn::Ident>);
    impl<'ast> Visit<'ast> for Names<'_> {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.0.push(p.ident.clone());
            syn::visit::visit_pat_ident(self, p);
        }
    }
    Names(out).visit_pat(pat);
}

impl Lowerer<'_> {
    /// A `#[constant]` argument of a type the macro does not differentiate
    /// (a struct of data, say), possibly behind field accesses.
    pub(super) fn constant_base(&self, e: &Expr) -> bool {
        match strip_parens(e) {
            Expr::Field(f) => self.constant_base(&f.base),
            e @ Expr::Index(_) => self.constant_place(e),
            e => self.local_ident(e).is_some_and(|v| {
                let info = &self.values[v];
                (info.param.is_some() && info.kind == Kind::Unknown) || self.data.contains_key(&v)
            }),
        }
    }

    /// `p.times`, `&p.times` or `p.rows[i]`: a field of a `#[constant]`
    /// argument (of a type the macro does not differentiate), or an element
    /// of one, whose type it cannot see.
    pub(super) fn constant_field(&self, e: &Expr) -> bool {
        match strip_parens(e) {
            Expr::Reference(r) if r.mutability.is_none() => self.constant_field(&r.expr),
            Expr::Field(f) => self.constant_base(&f.base),
            e @ Expr::Index(_) => self.constant_place(e),
            _ => false,
        }
    }

    /// `p.rates[i]`, `p.curve.rows[i][j]`: an element of a field of a
    /// `#[constant]` argument, read in place. Its type is the user's
    /// (unseen here), so it is primal code of unknown kind, as the field
    /// itself is.
    pub(super) fn constant_place(&self, e: &Expr) -> bool {
        match strip_parens(e) {
            Expr::Index(i) => !matches!(&*i.index, Expr::Range(_)) && self.constant_field(&i.expr),
            _ => false,
        }
    }

    /// `o` converted to the scalar where it is a value of a `#[constant]`
    /// argument's type (`market.rate`, of a type the macro cannot see)
    /// next to a float, in the second-order twin: the twin computes in
    /// dual numbers, the data keeps its `f64`s. Rust has no arithmetic or
    /// comparison of a float with anything but a float of its type, so
    /// such a value is one, converted exactly as a literal is.
    ///
    /// A name bound to a lifted item (see `lifted`) that meets a float, a
    /// value or a float literal, is the scalar already: it becomes of kind
    /// `Float`, read by value (a reference to it, as a value of unknown
    /// type is read, has no arithmetic with the twin's scalar).
    pub(super) fn lift_constant(&mut self, o: Operand, other: &Operand, span: Span) -> Operand {
        let float_literal = || {
            matches!(other, Operand::Const(t)
                if syn::parse2::<Expr>(t.clone()).is_ok_and(|e| const_kind(&e) == Kind::Float))
        };
        if self.is_lifted(&o) && (self.kind(other) == Some(Kind::Float) || float_literal()) {
            self.lifted_is_float(&o);
            return o;
        }
        if self.kind(other) != Some(Kind::Float) {
            return o;
        }
        self.lift_opaque(o, span)
    }

    /// `o`, where it is a name bound to a lifted item (see `lifted`), known
    /// to be a float from now on: it met a float, or is the operand of a
    /// float rule (`k.powi(2)`, `f64::exp(k)`), and is read by value as the
    /// twin's scalar. Anything else is left as it is.
    pub(super) fn lifted_is_float(&mut self, o: &Operand) {
        if let Some(v) = o.value()
            && self.is_lifted(o)
        {
            self.values[v].kind = Kind::Float;
            self.values[v].float = self.scalar.clone();
        }
    }

    /// Whether `o` is a name bound to a lifted item not yet known to be a
    /// float (see `lifted`).
    pub(super) fn is_lifted(&self, o: &Operand) -> bool {
        o.value()
            .is_some_and(|v| self.lifted.contains(&v) && self.values[v].kind == Kind::Unknown)
    }

    /// `a op b` (or `-a`) in the twin where an operand is a name bound to
    /// a lifted item (see `lifted`) and nothing tells it is a float (`k * j`,
    /// `k + K2`, `-k`): primal code, as written, whose result is one such
    /// value too.
    pub(super) fn lifted_arithmetic(
        &mut self,
        op: TokenStream,
        a: &Operand,
        b: Option<&Operand>,
        span: Span,
    ) -> Option<Operand> {
        let lifted = |o: &Operand| self.is_lifted(o);
        let operand = |o: &Operand| lifted(o) || matches!(o, Operand::Const(_));
        if !(lifted(a) || b.is_some_and(lifted)) || !operand(a) || !b.is_none_or(operand) {
            return None;
        }
        let mut bindings = Vec::new();
        let mut written = |k: usize, o: &Operand| match o {
            Operand::Const(t) => t.clone(),
            Operand::Value(v) => {
                let p = placeholder(k, span);
                bindings.push((p.to_string(), *v));
                p.to_token_stream()
            }
        };
        let expr: Expr = match b {
            None => {
                let a = written(0, a);
                syn::parse_quote_spanned!(span=> #op #a)
            }
            Some(b) => {
                let (a, b) = (written(0, a), written(1, b));
                syn::parse_quote_spanned!(span=> #a #op #b)
            }
        };
        let v = self.emit(Op::Primal { expr, bindings }, Kind::Unknown, span);
        self.opaque_primals.remove(&v);
        self.lifted.insert(v);
        Some(Operand::Value(v))
    }

    /// An item read by name in the body (`K`, `C[i]`, `PI`, a `const` of
    /// the body), as the generated code reads it. The second-order twin
    /// computes in its scalar while the item keeps its declared type,
    /// which only rustc knows: `autograd::__private::Lift` converts a float
    /// or an array of floats to the scalar and leaves anything else (an
    /// integer loop bound) as it is.
    pub(super) fn item_read(&self, item: TokenStream, span: Span) -> TokenStream {
        match &self.scalar {
            Some(s) if self.lifts_constants => quote_spanned! {span=> ({
                #[allow(unused_imports)]
                use ::autograd::__private::{LiftAsIs as _, LiftFloat as _, LiftFloats as _};
                (&&::autograd::__private::Lift(&#item)).lift::<#s>()
            })},
            _ => item,
        }
    }

    /// Whether `p` names a variable of the function enclosing a `map`
    /// closure, which the closure captures.
    pub(super) fn captured(&self, p: &syn::ExprPath) -> bool {
        p.path
            .get_ident()
            .is_some_and(|ident| self.outer.iter().any(|o| ident == o))
    }

    /// `o` converted to the scalar, in the twin, where it is primal code of
    /// a type the macro cannot see that a float is expected of.
    pub(super) fn lift_opaque(&mut self, o: Operand, span: Span) -> Operand {
        let (Some(v), Some(s)) = (self.opaque_in_twin(&o), self.scalar.clone()) else {
            return o;
        };
        let p = placeholder(0, span);
        let expr: Expr = syn::parse_quote_spanned!(span=> <#s as ::autograd::num_traits::NumCast>::from(#p).unwrap());
        let bindings = vec![(p.to_string(), v)];
        let lifted = self.emit(Op::Primal { expr, bindings }, Kind::Float, span);
        self.values[lifted].float = Some(s);
        Operand::Value(lifted)
    }

    /// The value `o` is, in the twin, if it is primal code of a type the
    /// macro cannot see (see `opaque_primals`).
    pub(super) fn opaque_in_twin(&self, o: &Operand) -> Option<ValueId> {
        o.value().filter(|v| {
            self.lifts_constants
                && self.values[*v].kind == Kind::Unknown
                && self.opaque_primals.contains(v)
        })
    }

    /// `a op b` (or `-a`, with no `b`) of values of `#[constant]` data in
    /// the twin: constant arithmetic, kept as primal code of the data's
    /// type so that the result, too, is converted where it meets a float
    /// (`(m.r + m.q) * x`). `None` where an operand is anything else.
    pub(super) fn opaque_arithmetic(
        &mut self,
        op: TokenStream,
        a: &Operand,
        b: Option<&Operand>,
        span: Span,
    ) -> Option<Operand> {
        let a = self.opaque_in_twin(a)?;
        let (p, q) = (placeholder(0, span), placeholder(1, span));
        let (expr, bindings): (Expr, _) = match b {
            None => (
                syn::parse_quote_spanned!(span=> #op #p),
                vec![(p.to_string(), a)],
            ),
            Some(b) => {
                let b = self.opaque_in_twin(b)?;
                (
                    syn::parse_quote_spanned!(span=> #p #op #q),
                    vec![(p.to_string(), a), (q.to_string(), b)],
                )
            }
        };
        Some(Operand::Value(self.emit(
            Op::Primal { expr, bindings },
            Kind::Unknown,
            span,
        )))
    }

    /// `o` passed by value to another function, in the twin, where it is
    /// primal code of a type the macro cannot see (`g(x, market.rate)`):
    /// the runtime's `twin_arg` converts a float to the scalar the callee's
    /// twin takes and leaves an integer or a `bool` as it is.
    pub(super) fn twin_arg(&mut self, o: Operand, span: Span) -> Operand {
        let Some(v) = self.opaque_in_twin(&o) else {
            return o;
        };
        let p = placeholder(0, span);
        let expr: Expr = syn::parse_quote_spanned!(span=> ::autograd::__private::twin_arg(#p));
        let bindings = vec![(p.to_string(), v)];
        Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Unknown, span))
    }

    /// Whether a comparison reads a part of a `#[constant]` argument or an
    /// item (`x > LIMIT`): in the twin it is lowered operand by operand, so
    /// the part or the item can be converted to the scalar.
    pub(super) fn compares_constant_parts(&self, b: &syn::ExprBinary) -> bool {
        struct Finder<'a, 'b> {
            lowerer: &'a Lowerer<'b>,
            found: bool,
        }
        impl<'ast> Visit<'ast> for Finder<'_, '_> {
            fn visit_expr(&mut self, e: &'ast Expr) {
                let item = matches!(e, Expr::Path(p)
                    if self.lowerer.local_ident(e).is_none()
                        && self.lowerer.record_named(e).is_none()
                        && !self.lowerer.captured(p));
                if item || self.lowerer.constant_field(e) {
                    self.found = true;
                } else {
                    syn::visit::visit_expr(self, e);
                }
            }
            // A function's name is no item read; a cast's operand is read
            // as declared (see `lower_expr`).
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                c.args.iter().for_each(|a| self.visit_expr(a));
            }
            fn visit_expr_cast(&mut self, _: &'ast syn::ExprCast) {}
        }
        if !self.lifts_constants {
            return false;
        }
        let mut finder = Finder {
            lowerer: self,
            found: false,
        };
        finder.visit_expr(&b.left);
        finder.visit_expr(&b.right);
        finder.found
    }

    /// What a primal-only expression computes, as far as its variables and
    /// literals tell: `!` is bitwise on an integer, logical on a `bool`.
    pub(super) fn primal_kind(&self, e: &Expr) -> Kind {
        match strip_parens(e) {
            e @ Expr::Path(_) => self
                .local_ident(e)
                .map_or(Kind::Unknown, |v| self.values[v].kind),
            Expr::Unary(u) => self.primal_kind(&u.expr),
            Expr::Binary(b) if is_logical(&b.op) => Kind::Bool,
            Expr::Binary(b) => match self.primal_kind(&b.left) {
                Kind::Unknown => self.primal_kind(&b.right),
                k => k,
            },
            e => const_kind(e),
        }
    }

    /// Whether an expression reads a local variable of the body.
    pub(super) fn reads_locals(&self, e: &Expr) -> bool {
        let mut bindings = Vec::new();
        Placeholders {
            lowerer: self,
            bindings: &mut bindings,
            shadowed: Vec::new(),
            misread: Vec::new(),
        }
        .visit_expr_mut(&mut e.clone());
        !bindings.is_empty()
    }

    /// Primal-only code: kept as written, each variable it reads replaced
    /// by a placeholder for the value its binding holds.
    pub(super) fn lower_primal(&mut self, e: &Expr, kind: Kind) -> Operand {
        Forbidden {
            cx: self.cx,
            closures: false,
        }
        .visit_expr(e);
        self.lower_primal_unchecked(e, kind)
    }

    /// An iterator method that computes an integer or a `bool` from a
    /// chain (`x.iter().position(|&k| k >= t)`, `any`, `all`, `count`):
    /// no derivative flows through it, so it is primal code as written,
    /// its closures included, whatever values it reads.
    pub(super) fn lower_primal_search(&mut self, m: &syn::ExprMethodCall, kind: Kind) -> Operand {
        let e = Expr::MethodCall(m.clone());
        Forbidden {
            cx: self.cx,
            closures: true,
        }
        .visit_expr(&e);
        self.lower_primal_unchecked(&e, kind)
    }

    /// Primal code the macro wrote itself (a `match` arm's pattern test).
    pub(super) fn lower_primal_unchecked(&mut self, e: &Expr, kind: Kind) -> Operand {
        let mut bindings = Vec::new();
        let mut expr = e.clone();
        self.scopes.push(Vec::new());
        self.resolve_parts_in(&mut expr);
        self.placeholders_in(&mut expr, &mut bindings);
        self.scopes.pop();
        if bindings.is_empty() {
            return Operand::Const(quote!((#expr)));
        }
        Operand::Value(self.emit(Op::Primal { expr, bindings }, kind, e.span()))
    }

    /// Replaces each variable `e` reads by a placeholder, adding it to
    /// `bindings`.
    pub(super) fn placeholders_in(&self, e: &mut Expr, bindings: &mut Vec<(String, ValueId)>) {
        let mut placeholders = Placeholders {
            lowerer: self,
            bindings,
            shadowed: Vec::new(),
            misread: Vec::new(),
        };
        placeholders.visit_expr_mut(e);
        for (span, message) in placeholders.misread {
            self.cx.error_at(span, message);
        }
    }

    /// Rewrites what primal code reads of tuples and windows (`t.0`,
    /// `w[1]`) to names bound, in the innermost scope, to the values they
    /// read, and drops `*` from items (`*v > 0.0`), which are values here.
    pub(super) fn resolve_parts_in(&mut self, e: &mut Expr) {
        struct Parts<'a, 'b> {
            lowerer: &'a mut Lowerer<'b>,
        }
        impl Parts<'_, '_> {
            /// Whether `*e` reads a local variable (not a reference argument).
            fn derefs_local(&self, e: &Expr) -> bool {
                match strip_parens(e) {
                    Expr::Unary(u) if matches!(u.op, UnOp::Deref(_)) => self.derefs_local(&u.expr),
                    e => {
                        self.lowerer.is_inout(e)
                            || self
                                .lowerer
                                .local_ident(e)
                                .is_some_and(|v| !self.lowerer.values[v].by_ref)
                    }
                }
            }
        }
        impl VisitMut for Parts<'_, '_> {
            fn visit_expr_mut(&mut self, e: &mut Expr) {
                match e {
                    // A closure's parameters may shadow the names.
                    Expr::Closure(_) => return,
                    Expr::Unary(u)
                        if matches!(u.op, UnOp::Deref(_)) && self.derefs_local(&u.expr) =>
                    {
                        *e = (*u.expr).clone();
                        return self.visit_expr_mut(e);
                    }
                    Expr::Path(_)
                    | Expr::Field(_)
                    | Expr::Index(_)
                    | Expr::MethodCall(_)
                    | Expr::Call(_) => {
                        // An element (or the shape) of an array of arrays
                        // is read as a value too, and so is a call of a
                        // closure bound by `let`: its body, inlined.
                        let part = match (self.lowerer.lower_nested_read(e), &*e) {
                            (Some(o), _) => Some(o),
                            (None, Expr::Call(c)) => match self.lowerer.local_closure(&c.func) {
                                Some(_) => Some(self.lowerer.lower_expr(e)),
                                None => None,
                            },
                            (None, Expr::MethodCall(_)) => None,
                            (None, _) => self.lowerer.lower_part(e),
                        };
                        if let Some(part) = part {
                            *e = match part {
                                Operand::Const(t) => syn::parse_quote!((#t)),
                                Operand::Value(v) => {
                                    let ident = syn::Ident::new(
                                        &format!("__ad_part{}", v.index()),
                                        Span::mixed_site(),
                                    );
                                    self.lowerer.bind(&ident, v, false, None);
                                    syn::parse_quote!(#ident)
                                }
                            };
                            return;
                        }
                    }
                    _ => {}
                }
                syn::visit_mut::visit_expr_mut(self, e);
            }
        }
        Parts { lowerer: self }.visit_expr_mut(e);
    }

    /// A comparison whose operands hold `if` expressions or blocks: the
    /// operands are lowered as values, the comparison is primal code.
    pub(super) fn lower_comparison(&mut self, b: &syn::ExprBinary) -> Operand {
        let lhs = self.lower_expr(&b.left);
        let rhs = self.lower_expr(&b.right);
        let lhs = self.lift_constant(lhs, &rhs, b.op.span());
        let rhs = self.lift_constant(rhs, &lhs, b.op.span());
        let op = &b.op;
        if let (Operand::Const(l), Operand::Const(r)) = (&lhs, &rhs) {
            return Operand::Const(quote!((#l #op #r)));
        }
        let mut bindings = Vec::new();
        let mut operand = |o: Operand| match o {
            Operand::Const(t) => t,
            Operand::Value(v) => {
                let placeholder = placeholder(bindings.len(), b.op.span());
                bindings.push((placeholder.to_string(), v));
                placeholder.into_token_stream()
            }
        };
        let (l, r) = (operand(lhs), operand(rhs));
        let expr: Expr = syn::parse_quote!(#l #op #r);
        Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Bool, b.span()))
    }
}
