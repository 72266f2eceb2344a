//! A statement whose value is an `if` or a `match` with arms that exit,
//! split by the exits rewrite, in each list of statements it rewrites,
//! into the exits as a statement of their own and the statement of the
//! other arms' value ([`Diverging::split_stmts`]):
//!
//! ```text
//! let x = if c { a } else { return 0.0 };   →   if !(c) { return 0.0; }
//!                                               let x = { a };
//!
//! acc += match k {                          →   match k { 0 => {}, _ => { break; } }
//!     0 => a,                                   acc += match k { 0 => a };
//!     _ => break,
//! };
//! ```
//!
//! The value is that of a `let`, or the right-hand side of `=` or `+=` and
//! friends; the exits are `return`, `break` and `continue`, or an `if` /
//! `match` / block whose every way out is one. The exit statement runs
//! first, so the exit dominates the statement, as in the original; the
//! value keeps the arms that do not exit, which are the ones left when it
//! runs (the last of them is taken when no other is, as an `else`). A
//! condition or guard of an arm that stays is evaluated once more: in a
//! differentiable body it is primal code without effects. A scrutinee
//! that is not a place is bound once, before both.

use syn::visit_mut::VisitMut;

use super::first_last::some_binding;
use super::*;

/// Splits statements (see the module doc), numbering the scrutinees it
/// binds.
#[derive(Default)]
pub(super) struct Diverging {
    next: u32,
}

/// Whether every way out of an expression is `return`, `break` or
/// `continue`.
fn diverges(e: &Expr) -> bool {
    match e {
        Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => true,
        Expr::Paren(p) => diverges(&p.expr),
        Expr::Block(b) => b.label.is_none() && diverges_block(&b.block),
        Expr::If(i) => {
            diverges_block(&i.then_branch)
                && i.else_branch.as_ref().is_some_and(|(_, e)| diverges(e))
        }
        Expr::Match(m) => !m.arms.is_empty() && m.arms.iter().all(|a| diverges(&a.body)),
        _ => false,
    }
}

fn diverges_block(b: &syn::Block) -> bool {
    matches!(b.stmts.last(), Some(SynStmt::Expr(e, _)) if diverges(e))
}

