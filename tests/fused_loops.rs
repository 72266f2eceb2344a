//! Loops that run as one fused pass (the forward sweep adds each
//! iteration's adjoint as it goes) and loops that almost qualify and must
//! fall back to two passes: every gradient against five-point central
//! differences of the primal (`fd_support`, `FD64_ABS` absolute or
//! `FD64_REL` relative), and every `_vjp` at a seed other than one against
//! the seed times those differences, since a fused loop's reverse only
//! scales what its forward computed. `autograd-macros`' `fusion` tests say
//! which of these loops fuse.

// `#[differentiable]` bodies index slices in `for i in a..b` loops.
#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

mod fd_support;
use fd_support::{assert_all_fd64_close, assert_fd64_close, fd64, fd64_slice};

/// Points with every component different, of each length.
fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.3 + 0.17 * i as f64 - 0.05 * (i * i % 7) as f64)
        .collect()
}

const SEED: f64 = -2.5;

/// Checks `NAME_grad` and `NAME_vjp` (at `SEED`) of a function of one
/// slice against central differences, at several lengths.
macro_rules! check_slice_fn {
    ($f:ident, $grad:ident, $vjp:ident, $lens:expr) => {
        for n in $lens {
            let x = point(n);
            let want = fd64_slice(|x| $f(x), &x);
            let (value, g) = $grad(&x);
            assert_eq!(value, $f(&x), "{} value, n = {n}", stringify!($f));
            assert_all_fd64_close(&format!("{} n = {n}", stringify!($f)), &g, &want);
            let (_, pullback) = $vjp(&x);
            let (gs,) = pullback(SEED);
            let scaled: Vec<f64> = want.iter().map(|w| SEED * w).collect();
            assert_all_fd64_close(&format!("{} vjp n = {n}", stringify!($f)), &gs, &scaled);
        }
    };
}

// ---------------------------------------------------------------------------
// Fusable.

#[differentiable]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

#[test]
fn rosenbrock_fused() {
    // n = 1: the loop never runs, the gradient is zero.
    check_slice_fn!(rosenbrock, rosenbrock_grad, rosenbrock_vjp, [1, 2, 3, 10]);
    assert_eq!(rosenbrock_grad(&[0.7]).1, vec![0.0]);
}

#[differentiable]
fn bond(r: &[f64], z: f64, #[constant] cf: &[f64], #[constant] t: &[f64]) -> f64 {
    let mut p = 0.0;
    for i in 0..cf.len() {
        p += cf[i] * (-(r[i] + z) * t[i]).exp();
    }
    p
}

#[test]
fn bond_fused_slice_and_scalar() {
    let n = 12;
    let r = point(n).iter().map(|v| 0.01 * v).collect::<Vec<_>>();
    let cf: Vec<f64> = (0..n)
        .map(|i| if i == n - 1 { 105.0 } else { 5.0 })
        .collect();
    let t: Vec<f64> = (1..=n).map(|i| 0.5 * i as f64).collect();
    let z = 0.004;
    let (_, dr, dz) = bond_grad(&r, z, &cf, &t);
    assert_all_fd64_close("dr", &dr, &fd64_slice(|r| bond(r, z, &cf, &t), &r));
    let want_dz = fd64(|z| bond(&r, z, &cf, &t), z);
    assert_fd64_close("dz", dz, want_dz);
    let (_, pullback) = bond_vjp(&r, z, &cf, &t);
    let (_, dz_seeded) = pullback(SEED);
    assert_fd64_close("dz vjp", dz_seeded, SEED * want_dz);
}

/// Least squares in a line's slope and intercept, both read in the loop,
/// and a weight computed before it.
#[differentiable]
fn least_squares(a: f64, b: f64, #[constant] xs: &[f64], #[constant] ys: &[f64]) -> f64 {
    let w = 0.5 / (a * a + 1.0);
    let mut s = 0.0;
    for i in 0..xs.len() {
        let e = a * xs[i] + b - ys[i];
        s += w * e * e;
    }
    s
}

#[test]
fn least_squares_fused_scalars() {
    let xs = point(9);
    let ys: Vec<f64> = xs.iter().map(|x| 1.5 * x - 0.25 + 0.1 * x * x).collect();
    let (a, b) = (1.2, -0.4);
    let (_, da, db) = least_squares_grad(a, b, &xs, &ys);
    assert_fd64_close("da", da, fd64(|a| least_squares(a, b, &xs, &ys), a));
    assert_fd64_close("db", db, fd64(|b| least_squares(a, b, &xs, &ys), b));
}

