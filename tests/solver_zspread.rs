//! The pricing example's z-spread (`examples/pricing/model.rs`): its
//! gradients in every curve point and in the market price, against the
//! implicit derivative written out by hand from closed-form price
//! derivatives, and against finite differences of the whole solver.
//!
//! Closed form, for P(z, r) = Σᵢ aᵢ·exp(−(r(tᵢ) + z)·tᵢ) with
//! r(t) = Σₖ wₖ(t)·rₖ (linear interpolation weights):
//!   ∂P/∂z  = −Σᵢ tᵢ·aᵢ·Dᵢ,   ∂P/∂rₖ = −Σᵢ wₖ(tᵢ)·tᵢ·aᵢ·Dᵢ,
//! and at the root of P − market = 0,
//!   dz/drₖ = −(∂P/∂rₖ)/(∂P/∂z),   dz/dmarket = 1/(∂P/∂z).

// The model module's items not used here; a relative-value function that
// takes two bonds' cash flows (the generated `_grad` and `_check` take the
// same eight arguments).
#![allow(dead_code, clippy::too_many_arguments)]

#[path = "../examples/pricing/data.rs"]
mod data;
#[path = "../examples/pricing/model.rs"]
mod model;

use approx::{assert_abs_diff_eq, assert_relative_eq};
use autograd::differentiable;
use autograd::solve::SolveError;
use data::CashFlows;
use model::{Z_TOL, price, price_grad, z_spread, z_spread_brent_grad, z_spread_grad};

/// A small curve: five key tenors, upward sloping, with a kink.
const TENORS: [f64; 5] = [0.5, 1.0, 2.0, 5.0, 10.0];
const RATES: [f64; 5] = [0.030, 0.032, 0.035, 0.038, 0.040];

/// The weight of key rate k in r(t), written independently of the model:
/// flat before the first tenor and after the last, linear in between.
fn weight(k: usize, t: f64) -> f64 {
    let n = TENORS.len();
    if t <= TENORS[0] {
        return if k == 0 { 1.0 } else { 0.0 };
    }
    if t >= TENORS[n - 1] {
        return if k == n - 1 { 1.0 } else { 0.0 };
    }
    let j = (0..n - 1)
        .find(|&j| TENORS[j] <= t && t <= TENORS[j + 1])
        .unwrap();
    let w = (t - TENORS[j]) / (TENORS[j + 1] - TENORS[j]);
    if k == j {
        1.0 - w
    } else if k == j + 1 {
        w
    } else {
        0.0
    }
}

/// ∂P/∂z and ∂P/∂rₖ in closed form.
fn closed_form_partials(z: f64, rates: &[f64], f: &CashFlows) -> (f64, Vec<f64>) {
    let mut dz = 0.0;
    let mut dr = vec![0.0; TENORS.len()];
    for (&t, &a) in f.times.iter().zip(&f.amounts) {
        let r: f64 = (0..TENORS.len()).map(|k| weight(k, t) * rates[k]).sum();
        let term = -t * a * (-(r + z) * t).exp();
        dz += term;
        for (k, d) in dr.iter_mut().enumerate() {
            *d += weight(k, t) * term;
        }
    }
    (dz, dr)
}

/// Bonds of the test: inside the curve, past its end, with a stub period,
/// short of the first tenor, monthly, and a zero coupon.
fn bonds() -> Vec<(&'static str, CashFlows, f64)> {
    let market = |f: &CashFlows, z: f64| price(z, &RATES, &TENORS, &f.times, &f.amounts);
    [
        ("5y semi 4%", CashFlows::fixed_rate(0.04, 5.0, 2), 0.0125),
        (
            "7.25y semi 5.5%",
            CashFlows::fixed_rate(0.055, 7.25, 2),
            0.016,
        ),
        ("12y annual 3%", CashFlows::fixed_rate(0.03, 12.0, 1), 0.007),
        (
            "0.4y quarterly 6%",
            CashFlows::fixed_rate(0.06, 0.4, 4),
            0.03,
        ),
        (
            "3.5y monthly 6%",
            CashFlows::fixed_rate(0.06, 3.5, 12),
            0.021,
        ),
        ("8y zero", CashFlows::fixed_rate(0.0, 8.0, 1), 0.009),
    ]
    .into_iter()
    .map(|(name, f, z)| {
        let p = market(&f, z);
        (name, f, p)
    })
    .collect()
}

/// z re-solved from scratch: the whole solver, as finite differences see it.
fn solve(rates: &[f64], market: f64, f: &CashFlows) -> f64 {
    z_spread(rates, market, &TENORS, &f.times, &f.amounts).unwrap()
}

