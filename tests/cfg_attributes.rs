//! `#[cfg(..)]` and `#[cfg_attr(..)]` inside a `#[differentiable]` body
//! mean what rustc makes of them, in every generated item (issue 35,
//! "Silently wrong today" 1 and 2; issue 36, item 2): a `match` arm, a bare
//! `return` / `break` / `continue` statement, a `for` / `while` loop and a
//! `#[checkpoint]` under `cfg_attr`, compiled in by `all()` and out by
//! `any()`. Code compiled out may name what exists in no configuration
//! built here, and may call a function without the attribute.
//!
//! Expected values are closed forms, stated next to each function; they are
//! exact in binary (small integers), so the tolerances only absorb the
//! order of summation (`1e-12` absolute and relative).

#![allow(clippy::needless_range_loop)]
// `all()` and `any()` are the predicates that hold and fail in every
// configuration: what these tests are about.
#![allow(clippy::non_minimal_cfg)]
// The programs as the issue reported them (`s = s * x`, a `match` as the
// value of a `let`, loops a live exit leaves in their first iteration).
#![allow(clippy::assign_op_pattern, clippy::let_and_return, clippy::never_loop)]
// A match whose other arms are compiled out (`cfg_attr` adding a dead `cfg`),
// and a `match` statement of one arm and `_`, as a `#[cfg]` statement.
#![allow(clippy::match_single_binding, clippy::single_match)]

use approx::assert_relative_eq;
use autograd::{Tangent, differentiable};

const EPS: f64 = 1e-12;

macro_rules! close {
    ($got:expr, $want:expr) => {
        assert_relative_eq!($got, $want, epsilon = EPS, max_relative = EPS)
    };
}

// ---------------------------------------------------------------------------
// 1. `#[cfg]` on a `match` arm (it was ignored: 300 and 100 at (3, 0)).

/// x² (the arm `x·100` is compiled out): at x = 3, 9 and 6; d² = 2.
#[differentiable(jvp, hessian)]
fn arm_off(x: f64, k: i32) -> f64 {
    match k {
        #[cfg(any())]
        0 => x * 100.0,
        _ => x * x,
    }
}

/// 100·x at k = 0, x² otherwise (the arm is compiled in).
#[differentiable(jvp, hessian)]
fn arm_on(x: f64, k: i32) -> f64 {
    match k {
        #[cfg(all())]
        0 => x * 100.0,
        _ => x * x,
    }
}

/// A compiled-out arm naming a function that exists in no configuration
/// built here, among arms that stay; as a value of a `let`: at k = 0 and
/// k = 1, x³ (3x², 6x); at k = 2, 2x (2, 0).
#[differentiable(jvp, hessian)]
fn arms_mixed(x: f64, k: i32) -> f64 {
    let y = match k {
        #[cfg(any())]
        0 => only_in_another_configuration(x),
        0 | 1 => x * x * x,
        #[cfg(not(any()))]
        2 => 2.0 * x,
        _ => x,
    };
    y
}

/// The last arm compiled out, after a `_`: 4x at k = 1, x² + x otherwise
/// (2x + 1; d² = 2).
#[differentiable(jvp, hessian)]
fn last_arm_off(x: f64, k: i32) -> f64 {
    match k {
        1 => 4.0 * x,
        _ => x * x + x,
        #[cfg(any())]
        #[allow(unreachable_patterns)]
        _ => 0.0,
    }
}

#[test]
fn a_compiled_out_arm_is_not_taken() {
    let (value, dx) = arm_off_grad(3.0, 0);
    assert_eq!(value.to_bits(), arm_off(3.0, 0).to_bits());
    close!(value, 9.0);
    close!(dx, 6.0);
    let (value, tangent) = arm_off_jvp(3.0, 0, 1.0);
    close!(value, 9.0);
    close!(tangent, 6.0);
    let (value, grad, h) = arm_off_hessian(3.0, 0);
    close!(value, 9.0);
    close!(grad[0], 6.0);
    close!(h[(0, 0)], 2.0);
    let (value, g, hv) = arm_off_hvp(3.0, 0, 0.5);
    close!(value, 9.0);
    close!(g, 6.0);
    close!(hv, 1.0);
    let mut acc = 10.0;
    let value = arm_off_grad_acc(3.0, 0, &mut acc);
    close!(value, 9.0);
    close!(acc, 16.0);
    let (value, pullback) = arm_off_vjp(3.0, 0);
    close!(value, 9.0);
    close!(pullback(2.0).0, 12.0);
    assert!(arm_off_check(3.0, 0).is_within(1e-7, 1e-6));
}

#[test]
fn a_compiled_in_arm_is_taken() {
    let (value, dx) = arm_on_grad(3.0, 0);
    close!(value, 300.0);
    close!(dx, 100.0);
    let (value, tangent) = arm_on_jvp(3.0, 0, 1.0);
    close!(value, 300.0);
    close!(tangent, 100.0);
    let (value, grad, h) = arm_on_hessian(3.0, 0);
    close!(value, 300.0);
    close!(grad[0], 100.0);
    close!(h[(0, 0)], 0.0);
    let (value, dx) = arm_on_grad(3.0, 1);
    close!(value, 9.0);
    close!(dx, 6.0);
    let (_, _, h) = arm_on_hessian(3.0, 1);
    close!(h[(0, 0)], 2.0);
}

