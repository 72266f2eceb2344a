use autograd::differentiable;

/// Numerically stable softplus, the form from ML codebases, and a loss
/// summing it; the Hessian is diagonal σ(x)(1 − σ(x)).
#[differentiable(hessian)]
pub fn softplus(x: f64) -> f64 {
    if x > 0.0 { x + (-x).exp().ln_1p() } else { x.exp().ln_1p() }
}

#[differentiable(hessian)]
pub fn softplus_stable_hessian(z: &[f64], #[constant] labels: &[f64]) -> f64 {
    let mut loss = 0.0;
    for (zi, yi) in z.iter().zip(labels) {
        // logistic loss in terms of softplus: log(1 + e^{-y z})
        loss += softplus(-yi * zi);
    }
    loss / z.len() as f64
}

pub fn check() -> Result<(), String> {
    let labels = [1.0, -1.0, 1.0, -1.0];
    let z = vec![0.7, 1.3, -2.2, -40.0];
    let (v, g, h) = softplus_stable_hessian_hessian(&z, &labels);
    crate::support::same_value("softplus", v, softplus_stable_hessian(&z, &labels))?;
    let want = crate::support::fd_grad(|q| softplus_stable_hessian(q, &labels), &z);
    crate::support::close("softplus grad", g.as_slice(), &want, 1e-6)?;
    for i in 0..z.len() {
        let s = 1.0 / (1.0 + (labels[i] * z[i]).exp());
        for j in 0..z.len() {
            let expect = if i == j { s * (1.0 - s) / z.len() as f64 } else { 0.0 };
            if (h[(i, j)] - expect).abs() > 1e-12 * expect.abs().max(1e-3) {
                return Err(format!("softplus hessian[{i},{j}] = {} want {expect}", h[(i, j)]));
            }
        }
    }
    Ok(())
}
