use autograd::differentiable;

#[differentiable]
pub fn phi(x: f64) -> f64 {
    // Logistic approximation of the normal CDF (Bowling et al.).
    1.0 / (1.0 + (-(1.5976 * x + 0.070566 * x * x * x)).exp())
}

#[differentiable]
pub fn black_scholes(s: f64, k: f64, r: f64, vol: f64, t: f64) -> f64 {
    let sd = vol * t.sqrt();
    let d1 = ((s / k).ln() + (r + 0.5 * vol * vol) * t) / sd;
    s * phi(d1) - k * (-r * t).exp() * phi(d1 - sd)
}

/// Merton jump-diffusion call as a Poisson-weighted series of Black–Scholes prices.
#[differentiable]
pub fn merton_jump_series(s: f64, k: f64, r: f64, vol: f64, t: f64, lambda: f64, mu_j: f64, sig_j: f64, #[constant] terms: usize) -> f64 {
    let kappa = (mu_j + 0.5 * sig_j * sig_j).exp() - 1.0;
    let lam_p = lambda * (1.0 + kappa);
    let mut weight = (-lam_p * t).exp();
    let mut price = 0.0;
    for n in 0..terms {
        if n > 0 {
            weight *= lam_p * t / n as f64;
        }
        let nf = n as f64;
        let vol_n = (vol * vol + nf * sig_j * sig_j / t).sqrt();
        let r_n = r - lambda * kappa + nf * (mu_j + 0.5 * sig_j * sig_j) / t;
        price += weight * black_scholes(s, k, r_n, vol_n, t);
    }
    price
}

pub fn check() -> Result<(), String> {
    for p in [[100.0, 100.0, 0.03, 0.2, 1.0, 0.5, -0.1, 0.15], [80.0, 90.0, 0.01, 0.3, 0.5, 1.0, 0.05, 0.2]] {
        let f = |q: &[f64]| merton_jump_series(q[0], q[1], q[2], q[3], q[4], q[5], q[6], q[7], 15);
        let (v, a, b, c, d, e, g, h, i) = merton_jump_series_grad(p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], 15);
        crate::support::same_value("merton", v, f(&p))?;
        let want = crate::support::fd_grad(f, &p);
        crate::support::close("merton_jump_series", &[a, b, c, d, e, g, h, i], &want, 1e-6)?;
    }
    Ok(())
}
