//! `Option` locals of a float, rewritten before lowering into a flag and
//! a value:
//!
//! ```text
//! let mut prev: Option<f64> = None;      →   let mut prev_is_some = false; let mut prev_value: f64 = 0.0;
//! prev = Some(v);                        →   { prev_value = v; prev_is_some = true; }
//! if let Some(p) = prev { a } else { b } →   if prev_is_some { let p = prev_value; a } else { b }
//! ```
//!
//! (the two names are the macro's, invisible to the body), and likewise
//! `match prev { Some(p) => a, None => b }`, `prev.unwrap_or(d)`,
//! `prev.is_some()`, `prev.is_none()` and `let Some(p) = prev else { .. };`.
//! The derivative flows through the value where the flag holds, as the
//! function's own `Option` does; the value stands unused while the flag is
//! false. A local holding a slice's end, `let head = x.first();` of a slice
//! the body never rebinds or changes, is that call where it is read, which
//! `first_last` takes apart.
//!
//! Only a name bound once in the body is rewritten, so every path naming it
//! is the local; any other read of it is one error saying what to write.

use std::collections::HashMap;

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::first_last::{is_none, some_binding};
use super::*;

/// The rewritten body; `None` if it has no `Option` local.
pub(super) fn desugar(
    cx: &Ctxt,
    body: &syn::Block,
    scalar: Option<&syn::Ident>,
    params: &[String],
) -> Option<syn::Block> {
    let mut scan = Scan::default();
    scan.visit_block(body);
    let options: Vec<OptionLocal> = scan
        .candidates
        .into_iter()
        .filter(|c| scan.names.rewritable(&c.name.to_string(), params))
        .filter(|c| match &c.init {
            Init::End(x) => params.contains(x) && !scan.names.binds(x) && !scan.changed.contains(x),
            _ => true,
        })
        .collect();
    if options.is_empty() {
        return None;
    }
    let mut rewrite = Rewrite {
        cx,
        options: options
            .into_iter()
            .map(|o| (o.name.to_string(), o))
            .collect(),
        scalar: scalar.cloned(),
    };
    let mut body = body.clone();
    rewrite.visit_block_mut(&mut body);
    Some(body)
}

#[derive(Clone)]
enum Init {
    /// `None`, `Some(e)`.
    None,
    Some(Expr),
    /// `x.first()`, `x.last()` (maybe `.copied()`): the slice's name.
    End(String),
}

#[derive(Clone)]
struct OptionLocal {
    name: syn::Ident,
    /// The annotated float, `Option<f64>`.
    float: Option<syn::Type>,
    init: Init,
    /// The whole initialiser as written (for `Init::End`).
    expr: Expr,
}

impl OptionLocal {
    fn flag(&self) -> syn::Ident {
        syn::Ident::new(
            &format!("{}_is_some", self.name),
            Span::mixed_site().located_at(self.name.span()),
        )
    }

    fn value(&self) -> syn::Ident {
        syn::Ident::new(
            &format!("{}_value", self.name),
            Span::mixed_site().located_at(self.name.span()),
        )
    }
}

/// `Option<F>` with `F` one identifier (a float, or the function's scalar).
fn option_float(ty: &syn::Type) -> Option<syn::Type> {
    let syn::Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if p.qself.is_some() || last.ident != "Option" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(syn::GenericArgument::Type(t @ syn::Type::Path(inner)))
            if args.args.len() == 1 && inner.path.get_ident().is_some() =>
        {
            Some(t.clone())
        }
        _ => None,
    }
}

/// `x.first()`, `x.last()`, `x.first().copied()` of a plain name `x`.
fn slice_end(e: &Expr) -> Option<String> {
    let Expr::MethodCall(m) = strip_parens(e) else {
        return None;
    };
    if (m.method == "copied" || m.method == "cloned") && m.args.is_empty() {
        return slice_end(&m.receiver);
    }
    if !(m.method == "first" || m.method == "last") || !m.args.is_empty() {
        return None;
    }
    let Expr::Path(p) = strip_parens(&m.receiver) else {
        return None;
    };
    p.path.get_ident().map(|i| i.to_string())
}

