//! Finding 006 (fuzz generator, struct programs of `build/fields.rs`,
//! CI seed 0xADF022 on the generator's branch, program f252): a field of a
//! `Tangent` struct read inside `vec![..]` does not compile:
//!
//!     error: field access is not supported; pass the value as an argument
//!       --> vec![((s3.tanh()) * (p.a)).tanh().exp() + .., ..]
//!                                ^^^
//!
//! The same expression in an array `[..]` or a tuple compiles. README
//! documents both field reads (`p.a`) and `vec![..]` results of
//! struct-taking functions.
//!
//! Minimised: below. Cause: the struct rewrite (`Flatten` in
//! autograd-macros/src/structs.rs), which turns `p.a` into the flat
//! function's argument, is a syn visitor, and syn does not look into a
//! macro's tokens; the lowering then met `p.a` itself. The same held for
//! `vec![p.a; n]` and for assertions (`assert!(p.a > 0.0)`).
//!
//! Status: fixed as a class: `Flatten` visits the arguments of every macro
//! whose arguments are expressions (`ir::visit_macro_args`, which now also
//! takes `vec![elem; len]`). Test: tests/struct_fields_in_macros.rs (a free
//! function and a method, `vec!` in both forms and assertions, the
//! Jacobian against central differences).

use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct P {
    a: f64,
}

#[differentiable]
fn f(p: &P, x: f64) -> Vec<f64> {
    vec![p.a * x, x]
}
