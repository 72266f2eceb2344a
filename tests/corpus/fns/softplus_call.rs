use autograd::differentiable;

/// A call payoff max(S-K, 0) smoothed with softplus: eps·ln(1 + e^{(S-K)/eps}), written stably.
#[differentiable]
pub fn softplus_call(s: f64, k: f64, eps: f64) -> f64 {
    let x = (s - k) / eps;
    if x > 30.0 {
        s - k
    } else if x < -30.0 {
        eps * x.exp()
    } else {
        eps * x.exp().ln_1p()
    }
}

pub fn check() -> Result<(), String> {
    scalar_check!(softplus_call, softplus_call_grad, 1e-6, [[105.0, 100.0, 1.0], [99.0, 100.0, 0.5], [100.0, 50.0, 0.5], [30.0, 50.0, 0.5]], (s, k, eps))
}
