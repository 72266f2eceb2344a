//! Second order, `#[differentiable(hessian)]`: `NAME_hvp` and
//! `NAME_hessian` against closed forms (Rosenbrock's tridiagonal Hessian,
//! Black–Scholes gamma, vanna and volga) and against central differences of
//! `NAME_grad` (the gradient differentiated along the direction), through
//! loops, branches, calls, slices, `stop_gradient`, `#[constant]` and
//! `#[checkpoint]`; values bit for bit the primal's.

// A differentiable body indexes slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

/// `(∇f(x + h·v) − ∇f(x − h·v)) / 2h`, flattened: the H·v the gradient's
/// own central difference gives. Step 1e-5; its truncation error is
/// O(h²·f⁗) ≈ 1e-10 and its rounding about 1e-16/1e-5 = 1e-11 relative to
/// the gradient, so agreement to 1e-6 is a real check.
fn hv_by_differences(grad: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64]) -> Vec<f64> {
    let h = 1e-5;
    let shifted = |s: f64| -> Vec<f64> { x.iter().zip(v).map(|(x, v)| x + s * h * v).collect() };
    let (up, down) = (grad(&shifted(1.0)), grad(&shifted(-1.0)));
    up.iter()
        .zip(&down)
        .map(|(u, d)| (u - d) / (2.0 * h))
        .collect()
}

// ---- Rosenbrock: a slice, a loop, a tridiagonal Hessian ----

#[differentiable(hessian)]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

/// Rosenbrock's Hessian by hand: H_ii = 1200x_i² − 400x_{i+1} + 2 (i < n−1)
/// + 200 (i > 0), H_{i,i+1} = −400x_i.
fn rosenbrock_hessian_closed(x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let mut h = vec![vec![0.0; n]; n];
    for i in 0..n {
        if i + 1 < n {
            h[i][i] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
            h[i][i + 1] = -400.0 * x[i];
            h[i + 1][i] = -400.0 * x[i];
        }
        if i > 0 {
            h[i][i] += 200.0;
        }
    }
    h
}

fn point(n: usize) -> Vec<f64> {
    (0..n)
        .map(|i| 0.3 + 0.17 * i as f64 - 0.02 * (i * i) as f64)
        .collect()
}

#[test]
fn rosenbrock_hessian_at_n_10_is_the_closed_form_tridiagonal() {
    let x = point(10);
    let (value, grad, h) = rosenbrock_hessian(&x);
    assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
    let (_, want_grad) = rosenbrock_grad(&x);
    for i in 0..10 {
        assert!(
            close(grad[i], want_grad[i], 1e-14),
            "{} vs {}",
            grad[i],
            want_grad[i]
        );
    }
    let want = rosenbrock_hessian_closed(&x);
    for i in 0..10 {
        for j in 0..10 {
            // A polynomial: exact but for a few roundings.
            assert!(
                close(h[(i, j)], want[i][j], 1e-13),
                "H[{i}][{j}] = {} vs {}",
                h[(i, j)],
                want[i][j]
            );
        }
    }
}

#[test]
fn rosenbrock_hvp_is_the_gradient_and_the_closed_form_product() {
    let x = point(10);
    let v: Vec<f64> = (0..10).map(|i| (i as f64 * 0.7).sin()).collect();
    let (value, g, hv) = rosenbrock_hvp(&x, &v);
    assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
    let (_, want_g) = rosenbrock_grad(&x);
    assert_eq!(g, want_g);
    let h = rosenbrock_hessian_closed(&x);
    for i in 0..10 {
        let want: f64 = (0..10).map(|j| h[i][j] * v[j]).sum();
        assert!(close(hv[i], want, 1e-13), "{} vs {want}", hv[i]);
    }
    let fd = hv_by_differences(|x| rosenbrock_grad(x).1, &x, &v);
    for i in 0..10 {
        assert!(close(hv[i], fd[i], 1e-6), "{} vs {}", hv[i], fd[i]);
    }
}

// ---- loops, branches, calls, stop_gradient, #[constant] ----

#[differentiable(hessian)]
fn softplus(t: f64) -> f64 {
    if t > 20.0 { t } else { (1.0 + t.exp()).ln() }
}

