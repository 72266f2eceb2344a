//! `#[derive(Tangent)]`: a struct whose fields are differentiable
//! parameters, usable as an argument of a `#[differentiable]` function;
//! its adjoint is the same struct.
//!
//! A field is, by its type as written: a float (`f64`, `f32`), a float
//! collection (`Vec<f64>`, `[f64; N]`, `DVector<f64>`, `DMatrix<f64>`,
//! fixed-size nalgebra types of `f64`), a nested `Tangent`
//! struct (a type name without generic arguments), or a constant (marked
//! `#[constant]`, integers, `bool`, and every type that holds no float,
//! such as `String` or `Vec<usize>`), whose adjoint is a clone of the
//! argument's. Any other type holding floats is an error at the field.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use syn::spanned::Spanned;

pub fn derive(input: TokenStream) -> TokenStream {
    match expand(input.clone()) {
        Ok(out) => out,
        Err(e) => {
            let mut out = e.to_compile_error();
            out.extend(stand_in(input));
            out
        }
    }
}

/// An impl of `Tangent` whose methods are never run, for a struct the
/// derive has reported (a field of a type it does not take): the functions
/// that take the struct then type-check, and the error at the field is the
/// only one, not one more at each use of the struct.
fn stand_in(input: TokenStream) -> TokenStream {
    let Ok(item) = syn::parse2::<syn::DeriveInput>(input) else {
        return TokenStream::new();
    };
    if !item.generics.params.is_empty() {
        return TokenStream::new();
    }
    let name = &item.ident;
    quote! {
        impl ::autograd::Tangent for #name {
            fn zero_adjoint(&self) -> Self {
                ::core::unreachable!()
            }
            fn add_adjoint(&mut self, _: &Self) {}
            fn __restore_constants(&mut self, _: &Self) {}
            fn __zero_constants(&mut self) {}
            fn __check_fields(
                &self,
                _: &Self,
                _: &str,
                _: &mut ::autograd::GradientCheck,
                _: &mut dyn ::core::ops::FnMut(&Self) -> f64,
            ) {
            }
            fn __flatten_into(&self, _: &mut ::std::vec::Vec<f64>) {}
            fn __from_flat(&self, _: &mut &[f64]) -> Self {
                ::core::unreachable!()
            }
            fn __add_flat(&mut self, _: &mut &[f64]) {}
        }
    }
}

/// What a field is to the derivative.
enum Field {
    /// `f64` / `f32`.
    Float(syn::Ident),
    /// `Vec<f64>`, `[f64; N]`, `DVector<f64>`: its elements.
    Collection,
    /// Another `Tangent` struct.
    Nested,
    /// Cloned into the adjoint.
    Constant,
}

fn float_ident(ty: &syn::Type) -> Option<&syn::Ident> {
    let syn::Type::Path(p) = ty else { return None };
    let ident = p.path.get_ident()?;
    (p.qself.is_none() && (ident == "f64" || ident == "f32")).then_some(ident)
}

fn is_f64(ty: &syn::Type) -> bool {
    float_ident(ty).is_some_and(|i| i == "f64")
}

/// `Vec<f64>`, `[f64; N]`, `DVector<f64>`, `DMatrix<f64>` and fixed-size
/// nalgebra types of `f64` (`Vector3<f64>`, `SMatrix<f64, R, C>`), by any
/// path.
fn is_collection(ty: &syn::Type) -> bool {
    match ty {
        syn::Type::Array(a) => is_f64(&a.elem),
        syn::Type::Path(p) if p.qself.is_none() => {
            let Some(last) = p.path.segments.last() else {
                return false;
            };
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return false;
            };
            let name = last.ident.to_string();
            let first_f64 =
                matches!(args.args.first(), Some(syn::GenericArgument::Type(t)) if is_f64(t));
            match name.as_str() {
                "Vec" | "DVector" | "DMatrix" => args.args.len() == 1 && first_f64,
                name => crate::sig::is_fixed_name(name) && first_f64,
            }
        }
        _ => false,
    }
}

/// Whether a type mentions `f64` or `f32` anywhere.
fn holds_float(ty: &syn::Type) -> bool {
    ty.to_token_stream()
        .into_iter()
        .any(|t| holds_float_token(&t))
}

