//! Local arrays of arrays of floats (`let mut p = [[1.0, 0.0], [0.0, 1.0]];`,
//! `[[0.0; 3]; 4]`), rewritten before lowering into one array in row
//! order, as a 2×2 covariance is written by hand:
//!
//! ```text
//! let mut p = [[a, b], [c, d]];   →   let mut p = [a, b, c, d];
//! p[i][j]                         →   p[i * 2 + j]
//! p = [[e, f], [g, h]];           →   p = [e, f, g, h];
//! p.len(), p[i].len()             →   p.len() / 2, 2
//! ```
//!
//! Reads and writes of an element (`p[i][j] = e`, `+=`) are then those of
//! a local array, whose adjoints the ordinary pipeline keeps. Only a name
//! bound once in the body (and no argument's) is rewritten, so every path
//! naming it is the local; any other use of it (a row as a value, passing
//! it on) is one error saying what to write.

use std::collections::HashMap;

use syn::visit::Visit;
use syn::visit_mut::VisitMut;

use super::options::BodyNames;
use super::*;

/// The rewritten body; `None` if it has no local array of arrays.
pub(super) fn desugar(cx: &Ctxt, body: &syn::Block, params: &[String]) -> Option<syn::Block> {
    let mut scan = Scan::default();
    scan.visit_block(body);
    let locals: HashMap<String, Nested> = scan
        .candidates
        .into_iter()
        .filter(|(name, _)| scan.names.rewritable(name, params))
        .collect();
    if locals.is_empty() {
        return None;
    }
    let mut body = body.clone();
    Rewrite {
        cx,
        locals,
        loops: Vec::new(),
    }
    .visit_block_mut(&mut body);
    Some(body)
}

/// A local array of arrays: the length of its rows.
#[derive(Clone)]
struct Nested {
    width: Expr,
}

