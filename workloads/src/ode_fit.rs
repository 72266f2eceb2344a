//! A damped oscillator's parameters fitted to noisy observations by
//! Levenberg–Marquardt (the `levenberg-marquardt` crate) on a Jacobian of
//! generated gradients.
//!
//! The model is `x'' + 2ζω·x' + ω²·x = 0` with `x(0) = x₀`, `x'(0) = v₀`,
//! integrated by the classical Runge–Kutta method (RK4) with step `dt`;
//! the parameters are `p = [ω, ζ, x₀, v₀]`. Observation k is the position
//! after `(k + 1)·every` steps, plus noise.
//!
//! All the residuals are one `#[differentiable]` function of `p`
//! ([`residuals`]): one RK4 integration with an `[f64; 2]` state, pushing
//! the position minus its observation every `every` steps. Its generated
//! `residuals_jacobian` is the Jacobian Levenberg–Marquardt asks for, with
//! rows the observations and columns `p`. With `jvp` on [`residuals`] (and
//! the [`oscillator`] it calls) it takes one forward sweep per parameter
//! while there are more observations than parameters: 4 sweeps, each one
//! integration carrying tangents. One reverse sweep per observation would
//! each run back over the whole integration (re-running each stretch
//! between two observations forward first), at 50 observations costing
//! more than central differences' 8 integrations.
//!
//! The nalgebra types are `autograd::nalgebra`'s: the same crate the
//! `levenberg-marquardt` crate uses, so its `DMatrix` is ours, with no
//! conversion.

use std::time::{Duration, Instant};

use autograd::differentiable;
use autograd::nalgebra::{DMatrix, DVector, Dyn, Owned};
use levenberg_marquardt::{LeastSquaresProblem, LevenbergMarquardt};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

/// The oscillator's right-hand side `(x, v)' = (v, −ω²·x − 2ζω·v)`, with
/// `stiffness = ω²` and `damping = 2ζω`.
#[differentiable(jvp)]
pub fn oscillator(s: [f64; 2], stiffness: f64, damping: f64) -> [f64; 2] {
    [s[1], -stiffness * s[0] - damping * s[1]]
}

/// The residuals for `p = [ω, ζ, x₀, v₀]`: residual k is the model's
/// position after `(k + 1)·every` RK4 steps of size `dt` from `(x₀, v₀)`,
/// minus `observations[k]`.
#[differentiable(jvp)]
pub fn residuals(
    p: &[f64],
    #[constant] dt: f64,
    every: usize,
    #[constant] observations: &[f64],
) -> Vec<f64> {
    let stiffness = p[0] * p[0];
    let damping = 2.0 * p[1] * p[0];
    let half = 0.5 * dt;
    let mut s = [p[2], p[3]];
    let mut out = Vec::with_capacity(observations.len());
    for k in 0..observations.len() {
        for _step in 0..every {
            let k1 = oscillator(s, stiffness, damping);
            let k2 = oscillator(
                [s[0] + half * k1[0], s[1] + half * k1[1]],
                stiffness,
                damping,
            );
            let k3 = oscillator(
                [s[0] + half * k2[0], s[1] + half * k2[1]],
                stiffness,
                damping,
            );
            let k4 = oscillator([s[0] + dt * k3[0], s[1] + dt * k3[1]], stiffness, damping);
            s[0] += dt / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]);
            s[1] += dt / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]);
        }
        out.push(s[0] - observations[k]);
    }
    out
}

/// The positions at all `count` observation times: [`residuals`] against
/// observations of zero.
pub fn trajectory(p: &[f64], dt: f64, every: usize, count: usize) -> Vec<f64> {
    residuals(p, dt, every, &vec![0.0; count])
}

/// The experiment: the true parameters, the grid and the noise.
#[derive(Clone, Debug, PartialEq)]
pub struct Experiment {
    /// `[ω, ζ, x₀, v₀]` the observations are generated with.
    pub truth: [f64; 4],
    /// RK4 step.
    pub dt: f64,
    /// Steps between observations.
    pub every: usize,
    /// Number of observations.
    pub count: usize,
    /// Standard deviation of the observation noise.
    pub noise: f64,
    /// Seed of the noise.
    pub seed: u64,
}