#[test]
fn compiled_out_arms_among_live_ones() {
    for k in [0, 1] {
        let (value, dx) = arms_mixed_grad(2.0, k);
        close!(value, 8.0);
        close!(dx, 12.0);
        let (_, tangent) = arms_mixed_jvp(2.0, k, 1.0);
        close!(tangent, 12.0);
        let (_, _, h) = arms_mixed_hessian(2.0, k);
        close!(h[(0, 0)], 12.0);
    }
    let (value, dx) = arms_mixed_grad(2.0, 2);
    close!(value, 4.0);
    close!(dx, 2.0);
    let (value, dx) = arms_mixed_grad(2.0, 7);
    close!(value, 2.0);
    close!(dx, 1.0);
    let (value, dx) = last_arm_off_grad(2.0, 0);
    close!(value, 6.0);
    close!(dx, 5.0);
    let (value, dx) = last_arm_off_grad(2.0, 1);
    close!(value, 8.0);
    close!(dx, 4.0);
    let (_, _, h) = last_arm_off_hessian(2.0, 0);
    close!(h[(0, 0)], 2.0);
}

// ---------------------------------------------------------------------------
// 2. A bare `return`, `break` or `continue` statement under `#[cfg]` (it
//    ran: (0, 0) and (2, 1) instead of (16, 32) at x = 2).

/// x⁴ (the `return` is compiled out): 16 and 32 at x = 2; d² = 12x² = 48.
#[differentiable(jvp, hessian)]
fn return_off(x: f64) -> f64 {
    let mut s = 1.0;
    for _ in 0..4 {
        s = s * x;
        #[cfg(any())]
        return 0.0;
    }
    s
}

/// x⁴ (the `break` is compiled out).
#[differentiable(jvp, hessian)]
fn break_off(x: f64) -> f64 {
    let mut s = 1.0;
    for _ in 0..4 {
        s = s * x;
        #[cfg(any())]
        break;
    }
    s
}

/// x⁴ (the `continue` is compiled out).
#[differentiable(jvp, hessian)]
fn continue_off(x: f64) -> f64 {
    let mut s = 1.0;
    for _ in 0..4 {
        #[cfg(any())]
        continue;
        s = s * x;
    }
    s
}

/// x⁴ in a `while` loop, a compiled-out `break` before the step.
#[differentiable(jvp, hessian)]
fn while_break_off(x: f64) -> f64 {
    let mut s = 1.0;
    let mut i = 0;
    while i < 4 {
        #[cfg(any())]
        break;
        s = s * x;
        i += 1;
    }
    s
}

/// A `return` outside loops, compiled out: x³ (12 at x = 2, d² = 6x).
#[differentiable(jvp, hessian)]
fn function_level_return_off(x: f64) -> f64 {
    let y = x * x;
    #[cfg(any())]
    return 0.0;
    y * x
}

/// The live forms exit: `return` after the first step gives x/2
/// (1, 0.5); `break` x (2, 1); `continue` before the step 1 (1, 0).
#[differentiable(jvp, hessian)]
fn return_on(x: f64) -> f64 {
    let mut s = 1.0;
    for _ in 0..4 {
        s = s * x;
        #[cfg(all())]
        return 0.5 * s;
    }
    s
}

#[differentiable(jvp, hessian)]
fn break_on(x: f64) -> f64 {
    let mut s = 1.0;
    for _ in 0..4 {
        s = s * x;
        #[cfg(all())]
        break;
    }
    s
}

#[allow(unreachable_code, unused_mut)]
#[differentiable(jvp, hessian)]
fn continue_on(x: f64) -> f64 {
    let mut s = 1.0;
    for _ in 0..4 {
        #[cfg(all())]
        continue;
        s = s * x;
    }
    s + x * 0.0
}

/// A `return` compiled in at function level, then one compiled out as the
/// last statement (rustc takes the first): x² (4, 4 at x = 2).
#[differentiable(jvp, hessian)]
fn returns_by_configuration(x: f64) -> f64 {
    let y = x * x;
    #[cfg(all())]
    return y;
    #[cfg(any())]
    return y * x;
}

/// A callee whose dead `return` ran inside its `_vjp`: x⁴ + x through
/// the call, 18 and 33 at x = 2; d² = 48.
#[differentiable(jvp, hessian)]
fn callee_with_dead_return(x: f64) -> f64 {
    let mut s = 1.0;
    for _ in 0..4 {
        #[cfg(any())]
        return 100.0 * x;
        s = s * x;
    }
    s
}

#[differentiable(jvp, hessian)]
fn calls_callee(x: f64) -> f64 {
    callee_with_dead_return(x) + x
}

