//! Z-spreads and key-rate sensitivities of a bond portfolio, through the
//! implicit-function hook.
//!
//! For every bond: the z-spread z that reprices it (a root of model price −
//! market price, found by bisection), then dz/d(market price) and dz/d(every
//! key rate of the curve) from one call of the generated `z_spread_grad`,
//! and the price's sensitivities to the curve at that spread from
//! `price_grad`. Every adjoint is checked against bump-and-reprice (each
//! input bumped up and down, the spread solved again, central differences)
//! and both approaches are timed over the whole portfolio. Then, from
//! `price_hessian` at the solved spread, every bond's convexity and the
//! portfolio's key-rate gamma (the Hessian of its value in the curve),
//! checked against central differences of `price_grad`.
//!
//! ```text
//! cargo run --release --example pricing
//! cargo run --release --example pricing -- --bonds my-bonds.csv --curve my-curve.csv
//! cargo run --release --example pricing -- --synthetic 100000 --solver brent
//! cargo run --release --example pricing -- --help
//! ```
//!
//! `tests/pricing_job.rs` runs the same modules at a small size.

mod chart;
mod cli;
mod data;
mod job;
mod model;
mod report;
mod synthetic;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cli::Args;
use job::shown;

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
    let inputs = job::load(args).map_err(|e| e.to_string())?;
    for skipped in &inputs.skipped {
        eprintln!("warning: skipped {skipped}");
    }
    let (curve, bonds) = (&inputs.curve, &inputs.bonds);
    let source = match args.synthetic {
        Some(n) => format!("{n} synthetic bonds (seed {})", args.seed),
        None => format!("{} bonds from {}", bonds.len(), shown(&args.bonds_path())),
    };
    say(&report::inputs(
        &source,
        &shown(&args.curve_path()),
        curve,
        args.solver,
    ))?;
    if bonds.is_empty() {
        return Err("no bond to price".into());
    }
    let portfolio = job::price_portfolio(args.solver, curve, bonds);
    let rows = args
        .rows
        .unwrap_or(if bonds.len() <= 40 { bonds.len() } else { 20 });
    say(&report::results(
        curve,
        bonds,
        &portfolio,
        rows,
        args.synthetic.is_some(),
    ))?;

    let labels: Vec<String> = curve
        .tenors
        .iter()
        .map(|t| report::tenor_label(*t))
        .collect();
    let totals = &portfolio.totals;
    let path = args.chart_path();
    let svg = chart::key_rates(&labels, &totals.key_rate_dv01, &totals.key_rate_dz, &source)
        .map_err(|e| format!("cannot draw the chart: {e}"))?;
    path.parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(&path, svg))
        .map_err(|e| format!("cannot write {}: {e}", shown(&path)))?;
    say(&format!(
        "\nchart: key-rate sensitivities written to {}\n",
        shown(&path)
    ))
}

/// Prints `text` on stdout. A reader that has gone (`pricing | head`) is
/// not an error: the job still finishes and writes its chart.
fn say(text: &str) -> Result<(), String> {
    match std::io::stdout().lock().write_all(text.as_bytes()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(format!("cannot write the report: {e}"))
        }
        _ => Ok(()),
    }
}
