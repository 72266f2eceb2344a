//! Local arrays of arrays of floats (`let mut p = [[1.0, 0.0], [0.0, 1.0]];`,
//! `[[0.0; 3]; 4]`), lowered as one local array in row order, as a 2×2
//! covariance is written by hand:
//!
//! ```text
//! let mut p = [[a, b], [c, d]];   →   the local array [a, b, c, d]
//! p[i][j], p[i][j] = e, += e      →   its element i * 2 + j (integer code)
//! p = [[e, f], [g, h]];           →   the local assigned [e, f, g, h]
//! p.len(), p[i].len()             →   the rows, 2; the columns, 2
//! ```
//!
//! The `let` binds the name to the flat array, an ordinary variable that
//! loops carry and branches join, and records its shape ([`Shape`]) on
//! the binding, so every form is found by the binding the path resolves
//! to, not by its text. Reads and writes of an element are then those of
//! a local array, whose adjoints the ordinary pipeline keeps. Any other use
//! of the name (a row as a value, passing it on) is one error saying what
//! to write. A name some macro of the body mentions is left as written
//! (the macro's tokens would read the array of arrays itself).

use super::*;

/// The shape of a local array of arrays, in row order.
#[derive(Clone)]
pub(super) struct Shape {
    name: syn::Ident,
    rows: Expr,
    cols: Expr,
}

impl Shape {
    pub(super) fn name(&self) -> &syn::Ident {
        &self.name
    }

    pub(super) fn rows(&self) -> &Expr {
        &self.rows
    }

    pub(super) fn cols(&self) -> &Expr {
        &self.cols
    }
}

/// The elements of a nested array expression in row order.
enum Elements {
    /// `[[a, b], [c, d]]`; `[[a, b]; 3]` is its row `times` times.
    Rows { row: Vec<Expr>, times: usize },
    /// `[[e; n]; m]`: `e`, `n * m` times.
    Fill { elem: Box<Expr>, len: Box<Expr> },
}

/// A nested array expression flattened.
struct Flat {
    elements: Elements,
    rows: Expr,
    cols: Expr,
}

