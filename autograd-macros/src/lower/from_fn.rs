//! `std::array::from_fn(|i| ..)` where the array's type is known, rewritten
//! before lowering into the index loop it is:
//!
//! ```text
//! let a: [f64; 3] = std::array::from_fn(|i| x[i] * w[i]);
//!     →   let a: [f64; 3] = { let mut out: [f64; 3] = [0.0; 3];
//!                             for i in 0..3 { out[i] = x[i] * w[i]; } out };
//! s = std::array::from_fn(|i| s[i] + h * k[i]);
//!     →   s = { let mut out = s; for i in 0..out.len() { out[i] = s[i] + h * k[i]; } out };
//! ```
//!
//! The type is known from a turbofish (`from_fn::<f64, 3, _>`), a typed
//! `let`, the array assigned to, or the function's result (its tail and
//! its `return`s); anywhere else the call is one error (lower/calls.rs).
//! The closure's index becomes the loop's variable, the same binding; its
//! body is the element. Every element is written before the array is read, as
//! `from_fn` computes it; reads of the old array (`s[i]` above) read the
//! old one, since `out` is a copy. A closure with `return` or `?` stays a
//! call (a `return` in the loop would leave the function).

use syn::visit_mut::VisitMut;

use super::*;
use crate::sig::Ret;

/// Rewrites every such `from_fn` of the body; `None` if there is none.
pub(super) fn desugar(ret: &Ret, body: &syn::Block) -> Option<syn::Block> {
    let mut finder = super::exits::Finder::new(|e: &Expr| from_fn_closure(e).is_some());
    syn::visit::Visit::visit_block(&mut finder, body);
    if !finder.found {
        return None;
    }
    let result = match ret {
        Ret::Outputs(syn::Type::Array(a)) => Some(a.clone()),
        _ => None,
    };
    let mut rewrite = FromFn {
        result,
        changed: false,
    };
    let mut body = body.clone();
    rewrite.visit_block_mut(&mut body);
    // The function's tail.
    if let Some(syn::Stmt::Expr(tail, None)) = body.stmts.last_mut() {
        rewrite.with_array_type(tail);
    }
    rewrite.changed.then_some(body)
}

struct FromFn {
    /// The function's result, where it is an array.
    result: Option<syn::TypeArray>,
    changed: bool,
}

impl FromFn {
    fn with_array_type(&mut self, e: &mut Expr) {
        if let Some(ty) = self.result.clone()
            && let Some(looped) = with_type(e, &ty)
        {
            *e = looped;
            self.changed = true;
        }
    }
}

impl VisitMut for FromFn {
    fn visit_local_mut(&mut self, local: &mut syn::Local) {
        syn::visit_mut::visit_local_mut(self, local);
        if let (Pat::Type(pt), Some(init)) = (&local.pat, &mut local.init)
            && init.diverge.is_none()
            && let syn::Type::Array(ty) = &*pt.ty
            && let Some(looped) = with_type(&init.expr, ty)
        {
            *init.expr = looped;
            self.changed = true;
        }
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if visit_binary_spine_mut(e, &mut |x| self.visit_expr_mut(x)) {
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
        match e {
            Expr::Assign(a) if matches!(strip_parens(&a.left), Expr::Path(_)) => {
                if let Some((index, element)) = from_fn_closure(&a.right) {
                    let (out, target) = (out(), &a.left);
                    *a.right = syn::parse_quote_spanned!(a.right.span()=> {
                        let mut #out = #target;
                        for #index in 0..#out.len() {
                            #out[#index] = #element;
                        }
                        #out
                    });
                    self.changed = true;
                }
            }
            Expr::Call(_) if let Some(ty) = turbofish_type(e) => {
                if let Some(looped) = with_type(e, &ty) {
                    *e = looped;
                    self.changed = true;
                }
            }
            Expr::Return(r) => {
                if let Some(value) = &mut r.expr {
                    self.with_array_type(value);
                }
            }
            _ => {}
        }
    }

    // A closure's `return` is its own, and its body is not the function's.
    fn visit_expr_closure_mut(&mut self, _: &mut syn::ExprClosure) {}

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}

/// The loop writing `from_fn`'s array into a new local of type `ty`, a
/// float array of a literal length.
fn with_type(e: &Expr, ty: &syn::TypeArray) -> Option<Expr> {
    let (index, element) = from_fn_closure(e)?;
    // Of `f64` or `f32`: the zero below is a float literal.
    float_ident(&ty.elem)?;
    let len = &ty.len;
    let out = out();
    Some(syn::parse_quote_spanned!(e.span()=> {
        let mut #out: #ty = [0.0; #len];
        for #index in 0..#len {
            #out[#index] = #element;
        }
        #out
    }))
}

/// `std::array::from_fn` (also `core::` or `::std::`). Only the full path:
/// a shorter one (`array::from_fn`, `from_fn`) may name a user's function,
/// which is called as any other.
pub(super) fn is_from_fn(path: &syn::Path) -> bool {
    let names: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    matches!(names.as_slice(), ["std" | "core", "array", "from_fn"])
}

/// The array type a turbofish names, `from_fn::<f64, 3, _>`.
fn turbofish_type(e: &Expr) -> Option<syn::TypeArray> {
    let Expr::Call(c) = strip_parens(e) else {
        return None;
    };
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

fn out() -> syn::Ident {
    syn::Ident::new("out", Span::mixed_site())
}

/// `std::array::from_fn(|i| element)` (also `core::` or `::std::`): the
/// index's pattern and the element, where the closure has no `return` or
/// `?` of its own.
fn from_fn_closure(e: &Expr) -> Option<(Pat, Expr)> {
    let Expr::Call(c) = strip_parens(e) else {
        return None;
    };
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
        Pat::Type(pt) => (*pt.pat).clone(),
        p => p.clone(),
    };
    if !matches!(index, Pat::Ident(_)) {
        return None;
    }
    let mut exits =
        super::exits::Finder::new(|e: &Expr| matches!(e, Expr::Return(_) | Expr::Try(_)));
    syn::visit::Visit::visit_expr(&mut exits, &closure.body);
    if exits.found {
        return None;
    }
    Some((index, (*closure.body).clone()))
}
