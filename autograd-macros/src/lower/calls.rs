//! Calls: methods of floats and matrices (rules of the table and the
//! built-in `len`, `clone`, `map`), `f64::NAME(..)` paths,
//! `stop_gradient`, and calls of other `#[differentiable]` functions.

use super::*;

impl Lowerer<'_> {
    pub(super) fn lower_method(&mut self, m: &syn::ExprMethodCall) -> Operand {
        if let Some((walk, closure)) = super::iter_mut::for_each_walk(m) {
            self.lower_for_each(walk, closure);
            return Operand::Const(quote!(()));
        }
        if let Some(positions) = self.positions_for_each(m) {
            self.lower_for(&positions);
            return Operand::Const(quote!(()));
        }
        if let Some(o) = self.lower_option_method(m) {
            return o;
        }
        if let Some(index) = first_or_last(m) {
            return self.lower_expr(&Expr::Index(index));
        }
        if let Some(o) = self.lower_end_method(m) {
            return o;
        }
        if let Some(o) = self.lower_iterator_method(m) {
            return o;
        }
        if let Some(o) = self.lower_to_vec(m) {
            return o;
        }
        if let Some(t) = &m.turbofish {
            self.cx
                .error_spanned_by(t, "turbofish on methods is not supported");
        }
        let name = m.method.to_string();
        if self.scalar.is_some() && matches!(name.as_str(), "unwrap" | "expect") {
            // `T::from(2.0).unwrap()`, `T::from(n).unwrap()`: a constant,
            // or primal code of integers.
            if !self.reads_differentiable(&Expr::MethodCall(m.clone())) {
                return self.lower_primal_of_integers(&Expr::MethodCall(m.clone()));
            }
            // A conversion of a differentiable value says so itself.
            let before = self.cx.has_errors();
            let receiver = self.lower_expr(&m.receiver);
            if self.cx.has_errors() && !before {
                return receiver;
            }
        }
        if let Some(pick) = stored_first_or_last(m)
            && self
                .local_ident(strip_parens(&pick.receiver))
                .is_some_and(|v| matches!(self.values[v].kind, Kind::Slice | Kind::Array))
        {
            // `let o = x.first();` read otherwise than by the tests and
            // reads `first_last` lowers.
            let x = pick.receiver.to_token_stream().to_string().replace(' ', "");
            self.cx.error_spanned_by(
                &pick.method,
                format!(
                    "the `Option` of `{x}.{0}()` of a differentiable slice is read only by `if let Some(v) = ..`, `match .. {{ Some(v) => .., None => .. }}` (arms `Some(v)`, `Some(&v)`, `Some(_)`, `None` or `_`, with guards if wanted) or `let Some(v) = .. else {{ .. }};`, on the call or on a variable holding it, or as `{x}.{0}().copied().unwrap_or(d)`",
                    pick.method
                ),
            );
            return self.missing(m.span());
        }
        // `n.cdf(x)` of a distribution (statrs' `Normal`) at a value with a
        // derivative: no rule; the special functions say what to write.
        if let Some(instead) = table::distribution_method(&name)
            && m.args.len() == 1
            && (self.reads_differentiable(&m.args[0]) || !self.constant_base(&m.receiver))
        {
            return self.distribution_method(m, &name, instead);
        }
        if self.constant_base(&m.receiver) {
            // A method of a `#[constant]` argument is primal code.
            return self.lower_primal(&Expr::MethodCall(m.clone()), Kind::Unknown);
        }
        // `x.is_empty()`: the length's test, for every value with a length.
        if name == "is_empty" && m.args.is_empty() && m.turbofish.is_none() {
            let (receiver, span) = (&m.receiver, m.method.span());
            return self.lower_expr(&syn::parse_quote_spanned!(span=> (#receiver.len() == 0)));
        }
        // `P.len()` of a `const` array, `w.len()` of a window.
        if let Some(Builtin::Len) = table::builtin(&name, m.args.len())
            && let Some(seq) = self
                .sub_slice_of(&m.receiver)
                .or_else(|| self.sequence_of(&m.receiver))
            && !matches!(
                seq,
                super::sequence::Sequence::Slice(_) | super::sequence::Sequence::Array(_)
            )
        {
            return self.sequence_len(&seq, m.span());
        }
        if let Some(e) = self.array_map(m) {
            return self.lower_expr(&e);
        }
        // `a.partial_cmp(&b)`, `i.cmp(&j)`, `a.total_cmp(&b)`: an ordering,
        // matched or compared, carries no derivative (the floats each arm
        // reads carry theirs), so it is primal code of the integer kind.
        if matches!(name.as_str(), "partial_cmp" | "cmp" | "total_cmp") && m.args.len() == 1 {
            return self.lower_primal(&Expr::MethodCall(m.clone()), Kind::Int);
        }
        let receiver = self.lower_expr(&m.receiver);
        // A receiver reported already (`v.pop().unwrap()`): one error.
        if receiver.value().is_some_and(|v| self.missing.contains(&v)) {
            return self.missing(m.span());
        }
        let receiver_kind = self.kind(&receiver);
        if receiver_kind == Some(Kind::Int)
            && let Some(o) = self.lower_index_option(&receiver, m)
        {
            return o;
        }
        // `i.pow(2)`, `n.saturating_sub(1)`, `k.min(n - 1)`, `i.abs_diff(j)`:
        // a method of an integer with integer arguments is integer
        // arithmetic, primal code as `i + 1` is (finding 034, section 6).
        // The receiver is an integer however computed (`x.floor() as
        // usize`): it has no derivative to lose.
        if receiver_kind == Some(Kind::Int) && !m.args.iter().any(|a| self.reads_differentiable(a))
        {
            let kind = match name.as_str() {
                "is_power_of_two" | "is_positive" | "is_negative" | "is_lt" | "is_le" | "is_gt"
                | "is_ge" | "is_eq" | "is_ne" => Kind::Bool,
                _ => Kind::Int,
            };
            return self.primal_method(&receiver, m, kind);
        }
        let arity = m.args.len();
        let nalgebra = matches!(receiver_kind, Some(Kind::Matrix | Kind::Unknown));
        match table::builtin(&name, arity) {
            Some(Builtin::Len) => {
                if let Some(v) = receiver.value()
                    && matches!(receiver_kind, Some(Kind::Slice | Kind::Array))
                {
                    return Operand::Value(self.emit(Op::Len { slice: v }, Kind::Int, m.span()));
                }
                if nalgebra {
                    return self.lower_primal(&Expr::MethodCall(m.clone()), Kind::Int);
                }
                self.cx.error_spanned_by(
                    &m.method,
                    "`len()` is supported on slices, arrays, `Vec`s and nalgebra values only",
                );
                return self.missing(m.span());
            }
            // A shape is an integer: primal code.
            Some(Builtin::Shape) if nalgebra => {
                return self.lower_primal(&Expr::MethodCall(m.clone()), Kind::Int);
            }
            Some(Builtin::Clone) if receiver.value().is_some() => {
                let kind = receiver_kind.unwrap_or(Kind::Unknown);
                return Operand::Value(self.emit(Op::Copy(receiver), kind, m.span()));
            }
            Some(Builtin::Map) if nalgebra => return self.lower_map(receiver, m),
            Some(Builtin::Predicate)
                if matches!(receiver_kind, Some(Kind::Float | Kind::Unknown) | None) =>
            {
                let method = &m.method;
                return match receiver {
                    Operand::Const(t) => Operand::Const(quote!(#t.#method())),
                    Operand::Value(v) => {
                        let p = super::primal::placeholder(0, m.span());
                        let expr: Expr = syn::parse_quote!(#p.#method());
                        let bindings = vec![(p.to_string(), v)];
                        Operand::Value(self.emit(
                            Op::Primal { expr, bindings },
                            Kind::Bool,
                            m.span(),
                        ))
                    }
                };
            }
            _ => {}
        }
        if let Some(split) = table::split(&name, arity) {
            return self.split_not_destructured(split, m);
        }
        let matrix_rule = table::method(&name, arity, Receiver::Matrix);
        let scalar_rule = table::method(&name, arity, Receiver::Scalar);
        let rule = match receiver_kind {
            Some(Kind::Matrix) => match matrix_rule {
                Some(r) => r,
                None => {
                    if let Some(e) = written_matrix_method(m, self.scalar.as_ref()) {
                        return self.lower_expr(&e);
                    }
                    return self.unsupported_matrix_method(m, &name, scalar_rule.is_some());
                }
            },
            Some(Kind::Unknown) => match scalar_rule.or(matrix_rule) {
                Some(r) => r,
                None => return self.unsupported_method(m, &name),
            },
            _ => match scalar_rule {
                Some(r) => r,
                None => return self.unsupported_method(m, &name),
            },
        };
        let mut args = vec![receiver];
        for (a, param) in m.args.iter().zip(rule.params.iter().skip(1)) {
            let operand = match a {
                // `a.component_mul(&b)` takes its operand by reference.
                Expr::Reference(r) if r.mutability.is_none() && param.pass == Pass::Ref => {
                    self.lower_expr(&r.expr)
                }
                // Dimensions (`reshape_generic`'s): primal code.
                a if param.ty == Ty::Dim => self.lower_primal(a, Kind::Unknown),
                a => self.lower_expr(a),
            };
            args.push(operand);
        }
        // `k.powi(2)`, `k.max(j)` of names bound to lifted items in the
        // twin: the operands of a float rule are floats.
        self.lifted_operands_are_floats(rule, &args);
        // `x.powf(market.k)` in the twin: the data's float converted.
        if let Some(float) = args
            .iter()
            .find(|a| self.kind(a) == Some(Kind::Float))
            .cloned()
        {
            for (a, param) in args.iter_mut().zip(rule.params.iter()) {
                if param.ty == Ty::Float {
                    *a = self.lift_constant(a.clone(), &float, m.span());
                }
            }
        }
        if args.iter().all(|a| matches!(a, Operand::Const(_))) {
            // A method of constants only, such as `2.0_f64.ln()`: a constant.
            // One computed by a block (a `match` rewritten, whose `let`s
            // read the body's variables) is written from its lowered parts
            // (finding 023).
            // In the twin, an item read (`K.sqrt()`) is converted to the
            // scalar in its lowered part.
            if !self.lifts_constants
                && !super::primal::has_value_blocks(&Expr::MethodCall(m.clone()))
            {
                return Operand::Const(m.to_token_stream());
            }
            let parts = const_parts(&args, rule.params);
            if let Some((receiver, rest)) = parts.split_first() {
                let method = &m.method;
                return Operand::Const(quote!((#receiver).#method(#(#rest),*)));
            }
            return Operand::Const(m.to_token_stream());
        }
        let kind = rule.reduces().then_some(Kind::Float);
        self.rule_op(rule, args, Syntax::Method(m.method.clone()), m.span(), kind)
    }

    fn distribution_method(
        &mut self,
        m: &syn::ExprMethodCall,
        name: &str,
        instead: &str,
    ) -> Operand {
        let receiver = m.receiver.to_token_stream().to_string().replace(' ', "");
        self.cx.error_spanned_by(
            &m.method,
            format!(
                "`{receiver}.{name}(..)` has no derivative rule; for a normal distribution write `{instead}` (`autograd::special` has {})",
                table::special_functions()
            ),
        );
        self.missing(m.span())
    }

    fn unsupported_method(&mut self, m: &syn::ExprMethodCall, name: &str) -> Operand {
        let known = table::is_float_method(name);
        let what = if known {
            format!("`{name}` with {} argument(s)", m.args.len())
        } else {
            format!("`{name}`")
        };
        self.cx.error_spanned_by(
            &m.method,
            format!(
                "unsupported method {what}; supported: {}",
                table::supported_methods()
            ),
        );
        self.missing(m.span())
    }

    fn rule_op(
        &mut self,
        rule: &'static Rule,
        args: Vec<Operand>,
        syntax: Syntax,
        span: Span,
        kind: Option<Kind>,
    ) -> Operand {
        // Only the differentiable operands decide the kind: the integer
        // exponent of `powi` does not make the result an integer.
        let differentiable: Vec<Operand> = args
            .iter()
            .zip(rule.diff())
            .filter(|(_, d)| *d)
            .map(|(a, _)| a.clone())
            .collect();
        self.lifted_operands_are_floats(rule, &args);
        let kind = kind.unwrap_or_else(|| self.result_kind(&differentiable));
        Operand::Value(self.emit(Op::Rule { rule, args, syntax }, kind, span))
    }

    /// In the twin, names bound to lifted items (`k` of `let k = K;`) that
    /// are operands of a float rule (`k.powi(2)`, `f64::exp(k)`): floats.
    fn lifted_operands_are_floats(&mut self, rule: &Rule, args: &[Operand]) {
        for (a, param) in args.iter().zip(rule.params.iter()) {
            if param.ty == Ty::Float {
                self.lifted_is_float(a);
            }
        }
    }

    pub(super) fn lower_call(&mut self, c: &syn::ExprCall) -> Operand {
        let statement = std::mem::take(&mut self.inout_statement);
        if let Some(local) = self.local_closure(&c.func) {
            return match self.inline_closure(local, c) {
                super::items::Item::Value(o) => o,
                _ => {
                    self.cx.error_spanned_by(
                        c,
                        "a tuple is used as one value here; bind its components with `let (a, b) = ..;`",
                    );
                    self.missing(c.span())
                }
            };
        }
        let Expr::Path(func) = &*c.func else {
            self.cx.error_spanned_by(
                &c.func,
                "only calls of functions by name or path are supported",
            );
            return self.missing(c.span());
        };
        let path = &func.path;
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if let Some(message) = crate::unannotated::generated_item(&self.caller, path) {
            self.cx.error_spanned_by(path, message);
            return self.missing(c.span());
        }

        // Where its place gives no type (lowered before `lower_call` where
        // it does, from_fn.rs).
        if super::from_fn::is_from_fn(path) {
            return self.lower_from_fn(c, None);
        }
        // `autograd::stop_gradient` (or `::autograd::..`): the value flows,
        // the adjoint does not; the sweeps call it as written and check
        // that it is autograd's. Any other path to a `stop_gradient`
        // (imported, `ag::stop_gradient`, a user's own) is an ordinary
        // call: rustc resolves it, to autograd's (whose hidden VJP gives
        // no adjoint) or to the user's function, differentiated as any.
        if segments == ["autograd", "stop_gradient"] {
            if c.args.len() != 1 {
                self.cx
                    .error_spanned_by(c, "`stop_gradient` takes one argument");
                return self.missing(c.span());
            }
            let arg = self.lower_expr(&c.args[0]);
            // Of a constant (`stop_gradient(0.25)`): a constant, written
            // where it is used as in the primal, so the literal takes its
            // type from there; bound to a name it would be an ambiguous
            // `{float}` (finding 022).
            if let Operand::Const(_) = arg {
                return Operand::Const(c.to_token_stream());
            }
            let kind = self.kind(&arg).unwrap_or(Kind::Float);
            let stop = Op::StopGradient {
                arg,
                func: path.clone(),
            };
            return Operand::Value(self.emit(stop, kind, c.span()));
        }

        if segments.len() == 2 && self.scalar.as_ref().is_some_and(|t| *t == segments[0]) {
            return self.lower_scalar_path_call(c, func);
        }

        // `usize::min(a, b)`, `i64::from(k)`: a function of an integer type
        // on integers is integer arithmetic, primal code (finding 034,
        // section 6).
        if segments.len() == 2
            && super::data::is_integer_type(&segments[0])
            && !c.args.iter().any(|a| self.reads_differentiable(a))
        {
            return self.lower_primal(&Expr::Call(c.clone()), Kind::Int);
        }

        if segments.len() == 2 && (segments[0] == "f64" || segments[0] == "f32") {
            // `f64::from(n)` of an integer (or of a constant): a
            // conversion with no derivative, primal code as `T::from(n)`
            // is in a generic function.
            if segments[1] == "from" && c.args.len() == 1 {
                if self.reads_differentiable(&c.args[0]) {
                    self.cx.error_spanned_by(
                        func,
                        format!(
                            "`{}` of a differentiable value has no derivative here; convert integers and constants only, and write a float of another type as the function's own float",
                            segments.join("::")
                        ),
                    );
                    return self.missing(c.span());
                }
                return self.lower_primal_of_integers(&Expr::Call(c.clone()));
            }
            if let Some(split) = table::split(&segments[1], c.args.len().saturating_sub(1)) {
                return self.split_not_destructured(split, c);
            }
            let Some(rule) = table::path_function(&segments[1], c.args.len()) else {
                self.cx.error_spanned_by(
                    func,
                    format!(
                        "unsupported function `{}`; supported: {}",
                        segments.join("::"),
                        table::supported_methods()
                    ),
                );
                return self.missing(c.span());
            };
            let args: Vec<Operand> = c.args.iter().map(|a| self.lower_expr(a)).collect();
            if args.iter().all(|a| matches!(a, Operand::Const(_))) {
                return self.constant_call(c, &func.path, &args, rule.params);
            }
            return self.rule_op(rule, args, Syntax::Path(path.clone()), c.span(), None);
        }

        if let Some(v) = self.local_ident(&c.func) {
            // `pullback(1.0)` of `let (v, pullback) = f_vjp(x);`.
            if let Some(vjp) = self.vjp_components.get(&v) {
                let of = vjp.trim_end_matches("_vjp");
                self.cx.error_spanned_by(
                    func,
                    format!(
                        "a pullback of `{vjp}` cannot be called in a `#[differentiable]` body; call `{of}_grad(..)` for the gradient (its derivative needs `#[differentiable(hessian)]` on `{of}`)"
                    ),
                );
                return self.missing(c.span());
            }
            // A variable bound to an unsupported expression was reported
            // there already.
            if self.cx.has_errors() {
                return self.missing(c.span());
            }
            self.cx.error_spanned_by(
                func,
                "calling a variable is not supported; call a `#[differentiable]` function by its name",
            );
            return self.missing(c.span());
        }
        if let Some(o) = self.lower_special_call(c, func) {
            return o;
        }
        // A turbofish on the function (`g::<T>(x)`) goes to its hidden
        // items; on the path's other segments there is nothing to take it.
        let segment_count = path.segments.len();
        if func.qself.is_some()
            || path
                .segments
                .iter()
                .enumerate()
                .any(|(i, s)| match &s.arguments {
                    syn::PathArguments::None => false,
                    syn::PathArguments::AngleBracketed(_) => i + 1 < segment_count,
                    syn::PathArguments::Parenthesized(_) => true,
                })
        {
            self.cx.error_spanned_by(
                func,
                "calls with generic arguments are not supported; call a `#[differentiable]` function by name",
            );
            return self.missing(c.span());
        }
        let mut args = Vec::new();
        // The variables the in-out arguments update, with their positions.
        let mut updated: Vec<(usize, syn::Ident)> = Vec::new();
        for (k, a) in c.args.iter().enumerate() {
            if let Some(arg) = self.sub_slice_arg(a) {
                args.push(arg);
                continue;
            }
            let (expr, by_ref) = match a {
                Expr::Reference(r) if r.mutability.is_none() => (&*r.expr, true),
                Expr::Reference(r) => {
                    let Some(target) = self.inout_target(r) else {
                        continue;
                    };
                    updated.push((k, target.clone()));
                    let operand = match self.lookup(&target) {
                        Some(b) => Operand::Value(b.value),
                        None => continue,
                    };
                    args.push(CallArg {
                        operand,
                        by_ref: false,
                        span: a.span(),
                        range: None,
                    });
                    continue;
                }
                // The function's own in-out argument as it is (`step(y,
                // dt)`): whether the callee updates it or only reads it
                // (`&mut` coerced to `&`) is in its signature, which the
                // macro does not see here; the reborrow says it.
                e if self.is_inout(strip_parens(e)) => {
                    let name = e.to_token_stream().to_string();
                    self.cx.error_spanned_by(
                        e,
                        format!(
                            "pass the in-out argument `{name}` on as `&mut *{name}` where the callee updates it, or as `&*{name}` where it only reads it"
                        ),
                    );
                    continue;
                }
                e => (e, false),
            };
            // `&p.v` of a `#[constant]` struct: the field's type is the
            // user's (unseen), so the reference itself is the value passed,
            // not a copy of the field (which may not be `Copy`).
            let (mut operand, by_ref) = if by_ref && self.constant_field(expr) {
                (self.lower_primal(a, Kind::Unknown), false)
            } else {
                (self.lower_expr(expr), by_ref)
            };
            if !by_ref {
                operand = self.twin_arg(operand, a.span());
            }
            args.push(CallArg {
                operand,
                by_ref,
                span: a.span(),
                range: None,
            });
        }
        // `stop_gradient(0.5)`: autograd's is generic, and a binding of its
        // result in the sweeps would leave the literal's type to inference;
        // as a constant it is written where it is used, as in the primal.
        if segments.last().is_some_and(|s| s == "stop_gradient")
            && args.iter().all(|a| matches!(a.operand, Operand::Const(_)))
        {
            return Operand::Const(c.to_token_stream());
        }
        // In a generic function every float is its scalar, a call's result
        // too.
        let kind = match self.scalar {
            Some(_) => Kind::Float,
            None => Kind::Unknown,
        };
        // `step(&mut y, dt);` is `y = step::__inout_call(y, dt);`: the
        // value in, the final value out (see `ir::INOUT_CALL`); where the
        // result is read, `step::__inout_result(y, dt)` before it. With
        // several, one call for each final value, all on the values before
        // the call, then the assignments (`ir::inout_call`).
        if !updated.is_empty() {
            // The items go without the call's turbofish (`step::<T>`):
            // their generics name the caller's buffers too (`__AdState0`),
            // which it does not give, and the arguments choose the
            // instance; the primal's call keeps it, and rustc checks it
            // there.
            let hidden = |item: &str| crate::ir::inout_item(path, item);
            let result = (!statement).then(|| {
                let func = hidden(crate::ir::INOUT_RESULT);
                let kind = match self.scalar {
                    Some(_) => Kind::Float,
                    None => Kind::Unknown,
                };
                let r = self.emit(
                    Op::Call {
                        func,
                        args: args.clone(),
                    },
                    kind,
                    c.span(),
                );
                self.values[r].float.clone_from(&self.scalar);
                r
            });
            let finals: Vec<ValueId> = (updated.iter().enumerate())
                .map(|(j, (k, _))| {
                    let func = hidden(&crate::ir::inout_call(j));
                    let (kind, float) = match args[*k].operand.value() {
                        Some(u) => (self.values[u].kind, self.values[u].float.clone()),
                        None => (Kind::Unknown, None),
                    };
                    let call = Op::Call {
                        func,
                        args: args.clone(),
                    };
                    let v = self.emit(call, kind, c.span());
                    self.values[v].float = float;
                    if crate::unannotated::is_plain_function(&self.caller, path) {
                        self.unannotated_call(v, path);
                    }
                    v
                })
                .collect();
            for ((_, target), v) in updated.iter().zip(finals) {
                let target: Expr = syn::parse_quote!(#target);
                self.assign(&target, Operand::Value(v), c.span());
            }
            return match result {
                Some(r) => Operand::Value(r),
                None => Operand::Const(quote::quote!(())),
            };
        }
        let v = self.emit(
            Op::Call {
                func: path.clone(),
                args,
            },
            kind,
            c.span(),
        );
        self.values[v].float.clone_from(&self.scalar);
        if self.scalar.is_some()
            && let Some(callee) = path.segments.last()
        {
            self.scalar_calls.insert(v, callee.ident.to_string());
        }
        if crate::unannotated::is_plain_function(&self.caller, path)
            || crate::unannotated::is_associated_function(path)
        {
            self.unannotated_call(v, path);
        }
        if let Some(message) = crate::unannotated::unresolved_prelude_function(&self.caller, path) {
            self.cx.error_spanned_by(path, message);
        }
        Operand::Value(v)
    }

    /// A function of `autograd::special` (`erf(x)` after `use
    /// autograd::special::erf` or `::*`, `special::erf(x)`,
    /// `autograd::special::erf(x)`, or renamed on import): its rule. The
    /// path's first segment is resolved through the imports of the
    /// caller's file; the generated code calls the runtime's primal through
    /// `special_function`, so a path that is some other function after all
    /// (a glob of another crate) is a type error at it, never the wrong
    /// rule. The same function of another crate (`libm::erf`,
    /// `statrs::function::erf::erf`) is one error naming ours. `None` for
    /// any other call.
    fn lower_special_call(&mut self, c: &syn::ExprCall, func: &syn::ExprPath) -> Option<Operand> {
        use crate::unannotated::Binding;
        let path = &func.path;
        if func.qself.is_some() {
            return None;
        }
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        let first = &path.segments.first()?.ident;
        let (resolved, unbound) = match path.leading_colon {
            Some(_) => (segments.clone(), false),
            None => match crate::unannotated::binding(&self.caller, first) {
                Binding::Own => return None,
                Binding::Imported(mut from) => {
                    from.extend(segments[1..].iter().cloned());
                    (from, false)
                }
                Binding::Unknown => (segments.clone(), true),
            },
        };
        if let Some(ours) = table::foreign_special(&resolved) {
            let rule = table::special_function(ours)?;
            let written = path.to_token_stream().to_string().replace(' ', "");
            if !self.foreign_reported.insert(written.clone()) {
                return Some(self.missing(c.span()));
            }
            let args = (0..rule.params.len()).map(|i| ["x", "y"][i.min(1)]);
            self.cx.error_spanned_by(
                func,
                format!(
                    "`{written}` has no derivative rule; call `autograd::special::{ours}({})`, the same function with its derivative",
                    args.collect::<Vec<_>>().join(", ")
                ),
            );
            return Some(self.missing(c.span()));
        }
        let name = resolved.last()?;
        let rule = table::special_function(name)?;
        let ours = match resolved.as_slice() {
            [_] => unbound,
            [.., module, _] => module == "special",
            [] => false,
        };
        if !ours {
            return None;
        }
        if c.args.len() != rule.params.len() {
            self.cx.error_spanned_by(
                c,
                format!(
                    "`autograd::special::{name}` takes {} argument(s)",
                    rule.params.len()
                ),
            );
            return Some(self.missing(c.span()));
        }
        let mut args: Vec<Operand> = c.args.iter().map(|a| self.lower_expr(a)).collect();
        if args.iter().all(|a| matches!(a, Operand::Const(_))) {
            return Some(self.constant_call(c, path, &args, rule.params));
        }
        // `f64::exp(k)`, `hypot(k, j)` of names bound to lifted items in
        // the twin: the operands of a float rule are floats.
        self.lifted_operands_are_floats(rule, &args);
        // `beta(a, 2.0)` in the twin: the constant converted to the scalar.
        if let Some(float) = args
            .iter()
            .find(|a| self.kind(a) == Some(Kind::Float))
            .cloned()
        {
            for a in &mut args {
                *a = self.lift_constant(a.clone(), &float, c.span());
            }
        }
        Some(self.rule_op(rule, args, Syntax::Path(path.clone()), c.span(), None))
    }

    /// `a.map(|v| ..)` of an array (a local, or written in place): the
    /// array of the closure's values, as a copy of `a` overwritten element
    /// by element in a loop, the closure bound once by `let`.
    fn array_map(&self, m: &syn::ExprMethodCall) -> Option<Expr> {
        if m.method != "map"
            || m.args.len() != 1
            || !matches!(m.args[0], Expr::Closure(_) | Expr::Path(_))
        {
            return None;
        }
        let array = match strip_parens(&m.receiver) {
            Expr::Array(_) | Expr::Repeat(_) => true,
            e => self
                .local_ident(e)
                .is_some_and(|v| self.values[v].kind == Kind::Array),
        };
        if !array {
            return None;
        }
        let (f, src, out, i) = (
            syn::Ident::new("f", Span::mixed_site()),
            syn::Ident::new("source", Span::mixed_site()),
            syn::Ident::new("mapped", Span::mixed_site()),
            syn::Ident::new("i", Span::mixed_site()),
        );
        let receiver = &m.receiver;
        // A function path (`f64::exp`) is called as written.
        let (bind, f): (Option<SynStmt>, Expr) = match &m.args[0] {
            Expr::Path(p) => (None, Expr::Path(p.clone())),
            closure => (
                Some(syn::parse_quote!(let #f = #closure;)),
                syn::parse_quote!(#f),
            ),
        };
        Some(syn::parse_quote_spanned!(m.method.span()=> {
            #bind
            let #src = #receiver;
            let mut #out = #src;
            for #i in 0..#src.len() {
                #out[#i] = #f(#src[#i]);
            }
            #out
        }))
    }

    /// `f64::ln(a)` of constants: a constant, as written; or, where an
    /// argument is computed by a block (its `let`s read the body's
    /// variables), written from the lowered arguments (finding 023).
    fn constant_call(
        &self,
        c: &syn::ExprCall,
        path: &syn::Path,
        args: &[Operand],
        params: &[crate::table::Param],
    ) -> Operand {
        if !super::primal::has_value_blocks(&Expr::Call(c.clone())) {
            return Operand::Const(c.to_token_stream());
        }
        let parts = const_parts(args, params);
        Operand::Const(quote!(#path(#(#parts),*)))
    }

    /// `.unwrap_or(d)`, `.unwrap()`, `.is_some()` .. of an integer's
    /// `Option` (`x.iter().position(..)`): primal code, as written. `None`
    /// for any other method.
    fn lower_index_option(
        &mut self,
        receiver: &Operand,
        m: &syn::ExprMethodCall,
    ) -> Option<Operand> {
        let kind = match m.method.to_string().as_str() {
            "unwrap" | "expect" | "unwrap_or" | "unwrap_or_default" => Kind::Int,
            "is_some" | "is_none" => Kind::Bool,
            name => {
                if let Expr::MethodCall(search) = strip_parens(&m.receiver)
                    && super::iter::is_search(search)
                {
                    self.cx.error_spanned_by(
                        &m.method,
                        format!(
                            "`{name}` of the `Option` that `{}` gives is not supported; take the index out first: `.unwrap_or(d)`, `let Some(i) = .. else {{ .. }};` or `match .. {{ Some(i) => .., None => .. }}`, then read `x[i]`",
                            search.method
                        ),
                    );
                    return Some(self.missing(m.span()));
                }
                return None;
            }
        };
        Some(self.primal_method(receiver, m, kind))
    }

    /// `receiver.method(args)` as primal code of `kind`: the receiver
    /// already lowered, the arguments integers or `bool`s, read by name.
    fn primal_method(
        &mut self,
        receiver: &Operand,
        m: &syn::ExprMethodCall,
        kind: Kind,
    ) -> Operand {
        for a in &m.args {
            if crate::lower::primal::has_value_blocks(a) {
                self.cx
                    .error_spanned_by(a, "compute this in a `let` before the call");
                return self.missing(m.span());
            }
        }
        let mut call = m.clone();
        let mut bindings = Vec::new();
        // The receiver's placeholder is `__ad_p0`; the arguments' follow it.
        call.receiver = Box::new(match receiver {
            Operand::Value(v) => {
                let p = super::primal::placeholder(0, m.receiver.span());
                bindings.push((p.to_string(), *v));
                syn::parse_quote!(#p)
            }
            Operand::Const(t) => syn::parse_quote!((#t)),
        });
        for a in call.args.iter_mut() {
            self.placeholders_in(a, &mut bindings);
        }
        let expr = Expr::MethodCall(call);
        if bindings.is_empty() {
            return Operand::Const(quote!((#expr)));
        }
        Operand::Value(self.emit(Op::Primal { expr, bindings }, kind, m.span()))
    }

    /// `T::NAME(args)` in a function generic over `T`: a float function
    /// (`T::exp(x)`) is its rule; anything else (`T::one()`,
    /// `T::from(2.0)`, `T::from_f64(..)`) is a constant, or primal code of
    /// integers, and has no derivative to lose.
    fn lower_scalar_path_call(&mut self, c: &syn::ExprCall, func: &syn::ExprPath) -> Operand {
        let name = func.path.segments[1].ident.to_string();
        if let Some(split) = table::split(&name, c.args.len().saturating_sub(1)) {
            return self.split_not_destructured(split, c);
        }
        if let Some(rule) = table::path_function(&name, c.args.len()) {
            let args: Vec<Operand> = c.args.iter().map(|a| self.lower_expr(a)).collect();
            if args.iter().all(|a| matches!(a, Operand::Const(_))) {
                return self.constant_call(c, &func.path, &args, rule.params);
            }
            return self.rule_op(rule, args, Syntax::Path(func.path.clone()), c.span(), None);
        }
        let call = Expr::Call(c.clone());
        if self.reads_differentiable(&call) {
            self.cx.error_spanned_by(
                func,
                format!(
                    "`{}` of a differentiable value has no derivative; convert constants and integers only, such as `T::from(2.0).unwrap()` or `T::one()`",
                    func.to_token_stream().to_string().replace(' ', ""),
                ),
            );
            return self.missing(c.span());
        }
        self.lower_primal_of_integers(&call)
    }

    /// A float conversion of constants and integers, `T::from(n)`, as
    /// primal code. An integer read in it (`T::from(w.len())`) is a value
    /// of its own, so the conversion reads that, not the slice.
    fn lower_primal_of_integers(&mut self, e: &Expr) -> Operand {
        let mut e = e.clone();
        self.scopes.push(Vec::new());
        IntegerReads {
            lowerer: self,
            count: 0,
        }
        .visit_expr_mut(&mut e);
        let out = self.lower_primal(&e, Kind::Float);
        self.scopes.pop();
        out
    }

    /// Whether `m` is a method whose value is an integer or a `bool` of its
    /// receiver, with no derivative: `x.len()`, `m.nrows()`, `x.is_nan()`.
    pub(super) fn is_integer_read(m: &syn::ExprMethodCall) -> bool {
        table::builtin(&m.method.to_string(), m.args.len())
            .is_some_and(|b| matches!(b, Builtin::Len | Builtin::Shape | Builtin::Predicate))
    }

    /// Whether `v` is a float of another type than a generic function's
    /// scalar (`c` of `|c: f64| T::from_f64(c).unwrap()` in a function
    /// generic over `T`): no derivative reaches it, since one reaches an
    /// `f64` from a `T` only through a conversion, which has none.
    fn other_float(&self, v: ValueId) -> bool {
        self.scalar.as_ref().is_some_and(|scalar| {
            self.values[v]
                .float
                .as_ref()
                .is_some_and(|f| f != scalar && (f == "f64" || f == "f32"))
        })
    }

    /// Whether an expression reads a variable that may carry a derivative.
    pub(super) fn reads_differentiable(&self, e: &Expr) -> bool {
        struct Reads<'a, 'b> {
            lowerer: &'a Lowerer<'b>,
            found: bool,
        }
        impl<'ast> Visit<'ast> for Reads<'_, '_> {
            fn visit_expr(&mut self, e: &'ast Expr) {
                if let Some(v) = self.lowerer.local_ident(e) {
                    self.found |= self.lowerer.values[v].kind.is_differentiable()
                        && !self.lowerer.constant_params.contains(&v)
                        && !self.lowerer.constant_elements.contains(&v)
                        // `k as f64` of `let k = K;`: a constant's cast.
                        && !self.lowerer.lifted.contains(&v)
                        && !self.lowerer.other_float(v)
                        // The value of a function without the attribute
                        // (`counted(i)`, an integer): none flows through it,
                        // and the analysis reports the call where one would.
                        && !self.lowerer.unannotated_calls.iter().any(|c| c.value == v);
                    return;
                }
                // `x.len()`, `m.nrows()`, `x.is_nan()`: an integer or a
                // `bool` of the receiver, which has no derivative to lose
                // (`T::from(x.len())`).
                if let Expr::MethodCall(m) = e
                    && Lowerer::is_integer_read(m)
                {
                    return;
                }
                syn::visit::visit_expr(self, e);
            }
        }
        let mut reads = Reads {
            lowerer: self,
            found: false,
        };
        reads.visit_expr(e);
        reads.found
    }

    /// `let (s, c) = x.sin_cos();` or `f64::sin_cos(x)`, or `let sc =
    /// x.sin_cos();` read as `sc.0`, `sc.1`: each component is its own rule
    /// (see `table::Split`), the operands lowered once. Whether `init` is
    /// such a call.
    pub(super) fn lower_split(&mut self, target: SplitTarget<'_>, init: &Expr) -> bool {
        // Each component's method, written as the user wrote the tuple's.
        let (split, operands, syntaxes): (_, Vec<&Expr>, Vec<Syntax>) = match strip_parens(init) {
            Expr::MethodCall(m) => {
                let Some(split) = table::split(&m.method.to_string(), m.args.len()) else {
                    return false;
                };
                let operands = std::iter::once(&*m.receiver).chain(&m.args).collect();
                let span = m.method.span();
                let syntaxes = split
                    .parts
                    .iter()
                    .map(|r| Syntax::Method(syn::Ident::new(r.method.unwrap_or_default(), span)))
                    .collect();
                (split, operands, syntaxes)
            }
            Expr::Call(c) => {
                let Expr::Path(func) = &*c.func else {
                    return false;
                };
                let path = &func.path;
                let float = path.segments.len() == 2
                    && matches!(path.segments[0].ident.to_string().as_str(), "f64" | "f32");
                let arity = c.args.len().saturating_sub(1);
                let name = path.segments.last().map(|s| s.ident.to_string());
                let Some(split) = name.and_then(|n| table::split(&n, arity)).filter(|_| float)
                else {
                    return false;
                };
                let syntaxes = split
                    .parts
                    .iter()
                    .map(|r| {
                        let mut path = path.clone();
                        if let Some(last) = path.segments.last_mut() {
                            let span = last.ident.span();
                            last.ident = syn::Ident::new(r.method.unwrap_or_default(), span);
                        }
                        Syntax::Path(path)
                    })
                    .collect();
                (split, c.args.iter().collect(), syntaxes)
            }
            _ => return false,
        };
        let span = init.span();
        let pattern = match target {
            SplitTarget::Pattern(pattern) => pattern,
            SplitTarget::Named(ident) => {
                let args = self.split_operands(operands);
                let components = split.parts.iter().zip(syntaxes).enumerate();
                for (k, (rule, syntax)) in components {
                    let Operand::Value(value) =
                        self.rule_op(rule, args.clone(), syntax, span, None)
                    else {
                        continue;
                    };
                    self.values[value].name = Some(format!("{ident}_{k}"));
                    self.bind_component(ident, k, value);
                }
                return true;
            }
        };
        if pattern.elems.len() != split.parts.len() {
            self.cx.error_spanned_by(
                pattern,
                format!(
                    "`{}` gives {} values: bind each to a name, such as `let (s, c) = x.{}();`",
                    split.method,
                    split.parts.len(),
                    split.method
                ),
            );
            return true;
        }
        let args = self.split_operands(operands);
        let components = pattern.elems.iter().zip(split.parts).zip(syntaxes);
        for ((component, rule), syntax) in components {
            let (ident, mutable) = match component {
                Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                    (pi.ident.clone(), pi.mutability.is_some())
                }
                Pat::Wild(_) => continue,
                other => {
                    self.cx.error_spanned_by(
                        other,
                        "unsupported pattern; bind each component to a name or `_`",
                    );
                    continue;
                }
            };
            let Operand::Value(value) = self.rule_op(rule, args.clone(), syntax, span, None) else {
                continue;
            };
            self.values[value].name = Some(ident.to_string());
            self.bind(&ident, value, mutable, None);
        }
        true
    }

    /// The operands of a tuple method, each a value: a constant receiver is
    /// bound once for every component.
    fn split_operands(&mut self, operands: Vec<&Expr>) -> Vec<Operand> {
        operands
            .into_iter()
            .map(|e| {
                let o = self.lower_expr(e);
                Operand::Value(self.materialize(o, Kind::Float, e.span()))
            })
            .collect()
    }

    /// A tuple method used other than bound: the IR has no tuples.
    fn split_not_destructured(&mut self, split: &table::Split, at: impl ToTokens) -> Operand {
        let at = at.into_token_stream();
        self.cx.error_spanned_by(
            &at,
            format!(
                "`{0}` is supported where its values are bound to names: `let (s, c) = x.{0}();` or `let sc = x.{0}();` read as `sc.0`, `sc.1`",
                split.method
            ),
        );
        self.missing(at.span())
    }
}

/// Where a tuple method's values go.
#[derive(Copy, Clone)]
pub(super) enum SplitTarget<'a> {
    /// `let (s, c) = ..`: one name per component.
    Pattern(&'a syn::PatTuple),
    /// `let sc = ..`: the components read as `sc.0`, `sc.1`.
    Named(&'a syn::Ident),
}

/// Whether an expression calls a tuple method (`x.sin_cos()`,
/// `f64::sin_cos(x)`).
pub(super) fn is_split_call(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::MethodCall(m) => table::split(&m.method.to_string(), m.args.len()).is_some(),
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => {
                let segments: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                matches!(segments.as_slice(), [ty, name] if (ty == "f64" || ty == "f32")
                    && table::split(name, c.args.len().saturating_sub(1)).is_some())
            }
            _ => false,
        },
        _ => false,
    }
}

/// `x.first()` or `x.last()`, also under `.copied()` / `.cloned()`, as a
/// value of its own (the forms the rewrites take apart never get here):
/// the `first`/`last` call.
fn stored_first_or_last(m: &syn::ExprMethodCall) -> Option<&syn::ExprMethodCall> {
    let pick = match strip_parens(&m.receiver) {
        Expr::MethodCall(inner)
            if (m.method == "copied" || m.method == "cloned") && m.args.is_empty() =>
        {
            inner
        }
        _ => m,
    };
    ((pick.method == "first" || pick.method == "last")
        && pick.args.is_empty()
        && pick.turbofish.is_none())
    .then_some(pick)
}

/// `x.first().unwrap()`, `x.last().unwrap()` (also with `.copied()` or
/// `.expect(..)`): the element `x[0]`, `x[x.len() - 1]`, as the derivative
/// code reads it (the function itself keeps the `Option` and its panic).
/// The constant operands' code, each as its rule parameter is passed
/// (`&` where it takes a reference).
fn const_parts(args: &[Operand], params: &[crate::table::Param]) -> Vec<TokenStream> {
    args.iter()
        .zip(params)
        .map(|(a, p)| {
            let t = match a {
                Operand::Const(t) => t.clone(),
                Operand::Value(_) => TokenStream::new(),
            };
            if p.pass == Pass::Ref {
                quote!(&(#t))
            } else {
                quote!((#t))
            }
        })
        .collect()
}

/// `m.mean()`, `m.trace()` and `m.min()` of a matrix, as nalgebra computes
/// them, written with the sum, the length and element reads whose
/// derivatives the table has: `if m.len() == 0 { 0 } else { m.sum() / len
/// }`, the diagonal added from zero after the square check, and nalgebra's
/// fold for the smallest element. (`m.determinant()` is a rule of its own:
/// its derivative is the cofactors, which its pivoted LU, written out,
/// would lose at a zero pivot.) A receiver that is not a place is bound
/// once.
fn written_matrix_method(m: &syn::ExprMethodCall, scalar: Option<&syn::Ident>) -> Option<Expr> {
    if !m.args.is_empty() || m.turbofish.is_some() {
        return None;
    }
    let span = m.method.span();
    let place = super::matching::is_place(&m.receiver);
    let x: Expr = if place {
        (*m.receiver).clone()
    } else {
        let x = syn::Ident::new("matrix", Span::mixed_site());
        syn::parse_quote!(#x)
    };
    // In a function generic over its scalar (the second-order twin too),
    // zero and the length are of that scalar.
    let (zero, n): (Expr, Expr) = match scalar {
        Some(s) => (
            syn::parse_quote!(#s::zero()),
            syn::parse_quote!(#s::from(#x.len()).unwrap()),
        ),
        None => (syn::parse_quote!(0.0), syn::parse_quote!((#x.len() as f64))),
    };
    let body: Expr = match m.method.to_string().as_str() {
        "mean" => {
            syn::parse_quote_spanned!(span=> if #x.len() == 0 { #zero } else { #x.sum() / #n })
        }
        "trace" => syn::parse_quote_spanned!(span=> {
            assert!(#x.nrows() == #x.ncols(), "Cannot compute the trace of non-square matrix.");
            let mut trace = #zero;
            for i in 0..#x.nrows() {
                trace += #x[(i, i)];
            }
            trace
        }),
        // nalgebra folds `simd_min` from the first element: `if a <= b { a
        // } else { b }`, so the first of equal elements wins and a NaN
        // after the first element is taken over anything before it.
        "min" => syn::parse_quote_spanned!(span=> {
            if #x.len() == 0 {
                #zero
            } else {
                let mut smallest = #x[0];
                for i in 1..#x.len() {
                    let element = #x[i];
                    smallest = if smallest <= element { smallest } else { element };
                }
                smallest
            }
        }),
        _ => return None,
    };
    if place {
        return Some(body);
    }
    let receiver = &m.receiver;
    Some(syn::parse_quote_spanned!(span=> { let #x = #receiver; #body }))
}

fn first_or_last(m: &syn::ExprMethodCall) -> Option<syn::ExprIndex> {
    if !(m.method == "unwrap" && m.args.is_empty() || m.method == "expect" && m.args.len() == 1) {
        return None;
    }
    let mut inner = &*m.receiver;
    if let Expr::MethodCall(c) = inner
        && (c.method == "copied" || c.method == "cloned")
        && c.args.is_empty()
    {
        inner = &c.receiver;
    }
    let Expr::MethodCall(pick) = inner else {
        return None;
    };
    if let Some((x, index)) = super::first_last::best_index(pick) {
        return Some(syn::parse_quote_spanned!(pick.method.span()=> #x[#index]));
    }
    // `x.iter().map(f).last()` is an iterator's `last`, reported as one.
    if !pick.args.is_empty() || pick.turbofish.is_some() || super::iter::is_iterator(&pick.receiver)
    {
        return None;
    }
    let x = &pick.receiver;
    let span = pick.method.span();
    let index: Expr = if pick.method == "first" {
        syn::parse_quote_spanned!(span=> 0)
    } else if pick.method == "last" {
        syn::parse_quote_spanned!(span=> #x.len() - 1)
    } else {
        return None;
    };
    Some(syn::parse_quote_spanned!(span=> #x[#index]))
}

/// The name lowering gives an integer read (`x.len()`) inside a float
/// conversion while it lowers it (`T::from(x.len())`); primal code
/// replaces it by a placeholder, so it never reaches the output.
fn integer_read(k: usize) -> syn::Ident {
    syn::Ident::new(&format!("__ad_int{k}"), proc_macro2::Span::mixed_site())
}

/// Lowers each integer read of an expression (`x.len()`, see
/// [`Lowerer::is_integer_read`]) as a value of its own and puts a name
/// bound to it, in the innermost scope, in its place; primal code then
/// reads that value, not the receiver. The names are placeholders' before
/// any code is written.
struct IntegerReads<'a, 'b> {
    lowerer: &'a mut Lowerer<'b>,
    count: usize,
}

impl VisitMut for IntegerReads<'_, '_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::MethodCall(m) = e
            && Lowerer::is_integer_read(m)
        {
            match self.lowerer.lower_expr(e) {
                Operand::Const(t) => *e = Expr::Verbatim(t),
                Operand::Value(v) => {
                    let ident = integer_read(self.count);
                    self.count += 1;
                    self.lowerer.bind(&ident, v, false, None);
                    *e = syn::parse_quote!(#ident);
                }
            }
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

impl Lowerer<'_> {
    /// Records `v`, a call of `path`, which the source shows without
    /// `#[differentiable]`, with the error the analysis gives where the
    /// call has a derivative to take.
    fn unannotated_call(&mut self, v: ValueId, path: &syn::Path) {
        let (written, message) = crate::unannotated::error(path);
        self.unannotated_calls.push(UnannotatedCall {
            value: v,
            path: path.clone(),
            written,
            message,
            cfgs: self.cfgs.clone(),
        });
    }

    /// The variable that the in-out argument `&mut y` (or `&mut *y` of the
    /// function's own in-out `y`) of a call updates: a local variable (or
    /// in-out argument) holding a float, an array, a `Vec` or a matrix.
    /// Anything else is reported, `None`.
    fn inout_target(&mut self, r: &syn::ExprReference) -> Option<syn::Ident> {
        let mut inner = &*r.expr;
        if let Expr::Unary(u) = inner
            && matches!(u.op, syn::UnOp::Deref(_))
        {
            inner = &u.expr;
        }
        let ident = match inner {
            Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
            _ => None,
        };
        let target = ident.filter(|i| {
            self.lookup(i).is_some_and(|b| {
                b.mutable
                    && matches!(
                        self.values[b.value].kind,
                        Kind::Float | Kind::Array | Kind::Matrix
                    )
            })
        });
        if target.is_none() {
            self.cx.error_spanned_by(
                r,
                "an in-out (`&mut`) argument passed from a `#[differentiable]` body is a `mut` local variable or an in-out argument holding a float, an array, a `Vec` or a nalgebra matrix (`step(&mut y, dt);`); copy anything else into such a variable first",
            );
        }
        target
    }
}
