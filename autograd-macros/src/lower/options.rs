//! `Option` locals, lowered where the body writes them:
//!
//! ```text
//! let mut prev: Option<f64> = None;      →   a flag (a primal `bool`, false) and a value (the float's zero)
//! prev = Some(v);                        →   the value assigned v, the flag true
//! prev = None;                           →   the flag false
//! if let Some(p) = prev { a } else { b } →   a branch on the flag, `p` the value in its arm
//! ```
//!
//! The two are variables of the lowering (named `prev_is_some` and
//! `prev_value` in the macro's hygiene, which no path of the body can
//! spell), so loops carry them and branches join them as they do any
//! variable; the `let` binds the user's name to the pair. The derivative
//! flows through the value where the flag holds, as the function's own
//! `Option` does; the value stands unused while the flag is false.
//!
//! `if let`, `match` and `let .. else` on such a local reach lowering as
//! `matching` and `diverging` write every `match`: each arm's test, `match
//! prev { Some(_) => true, _ => false }` (the flag, or its negation for
//! `None`), and the names it binds, `match prev { Some(p) => p, _ =>
//! unreachable!() }` (the value). `prev.unwrap_or(d)` is two branches on the
//! flag, `prev.is_some()` the flag, `prev.is_none()` its negation,
//! `matches!(prev, Some(p) if p > 1.0)` the guard read where the flag
//! holds. An assignment of an `if`, a block (or a `match`, an `if` chain by
//! then) assigns the value of each branch in the branch; `let q = prev;` is
//! a copy of the pair. Any other read of the local is one error saying what
//! to write. A local named in a macro other than `matches!` is left to the
//! general lowering, as the macro's tokens read the local itself.

use std::collections::HashMap;

use syn::visit::Visit;

use super::first_last::{is_none, some_binding};
use super::items::Item;
use super::*;

/// An `Option` local: its name, and the identifiers of the two variables it
/// is, in the macro's hygiene.
#[derive(Clone)]
pub(super) struct OptionLocal {
    pub(super) name: syn::Ident,
    flag: syn::Ident,
    value: syn::Ident,
}

/// What the `let` of an `Option` local starts from.
enum Start<'a> {
    None,
    Some(&'a Expr),
    /// `let q = prev;` of another `Option` local.
    Copy(OptionLocal),
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

/// The error at a read of the `Option` local `name` that is none of the
/// forms lowered.
pub(super) fn misread_message(name: &syn::Ident) -> String {
    format!(
        "the `Option` local `{name}` is read with `if let Some(v) = {name}`, `match {name} {{ Some(v) => .., None => .. }}`, `{name}.unwrap_or(d)`, `{name}.is_some()`, `{name}.is_none()` or `let Some(v) = {name} else {{ .. }};`, and set with `{name} = Some(e)` or `{name} = None`"
    )
}

/// Whether a macro in `rest` (the statements after the `let` of `name`)
/// names it otherwise than as the scrutinee of `matches!(name, PAT)`
/// (whose test is lowered): its tokens then read the local itself.
fn named_in_macros(name: &syn::Ident, rest: &[SynStmt]) -> bool {
    struct Macros<'a> {
        name: &'a syn::Ident,
        found: bool,
    }
    fn mentions(tokens: TokenStream, name: &syn::Ident) -> bool {
        tokens.into_iter().any(|t| match t {
            proc_macro2::TokenTree::Ident(i) => i == *name,
            proc_macro2::TokenTree::Group(g) => mentions(g.stream(), name),
            _ => false,
        })
    }
    impl<'ast> Visit<'ast> for Macros<'_> {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            if let Some((scrutinee, pat, guard)) = matching::matches_parts(m)
                && matches!(strip_parens(&scrutinee), Expr::Path(p) if p.path.is_ident(self.name))
                && !mentions(pat.to_token_stream(), self.name)
                && !guard.is_some_and(|g| mentions(g.to_token_stream(), self.name))
            {
                return;
            }
            if mentions(m.tokens.clone(), self.name) {
                self.found = true;
            }
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut macros = Macros { name, found: false };
    for stmt in rest {
        macros.visit_stmt(stmt);
    }
    macros.found
}