#[test]
fn compiled_out_exits_do_not_run() {
    for (name, grad, jvp, hessian) in [
        (
            "return",
            return_off_grad as fn(f64) -> (f64, f64),
            return_off_jvp as fn(f64, f64) -> (f64, f64),
            return_off_hessian as fn(f64) -> (f64, nalgebra::DVector<f64>, nalgebra::DMatrix<f64>),
        ),
        ("break", break_off_grad, break_off_jvp, break_off_hessian),
        (
            "continue",
            continue_off_grad,
            continue_off_jvp,
            continue_off_hessian,
        ),
        (
            "while break",
            while_break_off_grad,
            while_break_off_jvp,
            while_break_off_hessian,
        ),
    ] {
        let (value, dx) = grad(2.0);
        assert_eq!((value, dx), (16.0, 32.0), "{name}: _grad");
        let (value, tangent) = jvp(2.0, 1.0);
        assert_eq!((value, tangent), (16.0, 32.0), "{name}: _jvp");
        let (value, g, h) = hessian(2.0);
        assert_eq!(
            (value, g[0], h[(0, 0)]),
            (16.0, 32.0, 48.0),
            "{name}: _hessian"
        );
    }
    let (value, pullback) = return_off_vjp(2.0);
    close!(value, 16.0);
    close!(pullback(0.5).0, 16.0);
    let mut acc = 1.0;
    close!(return_off_grad_acc(2.0, &mut acc), 16.0);
    close!(acc, 33.0);

    let (value, dx) = function_level_return_off_grad(2.0);
    close!(value, 8.0);
    close!(dx, 12.0);
    let (_, tangent) = function_level_return_off_jvp(2.0, 1.0);
    close!(tangent, 12.0);
    let (_, _, h) = function_level_return_off_hessian(2.0);
    close!(h[(0, 0)], 12.0);
}

#[test]
fn compiled_in_exits_exit() {
    assert_eq!(return_on_grad(2.0), (1.0, 0.5));
    assert_eq!(return_on_jvp(2.0, 1.0), (1.0, 0.5));
    assert_eq!(return_on_hessian(2.0).2[(0, 0)], 0.0);
    assert_eq!(break_on_grad(2.0), (2.0, 1.0));
    assert_eq!(break_on_jvp(2.0, 1.0), (2.0, 1.0));
    assert_eq!(continue_on_grad(2.0), (1.0, 0.0));
    assert_eq!(continue_on_jvp(2.0, 1.0), (1.0, 0.0));
    assert_eq!(returns_by_configuration_grad(2.0), (4.0, 4.0));
    assert_eq!(returns_by_configuration_jvp(2.0, 1.0), (4.0, 4.0));
    assert_eq!(returns_by_configuration_hessian(2.0).2[(0, 0)], 2.0);
}

#[test]
fn a_callees_compiled_out_return_does_not_run() {
    let (value, dx) = calls_callee_grad(2.0);
    close!(value, 18.0);
    close!(dx, 33.0);
    let (value, pullback) = callee_with_dead_return_vjp(2.0);
    close!(value, 16.0);
    close!(pullback(1.0).0, 32.0);
    let (_, tangent) = calls_callee_jvp(2.0, 1.0);
    close!(tangent, 33.0);
    let (_, _, h) = calls_callee_hessian(2.0);
    close!(h[(0, 0)], 48.0);
}

// ---------------------------------------------------------------------------
// 3. `#[cfg]` on a loop, `#[cfg_attr(.., checkpoint)]`.

/// x (the loop is compiled out): 2 and 1 at x = 2. (`s` is not mutated
/// where the loop is compiled out: rustc says so of the primal.)
#[allow(unused_mut)]
#[differentiable(jvp, hessian)]
fn for_off(x: f64) -> f64 {
    let mut s = x;
    #[cfg(any())]
    for _ in 0..3 {
        s = s * x;
    }
    s
}

/// x⁴ (the loop is compiled in): 16, 32, 48.
#[differentiable(jvp, hessian)]
fn for_on(x: f64) -> f64 {
    let mut s = x;
    #[cfg(all())]
    for _ in 0..3 {
        s = s * x;
    }
    s
}

/// x·x³ = x⁴ by a `while` compiled in, a `while` compiled out.
#[differentiable(jvp, hessian)]
fn whiles(x: f64) -> f64 {
    let mut s = x;
    let mut i = 0;
    #[cfg(all())]
    while i < 3 {
        s = s * x;
        i += 1;
    }
    #[cfg(any())]
    while i < 10 {
        s = s * x;
        i += 1;
    }
    s
}

/// x⁴ under a checkpoint compiled in, and one compiled out: 16, 32.
#[differentiable]
fn checkpoint_on(x: f64) -> f64 {
    let mut s = 1.0;
    #[cfg_attr(all(), checkpoint)]
    for _ in 0..4 {
        s = s * x;
    }
    s
}

#[differentiable(jvp, hessian)]
fn checkpoint_off(x: f64) -> f64 {
    let mut s = 1.0;
    #[cfg_attr(any(), checkpoint(snapshots = 2))]
    for _ in 0..4 {
        s = s * x;
    }
    s
}

#[test]
fn configured_loops() {
    assert_eq!(for_off_grad(2.0), (2.0, 1.0));
    assert_eq!(for_off_jvp(2.0, 1.0), (2.0, 1.0));
    assert_eq!(for_off_hessian(2.0).2[(0, 0)], 0.0);
    assert_eq!(for_on_grad(2.0), (16.0, 32.0));
    assert_eq!(for_on_jvp(2.0, 1.0), (16.0, 32.0));
    assert_eq!(for_on_hessian(2.0).2[(0, 0)], 48.0);
    assert_eq!(whiles_grad(2.0), (16.0, 32.0));
    assert_eq!(whiles_jvp(2.0, 1.0), (16.0, 32.0));
    assert_eq!(whiles_hessian(2.0).2[(0, 0)], 48.0);
    assert_eq!(checkpoint_on_grad(2.0), (16.0, 32.0));
    assert_eq!(checkpoint_off_grad(2.0), (16.0, 32.0));
    assert_eq!(checkpoint_off_hessian(2.0).2[(0, 0)], 48.0);
}

