//! Lowering: syn's syntax tree to the IR.
//!
//! Lowering never panics and never stops at the first problem: it records a
//! spanned error and leaves `Op::Missing` so the rest of the body is still
//! checked.

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Expr, Pat, Stmt as SynStmt, UnOp};

use crate::catalog::{self, Rule};
use crate::ctxt::Ctxt;
use crate::ir::*;
use crate::sig::{ParamKind, Signature};

#[derive(Clone)]
struct Binding {
    name: String,
    /// The hygiene of the binding's identifier: `x` bound inside a
    /// `macro_rules!` expansion and the caller's `x` are different
    /// variables with the same text.
    context: String,
    value: ValueId,
    mutable: bool,
    /// The declared type (`let v: f64`, a parameter's), which a literal
    /// assigned later must be given: `v = 0.5; v.cos()` is otherwise an
    /// ambiguous `{float}` in the generated code.
    ty: Option<syn::Type>,
}

struct Lowerer<'a> {
    cx: &'a Ctxt,
    values: Vec<ValueInfo>,
    scopes: Vec<Vec<Binding>>,
    open_blocks: Vec<(BlockId, Vec<Stmt>)>,
    next_block: u32,
    next_loop: u32,
    /// In a `map` closure: the enclosing function's variables, which the
    /// closure reads as constants (see `Op::Map`).
    outer: Vec<String>,
    /// The variables of `outer` the closure reads, as it names them.
    captures: Vec<syn::Ident>,
    /// Slice elements already read, per open block: `(slice, index, value)`.
    /// Slices are never written, so a read in an enclosing block is the same
    /// value, and one value means one adjoint to update in the reverse sweep.
    element_reads: Vec<Vec<(ValueId, ElementKey, ValueId)>>,
    /// How many blocks deep lowering is: `return` only at depth 1.
    nesting: u32,
}

/// Lowers a function body whose signature has been read.
pub fn lower(
    cx: &Ctxt,
    sig: &Signature,
    syn_sig: &syn::Signature,
    body: &syn::Block,
    outer: Vec<String>,
) -> Function {
    let mut l = Lowerer {
        cx,
        values: Vec::new(),
        scopes: vec![Vec::new()],
        open_blocks: Vec::new(),
        next_block: 0,
        next_loop: 0,
        outer,
        captures: Vec::new(),
        element_reads: Vec::new(),
        nesting: 0,
    };
    l.begin_block();
    let mut params = Vec::new();
    for (param, arg) in sig.params.iter().zip(syn_sig.inputs.iter()) {
        let (kind, by_ref) = match &param.kind {
            ParamKind::Float(_) => (Kind::Float, false),
            ParamKind::Slice(_) => (Kind::Slice, true),
            ParamKind::Matrix { by_ref, .. } => (Kind::Matrix, *by_ref),
            ParamKind::Int => (Kind::Int, false),
            ParamKind::Bool => (Kind::Bool, false),
            ParamKind::Other => (Kind::Unknown, false),
        };
        let (mutable, ty) = match arg {
            syn::FnArg::Typed(pt) => (
                matches!(&*pt.pat, Pat::Ident(pi) if pi.mutability.is_some()),
                Some((*pt.ty).clone()),
            ),
            syn::FnArg::Receiver(_) => (false, None),
        };
        let v = l.new_value(kind, Some(param.ident.to_string()));
        l.values[v.0 as usize].float = match &param.kind {
            ParamKind::Float(t) | ParamKind::Slice(t) => Some(t.0.clone()),
            ParamKind::Matrix { .. } => Some(syn::Ident::new("f64", Span::call_site())),
            _ => None,
        };
        l.values[v.0 as usize].param = Some(param.ident.clone());
        l.values[v.0 as usize].by_ref = by_ref;
        l.bind(&param.ident, v, mutable, ty);
        params.push(v);
    }
    let tail = l.lower_stmts(&body.stmts);
    let ret = match tail {
        Some(t) => t,
        None => {
            cx.error_at(
                body.brace_token.span.close(),
                "a `#[differentiable]` body must end in the value it returns (a tail expression or `return`)",
            );
            Operand::Const(quote!(0.0))
        }
    };
    let body = l.end_block();
    Function {
        values: l.values,
        params,
        body,
        ret,
        captures: l.captures,
    }
}

/// The hygiene context of an identifier, as rustc prints its span
/// (`#5 bytes(10..11)`: context 5). Two identifiers with the same text
/// name the same variable only in the same context; stable Rust offers no
/// other way to compare them. Outside the compiler (unit tests) every
/// identifier is in one context.
fn hygiene(ident: &syn::Ident) -> String {
    let debug = format!("{:?}", ident.span());
    match debug.split_once(' ') {
        Some((context, _)) if context.starts_with('#') => context.to_owned(),
        _ => String::new(),
    }
}

fn kind_of_lit(lit: &syn::Lit) -> bool {
    matches!(
        lit,
        syn::Lit::Int(_) | syn::Lit::Float(_) | syn::Lit::Bool(_)
    )
}

/// `f32` or `f64` as a type's identifier.
fn float_ident(ty: &syn::Type) -> Option<syn::Ident> {
    match ty {
        syn::Type::Path(p) if p.qself.is_none() => p
            .path
            .get_ident()
            .filter(|i| *i == "f64" || *i == "f32")
            .cloned(),
        syn::Type::Paren(p) => float_ident(&p.elem),
        syn::Type::Group(g) => float_ident(&g.elem),
        _ => None,
    }
}

/// The float type a constant expression has by its own tokens: a
/// suffixed literal (`0.5_f32`, `2f64`) or a cast (`n as f32`).
fn const_float(e: &Expr) -> Option<syn::Ident> {
    match strip_parens(e) {
        Expr::Lit(l) => {
            let suffix = match &l.lit {
                syn::Lit::Float(f) => f.suffix(),
                syn::Lit::Int(i) => i.suffix(),
                _ => return None,
            };
            matches!(suffix, "f32" | "f64").then(|| syn::Ident::new(suffix, l.span()))
        }
        Expr::Unary(u) => const_float(&u.expr),
        Expr::Binary(b) => const_float(&b.left).or_else(|| const_float(&b.right)),
        Expr::Cast(c) => float_ident(&c.ty),
        _ => None,
    }
}

fn float_type(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(p) if p.path.is_ident("f64") || p.path.is_ident("f32"))
}

/// Finds constructs a primal-only expression must not hold either.
struct Forbidden<'a> {
    cx: &'a Ctxt,
}

impl<'ast> Visit<'ast> for Forbidden<'_> {
    fn visit_expr_macro(&mut self, m: &'ast syn::ExprMacro) {
        self.cx
            .error_spanned_by(m, "macros are not supported in a `#[differentiable]` body");
    }
    fn visit_expr_closure(&mut self, c: &'ast syn::ExprClosure) {
        self.cx.error_spanned_by(
            c,
            "closures are not supported in a `#[differentiable]` body",
        );
    }
    fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
        self.cx
            .error_spanned_by(a, "assignment inside a condition is not supported");
    }
    fn visit_expr_block(&mut self, b: &'ast syn::ExprBlock) {
        self.cx
            .error_spanned_by(b, "blocks inside a condition are not supported");
    }
    fn visit_expr_match(&mut self, m: &'ast syn::ExprMatch) {
        self.cx.error_spanned_by(
            m,
            "`match` is not supported here; compute the value in a `let` before it",
        );
    }
    fn visit_expr_let(&mut self, l: &'ast syn::ExprLet) {
        self.cx.error_spanned_by(
            l,
            "`let` patterns are not supported here; compare values instead",
        );
    }
    fn visit_expr_for_loop(&mut self, f: &'ast syn::ExprForLoop) {
        self.cx
            .error_spanned_by(f, "loops are not supported inside an expression here");
    }
    fn visit_expr_while(&mut self, w: &'ast syn::ExprWhile) {
        self.cx
            .error_spanned_by(w, "loops are not supported inside an expression here");
    }
    fn visit_expr_loop(&mut self, l: &'ast syn::ExprLoop) {
        self.cx
            .error_spanned_by(l, "loops are not supported inside an expression here");
    }
    fn visit_expr_unsafe(&mut self, u: &'ast syn::ExprUnsafe) {
        self.cx.error_spanned_by(
            u,
            "`unsafe` blocks are not supported in a `#[differentiable]` body",
        );
    }
}

