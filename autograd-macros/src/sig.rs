//! The function's signature: which arguments are differentiable and what
//! their adjoints are.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{FnArg, Pat, ReturnType, Type};

use crate::ctxt::{Ctxt, type_text};

// The second-order twin's names (see `crate::hessian`): the signature
// reads the twin's scalar, lowering its name, the hvp calls its gradient.

/// The twin's scalar type parameter.
pub fn scalar_param() -> syn::Ident {
    syn::Ident::new("__AdScalar", proc_macro2::Span::call_site())
}

/// The signature of the scalar function a `map` closure's body is: one
/// element `param` in (then the floats of the enclosing function it reads
/// that may carry a derivative, `inputs`), one out, of `f64` or of the
/// twin's scalar `elem`.
/// Lowering reads the closure's body under it; emission writes the
/// closure's VJP with its parameter.
pub fn map_element_sig(
    param: &syn::Ident,
    inputs: &[syn::Ident],
    elem: &syn::Ident,
    span: proc_macro2::Span,
) -> syn::Signature {
    if elem == "f64" {
        syn::parse_quote_spanned!(span=> fn __ad_map(#param: f64 #(, #inputs: f64)*) -> f64)
    } else {
        syn::parse_quote_spanned! {span=>
            fn __ad_map<#elem: ::autograd::__private::Float>(#param: #elem #(, #inputs: #elem)*) -> #elem
        }
    }
}

/// What the name of a function's twin starts with.
pub const TWIN_PREFIX: &str = "__ad_hessian_";

/// The name of `func`'s twin, resolved where `func` is.
pub fn twin_name(func: &syn::Ident) -> syn::Ident {
    let name = func.to_string();
    quote::format_ident!(
        "{TWIN_PREFIX}{}",
        name.trim_start_matches("r#"),
        span = func.span()
    )
}

/// `f32`, `f64`, or the function's scalar type parameter.
#[derive(Clone)]
pub struct FloatTy(pub syn::Ident);

impl FloatTy {
    fn parse(ty: &Type, scalar: Option<&syn::Ident>) -> Option<FloatTy> {
        let Type::Path(p) = ty else { return None };
        let ident = p.path.get_ident()?;
        (p.qself.is_none() && (ident == "f64" || ident == "f32" || Some(ident) == scalar))
            .then(|| FloatTy(ident.clone()))
    }
}

/// What bounds a generic function's scalar type parameter.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum ScalarBound {
    /// `num_traits::Float`: the runtime's rules take it as it is.
    Float,
    /// `nalgebra::RealField`: the generated items also ask for `Float`.
    RealField,
    /// A second-order twin's `Float + MatrixScalar` of a function taking
    /// matrices, set by the twin's expansion (never parsed from a user's
    /// bound): its matrices lack the nalgebra methods of a complex field.
    DualMatrices,
}

/// The type parameter a generic function computes in (`T` of
/// `fn f<T: Float>(x: T) -> T`).
#[derive(Clone)]
pub struct GenericScalar {
    pub ident: syn::Ident,
    pub bound: ScalarBound,
    /// The second-order twin's scalar (set by the twin's expansion): its
    /// `#[constant]` data keeps the user's types, so a float read from it
    /// is converted where it meets the scalar.
    pub twin: bool,
}

impl ToTokens for FloatTy {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        self.0.to_tokens(tokens);
    }
}

#[derive(Clone)]
pub enum ParamKind {
    /// `f32` / `f64`.
    Float(FloatTy),
    /// `&[f32|f64]` or `&Vec<f32|f64>`.
    Slice(FloatTy),
    /// Integers: constant by nature.
    Int,
    /// `bool`: constant by nature.
    Bool,
    /// nalgebra `DMatrix<f64>` / `DVector<f64>`, or a fixed-size
    /// `SMatrix<f64, R, C>` (`Vector3<f64>`, `Matrix2x3<f64>`, ...), by
    /// value or by reference.
    Matrix {
        owned: Box<Type>,
        by_ref: bool,
        vector: bool,
        fixed: bool,
    },
    /// `[f32|f64; N]`, `&[f32|f64; N]` or `Vec<f32|f64>`: read (and, owned,
    /// written) by index; the adjoint is `owned`.
    Array {
        elem: FloatTy,
        owned: Box<Type>,
        by_ref: bool,
    },
    /// Marked `#[constant]`, of a type the macro does not differentiate.
    Other,
}

pub use crate::ir::STACK_ARRAY_LEN;

#[derive(Clone)]
pub struct Param {
    pub ident: syn::Ident,
    pub kind: ParamKind,
    /// Gets a slot in `NAME_grad` / `NAME_vjp`.
    pub differentiable: bool,
    /// An in-out argument (`&mut f64`, `&mut [f64]`, ...): `kind` is that
    /// of its owned value (`Float`, an owned `Array` or `Matrix`), which
    /// the body reads and writes like a `mut` argument taken by value; its
    /// final value is an output of the function.
    pub inout: bool,
}