// ---------------------------------------------------------------------------
// 4. A function without the attribute called from compiled-out code.

fn plain_helper(x: f64) -> f64 {
    x * 3.0
}

/// x² (the calls are compiled out): 4 and 4 at x = 2. (`y` is not mutated
/// where the block is compiled out: rustc says so of the primal.)
#[allow(unused_mut)]
#[differentiable(jvp, hessian)]
fn calls_plain_when_off(x: f64) -> f64 {
    let mut y = x * x;
    #[cfg(any())]
    {
        y = plain_helper(y);
    }
    #[cfg(any())]
    let y = plain_helper(y) + y;
    // Names a function no configuration built here has.
    #[cfg(any())]
    let y = only_in_another_configuration(y);
    y
}

#[test]
fn a_plain_call_compiled_out_is_no_error() {
    assert_eq!(plain_helper(1.0), 3.0);
    assert_eq!(calls_plain_when_off_grad(2.0), (4.0, 4.0));
    assert_eq!(calls_plain_when_off_jvp(2.0, 1.0), (4.0, 4.0));
    assert_eq!(calls_plain_when_off_hessian(2.0).2[(0, 0)], 2.0);
}

// ---------------------------------------------------------------------------
// Methods: the same constructs in a `#[differentiable] impl`.

#[derive(Clone, Debug, Tangent)]
pub struct Gain {
    pub a: f64,
}

#[differentiable]
impl Gain {
    /// a·x² (the arm is compiled out): at a = 1.5, x = 3, 13.5, ∂a = 9,
    /// ∂x = 2ax = 9.
    #[differentiable(jvp, hessian)]
    fn arm(&self, x: f64, k: i32) -> f64 {
        match k {
            #[cfg(any())]
            0 => self.a * x * 100.0,
            _ => self.a * x * x,
        }
    }

    /// a·x⁴ (the `return` is compiled out): at a = 1.5, x = 2, 24, ∂a = 16,
    /// ∂x = 4ax³ = 48.
    #[differentiable(jvp, hessian)]
    fn power(&self, x: f64) -> f64 {
        let mut s = self.a;
        for _ in 0..4 {
            s = s * x;
            #[cfg(any())]
            return 0.0;
        }
        s
    }
}

#[test]
fn methods_honour_cfg() {
    let g = Gain { a: 1.5 };
    let (value, dg, dx) = g.arm_grad(3.0, 0);
    assert_eq!(value.to_bits(), g.arm(3.0, 0).to_bits());
    close!(value, 13.5);
    close!(dg.a, 9.0);
    close!(dx, 9.0);
    let (value, tangent) = g.arm_jvp(3.0, 0, &Gain { a: 1.0 }, 1.0);
    close!(value, 13.5);
    close!(tangent, 18.0);
    // Inputs (a, x): [[0, 2x], [2x, 2a]].
    let (value, _, h) = g.arm_hessian(3.0, 0);
    close!(value, 13.5);
    close!(h[(0, 0)], 0.0);
    close!(h[(0, 1)], 6.0);
    close!(h[(1, 1)], 3.0);

    let (value, dg, dx) = g.power_grad(2.0);
    close!(value, 24.0);
    close!(dg.a, 16.0);
    close!(dx, 48.0);
    let (_, tangent) = g.power_jvp(2.0, &Gain { a: 0.0 }, 1.0);
    close!(tangent, 48.0);
    // ∂²/∂x² = 12ax² = 72; ∂²/∂a∂x = 4x³ = 32.
    let (_, _, h) = g.power_hessian(2.0);
    close!(h[(1, 1)], 72.0);
    close!(h[(0, 1)], 32.0);
}

// ---------------------------------------------------------------------------
// Loops that lowering rewrites (iterators, `iter_mut`) under `#[cfg]`.

/// Σ xᵢ² + Σ xᵢ (the `100·xᵢ` loop is compiled out): at (1, 2, 3), 20 and
/// gradient 2xᵢ + 1 = (3, 5, 7).
#[differentiable]
fn iterator_loops(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for v in x.iter() {
        s += v * v;
    }
    #[cfg(any())]
    for v in x.iter() {
        s += 100.0 * v;
    }
    #[cfg(all())]
    for v in x.iter() {
        s += v;
    }
    s
}

/// Σ 2xᵢ (the ×100 update is compiled out): at (1, 2, 3), 12 and (2, 2, 2).
#[differentiable]
fn in_place_updates(x: &[f64]) -> f64 {
    let mut y = x.to_vec();
    #[cfg(any())]
    for v in y.iter_mut() {
        *v *= 100.0;
    }
    #[cfg(all())]
    for v in y.iter_mut() {
        *v *= 2.0;
    }
    let s: f64 = y.iter().sum();
    s
}

#[test]
fn rewritten_loops_honour_cfg() {
    let x = [1.0, 2.0, 3.0];
    let (value, dx) = iterator_loops_grad(&x);
    close!(value, 20.0);
    for (got, want) in dx.iter().zip([3.0, 5.0, 7.0]) {
        close!(*got, want);
    }
    let (value, dx) = in_place_updates_grad(&x);
    close!(value, 12.0);
    for got in dx.iter() {
        close!(*got, 2.0);
    }
}

