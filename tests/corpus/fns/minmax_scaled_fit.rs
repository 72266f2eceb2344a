use autograd::differentiable;
use nalgebra::DVector;

/// Mean squared error of a linear model on min-max scaled features: the
/// feature vector is rescaled to [0, 1] with its own `min()` and `max()`.
#[differentiable]
pub fn minmax_scaled_fit(features: &DVector<f64>, w: f64, b: f64, #[constant] targets: &DVector<f64>) -> f64 {
    let lo = features.min();
    let hi = features.max();
    let span = hi - lo;
    let mut loss = 0.0;
    for (x, t) in features.iter().zip(targets.iter()) {
        let z = (x - lo) / span;
        let pred = w * z + b;
        loss += (pred - t).powi(2);
    }
    loss / features.len() as f64
}

pub fn check() -> Result<(), String> {
    let targets = DVector::from_vec(vec![0.1, 0.5, 0.35, 0.9, 0.7, 0.2]);
    for p in [vec![2.0, 5.5, 4.1, 9.3, 7.7, 3.0, 0.8, 0.05], vec![-1.2, 0.4, 0.1, 2.6, 1.9, -0.6, 1.1, -0.1]] {
        let f = DVector::from_column_slice(&p[..6]);
        let (v, df, dw, db) = minmax_scaled_fit_grad(&f, p[6], p[7], &targets);
        crate::support::same_value("minmax", v, minmax_scaled_fit(&f, p[6], p[7], &targets))?;
        let want = crate::support::fd_grad(|q| minmax_scaled_fit(&DVector::from_column_slice(&q[..6]), q[6], q[7], &targets), &p);
        let mut got: Vec<f64> = df.iter().copied().collect();
        got.push(dw);
        got.push(db);
        crate::support::close("minmax_scaled_fit", &got, &want, 1e-6)?;
    }
    Ok(())
}
