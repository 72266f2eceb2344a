use autograd::differentiable;
use autograd::solve::{SolveError, bisect};

/// r(x, a, b) = x·a − b.
#[differentiable]
fn res(x: f64, a: f64, b: f64) -> f64 {
    x * a - b
}

// The hook calls the residual with the solver's arguments in the solver's
// order, `res(x, b, a)`: a residual taking them in another order would get
// each argument's derivative from the other's partial.
#[differentiable(implicit = res)]
fn solve(b: f64, a: f64) -> Result<f64, SolveError> {
    bisect(|x| res(x, a, b), -10.0, 10.0, 1e-12)
}

fn main() {}
