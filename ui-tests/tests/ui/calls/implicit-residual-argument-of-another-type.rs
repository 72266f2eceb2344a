use autograd::differentiable;
use autograd::solve::{SolveError, bisect};

/// r(x, c, n) = xⁿ − c, with `n` an `i32`.
#[differentiable]
fn res(x: f64, c: f64, n: i32) -> f64 {
    x.powi(n) - c
}

// The same names in the same order, but `n` is a `u32` here.
#[differentiable(implicit = res)]
fn solve(c: f64, n: u32) -> Result<f64, SolveError> {
    bisect(|x| res(x, c, n as i32), 0.0, c.max(1.0), 1e-12)
}

fn main() {}
