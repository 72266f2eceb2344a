//! Functions taking `Tangent` structs (`p: &Params`, `p: Params`) and
//! methods reading their receiver's fields (`&self`, `self`).
//!
//! The macro cannot see a struct's fields, so it does not lower the struct
//! itself: every field the body reads (`p.a`) becomes an `f64` argument of
//! a hidden copy of the function (the "flat" function), which the ordinary
//! pipeline differentiates. The public items call the flat function's VJP
//! with the fields' values and assemble each struct's adjoint from its
//! argument (`Tangent::zero_adjoint`: constants cloned) plus the adjoint of
//! each field read, added into the field by its path (`d.inner.a += g`),
//! then `Tangent::__restore_constants` for the constant fields among them.
//! The flat function lives in a module inside the VJP wrapper, so the same
//! expansion works inside an `impl` block, where a free item cannot be
//! emitted.

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{FnArg, Type};

use crate::ctxt::Ctxt;
use crate::emit::names;
use crate::sig::{self, ParamKind, struct_type};

/// An argument of the user's function, as the wrappers see it.
struct Arg {
    ident: syn::Ident,
    kind: ArgKind,
    /// A `Tangent` struct taken as an in-out argument (`s: &mut State`).
    inout: bool,
}

enum ArgKind {
    /// A `Tangent` struct (or the receiver): `ty` is its owned type.
    Struct { ty: Box<Type>, by_ref: bool },
    /// Any other argument: the flat function takes it as written.
    Other { by_value_clone: bool },
}

/// The function's arguments, if one of them is a `Tangent` struct or the
/// receiver; `None` sends the function down the ordinary pipeline.
fn args(func: &syn::ItemFn) -> Option<Vec<Arg>> {
    let args = all_args(func)?;
    args.iter()
        .any(|a| matches!(a.kind, ArgKind::Struct { .. }))
        .then_some(args)
}

/// The function's arguments; `None` for a pattern other than a name,
/// which the ordinary pipeline reports.
fn all_args(func: &syn::ItemFn) -> Option<Vec<Arg>> {
    func.sig
        .inputs
        .iter()
        .map(|arg| match arg {
            FnArg::Receiver(r) => Some(Arg {
                ident: syn::Ident::new("self", r.self_token.span),
                kind: ArgKind::Struct {
                    ty: Box::new(syn::parse_quote_spanned!(r.self_token.span=> Self)),
                    by_ref: !matches!(r.kind, syn::ReceiverKind::Value),
                },
                inout: matches!(r.kind, syn::ReceiverKind::Reference(_, _, Some(_))),
            }),
            FnArg::Typed(pt) => {
                let syn::Pat::Ident(pi) = &*pt.pat else {
                    return None;
                };
                let constant = pt.attrs.iter().any(sig::is_constant_attr);
                let (ty, inout) = match &*pt.ty {
                    Type::Reference(r) if r.mutability.is_some() => (&*r.elem, true),
                    ty => (ty, false),
                };
                let kind = match struct_type(ty, &func.sig.generics) {
                    Some((ty, by_ref)) if !constant => ArgKind::Struct {
                        ty: Box::new(ty),
                        by_ref: by_ref || inout,
                    },
                    _ => ArgKind::Other {
                        by_value_clone: !matches!(&*pt.ty, Type::Reference(_)),
                    },
                };
                let inout = inout && matches!(kind, ArgKind::Struct { .. });
                Some(Arg {
                    ident: pi.ident.clone(),
                    kind,
                    inout,
                })
            }
        })
        .collect()
}

/// How a body reads a field of a struct argument.
#[derive(Clone, Copy, PartialEq, Eq)]
enum ReadKind {
    /// As a float value (`p.a * x`): an `f64` input.
    Scalar,
    /// By index or iterator (`p.w[i]`, `p.w.iter()`, `p.w.len()`, `&p.w`):
    /// a collection field, a `&[f64]` input (a `Vec<f64>` one of a struct
    /// taken by value, whose pullback cannot borrow it).
    Elements,
    /// As a nalgebra value (`p.w.dot(&x)`, `p.w.norm_squared()`, `&p.m *
    /// &x`, `p.m[(i, j)]`): a vector or matrix field (`DVector<f64>`,
    /// `DMatrix<f64>`, fixed-size), a `DMatrix<f64>` input of its shape
    /// (a copy: the flat function takes one matrix type for all of them).
    Matrix,
}

/// A field of a struct argument the body reads: `base.path[0].path[1]..`.
#[derive(Clone)]
struct Read {
    base: syn::Ident,
    path: Vec<syn::Ident>,
    kind: ReadKind,
}

impl Read {
    /// The flat function's argument for it.
    fn arg(&self) -> syn::Ident {
        let mut name = format!("__ad_{}", self.base);
        for f in &self.path {
            name.push('_');
            name.push_str(&f.to_string());
        }
        if self.kind == ReadKind::Matrix {
            name.push_str("_matrix");
        }
        let span = self.path.last().map_or(self.base.span(), |f| f.span());
        syn::Ident::new(&name, span)
    }
}

/// A constant field read (`p.n as usize`, `x[p.k]`, `if p.flag`): the
/// flat function's constant argument, the field and the type it is read as.
#[derive(Clone)]
struct ConstRead {
    arg: syn::Ident,
    base: syn::Ident,
    path: Vec<syn::Ident>,
    ty: Type,
    /// A range's bound (`0..p.n`), read without a cast: an unsigned integer.
    range: bool,
}

/// Methods that read a collection field's elements (`p.w.iter()`).
const ELEMENT_METHODS: &[&str] = &[
    "iter",
    "len",
    "is_empty",
    "windows",
    "chunks_exact",
    "to_vec",
    "first",
    "last",
    "into_iter",
];

/// Replaces each read `p.field` of a struct argument by the flat
/// function's argument for it; any other use of the struct is an error.
struct Flatten<'a> {
    cx: &'a Ctxt,
    imp: Option<&'a ImplCx>,
    /// The struct arguments, and whether each is taken by value.
    structs: Vec<(syn::Ident, bool)>,
    /// In the order of first read.
    reads: Vec<Read>,
    /// Integer and `bool` fields: constants.
    casts: Vec<ConstRead>,
    /// Struct arguments some field of which is read as a constant of its
    /// own type (`match p.kind { .. }`, `p.kind == Kind::A`): the flat
    /// function takes the struct as a `#[constant]` reference, in the
    /// order of first use, and those reads (for the check against writes).
    consts: Vec<syn::Ident>,
    const_reads: Vec<(syn::Ident, Vec<syn::Ident>, TokenStream)>,
    /// Whether the receiver's type was needed where it is not known.
    self_named: bool,
    /// Struct arguments passed on whole to another function taking a
    /// `Tangent` struct, in the order of first use, each with the path of
    /// the nested struct passed (`inner` of `g(&p.inner)`; empty for `p`).
    wholes: Vec<(syn::Ident, Vec<syn::Ident>)>,
    /// Each struct argument's owned type.
    types: Vec<(syn::Ident, Type)>,
    /// Whether the function's float is `f32`.
    f32: bool,
    /// Whether the function has `hessian`.
    hessian: bool,
    /// The fields the body assigns (`p.a = e`, `p.a += e`, `p.w[i] = e` of
    /// a struct taken by value), and where: their flat arguments are
    /// `mut`.
    written: Vec<(syn::Ident, Vec<syn::Ident>, TokenStream)>,
    /// The function's name, and the plain functions (no attribute) it
    /// passes a struct to, each reported once.
    caller: String,
    unannotated: Vec<String>,
    /// The in-out struct arguments (`s: &mut State`): a float field is an
    /// in-out `&mut f64` of the flat function, read as `(*__ad_s_x)`.
    inout: Vec<syn::Ident>,
}

/// `let mut s = p;` (or `*p`, `p.clone()`) of a struct argument, as the
/// literal of the fields the body uses of `s`: `let mut s = State { x: p.x,
/// v: p.v };`. The fields are read as any other (so `p` is not passed on
/// whole), and the local is then a struct built in the body (one local per
/// field, lower/records.rs), which also says what to write if `s` is used
/// whole.
fn copy_into_literals(body: &mut syn::Block, structs: &[(syn::Ident, Type)]) {
    use syn::visit::Visit;
    /// The struct argument `init` copies, if any.
    fn copied<'a>(
        init: &syn::Expr,
        structs: &'a [(syn::Ident, Type)],
    ) -> Option<&'a (syn::Ident, Type)> {
        let e = match strip_parens(init) {
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => strip_parens(&u.expr),
            syn::Expr::MethodCall(m) if m.method == "clone" && m.args.is_empty() => {
                match strip_parens(&m.receiver) {
                    syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Deref(_)) => {
                        strip_parens(&u.expr)
                    }
                    e => e,
                }
            }
            e => e,
        };
        let syn::Expr::Path(p) = e else { return None };
        let ident = p.path.get_ident()?;
        structs.iter().find(|(s, _)| s == ident)
    }
    /// The fields a body names on `local`, in the order first named.
    struct Fields<'a> {
        local: &'a syn::Ident,
        fields: Vec<syn::Ident>,
    }
    impl<'ast> Visit<'ast> for Fields<'_> {
        fn visit_expr_field(&mut self, f: &'ast syn::ExprField) {
            if let (syn::Expr::Path(p), syn::Member::Named(name)) =
                (strip_parens(&f.base), &f.member)
                && p.path.is_ident(self.local)
                && !self.fields.contains(name)
            {
                self.fields.push(name.clone());
            }
            syn::visit::visit_expr_field(self, f);
        }
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            if let (syn::Expr::Path(p), syn::Expr::Struct(lit)) =
                (strip_parens(&a.left), strip_parens(&a.right))
                && p.path.is_ident(self.local)
            {
                for f in &lit.fields {
                    if let syn::Member::Named(name) = &f.member
                        && !self.fields.contains(name)
                    {
                        self.fields.push(name.clone());
                    }
                }
            }
            syn::visit::visit_expr_assign(self, a);
        }
    }
    let candidates: Vec<(usize, syn::Ident, syn::Ident, Type)> = body
        .stmts
        .iter()
        .enumerate()
        .filter_map(|(k, stmt)| {
            let syn::Stmt::Local(l) = stmt else {
                return None;
            };
            let syn::Pat::Ident(pi) = &l.pat else {
                return None;
            };
            let init = l.init.as_ref().filter(|i| i.diverge.is_none())?;
            let (arg, ty) = copied(&init.expr, structs)?;
            Some((k, pi.ident.clone(), arg.clone(), ty.clone()))
        })
        .collect();
    for (k, local, arg, ty) in candidates {
        let Type::Path(path) = &ty else { continue };
        let mut fields = Fields {
            local: &local,
            fields: Vec::new(),
        };
        for stmt in &body.stmts[k + 1..] {
            fields.visit_stmt(stmt);
        }
        if fields.fields.is_empty() {
            continue;
        }
        let (path, names) = (&path.path, &fields.fields);
        if let syn::Stmt::Local(l) = &mut body.stmts[k]
            && let Some(init) = &mut l.init
        {
            let span = init.expr.span();
            *init.expr = syn::parse_quote_spanned!(span=> #path { #(#names: #arg.#names),* });
        }
    }
}

/// The flat function's arguments for a struct passed on whole: the struct
/// argument (a constant: its constant fields and shapes; for a nested
/// struct `p.inner`, the argument `p` it is read from, since the macro
/// cannot name the nested struct's type) and the differentiable fields of
/// the struct passed flattened into a `Vec<f64>`.
fn whole_args(base: &syn::Ident, path: &[syn::Ident]) -> (syn::Ident, syn::Ident) {
    let mut name = base.to_string();
    for f in path {
        name.push('_');
        name.push_str(&f.to_string());
    }
    (
        format_ident!("__ad_{}_whole", name, span = base.span()),
        format_ident!("__ad_{}_flat", name, span = base.span()),
    )
}

/// The flat function's `#[constant]` reference to a struct argument some
/// field of which it reads as a constant of the field's own type.
fn const_arg(base: &syn::Ident) -> syn::Ident {
    format_ident!("__ad_{}_const", base, span = base.span())
}

/// A path naming an enum's variant as written (`Kind::A`, `A` of a `use
/// Kind::*`): its last name starts with a capital and is not all capitals
/// (a constant, `PI`).
fn variant_like(e: &syn::Expr) -> bool {
    let syn::Expr::Path(p) = strip_parens(e) else {
        return false;
    };
    p.qself.is_none()
        && p.path.segments.last().is_some_and(|s| {
            let name = s.ident.to_string();
            name.starts_with(|c: char| c.is_ascii_uppercase())
                && name.chars().any(|c| c.is_ascii_lowercase())
        })
}

/// Whether a pattern binds a name (`v`, `v @ 1..`, `Some(v)`): one not
/// starting with a capital, which would be a variant (`Call` of a `use
/// Kind::*`).
fn binds_value(pat: &syn::Pat) -> bool {
    use syn::visit::Visit;
    struct Binds(bool);
    impl<'ast> Visit<'ast> for Binds {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            if !p
                .ident
                .to_string()
                .starts_with(|c: char| c.is_ascii_uppercase())
            {
                self.0 = true;
            }
            syn::visit::visit_pat_ident(self, p);
        }
    }
    let mut binds = Binds(false);
    binds.visit_pat(pat);
    binds.0
}

/// The function by which a differentiable body calls a function taking a
/// `Tangent` struct, in the hidden module named like that function: each
/// struct argument passed as the struct (constant) and its flattened
/// differentiable fields. `span` is the user's name of the function.
fn struct_call_ident(span: Span) -> syn::Ident {
    syn::Ident::new(names::STRUCT_CALL, span)
}

/// A method of nalgebra values that floats do not have (`dot`,
/// `norm_squared`, `transpose`, `max()`), or a shape, `map` or clone of
/// one: what the rule table takes on a matrix receiver.
fn matrix_method(m: &syn::ExprMethodCall) -> bool {
    use crate::table::{self, Builtin, Receiver};
    let name = m.method.to_string();
    let arity = m.args.len();
    if ELEMENT_METHODS.contains(&name.as_str()) {
        return false;
    }
    let rule = table::method(&name, arity, Receiver::Matrix).is_some()
        && table::method(&name, arity, Receiver::Scalar).is_none();
    rule || matches!(
        table::builtin(&name, arity),
        Some(Builtin::Shape | Builtin::Map | Builtin::Clone)
    )
}

fn strip_parens(e: &syn::Expr) -> &syn::Expr {
    match e {
        syn::Expr::Paren(p) => strip_parens(&p.expr),
        e => e,
    }
}

