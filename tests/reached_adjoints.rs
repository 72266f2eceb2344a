//! A value the result does not read on this run adds nothing to the
//! gradient: the reverse sweep runs a value's partials only if a
//! contribution reached its adjoint, so a zero adjoint that never arrived
//! is not multiplied by an infinite slope (0·∞ = NaN). A zero that did
//! arrive still is: on a path the product stays NaN. Finding 029; the
//! convention is in src/guide/conventions.md. Expected values are the
//! closed forms of the branch that runs.
// The programs are written as the random programs write them.
#![allow(clippy::assign_op_pattern, clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;

/// √x read only in the arm not taken (c ≤ 0): the result is x, slope 1,
/// curvature 0, at x = 0 too, where √x's slope is ∞.
#[differentiable(jvp, hessian)]
fn root_in_one_arm(x: f64, c: f64) -> f64 {
    let t = x.sqrt();
    if c > 0.0 { t } else { x }
}

#[test]
fn an_arm_not_taken_adds_nothing() {
    assert_eq!(root_in_one_arm_grad(0.0, -1.0), (0.0, 1.0, 0.0));
    // Taken, √x gives its slope: +∞ at 0.
    assert_eq!(root_in_one_arm_grad(0.0, 1.0).1, f64::INFINITY);
}

#[test]
fn a_zero_seed_that_arrives_still_multiplies() {
    // The seed is 0 and √x is on the path the run has: 0·∞ = NaN.
    let (_, pullback) = root_in_one_arm_vjp(0.0, 1.0);
    assert!(pullback(0.0).0.is_nan());
    // Off the path it adds nothing, whatever the seed.
    let (_, pullback) = root_in_one_arm_vjp(0.0, -1.0);
    assert_eq!(pullback(0.0), (0.0, 0.0));
}

#[test]
fn forward_and_second_order_agree_off_the_path() {
    assert_eq!(root_in_one_arm_jvp(0.0, -1.0, 1.0, 0.0), (0.0, 1.0));
    let (value, g, h) = root_in_one_arm_hessian(0.0, -1.0);
    assert_eq!((value, g[0], g[1]), (0.0, 1.0, 0.0));
    assert!(h.iter().all(|&e| e == 0.0), "{h}");
    let (value, gx, gc, hx, hc) = root_in_one_arm_hvp(0.0, -1.0, 1.0, 0.0);
    assert_eq!((value, gx, gc, hx, hc), (0.0, 1.0, 0.0, 0.0, 0.0));
}

/// On the path a zero partial meets the infinite slope: NaN stays.
#[differentiable]
fn root_times_zero(x: f64) -> f64 {
    let t = x.sqrt();
    t * 0.0
}

#[test]
fn a_zero_partial_on_the_path_stays_nan() {
    assert!(root_times_zero_grad(0.0).1.is_nan());
}

/// The same through a `match`: the arm `0` reads √x, the others x.
#[differentiable]
fn root_in_one_match_arm(x: f64, n: i32) -> f64 {
    let t = x.sqrt();
    match n {
        0 => t,
        _ => x * 3.0,
    }
}

#[test]
fn a_match_arm_not_taken_adds_nothing() {
    assert_eq!(root_in_one_match_arm_grad(0.0, 2).1, 3.0);
    assert_eq!(root_in_one_match_arm_grad(0.0, 0).1, f64::INFINITY);
}

/// √x added into a sum by a loop that runs n times: at n = 0 the result
/// is x, slope 1.
#[differentiable]
fn root_in_a_loop_body(x: f64, n: usize) -> f64 {
    let t = x.sqrt();
    let mut s = x;
    for _ in 0..n {
        s = s + t;
    }
    s
}

