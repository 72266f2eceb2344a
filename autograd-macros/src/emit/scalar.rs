//! The scalar type the generated code computes in: `f32`/`f64` (each value's
//! own, which rustc infers from the function's types and literals), or the
//! function's type parameter `T`. Every token of the generated code that
//! depends on which is decided here, so a generated sweep instantiated at
//! another `T` (a dual number) needs no change elsewhere.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::ir::Kind;
use crate::sig::{GenericScalar, ScalarBound, Signature};

pub enum Scalar {
    /// `f32` or `f64`: literals are typed by inference.
    Concrete,
    /// A type parameter: constants through the runtime's `Real`, which
    /// every `num_traits::Float` implements.
    Param(GenericScalar),
}

impl Scalar {
    pub fn of(sig: &Signature) -> Scalar {
        match &sig.scalar {
            Some(s) => Scalar::Param(s.clone()),
            None => Scalar::Concrete,
        }
    }

    /// Whether this is a second-order twin's scalar (a function written
    /// in `f64` or `f32`, retyped).
    pub fn is_twin(&self) -> bool {
        matches!(self, Scalar::Param(s) if s.twin)
    }

    /// The type parameter, if the scalar is one.
    pub fn param(&self) -> Option<&syn::Ident> {
        match self {
            Scalar::Concrete => None,
            Scalar::Param(s) => Some(&s.ident),
        }
    }

    fn real(t: &syn::Ident) -> TokenStream {
        quote!(<#t as ::autograd::__private::rules::Real>)
    }

    /// Zero, where an adjoint starts.
    pub fn zero(&self) -> TokenStream {
        match self.param() {
            None => quote!(0.0),
            Some(t) => {
                let real = Self::real(t);
                quote!(#real::zero())
            }
        }
    }

    /// One, the seed of `NAME_grad`.
    pub fn one(&self) -> TokenStream {
        match self.param() {
            None => quote!(1.0),
            Some(t) => {
                let real = Self::real(t);
                quote!(#real::one())
            }
        }
    }

    /// `place += expr;` for an adjoint of `kind` (or of a slice's element):
    /// `Float` has no `+=`, so a generic scalar is added and assigned.
    pub fn add_assign(&self, kind: Kind, place: TokenStream, expr: TokenStream) -> TokenStream {
        match self.param() {
            Some(_) if matches!(kind, Kind::Float | Kind::Slice) => {
                quote!(#place = #place + (#expr);)
            }
            _ => quote!(#place += #expr;),
        }
    }

    /// Adds a callee's (or a pullback's) adjoint `g` into the adjoint or
    /// buffer `acc` (a `&mut`) of a value of `kind`.
    /// Spanned on `span`, where a type error about the adjoint points.
    pub fn accumulate(
        &self,
        kind: Kind,
        acc: TokenStream,
        g: TokenStream,
        span: Span,
    ) -> TokenStream {
        match (self.param(), kind) {
            (Some(_), Kind::Float) => {
                quote_spanned!(span=> ::autograd::__private::accumulate_scalar(#acc, #g);)
            }
            (Some(_), Kind::Slice) => {
                quote_spanned!(span=> ::autograd::__private::accumulate_elements(#acc, #g);)
            }
            _ => quote_spanned!(span=> ::autograd::__private::accumulate(#acc, #g);),
        }
    }

    /// The bound the generated items add to the function's own: a
    /// `RealField` scalar must also be a `Float` for the runtime's rules
    /// (`f32` and `f64` are both).
    pub fn extra_bound(&self) -> Option<syn::TypeParamBound> {
        match self {
            Scalar::Param(GenericScalar {
                bound: ScalarBound::RealField,
                ..
            }) => Some(syn::parse_quote!(::autograd::__private::Float)),
            _ => None,
        }
    }

    /// Whether matrices of this scalar lack nalgebra's complex-field and
    /// SIMD methods (a twin's dual numbers): a rule with
    /// [`crate::table::Rule::dual_primal`] computes its primal with the
    /// runtime's function instead.
    pub fn dual_matrices(&self) -> bool {
        matches!(
            self,
            Scalar::Param(GenericScalar {
                bound: ScalarBound::DualMatrices,
                ..
            })
        )
    }

    /// Whether float methods are called through `Float` by path
    /// (`Float::exp(x)`): with both `RealField` and `Float` bounds, the
    /// method syntax `x.exp()` is ambiguous.
    pub fn methods_by_path(&self) -> bool {
        matches!(
            self,
            Scalar::Param(GenericScalar {
                bound: ScalarBound::RealField,
                ..
            })
        )
    }
}
