//! Levenberg–Marquardt with a sparse Jacobian on Bratu's boundary-value
//! problem u″ + λ·eᵘ = 0 on (0, 1), u(0) = u(1) = 0 (issue 39).
//!
//! Central differences on n interior points give one residual per point,
//! each depending on the point and its two neighbours: a tridiagonal
//! Jacobian. `bratu_jacobian_pattern` finds its non-zeros once (3
//! colours); every iteration then costs one forward sweep carrying the 3
//! colours as lanes (`bratu_jacobian_sparse`, then
//! `bratu_jacobian_sparse_into` the same matrix) where the dense
//! `bratu_jacobian` would take ⌈n / 8⌉ sweeps and an n × n matrix. Each
//! step solves the damped normal equations (JᵀJ + μ·I)·δ = −Jᵀr with
//! nalgebra-sparse's sparse Cholesky factorization; μ shrinks after a step
//! that lowers ‖r‖ and grows after one that does not. The residual's
//! branches test only indices, so the pattern found at the start holds at
//! every point.
//!
//! ```text
//! cargo run --release --example sparse_lm
//! ```

use std::time::Instant;

use autograd::differentiable;
use autograd::nalgebra::DVector;
use autograd::nalgebra_sparse::CscMatrix;
use autograd::nalgebra_sparse::factorization::CscCholesky;
use autograd::sparse::Coloring;

/// The residual of u″ + λ·eᵘ = 0 at each interior point, multiplied by
/// h² (so that its entries are of the size of u): u₋₁ − 2u + u₊₁ + h²λeᵘ,
/// with u = 0 beyond both ends.
#[differentiable(jvp)]
pub fn bratu(u: &[f64], #[constant] lambda: f64) -> Vec<f64> {
    let n = u.len();
    let h = 1.0 / (n + 1) as f64;
    let mut r = Vec::with_capacity(n);
    for i in 0..n {
        let left = if i > 0 { u[i - 1] } else { 0.0 };
        let right = if i + 1 < n { u[i + 1] } else { 0.0 };
        r.push(left - 2.0 * u[i] + right + h * h * lambda * u[i].exp());
    }
    r
}

/// Levenberg–Marquardt from `u` with the Jacobian's colouring `coloring`
/// (from `bratu_jacobian_pattern`, found once: the residual takes the
/// same branches at every point): the point where ‖r‖ < `tolerance`, with
/// the number of iterations, or `None` after `max_iterations`.
pub fn solve(
    mut u: Vec<f64>,
    lambda: f64,
    coloring: &Coloring,
    tolerance: f64,
    max_iterations: usize,
) -> Option<(Vec<f64>, usize)> {
    let identity = CscMatrix::identity(u.len());
    let mut mu = 1e-3;
    let (mut r, mut j) = bratu_jacobian_sparse(&u, lambda, coloring);
    for iteration in 0..=max_iterations {
        let norm = DVector::from_column_slice(&r).norm();
        if norm < tolerance {
            return Some((u, iteration));
        }
        let jt = j.transpose();
        let gradient = &jt * DVector::from_vec(r);
        let normal = &jt * &j;
        // Damp more until a step lowers ‖r‖, then less for the next.
        loop {
            let damped = &normal + &(&identity * mu);
            let step = CscCholesky::factor(&damped)
                .expect("JᵀJ + μI is positive definite for μ > 0")
                .solve(&gradient);
            let next: Vec<f64> = u.iter().zip(step.iter()).map(|(u, d)| u - d).collect();
            if DVector::from_vec(bratu(&next, lambda)).norm() < norm {
                u = next;
                mu = (mu / 10.0).max(1e-15);
                break;
            }
            mu *= 2.0;
            if mu > 1e12 {
                return None;
            }
        }
        // Into the same matrix: the pattern's storage is reused.
        r = bratu_jacobian_sparse_into(&u, lambda, coloring, &mut j);
    }
    None
}

/// The exact solution of the continuous problem for λ on its lower
/// branch: u(x) = −2 ln(cosh((x − ½)θ/2) / cosh(θ/4)), θ = √(2λ)·cosh(θ/4)
/// (solved by fixed-point iteration, which contracts for λ ≤ 1).
pub fn exact(x: f64, lambda: f64) -> f64 {
    let mut theta: f64 = 1.0;
    for _ in 0..200 {
        theta = (2.0 * lambda).sqrt() * (theta / 4.0).cosh();
    }
    -2.0 * (((x - 0.5) * theta / 2.0).cosh() / (theta / 4.0).cosh()).ln()
}

fn main() {
    let (n, lambda) = (1000, 1.0);
    println!("Bratu u'' + {lambda}·e^u = 0, n = {n} interior points, from u = 0");
    let u = vec![0.0; n];
    let clock = Instant::now();
    let coloring = bratu_jacobian_pattern(&u, lambda);
    println!(
        "pattern: {} non-zeros, {} colours, found in {:.2?}",
        coloring.nnz(),
        coloring.colors(),
        clock.elapsed()
    );
    let clock = Instant::now();
    let Some((u, iterations)) = solve(u, lambda, &coloring, 1e-12, 50) else {
        println!("no convergence in 50 iterations");
        return;
    };
    let residual = DVector::from_vec(bratu(&u, lambda)).norm();
    let h = 1.0 / (n + 1) as f64;
    let error = (0..n)
        .map(|i| (u[i] - exact((i + 1) as f64 * h, lambda)).abs())
        .fold(0.0, f64::max);
    println!(
        "Levenberg–Marquardt with the sparse Jacobian: {iterations} iterations, ‖r‖ = {residual:.3e}, {:.2?}",
        clock.elapsed()
    );
    println!("max |u − exact| = {error:.3e} (the discretization's O(h²), h = {h:.1e})");
}
