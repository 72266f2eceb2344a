//! `let (a, b) = if c { (x, y) } else { (u, w) };` and the same of a
//! `match`: one `let` per component, each of its own branch on the same
//! condition (finding 034, section 2):
//!
//! ```text
//! let (a, b) = match k {              let a = match k { 0 => x, _ => u };
//!     0 => (x, y),              →     let b = match k { 0 => y, _ => w };
//!     _ => (u, w),
//! };
//! ```
//!
//! The condition is computed once per component, so it must not change
//! anything (no assignment, `&mut`, macro or mutating method), and each
//! arm's value is a tuple expression, or an arm that leaves (`return`,
//! `panic!`), copied whole into each branch.

// Only syn and the error context: a rewrite of the source, outside the
// lowerer's import cycle.
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Expr, Pat, Stmt as SynStmt};

use crate::ctxt::Ctxt;

fn strip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        e => e,
    }
}

/// Rewrites every such `let` of the body; `None` if there is none. One
/// that cannot be rewritten is an error saying what to write.
pub(super) fn desugar(cx: &Ctxt, body: &syn::Block) -> Option<syn::Block> {
    // Found without a copy of the body.
    struct Finds(bool);
    impl<'ast> Visit<'ast> for Finds {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            self.0 |= binds_tuple_of_branch(l);
            syn::visit::visit_local(self, l);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut finds = Finds(false);
    finds.visit_block(body);
    if !finds.0 {
        return None;
    }
    let mut rewrite = Lets { cx, changed: false };
    let mut body = body.clone();
    rewrite.visit_block_mut(&mut body);
    rewrite.changed.then_some(body)
}

struct Lets<'a> {
    cx: &'a Ctxt,
    changed: bool,
}

