//! `#[derive(Tangent)]`: a struct whose `f64`/`f32` fields are
//! differentiable, usable as an argument of a `#[differentiable]`
//! function; its adjoint is the same struct.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::spanned::Spanned;

/// The hidden method adding a field's adjoint into a struct, which the
/// wrappers of a function taking the struct call once per field it reads.
pub fn add_method(field: &syn::Ident) -> syn::Ident {
    format_ident!("__autograd_add_{}", field)
}

pub fn derive(input: TokenStream) -> TokenStream {
    match expand(input) {
        Ok(out) => out,
        Err(e) => e.to_compile_error(),
    }
}

fn float_ident(ty: &syn::Type) -> Option<&syn::Ident> {
    let syn::Type::Path(p) = ty else { return None };
    let ident = p.path.get_ident()?;
    (p.qself.is_none() && (ident == "f64" || ident == "f32")).then_some(ident)
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
    let mut zero = Vec::new();
    let mut add = Vec::new();
    let mut methods = Vec::new();
    let mut checks = Vec::new();
    for field in fields {
        let ident = field.ident.as_ref().expect("named field");
        let constant = field.attrs.iter().any(crate::sig::is_constant_attr);
        let method = add_method(ident);
        match float_ident(&field.ty) {
            Some(t) if !constant => {
                zero.push(quote!(#ident: 0.0));
                let label = ident.to_string();
                let back = (t != "f64").then(|| quote!(as #t));
                checks.push(quote! {
                    check.scalar(&::std::format!("{}.{}", name, #label), self.#ident, adjoint.#ident, |v| {
                        let mut at = ::core::clone::Clone::clone(self);
                        at.#ident = v;
                        f(&at) #back
                    });
                });
                add.push(quote!(self.#ident += other.#ident;));
                // The function's reads of the field are `f64` inputs.
                let convert = (t != "f64").then(|| quote!(as #t));
                methods.push(quote! {
                    #[doc(hidden)]
                    #[inline(always)]
                    pub fn #method(&mut self, g: f64) {
                        self.#ident += g #convert;
                    }
                });
            }
            // A constant float field read by a differentiable function:
            // its adjoint is computed and dropped, the slot keeps the
            // argument's value.
            Some(_) => {
                zero.push(quote!(#ident: self.#ident));
                methods.push(quote! {
                    #[doc(hidden)]
                    #[inline(always)]
                    pub fn #method(&mut self, _: f64) {}
                });
            }
            None => {
                zero.push(quote!(#ident: ::core::clone::Clone::clone(&self.#ident)));
                // Reading it in a differentiable body is an error at the
                // read (`float_field`); this keeps it the only one.
                methods.push(quote! {
                    #[doc(hidden)]
                    #[inline(always)]
                    pub fn #method(&mut self, _: f64) {}
                });
            }
        }
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
        }
        impl ::autograd::__private::TangentCheck for #name {
            fn check_fields(
                &self,
                adjoint: &Self,
                name: &str,
                check: &mut ::autograd::GradientCheck,
                f: &mut dyn ::core::ops::FnMut(&Self) -> f64,
            ) {
                let _ = (adjoint, name, &check, &f);
                #(#checks)*
            }
        }
        #[doc(hidden)]
        #[allow(non_snake_case, dead_code)]
        impl #name {
            #(#methods)*
        }
    })
}
