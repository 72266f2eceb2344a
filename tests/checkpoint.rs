//! `#[checkpoint]` on loops: the gradient is the one without the attribute,
//! bit for bit (the reverse sweep re-runs the same operations from exact
//! copies of the state, and reverses the iterations in the same order), for
//! every kind of loop the macro supports and every schedule. Each function
//! is written once in a `macro_rules!` and instantiated with
//! `#[allow(unused)]` (no checkpoint) and with each `#[checkpoint]`; one
//! instance per family is also checked against central differences of the
//! primal, so the agreement is not of two wrong gradients.

use approx::assert_relative_eq;
use autograd::{central_difference, differentiable};
use nalgebra::{DMatrix, DVector};

/// Relative tolerance of a central difference against a gradient.
const FD_REL: f64 = 1e-6;
const FD_ABS: f64 = 1e-8;

/// A `const` schedule size, as a user would name one.
const SNAPSHOTS: usize = 5;

#[macro_use]
mod checkpoint_support;

lorenz!(lorenz, 1e-3, allow(unused));
lorenz!(lorenz_default, 1e-3, checkpoint);
lorenz!(lorenz_one, 1e-3, checkpoint(snapshots = 1));
lorenz!(lorenz_three, 1e-3, checkpoint(snapshots = 3));
lorenz!(lorenz_const, 1e-3, checkpoint(snapshots = SNAPSHOTS));

#[test]
fn euler_steps_give_the_same_gradient_bit_for_bit_under_every_schedule() {
    for n in [0, 1, 2, 3, 4, 10, 97, 1000, 2500] {
        let plain = lorenz_grad(0.9, 10.0, n);
        assert_eq!(plain.0, lorenz(0.9, 10.0, n));
        assert_eq!(lorenz_default_grad(0.9, 10.0, n), plain, "n = {n}");
        assert_eq!(lorenz_three_grad(0.9, 10.0, n), plain, "n = {n}");
        assert_eq!(lorenz_const_grad(0.9, 10.0, n), plain, "n = {n}");
        if n <= 1000 {
            assert_eq!(lorenz_one_grad(0.9, 10.0, n), plain, "n = {n}");
        }
    }
}

#[test]
fn euler_steps_match_central_differences() {
    let (_, dx0, dsigma) = lorenz_default_grad(0.9, 10.0, 400);
    let fd_x0 = central_difference(|x0| lorenz(x0, 10.0, 400), 0.9);
    let fd_sigma = central_difference(|s| lorenz(0.9, s, 400), 10.0);
    assert_relative_eq!(dx0, fd_x0, epsilon = FD_ABS, max_relative = FD_REL);
    assert_relative_eq!(dsigma, fd_sigma, epsilon = FD_ABS, max_relative = FD_REL);
}

/// A damped oscillator integrated until the time passes `t_end`: a
/// `while` loop whose trip count is known only when it ends.
macro_rules! oscillator {
    ($name:ident, $($attr:tt)*) => {
        #[differentiable]
        fn $name(x0: f64, damping: f64, t_end: f64) -> f64 {
            let mut x = x0;
            let mut v = 0.0;
            let mut t = 0.0;
            let dt = 0.01;
            #[$($attr)*]
            while t < t_end {
                let a = -x - damping * v + 0.1 * (x * x).sin();
                v += dt * a;
                x += dt * v;
                t += dt;
            }
            x * x + v
        }
    };
}

oscillator!(oscillator, allow(unused));
oscillator!(oscillator_default, checkpoint);
oscillator!(oscillator_four, checkpoint(snapshots = 4));

#[test]
fn a_while_loop_gives_the_same_gradient_bit_for_bit() {
    for t_end in [-1.0, 0.0, 0.005, 0.02, 0.5, 3.3, 40.0] {
        let plain = oscillator_grad(1.2, 0.3, t_end);
        assert_eq!(plain.0, oscillator(1.2, 0.3, t_end));
        assert_eq!(oscillator_default_grad(1.2, 0.3, t_end), plain, "{t_end}");
        assert_eq!(oscillator_four_grad(1.2, 0.3, t_end), plain, "{t_end}");
    }
}

#[test]
fn a_while_loop_matches_central_differences() {
    // The trip count does not change within the differences' step.
    let (_, dx0, ddamping, _) = oscillator_default_grad(1.2, 0.3, 7.005);
    let fd_x0 = central_difference(|x0| oscillator(x0, 0.3, 7.005), 1.2);
    let fd_damping = central_difference(|d| oscillator(1.2, d, 7.005), 0.3);
    assert_relative_eq!(dx0, fd_x0, epsilon = FD_ABS, max_relative = FD_REL);
    assert_relative_eq!(
        ddamping,
        fd_damping,
        epsilon = FD_ABS,
        max_relative = FD_REL
    );
}

