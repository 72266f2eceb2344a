use autograd::differentiable;

const WEIGHTS: [f64; 4] = [0.1, 0.2, 0.3, 0.4];

#[differentiable]
pub fn zip_dot_sum(x: &[f64]) -> f64 {
    x.iter().zip(WEIGHTS.iter()).map(|(a, w)| a * a * w).sum::<f64>()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = zip_dot_sum_grad(&x);
        crate::support::same_value("zip_dot_sum", v, zip_dot_sum(&x))?;
        let want = crate::support::fd_grad(|q| zip_dot_sum(q), &x);
        crate::support::close("zip_dot_sum", &g, &want, 1e-6)?;
    }
    Ok(())
}
