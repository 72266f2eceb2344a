use autograd::differentiable;
use nalgebra::DVector;

/// Variance of a portfolio whose weights are the softmax of raw scores,
/// under a one-factor covariance (idiosyncratic vols plus betas to a
/// market with 20% vol); the weights built with `DVector::from_iterator`.
#[differentiable]
pub fn dvector_from_iterator_norm(scores: &[f64], #[constant] vols: &[f64], #[constant] beta: &[f64]) -> f64 {
    let n = scores.len();
    let e = DVector::from_iterator(n, scores.iter().map(|s| s.exp()));
    let w = &e / e.sum();
    let b = DVector::from_column_slice(beta);
    let idio: f64 = w.iter().zip(vols).map(|(wi, v)| wi * wi * v * v).sum();
    let factor = w.dot(&b);
    idio + 0.04 * factor * factor
}

pub fn check() -> Result<(), String> {
    let vols = [0.2, 0.3, 0.15, 0.25];
    let beta = [1.1, 0.8, 1.3, 0.6];
    for s in [vec![0.1, -0.3, 0.5, 0.0], vec![1.0, 0.2, -0.8, 0.4]] {
        let (v, g) = dvector_from_iterator_norm_grad(&s, &vols, &beta);
        crate::support::same_value("dvec", v, dvector_from_iterator_norm(&s, &vols, &beta))?;
        let want = crate::support::fd_grad(|q| dvector_from_iterator_norm(q, &vols, &beta), &s);
        crate::support::close("dvector_from_iterator_norm", &g, &want, 1e-6)?;
    }
    Ok(())
}