/// A checkpointed outer loop whose body runs an inner loop, checkpointed
/// too (recomputed, with its own schedule, in each reversed iteration of
/// the outer one), an integer carried next to the float, and the index
/// read.
macro_rules! nested {
    ($name:ident, $($attr:tt)*) => {
        #[differentiable]
        fn $name(x: f64, n: usize) -> f64 {
            let mut s = x;
            let mut k = 0;
            #[$($attr)*]
            for i in 0..n {
                let mut t = s;
                #[$($attr)*]
                for _ in 0..3 {
                    t = t.sin() + 0.1 * t;
                }
                s = 0.5 * s + 0.3 * t + (i as f64) * 1e-3 + (k as f64) * 1e-4;
                k += 2;
            }
            s
        }
    };
}

nested!(nested, allow(unused));
nested!(nested_default, checkpoint);
nested!(nested_two, checkpoint(snapshots = 2));

#[test]
fn a_checkpointed_loop_with_an_inner_loop() {
    for n in [0, 1, 5, 64, 300] {
        let plain = nested_grad(0.7, n);
        assert_eq!(nested_default_grad(0.7, n), plain, "n = {n}");
        assert_eq!(nested_two_grad(0.7, n), plain, "n = {n}");
    }
    let (_, dx) = nested_default_grad(0.7, 50);
    let fd = central_difference(|x| nested(x, 50), 0.7);
    assert_relative_eq!(dx, fd, epsilon = FD_ABS, max_relative = FD_REL);
}

/// Slice reads at the index and its neighbours (the reverse keeps their
/// adjoints in locals across iterations, and across segments), over a
/// reversed inclusive range of `i64`.
macro_rules! stencil {
    ($name:ident, $($attr:tt)*) => {
        #[differentiable]
        fn $name(x: &[f64], c: f64) -> f64 {
            let mut y = c;
            let mut acc = 0.0;
            let last = x.len() as i64 - 2;
            #[$($attr)*]
            for i in (1..=last).rev() {
                let k = i as usize;
                y = (y * x[k]).tanh() + x[k - 1] * x[k + 1];
                acc += y * y;
            }
            acc
        }
    };
}

stencil!(stencil, allow(unused));
stencil!(stencil_default, checkpoint);
stencil!(stencil_three, checkpoint(snapshots = 3));

#[test]
fn slices_read_in_a_checkpointed_loop() {
    for len in [2, 3, 4, 9, 50] {
        let x: Vec<f64> = (0..len)
            .map(|i| 0.3 + 0.7 * ((i * 7 % 11) as f64) / 11.0)
            .collect();
        let plain = stencil_grad(&x, 0.4);
        assert_eq!(stencil_default_grad(&x, 0.4), plain, "len = {len}");
        assert_eq!(stencil_three_grad(&x, 0.4), plain, "len = {len}");
    }
    let x: Vec<f64> = (0..12).map(|i| 0.2 + 0.05 * i as f64).collect();
    let (_, dx, dc) = stencil_three_grad(&x, 0.4);
    for i in 0..x.len() {
        let fd = central_difference(
            |v| {
                let mut x = x.clone();
                x[i] = v;
                stencil(&x, 0.4)
            },
            x[i],
        );
        assert_relative_eq!(dx[i], fd, epsilon = FD_ABS, max_relative = FD_REL);
    }
    let fd_c = central_difference(|c| stencil(&x, c), 0.4);
    assert_relative_eq!(dc, fd_c, epsilon = FD_ABS, max_relative = FD_REL);
}

/// A recurrent layer: a vector carried, snapshots are clones of it.
macro_rules! recurrent {
    ($name:ident, $($attr:tt)*) => {
        #[differentiable]
        fn $name(w: &DMatrix<f64>, x: &DVector<f64>, n: usize) -> f64 {
            let mut h = x.clone();
            #[$($attr)*]
            for _ in 0..n {
                h = (w * h).map(|v| v.sin());
            }
            h.sum()
        }
    };
}

recurrent!(recurrent, allow(unused));
recurrent!(recurrent_default, checkpoint);
recurrent!(recurrent_two, checkpoint(snapshots = 2));

