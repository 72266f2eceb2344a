//! Constant data: a `#[constant]` argument of a type the macro does not
//! differentiate, such as `&[Vec<f64>]`, `&[[f64; 2]]` or
//! `&[DVector<f64>]` (a design matrix, a list of observations), read by
//! index or iterated. Its elements are primal values: a float element is a
//! constant float, any other one is more constant data, borrowed.

use super::items::{Item, referent};
use super::sequence::Sequence;
use super::*;

/// The element type of a collection type: `T` of `&[T]`, `[T; N]`,
/// `Vec<T>`, `DVector<T>`, `SVector<T, N>`, `Vector3<T>`.
fn element_type(ty: &syn::Type) -> Option<syn::Type> {
    match ty {
        syn::Type::Reference(r) => element_type(&r.elem),
        syn::Type::Paren(p) => element_type(&p.elem),
        syn::Type::Group(g) => element_type(&g.elem),
        syn::Type::Slice(s) => Some((*s.elem).clone()),
        syn::Type::Array(a) => Some((*a.elem).clone()),
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let name = last.ident.to_string();
            let vector = matches!(name.as_str(), "Vec" | "VecDeque" | "DVector" | "SVector")
                || (name.starts_with("Vector") && name[6..].chars().all(|c| c.is_ascii_digit()));
            let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                return None;
            };
            match args.args.first() {
                Some(syn::GenericArgument::Type(elem)) if vector => Some(elem.clone()),
                _ => None,
            }
        }
        _ => None,
    }
}

/// An integer or `bool` element: read by value, as the primal reads it.
fn primitive_kind(ty: &syn::Type) -> Option<Kind> {
    let syn::Type::Path(p) = ty else { return None };
    let name = p.path.get_ident()?.to_string();
    match name.as_str() {
        "bool" => Some(Kind::Bool),
        n if is_integer_type(n) => Some(Kind::Int),
        _ => None,
    }
}

/// Whether `name` is one of Rust's integer types.
pub(super) fn is_integer_type(name: &str) -> bool {
    matches!(
        name,
        "i8" | "i16"
            | "i32"
            | "i64"
            | "i128"
            | "isize"
            | "u8"
            | "u16"
            | "u32"
            | "u64"
            | "u128"
            | "usize"
    )
}

