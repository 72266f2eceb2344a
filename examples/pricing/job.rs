//! The pricing job: a portfolio loaded from files (or generated), every
//! bond's z-spread with its sensitivities by the adjoint and by
//! bump-and-reprice, both passes timed, and the portfolio's totals.

use std::path::Path;
use std::time::{Duration, Instant};

use autograd::nalgebra::DMatrix;
use autograd::solve::SolveError;
use indicatif::{ParallelProgressIterator, ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::cli::{Args, Solver};
use crate::data::{self, Bond, CashFlows, Curve, FileError, RowError};
use crate::model;
use crate::synthetic::synthetic_terms;

/// Bump of a key rate for bump-and-reprice: 0.1bp.
pub const RATE_BUMP: f64 = 1e-5;
/// Bump of a market price for bump-and-reprice: 0.0001 per 100 face.
pub const PRICE_BUMP: f64 = 1e-4;
/// Portfolios at least this large get a progress bar.
const PROGRESS_FROM: usize = 5_000;

/// A bond ready to price: its market price and cash flows.
#[derive(Clone, Debug)]
pub struct Instrument {
    /// The bond's id.
    pub id: String,
    /// Per 100 face.
    pub market_price: f64,
    /// Per 100 face.
    pub flows: CashFlows,
    /// For a synthetic bond, the spread its price was made with.
    pub true_z: Option<f64>,
}

impl Instrument {
    /// A bond read from a file.
    pub fn from_bond(b: &Bond) -> Instrument {
        Instrument {
            id: b.id.clone(),
            market_price: b.price,
            flows: b.cash_flows(),
            true_z: None,
        }
    }
}

/// `n` synthetic bonds (see [`synthetic_terms`]), each priced on `curve`
/// at the spread it was drawn with.
pub fn synthetic(curve: &Curve, n: usize, seed: u64) -> Vec<Instrument> {
    synthetic_terms(n, seed)
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
        .collect()
}

/// What the job prices.
#[derive(Clone, Debug)]
pub struct Inputs {
    /// The zero curve.
    pub curve: Curve,
    /// The portfolio.
    pub bonds: Vec<Instrument>,
    /// Rows of the input files that were skipped.
    pub skipped: Vec<RowError>,
}

/// The curve and the portfolio the flags ask for.
///
/// # Errors
///
/// An input file that cannot be used (see [`data::read_bonds`] and
/// [`data::read_curve`]).
pub fn load(args: &Args) -> Result<Inputs, FileError> {
    let curve = data::read_curve(&args.curve_path())?;
    let mut skipped = curve.skipped;
    let curve = curve.value;
    let bonds = match args.synthetic {
        Some(n) => synthetic(&curve, n, args.seed),
        None => {
            let bonds = data::read_bonds(&args.bonds_path())?;
            skipped.extend(bonds.skipped);
            bonds.value.iter().map(Instrument::from_bond).collect()
        }
    };
    Ok(Inputs {
        curve,
        bonds,
        skipped,
    })
}

/// What one adjoint pass gives for a bond.
#[derive(Clone, Debug)]
pub struct Adjoint {
    /// The z-spread, a decimal.
    pub z: f64,
    /// dz/d(market price).
    pub dz_dprice: f64,
    /// dz/d(key rate k).
    pub dz_dcurve: Vec<f64>,
    /// ∂P/∂z at fixed curve: −(duration · price).
    pub dp_dz: f64,
    /// ∂P/∂r_k at fixed spread.
    pub dp_dcurve: Vec<f64>,
}

/// The same numbers by bump-and-reprice.
#[derive(Clone, Debug)]
pub struct Bumped {
    /// dz/d(market price).
    pub dz_dprice: f64,
    /// dz/d(key rate k).
    pub dz_dcurve: Vec<f64>,
    /// ∂P/∂r_k at fixed spread.
    pub dp_dcurve: Vec<f64>,
}

/// The z-spread of a bond at `price` on `curve`.
///
/// # Errors
///
/// The solver's.
pub fn solve(solver: Solver, curve: &Curve, price: f64, f: &CashFlows) -> Result<f64, SolveError> {
    let (r, t) = (&curve.rates[..], &curve.tenors[..]);
    match solver {
        Solver::Bisect => model::z_spread(r, price, t, &f.times, &f.amounts),
        Solver::Brent => model::z_spread_brent(r, price, t, &f.times, &f.amounts),
    }
}

/// One solve and its adjoint (`z_spread_grad`), then the price's curve
/// sensitivities at that spread (`price_grad`).
///
/// # Errors
///
/// The solver's.
pub fn adjoint(solver: Solver, curve: &Curve, b: &Instrument) -> Result<Adjoint, SolveError> {
    let f = &b.flows;
    let (r, t) = (&curve.rates[..], &curve.tenors[..]);
    let (z, dz_dcurve, dz_dprice) = match solver {
        Solver::Bisect => model::z_spread_grad(r, b.market_price, t, &f.times, &f.amounts)?,
        Solver::Brent => model::z_spread_brent_grad(r, b.market_price, t, &f.times, &f.amounts)?,
    };
    let (_, dp_dz, dp_dcurve) = model::price_grad(z, r, t, &f.times, &f.amounts);
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
///
/// # Errors
///
/// The solver's.
pub fn bump(solver: Solver, curve: &Curve, b: &Instrument) -> Result<Bumped, SolveError> {
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
pub fn difference(a: &Adjoint, b: &Bumped) -> f64 {
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
fn timed<B: Sync, T: Send>(
    bonds: &[B],
    what: &str,
    f: impl Fn(&B) -> T + Sync + Send,
) -> (Vec<T>, Duration) {
    let bar = progress(bonds.len(), what);
    let start = Instant::now();
    let out: Vec<T> = bonds.par_iter().progress_with(bar.clone()).map(f).collect();
    let elapsed = start.elapsed();
    bar.finish_and_clear();
    (out, elapsed)
}

/// A bond's second order at its solved spread, from [`hessian`], and the
/// same numbers from [`differenced`].
#[derive(Clone, Debug)]
pub struct SecondOrder {
    /// (1/P)·∂²P/∂z², from the Hessian.
    pub convexity: f64,
    /// ∂²P/∂rⱼ∂rₖ at fixed spread, from the Hessian.
    pub gamma: DMatrix<f64>,
    /// The convexity by differences of ∂P/∂z.
    pub bumped_convexity: f64,
    /// The gamma by differences of ∂P/∂r.
    pub bumped_gamma: DMatrix<f64>,
}

impl SecondOrder {
    /// The largest relative difference between the Hessian's numbers and
    /// the differenced gradient's: the convexity on its own, the gamma
    /// relative to its largest entry (as in [`difference`]).
    pub fn difference(&self) -> f64 {
        let convexity =
            (self.convexity - self.bumped_convexity).abs() / self.convexity.abs().max(1e-300);
        let scale = self.gamma.amax().max(1e-300);
        convexity.max((&self.gamma - &self.bumped_gamma).amax() / scale)
    }
}

/// A bond's convexity (1/P)·∂²P/∂z² and key-rate gamma ∂²P/∂rⱼ∂rₖ at
/// spread `z`, from one `price_hessian` over (z, curve): its first row and
/// column are z's, the rest the curve's.
pub fn hessian(curve: &Curve, b: &Instrument, z: f64) -> (f64, DMatrix<f64>) {
    let f = &b.flows;
    let k = curve.rates.len();
    let (p, _, h) = model::price_hessian(z, &curve.rates, &curve.tenors, &f.times, &f.amounts);
    (h[(0, 0)] / p, h.view((1, 1), (k, k)).into_owned())
}

/// The same numbers by central differences of the adjoint gradient:
/// `price_grad` at z and at each key rate bumped up and down.
pub fn differenced(curve: &Curve, b: &Instrument, z: f64) -> (f64, DMatrix<f64>) {
    let f = &b.flows;
    let (r, t) = (&curve.rates[..], &curve.tenors[..]);
    let k = r.len();
    let grad = |z: f64, r: &[f64]| model::price_grad(z, r, t, &f.times, &f.amounts);
    let (p, _, _) = grad(z, r);
    let (_, dp_dz_up, _) = grad(z + RATE_BUMP, r);
    let (_, dp_dz_down, _) = grad(z - RATE_BUMP, r);
    let mut bumped = r.to_vec();
    let mut gamma = DMatrix::zeros(k, k);
    for j in 0..k {
        bumped[j] = r[j] + RATE_BUMP;
        let (_, _, up) = grad(z, &bumped);
        bumped[j] = r[j] - RATE_BUMP;
        let (_, _, down) = grad(z, &bumped);
        bumped[j] = r[j];
        for i in 0..k {
            gamma[(i, j)] = (up[i] - down[i]) / (2.0 * RATE_BUMP);
        }
    }
    ((dp_dz_up - dp_dz_down) / (2.0 * RATE_BUMP) / p, gamma)
}

/// One bond's outcome: both ways of getting its sensitivities and their
/// largest relative difference ([`difference`]), or the solver's error.
pub type Priced = Result<(Adjoint, Bumped, f64), SolveError>;

/// The whole portfolio priced both ways.
pub struct Portfolio {
    /// One entry per bond, in input order.
    pub priced: Vec<Priced>,
    /// Wall time of the adjoint pass over the portfolio.
    pub adjoint_time: Duration,
    /// Wall time of bump-and-reprice over the portfolio.
    pub bump_time: Duration,
    /// Per bond, its second order at its spread (`None` where the solve
    /// failed).
    pub second_order: Vec<Option<SecondOrder>>,
    /// Wall time of the `price_hessian` pass.
    pub hessian_time: Duration,
    /// Wall time of its check by differences of `price_grad`.
    pub differenced_time: Duration,
    /// Totals over the bonds that priced.
    pub totals: Totals,
}

/// Totals and checks over the bonds that priced.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    /// Bonds whose solve failed.
    pub failures: usize,
    /// The largest [`difference`] and the bond it is on.
    pub worst_difference: (f64, String),
    /// The largest |Σₖ dz/drₖ + 1| (a parallel shift moves z one for one).
    pub worst_parallel: f64,
    /// For a synthetic portfolio, the largest |z − the spread the price was
    /// made with|.
    pub worst_true_z: f64,
    /// Σ over bonds of −∂P/∂rₖ·1bp, per key tenor.
    pub key_rate_dv01: Vec<f64>,
    /// Σ over bonds of dz/drₖ, per key tenor.
    pub key_rate_dz: Vec<f64>,
    /// Σ of market prices.
    pub market_value: f64,
    /// Σ over bonds of −∂P/∂z·1bp.
    pub dv01: f64,
    /// Σ over bonds of ∂²P/∂z² (the portfolio's convexity times its value).
    pub spread_gamma: f64,
    /// The largest [`SecondOrder::difference`] and the bond it is on.
    pub worst_second_order: (f64, String),
    /// Σ over bonds of ∂²P/∂rⱼ∂rₖ: the portfolio's key-rate gamma.
    pub key_rate_gamma: DMatrix<f64>,
    /// The same sum from the differenced gradients.
    pub bumped_key_rate_gamma: DMatrix<f64>,
}

/// Prices every bond by the adjoint and by bump-and-reprice, each pass
/// over the whole portfolio in parallel and timed.
pub fn price_portfolio(solver: Solver, curve: &Curve, bonds: &[Instrument]) -> Portfolio {
    // Start the thread pool before the clocks do.
    rayon::broadcast(|_| ());
    let (adjoints, adjoint_time) = timed(bonds, "adjoint", |b| adjoint(solver, curve, b));
    let (bumps, bump_time) = timed(bonds, "bump-and-reprice", |b| bump(solver, curve, b));
    let priced: Vec<Priced> = adjoints
        .into_iter()
        .zip(bumps)
        .map(|(a, m)| -> Priced {
            let (a, m) = (a?, m?);
            let diff = difference(&a, &m);
            Ok((a, m, diff))
        })
        .collect();
    let solved: Vec<(&Instrument, Option<f64>)> = bonds
        .iter()
        .zip(&priced)
        .map(|(b, p)| (b, p.as_ref().ok().map(|(a, _, _)| a.z)))
        .collect();
    let (hessians, hessian_time) = timed(&solved, "price_hessian", |(b, z)| {
        z.map(|z| hessian(curve, b, z))
    });
    let (differences, differenced_time) = timed(&solved, "differenced", |(b, z)| {
        z.map(|z| differenced(curve, b, z))
    });
    let second_order: Vec<Option<SecondOrder>> = hessians
        .into_iter()
        .zip(differences)
        .map(|(h, d)| {
            let ((convexity, gamma), (bumped_convexity, bumped_gamma)) = (h?, d?);
            Some(SecondOrder {
                convexity,
                gamma,
                bumped_convexity,
                bumped_gamma,
            })
        })
        .collect();
    let totals = totals(curve, bonds, &priced, &second_order);
    Portfolio {
        priced,
        adjoint_time,
        bump_time,
        second_order,
        hessian_time,
        differenced_time,
        totals,
    }
}

fn totals(
    curve: &Curve,
    bonds: &[Instrument],
    priced: &[Priced],
    second_order: &[Option<SecondOrder>],
) -> Totals {
    let k = curve.tenors.len();
    let mut t = Totals {
        key_rate_dv01: vec![0.0; k],
        key_rate_dz: vec![0.0; k],
        key_rate_gamma: DMatrix::zeros(k, k),
        bumped_key_rate_gamma: DMatrix::zeros(k, k),
        ..Totals::default()
    };
    for (b, s) in bonds.iter().zip(second_order) {
        let Some(s) = s else { continue };
        let diff = s.difference();
        if diff > t.worst_second_order.0 {
            t.worst_second_order = (diff, b.id.clone());
        }
        t.spread_gamma += s.convexity * b.market_price;
        t.key_rate_gamma += &s.gamma;
        t.bumped_key_rate_gamma += &s.bumped_gamma;
    }
    for (b, p) in bonds.iter().zip(priced) {
        let Ok((a, _, diff)) = p else {
            t.failures += 1;
            continue;
        };
        if *diff > t.worst_difference.0 {
            t.worst_difference = (*diff, b.id.clone());
        }
        let parallel = (a.dz_dcurve.iter().sum::<f64>() + 1.0).abs();
        t.worst_parallel = t.worst_parallel.max(parallel);
        if let Some(z) = b.true_z {
            t.worst_true_z = t.worst_true_z.max((a.z - z).abs());
        }
        for k in 0..k {
            t.key_rate_dv01[k] += -a.dp_dcurve[k] * 1e-4;
            t.key_rate_dz[k] += a.dz_dcurve[k];
        }
        t.market_value += b.market_price;
        t.dv01 += -a.dp_dz * 1e-4;
    }
    t
}

/// A path as the user would type it: relative to the current directory
/// when it lies below it.
pub fn shown(path: &Path) -> String {
    std::env::current_dir()
        .ok()
        .and_then(|d| path.strip_prefix(d).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}
