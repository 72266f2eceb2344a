//! Local arrays, `Vec`s and tuples of floats: `[a, b]`, `[e; N]`,
//! `vec![..]`, `Vec::with_capacity(n)`, `(a, b)`; element writes
//! `v[i] = e` (and `+= -= *= /=`) and `v.push(e)`, each a new value of the
//! variable (see `Op::Store`).

use syn::punctuated::Punctuated;

use super::*;

/// The elements of `vec![..]`: a list, or `elem; len`.
pub(crate) enum VecMacro {
    List(Punctuated<Expr, syn::Token![,]>),
    Fill(Box<Expr>, Box<Expr>),
}

impl syn::parse::Parse for VecMacro {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        if input.is_empty() {
            return Ok(VecMacro::List(Punctuated::new()));
        }
        let first: Expr = input.parse()?;
        if input.peek(syn::Token![;]) {
            input.parse::<syn::Token![;]>()?;
            let len: Expr = input.parse()?;
            return Ok(VecMacro::Fill(Box::new(first), Box::new(len)));
        }
        let mut list = Punctuated::new();
        list.push_value(first);
        while input.peek(syn::Token![,]) {
            list.push_punct(input.parse()?);
            if input.is_empty() {
                break;
            }
            list.push_value(input.parse()?);
        }
        Ok(VecMacro::List(list))
    }
}

impl ToTokens for VecMacro {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        match self {
            VecMacro::List(list) => list.to_tokens(tokens),
            VecMacro::Fill(elem, len) => tokens.extend(quote!(#elem; #len)),
        }
    }
}

impl VecMacro {
    /// The expressions written in the macro, to rewrite in place.
    pub(crate) fn exprs_mut(&mut self) -> Vec<&mut Expr> {
        match self {
            VecMacro::List(list) => list.iter_mut().collect(),
            VecMacro::Fill(elem, len) => vec![&mut **elem, &mut **len],
        }
    }
}

/// `Vec::new()` or `Vec::with_capacity(n)`, by any path to `Vec`.
fn is_vec_constructor(c: &syn::ExprCall) -> bool {
    let Expr::Path(p) = &*c.func else {
        return false;
    };
    let segments: Vec<String> = p
        .path
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    matches!(
        segments
            .iter()
            .rev()
            .take(2)
            .map(String::as_str)
            .collect::<Vec<_>>()[..],
        ["new", "Vec"] | ["with_capacity", "Vec"]
    )
}

/// The shape of a nalgebra type built by `new` from its elements, by the
/// alias's name: `Vector3` (3 × 1), `RowVector2` (1 × 2), `Matrix2`
/// (2 × 2), `Matrix2x3` (2 × 3).
fn fixed_shape(name: &str) -> Option<(usize, usize)> {
    let dim = |d: &str| d.parse::<usize>().ok().filter(|n| (1..=6).contains(n));
    if let Some(n) = name.strip_prefix("RowVector") {
        return Some((1, dim(n)?));
    }
    if let Some(n) = name.strip_prefix("Vector") {
        return Some((dim(n)?, 1));
    }
    let n = name.strip_prefix("Matrix")?;
    match n.split_once('x') {
        Some((r, c)) => Some((dim(r)?, dim(c)?)),
        None => dim(n).map(|n| (n, n)),
    }
}

/// The shape `SMatrix::<T, R, C>` or `SVector::<T, N>` gives in literals.
fn generic_shape(ty: &str, arguments: &syn::PathArguments) -> Option<(usize, usize)> {
    let syn::PathArguments::AngleBracketed(a) = arguments else {
        return None;
    };
    let dims: Vec<usize> = a
        .args
        .iter()
        .skip(1)
        .map(|arg| match arg {
            syn::GenericArgument::Const(Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(n),
                ..
            })) => n
                .base10_parse::<usize>()
                .ok()
                .filter(|n| (1..=6).contains(n)),
            _ => None,
        })
        .collect::<Option<_>>()?;
    match (ty, dims.as_slice()) {
        ("SMatrix", [r, c]) => Some((*r, *c)),
        ("SVector", [n]) => Some((*n, 1)),
        _ => None,
    }
}

