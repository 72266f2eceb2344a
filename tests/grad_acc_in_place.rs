//! `NAME_grad_acc` adds into the caller's buffers in place: a slice
//! argument's adjoint is the caller's buffer itself, so every contribution
//! the sweeps make must add (a loop writing an element once with `=`, as
//! a pooled adjoint starting at zero allows, would overwrite what the
//! caller had). Each function is called twice into buffers that do not
//! start at zero, and each buffer must hold its start plus twice the
//! gradient, against five-point central differences of the primal
//! (`fd_support`: `FD64_ABS` absolute or `FD64_REL` relative; `f32` with
//! `FD32_*`). The value returned is the primal's, bit for bit.

// `#[differentiable]` bodies index slices in `for i in a..b` loops.
#![allow(clippy::needless_range_loop)]

use autograd::{Tangent, differentiable};
use nalgebra::DMatrix;

mod fd_support;
use fd_support::{FD32_ABS, FD32_REL, FD64_ABS, FD64_REL, fd32, fd64};

/// Central differences of `f` in each component of `x`.
fn fd_slice(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            fd64(
                |xi| {
                    let mut y = x.to_vec();
                    y[i] = xi;
                    f(&y)
                },
                x[i],
            )
        })
        .collect()
}

fn assert_close(what: &str, got: f64, want: f64) {
    let err = (got - want).abs();
    assert!(
        err <= FD64_ABS || err <= FD64_REL * want.abs(),
        "{what}: {got}, expected {want}"
    );
}

/// What a buffer starting at `start` holds after two calls adding `grad`.
fn twice(start: &[f64], grad: &[f64]) -> Vec<f64> {
    start.iter().zip(grad).map(|(s, g)| s + 2.0 * g).collect()
}

fn assert_all_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_close(&format!("{what}[{i}]"), *g, *w);
    }
}

/// Points with every component different.
fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.3 + 0.17 * i as f64 - 0.05 * (i * i % 7) as f64)
        .collect()
}

/// A buffer that does not start at zero.
fn start(n: usize) -> Vec<f64> {
    (0..n).map(|i| 1.5 - 0.25 * i as f64).collect()
}

/// Checks `$acc` (a function of one slice, `_grad_acc`-shaped) against
/// central differences of `$f`, twice into a non-zero buffer, at several
/// lengths.
macro_rules! check_slice_acc {
    ($f:ident, $acc:ident, $lens:expr) => {
        for n in $lens {
            let x = point(n);
            let b0 = start(n);
            let mut b = b0.clone();
            assert_eq!(
                $acc(&x, &mut b),
                $f(&x),
                "{} value, n = {n}",
                stringify!($f)
            );
            assert_eq!($acc(&x, &mut b), $f(&x));
            let want = twice(&b0, &fd_slice(|y| $f(y), &x));
            assert_all_close(&format!("{} n = {n}", stringify!($f)), &b, &want);
        }
    };
}

/// A fused loop (a running sum) returning its accumulator: the buffer is
/// the loop's unit adjoint, added into as the forward sweep runs, and the
/// window of `x[i]`, `x[i + 1]` adds each element once.
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
fn a_fused_loop_adds_into_the_buffer_as_it_runs() {
    check_slice_acc!(rosenbrock, rosenbrock_grad_acc, [2, 3, 10, 13]);
}

/// A three-point window, read at `i - 1`, `i`, `i + 1`.
#[differentiable]
fn stencil(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 1..x.len() - 1 {
        let d = x[i - 1] - 2.0 * x[i] + x[i + 1];
        s += d * d;
    }
    s
}

#[test]
fn a_fused_stencil_adds_each_element() {
    check_slice_acc!(stencil, stencil_grad_acc, [3, 4, 17]);
}

/// A fused loop whose accumulator is not the result: its adjoint is not
/// one, so the unit adjoint is scaled before it is added in.
#[differentiable]
fn log_sum_sq(x: &[f64]) -> f64 {
    let mut s = 1.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    s.ln() * 3.0
}

#[test]
fn a_fused_loop_with_a_scaled_accumulator() {
    check_slice_acc!(log_sum_sq, log_sum_sq_grad_acc, [1, 5, 40]);
}

/// The accumulator is returned, and read once more before.
#[differentiable]
fn sum_and_square(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i].sin();
    }
    s * s
}

#[test]
fn a_fused_accumulator_read_twice() {
    check_slice_acc!(sum_and_square, sum_and_square_grad_acc, [1, 6]);
}

/// The slice is also read outside the fused loop.
#[differentiable]
fn read_outside(x: &[f64]) -> f64 {
    let mut s = 3.0 * x[0] * x[1];
    for i in 0..x.len() {
        s += (0.5 * x[i]).exp();
    }
    s
}

