//! Bugs found by the random program generator (`fuzz-programs`), each as
//! the smallest program that shows it.
//!
//! Each is an ordinary test: the program compiles and its gradient is
//! the closed form. (`fn powi_of_folded_constant` is the one exception: a
//! documented limit of bit-for-bit values, not a macro bug.)
//!
//! Closed forms are compared exactly where the arithmetic is exact, else
//! with the tolerance stated next to the assertion.

use autograd::{self as ag, differentiable, stop_gradient};
use nalgebra::DMatrix;

fn m2x2() -> DMatrix<f64> {
    DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0])
}

// ---------------------------------------------------------------------------
// Fixed: programs that did not compile.

/// Finding 023: a constant computed through a block (a `match` rewritten,
/// its arm's unused `let` reading the body's variables) inside a method of
/// constants, `((match i { _ => { let t = ..; 2.0 } }) + 0.0).sigmoid()`:
/// the constant was written as the user's tokens, whose `let` names
/// variables the generated code does not have (E0425).
#[allow(unused_variables, clippy::match_single_binding, clippy::let_and_return)]
#[differentiable]
fn constant_through_a_block(x: f64, #[constant] k0: f64) -> f64 {
    use autograd::prelude::*;
    let v2 = k0.sin();
    let i0 = 1;
    let v0 = ((match i0 {
        _ => {
            let v7 = (i0 as f64).max(v2);
            2.0
        }
    }) + (0 as f64))
        .sigmoid()
        * x;
    v0
}

#[test]
fn a_constant_through_a_block_is_written_from_its_value() {
    use autograd::prelude::*;
    let (value, dx) = constant_through_a_block_grad(0.5, 0.3);
    assert_eq!(
        value.to_bits(),
        constant_through_a_block(0.5, 0.3).to_bits()
    );
    // d/dx of sigmoid(2)·x.
    assert_eq!(dx, 2.0_f64.sigmoid());
}

/// Finding 024: `stop_gradient` of a literal inside a larger constant
/// (`-ag::stop_gradient(-2.0)`, `ag::stop_gradient(0.5) * 2.0`) assigned
/// to a typed float: the kind of the literal was only looked for at the
/// top of the expression, so the new value was bound without a type, an
/// ambiguous `{float}` at `v3.max(..)` (E0689; found in a checkpointed
/// loop).
#[differentiable]
fn stop_gradient_inside_constants(a1: f64, a0: f64) -> f64 {
    let mut v1 = a0;
    #[checkpoint(snapshots = 2)]
    for _ in 0..4 {
        let mut v3: f64 = 1.0;
        for _ in 0..2 {
            v3 = -ag::stop_gradient(-2.0);
            v1 /= 1.5 + a1.tanh() * a1.tanh();
            v3 = v3.max(v1.tanh());
        }
        v1 += v3.tanh();
    }
    let mut w: f64 = 0.5 * a0;
    let before = w;
    w = ag::stop_gradient(0.5) * 2.0 - 0.25;
    v1 + w.sin() + before
}

#[test]
fn stop_gradient_inside_a_constant_takes_its_type_where_it_is_used() {
    let (a1, a0) = (0.3, 0.7);
    let (value, d_a1, d_a0) = stop_gradient_inside_constants_grad(a1, a0);
    assert_eq!(
        value.to_bits(),
        stop_gradient_inside_constants(a1, a0).to_bits()
    );
    // Closed form: v3 = max(2, tanh(v1)) = 2, so with c = 1.5 + tanh²(a1)
    // v1 = a0/c⁸ + tanh 2·(c⁻⁶ + c⁻⁴ + c⁻² + 1), plus sin 0.75 + a0/2.
    let t = a1.tanh();
    let c: f64 = 1.5 + t * t;
    let dc_da1 = 2.0 * t * (1.0 - t * t);
    let dv_dc = -8.0 * a0 * c.powi(-9)
        + 2.0_f64.tanh() * (-6.0 * c.powi(-7) - 4.0 * c.powi(-5) - 2.0 * c.powi(-3));
    // Tolerance: a few ulps of terms of order one.
    assert!((d_a1 - dv_dc * dc_da1).abs() < 1e-14, "{d_a1}");
    assert!((d_a0 - (c.powi(-8) + 0.5)).abs() < 1e-15, "{d_a0}");
}

