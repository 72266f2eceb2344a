//! Z-spreads and key-rate sensitivities of a bond portfolio, through the
//! implicit-function hook.
//!
//! For every bond: the z-spread z that reprices it (a root of model price −
//! market price, found by bisection), then dz/d(market price) and dz/d(every
//! key rate of the curve) from one call of the generated `z_spread_grad`,
//! and the price's sensitivities to the curve at that spread from
//! `price_grad`. Every adjoint is checked against bump-and-reprice (each
//! input bumped up and down, the spread solved again, central differences)
//! and both approaches are timed over the whole portfolio.
//!
//! ```text
//! cargo run --release --example pricing
//! cargo run --release --example pricing -- --bonds my-bonds.csv --curve my-curve.csv
//! cargo run --release --example pricing -- --synthetic 100000 --solver brent
//! cargo run --release --example pricing -- --help
//! ```

mod chart;
mod data;
mod model;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use autograd::solve::SolveError;
use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;

use data::{Bond, Curve};
use model::CashFlows;

/// Bump of a key rate for bump-and-reprice: 0.1bp.
const RATE_BUMP: f64 = 1e-5;
/// Bump of a market price for bump-and-reprice: 0.0001 per 100 face.
const PRICE_BUMP: f64 = 1e-4;
/// Portfolios at least this large get a progress bar.
const PROGRESS_FROM: usize = 5_000;

const USAGE: &str = "\
usage: pricing [--bonds FILE] [--curve FILE] [--synthetic N [--seed S]]
               [--solver bisect|brent] [--chart FILE] [--rows N]

  --bonds FILE     bonds CSV (id,coupon_pct,maturity_years,frequency,price);
                   default examples/data/bonds.csv
  --curve FILE     zero curve CSV (tenor_years,zero_rate_pct);
                   default examples/data/curve.csv
  --synthetic N    price N generated bonds instead of a file (e.g. 100000)
  --seed S         seed of the synthetic portfolio (default 1)
  --solver NAME    bisect (default) or brent, for every z-spread solve
  --chart FILE     where to write the key-rate chart (SVG);
                   default target/pricing-key-rates.svg
  --rows N         bonds shown in the table (default: all up to 40, else 20)";

#[derive(Clone, Copy, Debug, PartialEq)]
enum Solver {
    Bisect,
    Brent,
}

impl Solver {
    fn name(self) -> &'static str {
        match self {
            Solver::Bisect => "bisection",
            Solver::Brent => "Brent's method",
        }
    }
}

/// A path as the user would type it: relative to the current directory
/// when it lies below it.
fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|d| path.strip_prefix(d).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}

#[derive(Debug)]
struct Options {
    bonds: PathBuf,
    curve: PathBuf,
    synthetic: Option<usize>,
    seed: u64,
    solver: Solver,
    chart: PathBuf,
    rows: Option<usize>,
}

fn parse_args(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut o = Options {
        bonds: root.join("examples/data/bonds.csv"),
        curve: root.join("examples/data/curve.csv"),
        synthetic: None,
        seed: 1,
        solver: Solver::Bisect,
        chart: root.join("target/pricing-key-rates.svg"),
        rows: None,
    };
    let mut args = args.into_iter();
    while let Some(flag) = args.next() {
        if flag == "--help" || flag == "-h" {
            return Err(String::new());
        }
        let value = args
            .next()
            .ok_or_else(|| format!("`{flag}` needs a value"))?;
        let count = |v: &str| {
            v.replace('_', "")
                .parse::<usize>()
                .map_err(|_| format!("`{flag}` needs a whole number, got `{v}`"))
        };
        match flag.as_str() {
            "--bonds" => o.bonds = value.into(),
            "--curve" => o.curve = value.into(),
            "--chart" => o.chart = value.into(),
            "--synthetic" => o.synthetic = Some(count(&value)?),
            "--rows" => o.rows = Some(count(&value)?),
            "--seed" => o.seed = count(&value)? as u64,
            "--solver" => {
                o.solver = match value.as_str() {
                    "bisect" => Solver::Bisect,
                    "brent" => Solver::Brent,
                    _ => return Err(format!("unknown solver `{value}`; use `bisect` or `brent`")),
                }
            }
            _ => return Err(format!("unknown flag `{flag}`")),
        }
    }
    Ok(o)
}

/// A bond ready to price: its market price and cash flows.
struct Instrument {
    id: String,
    market_price: f64,
    flows: CashFlows,
    /// For a synthetic bond, the spread its price was made with.
    true_z: Option<f64>,
}

