//! Iterator chains over sequences and ranges, lowered into the index loops
//! the IR already has: `x.iter().zip(y).map(f).sum()` is
//! `for i in 0..min(x.len(), y.len()) { s = s + f(x[i], y[i]) }`, so
//! stacks, stencils and the rest apply as they do to the loop a user
//! writes by hand. A closure is lowered inline, once per item, as the
//! statements of the loop body.
//!
//! A chain is read from its source outwards into a [`Chain`]: its length
//! and a [`Plan`] of its item at position `p` (the number of items before
//! it). Every index a plan reads is the position moved by a constant
//! (`skip`) or mirrored (`rev`): `offset + p` or `offset − p`, with the
//! offset an integer expression of the lengths and arguments ([`Lin`]).
//! The loop runs over the index of the first sequence the item reads; the
//! other indices are computed from it.

use super::items::Item;
use super::sequence::Sequence;
use super::*;

/// The methods that start a chain on a sequence.
const ROOTS: &[&str] = &["iter", "into_iter", "windows", "chunks_exact"];
/// Methods that start a chain the macro does not take: a chain of them is
/// one error, at the method, rather than one for the method and one for
/// each supported method around it.
const UNSUPPORTED_ROOTS: &[&str] = &["chunks", "rchunks", "rchunks_exact"];
/// Other slice methods that start an iterator the macro does not lower
/// (`iter_mut()` is rewritten before lowering where it has a supported
/// shape, iter_mut.rs): named so that the error is the iterator one,
/// listing what is supported.
const OTHER_ROOTS: &[&str] = &["iter_mut"];
/// The methods that consume a chain into a value.
const CONSUMERS: &[&str] = &["sum", "product", "fold", "collect"];
/// The methods that consume a chain into an integer, an `Option` of one or
/// a `bool`: searches and counts, with no derivative to carry.
const SEARCHES: &[&str] = &["position", "rposition", "count", "any", "all"];
/// The methods that make a chain of a chain (or of a range).
const ADAPTERS: &[&str] = &[
    "copied",
    "cloned",
    "enumerate",
    "zip",
    "map",
    "filter",
    "rev",
    "skip",
    "step_by",
    "take",
];

fn supported() -> &'static str {
    "`iter()`, `into_iter()`, `windows(k)`, `chunks_exact(k)`, `copied()`, `cloned()`, `enumerate()`, `zip(..)` (or `std::iter::zip(a, b)`), `map(|v| ..)`, `filter(|v| ..)`, `rev()`, `skip(k)`, `step_by(k)`, `take(k)`, and to consume it `sum()`, `product()`, `fold(init, |acc, v| ..)`, `collect::<Vec<f64>>()`, a `for` loop, or to write a local array's or `Vec`'s elements `for v in a.iter_mut()` (with `enumerate()`, `zip(..)`, `rev()`, `skip(k)`, `take(k)`, `step_by(k)`) or `a.iter_mut().for_each(|v| ..)`, or for an index or a count `position`, `rposition`, `count`, `any`, `all`, or for an element of a slice `x.iter().max_by(..)`, `min_by(..)`, `x.iter().copied().reduce(f).unwrap()` (or `.unwrap_or(d)`)"
}

/// Whether an expression is an iterator chain (not consumed): `x.iter()`,
/// `x.windows(2)`, an adapter of a range, and any method of a chain but
/// its consumers.
pub(super) fn is_iterator(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::MethodCall(m) => is_iterator_call(m),
        e => free_zip(e).is_some(),
    }
}

/// `std::iter::zip(a, b)` (or `core::iter::zip`, `iter::zip`): the two
/// sequences `a.into_iter().zip(b)` pairs up.
fn free_zip(e: &Expr) -> Option<(&Expr, &Expr)> {
    let Expr::Call(c) = strip_parens(e) else {
        return None;
    };
    let Expr::Path(p) = strip_parens(&c.func) else {
        return None;
    };
    let names: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    let zip = matches!(
        names.iter().map(String::as_str).collect::<Vec<_>>()[..],
        ["std" | "core", "iter", "zip"] | ["iter", "zip"]
    );
    match (zip && p.qself.is_none(), c.args.len()) {
        (true, 2) => Some((&c.args[0], &c.args[1])),
        _ => None,
    }
}

fn is_iterator_call(m: &syn::ExprMethodCall) -> bool {
    // `x.iter().copied().reduce(f).unwrap_or(d)`: an element (see `first_last`).
    if super::first_last::picks_element(m) {
        return false;
    }
    let name = m.method.to_string();
    ROOTS.contains(&name.as_str())
        || UNSUPPORTED_ROOTS.contains(&name.as_str())
        || OTHER_ROOTS.contains(&name.as_str())
        || (ADAPTERS.contains(&name.as_str()) && is_range(&m.receiver))
        || (!CONSUMERS.contains(&name.as_str())
            && !SEARCHES.contains(&name.as_str())
            && is_iterator(&m.receiver))
}

/// Whether `m` searches or counts a chain (`x.iter().position(..)`).
pub(super) fn is_search(m: &syn::ExprMethodCall) -> bool {
    (SEARCHES.iter().any(|c| m.method == c) && (is_iterator(&m.receiver) || is_range(&m.receiver)))
        // An index range's best (`x.iter().max_by(..)` rewritten).
        || ((m.method == "max_by" || m.method == "min_by") && is_range(&m.receiver))
}

/// Whether `m` consumes a chain (or a range: `(0..n).sum::<usize>()`).
pub(super) fn is_consumer(m: &syn::ExprMethodCall) -> bool {
    CONSUMERS.iter().any(|c| m.method == c) && (is_iterator(&m.receiver) || is_range(&m.receiver))
}

fn is_range(e: &Expr) -> bool {
    matches!(strip_parens(e), Expr::Range(_))
}

/// A literal width or step of at least 1 (`windows(2)`, `step_by(3)`).
fn literal_width(e: &Expr) -> Option<usize> {
    match strip_parens(e) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(w),
            ..
        }) => w
            .base10_parse::<usize>()
            .ok()
            .filter(|w| (1..=1 << 20).contains(w)),
        _ => None,
    }
}

