//! Every identifier the generated code introduces, minted in one place.
//!
//! All start with `__ad_` and carry `Span::mixed_site()` hygiene, so they
//! can never capture or shadow the user's names. After the prefix, a
//! category marker followed by a number or `_` keeps the categories apart:
//! `v3_z` (value 3, the user's `z`), `d3_z` (its adjoint), `d_x` (adjoint of
//! the argument `x`), `c1_s` / `dc1_s` (variable `s` carried by loop 1 and
//! its adjoint), `dw1_x_1` (loop 1's pending adjoint of `x[i + 1]`), `u1__x` (fused loop 1's
//! adjoint of `x` per unit adjoint of its accumulator),
//! `t3_z` / `t_x` / `tc1_s` (tangents, forward mode), `stack1`, `cache1`, `trips1`, `ck1` (loop 1's checkpoints), `ck1_from`
//! (a local of its reverse sweep), `pb3` (pullback of call 3), `rec3` (call
//! 3 recorded with its pullback), `map3` (the compiled closure of the `map`
//! defining value 3), `seed`, `x` / `g` (an element and its adjoint), `a`
//! (an array being written), `b_x` (the caller's buffer for the adjoint of
//! the argument `x`, `NAME_grad_acc`), `result`.

use proc_macro2::{Ident, Span};
use quote::format_ident;

use crate::ir::{Function, LoopId, ValueId};

fn ident(name: String) -> Ident {
    Ident::new(&name, Span::mixed_site())
}

fn hint(name: &Option<String>) -> String {
    match name {
        Some(n) => format!("_{}", n.trim_start_matches("r#")),
        None => String::new(),
    }
}

/// The local holding a value; an argument keeps the user's identifier.
pub fn value(f: &Function, v: ValueId) -> Ident {
    let info = f.info(v);
    match &info.param {
        Some(p) => p.clone(),
        None => ident(format!("__ad_v{}{}", v.index(), hint(&info.name))),
    }
}

/// The local holding a value's adjoint.
pub fn adjoint(f: &Function, v: ValueId) -> Ident {
    let info = f.info(v);
    match &info.param {
        Some(p) => ident(format!("__ad_d_{}", p.to_string().trim_start_matches("r#"))),
        None => ident(format!("__ad_d{}{}", v.index(), hint(&info.name))),
    }
}

/// Whether a contribution reached a gated adjoint (see `Analysis::gated`).
pub fn reached(f: &Function, v: ValueId) -> Ident {
    let info = f.info(v);
    match &info.param {
        Some(p) => ident(format!("__ad_r_{}", p.to_string().trim_start_matches("r#"))),
        None => ident(format!("__ad_r{}{}", v.index(), hint(&info.name))),
    }
}

/// Which arguments a call's pullback reached (see `__private::Reached`).
pub fn call_reached(call: ValueId) -> Ident {
    ident(format!("__ad_reached{}", call.index()))
}

/// Whether a contribution reached a loop's carried adjoint.
pub fn carried_reached(loop_id: LoopId, name: &str) -> Ident {
    ident(format!(
        "__ad_rc{loop_id}_{}",
        name.trim_start_matches("r#")
    ))
}

/// The local holding a value's tangent (forward mode, `NAME_jvp`).
pub fn tangent(f: &Function, v: ValueId) -> Ident {
    let info = f.info(v);
    match &info.param {
        Some(p) => ident(format!("__ad_t_{}", p.to_string().trim_start_matches("r#"))),
        None => ident(format!("__ad_t{}{}", v.index(), hint(&info.name))),
    }
}

/// The tangent of the function's result, bound before the result moves.
pub fn tangent_result() -> Ident {
    ident("__ad_tr".into())
}

/// The tangent a loop carries for a variable (forward mode).
pub fn carried_tangent(loop_id: LoopId, name: &str) -> Ident {
    ident(format!(
        "__ad_tc{loop_id}_{}",
        name.trim_start_matches("r#")
    ))
}

/// The mutable local a loop carries a variable in.
pub fn carried(loop_id: LoopId, name: &str) -> Ident {
    ident(format!("__ad_c{loop_id}_{}", name.trim_start_matches("r#")))
}

/// The adjoint a reversed loop carries for a variable.
pub fn carried_adjoint(loop_id: LoopId, name: &str) -> Ident {
    ident(format!(
        "__ad_dc{loop_id}_{}",
        name.trim_start_matches("r#")
    ))
}

