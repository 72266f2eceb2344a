use autograd::differentiable;

/// European call by Monte Carlo over a fixed set of normal draws, each used
/// with its antithetic partner; pathwise delta, vega and rho from the gradient.
#[differentiable]
pub fn antithetic_mc_call(
    s0: f64,
    sigma: f64,
    r: f64,
    #[constant] t: f64,
    #[constant] strike: f64,
    #[constant] normals: &[f64],
) -> f64 {
    let drift = (r - 0.5 * sigma * sigma) * t;
    let vol = sigma * t.sqrt();
    let mut total = 0.0;
    for &z in normals {
        for sign in [1.0, -1.0] {
            let st = s0 * (drift + sign * vol * z).exp();
            total += (st - strike).max(0.0);
        }
    }
    (-r * t).exp() * total / (2 * normals.len()) as f64
}

pub fn check() -> Result<(), String> {
    let normals = [0.3, -1.2, 0.8, 1.5, -0.45, 2.1, -0.7];
    for x in [[100.0, 0.2, 0.03], [95.0, 0.35, 0.01]] {
        let (v, ds, dv, dr) = antithetic_mc_call_grad(x[0], x[1], x[2], 1.0, 100.0, &normals);
        crate::support::same_value("mc", v, antithetic_mc_call(x[0], x[1], x[2], 1.0, 100.0, &normals))?;
        let want = crate::support::fd_grad(|q| antithetic_mc_call(q[0], q[1], q[2], 1.0, 100.0, &normals), &x);
        crate::support::close("antithetic_mc_call", &[ds, dv, dr], &want, 1e-6)?;
    }
    Ok(())
}