fn is_none_path(e: &Expr) -> bool {
    matches!(strip_parens(e), Expr::Path(p) if p.path.is_ident("None"))
}

fn some_arg(e: &Expr) -> Option<&Expr> {
    match strip_parens(e) {
        Expr::Call(c) if c.args.len() == 1 => match &*c.func {
            Expr::Path(p) if p.path.is_ident("Some") => Some(&c.args[0]),
            _ => None,
        },
        _ => None,
    }
}

/// `o = e` with `e` an `if` with an `else`, a `match` or a block whose
/// values are the `Option`: the assignment of each value, in its branch;
/// `o = o` is nothing, an arm that exits (`return`, `break`, `continue`)
/// stays as it is. `None` for anything else.
fn assign_in_branches(target: &Expr, e: &Expr) -> Option<Expr> {
    let assign = |value: &Expr| -> Option<Expr> {
        match strip_parens(value) {
            Expr::Return(_) | Expr::Break(_) | Expr::Continue(_) => Some(value.clone()),
            v if v.to_token_stream().to_string() == target.to_token_stream().to_string() => {
                Some(syn::parse_quote!({}))
            }
            v @ (Expr::If(_) | Expr::Match(_) | Expr::Block(_)) => assign_in_branches(target, v),
            v => Some(syn::parse_quote_spanned!(v.span()=> #target = #v)),
        }
    };
    let in_block = |b: &syn::Block| -> Option<syn::Block> {
        let mut b = b.clone();
        let Some(SynStmt::Expr(tail, None)) = b.stmts.pop() else {
            return None;
        };
        let assigned = assign(&tail)?;
        b.stmts.push(syn::parse_quote!(#assigned;));
        Some(b)
    };
    match strip_parens(e) {
        Expr::If(i) => {
            let (_, otherwise) = i.else_branch.as_ref()?;
            let mut i = i.clone();
            i.then_branch = in_block(&i.then_branch)?;
            *i.else_branch.as_mut()?.1 = assign(otherwise)?;
            Some(Expr::If(i))
        }
        Expr::Match(m) => {
            let mut m = m.clone();
            for arm in m.arms.iter_mut() {
                let body = assign(&arm.body)?;
                *arm.body = syn::parse_quote!({ #body; });
                arm.comma = Some(Default::default());
            }
            Some(Expr::Match(m))
        }
        Expr::Block(b) if b.label.is_none() => {
            let mut b = b.clone();
            b.block = in_block(&b.block)?;
            Some(Expr::Block(b))
        }
        _ => None,
    }
}

/// Counts the bindings of every name, finds the `Option` locals and the
/// names that are assigned, borrowed mutably or changed by a method.
#[derive(Default)]
struct Scan {
    names: BodyNames,
    candidates: Vec<OptionLocal>,
    changed: Vec<String>,
}

/// How often each name is bound in a body, and the names in its macros'
/// tokens (which a rewrite cannot see): a local bound once, that no macro
/// names and that is no argument, is named by every path naming it.
#[derive(Default)]
pub(super) struct BodyNames {
    bindings: HashMap<String, usize>,
    in_macros: Vec<String>,
}

impl BodyNames {
    pub(super) fn bind(&mut self, p: &syn::PatIdent) {
        *self.bindings.entry(p.ident.to_string()).or_default() += 1;
    }

    pub(super) fn read_macro(&mut self, m: &syn::Macro) {
        fn collect(t: proc_macro2::TokenTree, out: &mut Vec<String>) {
            match t {
                proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
                proc_macro2::TokenTree::Group(g) => {
                    g.stream().into_iter().for_each(|t| collect(t, out))
                }
                _ => {}
            }
        }
        m.tokens
            .clone()
            .into_iter()
            .for_each(|t| collect(t, &mut self.in_macros));
    }

    /// Whether every path naming `name` in the body is its one local.
    pub(super) fn rewritable(&self, name: &str, params: &[String]) -> bool {
        self.rewritable_bound(name, params, 1)
    }

    /// Whether every path naming `name` in the body is one of its `n`
    /// locals (each a binding the caller knows).
    pub(super) fn rewritable_bound(&self, name: &str, params: &[String], n: usize) -> bool {
        self.bindings.get(name) == Some(&n)
            && !params.iter().any(|p| p == name)
            && !self.in_macros.iter().any(|m| m == name)
    }

    /// Whether the body binds `name` anywhere.
    pub(super) fn binds(&self, name: &str) -> bool {
        self.bindings.contains_key(name)
    }
}

fn root_name(e: &Expr) -> Option<String> {
    match strip_parens(e) {
        Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
        Expr::Field(f) => root_name(&f.base),
        Expr::Index(i) => root_name(&i.expr),
        _ => None,
    }
}

impl<'ast> Visit<'ast> for Scan {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.names.bind(p);
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let (pat, ty) = match &l.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        if let (Pat::Ident(pi), Some(init)) = (pat, &l.init)
            && pi.by_ref.is_none()
            && pi.subpat.is_none()
            && init.diverge.is_none()
        {
            let float = ty.and_then(option_float);
            let typed = ty.is_none() || float.is_some();
            let kind = if is_none_path(&init.expr) {
                Some(Init::None)
            } else if let Some(e) = some_arg(&init.expr) {
                Some(Init::Some(e.clone()))
            } else {
                slice_end(&init.expr).map(Init::End)
            };
            if let (Some(init_kind), true) = (kind, typed) {
                // `let o = None;` without a type is only an `Option` the
                // body assigns later: rustc has its type from there.
                self.candidates.push(OptionLocal {
                    name: pi.ident.clone(),
                    float,
                    init: init_kind,
                    expr: (*init.expr).clone(),
                });
            }
        }
        syn::visit::visit_local(self, l);
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        match e {
            Expr::Assign(a) => {
                if let Some(n) = root_name(&a.left) {
                    self.changed.push(n);
                }
            }
            Expr::Reference(r) if r.mutability.is_some() => {
                if let Some(n) = root_name(&r.expr) {
                    self.changed.push(n);
                }
            }
            Expr::MethodCall(m)
                if !matches!(
                    m.method.to_string().as_str(),
                    "first" | "last" | "len" | "is_empty" | "iter" | "copied" | "cloned"
                ) =>
            {
                if let Some(n) = root_name(&m.receiver) {
                    self.changed.push(n);
                }
            }
            Expr::Binary(_) => {
                // A long sum nests to the left: walked in a loop.
                let mut spine = e;
                while let Expr::Binary(b) = spine {
                    if let Some(n) = matches!(
                        b.op,
                        BinOp::AddAssign(_)
                            | BinOp::SubAssign(_)
                            | BinOp::MulAssign(_)
                            | BinOp::DivAssign(_)
                    )
                    .then(|| root_name(&b.left))
                    .flatten()
                    {
                        self.changed.push(n);
                    }
                    self.visit_expr(&b.right);
                    spine = &b.left;
                }
                return self.visit_expr(spine);
            }
            _ => {}
        }
        syn::visit::visit_expr(self, e);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.names.read_macro(m);
    }
}

struct Rewrite<'a> {
    cx: &'a Ctxt,
    options: HashMap<String, OptionLocal>,
    scalar: Option<syn::Ident>,
}

impl Rewrite<'_> {
    /// The `Option` local an expression names.
    fn option(&self, e: &Expr) -> Option<OptionLocal> {
        let Expr::Path(p) = strip_parens(e) else {
            return None;
        };
        let ident = p.path.get_ident()?;
        self.options.get(&ident.to_string()).cloned()
    }

    /// The value's start where the flag is false: `0.0`, or the scalar's
    /// zero in a generic function.
    fn zero(&self, float: Option<&syn::Type>) -> Expr {
        match (float, &self.scalar) {
            (Some(t), _) if float_ident(t).is_none() => syn::parse_quote!(#t::zero()),
            (None, Some(s)) => syn::parse_quote!(#s::zero()),
            _ => syn::parse_quote!(0.0),
        }
    }

    /// The statements a `let` of an `Option` local becomes.
    fn declare(&mut self, o: &OptionLocal, mutable: bool) -> Vec<SynStmt> {
        let (flag, value) = (o.flag(), o.value());
        let m = mutable.then(|| quote!(mut));
        let ty = o.float.as_ref().map(|t| quote!(: #t));
        match &o.init {
            Init::End(_) => Vec::new(),
            Init::None => {
                let zero = self.zero(o.float.as_ref());
                vec![
                    syn::parse_quote!(let #m #flag = false;),
                    syn::parse_quote!(let #m #value #ty = #zero;),
                ]
            }
            Init::Some(e) => {
                let mut e = e.clone();
                self.visit_expr_mut(&mut e);
                vec![
                    syn::parse_quote!(let #m #flag = true;),
                    syn::parse_quote!(let #m #value #ty = #e;),
                ]
            }
        }
    }

    /// `let p = value;` for what a `Some(..)` pattern binds.
    fn bind(o: &OptionLocal, binding: Option<&syn::PatIdent>) -> Vec<SynStmt> {
        let value = o.value();
        match binding {
            Some(pi) => {
                let (m, v) = (&pi.mutability, &pi.ident);
                vec![syn::parse_quote_spanned!(v.span()=> let #m #v = #value;)]
            }
            None => Vec::new(),
        }
    }

    fn error(&self, at: &Expr, name: &str) {
        self.cx.error_spanned_by(
            at,
            format!(
                "the `Option` local `{name}` is read with `if let Some(v) = {name}`, `match {name} {{ Some(v) => .., None => .. }}`, `{name}.unwrap_or(d)`, `{name}.is_some()`, `{name}.is_none()` or `let Some(v) = {name} else {{ .. }};`, and set with `{name} = Some(e)` or `{name} = None`"
            ),
        );
    }

    /// The rewrite of `e` if it is one of the forms, else `None`.
    fn rewrite(&mut self, e: &Expr) -> Option<Expr> {
        match e {
            Expr::Assign(a) => {
                let o = self.option(&a.left)?;
                if matches!(o.init, Init::End(_)) {
                    return None;
                }
                let (flag, value) = (o.flag(), o.value());
                if is_none_path(&a.right) {
                    return Some(syn::parse_quote_spanned!(a.span()=> #flag = false));
                }
                let Some(v) = some_arg(&a.right) else {
                    // `o = if c { Some(a) } else { None }`, `o = match ..`:
                    // the assignment in each branch.
                    let mut spread = assign_in_branches(&a.left, &a.right)?;
                    self.visit_expr_mut(&mut spread);
                    return Some(spread);
                };
                let mut v = v.clone();
                self.visit_expr_mut(&mut v);
                Some(syn::parse_quote_spanned!(a.span()=> { #value = #v; #flag = true; }))
            }
            Expr::MethodCall(m) => {
                let o = self.option(&m.receiver)?;
                if let Init::End(_) = o.init {
                    return None;
                }
                let (flag, value) = (o.flag(), o.value());
                match (m.method.to_string().as_str(), m.args.len()) {
                    ("is_some", 0) => Some(syn::parse_quote!(#flag)),
                    ("is_none", 0) => Some(syn::parse_quote!((!#flag))),
                    ("unwrap_or", 1) => {
                        let mut d = m.args[0].clone();
                        self.visit_expr_mut(&mut d);
                        Some(syn::parse_quote!((if #flag { #value } else { #d })))
                    }
                    _ => None,
                }
            }
            Expr::If(i) => {
                let Expr::Let(l) = &*i.cond else {
                    return None;
                };
                let o = self.option(&l.expr)?;
                if let Init::End(_) = o.init {
                    return None;
                }
                let binding = some_binding(&l.pat)?;
                let flag = o.flag();
                let mut then = i.then_branch.clone();
                then.stmts.splice(0..0, Self::bind(&o, binding));
                self.visit_block_mut(&mut then);
                let otherwise = match &i.else_branch {
                    Some((_, e)) => {
                        let mut e = (**e).clone();
                        self.visit_expr_mut(&mut e);
                        quote!(else #e)
                    }
                    None => TokenStream::new(),
                };
                Some(syn::parse_quote_spanned!(i.if_token.span=> if #flag #then #otherwise))
            }
            // Each arm a test and a block, in order, the last taken when no
            // other is (rustc has checked the `match` is exhaustive).
            Expr::Match(m) => {
                let o = self.option(&m.expr)?;
                if let Init::End(_) = o.init {
                    return None;
                }
                let flag = o.flag();
                let mut arms = Vec::new();
                for arm in &m.arms {
                    let (pat, guard) = match &arm.pat {
                        Pat::Guard(g) => (&*g.pat, Some(&*g.guard)),
                        pat => (pat, None),
                    };
                    let (test, binds): (Expr, Vec<SynStmt>) =
                        if let Some(binding) = some_binding(pat) {
                            (syn::parse_quote!(#flag), Self::bind(&o, binding))
                        } else if matches!(pat, Pat::Wild(_)) {
                            (syn::parse_quote!(true), Vec::new())
                        } else if is_none(pat) {
                            (syn::parse_quote!((!#flag)), Vec::new())
                        } else {
                            return None;
                        };
                    let mut body = (*arm.body).clone();
                    self.visit_expr_mut(&mut body);
                    let cond: Expr = match guard {
                        None => test,
                        Some(g) => {
                            let mut g = g.clone();
                            self.visit_expr_mut(&mut g);
                            syn::parse_quote_spanned!(g.span()=> if #test { #(#binds)* #g } else { false })
                        }
                    };
                    arms.push((cond, quote!({ #(#binds)* #body })));
                }
                let (_, last) = arms.pop()?;
                let mut chain: Expr = syn::parse_quote!(#last);
                for (cond, block) in arms.into_iter().rev() {
                    chain =
                        syn::parse_quote_spanned!(m.match_token.span=> if #cond #block else #chain);
                }
                Some(chain)
            }
            _ => None,
        }
    }
}

impl VisitMut for Rewrite<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if visit_binary_spine_mut(e, &mut |x| self.visit_expr_mut(x)) {
            return;
        }
        if let Some(rewritten) = self.rewrite(e) {
            *e = rewritten;
            return;
        }
        if let Some(o) = self.option(e) {
            match &o.init {
                // `head` of `let head = x.first();` is the call itself.
                Init::End(_) => *e = o.expr.clone(),
                _ => self.error(e, &o.name.to_string()),
            }
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        let mut stmts = Vec::with_capacity(b.stmts.len());
        for mut stmt in b.stmts.drain(..) {
            if let SynStmt::Local(l) = &stmt {
                let (pat, _) = match &l.pat {
                    Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
                    p => (p, None),
                };
                // The `let` of an `Option` local.
                if let Pat::Ident(pi) = pat
                    && let Some(o) = self.options.get(&pi.ident.to_string()).cloned()
                    && l.init.is_some()
                {
                    stmts.extend(self.declare(&o, pi.mutability.is_some()));
                    continue;
                }
                // `let Some(p) = o else { diverge };`
                if let Some(init) = &l.init
                    && let Some((_, diverge)) = &init.diverge
                    && let Some(o) = self.option(&init.expr)
                    && !matches!(o.init, Init::End(_))
                    && let Some(binding) = some_binding(pat)
                {
                    let flag = o.flag();
                    let mut diverge = (**diverge).clone();
                    self.visit_expr_mut(&mut diverge);
                    stmts.push(
                        syn::parse_quote_spanned!(l.let_token.span=> if !#flag { #diverge; }),
                    );
                    stmts.extend(Self::bind(&o, binding));
                    continue;
                }
            }
            self.visit_stmt_mut(&mut stmt);
            stmts.push(stmt);
        }
        b.stmts = stmts;
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
