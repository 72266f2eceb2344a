//! In-out arguments: a `&mut` argument is its value in the body, read as
//! `*x` (`&*x`) and written as `*x = ..`, `*x += ..`: the lowering reads
//! both as the argument's own variable (`x`), a mutable value like a
//! `mut x: f64` or `mut v: Vec<f64>` taken by value. Slices, arrays and
//! `Vec`s are also written by index as they are.

use syn::visit_mut::VisitMut;
use syn::{Expr, UnOp};

use crate::sig::Signature;

/// The body with `*x` read as `x` for each in-out argument `x`; `None`
/// where there is none.
pub(super) fn desugar(sig: &Signature, body: &syn::Block) -> Option<syn::Block> {
    let floats: Vec<&syn::Ident> = sig
        .params
        .iter()
        .filter(|p| p.inout)
        .map(|p| &p.ident)
        .collect();
    if floats.is_empty() {
        return None;
    }
    let mut body = body.clone();
    Derefs(floats).visit_block_mut(&mut body);
    Some(body)
}

struct Derefs<'a>(Vec<&'a syn::Ident>);

impl VisitMut for Derefs<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Unary(u) = e
            && matches!(u.op, UnOp::Deref(_))
            && let Expr::Path(p) = &*u.expr
            && p.qself.is_none()
            && p.path.get_ident().is_some_and(|i| self.0.contains(&i))
        {
            *e = (*u.expr).clone();
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    // A nested item has names of its own.
    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