// ---------------------------------------------------------------------------
// `#[cfg_attr(P, cfg(Q))]`: the code stays where P implies Q, which the
// macro writes as `cfg(any(not(P), Q))` without evaluating either (the
// random programs found it rejected; SPEC takes `cfg_attr` on any statement).

/// `cfg_attr(all(), cfg(any()))` compiles the arm and the `return` out:
/// x² at x = 3 is 9 and 6 (the arm would give 300 and 100, the `return` 0).
#[differentiable(jvp, hessian)]
fn cfg_attr_adding_a_dead_cfg(x: f64, k: i32) -> f64 {
    #[cfg_attr(all(), cfg(any()))]
    return 0.0;
    #[cfg_attr(all(), cfg(any()), allow(unused_variables))]
    let x = x * 1000.0;
    match k {
        #[cfg_attr(all(), cfg(any()))]
        0 => x * 100.0,
        _ => x * x,
    }
}

/// `cfg_attr(any(), cfg(any()))` adds nothing and nested
/// `cfg_attr(all(), cfg_attr(all(), cfg(all())))` keeps the code: the arm
/// `x·100` is taken at k = 0 (100, 0) and `s` is doubled: 2·x·100.
#[differentiable(jvp, hessian)]
fn cfg_attr_keeping_the_code(x: f64, k: i32) -> f64 {
    let mut s = match k {
        #[cfg_attr(any(), cfg(any()))]
        0 => x * 100.0,
        _ => x * x,
    };
    #[cfg_attr(all(), cfg_attr(all(), cfg(all())))]
    {
        s *= 2.0;
    }
    s
}

#[test]
fn cfg_attr_adding_cfg_means_what_rustc_makes_of_it() {
    let (v, d) = cfg_attr_adding_a_dead_cfg_grad(3.0, 0);
    close!(v, 9.0);
    close!(d, 6.0);
    let (v, t) = cfg_attr_adding_a_dead_cfg_jvp(3.0, 0, 1.0);
    close!(v, 9.0);
    close!(t, 6.0);
    let (_, _, h) = cfg_attr_adding_a_dead_cfg_hessian(3.0, 0);
    close!(h[(0, 0)], 2.0);

    let (v, d) = cfg_attr_keeping_the_code_grad(3.0, 0);
    close!(v, 600.0);
    close!(d, 200.0);
    let (v, d) = cfg_attr_keeping_the_code_grad(3.0, 1);
    close!(v, 18.0);
    close!(d, 12.0);
    let (_, _, h) = cfg_attr_keeping_the_code_hessian(3.0, 1);
    close!(h[(0, 0)], 4.0);
}

// ---------------------------------------------------------------------------
// A name bound twice under a compiled-out `#[cfg]` (fuzz-programs finding
// 027): the second binding's other arm passed on the first's value, which
// exists only where the first is compiled in (E0425 on a generated name).
// A binding under `#[cfg(P)]` exists under P only, and so does everything
// generated from it.

/// The finding's program, reduced: two dead `let dead` around a
/// `#[checkpoint]` loop in an `else`. At k = 1, x² (2x; 2); at k = 0, x⁴
/// (4x³; 12x²).
#[differentiable(jvp, hessian)]
fn bound_twice_under_a_dead_cfg(x: f64, k: i32) -> f64 {
    let mut s = x;
    if k > 0 {
        s = s * x;
    } else {
        #[cfg_attr(all(), cfg(not(all())))]
        let dead: f64 = 1000.0;
        #[checkpoint]
        for _ in 0..3 {
            s = s * x;
        }
        #[cfg_attr(all(), cfg(not(all())))]
        let dead: f64 = 1000.0;
    }
    s
}

/// Differentiable values bound twice under dead predicates (two different
/// ones), the second reading the first, and a name that exists everywhere
/// shadowed under one: x³ (3x²; 6x).
#[differentiable(jvp, hessian)]
fn active_bound_twice_under_dead_cfgs(x: f64) -> f64 {
    let y = x * x;
    #[cfg(any())]
    let d = y * 1000.0;
    #[cfg(not(all()))]
    let d = d * x + y;
    #[cfg(any())]
    let y = d;
    y * x
}

/// Compiled in, then compiled out, then compiled in again, all one name:
/// the live ones count. d = x², then d·x: x³ + x (3x² + 1; 6x).
#[differentiable(jvp, hessian)]
fn bound_three_times_live_dead_live(x: f64) -> f64 {
    #[cfg(all())]
    let d = x * x;
    #[cfg(any())]
    let d = d * 1000.0;
    #[cfg(not(any()))]
    let d = d * x;
    d + x
}

