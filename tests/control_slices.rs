//! `#[differentiable]` on slices: `&[f64]`, `&Vec<f64>` and `&[f32]`
//! arguments indexed in loops, `x.len()`, `#[constant]` data slices, and
//! two finance/statistics workhorses: a bond price over a 60-point curve
//! and a numerically stable log-sum-exp (whose gradient is the softmax).
//!
//! Expected gradients come from closed forms, from the dynamic graph of the
//! runtime, or from central finite differences of the primal; every
//! tolerance is stated next to its assertion.

// A `#[differentiable]` body indexes slices in `for i in a..b` loops (its
// supported iteration form); clippy would rather see iterators.
#![allow(clippy::needless_range_loop)]

use approx::{assert_abs_diff_eq, assert_relative_eq};
use autograd::graph::Graph;
use autograd::{central_difference, differentiable};
use proptest::prelude::*;

fn fd_slice(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut work = x.to_vec();
    (0..x.len())
        .map(|i| {
            let d = central_difference(
                |xi: f64| {
                    work[i] = xi;
                    f(&work)
                },
                x[i],
            );
            work[i] = x[i];
            d
        })
        .collect()
}

// ---------------------------------------------------------------------------
// Bond price over a curve: P = Σ cf[i]·exp(−(r[i] + z)·t[i]).

#[differentiable]
fn bond_price(r: &[f64], #[constant] cf: &[f64], #[constant] t: &[f64], z: f64) -> f64 {
    let mut p = 0.0;
    for i in 0..r.len() {
        p += cf[i] * (-(r[i] + z) * t[i]).exp();
    }
    p
}

/// A 60-point semi-annual schedule: 4% coupons on 100 notional over 30
/// years, an upward-sloping zero curve, and a 25bp spread.
fn bond_data() -> (Vec<f64>, Vec<f64>, Vec<f64>, f64) {
    let n = 60;
    let t: Vec<f64> = (1..=n).map(|k| 0.5 * k as f64).collect();
    let cf: Vec<f64> = (1..=n).map(|k| if k == n { 102.0 } else { 2.0 }).collect();
    let r: Vec<f64> = t
        .iter()
        .map(|&ti| 0.02 + 0.015 * (1.0 - (-ti / 5.0).exp()))
        .collect();
    (r, cf, t, 0.0025)
}

#[test]
fn bond_price_60_points_closed_form() {
    let (r, cf, t, z) = bond_data();
    let (value, dr, dz) = bond_price_grad(&r, &cf, &t, z);
    assert_eq!(value.to_bits(), bond_price(&r, &cf, &t, z).to_bits());
    assert_eq!(dr.len(), 60);
    // ∂P/∂r_i = −t_i·cf_i·e^{−(r_i+z)t_i}; ∂P/∂z = Σ_i ∂P/∂r_i.
    let mut sum = 0.0;
    for i in 0..60 {
        let e = -t[i] * cf[i] * (-(r[i] + z) * t[i]).exp();
        sum += e;
        assert_relative_eq!(dr[i], e, epsilon = 1e-13, max_relative = 1e-13);
    }
    assert_relative_eq!(dz, sum, epsilon = 1e-12, max_relative = 1e-13);
    // Key-rate sanity: the last point (principal) carries most of the risk.
    let (imax, _) = dr
        .iter()
        .enumerate()
        .min_by(|a, b| a.1.total_cmp(b.1))
        .unwrap();
    assert_eq!(imax, 59);
    // Finite differences of the primal: smooth, so 1e-7 relative.
    let fd = fd_slice(|r| bond_price(r, &cf, &t, z), &r);
    for (g, e) in dr.iter().zip(&fd) {
        assert_relative_eq!(*g, *e, epsilon = 1e-7, max_relative = 1e-7);
    }
    let fdz = central_difference(|z: f64| bond_price(&r, &cf, &t, z), z);
    assert_relative_eq!(dz, fdz, epsilon = 1e-7, max_relative = 1e-7);
    assert!(bond_price_check(&r, &cf, &t, z).is_within(1e-7, 1e-7));
}

