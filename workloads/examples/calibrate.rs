//! A Nelson–Siegel–Svensson zero curve fitted to bond prices with argmin's
//! L-BFGS, on the gradient from `nss_price_grad` and on central
//! differences; writes an SVG of the fitted curve with the bonds' yields.
//!
//! ```text
//! cargo run --release -p workloads --example calibrate
//! cargo run --release -p workloads --example calibrate -- --synthetic 2000
//! cargo run --release -p workloads --example calibrate -- --help
//! ```

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Parser;
use plotters::prelude::*;
use workloads::calibrate::{
    Bond, Fit, GradientSource, fit, initial_guess, read_bonds, synthetic, zero_rate,
};

/// Fits a Nelson–Siegel–Svensson zero curve to bond prices by least squares.
#[derive(Parser, Debug)]
#[command(name = "calibrate")]
struct Args {
    /// Bonds CSV (id,coupon_pct,maturity_years,frequency,price).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/data/bonds.csv"))]
    bonds: PathBuf,
    /// Fit N generated bonds, priced off a known curve with noise, instead
    /// of the file.
    #[arg(long, value_name = "N")]
    synthetic: Option<usize>,
    /// Standard deviation of the synthetic prices' noise, per 100 face.
    #[arg(long, default_value_t = 0.05)]
    noise: f64,
    /// Weight λ of the ridge penalty λ·(β₁² + β₂² + β₃²), β in percent, on
    /// the curve's shape [default: 0.1 for a file, 0 for --synthetic].
    #[arg(long)]
    ridge: Option<f64>,
    /// Seed of the synthetic portfolio.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Most L-BFGS iterations.
    #[arg(long, default_value_t = 500)]
    max_iters: u64,
    /// Where to write the chart (SVG).
    #[arg(long, default_value = concat!(env!("CARGO_MANIFEST_DIR"), "/../target/calibrate-nss.svg"))]
    chart: PathBuf,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<(), String> {
    let bonds = match args.synthetic {
        Some(n) => {
            let bonds = synthetic(n, args.noise, args.seed)?;
            println!(
                "{n} synthetic bonds priced off a known NSS curve, price noise {} per 100 (seed {})",
                args.noise, args.seed
            );
            bonds
        }
        None => {
            let read = read_bonds(&args.bonds).map_err(|e| e.to_string())?;
            for skipped in &read.skipped {
                eprintln!("skipped {skipped}");
            }
            println!("{} bonds from {}", read.value.len(), shown(&args.bonds));
            read.value
        }
    };
    if bonds.is_empty() {
        return Err("no bonds to fit the curve to".into());
    }
    let lambda = args
        .ridge
        .unwrap_or(if args.synthetic.is_some() { 0.0 } else { 0.1 });
    if !(lambda.is_finite() && lambda >= 0.0) {
        return Err(format!(
            "--ridge must be a finite number ≥ 0, found {lambda}"
        ));
    }
    println!("ridge weight λ = {lambda}");
    let ours =
        fit(&bonds, lambda, GradientSource::Reverse, args.max_iters).map_err(|e| e.to_string())?;
    let fd = fit(
        &bonds,
        lambda,
        GradientSource::CentralDifferences,
        args.max_iters,
    )
    .map_err(|e| e.to_string())?;

    println!(
        "\n{:<34}{:>6}{:>8}{:>8}{:>12}{:>11}{:>12}  stopped",
        "L-BFGS on", "iters", "costs", "grads", "passes", "time", "RMS error"
    );
    report("nss_price_grad (reverse mode)", &ours);
    report("central differences", &fd);
    println!(
        "passes over the portfolio: {} value-and-gradient sweeps against {} valuations ({:.1}× fewer), {:.1}× less time",
        ours.evaluations,
        fd.evaluations,
        fd.evaluations as f64 / ours.evaluations as f64,
        fd.time.as_secs_f64() / ours.time.as_secs_f64()
    );
    let p = &ours.params;
    println!(
        "fitted: β₀ {:.4}%  β₁ {:.4}%  β₂ {:.4}%  β₃ {:.4}%  τ₁ {:.3}y  τ₂ {:.3}y",
        p[0],
        p[1],
        p[2],
        p[3],
        p[4].exp(),
        p[5].exp()
    );
    chart(&args.chart, &bonds, &ours.params)
        .map_err(|e| format!("cannot write the chart {}: {e}", shown(&args.chart)))?;
    println!("chart: {}", shown(&args.chart));
    Ok(())
}

fn report(name: &str, f: &Fit) {
    println!(
        "{name:<34}{:>6}{:>8}{:>8}{:>12}{:>9.1}ms{:>12.4}  {}",
        f.iterations,
        f.cost_requests,
        f.gradient_requests,
        f.evaluations,
        f.time.as_secs_f64() * 1e3,
        f.rms,
        f.termination
    );
}

/// The fitted zero curve, the starting curve, and each bond's yield to
/// maturity at its maturity, in percent.
fn chart(path: &Path, bonds: &[Bond], params: &[f64]) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let longest = bonds.iter().map(|b| b.maturity).fold(1.0, f64::max);
    let curve = |p: &[f64]| -> Vec<(f64, f64)> {
        (1..=300)
            .map(|i| {
                let t = longest * i as f64 / 300.0;
                (t, 100.0 * zero_rate(p, t))
            })
            .collect()
    };
    let fitted = curve(params);
    let start = curve(&initial_guess(bonds));
    let yields: Vec<(f64, f64)> = bonds
        .iter()
        .filter_map(|b| b.yield_to_maturity().map(|y| (b.maturity, 100.0 * y)))
        .collect();
    let all = fitted.iter().chain(&yields).map(|&(_, y)| y);
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), y| {
        (lo.min(y), hi.max(y))
    });
    let margin = 0.1 * (hi - lo).max(0.1);

    let root = SVGBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            "Nelson–Siegel–Svensson zero curve fitted to bond prices",
            ("sans-serif", 20),
        )
        .margin(15)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..longest * 1.02, (lo - margin)..(hi + margin))?;
    chart
        .configure_mesh()
        .x_desc("maturity (years)")
        .y_desc("rate (%, continuous)")
        .draw()?;
    chart
        .draw_series(LineSeries::new(fitted, BLUE.stroke_width(2)))?
        .label("fitted zero curve")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], BLUE.stroke_width(2)));
    chart
        .draw_series(LineSeries::new(start, RGBColor(160, 160, 160)))?
        .label("starting curve")
        .legend(|(x, y)| PathElement::new([(x, y), (x + 20, y)], RGBColor(160, 160, 160)));
    chart
        .draw_series(yields.iter().map(|&p| Circle::new(p, 4, RED.filled())))?
        .label("bond yields to maturity")
        .legend(|(x, y)| Circle::new((x + 10, y), 4, RED.filled()));
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()?;
    root.present()?;
    Ok(())
}

/// A path as the user would type it: relative to the current directory
/// when it lies below it.
fn shown(path: &Path) -> String {
    let canonical = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    std::env::current_dir()
        .ok()
        .and_then(|d| canonical.strip_prefix(d).ok().map(Path::to_path_buf))
        .unwrap_or(canonical)
        .display()
        .to_string()
}
