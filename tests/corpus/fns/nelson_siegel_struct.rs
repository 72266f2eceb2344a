use autograd::differentiable;

/// Nelson–Siegel curve parameters: levels in an array, a decay in a
/// nested struct.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Decay {
    pub tau: f64,
}

#[derive(Clone, Debug, autograd::Tangent)]
pub struct NelsonSiegel {
    pub beta: [f64; 3],
    pub decay: Decay,
    pub name: String,
}

/// The zero rate at maturity t.
#[differentiable]
pub fn ns_rate(p: &NelsonSiegel, t: f64) -> f64 {
    let x = t / p.decay.tau;
    let loading = (1.0 - (-x).exp()) / x;
    p.beta[0] + p.beta[1] * loading + p.beta[2] * (loading - (-x).exp())
}

/// Squared pricing error over a set of quoted maturities.
#[differentiable]
pub fn nelson_siegel_struct(p: &NelsonSiegel, #[constant] maturities: &[f64], #[constant] quotes: &[f64]) -> f64 {
    let mut err = 0.0;
    for i in 0..maturities.len() {
        let r = ns_rate(p, maturities[i]) - quotes[i];
        err += r * r;
    }
    err
}

pub fn check() -> Result<(), String> {
    let mats = [0.5, 1.0, 2.0, 5.0, 10.0];
    let quotes = [0.02, 0.022, 0.025, 0.03, 0.032];
    for x in [[0.03, -0.01, 0.005, 1.5], [0.04, 0.01, -0.02, 3.0]] {
        let make = |q: &[f64]| NelsonSiegel { beta: [q[0], q[1], q[2]], decay: Decay { tau: q[3] }, name: "ns".into() };
        let p = make(&x);
        let (v, dp) = nelson_siegel_struct_grad(&p, &mats, &quotes);
        crate::support::same_value("ns", v, nelson_siegel_struct(&p, &mats, &quotes))?;
        let want = crate::support::fd_grad(|q| nelson_siegel_struct(&make(q), &mats, &quotes), &x);
        crate::support::close("nelson_siegel_struct", &[dp.beta[0], dp.beta[1], dp.beta[2], dp.decay.tau], &want, 1e-6)?;
    }
    Ok(())
}
