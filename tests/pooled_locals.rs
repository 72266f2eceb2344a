//! A `NAME_grad_acc` whose body builds local `Vec`s and carries them
//! through loops gives every buffer it owns back to the thread's pool when
//! its sweeps are done, and takes them again on the next call: after a
//! warm-up call it allocates nothing. A buffer given back is never read
//! again: interleaved calls of two functions whose buffers have the same
//! sizes, and pullbacks called after later calls, keep their gradients
//! (closed forms).

// A `#[differentiable]` body indexes slices in `for i in a..b` loops.
#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

mod alloc_support;

/// Σᵢ |xᵢ| ‖w‖, through a local `Vec` of k terms rewritten per point and a
/// loop summing their squares.
#[differentiable]
fn spread(x: &[f64], w: &[f64], k: usize) -> f64 {
    let mut t = vec![0.0; k];
    let mut total = 0.0;
    for i in 0..x.len() {
        for j in 0..k {
            t[j] = w[j] * x[i];
        }
        let mut m = 0.0;
        for j in 0..k {
            m += t[j] * t[j];
        }
        total += m.sqrt();
    }
    total
}

/// Σᵢ (Σⱼ wⱼ xᵢ)², with a local `Vec` of the same length as [`spread`]'s:
/// the two take the same blocks from the pool.
#[differentiable]
fn sum_squares(x: &[f64], w: &[f64], k: usize) -> f64 {
    let mut t = vec![0.0; k];
    let mut total = 0.0;
    for i in 0..x.len() {
        for j in 0..k {
            t[j] = w[j] * x[i];
        }
        let mut s = 0.0;
        for j in 0..k {
            s += t[j];
        }
        total += s * s;
    }
    total
}

fn norm(w: &[f64]) -> f64 {
    w.iter().map(|v| v * v).sum::<f64>().sqrt()
}

/// [`spread`]'s gradient in closed form: |xᵢ|' ‖w‖ and Σᵢ |xᵢ| wⱼ / ‖w‖.
fn spread_closed(x: &[f64], w: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let n = norm(w);
    let dx = x.iter().map(|v| v.signum() * n).collect();
    let a: f64 = x.iter().map(|v| v.abs()).sum();
    let dw = w.iter().map(|v| a * v / n).collect();
    (dx, dw)
}

/// [`sum_squares`]'s gradient in closed form, with S = Σⱼ wⱼ: 2 xᵢ S² and
/// 2 S Σᵢ xᵢ².
fn sum_squares_closed(x: &[f64], w: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let s: f64 = w.iter().sum();
    let dx = x.iter().map(|v| 2.0 * v * s * s).collect();
    let q: f64 = x.iter().map(|v| v * v).sum();
    let dw = w.iter().map(|_| 2.0 * s * q).collect();
    (dx, dw)
}

fn assert_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        // Closed forms against the sweep's sums of the same terms in
        // another order: a few ulps of the largest term.
        assert!(
            (g - w).abs() <= 1e-12 * (1.0 + w.abs()),
            "{what}[{i}]: {g} against the closed form {w}"
        );
    }
}

fn inputs(n: usize, k: usize, shift: f64) -> (Vec<f64>, Vec<f64>) {
    let x = (0..n).map(|i| (i as f64 + shift + 0.25).sin()).collect();
    let w = (0..k)
        .map(|j| 0.5 + 0.25 * (j as f64 + shift).cos())
        .collect();
    (x, w)
}

#[test]
fn grad_acc_allocates_nothing_after_a_warm_up_call() {
    for (n, k) in [(7, 3), (40, 16), (5, 100)] {
        // A thread of its own: its pool starts empty, so the count is not
        // what earlier tests left there.
        let count = std::thread::spawn(move || {
            let (x, w) = inputs(n, k, 0.3);
            let (mut dx, mut dw) = (vec![0.0; n], vec![0.0; k]);
            spread_grad_acc(&x, &w, k, &mut dx, &mut dw);
            let (_, count) = alloc_support::allocations_during(|| {
                std::hint::black_box(spread_grad_acc(
                    std::hint::black_box(&x),
                    &w,
                    k,
                    &mut dx,
                    &mut dw,
                ))
            });
            // Two calls added into the buffers.
            let (cx, cw) = spread_closed(&x, &w);
            let twice = |v: Vec<f64>| v.iter().map(|g| 2.0 * g).collect::<Vec<_>>();
            assert_close("d_x", &dx, &twice(cx));
            assert_close("d_w", &dw, &twice(cw));
            count
        })
        .join()
        .expect("the calls do not panic");
        assert_eq!(
            count, 0,
            "spread_grad_acc at n = {n}, k = {k}: {count} allocations"
        );
    }
}