impl Experiment {
    /// The example's default: ω = 2, ζ = 0.1, x₀ = 1, v₀ = 0 over 20 time
    /// units, 2000 RK4 steps, 50 observations with noise 0.02.
    pub const DEFAULT: Experiment = Experiment {
        truth: [2.0, 0.1, 1.0, 0.0],
        dt: 0.01,
        every: 40,
        count: 50,
        noise: 0.02,
        seed: 1,
    };

    /// Checks the grid and the noise.
    ///
    /// # Errors
    ///
    /// A message naming the bad input.
    pub fn validate(&self) -> Result<(), String> {
        if !(self.dt.is_finite() && self.dt > 0.0) {
            return Err(format!(
                "the step must be a positive number, found {}",
                self.dt
            ));
        }
        if self.every == 0 || self.count == 0 {
            return Err(
                "at least one observation and one step between observations are needed".into(),
            );
        }
        if !(self.noise.is_finite() && self.noise >= 0.0) {
            return Err(format!(
                "the noise must be a finite number ≥ 0, found {}",
                self.noise
            ));
        }
        if self.truth.iter().any(|v| !v.is_finite()) {
            return Err(format!(
                "the true parameters must be finite, found {:?}",
                self.truth
            ));
        }
        Ok(())
    }

    /// The noisy observations.
    ///
    /// # Errors
    ///
    /// See [`Experiment::validate`].
    pub fn observations(&self) -> Result<Vec<f64>, String> {
        self.validate()?;
        let normal = Normal::new(0.0, self.noise).map_err(|e| e.to_string())?;
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        Ok(trajectory(&self.truth, self.dt, self.every, self.count)
            .into_iter()
            .map(|x| x + normal.sample(&mut rng))
            .collect())
    }
}

/// Where the Jacobian comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JacobianSource {
    /// `residuals_jacobian`: one forward sweep per parameter (one reverse
    /// sweep per observation if there are fewer observations).
    Generated,
    /// Central differences: two integrations per parameter.
    CentralDifferences,
}

/// The least-squares problem the `levenberg-marquardt` crate solves.
pub struct OscillatorFit {
    params: DVector<f64>,
    observations: Vec<f64>,
    dt: f64,
    every: usize,
    source: JacobianSource,
}

impl OscillatorFit {
    /// The problem of fitting `observations` from the starting point `start`.
    pub fn new(
        experiment: &Experiment,
        observations: Vec<f64>,
        start: [f64; 4],
        source: JacobianSource,
    ) -> Self {
        OscillatorFit {
            params: DVector::from_row_slice(&start),
            observations,
            dt: experiment.dt,
            every: experiment.every,
            source,
        }
    }

    /// The current parameters `[ω, ζ, x₀, v₀]`.
    pub fn parameters(&self) -> [f64; 4] {
        [
            self.params[0],
            self.params[1],
            self.params[2],
            self.params[3],
        ]
    }

    /// The Jacobian from `residuals_jacobian`: row k is residual k's
    /// gradient over `[ω, ζ, x₀, v₀]`.
    pub fn jacobian_generated(&self) -> DMatrix<f64> {
        let (_, j) = residuals_jacobian(
            self.params.as_slice(),
            self.dt,
            self.every,
            &self.observations,
        );
        j
    }

    /// The Jacobian by central differences, a relative step of 1e-6.
    pub fn jacobian_central_differences(&self) -> DMatrix<f64> {
        let count = self.observations.len();
        let mut p = self.params.as_slice().to_vec();
        let mut j = DMatrix::zeros(count, p.len());
        for c in 0..p.len() {
            let original = p[c];
            let h = 1e-6 * original.abs().max(1.0);
            p[c] = original + h;
            let up = trajectory(&p, self.dt, self.every, count);
            p[c] = original - h;
            let down = trajectory(&p, self.dt, self.every, count);
            p[c] = original;
            for k in 0..count {
                j[(k, c)] = (up[k] - down[k]) / (2.0 * h);
            }
        }
        j
    }