/// An exit as the block of a statement: `{ return v; }`.
fn exit_block(e: &Expr) -> syn::Block {
    match e {
        Expr::Block(b) if b.attrs.is_empty() => b.block.clone(),
        e => syn::parse_quote_spanned!(e.span()=> { #e; }),
    }
}

/// The value a statement computes, where an exit may stand: a `let`'s
/// value (not a `let .. else`), the right-hand side of an assignment, or
/// its right operand when its left one is a place (`a = a + (b)`).
/// A statement with an attribute (`#[cfg]` above all) has none: the exit
/// statement would not carry the attribute, and run where the primal's
/// statement is compiled out; it is then the usual error for an exit
/// inside an expression.
fn value_of(stmt: &mut SynStmt) -> Option<&mut Expr> {
    match stmt {
        SynStmt::Local(l) if l.attrs.is_empty() => match &mut l.init {
            Some(init) if init.diverge.is_none() => Some(&mut init.expr),
            _ => None,
        },
        SynStmt::Expr(Expr::Assign(a), _) if a.attrs.is_empty() && !has_attrs(&a.left) => {
            // `a = a + (b)`, as the second-order twin writes `a += b` (its
            // scalar has no `+=`): `b` is the value, the place read after
            // it as `+=` reads it.
            let operand = matches!(&*a.right, Expr::Binary(b) if !super::is_compound_assign(&b.op) && !has_attrs(&b.left));
            match (&mut *a.right, operand) {
                (Expr::Binary(b), true) => match &mut *b.right {
                    Expr::Paren(p) => Some(&mut p.expr),
                    right => Some(right),
                },
                (right, _) => Some(right),
            }
        }
        SynStmt::Expr(Expr::Binary(b), _)
            if b.attrs.is_empty() && super::is_compound_assign(&b.op) && !has_attrs(&b.left) =>
        {
            Some(&mut b.right)
        }
        _ => None,
    }
}

/// Whether the place an assignment writes carries an attribute: syn puts
/// a statement's attributes on its leftmost expression (`#[cfg(..)] acc`).
fn has_attrs(place: &Expr) -> bool {
    match place {
        Expr::Path(p) => !p.attrs.is_empty(),
        Expr::Field(f) => !f.attrs.is_empty() || has_attrs(&f.base),
        Expr::Index(i) => !i.attrs.is_empty() || has_attrs(&i.expr),
        Expr::Unary(u) => !u.attrs.is_empty(),
        Expr::Paren(p) => !p.attrs.is_empty(),
        // Any other place is not rewritten.
        _ => true,
    }
}

/// A pattern's bindings made `_`, for an arm whose body is dropped (its
/// guard, if any, keeps the pattern).
struct Unbind;

impl VisitMut for Unbind {
    fn visit_pat_mut(&mut self, pat: &mut Pat) {
        if let Pat::Ident(pi) = pat
            && pi.subpat.is_none()
            && !super::matching::names_constant(&pi.ident)
        {
            *pat = Pat::Wild(syn::PatWild {
                attrs: Vec::new(),
                underscore_token: syn::Token![_](pi.ident.span()),
            });
            return;
        }
        syn::visit_mut::visit_pat_mut(self, pat);
    }
}

impl Diverging {
    /// The exit statements and the value without them of an `if` or
    /// `match` with arms that exit and arms that do not; `None` for any
    /// other value.
    fn split(&mut self, e: &Expr) -> Option<(Vec<SynStmt>, Expr)> {
        match e {
            Expr::If(i) if matches!(*i.cond, Expr::Let(_)) => {
                match super::matching::if_let_as_match(i) {
                    Expr::Match(m) => self.split_match(&m),
                    _ => None,
                }
            }
            Expr::If(i) => split_if(i),
            Expr::Match(m) => self.split_match(m),
            _ => None,
        }
    }

    fn split_match(&mut self, m: &syn::ExprMatch) -> Option<(Vec<SynStmt>, Expr)> {
        let exits = m.arms.iter().filter(|a| diverges(&a.body)).count();
        if exits == 0 || exits == m.arms.len() {
            return None;
        }
        let mut stmts = Vec::new();
        let span = m.match_token.span;
        let scrutinee: Expr = if super::matching::is_place(&m.expr) {
            (*m.expr).clone()
        } else {
            let ident = syn::Ident::new(
                &format!("__ag_exit_scrutinee_{}", self.next),
                Span::mixed_site(),
            );
            self.next += 1;
            let value = &m.expr;
            stmts.push(syn::parse_quote_spanned!(span=> let #ident = #value;));
            syn::parse_quote!(#ident)
        };
        let mut exit = m.clone();
        exit.expr = Box::new(scrutinee.clone());
        for arm in exit.arms.iter_mut() {
            if diverges(&arm.body) {
                let block = exit_block(&arm.body);
                *arm.body = syn::parse_quote!(#block);
            } else {
                if !matches!(arm.pat, Pat::Guard(_)) {
                    Unbind.visit_pat_mut(&mut arm.pat);
                }
                *arm.body = syn::parse_quote_spanned!(arm.body.span()=> {});
            }
            arm.comma.get_or_insert_with(Default::default);
        }
        stmts.push(SynStmt::Expr(Expr::Match(exit), None));
        let mut value = m.clone();
        value.expr = Box::new(scrutinee);
        value.arms.retain(|a| !diverges(&a.body));
        Some((stmts, Expr::Match(value)))
    }
}

/// `if` / `else if` / `else` as its arms: each condition (`None` for the
/// last `else`) and block; `None` without a final `else` or with an
/// `if let` inside.
fn if_arms(i: &syn::ExprIf) -> Option<Vec<(Option<Expr>, syn::Block)>> {
    let mut arms = Vec::new();
    let mut at = i;
    loop {
        if matches!(*at.cond, Expr::Let(_)) {
            return None;
        }
        arms.push((Some((*at.cond).clone()), at.then_branch.clone()));
        match at.else_branch.as_ref().map(|(_, e)| &**e) {
            Some(Expr::If(next)) => at = next,
            Some(Expr::Block(b)) if b.attrs.is_empty() && b.label.is_none() => {
                arms.push((None, b.block.clone()));
                return Some(arms);
            }
            _ => return None,
        }
    }
}

/// The arms back into `if` / `else if` / `else`, the last one taken when
/// no other is.
fn if_chain(arms: &[(Option<Expr>, syn::Block)]) -> Expr {
    match arms {
        [] => syn::parse_quote!({}),
        [(None, last)] => syn::parse_quote!(#last),
        [(Some(cond), block)] => syn::parse_quote!(if #cond #block),
        [(Some(cond), block), rest @ ..] => {
            let rest = if_chain(rest);
            syn::parse_quote!(if #cond #block else #rest)
        }
        // Only the last arm has no condition.
        [(None, block), ..] => syn::parse_quote!(#block),
    }
}

fn split_if(i: &syn::ExprIf) -> Option<(Vec<SynStmt>, Expr)> {
    let arms = if_arms(i)?;
    let exits = arms.iter().filter(|(_, b)| diverges_block(b)).count();
    if exits == 0 || exits == arms.len() {
        return None;
    }
    // The exit statement: the arms that exit, the others empty; a
    // trailing empty `else` dropped, and one condition negated rather
    // than an empty first arm (`if !(c) { return v; }`).
    let mut exit: Vec<(Option<Expr>, syn::Block)> = arms
        .iter()
        .map(|(cond, b)| {
            let block = if diverges_block(b) {
                b.clone()
            } else {
                syn::parse_quote_spanned!(b.span()=> {})
            };
            (cond.clone(), block)
        })
        .collect();
    if exit.last().is_some_and(|(_, b)| b.stmts.is_empty()) {
        exit.pop();
    }
    let exit: Expr = match exit.as_slice() {
        [(Some(c), empty), (None, b)] if empty.stmts.is_empty() => {
            syn::parse_quote!(if !(#c) #b)
        }
        _ => if_chain(&exit),
    };
    let mut value: Vec<_> = arms
        .into_iter()
        .filter(|(_, b)| !diverges_block(b))
        .collect();
    if let Some(last) = value.last_mut() {
        last.0 = None;
    }
    Some((vec![SynStmt::Expr(exit, None)], if_chain(&value)))
}

/// `let Some(v) = e else { diverge };` (also `Some(&v)`, `Some(mut v)`,
/// `Some(_)`) as the `match` that takes the value out, its other arm the
/// exit, `let v = match e { Some(v) => v, _ => diverge };`, which the split
/// below and `matching` then take apart. The `Option` of `x.first()` (bound
/// once by the split) is then lowered as it is (see `first_last`), a
/// search's index is primal code, and any other `Option` a constant's.
///
/// `let Some((a, rest)) = x.split_first() else { diverge };` (or
/// `split_last`) binds two names: the `Option` is bound once, `scrutinee`,
/// its test is the exit's statement, and each name is read from it,
/// `let a = match s { Some((a, rest)) => a, _ => unreachable!() };`.
fn let_else(local: &syn::Local, scrutinee: &syn::Ident) -> Option<Vec<SynStmt>> {
    let init = local.init.as_ref()?;
    let (_, diverge) = init.diverge.as_ref()?;
    if !local.attrs.is_empty() {
        return None;
    }
    let (pat, e, span) = (&local.pat, &init.expr, local.let_token.span);
    if let Some((element, rest)) = super::first_last::split_binding(pat) {
        let mut stmts: Vec<SynStmt> = vec![
            syn::parse_quote_spanned!(span=> let #scrutinee = #e;),
            SynStmt::Expr(
                syn::parse_quote_spanned!(span=> match #scrutinee { Some(_) => {} _ => #diverge }),
                None,
            ),
        ];
        for pi in [element, rest].into_iter().flatten() {
            let (m, v) = (&pi.mutability, &pi.ident);
            stmts.push(syn::parse_quote_spanned!(v.span()=>
                let #m #v = match #scrutinee { #pat => #v, _ => ::core::unreachable!() };
            ));
        }
        return Some(stmts);
    }
    Some(vec![match some_binding(pat)? {
        Some(pi) => {
            let (m, v) = (&pi.mutability, &pi.ident);
            // The element by value where the pattern takes it so
            // (`Some(&v)`); `mut` is the `let`'s.
            let and = matches!(pat, Pat::TupleStruct(t) if matches!(t.elems[0], Pat::Reference(_)))
                .then(|| quote!(&));
            syn::parse_quote_spanned!(span=> let #m #v = match #e { Some(#and #v) => #v, _ => #diverge };)
        }
        None => SynStmt::Expr(
            syn::parse_quote_spanned!(span=> match #e { #pat => {} _ => #diverge }),
            None,
        ),
    }])
}

/// Whether the body has a `let Some(v) = e else { .. };`.
pub(super) fn has_some_let_else(body: &syn::Block) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            if l.init.as_ref().is_some_and(|i| i.diverge.is_some())
                && (some_binding(&l.pat).is_some()
                    || super::first_last::split_binding(&l.pat).is_some())
            {
                self.0 = true;
            }
            syn::visit::visit_local(self, l);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            // Not walked: a long sum nests thousands deep, and a `let` in
            // one is rare (it then keeps its error).
            let _ = b;
        }
    }
    let mut find = Find(false);
    syn::visit::Visit::visit_block(&mut find, body);
    find.0
}

impl Diverging {
    /// The statements with each whose value exits in an arm split (the
    /// statements of blocks inside them are split where the exits rewrite
    /// reaches them); `None` if none is.
    pub(super) fn split_stmts(&mut self, stmts: &[SynStmt]) -> Option<Vec<SynStmt>> {
        let mut changed = false;
        let mut out = Vec::with_capacity(stmts.len());
        for stmt in stmts {
            let stmts = match stmt {
                SynStmt::Local(local)
                    if let Some(stmts) = let_else(
                        local,
                        &syn::Ident::new(
                            &format!("__ag_exit_scrutinee_{}", self.next),
                            Span::mixed_site(),
                        ),
                    ) =>
                {
                    self.next += 1;
                    changed = true;
                    stmts
                }
                _ => vec![stmt.clone()],
            };
            for mut stmt in stmts {
                // The value left may split again (an `else if` that exits).
                while let Some(value) = value_of(&mut stmt)
                    && let Some((exits, rest)) = self.split(value)
                {
                    *value = rest;
                    out.extend(exits);
                    changed = true;
                }
                out.push(stmt);
            }
        }
        changed.then_some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::Diverging;
    use quote::ToTokens;
    use syn::visit_mut::VisitMut;

    /// Every list of statements of the body split, inner blocks first.
    fn desugar(body: &syn::Block) -> Option<syn::Block> {
        struct All(Diverging, bool);
        impl VisitMut for All {
            fn visit_block_mut(&mut self, block: &mut syn::Block) {
                syn::visit_mut::visit_block_mut(self, block);
                if let Some(stmts) = self.0.split_stmts(&block.stmts) {
                    block.stmts = stmts;
                    self.1 = true;
                }
            }
        }
        let mut all = All(Diverging::default(), false);
        let mut body = body.clone();
        all.visit_block_mut(&mut body);
        all.1.then_some(body)
    }

    fn rewritten(body: syn::Block) -> String {
        desugar(&body)
            .map(|b| b.into_token_stream().to_string())
            .unwrap_or_default()
    }

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
        let assign_with_cfg: syn::Block = syn::parse_quote!({
            #[cfg(any())]
            acc += if x > 0.0 { x } else { return 0.0 };
            acc
        });
        assert!(desugar(&assign_with_cfg).is_none());
    }

    #[test]
    fn a_match_arm_that_exits_becomes_a_statement_before_the_value() {
        let got = rewritten(syn::parse_quote!({
            let y = match k {
                0 => x * 2.0,
                _ => return x,
            };
            y
        }));
        // A string, so that rustfmt keeps the commas the rewrite writes.
        let want: syn::Block = syn::parse_str(
            "{ match k { 0 => {}, _ => { return x; }, } let y = match k { 0 => x * 2.0, }; y }",
        )
        .unwrap();
        assert_eq!(got, want.into_token_stream().to_string());
    }

    #[test]
    fn a_compound_assignment_and_an_exit_in_the_middle_of_a_chain() {
        let got = rewritten(syn::parse_quote!({
            acc += if a {
                x
            } else if b {
                continue;
            } else {
                y
            };
        }));
        let want: syn::Block = syn::parse_quote!({
            if a {
            } else if b {
                continue;
            }
            acc += if a { x } else { y };
        });
        assert_eq!(got, want.into_token_stream().to_string());
    }

    #[test]
    fn an_exit_inside_an_arm_value_is_not_rewritten() {
        let body: syn::Block = syn::parse_quote!({
            acc += x * if a { 1.0 } else { break };
        });
        assert!(desugar(&body).is_none());
    }
}
