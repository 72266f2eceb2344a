//! A damped oscillator, integrated by RK4, fitted to noisy observations by
//! Levenberg–Marquardt on the generated `residuals_jacobian` (one forward
//! sweep per parameter), against the same fit on central differences.
//!
//! ```text
//! cargo run --release -p workloads --example ode_fit
//! cargo run --release -p workloads --example ode_fit -- --observations 200 --noise 0.05
//! cargo run --release -p workloads --example ode_fit -- --help
//! ```

use std::process::ExitCode;

use clap::Parser;
use workloads::ode_fit::{
    Experiment, JacobianSource, OdeFit, OscillatorFit, fit, initial_guess, time_per_call,
};

/// Fits ω, ζ, x₀ and v₀ of x'' + 2ζω·x' + ω²·x = 0 to noisy observations.
#[derive(Parser, Debug)]
#[command(name = "ode_fit")]
struct Args {
    /// Number of observations.
    #[arg(long, default_value_t = Experiment::DEFAULT.count)]
    observations: usize,
    /// RK4 steps between observations.
    #[arg(long, default_value_t = Experiment::DEFAULT.every)]
    every: usize,
    /// RK4 step.
    #[arg(long, default_value_t = Experiment::DEFAULT.dt)]
    dt: f64,
    /// Standard deviation of the observation noise.
    #[arg(long, default_value_t = Experiment::DEFAULT.noise)]
    noise: f64,
    /// Seed of the noise.
    #[arg(long, default_value_t = Experiment::DEFAULT.seed)]
    seed: u64,
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

const NAMES: [&str; 4] = ["ω", "ζ", "x₀", "v₀"];

fn run(args: &Args) -> Result<(), String> {
    let experiment = Experiment {
        count: args.observations,
        every: args.every,
        dt: args.dt,
        noise: args.noise,
        seed: args.seed,
        ..Experiment::DEFAULT
    };
    let observations = experiment.observations()?;
    let steps = experiment.count * experiment.every;
    println!(
        "damped oscillator, RK4 with dt = {} over {steps} steps, {} observations with noise {} (seed {})",
        experiment.dt, experiment.count, experiment.noise, experiment.seed
    );

    let start = initial_guess(&experiment, &observations);
    let problem = OscillatorFit::new(
        &experiment,
        observations.clone(),
        start,
        JacobianSource::Generated,
    );
    let repeats = 20;
    let (ours, ours_time) = time_per_call(repeats, || problem.jacobian_generated());
    let (fd, fd_time) = time_per_call(repeats, || problem.jacobian_central_differences());
    let worst = ours
        .iter()
        .zip(fd.iter())
        .map(|(a, b)| (a - b).abs() / a.abs().max(1.0))
        .fold(0.0, f64::max);
    // `residuals_jacobian` sweeps forward while there are more residuals
    // than parameters.
    let sweeps = if experiment.count > 4 {
        "4 forward sweeps".to_string()
    } else {
        format!("1 forward, {} reverse sweeps", experiment.count)
    };
    println!(
        "Jacobian {}×4 at the start: {:.2} ms from residuals_jacobian ({sweeps}), {:.2} ms by central differences (8 integrations); largest difference {worst:.1e}",
        experiment.count,
        ours_time.as_secs_f64() * 1e3,
        fd_time.as_secs_f64() * 1e3,
    );

    let ours = fit(&experiment, &observations, JacobianSource::Generated)?;
    let fd = fit(
        &experiment,
        &observations,
        JacobianSource::CentralDifferences,
    )?;
    println!(
        "\n{:<10}{:>10}{:>10}{:>24}{:>24}",
        "parameter", "true", "start", "fitted (ours)", "fitted (central diff.)"
    );
    for i in 0..4 {
        println!(
            "{:<10}{:>10.4}{:>10.4}{:>24}{:>24}",
            NAMES[i],
            experiment.truth[i],
            start[i],
            cell(&ours, i),
            cell(&fd, i)
        );
    }
    for (name, f) in [("ours", &ours), ("central differences", &fd)] {
        println!(
            "{name}: {} residual evaluations, RMS residual {:.4}, {:.1} ms, {}",
            f.evaluations,
            f.rms,
            f.time.as_secs_f64() * 1e3,
            f.termination
        );
    }
    Ok(())
}

/// A fitted value with its standard error.
fn cell(f: &OdeFit, i: usize) -> String {
    match f.standard_errors {
        Some(se) => format!("{:.4} ± {:.4}", f.params[i], se[i]),
        None => format!("{:.4}", f.params[i]),
    }
}
