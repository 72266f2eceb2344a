//! A struct built in the body from its fields (`let mut s = State { x, v:
//! 0.0 };`), rewritten before lowering into one local per field, as a
//! simulation's state is written by hand:
//!
//! ```text
//! let mut s = State { x: a, v: b };   →   let (mut s_x, mut s_v) = (a, b);
//! s.x, s.x = e, s.v += e, s.w[i]      →   s_x, s_x = e, s_v += e, s_w[i]
//! s = State { x: e, ..s };            →   (s_x, s_v) = (e, s_v);
//! ```
//!
//! The struct exists at compile time only, as a tuple does; every field is
//! then an ordinary local whose adjoint the pipeline keeps. The field
//! locals are named `s_x` at `s`'s place, in the macro's own hygiene, so
//! they never meet a user's variable of that name. Only a name every
//! binding of which in the body is such a `let` (and no argument's) is
//! rewritten, so every path naming it is one of them: a `let` shadowing
//! the struct (`let s = State { x: s.v, v: s.x };`) reads the fields of
//! the `s` before it and binds its own field locals, which shadow those as
//! `s` does. The struct used whole (passed on, returned, a method called
//! on it) is one error saying to use its fields.

use std::collections::{HashMap, HashSet};

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::options::BodyNames;
use super::*;

/// The rewritten body; `None` if it builds no struct.
pub(crate) fn desugar(cx: &Ctxt, body: &syn::Block, params: &[String]) -> Option<syn::Block> {
    let mut scan = Scan::default();
    scan.visit_block(body);
    let mut lets: HashMap<&str, usize> = HashMap::new();
    for (name, _) in &scan.candidates {
        *lets.entry(name).or_default() += 1;
    }
    let names: HashSet<String> = lets
        .into_iter()
        .filter(|&(name, n)| scan.names.rewritable_bound(name, params, n))
        .map(|(name, _)| name.to_string())
        .collect();
    if names.is_empty() {
        return None;
    }
    let mut body = body.clone();
    Rewrite {
        cx,
        names,
        locals: HashMap::new(),
    }
    .visit_block_mut(&mut body);
    Some(body)
}

/// A struct local: its fields in the order its literal writes them, and
/// its type's name as written there (for messages).
#[derive(Clone)]
struct Record {
    fields: Vec<syn::Ident>,
    ty: String,
}

/// A struct literal's record, if it has only named fields, no `..base`
/// and no struct literal in a field.
fn literal_fields(e: &Expr) -> Option<Record> {
    let Expr::Struct(s) = strip_parens(e) else {
        return None;
    };
    if s.rest.is_some() || s.dot2_token.is_some() || s.qself.is_some() {
        return None;
    }
    let fields = s
        .fields
        .iter()
        .map(|f| match &f.member {
            syn::Member::Named(name) if !matches!(strip_parens(&f.expr), Expr::Struct(_)) => {
                Some(name.clone())
            }
            _ => None,
        })
        .collect::<Option<Vec<_>>>()
        .filter(|f| !f.is_empty())?;
    let ty = s.path.segments.last()?.ident.to_string();
    Some(Record { fields, ty })
}

/// A literal updating the struct local `name` bound before it
/// (`let s = State { v: s.x, ..s };`, shadowing `s`): the fields of
/// `before`, that `s`'s record.
fn update_of_itself(e: &Expr, name: &syn::Ident, before: Option<&Record>) -> Option<Record> {
    let Expr::Struct(s) = strip_parens(e) else {
        return None;
    };
    let rest = s.rest.as_deref()?;
    let named_fields = s.fields.iter().all(|f| {
        matches!(&f.member, syn::Member::Named(_))
            && !matches!(strip_parens(&f.expr), Expr::Struct(_))
    });
    (named_fields
        && s.qself.is_none()
        && matches!(strip_parens(rest), Expr::Path(p) if p.path.is_ident(name)))
    .then(|| before.cloned())
    .flatten()
}

