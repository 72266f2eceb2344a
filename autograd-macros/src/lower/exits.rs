//! `loop`, `break` (with a value, labelled), `continue` and `return`
//! anywhere, rewritten before lowering into the structured control the IR
//! has, so that the analysis and both sweeps replay exactly the path the
//! primal took with no case of their own (a statement whose value exits in
//! an arm is first split into the exit and the value, see [`diverging`]):
//!
//! - a loop that an exit leaves gets a flag `brk`, set by the exit: a
//!   `for` runs the rest of its iterations as no-ops (`if !brk { .. }`,
//!   keeping its known trip count and stack reservation); a `while` adds
//!   `!brk &&` to its condition; `loop` is `while !brk`;
//! - each iteration of such a loop has a flag `skip`, set by any exit
//!   inside it; the statements after one that may exit run under
//!   `if !skip`;
//! - `return e` outside loops in the function's own blocks becomes the
//!   value of a branch (`if c { return a; } rest` is `if c { a } else {
//!   rest }`); elsewhere it sets a flag and a result variable, and the
//!   function's value is `if returned { result } else { .. }`;
//! - `break v` out of `loop` assigns the loop's value variable.

use super::*;
use crate::sig::Ret;

/// Rewrites the body's exits; `None` if it has none (a `return` as its
/// last statement is lowered as its value).
/// `scalar`: a generic function's scalar type parameter.
pub(super) fn desugar(
    cx: &Ctxt,
    ret: &Ret,
    scalar: Option<&syn::Ident>,
    body: &syn::Block,
) -> Option<syn::Block> {
    if !has_exits(body) && !super::diverging::has_some_let_else(body) {
        return None;
    }
    let ty = ret.seed();
    rewrite(cx, body, ret_init(ret), Some(ty), scalar)
}