/// The accumulator starts from a differentiable value, and is used
/// nonlinearly and multiplied after the loop.
#[differentiable]
fn after_the_loop(x: &[f64], z: f64) -> f64 {
    let mut s = z * z;
    for i in 0..x.len() {
        s -= x[i] * z.sin();
    }
    2.5 * s * s.abs().sqrt() + s * z
}

#[test]
fn accumulator_used_after_the_loop() {
    for n in [0, 1, 5] {
        let x = point(n);
        let z = 0.8;
        let (_, dx, dz) = after_the_loop_grad(&x, z);
        assert_all_fd64_close("dx", &dx, &fd64_slice(|x| after_the_loop(x, z), &x));
        assert_fd64_close("dz", dz, fd64(|z| after_the_loop(&x, z), z));
    }
}

/// The slice is read after the loop too, and in a second fused loop: its
/// adjoint is the sum of the scaled unit adjoints and the other reads.
#[differentiable]
fn slice_read_elsewhere(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i].sin();
    }
    let mut q = 0.0;
    for i in 1..x.len() {
        q += x[i] * x[i - 1];
    }
    s * q + x[0] * x[1]
}

#[test]
fn slice_read_after_and_in_two_loops() {
    check_slice_fn!(
        slice_read_elsewhere,
        slice_read_elsewhere_grad,
        slice_read_elsewhere_vjp,
        [2, 3, 8]
    );
}

/// A three-point stencil with an extra read of a fixed element, so the
/// pending adjoints are added into the slice's, not stored.
#[differentiable]
fn stencil_and_fixed_read(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() - 1 {
        let d = x[i - 1] - 2.0 * x[i] + x[i + 1];
        s += d * d * x[0];
    }
    s
}

#[test]
fn stencil_with_fixed_read() {
    check_slice_fn!(
        stencil_and_fixed_read,
        stencil_and_fixed_read_grad,
        stencil_and_fixed_read_vjp,
        [2, 3, 4, 9]
    );
}

/// Inclusive and reversed ranges, and reads with a gap in the offsets.
#[differentiable]
fn ranges(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..=x.len() - 3 {
        s += x[i] * x[i + 2];
    }
    for i in (0..x.len()).rev() {
        s += (x[i] * 0.5).exp();
    }
    s
}

#[test]
fn inclusive_reversed_and_gapped() {
    check_slice_fn!(ranges, ranges_grad, ranges_vjp, [3, 4, 7]);
}

#[differentiable]
fn rosenbrock32(x: &[f32]) -> f32 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

#[test]
fn rosenbrock_f32_closed_form() {
    let x: Vec<f32> = vec![0.5, -0.25, 1.25, 0.75];
    let (_, g) = rosenbrock32_grad(&x);
    // ∂f/∂xᵢ = −2aᵢ − 400·xᵢ·bᵢ + 200·bᵢ₋₁, in f64 from the f32 inputs.
    let x64: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let n = x64.len();
    for k in 0..n {
        let mut want = 0.0;
        if k + 1 < n {
            let (a, b) = (1.0 - x64[k], x64[k + 1] - x64[k] * x64[k]);
            want += -2.0 * a - 400.0 * x64[k] * b;
        }
        if k > 0 {
            want += 200.0 * (x64[k] - x64[k - 1] * x64[k - 1]);
        }
        let err = (f64::from(g[k]) - want).abs();
        assert!(
            err <= 1e-3 * want.abs().max(1.0),
            "g[{k}] = {} against {want}",
            g[k]
        );
    }
}

// ---------------------------------------------------------------------------
// Almost fusable: two passes.

/// The accumulator is read inside the loop.
#[differentiable]
fn reads_accumulator(x: &[f64]) -> f64 {
    let mut s: f64 = 0.1;
    for i in 0..x.len() {
        s += x[i] * s.sin();
    }
    s
}

/// The accumulator's sign alternates: `s = term - s`.
#[differentiable]
fn alternating(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s = x[i] * x[i] - s;
    }
    s
}

/// Two accumulators.
#[differentiable]
fn two_accumulators(x: &[f64]) -> f64 {
    let mut s = 0.0;
    let mut q = 0.0;
    for i in 0..x.len() {
        s += x[i];
        q += x[i] * x[i];
    }
    s * q
}

