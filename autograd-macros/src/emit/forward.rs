//! The primal sweep: the user's computation, one `let` per operation.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::visit_mut::VisitMut;

use super::{Gen, names, paths};
use crate::analysis::{Analysis, deferred_call, has_work, kept_call, rerun_loop};
use crate::ir::*;
use crate::table::{Func, Pass, Rule};

/// How loops behave while the primal sweep runs.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Mode {
    /// Loops with reverse work save what their reverse reads: the top level
    /// of the forward sweep, and any block recomputed just before its own
    /// reverse runs.
    Record,
    /// Plain primal code: inside a loop body or a branch, which the reverse
    /// sweep recomputes (and records) itself when it gets there.
    Plain,
    /// The body of a loop that records: plain code, but its taped loops
    /// (see `analysis::Analysis::taped`) record, for the whole nest.
    Taped,
}

/// Renames the variables of a primal-only expression.
struct Rename<'a> {
    gen_: &'a Gen<'a>,
    bindings: &'a [(String, ValueId)],
}

impl VisitMut for Rename<'_> {
    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let syn::Expr::Macro(m) = e {
            crate::ir::visit_macro_args(&mut m.mac, &mut |a| self.visit_expr_mut(a));
            return;
        }
        if let syn::Expr::Path(p) = e {
            let key = p.to_token_stream().to_string();
            if let Some((_, v)) = self.bindings.iter().find(|(k, _)| *k == key) {
                let ident = names::value(self.gen_.f, *v);
                *e = syn::Expr::Verbatim(ident.into_token_stream());
                return;
            }
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

impl Gen<'_> {
    pub fn operand(&self, o: &Operand) -> TokenStream {
        match o {
            Operand::Value(v) => names::value(self.f, *v).into_token_stream(),
            Operand::Const(t) => t.clone(),
        }
    }

    /// A reference to the operand, for rules and operators on matrices.
    pub fn operand_ref(&self, o: &Operand) -> TokenStream {
        match o {
            Operand::Value(v) if self.f.info(*v).by_ref => self.operand(o),
            Operand::Value(_) => {
                let o = self.operand(o);
                quote!(&#o)
            }
            Operand::Const(t) => quote!(&(#t)),
        }
    }

    /// An operand of an operator: matrices by reference, so the value
    /// stays available (nalgebra implements the operators on references),
    /// except a matrix nothing reads afterwards, whose buffer nalgebra then
    /// reuses for the result.
    fn operand_op(&self, o: &Operand) -> TokenStream {
        match o.value() {
            Some(v) if self.movable.contains(&v) => self.operand(o),
            Some(v) if !self.f.info(v).kind.is_copy() => self.operand_ref(o),
            _ => self.operand(o),
        }
    }

    /// An operand of a binary operator. Next to a matrix or another value
    /// of a type the macro cannot see, an operand of a type the macro
    /// cannot see may be a float, which nalgebra takes by value only:
    /// `operator_operand` picks by type.
    pub(super) fn binary_operand(&self, o: &Operand, other: &Operand) -> TokenStream {
        let kind = |o: &Operand| o.value().map(|v| self.f.info(v).kind);
        if kind(o) == Some(Kind::Unknown)
            && matches!(kind(other), Some(Kind::Matrix | Kind::Unknown))
        {
            let o = self.operand(o);
            return quote!(::autograd::__private::operator_operand(&#o));
        }
        self.operand_op(o)
    }

    /// The value itself where it is moved, cloned if it is not `Copy`.
    pub fn owned(&self, v: ValueId) -> TokenStream {
        let ident = names::value(self.f, v);
        let info = self.f.info(v);
        match info.kind {
            _ if info.kind.is_copy() => ident.into_token_stream(),
            // An argument's reference to a matrix or an array: the matrix
            // or array is cloned.
            Kind::Matrix | Kind::Array if info.by_ref => {
                quote!(::core::clone::Clone::clone(#ident))
            }
            // A slice argument is a reference: copied.
            Kind::Slice => ident.into_token_stream(),
            // In a pooled buffer for a `Vec`, which the sweep gives back.
            Kind::Array => quote!(::autograd::__private::copy(&#ident)),
            _ => quote!(::core::clone::Clone::clone(&#ident)),
        }
    }

    /// Moves a value out of `block`'s scope: a clone if it was defined
    /// outside the block (and so may still be read there).
    pub(super) fn moved_out_of(&self, v: ValueId, block: BlockId) -> TokenStream {
        if self.f.info(v).block == block {
            names::value(self.f, v).into_token_stream()
        } else {
            self.owned(v)
        }
    }

    fn receiver(&self, o: &Operand) -> TokenStream {
        match o {
            Operand::Value(_) => self.operand(o),
            Operand::Const(t) => quote!((#t)),
        }
    }

    /// The primal expression of an operation (not for calls recorded with
    /// their pullback).
    fn kind_of(&self, o: &Operand) -> Option<Kind> {
        o.value().map(|v| self.f.info(v).kind)
    }

    pub(super) fn primal_expr(&self, op: &Op) -> TokenStream {
        match op {
            Op::StopGradient { arg, func } => {
                let value = match arg.value() {
                    Some(v) => self.owned(v),
                    None => self.operand(arg),
                };
                quote!(::autograd::__private::stop_gradient_as_called(#func, #value))
            }
            Op::Copy(a) => match a.value() {
                Some(v) => self.owned(v),
                None => self.operand(a),
            },
            Op::Rule { rule, args, syntax } => prelude_scope(
                rule,
                match (syntax, args.as_slice()) {
                    (Syntax::Operator(tok), [a]) => {
                        let a = self.operand_op(a);
                        quote!(#tok #a)
                    }
                    (Syntax::Operator(tok), [a, b])
                        if rule.operator == Some(crate::table::Operator::Mul)
                            && self.scalar.dual_matrices()
                            && matches!(self.kind_of(a), None | Some(Kind::Float))
                            && self.kind_of(b) == Some(Kind::Matrix) =>
                    {
                        // Dual numbers scale only dynamically sized matrices
                        // from the left; from the right nalgebra scales any
                        // (the same products: dual multiplication commutes).
                        let (a, b) = (self.binary_operand(a, b), self.binary_operand(b, a));
                        quote!(#b #tok #a)
                    }
                    (Syntax::Operator(tok), [a, b]) => {
                        let (a, b) = (self.binary_operand(a, b), self.binary_operand(b, a));
                        quote!(#a #tok #b)
                    }
                    (Syntax::Method(m), [recv])
                        if rule.dual_primal && self.scalar.dual_matrices() =>
                    {
                        let func = paths::runtime(rule, Func::DualPrimal, m.span());
                        let recv = self.operand_ref(recv);
                        quote!(#func(#recv))
                    }
                    (Syntax::Method(m), [recv, rest @ ..]) => {
                        let consumes = rule.params.first().is_some_and(|p| p.pass == Pass::Owned);
                        let recv = match recv.value() {
                            Some(v) if consumes && !self.f.info(v).kind.is_copy() => self.owned(v),
                            _ => self.receiver(recv),
                        };
                        let rest = rest.iter().zip(rule.params.iter().skip(1)).map(|(a, p)| {
                            if p.pass == Pass::Ref {
                                self.operand_ref(a)
                            } else {
                                self.operand(a)
                            }
                        });
                        if rule.generic_by_function && self.scalar.param().is_some() {
                            let func = paths::runtime(rule, Func::Primal, m.span());
                            quote!(#func(#recv, #(#rest),*))
                        } else if self.scalar.methods_by_path() {
                            quote!(::autograd::__private::Float::#m(#recv, #(#rest),*))
                        } else if rule.view {
                            quote!(#recv.#m(#(#rest),*).into_owned())
                        } else {
                            quote!(#recv.#m(#(#rest),*))
                        }
                    }
                    (Syntax::Map(f), [Operand::Value(v)]) if self.movable.contains(v) => {
                        let m = names::value(self.f, *v);
                        quote!(::autograd::__private::map_in_place(#m, #f))
                    }
                    (Syntax::Map(f), [recv]) => {
                        let recv = self.receiver(recv);
                        quote!(#recv.map(#f))
                    }
                    (Syntax::Path(p), args) => {
                        let args = args.iter().map(|a| self.operand(a));
                        match p.segments.last() {
                            // `erf(x)`: the runtime's primal, which rustc
                            // checks is the function the path names.
                            Some(last) if rule.function.is_some() => {
                                let ours = paths::runtime(rule, Func::Primal, last.ident.span());
                                quote!(::autograd::__private::special_function(#ours, #p)(#(#args),*))
                            }
                            Some(last)
                                if rule.generic_by_function && self.scalar.param().is_some() =>
                            {
                                let func = paths::runtime(rule, Func::Primal, last.ident.span());
                                quote!(#func(#(#args),*))
                            }
                            Some(last) if self.scalar.methods_by_path() => {
                                let m = &last.ident;
                                quote!(::autograd::__private::Float::#m(#(#args),*))
                            }
                            _ => quote!(#p(#(#args),*)),
                        }
                    }
                    _ => quote!(::core::unreachable!()),
                },
            ),
            Op::Index { slice, index } => {
                let (s, i) = (names::value(self.f, *slice), self.operand(index));
                quote!(#s[#i])
            }
            Op::Len { slice } => {
                let s = names::value(self.f, *slice);
                quote!(#s.len())
            }
            Op::Pack { .. } | Op::Fill { .. } | Op::Store { .. } | Op::Push { .. } => {
                self.collection_primal(op)
            }
            Op::Map {
                recv,
                forward,
                captures,
                inputs,
                ..
            } => {
                let m = names::value(self.f, *recv);
                let read: Vec<_> = captures.iter().chain(inputs).cloned().collect();
                match self.rebind(&read) {
                    Some(rebind) => quote!({ #rebind #m.map(#forward) }),
                    None => quote!(#m.map(#forward)),
                }
            }
            Op::Call { func, args } if self.scalar.is_twin() && self.plain_callee(func) => {
                // A function without `#[differentiable]` in a second-order
                // twin: it takes the `f64`s it was written for, and no
                // derivative goes through it (the analysis made sure).
                let values = self.call_args(args);
                let scalar = self.scalar.param().map(ToString::to_string);
                let values = values.into_iter().zip(args).map(|(value, a)| {
                    // A float constant in the twin is one of its scalar.
                    let typed_constant = matches!(&a.operand, Operand::Const(t)
                        if scalar.as_ref().is_some_and(|s| t.to_string().contains(s.as_str())));
                    let kind = match typed_constant {
                        true => Some(Kind::Float),
                        false => a.operand.value().map(|v| self.f.info(v).kind),
                    };
                    let by_ref = a.by_ref
                        || a.range.is_some()
                        || a.operand.value().is_some_and(|v| self.f.info(v).by_ref);
                    match (kind, by_ref) {
                        (Some(Kind::Float), _) => quote!(::autograd::__private::real_f64(#value)),
                        (Some(Kind::Slice | Kind::Array), true) => {
                            quote!(&::autograd::__private::real_f64s(#value))
                        }
                        (Some(Kind::Array), false) => {
                            quote!(::autograd::__private::real_f64s(&#value))
                        }
                        _ => value,
                    }
                });
                quote!(#func(#(#values),*))
            }
            Op::Call { func, args } => {
                let args = self.call_args(args);
                quote!(#func(#(#args),*))
            }
            // A float cast to an integer in code of a type parameter (a
            // second-order twin's dual number has no `as`).
            Op::Cast { arg, ty, .. }
                if self.scalar.param().is_some()
                    && self.kind_of(arg) == Some(Kind::Float)
                    && integer_type(ty) =>
            {
                let a = self.operand(arg);
                quote!(::autograd::__private::rules::float_as::<#ty, _>(#a))
            }
            Op::Cast { arg, ty, .. } => {
                let a = self.receiver(arg);
                quote!(#a as #ty)
            }
            Op::Primal { expr, bindings } => {
                let mut expr = expr.clone();
                Rename {
                    gen_: self,
                    bindings,
                }
                .visit_expr_mut(&mut expr);
                expr.into_token_stream()
            }
            Op::Literal { lit, like } => {
                let like = names::value(self.f, *like);
                quote!(::autograd::__private::like(#like, #lit))
            }
            Op::Absent | Op::Missing => quote!(::core::unreachable!()),
        }
    }

    /// Arguments of a call as written; a matrix passed by value is cloned,
    /// since the sweeps may still read it.
    /// Whether `func` is a function without `#[differentiable]` the body
    /// calls (see `crate::unannotated`).
    fn plain_callee(&self, func: &syn::Path) -> bool {
        let func = func.to_token_stream().to_string();
        self.f
            .unannotated_calls
            .iter()
            .any(|c| c.path.to_token_stream().to_string() == func)
    }

    pub fn call_args(&self, args: &[CallArg]) -> Vec<TokenStream> {
        args.iter()
            .map(|a| match a.operand.value() {
                _ if a.range.is_some() => self.sub_slice(a, false),
                _ if a.by_ref => {
                    let o = self.operand(&a.operand);
                    quote!(&#o)
                }
                // An argument passed by reference is a `Copy` reference.
                Some(v) if self.f.info(v).by_ref => self.operand(&a.operand),
                // A value of a type the macro cannot see (a row `&Vec<f64>`
                // of constant data) is cloned into a `let` of its own type,
                // so the call's parameter (`&[f64]`) coerces it as it does
                // in the primal, rather than typing the clone.
                Some(v) if self.f.info(v).kind == Kind::Unknown => {
                    let owned = self.owned(v);
                    quote!({ let argument = #owned; argument })
                }
                Some(v) => self.owned(v),
                None => self.operand(&a.operand),
            })
            .collect()
    }

    /// `&x[start..end]` of a call argument (`&mut` of its adjoint): the
    /// slicing the primal does, with its bounds check.
    pub fn sub_slice(&self, a: &CallArg, adjoint: bool) -> TokenStream {
        let Some(range) = &a.range else {
            return self.operand(&a.operand);
        };
        let (start, end) = (self.operand(&range.start), self.operand(&range.end));
        let v = a.operand.value();
        let matrix = v.is_some_and(|v| self.f.info(v).kind == Kind::Matrix);
        match (v, adjoint, matrix) {
            (Some(v), true, true) => {
                let adj = names::adjoint(self.f, v);
                quote_spanned!(a.span=> &mut #adj.as_mut_slice()[#start..#end])
            }
            (Some(v), true, false) => {
                let adj = names::adjoint(self.f, v);
                quote_spanned!(a.span=> &mut #adj[#start..#end])
            }
            (_, _, true) => {
                let o = self.operand(&a.operand);
                quote_spanned!(a.span=> &#o.as_slice()[#start..#end])
            }
            _ => {
                let o = self.operand(&a.operand);
                quote_spanned!(a.span=> &#o[#start..#end])
            }
        }
    }

    /// The primal sweep of a block. With a filter, only the values in it
    /// (and what recording needs) are computed: a recomputation.
    pub fn forward_block(
        &self,
        b: &Block,
        mode: Mode,
        filter: Option<&HashSet<ValueId>>,
    ) -> TokenStream {
        let mut out = TokenStream::new();
        for stmt in &b.stmts {
            match stmt {
                Stmt::Let { dst, op, span, ty } => {
                    if filter.is_some_and(|f| !f.contains(dst)) || matches!(op, Op::Absent) {
                        continue;
                    }
                    // An assertion runs once, in the forward sweep.
                    if op.is_effect() {
                        if !self.in_pullback {
                            let expr = self.primal_expr(op);
                            out.extend(quote_spanned!(*span=> #expr;));
                        }
                        continue;
                    }
                    let v = names::value(self.f, *dst);
                    if let Op::Call { func, args } = op
                        && self.recorded.contains(dst)
                    {
                        let rec = names::recorded_call(*dst);
                        out.extend(if self.in_pullback {
                            quote_spanned!(*span=> let #v = ::autograd::__private::recorded_value(&#rec);)
                        } else {
                            let pb = names::pullback(*dst);
                            let vjp = vjp_path(func);
                            let args = self.call_args(args);
                            quote_spanned!(*span=> let (#v, #pb) = #vjp(#(#args),*);)
                        });
                        continue;
                    }
                    if let Op::Call { func, args } = op
                        && mode == Mode::Record
                        && self.an.active(*dst)
                        && !deferred_call(self.f, args)
                    {
                        let pb = names::pullback(*dst);
                        let vjp = vjp_path(func);
                        let args = self.call_args(args);
                        out.extend(quote_spanned!(*span=> let (#v, #pb) = #vjp(#(#args),*);));
                        out.extend(same_callee(
                            func,
                            &v.to_token_stream(),
                            &pb.to_token_stream(),
                            *span,
                        ));
                        continue;
                    }
                    if let Op::Call { func, args } = op
                        && mode == Mode::Record
                        && self.an.active(*dst)
                        && kept_call(self.f, *dst, args)
                    {
                        // Through the VJP, its pullback kept, where that
                        // pullback is `Clone`; else the plain call.
                        let pb = names::pullback(*dst);
                        let vjp = vjp_path(func);
                        let call_args = self.call_args(args);
                        let plain = self.primal_expr(op);
                        let (value, make) = (names::callee_value(), names::keep_vjp());
                        let check = same_callee(
                            func,
                            &value.to_token_stream(),
                            &pb.to_token_stream(),
                            *span,
                        );
                        let private = quote!(::autograd::__private);
                        out.extend(quote_spanned! {*span=>
                            let (#v, #pb) = {
                                #[allow(unused_imports)]
                                use #private::{KeepCloned as _, KeepRerun as _};
                                let #make = || {
                                    let (#value, #pb) = #vjp(#(#call_args),*);
                                    #check
                                    (#value, #pb)
                                };
                                #private::KeepPullback::of(&#make).make(#make, || #plain)
                            };
                        });
                        continue;
                    }
                    let expr = self.primal_expr(op);
                    let ty = ty.as_ref().map(|t| quote!(: #t));
                    out.extend(quote_spanned!(*span=> let #v #ty = #expr;));
                }
                Stmt::If(i) => {
                    let wanted = match filter {
                        None => {
                            !i.phis.is_empty()
                                || !self.records_of(i).is_empty()
                                || !self.kept_out_of(i).is_empty()
                                || (!self.in_pullback
                                    && (i.then_blk.has_effects() || i.else_blk.has_effects()))
                        }
                        Some(f) => i.phis.iter().any(|p| f.contains(&p.dst)),
                    };
                    if wanted {
                        out.extend(self.forward_if(i));
                    }
                }
                Stmt::Loop(l) => {
                    let work = has_work(self.an, stmt);
                    let wanted = match filter {
                        None => true,
                        // Plain code for its values only (a cache miss).
                        Some(f) if mode == Mode::Plain => {
                            l.carried.iter().any(|c| f.contains(&c.after))
                        }
                        Some(f) => rerun_loop(self.an, l, f),
                    };
                    // A taped loop records in its enclosing loop's recording
                    // run (`Mode::Taped`), never when an enclosing reverse
                    // recomputes it for its results.
                    let taped = self.an.taped.contains(&l.id);
                    let record = work
                        && match mode {
                            Mode::Record => !taped,
                            Mode::Taped => taped,
                            Mode::Plain => false,
                        };
                    if wanted {
                        out.extend(self.forward_loop(l, record));
                    }
                }
            }
        }
        out
    }

    fn forward_if(&self, i: &If) -> TokenStream {
        if let Some(predicate) = &i.cfg {
            return self.forward_cfg(i, predicate);
        }
        let cond = self.operand(&i.cond);
        let then_code = self.forward_block(&i.then_blk, Mode::Plain, None);
        let else_code = self.forward_block(&i.else_blk, Mode::Plain, None);
        let mut dsts: Vec<_> = i.phis.iter().map(|p| names::value(self.f, p.dst)).collect();
        let mut thens: Vec<_> = i
            .phis
            .iter()
            .map(|p| self.moved_out_of(p.then_src, i.then_blk.id))
            .collect();
        let mut elses: Vec<_> = i
            .phis
            .iter()
            .map(|p| self.moved_out_of(p.else_src, i.else_blk.id))
            .collect();
        // Each recorded call's value and pullback, if its arm ran.
        for call in self.records_of(i) {
            let rec = names::recorded_call(call);
            let in_arm = |blk: &Block| {
                if self.f.info(call).block == blk.id {
                    let (v, pb) = (self.owned(call), names::pullback(call));
                    let ty = &self.recorded_pullback_ty;
                    quote! {
                        ::core::option::Option::Some((#v, ::autograd::__private::Box::new(#pb) as #ty))
                    }
                } else if self.records_in(blk).contains(&call) {
                    rec.to_token_stream()
                } else {
                    quote!(::core::option::Option::None)
                }
            };
            thens.push(in_arm(&i.then_blk));
            elses.push(in_arm(&i.else_blk));
            dsts.push(rec);
        }
        // Each element a loop keeps, read in an arm: a zero where the
        // other arm ran (the reverse of that arm does not read it).
        for kept in self.kept_out_of(i) {
            let in_arm = |blk: &Block| {
                if self.f.info(kept).block == blk.id || self.kept_in(blk).contains(&kept) {
                    names::value(self.f, kept).into_token_stream()
                } else {
                    self.scalar.zero()
                }
            };
            thens.push(in_arm(&i.then_blk));
            elses.push(in_arm(&i.else_blk));
            dsts.push(names::value(self.f, kept));
        }
        let (pat, then_val, else_val) = if dsts.len() == 1 {
            (quote!(#(#dsts)*), quote!(#(#thens)*), quote!(#(#elses)*))
        } else {
            (
                quote!((#(#dsts),*)),
                quote!((#(#thens),*)),
                quote!((#(#elses),*)),
            )
        };
        quote! {
            let #pat = if #cond {
                #then_code
                #then_val
            } else {
                #else_code
                #else_val
            };
        }
    }

    /// A branch decided at compile time: each arm under its own `#[cfg]`,
    /// binding the φ-nodes its configuration has.
    fn forward_cfg(&self, i: &If, predicate: &TokenStream) -> TokenStream {
        let arm = |blk: &Block, src: fn(&Phi) -> ValueId, holds: TokenStream| {
            let code = self.forward_block(blk, Mode::Plain, None);
            let (present, passed) = super::cfg_arm_sources(self.f, blk, &i.phis, src);
            let dsts: Vec<_> = present
                .iter()
                .map(|p| names::value(self.f, p.dst))
                .collect();
            let vals: Vec<_> = present
                .iter()
                .map(|p| self.moved_out_of(src(p), blk.id))
                .collect();
            let passed = passed.iter().map(|(p, exists)| {
                let (dst, val) = (names::value(self.f, p.dst), self.owned(src(p)));
                quote! {
                    #[cfg(all(#holds, #exists))]
                    let #dst = #val;
                }
            });
            quote! {
                #[cfg(#holds)]
                let (#(#dsts,)*) = { #code (#(#vals,)*) };
                #(#passed)*
            }
        };
        let then_code = arm(&i.then_blk, |p| p.then_src, predicate.clone());
        let else_code = arm(&i.else_blk, |p| p.else_src, quote!(not(#predicate)));
        quote! {
            #then_code
            #else_code
        }
    }

    fn forward_loop(&self, l: &Loop, record: bool) -> TokenStream {
        if record && self.checkpointed(l) {
            return self.forward_checkpointed(l);
        }
        if record
            && !self.in_pullback
            && let Some(fusion) = self.fused(l)
        {
            return self.forward_fused(l, fusion);
        }
        self.loop_code(l, record, TokenStream::new())
    }

    /// A loop's forward sweep, recording what its reverse reads if
    /// `record`, with `tail` run at the end of each iteration's body.
    pub(super) fn loop_code(&self, l: &Loop, record: bool, tail: TokenStream) -> TokenStream {
        let (stack, cache, rows) = (names::stack(l.id), names::cache(l.id), names::rows(l.id));
        let saves = self.saves(l);
        let record_stack = record && !self.stacked_values(l).is_empty();
        let record_rows = record && !self.kept_rows(l).is_empty();
        let record_cache = record && !saves.cached.is_empty();
        let carried: Vec<_> = l
            .carried
            .iter()
            .map(|c| names::carried(l.id, &c.name))
            .collect();
        let inits = l.carried.iter().map(|c| self.array_to_write(c.init));
        let entry_vals: Vec<_> = l
            .carried
            .iter()
            .map(|c| names::value(self.f, c.entry))
            .collect();
        let exits = l
            .carried
            .iter()
            .map(|c| self.moved_out_of(c.exit, l.body.id));
        let afters = l.carried.iter().map(|c| names::value(self.f, c.after));
        let body_mode = match record {
            true => Mode::Taped,
            false => Mode::Plain,
        };
        let body = self.forward_block(&l.body, body_mode, None);

        let (push, push_end, cache_push) = if record {
            self.loop_records(l)
        } else {
            Default::default()
        };
        let carry_in = quote! { #(let #entry_vals = #carried;)* };
        // A `while` that stops hands the entry values back to the carried
        // variables, which the code after the loop reads.
        let carry_back = quote! { #(#carried = #entry_vals;)* };
        let carry_out = quote! { #(#carried = #exits;)* };
        let mut out = quote! { #(let mut #carried = #inits;)* };

        match &l.header {
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
                // The trip count is known: one pooled buffer of that size.
                let capacity = quote!(::core::iter::Iterator::size_hint(&(#range)).0);
                let top = self.top_loops.contains(&l.id);
                if record_stack {
                    out.extend(if top {
                        quote!(let mut #stack = ::autograd::__private::Stack::with_capacity(#capacity);)
                    } else {
                        quote!(#stack.reserve(#capacity);)
                    });
                }
                if record_rows {
                    if top {
                        out.extend(quote!(let mut #rows = ::autograd::__private::Rows::new();));
                    }
                    out.extend(match self.entry_rows(l) {
                        Some(lens) => {
                            let n = proc_macro2::Literal::usize_unsuffixed(lens.len());
                            let lens = lens.iter().map(|v| names::value(self.f, *v));
                            quote!(#rows.reserve_iterations(#capacity, #n, #(#lens)+*);)
                        }
                        None => quote!(#rows.reserve(#capacity);),
                    });
                }
                if record_cache {
                    out.extend(if top {
                        quote!(let mut #cache = ::autograd::__private::Cache::for_trips(#capacity);)
                    } else {
                        quote!(#cache.start(#capacity);)
                    });
                }
                let iter = if *reversed {
                    quote!(::core::iter::Iterator::rev(#range))
                } else {
                    range
                };
                let index = match index {
                    Some(v) => names::value(self.f, *v).into_token_stream(),
                    None => quote!(_),
                };
                out.extend(quote! {
                    for #index in #iter {
                        #carry_in
                        #push
                        #body
                        #tail
                        #push_end
                        #cache_push
                        #carry_out
                    }
                });
            }
            LoopHeader::While { cond_blk, cond } => {
                let trips = names::trips(l.id);
                let cond_code = self.forward_block(cond_blk, Mode::Plain, None);
                let cond = self.operand(cond);
                if record_stack && self.top_loops.contains(&l.id) {
                    out.extend(quote!(let mut #stack = ::autograd::__private::Stack::new();));
                }
                if record_rows && self.top_loops.contains(&l.id) {
                    out.extend(quote!(let mut #rows = ::autograd::__private::Rows::new();));
                }
                let (count_init, count) = if record {
                    (quote!(let mut #trips: usize = 0;), quote!(#trips += 1;))
                } else {
                    (TokenStream::new(), TokenStream::new())
                };
                out.extend(quote! {
                    #count_init
                    loop {
                        #carry_in
                        #cond_code
                        if !(#cond) {
                            #carry_back
                            break;
                        }
                        #push
                        #body
                        #tail
                        #push_end
                        #carry_out
                        #count
                    }
                });
            }
        }
        out.extend(quote! { #(let #afters = #carried;)* });
        out
    }

    /// What an iteration that records pushes: its entry values as it starts,
    /// or with kept values of the body everything once they exist
    /// (`push_end`), and its cached results.
    pub(super) fn loop_records(
        &self,
        l: &Loop,
    ) -> (
        Option<TokenStream>,
        Option<TokenStream>,
        Option<TokenStream>,
    ) {
        let (stack, cache, rows) = (names::stack(l.id), names::cache(l.id), names::rows(l.id));
        let saves = self.saves(l);
        let stacked = self.stacked_values(l);
        let push = (!stacked.is_empty()).then(|| {
            let saved: Vec<_> = stacked.iter().map(|e| self.owned(*e)).collect();
            let saved = if saved.len() == 1 {
                quote!(#(#saved)*)
            } else {
                quote!((#(#saved),*))
            };
            quote!(#stack.push(#saved);)
        });
        // Entry rows as the iteration starts (before anything takes the
        // entry value), the rows of kept values at its end, with the stack.
        let (entry_rows, kept_rows): (Vec<ValueId>, Vec<ValueId>) = self
            .kept_rows(l)
            .into_iter()
            .partition(|v| saves.entries.contains(v));
        let rows_of = |vs: &[ValueId]| {
            let vs = vs.iter().map(|v| names::value(self.f, *v));
            quote!(#(#rows.push(&#vs);)*)
        };
        let (entry_rows, kept_rows) = (rows_of(&entry_rows), rows_of(&kept_rows));
        let (push, push_end) = if saves.kept.is_empty() {
            (Some(quote!(#push #entry_rows)), None)
        } else {
            (Some(entry_rows), Some(quote!(#push #kept_rows)))
        };
        let some = |t: Option<TokenStream>| t.filter(|t| !t.is_empty());
        let (push, push_end) = (some(push), some(push_end));
        let cache_push = (!saves.cached.is_empty()).then(|| {
            let cached = self.tuple(&saves.cached);
            quote!(#cache.push(#cached);)
        });
        (push, push_end, cache_push)
    }

    /// Binds the variables a `map` closure reads under the names it reads
    /// them by (an argument already has its name); `None` if there are none.
    pub fn rebind(&self, captures: &[(syn::Ident, ValueId)]) -> Option<TokenStream> {
        let lets: Vec<_> = captures
            .iter()
            .filter(|(_, v)| self.f.info(*v).param.is_none())
            .map(|(ident, v)| {
                let value = self.owned(*v);
                quote!(let #ident = #value;)
            })
            .collect();
        (!lets.is_empty()).then(|| quote!(#(#lets)*))
    }

    /// A value, or a tuple of values.
    pub fn tuple(&self, values: &[ValueId]) -> TokenStream {
        let idents: Vec<_> = values.iter().map(|v| names::value(self.f, *v)).collect();
        if idents.len() == 1 {
            quote!(#(#idents)*)
        } else {
            quote!((#(#idents),*))
        }
    }
}

/// A rule's primal expression, with `autograd::prelude`'s traits in scope
/// where the rule is one of their methods (see `Rule::from_prelude`).
fn prelude_scope(rule: &Rule, expr: TokenStream) -> TokenStream {
    if !rule.from_prelude {
        return expr;
    }
    quote! {{
        #[allow(unused_imports)]
        use ::autograd::prelude::{Activation as _, ElementwiseActivation as _};
        #expr
    }}
}

impl Gen<'_> {
    /// The recorded calls an `if` made in the forward sweep hands out: none
    /// in the pullback, which reads them from the records.
    fn records_of(&self, i: &If) -> Vec<ValueId> {
        if self.in_pullback || self.recorded.is_empty() {
            return Vec::new();
        }
        let mut out = self.records_in(&i.then_blk);
        out.extend(self.records_in(&i.else_blk));
        out
    }

    /// The elements a loop keeps that an `if` reads in its arms, handed out
    /// of it to the loop's push.
    fn kept_out_of(&self, i: &If) -> Vec<ValueId> {
        if self.an.kept_in_arms.is_empty() || i.cfg.is_some() {
            return Vec::new();
        }
        let mut out = self.kept_in(&i.then_blk);
        out.extend(self.kept_in(&i.else_blk));
        out
    }

    /// The kept elements read in a branch arm and in the branches nested in
    /// it.
    fn kept_in(&self, b: &Block) -> Vec<ValueId> {
        let mut out = Vec::new();
        let mut kept = |dst: ValueId, _: &Op| {
            if self.an.kept_in_arms.contains(&dst) {
                out.push(dst);
            }
        };
        BranchLets(&mut kept).visit_block(b);
        out
    }

    /// The recorded calls of a branch arm and of the branches nested in it.
    fn records_in(&self, b: &Block) -> Vec<ValueId> {
        let mut out = Vec::new();
        let mut record = |dst: ValueId, _: &Op| {
            if self.recorded.contains(&dst) {
                out.push(dst);
            }
        };
        BranchLets(&mut record).visit_block(b);
        out
    }
}

/// Visits the `let`s of a block and of the branch arms nested in it, not
/// those in loops (whose calls are recomputed rather than recorded).
struct BranchLets<F>(F);

impl<'a, F: FnMut(ValueId, &'a Op)> Visitor<'a> for BranchLets<F> {
    fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
        match stmt {
            Stmt::Let { dst, op, .. } => (self.0)(*dst, op),
            Stmt::If(_) => walk_stmt(self, stmt),
            Stmt::Loop(_) => {}
        }
    }
}

/// Calls of the function itself (`f(x, n - 1)` in `f`) in branches outside
/// loops. The reverse sweep recomputes a branch, and recomputing such a
/// call ran the whole recursion below it again at every level: time
/// quadratic in the depth. The forward sweep instead makes the call through
/// the VJP and hands the value and the pullback out of the branch (boxed:
/// the pullback's type contains itself), and the pullback reads them there.
/// With several named lifetimes the box could not name the one they share,
/// and such calls are recomputed as before.
pub fn recorded_calls(
    f: &Function,
    an: &Analysis,
    name: Option<&syn::Ident>,
    lifetimes: usize,
) -> HashSet<ValueId> {
    let mut out = HashSet::new();
    let Some(name) = name.filter(|_| lifetimes <= 1) else {
        return out;
    };
    let mut in_arm = |dst: ValueId, op: &Op| {
        if let Op::Call { func, args } = op
            && an.active(dst)
            && !deferred_call(f, args)
            && func.get_ident() == Some(name)
        {
            out.insert(dst);
        }
    };
    for stmt in &f.body.stmts {
        if let Stmt::If(i) = stmt {
            BranchLets(&mut in_arm).visit_block(&i.then_blk);
            BranchLets(&mut in_arm).visit_block(&i.else_blk);
        }
    }
    out
}

/// The path of a callee's all-arguments VJP: its own path with the last
/// segment renamed.
pub fn vjp_path(func: &syn::Path) -> syn::Path {
    hidden_path(func, names::VJP_FULL)
}

/// Checks that a callee's name and its hidden VJP's name resolve to the same
/// function. They are resolved apart (a local item or an explicit import
/// can shadow the one but not the other), and stable Rust cannot compare
/// function items at compile time, so the callee's hidden check compares
/// them at run time (see `emit::carrier`). `value` is the call's value,
/// from which a generic callee's check learns its scalar type, and
/// `pullback` the call's, from which it learns its lengths.
pub fn same_callee(
    func: &syn::Path,
    value: &TokenStream,
    pullback: &TokenStream,
    span: proc_macro2::Span,
) -> TokenStream {
    let mut carrier = func.clone();
    if let Some(last) = carrier.segments.last_mut() {
        last.arguments = syn::PathArguments::None;
    }
    let check = hidden_path(&carrier, names::SAME_CALLEE);
    quote_spanned!(span=> #check(&#func, &#value, &#pullback);)
}

/// The path of a hidden item of the function `func` names: an associated
/// item of the type named like it (`m::f::__vjp_full`), which a `use` of the
/// function imports with it (see `names::hidden`). The last segment keeps
/// the user's span.
pub fn hidden_path(func: &syn::Path, item: &str) -> syn::Path {
    let mut path = func.clone();
    let Some(last) = path.segments.last_mut() else {
        return path;
    };
    let span = last.ident.span();
    // A function taking a `Tangent` struct is called through its struct
    // call, whose hidden items sit next to it.
    if crate::ir::is_struct_call(&last.ident) {
        last.ident = proc_macro2::Ident::new(&format!("{}{item}", last.ident), span);
        return path;
    }
    if crate::ir::is_inout_item(&last.ident) {
        last.ident = proc_macro2::Ident::new(&format!("{}{item}", last.ident), span);
        return path;
    }
    let mut hidden = names::hidden(&last.ident, item);
    hidden.set_span(span);
    if names::has_no_carrier(&last.ident) {
        last.ident = hidden;
    } else {
        // `g::<T>` gives `g::__vjp_full::<T>`: the carrier type has no
        // parameters, its items have the function's.
        let arguments = std::mem::take(&mut last.arguments);
        path.segments.push(syn::PathSegment {
            ident: hidden,
            arguments,
        });
    }
    path
}

/// `usize`, `i32`, ..: a primitive integer type.
fn integer_type(ty: &syn::Type) -> bool {
    const INTEGERS: &[&str] = &[
        "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
    ];
    matches!(ty, syn::Type::Path(p) if p.qself.is_none() && INTEGERS.iter().any(|i| p.path.is_ident(i)))
}