impl Param {
    /// Whether the argument's scalar (its own type, or its elements') is
    /// the type `ident`.
    pub fn scalar_is(&self, ident: &syn::Ident) -> bool {
        matches!(&self.kind, ParamKind::Float(t) | ParamKind::Slice(t) | ParamKind::Array { elem: t, .. } if t.0 == *ident)
    }

    /// Whether the argument is a fixed-size array, by reference or by
    /// value, whose adjoint the sweeps hold off the stack (on the heap,
    /// moved once into the `[f64; N]` returned, or as the caller's buffer
    /// in `NAME_grad_acc`): its length is not a literal of at most
    /// [`STACK_ARRAY_LEN`] elements (`&[f64; 40_000]`, `[f64; N]`).
    /// A debug build copies an array at every move, and a thread's stack is
    /// a few MiB; a short array stays where it costs no allocation.
    pub fn adjoint_off_stack(&self) -> bool {
        let ParamKind::Array { owned, .. } = &self.kind else {
            return false;
        };
        let Type::Array(array) = &**owned else {
            return false;
        };
        self.differentiable
            && !matches!(
                &array.len,
                syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. })
                    if n.base10_parse::<usize>().is_ok_and(|n| n <= STACK_ARRAY_LEN)
            )
    }

    /// The type of the caller's buffer `NAME_grad_acc` adds the adjoint
    /// into.
    pub fn buffer_ty(&self) -> Option<TokenStream> {
        if !self.differentiable {
            return None;
        }
        match &self.kind {
            ParamKind::Float(t) => Some(quote!(&mut #t)),
            ParamKind::Slice(t) | ParamKind::Array { elem: t, .. } => Some(quote!(&mut [#t])),
            ParamKind::Matrix { owned, .. } => Some(quote!(&mut #owned)),
            _ => None,
        }
    }

    /// The adjoint's type in the pullback's tuple.
    pub fn adjoint_ty(&self) -> Option<TokenStream> {
        if !self.differentiable {
            return None;
        }
        match &self.kind {
            ParamKind::Float(t) => Some(quote!(#t)),
            ParamKind::Slice(t) => Some(quote!(::autograd::__private::Vec<#t>)),
            ParamKind::Matrix { owned, .. } | ParamKind::Array { owned, .. } => {
                Some(owned.to_token_stream())
            }
            _ => None,
        }
    }
}

/// What the function returns.
#[derive(Clone)]
pub enum Ret {
    /// `f32` / `f64`: `NAME_grad` and `NAME_check` exist.
    Float(FloatTy),
    /// A nalgebra matrix or vector: `NAME_vjp` only.
    Matrix(Type),
    /// `Result<f64, E>` of a solver (`implicit = ..` only).
    Result { ok: FloatTy, err: Type },
    /// Several floats: `Vec<f64>`, `[f64; N]`, a tuple of floats, a
    /// `DVector<f64>` or a fixed-size column vector such as
    /// `Vector3<f64>`: `NAME_vjp` and `NAME_jacobian`.
    Outputs(Type),
    /// `()` of a function with in-out arguments, whose final values are
    /// its outputs: `NAME_vjp` only.
    Unit,
}

impl Ret {
    /// The type of the pullback's seed: the adjoint of the result.
    pub fn seed(&self) -> TokenStream {
        match self {
            Ret::Float(f) | Ret::Result { ok: f, .. } => f.to_token_stream(),
            Ret::Matrix(t) | Ret::Outputs(t) => t.to_token_stream(),
            Ret::Unit => quote::quote!(()),
        }
    }
}

/// `[f32|f64; N]`, or an array of the function's scalar type parameter
/// (`[T; N]`, and the second-order twin's `[__AdScalar; N]` of an
/// `[f64; N]` argument).
fn float_array(ty: &Type, scalar: Option<&syn::Ident>) -> Option<FloatTy> {
    match ty {
        Type::Array(a) => FloatTy::parse(&a.elem, scalar),
        _ => None,
    }
}

/// `Vec<f32|f64>`, by any path to `Vec`, or `Vec` of a second-order
/// twin's scalar (see `crate::hessian`), whose `Vec<f64>` argument it is.
fn float_vec(ty: &Type, scalar: Option<&syn::Ident>) -> Option<FloatTy> {
    vec_of(ty, scalar.filter(|s| **s == scalar_param()))
}

/// `Vec<f32|f64>` or `Vec<scalar>`, by any path to `Vec`.
fn vec_of(ty: &Type, scalar: Option<&syn::Ident>) -> Option<FloatTy> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Vec" || p.qself.is_some() {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    match args.args.first() {
        Some(syn::GenericArgument::Type(elem)) if args.args.len() == 1 => {
            FloatTy::parse(elem, scalar)
        }
        _ => None,
    }
}

/// The element type of a local's declared `[f32|f64; N]` or
/// `Vec<f32|f64>`, or of `scalar` (a generic function's `T`, the
/// second-order twin's scalar that `Vec<f64>` became).
pub fn float_collection_elem(ty: &Type, scalar: Option<&syn::Ident>) -> Option<FloatTy> {
    float_array(ty, scalar).or_else(|| vec_of(ty, scalar))
}

/// The longest tuple result (the runtime's `jacobian::Outputs` has an
/// implementation per length).
const MAX_TUPLE_OUTPUTS: usize = 8;

/// A return type of several floats: `Vec<f64>`, `[f64; N]`, a tuple of
/// two or more floats of one type, `DVector<f64>` or a fixed-size column
/// vector (`SVector<f64, N>`, `Vector3<f64>`).
pub fn outputs(ty: &Type) -> bool {
    outputs_of(ty, None)
}

/// [`outputs`], of the scalar `scalar` of a generic function too
/// (`Vec<T>`, `[T; N]`, `(T, T)`).
fn outputs_of(ty: &Type, scalar: Option<&syn::Ident>) -> bool {
    match ty {
        Type::Tuple(t) => {
            let elems: Vec<_> = t.elems.iter().map(|e| FloatTy::parse(e, scalar)).collect();
            (2..=MAX_TUPLE_OUTPUTS).contains(&elems.len())
                && elems.iter().all(|e| {
                    e.as_ref()
                        .is_some_and(|e| elems[0].as_ref().is_some_and(|first| first.0 == e.0))
                })
        }
        ty => {
            float_array(ty, scalar).is_some()
                || vec_of(ty, scalar).is_some()
                || (scalar.is_none() && is_matrix(ty) && (is_vector(ty) || is_fixed_column(ty)))
        }
    }
}

/// `Result<f32|f64, E>`.
fn result_of_float(ty: &Type, scalar: Option<&syn::Ident>) -> Option<(FloatTy, Type)> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    if last.ident != "Result" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return None;
    };
    let mut types = args.args.iter().filter_map(|a| match a {
        syn::GenericArgument::Type(t) => Some(t),
        _ => None,
    });
    let ok = FloatTy::parse(types.next()?, scalar)?;
    let err = types.next()?.clone();
    Some((ok, err))
}

#[derive(Clone)]
pub struct Signature {
    pub params: Vec<Param>,
    /// The return type, which is also the seed's type.
    pub ret: Ret,
    /// The scalar type parameter of a generic function.
    pub scalar: Option<GenericScalar>,
}

impl Signature {
    /// Whether the function takes in-out (`&mut`) arguments.
    pub fn has_inout(&self) -> bool {
        self.params.iter().any(|p| p.inout)
    }
}

const INTEGERS: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

const SUPPORTED_ARGS: &str = "supported: `f64`, `f32`, `&[f64]`, `&[f32]`, `&Vec<f64>`, `&Vec<f32>`, `Vec<f64>`, `Vec<f32>`, `[f64; N]`, `[f32; N]` (by value or reference), `DMatrix<f64>`, `DVector<f64>` and fixed-size nalgebra types of `f64` such as `Vector3<f64>`, `SMatrix<f64, R, C>` (by value or reference), integers and `bool`; mark any other argument `#[constant]`";

const SUPPORTED_RETURNS: &str = "`f64`, `f32`, `Vec<f64>`, `[f64; N]`, a tuple of floats such as `(f64, f64)`, `DVector<f64>`, `DMatrix<f64>` or a fixed-size nalgebra type such as `Vector3<f64>`, `SMatrix<f64, R, C>` (also with `f32` in place of `f64`, but the nalgebra types)";

pub fn is_vector(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "DVector"))
}

/// A fixed-size nalgebra type's name: `SMatrix`, `SVector`, `RowSVector`,
/// and the aliases `Matrix3`, `Matrix2x3`, `Vector3`, `RowVector3` (sizes
/// 1 to 6).
pub(crate) fn is_fixed_name(name: &str) -> bool {
    let size = |d: &str| matches!(d, "1" | "2" | "3" | "4" | "5" | "6");
    let shape = |rest: &str| match rest.split_once('x') {
        Some((r, c)) => size(r) && size(c),
        None => size(rest),
    };
    matches!(name, "SMatrix" | "SVector" | "RowSVector")
        || name.strip_prefix("Matrix").is_some_and(shape)
        || name.strip_prefix("Vector").is_some_and(size)
        || name.strip_prefix("RowVector").is_some_and(size)
}

/// A fixed-size nalgebra type of `f64` (see [`is_fixed_name`]).
fn is_fixed(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| is_fixed_name(&s.ident.to_string())))
        && is_matrix(ty)
}

/// A fixed-size column vector's name: `SVector` or `Vector1`..`Vector6`
/// (its Jacobian's rows are its entries).
pub fn is_fixed_column(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| {
        let name = s.ident.to_string();
        name == "SVector" || (name.starts_with("Vector") && is_fixed_name(&name))
    }))
}