#[test]
fn a_fused_loop_and_other_reads() {
    check_slice_acc!(read_outside, read_outside_grad_acc, [2, 9]);
}

/// A loop that carries a product (two passes, a stack).
#[differentiable]
fn product(x: &[f64], y: f64) -> f64 {
    let mut p = 1.0;
    for i in 0..x.len() {
        p *= 1.0 + y * x[i] * x[i];
    }
    p
}

#[test]
fn a_two_pass_loop_and_a_scalar_buffer() {
    for n in [1, 4, 12] {
        let (x, y) = (point(n), 0.7);
        let b0 = start(n);
        let (mut b, mut dy) = (b0.clone(), -4.0);
        assert_eq!(product_grad_acc(&x, y, &mut b, &mut dy), product(&x, y));
        product_grad_acc(&x, y, &mut b, &mut dy);
        let want = twice(&b0, &fd_slice(|v| product(v, y), &x));
        assert_all_close("product dx", &b, &want);
        assert_close("product dy", dy, -4.0 + 2.0 * fd64(|v| product(&x, v), y));
    }
}

/// Branches in a loop, and a `while` loop.
#[differentiable]
fn branches_and_while(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        if x[i] > 0.5 {
            s = s * 0.9 + x[i].sqrt();
        } else {
            s = s * 1.1 - x[i] * x[i];
        }
    }
    let mut k = 0;
    while k < x.len() {
        s *= x[k].cos();
        k += 2;
    }
    s
}

#[test]
fn branches_and_a_while_loop() {
    check_slice_acc!(branches_and_while, branches_and_while_grad_acc, [1, 7, 20]);
}

/// A two-pass loop with a window (`x[i]`, `x[i + 1]`) in its reverse.
#[differentiable]
fn chain(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        s = (s + x[i] * x[i + 1]).tanh();
    }
    s
}

#[test]
fn a_reversed_window_adds() {
    check_slice_acc!(chain, chain_grad_acc, [2, 3, 30]);
}

/// A checkpointed loop: segments re-run and reversed in the pullback.
#[differentiable]
fn checkpointed(x: &[f64]) -> f64 {
    let mut s = 0.5;
    #[checkpoint(snapshots = 3)]
    for i in 0..x.len() {
        s = 0.5 * (s * x[i]).sin() + 0.8 * s;
    }
    s
}

#[test]
fn a_checkpointed_loop_adds() {
    check_slice_acc!(checkpointed, checkpointed_grad_acc, [1, 10, 16]);
}

/// A callee's adjoint of a slice is added into the caller's buffer.
#[differentiable]
fn norm_sq(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i] * v[i];
    }
    s
}

#[differentiable]
fn calls(x: &[f64], w: f64) -> f64 {
    let a = norm_sq(x);
    let mut t = 0.0;
    for i in 0..x.len() {
        t += w * x[i];
    }
    (a * w).sin() + norm_sq(x) * t
}

#[test]
fn a_callee_adds_into_the_buffer() {
    for n in [1, 5] {
        let (x, w) = (point(n), 0.4);
        let b0 = start(n);
        let (mut b, mut dw) = (b0.clone(), 2.0);
        assert_eq!(calls_grad_acc(&x, w, &mut b, &mut dw), calls(&x, w));
        calls_grad_acc(&x, w, &mut b, &mut dw);
        let want = twice(&b0, &fd_slice(|v| calls(v, w), &x));
        assert_all_close("calls dx", &b, &want);
        assert_close("calls dw", dw, 2.0 + 2.0 * fd64(|v| calls(&x, v), w));
    }
}

/// Generic over the scalar: `f64` and `f32` buffers.
#[differentiable]
fn generic<T: num_traits::Float>(x: &[T], c: T) -> T {
    let mut s = c;
    for i in 0..x.len() {
        s = s + (x[i] * c).sin() * x[i];
    }
    s
}

#[test]
fn a_generic_function_adds_into_f64_and_f32_buffers() {
    let (x, c) = (point(6), 0.8);
    let b0 = start(6);
    let (mut b, mut dc) = (b0.clone(), 1.0);
    assert_eq!(generic_grad_acc(&x, c, &mut b, &mut dc), generic(&x, c));
    generic_grad_acc(&x, c, &mut b, &mut dc);
    let want = twice(&b0, &fd_slice(|v| generic(v, c), &x));
    assert_all_close("generic dx", &b, &want);
    assert_close("generic dc", dc, 1.0 + 2.0 * fd64(|v| generic(&x, v), c));

    let x32: Vec<f32> = [0.25, -0.5, 1.0, 0.875].to_vec();
    let (mut b32, mut dc32) = (vec![0.5_f32; 4], 0.0_f32);
    generic_grad_acc(&x32, 0.75, &mut b32, &mut dc32);
    generic_grad_acc(&x32, 0.75, &mut b32, &mut dc32);
    for i in 0..4 {
        let want = 0.5
            + 2.0
                * fd32(
                    |v| {
                        let mut y = x32.clone();
                        y[i] = v;
                        generic(&y, 0.75_f32)
                    },
                    x32[i],
                );
        let err = (f64::from(b32[i]) - want).abs();
        assert!(
            err <= FD32_ABS || err <= FD32_REL * want.abs(),
            "f32 dx[{i}]: {} vs {want}",
            b32[i]
        );
    }
}

