//! Pathwise Greeks of path-dependent options by Monte Carlo.
//!
//! The stock follows Black–Scholes dynamics, simulated exactly on a grid of
//! `steps` equal steps: `S ← S·exp((r − σ²/2)·Δt + σ·√Δt·Z)`. The payoff of
//! one path is a `#[differentiable]` function of (S₀, σ, r, T) with the
//! path's normals `#[constant]`; its generated `_grad` gives the discounted
//! payoff and its derivatives in one reverse sweep, and their means over
//! the paths are the price and the pathwise estimates of delta, vega and
//! rho. Bump-and-revalue on the same normals (common random numbers) is
//! the comparison.
//!
//! Paths run in parallel with rayon. Each worker folds its paths into one
//! [`Moments`] and one normals buffer of its own, so memory stays flat in
//! the number of paths; path `p` draws its normals from its own ChaCha8
//! stream `p` of the seed, so the result does not depend on the number of
//! threads or on how rayon splits the work.

// The barrier payoff takes eight arguments; an `allow` on the function
// itself does not reach the items `#[differentiable]` generates next to it.
#![allow(clippy::too_many_arguments)]

use autograd::differentiable;
use autograd::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, StandardNormal};
use rayon::prelude::*;

/// Discounted payoff of an arithmetic-average Asian call on one path:
/// `e^(−rT)·max(mean(S₁..Sₙ) − K, 0)` with `n = normals.len()` monitoring
/// dates `T/n, 2T/n, .., T`.
#[differentiable]
pub fn asian_call(
    s0: f64,
    sigma: f64,
    r: f64,
    t: f64,
    #[constant] strike: f64,
    #[constant] normals: &[f64],
) -> f64 {
    let n = normals.len() as f64;
    let dt = t / n;
    let drift = (r - 0.5 * sigma * sigma) * dt;
    let diffusion = sigma * dt.sqrt();
    let mut s = s0;
    let mut sum = 0.0;
    for i in 0..normals.len() {
        s *= (drift + diffusion * normals[i]).exp();
        sum += s;
    }
    (-r * t).exp() * (sum / n - strike).max(0.0)
}

/// The same option, knocked out when the stock falls to `barrier` on a
/// monitoring date, with the knock-out indicator 1{S > B} smoothed to the
/// sigmoid σ((S − B)/width) at every date. The smoothing is the user's
/// choice, made so that the pathwise derivative exists: the hard indicator
/// has derivative zero almost everywhere and misses the barrier's effect.
/// It biases the price by O(width); `width → 0` recovers the hard barrier.
#[differentiable]
pub fn down_and_out_asian_call(
    s0: f64,
    sigma: f64,
    r: f64,
    t: f64,
    #[constant] strike: f64,
    #[constant] barrier: f64,
    #[constant] width: f64,
    #[constant] normals: &[f64],
) -> f64 {
    let n = normals.len() as f64;
    let dt = t / n;
    let drift = (r - 0.5 * sigma * sigma) * dt;
    let diffusion = sigma * dt.sqrt();
    let mut s = s0;
    let mut sum = 0.0;
    let mut alive = 1.0;
    for i in 0..normals.len() {
        s *= (drift + diffusion * normals[i]).exp();
        sum += s;
        alive *= ((s - barrier) / width).sigmoid();
    }
    alive * (-r * t).exp() * (sum / n - strike).max(0.0)
}

/// Discounted payoff of a geometric-average Asian call on one path, the
/// control with a closed form ([`geometric_asian_closed_form`]): the same
/// monitoring dates as [`asian_call`], the average `exp(mean(ln Sᵢ))`.
#[differentiable]
pub fn geometric_asian_call(
    s0: f64,
    sigma: f64,
    r: f64,
    t: f64,
    #[constant] strike: f64,
    #[constant] normals: &[f64],
) -> f64 {
    let n = normals.len() as f64;
    let dt = t / n;
    let drift = (r - 0.5 * sigma * sigma) * dt;
    let diffusion = sigma * dt.sqrt();
    let mut log_s = s0.ln();
    let mut sum = 0.0;
    for i in 0..normals.len() {
        log_s += drift + diffusion * normals[i];
        sum += log_s;
    }
    (-r * t).exp() * ((sum / n).exp() - strike).max(0.0)
}