/// Finding 022: `stop_gradient` of a literal by an alias path
/// (`ag::stop_gradient(3.0)`), assigned to a variable that held a call's
/// result or nested in `autograd::stop_gradient(..)`: the generated code
/// bound it without a type, an ambiguous `{float}` (E0689 at `v0.exp2()`,
/// E0282 in the sum).
#[differentiable]
fn sg_source(a: f64) -> f64 {
    a * 2.0
}

#[differentiable]
fn stop_gradient_literals(a0: f64) -> f64 {
    let mut v0 = sg_source(a0);
    let v1 = v0 * a0;
    v0 = ag::stop_gradient(0.125);
    let mut v2: f64 = 0.5 * a0;
    let v4 = v2;
    v2 = ag::stop_gradient(3.0);
    let v3 = (v1 + ag::stop_gradient(autograd::stop_gradient(0.25))).tanh();
    v0.exp2() + v2.max(a0) + v3 + v4
}

#[test]
fn stop_gradient_of_a_literal_takes_its_type_where_it_is_used() {
    let a0 = 0.7;
    let (value, d0) = stop_gradient_literals_grad(a0);
    assert_eq!(value.to_bits(), stop_gradient_literals(a0).to_bits());
    // Closed form: v1 = 2·a0², v3 = tanh(v1 + 0.25), v2.max(a0) = 3,
    // v4 = a0 / 2: d/da0 = (1 − v3²)·4·a0 + 1/2.
    let v3 = (2.0 * a0 * a0 + 0.25_f64).tanh();
    assert!(
        (d0 - ((1.0 - v3 * v3) * 4.0 * a0 + 0.5)).abs() < 1e-15,
        "{d0}"
    );
}

/// Finding 021: a typed `let` of a call the macro cannot see through (here
/// the imported, generic `stop_gradient` of autograd's own). The generated
/// code bound the call's result without the annotation, so the literal
/// inside stayed an ambiguous `{float}` and `v1.cos()` was E0689.
#[differentiable]
fn typed_let_of_a_generic_call(a0: f64) -> f64 {
    let v1: f64 = stop_gradient(autograd::stop_gradient(2.0));
    let v2: f64 = stop_gradient(a0 * 3.0);
    a0 * v1.cos() + v2 * a0
}

#[test]
fn a_typed_let_of_a_generic_call_keeps_its_type() {
    let a0 = 0.7;
    let (value, d0) = typed_let_of_a_generic_call_grad(a0);
    assert_eq!(value.to_bits(), typed_let_of_a_generic_call(a0).to_bits());
    // Closed form: v1 = 2 and v2 = 3·a0 are constants to the gradient, so
    // d/da0 = cos 2 + v2 = cos 2 + 2.1 (one rounding of each term).
    assert!((d0 - (2f64.cos() + 2.1)).abs() < 1e-15, "{d0}");
}

#[differentiable]
fn twice(a: f64) -> f64 {
    2.0 * a
}

/// A scalar the macro cannot type (a call's result) times a matrix: the
/// generated code wrote `&m * &s`, which nalgebra does not implement.
#[differentiable]
fn scaled_by_call(m: &DMatrix<f64>, a: f64) -> f64 {
    (m * twice(a)).sum()
}

#[test]
fn call_result_times_matrix() {
    // sum(2a·m) = 2a·10: d/dm = 2a (1 at a = 0.5), d/da = 20.
    let (value, dm, da) = scaled_by_call_grad(&m2x2(), 0.5);
    assert_eq!(value, 10.0);
    assert_eq!(dm, DMatrix::repeat(2, 2, 1.0));
    assert_eq!(da, 20.0);
}

/// The same with a `let` of a constant method call, whose type the macro
/// does not know either.
#[differentiable]
fn scaled_by_constant(m: &DMatrix<f64>) -> f64 {
    let c = (2.0_f64).ln();
    (c * m).sum()
}