/// A matrix, an array and a slice together.
#[differentiable]
fn mixed(m: &DMatrix<f64>, a: [f64; 3], x: &[f64]) -> f64 {
    let mut s = m.sum() * a[1];
    for i in 0..x.len() {
        s += x[i] * a[i % 3] * m[(0, 0)];
    }
    s
}

#[test]
fn matrix_array_and_slice_buffers() {
    let m = DMatrix::from_row_slice(2, 2, &[0.5, -1.0, 2.0, 0.25]);
    let a = [0.3, -0.7, 1.1];
    let x = point(5);
    let (mut dm, mut da, mut dx) = (DMatrix::repeat(2, 2, 1.0), [1.0, 2.0, 3.0], start(5));
    mixed_grad_acc(&m, a, &x, &mut dm, &mut da, &mut dx);
    assert_eq!(
        mixed_grad_acc(&m, a, &x, &mut dm, &mut da, &mut dx),
        mixed(&m, a, &x)
    );
    // Closed forms: ∂/∂x_i = a_(i mod 3)·m00; ∂/∂a_j = [j = 1]·Σm + m00·Σ_(i ≡ j) x_i;
    // ∂/∂m_kl = a_1 + [k = l = 0]·Σ x_i a_(i mod 3).
    let want_x: Vec<f64> = (0..5).map(|i| a[i % 3] * m[(0, 0)]).collect();
    assert_all_close("mixed dx", &dx, &twice(&start(5), &want_x));
    for j in 0..3 {
        let own: f64 = (0..5).filter(|i| i % 3 == j).map(|i| x[i]).sum();
        let g = if j == 1 { m.sum() } else { 0.0 } + m[(0, 0)] * own;
        assert_close(
            &format!("mixed da[{j}]"),
            da[j],
            [1.0, 2.0, 3.0][j] + 2.0 * g,
        );
    }
    let dot: f64 = (0..5).map(|i| x[i] * a[i % 3]).sum();
    for k in 0..2 {
        for l in 0..2 {
            let g = a[1] + if (k, l) == (0, 0) { dot } else { 0.0 };
            assert_close(&format!("mixed dm[{k},{l}]"), dm[(k, l)], 1.0 + 2.0 * g);
        }
    }
}

/// A `Tangent` struct argument and a slice.
#[derive(Clone, Debug, Tangent)]
struct Line {
    slope: f64,
    intercept: f64,
}

#[differentiable]
fn fit(line: &Line, x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        let r = line.slope * x[i] + line.intercept - 1.0;
        s += r * r;
    }
    s
}

#[test]
fn struct_and_slice_buffers() {
    let line = Line {
        slope: 0.6,
        intercept: -0.2,
    };
    let x = point(7);
    let mut dl = Line {
        slope: 1.0,
        intercept: -1.0,
    };
    let mut dx = start(7);
    fit_grad_acc(&line, &x, &mut dl, &mut dx);
    assert_eq!(fit_grad_acc(&line, &x, &mut dl, &mut dx), fit(&line, &x));
    assert_all_close(
        "fit dx",
        &dx,
        &twice(&start(7), &fd_slice(|v| fit(&line, v), &x)),
    );
    let slope = fd64(
        |v| {
            fit(
                &Line {
                    slope: v,
                    ..line.clone()
                },
                &x,
            )
        },
        line.slope,
    );
    let intercept = fd64(
        |v| {
            fit(
                &Line {
                    intercept: v,
                    ..line.clone()
                },
                &x,
            )
        },
        line.intercept,
    );
    assert_close("fit d slope", dl.slope, 1.0 + 2.0 * slope);
    assert_close("fit d intercept", dl.intercept, -1.0 + 2.0 * intercept);
}

#[test]
#[should_panic(expected = "buffer's length differs")]
fn a_short_buffer_is_refused_before_anything_is_added() {
    let mut b = vec![0.0; 3];
    rosenbrock_grad_acc(&point(4), &mut b);
}