fn holds_float_token(t: &proc_macro2::TokenTree) -> bool {
    match t {
        proc_macro2::TokenTree::Ident(i) => i == "f64" || i == "f32",
        proc_macro2::TokenTree::Group(g) => g.stream().into_iter().any(|t| holds_float_token(&t)),
        _ => false,
    }
}

fn classify(field: &syn::Field) -> syn::Result<Field> {
    if field.attrs.iter().any(crate::sig::is_constant_attr) {
        return Ok(Field::Constant);
    }
    let ty = &field.ty;
    if let Some(t) = float_ident(ty) {
        return Ok(Field::Float(t.clone()));
    }
    if is_collection(ty) {
        return Ok(Field::Collection);
    }
    if crate::sig::nested_tangent_type(ty).is_some() {
        return Ok(Field::Nested);
    }
    if holds_float(ty) {
        return Err(syn::Error::new_spanned(
            ty,
            format!(
                "unsupported field type `{}` in a `Tangent` struct; differentiable fields are `f64`, `f32`, `Vec<f64>`, `[f64; N]`, `DVector<f64>`, `DMatrix<f64>`, fixed-size nalgebra types of `f64` such as `Vector3<f64>` and other `Tangent` structs; mark the field `#[constant]` to keep it out of the derivative",
                crate::ctxt::type_text(ty)
            ),
        ));
    }
    Ok(Field::Constant)
}

