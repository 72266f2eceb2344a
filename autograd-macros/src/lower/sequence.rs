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
    /// A sub-slice `&x[a..b]` of a slice, array, `Vec` or nalgebra vector
    /// (`v.as_slice()`), or of another sub-slice: a view of `base`'s
    /// elements `start..end`, `len` of them. `len` is computed where the
    /// sub-slice is made, panicking as that slicing does when the range is
    /// out of bounds.
    Sub {
        base: Box<Sequence>,
        start: Operand,
        end: Operand,
        len: Operand,
    },
}

impl Lowerer<'_> {
    /// The sequence an expression names: a slice argument, a `const` or
    /// `static` item, a window; `&x` as `x`.
    pub(super) fn sequence_of(&self, e: &Expr) -> Option<Sequence> {
        match strip_parens(e) {
            Expr::Reference(r) if r.mutability.is_none() => self.sequence_of(&r.expr),
            Expr::Unary(u) if matches!(u.op, UnOp::Deref(_)) => self.sequence_of(&u.expr),
            // `v.as_slice()` of a nalgebra vector, a `Vec` or an array.
            Expr::MethodCall(m)
                if m.method == "as_slice" && m.args.is_empty() && m.turbofish.is_none() =>
            {
                match self.sequence_of(&m.receiver)? {
                    seq @ (Sequence::Slice(_) | Sequence::Array(_)) => Some(seq),
                    _ => None,
                }
            }
            // An array of arrays is iterated by rows, which no sequence is.
            e @ Expr::Path(_) if self.nested_named(e).is_some() => None,
            // `s.w` of a struct local: as the variable it is.
            e @ Expr::Field(_) => {
                let v = self.local_ident(e)?;
                match self.aggregates.get(&v) {
                    Some(Item::Seq(s)) => Some(s.clone()),
                    Some(_) => None,
                    None => match self.values[v].kind {
                        Kind::Array | Kind::Matrix => Some(Sequence::Array(v)),
                        _ => self.data_sequence(v),
                    },
                }
            }
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
            None => self.iterated_result(e),
            seq => seq,
        }
    }

    /// A call's result the body iterates (`let r = residuals(p);` then
    /// `r.iter()`), whose type the macro cannot see: a `Vec`, an array or
    /// a vector (nothing else iterates), so a local array from here on,
    /// as with `let r: Vec<f64> = ..`.
    fn iterated_result(&mut self, e: &Expr) -> Option<Sequence> {
        let e = match strip_parens(e) {
            Expr::Reference(r) if r.mutability.is_none() => strip_parens(&r.expr),
            e => e,
        };
        if !matches!(e, Expr::Path(_)) {
            return None;
        }
        let v = self.local_ident(e)?;
        // In a function generic over its scalar (the second-order copy
        // too), a call's result was taken for the scalar.
        let scalar_call = self.scalar_calls.remove(&v).is_some();
        let info = &mut self.values[v];
        if !(info.kind == Kind::Unknown || scalar_call)
            || info.param.is_some()
            || self.aggregates.contains_key(&v)
        {
            return None;
        }
        info.kind = Kind::Array;
        Some(Sequence::Array(v))
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
            Sequence::Sub { len, .. } => len.clone(),
        }
    }

    /// The sub-slice `e` denotes, `&x[a..b]`, `x[a..]`, `x[..b]`, `x[a..=b]`
    /// (also of a sub-slice, `&x[a..b][c..]`), its range lowered and
    /// checked; `None`, lowering nothing, for any other expression.
    pub(super) fn sub_slice_of(&mut self, e: &Expr) -> Option<Sequence> {
        match strip_parens(e) {
            Expr::Reference(r) if r.mutability.is_none() => self.sub_slice_of(&r.expr),
            Expr::Index(i) => {
                let Expr::Range(r) = strip_parens(&i.index) else {
                    return None;
                };
                let base = match self.sub_slice_of(&i.expr) {
                    Some(base) => base,
                    None => match self.sequence_of(&i.expr) {
                        Some(
                            seq @ (Sequence::Slice(_) | Sequence::Array(_) | Sequence::Sub { .. }),
                        ) => seq,
                        Some(_) => return None,
                        // A call's result that is sliced is an array or a
                        // `Vec` (as one that is indexed).
                        None => {
                            let v = self.local_ident(&i.expr)?;
                            if self.values[v].kind != Kind::Unknown
                                || self.aggregates.contains_key(&v)
                                || self.missing.contains(&v)
                                || self.data_sequence(v).is_some()
                            {
                                return None;
                            }
                            self.values[v].kind = Kind::Array;
                            Sequence::Array(v)
                        }
                    },
                };
                Some(self.sub_slice(base, r, e.span()))
            }
            _ => None,
        }
    }

    /// `base[a..b]`: its bounds as integer operands of `base`, and its
    /// length from the primal's own check of the range.
    pub(super) fn sub_slice(&mut self, base: Sequence, r: &syn::ExprRange, span: Span) -> Sequence {
        let private = quote!(::autograd::__private);
        let start = match &r.start {
            Some(a) => self.lower_expr(a),
            None => super::iter::int_const(0, span),
        };
        let base_len = self.sequence_len(&base, span);
        let (end, len) = match &r.end {
            Some(b) => {
                let mut end = self.lower_expr(b);
                if matches!(r.limits, syn::RangeLimits::Closed(_)) {
                    end = self.int_add(end, super::iter::int_const(1, span), span);
                }
                let len = self.primal_int(
                    quote!(#private::sub_slice_len),
                    vec![base_len, start.clone(), end.clone()],
                    span,
                );
                (end, len)
            }
            None => {
                let len = self.primal_int(
                    quote!(#private::sub_slice_from_len),
                    vec![base_len.clone(), start.clone()],
                    span,
                );
                (base_len, len)
            }
        };
        // Bounds within the whole: a sub-slice of a sub-slice is one of
        // its base, the range offset by the outer start.
        let (base, start, end) = match base {
            Sequence::Sub {
                base, start: outer, ..
            } => {
                let from = self.int_add(outer.clone(), start, span);
                // The end from the checked length, so the check is made
                // wherever the part is read.
                let to = self.int_add(from.clone(), len.clone(), span);
                (*base, from, to)
            }
            base => (base, start, end),
        };
        Sequence::Sub {
            base: Box::new(base),
            start,
            end,
            len,
        }
    }

    /// A call's argument that is a sub-slice, `&x[a..b]` or a name bound
    /// to one: that part of the whole, passed by reference.
    pub(super) fn sub_slice_arg(&mut self, a: &Expr) -> Option<CallArg> {
        let named = match strip_parens(a) {
            Expr::Reference(r) if r.mutability.is_none() => &*r.expr,
            e => e,
        };
        // `&x[a..b]` of a whole: the call's own slicing checks the range.
        if let Expr::Index(i) = strip_parens(named)
            && let Expr::Range(r) = strip_parens(&i.index)
            && let Some(Sequence::Slice(v) | Sequence::Array(v)) = self.sequence_of(&i.expr)
        {
            let start = match &r.start {
                Some(a) => self.lower_expr(a),
                None => super::iter::int_const(0, a.span()),
            };
            let end = match &r.end {
                Some(b) => {
                    let end = self.lower_expr(b);
                    match r.limits {
                        syn::RangeLimits::Closed(_) => {
                            self.int_add(end, super::iter::int_const(1, a.span()), a.span())
                        }
                        syn::RangeLimits::HalfOpen(_) => end,
                    }
                }
                None => self.sequence_len(&Sequence::Slice(v), a.span()),
            };
            return Some(CallArg {
                operand: Operand::Value(v),
                by_ref: true,
                span: a.span(),
                range: Some(SubRange { start, end }),
            });
        }
        let sub = match self.sequence_of(named) {
            Some(sub @ Sequence::Sub { .. }) => sub,
            _ => self.sub_slice_of(a)?,
        };
        let Sequence::Sub {
            base, start, end, ..
        } = sub
        else {
            return None;
        };
        let (Sequence::Slice(v) | Sequence::Array(v)) = *base else {
            return None;
        };
        Some(CallArg {
            operand: Operand::Value(v),
            by_ref: true,
            span: a.span(),
            range: Some(SubRange { start, end }),
        })
    }

    /// `s[i]` of a sub-slice as the user wrote it: the index checked
    /// against the sub-slice's length, as the primal's indexing panics.
    pub(super) fn sub_slice_element(
        &mut self,
        s: &Sequence,
        index: Operand,
        span: Span,
    ) -> Operand {
        let Sequence::Sub { len, .. } = s else {
            return self.sequence_element(s, index, span);
        };
        let index = self.primal_int(
            quote!(::autograd::__private::sub_index),
            vec![len.clone(), index],
            span,
        );
        self.sequence_element(s, index, span)
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
            Sequence::Sub { base, start, .. } => {
                let index = self.int_add(start.clone(), index, span);
                self.sequence_element(base, index, span)
            }
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
        let mut seq = self.sequence_of(&m.receiver)?;
        // A sub-slice's elements are its base's.
        while let Sequence::Sub { base, .. } = seq {
            seq = *base;
        }
        let float = match seq {
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
