//! Forward mode, `#[differentiable(jvp)]`: `NAME_jvp(args.., tangents..)
//! -> (value, output_tangent)`.
//!
//! Every case checks three things:
//!
//! - the value is bit for bit the primal's;
//! - the tangent against central differences of the primal along the same
//!   direction (`fd_support`'s five-point stencil, tolerances `FD64_ABS` /
//!   `FD64_REL`, for `f32` `FD32_ABS` / `FD32_REL`);
//! - the dot-product identity ⟨u, J·v⟩ = ⟨Jᵀ·u, v⟩ against `NAME_vjp` at a
//!   few pseudo-random directions `u`, `v`: both sides are the same
//!   derivative summed in different orders, so they agree to
//!   `epsilon = 1e-12`, `max_relative = 1e-12`.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::solve::{SolveError, bisect};
use fd_support::{FD32_ABS, FD32_REL, FD64_ABS, FD64_REL, fd32, fd64};
use nalgebra::{DMatrix, DVector};

/// Tolerances of the dot-product identity.
const DOT_ABS: f64 = 1e-12;
const DOT_REL: f64 = 1e-12;

/// Pseudo-random directions in [-1, 1) (xorshift), the same every run.
struct Directions(u64);

impl Directions {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    fn vec(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.next()).collect()
    }
    fn matrix(&mut self, r: usize, c: usize) -> DMatrix<f64> {
        DMatrix::from_fn(r, c, |_, _| self.next())
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

// ---------------------------------------------------------------------------
// Scalar code.

#[differentiable(jvp)]
fn scalar(x: f64, y: f64) -> f64 {
    let z = x * y + (x / y).sin();
    let w = z.exp() - y.powi(3) + x.powf(y);
    w / (1.0 + x * x)
}

#[test]
fn scalar_code() {
    let mut dirs = Directions(7);
    for &(x, y) in &[(0.3, 1.2), (1.1, 0.7), (2.4, 2.0)] {
        for _ in 0..3 {
            let (dx, dy) = (dirs.next(), dirs.next());
            let (value, tangent) = scalar_jvp(x, y, dx, dy);
            assert_eq!(value.to_bits(), scalar(x, y).to_bits());
            let fd = fd64(|t| scalar(x + t * dx, y + t * dy), 0.0);
            assert_relative_eq!(tangent, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
            // ⟨u, J·v⟩ = ⟨Jᵀ·u, v⟩.
            let u = dirs.next();
            let (_, pullback) = scalar_vjp(x, y);
            let (gx, gy) = pullback(u);
            assert_relative_eq!(u * tangent, gx * dx + gy * dy, epsilon = DOT_ABS, max_relative = DOT_REL);
        }
    }
}
