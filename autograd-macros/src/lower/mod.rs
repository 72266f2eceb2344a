//! Lowering: syn's syntax tree to the IR.
//!
//! Lowering never panics and never stops at the first problem: it records a
//! spanned error and leaves `Op::Missing` so the rest of the body is still
//! checked.
//!
//! This module holds the lowerer's state: values, blocks and scopes of
//! bindings. One module per construct lowers the rest: [`stmt`]
//! (statements and bindings), [`control`] (branches and loops), [`expr`]
//! (expressions and operators), [`calls`] (methods, paths and calls),
//! [`nalgebra`] (`map` and matrix methods) and [`primal`] (code the sweeps
//! run as written).

use std::collections::HashMap;

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote};
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::visit_mut::VisitMut;
use syn::{BinOp, Expr, Pat, Stmt as SynStmt, UnOp};

use crate::ctxt::Ctxt;
use crate::ir::*;
use crate::sig::{ParamKind, Signature};
use crate::table::{self, Builtin, Operator, Pass, Receiver, Rule, Ty};

mod calls;
mod control;
mod exits;
mod expr;
mod matching;
mod nalgebra;
mod primal;
mod stmt;

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
    values: ValueMap<ValueInfo>,
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

/// The index of a slice read: a value, or a constant expression as
/// written (a path to a `const` item, a literal).
#[derive(PartialEq, Eq)]
enum ElementKey {
    Value(ValueId),
    Const(String),
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
        values: ValueMap::default(),
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
        l.values[v].float = match &param.kind {
            ParamKind::Float(t) | ParamKind::Slice(t) => Some(t.0.clone()),
            ParamKind::Matrix { .. } => Some(syn::Ident::new("f64", Span::call_site())),
            _ => None,
        };
        l.values[v].param = Some(param.ident.clone());
        l.values[v].by_ref = by_ref;
        l.bind(&param.ident, v, mutable, ty);
        params.push(v);
    }
    // `match` and the exits become branches before lowering sees them.
    let matched = matching::desugar(cx, body);
    let body_matched = matched.as_ref().unwrap_or(body);
    let rewritten = exits::desugar(cx, &sig.ret, body_matched);
    let tail = l.lower_stmts(&rewritten.as_ref().unwrap_or(body_matched).stmts);
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

impl Lowerer<'_> {
    fn current_block(&self) -> BlockId {
        self.open_blocks.last().map_or(BlockId(0), |b| b.0)
    }

    fn new_value(&mut self, kind: Kind, name: Option<String>) -> ValueId {
        let block = self.current_block();
        self.values.push(ValueInfo {
            kind,
            name,
            block,
            param: None,
            by_ref: false,
            float: None,
        })
    }

    fn phi_float(&self, then_src: ValueId, else_src: ValueId) -> Option<syn::Ident> {
        let float = |v: ValueId| self.values[v].float.clone();
        float(then_src).or_else(|| float(else_src))
    }

    fn float_of(&self, o: &Operand) -> Option<syn::Ident> {
        match o {
            Operand::Value(v) => self.values[*v].float.clone(),
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
                .zip(rule.diff())
                .filter(|(_, d)| *d)
                .find_map(|(a, _)| self.float_of(a)),
            Op::Index { slice, .. } => self.values[*slice].float.clone(),
            Op::Cast { ty, .. } => float_ident(ty),
            Op::Map { .. } => Some(syn::Ident::new("f64", Span::call_site())),
            Op::Literal { like, .. } => self.values[*like].float.clone(),
            Op::Len { .. } | Op::Call { .. } | Op::Primal { .. } | Op::Absent | Op::Missing => None,
        }
    }

    fn kind(&self, op: &Operand) -> Option<Kind> {
        op.value().map(|v| self.values[v].kind)
    }

    fn push(&mut self, stmt: Stmt) {
        if let Some(b) = self.open_blocks.last_mut() {
            b.1.push(stmt);
        }
    }

    fn emit(&mut self, op: Op, kind: Kind, span: Span) -> ValueId {
        let dst = self.new_value(kind, None);
        self.values[dst].float = self.float_of_op(&op);
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

    fn local_ident(&self, expr: &Expr) -> Option<ValueId> {
        let Expr::Path(p) = expr else { return None };
        if p.qself.is_some() {
            return None;
        }
        let ident = p.path.get_ident()?;
        self.lookup(ident).map(|b| b.value)
    }

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
}