/// `DMatrix<f64>`, `DVector<f64>` or a fixed-size nalgebra type of `f64`,
/// by any path (`nalgebra::DMatrix<f64>`).
pub fn is_matrix(ty: &Type) -> bool {
    is_matrix_of(ty, None)
}

/// `DMatrix<E>` or `DVector<E>` (or a fixed-size type) of `f64`, or of
/// the scalar of a second-order twin (`DMatrix<__AdScalar>`, see
/// `crate::hessian`): the only generic scalar a matrix takes.
fn is_matrix_of(ty: &Type, scalar: Option<&syn::Ident>) -> bool {
    let twin_scalar = scalar.filter(|s| **s == scalar_param());
    let Type::Path(p) = ty else { return false };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    if last.ident != "DMatrix" && last.ident != "DVector" && !is_fixed_name(&last.ident.to_string())
    {
        return false;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    matches!(args.args.first(), Some(syn::GenericArgument::Type(t)) if matches!(t, Type::Path(e)
        if e.path.is_ident("f64") || twin_scalar.is_some_and(|s| e.path.is_ident(s))))
}

/// `&[DVector<f64>]`, `&Vec<DVector<f64>>`, `Vec<DMatrix<f64>>`, ...: a
/// slice or `Vec` of nalgebra values, which has no adjoint yet.
fn is_batch_of_matrices(ty: &Type) -> bool {
    let ty = match ty {
        Type::Reference(r) => &*r.elem,
        ty => ty,
    };
    match ty {
        Type::Slice(s) => is_matrix(&s.elem),
        Type::Path(p) => p.path.segments.last().is_some_and(|s| {
            s.ident == "Vec"
                && matches!(&s.arguments, syn::PathArguments::AngleBracketed(a)
                    if matches!(a.args.first(), Some(syn::GenericArgument::Type(t)) if is_matrix(t)))
        }),
        _ => false,
    }
}

/// The kind of an in-out argument `&mut elem`: that of its owned value,
/// which the generated code copies in and writes back (see
/// [`Param::inout`]). `None`: not supported as an in-out argument.
fn inout_kind(elem: &Type, scalar: Option<&syn::Ident>) -> Option<ParamKind> {
    if let Type::Slice(s) = elem {
        let f = FloatTy::parse(&s.elem, scalar)?;
        let e = &s.elem;
        return Some(ParamKind::Array {
            elem: f,
            owned: Box::new(syn::parse_quote!(::std::vec::Vec<#e>)),
            by_ref: false,
        });
    }
    match classify(elem, scalar)? {
        k @ (ParamKind::Float(_)
        | ParamKind::Array { by_ref: false, .. }
        | ParamKind::Matrix {
            by_ref: false,
            fixed: false,
            ..
        }) => Some(k),
        _ => None,
    }
}

fn classify(ty: &Type, scalar: Option<&syn::Ident>) -> Option<ParamKind> {
    if let Some(f) = FloatTy::parse(ty, scalar) {
        return Some(ParamKind::Float(f));
    }
    if let Some(elem) = float_array(ty, scalar).or_else(|| float_vec(ty, scalar)) {
        return Some(ParamKind::Array {
            elem,
            owned: Box::new(ty.clone()),
            by_ref: false,
        });
    }
    if let Type::Reference(r) = ty
        && r.mutability.is_none()
        && let Some(elem) = float_array(&r.elem, scalar)
    {
        return Some(ParamKind::Array {
            elem,
            owned: r.elem.clone(),
            by_ref: true,
        });
    }
    if is_matrix_of(ty, scalar) {
        return Some(ParamKind::Matrix {
            owned: Box::new(ty.clone()),
            by_ref: false,
            vector: is_vector(ty),
            fixed: is_fixed(ty),
        });
    }
    if let Type::Reference(r) = ty
        && r.mutability.is_none()
        && is_matrix_of(&r.elem, scalar)
    {
        return Some(ParamKind::Matrix {
            owned: r.elem.clone(),
            by_ref: true,
            vector: is_vector(&r.elem),
            fixed: is_fixed(&r.elem),
        });
    }
    if let Type::Path(p) = ty {
        let ident = p.path.get_ident()?;
        if INTEGERS.iter().any(|i| ident == i) {
            return Some(ParamKind::Int);
        }
        if ident == "bool" {
            return Some(ParamKind::Bool);
        }
        return None;
    }
    if let Type::Reference(r) = ty {
        if r.mutability.is_some() {
            return None;
        }
        match &*r.elem {
            Type::Slice(s) => return FloatTy::parse(&s.elem, scalar).map(ParamKind::Slice),
            Type::Path(p) => {
                let last = p.path.segments.last()?;
                if last.ident != "Vec" {
                    return None;
                }
                let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                    return None;
                };
                let Some(syn::GenericArgument::Type(elem)) = args.args.first() else {
                    return None;
                };
                return FloatTy::parse(elem, scalar).map(ParamKind::Slice);
            }
            _ => {}
        }
    }
    None
}

/// Whether an argument carries `#[constant]`.
pub fn is_constant_attr(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("constant")
}

const LINTS: &[&str] = &["allow", "warn", "deny", "forbid", "expect"];

/// `cfg_attr(predicate, attrs..)` split into its predicate and attributes.
pub(crate) fn cfg_attr_parts(meta: &syn::Meta) -> Option<(syn::Meta, Vec<syn::Meta>)> {
    let syn::Meta::List(list) = meta else {
        return None;
    };
    if !list.path.is_ident("cfg_attr") {
        return None;
    }
    list.parse_args_with(|input: syn::parse::ParseStream| {
        let predicate: syn::Meta = input.parse()?;
        input.parse::<syn::Token![,]>()?;
        let attrs =
            syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated(input)?;
        Ok((predicate, attrs.into_iter().collect()))
    })
    .ok()
}

/// A lint attribute (`allow`, `warn`, `deny`, `forbid`, `expect`), possibly
/// inside `cfg_attr`: kept on the user's function and on the generated ones.
fn is_lint(meta: &syn::Meta) -> bool {
    if LINTS.iter().any(|l| meta.path().is_ident(l)) {
        return true;
    }
    cfg_attr_parts(meta).is_some_and(|(_, attrs)| attrs.iter().all(is_lint))
}

/// Whether an argument's attribute is a lint attribute (see [`is_lint`]).
pub fn is_lint_attr(attr: &syn::Attribute) -> bool {
    is_lint(&attr.meta)
}

/// A lint attribute as the generated functions carry it: `expect` becomes
/// `allow`, since a generated function may well not trigger the lint.
fn lint_for_generated(meta: &syn::Meta) -> syn::Meta {
    if meta.path().is_ident("expect")
        && let syn::Meta::List(list) = meta
    {
        let mut list = list.clone();
        let span = list.path.segments[0].ident.span();
        list.path = syn::Ident::new("allow", span).into();
        return syn::Meta::List(list);
    }
    match cfg_attr_parts(meta) {
        Some((predicate, attrs)) => {
            let attrs = attrs.iter().map(lint_for_generated);
            let path = meta.path();
            syn::parse_quote!(#path(#predicate, #(#attrs),*))
        }
        None => meta.clone(),
    }
}

/// The attributes of an argument that the generated functions keep: its
/// lint attributes (`#[constant]` means nothing there).
pub fn generated_param_attrs(attrs: &[syn::Attribute]) -> Vec<syn::Attribute> {
    attrs
        .iter()
        .filter(|a| is_lint(&a.meta))
        .map(|a| syn::Attribute {
            meta: lint_for_generated(&a.meta),
            ..a.clone()
        })
        .collect()
}

/// Reads the signature, reporting everything the macro cannot handle.
/// `fallible`: the function is a solver, and may return `Result<f64, E>`.
pub fn parse(cx: &Ctxt, sig: &syn::Signature, fallible: bool) -> Option<Signature> {
    let before = cx.has_errors();
    if let Some(c) = &sig.constness {
        cx.error_spanned_by(c, "`const fn` cannot be `#[differentiable]`");
    }
    if let Some(a) = &sig.asyncness {
        cx.error_spanned_by(a, "`async fn` cannot be `#[differentiable]`");
    }
    if let syn::Safety::Unsafe(u) = &sig.safety {
        cx.error_spanned_by(u, "`unsafe fn` cannot be `#[differentiable]`");
    }
    if let Some(abi) = &sig.abi {
        cx.error_spanned_by(abi, "`extern fn` cannot be `#[differentiable]`");
    }
    let scalar = generic_scalar(cx, &sig.generics);
    let scalar_ident = scalar.as_ref().map(|s| &s.ident);
    if let Some(v) = &sig.variadic {
        cx.error_spanned_by(v, "variadic functions cannot be `#[differentiable]`");
    }

    let mut params = Vec::new();
    for arg in &sig.inputs {
        let FnArg::Typed(pt) = arg else {
            cx.error_spanned_by(
                arg,
                "methods cannot be `#[differentiable]`; write a free function",
            );
            continue;
        };
        let constant = pt.attrs.iter().any(is_constant_attr);
        for attr in pt
            .attrs
            .iter()
            .filter(|a| !is_constant_attr(a) && !is_lint(&a.meta))
        {
            cx.error_spanned_by(
                attr,
                "unsupported attribute on an argument; supported: `#[constant]` and lint attributes (`allow`, `warn`, `deny`, `forbid`, `expect`, also under `cfg_attr`)",
            );
        }
        let ident = match &*pt.pat {
            Pat::Ident(pi) if pi.by_ref.is_none() && pi.subpat.is_none() => pi.ident.clone(),
            other => {
                cx.error_spanned_by(
                    other,
                    "unsupported argument pattern; write a plain name such as `x: f64`",
                );
                continue;
            }
        };
        let inout = match &*pt.ty {
            Type::Reference(r) if r.mutability.is_some() => {
                match inout_kind(&r.elem, scalar_ident) {
                    Some(_) if constant => {
                        cx.error_spanned_by(
                            &pt.ty,
                            format!("a `#[constant]` argument is read only; take it by shared reference, `#[constant] {ident}: &{}`", type_text(&r.elem)),
                        );
                        continue;
                    }
                    Some(kind) => Some(kind),
                    None if is_struct_type(&r.elem, &sig.generics) => {
                        cx.error_spanned_by(
                            &pt.ty,
                            format!(
                                "a struct is not an in-out argument yet; hold the state in a `&mut [f64; N]`, `&mut Vec<f64>` or `&mut DVector<f64>`, or take `{ident}: &{0}` and return what changes",
                                type_text(&r.elem)
                            ),
                        );
                        continue;
                    }
                    // `&mut Vec<T>`, `&mut DVector<T>`: a function generic
                    // over its scalar takes neither by value either.
                    None if scalar_ident.is_some()
                        && mentions_type_param(&r.elem, &sig.generics) =>
                    {
                        let t = scalar_ident.map(ToString::to_string).unwrap_or_default();
                        cx.error_spanned_by(
                            &pt.ty,
                            format!(
                                "an in-out argument of type `{}` is not supported in a function generic over its scalar; take `{ident}: &mut [{t}]` (a caller's `Vec<{t}>` passes as `&mut v`, its length kept) or `&mut [{t}; N]`, or write the function for `f64`, where `&mut Vec<f64>`, `&mut DVector<f64>` and `&mut DMatrix<f64>` are in-out arguments",
                                type_text(&pt.ty)
                            ),
                        );
                        continue;
                    }
                    None => {
                        cx.error_spanned_by(
                            &pt.ty,
                            format!(
                                "an in-out argument of type `{}` is not supported; supported: `&mut f64`, `&mut [f64]`, `&mut Vec<f64>`, `&mut [f64; N]`, `&mut DVector<f64>` and `&mut DMatrix<f64>` (also of `f32`); take any other argument by value or shared reference and return the new value",
                                type_text(&pt.ty)
                            ),
                        );
                        continue;
                    }
                }
            }
            _ => None,
        };
        let is_inout = inout.is_some();
        let kind = match inout.or_else(|| classify(&pt.ty, scalar_ident)) {
            Some(k) => k,
            None if constant => ParamKind::Other,
            // Reported at the generics already.
            None if mentions_type_param(&pt.ty, &sig.generics) => continue,
            None if is_batch_of_matrices(&pt.ty) => {
                cx.error_spanned_by(
                    &pt.ty,
                    format!(
                        "a differentiable argument of type `{}` (a batch of vectors or matrices) is not supported yet; mark it `#[constant]` if it is data (`#[constant] {ident}: {0}`), or pass the vectors as the columns of one `&DMatrix<f64>` and read them as `{ident}.column(i)`",
                        type_text(&pt.ty)
                    ),
                );
                continue;
            }
            None => {
                cx.error_spanned_by(
                    &pt.ty,
                    format!(
                        "unsupported argument type `{}`; {SUPPORTED_ARGS}",
                        type_text(&pt.ty)
                    ),
                );
                continue;
            }
        };
        let differentiable = !constant
            && matches!(
                kind,
                ParamKind::Float(_)
                    | ParamKind::Slice(_)
                    | ParamKind::Matrix { .. }
                    | ParamKind::Array { .. }
            );
        params.push(Param {
            ident,
            kind,
            differentiable,
            inout: is_inout,
        });
    }

    // As written: an in-out argument reported above still makes `()` a
    // result to take, not a second error.
    let has_inout = sig.inputs.iter().any(
        |a| matches!(a, FnArg::Typed(pt) if matches!(&*pt.ty, Type::Reference(r) if r.mutability.is_some())),
    );
    let ret = match &sig.output {
        // A function of in-out arguments has their final values as its
        // outputs.
        ReturnType::Default if has_inout => Some(Ret::Unit),
        ReturnType::Type(_, ty)
            if has_inout && matches!(&**ty, Type::Tuple(t) if t.elems.is_empty()) =>
        {
            Some(Ret::Unit)
        }
        ReturnType::Default => {
            cx.error_spanned_by(
                &sig.ident,
                format!("a `#[differentiable]` function must return {SUPPORTED_RETURNS}; add a return type"),
            );
            None
        }
        ReturnType::Type(_, ty) => match FloatTy::parse(ty, scalar_ident) {
            Some(f) => Some(Ret::Float(f)),
            None if outputs_of(ty, scalar_ident) => Some(Ret::Outputs((**ty).clone())),
            None if is_matrix(ty) => Some(Ret::Matrix((**ty).clone())),
            None if matches!(&**ty, Type::Tuple(t) if t.elems.len() > MAX_TUPLE_OUTPUTS) => {
                cx.error_spanned_by(
                    ty,
                    format!("a tuple result holds at most {MAX_TUPLE_OUTPUTS} floats; return an array `[f64; N]` or a `Vec<f64>`"),
                );
                None
            }
            None if fallible && result_of_float(ty, scalar_ident).is_some() => {
                result_of_float(ty, scalar_ident).map(|(ok, err)| Ret::Result { ok, err })
            }
            None if mentions_type_param(ty, &sig.generics) => None,
            None if matches!(struct_type(ty, &sig.generics), Some((_, false))) => {
                cx.error_spanned_by(ty, struct_return_message(ty));
                None
            }
            None => {
                cx.error_spanned_by(
                    ty,
                    format!(
                        "unsupported return type `{}`; a `#[differentiable]` function returns {SUPPORTED_RETURNS}",
                        type_text(ty)
                    ),
                );
                None
            }
        },
    };

    let scalar_args = scalar.as_ref().is_some_and(|scalar| {
        params.iter().any(|p| {
            p.differentiable
                && (p.scalar_is(&scalar.ident)
                    // A second-order twin's matrices are of its scalar.
                    || (scalar.ident == scalar_param()
                        && matches!(p.kind, ParamKind::Matrix { .. })))
        })
    });
    if let (Some(scalar), ReturnType::Type(_, ty)) = (&scalar, &sig.output)
        && !matches!(&ret, Some(Ret::Float(f)) if f.0 == scalar.ident)
        && !matches!(&ret, Some(Ret::Outputs(_)))
        && ret.is_some()
        && scalar_args
    {
        cx.error_spanned_by(
            ty,
            format!(
                "a function generic over its scalar `{0}` returns `{0}`",
                scalar.ident
            ),
        );
    }
    if let Some(scalar) = &scalar
        && !scalar_args
    {
        cx.error_spanned_by(
            &scalar.ident,
            format!(
                "the type parameter `{0}` of a `#[differentiable]` function is its scalar: give a differentiable argument the type `{0}` or `&[{0}]`",
                scalar.ident
            ),
        );
    }
    // The generated items are called without a turbofish: a length is
    // inferred from an argument's type.
    for length in sig.generics.const_params().filter(|c| is_usize(&c.ty)) {
        let named = sig.inputs.iter().any(|arg| {
            let mut finder = IdentFinder(&length.ident, false);
            syn::visit::Visit::visit_fn_arg(&mut finder, arg);
            finder.1
        });
        if !named {
            cx.error_spanned_by(
                length,
                format!(
                    "the length `{0}` must be the length of an argument (`x: &[f64; {0}]`), from which a call infers it",
                    length.ident
                ),
            );
        }
    }

    if cx.has_errors() && !before {
        return None;
    }
    Some(Signature {
        params,
        ret: ret?,
        scalar,
    })
}

/// Finds an identifier anywhere in what it visits.
struct IdentFinder<'a>(&'a syn::Ident, bool);

impl<'ast> syn::visit::Visit<'ast> for IdentFinder<'_> {
    fn visit_ident(&mut self, i: &'ast syn::Ident) {
        self.1 |= i == self.0;
    }
}

/// Whether a type names a type parameter of the function.
fn mentions_type_param(ty: &Type, generics: &syn::Generics) -> bool {
    struct Finder<'a>(&'a syn::Generics, bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
        fn visit_path(&mut self, p: &'ast syn::Path) {
            self.1 |= p
                .get_ident()
                .is_some_and(|i| self.0.type_params().any(|t| t.ident == *i));
            syn::visit::visit_path(self, p);
        }
    }
    let mut finder = Finder(generics, false);
    syn::visit::Visit::visit_type(&mut finder, ty);
    finder.1
}

