//! What a sparse Jacobian allocates (issue 39's banded target): refilling
//! a matrix of the pattern with `NAME_jacobian_sparse_into` allocates the
//! residual's own `Vec` and its K-lane tangent, once each, whatever the
//! size: the residual's `Vec::with_capacity(n)` moves into its loop with
//! its capacity, its tangent reserves the same, each lane is seeded from
//! the colouring (no seed buffer), the tangent's rows go straight into
//! the matrix (no compressed product) and the direction's buffer comes
//! back from the thread's pool. Before, the loop started from a clone of
//! the `Vec` (no capacity) and both grew by copies, and seed, column and
//! compressed buffers were allocated per call.

// A differentiable body indexes slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

use std::hint::black_box;

use autograd::differentiable;

mod alloc_support;
use alloc_support::allocations_during;

/// −u″ + u³ − 1 with a five-point stencil: bandwidth 5, 5 colours.
#[differentiable(jvp)]
fn banded(u: &[f64], #[constant] h: f64) -> Vec<f64> {
    let n = u.len();
    let mut r = Vec::with_capacity(n);
    let k = 1.0 / (12.0 * h * h);
    for i in 0..n {
        let l2 = if i >= 2 { u[i - 2] } else { 0.0 };
        let l1 = if i >= 1 { u[i - 1] } else { 0.0 };
        let r1 = if i + 1 < n { u[i + 1] } else { 0.0 };
        let r2 = if i + 2 < n { u[i + 2] } else { 0.0 };
        let lap = (-l2 + 16.0 * l1 - 30.0 * u[i] + 16.0 * r1 - r2) * k;
        r.push(-lap + u[i] * u[i] * u[i] - 1.0);
    }
    r
}

#[test]
fn refilling_a_banded_jacobian_allocates_the_residual_and_its_tangent() {
    for n in [100, 5000] {
        let u: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
        let h = 1.0 / n as f64;
        let coloring = banded_jacobian_pattern(&u, h);
        assert_eq!(coloring.colors(), 5);
        let mut jac = coloring.zeros();
        // A first call fills the thread's pool with the direction's buffer.
        let _ = banded_jacobian_sparse_into(&u, h, &coloring, &mut jac);
        let (r, events) = allocations_during(|| {
            black_box(banded_jacobian_sparse_into(
                black_box(&u),
                h,
                &coloring,
                &mut jac,
            ))
        });
        assert_eq!(r, banded(&u, h));
        assert_eq!(events, 2, "n = {n}");
    }
}
