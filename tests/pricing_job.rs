//! The pricing example's job (`examples/pricing/`) at a small size, through
//! the same modules the example runs: its flags, its loading, both pricing
//! passes, its report and its chart.
//!
//! What it must show: every adjoint sensitivity agrees with
//! bump-and-reprice; the key-rate sensitivities sum to the parallel one
//! (Σₖ dz/drₖ = −1, Σₖ ∂P/∂rₖ = ∂P/∂z, and both against the curve shifted
//! as a whole and re-solved); the solved spreads are those the synthetic
//! prices were made with; every bond's convexity and key-rate gamma (from
//! `price_hessian`) equal their closed forms, and the portfolio's gamma
//! equals central differences of the summed adjoint gradient. And that bad
//! flags and files are clear errors.

#![allow(dead_code)]

#[path = "../examples/pricing/chart.rs"]
mod chart;
#[path = "../examples/pricing/cli.rs"]
mod cli;
#[path = "../examples/pricing/data.rs"]
mod data;
#[path = "../examples/pricing/job.rs"]
mod job;
#[path = "../examples/pricing/model.rs"]
mod model;
#[path = "../examples/pricing/report.rs"]
mod report;
#[path = "../examples/pricing/synthetic.rs"]
mod synthetic;

use std::path::PathBuf;

use autograd::nalgebra::DMatrix;
use clap::Parser;
use clap::error::ErrorKind;

use cli::{Args, Solver};
use data::Curve;
use job::{Instrument, Portfolio};

/// Adjoint against bump-and-reprice, relative to the bond's largest
/// sensitivity of each kind. The bumps (1e-5 on a rate, 1e-4 on a price)
/// leave a truncation error of about 1e-10 and the solver's tolerance
/// (1e-14 on z) one of about 1e-10 relative to dz/dprice; the example shows
/// about 1e-8 at worst on 100 000 bonds.
const ADJOINT_VS_BUMP: f64 = 1e-6;

/// Identities that hold up to rounding (sums of ten terms of size ≤ 1).
const IDENTITY: f64 = 1e-12;

/// The parallel shift of the whole curve for the re-solved parallel
/// sensitivity.
const PARALLEL_BUMP: f64 = 1e-5;

/// Second order against the closed forms: sums of a few dozen positive
/// terms, so a few ulps of rounding.
const CLOSED_FORM: f64 = 1e-12;

/// The key-rate weights of the zero rate at time `t`: r(t) = Σₖ wₖ·rₖ,
/// linear between key tenors, flat beyond the first and the last.
fn weights(tenors: &[f64], t: f64) -> Vec<f64> {
    let n = tenors.len();
    let mut w = vec![0.0; n];
    if t <= tenors[0] {
        w[0] = 1.0;
    } else if t >= tenors[n - 1] {
        w[n - 1] = 1.0;
    } else {
        let k = tenors.windows(2).position(|s| t <= s[1]).unwrap();
        let x = (t - tenors[k]) / (tenors[k + 1] - tenors[k]);
        w[k] = 1.0 - x;
        w[k + 1] = x;
    }
    w
}

/// A bond's price, convexity (1/P)·Σ cfᵢ tᵢ² e^{−(r(tᵢ)+z)tᵢ} and key-rate
/// gamma Σ cfᵢ tᵢ² wᵢⱼ wᵢₖ e^{−(r(tᵢ)+z)tᵢ}, written out.
fn closed_form(curve: &Curve, b: &Instrument, z: f64) -> (f64, f64, DMatrix<f64>) {
    let n = curve.tenors.len();
    let (mut p, mut d2p_dz2, mut gamma) = (0.0, 0.0, DMatrix::zeros(n, n));
    for (t, cf) in b.flows.times.iter().zip(&b.flows.amounts) {
        let w = weights(&curve.tenors, *t);
        let r: f64 = w.iter().zip(&curve.rates).map(|(w, r)| w * r).sum();
        let pv = cf * (-(r + z) * t).exp();
        p += pv;
        d2p_dz2 += pv * t * t;
        for j in 0..n {
            for k in 0..n {
                gamma[(j, k)] += pv * t * t * w[j] * w[k];
            }
        }
    }
    (p, d2p_dz2 / p, gamma)
}

