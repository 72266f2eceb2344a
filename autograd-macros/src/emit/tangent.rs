//! Forward mode, `#[differentiable(jvp)]`: `NAME_jvp(args.., tangents..)
//! -> (value, output_tangent)`, one sweep that computes each value as the
//! primal does (the same expression, so the value is bit for bit the
//! primal's) and, next to it, its tangent.
//!
//! Each operation's tangent is the one its table entry declares
//! ([`Tangent`]): a scalar rule calls the runtime's `STEM_tangent`; on
//! nalgebra values (or values whose type the macro cannot see) a linear
//! operation is applied to the tangents, a bilinear one to each tangent
//! with the other operand, an element-wise one (whose Jacobian is
//! diagonal, so its own transpose) takes its dispatched pullback at the
//! tangent, and `m.max()` the tangent of the element it picked. Arrays,
//! `Vec`s and tuples are linear in their elements: building, writing an
//! element, `push` and reading one act the same on the tangents. A call
//! goes through the callee's hidden JVP (see `autograd::__private::ForwardMode`).
//! Values that depend on no differentiable argument carry no tangent: a
//! reader takes a zero in their place.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Span, TokenStream};
use quote::{ToTokens, quote, quote_spanned};

use super::arrays::{boxed_fill, fill, pack};
use super::scalar::Scalar;
use super::{
    Gen, Shape, generics, hygienic_inputs, kept_args, names, paths, primal_value, scopes, shape,
    where_clause,
};
use crate::analysis::{
    Analysis, consumable_arrays, consumable_arrays_forward, large_fill, scalar_form,
};
use crate::ir::*;
use crate::sig::{Param, ParamKind, Ret, Signature};
use crate::table::{Form, Func, Pass, Read, Rule, Tangent};

/// The facade's hidden module, which the generated code calls into.
fn private() -> TokenStream {
    quote!(::autograd::__private)
}

/// A generator of primal code with nothing recorded: the forward sweep of
/// the JVP reads every value after its operation.
fn plain_gen<'a>(f: &'a Function, an: &'a Analysis, scalar: &'a Scalar, lanes: bool) -> Gen<'a> {
    Gen {
        f,
        an,
        scalar,
        // Each tangent array is read where its value is: written in place
        // where the value is. With no reverse sweep, also an array the
        // reverse would read (a loop's initial `Vec::with_capacity(n)`,
        // whose zero adjoint is shaped like it), in its own block.
        consumable: consumable_arrays(f, an)
            .union(&consumable_arrays_forward(f))
            .copied()
            .collect(),
        top_loops: HashSet::new(),
        declared: HashSet::new(),
        movable: HashSet::new(),
        broadcast: HashMap::new(),
        lent: HashSet::new(),
        deferred: Vec::new(),
        windows: HashMap::new(),
        fresh_windows: HashSet::new(),
        dead_entries: HashMap::new(),
        hoisted_spares: TokenStream::new(),
        recorded: HashSet::new(),
        recorded_pullback_ty: TokenStream::new(),
        in_pullback: false,
        buffers: None,
        scaled: crate::analysis::scaled_products(f, an),
        gate: false,
        reach: false,
        adopted: Default::default(),
        lanes,
    }
}