/// The flag's test a pattern makes, what `Some(..)` binds with it.
enum Test<'a> {
    Some(Option<&'a syn::PatIdent>),
    None,
    Any,
}

fn pattern_test(pat: &Pat) -> Option<Test<'_>> {
    if let Some(binding) = some_binding(pat) {
        Some(Test::Some(binding))
    } else if matches!(pat, Pat::Wild(_)) {
        Some(Test::Any)
    } else if is_none(pat) {
        Some(Test::None)
    } else {
        None
    }
}

impl Lowerer<'_> {
    /// `let [mut] o[: Option<F>] = None;` (or `Some(e)`, or another
    /// `Option` local): the flag and the value bound where the `let`
    /// stands, `o` bound to them. `false`, binding nothing, for any other
    /// `let`, and for a local a macro after it names (see
    /// [`named_in_macros`]).
    pub(super) fn bind_option(&mut self, local: &syn::Local, rest: &[SynStmt]) -> bool {
        let Some(init) = local.init.as_ref().filter(|i| i.diverge.is_none()) else {
            return false;
        };
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        let Pat::Ident(pi) = pat else { return false };
        if !local.attrs.is_empty() || pi.by_ref.is_some() || pi.subpat.is_some() {
            return false;
        }
        let float = ty.and_then(option_float);
        if ty.is_some() && float.is_none() {
            return false;
        }
        let start = if is_none_path(&init.expr) {
            Start::None
        } else if let Some(e) = some_arg(&init.expr) {
            Start::Some(e)
        } else if let Some(o) = self.option_named(&init.expr) {
            Start::Copy(o)
        } else {
            return false;
        };
        if named_in_macros(&pi.ident, rest) {
            return false;
        }
        let mutable = pi.mutability.is_some();
        let at = Span::mixed_site().located_at(pi.ident.span());
        let o = OptionLocal {
            name: pi.ident.clone(),
            flag: syn::Ident::new(&format!("{}_is_some", pi.ident), at),
            value: syn::Ident::new(&format!("{}_value", pi.ident), at),
        };
        let span = init.expr.span();
        let (flag, value) = match start {
            Start::Copy(from) => (
                Operand::Value(self.option_flag(&from)),
                Operand::Value(self.option_value(&from)),
            ),
            Start::None => (
                Operand::Const(quote!(false)),
                self.option_zero(float.as_ref()),
            ),
            Start::Some(e) => (Operand::Const(quote!(true)), self.lower_expr(e)),
        };
        self.bind_operand(Some(&o.flag), mutable, None, flag, span);
        // `let v: f64 = ..` of a float, as `let` lowers it.
        let value = match &float {
            Some(t) if self.scalar_ident(t).is_some() => self.lift_opaque(value, span),
            _ => value,
        };
        self.bind_operand(Some(&o.value), mutable, float, value, span);
        let flag = self.option_flag(&o);
        let k = self.option_locals.len();
        self.option_locals.push(o);
        if let Some(scope) = self.scopes.last_mut() {
            // Never assigned itself: its two variables are.
            scope.push(Binding {
                name: pi.ident.to_string(),
                context: hygiene(&pi.ident),
                value: flag,
                mutable: false,
                ty: None,
                option: Some(k),
                inout: false,
                nested: None,
                record: None,
                field: None,
            });
        }
        true
    }

    /// The value's start where the flag is false: `0.0`, or the scalar's
    /// zero in a generic function.
    fn option_zero(&mut self, float: Option<&syn::Type>) -> Operand {
        let zero: Expr = match (float, &self.scalar) {
            (Some(t), _) if float_ident(t).is_none() => syn::parse_quote!(#t::zero()),
            (None, Some(s)) => syn::parse_quote!(#s::zero()),
            _ => syn::parse_quote!(0.0),
        };
        self.lower_expr(&zero)
    }

    /// The `Option` local an expression names.
    pub(super) fn option_named(&self, e: &Expr) -> Option<OptionLocal> {
        if self.option_locals.is_empty() {
            return None;
        }
        let Expr::Path(p) = strip_parens(e) else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let k = self.lookup(p.path.get_ident()?)?.option?;
        self.option_locals.get(k).cloned()
    }

    /// The flag's current value.
    fn option_flag(&mut self, o: &OptionLocal) -> ValueId {
        self.option_part(&o.flag)
    }

    /// The value's current value.
    fn option_value(&mut self, o: &OptionLocal) -> ValueId {
        self.option_part(&o.value)
    }

    fn option_part(&mut self, ident: &syn::Ident) -> ValueId {
        match self.lookup(ident) {
            Some(b) => b.value,
            // Bound beside the local's name, in its scope: never missing
            // where the name is found.
            None => {
                let v = self.emit(Op::Missing, Kind::Unknown, ident.span());
                self.missing.insert(v);
                v
            }
        }
    }

    /// `!flag`, a primal `bool`.
    fn flag_negated(&mut self, flag: ValueId, span: Span) -> Operand {
        let p = super::primal::placeholder(0, span);
        let expr: Expr = syn::parse_quote!(!#p);
        let bindings = vec![(p.to_string(), flag)];
        Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Bool, span))
    }

    /// A read of an `Option` local that is none of the forms lowered.
    pub(super) fn option_misread(&mut self, at: &Expr, o: &OptionLocal) -> Operand {
        self.cx.error_spanned_by(at, misread_message(&o.name));
        self.missing(at.span())
    }

    /// `o = e;` of an `Option` local; `false` for any other assignment.
    pub(super) fn lower_option_assign(&mut self, a: &syn::ExprAssign) -> bool {
        let Some(o) = self.option_named(&a.left) else {
            return false;
        };
        self.assign_option(&o, &a.right, a.span());
        true
    }

    /// `o = e`: `None` sets the flag false, `Some(v)` the value and the
    /// flag; another `Option` local is copied, `o` itself is nothing; an
    /// `if` (a `match` as its chain) or a block assigns the value of each
    /// branch in the branch.
    fn assign_option(&mut self, o: &OptionLocal, e: &Expr, span: Span) {
        if let Some(chain) = self.match_chain(strip_parens(e)) {
            return self.assign_option(o, &chain, span);
        }
        let place = |ident: &syn::Ident| -> Expr { syn::parse_quote!(#ident) };
        let (flag, value) = (place(&o.flag), place(&o.value));
        match strip_parens(e) {
            e if is_none_path(e) => self.assign(&flag, Operand::Const(quote!(false)), span),
            e if let Some(v) = some_arg(e) => {
                let v = self.lower_expr(v);
                self.assign(&value, v, span);
                self.assign(&flag, Operand::Const(quote!(true)), span);
            }
            e if let Some(from) = self.option_named(e) => {
                if from.flag != o.flag {
                    let (f, v) = (self.option_flag(&from), self.option_value(&from));
                    self.assign(&value, Operand::Value(v), span);
                    self.assign(&flag, Operand::Value(f), span);
                }
            }
            Expr::Block(b) if b.label.is_none() => {
                self.scopes.push(Vec::new());
                self.assign_option_block(o, &b.block);
                self.scopes.pop();
            }
            Expr::If(i) if i.else_branch.is_some() && !matches!(*i.cond, Expr::Let(_)) => {
                let predicate = super::control::cfg_condition(&i.cond);
                let cond = match &predicate {
                    Some(p) => Operand::Const(quote!(::core::cfg!(#p))),
                    None => self.lower_expr(&i.cond),
                };
                let then = |l: &mut Self| {
                    l.assign_option_block(o, &i.then_branch);
                    None
                };
                let otherwise = |l: &mut Self| {
                    if let Some((_, e)) = &i.else_branch {
                        match &**e {
                            Expr::Block(b) if b.label.is_none() => {
                                l.assign_option_block(o, &b.block)
                            }
                            e => l.assign_option(o, e, e.span()),
                        }
                    }
                    None
                };
                let else_span = i.else_branch.as_ref().map_or(span, |(_, e)| e.span());
                let _ = self.lower_branches(
                    cond,
                    predicate,
                    false,
                    (i.then_branch.span(), then),
                    (else_span, otherwise),
                );
            }
            // `unreachable!()` in an arm: no value.
            e @ Expr::Macro(_) => self.lower_stmt_expr(e),
            e => {
                self.cx.error_spanned_by(e, misread_message(&o.name));
            }
        }
    }

    /// A block assigned to an `Option` local: its statements, then its
    /// value assigned; a block without a value (one that diverges)
    /// assigns nothing.
    fn assign_option_block(&mut self, o: &OptionLocal, b: &syn::Block) {
        match b.stmts.split_last() {
            Some((SynStmt::Expr(tail, None), rest)) => {
                self.lower_stmts(rest);
                self.nesting += 1;
                self.assign_option(o, tail, tail.span());
                self.nesting -= 1;
            }
            _ => {
                self.lower_stmts(&b.stmts);
            }
        }
    }

    /// The test `match o { PAT => true, _ => false }` of an `Option`
    /// local (a guard too, from `matches!(o, PAT if g)`): `Some(..)` the
    /// flag, `None` its negation, the guard read where they hold with what
    /// `Some(v)` binds. `None` for any other scrutinee.
    pub(super) fn lower_option_test(&mut self, m: &syn::ExprMatch) -> Option<Operand> {
        let o = self.option_named(&m.expr)?;
        let (pat, guard) = match &m.arms[0].pat {
            Pat::Guard(g) => (&*g.pat, Some(&*g.guard)),
            pat => (pat, None),
        };
        let span = pat.span();
        let Some(test) = pattern_test(pat) else {
            return Some(self.option_misread(&m.expr, &o));
        };
        let flag = self.option_flag(&o);
        let cond = match test {
            Test::Some(_) => Operand::Value(flag),
            Test::None => self.flag_negated(flag, span),
            Test::Any => {
                return Some(guard.map_or(Operand::Const(quote!(true)), |g| self.lower_expr(g)));
            }
        };
        let Some(guard) = guard else {
            return Some(cond);
        };
        let binding = match test {
            Test::Some(binding) => binding,
            _ => None,
        };
        let then = |l: &mut Self| {
            if let Some(pi) = binding {
                let v = l.option_value(&o);
                l.bind(&pi.ident, v, pi.mutability.is_some(), None);
            }
            Some(Item::Value(l.lower_expr(guard)))
        };
        let otherwise = |l: &mut Self| {
            let no = l.materialize(Operand::Const(quote!(false)), Kind::Bool, span);
            Some(Item::Value(Operand::Value(no)))
        };
        Some(
            match self.lower_branches(cond, None, true, (guard.span(), then), (span, otherwise)) {
                Ok(Some(Item::Value(v))) => v,
                // A guard that is no one value was reported.
                _ => self.missing(span),
            },
        )
    }

    /// The name `match o { Some(v) => v, _ => unreachable!() }` binds of an
    /// `Option` local: its value. `None` for any other scrutinee.
    pub(super) fn lower_option_payload(&mut self, m: &syn::ExprMatch) -> Option<Operand> {
        let o = self.option_named(&m.expr)?;
        match (some_binding(&m.arms[0].pat), &*m.arms[0].body) {
            (Some(Some(pi)), Expr::Path(read)) if read.path.is_ident(&pi.ident) => {
                Some(Operand::Value(self.option_value(&o)))
            }
            _ => Some(self.option_misread(&m.expr, &o)),
        }
    }

    /// `o.is_some()`, `o.is_none()` and `o.unwrap_or(d)` of an `Option`
    /// local: the flag, its negation, two branches on it; any other method
    /// is the error. `None` for any other receiver.
    pub(super) fn lower_option_method(&mut self, m: &syn::ExprMethodCall) -> Option<Operand> {
        let o = self.option_named(&m.receiver)?;
        let flag = self.option_flag(&o);
        let span = m.span();
        Some(match (m.method.to_string().as_str(), m.args.len()) {
            _ if m.turbofish.is_some() => self.option_misread(&m.receiver, &o),
            ("is_some", 0) => Operand::Value(flag),
            ("is_none", 0) => self.flag_negated(flag, span),
            ("unwrap_or", 1) => {
                let value = |l: &mut Self| Some(Item::Value(Operand::Value(l.option_value(&o))));
                let default = |l: &mut Self| Some(Item::Value(l.lower_expr(&m.args[0])));
                match self.lower_branches(
                    Operand::Value(flag),
                    None,
                    true,
                    (span, value),
                    (m.args[0].span(), default),
                ) {
                    Ok(Some(Item::Value(v))) => v,
                    // A default that is no one value was reported.
                    _ => self.missing(span),
                }
            }
            _ => self.option_misread(&m.receiver, &o),
        })
    }

    /// `o.is_some()` or `o.is_none()` of an `Option` local in primal code:
    /// the flag's current value, and whether it is negated.
    pub(super) fn option_flag_read(&self, m: &syn::ExprMethodCall) -> Option<(ValueId, bool)> {
        let o = self.option_named(&m.receiver)?;
        let negated = match m.method.to_string().as_str() {
            "is_some" => false,
            "is_none" => true,
            _ => return None,
        };
        let flag = self.lookup(&o.flag)?.value;
        (m.args.is_empty() && m.turbofish.is_none()).then_some((flag, negated))
    }

    /// Whether an expression reads an `Option` local's value by
    /// `unwrap_or` (outside closures): a comparison or a logical operator
    /// with one is lowered operand by operand, as one with an `if`.
    pub(super) fn reads_option_value(&self, e: &Expr) -> bool {
        struct Finder<'a, 'b> {
            lowerer: &'a Lowerer<'b>,
            found: bool,
        }
        impl<'ast> Visit<'ast> for Finder<'_, '_> {
            fn visit_expr(&mut self, e: &'ast Expr) {
                match e {
                    Expr::MethodCall(m)
                        if m.method == "unwrap_or"
                            && self.lowerer.option_named(&m.receiver).is_some() =>
                    {
                        self.found = true
                    }
                    Expr::Closure(_) => {}
                    e => syn::visit::visit_expr(self, e),
                }
            }
            fn visit_item(&mut self, _: &'ast syn::Item) {}
        }
        if self.option_locals.is_empty() {
            return false;
        }
        let mut finder = Finder {
            lowerer: self,
            found: false,
        };
        finder.visit_expr(e);
        finder.found
    }
}

/// How often each name is bound in a body, and the names in its macros'
/// tokens (which a rewrite cannot see): a local bound once, that no macro
/// names and that is no argument, is named by every path naming it. Read
/// by the `records` rewrite (for the struct locals it still takes), which
/// runs before lowering.
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

    /// Whether every path naming `name` in the body is one of its `n`
    /// locals (each a binding the caller knows).
    pub(super) fn rewritable_bound(&self, name: &str, params: &[String], n: usize) -> bool {
        self.bindings.get(name) == Some(&n)
            && !params.iter().any(|p| p == name)
            && !self.in_macros.iter().any(|m| m == name)
    }
}