fn expand(input: TokenStream) -> syn::Result<TokenStream> {
    let item: syn::DeriveInput = syn::parse2(input)?;
    let name = &item.ident;
    if !item.generics.params.is_empty() {
        return Err(syn::Error::new(
            item.generics.span(),
            "`#[derive(Tangent)]` takes a struct without type or lifetime parameters",
        ));
    }
    let fields = match &item.data {
        syn::Data::Struct(s) => match &s.fields {
            syn::Fields::Named(named) => &named.named,
            _ => {
                return Err(syn::Error::new(
                    s.fields.span(),
                    "`#[derive(Tangent)]` takes a struct with named fields: `struct Params { a: f64, b: f64 }`",
                ));
            }
        },
        _ => {
            return Err(syn::Error::new(
                name.span(),
                "`#[derive(Tangent)]` takes a struct with named fields: `struct Params { a: f64, b: f64 }`",
            ));
        }
    };
    let p = quote!(::autograd::__private);
    let mut errors: Option<syn::Error> = None;
    let mut zero = Vec::new();
    let mut add = Vec::new();
    let mut restore = Vec::new();
    let mut zero_constants = Vec::new();
    let mut checks = Vec::new();
    let mut flatten = Vec::new();
    let mut from_flat = Vec::new();
    let mut add_flat = Vec::new();
    for field in fields {
        let ident = field.ident.as_ref().expect("named field");
        let label = ident.to_string();
        let ty = &field.ty;
        let class = match classify(field) {
            Ok(c) => c,
            Err(e) => {
                match &mut errors {
                    Some(all) => all.combine(e),
                    None => errors = Some(e),
                }
                continue;
            }
        };
        match class {
            Field::Float(t) => {
                zero.push(quote!(#ident: 0.0));
                // The function's reads of the field are `f64` inputs.
                let convert = (t != "f64").then(|| quote!(as #t));
                checks.push(quote! {
                    check.scalar(&::std::format!("{}.{}", name, #label), self.#ident, adjoint.#ident, |v| {
                        let mut at = #p::clone_tangent(self);
                        at.#ident = v;
                        f(&at) #convert
                    });
                });
                add.push(quote!(self.#ident += other.#ident;));
                flatten.push(quote!(#p::Flatten::flatten_into(&self.#ident, row);));
                from_flat.push(quote!(#ident: #p::take_float(flat) #convert));
                add_flat.push(quote!(self.#ident += #p::take_float(flat) #convert;));
            }
            Field::Collection => {
                zero.push(quote!(#ident: #p::CollectionField::zeroed(&self.#ident)));
                checks.push(quote! {
                    check.slice(
                        &::std::format!("{}.{}", name, #label),
                        #p::CollectionField::elements(&self.#ident),
                        #p::CollectionField::elements(&adjoint.#ident),
                        |work: &::std::vec::Vec<f64>| {
                            let mut at = #p::clone_tangent(self);
                            #p::CollectionField::elements_mut(&mut at.#ident).copy_from_slice(work);
                            f(&at)
                        },
                    );
                });
                add.push(quote!(#p::add_to_collection(&mut self.#ident, #p::CollectionField::elements(&other.#ident));));
                flatten.push(quote!(#p::Flatten::flatten_into(#p::CollectionField::elements(&self.#ident), row);));
                from_flat.push(quote!(#ident: #p::take_collection(&self.#ident, flat)));
                add_flat.push(quote! {
                    let n = #p::CollectionField::elements(&self.#ident).len();
                    #p::add_to_collection(&mut self.#ident, #p::take_elements(flat, n));
                });
            }
            Field::Nested => {
                zero.push(quote!(#ident: ::autograd::Tangent::zero_adjoint(&self.#ident)));
                restore.push(quote!(::autograd::Tangent::__restore_constants(&mut self.#ident, &from.#ident);));
                zero_constants
                    .push(quote!(::autograd::Tangent::__zero_constants(&mut self.#ident);));
                checks.push(quote! {
                    ::autograd::Tangent::__check_fields(
                        &self.#ident,
                        &adjoint.#ident,
                        &::std::format!("{}.{}", name, #label),
                        check,
                        &mut |v: &#ty| {
                            let mut at = #p::clone_tangent(self);
                            at.#ident = #p::clone_tangent(v);
                            f(&at)
                        },
                    );
                });
                add.push(
                    quote!(::autograd::Tangent::add_adjoint(&mut self.#ident, &other.#ident);),
                );
                flatten.push(quote!(::autograd::Tangent::__flatten_into(&self.#ident, row);));
                from_flat
                    .push(quote!(#ident: ::autograd::Tangent::__from_flat(&self.#ident, flat)));
                add_flat.push(quote!(::autograd::Tangent::__add_flat(&mut self.#ident, flat);));
            }
            // A constant field read by a differentiable function: its
            // adjoint is dropped, the slot keeps the argument's value.
            Field::Constant => {
                zero.push(quote!(#ident: ::core::clone::Clone::clone(&self.#ident)));
                // Only a field holding floats can be read as differentiable
                // (and its adjoint added into it).
                if holds_float(ty) {
                    restore.push(quote!(self.#ident = ::core::clone::Clone::clone(&from.#ident);));
                    zero_constants.push(quote!(
                        self.#ident = (&#p::ConstantField(&self.#ident)).zeroed_constant();
                    ));
                }
                from_flat.push(quote!(#ident: ::core::clone::Clone::clone(&self.#ident)));
            }
        }
    }
    if let Some(e) = errors {
        return Err(e);
    }
    Ok(quote! {
        impl ::autograd::Tangent for #name {
            #[inline]
            fn zero_adjoint(&self) -> Self {
                #name { #(#zero),* }
            }
            #[inline]
            fn add_adjoint(&mut self, other: &Self) {
                let _ = other;
                #(#add)*
            }
            #[inline(always)]
            fn __restore_constants(&mut self, from: &Self) {
                let _ = from;
                #(#restore)*
            }
            #[inline]
            fn __zero_constants(&mut self) {
                #[allow(unused_imports)]
                use #p::{KeepConstant as _, ZeroConstant as _};
                #(#zero_constants)*
            }
            fn __check_fields(
                &self,
                adjoint: &Self,
                name: &str,
                check: &mut ::autograd::GradientCheck,
                f: &mut dyn ::core::ops::FnMut(&Self) -> f64,
            ) {
                let _ = (adjoint, name, &check, &f);
                #(#checks)*
            }
            fn __flatten_into(&self, row: &mut ::std::vec::Vec<f64>) {
                let _ = &row;
                #(#flatten)*
            }
            fn __from_flat(&self, flat: &mut &[f64]) -> Self {
                let _ = &flat;
                #name { #(#from_flat),* }
            }
            fn __add_flat(&mut self, flat: &mut &[f64]) {
                let _ = &flat;
                #(#add_flat)*
            }
        }
    })
}