/// The tangent type of a differentiable argument in `NAME_jvp`: a float's
/// is the float, a slice's or a `Vec`'s a slice, a matrix's or an array's
/// a reference to one.
pub fn tangent_ty(p: &Param) -> Option<TokenStream> {
    if !p.differentiable {
        return None;
    }
    match &p.kind {
        ParamKind::Float(t) => Some(quote!(#t)),
        ParamKind::Slice(t) => Some(quote!(&[#t])),
        ParamKind::Matrix { owned, .. } => Some(quote!(&#owned)),
        ParamKind::Array { owned, .. } if matches!(**owned, syn::Type::Array(_)) => {
            Some(quote!(&#owned))
        }
        ParamKind::Array { elem, .. } => Some(quote!(&[#elem])),
        _ => None,
    }
}

/// Every argument's tangent type in the hidden JVP, `NoGradient` for a
/// constant one.
pub(super) fn full_tangent_tys(sig: &Signature) -> Vec<TokenStream> {
    let private = private();
    sig.params
        .iter()
        .map(|p| tangent_ty(p).unwrap_or_else(|| quote!(#private::NoGradient)))
        .collect()
}

impl Gen<'_> {
    /// Whether a value carries a tangent: it depends on a differentiable
    /// argument and is of a differentiable kind.
    fn has_tangent(&self, v: ValueId) -> bool {
        self.an.varied[v] && self.f.info(v).kind.is_differentiable()
    }

    fn tangent_of(&self, o: &Operand) -> Option<ValueId> {
        o.value().filter(|v| self.has_tangent(*v))
    }

    /// Whether the tangent's local is a reference: a slice's always, a
    /// matrix or array argument's (`NAME_jvp` takes `&DMatrix<f64>`,
    /// `&[f64; N]`, `&[f64]`).
    fn tangent_is_ref(&self, v: ValueId) -> bool {
        let info = self.f.info(v);
        info.kind == Kind::Slice
            || (matches!(info.kind, Kind::Matrix | Kind::Array) && info.param.is_some())
    }

    fn tangent(&self, v: ValueId) -> TokenStream {
        names::tangent(self.f, v).into_token_stream()
    }

    /// The tangent as an owned value of a new local.
    fn tangent_owned(&self, v: ValueId) -> TokenStream {
        let t = self.tangent(v);
        match self.f.info(v).kind {
            k if k.is_copy() || k == Kind::Slice => t,
            // A `Vec` argument's tangent is a slice: owned, a `Vec`.
            Kind::Array if self.tangent_is_ref(v) => quote!(::std::borrow::ToOwned::to_owned(#t)),
            _ if self.tangent_is_ref(v) => quote!(::core::clone::Clone::clone(#t)),
            _ => quote!(::core::clone::Clone::clone(&#t)),
        }
    }

    /// The tangent moved out of `block`'s scope (see `moved_out_of`).
    fn tangent_moved_out_of(&self, v: ValueId, block: BlockId) -> TokenStream {
        if self.f.info(v).block == block && !self.tangent_is_ref(v) {
            self.tangent(v)
        } else {
            self.tangent_owned(v)
        }
    }

    fn tangent_ref(&self, v: ValueId) -> TokenStream {
        let t = self.tangent(v);
        if self.tangent_is_ref(v) {
            t
        } else {
            quote!(&#t)
        }
    }

    /// The tangent as an operand of an operator, next to `other` (as
    /// `binary_operand` passes the value).
    fn tangent_operator(&self, v: ValueId, other: &Operand) -> TokenStream {
        let kind = |o: &Operand| o.value().map(|v| self.f.info(v).kind);
        let private = private();
        match self.f.info(v).kind {
            k if k.is_copy() => self.tangent(v),
            Kind::Unknown if matches!(kind(other), Some(Kind::Matrix | Kind::Unknown)) => {
                let t = self.tangent(v);
                quote!(#private::operator_operand(&#t))
            }
            _ => self.tangent_ref(v),
        }
    }

    /// A zero shaped like the operand's value (free for a float).
    fn zero_like(&self, o: &Operand) -> TokenStream {
        let float = o
            .value()
            .is_some_and(|v| self.f.info(v).kind == Kind::Float);
        if float && self.scalar.param().is_some() {
            return self.scalar.zero();
        }
        let r = self.operand_ref(o);
        self.zero_of(r)
    }

    /// A zero tangent shaped like the value `r` refers to: K lanes of
    /// zeros in a K-lane sweep.
    fn zero_of(&self, r: TokenStream) -> TokenStream {
        let private = private();
        match self.lanes {
            true => quote!(#private::lane_zeros(#r)),
            false => quote!(#private::zero_like(#r)),
        }
    }

    /// A float's tangent in a scalar rule's tangent expression: in a K-lane
    /// sweep, its lane (see [`Self::per_lane`]).
    fn scalar_tangent(&self, v: ValueId) -> TokenStream {
        let t = self.tangent(v);
        match self.lanes {
            true => {
                let lane = names::lane();
                quote!(#t[#lane])
            }
            false => t,
        }
    }

    /// A scalar rule's tangent expression over [`Self::scalar_tangent`]s:
    /// in a K-lane sweep, applied lane by lane (the rule stays the
    /// runtime's scalar one; the lanes' shared factors are computed once
    /// where LLVM hoists them).
    fn per_lane(&self, expr: TokenStream) -> TokenStream {
        match self.lanes {
            true => {
                let (private, lane) = (private(), names::lane());
                quote!(#private::per_lane(|#lane| #expr))
            }
            false => expr,
        }
    }

    /// A zero like the value `v` defines.
    fn zero_like_value(&self, v: ValueId) -> TokenStream {
        self.zero_like(&Operand::Value(v))
    }

    /// The forward sweep of a block with tangents.
    fn tangent_block(&self, b: &Block) -> TokenStream {
        let mut out = TokenStream::new();
        for stmt in &b.stmts {
            match stmt {
                Stmt::Let { dst, op, span, ty } => {
                    out.extend(self.tangent_let(*dst, op, *span, ty))
                }
                Stmt::If(i) => out.extend(self.tangent_if(i)),
                Stmt::Loop(l) => out.extend(self.tangent_loop(l)),
            }
        }
        out
    }

    fn tangent_let(
        &self,
        dst: ValueId,
        op: &Op,
        span: Span,
        ty: &Option<Box<syn::Type>>,
    ) -> TokenStream {
        if matches!(op, Op::Absent) {
            return TokenStream::new();
        }
        let v = names::value(self.f, dst);
        let t = names::tangent(self.f, dst);
        if let Op::Call { func, args } = op
            && self.has_tangent(dst)
        {
            return self.tangent_call(dst, func, args, span);
        }
        let ty = ty.as_ref().map(|t| quote!(: #t));
        let expr = self.primal_expr(op);
        let mut out = quote_spanned!(span=> let #v #ty = #expr;);
        if self.has_tangent(dst) && !self.scaled.unread.contains(&dst) {
            let tangent = self.op_tangent(dst, op, span);
            out.extend(quote_spanned!(span=> let #t = #tangent;));
        }
        out
    }

    /// The tangent of the value an operation defines.
    fn op_tangent(&self, dst: ValueId, op: &Op, span: Span) -> TokenStream {
        match op {
            Op::Copy(Operand::Value(a)) if self.has_tangent(*a) => self.tangent_owned(*a),
            Op::Rule { rule, args, syntax } if self.lanes && self.any_unknown(args) => {
                self.unknown_rule_lanes(dst, rule, args, syntax, span)
            }
            Op::Rule { rule, args, syntax } => self.rule_tangent(dst, rule, args, syntax, span),
            Op::Index { slice, index } if self.has_tangent(*slice) => {
                let (s, i) = (self.tangent(*slice), self.operand(index));
                quote!(#s[#i])
            }
            Op::Cast {
                arg: Operand::Value(a),
                ty,
                ..
            } if self.has_tangent(*a) => {
                let t = self.tangent(*a);
                quote!(#t as #ty)
            }
            Op::Map {
                recv,
                closure,
                captures,
                inputs,
                ..
            } if inputs.iter().any(|(_, v)| self.has_tangent(*v)) => {
                // The closure's partials at the element (its pullback at
                // one), dotted with the element's and the inputs' tangents.
                let helper = super::map_helper(closure, &self.an.closures[&dst], span);
                let rebind = self.rebind(captures);
                let h = names::map_helper(dst);
                let (x, t, r) = (
                    names::element(),
                    names::element_adjoint(),
                    names::map_partials(),
                );
                let func = paths::path(
                    crate::table::map_closure(Form::New).as_ref(),
                    || "map's pullback".into(),
                    span,
                );
                let m = self.operand_ref(&Operand::Value(*recv));
                let values: Vec<TokenStream> = inputs.iter().map(|(_, v)| self.owned(*v)).collect();
                let mut terms = Vec::new();
                let dm = if self.has_tangent(*recv) {
                    terms.push(quote!(#r.0 * #t));
                    self.tangent_ref(*recv)
                } else {
                    m.clone()
                };
                for (k, (_, v)) in inputs.iter().enumerate() {
                    if self.has_tangent(*v) {
                        let (slot, tv) = (syn::Index::from(k + 1), self.tangent(*v));
                        terms.push(quote!(#r.#slot * #tv));
                    }
                }
                quote_spanned! {span=> {
                    #rebind
                    let #h = #helper;
                    #func(#dm, #m, |#x: f64, #t: f64| {
                        let #r = #h(#x #(, #values)*).1(1.0);
                        #(#terms)+*
                    })
                }}
            }
            Op::Map {
                recv,
                closure,
                captures,
                inputs,
                ..
            } if self.has_tangent(*recv) => {
                // An element-wise function's Jacobian is diagonal: its
                // pullback at the tangent is the tangent.
                let helper = super::map_helper(closure, &self.an.closures[&dst], span);
                let rebind = self.rebind(captures);
                let h = names::map_helper(dst);
                let (x, g) = (names::element(), names::element_adjoint());
                let func = paths::path(
                    crate::table::map_closure(Form::New).as_ref(),
                    || "map's pullback".into(),
                    span,
                );
                let (dm, m) = (
                    self.tangent_ref(*recv),
                    self.operand_ref(&Operand::Value(*recv)),
                );
                let values: Vec<TokenStream> = inputs.iter().map(|(_, v)| self.owned(*v)).collect();
                quote_spanned! {span=> {
                    #rebind
                    let #h = #helper;
                    #func(#dm, #m, |#x: f64, #g: f64| #h(#x #(, #values)*).1(#g).0)
                }}
            }
            // Collections are linear in their elements: the same operation
            // on the tangents.
            Op::Pack { elems, collection } => {
                pack(collection, elems.iter().map(|e| self.element_tangent(e)))
            }
            Op::Fill { elem, len, .. } if self.an.boxes_arrays && large_fill(op) => {
                boxed_fill(self.element_tangent(elem), self.operand(len))
            }
            Op::Fill {
                elem,
                len,
                collection,
            } => fill(collection, self.element_tangent(elem), self.operand(len)),
            Op::Store { array, index, elem } => {
                let a = names::written_array();
                let (start, i) = (self.tangent_to_write(*array, dst), self.operand(index));
                let e = self.element_tangent(elem);
                quote_spanned!(span=> {
                    let mut #a = #start;
                    #a[#i] = #e;
                    #a
                })
            }
            Op::Push { array, elem } => {
                let a = names::written_array();
                let e = self.element_tangent(elem);
                if self.has_tangent(*array) {
                    let start = self.tangent_to_write(*array, dst);
                    quote_spanned!(span=> {
                        let mut #a = #start;
                        #a.push(#e);
                        #a
                    })
                } else {
                    // Zeros as long as the new value, the pushed one last.
                    let (v, last) = (
                        names::value(self.f, dst),
                        syn::Ident::new("last", Span::mixed_site()),
                    );
                    let zero = self.zero_of(quote!(&#v));
                    quote_spanned!(span=> {
                        let mut #a = #zero;
                        let #last = #a.len() - 1;
                        #a[#last] = #e;
                        #a
                    })
                }
            }
            // `stop_gradient`, literals, primal-only code: no derivative.
            _ => self.zero_like_value(dst),
        }
    }

    /// Whether an operand is a value whose type the macro cannot see (a
    /// call's result).
    fn any_unknown(&self, args: &[Operand]) -> bool {
        args.iter().any(|a| {
            a.value()
                .is_some_and(|v| self.f.info(v).kind == Kind::Unknown)
        })
    }

    /// Whether a rule's tangent is its scalar form, lane by lane in a
    /// K-lane sweep: on floats, and in a K-lane sweep also on values whose
    /// type the macro cannot see (see [`Self::unknown_rule_lanes`]).
    fn scalar_rule(&self, rule: &Rule, args: &[Operand]) -> bool {
        scalar_form(self.f, rule, args) || (self.lanes && lanes_scalar_form(self.f, rule, args))
    }

    /// A K-lane sweep's scalar rule on values whose type the macro cannot
    /// see (a call's result, `2.0 * bump(x, y)`): each such operand, its
    /// tangent and the rule's value as a float and its lanes, the rule
    /// lane by lane on them, and its lanes as the value's tangent. Where
    /// one is no float after all (a callee returning a matrix) the
    /// conversion says so and the sweep gives up (`None`), so the Jacobian
    /// sweeps one direction at a time.
    fn unknown_rule_lanes(
        &self,
        dst: ValueId,
        rule: &Rule,
        args: &[Operand],
        syntax: &Syntax,
        span: Span,
    ) -> TokenStream {
        let private = private();
        let or_give_up = |e: TokenStream| {
            quote! {
                match #e {
                    ::core::option::Option::Some(x) => x,
                    ::core::option::Option::None => return ::core::option::Option::None,
                }
            }
        };
        let mut unknown: Vec<ValueId> = args
            .iter()
            .filter_map(Operand::value)
            .filter(|v| self.f.info(*v).kind == Kind::Unknown)
            .collect();
        unknown.dedup();
        let mut floats = TokenStream::new();
        for v in unknown.iter().copied().chain(std::iter::once(dst)) {
            let value = names::value(self.f, v);
            if v != dst && self.has_tangent(v) {
                let t = names::tangent(self.f, v);
                let lanes = or_give_up(quote!(#private::tangent_lanes(&#value, &#t)));
                floats.extend(quote!(let #t = #lanes;));
            }
            let float = or_give_up(quote!(#private::lane_float(&#value)));
            floats.extend(quote!(let #value = #float;));
        }
        let lanes = self.rule_tangent(dst, rule, args, syntax, span);
        let value = names::value(self.f, dst);
        or_give_up(quote_spanned! {span=>
            #private::lanes_of(&#value, {
                #floats
                #lanes
            })
        })
    }

    /// An element's tangent in a collection, a zero if it has none.
    fn element_tangent(&self, e: &Operand) -> TokenStream {
        match self.tangent_of(e) {
            Some(v) => self.tangent(v),
            None => self.zero_like(e),
        }
    }

    /// The tangent array an element write or `push` to `dst` starts from:
    /// the old value's, in its own buffer where the primal writes in place
    /// (nothing reads either again), else zeros shaped like the new value.
    fn tangent_to_write(&self, array: ValueId, dst: ValueId) -> TokenStream {
        if !self.has_tangent(array) {
            return self.zero_like_value(dst);
        }
        if self.consumable.contains(&array) && !self.tangent_is_ref(array) {
            self.tangent(array)
        } else {
            self.tangent_owned(array)
        }
    }

    /// The tangent of a rule, as its table entry declares it.
    fn rule_tangent(
        &self,
        dst: ValueId,
        rule: &Rule,
        args: &[Operand],
        syntax: &Syntax,
        span: Span,
    ) -> TokenStream {
        let out = names::value(self.f, dst).into_token_stream();
        let read_ref = |r: &Read| match r {
            Read::Arg(i) => self.operand_ref(&args[*i]),
            Read::Out => quote!(&#out),
        };
        let active: Vec<Option<ValueId>> = args
            .iter()
            .zip(rule.params)
            .map(|(a, p)| if p.diff { self.tangent_of(a) } else { None })
            .collect();
        if let Syntax::Map(_) = syntax {
            // `m.map(f64::NAME)`: the element-wise pullback at the tangent.
            let func = paths::runtime(rule, Func::Mapped(Form::New), span);
            let dm = active[0].map_or_else(|| self.zero_like(&args[0]), |v| self.tangent_ref(v));
            let reads = rule.generic_reads(0, true);
            let reads = reads.iter().map(read_ref);
            return quote_spanned!(span=> #func(#dm #(, #reads)*));
        }
        let constant_operand = rule
            .params
            .iter()
            .zip(&active)
            .any(|(p, a)| p.diff && a.is_none());
        if self.scalar_rule(rule, args) && constant_operand && active.iter().any(Option::is_some) {
            // Every scalar `STEM_tangent` is the sum of the operands'
            // pullbacks at their tangents: a constant operand's term is
            // exactly zero, and `c * x` costs one product, not two and a sum.
            let terms = rule
                .params
                .iter()
                .zip(&active)
                .enumerate()
                .filter_map(|(i, (p, a))| {
                    let t = self.scalar_tangent((*a)?);
                    let func = paths::runtime(rule, Func::Pullback(i), span);
                    let reads = p.reads.iter().map(|r| match r {
                        Read::Arg(i) => self.operand(&args[*i]),
                        Read::Out => out.clone(),
                    });
                    Some(quote_spanned!(span=> #func(#t #(, #reads)*)))
                })
                .collect::<Vec<_>>();
            return self.per_lane(match terms.as_slice() {
                [one] => one.clone(),
                _ => quote_spanned!(span=> (#(#terms)+*)),
            });
        }
        if let Some(&(u, v)) = self.scaled.products.get(&dst) {
            // `v * u` with `v = k * u`: `v̇·u = k·u̇·u` is `u̇·v` to
            // rounding, so the product's tangent is the rule's at
            // (u̇, u̇, v, v), `2·v·u̇`: one product, not three.
            let func = paths::runtime(rule, Func::Tangent, span);
            let (t, v) = (self.scalar_tangent(u), names::value(self.f, v));
            return self.per_lane(quote_spanned!(span=> #func(#t, #t, #v, #v)));
        }
        if self.scalar_rule(rule, args) {
            let func = paths::runtime(rule, Func::Tangent, span);
            let tangents = rule
                .params
                .iter()
                .zip(&active)
                .filter(|(p, _)| p.diff)
                .map(|(_, a)| match a {
                    Some(v) => self.scalar_tangent(*v),
                    None => self.scalar.zero(),
                });
            let reads = rule.tangent_reads().into_iter().map(|r| match r {
                Read::Arg(i) => self.operand(&args[i]),
                Read::Out => out.clone(),
            });
            return self.per_lane(quote_spanned!(span=> #func(#(#tangents,)* #(#reads),*)));
        }
        match rule.tangent {
            Tangent::Linear => {
                let operands: Vec<TokenStream> = args
                    .iter()
                    .zip(rule.params)
                    .zip(&active)
                    .enumerate()
                    .map(|(i, ((a, p), t))| match t {
                        Some(v) if p.pass == Pass::Owned => self.tangent_owned(*v),
                        Some(v) => self.tangent_operator(*v, other(args, i)),
                        None if p.diff => self.zero_like(a),
                        None => self.operand(a),
                    })
                    .collect();
                let tangent = self.apply(syntax, &operands);
                if rule.view {
                    quote!(#tangent.into_owned())
                } else {
                    tangent
                }
            }
            Tangent::Bilinear => {
                // ȧ·b + a·ḃ, a term for each operand with a tangent.
                let terms = (0..args.len()).filter_map(|k| {
                    let t = active[k]?;
                    let operands: Vec<TokenStream> = (0..args.len())
                        .map(|i| {
                            let other = other(args, i);
                            if i == k {
                                self.tangent_operator(t, other)
                            } else {
                                self.binary_operand(&args[i], other)
                            }
                        })
                        .collect();
                    Some(self.apply(syntax, &operands))
                });
                quote!(#(#terms)+*)
            }
            Tangent::Pullback => {
                // A float operand next to a matrix (`m / s`): its tangent
                // reaches every element.
                let mixed = args.iter().any(|a| {
                    a.value()
                        .is_some_and(|v| self.f.info(v).kind == Kind::Matrix)
                });
                let terms = rule
                    .params
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.diff)
                    .enumerate()
                    .filter_map(|(k, (i, _))| {
                        let v = active[i]?;
                        if self.f.info(v).kind == Kind::Float && mixed {
                            return Some(self.broadcast_tangent(dst, rule, args, i, span));
                        }
                        let t = self.tangent_ref(v);
                        let func = paths::runtime(rule, Func::Dispatched(k, Form::New), span);
                        let reads = rule.generic_reads(k, false);
                        let reads = reads.iter().map(read_ref);
                        Some(quote_spanned!(span=> #func(#t #(, #reads)*)))
                    });
                quote!(#(#terms)+*)
            }
            Tangent::Written => {
                let func = paths::runtime(rule, Func::Tangent, span);
                let tangents = args
                    .iter()
                    .zip(rule.params)
                    .zip(&active)
                    .filter(|((_, p), _)| p.diff)
                    .map(|((a, _), t)| {
                        t.map_or_else(
                            || {
                                let zero = self.zero_like(a);
                                quote!(&#zero)
                            },
                            |v| self.tangent_ref(v),
                        )
                    });
                let reads = rule.generic_reads(0, false);
                let reads = reads.iter().map(read_ref);
                quote_spanned!(span=> #func(#(#tangents,)* #(#reads),*))
            }
            Tangent::Selected => {
                let (dm, m) = (
                    active[0].map_or_else(|| self.zero_like(&args[0]), |v| self.tangent_ref(v)),
                    self.operand_ref(&args[0]),
                );
                let private = private();
                quote_spanned! {span=>
                    #private::rules::reductions::max_tangent(
                        #dm,
                        #private::rules::reductions::max(#m).1,
                    )
                }
            }
        }
    }

    /// The tangent that float operand `i` of an element-wise rule gives
    /// every element of its matrix result: the scalar tangent per element,
    /// the other tangents zero, reading the element of the output. A rule
    /// whose tangent reads the matrix operand itself is not supported here.
    fn broadcast_tangent(
        &self,
        dst: ValueId,
        rule: &Rule,
        args: &[Operand],
        i: usize,
        span: Span,
    ) -> TokenStream {
        let element = names::element();
        let mut reads = Vec::new();
        for r in rule.tangent_reads() {
            match r {
                Read::Out => reads.push(element.to_token_stream()),
                Read::Arg(j)
                    if args[j]
                        .value()
                        .is_none_or(|v| self.f.info(v).kind.is_copy()) =>
                {
                    reads.push(self.operand(&args[j]))
                }
                Read::Arg(_) => {
                    let message = format!(
                        "forward mode does not differentiate `{}` of a matrix by a float that depends on the arguments; write it element-wise with `map`",
                        rule.name
                    );
                    return quote_spanned!(span=> ::core::compile_error!(#message));
                }
            }
        }
        let tangents = rule
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.diff)
            .map(|(j, _)| match self.tangent_of(&args[j]) {
                Some(v) if j == i => self.tangent(v),
                _ => quote!(0.0),
            });
        let func = paths::runtime(rule, Func::Tangent, span);
        let out = names::value(self.f, dst);
        quote_spanned! {span=>
            #out.map(|#element: f64| #func(#(#tangents,)* #(#reads),*))
        }
    }

    /// The operation as written, on other operands (tangents).
    fn apply(&self, syntax: &Syntax, operands: &[TokenStream]) -> TokenStream {
        match (syntax, operands) {
            (Syntax::Operator(tok), [a]) => quote!(#tok #a),
            (Syntax::Operator(tok), [a, b]) => quote!(#a #tok #b),
            (Syntax::Method(m), [recv, rest @ ..]) => quote!((#recv).#m(#(#rest),*)),
            (Syntax::Path(p), args) => quote!(#p(#(#args),*)),
            _ => quote!(::core::unreachable!()),
        }
    }

    /// A call through the callee's hidden JVP, one tangent per argument.
    fn tangent_call(
        &self,
        dst: ValueId,
        func: &syn::Path,
        args: &[CallArg],
        span: Span,
    ) -> TokenStream {
        let private = private();
        let (v, t) = (names::value(self.f, dst), names::tangent(self.f, dst));
        let values = self.call_args(args);
        // A K-lane sweep passes K-lane tangents, a slice's zeros K lanes wide.
        let (convert, slice_zeros) = match self.lanes {
            true => (quote!(#private::into_lanes), quote!(#private::lane_zeros)),
            false => (
                quote!(#private::into_tangent),
                quote!(#private::zeros_like_slice),
            ),
        };
        // A struct call's struct is a constant of the user's type, which
        // has no zero tangent: its JVP takes none.
        let struct_call = func
            .segments
            .last()
            .is_some_and(|s| crate::ir::is_struct_call(&s.ident));
        let tangents = args.iter().map(|a| {
            if let Some(range) = &a.range {
                // A sub-slice's tangent is the same part of the whole's.
                let (start, end) = (self.operand(&range.start), self.operand(&range.end));
                let tangent = match (a.operand.value(), self.tangent_of(&a.operand)) {
                    (_, Some(u)) if self.f.info(u).kind == Kind::Matrix => {
                        let t = self.tangent(u);
                        quote!(&#t.as_slice()[#start..#end])
                    }
                    (_, Some(u)) => {
                        let t = self.tangent(u);
                        quote!(&#t[#start..#end])
                    }
                    _ => {
                        let part = self.sub_slice(a, false);
                        quote!(&#slice_zeros(#part))
                    }
                };
                return quote_spanned!(a.span=> #convert(#tangent));
            }
            let tangent = match (a.operand.value(), self.tangent_of(&a.operand)) {
                (_, Some(u)) => match self.f.info(u).kind {
                    Kind::Float if self.scalar.param().is_some() => {
                        let t = self.tangent(u);
                        quote!(#private::ScalarTangent(#t))
                    }
                    Kind::Float => self.tangent(u),
                    Kind::Unknown => {
                        let t = self.tangent(u);
                        quote!(&#t)
                    }
                    _ => self.tangent_ref(u),
                },
                (Some(u), None) if struct_call && self.f.info(u).kind == Kind::Unknown => {
                    quote!(#private::NoGradient)
                }
                (Some(u), None) => match self.f.info(u).kind {
                    Kind::Slice => {
                        let s = names::value(self.f, u);
                        quote!(&#slice_zeros(#s))
                    }
                    Kind::Matrix | Kind::Array | Kind::Unknown => {
                        let zero = self.zero_like(&a.operand);
                        quote!(&#zero)
                    }
                    _ => quote!(#private::ZeroTangent),
                },
                (None, None) => quote!(#private::ZeroTangent),
            };
            quote_spanned!(a.span=> #convert(#tangent))
        });
        if self.lanes {
            // Through the callee's hidden K-lane JVP; where it has none
            // (`None`), this sweep gives up and the Jacobian sweeps one
            // direction at a time.
            let jvp = lanes_of(func);
            let swept = syn::Ident::new("swept", Span::mixed_site());
            return quote_spanned! {span=>
                let (#v, #t) = match (#jvp)(#(#values,)* #(#tangents),*) {
                    ::core::option::Option::Some(#swept) => #swept,
                    ::core::option::Option::None => return ::core::option::Option::None,
                };
            };
        }
        let jvp = jvp_of(func);
        quote_spanned!(span=> let (#v, #t) = (#jvp)(#(#values,)* #(#tangents),*);)
    }

    /// A φ's tangent from one arm: the source's, or a zero shaped like it.
    fn phi_tangent(&self, src: ValueId, block: BlockId) -> TokenStream {
        if self.has_tangent(src) {
            self.tangent_moved_out_of(src, block)
        } else {
            self.zero_like(&Operand::Value(src))
        }
    }

    fn tangent_if(&self, i: &If) -> TokenStream {
        let phis: Vec<&Phi> = i.phis.iter().collect();
        let with_tangent: Vec<&Phi> = phis
            .iter()
            .copied()
            .filter(|p| self.has_tangent(p.dst))
            .collect();
        // Tangents first: a zero borrows the value the tuple then moves.
        let arm = |blk: &Block, src: fn(&Phi) -> ValueId, present: &dyn Fn(&Phi) -> bool| {
            let code = self.tangent_block(blk);
            let ts = with_tangent
                .iter()
                .filter(|p| present(p))
                .map(|p| self.phi_tangent(src(p), blk.id));
            let vs = phis
                .iter()
                .filter(|p| present(p))
                .map(|p| self.moved_out_of(src(p), blk.id));
            (code, quote!((#(#ts,)* #(#vs,)*)))
        };
        let pattern = |present: &dyn Fn(&Phi) -> bool| {
            let ts = with_tangent
                .iter()
                .filter(|p| present(p))
                .map(|p| names::tangent(self.f, p.dst));
            let vs = phis
                .iter()
                .filter(|p| present(p))
                .map(|p| names::value(self.f, p.dst));
            quote!((#(#ts,)* #(#vs,)*))
        };
        if let Some(predicate) = &i.cfg {
            let cfg_arm = |blk: &Block, src: fn(&Phi) -> ValueId, holds: TokenStream| {
                let (present, passed) = super::cfg_arm_sources(self.f, blk, &i.phis, src);
                let present = |p: &Phi| present.iter().any(|q| q.dst == p.dst);
                let (code, val) = arm(blk, src, &present);
                let pat = pattern(&present);
                let passed = passed.iter().map(|(p, exists)| {
                    let (dst, val) = (names::value(self.f, p.dst), self.owned(src(p)));
                    let tangent = self.has_tangent(p.dst).then(|| {
                        let t = names::tangent(self.f, p.dst);
                        let tv = self.phi_tangent(src(p), blk.id);
                        quote!(#[cfg(all(#holds, #exists))] let #t = #tv;)
                    });
                    quote! {
                        #tangent
                        #[cfg(all(#holds, #exists))]
                        let #dst = #val;
                    }
                });
                quote! {
                    #[cfg(#holds)]
                    let #pat = { #code #val };
                    #(#passed)*
                }
            };
            let then_code = cfg_arm(&i.then_blk, |p| p.then_src, predicate.clone());
            let else_code = cfg_arm(&i.else_blk, |p| p.else_src, quote!(not(#predicate)));
            return quote! {
                #then_code
                #else_code
            };
        }
        let all = |_: &Phi| true;
        let cond = self.operand(&i.cond);
        let (then_code, then_val) = arm(&i.then_blk, |p| p.then_src, &all);
        let (else_code, else_val) = arm(&i.else_blk, |p| p.else_src, &all);
        let pat = pattern(&all);
        quote! {
            let #pat = if #cond {
                #then_code
                #then_val
            } else {
                #else_code
                #else_val
            };
        }
    }

    /// A loop runs forward with its carried variables' tangents; a
    /// `#[checkpoint]` loop too (forward mode keeps nothing).
    fn tangent_loop(&self, l: &Loop) -> TokenStream {
        let carried: Vec<_> = l
            .carried
            .iter()
            .map(|c| names::carried(l.id, &c.name))
            .collect();
        let with_tangent: Vec<&Carried> = l
            .carried
            .iter()
            .filter(|c| self.has_tangent(c.entry))
            .collect();
        let carried_t: Vec<_> = with_tangent
            .iter()
            .map(|c| names::carried_tangent(l.id, &c.name))
            .collect();
        // An array nothing reads again is moved in, keeping its buffer
        // (a `Vec::with_capacity(n)` pushed to in the loop keeps its
        // capacity), unless it starts two carried variables.
        let moved = |c: &Carried| {
            self.consumable.contains(&c.init)
                && l.carried.iter().filter(|d| d.init == c.init).count() == 1
        };
        let inits = l.carried.iter().map(|c| match moved(c) {
            true => names::value(self.f, c.init).into_token_stream(),
            false => self.owned(c.init),
        });
        let init_ts = with_tangent.iter().map(|c| {
            if !self.has_tangent(c.init) {
                if self.f.info(c.init).kind.is_copy() {
                    return self.zero_like(&Operand::Value(c.init));
                }
                // Shaped like the carried value: the initial one may have
                // moved into it.
                let carried = names::carried(l.id, &c.name);
                return self.zero_of(quote!(&#carried));
            }
            match moved(c) && !self.tangent_is_ref(c.init) {
                true => self.tangent(c.init),
                false => self.tangent_owned(c.init),
            }
        });
        let entries: Vec<_> = l
            .carried
            .iter()
            .map(|c| names::value(self.f, c.entry))
            .collect();
        let entry_ts: Vec<_> = with_tangent
            .iter()
            .map(|c| names::tangent(self.f, c.entry))
            .collect();
        let exit_ts = with_tangent
            .iter()
            .map(|c| self.phi_tangent(c.exit, l.body.id));
        let exits = l
            .carried
            .iter()
            .map(|c| self.moved_out_of(c.exit, l.body.id));
        let afters = l.carried.iter().map(|c| names::value(self.f, c.after));
        let after_ts = with_tangent.iter().map(|c| names::tangent(self.f, c.after));
        let body = self.tangent_block(&l.body);
        let carry_in = quote! {
            #(let #entries = #carried;)*
            #(let #entry_ts = #carried_t;)*
        };
        // Tangents first: a zero borrows the exit value moved after it.
        let carry_out = quote! {
            #(#carried_t = #exit_ts;)*
            #(#carried = #exits;)*
        };
        let mut out = quote! {
            #(let mut #carried = #inits;)*
            #(let mut #carried_t = #init_ts;)*
        };
        // A zero initial tangent borrows the carried value: declared after it.
        match &l.header {
            LoopHeader::Range {
                index,
                start,
                end,
                inclusive,
                reversed,
            } => {
                let (start, end) = (self.operand(start), self.operand(end));
                let range = if *inclusive {
                    quote!(#start..=#end)
                } else {
                    quote!(#start..#end)
                };
                let iter = if *reversed {
                    quote!(::core::iter::Iterator::rev(#range))
                } else {
                    range
                };
                let index = match index {
                    Some(v) => names::value(self.f, *v).into_token_stream(),
                    None => quote!(_),
                };
                out.extend(quote! {
                    for #index in #iter {
                        #carry_in
                        #body
                        #carry_out
                    }
                });
            }
            LoopHeader::While { cond_blk, cond } => {
                let cond_code = self.tangent_block(cond_blk);
                let cond = self.operand(cond);
                out.extend(quote! {
                    loop {
                        #carry_in
                        #cond_code
                        if !(#cond) {
                            #(#carried = #entries;)*
                            #(#carried_t = #entry_ts;)*
                            break;
                        }
                        #body
                        #carry_out
                    }
                });
            }
        }
        out.extend(quote! {
            #(let #afters = #carried;)*
            #(let #after_ts = #carried_t;)*
        });
        out
    }
}

/// The hidden JVP of the function `func` names, through its `ForwardMode`
/// implementation, spanned at its name (where the trait's error for a
/// callee without `jvp` points). A generic callee's turbofish (`g::<T>`)
/// is dropped: the type named like the function has none, and the
/// trait's parameters are inferred from the call's arguments.
fn jvp_of(func: &syn::Path) -> TokenStream {
    let private = private();
    // A call passing in-out arguments (`step::__inout_call_1`): the
    // forward item of the type named like the callee for that final value
    // (see `inout::forward_call_items`), the caller's buffers inferred.
    if let Some((last, carrier)) = func.segments.iter().collect::<Vec<_>>().split_last()
        && crate::ir::is_inout_item(&last.ident)
    {
        let callee = carrier.last().map_or(last.ident.span(), |s| s.ident.span());
        let item = last.ident.to_string();
        let marker = match item.strip_prefix(INOUT_CALL) {
            Some(j) => {
                let j: usize = j.trim_start_matches('_').parse().unwrap_or(0);
                let j = proc_macro2::Literal::usize_unsuffixed(j);
                quote!(#private::InOutCall<#j>)
            }
            None => quote!(#private::InOutResult),
        };
        let colon = func.leading_colon;
        let carrier = carrier.iter().map(|s| &s.ident);
        return quote_spanned!(callee=> <#colon #(#carrier)::* as #private::ForwardInOut<#marker, _, _>>::JVP);
    }
    // A function taking a `Tangent` struct, called through its struct
    // call (`g::__struct_call`): the forward mode of the type named like
    // the function, or of the type its struct call's module declares
    // (`__autograd_Model_g::__struct_call`, a method's).
    let segments: Vec<&syn::PathSegment> = func.segments.iter().collect();
    // A function of an `impl` block (`Model::__autograd_g__struct_call`):
    // the forward mode its type has for it.
    if let Some((last, ty)) = segments.split_last()
        && let Some(method) = crate::ir::method_of_struct_call(&last.ident)
    {
        let callee = last.ident.span();
        let id = proc_macro2::Literal::u64_suffixed(crate::ir::method_id(&method));
        let colon = func.leading_colon;
        // Spanned at the call, where the trait's error for a method
        // without a forward mode points.
        let ty = ty
            .iter()
            .map(|s| syn::Ident::new(&s.ident.to_string(), callee));
        return quote_spanned!(callee=> <#colon #(#ty)::* as #private::MethodForwardMode<#id>>::JVP);
    }
    if let Some((last, carrier)) = segments.split_last()
        && last.ident == names::STRUCT_CALL
    {
        let callee = last.ident.span();
        let module = carrier
            .last()
            .is_some_and(|s| s.ident.to_string().starts_with("__autograd_"));
        let ty = if module {
            func.to_token_stream()
        } else {
            let colon = func.leading_colon;
            quote!(#colon #(#carrier)::*)
        };
        return quote_spanned!(callee=> <#ty as #private::ForwardMode<#private::StructCall>>::JVP);
    }
    let mut func = func.clone();
    let Some(last) = func.segments.last_mut() else {
        return quote!(::core::unreachable!());
    };
    let callee = last.ident.span();
    // The scalar and lengths are the call's arguments' (a turbofish's `N`
    // may be a type or a length: the path cannot say).
    last.arguments = syn::PathArguments::None;
    quote_spanned!(callee=> <#func as #private::ForwardMode<_, _>>::JVP)
}

/// The hidden K-lane JVP of the function `func` names (see [`jvp_of`]).
fn lanes_of(func: &syn::Path) -> TokenStream {
    let private = private();
    let mut func = func.clone();
    let Some(last) = func.segments.last_mut() else {
        return quote!(::core::unreachable!());
    };
    let callee = last.ident.span();
    // As in `jvp_of`: the trait's parameters are the call's.
    last.arguments = syn::PathArguments::None;
    quote_spanned!(callee=> <#func as #private::ForwardMode<_, _>>::JVP_LANES)
}

/// The other operand of a binary operation (a unary one's own).
fn other(args: &[Operand], i: usize) -> &Operand {
    args.get(usize::from(i == 0)).unwrap_or(&args[i])
}

/// The function's result and its tangent (a zero where it depends on no
/// differentiable argument).
fn result(g: &Gen<'_>, f: &Function) -> (TokenStream, TokenStream) {
    match &f.ret {
        Operand::Value(r) => {
            let value = if f.info(*r).by_ref {
                g.owned(*r)
            } else {
                names::value(f, *r).into_token_stream()
            };
            let tangent = if g.has_tangent(*r) {
                g.tangent_moved_out_of(*r, f.body.id)
            } else {
                g.zero_like(&f.ret)
            };
            (value, tangent)
        }
        Operand::Const(c) => (c.clone(), g.zero_of(quote!(&(#c)))),
    }
}

/// The `impl ForwardMode for NAME` through which callers' forward sweeps find the
/// hidden JVP, and the hidden JVP itself (in the type named like the
/// function, as `emit::carrier` places the hidden VJP).
fn hidden_item(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    tangent_params: &[syn::Ident],
    (body, lanes_body): (TokenStream, Option<TokenStream>),
    ret_ty: TokenStream,
) -> TokenStream {
    let private = private();
    let lanes = lanes_item(item, sig, shape, tangent_params, lanes_body.clone());
    let vis = &item.vis;
    let name = &item.sig.ident;
    let jvp_full = names::hidden(name, names::JVP_FULL);
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let inputs = &shape.inputs;
    let tangent_tys = full_tangent_tys(sig);
    let func = quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
        #vis fn #jvp_full #generics (#(#inputs,)* #(#tangent_params: #tangent_tys),*) -> #ret_ty
            #where_clause
        {
            #body
        }
    };
    if names::has_no_carrier(name) {
        return quote!(#func #lanes);
    }
    let lifetimes = &shape.lifetimes;
    let binder = (!lifetimes.is_empty()).then(|| quote!(for<#(#lifetimes),*>));
    let input_tys: Vec<_> = shape.inputs.iter().map(|pt| &pt.ty).collect();
    let lanes_mode = match lanes_signature(sig, lanes_body.is_some()) {
        Some((tangent_tys, ret)) => {
            let jvp_lanes = names::hidden(name, names::JVP_LANES);
            quote! {
                type Lanes = #binder fn(#(#input_tys,)* #(#tangent_tys),*) -> #ret;
                const JVP_LANES: Self::Lanes = #name::#jvp_lanes;
            }
        }
        // No caller's K-lane sweep reaches it: see `lanes_callee`.
        None => quote! {
            type Lanes = #private::NoLanes;
            const JVP_LANES: Self::Lanes = #private::NoLanes;
        },
    };
    // A generic function's JVP is found at the scalar of the call, which
    // the trait's parameter carries (`()` for a function of `f64`/`f32`).
    // A function generic over lengths names them in the trait's second
    // parameter (`[(); N]` each), which the call's arguments choose too.
    let impl_params = super::scalar_and_lengths(item, shape);
    let impl_generics = (!impl_params.is_empty()).then(|| quote!(<#(#impl_params),*>));
    let lengths: Vec<&syn::Ident> = item.sig.generics.const_params().map(|c| &c.ident).collect();
    let scalar = match (shape.scalar.param(), lengths.is_empty()) {
        (Some(t), true) => Some(quote!(<#t>)),
        (None, true) => None,
        (t, false) => {
            let t = t.map_or_else(|| quote!(()), |t| t.to_token_stream());
            Some(quote!(<#t, (#([(); #lengths],)*)>))
        }
    };
    quote! {
        #[doc(hidden)]
        impl #name {
            #func
        }
        #lanes
        // Not listed to the user as a candidate when a callee lacks `jvp`.
        #[doc(hidden)]
        #[diagnostic::do_not_recommend]
        #[allow(clippy::type_complexity)]
        impl #impl_generics #private::ForwardMode #scalar for #name #where_clause {
            type Fn = #binder fn(#(#input_tys,)* #(#tangent_tys),*) -> #ret_ty;
            const JVP: Self::Fn = #name::#jvp_full;
            #lanes_mode
        }
    }
}

/// `NAME_jvp(args.., tangents..)`: the hidden JVP with a tangent for each
/// differentiable argument.
fn public_item(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    ret_ty: &TokenStream,
) -> TokenStream {
    let mixed = Span::mixed_site();
    let private = private();
    let vis = &item.vis;
    let name = &item.sig.ident;
    let jvp_full = super::forward::hidden_path(&name.clone().into(), names::JVP_FULL);
    let inputs = hygienic_inputs(&shape.inputs);
    let generics = generics(item, shape);
    let arg_names: Vec<_> = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    // `d_x` for `x`, lengthened while an argument has that name.
    let taken: Vec<String> = sig.params.iter().map(|p| p.ident.to_string()).collect();
    let tangent_name = |p: &Param| {
        let mut t = format!("d_{}", p.ident.to_string().trim_start_matches("r#"));
        while taken.contains(&t) {
            t.push('_');
        }
        names::hygienic(&syn::Ident::new(&t, p.ident.span()))
    };
    let tangents: Vec<_> = sig
        .params
        .iter()
        .filter_map(|p| Some((tangent_name(p), tangent_ty(p)?)))
        .collect();
    let (tangent_names, tangent_tys): (Vec<_>, Vec<_>) = tangents.into_iter().unzip();
    let passed = sig.params.iter().map(|p| {
        if p.differentiable {
            tangent_name(p).into_token_stream()
        } else {
            quote!(#private::NoGradient)
        }
    });
    let jvp = names::public(name, "jvp");
    let where_clause = where_clause(item, shape);
    let primal = primal_value(item);
    let panics = if sig
        .params
        .iter()
        .any(|p| p.differentiable && matches!(p.kind, ParamKind::Slice(_)))
    {
        "\n\n # Panics\n\n If a slice's tangent has another length than the slice."
    } else {
        ""
    };
    let inout = if sig.has_inout() {
        " An in-out argument's tangent is that of its value on entry; the arguments are left as the function leaves them, and the tangents of the in-out arguments' final values follow the result's, in argument order (a function returning `()` has no result tangent)."
    } else {
        ""
    };
    let doc = format!(
        " The value of [`{name}`] and its directional derivative: one tangent per differentiable argument, in argument order, gives the result's tangent `J·ẋ` in one forward sweep.{inout}\n\n Generated by `#[differentiable(jvp)]`; the value is bit for bit what `{name}` returns.{panics}"
    );
    quote_spanned! {mixed=>
        #[doc = #doc]
        #[inline]
        #[allow(clippy::too_many_arguments)]
        #vis fn #jvp #generics (#(#inputs,)* #(#tangent_names: #tangent_tys),*) -> #ret_ty
            #where_clause
        {
            let _ = #primal;
            #jvp_full(#(#arg_names,)* #(#passed),*)
        }
    }
}

/// The type `NAME_jvp` returns: the value and its tangent, in the
/// function's `Result` if it has one.
fn jvp_ret_ty(sig: &Signature) -> TokenStream {
    let seed = sig.ret.seed();
    match &sig.ret {
        Ret::Result { err, .. } => quote!(::core::result::Result<(#seed, #seed), #err>),
        _ => quote!((#seed, #seed)),
    }
}

fn tangent_params(f: &Function) -> Vec<syn::Ident> {
    f.params.iter().map(|v| names::tangent(f, *v)).collect()
}

/// The hidden JVP's body: the forward sweep and the value with its
/// tangent (and an in-out argument's final tangents).
fn sweep_body(g: &Gen<'_>, sig: &Signature, shape: &Shape, f: &Function) -> TokenStream {
    let sweep = g.tangent_block(&f.body);
    let (value, tangent) = result(g, f);
    let t = names::tangent_result();
    let checked = sig
        .params
        .iter()
        .zip(&f.params)
        .filter(|(p, _)| p.differentiable && matches!(p.kind, ParamKind::Slice(_)))
        .map(|(p, v)| {
            // A statement, not a rebinding `let`: bodies whose bindings are
            // declared up front would shadow the parameter by an
            // uninitialised one of unknown type.
            let (x, tx) = (&p.ident, names::tangent(f, *v));
            quote!(::autograd::__private::slice_tangent(#x.len(), #tx);)
        });
    // In-out arguments: the sweep on copies, written back after it; the
    // final values' tangents follow the result's (a `()` function has
    // none of its own).
    let (copies, stores, _) = super::inout::copies(sig, shape, f, g);
    let finals: Vec<TokenStream> = f
        .outs
        .iter()
        .map(|v| match g.has_tangent(*v) {
            true => g.tangent_moved_out_of(*v, f.body.id),
            false => g.zero_like_value(*v),
        })
        .collect();
    let unit = matches!(sig.ret, Ret::Unit);
    let own = (!unit).then(|| quote!(#t,));
    let bind = (!unit).then(|| quote!(let #t = #tangent;));
    let result = quote!((#value, #own #(#finals,)*));
    // A K-lane sweep returns `None` where a callee has no K-lane JVP.
    let result = match g.lanes {
        true => quote!(::core::option::Option::Some(#result)),
        false => result,
    };
    let body = quote! {
        #copies
        #(#checked)*
        #sweep
        #stores
        #bind
        #result
    };
    let rules = paths::import_rules(&body);
    let (body, _) = scopes::declare_up_front(quote!(#rules #body));
    // The body's `const`, `static` and `use` items, as the VJP declares them.
    let items = &f.items;
    quote!(#(#items)* #body)
}

/// `NAME_jvp` of a function whose derivative comes from its body (and,
/// where [`lanes`] holds, its hidden K-lane JVP).
pub fn generate(item: &syn::ItemFn, sig: &Signature, f: &Function, an: &Analysis) -> TokenStream {
    let shape = shape(item, sig);
    let g = plain_gen(f, an, &shape.scalar, false);
    let body = sweep_body(&g, sig, &shape, f);
    let ret_ty = match sig.has_inout() {
        false => jvp_ret_ty(sig),
        true => {
            let seed = sig.ret.seed();
            let own = (!matches!(sig.ret, Ret::Unit)).then(|| quote!(#seed,));
            let finals = super::inout::seed_tys(sig);
            quote!((#seed, #own #(#finals,)*))
        }
    };
    let lanes_body = lanes_body(sig, f, an).then(|| {
        let g = plain_gen(f, an, &shape.scalar, true);
        sweep_body(&g, sig, &shape, f)
    });
    let params = tangent_params(f);
    let mut out = hidden_item(
        item,
        sig,
        &shape,
        &params,
        (body, lanes_body),
        ret_ty.clone(),
    );
    out.extend(public_item(item, sig, &shape, &ret_ty));
    if sig.has_inout() {
        let tangent_tys = full_tangent_tys(sig);
        out.extend(super::inout::forward_call_items(
            item,
            sig,
            &shape,
            &tangent_tys,
        ));
    }
    out
}

/// Whether `NAME_jacobian` and `NAME_jacobian_sparse` sweep `K`
/// directions at once through the hidden K-lane JVP (`__jvp_lanes`): a
/// function returning several floats whose body carries lanes (see
/// [`lanes_body`]). Its callees' K-lane JVPs decide at run time: where one
/// has none, the first sweep says so and the Jacobian sweeps one
/// direction at a time.
pub fn lanes(sig: &Signature, f: &Function, an: &Analysis) -> bool {
    matches!(sig.ret, Ret::Outputs(_)) && lanes_body(sig, f, an)
}

/// Whether the function's hidden K-lane JVP sweeps lanes (else it returns
/// `None` at once): a function of floats, slices, arrays, `Vec`s and
/// nalgebra values of `f64`/`f32` returning one float or several, whose
/// tangents are floats and collections of them, built by scalar rules,
/// element reads and writes, and calls of other functions with `jvp`
/// (through their K-lane JVPs), whose results scalar rules take as
/// floats. (A cast has no tangent: an `as` of a differentiable float is
/// refused, an integer's is constant.) Elsewhere (a generic scalar, `map`,
/// a matrix rule, a matrix built from its elements, in-out arguments, a
/// call passing a `Tangent` struct or one of a tuple's components) the
/// scalar JVP sweeps one direction at a time, as before.
pub fn lanes_body(sig: &Signature, f: &Function, an: &Analysis) -> bool {
    fn block_ok(f: &Function, an: &Analysis, calls: &HashSet<ValueId>, b: &Block) -> bool {
        b.stmts.iter().all(|stmt| match stmt {
            Stmt::Let { dst, op, .. } => op_ok(f, an, calls, *dst, op),
            Stmt::If(i) => {
                block_ok(f, an, calls, &i.then_blk) && block_ok(f, an, calls, &i.else_blk)
            }
            Stmt::Loop(l) => {
                block_ok(f, an, calls, &l.body)
                    && match &l.header {
                        LoopHeader::While { cond_blk, .. } => block_ok(f, an, calls, cond_blk),
                        LoopHeader::Range { .. } => true,
                    }
            }
        })
    }
    fn op_ok(f: &Function, an: &Analysis, calls: &HashSet<ValueId>, dst: ValueId, op: &Op) -> bool {
        if !(an.varied[dst] && f.info(dst).kind.is_differentiable()) {
            return true;
        }
        if let Op::Call { func, .. } = op {
            return lanes_callee(func);
        }
        // A value whose type the macro cannot see (a call's result): its
        // tangent is what the callee's K-lane JVP returns, read element by
        // element or, in a scalar rule, as a float's lanes (see
        // `Gen::unknown_rule_lanes`).
        let unknown = f.info(dst).kind == Kind::Unknown;
        match op {
            Op::Rule {
                rule, args, syntax, ..
            } => {
                !matches!(syntax, Syntax::Map(_))
                    && (scalar_form(f, rule, args) || lanes_scalar_form(f, rule, args))
                    && args.iter().filter_map(Operand::value).all(|v| {
                        f.info(v).kind != Kind::Unknown || an.varied[v] || calls.contains(&v)
                    })
            }
            _ if unknown => matches!(op, Op::Copy(_) | Op::Index { .. }),
            // A nalgebra value built from its elements is left out: its
            // constructor may be written at `f64` (`DVector::<f64>::from_vec`,
            // an alias), which lanes cannot go through.
            Op::Pack { collection, .. } | Op::Fill { collection, .. } => {
                !matches!(collection, Collection::Matrix(_))
            }
            Op::Copy(_)
            | Op::Index { .. }
            | Op::Store { .. }
            | Op::Push { .. }
            | Op::StopGradient { .. }
            | Op::Len { .. }
            | Op::Primal { .. } => true,
            _ => false,
        }
    }
    // The values calls define: a plain helper's result (`counted(0.5)`)
    // is a float in a rule as a callee's is.
    struct Calls(HashSet<ValueId>);
    impl<'a> Visitor<'a> for Calls {
        fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
            if let Stmt::Let {
                dst,
                op: Op::Call { .. },
                ..
            } = stmt
            {
                self.0.insert(*dst);
            }
            walk_stmt(self, stmt);
        }
    }
    let mut calls = Calls(HashSet::new());
    calls.visit_block(&f.body);
    let params_ok = sig
        .params
        .iter()
        .all(|p| !p.differentiable || lanes_tangent_ty(p).is_some());
    // Large arrays are boxed (`HeapArray`), which has no K-lane tangent.
    sig.scalar.is_none()
        && !sig.has_inout()
        && !an.boxes_arrays
        && matches!(sig.ret, Ret::Outputs(_) | Ret::Float(_))
        && params_ok
        && block_ok(f, an, &calls.0, &f.body)
}

/// [`scalar_form`] in a K-lane sweep: a differentiable operand may also
/// be a value whose type the macro cannot see, taken as a float (see
/// `Gen::unknown_rule_lanes`).
fn lanes_scalar_form(f: &Function, rule: &Rule, args: &[Operand]) -> bool {
    rule.has_scalar_form()
        && args.iter().zip(rule.diff()).all(|(a, d)| match a.value() {
            None => true,
            Some(v) => match f.info(v).kind {
                Kind::Float => true,
                Kind::Int => !d,
                Kind::Unknown => d,
                _ => false,
            },
        })
}

/// Whether a K-lane sweep goes through a call of `func`: not a call
/// passing an in-out argument or a `Tangent` struct, nor the tuple-to-array
/// step of a call returning a tuple (none of which has a K-lane JVP).
fn lanes_callee(func: &syn::Path) -> bool {
    let Some(last) = func.segments.last() else {
        return false;
    };
    let untuple = last.ident == "untuple"
        && func.segments.iter().any(|s| s.ident == "__private")
        && func.segments.len() > 1;
    !(untuple || crate::ir::is_struct_call(&last.ident) || crate::ir::is_inout_item(&last.ident))
}

/// A differentiable argument's tangent type in the hidden K-lane JVP: the
/// tangent type of `NAME_jvp` with `Lanes<f64, K>` for each float.
fn lanes_tangent_ty(p: &Param) -> Option<TokenStream> {
    if !p.differentiable {
        return None;
    }
    let private = private();
    let lanes = |t: &dyn ToTokens| quote!(#private::LaneTangentOf<#t>);
    match &p.kind {
        ParamKind::Float(t) => Some(lanes(t)),
        ParamKind::Slice(t) => {
            let t = lanes(t);
            Some(quote!(&[#t]))
        }
        ParamKind::Matrix { owned, .. } => {
            let t = lanes(owned);
            Some(quote!(&#t))
        }
        ParamKind::Array { owned, .. } if matches!(**owned, syn::Type::Array(_)) => {
            let t = lanes(owned);
            Some(quote!(&#t))
        }
        ParamKind::Array { elem, .. } => {
            let t = lanes(elem);
            Some(quote!(&[#t]))
        }
        _ => None,
    }
}

/// The hidden K-lane JVP's tangent types and result, `Option<(value,
/// tangent)>`: with `sweeps`, one K-lane tangent per differentiable
/// argument (see [`lanes_body`]); else (a JVP that returns `None` at
/// once) `NoGradient` for every argument. `None` where no caller's sweep
/// reaches it (in-out arguments, a `()` result) or its tangent's type
/// cannot be written (a generic function's matrix).
fn lanes_signature(sig: &Signature, sweeps: bool) -> Option<(Vec<TokenStream>, TokenStream)> {
    let private = private();
    if sig.has_inout() {
        return None;
    }
    let tangent_of = |value: &TokenStream| match &sig.scalar {
        None => Some(quote!(#private::LaneTangentOf<#value>)),
        Some(t) => syn::parse2::<syn::Type>(value.clone())
            .ok()
            .and_then(|ty| generic_lanes(&ty, &t.ident)),
    };
    let result = match &sig.ret {
        Ret::Float(_) | Ret::Matrix(_) | Ret::Outputs(_) => {
            let seed = sig.ret.seed();
            let lanes = tangent_of(&seed)?;
            quote!((#seed, #lanes))
        }
        Ret::Result { ok, err } => {
            let ok = ok.to_token_stream();
            let lanes = tangent_of(&ok)?;
            quote!(::core::result::Result<(#ok, #lanes), #err>)
        }
        Ret::Unit => return None,
    };
    let tangents = sig
        .params
        .iter()
        .map(|p| match sweeps {
            true => lanes_tangent_ty(p),
            false => None,
        })
        .map(|t| t.unwrap_or_else(|| quote!(#private::NoGradient)))
        .collect();
    Some((tangents, quote!(::core::option::Option<#result>)))
}

/// The K-lane tangent of a generic function's value of type `ty`: the
/// scalar `t`'s is `Lanes<t, LANES>` (which, unlike `LaneTangentOf<t>`,
/// asks nothing of `t`), a `Vec`'s, an array's or a tuple's that of their
/// elements. `None` for any other type.
fn generic_lanes(ty: &syn::Type, t: &syn::Ident) -> Option<TokenStream> {
    let private = private();
    match ty {
        syn::Type::Path(p) if p.path.is_ident(t) => {
            Some(quote!(#private::Lanes<#t, { #private::LANES }>))
        }
        syn::Type::Path(p) if p.qself.is_none() => {
            let last = p.path.segments.last()?;
            let syn::PathArguments::AngleBracketed(a) = &last.arguments else {
                return None;
            };
            match (last.ident == "Vec", a.args.first()) {
                (true, Some(syn::GenericArgument::Type(e))) if a.args.len() == 1 => {
                    let e = generic_lanes(e, t)?;
                    Some(quote!(#private::Vec<#e>))
                }
                _ => None,
            }
        }
        syn::Type::Array(a) => {
            let (e, len) = (generic_lanes(&a.elem, t)?, &a.len);
            Some(quote!([#e; #len]))
        }
        syn::Type::Tuple(tuple) => {
            let elems = tuple
                .elems
                .iter()
                .map(|e| generic_lanes(e, t))
                .collect::<Option<Vec<_>>>()?;
            Some(quote!((#(#elems,)*)))
        }
        syn::Type::Paren(p) => generic_lanes(&p.elem, t),
        _ => None,
    }
}

/// The hidden K-lane JVP, `__jvp_lanes(args.., tangents..) ->
/// Option<(value, tangent)>`: with a `body`, the JVP's sweep with K lanes
/// a tangent (see [`lanes_body`]), through which the function's own
/// Jacobians and its callers' K-lane sweeps go; without, `None` at once,
/// so that a caller's Jacobian sweeps one direction at a time. Nothing
/// where [`lanes_signature`] has none.
fn lanes_item(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    tangent_params: &[syn::Ident],
    body: Option<TokenStream>,
) -> TokenStream {
    let Some((tangent_tys, ret)) = lanes_signature(sig, body.is_some()) else {
        return TokenStream::new();
    };
    let vis = &item.vis;
    let name = &item.sig.ident;
    let jvp_lanes = names::hidden(name, names::JVP_LANES);
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let inputs = &shape.inputs;
    let body = body.unwrap_or_else(|| quote!(::core::option::Option::None));
    let func = quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, unused_mut, unused_parens, unused_assignments, clippy::all)]
        #vis fn #jvp_lanes #generics (#(#inputs,)* #(#tangent_params: #tangent_tys),*) -> #ret
            #where_clause
        {
            #body
        }
    };
    if names::has_no_carrier(name) {
        return func;
    }
    quote! {
        #[doc(hidden)]
        impl #name {
            #func
        }
    }
}

/// The solver's hidden JVP's arguments: the user's, and one tangent each.
fn wrapper_params(sig: &Signature) -> (Vec<syn::Ident>, Vec<syn::Ident>) {
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let args = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    let tangents = sig.params.iter().map(|p| local.adjoint(&p.ident)).collect();
    (args, tangents)
}

/// `#[differentiable(jvp, implicit = residual)]`: with r(z, θ) = 0 at the
/// solution z, ż = −(∂r/∂θ·θ̇)/(∂r/∂z), from two JVPs of the residual: at
/// tangents (0, θ̇) and (1, 0). Where ∂r/∂z is zero or not finite, a
/// `Result` solver returns `SolveError::SingularDerivative` and a plain
/// one a NaN tangent, as its `_grad` does.
pub fn implicit(item: &syn::ItemFn, sig: &Signature, residual: &syn::Path) -> TokenStream {
    let mixed = Span::mixed_site();
    let private = quote_spanned!(mixed=> ::autograd::__private);
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let (z, dr_dtheta, dr_dz, singular, dz) = (
        local.local("x"),
        local.local("dr_dtheta"),
        local.local("dr_dx"),
        local.local("singular"),
        local.local("dx"),
    );
    let shape = shape(item, sig);
    let name = &item.sig.ident;
    let (args, tangents) = wrapper_params(sig);
    let kept = kept_args(sig, &args);
    let residual_args: Vec<_> = kept.clone();
    let zeros = args
        .iter()
        .zip(&sig.params)
        .map(|(a, p)| match (&p.kind, p.differentiable) {
            (_, false) => quote_spanned!(mixed=> #private::NoGradient),
            (ParamKind::Slice(_), true) => quote_spanned!(mixed=> &#private::zeros_like_slice(#a)),
            (ParamKind::Matrix { by_ref: true, .. }, true) => {
                quote_spanned!(mixed=> &#private::zero_like(#a))
            }
            (ParamKind::Matrix { .. }, true) => quote_spanned!(mixed=> &#private::zero_like(&#a)),
            _ => quote_spanned!(mixed=> #private::ZeroTangent),
        });
    let zeros: Vec<_> = zeros
        .map(|z| quote_spanned!(mixed=> #private::into_tangent(#z)))
        .collect();
    let tangents_in = tangents
        .iter()
        .map(|t| quote_spanned!(mixed=> #private::into_tangent(#t)));
    let jvp = jvp_of(residual);
    let (solve, check, ok) = match &sig.ret {
        Ret::Result { .. } => (
            quote_spanned!(mixed=> #name(#(#kept),*)?),
            quote_spanned! {mixed=>
                if let ::core::result::Result::Err(e) =
                    #private::derivative_exists(#singular, #private::to_f64(#dr_dz))
                {
                    return ::core::result::Result::Err(::core::convert::From::from(e));
                }
            },
            quote_spanned!(mixed=> ::core::result::Result::Ok),
        ),
        _ => (
            quote_spanned!(mixed=> #name(#(#kept),*)),
            quote_spanned!(mixed=> let #dz = #private::not_a_number_if(#dz, #singular);),
            TokenStream::new(),
        ),
    };
    let body = quote_spanned! {mixed=>
        let #z = #solve;
        let (_, #dr_dtheta) = (#jvp)(#z, #(#residual_args,)* #private::into_tangent(#private::ZeroTangent), #(#tangents_in),*);
        let (_, #dr_dz) = (#jvp)(#z, #(#residual_args,)* #private::into_tangent(#private::like(#z, 1.0)), #(#zeros),*);
        // ż = −(∂r/∂θ·θ̇)/(∂r/∂z) as one quotient (see `implicit_quotient`).
        let mut #singular = #private::singular_derivative(#dr_dz);
        let #dz = #private::implicit_quotient(#dr_dtheta, #dr_dz, &mut #singular);
        #check
        #ok((#z, #dz))
    };
    let ret_ty = jvp_ret_ty(sig);
    let mut out = hidden_wrapper(item, sig, &shape, &tangents, body, &ret_ty);
    out.extend(public_item(item, sig, &shape, &ret_ty));
    out
}

/// `#[differentiable(backward = rule, jvp = tangent_rule)]`: the body runs
/// as written and the user's `tangent_rule(args.., tangents.., output) ->
/// output_tangent` gives the tangent, one tangent per differentiable
/// argument (as `NAME_jvp` takes them).
pub fn custom(item: &syn::ItemFn, sig: &Signature, rule: &syn::Path) -> TokenStream {
    let mixed = Span::mixed_site();
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let output = local.local("output");
    let shape = shape(item, sig);
    let name = &item.sig.ident;
    let (args, tangents) = wrapper_params(sig);
    let kept = kept_args(sig, &args);
    let differentiable_tangents = tangents
        .iter()
        .zip(&sig.params)
        .filter(|(_, p)| p.differentiable)
        .map(|(t, _)| t);
    let value = match &sig.ret {
        Ret::Matrix(_) => quote_spanned!(mixed=> ::core::clone::Clone::clone(&#output)),
        _ => output.to_token_stream(),
    };
    let body = quote_spanned! {mixed=>
        let #output = #name(#(#kept),*);
        (#value, #rule(#(#kept,)* #(#differentiable_tangents,)* #output))
    };
    let ret_ty = jvp_ret_ty(sig);
    let mut out = hidden_wrapper(item, sig, &shape, &tangents, body, &ret_ty);
    out.extend(public_item(item, sig, &shape, &ret_ty));
    out
}

/// The hidden JVP of a solver or custom rule, whose arguments are hygienic
/// (the body calls the user's function by name).
fn hidden_wrapper(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    tangents: &[syn::Ident],
    body: TokenStream,
    ret_ty: &TokenStream,
) -> TokenStream {
    let shape = Shape {
        inputs: hygienic_inputs(&shape.inputs),
        lifetimes: shape.lifetimes.clone(),
        full_tys: Vec::new(),
        scalar: Scalar::of(sig),
        captures: shape.captures.clone(),
        direct_acc: false,
        reach: false,
    };
    hidden_item(item, sig, &shape, tangents, (body, None), ret_ty.clone())
}

/// A stand-in `NAME_jvp` with the right signature, next to a compile
/// error.
pub fn stub(item: &syn::ItemFn, sig: &Signature) -> TokenStream {
    let shape = shape(item, sig);
    let (_, tangents) = wrapper_params(sig);
    let ret_ty = jvp_ret_ty(sig);
    let body = quote!(::core::unreachable!());
    let mut out = hidden_item(item, sig, &shape, &tangents, (body, None), ret_ty.clone());
    out.extend(public_item(item, sig, &shape, &ret_ty));
    out
}