#[test]
fn cash_flows_of_a_fixed_rate_bond() {
    let f = CashFlows::fixed_rate(0.055, 7.25, 2);
    assert_eq!(f.times.len(), 15);
    assert_abs_diff_eq!(f.times[0], 0.25, epsilon = 1e-12);
    assert_abs_diff_eq!(f.times[14], 7.25, epsilon = 1e-12);
    assert_abs_diff_eq!(f.amounts[0], 2.75, epsilon = 1e-12);
    assert_abs_diff_eq!(f.amounts[14], 102.75, epsilon = 1e-12);
    let zero = CashFlows::fixed_rate(0.0, 8.0, 1);
    assert_eq!(zero.amounts.iter().filter(|a| **a != 0.0).count(), 1);
    assert_eq!(CashFlows::fixed_rate(0.05, 10.0, 2).times.len(), 20);
}

#[test]
fn the_price_matches_its_closed_form_and_its_gradient() {
    for (name, f, _) in bonds() {
        let z = 0.01;
        let expected: f64 = f
            .times
            .iter()
            .zip(&f.amounts)
            .map(|(&t, &a)| {
                let r: f64 = (0..5).map(|k| weight(k, t) * RATES[k]).sum();
                a * (-(r + z) * t).exp()
            })
            .sum();
        let (p, dp_dz, dp_dr) = price_grad(z, &RATES, &TENORS, &f.times, &f.amounts);
        assert_relative_eq!(p, expected, epsilon = 0.0, max_relative = 1e-14);
        let (dz, dr) = closed_form_partials(z, &RATES, &f);
        assert_relative_eq!(dp_dz, dz, epsilon = 0.0, max_relative = 1e-13);
        for k in 0..5 {
            assert_abs_diff_eq!(dp_dr[k], dr[k], epsilon = 1e-12 * dz.abs());
        }
        let _ = name;
    }
}

#[test]
fn z_spread_gradient_is_the_closed_form_implicit_derivative() {
    for (name, f, market) in bonds() {
        let (z, dz_dr, dz_dp) =
            z_spread_grad(&RATES, market, &TENORS, &f.times, &f.amounts).unwrap();
        let (p_z, p_r) = closed_form_partials(z, &RATES, &f);
        // dz/dmarket = 1/(∂P/∂z): same operations up to summation order.
        assert_relative_eq!(dz_dp, 1.0 / p_z, epsilon = 0.0, max_relative = 1e-13);
        for k in 0..5 {
            assert_abs_diff_eq!(dz_dr[k], -p_r[k] / p_z, epsilon = 1e-13);
        }
        // A parallel shift of the curve moves z one for one: Σₖ dz/drₖ = −1.
        assert_abs_diff_eq!(dz_dr.iter().sum::<f64>(), -1.0, epsilon = 1e-13);
        // Signs: a higher rate or a higher price means a lower spread.
        assert!(dz_dp < 0.0, "{name}");
        assert!(dz_dr.iter().all(|d| *d <= 0.0), "{name}: {dz_dr:?}");
    }
}

#[test]
fn z_spread_gradient_against_finite_differences_of_the_solver() {
    let h = 1e-5; // 0.1bp on a rate; truncation ~h²·z''' ≈ 1e-9
    let hp = 1e-4; // on a price near 100
    for (name, f, market) in bonds() {
        let (_, dz_dr, dz_dp) =
            z_spread_grad(&RATES, market, &TENORS, &f.times, &f.amounts).unwrap();
        let mut bumped = RATES;
        for k in 0..5 {
            bumped[k] = RATES[k] + h;
            let up = solve(&bumped, market, &f);
            bumped[k] = RATES[k] - h;
            let down = solve(&bumped, market, &f);
            bumped[k] = RATES[k];
            let fd = (up - down) / (2.0 * h);
            // Solver noise Z_TOL/h = 1e-9, truncation ~1e-9; |dz/dr| ≤ 1.
            assert_abs_diff_eq!(dz_dr[k], fd, epsilon = 1e-7);
        }
        let fd = (solve(&RATES, market + hp, &f) - solve(&RATES, market - hp, &f)) / (2.0 * hp);
        // Noise Z_TOL/hp = 1e-10 against |dz/dP| ≈ 1e-3..1e-1.
        assert_relative_eq!(dz_dp, fd, epsilon = 0.0, max_relative = 1e-6);
        let _ = name;
    }
}

// The finite differences above rely on a solver tolerance far below the
// bump: noise Z_TOL/h.
const _: () = assert!(Z_TOL <= 1e-13);

#[test]
fn brent_and_bisection_agree_on_the_spread_and_its_gradient() {
    for (name, f, market) in bonds() {
        let (z, dr, dp) = z_spread_grad(&RATES, market, &TENORS, &f.times, &f.amounts).unwrap();
        let (zb, drb, dpb) =
            z_spread_brent_grad(&RATES, market, &TENORS, &f.times, &f.amounts).unwrap();
        assert_abs_diff_eq!(z, zb, epsilon = 2.0 * Z_TOL);
        assert_relative_eq!(dp, dpb, epsilon = 0.0, max_relative = 1e-9);
        for k in 0..5 {
            assert_abs_diff_eq!(dr[k], drb[k], epsilon = 1e-9);
        }
        let _ = name;
    }
}

