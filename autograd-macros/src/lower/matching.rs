//! `match` on integers, `bool`s and enums, and `if let`, lowered where
//! they stand as the `if` / `else if` chain they are: each arm's condition
//! is a pattern test (`match s { PAT => true, _ => false }`, primal code
//! kept as written) and its guard; the arm's bindings of the scrutinee
//! become a `let` in the guard and the body; a scrutinee that is not a
//! place is bound once, before the chain. The sweeps then replay exactly
//! the arm taken, as they do for any branch. The lowerer makes the chain
//! where it meets the `match` ([`Lowerer::match_chain`]); the exits
//! rewrite, which runs before lowering, makes it for a `match` with an exit
//! in an arm, whose exits it must see ([`chain`]).
//!
//! `matches!(e, PAT if guard)` is lowered where it stands: the pattern
//! test with its guard, one primal `bool`.

use std::borrow::Cow;

use super::*;

/// The `if` chain a `match` is, or an `if let` (`if let PAT = e { a } else
/// { b }` is `match e { PAT => a, _ => b }`); `None` for any other
/// expression, a pattern test and a payload read among them (primal code).
/// `next` numbers the scrutinees the chains bind.
pub(super) fn chain(cx: &Ctxt, e: &Expr, next: &mut u32) -> Option<Expr> {
    let m = match e {
        Expr::Match(m) if !is_pattern_test(m) && !is_payload(m) => Cow::Borrowed(m),
        Expr::If(i) if matches!(*i.cond, Expr::Let(_)) => match if_let_as_match(i) {
            Expr::Match(m) => Cow::Owned(m),
            _ => return None,
        },
        _ => return None,
    };
    let mut rewrite = Matches { cx, next: *next };
    let chain = rewrite.rewrite(&m);
    *next = rewrite.next;
    Some(chain)
}

/// [`chain`] for a look ahead that lowers nothing: the chain the lowerer
/// will make, its errors left for the lowerer to report.
pub(super) fn chain_unreported(e: &Expr) -> Option<Expr> {
    chain(&Ctxt::default(), e, &mut 0)
}

impl Lowerer<'_> {
    /// The `if` chain of a `match` or an `if let` met by the lowerer (see
    /// [`chain`]), to lower in its place.
    pub(super) fn match_chain(&mut self, e: &Expr) -> Option<Expr> {
        chain(self.cx, e, &mut self.scrutinees)
    }
}

/// Whether a `match` is a pattern test this module writes (or the user
/// wrote): one pattern without guard giving `true`, anything else `false`.
pub(super) fn is_pattern_test(m: &syn::ExprMatch) -> bool {
    let is_bool = |e: &Expr, value: bool| matches!(e, Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) if b.value == value);
    matches!(&m.arms[..], [hit, miss]
        if !matches!(hit.pat, Pat::Guard(_))
            && is_bool(&hit.body, true)
            && matches!(miss.pat, Pat::Wild(_))
            && is_bool(&miss.body, false))
}

/// The most arms of one `match` that may carry `#[cfg]` (see
/// `Matches::split_configured`).
const MAX_CONFIGURED_ARMS: usize = 4;

/// Whether a `match` arm carries `#[cfg(..)]` (or `cfg_attr` that may add
/// one, reported by `split_configured`).
fn is_configured(arm: &syn::Arm) -> bool {
    arm.attrs.iter().any(|a| super::control::adds_cfg(&a.meta))
}

/// A name a pattern binds: whether it is `mut`, and whether it binds a
/// variant's field rather than the whole scrutinee.
type Bound = (syn::Ident, bool, bool);

struct Matches<'a> {
    cx: &'a Ctxt,
    next: u32,
}

