//! Code generation: the items `#[differentiable]` adds next to the user's
//! function.

mod arrays;
mod checkpoint;
pub(crate) mod forward;
mod fused;
pub mod hessian;
pub(crate) mod inout;
mod jacobian;
pub mod names;
pub mod nested;
mod paths;
mod recycle;
mod reverse;
mod scalar;
mod scopes;
pub mod tangent;
mod thin;

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;
use quote::{ToTokens, quote, quote_spanned};
use syn::visit_mut::VisitMut;

use crate::analysis::{Analysis, LoopSaves, consumable_arrays, movable};
use crate::ir::*;
use crate::sig::{Param, ParamKind, Ret, Signature};
use forward::Mode;
use scalar::Scalar;

pub struct Gen<'a> {
    f: &'a Function,
    an: &'a Analysis,
    /// The type the code computes in.
    scalar: &'a Scalar,
    /// Loops at the top level of the body: their stacks are filled by the
    /// forward sweep and moved into the pullback.
    top_loops: HashSet<LoopId>,
    /// Adjoints already created while emitting the reverse sweep.
    declared: HashSet<ValueId>,
    /// Matrices an operator or `map` may take by value (see
    /// `analysis::movable`).
    movable: HashSet<ValueId>,
    /// Arrays an element write or `push` may take by value (see
    /// `analysis::consumable_arrays`).
    consumable: HashSet<ValueId>,
    /// Adjoints left as one scalar for every element (a `sum`'s seed), with
    /// the expression that would broadcast them: emitted where the value's
    /// own reverse cannot take the scalar.
    broadcast: HashMap<ValueId, (TokenStream, TokenStream)>,
    /// Adjoints held as a reference to another adjoint (a pass-through
    /// rule's `_ref` form).
    lent: HashSet<ValueId>,
    /// Contributions emitted at the end of the sweep, once what borrows
    /// their adjoint is done.
    deferred: Vec<TokenStream>,
    /// Slice reads whose adjoint goes into a loop's pending local (see
    /// `analysis::Stencil`) rather than straight into the slice's adjoint.
    windows: HashMap<ValueId, proc_macro2::Ident>,
    /// Pending adjoints not yet created in the iteration being emitted: the
    /// first contribution creates one (a fused loop's, see `fused`).
    fresh_windows: HashSet<proc_macro2::Ident>,
    /// While a loop's reverse body is emitted, the carried arrays whose
    /// entry value it rebuilds as a copy of the initial value (dead: an
    /// inner loop overwrites them whole), entry to initial value; see
    /// `reverse::reverse_two_pass`.
    dead_entries: HashMap<ValueId, ValueId>,
    /// Spare buffers of inner loops over such an array, declared before
    /// the enclosing loop so that its iterations pass them on.
    hoisted_spares: TokenStream,
    /// Calls of the function itself in branches, recorded by the forward
    /// sweep with their pullbacks (see `forward::recorded_calls`).
    recorded: HashSet<ValueId>,
    /// The type a recorded call's pullback is boxed as.
    recorded_pullback_ty: TokenStream,
    /// Whether the code being generated is the pullback's: there a recorded
    /// call is read from its record rather than made.
    in_pullback: bool,
    /// In `NAME_grad_acc`'s sweeps (`__grad_acc_full`), the caller's buffer
    /// of each differentiable slice argument, which is that argument's
    /// adjoint: every contribution is added into it, none assumes it
    /// starts at zero.
    buffers: Option<&'a HashMap<ValueId, proc_macro2::Ident>>,
    /// In forward mode, the products of a value by a multiple of itself
    /// (see `analysis::scaled_products`); empty elsewhere.
    scaled: crate::analysis::ScaledProducts,
    /// Whether gated adjoints carry their `reached` flags: not in a fused
    /// loop's forward sweep, whose reverse runs from a unit adjoint that
    /// always arrives.
    gate: bool,
    /// Whether the pullback says which arguments it reached (see
    /// `Shape::reach`): then a gated scalar argument carries its flag too.
    reach: bool,
    /// Slice arguments whose one contribution is the whole adjoint a kept
    /// callee's pullback returns (see `adopted_slices`): their adjoint is
    /// that `Vec`, not zeros it is added into. Taken out as the reverse
    /// sweep adopts each.
    adopted: HashSet<ValueId>,
    /// In forward mode, whether the sweep carries K-lane tangents (the
    /// hidden `__jvp_lanes`, see `tangent::lanes`): a float's tangent is
    /// `Lanes<f64, K>` and a scalar rule's tangent applies lane by lane.
    lanes: bool,
}

