//! In-out (`&mut`) arguments (SPEC "Arguments", the `&mut` row): the
//! generated items leave the arguments as the primal does; the pullback
//! takes a seed for the result, then one for each in-out argument's final
//! value, and returns the adjoints of the values on entry. Expected values
//! are closed forms or central differences of the primal (run on copies).
// Index loops are the numerical style under test; `&mut Vec<f64>` is one
// of the in-out types under test.
#![allow(
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::assign_op_pattern
)]

use approx::assert_relative_eq;
use autograd::differentiable;

/// One explicit Euler step of y' = -k y, in place.
#[differentiable]
fn step(y: &mut [f64], k: f64, dt: f64) {
    for i in 0..y.len() {
        y[i] += dt * (-k * y[i]);
    }
}

/// `n` Euler steps in place, then the sum of squares.
#[differentiable]
fn decay_loss(y: &mut Vec<f64>, k: f64, dt: f64, n: usize) -> f64 {
    for _ in 0..n {
        for i in 0..y.len() {
            y[i] = y[i] - dt * k * y[i];
        }
    }
    let mut s = 0.0;
    for i in 0..y.len() {
        s += y[i] * y[i];
    }
    s
}

/// Adds `v * w` into an accumulator; returns `sin v`.
#[differentiable]
fn accumulate(acc: &mut f64, v: f64, w: f64) -> f64 {
    *acc += v * w;
    v.sin()
}

/// Normalises `v` in place; returns its norm before.
#[differentiable]
fn normalise(v: &mut [f64; 3]) -> f64 {
    let norm = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    for i in 0..3 {
        v[i] /= norm;
    }
    norm
}

const H: f64 = 1e-6;

fn close(a: f64, b: f64) {
    assert_relative_eq!(a, b, epsilon = 1e-7, max_relative = 1e-6);
}

#[test]
fn euler_loss_matches_the_closed_form() {
    // y_n = y0 (1 - k dt)^n, loss = Σ y0² (1 - k dt)^(2n).
    let (k, dt, n) = (0.7, 0.05, 20);
    let y0 = vec![1.0, -2.0, 0.5];
    let r = 1.0 - k * dt;
    let s0: f64 = y0.iter().map(|v| v * v).sum();
    let mut y = y0.clone();
    let (loss, dy, dk, ddt) = decay_loss_grad(&mut y, k, dt, n);
    close(loss, s0 * r.powi(2 * n as i32));
    for i in 0..3 {
        close(dy[i], 2.0 * y0[i] * r.powi(2 * n as i32));
        close(y[i], y0[i] * r.powi(n as i32));
    }
    let dr = s0 * 2.0 * n as f64 * r.powi(2 * n as i32 - 1);
    close(dk, dr * -dt);
    close(ddt, dr * -k);
}

