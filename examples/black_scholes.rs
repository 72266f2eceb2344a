//! Black–Scholes Greeks by reverse-mode AD.
//!
//! The price of a European call is written once, as a plain function with
//! `#[differentiable(hessian)]`; `call_price_grad` returns the price and
//! all five sensitivities in one sweep. They are printed next to the
//! closed-form Greeks and a bump-and-reprice (central difference) estimate.
//! `call_price_hessian` adds the second-order Greeks (gamma, vanna, volga),
//! printed next to their closed forms.
//!
//! ```text
//! cargo run --release --example black_scholes
//! ```

use autograd::differentiable;

/// 1/√(2π).
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// The standard normal CDF Φ(x), by Hart's double-precision rational
/// approximation (as given by G. West, "Better approximations to
/// cumulative normal functions", 2005): absolute error about 1e-14, using
/// only `exp`, a branch and arithmetic, so the macro differentiates it.
#[differentiable(jvp, hessian)]
pub fn norm_cdf(x: f64) -> f64 {
    // |x|, written as a branch on the same test as the final one rather
    // than `x.abs()`: at x = +0 abs takes its right piece (the zero's
    // sign), while the final branch takes the left one (0 > 0 is false),
    // and Φ'(0) would come out negated. Both branches here take the same
    // side, so Φ'(0) is exact, and Φ is smooth.
    let z = if x > 0.0 { x } else { -x };
    let e = (-0.5 * z * z).exp();
    let tail = if z < 7.071_067_811_865_47 {
        let n = 0.035_262_496_599_891_1 * z + 0.700_383_064_443_688;
        let n = n * z + 6.373_962_203_531_65;
        let n = n * z + 33.912_866_078_383;
        let n = n * z + 112.079_291_497_871;
        let n = n * z + 221.213_596_169_931;
        let n = n * z + 220.206_867_912_376;
        let d = 0.088_388_347_648_318_4 * z + 1.755_667_163_182_64;
        let d = d * z + 16.064_177_579_207;
        let d = d * z + 86.780_732_202_946_1;
        let d = d * z + 296.564_248_779_674;
        let d = d * z + 637.333_633_378_831;
        let d = d * z + 793.826_512_519_948;
        let d = d * z + 440.413_735_824_752;
        e * n / d
    } else {
        // A continued fraction for the far tail.
        let b = z + 0.65;
        let b = z + 4.0 / b;
        let b = z + 3.0 / b;
        let b = z + 2.0 / b;
        let b = z + 1.0 / b;
        e / b / 2.506_628_274_631
    };
    if x > 0.0 { 1.0 - tail } else { tail }
}

/// The Black–Scholes price of a European call on a non-dividend stock:
/// `C = S·Φ(d₁) - K·e^(-rT)·Φ(d₂)`.
#[differentiable(jvp, hessian)]
pub fn call_price(spot: f64, strike: f64, rate: f64, vol: f64, time: f64) -> f64 {
    let sqrt_t = time.sqrt();
    let vol_sqrt_t = vol * sqrt_t;
    let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * time) / vol_sqrt_t;
    let d2 = d1 - vol_sqrt_t;
    let discount = (-rate * time).exp();
    spot * norm_cdf(d1) - strike * discount * norm_cdf(d2)
}

/// The standard normal density φ(x).
pub fn norm_pdf(x: f64) -> f64 {
    INV_SQRT_2PI * (-0.5 * x * x).exp()
}

/// The closed-form sensitivities of [`call_price`], in argument order:
/// delta ∂C/∂S = Φ(d₁), ∂C/∂K = -e^(-rT)·Φ(d₂), rho ∂C/∂r = K·T·e^(-rT)·Φ(d₂),
/// vega ∂C/∂σ = S·φ(d₁)·√T, and ∂C/∂T = S·φ(d₁)·σ/(2√T) + r·K·e^(-rT)·Φ(d₂)
/// (theta, as the derivative in the time to expiry).
pub fn closed_form_greeks(spot: f64, strike: f64, rate: f64, vol: f64, time: f64) -> [f64; 5] {
    let sqrt_t = time.sqrt();
    let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * time) / (vol * sqrt_t);
    let d2 = d1 - vol * sqrt_t;
    let discount = (-rate * time).exp();
    let nd2 = norm_cdf(d2);
    [
        norm_cdf(d1),
        -discount * nd2,
        strike * time * discount * nd2,
        spot * norm_pdf(d1) * sqrt_t,
        spot * norm_pdf(d1) * vol / (2.0 * sqrt_t) + rate * strike * discount * nd2,
    ]
}