#[test]
fn bond_price_vjp_seed_is_notional_scaling() {
    let (r, cf, t, z) = bond_data();
    let (value, pullback) = bond_price_vjp(&r, &cf, &t, z);
    assert_eq!(value.to_bits(), bond_price(&r, &cf, &t, z).to_bits());
    // Constant arguments have no slot: the pullback returns (dr, dz).
    let (dr, dz) = pullback(1e-4);
    let (_, dr1, dz1) = bond_price_grad(&r, &cf, &t, z);
    for (g, e) in dr.iter().zip(&dr1) {
        assert_relative_eq!(*g, 1e-4 * e, epsilon = 1e-18, max_relative = 1e-15);
    }
    assert_relative_eq!(dz, 1e-4 * dz1, epsilon = 1e-18, max_relative = 1e-15);
}

/// Three-way agreement at a 5-point curve: the dynamic graph of the runtime
/// computes the same price and the same adjoints.
#[test]
fn bond_price_agrees_with_dynamic_graph() {
    let r = [0.01, 0.015, 0.02, 0.022, 0.025];
    let cf = [3.0, 3.0, 3.0, 3.0, 103.0];
    let t = [1.0, 2.0, 3.0, 4.0, 5.0];
    let z = 0.001;
    let mut g = Graph::new();
    let zn = g.input(z);
    let mut rn = Vec::new();
    let mut p = None;
    for i in 0..5 {
        let ri = g.input(r[i]);
        rn.push(ri);
        let ti = g.input(-t[i]);
        let ci = g.input(cf[i]);
        let s = g.add(ri, zn).unwrap();
        let e = g.mul(s, ti).unwrap();
        let e = g.exp(e).unwrap();
        let term = g.mul(ci, e).unwrap();
        p = Some(match p {
            None => term,
            Some(acc) => g.add(acc, term).unwrap(),
        });
    }
    let p = p.unwrap();
    let grads = g.backward(p).unwrap();
    let (value, dr, dz) = bond_price_grad(&r, &cf, &t, z);
    let gv = g.value(p).unwrap().as_scalar().unwrap();
    // Same math, possibly different association: 1e-14 relative.
    assert_relative_eq!(value, gv, epsilon = 1e-13, max_relative = 1e-14);
    for i in 0..5 {
        let gi = grads.scalar(rn[i]).unwrap();
        assert_relative_eq!(dr[i], gi, epsilon = 1e-13, max_relative = 1e-14);
    }
    assert_relative_eq!(
        dz,
        grads.scalar(zn).unwrap(),
        epsilon = 1e-13,
        max_relative = 1e-14
    );
}

/// The same price with `&Vec<f64>` arguments, data `#[constant]`, and
/// the loop bound from a constant slice's `len()`.
#[allow(clippy::ptr_arg)]
#[differentiable]
fn bond_price_vec(
    r: &Vec<f64>,
    #[constant] cf: &Vec<f64>,
    #[constant] t: &Vec<f64>,
    z: f64,
) -> f64 {
    let mut p = 0.0;
    for i in 0..t.len() {
        let df = (-(r[i] + z) * t[i]).exp();
        p += cf[i] * df;
    }
    p
}

#[test]
fn bond_price_vec_arguments_match_slice_version() {
    let (r, cf, t, z) = bond_data();
    let (v1, dr1, dz1) = bond_price_vec_grad(&r, &cf, &t, z);
    assert_eq!(v1.to_bits(), bond_price_vec(&r, &cf, &t, z).to_bits());
    for i in 0..60 {
        let e = -t[i] * cf[i] * (-(r[i] + z) * t[i]).exp();
        assert_relative_eq!(dr1[i], e, epsilon = 1e-13, max_relative = 1e-13);
    }
    let sum: f64 = (0..60)
        .map(|i| -t[i] * cf[i] * (-(r[i] + z) * t[i]).exp())
        .sum();
    assert_relative_eq!(dz1, sum, epsilon = 1e-12, max_relative = 1e-13);
}

#[differentiable]
fn bond_price_f32(r: &[f32], #[constant] cf: &[f32], #[constant] t: &[f32], z: f32) -> f32 {
    let mut p = 0.0;
    for i in 0..r.len() {
        p += cf[i] * (-(r[i] + z) * t[i]).exp();
    }
    p
}

