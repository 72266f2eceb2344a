//! Inputs that once compiled into wrong derivatives or failed to compile
//! (the trust issue), each kept as the smallest program that showed it.
//!
//! Expected values are closed forms or central differences of the primal,
//! with the tolerance stated at the assertion.

use autograd::differentiable;

// ---------------------------------------------------------------------------
// A variable holding a call's result, updated in one arm of a branch inside
// a `while`: the reverse sweep built the adjoint's zero from the value at
// iteration entry, which it had not kept (E0425 on a generated name).

#[differentiable]
fn sine(x: f64) -> f64 {
    x.sin()
}

#[differentiable]
fn call_then_while(c: f64, q: f64) -> f64 {
    let mut y = sine(c);
    let mut t = 0.0;
    while t < 0.6 {
        if q > 1.0 {
        } else {
            y += q;
        }
        t += 0.25;
    }
    y
}

#[test]
fn call_result_updated_in_a_branch_of_a_while() {
    // Three iterations (t = 0, 0.25, 0.5) add q each time when q <= 1.
    let (value, dc, dq) = call_then_while_grad(0.3, 0.5);
    assert_eq!(value, call_then_while(0.3, 0.5));
    assert!((dc - 0.3f64.cos()).abs() < 1e-15);
    assert_eq!(dq, 3.0);
    // q > 1: the branch never adds.
    let (_, dc, dq) = call_then_while_grad(0.3, 1.5);
    assert!((dc - 0.3f64.cos()).abs() < 1e-15);
    assert_eq!(dq, 0.0);
    let fd = fd_support::central(|q| call_then_while(0.3, q), 0.5, 1e-6);
    assert!((fd - 3.0).abs() < 1e-6);
}

// ---------------------------------------------------------------------------
// `#[cfg]` on statements: the sweeps compute what the primal computes in
// every configuration (they ignored the attribute).

#[differentiable]
fn cfg_shadow(x: f64) -> f64 {
    let y = x * 2.0;
    #[cfg(any())]
    let y = y * 100.0;
    y
}

#[differentiable]
fn cfg_both_ways(x: f64) -> f64 {
    #[cfg(debug_assertions)]
    let scale = 2.0 * x;
    #[cfg(not(debug_assertions))]
    let scale = 3.0 * x;
    let mut acc = x;
    #[cfg(not(any()))]
    {
        acc += x * x;
    }
    #[cfg(any())]
    {
        acc *= 10.0;
    }
    acc * scale
}

#[test]
fn cfg_on_statements_is_honoured() {
    let (value, dx) = cfg_shadow_grad(1.5);
    assert_eq!(value, cfg_shadow(1.5));
    assert_eq!((value, dx), (3.0, 2.0));
    // (x + x²)·k·x with k = 2 in debug builds, 3 otherwise: d/dx = k(2x + 3x²).
    let k = if cfg!(debug_assertions) { 2.0 } else { 3.0 };
    let (value, dx) = cfg_both_ways_grad(0.5);
    assert_eq!(value, cfg_both_ways(0.5));
    assert!((dx - k * (2.0 * 0.5 + 3.0 * 0.25)).abs() < 1e-15);
}

// ---------------------------------------------------------------------------
// A float literal assigned to a variable takes the variable's type (it was
// given the signature's float type).

#[allow(unused_assignments)]
#[differentiable]
fn literal_into_f32_local(x: f64) -> f64 {
    let mut t = 0.0_f32;
    t = 0.1;
    x * (t as f64)
}

#[allow(unused_assignments)]
#[differentiable]
fn literal_into_f64_local(x: f32) -> f32 {
    let mut t = 1.0_f64;
    t = 16777217.0;
    x * ((t - 16777216.0) as f32)
}

#[differentiable]
fn literal_in_a_branch(x: f64) -> f64 {
    let mut t = 0.5_f32;
    if x > 0.0 {
        t = 0.1;
    }
    x * (t as f64)
}

#[allow(unused_assignments)]
#[differentiable]
fn literal_after_a_call(x: f64) -> f64 {
    let mut y = sine(x);
    y = 0.25;
    x * y.cos()
}