/// The closed-form second-order sensitivities of [`call_price`]: gamma
/// ∂²C/∂S² = φ(d₁)/(S·σ·√T), vanna ∂²C/∂S∂σ = −φ(d₁)·d₂/σ and volga
/// ∂²C/∂σ² = S·φ(d₁)·√T·d₁·d₂/σ.
pub fn closed_form_second_order(
    spot: f64,
    strike: f64,
    rate: f64,
    vol: f64,
    time: f64,
) -> [f64; 3] {
    let sqrt_t = time.sqrt();
    let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * time) / (vol * sqrt_t);
    let d2 = d1 - vol * sqrt_t;
    [
        norm_pdf(d1) / (spot * vol * sqrt_t),
        -norm_pdf(d1) * d2 / vol,
        spot * norm_pdf(d1) * sqrt_t * d1 * d2 / vol,
    ]
}

/// Gamma, vanna and volga by AD: entries (S, S), (S, σ) and (σ, σ) of the
/// Hessian over the arguments (S, K, r, σ, T).
pub fn ad_second_order(args: [f64; 5]) -> [f64; 3] {
    let (_, _, h) = call_price_hessian(args[0], args[1], args[2], args[3], args[4]);
    [h[(0, 0)], h[(0, 3)], h[(3, 3)]]
}

/// Bump and reprice: the central difference of [`call_price`] in each
/// argument, with a step of 1e-5 times the argument's magnitude (at least
/// 1e-5).
pub fn bump_and_reprice(args: [f64; 5]) -> [f64; 5] {
    let price = |a: [f64; 5]| call_price(a[0], a[1], a[2], a[3], a[4]);
    let mut out = [0.0; 5];
    for (i, slot) in out.iter_mut().enumerate() {
        let h = 1e-5 * args[i].abs().max(1.0);
        let (mut up, mut down) = (args, args);
        up[i] += h;
        down[i] -= h;
        *slot = (price(up) - price(down)) / (up[i] - down[i]);
    }
    out
}

/// The price and the five sensitivities, by AD, in argument order.
pub fn ad_greeks(args: [f64; 5]) -> (f64, [f64; 5]) {
    let (price, ds, dk, dr, dv, dt) = call_price_grad(args[0], args[1], args[2], args[3], args[4]);
    (price, [ds, dk, dr, dv, dt])
}

fn main() {
    let (spot, strike, rate, vol, time) = (100.0, 105.0, 0.05, 0.2, 1.0);
    let args = [spot, strike, rate, vol, time];
    let (price, ad) = ad_greeks(args);
    let closed = closed_form_greeks(spot, strike, rate, vol, time);
    let bumped = bump_and_reprice(args);

    println!("European call, Black–Scholes");
    println!(
        "  spot S = {spot}, strike K = {strike}, rate r = {rate}, vol σ = {vol}, time T = {time}"
    );
    println!("  price C = {price:.12}");
    println!();
    println!(
        "{:<14} {:>20} {:>20} {:>20} {:>11} {:>11}",
        "sensitivity",
        "AD (call_price_grad)",
        "closed form",
        "bump & reprice",
        "|AD-closed|",
        "|AD-bump|"
    );
    let names = [
        "delta ∂C/∂S",
        "∂C/∂K",
        "rho ∂C/∂r",
        "vega ∂C/∂σ",
        "theta ∂C/∂T",
    ];
    let (mut worst_closed, mut worst_bump) = ((0.0_f64, ""), (0.0_f64, ""));
    for i in 0..5 {
        let (dc, db) = ((ad[i] - closed[i]).abs(), (ad[i] - bumped[i]).abs());
        if dc > worst_closed.0 {
            worst_closed = (dc, names[i]);
        }
        if db > worst_bump.0 {
            worst_bump = (db, names[i]);
        }
        println!(
            "{:<14} {:>20.12} {:>20.12} {:>20.12} {:>11.2e} {:>11.2e}",
            names[i], ad[i], closed[i], bumped[i], dc, db
        );
    }
    println!();
    println!(
        "largest difference, AD vs closed form:    {:.2e} ({})",
        worst_closed.0, worst_closed.1
    );
    println!(
        "largest difference, AD vs bump & reprice: {:.2e} ({})",
        worst_bump.0, worst_bump.1
    );
    println!();
    println!(
        "theta is ∂C/∂T in the time to expiry T; the calendar theta, ∂C/∂t = -∂C/∂T, is {:.12}",
        -ad[4]
    );
    println!();
    let second = ad_second_order(args);
    let second_closed = closed_form_second_order(spot, strike, rate, vol, time);
    println!(
        "{:<14} {:>22} {:>20} {:>11}",
        "second order", "AD (call_price_hessian)", "closed form", "|AD-closed|"
    );
    for (i, name) in ["gamma ∂²C/∂S²", "vanna ∂²C/∂S∂σ", "volga ∂²C/∂σ²"]
        .iter()
        .enumerate()
    {
        println!(
            "{:<14} {:>22.12} {:>20.12} {:>11.2e}",
            name,
            second[i],
            second_closed[i],
            (second[i] - second_closed[i]).abs()
        );
    }
}
