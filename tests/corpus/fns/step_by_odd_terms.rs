use autograd::differentiable;

/// Simpson's rule on samples: odd points weighted 4, even interior 2.
#[differentiable]
pub fn step_by_odd_terms(f: &[f64], #[constant] h: f64) -> f64 {
    let n = f.len() - 1;
    let odd: f64 = f.iter().skip(1).step_by(2).sum();
    let even: f64 = f[1..n].iter().skip(1).step_by(2).sum();
    h / 3.0 * (f[0] + 4.0 * odd + 2.0 * even + f[n])
}

pub fn check() -> Result<(), String> {
    for x in [vec![1.0, 1.2, 1.5, 1.4, 1.1], vec![0.0, 0.5, 0.8, 0.9, 0.7, 0.4, 0.1]] {
        let (v, g) = step_by_odd_terms_grad(&x, 0.25);
        crate::support::same_value("simpson", v, step_by_odd_terms(&x, 0.25))?;
        let want = crate::support::fd_grad(|q| step_by_odd_terms(q, 0.25), &x);
        crate::support::close("step_by_odd_terms", &g, &want, 1e-6)?;
    }
    Ok(())
}
