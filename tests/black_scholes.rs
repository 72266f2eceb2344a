//! The Black–Scholes example: the Greeks `call_price_grad` computes match
//! the closed forms.
//!
//! The example file is included as a module, so the function under test is
//! the one `cargo run --example black_scholes` runs. Reference numbers were
//! computed independently (Python, `Φ(x) = erfc(-x/√2)/2` from the C
//! library, and the closed-form Greeks), so they do not depend on the
//! example's own normal CDF.
//!
//! Tolerances:
//!
//! - `Φ` against the reference: `epsilon = 1e-14`, `max_relative = 1e-11`
//!   (Hart's approximation is good to about 1e-14 absolute), and in the
//!   far left tail `max_relative = 5e-8` alone;
//! - `dΦ/dx` by AD against the density `φ`: `epsilon = 1e-14`,
//!   `max_relative = 1e-9` (the derivative of a rational approximation is a
//!   little less accurate than the approximation itself);
//! - price and Greeks against the reference: `epsilon = 1e-11`,
//!   `max_relative = 1e-9`;
//! - Greeks against the example's closed forms (same `Φ`): `epsilon =
//!   1e-12`, `max_relative = 1e-9`;
//! - Greeks against bump-and-reprice: `epsilon = 1e-7`, `max_relative =
//!   1e-6` (central differences with a step of 1e-5, rounding error about
//!   1e-16·C/1e-5).

#[path = "../examples/black_scholes.rs"]
#[allow(dead_code)]
mod bs;

use approx::assert_relative_eq;

/// (spot, strike, rate, vol, time), price, [delta, ∂C/∂K, rho, vega, ∂C/∂T].
const REFERENCE: &[([f64; 5], f64, [f64; 5])] = &[
    (
        [100.0, 100.0, 0.05, 0.2, 1.0],
        10.450583572185565,
        [
            0.6368306511756191,
            -0.5323248154537634,
            53.232481545376345,
            37.52403469169379,
            6.414027546438197,
        ],
    ),
    (
        [100.0, 105.0, 0.05, 0.2, 1.0],
        8.021352235143176,
        [
            0.5422283335848053,
            -0.4400141059365462,
            46.20148112333735,
            39.67052380842653,
            6.277126437009521,
        ],
    ),
    (
        // Deep out of the money, short-dated.
        [50.0, 80.0, 0.01, 0.35, 0.25],
        0.012819407380506964,
        [
            0.004883807440347614,
            -0.002892137057960922,
            0.05784274115921843,
            0.3539995182948697,
            0.25011337245277754,
        ],
    ),
    (
        // In the money, long-dated.
        [120.0, 90.0, 0.03, 0.15, 2.0],
        35.69259474023697,
        [
            0.9595123543335422,
            -0.8827654197754233,
            158.8977755595762,
            14.768821160388418,
            2.9372974269082084,
        ],
    ),
    (
        // A negative rate, high volatility.
        [100.0, 100.0, -0.01, 0.5, 5.0],
        40.947107748552625,
        [
            0.6964773434208871,
            -0.2870062659353609,
            143.50313296768044,
            78.1555138436971,
            3.620769426249493,
        ],
    ),
];

const GREEKS: [&str; 5] = ["delta", "dC/dK", "rho", "vega", "dC/dT"];

#[test]
fn normal_cdf_matches_reference_values() {
    let reference = [
        (0.0, 0.5),
        (1.0, 0.8413447460685429),
        (-1.0, 0.15865525393145707),
        (1.96, 0.9750021048517795),
        (-1.96, 0.024997895148220435),
        (3.0, 0.9986501019683699),
        (-5.0, 2.866515718791946e-07),
        (-8.0, 6.220960574271819e-16),
        (8.5, 1.0),
        (-10.0, 7.619853024160593e-24),
    ];
    for (x, expected) in reference {
        let got = bs::norm_cdf(x);
        assert_relative_eq!(got, expected, epsilon = 1e-14, max_relative = 1e-11);
        // Far in the left tail the absolute bound says nothing; a relative
        // one must hold there too: Hart's rational branch is good to about
        // 1e-10 relative, its continued fraction (|x| > 7.07) to about 1e-8.
        if x <= -5.0 {
            assert_relative_eq!(got, expected, epsilon = 0.0, max_relative = 5e-8);
        }
    }
}

