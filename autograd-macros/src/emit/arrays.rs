//! Arrays, `Vec`s and tuples of floats: building them, writing an
//! element, `push`, and the adjoint of each.
//!
//! A write `v[i] = e` makes a new value of `v` (see `Op::Store`); the
//! forward sweep makes it in the old value's buffer where nothing reads
//! the old value again (see `analysis::consumable_arrays`). In reverse,
//! the new value's adjoint becomes the old value's: `ē += v̄[i]`, then
//! `v̄[i] = 0` (the write killed the old element), so the adjoint buffer
//! is threaded back through the writes without a copy.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use super::{Gen, names};
use crate::analysis::large_fill;
use crate::ir::*;

/// `g[k]` of an array or `Vec`, `g.k` of a tuple.
fn element(g: &TokenStream, collection: &Collection, k: usize) -> TokenStream {
    match collection {
        Collection::Tuple => {
            let k = syn::Index::from(k);
            quote!(#g.#k)
        }
        Collection::Array | Collection::Vec => quote!(#g[#k]),
        Collection::Matrix(m) => match m.layout {
            Layout::Linear => quote!(#g[#k]),
            Layout::Rows { cols } => {
                let (r, c) = (k / cols, k % cols);
                quote!(#g[(#r, #c)])
            }
            Layout::Columns { rows } => {
                let (r, c) = (k % rows, k / rows);
                quote!(#g[(#r, #c)])
            }
        },
    }
}

/// `[a, b]`, `vec![a, b]` or `(a, b)` of the elements' expressions.
pub(super) fn pack(
    collection: &Collection,
    elems: impl Iterator<Item = TokenStream>,
) -> TokenStream {
    match collection {
        Collection::Array => quote!([#(#elems),*]),
        Collection::Vec => quote!(::autograd::__private::vec![#(#elems),*]),
        Collection::Tuple => quote!((#(#elems),*)),
        Collection::Matrix(m) => {
            let (func, shape) = (&m.func, &m.shape);
            match m.form {
                CtorForm::Args => quote!(#func(#(#elems),*)),
                CtorForm::Vec => quote!(#func(::autograd::__private::vec![#(#elems),*])),
                CtorForm::Slice => quote!(#func(#(#shape,)* &[#(#elems),*])),
            }
        }
    }
}

/// `[elem; len]`, or `vec![elem; len]` in a pooled buffer (the sweeps
/// give their local `Vec`s back when done with them).
pub(super) fn fill(collection: &Collection, elem: TokenStream, len: TokenStream) -> TokenStream {
    match collection {
        Collection::Vec => quote!(::autograd::__private::filled(#elem, #len)),
        _ => quote!([#elem; #len]),
    }
}

/// `[elem; len]` built on the heap (see `analysis::boxes_large_arrays`).
pub(super) fn boxed_fill(elem: TokenStream, len: TokenStream) -> TokenStream {
    quote!(::autograd::__private::filled_boxed::<_, { #len }>(#elem))
}

impl Gen<'_> {
    /// The array a write (or a loop's carried variable) starts from: its
    /// buffer if nothing reads it again, a copy otherwise (any other value
    /// is copied or cloned).
    pub(super) fn array_to_write(&self, array: ValueId) -> TokenStream {
        if self.consumable.contains(&array) {
            names::value(self.f, array).into_token_stream()
        } else {
            self.owned(array)
        }
    }

    /// The primal expression of a collection operation.
    pub(super) fn collection_primal(&self, op: &Op) -> TokenStream {
        let a = names::written_array();
        match op {
            Op::Pack { elems, collection } => {
                pack(collection, elems.iter().map(|e| self.operand(e)))
            }
            Op::Fill { elem, len, .. } if self.an.boxes_arrays && large_fill(op) => {
                boxed_fill(self.operand(elem), self.operand(len))
            }
            Op::Fill {
                elem,
                len,
                collection,
            } => fill(collection, self.operand(elem), self.operand(len)),
            Op::Store { array, index, elem } => {
                let (array, index, elem) = (
                    self.array_to_write(*array),
                    self.operand(index),
                    self.operand(elem),
                );
                quote!({
                    let mut #a = #array;
                    #a[#index] = #elem;
                    #a
                })
            }
            Op::Push { array, elem } => {
                let (array, elem) = (self.array_to_write(*array), self.operand(elem));
                quote!({
                    let mut #a = #array;
                    #a.push(#elem);
                    #a
                })
            }
            _ => quote!(::core::unreachable!()),
        }
    }

    /// The reverse of a collection operation (or of a read of an array's
    /// element) whose adjoint `g` exists, `None` for other operations.
    pub(super) fn collection_reverse(
        &mut self,
        dst: ValueId,
        op: &Op,
        span: Span,
    ) -> Option<TokenStream> {
        let g = names::adjoint(self.f, dst).into_token_stream();
        let mut out = TokenStream::new();
        match op {
            // A read whose adjoint a loop adds up in a local (see
            // `analysis::InvariantRead`).
            Op::Index { .. } if self.windows.contains_key(&dst) => return None,
            Op::Index { slice, index } if self.f.info(*slice).kind == Kind::Array => {
                let Some(array) = self.an.active(*slice).then_some(*slice) else {
                    return Some(out);
                };
                let adj = names::adjoint(self.f, array);
                if !self.declared.contains(&array) {
                    // The last read of the array: its adjoint starts here.
                    let zero = self.zero(array);
                    out.extend(quote!(let mut #adj = #zero;));
                    self.declared.insert(array);
                }
                let index = self.operand(index);
                let add = self
                    .scalar
                    .add_assign(Kind::Slice, quote!(#adj[#index]), quote!(#g));
                out.extend(quote_spanned!(span=> #add));
                out.extend(self.mark(array, None));
            }
            Op::Pack { elems, collection } => {
                for (k, e) in elems.iter().enumerate() {
                    if let Some(u) = self.an.active_operand(e) {
                        out.extend(self.contribute(u, element(&g, collection, k)));
                    }
                }
            }
            Op::Fill { elem, .. } => {
                if let Some(u) = self.an.active_operand(elem) {
                    // Every element is `elem`: the sum of their adjoints.
                    out.extend(self.contribute(u, quote!(::autograd::__private::element_sum(&#g))));
                }
            }
            Op::Store { array, index, elem } => {
                let index = self.operand(index);
                if let Some(u) = self.an.active_operand(elem) {
                    out.extend(self.contribute(u, quote!(#g[#index])));
                }
                if self.an.active(*array) {
                    // The scalar's zero: a generic function's or a
                    // second-order twin's element is no `f64`.
                    let zero = self.scalar.zero();
                    out.extend(quote!(#g[#index] = #zero;));
                    out.extend(self.contribute(*array, g));
                }
            }
            Op::Push { array, elem } => {
                let popped = quote!(::autograd::__private::pop(&mut #g));
                match self.an.active_operand(elem) {
                    Some(u) => out.extend(self.contribute(u, popped)),
                    None => out.extend(quote!(#popped;)),
                }
                if self.an.active(*array) {
                    out.extend(self.contribute(*array, g));
                }
            }
            _ => return None,
        }
        Some(out)
    }
}
