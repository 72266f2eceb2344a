use autograd::differentiable;

/// Monte Carlo price of an arithmetic Asian call with fixed normal draws,
/// a sigmoid-smoothed payoff.
#[differentiable]
pub fn arithmetic_asian_mc(spot: f64, vol: f64, rate: f64, #[constant] strike: f64, #[constant] normals: &[Vec<f64>]) -> f64 {
    let dt = 1.0 / 12.0;
    let drift = (rate - 0.5 * vol * vol) * dt;
    let diffusion = vol * dt.sqrt();
    let mut total = 0.0;
    for path in normals.iter() {
        let mut s = spot;
        let mut running = 0.0;
        for z in path {
            s *= (drift + diffusion * z).exp();
            running += s;
        }
        let avg = running / path.len() as f64;
        let x = (avg - strike) / 0.5;
        total += (avg - strike) / (1.0 + (-x).exp());
    }
    (-rate).exp() * total / normals.len() as f64
}

pub fn check() -> Result<(), String> {
    let normals = vec![vec![0.3, -1.2, 0.8, 0.1], vec![-0.5, 0.4, 1.6, -0.9], vec![1.1, 0.2, -0.3, 0.7]];
    let p = [100.0, 0.25, 0.03];
    let f = |q: &[f64]| arithmetic_asian_mc(q[0], q[1], q[2], 100.0, &normals);
    let (v, ds, dv, dr) = arithmetic_asian_mc_grad(p[0], p[1], p[2], 100.0, &normals);
    crate::support::same_value("asian mc", v, f(&p))?;
    crate::support::close("arithmetic_asian_mc", &[ds, dv, dr], &crate::support::fd_grad(f, &p), 1e-5)
}
