//! Newton's method with a sparse Hessian on the Rosenbrock function in
//! 10 000 dimensions (issue 39).
//!
//! `rosenbrock_hessian_pattern` finds the Hessian's non-zeros once (one
//! run of the function on `autograd::sparse::Tracer`: tridiagonal) and
//! colours its columns (3 colours); every iteration then costs 3
//! Hessian-vector products (`rosenbrock_hessian_sparse`) where the dense
//! `rosenbrock_hessian` would take 10 000. Each step solves H·p = −g with
//! nalgebra-sparse's sparse Cholesky factorization, with a Levenberg shift
//! μ·I where H is not positive definite, and backtracks on the value.
//! Rosenbrock takes no branch, so the pattern found at the start holds at
//! every point. It prints every fifth iteration.
//!
//! ```text
//! cargo run --release --example sparse_newton
//! ```

use std::time::Instant;

use autograd::differentiable;
use autograd::nalgebra::DVector;
use autograd::nalgebra_sparse::CscMatrix;
use autograd::nalgebra_sparse::factorization::CscCholesky;

#[differentiable(hessian)]
pub fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

const N: usize = 10_000;
const TOLERANCE: f64 = 1e-8;
const MAX_ITERATIONS: usize = 200;

/// Halves `step` from 1 until the value decreases enough (Armijo, 1e-4).
fn backtrack(x: &[f64], f: f64, g: &DVector<f64>, p: &DVector<f64>) -> Vec<f64> {
    let slope = g.dot(p);
    let mut step = 1.0;
    loop {
        let next: Vec<f64> = x.iter().zip(p.iter()).map(|(x, p)| x + step * p).collect();
        if rosenbrock(&next) <= f + 1e-4 * step * slope || step < 1e-12 {
            return next;
        }
        step *= 0.5;
    }
}

/// −H⁻¹·g, with H shifted by μ·I (μ growing tenfold) until the sparse
/// Cholesky factorization succeeds. The pattern holds the diagonal, so
/// the shift changes values only.
fn newton_direction(h: &CscMatrix<f64>, g: &DVector<f64>) -> DVector<f64> {
    let mut shift = 0.0;
    loop {
        let mut shifted = h.clone();
        if shift > 0.0 {
            for j in 0..N {
                let mut column = shifted.col_mut(j);
                let (rows, values) = column.rows_and_values_mut();
                if let Some(k) = rows.iter().position(|&i| i == j) {
                    values[k] += shift;
                }
            }
        }
        if let Ok(cholesky) = CscCholesky::factor(&shifted) {
            return -cholesky.solve(g).column(0).into_owned();
        }
        shift = if shift == 0.0 { 1e-3 } else { shift * 10.0 };
    }
}

fn main() {
    println!("Rosenbrock, n = {N}, from (1.1, 0.9, 1.1, ..), stop at |∇f| < {TOLERANCE:e}");
    // Near the minimum (1, .., 1), every coordinate 10% off: from the
    // origin the chained Rosenbrock function's valley is followed one
    // coordinate at a time, some 1.5 Newton steps each.
    let mut x: Vec<f64> = (0..N).map(|i| if i % 2 == 0 { 1.1 } else { 0.9 }).collect();
    let clock = Instant::now();
    let coloring = rosenbrock_hessian_pattern(&x);
    println!(
        "pattern: {} non-zeros, {} colours, found in {:.2?}",
        coloring.nnz(),
        coloring.colors(),
        clock.elapsed()
    );
    let clock = Instant::now();
    for iteration in 0..MAX_ITERATIONS {
        let (f, g, h) = rosenbrock_hessian_sparse(&x, &coloring);
        if g.norm() < TOLERANCE {
            println!(
                "Newton with the sparse Hessian: {iteration} iterations, f = {f:.3e}, |∇f| = {:.3e}, {:.2?}",
                g.norm(),
                clock.elapsed()
            );
            return;
        }
        if iteration % 5 == 0 {
            println!(
                "  iteration {iteration:>4}: f = {f:.6e}, |∇f| = {:.3e}",
                g.norm()
            );
        }
        let p = newton_direction(&h, &g);
        x = backtrack(&x, f, &g, &p);
    }
    println!("no convergence in {MAX_ITERATIONS} iterations");
}