/// The adjoint a reversed loop adds up for the element `slice[index]` its
/// body reads at an index fixed through the loop (see
/// `analysis::InvariantRead`).
pub fn invariant_window(loop_id: LoopId, f: &Function, slice: ValueId, index: ValueId) -> Ident {
    let name = value(f, slice).to_string();
    ident(format!(
        "__ad_dw{loop_id}_{}_at{}",
        name.trim_start_matches("r#"),
        index.index()
    ))
}

/// A reversed loop's spare buffer for a carried array its body overwrites
/// whole (see `analysis::LoopSaves::overwritten`).
pub fn spare(loop_id: LoopId, name: &str) -> Ident {
    ident(format!(
        "__ad_spare{loop_id}_{}",
        name.trim_start_matches("r#")
    ))
}

/// The adjoint a reversed loop keeps pending for the slice element at its
/// index plus `offset` (`dw1_x_1` for `x[i + 1]`, `dw1_x_m1` for `x[i - 1]`).
pub fn window(loop_id: LoopId, f: &Function, slice: ValueId, offset: i64) -> Ident {
    let name = value(f, slice).to_string();
    let offset = if offset < 0 {
        format!("m{}", -offset)
    } else {
        offset.to_string()
    };
    ident(format!(
        "__ad_dw{loop_id}_{}_{offset}",
        name.trim_start_matches("r#")
    ))
}

/// The adjoint a fused loop's forward sweep fills for a value read in its
/// body, per unit adjoint of its accumulator (`u1__x` for the argument `x`,
/// `u1_3_w` for value 3).
pub fn unit(loop_id: LoopId, f: &Function, v: ValueId) -> Ident {
    let adj = adjoint(f, v).to_string();
    let suffix = adj.trim_start_matches("__ad_d");
    ident(format!("__ad_u{loop_id}_{suffix}"))
}

/// The stack of a loop's saved iteration-entry values.
pub fn stack(loop_id: LoopId) -> Ident {
    ident(format!("__ad_stack{loop_id}"))
}

/// The `Vec`s a loop keeps, one per iteration, end to end (see
/// `Gen::kept_rows`).
pub fn rows(loop_id: LoopId) -> Ident {
    ident(format!("__ad_rows{loop_id}"))
}

/// The cache of a loop's expensive results (see `analysis::LoopSaves`).
pub fn cache(loop_id: LoopId) -> Ident {
    ident(format!("__ad_cache{loop_id}"))
}

/// A checkpointed loop's snapshots and schedule.
pub fn checkpoints(loop_id: LoopId) -> Ident {
    ident(format!("__ad_ck{loop_id}"))
}

/// A local of a checkpointed loop's reverse sweep (`ck1_from`).
pub fn checkpoint_local(loop_id: LoopId, what: &str) -> Ident {
    ident(format!("__ad_ck{loop_id}_{what}"))
}

/// The iteration count of a `while` loop.
pub fn trips(loop_id: LoopId) -> Ident {
    ident(format!("__ad_trips{loop_id}"))
}

/// The pullback of the call defining a value.
pub fn pullback(v: ValueId) -> Ident {
    ident(format!("__ad_pb{}", v.index()))
}

/// Whether the callee of the call defining a value added its adjoints
/// into the caller's itself (`__private::AddsInto`).
pub fn added_into(v: ValueId) -> Ident {
    ident(format!("__ad_added{}", v.index()))
}

/// A recursive call's value and boxed pullback, recorded by the forward
/// sweep in the branch that made it.
pub fn recorded_call(v: ValueId) -> Ident {
    ident(format!("__ad_rec{}", v.index()))
}

/// The adjoint of one argument, returned by a call's pullback.
pub fn call_slot(v: ValueId, k: usize) -> Ident {
    ident(format!("__ad_pb{}_d{k}", v.index()))
}

/// The output adjoint the pullback receives.
pub fn seed() -> Ident {
    ident("__ad_seed".into())
}

/// The pullback of a kept call as the reverse sweep takes it: the kept
/// one, else the call's again (`__private::KeptPullback`).
pub fn resolved_pullback(v: ValueId) -> Ident {
    ident(format!("__ad_resolved_pb{}", v.index()))
}

/// The value of a call the reverse sweep makes again for its pullback,
/// read only by the check of its callee.
pub fn callee_value() -> Ident {
    ident("__ad_callee_value".into())
}

