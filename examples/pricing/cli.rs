//! The pricing example's flags (clap derive; `--help` lists them).

use std::path::{Path, PathBuf};

use clap::{Parser, ValueEnum};

/// Z-spreads and key-rate sensitivities of a bond portfolio: one adjoint
/// call per bond, checked against bump-and-reprice and timed.
#[derive(Parser, Debug)]
#[command(name = "pricing")]
pub struct Args {
    /// Bonds CSV (id,coupon_pct,maturity_years,frequency,price)
    /// [default: examples/data/bonds.csv]
    #[arg(long, value_name = "FILE")]
    pub bonds: Option<PathBuf>,
    /// Zero curve CSV (tenor_years,zero_rate_pct)
    /// [default: examples/data/curve.csv]
    #[arg(long, value_name = "FILE")]
    pub curve: Option<PathBuf>,
    /// Price N generated bonds instead of a file (e.g. 100000 or 100_000)
    #[arg(long, value_name = "N", value_parser = count, conflicts_with = "bonds")]
    pub synthetic: Option<usize>,
    /// Seed of the synthetic portfolio
    #[arg(long, value_name = "S", default_value_t = 1, requires = "synthetic")]
    pub seed: u64,
    /// The solver of every z-spread
    #[arg(long, value_enum, default_value_t = Solver::Bisect)]
    pub solver: Solver,
    /// Where to write the key-rate chart (SVG)
    /// [default: target/pricing-key-rates.svg]
    #[arg(long, value_name = "FILE")]
    pub chart: Option<PathBuf>,
    /// Bonds shown in the table [default: all up to 40, else 20]
    #[arg(long, value_name = "N", value_parser = count)]
    pub rows: Option<usize>,
}

/// A whole number, `_` allowed between digits.
fn count(text: &str) -> Result<usize, String> {
    text.replace('_', "")
        .parse()
        .map_err(|_| format!("expected a whole number, found `{text}`"))
}

/// The root finder of every z-spread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Solver {
    /// Bisection (`z_spread`)
    Bisect,
    /// Brent's method (`z_spread_brent`), about a fifth of the evaluations
    Brent,
}

impl Solver {
    /// The solver as the report names it.
    pub fn name(self) -> &'static str {
        match self {
            Solver::Bisect => "bisection",
            Solver::Brent => "Brent's method",
        }
    }
}

/// The workspace root: relative defaults are read from and written to it,
/// wherever the example is run from.
fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

impl Args {
    /// The bonds file.
    pub fn bonds_path(&self) -> PathBuf {
        self.bonds
            .clone()
            .unwrap_or_else(|| root().join("examples/data/bonds.csv"))
    }

    /// The curve file.
    pub fn curve_path(&self) -> PathBuf {
        self.curve
            .clone()
            .unwrap_or_else(|| root().join("examples/data/curve.csv"))
    }

    /// Where the chart goes.
    pub fn chart_path(&self) -> PathBuf {
        self.chart
            .clone()
            .unwrap_or_else(|| root().join("target/pricing-key-rates.svg"))
    }
}