#[test]
fn a_name_bound_twice_under_a_dead_cfg_is_bound_nowhere() {
    for (x, k, value, dx, d2) in [(1.5, 1, 2.25, 3.0, 2.0), (1.5, 0, 5.0625, 13.5, 27.0)] {
        let (v, d) = bound_twice_under_a_dead_cfg_grad(x, k);
        close!(v, value);
        close!(d, dx);
        let (v, t) = bound_twice_under_a_dead_cfg_jvp(x, k, 1.0);
        close!(v, value);
        close!(t, dx);
        let (_, g, h) = bound_twice_under_a_dead_cfg_hessian(x, k);
        close!(g[0], dx);
        close!(h[(0, 0)], d2);
    }
    for (grad, jvp, hessian, value, dx, d2) in [
        (
            active_bound_twice_under_dead_cfgs_grad as fn(f64) -> (f64, f64),
            active_bound_twice_under_dead_cfgs_jvp as fn(f64, f64) -> (f64, f64),
            active_bound_twice_under_dead_cfgs_hessian
                as fn(f64) -> (f64, nalgebra::DVector<f64>, nalgebra::DMatrix<f64>),
            8.0,
            12.0,
            12.0,
        ),
        (
            bound_three_times_live_dead_live_grad,
            bound_three_times_live_dead_live_jvp,
            bound_three_times_live_dead_live_hessian,
            10.0,
            13.0,
            12.0,
        ),
    ] {
        let (v, d) = grad(2.0);
        close!(v, value);
        close!(d, dx);
        let (v, t) = jvp(2.0, 1.0);
        close!(v, value);
        close!(t, dx);
        let (_, g, h) = hessian(2.0);
        close!(g[0], dx);
        close!(h[(0, 0)], d2);
    }
    let (v, pullback) = active_bound_twice_under_dead_cfgs_vjp(2.0);
    close!(v, 8.0);
    close!(pullback(0.5).0, 6.0);
}

// ---------------------------------------------------------------------------
// A `match` with three configured arms inside an expression (fuzz-programs
// finding 028): it was rejected as "an `if` used as a value needs an
// `else`", the copy with every configured arm compiled out having no
// value. A `match` with no arm left is rejected by rustc in any
// configuration; the last arm left is compiled in wherever the `match` is.

/// As the finding wrote it: the dead `0` arm falls to `_`. At n = 0 and
/// n = 5, 3x + x (4; 0); at n = 1, x² + x (2x + 1; 2).
#[differentiable(jvp, hessian)]
fn three_configured_arms_in_an_expression(x: f64, n: i32) -> f64 {
    (match n {
        #[cfg_attr(all(), cfg(any()))]
        0 => x * 1000.0,
        #[cfg(all(not(any()), all()))]
        1 | 2 => x * x,
        #[cfg_attr(all(), cfg(all()))]
        _ => 3.0 * x,
    }) + x
}

/// Every arm configured, as a statement and as an operand: s = x² at
/// n = 0, x + x² otherwise, and the result 2·s·x: 2x³ (6x²; 12x) at n = 0,
/// 2x² + 2x³ (4x + 6x²; 4 + 12x) otherwise.
#[differentiable(jvp, hessian)]
fn every_arm_configured(x: f64, n: i32) -> f64 {
    let mut s = x;
    match n {
        #[cfg(all())]
        0 => {
            s *= x;
        }
        #[cfg(any())]
        0 => {
            s *= 1000.0;
        }
        #[cfg(all())]
        _ => {
            s += x * x;
        }
    }
    2.0 * match n {
        #[cfg(any())]
        _ => x * 1000.0,
        #[cfg(not(any()))]
        _ => s * x,
    }
}

/// The same `#[checkpoint]` twice, once under `cfg_attr`: one schedule.
/// x⁴ (4x³; 12x²).
#[differentiable(jvp, hessian)]
fn checkpoint_given_twice_alike(x: f64) -> f64 {
    let mut s = 1.0;
    #[cfg_attr(all(), checkpoint(snapshots = 2))]
    #[checkpoint(snapshots = 2)]
    for _ in 0..4 {
        s = s * x;
    }
    s
}

#[test]
fn configured_arms_inside_expressions() {
    for (n, value, dx, d2) in [(0, 6.0, 4.0, 0.0), (5, 6.0, 4.0, 0.0), (1, 3.75, 4.0, 2.0)] {
        let x = 1.5;
        let (v, d) = three_configured_arms_in_an_expression_grad(x, n);
        close!(v, value);
        close!(d, dx);
        let (v, t) = three_configured_arms_in_an_expression_jvp(x, n, 1.0);
        close!(v, value);
        close!(t, dx);
        let (_, g, h) = three_configured_arms_in_an_expression_hessian(x, n);
        close!(g[0], dx);
        close!(h[(0, 0)], d2);
    }
    let x: f64 = 2.0;
    for (n, value, dx, d2) in [
        (0, 2.0 * x.powi(3), 6.0 * x * x, 12.0 * x),
        (
            1,
            2.0 * x * x + 2.0 * x.powi(3),
            4.0 * x + 6.0 * x * x,
            4.0 + 12.0 * x,
        ),
    ] {
        let (v, d) = every_arm_configured_grad(x, n);
        close!(v, value);
        close!(d, dx);
        let (v, t) = every_arm_configured_jvp(x, n, 1.0);
        close!(v, value);
        close!(t, dx);
        let (_, g, h) = every_arm_configured_hessian(x, n);
        close!(g[0], dx);
        close!(h[(0, 0)], d2);
    }
    let (v, d) = checkpoint_given_twice_alike_grad(x);
    close!(v, 16.0);
    close!(d, 32.0);
    let (_, t) = checkpoint_given_twice_alike_jvp(x, 1.0);
    close!(t, 32.0);
    let (_, _, h) = checkpoint_given_twice_alike_hessian(x);
    close!(h[(0, 0)], 48.0);
}

