//! Ordinary Rust in a `#[differentiable]` body (issue 14, second round):
//! constructs users write that the corpus found rejected. Each function
//! returns, from `_grad`, the primal's value bit for bit; expected adjoints
//! come from closed forms (tolerance `CF64_*`) or from five-point central
//! differences of the primal (`fd_support`, tolerance `FD64_*`).

#[path = "fd_support/mod.rs"]
mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::*;
use nalgebra::DVector;

fn close(actual: &[f64], expected: &[f64], abs: f64, rel: f64) {
    assert_eq!(actual.len(), expected.len());
    for (a, e) in actual.iter().zip(expected) {
        assert_relative_eq!(*a, *e, epsilon = abs, max_relative = rel);
    }
}

// ---------------------------------------------------------------------------
// Iterating a nalgebra vector.

#[differentiable]
fn entropy(p: &DVector<f64>) -> f64 {
    -p.iter().map(|&pi| pi * pi.ln()).sum::<f64>()
}

#[differentiable]
fn weighted_squares(x: &DVector<f64>, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for (xi, wi) in x.iter().zip(w) {
        s += wi * xi * xi;
    }
    s
}

/// Iterates a matrix: column by column, as nalgebra stores it.
#[differentiable]
fn weighted_total(m: &nalgebra::DMatrix<f64>) -> f64 {
    let mut s = 0.0;
    for (k, v) in m.iter().enumerate() {
        s += (k as f64 + 1.0) * *v * *v;
    }
    s
}

