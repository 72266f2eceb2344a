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
//! [`nalgebra`] (`map` and matrix methods), [`primal`] (code the sweeps
//! run as written), [`items`] (tuples and patterns), [`sequence`] (what
//! can be iterated and indexed), [`iter`] (iterator chains as index
//! loops), [`nested`] (local arrays of arrays), [`matching`] (`match` and
//! `if let` as the `if` chains they are), [`iter_mut`] (loops writing
//! elements) and [`asserts`] (assertions and `const` items in the body).
//!
//! Two rewrites of the body's syntax still run before it: [`records`]
//! (struct locals whose fields are read where the lowering of records does
//! not reach yet) and [`exits`] (`break`, `continue`, `return` and `loop`
//! as flags and guarded blocks, with the [`diverging`] split of a
//! statement whose value exits). Everything else is lowered where it
//! stands.

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

mod arrays;
mod asserts;
mod calls;
mod closures;
mod control;
mod data;
mod deferred;
mod diverging;
mod exits;
mod expr;
mod first_last;
mod from_fn;
mod items;
mod iter;
mod iter_mut;
mod matching;
mod nalgebra;
mod nested;
mod options;
mod primal;
mod records;
mod sequence;
mod stmt;
mod tuple_calls;

use items::Item;

/// Said where a part of a `#[constant]` argument whose type the macro
/// cannot see is used as a collection in a way it cannot read in place (a
/// sub-slice, an element of an iterated field that is itself indexed).
const CONSTANT_FIELD_ELEMENTS: &str = "the macro cannot see the type of this part of a `#[constant]` argument; name the field's type in a local, `let rows: &[Vec<f64>] = &market.rows;` (then `rows[i][j]`, `rows[i].iter()`), or index the field in place, `market.rows[i][j]`";

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
    /// An `Option` local (see [`options`]): its index in
    /// `Lowerer::option_locals`. Its value is then no value of the name.
    option: Option<usize>,
    /// The function's own in-out argument (`x: &mut f64`): `*x` reads and
    /// writes its value, which the body holds as the variable `x`.
    inout: bool,
    /// An array of arrays (see [`nested`]): its shape's index in
    /// `Lowerer::nested_locals`. Its value is the flat array.
    nested: Option<usize>,
    /// A struct local (see [`records`]): its index in `Lowerer::records`.
    /// Its value is then no value of the name; its fields' bindings hold
    /// the values.
    record: Option<usize>,
    /// The binding of a field of the struct local `records[r]`: `(r,
    /// field)`. No path names it: [`Lowerer::lookup`] passes it by, and
    /// `s.x` finds it through `s`'s own binding.
    field: Option<(usize, String)>,
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
    /// The scalar type parameter of a generic function (`T`).
    scalar: Option<syn::Ident>,
    /// Whether a value of a `#[constant]` argument's type that meets a
    /// float is converted to the scalar (the second-order twin, whose
    /// constant data keeps its `f64`s; see [`Self::lift_constant`]).
    lifts_constants: bool,
    /// The values of primal code whose type the macro cannot see
    /// (`market.rate`): what [`Self::lift_constant`] may convert. A value
    /// computed from them by a rule is not one.
    opaque_primals: std::collections::HashSet<ValueId>,
    /// In the second-order twin, names bound to a constant of a type the
    /// macro cannot see (`let k = K;`, `let (a, b) = (PI.cos(), K);` of an
    /// item read through `Lift`, or constant arithmetic on such names):
    /// the scalar if the item is a float, the item's own type otherwise.
    /// One that meets a float is a float (Rust mixes no other type with
    /// one), and is then of kind `Float`; see [`Self::lift_constant`].
    lifted: std::collections::HashSet<ValueId>,
    /// In a generic function (the second-order twin too), the results of
    /// calls, each one number of the scalar type, with the callee's name:
    /// indexing one says the callee must return one number.
    scalar_calls: HashMap<ValueId, String>,
    /// Names bound to a tuple or a window (`let t = (a, b);`, `for w in
    /// x.windows(2)`): the value the binding holds stands for the whole,
    /// which exists only here; reads of its parts resolve to IR values.
    aggregates: HashMap<ValueId, Item>,
    /// `const`, `static` and `use` items of the body, which the
    /// generated functions declare too.
    body_items: Vec<syn::Item>,
    /// Constant data (see [`data`]) and its type: `#[constant]` arguments
    /// the macro does not differentiate, and the rows read from them.
    data: HashMap<ValueId, syn::Type>,
    /// Names bound to closures (see [`closures`]): the value the binding
    /// holds stands for the closure, called inline.
    closures: HashMap<ValueId, closures::LocalClosure>,
    /// Names bound to `x.first()`, `x.last()` (see [`first_last`]): the
    /// value the binding holds stands for the `Option`, taken apart where
    /// it is tested and read.
    ends: HashMap<ValueId, first_last::End>,
    /// The `Option` locals (see [`options`]), which their names' bindings
    /// point to.
    option_locals: Vec<options::OptionLocal>,
    /// Elements of `const` and `static` arrays read at a run-time index
    /// (`EDGES[i]`): constants of a type the macro cannot see, which a
    /// pattern may take apart (`&(a, b)`).
    constant_elements: std::collections::HashSet<ValueId>,
    /// Values of a float cast (`y as f32`): their type is the cast's, not
    /// their operand's, so they tell nothing about mixed float types (a
    /// cast of a differentiable value is its own error).
    float_casts: std::collections::HashSet<ValueId>,
    /// The `#[constant]` arguments (and integers, `bool`s) and the elements
    /// read from them by iteration: what they hold has no derivative,
    /// whatever its kind.
    constant_params: std::collections::HashSet<ValueId>,
    /// The placeholders left where an error was reported: a later use of
    /// one reports nothing more.
    missing: std::collections::HashSet<ValueId>,
    /// The function being lowered, by name: where a call's function is
    /// looked up in the source (see [`crate::unannotated`]).
    caller: String,
    /// Calls of functions the source shows without the attribute, with
    /// the predicates of `cfgs` where each is.
    unannotated_calls: Vec<UnannotatedCall>,
    /// The predicates of the `#[cfg]` branches being lowered (`not(P)` in
    /// the arm where `P` does not hold), innermost last.
    cfgs: Vec<TokenStream>,
    /// Another crate's special functions reported, as written: one error
    /// per function, at its first call.
    foreign_reported: std::collections::HashSet<String>,
    /// The components of a `NAME_vjp` call's tuple (`let (v, pullback) =
    /// f_vjp(x);`), with the call's name: calling the pullback is an error
    /// saying to call `NAME_grad` instead.
    vjp_components: std::collections::HashMap<ValueId, String>,
    /// The call being lowered is an expression statement, so it may pass
    /// an in-out argument (`step(&mut y, dt);`, see `lower_inout_arg`).
    inout_statement: bool,
    /// The array type the next expression lowered has, where its place
    /// says so (a typed `let`, the function's `[f64; N]` result): what a
    /// `std::array::from_fn` there builds (see [`from_fn`]). Taken by the
    /// next `lower_expr`, and passed on to the branches and the tail of an
    /// `if` or block that is that expression.
    expected: Option<syn::TypeArray>,
    /// The elements of the `iter_mut()` walks being lowered, innermost
    /// last: the element's name, the array's, the loop's index (see
    /// [`iter_mut`]).
    walked: Vec<(syn::Ident, syn::Ident, ValueId)>,
    /// The shapes of the arrays of arrays (see [`nested`]), which their
    /// names' bindings point to.
    nested_locals: Vec<nested::Shape>,
    /// The identifiers the body's macros hold: an array of arrays of
    /// such a name is left as written.
    macro_idents: std::collections::HashSet<String>,
    /// The `for` loops over ranges being lowered, innermost last: the
    /// index's value and the range's exclusive end where known (see
    /// `Lowerer::within_row`).
    range_ends: Vec<(ValueId, Option<Expr>)>,
    /// The rows of arrays of arrays walked by `iter_mut()`, innermost
    /// last: the row's name, the array's shape, the row's index (see
    /// [`iter_mut`]).
    rows_walked: Vec<(syn::Ident, nested::Shape, ValueId)>,
    /// The struct locals (see [`records`]), which their names' bindings
    /// and their fields' bindings point to.
    records: Vec<records::Record>,
    /// How many scrutinees the `match` chains have bound (see [`matching`]).
    scrutinees: u32,
}

