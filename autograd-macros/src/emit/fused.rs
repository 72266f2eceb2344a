//! The two halves of a fused loop (see `crate::analysis::fusion`): the forward sweep
//! runs the body and, in the same iteration, its reverse with the
//! accumulator's adjoint one, adding into unit adjoints; the reverse sweep
//! scales those by the accumulator's actual adjoint.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::{Gen, names};
use crate::analysis::fusion::Fusion;
use crate::analysis::stencils;
use crate::ir::*;

impl<'a> Gen<'a> {
    /// How loop `l` is fused, if it is: only at the top level (its unit
    /// adjoints move into the pullback) and in `f32`/`f64` code.
    pub(super) fn fused(&self, l: &Loop) -> Option<&'a Fusion> {
        let an = self.an;
        (self.top_loops.contains(&l.id) && self.scalar.param().is_none())
            .then(|| an.fused.get(&l.id))
            .flatten()
    }

    /// The forward sweep of a fused loop: each iteration's primal, then its
    /// reverse from a unit accumulator adjoint into the unit adjoints of the
    /// values it reads from outside, which the block hands out with the
    /// values after the loop.
    pub(super) fn forward_fused(&self, l: &Loop, fusion: &Fusion) -> TokenStream {
        let acc = &l.carried[fusion.acc];
        let mut reverse = Gen {
            declared: fusion.outer.iter().copied().collect(),
            broadcast: Default::default(),
            lent: Default::default(),
            deferred: Vec::new(),
            windows: Default::default(),
            fresh_windows: Default::default(),
            dead_entries: Default::default(),
            hoisted_spares: Default::default(),
            top_loops: Default::default(),
            movable: self.movable.clone(),
            consumable: self.consumable.clone(),
            recorded: self.recorded.clone(),
            recorded_pullback_ty: self.recorded_pullback_ty.clone(),
            scaled: Default::default(),
            adopted: Default::default(),
            gate: false,
            ..*self
        };
        let in_buffer: HashSet<ValueId> = fusion
            .outer
            .iter()
            .copied()
            .filter(|&v| self.buffer_unit(l, fusion, v))
            .collect();
        let windows = reverse.forward_windows(l, &in_buffer);
        let incoming = self
            .an
            .active(acc.exit)
            .then(|| (acc.exit, self.scalar.one(), None))
            .into_iter()
            .collect();
        let reverse_body = reverse.reverse_block(&l.body, incoming);
        // A pending adjoint no contribution created is zero.
        let zero = self.scalar.zero();
        let untouched = reverse
            .fresh_windows
            .iter()
            .map(|w| quote!(let #w = #zero;));
        let untouched = quote!(#(#untouched)*);
        let Windows {
            before,
            write,
            flush,
        } = windows;
        let code = self.loop_code(l, false, quote!(#reverse_body #untouched #write));
        let adjoints: Vec<_> = fusion
            .outer
            .iter()
            .map(|&v| names::adjoint(self.f, v))
            .collect();
        let zeros = fusion.outer.iter().map(|&v| match self.f.info(v).kind {
            // `NAME_grad_acc`: the caller's buffer is the unit adjoint.
            Kind::Slice if in_buffer.contains(&v) => {
                let buffer = &self.buffers.expect("a buffer unit is in `__grad_acc_full`")[&v];
                quote!(&mut *#buffer)
            }
            Kind::Slice => {
                let x = names::value(self.f, v);
                quote!(::autograd::__private::zeros_like_slice(#x))
            }
            _ => self.scalar.zero(),
        });
        let units = fusion.outer.iter().map(|&v| names::unit(l.id, self.f, v));
        let afters: Vec<_> = l
            .carried
            .iter()
            .map(|c| names::value(self.f, c.after))
            .collect();
        quote! {
            let (#(#afters,)* #(#units,)*) = {
                #(let mut #adjoints = #zeros;)*
                #before
                #code
                #flush
                (#(#afters,)* #(#adjoints,)*)
            };
        }
    }

    /// Pending adjoints of slice elements read at the index plus a
    /// constant (see `analysis::Stencil`), in forward order: iteration `i`
    /// adds into elements `i + min ..= i + max`, and element `i + min` gets
    /// its last contribution there, so each element is written to memory
    /// once, and no iteration reads back what the previous one wrote.
    /// `in_buffer`: the slices whose unit adjoint is a caller's buffer,
    /// added into.
    fn forward_windows(&mut self, l: &Loop, in_buffer: &HashSet<ValueId>) -> Windows {
        let mut out = Windows::default();
        let LoopHeader::Range {
            start,
            end,
            inclusive,
            ..
        } = &l.header
        else {
            return out;
        };
        let zero = self.scalar.zero();
        for s in stencils(self.f, self.an, l) {
            let w = |c: i64| names::window(l.id, self.f, s.slice, c);
            for c in s.min..s.max {
                let wc = w(c);
                out.before.extend(quote!(let mut #wc = #zero;));
            }
            self.fresh_windows.insert(w(s.max));
            for (dst, c) in &s.reads {
                self.windows.insert(*dst, w(*c));
            }
            let first = s.reads.iter().find(|r| r.1 == s.min).and_then(|r| {
                l.body.stmts.iter().find_map(|st| match st {
                    Stmt::Let {
                        dst,
                        op: Op::Index { index, .. },
                        ..
                    } if *dst == r.0 => Some(self.operand(index)),
                    _ => None,
                })
            });
            let Some(first) = first else {
                continue;
            };
            let adj = names::adjoint(self.f, s.slice);
            let wmin = w(s.min);
            // The unit adjoint starts at zero: where the window holds every
            // read of the slice, each element is written once (a caller's
            // buffer is added into).
            let only_window =
                self.element_reads(l, s.slice) == s.reads.len() && !in_buffer.contains(&s.slice);
            let set = |place: TokenStream, w: &proc_macro2::Ident| match only_window {
                true => quote!(#place = #w;),
                false => quote!(#place += #w;),
            };
            out.write.extend(set(quote!(#adj[#first]), &wmin));
            for c in s.min..s.max {
                let (to, from) = (w(c), w(c + 1));
                out.write.extend(quote!(#to = #from;));
            }
            // After the last iteration, `w(c)` holds element
            // `last + c + 1`, `last` being `end - 1` or (`..=`) `end`.
            let end = self.operand(end);
            let mut flush = TokenStream::new();
            for c in s.min..s.max {
                let k = c + i64::from(*inclusive);
                let at = match k.cmp(&0) {
                    std::cmp::Ordering::Equal => quote!(#end),
                    std::cmp::Ordering::Greater => {
                        let k = proc_macro2::Literal::i64_unsuffixed(k);
                        quote!(#end + #k)
                    }
                    std::cmp::Ordering::Less => {
                        let k = proc_macro2::Literal::i64_unsuffixed(-k);
                        quote!(#end - #k)
                    }
                };
                flush.extend(set(quote!(#adj[#at]), &w(c)));
            }
            if !flush.is_empty() {
                let start = self.operand(start);
                let range = match inclusive {
                    true => quote!(#start..=#end),
                    false => quote!(#start..#end),
                };
                // Only a loop that ran read those elements.
                out.flush.extend(quote! {
                    if !(#range).is_empty() {
                        #flush
                    }
                });
            }
        }
        out
    }

    /// How many element reads of `slice` with an adjoint the body of `l`
    /// makes (a fused body is straight-line: all at its top level).
    fn element_reads(&self, l: &Loop, slice: ValueId) -> usize {
        l.body
            .stmts
            .iter()
            .filter(|st| {
                matches!(st, Stmt::Let { dst, op: Op::Index { slice: x, .. }, .. }
                    if *x == slice && self.an.active(*dst))
            })
            .count()
    }

    /// The reverse sweep of a fused loop: every contribution of its body is
    /// the accumulator's adjoint after the loop times the unit one; the
    /// accumulator's initial value receives that adjoint unchanged.
    ///
    /// That product is the two-pass sweep's own only while the adjoint is
    /// finite: scaled by ∞ or NaN, a unit adjoint of zero (an element the
    /// loop never read, a value of a loop that never ran) would be NaN, and
    /// a sum of contributions one of which is zero would be ∞ where the
    /// two-pass sweep has NaN. A non-finite adjoint (in `__grad_acc_full`,
    /// any adjoint but one, when the unit adjoints are the caller's
    /// buffers) runs the two-pass sweep instead,
    /// computing the body's primal again, so the gradient is the same
    /// numbers, NaN and ∞ where they are.
    pub(super) fn reverse_fused(&mut self, l: &Loop, fusion: &Fusion) -> TokenStream {
        let acc = &l.carried[fusion.acc];
        let dc = names::carried_adjoint(l.id, &acc.name);
        let start = if self.declared.contains(&acc.after) {
            names::adjoint(self.f, acc.after).into_token_stream()
        } else {
            self.scalar.zero()
        };
        let seeded = fusion.outer.iter().any(|&v| self.buffer_unit(l, fusion, v));
        let mut out = quote!(let #dc = #start;);
        // Both ways add into the same adjoints, created here.
        let floats = fusion
            .outer
            .iter()
            .copied()
            .filter(|&v| self.f.info(v).kind == Kind::Float);
        let init = self.an.active(acc.init).then_some(acc.init);
        for v in floats.chain(init) {
            if self.declared.insert(v) {
                let (adj, zero) = (names::adjoint(self.f, v), self.zero(v));
                out.extend(quote!(let mut #adj = #zero;));
            }
        }
        let mut scaled = TokenStream::new();
        for &v in &fusion.outer {
            let unit = names::unit(l.id, self.f, v);
            let adj = names::adjoint(self.f, v);
            let buffer = self.buffers.is_some_and(|b| b.contains_key(&v));
            scaled.extend(match self.f.info(v).kind {
                // Already added into the caller's buffer, at seed one.
                Kind::Slice if self.buffer_unit(l, fusion, v) => TokenStream::new(),
                Kind::Slice if fusion.sole.contains(&v) && !buffer => {
                    quote!(::autograd::__private::scale_unit(&mut #adj, #dc);)
                }
                Kind::Slice => quote!(::autograd::__private::add_scaled(&mut #adj, #dc, #unit);),
                _ if self.reached(v).is_some() => {
                    // Read only in the body: it arrived if the loop ran.
                    let add = self.contribute(v, quote!(#dc * #unit));
                    let range = self.range(l);
                    quote!(if !(#range).is_empty() { #add })
                }
                _ => self.contribute(v, quote!(#dc * #unit)),
            });
        }
        if self.an.active(acc.init) {
            scaled.extend(self.contribute(acc.init, dc.to_token_stream()));
        }
        // A slice whose adjoint is its unit adjoint starts again from zero.
        let zeroed = fusion
            .outer
            .iter()
            .filter(|&&v| fusion.sole.contains(&v) && self.sole_unit(v).is_some())
            .map(|&v| {
                let adj = names::adjoint(self.f, v);
                let zero = self.scalar.zero();
                quote!(#adj.fill(#zero);)
            });
        let zeroed: Vec<_> = zeroed.collect();
        if self.in_pullback && self.reads_borrowed_local(l) {
            // The pullback is a closure, which cannot hold a reference
            // into the function's own locals (`&market.rates` of a
            // by-value argument): the two-pass sweep would not compile
            // there, so a non-finite adjoint is scaled as a finite one.
            out.extend(self.if_reached(acc.after, scaled));
            return out;
        }
        let two_pass = self.reverse_two_pass(l, true);
        // The unit adjoints in the caller's buffer hold the seed one:
        // `NAME_grad_acc`'s. A pullback's second run at a seed of ∞ or NaN
        // (see `vjp_by_acc`) empties them and runs two passes.
        let scale = if seeded {
            let one = self.scalar.one();
            quote!(#dc == #one)
        } else {
            quote!(#dc.is_finite())
        };
        let both = quote! {
            if #scale {
                #scaled
            } else {
                #(#zeroed)*
                #two_pass
            }
        };
        out.extend(self.if_reached(acc.after, both));
        out
    }

    /// A `for` loop's range, in forward order.
    fn range(&self, l: &Loop) -> TokenStream {
        let LoopHeader::Range {
            start,
            end,
            inclusive,
            ..
        } = &l.header
        else {
            unreachable!("a fused loop is a `for` loop")
        };
        let (start, end) = (self.operand(start), self.operand(end));
        match inclusive {
            true => quote!(#start..=#end),
            false => quote!(#start..#end),
        }
    }

    /// `code` run only if `v`'s adjoint was reached (see
    /// `Analysis::gated`): a sum the result does not read on this run
    /// adds nothing, not its zero adjoint times the unit adjoints.
    fn if_reached(&self, v: ValueId, code: TokenStream) -> TokenStream {
        match self.reached(v) {
            Some(r) if self.declared.contains(&v) => quote!(if #r { #code }),
            _ => code,
        }
    }

    /// Whether the loop reads a slice, or a value of a type the macro
    /// cannot see, that is not an argument: possibly a reference into a
    /// local of the function.
    fn reads_borrowed_local(&self, l: &Loop) -> bool {
        let mut found = false;
        l.body.for_each_read(&mut |v| {
            found |= matches!(self.f.info(*v).kind, Kind::Slice | Kind::Unknown)
                && !self.f.params.contains(v);
        });
        found
    }

    /// The unit adjoint a slice argument's adjoint starts as, if a fused
    /// loop makes all its contributions (in `NAME_grad_acc`, if that unit
    /// is the caller's buffer).
    pub(super) fn sole_unit(&self, x: ValueId) -> Option<proc_macro2::Ident> {
        self.f.body.stmts.iter().find_map(|s| match s {
            Stmt::Loop(l)
                if self.fused(l).is_some_and(|fusion| {
                    fusion.sole.contains(&x)
                        && (self.buffers.is_none() || self.buffer_unit(l, fusion, x))
                }) =>
            {
                Some(names::unit(l.id, self.f, x))
            }
            _ => None,
        })
    }

    /// Whether fused loop `l`'s unit adjoint of slice argument `v` is the
    /// caller's buffer in `NAME_grad_acc`: the loop makes all of `v`'s
    /// contributions, and its accumulator's adjoint is the seed, one in
    /// `NAME_grad_acc` (the function returns the accumulator, which nothing
    /// else reads), so the unit adjoint needs no scaling and may be added
    /// into the buffer as the loop runs.
    pub(super) fn buffer_unit(&self, l: &Loop, fusion: &Fusion, v: ValueId) -> bool {
        let acc = &l.carried[fusion.acc];
        self.buffers.is_some_and(|b| b.contains_key(&v))
            && fusion.sole.contains(&v)
            && self.f.ret.value() == Some(acc.after)
            && self.an.uses[acc.after] == 1
    }
}

/// A fused loop's pending slice adjoints: declared before the loop, written
/// and shifted at the end of each iteration (which creates the newest), and
/// written after the loop.
#[derive(Default)]
struct Windows {
    before: TokenStream,
    write: TokenStream,
    flush: TokenStream,
}