#[test]
fn literals_take_the_variable_type() {
    let tenth = 0.1_f32 as f64; // 0.10000000149011612
    assert_eq!(literal_into_f32_local_grad(2.0), (2.0 * tenth, tenth));
    // 16777217 is exact in f64: t − 2²⁴ = 1.
    assert_eq!(literal_into_f64_local_grad(3.0), (3.0, 1.0));
    assert_eq!(literal_in_a_branch_grad(2.0), (2.0 * tenth, tenth));
    assert_eq!(literal_in_a_branch_grad(-2.0), (-1.0, 0.5));
    assert_eq!(
        literal_after_a_call_grad(2.0),
        (2.0 * 0.25f64.cos(), 0.25f64.cos())
    );
}

// ---------------------------------------------------------------------------
// Bindings are identified with their hygiene: a `let x` written inside a
// `macro_rules!` is not the caller's `x`.

macro_rules! with_local_x {
    ($name:ident, $x:ident) => {
        #[differentiable]
        pub fn $name($x: f64) -> f64 {
            let x = 2.0;
            $x * x
        }
    };
}
with_local_x!(hygienic, x);

macro_rules! loop_with_local_x {
    ($name:ident, $x:ident) => {
        #[differentiable]
        pub fn $name($x: f64) -> f64 {
            let mut x = 1.0;
            let mut acc = 0.0;
            for _ in 0..3 {
                x *= 2.0;
                acc += $x * x;
            }
            if $x > x { $x } else { acc }
        }
    };
}
loop_with_local_x!(hygienic_loop, x);

#[test]
fn macro_hygiene_is_respected() {
    // h(x) = 2x.
    assert_eq!(hygienic_grad(0.7), (1.4, 2.0));
    // acc = x(2 + 4 + 8) = 14x when x <= 8.
    assert_eq!(hygienic_loop_grad(0.5), (7.0, 14.0));
    assert_eq!(hygienic_loop_grad(9.0), (9.0, 1.0));
}

// ---------------------------------------------------------------------------
// Conditions: `if` expressions inside a condition are values of the sweep;
// a pattern binding inside a condition is rejected rather than confused with
// an outer variable (see ui-tests/tests/ui).

#[differentiable]
fn if_inside_condition(a: f64, b: f64, c: f64) -> f64 {
    if (if a < b { a } else { b }) > c {
        a * b
    } else {
        c * c
    }
}

#[differentiable]
fn if_inside_short_circuit(a: f64, b: f64) -> f64 {
    if a > 0.0 && (if b > 1.0 { b } else { 1.0 }) > 1.5 {
        a * b
    } else {
        a + b
    }
}

#[test]
fn if_expressions_inside_conditions() {
    // min(a, b) = 1 > 0.5: a·b.
    assert_eq!(
        if_inside_condition_grad(1.0, 2.0, 0.5),
        (2.0, 2.0, 1.0, 0.0)
    );
    // min(a, b) = 1 <= 3: c².
    assert_eq!(
        if_inside_condition_grad(1.0, 2.0, 3.0),
        (9.0, 0.0, 0.0, 6.0)
    );
    assert_eq!(if_inside_short_circuit_grad(2.0, 3.0), (6.0, 3.0, 2.0));
    assert_eq!(if_inside_short_circuit_grad(2.0, 1.2), (3.2, 1.0, 1.0));
    assert_eq!(if_inside_short_circuit_grad(-2.0, 3.0), (1.0, 1.0, 1.0));
}

// ---------------------------------------------------------------------------
// Slice reads are cached by the index value, not by its text: `x[v1]` with
// a constant `v1` was taken for `x[i]` when `i` was the IR's value 1.

#[allow(non_upper_case_globals)]
const v1: usize = 1;

#[differentiable]
fn index_by_const(x: &[f64], i: usize) -> f64 {
    x[i] * x[v1]
}

#[test]
fn slice_reads_are_keyed_by_value() {
    let (value, dx) = index_by_const_grad(&[2.0, 3.0, 5.0], 0);
    assert_eq!(value, 6.0);
    assert_eq!(dx, vec![3.0, 2.0, 0.0]);
}

// ---------------------------------------------------------------------------
// A call's value and its derivative come from the same function: a local
// plain `f` shadowing a glob-imported differentiable `f` is detected (the
// generated code compared nothing and differentiated the other `f`).

mod differentiable_f {
    use autograd::differentiable;

    #[differentiable]
    pub fn f(x: f64) -> f64 {
        x * x
    }
}

mod shadowed_by_a_plain_f {
    use super::differentiable_f::*;
    use autograd::differentiable;

    pub fn f(x: f64) -> f64 {
        x.sin()
    }

