//! The scalar rules: every worked example of the seed chapter, and every
//! rule against central finite differences at random points, for f64 and
//! f32.

mod common;

use approx::{assert_abs_diff_eq, assert_relative_eq};
use autograd_runtime::central_difference;
use autograd_runtime::rules::{self, Real};
use common::Rng;

// ---- the seed's worked examples, by hand through the rules ----

/// The reverse sweep of w = x·y + x written out with the rules, in the
/// order the seed visits the nodes: add first, then mul.
fn w_grad(x: f64, y: f64) -> (f64, f64, f64) {
    let z = rules::mul(x, y);
    let w = rules::add(z, x);
    let seed = 1.0;
    let dz = rules::add_grad_lhs(seed);
    let mut dx = rules::add_grad_rhs(seed); // route 2: directly
    dx += rules::mul_grad_lhs(dz, y); // route 1: through the multiply
    let dy = rules::mul_grad_rhs(dz, x);
    (w, dx, dy)
}

#[test]
fn running_example_sums_both_routes() {
    // ∂w/∂x = y + 1, ∂w/∂y = x.
    assert_eq!(w_grad(3.0, 4.0), (15.0, 5.0, 3.0));
    // Self-check 1: x = 5, y = 2.
    assert_eq!(w_grad(5.0, 2.0), (15.0, 3.0, 5.0));
}

#[test]
fn mul_adjoint_is_the_other_operand() {
    assert_eq!(rules::mul_grad_lhs(1.0, 4.0), 4.0);
    assert_eq!(rules::mul_grad_rhs(1.0, 3.0), 3.0);
    // Self-check 2: with y = 0 the contribution to x is exactly 0.
    assert_eq!(rules::mul_grad_lhs(1.0, 0.0), 0.0);
}

#[test]
fn exp_reuses_its_output() {
    let out = rules::exp(1.0_f64);
    assert_relative_eq!(
        out,
        std::f64::consts::E,
        epsilon = 1e-15,
        max_relative = 1e-15
    );
    assert_eq!(rules::exp_grad(1.0, out), out);
}

#[test]
fn sub_and_div_at_8_and_5() {
    let (a, b) = (8.0_f64, 5.0_f64);
    assert_eq!(rules::sub(a, b), 3.0);
    assert_eq!(
        (rules::sub_grad_lhs(1.0), rules::sub_grad_rhs(1.0)),
        (1.0, -1.0)
    );

    let c = rules::div(a, b);
    assert_eq!(c, 1.6);
    assert_relative_eq!(
        rules::div_grad_lhs(1.0, b),
        0.2,
        epsilon = 1e-15,
        max_relative = 1e-15
    );
    let db = rules::div_grad_rhs(1.0, b, c);
    assert_relative_eq!(db, -0.32, epsilon = 1e-15, max_relative = 1e-15);

    // The seed's one-sided nudge: 8/5.001 ≈ 1.5996801, slope ≈ -0.31994,
    // matching -0.32 to four digits.
    let nudged = a / 5.001;
    assert_abs_diff_eq!(nudged, 1.599_680_1, epsilon = 1e-7);
    let one_sided = (nudged - c) / 0.001;
    assert_abs_diff_eq!(one_sided, -0.319_94, epsilon = 1e-5);
    assert_abs_diff_eq!(one_sided, db, epsilon = 1e-4);
    // A central difference agrees far better.
    let central = central_difference(|b| a / b, b);
    assert_relative_eq!(central, db, epsilon = 1e-9, max_relative = 1e-9);
}