#[test]
fn bond_price_f32_closed_form() {
    let (r, cf, t, z) = bond_data();
    let r32: Vec<f32> = r.iter().map(|&v| v as f32).collect();
    let cf32: Vec<f32> = cf.iter().map(|&v| v as f32).collect();
    let t32: Vec<f32> = t.iter().map(|&v| v as f32).collect();
    let (value, dr, dz) = bond_price_f32_grad(&r32, &cf32, &t32, z as f32);
    assert_eq!(
        value.to_bits(),
        bond_price_f32(&r32, &cf32, &t32, z as f32).to_bits()
    );
    // Closed form in f64 at the f32-rounded inputs; f32 keeps ~1e-6
    // relative per term and |∂P/∂z| ≈ 1e3 sums 60 terms: 1e-4 relative.
    let mut sum = 0.0;
    for i in 0..60 {
        let (ri, ci, ti) = (f64::from(r32[i]), f64::from(cf32[i]), f64::from(t32[i]));
        let e = -ti * ci * (-(ri + f64::from(z as f32)) * ti).exp();
        sum += e;
        assert_relative_eq!(f64::from(dr[i]), e, epsilon = 1e-4, max_relative = 1e-5);
    }
    assert_relative_eq!(f64::from(dz), sum, epsilon = 1e-3, max_relative = 1e-4);
}

// ---------------------------------------------------------------------------
// Log-sum-exp with the max found in a first loop: the gradient is softmax.

#[differentiable]
fn log_sum_exp(x: &[f64]) -> f64 {
    let n = x.len();
    let mut m = x[0];
    for i in 1..n {
        if x[i] > m {
            m = x[i];
        }
    }
    let mut s = 0.0;
    for i in 0..n {
        s += (x[i] - m).exp();
    }
    m + s.ln()
}

fn softmax(x: &[f64]) -> Vec<f64> {
    let m = x.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let e: Vec<f64> = x.iter().map(|v| (v - m).exp()).collect();
    let s: f64 = e.iter().sum();
    e.iter().map(|v| v / s).collect()
}

#[test]
fn log_sum_exp_gradient_is_softmax() {
    for x in [
        vec![0.0],
        vec![1.0, 2.0, 3.0],
        vec![3.0, 2.0, 1.0],
        vec![-1.0, 5.0, 0.5, 4.5, -3.0],
        vec![0.5, 0.5, 0.25],
    ] {
        let (value, dx) = log_sum_exp_grad(&x);
        assert_eq!(value.to_bits(), log_sum_exp(&x).to_bits());
        let naive: f64 = x.iter().map(|v| v.exp()).sum::<f64>().ln();
        assert_relative_eq!(value, naive, epsilon = 1e-15, max_relative = 1e-15);
        let sm = softmax(&x);
        for (g, e) in dx.iter().zip(&sm) {
            // The max's path contributes 1 − Σ softmax = 0 up to round-off.
            assert_abs_diff_eq!(*g, *e, epsilon = 1e-15);
        }
        assert_abs_diff_eq!(dx.iter().sum::<f64>(), 1.0, epsilon = 1e-14);
    }
}

#[test]
fn log_sum_exp_is_stable_for_large_inputs() {
    // exp(1000) overflows; the max-shifted form does not.
    let x = [1000.0, 999.0, 998.0];
    let (value, dx) = log_sum_exp_grad(&x);
    assert!(value.is_finite());
    let expected = 1000.0 + (1.0 + (-1.0f64).exp() + (-2.0f64).exp()).ln();
    assert_relative_eq!(value, expected, epsilon = 1e-12, max_relative = 1e-15);
    for (g, e) in dx.iter().zip(&softmax(&x)) {
        assert_abs_diff_eq!(*g, *e, epsilon = 1e-15);
    }
    // And the same far below zero, where exp underflows.
    let y = [-1000.0, -1001.5, -999.25];
    let (_, dy) = log_sum_exp_grad(&y);
    for (g, e) in dy.iter().zip(&softmax(&y)) {
        assert_abs_diff_eq!(*g, *e, epsilon = 1e-15);
    }
}