/// The index of a slice read: a value, or a constant expression as
/// written (a path to a `const` item, a literal).
#[derive(PartialEq, Eq)]
enum ElementKey {
    Value(ValueId),
    Const(String),
}

/// Lowers a function body whose signature has been read.
pub fn lower(cx: &Ctxt, sig: &Signature, syn_sig: &syn::Signature, body: &syn::Block) -> Function {
    let f = lower_fn(cx, sig, syn_sig, body, Vec::new(), None);
    #[cfg(test)]
    crate::ir::lowered(&f);
    f
}

/// [`lower`], of the user's function or of a body written inside the
/// user's function `caller` (a `map` closure, see [`nalgebra`]), whose
/// names the source file binds as the function's; `outer` names the
/// enclosing function's variables, which such a body reads as constants.
fn lower_fn(
    cx: &Ctxt,
    sig: &Signature,
    syn_sig: &syn::Signature,
    body: &syn::Block,
    outer: Vec<String>,
    caller: Option<&str>,
) -> Function {
    // A second-order twin is the user's function under another name.
    let own = syn_sig.ident.to_string();
    let own = own.strip_prefix(crate::sig::TWIN_PREFIX).unwrap_or(&own);
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
        scalar: sig.scalar.as_ref().map(|s| s.ident.clone()),
        lifts_constants: sig.scalar.as_ref().is_some_and(|s| s.twin),
        opaque_primals: std::collections::HashSet::new(),
        lifted: std::collections::HashSet::new(),
        scalar_calls: HashMap::new(),
        aggregates: HashMap::new(),
        body_items: Vec::new(),
        data: HashMap::new(),
        closures: HashMap::new(),
        ends: HashMap::new(),
        option_locals: Vec::new(),
        constant_elements: Default::default(),
        float_casts: std::collections::HashSet::new(),
        constant_params: std::collections::HashSet::new(),
        missing: std::collections::HashSet::new(),
        caller: caller.unwrap_or(own).to_owned(),
        unannotated_calls: Vec::new(),
        cfgs: Vec::new(),
        foreign_reported: std::collections::HashSet::new(),
        vjp_components: std::collections::HashMap::new(),
        inout_statement: false,
        expected: None,
        walked: Vec::new(),
        nested_locals: Vec::new(),
        macro_idents: nested::macro_idents(body),
        range_ends: Vec::new(),
        rows_walked: Vec::new(),
        records: Vec::new(),
        scrutinees: 0,
    };
    l.begin_block();
    let mut params = Vec::new();
    for (param, arg) in sig.params.iter().zip(syn_sig.inputs.iter()) {
        let (kind, by_ref) = match &param.kind {
            ParamKind::Float(_) => (Kind::Float, false),
            ParamKind::Slice(_) => (Kind::Slice, true),
            ParamKind::Matrix { by_ref, .. } => (Kind::Matrix, *by_ref),
            ParamKind::Array { by_ref, .. } => (Kind::Array, *by_ref),
            ParamKind::Int => (Kind::Int, false),
            ParamKind::Bool => (Kind::Bool, false),
            ParamKind::Other => (Kind::Unknown, false),
        };
        let (mutable, ty) = match arg {
            // An in-out argument is its owned value, written in place.
            syn::FnArg::Typed(_) if param.inout => (true, None),
            syn::FnArg::Typed(pt) => (
                matches!(&*pt.pat, Pat::Ident(pi) if pi.mutability.is_some()),
                Some((*pt.ty).clone()),
            ),
            syn::FnArg::Receiver(_) => (false, None),
        };
        let v = l.new_value(kind, Some(param.ident.to_string()));
        l.values[v].float = match &param.kind {
            ParamKind::Float(t) | ParamKind::Slice(t) | ParamKind::Array { elem: t, .. } => {
                Some(t.0.clone())
            }
            ParamKind::Matrix { .. } => Some(l.matrix_scalar()),
            _ => None,
        };
        l.values[v].param = Some(param.ident.clone());
        l.values[v].by_ref = by_ref;
        if !param.differentiable {
            l.constant_params.insert(v);
        }
        if let (ParamKind::Other, Some(ty)) = (&param.kind, &ty) {
            l.record_data(v, ty);
        }
        l.bind(&param.ident, v, mutable, ty);
        if param.inout
            && let Some(b) = l.lookup_mut(&param.ident)
        {
            b.inout = true;
        }
        params.push(v);
    }
    // The exits become branches, an exit in a statement's value (a `let ..
    // else` too) a statement of its own first, before lowering sees them
    // (`match`, `matches!`, a tuple from a branch, a
    // deferred `let`, the `Option` of `x.first()`, `Option` locals,
    // `std::array::from_fn`, a loop over `iter_mut()`, local
    // arrays of arrays and a struct built in the body are lowered where
    // they stand; the records rewrite takes the struct locals whose fields
    // are read as collections, see [`records`]).
    let param_names: Vec<String> = sig.params.iter().map(|p| p.ident.to_string()).collect();
    let records = records::desugar(cx, body, &param_names);
    let body = records.as_ref().unwrap_or(body);
    let rewritten = exits::desugar(cx, &sig.ret, l.scalar.as_ref(), body);
    if let crate::sig::Ret::Outputs(syn::Type::Array(a)) = &sig.ret {
        l.expected = Some(a.clone());
    }
    let tail = l.lower_stmts(&rewritten.as_ref().unwrap_or(body).stmts);
    let ret = match tail {
        _ if matches!(sig.ret, crate::sig::Ret::Unit) => Operand::Const(quote!(())),
        Some(t) => t,
        None => {
            cx.error_at(
                body.brace_token.span.close(),
                "a `#[differentiable]` body must end in the value it returns (a tail expression or `return`)",
            );
            Operand::Const(quote!(0.0))
        }
    };
    l.return_of_another_float(&sig.ret, &ret, syn_sig);
    // The final values of the in-out arguments: each the current value of
    // the argument's own binding (the first of its name in the outermost
    // scope, whatever shadows it later).
    let outs = sig
        .params
        .iter()
        .zip(&params)
        .filter(|(p, _)| p.inout)
        .map(|(p, v)| {
            l.scopes[0]
                .iter()
                .find(|b| p.ident == b.name && b.context == hygiene(&p.ident))
                .map_or(*v, |b| b.value)
        })
        .collect();
    let body = l.end_block();
    Function {
        values: l.values,
        params,
        body,
        ret,
        outs,
        captures: l.captures,
        items: l.body_items,
        unannotated_calls: l.unannotated_calls,
        reusable_pullback: matches!(sig.ret, crate::sig::Ret::Outputs(_)),
    }
}

