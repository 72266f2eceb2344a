//! `if let Some(v) = x.first() { a } else { b }` and the same `match`
//! (also `last()`, `Some(&v)`, after `.copied()` / `.cloned()`, arms
//! with guards, a tuple of them: `match (x.first(), x.last())`),
//! rewritten before lowering into the test and the element it is:
//!
//! ```text
//! if let Some(v) = x.first() { a } else { b }   →   if !x.is_empty() { let v = x[0]; a } else { b }
//! ```
//!
//! as `x.first().unwrap()` is read as `x[0]`: the derivative flows into
//! the element read, and an empty slice takes the `None` arm exactly as
//! the function itself does. `x.first().copied().unwrap_or(d)` is `if
//! !x.is_empty() { x[0] } else { d }`, and `let Some(v) = x.first() else {
//! .. };` the test `if x.len() == 0 { .. }` then `let v = x[0];`. Any
//! other pattern on an `Option` of a differentiable value keeps its error.

use syn::visit_mut::VisitMut;

use super::*;

/// Rewrites every such `if let` and `match` of the body; `None` if there
/// is none.
pub(super) fn desugar(body: &syn::Block) -> Option<syn::Block> {
    // Only a body that calls `first` or `last`, or searches, can have one.
    let mut finder = super::exits::Finder::new(
        |e: &Expr| matches!(e, Expr::MethodCall(m) if pick(m).is_some() || super::iter::is_search(m) || reduce_of(m).is_some()),
    );
    syn::visit::Visit::visit_block(&mut finder, body);
    if !finder.found && !has_some_let_else(body) {
        return None;
    }
    let mut rewrite = FirstLast { changed: false };
    let mut body = body.clone();
    rewrite.visit_block_mut(&mut body);
    rewrite.changed.then_some(body)
}

struct FirstLast {
    changed: bool,
}