#[test]
fn constant_method_let_times_matrix() {
    let c = 2.0_f64.ln();
    let (value, dm) = scaled_by_constant_grad(&m2x2());
    // Four products and a sum: a few ulps of 10·ln 2.
    assert!((value - 10.0 * c).abs() < 1e-14, "{value}");
    assert_eq!(dm, DMatrix::repeat(2, 2, c));
}

/// A float literal assigned to a typed variable: the generated code bound
/// the literal without its type, so a method call on the variable failed
/// ("can't call method `cos` on ambiguous numeric type `{float}`").
#[differentiable]
#[allow(unused_assignments)]
fn reset(a: f64) -> f64 {
    let mut v: f64 = 0.0;
    v = 0.5;
    v.cos() * a
}

#[test]
fn literal_assigned_to_typed_variable() {
    let (value, da) = reset_grad(2.0);
    assert_eq!(value, 0.5_f64.cos() * 2.0);
    assert_eq!(da, 0.5_f64.cos());
}

/// A by-value matrix parameter passed by reference to a
/// `#[differentiable]` call: the generated code moved it while it was
/// borrowed (E0505).
#[differentiable]
fn total_of_owned(m: DMatrix<f64>) -> f64 {
    total(&m)
}

#[test]
fn by_value_matrix_parameter_passed_by_reference() {
    let (value, dm) = total_of_owned_grad(m2x2());
    assert_eq!(value, 10.0);
    assert_eq!(dm, DMatrix::repeat(2, 2, 1.0));
}

// ---------------------------------------------------------------------------
// Documented: `powi` may round differently in the primal and in `_grad`.

/// `NAME_grad`'s value can differ from the primal's in the last bit when
/// the program calls `powi`: at opt-level >= 1 LLVM folds `powi` of a
/// constant with `pow` but expands it into repeated products at run time,
/// and the primal and `p_grad` are not folded alike (here the loop is
/// unrolled in the primal only). Rust documents `powi`'s precision as
/// non-deterministic, "even within the same execution", so this is the
/// language's latitude, not something the macro can pin down; the README
/// states the exception. What must hold: one ulp of difference in `powi`,
/// carried through the loop, leaves the two within a few ulps.
/// (The generator gives `powi` with `n` outside {-1, 0, 1, 2} a base that
/// depends on an input: `FnGen::dynamic` in `fuzz-programs/build/gen.rs`.)
#[differentiable]
fn powi_of_folded_constant(a0: f64) -> f64 {
    let mut v0: f64 = 0.5;
    for i0 in (1..=3).rev() {
        if v0.sin() <= 1.75 {
            v0 -= (v0.cos() + a0) * a0;
        }
        v0 *= (i0 as f64).tanh().powi(4);
    }
    v0
}

#[test]
fn grad_value_is_the_primal_to_a_few_ulps_with_powi_of_a_constant() {
    let a0 = 1.6012885230717955;
    let (value, _) = powi_of_folded_constant_grad(a0);
    let primal = powi_of_folded_constant(a0);
    // Three ulps apart on this machine; four ε relative is the bound.
    assert!(
        (value - primal).abs() <= 4.0 * f64::EPSILON * primal.abs(),
        "{value:?} vs {primal:?}"
    );
}

// ---------------------------------------------------------------------------
// Fixed: found by the generator, fixed since; kept so they stay fixed.

/// An `if`/`else` statement ending a loop body was taken for a value ("an
/// `if` used as a value needs an `else` branch").
#[differentiable]
fn trailing_if_else(a: f64) -> f64 {
    let mut s = a;
    for i in 0..3 {
        if i % 2 == 0 {
            s += a;
        } else {
            s *= a;
        }
    }
    s
}

#[test]
fn trailing_if_else_statement_in_a_loop_body() {
    // s = ((a + a)·a) + a = 2a² + a: ds/da = 4a + 1.
    assert_eq!(trailing_if_else_grad(3.0), (21.0, 13.0));
}

/// A by-value matrix parameter of a scalar-valued function did not compile
/// (used after the generated code moved it).
#[differentiable]
fn by_value_used_twice(m: DMatrix<f64>) -> f64 {
    let s = m.sum();
    let mut t = 0.0;
    for _ in 0..2 {
        t += m.sum();
    }
    s * t
}

