//! `#[derive(Tangent)]`: a struct whose `f64`/`f32` fields are
//! differentiable, usable as an argument of a `#[differentiable]`
//! function; its adjoint is the same struct.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;

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
    let mut fields_added = Vec::new();
    let mut checks = Vec::new();
    for field in fields {
        let ident = field.ident.as_ref().expect("named field");
        let constant = field.attrs.iter().any(crate::sig::is_constant_attr);
        match float_ident(&field.ty) {
            Some(t) if !constant => {
                zero.push(quote!(#ident: 0.0));
                // The function's reads of the field are `f64` inputs.
                let convert = (t != "f64").then(|| quote!(as #t));
                let label = ident.to_string();
                fields_added.push(quote!(#label => self.#ident += g #convert,));
                let back = (t != "f64").then(|| quote!(as #t));
                checks.push(quote! {
                    check.scalar(&::std::format!("{}.{}", name, #label), self.#ident, adjoint.#ident, |v| {
                        let mut at = ::core::clone::Clone::clone(self);
                        at.#ident = v;
                        f(&at) #back
                    });
                });
                add.push(quote!(self.#ident += other.#ident;));
            }
            // A constant field read by a differentiable function: its
            // adjoint is dropped, the slot keeps the argument's value.
            Some(_) => zero.push(quote!(#ident: self.#ident)),
            None => zero.push(quote!(#ident: ::core::clone::Clone::clone(&self.#ident))),
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
            #[inline(always)]
            fn __add_field(&mut self, field: &str, g: f64) {
                // Constant and non-float fields: nothing (a body reading a
                // non-float field is an error at the read).
                match field {
                    #(#fields_added)*
                    _ => {}
                }
                let _ = g;
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
        }
    })
}