    #[differentiable]
    pub fn g(x: f64) -> f64 {
        f(x) * 2.0
    }
}

mod glob_imported_f {
    use super::differentiable_f::*;
    use autograd::differentiable;

    #[differentiable]
    pub fn g(x: f64) -> f64 {
        f(x) * 2.0
    }
}

#[test]
#[should_panic(expected = "is not the function whose derivative")]
fn a_plain_function_shadowing_a_differentiable_one_is_detected() {
    let _ = shadowed_by_a_plain_f::g_grad(0.5);
}

#[test]
fn a_glob_imported_differentiable_function_is_differentiated() {
    // g = 2x²: g' = 4x.
    assert_eq!(glob_imported_f::g_grad(0.5), (0.5, 2.0));
}

// The same for a helper with an array result that the caller's reverse
// sweep calls (it borrows a local), whose sweeps add into the caller's
// adjoints themselves.

mod differentiable_h {
    use autograd::differentiable;

    #[differentiable]
    pub fn h(a: &[f64]) -> [f64; 2] {
        [a[0] * a[1], a[1]]
    }
}

mod shadowed_by_a_plain_h {
    use super::differentiable_h::*;
    use autograd::differentiable;

    pub fn h(a: &[f64]) -> [f64; 2] {
        [a[0] + a[1], a[1]]
    }

    #[differentiable]
    pub fn k(x: f64) -> [f64; 2] {
        let a = [x, 2.0 * x];
        let r = h(&a);
        [r[0], r[1] * x]
    }
}

mod glob_imported_h {
    use super::differentiable_h::*;
    use autograd::differentiable;

    #[differentiable]
    pub fn k(x: f64) -> [f64; 2] {
        let a = [x, 2.0 * x];
        let r = h(&a);
        [r[0], r[1] * x]
    }
}

#[test]
#[should_panic(expected = "is not the function whose derivative")]
fn a_plain_helper_shadowing_one_the_reverse_sweep_calls_is_detected() {
    let _ = shadowed_by_a_plain_h::k_jacobian(0.5);
}

#[test]
fn a_helper_the_reverse_sweep_calls_adds_into_the_callers_adjoints() {
    // k = (2x², 2x²): both rows 4x.
    let (value, jac) = glob_imported_h::k_jacobian(0.5);
    assert_eq!(value, [0.5, 0.5]);
    assert_eq!(jac.as_slice(), &[2.0, 2.0]);
}

// ---------------------------------------------------------------------------
// `stop_gradient` is resolved by rustc, not by name: any path to autograd's
// works, a user's `#[differentiable] fn stop_gradient` is differentiated as
// any other function, and a user's plain one is never given autograd's
// derivative (a call of it does not compile: ui-tests/tests/ui/calls).

mod renamed_facade {
    use autograd as ag;
    use autograd::differentiable;

    #[differentiable]
    pub fn f(x: f64) -> f64 {
        ag::stop_gradient(x) * x
    }

    #[differentiable]
    pub fn absolute(x: f64) -> f64 {
        ::autograd::stop_gradient(x) * x
    }

    #[differentiable]
    pub fn on_a_matrix(m: &nalgebra::DMatrix<f64>) -> f64 {
        (ag::stop_gradient(m.clone()).component_mul(m)).sum()
    }

    #[differentiable]
    pub fn in_f32(x: f32) -> f32 {
        ag::stop_gradient(x.sin()) * x
    }
}

mod own_stop_gradient {
    use autograd::differentiable;

    #[differentiable]
    pub fn stop_gradient(x: f64) -> f64 {
        2.0 * x
    }

    /// 3x: the user's `stop_gradient` is 2x, and differentiable.
    #[differentiable]
    pub fn f(x: f64) -> f64 {
        stop_gradient(x) + x
    }

    /// x · 2x with autograd's factor held: 2x², d/dx = 2x.
    #[differentiable]
    pub fn beside_autograds(x: f64) -> f64 {
        autograd::stop_gradient(x) * stop_gradient(x)
    }

    /// By path: 2·sin(x), d/dx = 2cos(x).
    #[differentiable]
    pub fn by_path(x: f64) -> f64 {
        self::stop_gradient(x.sin())
    }
}

mod shadowed_stop_gradient {
    // The glob brings autograd's `stop_gradient` (function and hidden
    // items); the plain function below shadows the function only.
    use autograd::*;

