//! `let (a, b) = helper(x);`: a tuple of floats that a call of another
//! `#[differentiable]` function returns. The IR has no tuple values, so
//! the call's value goes through the runtime's `untuple`, itself a call
//! with a VJP, which makes it an array whose elements are read by index.

use super::items::Item;
use super::*;

impl Lowerer<'_> {
    /// Binds a tuple pattern to the components of a call's tuple; whether
    /// `init` is a call of a function (not a closure bound by `let`).
    pub(super) fn bind_call_tuple(&mut self, pat: &syn::PatTuple, init: &Expr) -> bool {
        let Expr::Call(call) = strip_parens(init) else {
            return false;
        };
        if self.local_closure(&call.func).is_some() || pat.elems.len() < 2 {
            return false;
        }
        if let Some(rest) = pat.elems.iter().find(|p| matches!(p, Pat::Rest(_))) {
            self.cx.error_spanned_by(
                rest,
                "bind every component of a call's tuple to a name or `_`, such as `let (a, _) = f(x);`",
            );
            return true;
        }
        if self.lifts_constants && self.call_refused_in_twin(&call.func) {
            return true;
        }
        let span = init.span();
        let whole = self.lower_expr(init);
        if self.cx.has_errors() && whole.value().is_none() {
            return true;
        }
        if self.calls_plain_function(&call.func) {
            self.bind_plain_tuple(pat, whole, span);
            return true;
        }
        let array = self.untuple(whole, span);
        let callee = match strip_parens(&call.func) {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let components: Vec<Item> = (0..pat.elems.len())
            .map(|k| {
                let index = Operand::Const(syn::Index::from(k).into_token_stream());
                let component = self.slice_element(array, index, span);
                if let (Some(callee), Some(v)) = (&callee, component.value())
                    && callee.ends_with("_vjp")
                {
                    self.vjp_components.insert(v, callee.clone());
                }
                Item::Value(component)
            })
            .collect();
        self.bind_pattern(
            &Pat::Tuple(pat.clone()),
            Item::Tuple(components),
            None,
            span,
        );
        true
    }
}

impl Lowerer<'_> {
    /// Whether `func` names a function the source shows without the
    /// attribute (see [`crate::unannotated`]): its tuple may hold integers
    /// (`fn bracket(t: &[f64], x: f64) -> (usize, f64)`) and has no
    /// derivative.
    fn calls_plain_function(&self, func: &Expr) -> bool {
        match strip_parens(func) {
            Expr::Path(p) if p.qself.is_none() => {
                crate::unannotated::is_plain_function(&self.caller, &p.path)
            }
            _ => false,
        }
    }

    /// `let (i, w) = bracket(times, t);` of a plain function: each
    /// component is the primal `whole.k`, of the type rustc gives it (an
    /// index stays an integer). A call whose arguments have a derivative
    /// is the call's own error (a plain function has no derivative to
    /// call), and a component reading it is rejected as primal code that
    /// reads a differentiable value: never a dropped derivative.
    fn bind_plain_tuple(&mut self, pat: &syn::PatTuple, whole: Operand, span: Span) {
        let components: Vec<Item> = (0..pat.elems.len())
            .map(|k| {
                let k = syn::Index {
                    index: k as u32,
                    span,
                };
                Item::Value(match &whole {
                    Operand::Const(c) => Operand::Const(quote::quote!((#c).#k)),
                    Operand::Value(v) => {
                        let p = super::primal::placeholder(0, span);
                        let expr: Expr = syn::parse_quote_spanned!(span=> #p.#k);
                        let bindings = vec![(p.to_string(), *v)];
                        Operand::Value(self.emit(
                            Op::Primal { expr, bindings },
                            Kind::Unknown,
                            span,
                        ))
                    }
                })
            })
            .collect();
        self.bind_pattern(
            &Pat::Tuple(pat.clone()),
            Item::Tuple(components),
            None,
            span,
        );
    }

    /// `helper(x).1`: one component of a call's tuple (`inner_grad(x, w).1`,
    /// a gradient's entry); `None` where `f` is not a component of a call
    /// of a function.
    pub(super) fn call_component(&mut self, f: &syn::ExprField) -> Option<Operand> {
        let syn::Member::Unnamed(index) = &f.member else {
            return None;
        };
        let Expr::Call(call) = strip_parens(&f.base) else {
            return None;
        };
        if self.local_closure(&call.func).is_some() {
            return None;
        }
        if self.lifts_constants && self.call_refused_in_twin(&call.func) {
            return Some(self.missing(f.span()));
        }
        let span = f.base.span();
        let whole = self.lower_expr(&f.base);
        if self.cx.has_errors() && whole.value().is_none() {
            return Some(self.missing(f.span()));
        }
        let array = self.untuple(whole, span);
        let k = Operand::Const(syn::Index::from(index.index as usize).into_token_stream());
        Some(self.slice_element(array, k, f.span()))
    }

    /// The array of a call's tuple: the runtime's `untuple` of it, itself
    /// a call with a VJP.
    fn untuple(&mut self, whole: Operand, span: Span) -> ValueId {
        // In a function generic over its scalar (the second-order copy
        // too) a call's result was taken for the scalar: it is a tuple,
        // whose adjoint the callee's pullback takes as one.
        if let Some(v) = whole.value()
            && self.scalar_calls.remove(&v).is_some()
        {
            self.values[v].kind = Kind::Unknown;
        }
        let untuple: syn::Path = syn::parse_quote_spanned!(span=> ::autograd::__private::untuple);
        let array = self.emit(
            Op::Call {
                func: untuple,
                args: vec![CallArg {
                    operand: whole,
                    by_ref: false,
                    range: None,
                    span,
                }],
            },
            Kind::Array,
            span,
        );
        self.values[array].float.clone_from(&self.scalar);
        array
    }

    /// In the twin, the error at a call whose tuple has no second order,
    /// and whether `func` is one: a gradient (`inner_grad(x, w)`), whose
    /// second derivatives are third derivatives of its function, which
    /// nothing generates, or a function without the attribute, which the
    /// twin would call at its dual numbers. Any other call's tuple goes
    /// through `untuple` as in first-order code, the callee's twin giving
    /// the components' second order.
    fn call_refused_in_twin(&mut self, func: &Expr) -> bool {
        let callee = match strip_parens(func) {
            Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        let Some(callee) = callee else {
            return false;
        };
        let message = match callee.strip_suffix("_grad") {
            Some(of) if !of.is_empty() => format!(
                "the second order of a function calling `{of}_grad` takes third derivatives of `{of}`, which are not generated; remove `hessian` from this function's attribute (its `_grad`, `_vjp` and `_jvp` differentiate the call)"
            ),
            _ if self.calls_plain_function(func) => format!(
                "a `#[differentiable(hessian)]` function cannot take a tuple from `{callee}`, a function without `#[differentiable]`; compute the components in this function, or, if they are floats, annotate `{callee}` with `#[differentiable(hessian)]`"
            ),
            _ => return false,
        };
        self.cx.error_spanned_by(func, message);
        true
    }
}