/// Rewrites the exits of a closure's body as those of a function's: its
/// `return`s are its value (`|v| { if v < 0.0 { return 0.0; } v * v }` is
/// `if v < 0.0 { 0.0 } else { v * v }`), its loops and labelled blocks are
/// the function's. `None` if it has none. A `return` that needs a result
/// variable starts it at zero of the closure's return type as written, or
/// at `0.0`.
pub(super) fn desugar_closure(
    cx: &Ctxt,
    closure: &syn::ExprClosure,
    scalar: Option<&syn::Ident>,
) -> Option<Expr> {
    let body: syn::Block = match &*closure.body {
        Expr::Block(b) if b.label.is_none() && b.attrs.is_empty() => b.block.clone(),
        e => syn::parse_quote_spanned!(e.span()=> { #e }),
    };
    if !body.stmts.iter().any(stmt_has_exit) && !super::diverging::has_some_let_else(&body) {
        return None;
    }
    let (init, ty) = match &closure.output {
        syn::ReturnType::Type(_, ty) => (zero_of(ty, scalar), Some(ty.to_token_stream())),
        syn::ReturnType::Default => (zero(scalar), None),
    };
    let block = rewrite(cx, &body, Some(init), ty, scalar)?;
    Some(Expr::Block(syn::ExprBlock {
        attrs: Vec::new(),
        label: None,
        block,
    }))
}

/// Rewrites a body's exits, its `return`s giving its value (of type `ty`,
/// if known, started from `ret_init`).
fn rewrite(
    cx: &Ctxt,
    body: &syn::Block,
    ret_init: Option<TokenStream>,
    ty: Option<TokenStream>,
    scalar: Option<&syn::Ident>,
) -> Option<syn::Block> {
    let hidden = |name: &str| syn::Ident::new(name, Span::mixed_site());
    let mut exits = Exits {
        cx,
        frames: Vec::new(),
        returned: hidden("__ag_returned"),
        result: hidden("__ag_result"),
        return_sets: 0,
        next: 0,
        ret_init,
        scalar: scalar.cloned(),
        diverging: Default::default(),
    };
    let stmts = exits.block(&body.stmts, true);
    let mut out = Vec::new();
    if exits.return_sets > 0 {
        let (returned, result) = (&exits.returned, &exits.result);
        let Some(init) = &exits.ret_init else {
            cx.error_spanned_by(
                body,
                "`return` inside a loop or before the end is not supported in a function returning several values; assign the result to a variable, `break`, and return it at the end",
            );
            return None;
        };
        out.push(syn::parse_quote!(let mut #returned: bool = false;));
        out.push(match ty {
            Some(ty) => syn::parse_quote!(let mut #result: #ty = #init;),
            None => syn::parse_quote!(let mut #result = #init;),
        });
    }
    out.extend(stmts);
    Some(syn::Block {
        brace_token: body.brace_token,
        stmts: out,
    })
}

/// A value of the return type, which a `return` inside a loop replaces;
/// `None` for several values (arrays, `Vec`s, tuples), which have no such
/// placeholder yet.
fn ret_init(ret: &Ret) -> Option<TokenStream> {
    match ret {
        Ret::Float(f) | Ret::Result { ok: f, .. } if f.0 == "f32" || f.0 == "f64" => {
            Some(quote!(0.0 as #f))
        }
        // A generic scalar's zero, which lowering takes as a constant.
        Ret::Float(f) | Ret::Result { ok: f, .. } => Some(quote!(#f::zero())),
        Ret::Matrix(ty) => Some(zero_of(ty, None)),
        Ret::Outputs(_) | Ret::Unit => None,
    }
}

/// A value of type `ty`: zero, or an empty matrix (`DMatrix::zeros(0, 0)`,
/// the type's path without its generic arguments, as lowering takes
/// constructors).
fn zero_of(ty: &syn::Type, scalar: Option<&syn::Ident>) -> TokenStream {
    let syn::Type::Path(p) = ty else {
        return quote!(0.0 as #ty);
    };
    if let Some(s) = scalar
        && p.path.is_ident(s)
    {
        return zero(scalar);
    }
    if !crate::sig::is_matrix(ty) {
        return quote!(0.0 as #ty);
    }
    let mut path = p.path.clone();
    if let Some(last) = path.segments.last_mut() {
        last.arguments = syn::PathArguments::None;
    }
    if crate::sig::is_vector(ty) {
        quote!(#path::zeros(0))
    } else {
        quote!(#path::zeros(0, 0))
    }
}

/// Zero of a generic function's scalar (`S::zero()`, which lowering takes
/// as a constant), or `0.0`.
fn zero(scalar: Option<&syn::Ident>) -> TokenStream {
    match scalar {
        Some(s) => quote!(#s::zero()),
        None => quote!(0.0),
    }
}

/// The name of a `loop`'s value variable starts so; lowering reports one
/// whose value turns out to be a matrix without a type to start it from.
pub(super) const LOOP_VALUE: &str = "__ag_loop_value";

/// Whether the body has an exit other than a `return` as its last
/// statement, a `loop` or a loop label (outside closures, whose bodies are
/// lowered on their own).
fn has_exits(body: &syn::Block) -> bool {
    let (last, rest) = match body.stmts.split_last() {
        Some((SynStmt::Expr(Expr::Return(r), _), rest)) => (r.expr.as_deref(), rest),
        _ => (None, &body.stmts[..]),
    };
    rest.iter().any(stmt_has_exit) || last.is_some_and(expr_has_exit)
}

fn stmt_has_exit(stmt: &SynStmt) -> bool {
    let mut finder = Finder::new(is_exit);
    finder.visit_stmt(stmt);
    finder.found
}

fn expr_has_exit(e: &Expr) -> bool {
    let mut finder = Finder::new(is_exit);
    finder.visit_expr(e);
    finder.found
}

/// An exit, a `loop` or a label (read here and dropped).
fn is_exit(e: &Expr) -> bool {
    matches!(
        e,
        Expr::Break(_)
            | Expr::Continue(_)
            | Expr::Return(_)
            | Expr::Loop(_)
            | Expr::ForLoop(syn::ExprForLoop { label: Some(_), .. })
            | Expr::While(syn::ExprWhile { label: Some(_), .. })
            | Expr::Block(syn::ExprBlock { label: Some(_), .. })
    )
}

/// Looks for an expression `hit` accepts, outside closures (lowered on
/// their own) and items, without copying anything.
pub(super) struct Finder<F> {
    hit: F,
    pub(super) found: bool,
}

impl<F: Fn(&Expr) -> bool> Finder<F> {
    pub(super) fn new(hit: F) -> Self {
        Finder { hit, found: false }
    }
}

impl<'ast, F: Fn(&Expr) -> bool> Visit<'ast> for Finder<F> {
    fn visit_expr(&mut self, e: &'ast Expr) {
        if self.found || (self.hit)(e) {
            self.found = true;
            return;
        }
        match e {
            Expr::Closure(_) => {}
            // A long sum nests to the left: walked in a loop, not thousands
            // of frames deep.
            Expr::Binary(_) => {
                let mut spine = e;
                while let Expr::Binary(b) = spine {
                    self.visit_expr(&b.right);
                    spine = &b.left;
                }
                self.visit_expr(spine);
            }
            e => syn::visit::visit_expr(self, e),
        }
    }

    fn visit_item(&mut self, _: &'ast syn::Item) {}
}

#[derive(Clone, Copy, PartialEq)]
enum LoopKind {
    For,
    While,
    Loop,
    /// A labelled block, `'a: { .. }`, which `break 'a` leaves.
    Block,
}

/// A loop being rewritten.
struct Frame {
    label: Option<String>,
    kind: LoopKind,
    /// Set once the loop is left: by `break`, and by any exit to an outer
    /// loop or out of the function.
    brk: syn::Ident,
    /// Set when the rest of the iteration is skipped: by any exit.
    skip: syn::Ident,
    /// `break value` out of `loop`: the loop's value.
    value: Option<syn::Ident>,
    brk_sets: u32,
    skip_sets: u32,
}

struct Exits<'a> {
    cx: &'a Ctxt,
    frames: Vec<Frame>,
    returned: syn::Ident,
    result: syn::Ident,
    return_sets: u32,
    next: u32,
    /// See [`ret_init`].
    ret_init: Option<TokenStream>,
    /// A generic function's scalar, whose zero starts a value variable.
    scalar: Option<syn::Ident>,
    /// Splits a statement whose value exits in an arm, before its exits
    /// are rewritten.
    diverging: super::diverging::Diverging,
}

/// `return e` (or `return e;`).
fn as_return(stmt: &SynStmt) -> Option<&syn::ExprReturn> {
    match stmt {
        SynStmt::Expr(Expr::Return(r), _) => Some(r),
        _ => None,
    }
}

/// Whether a block of statements never falls through its end: its last
/// statement is a `return`.
fn ends_in_return(stmts: &[SynStmt]) -> bool {
    stmts.last().is_some_and(|s| as_return(s).is_some())
}

fn is_labelled_block(e: &Expr) -> bool {
    matches!(e, Expr::Block(b) if b.label.is_some())
}

/// Makes a labelled block's tail expression, the value it falls through
/// to, an assignment of `value`: into the arms of an `if` and into inner
/// blocks, so an exit there stays a statement the rewrite sees.
fn assign_tail(stmts: &mut [SynStmt], value: &syn::Ident) {
    let Some(last) = stmts.last_mut() else {
        return;
    };
    let SynStmt::Expr(e, None) = last else {
        return;
    };
    match e {
        Expr::If(i) if i.else_branch.is_some() => {
            assign_tail(&mut i.then_branch.stmts, value);
            if let Some((_, e)) = &mut i.else_branch {
                let mut arm = SynStmt::Expr((**e).clone(), None);
                assign_tail(std::slice::from_mut(&mut arm), value);
                if let SynStmt::Expr(arm, _) = arm {
                    **e = arm;
                }
            }
        }
        Expr::Block(b) if b.label.is_none() => assign_tail(&mut b.block.stmts, value),
        // An exit: no value falls through.
        Expr::Break(_) | Expr::Continue(_) | Expr::Return(_) => {
            *last = SynStmt::Expr(e.clone(), Some(Default::default()));
        }
        e => {
            let span = e.span();
            *last = syn::parse_quote_spanned!(span=> #value = #e;);
        }
    }
}

/// Whether a statement carries `#[cfg]` (or `cfg_attr` that may add one,
/// which lowering reports).
fn has_cfg(stmt: &SynStmt) -> bool {
    super::control::stmt_attrs(stmt)
        .is_some_and(|attrs| attrs.iter().any(|a| super::control::adds_cfg(&a.meta)))
}

impl Exits<'_> {
    /// Zero of the function's scalar: where a value variable's type is
    /// not written, it starts as a float.
    fn zero(&self) -> TokenStream {
        zero(self.scalar.as_ref())
    }

    fn fresh(&mut self, what: &str) -> syn::Ident {
        let ident = syn::Ident::new(&format!("__ag_{what}_{}", self.next), Span::mixed_site());
        self.next += 1;
        ident
    }

    /// How many exits have left the current context so far: the innermost
    /// loop's iteration, or the function.
    fn exit_count(&self) -> u32 {
        self.frames.last().map_or(self.return_sets, |f| f.skip_sets)
    }

    /// Rewrites a block's statements. `value`: the block is the function's
    /// body or a block of its value (outside loops), whose `return`s are
    /// its value.
    fn block(&mut self, stmts: &[SynStmt], value: bool) -> Vec<SynStmt> {
        let split = self.diverging.split_stmts(stmts);
        let stmts = split.as_deref().unwrap_or(stmts);
        let mut out = Vec::new();
        for (i, stmt) in stmts.iter().enumerate() {
            let rest = &stmts[i + 1..];
            let chain = self.match_chain(stmt);
            let stmt = chain.as_ref().unwrap_or(stmt);
            if value {
                if let (Some(r), true) = (as_return(stmt), rest.is_empty()) {
                    match &r.expr {
                        Some(e) => out.push(SynStmt::Expr(self.tail((**e).clone()), None)),
                        None => self.cx.error_spanned_by(r, "`return` needs a value"),
                    }
                    return out;
                }
                if let (SynStmt::Expr(Expr::Loop(l), None), true) = (stmt, rest.is_empty()) {
                    let init = self.ret_init.clone();
                    let returns = self.return_sets;
                    let (stmts, value) = self.loop_value(l, init, None);
                    out.extend(stmts);
                    let value = match value {
                        Some(v) if self.return_sets != returns => {
                            let (returned, result) = (&self.returned, &self.result);
                            Some(syn::parse_quote!(if #returned { #result } else { #v }))
                        }
                        v => v,
                    };
                    out.extend(value.map(|v| SynStmt::Expr(v, None)));
                    return out;
                }
                if let (SynStmt::Expr(Expr::Block(b), None), true) = (stmt, rest.is_empty())
                    && b.label.is_some()
                {
                    let init = self.ret_init.clone().unwrap_or_else(|| self.zero());
                    let returns = self.return_sets;
                    let (stmts, value) = self.block_value(b, init, None);
                    out.extend(stmts);
                    let value: Expr = if self.return_sets != returns {
                        let (returned, result) = (&self.returned, &self.result);
                        syn::parse_quote!(if #returned { #result } else { #value })
                    } else {
                        value
                    };
                    out.push(SynStmt::Expr(value, None));
                    return out;
                }
                if rest.is_empty()
                    && let SynStmt::Expr(e, None) = stmt
                {
                    out.push(SynStmt::Expr(self.tail(e.clone()), None));
                    return out;
                }
                if let Some(branch) = self.early_return(stmt, rest) {
                    out.push(SynStmt::Expr(branch, None));
                    return out;
                }
            }
            let before = self.exit_count();
            out.extend(self.stmt(stmt));
            if self.exit_count() != before && !rest.is_empty() {
                let rest = self.block(rest, value);
                let guarded: Expr = match (self.frames.last(), value) {
                    (Some(f), _) => {
                        let skip = &f.skip;
                        syn::parse_quote!(if !#skip { #(#rest)* })
                    }
                    (None, false) => {
                        let returned = &self.returned;
                        syn::parse_quote!(if !#returned { #(#rest)* })
                    }
                    (None, true) => {
                        let (returned, result) = (&self.returned, &self.result);
                        syn::parse_quote!(if #returned { #result } else { #(#rest)* })
                    }
                };
                out.push(SynStmt::Expr(guarded, None));
                return out;
            }
        }
        out
    }

    /// The value of a function-level block: a `return`'s value, an `if`
    /// whose arms are blocks of the value, or an expression without exits.
    fn tail(&mut self, e: Expr) -> Expr {
        if let Some(chain) = self.match_chain_expr(&e) {
            return self.tail(chain);
        }
        match e {
            Expr::Return(r) => match r.expr {
                Some(e) => self.tail(*e),
                None => {
                    self.cx.error_spanned_by(r, "`return` needs a value");
                    syn::parse_quote!(0.0)
                }
            },
            Expr::If(mut i) => {
                i.then_branch.stmts = self.block(&i.then_branch.stmts, true);
                if let Some((_, e)) = &mut i.else_branch {
                    **e = self.tail((**e).clone());
                }
                Expr::If(i)
            }
            Expr::Block(mut b) if b.label.is_none() => {
                b.block.stmts = self.block(&b.block.stmts, true);
                Expr::Block(b)
            }
            e => e,
        }
    }

    /// `if c { ..; return a; } rest` at function level is `if c { ..; a }
    /// else { rest }`: a branch, no flag. Only where one arm falls through,
    /// so `rest` is not copied.
    fn early_return(&mut self, stmt: &SynStmt, rest: &[SynStmt]) -> Option<Expr> {
        let SynStmt::Expr(Expr::If(i), _) = stmt else {
            return None;
        };
        if has_cfg(stmt) || !stmt_has_exit(stmt) {
            return None;
        }
        // The arms of the chain, each with whether it falls through.
        let mut arms = vec![&i.then_branch];
        let mut tail = &i.else_branch;
        let falls_through_else = loop {
            match tail {
                None => break true,
                Some((_, e)) => match &**e {
                    Expr::If(nested) => {
                        arms.push(&nested.then_branch);
                        tail = &nested.else_branch;
                    }
                    Expr::Block(b) => {
                        arms.push(&b.block);
                        break false;
                    }
                    _ => return None,
                },
            }
        };
        let through = arms.iter().filter(|b| !ends_in_return(&b.stmts)).count()
            + usize::from(falls_through_else);
        if through > 1 {
            return None;
        }
        let mut i = i.clone();
        self.extend_arms(&mut i, rest);
        Some(self.tail(Expr::If(i)))
    }

    /// Appends `rest` to each arm of an `if` chain that falls through.
    fn extend_arms(&mut self, i: &mut syn::ExprIf, rest: &[SynStmt]) {
        if !ends_in_return(&i.then_branch.stmts) {
            i.then_branch.stmts.extend(rest.iter().cloned());
        }
        match &mut i.else_branch {
            None => {
                let rest = rest.to_vec();
                i.else_branch = Some((
                    Default::default(),
                    Box::new(syn::parse_quote!({ #(#rest)* })),
                ));
            }
            Some((_, e)) => match &mut **e {
                Expr::If(nested) => self.extend_arms(nested, rest),
                Expr::Block(b) if !ends_in_return(&b.block.stmts) => {
                    b.block.stmts.extend(rest.iter().cloned())
                }
                _ => {}
            },
        }
    }

    /// A `match` (or `if let`) statement with an exit in an arm as the
    /// `if` chain it is (see `matching`), whose exits the rewrite sees as
    /// those of any branch; `None` for any other statement.
    fn match_chain(&mut self, stmt: &SynStmt) -> Option<SynStmt> {
        let SynStmt::Expr(e, semi) = stmt else {
            return None;
        };
        // One under `#[cfg]` is made a chain once `stmt` has set the
        // attribute aside.
        if has_cfg(stmt) {
            return None;
        }
        Some(SynStmt::Expr(self.match_chain_expr(e)?, *semi))
    }

    /// [`Self::match_chain`] of an expression.
    fn match_chain_expr(&mut self, e: &Expr) -> Option<Expr> {
        if !matches!(e, Expr::Match(_) | Expr::If(_)) || !expr_has_exit(e) {
            return None;
        }
        super::matching::chain(self.cx, e, &mut self.next)
    }

    /// Rewrites one statement (not of the function's value).
    fn stmt(&mut self, stmt: &SynStmt) -> Vec<SynStmt> {
        if let Some(chain) = self.match_chain(stmt) {
            return self.stmt(&chain);
        }
        if has_cfg(stmt) {
            if !stmt_has_exit(stmt) {
                return vec![stmt.clone()];
            }
            // Rewritten without its `#[cfg]`s, then under them as a block:
            // in a configuration without it, no exit is taken.
            let mut bare = stmt.clone();
            let attrs = match &mut bare {
                SynStmt::Local(_) => None,
                bare => super::control::stmt_attrs_mut(bare),
            };
            let Some(attrs) = attrs else {
                self.cx.error_spanned_by(
                    stmt,
                    "`break`, `continue`, `return` and `loop` in a `let` under `#[cfg]` are not supported; set a variable under `#[cfg]` and test it",
                );
                return Vec::new();
            };
            let cfgs: Vec<syn::Attribute> = attrs
                .iter()
                .filter(|a| super::control::adds_cfg(&a.meta))
                .cloned()
                .collect();
            attrs.retain(|a| !super::control::adds_cfg(&a.meta));
            let stmts = self.stmt(&bare);
            return vec![syn::parse_quote!(#(#cfgs)* { #(#stmts)* })];
        }
        match stmt {
            SynStmt::Local(local) => match &local.init {
                Some(init) if init.diverge.is_none() && matches!(&*init.expr, Expr::Loop(_)) => {
                    let Expr::Loop(l) = &*init.expr else {
                        return vec![stmt.clone()];
                    };
                    let init_value = match &local.pat {
                        Pat::Type(pt) => zero_of(&pt.ty, self.scalar.as_ref()),
                        _ => self.zero(),
                    };
                    let (mut out, value) = self.loop_value(l, Some(init_value), None);
                    let mut local = local.clone();
                    if let (Some(init), Some(value)) = (&mut local.init, value) {
                        *init.expr = value;
                    }
                    out.push(SynStmt::Local(local));
                    out
                }
                Some(init) if init.diverge.is_none() && is_labelled_block(&init.expr) => {
                    let Expr::Block(b) = &*init.expr else {
                        return vec![stmt.clone()];
                    };
                    let init_value = match &local.pat {
                        Pat::Type(pt) => zero_of(&pt.ty, self.scalar.as_ref()),
                        _ => self.zero(),
                    };
                    let (mut out, value) = self.block_value(b, init_value, None);
                    let mut local = local.clone();
                    if let Some(init) = &mut local.init {
                        *init.expr = value;
                    }
                    out.push(SynStmt::Local(local));
                    out
                }
                _ => vec![stmt.clone()],
            },
            SynStmt::Expr(e, semi) => match e {
                Expr::Return(r) => self.exit_return(r),
                Expr::Break(b) => self.exit_break(b),
                Expr::Continue(c) => self.exit_continue(c),
                Expr::ForLoop(_) | Expr::While(_) => self.loop_stmt(e),
                Expr::Loop(l) => self.loop_value(l, None, None).0,
                Expr::Assign(a) if matches!(&*a.right, Expr::Loop(_)) => {
                    let Expr::Loop(l) = &*a.right else {
                        return vec![stmt.clone()];
                    };
                    let init = self.zero();
                    self.loop_value(l, Some(init), Some(&a.left)).0
                }
                Expr::Assign(a) if is_labelled_block(&a.right) => {
                    let Expr::Block(b) = &*a.right else {
                        return vec![stmt.clone()];
                    };
                    let init = self.zero();
                    self.block_value(b, init, Some(&a.left)).0
                }
                Expr::If(i) => {
                    let i = self.if_stmt(i);
                    vec![SynStmt::Expr(Expr::If(i), *semi)]
                }
                Expr::Block(b) if b.label.is_none() => {
                    let mut b = b.clone();
                    b.block.stmts = self.block(&b.block.stmts, false);
                    vec![SynStmt::Expr(Expr::Block(b), *semi)]
                }
                Expr::Block(b) => {
                    let frame = self.frame(b.label.as_ref(), LoopKind::Block, None);
                    let (_, body) = self.loop_body(frame, &b.block);
                    vec![SynStmt::Expr(syn::parse_quote!(#body), *semi)]
                }
                _ => vec![stmt.clone()],
            },
            _ => vec![stmt.clone()],
        }
    }

    fn if_stmt(&mut self, i: &syn::ExprIf) -> syn::ExprIf {
        let mut i = i.clone();
        i.then_branch.stmts = self.block(&i.then_branch.stmts, false);
        if let Some((_, e)) = &mut i.else_branch {
            match &mut **e {
                Expr::If(nested) => *nested = self.if_stmt(nested),
                Expr::Block(b) => b.block.stmts = self.block(&b.block.stmts, false),
                _ => {}
            }
        }
        i
    }

    /// The frame an exit with this label leaves, by index.
    fn target(&self, label: Option<&syn::Lifetime>, at: &dyn ToTokens) -> Option<usize> {
        let found = match label {
            // An unlabelled exit leaves the innermost loop, not a block.
            None => self.frames.iter().rposition(|f| f.kind != LoopKind::Block),
            Some(l) => {
                let name = l.ident.to_string();
                self.frames
                    .iter()
                    .rposition(|f| f.label.as_deref() == Some(&name))
            }
        };
        if found.is_none() {
            self.cx.error_spanned_by(
                at,
                "this exit leaves no loop or labelled block of the function",
            );
        }
        found
    }

    /// Marks the frames from `from` inward as left (`brk`) and their
    /// iterations as skipped.
    fn leave(&mut self, from: usize, span: Span) -> Vec<SynStmt> {
        let mut out = Vec::new();
        for f in &mut self.frames[from..] {
            let (brk, skip) = (&f.brk, &f.skip);
            if f.kind != LoopKind::Block {
                out.push(syn::parse_quote_spanned!(span=> #brk = true;));
                f.brk_sets += 1;
            }
            out.push(syn::parse_quote_spanned!(span=> #skip = true;));
            f.skip_sets += 1;
        }
        out
    }

    fn exit_break(&mut self, b: &syn::ExprBreak) -> Vec<SynStmt> {
        let span = b.break_token.span;
        let Some(t) = self.target(b.label.as_ref(), b) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Some(value) = &b.expr {
            match &self.frames[t].value {
                Some(v) => out.push(syn::parse_quote_spanned!(span=> #v = #value;)),
                None if self.frames[t].kind == LoopKind::Loop => self.cx.error_spanned_by(
                    b,
                    "`break` with a value is supported where the `loop`'s value is bound: `let x = loop { .. };`, `x = loop { .. };` or the value of the function",
                ),
                // rustc reports it on the function as written.
                None => {}
            }
        }
        out.extend(self.leave(t, span));
        out
    }

    fn exit_continue(&mut self, c: &syn::ExprContinue) -> Vec<SynStmt> {
        let span = c.continue_token.span;
        let Some(t) = self.target(c.label.as_ref(), c) else {
            return Vec::new();
        };
        let mut out = self.leave(t + 1, span);
        let f = &mut self.frames[t];
        let skip = &f.skip;
        out.push(syn::parse_quote_spanned!(span=> #skip = true;));
        f.skip_sets += 1;
        out
    }

    fn exit_return(&mut self, r: &syn::ExprReturn) -> Vec<SynStmt> {
        let span = r.return_token.span;
        let Some(value) = &r.expr else {
            self.cx.error_spanned_by(r, "`return` needs a value");
            return Vec::new();
        };
        let (returned, result) = (&self.returned, &self.result);
        let mut out: Vec<SynStmt> = vec![
            syn::parse_quote_spanned!(span=> #result = #value;),
            syn::parse_quote_spanned!(span=> #returned = true;),
        ];
        self.return_sets += 1;
        out.extend(self.leave(0, span));
        out
    }

    /// A `for` or `while` statement.
    fn loop_stmt(&mut self, e: &Expr) -> Vec<SynStmt> {
        let (label, attrs, body, kind) = match e {
            // `while let` is reported by lowering.
            Expr::While(w) if matches!(&*w.cond, Expr::Let(_)) => {
                return vec![SynStmt::Expr(e.clone(), None)];
            }
            Expr::ForLoop(f) => (&f.label, &f.attrs, &f.body, LoopKind::For),
            Expr::While(w) => (&w.label, &w.attrs, &w.body, LoopKind::While),
            _ => return vec![SynStmt::Expr(e.clone(), None)],
        };
        let frame = self.frame(label.as_ref(), kind, None);
        let (frame, body) = self.loop_body(frame, body);
        let brk = &frame.brk;
        let left = frame.brk_sets > 0;
        let looped: Expr = match e {
            Expr::ForLoop(f) => {
                let (pat, iter) = (&f.pat, &f.expr);
                if left {
                    syn::parse_quote!(#(#attrs)* for #pat in #iter { if !#brk #body })
                } else {
                    syn::parse_quote!(#(#attrs)* for #pat in #iter #body)
                }
            }
            Expr::While(w) => {
                let cond = &w.cond;
                if left {
                    syn::parse_quote!(#(#attrs)* while !#brk && (#cond) #body)
                } else {
                    syn::parse_quote!(#(#attrs)* while #cond #body)
                }
            }
            _ => e.clone(),
        };
        let mut out: Vec<SynStmt> = Vec::new();
        if left {
            out.push(syn::parse_quote!(let mut #brk: bool = false;));
        }
        out.push(SynStmt::Expr(looped, Some(Default::default())));
        out
    }

    /// `loop`: its statements, and its value if it has one (`init` until
    /// a `break` gives it), assigned to `target` if there is one.
    fn loop_value(
        &mut self,
        l: &syn::ExprLoop,
        init: Option<TokenStream>,
        target: Option<&Expr>,
    ) -> (Vec<SynStmt>, Option<Expr>) {
        if init.is_none()
            && let Some(w) = leading_break_as_while(l)
        {
            return (self.loop_stmt(&Expr::While(w)), None);
        }
        let value = init
            .as_ref()
            .map(|_| self.fresh(LOOP_VALUE.trim_start_matches("__ag_")));
        let frame = self.frame(l.label.as_ref(), LoopKind::Loop, value.clone());
        let (frame, body) = self.loop_body(frame, &l.body);
        let (brk, attrs) = (&frame.brk, &l.attrs);
        let mut out: Vec<SynStmt> = Vec::new();
        if let (Some(value), Some(init)) = (&value, init) {
            out.push(syn::parse_quote!(let mut #value = #init;));
        }
        out.push(syn::parse_quote!(let mut #brk: bool = false;));
        out.push(syn::parse_quote!(#(#attrs)* while !#brk #body));
        if let (Some(value), Some(target)) = (&value, target) {
            out.push(syn::parse_quote!(#target = #value;));
        }
        (out, value.map(|v| syn::parse_quote!(#v)))
    }

    /// A labelled block's value, `'a: { ..; break 'a v; ..; tail }`: a
    /// value variable (`init` until set), set by each `break 'a v` and by
    /// the tail where the block reaches it, the statements after an exit
    /// guarded as in a loop's body; assigned to `target` if there is one.
    fn block_value(
        &mut self,
        b: &syn::ExprBlock,
        init: TokenStream,
        target: Option<&Expr>,
    ) -> (Vec<SynStmt>, Expr) {
        let value = self.fresh("block_value");
        let frame = self.frame(b.label.as_ref(), LoopKind::Block, Some(value.clone()));
        let mut block = b.block.clone();
        assign_tail(&mut block.stmts, &value);
        let (_, body) = self.loop_body(frame, &block);
        let attrs = &b.attrs;
        let mut out: Vec<SynStmt> = vec![
            syn::parse_quote!(let mut #value = #init;),
            syn::parse_quote!(#(#attrs)* #body),
        ];
        if let Some(target) = target {
            out.push(syn::parse_quote!(#target = #value;));
        }
        (out, syn::parse_quote!(#value))
    }

    fn frame(
        &mut self,
        label: Option<&syn::Label>,
        kind: LoopKind,
        value: Option<syn::Ident>,
    ) -> Frame {
        Frame {
            label: label.map(|l| l.name.ident.to_string()),
            kind,
            brk: self.fresh("brk"),
            skip: self.fresh("skip"),
            value,
            brk_sets: 0,
            skip_sets: 0,
        }
    }

    /// Rewrites a loop's body in its frame; returns the frame as the
    /// body's exits left it.
    fn loop_body(&mut self, frame: Frame, body: &syn::Block) -> (Frame, syn::Block) {
        let depth = self.frames.len();
        self.frames.push(frame);
        let stmts = self.block(&body.stmts, false);
        let frame = self.frames.swap_remove(depth);
        let skip = &frame.skip;
        let skip_decl: Option<SynStmt> =
            (frame.skip_sets > 0).then(|| syn::parse_quote!(let mut #skip: bool = false;));
        let body: syn::Block = syn::parse_quote_spanned!(body.brace_token.span.join()=> {
            #skip_decl
            #(#stmts)*
        });
        (frame, body)
    }
}

/// `loop { if c { break; } rest }` as the `while !(c) { rest }` it is: the
/// rest of the body stays at the top level of the loop's, not in a branch
/// on a flag, so its reverse sweep saves what a `while` loop's saves (an
/// element it overwrites, not the whole array, issue 35).
fn leading_break_as_while(l: &syn::ExprLoop) -> Option<syn::ExprWhile> {
    let (first, rest) = l.body.stmts.split_first()?;
    let SynStmt::Expr(Expr::If(i), _) = first else {
        return None;
    };
    let [SynStmt::Expr(Expr::Break(b), _)] = &i.then_branch.stmts[..] else {
        return None;
    };
    let plain = i.attrs.is_empty() && b.attrs.is_empty() && i.else_branch.is_none();
    if !plain || b.label.is_some() || b.expr.is_some() || expr_has_exit(&i.cond) {
        return None;
    }
    if matches!(&*i.cond, Expr::Let(_)) {
        return None;
    }
    let (cond, attrs, label) = (&i.cond, &l.attrs, &l.label);
    let span = l.body.brace_token.span.join();
    Some(syn::parse_quote_spanned!(span=> #(#attrs)* #label while !(#cond) { #(#rest)* }))
}

impl Lowerer<'_> {
    /// A `loop` whose `break` gives a matrix, its value variable started
    /// from a float: the type says what to start from.
    pub(super) fn loop_value_needs_type(&self, span: Span) {
        self.cx.error_at(
            span,
            "the value of this `loop` is a matrix: give it its type, `let m: DMatrix<f64> = loop { .. };`",
        );
    }
}