#[differentiable(hessian)]
fn mixed(x: f64, w: &[f64], #[constant] scale: f64, #[constant] n: usize) -> f64 {
    let mut s = 0.5 * x * x;
    let mut k = 0;
    while k < n {
        for i in 0..w.len() {
            let t = x * w[i] + (i as f64) * 0.1;
            if t > 0.2 {
                s += softplus(t) * w[i];
            } else {
                s -= (t * t).sin() * scale;
            }
        }
        k += 1;
    }
    let frozen = autograd::stop_gradient(x * x);
    let mut norm2 = 0.0;
    for i in 0..w.len() {
        norm2 += w[i] * w[i];
    }
    s * (1.0 + frozen) + norm2.sqrt()
}

fn mixed_flat_grad(x: &[f64], scale: f64, n: usize) -> Vec<f64> {
    let (_, dx, dw) = mixed_grad(x[0], &x[1..], scale, n);
    std::iter::once(dx).chain(dw).collect()
}

#[test]
fn hvp_through_loops_branches_calls_and_constants_matches_differences_of_the_gradient() {
    let (scale, n) = (1.5, 2);
    // Both branches of `mixed` and of `softplus` are taken at these points.
    for (x, w) in [
        (0.8, vec![0.9, -0.4, 0.3, 30.0]),
        (-0.6, vec![0.2, 0.7, -1.1, 0.05]),
    ] {
        for v in [
            vec![1.0, 0.0, 0.0, 0.0, 0.0],
            vec![0.3, -0.5, 0.2, 0.9, -0.1],
        ] {
            let (value, gx, gw, hx, hw) = mixed_hvp(x, &w, scale, n, v[0], &v[1..]);
            assert_eq!(value.to_bits(), mixed(x, &w, scale, n).to_bits());
            let (_, want_gx, want_gw) = mixed_grad(x, &w, scale, n);
            assert!(close(gx, want_gx, 1e-15) && gw.len() == want_gw.len());
            for (g, want) in gw.iter().zip(&want_gw) {
                assert!(close(*g, *want, 1e-15), "{g} vs {want}");
            }
            let flat: Vec<f64> = std::iter::once(x).chain(w.iter().copied()).collect();
            let fd = hv_by_differences(|p| mixed_flat_grad(p, scale, n), &flat, &v);
            let got: Vec<f64> = std::iter::once(hx).chain(hw).collect();
            for (g, want) in got.iter().zip(&fd) {
                assert!(close(*g, *want, 1e-6), "{g} vs {want} at x = {x}");
            }
        }
    }
}

#[differentiable(hessian)]
fn smooth(x: f64, w: &[f64]) -> f64 {
    let mut s = x.exp();
    for i in 0..w.len() {
        s += softplus(x * w[i] - 0.3) * w[i].cos() + (x + w[i]).powi(3) / 6.0;
    }
    s * s.ln_1p()
}

/// `_hvp` along unit direction `j` of the flattened inputs.
fn unit_hvp(hvp: impl Fn(f64, &[f64]) -> (f64, Vec<f64>), n: usize, j: usize) -> Vec<f64> {
    let mut v = vec![0.0; n];
    v[j] = 1.0;
    let (hx, hw) = hvp(v[0], &v[1..]);
    std::iter::once(hx).chain(hw).collect()
}

#[test]
fn hessian_columns_are_hvps_and_symmetric_up_to_rounding() {
    let (x, w) = (0.4, vec![0.9, -0.4, 0.3, 30.0]);
    let n = 1 + w.len();
    let (value, grad, h) = smooth_hessian(x, &w);
    assert_eq!(value.to_bits(), smooth(x, &w).to_bits());
    let (_, gx, gw) = smooth_grad(x, &w);
    assert_eq!(grad.as_slice(), [vec![gx], gw].concat().as_slice());
    for j in 0..n {
        let column = unit_hvp(
            |vx, vw| {
                let (_, _, _, hx, hw) = smooth_hvp(x, &w, vx, vw);
                (hx, hw)
            },
            n,
            j,
        );
        for i in 0..n {
            // The columns are the `_hvp`s themselves, not averaged.
            assert_eq!(h[(i, j)], column[i]);
            // A smooth function: the Hessian is symmetric; forward over
            // reverse computes its columns, which agree with its rows to
            // rounding (1e-12 relative).
            assert!(
                close(h[(i, j)], h[(j, i)], 1e-12),
                "{} vs {}",
                h[(i, j)],
                h[(j, i)]
            );
        }
    }
}

