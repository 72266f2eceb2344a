//! `std::array::from_fn(|i| ..)` where the array's type is known, lowered
//! where it stands as the index loop it is:
//!
//! ```text
//! let a: [f64; 3] = std::array::from_fn(|i| x[i] * w[i]);
//!     →   out = [0.0; 3]; loop for i in 0..3 { out[i] = x[i] * w[i] }; a = out
//! s = std::array::from_fn(|i| s[i] + h * k[i]);
//!     →   out = s; loop for i in 0..s.len() { out[i] = s[i] + h * k[i] }; s = out
//! ```
//!
//! The type is known from a turbofish (`from_fn::<f64, 3, _>`), a typed
//! `let`, the array assigned to, or the function's result (its tail and
//! its `return`s, branches by the time they are lowered; see
//! `Lowerer::expected`); anywhere else the call is one error. The
//! closure's index is the loop's variable, the same binding; its body is
//! the element. Every element is written before the array is read, as
//! `from_fn` computes it; reads of the old array (`s[i]` above) read the
//! old one, since `out` is another binding. The closure's body is lowered
//! as a closure's (`Lowerer::inline_body`): a `return` in it gives the
//! element.

use super::*;

const NEEDS_TYPE: &str = "`std::array::from_fn` is supported where the array's type is known: `let a: [f64; N] = std::array::from_fn(|i| ..);`, `from_fn::<f64, N, _>(..)`, an assignment to an array, or the function's `[f64; N]` result; or write the loop, `for i in 0..N { a[i] = ..; }`";

/// `std::array::from_fn` (also `core::` or `::std::`). Only the full path:
/// a shorter one (`array::from_fn`, `from_fn`) may name a user's function,
/// which is called as any other.
pub(super) fn is_from_fn(path: &syn::Path) -> bool {
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    matches!(names.as_slice(), ["std" | "core", "array", "from_fn"])
}