/// A long sum nests to the left: visits its right operands, then the
/// leftmost, in a loop rather than thousands of frames deep. `false` if
/// `e` is no binary operation.
pub(super) fn visit_binary_spine_mut(e: &mut Expr, visit: &mut dyn FnMut(&mut Expr)) -> bool {
    if !matches!(e, Expr::Binary(_)) {
        return false;
    }
    let mut spine = e;
    while let Expr::Binary(b) = spine {
        visit(&mut b.right);
        spine = &mut *b.left;
    }
    visit(spine);
    true
}

/// `+=`, `-=`, `*=`, `/=` and the other compound assignments.
pub(crate) fn is_compound_assign(op: &BinOp) -> bool {
    matches!(
        op,
        BinOp::AddAssign(_)
            | BinOp::SubAssign(_)
            | BinOp::MulAssign(_)
            | BinOp::DivAssign(_)
            | BinOp::RemAssign(_)
            | BinOp::BitXorAssign(_)
            | BinOp::BitAndAssign(_)
            | BinOp::BitOrAssign(_)
            | BinOp::ShlAssign(_)
            | BinOp::ShrAssign(_)
    )
}

/// [`visit_binary_spine_mut`] for a visit that reads.
pub(super) fn visit_binary_spine<'ast>(e: &'ast Expr, visit: &mut dyn FnMut(&'ast Expr)) -> bool {
    if !matches!(e, Expr::Binary(_)) {
        return false;
    }
    let mut spine = e;
    while let Expr::Binary(b) = spine {
        visit(&b.right);
        spine = &b.left;
    }
    visit(spine);
    true
}