    /// Standard errors of the parameters: the square roots of the diagonal
    /// of s²·(JᵀJ)⁻¹ with s² the residuals' variance, from our Jacobian at
    /// the current parameters; `None` if JᵀJ is singular.
    pub fn standard_errors(&self) -> Option<[f64; 4]> {
        let j = self.jacobian_generated();
        let r = self.residuals()?;
        let dof = (r.len() as f64 - 4.0).max(1.0);
        let variance = r.norm_squared() / dof;
        let covariance = (j.transpose() * &j).try_inverse()? * variance;
        Some([0, 1, 2, 3].map(|i| covariance[(i, i)].max(0.0).sqrt()))
    }
}

impl LeastSquaresProblem<f64, Dyn, Dyn> for OscillatorFit {
    type ResidualStorage = Owned<f64, Dyn>;
    type JacobianStorage = Owned<f64, Dyn, Dyn>;
    type ParameterStorage = Owned<f64, Dyn>;

    fn set_params(&mut self, p: &DVector<f64>) {
        self.params.copy_from(p);
    }

    fn params(&self) -> DVector<f64> {
        self.params.clone()
    }

    fn residuals(&self) -> Option<DVector<f64>> {
        Some(DVector::from_vec(residuals(
            self.params.as_slice(),
            self.dt,
            self.every,
            &self.observations,
        )))
    }

    fn jacobian(&self) -> Option<DMatrix<f64>> {
        Some(match self.source {
            JacobianSource::Generated => self.jacobian_generated(),
            JacobianSource::CentralDifferences => self.jacobian_central_differences(),
        })
    }
}

/// A finished fit.
#[derive(Clone, Debug, PartialEq)]
pub struct OdeFit {
    /// The parameters found, `[ω, ζ, x₀, v₀]`.
    pub params: [f64; 4],
    /// Their standard errors, if JᵀJ is invertible there.
    pub standard_errors: Option<[f64; 4]>,
    /// Residual evaluations Levenberg–Marquardt made.
    pub evaluations: usize,
    /// Root-mean-square residual at `params`.
    pub rms: f64,
    /// Wall time of the solve.
    pub time: Duration,
    /// Why it stopped, in the crate's words.
    pub termination: String,
}

/// The starting point of the fits: 10% off in ω, ζ = 0.2, x₀ and v₀ from
/// the first observation.
pub fn initial_guess(experiment: &Experiment, observations: &[f64]) -> [f64; 4] {
    let first = observations.first().copied().unwrap_or(0.0);
    [0.9 * experiment.truth[0], 0.2, first, 0.0]
}

/// Fits the oscillator to `observations` by Levenberg–Marquardt from
/// [`initial_guess`].
///
/// # Errors
///
/// A bad experiment, or Levenberg–Marquardt failing (its reason).
pub fn fit(
    experiment: &Experiment,
    observations: &[f64],
    source: JacobianSource,
) -> Result<OdeFit, String> {
    experiment.validate()?;
    if observations.len() != experiment.count {
        return Err(format!(
            "expected {} observations, found {}",
            experiment.count,
            observations.len()
        ));
    }
    let start = initial_guess(experiment, observations);
    let problem = OscillatorFit::new(experiment, observations.to_vec(), start, source);
    let begin = Instant::now();
    let (problem, report) = LevenbergMarquardt::new().minimize(problem);
    let time = begin.elapsed();
    if !report.termination.was_successful() {
        return Err(format!(
            "Levenberg–Marquardt stopped: {:?}",
            report.termination
        ));
    }
    let rms = problem
        .residuals()
        .map_or(f64::NAN, |r| (r.norm_squared() / r.len() as f64).sqrt());
    Ok(OdeFit {
        params: problem.parameters(),
        standard_errors: problem.standard_errors(),
        evaluations: report.number_of_evaluations,
        rms,
        time,
        termination: format!("{:?}", report.termination),
    })
}

/// Times `f` over `repeats` calls (at least one), returning the last
/// result and the time per call.
pub fn time_per_call<T>(repeats: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let repeats = repeats.max(1);
    let begin = Instant::now();
    let mut last = f();
    for _ in 1..repeats {
        last = f();
    }
    (last, begin.elapsed() / repeats as u32)
}