/// Every bond's second order against its closed form and the job's
/// differenced gradient; the portfolio's gamma against central
/// differences of Σ over bonds of `price_grad` in the curve.
fn check_second_order(curve: &Curve, bonds: &[Instrument], p: &Portfolio) {
    let n = curve.tenors.len();
    let mut spreads = Vec::new();
    for ((b, priced), s) in bonds.iter().zip(&p.priced).zip(&p.second_order) {
        let (Ok((a, _, _)), Some(s)) = (priced, s) else {
            assert!(priced.is_err() && s.is_none(), "{}", b.id);
            continue;
        };
        let id = &b.id;
        spreads.push((b, a.z));
        let (_, convexity, gamma) = closed_form(curve, b, a.z);
        assert!(
            (s.convexity - convexity).abs() <= CLOSED_FORM * convexity,
            "{id}: convexity {} against {convexity}",
            s.convexity
        );
        let scale = s.gamma.amax();
        for j in 0..n {
            for k in 0..n {
                let off = (s.gamma[(j, k)] - gamma[(j, k)]).abs();
                assert!(
                    off <= CLOSED_FORM * scale,
                    "{id} gamma {j},{k}: {} against {}",
                    s.gamma[(j, k)],
                    gamma[(j, k)]
                );
            }
        }
        assert!(s.difference() <= ADJOINT_VS_BUMP, "{id}: {s:?}");
    }
    let t = &p.totals;
    assert!(t.worst_second_order.0 <= ADJOINT_VS_BUMP, "{t:?}");

    // The portfolio's gamma is the Hessian of its value in the curve at
    // fixed spreads: central differences of that value's gradient.
    let gradient = |rates: &[f64]| {
        let mut g = vec![0.0; n];
        for (b, z) in &spreads {
            let f = &b.flows;
            let (_, _, dp) = model::price_grad(*z, rates, &curve.tenors, &f.times, &f.amounts);
            for k in 0..n {
                g[k] += dp[k];
            }
        }
        g
    };
    let scale = t.key_rate_gamma.amax();
    let mut rates = curve.rates.clone();
    for k in 0..n {
        rates[k] = curve.rates[k] + job::RATE_BUMP;
        let up = gradient(&rates);
        rates[k] = curve.rates[k] - job::RATE_BUMP;
        let down = gradient(&rates);
        rates[k] = curve.rates[k];
        for j in 0..n {
            let differenced = (up[j] - down[j]) / (2.0 * job::RATE_BUMP);
            let off = (t.key_rate_gamma[(j, k)] - differenced).abs();
            assert!(
                off <= ADJOINT_VS_BUMP * scale,
                "portfolio gamma {j},{k}: {} against {differenced}",
                t.key_rate_gamma[(j, k)]
            );
        }
    }
    // A parallel shift of the curve is a shift of the spread: the gamma's
    // entries sum to Σ ∂²P/∂z².
    let parallel = t.key_rate_gamma.sum();
    assert!(
        (parallel - t.spread_gamma).abs() <= CLOSED_FORM * t.spread_gamma,
        "Σ gamma {parallel} against Σ d²P/dz² {}",
        t.spread_gamma
    );
}

fn parse(flags: &[&str]) -> Result<Args, clap::Error> {
    Args::try_parse_from(std::iter::once("pricing").chain(flags.iter().copied()))
}

