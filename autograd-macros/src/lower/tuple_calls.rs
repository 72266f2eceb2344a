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
        if self.lifts_constants {
            // The twin: `hessian` takes callees returning one number.
            self.cx.error_spanned_by(
                &call.func,
                "a `#[differentiable(hessian)]` function cannot call a function returning a tuple (`hessian` needs callees returning one number); compute the components inline or return each from a function of its own",
            );
            return true;
        }
        let span = init.span();
        let whole = self.lower_expr(init);
        if self.cx.has_errors() && whole.value().is_none() {
            return true;
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
        let components = (0..pat.elems.len())
            .map(|k| {
                let index = Operand::Const(syn::Index::from(k).into_token_stream());
                Item::Value(self.slice_element(array, index, span))
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
