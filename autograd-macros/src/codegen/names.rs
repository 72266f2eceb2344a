//! Every identifier the generated code introduces, minted in one place.
//!
//! All start with `__ad_` and carry `Span::mixed_site()` hygiene, so they
//! can never capture or shadow the user's names. After the prefix, a
//! category marker followed by a number or `_` keeps the categories apart:
//! `v3_z` (value 3, the user's `z`), `d3_z` (its adjoint), `d_x` (adjoint of
//! the argument `x`), `c1_s` / `dc1_s` (variable `s` carried by loop 1 and
//! its adjoint), `dw1_x_1` (loop 1's pending adjoint of `x[i + 1]`),
//! `stack1`, `cache1`, `trips1`, `pb3` (pullback of call 3), `rec3` (call 3 recorded
//! with its pullback), `seed`.

use proc_macro2::{Ident, Span};
use quote::format_ident;

use crate::ir::{Function, ValueId};

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
        None => ident(format!("__ad_v{}{}", v.0, hint(&info.name))),
    }
}

/// The local holding a value's adjoint.
pub fn adjoint(f: &Function, v: ValueId) -> Ident {
    let info = f.info(v);
    match &info.param {
        Some(p) => ident(format!("__ad_d_{}", p.to_string().trim_start_matches("r#"))),
        None => ident(format!("__ad_d{}{}", v.0, hint(&info.name))),
    }
}

/// The mutable local a loop carries a variable in.
pub fn carried(loop_id: u32, name: &str) -> Ident {
    ident(format!("__ad_c{loop_id}_{}", name.trim_start_matches("r#")))
}

/// The adjoint a reversed loop carries for a variable.
pub fn carried_adjoint(loop_id: u32, name: &str) -> Ident {
    ident(format!(
        "__ad_dc{loop_id}_{}",
        name.trim_start_matches("r#")
    ))
}

/// The adjoint a reversed loop keeps pending for the slice element at its
/// index plus `offset` (`dw1_x_1` for `x[i + 1]`, `dw1_x_m1` for `x[i - 1]`).
pub fn window(loop_id: u32, f: &Function, slice: ValueId, offset: i64) -> Ident {
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

/// The stack of a loop's saved iteration-entry values.
pub fn stack(loop_id: u32) -> Ident {
    ident(format!("__ad_stack{loop_id}"))
}

/// The cache of a loop's expensive results (see `analysis::LoopSaves`).
pub fn cache(loop_id: u32) -> Ident {
    ident(format!("__ad_cache{loop_id}"))
}

/// The iteration count of a `while` loop.
pub fn trips(loop_id: u32) -> Ident {
    ident(format!("__ad_trips{loop_id}"))
}

/// The pullback of the call defining a value.
pub fn pullback(v: ValueId) -> Ident {
    ident(format!("__ad_pb{}", v.0))
}

/// A recursive call's value and boxed pullback, recorded by the forward
/// sweep in the branch that made it.
pub fn recorded_call(v: ValueId) -> Ident {
    ident(format!("__ad_rec{}", v.0))
}

/// The adjoint of one argument, returned by a call's pullback.
pub fn call_slot(v: ValueId, k: usize) -> Ident {
    ident(format!("__ad_pb{}_d{k}", v.0))
}

/// The output adjoint the pullback receives.
pub fn seed() -> Ident {
    ident("__ad_seed".into())
}

/// The hidden all-arguments VJP generated next to a function.
pub fn vjp_full(func: &Ident) -> Ident {
    format_ident!("__{}_vjp_full", func)
}

/// `NAME_grad`, `NAME_vjp`, `NAME_check`.
pub fn public(func: &Ident, suffix: &str) -> Ident {
    format_ident!("{}_{}", func, suffix)
}