/// Nested loops.
#[differentiable]
fn nested(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        for j in 0..x.len() {
            s += x[i] * (x[j] - 0.5 * x[i]).cos();
        }
    }
    s
}

/// `continue` and `break`.
#[differentiable]
fn exits(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        if x[i] > 1.0 {
            continue;
        }
        if x[i] < -5.0 {
            break;
        }
        s += x[i] * x[i] * x[i];
    }
    s
}

/// An array written in the loop.
#[differentiable]
fn writes_array(x: &[f64]) -> f64 {
    let mut v = vec![0.0; x.len()];
    let mut s = 0.0;
    for i in 0..x.len() {
        v[i] = x[i] * 2.0;
        s += v[i] * x[i];
    }
    s + v[0]
}

/// A branch in the body.
#[differentiable]
fn branch_in_body(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let t = if x[i] > 0.5 { x[i] * x[i] } else { x[i].sin() };
        s += t;
    }
    s
}

/// A scaled accumulator: `s = 0.5 * s + term` is not a sum.
#[differentiable]
fn decaying(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s = 0.5 * s + x[i] * x[i];
    }
    s
}

#[test]
fn almost_fusable_loops() {
    let lens = [1, 2, 6];
    check_slice_fn!(
        reads_accumulator,
        reads_accumulator_grad,
        reads_accumulator_vjp,
        lens
    );
    check_slice_fn!(alternating, alternating_grad, alternating_vjp, lens);
    check_slice_fn!(
        two_accumulators,
        two_accumulators_grad,
        two_accumulators_vjp,
        lens
    );
    check_slice_fn!(nested, nested_grad, nested_vjp, lens);
    check_slice_fn!(exits, exits_grad, exits_vjp, lens);
    check_slice_fn!(writes_array, writes_array_grad, writes_array_vjp, lens);
    check_slice_fn!(
        branch_in_body,
        branch_in_body_grad,
        branch_in_body_vjp,
        lens
    );
    check_slice_fn!(decaying, decaying_grad, decaying_vjp, lens);
}

#[test]
fn exits_taken() {
    // Past 1.0 the element is skipped; below -5.0 the loop stops.
    let x = [0.5, 1.5, -0.75, -6.0, 0.25];
    let want = fd64_slice(exits, &x);
    assert_all_fd64_close("exits", &exits_grad(&x).1, &want);
    assert_eq!(want[1], 0.0);
    assert_eq!(want[4], 0.0);
}

// ---------------------------------------------------------------------------
// Non-finite adjoints (issue 35, "silently wrong" 3): a fused loop's
// reverse scaled its unit adjoints by the accumulator's adjoint, so an ∞
// or NaN there made NaN of every element, read by the loop or not
// (x[0] + √(Σ_{i≥1} xᵢ²) at [3, 0, 0] gave ∂/∂x₀ = NaN; it is 1), and ∞
// of a sum where the two-pass sweep has NaN. Each function below is fused;
// its `_unfused` twin has a branch in the body, never taken, so it runs as
// two passes. Their gradients must be the same numbers bit for bit, NaN
// where the other has NaN; the finite entries are checked against closed
// forms.

/// Whether two gradients are the same, NaN at the same places.
fn same_bits(a: &[f64], b: &[f64]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| (p.is_nan() && q.is_nan()) || p.to_bits() == q.to_bits())
}

#[differentiable]
fn norm_tail(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += x[i] * x[i];
    }
    x[0] + s.sqrt()
}

#[differentiable]
fn norm_tail_unfused(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        if x[i] > 1e300 {
            s += 0.0;
        }
        s += x[i] * x[i];
    }
    x[0] + s.sqrt()
}

/// The sum as an iterator chain.
#[differentiable]
fn norm_tail_iter(x: &[f64]) -> f64 {
    x[0] + x[1..].iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// A stencil and a scalar read in the body: x₁·x₂ + x₂·x₃ at x₂ = 0, x₃ = 1
/// gives x₂ the contributions ∞·0 and ∞·1, whose sum is NaN.
#[differentiable]
fn stencil_tail(x: &[f64], z: f64) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() - 1 {
        s += x[i] * x[i + 1] * z;
    }
    2.0 * x[0] + s.sqrt() + z
}