#[test]
fn with_stop_gradient_the_hessian_is_the_jacobian_of_the_gradient() {
    // `stop_gradient` makes `_grad` a field that is no gradient: its
    // Jacobian is not symmetric, and `_hessian` returns it as it is,
    // column j the derivative of `_grad` along input j.
    let (x, w, scale, n) = (0.8, vec![0.9, -0.4, 0.3, 30.0], 1.5, 2);
    let (_, _, h) = mixed_hessian(x, &w, scale, n);
    let flat: Vec<f64> = std::iter::once(x).chain(w.iter().copied()).collect();
    for j in 0..flat.len() {
        let mut v = vec![0.0; flat.len()];
        v[j] = 1.0;
        let fd = hv_by_differences(|p| mixed_flat_grad(p, scale, n), &flat, &v);
        for i in 0..flat.len() {
            assert!(
                close(h[(i, j)], fd[i], 1e-6),
                "H[{i}][{j}] = {} vs {}",
                h[(i, j)],
                fd[i]
            );
        }
    }
    assert!(
        !close(h[(0, 1)], h[(1, 0)], 1e-3),
        "stop_gradient breaks the symmetry here"
    );
}

// ---- f32 ----

#[differentiable(hessian)]
fn cubic32(x: f32, y: f32) -> f32 {
    x * x * y + 2.0 * y * y * y - (x * 0.5).sin()
}

#[test]
fn an_f32_function_has_an_f32_hessian() {
    let (x, y) = (0.7_f32, -1.3_f32);
    let (value, grad, h): (
        f32,
        autograd::nalgebra::DVector<f32>,
        autograd::nalgebra::DMatrix<f32>,
    ) = cubic32_hessian(x, y);
    assert_eq!(value.to_bits(), cubic32(x, y).to_bits());
    let (x64, y64) = (x as f64, y as f64);
    let want_grad = [
        2.0 * x64 * y64 - 0.5 * (0.5 * x64).cos(),
        x64 * x64 + 6.0 * y64 * y64,
    ];
    let want = [
        [2.0 * y64 + 0.25 * (0.5 * x64).sin(), 2.0 * x64],
        [2.0 * x64, 12.0 * y64],
    ];
    // f32 rounding of a handful of operations: 1e-5 relative.
    for i in 0..2 {
        assert!(close(grad[i] as f64, want_grad[i], 1e-5));
        for j in 0..2 {
            assert!(
                close(h[(i, j)] as f64, want[i][j], 1e-5),
                "{} vs {}",
                h[(i, j)],
                want[i][j]
            );
        }
    }
}

// ---- a function without differentiable arguments ----

mod constants_only {
    // The plain expansion of a function without a differentiable argument
    // returns a pullback `-> ()`.
    #![allow(clippy::unused_unit)]

    use autograd::differentiable;

    #[differentiable(hessian)]
    pub fn only_constants(#[constant] a: f64, #[constant] n: usize) -> f64 {
        a * n as f64
    }
}

use constants_only::only_constants_hessian;

#[test]
fn no_differentiable_argument_gives_an_empty_hessian_and_the_value() {
    let (value, grad, h) = only_constants_hessian(1.5, 3);
    assert_eq!(value, 4.5);
    assert_eq!((grad.len(), h.nrows(), h.ncols()), (0, 0, 0));
}

// ---- Black–Scholes: gamma, vanna, volga ----

// The example's own functions, annotated `hessian`.
#[path = "../examples/black_scholes.rs"]
#[allow(dead_code)]
mod bs;