    pub fn stop_gradient(x: f64) -> f64 {
        2.0 * x
    }

    #[differentiable]
    pub fn f(x: f64) -> f64 {
        stop_gradient(x) + x
    }
}

#[test]
fn stop_gradient_through_a_renamed_facade() {
    // x·x with the first factor constant: d/dx = x.
    assert_eq!(renamed_facade::f_grad(3.0), (9.0, 3.0));
    assert_eq!(renamed_facade::absolute_grad(3.0), (9.0, 3.0));
    let m = nalgebra::DMatrix::from_row_slice(1, 2, &[1.5, -2.0]);
    // Σ cᵢ·mᵢ with c = m held: d/dm = m.
    let (value, dm) = renamed_facade::on_a_matrix_grad(&m);
    assert_eq!((value, dm), (6.25, m.clone()));
    // sin(x)·x with sin(x) held: d/dx = sin(x).
    let (_, dx) = renamed_facade::in_f32_grad(0.5);
    assert_eq!(dx, 0.5f32.sin());
}

#[test]
fn a_differentiable_user_function_named_stop_gradient_is_differentiated() {
    assert_eq!(own_stop_gradient::f_grad(1.5), (4.5, 3.0));
    assert_eq!(own_stop_gradient::beside_autograds_grad(1.5), (4.5, 3.0));
    let (value, dx) = own_stop_gradient::by_path_grad(0.7);
    assert_eq!(value, 2.0 * 0.7f64.sin());
    assert!((dx - 2.0 * 0.7f64.cos()).abs() < 1e-15);
}

#[test]
#[should_panic(expected = "is not the function whose derivative")]
fn a_plain_user_function_shadowing_autograds_stop_gradient_is_not_ours() {
    let _ = shadowed_stop_gradient::f_grad(1.5);
}

// ---------------------------------------------------------------------------
// Found by the generator: a matrix a call returns times (or over) a scalar a
// call returns did not compile (both operands of unknown type were passed by
// reference, and nalgebra has no `&DMatrix * &f64`).

mod matrix_call_times_scalar_call {
    use autograd::differentiable;
    use nalgebra::DMatrix;

    #[differentiable]
    pub fn double(m: &DMatrix<f64>) -> DMatrix<f64> {
        m * 2.0
    }

    #[differentiable]
    pub fn sin(x: f64) -> f64 {
        x.sin()
    }

    #[differentiable]
    pub fn product(m: &DMatrix<f64>, a: f64) -> f64 {
        (double(m) * sin(a)).sum()
    }

    #[differentiable]
    pub fn quotient(m: &DMatrix<f64>, a: f64) -> f64 {
        (double(m) / sin(a).exp()).sum()
    }

    #[differentiable]
    pub fn scalar_first(m: &DMatrix<f64>, a: f64) -> f64 {
        (sin(a) * double(m)).sum()
    }
}

#[test]
fn matrix_call_result_times_scalar_call_result() {
    use matrix_call_times_scalar_call::*;
    let m = nalgebra::DMatrix::from_row_slice(2, 2, &[1.0, 3.0, 2.0, 4.0]);
    let a: f64 = 0.5;
    // f = 2·sin(a)·Σm: df/da = 2·cos(a)·Σm, df/dm = 2·sin(a) everywhere.
    for (value, dm, da) in [product_grad(&m, a), scalar_first_grad(&m, a)] {
        assert!((value - 20.0 * a.sin()).abs() < 1e-12);
        assert!((da - 20.0 * a.cos()).abs() < 1e-12);
        assert!(dm.iter().all(|d| (d - 2.0 * a.sin()).abs() < 1e-15));
    }
    // g = 2·Σm / e^{sin a}: dg/da = −cos(a)·g, dg/dm = 2 / e^{sin a}.
    let (value, dm, da) = quotient_grad(&m, a);
    let g = 20.0 / a.sin().exp();
    assert!((value - g).abs() < 1e-12);
    assert!((da + a.cos() * g).abs() < 1e-12);
    assert!(dm.iter().all(|d| (d - 2.0 / a.sin().exp()).abs() < 1e-15));
}

// ---------------------------------------------------------------------------
// Huge constant offsets from a loop index: the macro panicked on an overflow
// (and in release iterated over the range of offsets).

#[differentiable]
fn huge_offsets(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        if i > 2 {
            s += x[i + 1 - 1];
        }
        s += x[i] * x[i + 1 - 1];
    }
    s
}