/// The rows of a nested array expression flattened in row order, and the
/// width of a row; `None` for anything else.
fn flatten(e: &Expr) -> Option<(Expr, Expr)> {
    match strip_parens(e) {
        // `[[a, b], [c, d]]`, `[[0.0; 2], [1.0; 2]]` with a literal width.
        Expr::Array(rows) if !rows.elems.is_empty() => {
            let mut flat = Vec::new();
            let mut width = None;
            for row in &rows.elems {
                let elems = row_elements(row)?;
                if *width.get_or_insert(elems.len()) != elems.len() || elems.is_empty() {
                    return None;
                }
                flat.extend(elems);
            }
            let width = syn::LitInt::new(&width?.to_string(), Span::call_site());
            Some((syn::parse_quote!([#(#flat),*]), syn::parse_quote!(#width)))
        }
        Expr::Repeat(outer) => match strip_parens(&outer.expr) {
            // `[[e; n]; m]`: `[e; n * m]`.
            Expr::Repeat(inner) => {
                let (e, n, m) = (&inner.expr, &inner.len, &outer.len);
                if is_collection(e) {
                    return None;
                }
                Some((syn::parse_quote!([#e; (#n) * (#m)]), (**n).clone()))
            }
            // `[[a, b]; 3]` with a literal count.
            row => {
                let elems = row_elements(row)?;
                let count = int_literal(&outer.len)?;
                let flat: Vec<&Expr> = (0..count).flat_map(|_| elems.iter()).collect();
                let width = syn::LitInt::new(&elems.len().to_string(), Span::call_site());
                Some((syn::parse_quote!([#(#flat),*]), syn::parse_quote!(#width)))
            }
        },
        _ => None,
    }
}

fn is_collection(e: &Expr) -> bool {
    matches!(strip_parens(e), Expr::Array(_) | Expr::Repeat(_))
}

fn int_literal(e: &Expr) -> Option<usize> {
    match strip_parens(e) {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) => n.base10_parse().ok().filter(|n| *n <= 1 << 12),
        _ => None,
    }
}

/// A row's elements, none of them a collection.
fn row_elements(row: &Expr) -> Option<Vec<Expr>> {
    let elems: Vec<Expr> = match strip_parens(row) {
        Expr::Array(a) => a.elems.iter().cloned().collect(),
        Expr::Repeat(r) => vec![(*r.expr).clone(); int_literal(&r.len)?],
        _ => return None,
    };
    (!elems.iter().any(is_collection)).then_some(elems)
}

/// `[[F; n]; m]` as `[F; n * m]`.
fn flat_type(ty: &syn::Type) -> Option<syn::Type> {
    let syn::Type::Array(outer) = ty else {
        return None;
    };
    let syn::Type::Array(inner) = &*outer.elem else {
        return None;
    };
    if float_ident(&inner.elem).is_none() && !matches!(&*inner.elem, syn::Type::Path(_)) {
        return None;
    }
    let (f, n, m) = (&inner.elem, &inner.len, &outer.len);
    Some(syn::parse_quote!([#f; (#n) * (#m)]))
}

#[derive(Default)]
struct Scan {
    names: BodyNames,
    candidates: Vec<(String, Nested)>,
}

impl<'ast> Visit<'ast> for Scan {
    fn visit_pat_ident(&mut self, p: &'ast syn::PatIdent) {
        self.names.bind(p);
        syn::visit::visit_pat_ident(self, p);
    }

    fn visit_local(&mut self, l: &'ast syn::Local) {
        let (pat, ty) = match &l.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        if let (Pat::Ident(pi), Some(init)) = (pat, &l.init)
            && pi.by_ref.is_none()
            && pi.subpat.is_none()
            && init.diverge.is_none()
            && ty.is_none_or(|t| flat_type(t).is_some())
            && let Some((_, width)) = flatten(&init.expr)
        {
            self.candidates
                .push((pi.ident.to_string(), Nested { width }));
        }
        syn::visit::visit_local(self, l);
    }

    fn visit_expr(&mut self, e: &'ast Expr) {
        // A long sum nests to the left: walked in a loop.
        if !visit_binary_spine(e, &mut |x| self.visit_expr(x)) {
            syn::visit::visit_expr(self, e);
        }
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        self.names.read_macro(m);
    }
}

struct Rewrite<'a> {
    cx: &'a Ctxt,
    locals: HashMap<String, Nested>,
    /// The variables of the enclosing `for` loops over ranges, each with
    /// its range's end (exclusive).
    loops: Vec<(syn::Ident, Expr)>,
}

impl Rewrite<'_> {
    fn local(&self, e: &Expr) -> Option<(syn::Ident, Nested)> {
        let Expr::Path(p) = strip_parens(e) else {
            return None;
        };
        let ident = p.path.get_ident()?;
        self.locals
            .get(&ident.to_string())
            .map(|n| (ident.clone(), n.clone()))
    }

    /// Whether a column index is provably below the rows' width: a literal
    /// below a literal width, or the variable of an enclosing `for` loop
    /// whose range ends at most there (`0..2`, `0..N`, `0..p[i].len()`).
    fn within_row(&self, column: &Expr, name: &syn::Ident, nested: &Nested) -> bool {
        let width = int_literal(&nested.width);
        match strip_parens(column) {
            e @ Expr::Lit(_) => matches!((int_literal(e), width), (Some(j), Some(n)) if j < n),
            Expr::Path(p) => {
                let Some(ident) = p.path.get_ident() else {
                    return false;
                };
                // The innermost loop of that name.
                let Some((_, end)) = self.loops.iter().rev().find(|(v, _)| v == ident) else {
                    return false;
                };
                let same = |a: &Expr, b: &Expr| {
                    a.to_token_stream().to_string() == b.to_token_stream().to_string()
                };
                match (int_literal(end), width) {
                    (Some(e), Some(n)) => e <= n,
                    _ => {
                        same(end, &nested.width)
                            || matches!(strip_parens(end), Expr::MethodCall(m)
                                if m.method == "len"
                                    && matches!(strip_parens(&m.receiver), Expr::Index(r)
                                        if self.local(&r.expr).is_some_and(|(n, _)| n == *name)))
                    }
                }
            }
            _ => false,
        }
    }

    fn error(&self, at: &Expr, name: &syn::Ident) {
        self.cx.error_spanned_by(
            at,
            format!(
                "the array of arrays `{name}` is read and written by element, `{name}[i][j]`, or assigned whole, `{name} = [[..], [..]];`; for a row, read its elements (`{name}[i][0]`, `{name}[i][1]`)"
            ),
        );
    }

    fn rewrite(&mut self, e: &Expr) -> Option<Expr> {
        match e {
            // `p[a][b]`
            Expr::Index(outer) => {
                let Expr::Index(inner) = strip_parens(&outer.expr) else {
                    return None;
                };
                let (name, nested) = self.local(&inner.expr)?;
                if matches!(strip_parens(&outer.index), Expr::Range(_))
                    || matches!(strip_parens(&inner.index), Expr::Range(_))
                {
                    return None;
                }
                // The flat index stays in the element's row only where the
                // column is below the width: a column Rust would reject with a
                // panic must not read the next row.
                if !self.within_row(&outer.index, &name, &nested) {
                    self.cx.error_spanned_by(
                        &outer.index,
                        format!(
                            "the column of `{name}[i][j]` is a literal below the row's width or the variable of a `for` loop over `0..{name}[i].len()` (or `0..N`, the width); read other columns through such a loop"
                        ),
                    );
                    return Some(e.clone());
                }
                let (mut a, mut b) = ((*inner.index).clone(), (*outer.index).clone());
                self.visit_expr_mut(&mut a);
                self.visit_expr_mut(&mut b);
                let width = &nested.width;
                // Literal rows and columns (`p[1][0]`) are one literal index.
                let index: Expr = match (int_literal(&a), int_literal(width), int_literal(&b)) {
                    (Some(i), Some(n), Some(j)) => {
                        let k = syn::LitInt::new(&(i * n + j).to_string(), outer.span());
                        syn::parse_quote!(#k)
                    }
                    _ => syn::parse_quote!((#a) * (#width) + (#b)),
                };
                Some(syn::parse_quote_spanned!(outer.span()=> #name[#index]))
            }
            // `p = [[..], [..]]`
            Expr::Assign(a) => {
                let (name, nested) = self.local(&a.left)?;
                let Some((mut flat, width)) = flatten(&a.right) else {
                    self.error(&a.right, &name);
                    return Some(e.clone());
                };
                if width.to_token_stream().to_string() != nested.width.to_token_stream().to_string()
                {
                    self.error(&a.right, &name);
                    return Some(e.clone());
                }
                self.visit_expr_mut(&mut flat);
                Some(syn::parse_quote_spanned!(a.span()=> #name = #flat))
            }
            Expr::MethodCall(m) if m.method == "len" && m.args.is_empty() => {
                if let Some((name, nested)) = self.local(&m.receiver) {
                    let width = &nested.width;
                    return Some(syn::parse_quote!((#name.len() / (#width))));
                }
                // `p[i].len()`
                let Expr::Index(row) = strip_parens(&m.receiver) else {
                    return None;
                };
                let (_, nested) = self.local(&row.expr)?;
                let width = &nested.width;
                Some(syn::parse_quote!((#width)))
            }
            _ => None,
        }
    }
}

impl VisitMut for Rewrite<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if visit_binary_spine_mut(e, &mut |x| self.visit_expr_mut(x)) {
            return;
        }
        // `for j in a..b` (also `a..=b`, as the end b + 1): `j` is below `b`
        // in the body, unless the body rebinds it.
        if let Expr::ForLoop(f) = e
            && let Pat::Ident(pi) = &*f.pat
            && pi.mutability.is_none()
            && let Expr::Range(r) = strip_parens(&f.expr)
            && let Some(end) = &r.end
        {
            let end: Expr = match r.limits {
                syn::RangeLimits::HalfOpen(_) => (**end).clone(),
                syn::RangeLimits::Closed(_) => match int_literal(end) {
                    Some(n) => {
                        let n = syn::LitInt::new(&(n + 1).to_string(), Span::call_site());
                        syn::parse_quote!(#n)
                    }
                    None => syn::parse_quote!(usize::MAX),
                },
            };
            self.visit_expr_mut(&mut f.expr);
            self.loops.push((pi.ident.clone(), end));
            self.visit_block_mut(&mut f.body);
            self.loops.pop();
            return;
        }
        if let Some(rewritten) = self.rewrite(e) {
            *e = rewritten;
            return;
        }
        if let Some((name, _)) = self.local(e) {
            self.error(e, &name);
            return;
        }
        syn::visit_mut::visit_expr_mut(self, e);
    }

    fn visit_local_mut(&mut self, l: &mut syn::Local) {
        let name = match &l.pat {
            Pat::Type(pt) => match &*pt.pat {
                Pat::Ident(pi) => Some(pi.ident.to_string()),
                _ => None,
            },
            Pat::Ident(pi) => Some(pi.ident.to_string()),
            _ => None,
        };
        if let Some(name) = name
            && self.locals.contains_key(&name)
            && let Some(init) = &mut l.init
            && let Some((mut flat, _)) = flatten(&init.expr)
        {
            self.visit_expr_mut(&mut flat);
            *init.expr = flat;
            if let Pat::Type(pt) = &mut l.pat
                && let Some(ty) = flat_type(&pt.ty)
            {
                *pt.ty = ty;
            }
            return;
        }
        syn::visit_mut::visit_local_mut(self, l);
    }

    fn visit_item_mut(&mut self, _: &mut syn::Item) {}
}