/// A call's VJP as a closure, from which `__private::KeepPullback`
/// learns the callee's pullback type before making the call.
pub fn keep_vjp() -> Ident {
    ident("__ad_keep_vjp".into())
}

/// The runtime's rules module as a function body imports it once (see
/// `paths::import_rules`): a rule call is `__ad_rules::mul_grad_lhs(..)`,
/// not the full path, in a third of the tokens.
pub fn rules() -> Ident {
    Ident::new("__ad_rules", proc_macro2::Span::mixed_site())
}

/// Names of primitive types: a function named like one (`fn f64(..)`)
/// cannot have a type of its name (it would shadow the primitive), so its
/// hidden items are free items next to it (`__f64_vjp_full`).
const PRIMITIVES: &[&str] = &[
    "bool", "char", "str", "f32", "f64", "i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16",
    "u32", "u64", "u128", "usize",
];

/// Whether a function's hidden items are free items rather than
/// associated items of a type named like it.
pub fn has_no_carrier(func: &Ident) -> bool {
    PRIMITIVES.iter().any(|p| func == p)
}

/// A hidden item of the function `func` as it is defined: an associated
/// item of the type named like the function (see `emit::carrier`),
/// reached as `f::__vjp_full` and resolved relative to that type, so it
/// carries no hygiene; or, for a function named like a primitive type, a
/// free item named after it (`__f64_vjp_full`).
pub fn hidden(func: &Ident, item: &str) -> Ident {
    if has_no_carrier(func) {
        let item = item.trim_start_matches('_');
        Ident::new(&format!("__{func}_{item}"), func.span())
    } else {
        Ident::new(item, Span::call_site())
    }
}

/// The hidden item that checks a caller's function is the one the hidden
/// VJP differentiates.
pub const SAME_CALLEE: &str = "__same_callee";

/// The compiled closure of the `map` defining a value, as its reverse
/// sweep binds it.
pub fn map_helper(v: ValueId) -> Ident {
    ident(format!("__ad_map{}", v.index()))
}

/// The sum over the elements of a `map` of the adjoint of its closure's
/// `k`-th input (see `Op::Map`), as the reverse sweep gathers it.
pub fn map_input_adjoint(v: ValueId, k: usize) -> Ident {
    ident(format!("__ad_map{}_d{k}", v.index()))
}

/// A `map` closure's adjoints (or partials) at one element.
pub fn map_partials() -> Ident {
    ident("__ad_partials".into())
}

/// The array an element write or a `push` works on, inside the block
/// that makes the new value.
pub fn written_array() -> Ident {
    ident("__ad_a".into())
}

/// An element of a matrix, in the pullback a `map`'s reverse sweep
/// applies element by element.
/// The lane a K-lane sweep applies a scalar tangent rule at.
pub fn lane() -> Ident {
    ident("__ad_lane".into())
}

/// An element of a matrix `map` reads.
pub fn element() -> Ident {
    ident("__ad_x".into())
}

/// The adjoint of that element.
pub fn element_adjoint() -> Ident {
    ident("__ad_g".into())
}

/// The hidden function by which a differentiable body calls a function
/// taking a `Tangent` struct (`g(&p, x)` becomes `g::__struct_call(..)`):
/// each struct passed as the struct (a constant) and its differentiable
/// fields flattened. It lives in a hidden module named like the function,
/// so a call of a function without `#[differentiable]` is the same error
/// at its name as any other such call.
pub use crate::ir::STRUCT_CALL;

/// The backward rule of [`STRUCT_CALL`], next to it.
pub const STRUCT_RULE: &str = "__struct_rule";

/// The tangent rule of [`STRUCT_CALL`] of a function with `jvp`, next to
/// it: the function's `NAME_jvp` at the structs rebuilt from their
/// flattened fields and tangents.
pub const STRUCT_JVP: &str = "__struct_jvp";

/// A hidden item of [`STRUCT_CALL`] (`__struct_call__vjp_full`), next to
/// it in the same carrier: a call `g::__struct_call(..)` finds its VJP as
/// `g::__struct_call__vjp_full`, so every path a caller writes starts with
/// the user's name of the function.
pub fn struct_call_item(item: &str) -> String {
    format!("{STRUCT_CALL}{item}")
}