#[test]
fn by_value_matrix_parameter() {
    // s·t = 2·sum², d/dm_ij = 4·sum = 40.
    let (value, dm) = by_value_used_twice_grad(m2x2());
    assert_eq!(value, 200.0);
    assert_eq!(dm, DMatrix::repeat(2, 2, 40.0));
}

#[differentiable]
fn total(m: &DMatrix<f64>) -> f64 {
    m.sum()
}

#[differentiable]
fn pair(x: &DMatrix<f64>, y: &DMatrix<f64>) -> f64 {
    x.sum() * y.sum()
}

/// A local matrix passed by reference to a `#[differentiable]` call did
/// not compile (moved while borrowed).
#[differentiable]
fn doubled_total(m: &DMatrix<f64>) -> f64 {
    let d = m * 2.0;
    total(&d)
}

/// The same parameter passed twice.
#[differentiable]
fn self_pair(m: &DMatrix<f64>) -> f64 {
    pair(m, m)
}

#[test]
fn matrices_passed_to_calls() {
    let (value, dm) = doubled_total_grad(&m2x2());
    assert_eq!(value, 20.0);
    assert_eq!(dm, DMatrix::repeat(2, 2, 2.0));
    // sum²: d/dm_ij = 2·sum = 20.
    let (value, dm) = self_pair_grad(&m2x2());
    assert_eq!(value, 100.0);
    assert_eq!(dm, DMatrix::repeat(2, 2, 20.0));
}

/// The same without a declared type: the variable's type comes from its
/// first value, which the generated code's fresh binding did not see.
#[differentiable]
#[allow(unused_assignments, clippy::needless_range_loop)]
fn reset_in_loop(k: f64, xs: &[f64]) -> f64 {
    let mut v = xs[0] * 2.0;
    for i in 1..xs.len() {
        v = -2.0;
        if k < 0.5 {
            v = v.max(xs[i].min(i as f64).powi(3));
        }
    }
    v * xs[0]
}

#[test]
fn literal_assigned_to_untyped_variable() {
    // The last iteration leaves v = max(-2, min(x₂, 2)³) = x₂³ for x₂ = 1.5:
    // v·x₀ = x₂³·x₀.
    let xs = [0.5, 3.0, 1.5];
    let (value, dk, dxs) = reset_in_loop_grad(0.0, &xs);
    assert_eq!(value, 1.5_f64.powi(3) * 0.5);
    assert_eq!(dk, 0.0);
    assert_eq!(dxs, vec![1.5_f64.powi(3), 0.0, 3.0 * 1.5 * 1.5 * 0.5]);
}

#[differentiable]
fn halve(a: f32) -> f32 {
    0.5 * a
}

/// The same once the variable held a call's result (a type the macro
/// cannot see): the literal was bound without a type again.
#[differentiable]
#[allow(unused_assignments)]
fn reset_after_call(a: f32) -> f32 {
    let mut v = halve(a);
    v = 0.125;
    v *= a * v.tanh();
    v
}

#[test]
fn literal_assigned_after_a_call_result() {
    // v = 0.125·a·tanh(0.125): dv/da = 0.125·tanh(0.125).
    let k = 0.125 * 0.125_f32.tanh();
    assert_eq!(reset_after_call_grad(2.0), (k * 2.0, k));
}

// Found by the generator (a `jvp` program whose body declares its bindings
// up front): the slice-tangent length check rebound the tangent with a
// `let` that was hoisted, leaving it uninitialised and of unknown type.
#[autograd::differentiable(jvp)]
fn jvp_two_slices_hoisted(a0: f64, a1: f64, xs: &[f64], ys: &[f64]) -> f64 {
    let mut s1: f64 = 0.0;
    for (i, _v) in xs.iter().enumerate() {
        s1 += a0.tanh() * (i as f64 + 0.5);
    }
    let s2: f64 = xs
        .iter()
        .zip(ys.iter())
        .map(|(a, b)| (a * a + 0.5).sqrt() * b)
        .sum();
    let (s4, s5) = (a0.sin() / (s2 * s2 + 1.0), a1.cos());
    s1 + s2 + s4 * s5
}