const GENERICS_SUPPORTED: &str = "a `#[differentiable]` function may be generic over one scalar type, `fn f<T: num_traits::Float>(x: T, y: &[T]) -> T` or `T: nalgebra::RealField + Copy`, over lengths, `fn f<const N: usize>(x: &[f64; N]) -> f64`, and over lifetimes";

/// `usize`, the type of an array's length.
fn is_usize(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.qself.is_none() && p.path.is_ident("usize"))
}

/// The one type parameter of a generic function, which must be its scalar:
/// bounded by `Float` or `RealField` (by any path, inline or in `where`).
/// Lifetime parameters and their bounds are always accepted; anything else
/// is reported at its span.
fn generic_scalar(cx: &Ctxt, generics: &syn::Generics) -> Option<GenericScalar> {
    let mut scalar: Option<&syn::TypeParam> = None;
    for param in &generics.params {
        match param {
            syn::GenericParam::Lifetime(_) => {}
            syn::GenericParam::Type(t) if scalar.is_none() => scalar = Some(t),
            syn::GenericParam::Type(t) => cx.error_spanned_by(
                t,
                format!("one type parameter is supported; {GENERICS_SUPPORTED}"),
            ),
            // A length (`&[f64; N]`): carried to every generated item.
            syn::GenericParam::Const(c) if is_usize(&c.ty) && c.default.is_none() => {}
            syn::GenericParam::Const(c) => cx.error_spanned_by(
                c,
                format!(
                    "a const generic parameter must be a length, `const N: usize` without a default; {GENERICS_SUPPORTED}"
                ),
            ),
        }
    }
    let mut bounds: Vec<&syn::TypeParamBound> = scalar.iter().flat_map(|t| &t.bounds).collect();
    for predicate in generics.where_clause.iter().flat_map(|w| &w.predicates) {
        match predicate {
            syn::WherePredicate::Lifetime(_) => {}
            syn::WherePredicate::Type(p)
                if scalar
                    .as_ref()
                    .is_some_and(|t| matches!(&p.bounded_ty, Type::Path(b) if b.qself.is_none() && b.path.is_ident(&t.ident)))
                    && p.lifetimes.is_none() =>
            {
                bounds.extend(&p.bounds);
            }
            other => cx.error_spanned_by(
                other,
                format!("unsupported `where` clause; {GENERICS_SUPPORTED}"),
            ),
        }
    }
    let scalar = scalar?;
    let named = |name: &str| {
        bounds.iter().any(|b| {
            matches!(b, syn::TypeParamBound::Trait(t)
                if t.path.segments.last().is_some_and(|s| s.ident == name))
        })
    };
    let bound = if named("Float") {
        ScalarBound::Float
    } else if named("RealField") {
        ScalarBound::RealField
    } else {
        // Reported once here; taken as the scalar below, so its arguments
        // report nothing more.
        cx.error_spanned_by(
            scalar,
            format!(
                "the type parameter `{}` needs a scalar bound; {GENERICS_SUPPORTED}",
                scalar.ident
            ),
        );
        ScalarBound::Float
    };
    Some(GenericScalar {
        ident: scalar.ident.clone(),
        bound,
        twin: false,
    })
}