impl Instrument {
    fn from_bond(b: &Bond) -> Instrument {
        Instrument {
            id: b.id.clone(),
            market_price: b.price,
            flows: CashFlows::fixed_rate(b.coupon_rate, b.maturity, b.frequency),
            true_z: None,
        }
    }
}

/// What one adjoint pass gives for a bond.
struct Adjoint {
    z: f64,
    dz_dprice: f64,
    dz_dcurve: Vec<f64>,
    /// ∂P/∂z at fixed curve: −(duration · price).
    dp_dz: f64,
    /// ∂P/∂r_k at fixed spread.
    dp_dcurve: Vec<f64>,
}

/// The same numbers by bump-and-reprice.
struct Bumped {
    dz_dprice: f64,
    dz_dcurve: Vec<f64>,
    dp_dcurve: Vec<f64>,
}

fn solve(solver: Solver, curve: &Curve, price: f64, f: &CashFlows) -> Result<f64, SolveError> {
    let args = (&curve.rates[..], price, &curve.tenors[..], &f.times[..]);
    match solver {
        Solver::Bisect => model::z_spread(args.0, args.1, args.2, args.3, &f.amounts),
        Solver::Brent => model::z_spread_brent(args.0, args.1, args.2, args.3, &f.amounts),
    }
}

/// One solve and its adjoint (`z_spread_grad`), then the price's curve
/// sensitivities at that spread (`price_grad`).
fn adjoint(solver: Solver, curve: &Curve, b: &Instrument) -> Result<Adjoint, SolveError> {
    let f = &b.flows;
    let (z, dz_dcurve, dz_dprice) = match solver {
        Solver::Bisect => model::z_spread_grad(
            &curve.rates,
            b.market_price,
            &curve.tenors,
            &f.times,
            &f.amounts,
        )?,
        Solver::Brent => model::z_spread_brent_grad(
            &curve.rates,
            b.market_price,
            &curve.tenors,
            &f.times,
            &f.amounts,
        )?,
    };
    let (_, dp_dz, dp_dcurve) =
        model::price_grad(z, &curve.rates, &curve.tenors, &f.times, &f.amounts);
    Ok(Adjoint {
        z,
        dz_dprice,
        dz_dcurve,
        dp_dz,
        dp_dcurve,
    })
}

/// Bump-and-reprice: the spread solved again with each key rate and the
/// market price bumped up and down; central differences.
fn bump(solver: Solver, curve: &Curve, b: &Instrument) -> Result<Bumped, SolveError> {
    let f = &b.flows;
    let z = solve(solver, curve, b.market_price, f)?;
    let mut bumped = curve.clone();
    let mut dz_dcurve = Vec::with_capacity(curve.rates.len());
    let mut dp_dcurve = Vec::with_capacity(curve.rates.len());
    for k in 0..curve.rates.len() {
        let r = curve.rates[k];
        bumped.rates[k] = r + RATE_BUMP;
        let z_up = solve(solver, &bumped, b.market_price, f)?;
        let p_up = model::price(z, &bumped.rates, &curve.tenors, &f.times, &f.amounts);
        bumped.rates[k] = r - RATE_BUMP;
        let z_down = solve(solver, &bumped, b.market_price, f)?;
        let p_down = model::price(z, &bumped.rates, &curve.tenors, &f.times, &f.amounts);
        bumped.rates[k] = r;
        dz_dcurve.push((z_up - z_down) / (2.0 * RATE_BUMP));
        dp_dcurve.push((p_up - p_down) / (2.0 * RATE_BUMP));
    }
    let z_up = solve(solver, curve, b.market_price + PRICE_BUMP, f)?;
    let z_down = solve(solver, curve, b.market_price - PRICE_BUMP, f)?;
    Ok(Bumped {
        dz_dprice: (z_up - z_down) / (2.0 * PRICE_BUMP),
        dz_dcurve,
        dp_dcurve,
    })
}

/// The largest difference between the adjoint and bump-and-reprice over a
/// bond's sensitivities, each vector relative to its own largest entry
/// (a key rate a bond barely depends on is not judged on its own scale,
/// where the bump's rounding would dominate).
fn difference(a: &Adjoint, b: &Bumped) -> f64 {
    fn vector(x: &[f64], y: &[f64]) -> f64 {
        let scale = x.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
        x.iter()
            .zip(y)
            .fold(0.0f64, |m, (p, q)| m.max((p - q).abs() / scale))
    }
    let price = (a.dz_dprice - b.dz_dprice).abs() / a.dz_dprice.abs().max(1e-300);
    price
        .max(vector(&a.dz_dcurve, &b.dz_dcurve))
        .max(vector(&a.dp_dcurve, &b.dp_dcurve))
}

