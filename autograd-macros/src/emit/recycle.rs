//! `NAME_grad_acc` gives the buffers it owns back to the thread's pool
//! when its sweeps are done with them.
//!
//! The sweeps take their local `Vec`s (`vec![0.0; n]`), the copies a loop's
//! reverse starts from, and the zero adjoints of arrays from the pool
//! (`filled`, `copy`, `spare_or_copy`, `zero_like`): a second call with
//! the same sizes allocates nothing if the first one gave them back. A
//! buffer still owned where the function returns goes back there,
//! `recycle(x);` before the result, rather than being freed.
//!
//! Which locals still own such a buffer is read from the generated code, as
//! the borrow checker would: ownership passes by `let y = x;` and `y = x;`
//! (and a block's tail, `{ let mut a = x; a[i] = v; a }`); a loop keeps it
//! if its body hands it back by the body's end. Any other use of a name by
//! value, or any use in a closure, a macro, or a loop that may leave early,
//! counts as a move, so a buffer is only given back where the code surely
//! owns it: the borrow checker rejects a give-back of a moved value, and a
//! value given back cannot be read again. The result is never given back.

use std::collections::HashMap;

use proc_macro2::{TokenStream, TokenTree};
use quote::quote;
use syn::parse::Parser;
use syn::visit::{self, Visit};
use syn::{Expr, Pat, Stmt};

/// The runtime's functions whose result is a buffer the sweep owns.
const TAKES: &[&str] = &["filled", "copy", "spare_or_copy", "zero_like"];

/// Methods that take their receiver by reference: a call of one on a
/// buffer does not move it.
const BY_REF: &[&str] = &[
    "len",
    "is_empty",
    "iter",
    "iter_mut",
    "as_slice",
    "as_mut_slice",
    "push",
    "pop",
    "clear",
    "truncate",
    "fill",
    "extend_from_slice",
    "copy_from_slice",
    "first",
    "last",
    "get",
    "get_mut",
    "swap",
];