#[differentiable]
fn log_sum_exp_f32(x: &[f32]) -> f32 {
    let n = x.len();
    let mut m = x[0];
    for i in 1..n {
        if x[i] > m {
            m = x[i];
        }
    }
    let mut s = 0.0;
    for i in 0..n {
        s += (x[i] - m).exp();
    }
    m + s.ln()
}

#[test]
fn log_sum_exp_f32_is_softmax() {
    let x = [0.5_f32, -1.0, 2.0, 1.5];
    let (value, dx) = log_sum_exp_f32_grad(&x);
    assert_eq!(value.to_bits(), log_sum_exp_f32(&x).to_bits());
    let x64: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    for (g, e) in dx.iter().zip(&softmax(&x64)) {
        assert_abs_diff_eq!(f64::from(*g), *e, epsilon = 1e-6);
    }
}

/// A constant weight slice and the differentiable slice both indexed with
/// `len() − 1 − i`, plus a scalar read before and after the loop.
#[differentiable]
fn weighted_tail(x: &[f64], #[constant] w: &[f64], s: f64) -> f64 {
    let n = x.len();
    let mut acc = s * x[0];
    for i in 0..n {
        acc += w[n - 1 - i] * x[i] * x[i];
    }
    acc * x[n - 1]
}

#[test]
fn constant_slice_gets_no_slot() {
    let x = [1.0, 2.0, -1.0, 0.5];
    let w = [0.1, 0.2, 0.3, 0.4];
    let s = 1.5;
    let (value, dx, ds) = weighted_tail_grad(&x, &w, s);
    assert_eq!(value.to_bits(), weighted_tail(&x, &w, s).to_bits());
    let n = x.len();
    let q: f64 = s * x[0] + (0..n).map(|i| w[n - 1 - i] * x[i] * x[i]).sum::<f64>();
    let last = x[n - 1];
    let mut expected: Vec<f64> = (0..n).map(|i| 2.0 * w[n - 1 - i] * x[i] * last).collect();
    expected[0] += s * last;
    expected[n - 1] += q;
    for (g, e) in dx.iter().zip(&expected) {
        assert_relative_eq!(*g, *e, epsilon = 1e-15, max_relative = 1e-14);
    }
    assert_relative_eq!(ds, x[0] * last, epsilon = 1e-15, max_relative = 1e-15);
}

// ---------------------------------------------------------------------------
// Property tests.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn prop_bond_price(
        r in prop::collection::vec(-0.01f64..0.08, 1..61),
        z in -0.005f64..0.02,
    ) {
        let n = r.len();
        let t: Vec<f64> = (1..=n).map(|k| 0.5 * k as f64).collect();
        let cf: Vec<f64> = (1..=n).map(|k| if k == n { 101.5 } else { 1.5 }).collect();
        let (value, dr, dz) = bond_price_grad(&r, &cf, &t, z);
        prop_assert_eq!(value.to_bits(), bond_price(&r, &cf, &t, z).to_bits());
        let mut sum = 0.0;
        for i in 0..n {
            let e = -t[i] * cf[i] * (-(r[i] + z) * t[i]).exp();
            sum += e;
            prop_assert!((dr[i] - e).abs() <= 1e-13 * e.abs().max(1.0), "{} vs {}", dr[i], e);
        }
        prop_assert!((dz - sum).abs() <= 1e-12 * sum.abs().max(1.0), "{} vs {}", dz, sum);
        // FD against the primal: smooth, h ≈ 6e-6, values ≤ ~150: 1e-7 rel.
        let fdz = central_difference(|z: f64| bond_price(&r, &cf, &t, z), z);
        prop_assert!((dz - fdz).abs() <= 1e-7 * fdz.abs().max(1.0), "{} vs fd {}", dz, fdz);
        let fd = fd_slice(|r| bond_price(r, &cf, &t, z), &r);
        for (g, e) in dr.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-7 * e.abs().max(1.0), "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_log_sum_exp(x in prop::collection::vec(-20.0f64..20.0, 1..16)) {
        // Ties for the max are a kink of the selection (not of LSE itself);
        // the gradient stays the softmax either way, so no filtering needed.
        let (value, dx) = log_sum_exp_grad(&x);
        prop_assert_eq!(value.to_bits(), log_sum_exp(&x).to_bits());
        for (g, e) in dx.iter().zip(&softmax(&x)) {
            prop_assert!((g - e).abs() <= 1e-14, "{} vs softmax {}", g, e);
        }
        // FD of the primal: LSE is smooth everywhere (h ≈ 6e-6·max(1,|x|),
        // |f| ≤ 23): 1e-8 absolute.
        let fd = fd_slice(log_sum_exp, &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8, "{} vs fd {}", g, e);
        }
    }

    #[test]
    fn prop_weighted_tail(
        x in prop::collection::vec(-2.0f64..2.0, 1..10),
        wseed in prop::collection::vec(-1.0f64..1.0, 10),
        s in -2.0f64..2.0,
    ) {
        let w = &wseed[..x.len()];
        let (value, dx, ds) = weighted_tail_grad(&x, w, s);
        prop_assert_eq!(value.to_bits(), weighted_tail(&x, w, s).to_bits());
        let fd = fd_slice(|x| weighted_tail(x, w, s), &x);
        for (g, e) in dx.iter().zip(&fd) {
            prop_assert!((g - e).abs() <= 1e-8 + 1e-7 * e.abs(), "{} vs fd {}", g, e);
        }
        let fds = central_difference(|s: f64| weighted_tail(&x, w, s), s);
        prop_assert!((ds - fds).abs() <= 1e-8 + 1e-7 * fds.abs(), "{} vs fd {}", ds, fds);
    }
}