#[test]
fn a_loop_that_runs_zero_times_adds_nothing() {
    assert_eq!(root_in_a_loop_body_grad(0.0, 0).1, 1.0);
    // Run twice: 1 + 2·∞.
    assert_eq!(root_in_a_loop_body_grad(0.0, 2).1, f64::INFINITY);
    // Away from 0 the closed form 1 + n/(2√x).
    assert_relative_eq!(
        root_in_a_loop_body_grad(0.25, 3).1,
        4.0,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
}

/// √a added into a carried sum only where an element exceeds 10: with no
/// such element the sum is Σ xs, ∂/∂a = 0 and ∂/∂xs = 1.
#[differentiable]
fn root_under_a_branch_in_a_loop(xs: &[f64], a: f64) -> f64 {
    let t = a.sqrt();
    let mut s = 0.0;
    for i in 0..xs.len() {
        if xs[i] > 10.0 {
            s = s + t;
        } else {
            s = s + xs[i];
        }
    }
    s
}

#[test]
fn a_carried_sum_that_never_reads_the_value_adds_nothing() {
    let (value, dxs, da) = root_under_a_branch_in_a_loop_grad(&[1.0, 2.0], 0.0);
    assert_eq!(value, 3.0);
    assert_eq!(dxs, vec![1.0, 1.0]);
    assert_eq!(da, 0.0);
    // One element above 10: ∂/∂a = 1/(2√a) = +∞ at 0, and that element
    // goes through the condition only.
    let (_, dxs, da) = root_under_a_branch_in_a_loop_grad(&[1.0, 20.0], 0.0);
    assert_eq!(dxs, vec![1.0, 0.0]);
    assert_eq!(da, f64::INFINITY);
}

/// The same under `#[checkpoint]`, with a product that needs the stack:
/// no element above 10 gives Π xs, ∂/∂xs_i = Π_{j≠i} xs_j, ∂/∂a = 0.
#[differentiable]
fn root_under_a_branch_checkpointed(xs: &[f64], a: f64) -> f64 {
    let t = a.sqrt();
    let mut s = 1.0;
    #[checkpoint(snapshots = 2)]
    for i in 0..xs.len() {
        if xs[i] > 10.0 {
            s = s + t;
        } else {
            s = s * xs[i];
        }
    }
    s
}

#[test]
fn a_checkpointed_loop_that_never_reads_the_value_adds_nothing() {
    let (value, dxs, da) = root_under_a_branch_checkpointed_grad(&[2.0, 3.0, 5.0], 0.0);
    assert_eq!(value, 30.0);
    assert_eq!(dxs, vec![15.0, 10.0, 6.0]);
    assert_eq!(da, 0.0);
}

/// A callee whose √ meets a zero sum (its slope there is ∞), as the
/// random programs wrote it: a checkpointed sum of the tail's squares.
#[differentiable]
fn tail_norm(xs: &[f64]) -> f64 {
    let mut s = 0.0;
    #[checkpoint(snapshots = 2)]
    for i in 1..xs.len() {
        s = s + xs[i] * xs[i];
    }
    s.sqrt()
}

/// The callee's result read only in the arm `0`.
#[differentiable]
fn call_read_in_one_arm(xs: &[f64], n: i32) -> f64 {
    let v = tail_norm(xs);
    match n {
        0 => v,
        _ => xs[0] * 2.0,
    }
}

/// The callee's result reaching the result only through two loops'
/// carried sum, under a branch the run never takes.
#[differentiable]
fn call_read_through_two_loops(xs: &[f64], n: usize) -> f64 {
    let v = tail_norm(xs);
    let mut r = xs[0];
    for i in 0..n {
        for j in 0..n {
            if i + j > 100 {
                r = r + v;
            } else {
                r = r * 1.5;
            }
        }
    }
    r
}

#[test]
fn a_callee_result_read_in_an_arm_not_taken_adds_nothing() {
    let (value, dxs) = call_read_in_one_arm_grad(&[1.0, 0.0], 1);
    assert_eq!(value, 2.0);
    assert_eq!(dxs, vec![2.0, 0.0]);
    // Taken: ∂/∂xs_1 = xs_1/√(Σ) = 0·∞ on the path, NaN.
    let (_, dxs) = call_read_in_one_arm_grad(&[1.0, 0.0], 0);
    assert!(dxs[1].is_nan());
}

#[test]
fn a_callee_result_through_two_loops_not_read_adds_nothing() {
    // r = xs_0 · 1.5^(n²): n = 2 gives 1.5⁴.
    let (value, dxs) = call_read_through_two_loops_grad(&[1.0, 0.0], 2);
    assert_relative_eq!(value, 5.0625, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dxs[0], 5.0625, epsilon = 1e-12, max_relative = 1e-12);
    assert_eq!(dxs[1], 0.0);
    // No iteration: r = xs_0.
    assert_eq!(
        call_read_through_two_loops_grad(&[1.0, 0.0], 0).1,
        vec![1.0, 0.0]
    );
}

#[differentiable]
fn tail_norm_f32(xs: &[f32]) -> f32 {
    let mut s = 0.0;
    for i in 1..xs.len() {
        s = s + xs[i] * xs[i];
    }
    s.sqrt()
}

#[differentiable]
fn call_read_in_one_arm_f32(xs: &[f32], a0: f32) -> f32 {
    let v = tail_norm_f32(xs);
    if a0 > 1.0 { v + a0 } else { a0 * xs[0] }
}

#[test]
fn a_callee_result_read_in_an_arm_not_taken_adds_nothing_f32() {
    let (value, dxs, da) = call_read_in_one_arm_f32_grad(&[1.0, 0.0], 0.5);
    assert_eq!(value, 0.5);
    assert_eq!(dxs, vec![0.5, 0.0]);
    assert_eq!(da, 1.0);
}

// Finding 033: a value with an infinite slope passed to a callee that does
// not read that argument on this run. The callee's pullback gives 0 for it;
// a caller that took the call for a user that always arrives ran the
// value's reverse: 0·∞ = NaN where the dynamic graph has no path at all.
// The pullback now says which arguments it reached, and the caller adds
// nothing through one it did not.

/// Reads `v` only when `x > 10`.
#[differentiable]
fn pick(v: f64, x: f64) -> f64 {
    if x > 10.0 { v * x } else { x * x * 0.5 }
}

/// Finding 033's reproducer: √(y²) is 0 at y = 0, where its slope is ∞.
#[differentiable]
fn root_into_an_arm_not_taken(x: f64, y: f64) -> f64 {
    let r = (y * y).sqrt();
    pick(r, x)
}

/// Reads `a` into a value the result never reads (as the random programs'
/// `f137` and `f356` do): the argument is on no path of any run.
#[differentiable]
fn drops_first(a: f64, b: f64) -> f64 {
    let _unread = a * a;
    b * 2.0
}

/// The reduced shape of today's failures chunk2-f195 and chunk3-f476: a
/// callee's result with an infinite slope at a zero norm (`tail_norm`),
/// handed to a callee that drops it.
#[differentiable]
fn norm_into_a_dropped_argument(xs: &[f64], b: f64) -> f64 {
    let v = tail_norm(xs);
    drops_first(v, b)
}

#[test]
fn an_argument_the_callee_does_not_read_on_this_run_adds_nothing() {
    // x ≤ 10: the result is x²/2, slope x, nothing through y.
    assert_eq!(root_into_an_arm_not_taken_grad(1.0, 0.0), (0.5, 1.0, 0.0));
    // Read (x > 10): ∂/∂y = x·y/|y| is 0·∞ at y = 0 on the path, NaN.
    assert!(root_into_an_arm_not_taken_grad(11.0, 0.0).2.is_nan());
}

#[test]
fn a_callee_result_passed_to_an_argument_never_read_adds_nothing() {
    // The result is 2b whatever xs is.
    let (value, dxs, db) = norm_into_a_dropped_argument_grad(&[1.0, 0.0], 3.0);
    assert_eq!(value, 6.0);
    assert_eq!(dxs, vec![0.0, 0.0]);
    assert_eq!(db, 2.0);
}

/// A helper as users write one: `v` is read only when `limit > 0`.
#[differentiable]
fn scale_if_positive(v: f64, limit: f64) -> f64 {
    if limit > 0.0 { v * limit } else { limit }
}

/// √x handed to the helper, x read again on the path.
#[differentiable]
fn root_scaled_if_positive(x: f64, limit: f64) -> f64 {
    let r = x.sqrt();
    scale_if_positive(r, limit) + x
}

/// x^0.5 by `powf`, whose slope at 0 is ∞ too.
#[differentiable]
fn power_scaled_if_positive(x: f64, limit: f64) -> f64 {
    let p = x.powf(0.5);
    scale_if_positive(p, limit) * 2.0
}

#[test]
fn a_root_passed_to_a_helper_that_skips_it_adds_nothing() {
    // limit ≤ 0: the result is limit + x, slopes (1, 1), at x = 0 too.
    assert_eq!(root_scaled_if_positive_grad(0.0, -1.0), (-1.0, 1.0, 1.0));
    // limit > 0: √x·limit + x, slope limit/(2√x) + 1, ∞ at 0, and
    // ∂/∂limit = √x.
    let (value, dx, dlimit) = root_scaled_if_positive_grad(4.0, 3.0);
    assert_relative_eq!(value, 10.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dx, 1.75, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dlimit, 2.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_eq!(root_scaled_if_positive_grad(0.0, 3.0).1, f64::INFINITY);
}

#[test]
fn a_power_passed_to_a_helper_that_skips_it_adds_nothing() {
    // limit ≤ 0: the result is 2·limit, nothing through x.
    assert_eq!(power_scaled_if_positive_grad(0.0, -0.5), (-1.0, 0.0, 2.0));
    // limit > 0: 2·limit·x^0.5, slope limit·x^-0.5, ∂/∂limit = 2·x^0.5.
    let (value, dx, dlimit) = power_scaled_if_positive_grad(0.25, 2.0);
    assert_relative_eq!(value, 2.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dx, 4.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dlimit, 1.0, epsilon = 1e-12, max_relative = 1e-12);
}

/// The helper called in a loop, on each element's root.
#[differentiable]
fn sum_of_roots_scaled_if_positive(xs: &[f64], limit: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        let r = xs[i].sqrt();
        s = s + scale_if_positive(r, limit);
    }
    s
}

#[test]
fn a_call_in_a_loop_that_skips_its_argument_adds_nothing() {
    // limit ≤ 0: n·limit, nothing through xs.
    let (value, dxs, dlimit) = sum_of_roots_scaled_if_positive_grad(&[0.0, 4.0, 0.0], -1.0);
    assert_eq!(value, -3.0);
    assert_eq!(dxs, vec![0.0, 0.0, 0.0]);
    assert_eq!(dlimit, 3.0);
    // limit > 0: limit·Σ√x_i, ∂/∂x_i = limit/(2√x_i), ∂/∂limit = Σ√x_i.
    let (value, dxs, dlimit) = sum_of_roots_scaled_if_positive_grad(&[1.0, 4.0], 2.0);
    assert_relative_eq!(value, 6.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dxs[0], 1.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dxs[1], 0.5, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dlimit, 3.0, epsilon = 1e-12, max_relative = 1e-12);
}

/// An argument read only in a loop that may run zero times, passed on
/// through a second helper: the answer comes back through both pullbacks.
#[differentiable]
fn times_count(v: f64, n: usize) -> f64 {
    let mut s = 0.0;
    for _ in 0..n {
        s = s + v;
    }
    s
}

#[differentiable]
fn passes_on(v: f64, n: usize) -> f64 {
    times_count(v, n) + 1.0
}

#[differentiable]
fn root_through_two_helpers(x: f64, n: usize) -> f64 {
    let r = x.sqrt();
    passes_on(r, n) + x
}

#[test]
fn a_loop_that_runs_zero_times_in_a_callee_of_a_callee_adds_nothing() {
    // n = 0: the result is 1 + x, slope 1 at x = 0.
    assert_eq!(root_through_two_helpers_grad(0.0, 0), (1.0, 1.0));
    // n = 2: 2√x + 1 + x, slope 1/√x + 1.
    let (value, dx) = root_through_two_helpers_grad(4.0, 2);
    assert_relative_eq!(value, 9.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dx, 1.5, epsilon = 1e-12, max_relative = 1e-12);
}

/// `NAME_vjp` and `NAME_grad_acc` keep their shapes for a function whose
/// pullback says which arguments it reached.
#[test]
fn the_public_items_of_a_helper_that_may_skip_an_argument_keep_their_shapes() {
    let (value, pullback) = scale_if_positive_vjp(5.0, -2.0);
    assert_eq!(value, -2.0);
    assert_eq!(pullback(3.0), (0.0, 3.0));
    let (mut dv, mut dlimit) = (1.0, 1.0);
    assert_eq!(
        scale_if_positive_grad_acc(5.0, 2.0, &mut dv, &mut dlimit),
        10.0
    );
    assert_eq!((dv, dlimit), (3.0, 6.0));
}

// ---------------------------------------------------------------------------
// `max`, `min` and `clamp` take their value from one operand: the operand
// not picked is not on the run's path, so its zero adjoint reaches
// nothing before it (found by the random programs: a helper's √ of a sum
// of squares at 0 whose result lost a `min` gave NaN for the inputs).

/// The distance to the origin, floored at ½: near the origin the floor,
/// a constant (gradient 0, Hessian 0); far from it the distance.
#[differentiable(jvp, hessian)]
fn floored_distance(x: f64, y: f64) -> f64 {
    let d = (x * x + y * y).sqrt();
    d.max(0.5)
}

#[test]
fn an_operand_max_did_not_pick_adds_nothing() {
    assert_eq!(floored_distance_grad(0.0, 0.0), (0.5, 0.0, 0.0));
    let (_, g, h) = floored_distance_hessian(0.0, 0.0);
    assert!(g.iter().all(|&e| e == 0.0), "{g}");
    assert!(h.iter().all(|&e| e == 0.0), "{h}");
    // Picked, the distance's slopes: (x, y)/d at (3, 4).
    let (v, dx, dy) = floored_distance_grad(3.0, 4.0);
    assert_eq!(v, 5.0);
    assert_relative_eq!(dx, 0.6, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(dy, 0.8, epsilon = 1e-15, max_relative = 1e-15);
}

/// √(x²) clamped to [¼, 2]: at x = 0 the lower bound, a constant.
#[differentiable(hessian)]
fn clamped_magnitude(x: f64, lo: f64) -> f64 {
    (x * x).sqrt().clamp(lo, 2.0)
}

#[test]
fn an_operand_clamp_did_not_pick_adds_nothing() {
    // The value is `lo`: ∂/∂x = 0, ∂/∂lo = 1.
    assert_eq!(clamped_magnitude_grad(0.0, 0.25), (0.25, 0.0, 1.0));
    let (_, g, h) = clamped_magnitude_hessian(0.0, 0.25);
    assert_eq!((g[0], g[1]), (0.0, 1.0));
    assert!(h.iter().all(|&e| e == 0.0), "{h}");
}

/// The Euclidean norm of a slice, as users write it.
#[differentiable]
fn norm(xs: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        s += xs[i] * xs[i];
    }
    s.sqrt()
}

/// The norm, capped at `c`: a helper's result that `min` may not pick.
#[differentiable]
fn capped_norm(xs: &[f64], c: f64) -> f64 {
    norm(xs).min(c)
}

#[test]
fn a_callee_result_min_did_not_pick_adds_nothing() {
    // At the origin with c = −1 the value is c: ∂/∂xs = 0, ∂/∂c = 1.
    let (v, dxs, dc) = capped_norm_grad(&[0.0, 0.0, 0.0], -1.0);
    assert_eq!((v, dxs, dc), (-1.0, vec![0.0; 3], 1.0));
    // Picked, the norm's slopes xs/|xs| at (1, 2, 2), |xs| = 3.
    let (v, dxs, dc) = capped_norm_grad(&[1.0, 2.0, 2.0], 10.0);
    assert_eq!((v, dc), (3.0, 0.0));
    for (d, want) in dxs.iter().zip([1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0]) {
        assert_relative_eq!(*d, want, epsilon = 1e-15, max_relative = 1e-15);
    }
}

// ---------------------------------------------------------------------------
// Finding 033 through the two kinds of callee whose pullback said "every
// argument reached": a helper taking a `Tangent` struct (its struct call)
// and a helper with an in-out `&mut [f64]` argument (its `__inout_call`).
// Each reads `v` only in an arm this run does not take, so `v = √(y²)`,
// whose slope at y = 0 is infinite, adds nothing (0, not 0·∞ = NaN).

/// A spring of stiffness `k`.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct State {
    pub k: f64,
}