/// Two identifiers naming the same binding where both are in scope: the
/// same text in the same hygiene context.
pub(crate) fn same_binding(a: &syn::Ident, b: &syn::Ident) -> bool {
    a == b && hygiene(a) == hygiene(b)
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
/// The struct locals the records rewrite still takes (those whose fields
/// are read as collections, see [`records`]) as one local per field, for
/// the second-order twin, which is rewritten before it is lowered; the
/// main lowering has reported any error already.
pub(crate) fn struct_locals(sig: &Signature, body: &syn::Block) -> Option<syn::Block> {
    let params: Vec<String> = sig.params.iter().map(|p| p.ident.to_string()).collect();
    let scratch = Ctxt::default();
    let body = records::desugar(&scratch, body, &params);
    let _ = scratch.check();
    body
}

pub(crate) use arrays::{VecMacro, builds_matrices};
pub(crate) use asserts::check_hoisted_items;
pub(crate) use matching::matches_parts;

pub(crate) fn float_ident(ty: &syn::Type) -> Option<syn::Ident> {
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

impl Lowerer<'_> {
    /// The generic scalar parameter, if `ty` names it (`sum::<T>()`).
    fn scalar_param(&self, ty: &syn::Type) -> Option<syn::Ident> {
        let t = self.scalar.as_ref()?;
        match ty {
            syn::Type::Path(p) if p.qself.is_none() && p.path.is_ident(t) => Some(t.clone()),
            syn::Type::Paren(p) => self.scalar_param(&p.elem),
            syn::Type::Group(g) => self.scalar_param(&g.elem),
            _ => None,
        }
    }

    fn is_scalar_param(&self, ty: &syn::Type) -> bool {
        self.scalar_param(ty).is_some()
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
        Expr::MethodCall(m) if float_method(m) => const_float(&m.receiver),
        _ => None,
    }
}

/// Whether a method call is one of the rule table's methods of a scalar
/// (`sin`, `powi`, `max`, ..), which return the receiver's type.
fn float_method(m: &syn::ExprMethodCall) -> bool {
    table::method(&m.method.to_string(), m.args.len(), Receiver::Scalar).is_some()
}

/// A constant of a generic function's scalar: a call of one of its
/// functions (`T::one()`, `T::from(2.0)`, with `unwrap`/`expect`) or of a
/// conversion (`nalgebra::convert(2.0)`, `num_traits::cast(2.0)`), and a
/// float method of one (`T::from(1.5).unwrap().sin()`).
fn is_scalar_constant(e: &Expr, scalar: &syn::Ident) -> bool {
    match strip_parens(e) {
        Expr::MethodCall(m) if matches!(m.method.to_string().as_str(), "unwrap" | "expect") => {
            is_scalar_constant(&m.receiver, scalar)
        }
        Expr::MethodCall(m) if float_method(m) => is_scalar_constant(&m.receiver, scalar),
        Expr::Unary(u) => is_scalar_constant(&u.expr, scalar),
        Expr::Binary(b) => {
            is_scalar_constant(&b.left, scalar) || is_scalar_constant(&b.right, scalar)
        }
        Expr::Call(c) => match &*c.func {
            Expr::Path(p) => {
                let segments = &p.path.segments;
                let of_type = segments.len() == 2 && segments[0].ident == *scalar;
                let conversion = segments
                    .last()
                    .is_some_and(|s| s.ident == "convert" || s.ident == "cast");
                of_type || conversion
            }
            _ => false,
        },
        _ => false,
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
        Expr::Binary(b) if expr::is_logical(&b.op) => Kind::Bool,
        Expr::Binary(b) => match const_kind(&b.left) {
            Kind::Unknown => const_kind(&b.right),
            k => k,
        },
        // `stop_gradient(0.5)` of a literal (by any path, generic) is a
        // constant of its literal's kind, wherever it sits in the
        // expression (`-ag::stop_gradient(-2.0)`, finding 024).
        Expr::Call(c)
            if c.args.len() == 1
                && matches!(&*c.func, Expr::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "stop_gradient")) =>
        {
            const_kind(&c.args[0])
        }
        Expr::Cast(c) if float_type(&c.ty) => Kind::Float,
        Expr::Cast(_) => Kind::Int,
        // `2.0_f64.ln()`: a float method of a float.
        Expr::MethodCall(m) if float_method(m) && const_kind(&m.receiver) == Kind::Float => {
            Kind::Float
        }
        _ => Kind::Unknown,
    }
}