// ---------------------------------------------------------------------------
// Stencils: reads at the loop index plus constants (`x[i - 1]`, `x[i]`,
// `x[i + 1]`). The reverse sweep keeps those elements' adjoints in locals
// and writes each element once; these check every shape of that window.

/// A three-point second difference: offsets −1, 0, +1.
#[differentiable]
fn second_difference(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() - 1 {
        let d = x[i - 1] - 2.0 * x[i] + x[i + 1];
        s += d * d;
    }
    s
}

/// The same in `f32`: the pending adjoints take the element type.
#[differentiable]
fn second_difference_f32(x: &[f32]) -> f32 {
    let mut s = 0.0;
    for i in 1..x.len() - 1 {
        let d = x[i - 1] - 2.0 * x[i] + x[i + 1];
        s += d * d;
    }
    s
}

/// Two reads at one offset, a gap in the offsets (0 and 2), two slices
/// and an inclusive range.
#[differentiable]
fn gapped(x: &[f64], y: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..=x.len() - 3 {
        let a = x[i + 2] * y[i];
        let b = x[i] * (x[i + 2]).sin();
        s += a * b + y[i + 1];
    }
    s
}

/// A window starting past 0 that may not run at all (`2..len - 1`): no
/// element is touched then.
#[differentiable]
fn maybe_empty(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 2..x.len() - 1 {
        s += x[i - 2] * x[i + 1];
    }
    s
}

/// A stencil loop inside another loop, with a loop-carried product.
#[differentiable]
fn nested_stencil(x: &[f64], m: usize) -> f64 {
    let mut s = 1.0;
    for _ in 0..m {
        for i in 0..x.len() - 1 {
            s *= 1.0 + 0.1 * (x[i + 1] - x[i]);
        }
    }
    s
}

/// The hand-written gradient of `second_difference`.
fn second_difference_hand(x: &[f64]) -> Vec<f64> {
    let mut g = vec![0.0; x.len()];
    for i in 1..x.len() - 1 {
        let d = x[i - 1] - 2.0 * x[i] + x[i + 1];
        g[i - 1] += 2.0 * d;
        g[i] -= 4.0 * d;
        g[i + 1] += 2.0 * d;
    }
    g
}

