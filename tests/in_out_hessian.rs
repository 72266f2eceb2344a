//! Second order (`#[differentiable(hessian)]`) with in-out (`&mut`)
//! arguments: calls of helpers that update state in place, and functions
//! taking `&mut` arguments themselves (their `_hvp`, `_hessian` and sparse
//! Hessian are of the result in the arguments' values on entry, and leave
//! the arguments as the function leaves them). Expected values are closed
//! forms, or central differences of `_grad` (step 1e-5, relative 1e-6).

#![allow(
    clippy::needless_range_loop,
    clippy::assign_op_pattern,
    clippy::clone_on_copy
)]

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::nalgebra::{DMatrix, DVector};
use autograd::num_traits::Float;

/// One explicit Euler step of y' = -k y, in place.
#[differentiable(hessian)]
fn euler_step(y: &mut [f64], k: f64, dt: f64) {
    for i in 0..y.len() {
        y[i] += dt * (-k * y[i]);
    }
}

/// `n` steps, then the sum of squares: s0 r^(2n), r = 1 - k dt.
#[differentiable(hessian)]
fn euler_loss(y0: &[f64], k: f64, dt: f64, n: usize) -> f64 {
    let mut y = y0.to_vec();
    for _ in 0..n {
        euler_step(&mut y, k, dt);
    }
    let mut s = 0.0;
    for v in &y {
        s += v * v;
    }
    s
}

/// A non-linear step: y' = -k y + sin(y).
#[differentiable(hessian)]
fn sine_step(y: &mut [f64], k: f64, dt: f64) {
    for i in 0..y.len() {
        y[i] += dt * (-k * y[i] + y[i].sin());
    }
}

#[differentiable(hessian)]
fn sine_loss(y0: &[f64], k: f64, dt: f64) -> f64 {
    let mut y = y0.to_vec();
    for _ in 0..4 {
        sine_step(&mut y, k, dt);
    }
    y.iter().map(|v| v * v * v).sum::<f64>() + k * y[0]
}

/// Adds `v w²` to `acc`.
#[differentiable(hessian)]
fn accumulate(acc: &mut f64, v: f64, w: f64) {
    *acc += v * w * w;
}

#[differentiable(hessian)]
fn weighted(x: &[f64], w: f64) -> f64 {
    let mut acc = 0.0;
    for xi in x {
        accumulate(&mut acc, *xi, w);
    }
    acc * acc
}

/// Symplectic Euler on two in-out arguments.
#[differentiable(hessian)]
fn symplectic(q: &mut [f64], p: &mut [f64], dt: f64) {
    for i in 0..q.len() {
        p[i] -= dt * q[i].sin();
        q[i] += dt * p[i];
    }
}

#[differentiable(hessian)]
fn pendulum_energy(q0: &[f64], p0: &[f64], dt: f64) -> f64 {
    let mut q = q0.to_vec();
    let mut p = p0.to_vec();
    for _ in 0..3 {
        symplectic(&mut q, &mut p, dt);
    }
    let mut e = 0.0;
    for i in 0..q.len() {
        e += 0.5 * p[i] * p[i] - q[i].cos();
    }
    e
}

/// Grows `y` and returns what it was, times `rate`: a result and an
/// in-out argument, with a Hessian of its own.
#[differentiable(hessian)]
fn grow(y: &mut f64, rate: f64) -> f64 {
    let old = *y;
    *y *= 1.0 + rate * rate;
    old * rate
}

#[differentiable(hessian)]
fn grown(y0: f64, rate: f64) -> f64 {
    let mut y = y0;
    let mut paid = 0.0;
    for _ in 0..3 {
        paid += grow(&mut y, rate);
    }
    paid + y
}

/// A step generic over its scalar, called from an `f64` function and from
/// a generic one.
#[differentiable(hessian)]
fn generic_step<T: Float>(y: &mut [T], k: T) {
    for i in 0..y.len() {
        y[i] = y[i] * (T::one() - k * y[i]);
    }
}

#[differentiable(hessian)]
fn generic_step_loss(y0: &[f64], k: f64) -> f64 {
    let mut y = y0.to_vec();
    generic_step(&mut y, k);
    generic_step(&mut y, k);
    y[0] * y[1]
}