#[test]
fn generated_items_leave_the_arguments_as_the_primal_does() {
    let (k, dt) = (0.3, 0.1);
    let y0 = vec![1.25, -0.75, 3.0];
    let mut primal = y0.clone();
    step(&mut primal, k, dt);
    let mut by_vjp = y0.clone();
    let ((), _) = step_vjp(&mut by_vjp, k, dt);
    assert_eq!(
        primal.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
        by_vjp.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
    );
    let mut primal = y0.clone();
    let value = decay_loss(&mut primal, k, dt, 7);
    for run in [0, 1] {
        let mut y = y0.clone();
        let got = if run == 0 {
            decay_loss_grad(&mut y, k, dt, 7).0
        } else {
            decay_loss_vjp(&mut y, k, dt, 7).0
        };
        assert_eq!(got.to_bits(), value.to_bits());
        assert_eq!(
            y.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            primal.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
    }
    let mut a = 1.5;
    let mut b = 1.5;
    let v = accumulate(&mut a, 0.4, -2.0);
    let (w, _, _, _) = accumulate_grad(&mut b, 0.4, -2.0);
    assert_eq!((a.to_bits(), v.to_bits()), (b.to_bits(), w.to_bits()));
    let mut c = [3.0, 4.0, 12.0];
    let mut d = c;
    let _ = normalise(&mut c);
    let _ = normalise_check(&mut d);
    assert_eq!(c.map(f64::to_bits), d.map(f64::to_bits));
}

/// Seeding only a final value: the pullback is the derivative of that
/// final value (its dot with the seed) with respect to the entry values.
#[test]
fn a_final_value_seed_matches_central_differences() {
    let (k, dt) = (0.3, 0.1);
    let y0 = vec![1.25, -0.75, 3.0];
    let w = vec![0.5, -1.0, 2.0];
    let mut y = y0.clone();
    let ((), pullback) = step_vjp(&mut y, k, dt);
    // The caller reads the final value before seeding.
    assert!(y[2] < y0[2]);
    let (dy, dk, ddt) = pullback(w.clone());
    let out = |y: &[f64], k: f64, dt: f64| {
        let mut y = y.to_vec();
        step(&mut y, k, dt);
        y.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>()
    };
    for i in 0..3 {
        let (mut p, mut m) = (y0.clone(), y0.clone());
        p[i] += H;
        m[i] -= H;
        close(dy[i], (out(&p, k, dt) - out(&m, k, dt)) / (2.0 * H));
    }
    close(dk, (out(&y0, k + H, dt) - out(&y0, k - H, dt)) / (2.0 * H));
    close(ddt, (out(&y0, k, dt + H) - out(&y0, k, dt - H)) / (2.0 * H));

    // The accumulator: seed its final value only, then the result only.
    let mut acc = 1.0;
    let (_, pullback) = accumulate_vjp(&mut acc, 0.4, -2.0);
    let (da, dv, dw) = pullback(0.0, 1.0);
    assert_eq!((da, dv, dw), (1.0, -2.0, 0.4));
    let mut acc = 1.0;
    let (_, pullback) = accumulate_vjp(&mut acc, 0.4, -2.0);
    let (da, dv, dw) = pullback(1.0, 0.0);
    close(da, 0.0);
    close(dv, 0.4f64.cos());
    close(dw, 0.0);
}

#[test]
fn in_place_normalisation() {
    let x = [3.0, 4.0, 12.0];
    let seed_out = [1.0, -2.0, 0.5];
    let mut v = x;
    let (norm, pullback) = normalise_vjp(&mut v);
    assert_eq!(norm, 13.0);
    close(v[1], 4.0 / 13.0);
    let (dv,) = pullback(0.5, seed_out);
    let out = |x: [f64; 3]| {
        let mut v = x;
        let n = normalise(&mut v);
        0.5 * n + v.iter().zip(&seed_out).map(|(a, b)| a * b).sum::<f64>()
    };
    for i in 0..3 {
        let (mut p, mut m) = (x, x);
        p[i] += H;
        m[i] -= H;
        close(dv[i], (out(p) - out(m)) / (2.0 * H));
    }
    let mut v = x;
    let check = normalise_check(&mut v);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

// ---- calls of in-out helpers from differentiable code ----

/// The time stepper's loss: `n` calls of `step` on a local `Vec`.
#[differentiable]
fn stepped_loss(y0: &[f64], k: f64, dt: f64, n: usize) -> f64 {
    let mut y = y0.to_vec();
    for _ in 0..n {
        step(&mut y, k, dt);
    }
    let mut s = 0.0;
    for v in &y {
        s += v * v;
    }
    s
}

/// The same through the caller's own in-out argument, passed on.
#[differentiable]
fn stepped_in_place(y: &mut [f64], k: f64, dt: f64, n: usize) -> f64 {
    for _ in 0..n {
        step(&mut *y, k, dt);
    }
    y[0] * y[0] + y[1] * y[1]
}

/// An accumulator helper called in a loop, on a local float and an array
/// (their results unused: a call passing `&mut` is a statement).
#[differentiable]
fn weighted(x: &[f64], w: f64) -> f64 {
    let mut acc = 0.5;
    for i in 0..x.len() {
        accumulate(&mut acc, x[i], w);
    }
    let mut v = [x[0], x[1], 1.0];
    normalise(&mut v);
    acc * v[0] + v[2]
}

/// The accumulator's result read too: `accumulate` runs twice per call in
/// the sweeps (once for the result, once for the final value).
#[differentiable]
fn weighted_sines(x: &[f64], w: f64) -> f64 {
    let mut acc = 0.5;
    let mut sines = 0.0;
    for i in 0..x.len() {
        sines += accumulate(&mut acc, x[i], w);
    }
    let mut v = [x[0], x[1], 1.0];
    let norm = normalise(&mut v);
    acc * sines + norm * v[1]
}

#[test]
fn a_helper_result_read_matches_central_differences() {
    let x = [0.3, -0.8, 1.1];
    let w = 0.6;
    let (value, dx, dw) = weighted_sines_grad(&x, w);
    assert_eq!(value.to_bits(), weighted_sines(&x, w).to_bits());
    for i in 0..3 {
        let (mut p, mut m) = (x, x);
        p[i] += H;
        m[i] -= H;
        close(
            dx[i],
            (weighted_sines(&p, w) - weighted_sines(&m, w)) / (2.0 * H),
        );
    }
    close(
        dw,
        (weighted_sines(&x, w + H) - weighted_sines(&x, w - H)) / (2.0 * H),
    );
}

#[test]
fn a_time_stepper_called_in_a_loop_matches_the_closed_form() {
    let (k, dt, n) = (0.7, 0.05, 20);
    let y0 = [1.0, -2.0, 0.5];
    let r = 1.0 - k * dt;
    let s0: f64 = y0.iter().map(|v| v * v).sum();
    let (loss, dy, dk, ddt) = stepped_loss_grad(&y0, k, dt, n);
    close(loss, s0 * r.powi(2 * n as i32));
    for i in 0..3 {
        close(dy[i], 2.0 * y0[i] * r.powi(2 * n as i32));
    }
    let dr = s0 * 2.0 * n as f64 * r.powi(2 * n as i32 - 1);
    close(dk, dr * -dt);
    close(ddt, dr * -k);

    // Through the caller's own in-out argument; the final value seeded too.
    let mut y = vec![1.0, -2.0];
    let (value, pullback) = stepped_in_place_vjp(&mut y, k, dt, n);
    let mut primal = vec![1.0, -2.0];
    assert_eq!(
        value.to_bits(),
        stepped_in_place(&mut primal, k, dt, n).to_bits()
    );
    assert_eq!(y, primal);
    let (dy, dk, _ddt) = pullback(1.0, vec![0.5, 0.25]);
    // d/dy0 of Σ y_n² + 0.5 y_n,0 + 0.25 y_n,1 with y_n = y0 rⁿ.
    let rn = r.powi(n as i32);
    close(dy[0], 2.0 * rn * rn + 0.5 * rn);
    close(dy[1], -4.0 * rn * rn + 0.25 * rn);
    let drn = n as f64 * r.powi(n as i32 - 1) * -dt;
    close(dk, (2.0 * 5.0 * rn + 0.5 * 1.0 - 0.25 * 2.0) * drn);
}

#[test]
fn helpers_on_locals_match_central_differences() {
    let x = [0.3, -0.8, 1.1];
    let w = 0.6;
    let (value, dx, dw) = weighted_grad(&x, w);
    assert_eq!(value.to_bits(), weighted(&x, w).to_bits());
    for i in 0..3 {
        let (mut p, mut m) = (x, x);
        p[i] += H;
        m[i] -= H;
        close(dx[i], (weighted(&p, w) - weighted(&m, w)) / (2.0 * H));
    }
    close(dw, (weighted(&x, w + H) - weighted(&x, w - H)) / (2.0 * H));
}

// ---- nalgebra in-out arguments, `_grad_acc` ----

use autograd::nalgebra::{DMatrix, DVector};

/// A gradient step on `x` in place; returns the loss before it.
#[differentiable]
fn descend(x: &mut DVector<f64>, a: &DMatrix<f64>, lr: f64) -> f64 {
    let loss = (a * &*x).norm_squared();
    *x = &*x * (1.0 - lr);
    loss
}

/// Scales a matrix in place (a matrix is written whole).
#[differentiable]
fn scale_matrix(m: &mut DMatrix<f64>, k: f64) {
    *m = &*m * k;
}

#[test]
fn nalgebra_in_out_arguments() {
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, -0.5, 1.5]);
    let x0 = DVector::from_vec(vec![0.3, -0.7]);
    let lr = 0.1;
    let mut x = x0.clone();
    let mut primal = x0.clone();
    let loss = descend(&mut primal, &a, lr);
    let (value, pullback) = descend_vjp(&mut x, &a, lr);
    assert_eq!(value.to_bits(), loss.to_bits());
    assert_eq!(x, primal);
    let seed_x = DVector::from_vec(vec![1.0, 2.0]);
    let (dx, _da, dlr) = pullback(1.0, seed_x.clone());
    // d/dx0 of |A x0|² + seed·x0 (1 - lr): 2 Aᵀ A x0 + (1 - lr) seed.
    let expected = 2.0 * a.transpose() * &a * &x0 + (1.0 - lr) * &seed_x;
    for i in 0..2 {
        close(dx[i], expected[i]);
    }
    close(dlr, -seed_x.dot(&x0));

    let m0 = DMatrix::from_row_slice(2, 3, &[1.0, 2.0, 3.0, -1.0, 0.5, 4.0]);
    let mut m = m0.clone();
    let ((), pullback) = scale_matrix_vjp(&mut m, 3.0);
    assert_eq!(m, &m0 * 3.0);
    let seed = DMatrix::from_element(2, 3, 1.0);
    let (dm, dk) = pullback(seed);
    assert_eq!(dm, DMatrix::from_element(2, 3, 3.0));
    close(dk, m0.sum());
}

