use autograd::differentiable;

#[derive(Clone, Debug, autograd::Tangent)]
pub struct HullWhite {
    pub a: f64,
    pub sigma: f64,
}

/// Hull–White B(t, T) and a variance term from a parameter struct.
#[differentiable]
pub fn struct_params(p: &HullWhite, tau: f64) -> f64 {
    let b = (1.0 - (-p.a * tau).exp()) / p.a;
    p.sigma * p.sigma / (2.0 * p.a) * b * b
}

pub fn check() -> Result<(), String> {
    for x in [[0.1, 0.01, 5.0], [0.5, 0.02, 1.0]] {
        let p = HullWhite { a: x[0], sigma: x[1] };
        let (v, dp, dtau) = struct_params_grad(&p, x[2]);
        crate::support::same_value("hw", v, struct_params(&p, x[2]))?;
        let want = crate::support::fd_grad(|q| struct_params(&HullWhite { a: q[0], sigma: q[1] }, q[2]), &x);
        crate::support::close("struct_params", &[dp.a, dp.sigma, dtau], &want, 1e-6)?;
    }
    Ok(())
}