/// `Vector3::new(a, b, c)`, `Matrix2::new(..)`, `SMatrix::<f64, 2, 2>::new`
/// (any path to them, generic arguments on the type only), `DVector::from_vec(vec![a, b])`,
/// `DVector::from_column_slice(&[a, b])` or
/// `DMatrix::from_row_slice(2, 2, &[a, b, c, d])` (`from_column_slice`, a
/// shape of literals): the constructor and the element expressions.
fn matrix_ctor(c: &syn::ExprCall) -> Option<(MatrixCtor, Vec<Expr>)> {
    let Expr::Path(p) = &*c.func else {
        return None;
    };
    let n = p.path.segments.len();
    // Generic arguments only on the type: `SMatrix::<f64, 2, 2>::new`.
    let type_arguments = |i: usize| i + 2 == n;
    if p.qself.is_some()
        || n < 2
        || p.path
            .segments
            .iter()
            .enumerate()
            .any(|(i, s)| !s.arguments.is_none() && !type_arguments(i))
    {
        return None;
    }
    let (ty, func) = (
        p.path.segments[n - 2].ident.to_string(),
        p.path.segments[n - 1].ident.to_string(),
    );
    let ctor = |form, shape, layout| MatrixCtor {
        func: p.path.clone(),
        form,
        shape,
        layout,
    };
    // `&[a, b, ..]`, the last argument.
    let slice = || match c.args.last()? {
        Expr::Reference(r) => match &*r.expr {
            Expr::Array(a) => Some(a.elems.iter().cloned().collect::<Vec<_>>()),
            _ => None,
        },
        _ => None,
    };
    let literal = |e: &Expr| match e {
        Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(n),
            ..
        }) => n
            .base10_parse::<usize>()
            .ok()
            .filter(|v| *v > 0)
            .map(|v| (n.clone(), v)),
        _ => None,
    };
    match (ty.as_str(), func.as_str()) {
        (ty, "new") => {
            let (rows, cols) =
                fixed_shape(ty).or_else(|| generic_shape(ty, &p.path.segments[n - 2].arguments))?;
            let layout = match cols {
                1 => Layout::Linear,
                cols => Layout::Rows { cols },
            };
            (c.args.len() == rows * cols).then(|| {
                let elems = c.args.iter().cloned().collect();
                (ctor(CtorForm::Args, Vec::new(), layout), elems)
            })
        }
        ("DVector", "from_vec") if c.args.len() == 1 => match &c.args[0] {
            Expr::Macro(m) if m.mac.path.is_ident("vec") => match m.mac.parse_body::<VecMacro>() {
                Ok(VecMacro::List(elems)) => {
                    let elems = elems.into_iter().collect();
                    Some((ctor(CtorForm::Vec, Vec::new(), Layout::Linear), elems))
                }
                _ => None,
            },
            _ => None,
        },
        ("DVector", "from_column_slice") if c.args.len() == 1 => {
            Some((ctor(CtorForm::Slice, Vec::new(), Layout::Linear), slice()?))
        }
        // `DMatrix::from_row_slice(2, 3, &[..])`: a shape of literals, so
        // that the entry of each element is known.
        ("DMatrix", "from_row_slice" | "from_column_slice") if c.args.len() == 3 => {
            let ((r, rows), (k, cols)) = (literal(&c.args[0])?, literal(&c.args[1])?);
            let elems = slice()?;
            let layout = match func.as_str() {
                "from_row_slice" => Layout::Rows { cols },
                _ => Layout::Columns { rows },
            };
            (elems.len() == rows * cols).then(|| (ctor(CtorForm::Slice, vec![r, k], layout), elems))
        }
        _ => None,
    }
}