/// A plain integer literal.
fn int_literal(t: &TokenStream) -> Option<i64> {
    let lit: syn::LitInt = syn::parse2(t.clone()).ok()?;
    matches!(lit.suffix(), "" | "usize")
        .then(|| lit.base10_parse().ok())
        .flatten()
}

pub(super) fn int_const(c: i64, span: Span) -> Operand {
    Operand::Const(syn::LitInt::new(&c.to_string(), span).into_token_stream())
}

/// An integer: a sum of integer operands times coefficients, plus a
/// constant. Sums that cancel (`n − 1 + 1 − n`) simplify before any code
/// is written.
#[derive(Clone)]
struct Lin {
    constant: i64,
    /// Each term's operand, identified by its text (`v3`, `{P.len()}`).
    terms: Vec<(String, Operand, i64)>,
}

impl Lin {
    fn constant(c: i64) -> Lin {
        Lin {
            constant: c,
            terms: Vec::new(),
        }
    }

    fn of(o: Operand) -> Lin {
        if let Operand::Const(t) = &o
            && let Some(c) = int_literal(t)
        {
            return Lin::constant(c);
        }
        Lin {
            constant: 0,
            terms: vec![(o.to_string(), o, 1)],
        }
    }

    /// `self + k·other`.
    fn plus(&self, other: &Lin, k: i64) -> Lin {
        let mut out = self.clone();
        out.constant += k * other.constant;
        for (key, o, c) in &other.terms {
            match out.terms.iter_mut().find(|t| t.0 == *key) {
                Some(t) => t.2 += k * c,
                None => out.terms.push((key.clone(), o.clone(), k * c)),
            }
        }
        out.terms.retain(|t| t.2 != 0);
        out
    }

    fn same(&self, other: &Lin) -> bool {
        let d = self.plus(other, -1);
        d.constant == 0 && d.terms.is_empty()
    }

    fn as_constant(&self) -> Option<i64> {
        self.terms.is_empty().then_some(self.constant)
    }
}

/// Where an item reads a sequence: index `offset + stride·p` (`forward`)
/// or `offset − stride·p`, at position `p`; the stride is a chunk's width
/// (`chunks_exact(k)`), else 1.
#[derive(Clone)]
struct Pos {
    offset: Lin,
    forward: bool,
    stride: i64,
}

impl Pos {
    fn start() -> Pos {
        Pos {
            offset: Lin::constant(0),
            forward: true,
            stride: 1,
        }
    }

    fn sign(&self) -> i64 {
        if self.forward { 1 } else { -1 }
    }

    /// How far the index moves from one position to the next.
    fn step(&self) -> i64 {
        self.sign() * self.stride
    }
}

/// How the item at a position is computed.
enum Plan<'e> {
    /// The sequence's element at the position's index.
    Element {
        seq: Sequence,
        at: Pos,
    },
    /// The window of `width` elements starting at the index.
    Window {
        seq: Sequence,
        at: Pos,
        width: usize,
    },
    /// The index itself: `enumerate`'s count, a range's integer.
    Count(Pos),
    Tuple(Vec<Plan<'e>>),
    Map {
        closure: &'e Expr,
        inner: Box<Plan<'e>>,
    },
    /// The item of `inner`, where `closure` holds of it; the loop body
    /// runs under that condition.
    Filter {
        closure: &'e Expr,
        inner: Box<Plan<'e>>,
    },
}

impl<'e> Plan<'e> {
    /// The same plan with every position `p` replaced by `f(p)`.
    fn reposition(self, f: &dyn Fn(&Pos) -> Pos) -> Plan<'e> {
        match self {
            Plan::Element { seq, at } => Plan::Element { seq, at: f(&at) },
            Plan::Window { seq, at, width } => Plan::Window {
                seq,
                at: f(&at),
                width,
            },
            Plan::Count(at) => Plan::Count(f(&at)),
            Plan::Tuple(plans) => Plan::Tuple(plans.into_iter().map(|p| p.reposition(f)).collect()),
            Plan::Map { closure, inner } => Plan::Map {
                closure,
                inner: Box::new(inner.reposition(f)),
            },
            Plan::Filter { closure, inner } => Plan::Filter {
                closure,
                inner: Box::new(inner.reposition(f)),
            },
        }
    }

    /// The first sequence read, in item order, or with none the first
    /// count: the loop runs over its index.
    fn primary(&self, counts: bool) -> Option<&Pos> {
        match self {
            Plan::Element { at, .. } | Plan::Window { at, .. } => Some(at),
            Plan::Count(at) => counts.then_some(at),
            Plan::Tuple(plans) => plans.iter().find_map(|p| p.primary(counts)),
            Plan::Map { inner, .. } | Plan::Filter { inner, .. } => inner.primary(counts),
        }
    }

    /// The first sequence read, if any.
    fn first_sequence(&self) -> Option<&Sequence> {
        match self {
            Plan::Element { seq, .. } | Plan::Window { seq, .. } => Some(seq),
            Plan::Count(_) => None,
            Plan::Tuple(plans) => plans.iter().find_map(|p| p.first_sequence()),
            Plan::Map { inner, .. } | Plan::Filter { inner, .. } => inner.first_sequence(),
        }
    }
}

/// An iterator chain: how many items, and how to compute each.
struct Chain<'e> {
    /// The number of items; where negative, there are none.
    len: Lin,
    plan: Plan<'e>,
    /// Whether a `filter` skips items: positions then no longer count
    /// items, and what counts them (`enumerate`, `skip`, ...) may not follow.
    filtered: bool,
}

/// The loop a chain runs as: its index, and the position of the plan it
/// indexes.
struct Frame {
    index: ValueId,
    primary: Pos,
}

