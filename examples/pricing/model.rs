//! The bond model: the price at a spread over the zero curve and the
//! z-spread that reprices a bond, the latter through the implicit hook
//! (cash flows come from `data.rs`).
//!
//! Rates are continuously compounded decimals (0.035 is 3.5%); times are in
//! years; prices are per 100 face (dirty, i.e. with accrued interest).

use autograd::differentiable;
use autograd::solve::{SolveError, bisect, brent};

/// The z-spreads searched: −50% to +100%, far wider than any real bond's.
pub const Z_BRACKET: (f64, f64) = (-0.5, 1.0);

/// The solvers' tolerance on z: far below a basis point (1e-4), and small
/// enough that bump-and-reprice with a 1e-5 bump is not swamped by it.
pub const Z_TOL: f64 = 1e-14;

/// The price per 100 face at spread `z` over the zero curve `curve`
/// (rates at the key `tenors`): Σᵢ amountᵢ · exp(−(r(tᵢ) + z)·tᵢ), with
/// r(t) linear between key tenors and flat beyond the first and the last.
///
/// The curve is walked once: cash flow times increase, so the segment
/// index `k` only moves forward.
#[differentiable(hessian)]
pub fn price(
    z: f64,
    curve: &[f64],
    #[constant] tenors: &[f64],
    #[constant] times: &[f64],
    #[constant] amounts: &[f64],
) -> f64 {
    let n = tenors.len();
    let mut pv = 0.0;
    let mut k = 0;
    for i in 0..times.len() {
        let t = times[i];
        while k + 2 < n && t > tenors[k + 1] {
            k += 1;
        }
        let r = if t <= tenors[0] {
            curve[0]
        } else if t >= tenors[n - 1] {
            curve[n - 1]
        } else {
            let w = (t - tenors[k]) / (tenors[k + 1] - tenors[k]);
            curve[k] * (1.0 - w) + curve[k + 1] * w
        };
        pv += amounts[i] * (-(r + z) * t).exp();
    }
    pv
}

/// Model price minus market price: zero at the bond's z-spread.
#[differentiable]
pub fn residual(
    z: f64,
    curve: &[f64],
    market_price: f64,
    #[constant] tenors: &[f64],
    #[constant] times: &[f64],
    #[constant] amounts: &[f64],
) -> f64 {
    price(z, curve, tenors, times, amounts) - market_price
}

/// The z-spread by bisection: the z with `price(z, curve, ..) ==
/// market_price`. `z_spread_grad` gives, from one call, z, dz/d(every
/// curve point) and dz/d(market price), by the implicit function theorem.
#[differentiable(implicit = residual)]
pub fn z_spread(
    curve: &[f64],
    market_price: f64,
    #[constant] tenors: &[f64],
    #[constant] times: &[f64],
    #[constant] amounts: &[f64],
) -> Result<f64, SolveError> {
    let (lo, hi) = Z_BRACKET;
    bisect(
        |z| residual(z, curve, market_price, tenors, times, amounts),
        lo,
        hi,
        Z_TOL,
    )
}

/// [`z_spread`] by Brent's method: the same root, in about a fifth of the
/// evaluations.
#[differentiable(implicit = residual)]
pub fn z_spread_brent(
    curve: &[f64],
    market_price: f64,
    #[constant] tenors: &[f64],
    #[constant] times: &[f64],
    #[constant] amounts: &[f64],
) -> Result<f64, SolveError> {
    let (lo, hi) = Z_BRACKET;
    brent(
        |z| residual(z, curve, market_price, tenors, times, amounts),
        lo,
        hi,
        Z_TOL,
    )
}