/// Which end of the slice `x.first()` / `x.last()` reads: the slice and
/// the element's index; `None` for any other call or a receiver that is
/// not a place (it is read twice).
fn pick(m: &syn::ExprMethodCall) -> Option<(&Expr, Expr)> {
    if let Some(best) = best_index(m) {
        return Some(best);
    }
    if !m.args.is_empty() || m.turbofish.is_some() || !super::matching::is_place(&m.receiver) {
        return None;
    }
    let x = &*m.receiver;
    let span = m.method.span();
    if m.method == "first" {
        Some((x, syn::parse_quote_spanned!(span=> 0)))
    } else if m.method == "last" {
        Some((x, syn::parse_quote_spanned!(span=> #x.len() - 1)))
    } else {
        None
    }
}

/// `x.iter().max_by(cmp)` or `min_by` (also after `.copied()` /
/// `.cloned()`) of a place `x`: `x` and the index of the element it picks,
/// `(0..x.len()).max_by(|&i, &j| cmp(&x[i], &x[j])).unwrap()` (an integer
/// search, primal code), read where `x` is not empty. Both keep the last
/// of equal maxima and the first of equal minima, as the element search
/// does, so the derivative flows into the element picked.
pub(super) fn best_index(m: &syn::ExprMethodCall) -> Option<(&Expr, Expr)> {
    if !(m.method == "max_by" || m.method == "min_by") || m.args.len() != 1 || m.turbofish.is_some()
    {
        return None;
    }
    let Expr::MethodCall(last) = strip_parens(&m.receiver) else {
        return None;
    };
    let mut chain = last;
    // Items by value (`copied`): the comparison takes `&f64`; by
    // reference, `&&f64`.
    let by_value = (chain.method == "copied" || chain.method == "cloned") && chain.args.is_empty();
    if by_value {
        let Expr::MethodCall(inner) = strip_parens(&chain.receiver) else {
            return None;
        };
        chain = inner;
    }
    if chain.method != "iter"
        || !chain.args.is_empty()
        || !super::matching::is_place(&chain.receiver)
    {
        return None;
    }
    let x = &*chain.receiver;
    let (cmp, method) = (&m.args[0], &m.method);
    let span = m.method.span();
    let (i, j) = (
        syn::Ident::new("i", Span::mixed_site()),
        syn::Ident::new("j", Span::mixed_site()),
    );
    let refs = if by_value { quote!(&) } else { quote!(&&) };
    Some((
        x,
        syn::parse_quote_spanned!(span=>
            (0..#x.len())
                .#method(|&#i, &#j| ::autograd::__private::compare_by(#refs #x[#i], #refs #x[#j], #cmp))
                .unwrap()
        ),
    ))
}

/// `x.iter().copied().reduce(f)` (or `.cloned()`) of a place `x`: `x`,
/// `f`, and the receiver of `reduce`.
fn reduce_of(m: &syn::ExprMethodCall) -> Option<(&Expr, &Expr, &Expr)> {
    if m.method != "reduce" || m.args.len() != 1 || m.turbofish.is_some() {
        return None;
    }
    let Expr::MethodCall(by_value) = strip_parens(&m.receiver) else {
        return None;
    };
    if !(by_value.method == "copied" || by_value.method == "cloned") || !by_value.args.is_empty() {
        return None;
    }
    let Expr::MethodCall(iter) = strip_parens(&by_value.receiver) else {
        return None;
    };
    if iter.method != "iter" || !iter.args.is_empty() || !super::matching::is_place(&iter.receiver)
    {
        return None;
    }
    Some((&iter.receiver, &m.args[0], &m.receiver))
}

/// `x.iter().copied().reduce(f).unwrap()` (`.expect(..)`) and
/// `.unwrap_or(d)`: the fold of the rest from the first element,
/// `chain.skip(1).fold(x[0], f)`, as `reduce` computes, where `x` is not
/// empty (`unwrap` of an empty one panics as the function's does).
fn unwrapped_reduce(m: &syn::ExprMethodCall) -> Option<Expr> {
    let default = match (m.method.to_string().as_str(), m.args.len()) {
        ("unwrap", 0) | ("expect", 1) => None,
        ("unwrap_or", 1) => Some(&m.args[0]),
        _ => return None,
    };
    let Expr::MethodCall(reduce) = strip_parens(&m.receiver) else {
        return None;
    };
    let (x, f, chain) = reduce_of(reduce)?;
    let span = reduce.method.span();
    let folded: Expr = syn::parse_quote_spanned!(span=> #chain.skip(1).fold(#x[0], #f));
    Some(match default {
        Some(d) => syn::parse_quote_spanned!(span=> if !#x.is_empty() { #folded } else { #d }),
        None => folded,
    })
}

/// Whether the `max_by`/`min_by` `m` searches items by value (`copied`).
fn best_by_value(m: &syn::ExprMethodCall) -> bool {
    matches!(strip_parens(&m.receiver), Expr::MethodCall(c) if c.method == "copied" || c.method == "cloned")
}

/// The `Option` a scrutinee reads: `x.first()`, `x.last()`, also after
/// `.copied()` / `.cloned()`.
fn option_of(e: &Expr) -> Option<(&Expr, Expr)> {
    let Expr::MethodCall(m) = strip_parens(e) else {
        return None;
    };
    if (m.method == "copied" || m.method == "cloned") && m.args.is_empty() {
        let Expr::MethodCall(inner) = strip_parens(&m.receiver) else {
            return None;
        };
        return pick(inner);
    }
    pick(m)
}

/// The `Option`s a scrutinee reads: one (`x.first()`), or a tuple of them
/// (`(x.first(), x.last())`).
fn options_of(e: &Expr) -> Option<Vec<(&Expr, Expr)>> {
    match strip_parens(e) {
        Expr::Tuple(t) if !t.elems.is_empty() => t.elems.iter().map(option_of).collect(),
        e => Some(vec![option_of(e)?]),
    }
}

/// The test an arm's pattern (with its guard) makes of the `Option`s and
/// the reads of the elements it binds, which come first in the arm's
/// block (and in the guard, which may read them): `Some(v)` tests that
/// the slice is not empty and reads `v`, `None` that it is, `_` nothing.
/// `None` for any other pattern.
fn arm_test(
    options: &[(&Expr, Expr)],
    pat: &Pat,
    guard: Option<&Expr>,
) -> Option<(Expr, Vec<SynStmt>)> {
    let parts: Vec<&Pat> = match pat {
        Pat::Tuple(t) if options.len() > 1 => {
            if t.elems.len() != options.len() {
                return None;
            }
            t.elems.iter().collect()
        }
        Pat::Wild(_) => vec![pat; options.len()],
        pat if options.len() == 1 => vec![pat],
        _ => return None,
    };
    let mut tests: Vec<Expr> = Vec::new();
    let mut reads: Vec<SynStmt> = Vec::new();
    for ((x, index), part) in options.iter().zip(parts) {
        if let Some(binding) = some_binding(part) {
            tests.push(syn::parse_quote!(!#x.is_empty()));
            if let Some(pi) = binding {
                let (m, v) = (&pi.mutability, &pi.ident);
                reads.push(syn::parse_quote_spanned!(v.span()=> let #m #v = #x[#index];));
            }
        } else if matches!(part, Pat::Wild(_)) {
        } else if is_none(part) {
            tests.push(syn::parse_quote!(#x.len() == 0));
        } else {
            return None;
        }
    }
    if let Some(g) = guard {
        tests.push(if reads.is_empty() {
            g.clone()
        } else {
            syn::parse_quote!({ #(#reads)* #g })
        });
    }
    let test = match tests.split_first() {
        None => syn::parse_quote!(true),
        Some((first, rest)) => rest
            .iter()
            .fold(first.clone(), |acc, t| syn::parse_quote!(#acc && #t)),
    };
    Some((test, reads))
}

/// What `Some(..)` binds: `Some(v)`, `Some(&v)`, `Some(mut v)`: the name
/// (with its `mut`), or `Some(_)`: nothing; `None` for any other pattern.
pub(super) fn some_binding(pat: &Pat) -> Option<Option<&syn::PatIdent>> {
    let Pat::TupleStruct(ts) = pat else {
        return None;
    };
    if !ts.path.is_ident("Some") || ts.qself.is_some() || ts.elems.len() != 1 {
        return None;
    }
    let mut inner = &ts.elems[0];
    if let Pat::Reference(r) = inner {
        inner = &r.pat;
    }
    match inner {
        Pat::Wild(_) => Some(None),
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(Some(pi)),
        _ => None,
    }
}

pub(super) fn is_none(pat: &Pat) -> bool {
    match pat {
        Pat::Wild(_) => true,
        Pat::Ident(pi) => pi.ident == "None" && pi.subpat.is_none(),
        Pat::Path(p) => p.path.is_ident("None"),
        _ => false,
    }
}

/// A block, or an arm's value as one.
fn as_block(e: &Expr) -> syn::Block {
    match e {
        Expr::Block(b) if b.attrs.is_empty() && b.label.is_none() => b.block.clone(),
        e => syn::parse_quote_spanned!(e.span()=> { #e }),
    }
}

/// `x.first().copied().unwrap_or(d)` (or `.cloned()`, or `last()`): the
/// element and the default, `None` for anything else. The `Option` of a
/// reference, `x.first().unwrap_or(&d)`, is not one: its value is a
/// reference.
fn unwrap_or_of(m: &syn::ExprMethodCall) -> Option<((&Expr, Expr), &Expr)> {
    if m.method != "unwrap_or" || m.args.len() != 1 || m.turbofish.is_some() {
        return None;
    }
    let Expr::MethodCall(by_value) = strip_parens(&m.receiver) else {
        return None;
    };
    // `x.iter().copied().max_by(..).unwrap_or(d)`: the items are values.
    if let Some(best) = best_index(by_value)
        && best_by_value(by_value)
    {
        return Some((best, &m.args[0]));
    }
    if by_value.method != "copied" && by_value.method != "cloned" {
        return None;
    }
    Some((option_of(&m.receiver)?, &m.args[0]))
}

/// `let Some(v) = x.first() else { diverge };` (also `Some(&v)`,
/// `Some(mut v)`, `last()`, after `.copied()`): the test of its own, then
/// the read, `if x.len() == 0 { diverge } let v = x[0];`.
fn let_else(local: &syn::Local) -> Option<Vec<SynStmt>> {
    let init = local.init.as_ref()?;
    let (_, diverge) = init.diverge.as_ref()?;
    if !local.attrs.is_empty() {
        return None;
    }
    if let Expr::MethodCall(m) = strip_parens(&init.expr)
        && super::iter::is_search(m)
    {
        return search_let_else(local, &init.expr, diverge);
    }
    if let Some(stmts) = split_let_else(local, &init.expr, diverge) {
        return Some(stmts);
    }
    let Some((x, index)) = option_of(&init.expr) else {
        return option_let_else(local, &init.expr, diverge);
    };
    let binding = some_binding(&local.pat)?;
    let span = local.let_token.span;
    let test: SynStmt = syn::parse_quote_spanned!(span=> if #x.len() == 0 #diverge);
    let mut stmts = vec![test];
    if let Some(pi) = binding {
        let (m, v) = (&pi.mutability, &pi.ident);
        stmts.push(syn::parse_quote_spanned!(v.span()=> let #m #v = #x[#index];));
    }
    Some(stmts)
}

/// What `Some((a, rest))` binds: the element's pattern and the rest's,
/// each a name or `_` (the element also `&a`); `None` for any other
/// pattern.
fn split_binding(pat: &Pat) -> Option<(Option<&syn::PatIdent>, Option<&syn::PatIdent>)> {
    let Pat::TupleStruct(ts) = pat else {
        return None;
    };
    if !ts.path.is_ident("Some") || ts.qself.is_some() || ts.elems.len() != 1 {
        return None;
    }
    let Pat::Tuple(pair) = &ts.elems[0] else {
        return None;
    };
    fn name(p: &Pat, by_ref: bool) -> Option<Option<&syn::PatIdent>> {
        let p = match p {
            Pat::Reference(r) if by_ref => &*r.pat,
            p => p,
        };
        match p {
            Pat::Wild(_) => Some(None),
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(Some(pi)),
            _ => None,
        }
    }
    match pair.elems.iter().collect::<Vec<_>>()[..] {
        [element, rest] => Some((name(element, true)?, name(rest, false)?)),
        _ => None,
    }
}

/// `let Some((a, rest)) = x.split_first() else { diverge };` (or
/// `split_last`) of a place `x`: the test of its own, then the element and
/// the sub-slice, `if x.len() == 0 { diverge } let a = x[0]; let rest =
/// &x[1..];`.
fn split_let_else(local: &syn::Local, e: &Expr, diverge: &Expr) -> Option<Vec<SynStmt>> {
    let Expr::MethodCall(m) = strip_parens(e) else {
        return None;
    };
    if !m.args.is_empty() || m.turbofish.is_some() || !super::matching::is_place(&m.receiver) {
        return None;
    }
    let x = &*m.receiver;
    let span = m.method.span();
    let (index, rest): (Expr, Expr) = if m.method == "split_first" {
        (
            syn::parse_quote_spanned!(span=> 0),
            syn::parse_quote_spanned!(span=> &#x[1..]),
        )
    } else if m.method == "split_last" {
        (
            syn::parse_quote_spanned!(span=> #x.len() - 1),
            syn::parse_quote_spanned!(span=> &#x[..#x.len() - 1]),
        )
    } else {
        return None;
    };
    let (element, tail) = split_binding(&local.pat)?;
    let test_span = local.let_token.span;
    let mut stmts: Vec<SynStmt> =
        vec![syn::parse_quote_spanned!(test_span=> if #x.len() == 0 #diverge)];
    if let Some(pi) = element {
        let (m, v) = (&pi.mutability, &pi.ident);
        stmts.push(syn::parse_quote_spanned!(v.span()=> let #m #v = #x[#index];));
    }
    if let Some(pi) = tail {
        let (m, v) = (&pi.mutability, &pi.ident);
        stmts.push(syn::parse_quote_spanned!(v.span()=> let #m #v = #rest;));
    }
    Some(stmts)
}

/// Whether the body has a `let Some(v) = e else { .. };`.
fn has_some_let_else(body: &syn::Block) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            if l.init.as_ref().is_some_and(|i| i.diverge.is_some())
                && (some_binding(&l.pat).is_some() || split_binding(&l.pat).is_some())
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

/// `let Some(v) = e else { diverge };` of any other `Option` (a
/// `#[constant]` one, an element of constant data): the `match` that takes
/// the value out, its other arm the exit, `let v = match e { Some(v) => v,
/// _ => diverge };`, which `matching` and `diverging` then take apart.
fn option_let_else(local: &syn::Local, e: &Expr, diverge: &Expr) -> Option<Vec<SynStmt>> {
    let pi = some_binding(&local.pat)??;
    let (m, v) = (&pi.mutability, &pi.ident);
    let span = local.let_token.span;
    Some(vec![syn::parse_quote_spanned!(span=>
        let #m #v = match #e {
            Some(#v) => #v,
            _ => #diverge,
        };
    )])
}

/// `let Some(i) = x.iter().position(..) else { diverge };`: the index,
/// primal code, taken out by a `match` whose other arm diverges.
fn search_let_else(local: &syn::Local, search: &Expr, diverge: &Expr) -> Option<Vec<SynStmt>> {
    let pi = some_binding(&local.pat)??;
    let (m, v) = (&pi.mutability, &pi.ident);
    let span = local.let_token.span;
    Some(vec![syn::parse_quote_spanned!(span=>
        let #m #v = match #search {
            Some(#v) => #v,
            _ => #diverge,
        };
    )])
}

impl FirstLast {
    fn rewrite(&self, e: &Expr) -> Option<Expr> {
        match e {
            Expr::MethodCall(m) if let Some(folded) = unwrapped_reduce(m) => Some(folded),
            Expr::MethodCall(m) => {
                let ((x, index), default) = unwrap_or_of(m)?;
                let span = m.method.span();
                Some(
                    syn::parse_quote_spanned!(span=> if !#x.is_empty() { #x[#index] } else { #default }),
                )
            }
            Expr::If(i) if let Expr::Let(l) = &*i.cond => {
                // `if let (Some(a), Some(b)) = (x.first(), y.last())`.
                let options = options_of(&l.expr)?;
                let (test, reads) = arm_test(&options, &l.pat, None)?;
                let mut then = i.then_branch.clone();
                then.stmts.splice(0..0, reads);
                let none = match &i.else_branch {
                    Some((_, e)) => as_block(e),
                    None => syn::parse_quote!({}),
                };
                Some(syn::parse_quote_spanned!(i.if_token.span=> if #test #then else #none))
            }
            Expr::Match(m) => {
                let options = options_of(&m.expr)?;
                // Each arm a test and a block, in order; the last is taken
                // when no other is (rustc has checked the `match` is
                // exhaustive).
                let mut arms = Vec::new();
                for arm in &m.arms {
                    let (pat, guard) = match &arm.pat {
                        Pat::Guard(g) => (&*g.pat, Some(&*g.guard)),
                        pat => (pat, None),
                    };
                    let (test, reads) = arm_test(&options, pat, guard)?;
                    let mut block = as_block(&arm.body);
                    block.stmts.splice(0..0, reads);
                    arms.push((test, block));
                }
                let span = m.match_token.span;
                let (_, last) = arms.pop()?;
                let mut chain: Expr = syn::parse_quote!(#last);
                for (test, block) in arms.into_iter().rev() {
                    chain = syn::parse_quote_spanned!(span=> if #test #block else #chain);
                }
                Some(chain)
            }
            _ => None,
        }
    }
}

impl VisitMut for FirstLast {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        // A closure's body is lowered on its own.
        if matches!(e, Expr::Closure(_)) {
            return;
        }
        if visit_binary_spine_mut(e, &mut |x| self.visit_expr_mut(x)) {
            return;
        }
        if let Some(rewritten) = self.rewrite(e) {
            *e = rewritten;
            self.changed = true;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        let mut stmts = Vec::with_capacity(b.stmts.len());
        for stmt in b.stmts.drain(..) {
            match &stmt {
                SynStmt::Local(local) if let Some(pair) = let_else(local) => {
                    stmts.extend(pair);
                    self.changed = true;
                }
                _ => stmts.push(stmt),
            }
        }
        b.stmts = stmts;
        syn::visit_mut::visit_block_mut(self, b);
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