/// The market and the contract.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Market {
    /// Spot S₀.
    pub s0: f64,
    /// Volatility σ, a year.
    pub sigma: f64,
    /// Continuously compounded rate r, a year.
    pub r: f64,
    /// Maturity T in years.
    pub t: f64,
    /// Strike K.
    pub strike: f64,
}

impl Market {
    /// The example's default: at the money, 20% volatility, 3%, one year.
    pub const DEFAULT: Market = Market {
        s0: 100.0,
        sigma: 0.2,
        r: 0.03,
        t: 1.0,
        strike: 100.0,
    };

    /// Checks that every input is finite and in its range.
    ///
    /// # Errors
    ///
    /// A message naming the first bad input.
    pub fn validate(&self) -> Result<(), String> {
        let positive = [
            ("spot", self.s0),
            ("volatility", self.sigma),
            ("maturity", self.t),
            ("strike", self.strike),
        ];
        for (name, v) in positive {
            if !(v.is_finite() && v > 0.0) {
                return Err(format!("the {name} must be a positive number, found {v}"));
            }
        }
        if !self.r.is_finite() {
            return Err(format!("the rate must be finite, found {}", self.r));
        }
        Ok(())
    }
}

/// Which payoff to simulate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Payoff {
    /// [`asian_call`].
    Asian,
    /// [`down_and_out_asian_call`] with this barrier and sigmoid width.
    DownAndOut {
        /// The knock-out level B.
        barrier: f64,
        /// The width of the smoothed indicator, in the stock's units.
        width: f64,
    },
    /// [`geometric_asian_call`].
    Geometric,
}

impl Payoff {
    /// The discounted payoff of one path.
    pub fn value(&self, m: &Market, normals: &[f64]) -> f64 {
        match *self {
            Payoff::Asian => asian_call(m.s0, m.sigma, m.r, m.t, m.strike, normals),
            Payoff::DownAndOut { barrier, width } => {
                down_and_out_asian_call(m.s0, m.sigma, m.r, m.t, m.strike, barrier, width, normals)
            }
            Payoff::Geometric => geometric_asian_call(m.s0, m.sigma, m.r, m.t, m.strike, normals),
        }
    }

    /// The discounted payoff of one path and its derivatives in
    /// (S₀, σ, r), from the generated `_grad` (which also gives ∂/∂T).
    pub fn gradient(&self, m: &Market, normals: &[f64]) -> [f64; 4] {
        let (v, ds0, dsigma, dr, _dt) = match *self {
            Payoff::Asian => asian_call_grad(m.s0, m.sigma, m.r, m.t, m.strike, normals),
            Payoff::DownAndOut { barrier, width } => down_and_out_asian_call_grad(
                m.s0, m.sigma, m.r, m.t, m.strike, barrier, width, normals,
            ),
            Payoff::Geometric => {
                geometric_asian_call_grad(m.s0, m.sigma, m.r, m.t, m.strike, normals)
            }
        };
        [v, ds0, dsigma, dr]
    }
}

/// Running sums of K per-path quantities, for their means and standard
/// errors.
#[derive(Clone, Debug, PartialEq)]
pub struct Moments<const K: usize> {
    n: u64,
    sum: [f64; K],
    sum_sq: [f64; K],
}

impl<const K: usize> Default for Moments<K> {
    fn default() -> Self {
        Moments {
            n: 0,
            sum: [0.0; K],
            sum_sq: [0.0; K],
        }
    }
}

impl<const K: usize> Moments<K> {
    /// Adds one path's values.
    pub fn add(&mut self, x: &[f64; K]) {
        self.n += 1;
        for k in 0..K {
            self.sum[k] += x[k];
            self.sum_sq[k] += x[k] * x[k];
        }
    }

    /// The sums of two disjoint sets of paths.
    pub fn merge(mut self, other: Self) -> Self {
        self.n += other.n;
        for k in 0..K {
            self.sum[k] += other.sum[k];
            self.sum_sq[k] += other.sum_sq[k];
        }
        self
    }