/// A file in this test's scratch directory.
fn scratch(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Everything the job must show, on every bond.
fn check_portfolio(curve: &Curve, bonds: &[Instrument], p: &Portfolio, solver: Solver) {
    assert_eq!(p.priced.len(), bonds.len());
    assert_eq!(p.totals.failures, 0);
    for (b, priced) in bonds.iter().zip(&p.priced) {
        let (a, bumped, diff) = priced.as_ref().unwrap();
        let id = &b.id;

        // Adjoint against bump-and-reprice, each number on its own.
        let scale = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let (dz_scale, dp_scale) = (scale(&a.dz_dcurve), scale(&a.dp_dcurve));
        for k in 0..curve.tenors.len() {
            let off = (a.dz_dcurve[k] - bumped.dz_dcurve[k]).abs();
            assert!(
                off <= ADJOINT_VS_BUMP * dz_scale,
                "{id} dz/dr{k}: {a:?} {bumped:?}"
            );
            let off = (a.dp_dcurve[k] - bumped.dp_dcurve[k]).abs();
            assert!(
                off <= ADJOINT_VS_BUMP * dp_scale,
                "{id} dP/dr{k}: {a:?} {bumped:?}"
            );
        }
        let off = (a.dz_dprice - bumped.dz_dprice).abs();
        assert!(
            off <= ADJOINT_VS_BUMP * a.dz_dprice.abs(),
            "{id}: {a:?} {bumped:?}"
        );
        assert!(*diff <= ADJOINT_VS_BUMP, "{id}: {diff}");

        // The key rates sum to the parallel sensitivity: a parallel shift
        // of the curve is a shift of the spread.
        let dz_parallel: f64 = a.dz_dcurve.iter().sum();
        assert!((dz_parallel + 1.0).abs() <= IDENTITY, "{id}: {dz_parallel}");
        let dp_parallel: f64 = a.dp_dcurve.iter().sum();
        assert!(
            (dp_parallel - a.dp_dz).abs() <= IDENTITY * a.dp_dz.abs(),
            "{id}: Σ ∂P/∂r {dp_parallel} against ∂P/∂z {}",
            a.dp_dz
        );
        // … and to the whole curve shifted and the spread re-solved.
        let shifted = |h: f64| Curve {
            tenors: curve.tenors.clone(),
            rates: curve.rates.iter().map(|r| r + h).collect(),
        };
        let z = |c: &Curve| job::solve(solver, c, b.market_price, &b.flows).unwrap();
        let resolved =
            (z(&shifted(PARALLEL_BUMP)) - z(&shifted(-PARALLEL_BUMP))) / (2.0 * PARALLEL_BUMP);
        assert!(
            (resolved - dz_parallel).abs() <= ADJOINT_VS_BUMP,
            "{id}: {resolved} against {dz_parallel}"
        );

        // dz/dprice is 1/(∂P/∂z) at the root.
        assert!(
            (a.dz_dprice * a.dp_dz - 1.0).abs() <= IDENTITY,
            "{id}: {a:?}"
        );
        if let Some(true_z) = b.true_z {
            assert!(
                (a.z - true_z).abs() <= 1e-12,
                "{id}: {} against {true_z}",
                a.z
            );
        }
    }
    let t = &p.totals;
    assert!(t.worst_difference.0 <= ADJOINT_VS_BUMP, "{t:?}");
    assert!(t.worst_parallel <= IDENTITY, "{t:?}");
    let dv01: f64 = t.key_rate_dv01.iter().sum();
    assert!((dv01 - t.dv01).abs() <= IDENTITY * t.dv01, "{t:?}");
    let dz: f64 = t.key_rate_dz.iter().sum();
    assert!(
        (dz + bonds.len() as f64).abs() <= IDENTITY * bonds.len() as f64,
        "{t:?}"
    );
    check_second_order(curve, bonds, p);
}

#[test]
fn a_small_synthetic_portfolio_agrees_with_bump_and_reprice_on_both_solvers() {
    for solver in ["bisect", "brent"] {
        let args = parse(&["--synthetic", "24", "--seed", "5", "--solver", solver]).unwrap();
        let inputs = job::load(&args).unwrap();
        assert_eq!(inputs.bonds.len(), 24);
        assert!(inputs.skipped.is_empty());
        let portfolio = job::price_portfolio(args.solver, &inputs.curve, &inputs.bonds);
        check_portfolio(&inputs.curve, &inputs.bonds, &portfolio, args.solver);
        assert!(portfolio.totals.worst_true_z <= 1e-12);

        let text = report::results(&inputs.curve, &inputs.bonds, &portfolio, 20, true);
        for line in [
            "portfolio: 24 bonds priced, 0 failed",
            "… 4 more bonds (--rows N shows more)",
            "adjoint vs bump-and-reprice: largest relative difference",
            "z-spread recovered from prices made at a known spread",
            "(per bond: 23 solves + 20 repricings)",
            "Hessian vs central differences of the adjoint gradient",
            "key-rate gamma d²P/dr_k² per 1bp²: 6m ",
            "(per bond: price_hessian)",
            "(per bond: 23 price_grad, central differences)",
        ] {
            assert!(text.contains(line), "`{line}` missing from:\n{text}");
        }
        // The table: a header of two lines, 20 bonds.
        assert_eq!(
            text.lines().filter(|l| l.starts_with("SYN0000")).count(),
            20
        );
    }
}

#[test]
fn the_shipped_portfolio_prices_and_charts() {
    let args = parse(&[]).unwrap();
    let inputs = job::load(&args).unwrap();
    assert_eq!(inputs.bonds.len(), 12);
    let portfolio = job::price_portfolio(Solver::Bisect, &inputs.curve, &inputs.bonds);
    check_portfolio(&inputs.curve, &inputs.bonds, &portfolio, Solver::Bisect);

    let head = report::inputs("12 bonds", "curve.csv", &inputs.curve, Solver::Bisect);
    assert!(
        head.starts_with(
            "pricing 12 bonds\ncurve: 10 key tenors from curve.csv (6m 4.30%, 1y 4.15%"
        )
    );

    let labels: Vec<String> = inputs
        .curve
        .tenors
        .iter()
        .map(|t| report::tenor_label(*t))
        .collect();
    assert_eq!(labels[..3], ["6m", "1y", "2y"]);
    let t = &portfolio.totals;
    let svg = chart::key_rates(&labels, &t.key_rate_dv01, &t.key_rate_dz, "12 bonds").unwrap();
    assert!(svg.starts_with("<svg"), "{svg}");
    for text in [
        "Key-rate DV01 at fixed spread",
        "Z-spread key-rate sensitivity",
        "30y",
    ] {
        assert!(svg.contains(text), "`{text}` missing from the chart");
    }
    // One bar per key tenor in each panel.
    let bars = svg.matches("<rect").count();
    assert!(bars >= 2 * labels.len(), "{bars} rectangles");
}

#[test]
fn a_bond_the_solver_cannot_reprice_is_reported_not_fatal() {
    let args = parse(&[]).unwrap();
    let mut inputs = job::load(&args).unwrap();
    // Above the sum of its cash flows: no spread in the bracket reprices it.
    inputs.bonds[1].market_price = 1e4;
    let portfolio = job::price_portfolio(Solver::Brent, &inputs.curve, &inputs.bonds);
    assert_eq!(portfolio.totals.failures, 1);
    assert!(portfolio.priced[1].is_err());
    // No second order for it; the others' still check out.
    assert!(portfolio.second_order[1].is_none());
    check_second_order(&inputs.curve, &inputs.bonds, &portfolio);
    let text = report::results(&inputs.curve, &inputs.bonds, &portfolio, 12, false);
    assert!(
        text.contains("portfolio: 11 bonds priced, 1 failed"),
        "{text}"
    );
    assert!(text.contains("CORP-AA-3Y     10000.000  error: "), "{text}");
}

#[test]
fn flags_parse_and_bad_flags_are_clear_errors() {
    let args = parse(&["--synthetic", "100_000", "--solver", "brent", "--rows", "5"]).unwrap();
    assert_eq!(args.synthetic, Some(100_000));
    assert_eq!(
        (args.solver, args.rows, args.seed),
        (Solver::Brent, Some(5), 1)
    );
    assert!(args.bonds_path().ends_with("examples/data/bonds.csv"));
    assert!(args.chart_path().ends_with("target/pricing-key-rates.svg"));

    let cases: [(&[&str], ErrorKind, &str); 6] = [
        (
            &["--bogus"],
            ErrorKind::UnknownArgument,
            "unexpected argument '--bogus'",
        ),
        (
            &["--synthetic", "ten"],
            ErrorKind::ValueValidation,
            "expected a whole number, found `ten`",
        ),
        (
            &["--solver", "newton"],
            ErrorKind::InvalidValue,
            "[possible values: bisect, brent]",
        ),
        (
            &["--rows"],
            ErrorKind::InvalidValue,
            "a value is required for '--rows <N>'",
        ),
        (
            &["--seed", "3"],
            ErrorKind::MissingRequiredArgument,
            "--synthetic <N>",
        ),
        (
            &["--synthetic", "5", "--bonds", "b.csv"],
            ErrorKind::ArgumentConflict,
            "cannot be used with",
        ),
    ];
    for (flags, kind, message) in cases {
        let e = parse(flags).unwrap_err();
        assert_eq!(e.kind(), kind, "{flags:?}: {e}");
        assert!(e.to_string().contains(message), "{flags:?}: {e}");
    }
    let help = parse(&["--help"]).unwrap_err();
    assert_eq!(help.kind(), ErrorKind::DisplayHelp);
    let help = help.to_string();
    for flag in [
        "--bonds",
        "--curve",
        "--synthetic",
        "--seed",
        "--solver",
        "--chart",
        "--rows",
    ] {
        assert!(help.contains(flag), "{flag} missing from --help:\n{help}");
    }
}

#[test]
fn bad_input_files_name_the_file_line_and_column() {
    // A malformed row, a non-number, a bad value: skipped, the rest priced.
    let malformed = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/data/bonds_malformed.csv"
    );
    let inputs = job::load(&parse(&["--bonds", malformed]).unwrap()).unwrap();
    assert_eq!(inputs.bonds.len(), 3);
    let skipped: Vec<String> = inputs.skipped.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        skipped[..2],
        [
            format!("{malformed}:5: price (column 5) must be a number, found `n/a`"),
            format!(
                "{malformed}:6: expected 5 fields \
                 (id,coupon_pct,maturity_years,frequency,price), found 4"
            ),
        ]
    );

    // A missing column: the file cannot be used.
    let bonds = scratch(
        "pricing-missing-column.csv",
        "id,coupon_pct,maturity_years,price\nA,5,5,100\n",
    );
    let e = job::load(&parse(&["--bonds", bonds.to_str().unwrap()]).unwrap()).unwrap_err();
    assert_eq!(e.file, bonds.display().to_string());
    assert!(
        e.message.starts_with("line 1: missing column `frequency`;"),
        "{e}"
    );

    // A curve with a non-number among two good rows is still a curve; with
    // one good row it is not.
    let curve = scratch(
        "pricing-curve-one-number.csv",
        "tenor_years,zero_rate_pct\n1,4.0\n2,four\n",
    );
    let e = job::load(&parse(&["--curve", curve.to_str().unwrap()]).unwrap()).unwrap_err();
    assert!(
        e.to_string().contains("at least two key tenors, found 1"),
        "{e}"
    );
    let curve = scratch(
        "pricing-curve-a-non-number.csv",
        "tenor_years,zero_rate_pct\n1,4.0\n2,four\n5,4.2\n",
    );
    let inputs =
        job::load(&parse(&["--curve", curve.to_str().unwrap(), "--synthetic", "3"]).unwrap())
            .unwrap();
    assert_eq!(inputs.curve.tenors, [1.0, 5.0]);
    assert_eq!(
        inputs.skipped[0].to_string(),
        format!(
            "{}:3: zero_rate_pct (column 2) must be a number, found `four`",
            curve.display()
        )
    );

    let e = job::load(&parse(&["--curve", "/nonexistent/curve.csv"]).unwrap()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("/nonexistent/curve.csv: cannot read: "),
        "{e}"
    );
}
