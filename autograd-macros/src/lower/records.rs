//! A struct built in the body from its fields (`let mut s = State { x,
//! v: 0.0 };`), lowered where it stands, as a simulation's state is
//! written by hand, one variable per field:
//!
//! ```text
//! let mut s = State { x: a, v: b };   →   s's binding, and one binding per field holding a, b
//! s.x, s.x = e, s.v += e              →   the field's value read, assigned, updated
//! s = State { x: e, ..s };            →   each field assigned its value (`..s`: its own)
//! ```
//!
//! The struct exists at compile time only, as a tuple does. The fields'
//! bindings are found through `s`'s own (`Binding::record`), never by a
//! name: no path names them (`Binding::field`), and `s.x` reads the field
//! of the `s` it resolves to, so a `let` shadowing the struct (`let s =
//! State { x: s.v, v: s.x };`, `let s = State { v: e, ..s };`, or any
//! other `let s`) reads the fields of the `s` before it and binds its own,
//! which shadow those as `s` does, in a block until its end. Branches join
//! and loops carry the fields as any variable (named `s_x` in the IR, for
//! the generated locals). The struct used whole (passed on, returned, a
//! method called on it) is one error saying to use its fields.
//!
//! A field is a variable wherever one is read or written by name: `s.w[i]`,
//! `s.w[i] += e`, `s.w.push(e)`, `s.w.len()`, `for v in s.w.iter()`,
//! `&s.w[1..]` (`Lowerer::local_ident`, `sequence_of`, `written_place`),
//! and a destructuring assignment assigns fields, `(s.x, s.v) = (s.v, s.x)`,
//! as `std::mem::swap(&mut s.x, &mut s.v)` does.
//!
//! Not lowered yet, and rewritten before lowering into one local per field
//! (`s_x`, in the macro's own hygiene) by [`desugar`]: a name with a field
//! walked by `iter_mut()` or borrowed `&mut` (an in-out argument), or read
//! in a closure or a
//! macro other than an assertion or `vec!`; a field holding a closure or an `Option`. Only a
//! name every binding of which in the body is such a `let` (and no
//! argument's) is rewritten.

use std::collections::{HashMap, HashSet};

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::items::Item;
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
        .filter(|&(name, n)| {
            scan.unlowered.contains(name) && scan.names.rewritable_bound(name, params, n)
        })
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

/// A struct local's shape: its fields in the order its literal writes
/// them, and its type's name as written there (for messages).
#[derive(Clone)]
pub(super) struct Shape {
    fields: Vec<syn::Ident>,
    ty: String,
    /// The struct's type as the literal writes it (`None` for a tuple).
    path: Option<syn::Path>,
    /// A mutable tuple local (`let mut best = (0, f64::MIN);`), its
    /// components the fields `_0`, `_1`, ..
    tuple: bool,
}

impl Shape {
    /// The field a member names: `s.x`, or `t.1` of a tuple's.
    fn field(&self, member: &syn::Member) -> Option<&syn::Ident> {
        match member {
            syn::Member::Named(name) => self.fields.iter().find(|f| *f == name),
            syn::Member::Unnamed(k) if self.tuple => self.fields.get(k.index as usize),
            syn::Member::Unnamed(_) => None,
        }
    }
}

/// A struct literal's record, if it has only named fields, no `..base`
/// and no struct literal in a field.
fn literal_fields(e: &Expr) -> Option<Shape> {
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
    Some(Shape {
        fields,
        ty,
        path: Some(s.path.clone()),
        tuple: false,
    })
}

/// A literal updating the struct local `name` bound before it
/// (`let s = State { v: s.x, ..s };`, shadowing `s`): the fields of
/// `before`, that `s`'s record.
fn update_of_itself(e: &Expr, name: &syn::Ident, before: Option<&Shape>) -> Option<Shape> {
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
    candidates: Vec<(String, Shape)>,
    /// The names whose fields are used where the lowering does not take
    /// them yet (a field walked by `iter_mut()` or borrowed `&mut` but by
    /// `std::mem::swap`, a
    /// field in a closure or a
    /// macro other than an assertion or `vec!`, a field holding a closure
    /// or an `Option`): those the rewrite still makes locals of.
    unlowered: HashSet<String>,
    /// How many closures and macros deep the visit is.
    opaque: u32,
}