#[test]
fn jvp_of_a_hoisted_body_with_two_slices_matches_central_differences() {
    let (a0, a1, xs, ys) = (0.3, 0.7, [0.5, -1.0, 2.0], [1.5, 0.25, -0.5]);
    let (da0, da1, dxs, dys) = (0.2, -0.4, [1.0, 0.5, -0.3], [0.1, -0.2, 0.6]);
    let at = |h: f64| {
        let x: Vec<f64> = xs.iter().zip(&dxs).map(|(x, d)| x + h * d).collect();
        let y: Vec<f64> = ys.iter().zip(&dys).map(|(y, d)| y + h * d).collect();
        jvp_two_slices_hoisted(a0 + h * da0, a1 + h * da1, &x, &y)
    };
    let h = 1e-5;
    let fd = (at(h) - at(-h)) / (2.0 * h);
    let (value, tangent) = jvp_two_slices_hoisted_jvp(a0, a1, &xs, &ys, da0, da1, &dxs, &dys);
    assert_eq!(value, jvp_two_slices_hoisted(a0, a1, &xs, &ys));
    // Central differences of a smooth function: error O(h²) ≈ 1e-10.
    assert!(
        (tangent - fd).abs() < 1e-7 * (1.0 + fd.abs()),
        "{tangent} vs {fd}"
    );
}

/// Finding 018: a fused `for` loop (it carries only a sum) whose body also
/// computes a value nobody reads from an argument. The fusion gave `a2` a
/// (zero) contribution after the loop that `a2`'s adjoint, declared with a
/// plain `let` at its one counted use, did not allow: E0384.
#[differentiable]
fn scaled_pair(a: f32, b: f32) -> f32 {
    a * b
}

#[allow(unused_variables, unused_mut, clippy::needless_ifs)]
#[differentiable]
fn fused_loop_with_an_unused_read(a0: f32, a1: f32, a2: f32, #[constant] k0: f32) -> f32 {
    let mut v0: f32 = 0.0;
    for i0 in 0..3 {
        let mut v1 = a2 / k0.sin().exp();
        v0 += a1;
    }
    let v2 = a2.tanh();
    let mut v3: f32 = a0;
    let mut v4: f32 = 0.5;
    let mut v5: f32 = 0.0;
    while v5 < 0.75 {
        if scaled_pair(v4, v2) < 2.5 {}
        v5 += 0.5;
    }
    v5 + v4 + v2 + v0
}

#[test]
fn a_fused_loop_with_an_unused_read_of_an_argument_compiles_and_differentiates() {
    let (a0, a1, a2, k0) = (0.3_f32, -0.7_f32, 0.4_f32, 1.1_f32);
    let (value, d0, d1, d2) = fused_loop_with_an_unused_read_grad(a0, a1, a2, k0);
    assert_eq!(
        value.to_bits(),
        fused_loop_with_an_unused_read(a0, a1, a2, k0).to_bits()
    );
    // Closed form: f = 1 + 0.5 + tanh(a2) + 3·a1.
    assert_eq!(d0, 0.0);
    assert!((d1 - 3.0).abs() < 1e-6, "{d1}");
    let t = a2.tanh();
    assert!((d2 - (1.0 - t * t)).abs() < 1e-6, "{d2}");
}

// ---------------------------------------------------------------------------
// Finding 040 (seed 0x3615): a function with a vector result keeps its
// callees' pullbacks, or makes the call again in each reverse sweep; where
// a branch in a later loop had its bindings declared up front, the reverse
// sweep's pullback was assigned to the kept one's variable, of another
// type (E0277 on valid code).

/// c·Σ xᵢ.
#[allow(clippy::needless_range_loop)]
#[differentiable(jvp, hessian)]
fn sum_scaled(x: &[f64], c: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * c;
    }
    s
}