// ---------------------------------------------------------------------------
// A `let` under a dead `#[cfg]` shadowing a mutable local that a later loop
// assigns (fuzz-programs finding 036): the loop carried nothing, so every
// generated item returned the value before the loop.

/// The finding's program: three halvings of cos(a0) plus a1 each time.
/// Value cos(a0)/8 + a1·(1 + 1/2 + 1/4); ∂/∂a0 = −sin(a0)/8,
/// ∂/∂a1 = 7/4; ∂²/∂a0² = −cos(a0)/8, the other second derivatives 0.
#[differentiable(jvp, hessian)]
fn dead_shadow_before_a_loop(a0: f64, a1: f64) -> f64 {
    let mut a0 = a0.cos();
    #[cfg(any())]
    let a0: f64 = 1000.0;
    let mut c = 0;
    while c < 3 {
        a0 = a0 * 0.5 + a1;
        c += 1;
    }
    a0
}

/// As the random program had it: the dead shadow under a compound
/// predicate, two loops (a `while` and a `for`) assigning the name.
/// x·2⁻² + 1 then ·3: 3x/4 + 3 (3/4; 0).
#[differentiable(jvp, hessian)]
fn dead_shadow_before_two_loops(x: f64) -> f64 {
    let mut a = x;
    #[cfg(all(any(), all()))]
    let a: f64 = 1000.0;
    let mut c = 0;
    while c < 2 {
        a = a * 0.5;
        c += 1;
    }
    for _ in 0..1 {
        a = (a + 1.0) * 3.0;
    }
    a
}

/// The shadow compiled in and itself mutable, the loop assigning it:
/// x² doubled twice, 4x² (8x; 8).
#[differentiable(jvp, hessian)]
fn live_mutable_shadow_before_a_loop(x: f64) -> f64 {
    let a = x;
    #[cfg(all())]
    let mut a: f64 = a * x;
    for _ in 0..2 {
        a = a * 2.0;
    }
    a
}

#[test]
fn a_dead_shadow_keeps_the_loop_carrying_the_live_binding() {
    let (x0, x1) = (0.3_f64, 0.7_f64);
    let value = x0.cos() / 8.0 + x1 * 1.75;
    let (da0, da1) = (-x0.sin() / 8.0, 1.75);
    assert_eq!(dead_shadow_before_a_loop(x0, x1), value);
    let (v, g0, g1) = dead_shadow_before_a_loop_grad(x0, x1);
    close!(v, value);
    close!(g0, da0);
    close!(g1, da1);
    let (v, t) = dead_shadow_before_a_loop_jvp(x0, x1, 1.0, 1.0);
    close!(v, value);
    close!(t, da0 + da1);
    let (v, g, h) = dead_shadow_before_a_loop_hessian(x0, x1);
    close!(v, value);
    close!(g[0], da0);
    close!(g[1], da1);
    close!(h[(0, 0)], -x0.cos() / 8.0);
    close!(h[(0, 1)], 0.0);
    close!(h[(1, 1)], 0.0);

    let x = 1.25;
    let (v, d) = dead_shadow_before_two_loops_grad(x);
    close!(v, 0.75 * x + 3.0);
    close!(d, 0.75);
    let (_, t) = dead_shadow_before_two_loops_jvp(x, 1.0);
    close!(t, 0.75);
    let (_, g, h) = dead_shadow_before_two_loops_hessian(x);
    close!(g[0], 0.75);
    close!(h[(0, 0)], 0.0);

    let (v, d) = live_mutable_shadow_before_a_loop_grad(x);
    close!(v, 4.0 * x * x);
    close!(d, 8.0 * x);
    let (_, t) = live_mutable_shadow_before_a_loop_jvp(x, 1.0);
    close!(t, 8.0 * x);
    let (_, g, h) = live_mutable_shadow_before_a_loop_hessian(x);
    close!(g[0], 8.0 * x);
    close!(h[(0, 0)], 8.0);
}

// ---------------------------------------------------------------------------
// `#[cfg]` on a `match` or `if let` statement: the statement was made into
// branches before its attribute was read, and ran where it is compiled out
// (`cfg_match_statement_off` gave 12 and 7 at (3, 0) where the function
// gives 3 and 1).

/// x (the `match` is compiled out): 1, d² = 0.
#[differentiable(jvp, hessian)]
#[allow(unused_mut, unused_variables)]
fn cfg_match_statement_off(x: f64, k: i32) -> f64 {
    let mut s = x;
    #[cfg(any())]
    match k {
        0 => {
            s += x * x;
        }
        _ => {}
    }
    s
}

/// x + x² at k = 0 (the `match` is compiled in): 1 + 2x, d² = 2.
#[differentiable(jvp, hessian)]
fn cfg_match_statement_on(x: f64, k: i32) -> f64 {
    let mut s = x;
    #[cfg(all())]
    match k {
        0 => {
            s += x * x;
        }
        _ => {}
    }
    s
}

/// x (the `if let` is compiled out; `o` is `Some(x²)`).
#[differentiable(jvp, hessian)]
#[allow(unused_mut, unused_variables, unused_assignments)]
fn cfg_if_let_statement_off(x: f64, k: i32) -> f64 {
    let mut s = x;
    let mut o: Option<f64> = None;
    if k == 0 {
        o = Some(x * x);
    }
    #[cfg(any())]
    if let Some(v) = o {
        s += v;
    }
    s
}