/// Reads `v` only when `x > 10`.
#[differentiable]
fn energy(s: &State, v: f64, x: f64) -> f64 {
    if x > 10.0 { v * s.k } else { s.k * x * x }
}

#[differentiable]
fn root_into_a_struct_helper(s: &State, x: f64, y: f64) -> f64 {
    let v = (y * y).sqrt();
    energy(s, v, x)
}

#[test]
fn an_argument_a_struct_helper_does_not_read_on_this_run_adds_nothing() {
    let s = State { k: 3.0 };
    // x ≤ 10: the result is k·x², ∂/∂k = x², ∂/∂x = 2kx, nothing through y.
    let (value, ds, dx, dy) = root_into_a_struct_helper_grad(&s, 2.0, 0.0);
    assert_eq!(value, 12.0);
    assert_eq!((ds.k, dx, dy), (4.0, 12.0, 0.0));
    // x > 10: v·k = |y|·k, ∂/∂y = k·y/|y|, 0·∞ at y = 0 on the path: NaN.
    assert!(root_into_a_struct_helper_grad(&s, 11.0, 0.0).3.is_nan());
    // Away from 0: ∂/∂y = k·sign(y), ∂/∂k = |y|, ∂/∂x = 0.
    let (value, ds, dx, dy) = root_into_a_struct_helper_grad(&s, 11.0, -2.0);
    assert_relative_eq!(value, 6.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(ds.k, 2.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_eq!(dx, 0.0);
    assert_relative_eq!(dy, -3.0, epsilon = 1e-12, max_relative = 1e-12);
}

/// A damper of coefficient `c`: its method reads `v` only when `c > 0`.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Damper {
    pub c: f64,
}

#[differentiable]
impl Damper {
    fn force(&self, v: f64, x: f64) -> f64 {
        if self.c > 0.0 { self.c * v } else { x * x }
    }

    fn root_force(&self, x: f64, y: f64) -> f64 {
        let v = (y * y).sqrt();
        self.force(v, x) + x
    }
}

#[test]
fn an_argument_a_method_does_not_read_on_this_run_adds_nothing() {
    // c ≤ 0: the result is x² + x, ∂/∂x = 2x + 1, ∂/∂c = 0, nothing through y.
    let d = Damper { c: -1.0 };
    let (value, dd, dx, dy) = d.root_force_grad(3.0, 0.0);
    assert_eq!(value, 12.0);
    assert_eq!((dd.c, dx, dy), (0.0, 7.0, 0.0));
    // c > 0: c·|y| + x, ∂/∂y = c·sign(y) (NaN at 0, on the path), ∂/∂c = |y|.
    let d = Damper { c: 2.0 };
    assert!(d.root_force_grad(3.0, 0.0).3.is_nan());
    let (value, dd, dx, dy) = d.root_force_grad(3.0, 0.5);
    assert_relative_eq!(value, 4.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dd.c, 0.5, epsilon = 1e-12, max_relative = 1e-12);
    assert_eq!(dx, 1.0);
    assert_relative_eq!(dy, 2.0, epsilon = 1e-12, max_relative = 1e-12);
}

/// The method called from a free function, through its struct call.
#[differentiable]
fn damper_root_force(d: &Damper, x: f64, y: f64) -> f64 {
    let v = (y * y).sqrt();
    d.force(v, x) + x
}

#[test]
fn an_argument_a_method_does_not_read_adds_nothing_from_a_free_caller() {
    // c ≤ 0: x² + x as above.
    let (value, dd, dx, dy) = damper_root_force_grad(&Damper { c: -1.0 }, 3.0, 0.0);
    assert_eq!(value, 12.0);
    assert_eq!((dd.c, dx, dy), (0.0, 7.0, 0.0));
    assert!(
        damper_root_force_grad(&Damper { c: 2.0 }, 3.0, 0.0)
            .3
            .is_nan()
    );
}

/// An Euler step that pushes the state by `v` only when `dt > 1`.
#[differentiable]
fn step(state: &mut [f64], v: f64, dt: f64) {
    for i in 0..state.len() {
        if dt > 1.0 {
            state[i] = state[i] + v * dt;
        } else {
            state[i] = state[i] * (1.0 - dt);
        }
    }
}

#[differentiable]
fn root_into_an_in_out_helper(xs: &[f64], y: f64, dt: f64) -> f64 {
    let v = (y * y).sqrt();
    let mut state = xs.to_vec();
    step(&mut state, v, dt);
    state[0] + state[1]
}

#[test]
fn an_argument_an_in_out_helper_does_not_read_on_this_run_adds_nothing() {
    // dt ≤ 1: (x0 + x1)(1 − dt), ∂/∂xs = 1 − dt, ∂/∂dt = −(x0 + x1),
    // nothing through y.
    let (value, dxs, dy, ddt) = root_into_an_in_out_helper_grad(&[1.0, 2.0], 0.0, 0.5);
    assert_eq!(value, 1.5);
    assert_eq!((dxs, dy, ddt), (vec![0.5, 0.5], 0.0, -3.0));
    // dt > 1: x0 + x1 + 2|y|·dt, ∂/∂y = 2·dt·sign(y) (NaN at 0, on the path).
    assert!(
        root_into_an_in_out_helper_grad(&[1.0, 2.0], 0.0, 2.0)
            .2
            .is_nan()
    );
    let (value, _, dy, ddt) = root_into_an_in_out_helper_grad(&[1.0, 2.0], -0.5, 2.0);
    assert_relative_eq!(value, 5.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(dy, -4.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(ddt, 1.0, epsilon = 1e-12, max_relative = 1e-12);
}

/// `energy` with its struct `#[constant]`.
#[differentiable]
fn energy_at(#[constant] s: &State, v: f64, x: f64) -> f64 {
    if x > 10.0 { v * s.k } else { s.k * x * x }
}

#[differentiable]
fn root_into_a_constant_struct_helper(#[constant] s: &State, x: f64, y: f64) -> f64 {
    let v = (y * y).sqrt();
    energy_at(s, v, x)
}

#[test]
fn an_argument_a_helper_of_a_constant_struct_does_not_read_adds_nothing() {
    let s = State { k: 3.0 };
    // x ≤ 10: k·x², ∂/∂x = 2kx, nothing through y.
    assert_eq!(
        root_into_a_constant_struct_helper_grad(&s, 2.0, 0.0),
        (12.0, 12.0, 0.0)
    );
    assert!(
        root_into_a_constant_struct_helper_grad(&s, 11.0, 0.0)
            .2
            .is_nan()
    );
}

/// An in-out float: `v` is added only when `c > 0`.
#[differentiable]
fn add_if_positive(acc: &mut f64, v: f64, c: f64) {
    if c > 0.0 {
        *acc = *acc + v * c;
    }
}

#[differentiable]
fn root_into_an_in_out_float_helper(x: f64, y: f64, c: f64) -> f64 {
    let v = (y * y).sqrt();
    let mut acc = x * x;
    add_if_positive(&mut acc, v, c);
    acc
}

#[test]
fn an_argument_an_in_out_float_helper_does_not_read_adds_nothing() {
    // c ≤ 0: x², ∂/∂x = 2x, nothing through y or c.
    assert_eq!(
        root_into_an_in_out_float_helper_grad(3.0, 0.0, -1.0),
        (9.0, 6.0, 0.0, 0.0)
    );
    // c > 0: x² + c·|y|, ∂/∂y = c·sign(y) (NaN at 0, on the path).
    assert!(
        root_into_an_in_out_float_helper_grad(3.0, 0.0, 2.0)
            .2
            .is_nan()
    );
}
