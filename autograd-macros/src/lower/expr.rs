//! Expressions: literals, variables, operators, casts, slice indexing,
//! and the errors for what a body may not contain.

use super::calls::is_split_call;
use super::primal::placeholder;
use super::sequence::Sequence;
use super::*;
use proc_macro2::Literal;

/// Comparisons, `&&` and `||`: their value is a `bool`.
pub(super) fn is_logical(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::And(_)
            | BinOp::Or(_)
    )
}

/// The rule of `+`, `-`, `*` or `/`, with the operator as written.
fn arithmetic(op: &BinOp) -> Option<(&'static Rule, TokenStream)> {
    Some(match op {
        BinOp::Add(t) => (table::operator_rule(Operator::Add), t.to_token_stream()),
        BinOp::Sub(t) => (table::operator_rule(Operator::Sub), t.to_token_stream()),
        BinOp::Mul(t) => (table::operator_rule(Operator::Mul), t.to_token_stream()),
        BinOp::Div(t) => (table::operator_rule(Operator::Div), t.to_token_stream()),
        _ => return None,
    })
}

/// An operand of `+ - * /` without its `&`: `&a * &b` is `a * b` (the
/// sweeps borrow non-`Copy` operands themselves).
fn operand_of(e: &Expr) -> &Expr {
    match e {
        Expr::Reference(r) if r.mutability.is_none() => operand_of(&r.expr),
        e => e,
    }
}

fn first_token_span(e: &Expr) -> Span {
    e.to_token_stream()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t| t.span())
}

fn last_token_span(e: &Expr) -> Span {
    e.to_token_stream()
        .into_iter()
        .last()
        .map_or_else(Span::call_site, |t| t.span())
}