/// 2x at k = 0, with a `match` leaving the loop compiled out: the loop
/// adds x twice (2, d² = 0).
#[differentiable(jvp, hessian)]
#[allow(unused_mut, unused_variables)]
fn cfg_match_exit_off(x: f64, k: i32) -> f64 {
    let mut s = 0.0;
    for _ in 0..2 {
        #[cfg(any())]
        match k {
            0 => break,
            _ => {}
        }
        s += x;
    }
    s
}

/// With the `match` compiled in, k = 0 leaves before adding: 0; k = 1
/// adds x twice.
#[differentiable(jvp, hessian)]
fn cfg_match_exit_on(x: f64, k: i32) -> f64 {
    let mut s = 0.0;
    for _ in 0..2 {
        #[cfg(all())]
        match k {
            0 => break,
            _ => {}
        }
        s += x;
    }
    s
}

#[test]
fn a_compiled_out_match_statement_is_not_run() {
    let x = 3.0;
    for (f, grad, jvp, hessian, value, dx, d2) in [
        (
            cfg_match_statement_off as fn(f64, i32) -> f64,
            cfg_match_statement_off_grad as fn(f64, i32) -> (f64, f64),
            cfg_match_statement_off_jvp as fn(f64, i32, f64) -> (f64, f64),
            cfg_match_statement_off_hessian
                as fn(
                    f64,
                    i32,
                ) -> (
                    f64,
                    autograd::nalgebra::DVector<f64>,
                    autograd::nalgebra::DMatrix<f64>,
                ),
            x,
            1.0,
            0.0,
        ),
        (
            cfg_match_statement_on,
            cfg_match_statement_on_grad,
            cfg_match_statement_on_jvp,
            cfg_match_statement_on_hessian,
            x + x * x,
            1.0 + 2.0 * x,
            2.0,
        ),
        (
            cfg_if_let_statement_off,
            cfg_if_let_statement_off_grad,
            cfg_if_let_statement_off_jvp,
            cfg_if_let_statement_off_hessian,
            x,
            1.0,
            0.0,
        ),
        (
            cfg_match_exit_off,
            cfg_match_exit_off_grad,
            cfg_match_exit_off_jvp,
            cfg_match_exit_off_hessian,
            2.0 * x,
            2.0,
            0.0,
        ),
    ] {
        close!(f(x, 0), value);
        let (v, g) = grad(x, 0);
        close!(v, value);
        close!(g, dx);
        let (v, t) = jvp(x, 0, 1.0);
        close!(v, value);
        close!(t, dx);
        let (v, g, h) = hessian(x, 0);
        close!(v, value);
        close!(g[0], dx);
        close!(h[(0, 0)], d2);
    }
    // Compiled in, the exit is taken at k = 0 and not at k = 1.
    let (v, g) = cfg_match_exit_on_grad(x, 0);
    close!(v, 0.0);
    close!(g, 0.0);
    let (v, g) = cfg_match_exit_on_grad(x, 1);
    close!(v, 2.0 * x);
    close!(g, 2.0);
    let (v, t) = cfg_match_exit_on_jvp(x, 1, 1.0);
    close!(v, 2.0 * x);
    close!(t, 2.0);
}

// `#[cfg]` on an `iter_mut()` chain's `for_each` statement: the statement
// was made into a loop before its attribute was read, and ran where it is
// compiled out (`cfg_for_each_off` gave 13.5 and 18 at (1.5, 3) where the
// function gives 4.5 and 3).

/// Σ x over n elements (the scaling is compiled out): n·x, derivative n.
#[differentiable(jvp, hessian)]
#[allow(unused_mut, unused_variables)]
fn cfg_for_each_off(x: f64, n: usize) -> f64 {
    let mut y = vec![x; n];
    let z = vec![2.0; n];
    #[cfg(any())]
    y.iter_mut().zip(z.iter()).for_each(|(a, b)| *a *= b * x);
    y.iter().sum::<f64>()
}

/// Each element x·2x (the scaling is compiled in): 2n·x², derivative 4n·x,
/// second derivative 4n.
#[differentiable(jvp, hessian)]
fn cfg_for_each_on(x: f64, n: usize) -> f64 {
    let mut y = vec![x; n];
    let z = vec![2.0; n];
    #[cfg(all())]
    y.iter_mut().zip(z.iter()).for_each(|(a, b)| *a *= b * x);
    y.iter().sum::<f64>()
}

#[test]
fn a_compiled_out_for_each_statement_is_not_run() {
    let (x, n) = (1.5, 3);
    close!(cfg_for_each_off(x, n), 4.5);
    let (v, d) = cfg_for_each_off_grad(x, n);
    close!(v, 4.5);
    close!(d, 3.0);
    let (v, t) = cfg_for_each_off_jvp(x, n, 1.0);
    close!(v, 4.5);
    close!(t, 3.0);
    let (v, g, h) = cfg_for_each_off_hessian(x, n);
    close!(v, 4.5);
    close!(g[0], 3.0);
    close!(h[(0, 0)], 0.0);
    let (v, d) = cfg_for_each_on_grad(x, n);
    close!(v, 6.0 * x * x);
    close!(d, 12.0 * x);
    let (v, g, h) = cfg_for_each_on_hessian(x, n);
    close!(v, 6.0 * x * x);
    close!(g[0], 12.0 * x);
    close!(h[(0, 0)], 12.0);
}