#[differentiable]
fn far_offsets(x: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += x[i + 9223372036854775807] * x[i - 9223372036854775807];
    }
    s
}

#[test]
fn huge_index_offsets_compile() {
    // Σ x_i² + Σ_{i>2} x_i: d/dx_i = 2x_i + [i > 2].
    let x = [1.0, 2.0, 3.0, 4.0];
    let (value, dx) = huge_offsets_grad(&x);
    assert_eq!(value, 30.0 + 4.0);
    assert_eq!(dx, vec![2.0, 4.0, 6.0, 9.0]);
    // No iteration: no read.
    assert_eq!(far_offsets_grad(&x, 0), (0.0, vec![0.0; 4]));
}

// ---------------------------------------------------------------------------
// A differentiable function imported by name (`use m::sq;`) or renamed
// (`use m::sq as square;`): its derivative comes with it (the call failed
// to find a generated name).

mod squares {
    use autograd::differentiable;

    #[differentiable]
    pub fn sq(x: f64) -> f64 {
        x * x
    }
}

mod imports_by_name {
    use super::squares::sq;
    use super::squares::sq as square;
    use autograd::differentiable;

    #[differentiable]
    pub fn f(x: f64) -> f64 {
        sq(x) + 3.0 * square(x)
    }
}

#[test]
fn functions_imported_by_name_or_renamed() {
    // 4x²: 8x.
    assert_eq!(imports_by_name::f_grad(0.5), (1.0, 4.0));
}

// A function named like a primitive type keeps its hidden items next to it.
mod primitive_names {
    #![allow(non_snake_case)]
    use autograd::differentiable;

    #[differentiable]
    pub fn f64(x: f64) -> f64 {
        x * x
    }

    #[differentiable]
    pub fn u8(x: f64) -> f64 {
        f64(x) * 3.0
    }
}

#[test]
fn functions_named_like_primitive_types() {
    // 3x²: 6x.
    assert_eq!(primitive_names::u8_grad(0.5), (0.75, 3.0));
}

// ---------------------------------------------------------------------------
// Found by the generator (seed 5151, f587): `stop_gradient` of a literal,
// imported, times a value of a call in a checkpointed loop did not compile
// (autograd's `stop_gradient` is generic; where the reverse sweep bound the
// call's result, the literal's type was left to inference).

#[path = "fd_support/mod.rs"]
mod fd_support;

mod stop_gradient_of_a_literal {
    use autograd::prelude::*;
    use autograd::{differentiable, stop_gradient};

    #[differentiable]
    pub fn h(a: f64) -> f64 {
        a.sin()
    }

    #[differentiable]
    pub fn f(a0: f64, a1: f64) -> f64 {
        let mut v0 = 2.5 * a1;
        let mut v1: f64 = 1.0;
        let mut c0 = 0;
        #[checkpoint(snapshots = 2)]
        while c0 < 4 && v1.sigmoid() >= 0.0 {
            v1 *= h(a0).tanh();
            let mut c1 = 0;
            #[checkpoint(snapshots = 2)]
            while c1 < 2 && 1.75 * v0.tanh() <= 1.75 {
                v0 += stop_gradient(-0.125) * (v1.tanh() * v1.tanh());
                let v2 = h(v1.sigmoid());
                v0 = (v0 + (0.5 / v2.sigmoid().exp()).abs()).tanh();
                c1 += 1;
            }
            c0 += 1;
        }
        v0 + v1
    }
}

#[test]
fn stop_gradient_of_a_literal_times_a_call_in_a_checkpointed_loop() {
    use fd_support::{FD64_ABS, FD64_REL, fd64_2};
    for (a0, a1) in [(0.8, -0.3), (-1.2, 0.9), (0.1, 1.7)] {
        let (value, d0, d1) = stop_gradient_of_a_literal::f_grad(a0, a1);
        assert_eq!(value, stop_gradient_of_a_literal::f(a0, a1));
        let (f0, f1) = fd64_2(stop_gradient_of_a_literal::f, a0, a1);
        assert!(
            (d0 - f0).abs() <= FD64_ABS + FD64_REL * f0.abs(),
            "{d0} {f0}"
        );
        assert!(
            (d1 - f1).abs() <= FD64_ABS + FD64_REL * f1.abs(),
            "{d1} {f1}"
        );
    }
}