#[differentiable]
fn stencil_tail_unfused(x: &[f64], z: f64) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() - 1 {
        if z > 1e300 {
            s += 0.0;
        }
        s += x[i] * x[i + 1] * z;
    }
    2.0 * x[0] + s.sqrt() + z
}

/// ln at 0: the adjoint of the sum is ∞.
#[differentiable]
fn log_tail(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += x[i] * x[i];
    }
    x[0].exp() + s.ln()
}

#[differentiable]
fn log_tail_unfused(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        if x[i] > 1e300 {
            s += 0.0;
        }
        s += x[i] * x[i];
    }
    x[0].exp() + s.ln()
}

/// 1/s at 0: the adjoint of the sum is −∞.
#[differentiable]
fn reciprocal_tail(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += x[i] * x[i];
    }
    3.0 * x[0] + 1.0 / s
}

#[differentiable]
fn reciprocal_tail_unfused(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        if x[i] > 1e300 {
            s += 0.0;
        }
        s += x[i] * x[i];
    }
    3.0 * x[0] + 1.0 / s
}

/// A loop that never runs (x of length one) under an adjoint of ∞: z gets
/// nothing from it.
#[differentiable]
fn empty_tail(x: &[f64], z: f64) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += z * x[i];
    }
    z + s.sqrt()
}

#[differentiable]
fn empty_tail_unfused(x: &[f64], z: f64) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        if z > 1e300 {
            s += 0.0;
        }
        s += z * x[i];
    }
    z + s.sqrt()
}

/// The slice is read in the loop only: its adjoint is the loop's.
#[differentiable]
fn only_tail(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += x[i] * x[i];
    }
    s.sqrt()
}

#[differentiable]
fn only_tail_unfused(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        if x[i] > 1e300 {
            s += 0.0;
        }
        s += x[i] * x[i];
    }
    s.sqrt()
}

/// The same with a vector result, which has no `_grad_acc`: the slice's
/// adjoint is the loop's unit adjoint itself, scaled in place.
#[differentiable]
fn only_tail_vector(x: &[f64]) -> nalgebra::Vector2<f64> {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += x[i] * x[i];
    }
    nalgebra::Vector2::new(s.sqrt(), 2.0 * s)
}

#[differentiable]
fn only_tail_vector_unfused(x: &[f64]) -> nalgebra::Vector2<f64> {
    let mut s = 0.0;
    for i in 1..x.len() {
        if x[i] > 1e300 {
            s += 0.0;
        }
        s += x[i] * x[i];
    }
    nalgebra::Vector2::new(s.sqrt(), 2.0 * s)
}

/// A NaN adjoint: the square root of a negative sum.
#[differentiable]
fn negative_tail(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s -= x[i] * x[i];
    }
    x[0] + s.sqrt()
}

#[differentiable]
fn negative_tail_unfused(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() {
        if x[i] > 1e300 {
            s += 0.0;
        }
        s -= x[i] * x[i];
    }
    x[0] + s.sqrt()
}

/// `_grad`, `_vjp` at seed one and `_grad_acc` into zeros of a function of
/// one slice, and the two-pass twin's `_grad`.
macro_rules! three_ways {
    ($grad:ident, $vjp:ident, $acc:ident, $unfused:ident, $x:expr) => {{
        let x: &[f64] = &$x;
        let twin = $unfused(x).1;
        let grad = $grad(x).1;
        let (_, pullback) = $vjp(x);
        let vjp = pullback(1.0).0;
        let mut acc = vec![0.0; x.len()];
        $acc(x, &mut acc);
        for (how, g) in [("grad", &grad), ("vjp", &vjp), ("grad_acc", &acc)] {
            assert!(
                same_bits(g, &twin),
                "{} {how} at {x:?}: {g:?}, two passes give {twin:?}",
                stringify!($grad)
            );
        }
        grad
    }};
}