impl VisitMut for Lets<'_> {
    fn visit_block_mut(&mut self, block: &mut syn::Block) {
        syn::visit_mut::visit_block_mut(self, block);
        let mut k = 0;
        while k < block.stmts.len() {
            let SynStmt::Local(local) = &block.stmts[k] else {
                k += 1;
                continue;
            };
            if !binds_tuple_of_branch(local) {
                k += 1;
                continue;
            }
            let lets = split(local).unwrap_or_else(|| {
                self.cx.error_spanned_by(
                    &local.init.as_ref().expect("a branch").expr,
                    "a tuple from an `if` or `match` is supported when every arm's value is a tuple expression, `(x, 2.0 * x)`, with no statements before it, and the condition changes nothing; otherwise bind each component with its own `let` and its own `if` or `match`: `let a = match .. { .. };`",
                );
                Vec::new()
            });
            let n = lets.len();
            block
                .stmts
                .splice(k..k + 1, lets.into_iter().map(SynStmt::Local));
            self.changed = true;
            k += n;
        }
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// `let (a, b) = if ..` or `= match ..`, with or without a type.
fn binds_tuple_of_branch(local: &syn::Local) -> bool {
    let pat = match &local.pat {
        Pat::Type(pt) => &*pt.pat,
        p => p,
    };
    matches!(pat, Pat::Tuple(_))
        && local.init.as_ref().is_some_and(|i| {
            i.diverge.is_none() && matches!(strip_parens(&i.expr), Expr::If(_) | Expr::Match(_))
        })
}

/// The component `let`s of `let pat = init;`, or `None` where the rewrite
/// does not apply.
fn split(local: &syn::Local) -> Option<Vec<syn::Local>> {
    let init = local.init.as_ref().filter(|i| i.diverge.is_none())?;
    let (pat, ty) = match &local.pat {
        Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
        p => (p, None),
    };
    let Pat::Tuple(components) = pat else {
        return None;
    };
    let n = components.elems.len();
    let types: Option<Vec<&syn::Type>> = match ty {
        None => None,
        Some(syn::Type::Tuple(t)) if t.elems.len() == n => Some(t.elems.iter().collect()),
        Some(_) => return None,
    };
    if !matches!(strip_parens(&init.expr), Expr::If(_) | Expr::Match(_)) {
        return None;
    }
    let mut lets = Vec::new();
    for (k, p) in components.elems.iter().enumerate() {
        if matches!(p, Pat::Wild(_)) {
            continue;
        }
        let expr = component(strip_parens(&init.expr), k, n)?;
        let pat = match &types {
            Some(t) => Pat::Type(syn::PatType {
                attrs: Vec::new(),
                pat: Box::new(p.clone()),
                colon_token: Default::default(),
                ty: Box::new(t[k].clone()),
            }),
            None => p.clone(),
        };
        let mut component = local.clone();
        component.pat = pat;
        component.init = Some(syn::LocalInit {
            eq_token: init.eq_token,
            expr: Box::new(expr),
            diverge: None,
        });
        lets.push(component);
    }
    Some(lets)
}

/// The branch `e` with each arm's value replaced by its `k`th component.
fn component(e: &Expr, k: usize, n: usize) -> Option<Expr> {
    match e {
        Expr::If(i) => {
            if changes_state(&i.cond) {
                return None;
            }
            let (else_token, else_branch) = i.else_branch.as_ref()?;
            let mut out = i.clone();
            out.then_branch = block_component(&i.then_branch, k, n)?;
            let else_branch = match strip_parens(else_branch) {
                nested @ Expr::If(_) => component(nested, k, n)?,
                Expr::Block(b) => Expr::Block(syn::ExprBlock {
                    block: block_component(&b.block, k, n)?,
                    ..b.clone()
                }),
                _ => return None,
            };
            out.else_branch = Some((*else_token, Box::new(else_branch)));
            Some(Expr::If(out))
        }
        Expr::Match(m) => {
            // A guard is part of the arm's pattern.
            if changes_state(&m.expr) || m.arms.iter().any(|a| pattern_changes_state(&a.pat)) {
                return None;
            }
            let mut out = m.clone();
            for arm in &mut out.arms {
                *arm.body = value_component(&arm.body, k, n)?;
            }
            Some(Expr::Match(out))
        }
        _ => None,
    }
}

/// A block whose only statement is its value.
fn block_component(b: &syn::Block, k: usize, n: usize) -> Option<syn::Block> {
    let [SynStmt::Expr(tail, None)] = b.stmts.as_slice() else {
        return None;
    };
    let mut out = b.clone();
    out.stmts = vec![SynStmt::Expr(value_component(tail, k, n)?, None)];
    Some(out)
}

/// The `k`th component of an arm's value: of a tuple expression, of a
/// block holding only one, or the arm itself where it leaves.
fn value_component(e: &Expr, k: usize, n: usize) -> Option<Expr> {
    match strip_parens(e) {
        Expr::Tuple(t) if t.elems.len() == n => Some(t.elems[k].clone()),
        Expr::Block(b) if b.label.is_none() => {
            let block = block_component(&b.block, k, n)?;
            let [SynStmt::Expr(value, None)] = block.stmts.as_slice() else {
                return None;
            };
            Some(value.clone())
        }
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => Some(e.clone()),
        Expr::Macro(m) if diverging_macro(&m.mac) => Some(e.clone()),
        _ => None,
    }
}

fn diverging_macro(m: &syn::Macro) -> bool {
    m.path.get_ident().is_some_and(|i| {
        matches!(
            i.to_string().as_str(),
            "panic" | "unreachable" | "unimplemented" | "todo"
        )
    })
}

/// Whether computing `e` could change a variable: computed once per
/// component, it must compute the same each time.
fn changes_state(e: &Expr) -> bool {
    let mut f = Mutates(false);
    f.visit_expr(e);
    f.0
}

/// [`changes_state`] of the guard in an arm's pattern.
fn pattern_changes_state(p: &Pat) -> bool {
    let mut f = Mutates(false);
    f.visit_pat(p);
    f.0
}

/// Mutates what could change a variable.
struct Mutates(bool);

impl<'ast> Visit<'ast> for Mutates {
    fn visit_expr(&mut self, e: &'ast Expr) {
        match e {
            Expr::Assign(_) | Expr::Macro(_) | Expr::Block(_) | Expr::Closure(_) => self.0 = true,
            Expr::Binary(b) if is_compound(&b.op) => self.0 = true,
            Expr::Reference(r) if r.mutability.is_some() => self.0 = true,
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "push" | "pop" | "insert" | "remove" | "clear" | "truncate" | "next"
                ) =>
            {
                self.0 = true
            }
            e => syn::visit::visit_expr(self, e),
        }
    }
}

fn is_compound(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_)
    )
}
