//! Sequences: values with a length whose elements are read by index. An
//! iterator chain over one becomes an index loop (see [`super::iter`]),
//! so a new kind of sequence (a local array, a `Vec`) is one more variant
//! here: how to name it, its length, and how to read an element.

use super::*;

/// Something that can be iterated and indexed.
#[derive(Clone)]
pub(super) enum Sequence {
    /// A slice argument (`&[f64]`, `&Vec<f64>`): its elements carry the
    /// argument's adjoint.
    Slice(ValueId),
    /// A local array or `Vec`, one passed by value, or a nalgebra vector:
    /// an IR value whose elements are read as `v[i]` reads them.
    Array(ValueId),
    /// A `const` or `static` array or slice item, as the body names it:
    /// its elements are constants.
    Constant(syn::Path),
    /// Constant data (see [`super::data`]) whose elements have type `elem`.
    Data { data: ValueId, elem: Box<syn::Type> },
    /// The window `w` of `x.windows(width)`: `width` elements of `base`
    /// from `start` on.
    Window {
        base: Box<Sequence>,
        start: Operand,
        width: usize,
    },
}

impl Lowerer<'_> {
    /// The sequence an expression names: a slice argument, a `const` or
    /// `static` item, a window; `&x` as `x`.
    pub(super) fn sequence_of(&self, e: &Expr) -> Option<Sequence> {
        match strip_parens(e) {
            Expr::Reference(r) if r.mutability.is_none() => self.sequence_of(&r.expr),
            Expr::Unary(u) if matches!(u.op, UnOp::Deref(_)) => self.sequence_of(&u.expr),
            e @ Expr::Path(p) => match self.local_ident(e) {
                Some(v) => match self.aggregates.get(&v) {
                    Some(Item::Seq(s)) => Some(s.clone()),
                    Some(_) => None,
                    None => {
                        let info = &self.values[v];
                        match info.kind {
                            Kind::Slice if info.param.is_some() => Some(Sequence::Slice(v)),
                            // A nalgebra vector iterates in storage order,
                            // the order its linear index `v[i]` reads.
                            Kind::Array | Kind::Matrix => Some(Sequence::Array(v)),
                            _ => self.data_sequence(v),
                        }
                    }
                },
                // Not a variable: an item of the module (`const P: [f64; 3]`).
                // In a `map` closure, a variable of the enclosing function
                // is none.
                None if p.qself.is_none()
                    && !p.path.is_ident("self")
                    && !self.outer.iter().any(|o| p.path.is_ident(o)) =>
                {
                    Some(Sequence::Constant(p.path.clone()))
                }
                None => None,
            },
            _ => None,
        }
    }

    /// The sequence an expression names, as [`Self::sequence_of`], or a
    /// field of a `#[constant]` argument (`p.rates.iter()`): constant data
    /// whose element type only rustc knows.
    pub(super) fn sequence_or_field(&mut self, e: &Expr) -> Option<Sequence> {
        match self.sequence_of(e) {
            None if self.constant_field(e) => self.constant_field_sequence(e),
            seq => seq,
        }
    }

    /// The number of elements, an integer operand computed before the loop.
    pub(super) fn sequence_len(&mut self, s: &Sequence, span: Span) -> Operand {
        match s {
            Sequence::Slice(v) | Sequence::Array(v) => {
                Operand::Value(self.emit(Op::Len { slice: *v }, Kind::Int, span))
            }
            Sequence::Constant(p) => Operand::Const(quote!(#p.len())),
            Sequence::Data { data, .. } => self.data_len(*data, span),
            Sequence::Window { width, .. } => {
                Operand::Const(syn::LitInt::new(&width.to_string(), span).into_token_stream())
            }
        }
    }

    /// The element at `index` (an integer operand in range).
    pub(super) fn sequence_element(&mut self, s: &Sequence, index: Operand, span: Span) -> Operand {
        match s {
            Sequence::Slice(v) | Sequence::Array(v) => {
                let element = self.slice_element(*v, index, span);
                // An element of a `#[constant]` slice is constant data too
                // (`for &c in coeffs { T::from(c) }`).
                if self.constant_params.contains(v)
                    && let Operand::Value(e) = element
                {
                    self.constant_params.insert(e);
                }
                element
            }
            Sequence::Constant(p) => match index {
                Operand::Const(i) => Operand::Const(self.item_read(quote!(#p[#i]), span)),
                Operand::Value(v) => {
                    let placeholder = super::primal::placeholder(0, span);
                    let read = self.item_read(quote!(#p[#placeholder]), span);
                    let expr: Expr = syn::parse_quote!(#read);
                    let bindings = vec![(placeholder.to_string(), v)];
                    let element = self.emit(Op::Primal { expr, bindings }, Kind::Float, span);
                    self.constant_elements.insert(element);
                    Operand::Value(element)
                }
            },
            Sequence::Data { data, elem } => self.data_element(*data, elem, index, span),
            Sequence::Window { base, start, .. } => {
                // `w[1]` read twice is one element read, whose index is
                // computed once.
                let key = match (&**base, &index) {
                    (Sequence::Slice(slice), Operand::Const(k)) => {
                        Some((*slice, ElementKey::Const(format!("window {start} + {k}"))))
                    }
                    _ => None,
                };
                if let Some((slice, key)) = &key {
                    let seen = self.element_reads.iter().flatten();
                    if let Some((_, _, v)) =
                        seen.into_iter().find(|(s, k, _)| s == slice && k == key)
                    {
                        return Operand::Value(*v);
                    }
                }
                let index = self.int_add(start.clone(), index, span);
                let element = self.sequence_element(base, index, span);
                if let (Some((slice, key)), Some(v)) = (key, element.value())
                    && let Some(reads) = self.element_reads.last_mut()
                {
                    reads.push((slice, key, v));
                }
                element
            }
        }
    }

    /// `a + b` on integers: folded where both are constants, `a` itself
    /// where `b` is zero, otherwise the operation the user's `i + 1` is.
    pub(super) fn int_add(&mut self, a: Operand, b: Operand, span: Span) -> Operand {
        let is_zero = |o: &Operand| matches!(o, Operand::Const(t) if t.to_string() == "0");
        match (a, b) {
            (a, b) if is_zero(&b) => a,
            (a, b) if is_zero(&a) => b,
            (Operand::Const(a), Operand::Const(b)) => Operand::Const(quote!((#a + #b))),
            (a, b) => self.int_op(Operator::Add, a, b, span),
        }
    }

    /// An integer `+`, `-` or `*`, as the user's operator would lower.
    pub(super) fn int_op(&mut self, op: Operator, a: Operand, b: Operand, span: Span) -> Operand {
        let token = match op {
            Operator::Add => quote!(+),
            Operator::Sub => quote!(-),
            _ => quote!(*),
        };
        Operand::Value(self.emit(
            Op::Rule {
                rule: table::operator_rule(op),
                args: vec![a, b],
                syntax: Syntax::Operator(token),
            },
            Kind::Int,
            span,
        ))
    }
}

impl Lowerer<'_> {
    /// `x.to_vec()` (or `x.to_owned()`) of a slice, array or `Vec`: the
    /// elements collected into a new `Vec`, as the iterator chain
    /// `x.iter().copied().collect()` lowers; `None` for anything else.
    pub(super) fn lower_to_vec(&mut self, m: &syn::ExprMethodCall) -> Option<Operand> {
        if !(m.method == "to_vec" || m.method == "to_owned")
            || !m.args.is_empty()
            || m.turbofish.is_some()
        {
            return None;
        }
        let float = match self.sequence_of(&m.receiver)? {
            Sequence::Slice(v) | Sequence::Array(v) if self.values[v].kind != Kind::Matrix => {
                match &self.values[v].float {
                    Some(f) => f.to_token_stream(),
                    None => quote!(_),
                }
            }
            _ => return None,
        };
        let receiver = &m.receiver;
        let span = m.method.span();
        let chain: Expr = syn::parse_quote_spanned!(span=>
            #receiver.iter().copied().collect::<Vec<#float>>()
        );
        Some(self.lower_expr(&chain))
    }
}