impl Lowerer<'_> {
    // ---- values, blocks, scopes ----

    fn current_block(&self) -> BlockId {
        self.open_blocks.last().map_or(BlockId(0), |b| b.0)
    }

    fn new_value(&mut self, kind: Kind, name: Option<String>) -> ValueId {
        let id = ValueId(self.values.len() as u32);
        self.values.push(ValueInfo {
            kind,
            name,
            block: self.current_block(),
            param: None,
            by_ref: false,
            float: None,
        });
        id
    }

    fn phi_float(&self, then_src: ValueId, else_src: ValueId) -> Option<syn::Ident> {
        let float = |v: ValueId| self.values[v.0 as usize].float.clone();
        float(then_src).or_else(|| float(else_src))
    }

    fn float_of(&self, o: &Operand) -> Option<syn::Ident> {
        match o {
            Operand::Value(v) => self.values[v.0 as usize].float.clone(),
            Operand::Const(t) => syn::parse2::<Expr>(t.clone())
                .ok()
                .and_then(|e| const_float(&e)),
        }
    }

    /// The float type of an operation's result, where its operands tell.
    fn float_of_op(&self, op: &Op) -> Option<syn::Ident> {
        match op {
            Op::Copy(a) | Op::StopGradient { arg: a, .. } => self.float_of(a),
            Op::Rule { rule, args, .. } => args
                .iter()
                .zip(rule.diff)
                .filter(|(_, d)| **d)
                .find_map(|(a, _)| self.float_of(a)),
            Op::Index { slice, .. } => self.values[slice.0 as usize].float.clone(),
            Op::Cast { ty, .. } => float_ident(ty),
            Op::Map { .. } => Some(syn::Ident::new("f64", Span::call_site())),
            Op::Literal { like, .. } => self.values[like.0 as usize].float.clone(),
            Op::Len { .. } | Op::Call { .. } | Op::Primal { .. } | Op::Absent | Op::Missing => None,
        }
    }

    fn kind(&self, op: &Operand) -> Option<Kind> {
        op.value().map(|v| self.values[v.0 as usize].kind)
    }

    fn push(&mut self, stmt: Stmt) {
        if let Some(b) = self.open_blocks.last_mut() {
            b.1.push(stmt);
        }
    }

    fn emit(&mut self, op: Op, kind: Kind, span: Span) -> ValueId {
        let dst = self.new_value(kind, None);
        self.values[dst.0 as usize].float = self.float_of_op(&op);
        self.push(Stmt::Let {
            dst,
            op,
            span,
            ty: None,
        });
        dst
    }

    fn missing(&mut self, span: Span) -> Operand {
        Operand::Value(self.emit(Op::Missing, Kind::Unknown, span))
    }

    /// Turns an operand into a value, binding a constant if needed.
    fn materialize(&mut self, op: Operand, kind: Kind, span: Span) -> ValueId {
        match op {
            Operand::Value(v) => v,
            c @ Operand::Const(_) => self.emit(Op::Copy(c), kind, span),
        }
    }

    fn begin_block(&mut self) -> BlockId {
        let id = BlockId(self.next_block);
        self.next_block += 1;
        self.open_blocks.push((id, Vec::new()));
        self.element_reads.push(Vec::new());
        id
    }

    fn end_block(&mut self) -> Block {
        self.element_reads.pop();
        let (id, stmts) = self
            .open_blocks
            .pop()
            .unwrap_or((BlockId(u32::MAX), Vec::new()));
        Block { id, stmts }
    }

    fn bind(&mut self, ident: &syn::Ident, value: ValueId, mutable: bool, ty: Option<syn::Type>) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Binding {
                name: ident.to_string(),
                context: hygiene(ident),
                value,
                mutable,
                ty,
            });
        }
    }

    /// The binding an identifier resolves to: the innermost one of the
    /// same text and hygiene.
    fn lookup(&self, ident: &syn::Ident) -> Option<&Binding> {
        let context = hygiene(ident);
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|b| ident == &b.name && b.context == context)
    }

    fn lookup_mut(&mut self, ident: &syn::Ident) -> Option<&mut Binding> {
        let context = hygiene(ident);
        self.scopes
            .iter_mut()
            .rev()
            .flat_map(|s| s.iter_mut().rev())
            .find(|b| ident == &b.name && b.context == context)
    }

    fn snapshot(&self) -> Vec<Vec<ValueId>> {
        self.scopes
            .iter()
            .map(|s| s.iter().map(|b| b.value).collect())
            .collect()
    }

    fn restore(&mut self, snap: &[Vec<ValueId>]) {
        for (scope, values) in self.scopes.iter_mut().zip(snap) {
            for (b, v) in scope.iter_mut().zip(values) {
                b.value = *v;
            }
        }
    }

    /// A `#[constant]` argument of a type the macro does not differentiate
    /// (a struct of data, say), possibly behind field accesses.
    fn constant_base(&self, e: &Expr) -> bool {
        match strip_parens(e) {
            Expr::Field(f) => self.constant_base(&f.base),
            e => self.local_ident(e).is_some_and(|v| {
                let info = &self.values[v.0 as usize];
                info.param.is_some() && info.kind == Kind::Unknown
            }),
        }
    }

    fn local_ident(&self, expr: &Expr) -> Option<ValueId> {
        let Expr::Path(p) = expr else { return None };
        if p.qself.is_some() {
            return None;
        }
        let ident = p.path.get_ident()?;
        self.lookup(ident).map(|b| b.value)
    }

    // ---- statements ----

    /// Lowers statements; returns the block's tail value, if any.
    fn lower_stmts(&mut self, stmts: &[SynStmt]) -> Option<Operand> {
        self.nesting += 1;
        let tail = self.lower_stmts_inner(stmts);
        self.nesting -= 1;
        tail
    }

    fn lower_stmts_inner(&mut self, stmts: &[SynStmt]) -> Option<Operand> {
        let mut tail = None;
        for (i, stmt) in stmts.iter().enumerate() {
            let last = i + 1 == stmts.len();
            if let Some((predicate, stmt)) = self.cfg_split(stmt) {
                self.lower_cfg(predicate, &stmt);
                continue;
            }
            match stmt {
                SynStmt::Local(local) => self.lower_local(local),
                SynStmt::Expr(Expr::Return(r), _) => {
                    if !last || self.nesting > 1 {
                        self.cx.error_spanned_by(
                            r,
                            "`return` is supported only as the last statement of the function",
                        );
                    }
                    match &r.expr {
                        Some(e) => tail = Some(self.lower_expr(e)),
                        None => self.cx.error_spanned_by(r, "`return` needs a value"),
                    }
                }
                SynStmt::Expr(e, None) if last => {
                    // A trailing loop, assignment or statement-`if` is `()`.
                    tail = if yields_value(e) {
                        Some(self.lower_expr(e))
                    } else {
                        self.lower_stmt_expr(e);
                        None
                    };
                }
                SynStmt::Expr(e, _) => self.lower_stmt_expr(e),
                SynStmt::Item(item) => self.cx.error_spanned_by(
                    item,
                    "items are not supported inside a `#[differentiable]` body; define them outside the function",
                ),
                SynStmt::Macro(m) => self.cx.error_spanned_by(
                    m,
                    "macros are not supported in a `#[differentiable]` body",
                ),
            }
        }
        tail
    }

    /// A statement under `#[cfg(..)]`: its predicate (all of them, if
    /// several) and the statement without them. Lint attributes change
    /// nothing the sweeps compute; `cfg_attr` that may expand to `cfg`
    /// is reported.
    fn cfg_split(&self, stmt: &SynStmt) -> Option<(TokenStream, SynStmt)> {
        let attrs = stmt_attrs(stmt)?;
        let mut predicates = Vec::new();
        for a in attrs.iter() {
            if a.path().is_ident("cfg") {
                match a.parse_args::<TokenStream>() {
                    Ok(p) => predicates.push(p),
                    Err(e) => self.cx.error_at(e.span(), e),
                }
            } else if a.path().is_ident("cfg_attr")
                && a.to_token_stream().to_string().contains("cfg")
            {
                let nested = a
                    .parse_args::<TokenStream>()
                    .map(|t| t.to_string())
                    .unwrap_or_default();
                if nested.contains("cfg") {
                    self.cx.error_spanned_by(
                        a,
                        "`cfg_attr` that adds `cfg` is not supported on a statement of a `#[differentiable]` body; write `#[cfg(all(..))]`",
                    );
                }
            }
        }
        if predicates.is_empty() {
            return None;
        }
        let mut stmt = stmt.clone();
        if let Some(attrs) = stmt_attrs_mut(&mut stmt) {
            attrs.retain(|a| !a.path().is_ident("cfg"));
        }
        let predicate = if predicates.len() == 1 {
            predicates.remove(0)
        } else {
            quote!(all(#(#predicates),*))
        };
        Some((predicate, stmt))
    }

    /// `#[cfg(p)] stmt`: a branch decided at compile time, lowered like
    /// `if cfg!(p) { stmt }` and emitted with the same `#[cfg]`s, so the
    /// sweeps compute what the primal does in every configuration. A
    /// `let` under `cfg` binds its name after the statement to a φ whose
    /// other source is the name's previous binding, or nothing where there
    /// was none (the name then exists in that configuration only, as in
    /// the primal).
    fn lower_cfg(&mut self, predicate: TokenStream, stmt: &SynStmt) {
        if matches!(stmt, SynStmt::Expr(Expr::Return(_), _)) {
            self.cx.error_spanned_by(
                stmt,
                "`return` under `#[cfg]` is not supported; compute the value under `#[cfg]` and return it after",
            );
            return;
        }
        let before = self.snapshot();
        self.begin_block();
        self.scopes.push(Vec::new());
        match stmt {
            SynStmt::Local(local) => self.lower_local(local),
            // Never a tail: a tail expression cannot carry attributes.
            SynStmt::Expr(e, _) => self.lower_stmt_expr(e),
            other => {
                self.lower_stmts(std::slice::from_ref(other));
            }
        }
        let introduced = self.scopes.pop().unwrap_or_default();
        let then_blk = self.end_block();
        let after_then = self.snapshot();
        self.restore(&before);

        self.begin_block();
        // The previous binding of each introduced name, or a value that
        // exists in no configuration where the statement is compiled out.
        let else_sources: Vec<ValueId> = introduced
            .iter()
            .map(|b| {
                let outer = self
                    .scopes
                    .iter()
                    .rev()
                    .flat_map(|s| s.iter().rev())
                    .find(|o| o.name == b.name && o.context == b.context)
                    .map(|o| o.value);
                outer.unwrap_or_else(|| {
                    let kind = self.values[b.value.0 as usize].kind;
                    self.emit(Op::Absent, kind, Span::call_site())
                })
            })
            .collect();
        let else_blk = self.end_block();

        let mut phis = self.assignment_phis(&before, &after_then, &before);
        let mut rebound = Vec::new();
        for (b, else_src) in introduced.into_iter().zip(else_sources) {
            let kind = self.values[b.value.0 as usize].kind;
            let dst = self.new_value(kind, Some(b.name.clone()));
            self.values[dst.0 as usize].float = self.phi_float(b.value, else_src);
            phis.push(Phi {
                dst,
                then_src: b.value,
                else_src,
            });
            rebound.push(Binding { value: dst, ..b });
        }
        let cond = Operand::Const(quote!(::core::cfg!(#predicate)));
        self.push(Stmt::If(If {
            cond,
            then_blk,
            else_blk,
            phis,
            cfg: Some(predicate),
        }));
        if let Some(scope) = self.scopes.last_mut() {
            scope.extend(rebound);
        }
    }

    /// φ-nodes for the variables the two arms of a branch left with
    /// different values; each variable is rebound to its φ.
    fn assignment_phis(
        &mut self,
        before: &[Vec<ValueId>],
        after_then: &[Vec<ValueId>],
        after_else: &[Vec<ValueId>],
    ) -> Vec<Phi> {
        let mut phis = Vec::new();
        for (s, scope) in before.iter().enumerate() {
            for (b, pre) in scope.iter().enumerate() {
                let (t, e) = (after_then[s][b], after_else[s][b]);
                if t == *pre && e == *pre {
                    continue;
                }
                let kind = self.values[t.0 as usize].kind;
                let name = self.scopes[s][b].name.clone();
                let dst = self.new_value(kind, Some(name));
                self.values[dst.0 as usize].float = self.phi_float(t, e);
                phis.push(Phi {
                    dst,
                    then_src: t,
                    else_src: e,
                });
                self.scopes[s][b].value = dst;
            }
        }
        phis
    }

    fn lower_local(&mut self, local: &syn::Local) {
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some((*pt.ty).clone())),
            p => (p, None),
        };
        let (ident, mutable) = match pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => {
                (Some(pi.ident.clone()), pi.mutability.is_some())
            }
            Pat::Wild(_) => (None, false),
            other => {
                self.cx.error_spanned_by(
                    other,
                    "unsupported pattern in `let`; bind a single name, such as `let y = ...`",
                );
                return;
            }
        };
        let Some(init) = &local.init else {
            self.cx.error_spanned_by(
                local,
                "a `let` without a value is not supported; write `let y = ...`",
            );
            // Bound anyway, so later uses of the name report nothing more.
            if let Some(ident) = ident {
                let v = self.emit(Op::Missing, Kind::Unknown, local.span());
                self.bind(&ident, v, true, None);
            }
            return;
        };
        let name = ident.as_ref().map(|i| i.to_string());
        if let Some((_, diverge)) = &init.diverge {
            self.cx
                .error_spanned_by(diverge, "`let ... else` is not supported");
        }
        let span = init.expr.span();
        let operand = self.lower_expr(&init.expr);
        let value = match operand {
            // An untyped `let` of a value, or any `let` of a matrix (rustc
            // has checked the annotation): the name denotes the value itself.
            Operand::Value(v) if ty.is_none() || !self.values[v.0 as usize].kind.is_copy() => {
                let info = &mut self.values[v.0 as usize];
                // `let z: DMatrix<f64> = call(..)` tells what the call returns.
                if info.kind == Kind::Unknown && ty.as_ref().is_some_and(crate::sig::is_matrix) {
                    info.kind = Kind::Matrix;
                }
                if info.name.is_none() && info.param.is_none() {
                    info.name.clone_from(&name);
                }
                v
            }
            // A typed `let` or a constant gets its own binding, as written.
            operand => {
                let kind = match (&ty, self.kind(&operand)) {
                    (Some(t), _) if float_type(t) => Kind::Float,
                    (_, Some(k)) => k,
                    (_, None) => const_kind(&init.expr),
                };
                let dst = self.new_value(kind, name.clone());
                self.values[dst.0 as usize].float = ty
                    .as_ref()
                    .and_then(float_ident)
                    .or_else(|| self.float_of(&operand));
                self.push(Stmt::Let {
                    dst,
                    op: Op::Copy(operand),
                    span,
                    ty: ty.clone().map(Box::new),
                });
                dst
            }
        };
        if let Some(ident) = ident {
            self.bind(&ident, value, mutable, ty);
        }
    }

    fn lower_stmt_expr(&mut self, e: &Expr) {
        match e {
            Expr::Assign(a) => {
                let operand = self.lower_expr(&a.right);
                self.assign(&a.left, operand, a.span());
            }
            Expr::Binary(b) if compound_rule(&b.op).is_some() => {
                let Some((rule, token)) = compound_rule(&b.op) else {
                    return;
                };
                let Some(current) = self.assign_target(&b.left) else {
                    return;
                };
                let rhs = self.lower_expr(&b.right);
                let kind = self.result_kind(&[Operand::Value(current), rhs.clone()]);
                let v = self.emit(
                    Op::Rule {
                        rule,
                        args: vec![Operand::Value(current), rhs],
                        syntax: Syntax::Operator(token),
                    },
                    kind,
                    b.span(),
                );
                self.assign(&b.left, Operand::Value(v), b.span());
            }
            Expr::If(i) => {
                self.lower_if(i, false);
            }
            Expr::ForLoop(f) => self.lower_for(f),
            Expr::While(w) => self.lower_while(w),
            Expr::Block(b) if b.label.is_none() => {
                self.scopes.push(Vec::new());
                if let Some(t) = self.lower_stmts(&b.block.stmts) {
                    self.value_unused(t);
                }
                self.scopes.pop();
            }
            Expr::Break(_) | Expr::Continue(_) => self.cx.error_spanned_by(
                e,
                "`break` and `continue` are not supported; express the exit in the loop's condition (`while`)",
            ),
            Expr::Loop(_) => self.cx.error_spanned_by(
                e,
                "`loop` is not supported; use `while` with a condition or `for` over a range",
            ),
            other => {
                let operand = self.lower_expr(other);
                self.value_unused(operand);
            }
        }
    }

    /// A statement whose value is dropped has no effect on the result.
    fn value_unused(&mut self, _operand: Operand) {}

    /// The current value of an assignment's target.
    fn assign_target(&mut self, target: &Expr) -> Option<ValueId> {
        match target {
            Expr::Path(_) => {
                let v = self.local_ident(target);
                if v.is_none() {
                    self.cx.error_spanned_by(
                        target,
                        "assignment to something other than a local variable is not supported",
                    );
                }
                v
            }
            Expr::Index(_) => {
                self.cx.error_spanned_by(
                    target,
                    "writing into a slice is not supported: a differentiable function does not modify its arguments; accumulate into a local variable",
                );
                None
            }
            _ => {
                self.cx.error_spanned_by(
                    target,
                    "unsupported assignment target; assign to a local variable",
                );
                None
            }
        }
    }

    fn assign(&mut self, target: &Expr, operand: Operand, span: Span) {
        if self.assign_target(target).is_none() {
            return;
        }
        let Expr::Path(p) = target else { return };
        let Some(ident) = p.path.get_ident() else {
            return;
        };
        let name = ident.to_string();
        let Some((previous, declared)) = self.lookup(ident).map(|b| (b.value, b.ty.clone())) else {
            return;
        };
        let mut kind = self.values[previous.0 as usize].kind;
        let literal = match &operand {
            Operand::Const(t) => syn::parse2::<Expr>(t.clone()).ok().map(|e| const_kind(&e)),
            Operand::Value(_) => None,
        };
        // A float literal is a float, whatever the variable held before (a
        // call's result, of a type the macro cannot see).
        if kind == Kind::Unknown && literal == Some(Kind::Float) {
            kind = Kind::Float;
        }
        let value = match operand {
            // A literal takes the variable's type, as the assignment does in
            // the primal: each assignment is a new local here, and
            // `v = 0.5; v.cos()` would otherwise be an ambiguous `{float}`,
            // or an `f64` where the variable is an `f32`.
            Operand::Const(c) if kind.is_copy() && literal.is_some_and(|k| k != Kind::Unknown) => {
                let ty = declared.or_else(|| {
                    let float = self.values[previous.0 as usize].float.clone()?;
                    Some(syn::Type::Verbatim(float.into_token_stream()))
                });
                let op = match ty {
                    Some(_) => Op::Copy(Operand::Const(c)),
                    // The type is the previous value's, whatever it is.
                    None => Op::Literal {
                        lit: c,
                        like: previous,
                    },
                };
                let dst = self.new_value(kind, None);
                self.values[dst.0 as usize].float = self.values[previous.0 as usize].float.clone();
                self.push(Stmt::Let {
                    dst,
                    op,
                    span,
                    ty: ty.map(Box::new),
                });
                dst
            }
            operand => self.materialize(operand, kind, span),
        };
        if let Some(b) = self.lookup_mut(ident) {
            b.value = value;
        }
        let info = &mut self.values[value.0 as usize];
        if info.name.is_none() && info.param.is_none() {
            info.name = Some(name);
        }
    }

    // ---- control flow ----

    fn lower_if(&mut self, i: &syn::ExprIf, want_value: bool) -> Operand {
        if let Expr::Let(l) = &*i.cond {
            self.cx
                .error_spanned_by(l, "`if let` is not supported; compare values instead");
            return self.missing(i.span());
        }
        let cond = self.lower_expr(&i.cond);
        let before = self.snapshot();

        self.begin_block();
        self.scopes.push(Vec::new());
        let then_tail = self.lower_stmts(&i.then_branch.stmts);
        self.scopes.pop();
        let then_tail = then_tail.map(|t| {
            let kind = self.kind(&t).unwrap_or(Kind::Float);
            self.materialize(t, kind, i.then_branch.span())
        });
        let then_blk = self.end_block();
        let after_then = self.snapshot();
        self.restore(&before);

        self.begin_block();
        self.scopes.push(Vec::new());
        let else_tail = match &i.else_branch {
            None => None,
            Some((_, e)) => match &**e {
                Expr::Block(b) => self.lower_stmts(&b.block.stmts),
                Expr::If(nested) => Some(self.lower_if(nested, want_value)),
                other => Some(self.lower_expr(other)),
            },
        };
        self.scopes.pop();
        let else_span = i.else_branch.as_ref().map_or(i.span(), |(_, e)| e.span());
        let else_tail = else_tail.map(|t| {
            let kind = self.kind(&t).unwrap_or(Kind::Float);
            self.materialize(t, kind, else_span)
        });
        let else_blk = self.end_block();
        let after_else = self.snapshot();

        let mut phis = self.assignment_phis(&before, &after_then, &after_else);
        let result = match (want_value, then_tail, else_tail) {
            (true, Some(t), Some(e)) => {
                let kind = self.values[t.0 as usize].kind;
                let dst = self.new_value(kind, None);
                self.values[dst.0 as usize].float = self.phi_float(t, e);
                phis.push(Phi {
                    dst,
                    then_src: t,
                    else_src: e,
                });
                Operand::Value(dst)
            }
            (true, _, _) => {
                self.cx.error_spanned_by(
                    i,
                    "an `if` used as a value needs an `else` branch, and both branches need a value",
                );
                self.missing(i.span())
            }
            (false, _, _) => Operand::Const(quote!(())),
        };
        self.push(Stmt::If(If {
            cond,
            then_blk,
            else_blk,
            phis,
            cfg: None,
        }));
        result
    }

    fn lower_for(&mut self, f: &syn::ExprForLoop) {
        if let Some(label) = &f.label {
            self.cx
                .error_spanned_by(label, "loop labels are not supported");
        }
        let index_ident = match &*f.pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => Some(pi.ident.clone()),
            Pat::Wild(_) => None,
            other => {
                self.cx
                    .error_spanned_by(other, "unsupported loop pattern; write `for i in a..b`");
                return;
            }
        };
        let (range, reversed) = match &*f.expr {
            Expr::MethodCall(m) if m.method == "rev" && m.args.is_empty() => {
                (strip_parens(&m.receiver), true)
            }
            e => (strip_parens(e), false),
        };
        let Expr::Range(r) = range else {
            self.cx.error_spanned_by(
                &f.expr,
                "`for` loops iterate over integer ranges only: `a..b`, `a..=b` or `(a..b).rev()`",
            );
            return;
        };
        let (Some(start), Some(end)) = (&r.start, &r.end) else {
            self.cx
                .error_spanned_by(r, "the range of a `for` loop needs both bounds");
            return;
        };
        let start = self.lower_expr(start);
        let end = self.lower_expr(end);
        let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
        let checkpoint = crate::checkpoint::of_loop(self.cx, &f.attrs);
        self.lower_loop(&f.body, checkpoint, |l| {
            let index = index_ident.map(|ident| {
                let v = l.new_value(Kind::Int, Some(ident.to_string()));
                l.bind(&ident, v, false, None);
                v
            });
            LoopHeader::Range {
                index,
                start,
                end,
                inclusive,
                reversed,
            }
        });
    }

    fn lower_while(&mut self, w: &syn::ExprWhile) {
        if let Some(label) = &w.label {
            self.cx
                .error_spanned_by(label, "loop labels are not supported");
        }
        if let Expr::Let(l) = &*w.cond {
            self.cx.error_spanned_by(
                l,
                "`while let` is not supported; use `while` with a comparison",
            );
            return;
        }
        let checkpoint = crate::checkpoint::of_loop(self.cx, &w.attrs);
        self.lower_loop(&w.body, checkpoint, |l| {
            l.begin_block();
            let cond = l.lower_expr(&w.cond);
            let cond_blk = l.end_block();
            LoopHeader::While { cond_blk, cond }
        });
    }

    /// Lowers a loop body; `header` runs inside the body's scope, after the
    /// loop-carried entry values exist.
    fn lower_loop(
        &mut self,
        body: &syn::Block,
        checkpoint: Option<crate::checkpoint::Checkpoint>,
        header: impl FnOnce(&mut Self) -> LoopHeader,
    ) {
        let id = self.next_loop;
        self.next_loop += 1;
        let before = self.snapshot();
        self.begin_block();
        // Every mutable variable may be carried; those the body never
        // assigns are folded back into their value before the loop below.
        let mut candidates = Vec::new();
        for s in 0..self.scopes.len() {
            for b in 0..self.scopes[s].len() {
                let binding = &self.scopes[s][b];
                if !binding.mutable {
                    continue;
                }
                let init = binding.value;
                let name = binding.name.clone();
                let kind = self.values[init.0 as usize].kind;
                let entry = self.new_value(kind, Some(name.clone()));
                self.values[entry.0 as usize].float = self.values[init.0 as usize].float.clone();
                self.scopes[s][b].value = entry;
                candidates.push((s, b, name, init, entry));
            }
        }
        self.scopes.push(Vec::new());
        let header = header(self);
        if let Some(t) = self.lower_stmts(&body.stmts) {
            self.value_unused(t);
        }
        self.scopes.pop();
        let mut body = self.end_block();
        let mut header = header;

        let mut carried = Vec::new();
        let mut fold = HashMap::new();
        for (s, b, name, init, entry) in candidates {
            let exit = self.scopes[s][b].value;
            if exit == entry {
                fold.insert(entry, init);
            } else {
                carried.push((s, b, name, init, entry, exit));
            }
        }
        substitute_block(&mut body, &fold);
        if let LoopHeader::While { cond_blk, cond } = &mut header {
            substitute_block(cond_blk, &fold);
            substitute_operand(cond, &fold);
        }
        self.restore(&before);
        let mut taken: Vec<String> = Vec::new();
        let carried = carried
            .into_iter()
            .map(|(s, b, mut name, init, entry, exit)| {
                // Variables of the same text but different hygiene get
                // distinct generated names.
                if taken.contains(&name) {
                    name = format!("{name}_{}", entry.0);
                }
                taken.push(name.clone());
                let kind = self.values[entry.0 as usize].kind;
                let after = self.new_value(kind, Some(name.clone()));
                self.values[after.0 as usize].float = self.values[entry.0 as usize].float.clone();
                self.scopes[s][b].value = after;
                Carried {
                    name,
                    init,
                    entry,
                    exit,
                    after,
                }
            })
            .collect();
        self.push(Stmt::Loop(Loop {
            id,
            header,
            body,
            carried,
            checkpoint,
        }));
    }

    // ---- expressions ----

    fn result_kind(&self, args: &[Operand]) -> Kind {
        let kinds: Vec<Kind> = args.iter().filter_map(|a| self.kind(a)).collect();
        // An operation with a float operand is never an integer one.
        if kinds.contains(&Kind::Matrix) {
            Kind::Matrix
        } else if kinds.contains(&Kind::Unknown) {
            Kind::Unknown
        } else if kinds.contains(&Kind::Float) {
            Kind::Float
        } else if kinds.contains(&Kind::Int) {
            Kind::Int
        } else {
            Kind::Unknown
        }
    }

    fn lower_expr(&mut self, e: &Expr) -> Operand {
        if matches!(e, Expr::Field(_) | Expr::Index(_))
            && let Some(c) = self.outer_constant(e)
        {
            return c;
        }
        match e {
            Expr::Lit(l) if kind_of_lit(&l.lit) => Operand::Const(l.to_token_stream()),
            Expr::Path(p) => match self.local_ident(e) {
                Some(v) => Operand::Value(v),
                None => {
                    if let Some(ident) = p.path.get_ident()
                        && self.outer.iter().any(|o| ident == o)
                        && !self.captures.contains(ident)
                    {
                        self.captures.push(ident.clone());
                    }
                    Operand::Const(p.to_token_stream())
                }
            },
            Expr::Paren(p) => match self.lower_expr(&p.expr) {
                Operand::Const(t) => Operand::Const(quote!((#t))),
                v => v,
            },
            Expr::Group(g) => self.lower_expr(&g.expr),
            Expr::Unary(u) => self.lower_unary(u),
            Expr::Binary(b) => self.lower_binary(b),
            Expr::MethodCall(m) => self.lower_method(m),
            Expr::Call(c) => self.lower_call(c),
            Expr::Index(i) => self.lower_index(i),
            Expr::Cast(c) => {
                let arg = self.lower_expr(&c.expr);
                let ty = (*c.ty).clone();
                match arg {
                    Operand::Const(t) => Operand::Const(quote!((#t as #ty))),
                    arg => {
                        let kind = if float_type(&ty) {
                            Kind::Float
                        } else {
                            Kind::Int
                        };
                        let written = c.to_token_stream();
                        Operand::Value(self.emit(Op::Cast { arg, ty, written }, kind, c.span()))
                    }
                }
            }
            Expr::Field(f) if self.constant_base(&f.base) => self.lower_primal(e, Kind::Unknown),
            Expr::If(i) => self.lower_if(i, true),
            Expr::Block(b) if b.label.is_none() => {
                self.scopes.push(Vec::new());
                let tail = self.lower_stmts(&b.block.stmts);
                self.scopes.pop();
                match tail {
                    Some(t) => t,
                    None => {
                        self.cx
                            .error_spanned_by(b, "this block needs a value at its end");
                        self.missing(b.span())
                    }
                }
            }
            _ => {
                self.unsupported(e);
                self.missing(e.span())
            }
        }
    }

    fn unsupported(&self, e: &Expr) {
        let message = match e {
            Expr::Closure(_) => {
                "closures are not supported in a `#[differentiable]` body".to_string()
            }
            Expr::Macro(_) => "macros are not supported in a `#[differentiable]` body".into(),
            Expr::Unsafe(_) => {
                "`unsafe` blocks are not supported in a `#[differentiable]` body".into()
            }
            Expr::Match(_) => "`match` is not supported; use `if` / `else`".into(),
            Expr::Loop(_) => {
                "`loop` is not supported; use `while` with a condition or `for` over a range"
                    .into()
            }
            Expr::Break(_) | Expr::Continue(_) => {
                "`break` and `continue` are not supported; express the exit in the loop's condition (`while`)".into()
            }
            Expr::Return(_) => {
                "`return` is supported only as the last statement of the function".into()
            }
            Expr::Reference(_) => {
                "references are supported only as arguments of calls to `#[differentiable]` functions".into()
            }
            Expr::Async(_) | Expr::Await(_) => {
                "`async` code is not supported in a `#[differentiable]` body".into()
            }
            Expr::Try(_) => "the `?` operator is not supported in a `#[differentiable]` body".into(),
            Expr::Assign(_) => "an assignment is a statement here, not a value".into(),
            Expr::Field(_) => "field access is not supported; pass the value as an argument".into(),
            Expr::Tuple(_) | Expr::Array(_) | Expr::Repeat(_) | Expr::Struct(_) => {
                "tuples, arrays and structs are not supported; a `#[differentiable]` body computes with floats, slices and integers".into()
            }
            Expr::Range(_) => "ranges are supported only as the iterator of a `for` loop".into(),
            _ => format!(
                "unsupported expression `{}` in a `#[differentiable]` body",
                e.to_token_stream()
            ),
        };
        self.cx.error_spanned_by(e, message);
    }

    fn lower_unary(&mut self, u: &syn::ExprUnary) -> Operand {
        match u.op {
            UnOp::Neg(minus) => match self.lower_expr(&u.expr) {
                Operand::Const(t) => Operand::Const(quote!(-#t)),
                arg => {
                    let kind = self.result_kind(std::slice::from_ref(&arg));
                    Operand::Value(self.emit(
                        Op::Rule {
                            rule: &catalog::NEG,
                            args: vec![arg],
                            syntax: Syntax::Operator(minus.to_token_stream()),
                        },
                        kind,
                        u.span(),
                    ))
                }
            },
            UnOp::Not(not) if has_value_blocks(&u.expr) => match self.lower_expr(&u.expr) {
                Operand::Const(t) => Operand::Const(quote!((#not #t))),
                Operand::Value(v) => {
                    let p = placeholder(0, not.span);
                    let bindings = vec![(p.to_string(), v)];
                    let expr: Expr = syn::parse_quote!(#not #p);
                    Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Bool, u.span()))
                }
            },
            // Logical on a `bool`, bitwise on an integer: primal code either way.
            UnOp::Not(_) => {
                let kind = match self.primal_kind(&u.expr) {
                    Kind::Int => Kind::Int,
                    _ => Kind::Bool,
                };
                self.lower_primal(&Expr::Unary(u.clone()), kind)
            }
            _ => {
                self.cx.error_spanned_by(
                    u,
                    "dereferencing is not supported in a `#[differentiable]` body",
                );
                self.missing(u.span())
            }
        }
    }

    /// What a primal-only expression computes, as far as its variables and
    /// literals tell: `!` is bitwise on an integer, logical on a `bool`.
    fn primal_kind(&self, e: &Expr) -> Kind {
        match strip_parens(e) {
            e @ Expr::Path(_) => self
                .local_ident(e)
                .map_or(Kind::Unknown, |v| self.values[v.0 as usize].kind),
            Expr::Unary(u) => self.primal_kind(&u.expr),
            Expr::Binary(b) if is_logical(&b.op) => Kind::Bool,
            Expr::Binary(b) => match self.primal_kind(&b.left) {
                Kind::Unknown => self.primal_kind(&b.right),
                k => k,
            },
            e => const_kind(e),
        }
    }

    fn lower_binary(&mut self, b: &syn::ExprBinary) -> Operand {
        match &b.op {
            BinOp::Add(_) | BinOp::Sub(_) | BinOp::Mul(_) | BinOp::Div(_) => {}
            BinOp::And(_) | BinOp::Or(_)
                if has_value_blocks(&b.left) || has_value_blocks(&b.right) =>
            {
                return self.lower_short_circuit(b);
            }
            BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
                if has_value_blocks(&b.left) || has_value_blocks(&b.right) =>
            {
                return self.lower_comparison(b);
            }
            BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::And(_)
            | BinOp::Or(_) => return self.lower_primal(&Expr::Binary(b.clone()), Kind::Bool),
            BinOp::Rem(_)
            | BinOp::BitAnd(_)
            | BinOp::BitOr(_)
            | BinOp::BitXor(_)
            | BinOp::Shl(_)
            | BinOp::Shr(_) => {
                // Integer-only operators: fine on integers, not differentiable on floats.
                let lhs = self.lower_expr(&b.left);
                let rhs = self.lower_expr(&b.right);
                if let (Operand::Const(l), Operand::Const(r)) = (&lhs, &rhs) {
                    let op = &b.op;
                    return Operand::Const(quote!((#l #op #r)));
                }
                let kinds: Vec<Kind> = [&lhs, &rhs].iter().filter_map(|o| self.kind(o)).collect();
                if !kinds.iter().all(|k| matches!(k, Kind::Int | Kind::Bool)) {
                    self.cx.error_spanned_by(
                        b.op,
                        format!(
                            "operator `{}` is supported on integers only; on floats use `+`, `-`, `*`, `/`",
                            b.op.to_token_stream()
                        ),
                    );
                    return self.missing(b.span());
                }
                // `&`, `|` and `^` are logical on `bool`s.
                let kind = if kinds.contains(&Kind::Bool) {
                    Kind::Bool
                } else {
                    Kind::Int
                };
                return self.lower_primal(&Expr::Binary(b.clone()), kind);
            }
            _ => {
                self.cx
                    .error_spanned_by(b, "compound assignment is a statement here, not a value");
                return self.missing(b.span());
            }
        }
        self.lower_arithmetic_chain(b)
    }

    /// `+`, `-`, `*`, `/` and the operations nested in their left operand
    /// (`a + b + c + ..`), lowered from the leftmost operand up in a loop:
    /// recursing into the left operand made the macro's stack as deep as a
    /// long sum, and printing each operation to find its span took time
    /// quadratic in its length. The span is the one `Spanned` gives: the
    /// first token of the chain joined with the last of the right operand.
    fn lower_arithmetic_chain(&mut self, top: &syn::ExprBinary) -> Operand {
        // The operations from the outermost in, while the left operand is one.
        let mut chain = Vec::new();
        let mut next = Some(top);
        while let Some(b) = next
            && let Some((rule, token)) = arithmetic(&b.op)
        {
            chain.push((b, rule, token));
            next = match &*b.left {
                Expr::Binary(inner) if inner.attrs.is_empty() => Some(inner),
                _ => None,
            };
        }
        let leftmost = chain.last().map_or(&top.left, |(b, ..)| &b.left);
        let first = first_token_span(leftmost);
        let mut lhs = self.lower_expr(leftmost);
        for (b, rule, token) in chain.into_iter().rev() {
            let rhs = self.lower_expr(&b.right);
            if let (Operand::Const(l), Operand::Const(r)) = (&lhs, &rhs) {
                lhs = Operand::Const(quote!((#l #token #r)));
                continue;
            }
            let span = if b.attrs.is_empty() {
                let last = last_token_span(&b.right);
                first.join(last).unwrap_or(first)
            } else {
                b.span()
            };
            let args = vec![lhs, rhs];
            let kind = self.result_kind(&args);
            lhs = Operand::Value(self.emit(
                Op::Rule {
                    rule,
                    args,
                    syntax: Syntax::Operator(token),
                },
                kind,
                span,
            ));
        }
        lhs
    }

    fn lower_method(&mut self, m: &syn::ExprMethodCall) -> Operand {
        if let Some(t) = &m.turbofish {
            self.cx
                .error_spanned_by(t, "turbofish on methods is not supported");
        }
        let name = m.method.to_string();
        if self.constant_base(&m.receiver) {
            // A method of a `#[constant]` argument is primal code.
            return self.lower_primal(&Expr::MethodCall(m.clone()), Kind::Unknown);
        }
        let receiver = self.lower_expr(&m.receiver);
        let receiver_kind = self.kind(&receiver);
        if name == "len" && m.args.is_empty() {
            if let Some(v) = receiver.value()
                && receiver_kind == Some(Kind::Slice)
            {
                return Operand::Value(self.emit(Op::Len { slice: v }, Kind::Int, m.span()));
            }
            self.cx
                .error_spanned_by(&m.method, "`len()` is supported on slice arguments only");
            return self.missing(m.span());
        }
        if matches!(name.as_str(), "nrows" | "ncols" | "len")
            && m.args.is_empty()
            && matches!(receiver_kind, Some(Kind::Matrix | Kind::Unknown))
        {
            // A shape is an integer: primal code.
            return self.lower_primal(&Expr::MethodCall(m.clone()), Kind::Int);
        }
        if name == "clone" && m.args.is_empty() && receiver.value().is_some() {
            let kind = receiver_kind.unwrap_or(Kind::Unknown);
            return Operand::Value(self.emit(Op::Copy(receiver), kind, m.span()));
        }
        if name == "map"
            && m.args.len() == 1
            && matches!(receiver_kind, Some(Kind::Matrix | Kind::Unknown))
        {
            return self.lower_map(receiver, m);
        }
        let arity = m.args.len();
        let matrix_rule = catalog::matrix_method(&name, arity);
        let scalar_rule = catalog::scalar_method(&name, arity);
        let rule = match receiver_kind {
            Some(Kind::Matrix) => match matrix_rule {
                Some(r) => r,
                None => {
                    let hint = if scalar_rule.is_some() {
                        format!(
                            "; on nalgebra values `{name}()` is not element-wise (`exp()` of a square matrix is the matrix exponential): write `m.map(|v| v.{name}())` for the element-wise function"
                        )
                    } else {
                        String::new()
                    };
                    self.cx.error_spanned_by(
                        &m.method,
                        format!(
                            "unsupported method `{name}` on a matrix{hint}; supported on matrices: {}",
                            catalog::SUPPORTED_MATRIX_METHODS
                        ),
                    );
                    return self.missing(m.span());
                }
            },
            Some(Kind::Unknown) => match scalar_rule.or(matrix_rule) {
                Some(r) => r,
                None => return self.unsupported_method(m, &name),
            },
            _ => match scalar_rule {
                Some(r) => r,
                None => return self.unsupported_method(m, &name),
            },
        };
        let mut args = vec![receiver];
        for a in &m.args {
            let operand = match a {
                // `a.component_mul(&b)` takes its operand by reference.
                Expr::Reference(r) if r.mutability.is_none() && rule.diff.len() == 2 => {
                    self.lower_expr(&r.expr)
                }
                // Shape arguments of `reshape_generic`: primal code.
                a if std::ptr::eq(rule, &catalog::RESHAPE) => self.lower_primal(a, Kind::Unknown),
                a => self.lower_expr(a),
            };
            args.push(operand);
        }
        if args.iter().all(|a| matches!(a, Operand::Const(_))) {
            // A method of constants only, such as `2.0_f64.ln()`: a constant.
            return Operand::Const(m.to_token_stream());
        }
        let kind = match rule.name {
            "sum" | "max_element" => Some(Kind::Float),
            _ => None,
        };
        self.rule_op(rule, args, Syntax::Method(m.method.clone()), m.span(), kind)
    }

    fn unsupported_method(&mut self, m: &syn::ExprMethodCall, name: &str) -> Operand {
        let known = (0..3).any(|n| catalog::scalar_method(name, n).is_some());
        let what = if known {
            format!("`{name}` with {} argument(s)", m.args.len())
        } else {
            format!("`{name}`")
        };
        self.cx.error_spanned_by(
            &m.method,
            format!(
                "unsupported method {what}; supported: {}",
                catalog::SUPPORTED_METHODS
            ),
        );
        self.missing(m.span())
    }

    fn rule_op(
        &mut self,
        rule: &'static Rule,
        args: Vec<Operand>,
        syntax: Syntax,
        span: Span,
        kind: Option<Kind>,
    ) -> Operand {
        // Only the differentiable operands decide the kind: the integer
        // exponent of `powi` does not make the result an integer.
        let differentiable: Vec<Operand> = args
            .iter()
            .zip(rule.diff)
            .filter(|(_, d)| **d)
            .map(|(a, _)| a.clone())
            .collect();
        let kind = kind.unwrap_or_else(|| self.result_kind(&differentiable));
        Operand::Value(self.emit(Op::Rule { rule, args, syntax }, kind, span))
    }

    /// `m.map(|v| body)` or `m.map(f64::exp)`: the closure body is compiled
    /// as a scalar function of its own, whose pullback the matrix rule
    /// applies element by element.
    fn lower_map(&mut self, receiver: Operand, m: &syn::ExprMethodCall) -> Operand {
        let arg = &m.args[0];
        let (param, body): (syn::Ident, Expr) = match arg {
            Expr::Closure(c) => {
                let param = match c.inputs.first() {
                    Some(Pat::Ident(pi)) if c.inputs.len() == 1 => Some(pi.ident.clone()),
                    Some(Pat::Type(pt)) if c.inputs.len() == 1 => match &*pt.pat {
                        Pat::Ident(pi) => Some(pi.ident.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(param) = param else {
                    self.cx.error_spanned_by(
                        &c.inputs,
                        "the closure of `map` takes one element: write `|v| ...`",
                    );
                    return self.missing(m.span());
                };
                (param, (*c.body).clone())
            }
            Expr::Path(p) => {
                let v = syn::Ident::new("v", Span::mixed_site());
                (v.clone(), syn::parse_quote!(#p(#v)))
            }
            other => {
                self.cx.error_spanned_by(
                    other,
                    "`map` takes a closure `|v| ...` or a function path such as `f64::exp`",
                );
                return self.missing(m.span());
            }
        };
        let Some(recv) = receiver.value() else {
            return self.missing(m.span());
        };
        if let Some(rule) = single_elementwise_rule(&param, &body) {
            // `m.map(f64::tanh)`: one element-wise rule, whose backward reads
            // the mapped result instead of running the closure again.
            return Operand::Value(self.emit(
                Op::Rule {
                    rule,
                    args: vec![receiver],
                    syntax: Syntax::Map(arg.to_token_stream()),
                },
                Kind::Matrix,
                m.span(),
            ));
        }
        // The closure reads the enclosing function's variables as constants
        // (which `analysis` checks they are); so does a closure in it.
        let mut outer: Vec<String> = self
            .scopes
            .iter()
            .flat_map(|s| s.iter().map(|b| b.name.clone()))
            .filter(|n| param != n)
            .collect();
        outer.extend(self.outer.iter().cloned());
        let item: syn::ItemFn = syn::parse_quote_spanned! {m.span()=>
            fn __ad_map(#param: f64) -> f64 { #body }
        };
        let (helper, read) = crate::expand::scalar_helper(self.cx, &item, outer);
        let mut captures = Vec::new();
        for ident in read {
            match self.lookup(&ident) {
                Some(b) => captures.push((ident, b.value)),
                None if !self.captures.contains(&ident) => self.captures.push(ident),
                None => {}
            }
        }
        let forward = arg.to_token_stream();
        Operand::Value(self.emit(
            Op::Map {
                recv,
                forward,
                helper,
                captures,
            },
            Kind::Matrix,
            m.span(),
        ))
    }

    fn lower_call(&mut self, c: &syn::ExprCall) -> Operand {
        let Expr::Path(func) = &*c.func else {
            self.cx.error_spanned_by(
                &c.func,
                "only calls of functions by name or path are supported",
            );
            return self.missing(c.span());
        };
        let path = &func.path;
        let last = path.segments.last().map(|s| s.ident.to_string());
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();

        // Any path to `stop_gradient` (`autograd::stop_gradient`, a `use`
        // of it, `ag::stop_gradient`): the sweeps call it as written and
        // check that it is autograd's.
        if last.as_deref() == Some("stop_gradient") {
            if c.args.len() != 1 {
                self.cx
                    .error_spanned_by(c, "`stop_gradient` takes one argument");
                return self.missing(c.span());
            }
            let arg = self.lower_expr(&c.args[0]);
            let kind = self.kind(&arg).unwrap_or(Kind::Float);
            let stop = Op::StopGradient {
                arg,
                func: path.clone(),
            };
            return Operand::Value(self.emit(stop, kind, c.span()));
        }

        if segments.len() == 2 && (segments[0] == "f64" || segments[0] == "f32") {
            let arity = c.args.len().saturating_sub(1);
            let Some(rule) = (!c.args.is_empty())
                .then(|| catalog::scalar_method(&segments[1], arity))
                .flatten()
            else {
                self.cx.error_spanned_by(
                    func,
                    format!(
                        "unsupported function `{}`; supported: {}",
                        segments.join("::"),
                        catalog::SUPPORTED_METHODS
                    ),
                );
                return self.missing(c.span());
            };
            let args: Vec<Operand> = c.args.iter().map(|a| self.lower_expr(a)).collect();
            if args.iter().all(|a| matches!(a, Operand::Const(_))) {
                return Operand::Const(c.to_token_stream());
            }
            return self.rule_op(rule, args, Syntax::Path(path.clone()), c.span(), None);
        }

        if self.local_ident(&c.func).is_some() {
            // A variable bound to an unsupported expression was reported
            // there already.
            if self.cx.has_errors() {
                return self.missing(c.span());
            }
            self.cx.error_spanned_by(
                func,
                "calling a variable is not supported; call a `#[differentiable]` function by its name",
            );
            return self.missing(c.span());
        }
        if func.qself.is_some() || path.segments.iter().any(|s| !s.arguments.is_none()) {
            self.cx.error_spanned_by(
                func,
                "calls with generic arguments are not supported; call a `#[differentiable]` function by name",
            );
            return self.missing(c.span());
        }
        let mut args = Vec::new();
        for a in &c.args {
            let (expr, by_ref) = match a {
                Expr::Reference(r) if r.mutability.is_none() => (&*r.expr, true),
                Expr::Reference(r) => {
                    self.cx
                        .error_spanned_by(r, "`&mut` arguments are not supported");
                    continue;
                }
                e => (e, false),
            };
            let operand = self.lower_expr(expr);
            args.push(CallArg {
                operand,
                by_ref,
                span: a.span(),
            });
        }
        Operand::Value(self.emit(
            Op::Call {
                func: path.clone(),
                args,
            },
            Kind::Unknown,
            c.span(),
        ))
    }

    fn lower_index(&mut self, i: &syn::ExprIndex) -> Operand {
        let slice = self.local_ident(&i.expr);
        // The argument itself: a slice chosen at run time (`if c { a } else
        // { b }`) would need its adjoint chosen too.
        let Some(slice) = slice.filter(|v| {
            let info = &self.values[v.0 as usize];
            info.kind == Kind::Slice && info.param.is_some()
        }) else {
            self.cx.error_spanned_by(
                &i.expr,
                "indexing is supported on slice arguments only (`&[f64]`, `&Vec<f64>`)",
            );
            return self.missing(i.span());
        };
        if let Expr::Range(r) = &*i.index {
            self.cx.error_spanned_by(
                r,
                "sub-slices are not supported; index one element, such as `x[i]`",
            );
            return self.missing(i.span());
        }
        let index = self.lower_expr(&i.index);
        let key = match &index {
            Operand::Value(v) => ElementKey::Value(*v),
            Operand::Const(t) => ElementKey::Const(t.to_string()),
        };
        let seen = self
            .element_reads
            .iter()
            .flatten()
            .find(|(s, k, _)| *s == slice && *k == key);
        if let Some((_, _, v)) = seen {
            return Operand::Value(*v);
        }
        let v = self.emit(Op::Index { slice, index }, Kind::Float, i.span());
        if let Some(reads) = self.element_reads.last_mut() {
            reads.push((slice, key, v));
        }
        Operand::Value(v)
    }

    /// In a `map` closure, an element or a field of a variable of the
    /// enclosing function (`w[0]`, `p.scale`) that reads nothing of the
    /// closure's own: a constant of the element-wise function.
    fn outer_constant(&mut self, e: &Expr) -> Option<Operand> {
        fn root(e: &Expr) -> &Expr {
            match strip_parens(e) {
                Expr::Field(f) => root(&f.base),
                Expr::Index(i) => root(&i.expr),
                e => e,
            }
        }
        let ident = match root(e) {
            r @ Expr::Path(p) if self.local_ident(r).is_none() => p.path.get_ident()?,
            _ => return None,
        };
        if !self.outer.iter().any(|o| ident == o) {
            return None;
        }
        let mut own = Vec::new();
        Placeholders {
            lowerer: self,
            bindings: &mut own,
        }
        .visit_expr_mut(&mut e.clone());
        if !own.is_empty() {
            return None;
        }
        struct OuterReads<'a> {
            outer: &'a [String],
            found: Vec<syn::Ident>,
        }
        impl<'ast> Visit<'ast> for OuterReads<'_> {
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                if let Some(ident) = p.path.get_ident()
                    && self.outer.iter().any(|o| ident == o)
                {
                    self.found.push(ident.clone());
                }
            }
        }
        let mut reads = OuterReads {
            outer: &self.outer,
            found: Vec::new(),
        };
        reads.visit_expr(e);
        for ident in reads.found {
            if !self.captures.contains(&ident) {
                self.captures.push(ident);
            }
        }
        Some(Operand::Const(quote!((#e))))
    }

    /// Primal-only code: kept as written, each variable it reads replaced
    /// by a placeholder for the value its binding holds.
    fn lower_primal(&mut self, e: &Expr, kind: Kind) -> Operand {
        Forbidden { cx: self.cx }.visit_expr(e);
        let mut bindings = Vec::new();
        let mut expr = e.clone();
        Placeholders {
            lowerer: self,
            bindings: &mut bindings,
        }
        .visit_expr_mut(&mut expr);
        if bindings.is_empty() {
            return Operand::Const(quote!((#e)));
        }
        Operand::Value(self.emit(Op::Primal { expr, bindings }, kind, e.span()))
    }

    /// A comparison whose operands hold `if` expressions or blocks: the
    /// operands are lowered as values, the comparison is primal code.
    fn lower_comparison(&mut self, b: &syn::ExprBinary) -> Operand {
        let lhs = self.lower_expr(&b.left);
        let rhs = self.lower_expr(&b.right);
        let op = &b.op;
        if let (Operand::Const(l), Operand::Const(r)) = (&lhs, &rhs) {
            return Operand::Const(quote!((#l #op #r)));
        }
        let mut bindings = Vec::new();
        let mut operand = |o: Operand| match o {
            Operand::Const(t) => t,
            Operand::Value(v) => {
                let placeholder = placeholder(bindings.len(), b.op.span());
                bindings.push((placeholder.to_string(), v));
                placeholder.into_token_stream()
            }
        };
        let (l, r) = (operand(lhs), operand(rhs));
        let expr: Expr = syn::parse_quote!(#l #op #r);
        Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Bool, b.span()))
    }

    /// `a && b` or `a || b` whose operands hold `if` expressions or blocks:
    /// an `if` that evaluates `b` only when the primal does.
    fn lower_short_circuit(&mut self, b: &syn::ExprBinary) -> Operand {
        let (l, r) = (&b.left, &b.right);
        let desugared: syn::ExprIf = match b.op {
            BinOp::And(_) => syn::parse_quote_spanned!(b.span()=> if #l { #r } else { false }),
            _ => syn::parse_quote_spanned!(b.span()=> if #l { true } else { #r }),
        };
        self.lower_if(&desugared, true)
    }
}

/// The index of a slice read: a value, or a constant expression as
/// written (a path to a `const` item, a literal).
#[derive(PartialEq, Eq)]
enum ElementKey {
    Value(ValueId),
    Const(String),
}

/// The attributes of a statement, where it has them.
fn stmt_attrs(stmt: &SynStmt) -> Option<&Vec<syn::Attribute>> {
    match stmt {
        SynStmt::Local(l) => Some(&l.attrs),
        SynStmt::Macro(m) => Some(&m.attrs),
        SynStmt::Expr(e, _) => expr_attrs(e),
        SynStmt::Item(_) => None,
    }
}

fn stmt_attrs_mut(stmt: &mut SynStmt) -> Option<&mut Vec<syn::Attribute>> {
    match stmt {
        SynStmt::Local(l) => Some(&mut l.attrs),
        SynStmt::Macro(m) => Some(&mut m.attrs),
        SynStmt::Expr(e, _) => expr_attrs_mut(e),
        SynStmt::Item(_) => None,
    }
}

macro_rules! expr_attrs {
    ($name:ident, $($ref:tt)*) => {
        /// The outer attributes of an expression statement.
        fn $name(e: $($ref)* Expr) -> Option<$($ref)* Vec<syn::Attribute>> {
            Some(match e {
                Expr::Assign(x) => $($ref)* x.attrs,
                Expr::Binary(x) => $($ref)* x.attrs,
                Expr::Block(x) => $($ref)* x.attrs,
                Expr::Call(x) => $($ref)* x.attrs,
                Expr::ForLoop(x) => $($ref)* x.attrs,
                Expr::If(x) => $($ref)* x.attrs,
                Expr::Loop(x) => $($ref)* x.attrs,
                Expr::Macro(x) => $($ref)* x.attrs,
                Expr::Match(x) => $($ref)* x.attrs,
                Expr::MethodCall(x) => $($ref)* x.attrs,
                Expr::Unary(x) => $($ref)* x.attrs,
                Expr::While(x) => $($ref)* x.attrs,
                _ => return None,
            })
        }
    };
}
expr_attrs!(expr_attrs, &);
expr_attrs!(expr_attrs_mut, &mut);

/// A placeholder for the `k`-th value a primal expression reads.
fn placeholder(k: usize, span: Span) -> syn::Ident {
    syn::Ident::new(&format!("__ad_p{k}"), span)
}

/// Whether an expression holds an `if`, a block or a `match` (outside
/// closures): such a condition is lowered operand by operand, so the
/// values its branches compute are the sweep's own.
fn has_value_blocks(e: &Expr) -> bool {
    struct Finder(bool);
    impl<'ast> Visit<'ast> for Finder {
        fn visit_expr(&mut self, e: &'ast Expr) {
            match e {
                Expr::If(_) | Expr::Block(_) | Expr::Match(_) => self.0 = true,
                Expr::Closure(_) => {}
                e => syn::visit::visit_expr(self, e),
            }
        }
    }
    let mut finder = Finder(false);
    finder.visit_expr(e);
    finder.0
}

/// Replaces each local variable a primal expression reads, resolved with
/// its hygiene, by a placeholder naming the value it holds: the code
/// generator then writes the value's local, whatever text the user's
/// variable had.
struct Placeholders<'a, 'b> {
    lowerer: &'a Lowerer<'b>,
    bindings: &'a mut Vec<(String, ValueId)>,
}

impl VisitMut for Placeholders<'_, '_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if matches!(e, Expr::Path(_))
            && let Some(v) = self.lowerer.local_ident(e)
        {
            let k = match self.bindings.iter().position(|b| b.1 == v) {
                Some(k) => k,
                None => {
                    let name = placeholder(self.bindings.len(), e.span()).to_string();
                    self.bindings.push((name, v));
                    self.bindings.len() - 1
                }
            };
            let ident = placeholder(k, e.span());
            *e = syn::parse_quote!(#ident);
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

/// The rule of a `map` closure that applies one unary scalar rule to its
/// element: `|v| v.tanh()`, `|v| f64::tanh(v)`, or the path `f64::tanh`.
fn single_elementwise_rule(param: &syn::Ident, body: &Expr) -> Option<&'static Rule> {
    let is_param = |e: &Expr| matches!(strip_parens(e), Expr::Path(p) if p.path.is_ident(param));
    let name = match strip_parens(body) {
        Expr::MethodCall(m) if m.args.is_empty() && is_param(&m.receiver) => m.method.to_string(),
        Expr::Call(c) if c.args.len() == 1 && is_param(&c.args[0]) => match &*c.func {
            Expr::Path(p)
                if p.path.segments.len() == 2
                    && (p.path.segments[0].ident == "f64" || p.path.segments[0].ident == "f32") =>
            {
                p.path.segments[1].ident.to_string()
            }
            _ => return None,
        },
        _ => return None,
    };
    let rule = catalog::scalar_method(&name, 0)?;
    // Element-wise forms in `rules::generic` exist for these.
    matches!(
        rule.name,
        "exp" | "ln" | "sqrt" | "sin" | "cos" | "tanh" | "abs" | "relu" | "sigmoid"
    )
    .then_some(rule)
}

/// Whether an `if` is an expression with a value rather than a statement
/// (whose blocks end in statements, so its value is `()`).
fn if_yields_value(i: &syn::ExprIf) -> bool {
    let Some((_, else_branch)) = &i.else_branch else {
        return false;
    };
    let then_value = matches!(
        i.then_branch.stmts.last(),
        Some(SynStmt::Expr(e, None)) if yields_value(e)
    );
    then_value
        && match &**else_branch {
            Expr::If(nested) => if_yields_value(nested),
            Expr::Block(b) => matches!(
                b.block.stmts.last(),
                Some(SynStmt::Expr(e, None)) if yields_value(e)
            ),
            _ => true,
        }
}

/// Whether an expression in tail position is a value (not `()`).
fn yields_value(e: &Expr) -> bool {
    match e {
        Expr::ForLoop(_) | Expr::While(_) | Expr::Assign(_) => false,
        Expr::Binary(b) => compound_rule(&b.op).is_none(),
        Expr::If(i) => if_yields_value(i),
        _ => true,
    }
}

fn strip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        e => e,
    }
}

fn const_kind(e: &Expr) -> Kind {
    match strip_parens(e) {
        Expr::Lit(l) => match &l.lit {
            // `2f64` is an integer literal with a float suffix.
            syn::Lit::Int(i) if matches!(i.suffix(), "f32" | "f64") => Kind::Float,
            syn::Lit::Int(_) => Kind::Int,
            syn::Lit::Float(_) => Kind::Float,
            syn::Lit::Bool(_) => Kind::Bool,
            _ => Kind::Unknown,
        },
        Expr::Unary(u) => const_kind(&u.expr),
        Expr::Binary(b) => const_kind(&b.left),
        Expr::Cast(c) if float_type(&c.ty) => Kind::Float,
        Expr::Cast(_) => Kind::Int,
        _ => Kind::Unknown,
    }
}

/// Comparisons, `&&` and `||`: their value is a `bool`.
fn is_logical(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::Eq(_)
            | BinOp::Ne(_)
            | BinOp::Lt(_)
            | BinOp::Le(_)
            | BinOp::Gt(_)
            | BinOp::Ge(_)
            | BinOp::And(_)
            | BinOp::Or(_)
    )
}

/// The rule of `+`, `-`, `*` or `/`, with the operator as written.
fn arithmetic(op: &BinOp) -> Option<(&'static Rule, TokenStream)> {
    Some(match op {
        BinOp::Add(t) => (&catalog::ADD, t.to_token_stream()),
        BinOp::Sub(t) => (&catalog::SUB, t.to_token_stream()),
        BinOp::Mul(t) => (&catalog::MUL, t.to_token_stream()),
        BinOp::Div(t) => (&catalog::DIV, t.to_token_stream()),
        _ => return None,
    })
}

fn first_token_span(e: &Expr) -> Span {
    e.to_token_stream()
        .into_iter()
        .next()
        .map_or_else(Span::call_site, |t| t.span())
}

fn last_token_span(e: &Expr) -> Span {
    e.to_token_stream()
        .into_iter()
        .last()
        .map_or_else(Span::call_site, |t| t.span())
}

fn compound_rule(op: &BinOp) -> Option<(&'static Rule, TokenStream)> {
    Some(match op {
        BinOp::AddAssign(_) => (&catalog::ADD, quote!(+)),
        BinOp::SubAssign(_) => (&catalog::SUB, quote!(-)),
        BinOp::MulAssign(_) => (&catalog::MUL, quote!(*)),
        BinOp::DivAssign(_) => (&catalog::DIV, quote!(/)),
        _ => return None,
    })
}

// ---- substitution of values ----

fn substitute_value(v: &mut ValueId, map: &HashMap<ValueId, ValueId>) {
    if let Some(n) = map.get(v) {
        *v = *n;
    }
}

fn substitute_operand(o: &mut Operand, map: &HashMap<ValueId, ValueId>) {
    if let Operand::Value(v) = o {
        substitute_value(v, map);
    }
}

/// Replaces every read of a key of `map` with its value.
pub fn substitute_block(block: &mut Block, map: &HashMap<ValueId, ValueId>) {
    if map.is_empty() {
        return;
    }
    for stmt in &mut block.stmts {
        match stmt {
            Stmt::Let { op, .. } => match op {
                Op::Copy(a) | Op::StopGradient { arg: a, .. } | Op::Cast { arg: a, .. } => {
                    substitute_operand(a, map)
                }
                Op::Rule { args, .. } => args.iter_mut().for_each(|a| substitute_operand(a, map)),
                Op::Index { slice, index } => {
                    substitute_value(slice, map);
                    substitute_operand(index, map);
                }
                Op::Len { slice } => substitute_value(slice, map),
                Op::Map { recv, captures, .. } => {
                    substitute_value(recv, map);
                    captures
                        .iter_mut()
                        .for_each(|c| substitute_value(&mut c.1, map));
                }
                Op::Call { args, .. } => args
                    .iter_mut()
                    .for_each(|a| substitute_operand(&mut a.operand, map)),
                Op::Primal { bindings, .. } => bindings
                    .iter_mut()
                    .for_each(|b| substitute_value(&mut b.1, map)),
                Op::Literal { like, .. } => substitute_value(like, map),
                Op::Absent | Op::Missing => {}
            },
            Stmt::If(i) => {
                substitute_operand(&mut i.cond, map);
                substitute_block(&mut i.then_blk, map);
                substitute_block(&mut i.else_blk, map);
                for p in &mut i.phis {
                    substitute_value(&mut p.then_src, map);
                    substitute_value(&mut p.else_src, map);
                }
            }
            Stmt::Loop(l) => {
                match &mut l.header {
                    LoopHeader::Range { start, end, .. } => {
                        substitute_operand(start, map);
                        substitute_operand(end, map);
                    }
                    LoopHeader::While { cond_blk, cond } => {
                        substitute_block(cond_blk, map);
                        substitute_operand(cond, map);
                    }
                }
                substitute_block(&mut l.body, map);
                for c in &mut l.carried {
                    substitute_value(&mut c.init, map);
                    substitute_value(&mut c.exit, map);
                }
            }
        }
    }
}
