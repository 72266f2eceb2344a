//! Loops under `#[checkpoint]`: the forward sweep keeps snapshots of the
//! loop-carried state instead of every iteration's record; the reverse
//! sweep asks the schedule (`autograd::__private::checkpoint`) for segments,
//! runs each from its snapshot, recording it on the loop's usual stack, and
//! reverses it with the loop's usual reverse iteration. Iterations are
//! reversed in the same order, from the same records, as without the
//! attribute: the gradient is the same, bit for bit.
//!
//! Only a loop with a stack is checkpointed; one whose reverse reads no
//! per-iteration record holds nothing to bound.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::forward::Mode;
use super::{Gen, names};
use crate::checkpoint::snapshots_arg;
use crate::ir::*;

impl Gen<'_> {
    /// Whether the loop runs under a checkpoint schedule.
    pub(super) fn checkpointed(&self, l: &Loop) -> bool {
        l.checkpoint.is_some() && self.saves(l).stacked()
    }

    /// A `for` loop's iterator in forward order and its index pattern.
    fn iterations(
        &self,
        index: &Option<ValueId>,
        start: &Operand,
        end: &Operand,
        inclusive: bool,
        reversed: bool,
    ) -> (TokenStream, TokenStream) {
        let (start, end) = (self.operand(start), self.operand(end));
        let range = if inclusive {
            quote!(#start..=#end)
        } else {
            quote!(#start..#end)
        };
        let iter = if reversed {
            quote!(::core::iter::Iterator::rev(#range))
        } else {
            range
        };
        let index = match index {
            Some(v) => names::value(self.f, *v).into_token_stream(),
            None => quote!(_),
        };
        (iter, index)
    }

    /// The carried variables' locals, and the code moving values in and out
    /// of them around an iteration (`carry_in`, `carry_out`).
    fn carry(&self, l: &Loop) -> (Vec<proc_macro2::Ident>, TokenStream, TokenStream) {
        let carried: Vec<_> = l
            .carried
            .iter()
            .map(|c| names::carried(l.id, &c.name))
            .collect();
        let entries = l.carried.iter().map(|c| names::value(self.f, c.entry));
        let exits = l
            .carried
            .iter()
            .map(|c| self.moved_out_of(c.exit, l.body.id));
        let carry_in = quote! { #(let #entries = #carried;)* };
        let carry_out = quote! { #(#carried = #exits;)* };
        (carried, carry_in, carry_out)
    }

    /// The forward sweep of a checkpointed loop: the user's loop, with the
    /// state at the iterations the schedule picks kept as snapshots.
    pub(super) fn forward_checkpointed(&self, l: &Loop) -> TokenStream {
        let Some(checkpoint) = &l.checkpoint else {
            return TokenStream::new();
        };
        let saves = self.saves(l);
        let (stack, cache, ck) = (
            names::stack(l.id),
            names::cache(l.id),
            names::checkpoints(l.id),
        );
        let (carried, carry_in, carry_out) = self.carry(l);
        let inits = l.carried.iter().map(|c| self.owned(c.init));
        let entries: Vec<_> = l
            .carried
            .iter()
            .map(|c| names::value(self.f, c.entry))
            .collect();
        let snapshot = l.carried.iter().map(|c| self.owned(c.entry));
        let afters = l.carried.iter().map(|c| names::value(self.f, c.after));
        let body = self.forward_block(&l.body, Mode::Plain, None);
        let visit = quote!(#ck.visit(|| (#(#snapshot,)*)););
        let snapshots = snapshots_arg(checkpoint);
        let schedule = quote!(::autograd::__private::checkpoint::Checkpoints);

        let mut out = quote! { #(let mut #carried = #inits;)* };
        // A top-level loop's stack and cache go into the pullback; they are
        // filled there, one segment at a time.
        if self.top_loops.contains(&l.id) {
            out.extend(quote!(let mut #stack = ::autograd::__private::Stack::new();));
            if !saves.cached.is_empty() {
                out.extend(quote!(let mut #cache = ::autograd::__private::Cache::new();));
            }
        }
        out.extend(match &l.header {
            LoopHeader::Range {
                index,
                start,
                end,
                inclusive,
                reversed,
            } => {
                let (iter, index) = self.iterations(index, start, end, *inclusive, *reversed);
                quote! {
                let mut #ck = #schedule::for_trips(
                    ::core::iter::Iterator::size_hint(&(#iter)).0,
                    #snapshots,
                );
                for #index in #iter {
                    #carry_in
                    #visit
                    #body
                    #carry_out
                }
                }
            }
            LoopHeader::While { cond_blk, cond } => {
                let cond_code = self.forward_block(cond_blk, Mode::Plain, None);
                let cond = self.operand(cond);
                quote! {
                    let mut #ck = #schedule::for_while(#snapshots);
                    loop {
                        #carry_in
                        #cond_code
                        if !(#cond) {
                            #(#carried = #entries;)*
                            break;
                        }
                        #visit
                        #body
                        #carry_out
                    }
                }
            }
        });
        out.extend(quote! {
            #ck.finish();
            #(let #afters = #carried;)*
        });
        out
    }

    /// The reverse sweep of a checkpointed loop, given the reverse of one
    /// iteration (which pops the iteration's record and leaves the carried
    /// adjoints at its entry): each step of the schedule runs a segment from
    /// its state, recording it if the step reverses it, then reverses it
    /// iteration by iteration, last first.
    pub(super) fn reverse_checkpointed(&self, l: &Loop, iteration: TokenStream) -> TokenStream {
        let saves = self.saves(l);
        let (stack, cache, ck) = (
            names::stack(l.id),
            names::cache(l.id),
            names::checkpoints(l.id),
        );
        let [from, to, reverse, k] =
            ["from", "to", "reverse", "k"].map(|w| names::checkpoint_local(l.id, w));
        let (carried, carry_in, carry_out) = self.carry(l);
        let body = self.forward_block(&l.body, Mode::Plain, None);
        let (push, push_end, cache_push) = self.loop_records(l);
        let when_reversing = |code: Option<TokenStream>| code.map(|c| quote!(if #reverse { #c }));
        let (push, push_end, cache_push) = (
            when_reversing(push),
            when_reversing(push_end),
            when_reversing(cache_push),
        );
        let cache_start =
            (!saves.cached.is_empty()).then(|| quote!(if #reverse { #cache.start(#to - #from); }));
        let (segment, reversed) = match &l.header {
            LoopHeader::Range {
                index,
                start,
                end,
                inclusive,
                reversed,
            } => {
                let (iter, pattern) = self.iterations(index, start, end, *inclusive, *reversed);
                let segment = quote! {
                    ::core::iter::Iterator::take(::core::iter::Iterator::skip(#iter, #from), #to - #from)
                };
                // An iteration's index from its position in the loop.
                let bind = index.map(|v| {
                    let index = names::value(self.f, v);
                    quote!(let #index = ::autograd::__private::checkpoint::iteration(#iter, #k);)
                });
                let position = if bind.is_some() {
                    quote!(#k)
                } else {
                    quote!(_)
                };
                let reversed = quote! {
                    for #position in ::core::iter::Iterator::rev(#from..#to) {
                        #bind
                        #iteration
                    }
                };
                (quote!(for #pattern in #segment), reversed)
            }
            LoopHeader::While { .. } => (
                quote!(for _ in #from..#to),
                quote! {
                    for _ in ::core::iter::Iterator::rev(#from..#to) {
                        #iteration
                    }
                },
            ),
        };
        quote! {
            #stack.reserve_exact(#ck.segment());
            while let ::core::option::Option::Some(::autograd::__private::checkpoint::Step {
                from: #from,
                to: #to,
                state: (#(mut #carried,)*),
                reverse: #reverse,
            }) = #ck.next()
            {
                #cache_start
                #segment {
                    #carry_in
                    #push
                    #body
                    #push_end
                    #cache_push
                    #carry_out
                }
                if #reverse {
                    #reversed
                } else {
                    #ck.advanced((#(#carried,)*));
                }
            }
        }
    }
}