/// `s` of `s.x`.
fn field_base(e: &Expr) -> Option<String> {
    match strip_parens(e) {
        Expr::Field(f) => match strip_parens(&f.base) {
            Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// A field's value a struct local's lowering does not bind yet: a
/// closure, an `Option`, what a `let` of its own takes apart.
fn unlowered_value(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::Closure(_) => true,
        Expr::Path(p) => p.path.is_ident("None"),
        Expr::Call(c) => matches!(&*c.func, Expr::Path(p) if p.path.is_ident("Some")),
        Expr::MethodCall(m) => matches!(
            m.method.to_string().as_str(),
            "first" | "last" | "split_first" | "split_last" | "sin_cos" | "split_at"
        ),
        _ => false,
    }
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
            if let Expr::Struct(s) = strip_parens(&init.expr)
                && s.fields.iter().any(|f| unlowered_value(&f.expr))
            {
                self.unlowered.insert(pi.ident.to_string());
            }
            self.candidates.push((pi.ident.to_string(), record));
        }
        syn::visit::visit_local(self, l);
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        // `std::mem::swap(&mut s.x, &mut s.v)` is lowered as `(s.x, s.v)
        // = (s.v, s.x)`.
        if let Expr::Call(c) = e
            && super::stmt::is_mem_swap(c)
        {
            for arg in &c.args {
                match strip_parens(arg) {
                    Expr::Reference(r) => self.visit_expr(&r.expr),
                    arg => self.visit_expr(arg),
                }
            }
            return;
        }
        let fields: Vec<&Expr> = match e {
            Expr::MethodCall(m) if m.method == "iter_mut" => vec![&m.receiver],
            Expr::Reference(r) if r.mutability.is_some() => vec![&r.expr],
            Expr::Path(p) if self.opaque > 0 => {
                if let Some(i) = p.path.get_ident() {
                    self.unlowered.insert(i.to_string());
                }
                Vec::new()
            }
            _ => Vec::new(),
        };
        self.unlowered
            .extend(fields.into_iter().filter_map(field_base));
        if let Expr::Closure(c) = e {
            self.opaque += 1;
            syn::visit::visit_expr_closure(self, c);
            self.opaque -= 1;
            return;
        }
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
        let opaque = !(m.path.is_ident("vec") || super::asserts::is_assert(m));
        self.opaque += u32::from(opaque);
        crate::ir::visit_macro_args(&mut args, &mut |a| {
            parsed = true;
            self.visit_expr(a);
        });
        self.opaque -= u32::from(opaque);
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
    locals: HashMap<String, Shape>,
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
                "the local struct `{name}` is used by its fields: read and write `{name}.{field}`, assign it anew with `{name} = {ty} {{ {field}: .., ..{name} }}`; passing it on or returning it is not supported (pass or return its fields), and a method is called on it where the method is `#[differentiable]` and the struct derives `Tangent` with `f64` fields only, declared in this file"
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

/// A struct local, as the lowering holds it: its name and shape. Its
/// binding points here; each field is a binding of its own (see
/// `Binding::field`), which the lowering assigns, branches join and loops
/// carry as any variable.
pub(super) struct Record {
    name: syn::Ident,
    shape: Shape,
}

/// The message at a use of the struct local `name` whole.
fn whole_use_message(name: &syn::Ident, shape: &Shape) -> String {
    if shape.tuple {
        return format!(
            "`{name}` is a tuple of {} components: read and write them (`{name}.0`), assign it anew (`{name} = (a, b)`) or bind them (`let (a, b) = {name};`)",
            shape.fields.len()
        );
    }
    let (ty, field) = (&shape.ty, &shape.fields[0]);
    format!(
        "the local struct `{name}` is used by its fields: read and write `{name}.{field}`, assign it anew with `{name} = {ty} {{ {field}: .., ..{name} }}`; passing it on or returning it is not supported (pass or return its fields), and a method is called on it where the method is `#[differentiable]` and the struct derives `Tangent` with `f64` fields only, declared in this file"
    )
}

impl Lowerer<'_> {
    /// The struct local `e` names (`s`), by its binding.
    pub(super) fn record_named(&self, e: &Expr) -> Option<usize> {
        let Expr::Path(p) = strip_parens(e) else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let (s, b) = self.named(p.path.get_ident()?)?;
        self.scopes[s][b].record
    }

    /// Where the binding of field `field` of the struct local `r` is.
    fn field_position(&self, r: usize, field: &syn::Ident) -> Option<(usize, usize)> {
        let field = field.to_string();
        self.scopes.iter().enumerate().rev().find_map(|(s, scope)| {
            let b = scope.iter().rposition(|b| {
                b.field
                    .as_ref()
                    .is_some_and(|(k, f)| *k == r && *f == field)
            })?;
            Some((s, b))
        })
    }

    /// Where the binding of the field `member` names of the struct local
    /// `r` is.
    fn member_position(&self, r: usize, member: &syn::Member) -> Option<(usize, usize)> {
        let field = self.records[r].shape.field(member)?;
        self.field_position(r, field)
    }

    /// Where the binding of the field `f` reads is (`s.w` of a struct
    /// local, `t.1` of a mutable tuple), if it is one.
    pub(super) fn field_place(&self, f: &syn::ExprField) -> Option<(usize, usize)> {
        let r = self.record_named(&f.base)?;
        self.member_position(r, &f.member)
    }

    /// The item a field's binding holds.
    fn field_item(&self, (s, b): (usize, usize)) -> Item {
        let v = self.scopes[s][b].value;
        match self.aggregates.get(&v) {
            Some(item) => item.clone(),
            None => Item::Value(Operand::Value(v)),
        }
    }

    /// A mutable tuple local `e` names, whole: its components' current
    /// values (`let (i, v) = best;`).
    pub(super) fn record_tuple(&self, e: &Expr) -> Option<Item> {
        let r = self.record_named(e)?;
        let shape = &self.records[r].shape;
        if !shape.tuple {
            return None;
        }
        let components = shape
            .fields
            .iter()
            .map(|f| {
                let at = self.field_position(r, f)?;
                Some(self.field_item(at))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Item::Tuple(components))
    }

    /// The struct local `r` used whole at `at`: one error saying to use
    /// its fields, and a value reported already.
    fn record_whole_use(&mut self, at: &dyn ToTokens, r: usize) -> Operand {
        let record = &self.records[r];
        let message = whole_use_message(&record.name, &record.shape);
        self.cx.error_spanned_by(at, message);
        self.missing(at.span())
    }

    /// `s` of a struct local where one value is read (`f(s)`, `&s`,
    /// `s.norm()`, `s.y` of no field of it): the error; `None` where `e`
    /// names no struct local.
    pub(super) fn lower_record_whole(&mut self, e: &Expr) -> Option<Operand> {
        match strip_parens(e) {
            // A tuple used whole is read as any tuple is.
            e @ Expr::Path(_) if self.record_tuple(e).is_some() => None,
            e @ Expr::Path(_) => {
                let r = self.record_named(e)?;
                Some(self.record_whole_use(e, r))
            }
            Expr::Reference(r) => self.lower_record_whole(&r.expr),
            Expr::MethodCall(m) => {
                let r = self.record_named(&m.receiver)?;
                match self.record_method_call(m, r) {
                    Some(call) => Some(call),
                    None => Some(self.record_whole_use(&*m.receiver, r)),
                }
            }
            _ => None,
        }
    }

    /// `s.g(a)` of a struct local of a `Tangent` struct whose fields are
    /// all `f64` (declared in this file): a call of the method's struct
    /// call, as for a struct argument passed whole: a struct of zeros (a
    /// constant: the struct call takes every field from the second
    /// argument) and the fields' values in their declared order, through
    /// which their derivatives flow:
    /// `S::__autograd_g__struct_call(&S { x: 0.0, v: 0.0 }, &[x0, v0], a)`.
    /// `None` where the struct is not such a one (the error follows), and
    /// in a generic or second-order body, whose scalar the struct call
    /// does not take.
    fn record_method_call(&mut self, m: &syn::ExprMethodCall, r: usize) -> Option<Operand> {
        if self.scalar.is_some() || m.turbofish.is_some() {
            return None;
        }
        let shape = &self.records[r].shape;
        let path = shape.path.clone()?;
        let ty = path.segments.last()?.ident.clone();
        if !crate::unannotated::differentiable_method(&ty, &m.method) {
            return None;
        }
        let declared = crate::unannotated::f64_tangent_fields(&ty)?;
        if declared.len() != shape.fields.len()
            || !declared.iter().all(|d| shape.fields.iter().any(|f| f == d))
        {
            return None;
        }
        let mut values = Vec::new();
        for field in &declared {
            let field = syn::Ident::new(field, ty.span());
            match self.field_item(self.field_position(r, &field)?) {
                Item::Value(Operand::Value(v)) if self.values[v].kind == Kind::Float => {
                    values.push(v)
                }
                _ => return None,
            }
        }
        let span = m.span();
        // Zeros: the struct call takes every field from the flat values.
        let names = declared.iter().map(|f| syn::Ident::new(f, ty.span()));
        let expr: Expr = syn::parse_quote_spanned!(span=> #path { #(#names: 0.0),* });
        let whole = self.emit(
            Op::Primal {
                expr,
                bindings: Vec::new(),
            },
            Kind::Unknown,
            span,
        );
        let flat = self.emit(
            Op::Pack {
                elems: values.iter().map(|v| Operand::Value(*v)).collect(),
                collection: Collection::Array,
            },
            Kind::Array,
            span,
        );
        // Bound to names no user writes, then the call lowered as written.
        let (whole_name, flat_name) = (
            syn::Ident::new("__ad_record_whole", span),
            syn::Ident::new("__ad_record_flat", span),
        );
        self.scopes.push(Vec::new());
        self.bind(&whole_name, whole, false, None);
        self.bind(&flat_name, flat, false, None);
        let mut ty_path = path.clone();
        if let Some(last) = ty_path.segments.last_mut() {
            last.arguments = syn::PathArguments::None;
        }
        let call_name = syn::Ident::new(
            &crate::ir::method_struct_call(&m.method.to_string()),
            m.method.span(),
        );
        let args = m.args.iter();
        let call: Expr = syn::parse_quote_spanned!(span=>
            #ty_path::#call_name(&#whole_name, &#flat_name #(, #args)*)
        );
        let value = self.lower_expr(&call);
        self.scopes.pop();
        Some(value)
    }

    /// `s.x` of a struct local: the item its field's binding holds (an
    /// error at `s.y` of no field of it); `None` where `f` reads no struct
    /// local.
    pub(super) fn record_field(&mut self, f: &syn::ExprField) -> Option<Item> {
        let r = self.record_named(&f.base)?;
        let Some(at) = self.member_position(r, &f.member) else {
            return Some(Item::Value(self.record_whole_use(f, r)));
        };
        Some(self.field_item(at))
    }

    /// `let [mut] s = State { x: a, v: b };`, or `let s = State { v: e, ..s
    /// };` updating the struct local `s` before it: the fields' values
    /// (read before the new `s` binds), each bound as the field of a new
    /// struct local. Whether `local` is one.
    pub(super) fn bind_record(&mut self, local: &syn::Local) -> bool {
        let pat = match &local.pat {
            Pat::Type(pt) => &*pt.pat,
            p => p,
        };
        let (Pat::Ident(pi), Some(init)) = (pat, &local.init) else {
            return false;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() || init.diverge.is_some() {
            return false;
        }
        let name = &pi.ident;
        let Expr::Struct(literal) = strip_parens(&init.expr) else {
            return false;
        };
        let before = self.record_named(&syn::parse_quote!(#name));
        let Some(shape) = literal_fields(&init.expr).or_else(|| {
            let before = before.map(|r| &self.records[r].shape);
            update_of_itself(&init.expr, name, before)
        }) else {
            return false;
        };
        let span = local.span();
        let items = self.record_values(literal, name, &shape, before);
        let r = self.records.len();
        self.records.push(Record {
            name: name.clone(),
            shape: shape.clone(),
        });
        let mutability = pi.mutability;
        let mut whole = None;
        for (field, item) in shape.fields.iter().zip(items) {
            // Bound as `let s_x = ..;` would be, then made the field's
            // binding, which no path names.
            let local = field_local(name, field);
            let pat: Pat = syn::parse_quote!(#mutability #local);
            self.bind_field(&pat, item, None, name, field, r, &mut whole, span);
        }
        self.bind_record_itself(name, r, whole);
        true
    }

    /// Binds `pat` to `item` as field `field` of the record `r` of the
    /// struct local `name`; `whole` keeps the first field's value.
    #[allow(clippy::too_many_arguments)]
    fn bind_field(
        &mut self,
        pat: &Pat,
        item: Item,
        ty: Option<&syn::Type>,
        name: &syn::Ident,
        field: &syn::Ident,
        r: usize,
        whole: &mut Option<ValueId>,
        span: Span,
    ) {
        let bound = self.scopes.last().map_or(0, Vec::len);
        self.bind_pattern(pat, item, ty, span);
        if let Some(scope) = self.scopes.last_mut() {
            for b in &mut scope[bound..] {
                b.context = format!("{}.{field}", hygiene(name));
                b.field = Some((r, field.to_string()));
                whole.get_or_insert(b.value);
            }
        }
    }

    /// The struct's own binding, which no value holds: a path naming it
    /// resolves to no variable (`Lowerer::lookup`), and the reads of its
    /// fields go to the fields' bindings. The value kept is any of theirs,
    /// never read.
    fn bind_record_itself(&mut self, name: &syn::Ident, r: usize, whole: Option<ValueId>) {
        if let (Some(scope), Some(whole)) = (self.scopes.last_mut(), whole) {
            scope.push(Binding {
                name: name.to_string(),
                context: hygiene(name),
                value: whole,
                mutable: false,
                ty: None,
                option: None,
                record: Some(r),
                field: None,
                inout: false,
                nested: None,
            });
        }
    }

    /// `let mut t = (a, b);` (or any tuple of single values, from a
    /// branch, say): each component bound as a field of a new record,
    /// whose uses read, assign and carry the components as variables
    /// (`t.1 = v`, `t = (i, v)`, `let (i, v) = t;`). `ty` is the pattern's
    /// type, if written. Whether the tuple is one of single values.
    pub(super) fn bind_tuple(
        &mut self,
        name: &syn::Ident,
        items: &[Item],
        ty: Option<&syn::Type>,
        span: Span,
    ) -> bool {
        if items.len() < 2 || !items.iter().all(|i| matches!(i, Item::Value(_))) {
            return false;
        }
        let shape = Shape {
            fields: (0..items.len())
                .map(|k| syn::Ident::new(&format!("_{k}"), name.span()))
                .collect(),
            ty: String::new(),
            path: None,
            tuple: true,
        };
        let types: Vec<Option<&syn::Type>> = match ty {
            Some(syn::Type::Tuple(t)) if t.elems.len() == items.len() => {
                t.elems.iter().map(Some).collect()
            }
            _ => vec![None; items.len()],
        };
        let r = self.records.len();
        self.records.push(Record {
            name: name.clone(),
            shape: shape.clone(),
        });
        let mut whole = None;
        for ((field, item), ty) in shape.fields.iter().zip(items).zip(types) {
            let local = field_local(name, field);
            let pat: Pat = syn::parse_quote!(mut #local);
            self.bind_field(&pat, item.clone(), ty, name, field, r, &mut whole, span);
        }
        self.bind_record_itself(name, r, whole);
        true
    }

    /// The values of `literal`'s fields in the order of `shape`: a field
    /// left out is `..base`'s, the struct local `before` (`name` before
    /// this literal). After an error, at the literal, the field's value
    /// before stands in, so that no other error follows.
    fn record_values(
        &mut self,
        literal: &syn::ExprStruct,
        name: &syn::Ident,
        shape: &Shape,
        before: Option<usize>,
    ) -> Vec<Item> {
        let rest = match &literal.rest {
            Some(rest) => {
                if before.is_none() || self.record_named(rest) != before {
                    self.cx.error_spanned_by(
                        rest,
                        format!("a struct built in this body is assigned from its fields, and `..` takes the rest from `{name}` itself"),
                    );
                }
                true
            }
            None => false,
        };
        let mut values = Vec::new();
        for field in &shape.fields {
            let written = literal.fields.iter().find(|f| match &f.member {
                syn::Member::Named(n) => n == field,
                syn::Member::Unnamed(_) => false,
            });
            let value = match written {
                Some(f) => self.lower_item_expr(&f.expr),
                None => {
                    if !rest {
                        self.cx.error_spanned_by(
                            literal,
                            format!("`{name}` is assigned a struct without its field `{field}`"),
                        );
                    }
                    let at = before.and_then(|r| self.field_position(r, field));
                    match at {
                        Some((s, b)) => {
                            let v = self.scopes[s][b].value;
                            match self.aggregates.get(&v) {
                                Some(item) => item.clone(),
                                None => Item::Value(Operand::Value(v)),
                            }
                        }
                        None => Item::Value(self.missing(literal.span())),
                    }
                }
            };
            values.push(value);
        }
        let known = |f: &syn::FieldValue| match &f.member {
            syn::Member::Named(n) => shape.fields.contains(n),
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

    /// `s.x = e` and `s = State { x: e, ..s }` of a struct local (an
    /// error where `s` is assigned anything else). Whether `a` is one.
    pub(super) fn lower_record_assign(&mut self, a: &syn::ExprAssign) -> bool {
        match strip_parens(&a.left) {
            Expr::Field(f) if let Some(r) = self.record_named(&f.base) => {
                let at = self.member_position(r, &f.member);
                let value = self.lower_expr(&a.right);
                match at {
                    Some(at) => self.assign_at(at, value, a.span()),
                    None => {
                        self.record_whole_use(f, r);
                    }
                }
                true
            }
            left @ Expr::Path(_)
                if let Some(r) = self.record_named(left)
                    && self.records[r].shape.tuple =>
            {
                let fields = self.records[r].shape.fields.clone();
                // Every component first, then the fields assigned: `t =
                // (t.1, t.0)` swaps.
                match self.lower_item_expr(&a.right) {
                    Item::Tuple(items) if items.len() == fields.len() => {
                        for (field, item) in fields.iter().zip(items) {
                            let (Item::Value(value), Some(at)) =
                                (item, self.field_position(r, field))
                            else {
                                self.cx.error_spanned_by(
                                    &a.right,
                                    "a component holding a tuple is not assigned anew; bind the tuple with `let`",
                                );
                                continue;
                            };
                            self.assign_at(at, value, a.span());
                        }
                    }
                    _ => self.cx.error_spanned_by(
                        &a.right,
                        format!(
                            "`{}` is a tuple of {} components: assign it a tuple of as many (`t = (a, b)`)",
                            self.records[r].name,
                            fields.len()
                        ),
                    ),
                }
                true
            }
            left @ Expr::Path(_) if let Some(r) = self.record_named(left) => {
                let Expr::Struct(literal) = strip_parens(&a.right) else {
                    self.record_whole_use(left, r);
                    self.lower_expr(&a.right);
                    return true;
                };
                let (name, shape) = (self.records[r].name.clone(), self.records[r].shape.clone());
                let items = self.record_values(literal, &name, &shape, Some(r));
                // Every value first, then the fields assigned: `s = State {
                // x: s.v, v: s.x }` swaps.
                for (field, item) in shape.fields.iter().zip(items) {
                    let value = match item {
                        Item::Value(o) => o,
                        _ => {
                            self.cx.error_spanned_by(
                                literal,
                                "a field holding a tuple is not assigned anew; build the struct with `let`",
                            );
                            continue;
                        }
                    };
                    if let Some(at) = self.field_position(r, field) {
                        self.assign_at(at, value, a.span());
                    }
                }
                true
            }
            _ => false,
        }
    }

    /// `s.x op= e` of a struct local's field. Whether `b` is one.
    pub(super) fn lower_record_compound(
        &mut self,
        b: &syn::ExprBinary,
        (rule, token): (&'static Rule, TokenStream),
    ) -> bool {
        let Expr::Field(f) = strip_parens(&b.left) else {
            return false;
        };
        let Some(r) = self.record_named(&f.base) else {
            return false;
        };
        let Some((s, i)) = self.member_position(r, &f.member) else {
            self.record_whole_use(f, r);
            return true;
        };
        let current = self.scopes[s][i].value;
        let rhs = self.lower_expr(&b.right);
        let kind = self.result_kind(&[Operand::Value(current), rhs.clone()]);
        let v = self.emit(
            Op::Rule {
                rule,
                args: vec![Operand::Value(current), rhs],
                syntax: Syntax::Operator(token),
            },
            kind,
            b.span(),
        );
        self.assign_at((s, i), Operand::Value(v), b.span());
        true
    }
}