/// The array type a turbofish names, `from_fn::<f64, 3, _>`.
fn turbofish_type(c: &syn::ExprCall) -> Option<syn::TypeArray> {
    let Expr::Path(p) = &*c.func else { return None };
    let syn::PathArguments::AngleBracketed(args) = &p.path.segments.last()?.arguments else {
        return None;
    };
    let mut args = args.args.iter();
    let (Some(syn::GenericArgument::Type(elem)), Some(len)) = (args.next(), args.next()) else {
        return None;
    };
    let len: Expr = match len {
        syn::GenericArgument::Const(e) => e.clone(),
        // `3` parses as a const; a `const N` item parses as a type path.
        syn::GenericArgument::Type(syn::Type::Path(t)) => Expr::Path(syn::ExprPath {
            attrs: Vec::new(),
            qself: None,
            path: t.path.clone(),
        }),
        _ => return None,
    };
    Some(syn::parse_quote!([#elem; #len]))
}

/// The hidden array the loop writes, as the user's code cannot name it.
fn out() -> syn::Ident {
    syn::Ident::new("out", Span::mixed_site())
}

/// `std::array::from_fn(|i| element)` (also `core::` or `::std::`): the
/// call, its index's name and its closure.
fn from_fn_call(e: &Expr) -> Option<(&syn::ExprCall, syn::Ident, &syn::ExprClosure)> {
    let Expr::Call(c) = strip_parens(e) else {
        return None;
    };
    let (index, closure) = from_fn_closure(c)?;
    Some((c, index, closure))
}

/// The index's name and the closure of a call of `from_fn`.
fn from_fn_closure(c: &syn::ExprCall) -> Option<(syn::Ident, &syn::ExprClosure)> {
    let Expr::Path(p) = &*c.func else { return None };
    if !is_from_fn(&p.path) || p.qself.is_some() || c.args.len() != 1 {
        return None;
    }
    let Expr::Closure(closure) = &c.args[0] else {
        return None;
    };
    if closure.inputs.len() != 1 || closure.asyncness.is_some() {
        return None;
    }
    let index = match &closure.inputs[0] {
        Pat::Type(pt) => &*pt.pat,
        p => p,
    };
    let Pat::Ident(index) = index else {
        return None;
    };
    if index.by_ref.is_some() || index.subpat.is_some() {
        return None;
    }
    Some((index.ident.clone(), closure))
}

impl Lowerer<'_> {
    /// A call of `std::array::from_fn`, `expected` the array type its
    /// place gives (a typed `let`, the function's result): the loop
    /// writing a new array of that type, or of its turbofish's; otherwise
    /// one error.
    pub(super) fn lower_from_fn(
        &mut self,
        c: &syn::ExprCall,
        expected: Option<syn::TypeArray>,
    ) -> Operand {
        let ty = turbofish_type(c).or(expected);
        let (Some((index, closure)), Some(ty)) = (from_fn_closure(c), ty) else {
            self.cx.error_spanned_by(c, NEEDS_TYPE);
            return self.missing(c.span());
        };
        // Of floats (or of a generic function's scalar): the new array
        // starts at zeros of them.
        let zero = match (float_ident(&ty.elem), self.scalar_ident(&ty.elem)) {
            (Some(_), _) => quote!(0.0),
            (None, Some(s)) => quote!(#s::zero()),
            (None, None) => {
                self.cx.error_spanned_by(c, NEEDS_TYPE);
                return self.missing(c.span());
            }
        };
        let span = c.span();
        let out = out();
        self.scopes.push(Vec::new());
        let fill = Op::Fill {
            elem: Operand::Const(zero),
            len: self.lower_expr(&ty.len),
            collection: Collection::Array,
        };
        let fill = Operand::Value(self.emit(fill, Kind::Array, span));
        self.bind_operand(
            Some(&out),
            true,
            Some(syn::Type::Array(ty.clone())),
            fill,
            span,
        );
        let len = self.lower_expr(&ty.len);
        let array = self.lower_element_loop(&out, len, index, closure, span);
        self.scopes.pop();
        array
    }

    /// `target = std::array::from_fn(|i| ..)` of a local array: the loop
    /// writing a copy of it, then the assignment; `false` if `value` is
    /// no such call.
    pub(super) fn lower_from_fn_assign(&mut self, target: &Expr, value: &Expr, span: Span) -> bool {
        let Some((c, index, closure)) = from_fn_call(value) else {
            return false;
        };
        if turbofish_type(c).is_some() || !matches!(strip_parens(target), Expr::Path(_)) {
            return false;
        }
        let Some(array) = self.assign_target(strip_parens(target)) else {
            return true;
        };
        match self.values[array].kind {
            Kind::Array => {}
            // An array a call returned, written from here on.
            Kind::Unknown => self.values[array].kind = Kind::Array,
            // Not an array: the call's own error.
            _ => return false,
        }
        let out = out();
        self.scopes.push(Vec::new());
        self.bind_operand(Some(&out), true, None, Operand::Value(array), span);
        let len = Operand::Value(self.emit(Op::Len { slice: array }, Kind::Int, span));
        let written = self.lower_element_loop(&out, len, index, closure, c.span());
        self.scopes.pop();
        self.assign(target, written, span);
        true
    }

    /// `for index in 0..len { out[index] = element; }`, `out` bound
    /// mutable in the innermost scope; the array written.
    fn lower_element_loop(
        &mut self,
        out: &syn::Ident,
        len: Operand,
        index: syn::Ident,
        closure: &syn::ExprClosure,
        span: Span,
    ) -> Operand {
        let element = self.inline_body(closure);
        self.lower_loop_with(None, closure.body.span(), |l| {
            let i = l.new_value(Kind::Int, Some(index.to_string()));
            l.bind(&index, i, false, None);
            let elem = l.lower_expr(&element);
            if let Some(place) = l.position(out) {
                let array = l.scopes[place.0][place.1].value;
                l.store_element(place, array, Operand::Value(i), elem, span);
            }
            LoopHeader::Range {
                index: Some(i),
                start: super::iter::int_const(0, span),
                end: len,
                inclusive: false,
                reversed: false,
            }
        });
        match self.lookup(out) {
            Some(b) => Operand::Value(b.value),
            None => self.missing(span),
        }
    }
}