impl Flatten<'_> {
    /// The struct argument `e` names, as written there (for spans).
    fn struct_of(&self, e: &syn::Expr) -> Option<syn::Ident> {
        let syn::Expr::Path(p) = strip_parens(e) else {
            return None;
        };
        let ident = p.path.get_ident()?;
        self.structs
            .iter()
            .any(|(s, _)| s == ident)
            .then(|| ident.clone())
    }

    /// `p.a`, `p.inner.a`: a chain of named fields of a struct argument.
    fn chain(&self, e: &syn::Expr) -> Option<(syn::Ident, Vec<syn::Ident>)> {
        let syn::Expr::Field(f) = strip_parens(e) else {
            return None;
        };
        let syn::Member::Named(field) = &f.member else {
            return None;
        };
        let (base, mut path) = match self.struct_of(&f.base) {
            Some(base) => (base, Vec::new()),
            None => self.chain(&f.base)?,
        };
        path.push(field.clone());
        Some((base, path))
    }

    /// The flat function's argument for a read of `e`, if it is a field
    /// chain.
    fn read(&mut self, e: &syn::Expr, kind: ReadKind) -> Option<syn::Expr> {
        let (base, path) = self.chain(e)?;
        let read = Read { base, path, kind };
        let arg = read.arg();
        let same = |r: &Read| r.base == read.base && r.path == read.path && r.kind == read.kind;
        let deref = read.kind == ReadKind::Scalar && self.inout.contains(&read.base);
        if !self.reads.iter().any(same) {
            self.reads.push(read);
        }
        match deref {
            true => Some(syn::parse_quote!((*#arg))),
            false => Some(syn::parse_quote!(#arg)),
        }
    }

    /// `p` or `&p` of a struct argument, or `&p.inner` (`p.inner`) of a
    /// nested `Tangent` struct: passed on whole, with the nested struct's
    /// path.
    fn whole(&self, e: &syn::Expr) -> Option<(syn::Ident, Vec<syn::Ident>)> {
        let e = match strip_parens(e) {
            syn::Expr::Reference(r) if r.mutability.is_none() => strip_parens(&r.expr),
            e => e,
        };
        if let Some(base) = self.struct_of(e) {
            return Some((base, Vec::new()));
        }
        let (base, path) = self.chain(e)?;
        self.nested_type(&base, &path)?;
        Some((base, path))
    }

    /// The name of the type of `base.path..`: the struct argument's own
    /// type for an empty path, else that of the nested `Tangent` struct the
    /// field chain names, where the source file shows it (see
    /// [`crate::unannotated::nested_tangent_field`]).
    fn nested_type(&self, base: &syn::Ident, path: &[syn::Ident]) -> Option<String> {
        let (_, ty) = self.types.iter().find(|(b, _)| b == base)?;
        let Type::Path(ty) = ty else { return None };
        let mut name = ty.path.segments.last()?.ident.to_string();
        if name == "Self" {
            name = self.imp?.type_name.to_string();
        }
        if path.is_empty() {
            return Some(name);
        }
        crate::unannotated::nested_tangent_field(&name, path)
    }

    /// The two arguments by which a struct passed on whole goes to the
    /// callee's struct call.
    /// `at` is the argument as written, where an error about what the
    /// callee does with it points.
    fn pass_whole(&mut self, base: &syn::Ident, path: &[syn::Ident], at: Span) -> [syn::Expr; 2] {
        self.names_self(base, "pass `self` on whole to another function");
        // The flattened fields are `f64`s.
        if self.f32 {
            self.cx.error_spanned_by(
                base,
                format!(
                    "a `Tangent` struct is passed on whole to another function only by an `f64` function; in an `f32` function, read the fields where they are used (`{base}.a`)"
                ),
            );
        }
        // The struct call has a custom rule and a tangent rule, no second
        // order.
        if self.hessian {
            self.cx.error_spanned_by(
                base,
                format!(
                    "a function with `hessian` does not pass a `Tangent` struct on whole to another function yet; pass its fields (`{base}.a`), or write the attribute without `hessian` (`jvp` passes it on)"
                ),
            );
        }
        let key = (base.clone(), path.to_vec());
        if !self.wholes.contains(&key) {
            self.wholes.push(key);
        }
        let (mut whole, mut flat) = whole_args(base, path);
        whole.set_span(at);
        flat.set_span(at);
        let whole: syn::Expr = if !path.is_empty() && self.by_value(base) {
            // The nested struct, read from the struct argument; a copy of
            // it where the flat function owns the argument, since the
            // pullback keeps what it is passed.
            syn::parse_quote_spanned!(at=> &#whole #(.#path)*.clone())
        } else if !path.is_empty() {
            syn::parse_quote_spanned!(at=> &#whole #(.#path)*)
        } else if self.by_value(base) {
            syn::parse_quote_spanned!(at=> &#whole)
        } else {
            syn::parse_quote!(#whole)
        };
        [whole, syn::parse_quote_spanned!(at=> &#flat)]
    }

    /// `g(p, x)`, `m::g(&p, x)`, `p.g(x)` or `Model::g(p, x)` of a function
    /// outside this impl block taking a `Tangent` struct: a call of its
    /// struct call.
    fn whole_call(&mut self, e: &mut syn::Expr) -> bool {
        match e {
            syn::Expr::Call(c) => {
                let syn::Expr::Path(func) = &*c.func else {
                    return false;
                };
                if func.qself.is_some() || !c.args.iter().any(|a| self.whole(a).is_some()) {
                    return false;
                }
                if crate::unannotated::is_plain_function(&self.caller, &func.path) {
                    let (written, message) = crate::unannotated::error(&func.path);
                    if !self.unannotated.contains(&written) {
                        self.cx.error_spanned_by(&func.path, message);
                        self.unannotated.push(written);
                    }
                    return true;
                }
                let mut path = func.path.clone();
                let n = path.segments.len();
                let last = path.segments[n - 1].ident.clone();
                // `Model::g(p, x)` with `p: &Model`: an associated function
                // of the type of a struct it is passed, whose struct call
                // is an associated item of the type
                // (`Model::__autograd_g__struct_call`); `m::g(p, x)` and
                // `g(p, x)` reach it in the type named like the function.
                if n >= 2 && self.passes_type(&path.segments[n - 2].ident, &c.args) {
                    let call = crate::ir::method_struct_call(&last.to_string());
                    path.segments[n - 1].ident = syn::Ident::new(&call, last.span());
                } else {
                    path.segments
                        .push(syn::PathSegment::from(struct_call_ident(last.span())));
                }
                let mut args = syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::new();
                for a in std::mem::take(&mut c.args) {
                    match self.whole(&a) {
                        Some((base, path)) => args.extend(self.pass_whole(&base, &path, a.span())),
                        None => {
                            let mut a = a;
                            self.visit_expr_mut(&mut a);
                            args.push(a);
                        }
                    }
                }
                *e = syn::parse_quote_spanned!(c.span()=> #path(#args));
                true
            }
            // `self.g()` of a method without an annotated impl block: the
            // error below.
            syn::Expr::MethodCall(m) => {
                let Some(base) = self.struct_of(&m.receiver).filter(|b| b != "self") else {
                    return false;
                };
                let Some((_, Type::Path(ty))) = self.types.iter().find(|(b, _)| *b == base) else {
                    return false;
                };
                // The method's struct call, an associated item of the type
                // (`Curve::__autograd_discount__struct_call`).
                let mut path = ty.path.clone();
                if let Some(last) = path.segments.last_mut() {
                    last.arguments = syn::PathArguments::None;
                }
                let call = crate::ir::method_struct_call(&m.method.to_string());
                path.segments.push(syn::PathSegment::from(syn::Ident::new(
                    &call,
                    m.method.span(),
                )));
                let mut args: Vec<syn::Expr> =
                    self.pass_whole(&base, &[], m.receiver.span()).into();
                for a in &m.args {
                    match self.whole(a) {
                        Some((b, path)) => args.extend(self.pass_whole(&b, &path, a.span())),
                        None => {
                            let mut a = a.clone();
                            self.visit_expr_mut(&mut a);
                            args.push(a);
                        }
                    }
                }
                *e = syn::parse_quote_spanned!(m.span()=> #path(#(#args),*));
                true
            }
            _ => false,
        }
    }

    /// Whether `ty` names the type of a struct argument passed on whole
    /// among `args` (`Model` in `Model::g(p, x)` with `p: &Model`).
    fn passes_type<'e>(
        &self,
        ty: &syn::Ident,
        args: impl IntoIterator<Item = &'e syn::Expr>,
    ) -> bool {
        args.into_iter()
            .filter_map(|a| self.whole(a))
            .any(|(base, path)| self.nested_type(&base, &path).is_some_and(|t| *ty == t))
    }

    fn by_value(&self, base: &syn::Ident) -> bool {
        self.structs.iter().any(|(s, v)| s == base && *v)
    }

    /// `p.field` (as a constant argument of type `ty`) if `e` is a field
    /// read of a struct argument.
    fn constant_read(&mut self, e: &syn::Expr, ty: Type, span: Span) -> Option<syn::Expr> {
        let (base, path) = self.chain(e)?;
        let arg = format_ident!("__ad_cast{}", self.casts.len(), span = span);
        self.casts.push(ConstRead {
            arg: arg.clone(),
            base,
            path,
            ty,
            range: false,
        });
        Some(syn::parse_quote!(#arg))
    }

    /// The flat function takes the receiver `base` as a constant, whose
    /// type it names `Self`: an impl block's type, which a method with
    /// the attribute on itself alone does not know (one error, at `base`).
    fn names_self(&mut self, base: &syn::Ident, what: &str) {
        if self.imp.is_none() && base == "self" && !self.self_named {
            self.self_named = true;
            self.cx.error_spanned_by(
                base,
                format!(
                    "a `#[differentiable]` method can {what} only in a `#[differentiable] impl` block: put the attribute on the `impl` block too"
                ),
            );
        }
    }

    /// The flat function's constant reference to the struct argument
    /// `base`, passed once however many of its fields are read through it.
    fn constant_struct(&mut self, base: &syn::Ident) -> syn::Ident {
        self.names_self(
            base,
            "match or compare a constant field of `self` (`match self.kind`)",
        );
        if !self.consts.contains(base) {
            self.consts.push(base.clone());
        }
        const_arg(base)
    }

    /// `p.kind` read as a value of its own type, whatever it is (an enum
    /// matched or compared): the field of the struct passed as a constant.
    fn constant_field(&mut self, e: &syn::Expr) -> Option<syn::Expr> {
        let (base, path) = self.chain(e)?;
        self.const_reads
            .push((base.clone(), path.clone(), e.to_token_stream()));
        let arg = self.constant_struct(&base);
        Some(syn::parse_quote_spanned!(e.span()=> #arg #(.#path)*))
    }

    /// What a call of a flat function taking the struct `a` as a constant
    /// (a reference, or by value if `by_value`) passes: this function's own
    /// constant of it, if it is a struct argument here.
    fn passed_constant(&mut self, a: &syn::Expr, by_value: bool) -> syn::Expr {
        let Some(base) = self.struct_of(a) else {
            return if by_value {
                syn::parse_quote!(::core::clone::Clone::clone(&#a))
            } else {
                syn::parse_quote!(&#a)
            };
        };
        let arg = self.constant_struct(&base);
        // A method call clones through a reference too.
        match (by_value, self.by_value(&base)) {
            (true, _) => syn::parse_quote!(#arg.clone()),
            (false, true) => syn::parse_quote!(&#arg),
            (false, false) => syn::parse_quote!(#arg),
        }
    }

    /// The target of an assignment: a field written there (or an element
    /// of one) is recorded.
    fn visit_target(&mut self, target: &mut syn::Expr) {
        let mut place = strip_parens(target);
        while let syn::Expr::Index(i) = place {
            place = strip_parens(&i.expr);
        }
        if let Some((base, path)) = self.chain(place) {
            self.written.push((base, path, target.to_token_stream()));
        }
        self.visit_expr_mut(target);
    }

    /// A condition: a `bool` field in it is a constant.
    fn visit_condition(&mut self, e: &mut syn::Expr) {
        match e {
            syn::Expr::Paren(p) => self.visit_condition(&mut p.expr),
            syn::Expr::Unary(u) if matches!(u.op, syn::UnOp::Not(_)) => {
                self.visit_condition(&mut u.expr)
            }
            syn::Expr::Binary(b) if matches!(b.op, syn::BinOp::And(_) | syn::BinOp::Or(_)) => {
                self.visit_condition(&mut b.left);
                self.visit_condition(&mut b.right);
            }
            // `if let Kind::A = p.kind`: the field as a constant (unless
            // the pattern binds its value, as `match` below).
            syn::Expr::Let(l) if !binds_value(&l.pat) => match self.constant_field(&l.expr) {
                Some(field) => *l.expr = field,
                None => self.visit_expr_mut(&mut l.expr),
            },
            e => {
                if let Some(arg) = self.constant_read(e, syn::parse_quote!(bool), e.span()) {
                    *e = arg;
                } else {
                    self.visit_expr_mut(e);
                }
            }
        }
    }
}

impl VisitMut for Flatten<'_> {
    /// syn does not look into a macro's tokens, but `vec![p.a, x]`,
    /// `vec![p.w[0]; n]` and `assert!(p.a > 0.0)` read fields too.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        crate::ir::visit_macro_args(mac, &mut |a| self.visit_expr_mut(a));
    }

    fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
        if let Some(imp) = self.imp
            && let Some(call) = imp.flat_call(e, &mut |a, v| self.passed_constant(a, v))
        {
            *e = call;
            syn::visit_mut::visit_expr_mut(self, e);
            return;
        }
        if self.whole_call(e) {
            return;
        }
        // `p.n as T`: an integer field, a constant.
        if let syn::Expr::Cast(c) = e
            && let Some(arg) = self.constant_read(&c.expr, (*c.ty).clone(), c.span())
        {
            *e = arg;
            return;
        }
        match e {
            // `p.a = e`, `p.a += e`, `p.w[i] = e`: the flat argument is
            // written.
            syn::Expr::Assign(syn::ExprAssign { left, right, .. }) => {
                self.visit_expr_mut(right);
                self.visit_target(left);
                return;
            }
            syn::Expr::Binary(syn::ExprBinary {
                left, op, right, ..
            }) if crate::lower::is_compound_assign(op) => {
                self.visit_expr_mut(right);
                self.visit_target(left);
                return;
            }
            // `x[p.k]`: an index, a `usize` constant.
            syn::Expr::Index(i) => {
                if let Some(arg) =
                    self.constant_read(&i.index, syn::parse_quote!(usize), i.index.span())
                {
                    *i.index = arg;
                } else {
                    self.visit_expr_mut(&mut i.index);
                }
                // `p.m[(i, j)]`: a matrix field; `p.w[i]`: a collection
                // field.
                let kind = if matches!(strip_parens(&i.index), syn::Expr::Tuple(_)) {
                    ReadKind::Matrix
                } else {
                    ReadKind::Elements
                };
                match self.read(&i.expr, kind) {
                    Some(arg) => *i.expr = arg,
                    None => self.visit_expr_mut(&mut i.expr),
                }
                return;
            }
            // `p.w.dot(&x)`, `p.m.transpose()`, `p.m.nrows()`: a method
            // of nalgebra values (and not of floats) in the rule table.
            syn::Expr::MethodCall(m) if matrix_method(m) && self.chain(&m.receiver).is_some() => {
                let arg = self.read(&m.receiver, ReadKind::Matrix).expect("a chain");
                *m.receiver = arg;
                for a in &mut m.args {
                    self.visit_expr_mut(a);
                }
                return;
            }
            // `&p.m * &x`: an operand of arithmetic by reference, a
            // nalgebra value (a float field is read without `&`).
            syn::Expr::Binary(b)
                if matches!(
                    b.op,
                    syn::BinOp::Add(_)
                        | syn::BinOp::Sub(_)
                        | syn::BinOp::Mul(_)
                        | syn::BinOp::Div(_)
                ) =>
            {
                for side in [&mut b.left, &mut b.right] {
                    match &mut **side {
                        syn::Expr::Reference(r)
                            if r.mutability.is_none() && self.chain(&r.expr).is_some() =>
                        {
                            let arg = self.read(&r.expr, ReadKind::Matrix).expect("a chain");
                            *r.expr = arg;
                        }
                        side => self.visit_expr_mut(side),
                    }
                }
                return;
            }
            // `p.w.iter()`, `p.w.len()`.
            syn::Expr::MethodCall(m)
                if ELEMENT_METHODS.iter().any(|n| m.method == n)
                    && self.chain(&m.receiver).is_some() =>
            {
                let arg = self.read(&m.receiver, ReadKind::Elements).expect("a chain");
                *m.receiver = arg;
                for a in &mut m.args {
                    self.visit_expr_mut(a);
                }
                return;
            }
            // `&p.w`: the elements, already a reference (a `Vec` of a
            // struct taken by value, borrowed).
            syn::Expr::Reference(r) if r.mutability.is_none() && self.chain(&r.expr).is_some() => {
                let (base, _) = self.chain(&r.expr).expect("a chain");
                let by_value = self.by_value(&base);
                let arg = self.read(&r.expr, ReadKind::Elements).expect("a chain");
                *e = if by_value {
                    syn::parse_quote!(&#arg)
                } else {
                    arg
                };
                return;
            }
            // `0..p.n`: an unsigned integer field bounding a range, a
            // `usize` constant.
            syn::Expr::Range(r) => {
                for bound in [&mut r.start, &mut r.end].into_iter().flatten() {
                    match self.chain(bound) {
                        Some((base, path)) => {
                            let span = bound.span();
                            let arg = format_ident!("__ad_cast{}", self.casts.len(), span = span);
                            self.casts.push(ConstRead {
                                arg: arg.clone(),
                                base,
                                path,
                                ty: syn::parse_quote!(usize),
                                range: true,
                            });
                            **bound = syn::parse_quote!(#arg);
                        }
                        None => self.visit_expr_mut(bound),
                    }
                }
                return;
            }
            // `match p.kind { .. }` whose arms bind no value: the field as a
            // constant of its type. (An arm binding it, `v if v > 0.0`,
            // reads the value, a float: read as one.)
            syn::Expr::Match(m) if !m.arms.iter().any(|a| binds_value(&a.pat)) => {
                match self.constant_field(&m.expr) {
                    Some(field) => *m.expr = field,
                    None => self.visit_expr_mut(&mut m.expr),
                }
                for arm in &mut m.arms {
                    if let syn::Pat::Guard(g) = &mut arm.pat {
                        self.visit_condition(&mut g.guard);
                    }
                    self.visit_expr_mut(&mut arm.body);
                }
                return;
            }
            // `p.kind == Kind::A`: compared with an enum's variant, the
            // field as a constant of its type.
            syn::Expr::Binary(b)
                if matches!(b.op, syn::BinOp::Eq(_) | syn::BinOp::Ne(_))
                    && (variant_like(&b.left) || variant_like(&b.right)) =>
            {
                for side in [&mut b.left, &mut b.right] {
                    match self.constant_field(side) {
                        Some(field) => **side = field,
                        None => self.visit_expr_mut(side),
                    }
                }
                return;
            }
            syn::Expr::If(i) => {
                self.visit_condition(&mut i.cond);
                self.visit_block_mut(&mut i.then_branch);
                if let Some((_, els)) = &mut i.else_branch {
                    self.visit_expr_mut(els);
                }
                return;
            }
            syn::Expr::While(w) => {
                self.visit_condition(&mut w.cond);
                self.visit_block_mut(&mut w.body);
                return;
            }
            _ => {}
        }
        if let Some(arg) = self.read(e, ReadKind::Scalar) {
            *e = arg;
            return;
        }
        if let Some(base) = self.struct_of(e)
            && self.inout.contains(&base)
        {
            self.cx.error_spanned_by(
                &*e,
                format!(
                    "the in-out struct `{base}` is read and written here by its fields only; passing it on whole (to a function or a method) is not supported yet: write the callee's steps in this body, or take `{base}` by shared reference (`&`), pass it on, and return what changes"
                ),
            );
            return;
        }
        if let Some(base) = self.struct_of(e) {
            self.cx.error_spanned_by(
                &*e,
                format!(
                    "a `#[differentiable]` body reads a `Tangent` struct by its fields (`{base}.a`); passing `{base}` on whole is not supported, and methods call each other only within a `#[differentiable] impl` block (put the attribute on the block too)"
                ),
            );
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }
}

/// A function of numbers returning a `Tangent` struct whose fields are
/// all `f64` (`fn make(a: f64) -> Pair`), where the source file declares
/// the struct: the function as written, and, for its callers, the struct
/// call `make::__struct_call`, the same body returning the fields as an
/// array in declaration order, with the hidden items of any
/// `#[differentiable]` function. `None` for every other function.
pub fn expand_struct_result(attr: &TokenStream, func: &syn::ItemFn) -> Option<TokenStream> {
    let syn::ReturnType::Type(_, ty) = &func.sig.output else {
        return None;
    };
    let Some((Type::Path(p), false)) = struct_type(ty, &func.sig.generics) else {
        return None;
    };
    let fields: Vec<syn::Ident> =
        crate::unannotated::f64_tangent_fields(&p.path.segments.last()?.ident)?
            .iter()
            .map(|f| syn::Ident::new(f, Span::call_site()))
            .collect();
    let cx = Ctxt::default();
    let options = crate::attr::parse(&cx, attr.clone());
    if let Some(key) = &options.hessian {
        cx.error_spanned_by(
            key,
            "`hessian` of a function returning a struct is not supported yet; write `#[differentiable]` (or with `jvp`), or return the fields as an array and use `hessian` on that function",
        );
    }
    if !matches!(options.mode, crate::attr::Mode::Generated) {
        cx.error_spanned_by(
            attr,
            "`implicit` and `backward` are not supported on a function returning a struct",
        );
    }
    // The struct is the body's value: its fields, read where it is built.
    let mut block = (*func.block).clone();
    match block.stmts.pop() {
        Some(syn::Stmt::Expr(tail, None)) => {
            let result = match strip_parens(&tail) {
                syn::Expr::Path(p) if p.path.get_ident().is_some() => tail.clone(),
                _ => {
                    // One identifier, bound and read: the two resolve to
                    // the same variable whatever the spans' hygiene.
                    let result = syn::Ident::new("__ad_result", tail.span());
                    block
                        .stmts
                        .push(syn::parse_quote_spanned!(tail.span()=> let #result = #tail;));
                    syn::parse_quote!(#result)
                }
            };
            block
                .stmts
                .push(syn::Stmt::Expr(syn::parse_quote!([#(#result.#fields),*]), None));
        }
        _ => cx.error_spanned_by(
            &func.sig.output,
            "a function returning a struct ends with the struct as its value (`Pair { u, v }` or a local holding it)",
        ),
    }
    struct Returns<'a>(&'a Ctxt);
    impl<'ast> syn::visit::Visit<'ast> for Returns<'_> {
        fn visit_expr_return(&mut self, r: &'ast syn::ExprReturn) {
            self.0.error_spanned_by(
                r,
                "a function returning a struct returns it as its last expression, not by `return`",
            );
        }
        fn visit_expr_closure(&mut self, _: &'ast syn::ExprClosure) {}
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    syn::visit::Visit::visit_block(&mut Returns(&cx), &block);
    let mut user = func.clone();
    for arg in &mut user.sig.inputs {
        if let FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| !sig::is_constant_attr(a));
        }
    }
    let mut out = user.to_token_stream();
    if let Err(e) = cx.check() {
        out.extend(e.to_compile_error());
        return Some(out);
    }
    let n = proc_macro2::Literal::usize_unsuffixed(fields.len());
    let call_name = syn::Ident::new(names::STRUCT_CALL, Span::call_site());
    let inputs = &func.sig.inputs;
    let hidden: syn::ItemFn = syn::parse_quote! {
        #[doc(hidden)]
        pub fn #call_name(#inputs) -> [f64; #n] #block
    };
    let expanded = crate::expand::expand(attr.clone(), hidden.to_token_stream());
    let items = struct_call_items(expanded, Vec::new())
        .into_iter()
        .map(associated);
    let (name, vis) = (&func.sig.ident, &func.vis);
    out.extend(quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #name {}
        #[doc(hidden)]
        impl #name {
            #(#items)*
        }
    });
    // Its callers' forward sweeps find it as a struct call's (see
    // `jvp_of`).
    if matches!(options.jvp, crate::attr::Jvp::On) {
        let scratch = Ctxt::default();
        let parsed = sig::parse(&scratch, &hidden.sig, false);
        let _ = scratch.check();
        let no_gradient = quote!(::autograd::__private::NoGradient);
        let tangent_tys: Vec<TokenStream> = parsed
            .map(|s| {
                s.params
                    .iter()
                    .map(|p| {
                        crate::emit::tangent::tangent_ty(p).unwrap_or_else(|| no_gradient.clone())
                    })
                    .collect()
            })
            .unwrap_or_default();
        let input_tys = hidden.sig.inputs.iter().filter_map(|a| match a {
            FnArg::Typed(pt) => Some(&pt.ty),
            FnArg::Receiver(_) => None,
        });
        let input_tys: Vec<&Box<Type>> = input_tys.collect();
        let jvp_full =
            syn::Ident::new(&names::struct_call_item(names::JVP_FULL), Span::call_site());
        out.extend(quote! {
            #[doc(hidden)]
            #[diagnostic::do_not_recommend]
            #[allow(clippy::type_complexity)]
            impl ::autograd::__private::ForwardMode<::autograd::__private::StructCall> for #name {
                type Fn = fn(#(#input_tys,)* #(#tangent_tys),*) -> ([f64; #n], [f64; #n]);
                const JVP: Self::Fn = #name::#jvp_full;
                // A caller's K-lane sweep does not go through a struct call.
                type Lanes = ::autograd::__private::NoLanes;
                const JVP_LANES: ::autograd::__private::NoLanes = ::autograd::__private::NoLanes;
            }
        });
    }
    Some(out)
}

/// `let p = make(a);` of a function returning a `Tangent` struct of `f64`
/// fields (see [`expand_struct_result`]), in a differentiable body: the
/// struct built in the body from the array its struct call returns,
/// `let __ad_p = make::__struct_call(a); let p = Pair { u: __ad_p[0], ..
/// };`, a struct local read by its fields.
/// Returns the calls rewritten.
pub fn rewrite_struct_results(caller: &syn::Ident, block: &mut syn::Block) -> Vec<Span> {
    struct Rewrite<'a>(&'a str, Vec<Span>);
    impl VisitMut for Rewrite<'_> {
        fn visit_block_mut(&mut self, block: &mut syn::Block) {
            syn::visit_mut::visit_block_mut(self, block);
            let mut stmts = Vec::with_capacity(block.stmts.len());
            for stmt in std::mem::take(&mut block.stmts) {
                match self.rewritten(&stmt) {
                    Some(pair) => stmts.extend(pair),
                    None => stmts.push(stmt),
                }
            }
            block.stmts = stmts;
        }
        fn visit_item_mut(&mut self, _: &mut syn::Item) {}
        // Into the expressions that hold statements only: a long sum is a
        // deep tree of binary expressions.
        fn visit_expr_mut(&mut self, e: &mut syn::Expr) {
            if holds_statements(e) {
                syn::visit_mut::visit_expr_mut(self, e);
            }
        }
    }
    impl Rewrite<'_> {
        fn rewritten(&mut self, stmt: &syn::Stmt) -> Option<[syn::Stmt; 2]> {
            let syn::Stmt::Local(l) = stmt else {
                return None;
            };
            let pi = match &l.pat {
                syn::Pat::Ident(pi) => pi,
                syn::Pat::Type(t) => match &*t.pat {
                    syn::Pat::Ident(pi) => pi,
                    _ => return None,
                },
                _ => return None,
            };
            let init = l.init.as_ref().filter(|i| i.diverge.is_none())?;
            let syn::Expr::Call(c) = strip_parens(&init.expr) else {
                return None;
            };
            let syn::Expr::Path(func) = &*c.func else {
                return None;
            };
            if func.qself.is_some() {
                return None;
            }
            let (ty, fields) = crate::unannotated::struct_result(self.0, &func.path)?;
            let span = c.span();
            self.1.push(span);
            let array = format_ident!("__ad_{}_fields", pi.ident, span = span);
            let ty = syn::Ident::new(&ty, span);
            let fields: Vec<syn::Ident> = fields.iter().map(|f| syn::Ident::new(f, span)).collect();
            let index = (0..fields.len()).map(proc_macro2::Literal::usize_unsuffixed);
            let mut path = func.path.clone();
            path.segments
                .push(syn::PathSegment::from(struct_call_ident(span)));
            let args = &c.args;
            let (attrs, pat) = (&l.attrs, &l.pat);
            Some([
                syn::parse_quote_spanned!(span=> let #array = #path(#args);),
                syn::parse_quote_spanned!(span=> #(#attrs)* let #pat = #ty { #(#fields: #array[#index]),* };),
            ])
        }
    }
    if !proc_macro::is_available() {
        return Vec::new();
    }
    let mut rewrite = Rewrite(&caller.to_string(), Vec::new());
    rewrite.visit_block_mut(block);
    rewrite.1
}

/// Whether [`rewrite_struct_results`] would rewrite a call in `block`
/// (read without copying it: a long sum is a deep tree).
pub fn has_struct_results(caller: &syn::Ident, block: &syn::Block) -> bool {
    use syn::visit::Visit;
    struct Find<'a>(&'a str, bool);
    impl<'ast> Visit<'ast> for Find<'_> {
        fn visit_local(&mut self, l: &'ast syn::Local) {
            if let Some(init) = &l.init
                && let syn::Expr::Call(c) = strip_parens(&init.expr)
                && let syn::Expr::Path(func) = &*c.func
                && crate::unannotated::struct_result(self.0, &func.path).is_some()
            {
                self.1 = true;
            }
            syn::visit::visit_local(self, l);
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            if holds_statements(e) {
                syn::visit::visit_expr(self, e);
            }
        }
    }
    if !proc_macro::is_available() {
        return false;
    }
    let mut find = Find(&caller.to_string(), false);
    find.visit_block(block);
    find.1
}

/// The error at a call of a function returning a struct from a function
/// with `hessian`.
pub const HESSIAN_OF_STRUCT_RESULT: &str = "a function with `hessian` does not call a function returning a struct yet; have the function return the fields as an array (`-> [f64; 2]`) and read it by index, or write the attribute without `hessian`";

/// A hidden function as an associated function of the type named like the
/// user's function, its `Self` paths made to name that type.
fn associated(f: syn::ItemFn) -> syn::ImplItemFn {
    let mut f = syn::ImplItemFn {
        attrs: f.attrs,
        vis: f.vis,
        modifiers: f.modifiers,
        sig: f.sig,
        block: *f.block,
    };
    SelfPaths(None).visit_impl_item_fn_mut(&mut f);
    f
}

/// Whether an expression may hold statements (a block, a branch, a loop,
/// a closure): the only ones a walk for calls goes into, as a long sum is
/// a deep tree of binary expressions.
fn holds_statements(e: &syn::Expr) -> bool {
    matches!(
        e,
        syn::Expr::Block(_)
            | syn::Expr::If(_)
            | syn::Expr::ForLoop(_)
            | syn::Expr::While(_)
            | syn::Expr::Loop(_)
            | syn::Expr::Match(_)
            | syn::Expr::Unsafe(_)
            | syn::Expr::Closure(_)
    )
}

/// The expansion of a function with a `Tangent` struct argument or a
/// receiver, or of any function `in_impl` (an associated function with
/// the attribute on itself alone), or `None` for every other function.
pub fn expand(attr: &TokenStream, func: &syn::ItemFn, in_impl: bool) -> Option<TokenStream> {
    let args = if in_impl {
        all_args(func)?
    } else {
        args(func)?
    };
    let e = expand_with(attr, func, args, None, in_impl);
    let mut out = e.user;
    out.extend(e.wrappers);
    Some(out)
}

/// What a function of a `#[differentiable] impl` block expands to.
struct Expansion {
    /// The function as written.
    user: TokenStream,
    /// `_vjp`, `_grad`, `_grad_acc`, `_check`.
    wrappers: TokenStream,
    /// In an impl block: the flat function's module, a free item.
    module: TokenStream,
    /// What its callers in the same impl block need.
    callee: Callee,
}

fn expand_with(
    attr: &TokenStream,
    func: &syn::ItemFn,
    args: Vec<Arg>,
    imp: Option<&ImplCx>,
    in_impl: bool,
) -> Expansion {
    let cx = Ctxt::default();
    let is_method = in_impl || imp.is_some() || args.iter().any(|a| a.ident == "self");
    for input in &func.sig.inputs {
        if let FnArg::Receiver(r) = input
            && (r.mutability.is_some()
                || !matches!(
                    r.kind,
                    syn::ReceiverKind::Value | syn::ReceiverKind::Reference(_, _, _)
                ))
        {
            cx.error_spanned_by(
                r,
                "a `#[differentiable]` method takes `&self`, `&mut self` or `self`",
            );
        }
    }
    let options = crate::attr::parse(&cx, attr.clone());
    if !matches!(options.mode, crate::attr::Mode::Generated) {
        cx.error_spanned_by(
            attr,
            "`implicit` and `backward` are not supported on a function taking a `Tangent` struct or in an `impl` block: write `#[differentiable]`, with `jvp` or `hessian` if wanted",
        );
    }
    let jvp = matches!(options.jvp, crate::attr::Jvp::On);
    let hessian = options.hessian.is_some();
    if !func.sig.generics.params.is_empty() {
        cx.error_spanned_by(
            &func.sig.generics,
            if is_method {
                "a `#[differentiable]` function of an `impl` block cannot be generic yet (over its scalar or a length); write the generic code as a free `#[differentiable]` function and call it from this one"
            } else {
                "a `#[differentiable]` function taking a `Tangent` struct cannot be generic yet (over its scalar or a length); write the generic code as a free `#[differentiable]` function of the struct's fields and call it from this one"
            },
        );
    }
    // Its callers reach it through a type named like it, which would
    // shadow the primitive type in the whole module.
    if !is_method && names::has_no_carrier(&func.sig.ident) {
        cx.error_spanned_by(
            &func.sig.ident,
            format!(
                "a `#[differentiable]` function taking a `Tangent` struct cannot be named like the primitive type `{}`: rename it",
                func.sig.ident
            ),
        );
    }
    // A float, or several (`Vec<f64>`, `[f64; N]`, a tuple of floats, a
    // vector): `_vjp` and `_jacobian`; or `()` beside an in-out argument:
    // `_vjp`.
    let takes_mut = func.sig.inputs.iter().any(|input| {
        matches!(input, FnArg::Typed(pt) if matches!(&*pt.ty, Type::Reference(r) if r.mutability.is_some()))
    });
    let (ret, several) = match &func.sig.output {
        syn::ReturnType::Type(_, ty) if matches!(&**ty, Type::Path(p) if p.path.is_ident("f64") || p.path.is_ident("f32")) => {
            ((**ty).clone(), false)
        }
        syn::ReturnType::Type(_, ty) if sig::outputs(ty) => ((**ty).clone(), true),
        syn::ReturnType::Type(_, ty)
            if matches!(struct_type(ty, &func.sig.generics), Some((_, false))) =>
        {
            cx.error_spanned_by(ty, sig::struct_return_message(ty));
            (syn::parse_quote!(f64), false)
        }
        // The final values of the in-out arguments are the outputs.
        syn::ReturnType::Default if takes_mut => (syn::parse_quote!(()), false),
        syn::ReturnType::Type(_, ty)
            if takes_mut && matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()) =>
        {
            (syn::parse_quote!(()), false)
        }
        output => {
            cx.error_spanned_by(
                output,
                "a `#[differentiable]` function taking a `Tangent` struct, or in a `#[differentiable] impl` block, returns `f64`, `f32` or several floats (`Vec<f64>`, `[f64; N]`, a tuple of floats, `DVector<f64>`)",
            );
            (syn::parse_quote!(f64), false)
        }
    };

    let unit = matches!(&ret, Type::Tuple(t) if t.elems.is_empty());
    let is_f32 = ret
        .to_token_stream()
        .into_iter()
        .any(|t| matches!(&t, proc_macro2::TokenTree::Ident(i) if i == "f32"));
    // A struct's Hessian is over its fields flattened as `f64`s.
    if let Some(key) = &options.hessian {
        if several {
            cx.error_spanned_by(
                key,
                "`hessian` needs a function returning one number (`f64`); for several outputs use `jvp` or `_jacobian`",
            );
        } else if is_f32 {
            cx.error_spanned_by(
                key,
                "`hessian` of a function taking a `Tangent` struct is over its fields as `f64`s: write the function and its float fields in `f64`",
            );
        }
    }
    let mut flatten = Flatten {
        f32: is_f32,
        hessian,
        written: Vec::new(),
        inout: args
            .iter()
            .filter(|a| a.inout)
            .map(|a| a.ident.clone())
            .collect(),
        caller: func.sig.ident.to_string(),
        unannotated: Vec::new(),
        cx: &cx,
        imp,
        structs: args
            .iter()
            .filter_map(|a| match a.kind {
                ArgKind::Struct { by_ref, .. } => Some((a.ident.clone(), !by_ref)),
                ArgKind::Other { .. } => None,
            })
            .collect(),
        reads: Vec::new(),
        casts: Vec::new(),
        consts: Vec::new(),
        const_reads: Vec::new(),
        self_named: false,
        wholes: Vec::new(),
        types: args
            .iter()
            .filter_map(|a| match &a.kind {
                ArgKind::Struct { ty, .. } => Some((a.ident.clone(), (**ty).clone())),
                ArgKind::Other { .. } => None,
            })
            .collect(),
    };
    let mut body = (*func.block).clone();
    for call in rewrite_struct_results(&func.sig.ident, &mut body) {
        if hessian {
            cx.error_at(call, HESSIAN_OF_STRUCT_RESULT);
        }
    }
    copy_into_literals(&mut body, &flatten.types);
    flatten.visit_block_mut(&mut body);
    let (reads, casts, wholes) = (flatten.reads, flatten.casts, flatten.wholes);
    let consts = flatten.consts;
    // A field read as a constant is the value the caller passed.
    for (base, path, at) in &flatten.const_reads {
        let overlaps = |(b, p): (&syn::Ident, &Vec<syn::Ident>)| {
            b == base && (p.starts_with(path) || path.starts_with(p))
        };
        if flatten.written.iter().any(|(b, p, _)| overlaps((b, p))) {
            let field = path
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(".");
            cx.error_spanned_by(
                at,
                format!(
                    "`{base}.{field}` is matched or compared here as a constant, and the body writes it, which this reading would not see; copy the field into a local variable first (`let v = {base}.{field};`) and match that"
                ),
            );
        }
    }
    // A struct passed on whole goes as the caller received it, so its
    // fields are not written.
    for (base, _, at) in &flatten.written {
        if wholes.iter().any(|(b, _)| b == base) {
            cx.error_spanned_by(
                at,
                format!(
                    "a field of `{base}` is written here, and `{base}` is passed on whole to another function, which would see the value it had on entry; pass the fields instead, or copy the field into a local variable and write that"
                ),
            );
        }
    }
    // A field written and read in two forms (`p.w[0] = e` then
    // `p.w.norm()`) would be two flat arguments, and the second would not
    // see the write.
    for (base, path, at) in &flatten.written {
        let mut kinds = reads
            .iter()
            .filter(|r| r.base == *base && r.path == *path)
            .map(|r| r.kind);
        let first = kinds.next();
        if kinds.any(|k| Some(k) != first) {
            let field = path
                .iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join(".");
            cx.error_spanned_by(
                at,
                format!(
                    "`{base}.{field}` is written here and read both by element and as a nalgebra value; a written field is read one way (by index or iterator, or as a matrix), or copy it into a local first"
                ),
            );
        }
    }
    // An in-out struct's fields are in-out arguments of the flat function,
    // each a float or a slice of floats.
    for a in args.iter().filter(|a| a.inout) {
        let x = &a.ident;
        let whole = wholes.iter().any(|(b, _)| b == x);
        let matrix = reads
            .iter()
            .any(|r| r.base == *x && r.kind == ReadKind::Matrix);
        let constant = consts.contains(x);
        if whole || matrix || constant {
            let what = match (whole, matrix) {
                (true, _) => "passed on whole to another function",
                (_, true) => "a nalgebra field read as a matrix or vector",
                _ => "a field matched or compared as a constant",
            };
            cx.error_spanned_by(
                x,
                format!(
                    "the in-out struct `{x}` is read here through {what}, which is not differentiated yet; read its float fields and its collection fields by index (`{x}.v[i]`), or take `{x}` by shared reference (`&`) and return what changes"
                ),
            );
        }
    }
    let written = |r: &Read| {
        flatten
            .written
            .iter()
            .any(|(base, path, _)| *base == r.base && *path == r.path)
    };

    // The flat function: one `f64` per float field read and one `&[f64]`
    // per collection field read, then the other arguments as written.
    let name = &func.sig.ident;
    let by_value = |base: &syn::Ident| {
        args.iter()
            .any(|a| a.ident == *base && matches!(a.kind, ArgKind::Struct { by_ref: false, .. }))
    };
    // A float field is read as the function's float: `f32` fields in a
    // function returning `f32`.
    let float = if is_f32 { quote!(f32) } else { quote!(f64) };
    // The `Tangent` trait's adjoints and checks are `f64`.
    let widen = |e: TokenStream| {
        if is_f32 {
            quote!(::autograd::__private::to_f64(#e))
        } else {
            e
        }
    };
    let inout_base = |b: &syn::Ident| args.iter().any(|a| a.inout && a.ident == *b);
    let field_inputs = reads.iter().map(|r| {
        let a = r.arg();
        if inout_base(&r.base) {
            return match r.kind {
                ReadKind::Scalar => quote!(#a: &mut #float),
                _ => quote!(#a: &mut [f64]),
            };
        }
        let a = if written(r) {
            quote!(mut #a)
        } else {
            quote!(#a)
        };
        match r.kind {
            ReadKind::Scalar => quote!(#a: #float),
            ReadKind::Elements if by_value(&r.base) => quote!(#a: ::std::vec::Vec<f64>),
            ReadKind::Elements => quote!(#a: &[f64]),
            ReadKind::Matrix => quote!(#a: ::autograd::nalgebra::DMatrix<f64>),
        }
    });
    let cast_inputs = casts.iter().map(|c| {
        let (a, ty) = (&c.arg, &c.ty);
        quote!(#[constant] #a: #ty)
    });
    let struct_ty = |base: &syn::Ident| -> Type {
        args.iter()
            .find_map(|a| match &a.kind {
                ArgKind::Struct { ty, .. } if a.ident == *base => Some((**ty).clone()),
                _ => None,
            })
            .expect("a struct argument")
    };
    let whole_inputs: Vec<TokenStream> = wholes
        .iter()
        .map(|(b, path)| {
            let (whole, flat) = whole_args(b, path);
            let ty = struct_ty(b);
            let by_ref = (!by_value(b)).then(|| quote!(&));
            quote!(#[constant] #whole: #by_ref #ty, #flat: ::std::vec::Vec<f64>)
        })
        .collect();
    let const_inputs: Vec<TokenStream> = consts
        .iter()
        .map(|b| {
            let (arg, ty) = (const_arg(b), struct_ty(b));
            let by_ref = (!by_value(b)).then(|| quote!(&));
            quote!(#[constant] #arg: #by_ref #ty)
        })
        .collect();
    let other_inputs: Vec<TokenStream> = func
        .sig
        .inputs
        .iter()
        .zip(&args)
        .filter(|(_, a)| matches!(a.kind, ArgKind::Other { .. }))
        .map(|(input, _)| input.to_token_stream())
        .collect();
    // `pub(super)`: visible where the function is, and no more visible
    // than a private struct it may take whole (E0446 on its forward mode).
    let flat: syn::ItemFn = syn::parse_quote! {
        pub(super) fn #name(#(#field_inputs,)* #(#cast_inputs,)* #(#const_inputs,)* #(#whole_inputs,)* #(#other_inputs),*) -> #ret #body
    };
    let flat_sig = {
        let scratch = Ctxt::default();
        let parsed = sig::parse(&scratch, &flat.sig, false);
        let _ = scratch.check();
        parsed
    };
    let others: Vec<Option<sig::Param>> = match &flat_sig {
        Some(s) => {
            let mut params = s
                .params
                .iter()
                .skip(reads.len() + casts.len() + consts.len() + 2 * wholes.len());
            args.iter()
                .map(|a| match a.kind {
                    ArgKind::Other { .. } => params.next().cloned(),
                    ArgKind::Struct { .. } => None,
                })
                .collect()
        }
        None => args.iter().map(|_| None).collect(),
    };
    // The in-out arguments (`&mut [f64]`, ...), each the flat function's
    // own: its pullback takes a seed for each final value.
    let inout: Vec<Option<&sig::Param>> = others
        .iter()
        .map(|p| p.as_ref().filter(|p| p.inout))
        .collect();
    let in_out = inout.iter().any(Option::is_some) || args.iter().any(|a| a.inout);
    let first_inout = func
        .sig
        .inputs
        .iter()
        .zip(&inout)
        .zip(&args)
        .find(|((_, p), a)| p.is_some() || a.inout)
        .map(|((input, _), _)| input);
    if let Some(at) = first_inout {
        if jvp || hessian {
            cx.error_spanned_by(
                at,
                "`jvp` and `hessian` are not generated yet for a function taking a `Tangent` struct, or in an `impl` block, with an in-out (`&mut`) argument; write `#[differentiable]` without them, or a free function of the struct's fields (`fn step(y: &mut [f64], k: f64)`)",
            );
        } else if several {
            cx.error_spanned_by(
                at,
                "a function taking a `Tangent` struct, or in an `impl` block, with an in-out (`&mut`) argument returns one float yet; return `f64` (the in-out argument's final value is an output too), or write a free function of the struct's fields",
            );
        }
    }
    // The flat function sits in a module below the user's: a path relative
    // to the user's module is one `super` longer. A module cannot name
    // `Self`: the impl's type stands for it, in the function as written
    // (the expansion's own items name theirs by `Self`, which must stay
    // theirs).
    let mut relocated = flat.clone();
    Relocate.visit_item_fn_mut(&mut relocated);
    let module_ty = imp.map(|imp| relocate_type(&imp.self_ty));
    let flat_tokens = match &module_ty {
        Some(ty) => replace_self_tokens(relocated.to_token_stream(), ty),
        None => relocated.to_token_stream(),
    };
    let flat_items = crate::expand::expand(attr.clone(), flat_tokens);
    let callee = Callee {
        params: args
            .iter()
            .map(|a| (a.ident.clone(), matches!(a.kind, ArgKind::Struct { .. })))
            .collect(),
        reads: reads.clone(),
        casts: casts.clone(),
        consts: consts.clone(),
        by_value: args
            .iter()
            .filter(|a| matches!(a.kind, ArgKind::Struct { by_ref: false, .. }))
            .map(|a| a.ident.clone())
            .collect(),
        module: imp.map(|i| i.module(&func.sig.ident)),
        name: func.sig.ident.clone(),
    };

    // The user's function as written.
    let mut user = func.clone();
    for arg in &mut user.sig.inputs {
        if let FnArg::Typed(pt) = arg {
            pt.attrs.retain(|a| !sig::is_constant_attr(a));
        }
    }
    let user_tokens = user.to_token_stream();
    if let Err(e) = cx.check() {
        return Expansion {
            user: user_tokens,
            wrappers: e.to_compile_error(),
            module: TokenStream::new(),
            callee,
        };
    }
    let mut out = TokenStream::new();
    // The flat function's items: free items next to the impl block, or a
    // module inside the VJP wrapper of a free function.
    // A trait impl's functions have no visibility of their own; their
    // generated items are as visible as the trait's methods are.
    let trait_vis: syn::Visibility = syn::parse_quote!(pub);
    let vis = match imp.and_then(|i| i.trait_.as_ref()) {
        Some(_) => &trait_vis,
        None => &func.vis,
    };
    let module_of = |extra: TokenStream| match &callee.module {
        Some(m) => quote! {
            #[doc(hidden)]
            #[allow(dead_code, unused_imports, non_snake_case, clippy::all)]
            #vis mod #m {
                use super::*;
                #flat_items
                #extra
            }
        },
        None => TokenStream::new(),
    };
    // A free function with options reaches its flat function from several
    // wrappers: a module next to them rather than a copy in each.
    let sibling = (jvp || hessian) && !is_method;
    let (nested, flat_path) = match &callee.module {
        Some(m) => (TokenStream::new(), quote!(#m)),
        None if sibling => {
            let m = format_ident!("__autograd_flat_{}", name);
            out.extend(quote! {
                #[doc(hidden)]
                #[allow(dead_code, unused_imports, non_snake_case, clippy::all)]
                mod #m {
                    use super::*;
                    #flat_items
                }
            });
            (TokenStream::new(), quote!(#m))
        }
        None => (
            quote! {
                #[allow(dead_code, unused_imports, non_snake_case, clippy::all)]
                mod __ad_flat {
                    use super::*;
                    #flat_items
                }
            },
            quote!(__ad_flat),
        ),
    };

    let mut module = module_of(TokenStream::new());
    let mixed = Span::mixed_site();
    // The wrappers only read their arguments: a `mut` is the body's.
    let mut wrapper_inputs = user.sig.inputs.clone();
    for arg in &mut wrapper_inputs {
        if let FnArg::Typed(pt) = arg
            && let syn::Pat::Ident(pi) = &mut *pt.pat
        {
            pi.mutability = None;
        }
    }
    let inputs: Vec<&FnArg> = wrapper_inputs.iter().collect();
    let wrapper_args: Vec<FnArg> = wrapper_inputs.iter().cloned().collect();
    // Each in-out argument's seed type: a struct's is the struct.
    let inout_tys: Vec<Option<TokenStream>> = args
        .iter()
        .zip(&inout)
        .map(|(a, p)| match (&a.kind, p) {
            (ArgKind::Struct { ty, .. }, _) if a.inout => Some(ty.to_token_stream()),
            (_, Some(p)) => Some(p.adjoint_ty().unwrap_or_else(|| quote!(()))),
            _ => None,
        })
        .collect();
    let io = in_out.then(|| crate::emit::inout::StructInOut::new(func, &wrapper_args, &inout_tys));
    let (seed_names, seed_tys): (Vec<syn::Ident>, Vec<TokenStream>) =
        io.iter().flat_map(|io| io.seeds.iter().cloned()).unzip();
    let callee_path = |suffix: &str| {
        let n = if suffix.is_empty() {
            name.clone()
        } else {
            format_ident!("{}_{}", name, suffix)
        };
        if let (true, Some(trait_)) = (suffix.is_empty(), imp.and_then(|i| i.trait_.as_ref())) {
            quote!(<Self as #trait_>::#n)
        } else if is_method {
            quote!(Self::#n)
        } else {
            quote!(#n)
        }
    };
    let names: Vec<&syn::Ident> = args.iter().map(|a| &a.ident).collect();

    // The adjoint slots: a struct's is its own type; another argument's
    // the flat function's, if it is differentiable.
    let slot_tys: Vec<Option<TokenStream>> = args
        .iter()
        .zip(&others)
        .map(|(a, other)| match &a.kind {
            ArgKind::Struct { ty, .. } => Some(ty.to_token_stream()),
            ArgKind::Other { .. } => other.as_ref().and_then(|p| p.adjoint_ty()),
        })
        .collect();
    let slots: Vec<syn::Ident> = (0..slot_tys.len())
        .map(|i| format_ident!("__ad_slot{}", i, span = mixed))
        .collect();
    let kept_slots: Vec<&syn::Ident> = slots
        .iter()
        .zip(&slot_tys)
        .filter(|(_, t)| t.is_some())
        .map(|(s, _)| s)
        .collect();
    let kept_tys: Vec<&TokenStream> = slot_tys.iter().flatten().collect();

    // `_vjp`: the flat VJP at the fields' values, each struct's adjoint
    // assembled from its zero and the adjoints of the fields read.
    let flat_vjp = format_ident!("{}_vjp", name);
    let field_values = reads.iter().map(|r| {
        let (b, path) = (&r.base, &r.path);
        let span = path.last().map_or(b.span(), |f| f.span());
        if inout_base(b) {
            return match r.kind {
                ReadKind::Scalar => quote_spanned!(span=>
                    ::autograd::__private::float_field_mut::<#float, _>(&mut #b #(.#path)*)
                ),
                _ => quote_spanned!(span=>
                    ::autograd::__private::collection_field_mut(&mut #b #(.#path)*)
                ),
            };
        }
        match r.kind {
            ReadKind::Scalar => {
                quote_spanned!(span=> ::autograd::__private::float_field::<#float, _>(#b #(.#path)*))
            }
            ReadKind::Elements if by_value(b) => quote_spanned!(span=>
                ::autograd::__private::collection_field(&#b #(.#path)*).to_vec()
            ),
            ReadKind::Elements => {
                quote_spanned!(span=> ::autograd::__private::collection_field(&#b #(.#path)*))
            }
            ReadKind::Matrix => {
                quote_spanned!(span=> ::autograd::__private::matrix_field(&#b #(.#path)*))
            }
        }
    });
    let cast_values = casts.iter().map(|c| {
        let (b, path, ty) = (&c.base, &c.path, &c.ty);
        let span = path.last().map_or(b.span(), |f| f.span());
        if c.range {
            quote_spanned!(span=> ::autograd::__private::range_field(#b #(.#path)*))
        } else {
            quote_spanned!(span=> ::autograd::__private::int_field(#b #(.#path)*) as #ty)
        }
    });
    let other_values = args
        .iter()
        .filter(|a| matches!(a.kind, ArgKind::Other { .. }))
        .map(|a| &a.ident);
    let field_values: Vec<TokenStream> = field_values.collect();
    // The constant structs go with the constant fields, as the flat
    // function takes them.
    let const_values = consts.iter().map(|b| {
        if by_value(b) {
            quote_spanned!(mixed=> ::core::clone::Clone::clone(&#b))
        } else {
            quote!(#b)
        }
    });
    let cast_values: Vec<TokenStream> = cast_values.chain(const_values).collect();
    let other_values: Vec<&syn::Ident> = other_values.collect();
    // An in-out struct's constants on entry, which its adjoint keeps.
    let entry_constants = |x: &syn::Ident| format_ident!("__ad_constants_{}", x, span = mixed);
    let zeros = args.iter().zip(&slots).filter_map(|(a, slot)| match &a.kind {
        ArgKind::Struct { ty, by_ref } => {
            let x = &a.ident;
            let at = if *by_ref { quote!(#x) } else { quote!(&#x) };
            let constants = a.inout.then(|| {
                let c = entry_constants(x);
                quote_spanned!(mixed=> let #c = <#ty as ::autograd::TangentStruct>::zero_adjoint(#at);)
            });
            Some(quote_spanned!(mixed=>
                let mut #slot = <#ty as ::autograd::TangentStruct>::zero_adjoint(#at);
                #constants
            ))
        }
        ArgKind::Other { .. } => None,
    });
    // An in-out struct's adjoint starts as the seed of its final value:
    // a field the body neither reads nor writes keeps it; each field it
    // reads is the flat function's in-out argument, whose seed is taken
    // out of it (`__ad_fseed0`) and whose adjoint on entry is added back.
    let mut flat_seeds: Vec<TokenStream> = Vec::new();
    let mut seed_structs: Vec<TokenStream> = Vec::new();
    {
        let mut seeds = seed_names.iter();
        for ((a, slot), p) in args.iter().zip(&slots).zip(&inout) {
            if !a.inout && p.is_none() {
                continue;
            }
            let Some(seed) = seeds.next() else { break };
            let ArgKind::Struct { ty, .. } = &a.kind else {
                continue;
            };
            seed_structs.push(quote_spanned!(mixed=>
                <#ty as ::autograd::TangentStruct>::__zero_constants(&mut #slot);
                <#ty as ::autograd::TangentStruct>::add_adjoint(&mut #slot, &#seed);
            ));
            for (k, r) in reads.iter().enumerate().filter(|(_, r)| r.base == a.ident) {
                let fseed = format_ident!("__ad_fseed{}", k, span = mixed);
                let path = &r.path;
                seed_structs.push(match r.kind {
                    ReadKind::Scalar => quote_spanned!(mixed=>
                        let #fseed = ::autograd::__private::float_field::<#float, _>(#slot #(.#path)*);
                        ::autograd::__private::add_float_field::<#float, _>(&mut #slot #(.#path)*, -#fseed);
                    ),
                    _ => quote_spanned!(mixed=>
                        let #fseed = ::autograd::__private::collection_field(&#slot #(.#path)*).to_vec();
                        ::autograd::__private::collection_field_mut(&mut #slot #(.#path)*).fill(0.0);
                    ),
                });
                flat_seeds.push(fseed.to_token_stream());
            }
        }
        // The other in-out arguments' seeds follow the fields', as the flat
        // function's arguments do.
        let mut seeds = seed_names.iter();
        for (a, p) in args.iter().zip(&inout) {
            if !a.inout && p.is_none() {
                continue;
            }
            let Some(seed) = seeds.next() else { break };
            if p.is_some() {
                flat_seeds.push(seed.to_token_stream());
            }
        }
    }
    let whole_values: Vec<TokenStream> = wholes
        .iter()
        .map(|(b, path)| {
            let whole = if by_value(b) {
                quote_spanned!(mixed=> ::core::clone::Clone::clone(&#b))
            } else {
                quote!(#b)
            };
            // A nested struct, whose type the macro cannot name: through a
            // function generic in it.
            if !path.is_empty() {
                return quote_spanned!(mixed=> #whole, ::autograd::__private::flatten_struct(&#b #(.#path)*));
            }
            let at = if by_value(b) { quote!(&#b) } else { quote!(#b) };
            let ty = struct_ty(b);
            quote_spanned!(mixed=> #whole, {
                let mut __ad_row = ::autograd::__private::Vec::new();
                <#ty as ::autograd::TangentStruct>::__flatten_into(#at, &mut __ad_row);
                __ad_row
            })
        })
        .collect();
    let whole_grads: Vec<syn::Ident> = (0..wholes.len())
        .map(|i| format_ident!("__ad_whole{}", i, span = mixed))
        .collect();
    let whole_adds: Vec<TokenStream> = wholes
        .iter()
        .zip(&whole_grads)
        .map(|((b, path), g)| {
            let i = args
                .iter()
                .position(|a| a.ident == *b)
                .expect("a struct argument");
            let slot = &slots[i];
            if !path.is_empty() {
                return quote_spanned!(mixed=> ::autograd::__private::add_flat_struct(&mut #slot #(.#path)*, &#g););
            }
            let ty = struct_ty(b);
            quote_spanned!(mixed=> <#ty as ::autograd::TangentStruct>::__add_flat(&mut #slot, &mut &#g[..]);)
        })
        .collect();
    let flat_grads: Vec<syn::Ident> = (0..reads.len())
        .map(|i| format_ident!("__ad_field{}", i, span = mixed))
        .collect();
    let other_grads: Vec<TokenStream> = args
        .iter()
        .zip(&slots)
        .zip(&slot_tys)
        .filter(|((a, _), _)| matches!(a.kind, ArgKind::Other { .. }))
        .filter(|(_, t)| t.is_some())
        .map(|((_, s), _)| s.to_token_stream())
        .collect();
    let adds = reads.iter().zip(&flat_grads).map(|(r, g)| {
        let i = args
            .iter()
            .position(|a| a.ident == r.base)
            .expect("a struct argument");
        let slot = &slots[i];
        // Into the field itself, by its path: typed, spanned on the user's
        // field names.
        let path = &r.path;
        let span = path.last().map_or(r.base.span(), |f| f.span());
        match r.kind {
            ReadKind::Scalar => quote_spanned!(span=>
                ::autograd::__private::add_float_field::<#float, _>(&mut #slot #(.#path)*, #g);
            ),
            ReadKind::Elements => quote_spanned!(span=>
                ::autograd::__private::add_to_collection(&mut #slot #(.#path)*, &#g);
            ),
            ReadKind::Matrix => quote_spanned!(span=>
                ::autograd::__private::add_to_collection(&mut #slot #(.#path)*, #g.as_slice());
            ),
        }
    });
    // A constant field read as a float had its adjoint added too.
    let restores: Vec<TokenStream> = args
        .iter()
        .zip(&slots)
        .filter(|(a, _)| a.inout || reads.iter().any(|r| r.base == a.ident))
        .filter_map(|(a, slot)| match &a.kind {
            ArgKind::Struct { ty, by_ref } => {
                let x = &a.ident;
                let at = match (a.inout, by_ref) {
                    (true, _) => {
                        let c = entry_constants(x);
                        quote!(&#c)
                    }
                    (false, true) => quote!(#x),
                    (false, false) => quote!(&#x),
                };
                Some(quote_spanned!(mixed=> <#ty as ::autograd::TangentStruct>::__restore_constants(&mut #slot, #at);))
            }
            ArgKind::Other { .. } => None,
        })
        .collect();
    let vjp = format_ident!("{}_vjp", name);
    let doc_vjp = match in_out {
        false => format!(
            " The value of [`{name}`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order; a `Tangent` struct's adjoint is the struct.\n\n Generated by `#[differentiable]`."
        ),
        true => format!(
            " The value of [`{name}`] and its pullback. The arguments are left as `{name}` leaves them (the in-out arguments hold their final values). The pullback takes the adjoint of the result, then one seed for the final value of each in-out argument, in argument order, and returns the adjoints of the differentiable arguments' values on entry, in argument order; a `Tangent` struct's adjoint is the struct.\n\n Generated by `#[differentiable]`."
        ),
    };
    let zeros: Vec<TokenStream> = zeros.collect();
    // The wrappers reproduce the function without calling it; naming it
    // keeps a caller of only the generated items free of a dead-code warning.
    let primal = callee_path("");
    // `_vjp` is the hidden VJP without the arguments its pullback reached,
    // which the struct call passes on to its caller (finding 033): from
    // the flat function's hidden VJP, whose pullback says so for each of
    // its arguments. One of in-out arguments (a pullback of more seeds)
    // takes the flat function's `_vjp`, every argument reached.
    let reached_vjp = format_ident!("__autograd_{}_vjp", name);
    let n_kept = proc_macro2::Literal::usize_unsuffixed(kept_slots.len());
    let pulled = quote!(::autograd::__private::Reached<(#(#kept_tys,)*), #n_kept>);
    // The pullback's seeds: the result's (none for `()`), then the in-out
    // arguments' final values'.
    let ret_seed = (!unit).then(|| quote_spanned!(mixed=> __ad_seed,));
    let all_seed_tys: Vec<TokenStream> = (!unit)
        .then(|| ret.to_token_stream())
        .into_iter()
        .chain(seed_tys.iter().cloned())
        .collect();
    let all_seed_params: Vec<TokenStream> = (!unit)
        .then(|| quote_spanned!(mixed=> __ad_seed: #ret))
        .into_iter()
        .chain(
            seed_names
                .iter()
                .zip(&seed_tys)
                .map(|(s, t)| quote!(#s: #t)),
        )
        .collect();
    let (flat_call, take) = match flat_sig.as_ref().filter(|s| !s.has_inout()) {
        Some(_) => {
            let path: syn::Path = syn::parse_quote!(#flat_path::#name);
            let full = crate::emit::forward::hidden_path(&path, names::VJP_FULL);
            let first_other = reads.len() + casts.len() + consts.len() + 2 * wholes.len();
            let mut full_slots: Vec<TokenStream> =
                flat_grads.iter().map(|g| g.to_token_stream()).collect();
            full_slots.extend((0..casts.len() + consts.len()).map(|_| quote!(_)));
            for g in &whole_grads {
                full_slots.push(quote!(_));
                full_slots.push(g.to_token_stream());
            }
            let mut flags = Vec::new();
            let mut k = first_other;
            for ((a, slot), t) in args.iter().zip(&slots).zip(&slot_tys) {
                match (&a.kind, t) {
                    (ArgKind::Struct { .. }, _) => flags.push(quote!(true)),
                    (ArgKind::Other { .. }, Some(_)) => {
                        let k_lit = proc_macro2::Literal::usize_unsuffixed(k);
                        full_slots.push(slot.to_token_stream());
                        flags.push(quote_spanned!(mixed=> __ad_reached[#k_lit]));
                        k += 1;
                    }
                    (ArgKind::Other { .. }, _) => {
                        full_slots.push(quote!(_));
                        k += 1;
                    }
                }
            }
            (
                full.to_token_stream(),
                quote_spanned! {mixed=>
                    let ((#(#full_slots,)*), __ad_reached) =
                        ::autograd::__private::reached(__ad_pullback(__ad_seed));
                    let __ad_reached = [#(#flags),*];
                },
            )
        }
        None => (
            quote!(#flat_path::#flat_vjp),
            quote_spanned! {mixed=>
                #(#seed_structs)*
                let (#(#flat_grads,)* #(#whole_grads,)* #(#other_grads,)*) = __ad_pullback(#ret_seed #(#flat_seeds),*);
                let __ad_reached = [true; #n_kept];
            },
        ),
    };
    let reached_path = if is_method {
        quote!(Self::#reached_vjp)
    } else {
        quote!(#reached_vjp)
    };
    let public_vjp = match &io {
        None => quote_spanned! {mixed=>
            #vis fn #vjp(#(#inputs),*) -> (#ret, impl ::core::ops::FnOnce(#ret) -> (#(#kept_tys,)*)) {
                ::autograd::__private::vjp(#reached_path(#(#names),*))
            }
        },
        Some(io) => {
            let (generics, inputs, captures) = (&io.generics, &io.inputs, &io.captures);
            quote_spanned! {mixed=>
                #vis fn #vjp #generics (#(#inputs),*)
                    -> (#ret, impl ::core::ops::FnOnce(#(#all_seed_tys),*) -> (#(#kept_tys,)*) #captures)
                {
                    let (__ad_value, __ad_pullback) = #reached_path(#(#names),*);
                    (__ad_value, move |#(#all_seed_params),*| {
                        ::autograd::__private::adjoints(__ad_pullback(#ret_seed #(#seed_names),*))
                    })
                }
            }
        }
    };
    let (io_generics, io_inputs, io_captures) = match &io {
        Some(io) => (
            io.generics.clone(),
            io.inputs.iter().map(ToTokens::to_token_stream).collect(),
            io.captures.clone(),
        ),
        None => (
            TokenStream::new(),
            inputs
                .iter()
                .map(ToTokens::to_token_stream)
                .collect::<Vec<_>>(),
            TokenStream::new(),
        ),
    };
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_vjp]
        #[allow(clippy::too_many_arguments)]
        #public_vjp
        #[doc(hidden)]
        #[allow(clippy::too_many_arguments)]
        #vis fn #reached_vjp #io_generics (#(#io_inputs),*)
            -> (#ret, impl ::core::ops::FnOnce(#(#all_seed_tys),*) -> #pulled #io_captures)
        {
            #nested
            let _ = #primal;
            #(#zeros)*
            let (__ad_value, __ad_pullback) = #flat_call(#(#field_values,)* #(#cast_values,)* #(#whole_values,)* #(#other_values),*);
            (__ad_value, move |#(#all_seed_params),*| {
                #take
                #(#adds)*
                #(#restores)*
                #(#whole_adds)*
                ::autograd::__private::Reached((#(#kept_slots,)*), __ad_reached)
            })
        }
    });

    // The struct call: what a differentiable body calling this function
    // calls, each struct argument passed as the struct (a constant) and
    // its flattened differentiable fields; its adjoint is this function's
    // pullback, run again at the struct rebuilt from those fields.
    // A caller's forward sweep goes through the struct call too, of a
    // function returning one float.
    let call_jvp = jvp && !several;
    let struct_call = {
        let call_name = syn::Ident::new(names::STRUCT_CALL, Span::call_site());
        let rule = syn::Ident::new(names::STRUCT_RULE, Span::call_site());
        let (primal, vjp_fn): (TokenStream, TokenStream) = match imp {
            Some(imp) => {
                let ty = &imp.self_ty;
                let primal = match &imp.trait_ {
                    Some(trait_) => quote!(<#ty as #trait_>::#name),
                    None => quote!(<#ty>::#name),
                };
                (primal, quote!(<#ty>::#reached_vjp))
            }
            // A function alone in an impl block: its struct call's items
            // are associated functions of the same type.
            None if is_method => (quote!(Self::#name), quote!(Self::#reached_vjp)),
            None => (quote!(#name), quote!(#reached_vjp)),
        };
        let mut params = Vec::new();
        let mut rule_params = Vec::new();
        let mut call_args = Vec::new();
        let mut rule_tys = Vec::new();
        let mut rebuild = Vec::new();
        let mut results = Vec::new();
        // Of the tangent rule: a tangent per differentiable argument of the
        // struct call (a struct's flattened fields), the structs' tangents
        // rebuilt, `NAME_jvp`'s tangent arguments; and the types of the
        // struct call's hidden JVP, for its `ForwardMode`.
        let mut tangent_params = Vec::new();
        let mut tangent_rebuild = Vec::new();
        let mut tangent_args = Vec::new();
        let mut jvp_input_tys = Vec::new();
        let mut jvp_tangent_tys = Vec::new();
        let no_gradient = quote!(::autograd::__private::NoGradient);
        // Of the in-out calls (`InOutCalls`).
        let mut io = InOutCalls::default();
        let mut kept_k = 0;
        for (i, (input, a)) in func.sig.inputs.iter().zip(&args).enumerate() {
            match &a.kind {
                ArgKind::Struct { ty, by_ref } => {
                    let whole = format_ident!("__ad_whole{}", i);
                    let flat = format_ident!("__ad_flat{}", i);
                    let at = format_ident!("__ad_at{}", i);
                    params.push(quote!(#[constant] #whole: &#ty, #flat: &[f64]));
                    rule_params.push(quote!(#whole: &#ty, #flat: &[f64]));
                    rebuild.push(quote!(let #at = <#ty as ::autograd::TangentStruct>::__from_flat(#whole, &mut &#flat[..]);));
                    call_args.push(if *by_ref { quote!(&#at) } else { quote!(#at) });
                    let (t_flat, t_at) = (
                        format_ident!("__ad_tflat{}", i),
                        format_ident!("__ad_tat{}", i),
                    );
                    tangent_params.push(quote!(#t_flat: &[f64]));
                    // A tangent moves no constant field.
                    tangent_rebuild.push(quote! {
                        let mut #t_at = <#ty as ::autograd::TangentStruct>::__from_flat(#whole, &mut &#t_flat[..]);
                        <#ty as ::autograd::TangentStruct>::__zero_constants(&mut #t_at);
                    });
                    tangent_args.push(quote!(&#t_at));
                    jvp_input_tys.extend([quote!(&#ty), quote!(&[f64])]);
                    jvp_tangent_tys.extend([no_gradient.clone(), quote!(&[f64])]);
                    rule_tys.push(quote!(::std::vec::Vec<f64>));
                    let slot = &slots[i];
                    results.push(quote!({
                        let mut __ad_row = ::autograd::__private::flat_row(#flat.len());
                        <#ty as ::autograd::TangentStruct>::__flatten_into(&#slot, &mut __ad_row);
                        __ad_row
                    }));
                    io.params.push(quote!(#whole: &#ty, #flat: &[f64]));
                    io.args.push(call_args[call_args.len() - 1].clone());
                    io.full
                        .push((no_gradient.clone(), no_gradient.clone(), quote!(true)));
                    let k = proc_macro2::Literal::usize_unsuffixed(kept_k);
                    io.full.push((
                        quote!(::std::vec::Vec<f64>),
                        results[results.len() - 1].clone(),
                        quote!(__ad_reached[#k]),
                    ));
                    kept_k += 1;
                }
                ArgKind::Other { .. } => {
                    let FnArg::Typed(pt) = input else { continue };
                    let x = &a.ident;
                    let ty = &pt.ty;
                    params.push(input.to_token_stream());
                    rule_params.push(quote!(#x: #ty));
                    call_args.push(quote!(#x));
                    jvp_input_tys.push(ty.to_token_stream());
                    let tangent_ty = slot_tys[i]
                        .as_ref()
                        .and(others[i].as_ref())
                        .and_then(crate::emit::tangent::tangent_ty);
                    match tangent_ty {
                        Some(t) => {
                            let t_x = format_ident!("__ad_t{}", i);
                            tangent_params.push(quote!(#t_x: #t));
                            tangent_args.push(quote!(#t_x));
                            jvp_tangent_tys.push(t);
                        }
                        None => jvp_tangent_tys.push(no_gradient.clone()),
                    }
                    if let Some(t) = &slot_tys[i] {
                        rule_tys.push(t.clone());
                        results.push(slots[i].to_token_stream());
                        let k = proc_macro2::Literal::usize_unsuffixed(kept_k);
                        io.full.push((
                            t.clone(),
                            slots[i].to_token_stream(),
                            quote!(__ad_reached[#k]),
                        ));
                        kept_k += 1;
                    } else {
                        io.full
                            .push((no_gradient.clone(), no_gradient.clone(), quote!(true)));
                    }
                    match (inout[i], &others[i]) {
                        (Some(p), _) => {
                            let owned = match &p.kind {
                                ParamKind::Float(t) => t.to_token_stream(),
                                ParamKind::Array { owned, .. }
                                | ParamKind::Matrix { owned, .. } => owned.to_token_stream(),
                                _ => ty.to_token_stream(),
                            };
                            io.params.push(quote!(mut #x: #owned));
                            io.args.push(quote!(&mut #x));
                            io.finals.push((x.clone(), owned, p.differentiable));
                        }
                        // Passed again in the pullback: a copy of one taken
                        // by value.
                        (None, Some(p))
                            if !matches!(&**ty, Type::Reference(_))
                                && !matches!(
                                    p.kind,
                                    ParamKind::Float(_) | ParamKind::Int | ParamKind::Bool
                                ) =>
                        {
                            io.params.push(quote!(#x: #ty));
                            io.args.push(quote!(::core::clone::Clone::clone(&#x)));
                        }
                        _ => {
                            io.params.push(quote!(#x: #ty));
                            io.args.push(quote!(#x));
                        }
                    }
                }
            }
        }
        io.kept = slots
            .iter()
            .zip(&slot_tys)
            .filter(|(_, t)| t.is_some())
            .map(|(s, _)| s.clone())
            .collect();
        let call_vis = quote!(pub);
        let hidden: syn::ItemFn = syn::parse_quote! {
            #[doc(hidden)]
            #[inline]
            #call_vis fn #call_name(#(#params),*) -> #ret {
                #(#rebuild)*
                #primal(#(#call_args),*)
            }
        };
        let jvp_rule = syn::Ident::new(names::STRUCT_JVP, Span::call_site());
        let jvp_name = format_ident!("{}_jvp", name);
        // A function of in-out arguments: its own hidden items, below.
        let hidden = if in_out {
            TokenStream::new()
        } else {
            crate::expand::expand(
                if call_jvp {
                    quote!(backward = #rule, jvp = #jvp_rule)
                } else {
                    quote!(backward = #rule)
                },
                hidden.to_token_stream(),
            )
        };
        let all_slots: Vec<&syn::Ident> = slots
            .iter()
            .zip(&slot_tys)
            .filter(|(_, t)| t.is_some())
            .map(|(s, _)| s)
            .collect();
        let rule: syn::ItemFn = syn::parse_quote! {
            #[doc(hidden)]
            #[inline]
            #[allow(clippy::too_many_arguments)]
            #call_vis fn #rule(__ad_seed: #ret, #(#rule_params,)* _: #ret)
                -> ::autograd::__private::Reached<(#(#rule_tys,)*), #n_kept>
            {
                #(#rebuild)*
                let (_, __ad_pullback) = #vjp_fn(#(#call_args),*);
                let ::autograd::__private::Reached((#(#all_slots,)*), __ad_reached) = __ad_pullback(__ad_seed);
                ::autograd::__private::Reached((#(#results,)*), __ad_reached)
            }
        };
        let mut rules = vec![rule];
        if call_jvp {
            let jvp_fn = match imp {
                Some(imp) => {
                    let ty = &imp.self_ty;
                    quote!(<#ty>::#jvp_name)
                }
                None if is_method => quote!(Self::#jvp_name),
                None => quote!(#jvp_name),
            };
            rules.push(syn::parse_quote! {
                #[doc(hidden)]
                #[allow(clippy::too_many_arguments)]
                #call_vis fn #jvp_rule(#(#rule_params,)* #(#tangent_params,)* _: #ret) -> #ret {
                    #(#rebuild)*
                    #(#tangent_rebuild)*
                    #jvp_fn(#(#call_args,)* #(#tangent_args),*).1
                }
            });
        }
        let items = match in_out {
            true => {
                let mut items = vec![syn::parse_quote! {
                    #[doc(hidden)]
                    #[inline]
                    #call_vis fn #call_name(#(#rule_params),*) -> #ret {
                        #(#rebuild)*
                        #primal(#(#call_args),*)
                    }
                }];
                items.extend(io.items(&rebuild, &primal, &vjp_fn, &ret));
                items
            }
            false => struct_call_items(hidden, rules),
        };
        (items, jvp_input_tys, jvp_tangent_tys)
    };
    let (struct_call, jvp_input_tys, jvp_tangent_tys) = struct_call;
    // The struct call's forward mode, by which a caller's forward sweep
    // finds its hidden JVP (see `jvp_of`); for a function without `jvp`
    // the missing impl is the trait's error naming the option.
    // The `ForwardMode` names the argument types in an associated type,
    // which must be as public as the carrier (E0446): for a carrier more
    // public than private, only where the file declares each struct `pub`;
    // elsewhere a caller's forward sweep passing the struct on whole is the
    // trait's error naming `jvp`.
    let public_enough = matches!(vis, syn::Visibility::Inherited)
        || args.iter().all(|a| match &a.kind {
            ArgKind::Struct { ty, .. } => {
                let ty = match (&**ty, imp) {
                    (Type::Path(p), Some(imp)) if p.path.is_ident("Self") => &imp.type_name,
                    (Type::Path(p), _) => match p.path.segments.last() {
                        Some(s) => &s.ident,
                        None => return false,
                    },
                    _ => return false,
                };
                crate::unannotated::declared_pub(ty)
            }
            ArgKind::Other { .. } => true,
        });
    let forward_mode = |carrier: TokenStream, jvp_full: TokenStream| {
        (call_jvp && public_enough).then(|| {
            quote! {
                #[doc(hidden)]
                #[diagnostic::do_not_recommend]
                #[allow(clippy::type_complexity)]
                impl ::autograd::__private::ForwardMode<::autograd::__private::StructCall> for #carrier {
                    type Fn = fn(#(#jvp_input_tys,)* #(#jvp_tangent_tys),*) -> (#ret, #ret);
                    // The type again, not `Self::Fn`: in an impl block's
                    // module every `Self` is replaced by the block's type.
                    const JVP: fn(#(#jvp_input_tys,)* #(#jvp_tangent_tys),*) -> (#ret, #ret) = #jvp_full;
                    // A caller's K-lane sweep does not go through a struct call.
                    type Lanes = ::autograd::__private::NoLanes;
                    const JVP_LANES: ::autograd::__private::NoLanes = ::autograd::__private::NoLanes;
                }
            }
        })
    };
    let struct_jvp_full =
        syn::Ident::new(&names::struct_call_item(names::JVP_FULL), Span::call_site());
    let struct_call = match (&callee.module, is_method) {
        // A caller does not pass an in-out struct yet.
        _ if args.iter().any(|a| a.inout) => TokenStream::new(),
        // A function of an `impl` block, with the attribute on the block or
        // on itself alone: associated items of the type, named after the
        // function (`Model::__autograd_g__struct_call`), which a caller
        // reaches through the type it calls the function on. A block also
        // gives the type the function's forward mode; a function alone
        // cannot name its type, and a caller's forward sweep is the
        // trait's error saying to annotate the block.
        (Some(_), _) | (None, true) => {
            let call = crate::ir::method_struct_call(&name.to_string());
            let items = struct_call.into_iter().map(|mut f| {
                let renamed = format!("__autograd_{name}{}", f.sig.ident);
                f.sig.ident = syn::Ident::new(&renamed, f.sig.ident.span());
                // As visible as the function: a caller reaches both.
                f.vis = vis.clone();
                SelfPaths(Some(name)).visit_item_fn_mut(&mut f);
                let mut f = associated(f);
                f.attrs.push(syn::parse_quote!(#[allow(non_snake_case)]));
                f
            });
            if let Some(imp) = imp.filter(|_| call_jvp && public_enough) {
                let ty = &imp.self_ty;
                let id =
                    proc_macro2::Literal::u64_suffixed(crate::ir::method_id(&name.to_string()));
                let jvp_full = format_ident!("{call}{}", names::JVP_FULL);
                let fn_ty = quote!(fn(#(#jvp_input_tys,)* #(#jvp_tangent_tys),*) -> (#ret, #ret));
                module.extend(replace_self_tokens(
                    quote! {
                        #[doc(hidden)]
                        #[diagnostic::do_not_recommend]
                        #[allow(clippy::type_complexity)]
                        impl ::autograd::__private::MethodForwardMode<#id> for #ty {
                            type Fn = #fn_ty;
                            const JVP: #fn_ty = <#ty>::#jvp_full;
                        }
                    },
                    ty,
                ));
            }
            quote!(#(#items)*)
        }
        // A free function's: associated functions of the type named like
        // it (as the hidden items of every `#[differentiable]` function),
        // which its callers reach through the path they call it by
        // (`m::g::__struct_call`); a call of a function without the
        // attribute is the error of any such call, at its name.
        (None, false) => {
            let items = struct_call.into_iter().map(associated);
            let forward_mode =
                forward_mode(name.to_token_stream(), quote!(#name::#struct_jvp_full));
            quote! {
                #[doc(hidden)]
                #[allow(non_camel_case_types, dead_code)]
                #vis struct #name {}
                #[doc(hidden)]
                impl #name {
                    #(#items)*
                }
                #forward_mode
            }
        }
    };
    out.extend(struct_call);

    if jvp || hessian {
        let forward = Forward {
            name,
            vis,
            float: &float,
            args: &args,
            others: &others,
            reads: &reads,
            slot_tys: &slot_tys,
            inputs: &inputs,
            ret: &ret,
            nested: &nested,
            flat_path: &flat_path,
            values: [&field_values, &cast_values],
            wholes: &wholes,
            whole_values: &whole_values,
            other_values: &other_values,
            is_method,
            trait_: imp.and_then(|i| i.trait_.as_ref()),
        };
        if jvp {
            out.extend(forward.jvp());
        }
        if hessian && !several && !is_f32 {
            out.extend(forward.hvp());
            out.extend(forward.hessian());
        }
    }

    if several {
        // `_jacobian`: one VJP per output, each row the flattened adjoints
        // (a struct's differentiable fields in declaration order).
        let call_vjp = callee_path("vjp");
        let args_again: Vec<TokenStream> = args
            .iter()
            .zip(&others)
            .map(|(a, other)| {
                let x = &a.ident;
                let by_value = match &a.kind {
                    ArgKind::Struct { by_ref, .. } => !by_ref,
                    ArgKind::Other { by_value_clone } => {
                        *by_value_clone
                            && !matches!(
                                other.as_ref().map(|p| &p.kind),
                                Some(ParamKind::Float(_) | ParamKind::Int | ParamKind::Bool)
                            )
                    }
                };
                if by_value {
                    quote!(::core::clone::Clone::clone(&#x))
                } else {
                    quote!(#x)
                }
            })
            .collect();
        let flatten = args
            .iter()
            .zip(&slots)
            .zip(&slot_tys)
            .filter_map(|((a, slot), ty)| {
                let ty = ty.as_ref()?;
                Some(match &a.kind {
                    ArgKind::Struct { .. } => quote_spanned!(mixed=>
                        <#ty as ::autograd::TangentStruct>::__flatten_into(&#slot, &mut __ad_row);
                    ),
                    ArgKind::Other { .. } => quote_spanned!(mixed=>
                        ::autograd::__private::Flatten::flatten_into(&#slot, &mut __ad_row);
                    ),
                })
            })
            .collect::<Vec<_>>();
        let jacobian = format_ident!("{}_jacobian", name);
        let jacobian_acc = format_ident!("{}_jacobian_acc", name);
        // `f64` whatever the function's float, as `NAME_jacobian`'s matrix.
        let entry = quote!(f64);
        // `jac`, lengthened while an argument has that name.
        let mut jac = String::from("jac");
        while args.iter().any(|a| a.ident == jac) {
            jac.push('_');
        }
        let jac = syn::Ident::new(&jac, mixed);
        let doc_jac = format!(
            " The value of [`{name}`] and its Jacobian: rows are the outputs, columns the flattened differentiable arguments in argument order (a `Tangent` struct its differentiable fields in declaration order, a collection field its elements).\n\n Generated by `#[differentiable]`: one call of `{vjp}` per output. `{name}_jacobian_acc` adds the same matrix into a caller's."
        );
        let doc_acc = format!(
            " The value of [`{name}`], its Jacobian added into `jac` (`jac += J`; rows and columns as `{name}_jacobian`'s, which is this into zeros). Each row is gathered in a `Vec` first (a `Tangent` struct's adjoint is flattened).\n\n Generated by `#[differentiable]`: one call of `{vjp}` per output.\n\n # Panics\n\n If `jac` is not outputs × flattened inputs (nothing is added then)."
        );
        // One body for both: into the caller's matrix, or a fresh one.
        let body = |jac: TokenStream, target: TokenStream| {
            quote_spanned! {mixed=>
                let (__ad_value, _) = #call_vjp(#(#args_again),*);
                ::autograd::__private::jacobian_acc(&__ad_value, #jac, #target, |__ad_seed| {
                    let (_, __ad_pullback) = #call_vjp(#(#args_again),*);
                    let (#(#kept_slots,)*) = __ad_pullback(__ad_seed);
                    let mut __ad_row = ::autograd::__private::Vec::new();
                    #(#flatten)*
                    __ad_row
                });
            }
        };
        let fresh = body(
            quote_spanned!(mixed=> &mut __ad_j),
            quote!(::autograd::__private::Target::Fresh),
        );
        let add = body(quote!(#jac), quote!(::autograd::__private::Target::Add));
        out.extend(quote_spanned! {mixed=>
            #[doc = #doc_jac]
            #[allow(clippy::too_many_arguments)]
            #vis fn #jacobian(#(#inputs),*) -> (#ret, ::autograd::nalgebra::DMatrix<f64>) {
                let mut __ad_j = ::autograd::nalgebra::DMatrix::<f64>::zeros(0, 0);
                #fresh
                (__ad_value, __ad_j)
            }

            #[doc = #doc_acc]
            #[allow(clippy::too_many_arguments)]
            #[track_caller]
            #vis fn #jacobian_acc(#(#inputs,)* #jac: &mut ::autograd::nalgebra::DMatrix<#entry>) -> #ret {
                #add
                __ad_value
            }
        });
        return Expansion {
            user: user_tokens,
            wrappers: out,
            module,
            callee,
        };
    }

    // `()`: the final values are the outputs, `_vjp` the only item.
    if unit {
        return Expansion {
            user: user_tokens,
            wrappers: out,
            module,
            callee,
        };
    }

    // `_grad`: the VJP with seed 1, and 0 for the in-out arguments' final
    // values, which it reads again (reborrowed).
    let grad = format_ident!("{}_grad", name);
    let call_vjp = callee_path("vjp");
    let passed: Vec<TokenStream> = args
        .iter()
        .zip(&inout)
        .map(|(a, p)| {
            let x = &a.ident;
            match p.is_some() || a.inout {
                true => quote!(&mut *#x),
                false => quote!(#x),
            }
        })
        .collect();
    let (mut entry_zeros, mut final_zeros) = (Vec::new(), Vec::new());
    for (((input, a), p), seed) in func
        .sig
        .inputs
        .iter()
        .zip(&args)
        .zip(&inout)
        .filter(|((_, a), p)| a.inout || p.is_some())
        .zip(&seed_names)
    {
        match (&a.kind, p) {
            (ArgKind::Struct { ty, .. }, _) => {
                let x = &a.ident;
                entry_zeros.push(quote_spanned!(mixed=>
                    let #seed = <#ty as ::autograd::TangentStruct>::zero_adjoint(&*#x);
                ));
            }
            (_, Some(p)) => {
                let FnArg::Typed(pt) = input else { continue };
                match crate::emit::inout::zero_seed(p, &pt.ty, &p.ident, seed) {
                    (zero, false) => entry_zeros.push(zero),
                    (zero, true) => final_zeros.push(zero),
                }
            }
            _ => {}
        }
    }
    let doc_grad = match in_out {
        false => format!(
            " The value of [`{name}`] followed by its gradient: one adjoint per differentiable argument, in argument order.\n\n Generated by `#[differentiable]`: `{vjp}` with seed 1."
        ),
        true => format!(
            " The value of [`{name}`] followed by its gradient: one adjoint per differentiable argument, of its value on entry, in argument order. The arguments are left as `{name}` leaves them.\n\n Generated by `#[differentiable]`: `{vjp}` with seed 1 for the result and 0 for the in-out arguments' final values."
        ),
    };
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_grad]
        #[allow(clippy::too_many_arguments)]
        #vis fn #grad(#(#inputs),*) -> (#ret, #(#kept_tys),*) {
            #(#entry_zeros)*
            let (__ad_value, __ad_pullback) = #call_vjp(#(#passed),*);
            #(#final_zeros)*
            let (#(#kept_slots,)*) = __ad_pullback(1.0 #(, #seed_names)*);
            (__ad_value, #(#kept_slots),*)
        }
    });

    // `_grad_acc`: the gradient added into the caller's buffers.
    let taken: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let mut buffers = Vec::new();
    let mut accumulate = Vec::new();
    for (i, ((a, slot), ty)) in args.iter().zip(&slots).zip(&slot_tys).enumerate() {
        let Some(ty) = ty else { continue };
        let mut buffer = format!("d_{}", a.ident);
        while taken.contains(&buffer) {
            buffer.push('_');
        }
        let buffer = syn::Ident::new(&buffer, mixed);
        match &a.kind {
            ArgKind::Struct { .. } => {
                buffers.push(quote_spanned!(mixed=> #buffer: &mut #ty));
                accumulate.push(
                    quote_spanned!(mixed=> <#ty as ::autograd::TangentStruct>::add_adjoint(#buffer, &#slot);),
                );
            }
            ArgKind::Other { .. } => {
                let buffer_ty = others[i].as_ref().and_then(|p| p.buffer_ty());
                buffers.push(quote_spanned!(mixed=> #buffer: #buffer_ty));
                accumulate.push(
                    quote_spanned!(mixed=> ::autograd::__private::Accumulate::accumulate(#buffer, #slot);),
                );
            }
        }
    }
    let grad_acc = format_ident!("{}_grad_acc", name);
    let doc_acc = format!(
        " The value of [`{name}`], its gradient added into one buffer per differentiable argument (`d_x += ∂{name}/∂x`), in argument order.\n\n Generated by `#[differentiable]`."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_acc]
        #[allow(clippy::too_many_arguments)]
        #vis fn #grad_acc(#(#inputs,)* #(#buffers),*) -> #ret {
            #(#entry_zeros)*
            let (__ad_value, __ad_pullback) = #call_vjp(#(#passed),*);
            #(#final_zeros)*
            let (#(#kept_slots,)*) = __ad_pullback(1.0 #(, #seed_names)*);
            #(#accumulate)*
            __ad_value
        }
    });

    // `_check`: each struct's differentiable fields and each other
    // differentiable argument against central differences of the function.
    // An in-out argument: its value on entry, which `_grad` then
    // overwrites and every evaluation starts from a copy of.
    let call = callee_path("");
    let at = syn::Ident::new("__ad_at", mixed);
    let entry = |x: &syn::Ident| {
        format_ident!(
            "__ad_entry_{}",
            x.to_string().trim_start_matches("r#"),
            span = mixed
        )
    };
    let saved: Vec<TokenStream> = args
        .iter()
        .zip(&inout)
        .filter(|(a, p)| a.inout || p.is_some())
        .map(|(a, _)| {
            let (x, e) = (&a.ident, entry(&a.ident));
            quote_spanned!(mixed=> let #e = ::std::borrow::ToOwned::to_owned(&*#x);)
        })
        .collect();
    let kept = |replaced: Option<usize>| -> Vec<TokenStream> {
        args.iter()
            .enumerate()
            .map(|(i, a)| {
                let x = &a.ident;
                if inout[i].is_some() || a.inout {
                    let e = entry(x);
                    let float = matches!(inout[i].map(|p| &p.kind), Some(ParamKind::Float(_)));
                    return match replaced {
                        None => quote!(&mut *#x),
                        Some(k) if k == i && float => {
                            quote!(&mut ::core::convert::identity(#at))
                        }
                        Some(k) if k == i => quote!(&mut ::core::clone::Clone::clone(#at)),
                        Some(_) => quote!(&mut ::core::clone::Clone::clone(&#e)),
                    };
                }
                let by_value = match &a.kind {
                    ArgKind::Struct { by_ref, .. } => !by_ref,
                    ArgKind::Other { by_value_clone, .. } => {
                        *by_value_clone
                            && !matches!(
                                others[i].as_ref().map(|p| &p.kind),
                                Some(ParamKind::Float(_) | ParamKind::Int | ParamKind::Bool)
                            )
                    }
                };
                match (replaced == Some(i), by_value) {
                    (true, true) => quote!(::core::clone::Clone::clone(#at)),
                    (true, false) => quote!(#at),
                    (false, true) => quote!(::core::clone::Clone::clone(&#x)),
                    (false, false) => quote!(#x),
                }
            })
            .collect()
    };
    let checks = args.iter().enumerate().zip(&slots).filter_map(|((i, a), slot)| {
        slot_tys[i].as_ref()?;
        let x = &a.ident;
        let label = x.to_string();
        let call_args = kept(Some(i));
        Some(match &a.kind {
            ArgKind::Struct { ty, by_ref } => {
                let e = entry(x);
                let at = match (a.inout, by_ref) {
                    (true, _) => quote!(&#e),
                    (false, true) => quote!(#x),
                    (false, false) => quote!(&#x),
                };
                let value = widen(quote!(#call(#(#call_args),*)));
                quote_spanned! {mixed=>
                    <#ty as ::autograd::TangentStruct>::__check_fields(#at, &#slot, #label, &mut __ad_check, &mut |__ad_at| #value);
                }
            }
            ArgKind::Other { .. } => {
                let kind = &others[i].as_ref()?.kind;
                // An in-out argument's adjoint is of its value on entry.
                let e = entry(x);
                let (x, by_ref) = match inout[i] {
                    Some(_) => (&e, false),
                    None => (x, true),
                };
                let (method, at, adjoint, call_args) = match kind {
                    ParamKind::Float(_) => (quote!(scalar), quote!(#x), quote!(#slot), kept(Some(i))),
                    ParamKind::Slice(_) => (quote!(slice), quote!(#x), quote!(&#slot), call_args),
                    ParamKind::Array { owned, .. } if inout[i].is_some() => {
                        let method = match **owned {
                            Type::Array(_) => quote!(array),
                            _ => quote!(slice),
                        };
                        (method, quote!(&#x), quote!(&#slot), call_args)
                    }
                    ParamKind::Matrix { fixed, vector, by_ref: arg_by_ref, .. } => {
                        let by_ref = *arg_by_ref && by_ref;
                        let method = if *fixed {
                            quote!(fixed)
                        } else if *vector {
                            quote!(vector)
                        } else {
                            quote!(matrix)
                        };
                        let at = if by_ref { quote!(#x) } else { quote!(&#x) };
                        (method, at, quote!(&#slot), call_args)
                    }
                    _ => return None,
                };
                quote_spanned! {mixed=>
                    __ad_check.#method(#label, #at, #adjoint, |__ad_at| #call(#(#call_args),*));
                }
            }
        })
    });
    let checks: Vec<TokenStream> = checks.collect();
    let check = format_ident!("{}_check", name);
    let call_grad = callee_path("grad");
    let kept_all = kept(None);
    let doc_check = format!(
        " Compares [`{grad}`] at this point with central finite differences of [`{name}`], component by component (a `Tangent` struct field by field).\n\n Generated by `#[differentiable]`."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_check]
        #[allow(clippy::too_many_arguments)]
        #vis fn #check(#(#inputs),*) -> ::autograd::GradientCheck {
            #(#saved)*
            let (__ad_value, #(#kept_slots),*) = #call_grad(#(#kept_all),*);
            let mut __ad_check = ::autograd::GradientCheck::new(::autograd::__private::to_f64(__ad_value));
            #(#checks)*
            __ad_check
        }
    });
    Expansion {
        user: user_tokens,
        wrappers: out,
        module,
        callee,
    }
}

/// What a caller in the same impl block needs of a differentiable
/// function: how to call its flat function.
#[derive(Clone)]
struct Callee {
    /// Each argument (`self` too), and whether it is a `Tangent` struct.
    params: Vec<(syn::Ident, bool)>,
    reads: Vec<Read>,
    casts: Vec<ConstRead>,
    /// The struct arguments it takes as constants too.
    consts: Vec<syn::Ident>,
    /// Its struct arguments taken by value.
    by_value: Vec<syn::Ident>,
    /// The module of its flat function.
    module: Option<syn::Ident>,
    name: syn::Ident,
}

/// A `#[differentiable] impl` block: its type and the differentiable
/// functions expanded so far.
struct ImplCx {
    self_ty: Type,
    type_name: syn::Ident,
    /// The trait of a trait impl (`Loss` in `impl Loss for Model`): the
    /// generated items go in an inherent impl of the type, and reach the
    /// function as written as `<Self as Loss>::f`.
    trait_: Option<syn::Path>,
    callees: Vec<Callee>,
    /// Names of all its differentiable functions.
    marked: Vec<syn::Ident>,
}

impl ImplCx {
    fn module(&self, func: &syn::Ident) -> syn::Ident {
        format_ident!("__autograd_{}_{}", self.type_name, func)
    }

    /// `self.g(a)`, `Self::g(self, a)` or `Type::g(a)` of a function `g` of
    /// this impl block, as a call of its flat function with the fields it
    /// reads of each struct argument (which the caller then reads).
    /// `constant` makes the argument passed for a struct the callee takes
    /// as a constant reference.
    fn flat_call(
        &self,
        e: &syn::Expr,
        constant: &mut dyn FnMut(&syn::Expr, bool) -> syn::Expr,
    ) -> Option<syn::Expr> {
        // The call as written spans what replaces it, so that an error
        // about an expression holding it (a closure) points there.
        let at = e.span();
        let (name, args): (&syn::Ident, Vec<&syn::Expr>) = match e {
            syn::Expr::MethodCall(m) if is_self(&m.receiver) => (
                &m.method,
                std::iter::once(&*m.receiver).chain(&m.args).collect(),
            ),
            syn::Expr::Call(c) => {
                let syn::Expr::Path(p) = &*c.func else {
                    return None;
                };
                let segments = &p.path.segments;
                if p.qself.is_some()
                    || segments.len() != 2
                    || !(segments[0].ident == "Self" || segments[0].ident == self.type_name)
                {
                    return None;
                }
                (&segments[1].ident, c.args.iter().collect())
            }
            _ => return None,
        };
        let callee = self.callees.iter().find(|c| c.name == *name)?;
        if callee.params.len() != args.len() {
            return None;
        }
        let arg_of = |base: &syn::Ident| -> syn::Expr {
            let i = callee
                .params
                .iter()
                .position(|(p, _)| p == base)
                .expect("a parameter");
            let arg = match args[i] {
                syn::Expr::Reference(r) => &*r.expr,
                a => a,
            };
            syn::parse_quote_spanned!(at=> (#arg))
        };
        let mut flat_args: Vec<syn::Expr> = Vec::new();
        for r in &callee.reads {
            let arg = arg_of(&r.base);
            let path = &r.path;
            flat_args.push(match r.kind {
                ReadKind::Scalar => syn::parse_quote_spanned!(at=> #arg #(.#path)*),
                ReadKind::Elements if callee.by_value.contains(&r.base) => {
                    syn::parse_quote_spanned!(at=> #arg #(.#path)*.to_vec())
                }
                ReadKind::Elements => syn::parse_quote_spanned!(at=> &#arg #(.#path)*),
                // Read again by the caller as a nalgebra value.
                ReadKind::Matrix => syn::parse_quote_spanned!(at=> #arg #(.#path)*.clone_owned()),
            });
        }
        for c in &callee.casts {
            let arg = arg_of(&c.base);
            let (path, ty) = (&c.path, &c.ty);
            flat_args.push(if c.range {
                syn::parse_quote_spanned!(at=> ::autograd::__private::range_field(#arg #(.#path)*))
            } else {
                syn::parse_quote_spanned!(at=> #arg #(.#path)* as #ty)
            });
        }
        for base in &callee.consts {
            flat_args.push(constant(&arg_of(base), callee.by_value.contains(base)));
        }
        for ((_, is_struct), arg) in callee.params.iter().zip(&args) {
            if !is_struct {
                flat_args.push((*arg).clone());
            }
        }
        // Spanned on the call's name: an error about the callee (one
        // without `jvp`) underlines the call.
        let span = name.span();
        let mut module = callee.module.clone()?;
        module.set_span(span);
        let mut name = callee.name.clone();
        name.set_span(span);
        let func: syn::Path = syn::parse_quote_spanned!(span=> #module::#name);
        // Its parentheses are the call's own.
        let parens = match e {
            syn::Expr::MethodCall(m) => m.paren_token.span.join(),
            syn::Expr::Call(c) => c.paren_token.span.join(),
            _ => at,
        };
        Some(syn::parse_quote_spanned!(parens=> #func(#(#flat_args),*)))
    }
}

/// The struct call's items, each `#[doc(hidden)]`: the function, its
/// rule, and the hidden items a caller uses (its VJP and the check that the
/// callee is it), renamed to sit next to it (`__struct_call__vjp_full`).
/// The ordinary expansion's public items (`_vjp`, `_grad`, ..) are dropped:
/// nobody calls them.
fn struct_call_items(expanded: TokenStream, rules: Vec<syn::ItemFn>) -> Vec<syn::ItemFn> {
    let Ok(file) = syn::parse2::<syn::File>(expanded) else {
        return rules;
    };
    let carrier = |ty: &Type| matches!(ty, Type::Path(p) if p.path.is_ident(names::STRUCT_CALL));
    let mut out = Vec::new();
    for item in file.items {
        match item {
            syn::Item::Fn(f) if f.sig.ident == names::STRUCT_CALL => out.push(f),
            syn::Item::Impl(i) if carrier(&i.self_ty) && i.trait_.is_none() => {
                for item in i.items {
                    let syn::ImplItem::Fn(f) = item else { continue };
                    let mut sig = f.sig;
                    sig.ident = syn::Ident::new(
                        &names::struct_call_item(&sig.ident.to_string()),
                        sig.ident.span(),
                    );
                    out.push(syn::ItemFn {
                        attrs: f.attrs,
                        vis: f.vis,
                        modifiers: f.modifiers,
                        sig,
                        block: Box::new(f.block),
                    });
                }
            }
            _ => {}
        }
    }
    out.extend(rules);
    for f in &mut out {
        let hidden = f.attrs.iter().any(|a| {
            a.path().is_ident("doc") && a.to_token_stream().to_string().contains("hidden")
        });
        if !hidden {
            f.attrs.insert(0, syn::parse_quote!(#[doc(hidden)]));
        }
    }
    out
}

/// The struct call of a function with in-out arguments, by which a
/// differentiable body calls it: as for a function of plain values (see
/// `ir::INOUT_CALL`), one hidden function per in-out argument's final value
/// and one for the result, each taking the in-out arguments' values
/// (`__struct_call__inout_call(whole, flat, y, dt) -> Vec<f64>`), with its
/// VJP and the check that a caller's function is this one. The pullbacks
/// run the function's VJP again at the struct rebuilt from its fields, on
/// the in-out arguments' values on entry, as the struct rule does.
#[derive(Default)]
struct InOutCalls {
    /// The struct call's arguments, an in-out one by value (`mut y: Vec<f64>`).
    params: Vec<TokenStream>,
    /// The function's arguments (`&__ad_at0`, `&mut y`, `dt`).
    args: Vec<TokenStream>,
    /// Each in-out argument, its owned type, and whether it is differentiable.
    finals: Vec<(syn::Ident, TokenStream, bool)>,
    /// Per argument of the struct call: its adjoint's type, its value from
    /// the function's pullback, and whether that reached it.
    full: Vec<(TokenStream, TokenStream, TokenStream)>,
    /// The slots of the function's pullback.
    kept: Vec<syn::Ident>,
}

impl InOutCalls {
    fn items(
        &self,
        rebuild: &[TokenStream],
        primal: &TokenStream,
        vjp: &TokenStream,
        ret: &Type,
    ) -> Vec<syn::ItemFn> {
        let InOutCalls {
            params,
            args,
            finals,
            full,
            kept,
        } = self;
        let xs: Vec<&syn::Ident> = finals.iter().map(|(x, _, _)| x).collect();
        let entries: Vec<syn::Ident> = xs
            .iter()
            .map(|x| format_ident!("__ad_entry_{}", x))
            .collect();
        let n = proc_macro2::Literal::usize_unsuffixed(full.len());
        let full_tys = full.iter().map(|(t, _, _)| t);
        let pulled = quote!(::autograd::__private::Reached<(#(#full_tys,)*), #n>);
        let (values, flags): (Vec<&TokenStream>, Vec<&TokenStream>) =
            full.iter().map(|(_, v, f)| (v, f)).unzip();
        // `j`: the final value of that in-out argument, or the result.
        let item = |j: Option<usize>, call: &syn::Ident| -> Vec<syn::ItemFn> {
            let (out_ty, out) = match j {
                Some(j) => (finals[j].1.clone(), xs[j].to_token_stream()),
                None => (ret.to_token_stream(), quote!(__ad_value)),
            };
            let seeds = finals
                .iter()
                .enumerate()
                .map(
                    |(k, (x, _, differentiable))| match (j == Some(k), differentiable) {
                        (true, _) => quote!(__ad_seed),
                        (false, true) => quote!(::autograd::__private::zero_like(&#x)),
                        (false, false) => quote!(()),
                    },
                );
            let seed_ret = match j {
                Some(_) => quote!(::autograd::__private::zero_like(&__ad_value)),
                None => quote!(__ad_seed),
            };
            let vjp_full = format_ident!("{}{}", call, names::VJP_FULL);
            let same = format_ident!("{}{}", call, names::SAME_CALLEE);
            vec![
                syn::parse_quote! {
                    #[inline]
                    #[allow(unused_mut, clippy::all)]
                    pub fn #call(#(#params),*) -> #out_ty {
                        #(#rebuild)*
                        let __ad_value = #primal(#(#args),*);
                        #out
                    }
                },
                syn::parse_quote! {
                    #[inline]
                    #[allow(unused_mut, unused_variables, clippy::all)]
                    pub fn #vjp_full(#(#params),*) -> (#out_ty, impl ::core::ops::FnOnce(#out_ty) -> #pulled) {
                        let (#(#entries,)*) = (#(::core::clone::Clone::clone(&#xs),)*);
                        let __ad_out = {
                            #(#rebuild)*
                            let __ad_value = #primal(#(#args),*);
                            #out
                        };
                        (__ad_out, move |__ad_seed: #out_ty| {
                            #(#rebuild)*
                            #(let mut #xs = #entries;)*
                            let (__ad_value, __ad_pullback) = #vjp(#(#args),*);
                            let ::autograd::__private::Reached((#(#kept,)*), __ad_reached) =
                                __ad_pullback(#seed_ret #(, #seeds)*);
                            ::autograd::__private::Reached((#(#values,)*), [#(#flags),*])
                        })
                    }
                },
                syn::parse_quote! {
                    #[inline(always)]
                    pub fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P) {
                        ::autograd::__private::same_function(
                            called,
                            ::autograd::__private::type_id_of(&#call),
                        )
                    }
                },
            ]
        };
        let mut items = Vec::new();
        for j in 0..finals.len() {
            let call = format_ident!("{}{}", names::STRUCT_CALL, crate::ir::inout_call(j));
            items.extend(item(Some(j), &call));
        }
        let result = format_ident!("{}{}", names::STRUCT_CALL, names::INOUT_RESULT);
        items.extend(item(None, &result));
        for f in &mut items {
            f.attrs.insert(0, syn::parse_quote!(#[doc(hidden)]));
        }
        items
    }
}

/// Makes the struct call's items, moved into an `impl` block, call each
/// other as associated functions: `Self::__struct_call`, or, for a
/// function `g` of the user's impl block whose items are renamed after it
/// (`__autograd_g__struct_call__vjp_full`), `Self::__autograd_g__struct_call`.
struct SelfPaths<'a>(Option<&'a syn::Ident>);

impl VisitMut for SelfPaths<'_> {
    fn visit_expr_path_mut(&mut self, p: &mut syn::ExprPath) {
        if p.qself.is_none()
            && let Some(ident) = p.path.get_ident()
            && (ident.to_string().starts_with(names::STRUCT_CALL)
                || ident == names::STRUCT_RULE
                || ident == names::STRUCT_JVP)
        {
            let ident = match self.0 {
                Some(func) => format_ident!("__autograd_{}{}", func, ident, span = ident.span()),
                None => ident.clone(),
            };
            p.path = syn::parse_quote_spanned!(ident.span()=> Self::#ident);
        }
    }
}

fn is_self(e: &syn::Expr) -> bool {
    matches!(strip_parens(e), syn::Expr::Path(p) if p.path.is_ident("self"))
}

/// Makes the paths of code moved from the user's module into a module
/// below it (the flat function, the struct call of an impl block) name
/// what they named there: `super::g` becomes `super::super::g`, `self::h`
/// becomes `super::h`; `crate::` and `::` paths stay. A module declared in
/// the body keeps its own paths.
struct Relocate;

impl VisitMut for Relocate {
    fn visit_path_mut(&mut self, p: &mut syn::Path) {
        if p.leading_colon.is_none() && p.segments.len() > 1 {
            let first = p.segments[0].ident.clone();
            let up = syn::Ident::new("super", first.span());
            if first == "super" {
                p.segments.insert(0, syn::PathSegment::from(up));
            } else if first == "self" {
                p.segments[0].ident = up;
            }
        }
        syn::visit_mut::visit_path_mut(self, p);
    }

    fn visit_item_use_mut(&mut self, u: &mut syn::ItemUse) {
        if u.leading_colon.is_none()
            && let syn::UseTree::Path(p) = &mut u.tree
        {
            let up = syn::Ident::new("super", p.ident.span());
            if p.ident == "super" {
                let inner = std::mem::replace(
                    &mut *p.tree,
                    syn::UseTree::Glob(syn::UseGlob {
                        star_token: Default::default(),
                    }),
                );
                *p.tree = syn::UseTree::Path(syn::UsePath {
                    ident: p.ident.clone(),
                    colon2_token: p.colon2_token,
                    tree: Box::new(inner),
                });
                p.ident = up;
            } else if p.ident == "self" {
                p.ident = up;
            }
        }
    }

    fn visit_item_mod_mut(&mut self, _: &mut syn::ItemMod) {}

    /// `assert!(super::g(x) > 0.0)`, `vec![self::h(x); n]`.
    fn visit_macro_mut(&mut self, mac: &mut syn::Macro) {
        crate::ir::visit_macro_args(mac, &mut |a| self.visit_expr_mut(a));
    }
}

/// `ty` as named from a module below the user's.
fn relocate_type(ty: &Type) -> Type {
    let mut ty = ty.clone();
    Relocate.visit_type_mut(&mut ty);
    ty
}

/// `tokens` with every `Self` replaced by `ty`.
fn replace_self_tokens(tokens: TokenStream, ty: &Type) -> TokenStream {
    tokens
        .into_iter()
        .flat_map(|t| match t {
            proc_macro2::TokenTree::Ident(i) if i == "Self" => ty.to_token_stream(),
            proc_macro2::TokenTree::Group(g) => {
                let mut new =
                    proc_macro2::Group::new(g.delimiter(), replace_self_tokens(g.stream(), ty));
                new.set_span(g.span());
                proc_macro2::TokenTree::Group(new).into_token_stream()
            }
            t => t.into_token_stream(),
        })
        .collect()
}

fn is_differentiable_attr(a: &syn::Attribute) -> bool {
    a.path()
        .segments
        .last()
        .is_some_and(|s| s.ident == "differentiable")
}

/// Whether a function of a `#[differentiable] impl` block is one without
/// its own attribute: it marks an argument `#[constant]` (which only a
/// differentiable function takes), or no function of the block is marked
/// and it returns a float (the block's attribute then means its float
/// functions).
fn marked_by_the_block(f: &syn::ImplItemFn, none_marked: bool) -> bool {
    let constant_args = f.sig.inputs.iter().any(|a| match a {
        FnArg::Typed(pt) => pt.attrs.iter().any(sig::is_constant_attr),
        FnArg::Receiver(_) => false,
    });
    let returns_float = matches!(&f.sig.output, syn::ReturnType::Type(_, ty) if crate::lower::float_ident(ty).is_some());
    constant_args || (none_marked && returns_float)
}

/// `#[differentiable] impl Type { .. }`: every function in it marked
/// `#[differentiable]` (methods taking `&self` or `self`, associated
/// functions) gets its generated items as associated functions, and may
/// call the others as `self.g(..)` and `Self::g(..)`. A function without
/// the attribute is marked by the block's (with the block's options) where
/// [`marked_by_the_block`] says so.
pub fn expand_impl(block_attr: TokenStream, imp: syn::ItemImpl) -> TokenStream {
    let cx = Ctxt::default();
    if !imp.generics.params.is_empty() {
        cx.error_spanned_by(
            &imp.generics,
            "a `#[differentiable] impl` block cannot be generic",
        );
    }
    let type_name = match &*imp.self_ty {
        Type::Path(p)
            if p.qself.is_none() && p.path.segments.iter().all(|s| s.arguments.is_none()) =>
        {
            p.path.segments.last().map(|s| s.ident.clone())
        }
        _ => None,
    };
    let Some(type_name) = type_name else {
        cx.error_spanned_by(
            &imp.self_ty,
            "a `#[differentiable] impl` block is for a named struct, `impl Model { .. }`",
        );
        let mut out = cx
            .check()
            .err()
            .map(|e| e.to_compile_error())
            .unwrap_or_default();
        out.extend(imp.to_token_stream());
        return out;
    };
    if let Err(e) = cx.check() {
        let mut out = e.to_compile_error();
        out.extend(imp.to_token_stream());
        return out;
    }
    // The marked functions, each with its attribute's arguments.
    let mut marked: Vec<(syn::ItemFn, TokenStream)> = Vec::new();
    let mut items = Vec::new();
    let none_marked = !imp.items.iter().any(
        |item| matches!(item, syn::ImplItem::Fn(f) if f.attrs.iter().any(is_differentiable_attr)),
    );
    for item in imp.items {
        match item {
            syn::ImplItem::Fn(f)
                if !f.attrs.iter().any(is_differentiable_attr)
                    && marked_by_the_block(&f, none_marked) =>
            {
                marked.push((
                    syn::ItemFn {
                        attrs: f.attrs,
                        vis: f.vis,
                        modifiers: f.modifiers,
                        sig: f.sig,
                        block: Box::new(f.block),
                    },
                    block_attr.clone(),
                ));
            }
            syn::ImplItem::Fn(mut f) if f.attrs.iter().any(is_differentiable_attr) => {
                let i = f
                    .attrs
                    .iter()
                    .position(is_differentiable_attr)
                    .expect("marked");
                let attr = f.attrs.remove(i);
                let args = match attr.meta {
                    syn::Meta::List(l) => l.tokens,
                    _ => TokenStream::new(),
                };
                marked.push((
                    syn::ItemFn {
                        attrs: f.attrs,
                        vis: f.vis,
                        modifiers: f.modifiers,
                        sig: f.sig,
                        block: Box::new(f.block),
                    },
                    args,
                ));
            }
            item => items.push(item.into_token_stream()),
        }
    }
    let mut cx = ImplCx {
        self_ty: (*imp.self_ty).clone(),
        type_name,
        callees: Vec::new(),
        marked: marked.iter().map(|(f, _)| f.sig.ident.clone()).collect(),
        trait_: imp.trait_.as_ref().map(|(path, _)| path.clone()),
    };
    // Callees before their callers: each pass expands those whose calls
    // of the block's functions are all expanded.
    let mut done: Vec<Option<Expansion>> = marked.iter().map(|_| None).collect();
    loop {
        let mut progress = false;
        for (i, (f, attr)) in marked.iter().enumerate() {
            if done[i].is_some() || !calls_ready(f, &cx) {
                continue;
            }
            let Some(args) = all_args(f) else {
                continue;
            };
            let e = expand_with(attr, f, args, Some(&cx), true);
            cx.callees.push(e.callee.clone());
            done[i] = Some(e);
            progress = true;
        }
        if !progress {
            break;
        }
    }
    let mut methods = TokenStream::new();
    let mut users = TokenStream::new();
    // Of an inherent impl: each function followed by its generated items.
    let mut together = TokenStream::new();
    let mut modules = TokenStream::new();
    for ((f, _), e) in marked.iter().zip(done) {
        match e {
            Some(e) => {
                together.extend(e.user.clone());
                together.extend(e.wrappers.clone());
                users.extend(e.user);
                methods.extend(e.wrappers);
                modules.extend(e.module);
            }
            None => {
                let message = if all_args(f).is_none() {
                    "unsupported argument pattern; write a plain name such as `x: f64`"
                } else {
                    "functions of a `#[differentiable] impl` block that call each other in a cycle are not supported"
                };
                let error = syn::Error::new_spanned(&f.sig.ident, message).to_compile_error();
                together.extend(error.clone());
                together.extend(f.to_token_stream());
                methods.extend(error);
                users.extend(f.to_token_stream());
            }
        }
    }
    let (attrs, impl_token, self_ty) = (&imp.attrs, &imp.impl_token, &cx.self_ty);
    // A trait impl holds only the trait's items: the functions as written
    // stay in it, and their generated items go in an inherent impl.
    if let Some(trait_) = &cx.trait_ {
        return quote! {
            #(#attrs)*
            #impl_token #trait_ for #self_ty {
                #(#items)*
                #users
            }
            #impl_token #self_ty {
                #methods
            }
            #modules
        };
    }
    let methods = together;
    quote! {
        #(#attrs)*
        #impl_token #self_ty {
            #(#items)*
            #methods
        }
        #modules
    }
}

/// Whether every function of the block that `f` calls is expanded.
fn calls_ready(f: &syn::ItemFn, cx: &ImplCx) -> bool {
    struct Calls<'a> {
        cx: &'a ImplCx,
        ready: bool,
    }
    impl<'ast> syn::visit::Visit<'ast> for Calls<'_> {
        fn visit_expr(&mut self, e: &'ast syn::Expr) {
            let called = match e {
                syn::Expr::MethodCall(m) if is_self(&m.receiver) => Some(&m.method),
                syn::Expr::Call(c) => match &*c.func {
                    syn::Expr::Path(p) if p.path.segments.len() == 2 => {
                        Some(&p.path.segments[1].ident)
                    }
                    _ => None,
                },
                _ => None,
            };
            if let Some(name) = called
                && self.cx.marked.contains(name)
                && !self.cx.callees.iter().any(|c| c.name == *name)
            {
                self.ready = false;
            }
            syn::visit::visit_expr(self, e);
        }
    }
    let mut calls = Calls { cx, ready: true };
    syn::visit::Visit::visit_block(&mut calls, &f.block);
    calls.ready
}

/// What `_jvp`, `_hvp` and `_hessian` of a function taking `Tangent`
/// structs are made from: like `_vjp`, they call the flat function's item
/// at the fields' values, a struct's tangent or direction read field by
/// field as the struct is, and assemble each struct's gradient and H·v
/// from the adjoints of the fields read.
struct Forward<'a> {
    name: &'a syn::Ident,
    vis: &'a syn::Visibility,
    float: &'a TokenStream,
    args: &'a [Arg],
    others: &'a [Option<sig::Param>],
    reads: &'a [Read],
    slot_tys: &'a [Option<TokenStream>],
    inputs: &'a [&'a FnArg],
    ret: &'a Type,
    nested: &'a TokenStream,
    flat_path: &'a TokenStream,
    /// The fields' values and the constant fields' values, as `_vjp`
    /// passes them.
    values: [&'a [TokenStream]; 2],
    /// The structs passed on whole (`jvp` only), and their values as
    /// `_vjp` passes them.
    wholes: &'a [(syn::Ident, Vec<syn::Ident>)],
    whole_values: &'a [TokenStream],
    other_values: &'a [&'a syn::Ident],
    is_method: bool,
    /// The trait of a trait impl, whose function as written is
    /// `<Self as Trait>::f`.
    trait_: Option<&'a syn::Path>,
}

impl Forward<'_> {
    fn path(&self, suffix: &str) -> TokenStream {
        let n = if suffix.is_empty() {
            self.name.clone()
        } else {
            format_ident!("{}_{}", self.name, suffix)
        };
        if let (true, Some(trait_)) = (suffix.is_empty(), self.trait_) {
            quote!(<Self as #trait_>::#n)
        } else if self.is_method {
            quote!(Self::#n)
        } else {
            quote!(#n)
        }
    }

    /// A parameter name `{prefix}_{arg}` for each differentiable argument
    /// (lengthened while an argument has it), with its type: `&S` for a
    /// struct, `ty(param)` for another argument.
    fn params(
        &self,
        prefix: &str,
        ty: fn(&sig::Param) -> Option<TokenStream>,
    ) -> Vec<Option<(syn::Ident, TokenStream)>> {
        let taken: Vec<String> = self.args.iter().map(|a| a.ident.to_string()).collect();
        self.args
            .iter()
            .zip(self.others)
            .zip(self.slot_tys)
            .map(|((a, other), slot)| {
                slot.as_ref()?;
                let mut n = format!("{prefix}_{}", a.ident);
                while taken.contains(&n) {
                    n.push('_');
                }
                let ident = syn::Ident::new(&n, Span::mixed_site());
                let t = match &a.kind {
                    ArgKind::Struct { ty, .. } => quote!(&#ty),
                    ArgKind::Other { .. } => ty(other.as_ref()?)?,
                };
                Some((ident, t))
            })
            .collect()
    }

    /// Each struct's tangent (or direction) with its constant fields set to
    /// zero, bound to `{base}`-named locals; the flat function's tangents of
    /// the fields read, then those of the other arguments.
    fn flat_tangents(
        &self,
        params: &[Option<(syn::Ident, TokenStream)>],
        local: &str,
    ) -> (Vec<TokenStream>, Vec<TokenStream>) {
        let mixed = Span::mixed_site();
        let float = self.float;
        let local_of = |base: &syn::Ident| format_ident!("__ad_{}_{}", local, base, span = mixed);
        let mut lets = Vec::new();
        for (a, p) in self.args.iter().zip(params) {
            if let (ArgKind::Struct { ty, .. }, Some((t, _))) = (&a.kind, p) {
                let l = local_of(&a.ident);
                lets.push(quote_spanned! {mixed=>
                    let mut #l = ::core::clone::Clone::clone(#t);
                    <#ty as ::autograd::TangentStruct>::__zero_constants(&mut #l);
                });
            }
        }
        let mut tangents: Vec<TokenStream> = self
            .reads
            .iter()
            .map(|r| {
                let (l, path) = (local_of(&r.base), &r.path);
                let span = path.last().map_or(r.base.span(), |f| f.span());
                match r.kind {
                    ReadKind::Scalar => quote_spanned!(span=>
                        ::autograd::__private::float_field::<#float, _>(#l #(.#path)*)
                    ),
                    ReadKind::Elements => quote_spanned!(span=>
                        ::autograd::__private::collection_field(&#l #(.#path)*)
                    ),
                    ReadKind::Matrix => quote_spanned!(span=>
                        &::autograd::__private::matrix_field(&#l #(.#path)*)
                    ),
                }
            })
            .collect();
        // A struct passed on whole: its tangent's differentiable fields,
        // flattened.
        for (base, path) in self.wholes {
            let l = local_of(base);
            tangents.push(
                quote_spanned!(mixed=> &::autograd::__private::flatten_struct(&#l #(.#path)*)),
            );
        }
        for (a, p) in self.args.iter().zip(params) {
            if let (ArgKind::Other { .. }, Some((t, _))) = (&a.kind, p) {
                tangents.push(t.to_token_stream());
            }
        }
        (lets, tangents)
    }

    /// `NAME_jvp(args.., tangents..) -> (value, tangent)`: a struct's tangent
    /// is `&S`, its constant fields ignored.
    fn jvp(&self) -> TokenStream {
        let mixed = Span::mixed_site();
        let (name, vis, inputs, ret, nested, flat_path) = (
            self.name,
            self.vis,
            self.inputs,
            self.ret,
            self.nested,
            self.flat_path,
        );
        let params = self.params("t", crate::emit::tangent::tangent_ty);
        let (lets, tangents) = self.flat_tangents(&params, "t");
        let (pnames, ptys): (Vec<_>, Vec<_>) = params.into_iter().flatten().unzip();
        let [fields, casts] = self.values;
        let wholes = self.whole_values;
        let others = self.other_values;
        let primal = self.path("");
        let jvp = format_ident!("{}_jvp", name);
        let doc = format!(
            " The value of [`{name}`] and its directional derivative along the tangents, one per differentiable argument in argument order (a `Tangent` struct's is the struct, its constant fields ignored).\n\n Generated by `#[differentiable(jvp)]`: one forward sweep."
        );
        quote_spanned! {mixed=>
            #[doc = #doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn #jvp(#(#inputs,)* #(#pnames: #ptys),*) -> (#ret, #ret) {
                #nested
                let _ = #primal;
                #(#lets)*
                #flat_path::#jvp(#(#fields,)* #(#casts,)* #(#wholes,)* #(#others,)* #(#tangents),*)
            }
        }
    }

    /// The struct adjoints' starts, the additions of the fields' adjoints
    /// `grads` into them and the constants set back, into `slots`.
    fn assemble(&self, slots: &[syn::Ident], grads: &[syn::Ident]) -> TokenStream {
        let mixed = Span::mixed_site();
        let float = self.float;
        let mut out = TokenStream::new();
        for (a, slot) in self.args.iter().zip(slots) {
            if let ArgKind::Struct { ty, by_ref } = &a.kind {
                let x = &a.ident;
                let at = if *by_ref { quote!(#x) } else { quote!(&#x) };
                out.extend(quote_spanned!(mixed=> let mut #slot = <#ty as ::autograd::TangentStruct>::zero_adjoint(#at);));
            }
        }
        for (r, g) in self.reads.iter().zip(grads) {
            let i = self
                .args
                .iter()
                .position(|a| a.ident == r.base)
                .expect("a struct argument");
            let (slot, path) = (&slots[i], &r.path);
            let span = path.last().map_or(r.base.span(), |f| f.span());
            out.extend(match r.kind {
                ReadKind::Scalar => quote_spanned!(span=>
                    ::autograd::__private::add_float_field::<#float, _>(&mut #slot #(.#path)*, #g);
                ),
                ReadKind::Elements => quote_spanned!(span=>
                    ::autograd::__private::add_to_collection(&mut #slot #(.#path)*, &#g);
                ),
                ReadKind::Matrix => quote_spanned!(span=>
                    ::autograd::__private::add_to_collection(&mut #slot #(.#path)*, #g.as_slice());
                ),
            });
        }
        for (a, slot) in self.args.iter().zip(slots) {
            if let ArgKind::Struct { ty, by_ref } = &a.kind
                && self.reads.iter().any(|r| r.base == a.ident)
            {
                let x = &a.ident;
                let at = if *by_ref { quote!(#x) } else { quote!(&#x) };
                out.extend(quote_spanned!(mixed=> <#ty as ::autograd::TangentStruct>::__restore_constants(&mut #slot, #at);));
            }
        }
        out
    }

    /// `NAME_hvp(args.., directions..) -> (value, g.., h..)`: a struct's
    /// direction is `&S` (its constant fields ignored), its gradient and
    /// H·v are `S` (constant fields cloned from the argument).
    fn hvp(&self) -> TokenStream {
        let mixed = Span::mixed_site();
        let (name, vis, inputs, ret, nested, flat_path) = (
            self.name,
            self.vis,
            self.inputs,
            self.ret,
            self.nested,
            self.flat_path,
        );
        let params = self.params("v", crate::emit::hessian::direction_ty);
        let (lets, directions) = self.flat_tangents(&params, "v");
        let (pnames, ptys): (Vec<_>, Vec<_>) = params.into_iter().flatten().unzip();
        let [fields, casts] = self.values;
        let others = self.other_values;
        let local = |prefix: &str, n: usize| -> Vec<syn::Ident> {
            (0..n)
                .map(|i| format_ident!("__ad_{}{}", prefix, i, span = mixed))
                .collect()
        };
        let n = self.args.len();
        let (g_slots, h_slots) = (local("g", n), local("h", n));
        let (g_fields, h_fields) = (
            local("gfield", self.reads.len()),
            local("hfield", self.reads.len()),
        );
        // The other differentiable arguments' results go to their slots.
        let other_slots = |slots: &[syn::Ident]| -> Vec<syn::Ident> {
            self.args
                .iter()
                .zip(slots)
                .zip(self.slot_tys)
                .filter(|((a, _), t)| matches!(a.kind, ArgKind::Other { .. }) && t.is_some())
                .map(|((_, s), _)| s.clone())
                .collect()
        };
        let kept = |slots: &[syn::Ident]| -> Vec<syn::Ident> {
            slots
                .iter()
                .zip(self.slot_tys)
                .filter(|(_, t)| t.is_some())
                .map(|(s, _)| s.clone())
                .collect()
        };
        let (g_other, h_other) = (other_slots(&g_slots), other_slots(&h_slots));
        let (g_kept, h_kept) = (kept(&g_slots), kept(&h_slots));
        let g_assemble = self.assemble(&g_slots, &g_fields);
        let h_assemble = self.assemble(&h_slots, &h_fields);
        let tys: Vec<&TokenStream> = self.slot_tys.iter().flatten().collect();
        let primal = self.path("");
        let hvp = format_ident!("{}_hvp", name);
        let doc = format!(
            " The value of [`{name}`], its gradient and the Hessian-vector product `H·v`: one direction per differentiable argument, in argument order (a `Tangent` struct's is the struct, its constant fields ignored); returns the value, one gradient entry per differentiable argument, then one `H·v` entry per differentiable argument (a struct's are the struct, its constant fields the argument's).\n\n Generated by `#[differentiable(hessian)]`: forward over reverse, one call."
        );
        quote_spanned! {mixed=>
            #[doc = #doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn #hvp(#(#inputs,)* #(#pnames: #ptys),*) -> (#ret, #(#tys,)* #(#tys),*) {
                #nested
                let _ = #primal;
                #(#lets)*
                let (__ad_value, #(#g_fields,)* #(#g_other,)* #(#h_fields,)* #(#h_other,)*) =
                    #flat_path::#hvp(#(#fields,)* #(#casts,)* #(#others,)* #(#directions),*);
                #g_assemble
                #h_assemble
                (__ad_value, #(#g_kept,)* #(#h_kept),*)
            }
        }
    }

    /// `NAME_hessian(args..) -> (f64, DVector<f64>, DMatrix<f64>)` over the
    /// flattened differentiable arguments (a struct its differentiable
    /// fields in declaration order): column j is `NAME_hvp` along input j.
    fn hessian(&self) -> TokenStream {
        let mixed = Span::mixed_site();
        let (name, vis, inputs) = (self.name, self.vis, self.inputs);
        let p = quote!(::autograd::__private);
        let n = self.args.len();
        let local = |prefix: &str| -> Vec<syn::Ident> {
            (0..n)
                .map(|i| format_ident!("__ad_{}{}", prefix, i, span = mixed))
                .collect()
        };
        let (lens, offsets, gs, hs) = (local("len"), local("offset"), local("g"), local("h"));
        let mut setup = Vec::new();
        let mut dirs = Vec::new();
        let mut total = vec![quote!(0usize)];
        let mut flatten_g = Vec::new();
        let mut flatten_h = Vec::new();
        let mut call_args = Vec::new();
        for (i, (a, other)) in self.args.iter().zip(self.others).enumerate() {
            let x = &a.ident;
            let by_value = match &a.kind {
                ArgKind::Struct { by_ref, .. } => !by_ref,
                ArgKind::Other { by_value_clone } => {
                    *by_value_clone
                        && !matches!(
                            other.as_ref().map(|p| &p.kind),
                            Some(ParamKind::Float(_) | ParamKind::Int | ParamKind::Bool)
                        )
                }
            };
            call_args.push(if by_value {
                quote!(::core::clone::Clone::clone(&#x))
            } else {
                quote!(#x)
            });
            if self.slot_tys[i].is_none() {
                continue;
            }
            let (len, offset, g, h) = (&lens[i], &offsets[i], &gs[i], &hs[i]);
            let sum = total.clone();
            setup.push(quote_spanned!(mixed=> let #offset: usize = #(#sum)+*;));
            match &a.kind {
                ArgKind::Struct { ty, by_ref } => {
                    let at = if *by_ref { quote!(#x) } else { quote!(&#x) };
                    setup.push(quote_spanned! {mixed=>
                        let #len: usize = {
                            let mut __ad_row = #p::Vec::new();
                            <#ty as ::autograd::TangentStruct>::__flatten_into(#at, &mut __ad_row);
                            __ad_row.len()
                        };
                    });
                    dirs.push(quote_spanned! {mixed=>
                        &<#ty as ::autograd::TangentStruct>::__from_flat(#at, &mut &#p::unit_slice::<f64>(#len, __ad_j, #offset)[..])
                    });
                    flatten_g.push(quote_spanned!(mixed=> <#ty as ::autograd::TangentStruct>::__flatten_into(&#g, &mut __ad_column);));
                    flatten_h.push(quote_spanned!(mixed=> <#ty as ::autograd::TangentStruct>::__flatten_into(&#h, &mut __ad_column);));
                }
                ArgKind::Other { .. } => {
                    let Some(param) = other else { continue };
                    match &param.kind {
                        ParamKind::Float(_) => {
                            setup.push(quote_spanned!(mixed=> let #len: usize = 1;));
                            dirs.push(
                                quote_spanned!(mixed=> #p::unit_scalar::<f64>(__ad_j, #offset)),
                            );
                        }
                        // A slice, or a `Vec<f64>` by value.
                        ParamKind::Slice(_) | ParamKind::Array { .. } => {
                            setup.push(quote_spanned!(mixed=> let #len: usize = #x.len();));
                            dirs.push(quote_spanned!(mixed=> &#p::unit_slice::<f64>(#len, __ad_j, #offset)));
                        }
                        ParamKind::Matrix { by_ref, .. } => {
                            let m = if *by_ref { quote!(#x) } else { quote!(&#x) };
                            setup.push(quote_spanned!(mixed=> let #len: usize = #x.len();));
                            dirs.push(
                                quote_spanned!(mixed=> &#p::unit_matrix(#m, __ad_j, #offset)),
                            );
                        }
                        _ => continue,
                    }
                    flatten_g.push(quote_spanned!(mixed=> #p::push_flat(&mut __ad_column, #g);));
                    flatten_h.push(quote_spanned!(mixed=> #p::push_flat(&mut __ad_column, #h);));
                }
            }
            total.push(len.to_token_stream());
        }
        let kept: Vec<&syn::Ident> = gs
            .iter()
            .zip(self.slot_tys)
            .filter(|(_, t)| t.is_some())
            .map(|(s, _)| s)
            .collect();
        let kept_h: Vec<&syn::Ident> = hs
            .iter()
            .zip(self.slot_tys)
            .filter(|(_, t)| t.is_some())
            .map(|(s, _)| s)
            .collect();
        let names: Vec<&syn::Ident> = self.args.iter().map(|a| &a.ident).collect();
        let (primal, hvp) = (self.path(""), self.path("hvp"));
        let hessian = format_ident!("{}_hessian", name);
        let doc = format!(
            " The value of [`{name}`], its gradient and its Hessian, over the differentiable arguments flattened in argument order (a `Tangent` struct its differentiable fields in declaration order, a collection its elements).\n\n Generated by `#[differentiable(hessian)]`: column j is `{name}_hvp` along input j."
        );
        quote_spanned! {mixed=>
            #[doc = #doc]
            #[allow(clippy::too_many_arguments)]
            #vis fn #hessian(#(#inputs),*) -> (f64, ::autograd::nalgebra::DVector<f64>, ::autograd::nalgebra::DMatrix<f64>) {
                #(#setup)*
                let __ad_n: usize = #(#total)+*;
                let mut __ad_grad = ::autograd::nalgebra::DVector::<f64>::zeros(__ad_n);
                let mut __ad_hessian = ::autograd::nalgebra::DMatrix::<f64>::zeros(__ad_n, __ad_n);
                let mut __ad_value = ::core::option::Option::None;
                for __ad_j in 0..__ad_n {
                    let (__ad_v, #(#kept,)* #(#kept_h),*) = #hvp(#(#call_args,)* #(#dirs),*);
                    if __ad_j == 0 {
                        let mut __ad_column = #p::Vec::with_capacity(__ad_n);
                        #(#flatten_g)*
                        __ad_grad = ::autograd::nalgebra::DVector::from_vec(__ad_column);
                    }
                    __ad_value = ::core::option::Option::Some(__ad_v);
                    let mut __ad_column = #p::Vec::with_capacity(__ad_n);
                    #(#flatten_h)*
                    __ad_hessian.set_column(__ad_j, &::autograd::nalgebra::DVector::from_vec(__ad_column));
                }
                let __ad_value = match __ad_value {
                    ::core::option::Option::Some(v) => v,
                    ::core::option::Option::None => #primal(#(#names),*),
                };
                (__ad_value, __ad_grad, __ad_hessian)
            }
        }
    }
}