#[test]
fn black_scholes_gamma_vanna_volga_are_the_closed_forms() {
    let phi = |x: f64| (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
    for (spot, strike, rate, vol, time) in [
        (100.0, 105.0, 0.05, 0.2, 1.0),
        (100.0, 80.0, 0.01, 0.35, 0.25),
        (50.0, 60.0, 0.03, 0.15, 3.0),
    ] {
        let (value, _, h) = bs::call_price_hessian(spot, strike, rate, vol, time);
        assert_eq!(
            value.to_bits(),
            bs::call_price(spot, strike, rate, vol, time).to_bits()
        );
        let sqrt_t: f64 = time.sqrt();
        let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * time) / (vol * sqrt_t);
        let d2 = d1 - vol * sqrt_t;
        let gamma = phi(d1) / (spot * vol * sqrt_t);
        let vanna = -phi(d1) * d2 / vol;
        let volga = spot * phi(d1) * sqrt_t * d1 * d2 / vol;
        // Φ's approximation is good to 1e-14; its second derivative, which
        // the Hessian differentiates, to about 1e-11: 1e-9 relative.
        assert!(
            close(h[(0, 0)], gamma, 1e-9),
            "gamma {} vs {gamma}",
            h[(0, 0)]
        );
        assert!(
            close(h[(0, 3)], vanna, 1e-9),
            "vanna {} vs {vanna}",
            h[(0, 3)]
        );
        assert!(
            close(h[(3, 0)], vanna, 1e-9),
            "vanna {} vs {vanna}",
            h[(3, 0)]
        );
        assert!(
            close(h[(3, 3)], volga, 1e-9),
            "volga {} vs {volga}",
            h[(3, 3)]
        );
        // What the example prints, next to its own closed forms.
        let printed = bs::ad_second_order([spot, strike, rate, vol, time]);
        assert_eq!(printed, [h[(0, 0)], h[(0, 3)], h[(3, 3)]]);
        let closed = bs::closed_form_second_order(spot, strike, rate, vol, time);
        for (want, got) in [gamma, vanna, volga].iter().zip(closed) {
            assert!(close(got, *want, 1e-12));
        }
    }
}

// ---- while, #[checkpoint] ----

#[differentiable(hessian)]
fn damped(x: f64, k: &[f64]) -> f64 {
    let mut y = x;
    let mut t = 0.0;
    #[checkpoint(snapshots = 3)]
    for i in 0..k.len() {
        y = y + 0.1 * (k[i] * y).sin() - 0.05 * y * y;
    }
    while t < 1.0 {
        y = y * (1.0 - 0.1 * y).exp();
        t += 0.25;
    }
    y
}

#[test]
fn hvp_through_a_checkpointed_loop_and_a_while_loop() {
    let (x, k) = (0.7, vec![0.5, 1.5, -0.3, 2.0, 0.9, -1.2, 0.4]);
    let flat_grad = |p: &[f64]| {
        let (_, dx, dk) = damped_grad(p[0], &p[1..]);
        std::iter::once(dx).chain(dk).collect::<Vec<f64>>()
    };
    let flat: Vec<f64> = std::iter::once(x).chain(k.iter().copied()).collect();
    let v: Vec<f64> = (0..flat.len()).map(|i| 1.0 - 0.3 * i as f64).collect();
    let (value, _, _, hx, hk) = damped_hvp(x, &k, v[0], &v[1..]);
    assert_eq!(value.to_bits(), damped(x, &k).to_bits());
    let fd = hv_by_differences(flat_grad, &flat, &v);
    let got: Vec<f64> = std::iter::once(hx).chain(hk).collect();
    for (g, want) in got.iter().zip(&fd) {
        assert!(close(*g, *want, 1e-6), "{g} vs {want}");
    }
}

// ---- the implicit hook ----

use autograd::solve::{SolveError, bisect};

#[differentiable(hessian)]
fn square_residual(x: f64, c: f64) -> f64 {
    x * x - c
}

#[differentiable(hessian, implicit = square_residual)]
fn sqrt_by_bisection(c: f64) -> Result<f64, SolveError> {
    bisect(|x| square_residual(x, c), 0.0, c.max(1.0), 1e-15)
}

/// r(x, a, w) = x³ + a·x − Σ w_i²: one root for a > 0.
#[differentiable(hessian)]
fn cubic_residual(x: f64, a: f64, w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..w.len() {
        s += w[i] * w[i];
    }
    x * x * x + a * x - s
}

#[differentiable(hessian, implicit = cubic_residual)]
fn cubic_root(a: f64, w: &[f64]) -> f64 {
    bisect(|x| cubic_residual(x, a, w), -10.0, 10.0, 1e-15).unwrap_or(f64::NAN)
}

#[test]
fn implicit_square_root_second_derivative_is_the_closed_form() {
    for c in [0.25, 2.0, 10.0] {
        let (x, g, hv) = sqrt_by_bisection_hvp(c, 1.0).unwrap();
        assert_eq!(x.to_bits(), sqrt_by_bisection(c).unwrap().to_bits());
        // d√c/dc = 1/(2√c), d²√c/dc² = −1/(4c^{3/2}), at the solver's
        // tolerance: 1e-10 relative.
        assert!(close(g, 0.5 / c.sqrt(), 1e-10), "{g}");
        assert!(
            close(hv, -0.25 / c.powf(1.5), 1e-10),
            "{hv} vs {}",
            -0.25 / c.powf(1.5)
        );
        let (value, grad, h) = sqrt_by_bisection_hessian(c).unwrap();
        assert_eq!((value, grad[0], h[(0, 0)]), (x, g, hv));
    }
    // At c = 0, ∂r/∂x = 2x = 0: no derivative.
    assert!(matches!(
        sqrt_by_bisection_hvp(0.0, 1.0),
        Err(SolveError::SingularDerivative { .. })
    ));
}