    /// The mean of quantity `k`.
    pub fn mean(&self, k: usize) -> f64 {
        self.sum[k] / self.n as f64
    }

    /// The standard error of the mean of quantity `k`.
    pub fn standard_error(&self, k: usize) -> f64 {
        let n = self.n as f64;
        let mean = self.mean(k);
        let variance = ((self.sum_sq[k] - n * mean * mean) / (n - 1.0)).max(0.0);
        (variance / n).sqrt()
    }
}

/// An estimate and its standard error.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// The Monte Carlo mean.
    pub mean: f64,
    /// Its standard error.
    pub standard_error: f64,
}

/// Price and sensitivities from one method, with standard errors.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Greeks {
    /// The discounted expected payoff.
    pub price: Estimate,
    /// ∂/∂S₀.
    pub delta: Estimate,
    /// ∂/∂σ.
    pub vega: Estimate,
    /// ∂/∂r.
    pub rho: Estimate,
}

impl Greeks {
    fn from_moments(m: &Moments<4>) -> Greeks {
        let e = |k| Estimate {
            mean: m.mean(k),
            standard_error: m.standard_error(k),
        };
        Greeks {
            price: e(0),
            delta: e(1),
            vega: e(2),
            rho: e(3),
        }
    }

    /// The estimates in the order price, delta, vega, rho.
    pub fn all(&self) -> [Estimate; 4] {
        [self.price, self.delta, self.vega, self.rho]
    }
}

/// The size and seed of a simulation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Simulation {
    /// Number of paths.
    pub paths: usize,
    /// Monitoring dates (time steps) per path.
    pub steps: usize,
    /// Seed of the random numbers.
    pub seed: u64,
}

impl Simulation {
    /// Checks the sizes.
    ///
    /// # Errors
    ///
    /// A message naming the bad size.
    pub fn validate(&self) -> Result<(), String> {
        if self.paths < 2 {
            return Err(format!(
                "at least 2 paths are needed for a standard error, found {}",
                self.paths
            ));
        }
        if self.steps == 0 {
            return Err("at least one time step is needed".into());
        }
        Ok(())
    }
}

/// Fills `normals` with path `path`'s standard normals: its own stream of
/// the seed, so the same path gets the same numbers on any thread.
fn draw_path(seed: u64, path: usize, normals: &mut [f64]) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(path as u64);
    for z in normals.iter_mut() {
        *z = StandardNormal.sample(&mut rng);
    }
}

/// Folds `per_path(normals)` over all paths in parallel, each worker with
/// one normals buffer and one set of sums.
fn simulate<const K: usize>(
    sim: &Simulation,
    per_path: impl Fn(&[f64]) -> [f64; K] + Sync,
) -> Moments<K> {
    (0..sim.paths)
        .into_par_iter()
        .fold(
            || (vec![0.0; sim.steps], Moments::<K>::default()),
            |(mut normals, mut moments), path| {
                draw_path(sim.seed, path, &mut normals);
                moments.add(&per_path(&normals));
                (normals, moments)
            },
        )
        .map(|(_, moments)| moments)
        .reduce(Moments::default, Moments::merge)
}

/// Price and pathwise Greeks: one `_grad` of the payoff per path.
///
/// # Errors
///
/// Bad market inputs or sizes, as a message.
pub fn pathwise(payoff: &Payoff, market: &Market, sim: &Simulation) -> Result<Greeks, String> {
    market.validate()?;
    sim.validate()?;
    payoff.validate()?;
    Ok(Greeks::from_moments(&simulate(sim, |normals| {
        payoff.gradient(market, normals)
    })))
}

/// Bumps of bump-and-revalue: S₀ and σ by this fraction of their value,
/// r by this many units.
pub const BUMP: f64 = 1e-4;