impl<'a> Gen<'a> {
    /// What a loop saves on its stack and what its reverse recomputes.
    fn saves(&self, l: &Loop) -> &'a LoopSaves {
        self.an.saves(l)
    }

    /// The values a loop keeps that are `Vec`s (of a length followed from
    /// a `vec![x; n]`): kept as rows of one buffer (`Rows`), where a copy
    /// each would be an allocation an iteration. Not in a checkpointed
    /// loop, whose stacks are snapshots. Its `Vec` entry values are rows
    /// too, pushed as the iteration starts (see [`Gen::entry_rows`]), the
    /// values it keeps at its end.
    fn kept_rows(&self, l: &Loop) -> Vec<ValueId> {
        if l.checkpoint.is_some() {
            return Vec::new();
        }
        let is_row =
            |v: &ValueId| self.f.info(*v).kind == Kind::Array && self.an.lengths.contains_key(v);
        let saves = self.saves(l);
        saves
            .entries
            .iter()
            .chain(&saves.kept)
            .copied()
            .filter(is_row)
            .collect()
    }

    /// The lengths of the entry values a loop keeps as rows, when it keeps
    /// entry values so: each is its initial value's length, a value from
    /// before the loop, so the iterations' rows get one buffer as the loop
    /// starts (the arrays have different lengths; sizing it from the first
    /// row would grow it).
    fn entry_rows(&self, l: &Loop) -> Option<Vec<ValueId>> {
        if !self.saves(l).kept.is_empty() {
            return None;
        }
        let rows = self.kept_rows(l);
        (!rows.is_empty()).then(|| rows.iter().map(|v| self.an.lengths[v]).collect())
    }

    /// What a loop's stack holds an iteration: its entry values and the
    /// values it keeps, but those kept as rows.
    fn stacked_values(&self, l: &Loop) -> Vec<ValueId> {
        let rows = self.kept_rows(l);
        let saves = self.saves(l);
        saves
            .entries
            .iter()
            .chain(&saves.kept)
            .copied()
            .filter(|v| !rows.contains(v))
            .collect()
    }

    /// The taped loops the forward sweep records (in a loop at the top
    /// level, through taped loops only): their stacks exist before it.
    fn forward_taped(&self) -> Vec<&'a Loop> {
        fn taped_in<'a>(an: &Analysis, b: &'a Block, out: &mut Vec<&'a Loop>) {
            for stmt in &b.stmts {
                if let Stmt::Loop(l) = stmt
                    && an.taped.contains(&l.id)
                {
                    out.push(l);
                    taped_in(an, &l.body, out);
                }
            }
        }
        let mut out = Vec::new();
        for stmt in &self.f.body.stmts {
            if let Stmt::Loop(l) = stmt {
                taped_in(self.an, &l.body, &mut out);
            }
        }
        out
    }

    /// The declarations of a loop's stack, rows and cache, those it has.
    fn records_declared(&self, l: &Loop, cfg: Option<&TokenStream>) -> TokenStream {
        let saves = self.saves(l);
        let (s, c, r) = (names::stack(l.id), names::cache(l.id), names::rows(l.id));
        let stack = (!self.stacked_values(l).is_empty())
            .then(|| quote!(#cfg let mut #s = ::autograd::__private::Stack::new();));
        let rows = (!self.kept_rows(l).is_empty())
            .then(|| quote!(#cfg let mut #r = ::autograd::__private::Rows::new();));
        let cache = (!saves.cached.is_empty())
            .then(|| quote!(#cfg let mut #c = ::autograd::__private::Cache::new();));
        quote!(#stack #rows #cache)
    }

    /// The loops below the top level whose stacks the pullback creates.
    fn nested_stacks(&self) -> Vec<(&'a Loop, Option<TokenStream>)> {
        struct Nested<'g, 'a> {
            g: &'g Gen<'a>,
            /// Loops whose stacks exist before the forward sweep.
            before: HashSet<LoopId>,
            /// The predicates of the `#[cfg]` branches around the statement.
            cfgs: Vec<TokenStream>,
            out: Vec<(&'a Loop, Option<TokenStream>)>,
        }
        impl<'a> Visitor<'a> for Nested<'_, 'a> {
            fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
                if let Stmt::Loop(l) = stmt
                    && !self.g.top_loops.contains(&l.id)
                    && !self.before.contains(&l.id)
                    && self.g.saves(l).any()
                {
                    let cfgs = &self.cfgs;
                    let cfg = (!cfgs.is_empty()).then(|| quote!(#[cfg(all(#(#cfgs),*))]));
                    self.out.push((l, cfg));
                }
                // A loop in an arm compiled out has no stack: nothing
                // would give its element type.
                if let Stmt::If(If {
                    cfg: Some(p),
                    then_blk,
                    else_blk,
                    ..
                }) = stmt
                {
                    self.cfgs.push(p.clone());
                    self.visit_block(then_blk);
                    self.cfgs.pop();
                    self.cfgs.push(quote!(not(#p)));
                    self.visit_block(else_blk);
                    self.cfgs.pop();
                    return;
                }
                walk_stmt(self, stmt);
            }
        }
        let mut nested = Nested {
            g: self,
            before: self.forward_taped().iter().map(|l| l.id).collect(),
            cfgs: Vec::new(),
            out: Vec::new(),
        };
        nested.visit_block(&self.f.body);
        nested.out
    }
}

/// Gives every elided lifetime of the arguments a name, so the returned
/// pullback can say which borrows it keeps (`+ use<..>`) in any edition.
/// Named lifetimes are the function's own parameters, or `'static`. A
/// fresh name is the argument's (`'x` for `x: &[f64]`), so a type error
/// quoting the argument's type reads like the user's code; one the item
/// already uses anywhere (a lifetime parameter or a loop label) is
/// skipped.
struct NameLifetimes {
    fresh: Vec<syn::Lifetime>,
    /// The argument whose type is being named.
    base: String,
    /// Lifetime and label names of the item, and those given out.
    taken: HashSet<String>,
}

impl NameLifetimes {
    fn new(item: &syn::ItemFn) -> Self {
        struct Names(HashSet<String>);
        impl<'ast> syn::visit::Visit<'ast> for Names {
            fn visit_lifetime(&mut self, lt: &'ast syn::Lifetime) {
                self.0.insert(lt.ident.to_string());
            }
        }
        let mut names = Names(HashSet::new());
        syn::visit::visit_item_fn(&mut names, item);
        NameLifetimes {
            fresh: Vec::new(),
            base: String::new(),
            taken: names.0,
        }
    }

    /// Names the lifetimes of the argument `pat`'s type after it.
    fn name_argument(&mut self, pat: &syn::Pat, ty: &mut syn::Type) {
        self.base = match pat {
            // A raw identifier (`r#type`) is no lifetime name; `'_x` is.
            syn::Pat::Ident(pi) if !pi.ident.to_string().starts_with("r#") => pi.ident.to_string(),
            _ => "a".to_owned(),
        };
        self.visit_type_mut(ty);
    }

    fn fresh(&mut self) -> syn::Lifetime {
        let name = std::iter::once(self.base.clone())
            .chain((1..).map(|k| format!("{}{k}", self.base)))
            .find(|n| n != "static" && n != "_" && !self.taken.contains(n))
            .expect("an unbounded sequence of names has an unused one");
        self.taken.insert(name.clone());
        let lt = syn::Lifetime::new(&format!("'{name}"), proc_macro2::Span::call_site());
        self.fresh.push(lt.clone());
        lt
    }
}

impl VisitMut for NameLifetimes {
    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        if r.lifetime.as_ref().is_none_or(|lt| lt.ident == "_") {
            r.lifetime = Some(self.fresh());
        }
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
    fn visit_lifetime_mut(&mut self, lt: &mut syn::Lifetime) {
        if lt.ident == "_" {
            *lt = self.fresh();
        }
    }
}

/// The signature pieces every generated item shares.
struct Shape {
    /// Arguments without `#[constant]` or `mut`, elided lifetimes named.
    inputs: Vec<syn::PatType>,
    /// Every lifetime parameter of the generated items, for `use<..>`: the
    /// function's own, then one per elided lifetime (never `'static`).
    lifetimes: Vec<syn::Lifetime>,
    /// Adjoint types, one per argument (`NoGradient` for constants).
    full_tys: Vec<TokenStream>,
    /// The scalar: `f32`/`f64`, or the function's type parameter.
    scalar: Scalar,
    /// What a returned pullback captures (`+ use<..>`): the lifetimes,
    /// then the scalar type parameter.
    captures: Vec<TokenStream>,
    /// Whether the hidden `__grad_acc_full` exists, which `NAME_grad_acc`
    /// then calls.
    direct_acc: bool,
    /// Whether the hidden VJP's pullback says which arguments it reached
    /// (`__private::Reached`): some scalar argument's adjoint may get no
    /// contribution on a run (see `analysis::unreached_argument`).
    reach: bool,
}

impl Shape {
    /// What the hidden VJP's pullback returns.
    fn pulled_ty(&self) -> TokenStream {
        let full_tys = &self.full_tys;
        match self.reach {
            true => {
                let n = proc_macro2::Literal::usize_unsuffixed(full_tys.len());
                quote!(::autograd::__private::Reached<(#(#full_tys,)*), #n>)
            }
            false => quote!((#(#full_tys,)*)),
        }
    }

    /// The adjoints of `pulled`, a result of the hidden VJP's pullback.
    fn adjoints_of(&self, pulled: TokenStream) -> TokenStream {
        match self.reach {
            true => quote!(::autograd::__private::adjoints(#pulled)),
            false => pulled,
        }
    }
}

/// The φ-nodes one arm of a `#[cfg]` branch binds: with the arm's code,
/// and apart, each with its predicate, those passing on a value from
/// before the branch that exists in some configurations only (a name
/// bound twice under `#[cfg]`: where the second is compiled out, the
/// first's value, which exists where the first is compiled in). A name
/// the statement introduces has no value in the arm that compiles it out:
/// it is in neither.
#[allow(clippy::type_complexity)]
fn cfg_arm_sources<'i>(
    f: &Function,
    blk: &Block,
    phis: &'i [Phi],
    src: fn(&Phi) -> ValueId,
) -> (Vec<&'i Phi>, Vec<(&'i Phi, TokenStream)>) {
    let absent = |v: ValueId| {
        blk.stmts
            .iter()
            .any(|s| matches!(s, Stmt::Let { dst, op: Op::Absent, .. } if *dst == v))
    };
    let mut present = Vec::new();
    let mut passed = Vec::new();
    for p in phis.iter().filter(|p| !absent(src(p))) {
        let info = f.info(src(p));
        match &info.exists {
            Some(exists) if info.block != blk.id => passed.push((p, exists.clone())),
            _ => present.push(p),
        }
    }
    (present, passed)
}

fn shape(item: &syn::ItemFn, sig: &Signature) -> Shape {
    let mut named = NameLifetimes::new(item);
    let mut inputs = Vec::new();
    for arg in &item.sig.inputs {
        if let syn::FnArg::Typed(pt) = arg {
            let mut pt = pt.clone();
            pt.attrs = crate::sig::generated_param_attrs(&pt.attrs);
            if let syn::Pat::Ident(pi) = &mut *pt.pat {
                pi.mutability = None;
            }
            named.name_argument(&pt.pat, &mut pt.ty);
            inputs.push(pt);
        }
    }
    let lifetimes: Vec<syn::Lifetime> = item
        .sig
        .generics
        .lifetimes()
        .map(|l| l.lifetime.clone())
        .chain(named.fresh)
        .collect();
    let full_tys = sig
        .params
        .iter()
        .map(|p| {
            p.adjoint_ty()
                .unwrap_or_else(|| quote!(::autograd::__private::NoGradient))
        })
        .collect();
    let scalar = Scalar::of(sig);
    let captures = lifetimes
        .iter()
        .map(ToTokens::to_token_stream)
        .chain(scalar.param().map(ToTokens::to_token_stream))
        .chain(
            item.sig
                .generics
                .const_params()
                .map(|c| c.ident.to_token_stream()),
        )
        .collect();
    Shape {
        inputs,
        lifetimes,
        full_tys,
        scalar,
        captures,
        direct_acc: false,
        reach: false,
    }
}

/// `<..>` of the generated items: the shape's lifetimes, with the bounds
/// the function gives them (those of its `where` clause moved inline),
/// then the scalar type parameter with its inline bounds (its `where`
/// clause is [`where_clause`]).
fn generics(item: &syn::ItemFn, shape: &Shape) -> Option<TokenStream> {
    let predicates: Vec<&syn::PredicateLifetime> = item
        .sig
        .generics
        .where_clause
        .iter()
        .flat_map(|w| &w.predicates)
        .filter_map(|p| match p {
            syn::WherePredicate::Lifetime(p) => Some(p),
            _ => None,
        })
        .collect();
    let params = shape.lifetimes.iter().map(|lt| {
        let declared = item.sig.generics.lifetimes().find(|d| d.lifetime == *lt);
        let bounds: Vec<&syn::Lifetime> = declared
            .into_iter()
            .flat_map(|d| &d.bounds)
            .chain(
                predicates
                    .iter()
                    .filter(|p| p.lifetime == *lt)
                    .flat_map(|p| &p.bounds),
            )
            .collect();
        if bounds.is_empty() {
            quote!(#lt)
        } else {
            quote!(#lt: #(#bounds)+*)
        }
    });
    let params: Vec<TokenStream> = params.chain(scalar_and_lengths(item, shape)).collect();
    (!params.is_empty()).then(|| quote!(<#(#params),*>))
}

/// The scalar type parameter (see [`scalar_param`]) and the lengths
/// (`const N: usize`), in the function's order.
fn scalar_and_lengths(item: &syn::ItemFn, shape: &Shape) -> Vec<TokenStream> {
    let scalar = scalar_param(item, shape);
    item.sig
        .generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(_) => scalar.clone(),
            syn::GenericParam::Const(c) => {
                let mut c = c.clone();
                c.attrs.clear();
                Some(c.into_token_stream())
            }
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect()
}

/// The function's generic arguments but lifetimes, in its order: `T, N`
/// of `fn f<T: Float, const N: usize>`, for a turbofish.
pub fn instance(item: &syn::ItemFn) -> Vec<&syn::Ident> {
    item.sig
        .generics
        .params
        .iter()
        .filter_map(|p| match p {
            syn::GenericParam::Type(t) => Some(&t.ident),
            syn::GenericParam::Const(c) => Some(&c.ident),
            syn::GenericParam::Lifetime(_) => None,
        })
        .collect()
}

/// The scalar type parameter with its inline bounds, and the one the
/// runtime's rules need besides (see [`generics`]).
fn scalar_param(item: &syn::ItemFn, shape: &Shape) -> Option<TokenStream> {
    item.sig.generics.type_params().next().map(|t| {
        let mut t = t.clone();
        t.attrs.clear();
        // The added bound goes where the function's own are (clippy's
        // `multiple_bound_locations`).
        if !t.bounds.is_empty()
            && let Some(extra) = shape.scalar.extra_bound()
        {
            t.bounds.push(extra);
        }
        t.into_token_stream()
    })
}

/// The `where` clause of the generated items: the function's own bounds
/// of its scalar, and the one the runtime's rules need besides (see
/// `Scalar::where_predicate`).
fn where_clause(item: &syn::ItemFn, shape: &Shape) -> TokenStream {
    let own = item
        .sig
        .generics
        .where_clause
        .iter()
        .flat_map(|w| &w.predicates)
        .filter(|p| matches!(p, syn::WherePredicate::Type(_)))
        .map(ToTokens::to_token_stream);
    let inline = item
        .sig
        .generics
        .type_params()
        .next()
        .is_some_and(|t| !t.bounds.is_empty());
    let extra = shape
        .scalar
        .extra_bound()
        .filter(|_| !inline)
        .zip(shape.scalar.param())
        .map(|(bound, t)| quote!(#t: #bound));
    let predicates: Vec<TokenStream> = own.chain(extra).collect();
    if predicates.is_empty() {
        return TokenStream::new();
    }
    quote!(where #(#predicates),*)
}

/// The user's function as a value, instantiated at the generated item's
/// scalar and lengths (`f::<T, N>`): a generic function is named with its
/// parameters.
fn primal_value(item: &syn::ItemFn) -> TokenStream {
    let name = &item.sig.ident;
    let args = instance(item);
    match args.is_empty() {
        true => quote!(#name),
        false => quote!(#name::<#(#args),*>),
    }
}

/// The arguments of a generated wrapper, with hygienic names: a wrapper
/// calls the user's function (and its siblings) by name, which an argument
/// of the same name (`fn scale(x: f64, scale: f64)`) must not shadow.
fn hygienic_inputs(inputs: &[syn::PatType]) -> Vec<syn::PatType> {
    inputs
        .iter()
        .map(|pt| {
            let mut pt = pt.clone();
            if let syn::Pat::Ident(pi) = &mut *pt.pat {
                pi.ident = names::hygienic(&pi.ident);
            }
            pt
        })
        .collect()
}

/// The body of an all-arguments VJP: the forward sweep, then the value and
/// a pullback closure holding the reverse sweep.
fn vjp_body(
    sig: &Signature,
    f: &Function,
    an: &Analysis,
    primal: Option<&syn::Ident>,
    shape: &Shape,
) -> (TokenStream, bool) {
    sweeps(sig, f, an, primal, shape, None)
}

/// The slice arguments of a VJP whose adjoint is the one a kept callee's
/// pullback returns for them (`project(cam, x)` in a function reading
/// `cam` nowhere else): its one read, the argument passed whole to a
/// call at the top level of the body whose pullback the forward sweep
/// keeps (see `analysis::kept_call`), whose adjoint no flag gates. The
/// reverse sweep takes that `Vec` as the argument's adjoint instead of
/// adding it into zeros and giving it back.
fn adopted_slices(f: &Function, an: &Analysis, sig: &Signature) -> HashSet<ValueId> {
    let mut out = HashSet::new();
    for (v, p) in f.params.iter().zip(&sig.params) {
        if !(p.differentiable && matches!(p.kind, ParamKind::Slice(_))) || an.uses[*v] != 1 {
            continue;
        }
        // Read nowhere else (an element read adds into its adjoint too).
        let mut reads = 0;
        f.body
            .for_each_read(&mut |r| reads += usize::from(*r == *v));
        if reads != 1 {
            continue;
        }
        let adopted = f.body.stmts.iter().any(|s| match s {
            Stmt::Let {
                dst,
                op: Op::Call { args, .. },
                ..
            } => {
                crate::analysis::kept_call(f, *dst, args)
                    && an.active(*dst)
                    && !an.gated[*dst]
                    && args
                        .iter()
                        .any(|a| a.operand.value() == Some(*v) && a.range.is_none())
            }
            _ => false,
        });
        if adopted {
            out.insert(*v);
        }
    }
    out
}

/// The buffers of `__grad_acc_full`, one per differentiable argument, in
/// argument order (`None` for a constant).
struct AccBuffers {
    per_param: Vec<Option<proc_macro2::Ident>>,
    /// The slice arguments' buffers by value: their adjoints.
    slices: HashMap<ValueId, proc_macro2::Ident>,
    /// The buffers of the array arguments whose adjoints are held off the
    /// stack (`Param::adjoint_off_stack`): their adjoints too.
    arrays: HashMap<ValueId, proc_macro2::Ident>,
}

/// The forward and reverse sweeps of `f`: as a VJP's body (the value and
/// a pullback closure holding the reverse sweep), or with `acc`, as the
/// body of `__grad_acc_full`: the reverse sweep right after the forward
/// one at seed one, the slice arguments' adjoints being the caller's
/// buffers, every other argument's adjoint added into its buffer at the
/// end.
fn sweeps(
    sig: &Signature,
    f: &Function,
    an: &Analysis,
    primal: Option<&syn::Ident>,
    shape: &Shape,
    acc: Option<&AccBuffers>,
) -> (TokenStream, bool) {
    let mut top_loops = HashSet::new();
    for stmt in &f.body.stmts {
        if let Stmt::Loop(l) = stmt {
            top_loops.insert(l.id);
        }
    }
    let seed_ty = sig.ret.seed();
    let mut g = Gen {
        f,
        an,
        scalar: &shape.scalar,
        top_loops,
        declared: HashSet::new(),
        movable: movable(f, an),
        consumable: consumable_arrays(f, an),
        broadcast: HashMap::new(),
        lent: HashSet::new(),
        deferred: Vec::new(),
        windows: HashMap::new(),
        fresh_windows: HashSet::new(),
        dead_entries: HashMap::new(),
        hoisted_spares: TokenStream::new(),
        recorded: forward::recorded_calls(f, an, primal, shape.lifetimes.len()),
        recorded_pullback_ty: {
            let pulled = shape.pulled_ty();
            quote! {
                ::autograd::__private::Box<
                    dyn ::core::ops::FnOnce(#seed_ty) -> #pulled + '_
                >
            }
        },
        in_pullback: false,
        buffers: acc.map(|a| &a.slices),
        scaled: Default::default(),
        gate: true,
        reach: shape.reach,
        adopted: match acc {
            None => adopted_slices(f, an, sig),
            Some(_) => HashSet::new(),
        },
        lanes: false,
    };

    // The stacks of the loops the forward sweep tapes for whole nests.
    let taped_stacks: Vec<_> = g
        .forward_taped()
        .into_iter()
        .filter(|l| g.saves(l).any())
        .map(|l| g.records_declared(l, None))
        .collect();
    let mut forward = g.forward_block(&f.body, Mode::Record, None);
    forward = quote!(#(#taped_stacks)* #forward);
    // In-out arguments: the sweeps work on owned copies (the body's
    // `mut` values), written back once the forward sweep is done, so the
    // caller's arguments end as the primal leaves them.
    let (copies, stores, out_seeds) = inout::copies(sig, shape, f, &g);
    forward = quote!(#copies #forward #stores);
    g.in_pullback = true;
    let nested = g.nested_stacks();
    let stacks: Vec<_> = nested
        .iter()
        .map(|(l, cfg)| g.records_declared(l, cfg.as_ref()))
        .collect();
    let adopted = g.adopted.clone();
    let slice_adjoints: Vec<_> = f
        .params
        .iter()
        .zip(&sig.params)
        .filter(|(v, p)| {
            p.differentiable && matches!(p.kind, ParamKind::Slice(_)) && !adopted.contains(v)
        })
        .map(|(v, p)| {
            let adj = names::adjoint(f, *v);
            let x = &p.ident;
            match (g.sole_unit(*v), acc.and_then(|a| a.slices.get(v))) {
                (Some(unit), _) => quote!(let mut #adj = #unit;),
                (None, Some(buffer)) => quote!(let mut #adj = #buffer;),
                (None, None) => {
                    quote!(let mut #adj = ::autograd::__private::zeros_like_slice(#x);)
                }
            }
        })
        .collect();
    // A large array argument's adjoint: the caller's buffer, or zeros on
    // the heap (moved out once, into the pullback's result), never a
    // local array a debug build would copy at each move.
    let mut held = HashSet::new();
    let held_adjoints: Vec<_> = f
        .params
        .iter()
        .zip(&sig.params)
        .filter(|(_, p)| p.adjoint_off_stack())
        .map(|(v, p)| {
            held.insert(*v);
            g.declared.insert(*v);
            let adj = names::adjoint(f, *v);
            let x = &p.ident;
            let x = match p.kind {
                ParamKind::Array { by_ref: true, .. } => quote!(#x),
                _ => quote!(&#x),
            };
            match acc.and_then(|a| a.arrays.get(v)) {
                Some(buffer) => quote!(let mut #adj = #buffer;),
                None => quote!(let mut #adj = ::autograd::__private::zeros_boxed(#x);),
            }
        })
        .collect();
    let seed = names::seed();
    let incoming = an
        .active_operand(&f.ret)
        .map(|r| (r, seed.to_token_stream(), None))
        .into_iter()
        .chain(
            f.outs
                .iter()
                .zip(&out_seeds)
                .filter(|(v, _)| an.active(**v))
                .map(|(v, (s, _))| (*v, s.to_token_stream(), None)),
        )
        .collect();
    let mut reverse = g.reverse_block(&f.body, incoming);
    reverse.extend(std::mem::take(&mut g.deferred));
    let results: Vec<_> = f
        .params
        .iter()
        .zip(&sig.params)
        .map(|(v, p)| {
            if !p.differentiable {
                quote!(::autograd::__private::NoGradient)
            } else if held.contains(v) {
                let adj = names::adjoint(f, *v);
                quote!(*#adj)
            } else if g.adopted.contains(v) {
                // The call it would have come from added nothing.
                let x = &p.ident;
                quote!(::autograd::__private::zeros_like_slice(#x))
            } else if g.declared.contains(v) || matches!(p.kind, ParamKind::Slice(_)) {
                names::adjoint(f, *v).into_token_stream()
            } else {
                g.zero(*v)
            }
        })
        .collect();
    // Which scalar arguments the sweep reached: not one the result does
    // not read, a gated one if its flag says so, any other always.
    let flags = g.reach.then(|| {
        let flags = f.params.iter().zip(&sig.params).map(|(v, p)| {
            if !(p.differentiable && crate::analysis::unreached_argument(f, an, *v)) {
                quote!(true)
            } else if let Some(r) = g.reached(*v).filter(|_| g.declared.contains(v)) {
                r.into_token_stream()
            } else {
                quote!(false)
            }
        });
        quote!([#(#flags),*])
    });
    let results = match &flags {
        None => quote!((#(#results,)*)),
        Some(flags) => quote!(::autograd::__private::Reached((#(#results,)*), #flags)),
    };
    // The result is returned and may also be read by the reverse sweep.
    let ret = match f.ret.value() {
        Some(r) if !f.info(r).kind.is_copy() && an.needs(&f.body).contains(&r) => g.owned(r),
        _ => g.operand(&f.ret),
    };
    let seed_ty = sig.ret.seed();
    let out_params = out_seeds.iter().map(|(s, ty)| quote!(#s: #ty));
    let items = &f.items;
    let body = match acc {
        None => quote! {
            #(#items)*
            #forward
            (#ret, move |#seed: #seed_ty #(, #out_params)*| {
                #(#stacks)*
                #(#slice_adjoints)*
                #(#held_adjoints)*
                #reverse
                #results
            })
        },
        Some(acc) => {
            // A slice's adjoint is its buffer; a float's and a matrix's
            // are added into theirs once the sweep is done.
            let added = f
                .params
                .iter()
                .zip(&sig.params)
                .zip(&acc.per_param)
                .filter_map(|((v, p), buffer)| {
                    let buffer = buffer.as_ref()?;
                    let adj = names::adjoint(f, *v);
                    match p.kind {
                        ParamKind::Slice(_) => None,
                        _ if !g.declared.contains(v) || held.contains(v) => None,
                        ParamKind::Float(_) => Some(g.scalar.add_assign(
                            Kind::Float,
                            quote!(*#buffer),
                            adj.into_token_stream(),
                        )),
                        _ => Some(g.scalar.accumulate(
                            Kind::Matrix,
                            buffer.into_token_stream(),
                            adj.into_token_stream(),
                            proc_macro2::Span::mixed_site(),
                        )),
                    }
                });
            let checks = f.params.iter().zip(&sig.params).filter_map(|(v, p)| {
                let buffer = acc.slices.get(v).or_else(|| acc.arrays.get(v))?;
                let x = &p.ident;
                Some(quote!(::autograd::__private::check_buffer(#buffer, #x.len());))
            });
            let result = names::result();
            let result_and_flags = match &flags {
                None => result.to_token_stream(),
                Some(flags) => quote!((#result, #flags)),
            };
            // The buffers the sweeps still own go back to the pool.
            recycle::give_back(
                quote! {
                    #(#checks)*
                    #(#items)*
                    #forward
                    let #result = #ret;
                    #(#stacks)*
                    #(#slice_adjoints)*
                    #(#held_adjoints)*
                    #reverse
                    #(#added)*
                },
                result_and_flags,
            )
        }
    };
    let rules = paths::import_rules(&body);
    scopes::declare_up_front(quote!(#rules #body))
}

/// The hidden all-arguments VJP of a function whose adjoint comes from its
/// body.
fn vjp_fn(
    item: &syn::ItemFn,
    shape: &Shape,
    sig: &Signature,
    f: &Function,
    an: &Analysis,
) -> TokenStream {
    let name = names::hidden(&item.sig.ident, names::VJP_FULL);
    let vis = &item.vis;
    let (body, declared_up_front) = vjp_body(sig, f, an, Some(&item.sig.ident), shape);
    let seed_ty = sig.ret.seed();
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let inputs = &shape.inputs;
    let pulled = shape.pulled_ty();
    let captures = inout::captures(sig, shape);
    let out_tys = inout::seed_tys(sig);
    // A local declared up front and assigned a value nothing reads is
    // reported as an unused assignment rather than an unused variable.
    let unused_assignments = declared_up_front.then(|| quote!(unused_assignments,));
    let reusable = f.reusable_pullback.then(|| quote!(+ ::core::clone::Clone));
    // The sweeps reproduce the primal without calling it; naming it keeps
    // a caller of only the generated functions free of a dead-code warning.
    let primal = primal_value(item);
    quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, unused_mut, unused_parens, #unused_assignments clippy::all)]
        #vis fn #name #generics (#(#inputs),*)
            -> (#seed_ty, impl ::core::ops::FnOnce(#seed_ty #(, #out_tys)*) -> #pulled #reusable + use<#(#captures),*>)
            #where_clause
        {
            let _ = #primal;
            #body
        }
    }
}

/// The hidden all-arguments VJP of a function with `__grad_acc_full`:
/// the sweeps run in the forward call, at seed one, into zeroed adjoints
/// (a slice's from the thread's pool, a large array's on the heap), and
/// the pullback scales them by a finite seed (`__private::Seeded`). At ∞
/// or NaN that product is not the sweep's (∞·0 is NaN where the sweep
/// never multiplies, and a sum of ∞ and −∞ contributions is NaN where the
/// product is ±∞): the pullback runs the sweeps again, seeded with it, so
/// it gives what the sweep gives at every seed. The runtime's
/// `__private::vjp_by_acc` does all this, given the sweep as a closure;
/// written out only where an adjoint is on the heap. `None` where an
/// argument is not `Copy` for certain (the pullback keeps the arguments
/// for that second run): such a function has a pullback of its own.
fn vjp_by_acc(
    item: &syn::ItemFn,
    shape: &Shape,
    sig: &Signature,
    f: &Function,
) -> Option<TokenStream> {
    let copied = item.sig.inputs.iter().zip(&sig.params).all(|(arg, p)| match &p.kind {
        ParamKind::Float(_) | ParamKind::Slice(_) | ParamKind::Int | ParamKind::Bool => true,
        ParamKind::Array { by_ref, owned, .. } => {
            *by_ref || matches!(&**owned, syn::Type::Array(a) if small_literal(&a.len))
        }
        ParamKind::Matrix { by_ref, fixed, .. } => *by_ref || *fixed,
        ParamKind::Other => {
            matches!(arg, syn::FnArg::Typed(t) if matches!(&*t.ty, syn::Type::Reference(r) if r.mutability.is_none()))
        }
    });
    if !copied {
        return None;
    }
    let name = names::hidden(&item.sig.ident, names::VJP_FULL);
    let acc_full = forward::hidden_path(&item.sig.ident.clone().into(), names::GRAD_ACC_FULL);
    let vis = &item.vis;
    let seed_ty = sig.ret.seed();
    let seed = names::seed();
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let Shape {
        inputs,
        captures,
        scalar,
        ..
    } = shape;
    let args: Vec<_> = sig.params.iter().map(|p| p.ident.clone()).collect();
    let reusable = f.reusable_pullback.then(|| quote!(+ ::core::clone::Clone));
    let pulled = shape.pulled_ty();
    let signature = quote! {
        #[doc(hidden)]
        #[inline]
        #vis fn #name #generics (#(#inputs),*)
            -> (#seed_ty, impl ::core::ops::FnOnce(#seed_ty) -> #pulled #reusable + use<#(#captures),*>)
            #where_clause
    };
    let off_stack = sig
        .params
        .iter()
        .any(|p| p.differentiable && p.adjoint_off_stack());
    if !off_stack {
        // The runtime's `vjp_by_acc` runs the sweeps and keeps the
        // adjoints, one slot per argument, for the pullback.
        let b = names::adjoints();
        let starts = sig
            .params
            .iter()
            .map(|p| adjoint_start(p, &p.ident, scalar));
        let buffers = sig
            .params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.differentiable)
            .map(|(k, _)| {
                let k = proc_macro2::Literal::usize_unsuffixed(k);
                quote!(&mut #b.#k)
            });
        let helper = match shape.reach {
            true => quote!(vjp_by_acc_reached),
            false => quote!(vjp_by_acc),
        };
        return Some(quote! {
            #signature {
                ::autograd::__private::#helper(
                    (#(#starts,)*),
                    move |#b, #seed| #acc_full(#(#args,)* #(#buffers,)* #seed),
                )
            }
        });
    }
    // A large array's adjoint is on the heap, moved out of its box into
    // the result: written out here.
    let AccAdjoints {
        zeros,
        buffers,
        adjoints,
        scaled,
        rezeroed,
    } = acc_adjoints(sig, scalar, &args);
    let one = scalar.one();
    // A second run at a non-finite seed takes the same paths: the first's
    // flags stand.
    let (value, adjoints) = match shape.reach {
        true => (
            quote!((__ad_value, __ad_reached)),
            quote!(::autograd::__private::Reached((#(#adjoints,)*), __ad_reached)),
        ),
        false => (quote!(__ad_value), quote!((#(#adjoints,)*))),
    };
    Some(quote! {
        #signature {
            #(#zeros)*
            let #value = #acc_full(#(#args,)* #(#buffers,)* #one);
            (__ad_value, move |#seed: #seed_ty| {
                if ::autograd::__private::rules::Real::is_finite(#seed) {
                    #(#scaled)*
                } else {
                    #(#rezeroed)*
                    #acc_full(#(#args,)* #(#buffers,)* #seed);
                }
                #adjoints
            })
        }
    })
}

/// The adjoints `__grad_acc_full` adds into when the caller has no
/// buffers (`NAME_grad`, the pullback): zeros, a large array's on the heap.
struct AccAdjoints {
    /// `let mut b_x = zeros;`, one per differentiable argument.
    zeros: Vec<TokenStream>,
    /// The buffers passed to `__grad_acc_full`.
    buffers: Vec<TokenStream>,
    /// Every argument's slot: its adjoint by value, or `NoGradient`.
    adjoints: Vec<TokenStream>,
    /// Each adjoint scaled by a finite seed.
    scaled: Vec<TokenStream>,
    /// Each adjoint zero again.
    rezeroed: Vec<TokenStream>,
}

fn acc_adjoints(sig: &Signature, scalar: &Scalar, args: &[syn::Ident]) -> AccAdjoints {
    let seed = names::seed();
    let zero = scalar.zero();
    let mut out = AccAdjoints {
        zeros: Vec::new(),
        buffers: Vec::new(),
        adjoints: Vec::new(),
        scaled: Vec::new(),
        rezeroed: Vec::new(),
    };
    for (p, x) in sig.params.iter().zip(args) {
        let start = adjoint_start(p, x, scalar);
        if !p.differentiable {
            out.adjoints.push(start);
            continue;
        }
        let b = names::buffer(x);
        out.zeros.push(quote!(let mut #b = #start;));
        out.scaled
            .push(quote!(#b = ::autograd::__private::Seeded::seeded(#b, #seed);));
        if p.adjoint_off_stack() {
            // Moved out of its box once, into the result.
            out.buffers.push(quote!(&mut *#b));
            out.adjoints.push(quote!(*#b));
        } else {
            out.buffers.push(quote!(&mut #b));
            out.adjoints.push(b.to_token_stream());
        }
        out.rezeroed.push(match p.kind {
            ParamKind::Float(_) => quote!(#b = #zero;),
            _ => quote!(#b.fill(#zero);),
        });
    }
    out
}

/// The adjoint `__grad_acc_full` adds into for argument `p`, named `x`,
/// when the caller has no buffer: zeros shaped like it, a large array's on the
/// heap; `NoGradient` for an argument that is not differentiable.
fn adjoint_start(p: &Param, x: &syn::Ident, scalar: &Scalar) -> TokenStream {
    match &p.kind {
        // Integers, `bool`s and other types are never differentiable.
        _ if !p.differentiable => quote!(::autograd::__private::NoGradient),
        ParamKind::Int | ParamKind::Bool | ParamKind::Other => {
            quote!(::autograd::__private::NoGradient)
        }
        ParamKind::Float(_) => scalar.zero(),
        ParamKind::Slice(_) => quote!(::autograd::__private::zeros_like_slice(#x)),
        ParamKind::Array { by_ref: true, .. } if p.adjoint_off_stack() => {
            quote!(::autograd::__private::zeros_boxed(#x))
        }
        _ if p.adjoint_off_stack() => quote!(::autograd::__private::zeros_boxed(&#x)),
        ParamKind::Array { by_ref: true, .. } | ParamKind::Matrix { by_ref: true, .. } => {
            quote!(::autograd::__private::zero_like(#x))
        }
        ParamKind::Array { .. } | ParamKind::Matrix { .. } => {
            quote!(::autograd::__private::zero_like(&#x))
        }
    }
}

/// Whether an array length is an integer literal of at most
/// `sig::STACK_ARRAY_LEN` elements.
fn small_literal(len: &syn::Expr) -> bool {
    matches!(len, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. })
        if n.base10_parse::<usize>().is_ok_and(|n| n <= crate::sig::STACK_ARRAY_LEN))
}

/// The VJP of a `map` closure's function (see `Op::Map`) with its
/// analysis: a closure `|v: f64| (value, pullback)`, written where the
/// sweeps apply it, so it may read the enclosing function's variables as
/// that code sees them.
fn map_helper(closure: &Function, an: &Analysis, span: proc_macro2::Span) -> TokenStream {
    let element = closure.info(closure.params[0]);
    let (Some(param), Some(elem)) = (&element.param, &element.float) else {
        return quote!(::core::unreachable!());
    };
    let inputs: Vec<syn::Ident> = closure.params[1..]
        .iter()
        .filter_map(|p| closure.info(*p).param.clone())
        .collect();
    let sig = crate::sig::map_element_sig(param, &inputs, elem, span);
    let item: syn::ItemFn = syn::parse_quote!(#sig {});
    // The signature lowering read the closure's body under, read again:
    // lowering reported any error in it to the user.
    let cx = crate::ctxt::Ctxt::default();
    let sig = crate::sig::parse(&cx, &item.sig, false);
    let _ = cx.check();
    let Some(sig) = sig else {
        return quote!(::core::unreachable!());
    };
    let shape = shape(&item, &sig);
    let (body, _) = vjp_body(&sig, closure, an, None, &shape);
    let inputs = &shape.inputs;
    quote!(|#(#inputs),*| { #body })
}

/// Everything generated for a function whose adjoint comes from its body.
/// `jvp`: `NAME_jvp` is generated too, and `NAME_jacobian` may sweep
/// forward.
pub fn generate(
    item: &syn::ItemFn,
    sig: &Signature,
    f: &Function,
    an: &Analysis,
    jvp: bool,
) -> TokenStream {
    let mut shape = shape(item, sig);
    shape.reach = f
        .params
        .iter()
        .zip(&sig.params)
        .any(|(v, p)| p.differentiable && crate::analysis::unreached_argument(f, an, *v));
    if sig.has_inout() {
        let mut hidden = vjp_fn(item, &shape, sig, f, an);
        hidden.extend(inout::call_items(item, sig, &shape));
        let mut out = carrier(item, sig, &shape, hidden);
        out.extend(inout::public_items(item, sig, &shape));
        return out;
    }
    // A function with `__grad_acc_full` has its sweeps there only: its VJP
    // runs them at seed one and scales by the seed (one copy of the sweeps
    // for rustc to check, not two). One with more arguments than the
    // runtime's tuple helpers take, or whose arguments the pullback could
    // not keep for a second run, keeps a pullback of its own.
    let hidden = match grad_acc_fn(item, &shape, sig, f, an) {
        Some(mut acc) => {
            let vjp = (sig.params.len() <= thin::MAX_ARITY)
                .then(|| vjp_by_acc(item, &shape, sig, f))
                .flatten()
                .unwrap_or_else(|| vjp_fn(item, &shape, sig, f, an));
            acc.extend(vjp);
            shape.direct_acc = true;
            acc
        }
        None => vjp_fn(item, &shape, sig, f, an),
    };
    let mut hidden = hidden;
    hidden.extend(constant_struct_call(item, sig, &shape));
    let adds_into = adds_into_items(item, &shape, sig, f, an).map(|(h, imp)| {
        hidden.extend(h);
        imp
    });
    let mut out = carrier(item, sig, &shape, hidden);
    out.extend(adds_into);
    let lanes = jvp && tangent::lanes(sig, f, an);
    out.extend(public_items(item, sig, &shape, jvp, lanes));
    out
}

/// A caller passes a differentiable `Tangent` struct flattened, through
/// `f::__struct_call` and its VJP, which a function whose struct argument
/// is `#[constant]` would not have: the call would be three errors naming
/// them. Here they are: the primal call, and a VJP whose slots for the
/// struct are `NoGradient`, so that the caller's check of the slot is the
/// one error, at the argument, in the words of any differentiable value
/// passed to a `#[constant]` parameter.
fn constant_struct_call(item: &syn::ItemFn, sig: &Signature, shape: &Shape) -> TokenStream {
    let constant_struct = |i: usize| {
        matches!(sig.params[i].kind, ParamKind::Other)
            && crate::sig::is_struct_type(&shape.inputs[i].ty, &item.sig.generics)
    };
    let name = &item.sig.ident;
    if sig.scalar.is_some()
        || names::has_no_carrier(name)
        || !(0..sig.params.len()).any(constant_struct)
    {
        return TokenStream::new();
    }
    let vis = &item.vis;
    let flat_elem = match &sig.ret {
        Ret::Float(t) => t.to_token_stream(),
        _ => quote!(f64),
    };
    let (mut inputs, mut args, mut slots, mut passed, mut tys) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (i, (pt, p)) in shape.inputs.iter().zip(&sig.params).enumerate() {
        let x = &p.ident;
        let slot = quote::format_ident!("__ad_slot{i}");
        args.push(x.to_token_stream());
        slots.push(slot.clone());
        if constant_struct(i) {
            let flat = quote::format_ident!("__ad_flat{i}");
            inputs.push(quote!(#pt, #flat: &[#flat_elem]));
            passed.push(quote!(
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient
            ));
            tys.push(quote!(
                ::autograd::__private::NoGradient,
                ::autograd::__private::NoGradient
            ));
        } else {
            inputs.push(pt.to_token_stream());
            passed.push(slot.to_token_stream());
            tys.push(shape.full_tys[i].clone());
        }
    }
    let call = syn::Ident::new(names::STRUCT_CALL, proc_macro2::Span::call_site());
    let vjp = syn::Ident::new(
        &names::struct_call_item(names::VJP_FULL),
        proc_macro2::Span::call_site(),
    );
    let same = syn::Ident::new(
        &names::struct_call_item(names::SAME_CALLEE),
        proc_macro2::Span::call_site(),
    );
    let vjp_full = names::hidden(name, names::VJP_FULL);
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let output = &item.sig.output;
    let seed_ty = sig.ret.seed();
    let captures = &shape.captures;
    let pulled = shape.adjoints_of(quote!(__ad_pullback(__ad_seed)));
    quote! {
        #[doc(hidden)]
        #[allow(clippy::too_many_arguments)]
        #vis fn #call #generics (#(#inputs),*) #output #where_clause {
            #name(#(#args),*)
        }
        #[doc(hidden)]
        #[inline(always)]
        #vis fn #same<F: 'static, V, P>(called: &F, _: &V, _: &P) {
            ::autograd::__private::same_function(
                called,
                ::autograd::__private::type_id_of(&Self::#call),
            )
        }
        #[doc(hidden)]
        #[allow(unused_variables, clippy::all)]
        #vis fn #vjp #generics (#(#inputs),*)
            -> (#seed_ty, impl ::core::ops::FnOnce(#seed_ty) -> (#(#tys,)*) + use<#(#captures),*>)
            #where_clause
        {
            let (__ad_value, __ad_pullback) = Self::#vjp_full(#(#args),*);
            (__ad_value, move |__ad_seed: #seed_ty| {
                let (#(#slots,)*) = #pulled;
                (#(#passed,)*)
            })
        }
    }
}

/// The buffers of `NAME_grad_acc`'s arguments: `d_x` for `x`, lengthened
/// while an argument has that name (hygienic: visible to generated code
/// only).
fn acc_buffer_names(sig: &Signature) -> Vec<syn::Ident> {
    let taken: Vec<String> = sig.params.iter().map(|p| p.ident.to_string()).collect();
    sig.params
        .iter()
        .filter(|p| p.differentiable)
        .map(|p| {
            let mut buffer = format!("d_{}", p.ident.to_string().trim_start_matches("r#"));
            while taken.contains(&buffer) {
                buffer.push('_');
            }
            names::hygienic(&syn::Ident::new(&buffer, p.ident.span()))
        })
        .collect()
}

/// The hidden `__grad_acc_full(args.., buffers..)`, `NAME_grad_acc`'s
/// body, for a function of one float with a differentiable slice
/// argument: the forward sweep, then the reverse
/// sweep at seed one in the same body (no pullback closure), adding into
/// the caller's buffers: a slice argument's adjoint is its buffer, written
/// in place by the sweep (no pooled adjoint, no second pass adding it in).
/// The function's only copy of the sweeps: its `__vjp_full` calls it with
/// zeroed adjoints (`vjp_by_acc`).
fn grad_acc_fn(
    item: &syn::ItemFn,
    shape: &Shape,
    sig: &Signature,
    f: &Function,
    an: &Analysis,
) -> Option<TokenStream> {
    // Only a slice argument's adjoint changes: without one, the pullback's
    // adjoints are floats, arrays and matrices, which the generic
    // `grad_acc` adds into the buffers as cheaply (and without a second
    // copy of the sweeps to type-check).
    // A large array's too: the pullback's array would sit on the stack.
    let in_place = sig.params.iter().any(|p| {
        p.differentiable && matches!(p.kind, ParamKind::Slice(_)) || p.adjoint_off_stack()
    });
    if !matches!(sig.ret, Ret::Float(_)) || !in_place {
        return None;
    }
    Some(acc_sweeps_fn(item, shape, sig, f, an, names::GRAD_ACC_FULL))
}

/// The sweeps at `seed`, adding into the caller's buffers (see
/// [`grad_acc_fn`]), as the hidden function `name`.
fn acc_sweeps_fn(
    item: &syn::ItemFn,
    shape: &Shape,
    sig: &Signature,
    f: &Function,
    an: &Analysis,
    name: &str,
) -> TokenStream {
    let mut per_param = Vec::new();
    let (mut slices, mut arrays) = (HashMap::new(), HashMap::new());
    let mut buffers = Vec::new();
    for (v, p) in f.params.iter().zip(&sig.params) {
        let buffer = p.buffer_ty().map(|ty| (names::buffer(&p.ident), ty));
        if let Some((b, ty)) = &buffer {
            if matches!(p.kind, ParamKind::Slice(_)) {
                slices.insert(*v, b.clone());
            } else if p.adjoint_off_stack() {
                arrays.insert(*v, b.clone());
            }
            buffers.push(quote!(#b: #ty));
        }
        per_param.push(buffer.map(|(b, _)| b));
    }
    let acc = AccBuffers {
        per_param,
        slices,
        arrays,
    };
    let (body, declared_up_front) = sweeps(sig, f, an, Some(&item.sig.ident), shape, Some(&acc));
    let name = names::hidden(&item.sig.ident, name);
    let vis = &item.vis;
    let seed_ty = sig.ret.seed();
    let seed = names::seed();
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let inputs = &shape.inputs;
    let unused_assignments = declared_up_front.then(|| quote!(unused_assignments,));
    // With the arguments the sweep reached, for the pullback to say.
    let ret_ty = match shape.reach {
        true => {
            let n = proc_macro2::Literal::usize_unsuffixed(sig.params.len());
            quote!((#seed_ty, [bool; #n]))
        }
        false => seed_ty.to_token_stream(),
    };
    let primal = primal_value(item);
    quote! {
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, unused_mut, unused_parens, #unused_assignments clippy::all)]
        #vis fn #name #generics (#(#inputs,)* #(#buffers,)* #seed: #seed_ty) -> #ret_ty #where_clause {
            let _ = #primal;
            #body
        }
    }
}

/// For a function of slice and float arguments (all differentiable, no
/// generics) with an array or tuple result: the hidden `__add_into`, its
/// sweeps at a seed adding into the caller's buffers (as `__grad_acc_full`
/// does), and the runtime's `AddsInto` for its carrier, by which a caller
/// whose reverse sweep makes the call has its adjoints added into its own
/// instead of into zeros from the pool that it then adds in and gives
/// back (in a bundle adjustment's Jacobian, three helpers per row).
/// The hidden function goes in the carrier, the `impl` next to it.
fn adds_into_items(
    item: &syn::ItemFn,
    shape: &Shape,
    sig: &Signature,
    f: &Function,
    an: &Analysis,
) -> Option<(TokenStream, TokenStream)> {
    let fits = sig
        .params
        .iter()
        .all(|p| p.differentiable && matches!(p.kind, ParamKind::Slice(_) | ParamKind::Float(_)));
    let result = matches!(
        &sig.ret,
        Ret::Outputs(syn::Type::Array(_) | syn::Type::Tuple(_))
    );
    if !fits
        || !result
        || sig.params.is_empty()
        || !item.sig.generics.params.is_empty()
        || shape.reach
        || sig.scalar.is_some()
        || names::has_no_carrier(&item.sig.ident)
    {
        return None;
    }
    let hidden = acc_sweeps_fn(item, shape, sig, f, an, names::ADD_INTO);
    let name = &item.sig.ident;
    let add_into = names::hidden(name, names::ADD_INTO);
    let same_callee = names::hidden(name, names::SAME_CALLEE);
    let seed_ty = sig.ret.seed();
    let arg_tys: Vec<_> = item
        .sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            syn::FnArg::Typed(pt) => Some(&*pt.ty),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let buffer_tys: Vec<_> = sig.params.iter().filter_map(|p| p.buffer_ty()).collect();
    let args: Vec<_> = sig.params.iter().map(|p| p.ident.clone()).collect();
    let buffers: Vec<_> = args.iter().map(names::buffer).collect();
    let seed = names::seed();
    let private = quote!(::autograd::__private);
    let imp = quote! {
        #[doc(hidden)]
        impl #private::AddsInto<(#(#arg_tys,)*), &#seed_ty, (#(#buffer_tys,)*)> for #name {
            #[inline(always)]
            fn add_into<F: 'static>(
                called: &F,
                (#(#args,)*): (#(#arg_tys,)*),
                #seed: &#seed_ty,
                (#(#buffers,)*): (#(#buffer_tys,)*),
            ) {
                #name::#same_callee(called, #seed, &());
                #name::#add_into(#(#args,)* #(#buffers,)* *#seed);
            }
        }
    };
    Some((hidden, imp))
}

/// The type named like the function whose associated items are the
/// function's hidden items: its VJP, its parameter names and the check that
/// a caller's function is this one. Callers reach them through the path
/// they call the function by (`m::f::__vjp_full`), so a `use m::f;` (or
/// `use m::f as g;`) imports them with the function, and a function
/// without `#[differentiable]` has none: calling it is an error at its
/// name. A function named like a primitive type keeps them as free items
/// (see `names::hidden`).
fn carrier(item: &syn::ItemFn, sig: &Signature, shape: &Shape, hidden: TokenStream) -> TokenStream {
    let vis = &item.vis;
    let name = &item.sig.ident;
    let same_callee = names::hidden(name, names::SAME_CALLEE);
    let params = names::hidden(name, names::PARAMS);
    let param_names = written_names(item);
    let consts: Vec<&syn::ConstParam> = item.sig.generics.const_params().collect();
    let check = match (&sig.scalar, consts.is_empty()) {
        // The function items compared by `TypeId`, the value ignored.
        (None, true) => quote! {
            #vis fn #same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
                ::autograd::__private::same_function(
                    called,
                    ::autograd::__private::type_id_of(&#name),
                )
            }
        },
        // A generic function's item type is `'static` only if its scalar
        // is: compared by name, instantiated at the scalar of the call's
        // value and at the lengths of its pullback's adjoints, which the
        // bounds relate to the caller's item.
        _ => {
            let mut type_param: Vec<syn::TypeParam> =
                item.sig.generics.type_params().take(1).cloned().collect();
            for tp in &mut type_param {
                tp.attrs.clear();
            }
            let own_where = item
                .sig
                .generics
                .where_clause
                .iter()
                .flat_map(|w| &w.predicates)
                .filter(|p| matches!(p, syn::WherePredicate::Type(_)));
            let tys = item.sig.inputs.iter().filter_map(|arg| match arg {
                syn::FnArg::Typed(pt) => {
                    let mut ty = (*pt.ty).clone();
                    ElideLifetimes.visit_type_mut(&mut ty);
                    Some(ty)
                }
                syn::FnArg::Receiver(_) => None,
            });
            let value = sig.ret.seed();
            // The callee's type and its pullback's, named apart from the
            // function's own parameters (`fn f<F: Float>`).
            let called = unused_type_param(&item.sig.generics, "Called");
            let pullback = unused_type_param(&item.sig.generics, "Pullback");
            let pulled = shape.pulled_ty();
            let pullback_bound =
                (!consts.is_empty()).then(|| quote!(: ::core::ops::FnOnce(#value) -> #pulled));
            let instance = instance(item);
            quote! {
                #vis fn #same_callee<#(#type_param,)* #(#consts,)* #called: ::core::ops::Fn(#(#tys),*) -> #value, #pullback #pullback_bound>(called: &#called, _: &#value, _: &#pullback)
                where #(#own_where),*
                {
                    ::autograd::__private::same_generic_function(
                        called,
                        ::core::any::type_name_of_val(&#name::<#(#instance),*>),
                    )
                }
            }
        }
    };
    let items = quote! {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        #vis const #params: &[&str] = &[#(#param_names),*];
        #[doc(hidden)]
        #[inline(always)]
        #check
        #hidden
    };
    if names::has_no_carrier(name) {
        return items;
    }
    quote! {
        #[doc(hidden)]
        #[allow(non_camel_case_types, dead_code)]
        #vis struct #name {}
        #[doc(hidden)]
        impl #name {
            #items
        }
    }
}

/// Makes every lifetime but `'static` elided, so `Fn(&[T]) -> T` holds for
/// every lifetime the function accepts.
struct ElideLifetimes;

impl VisitMut for ElideLifetimes {
    fn visit_type_reference_mut(&mut self, r: &mut syn::TypeReference) {
        if r.lifetime.as_ref().is_some_and(|lt| lt.ident != "static") {
            r.lifetime = None;
        }
        syn::visit_mut::visit_type_reference_mut(self, r);
    }
    fn visit_lifetime_mut(&mut self, lt: &mut syn::Lifetime) {
        if lt.ident != "static" {
            lt.ident = syn::Ident::new("_", lt.ident.span());
        }
    }
}

/// A lifetime named `stem` (with `_` appended as often as needed) that none
/// of the function's own generics declares: a `for<'check>` bound naming a
/// lifetime of the user's would shadow it (E0496).
/// A type parameter named `stem` (with `_`s added) that none of the
/// function's own generics is.
fn unused_type_param(generics: &syn::Generics, stem: &str) -> syn::Ident {
    let mut name = stem.to_string();
    while generics.type_params().any(|t| t.ident == name) {
        name.push('_');
    }
    syn::Ident::new(&name, proc_macro2::Span::mixed_site())
}

fn unused_lifetime(generics: &syn::Generics, stem: &str) -> syn::Lifetime {
    let mut name = stem.to_string();
    while generics.lifetimes().any(|l| l.lifetime.ident == name) {
        name.push('_');
    }
    syn::Lifetime::new(&format!("'{name}"), proc_macro2::Span::mixed_site())
}

/// `NAME_vjp`, `NAME_grad` and `NAME_check`, all built on the hidden
/// all-arguments VJP, however that was made.
///
/// `jvp`: `NAME_jacobian` may sweep forward; `lanes`: through the hidden
/// K-lane JVP (see `tangent::lanes`).
fn public_items(
    item: &syn::ItemFn,
    sig: &Signature,
    shape: &Shape,
    jvp: bool,
    lanes: bool,
) -> TokenStream {
    // The wrappers' arguments and locals are hygienic: the user's names
    // neither meet them nor hide the functions they call.
    let mixed = proc_macro2::Span::mixed_site();
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let (value, pullback, seed) = (
        local.local("value"),
        local.local("pullback"),
        local.local("seed"),
    );
    let vis = &item.vis;
    let name = &item.sig.ident;
    let vjp_full = forward::hidden_path(&name.clone().into(), names::VJP_FULL);
    let seed_ty = sig.ret.seed();
    let inputs = hygienic_inputs(&shape.inputs);
    let many = many_arguments(inputs.len());
    let captures = &shape.captures;
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let one = shape.scalar.one();
    let arg_names: Vec<_> = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    let public_tys: Vec<TokenStream> = sig.params.iter().filter_map(|p| p.adjoint_ty()).collect();
    let slots = adjoint_slots(sig, &local);
    let adjoints: Vec<_> = slots.iter().filter(|n| n.to_string() != "_").collect();
    // A fallible function (`Result<f64, E>`) wraps both in its `Result`.
    let (try_, ok, wrap) = match &sig.ret {
        Ret::Result { err, .. } => (
            quote!(?),
            quote!(::core::result::Result::Ok),
            Some(err.clone()),
        ),
        _ => (TokenStream::new(), TokenStream::new(), None),
    };
    let wrapped = |t: TokenStream| match &wrap {
        Some(err) => quote!(::core::result::Result<#t, #err>),
        None => t,
    };
    let vjp = names::public(name, "vjp");
    let vjp_ty = wrapped(quote_spanned! {mixed=>
        (#seed_ty, impl ::core::ops::FnOnce(#seed_ty) -> (#(#public_tys,)*) + use<#(#captures),*>)
    });
    let doc_vjp = format!(
        " The value of [`{name}`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.\n\n Generated by `#[differentiable]`; the value is bit for bit what `{name}` returns."
    );
    // A seed of several floats has the result's length: a `Vec` or vector
    // of another length is reported, never read past or half used.
    let outputs = local.local("outputs");
    let (count_outputs, check_seed) = match &sig.ret {
        Ret::Outputs(_) => (
            Some(
                quote_spanned!(mixed=> let #outputs = ::autograd::__private::Outputs::count(&#value);),
            ),
            Some(quote_spanned!(mixed=> ::autograd::__private::check_seed(#outputs, &#seed);)),
        ),
        _ => (None, None),
    };
    // The hidden VJP names the primal (see `vjp_fn`); its pullback gives
    // constants a placeholder, which this one leaves out.
    let thin = thin::applies(sig);
    let vjp_body = if thin && check_seed.is_none() {
        thin::vjp(sig, &vjp_full, &arg_names, shape.reach)
    } else {
        let pulled = shape.adjoints_of(quote_spanned!(mixed=> #pullback(#seed)));
        quote_spanned! {mixed=>
            let (#value, #pullback) = #vjp_full(#(#arg_names),*)#try_;
            #count_outputs
            #ok((#value, move |#seed: #seed_ty| {
                #check_seed
                let (#(#slots,)*) = #pulled;
                (#(#adjoints,)*)
            }))
        }
    };
    let mut out = quote_spanned! {mixed=>
        #[doc = #doc_vjp]
        #[inline]
        #many
        #vis fn #vjp #generics (#(#inputs),*) -> #vjp_ty #where_clause {
            #vjp_body
        }
    };
    if matches!(sig.ret, Ret::Matrix(_)) {
        return out;
    }
    // A function generic over its scalar has no `NAME_jacobian`, whose
    // matrix is of `f64`: `NAME_vjp` alone.
    if matches!(sig.ret, Ret::Outputs(_)) && sig.scalar.is_some() {
        return out;
    }
    if let Ret::Outputs(ret_ty) = &sig.ret {
        let jacobian = names::public(name, "jacobian");
        let jacobian_acc = names::public(name, "jacobian_acc");
        let matrix = local.local("jacobian");
        let jac = names::extra_parameter("jac", sig.params.iter().map(|p| &p.ident));
        // `f64` whatever the function's float, as `NAME_jacobian`'s matrix.
        let entry = quote!(f64);
        // One body for both: into the caller's matrix (`Target::Add`), or
        // into a fresh one of the Jacobian's shape (`Target::Fresh`).
        let body = |jac: TokenStream, target: TokenStream| {
            // The adjoints as pairs `(a, (b, ()))`, any number of them.
            let entries = adjoints
                .iter()
                .rev()
                .fold(quote!(()), |rest, a| quote_spanned!(mixed=> (#a, #rest)));
            let pulled = shape.adjoints_of(
                quote_spanned!(mixed=> ::core::clone::Clone::clone(&#pullback)(#seed)),
            );
            let reverse = quote_spanned! {mixed=>
                let (#value, #pullback) = #vjp_full(#(#arg_names),*);
                ::autograd::__private::jacobian_acc(&#value, #jac, #target, |#seed| {
                    let (#(#slots,)*) = #pulled;
                    #entries
                });
                #value
            };
            match jvp
                .then(|| {
                    jacobian::forward_columns(item, sig, shape, &local, (&jac, &target), lanes)
                })
                .flatten()
            {
                Some(forward) => (
                    true,
                    quote_spanned! {mixed=>
                        match #forward {
                            ::core::option::Option::Some(#value) => #value,
                            ::core::option::Option::None => { #reverse }
                        }
                    },
                ),
                None => (false, quote_spanned!(mixed=> { #reverse })),
            }
        };
        let (forward, fresh) = body(
            quote_spanned!(mixed=> &mut #matrix),
            quote_spanned!(mixed=> ::autograd::__private::Target::Fresh),
        );
        let (_, add) = body(
            jac.to_token_stream(),
            quote_spanned!(mixed=> ::autograd::__private::Target::Add),
        );
        let cost = if forward && lanes {
            "with fewer differentiable entries than outputs, forward sweeps carrying `autograd::lanes::LANES` directions each (vector mode: ⌈entries / LANES⌉ sweeps); else one forward sweep, then one reverse sweep per output"
        } else if forward {
            "with fewer differentiable entries than outputs, one forward sweep (`_jvp`) per entry; else one forward sweep, then one reverse sweep per output"
        } else {
            "one forward sweep, then one reverse sweep per output"
        };
        let doc = format!(
            " The value of [`{name}`] and its Jacobian: one row per output (in order), one column per entry of the flattened differentiable arguments (in argument order; a scalar is one entry, a slice, array or `Vec` its elements, a matrix its entries in column-major order).\n\n Generated by `#[differentiable]`: {cost}. `{name}_jacobian_acc` adds the same matrix into a caller's."
        );
        let doc_acc = format!(
            " The value of [`{name}`], its Jacobian added into `jac` (`jac += J`; rows and columns as `{name}_jacobian`'s, which is this into zeros): nothing is allocated for the Jacobian, so a loop assembling blocks reuses its matrix. With slice, array and float arguments, an array or tuple result and no `#[checkpoint]`, a call allocates nothing at all; a `Vec` or `DVector` result allocates itself and one seed per reverse sweep.\n\n Generated by `#[differentiable]`: {cost}.\n\n # Panics\n\n If `jac` is not outputs × flattened inputs (nothing is added then)."
        );
        let many_acc = many_arguments(inputs.len() + 1);
        out.extend(quote_spanned! {mixed=>
            #[doc = #doc]
            #[inline]
            #many
            #vis fn #jacobian #generics (#(#inputs),*)
                -> (#ret_ty, ::autograd::nalgebra::DMatrix<f64>)
            {
                let mut #matrix = ::autograd::nalgebra::DMatrix::<f64>::zeros(0, 0);
                let #value = #fresh;
                (#value, #matrix)
            }

            #[doc = #doc_acc]
            #[inline]
            #[track_caller]
            #many_acc
            #vis fn #jacobian_acc #generics (#(#inputs,)* #jac: &mut ::autograd::nalgebra::DMatrix<#entry>)
                -> #ret_ty
            {
                #add
            }
        });
        let coloring = names::extra_parameter("coloring", sig.params.iter().map(|p| &p.ident));
        if let Some([pattern_body, sparse_body, into_body]) = jvp
            .then(|| jacobian::sparse_bodies(item, sig, shape, &local, (&coloring, &jac), lanes))
            .flatten()
        {
            let pattern = names::public(name, "jacobian_pattern");
            let sparse = names::public(name, "jacobian_sparse");
            let sparse_into = names::public(name, "jacobian_sparse_into");
            let per_input = match lanes {
                true => {
                    "forward sweeps carrying `autograd::lanes::LANES` flattened inputs each (vector mode), one lane per input"
                }
                false => "one forward sweep per flattened input",
            };
            let doc_pattern = format!(
                " The sparsity pattern of [`{name}`]'s Jacobian at this point and its column colouring, for [`{sparse}`].\n\n Generated by `#[differentiable(jvp)]`: {per_input}, with NaN along it (an output depends on it if its tangent comes out NaN, so an entry that happens to be 0 here is kept). The pattern is local: it holds at every point where `{name}` takes the branches it takes here."
            );
            let sweeps = match lanes {
                true => "forward sweeps carrying `autograd::lanes::LANES` colours each (vector mode: ⌈colours / LANES⌉ sweeps), each colour",
                false => "one forward sweep (`{name}_jvp`) per colour,",
            }
            .replace("{name}", &name.to_string());
            let doc_sparse = format!(
                " The value of [`{name}`] and its Jacobian as a sparse matrix of the pattern `coloring` holds ([`{pattern}`]); rows and columns as `{name}_jacobian`'s.\n\n Generated by `#[differentiable(jvp)]`: {sweeps} along the sum of the colour's unit directions. Each stored entry equals `{name}_jacobian`'s.\n\n # Panics\n\n If `coloring` is not of this function's inputs and outputs."
            );
            let doc_into = format!(
                " The value of [`{name}`], its Jacobian written into `jac`, a matrix of the pattern `coloring` holds (from `coloring.zeros()` or an earlier [`{sparse}`]): its values are overwritten, nothing is allocated for the matrix, so an iteration reuses it.\n\n # Panics\n\n If `coloring` is not of this function's inputs and outputs, or `jac` has another pattern."
            );
            out.extend(quote_spanned! {mixed=>
                #[doc = #doc_pattern]
                #many
                #vis fn #pattern #generics (#(#inputs),*) -> ::autograd::sparse::Coloring {
                    #pattern_body
                }

                #[doc = #doc_sparse]
                #many
                #vis fn #sparse #generics (#(#inputs,)* #coloring: &::autograd::sparse::Coloring)
                    -> (#ret_ty, ::autograd::nalgebra_sparse::CscMatrix<f64>)
                {
                    #sparse_body
                }

                #[doc = #doc_into]
                #many
                #vis fn #sparse_into #generics (
                    #(#inputs,)*
                    #coloring: &::autograd::sparse::Coloring,
                    #jac: &mut ::autograd::nalgebra_sparse::CscMatrix<f64>,
                ) -> #ret_ty
                {
                    #into_body
                }
            });
        }
        return out;
    }
    let grad = names::public(name, "grad");
    let grad_ty = wrapped(quote!((#seed_ty, #(#public_tys),*)));
    let held = sig.params.iter().any(|p| p.adjoint_off_stack());
    let grad_body = if shape.direct_acc && held && matches!(sig.ret, Ret::Float(_)) {
        // `__grad_acc_full` into zeros, a large array's on the heap, moved
        // into the result once: the pullback's result would be one more
        // array on the stack, and a debug build copies it again to put the
        // value in front.
        let AccAdjoints {
            zeros,
            buffers,
            adjoints,
            ..
        } = acc_adjoints(sig, &shape.scalar, &arg_names);
        let acc_full = forward::hidden_path(&name.clone().into(), names::GRAD_ACC_FULL);
        let adjoints = adjoints
            .iter()
            .zip(&sig.params)
            .filter(|(_, p)| p.differentiable)
            .map(|(a, _)| a);
        let value_only = shape.reach.then(|| quote!(.0));
        quote_spanned! {mixed=>
            #(#zeros)*
            let #value = #acc_full(#(#arg_names,)* #(#buffers,)* #one)#value_only;
            (#value, #(#adjoints),*)
        }
    } else if thin {
        thin::grad(sig, &vjp_full, &arg_names)
    } else {
        let pulled = shape.adjoints_of(quote_spanned!(mixed=> #pullback(#one)));
        quote_spanned! {mixed=>
            let (#value, #pullback) = #vjp_full(#(#arg_names),*)#try_;
            let (#(#slots,)*) = #pulled;
            #ok((#value, #(#adjoints),*))
        }
    };
    let doc_grad = format!(
        " The value of [`{name}`] followed by its gradient: one adjoint per differentiable argument, in argument order.\n\n Generated by `#[differentiable]`: `{vjp}` with seed 1."
    );
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_grad]
        #[inline]
        #many
        #vis fn #grad #generics (#(#inputs),*) -> #grad_ty #where_clause {
            #grad_body
        }
    });
    out.extend(grad_acc(item, sig, shape));
    if !matches!(sig.ret, Ret::Float(_)) {
        return out;
    }
    let check = names::public(name, "check");
    let doc_check = format!(
        " Compares [`{grad}`] at this point with central finite differences of [`{name}`], component by component.\n\n Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy."
    );
    // The arguments are still needed after `_grad`: owned matrices go in as clones.
    let mut kept = kept_args(sig, &arg_names);
    // So does a `#[constant]` argument of the user's own type taken by
    // value: cloned too, under a `Clone` bound that only a call of
    // `_check` is held to (the `for<'check>` keeps rustc from checking it
    // where the item is defined), so a type that is not `Clone` still gets
    // every other item.
    let mut cloned_tys = Vec::new();
    for (i, (p, input)) in sig.params.iter().zip(&shape.inputs).enumerate() {
        if matches!(p.kind, ParamKind::Other) && !matches!(*input.ty, syn::Type::Reference(_)) {
            let x = &arg_names[i];
            kept[i] = quote!(::core::clone::Clone::clone(&#x));
            cloned_tys.push(&*input.ty);
        }
    }
    let where_clause = if cloned_tys.is_empty() {
        where_clause
    } else {
        let check_lifetime = unused_lifetime(&item.sig.generics, "check");
        let clone = cloned_tys
            .iter()
            .map(|ty| quote_spanned!(mixed=> for<#check_lifetime> #ty: ::core::clone::Clone));
        if where_clause.is_empty() {
            quote!(where #(#clone),*)
        } else {
            quote!(#where_clause, #(#clone),*)
        }
    };
    let check_local = local.local("check");
    let checks = sig.params.iter().filter(|p| p.differentiable).map(|p| {
        let x = names::hygienic(&p.ident);
        let label = p.ident.to_string();
        let dx = local.adjoint(&p.ident);
        let fixed = matches!(&p.kind, ParamKind::Array { owned, .. } if matches!(**owned, syn::Type::Array(_)));
        let method = match p.kind {
            ParamKind::Slice(_) => quote!(slice),
            ParamKind::Matrix { fixed: true, .. } => quote!(fixed),
            ParamKind::Array { .. } if fixed => quote!(array),
            ParamKind::Array { .. } => quote!(slice),
            ParamKind::Matrix { vector: true, .. } => quote!(vector),
            ParamKind::Matrix { .. } => quote!(matrix),
            _ => quote!(scalar),
        };
        let (at, adjoint) = match p.kind {
            ParamKind::Float(_) => (quote!(#x), quote!(#dx)),
            ParamKind::Matrix { by_ref: false, .. } | ParamKind::Array { by_ref: false, .. } => {
                (quote!(&#x), quote!(&#dx))
            }
            _ => (quote!(#x), quote!(&#dx)),
        };
        // The check hands the perturbed copy by reference; owned matrices
        // go in as clones.
        let mut call_args = kept.clone();
        if let Some(i) = arg_names.iter().position(|a| *a == x) {
            if let ParamKind::Matrix { by_ref: false, .. } = p.kind {
                call_args[i] = quote!(::core::clone::Clone::clone(#x));
            } else if let ParamKind::Array { by_ref: false, .. } = p.kind {
                // The check hands a reference to its perturbed copy.
                call_args[i] = quote!(::core::clone::Clone::clone(#x));
            } else if mentions_static(&shape.inputs[i].ty) {
                // Only a leaked copy lives long enough for the function.
                let leak = match p.kind {
                    ParamKind::Slice(_) => quote!(leak::<::autograd::__private::Vec<_>>),
                    _ => quote!(leak),
                };
                call_args[i] = quote!(::autograd::__private::#leak(#x));
            }
        }
        quote_spanned! {mixed=>
            #check_local.#method(#label, #at, #adjoint, |#x| #name(#(#call_args),*));
        }
    });
    // `#[inline]`: compiled where it is called, like the other wrappers,
    // not in every crate that defines an annotated function.
    out.extend(quote_spanned! {mixed=>
        #[doc = #doc_check]
        #[inline]
        #many
        #vis fn #check #generics (#(#inputs),*) -> ::autograd::GradientCheck #where_clause {
            let (#value, #(#adjoints),*) = #grad(#(#kept),*);
            let mut #check_local = ::autograd::GradientCheck::new(::autograd::__private::to_f64(#value));
            #(#checks)*
            #check_local
        }
    });
    out
}

/// Whether a type borrows for `'static`.
fn mentions_static(ty: &syn::Type) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_lifetime(&mut self, lt: &'ast syn::Lifetime) {
            self.0 |= lt.ident == "static";
        }
    }
    let mut finder = Finder(false);
    syn::visit::Visit::visit_type(&mut finder, ty);
    finder.0
}

/// The arguments `names` as the user's own function takes them, for
/// calling it while keeping them: owned matrices are cloned.
fn kept_args(sig: &Signature, names: &[syn::Ident]) -> Vec<TokenStream> {
    sig.params
        .iter()
        .zip(names)
        .map(|(p, x)| match p.kind {
            ParamKind::Matrix { by_ref: false, .. } | ParamKind::Array { by_ref: false, .. } => {
                quote!(::core::clone::Clone::clone(&#x))
            }
            _ => quote!(#x),
        })
        .collect()
}

/// `#[allow(clippy::too_many_arguments)]` for a generated item of `count`
/// arguments above clippy's default limit of seven; nothing below it.
fn many_arguments(count: usize) -> Option<TokenStream> {
    (count > 7).then(|| quote!(#[allow(clippy::too_many_arguments)]))
}

/// The name of each parameter as written, `_` for a pattern.
fn written_names(item: &syn::ItemFn) -> Vec<String> {
    item.sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            syn::FnArg::Typed(pt) => Some(match &*pt.pat {
                syn::Pat::Ident(pi) => pi.ident.to_string().trim_start_matches("r#").to_owned(),
                _ => "_".to_owned(),
            }),
            syn::FnArg::Receiver(_) => None,
        })
        .collect()
}

/// The compile-time checks that `residual` takes the solution, then the
/// solver's arguments in the solver's order: the hook passes them by
/// position. The parameter names are compared in a constant (an item, so
/// its error names no generated function), a leading `_` ignored on either
/// side; the types by coercing the residual to the function pointer type
/// the hook calls it as (a statement of the VJP, where the solver's
/// lifetimes are in scope). Both errors point at the solver's parameter
/// list.
fn residual_matches(
    item: &syn::ItemFn,
    sig: &Signature,
    residual: &syn::Path,
) -> (TokenStream, TokenStream) {
    let span = item.sig.paren_token.span.join();
    let solver = &item.sig.ident;
    let seed_ty = sig.ret.seed();
    let arguments = written_names(item);
    let tys: Vec<&syn::Type> = item
        .sig
        .inputs
        .iter()
        .filter_map(|arg| match arg {
            syn::FnArg::Typed(pt) => Some(&*pt.ty),
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let solution = ["x", "root", "solution"]
        .into_iter()
        .find(|n| !arguments.iter().any(|a| a == n))
        .unwrap_or("solution_");
    let residual_text = residual.to_token_stream().to_string().replace(' ', "");
    let residual_name = residual
        .segments
        .last()
        .map_or(residual_text.clone(), |s| s.ident.to_string());
    let seed_text = seed_ty.to_string();
    let written: Vec<String> = arguments
        .iter()
        .zip(&tys)
        .map(|(n, t)| format!("{n}: {}", crate::ctxt::type_text(t)))
        .collect();
    let message = format!(
        "the residual `{residual_text}` must take the solution, then the arguments of `{solver}` \
         under the same names (a leading `_` aside) and in the same order: \
         `#[differentiable(implicit = {residual_text})]` calls `{residual_text}({solution}, {})`; \
         write `fn {residual_name}({solution}: {seed_text}{}{}) -> {seed_text}`",
        arguments.join(", "),
        if written.is_empty() { "" } else { ", " },
        written.join(", "),
    );
    let params = forward::hidden_path(residual, names::PARAMS);
    let same_names = quote_spanned! {span=>
        const _: () = if !::autograd::__private::same_names(#params, &[#(#arguments),*]) {
            ::core::panic!("{}", #message)
        };
    };
    let same_types = quote_spanned! {span=>
        let _: fn(#seed_ty, #(#tys),*) -> _ = #residual;
    };
    (same_names, same_types)
}

/// `NAME_grad_acc(args.., d_args..)`: the gradient added into one buffer
/// per differentiable argument, the value returned.
fn grad_acc(item: &syn::ItemFn, sig: &Signature, shape: &Shape) -> TokenStream {
    let mixed = proc_macro2::Span::mixed_site();
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let (value, pullback) = (local.local("value"), local.local("pullback"));
    let vis = &item.vis;
    let name = &item.sig.ident;
    let vjp_full = forward::hidden_path(&name.clone().into(), names::VJP_FULL);
    let inputs = hygienic_inputs(&shape.inputs);
    let generics = generics(item, shape);
    let where_clause = where_clause(item, shape);
    let one = shape.scalar.one();
    let arg_names: Vec<_> = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    let slots = adjoint_slots(sig, &local);
    let buffers = acc_buffer_names(sig);
    let buffer_tys = sig.params.iter().filter_map(|p| p.buffer_ty());
    let many_acc = many_arguments(inputs.len() + buffers.len());
    let accumulate = sig
        .params
        .iter()
        .filter(|p| p.differentiable)
        .zip(&buffers)
        .map(|(p, buffer)| {
            let kind = match p.kind {
                ParamKind::Float(_) => crate::ir::Kind::Float,
                ParamKind::Slice(_) => crate::ir::Kind::Slice,
                _ => crate::ir::Kind::Matrix,
            };
            let adjoint = local.adjoint(&p.ident);
            shape
                .scalar
                .accumulate(kind, quote!(#buffer), quote!(#adjoint), mixed)
        })
        .collect::<Vec<_>>();
    let (ret_ty, try_, ok) = match &sig.ret {
        Ret::Result { ok, err } => (
            quote!(::core::result::Result<#ok, #err>),
            quote!(?),
            quote!(::core::result::Result::Ok),
        ),
        ret => (ret.seed(), TokenStream::new(), TokenStream::new()),
    };
    // In-out arguments: `NAME_grad` on them (reborrowed), then the adding.
    let through_grad = sig.has_inout().then(|| {
        let grad = names::public(name, "grad");
        let passed = sig
            .params
            .iter()
            .zip(&arg_names)
            .map(|(p, x)| match p.inout {
                true => quote!(&mut *#x),
                false => quote!(#x),
            });
        let adjoints = slots.iter().filter(|s| s.to_string() != "_");
        quote_spanned! {mixed=>
            let (#value, #(#adjoints),*) = #grad(#(#passed),*);
            #(#accumulate)*
            #value
        }
    });
    let direct = through_grad.or_else(|| {
        shape.direct_acc.then(|| {
            let acc_full = forward::hidden_path(&name.clone().into(), names::GRAD_ACC_FULL);
            let value_only = shape.reach.then(|| quote!(.0));
            quote_spanned!(mixed=> #acc_full(#(#arg_names,)* #(#buffers,)* #one)#value_only)
        })
    });
    let thin = direct.or_else(|| {
        thin::applies(sig)
            .then(|| thin::grad_acc(sig, &shape.scalar, &vjp_full, &arg_names, &buffers))
            .flatten()
    });
    let body = thin.unwrap_or_else(|| {
        let pulled = shape.adjoints_of(quote_spanned!(mixed=> #pullback(#one)));
        quote_spanned! {mixed=>
            let (#value, #pullback) = #vjp_full(#(#arg_names),*)#try_;
            let (#(#slots,)*) = #pulled;
            #(#accumulate)*
            #ok(#value)
        }
    });
    let grad_acc = names::public(name, "grad_acc");
    let doc = format!(
        " The value of [`{name}`], its gradient added into one buffer per differentiable argument (`d_x += ∂{name}/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.\n\n Generated by `#[differentiable]`.\n\n # Panics\n\n If a slice buffer's length or a matrix buffer's shape is not its argument's."
    );
    quote_spanned! {mixed=>
        #[doc = #doc]
        #[inline]
        #many_acc
        #vis fn #grad_acc #generics (#(#inputs,)* #(#buffers: #buffer_tys),*) -> #ret_ty #where_clause {
            #body
        }
    }
}

/// `#[differentiable(implicit = residual)]`: the body runs as written (a
/// solver); the adjoint comes from the implicit function theorem. With
/// r(x, θ) = 0 at the solution x, x̄ = seed gives θ̄ = seed·q with the
/// quotient q = −(∂r/∂θ)/(∂r/∂x), and one pullback of the residual at seed
/// 1 gives every partial. Each quotient is one division, checked: where
/// ∂r/∂x is zero or not finite, or a quotient is not finite while its
/// partial is, a `Result` solver returns `SolveError::SingularDerivative`
/// and a plain one gives NaN adjoints.
pub fn implicit(item: &syn::ItemFn, sig: &Signature, residual: &syn::Path) -> TokenStream {
    // The wrapper's arguments and locals are hygienic: the user's names
    // neither meet them nor hide the function or the residual it calls.
    let mixed = proc_macro2::Span::mixed_site();
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let (solution, pullback) = (local.local("x"), local.local("pullback"));
    let (d_solution, singular, seed) = (
        local.local("dx"),
        local.local("singular"),
        local.local("seed"),
    );
    let vis = &item.vis;
    let name = &item.sig.ident;
    let shape = shape(item, sig);
    let vjp_full = names::hidden(name, names::VJP_FULL);
    let residual_vjp = forward::vjp_path(residual);
    let seed_ty = sig.ret.seed();
    let generics = generics(item, &shape);
    let Shape {
        inputs,
        captures: lifetimes,
        full_tys,
        ..
    } = &shape;
    let inputs = hygienic_inputs(inputs);
    let arg_names: Vec<_> = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    let args = kept_args(sig, &arg_names);
    let partials: Vec<_> = (0..sig.params.len())
        .map(|i| local.local(&format!("dr{i}")))
        .collect();
    let private = quote_spanned!(mixed=> ::autograd::__private);
    let (same_names, same_types) = residual_matches(item, sig, residual);
    let pullback_ty = quote_spanned! {mixed=>
        (#seed_ty, impl ::core::ops::FnOnce(#seed_ty) -> (#(#full_tys,)*) + use<#(#lifetimes),*>)
    };
    let (ret_ty, solve, check, ok) = match &sig.ret {
        Ret::Result { err, .. } => (
            quote_spanned!(mixed=> ::core::result::Result<#pullback_ty, #err>),
            quote_spanned!(mixed=> #name(#(#args),*)?),
            quote_spanned! {mixed=>
                if let ::core::result::Result::Err(e) =
                    #private::derivative_exists(#singular, #private::to_f64(#d_solution))
                {
                    return ::core::result::Result::Err(::core::convert::From::from(e));
                }
            },
            quote_spanned!(mixed=> ::core::result::Result::Ok),
        ),
        _ => (
            pullback_ty,
            quote_spanned!(mixed=> #name(#(#args),*)),
            quote_spanned! {mixed=>
                #(let #partials = #private::not_a_number_if(#partials, #singular);)*
            },
            TokenStream::new(),
        ),
    };
    let hidden = quote_spanned! {mixed=>
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, clippy::all)]
        #vis fn #vjp_full #generics (#(#inputs),*) -> #ret_ty {
            #same_types
            let #solution = #solve;
            let (_, #pullback) = #residual_vjp(#solution, #(#arg_names),*);
            let (#d_solution, #(#partials,)*) = #private::adjoints(#pullback(1.0));
            // dx/dθ = −(∂r/∂θ)/(∂r/∂x) as one quotient, never through
            // 1/(∂r/∂x); one that overflows (∂r/∂x subnormal against
            // ∂r/∂θ) is no derivative.
            let mut #singular = #private::singular_derivative(#d_solution);
            #(let #partials = #private::implicit_quotient(#partials, #d_solution, &mut #singular);)*
            #check
            #ok((#solution, move |#seed: #seed_ty| {
                (#(#private::scale(#partials, #seed),)*)
            }))
        }
    };
    let mut out = same_names;
    out.extend(carrier(item, sig, &shape, hidden));
    out.extend(public_items(item, sig, &shape, false, false));
    out
}

/// `#[differentiable(backward = rule)]`: the body runs as written and the
/// user's rule `rule(grad_output, args.., output) -> (adjoints..)` is the
/// pullback.
pub fn custom(item: &syn::ItemFn, sig: &Signature, rule: &syn::Path) -> TokenStream {
    // The wrapper's arguments and locals are hygienic: the user's names
    // neither meet them nor hide the function or the rule it calls.
    let mixed = proc_macro2::Span::mixed_site();
    let local = names::WrapperLocals::new(sig.params.iter().map(|p| &p.ident));
    let (output, seed) = (local.local("output"), local.local("seed"));
    let vis = &item.vis;
    let name = &item.sig.ident;
    let mut shape = shape(item, sig);
    // A struct call's rule (see `structs`) says which arguments the
    // function's pullback reached, for its caller.
    shape.reach = item.sig.ident == names::STRUCT_CALL;
    let vjp_full = names::hidden(name, names::VJP_FULL);
    let seed_ty = sig.ret.seed();
    let generics = generics(item, &shape);
    let pulled = shape.pulled_ty();
    let Shape {
        inputs,
        captures: lifetimes,
        ..
    } = &shape;
    let inputs = hygienic_inputs(inputs);
    let arg_names: Vec<_> = sig
        .params
        .iter()
        .map(|p| names::hygienic(&p.ident))
        .collect();
    let args = kept_args(sig, &arg_names);
    let adjoints: Vec<_> = sig
        .params
        .iter()
        .filter(|p| p.differentiable)
        .map(|p| local.adjoint(&p.ident))
        .collect();
    let results = sig.params.iter().map(|p| {
        if p.differentiable {
            local.adjoint(&p.ident).into_token_stream()
        } else {
            quote_spanned!(mixed=> ::autograd::__private::NoGradient)
        }
    });
    let value = match &sig.ret {
        Ret::Matrix(_) | Ret::Outputs(_) => {
            quote_spanned!(mixed=> ::core::clone::Clone::clone(&#output))
        }
        _ => output.to_token_stream(),
    };
    // `NAME_jacobian` runs the pullback once per output.
    let reusable = matches!(sig.ret, Ret::Outputs(_)).then(|| quote!(+ ::core::clone::Clone));
    let pullback = match shape.reach {
        true => {
            // The rule's flags are its adjoints'; a constant argument is
            // reached.
            let reached = local.local("reached");
            let mut j = 0;
            let flags = sig.params.iter().map(|p| match p.differentiable {
                true => {
                    let k = proc_macro2::Literal::usize_unsuffixed(j);
                    j += 1;
                    quote_spanned!(mixed=> #reached[#k])
                }
                false => quote!(true),
            });
            let flags: Vec<TokenStream> = flags.collect();
            quote_spanned! {mixed=>
                let ((#(#adjoints,)*), #reached) =
                    ::autograd::__private::reached(#rule(#seed, #(#arg_names,)* #output));
                ::autograd::__private::Reached((#(#results,)*), [#(#flags),*])
            }
        }
        false => quote_spanned! {mixed=>
            let (#(#adjoints,)*) = #rule(#seed, #(#arg_names,)* #output);
            (#(#results,)*)
        },
    };
    let hidden = quote_spanned! {mixed=>
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, clippy::all)]
        #vis fn #vjp_full #generics (#(#inputs),*)
            -> (#seed_ty, impl ::core::ops::FnOnce(#seed_ty) -> #pulled #reusable + use<#(#lifetimes),*>)
        {
            let #output = #name(#(#args),*);
            (#value, move |#seed: #seed_ty| {
                #pullback
            })
        }
    };
    let mut out = carrier(item, sig, &shape, hidden);
    out.extend(public_items(item, sig, &shape, false, false));
    out
}

/// Stand-ins with the right signatures, emitted next to compile errors so
/// the user sees those errors and not a cascade of missing items.
pub fn stubs(item: &syn::ItemFn, sig: &Signature) -> TokenStream {
    let vis = &item.vis;
    let name = &item.sig.ident;
    let seed_ty = sig.ret.seed();
    let inputs: Vec<_> = item
        .sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            syn::FnArg::Typed(pt) => {
                let mut pt = pt.clone();
                pt.attrs.clear();
                pt.pat = Box::new(syn::parse_quote!(_));
                Some(pt)
            }
            syn::FnArg::Receiver(_) => None,
        })
        .collect();
    let public_tys: Vec<TokenStream> = sig.params.iter().filter_map(|p| p.adjoint_ty()).collect();
    let full_tys: Vec<TokenStream> = sig
        .params
        .iter()
        .map(|p| {
            p.adjoint_ty()
                .unwrap_or_else(|| quote!(::autograd::__private::NoGradient))
        })
        .collect();
    let vjp_full = names::hidden(name, names::VJP_FULL);
    let vjp = names::public(name, "vjp");
    let grad = names::public(name, "grad");
    let check = names::public(name, "check");
    // Only lifetime and length parameters get this far (see `sig::parse`).
    let (generics, _, where_clause) = item.sig.generics.split_for_impl();
    let mut out = carrier(
        item,
        sig,
        &shape(item, sig),
        quote! {
            #[doc(hidden)]
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #vjp_full #generics (#(#inputs),*) -> (#seed_ty, fn(#seed_ty) -> (#(#full_tys,)*)) #where_clause {
                ::core::unreachable!()
            }
        },
    );
    out.extend(quote! {
        #[allow(unused_variables, unreachable_code, clippy::all)]
        #vis fn #vjp #generics (#(#inputs),*) -> (#seed_ty, fn(#seed_ty) -> (#(#public_tys,)*)) #where_clause {
            ::core::unreachable!()
        }
    });
    if let Ret::Outputs(ret_ty) = &sig.ret
        && sig.scalar.is_none()
    {
        let jacobian = names::public(name, "jacobian");
        let jacobian_acc = names::public(name, "jacobian_acc");
        // `f64` whatever the function's float, as `NAME_jacobian`'s matrix.
        let entry = quote!(f64);
        out.extend(quote! {
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #jacobian #generics (#(#inputs),*) -> (#ret_ty, ::autograd::nalgebra::DMatrix<f64>) #where_clause {
                ::core::unreachable!()
            }
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #jacobian_acc #generics (#(#inputs,)* _: &mut ::autograd::nalgebra::DMatrix<#entry>) -> #ret_ty #where_clause {
                ::core::unreachable!()
            }
        });
    }
    if let Ret::Float(_) = &sig.ret {
        let grad_acc = names::public(name, "grad_acc");
        let buffer_tys = sig.params.iter().filter_map(|p| p.buffer_ty());
        out.extend(quote! {
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #grad #generics (#(#inputs),*) -> (#seed_ty, #(#public_tys),*) #where_clause {
                ::core::unreachable!()
            }
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #grad_acc #generics (#(#inputs,)* #(_: #buffer_tys),*) -> #seed_ty #where_clause {
                ::core::unreachable!()
            }
            #[allow(unused_variables, unreachable_code, clippy::all)]
            #vis fn #check #generics (#(#inputs),*) -> ::autograd::GradientCheck #where_clause {
                ::core::unreachable!()
            }
        });
    }
    out
}

/// The pattern binding a pullback's tuple: the wrapper's adjoint local of
/// each differentiable argument, `_` for a constant one.
fn adjoint_slots(sig: &Signature, local: &names::WrapperLocals) -> Vec<TokenStream> {
    sig.params
        .iter()
        .map(|p| match p.differentiable {
            true => local.adjoint(&p.ident).into_token_stream(),
            false => quote!(_),
        })
        .collect()
}
