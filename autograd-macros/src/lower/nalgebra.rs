//! nalgebra values: `m.map(f)`, as one element-wise rule or as its closure
//! lowered to a scalar function, the constants such a closure reads, and
//! the methods matrices do not have.

use super::*;

/// The rule of a `map` closure that applies one unary scalar rule to its
/// element: `|v| v.tanh()`, `|v| f64::tanh(v)`, or the path `f64::tanh`.
fn single_elementwise_rule(param: &syn::Ident, body: &Expr) -> Option<&'static Rule> {
    let is_param = |e: &Expr| matches!(strip_parens(e), Expr::Path(p) if p.path.is_ident(param));
    let name = match strip_parens(body) {
        Expr::MethodCall(m) if m.args.is_empty() && is_param(&m.receiver) => m.method.to_string(),
        Expr::Call(c) if c.args.len() == 1 && is_param(&c.args[0]) => match &*c.func {
            Expr::Path(p)
                if p.path.segments.len() == 2
                    && (p.path.segments[0].ident == "f64" || p.path.segments[0].ident == "f32") =>
            {
                p.path.segments[1].ident.to_string()
            }
            _ => return None,
        },
        _ => return None,
    };
    table::elementwise(&name)
}

impl Lowerer<'_> {
    /// A method nalgebra values do not have in the table; `of_floats` if
    /// floats have it, which on a matrix is not element-wise.
    pub(super) fn unsupported_matrix_method(
        &mut self,
        m: &syn::ExprMethodCall,
        name: &str,
        of_floats: bool,
    ) -> Operand {
        let hint = if of_floats {
            format!(
                "; on nalgebra values `{name}()` is not element-wise (`exp()` of a square matrix is the matrix exponential): write `m.map(|v| v.{name}())` for the element-wise function"
            )
        } else {
            String::new()
        };
        self.cx.error_spanned_by(
            &m.method,
            format!(
                "unsupported method `{name}` on a matrix{hint}; supported on matrices: {}",
                table::supported_matrix_methods()
            ),
        );
        self.missing(m.span())
    }

    /// `m.map(|v| body)` or `m.map(f64::exp)`: the closure's body is lowered
    /// as a scalar function of its own, nested in the operation, whose
    /// pullback the matrix rule applies element by element.
    pub(super) fn lower_map(&mut self, receiver: Operand, m: &syn::ExprMethodCall) -> Operand {
        let arg = &m.args[0];
        let (param, body): (syn::Ident, Expr) = match arg {
            Expr::Closure(c) => {
                let param = match c.inputs.first() {
                    Some(Pat::Ident(pi)) if c.inputs.len() == 1 => Some(pi.ident.clone()),
                    Some(Pat::Type(pt)) if c.inputs.len() == 1 => match &*pt.pat {
                        Pat::Ident(pi) => Some(pi.ident.clone()),
                        _ => None,
                    },
                    _ => None,
                };
                let Some(param) = param else {
                    self.cx.error_spanned_by(
                        &c.inputs,
                        "the closure of `map` takes one element: write `|v| ...`",
                    );
                    return self.missing(m.span());
                };
                (param, (*c.body).clone())
            }
            Expr::Path(p) => {
                let v = syn::Ident::new("v", Span::mixed_site());
                (v.clone(), syn::parse_quote!(#p(#v)))
            }
            other => {
                self.cx.error_spanned_by(
                    other,
                    "`map` takes a closure `|v| ...` or a function path such as `f64::exp`",
                );
                return self.missing(m.span());
            }
        };
        let Some(recv) = receiver.value() else {
            return self.missing(m.span());
        };
        if let Some(rule) = single_elementwise_rule(&param, &body) {
            // `m.map(f64::tanh)`: one element-wise rule, whose backward reads
            // the mapped result instead of running the closure again.
            return Operand::Value(self.emit(
                Op::Rule {
                    rule,
                    args: vec![receiver],
                    syntax: Syntax::Map(arg.to_token_stream()),
                },
                Kind::Matrix,
                m.span(),
            ));
        }
        // The closure reads the enclosing function's variables as constants
        // (which `analysis` checks they are); so does a closure in it.
        let mut outer: Vec<String> = self
            .scopes
            .iter()
            .flat_map(|s| s.iter().map(|b| b.name.clone()))
            .filter(|n| param != n)
            .collect();
        outer.extend(self.outer.iter().cloned());
        let elem = self.matrix_scalar();
        let block: syn::Block = syn::parse_quote_spanned!(m.span()=> { #body });
        // The floats the closure reads that may carry a derivative (not a
        // `#[constant]` argument's): found by lowering it once with every
        // variable a constant (its errors dropped), then its parameters.
        let probe_sig = crate::sig::map_element_sig(&param, &[], &elem, m.span());
        let inputs: Vec<(syn::Ident, ValueId)> = match crate::sig::parse(self.cx, &probe_sig, false)
        {
            Some(sig) => {
                let probe = Ctxt::default();
                let caller = Some(self.caller.as_str());
                lower_fn(&probe, &sig, &probe_sig, &block, outer.clone(), caller)
                    .captures
                    .iter()
                    .filter_map(|ident| {
                        let v = self.lookup(ident)?.value;
                        let float = self.values[v].kind == Kind::Float;
                        (float && !self.constant_params.contains(&v)).then(|| (ident.clone(), v))
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        let input_names: Vec<syn::Ident> = inputs.iter().map(|(i, _)| i.clone()).collect();
        outer.retain(|o| !input_names.iter().any(|i| i == o));
        let syn_sig = crate::sig::map_element_sig(&param, &input_names, &elem, m.span());
        let Some(sig) = crate::sig::parse(self.cx, &syn_sig, false) else {
            return self.missing(m.span());
        };
        let closure = lower_fn(self.cx, &sig, &syn_sig, &block, outer, Some(&self.caller));
        let mut captures = Vec::new();
        for ident in &closure.captures {
            match self.lookup(ident) {
                Some(b) => captures.push((ident.clone(), b.value)),
                None if !self.captures.contains(ident) => self.captures.push(ident.clone()),
                None => {}
            }
        }
        Operand::Value(self.emit(
            Op::Map {
                recv,
                forward: arg.to_token_stream(),
                closure: Box::new(closure),
                captures,
                inputs,
            },
            Kind::Matrix,
            m.span(),
        ))
    }

    /// In a `map` closure, an element or a field of a variable of the
    /// enclosing function (`w[0]`, `p.scale`) that reads nothing of the
    /// closure's own: a constant of the element-wise function.
    pub(super) fn outer_constant(&mut self, e: &Expr) -> Option<Operand> {
        fn root(e: &Expr) -> &Expr {
            match strip_parens(e) {
                Expr::Field(f) => root(&f.base),
                Expr::Index(i) => root(&i.expr),
                e => e,
            }
        }
        let ident = match root(e) {
            r @ Expr::Path(p) if self.local_ident(r).is_none() => p.path.get_ident()?,
            _ => return None,
        };
        if !self.outer.iter().any(|o| ident == o) {
            return None;
        }
        if self.reads_locals(e) {
            return None;
        }
        struct OuterReads<'a> {
            outer: &'a [String],
            found: Vec<syn::Ident>,
        }
        impl<'ast> Visit<'ast> for OuterReads<'_> {
            fn visit_expr_path(&mut self, p: &'ast syn::ExprPath) {
                if let Some(ident) = p.path.get_ident()
                    && self.outer.iter().any(|o| ident == o)
                {
                    self.found.push(ident.clone());
                }
            }
        }
        let mut reads = OuterReads {
            outer: &self.outer,
            found: Vec::new(),
        };
        reads.visit_expr(e);
        for ident in reads.found {
            if !self.captures.contains(&ident) {
                self.captures.push(ident);
            }
        }
        Some(Operand::Const(quote!((#e))))
    }
}