#[test]
fn stencil_three_point_matches_hand_written() {
    let x: Vec<f64> = (0..9).map(|k| (k as f64 * 0.7).sin()).collect();
    let (value, dx) = second_difference_grad(&x);
    assert_eq!(value.to_bits(), second_difference(&x).to_bits());
    // Reassociated sums of three terms of size ≤ 16: 1e-14 absolute.
    for (g, e) in dx.iter().zip(&second_difference_hand(&x)) {
        assert_abs_diff_eq!(g, e, epsilon = 1e-14);
    }
    // The shortest input the loop runs on, and one it does not run on.
    let (_, d3) = second_difference_grad(&[1.0, 3.0, 2.0]);
    assert_eq!(d3, second_difference_hand(&[1.0, 3.0, 2.0]));
    let (v2, d2) = second_difference_grad(&[1.0, 3.0]);
    assert_eq!((v2, d2), (0.0, vec![0.0, 0.0]));
}

#[test]
fn stencil_f32_matches_f64() {
    let x: Vec<f64> = (0..7).map(|k| (k as f64 * 0.3).cos()).collect();
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let (value, dx) = second_difference_f32_grad(&x32);
    assert_eq!(value.to_bits(), second_difference_f32(&x32).to_bits());
    let exact = second_difference_hand(&x32.iter().map(|&v| f64::from(v)).collect::<Vec<_>>());
    // f32 arithmetic on terms of size ≤ 16: 1e-5 absolute.
    for (g, e) in dx.iter().zip(&exact) {
        assert_abs_diff_eq!(f64::from(*g), e, epsilon = 1e-5);
    }
}

#[test]
fn stencil_empty_window_touches_nothing() {
    // 2..2 and 2..1: the loop does not run; no element may be written
    // (index 2 is out of bounds for the shorter input).
    for x in [vec![0.5, 1.5], vec![0.5, 1.5, 2.5]] {
        let (value, dx) = maybe_empty_grad(&x);
        assert_eq!(value, 0.0);
        assert_eq!(dx, vec![0.0; x.len()]);
    }
    let x = [0.5, -1.0, 2.0, 0.25, 3.0];
    let (_, dx) = maybe_empty_grad(&x);
    // s = x0·x3 + x1·x4: exact products.
    assert_eq!(dx, vec![0.25, 3.0, 0.0, 0.5, -1.0]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn prop_stencils_match_finite_differences(
        x in prop::collection::vec(-1.5f64..1.5, 3..12),
        yseed in prop::collection::vec(-1.5f64..1.5, 12),
        m in 0usize..3,
    ) {
        let y = &yseed[..x.len()];
        // Smooth functions of inputs and values of order 1–100; central
        // differences agree to about 1e-7 relative.
        let close = |g: f64, e: f64| (g - e).abs() <= 1e-7 + 1e-6 * e.abs();

        let (value, dx) = second_difference_grad(&x);
        prop_assert_eq!(value.to_bits(), second_difference(&x).to_bits());
        for (g, e) in dx.iter().zip(&second_difference_hand(&x)) {
            prop_assert!((g - e).abs() <= 1e-13, "{} vs hand {}", g, e);
        }

        let (value, dx, dy) = gapped_grad(&x, y);
        prop_assert_eq!(value.to_bits(), gapped(&x, y).to_bits());
        for (g, e) in dx.iter().zip(&fd_slice(|x| gapped(x, y), &x)) {
            prop_assert!(close(*g, *e), "dx {} vs fd {}", g, e);
        }
        for (g, e) in dy.iter().zip(&fd_slice(|y| gapped(&x, y), y)) {
            prop_assert!(close(*g, *e), "dy {} vs fd {}", g, e);
        }

        let (value, dx) = maybe_empty_grad(&x);
        prop_assert_eq!(value.to_bits(), maybe_empty(&x).to_bits());
        for (g, e) in dx.iter().zip(&fd_slice(maybe_empty, &x)) {
            prop_assert!(close(*g, *e), "dx {} vs fd {}", g, e);
        }

        let (value, dx) = nested_stencil_grad(&x, m);
        prop_assert_eq!(value.to_bits(), nested_stencil(&x, m).to_bits());
        for (g, e) in dx.iter().zip(&fd_slice(|x| nested_stencil(x, m), &x)) {
            prop_assert!(close(*g, *e), "dx {} vs fd {}", g, e);
        }
    }
}
