//! Closures bound by `let` (`let sq = |v: f64| v * v; sq(a) + sq(b)`): a
//! call is the closure's body lowered inline, its parameters bound to the
//! arguments and its other names resolved where the closure was written,
//! so a variable shadowed between the closure and the call still means
//! what the closure captured.

use super::items::Item;
use super::*;

const CAPTURE_ASSIGNED: &str = "a closure that assigns to a variable it captures is not supported; write the assignment where the closure is called, or a loop";

/// The first assignment in a closure's body to a variable the closure does
/// not declare itself (a parameter, a `let`): the closure is an `FnMut`,
/// whose calls change the caller's variables.
fn assigned_capture(closure: &syn::ExprClosure) -> Option<Expr> {
    struct Assignments {
        declared: Vec<String>,
        found: Option<Expr>,
    }
    fn root(e: &Expr) -> Option<String> {
        match e {
            Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            Expr::Field(f) => root(&f.base),
            Expr::Index(i) => root(&i.expr),
            Expr::Paren(p) => root(&p.expr),
            Expr::Unary(u) => root(&u.expr),
            _ => None,
        }
    }
    impl Assignments {
        fn target(&mut self, left: &Expr) {
            if self.found.is_none() && root(left).is_some_and(|n| !self.declared.contains(&n)) {
                self.found = Some(left.clone());
            }
        }
    }
    impl<'ast> Visit<'ast> for Assignments {
        fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
            self.declared.push(p.ident.to_string());
        }
        fn visit_expr_assign(&mut self, a: &'ast syn::ExprAssign) {
            self.target(&a.left);
            syn::visit::visit_expr_assign(self, a);
        }
        fn visit_expr_binary(&mut self, b: &'ast syn::ExprBinary) {
            if super::is_compound_assign(&b.op) {
                self.target(&b.left);
            }
            syn::visit::visit_expr_binary(self, b);
        }
    }
    let mut a = Assignments {
        declared: Vec::new(),
        found: None,
    };
    for p in &closure.inputs {
        a.visit_pat(p);
    }
    a.visit_expr(&closure.body);
    a.found
}

/// A closure bound to a name, with the bindings visible where it was
/// written.
#[derive(Clone)]
pub(super) struct LocalClosure {
    closure: syn::ExprClosure,
    scopes: Vec<Vec<Binding>>,
}

impl Lowerer<'_> {
    /// `let name = |..| ..;`: binds `name` to the closure; whether `init`
    /// is one.
    pub(super) fn bind_closure(&mut self, pat: &Pat, init: &Expr) -> bool {
        let Expr::Closure(closure) = strip_parens(init) else {
            return false;
        };
        let Pat::Ident(pi) = pat else {
            return false;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() {
            return false;
        }
        if let Some(asyncness) = &closure.asyncness {
            self.cx.error_spanned_by(
                asyncness,
                "`async` code is not supported in a `#[differentiable]` body",
            );
        }
        if let Some(target) = assigned_capture(closure) {
            self.cx.error_spanned_by(target, CAPTURE_ASSIGNED);
            // Bound anyway, so its calls report nothing more.
            let v = self.emit(Op::Missing, Kind::Unknown, closure.span());
            self.bind(&pi.ident, v, false, None);
            return true;
        }
        let stand_in = self.new_value(Kind::Unknown, Some(pi.ident.to_string()));
        // Its `return`s, loops and labelled blocks rewritten once, as a
        // function body's are: a call lowers the rewritten body.
        let mut closure = closure.clone();
        if let Some(body) = super::exits::desugar_closure(self.cx, &closure, self.scalar.as_ref()) {
            *closure.body = body;
        }
        let local = LocalClosure {
            closure,
            scopes: self.scopes.clone(),
        };
        self.closures.insert(stand_in, local);
        self.bind(&pi.ident, stand_in, false, None);
        true
    }

    /// The body of a closure lowered in place of the function's own code
    /// (`from_fn`'s element, `for_each`'s step), with the rewrite that
    /// stops at a closure made on it as on the function's body: its loops'
    /// exits.
    pub(super) fn inline_body(&self, closure: &syn::ExprClosure) -> Expr {
        super::exits::desugar_closure(self.cx, closure, self.scalar.as_ref())
            .unwrap_or_else(|| (*closure.body).clone())
    }

    /// The closure a name is bound to, if it is one.
    pub(super) fn local_closure(&self, func: &Expr) -> Option<LocalClosure> {
        let v = self.local_ident(strip_parens(func))?;
        self.closures.get(&v).cloned()
    }

    /// A call of a closure bound by `let`: its body, inline.
    pub(super) fn inline_closure(&mut self, local: LocalClosure, call: &syn::ExprCall) -> Item {
        let span = call.span();
        let closure = &local.closure;
        if closure.inputs.len() != call.args.len() {
            self.cx.error_spanned_by(
                call,
                format!(
                    "this closure takes {} argument(s) but {} were given",
                    closure.inputs.len(),
                    call.args.len()
                ),
            );
            return Item::Value(self.missing(span));
        }
        // The arguments are read where the call is.
        let args: Vec<Item> = call
            .args
            .iter()
            .map(|a| {
                let a = match a {
                    Expr::Reference(r) if r.mutability.is_none() => &*r.expr,
                    a => a,
                };
                self.lower_item_expr(a)
            })
            .collect();
        let at_call = std::mem::replace(&mut self.scopes, local.scopes.clone());
        let captured = self.snapshot();
        self.scopes.push(Vec::new());
        for (p, a) in closure.inputs.iter().zip(args) {
            self.bind_pattern(p, a, None, p.span());
        }
        let out = self.lower_item_expr(&closure.body);
        self.scopes.pop();
        // A capture changed other than by assignment (`v.push(x)`).
        if self.snapshot() != captured {
            self.cx.error_spanned_by(closure, CAPTURE_ASSIGNED);
        }
        self.scopes = at_call;
        out
    }

    /// A closure bound by `let` used other than called.
    pub(super) fn closure_not_called(&mut self, e: &Expr) -> Operand {
        self.cx.error_spanned_by(
            e,
            "a closure bound by `let` is supported where it is called, `f(x)`; to pass a function, annotate it with `#[differentiable]` and pass its name",
        );
        self.missing(e.span())
    }
}