/// h = a·Σ xᵢ; s = Σ (xᵢ > a ? xᵢ·h : xᵢ²); then forty steps
/// t ↦ sin(0.9 t + 0.1) from t₀ = s, long enough (more than 64 `let`s in
/// the sweeps) for the generated block to declare its locals up front;
/// [t₄₀·a, h].
#[allow(clippy::needless_range_loop)]
#[differentiable(jvp)]
fn call_then_branchy_loop(a: f64, xs: &[f64]) -> [f64; 2] {
    let h = sum_scaled(xs, a);
    let mut s = 0.0;
    for i in 0..xs.len() {
        if xs[i] > a {
            s += xs[i] * h;
        } else {
            s += xs[i] * xs[i];
        }
    }
    let t0 = s;
    let t1 = (t0 * 0.9 + 0.1).sin();
    let t2 = (t1 * 0.9 + 0.1).sin();
    let t3 = (t2 * 0.9 + 0.1).sin();
    let t4 = (t3 * 0.9 + 0.1).sin();
    let t5 = (t4 * 0.9 + 0.1).sin();
    let t6 = (t5 * 0.9 + 0.1).sin();
    let t7 = (t6 * 0.9 + 0.1).sin();
    let t8 = (t7 * 0.9 + 0.1).sin();
    let t9 = (t8 * 0.9 + 0.1).sin();
    let t10 = (t9 * 0.9 + 0.1).sin();
    let t11 = (t10 * 0.9 + 0.1).sin();
    let t12 = (t11 * 0.9 + 0.1).sin();
    let t13 = (t12 * 0.9 + 0.1).sin();
    let t14 = (t13 * 0.9 + 0.1).sin();
    let t15 = (t14 * 0.9 + 0.1).sin();
    let t16 = (t15 * 0.9 + 0.1).sin();
    let t17 = (t16 * 0.9 + 0.1).sin();
    let t18 = (t17 * 0.9 + 0.1).sin();
    let t19 = (t18 * 0.9 + 0.1).sin();
    let t20 = (t19 * 0.9 + 0.1).sin();
    let t21 = (t20 * 0.9 + 0.1).sin();
    let t22 = (t21 * 0.9 + 0.1).sin();
    let t23 = (t22 * 0.9 + 0.1).sin();
    let t24 = (t23 * 0.9 + 0.1).sin();
    let t25 = (t24 * 0.9 + 0.1).sin();
    let t26 = (t25 * 0.9 + 0.1).sin();
    let t27 = (t26 * 0.9 + 0.1).sin();
    let t28 = (t27 * 0.9 + 0.1).sin();
    let t29 = (t28 * 0.9 + 0.1).sin();
    let t30 = (t29 * 0.9 + 0.1).sin();
    let t31 = (t30 * 0.9 + 0.1).sin();
    let t32 = (t31 * 0.9 + 0.1).sin();
    let t33 = (t32 * 0.9 + 0.1).sin();
    let t34 = (t33 * 0.9 + 0.1).sin();
    let t35 = (t34 * 0.9 + 0.1).sin();
    let t36 = (t35 * 0.9 + 0.1).sin();
    let t37 = (t36 * 0.9 + 0.1).sin();
    let t38 = (t37 * 0.9 + 0.1).sin();
    let t39 = (t38 * 0.9 + 0.1).sin();
    let t40 = (t39 * 0.9 + 0.1).sin();
    [t40 * a, h]
}

#[test]
fn a_vector_result_after_a_kept_call_and_a_branchy_loop_compiles_and_differentiates() {
    let (a, xs) = (0.5, [1.0, 0.25, 2.0]);
    let (value, jac) = call_then_branchy_loop_jacobian(a, &xs);
    assert_eq!(value, call_then_branchy_loop(a, &xs));
    // Central differences of the primal (h = 1e-6; the function is
    // quadratic in each input away from the branch, so the error is
    // rounding only: 1e-8 relative).
    let eps = 1e-6;
    let mut inputs = vec![a];
    inputs.extend(xs);
    for j in 0..inputs.len() {
        let at = |d: f64| {
            let mut p = inputs.clone();
            p[j] += d;
            call_then_branchy_loop(p[0], &p[1..])
        };
        let (up, down) = (at(eps), at(-eps));
        for i in 0..2 {
            let fd = (up[i] - down[i]) / (2.0 * eps);
            assert!(
                (jac[(i, j)] - fd).abs() <= 1e-8 * fd.abs().max(1.0),
                "∂y{i}/∂input{j}: {} against {fd}",
                jac[(i, j)]
            );
        }
    }
}
