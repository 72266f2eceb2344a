use autograd::differentiable;
use nalgebra::DVector;

/// Exponential-decay model residual sum of squares, parameters in a DVector.
#[differentiable]
pub fn gauss_newton_residuals(theta: &DVector<f64>, #[constant] t: &[f64], #[constant] y: &[f64]) -> f64 {
    let mut ssr = 0.0;
    for i in 0..t.len() {
        let model = theta[0] * (-theta[1] * t[i]).exp() + theta[2];
        let r = y[i] - model;
        ssr += r * r;
    }
    ssr
}

pub fn check() -> Result<(), String> {
    let t = [0.0, 0.5, 1.0, 2.0, 4.0];
    let y = [3.1, 2.2, 1.7, 1.1, 0.6];
    for x in [vec![3.0, 0.7, 0.4], vec![2.5, 1.2, 0.1]] {
        let th = DVector::from_vec(x.clone());
        let (v, g) = gauss_newton_residuals_grad(&th, &t, &y);
        crate::support::same_value("ssr", v, gauss_newton_residuals(&th, &t, &y))?;
        let want = crate::support::fd_grad(|q| gauss_newton_residuals(&DVector::from_column_slice(q), &t, &y), &x);
        crate::support::close("gauss_newton_residuals", g.as_slice(), &want, 1e-6)?;
    }
    Ok(())
}