#[test]
fn the_spread_is_recovered_from_a_price_made_at_that_spread() {
    let f = CashFlows::fixed_rate(0.045, 6.0, 2);
    for z in [-0.004, 0.0, 0.0075, 0.035, 0.2] {
        let p = price(z, &RATES, &TENORS, &f.times, &f.amounts);
        let solved = z_spread(&RATES, p, &TENORS, &f.times, &f.amounts).unwrap();
        assert_abs_diff_eq!(solved, z, epsilon = 1e-13);
    }
}

#[test]
fn a_nan_market_price_is_an_error() {
    let f = CashFlows::fixed_rate(0.04, 5.0, 2);
    let r = z_spread_grad(&RATES, f64::NAN, &TENORS, &f.times, &f.amounts);
    assert!(matches!(r, Err(SolveError::NotANumber { .. })), "{r:?}");
    let r = z_spread_brent_grad(&RATES, f64::NAN, &TENORS, &f.times, &f.amounts);
    assert!(matches!(r, Err(SolveError::NotANumber { .. })), "{r:?}");
    // A NaN on the curve as well.
    let mut rates = RATES;
    rates[3] = f64::NAN;
    let r = z_spread_grad(&rates, 100.0, &TENORS, &f.times, &f.amounts);
    assert!(matches!(r, Err(SolveError::NotANumber { .. })), "{r:?}");
}

#[test]
fn a_price_no_spread_reaches_is_no_sign_change() {
    let f = CashFlows::fixed_rate(0.04, 5.0, 2);
    // Above the price at z = −50% (the bracket's low end), and at or below 0.
    for market in [1e6, 0.0, -5.0] {
        let r = z_spread_grad(&RATES, market, &TENORS, &f.times, &f.amounts);
        assert!(
            matches!(r, Err(SolveError::NoSignChange { .. })),
            "{market}: {r:?}"
        );
    }
}

// ---------------------------------------------------------------------------
// The z-spread called from other differentiable code: a spread in basis
// points over a benchmark, through a plain-f64 implicit function.

#[differentiable(implicit = model::residual)]
fn z_plain(
    curve: &[f64],
    market_price: f64,
    #[constant] tenors: &[f64],
    #[constant] times: &[f64],
    #[constant] amounts: &[f64],
) -> f64 {
    z_spread(curve, market_price, tenors, times, amounts).unwrap_or(f64::NAN)
}

/// The spread in bp over a benchmark bond's spread, both solved.
#[differentiable]
fn relative_value_bp(
    curve: &[f64],
    price_a: f64,
    price_b: f64,
    #[constant] tenors: &[f64],
    #[constant] times_a: &[f64],
    #[constant] amounts_a: &[f64],
    #[constant] times_b: &[f64],
    #[constant] amounts_b: &[f64],
) -> f64 {
    let za = z_plain(curve, price_a, tenors, times_a, amounts_a);
    let zb = z_plain(curve, price_b, tenors, times_b, amounts_b);
    (za - zb) * 10000.0
}

#[test]
fn the_spread_inside_other_differentiable_code() {
    let bonds = bonds();
    let (_, fa, pa) = &bonds[1];
    let (_, fb, pb) = &bonds[2];
    let args = (&fa.times, &fa.amounts, &fb.times, &fb.amounts);
    let (v, dr, dpa, dpb) =
        relative_value_bp_grad(&RATES, *pa, *pb, &TENORS, args.0, args.1, args.2, args.3);
    let (za, dra, dpa1) = z_spread_grad(&RATES, *pa, &TENORS, &fa.times, &fa.amounts).unwrap();
    let (zb, drb, dpb1) = z_spread_grad(&RATES, *pb, &TENORS, &fb.times, &fb.amounts).unwrap();
    assert_abs_diff_eq!(v, (za - zb) * 1e4, epsilon = 1e-9);
    assert_relative_eq!(dpa, 1e4 * dpa1, epsilon = 0.0, max_relative = 1e-12);
    assert_relative_eq!(dpb, -1e4 * dpb1, epsilon = 0.0, max_relative = 1e-12);
    for k in 0..5 {
        assert_abs_diff_eq!(dr[k], 1e4 * (dra[k] - drb[k]), epsilon = 1e-8);
    }
    // Finite differences of the whole thing (two solves per point).
    let check = relative_value_bp_check(&RATES, *pa, *pb, &TENORS, args.0, args.1, args.2, args.3);
    assert!(check.is_within(1e-4, 1e-6), "{check:?}");
}
