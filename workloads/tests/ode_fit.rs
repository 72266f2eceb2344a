//! The ODE fit at the example's size (50 observations, 2000 RK4 steps):
//! Levenberg–Marquardt on the Jacobian of `residual_grad` recovers the
//! parameters the observations were generated with.

use workloads::ode_fit::{
    Experiment, JacobianSource, OscillatorFit, fit, initial_guess, residual, residual_check,
    trajectory,
};

#[test]
fn the_fit_recovers_the_true_parameters() {
    let experiment = Experiment::DEFAULT;
    let observations = experiment.observations().unwrap();
    let ours = fit(&experiment, &observations, JacobianSource::Reverse).unwrap();
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
            JacobianSource::Reverse,
        );
        let ours = problem.jacobian_reverse();
        let fd = problem.jacobian_central_differences();
        assert_eq!(ours.shape(), (experiment.count, 4));
        for (a, b) in ours.iter().zip(fd.iter()) {
            assert!((a - b).abs() < 1e-7 * a.abs().max(1.0), "{a} against {b}");
        }
    }
    // And each residual's gradient against the check's own differences.
    let p = [1.9, 0.15, 0.9, 0.1];
    for k in [0, 17, experiment.count - 1] {
        let check = residual_check(&p, experiment.dt, experiment.every, k, &observations);
        assert!(check.is_within(1e-6, 1e-6), "residual {k}: {check:?}");
    }
}

#[test]
fn one_residual_is_the_trajectory_minus_its_observation() {
    let experiment = Experiment::DEFAULT;
    let observations = experiment.observations().unwrap();
    let p = [1.9, 0.15, 0.9, 0.1];
    let path = trajectory(&p, experiment.dt, experiment.every, experiment.count);
    for k in 0..experiment.count {
        let r = residual(&p, experiment.dt, experiment.every, k, &observations);
        // The same RK4 steps in the same order: the same number.
        assert_eq!(r, path[k] - observations[k], "observation {k}");
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
    let message = fit(&Experiment::DEFAULT, &[0.0; 3], JacobianSource::Reverse).unwrap_err();
    assert!(
        message.contains("expected 50 observations, found 3"),
        "{message}"
    );
}
