//! One Monte Carlo path of 252 daily steps of a local-volatility model,
//! σ(s) = σ·√(s/s₀):
//! `s ← s·exp((r − σ(s)²/2)·dt + σ(s)·√dt·zᵢ)`, and the discounted terminal
//! value `e^(−r·T)·s_T`, differentiated in s₀, r and σ (the pathwise
//! Greeks); the normals z and the step dt are constants. The state is
//! carried through an `exp` and a `sqrt` every step.

use autograd::differentiable;

use super::{Flat, Tolerances, fd_scalar, lcg_vec};

/// The same operations in another order (forward tangents by hand, the
/// reverse sweep ours): a few ulps of values about 100 over 252 steps.
/// Central differences have a truncation error of about h²·f‴/6.
pub const TOLERANCES: Tolerances = Tolerances {
    abs: 1e-10,
    rel: 1e-11,
    fd_abs: 1e-6,
    fd_rel: 1e-7,
};

/// Trading days in a year.
pub const STEPS: usize = 252;

/// The case's inputs.
pub struct Inputs {
    /// Spot, rate, volatility.
    pub args: [f64; 3],
    /// One standard normal (here: a deterministic stand-in) per step.
    pub z: Vec<f64>,
    /// The step in years.
    pub dt: f64,
}

impl Inputs {
    /// A year of daily steps from s₀ = 100, r = 3%, σ = 25%.
    pub fn new() -> Inputs {
        // Uniform in [−√3, √3): mean 0 and variance 1, like the normals.
        let z = lcg_vec(STEPS, 31, -(3.0_f64.sqrt()), 3.0_f64.sqrt());
        Inputs {
            args: [100.0, 0.03, 0.25],
            z,
            dt: 1.0 / STEPS as f64,
        }
    }
}

impl Default for Inputs {
    fn default() -> Inputs {
        Inputs::new()
    }
}

/// The path as a user writes it.
#[differentiable]
pub fn path_value(s0: f64, r: f64, sigma: f64, #[constant] z: &[f64], #[constant] dt: f64) -> f64 {
    let mut s = s0;
    let mut horizon = 0.0;
    for i in 0..z.len() {
        let vol = sigma * (s / s0).sqrt();
        s *= ((r - 0.5 * vol * vol) * dt + vol * dt.sqrt() * z[i]).exp();
        horizon += dt;
    }
    (-r * horizon).exp() * s
}

/// The value.
pub fn primal(inp: &Inputs) -> f64 {
    let [s0, r, sigma] = inp.args;
    path_value(s0, r, sigma, &inp.z, inp.dt)
}

/// The macro's gradient.
pub fn ours(inp: &Inputs) -> (f64, [f64; 3]) {
    let [s0, r, sigma] = inp.args;
    let (v, ds0, dr, dsigma) = path_value_grad(s0, r, sigma, &inp.z, inp.dt);
    (v, [ds0, dr, dsigma])
}

/// The caller's buffers of the accumulating contenders: the three Greeks.
pub type Buffers = [f64; 3];

/// Zeroed buffers.
pub fn buffers(_: &Inputs) -> Buffers {
    [0.0; 3]
}

/// The macro's gradient added into the caller's buffers (`_grad_acc`).
pub fn ours_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
    let [s0, r, sigma] = inp.args;
    let [ds0, dr, dsigma] = b;
    path_value_grad_acc(s0, r, sigma, &inp.z, inp.dt, ds0, dr, dsigma)
}

/// By hand into the caller's buffers: the three tangents of the state
/// carried along the path in the same pass (forward mode, as pathwise
/// Greeks are written by hand; nothing stored). With u = s/s₀ and
/// a = (r − σ²u/2)·dt + σ√u·√dt·zᵢ, a step is s ← s·eᵃ, so for each
/// input p, ∂s/∂p ← eᵃ·∂s/∂p + s·eᵃ·∂a/∂p, where ∂a/∂p is a's direct
/// dependence on p plus ∂a/∂u·∂u/∂p, ∂a/∂u = −σ²dt/2 + σ√dt·zᵢ/(2√u) and
/// ∂u/∂p = (∂s/∂p)/s₀ − [p = s₀]·s/s₀².
pub fn hand_acc(inp: &Inputs, b: &mut Buffers) -> f64 {
    let [s0, r, sigma] = inp.args;
    let (dt, sqrt_dt) = (inp.dt, inp.dt.sqrt());
    let mut s = s0;
    // ∂s/∂s₀, ∂s/∂r, ∂s/∂σ.
    let (mut d_s0, mut d_r, mut d_sigma) = (1.0, 0.0, 0.0);
    let mut horizon = 0.0;
    for &z in &inp.z {
        let u = s / s0;
        let sqrt_u = u.sqrt();
        let shock = sqrt_dt * z;
        let e = ((r - 0.5 * sigma * sigma * u) * dt + sigma * sqrt_u * shock).exp();
        let a_u = -0.5 * sigma * sigma * dt + 0.5 * sigma * shock / sqrt_u;
        let se = s * e;
        d_s0 = e * d_s0 + se * a_u * (d_s0 / s0 - s / (s0 * s0));
        d_r = e * d_r + se * (dt + a_u * d_r / s0);
        d_sigma = e * d_sigma + se * (-sigma * u * dt + sqrt_u * shock + a_u * d_sigma / s0);
        s = se;
        horizon += dt;
    }
    let discount = (-r * horizon).exp();
    b[0] += discount * d_s0;
    b[1] += discount * (d_r - horizon * s);
    b[2] += discount * d_sigma;
    discount * s
}

/// By hand: [`hand_acc`] into fresh zeroed buffers.
pub fn hand(inp: &Inputs) -> (f64, [f64; 3]) {
    let mut g = buffers(inp);
    let v = hand_acc(inp, &mut g);
    (v, g)
}

/// Central differences: six primal calls.
pub fn fd(inp: &Inputs) -> (f64, [f64; 3]) {
    let [s0, r, sigma] = inp.args;
    let (z, dt) = (&inp.z[..], inp.dt);
    (
        primal(inp),
        [
            fd_scalar(|s0| path_value(s0, r, sigma, z, dt), s0),
            fd_scalar(|r| path_value(s0, r, sigma, z, dt), r),
            fd_scalar(|sigma| path_value(s0, r, sigma, z, dt), sigma),
        ],
    )
}

/// Every contender's value and gradient, `[∂/∂s₀, ∂/∂r, ∂/∂σ]`.
pub fn all_gradients(inp: &Inputs) -> Vec<Flat> {
    let flat = |name, (v, g): (f64, [f64; 3])| Flat::new(name, v, g.to_vec());
    vec![
        Flat::new("primal", primal(inp), Vec::new()),
        flat("ours", ours(inp)),
        super::accumulated("ours_acc", inp, buffers, ours_acc, |g| g.to_vec()),
        flat("hand", hand(inp)),
        super::accumulated("hand_acc", inp, buffers, hand_acc, |g| g.to_vec()),
        flat("fd", fd(inp)),
    ]
}