/// Where `return` may stand, said at one found elsewhere.
/// The one error for a macro the lowering does not read: the attribute
/// sees the call's tokens, never what it expands to.
pub(super) fn unsupported_macro(mac: &syn::Macro) -> String {
    let name = mac
        .path
        .segments
        .last()
        .map_or_else(String::new, |s| s.ident.to_string());
    if [
        "print", "println", "eprint", "eprintln", "dbg", "write", "writeln",
    ]
    .contains(&name.as_str())
    {
        // The generated items may run a statement more than once (a
        // loop's reverse sweep re-runs its forward), so output would repeat.
        return format!(
            "`{name}!` is not supported in a `#[differentiable]` body: the generated items may run its statements more than once; print where the function is called, or check values with `assert!` or `debug_assert!`"
        );
    }
    format!(
        "`{name}!` is a macro, and `#[differentiable]` sees its call, not what it expands to: write the code it stands for here, or put it in a `#[differentiable]` function and call that; the macros a body may use are `vec![..]`, `matches!(..)` and the assertions ({})",
        super::asserts::ASSERTS
            .iter()
            .map(|a| format!("`{a}!`"))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

pub(super) const RETURN_IN_EXPRESSION: &str = "`return` is supported as a statement (`if c { return v; }`) and as a whole arm of the `if` or `match` that is the value of a `let` or an assignment (`let x = if c { a } else { return v };`, `s += match k { 0 => a, _ => return v };`), not inside other expressions; bind the part that may return with `let` first";

impl Lowerer<'_> {
    pub(super) fn lower_expr(&mut self, e: &Expr) -> Operand {
        if let Some(chain) = self.match_chain(e) {
            return self.lower_expr(&chain);
        }
        let expected = self.expected.take();
        if let Expr::Call(c) = e
            && let Expr::Path(p) = &*c.func
            && super::from_fn::is_from_fn(&p.path)
        {
            return self.lower_from_fn(c, expected);
        }
        if matches!(e, Expr::Reference(_) | Expr::MethodCall(_))
            && let Some(whole) = self.lower_record_whole(e)
        {
            return whole;
        }
        if let Expr::Path(_) = e
            && let Some(o) = self.option_named(e)
        {
            return self.option_misread(e, &o);
        }
        if matches!(e, Expr::Path(_) | Expr::Index(_) | Expr::MethodCall(_))
            && let Some(o) = self.lower_nested_read(e)
        {
            return o;
        }
        if matches!(e, Expr::Path(_) | Expr::Field(_) | Expr::Index(_))
            && let Some(part) = self.lower_part(e)
        {
            return part;
        }
        if matches!(e, Expr::Field(_) | Expr::Index(_))
            && let Some(c) = self.outer_constant(e)
        {
            return c;
        }
        if matches!(
            e,
            Expr::Array(_) | Expr::Repeat(_) | Expr::Tuple(_) | Expr::Macro(_) | Expr::Call(_)
        ) && let Some(collection) = self.lower_collection(e)
        {
            return collection;
        }
        // A mutable tuple local read whole (returned, say): its components
        // packed, as the tuple expression they were assigned from would be.
        if matches!(e, Expr::Path(_))
            && let Some(Item::Tuple(items)) = self.record_tuple(e)
        {
            let elems: Option<Vec<Operand>> = items
                .into_iter()
                .map(|i| match i {
                    Item::Value(o) => Some(o),
                    _ => None,
                })
                .collect();
            if let Some(elems) = elems {
                let op = Op::Pack {
                    elems,
                    collection: crate::ir::Collection::Tuple,
                };
                return Operand::Value(self.emit(op, Kind::Array, e.span()));
            }
        }
        match e {
            Expr::Lit(l) if kind_of_lit(&l.lit) => Operand::Const(l.to_token_stream()),
            Expr::Path(p) => match self.local_ident(e) {
                Some(v) if self.closures.contains_key(&v) => self.closure_not_called(e),
                Some(v) => Operand::Value(v),
                None if p
                    .path
                    .get_ident()
                    .is_some_and(|i| self.component(i, 0).is_some()) =>
                {
                    self.cx.error_spanned_by(
                        p,
                        "a tuple bound by `let` is read by its components: write `sc.0`, `sc.1`",
                    );
                    self.missing(e.span())
                }
                None => {
                    if let Some(ident) = p.path.get_ident()
                        && self.outer.iter().any(|o| ident == o)
                    {
                        // A variable of the enclosing function, captured.
                        if !self.captures.contains(ident) {
                            self.captures.push(ident.clone());
                        }
                        return Operand::Const(p.to_token_stream());
                    }
                    // Not a variable: an item (`K`, `Self::K`, `PI`).
                    Operand::Const(self.item_read(p.to_token_stream(), p.span()))
                }
            },
            Expr::Paren(p) => {
                self.expected = expected;
                match self.lower_expr(&p.expr) {
                    Operand::Const(t) => Operand::Const(quote!((#t))),
                    v => v,
                }
            }
            Expr::Group(g) => {
                self.expected = expected;
                self.lower_expr(&g.expr)
            }
            Expr::Unary(u) => self.lower_unary(u),
            Expr::Binary(b) => self.lower_binary(b),
            Expr::MethodCall(m) => self.lower_method(m),
            Expr::Call(c) => self.lower_call(c),
            Expr::Index(i) => self.lower_index(i),
            Expr::Cast(c) => {
                // `N as usize`, `K as i32`: an item cast is read as
                // declared, not in the twin's scalar (which has no `as`).
                let arg = match strip_parens(&c.expr) {
                    item @ Expr::Path(p)
                        if self.local_ident(item).is_none()
                            && self.record_named(item).is_none()
                            && !self.captured(p) =>
                    {
                        Operand::Const(p.to_token_stream())
                    }
                    _ => self.lower_expr(&c.expr),
                };
                let ty = (*c.ty).clone();
                match arg {
                    Operand::Const(t) => Operand::Const(quote!((#t as #ty))),
                    arg => {
                        let kind = if float_type(&ty) {
                            Kind::Float
                        } else {
                            Kind::Int
                        };
                        let written = c.to_token_stream();
                        let float_cast = kind == Kind::Float;
                        let v = self.emit(Op::Cast { arg, ty, written }, kind, c.span());
                        if float_cast {
                            self.float_casts.insert(v);
                        }
                        Operand::Value(v)
                    }
                }
            }
            Expr::Field(f) if self.constant_base(&f.base) => self.lower_primal(e, Kind::Unknown),
            // `sc.0` of `let sc = x.sin_cos();`.
            Expr::Field(f) if let Some(v) = self.tuple_field(f) => Operand::Value(v),
            // `inner_grad(x, w).2`: a component of a call's tuple.
            Expr::Field(f) if let Some(o) = self.call_component(f) => o,
            // `x.sin_cos().0`: the tuple method's own error says what to
            // write instead.
            Expr::Field(f) if is_split_call(&f.base) => self.lower_expr(&f.base),
            // A field of a variable bound to an unsupported expression
            // (`let p = x.sin_cos(); p.0`), reported there already.
            Expr::Field(f) if self.local_ident(&f.base).is_some() && self.cx.has_errors() => {
                self.missing(e.span())
            }
            // `pos.x`, `m.m12` of a nalgebra value: the element it names.
            Expr::Field(f) if let Some(index) = self.named_element(f) => self.lower_index(&index),
            Expr::If(i) => {
                self.expected = expected;
                self.lower_if(i, true)
            }
            Expr::Macro(m) if let Some(test) = self.lower_matches(&m.mac) => test,
            Expr::Match(m) if super::matching::is_pattern_test(m) => self.lower_pattern_test(m),
            Expr::Match(m) if super::matching::is_payload(m) => self.lower_payload(m),
            Expr::Block(b) if b.label.is_none() => {
                self.scopes.push(Vec::new());
                self.expected = expected;
                let tail = self.lower_stmts(&b.block.stmts);
                self.scopes.pop();
                match tail {
                    Some(t) => t,
                    None => {
                        self.cx
                            .error_spanned_by(b, "this block needs a value at its end");
                        self.missing(b.span())
                    }
                }
            }
            _ => {
                self.unsupported(e);
                self.missing(e.span())
            }
        }
    }

    /// `pos.x` .. `pos.b` of a nalgebra vector, or `m.m11` .. `m.m66` of a
    /// matrix, as the index expression it is (`pos[0]`, `m[(0, 0)]`). The
    /// user's function, kept as written, lets rustc judge whether the value
    /// has that field.
    pub(super) fn named_element(&self, f: &syn::ExprField) -> Option<syn::ExprIndex> {
        let syn::Member::Named(field) = &f.member else {
            return None;
        };
        let base = self.local_ident(strip_parens(&f.base))?;
        if self.values[base].kind != Kind::Matrix {
            return None;
        }
        let name = field.to_string();
        let digit = |c: u8| (b'1'..=b'6').contains(&c).then(|| usize::from(c - b'1'));
        let index: Expr = match name.as_bytes() {
            [c] => {
                let k = Literal::usize_unsuffixed(b"xyzwab".iter().position(|x| x == c)?);
                syn::parse_quote_spanned!(field.span()=> #k)
            }
            [b'm', r, c] => {
                let r = Literal::usize_unsuffixed(digit(*r)?);
                let c = Literal::usize_unsuffixed(digit(*c)?);
                syn::parse_quote_spanned!(field.span()=> (#r, #c))
            }
            _ => return None,
        };
        Some(syn::ExprIndex {
            attrs: f.attrs.clone(),
            expr: f.base.clone(),
            bracket_token: Default::default(),
            index: Box::new(index),
        })
    }

    /// `tuple.k` of a tuple bound component by component.
    fn tuple_field(&self, f: &syn::ExprField) -> Option<ValueId> {
        let syn::Member::Unnamed(index) = &f.member else {
            return None;
        };
        let Expr::Path(p) = strip_parens(&f.base) else {
            return None;
        };
        self.component(p.path.get_ident()?, index.index as usize)
    }

    pub(super) fn unsupported(&self, e: &Expr) {
        let message = match e {
            Expr::Closure(_) => {
                "closures are not supported in a `#[differentiable]` body".to_string()
            }
            Expr::Macro(m) => unsupported_macro(&m.mac),
            Expr::Unsafe(_) => {
                "`unsafe` blocks are not supported in a `#[differentiable]` body".into()
            }
            Expr::Match(_) => "`match` is not supported here; bind its value with `let` before it".into(),
            Expr::Loop(_) => {
                "a `loop` with a value is supported as `let x = loop { .. };`, `x = loop { .. };` or as the function's value; bind it with `let` first"
                    .into()
            }
            Expr::Break(_) | Expr::Continue(_) => {
                "`break` and `continue` are supported as statements (`if c { break; }`) and as whole arms of the `if` or `match` that is the value of a `let` or an assignment (`let v = if c { a } else { break };`, `s += match k { 0 => a, _ => continue };`), not inside other expressions; bind the part that may exit with `let` first".into()
            }
            Expr::Return(_) => {
                RETURN_IN_EXPRESSION.into()
            }
            Expr::Reference(_) => {
                "references are supported only as arguments of calls to `#[differentiable]` functions".into()
            }
            Expr::Async(_) | Expr::Await(_) => {
                "`async` code is not supported in a `#[differentiable]` body".into()
            }
            Expr::Try(_) => "the `?` operator is not supported in a `#[differentiable]` body".into(),
            Expr::Assign(_) => "an assignment is a statement here, not a value".into(),
            Expr::Field(f)
                if self
                    .local_ident(&f.base)
                    .is_some_and(|v| self.values[v].kind == Kind::Array) =>
            {
                "reading an element of a tuple is not supported; keep the parts in variables of their own (`let a = ..; let b = ..;`) or use an array (`v[0]`)".into()
            }
            Expr::Field(_) => "field access is supported on a `Tangent` struct argument (`p.a`), on a struct built in the body (`let s = State { x, v };`) and on one a `#[differentiable]` function of this module returns (`let p = make(a);`, its struct declared in this file with `f64` fields); otherwise have the function return the fields as a tuple of floats and bind them, `let (u, v) = make(a);`".into(),
            Expr::Struct(_) => {
                "a struct is built in a `#[differentiable]` body as a local, `let s = State { x, v };` (named fields, no `..` but `..s` of itself when assigned anew), and used by its fields; pass or return its fields".into()
            }
            Expr::Tuple(_) => {
                "structs and tuples of fewer than two floats are not supported; a `#[differentiable]` body computes with floats, arrays, `Vec`s, slices and integers".into()
            }
            Expr::Range(_) => "ranges are supported only as the iterator of a `for` loop".into(),
            _ => format!(
                "unsupported expression `{}` in a `#[differentiable]` body",
                e.to_token_stream()
            ),
        };
        self.cx.error_spanned_by(e, message);
    }

    fn lower_unary(&mut self, u: &syn::ExprUnary) -> Operand {
        match u.op {
            UnOp::Neg(minus) => match self.lower_expr(&u.expr) {
                Operand::Const(t) => Operand::Const(quote!(-#t)),
                arg if self.opaque_in_twin(&arg).is_some() => self
                    .opaque_arithmetic(minus.to_token_stream(), &arg, None, u.span())
                    .unwrap_or(arg),
                arg if self.is_lifted(&arg) => self
                    .lifted_arithmetic(minus.to_token_stream(), &arg, None, u.span())
                    .unwrap_or(arg),
                arg => {
                    let kind = self.result_kind(std::slice::from_ref(&arg));
                    Operand::Value(self.emit(
                        Op::Rule {
                            rule: table::operator_rule(Operator::Neg),
                            args: vec![arg],
                            syntax: Syntax::Operator(minus.to_token_stream()),
                        },
                        kind,
                        u.span(),
                    ))
                }
            },
            UnOp::Not(not) if self.by_operands(&u.expr) => match self.lower_expr(&u.expr) {
                Operand::Const(t) => Operand::Const(quote!((#not #t))),
                Operand::Value(v) => {
                    let p = placeholder(0, not.span);
                    let bindings = vec![(p.to_string(), v)];
                    let expr: Expr = syn::parse_quote!(#not #p);
                    Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Bool, u.span()))
                }
            },
            // Logical on a `bool`, bitwise on an integer: primal code either way.
            UnOp::Not(_) => {
                let kind = match self.primal_kind(&u.expr) {
                    Kind::Int => Kind::Int,
                    _ => Kind::Bool,
                };
                self.lower_primal(&Expr::Unary(u.clone()), kind)
            }
            // `*v` of an iterator's item: items are values here.
            UnOp::Deref(_) if self.is_inout(strip_parens(&u.expr)) => self.lower_expr(&u.expr),
            UnOp::Deref(_) => match self.lower_expr(&u.expr) {
                // `*y0` of a `&[f64; N]` or a fixed-size nalgebra argument:
                // a copy, as `y0.clone()`.
                Operand::Value(v)
                    if self.values[v].by_ref
                        && matches!(self.values[v].kind, Kind::Array | Kind::Matrix) =>
                {
                    let kind = self.values[v].kind;
                    Operand::Value(self.emit(Op::Copy(Operand::Value(v)), kind, u.span()))
                }
                Operand::Value(v) if self.values[v].by_ref => {
                    self.cx.error_spanned_by(
                        u,
                        "dereferencing an argument is not supported in a `#[differentiable]` body",
                    );
                    self.missing(u.span())
                }
                operand => operand,
            },
            _ => {
                self.cx.error_spanned_by(
                    u,
                    "dereferencing is not supported in a `#[differentiable]` body",
                );
                self.missing(u.span())
            }
        }
    }

    fn lower_binary(&mut self, b: &syn::ExprBinary) -> Operand {
        match &b.op {
            BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) => {}
            BinOp::And(_) | BinOp::Or(_)
                if self.by_operands(&b.left)
                    || self.by_operands(&b.right)
                    || self.compares_constant_parts(b) =>
            {
                return self.lower_short_circuit(b);
            }
            BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
                if self.by_operands(&b.left)
                    || self.by_operands(&b.right)
                    || self.compares_constant_parts(b) =>
            {
                return self.lower_comparison(b);
            }
            BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::And(_)
            | BinOp::Or(_) => return self.lower_primal(&Expr::Binary(b.clone()), Kind::Bool),
            BinOp::Rem(_)
            | BinOp::BitAnd(_)
            | BinOp::BitOr(_)
            | BinOp::BitXor(_)
            | BinOp::Shl(_)
            | BinOp::Shr(_) => {
                // Integer-only operators: fine on integers, not differentiable on floats.
                let lhs = self.lower_expr(&b.left);
                let rhs = self.lower_expr(&b.right);
                if let (Operand::Const(l), Operand::Const(r)) = (&lhs, &rhs) {
                    let op = &b.op;
                    return Operand::Const(quote!((#l #op #r)));
                }
                let kinds: Vec<Kind> = [&lhs, &rhs].iter().filter_map(|o| self.kind(o)).collect();
                // `%` of floats (`theta % two_pi`): its rule.
                if matches!(b.op, BinOp::Rem(_))
                    && kinds.contains(&Kind::Float)
                    && kinds.iter().all(|k| *k == Kind::Float)
                {
                    let rhs = self.lift_constant(rhs, &lhs, b.op.span());
                    let lhs = self.lift_constant(lhs, &rhs, b.op.span());
                    self.floats_mixed(&b.op, &lhs, &rhs);
                    let args = vec![lhs, rhs];
                    let token = b.op.to_token_stream();
                    return Operand::Value(self.emit(
                        Op::Rule {
                            rule: table::operator_rule(Operator::Rem),
                            args,
                            syntax: Syntax::Operator(token),
                        },
                        Kind::Float,
                        b.span(),
                    ));
                }
                if !kinds.iter().all(|k| matches!(k, Kind::Int | Kind::Bool)) {
                    self.cx.error_spanned_by(
                        b.op,
                        format!(
                            "operator `{}` is supported on integers only; on floats use `+`, `-`, `*`, `/`, `%`",
                            b.op.to_token_stream()
                        ),
                    );
                    return self.missing(b.span());
                }
                // `&`, `|` and `^` are logical on `bool`s.
                let kind = if kinds.contains(&Kind::Bool) {
                    Kind::Bool
                } else {
                    Kind::Int
                };
                return self.lower_primal(&Expr::Binary(b.clone()), kind);
            }
            _ => {
                self.cx
                    .error_spanned_by(b, "compound assignment is a statement here, not a value");
                return self.missing(b.span());
            }
        }
        self.lower_arithmetic_chain(b)
    }

    /// `+`, `-`, `*`, `/` and the operations nested in their left operand
    /// (`a + b + c + ..`), lowered from the leftmost operand up in a loop:
    /// recursing into the left operand made the macro's stack as deep as a
    /// long sum, and printing each operation to find its span took time
    /// quadratic in its length. The span is the one `Spanned` gives: the
    /// first token of the chain joined with the last of the right operand.
    fn lower_arithmetic_chain(&mut self, top: &syn::ExprBinary) -> Operand {
        // The operations from the outermost in, while the left operand is one.
        let mut chain = Vec::new();
        let mut next = Some(top);
        while let Some(b) = next
            && let Some((rule, token)) = arithmetic(&b.op)
        {
            chain.push((b, rule, token));
            next = match &*b.left {
                Expr::Binary(inner) if inner.attrs.is_empty() => Some(inner),
                _ => None,
            };
        }
        let leftmost = chain.last().map_or(&top.left, |(b, ..)| &b.left);
        let first = first_token_span(leftmost);
        let mut lhs = self.lower_expr(operand_of(leftmost));
        let mut lhs_expr = Some(operand_of(leftmost));
        for (b, rule, token) in chain.into_iter().rev() {
            let rhs = self.lower_expr(operand_of(&b.right));
            let rhs = self.lift_constant(rhs, &lhs, b.op.span());
            lhs = self.lift_constant(lhs, &rhs, b.op.span());
            self.integer_literal_with_float(lhs_expr.take(), &lhs, operand_of(&b.right), &rhs);
            self.floats_mixed(&b.op, &lhs, &rhs);
            if let (Operand::Const(l), Operand::Const(r)) = (&lhs, &rhs) {
                lhs = Operand::Const(quote!((#l #token #r)));
                continue;
            }
            if let Some(constant) = self
                .opaque_arithmetic(token.clone(), &lhs, Some(&rhs), b.span())
                .or_else(|| self.lifted_arithmetic(token.clone(), &lhs, Some(&rhs), b.span()))
            {
                lhs = constant;
                continue;
            }
            let span = if b.attrs.is_empty() {
                let last = last_token_span(&b.right);
                first.join(last).unwrap_or(first)
            } else {
                b.span()
            };
            let args = vec![lhs, rhs];
            let kind = self.result_kind(&args);
            lhs = Operand::Value(self.emit(
                Op::Rule {
                    rule,
                    args,
                    syntax: Syntax::Operator(token),
                },
                kind,
                span,
            ));
        }
        lhs
    }

    /// `x * 2` of a float `x`: rustc's error would come once for the
    /// function as written and again for each generated use of the literal
    /// (a rule's argument), so the macro reports it, once, at the literal.
    fn integer_literal_with_float(
        &mut self,
        lhs_expr: Option<&Expr>,
        lhs: &Operand,
        rhs_expr: &Expr,
        rhs: &Operand,
    ) {
        let float = |o: &Operand| self.kind(o) == Some(Kind::Float);
        let literal = match (lhs_expr, float(lhs), float(rhs)) {
            (_, true, false) => rhs_expr,
            (Some(l), false, true) => l,
            _ => return,
        };
        if let Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(i),
            ..
        }) = strip_parens(literal)
            && i.suffix().is_empty()
        {
            self.cx.error_spanned_by(
                i,
                format!(
                    "integer literal `{0}` in float arithmetic; write `{0}.0`",
                    i.base10_digits()
                ),
            );
        }
    }

    /// `x * y` of an `f64` and an `f32`: as for an integer literal, one
    /// error from the macro rather than rustc's in the function and again
    /// in the generated code.
    fn floats_mixed(&mut self, op: &BinOp, lhs: &Operand, rhs: &Operand) {
        if let (Some(a), Some(b)) = (self.concrete_float_of(lhs), self.concrete_float_of(rhs))
            && a != b
        {
            self.cx.error_spanned_by(
                op,
                format!(
                    "`{a} {} {b}`: the operands are of different float types; keep one float type in the function (all `f64` or all `f32`)",
                    op.to_token_stream()
                ),
            );
        }
    }

    fn lower_index(&mut self, i: &syn::ExprIndex) -> Operand {
        if self.constant_place(&Expr::Index(i.clone())) {
            return self.lower_primal(&Expr::Index(i.clone()), Kind::Unknown);
        }
        if self.opaque_element(&i.expr) {
            self.cx
                .error_spanned_by(&i.expr, super::CONSTANT_FIELD_ELEMENTS);
            return self.missing(i.span());
        }
        if let Some(o) = self.nested_constant_element(i) {
            return o;
        }
        if let Some(seq @ (Sequence::Constant(_) | Sequence::Data { .. })) =
            self.sequence_of(&i.expr)
            && !matches!(&*i.index, Expr::Range(_))
        {
            // `P[i]` of a `const` array or of constant data: a constant,
            // whatever the index.
            let index = self.lower_expr(&i.index);
            return self.sequence_element(&seq, index, i.span());
        }
        // A slice is the argument itself: a slice chosen at run time (`if c
        // { a } else { b }`) would need its adjoint chosen too. An array, or
        // a nalgebra value, is any value (a local, an argument, a call's
        // result): its adjoint follows its value.
        // A value computed in place: a row of constant data (`x[i][j]`), a
        // product (`(w.transpose() * cov * w)[(0, 0)]`).
        let computed = match strip_parens(&i.expr) {
            Expr::Path(_) => None,
            base @ (Expr::Index(_) | Expr::Binary(_) | Expr::MethodCall(_)) => {
                self.lower_expr(base).value()
            }
            _ => None,
        };
        if let Some(seq) = computed.and_then(|v| self.data_sequence(v))
            && !matches!(&*i.index, Expr::Range(_))
        {
            let index = self.lower_expr(&i.index);
            return self.sequence_element(&seq, index, i.span());
        }
        let named = computed.or_else(|| self.local_ident(&i.expr));
        // A call's result indexed in a function generic over its scalar
        // (the second-order copy too), taken for the scalar until here: a
        // `Vec` or an array of it.
        if let Some(v) = named
            && self.scalar_calls.remove(&v).is_some()
        {
            self.values[v].kind = Kind::Array;
        }
        let indexed = named.filter(|v| {
            let info = &self.values[*v];
            (info.kind == Kind::Slice && info.param.is_some())
                || matches!(info.kind, Kind::Array | Kind::Matrix | Kind::Unknown)
        });
        let Some(slice) = indexed else {
            // A variable bound to an unsupported expression (`let v =
            // x.iter().collect::<Vec<_>>()`) was reported there already.
            if self.constant_field(&i.expr) {
                self.cx
                    .error_spanned_by(&i.expr, super::CONSTANT_FIELD_ELEMENTS);
            } else if !(named.is_some() && self.cx.has_errors()) {
                self.cx.error_spanned_by(
                    &i.expr,
                    "indexing is supported on slice arguments (`&[f64]`, `&Vec<f64>`), arrays and `Vec`s of floats, `const` arrays and nalgebra variables (`v[i]`, `m[(i, j)]`), by name",
                );
            }
            return self.missing(i.span());
        };
        if self.values[slice].kind == Kind::Unknown {
            // A call's result that is indexed is an array or a `Vec`.
            self.values[slice].kind = Kind::Array;
        }
        if let Expr::Range(r) = &*i.index {
            self.cx.error_spanned_by(
                r,
                "sub-slices are supported of slices, arrays and `Vec`s by name, `&x[a..b]`; bind this value to a local first",
            );
            return self.missing(i.span());
        }
        // `m[(i, j)]`: the pair is integer code.
        if let Expr::Tuple(t) = strip_parens(&i.index) {
            let index = self.lower_primal(&Expr::Tuple(t.clone()), Kind::Int);
            return Operand::Value(self.emit(Op::Index { slice, index }, Kind::Float, i.span()));
        }
        let index = self.lower_expr(&i.index);
        self.slice_element(slice, index, i.span())
    }

    /// `slice[index]`: one value per element read in a block and the
    /// blocks it encloses (see `element_reads`).
    pub(super) fn slice_element(&mut self, slice: ValueId, index: Operand, span: Span) -> Operand {
        let key = match &index {
            Operand::Value(v) => ElementKey::Value(*v),
            Operand::Const(t) => ElementKey::Const(t.to_string()),
        };
        let seen = self
            .element_reads
            .iter()
            .flatten()
            .find(|(s, k, _)| *s == slice && *k == key);
        if let Some((_, _, v)) = seen {
            return Operand::Value(*v);
        }
        let v = self.emit(Op::Index { slice, index }, Kind::Float, span);
        if let Some(reads) = self.element_reads.last_mut() {
            reads.push((slice, key, v));
        }
        Operand::Value(v)
    }
}

impl Lowerer<'_> {
    /// `A[i][j]` (any depth) of a `const` or `static` array of arrays: a
    /// constant, whatever the indices.
    fn nested_constant_element(&mut self, i: &syn::ExprIndex) -> Option<Operand> {
        let mut indices = vec![&*i.index];
        let mut base = strip_parens(&i.expr);
        while let Expr::Index(inner) = base {
            indices.push(&*inner.index);
            base = strip_parens(&inner.expr);
        }
        if indices.len() < 2
            || indices
                .iter()
                .any(|e| matches!(strip_parens(e), Expr::Range(_)))
        {
            return None;
        }
        let Some(Sequence::Constant(path)) = self.sequence_of(base) else {
            return None;
        };
        let mut bindings = Vec::new();
        let mut expr = quote!(#path);
        for index in indices.into_iter().rev() {
            let index = match self.lower_expr(index) {
                Operand::Const(t) => t,
                Operand::Value(v) => {
                    let p = super::primal::placeholder(bindings.len(), i.span());
                    bindings.push((p.to_string(), v));
                    p.into_token_stream()
                }
            };
            expr = quote!(#expr[#index]);
        }
        let expr = self.item_read(expr, i.span());
        if bindings.is_empty() {
            return Some(Operand::Const(quote!((#expr))));
        }
        let expr: Expr = syn::parse_quote!(#expr);
        Some(Operand::Value(self.emit(
            Op::Primal { expr, bindings },
            Kind::Float,
            i.span(),
        )))
    }
}