#[test]
fn interleaved_calls_keep_their_gradients() {
    let k = 6;
    for round in 0..4 {
        let shift = round as f64;
        let (x1, w1) = inputs(9, k, shift);
        let (x2, w2) = inputs(9, k, shift + 0.5);
        // `_grad_acc` of one function, then the other, on the buffers the
        // first gave back, then the first again.
        let (mut a_x, mut a_w) = (vec![0.0; 9], vec![0.0; k]);
        let (mut b_x, mut b_w) = (vec![0.0; 9], vec![0.0; k]);
        let va = spread_grad_acc(&x1, &w1, k, &mut a_x, &mut a_w);
        let vb = sum_squares_grad_acc(&x2, &w2, k, &mut b_x, &mut b_w);
        assert_eq!(va.to_bits(), spread(&x1, &w1, k).to_bits());
        assert_eq!(vb.to_bits(), sum_squares(&x2, &w2, k).to_bits());
        let (cx, cw) = spread_closed(&x1, &w1);
        assert_close("spread d_x", &a_x, &cx);
        assert_close("spread d_w", &a_w, &cw);
        let (cx, cw) = sum_squares_closed(&x2, &w2);
        assert_close("sum_squares d_x", &b_x, &cx);
        assert_close("sum_squares d_w", &b_w, &cw);
        // `_grad` returns its adjoints: they are the caller's, not the
        // pool's, and stay right after more calls.
        let (_, gx, gw) = spread_grad(&x2, &w2, k);
        let (_, hx, hw) = sum_squares_grad(&x1, &w1, k);
        spread_grad_acc(&x1, &w1, k, &mut a_x, &mut a_w);
        let (cx, cw) = spread_closed(&x2, &w2);
        assert_close("spread_grad d_x", &gx, &cx);
        assert_close("spread_grad d_w", &gw, &cw);
        let (cx, cw) = sum_squares_closed(&x1, &w1);
        assert_close("sum_squares_grad d_x", &hx, &cx);
        assert_close("sum_squares_grad d_w", &hw, &cw);
    }
}

#[test]
fn pullbacks_called_after_other_calls_keep_their_gradients() {
    let k = 5;
    let (x1, w1) = inputs(8, k, 0.1);
    let (x2, w2) = inputs(8, k, 1.7);
    let (v1, pb1) = spread_vjp(&x1, &w1, k);
    let (v2, pb2) = sum_squares_vjp(&x2, &w2, k);
    // Other calls between, taking and giving back the same sizes.
    let (mut dx, mut dw) = (vec![0.0; 8], vec![0.0; k]);
    for _ in 0..3 {
        spread_grad_acc(&x2, &w2, k, &mut dx, &mut dw);
        sum_squares_grad_acc(&x1, &w1, k, &mut dx, &mut dw);
    }
    let (v3, pb3) = spread_vjp(&x2, &w2, k);
    assert_eq!(v1.to_bits(), spread(&x1, &w1, k).to_bits());
    assert_eq!(v2.to_bits(), sum_squares(&x2, &w2, k).to_bits());
    assert_eq!(v3.to_bits(), spread(&x2, &w2, k).to_bits());
    // Called in the reverse order of their creation, with seeds.
    let (d3x, d3w) = pb3(2.0);
    let (d2x, d2w) = pb2(-1.0);
    let (d1x, d1w) = pb1(0.5);
    let scaled = |v: Vec<f64>, s: f64| v.iter().map(|g| s * g).collect::<Vec<_>>();
    let (cx, cw) = spread_closed(&x2, &w2);
    assert_close("pb3 d_x", &d3x, &scaled(cx, 2.0));
    assert_close("pb3 d_w", &d3w, &scaled(cw, 2.0));
    let (cx, cw) = sum_squares_closed(&x2, &w2);
    assert_close("pb2 d_x", &d2x, &scaled(cx, -1.0));
    assert_close("pb2 d_w", &d2w, &scaled(cw, -1.0));
    let (cx, cw) = spread_closed(&x1, &w1);
    assert_close("pb1 d_x", &d1x, &scaled(cx, 0.5));
    assert_close("pb1 d_w", &d1w, &scaled(cw, 0.5));
}