#[test]
fn a_dvector_iterates_in_storage_order() {
    let m = nalgebra::DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let (v, g) = weighted_total_grad(&m);
    assert_eq!(v.to_bits(), weighted_total(&m).to_bits());
    // Storage order m[(0,0)], m[(1,0)], m[(0,1)], m[(1,1)]: weights 1..4.
    let want = [
        2.0 * 1.0 * 1.0,
        2.0 * 2.0 * 3.0,
        2.0 * 3.0 * 2.0,
        2.0 * 4.0 * 4.0,
    ];
    close(g.as_slice(), &want, CF64_ABS, CF64_REL);

    let p = DVector::from_vec(vec![0.2, 0.5, 0.3]);
    let (v, g) = entropy_grad(&p);
    assert_eq!(v.to_bits(), entropy(&p).to_bits());
    // d/dp (-p ln p) = -(ln p + 1).
    let want: Vec<f64> = p.iter().map(|q| -(q.ln() + 1.0)).collect();
    close(g.as_slice(), &want, CF64_ABS, CF64_REL);

    let x = DVector::from_vec(vec![1.5, -0.5, 2.0]);
    let w = [0.3, 0.7, 1.1];
    let (v, gx, gw) = weighted_squares_grad(&x, &w);
    assert_eq!(v.to_bits(), weighted_squares(&x, &w).to_bits());
    let want_x: Vec<f64> = (0..3).map(|i| 2.0 * w[i] * x[i]).collect();
    let want_w: Vec<f64> = (0..3).map(|i| x[i] * x[i]).collect();
    close(gx.as_slice(), &want_x, CF64_ABS, CF64_REL);
    close(&gw, &want_w, CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// Constant data of nested collections: rows of observations.

#[differentiable]
fn logistic_loss(w: &[f64], b: f64, #[constant] xs: &[[f64; 2]], #[constant] ys: &[f64]) -> f64 {
    let mut loss = 0.0;
    for (x, &y) in xs.iter().zip(ys) {
        let z = w[0] * x[0] + w[1] * x[1] + b;
        let p = 1.0 / (1.0 + (-z).exp());
        loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    loss / ys.len() as f64
}

#[differentiable]
fn design_residuals(beta: &[f64], #[constant] x: &[Vec<f64>], #[constant] y: &[f64]) -> f64 {
    let mut sse = 0.0;
    for i in 0..x.len() {
        let mut fit = 0.0;
        for j in 0..x[i].len() {
            fit += x[i][j] * beta[j];
        }
        sse += (y[i] - fit).powi(2);
    }
    sse
}

#[differentiable]
fn nearest_centre(c: &DVector<f64>, #[constant] points: &[DVector<f64>]) -> f64 {
    points
        .iter()
        .map(|p| {
            p.iter()
                .zip(c.iter())
                .map(|(a, b)| (a - b) * (a - b))
                .sum::<f64>()
        })
        .sum()
}

#[test]
fn constant_rows_are_read_by_index_and_iterated() {
    let xs = [[0.5, -1.0], [1.5, 0.2], [-0.3, 0.8]];
    let ys = [1.0, 0.0, 1.0];
    let w = [0.4, -0.7];
    let (v, gw, gb) = logistic_loss_grad(&w, 0.1, &xs, &ys);
    assert_eq!(v.to_bits(), logistic_loss(&w, 0.1, &xs, &ys).to_bits());
    let want_w = fd64_slice(|w| logistic_loss(w, 0.1, &xs, &ys), &w);
    close(&gw, &want_w, FD64_ABS, FD64_REL);
    assert_relative_eq!(
        gb,
        fd64(|b| logistic_loss(&w, b, &xs, &ys), 0.1),
        epsilon = FD64_ABS,
        max_relative = FD64_REL
    );

    let x = vec![vec![1.0, 2.0], vec![1.0, -1.0], vec![1.0, 0.5]];
    let y = [3.0, 0.5, 1.0];
    let beta = [0.2, 0.9];
    let (v, g) = design_residuals_grad(&beta, &x, &y);
    assert_eq!(v.to_bits(), design_residuals(&beta, &x, &y).to_bits());
    // d/dβ ‖y − Xβ‖² = −2 Xᵀ(y − Xβ).
    let r: Vec<f64> = (0..3)
        .map(|i| y[i] - x[i][0] * beta[0] - x[i][1] * beta[1])
        .collect();
    let want: Vec<f64> = (0..2)
        .map(|j| -2.0 * (0..3).map(|i| x[i][j] * r[i]).sum::<f64>())
        .collect();
    close(&g, &want, CF64_ABS, CF64_REL);

    let points = vec![
        DVector::from_vec(vec![1.0, 0.0]),
        DVector::from_vec(vec![-0.5, 2.0]),
    ];
    let c = DVector::from_vec(vec![0.3, 0.4]);
    let (v, g) = nearest_centre_grad(&c, &points);
    assert_eq!(v.to_bits(), nearest_centre(&c, &points).to_bits());
    // d/dc Σ‖p − c‖² = 2 Σ (c − p).
    let want: Vec<f64> = (0..2)
        .map(|j| points.iter().map(|p| 2.0 * (c[j] - p[j])).sum())
        .collect();
    close(g.as_slice(), &want, CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// Indexing a value computed in place.

#[differentiable]
fn portfolio_variance(w: &DVector<f64>, cov: &nalgebra::DMatrix<f64>) -> f64 {
    (w.transpose() * cov * w)[(0, 0)]
}

#[test]
fn a_product_is_indexed_where_it_is_computed() {
    let w = DVector::from_vec(vec![0.2, 0.5, 0.3]);
    let cov = nalgebra::DMatrix::from_row_slice(
        3,
        3,
        &[0.04, 0.01, 0.0, 0.01, 0.09, 0.02, 0.0, 0.02, 0.16],
    );
    let (v, gw, gc) = portfolio_variance_grad(&w, &cov);
    assert_eq!(v.to_bits(), portfolio_variance(&w, &cov).to_bits());
    // d/dw wᵀΣw = (Σ + Σᵀ) w; d/dΣ = w wᵀ.
    let want_w = (&cov + cov.transpose()) * &w;
    close(gw.as_slice(), want_w.as_slice(), CF64_ABS, CF64_REL);
    let want_c = &w * w.transpose();
    close(gc.as_slice(), want_c.as_slice(), CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// Closures bound by `let`, called by name.

/// Black–Scholes put with the normal CDF as a local closure (Abramowitz
/// and Stegun 26.2.17, absolute error below 7.5e-8).
#[differentiable]
fn put_with_local_cdf(spot: f64, strike: f64, rate: f64, vol: f64, expiry: f64) -> f64 {
    let cdf = |x: f64| {
        let t = 1.0 / (1.0 + 0.2316419 * x.abs());
        let pdf = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
        let tail = pdf
            * t
            * (0.319381530
                + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
        if x >= 0.0 { 1.0 - tail } else { tail }
    };
    let vs = vol * expiry.sqrt();
    let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * expiry) / vs;
    let d2 = d1 - vs;
    strike * (-rate * expiry).exp() * cdf(-d2) - spot * cdf(-d1)
}

/// A closure capturing a parameter, taking and returning an array: one
/// Euler step of x'' = -ω² x.
#[differentiable]
fn euler_oscillator(omega: f64, x0: f64) -> f64 {
    let rhs = |s: [f64; 2]| -> [f64; 2] { [s[1], -omega * omega * s[0]] };
    let dt = 0.1;
    let mut state = [x0, 0.0];
    for _ in 0..3 {
        let k = rhs(state);
        state = [state[0] + dt * k[0], state[1] + dt * k[1]];
    }
    state[0]
}

/// The closure sees `scale` as it was when the closure was written (a
/// `move` closure copies it), not the shadowing `scale` at the call; its
/// tuple result is destructured.
#[differentiable]
fn shadowed_capture(x: f64, y: f64) -> f64 {
    let scale = x;
    let both = move |v: f64| (scale * v, v * v);
    let scale = 100.0 * y;
    let (a, b) = both(y);
    a + b + scale
}

/// A closure passed to an iterator adapter by name, and one closure
/// calling another.
#[differentiable]
fn closures_by_name(xs: &[f64], k: f64) -> f64 {
    let sq = |v: f64| v * v;
    let scaled = |v: f64| k * sq(v);
    xs.iter().copied().map(scaled).sum::<f64>() + sq(k)
}

#[test]
fn a_let_closure_is_called_inline() {
    let args = [100.0, 95.0, 0.03, 0.25, 0.75];
    let f = |p: &[f64]| put_with_local_cdf(p[0], p[1], p[2], p[3], p[4]);
    let (v, ds, dk, dr, dv, dt) = put_with_local_cdf_grad(100.0, 95.0, 0.03, 0.25, 0.75);
    assert_eq!(v.to_bits(), f(&args).to_bits());
    close(
        &[ds, dk, dr, dv, dt],
        &fd64_slice(f, &args),
        FD64_ABS,
        FD64_REL,
    );

    let (v, dw, dx) = euler_oscillator_grad(1.3, 0.8);
    assert_eq!(v.to_bits(), euler_oscillator(1.3, 0.8).to_bits());
    let (fw, fx) = fd64_2(euler_oscillator, 1.3, 0.8);
    close(&[dw, dx], &[fw, fx], FD64_ABS, FD64_REL);

    // x·y + y² + 100·y: d/dx = y, d/dy = x + 2y + 100.
    let (v, dx, dy) = shadowed_capture_grad(0.5, 1.5);
    assert_eq!(v.to_bits(), shadowed_capture(0.5, 1.5).to_bits());
    close(&[dx, dy], &[1.5, 0.5 + 3.0 + 100.0], CF64_ABS, CF64_REL);

    // k Σ x² + k²: d/dx_i = 2 k x_i, d/dk = Σ x² + 2k.
    let xs = [0.5, -1.5, 2.0];
    let (v, gx, gk) = closures_by_name_grad(&xs, 0.7);
    assert_eq!(v.to_bits(), closures_by_name(&xs, 0.7).to_bits());
    let want: Vec<f64> = xs.iter().map(|x| 2.0 * 0.7 * x).collect();
    close(&gx, &want, CF64_ABS, CF64_REL);
    close(&[gk], &[0.25 + 2.25 + 4.0 + 1.4], CF64_ABS, CF64_REL);
}

/// A closure called in conditions: an `if`'s, a `while`'s, under `&&` and
/// in an assertion.
/// The call is its body inlined, so the condition is computed operand by
/// operand (it once named a function the generated code has not).
#[differentiable(jvp, hessian)]
fn closure_in_conditions(x: f64, c: f64) -> f64 {
    let pv = |z: f64| c * z * z;
    let mut lo = 0.0;
    let mut hi = 2.0;
    for _ in 0..4 {
        let mid = 0.5 * (lo + hi);
        if pv(mid) > x {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let mut s = x;
    while pv(s) < 10.0 && s > 0.0 {
        s *= 1.5;
    }
    assert!(pv(s) >= 10.0 || s <= 0.0, "s = {s}");
    lo + hi + s * x
}

#[test]
fn a_closure_called_in_a_condition_is_inlined() {
    // At (0.9, 1.1) the bisection's branches and the while's trip count are
    // those of its neighbourhood: lo + hi is a constant, s = 0.9·1.5ᵏ with
    // k fixed, so f = const + 1.5ᵏ x² and ∂f/∂c = 0.
    let (x, c) = (0.9, 1.1);
    let mut s = x;
    let mut k = 0;
    while c * s * s < 10.0 && s > 0.0 {
        s *= 1.5;
        k += 1;
    }
    let scale = 1.5f64.powi(k);
    let (v, dx, dc) = closure_in_conditions_grad(x, c);
    assert_eq!(v.to_bits(), closure_in_conditions(x, c).to_bits());
    close(&[dx, dc], &[2.0 * scale * x, 0.0], CF64_ABS, CF64_REL);
    let (fx, fc) = fd64_2(closure_in_conditions, x, c);
    close(&[dx, dc], &[fx, fc], FD64_ABS, FD64_REL);
    let (tv, t) = closure_in_conditions_jvp(x, c, 1.0, 0.5);
    assert_eq!(tv.to_bits(), v.to_bits());
    close(&[t], &[dx + 0.5 * dc], CF64_ABS, CF64_REL);
    let (hv, _, h) = closure_in_conditions_hessian(x, c);
    assert_eq!(hv.to_bits(), v.to_bits());
    close(
        &[h[(0, 0)], h[(0, 1)], h[(1, 1)]],
        &[2.0 * scale, 0.0, 0.0],
        CF64_ABS,
        CF64_REL,
    );
}

// ---------------------------------------------------------------------------
// `relu` and `sigmoid` from `autograd::prelude` called as functions.

mod activations_as_functions {
    use super::*;
    use autograd::prelude::{relu, sigmoid};

    #[differentiable]
    pub fn swish_sum(xs: &[f64], beta: f64) -> f64 {
        xs.iter().map(|&x| x * sigmoid(beta * x)).sum()
    }

    #[differentiable]
    pub fn hinge(w: f32, x: f32) -> f32 {
        relu(1.0 - w * x)
    }

    #[test]
    fn they_are_differentiated_as_the_methods_are() {
        let xs = [0.5, -1.0, 2.0];
        let beta = 0.8;
        let (v, gx, gb) = swish_sum_grad(&xs, beta);
        assert_eq!(v.to_bits(), swish_sum(&xs, beta).to_bits());
        // d/dx x σ(βx) = σ + βx σ(1 − σ); d/dβ = Σ x² σ(1 − σ).
        let s = |z: f64| 1.0 / (1.0 + (-z).exp());
        let want: Vec<f64> = xs
            .iter()
            .map(|&x| s(beta * x) + beta * x * s(beta * x) * (1.0 - s(beta * x)))
            .collect();
        close(&gx, &want, CF64_ABS, CF64_REL);
        let want_b: f64 = xs
            .iter()
            .map(|&x| x * x * s(beta * x) * (1.0 - s(beta * x)))
            .sum();
        close(&[gb], &[want_b], CF64_ABS, CF64_REL);

        // Active: d/dw = -x, d/dx = -w; inactive: zero.
        assert_eq!(hinge_grad(0.25, 2.0), (0.5, -2.0, -0.25));
        assert_eq!(hinge_grad(1.0, 2.0), (0.0, 0.0, 0.0));
    }
}

// ---------------------------------------------------------------------------
// A tuple that a call of another `#[differentiable]` function returns.

/// The right-hand side of Lotka–Volterra.
#[differentiable]
fn lotka_volterra(prey: f64, pred: f64, alpha: f64, beta: f64) -> (f64, f64) {
    (alpha * prey - beta * prey * pred, beta * prey * pred - pred)
}

/// Euler steps through the tuple-returning right-hand side.
#[differentiable]
fn lotka_volterra_euler(alpha: f64, beta: f64) -> f64 {
    let (mut x, mut y) = (2.0, 1.0);
    for _ in 0..4 {
        let (dx, dy) = lotka_volterra(x, y, alpha, beta);
        x += 0.05 * dx;
        y += 0.05 * dy;
    }
    x * y
}

#[differentiable]
fn polar(r: f64, theta: f64) -> (f64, f64, f64) {
    let (s, c) = theta.sin_cos();
    (r * c, r * s, r)
}

/// One component ignored, the others read twice.
#[differentiable]
fn polar_product(r: f64, theta: f64) -> f64 {
    let (x, y, _) = polar(r, theta);
    x * y + x
}

#[test]
fn a_called_tuple_is_destructured() {
    let (v, da, db) = lotka_volterra_euler_grad(1.1, 0.4);
    assert_eq!(v.to_bits(), lotka_volterra_euler(1.1, 0.4).to_bits());
    let (fa, fb) = fd64_2(lotka_volterra_euler, 1.1, 0.4);
    close(&[da, db], &[fa, fb], FD64_ABS, FD64_REL);

    // r² sinθ cosθ + r cosθ: d/dr = 2r sc + c, d/dθ = r² cos2θ − r sinθ.
    let (r, t) = (1.5_f64, 0.7_f64);
    let (v, dr, dt) = polar_product_grad(r, t);
    assert_eq!(v.to_bits(), polar_product(r, t).to_bits());
    let want = [
        2.0 * r * t.sin() * t.cos() + t.cos(),
        r * r * (2.0 * t).cos() - r * t.sin(),
    ];
    close(&[dr, dt], &want, CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// A tuple that a plain function (no attribute) returns from constants,
// holding an integer (finding 034, 1): its components are primal values of
// the types rustc gives them, so `i` stays a `usize` for indexing and index
// arithmetic. It was `untuple`d as floats: a type error naming
// `autograd::__private::FloatTuple`, or "integer literal `1` in float
// arithmetic" at `grid[i + 1]`.

/// The cell of a uniform grid of step `h` holding `x`, and the weight of
/// its right end.
fn cell_of(x: f64, h: f64) -> (usize, f64) {
    let s = x / h;
    (s.floor() as usize, s.fract())
}

/// Linear interpolation on a grid of values, read at constant points.
#[differentiable]
fn grid_interpolation(values: &[f64], #[constant] xs: &[f64], #[constant] h: f64) -> f64 {
    let n = values.len();
    let mut total = 0.0;
    for &x in xs {
        let (i, w) = cell_of(x, h);
        let right = (i + 1).min(n - 1);
        total += ((1.0 - w) * values[i] + w * values[right]).powi(2);
    }
    total
}

#[test]
fn a_plain_functions_tuple_of_an_index_and_a_weight() {
    let values = [1.0, 3.0, 2.0, 5.0];
    let xs = [0.25, 1.5, 2.75];
    let (v, g) = grid_interpolation_grad(&values, &xs, 1.0);
    assert_eq!(v.to_bits(), grid_interpolation(&values, &xs, 1.0).to_bits());
    // Closed form: each point adds 2·yₖ·(1 − w) at i and 2·yₖ·w at i + 1.
    let mut want = [0.0; 4];
    for &x in &xs {
        let (i, w) = (x.floor() as usize, x.fract());
        let y = (1.0 - w) * values[i] + w * values[i + 1];
        want[i] += 2.0 * y * (1.0 - w);
        want[i + 1] += 2.0 * y * w;
    }
    close(&g, &want, CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// `to_vec()`: a working copy of a slice or an array.

/// Explicit diffusion steps on a copy of the initial profile; the energy.
#[differentiable]
fn diffusion_energy(u0: &[f64], alpha: f64) -> f64 {
    let n = u0.len();
    let mut u = u0.to_vec();
    for _ in 0..3 {
        let mut next = u.to_vec();
        for i in 1..n - 1 {
            next[i] = u[i] + alpha * (u[i - 1] - 2.0 * u[i] + u[i + 1]);
        }
        u = next;
    }
    u.iter().map(|v| v * v).sum()
}

/// A copy is a new value: writing it leaves the argument's adjoint alone
/// where the copy was overwritten.
#[differentiable]
fn overwrite_copy(x: [f64; 3]) -> f64 {
    let mut y = x.to_vec();
    y[1] = 2.0;
    y[0] * y[1] + y[2] * y[2]
}

#[test]
fn to_vec_copies() {
    let u0 = [0.0, 0.3, 1.0, 0.6, 0.0];
    let (v, gu, ga) = diffusion_energy_grad(&u0, 0.2);
    assert_eq!(v.to_bits(), diffusion_energy(&u0, 0.2).to_bits());
    close(
        &gu,
        &fd64_slice(|u| diffusion_energy(u, 0.2), &u0),
        FD64_ABS,
        FD64_REL,
    );
    let fa = fd64(|a| diffusion_energy(&u0, a), 0.2);
    close(&[ga], &[fa], FD64_ABS, FD64_REL);

    // 2·x0 + x2²: d/dx = (2, 0, 2·x2).
    let (v, g) = overwrite_copy_grad([1.5, -4.0, 0.5]);
    assert_eq!(v.to_bits(), overwrite_copy([1.5, -4.0, 0.5]).to_bits());
    close(&g, &[2.0, 0.0, 1.0], CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// Sub-slices iterated, integer data, a constant tuple destructured.

/// Sums over parts of a slice, in each way a range is written.
#[differentiable]
fn slice_parts(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for &v in &x[1..] {
        s += v * v;
    }
    let head: f64 = x[..2].iter().sum();
    let middle: f64 = x[1..=2].iter().map(|v| v.exp()).sum();
    let n = x.len();
    s + head * x[1..n - 1].iter().product::<f64>() + middle
}

/// Counts as integers, a pair of market quotes as a tuple.
#[differentiable]
fn count_fit(rate: f64, #[constant] counts: &[u32], #[constant] quote: (f64, f64)) -> f64 {
    let (mid, spread) = quote;
    let mut nll = 0.0;
    for &k in counts {
        nll += rate - k as f64 * rate.ln();
    }
    nll + (rate - mid).powi(2) / spread
}

#[test]
fn sub_slices_integers_and_constant_tuples() {
    let x = [0.5, -1.2, 0.8, 2.0];
    let (v, g) = slice_parts_grad(&x);
    assert_eq!(v.to_bits(), slice_parts(&x).to_bits());
    close(&g, &fd64_slice(slice_parts, &x), FD64_ABS, FD64_REL);

    // Σ (r − k ln r) + (r − m)²/s: d/dr = Σ (1 − k/r) + 2(r − m)/s.
    let counts = [2_u32, 0, 5, 3];
    let (v, d) = count_fit_grad(2.5, &counts, (2.0, 0.5));
    assert_eq!(v.to_bits(), count_fit(2.5, &counts, (2.0, 0.5)).to_bits());
    let want: f64 = counts.iter().map(|&k| 1.0 - k as f64 / 2.5).sum::<f64>() + 2.0 * 0.5 / 0.5;
    close(&[d], &[want], CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// nalgebra's `cross`.

/// Torque r × F, weighted by a direction: (r × F)·u.
#[differentiable(jvp)]
fn torque_along(
    r: &nalgebra::Vector3<f64>,
    f: &nalgebra::Vector3<f64>,
    u: &nalgebra::Vector3<f64>,
) -> f64 {
    r.cross(f).dot(u)
}

/// A dynamic 3-vector, the cross product read twice.
#[differentiable]
fn area_squared(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    let n = a.cross(b);
    n.norm_squared() + n[2]
}

#[test]
fn cross_is_differentiated_as_the_triple_product() {
    use nalgebra::Vector3;
    let r = Vector3::new(1.0, 0.5, -0.2);
    let f = Vector3::new(0.3, -0.7, 1.1);
    let u = Vector3::new(0.2, 0.4, -0.9);
    let (v, gr, gf, gu) = torque_along_grad(&r, &f, &u);
    assert_eq!(v.to_bits(), torque_along(&r, &f, &u).to_bits());
    // (r×f)·u = r·(f×u) = f·(u×r).
    close(gr.as_slice(), f.cross(&u).as_slice(), CF64_ABS, CF64_REL);
    close(gf.as_slice(), u.cross(&r).as_slice(), CF64_ABS, CF64_REL);
    close(gu.as_slice(), r.cross(&f).as_slice(), CF64_ABS, CF64_REL);
    // Forward: the derivative along (ṙ, ḟ, u̇) = ⟨gradient, direction⟩.
    let (dr, df, du) = (
        Vector3::new(0.1, -0.2, 0.3),
        Vector3::new(0.5, 0.0, -0.1),
        Vector3::new(-0.3, 0.2, 0.1),
    );
    let (value, tangent) = torque_along_jvp(&r, &f, &u, &dr, &df, &du);
    assert_eq!(value.to_bits(), v.to_bits());
    let want = gr.dot(&dr) + gf.dot(&df) + gu.dot(&du);
    close(&[tangent], &[want], CF64_ABS, CF64_REL);

    let a = DVector::from_vec(vec![1.0, 2.0, -0.5]);
    let b = DVector::from_vec(vec![0.3, -1.0, 0.8]);
    let (v, ga, gb) = area_squared_grad(&a, &b);
    assert_eq!(v.to_bits(), area_squared(&a, &b).to_bits());
    let x: Vec<f64> = a.iter().chain(b.iter()).copied().collect();
    let f = |q: &[f64]| {
        area_squared(
            &DVector::from_column_slice(&q[..3]),
            &DVector::from_column_slice(&q[3..]),
        )
    };
    let got: Vec<f64> = ga.iter().chain(gb.iter()).copied().collect();
    close(&got, &fd64_slice(f, &x), FD64_ABS, FD64_REL);
}

// ---------------------------------------------------------------------------
// `match` arms and `if let` binding the fields of a constant value.

#[differentiable]
fn optional_scale(x: f64, #[constant] k: Option<f64>) -> f64 {
    match k {
        Some(k) => x * x * k,
        None => x,
    }
}

#[differentiable]
fn optional_weight(x: f64, #[constant] w: Option<f64>) -> f64 {
    let mut y = x.sin();
    if let Some(w) = w {
        y *= w;
    }
    y
}

#[test]
fn payloads_of_constants_are_bound() {
    // 2kx for Some(k), 1 for None.
    assert_eq!(optional_scale_grad(1.5, Some(3.0)), (6.75, 9.0));
    assert_eq!(optional_scale_grad(1.5, None), (1.5, 1.0));
    // w cos x for Some(w), cos x for None.
    let (v, d) = optional_weight_grad(0.4, Some(2.0));
    assert_eq!(v.to_bits(), optional_weight(0.4, Some(2.0)).to_bits());
    close(&[d], &[2.0 * 0.4_f64.cos()], CF64_ABS, CF64_REL);
    let (_, d) = optional_weight_grad(0.4, None);
    close(&[d], &[0.4_f64.cos()], CF64_ABS, CF64_REL);
}

// ---------------------------------------------------------------------------
// `std::mem::swap` of two float locals (finding 034, section 7): the
// destructuring assignment `(a, b) = (b, a)` it is.

#[differentiable]
fn swapped_pair(x: f64, y: f64) -> f64 {
    let mut a = x * x;
    let mut b = 3.0 * y;
    std::mem::swap(&mut a, &mut b);
    2.0 * a + b.sin()
}

#[differentiable]
fn swapped_in_a_loop(x: f64, y: f64, #[constant] n: usize) -> f64 {
    use std::mem;
    let mut a = x;
    let mut b = y;
    for _ in 0..n {
        a += b;
        mem::swap(&mut a, &mut b);
    }
    a * b
}

#[test]
fn mem_swap_of_two_locals_exchanges_their_adjoints() {
    // 2a + sin b after the swap is 6y + sin(x²): (2x cos x², 6).
    let (x, y) = (0.7, -1.3);
    let (v, dx, dy) = swapped_pair_grad(x, y);
    assert_eq!(v.to_bits(), swapped_pair(x, y).to_bits());
    close(
        &[dx, dy],
        &[2.0 * x * (x * x).cos(), 6.0],
        CF64_ABS,
        CF64_REL,
    );
    // Three steps of (a, b) ← (b, a + b) from (x, y): a = x + 2y,
    // b = 2x + 3y, so d(ab)/dx = 2a + b, d(ab)/dy = 2b + 3a.
    let (x, y) = (0.4, 1.1);
    let (v, dx, dy) = swapped_in_a_loop_grad(x, y, 3);
    assert_eq!(v.to_bits(), swapped_in_a_loop(x, y, 3).to_bits());
    let (a, b) = (x + 2.0 * y, 2.0 * x + 3.0 * y);
    close(
        &[dx, dy],
        &[2.0 * a + b, 2.0 * b + 3.0 * a],
        CF64_ABS,
        CF64_REL,
    );
}

// ---------------------------------------------------------------------------
// `matches!` on constant values (finding 034, section 8): the pattern test
// `match k { PAT => true, _ => false }` it expands to, primal code.

#[derive(Clone, Copy)]
enum Payoff {
    Call,
    Put,
    Straddle,
}

#[differentiable(hessian)]
fn payoff_value(s: f64, k: f64, #[constant] kind: Payoff, #[constant] n: usize) -> f64 {
    let mut v = 0.0;
    if matches!(kind, Payoff::Call | Payoff::Straddle) {
        v += s * s - k;
    }
    let put = matches!(kind, Payoff::Put | Payoff::Straddle);
    if put {
        v += k * k - s;
    }
    let scale = if matches!(n, m if m > 2) { 2.0 } else { 1.0 };
    v * scale
}

#[test]
fn matches_on_constants_is_a_primal_test() {
    let (s, k) = (1.5, 0.5);
    // Call: s² − k; put: k² − s; straddle: their sum; × 2 where n > 2.
    let cases = [
        (Payoff::Call, 1, [2.0 * s, -1.0]),
        (Payoff::Put, 1, [-1.0, 2.0 * k]),
        (
            Payoff::Straddle,
            3,
            [2.0 * (2.0 * s - 1.0), 2.0 * (2.0 * k - 1.0)],
        ),
    ];
    for (kind, n, expected) in cases {
        let (v, ds, dk) = payoff_value_grad(s, k, kind, n);
        assert_eq!(v.to_bits(), payoff_value(s, k, kind, n).to_bits());
        close(&[ds, dk], &expected, CF64_ABS, CF64_REL);
    }
    // The Hessian of the straddle with n > 2: diag(4, 4).
    let (_, _, h) = payoff_value_hessian(s, k, Payoff::Straddle, 3);
    close(
        &[h[(0, 0)], h[(0, 1)], h[(1, 0)], h[(1, 1)]],
        &[4.0, 0.0, 0.0, 4.0],
        CF64_ABS,
        CF64_REL,
    );
}

/// `matches!` lowered as a `match` arm decides (issue 36, "lower once"):
/// an `|`-pattern with a guard, a guard reading the variant's field (whose
/// name a local of the body has too: the guard reads the field), a
/// scrutinee computed once, and `matches!` as a block's value.
#[differentiable(hessian)]
fn guarded_matches(x: f64, #[constant] k: usize, #[constant] o: Option<usize>) -> f64 {
    let j = k + 100;
    let a = matches!(k, 1 | 3..=5 if k % 2 == 1) && j > k;
    let b = matches!(o, Some(j) if j + k > 3);
    let c = matches!(k * 2, m if m > 4);
    let d = {
        let t = k + 1;
        matches!(t, 2 | 4)
    };
    let mut v = x;
    if a && b {
        v *= x;
    }
    if c || d {
        v *= 3.0;
    }
    v
}

/// `matches!` on differentiable values: a bool, which nothing
/// differentiates (a test of a computed `Option`, a guard on a float, a
/// guard comparing floats with literals), also in the second-order copy,
/// where the floats are dual numbers and the test reads their values.
#[differentiable(hessian)]
fn matches_of_floats(x: f64, y: f64, #[constant] k: i32) -> f64 {
    let below = matches!(x.partial_cmp(&y), Some(std::cmp::Ordering::Less));
    let large = matches!(x * y, p if p > 1.0);
    let near = matches!(k, 1 | 2 if x > 0.5 && y * 2.0 <= 3.0);
    if below || large || near { x * y } else { x + y }
}

/// `matches!` with a guard on an `Option<f64>` local and on `x.first()`.
#[differentiable]
fn matches_of_options(x: &[f64]) -> f64 {
    let mut last_positive: Option<f64> = None;
    for &v in x {
        if v > 0.0 {
            last_positive = Some(v);
        }
    }
    let high = matches!(last_positive, Some(p) if p > 1.0);
    let starts_low = matches!(x.first(), Some(&f) if f < 0.5);
    match (high, starts_low) {
        (true, false) => x[0] * x[1],
        (_, true) => x[1] * x[1],
        _ => x[0],
    }
}

#[test]
fn matches_with_guards_and_computed_scrutinees() {
    let x = 1.3;
    // (k, o, power of x, factor): v = factor · x^power.
    let cases = [
        (3, Some(1), 2, 3.0),
        (1, Some(1), 1, 3.0),
        (4, None, 1, 3.0),
        (0, Some(9), 1, 1.0),
    ];
    for (k, o, power, factor) in cases {
        let (v, dx) = guarded_matches_grad(x, k, o);
        assert_eq!(v.to_bits(), guarded_matches(x, k, o).to_bits());
        let (want, dwant, hwant) = match power {
            2 => (factor * x * x, 2.0 * factor * x, 2.0 * factor),
            _ => (factor * x, factor, 0.0),
        };
        close(&[v, dx], &[want, dwant], CF64_ABS, CF64_REL);
        let (_, _, h) = guarded_matches_hessian(x, k, o);
        close(&[h[(0, 0)]], &[hwant], CF64_ABS, CF64_REL);
    }
    // x < y, x·y > 1, or k ∈ {1, 2} with x > 0.5 and 2y ≤ 3: x·y, whose
    // gradient is (y, x) and Hessian [[0, 1], [1, 0]]; otherwise x + y,
    // (1, 1) and zero.
    for (x, y, k, product) in [
        (0.5, 0.9, 0, true),
        (2.0, 0.6, 0, true),
        (0.9, 0.3, 0, false),
        (0.9, 0.3, 2, true),
        (0.4, 0.3, 2, false),
        (0.9, 0.3, 3, false),
    ] {
        let (v, dx, dy) = matches_of_floats_grad(x, y, k);
        assert_eq!(v.to_bits(), matches_of_floats(x, y, k).to_bits());
        let (want, off_diagonal) = if product {
            ([y, x], 1.0)
        } else {
            ([1.0, 1.0], 0.0)
        };
        close(&[dx, dy], &want, CF64_ABS, CF64_REL);
        let (_, _, h) = matches_of_floats_hessian(x, y, k);
        close(
            &[h[(0, 0)], h[(0, 1)], h[(1, 0)], h[(1, 1)]],
            &[0.0, off_diagonal, off_diagonal, 0.0],
            CF64_ABS,
            CF64_REL,
        );
    }
    // The last positive element above 1 and x₀ ≥ 0.5: x₀x₁; x₀ < 0.5: x₁²;
    // otherwise x₀.
    for (x, want) in [
        ([2.0, 3.0], [3.0, 2.0]),
        ([0.2, 3.0], [0.0, 6.0]),
        ([2.0, 0.5], [1.0, 0.0]),
        ([0.7, -1.0], [1.0, 0.0]),
    ] {
        let (v, g) = matches_of_options_grad(&x);
        assert_eq!(v.to_bits(), matches_of_options(&x).to_bits());
        close(&g, &want, CF64_ABS, CF64_REL);
    }
}

// ---------------------------------------------------------------------------
// `split_at` destructured, and the arg-max the enumerate error names
// (finding 034, section 4).

#[differentiable]
fn halves_difference(r: &[f64]) -> f64 {
    let (first, second) = r.split_at(r.len() / 2);
    let a: f64 = first.iter().map(|v| v * v).sum();
    let b: f64 = second.iter().sum();
    a - b
}

#[differentiable]
fn arg_max_weighted(x: &[f64]) -> f64 {
    let i = (0..x.len()).max_by(|&i, &j| x[i].total_cmp(&x[j])).unwrap();
    let top = x[i];
    top * (i + 1) as f64
}

#[test]
fn split_at_is_two_sub_slices_and_arg_max_an_integer_search() {
    // Σ₍ᵢ<₂₎ xᵢ² − Σ₍ᵢ≥₂₎ xᵢ: (2x₀, 2x₁, −1, −1, −1).
    let r = [0.5, -1.5, 2.0, 3.0, -0.25];
    let (v, dr) = halves_difference_grad(&r);
    assert_eq!(v.to_bits(), halves_difference(&r).to_bits());
    assert_eq!(dr, vec![1.0, -3.0, -1.0, -1.0, -1.0]);
    // The maximum 3.0 at index 1, times 2: derivative 2 there, 0 elsewhere.
    let x = [0.5, 3.0, 2.0];
    let (v, dx) = arg_max_weighted_grad(&x);
    assert_eq!(v.to_bits(), arg_max_weighted(&x).to_bits());
    assert_eq!(dx, vec![0.0, 2.0, 0.0]);
}