fn progress(n: usize, what: &str) -> ProgressBar {
    if n < PROGRESS_FROM {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64).with_message(what.to_string());
    if let Ok(style) = ProgressStyle::with_template(
        "{msg:>18} [{bar:40}] {human_pos}/{human_len} bonds, {per_sec}, eta {eta}",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// Runs `f` on every bond in parallel, with a progress bar on long runs,
/// and times it.
fn timed<T: Send>(
    bonds: &[Instrument],
    what: &str,
    f: impl Fn(&Instrument) -> T + Sync + Send,
) -> (Vec<T>, Duration) {
    let bar = progress(bonds.len(), what);
    let start = Instant::now();
    let out: Vec<T> = bonds.par_iter().progress_with(bar.clone()).map(f).collect();
    let elapsed = start.elapsed();
    bar.finish_and_clear();
    (out, elapsed)
}

fn tenor_label(t: f64) -> String {
    if t < 1.0 {
        format!("{}m", (t * 12.0).round())
    } else {
        format!("{t}y")
    }
}

fn duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

fn load(o: &Options) -> Result<(Curve, Vec<Instrument>), data::FileError> {
    let curve = data::read_curve(&o.curve)?;
    for e in &curve.skipped {
        eprintln!("warning: skipped {e}");
    }
    let curve = curve.value;
    let bonds = match o.synthetic {
        Some(n) => data::synthetic_terms(n, o.seed)
            .into_iter()
            .map(|t| {
                let flows = CashFlows::fixed_rate(t.coupon_rate, t.maturity, t.frequency);
                let market_price = model::price(
                    t.z_spread,
                    &curve.rates,
                    &curve.tenors,
                    &flows.times,
                    &flows.amounts,
                );
                Instrument {
                    id: t.id,
                    market_price,
                    flows,
                    true_z: Some(t.z_spread),
                }
            })
            .collect(),
        None => {
            let bonds = data::read_bonds(&o.bonds)?;
            for e in &bonds.skipped {
                eprintln!("warning: skipped {e}");
            }
            bonds.value.iter().map(Instrument::from_bond).collect()
        }
    };
    Ok((curve, bonds))
}

fn main() -> ExitCode {
    let o = match parse_args(std::env::args().skip(1)) {
        Ok(o) => o,
        Err(e) if e.is_empty() => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("error: {e}\n\n{USAGE}");
            return ExitCode::FAILURE;
        }
    };
    let (curve, bonds) = match load(&o) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let source = match o.synthetic {
        Some(n) => format!("{n} synthetic bonds (seed {})", o.seed),
        None => format!("{} bonds from {}", bonds.len(), shown(&o.bonds)),
    };
    println!(
        "pricing {source}\ncurve: {} key tenors from {} ({})\nsolver: {}, {} threads\n",
        curve.tenors.len(),
        shown(&o.curve),
        curve
            .tenors
            .iter()
            .zip(&curve.rates)
            .map(|(t, r)| format!("{} {:.2}%", tenor_label(*t), r * 100.0))
            .collect::<Vec<_>>()
            .join(", "),
        o.solver.name(),
        rayon::current_num_threads()
    );
    if bonds.is_empty() {
        eprintln!("error: no bond to price");
        return ExitCode::FAILURE;
    }

    // Start the thread pool before the clocks do.
    rayon::broadcast(|_| ());
    let (adjoints, t_adjoint) = timed(&bonds, "adjoint", |b| adjoint(o.solver, &curve, b));
    let (bumps, t_bump) = timed(&bonds, "bump-and-reprice", |b| bump(o.solver, &curve, b));

    // ---- the table ----
    let rows = o
        .rows
        .unwrap_or(if bonds.len() <= 40 { bonds.len() } else { 20 });
    println!(
        "{:<14} {:>9} {:>9} {:>11} {:>16} {:>9} {:>9}",
        "id", "price", "z-spread", "dz/dprice", "largest dz/dr_k", "DV01", "adj-bump"
    );
    println!(
        "{:<14} {:>9} {:>9} {:>11} {:>16} {:>9} {:>9}",
        "", "per 100", "bp", "bp per 1.00", "tenor: value", "per 1bp", "rel. diff"
    );
    let mut failures = 0;
    let mut worst = (0.0f64, String::new());
    let mut worst_sum = 0.0f64;
    let mut worst_true_z = 0.0f64;
    let mut kr_dv01 = vec![0.0; curve.tenors.len()];
    let mut kr_dz = vec![0.0; curve.tenors.len()];
    let (mut value, mut dv01) = (0.0, 0.0);
    for (i, (b, (a, m))) in bonds.iter().zip(adjoints.iter().zip(&bumps)).enumerate() {
        let (a, m) = match (a, m) {
            (Ok(a), Ok(m)) => (a, m),
            (Err(e), _) | (_, Err(e)) => {
                failures += 1;
                println!("{:<14} {:>9.3}  error: {e}", b.id, b.market_price);
                continue;
            }
        };
        let diff = difference(a, m);
        if diff > worst.0 {
            worst = (diff, b.id.clone());
        }
        worst_sum = worst_sum.max((a.dz_dcurve.iter().sum::<f64>() + 1.0).abs());
        if let Some(t) = b.true_z {
            worst_true_z = worst_true_z.max((a.z - t).abs());
        }
        for k in 0..kr_dv01.len() {
            kr_dv01[k] += -a.dp_dcurve[k] * 1e-4;
            kr_dz[k] += a.dz_dcurve[k];
        }
        value += b.market_price;
        dv01 += -a.dp_dz * 1e-4;
        if i < rows {
            let (k, top) = a
                .dz_dcurve
                .iter()
                .enumerate()
                .max_by(|x, y| x.1.abs().total_cmp(&y.1.abs()))
                .map_or((0, 0.0), |(k, v)| (k, *v));
            println!(
                "{:<14} {:>9.3} {:>9.2} {:>11.4} {:>16} {:>9.4} {:>9.1e}",
                b.id,
                b.market_price,
                a.z * 1e4,
                a.dz_dprice * 1e4,
                format!("{}: {:+.4}", tenor_label(curve.tenors[k]), top),
                -a.dp_dz * 1e-4,
                diff
            );
        }
    }
    if rows < bonds.len() {
        println!("… {} more bonds (--rows N shows more)", bonds.len() - rows);
    }
    let priced = bonds.len() - failures;

    // ---- totals ----
    println!(
        "\nportfolio: {priced} bonds priced, {failures} failed; 100 face each: \
         market value {value:.2}, DV01 {dv01:.4} per bp of spread"
    );
    println!("key-rate sensitivities, summed over the portfolio:");
    println!(
        "  {:>6} {:>18} {:>12}",
        "tenor", "DV01 (-dP/dr·1bp)", "Σ dz/dr_k"
    );
    for k in 0..curve.tenors.len() {
        println!(
            "  {:>6} {:>18.4} {:>12.4}",
            tenor_label(curve.tenors[k]),
            kr_dv01[k],
            kr_dz[k]
        );
    }
    println!(
        "  {:>6} {:>18.4} {:>12.4}",
        "total",
        kr_dv01.iter().sum::<f64>(),
        kr_dz.iter().sum::<f64>()
    );
    println!(
        "\nchecks:\n  adjoint vs bump-and-reprice: largest relative difference {:.2e} ({})",
        worst.0,
        if worst.1.is_empty() { "-" } else { &worst.1 }
    );
    println!(
        "  Σ_k dz/dr_k = -1 for every bond (a parallel shift moves z one for one): \
         worst |Σ + 1| = {worst_sum:.1e}"
    );
    if o.synthetic.is_some() {
        println!(
            "  z-spread recovered from prices made at a known spread: worst error {worst_true_z:.1e}"
        );
    }
    let k = curve.tenors.len();
    let rate = |d: Duration| bonds.len() as f64 / d.as_secs_f64().max(1e-12);
    println!(
        "\ntimings, whole portfolio ({} threads):\n  \
         adjoint:          {:>10}  {:>9.0} bonds/s  (per bond: z_spread_grad = 1 solve + 1 pullback; price_grad)\n  \
         bump-and-reprice: {:>10}  {:>9.0} bonds/s  (per bond: {} solves + {} repricings)\n  \
         bump-and-reprice took {:.1}x the adjoint's time",
        rayon::current_num_threads(),
        duration(t_adjoint),
        rate(t_adjoint),
        duration(t_bump),
        rate(t_bump),
        2 * k + 3,
        2 * k,
        t_bump.as_secs_f64() / t_adjoint.as_secs_f64().max(1e-12)
    );

    let labels: Vec<String> = curve.tenors.iter().map(|t| tenor_label(*t)).collect();
    let svg = chart::key_rates(&labels, &kr_dv01, &kr_dz, &source);
    let written = o
        .chart
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&o.chart, svg));
    match written {
        Ok(()) => println!(
            "\nchart: key-rate sensitivities written to {}",
            shown(&o.chart)
        ),
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", shown(&o.chart));
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