#[test]
fn grad_acc_adds_the_gradient_of_the_entry_values() {
    let (k, dt, n) = (0.7, 0.05, 20);
    let y0 = vec![1.0, -2.0, 0.5];
    let mut y = y0.clone();
    let (_, dy, dk, ddt) = decay_loss_grad(&mut y, k, dt, n);
    let mut y = y0.clone();
    let (mut by, mut bk, mut bdt) = (vec![1.0; 3], 2.0, 0.0);
    let value = decay_loss_grad_acc(&mut y, k, dt, n, &mut by, &mut bk, &mut bdt);
    let mut primal = y0.clone();
    assert_eq!(value.to_bits(), decay_loss(&mut primal, k, dt, n).to_bits());
    assert_eq!(y, primal);
    for i in 0..3 {
        assert_eq!(by[i], 1.0 + dy[i]);
    }
    assert_eq!((bk, bdt), (2.0 + dk, ddt));
}

// ---- generic, early return, untouched, passed on ----

#[differentiable]
fn generic_scale<T: num_traits::Float>(y: &mut [T], k: T) -> T {
    for i in 0..y.len() {
        y[i] = y[i] * k;
    }
    y[0]
}

/// Returns early, leaving the rest of `y` as it was.
#[differentiable]
fn scale_until(y: &mut Vec<f64>, k: f64) -> f64 {
    for i in 0..y.len() {
        y[i] = y[i] * k;
        if y[i] > 10.0 {
            return y[i];
        }
    }
    y[0]
}

/// Never writes `y`: its final value is its value on entry.
#[differentiable]
fn read_only(y: &mut [f64], k: f64) -> f64 {
    y[0] * k
}

/// Passes its own in-out float on to a helper.
#[differentiable]
fn sum_squares_into(acc: &mut f64, x: &[f64]) {
    for i in 0..x.len() {
        add_square(&mut *acc, x[i]);
    }
}

#[differentiable]
fn add_square(acc: &mut f64, v: f64) {
    *acc += v * v;
}

#[test]
fn generic_early_return_untouched_and_passed_on() {
    let mut y = vec![1.0f32, 2.0];
    let (v, dy, dk) = generic_scale_grad(&mut y, 3.0);
    assert_eq!((v, dy, dk, y), (3.0, vec![3.0, 0.0], 1.0, vec![3.0, 6.0]));

    let mut y = vec![1.0, 5.0, 1.0];
    let (v, pullback) = scale_until_vjp(&mut y, 3.0);
    assert_eq!((v, &y), (15.0, &vec![3.0, 15.0, 1.0]));
    // d/d(y, k) of Σ final y: y0, y1 scaled, y2 untouched.
    let (dy, dk) = pullback(0.0, vec![1.0, 1.0, 1.0]);
    assert_eq!((dy, dk), (vec![3.0, 3.0, 1.0], 6.0));

    let mut y = vec![2.0, 5.0];
    let (_, pullback) = read_only_vjp(&mut y, 3.0);
    assert_eq!(y, [2.0, 5.0]);
    assert_eq!(pullback(1.0, vec![1.0, 1.0]), (vec![4.0, 1.0], 2.0));

    let mut acc = 1.0;
    let ((), pullback) = sum_squares_into_vjp(&mut acc, &[1.0, 2.0]);
    assert_eq!(acc, 6.0);
    assert_eq!(pullback(1.0), (1.0, vec![2.0, 4.0]));
}

// ---- forward mode ----

/// Scales `y` by `k` in place; returns the product of the first two.
#[differentiable(jvp)]
fn scale_product(y: &mut [f64], k: f64) -> f64 {
    for i in 0..y.len() {
        y[i] = y[i] * k;
    }
    y[0] * y[1]
}

#[differentiable(jvp)]
fn add_square_jvp_too(acc: &mut f64, v: f64) {
    *acc += v * v;
}

/// `NAME_jvp(args.., tangents..)`: the value, the result's tangent, then
/// each in-out argument's final tangent (a `()` function: no result
/// tangent), against central differences of the primal along the
/// direction, run on copies.
#[test]
fn jvp_gives_the_result_and_final_value_tangents() {
    let (y0, k) = ([1.0, 2.0, -0.5], 3.0);
    let (ty, tk) = ([1.0, -0.5, 2.0], 0.5);
    let mut y = y0.to_vec();
    let (value, t_value, t_y) = scale_product_jvp(&mut y, k, &ty, tk);
    let mut primal = y0.to_vec();
    assert_eq!(value.to_bits(), scale_product(&mut primal, k).to_bits());
    assert_eq!(y, primal);
    let along = |h: f64| {
        let mut y: Vec<f64> = y0.iter().zip(&ty).map(|(a, t)| a + h * t).collect();
        let v = scale_product(&mut y, k + h * tk);
        (v, y)
    };
    let ((vp, yp), (vm, ym)) = (along(H), along(-H));
    close(t_value, (vp - vm) / (2.0 * H));
    for i in 0..3 {
        close(t_y[i], (yp[i] - ym[i]) / (2.0 * H));
    }

    let mut acc = 1.0;
    let ((), t_acc) = add_square_jvp_too_jvp(&mut acc, 2.0, 1.0, 0.5);
    assert_eq!(acc, 5.0);
    assert_eq!(t_acc, 1.0 + 2.0 * 2.0 * 0.5);
}

// ---- a local array passed as `&mut [f64]` (fuzz finding 032) ----
//
// rustc coerces `&mut [f64; N]` to `&mut [f64]`; the call's hidden items
// took and returned the helper's owned `Vec<f64>`, which did not compile
// against the caller's array (E0308 at the attribute).

