//! The function's signature: which arguments are differentiable and what
//! their adjoints are.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::{FnArg, Pat, ReturnType, Type};

use crate::ctxt::Ctxt;

/// `f32` or `f64`.
#[derive(Clone)]
pub struct FloatTy(pub syn::Ident);

impl FloatTy {
    fn parse(ty: &Type) -> Option<FloatTy> {
        let Type::Path(p) = ty else { return None };
        let ident = p.path.get_ident()?;
        (p.qself.is_none() && (ident == "f64" || ident == "f32")).then(|| FloatTy(ident.clone()))
    }
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
    /// nalgebra `DMatrix<f64>` / `DVector<f64>`, by value or by reference.
    Matrix {
        owned: Box<Type>,
        by_ref: bool,
        vector: bool,
    },
    /// Marked `#[constant]`, of a type the macro does not differentiate.
    Other,
}

#[derive(Clone)]
pub struct Param {
    pub ident: syn::Ident,
    pub kind: ParamKind,
    /// Gets a slot in `NAME_grad` / `NAME_vjp`.
    pub differentiable: bool,
}

impl Param {
    /// The type of the caller's buffer `NAME_grad_acc` adds the adjoint
    /// into.
    pub fn buffer_ty(&self) -> Option<TokenStream> {
        if !self.differentiable {
            return None;
        }
        match &self.kind {
            ParamKind::Float(t) => Some(quote!(&mut #t)),
            ParamKind::Slice(t) => Some(quote!(&mut [#t])),
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
            ParamKind::Matrix { owned, .. } => Some(owned.to_token_stream()),
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
}

impl Ret {
    /// The type of the pullback's seed: the adjoint of the result.
    pub fn seed(&self) -> TokenStream {
        match self {
            Ret::Float(f) | Ret::Result { ok: f, .. } => f.to_token_stream(),
            Ret::Matrix(t) => t.to_token_stream(),
        }
    }
}

/// `Result<f32|f64, E>`.
fn result_of_float(ty: &Type) -> Option<(FloatTy, Type)> {
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
    let ok = FloatTy::parse(types.next()?)?;
    let err = types.next()?.clone();
    Some((ok, err))
}

#[derive(Clone)]
pub struct Signature {
    pub params: Vec<Param>,
    /// The return type, which is also the seed's type.
    pub ret: Ret,
}

const INTEGERS: &[&str] = &[
    "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize",
];

const SUPPORTED_ARGS: &str = "supported: `f64`, `f32`, `&[f64]`, `&[f32]`, `&Vec<f64>`, `&Vec<f32>`, `DMatrix<f64>`, `DVector<f64>` (by value or reference), integers and `bool`; mark any other argument `#[constant]`";

pub fn is_vector(ty: &Type) -> bool {
    matches!(ty, Type::Path(p) if p.path.segments.last().is_some_and(|s| s.ident == "DVector"))
}

/// `DMatrix<f64>` or `DVector<f64>`, by any path (`nalgebra::DMatrix<f64>`).
pub fn is_matrix(ty: &Type) -> bool {
    let Type::Path(p) = ty else { return false };
    let Some(last) = p.path.segments.last() else {
        return false;
    };
    if last.ident != "DMatrix" && last.ident != "DVector" {
        return false;
    }
    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
        return false;
    };
    matches!(args.args.first(), Some(syn::GenericArgument::Type(t)) if matches!(t, Type::Path(e) if e.path.is_ident("f64")))
}

fn classify(ty: &Type) -> Option<ParamKind> {
    if let Some(f) = FloatTy::parse(ty) {
        return Some(ParamKind::Float(f));
    }
    if is_matrix(ty) {
        return Some(ParamKind::Matrix {
            owned: Box::new(ty.clone()),
            by_ref: false,
            vector: is_vector(ty),
        });
    }
    if let Type::Reference(r) = ty
        && r.mutability.is_none()
        && is_matrix(&r.elem)
    {
        return Some(ParamKind::Matrix {
            owned: r.elem.clone(),
            by_ref: true,
            vector: is_vector(&r.elem),
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
            Type::Slice(s) => return FloatTy::parse(&s.elem).map(ParamKind::Slice),
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
                return FloatTy::parse(elem).map(ParamKind::Slice);
            }
            _ => {}
        }
    }
    None
}

/// A type as a person writes it (`&[f64]`, not `& [f64]`), for messages.
pub fn type_text(ty: &Type) -> String {
    let mut text = ty.to_token_stream().to_string();
    for (spaced, tight) in [
        (" < ", "<"),
        ("< ", "<"),
        (" >", ">"),
        ("& ", "&"),
        (" :: ", "::"),
        (":: ", "::"),
        ("[ ", "["),
        (" ]", "]"),
        (" ,", ","),
        ("' ", "'"),
    ] {
        text = text.replace(spaced, tight);
    }
    text
}

/// Whether an argument carries `#[constant]`.
pub fn is_constant_attr(attr: &syn::Attribute) -> bool {
    attr.path().is_ident("constant")
}

const LINTS: &[&str] = &["allow", "warn", "deny", "forbid", "expect"];

/// `cfg_attr(predicate, attrs..)` split into its predicate and attributes.
fn cfg_attr_parts(meta: &syn::Meta) -> Option<(syn::Meta, Vec<syn::Meta>)> {
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
    // Lifetime parameters (and bounds between them) are always accepted.
    let lifetime = |p: &syn::GenericParam| matches!(p, syn::GenericParam::Lifetime(_));
    let lifetime_bound = |p: &syn::WherePredicate| matches!(p, syn::WherePredicate::Lifetime(_));
    if !sig.generics.params.iter().all(lifetime)
        || sig
            .generics
            .where_clause
            .as_ref()
            .is_some_and(|w| !w.predicates.iter().all(lifetime_bound))
    {
        cx.error_spanned_by(
            &sig.generics,
            "generic functions cannot be `#[differentiable]`; write the function for `f64` or `f32`",
        );
    }
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
        if let Type::Reference(r) = &*pt.ty
            && r.mutability.is_some()
        {
            cx.error_spanned_by(
                &pt.ty,
                "`&mut` arguments are not supported: a differentiable function must not write through its arguments",
            );
            continue;
        }
        let kind = match classify(&pt.ty) {
            Some(k) => k,
            None if constant => ParamKind::Other,
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
                ParamKind::Float(_) | ParamKind::Slice(_) | ParamKind::Matrix { .. }
            );
        params.push(Param {
            ident,
            kind,
            differentiable,
        });
    }

    let ret = match &sig.output {
        ReturnType::Default => {
            cx.error_spanned_by(
                &sig.ident,
                "a `#[differentiable]` function must return `f64`, `f32`, `DMatrix<f64>` or `DVector<f64>`; add a return type",
            );
            None
        }
        ReturnType::Type(_, ty) => match FloatTy::parse(ty) {
            Some(f) => Some(Ret::Float(f)),
            None if is_matrix(ty) => Some(Ret::Matrix((**ty).clone())),
            None if fallible && result_of_float(ty).is_some() => {
                result_of_float(ty).map(|(ok, err)| Ret::Result { ok, err })
            }
            None => {
                cx.error_spanned_by(
                    ty,
                    format!(
                        "unsupported return type `{}`; a `#[differentiable]` function returns `f64`, `f32`, `DMatrix<f64>` or `DVector<f64>`",
                        type_text(ty)
                    ),
                );
                None
            }
        },
    };

    if cx.has_errors() && !before {
        return None;
    }
    Some(Signature { params, ret: ret? })
}