#[differentiable(hessian)]
fn generic_loss<T: Float>(y0: &[T], k: T) -> T {
    let mut y = y0.to_vec();
    generic_step(&mut y, k);
    y[0] * y[1]
}

/// A fixed-size state.
#[differentiable(hessian)]
fn rotate3(y: &mut [f64; 3], a: f64) {
    let (c, s) = (a.cos(), a.sin());
    let y0 = y[0];
    y[0] = c * y0 - s * y[1];
    y[1] = s * y0 + c * y[1];
    y[2] *= c;
}

#[differentiable(hessian)]
fn rotated(y0: &[f64; 3], a: f64) -> f64 {
    let mut y = y0.clone();
    rotate3(&mut y, a);
    y[0] * y[1] + y[2]
}

/// In-out arguments of the function itself: Σ k³ yᵢ² after yᵢ ← k yᵢ.
#[differentiable(hessian)]
fn scaled_energy(y: &mut [f64], k: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..y.len() {
        y[i] *= k;
        s += y[i] * y[i] * k;
    }
    s
}

/// k² y² after y ← k y.
#[differentiable(hessian)]
fn scaled_square(y: &mut f64, k: f64) -> f64 {
    *y *= k;
    *y * *y
}

#[differentiable(hessian)]
fn vec_energy(y: &mut Vec<f64>, k: f64) -> f64 {
    y.push(k);
    let mut s = 0.0;
    for v in y.iter() {
        s += v * v * k;
    }
    s
}

#[differentiable(hessian)]
fn dvector_energy(y: &mut DVector<f64>, k: f64) -> f64 {
    *y *= k;
    y.dot(y)
}

/// Two steps through the helper, from a helper.
#[differentiable(hessian)]
fn double_step(y: &mut [f64], k: f64, dt: f64) {
    euler_step(&mut *y, k, dt);
    euler_step(&mut *y, k, dt);
}

#[differentiable(hessian)]
fn double_loss(y0: &[f64], k: f64, dt: f64) -> f64 {
    let mut y = y0.to_vec();
    double_step(&mut y, k, dt);
    y.iter().map(|v| v * v).sum()
}

/// Generic, with an in-out argument and a result: Σ k yᵢ³ after yᵢ ← k yᵢ.
#[differentiable(hessian)]
fn generic_energy<T: Float>(y: &mut [T], k: T) -> T {
    let mut s = T::zero();
    for i in 0..y.len() {
        y[i] = y[i] * k;
        s = s + y[i] * y[i] * y[i] * k;
    }
    s
}

/// A state of any length N, squared element by element in place.
#[differentiable(hessian)]
fn square_all<const N: usize>(y: &mut [f64; N], dt: f64) {
    for i in 0..N {
        y[i] = y[i] * y[i] * dt;
    }
}

#[differentiable(hessian)]
fn squared_sum(y0: &[f64; 2], dt: f64) -> f64 {
    let mut y = y0.clone();
    square_all(&mut y, dt);
    y[0] + y[1]
}

/// A quadratic decay step, in a `#[checkpoint]` loop and in a `while`
/// loop with a branch choosing the rate.
#[differentiable(hessian)]
fn quadratic_step(y: &mut [f64], k: f64, dt: f64) {
    for i in 0..y.len() {
        y[i] += dt * (-k * y[i] * y[i]);
    }
}

#[differentiable(hessian)]
fn checkpointed_sum(y0: &[f64], k: f64, dt: f64, n: usize) -> f64 {
    let mut y = y0.to_vec();
    #[checkpoint]
    for _ in 0..n {
        quadratic_step(&mut y, k, dt);
    }
    y.iter().sum()
}

#[differentiable(hessian)]
fn stepped_until(y0: &[f64], k: f64, dt: f64) -> f64 {
    let mut y = y0.to_vec();
    let mut t = 0.0;
    while t < 0.35 {
        if y[0] > 0.5 {
            quadratic_step(&mut y, k, dt);
        } else {
            quadratic_step(&mut y, 2.0 * k, dt);
        }
        t += 0.1;
    }
    y.iter().sum()
}

/// A nalgebra vector updated in place.
#[differentiable(hessian)]
fn scale_vector(v: &mut DVector<f64>, k: f64) {
    *v *= k;
}