/// `if let PAT = e { a } else { b }` is `match e { PAT => a, _ => b }`
/// (no `else`: `{}`).
pub(super) fn if_let_as_match(i: &syn::ExprIf) -> Expr {
    let Expr::Let(l) = &*i.cond else {
        return Expr::If(i.clone());
    };
    let (pat, scrutinee, then) = (&l.pat, &l.expr, &i.then_branch);
    let otherwise: Expr = match &i.else_branch {
        Some((_, e)) => (**e).clone(),
        None => syn::parse_quote!({}),
    };
    syn::parse_quote_spanned!(i.if_token.span=> match #scrutinee { #pat => #then, _ => #otherwise })
}

/// The value a variant's field binds (`k` of `Some(k)`), read by the arm
/// that matched it: `match s { Some(k) => k, _ => unreachable!() }`,
/// which lowering takes as primal code of a constant scrutinee.
fn payload(scrutinee: &Expr, pat: &Pat, ident: &syn::Ident) -> Expr {
    syn::parse_quote_spanned!(ident.span()=>
        match #scrutinee { #pat => #ident, _ => ::core::unreachable!() }
    )
}

/// Whether a `match` is a payload read this module writes.
pub(super) fn is_payload(m: &syn::ExprMatch) -> bool {
    matches!(&m.arms[..], [hit, miss]
        if matches!(&*hit.body, Expr::Path(_))
            && matches!(miss.pat, Pat::Wild(_))
            && matches!(&*miss.body, Expr::Macro(mac) if mac.mac.path.segments.last().is_some_and(|s| s.ident == "unreachable")))
}

/// A scrutinee read more than once without a `let`: it has no effect and
/// moves nothing.
pub(super) fn is_place(e: &Expr) -> bool {
    match e {
        Expr::Path(_) | Expr::Lit(_) => true,
        Expr::Field(f) => is_place(&f.base),
        Expr::Paren(p) => is_place(&p.expr),
        _ => false,
    }
}

/// Whether an identifier pattern names a constant or a unit variant
/// (`None`, `MAX`, an imported `Fast`) rather than binding a variable;
/// rustc resolves it by what is in scope, which the macro cannot see, so
/// it goes by the convention rustc's lints enforce.
pub(super) fn names_constant(ident: &syn::Ident) -> bool {
    ident
        .to_string()
        .trim_start_matches('_')
        .starts_with(|c: char| c.is_ascii_uppercase())
}

/// The element patterns of an arm of a `match` on a tuple of `n`
/// (`(true, _)`; `_` and a name binding nothing are all `_`), or `None`.
fn tuple_arm(pat: &Pat, n: usize) -> Option<Vec<Pat>> {
    match pat {
        Pat::Tuple(t)
            if t.elems.len() == n && !t.elems.iter().any(|p| matches!(p, Pat::Rest(_))) =>
        {
            Some(t.elems.iter().cloned().collect())
        }
        Pat::Wild(w) => Some(vec![Pat::Wild(w.clone()); n]),
        Pat::Paren(p) => tuple_arm(&p.pat, n),
        _ => None,
    }
}

impl Matches<'_> {
    /// `match (a, b) { (p, q) if g => x, .. }`: each element bound once,
    /// each arm's condition the conjunction of its elements' tests, then
    /// its guard.
    fn rewrite_tuple(&mut self, m: &syn::ExprMatch, elems: &[Expr]) -> Option<Expr> {
        let span = m.match_token.span;
        let mut arms = Vec::new();
        for arm in &m.arms {
            let (pat, guard) = match &arm.pat {
                Pat::Guard(g) => (&*g.pat, Some(&*g.guard)),
                pat => (pat, None),
            };
            arms.push((tuple_arm(pat, elems.len())?, guard, &arm.body));
        }
        let k = self.next;
        self.next += 1;
        let scrutinees: Vec<syn::Ident> = (0..elems.len())
            .map(|i| syn::Ident::new(&format!("__ag_scrutinee_{k}_{i}"), Span::mixed_site()))
            .collect();
        let bindings: Vec<SynStmt> = scrutinees
            .iter()
            .zip(elems)
            .map(|(ident, e)| syn::parse_quote_spanned!(span=> let #ident = #e;))
            .collect();
        let mut chain: Option<Expr> = None;
        for (index, (pats, guard, body)) in arms.iter().enumerate().rev() {
            let mut tests = Vec::new();
            let mut lets: Vec<SynStmt> = Vec::new();
            for (pat, scrutinee) in pats.iter().zip(&scrutinees) {
                let Some((test, bound)) = self.test_pattern(pat) else {
                    return Some(syn::parse_quote_spanned!(span=> 0.0));
                };
                let scrutinee: Expr = syn::parse_quote!(#scrutinee);
                for (ident, mutable, field) in &bound {
                    let m = mutable.then(|| quote!(mut));
                    let value = if *field {
                        payload(&scrutinee, pat, ident)
                    } else {
                        scrutinee.clone()
                    };
                    lets.push(syn::parse_quote_spanned!(ident.span()=> let #m #ident = #value;));
                }
                if !matches!(test, Pat::Wild(_)) {
                    tests.push(quote::quote_spanned!(pat.span()=> match #scrutinee { #test => true, _ => false }));
                }
            }
            let mut stmts = lets.clone();
            match &***body {
                Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                    stmts.extend(b.block.stmts.iter().cloned())
                }
                body => stmts.push(SynStmt::Expr(body.clone(), None)),
            }
            let block: syn::Block = syn::parse_quote_spanned!(body.span()=> { #(#stmts)* });
            let always = tests.is_empty() && guard.is_none();
            let Some(rest) = chain.take().filter(|_| !always && index + 1 < arms.len()) else {
                chain = Some(syn::parse_quote!(#block));
                continue;
            };
            let test: Expr = if tests.is_empty() {
                syn::parse_quote!(true)
            } else {
                syn::parse_quote!(#(#tests)&&*)
            };
            let cond: Expr = match guard {
                None => test,
                Some(guard) => syn::parse_quote_spanned!(guard.span()=>
                    if #test { #(#lets)* #guard } else { false }
                ),
            };
            chain = Some(syn::parse_quote_spanned!(span=> if #cond #block else #rest));
        }
        let chain = chain.unwrap_or_else(|| syn::parse_quote_spanned!(span=> {}));
        Some(syn::parse_quote_spanned!(span=> { #(#bindings)* #chain }))
    }

    fn rewrite(&mut self, m: &syn::ExprMatch) -> Expr {
        let configured = m.arms.iter().filter(|a| is_configured(a)).count();
        if configured > MAX_CONFIGURED_ARMS {
            self.cx.error_spanned_by(
                m.match_token,
                format!("more than {MAX_CONFIGURED_ARMS} arms of this `match` carry `#[cfg]`, which the macro would compile once per combination; put the configured arms in a `match` of their own under `#[cfg]` (`#[cfg(feature = \"a\")] let y = match k {{ .. }};`)"),
            );
            return syn::parse_quote_spanned!(m.match_token.span=> 0.0);
        }
        if let Some(k) = m.arms.iter().position(is_configured) {
            return self.split_configured(m, k);
        }
        if let Expr::Tuple(t) = strip_parens(&m.expr)
            && t.elems.len() >= 2
            && let Some(chain) = self.rewrite_tuple(m, &t.elems.iter().cloned().collect::<Vec<_>>())
        {
            return chain;
        }
        let span = m.match_token.span;
        let (scrutinee, binding) = if is_place(&m.expr) {
            ((*m.expr).clone(), None)
        } else {
            let ident =
                syn::Ident::new(&format!("__ag_scrutinee_{}", self.next), Span::mixed_site());
            self.next += 1;
            let value = &m.expr;
            let binding: SynStmt = syn::parse_quote_spanned!(span=> let #ident = #value;);
            (syn::parse_quote!(#ident), Some(binding))
        };

        let mut chain: Option<Expr> = None;
        for (k, arm) in m.arms.iter().enumerate().rev() {
            let (pat, guard) = match &arm.pat {
                Pat::Guard(g) => (&*g.pat, Some(&*g.guard)),
                pat => (pat, None),
            };
            let Some((test, bound)) = self.test_pattern(pat) else {
                // Reported; a value in its place reports nothing more.
                return syn::parse_quote_spanned!(span=> 0.0);
            };
            let lets: Vec<SynStmt> = bound
                .iter()
                .map(|(ident, mutable, field)| {
                    let m = mutable.then(|| quote!(mut));
                    if *field {
                        let value = payload(&scrutinee, pat, ident);
                        syn::parse_quote_spanned!(ident.span()=> let #m #ident = #value;)
                    } else {
                        syn::parse_quote_spanned!(ident.span()=> let #m #ident = #scrutinee;)
                    }
                })
                .collect();
            let mut stmts = lets.clone();
            match &*arm.body {
                Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => {
                    stmts.extend(b.block.stmts.iter().cloned())
                }
                body => stmts.push(SynStmt::Expr(body.clone(), None)),
            }
            let body: syn::Block = syn::parse_quote_spanned!(arm.body.span()=> { #(#stmts)* });
            // The last arm runs when no other did (rustc has checked the
            // `match` is exhaustive); so does one that always matches.
            let always = matches!(test, Pat::Wild(_)) && guard.is_none();
            let Some(rest) = chain.take().filter(|_| !always && k + 1 < m.arms.len()) else {
                chain = Some(Expr::Block(syn::ExprBlock {
                    attrs: Vec::new(),
                    label: None,
                    block: body,
                }));
                continue;
            };
            let pattern_test: Expr = syn::parse_quote_spanned!(pat.span()=>
                match #scrutinee { #test => true, _ => false }
            );
            let cond: Expr = match (guard, matches!(test, Pat::Wild(_))) {
                (None, _) => pattern_test,
                (Some(guard), true) => {
                    syn::parse_quote_spanned!(guard.span()=> { #(#lets)* #guard })
                }
                (Some(guard), false) => syn::parse_quote_spanned!(guard.span()=>
                    if #pattern_test { #(#lets)* #guard } else { false }
                ),
            };
            chain = Some(syn::parse_quote_spanned!(span=> if #cond #body else #rest));
        }
        let chain = chain.unwrap_or_else(|| syn::parse_quote_spanned!(span=> {}));
        match binding {
            Some(binding) => syn::parse_quote_spanned!(span=> { #binding #chain }),
            None => chain,
        }
    }

    /// A `match` whose arm `k` carries `#[cfg(P)]`: the `match` with the
    /// arm where `P` holds, without it where it does not, as a branch on
    /// `::core::cfg!(P)` that lowering emits as its two arms under
    /// `#[cfg(P)]` and `#[cfg(not(P))]`. The macro never evaluates `P`, and
    /// an arm compiled out (one naming what exists only where `P` holds)
    /// is compiled nowhere else. Each configured arm doubles the copies,
    /// hence [`MAX_CONFIGURED_ARMS`]. The last arm left, all others
    /// compiled out, is compiled in wherever the `match` is compiled at
    /// all: without it the `match` has no arm, which rustc rejects (a
    /// value of no type, in an expression). So it is taken as it is.
    fn split_configured(&mut self, m: &syn::ExprMatch, k: usize) -> Expr {
        let span = m.match_token.span;
        let mut with = m.clone();
        let predicate = super::control::cfg_predicate(self.cx, &with.arms[k].attrs);
        super::control::strip_cfgs(&mut with.arms[k].attrs);
        let Some(predicate) = predicate else {
            // A malformed `#[cfg]`, reported.
            return self.rewrite(&with);
        };
        let mut without = m.clone();
        without.arms.remove(k);
        let with = self.rewrite(&with);
        if without.arms.is_empty() {
            return with;
        }
        let without = self.rewrite(&without);
        syn::parse_quote_spanned!(span=> if ::core::cfg!(#predicate) { #with } else { #without })
    }

    /// The pattern as a test (its bindings made `_`) and the names it
    /// binds, each with whether it binds a variant's field (read from the
    /// scrutinee by [`payload`]) rather than the whole scrutinee, or `None`
    /// after an error.
    fn test_pattern(&self, pat: &Pat) -> Option<(Pat, Vec<Bound>)> {
        let mut bound = Vec::new();
        let test = self.strip_bindings(pat, &mut bound, false)?;
        Some((test, bound))
    }

    fn strip_bindings(&self, pat: &Pat, bound: &mut Vec<Bound>, field: bool) -> Option<Pat> {
        Some(match pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && !names_constant(&pi.ident) => {
                // The same name in each case of an or-pattern is one binding.
                if !bound.iter().any(|(b, _, _)| *b == pi.ident) {
                    bound.push((pi.ident.clone(), pi.mutability.is_some(), field));
                }
                match &pi.subpat {
                    Some((_, sub)) => self.strip_bindings(sub, bound, field)?,
                    None => Pat::Wild(syn::PatWild {
                        attrs: Vec::new(),
                        underscore_token: syn::Token![_](pi.ident.span()),
                    }),
                }
            }
            Pat::Ident(pi) if pi.by_ref.is_none() => pat.clone(),
            Pat::Wild(_) | Pat::Lit(_) | Pat::Range(_) | Pat::Path(_) | Pat::Rest(_) => pat.clone(),
            Pat::Paren(p) => self.strip_bindings(&p.pat, bound, field)?,
            Pat::Or(o) => {
                let mut cases = o.clone();
                for case in cases.cases.iter_mut() {
                    *case = self.strip_bindings(case, bound, field)?;
                }
                Pat::Or(cases)
            }
            // A variant's fields: read from a constant scrutinee (see
            // `Lowerer::lower_payload`).
            Pat::TupleStruct(ts) => {
                let mut test = ts.clone();
                for elem in test.elems.iter_mut() {
                    *elem = self.strip_bindings(elem, bound, true)?;
                }
                Pat::TupleStruct(test)
            }
            Pat::Struct(s) => {
                let mut test = s.clone();
                for f in test.fields.iter_mut() {
                    // `Point { x, .. }`: the shorthand binds `x`.
                    f.colon_token.get_or_insert_with(Default::default);
                    *f.pat = self.strip_bindings(&f.pat, bound, true)?;
                }
                Pat::Struct(test)
            }
            Pat::Tuple(t) if field => {
                let mut test = t.clone();
                for elem in test.elems.iter_mut() {
                    *elem = self.strip_bindings(elem, bound, true)?;
                }
                Pat::Tuple(test)
            }
            Pat::Reference(r) if field => self.strip_bindings(&r.pat, bound, true)?,
            other => {
                self.cx.error_spanned_by(
                    other,
                    "unsupported `match` pattern; a `#[differentiable]` body matches integers, `bool`s and enum variants: literals, ranges (`0..=3`), `|`, `_`, a name, and guards (`n if n > 2`)",
                );
                return None;
            }
        })
    }
}

impl Lowerer<'_> {
    /// A pattern test: primal code, the scrutinee's variables replaced by
    /// the values they hold.
    pub(super) fn lower_pattern_test(&mut self, m: &syn::ExprMatch) -> Operand {
        if let Some(test) = self.lower_end_test(m) {
            return test;
        }
        if let Some(test) = self.lower_option_test(m) {
            return test;
        }
        self.lower_primal_unchecked(&Expr::Match(m.clone()), Kind::Bool)
    }

    /// A variant's field bound by a `match` arm (see [`payload`]): primal
    /// code of a constant scrutinee (a `#[constant]` argument, or an
    /// integer); a differentiable one would lose its derivative there.
    pub(super) fn lower_payload(&mut self, m: &syn::ExprMatch) -> Operand {
        if let Some(element) = self.lower_end_payload(m) {
            return element;
        }
        if let Some(value) = self.lower_option_payload(m) {
            return value;
        }
        if !self.constant_base(&m.expr) && self.reads_differentiable(&m.expr) {
            // A variable bound to an unsupported expression (`let o =
            // x.first();`) was reported there already.
            if self
                .local_ident(strip_parens(&m.expr))
                .is_some_and(|v| self.missing.contains(&v))
            {
                return self.missing(m.span());
            }
            self.cx.error_spanned_by(
                &m.arms[0].pat,
                "a `match` arm that binds a variant's fields (`Some(v)`) of a differentiable value is not supported; match a `#[constant]` argument, or the variant alone (`Some(_)`) and pass the value it holds as an argument",
            );
            return self.missing(m.span());
        }
        // `Option<f64>`'s field is a float; any other field's type the
        // macro cannot see.
        let kind = match self
            .local_ident(strip_parens(&m.expr))
            .and_then(|v| self.data.get(&v))
        {
            Some(ty) if self.option_of_float(ty) => Kind::Float,
            _ => Kind::Unknown,
        };
        // The binding by value where it is a reference to a `Copy` field
        // (see `autograd::__private::Payload`): the generated arithmetic
        // takes values of unknown type by reference.
        let mut read = m.clone();
        if let Expr::Path(binding) = &*read.arms[0].body {
            let span = binding.span();
            *read.arms[0].body = syn::parse_quote_spanned! {span=> {
                #[allow(unused_imports)]
                use ::autograd::__private::{PayloadAsBound as _, PayloadCopied as _};
                (&::autograd::__private::Payload(#binding)).payload()
            }};
        }
        self.lower_primal_unchecked(&Expr::Match(read), kind)
    }

    fn option_of_float(&self, ty: &syn::Type) -> bool {
        let syn::Type::Path(p) = super::items::referent(ty) else {
            return false;
        };
        let Some(last) = p.path.segments.last().filter(|s| s.ident == "Option") else {
            return false;
        };
        matches!(&last.arguments, syn::PathArguments::AngleBracketed(a)
            if matches!(a.args.first(), Some(syn::GenericArgument::Type(t)) if self.scalar_ident(t).is_some()))
    }
}

/// Whether a macro is `matches!` (also `std::matches!`, `core::matches!`).
pub(super) fn is_matches(mac: &syn::Macro) -> bool {
    mac.path.is_ident("matches")
        || mac.path.segments.len() == 2
            && ["std", "core"]
                .iter()
                .any(|k| mac.path.segments[0].ident == k)
            && mac.path.segments[1].ident == "matches"
}

/// The scrutinee, pattern and guard of `matches!(e, PAT)` or
/// `matches!(e, PAT if guard)`; `None` for any other macro, or a
/// malformed invocation (reported as an unsupported macro).
pub(crate) fn matches_parts(mac: &syn::Macro) -> Option<(Expr, Pat, Option<Expr>)> {
    use syn::parse::Parser;
    if !is_matches(mac) {
        return None;
    }
    let parser = |input: syn::parse::ParseStream| {
        let scrutinee: Expr = input.parse()?;
        input.parse::<syn::Token![,]>()?;
        let pat = Pat::parse_multi_with_leading_vert(input)?;
        let guard = if input.peek(syn::Token![if]) {
            input.parse::<syn::Token![if]>()?;
            Some(input.parse::<Expr>()?)
        } else {
            None
        };
        let _ = input.parse::<Option<syn::Token![,]>>()?;
        Ok((scrutinee, pat, guard))
    };
    parser.parse2(mac.tokens.clone()).ok()
}

impl Lowerer<'_> {
    /// `matches!(e, PAT)` or `matches!(e, PAT if guard)`: the pattern test
    /// `match e { PAT if guard => true, _ => false }` it is, a `bool` of
    /// primal code as written (the names the pattern binds are the arm's in
    /// the guard, see `Placeholders`). Nothing flows from it but the
    /// `bool`, so its scrutinee may be any value, a differentiable one too
    /// (`x.first()`, `x.partial_cmp(&y)`). `None` for any other macro.
    pub(super) fn lower_matches(&mut self, mac: &syn::Macro) -> Option<Operand> {
        let (scrutinee, pat, guard) = matches_parts(mac)?;
        let guard = guard.map(|g| quote!(if #g));
        let test: syn::ExprMatch = syn::parse_quote_spanned!(mac.span()=>
            match #scrutinee { #pat #guard => true, _ => false }
        );
        Some(self.lower_pattern_test(&test))
    }
}