pub use crate::ir::{INOUT_CALL, INOUT_RESULT};

/// A hidden item of [`INOUT_CALL`] (`__inout_call__vjp_full`).
pub fn inout_call_item(item: &str) -> String {
    format!("{INOUT_CALL}{item}")
}

/// The hidden all-arguments VJP generated next to a function.
pub const VJP_FULL: &str = "__vjp_full";

/// The hidden sweeps of a function with an array or tuple result at a
/// seed, adding into the caller's buffers (see `emit::adds_into_items`).
pub const ADD_INTO: &str = "__add_into";

/// The hidden gradient into the caller's buffers (`NAME_grad_acc`'s
/// body): one forward and one reverse sweep, the slice arguments' adjoints
/// being the buffers themselves.
pub const GRAD_ACC_FULL: &str = "__grad_acc_full";

/// The adjoints, one per argument, that the hidden VJP of a function with
/// `__grad_acc_full` keeps for its pullback (`__private::vjp_by_acc`).
pub fn adjoints() -> Ident {
    ident("__ad_b".into())
}

/// The caller's buffer of an argument's adjoint in the hidden
/// `__grad_acc_full` (`b_x` for the argument `x`).
pub fn buffer(arg: &Ident) -> Ident {
    ident(format!(
        "__ad_b_{}",
        arg.to_string().trim_start_matches("r#")
    ))
}

/// The result of the hidden `__grad_acc_full`, bound before its reverse
/// sweep runs.
pub fn result() -> Ident {
    ident("__ad_result".into())
}

/// The hidden all-arguments JVP generated next to a function with `jvp`:
/// one tangent per argument, `NoGradient` for a constant one.
pub const JVP_FULL: &str = "__jvp_full";

/// The hidden K-lane JVP of `NAME_jacobian`'s forward sweeps.
pub const JVP_LANES: &str = "__jvp_lanes";

/// The hidden list of a function's parameter names, which a solver naming
/// the function as its residual compares with its own.
pub const PARAMS: &str = "__PARAMS";

/// `NAME_grad`, `NAME_vjp`, `NAME_check`.
pub fn public(func: &Ident, suffix: &str) -> Ident {
    format_ident!("{}_{}", func, suffix)
}

/// The locals of a generated wrapper. Its arguments are hygienic too (see
/// [`hygienic`]), so the two must differ by name: the locals start with
/// `__ad_`, lengthened with `_` while an argument's name starts with it.
pub struct WrapperLocals {
    prefix: String,
}

impl WrapperLocals {
    pub fn new<'a>(args: impl IntoIterator<Item = &'a Ident> + Clone) -> WrapperLocals {
        let mut prefix = "__ad_".to_owned();
        while args
            .clone()
            .into_iter()
            .any(|a| a.to_string().trim_start_matches("r#").starts_with(&prefix))
        {
            prefix.push('_');
        }
        WrapperLocals { prefix }
    }

    /// `value`, `pullback`, `seed`, `check`, `output`.
    pub fn local(&self, name: &str) -> Ident {
        ident(format!("{}{name}", self.prefix))
    }

    /// The adjoint of an argument.
    pub fn adjoint(&self, arg: &Ident) -> Ident {
        ident(format!(
            "{}d_{}",
            self.prefix,
            arg.to_string().trim_start_matches("r#")
        ))
    }
}

/// A parameter a generated item adds after the function's own (`jac`,
/// `coloring`): `base`, lengthened by `_` while an argument has that name
/// (hygiene does not keep two bindings of one parameter list apart).
pub fn extra_parameter<'a>(
    base: &str,
    arguments: impl Iterator<Item = &'a Ident> + Clone,
) -> Ident {
    let mut name = String::from(base);
    while arguments.clone().any(|a| a == name.as_str()) {
        name.push('_');
    }
    hygienic(&Ident::new(&name, Span::call_site()))
}

/// An argument's name as a generated wrapper binds it: where the user wrote
/// it, but visible only to generated code, so the user's function and its
/// siblings stay callable by name next to it.
pub fn hygienic(ident: &Ident) -> Ident {
    let mut hygienic = ident.clone();
    hygienic.set_span(ident.span().resolved_at(Span::mixed_site()));
    hygienic
}

/// The most arguments a stand-in of `autograd::checks::not_generated`
/// takes (its `MAX_ARGUMENTS`).
pub const RUNTIME_ARITY: usize = 12;