#[differentiable(hessian)]
fn scaled_vector_norm(x: &DVector<f64>, k: f64) -> f64 {
    let mut v = x.clone();
    scale_vector(&mut v, k);
    v.dot(&v)
}

/// The Hessian of `grad_at` (the flattened gradient as a function of the
/// flattened inputs) by central differences.
fn fd_hessian(grad_at: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> DMatrix<f64> {
    let n = x.len();
    let mut h = DMatrix::zeros(n, n);
    for j in 0..n {
        let step = 1e-5 * x[j].abs().max(1.0);
        let mut up = x.to_vec();
        let mut down = x.to_vec();
        up[j] += step;
        down[j] -= step;
        let (gu, gd) = (grad_at(&up), grad_at(&down));
        for i in 0..n {
            h[(i, j)] = (gu[i] - gd[i]) / (2.0 * step);
        }
    }
    h
}

fn assert_close(got: &DMatrix<f64>, want: &DMatrix<f64>, tolerance: f64) {
    assert_eq!(got.shape(), want.shape());
    let scale = want.amax().max(1.0);
    for (g, w) in got.iter().zip(want.iter()) {
        assert!(
            (g - w).abs() <= tolerance * scale,
            "{g} against {w}\ngot {got}\nwant {want}"
        );
    }
}

#[test]
fn a_call_updating_a_slice_matches_the_closed_form_hessian() {
    // Nine states, k and dt: eleven inputs, so the eight-lane sweep runs
    // as well as the one-column products.
    let y0 = [1.0, -2.0, 0.5, 0.25, 3.0, -1.5, 0.75, 2.0, -0.5];
    let (k, dt, n) = (0.7, 0.05, 6);
    let r = 1.0 - k * dt;
    let s0: f64 = y0.iter().map(|v| v * v).sum();
    let m = 2 * n as i32;
    let (value, grad, h) = euler_loss_hessian(&y0, k, dt, n);
    assert_relative_eq!(value, s0 * r.powi(m), max_relative = 1e-13);
    let mut want = DMatrix::zeros(11, 11);
    for i in 0..9 {
        want[(i, i)] = 2.0 * r.powi(m);
        // ∂/∂k and ∂/∂dt of 2 yᵢ r^m: 2 yᵢ m r^(m-1) ∂r.
        let cross = 2.0 * y0[i] * m as f64 * r.powi(m - 1);
        want[(i, 9)] = -dt * cross;
        want[(9, i)] = -dt * cross;
        want[(i, 10)] = -k * cross;
        want[(10, i)] = -k * cross;
        assert_relative_eq!(grad[i], 2.0 * y0[i] * r.powi(m), max_relative = 1e-12);
    }
    // s0 r^m: second derivatives in (k, dt), with ∂r/∂k = -dt, ∂r/∂dt = -k,
    // ∂²r/∂k∂dt = -1.
    let d1 = s0 * m as f64 * r.powi(m - 1);
    let d2 = s0 * (m * (m - 1)) as f64 * r.powi(m - 2);
    want[(9, 9)] = d2 * dt * dt;
    want[(10, 10)] = d2 * k * k;
    want[(9, 10)] = d2 * dt * k - d1;
    want[(10, 9)] = want[(9, 10)];
    assert_close(&h, &want, 1e-12);
    // Each column is the Hessian-vector product along its input.
    let (_, _, _, _, hv_y, hv_k, hv_dt) = euler_loss_hvp(
        &y0,
        k,
        dt,
        n,
        &[0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
        0.0,
        0.0,
    );
    for i in 0..9 {
        assert_relative_eq!(hv_y[i], want[(i, 1)], max_relative = 1e-12);
    }
    assert_relative_eq!(hv_k, want[(9, 1)], max_relative = 1e-12);
    assert_relative_eq!(hv_dt, want[(10, 1)], max_relative = 1e-12);
    // The sparse Hessian holds the same entries.
    let coloring = euler_loss_hessian_pattern(&y0, k, dt, n);
    let (sparse_value, _, sparse) = euler_loss_hessian_sparse(&y0, k, dt, n, &coloring);
    assert_eq!(sparse_value, value);
    assert_close(&DMatrix::from(&sparse), &want, 1e-12);
}

#[test]
fn a_non_linear_step_matches_central_differences() {
    let y0 = [0.3, -1.1, 0.8, 1.4, -0.2, 0.6, 0.9, -0.7];
    let (k, dt) = (0.4, 0.1);
    let (_, _, h) = sine_loss_hessian(&y0, k, dt);
    let mut x = y0.to_vec();
    x.extend([k, dt]);
    let want = fd_hessian(
        |x| {
            let (_, dy, dk, ddt) = sine_loss_grad(&x[..8], x[8], x[9]);
            let mut g = dy;
            g.extend([dk, ddt]);
            g
        },
        &x,
    );
    assert_close(&h, &want, 1e-6);
}

#[test]
fn an_accumulator_passed_by_mut_reference() {
    // f = (w² Σx)²: closed form.
    let x = [0.5, 1.5, -0.25];
    let w = 1.2;
    let s: f64 = x.iter().sum();
    let (value, grad, h) = weighted_hessian(&x, w);
    assert_relative_eq!(value, (w * w * s).powi(2), max_relative = 1e-14);
    for i in 0..3 {
        assert_relative_eq!(grad[i], 2.0 * w.powi(4) * s, max_relative = 1e-14);
        for j in 0..3 {
            assert_relative_eq!(h[(i, j)], 2.0 * w.powi(4), max_relative = 1e-14);
        }
        assert_relative_eq!(h[(i, 3)], 8.0 * w.powi(3) * s, max_relative = 1e-14);
        assert_relative_eq!(h[(3, i)], 8.0 * w.powi(3) * s, max_relative = 1e-14);
    }
    assert_relative_eq!(grad[3], 4.0 * w.powi(3) * s * s, max_relative = 1e-14);
    assert_relative_eq!(h[(3, 3)], 12.0 * w * w * s * s, max_relative = 1e-14);
}

#[test]
fn a_call_updating_two_arguments_matches_central_differences() {
    let q0 = [0.4, -0.9, 1.3, 0.1];
    let p0 = [0.2, 0.5, -0.3, 1.0];
    let dt = 0.15;
    let (value, _, h) = pendulum_energy_hessian(&q0, &p0, dt);
    assert_eq!(value, pendulum_energy(&q0, &p0, dt));
    let mut x = q0.to_vec();
    x.extend(p0);
    x.push(dt);
    let want = fd_hessian(
        |x| {
            let (_, dq, dp, ddt) = pendulum_energy_grad(&x[..4], &x[4..8], x[8]);
            let mut g = dq;
            g.extend(dp);
            g.push(ddt);
            g
        },
        &x,
    );
    assert_close(&h, &want, 1e-6);
}

#[test]
fn a_call_whose_result_is_read_matches_the_closed_form() {
    // y grows by g = 1 + r² each call; paid = r y0 (1 + g + g²), then y0 g³.
    let (y0, r) = (1.5, 0.3);
    let g = 1.0 + r * r;
    let f = |y0: f64, r: f64| {
        let g = 1.0 + r * r;
        r * y0 * (1.0 + g + g * g) + y0 * g.powi(3)
    };
    let (value, grad, h) = grown_hessian(y0, r);
    assert_relative_eq!(value, f(y0, r), max_relative = 1e-14);
    // ∂/∂y0 is linear in y0: H[y0][y0] = 0.
    assert_eq!(h[(0, 0)], 0.0);
    let dg = 2.0 * r;
    let d_dr =
        |y0: f64| y0 * (1.0 + g + g * g) + r * y0 * (dg + 2.0 * g * dg) + 3.0 * y0 * g * g * dg;
    assert_relative_eq!(
        grad[0],
        r * (1.0 + g + g * g) + g.powi(3),
        max_relative = 1e-14
    );
    assert_relative_eq!(grad[1], d_dr(y0), max_relative = 1e-14);
    assert_relative_eq!(h[(0, 1)], d_dr(1.0), max_relative = 1e-14);
    assert_relative_eq!(h[(1, 0)], d_dr(1.0), max_relative = 1e-14);
    let want_rr = (f(y0, r + 1e-4) - 2.0 * f(y0, r) + f(y0, r - 1e-4)) / 1e-8;
    assert_relative_eq!(h[(1, 1)], want_rr, max_relative = 1e-6);
}

#[test]
fn a_function_with_a_result_and_an_in_out_argument_has_its_own_hessian() {
    // old·rate of y on entry; y left as `grow` leaves it.
    let mut y = 2.0;
    let (value, grad, h) = grow_hessian(&mut y, 0.5);
    assert_eq!(value, 1.0);
    assert_eq!(y, 2.0 * 1.25);
    assert_eq!(grad.as_slice(), &[0.5, 2.0]);
    assert_eq!(h.as_slice(), &[0.0, 1.0, 1.0, 0.0]);
    let mut y = 2.0;
    let (value, dy, drate, hy, hrate) = grow_hvp(&mut y, 0.5, 1.0, 0.0);
    assert_eq!((value, dy, drate, hy, hrate), (1.0, 0.5, 2.0, 0.0, 1.0));
    assert_eq!(y, 2.5);
}

#[test]
fn a_generic_step_from_f64_and_generic_callers() {
    let y0 = [0.4, -0.3];
    let k = 0.8;
    let (_, _, h) = generic_step_loss_hessian(&y0, k);
    let want = fd_hessian(
        |x| {
            let (_, dy, dk) = generic_step_loss_grad(&x[..2], x[2]);
            vec![dy[0], dy[1], dk]
        },
        &[y0[0], y0[1], k],
    );
    assert_close(&h, &want, 1e-6);
    // One step: f = y0 (1 - k y0) · y1 (1 - k y1), at f64 and at f32.
    let f = |a: f64, b: f64, k: f64| a * (1.0 - k * a) * b * (1.0 - k * b);
    let (_, _, h) = generic_loss_hessian(&y0, k);
    let (a, b) = (y0[0], y0[1]);
    let want_ab = (1.0 - 2.0 * k * a) * (1.0 - 2.0 * k * b);
    assert_relative_eq!(h[(0, 1)], want_ab, max_relative = 1e-13);
    assert_relative_eq!(
        h[(0, 0)],
        -2.0 * k * b * (1.0 - k * b),
        max_relative = 1e-13
    );
    let (value32, _, h32) = generic_loss_hessian(&[0.4f32, -0.3], 0.8f32);
    assert_relative_eq!(value32 as f64, f(a, b, k), max_relative = 1e-6);
    assert_relative_eq!(h32[(0, 1)] as f64, want_ab, max_relative = 1e-5);
}

#[test]
fn a_call_updating_a_fixed_size_array() {
    let y0 = [0.7, -0.4, 1.1];
    let a = 0.35;
    let (_, _, h) = rotated_hessian(&y0, a);
    let want = fd_hessian(
        |x| {
            let (_, dy, da) = rotated_grad(&[x[0], x[1], x[2]], x[3]);
            vec![dy[0], dy[1], dy[2], da]
        },
        &[y0[0], y0[1], y0[2], a],
    );
    assert_close(&h, &want, 1e-6);
}

#[test]
fn own_in_out_slice_closed_form_and_left_as_the_function_leaves_it() {
    let mut y = vec![1.0, 2.0];
    let k = 0.5;
    let (value, grad, h) = scaled_energy_hessian(&mut y, k);
    assert_eq!(y, [0.5, 1.0]);
    assert_eq!(value, 0.625);
    // f = k³ Σyᵢ²: ∂yᵢ = 2k³yᵢ, ∂k = 3k²Σyᵢ², H = [[2k³, 0, 6k²y₀], [0, 2k³, 6k²y₁], [.., 6kΣyᵢ²]].
    assert_eq!(grad.as_slice(), &[0.25, 0.5, 3.75]);
    assert_eq!(
        h,
        DMatrix::from_row_slice(3, 3, &[0.25, 0.0, 1.5, 0.0, 0.25, 3.0, 1.5, 3.0, 15.0])
    );
    let mut y = vec![1.0, 2.0];
    let (value, dy, dk, hv_y, hv_k) = scaled_energy_hvp(&mut y, k, &[0.0, 1.0], 1.0);
    assert_eq!(y, [0.5, 1.0]);
    assert_eq!((value, dy, dk), (0.625, vec![0.25, 0.5], 3.75));
    assert_eq!((hv_y, hv_k), (vec![1.5, 3.25], 18.0));
    let mut y = vec![1.0, 2.0];
    let coloring = scaled_energy_hessian_pattern(&mut y, k);
    assert_eq!(y, [0.5, 1.0]);
    let mut y = vec![1.0, 2.0];
    let (sparse_value, _, sparse) = scaled_energy_hessian_sparse(&mut y, k, &coloring);
    assert_eq!(y, [0.5, 1.0]);
    assert_eq!(sparse_value, 0.625);
    assert_eq!(DMatrix::from(&sparse), h);
}

#[test]
fn own_in_out_scalar_vec_and_dvector() {
    let mut y = 3.0;
    let (value, grad, h) = scaled_square_hessian(&mut y, 0.5);
    // k² y²: ∂y = 2k²y, ∂k = 2ky², H = [[2k², 4ky], [4ky, 2y²]].
    assert_eq!(y, 1.5);
    assert_eq!(value, 2.25);
    assert_eq!(grad.as_slice(), &[1.5, 9.0]);
    assert_eq!(h.as_slice(), &[0.5, 6.0, 6.0, 18.0]);

    // k (Σyᵢ² + k²) = kΣyᵢ² + k³, y gains k.
    let mut y = vec![1.0, -2.0];
    let k = 0.5;
    let (value, grad, h) = vec_energy_hessian(&mut y, k);
    assert_eq!(y, [1.0, -2.0, 0.5]);
    assert_relative_eq!(value, k * 5.0 + k.powi(3), max_relative = 1e-15);
    assert_relative_eq!(grad[2], 5.0 + 3.0 * k * k, max_relative = 1e-15);
    let want = DMatrix::from_row_slice(
        3,
        3,
        &[2.0 * k, 0.0, 2.0, 0.0, 2.0 * k, -4.0, 2.0, -4.0, 6.0 * k],
    );
    assert_close(&h, &want, 1e-15);

    // k² Σyᵢ².
    let mut y = DVector::from_vec(vec![1.0, 3.0]);
    let (value, grad, h) = dvector_energy_hessian(&mut y, 2.0);
    assert_eq!(y.as_slice(), &[2.0, 6.0]);
    assert_eq!(value, 40.0);
    assert_eq!(grad.as_slice(), &[8.0, 24.0, 40.0]);
    let want = DMatrix::from_row_slice(3, 3, &[8.0, 0.0, 8.0, 0.0, 8.0, 24.0, 8.0, 24.0, 20.0]);
    assert_close(&h, &want, 1e-15);
}

#[test]
fn a_helper_passing_its_own_in_out_argument_on() {
    // Two steps: s0 r⁴.
    let y0 = [0.5, -1.5, 2.0];
    let (k, dt) = (0.3, 0.2);
    let r = 1.0 - k * dt;
    let (value, _, h) = double_loss_hessian(&y0, k, dt);
    assert_relative_eq!(value, 6.5 * r.powi(4), max_relative = 1e-14);
    for i in 0..3 {
        assert_relative_eq!(h[(i, i)], 2.0 * r.powi(4), max_relative = 1e-14);
        assert_relative_eq!(
            h[(i, 3)],
            -dt * 8.0 * y0[i] * r.powi(3),
            max_relative = 1e-13
        );
    }
    assert_relative_eq!(
        h[(3, 3)],
        6.5 * 12.0 * r * r * dt * dt,
        max_relative = 1e-13
    );
}

#[test]
fn own_in_out_slice_through_the_lane_sweep() {
    // Nine elements and k: one eight-lane sweep and two products.
    let y0: Vec<f64> = (0..9).map(|i| 0.25 * i as f64 - 1.0).collect();
    let k = 0.8;
    let s0: f64 = y0.iter().map(|v| v * v).sum();
    let mut y = y0.clone();
    let (value, grad, h) = scaled_energy_hessian(&mut y, k);
    let moved: Vec<f64> = y0.iter().map(|v| v * k).collect();
    assert_eq!(y, moved);
    assert_relative_eq!(value, k.powi(3) * s0, max_relative = 1e-14);
    let mut want = DMatrix::zeros(10, 10);
    for i in 0..9 {
        want[(i, i)] = 2.0 * k.powi(3);
        want[(i, 9)] = 6.0 * k * k * y0[i];
        want[(9, i)] = want[(i, 9)];
        assert_relative_eq!(grad[i], 2.0 * k.powi(3) * y0[i], max_relative = 1e-14);
    }
    want[(9, 9)] = 6.0 * k * s0;
    assert_close(&h, &want, 1e-14);
}

#[test]
fn generic_in_out_argument_with_a_result_at_f64_and_f32() {
    // Σ k⁴ yᵢ³: ∂²/∂yᵢ² = 6k⁴yᵢ, ∂²/∂yᵢ∂k = 12k³yᵢ², ∂²/∂k² = 12k²Σyᵢ³.
    let y0 = [0.5, -1.0];
    let k = 1.5;
    let cubes: f64 = y0.iter().map(|v| v * v * v).sum();
    let mut y = y0.to_vec();
    let (value, _, h) = generic_energy_hessian(&mut y[..], k);
    assert_eq!(y, [0.75, -1.5]);
    assert_relative_eq!(value, k.powi(4) * cubes, max_relative = 1e-14);
    let want = DMatrix::from_row_slice(
        3,
        3,
        &[
            6.0 * k.powi(4) * y0[0],
            0.0,
            12.0 * k.powi(3) * y0[0] * y0[0],
            0.0,
            6.0 * k.powi(4) * y0[1],
            12.0 * k.powi(3) * y0[1] * y0[1],
            12.0 * k.powi(3) * y0[0] * y0[0],
            12.0 * k.powi(3) * y0[1] * y0[1],
            12.0 * k * k * cubes,
        ],
    );
    assert_close(&h, &want, 1e-14);
    let mut y32 = [0.5f32, -1.0];
    let (_, _, h32) = generic_energy_hessian(&mut y32[..], 1.5f32);
    assert_eq!(y32, [0.75, -1.5]);
    assert_close(&h32.map(f64::from), &want, 1e-6);
}

#[test]
fn a_helper_generic_over_its_length() {
    // dt (y0² + y1²): H = [[2dt, 0, 2y0], [0, 2dt, 2y1], [2y0, 2y1, 0]].
    let (y0, dt) = ([1.5, -0.5], 0.3);
    let (value, _, h) = squared_sum_hessian(&y0, dt);
    assert_relative_eq!(value, dt * 2.5, max_relative = 1e-15);
    let want = DMatrix::from_row_slice(3, 3, &[0.6, 0.0, 3.0, 0.0, 0.6, -1.0, 3.0, -1.0, 0.0]);
    assert_close(&h, &want, 1e-15);
}

#[test]
fn a_checkpointed_loop_and_a_while_loop_with_branches() {
    let (y0, k, dt) = ([1.0, 0.5], 0.3, 0.1);
    let (_, _, h) = checkpointed_sum_hessian(&y0, k, dt, 7);
    let x = [y0[0], y0[1], k, dt];
    let want = fd_hessian(
        |x| {
            let (_, dy, dk, ddt) = checkpointed_sum_grad(&x[..2], x[2], x[3], 7);
            vec![dy[0], dy[1], dk, ddt]
        },
        &x,
    );
    assert_close(&h, &want, 1e-6);
    let (_, _, h) = stepped_until_hessian(&y0, k, dt);
    let want = fd_hessian(
        |x| {
            let (_, dy, dk, ddt) = stepped_until_grad(&x[..2], x[2], x[3]);
            vec![dy[0], dy[1], dk, ddt]
        },
        &x,
    );
    assert_close(&h, &want, 1e-6);
}

#[test]
fn a_helper_updating_a_nalgebra_vector() {
    // k² ‖x‖²: H_xx = 2k² I, H_xk = 4k x, H_kk = 2‖x‖².
    let x = DVector::from_vec(vec![1.0, -2.0]);
    let k = 1.5;
    let (value, _, h) = scaled_vector_norm_hessian(&x, k);
    assert_relative_eq!(value, k * k * 5.0, max_relative = 1e-15);
    let want = DMatrix::from_row_slice(3, 3, &[4.5, 0.0, 6.0, 0.0, 4.5, -12.0, 6.0, -12.0, 10.0]);
    assert_close(&h, &want, 1e-14);
}