/// Price and Greeks by bump-and-revalue on common random numbers: per
/// path, the payoff and central differences of it in S₀, σ and r, bumped
/// by [`BUMP`] (7 payoff evaluations a path).
///
/// # Errors
///
/// Bad market inputs or sizes, as a message.
pub fn bump_and_revalue(
    payoff: &Payoff,
    market: &Market,
    sim: &Simulation,
) -> Result<Greeks, String> {
    market.validate()?;
    sim.validate()?;
    payoff.validate()?;
    let bumped = |k: usize, sign: f64| {
        let mut m = *market;
        match k {
            0 => m.s0 += sign * BUMP * market.s0,
            1 => m.sigma += sign * BUMP * market.sigma,
            _ => m.r += sign * BUMP,
        }
        m
    };
    let ups = [0, 1, 2].map(|k| bumped(k, 1.0));
    let downs = [0, 1, 2].map(|k| bumped(k, -1.0));
    let steps = [BUMP * market.s0, BUMP * market.sigma, BUMP];
    Ok(Greeks::from_moments(&simulate(sim, |normals| {
        let mut out = [payoff.value(market, normals), 0.0, 0.0, 0.0];
        for k in 0..3 {
            let up = payoff.value(&ups[k], normals);
            let down = payoff.value(&downs[k], normals);
            out[k + 1] = (up - down) / (2.0 * steps[k]);
        }
        out
    })))
}

impl Payoff {
    /// Checks the barrier and the width.
    ///
    /// # Errors
    ///
    /// A message naming the bad input.
    pub fn validate(&self) -> Result<(), String> {
        if let Payoff::DownAndOut { barrier, width } = *self {
            if !(barrier.is_finite() && barrier > 0.0) {
                return Err(format!(
                    "the barrier must be a positive number, found {barrier}"
                ));
            }
            if !(width.is_finite() && width > 0.0) {
                return Err(format!(
                    "the barrier's smoothing width must be a positive number, found {width}"
                ));
            }
        }
        Ok(())
    }
}

/// Φ(x), the standard normal distribution function, to about 1e-13.
pub fn normal_cdf(x: f64) -> f64 {
    // Φ(x) = erfc(−x/√2)/2.
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// erfc(x): 1 − erf(x) by erf's Taylor series below 3 (cancellation costs
/// about three digits at 3), the continued fraction from 3 up.
fn erfc(x: f64) -> f64 {
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 3.0 {
        // erf(x) = 2/√π Σ (−1)ⁿ x^(2n+1) / (n!(2n+1)).
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        1.0 - sum * std::f64::consts::FRAC_2_SQRT_PI
    } else {
        // erfc(x) = e^(−x²)/√π · 1/(x + 1/2/(x + 1/(x + 3/2/(x + ...)))),
        // evaluated from the tail by 60 terms (converged to double at x ≥ 3).
        let mut f = x;
        for k in (1..=60).rev() {
            f = x + (k as f64 / 2.0) / f;
        }
        (-x * x).exp() / (f * std::f64::consts::PI.sqrt())
    }
}

/// The closed-form price and delta of the discretely monitored geometric
/// Asian call ([`geometric_asian_call`]) with `steps` dates: ln G is normal
/// with mean `ln S₀ + (r − σ²/2)·Δt·(n+1)/2` and variance
/// `σ²·Δt·(n+1)(2n+1)/(6n)`, so the price is Black's formula on G, and
/// the delta is `e^(−rT)·E[G]·Φ(d₁)/S₀`.
pub fn geometric_asian_closed_form(market: &Market, steps: usize) -> (f64, f64) {
    let Market {
        s0,
        sigma,
        r,
        t,
        strike,
    } = *market;
    let n = steps as f64;
    let dt = t / n;
    let mean = s0.ln() + (r - 0.5 * sigma * sigma) * dt * (n + 1.0) / 2.0;
    let variance = sigma * sigma * dt * (n + 1.0) * (2.0 * n + 1.0) / (6.0 * n);
    let sd = variance.sqrt();
    let d1 = (mean - strike.ln() + variance) / sd;
    let d2 = d1 - sd;
    let forward = (mean + 0.5 * variance).exp();
    let discount = (-r * t).exp();
    let price = discount * (forward * normal_cdf(d1) - strike * normal_cdf(d2));
    let delta = discount * forward * normal_cdf(d1) / s0;
    (price, delta)
}