#[test]
fn pow_and_log_at_2_and_3() {
    let (a, b) = (2.0_f64, 3.0_f64);
    let out = rules::pow(a, b);
    assert_eq!(out, 8.0);
    assert_relative_eq!(
        rules::pow_grad_lhs(1.0, a, b),
        12.0,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    let db = rules::pow_grad_rhs(1.0, a, out);
    assert_relative_eq!(db, 8.0 * 2f64.ln(), epsilon = 1e-12, max_relative = 1e-12);
    assert_abs_diff_eq!(db, 5.545, epsilon = 1e-3);

    assert_relative_eq!(
        rules::ln(2.0_f64),
        std::f64::consts::LN_2,
        epsilon = 1e-15,
        max_relative = 1e-15
    );
    assert_eq!(rules::ln_grad(1.0, 2.0), 0.5);
    // The seed's nudge: (ln 2.001 - ln 2)/0.001 ≈ 0.5.
    let one_sided = (2.001_f64.ln() - 2f64.ln()) / 0.001;
    assert_abs_diff_eq!(one_sided, 0.5, epsilon = 1e-3);
}

#[test]
fn sqrt_reuses_its_output() {
    let out = rules::sqrt(4.0_f64);
    assert_eq!(out, 2.0);
    assert_eq!(rules::sqrt_grad(1.0, out), 0.25);
}

#[test]
fn relu_masks_both_seed_vectors() {
    // Worked example 16.5.1.
    let x = [-2.0, 3.0, -1.0, 5.0];
    let forward: Vec<f64> = x.iter().map(|&v| rules::relu(v)).collect();
    let grad: Vec<f64> = x.iter().map(|&v| rules::relu_grad(1.0, v)).collect();
    assert_eq!(forward, [0.0, 3.0, 0.0, 5.0]);
    assert_eq!(grad, [0.0, 1.0, 0.0, 1.0]);
    // Self-check 4: 0 at exactly 0.
    let x = [-3.0, 2.0, 0.0, -1.0, 5.0];
    let grad: Vec<f64> = x.iter().map(|&v| rules::relu_grad(1.0, v)).collect();
    assert_eq!(grad, [0.0, 1.0, 0.0, 0.0, 1.0]);
}

#[test]
fn sigmoid_and_tanh_at_0_with_seed_2() {
    let s = rules::sigmoid(0.0_f64);
    assert_eq!(s, 0.5);
    assert_eq!(rules::sigmoid_grad(2.0, s), 0.5); // 2 · 0.25
    let t = rules::tanh(0.0_f64);
    assert_eq!(t, 0.0);
    assert_eq!(rules::tanh_grad(2.0, t), 2.0); // 2 · 1, four times steeper
}

#[test]
fn sin_and_cos_at_0() {
    assert_eq!(rules::sin_grad(1.0, 0.0), 1.0); // cos 0: passes through
    assert_eq!(rules::cos_grad(1.0, 0.0), 0.0); // -sin 0: flat at the peak
    assert_eq!(rules::sin_grad(3.0, 0.0), 3.0);
}

#[test]
fn conventions_at_kinks() {
    // relu at ±0: the constant piece; abs at ±0: the piece the zero's sign
    // picks, copysign(1, x).
    assert_eq!(rules::relu_grad(1.0, 0.0), 0.0);
    assert_eq!(rules::relu_grad(1.0, -0.0), 0.0);
    assert_eq!(rules::abs_grad(1.0, 0.0), 1.0);
    assert_eq!(rules::abs_grad(1.0, -0.0), -1.0);
    // max/min: the first argument wins a tie, a NaN loses.
    assert_eq!(
        (
            rules::max_grad_lhs(1.0, 2.0, 2.0),
            rules::max_grad_rhs(1.0, 2.0, 2.0)
        ),
        (1.0, 0.0)
    );
    assert_eq!(
        (
            rules::min_grad_lhs(1.0, 2.0, 2.0),
            rules::min_grad_rhs(1.0, 2.0, 2.0)
        ),
        (1.0, 0.0)
    );
    assert_eq!(rules::max_grad_lhs(1.0, 1.0, f64::NAN), 1.0);
    assert_eq!(rules::max_grad_rhs(1.0, f64::NAN, 1.0), 1.0);
    // d(0^b)/db taken as 0 (the output is 0).
    assert_eq!(rules::pow_grad_rhs(1.0, 0.0, 0.0), 0.0);
}

// ---- every rule against central finite differences ----

fn close(a: f64, b: f64, abs: f64, rel: f64) -> bool {
    (a - b).abs() <= abs + rel * a.abs().max(b.abs())
}

struct Tol {
    abs: f64,
    rel: f64,
}

/// Compares `adjoint(g, x, f(x))` with `g · f'(x)` by central difference.
fn unary<T: Real>(
    name: &str,
    f: impl Fn(T) -> T,
    adjoint: impl Fn(T, T, T) -> T,
    x: f64,
    g: f64,
    tol: &Tol,
) {
    let (xt, gt) = (T::from_f64(x), T::from_f64(g));
    let a = adjoint(gt, xt, f(xt)).to_f64();
    let fd = g * central_difference(&f, xt);
    assert!(
        close(a, fd, tol.abs, tol.rel),
        "{name} at x = {x}, seed {g}: adjoint {a}, finite difference {fd}"
    );
}

/// Both adjoints of a binary rule; `adjoint` returns (d/da, d/db).
fn binary<T: Real>(
    name: &str,
    f: impl Fn(T, T) -> T,
    adjoint: impl Fn(T, T, T, T) -> (T, T),
    a: f64,
    b: f64,
    g: f64,
    tol: &Tol,
) {
    let (at, bt, gt) = (T::from_f64(a), T::from_f64(b), T::from_f64(g));
    let (da, db) = adjoint(gt, at, bt, f(at, bt));
    let fd_a = g * central_difference(|a| f(a, bt), at);
    let fd_b = g * central_difference(|b| f(at, b), bt);
    for (side, adj, fd) in [("lhs", da.to_f64(), fd_a), ("rhs", db.to_f64(), fd_b)] {
        assert!(
            close(adj, fd, tol.abs, tol.rel),
            "{name} {side} at ({a}, {b}), seed {g}: adjoint {adj}, finite difference {fd}"
        );
    }
}

fn check_every_rule<T: Real>(seed: u64, tol: Tol) {
    let mut rng = Rng::new(seed);
    for _ in 0..25 {
        let g = rng.signed(0.5, 2.0);
        let x = rng.uniform(-3.0, 3.0);
        let away = rng.signed(0.1, 3.0); // away from kinks at 0
        let pos = rng.uniform(0.3, 5.0);
        // The step scales with max(1, |x|), so keep 1/x³ out of x ≈ 0.
        let base = rng.signed(0.5, 3.0);

        unary::<T>(
            "exp",
            rules::exp,
            |g, _, y| rules::exp_grad(g, y),
            x,
            g,
            &tol,
        );
        unary::<T>(
            "ln",
            rules::ln,
            |g, x, _| rules::ln_grad(g, x),
            pos,
            g,
            &tol,
        );
        unary::<T>(
            "sqrt",
            rules::sqrt,
            |g, _, y| rules::sqrt_grad(g, y),
            pos,
            g,
            &tol,
        );
        unary::<T>(
            "sin",
            rules::sin,
            |g, x, _| rules::sin_grad(g, x),
            x,
            g,
            &tol,
        );
        unary::<T>(
            "cos",
            rules::cos,
            |g, x, _| rules::cos_grad(g, x),
            x,
            g,
            &tol,
        );
        unary::<T>(
            "tanh",
            rules::tanh,
            |g, _, y| rules::tanh_grad(g, y),
            x,
            g,
            &tol,
        );
        unary::<T>(
            "sigmoid",
            rules::sigmoid,
            |g, _, y| rules::sigmoid_grad(g, y),
            x,
            g,
            &tol,
        );
        unary::<T>(
            "relu",
            rules::relu,
            |g, x, _| rules::relu_grad(g, x),
            away,
            g,
            &tol,
        );
        unary::<T>(
            "abs",
            rules::abs,
            |g, x, _| rules::abs_grad(g, x),
            away,
            g,
            &tol,
        );
        unary::<T>("neg", rules::neg, |g, _, _| rules::neg_grad(g), x, g, &tol);
        for n in -3..=4 {
            unary::<T>(
                "powi",
                |a| rules::powi(a, n),
                |g, a, _| rules::powi_grad(g, a, n),
                base,
                g,
                &tol,
            );
        }

        let y = rng.uniform(-3.0, 3.0);
        let nonzero = rng.signed(0.5, 3.0);
        binary::<T>(
            "add",
            rules::add,
            |g, _, _, _| (rules::add_grad_lhs(g), rules::add_grad_rhs(g)),
            x,
            y,
            g,
            &tol,
        );
        binary::<T>(
            "sub",
            rules::sub,
            |g, _, _, _| (rules::sub_grad_lhs(g), rules::sub_grad_rhs(g)),
            x,
            y,
            g,
            &tol,
        );
        binary::<T>(
            "mul",
            rules::mul,
            |g, a, b, _| (rules::mul_grad_lhs(g, b), rules::mul_grad_rhs(g, a)),
            x,
            y,
            g,
            &tol,
        );
        binary::<T>(
            "div",
            rules::div,
            |g, _, b, out| (rules::div_grad_lhs(g, b), rules::div_grad_rhs(g, b, out)),
            x,
            nonzero,
            g,
            &tol,
        );
        binary::<T>(
            "pow",
            rules::pow,
            |g, a, b, out| (rules::pow_grad_lhs(g, a, b), rules::pow_grad_rhs(g, a, out)),
            rng.uniform(0.2, 3.0),
            rng.uniform(-2.0, 3.0),
            g,
            &tol,
        );
        // max/min away from the tie, so both sides are differentiable.
        let (a, b) = (x, x + rng.signed(0.1, 2.0));
        binary::<T>(
            "max",
            |a: T, b: T| if rules::max_takes_lhs(a, b) { a } else { b },
            |g, a, b, _| (rules::max_grad_lhs(g, a, b), rules::max_grad_rhs(g, a, b)),
            a,
            b,
            g,
            &tol,
        );
        binary::<T>(
            "min",
            |a: T, b: T| if rules::min_takes_lhs(a, b) { a } else { b },
            |g, a, b, _| (rules::min_grad_lhs(g, a, b), rules::min_grad_rhs(g, a, b)),
            a,
            b,
            g,
            &tol,
        );
    }
}

#[test]
fn every_scalar_rule_matches_finite_differences_f64() {
    check_every_rule::<f64>(
        0xF64,
        Tol {
            abs: 1e-7,
            rel: 1e-6,
        },
    );
}

#[test]
fn every_scalar_rule_matches_finite_differences_f32() {
    // f32's step is ∛ε₃₂ ≈ 5e-3, so the difference is good to ~1e-4.
    check_every_rule::<f32>(
        0xF32,
        Tol {
            abs: 2e-3,
            rel: 2e-3,
        },
    );
}
