//! Newton's method with `#[differentiable(hessian)]` next to gradient
//! descent, on the Rosenbrock function in 100 dimensions.
//!
//! `rosenbrock_hessian` gives the value, the gradient and the Hessian (100
//! Hessian-vector products, forward over reverse); each Newton step solves
//! H·p = −g (Cholesky, with a Levenberg shift where H is not positive
//! definite) and backtracks on the value. Gradient descent uses
//! `rosenbrock_grad` with the same backtracking. Both start from the origin
//! (from (−1.2, 1, −1.2, 1, ..) Newton's method finds the local minimum
//! near (−1, 1, 1, ..) that the Rosenbrock function has from n = 4 on).
//!
//! ```text
//! cargo run --release --example newton
//! ```

use std::time::Instant;

use autograd::differentiable;
use autograd::nalgebra::{DMatrix, DVector};

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

const N: usize = 100;
const TOLERANCE: f64 = 1e-8;

fn start() -> Vec<f64> {
    vec![0.0; N]
}

/// Halves `step` from 1 until the value decreases enough (Armijo, 1e-4):
/// the accepted point and its value.
fn backtrack(x: &[f64], f: f64, g: &[f64], p: &[f64]) -> (Vec<f64>, f64) {
    let slope: f64 = g.iter().zip(p).map(|(g, p)| g * p).sum();
    let mut step = 1.0;
    loop {
        let next: Vec<f64> = x.iter().zip(p).map(|(x, p)| x + step * p).collect();
        let value = rosenbrock(&next);
        if value <= f + 1e-4 * step * slope || step < 1e-12 {
            return (next, value);
        }
        step *= 0.5;
    }
}

/// Newton's method: iterations, final value, final gradient norm.
fn newton(max_iterations: usize) -> (usize, f64, f64) {
    let mut x = start();
    for iteration in 0..max_iterations {
        let (f, g, h) = rosenbrock_hessian(&x);
        if g.norm() < TOLERANCE {
            return (iteration, f, g.norm());
        }
        let p = newton_direction(h, &g);
        (x, _) = backtrack(&x, f, g.as_slice(), p.as_slice());
    }
    let (f, g) = rosenbrock_grad(&x);
    (max_iterations, f, DVector::from_vec(g).norm())
}

/// −H⁻¹·g, with H shifted by μ·I (μ growing tenfold) until it is positive
/// definite.
fn newton_direction(h: DMatrix<f64>, g: &DVector<f64>) -> DVector<f64> {
    let mut shift = 0.0;
    loop {
        let shifted = &h + DMatrix::identity(N, N) * shift;
        if let Some(cholesky) = shifted.cholesky() {
            return -cholesky.solve(g);
        }
        shift = if shift == 0.0 { 1e-3 } else { shift * 10.0 };
    }
}

/// Gradient descent with backtracking: iterations, final value, final
/// gradient norm.
fn gradient_descent(max_iterations: usize) -> (usize, f64, f64) {
    let mut x = start();
    for iteration in 0..max_iterations {
        let (f, g) = rosenbrock_grad(&x);
        let norm = g.iter().map(|g| g * g).sum::<f64>().sqrt();
        if norm < TOLERANCE {
            return (iteration, f, norm);
        }
        let p: Vec<f64> = g.iter().map(|g| -g).collect();
        (x, _) = backtrack(&x, f, &g, &p);
    }
    let (f, g) = rosenbrock_grad(&x);
    (
        max_iterations,
        f,
        g.iter().map(|g| g * g).sum::<f64>().sqrt(),
    )
}

fn main() {
    println!("Rosenbrock, n = {N}, from the origin, stop at |∇f| < {TOLERANCE:e}");
    println!(
        "{:<34} {:>10} {:>14} {:>11} {:>10}",
        "method", "iterations", "f", "|∇f|", "time"
    );
    let clock = Instant::now();
    let (iterations, f, norm) = newton(200);
    let elapsed = clock.elapsed();
    println!(
        "{:<34} {:>10} {:>14.3e} {:>11.3e} {:>10.2?}",
        "Newton (rosenbrock_hessian)", iterations, f, norm, elapsed
    );
    let clock = Instant::now();
    let (iterations, f, norm) = gradient_descent(200_000);
    let elapsed = clock.elapsed();
    println!(
        "{:<34} {:>10} {:>14.3e} {:>11.3e} {:>10.2?}",
        "gradient descent (rosenbrock_grad)", iterations, f, norm, elapsed
    );
}
