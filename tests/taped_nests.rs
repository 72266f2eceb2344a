//! Loop nests whose inner loops are taped: the forward sweep records them
//! for every iteration of the nest and the enclosing loops' reverse pops
//! those records instead of running them again (see the analysis's
//! `taped` loops). Gradients are checked against five-point central
//! differences of the primal (`fd_support`, tolerance `FD64_*`), values
//! against the primal bit for bit.

#![allow(clippy::needless_range_loop)]

#[path = "fd_support/mod.rs"]
mod fd_support;

use autograd::differentiable;
use fd_support::*;

#[differentiable]
fn gate(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// A recurrent cell updated in place, layer after layer, step after step
/// (LSTM's shape): three taped levels, a helper call and `tanh` in the
/// innermost, a `Vec` state whose elements the cells read before and
/// after writing them, and a log-sum-exp read of the state each step.
#[differentiable]
fn recurrent(w: &[f64], #[constant] xs: &[f64], layers: usize, width: usize) -> f64 {
    let mut state = vec![0.1; layers * width];
    let mut total = 0.0;
    for t in 0..xs.len() {
        for layer in 0..layers {
            let base = layer * width;
            for i in 0..width {
                let input = if layer == 0 {
                    xs[t] * w[i]
                } else {
                    state[base - width + i]
                };
                let g = gate(input * w[width + i] + state[base + i]);
                state[base + i] = g * (input + state[base + i] * w[2 * width + i]).tanh();
            }
        }
        let mut sum = 0.0;
        for i in 0..width {
            sum += (state[(layers - 1) * width + i] * w[3 * width + i]).exp();
        }
        total += sum.ln();
    }
    total
}

#[test]
fn a_recurrent_nest_has_the_central_differences_gradient() {
    let xs = [0.3, -0.7, 1.1, 0.2, -0.4];
    for (layers, width) in [(1, 2), (2, 3), (3, 2)] {
        let w: Vec<f64> = (0..4 * width).map(|k| 0.9 - 0.17 * k as f64).collect();
        let (value, dw) = recurrent_grad(&w, &xs, layers, width);
        assert_eq!(value, recurrent(&w, &xs, layers, width));
        let want = fd64_slice(|w| recurrent(w, &xs, layers, width), &w);
        assert_all_fd64_close(&format!("recurrent l={layers} b={width}"), &dw, &want);
        // Twice through one pullback's buffers: the taped stacks are
        // emptied by each reverse sweep.
        let mut acc = vec![0.0; w.len()];
        for _ in 0..2 {
            acc.fill(0.0);
            let v = recurrent_grad_acc(&w, &xs, layers, width, &mut acc);
            assert_eq!(v, value);
            assert_all_fd64_close("recurrent, _grad_acc", &acc, &want);
        }
    }
}

/// A `while` loop around a taped `for` loop whose inner trip count
/// changes from one iteration to the next (the tape of each run has its
/// own length), its `exp`s cached for the nest.
#[differentiable]
fn uneven(x: f64, #[constant] n: usize) -> f64 {
    let mut s = 0.0;
    let mut k = 0;
    while k < n {
        let mut t = 0.0;
        for j in 0..(k % 3) + 1 {
            t += (x * (j + k) as f64 * 0.1 + s * 0.01).exp();
        }
        s += t.sqrt();
        k += 1;
    }
    s
}

#[test]
fn a_while_loop_around_a_taped_loop_has_the_central_differences_gradient() {
    for &x in LINE64 {
        let (value, dx) = uneven_grad(x, 7);
        assert_eq!(value, uneven(x, 7));
        assert_fd64_close("uneven", dx, fd64(|x| uneven(x, 7), x));
    }
}
