//! `let z;` assigned in every arm of the branch that follows it,
//! rewritten before lowering into the `let` of the branch's value:
//!
//! ```text
//! let z;                          let z = if c {
//! if c { s; z = a; }        →         s; a
//! else { z = b; }                 } else { b };
//! ```
//!
//! The same for `else if` chains, `match` arms and a plain `z = e;`. Rust has checked that
//! `z` is assigned before it is read, so an arm that assigns it last and
//! names it nowhere else computes the same value in the form the IR has.
//! Any other use of a `let` without a value keeps its error.

use proc_macro2::TokenTree;
use syn::visit_mut::VisitMut;

use super::*;

/// Rewrites every deferred `let` of the body that the next statement
/// assigns in all its arms; `None` if there is none.
pub(super) fn desugar(body: &syn::Block) -> Option<syn::Block> {
    // Only a body with an assignment can have one, found without a copy.
    let mut finder = super::exits::Finder::new(|e: &Expr| matches!(e, Expr::Assign(_)));
    syn::visit::Visit::visit_block(&mut finder, body);
    if !finder.found {
        return None;
    }
    let mut rewrite = Deferred { changed: false };
    let mut body = body.clone();
    rewrite.visit_block_mut(&mut body);
    rewrite.changed.then_some(body)
}

struct Deferred {
    changed: bool,
}

impl VisitMut for Deferred {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        syn::visit_mut::visit_block_mut(self, block);
        let mut k = 0;
        while k + 1 < block.stmts.len() {
            if let Some(merged) = merge(&block.stmts[k], &block.stmts[k + 1]) {
                block.stmts.splice(k..k + 2, [merged]);
                self.changed = true;
            }
            k += 1;
        }
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            // A closure's body is lowered on its own.
            Expr::Closure(_) => {}
            // A long sum nests to the left: walked in a loop, not thousands
            // of frames deep.
            Expr::Binary(_) => {
                let mut spine = e;
                while let Expr::Binary(b) = spine {
                    self.visit_expr_mut(&mut b.right);
                    spine = &mut b.left;
                }
                self.visit_expr_mut(spine);
            }
            e => syn::visit_mut::visit_expr_mut(self, e),
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// `let z;` and the branch after it, as one `let z = branch;`.
fn merge(local: &SynStmt, next: &SynStmt) -> Option<SynStmt> {
    let SynStmt::Local(local) = local else {
        return None;
    };
    if local.init.is_some() || !local.attrs.is_empty() {
        return None;
    }
    let ident = match &local.pat {
        Pat::Ident(pi) => &pi.ident,
        Pat::Type(pt) => match &*pt.pat {
            Pat::Ident(pi) => &pi.ident,
            _ => return None,
        },
        _ => return None,
    };
    let SynStmt::Expr(branch, _) = next else {
        return None;
    };
    let value = assigned_in_every_arm(branch, ident)?;
    let mut local = local.clone();
    local.init = Some(syn::LocalInit {
        eq_token: Default::default(),
        expr: Box::new(value),
        diverge: None,
    });
    Some(SynStmt::Local(local))
}

/// The branch with each arm's final `z = e;` made its value `e`, if every
/// arm ends so and names `z` nowhere else.
fn assigned_in_every_arm(e: &Expr, z: &syn::Ident) -> Option<Expr> {
    match e {
        Expr::Assign(a) => assigned_value(a, z),
        Expr::If(i) => {
            let mut i = i.clone();
            i.then_branch = assigned_last(&i.then_branch, z)?;
            let (_, other) = i.else_branch.as_mut()?;
            **other = assigned_in_every_arm(other, z)?;
            Some(Expr::If(i))
        }
        Expr::Block(b) if b.label.is_none() => {
            let mut b = b.clone();
            b.block = assigned_last(&b.block, z)?;
            Some(Expr::Block(b))
        }
        Expr::Match(m) if !names(&m.expr.to_token_stream(), z) => {
            let mut m = m.clone();
            for arm in &mut m.arms {
                // A guard is part of the pattern here.
                if names(&arm.pat.to_token_stream(), z) {
                    return None;
                }
                *arm.body = match &*arm.body {
                    Expr::Assign(a) => assigned_value(a, z)?,
                    body => assigned_in_every_arm(body, z)?,
                };
                arm.comma.get_or_insert_with(Default::default);
            }
            Some(Expr::Match(m))
        }
        _ => None,
    }
}

/// A block ending in `z = e;`, with `e` its tail instead.
fn assigned_last(block: &syn::Block, z: &syn::Ident) -> Option<syn::Block> {
    let (last, before) = block.stmts.split_last()?;
    let SynStmt::Expr(Expr::Assign(a), _) = last else {
        return None;
    };
    let value = assigned_value(a, z)?;
    if before.iter().any(|s| names(&s.to_token_stream(), z)) {
        return None;
    }
    let mut block = block.clone();
    *block.stmts.last_mut()? = SynStmt::Expr(value, None);
    Some(block)
}

/// `e` of `z = e`, where `e` does not name `z`.
fn assigned_value(a: &syn::ExprAssign, z: &syn::Ident) -> Option<Expr> {
    let target = matches!(&*a.left, Expr::Path(p) if p.path.is_ident(z));
    (target && a.attrs.is_empty() && !names(&a.right.to_token_stream(), z))
        .then(|| (*a.right).clone())
}

/// Whether tokens name `z` anywhere (conservatively: any identifier `z`).
fn names(tokens: &TokenStream, z: &syn::Ident) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == *z,
        TokenTree::Group(g) => names(&g.stream(), z),
        _ => false,
    })
}
