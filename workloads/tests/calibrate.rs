//! The calibration job at a small size: the fit on our gradient reaches
//! the error bound in fewer passes over the portfolio than the same fit on
//! central differences, and bad input files are reported.

use std::path::Path;

use workloads::bond_data::parse_bonds;
use workloads::calibrate::{
    Bond, GradientSource, SYNTHETIC_CURVE, fit, initial_guess, nss_price_check, objective,
    objective_grad, read_bonds, ridge_check, rms_error, synthetic, zero_rate,
};

fn data(file: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/data")
        .join(file)
}

#[test]
fn the_fit_on_our_gradient_beats_finite_differences_on_the_bond_file() {
    let bonds = read_bonds(&data("bonds.csv")).unwrap();
    assert!(bonds.skipped.is_empty(), "{:?}", bonds.skipped);
    let bonds = bonds.value;
    assert_eq!(bonds.len(), 12);
    let ours = fit(&bonds, 0.1, GradientSource::Reverse, 500).unwrap();
    let fd = fit(&bonds, 0.1, GradientSource::CentralDifferences, 500).unwrap();
    // Twelve bonds of mixed credit around one curve: a flat curve at their
    // mean yield misses by 2.64 per 100 face, the fitted one by 2.52.
    let flat = rms_error(&initial_guess(&bonds), &bonds);
    assert!(ours.rms < 2.6 && ours.rms < flat, "{ours:?}, flat {flat}");
    assert_eq!(ours.termination, "converged", "{ours:?}");
    assert!(ours.evaluations < fd.evaluations, "{ours:?} {fd:?}");
    // Both find the same minimum.
    assert!((ours.rms - fd.rms).abs() < 1e-6, "{ours:?} {fd:?}");
    for (a, b) in ours.params.iter().zip(&fd.params) {
        assert!((a - b).abs() < 1e-4, "{ours:?} {fd:?}");
    }
}

#[test]
fn a_synthetic_fit_recovers_the_curve() {
    let bonds = synthetic(60, 0.05, 3).unwrap();
    let ours = fit(&bonds, 0.0, GradientSource::Reverse, 500).unwrap();
    let fd = fit(&bonds, 0.0, GradientSource::CentralDifferences, 500).unwrap();
    // Residuals at the noise level (0.05), fewer passes than finite
    // differences.
    assert!(ours.rms < 0.06, "{ours:?}");
    assert!(ours.evaluations < fd.evaluations, "{ours:?} {fd:?}");
    // The fitted zero curve within 2bp of the true one from 2 to 30 years
    // (about 1bp at most; prices pin down the short end less: 3bp at 1 year).
    for t in (2..=30).map(f64::from) {
        let off = zero_rate(&ours.params, t) - zero_rate(&SYNTHETIC_CURVE, t);
        assert!(off.abs() < 2e-4, "{off} at {t} years: {ours:?}");
    }
}

#[test]
fn the_generated_gradients_match_finite_differences() {
    let bonds = read_bonds(&data("bonds.csv")).unwrap().value;
    let p = [4.9, -1.1, 2.4, 0.7, 0.4, 2.4];
    for b in &bonds {
        let check = nss_price_check(&p, &b.times, &b.amounts);
        assert!(check.is_within(1e-6, 1e-6), "{}: {check:?}", b.id);
    }
    assert!(ridge_check(&p, 0.1).is_within(1e-8, 1e-8));
    // The objective's hand-chained gradient against central differences.
    let (value, gradient) = objective_grad(&p, &bonds, 0.1);
    assert_eq!(value, objective(&p, &bonds, 0.1));
    for k in 0..p.len() {
        let h = 1e-6 * p[k].abs().max(1.0);
        let (mut up, mut down) = (p, p);
        up[k] += h;
        down[k] -= h;
        let fd = (objective(&up, &bonds, 0.1) - objective(&down, &bonds, 0.1)) / (2.0 * h);
        assert!(
            (gradient[k] - fd).abs() < 1e-6 * fd.abs().max(1.0),
            "∂/∂p{k}: {} against {fd}",
            gradient[k]
        );
    }
}

#[test]
fn cash_flows_and_yields() {
    let zero = Bond::fixed_rate("Z".into(), 0.0, 12.0, 1, 55.677);
    assert_eq!(zero.times.len(), 12);
    assert_eq!(*zero.amounts.last().unwrap(), 100.0);
    let y = zero.yield_to_maturity().unwrap();
    assert!((y - (100.0_f64 / 55.677).ln() / 12.0).abs() < 1e-10, "{y}");
    let semi = Bond::fixed_rate("S".into(), 0.055, 7.25, 2, 100.0);
    assert_eq!(semi.times.len(), 15);
    assert!((semi.times[0] - 0.25).abs() < 1e-12 && semi.times[14] == 7.25);
    assert!((semi.amounts[0] - 2.75).abs() < 1e-12);
}

#[test]
fn bad_rows_are_reported_with_their_line_and_field() {
    let read = read_bonds(&data("bonds_malformed.csv")).unwrap();
    let ids: Vec<&str> = read.value.iter().map(|b| b.id.as_str()).collect();
    assert_eq!(ids, ["CORP-A-5Y", "CORP-A-10Y", "LONG-30Y"]);
    let skipped: Vec<(u64, &str)> = read
        .skipped
        .iter()
        .map(|e| (e.line, e.message.as_str()))
        .collect();
    let expected = [
        (5, "price (column 5) must be a number, found `n/a`"),
        (6, "expected 5 fields"),
        (7, "frequency must be one of"),
        (9, "duplicate id `CORP-A-5Y` (first on line 4)"),
        (10, "price must be a finite number"),
    ];
    assert_eq!(skipped.len(), expected.len(), "{skipped:?}");
    for ((line, message), (want_line, want)) in skipped.iter().zip(expected) {
        assert_eq!(*line, want_line, "{message}");
        assert!(message.contains(want), "line {line}: {message}");
    }
    assert!(
        read.skipped[0]
            .to_string()
            .contains("bonds_malformed.csv:5: ")
    );
}

#[test]
fn unusable_files_and_inputs_are_errors() {
    let wrong = parse_bonds("tenor_years,zero_rate_pct\n1,4.0\n", "curve.csv").unwrap_err();
    assert!(
        wrong
            .to_string()
            .contains("missing columns `id`, `coupon_pct`"),
        "{wrong}"
    );
    let missing = read_bonds(Path::new("/nonexistent/bonds.csv")).unwrap_err();
    assert!(missing.to_string().contains("cannot read"), "{missing}");
    assert!(fit(&[], 0.1, GradientSource::Reverse, 10).is_err());
    let noisy = synthetic(5, f64::NAN, 1).unwrap_err();
    assert!(noisy.contains("price noise"), "{noisy}");
    assert!(synthetic(5, -0.1, 1).is_err());
    let bonds = synthetic(5, 0.0, 1).unwrap();
    let negative = fit(&bonds, -1.0, GradientSource::Reverse, 10).unwrap_err();
    assert!(negative.to_string().contains("ridge weight"), "{negative}");
}
