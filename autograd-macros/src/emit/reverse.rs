//! The adjoint sweep: the operations in reverse order, each adding its
//! contributions into its operands' adjoints.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use super::forward::Mode;
use super::{Gen, names, paths};
use crate::analysis::{
    carry_active, carry_gated, deferred_call, has_work, invariant_reads, kept_call, scalar_form,
    stencils,
};
use crate::ir::*;
use crate::table::{Form, Func, Read, Rule};

impl<'a> Gen<'a> {
    /// The zero a value's adjoint starts from when it is created up front.
    pub fn zero(&self, v: ValueId) -> TokenStream {
        match self.f.info(v).kind {
            Kind::Float => self.scalar.zero(),
            _ => {
                let v = self.operand_ref(&Operand::Value(v));
                quote!(::autograd::__private::zero_like(#v))
            }
        }
    }

    /// Adds `expr` into the adjoint of `v`, creating it with a plain `let`
    /// at its first contribution.
    pub(super) fn contribute(&mut self, v: ValueId, expr: TokenStream) -> TokenStream {
        self.contribute_from(v, expr, None)
    }

    /// The flag of a gated adjoint (see `Analysis::gated`), if `v`'s is.
    pub(super) fn reached(&self, v: ValueId) -> Option<proc_macro2::Ident> {
        // An argument's flag is only the pullback's answer to its caller.
        let flagged = self.reach || self.f.info(v).param.is_none();
        (self.gate && self.an.gated[v] && flagged).then(|| names::reached(self.f, v))
    }

    /// Marks `v`'s adjoint as reached by a contribution that arrived, or
    /// (`from`) by one that arrived if that flag says so.
    pub(super) fn mark(&self, v: ValueId, from: Option<&TokenStream>) -> TokenStream {
        match (self.reached(v), from) {
            (None, _) => TokenStream::new(),
            (Some(r), None) => quote!(#r = true;),
            (Some(r), Some(from)) => quote!(#r |= #from;),
        }
    }

    /// Whether operand `i` (the value `u`) of a selecting rule (`max`,
    /// `min`, `clamp`) is the one it picked on this run, where `u`'s adjoint
    /// is gated: an operand not picked is not on the run's path, and its
    /// zero adjoint reaches nothing (see `Rule::selects`).
    fn taken(
        &self,
        rule: &Rule,
        args: &[Operand],
        i: usize,
        u: ValueId,
        span: proc_macro2::Span,
    ) -> Option<TokenStream> {
        if !rule.selects || self.reached(u).is_none() {
            return None;
        }
        let takes = paths::runtime(rule, Func::Taken(i), span);
        // A selection's pullbacks read its operands, never its value.
        let reads = rule.params[i].reads.iter().filter_map(|r| match r {
            Read::Arg(j) => Some(self.operand(&args[*j])),
            Read::Out => None,
        });
        Some(quote_spanned!(span=> #takes(#(#reads),*)))
    }

    /// [`Self::contribute`] of an adjoint that arrived only if `from` (a
    /// gated adjoint's flag) says so: a φ's, a carried one's.
    pub(super) fn contribute_from(
        &mut self,
        v: ValueId,
        expr: TokenStream,
        from: Option<&TokenStream>,
    ) -> TokenStream {
        let adj = names::adjoint(self.f, v);
        // An array's adjoint is added into element by element, and written
        // in place by the reverse of an element write.
        let array = self.f.info(v).kind == Kind::Array;
        if self.declared.contains(&v) {
            let mark = self.mark(v, from);
            if array {
                return quote!(::autograd::__private::accumulate(&mut #adj, #expr); #mark);
            }
            let kind = self.f.info(v).kind;
            let add = self.scalar.add_assign(kind, adj.into_token_stream(), expr);
            return quote!(#add #mark);
        }
        self.declared.insert(v);
        let flag = self.reached(v).map(|r| match from {
            Some(from) => quote!(let mut #r = #from;),
            None => quote!(let mut #r = true;),
        });
        if self.an.uses[v] > 1 || array {
            quote!(let mut #adj = #expr; #flag)
        } else {
            quote!(let #adj = #expr; #flag)
        }
    }

    /// Values of this block whose adjoints start at zero, but those in
    /// `taken` (whose adjoints start as an incoming one).
    fn predeclare(&mut self, b: &Block, taken: &HashSet<ValueId>) -> TokenStream {
        let mut out = TokenStream::new();
        let values = self.an.defined_in.get(&b.id).cloned().unwrap_or_default();
        for v in values {
            // An argument's adjoint held off the stack is declared already.
            if self.an.active(v)
                && self.an.predeclare[v]
                && self.f.info(v).kind != Kind::Slice
                && !self.declared.contains(&v)
                && !taken.contains(&v)
            {
                let adj = names::adjoint(self.f, v);
                let zero = match self.an.carried_arrays.get(&v) {
                    // The carried adjoint has the array's shape: the array
                    // itself need not be saved for it.
                    Some((l, name)) => {
                        let dc = names::carried_adjoint(*l, name);
                        quote!(::autograd::__private::zero_like(&#dc))
                    }
                    // A `Vec` of a known length: zeros of that length from
                    // the buffer pool, so the reverse need not rebuild the
                    // `Vec` (see `analysis::zero_shaped`).
                    None => match self.an.lengths.get(&v) {
                        Some(len) if self.f.info(v).kind == Kind::Array => {
                            let (zero, len) = (self.scalar.zero(), names::value(self.f, *len));
                            quote!(::autograd::__private::filled(#zero, #len))
                        }
                        _ => self.zero(v),
                    },
                };
                out.extend(quote!(let mut #adj = #zero;));
                if let Some(r) = self.reached(v) {
                    // Nothing has arrived yet.
                    out.extend(quote!(let mut #r = false;));
                }
                self.declared.insert(v);
            }
        }
        out
    }

    /// The reverse sweep of a block; `incoming` are contributions that
    /// arrive from outside it (φ-nodes, the loop back edge, the seed), each
    /// with the flag saying whether it arrived where that may not be so.
    pub fn reverse_block(
        &mut self,
        b: &Block,
        incoming: Vec<(ValueId, TokenStream, Option<TokenStream>)>,
    ) -> TokenStream {
        // An array adjoint that starts as the adjoint arriving from outside
        // (a carried adjoint into the iteration's exit value) takes it
        // over, instead of starting as a zero it is then added into.
        let taken: HashSet<ValueId> = incoming
            .iter()
            .filter(|(v, _, from)| from.is_none() && self.f.info(*v).kind == Kind::Array)
            .map(|(v, _, _)| *v)
            .collect();
        let incoming_values: HashSet<ValueId> = incoming.iter().map(|(v, _, _)| *v).collect();
        let handed = self.handed_over(b, &taken, &incoming_values);
        let mut out = self.predeclare(b, &taken.union(&handed).copied().collect());
        for (v, expr, from) in incoming {
            out.extend(self.contribute_from(v, expr, from.as_ref()));
        }
        for stmt in b.stmts.iter().rev() {
            let code = match stmt {
                Stmt::Let { dst, op, span, .. } => self.reverse_let(*dst, op, *span),
                Stmt::If(i) => self.reverse_if(stmt, i),
                Stmt::Loop(l) => self.reverse_loop(stmt, l),
            };
            out.extend(code);
        }
        out
    }

    /// Arrays of block `b` whose adjoint would start as a zero the reverse
    /// then adds a whole adjoint into (`v[i] = e`'s new value's, for `v`
    /// read in a branch or a loop too): where that write's reverse is the
    /// first to reach `v`'s adjoint, unconditionally, and the new value's
    /// adjoint surely exists by then, `v`'s adjoint takes that buffer over
    /// (its first contribution declares it), instead of a zero made and
    /// added into on every run of the block (every iteration of a loop).
    fn handed_over(
        &self,
        b: &Block,
        taken: &HashSet<ValueId>,
        incoming: &HashSet<ValueId>,
    ) -> HashSet<ValueId> {
        let candidate = |v: ValueId| {
            self.an.active(v)
                && self.an.predeclare[v]
                && self.f.info(v).kind == Kind::Array
                && self.f.info(v).block == b.id
                && !self.declared.contains(&v)
                && !taken.contains(&v)
                && !incoming.contains(&v)
                && self.reached(v).is_none()
        };
        // Adjoints that exist when the reverse reaches a statement, walking
        // back: those declared before the block, arriving, or declared at
        // its start (a candidate not handed over is; one handed over exists
        // from its write's reverse on, which comes before the statement
        // defining it), and those a write's reverse hands its adjoint to.
        let mut sure: HashSet<ValueId> = incoming
            .iter()
            .chain(&self.declared)
            .copied()
            .chain(
                self.an
                    .defined_in
                    .get(&b.id)
                    .into_iter()
                    .flatten()
                    .copied()
                    .filter(|v| {
                        self.an.active(*v)
                            && self.an.predeclare[*v]
                            && self.f.info(*v).kind != Kind::Slice
                    }),
            )
            .collect();
        let mut handed = HashSet::new();
        let mut touched = HashSet::new();
        for stmt in b.stmts.iter().rev() {
            if let Stmt::Let {
                dst,
                op: Op::Store { array, .. } | Op::Push { array, .. },
                ..
            } = stmt
                && self.an.active(*dst)
                && self.an.active(*array)
                && self.reached(*dst).is_none()
                && sure.contains(dst)
            {
                if candidate(*array) && !touched.contains(array) {
                    handed.insert(*array);
                }
                sure.insert(*array);
            }
            stmt.for_each_deep_read(&mut |v| {
                touched.insert(*v);
            });
        }
        handed
    }

    /// Whether `v`'s adjoint may stay a scalar for every element until `v`'s
    /// own reverse: its one contribution (a `sum`) is its first, it is a
    /// top-level matrix, and its operation is an element-wise `map` whose
    /// rule reads only `v` itself, which the reverse then gives up to
    /// hold the adjoint (nothing reads it after its own reverse). At `v`'s
    /// own reverse (`at_own_reverse`) its adjoint is already marked as
    /// created, by the `sum` that deferred it.
    fn takes_broadcast(&self, v: ValueId, op: &Op, at_own_reverse: bool) -> bool {
        let info = self.f.info(v);
        let Op::Rule {
            rule,
            args,
            syntax: Syntax::Map(_),
        } = op
        else {
            return false;
        };
        (at_own_reverse || !self.declared.contains(&v))
            && self.an.uses[v] == 1
            && !self.an.predeclare[v]
            && info.kind == Kind::Matrix
            && info.block == self.f.body.id
            && info.param.is_none()
            && rule.generic_reads(0, true) == [Read::Out]
            && self
                .an
                .active_operand(&args[0])
                .is_some_and(|u| !self.declared.contains(&u))
    }

    fn reverse_let(&mut self, dst: ValueId, op: &Op, span: proc_macro2::Span) -> TokenStream {
        if !self.an.active(dst) || !self.declared.contains(&dst) {
            return TokenStream::new();
        }
        let code = self.reverse_op(dst, op, span);
        match self.reached(dst) {
            // A value the result does not read on this run adds nothing,
            // not its zero adjoint times its partials (0·∞ = NaN).
            Some(r) if !code.is_empty() => quote!(if #r { #code }),
            _ => code,
        }
    }

    fn reverse_op(&mut self, dst: ValueId, op: &Op, span: proc_macro2::Span) -> TokenStream {
        let g = names::adjoint(self.f, dst);
        let mut out = TokenStream::new();
        if let Some((element, broadcast)) = self.broadcast.remove(&dst) {
            match op {
                Op::Rule { rule, args, .. } if self.takes_broadcast(dst, op, true) => {
                    // The rule per element, from the one scalar, in the
                    // buffer of the mapped result.
                    let func = paths::runtime(rule, Func::Mapped(Form::Broadcast), span);
                    let v = names::value(self.f, dst);
                    if let Some(u) = self.an.active_operand(&args[0]) {
                        out.extend(self.contribute(u, quote_spanned!(span=> #func(#element, #v))));
                    }
                    return out;
                }
                _ => out.extend(quote!(let #g = #broadcast;)),
            }
        }
        if let Some(code) = self.collection_reverse(dst, op, span) {
            out.extend(code);
            return out;
        }
        match op {
            Op::Copy(a) => {
                if let Some(u) = self.an.active_operand(a) {
                    out.extend(self.contribute(u, g.into_token_stream()));
                }
            }
            Op::Rule { rule, args, syntax } if !scalar_form(self.f, rule, args) => {
                let map = matches!(syntax, Syntax::Map(_));
                let targets: Vec<(usize, ValueId)> = args
                    .iter()
                    .zip(rule.diff())
                    .filter(|(_, d)| *d)
                    .enumerate()
                    .filter_map(|(k, (a, _))| Some((k, self.an.active_operand(a)?)))
                    .collect();
                // A matrix adjoint is dead after its operation's reverse: the
                // last contribution may take its buffer (unless it is lent).
                let lent = self.lent.contains(&dst);
                let owned_last = !self.f.info(dst).kind.is_copy() && !lent;
                let g_ref = if lent { quote!(#g) } else { quote!(&#g) };
                if let Some(code) = self.lend_pass_through(dst, rule, &targets, span) {
                    out.extend(code);
                    return out;
                }
                if rule.broadcasts
                    && let [(_, u)] = targets[..]
                    && let Some(def) = self.top_level_op(u)
                    && self.takes_broadcast(u, def, false)
                {
                    // Left as one scalar for every element; see `broadcast`.
                    let element = paths::runtime(rule, Func::Element, span);
                    let element = quote_spanned!(span=> #element(&#g));
                    let func = paths::runtime(rule, Func::Dispatched(0, Form::New), span);
                    let refs = [
                        self.operand_ref(&args[0]),
                        self.operand_ref(&Operand::Value(dst)),
                    ];
                    let broadcast = quote_spanned!(span=> #func(&#g #(, #refs)*));
                    self.broadcast.insert(u, (element, broadcast));
                    self.declared.insert(u);
                    return out;
                }
                for (i, &(k, u)) in targets.iter().enumerate() {
                    let func = |form| match map {
                        true => paths::runtime(rule, Func::Mapped(form), span),
                        false => paths::runtime(rule, Func::Dispatched(k, form), span),
                    };
                    let refs: Vec<_> = rule
                        .generic_reads(k, map)
                        .into_iter()
                        .map(|r| match r {
                            Read::Arg(i) => self.operand_ref(&args[i]),
                            Read::Out => self.operand_ref(&Operand::Value(dst)),
                        })
                        .collect();
                    if self.declared.contains(&u) {
                        // Accumulated in place: no temporary.
                        let func = func(Form::Acc);
                        let adj = names::adjoint(self.f, u);
                        out.extend(quote_spanned!(span=> #func(&mut #adj, #g_ref #(, #refs)*);));
                        let taken = rule
                            .differentiable_operand(k)
                            .and_then(|i| self.taken(rule, args, i, u, span));
                        out.extend(self.mark(u, taken.as_ref()));
                        continue;
                    }
                    let expr = if owned_last && i + 1 == targets.len() {
                        let func = func(Form::Owned);
                        quote_spanned!(span=> #func(#g #(, #refs)*))
                    } else {
                        let func = func(Form::New);
                        quote_spanned!(span=> #func(#g_ref #(, #refs)*))
                    };
                    let taken = rule
                        .differentiable_operand(k)
                        .and_then(|i| self.taken(rule, args, i, u, span));
                    out.extend(self.contribute_from(u, expr, taken.as_ref()));
                }
            }
            Op::Map {
                recv,
                closure,
                captures,
                inputs,
                ..
            } if inputs.iter().any(|(_, v)| self.an.active(*v)) => {
                out.extend(self.map_with_inputs(dst, *recv, closure, captures, inputs, span));
            }
            Op::Map {
                recv,
                closure,
                captures,
                inputs,
                ..
            } if self.an.active(*recv) => {
                // The closure's VJP, where the variables it reads are at hand.
                let helper = super::map_helper(closure, &self.an.closures[&dst], span);
                let m = self.operand_ref(&Operand::Value(*recv));
                let rebind = self.rebind(captures);
                let h = names::map_helper(dst);
                let (x, g_x) = (names::element(), names::element_adjoint());
                // `f64`, or a second-order twin's scalar.
                let elem = self.f.info(dst).float.clone();
                let elem = elem.unwrap_or_else(|| syn::Ident::new("f64", span));
                // Floats the closure reads that carry no derivative here
                // are its arguments all the same.
                let values = inputs.iter().map(|(_, v)| self.owned(*v));
                let pullback = quote!(|#x: #elem, #g_x: #elem| #h(#x #(, #values)*).1(#g_x).0);
                if self.declared.contains(recv) {
                    let func = map_closure(Form::Acc, span);
                    let adj = names::adjoint(self.f, *recv);
                    out.extend(quote_spanned!(span=> {
                        #rebind
                        let #h = #helper;
                        #func(&mut #adj, &#g, #m, #pullback);
                    }));
                    out.extend(self.mark(*recv, None));
                } else {
                    let func = map_closure(Form::Owned, span);
                    let expr = quote_spanned!(span=> {
                        #rebind
                        let #h = #helper;
                        #func(#g, #m, #pullback)
                    });
                    out.extend(self.contribute(*recv, expr));
                }
            }
            Op::Rule { rule, args, .. } => {
                for (i, (a, p)) in args.iter().zip(rule.params).enumerate() {
                    if !p.diff {
                        continue;
                    }
                    let Some(u) = self.an.active_operand(a) else {
                        continue;
                    };
                    let func = paths::runtime(rule, Func::Pullback(i), span);
                    let reads = p.reads.iter().map(|r| match r {
                        Read::Arg(i) => self.operand(&args[*i]),
                        Read::Out => names::value(self.f, dst).into_token_stream(),
                    });
                    let expr = quote_spanned!(span=> #func(#g #(, #reads)*));
                    let taken = self.taken(rule, args, i, u, span);
                    out.extend(self.contribute_from(u, expr, taken.as_ref()));
                }
            }
            Op::Index { .. } if self.windows.contains_key(&dst) => {
                let w = &self.windows[&dst];
                if self.fresh_windows.remove(w) {
                    out.extend(quote!(let mut #w = #g;));
                } else {
                    let add = self.scalar.add_assign(Kind::Float, quote!(#w), quote!(#g));
                    out.extend(add);
                }
            }
            Op::Index { slice, index } if self.an.active(*slice) => {
                let adj = names::adjoint(self.f, *slice);
                let index = self.operand(index);
                let add = self
                    .scalar
                    .add_assign(Kind::Slice, quote!(#adj[#index]), quote!(#g));
                out.extend(add);
            }
            Op::Call { func, args } => {
                let adds_into = (!self.recorded.contains(&dst)
                    && !kept_call(self.f, dst, args)
                    && deferred_call(self.f, args))
                .then(|| self.adds_into(dst, func, args, span))
                .flatten();
                let whole = std::mem::take(&mut out);
                let mut pb = names::pullback(dst).into_token_stream();
                if self.recorded.contains(&dst) {
                    let rec = names::recorded_call(dst);
                    pb = quote!(::autograd::__private::recorded_pullback(#rec));
                }
                if kept_call(self.f, dst, args) && self.an.active(dst) {
                    // The pullback the forward sweep kept, else the call again.
                    let vjp = super::forward::vjp_path(func);
                    let call_args = self.call_args(args);
                    let value = names::callee_value();
                    let check =
                        super::forward::same_callee(func, &value.to_token_stream(), &pb, span);
                    // A name of its own: where the forward sweep's bindings
                    // are declared up front, a `let` of `pb` would become an
                    // assignment to the kept one, of another type.
                    let resolved = names::resolved_pullback(dst);
                    out.extend(quote_spanned!(span=>
                        let #resolved = ::autograd::__private::KeptPullback::pullback(#pb, || {
                            let (#value, #pb) = #vjp(#(#call_args),*);
                            #check
                            #pb
                        });
                    ));
                    pb = resolved.into_token_stream();
                } else if deferred_call(self.f, args) {
                    let vjp = super::forward::vjp_path(func);
                    let call_args = self.call_args(args);
                    let value = names::callee_value();
                    out.extend(quote_spanned!(span=> let (#value, #pb) = #vjp(#(#call_args),*);));
                    out.extend(super::forward::same_callee(
                        func,
                        &value.into_token_stream(),
                        &pb,
                        span,
                    ));
                }
                let slots: Vec<_> = args
                    .iter()
                    .enumerate()
                    .map(|(k, a)| match self.an.active_operand(&a.operand) {
                        Some(_) => names::call_slot(dst, k).into_token_stream(),
                        None => quote!(_),
                    })
                    .collect();
                // The callee says which arguments it reached: a gated one
                // is reached only if it did.
                let reached = names::call_reached(dst);
                let gated = args.iter().any(|a| {
                    self.an
                        .active_operand(&a.operand)
                        .is_some_and(|u| self.reached(u).is_some())
                });
                let private = quote!(::autograd::__private);
                out.extend(match gated {
                    true => quote_spanned!(span=>
                        let ((#(#slots,)*), #reached) = #private::reached(#pb(#g));
                    ),
                    false => quote_spanned!(span=>
                        let (#(#slots,)*) = #private::adjoints(#pb(#g));
                    ),
                });
                for (k, a) in args.iter().enumerate() {
                    if let Some(u) = self.an.active_operand(&a.operand) {
                        let adj = names::adjoint(self.f, u);
                        // Spanned on the argument, so a `#[constant]` slot
                        // given a differentiable value is reported there.
                        let mut slot = proc_macro2::Group::new(
                            proc_macro2::Delimiter::Parenthesis,
                            names::call_slot(dst, k).into_token_stream(),
                        );
                        slot.set_span(a.span);
                        // Its own statement, so the slot's type is checked as
                        // it is, not inferred from the adjoint it goes into.
                        let checked = names::call_slot(dst, k);
                        if a.range.is_none() && self.adopted.remove(&u) {
                            // Its only contribution: the callee's `Vec`.
                            out.extend(quote_spanned!(a.span=>
                                let #checked = ::autograd::__private::contribution(#slot);
                                let mut #adj = #checked;
                            ));
                            continue;
                        }
                        // A sub-slice's adjoint goes to its elements of
                        // the whole, in place.
                        let target = match &a.range {
                            Some(_) => self.sub_slice(a, true),
                            None => quote_spanned!(a.span=> &mut #adj),
                        };
                        let accumulate = self.scalar.accumulate(
                            self.f.info(u).kind,
                            target,
                            checked.to_token_stream(),
                            a.span,
                        );
                        out.extend(match self.scalar.param() {
                            // Its generic adjoint takes the slot as it is:
                            // a type error there says what it is.
                            Some(_) => quote_spanned!(a.span=>
                                let #checked = #slot;
                                #accumulate
                            ),
                            None => quote_spanned!(a.span=>
                                let #checked = ::autograd::__private::contribution(#slot);
                                #accumulate
                            ),
                        });
                        let k = proc_macro2::Literal::usize_unsuffixed(k);
                        let from = quote!(#reached[#k]);
                        out.extend(self.mark(u, Some(&from)));
                    }
                }
                // Through the callee's pullback where the callee does not
                // add into the caller's adjoints itself.
                if let Some(adds_into) = adds_into {
                    let added = names::added_into(dst);
                    out = quote! {
                        let #added = #adds_into;
                        if !#added {
                            #out
                        }
                    };
                }
                out = quote!(#whole #out);
            }
            _ => {}
        }
        out
    }

    /// A call the reverse sweep makes, with its adjoints added straight
    /// into the caller's by a callee that does so (`__private::AddsInto`):
    /// whether it did. Only where each argument is a distinct active
    /// float, slice or array, passed whole or as a sub-slice, whose
    /// adjoint no flag gates; else `None`, and the callee's pullback
    /// returns the adjoints, which the sweep adds in.
    fn adds_into(
        &self,
        dst: ValueId,
        func: &syn::Path,
        args: &[CallArg],
        span: proc_macro2::Span,
    ) -> Option<TokenStream> {
        // The carrier type named like the function (see `emit::carrier`),
        // which is not generic; not a struct or in-out call's item.
        let carrier_named = func.segments.iter().all(|s| s.arguments.is_none())
            && func.segments.first().is_some_and(|s| s.ident != "Self")
            && func.segments.last().is_some_and(|s| {
                !names::has_no_carrier(&s.ident) && !s.ident.to_string().starts_with("__")
            });
        if !carrier_named || self.scalar.param().is_some() || args.is_empty() {
            return None;
        }
        let mut seen = HashSet::new();
        let mut call_args = Vec::new();
        let mut buffers = Vec::new();
        for a in args {
            let u = self.an.active_operand(&a.operand)?;
            if !seen.insert(u) || self.reached(u).is_some() || self.lent.contains(&u) {
                return None;
            }
            let info = self.f.info(u);
            let (x, adj) = (self.operand(&a.operand), names::adjoint(self.f, u));
            let (arg, buffer) = match info.kind {
                _ if a.range.is_some() => (self.sub_slice(a, false), self.sub_slice(a, true)),
                Kind::Float if !a.by_ref => (x, quote_spanned!(a.span=> &mut #adj)),
                Kind::Slice | Kind::Array
                    if (a.by_ref || info.by_ref)
                        && (info.kind == Kind::Slice || self.indexable(u)) =>
                {
                    (
                        quote_spanned!(a.span=> &#x[..]),
                        quote_spanned!(a.span=> &mut #adj[..]),
                    )
                }
                _ => return None,
            };
            call_args.push(arg);
            buffers.push(buffer);
        }
        let g = names::adjoint(self.f, dst);
        let private = quote!(::autograd::__private);
        // The function the call names, for the callee's check that it is
        // the one it differentiates; a call of it (never made) infers its
        // generic parameters, if it has any, as the call's arguments do.
        let plain_args = self.call_args(args);
        Some(quote_spanned! {span=>
            {
                #[allow(unused_imports)]
                use #private::{AddsIntoCallee as _, AddsIntoPullback as _};
                let called = #func;
                let _ = || called(#(#plain_args),*);
                let call = #private::AddsIntoCall::<#func, _, _, _>::new(
                    (#(#call_args,)*),
                    &#g,
                    (#(#buffers,)*),
                );
                (&call).add_into(&called)
            }
        })
    }

    /// Whether `v`, an array, is one the caller can slice (`[f64; N]` or
    /// `Vec<f64>`, an argument or built as one), not a tuple.
    fn indexable(&self, v: ValueId) -> bool {
        if self.f.info(v).param.is_some() {
            // An array argument is an array or a `Vec` (`sig::ParamKind`).
            return true;
        }
        let mut found = false;
        let mut check = |dst: ValueId, op: &Op| {
            if dst == v {
                found = matches!(
                    op,
                    Op::Pack {
                        collection: Collection::Array | Collection::Vec,
                        ..
                    } | Op::Fill {
                        collection: Collection::Array | Collection::Vec,
                        ..
                    }
                );
            }
        };
        Lets(&mut check).visit_block(&self.f.body);
        found
    }

    /// `a + b` or `a - b` on matrices where `a` is a top-level local and `b`
    /// an argument, each receiving nothing else: `a`'s adjoint borrows the
    /// output adjoint (`d(a±b)/da = 1`, the rule's `_ref` form) for `a`'s
    /// own reverse, and `b`'s takes the output adjoint's buffer at the end
    /// of the sweep, so neither copies it.
    fn lend_pass_through(
        &mut self,
        dst: ValueId,
        rule: &Rule,
        targets: &[(usize, ValueId)],
        span: proc_macro2::Span,
    ) -> Option<TokenStream> {
        let top = self.f.body.id;
        let &[(0, a), (1, b)] = targets else {
            return None;
        };
        let first = |v: ValueId| {
            self.an.uses[v] == 1 && !self.an.predeclare[v] && !self.declared.contains(&v)
        };
        let (da_info, db_info) = (self.f.info(a), self.f.info(b));
        let a_reverse_is_dispatched = matches!(
            self.top_level_op(a),
            Some(Op::Rule { rule, args, .. }) if !scalar_form(self.f, rule, args)
        );
        let ok = rule.runtime(Func::Dispatched(0, Form::Ref)).is_some()
            && self.f.info(dst).kind == Kind::Matrix
            && self.f.info(dst).block == top
            && !self.lent.contains(&dst)
            && a != b
            && first(a)
            && first(b)
            && da_info.kind == Kind::Matrix
            && da_info.block == top
            && da_info.param.is_none()
            && a_reverse_is_dispatched
            && db_info.kind == Kind::Matrix
            && db_info.param.is_some();
        if !ok {
            return None;
        }
        let (g, da, db) = (
            names::adjoint(self.f, dst),
            names::adjoint(self.f, a),
            names::adjoint(self.f, b),
        );
        let lend = paths::runtime(rule, Func::Dispatched(0, Form::Ref), span);
        let take = paths::runtime(rule, Func::Dispatched(1, Form::Owned), span);
        self.declared.insert(a);
        self.declared.insert(b);
        self.lent.insert(a);
        self.deferred
            .push(quote_spanned!(span=> let #db = #take(#g);));
        Some(quote_spanned!(span=> let #da = #lend(&#g);))
    }

    /// The operation defining `v` at the top level of the body, if any.
    fn top_level_op(&self, v: ValueId) -> Option<&'a Op> {
        self.f.body.stmts.iter().find_map(|s| match s {
            Stmt::Let { dst, op, .. } if *dst == v => Some(op),
            _ => None,
        })
    }

    fn reverse_if(&mut self, stmt: &Stmt, i: &If) -> TokenStream {
        if !has_work(self.an, stmt) {
            return TokenStream::new();
        }
        let cond = self.operand(&i.cond);
        let arm = |g: &mut Self, blk: &Block, src: fn(&Phi) -> ValueId| {
            // An element the loop kept was popped with its iteration.
            let needs = g.an.needs(blk);
            let recompute = if g.an.kept_in_arms.is_empty() {
                g.forward_block(blk, Mode::Record, Some(needs))
            } else {
                let needs = needs.difference(&g.an.kept_in_arms).copied().collect();
                g.forward_block(blk, Mode::Record, Some(&needs))
            };
            let incoming = i
                .phis
                .iter()
                .filter(|p| g.declared.contains(&p.dst) && g.an.active(src(p)))
                .map(|p| {
                    let adj = names::adjoint(g.f, p.dst).into_token_stream();
                    let from = g.reached(p.dst).map(|r| r.into_token_stream());
                    (src(p), adj, from)
                })
                .collect();
            let reverse = g.reverse_block(blk, incoming);
            quote! { #recompute #reverse }
        };
        let then_code = arm(self, &i.then_blk, |p| p.then_src);
        let else_code = arm(self, &i.else_blk, |p| p.else_src);
        if let Some(predicate) = &i.cfg {
            return quote! {
                #[cfg(#predicate)]
                {
                    #then_code
                }
                #[cfg(not(#predicate))]
                {
                    #else_code
                }
            };
        }
        quote! {
            if #cond {
                #then_code
            } else {
                #else_code
            }
        }
    }

    fn reverse_loop(&mut self, stmt: &Stmt, l: &Loop) -> TokenStream {
        if !has_work(self.an, stmt) {
            return TokenStream::new();
        }
        if let Some(fusion) = self.fused(l) {
            return self.reverse_fused(l, fusion);
        }
        self.reverse_two_pass(l, false)
    }

    /// The reverse sweep of a loop run as two passes: iteration by
    /// iteration, last first, each from what its forward sweep saved, or
    /// (`recompute_all`, a fused loop's forward saved nothing) from its
    /// primal computed again.
    pub(super) fn reverse_two_pass(&mut self, l: &Loop, recompute_all: bool) -> TokenStream {
        let carried: Vec<&Carried> = l
            .carried
            .iter()
            .filter(|c| carry_active(self.an, c))
            .collect();
        let mut out = TokenStream::new();
        for c in &carried {
            let dc = names::carried_adjoint(l.id, &c.name);
            let start = if self.declared.contains(&c.after) {
                names::adjoint(self.f, c.after).into_token_stream()
            } else if self.an.resized.contains_key(&c.entry) {
                // The array grew or shrank: a zero of its final length.
                self.zero(c.after)
            } else {
                self.zero(c.init)
            };
            out.extend(quote!(let mut #dc = #start;));
            if let Some(rc) = self.carried_reached(l, c) {
                let start = match self.declared.contains(&c.after) {
                    true => self.flag(c.after),
                    false => quote!(false),
                };
                out.extend(quote!(let mut #rc = #start;));
            }
        }

        // Pending adjoints of slice elements read at the index plus a
        // constant: each element is written once, when its last
        // contribution is in.
        let mut fresh = TokenStream::new();
        let mut write = TokenStream::new();
        let mut flush = TokenStream::new();
        for s in stencils(self.f, self.an, l) {
            let w = |c: i64| names::window(l.id, self.f, s.slice, c);
            for c in s.min + 1..=s.max {
                let wc = w(c);
                let zero = self.scalar.zero();
                out.extend(quote!(let mut #wc = #zero;));
            }
            let wmin = w(s.min);
            let zero = self.scalar.zero();
            fresh.extend(quote!(let mut #wmin = #zero;));
            for (dst, c) in &s.reads {
                self.windows.insert(*dst, w(*c));
            }
            let adj = names::adjoint(self.f, s.slice);
            let (last, wmax) = (names::value(self.f, s.last), w(s.max));
            write.extend(
                self.scalar
                    .add_assign(Kind::Slice, quote!(#adj[#last]), quote!(#wmax)),
            );
            for c in (s.min + 1..=s.max).rev() {
                let (to, from) = (w(c), w(c - 1));
                write.extend(quote!(#to = #from;));
            }
            // After the last reverse iteration (index `start`), the window
            // holds elements `start + min ..= start + max - 1`.
            if let LoopHeader::Range { start, .. } = &l.header {
                let start = self.operand(start);
                for c in s.min + 1..=s.max {
                    let k = c - 1;
                    let at = match k.cmp(&0) {
                        std::cmp::Ordering::Equal => quote!(#start),
                        std::cmp::Ordering::Greater => {
                            let k = proc_macro2::Literal::i64_unsuffixed(k);
                            quote!(#start + #k)
                        }
                        std::cmp::Ordering::Less => {
                            let k = proc_macro2::Literal::i64_unsuffixed(-k);
                            quote!(#start - #k)
                        }
                    };
                    let wc = w(c);
                    flush.extend(self.scalar.add_assign(
                        Kind::Slice,
                        quote!(#adj[#at]),
                        quote!(#wc),
                    ));
                }
            }
        }

        // Elements read at an index fixed through the loop: their adjoints
        // add up in locals, each written once after the loop.
        for r in invariant_reads(self.f, self.an, l) {
            // Only into an adjoint that exists before the loop's reverse (an
            // array's may start at its last read, in the loop).
            let exists = match self.f.info(r.slice).kind {
                Kind::Array => self.declared.contains(&r.slice),
                _ => self.f.info(r.slice).param.is_some(),
            };
            if !exists {
                continue;
            }
            let w = names::invariant_window(l.id, self.f, r.slice, r.index);
            let zero = self.scalar.zero();
            out.extend(quote!(let mut #w = #zero;));
            for dst in &r.reads {
                self.windows.insert(*dst, w.clone());
            }
            let (adj, index) = (
                names::adjoint(self.f, r.slice),
                names::value(self.f, r.index),
            );
            flush.extend(
                self.scalar
                    .add_assign(Kind::Slice, quote!(#adj[#index]), quote!(#w)),
            );
        }

        let saves = self.saves(l);
        let stacked = self.stacked_values(l);
        let pop = (!stacked.is_empty() && !recompute_all).then(|| {
            let stack = names::stack(l.id);
            let pattern = self.tuple(&stacked);
            quote!(let #pattern = ::autograd::__private::pop(&mut #stack);)
        });
        // Kept `Vec`s, last pushed first, each in the buffer the iteration
        // before gave back.
        let kept_rows = match recompute_all {
            true => Vec::new(),
            false => self.kept_rows(l),
        };
        let rows = names::rows(l.id);
        let pop_rows = kept_rows.iter().rev().map(|v| {
            let v = names::value(self.f, *v);
            quote!(let #v = #rows.pop();)
        });
        let pop = quote!(#pop #(#pop_rows)*);
        // Counters stepped by a literal, from the index.
        let inductions = match &l.header {
            LoopHeader::Range {
                index: Some(index),
                start,
                ..
            } => {
                let (index, start) = (names::value(self.f, *index), self.operand(start));
                let lets = saves.inductions.iter().map(|i| {
                    let (entry, init, step) = (
                        names::value(self.f, i.entry),
                        names::value(self.f, i.init),
                        &i.step,
                    );
                    quote! {
                        let #entry = ::autograd::__private::induction(#init, #step, #index - #start);
                    }
                });
                quote!(#(#lets)*)
            }
            _ => TokenStream::new(),
        };
        // An array the body overwrites whole: a buffer of its length. The
        // iteration's exit value, when the reverse recomputes it, is dead
        // once the iteration's reverse is done: the next reverse iteration
        // takes it as its buffer, so only the first copies the initial
        // value. When the initial value is itself an enclosing loop's dead
        // entry (a copy of that loop's initial value, of the same length on
        // every iteration), the spare is declared before the enclosing loop
        // and copies its initial value: the buffer passes on from one outer
        // iteration to the next instead of two copies per outer iteration.
        let mut spares = TokenStream::new();
        let mut spare_back = TokenStream::new();
        // Entries rebuilt as a copy of the initial value, `(entry, init)`:
        // copied only if the iteration's code still reads them.
        let mut dead = Vec::new();
        let mut overwritten = TokenStream::new();
        for (entry_id, init_id) in &saves.overwritten {
            let (entry_id, init_id) = (*entry_id, *init_id);
            let entry = names::value(self.f, entry_id);
            let exit = l
                .carried
                .iter()
                .find(|c| c.entry == entry_id)
                .map(|c| (c.exit, &c.name))
                .filter(|(exit, _)| {
                    self.f.info(*exit).block == l.body.id && saves.recompute.contains(exit)
                });
            let Some((exit, name)) = exit else {
                dead.push((entry_id, init_id));
                continue;
            };
            let (spare, exit) = (names::spare(l.id, name), names::value(self.f, exit));
            let decl = quote!(let mut #spare = ::core::option::Option::None;);
            let source = match self.dead_entries.get(&init_id) {
                Some(outer_init) => {
                    self.hoisted_spares.extend(decl);
                    names::value(self.f, *outer_init)
                }
                None => {
                    spares.extend(decl);
                    names::value(self.f, init_id)
                }
            };
            spare_back.extend(quote!(#spare = ::core::option::Option::Some(#exit);));
            overwritten.extend(quote! {
                let #entry = ::autograd::__private::spare_or_copy(&mut #spare, &#source);
            });
        }
        // This loop's body sees its own dead entries, no enclosing loop's.
        let outer_dead = std::mem::replace(&mut self.dead_entries, dead.iter().copied().collect());
        let outer_hoisted = std::mem::take(&mut self.hoisted_spares);
        // The cached values, or their recomputation if the loop was too long
        // to cache them.
        let cache_pop = (!saves.cached.is_empty() && !recompute_all).then(|| {
            let cache = names::cache(l.id);
            let cached = self.tuple(&saves.cached);
            let miss = self.forward_block(&l.body, Mode::Plain, Some(&saves.cache_miss));
            quote! {
                let #cached = match #cache.pop() {
                    ::core::option::Option::Some(#cached) => #cached,
                    ::core::option::Option::None => {
                        #miss
                        #cached
                    }
                };
            }
        });
        let recompute = if recompute_all {
            let all = saves.recompute.union(&saves.cache_miss).copied().collect();
            self.forward_block(&l.body, Mode::Record, Some(&all))
        } else {
            self.forward_block(&l.body, Mode::Record, Some(&saves.recompute))
        };
        let incoming = carried
            .iter()
            .filter(|c| self.an.active(c.exit))
            .map(|c| {
                (
                    c.exit,
                    names::carried_adjoint(l.id, &c.name).into_token_stream(),
                    self.carried_reached(l, c).map(|r| r.into_token_stream()),
                )
            })
            .collect();
        let reverse = self.reverse_block(&l.body, incoming);
        let carry_back = carried.iter().map(|c| {
            let dc = names::carried_adjoint(l.id, &c.name);
            let rc = self.carried_reached(l, c);
            if self.declared.contains(&c.entry) {
                let adj = names::adjoint(self.f, c.entry);
                let flag = rc.map(|rc| {
                    let from = self.flag(c.entry);
                    quote!(#rc = #from;)
                });
                quote!(#dc = #adj; #flag)
            } else {
                // A zero of the entry's length, the previous iteration's
                // exit: the initial value's, unless the loop resizes it.
                let zero = match self.an.resized.contains_key(&c.entry) {
                    true => self.zero(c.entry),
                    false => self.zero(c.init),
                };
                let flag = rc.map(|rc| quote!(#rc = false;));
                quote!(#dc = #zero; #flag)
            }
        });
        let carry_back: Vec<_> = carry_back.collect();

        let header = match &l.header {
            LoopHeader::Range {
                index,
                start,
                end,
                inclusive,
                reversed,
            } => {
                let (start, end) = (self.operand(start), self.operand(end));
                let range = if *inclusive {
                    quote!(#start..=#end)
                } else {
                    quote!(#start..#end)
                };
                let iter = if *reversed {
                    range.clone()
                } else {
                    quote!(::core::iter::Iterator::rev(#range))
                };
                let index = match index {
                    Some(v) => names::value(self.f, *v).into_token_stream(),
                    None => quote!(_),
                };
                if !flush.is_empty() {
                    // Only a loop that ran read those elements.
                    flush = quote! {
                        if !(#range).is_empty() {
                            #flush
                        }
                    };
                }
                quote!(for #index in #iter)
            }
            LoopHeader::While { .. } => {
                let trips = names::trips(l.id);
                quote!(for _ in 0..#trips)
            }
        };
        self.dead_entries = outer_dead;
        let hoisted = std::mem::replace(&mut self.hoisted_spares, outer_hoisted);
        let body = quote! {
            #cache_pop
            #recompute
            #fresh
            #reverse
            #write
            #(#carry_back)*
        };
        for (entry, init) in dead {
            let (entry, init) = (names::value(self.f, entry), names::value(self.f, init));
            if mentions(&body, &entry) {
                overwritten.extend(quote!(let #entry = ::core::clone::Clone::clone(&#init);));
            }
        }
        // A row's buffer goes back for the next iteration's, unless the
        // iteration's code took the row by value.
        // A row an inner loop's recomputation carries (and writes in
        // place) is in that loop's result, which the reverse does not
        // read: that buffer goes back.
        for v in &kept_rows {
            let ident = names::value(self.f, *v);
            if only_borrowed(&body, &ident) {
                spare_back.extend(quote!(#rows.give_back(#ident);));
                continue;
            }
            let same_length = |a: &ValueId| self.an.lengths.get(a) == self.an.lengths.get(v);
            let result = l.body.stmts.iter().find_map(|stmt| match stmt {
                Stmt::Loop(inner) => inner
                    .carried
                    .iter()
                    .find(|c| c.init == *v && same_length(&c.after))
                    .map(|c| names::value(self.f, c.after)),
                _ => None,
            });
            if let Some(after) = result
                && bound_unread(&body, &after)
            {
                spare_back.extend(quote!(#rows.give_back(#after);));
            }
        }
        let iteration = quote! {
            #pop
            #inductions
            #overwritten
            #body
            #spare_back
        };
        out.extend(spares);
        out.extend(hoisted);
        out.extend(if self.checkpointed(l) {
            self.reverse_checkpointed(l, iteration)
        } else {
            quote!(#header { #iteration })
        });
        out.extend(flush);
        for c in &carried {
            if self.an.active(c.init) {
                let dc = names::carried_adjoint(l.id, &c.name);
                let from = self.carried_reached(l, c).map(|r| r.into_token_stream());
                out.extend(self.contribute_from(c.init, dc.into_token_stream(), from.as_ref()));
            }
        }
        out
    }

    /// Whether `v`'s adjoint was reached: its flag, or `true` for an
    /// adjoint that always is.
    fn flag(&self, v: ValueId) -> TokenStream {
        match self.reached(v) {
            Some(r) => r.into_token_stream(),
            None => quote!(true),
        }
    }

    /// The flag of a carried adjoint that may hold nothing that arrived,
    /// where something reads it: an exit or initial value it goes into is
    /// gated.
    fn carried_reached(&self, l: &Loop, c: &Carried) -> Option<proc_macro2::Ident> {
        let read = |v: ValueId| self.an.active(v) && self.reached(v).is_some();
        (self.gate && carry_gated(self.an, c) && (read(c.exit) || read(c.init)))
            .then(|| names::carried_reached(l.id, &c.name))
    }
}

/// The pullback of `m.map(closure)` in a form.
impl Gen<'_> {
    /// The reverse of `m.map(f)` whose closure reads floats that carry a
    /// derivative (`inputs`): per element, the closure's pullback gives
    /// the element's adjoint and each input's, which are summed over the
    /// elements and added to the inputs' adjoints after.
    fn map_with_inputs(
        &mut self,
        dst: ValueId,
        recv: ValueId,
        closure: &Function,
        captures: &[(syn::Ident, ValueId)],
        inputs: &[(syn::Ident, ValueId)],
        span: proc_macro2::Span,
    ) -> TokenStream {
        let helper = super::map_helper(closure, &self.an.closures[&dst], span);
        let m = self.operand_ref(&Operand::Value(recv));
        let rebind = self.rebind(captures);
        let h = names::map_helper(dst);
        let (x, g_x, r) = (
            names::element(),
            names::element_adjoint(),
            names::map_partials(),
        );
        let g = names::adjoint(self.f, dst);
        // `f64`, or a second-order twin's scalar.
        let elem = self.f.info(dst).float.clone();
        let elem = elem.unwrap_or_else(|| syn::Ident::new("f64", span));
        let values: Vec<TokenStream> = inputs.iter().map(|(_, v)| self.owned(*v)).collect();
        let active: Vec<(usize, ValueId)> = (0..inputs.len())
            .map(|k| (k, inputs[k].1))
            .filter(|(_, v)| self.an.active(*v))
            .collect();
        let sums: Vec<_> = active
            .iter()
            .map(|(k, _)| names::map_input_adjoint(dst, *k))
            .collect();
        let slots = active.iter().map(|(k, _)| syn::Index::from(k + 1));
        // `-0.0`, where Rust's sums start: adding to it changes nothing.
        let zero = quote!(<#elem as ::autograd::__private::Float>::neg_zero());
        let func = map_closure(Form::New, span);
        let mut out = quote_spanned! {span=>
            #(let #sums = ::core::cell::Cell::new(#zero);)*
        };
        let mapped = quote_spanned!(span=> {
            #rebind
            let #h = #helper;
            #func(&#g, #m, |#x: #elem, #g_x: #elem| {
                let #r = #h(#x #(, #values)*).1(#g_x);
                #(#sums.set(#sums.get() + #r.#slots);)*
                #r.0
            })
        });
        if self.an.active(recv) {
            out.extend(self.contribute(recv, mapped));
        } else {
            out.extend(quote_spanned!(span=> let _ = #mapped;));
        }
        for ((_, v), sum) in active.iter().zip(&sums) {
            out.extend(self.contribute(*v, quote!(#sum.get())));
        }
        out
    }
}

fn map_closure(form: Form, span: proc_macro2::Span) -> TokenStream {
    let f = crate::table::map_closure(form);
    paths::path(f.as_ref(), || format!("{form:?} of `map`"), span)
}

/// Whether `tokens` name `ident` anywhere, groups included.
fn mentions(tokens: &TokenStream, ident: &proc_macro2::Ident) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        proc_macro2::TokenTree::Ident(i) => i == *ident,
        proc_macro2::TokenTree::Group(g) => mentions(&g.stream(), ident),
        _ => false,
    })
}

/// Whether `tokens` bind `ident` by a `let` of their own (not in a nested
/// block) and name it nowhere else.
fn bound_unread(tokens: &TokenStream, ident: &proc_macro2::Ident) -> bool {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    let bound = tokens.windows(2).any(|w| {
        matches!((&w[0], &w[1]), (TokenTree::Ident(l), TokenTree::Ident(i)) if l == "let" && i == ident)
    });
    fn count(tokens: &TokenStream, ident: &proc_macro2::Ident) -> usize {
        tokens
            .clone()
            .into_iter()
            .map(|t| match t {
                TokenTree::Ident(i) => usize::from(i == *ident),
                TokenTree::Group(g) => count(&g.stream(), ident),
                _ => 0,
            })
            .sum()
    }
    bound && count(&tokens.iter().cloned().collect(), ident) == 1
}

/// Whether every use of `ident` in `tokens` borrows it: `&ident`, or
/// `ident[..]`.
fn only_borrowed(tokens: &TokenStream, ident: &proc_macro2::Ident) -> bool {
    use proc_macro2::TokenTree;
    let tokens: Vec<TokenTree> = tokens.clone().into_iter().collect();
    tokens.iter().enumerate().all(|(i, t)| match t {
        TokenTree::Ident(id) if id == ident => {
            let after_amp =
                i > 0 && matches!(&tokens[i - 1], TokenTree::Punct(p) if p.as_char() == '&');
            let indexed = matches!(
                tokens.get(i + 1),
                Some(TokenTree::Group(g)) if g.delimiter() == proc_macro2::Delimiter::Bracket
            );
            after_amp || indexed
        }
        TokenTree::Group(g) => only_borrowed(&g.stream(), ident),
        _ => true,
    })
}

/// Visits every `let` of a block and of the blocks nested in it.
struct Lets<F>(F);

impl<'a, F: FnMut(ValueId, &'a Op)> Visitor<'a> for Lets<F> {
    fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
        if let Stmt::Let { dst, op, .. } = stmt {
            (self.0)(*dst, op);
        }
        walk_stmt(self, stmt);
    }
}