/// The local holding field `field` of the struct `base`.
fn field_local(base: &syn::Ident, field: &syn::Ident) -> syn::Ident {
    let span = base.span().resolved_at(Span::mixed_site());
    syn::Ident::new(&format!("{base}_{field}"), span)
}

#[derive(Default)]
struct Scan {
    names: BodyNames,
    candidates: Vec<(String, Record)>,
}

impl<'ast> Visit<'ast> for Scan {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.names.bind(p);
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let pat = match &l.pat {
            Pat::Type(pt) => &*pt.pat,
            p => p,
        };
        if let (Pat::Ident(pi), Some(init)) = (pat, &l.init)
            && pi.by_ref.is_none()
            && pi.subpat.is_none()
            && init.diverge.is_none()
            && let Some(record) = literal_fields(&init.expr).or_else(|| {
                let before = self.candidates.iter().rev().find(|(n, _)| pi.ident == n);
                update_of_itself(&init.expr, &pi.ident, before.map(|(_, r)| r))
            })
        {
            self.candidates.push((pi.ident.to_string(), record));
        }
        syn::visit::visit_local(self, l);
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        // A long sum nests to the left: walked in a loop.
        if !visit_binary_spine(e, &mut |x| self.visit_expr(x)) {
            syn::visit::visit_expr(self, e);
        }
    }

    /// A macro of expressions (`assert!(s.x > 0.0)`, `vec![s.x; n]`) is
    /// rewritten as the body is; in any other, a name is out of reach.
    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let mut args = m.clone();
        let mut parsed = false;
        crate::ir::visit_macro_args(&mut args, &mut |a| {
            parsed = true;
            self.visit_expr(a);
        });
        if !parsed {
            self.names.read_macro(m);
        }
    }
}

struct Rewrite<'a> {
    cx: &'a Ctxt,
    /// The names rewritten.
    names: HashSet<String>,
    /// Those bound at this point of the walk, each to its latest `let`.
    locals: HashMap<String, Record>,
}

impl Rewrite<'_> {
    fn local(&self, e: &Expr) -> Option<(syn::Ident, Vec<syn::Ident>)> {
        let Expr::Path(p) = strip_parens(e) else {
            return None;
        };
        let ident = p.path.get_ident()?;
        self.locals
            .get(&ident.to_string())
            .map(|r| (ident.clone(), r.fields.clone()))
    }

    fn whole_use(&self, at: &dyn ToTokens, name: &syn::Ident) {
        let Some(record) = self.locals.get(&name.to_string()) else {
            return;
        };
        let (ty, field) = (&record.ty, &record.fields[0]);
        self.cx.error_spanned_by(
            at,
            format!(
                "the local struct `{name}` is used by its fields: read and write `{name}.{field}`, assign it anew with `{name} = {ty} {{ {field}: .., ..{name} }}`; passing it on, returning it or calling its methods is not supported (pass or return its fields)"
            ),
        );
    }

    /// The values of `literal`'s fields in the order of `fields`: a field
    /// left out is `..base`'s. After an error, at the literal, the field's
    /// own local stands in, so that no other error follows.
    fn field_values(
        &mut self,
        literal: &syn::ExprStruct,
        name: &syn::Ident,
        fields: &[syn::Ident],
    ) -> Vec<Expr> {
        let rest = match &literal.rest {
            Some(rest) => match self.local(rest) {
                Some((base, _)) if base == *name => true,
                _ => {
                    self.cx.error_spanned_by(
                        rest,
                        format!("a struct built in this body is assigned from its fields, and `..` takes the rest from `{name}` itself"),
                    );
                    true
                }
            },
            None => false,
        };
        let mut values = Vec::new();
        for field in fields {
            let written = literal.fields.iter().find(|f| match &f.member {
                syn::Member::Named(n) => n == field,
                syn::Member::Unnamed(_) => false,
            });
            let value = match written {
                Some(f) => {
                    let mut value = f.expr.clone();
                    self.visit_expr_mut(&mut value);
                    value
                }
                None => {
                    if !rest {
                        self.cx.error_spanned_by(
                            literal,
                            format!("`{name}` is assigned a struct without its field `{field}`"),
                        );
                    }
                    let local = field_local(name, field);
                    syn::parse_quote!(#local)
                }
            };
            values.push(value);
        }
        let known = |f: &syn::FieldValue| match &f.member {
            syn::Member::Named(n) => fields.contains(n),
            syn::Member::Unnamed(_) => false,
        };
        if let Some(extra) = literal.fields.iter().find(|f| !known(f)) {
            self.cx.error_spanned_by(
                &extra.member,
                format!("`{name}` was built without this field"),
            );
        }
        values
    }
}

