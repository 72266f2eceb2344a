//! A `let` whose value is an `if` with one arm that exits, rewritten
//! before lowering into the exit as a statement and the `let` of the other
//! arm's value:
//!
//! ```text
//! let x = if c { a } else { return 0.0 };   →   if !(c) { return 0.0; }
//!                                               let x = { a };
//! ```
//!
//! (also with `break` and `continue`, and the exit in the first arm). The
//! condition is evaluated once, before either arm, as in the original, so
//! the rewritten body computes the same values; the exits pass then
//! differentiates the `if` as any exit.

use syn::visit_mut::VisitMut;

use super::*;

/// Rewrites every such `let` of the body; `None` if there is none.
pub(super) fn desugar(body: &syn::Block) -> Option<syn::Block> {
    // Only a body with an exit can have one, found without a copy.
    let mut finder = super::exits::Finder::new(|e: &Expr| {
        matches!(e, Expr::Return(_) | Expr::Break(_) | Expr::Continue(_))
    });
    syn::visit::Visit::visit_block(&mut finder, body);
    if !finder.found {
        return None;
    }
    let mut rewrite = Diverging { changed: false };
    let mut body = body.clone();
    rewrite.visit_block_mut(&mut body);
    rewrite.changed.then_some(body)
}

struct Diverging {
    changed: bool,
}

/// Whether a block is one `return`, `break` or `continue` (with or
/// without its `;`).
fn exits(b: &syn::Block) -> bool {
    let [stmt] = b.stmts.as_slice() else {
        return false;
    };
    let e = match stmt {
        SynStmt::Expr(e, _) => e,
        _ => return false,
    };
    matches!(e, Expr::Return(_) | Expr::Break(_) | Expr::Continue(_))
}

impl VisitMut for Diverging {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        syn::visit_mut::visit_block_mut(self, block);
        let mut out = Vec::with_capacity(block.stmts.len());
        for stmt in std::mem::take(&mut block.stmts) {
            let SynStmt::Local(local) = &stmt else {
                out.push(stmt);
                continue;
            };
            // A `let` under `#[cfg]` (or any attribute) stays as written:
            // the exit statement would not carry the attribute, and run
            // where the primal's `let` is compiled out. It is then the
            // usual error for an exit inside an expression.
            let Some(init) = local.init.as_ref().filter(|i| i.diverge.is_none()) else {
                out.push(stmt);
                continue;
            };
            if !local.attrs.is_empty() {
                out.push(stmt);
                continue;
            }
            let Expr::If(i) = &*init.expr else {
                out.push(stmt);
                continue;
            };
            let Some((_, els)) = &i.else_branch else {
                out.push(stmt);
                continue;
            };
            let Expr::Block(els) = &**els else {
                out.push(stmt);
                continue;
            };
            let (cond, exit, value) = match (exits(&i.then_branch), exits(&els.block)) {
                (false, true) => {
                    let c = &i.cond;
                    (syn::parse_quote!(!(#c)), &els.block, &i.then_branch)
                }
                (true, false) => ((*i.cond).clone(), &i.then_branch, &els.block),
                _ => {
                    out.push(stmt);
                    continue;
                }
            };
            let cond: Expr = cond;
            let exit = match &exit.stmts[0] {
                SynStmt::Expr(e, _) => e.clone(),
                _ => unreachable!("checked by `exits`"),
            };
            out.push(syn::parse_quote!(if #cond { #exit; }));
            let mut local = local.clone();
            let value = value.clone();
            local.init = Some(syn::LocalInit {
                eq_token: init.eq_token,
                expr: Box::new(syn::parse_quote!(#value)),
                diverge: None,
            });
            out.push(SynStmt::Local(local));
            self.changed = true;
        }
        block.stmts = out;
    }
}

#[cfg(test)]
mod tests {
    use super::desugar;

    #[test]
    fn a_let_with_an_attribute_is_not_rewritten() {
        let plain: syn::Block = syn::parse_quote!({
            let y = if x > 0.0 { x } else { return 0.0 };
            y
        });
        assert!(desugar(&plain).is_some());
        let with_cfg: syn::Block = syn::parse_quote!({
            #[cfg(any())]
            let y = if x > 0.0 { x } else { return 0.0 };
            y
        });
        assert!(desugar(&with_cfg).is_none());
    }
}