// ---------------------------------------------------------------------------
// `#[cfg]` inside a loop the macro would otherwise fuse into one pass (a
// top-level running sum over a slice): the fused forward sweep must not
// drop or keep a term against the primal's configuration. Fusion refuses
// such a body (a `#[cfg]` statement is a branch decided at compile time),
// so the loop runs as two passes that carry the attributes.

mod cfg_in_fused_loops {
    #![allow(clippy::needless_range_loop)]
    use autograd::differentiable;

    /// The fusable loop without any `#[cfg]`: Σ xᵢ².
    #[differentiable]
    pub fn plain(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            s += x[i] * x[i];
        }
        s
    }

    /// A term compiled out: Σ xᵢ².
    #[differentiable]
    pub fn term_off(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            s += x[i] * x[i];
            #[cfg(any())]
            {
                s += 100.0 * x[i];
            }
        }
        s
    }

    /// A term compiled in: Σ (xᵢ² + 3xᵢ).
    #[differentiable]
    pub fn term_on(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            s += x[i] * x[i];
            #[cfg(not(any()))]
            {
                s += 3.0 * x[i];
            }
        }
        s
    }

    /// A shadowing `let` under `#[cfg]` inside the body: the one compiled
    /// in gives Σ (2xᵢ)³, the one compiled out would give Σ (100xᵢ)³.
    #[differentiable]
    pub fn let_in_body(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            let t = x[i];
            #[cfg(any())]
            let t = 100.0 * t;
            #[cfg(not(any()))]
            let t = 2.0 * t;
            s += t * t * t;
        }
        s
    }

    /// A term that depends on the build: Σ (xᵢ² + k·sin xᵢ), k = 1 in
    /// debug builds and 0 otherwise.
    #[differentiable]
    pub fn debug_term(x: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            s += x[i] * x[i];
            #[cfg(debug_assertions)]
            {
                s += x[i].sin();
            }
        }
        s
    }

    /// An inactive `let` under `#[cfg]` (a bound read only by an assertion)
    /// beside the sum: Σ xᵢ·c with c a constant argument.
    #[differentiable]
    pub fn inactive_cfg_let(x: &[f64], #[constant] c: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            #[cfg(debug_assertions)]
            let bound = 1e6;
            #[cfg(debug_assertions)]
            assert!(c < bound);
            s += x[i] * c;
        }
        s
    }
}

#[test]
fn cfg_inside_a_fusable_loop_is_honoured() {
    use cfg_in_fused_loops::*;
    use fd_support::{FD64_ABS, FD64_REL};
    type Grad = fn(&[f64]) -> (f64, Vec<f64>);
    type Primal = fn(&[f64]) -> f64;
    /// A name, the function, its `_grad`, the closed form of one term and
    /// of its derivative (given k).
    type Case = (
        &'static str,
        Primal,
        Grad,
        fn(f64) -> f64,
        fn(f64, f64) -> f64,
    );
    let k = if cfg!(debug_assertions) { 1.0 } else { 0.0 };
    let cases: [Case; 5] = [
        ("plain", plain, plain_grad, |x| x * x, |x, _| 2.0 * x),
        (
            "term_off",
            term_off,
            term_off_grad,
            |x| x * x,
            |x, _| 2.0 * x,
        ),
        (
            "term_on",
            term_on,
            term_on_grad,
            |x| x * x + 3.0 * x,
            |x, _| 2.0 * x + 3.0,
        ),
        (
            "let_in_body",
            let_in_body,
            let_in_body_grad,
            |x| 8.0 * x * x * x,
            |x, _| 24.0 * x * x,
        ),
        (
            "debug_term",
            debug_term,
            debug_term_grad,
            |x| x * x,
            |x, k| 2.0 * x + k * x.cos(),
        ),
    ];
    for (name, primal, grad, term, dterm) in cases {
        for x in [vec![], vec![0.7], vec![0.3, -1.2, 2.5, 0.9]] {
            let (value, dx) = grad(&x);
            assert_eq!(value, primal(&x), "{name} value at {x:?}");
            // Closed form of the value (debug_term's sin term aside).
            if name != "debug_term" {
                let want: f64 = x.iter().map(|&v| term(v)).sum();
                assert!((value - want).abs() < 1e-12, "{name}: {value} {want}");
            }
            let fd = fd_support::fd64_slice(primal, &x);
            for (i, (&d, &f)) in dx.iter().zip(&fd).enumerate() {
                assert!(
                    (d - f).abs() <= FD64_ABS + FD64_REL * f.abs(),
                    "{name} d/dx{i} at {x:?}: {d} against central differences {f}"
                );
                let closed = dterm(x[i], k);
                assert!((d - closed).abs() < 1e-12, "{name} d/dx{i}: {d} {closed}");
            }
            assert_eq!(dx.len(), x.len());
        }
    }
    let x = [0.3, -1.2, 2.5];
    let (value, dx) = inactive_cfg_let_grad(&x, 1.5);
    assert_eq!(value, inactive_cfg_let(&x, 1.5));
    assert_eq!(dx, vec![1.5; 3]);
}

