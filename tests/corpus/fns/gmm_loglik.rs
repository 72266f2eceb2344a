use autograd::differentiable;

/// Negative log-likelihood of a two-component 1-D Gaussian mixture.
#[differentiable]
pub fn gmm_loglik(mix: f64, mu1: f64, mu2: f64, s1: f64, s2: f64, #[constant] xs: &[f64]) -> f64 {
    let norm = |x: f64, mu: f64, s: f64| {
        let z = (x - mu) / s;
        (-0.5 * z * z).exp() / (s * (2.0 * std::f64::consts::PI).sqrt())
    };
    let mut nll = 0.0;
    for &x in xs {
        let p = mix * norm(x, mu1, s1) + (1.0 - mix) * norm(x, mu2, s2);
        nll -= p.ln();
    }
    nll
}

pub fn check() -> Result<(), String> {
    let xs = [-1.2, -0.8, 0.1, 1.9, 2.3, 2.0, -1.0];
    let p = [0.4, -1.0, 2.0, 0.5, 0.7];
    let f = |q: &[f64]| gmm_loglik(q[0], q[1], q[2], q[3], q[4], &xs);
    let (v, a, b, c, d, e) = gmm_loglik_grad(p[0], p[1], p[2], p[3], p[4], &xs);
    crate::support::same_value("gmm", v, f(&p))?;
    crate::support::close("gmm_loglik", &[a, b, c, d, e], &crate::support::fd_grad(f, &p), 1e-6)
}