/// `Matrix2::from_columns(&[a, b])` or `from_rows(&[..])` of a fixed-size
/// type, as the `new(..)` of the entries it copies, row by row (`a[0],
/// b[0], a[1], b[1]`), each vector bound once first in the macro's
/// hygiene: `{ let v0 = a; let v1 = b; Matrix2::new(v0[0], v1[0], ..) }`.
fn built_from_vectors(c: &syn::ExprCall) -> Option<Expr> {
    let Expr::Path(p) = &*c.func else {
        return None;
    };
    let n = p.path.segments.len();
    if p.qself.is_some() || n < 2 || c.args.len() != 1 {
        return None;
    }
    let func = p.path.segments[n - 1].ident.to_string();
    let by_columns = match func.as_str() {
        "from_columns" => true,
        "from_rows" => false,
        _ => return None,
    };
    let ty = &p.path.segments[n - 2];
    let (rows, cols) = fixed_shape(&ty.ident.to_string())
        .or_else(|| generic_shape(&ty.ident.to_string(), &ty.arguments))?;
    let Expr::Reference(r) = &c.args[0] else {
        return None;
    };
    let Expr::Array(vectors) = &*r.expr else {
        return None;
    };
    if vectors.elems.len() != if by_columns { cols } else { rows } {
        return None;
    }
    let span = c.span();
    let names: Vec<syn::Ident> = (0..vectors.elems.len())
        .map(|k| syn::Ident::new(&format!("vector{k}"), Span::mixed_site().located_at(span)))
        .collect();
    let mut entries = Vec::new();
    for i in 0..rows {
        for j in 0..cols {
            let (v, k) = if by_columns {
                (&names[j], i)
            } else {
                (&names[i], j)
            };
            let k = proc_macro2::Literal::usize_unsuffixed(k);
            entries.push(quote!(#v[#k]));
        }
    }
    let mut new = p.path.clone();
    new.segments[n - 1] =
        syn::PathSegment::from(syn::Ident::new("new", p.path.segments[n - 1].ident.span()));
    let vectors = vectors.elems.iter();
    Some(syn::parse_quote_spanned! {span=> {
        #(let #names = #vectors;)*
        #new(#(#entries),*)
    }})
}

/// Whether a call's function is an associated function of a nalgebra
/// vector or matrix type (`DVector::from_iterator`, `Vector3::from`).
fn is_nalgebra_call(c: &syn::ExprCall) -> bool {
    let Expr::Path(p) = &*c.func else {
        return false;
    };
    let n = p.path.segments.len();
    n >= 2 && {
        let ty = p.path.segments[n - 2].ident.to_string();
        fixed_shape(&ty).is_some()
            || [
                "DVector",
                "DMatrix",
                "RowDVector",
                "SVector",
                "SMatrix",
                "OVector",
                "OMatrix",
            ]
            .contains(&ty.as_str())
    }
}

/// Whether a body builds a nalgebra value from floats (`Vector2::new(a,
/// b)`): its second-order twin computes with matrices of dual numbers.
pub(crate) fn builds_matrices(body: &syn::Block) -> bool {
    struct Find(bool);
    impl<'ast> syn::visit::Visit<'ast> for Find {
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            self.0 |= matrix_ctor(c).is_some() || built_from_vectors(c).is_some();
            syn::visit::visit_expr_call(self, c);
        }
    }
    let mut find = Find(false);
    syn::visit::Visit::visit_block(&mut find, body);
    find.0
}

impl Lowerer<'_> {
    /// A collection of floats as an expression, or `None` if `e` is not
    /// one (`lower_expr` then reports it).
    pub(super) fn lower_collection(&mut self, e: &Expr) -> Option<Operand> {
        let span = e.span();
        let op = match e {
            Expr::Array(a) => Op::Pack {
                elems: self.lower_elements(&a.elems),
                collection: Collection::Array,
            },
            Expr::Tuple(t) if t.elems.len() >= 2 => Op::Pack {
                elems: self.lower_elements(&t.elems),
                collection: Collection::Tuple,
            },
            // An array's length is a constant expression (`4`, `N`, `K`):
            // written as it is, never converted to the second-order twin's
            // scalar (`[0.0; N]` in a function generic over `N`).
            Expr::Repeat(r) => Op::Fill {
                elem: self.lower_element(&r.expr),
                len: Operand::Const(r.len.to_token_stream()),
                collection: Collection::Array,
            },
            Expr::Macro(m) if m.mac.path.is_ident("vec") => match m.mac.parse_body::<VecMacro>() {
                Ok(VecMacro::List(elems)) => Op::Pack {
                    elems: self.lower_elements(&elems),
                    collection: Collection::Vec,
                },
                Ok(VecMacro::Fill(elem, len)) => Op::Fill {
                    elem: self.lower_element(&elem),
                    len: self.lower_expr(&len),
                    collection: Collection::Vec,
                },
                Err(err) => {
                    self.cx.error_at(err.span(), format!("{err} in `vec![..]`"));
                    return Some(self.missing(span));
                }
            },
            Expr::Call(c) if let Some(built) = built_from_vectors(c) => {
                return Some(self.lower_expr(&built));
            }
            Expr::Call(c) if let Some((ctor, elems)) = matrix_ctor(c) => {
                let elems: Punctuated<Expr, syn::Token![,]> = elems.into_iter().collect();
                let elems = self.lower_elements(&elems);
                // Matrices are of `f64` (or a twin's scalar), as matrix
                // arguments are.
                let scalar = self.matrix_scalar();
                if let Some(other) = elems
                    .iter()
                    .find_map(|e| self.float_of(e).filter(|f| *f != scalar))
                {
                    self.cx.error_spanned_by(
                        &c.func,
                        format!(
                            "a nalgebra value built in a `#[differentiable]` body holds `f64`s, as matrix arguments do; these elements are `{other}`: write the function in `f64`"
                        ),
                    );
                    return Some(self.missing(span));
                }
                let op = Op::Pack {
                    elems,
                    collection: Collection::Matrix(Box::new(ctor)),
                };
                return Some(Operand::Value(self.emit(op, Kind::Matrix, span)));
            }
            // Any other way of building one from differentiable values.
            Expr::Call(c) if is_nalgebra_call(c) && self.reads_differentiable(e) => {
                self.cx.error_spanned_by(
                    &c.func,
                    "a nalgebra value is built from differentiable values as `Vector3::new(a, b, c)`, `Matrix2::new(..)` (row by row), `DVector::from_vec(vec![a, b])`, `DVector::from_column_slice(&[a, b])` or `DMatrix::from_row_slice(2, 3, &[..])` (or `from_column_slice`, the shape in literals); write the elements in one of these",
                );
                return Some(self.missing(span));
            }
            Expr::Call(c) if is_vec_constructor(c) => {
                // The capacity is an integer (`x.len()` reads a slice only
                // for its length): lowered as an expression of its own.
                let mut bindings = Vec::new();
                let mut call = c.clone();
                for (k, arg) in call.args.iter_mut().enumerate() {
                    if let Operand::Value(v) = self.lower_expr(arg) {
                        let p = super::primal::placeholder(k, arg.span());
                        bindings.push((p.to_string(), v));
                        *arg = syn::parse_quote!(#p);
                    }
                }
                let op = match bindings.is_empty() {
                    true => Op::Copy(Operand::Const(c.to_token_stream())),
                    false => Op::Primal {
                        expr: Expr::Call(call),
                        bindings,
                    },
                };
                return Some(Operand::Value(self.emit(op, Kind::Array, span)));
            }
            _ => return None,
        };
        Some(Operand::Value(self.emit(op, Kind::Array, span)))
    }

    /// The elements of a collection, reporting the first that is not a
    /// float (one error per collection).
    pub(super) fn lower_elements(
        &mut self,
        elems: &Punctuated<Expr, syn::Token![,]>,
    ) -> Vec<Operand> {
        let mut reported = false;
        elems
            .iter()
            .map(|x| {
                let operand = self.lower_expr(x);
                if !reported && self.nested(&operand) {
                    self.report_nested(x);
                    reported = true;
                }
                operand
            })
            .collect()
    }

    /// The element of `[elem; n]` or `vec![elem; n]`.
    pub(super) fn lower_element(&mut self, e: &Expr) -> Operand {
        let operand = self.lower_expr(e);
        if self.nested(&operand) {
            self.report_nested(e);
        }
        operand
    }

    /// Whether an element is a slice, matrix or collection rather than a
    /// float (or a value whose type the macro cannot see).
    fn nested(&self, element: &Operand) -> bool {
        matches!(
            self.kind(element),
            Some(Kind::Slice | Kind::Matrix | Kind::Array)
        )
    }

    fn report_nested(&self, e: &Expr) {
        self.cx.error_spanned_by(
            e,
            "an array, `Vec` or tuple in a `#[differentiable]` body holds floats; nested collections are not supported",
        );
    }

    /// The array variable an element write `v[i] ..= e` or `v.push(e)`
    /// writes into: a local array or `Vec` (or a call's result), with its
    /// current value.
    pub(super) fn written_array(
        &mut self,
        target: &Expr,
        write: &dyn ToTokens,
        what: &str,
    ) -> Option<(syn::Ident, ValueId)> {
        let ident = match target {
            Expr::Path(p) if p.qself.is_none() => p.path.get_ident().cloned(),
            _ => None,
        };
        let (_, v) = self.written_place(target, write, what)?;
        Some((ident?, v))
    }

    /// [`Self::written_array`], of a variable or of a struct local's field
    /// (`s.w[i] = e`): where its binding is.
    pub(super) fn written_place(
        &mut self,
        target: &Expr,
        write: &dyn ToTokens,
        what: &str,
    ) -> Option<((usize, usize), ValueId)> {
        let place = match strip_parens(target) {
            Expr::Path(p) if p.qself.is_none() => p.path.get_ident().and_then(|i| self.position(i)),
            Expr::Field(f) => self.field_place(f),
            _ => None,
        };
        let found = place.map(|(s, b)| ((s, b), self.scopes[s][b].value));
        match found {
            Some((i, v)) if matches!(self.values[v].kind, Kind::Array | Kind::Unknown) => {
                if self.values[v].param.is_some() && self.values[v].by_ref {
                    self.cx.error_spanned_by(
                        write,
                        "a differentiable function does not write into its arguments; copy the argument into a local array first (`let mut v = *x;`)",
                    );
                    return None;
                }
                self.values[v].kind = Kind::Array;
                Some((i, v))
            }
            Some((_, v)) if self.values[v].kind == Kind::Slice => {
                self.cx.error_spanned_by(
                    write,
                    "writing into a slice is not supported: a differentiable function does not modify its arguments; collect into a local `Vec` (`let mut v = vec![0.0; n];`)",
                );
                None
            }
            _ => {
                self.cx.error_spanned_by(
                    write,
                    format!("{what} is supported on local arrays and `Vec`s of floats, by name (`v[i] = e`, `v.push(e)`)"),
                );
                None
            }
        }
    }

    /// Rebinds the binding at `(scope, index)` to the array's new value
    /// after a write.
    fn rebind_array(&mut self, (s, b): (usize, usize), v: ValueId) {
        let name = self.scopes[s][b].name.clone();
        self.scopes[s][b].value = v;
        self.values[v].name.get_or_insert(name);
    }

    /// `v[i] = e`, or `v[i] op= e` with the operator's rule and token.
    pub(super) fn lower_element_write(
        &mut self,
        target: &syn::ExprIndex,
        compound: Option<(&'static Rule, TokenStream)>,
        rhs: &Expr,
        span: Span,
    ) {
        if self.lower_nested_write(target, compound.clone(), rhs, span) {
            return;
        }
        let Some((place, array)) = self.written_place(&target.expr, target, "writing an element")
        else {
            return;
        };
        let index = self.lower_expr(&target.index);
        self.write_element(place, array, index, compound, rhs, (target.span(), span));
    }

    /// `array[index] = rhs`, or `array[index] op= rhs` with the operator's
    /// rule and token, of the array whose binding is at `place`; `spans`
    /// are the element's and the statement's.
    pub(super) fn write_element(
        &mut self,
        place: (usize, usize),
        array: ValueId,
        index: Operand,
        compound: Option<(&'static Rule, TokenStream)>,
        rhs: &Expr,
        (at, span): (Span, Span),
    ) {
        let mut elem = self.lower_expr(rhs);
        if let Some((rule, token)) = compound {
            let old = self.emit(
                Op::Index {
                    slice: array,
                    index: index.clone(),
                },
                Kind::Float,
                at,
            );
            let args = vec![Operand::Value(old), elem];
            let kind = self.result_kind(&args);
            elem = Operand::Value(self.emit(
                Op::Rule {
                    rule,
                    args,
                    syntax: Syntax::Operator(token),
                },
                kind,
                span,
            ));
        }
        self.store_element(place, array, index, elem, span);
    }

    /// `a[index] = elem` of the local array (or field) whose binding is at
    /// `place`, holding `array`.
    pub(super) fn store_element(
        &mut self,
        place: (usize, usize),
        array: ValueId,
        index: Operand,
        elem: Operand,
        span: Span,
    ) {
        let v = self.emit(Op::Store { array, index, elem }, Kind::Array, span);
        self.rebind_array(place, v);
    }

    /// `v.push(e)`.
    pub(super) fn lower_push(&mut self, m: &syn::ExprMethodCall) {
        let Some((place, array)) = self.written_place(&m.receiver, m, "`push`") else {
            return;
        };
        let elem = self.lower_expr(&m.args[0]);
        let v = self.emit(Op::Push { array, elem }, Kind::Array, m.span());
        self.rebind_array(place, v);
    }
}