// ---------------------------------------------------------------------------
// Finding 004 (fuzz-programs/findings/): in a generic `T: Float` function,
// a float method of a constant of `T` (`T::from(1.5).unwrap().sin()`),
// bound by a `let` or in a tuple, was taken for a value of unknown type (a
// matrix, maybe): the generated code wrote `a0 * &s5` and the matrix rules,
// which `T` does not implement (E0308, E0369, E0277).

mod generic_constant_method {
    use autograd::differentiable;
    use autograd::num_traits::Float;

    /// The finding: sin a · sin 1.5 + 0.5 · sin 1.5.
    #[differentiable]
    pub fn tuple_const<T: Float>(a0: T) -> T {
        let (s4, s5) = (a0.sin(), T::from(1.5).unwrap().sin());
        s4 * s5 + s5 * T::from(0.5).unwrap()
    }

    /// The same without the tuple.
    #[differentiable]
    pub fn let_const<T: Float>(a0: T) -> T {
        let s4 = a0.sin();
        let s5 = T::from(1.5).unwrap().sin();
        s4 * s5 + s5 * T::from(0.5).unwrap()
    }

    /// Other constants of `T` under float methods, and a product of them:
    /// a · e · √2 + a · (0.5)² = a(e√2 + 0.25).
    #[differentiable]
    pub fn chained<T: Float>(a0: T) -> T {
        let e = T::one().exp();
        let r = T::from(2.0).unwrap().sqrt() * e;
        let q = T::from(0.5).unwrap().powi(2);
        a0 * r + q * a0
    }

    /// In `f64` code: 2a · ln 2.
    #[differentiable]
    pub fn in_f64(a0: f64) -> f64 {
        let c = 2.0_f64.ln();
        let (d, e) = (a0 * 2.0, c);
        d * e
    }

    /// Second order (the Hessian twin instantiates `T` at a dual number):
    /// sin a · sin 1.5, whose second derivative is −sin a · sin 1.5.
    #[differentiable(hessian)]
    pub fn with_hessian<T: Float>(a0: T) -> T {
        let (s4, s5) = (a0.sin(), T::from(1.5).unwrap().sin());
        s4 * s5
    }
}

#[test]
fn finding_004_generic_constant_in_a_tuple() {
    use generic_constant_method::*;
    let c = 1.5f64.sin();
    for a in [0.5f64, -1.3, 2.0] {
        // Closed form (the finding): f = sin a · sin 1.5 + 0.5 · sin 1.5,
        // f' = cos a · sin 1.5.
        for (value, d) in [tuple_const_grad(a), let_const_grad(a)] {
            assert_eq!(value, tuple_const(a));
            assert!((value - (a.sin() * c + 0.5 * c)).abs() < 1e-15);
            assert!((d - a.cos() * c).abs() < 1e-15, "{d}");
        }
        let (value, d) = chained_grad(a);
        let k = 1f64.exp() * 2f64.sqrt() + 0.25;
        assert_eq!(value, chained(a));
        assert!((d - k).abs() < 1e-15, "{d} {k}");
        assert_eq!(in_f64_grad(a), (in_f64(a), 2.0 * 2f64.ln()));
        let (value, g, h) = with_hessian_hessian(a);
        assert_eq!(value, with_hessian(a));
        assert!((g[0] - a.cos() * c).abs() < 1e-15);
        assert!((h[(0, 0)] + a.sin() * c).abs() < 1e-15);
    }
    // In f32: the closed form to a few ulps.
    let (value, d) = tuple_const_grad(0.5f32);
    let c32 = 1.5f32.sin();
    assert_eq!(value, tuple_const(0.5f32));
    assert!((d - 0.5f32.cos() * c32).abs() < 1e-6, "{d}");
}