/// `(a, b)` of several expressions, the expression itself of one.
fn grouped<T: ToTokens>(items: &[T]) -> TokenStream {
    match items {
        [one] => quote!(#one),
        items => quote!((#(#items),*)),
    }
}

impl VisitMut for Rewrite<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if visit_binary_spine_mut(e, &mut |x| self.visit_expr_mut(x)) {
            return;
        }
        let rewritten: Option<Expr> = match &*e {
            // `s.x`
            Expr::Field(f) if let Some((name, fields)) = self.local(&f.base) => match &f.member {
                syn::Member::Named(field) if fields.contains(field) => {
                    let local = field_local(&name, field);
                    Some(syn::parse_quote_spanned!(f.span()=> #local))
                }
                _ => {
                    self.whole_use(&*e, &name);
                    None
                }
            },
            // `s = State { .. }`
            Expr::Assign(a)
                if let Some((name, fields)) = self.local(&a.left)
                    && let Expr::Struct(literal) = strip_parens(&a.right) =>
            {
                let (literal, span) = (literal.clone(), a.span());
                let values = self.field_values(&literal, &name, &fields);
                let locals: Vec<syn::Ident> =
                    fields.iter().map(|f| field_local(&name, f)).collect();
                let (targets, values) = (grouped(&locals), grouped(&values));
                Some(syn::parse_quote_spanned!(span=> #targets = #values))
            }
            e if let Some((name, _)) = self.local(e) => {
                self.whole_use(e, &name);
                None
            }
            _ => return syn::visit_mut::visit_expr_mut(self, e),
        };
        if let Some(r) = rewritten {
            *e = r;
        }
    }

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        let pat = match &l.pat {
            Pat::Type(pt) => &*pt.pat,
            p => p,
        };
        if let Pat::Ident(pi) = pat
            && self.names.contains(&pi.ident.to_string())
            && let Some(init) = &l.init
            && let Some(record) = literal_fields(&init.expr).or_else(|| {
                let before = self.locals.get(&pi.ident.to_string());
                update_of_itself(&init.expr, &pi.ident, before)
            })
            && let Expr::Struct(literal) = strip_parens(&init.expr)
        {
            let (name, mutability) = (pi.ident.clone(), pi.mutability);
            let literal = literal.clone();
            let fields = record.fields.clone();
            // The values read the struct bound before this one, if any.
            let values = self.field_values(&literal, &name, &fields);
            self.locals.insert(name.to_string(), record);
            let pats: Vec<TokenStream> = fields
                .iter()
                .map(|f| {
                    let local = field_local(&name, f);
                    quote!(#mutability #local)
                })
                .collect();
            let (pat, values) = (grouped(&pats), grouped(&values));
            if let syn::Stmt::Local(local) =
                syn::parse_quote_spanned!(l.span()=> let #pat = #values;)
            {
                *l = local;
            }
            return;
        }
        syn::visit_mut::visit_local_mut(self, l);
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        crate::ir::visit_macro_args(m, &mut |a| self.visit_expr_mut(a));
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}

    /// A `let` in a block binds until the block's end.
    fn visit_block_mut(&mut self, b: &mut syn::Block) {
        let outer = self.locals.clone();
        syn::visit_mut::visit_block_mut(self, b);
        self.locals = outer;
    }
}
