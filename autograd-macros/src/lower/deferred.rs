//! `let z;` assigned in every arm of the branch that follows it, lowered
//! as it stands: `z` is bound to a value that exists nowhere (`absent`,
//! never emitted), and the branch's φ for `z` joins the values its arms
//! assign, as for any variable a branch assigns:
//!
//! ```text
//! let z;                          v1 z = absent
//! if c { s; z = a; }        →     if c { ..; v2 = a } else { v3 = b }
//! else { z = b; }                 v4 z = phi v2, v3
//! ```
//!
//! The same for `else if` chains, `match` arms and a plain `z = e;`. Rust
//! has checked that `z` is assigned before it is read; an arm that assigns
//! it last and names it nowhere else makes every path through the branch
//! assign it, so no φ reads the absent value. Any other use of a `let`
//! without a value keeps its error.

use proc_macro2::TokenTree;

use super::*;

/// Whether `next` (the statement after `let z;`) assigns `z` last in
/// every arm, naming it nowhere else.
pub(super) fn assigned_by(next: &SynStmt, z: &syn::Ident) -> bool {
    let SynStmt::Expr(e, _) = next else {
        return false;
    };
    super::control::stmt_attrs(next).is_none_or(|a| a.is_empty()) && assigns(e, z)
}

/// Whether every way through `e` ends in `z = v`, `v` not naming `z`.
fn assigns(e: &Expr, z: &syn::Ident) -> bool {
    match e {
        Expr::Assign(a) => {
            matches!(&*a.left, Expr::Path(p) if p.path.is_ident(z))
                && a.attrs.is_empty()
                && !names(&a.right.to_token_stream(), z)
        }
        Expr::If(i) => {
            assigns_last(&i.then_branch, z)
                && i.else_branch.as_ref().is_some_and(|(_, e)| assigns(e, z))
        }
        Expr::Block(b) => b.label.is_none() && b.attrs.is_empty() && assigns_last(&b.block, z),
        // A guard is part of the pattern here.
        Expr::Match(m) => {
            !names(&m.expr.to_token_stream(), z)
                && m.arms
                    .iter()
                    .all(|arm| !names(&arm.pat.to_token_stream(), z) && assigns(&arm.body, z))
        }
        _ => false,
    }
}

/// A block ending in a statement that [`assigns`] `z`, the statements
/// before it naming `z` nowhere.
fn assigns_last(block: &syn::Block, z: &syn::Ident) -> bool {
    let Some((SynStmt::Expr(last, _), before)) = block.stmts.split_last() else {
        return false;
    };
    !before.iter().any(|s| names(&s.to_token_stream(), z)) && assigns(last, z)
}

/// Whether tokens name `z` anywhere (conservatively: any identifier `z`).
fn names(tokens: &TokenStream, z: &syn::Ident) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == *z,
        TokenTree::Group(g) => names(&g.stream(), z),
        _ => false,
    })
}
