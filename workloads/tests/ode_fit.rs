//! The ODE fit at the example's size (50 observations, 2000 RK4 steps):
//! Levenberg–Marquardt on `residuals_jacobian` recovers the parameters the
//! observations were generated with.

use autograd::nalgebra::DMatrix;
use workloads::ode_fit::{
    Experiment, JacobianSource, OscillatorFit, fit, initial_guess, residuals, residuals_jacobian,
    trajectory,
};

#[test]
fn the_fit_recovers_the_true_parameters() {
    let experiment = Experiment::DEFAULT;
    let observations = experiment.observations().unwrap();
    let ours = fit(&experiment, &observations, JacobianSource::Generated).unwrap();
    let se = ours.standard_errors.expect("JᵀJ is invertible at the fit");
    // Within four standard errors of the truth, and the standard errors
    // small: ω and ζ to about 1%.
    let tolerance = [0.02, 0.01, 0.1, 0.2];
    for i in 0..4 {
        let off = (ours.params[i] - experiment.truth[i]).abs();
        assert!(off < 4.0 * se[i], "parameter {i}: {ours:?}");
        assert!(
            se[i] < tolerance[i] / 2.0 && off < tolerance[i],
            "parameter {i}: {ours:?}"
        );
    }
    // The residuals are the noise.
    assert!(
        (ours.rms - experiment.noise).abs() < 0.25 * experiment.noise,
        "{ours:?}"
    );
    // The same fit on central differences lands on the same parameters.
    let fd = fit(
        &experiment,
        &observations,
        JacobianSource::CentralDifferences,
    )
    .unwrap();
    for i in 0..4 {
        assert!(
            (ours.params[i] - fd.params[i]).abs() < 1e-6,
            "{ours:?} {fd:?}"
        );
    }
}

#[test]
fn the_jacobian_matches_central_differences() {
    let experiment = Experiment::DEFAULT;
    let observations = experiment.observations().unwrap();
    for start in [initial_guess(&experiment, &observations), experiment.truth] {
        let problem = OscillatorFit::new(
            &experiment,
            observations.clone(),
            start,
            JacobianSource::Generated,
        );
        let ours = problem.jacobian_generated();
        let fd = problem.jacobian_central_differences();
        assert_eq!(ours.shape(), (experiment.count, 4));
        for (a, b) in ours.iter().zip(fd.iter()) {
            assert!((a - b).abs() < 1e-7 * a.abs().max(1.0), "{a} against {b}");
        }
    }
}

/// Five-point central differences of every residual over every parameter,
/// steps `h = 10⁻⁴·max(1, |p_c|)`: truncation `h⁴·|r⁽⁵⁾|/30` and rounding
/// `≈ ε·|r|/h` both stay below 10⁻⁹ for these smooth, O(1) residuals.
fn central_differences(p: [f64; 4], experiment: &Experiment, observations: &[f64]) -> DMatrix<f64> {
    let r = |q: &[f64]| residuals(q, experiment.dt, experiment.every, observations);
    let mut j = DMatrix::zeros(observations.len(), 4);
    for c in 0..4 {
        let h = 1e-4 * p[c].abs().max(1.0);
        let at = |t: f64| {
            let mut q = p;
            q[c] += t * h;
            r(&q)
        };
        let (up, down, up2, down2) = (at(1.0), at(-1.0), at(2.0), at(-2.0));
        for k in 0..observations.len() {
            j[(k, c)] = (8.0 * (up[k] - down[k]) - (up2[k] - down2[k])) / (12.0 * h);
        }
    }
    j
}

#[test]
fn residuals_jacobian_matches_central_differences() {
    let experiment = Experiment::DEFAULT;
    let observations = experiment.observations().unwrap();
    for p in [[1.9, 0.15, 0.9, 0.1], experiment.truth] {
        let (value, j) = residuals_jacobian(&p, experiment.dt, experiment.every, &observations);
        assert_eq!(
            value,
            residuals(&p, experiment.dt, experiment.every, &observations)
        );
        // Rows are the observations, columns ω, ζ, x₀, v₀; residual =
        // model − observation, so the signs are the model's.
        assert_eq!(j.shape(), (experiment.count, 4));
        let fd = central_differences(p, &experiment, &observations);
        for (a, b) in j.iter().zip(fd.iter()) {
            assert!((a - b).abs() < 1e-8 * a.abs().max(1.0), "{a} against {b}");
        }
        // The first position moves one for one with x₀ (to first order,
        // 0.4 time units in): a sign flip would show here.
        assert!(j[(0, 2)] > 0.5, "{j}");
    }
}

/// The closed form of `x'' + 2ζω·x' + ω²·x = 0` (underdamped) at `t`.
fn exact_position(p: [f64; 4], t: f64) -> f64 {
    let [omega, zeta, x0, v0] = p;
    let damped = omega * (1.0 - zeta * zeta).sqrt();
    let decay = zeta * omega;
    (-decay * t).exp() * (x0 * (damped * t).cos() + (v0 + decay * x0) / damped * (damped * t).sin())
}

#[test]
fn residuals_are_the_integrated_model_minus_the_observations() {
    let experiment = Experiment::DEFAULT;
    let observations = experiment.observations().unwrap();
    let p = [1.9, 0.15, 0.9, 0.1];
    let path = trajectory(&p, experiment.dt, experiment.every, experiment.count);
    let r = residuals(&p, experiment.dt, experiment.every, &observations);
    for k in 0..experiment.count {
        // RK4 drifts in phase by ≈ (ω·dt)⁵/120 per step: ≈ 4·10⁻⁸ after
        // 2000 steps.
        let t = (k + 1) as f64 * experiment.every as f64 * experiment.dt;
        let exact = exact_position(p, t);
        assert!(
            (path[k] - exact).abs() < 1e-6,
            "observation {k}: {} against {exact}",
            path[k]
        );
        assert!(
            (r[k] - (exact - observations[k])).abs() < 1e-6,
            "observation {k}: {} against {}",
            r[k],
            exact - observations[k]
        );
    }
}

#[test]
fn bad_experiments_are_errors() {
    let no_observations = Experiment {
        count: 0,
        ..Experiment::DEFAULT
    };
    assert!(no_observations.observations().is_err());
    let nan_noise = Experiment {
        noise: f64::NAN,
        ..Experiment::DEFAULT
    };
    let message = nan_noise.observations().unwrap_err();
    assert!(message.contains("noise"), "{message}");
    let bad_step = Experiment {
        dt: -0.01,
        ..Experiment::DEFAULT
    };
    assert!(bad_step.observations().is_err());
    let message = fit(&Experiment::DEFAULT, &[0.0; 3], JacobianSource::Generated).unwrap_err();
    assert!(
        message.contains("expected 50 observations, found 3"),
        "{message}"
    );
}
