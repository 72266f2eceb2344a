//! The adjoint sweep: the operations in reverse order, each adding its
//! contributions into its operands' adjoints.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};

use super::forward::Mode;
use super::{Gen, names, paths};
use crate::analysis::{carry_active, deferred_call, has_work, needs, scalar_form, stencils};
use crate::catalog::Read;
use crate::ir::*;

impl Gen<'_> {
    /// The zero a value's adjoint starts from when it is created up front.
    pub fn zero(&self, v: ValueId) -> TokenStream {
        match self.f.info(v).kind {
            Kind::Float => quote!(0.0),
            _ => {
                let v = self.operand_ref(&Operand::Value(v));
                quote!(::autograd::__private::zero_like(#v))
            }
        }
    }

    /// Adds `expr` into the adjoint of `v`, creating it with a plain `let`
    /// at its first contribution.
    fn contribute(&mut self, v: ValueId, expr: TokenStream) -> TokenStream {
        let adj = names::adjoint(self.f, v);
        if self.declared.contains(&v) {
            return quote!(#adj += #expr;);
        }
        self.declared.insert(v);
        if self.an.uses[v.0 as usize] > 1 {
            quote!(let mut #adj = #expr;)
        } else {
            quote!(let #adj = #expr;)
        }
    }

    /// Values of this block whose adjoints start at zero.
    fn predeclare(&mut self, b: &Block) -> TokenStream {
        let mut out = TokenStream::new();
        let values = self.an.defined_in.get(&b.id).cloned().unwrap_or_default();
        for v in values {
            if self.an.active(v)
                && self.an.predeclare[v.0 as usize]
                && self.f.info(v).kind != Kind::Slice
            {
                let adj = names::adjoint(self.f, v);
                let zero = self.zero(v);
                out.extend(quote!(let mut #adj = #zero;));
                self.declared.insert(v);
            }
        }
        out
    }

    /// The reverse sweep of a block; `incoming` are contributions that
    /// arrive from outside it (φ-nodes, the loop back edge, the seed).
    pub fn reverse_block(
        &mut self,
        b: &Block,
        incoming: Vec<(ValueId, TokenStream)>,
    ) -> TokenStream {
        let mut out = self.predeclare(b);
        for (v, expr) in incoming {
            out.extend(self.contribute(v, expr));
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

    fn reverse_let(&mut self, dst: ValueId, op: &Op, span: proc_macro2::Span) -> TokenStream {
        if !self.an.active(dst) || !self.declared.contains(&dst) {
            return TokenStream::new();
        }
        let g = names::adjoint(self.f, dst);
        let mut out = TokenStream::new();
        match op {
            Op::Copy(a) => {
                if let Some(u) = self.an.active_operand(a) {
                    out.extend(self.contribute(u, g.into_token_stream()));
                }
            }
            Op::Rule { rule, args, syntax } if !scalar_form(self.f, rule, args) => {
                let refs: Vec<_> = args.iter().map(|a| self.operand_ref(a)).collect();
                let out_ref = self.operand_ref(&Operand::Value(dst));
                let differentiable = args.iter().zip(rule.diff).filter(|(_, d)| **d);
                for (k, (a, _)) in differentiable.enumerate() {
                    let Some(u) = self.an.active_operand(a) else {
                        continue;
                    };
                    let func = match syntax {
                        Syntax::Map(_) => format!("map_{}", rule.generic_func(k)),
                        _ => rule.generic_func(k),
                    };
                    let func = paths::generic_rule(&func, span);
                    let expr = quote_spanned!(span=> #func(&#g, #(#refs,)* #out_ref));
                    out.extend(self.contribute(u, expr));
                }
            }
            Op::Map { recv, helper, .. } if self.an.active(*recv) => {
                let func = paths::generic_rule("map_grad", span);
                let m = self.operand_ref(&Operand::Value(*recv));
                let expr = quote_spanned!(span=> #func(&#g, #m, |x, g| #helper(x).1(g).0));
                out.extend(self.contribute(*recv, expr));
            }
            Op::Rule { rule, args, .. } => {
                for (a, grad) in args.iter().zip(rule.grads) {
                    let Some(grad) = grad else { continue };
                    let Some(u) = self.an.active_operand(a) else {
                        continue;
                    };
                    let func = paths::rule(grad.func, span);
                    let reads = grad.reads.iter().map(|r| match r {
                        Read::Arg(i) => self.operand(&args[*i]),
                        Read::Out => names::value(self.f, dst).into_token_stream(),
                    });
                    let expr = quote_spanned!(span=> #func(#g #(, #reads)*));
                    out.extend(self.contribute(u, expr));
                }
            }
            Op::Index { .. } if self.windows.contains_key(&dst) => {
                let w = &self.windows[&dst];
                out.extend(quote!(#w += #g;));
            }
            Op::Index { slice, index } if self.an.active(*slice) => {
                let adj = names::adjoint(self.f, *slice);
                let index = self.operand(index);
                out.extend(quote!(#adj[#index] += #g;));
            }
            Op::Call { func, args } => {
                let pb = names::pullback(dst);
                if deferred_call(self.f, args) {
                    let vjp = super::forward::vjp_path(func);
                    let call_args = self.call_args(args);
                    out.extend(quote_spanned!(span=> let (_, #pb) = #vjp(#(#call_args),*);));
                }
                let slots: Vec<_> = args
                    .iter()
                    .enumerate()
                    .map(|(k, a)| match self.an.active_operand(&a.operand) {
                        Some(_) => names::call_slot(dst, k).into_token_stream(),
                        None => quote!(_),
                    })
                    .collect();
                out.extend(quote_spanned!(span=> let (#(#slots,)*) = #pb(#g);));
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
                        out.extend(quote_spanned!(a.span=>
                            let #checked = ::autograd::__private::contribution(#slot);
                            ::autograd::__private::accumulate(&mut #adj, #checked);
                        ));
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn reverse_if(&mut self, stmt: &Stmt, i: &If) -> TokenStream {
        if !has_work(self.an, stmt) {
            return TokenStream::new();
        }
        let cond = self.operand(&i.cond);
        let arm = |g: &mut Self, blk: &Block, src: fn(&Phi) -> ValueId| {
            let need = needs(g.f, g.an, blk);
            let recompute = g.forward_block(blk, Mode::Record, Some(&need));
            let incoming = i
                .phis
                .iter()
                .filter(|p| g.declared.contains(&p.dst) && g.an.active(src(p)))
                .map(|p| (src(p), names::adjoint(g.f, p.dst).into_token_stream()))
                .collect();
            let reverse = g.reverse_block(blk, incoming);
            quote! { #recompute #reverse }
        };
        let then_code = arm(self, &i.then_blk, |p| p.then_src);
        let else_code = arm(self, &i.else_blk, |p| p.else_src);
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
            } else {
                self.zero(c.init)
            };
            out.extend(quote!(let mut #dc = #start;));
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
                out.extend(quote!(let mut #wc = 0.0;));
            }
            let wmin = w(s.min);
            fresh.extend(quote!(let mut #wmin = 0.0;));
            for (dst, c) in &s.reads {
                self.windows.insert(*dst, w(*c));
            }
            let adj = names::adjoint(self.f, s.slice);
            let (last, wmax) = (names::value(self.f, s.last), w(s.max));
            write.extend(quote!(#adj[#last] += #wmax;));
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
                    flush.extend(quote!(#adj[#at] += #wc;));
                }
            }
        }

        let saves = self.saves(l);
        let pop = saves.any().then(|| {
            let stack = names::stack(l.id);
            let saved: Vec<_> = saves.entries.iter().chain(&saves.kept).copied().collect();
            let pattern = self.tuple(&saved);
            quote!(let #pattern = ::autograd::__private::pop(&mut #stack);)
        });
        let recompute = self.forward_block(&l.body, Mode::Record, Some(&saves.recompute));
        let incoming = carried
            .iter()
            .filter(|c| self.an.active(c.exit))
            .map(|c| {
                (
                    c.exit,
                    names::carried_adjoint(l.id, &c.name).into_token_stream(),
                )
            })
            .collect();
        let reverse = self.reverse_block(&l.body, incoming);
        let carry_back = carried.iter().map(|c| {
            let dc = names::carried_adjoint(l.id, &c.name);
            if self.declared.contains(&c.entry) {
                let adj = names::adjoint(self.f, c.entry);
                quote!(#dc = #adj;)
            } else {
                let zero = self.zero(c.init);
                quote!(#dc = #zero;)
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
                    quote!((#range).rev())
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
        out.extend(quote! {
            #header {
                #pop
                #recompute
                #fresh
                #reverse
                #write
                #(#carry_back)*
            }
            #flush
        });
        for c in &carried {
            if self.an.active(c.init) {
                let dc = names::carried_adjoint(l.id, &c.name);
                out.extend(self.contribute(c.init, dc.into_token_stream()));
            }
        }
        out
    }
}
