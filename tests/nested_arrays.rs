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

use approx::assert_relative_eq;
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

// Arrays of arrays lowered where they stand (the rewrite before lowering,
// which took only a name bound once in the body and no argument's, rejected
// each of the following with "nested collections are not supported").

/// One name for two arrays of arrays, the second shadowing the first; with
/// `jvp`.
#[differentiable(jvp)]
fn twice_bound(x: f64, y: f64) -> f64 {
    let p = [[x, y], [y, x]];
    let d = p[0][0] * p[1][1] - p[0][1] * p[1][0];
    let p = [[d, x], [x, d]];
    p[0][0] + p[0][1] * p[1][1]
}

/// An argument's name bound again to an array of arrays.
#[differentiable]
fn argument_named(p: f64) -> f64 {
    let p = [[p, 1.0], [2.0, p]];
    p[0][0] * p[1][1] - p[0][1] * p[1][0]
}

/// The same name bound in two arms of a `match`.
#[differentiable]
fn in_match_arms(x: f64, #[constant] k: usize) -> f64 {
    match k {
        0 => {
            let mut p = [[x, 1.0], [2.0, x]];
            p[1][1] *= x;
            p[0][0] + p[1][1]
        }
        _ => {
            let mut p = [[0.0; 2]; 2];
            for i in 0..2 {
                for j in 0..p[i].len() {
                    p[i][j] = x * (i + 2 * j) as f64;
                }
            }
            p[1][1] * p[0][1]
        }
    }
}

/// An array of arrays bound under `#[cfg]`, one binding compiled in.
#[differentiable]
fn under_cfg(x: f64, y: f64) -> f64 {
    #[cfg(not(any()))]
    let mut g = [[x, y], [y, x]];
    #[cfg(any())]
    let mut g = [[y, y], [y, y]];
    g[0][1] *= x;
    g[0][0] * g[0][1] + g[1][0]
}

/// Under `hessian`: a 2×2 updated by element and assigned whole; its
/// determinant.
#[differentiable(hessian)]
fn updated_determinant(a: f64, b: f64) -> f64 {
    let mut p = [[a, b], [b, a]];
    p[0][0] += b * b;
    p = [[p[0][0] * a, p[0][1]], [p[1][0], p[1][1]]];
    p[0][0] * p[1][1] - p[0][1] * p[1][0]
}

/// Generic over its scalar, under `hessian`: an outer product.
#[differentiable(hessian)]
fn generic_outer<T: autograd::num_traits::Float>(x: &[T]) -> T {
    let mut g = [[T::zero(); 2]; 2];
    for i in 0..2 {
        for j in 0..2 {
            g[i][j] = x[i] * x[j];
        }
    }
    g[0][1] * g[1][0] + g[1][1]
}

#[test]
fn one_name_for_two_arrays_of_arrays() {
    // f = (x² − y²)(1 + x).
    for (x, y) in [(0.7, 0.3), (-1.2, 2.5)] {
        let (value, dx, dy) = twice_bound_grad(x, y);
        assert_eq!(value.to_bits(), twice_bound(x, y).to_bits());
        let want = [2.0 * x * (1.0 + x) + x * x - y * y, -2.0 * y * (1.0 + x)];
        assert_relative_eq!(dx, want[0], epsilon = 1e-14, max_relative = 1e-14);
        assert_relative_eq!(dy, want[1], epsilon = 1e-14, max_relative = 1e-14);
        let (value, tangent) = twice_bound_jvp(x, y, 0.4, -1.5);
        assert_eq!(value.to_bits(), twice_bound(x, y).to_bits());
        let want_t = 0.4 * want[0] - 1.5 * want[1];
        assert_relative_eq!(tangent, want_t, epsilon = 1e-14, max_relative = 1e-14);
    }
    // f = p² − 2.
    let (value, dp) = argument_named_grad(1.3);
    assert_eq!(value.to_bits(), argument_named(1.3).to_bits());
    assert_relative_eq!(dp, 2.6, epsilon = 1e-15, max_relative = 1e-15);
}