#[test]
fn implicit_hvp_matches_differences_of_the_gradient_with_re_solving() {
    let (a, w) = (1.3, vec![0.4, -0.9, 1.2]);
    let flat_grad = |p: &[f64]| {
        let (_, da, dw) = cubic_root_grad(p[0], &p[1..]);
        std::iter::once(da).chain(dw).collect::<Vec<f64>>()
    };
    let flat: Vec<f64> = std::iter::once(a).chain(w.iter().copied()).collect();
    for v in [vec![1.0, 0.0, 0.0, 0.0], vec![0.2, -0.7, 0.5, 0.3]] {
        let (x, ga, gw, ha, hw) = cubic_root_hvp(a, &w, v[0], &v[1..]);
        assert_eq!(x.to_bits(), cubic_root(a, &w).to_bits());
        let (_, want_ga, want_gw) = cubic_root_grad(a, &w);
        assert_eq!((ga, gw), (want_ga, want_gw));
        // Each difference re-solves to 1e-15: with the step 1e-5 that is
        // 1e-10 of noise; 1e-6 relative.
        let fd = hv_by_differences(flat_grad, &flat, &v);
        let got: Vec<f64> = std::iter::once(ha).chain(hw).collect();
        for (g, want) in got.iter().zip(&fd) {
            assert!(close(*g, *want, 1e-6), "{g} vs {want}");
        }
    }
    let (_, _, h) = cubic_root_hessian(a, &w);
    for i in 0..4 {
        for j in 0..4 {
            assert!(close(h[(i, j)], h[(j, i)], 1e-10));
        }
    }
}

// ---- with jvp, and a callee by path from another module ----

mod kernels {
    use autograd::differentiable;

    #[differentiable(jvp, hessian)]
    pub fn gauss(x: f64, s: f64) -> f64 {
        (-x * x / (2.0 * s * s)).exp()
    }
}

#[differentiable(jvp, hessian)]
fn blend(x: f64, s: f64) -> f64 {
    kernels::gauss(x, s) * x + kernels::gauss(2.0 * x, s)
}

#[test]
fn a_callee_by_path_and_jvp_next_to_hessian() {
    let (x, s) = (0.7, 1.3);
    let (value, gx, gs, hx, hs) = blend_hvp(x, s, 1.0, 0.0);
    assert_eq!(value.to_bits(), blend(x, s).to_bits());
    let (_, want_gx, want_gs) = blend_grad(x, s);
    assert_eq!((gx, gs), (want_gx, want_gs));
    // The jvp of the same function along (1, 0) is the first gradient entry.
    assert!(close(blend_jvp(x, s, 1.0, 0.0).1, gx, 1e-14));
    let fd = hv_by_differences(
        |p| {
            let (_, a, b) = blend_grad(p[0], p[1]);
            vec![a, b]
        },
        &[x, s],
        &[1.0, 0.0],
    );
    assert!(
        close(hx, fd[0], 1e-6) && close(hs, fd[1], 1e-6),
        "{hx} {hs} vs {fd:?}"
    );
}

// ---- `#[constant]` data of the user's own types ----

/// Market data as pricing code passes it: a struct of floats, `Vec`s, a
/// count and a matrix of rows, none of it differentiated.
pub struct Market {
    pub vol: f64,
    pub barrier: f64,
    pub expo: f64,
    pub rates: Vec<f64>,
    pub times: Vec<f64>,
    pub rows: Vec<Vec<f64>>,
    pub steps: usize,
}

#[differentiable(hessian)]
fn scaled_square(x: f64, #[constant] k: f64) -> f64 {
    k * x * x
}

#[differentiable(hessian)]
fn repeated_cube(x: f64, #[constant] n: usize) -> f64 {
    let mut s = 0.0;
    for _ in 0..n {
        s += x * x * x;
    }
    s
}

