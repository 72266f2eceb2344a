//! In-out (`&mut`) arguments of functions generic over a length
//! (`const N: usize`), in reverse and forward mode. Expected values are
//! closed forms or central differences of the primal.
// A body copies an array argument with `clone` (it does not dereference
// one).
#![allow(clippy::needless_range_loop, clippy::clone_on_copy)]

use approx::assert_relative_eq;
use autograd::differentiable;

/// One explicit Euler step of y' = -k y on `N` components, in place.
#[differentiable(jvp)]
fn step_n<const N: usize>(y: &mut [f64; N], k: f64, dt: f64) {
    for i in 0..N {
        y[i] += dt * (-k * y[i]);
    }
}

/// `n` steps from `y0`, then the sum of squares.
#[differentiable(jvp)]
fn loss_n<const N: usize>(y0: &[f64; N], k: f64, dt: f64, n: usize) -> f64 {
    let mut y = y0.clone();
    for _ in 0..n {
        step_n(&mut y, k, dt);
    }
    let mut s = 0.0;
    for i in 0..N {
        s += y[i] * y[i];
    }
    s
}

#[test]
fn length_generic_in_out_step_matches_the_closed_form() {
    // y_n = y0 r^n, r = 1 - k dt; loss = s0 r^(2n).
    let (k, dt, n) = (0.7, 0.05, 20);
    let y0 = [1.0, -2.0, 0.5];
    let r: f64 = 1.0 - k * dt;
    let s0: f64 = y0.iter().map(|v| v * v).sum();
    let (loss, dy0, dk, ddt) = loss_n_grad(&y0, k, dt, n);
    assert_eq!(loss, loss_n(&y0, k, dt, n));
    let dr = 2.0 * n as f64 * s0 * r.powi(2 * n as i32 - 1);
    for i in 0..3 {
        assert_relative_eq!(
            dy0[i],
            2.0 * y0[i] * r.powi(2 * n as i32),
            max_relative = 1e-12
        );
    }
    assert_relative_eq!(dk, dr * -dt, max_relative = 1e-12);
    assert_relative_eq!(ddt, dr * -k, max_relative = 1e-12);
    let (value, tangent) = loss_n_jvp(&y0, k, dt, n, &[1.0, 0.0, 0.0], 0.5, 0.0);
    assert_eq!(value, loss);
    assert_relative_eq!(tangent, dy0[0] + 0.5 * dk, max_relative = 1e-12);
}

/// Normalises `v` in place; returns its norm before.
#[differentiable(jvp)]
fn normalise_n<const N: usize>(v: &mut [f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += v[i] * v[i];
    }
    let norm = s.sqrt();
    for i in 0..N {
        v[i] /= norm;
    }
    norm
}

/// One symplectic Euler step of `N` uncoupled oscillators: two in-out
/// arguments of length `N`.
#[differentiable(jvp)]
fn kick_drift<const N: usize>(q: &mut [f64; N], p: &mut [f64; N], dt: f64) {
    for i in 0..N {
        p[i] -= dt * q[i];
        q[i] += dt * p[i];
    }
}

/// The helpers' results read and their states updated, at one length.
#[differentiable(jvp)]
fn orbit<const N: usize>(q0: &[f64; N], dt: f64) -> f64 {
    let mut q = q0.clone();
    let mut p = q0.clone();
    for _ in 0..5 {
        kick_drift(&mut q, &mut p, dt);
    }
    let n = normalise_n(&mut q);
    n * q[0] + p[N - 1]
}

fn central(f: impl Fn(f64) -> f64) -> f64 {
    let h = 1e-6;
    (f(h) - f(-h)) / (2.0 * h)
}

#[test]
fn length_generic_calls_with_results_and_two_in_out_arguments() {
    let (q0, dt) = ([0.8, -0.3, 0.5], 0.1);
    let (value, dq0, ddt) = orbit_grad(&q0, dt);
    assert_eq!(value, orbit(&q0, dt));
    // Central differences at h = 1e-6: error ~1e-9 here.
    for i in 0..3 {
        let expected = central(|t| {
            let mut q = q0;
            q[i] += t;
            orbit(&q, dt)
        });
        assert_relative_eq!(dq0[i], expected, epsilon = 1e-8, max_relative = 1e-7);
    }
    let expected = central(|t| orbit(&q0, dt + t));
    assert_relative_eq!(ddt, expected, epsilon = 1e-8, max_relative = 1e-7);
    let dir = [0.2, 1.0, -0.5];
    let (v, tangent) = orbit_jvp(&q0, dt, &dir, 0.3);
    assert_eq!(v, value);
    let along: f64 = (0..3).map(|i| dq0[i] * dir[i]).sum::<f64>() + ddt * 0.3;
    assert_relative_eq!(tangent, along, max_relative = 1e-12);
}

#[test]
fn length_generic_in_out_functions_own_items() {
    // |v| and v / |v|: d|v| = v·dv / |v|.
    let v0 = [3.0, 4.0];
    let mut v = v0;
    let (norm, dv) = normalise_n_grad(&mut v);
    assert_eq!(norm, 5.0);
    assert_eq!(v, [0.6, 0.8]);
    assert_relative_eq!(dv[0], 0.6, max_relative = 1e-15);
    assert_relative_eq!(dv[1], 0.8, max_relative = 1e-15);
    let check = normalise_n_check(&mut [3.0, 4.0]);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
    let mut v = v0;
    let (norm, d_norm, d_final) = normalise_n_jvp(&mut v, &[1.0, 0.0]);
    assert_eq!(norm, 5.0);
    assert_relative_eq!(d_norm, 0.6, max_relative = 1e-15);
    // d(v/|v|) along e0: (e0 - v̂ (v̂·e0)) / |v| = (1 - 0.36, -0.48) / 5.
    assert_relative_eq!(d_final[0], 0.64 / 5.0, max_relative = 1e-14);
    assert_relative_eq!(d_final[1], -0.48 / 5.0, max_relative = 1e-14);
}

/// A `&mut [f64]` state next to a length-generic weight array.
#[differentiable(jvp)]
fn weigh<const N: usize>(out: &mut [f64], w: &[f64; N]) {
    for i in 0..N {
        out[i] *= w[i];
    }
}

#[differentiable(jvp)]
fn weighed<const N: usize>(w: &[f64; N]) -> f64 {
    let mut out = vec![2.0; N];
    weigh(&mut out, w);
    weigh(&mut out, w);
    out[0] + out[N - 1]
}

#[test]
fn slice_state_with_a_length_generic_argument() {
    // out_i = 2 w_i²: value 2 w0² + 2 w2², gradient (4 w0, 0, 4 w2).
    let w = [0.5, 1.5, -2.0];
    let (value, dw) = weighed_grad(&w);
    assert_eq!(value, weighed(&w));
    assert_eq!(dw, [2.0, 0.0, -8.0]);
    let (_, tangent) = weighed_jvp(&w, &[1.0, 1.0, 1.0]);
    assert_eq!(tangent, -6.0);
}