impl Lowerer<'_> {
    /// The element type of a matrix: `f64`, or a second-order twin's
    /// scalar (the only generic scalar a matrix takes).
    fn matrix_scalar(&self) -> syn::Ident {
        match &self.scalar {
            Some(s) if *s == crate::sig::scalar_param() => s.clone(),
            _ => syn::Ident::new("f64", Span::call_site()),
        }
    }

    /// `f32`, `f64` or the scalar type parameter, as a type's identifier.
    fn scalar_ident(&self, ty: &syn::Type) -> Option<syn::Ident> {
        float_ident(ty).or_else(|| match ty {
            syn::Type::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .filter(|i| self.scalar.as_ref() == Some(*i))
                .cloned(),
            _ => None,
        })
    }

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
            exists: None,
        })
    }

    fn phi_float(&self, then_src: ValueId, else_src: ValueId) -> Option<syn::Ident> {
        let float = |v: ValueId| self.values[v].float.clone();
        float(then_src).or_else(|| float(else_src))
    }

    /// The float type of an operand, if it is `f32` or `f64` (not a
    /// generic function's scalar).
    fn concrete_float_of(&self, o: &Operand) -> Option<syn::Ident> {
        if o.value().is_some_and(|v| self.float_casts.contains(&v)) {
            return None;
        }
        self.float_of(o).filter(|f| f == "f32" || f == "f64")
    }

    /// `fn f(x: f64) -> f32 { x * x }`: rustc's error in the function as
    /// written would come again from each generated item, so the macro
    /// reports it, once.
    fn return_of_another_float(
        &self,
        ret: &crate::sig::Ret,
        value: &Operand,
        sig: &syn::Signature,
    ) {
        if let crate::sig::Ret::Float(declared) = ret
            && (declared.0 == "f32" || declared.0 == "f64")
            && let Some(found) = self.concrete_float_of(value)
            && found != declared.0
        {
            self.cx.error_spanned_by(
                &sig.output,
                format!(
                    "the function returns `{}` but its value is an `{found}`; keep one float type in the function: return `{found}`, or compute in `{}`",
                    declared.0, declared.0
                ),
            );
        }
    }

    fn float_of(&self, o: &Operand) -> Option<syn::Ident> {
        match o {
            Operand::Value(v) => self.values[*v].float.clone(),
            Operand::Const(t) => syn::parse2::<Expr>(t.clone()).ok().and_then(|e| {
                const_float(&e)
                    .or_else(|| self.scalar.clone().filter(|t| is_scalar_constant(&e, t)))
            }),
        }
    }

    /// What a constant expression computes: in a function generic over
    /// `T`, a constant made by `T`'s functions (`T::one()`,
    /// `T::from(2.0).unwrap()`) or a conversion (`nalgebra::convert(2.0)`)
    /// is a float.
    fn const_kind(&self, e: &Expr) -> Kind {
        match const_kind(e) {
            Kind::Unknown
                if self
                    .scalar
                    .as_ref()
                    .is_some_and(|t| is_scalar_constant(e, t)) =>
            {
                Kind::Float
            }
            k => k,
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
            Op::Map { .. } => Some(self.matrix_scalar()),
            Op::Literal { like, .. } => self.values[*like].float.clone(),
            Op::Pack { elems, .. } => elems.iter().find_map(|e| self.float_of(e)),
            Op::Fill { elem, .. } => self.float_of(elem),
            Op::Store { array, elem, .. } | Op::Push { array, elem } => self.values[*array]
                .float
                .clone()
                .or_else(|| self.float_of(elem)),
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
        if kind == Kind::Unknown && matches!(op, Op::Primal { .. }) {
            self.opaque_primals.insert(dst);
        }
        self.push(Stmt::Let {
            dst,
            op,
            span,
            ty: None,
        });
        dst
    }

    fn missing(&mut self, span: Span) -> Operand {
        let v = self.emit(Op::Missing, Kind::Unknown, span);
        self.missing.insert(v);
        Operand::Value(v)
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
                option: None,
                inout: false,
                nested: None,
                record: None,
                field: None,
            });
        }
    }

    /// Binds component `k` of the tuple `ident` (`let sc = x.sin_cos();`):
    /// a name no identifier can spell, `sc.0`, read by `sc.0`.
    fn bind_component(&mut self, ident: &syn::Ident, k: usize, value: ValueId) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(Binding {
                name: format!("{ident}.{k}"),
                context: hygiene(ident),
                value,
                mutable: false,
                ty: None,
                option: None,
                inout: false,
                nested: None,
                record: None,
                field: None,
            });
        }
    }

    /// The value of `tuple.k` for a tuple bound with [`Self::bind_component`].
    fn component(&self, tuple: &syn::Ident, k: usize) -> Option<ValueId> {
        let (name, context) = (format!("{tuple}.{k}"), hygiene(tuple));
        self.scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|b| b.name == name && b.context == context)
            .map(|b| b.value)
    }

    /// The binding an identifier resolves to: the innermost one of the
    /// same text and hygiene. A struct local's is none: no value holds it
    /// (see [`records`]).
    fn lookup(&self, ident: &syn::Ident) -> Option<&Binding> {
        let (s, b) = self.position(ident)?;
        Some(&self.scopes[s][b])
    }

    /// Where the binding an identifier resolves to is: its scope and its
    /// index there.
    fn position(&self, ident: &syn::Ident) -> Option<(usize, usize)> {
        self.named(ident)
            .filter(|&(s, b)| self.scopes[s][b].record.is_none())
    }

    /// Where the innermost binding of an identifier is, a struct local's
    /// too; never a field's, which no path names.
    fn named(&self, ident: &syn::Ident) -> Option<(usize, usize)> {
        let context = hygiene(ident);
        self.scopes.iter().enumerate().rev().find_map(|(s, scope)| {
            let b = scope
                .iter()
                .rposition(|b| b.field.is_none() && ident == &b.name && b.context == context)?;
            Some((s, b))
        })
    }

    fn lookup_mut(&mut self, ident: &syn::Ident) -> Option<&mut Binding> {
        let (s, b) = self.position(ident)?;
        Some(&mut self.scopes[s][b])
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

    /// The place `x` that `*x` names, for the function's own in-out
    /// argument `x`: its value is the body's variable `x`.
    fn inout_deref<'e>(&self, expr: &'e Expr) -> Option<&'e Expr> {
        let Expr::Unary(u) = strip_parens(expr) else {
            return None;
        };
        if !matches!(u.op, UnOp::Deref(_)) {
            return None;
        }
        let inner = strip_parens(&u.expr);
        self.is_inout(inner).then_some(inner)
    }

    /// Whether `expr` names the function's own in-out argument.
    fn is_inout(&self, expr: &Expr) -> bool {
        match expr {
            Expr::Path(p) if p.qself.is_none() => p
                .path
                .get_ident()
                .and_then(|i| self.lookup(i))
                .is_some_and(|b| b.inout),
            _ => false,
        }
    }

    /// An assignment's target written through an in-out argument (`*x`,
    /// `(*x)[i]`) as the place it names in the body (`x`, `x[i]`).
    fn inout_target_place(&self, target: &Expr) -> Option<Expr> {
        if let Some(place) = self.inout_deref(target) {
            return Some(place.clone());
        }
        match target {
            Expr::Index(ix) => {
                let base = self.inout_target_place(&ix.expr)?;
                Some(Expr::Index(syn::ExprIndex {
                    expr: Box::new(base),
                    ..ix.clone()
                }))
            }
            Expr::Paren(p) => self.inout_target_place(&p.expr),
            _ => None,
        }
    }

    fn local_ident(&self, expr: &Expr) -> Option<ValueId> {
        // `s.w` of a struct local: its field's variable.
        if let Expr::Field(f) = expr {
            let (s, b) = self.field_place(f)?;
            return Some(self.scopes[s][b].value);
        }
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
