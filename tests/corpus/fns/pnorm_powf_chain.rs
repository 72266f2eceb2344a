use autograd::differentiable;

/// The p-norm, written as one chain ending in a method on the sum.
#[differentiable]
pub fn pnorm_powf_chain(x: &[f64], p: f64) -> f64 {
    x.iter().map(|v| v.abs().powf(p)).sum::<f64>().powf(1.0 / p)
}

pub fn check() -> Result<(), String> {
    for (x, p) in [(vec![0.5, 1.3, -0.7, 2.0], 3.0), (vec![1.1, -0.2, 0.9], 1.5)] {
        let (v, g, gp) = pnorm_powf_chain_grad(&x, p);
        crate::support::same_value("pnorm", v, pnorm_powf_chain(&x, p))?;
        let n = x.len();
        let mut q0 = x.clone();
        q0.push(p);
        let want = crate::support::fd_grad(|q| pnorm_powf_chain(&q[..n], q[n]), &q0);
        let mut got = g.clone();
        got.push(gp);
        crate::support::close("pnorm_powf_chain", &got, &want, 1e-6)?;
    }
    Ok(())
}