impl Lowerer<'_> {
    /// Records a `#[constant]` argument of a type the macro does not
    /// differentiate as constant data of that type.
    pub(super) fn record_data(&mut self, v: ValueId, ty: &syn::Type) {
        self.data.insert(v, ty.clone());
    }

    /// The collection constant data `v` is, if its elements can be read.
    pub(super) fn data_sequence(&self, v: ValueId) -> Option<Sequence> {
        let elem = element_type(self.data.get(&v)?)?;
        Some(Sequence::Data {
            data: v,
            elem: Box::new(elem),
        })
    }

    /// A field of a `#[constant]` argument iterated (`p.rates.iter()`):
    /// constant data borrowed in place, whose elements are read by value
    /// with the type rustc gives them (`_` here).
    pub(super) fn constant_field_sequence(&mut self, field: &Expr) -> Option<Sequence> {
        let field = match strip_parens(field) {
            Expr::Reference(r) => &*r.expr,
            e => e,
        };
        let borrowed: Expr = syn::parse_quote!(&#field);
        // A field always reads its argument: a value, never a constant.
        let Operand::Value(data) = self.lower_primal(&borrowed, Kind::Unknown) else {
            return None;
        };
        let elem: syn::Type = syn::parse_quote!(_);
        Some(Sequence::Data {
            data,
            elem: Box::new(elem),
        })
    }

    /// Whether `e` names an element of an iterated field of a
    /// `#[constant]` argument: read by value, so it cannot be indexed or
    /// iterated in turn (a `Vec` would be moved out of its collection).
    pub(super) fn opaque_element(&self, e: &Expr) -> bool {
        self.local_ident(strip_parens(e))
            .and_then(|v| self.data.get(&v))
            .is_some_and(|ty| matches!(ty, syn::Type::Infer(_)))
    }

    /// The number of elements of constant data: primal code.
    pub(super) fn data_len(&mut self, data: ValueId, span: Span) -> Operand {
        let p = super::primal::placeholder(0, span);
        let expr: Expr = syn::parse_quote!(#p.len());
        let bindings = vec![(p.to_string(), data)];
        Operand::Value(self.emit(Op::Primal { expr, bindings }, Kind::Int, span))
    }

    /// Element `index` of constant data: a constant float, or more
    /// constant data borrowed from it (a row is not moved out of its
    /// collection).
    pub(super) fn data_element(
        &mut self,
        data: ValueId,
        elem: &syn::Type,
        index: Operand,
        span: Span,
    ) -> Operand {
        let p = super::primal::placeholder(0, span);
        let mut bindings = vec![(p.to_string(), data)];
        let index = match index {
            Operand::Const(t) => t,
            Operand::Value(i) => {
                let q = super::primal::placeholder(1, span);
                bindings.push((q.to_string(), i));
                q.into_token_stream()
            }
        };
        let place: Expr = syn::parse_quote!(#p[#index]);
        self.data_part(place, bindings, elem, span)
    }

    /// `let (a, b) = pair;` of constant data whose type is a tuple: each
    /// component a primal value; whether `init` is such data.
    pub(super) fn bind_data_tuple(&mut self, pat: &syn::PatTuple, init: &Expr) -> bool {
        let Some(data) = self.local_ident(strip_parens(init)) else {
            return false;
        };
        let span = init.span();
        let Some(components) = self.data_tuple(data, pat.elems.len(), span) else {
            return false;
        };
        self.bind_pattern(
            &Pat::Tuple(pat.clone()),
            Item::Tuple(components),
            None,
            span,
        );
        true
    }

    /// Whether `data` is constant data whose type is a tuple of `arity`
    /// components.
    pub(super) fn is_data_tuple(&self, data: ValueId, arity: usize) -> bool {
        matches!(
            self.data.get(&data).map(referent),
            Some(syn::Type::Tuple(tuple)) if tuple.elems.len() == arity
        )
    }

    /// The elements of constant data whose type is an array of `len`
    /// floats (`[f64; 2]`, an element of `#[constant] z: &[[f64; 2]]`),
    /// each a primal value; `None` for other data.
    pub(super) fn data_array(
        &mut self,
        data: ValueId,
        len: usize,
        span: Span,
    ) -> Option<Vec<Item>> {
        let Some(syn::Type::Array(array)) = self.data.get(&data).map(referent) else {
            return None;
        };
        let elem = (*array.elem).clone();
        let n = match &array.len {
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            }) => n.base10_parse::<usize>().ok()?,
            _ => return None,
        };
        if n != len {
            return None;
        }
        let elements = (0..n)
            .map(|k| {
                let p = super::primal::placeholder(0, span);
                let place: Expr = syn::parse_quote!(#p[#k]);
                let bindings = vec![(p.to_string(), data)];
                Item::Value(self.data_part(place, bindings, &elem, span))
            })
            .collect();
        Some(elements)
    }

    /// The components of constant data whose type is a tuple of `arity`
    /// components (`pair.0`, `pair.1`), each a primal value.
    pub(super) fn data_tuple(
        &mut self,
        data: ValueId,
        arity: usize,
        span: Span,
    ) -> Option<Vec<Item>> {
        if !self.is_data_tuple(data, arity) {
            return None;
        }
        let Some(syn::Type::Tuple(tuple)) = self.data.get(&data).map(referent) else {
            return None;
        };
        let types: Vec<syn::Type> = tuple.elems.iter().cloned().collect();
        let components = types
            .iter()
            .enumerate()
            .map(|(k, ty)| {
                let p = super::primal::placeholder(0, span);
                let k = syn::Index::from(k);
                let place: Expr = syn::parse_quote!(#p.#k);
                let bindings = vec![(p.to_string(), data)];
                Item::Value(self.data_part(place, bindings, ty, span))
            })
            .collect();
        Some(components)
    }

    /// A part of constant data (`data[i]`, `data.0`) of type `ty`: a float,
    /// integer or `bool` by value, anything else borrowed.
    fn data_part(
        &mut self,
        place: Expr,
        bindings: Vec<(String, ValueId)>,
        ty: &syn::Type,
        span: Span,
    ) -> Operand {
        if let Some(mut float) = self.scalar_ident(ty) {
            // An `f64` of the data in a body generic over its scalar (the
            // second-order twin, which keeps the data's type): converted
            // exactly, as a literal is.
            let place = match &self.scalar {
                Some(s) if *s != float => {
                    float = s.clone();
                    syn::parse_quote_spanned!(span=> <#s as ::autograd::num_traits::NumCast>::from(#place).unwrap())
                }
                _ => place,
            };
            let v = self.emit(
                Op::Primal {
                    expr: place,
                    bindings,
                },
                Kind::Float,
                span,
            );
            self.values[v].float = Some(float);
            return Operand::Value(v);
        }
        // An element of a type only rustc knows (see
        // `constant_field_sequence`): by value, as a float or an integer is,
        // and recorded as data of type `_` (see `opaque_element`).
        if matches!(ty, syn::Type::Infer(_)) {
            let v = self.emit(
                Op::Primal {
                    expr: place,
                    bindings,
                },
                Kind::Unknown,
                span,
            );
            self.data.insert(v, ty.clone());
            return Operand::Value(v);
        }
        if let Some(kind) = primitive_kind(ty) {
            return Operand::Value(self.emit(
                Op::Primal {
                    expr: place,
                    bindings,
                },
                kind,
                span,
            ));
        }
        let expr: Expr = syn::parse_quote!(&#place);
        let v = self.emit(Op::Primal { expr, bindings }, Kind::Unknown, span);
        self.data.insert(v, ty.clone());
        Operand::Value(v)
    }
}
