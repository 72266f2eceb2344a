//! Arrays of arrays in a `#[differentiable]` body (issue 14): a local
//! `[[f64; N]; M]` (a 2×2 covariance carried through a Kalman filter, a
//! grid filled by element) and a `const` table read as `A[i][j]` (a
//! Runge–Kutta tableau). Values are the primal's bit for bit; gradients
//! are checked against five-point central differences of the primal
//! (`fd_support`, tolerance `FD64_*`) or closed forms (exact where the
//! arithmetic is).

#![allow(clippy::needless_range_loop)]

#[path = "fd_support/mod.rs"]
mod fd_support;

use autograd::differentiable;
use fd_support::*;

/// Constant-velocity Kalman filter, the covariance as nested arrays,
/// reassigned whole and read by element; the negative log-likelihood.
#[differentiable]
fn kalman_nll(q: f64, r: f64, #[constant] zs: &[f64], #[constant] dt: f64) -> f64 {
    let mut x = [zs[0], 0.0];
    let mut p: [[f64; 2]; 2] = [[1.0, 0.0], [0.0, 1.0]];
    let mut nll = 0.0;
    for &z in &zs[1..] {
        x = [x[0] + dt * x[1], x[1]];
        let p00 = p[0][0] + dt * (p[1][0] + p[0][1]) + dt * dt * p[1][1] + q * dt.powi(3) / 3.0;
        let p01 = p[0][1] + dt * p[1][1] + q * dt * dt / 2.0;
        let p11 = p[1][1] + q * dt;
        p = [[p00, p01], [p01, p11]];
        let s = p[0][0] + r;
        let y = z - x[0];
        nll += 0.5 * (s.ln() + y * y / s);
        let k = [p[0][0] / s, p[1][0] / s];
        x = [x[0] + k[0] * y, x[1] + k[1] * y];
        p = [
            [(1.0 - k[0]) * p[0][0], (1.0 - k[0]) * p[0][1]],
            [p[1][0] - k[1] * p[0][0], p[1][1] - k[1] * p[0][1]],
        ];
    }
    nll
}

/// A grid from `[[0.0; 3]; 2]`, written and accumulated by element, its
/// sizes read with `len()`.
#[differentiable]
fn grid(x: f64, y: f64) -> f64 {
    let mut g = [[0.0; 3]; 2];
    for i in 0..g.len() {
        for j in 0..g[i].len() {
            g[i][j] = x * (i + j) as f64 + y;
        }
    }
    g[1][2] += x * x;
    g[0][1] * g[1][2]
}

/// Heun's method (a two-stage Runge–Kutta) for y' = −k·y, its tableau a
/// `const` array of arrays.
const A: [[f64; 2]; 2] = [[0.0, 0.0], [1.0, 0.0]];
const B: [f64; 2] = [0.5, 0.5];

#[differentiable]
fn heun_decay(k: f64, y0: f64, #[constant] h: f64, #[constant] steps: usize) -> f64 {
    let mut y = y0;
    for _ in 0..steps {
        let mut stages = [0.0; 2];
        for i in 0..2 {
            let mut yi = y;
            for j in 0..i {
                yi += h * A[i][j] * stages[j];
            }
            stages[i] = -k * yi;
        }
        y += h * (B[0] * stages[0] + B[1] * stages[1]);
    }
    y
}

#[test]
fn a_covariance_carried_through_a_filter() {
    let zs = [0.1, 0.3, 0.2, 0.5, 0.4, 0.45];
    // (At r = 0.05 the default step 10⁻³ is too coarse for the five-point
    // difference: it is off by 8·10⁻⁷, the step 10⁻⁴ agrees to 10⁻¹⁰.)
    for (q, r) in [(0.2, 0.3), (1.5, 0.2)] {
        let (value, dq, dr) = kalman_nll_grad(q, r, &zs, 0.5);
        assert_eq!(value.to_bits(), kalman_nll(q, r, &zs, 0.5).to_bits());
        assert_fd64_close("q", dq, fd64(|t| kalman_nll(t, r, &zs, 0.5), q));
        assert_fd64_close("r", dr, fd64(|t| kalman_nll(q, t, &zs, 0.5), r));
    }
}

#[test]
fn a_grid_written_by_element() {
    // g[0][1] = x + y, g[1][2] = 3x + y + x²: f = (x + y)(3x + y + x²).
    let (x, y) = (1.5, 0.25);
    let (value, dx, dy) = grid_grad(x, y);
    assert_eq!(value.to_bits(), grid(x, y).to_bits());
    let (a, b) = (x + y, 3.0 * x + y + x * x);
    assert_eq!(dx, b + a * (3.0 + 2.0 * x));
    assert_eq!(dy, b + a);
}

#[test]
fn a_const_tableau_read_by_element() {
    // Each step multiplies y by g = 1 − hk + (hk)²/2.
    let (k, y0, h, n) = (0.8, 2.0, 0.1, 5);
    let (value, dk, dy0) = heun_decay_grad(k, y0, h, n);
    assert_eq!(value.to_bits(), heun_decay(k, y0, h, n).to_bits());
    let g = 1.0 - h * k + (h * k).powi(2) / 2.0;
    let dg = -h + h * h * k;
    assert_fd64_close("y0", dy0, g.powi(n as i32));
    assert_fd64_close("k", dk, y0 * n as f64 * g.powi(n as i32 - 1) * dg);
}

/// Springs of a braced square: a `const` array of index pairs taken apart
/// in the loop's pattern, positions in a local array of arrays.
const EDGES: [(usize, usize); 5] = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)];

#[differentiable]
fn spring_energy(flat: &[f64], #[constant] rest: &[f64]) -> f64 {
    let mut p = [[0.0; 2]; 4];
    for i in 0..4 {
        p[i][0] = flat[2 * i];
        p[i][1] = flat[2 * i + 1];
    }
    let mut energy = 0.0;
    for (e, &(a, b)) in EDGES.iter().enumerate() {
        let len = (p[a][0] - p[b][0]).hypot(p[a][1] - p[b][1]);
        energy += 0.5 * (len - rest[e]).powi(2);
    }
    for sign in [1.0, -1.0] {
        energy += 0.01 * sign * flat[0];
    }
    energy
}

#[test]
fn const_tuples_and_array_literals_in_loops() {
    let rest = [1.0, 1.0, 1.0, 1.0, std::f64::consts::SQRT_2];
    let flat = [0.0, 0.0, 1.1, 0.05, 1.0, 0.9, -0.1, 1.2];
    let (value, g) = spring_energy_grad(&flat, &rest);
    assert_eq!(value.to_bits(), spring_energy(&flat, &rest).to_bits());
    for (i, gi) in g.iter().enumerate() {
        let f = |t: f64| {
            let mut q = flat;
            q[i] = t;
            spring_energy(&q, &rest)
        };
        assert_fd64_close("position", *gi, fd64(f, flat[i]));
    }
}
