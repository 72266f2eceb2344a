use autograd::differentiable;

/// Smoothed expected shortfall of portfolio losses over scenarios
/// (Rockafellar–Uryasev with a softplus in place of the hinge).
#[differentiable]
pub fn portfolio_cvar_smooth(weights: &[f64], var: f64, #[constant] scenarios: &[Vec<f64>], #[constant] alpha: f64) -> f64 {
    let n = scenarios.len() as f64;
    let mut tail = 0.0;
    for s in scenarios {
        let loss: f64 = -weights.iter().zip(s.iter()).map(|(w, r)| w * r).sum::<f64>();
        let excess = loss - var;
        tail += 0.01 * (excess / 0.01).exp().ln_1p();
    }
    var + tail / ((1.0 - alpha) * n)
}

pub fn check() -> Result<(), String> {
    let scenarios = vec![vec![0.01, -0.02, 0.005], vec![-0.03, 0.01, 0.0], vec![0.02, 0.015, -0.01], vec![-0.01, -0.04, 0.02]];
    let x = [0.4, 0.35, 0.25, 0.01];
    let f = |q: &[f64]| portfolio_cvar_smooth(&q[..3], q[3], &scenarios, 0.9);
    let (v, gw, gv) = portfolio_cvar_smooth_grad(&x[..3], x[3], &scenarios, 0.9);
    crate::support::same_value("cvar", v, f(&x))?;
    let mut got = gw.clone();
    got.push(gv);
    crate::support::close("portfolio_cvar_smooth", &got, &crate::support::fd_grad(f, &x), 1e-6)
}