/// Every way a body reads the data: fields in arithmetic (also with each
/// other first), comparisons and method arguments, `Vec` fields indexed, iterated and zipped in place,
/// a row of a `Vec<Vec<f64>>`, a typed local, and fields passed on to
/// other `hessian` functions (a float and a count).
#[differentiable(hessian)]
fn book(x: &[f64], #[constant] m: &Market) -> f64 {
    let mut s = (m.vol + x[0]) * x[1];
    // Constant arithmetic of the data, then with the variables.
    s += (m.vol + m.expo) * x[0] * x[0] - m.vol * x[1] + x[1] * (m.rates[0] - m.rates[2]) * x[0];
    s += -m.expo * x[1] * x[1];
    if x[0] > m.barrier {
        s += x[0] * x[0] * x[1];
    }
    for i in 0..m.rates.len() {
        s += (-(m.rates[i] + x[0]) * m.times[i]).exp() * m.rows[i][1];
    }
    for (r, t) in m.rates.iter().zip(m.times.iter()) {
        s += (-(r + x[1]) * t).exp();
    }
    let times: &[f64] = &m.times;
    for t in times.iter() {
        s += (x[0] * t).sin() * m.vol;
    }
    s + x[1].powf(m.expo)
        + x[0].max(m.barrier)
        + scaled_square(x[1], m.vol)
        + repeated_cube(x[0], m.steps)
}

/// A `#[constant]` argument that is nested data of `f64`s.
#[differentiable(hessian)]
fn weighted(x: &[f64], #[constant] w: &[Vec<f64>]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        for j in 0..x.len() {
            s += w[i][j] * x[i] * x[j] * x[j];
        }
    }
    s
}

