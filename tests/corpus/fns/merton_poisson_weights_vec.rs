use autograd::differentiable;

#[differentiable]
fn bs_put(s: f64, k: f64, r: f64, vol: f64, t: f64) -> f64 {
    let sd = vol * t.sqrt();
    let d1 = ((s / k).ln() + (r + 0.5 * vol * vol) * t) / sd;
    let d2 = d1 - sd;
    k * (-r * t).exp() * autograd::special::norm_cdf(-d2) - s * autograd::special::norm_cdf(-d1)
}

/// Merton jump-diffusion put, truncated series; the Poisson weights are built
/// first into a `Vec::with_capacity` by `push`, then summed against the prices.
#[differentiable]
pub fn merton_poisson_weights_vec(s: f64, vol: f64, lambda: f64, jump_mean: f64, jump_vol: f64, #[constant] k: f64, #[constant] r: f64, #[constant] t: f64) -> f64 {
    const N: usize = 12;
    let kappa = (jump_mean + 0.5 * jump_vol * jump_vol).exp() - 1.0;
    let lt = lambda * (1.0 + kappa) * t;
    let mut weights = Vec::with_capacity(N);
    let mut w = (-lt).exp();
    for n in 0..N {
        if n > 0 {
            w = w * lt / n as f64;
        }
        weights.push(w);
    }
    let mut price = 0.0;
    for (n, w) in weights.iter().enumerate() {
        let nf = n as f64;
        let vol_n = (vol * vol + nf * jump_vol * jump_vol / t).sqrt();
        let r_n = r - lambda * kappa + nf * (1.0 + kappa).ln() / t;
        price += w * bs_put(s, k, r_n, vol_n, t);
    }
    price
}

pub fn check() -> Result<(), String> {
    for p in [[100.0, 0.2, 0.8, -0.1, 0.2], [90.0, 0.15, 0.3, 0.05, 0.1]] {
        let f = |q: &[f64]| merton_poisson_weights_vec(q[0], q[1], q[2], q[3], q[4], 100.0, 0.02, 0.75);
        let (v, a, b, c, d, e) = merton_poisson_weights_vec_grad(p[0], p[1], p[2], p[3], p[4], 100.0, 0.02, 0.75);
        crate::support::same_value("merton", v, f(&p))?;
        crate::support::close("merton_poisson_weights_vec", &[a, b, c, d, e], &crate::support::fd_grad(f, &p), 1e-6)?;
    }
    Ok(())
}