/// `stmts` followed by the give-back of every buffer they still own, then
/// `tail` (the function's result). Left as is if the statements do not
/// parse.
pub fn give_back(stmts: TokenStream, tail: TokenStream) -> TokenStream {
    let Ok(parsed) = syn::Block::parse_within.parse2(stmts.clone()) else {
        return quote!(#stmts #tail);
    };
    let mut owners = Owners::default();
    for stmt in &parsed {
        owners.stmt(stmt, true);
    }
    match syn::parse2::<Expr>(tail.clone()) {
        Ok(e) => owners.walk(&e),
        Err(_) => owners.forget_mentioned(tail.clone()),
    }
    // A pullback still alive may borrow a buffer.
    let borrowed: Vec<String> = owners.borrowers.values().flatten().cloned().collect();
    for b in borrowed {
        owners.owned.remove(&b);
    }
    let mut given: Vec<(usize, String)> = std::mem::take(&mut owners.owned)
        .into_iter()
        .filter_map(|(name, own)| match own {
            Own::Buffer(order) => Some((order, name)),
            Own::Empty => None,
        })
        .collect();
    given.sort();
    let given = given.into_iter().filter_map(|(_, name)| {
        let name = owners.spelling.get(&name)?;
        Some(quote!(::autograd::__private::recycle(#name);))
    });
    quote!(#stmts #(#given)* #tail)
}

/// What a local holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Own {
    /// A buffer (or a spare `Option` of one), with the order it was bound
    /// in: the give-backs follow it.
    Buffer(usize),
    /// A spare `Option` still `None`: given back only once a loop may have
    /// put a buffer in it (its type is then known).
    Empty,
}

#[derive(Default)]
struct Owners {
    owned: HashMap<String, Own>,
    /// Pullbacks bound at the top level, with the buffers their call
    /// borrowed: until one is called, those buffers stay.
    borrowers: HashMap<String, Vec<String>>,
    order: usize,
    /// Each name as the code spells it (its span, its hygiene).
    spelling: HashMap<String, syn::Ident>,
}

impl Owners {
    fn buffer(&mut self) -> Own {
        self.order += 1;
        Own::Buffer(self.order)
    }

    /// The effect of a statement; `top` for the function's own block,
    /// which runs once, straight through.
    fn stmt(&mut self, stmt: &Stmt, top: bool) -> Vec<String> {
        match stmt {
            Stmt::Local(l) => {
                if let Some(init) = l.init.as_ref().filter(|_| top) {
                    self.call_pullbacks(&init.expr);
                }
                let borrowed = match &l.init {
                    Some(init) => self.pullback_borrows(&init.expr),
                    None => Vec::new(),
                };
                let own = match &l.init {
                    Some(init) if init.diverge.is_none() => self.eval(&init.expr),
                    Some(init) => {
                        self.walk(&init.expr);
                        if let Some((_, e)) = &init.diverge {
                            self.walk(e);
                        }
                        None
                    }
                    None => None,
                };
                self.bind(&l.pat, own, borrowed, top)
            }
            Stmt::Expr(e, _) => {
                self.expr_stmt(e, top);
                Vec::new()
            }
            Stmt::Macro(m) => {
                self.forget_mentioned(m.mac.tokens.clone());
                Vec::new()
            }
            Stmt::Item(_) => Vec::new(),
        }
    }

    fn expr_stmt(&mut self, e: &Expr, top: bool) {
        if top {
            self.call_pullbacks(e);
        }
        match e {
            Expr::Assign(a) => {
                if let Some(name) = single_ident(&a.left) {
                    let borrowed = self.pullback_borrows(&a.right);
                    let own = self.eval(&a.right);
                    self.assign(&name, path_ident(&a.left), own);
                    self.borrow(vec![name], borrowed, top);
                } else {
                    self.place(&a.left);
                    self.walk(&a.right);
                }
            }
            Expr::Tuple(_) | Expr::Paren(_) => self.walk(e),
            Expr::ForLoop(f) => {
                self.walk(&f.expr);
                self.forget_pat(&f.pat);
                self.repeated(&f.body.stmts);
            }
            Expr::While(w) => {
                self.walk(&w.cond);
                self.repeated(&w.body.stmts);
            }
            Expr::Loop(l) => self.repeated(&l.body.stmts),
            _ => self.walk(e),
        }
    }

    /// Binds `pat` to a value owning `own`; returns the names bound.
    fn bind(
        &mut self,
        pat: &Pat,
        own: Option<Own>,
        borrowed: Vec<String>,
        top: bool,
    ) -> Vec<String> {
        let names = match simple_binding(pat) {
            Some(ident) => {
                let name = ident.to_string();
                self.assign(&name, Some(ident), own);
                vec![name]
            }
            None => {
                let names = pat_idents(pat);
                names.iter().for_each(|n| {
                    self.owned.remove(n);
                });
                names
            }
        };
        // The callee's value owns its data; its pullback (the last name)
        // may borrow the arguments.
        let pullback = names.last().cloned().into_iter().collect();
        self.borrow(pullback, borrowed, top);
        names
    }

    /// `name` (spelt `ident`, whose span the give-back keeps) now holds
    /// `own`.
    fn assign(&mut self, name: &str, ident: Option<syn::Ident>, own: Option<Own>) {
        if let Some(ident) = ident {
            self.spelling.insert(name.to_string(), ident);
        }
        match own {
            Some(o) => self.owned.insert(name.to_string(), o),
            None => self.owned.remove(name),
        };
    }

    /// `holders` may borrow `borrowed` until called; in a nested block,
    /// whose pullbacks this pass does not follow, the buffers are left.
    fn borrow(&mut self, holders: Vec<String>, borrowed: Vec<String>, top: bool) {
        if borrowed.is_empty() {
            return;
        }
        if !top || holders.is_empty() {
            for b in borrowed {
                self.owned.remove(&b);
            }
            return;
        }
        for h in holders {
            self.borrowers.insert(h, borrowed.clone());
        }
    }

    /// The buffers a call of a pullback-returning function (`__vjp_full`)
    /// in `e` reads.
    fn pullback_borrows(&self, e: &Expr) -> Vec<String> {
        struct Find<'a>(&'a Owners, Vec<String>);
        impl<'ast> Visit<'ast> for Find<'_> {
            fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
                if let Expr::Path(p) = &*c.func
                    && let Some(last) = p.path.segments.last()
                    && last.ident.to_string().contains("vjp")
                {
                    for a in &c.args {
                        let mut names = Vec::new();
                        idents(&quote!(#a), &mut names);
                        self.1
                            .extend(names.into_iter().filter(|n| self.0.owned.contains_key(n)));
                    }
                }
                visit::visit_expr_call(self, c);
            }
        }
        let mut f = Find(self, Vec::new());
        f.visit_expr(e);
        f.1
    }

    /// Pullbacks `e` surely calls (a call of a pullback is its last use:
    /// it takes the pullback by value).
    fn call_pullbacks(&mut self, e: &Expr) {
        match e {
            Expr::Call(c) => {
                if let Some(name) = single_ident(&c.func) {
                    self.borrowers.remove(&name);
                }
                c.args.iter().for_each(|a| self.call_pullbacks(a));
            }
            Expr::MethodCall(m) => {
                self.call_pullbacks(&m.receiver);
                m.args.iter().for_each(|a| self.call_pullbacks(a));
            }
            Expr::Assign(a) => self.call_pullbacks(&a.right),
            Expr::Paren(p) => self.call_pullbacks(&p.expr),
            Expr::Reference(r) => self.call_pullbacks(&r.expr),
            Expr::Tuple(t) => t.elems.iter().for_each(|a| self.call_pullbacks(a)),
            _ => {}
        }
    }

    /// A loop body, run any number of times: a buffer owned before it is
    /// owned after it if the body hands it back by its end.
    fn repeated(&mut self, stmts: &[Stmt]) {
        if stmts.iter().any(leaves_early) {
            for s in stmts {
                self.forget_mentioned(quote!(#s));
            }
            return;
        }
        let before = self.owned.clone();
        self.nested(stmts);
        let after = std::mem::take(&mut self.owned);
        self.owned = before
            .into_iter()
            .filter_map(|(name, b)| {
                let own = match (b, *after.get(&name)?) {
                    (Own::Empty, Own::Empty) => Own::Empty,
                    (Own::Buffer(o), Own::Empty) | (_, Own::Buffer(o)) => Own::Buffer(o),
                };
                Some((name, own))
            })
            .collect();
    }

    /// A block's statements; the names it declares go out of scope after
    /// it (and any outer name they shadow is taken as moved).
    fn nested(&mut self, stmts: &[Stmt]) {
        let mut declared = Vec::new();
        for s in stmts {
            declared.extend(self.stmt(s, false));
        }
        for d in declared {
            self.owned.remove(&d);
            self.borrowers.remove(&d);
        }
    }

    /// What `e`'s value owns, after its effects.
    fn eval(&mut self, e: &Expr) -> Option<Own> {
        match e {
            Expr::Path(p)
                if p.path.leading_colon.is_some()
                    && p.path
                        .segments
                        .iter()
                        .map(|s| s.ident.to_string())
                        .eq(["core", "option", "Option", "None"]) =>
            {
                Some(Own::Empty)
            }
            Expr::Path(_) => {
                let name = single_ident(e)?;
                self.owned.remove(&name)
            }
            Expr::Paren(p) => self.eval(&p.expr),
            Expr::Group(g) => self.eval(&g.expr),
            Expr::Call(c) => {
                let Expr::Path(p) = &*c.func else {
                    self.walk(e);
                    return None;
                };
                let segments: Vec<String> = p
                    .path
                    .segments
                    .iter()
                    .map(|s| s.ident.to_string())
                    .collect();
                let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
                match (p.path.leading_colon.is_some(), segments.as_slice()) {
                    (true, ["autograd", "__private", take]) if TAKES.contains(take) => {
                        c.args.iter().for_each(|a| self.walk(a));
                        Some(self.buffer())
                    }
                    (true, ["core", "option", "Option", "Some"]) if c.args.len() == 1 => {
                        self.eval(&c.args[0]).map(|_| self.buffer())
                    }
                    _ => {
                        self.walk(e);
                        None
                    }
                }
            }
            Expr::Block(b) if b.label.is_none() => {
                let stmts = &b.block.stmts;
                let Some((Stmt::Expr(tail, None), body)) = stmts.split_last() else {
                    self.nested(stmts);
                    return None;
                };
                let mut declared = Vec::new();
                for s in body {
                    declared.extend(self.stmt(s, false));
                }
                let own = self.eval(tail);
                for d in declared {
                    self.owned.remove(&d);
                }
                own
            }
            _ => {
                self.walk(e);
                None
            }
        }
    }

    /// The effects of evaluating `e`: every buffer it may move is no
    /// longer owned.
    fn walk(&mut self, e: &Expr) {
        Walk(self).visit_expr(e);
    }

    /// `e` used as a place (borrowed, indexed, assigned into).
    fn place(&mut self, e: &Expr) {
        match e {
            Expr::Path(_) if single_ident(e).is_some() => {}
            Expr::Index(i) => {
                self.place(&i.expr);
                self.walk(&i.index);
            }
            Expr::Field(f) => self.place(&f.base),
            Expr::Paren(p) => self.place(&p.expr),
            Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => self.place(&u.expr),
            Expr::MethodCall(m) if BY_REF.contains(&m.method.to_string().as_str()) => {
                self.place(&m.receiver);
                m.args.iter().for_each(|a| self.walk(a));
            }
            _ => self.walk(e),
        }
    }

    fn forget_pat(&mut self, pat: &Pat) {
        for n in pat_idents(pat) {
            self.owned.remove(&n);
            self.borrowers.remove(&n);
        }
    }

    /// Every name in `tokens` is taken as moved.
    fn forget_mentioned(&mut self, tokens: TokenStream) {
        let mut names = Vec::new();
        idents(&tokens, &mut names);
        for n in names {
            self.owned.remove(&n);
        }
    }
}

/// The visitor behind [`Owners::walk`].
struct Walk<'a>(&'a mut Owners);

impl<'ast> Visit<'ast> for Walk<'_> {
    fn visit_expr(&mut self, e: &'ast Expr) {
        match e {
            Expr::Path(_) => {
                if let Some(name) = single_ident(e) {
                    self.0.owned.remove(&name);
                }
            }
            Expr::Reference(r) => self.0.place(&r.expr),
            Expr::Index(i) => {
                self.0.place(&i.expr);
                self.0.walk(&i.index);
            }
            Expr::MethodCall(m) if BY_REF.contains(&m.method.to_string().as_str()) => {
                self.0.place(&m.receiver);
                m.args.iter().for_each(|a| self.0.walk(a));
            }
            Expr::Assign(a) => {
                match single_ident(&a.left) {
                    Some(name) => {
                        self.0.owned.remove(&name);
                    }
                    None => self.0.place(&a.left),
                }
                self.0.walk(&a.right);
            }
            Expr::Binary(b) if is_compound_assign(&b.op) => {
                self.0.place(&b.left);
                self.0.walk(&b.right);
            }
            Expr::Closure(_) | Expr::Macro(_) | Expr::Verbatim(_) => {
                self.0.forget_mentioned(quote!(#e));
            }
            _ => visit::visit_expr(self, e),
        }
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        if let Some(init) = &l.init {
            self.visit_expr(&init.expr);
            if let Some((_, e)) = &init.diverge {
                self.visit_expr(e);
            }
        }
        self.0.forget_pat(&l.pat);
    }

    fn visit_pat(&mut self, p: &'ast Pat) {
        self.0.forget_pat(p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.0.forget_mentioned(m.tokens.clone());
    }
}

fn is_compound_assign(op: &syn::BinOp) -> bool {
    use syn::BinOp::*;
    matches!(
        op,
        AddAssign(_)
            | SubAssign(_)
            | MulAssign(_)
            | DivAssign(_)
            | RemAssign(_)
            | BitXorAssign(_)
            | BitAndAssign(_)
            | BitOrAssign(_)
            | ShlAssign(_)
            | ShrAssign(_)
    )
}

/// The name `e` is, if it is one.
fn single_ident(e: &Expr) -> Option<String> {
    match e {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().map(ToString::to_string),
        _ => None,
    }
}

/// The name `e` is, as spelt.
fn path_ident(e: &Expr) -> Option<syn::Ident> {
    match e {
        Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
        _ => None,
    }
}

/// The one name a `let` binds, if it binds one (`x`, `mut x`, `x: T`).
fn simple_binding(pat: &Pat) -> Option<syn::Ident> {
    match pat {
        Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(pi.ident.clone()),
        Pat::Type(pt) => simple_binding(&pt.pat),
        _ => None,
    }
}

fn pat_idents(pat: &Pat) -> Vec<String> {
    let mut names = Vec::new();
    idents(&quote!(#pat), &mut names);
    names
}

/// Every identifier in `tokens`.
fn idents(tokens: &TokenStream, out: &mut Vec<String>) {
    for t in tokens.clone() {
        match t {
            TokenTree::Ident(i) => out.push(i.to_string()),
            TokenTree::Group(g) => idents(&g.stream(), out),
            _ => {}
        }
    }
}

/// Whether a loop body statement may leave the body before its end
/// (`break`, `continue`, `return`, `?`, or a macro, which may hide one).
fn leaves_early(stmt: &Stmt) -> bool {
    fn scan(tokens: TokenStream) -> bool {
        let mut after_ident = false;
        tokens.into_iter().any(|t| {
            let leaves = match &t {
                TokenTree::Ident(i) => i == "break" || i == "continue" || i == "return",
                TokenTree::Punct(p) => p.as_char() == '?' || (p.as_char() == '!' && after_ident),
                TokenTree::Group(g) => scan(g.stream()),
                TokenTree::Literal(_) => false,
            };
            // `name!` is a macro; `if !x`, `in !x`, `= !x` are not.
            after_ident = matches!(&t, TokenTree::Ident(i)
                if !["if", "while", "match", "in", "let", "else", "move", "return"]
                    .contains(&i.to_string().as_str()));
            leaves
        })
    }
    scan(quote!(#stmt))
}

#[cfg(test)]
mod tests {
    use super::give_back;
    use quote::quote;

    /// The names `stmts` followed by `tail` gives back, in order.
    fn given(stmts: proc_macro2::TokenStream, tail: proc_macro2::TokenStream) -> Vec<String> {
        let out = give_back(stmts, tail).to_string();
        out.split("recycle (")
            .skip(1)
            .map(|s| s.split(')').next().unwrap().trim().to_string())
            .collect()
    }

    #[test]
    fn a_buffer_passed_on_by_let_and_through_a_loop_goes_back() {
        let names = given(
            quote! {
                let a = ::autograd::__private::filled(0.0, n);
                let mut c = ::autograd::__private::copy(&a);
                for i in 0..n {
                    let e = c;
                    let w = { let mut t = e; t[i] = 1.0; t };
                    c = w;
                }
                let b = c;
                let d = ::autograd::__private::zero_like(&b);
            },
            quote!(result),
        );
        assert_eq!(names, ["a", "b", "d"]);
    }

    #[test]
    fn a_moved_or_returned_buffer_stays() {
        let names = given(
            quote! {
                let a = ::autograd::__private::filled(0.0, n);
                let b = ::autograd::__private::filled(0.0, n);
                let c = ::autograd::__private::filled(0.0, n);
                let d = ::autograd::__private::filled(0.0, n);
                consume(a);
                if flag { drop(b) }
                let f = move || c.len();
            },
            quote!(d),
        );
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn a_loop_that_may_leave_early_or_not_hand_back_keeps_nothing() {
        let names = given(
            quote! {
                let mut a = ::autograd::__private::filled(0.0, n);
                let mut b = ::autograd::__private::filled(0.0, n);
                for i in 0..n {
                    let e = a;
                    if e[i] > 0.0 { break; }
                    a = e;
                }
                for i in 0..n {
                    let e = b;
                    b = other(e);
                }
            },
            quote!(result),
        );
        assert!(names.is_empty(), "{names:?}");
    }

    #[test]
    fn a_buffer_a_pullback_borrows_stays_until_the_pullback_is_called() {
        let names = given(
            quote! {
                let a = ::autograd::__private::filled(0.0, n);
                let b = ::autograd::__private::filled(0.0, n);
                let (v, pb) = f::__vjp_full(&a);
                let (w, pc) = g::__vjp_full(&b);
                let (da,) = pb(1.0);
            },
            quote!(result),
        );
        assert_eq!(names, ["a"]);
    }

    #[test]
    fn a_spare_goes_back_once_a_loop_may_fill_it() {
        let names = given(
            quote! {
                let a = ::autograd::__private::filled(0.0, n);
                let mut s = ::core::option::Option::None;
                let mut never = ::core::option::Option::None;
                for i in 0..n {
                    let e = ::autograd::__private::spare_or_copy(&mut s, &a);
                    s = ::core::option::Option::Some(e);
                }
            },
            quote!(result),
        );
        assert_eq!(names, ["a", "s"]);
    }
}