#[test]
fn constant_data_of_the_users_types_under_hessian() {
    let m = Market {
        vol: 0.2,
        barrier: 0.9,
        expo: 2.5,
        rates: vec![0.01, 0.02, 0.03],
        times: vec![0.5, 1.0, 2.0],
        rows: vec![vec![1.0, 2.0], vec![3.0, 4.0], vec![5.0, 6.0]],
        steps: 3,
    };
    // Both sides of the barrier, so both branches are differentiated.
    for x in [[1.2, 0.7], [0.4, 1.3]] {
        let (value, grad, h) = book_hessian(&x, &m);
        assert_eq!(value.to_bits(), book(&x, &m).to_bits());
        let (_, want) = book_grad(&x, &m);
        for (g, w) in grad.iter().zip(&want) {
            assert!(close(*g, *w, 1e-13), "{grad} vs {want:?}");
        }
        for j in 0..2 {
            let mut e = [0.0; 2];
            e[j] = 1.0;
            let fd = hv_by_differences(|p| book_grad(p, &m).1, &x, &e);
            for i in 0..2 {
                assert!(
                    close(h[(i, j)], fd[i], 1e-6),
                    "H[{i}][{j}] = {} vs {}",
                    h[(i, j)],
                    fd[i]
                );
            }
        }
        assert!(close(h[(0, 1)], h[(1, 0)], 1e-12));
    }
    // Closed form: H = ∂²/∂x² of Σᵢⱼ wᵢⱼ xᵢ xⱼ².
    let w = vec![vec![1.0, 2.0], vec![0.5, -1.0]];
    let x = [0.3, -0.8];
    let (_, _, h) = weighted_hessian(&x, &w);
    let mut want = [[0.0; 2]; 2];
    for i in 0..2 {
        for j in 0..2 {
            // ∂/∂x_a ∂/∂x_b of w_ij x_i x_j².
            let term = |a: usize, b: usize| -> f64 {
                let d = |k: usize, l: usize| f64::from(u8::from(k == l));
                let wij = w[i][j];
                wij * (2.0 * d(i, a) * d(j, b) * x[j]
                    + 2.0 * d(i, b) * d(j, a) * x[j]
                    + 2.0 * x[i] * d(j, a) * d(j, b))
            };
            for a in 0..2 {
                for b in 0..2 {
                    want[a][b] += term(a, b);
                }
            }
        }
    }
    for a in 0..2 {
        for b in 0..2 {
            assert!(close(h[(a, b)], want[a][b], 1e-14), "{h} vs {want:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// A float cast to an integer in a `hessian` body (`t.floor() as usize`, the
// cell of a grid): the second order computes in dual numbers, which have
// no `as`; it failed to compile inside the generated code (E0605).

/// The square of the linear interpolation of `values` at `t`, the cell's
/// index cast from `t`: y = (1 − w)·v[i] + w·v[i + 1] with i = ⌊t⌋,
/// w = t − ⌊t⌋. ∇ = 2y·a, H = 2·a·aᵀ with a = (1 − w) at i and w at i + 1.
#[differentiable(hessian)]
fn interpolated_square(values: &[f64], #[constant] t: f64) -> f64 {
    let i = t.floor() as usize;
    let w = t - t.floor();
    let y = (1.0 - w) * values[i] + w * values[i + 1];
    y * y
}

/// The index cast from a differentiable value whose gradient is stopped,
/// and an `as i32` power: x[k]³ + x[0]·x[1], k = ⌊x[2]⌋ (x[2] = 1.5, so
/// k = 1). ∂²/∂x₁² = 6·x₁ + 0, ∂²/∂x₀∂x₁ = 1, the rest 0.
#[differentiable(hessian)]
fn stopped_index(x: &[f64]) -> f64 {
    let k = autograd::stop_gradient(x[2]).floor() as usize;
    let p = (autograd::stop_gradient(x[2]) * 2.0) as i32;
    x[k].powi(p) + x[0] * x[1]
}

#[test]
fn a_float_cast_to_an_integer_in_a_hessian_body() {
    let values = [1.0, 3.0, 2.0, 5.0];
    let t = 1.25;
    let (i, w) = (1, 0.25);
    let y = (1.0 - w) * values[i] + w * values[i + 1];
    let mut a = [0.0; 4];
    a[i] = 1.0 - w;
    a[i + 1] = w;
    let (v, g, h) = interpolated_square_hessian(&values, t);
    assert_eq!(v.to_bits(), interpolated_square(&values, t).to_bits());
    for r in 0..4 {
        assert!(close(g[r], 2.0 * y * a[r], 1e-14), "∇[{r}] = {}", g[r]);
        for c in 0..4 {
            let want = 2.0 * a[r] * a[c];
            assert!(close(h[(r, c)], want, 1e-14), "H[{r},{c}] = {}", h[(r, c)]);
        }
    }

    // p = ⌊3.0⌋ = 3: x₁³ + x₀·x₁.
    let x = [0.5, 2.0, 1.5];
    let (v, g, h) = stopped_index_hessian(&x);
    assert_eq!(v.to_bits(), stopped_index(&x).to_bits());
    let want_g = [x[1], 3.0 * x[1] * x[1] + x[0], 0.0];
    let want_h = [[0.0, 1.0, 0.0], [1.0, 6.0 * x[1], 0.0], [0.0, 0.0, 0.0]];
    for r in 0..3 {
        assert!(close(g[r], want_g[r], 1e-14), "∇[{r}] = {}", g[r]);
        for c in 0..3 {
            assert!(
                close(h[(r, c)], want_h[r][c], 1e-14),
                "H[{r},{c}] = {}",
                h[(r, c)]
            );
        }
    }
}

/// Assertions in a `hessian` body: their conditions compare floats with
/// literals, which the second-order copy reads at its own scalar, and
/// their messages print floats (a dual number prints its value).
#[differentiable(hessian)]
fn asserted(x: f64, y: f64, #[constant] n: usize) -> f64 {
    debug_assert!(x > 0.0, "x = {x} must be positive");
    assert!(n > 0 && y * 2.0 >= -10.0, "y = {}", y);
    assert_ne!(x, 0.0);
    debug_assert_eq!(n.max(1), n);
    x.ln() * y * y
}

#[test]
fn assertions_compile_and_run_under_hessian() {
    let (x, y) = (1.5, -0.8);
    // f = ln x · y²: ∇f = (y²/x, 2y ln x); H = [[-y²/x², 2y/x], [2y/x, 2 ln x]].
    let (v, g, h) = asserted_hessian(x, y, 3);
    assert!(close(v, x.ln() * y * y, 1e-15));
    let want_g = [y * y / x, 2.0 * y * x.ln()];
    let want_h = [[-y * y / (x * x), 2.0 * y / x], [2.0 * y / x, 2.0 * x.ln()]];
    for i in 0..2 {
        assert!(close(g[i], want_g[i], 1e-14), "{} vs {}", g[i], want_g[i]);
        for j in 0..2 {
            assert!(
                close(h[(i, j)], want_h[i][j], 1e-14),
                "{} vs {}",
                h[(i, j)],
                want_h[i][j]
            );
        }
    }
    let bad = std::panic::catch_unwind(|| asserted_hessian(1.0, -6.0, 1));
    assert!(
        bad.is_err(),
        "the assertion runs in the second-order copy too"
    );
}

// ---- A callee's gradient scaled by the caller's adjoint ----

/// Σ xᵢ², a helper taking a slice: its gradient reaches the caller
/// computed at seed one and scaled by the caller's adjoint.
#[differentiable(hessian)]
fn sum_squares(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    s
}

/// y·Σ xᵢ²: ∇ = (2y·x, Σ xᵢ²); H = [[2y·I, 2x], [2xᵀ, 0]].
#[differentiable(hessian)]
fn weighted_call(x: &[f64], y: f64) -> f64 {
    sum_squares(x) * y
}

/// The gradient and Hessian of y·Σ xᵢ², exactly: products of small
/// dyadic numbers, no rounding.
fn assert_weighted_squares_derivatives(
    x: &[f64],
    y: f64,
    g: &nalgebra::DVector<f64>,
    h: &nalgebra::DMatrix<f64>,
) {
    let n = x.len();
    let s: f64 = x.iter().map(|v| v * v).sum();
    for i in 0..n {
        assert_eq!(g[i], 2.0 * y * x[i], "∂/∂x{i} at {x:?}, y = {y}");
        for j in 0..n {
            let want = if i == j { 2.0 * y } else { 0.0 };
            assert_eq!(h[(i, j)], want, "H[x{i}][x{j}] at {x:?}, y = {y}");
        }
        assert_eq!(h[(i, n)], 2.0 * x[i], "H[x{i}][y] at {x:?}, y = {y}");
        assert_eq!(h[(n, i)], 2.0 * x[i], "H[y][x{i}] at {x:?}, y = {y}");
    }
    assert_eq!(g[n], s);
    assert_eq!(h[(n, n)], 0.0);
}

/// Second order through a call at the two seeds a dual number's real part
/// alone would misjudge (found by the fuzz class `lanes`): a gradient entry
/// of the callee that is zero (x₀ = 0) while its `H·v` entry is not, and a
/// caller adjoint whose real part is one (y = 1) while its dual part is
/// not. Either was left unscaled: H[x₀][x₀] came out 2 instead of 2y, and
/// H[xᵢ][y] 0 instead of 2xᵢ.
#[test]
fn a_callee_gradient_entry_of_zero_and_an_adjoint_of_one_are_scaled() {
    for (x, y) in [
        ([0.0, 1.0, -0.5], 3.0),
        ([0.5, 1.0, 0.0], 1.0),
        ([0.0, -2.0, 0.25], 1.0),
    ] {
        let (_, g, h) = weighted_call_hessian(&x, y);
        assert_weighted_squares_derivatives(&x, y, &g, &h);
        let n = x.len();
        // NAME_hvp along each axis: the same columns.
        for j in 0..=n {
            let mut v = [0.0; 3];
            let mut vy = 0.0;
            if j < n {
                v[j] = 1.0;
            } else {
                vy = 1.0;
            }
            let (_, _, _, hx, hy) = weighted_call_hvp(&x, y, &v, vy);
            for i in 0..n {
                assert_eq!(hx[i], h[(i, j)], "(H·e{j})[x{i}] at {x:?}, y = {y}");
            }
            assert_eq!(hy, h[(n, j)], "(H·e{j})[y] at {x:?}, y = {y}");
        }
    }
}

/// The same sum written inside the function, at the same seeds: an entry
/// whose value is zero but whose `H·v` part is not, or an adjoint whose
/// real part is one, must be scaled by `y` all the same.
#[differentiable(hessian)]
fn weighted_sum_of_squares(x: &[f64], y: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += x[i] * x[i];
    }
    s * y
}

#[test]
fn a_fused_loop_entry_of_zero_and_an_accumulator_adjoint_of_one_are_scaled() {
    // Nine inputs and more: the Hessian's eight-lane sweep runs too.
    for (x, y) in [
        (vec![0.0, 1.0, -0.5], 3.0),
        (vec![0.5, 1.0, 0.0], 1.0),
        (vec![0.0, -2.0, 0.25, 0.0, 1.0, 0.5, -1.0, 0.0, 2.0], 1.0),
        (
            vec![0.0, -2.0, 0.25, 0.0, 1.0, 0.5, -1.0, 0.0, 2.0, 0.0],
            -0.5,
        ),
    ] {
        let (_, g, h) = weighted_sum_of_squares_hessian(&x, y);
        assert_weighted_squares_derivatives(&x, y, &g, &h);
    }
}
