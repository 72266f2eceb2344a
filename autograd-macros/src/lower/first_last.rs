//! `x.first()` and `x.last()` of a slice (also after `.copied()` /
//! `.cloned()`, and `x.iter().max_by(cmp)` / `min_by`), the `Option` of
//! an element, lowered where the body takes it apart: its test is the
//! length's, `x.len() != 0` (a primal `bool`), and its value the element
//! read where the test held,
//!
//! ```text
//! if let Some(v) = x.first() { a } else { b }   →   if x.len() != 0 { v = x[0]; a } else { b }
//! ```
//!
//! as `x.first().unwrap()` is read as `x[0]`: the derivative flows into
//! the element read, and an empty slice takes the `None` arm exactly as
//! the function itself does. `x.split_first()` (`split_last`) is the same
//! `Option`, `Some((element, rest))`, its rest the sub-slice beside the
//! element.
//!
//! A `match` (and `if let`, and a tuple of them, `match (x.first(),
//! x.last())`) is lowered as the chain `matching` makes of it: the scrutinee
//! bound once, `let s = x.first();`, each arm's test `match s { Some(_)
//! => true, _ => false }` and the names it binds `match s { Some(v) => v,
//! _ => unreachable!() }`. The `let` binds `s` to [`End`], which stands
//! for the `Option` and is never emitted; the test and the read are
//! lowered from it. `let Some(v) = x.first() else { .. };` arrives the same
//! way (see `diverging`), and `x.first().copied().unwrap_or(d)` (or
//! `s.copied().unwrap_or(d)` of the name) is two branches on the test
//! where it stands. Any other use of such an `Option` keeps its error.

use super::items::Item;
use super::sequence::Sequence;
use super::*;

/// The element an [`End`] reads.
#[derive(Clone)]
pub(super) enum Pick {
    First,
    Last,
    /// An element at an index computed where the slice is not empty
    /// (`max_by`'s): its read as written, `x[i]`.
    Read(Expr),
}

/// The `Option` of `x.first()`, `x.last()` (or a search's, or
/// `x.split_first()`'s) bound to a name: the slice, as it was where the
/// `Option` was made, and the element.
#[derive(Clone)]
pub(super) struct End {
    seq: Sequence,
    pick: Pick,
    /// `x.split_first()` / `x.split_last()`: `Some((element, rest))`.
    split: bool,
}