fn literal(n: usize) -> Expr {
    let n = syn::LitInt::new(&n.to_string(), Span::call_site());
    syn::parse_quote!(#n)
}

/// The rows of a nested array expression flattened in row order, and its
/// shape; `None` for anything else.
fn flatten(e: &Expr) -> Option<Flat> {
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
            Some(Flat {
                elements: Elements::Rows {
                    row: flat,
                    times: 1,
                },
                rows: literal(rows.elems.len()),
                cols: literal(width?),
            })
        }
        Expr::Repeat(outer) => match strip_parens(&outer.expr) {
            // `[[e; n]; m]`: `[e; n * m]`.
            Expr::Repeat(inner) => {
                let (e, n, m) = (&inner.expr, &inner.len, &outer.len);
                if is_collection(e) {
                    return None;
                }
                Some(Flat {
                    elements: Elements::Fill {
                        elem: e.clone(),
                        len: Box::new(syn::parse_quote!((#n) * (#m))),
                    },
                    rows: (**m).clone(),
                    cols: (**n).clone(),
                })
            }
            // `[[a, b]; 3]` with a literal count.
            row => {
                let elems = row_elements(row)?;
                let count = int_literal(&outer.len)?;
                let cols = literal(elems.len());
                Some(Flat {
                    elements: Elements::Rows {
                        row: elems,
                        times: count,
                    },
                    rows: literal(count),
                    cols,
                })
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

fn same(a: &Expr, b: &Expr) -> bool {
    a.to_token_stream().to_string() == b.to_token_stream().to_string()
}

/// Every identifier the body's macros hold, by text (nested ones too).
pub(super) fn macro_idents(body: &syn::Block) -> std::collections::HashSet<String> {
    struct Macros(std::collections::HashSet<String>);
    fn collect(t: proc_macro2::TokenTree, out: &mut std::collections::HashSet<String>) {
        match t {
            proc_macro2::TokenTree::Ident(i) => {
                out.insert(i.to_string());
            }
            proc_macro2::TokenTree::Group(g) => {
                g.stream().into_iter().for_each(|t| collect(t, out))
            }
            _ => {}
        }
    }
    impl<'ast> Visit<'ast> for Macros {
        fn visit_macro(&mut self, m: &'ast syn::Macro) {
            m.tokens
                .clone()
                .into_iter()
                .for_each(|t| collect(t, &mut self.0));
        }
        fn visit_item(&mut self, _: &'ast syn::Item) {}
    }
    let mut macros = Macros(Default::default());
    macros.visit_block(body);
    macros.0
}

/// The error at a use of the array of arrays `name` that is none of the
/// forms lowered.
fn misuse_message(name: &syn::Ident) -> String {
    format!(
        "the array of arrays `{name}` is read and written by element, `{name}[i][j]`, or assigned whole, `{name} = [[..], [..]];`; for a row, read its elements (`{name}[i][0]`, `{name}[i][1]`)"
    )
}

/// An element `p[a][b]`, as the row and column and the local's path.
fn element_parts(outer: &syn::ExprIndex) -> Option<(&Expr, &Expr, &Expr)> {
    let Expr::Index(inner) = strip_parens(&outer.expr) else {
        return None;
    };
    Some((&inner.expr, &inner.index, &outer.index))
}

fn is_range(e: &Expr) -> bool {
    matches!(strip_parens(e), Expr::Range(_))
}

impl Lowerer<'_> {
    /// The shape of the array of arrays an expression names.
    pub(super) fn nested_named(&self, e: &Expr) -> Option<Shape> {
        if self.nested_locals.is_empty() {
            return None;
        }
        let Expr::Path(p) = strip_parens(e) else {
            return None;
        };
        if p.qself.is_some() {
            return None;
        }
        let k = self.lookup(p.path.get_ident()?)?.nested?;
        self.nested_locals.get(k).cloned()
    }

    /// `let [mut] p[: [[F; n]; m]] = [[..], ..];`: the flat array bound
    /// to `p`, its shape recorded on the binding. `false`, binding
    /// nothing, for any other `let`.
    pub(super) fn bind_nested(&mut self, local: &syn::Local) -> bool {
        let (pat, ty) = match &local.pat {
            Pat::Type(pt) => (&*pt.pat, Some(&*pt.ty)),
            p => (p, None),
        };
        let (Pat::Ident(pi), Some(init)) = (pat, &local.init) else {
            return false;
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() || init.diverge.is_some() {
            return false;
        }
        let flat_ty = match ty {
            Some(t) => match flat_type(t) {
                Some(f) => Some(f),
                None => return false,
            },
            None => None,
        };
        let Some(flat) = flatten(&init.expr) else {
            return false;
        };
        if self.macro_idents.contains(&pi.ident.to_string()) {
            return false;
        }
        let span = init.expr.span();
        let array = self.lower_flat(&flat, span);
        self.bind_operand(
            Some(&pi.ident),
            pi.mutability.is_some(),
            flat_ty,
            array,
            span,
        );
        let k = self.nested_locals.len();
        self.nested_locals.push(Shape {
            name: pi.ident.clone(),
            rows: flat.rows,
            cols: flat.cols,
        });
        if let Some(b) = self.lookup_mut(&pi.ident) {
            b.nested = Some(k);
        }
        true
    }

    /// The flat array of a nested array expression.
    fn lower_flat(&mut self, flat: &Flat, span: Span) -> Operand {
        let op = match &flat.elements {
            Elements::Rows { row, times } => {
                let row: syn::punctuated::Punctuated<Expr, syn::Token![,]> =
                    row.iter().cloned().collect();
                // `[[a, b]; 3]` evaluates its row once.
                let row = self.lower_elements(&row);
                Op::Pack {
                    elems: (0..*times).flat_map(|_| row.iter().cloned()).collect(),
                    collection: Collection::Array,
                }
            }
            Elements::Fill { elem, len } => Op::Fill {
                elem: self.lower_element(elem),
                len: self.lower_expr(len),
                collection: Collection::Array,
            },
        };
        Operand::Value(self.emit(op, Kind::Array, span))
    }

    /// A use of an array of arrays in an expression: an element read, the
    /// rows' or a row's `len()`, or the error for any other; `None` where
    /// `e` uses none.
    pub(super) fn lower_nested_read(&mut self, e: &Expr) -> Option<Operand> {
        if self.nested_locals.is_empty() {
            return None;
        }
        match e {
            Expr::Path(_) => {
                let shape = self.nested_named(e)?;
                Some(self.nested_misuse(e, &shape))
            }
            Expr::Index(outer) => {
                if let Some(shape) = self.nested_named(&outer.expr) {
                    // A row as a value.
                    return Some(self.nested_misuse(&outer.expr, &shape));
                }
                let (place, row, col) = element_parts(outer)?;
                let shape = self.nested_named(place)?;
                if is_range(row) || is_range(col) {
                    return Some(self.nested_misuse(place, &shape));
                }
                let Some(index) = self.nested_index(row, col, &shape) else {
                    return Some(self.missing(outer.span()));
                };
                let array = self.local_ident(strip_parens(place))?;
                Some(self.slice_element(array, index, outer.span()))
            }
            Expr::MethodCall(m) if m.method == "len" && m.args.is_empty() => {
                if let Some(shape) = self.nested_named(&m.receiver) {
                    let rows = &shape.rows;
                    return Some(self.lower_expr(&syn::parse_quote!((#rows))));
                }
                // `row.len()` of a row walked by `iter_mut()`.
                if let Expr::Path(p) = strip_parens(&m.receiver)
                    && let Some(ident) = p.path.get_ident()
                    && let Some((_, shape, _)) = self
                        .rows_walked
                        .iter()
                        .rev()
                        .find(|(r, _, _)| same_binding(r, ident))
                {
                    let cols = shape.cols.clone();
                    return Some(self.lower_expr(&syn::parse_quote!((#cols))));
                }
                // `p[i].len()`
                let Expr::Index(row) = strip_parens(&m.receiver) else {
                    return None;
                };
                let cols = self.nested_named(&row.expr)?.cols;
                Some(self.lower_expr(&syn::parse_quote!((#cols))))
            }
            _ => None,
        }
    }

    /// Whether `e` (behind `&` or `*`) names an array of arrays where a
    /// sequence is wanted (iterated, walked): the error said if so.
    pub(super) fn nested_misused(&self, e: &Expr) -> bool {
        match strip_parens(e) {
            Expr::Reference(r) => self.nested_misused(&r.expr),
            Expr::Unary(u) if matches!(u.op, UnOp::Deref(_)) => self.nested_misused(&u.expr),
            e => match self.nested_named(e) {
                Some(shape) => {
                    self.cx.error_spanned_by(e, misuse_message(&shape.name));
                    true
                }
                None => false,
            },
        }
    }

    fn nested_misuse(&mut self, at: &Expr, shape: &Shape) -> Operand {
        self.cx.error_spanned_by(at, misuse_message(&shape.name));
        self.missing(at.span())
    }

    /// `p[a][b] = e` or `p[a][b] op= e` (the operator's rule and token) of
    /// an array of arrays, its flat element written; `false` where the
    /// target is no part of one.
    pub(super) fn lower_nested_write(
        &mut self,
        target: &syn::ExprIndex,
        compound: Option<(&'static Rule, TokenStream)>,
        rhs: &Expr,
        span: Span,
    ) -> bool {
        if self.nested_locals.is_empty() {
            return false;
        }
        if let Some(shape) = self.nested_named(&target.expr) {
            // A row written whole.
            self.nested_misuse(&target.expr, &shape);
            return true;
        }
        let Some((place, row, col)) = element_parts(target) else {
            return false;
        };
        let Some(shape) = self.nested_named(place) else {
            return false;
        };
        if is_range(row) || is_range(col) {
            self.nested_misuse(place, &shape);
            return true;
        }
        let Expr::Path(p) = strip_parens(place) else {
            return false;
        };
        let (Some(ident), Some(array)) =
            (p.path.get_ident(), self.local_ident(strip_parens(place)))
        else {
            return false;
        };
        let Some(at) = self.position(ident) else {
            return false;
        };
        let Some(index) = self.nested_index(row, col, &shape) else {
            return true;
        };
        self.write_element(at, array, index, compound, rhs, (target.span(), span));
        true
    }

    /// `p = [[..], [..]];` of an array of arrays: the flat array assigned;
    /// `false` where `a` assigns no array of arrays.
    pub(super) fn lower_nested_assign(&mut self, a: &syn::ExprAssign) -> bool {
        let Some(shape) = self.nested_named(&a.left) else {
            return false;
        };
        match flatten(&a.right) {
            Some(flat) if same(&flat.cols, &shape.cols) => {
                let array = self.lower_flat(&flat, a.right.span());
                self.assign(strip_parens(&a.left), array, a.span());
            }
            _ => {
                self.cx
                    .error_spanned_by(&a.right, misuse_message(&shape.name));
            }
        }
        true
    }

    /// The flat index of `p[row][col]`, `row * cols + col` as integer
    /// code (one literal where all three are); `None`, with the error,
    /// where the column may not be below the width: a column Rust would
    /// reject with a panic must not read the next row.
    fn nested_index(&mut self, row: &Expr, col: &Expr, shape: &Shape) -> Option<Operand> {
        if !self.within_row(col, shape) {
            let name = &shape.name;
            self.cx.error_spanned_by(
                col,
                format!(
                    "the column of `{name}[i][j]` is a literal below the row's width or the variable of a `for` loop over `0..{name}[i].len()` (or `0..N`, the width); read other columns through such a loop"
                ),
            );
            return None;
        }
        let cols = &shape.cols;
        let index: Expr = match (int_literal(row), int_literal(cols), int_literal(col)) {
            (Some(i), Some(n), Some(j)) => literal(i * n + j),
            _ => syn::parse_quote!((#row) * (#cols) + (#col)),
        };
        Some(self.lower_expr(&index))
    }

    /// Whether a column index is provably below the rows' width: a literal
    /// below a literal width, or the index of an enclosing `for` loop
    /// whose range ends at most there (`0..2`, `0..N`, `0..p[i].len()`).
    fn within_row(&self, col: &Expr, shape: &Shape) -> bool {
        let width = int_literal(&shape.cols);
        match strip_parens(col) {
            e @ Expr::Lit(_) => matches!((int_literal(e), width), (Some(j), Some(n)) if j < n),
            Expr::Path(p) if p.qself.is_none() => {
                let Some(v) = p
                    .path
                    .get_ident()
                    .and_then(|i| self.lookup(i))
                    .map(|b| b.value)
                else {
                    return false;
                };
                // The loop whose index the name is bound to.
                let Some((_, Some(end))) = self.range_ends.iter().rev().find(|(i, _)| *i == v)
                else {
                    return false;
                };
                match (int_literal(end), width) {
                    (Some(e), Some(n)) => e <= n,
                    _ => same(end, &shape.cols),
                }
            }
            _ => false,
        }
    }

    /// The exclusive end of a `for` loop's range, for [`Self::within_row`]:
    /// as written, `a..=n` as `n + 1` of a literal, `0..q[i].len()` of an
    /// array of arrays as its width; `None` where unknown.
    pub(super) fn range_end(&self, end: &Expr, inclusive: bool) -> Option<Expr> {
        if inclusive {
            return int_literal(end).map(|n| literal(n + 1));
        }
        if let Expr::MethodCall(m) = strip_parens(end)
            && m.method == "len"
            && m.args.is_empty()
            && let Expr::Index(row) = strip_parens(&m.receiver)
            && let Some(shape) = self.nested_named(&row.expr)
        {
            return Some(shape.cols);
        }
        Some(end.clone())
    }
}
