use autograd::differentiable;

/// Negative log marginal likelihood of Gaussian-process regression with an
/// RBF kernel (log length-scale, log signal sd, log noise sd). The kernel
/// matrix is factored in place by Cholesky in a row-major Vec, then y is
/// whitened by forward substitution.
#[differentiable]
pub fn gp_nll_cholesky(log_ell: f64, log_sf: f64, log_sn: f64, #[constant] x: &[f64], #[constant] y: &[f64]) -> f64 {
    let n = x.len();
    let (ell, sf2, sn2) = (log_ell.exp(), (2.0 * log_sf).exp(), (2.0 * log_sn).exp());
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..=i {
            let d = x[i] - x[j];
            l[i * n + j] = sf2 * (-0.5 * d * d / (ell * ell)).exp();
        }
        l[i * n + i] += sn2;
    }
    for j in 0..n {
        let mut s = l[j * n + j];
        for k in 0..j {
            s -= l[j * n + k] * l[j * n + k];
        }
        let djj = s.sqrt();
        l[j * n + j] = djj;
        for i in (j + 1)..n {
            let mut s = l[i * n + j];
            for k in 0..j {
                s -= l[i * n + k] * l[j * n + k];
            }
            l[i * n + j] = s / djj;
        }
    }
    let mut alpha = y.to_vec();
    for i in 0..n {
        for k in 0..i {
            alpha[i] -= l[i * n + k] * alpha[k];
        }
        alpha[i] /= l[i * n + i];
    }
    let quad: f64 = alpha.iter().map(|a| a * a).sum();
    let log_det = 2.0 * (0..n).map(|i| l[i * n + i].ln()).sum::<f64>();
    0.5 * quad + 0.5 * log_det + 0.5 * n as f64 * (2.0 * std::f64::consts::PI).ln()
}

pub fn check() -> Result<(), String> {
    let x = [0.0, 0.7, 1.5, 2.1, 3.0, 3.8];
    let y = [0.1, 0.8, 1.0, 0.6, -0.2, -0.9];
    for p in [[0.0, 0.0, -1.5], [0.4, -0.3, -1.0]] {
        let (v, dl, df, dn) = gp_nll_cholesky_grad(p[0], p[1], p[2], &x, &y);
        crate::support::same_value("gp", v, gp_nll_cholesky(p[0], p[1], p[2], &x, &y))?;
        let want = crate::support::fd_grad(|q| gp_nll_cholesky(q[0], q[1], q[2], &x, &y), &p);
        crate::support::close("gp_nll_cholesky", &[dl, df, dn], &want, 1e-6)?;
    }
    Ok(())
}
