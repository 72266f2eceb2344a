//! The Monte Carlo job at a small size: the pathwise Greeks agree with
//! bump-and-revalue and with the geometric Asian's closed form, within
//! three standard errors.

use workloads::monte_carlo::{
    Estimate, Market, Payoff, Simulation, asian_call, asian_call_check, bump_and_revalue,
    down_and_out_asian_call_check, geometric_asian_closed_form, normal_cdf, pathwise,
};

const SMALL: Simulation = Simulation {
    paths: 4000,
    steps: 12,
    seed: 7,
};

/// |a − b| ≤ 3 standard errors of `a`.
fn within_three_standard_errors(name: &str, a: Estimate, b: f64) {
    let off = (a.mean - b).abs() / a.standard_error;
    assert!(
        off <= 3.0,
        "{name}: {} ± {} is {off:.1} standard errors from {b}",
        a.mean,
        a.standard_error
    );
}

#[test]
fn pathwise_greeks_agree_with_bump_and_revalue() {
    let barrier = Payoff::DownAndOut {
        barrier: 90.0,
        width: 0.5,
    };
    for payoff in [Payoff::Asian, barrier] {
        let ad = pathwise(&payoff, &Market::DEFAULT, &SMALL).unwrap();
        let bump = bump_and_revalue(&payoff, &Market::DEFAULT, &SMALL).unwrap();
        let names = ["price", "delta", "vega", "rho"];
        for ((name, a), b) in names.iter().zip(ad.all()).zip(bump.all()) {
            within_three_standard_errors(&format!("{payoff:?} {name}"), a, b.mean);
        }
        // The estimates are not degenerate: a delta of an at-the-money call.
        assert!(ad.delta.mean > 0.3 && ad.delta.mean < 0.8, "{ad:?}");
        assert!(ad.delta.standard_error > 0.0, "{ad:?}");
    }
}

#[test]
fn geometric_asian_delta_matches_its_closed_form() {
    let sim = Simulation {
        paths: 20_000,
        ..SMALL
    };
    let mc = pathwise(&Payoff::Geometric, &Market::DEFAULT, &sim).unwrap();
    let (price, delta) = geometric_asian_closed_form(&Market::DEFAULT, sim.steps);
    within_three_standard_errors("price", mc.price, price);
    within_three_standard_errors("delta", mc.delta, delta);
    // The closed form's delta against central differences of its price.
    let h = 1e-4;
    let bumped = |s0| {
        let m = Market {
            s0,
            ..Market::DEFAULT
        };
        geometric_asian_closed_form(&m, sim.steps).0
    };
    let fd = (bumped(100.0 + h) - bumped(100.0 - h)) / (2.0 * h);
    assert!((fd - delta).abs() < 1e-7, "{fd} against {delta}");
}

#[test]
fn the_normal_distribution_function_is_accurate() {
    // Reference values of Φ (Abramowitz and Stegun, table 26.1, and Φ(0) = 1/2).
    for (x, p) in [
        (0.0, 0.5),
        (1.0, 0.841_344_746_068_542_9),
        (-1.96, 0.024_997_895_148_220_43),
        (2.5, 0.993_790_334_674_223_7),
        (-5.0, 2.866_515_718_791_939e-7),
    ] {
        assert!(
            (normal_cdf(x) - p).abs() < 1e-12,
            "Φ({x}) = {}",
            normal_cdf(x)
        );
    }
}

#[test]
fn the_generated_gradients_match_finite_differences() {
    let normals = [0.3, -1.2, 0.8, 0.1, -0.4, 1.5];
    let (m, k) = (Market::DEFAULT, 95.0);
    // In the money on this path, away from the payoff's kink.
    assert!(asian_call(m.s0, m.sigma, m.r, m.t, k, &normals) > 1.0);
    let check = asian_call_check(m.s0, m.sigma, m.r, m.t, k, &normals);
    assert!(check.is_within(1e-6, 1e-6), "{check:?}");
    let check = down_and_out_asian_call_check(m.s0, m.sigma, m.r, m.t, k, 95.0, 2.0, &normals);
    assert!(check.is_within(1e-6, 1e-6), "{check:?}");
}

#[test]
fn the_result_does_not_depend_on_the_number_of_threads() {
    let run = |threads| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| pathwise(&Payoff::Asian, &Market::DEFAULT, &SMALL).unwrap())
    };
    let (one, two) = (run(1), run(2));
    // Same numbers on every path; only the order of the sums may differ.
    for (a, b) in one.all().iter().zip(two.all()) {
        assert!(
            (a.mean - b.mean).abs() <= 1e-12 * a.mean.abs(),
            "{a:?} {b:?}"
        );
    }
}

#[test]
fn bad_inputs_are_errors() {
    let bad_vol = Market {
        sigma: -0.2,
        ..Market::DEFAULT
    };
    let message = pathwise(&Payoff::Asian, &bad_vol, &SMALL).unwrap_err();
    assert!(message.contains("volatility"), "{message}");
    let one_path = Simulation { paths: 1, ..SMALL };
    let message = bump_and_revalue(&Payoff::Asian, &Market::DEFAULT, &one_path).unwrap_err();
    assert!(message.contains("at least 2 paths"), "{message}");
    let no_width = Payoff::DownAndOut {
        barrier: 90.0,
        width: 0.0,
    };
    let message = pathwise(&no_width, &Market::DEFAULT, &SMALL).unwrap_err();
    assert!(message.contains("width"), "{message}");
    let nan_rate = Market {
        r: f64::NAN,
        ..Market::DEFAULT
    };
    assert!(pathwise(&Payoff::Geometric, &nan_rate, &SMALL).is_err());
}