#[test]
fn a_matrix_carried_by_a_checkpointed_loop() {
    let w = DMatrix::from_row_slice(3, 3, &[0.5, -0.3, 0.2, 0.8, 0.1, -0.4, 0.3, 0.6, 0.9]);
    let x = DVector::from_vec(vec![0.3, -0.2, 0.5]);
    for n in [0, 1, 7, 40] {
        let plain = recurrent_grad(&w, &x, n);
        assert_eq!(recurrent_default_grad(&w, &x, n), plain, "n = {n}");
        assert_eq!(recurrent_two_grad(&w, &x, n), plain, "n = {n}");
    }
    let (_, dw, dx) = recurrent_two_grad(&w, &x, 7);
    for i in 0..3 {
        for j in 0..3 {
            let fd = central_difference(
                |v| {
                    let mut w = w.clone();
                    w[(i, j)] = v;
                    recurrent(&w, &x, 7)
                },
                w[(i, j)],
            );
            assert_relative_eq!(dw[(i, j)], fd, epsilon = FD_ABS, max_relative = FD_REL);
        }
        let fd = central_difference(
            |v| {
                let mut x = x.clone();
                x[i] = v;
                recurrent(&w, &x, 7)
            },
            x[i],
        );
        assert_relative_eq!(dx[i], fd, epsilon = FD_ABS, max_relative = FD_REL);
    }
}

/// One step of a relaxation, a `#[differentiable]` function of its own.
#[differentiable]
fn relax(s: f64, k: f64) -> f64 {
    s + 0.01 * (k * s).sin() - 0.001 * s.exp()
}

/// Calls in the body, and expensive results (`exp`) the loop caches while
/// they fit the cache's budget: per segment under `#[checkpoint]`.
macro_rules! relaxation {
    ($name:ident, $($attr:tt)*) => {
        #[differentiable]
        fn $name(x: f64, k: f64, n: usize) -> f64 {
            let mut s = x;
            let mut e = 0.0;
            #[$($attr)*]
            for i in 0..n {
                s = relax(s, k);
                e += (s * (i as f64) / (n as f64)).exp();
            }
            s + e / (n as f64 + 1.0)
        }
    };
}

relaxation!(relaxation, allow(unused));
relaxation!(relaxation_default, checkpoint);
relaxation!(relaxation_four, checkpoint(snapshots = 4));

#[test]
fn calls_and_cached_results_in_a_checkpointed_loop() {
    // 200 000 iterations: over the cache's budget without checkpoints.
    for n in [0, 1, 3, 100, 200_000] {
        let plain = relaxation_grad(0.5, 1.7, n);
        assert_eq!(relaxation_default_grad(0.5, 1.7, n), plain, "n = {n}");
        if n <= 100 {
            assert_eq!(relaxation_four_grad(0.5, 1.7, n), plain, "n = {n}");
        }
    }
    let (_, dx, dk) = relaxation_four_grad(0.5, 1.7, 60);
    let fd_x = central_difference(|x| relaxation(x, 1.7, 60), 0.5);
    let fd_k = central_difference(|k| relaxation(0.5, k, 60), 1.7);
    assert_relative_eq!(dx, fd_x, epsilon = FD_ABS, max_relative = FD_REL);
    assert_relative_eq!(dk, fd_k, epsilon = FD_ABS, max_relative = FD_REL);
}

/// A checkpointed loop in a branch, and a checkpointed inner loop of a
/// loop that is not: both run their schedule where the reverse sweep
/// recomputes their block.
macro_rules! placed {
    ($name:ident, $($attr:tt)*) => {
        #[differentiable]
        fn $name(x: f64, n: usize) -> f64 {
            let mut s = x;
            if n % 2 == 0 {
                #[$($attr)*]
                for _ in 0..n {
                    s = s * 0.9 + s.sin() * 0.2;
                }
            }
            let mut total = 0.0;
            for j in 0..3 {
                let mut u = s + (j as f64);
                #[$($attr)*]
                while u < 10.0 + (j as f64) {
                    u = u * 1.05 + u.cos() * 0.01 + 0.1;
                }
                total += u * s;
            }
            total
        }
    };
}

placed!(placed, allow(unused));
placed!(placed_default, checkpoint);
placed!(placed_two, checkpoint(snapshots = 2));

#[test]
fn checkpointed_loops_in_a_branch_and_in_a_loop() {
    for n in [0, 1, 2, 30, 31] {
        let plain = placed_grad(0.8, n);
        assert_eq!(placed_default_grad(0.8, n), plain, "n = {n}");
        assert_eq!(placed_two_grad(0.8, n), plain, "n = {n}");
    }
    let (_, dx) = placed_two_grad(0.8, 30);
    let fd = central_difference(|x| placed(x, 30), 0.8);
    assert_relative_eq!(dx, fd, epsilon = FD_ABS, max_relative = FD_REL);
}