/// The owned type of a `Tangent` struct argument, and whether it is passed
/// by reference: a path without generic arguments starting with a capital
/// (`Params`, `model::Params`, `Self`) that is no type the macro knows.
pub fn struct_type(ty: &Type, generics: &syn::Generics) -> Option<(Type, bool)> {
    let (owned, by_ref) = match ty {
        Type::Reference(r) if r.mutability.is_none() => (&*r.elem, true),
        ty => (ty, false),
    };
    let Type::Path(p) = owned else { return None };
    let last = p.path.segments.last()?;
    let capital = last
        .ident
        .to_string()
        .starts_with(|c: char| c.is_ascii_uppercase());
    let known = ["String", "Vec", "Box", "Option", "Result"];
    (p.qself.is_none()
        && capital
        && last.arguments.is_none()
        && p.path.segments.iter().all(|s| s.arguments.is_none())
        && !known.iter().any(|k| last.ident == k)
        && !generics.type_params().any(|t| p.path.is_ident(&t.ident)))
    .then(|| (owned.clone(), by_ref))
}

/// The error at a function's result that is a struct (`-> Pair`): not
/// differentiated yet, and what to write instead.
pub fn struct_return_message(ty: &Type) -> String {
    let ty = type_text(ty);
    format!(
        "a `#[differentiable]` function returns a struct (`{ty}`) only where it takes no struct and this file declares `{ty}` with `#[derive(Tangent)]` and only `f64` fields; otherwise return its fields as a tuple of floats (`-> (f64, f64)`) or an array, and build the `{ty}` where the result is used (`let (u, v) = make(a);`)"
    )
}

/// Types named with a capital that hold no float: constants in a `Tangent`
/// struct.
const CONSTANT_NAMES: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "bool",
    "char", "String",
];

/// The name of the type of a field that `#[derive(Tangent)]` takes as a
/// nested `Tangent` struct (a type name without generic arguments, not a
/// primitive or `String`), by its type as written; a float or collection
/// field is none. A `#[constant]` field is the caller's to exclude.
pub fn nested_tangent_type(ty: &Type) -> Option<&syn::Ident> {
    let Type::Path(p) = ty else { return None };
    let last = p.path.segments.last()?;
    (p.qself.is_none()
        && p.path.segments.iter().all(|s| s.arguments.is_none())
        && !CONSTANT_NAMES.iter().any(|n| last.ident == n)
        && last
            .ident
            .to_string()
            .starts_with(|c: char| c.is_ascii_uppercase()))
    .then_some(&last.ident)
}

/// Whether `ty` is a struct, or a reference to one, in the sense of
/// [`struct_type`].
pub fn is_struct_type(ty: &Type, generics: &syn::Generics) -> bool {
    struct_type(ty, generics).is_some()
}