impl Lowerer<'_> {
    /// A method call of an iterator chain, as a value: the chain consumed
    /// by `sum`, `product` or `fold`, or one error for the chain. `None`
    /// if the call is not part of an iterator chain.
    pub(super) fn lower_iterator_method(&mut self, m: &syn::ExprMethodCall) -> Option<Operand> {
        let name = m.method.to_string();
        if is_search(m) {
            let kind = match name.as_str() {
                "any" | "all" => Kind::Bool,
                _ => Kind::Int,
            };
            return Some(self.lower_primal_search(m, kind));
        }
        let consumer = is_consumer(m);
        if !consumer && !is_iterator_call(m) {
            return None;
        }
        if !consumer {
            if self.parse_adapter(m).is_some() {
                self.cx.error_spanned_by(
                    m,
                    format!(
                        "an iterator is supported where it is consumed: end the chain with `sum()`, `product()` or `fold(..)`, or iterate over it with `for`; supported: {}",
                        supported()
                    ),
                );
            }
            return Some(self.missing(m.span()));
        }
        let item = match name.as_str() {
            "fold" => self.lower_fold(m),
            "collect" => Item::Value(self.lower_collect(m)),
            _ => Item::Value(self.lower_reduce(m)),
        };
        Some(match item {
            Item::Value(o) => o,
            _ => {
                self.cx.error_spanned_by(
                    m,
                    "this `fold` gives a tuple: bind its components with `let (a, b) = ..;`",
                );
                self.missing(m.span())
            }
        })
    }

    /// Whether `m` is `.fold(init, f)` of an iterator chain.
    pub(super) fn is_iterator_fold(&self, m: &syn::ExprMethodCall) -> bool {
        m.method == "fold" && is_consumer(m)
    }

    /// `for pattern in chain { body }`.
    pub(super) fn lower_for_iter(&mut self, f: &syn::ExprForLoop) {
        let Some(chain) = self.parse_chain(&f.expr) else {
            return;
        };
        let checkpoint = crate::checkpoint::of_loop(self.cx, &f.attrs);
        self.lower_chain_loop(chain, checkpoint, f.expr.span(), &mut |l, item| {
            l.bind_pattern(&f.pat, item, None, f.pat.span());
            if let Some(t) = l.lower_stmts(&f.body.stmts) {
                l.value_unused(t);
            }
        });
    }

    /// `chain.sum()` or `chain.product()`: a loop with a running value,
    /// from the neutral element Rust's own `Sum` and `Product` of floats
    /// start from (`-0.0`, so that a sum of `-0.0`s is `-0.0`), adding in
    /// item order, as they do.
    fn lower_reduce(&mut self, m: &syn::ExprMethodCall) -> Operand {
        let (neutral, op, token) = match m.method.to_string().as_str() {
            "sum" => ("-0.0", Operator::Add, quote!(+)),
            _ => ("1.0", Operator::Mul, quote!(*)),
        };
        if !m.args.is_empty() {
            self.cx
                .error_spanned_by(&m.args, format!("`{}` takes no arguments", m.method));
            return self.missing(m.span());
        }
        let Some(chain) = self.parse_chain(&m.receiver) else {
            return self.missing(m.span());
        };
        let turbofish = m.turbofish.as_ref().and_then(|t| match t.args.first() {
            Some(syn::GenericArgument::Type(ty)) => Some(ty.clone()),
            _ => None,
        });
        let span = m.span();
        // A sum of integers (`sum::<usize>()`, a range's) starts from the
        // integer neutral element.
        let integer = match &turbofish {
            Some(ty) => float_ident(ty).is_none() && !self.is_scalar_param(ty),
            None => matches!(chain.plan, Plan::Count(_)),
        };
        let init = if integer {
            let neutral = if op == Operator::Add { "0" } else { "1" };
            let dst = self.new_value(Kind::Int, None);
            self.push(Stmt::Let {
                dst,
                op: Op::Copy(Operand::Const(
                    syn::LitInt::new(neutral, span).into_token_stream(),
                )),
                span,
                ty: turbofish.map(Box::new),
            });
            Operand::Value(dst)
        } else {
            // In the second-order copy every float of the body is its
            // scalar, constants read by name included (lifted where read):
            // a running value of items of no known type is one too.
            let float = turbofish
                .as_ref()
                .and_then(|ty| float_ident(ty).or_else(|| self.scalar_param(ty)))
                .or_else(|| self.chain_float(&chain))
                .or_else(|| self.scalar.clone().filter(|_| self.lifts_constants));
            let init: Expr = match &self.scalar {
                // A generic scalar has no literals: its own zero (negated)
                // and one.
                Some(t) if float.as_ref() == Some(t) => {
                    let real = quote!(<#t as ::autograd::__private::rules::Real>);
                    if op == Operator::Add {
                        syn::parse_quote!(-#real::zero())
                    } else {
                        syn::parse_quote!(#real::one())
                    }
                }
                _ => syn::parse_str(neutral).unwrap_or_else(|_| syn::parse_quote!(0.0)),
            };
            self.float_literal(&init, float, span)
        };
        let method = m.method.clone();
        let name = method.to_string();
        let not_a_value = format!(
            "`{method}` takes values: map each item to one first, such as `.map(|(a, b)| a * b)`"
        );
        let step = &mut |l: &mut Self, acc, item| {
            let (Item::Value(acc), Item::Value(item)) = (acc, item) else {
                l.cx.error_spanned_by(&method, &not_a_value);
                return Item::Value(l.missing(span));
            };
            let args = vec![acc, item];
            let kind = l.result_kind(&args);
            Item::Value(Operand::Value(l.emit(
                Op::Rule {
                    rule: table::operator_rule(op),
                    args,
                    syntax: Syntax::Operator(token.clone()),
                },
                kind,
                span,
            )))
        };
        match self.accumulate(chain, Item::Value(init), &name, span, step) {
            Item::Value(o) => o,
            _ => self.missing(span),
        }
    }

    /// `chain.collect::<Vec<f64>>()` (or typed by its `let`): the `Vec` a
    /// user would build, `Vec::with_capacity(len)` and one `push` per item,
    /// so that its elements' adjoints are those of any local `Vec`.
    fn lower_collect(&mut self, m: &syn::ExprMethodCall) -> Operand {
        let span = m.span();
        let into_vec = match m.turbofish.as_ref().map(|t| t.args.first()) {
            None => true,
            Some(Some(syn::GenericArgument::Type(syn::Type::Path(p)))) => {
                p.qself.is_none() && p.path.segments.last().is_some_and(|s| s.ident == "Vec")
            }
            Some(_) => false,
        };
        if !into_vec || !m.args.is_empty() {
            let at: &dyn ToTokens = match &m.turbofish {
                Some(t) => t,
                None => &m.method,
            };
            self.cx.error_spanned_by(
                at,
                "`collect` is supported into a `Vec` of floats: `collect::<Vec<f64>>()`, or `let v: Vec<f64> = chain.collect();`",
            );
            return self.missing(span);
        }
        let Some(chain) = self.parse_chain(&m.receiver) else {
            return self.missing(span);
        };
        let capacity = self.emit_lin(&chain.len, true, span);
        let init = match capacity {
            Operand::Const(n) => Op::Copy(Operand::Const(
                quote!(::autograd::__private::Vec::with_capacity(#n)),
            )),
            Operand::Value(n) => {
                let p = super::primal::placeholder(0, span);
                Op::Primal {
                    expr: syn::parse_quote!(::autograd::__private::Vec::with_capacity(#p)),
                    bindings: vec![(p.to_string(), n)],
                }
            }
        };
        let init = self.emit(init, Kind::Array, span);
        // The element type, for what later reads the `Vec` (a sum's typed
        // neutral element): the turbofish's, else the chain's.
        let elem_type = match m.turbofish.as_ref().and_then(|t| t.args.first()) {
            Some(syn::GenericArgument::Type(syn::Type::Path(p))) => {
                match p.path.segments.last().map(|s| &s.arguments) {
                    Some(syn::PathArguments::AngleBracketed(a)) => match a.args.first() {
                        Some(syn::GenericArgument::Type(t)) => {
                            float_ident(t).or_else(|| self.scalar_param(t))
                        }
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        };
        self.values[init].float = elem_type.or_else(|| self.chain_float(&chain));
        let init = Operand::Value(init);
        let method = m.method.clone();
        let step = &mut |l: &mut Self, acc, item| {
            let (Item::Value(Operand::Value(array)), Item::Value(elem)) = (acc, item) else {
                l.cx.error_spanned_by(
                    &method,
                    "`collect` takes values: map each item to one first, such as `.map(|(a, b)| a * b)`",
                );
                return Item::Value(l.missing(span));
            };
            Item::Value(Operand::Value(l.emit(
                Op::Push { array, elem },
                Kind::Array,
                span,
            )))
        };
        match self.accumulate(chain, Item::Value(init), "collected", span, step) {
            Item::Value(o) => o,
            _ => self.missing(span),
        }
    }

    /// `chain.fold(init, |acc, v| ..)`: a loop carrying the accumulator
    /// (a value, or a tuple of them).
    pub(super) fn lower_fold(&mut self, m: &syn::ExprMethodCall) -> Item {
        let span = m.span();
        if m.args.len() != 2 {
            self.cx.error_spanned_by(
                m,
                "`fold` takes an initial value and a closure: `fold(0.0, |acc, v| acc + v)`",
            );
            return Item::Value(self.missing(span));
        }
        let Some(chain) = self.parse_chain(&m.receiver) else {
            return Item::Value(self.missing(span));
        };
        let float = self.chain_float(&chain);
        let init = self.lower_item_expr(&m.args[0]);
        let init = self.typed_literals(init, float.as_ref(), span);
        let closure = &m.args[1];
        let name = match strip_parens(closure) {
            Expr::Closure(c) => match c.inputs.first() {
                Some(Pat::Ident(pi)) => pi.ident.to_string(),
                _ => "fold".to_string(),
            },
            _ => "fold".to_string(),
        };
        self.accumulate(chain, init, &name, span, &mut |l, acc, item| {
            l.apply_closure(closure, vec![acc, item], "fold", span)
        })
    }

    /// Float literals of an initial value typed as the chain's elements,
    /// so that the carried variable is not an ambiguous `{float}`.
    fn typed_literals(&mut self, item: Item, float: Option<&syn::Ident>, span: Span) -> Item {
        match item {
            Item::Value(Operand::Const(t)) => {
                let e: Option<Expr> = syn::parse2(t.clone()).ok();
                match e {
                    Some(e) if const_kind(&e) == Kind::Float && const_float(&e).is_none() => {
                        Item::Value(self.float_literal(&e, float.cloned(), span))
                    }
                    _ => Item::Value(Operand::Const(t)),
                }
            }
            Item::Tuple(items) => Item::Tuple(
                items
                    .into_iter()
                    .map(|i| self.typed_literals(i, float, span))
                    .collect(),
            ),
            other => other,
        }
    }

    /// A float literal bound to a value of the given float type.
    fn float_literal(&mut self, lit: &Expr, float: Option<syn::Ident>, span: Span) -> Operand {
        let dst = self.new_value(Kind::Float, None);
        self.values[dst].float.clone_from(&float);
        let ty = float.map(|f| Box::new(syn::Type::Verbatim(f.into_token_stream())));
        self.push(Stmt::Let {
            dst,
            op: Op::Copy(Operand::Const(lit.to_token_stream())),
            span,
            ty,
        });
        Operand::Value(dst)
    }

    fn chain_float(&self, chain: &Chain) -> Option<syn::Ident> {
        let mut seq = chain.plan.first_sequence()?;
        loop {
            match seq {
                Sequence::Slice(v) | Sequence::Array(v) => return self.values[*v].float.clone(),
                Sequence::Constant(_) => return None,
                Sequence::Data { elem, .. } => return self.scalar_ident(elem),
                Sequence::Window { base, .. } | Sequence::Sub { base, .. } => seq = base,
            }
        }
    }

    /// Runs a chain as a loop carrying `init` (each value of it a variable
    /// of the loop); `step` computes the next from the current and the
    /// item. The value after the loop, shaped as `init`.
    fn accumulate(
        &mut self,
        chain: Chain,
        init: Item,
        name: &str,
        span: Span,
        step: &mut dyn FnMut(&mut Self, Item, Item) -> Item,
    ) -> Item {
        let mut leaves = Vec::new();
        if !flatten(&init, &mut leaves) {
            self.cx
                .error_at(span, "an accumulator is a value or a tuple of values");
            return Item::Value(self.missing(span));
        }
        // The running values are variables of a scope of their own, under
        // names no identifier of the user resolves to.
        self.scopes.push(Vec::new());
        let scope = self.scopes.len() - 1;
        for (k, leaf) in leaves.into_iter().enumerate() {
            let kind = match &leaf {
                Operand::Value(v) => self.values[*v].kind,
                Operand::Const(t) => {
                    syn::parse2::<Expr>(t.clone()).map_or(Kind::Unknown, |e| self.const_kind(&e))
                }
            };
            let value = self.materialize(leaf, kind, span);
            let name = if k == 0 {
                name.to_string()
            } else {
                format!("{name}_{k}")
            };
            self.scopes[scope].push(Binding {
                name,
                context: RUNNING_VALUE.to_string(),
                value,
                mutable: true,
                ty: None,
                option: None,
                inout: false,
                nested: None,
                record: None,
                field: None,
            });
        }
        let count = self.scopes[scope].len();
        let current = |l: &Self| -> Vec<Operand> {
            (0..count)
                .map(|b| Operand::Value(l.scopes[scope][b].value))
                .collect()
        };
        let shape = init;
        self.lower_chain_loop(chain, None, span, &mut |l, item| {
            let acc = rebuild(&shape, &mut current(l).into_iter());
            let next = step(l, acc, item);
            let mut values = Vec::new();
            if !flatten(&next, &mut values) || values.len() != count {
                l.cx.error_at(
                    span,
                    "the closure of `fold` returns a value shaped like the initial one",
                );
                return;
            }
            for (b, o) in values.into_iter().enumerate() {
                let kind = l.values[l.scopes[scope][b].value].kind;
                let v = l.materialize(o, kind, span);
                l.scopes[scope][b].value = v;
            }
        });
        let after = current(self);
        self.scopes.pop();
        rebuild(&shape, &mut after.into_iter())
    }

    /// Lowers the loop of a chain; `consume` lowers what the body does with
    /// each item, in the body's scope.
    fn lower_chain_loop(
        &mut self,
        chain: Chain,
        checkpoint: Option<crate::ir::Checkpoint>,
        span: Span,
        consume: &mut dyn FnMut(&mut Self, Item),
    ) {
        let primary = chain
            .plan
            .primary(false)
            .or_else(|| chain.plan.primary(true))
            .cloned()
            // A loop runs over a strided sequence's positions, not its indices.
            .filter(|p| p.stride == 1)
            .unwrap_or_else(Pos::start);
        // The index runs from the primary's first index over `len` indices,
        // up or down. A bound that would be negative (no items) saturates
        // at zero, which keeps the range empty.
        let (lo, hi) = if primary.forward {
            (primary.offset.clone(), primary.offset.plus(&chain.len, 1))
        } else {
            let hi = primary.offset.plus(&Lin::constant(1), 1);
            (hi.plus(&chain.len, -1), hi)
        };
        let start = self.emit_lin(&lo, true, span);
        let end = self.emit_lin(&hi, true, span);
        let plan = chain.plan;
        self.lower_loop_with(checkpoint, span, |l| {
            let index = l.new_value(Kind::Int, Some("i".to_string()));
            let frame = Frame {
                index,
                primary: primary.clone(),
            };
            l.lower_plan(&plan, &frame, span, consume);
            LoopHeader::Range {
                index: Some(index),
                start,
                end,
                inclusive: false,
                reversed: !primary.forward,
            }
        });
    }

    /// Lowers the item of a plan in the loop body and hands it to `k`; a
    /// filter runs `k` only where its condition holds.
    fn lower_plan(
        &mut self,
        plan: &Plan,
        frame: &Frame,
        span: Span,
        k: &mut dyn FnMut(&mut Self, Item),
    ) {
        match plan {
            Plan::Map { closure, inner } => self.lower_plan(inner, frame, span, &mut |l, item| {
                let out = l.apply_closure(closure, vec![item], "map", span);
                k(l, out)
            }),
            Plan::Filter { closure, inner } => {
                self.lower_plan(inner, frame, span, &mut |l, item| {
                    let keep = l.apply_closure(closure, vec![item.clone()], "filter", span);
                    let Item::Value(cond) = keep else {
                        l.cx.error_spanned_by(closure, "the closure of `filter` returns a `bool`");
                        return;
                    };
                    l.lower_guarded(cond, |l| k(l, item));
                })
            }
            plan => {
                let item = self.base_item(plan, frame, span);
                k(self, item)
            }
        }
    }

    /// The item of a plan without filters (which cannot follow `zip`).
    fn base_item(&mut self, plan: &Plan, frame: &Frame, span: Span) -> Item {
        match plan {
            Plan::Element { seq, at } => {
                let index = self.index_at(at, frame, span);
                Item::Value(self.sequence_element(seq, index, span))
            }
            Plan::Window { seq, at, width } => Item::Seq(Sequence::Window {
                base: Box::new(seq.clone()),
                start: self.index_at(at, frame, span),
                width: *width,
            }),
            Plan::Count(at) => Item::Value(self.index_at(at, frame, span)),
            Plan::Tuple(plans) => Item::Tuple(
                plans
                    .iter()
                    .map(|p| self.base_item(p, frame, span))
                    .collect(),
            ),
            Plan::Map { closure, inner } => {
                let item = self.base_item(inner, frame, span);
                self.apply_closure(closure, vec![item], "map", span)
            }
            Plan::Filter { .. } => Item::Value(self.missing(span)),
        }
    }

    /// The index a position reads at the loop's index `i`:
    /// `offset + s·stride·(i − primary offset)`, `s` the relative direction
    /// (the primary's stride is 1).
    fn index_at(&mut self, at: &Pos, frame: &Frame, span: Span) -> Operand {
        let s = at.sign() * frame.primary.sign() * at.stride;
        let index = Lin::of(Operand::Value(frame.index));
        let lin = at.offset.plus(&index, s).plus(&frame.primary.offset, -s);
        self.emit_lin(&lin, false, span)
    }

    /// `body` under `if cond`, its assignments joined after it.
    fn lower_guarded(&mut self, cond: Operand, body: impl FnOnce(&mut Self)) {
        let before = self.snapshot();
        self.begin_block();
        self.scopes.push(Vec::new());
        body(self);
        self.scopes.pop();
        let then_blk = self.end_block();
        let after_then = self.snapshot();
        self.restore(&before);
        self.begin_block();
        let else_blk = self.end_block();
        let phis = self.assignment_phis(&before, &after_then, &before);
        self.push(Stmt::If(If {
            cond,
            then_blk,
            else_blk,
            phis,
            cfg: None,
        }));
    }

    /// A closure of an adapter applied to items, its body lowered inline.
    /// A path (`f64::exp`, a `#[differentiable]` function) is the closure
    /// calling it.
    fn apply_closure(&mut self, closure: &Expr, args: Vec<Item>, method: &str, span: Span) -> Item {
        match strip_parens(closure) {
            Expr::Closure(c) if c.inputs.len() == args.len() => {
                self.scopes.push(Vec::new());
                for (p, a) in c.inputs.iter().zip(args) {
                    self.bind_pattern(p, a, None, p.span());
                }
                let out = self.lower_item_expr(&c.body);
                self.scopes.pop();
                out
            }
            Expr::Closure(c) => {
                self.cx.error_spanned_by(
                    &c.inputs,
                    format!("the closure of `{method}` takes {} argument(s)", args.len()),
                );
                Item::Value(self.missing(span))
            }
            Expr::Path(p) => {
                let params: Vec<syn::Ident> = (0..args.len())
                    .map(|k| syn::Ident::new(&format!("__ad_item{k}"), Span::mixed_site()))
                    .collect();
                let call: Expr = syn::parse_quote_spanned!(p.span()=> #p(#(#params),*));
                self.scopes.push(Vec::new());
                for (ident, arg) in params.iter().zip(args) {
                    match arg {
                        Item::Value(o) => self.bind_operand(Some(ident), false, None, o, span),
                        _ => {
                            let message = format!(
                                "`{method}` passes a tuple here: write a closure that takes it apart, `|(a, b)| ..`"
                            );
                            self.cx.error_spanned_by(p, message)
                        }
                    }
                }
                let out = self.lower_item_expr(&call);
                self.scopes.pop();
                out
            }
            other => {
                self.cx.error_spanned_by(
                    other,
                    format!("`{method}` takes a closure, such as `|v| ..`, or a function path"),
                );
                Item::Value(self.missing(span))
            }
        }
    }

    /// Reads an iterator chain (or a sequence iterated as one); reports
    /// what is not supported, once, and gives `None`.
    fn parse_chain<'e>(&mut self, e: &'e Expr) -> Option<Chain<'e>> {
        if let Some((a, b)) = free_zip(e) {
            let (a, b) = (self.parse_chain(a)?, self.parse_chain(b)?);
            if a.filtered || b.filtered {
                self.cx.error_spanned_by(
                    e,
                    "`zip` of a filtered iterator is not supported: it would pair the items the filter keeps; put `filter` last (before `map` and the consumer), or write an index loop with an `if`",
                );
                return None;
            }
            let len = self.min_len(&a.len, &b.len, e.span());
            return Some(Chain {
                len,
                plan: Plan::Tuple(vec![a.plan, b.plan]),
                filtered: false,
            });
        }
        match strip_parens(e) {
            Expr::Reference(r) if r.mutability.is_none() => self.parse_chain(&r.expr),
            Expr::MethodCall(m) => self.parse_adapter(m),
            other => self.chain_source(other),
        }
    }

    /// A sequence iterated from its start, or a range.
    fn chain_source<'e>(&mut self, e: &'e Expr) -> Option<Chain<'e>> {
        if let Expr::Range(r) = strip_parens(e) {
            let (Some(start), Some(end)) = (&r.start, &r.end) else {
                self.cx
                    .error_spanned_by(r, "the range of an iterator needs both bounds");
                return None;
            };
            let start = Lin::of(self.lower_expr(start));
            let mut end = Lin::of(self.lower_expr(end));
            if matches!(r.limits, syn::RangeLimits::Closed(_)) {
                end = end.plus(&Lin::constant(1), 1);
            }
            return Some(Chain {
                len: end.plus(&start, -1),
                plan: Plan::Count(Pos {
                    offset: start,
                    forward: true,
                    stride: 1,
                }),
                filtered: false,
            });
        }
        // `&x[a..b]` of a slice, array, `Vec` or sub-slice: a view whose
        // range the primal checks.
        if let Some(seq) = self.sub_slice_of(e) {
            let len = self.sequence_len(&seq, e.span());
            return Some(Chain {
                len: Lin::of(len),
                plan: Plan::Element {
                    seq,
                    at: Pos::start(),
                },
                filtered: false,
            });
        }
        if let Expr::Index(i) = strip_parens(e)
            && let Expr::Range(r) = strip_parens(&i.index)
            && let Some(seq) = self.sequence_or_field(&i.expr)
        {
            return Some(self.sub_slice_chain(seq, r, e.span()));
        }
        // `for sign in [1.0, -1.0]`: the array, a value of its own.
        let literal = match strip_parens(e) {
            Expr::Array(_) | Expr::Repeat(_) => self.lower_expr(e).value(),
            _ => None,
        };
        let seq = match literal {
            Some(v) if self.values[v].kind == Kind::Array => Some(Sequence::Array(v)),
            _ => self.sequence_or_field(e),
        };
        let Some(seq) = seq else {
            self.not_a_sequence(e);
            return None;
        };
        let len = self.sequence_len(&seq, e.span());
        Some(Chain {
            len: Lin::of(len),
            plan: Plan::Element {
                seq,
                at: Pos::start(),
            },
            filtered: false,
        })
    }

    /// `x[a..b]` (`x[a..]`, `x[..b]`, `x[a..=b]`) iterated: the elements of
    /// `x` from `a` on, `b - a` of them, as `x.iter().skip(a).take(b - a)`.
    fn sub_slice_chain<'e>(&mut self, seq: Sequence, r: &syn::ExprRange, span: Span) -> Chain<'e> {
        let start = match &r.start {
            Some(a) => Lin::of(self.lower_expr(a)),
            None => Lin::constant(0),
        };
        let end = match &r.end {
            Some(b) => {
                let end = Lin::of(self.lower_expr(b));
                match r.limits {
                    syn::RangeLimits::Closed(_) => end.plus(&Lin::constant(1), 1),
                    syn::RangeLimits::HalfOpen(_) => end,
                }
            }
            None => Lin::of(self.sequence_len(&seq, span)),
        };
        Chain {
            len: end.plus(&start, -1),
            plan: Plan::Element {
                seq,
                at: Pos {
                    offset: start,
                    forward: true,
                    stride: 1,
                },
            },
            filtered: false,
        }
    }

    fn not_a_sequence(&self, e: &Expr) {
        if self.nested_misused(e) {
            return;
        }
        if self.constant_field(e) || self.opaque_element(e) {
            self.cx.error_spanned_by(e, super::CONSTANT_FIELD_ELEMENTS);
            return;
        }
        self.cx.error_spanned_by(
            e,
            "iteration is supported over slice arguments (`&[f64]`, `&Vec<f64>`), local arrays and `Vec`s, nalgebra vectors and matrices, `#[constant]` collections, `const` arrays, windows and integer ranges; for anything else write an index loop, `for i in 0..n`",
        );
    }

    fn parse_adapter<'e>(&mut self, m: &'e syn::ExprMethodCall) -> Option<Chain<'e>> {
        let name = m.method.to_string();
        let span = m.span();
        let arg = m.args.first();
        match (name.as_str(), arg, m.args.len()) {
            ("iter" | "into_iter", _, 0) => self.chain_source(&m.receiver),
            ("windows" | "chunks_exact", Some(width), 1) => {
                let seq = match self.sub_slice_of(&m.receiver) {
                    Some(sub) => Some(sub),
                    None => self.sequence_or_field(&m.receiver),
                };
                let Some(seq) = seq else {
                    self.not_a_sequence(&m.receiver);
                    return None;
                };
                let Some(width) = literal_width(width) else {
                    self.cx.error_spanned_by(
                        &m.args,
                        format!(
                            "`{name}` takes a literal width of at least 1, such as `{name}(2)`"
                        ),
                    );
                    return None;
                };
                let len = self.sequence_len(&seq, span);
                // `windows(k)`: one window per start, len − k + 1 of them;
                // `chunks_exact(k)`: len / k chunks, the rest left out.
                let (len, stride) = if name == "windows" {
                    (Lin::of(len).plus(&Lin::constant(width as i64 - 1), -1), 1)
                } else {
                    let k = int_const(width as i64, span);
                    let chunks = self.primal_int(
                        quote!(::core::primitive::usize::div_euclid),
                        vec![len, k],
                        span,
                    );
                    (Lin::of(chunks), width as i64)
                };
                Some(Chain {
                    len,
                    plan: Plan::Window {
                        seq,
                        at: Pos {
                            stride,
                            ..Pos::start()
                        },
                        width,
                    },
                    filtered: false,
                })
            }
            ("copied" | "cloned", _, 0) => self.parse_chain(&m.receiver),
            ("enumerate", _, 0) => {
                let inner = self.positional_chain(m)?;
                Some(Chain {
                    len: inner.len,
                    plan: Plan::Tuple(vec![Plan::Count(Pos::start()), inner.plan]),
                    filtered: false,
                })
            }
            ("zip", Some(other), 1) => {
                let a = self.positional_chain(m)?;
                let b = self.parse_chain(other)?;
                if b.filtered {
                    self.after_filter(m);
                    return None;
                }
                let len = self.min_len(&a.len, &b.len, span);
                Some(Chain {
                    len,
                    plan: Plan::Tuple(vec![a.plan, b.plan]),
                    filtered: false,
                })
            }
            ("map" | "filter", Some(closure), 1) => {
                let inner = self.parse_chain(&m.receiver)?;
                let filter = name == "filter";
                let inner_plan = Box::new(inner.plan);
                Some(Chain {
                    len: inner.len,
                    plan: if filter {
                        Plan::Filter {
                            closure,
                            inner: inner_plan,
                        }
                    } else {
                        Plan::Map {
                            closure,
                            inner: inner_plan,
                        }
                    },
                    filtered: inner.filtered || filter,
                })
            }
            // Position p reads what position len − 1 − p read.
            ("rev", _, 0) => {
                let inner = self.parse_chain(&m.receiver)?;
                let last = inner.len.plus(&Lin::constant(1), -1);
                let plan = inner.plan.reposition(&|at| Pos {
                    offset: at.offset.plus(&last, at.step()),
                    forward: !at.forward,
                    stride: at.stride,
                });
                Some(Chain { plan, ..inner })
            }
            // Position p reads what position p + k read.
            ("skip", Some(k), 1) => {
                let inner = self.positional_chain(m)?;
                let k = Lin::of(self.lower_expr(k));
                let plan = inner.plan.reposition(&|at| Pos {
                    offset: at.offset.plus(&k, at.step()),
                    forward: at.forward,
                    stride: at.stride,
                });
                Some(Chain {
                    len: inner.len.plus(&k, -1),
                    plan,
                    filtered: false,
                })
            }
            // Position p reads what position k·p read.
            ("step_by", Some(k), 1) => {
                let inner = self.positional_chain(m)?;
                let Some(step) = literal_width(k) else {
                    self.cx.error_spanned_by(
                        &m.args,
                        "`step_by` takes a literal step of at least 1, such as `step_by(2)`",
                    );
                    return None;
                };
                let plan = inner.plan.reposition(&|at| Pos {
                    stride: at.stride * step as i64,
                    ..at.clone()
                });
                // ⌈len / k⌉ items.
                let len = self.emit_lin(&inner.len, true, span);
                let step = int_const(step as i64, span);
                let len = self.primal_int(
                    quote!(::core::primitive::usize::div_ceil),
                    vec![len, step],
                    span,
                );
                Some(Chain {
                    len: Lin::of(len),
                    plan,
                    filtered: false,
                })
            }
            ("take", Some(k), 1) => {
                let inner = self.positional_chain(m)?;
                let k = Lin::of(self.lower_expr(k));
                let len = self.min_len(&inner.len, &k, span);
                Some(Chain { len, ..inner })
            }
            (root, ..) if UNSUPPORTED_ROOTS.contains(&root) => {
                self.cx.error_spanned_by(
                    &m.method,
                    format!(
                        "unsupported iterator method `{name}`; supported: {}; or write an index loop over the chunks, `for j in 0..x.len() / k`, reading `x[k * j + i]`",
                        supported()
                    ),
                );
                None
            }
            _ => {
                // The first unsupported method of the chain is the one
                // reported.
                self.parse_chain(&m.receiver)?;
                self.cx.error_spanned_by(
                    &m.method,
                    format!(
                        "unsupported iterator method `{name}`; supported: {}; or write an index loop, `for i in 0..x.len()`",
                        supported()
                    ),
                );
                None
            }
        }
    }

    /// The chain `m` is a method of, which `m` counts the items of: no
    /// `filter` before it.
    fn positional_chain<'e>(&mut self, m: &'e syn::ExprMethodCall) -> Option<Chain<'e>> {
        let inner = self.parse_chain(&m.receiver)?;
        if inner.filtered {
            self.after_filter(m);
            return None;
        }
        Some(inner)
    }

    fn after_filter(&self, m: &syn::ExprMethodCall) {
        self.cx.error_spanned_by(
            &m.method,
            format!(
                "`{}` after `filter` is not supported: it would count the items the filter keeps; put `filter` last (before `map` and the consumer), or write an index loop with an `if`",
                m.method
            ),
        );
    }

    /// The smaller of two counts (either may be negative: no items).
    fn min_len(&mut self, a: &Lin, b: &Lin, span: Span) -> Lin {
        if a.same(b) {
            return a.clone();
        }
        if let (Some(x), Some(y)) = (a.as_constant(), b.as_constant()) {
            return Lin::constant(x.min(y));
        }
        let (a, b) = (self.emit_lin(a, true, span), self.emit_lin(b, true, span));
        Lin::of(self.primal_int(quote!(::core::cmp::min), vec![a, b], span))
    }

    /// An integer function of integers, as primal code.
    pub(super) fn primal_int(
        &mut self,
        func: TokenStream,
        args: Vec<Operand>,
        span: Span,
    ) -> Operand {
        let mut bindings = Vec::new();
        let args: Vec<TokenStream> = args
            .into_iter()
            .map(|a| match a {
                Operand::Const(t) => t,
                Operand::Value(v) => {
                    let p = super::primal::placeholder(bindings.len(), span);
                    bindings.push((p.to_string(), v));
                    p.into_token_stream()
                }
            })
            .collect();
        let expr: Expr = syn::parse_quote!(#func(#(#args),*));
        if bindings.is_empty() {
            return Operand::Const(expr.into_token_stream());
        }
        Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Int, span))
    }

    /// The code of an integer: its positive terms added first, then the
    /// negative ones subtracted, so no partial result is below the final
    /// one; `saturating` where the final one may be negative (a bound of
    /// an empty loop), which then gives zero.
    fn emit_lin(&mut self, lin: &Lin, saturating: bool, span: Span) -> Operand {
        let mut total: Option<Operand> = None;
        let mut negatives = Vec::new();
        for (_, o, c) in &lin.terms {
            let term = match c.abs() {
                1 => o.clone(),
                n => self.int_op(Operator::Mul, o.clone(), int_const(n, span), span),
            };
            if *c > 0 {
                total = Some(match total {
                    None => term,
                    Some(t) => self.int_add(t, term, span),
                });
            } else {
                negatives.push(term);
            }
        }
        if lin.constant > 0 {
            let c = int_const(lin.constant, span);
            total = Some(match total {
                None => c,
                Some(t) => self.int_add(t, c, span),
            });
        } else if lin.constant < 0 {
            negatives.push(int_const(-lin.constant, span));
        }
        let mut total = total.unwrap_or_else(|| int_const(0, span));
        for n in negatives {
            total = if saturating {
                self.primal_int(
                    quote!(::core::primitive::usize::saturating_sub),
                    vec![total, n],
                    span,
                )
            } else if let (Operand::Const(a), Operand::Const(b)) = (&total, &n) {
                Operand::Const(quote!((#a - #b)))
            } else {
                self.int_op(Operator::Sub, total, n, span)
            };
        }
        total
    }
}

/// A name no identifier of the user resolves to (see `hygiene`): the
/// running value of a `sum`, `product` or `fold`.
const RUNNING_VALUE: &str = "<running value>";

/// The values of an item, in order; `false` if it holds a sequence.
fn flatten(item: &Item, out: &mut Vec<Operand>) -> bool {
    match item {
        Item::Value(o) => {
            out.push(o.clone());
            true
        }
        Item::Tuple(items) => items.iter().all(|i| flatten(i, out)),
        Item::Seq(_) => false,
    }
}

/// An item shaped like `shape` holding the next values of `values`.
fn rebuild(shape: &Item, values: &mut impl Iterator<Item = Operand>) -> Item {
    match shape {
        Item::Tuple(items) => Item::Tuple(items.iter().map(|i| rebuild(i, values)).collect()),
        _ => Item::Value(values.next().unwrap_or(Operand::Const(quote!(0.0)))),
    }
}