#[test]
fn a_non_finite_adjoint_gives_what_two_passes_give() {
    let nan = f64::NAN;
    // ∂/∂x₀ = 1; ∞·0 at each element the loop read.
    for x in [vec![3.0, 0.0, 0.0], vec![-2.0, 0.0, 0.0, 0.0]] {
        let g = three_ways!(
            norm_tail_grad,
            norm_tail_vjp,
            norm_tail_grad_acc,
            norm_tail_unfused_grad,
            x
        );
        assert_eq!(g[0], 1.0);
        assert!(g[1..].iter().all(|g| g.is_nan()), "{g:?}");
    }
    assert!(same_bits(
        &norm_tail_iter_grad(&[3.0, 0.0, 0.0]).1,
        &[1.0, nan, nan]
    ));
    let mut acc = [0.5, 0.0, 0.0];
    norm_tail_iter_grad_acc(&[3.0, 0.0, 0.0], &mut acc);
    assert!(same_bits(&acc, &[1.5, nan, nan]), "{acc:?}");

    // ∂/∂x₀ = e^{x₀}, 3; the rest NaN.
    let g = three_ways!(
        log_tail_grad,
        log_tail_vjp,
        log_tail_grad_acc,
        log_tail_unfused_grad,
        [0.5, 0.0, 0.0, 0.0]
    );
    assert_eq!(g[0], 0.5f64.exp());
    let g = three_ways!(
        reciprocal_tail_grad,
        reciprocal_tail_vjp,
        reciprocal_tail_grad_acc,
        reciprocal_tail_unfused_grad,
        [0.5, 0.0, 0.0]
    );
    assert_eq!(g[0], 3.0);
    // A NaN adjoint: ∂/∂x₀ = 1 still.
    let g = three_ways!(
        negative_tail_grad,
        negative_tail_vjp,
        negative_tail_grad_acc,
        negative_tail_unfused_grad,
        [0.5, 1.0, -2.0]
    );
    assert_eq!(g[0], 1.0);
    assert!(g[1].is_nan() && g[2].is_nan(), "{g:?}");
    // x₀ is not read at all: 0, not ∞·0.
    for x in [vec![5.0], vec![5.0, 0.0, 0.0]] {
        let g = three_ways!(
            only_tail_grad,
            only_tail_vjp,
            only_tail_grad_acc,
            only_tail_unfused_grad,
            x
        );
        assert_eq!(g[0], 0.0);
        let seed = nalgebra::Vector2::new(1.0, 0.5);
        let g = only_tail_vector_vjp(&x).1(seed).0;
        let twin = only_tail_vector_unfused_vjp(&x).1(seed).0;
        assert!(same_bits(&g, &twin), "{g:?} vs {twin:?}");
        assert_eq!(g[0], 0.0);
    }
    // A regular point takes the scaled way: the same derivatives, to
    // rounding (xᵢ/|x_{1..}| for i ≥ 1).
    let g = norm_tail_grad(&[3.0, 3.0, 4.0]).1;
    assert_eq!(g[0], 1.0);
    assert!(
        (g[1] - 0.6).abs() < 1e-15 && (g[2] - 0.8).abs() < 1e-15,
        "{g:?}"
    );
}

#[test]
fn a_non_finite_adjoint_in_a_stencil_and_a_scalar() {
    let (x, z) = ([3.0, 0.0, 0.0, 1.0], 2.0);
    let (_, gx, gz) = stencil_tail_grad(&x, z);
    let (_, tx, tz) = stencil_tail_unfused_grad(&x, z);
    assert!(same_bits(&gx, &tx), "{gx:?} vs {tx:?}");
    assert!(same_bits(&[gz], &[tz]), "{gz} vs {tz}");
    // ∂/∂x₀ = 2; x₂ gets ∞·0 + ∞·1 = NaN, not ∞.
    assert_eq!(gx[0], 2.0);
    assert!(gx[1].is_nan() && gx[2].is_nan() && gx[3].is_nan(), "{gx:?}");
    assert!(gz.is_nan());
    let (mut ax, mut az) = (vec![0.0; 4], 0.0);
    stencil_tail_grad_acc(&x, z, &mut ax, &mut az);
    assert!(
        same_bits(&ax, &tx) && same_bits(&[az], &[tz]),
        "{ax:?} {az}"
    );

    // The loop never runs: z gets 1 from `z +` alone, x₀ nothing.
    for x in [vec![4.0], vec![]] {
        let (_, gx, gz) = empty_tail_grad(&x, 0.7);
        let (_, tx, tz) = empty_tail_unfused_grad(&x, 0.7);
        assert!(
            same_bits(&gx, &tx) && gz.to_bits() == tz.to_bits(),
            "{gx:?} {gz}"
        );
        assert_eq!(gz, 1.0);
        assert!(gx.iter().all(|g| *g == 0.0), "{gx:?}");
    }
}