/// One step of y' = p·y/2 in place: y ← y·(1 + p/2).
#[differentiable]
fn half_step(y: &mut [f64], p: f64) {
    for i in 0..y.len() {
        y[i] = y[i] + 0.5 * p * y[i];
    }
}

/// Finding 032's program.
#[allow(clippy::manual_memcpy)]
#[differentiable]
fn euler_on_array(p: f64, xs: &[f64]) -> f64 {
    let mut state = [0.0; 2];
    for i in 0..2 {
        state[i] = xs[i];
    }
    half_step(&mut state, p);
    state[0] + state[1]
}

/// The time stepper on a local array: `n` steps, then a product.
#[differentiable]
fn stepped_array(p: f64, xs: &[f64], n: usize) -> f64 {
    let mut state = [xs[0], xs[1], 1.0];
    for _ in 0..n {
        half_step(&mut state, p);
    }
    state[0] * state[1] + state[2]
}

/// Relaxes `y` toward `sin(p·y[0])`; returns `(p·y[0])²`.
#[differentiable]
fn relax_step(y: &mut [f64], p: f64) -> f64 {
    let e = y[0] * p;
    for i in 0..y.len() {
        y[i] = y[i] * (1.0 - p) + e.sin();
    }
    e * e
}

/// The helper's result read each step, on a local array.
#[differentiable]
fn relaxed_array(p: f64, xs: &[f64], n: usize) -> f64 {
    let mut state = [xs[0], xs[1]];
    let mut s = 0.0;
    for _ in 0..n {
        s += relax_step(&mut state, p);
    }
    s + state[1]
}

/// The caller's own in-out array, passed on as a slice.
#[differentiable]
fn advance(y: &mut [f64; 3], p: f64, n: usize) -> f64 {
    for _ in 0..n {
        half_step(&mut *y, p);
    }
    y[0]
}

#[test]
fn a_local_array_passed_as_a_mut_slice_matches_the_closed_form() {
    let (p, xs) = (0.3, [0.4, -1.3]);
    let r = 1.0 + 0.5 * p;
    // f = r·(x0 + x1).
    let (value, dp, dxs) = euler_on_array_grad(p, &xs);
    assert_eq!(value.to_bits(), euler_on_array(p, &xs).to_bits());
    close(value, r * (xs[0] + xs[1]));
    close(dp, 0.5 * (xs[0] + xs[1]));
    close(dxs[0], r);
    close(dxs[1], r);
    let (_, pullback) = euler_on_array_vjp(p, &xs);
    let (dp2, dxs2) = pullback(-2.0);
    close(dp2, -2.0 * dp);
    close(dxs2[1], -2.0 * r);
    let (mut bp, mut bxs) = (1.0, vec![0.5, 0.0]);
    let value = euler_on_array_grad_acc(p, &xs, &mut bp, &mut bxs);
    assert_eq!(value.to_bits(), euler_on_array(p, &xs).to_bits());
    close(bp, 1.0 + dp);
    close(bxs[0], 0.5 + r);
    close(bxs[1], r);
    let check = euler_on_array_check(p, &xs);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");

    // n steps: f = x0·x1·r²ⁿ + rⁿ.
    for n in [0, 1, 7] {
        let ni = n as i32;
        let (value, dp, dxs) = stepped_array_grad(p, &xs, n);
        assert_eq!(value.to_bits(), stepped_array(p, &xs, n).to_bits());
        close(value, xs[0] * xs[1] * r.powi(2 * ni) + r.powi(ni));
        let dr = 2.0 * n as f64 * xs[0] * xs[1] * r.powi(2 * ni - 1) + n as f64 * r.powi(ni - 1);
        close(dp, 0.5 * dr);
        close(dxs[0], xs[1] * r.powi(2 * ni));
        close(dxs[1], xs[0] * r.powi(2 * ni));
        let check = stepped_array_check(p, &xs, n);
        assert!(check.max_abs_error() < 1e-6, "{check:?}");
    }
}

#[test]
fn a_local_array_through_a_helper_result_matches_central_differences() {
    let (p, xs, n) = (0.3, [0.4, -1.3], 5);
    let (value, dp, dxs) = relaxed_array_grad(p, &xs, n);
    assert_eq!(value.to_bits(), relaxed_array(p, &xs, n).to_bits());
    close(
        dp,
        (relaxed_array(p + H, &xs, n) - relaxed_array(p - H, &xs, n)) / (2.0 * H),
    );
    for i in 0..2 {
        let (mut a, mut b) = (xs, xs);
        a[i] += H;
        b[i] -= H;
        close(
            dxs[i],
            (relaxed_array(p, &a, n) - relaxed_array(p, &b, n)) / (2.0 * H),
        );
    }
    let (mut bp, mut bxs) = (0.0, vec![0.0; 2]);
    relaxed_array_grad_acc(p, &xs, n, &mut bp, &mut bxs);
    assert_eq!((bp, bxs), (dp, dxs));
}