#[test]
fn arrays_of_arrays_in_match_arms_and_under_cfg() {
    let x = 0.9;
    // k = 0: x + x²; otherwise p[1][1] = 3x, p[0][1] = 2x: 6x².
    let (value, dx) = in_match_arms_grad(x, 0);
    assert_eq!(value.to_bits(), in_match_arms(x, 0).to_bits());
    assert_relative_eq!(dx, 1.0 + 2.0 * x, epsilon = 1e-15, max_relative = 1e-15);
    let (value, dx) = in_match_arms_grad(x, 1);
    assert_eq!(value.to_bits(), in_match_arms(x, 1).to_bits());
    assert_relative_eq!(dx, 12.0 * x, epsilon = 1e-15, max_relative = 1e-15);
    // f = x·xy + y = x²y + y.
    let y = -0.6;
    let (value, dx, dy) = under_cfg_grad(x, y);
    assert_eq!(value.to_bits(), under_cfg(x, y).to_bits());
    assert_relative_eq!(dx, 2.0 * x * y, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(dy, x * x + 1.0, epsilon = 1e-15, max_relative = 1e-15);
}

#[test]
fn hessians_through_arrays_of_arrays() {
    // f = a³ + a²b² − b².
    let (a, b) = (0.8, -1.1);
    let (value, grad, h) = updated_determinant_hessian(a, b);
    assert_eq!(value.to_bits(), updated_determinant(a, b).to_bits());
    let want_grad = [3.0 * a * a + 2.0 * a * b * b, 2.0 * a * a * b - 2.0 * b];
    let want_h = [
        [6.0 * a + 2.0 * b * b, 4.0 * a * b],
        [4.0 * a * b, 2.0 * a * a - 2.0],
    ];
    for i in 0..2 {
        assert_relative_eq!(grad[i], want_grad[i], epsilon = 1e-14, max_relative = 1e-14);
        for j in 0..2 {
            assert_relative_eq!(
                h[(i, j)],
                want_h[i][j],
                epsilon = 1e-14,
                max_relative = 1e-14
            );
        }
    }
    // f = x0²x1² + x1².
    let x = [1.3_f64, -0.4];
    let (value, grad, h) = generic_outer_hessian(&x);
    assert_eq!(value.to_bits(), generic_outer(&x).to_bits());
    let want_grad = [
        2.0 * x[0] * x[1] * x[1],
        2.0 * x[0] * x[0] * x[1] + 2.0 * x[1],
    ];
    let want_h = [
        [2.0 * x[1] * x[1], 4.0 * x[0] * x[1]],
        [4.0 * x[0] * x[1], 2.0 * x[0] * x[0] + 2.0],
    ];
    for i in 0..2 {
        assert_relative_eq!(grad[i], want_grad[i], epsilon = 1e-14, max_relative = 1e-14);
        for j in 0..2 {
            assert_relative_eq!(
                h[(i, j)],
                want_h[i][j],
                epsilon = 1e-14,
                max_relative = 1e-14
            );
        }
    }
}

/// Rows walked by `iter_mut()`, each row's elements by their own walk
/// (compared, written in a branch; by `for_each`), under `hessian`.
#[differentiable(hessian)]
fn rows_walked(x: &[f64]) -> f64 {
    let mut g = [[x[0], x[1]], [x[1], 1.0]];
    for (r, row) in g.iter_mut().enumerate() {
        for v in row.iter_mut() {
            if *v > 0.5 {
                *v = *v * *v + r as f64;
            }
        }
    }
    g.iter_mut()
        .for_each(|row| row.iter_mut().for_each(|v| *v *= x[0]));
    g[0][0] + g[0][1] * g[1][0] + g[1][1]
}

#[test]
fn rows_walked_by_iter_mut() {
    // Every element is above 0.5 at x: f = x0³ + x0²x1²(x1² + 1) + 2x0.
    let x = [0.8, 0.7];
    let (value, grad, h) = rows_walked_hessian(&x);
    assert_eq!(value.to_bits(), rows_walked(&x).to_bits());
    let (a, b) = (x[0], x[1]);
    let want_grad = [
        3.0 * a * a + 2.0 * a * b.powi(4) + 2.0 * a * b * b + 2.0,
        4.0 * a * a * b.powi(3) + 2.0 * a * a * b,
    ];
    let want_h = [
        [
            6.0 * a + 2.0 * b.powi(4) + 2.0 * b * b,
            8.0 * a * b.powi(3) + 4.0 * a * b,
        ],
        [
            8.0 * a * b.powi(3) + 4.0 * a * b,
            12.0 * a * a * b * b + 2.0 * a * a,
        ],
    ];
    for i in 0..2 {
        assert_relative_eq!(grad[i], want_grad[i], epsilon = 1e-14, max_relative = 1e-14);
        for j in 0..2 {
            assert_relative_eq!(
                h[(i, j)],
                want_h[i][j],
                epsilon = 1e-14,
                max_relative = 1e-14
            );
        }
    }
}
