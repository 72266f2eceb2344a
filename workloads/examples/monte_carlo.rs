//! Monte Carlo pathwise Greeks of an arithmetic Asian call and a
//! down-and-out variant: one generated `_grad` of the payoff per path,
//! against bump-and-revalue on common random numbers.
//!
//! ```text
//! cargo run --release -p workloads --example monte_carlo
//! cargo run --release -p workloads --example monte_carlo -- --paths 10000 --steps 52
//! cargo run --release -p workloads --example monte_carlo -- --help
//! ```

use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Parser;
use workloads::monte_carlo::{
    Greeks, Market, Payoff, Simulation, bump_and_revalue, geometric_asian_closed_form, pathwise,
};

/// Pathwise Greeks of Asian options by Monte Carlo, against bump-and-revalue.
#[derive(Parser, Debug)]
#[command(name = "monte_carlo")]
struct Args {
    /// Number of simulated paths.
    #[arg(long, default_value_t = 100_000)]
    paths: usize,
    /// Monitoring dates (time steps) per path.
    #[arg(long, default_value_t = 252)]
    steps: usize,
    /// Seed of the random numbers: the same seed gives the same numbers on
    /// any number of threads.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Spot S₀.
    #[arg(long, default_value_t = Market::DEFAULT.s0)]
    spot: f64,
    /// Strike K.
    #[arg(long, default_value_t = Market::DEFAULT.strike)]
    strike: f64,
    /// Volatility σ, a year.
    #[arg(long, default_value_t = Market::DEFAULT.sigma)]
    vol: f64,
    /// Continuously compounded rate r, a year.
    #[arg(long, default_value_t = Market::DEFAULT.r)]
    rate: f64,
    /// Maturity T in years.
    #[arg(long, default_value_t = Market::DEFAULT.t)]
    maturity: f64,
    /// Knock-out level of the down-and-out variant.
    #[arg(long, default_value_t = 90.0)]
    barrier: f64,
    /// Width of the sigmoid that smooths the knock-out indicator, in the
    /// stock's units (the bias of the smoothed price is of this order).
    #[arg(long, default_value_t = 0.5)]
    barrier_width: f64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let market = Market {
        s0: args.spot,
        sigma: args.vol,
        r: args.rate,
        t: args.maturity,
        strike: args.strike,
    };
    let sim = Simulation {
        paths: args.paths,
        steps: args.steps,
        seed: args.seed,
    };
    match run(&args, &market, &sim) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args, market: &Market, sim: &Simulation) -> Result<(), String> {
    let barrier = Payoff::DownAndOut {
        barrier: args.barrier,
        width: args.barrier_width,
    };
    market.validate()?;
    sim.validate()?;
    barrier.validate()?;
    println!(
        "S₀ = {}, K = {}, σ = {}, r = {}, T = {}; {} paths × {} steps, seed {}, {} threads",
        market.s0,
        market.strike,
        market.sigma,
        market.r,
        market.t,
        sim.paths,
        sim.steps,
        sim.seed,
        rayon::current_num_threads()
    );

    println!("\narithmetic-average Asian call");
    compare(&Payoff::Asian, market, sim)?;

    println!(
        "\ndown-and-out Asian call, barrier {} on every date, indicator smoothed by a sigmoid of width {}",
        args.barrier, args.barrier_width
    );
    compare(&barrier, market, sim)?;

    let (price, delta) = geometric_asian_closed_form(market, sim.steps);
    let mc = pathwise(&Payoff::Geometric, market, sim)?;
    println!("\ngeometric-average Asian call (closed form as the check)");
    println!(
        "  price {:.4} ± {:.4} (closed form {price:.4}), delta {:.4} ± {:.4} (closed form {delta:.4}): {:.1} and {:.1} standard errors off",
        mc.price.mean,
        mc.price.standard_error,
        mc.delta.mean,
        mc.delta.standard_error,
        (mc.price.mean - price).abs() / mc.price.standard_error,
        (mc.delta.mean - delta).abs() / mc.delta.standard_error,
    );
    Ok(())
}

/// Both methods on one payoff: the table, the agreement and the timing.
fn compare(payoff: &Payoff, market: &Market, sim: &Simulation) -> Result<(), String> {
    let (ad, ad_time) = timed(|| pathwise(payoff, market, sim));
    let (bump, bump_time) = timed(|| bump_and_revalue(payoff, market, sim));
    let (ad, bump) = (ad?, bump?);
    println!(
        "  {:<26}{:>20}{:>20}{:>20}{:>20}",
        "", "price", "delta", "vega", "rho"
    );
    row("pathwise (one _grad/path)", &ad);
    row("bump-and-revalue (CRN)", &bump);
    let off: Vec<String> = ad
        .all()
        .iter()
        .zip(&bump.all())
        .map(|(a, b)| format!("{:.2}", (a.mean - b.mean).abs() / a.standard_error))
        .collect();
    println!(
        "  {:<26}{:>20}{:>20}{:>20}{:>20}",
        "|difference| / std. error", off[0], off[1], off[2], off[3]
    );
    println!(
        "  time: pathwise {:.2} s, bump-and-revalue {:.2} s (7 payoffs a path): {:.1}× faster",
        ad_time.as_secs_f64(),
        bump_time.as_secs_f64(),
        bump_time.as_secs_f64() / ad_time.as_secs_f64()
    );
    Ok(())
}

fn row(name: &str, g: &Greeks) {
    let cells: Vec<String> = g
        .all()
        .iter()
        .map(|e| format!("{:.4} ± {:.4}", e.mean, e.standard_error))
        .collect();
    println!(
        "  {name:<26}{:>20}{:>20}{:>20}{:>20}",
        cells[0], cells[1], cells[2], cells[3]
    );
}

fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let v = f();
    (v, start.elapsed())
}