/// Which element `x.first()` / `x.last()` reads, where the slice `x` is
/// not empty: the slice and the pick; `None` for any other call or a
/// receiver that is not a place.
fn pick(m: &syn::ExprMethodCall) -> Option<(&Expr, Pick)> {
    if let Some((x, index)) = best_index(m) {
        let span = m.method.span();
        return Some((x, Pick::Read(syn::parse_quote_spanned!(span=> #x[#index]))));
    }
    if !m.args.is_empty() || m.turbofish.is_some() || !super::matching::is_place(&m.receiver) {
        return None;
    }
    let x = &*m.receiver;
    if m.method == "first" {
        Some((x, Pick::First))
    } else if m.method == "last" {
        Some((x, Pick::Last))
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
/// `.unwrap_or(d)`: `x`, the fold of the rest from the first element,
/// `chain.skip(1).fold(x[0], f)`, as `reduce` computes, which is read
/// where `x` is not empty (`unwrap` of an empty one panics as the
/// function's does), and the default.
fn unwrapped_reduce(m: &syn::ExprMethodCall) -> Option<(&Expr, Expr, Option<&Expr>)> {
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
    Some((x, folded, default))
}

/// Whether `m` is an element [`Lowerer::lower_end_method`] lowers, never an
/// iterator however its chain starts.
pub(super) fn picks_element(m: &syn::ExprMethodCall) -> bool {
    unwrapped_reduce(m).is_some() || unwrap_or_of(m).is_some()
}

/// Whether the `max_by`/`min_by` `m` searches items by value (`copied`).
fn best_by_value(m: &syn::ExprMethodCall) -> bool {
    matches!(strip_parens(&m.receiver), Expr::MethodCall(c) if c.method == "copied" || c.method == "cloned")
}

/// The `Option` a scrutinee reads: `x.first()`, `x.last()`, also after
/// `.copied()` / `.cloned()`.
pub(super) fn option_of(e: &Expr) -> Option<(&Expr, Pick)> {
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

/// `x.split_first()` / `x.split_last()` of a place `x`: `x` and the
/// element beside the rest.
fn split_of(e: &Expr) -> Option<(&Expr, Pick)> {
    let Expr::MethodCall(m) = strip_parens(e) else {
        return None;
    };
    if !m.args.is_empty() || m.turbofish.is_some() || !super::matching::is_place(&m.receiver) {
        return None;
    }
    match m.method.to_string().as_str() {
        "split_first" => Some((&m.receiver, Pick::First)),
        "split_last" => Some((&m.receiver, Pick::Last)),
        _ => None,
    }
}

/// What `Some((a, rest))` binds: the element's name and the rest's, each
/// a name or `_` (the element also `&a`); `None` for any other pattern.
pub(super) fn split_binding(pat: &Pat) -> Option<(Option<&syn::PatIdent>, Option<&syn::PatIdent>)> {
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

/// What the payload read `match s { PAT => v, _ => unreachable!() }` of an
/// [`End`] reads: the element (`Some(v)`, `Some(&v)`, or the element of a
/// split, `Some((v, rest))`), or the rest of a split (`Some((a, v))`).
enum Part {
    Element,
    Rest,
}

fn payload_part(m: &syn::ExprMatch, split: bool) -> Option<Part> {
    let Expr::Path(body) = &*m.arms[0].body else {
        return None;
    };
    let read = body.path.get_ident()?;
    let named = |pi: Option<&syn::PatIdent>| pi.is_some_and(|pi| pi.ident == *read);
    let pat = &m.arms[0].pat;
    if !split {
        return named(some_binding(pat)?).then_some(Part::Element);
    }
    let (element, rest) = split_binding(pat)?;
    if named(element) {
        Some(Part::Element)
    } else {
        named(rest).then_some(Part::Rest)
    }
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

/// `x.first().copied().unwrap_or(d)` (or `.cloned()`, or `last()`): the
/// element and the default, `None` for anything else. The `Option` of a
/// reference, `x.first().unwrap_or(&d)`, is not one: its value is a
/// reference.
fn unwrap_or_of(m: &syn::ExprMethodCall) -> Option<((&Expr, Pick), &Expr)> {
    if m.method != "unwrap_or" || m.args.len() != 1 || m.turbofish.is_some() {
        return None;
    }
    let Expr::MethodCall(by_value) = strip_parens(&m.receiver) else {
        return None;
    };
    // `x.iter().copied().max_by(..).unwrap_or(d)`: the items are values.
    if best_by_value(by_value)
        && let Some(best) = pick(by_value)
    {
        return Some((best, &m.args[0]));
    }
    if by_value.method != "copied" && by_value.method != "cloned" {
        return None;
    }
    Some((option_of(&m.receiver)?, &m.args[0]))
}

/// `s.copied().unwrap_or(d)` (or `.cloned()`) of a name `s`, which may
/// hold an [`End`]: the name's path and the default.
fn held_unwrap_or(m: &syn::ExprMethodCall) -> Option<(&Expr, &Expr)> {
    if m.method != "unwrap_or" || m.args.len() != 1 || m.turbofish.is_some() {
        return None;
    }
    let Expr::MethodCall(by_value) = strip_parens(&m.receiver) else {
        return None;
    };
    if by_value.method != "copied" && by_value.method != "cloned" || !by_value.args.is_empty() {
        return None;
    }
    match strip_parens(&by_value.receiver) {
        held @ Expr::Path(p) if p.path.get_ident().is_some() => Some((held, &m.args[0])),
        _ => None,
    }
}

/// Whether every read of `name` in `rest` (the statements after its `let`)
/// is a pattern test or a payload read, `match name { Some(_) => true, _
/// => false }` (or `None`) or `match name { Some(v) => v, _ =>
/// unreachable!() }` (or `Some(&v)`), or `name.copied().unwrap_or(d)`
/// (not of a split), which an [`End`] lowers; anything
/// else (another pattern, passing it on, `name.map(..)`, a macro naming
/// it) is not, and keeps the error of the `Option` as a value.
fn only_taken_apart(name: &syn::Ident, split: bool, rest: &[SynStmt]) -> bool {
    struct Reads<'a> {
        name: &'a syn::Ident,
        split: bool,
        other: bool,
    }
    impl<'ast> Visit<'ast> for Reads<'_> {
        fn visit_expr(&mut self, e: &'ast Expr) {
            // A `match` (or `if let`) is read as the chain lowering makes
            // of it, of tests and payload reads.
            if let Some(chain) = super::matching::chain_unreported(e) {
                return self.visit_expr(&chain);
            }
            match e {
                Expr::Match(m)
                    if matches!(strip_parens(&m.expr), Expr::Path(p) if p.path.get_ident().is_some_and(|i| same_binding(i, self.name)))
                        && (super::matching::is_pattern_test(m)
                            && is_end_test(&m.arms[0].pat, self.split)
                            || super::matching::is_payload(m)
                                && payload_part(m, self.split).is_some()) => {}
                Expr::MethodCall(m)
                    if !self.split
                        && let Some((Expr::Path(p), default)) = held_unwrap_or(m)
                        && p.path
                            .get_ident()
                            .is_some_and(|i| same_binding(i, self.name)) =>
                {
                    self.visit_expr(default)
                }
                Expr::Path(p) if p.path.get_ident().is_some_and(|i| i == self.name) => {
                    self.other = true
                }
                e => syn::visit::visit_expr(self, e),
            }
        }
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            fn mentions(tokens: TokenStream, name: &syn::Ident) -> bool {
                tokens.into_iter().any(|t| match t {
                    proc_macro2::TokenTree::Ident(i) => i == *name,
                    proc_macro2::TokenTree::Group(g) => mentions(g.stream(), name),
                    _ => false,
                })
            }
            if mentions(m.tokens.clone(), self.name) {
                self.other = true;
            }
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut reads = Reads {
        name,
        split,
        other: false,
    };
    for stmt in rest {
        reads.visit_stmt(stmt);
    }
    !reads.other
}

impl Lowerer<'_> {
    /// `let s = x.first();` (see [`End`]) whose every later read `rest`
    /// takes it apart: `s` bound to the `Option` it stands for, nothing
    /// emitted. `false`, binding nothing, for any other `let`.
    pub(super) fn bind_end(&mut self, local: &syn::Local, rest: &[SynStmt]) -> bool {
        let Some(init) = local.init.as_ref().filter(|i| i.diverge.is_none()) else {
            return false;
        };
        let Pat::Ident(pi) = &local.pat else {
            return false;
        };
        if !local.attrs.is_empty() || pi.by_ref.is_some() || pi.subpat.is_some() {
            return false;
        }
        let split = split_of(&init.expr);
        let Some((x, pick)) = split.clone().or_else(|| option_of(&init.expr)) else {
            return false;
        };
        let split = split.is_some();
        if !only_taken_apart(&pi.ident, split, rest) {
            return false;
        }
        let Some(seq) = self.sequence_or_field(x) else {
            return false;
        };
        let stand_in = self.new_value(Kind::Unknown, Some(pi.ident.to_string()));
        self.ends.insert(stand_in, End { seq, pick, split });
        self.bind(&pi.ident, stand_in, false, None);
        true
    }

    /// The [`End`] a scrutinee names.
    fn end_of(&self, scrutinee: &Expr) -> Option<End> {
        let v = self.local_ident(strip_parens(scrutinee))?;
        self.ends.get(&v).cloned()
    }

    /// Whether the slice is not empty (`some`) or empty: `x.len() != 0`, a
    /// primal `bool`.
    fn end_test(&mut self, seq: &Sequence, some: bool, span: Span) -> Operand {
        let op = if some { quote!(!=) } else { quote!(==) };
        match self.sequence_len(seq, span) {
            Operand::Const(len) => Operand::Const(quote!((#len #op 0))),
            Operand::Value(len) => {
                let p = super::primal::placeholder(0, span);
                let expr: Expr = syn::parse_quote!(#p #op 0);
                let bindings = vec![(p.to_string(), len)];
                Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Bool, span))
            }
        }
    }

    /// The element an [`End`] picks, read where its slice is not empty.
    fn end_read(&mut self, end: &End, span: Span) -> Operand {
        match &end.pick {
            Pick::First => self.sequence_element(&end.seq, Operand::Const(quote!(0)), span),
            Pick::Last => {
                let index = match self.sequence_len(&end.seq, span) {
                    Operand::Const(len) => Operand::Const(quote!((#len - 1))),
                    len => self.int_op(Operator::Sub, len, Operand::Const(quote!(1)), span),
                };
                self.sequence_element(&end.seq, index, span)
            }
            Pick::Read(read) => self.lower_expr(read),
        }
    }

    /// The test `match s { PAT => true, _ => false }` of an [`End`]:
    /// `Some(..)` that the slice is not empty, `None` that it is.
    pub(super) fn lower_end_test(&mut self, m: &syn::ExprMatch) -> Option<Operand> {
        let end = self.end_of(&m.expr)?;
        let pat = &m.arms[0].pat;
        let span = pat.span();
        Some(if is_none_variant(pat) {
            self.end_test(&end.seq, false, span)
        } else if is_end_test(pat, end.split) {
            self.end_test(&end.seq, true, span)
        } else {
            // `bind_end` has checked every pattern.
            self.missing(span)
        })
    }

    /// The name `match s { Some(v) => v, _ => unreachable!() }` binds of
    /// an [`End`]: its element (`Some(&v)`, `Some(mut v)` and a split's
    /// `Some((v, rest))` too).
    pub(super) fn lower_end_payload(&mut self, m: &syn::ExprMatch) -> Option<Operand> {
        let end = self.end_of(&m.expr)?;
        Some(match payload_part(m, end.split) {
            Some(Part::Element) => self.end_read(&end, m.arms[0].body.span()),
            // `bind_end` has checked every pattern; the rest of a split is
            // an item (`lower_end_rest`), bound by the `let` that reads it.
            _ => self.missing(m.span()),
        })
    }

    /// The rest of a split, `match s { Some((a, rest)) => rest, _ =>
    /// unreachable!() }`: the sub-slice beside the element, `&x[1..]` of
    /// `split_first`, `&x[..x.len() - 1]` of `split_last`.
    pub(super) fn lower_end_rest(&mut self, m: &syn::ExprMatch) -> Option<Sequence> {
        let end = self.end_of(&m.expr)?;
        if !matches!(payload_part(m, end.split), Some(Part::Rest)) {
            return None;
        }
        let span = m.arms[0].body.span();
        let one = Operand::Const(quote!(1));
        let len = self.sequence_len(&end.seq, span);
        let rest = match len {
            Operand::Const(n) => Operand::Const(quote!((#n - 1))),
            len => self.int_op(Operator::Sub, len, one.clone(), span),
        };
        let (start, end_at) = match end.pick {
            Pick::Last => (Operand::Const(quote!(0)), rest.clone()),
            _ => (one, self.sequence_len(&end.seq, span)),
        };
        Some(Sequence::Sub {
            base: Box::new(end.seq),
            start,
            end: end_at,
            len: rest,
        })
    }

    /// `x.first().copied().unwrap_or(d)` (also of `last`, `max_by`,
    /// `reduce`) and `x.iter().copied().reduce(f).unwrap()`: two branches
    /// on the test where it stands, the element (or the fold) in one and
    /// `d` in the other; `None` for any other call.
    pub(super) fn lower_end_method(&mut self, m: &syn::ExprMethodCall) -> Option<Operand> {
        // `s.copied().unwrap_or(d)` of `let s = x.first();`.
        let held = held_unwrap_or(m)
            .and_then(|(s, d)| Some((self.end_of(s).filter(|end| !end.split)?, d)));
        let (seq, read, default): (Sequence, Result<Pick, Expr>, &Expr) =
            if let Some((end, d)) = held {
                (end.seq, Ok(end.pick), d)
            } else if let Some((x, folded, default)) = unwrapped_reduce(m) {
                match default {
                    // An empty slice panics in `unwrap` as the function's does.
                    None => return Some(self.lower_expr(&folded)),
                    Some(d) => (self.sequence_or_field(x)?, Err(folded), d),
                }
            } else {
                let ((x, pick), d) = unwrap_or_of(m)?;
                (self.sequence_or_field(x)?, Ok(pick), d)
            };
        let span = m.method.span();
        let cond = self.end_test(&seq, true, span);
        let element = |l: &mut Self| {
            Some(Item::Value(match read {
                Ok(pick) => l.end_read(
                    &End {
                        seq,
                        pick,
                        split: false,
                    },
                    span,
                ),
                Err(folded) => l.lower_expr(&folded),
            }))
        };
        let otherwise = |l: &mut Self| Some(Item::Value(l.lower_expr(default)));
        Some(
            match self.lower_branches(
                cond,
                None,
                true,
                (span, element),
                (default.span(), otherwise),
            ) {
                Ok(Some(Item::Value(value))) => value,
                // A part that is no one value was reported.
                _ => self.missing(m.span()),
            },
        )
    }
}

/// The test of an arm on an [`End`]: `Some(_)` (or `Some(&_)`, or a
/// split's `Some((_, _))`), the test of an arm binding the element, or
/// `None`.
fn is_end_test(pat: &Pat, split: bool) -> bool {
    matches!(some_binding(pat), Some(None))
        || split && matches!(split_binding(pat), Some((None, None)))
        || is_none_variant(pat)
}

/// `None` itself (not `_`, which [`is_none`] counts too).
fn is_none_variant(pat: &Pat) -> bool {
    !matches!(pat, Pat::Wild(_)) && is_none(pat)
}