#[test]
fn an_in_out_array_passed_on_as_a_mut_slice_matches_the_closed_form() {
    let (p, n): (f64, usize) = (0.3, 4);
    let y0 = [1.0, -2.0, 0.5];
    let rn = (1.0 + 0.5 * p).powi(n as i32);
    let drn = n as f64 * (1.0 + 0.5 * p).powi(n as i32 - 1) * 0.5;
    let mut y = y0;
    let (value, pullback) = advance_vjp(&mut y, p, n);
    let mut primal = y0;
    assert_eq!(value.to_bits(), advance(&mut primal, p, n).to_bits());
    assert_eq!(y, primal);
    for i in 0..3 {
        close(y[i], y0[i] * rn);
    }
    close(value, y0[0] * rn);
    // d/d(y0, p) of 2·y_n,0 + w·y_n with y_n = y0·rⁿ.
    let w = [0.5, -1.0, 2.0];
    let (dy, dp) = pullback(2.0, w);
    close(dy[0], (2.0 + w[0]) * rn);
    close(dy[1], w[1] * rn);
    close(dy[2], w[2] * rn);
    let seeded: f64 = 2.0 * y0[0] + (0..3).map(|i| w[i] * y0[i]).sum::<f64>();
    close(dp, seeded * drn);
    let mut y = y0;
    let (_, dy, dp) = advance_grad(&mut y, p, n);
    close(dy[0], rn);
    close(dp, y0[0] * drn);
    let mut y = y0;
    let check = advance_check(&mut y, p, n);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

// ---- an in-out `Vec` the function grows ----

/// Appends `x` times the last element; returns the first plus the new one.
#[differentiable]
fn append_scaled(v: &mut Vec<f64>, x: f64) -> f64 {
    let k = v.len();
    v.push(v[k - 1] * x);
    v[0] + v[k]
}

/// `NAME_grad` seeds the final value with a zero of its own length (it
/// took the entry's, and the gradient panicked).
#[test]
fn an_in_out_vec_that_grows_has_its_gradient() {
    let x = 3.0;
    let mut v = vec![1.0, 2.0];
    let (value, dv, dx) = append_scaled_grad(&mut v, x);
    // f = v0 + v1·x.
    assert_eq!((value, &v), (7.0, &vec![1.0, 2.0, 6.0]));
    assert_eq!((dv, dx), (vec![1.0, x], 2.0));
    let mut v = vec![1.0, 2.0];
    let check = append_scaled_check(&mut v, x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
    // The final value seeded: d/d(v, x) of f + w·(v0, v1, v1·x).
    let mut v = vec![1.0, 2.0];
    let (_, pullback) = append_scaled_vjp(&mut v, x);
    let (dv, dx) = pullback(1.0, vec![0.5, -1.0, 2.0]);
    close(dv[0], 1.0 + 0.5);
    close(dv[1], x - 1.0 + 2.0 * x);
    close(dx, 2.0 + 2.0 * 2.0);
}

// ---- calls passing several in-out arguments (issue 36, item 4) ----
//
// `step(&mut q, &mut p, dt)` from a differentiable body was one error (a
// call passed at most one in-out argument). Each final value is now a call
// of its own on the values before the call (`__inout_call`,
// `__inout_call_1`, ..), differentiated as any call.

/// One symplectic Euler step of q'' = -w² q on two state slices, in place:
/// p ← p - dt·w²·q, then q ← q + dt·p.
#[differentiable]
fn symplectic_step(q: &mut [f64], p: &mut [f64], w: f64, dt: f64) {
    for i in 0..q.len() {
        p[i] -= dt * w * w * q[i];
        q[i] += dt * p[i];
    }
}

/// `n` symplectic steps on local `Vec`s, then Σ q² + p²/2.
#[differentiable]
fn orbit_loss(q0: &[f64], p0: &[f64], w: f64, dt: f64, n: usize) -> f64 {
    let mut q = q0.to_vec();
    let mut p = p0.to_vec();
    for _ in 0..n {
        symplectic_step(&mut q, &mut p, w, dt);
    }
    let mut s = 0.0;
    for i in 0..q.len() {
        s += q[i] * q[i] + 0.5 * p[i] * p[i];
    }
    s
}

/// One leapfrog (kick-drift-kick) step of the pendulum q'' = -sin q.
#[differentiable]
fn leapfrog(q: &mut [f64], p: &mut [f64], dt: f64) {
    for i in 0..q.len() {
        p[i] -= 0.5 * dt * q[i].sin();
        q[i] += dt * p[i];
        p[i] -= 0.5 * dt * q[i].sin();
    }
}

/// `n` leapfrog steps on local arrays, then the energy weighted per pendulum.
#[differentiable]
fn pendulum_loss(q0: &[f64], p0: &[f64], dt: f64, n: usize) -> f64 {
    let mut q = [q0[0], q0[1]];
    let mut p = [p0[0], p0[1]];
    for _ in 0..n {
        leapfrog(&mut q, &mut p, dt);
    }
    (0.5 * p[0] * p[0] - q[0].cos()) + 2.0 * (0.5 * p[1] * p[1] - q[1].cos())
}

/// The caller's own in-out slices, passed on.
#[differentiable]
fn leapfrog_n(q: &mut [f64], p: &mut [f64], dt: f64, n: usize) -> f64 {
    for _ in 0..n {
        leapfrog(&mut *q, &mut *p, dt);
    }
    q[0] * p[1]
}

/// One semi-implicit Euler step of x'' = -sin x on two floats.
#[differentiable]
fn float_step(x: &mut f64, v: &mut f64, dt: f64) {
    *v -= dt * (*x).sin();
    *x += dt * *v;
}

/// `n` steps, then the energy.
#[differentiable]
fn float_energy(x0: f64, v0: f64, dt: f64, n: usize) -> f64 {
    let mut x = x0;
    let mut v = v0;
    for _ in 0..n {
        float_step(&mut x, &mut v, dt);
    }
    0.5 * v * v - x.cos()
}

/// Scales `y` by `k` and adds its new sum into `s`; returns `s·k`.
#[differentiable]
fn scale_into(s: &mut f64, y: &mut [f64], k: f64) -> f64 {
    for i in 0..y.len() {
        y[i] *= k;
        *s += y[i];
    }
    *s * k
}

/// A float and an array updated by one call whose result is read.
#[differentiable]
fn mixed_loss(a: f64, xs: &[f64], k: f64) -> f64 {
    let mut s = a;
    let mut y = [xs[0], xs[1]];
    let e = scale_into(&mut s, &mut y, k);
    e + s * y[0] + y[1]
}

/// The program the ui case `calls/inout-call-two` pinned as an error.
#[differentiable]
fn swap_scaled(a: &mut f64, b: &mut f64, k: f64) {
    let t = *a;
    *a = *b * k;
    *b = t * k;
}

#[differentiable]
fn swapped_loss(x: f64, y: f64) -> f64 {
    let mut a = x;
    let mut b = y;
    swap_scaled(&mut a, &mut b, 2.0);
    a * b * b
}

#[test]
fn a_symplectic_step_on_two_slices_matches_the_closed_form() {
    let (q0, p0) = ([0.8, -0.3], [0.1, 0.6]);
    let (w, dt) = (1.3, 0.1);
    // p1 = p0 - dt w² q0, q1 = q0 + dt p1; L = Σ q1² + p1²/2.
    let p1: Vec<f64> = (0..2).map(|i| p0[i] - dt * w * w * q0[i]).collect();
    let q1: Vec<f64> = (0..2).map(|i| q0[i] + dt * p1[i]).collect();
    let loss: f64 = (0..2).map(|i| q1[i] * q1[i] + 0.5 * p1[i] * p1[i]).sum();
    let (value, dq, dp, dw, ddt) = orbit_loss_grad(&q0, &p0, w, dt, 1);
    assert_eq!(value.to_bits(), orbit_loss(&q0, &p0, w, dt, 1).to_bits());
    close(value, loss);
    let (mut gw, mut gdt) = (0.0, 0.0);
    for i in 0..2 {
        close(
            dq[i],
            2.0 * q1[i] * (1.0 - dt * dt * w * w) - p1[i] * dt * w * w,
        );
        close(dp[i], 2.0 * q1[i] * dt + p1[i]);
        let (dp1_dw, dp1_ddt) = (-2.0 * dt * w * q0[i], -w * w * q0[i]);
        gw += 2.0 * q1[i] * dt * dp1_dw + p1[i] * dp1_dw;
        gdt += 2.0 * q1[i] * (p1[i] + dt * dp1_ddt) + p1[i] * dp1_ddt;
    }
    close(dw, gw);
    close(ddt, gdt);

    // The same through `_vjp`, `_grad_acc` and `_check`.
    let (v, pullback) = orbit_loss_vjp(&q0, &p0, w, dt, 1);
    assert_eq!(v.to_bits(), value.to_bits());
    let (dq2, dp2, dw2, ddt2) = pullback(-2.0);
    close(dq2[1], -2.0 * dq[1]);
    close(dp2[0], -2.0 * dp[0]);
    close(dw2, -2.0 * dw);
    close(ddt2, -2.0 * ddt);
    let (mut bq, mut bp, mut bw, mut bdt) = (vec![1.0, 0.0], vec![0.0; 2], 0.5, 0.0);
    let v = orbit_loss_grad_acc(&q0, &p0, w, dt, 1, &mut bq, &mut bp, &mut bw, &mut bdt);
    assert_eq!(v.to_bits(), value.to_bits());
    close(bq[0], 1.0 + dq[0]);
    close(bp[1], dp[1]);
    close(bw, 0.5 + dw);
    close(bdt, ddt);
    let check = orbit_loss_check(&q0, &p0, w, dt, 1);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

/// Central differences of the primal with step `H`: agreement to 1e-6
/// relative (the loss is smooth and of order one).
#[test]
fn a_symplectic_loop_on_two_slices_matches_central_differences() {
    let (q0, p0) = ([0.8, -0.3], [0.1, 0.6]);
    let (w, dt, n) = (1.3, 0.1, 25);
    let (value, dq, dp, dw, ddt) = orbit_loss_grad(&q0, &p0, w, dt, n);
    assert_eq!(value.to_bits(), orbit_loss(&q0, &p0, w, dt, n).to_bits());
    let f = |q: [f64; 2], p: [f64; 2], w: f64, dt: f64| orbit_loss(&q, &p, w, dt, n);
    for i in 0..2 {
        let (mut a, mut b) = (q0, q0);
        a[i] += H;
        b[i] -= H;
        close(dq[i], (f(a, p0, w, dt) - f(b, p0, w, dt)) / (2.0 * H));
        let (mut a, mut b) = (p0, p0);
        a[i] += H;
        b[i] -= H;
        close(dp[i], (f(q0, a, w, dt) - f(q0, b, w, dt)) / (2.0 * H));
    }
    close(
        dw,
        (f(q0, p0, w + H, dt) - f(q0, p0, w - H, dt)) / (2.0 * H),
    );
    close(
        ddt,
        (f(q0, p0, w, dt + H) - f(q0, p0, w, dt - H)) / (2.0 * H),
    );
    let check = orbit_loss_check(&q0, &p0, w, dt, n);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");

    // Leapfrog on local arrays.
    let (dt, n) = (0.05, 30);
    let (value, dq, dp, ddt) = pendulum_loss_grad(&q0, &p0, dt, n);
    assert_eq!(value.to_bits(), pendulum_loss(&q0, &p0, dt, n).to_bits());
    let f = |q: [f64; 2], p: [f64; 2], dt: f64| pendulum_loss(&q, &p, dt, n);
    for i in 0..2 {
        let (mut a, mut b) = (q0, q0);
        a[i] += H;
        b[i] -= H;
        close(dq[i], (f(a, p0, dt) - f(b, p0, dt)) / (2.0 * H));
        let (mut a, mut b) = (p0, p0);
        a[i] += H;
        b[i] -= H;
        close(dp[i], (f(q0, a, dt) - f(q0, b, dt)) / (2.0 * H));
    }
    close(ddt, (f(q0, p0, dt + H) - f(q0, p0, dt - H)) / (2.0 * H));
    let (mut bq, mut bp, mut bdt) = (vec![0.0; 2], vec![0.0; 2], 0.0);
    pendulum_loss_grad_acc(&q0, &p0, dt, n, &mut bq, &mut bp, &mut bdt);
    assert_eq!((bq, bp, bdt), (dq, dp, ddt));
}

/// The caller's own two in-out slices passed on, each final value seeded:
/// against central differences of the primal (run on copies) of
/// `r + wq·q_n + wp·p_n`.
#[test]
fn in_out_slices_passed_on_match_central_differences() {
    let (q0, p0, dt, n) = ([0.8, -0.3], [0.1, 0.6], 0.05, 12);
    let (wq, wp) = ([0.5, -1.0], [2.0, 0.25]);
    let (mut q, mut p) = (q0, p0);
    let (value, pullback) = leapfrog_n_vjp(&mut q, &mut p, dt, n);
    let (mut pq, mut pp) = (q0, p0);
    assert_eq!(
        value.to_bits(),
        leapfrog_n(&mut pq, &mut pp, dt, n).to_bits()
    );
    assert_eq!((q, p), (pq, pp));
    let (dq, dp, ddt) = pullback(1.0, wq.to_vec(), wp.to_vec());
    let f = |mut q: [f64; 2], mut p: [f64; 2], dt: f64| {
        let r = leapfrog_n(&mut q, &mut p, dt, n);
        r + (0..2).map(|i| wq[i] * q[i] + wp[i] * p[i]).sum::<f64>()
    };
    for i in 0..2 {
        let (mut a, mut b) = (q0, q0);
        a[i] += H;
        b[i] -= H;
        close(dq[i], (f(a, p0, dt) - f(b, p0, dt)) / (2.0 * H));
        let (mut a, mut b) = (p0, p0);
        a[i] += H;
        b[i] -= H;
        close(dp[i], (f(q0, a, dt) - f(q0, b, dt)) / (2.0 * H));
    }
    close(ddt, (f(q0, p0, dt + H) - f(q0, p0, dt - H)) / (2.0 * H));
    let (mut q, mut p) = (q0, p0);
    let check = leapfrog_n_check(&mut q, &mut p, dt, n);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

#[test]
fn two_in_out_floats_match_the_closed_form() {
    let (x0, v0, dt): (f64, f64, f64) = (0.7, -0.4, 0.2);
    // v1 = v0 - dt sin x0, x1 = x0 + dt v1; E = v1²/2 - cos x1.
    let v1 = v0 - dt * x0.sin();
    let x1 = x0 + dt * v1;
    let (value, dx, dv, ddt) = float_energy_grad(x0, v0, dt, 1);
    assert_eq!(value.to_bits(), float_energy(x0, v0, dt, 1).to_bits());
    close(value, 0.5 * v1 * v1 - x1.cos());
    close(
        dx,
        v1 * -dt * x0.cos() + x1.sin() * (1.0 - dt * dt * x0.cos()),
    );
    close(dv, v1 + x1.sin() * dt);
    close(ddt, -v1 * x0.sin() + x1.sin() * (v1 - dt * x0.sin()));
    let check = float_energy_check(x0, v0, dt, 1);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
    // Many steps: central differences (1e-6 relative).
    let n = 40;
    let (_, dx, dv, ddt) = float_energy_grad(x0, v0, dt, n);
    let f = |x: f64, v: f64, dt: f64| float_energy(x, v, dt, n);
    close(dx, (f(x0 + H, v0, dt) - f(x0 - H, v0, dt)) / (2.0 * H));
    close(dv, (f(x0, v0 + H, dt) - f(x0, v0 - H, dt)) / (2.0 * H));
    close(ddt, (f(x0, v0, dt + H) - f(x0, v0, dt - H)) / (2.0 * H));

    // The former ui case's program: L = (2y)(2x)².
    let (x, y) = (0.3, -1.1);
    let (value, dx, dy) = swapped_loss_grad(x, y);
    close(value, 8.0 * y * x * x);
    close(dx, 16.0 * y * x);
    close(dy, 8.0 * x * x);
}

#[test]
fn a_float_and_a_slice_with_the_result_read_match_the_closed_form() {
    let (a, xs, k) = (0.4, [1.5, -0.5], 1.7);
    // s1 = a + k Y, e = k s1, L = e + s1 k x0 + k x1 (Y = x0 + x1).
    let y = xs[0] + xs[1];
    let s1 = a + k * y;
    let (value, da, dxs, dk) = mixed_loss_grad(a, &xs, k);
    assert_eq!(value.to_bits(), mixed_loss(a, &xs, k).to_bits());
    close(value, k * s1 * (1.0 + xs[0]) + k * xs[1]);
    close(da, k * (1.0 + xs[0]));
    close(dxs[0], k * k * (1.0 + xs[0]) + k * s1);
    close(dxs[1], k * k * (1.0 + xs[0]) + k);
    close(dk, (s1 + k * y) * (1.0 + xs[0]) + xs[1]);
    let (mut ba, mut bxs, mut bk) = (0.0, vec![0.0; 2], 0.0);
    mixed_loss_grad_acc(a, &xs, k, &mut ba, &mut bxs, &mut bk);
    assert_eq!((ba, bxs, bk), (da, dxs, dk));
    let check = mixed_loss_check(a, &xs, k);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

/// A top-level function of several in-out arguments: its `_vjp` takes a
/// seed for the result, then one for each in-out argument's final value
/// in argument order (SPEC "Arguments").
#[test]
fn a_function_of_several_in_out_arguments_seeds_each_final_value() {
    let (s0, y0, k) = (0.4, [1.5, -0.5], 1.7);
    let (mut s, mut y) = (s0, y0);
    let (value, pullback) = scale_into_vjp(&mut s, &mut y, k);
    let (mut ps, mut py) = (s0, y0);
    assert_eq!(value.to_bits(), scale_into(&mut ps, &mut py, k).to_bits());
    assert_eq!((s, y), (ps, py));
    // e = k (s0 + k Y), s1 = s0 + k Y, y1 = k y0: seeds (2, 3, w).
    let w = [0.5, -1.0];
    let (ds, dy, dk) = pullback(2.0, 3.0, w.to_vec());
    let yy = y0[0] + y0[1];
    close(ds, 2.0 * k + 3.0);
    for i in 0..2 {
        close(dy[i], 2.0 * k * k + 3.0 * k + w[i] * k);
    }
    close(
        dk,
        2.0 * (s0 + 2.0 * k * yy) + 3.0 * yy + w[0] * y0[0] + w[1] * y0[1],
    );
    let ((), pullback) = symplectic_step_vjp(&mut [0.8], &mut [0.1], 1.3, 0.1);
    // q1 = q0(1 - dt²w²) + dt p0, p1 = p0 - dt w² q0: seeds (1, 0) and (0, 1).
    let (w, dt) = (1.3f64, 0.1f64);
    let (dq, dp, _, _) = pullback(vec![1.0], vec![0.0]);
    close(dq[0], 1.0 - dt * dt * w * w);
    close(dp[0], dt);
    let ((), pullback) = symplectic_step_vjp(&mut [0.8], &mut [0.1], w, dt);
    let (dq, dp, _, _) = pullback(vec![0.0], vec![1.0]);
    close(dq[0], -dt * w * w);
    close(dp[0], 1.0);
    let (mut s, mut y) = (s0, y0);
    let check = scale_into_check(&mut s, &mut y, k);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

/// `float_step` under `jvp`: two in-out arguments at the top level.
#[differentiable(jvp)]
fn float_step_jvp_too(x: &mut f64, v: &mut f64, dt: f64) {
    *v -= dt * (*x).sin();
    *x += dt * *v;
}

/// `NAME_jvp` of a function of two in-out arguments: each final value's
/// tangent, against central differences of the primal along the direction
/// (run on copies).
#[test]
fn jvp_gives_each_final_value_tangent() {
    let (x0, v0, dt) = (0.7, -0.4, 0.2);
    let (tx, tv, tdt) = (1.0, -0.5, 0.25);
    let (mut x, mut v) = (x0, v0);
    let ((), t_x, t_v) = float_step_jvp_too_jvp(&mut x, &mut v, dt, tx, tv, tdt);
    let (mut px, mut pv) = (x0, v0);
    float_step_jvp_too(&mut px, &mut pv, dt);
    assert_eq!((x.to_bits(), v.to_bits()), (px.to_bits(), pv.to_bits()));
    let along = |h: f64| {
        let (mut x, mut v) = (x0 + h * tx, v0 + h * tv);
        float_step_jvp_too(&mut x, &mut v, dt + h * tdt);
        (x, v)
    };
    let ((xp, vp), (xm, vm)) = (along(H), along(-H));
    close(t_x, (xp - xm) / (2.0 * H));
    close(t_v, (vp - vm) / (2.0 * H));
}

/// A gradient step on `x` whose loss goes into an accumulator: a vector
/// and a float in-out argument.
#[differentiable]
fn descend_into(x: &mut DVector<f64>, total: &mut f64, a: &DMatrix<f64>, lr: f64) {
    *total += (a * &*x).norm_squared();
    *x = &*x * (1.0 - lr);
}

#[differentiable]
fn descent_loss(x0: &DVector<f64>, a: &DMatrix<f64>, lr: f64, n: usize) -> f64 {
    let mut x = x0.clone();
    let mut total = 0.0;
    for _ in 0..n {
        descend_into(&mut x, &mut total, a, lr);
    }
    total + x.sum()
}

/// Appends `x` times the last element (`v` grows), and adds it into `s`.
#[differentiable]
fn append_into(v: &mut Vec<f64>, s: &mut f64, x: f64) {
    let k = v.len();
    v.push(v[k - 1] * x);
    *s += v[k];
}

#[differentiable]
fn appended(x: f64, y: f64) -> f64 {
    let mut v = vec![1.0, y];
    let mut s = 0.0;
    append_into(&mut v, &mut s, x);
    append_into(&mut v, &mut s, x);
    s + v[3]
}

#[test]
fn a_matrix_or_a_growing_vec_beside_a_float_matches_the_closed_form() {
    // One step: L = |A x0|² + (1 - lr) Σ x0.
    let a = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, -0.5, 1.5]);
    let x0 = DVector::from_vec(vec![0.3, -0.7]);
    let lr = 0.1;
    let (value, dx, _da, dlr) = descent_loss_grad(&x0, &a, lr, 1);
    assert_eq!(value.to_bits(), descent_loss(&x0, &a, lr, 1).to_bits());
    close(value, (&a * &x0).norm_squared() + (1.0 - lr) * x0.sum());
    let expected = 2.0 * a.transpose() * &a * &x0;
    for i in 0..2 {
        close(dx[i], expected[i] + (1.0 - lr));
    }
    close(dlr, -x0.sum());
    // Several steps: central differences (1e-6 relative).
    let n = 4;
    let (_, dx, _da, dlr) = descent_loss_grad(&x0, &a, lr, n);
    for i in 0..2 {
        let (mut p, mut m) = (x0.clone(), x0.clone());
        p[i] += H;
        m[i] -= H;
        close(
            dx[i],
            (descent_loss(&p, &a, lr, n) - descent_loss(&m, &a, lr, n)) / (2.0 * H),
        );
    }
    close(
        dlr,
        (descent_loss(&x0, &a, lr + H, n) - descent_loss(&x0, &a, lr - H, n)) / (2.0 * H),
    );

    // v = [1, y, yx, yx²], s = yx + yx²: L = yx + 2yx².
    let (x, y) = (0.6, -1.3);
    let (value, dx, dy) = appended_grad(x, y);
    assert_eq!(value.to_bits(), appended(x, y).to_bits());
    close(value, y * x + 2.0 * y * x * x);
    close(dx, y + 4.0 * y * x);
    close(dy, x + 2.0 * x * x);
}

// ---- `*acc` wherever a statement or expression may stand ----

/// An in-out float read and written through `*` in a `match` arm, a
/// `while` condition, a branch with an early exit, a closure and a
/// compound assignment in a loop.
#[differentiable]
fn relax_into(acc: &mut f64, x: &[f64], mode: u8) -> f64 {
    match mode {
        0 => *acc *= 2.0,
        _ => *acc = (*acc).sin() + 1.0,
    }
    let mut n = 0;
    while *acc < 4.0 && n < 3 {
        *acc += x[n] * x[n];
        n += 1;
    }
    for i in 0..x.len() {
        if x[i] < 0.0 {
            *acc -= x[i] * *acc;
            break;
        }
    }
    let scaled: f64 = x.iter().map(|v| v * *acc).sum();
    if scaled > 100.0 {
        return *acc;
    }
    scaled + *acc
}

#[test]
fn deref_of_an_in_out_float_anywhere_matches_central_differences() {
    // f(acc0, x) = result + 0.5 · final acc, differenced on copies.
    let f = |acc0: f64, x: &[f64], mode: u8| {
        let mut acc = acc0;
        let r = relax_into(&mut acc, x, mode);
        r + 0.5 * acc
    };
    for mode in [0u8, 1] {
        for (acc0, x) in [(0.3, vec![1.2, -0.4, 0.7]), (1.1, vec![0.5, 0.25, 2.0])] {
            let mut acc = acc0;
            let (value, pullback) = relax_into_vjp(&mut acc, &x, mode);
            let mut copy = acc0;
            assert_eq!(value, relax_into(&mut copy, &x, mode));
            assert_eq!(acc, copy);
            let (dacc, dx) = pullback(1.0, 0.5);
            let central = (f(acc0 + H, &x, mode) - f(acc0 - H, &x, mode)) / (2.0 * H);
            close(dacc, central);
            for i in 0..x.len() {
                let (mut up, mut down) = (x.clone(), x.clone());
                up[i] += H;
                down[i] -= H;
                let central = (f(acc0, &up, mode) - f(acc0, &down, mode)) / (2.0 * H);
                close(dx[i], central);
            }
        }
    }
}

/// The in-out slice after another argument: a caller's call checks the
/// callee at the arguments in their order.
#[differentiable]
fn scale_after(k: f64, y: &mut [f64]) -> f64 {
    for i in 0..y.len() {
        y[i] *= k;
    }
    y[0]
}

#[differentiable]
fn scale_twice(k: f64, y: &mut [f64]) -> f64 {
    let first = scale_after(k, &mut *y);
    first + scale_after(k, &mut *y)
}

#[test]
fn in_out_slice_after_another_argument_in_a_call() {
    // y0 k + y0 k², y ← y k².
    let (k, y0) = (1.5, [2.0, -1.0]);
    let mut y = y0.to_vec();
    let (v, dk, dy) = scale_twice_grad(k, &mut y);
    close(v, y0[0] * (k + k * k));
    close(dk, y0[0] * (1.0 + 2.0 * k));
    close(dy[0], k + k * k);
    close(dy[1], 0.0);
    assert_eq!(y, vec![y0[0] * k * k, y0[1] * k * k]);
}