#[test]
fn normal_cdf_derivative_is_the_density() {
    // Both branches of the approximation (|x| below and above 7.07), both
    // signs, and x = 0 exactly (where an `abs` would have given slope 0).
    let mut x = -9.0;
    while x <= 9.0 {
        let (value, d) = bs::norm_cdf_grad(x);
        assert_eq!(value.to_bits(), bs::norm_cdf(x).to_bits());
        let density = bs::norm_pdf(x);
        assert!(
            approx::relative_eq!(d, density, epsilon = 1e-14, max_relative = 1e-9),
            "dΦ/dx at {x}: AD {d}, density {density}"
        );
        x += 0.125;
    }
}

#[test]
fn price_and_greeks_match_reference() {
    for (args, price, greeks) in REFERENCE {
        let (p, ad) = bs::ad_greeks(*args);
        assert_relative_eq!(p, *price, epsilon = 1e-11, max_relative = 1e-9);
        for i in 0..5 {
            assert!(
                approx::relative_eq!(ad[i], greeks[i], epsilon = 1e-11, max_relative = 1e-9),
                "{} at {args:?}: AD {}, reference {}",
                GREEKS[i],
                ad[i],
                greeks[i]
            );
        }
    }
}

#[test]
fn greeks_match_the_examples_closed_forms() {
    for (args, _, _) in REFERENCE {
        let [s, k, r, v, t] = *args;
        let (_, ad) = bs::ad_greeks(*args);
        let closed = bs::closed_form_greeks(s, k, r, v, t);
        for i in 0..5 {
            assert!(
                approx::relative_eq!(ad[i], closed[i], epsilon = 1e-12, max_relative = 1e-9),
                "{} at {args:?}: AD {}, closed form {}",
                GREEKS[i],
                ad[i],
                closed[i]
            );
        }
    }
}

#[test]
fn greeks_match_bump_and_reprice() {
    for (args, _, _) in REFERENCE {
        let (_, ad) = bs::ad_greeks(*args);
        let bumped = bs::bump_and_reprice(*args);
        for i in 0..5 {
            assert!(
                approx::relative_eq!(ad[i], bumped[i], epsilon = 1e-7, max_relative = 1e-6),
                "{} at {args:?}: AD {}, bump and reprice {}",
                GREEKS[i],
                ad[i],
                bumped[i]
            );
        }
    }
}

#[test]
fn value_is_bit_exact_and_check_passes() {
    for (args, _, _) in REFERENCE {
        let [s, k, r, v, t] = *args;
        let price = bs::call_price(s, k, r, v, t);
        assert_eq!(
            bs::call_price_grad(s, k, r, v, t).0.to_bits(),
            price.to_bits()
        );
        assert_eq!(
            bs::call_price_vjp(s, k, r, v, t).0.to_bits(),
            price.to_bits()
        );
        let check = bs::call_price_check(s, k, r, v, t);
        assert!(check.is_within(1e-6, 1e-6), "{check}");
    }
}

/// The pullback with a seed of -1 (a short position) negates every Greek.
#[test]
fn short_position_pullback() {
    let [s, k, r, v, t] = REFERENCE[0].0;
    let (_, pullback) = bs::call_price_vjp(s, k, r, v, t);
    let (ds, dk, dr, dv, dt) = pullback(-1.0);
    let (_, ad) = bs::ad_greeks(REFERENCE[0].0);
    assert_eq!([ds, dk, dr, dv, dt], ad.map(|g| -g));
}
