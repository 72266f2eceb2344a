use autograd::differentiable;
use nalgebra::DVector;

/// Soft k-means objective in one dimension: for each point, a softmin (at
/// temperature τ) of its squared distances to the centres, stabilised by
/// subtracting the hard minimum `d.min()`; averaged over the points.
#[differentiable]
pub fn soft_kmeans_softmin(centers: &DVector<f64>, #[constant] points: &[f64], #[constant] temperature: f64) -> f64 {
    let mut total = 0.0;
    for &x in points {
        let d = centers.map(|c| (x - c).powi(2));
        let m = d.min();
        let s: f64 = d.iter().map(|di| (-(di - m) / temperature).exp()).sum();
        total += m - temperature * s.ln();
    }
    total / points.len() as f64
}

pub fn check() -> Result<(), String> {
    let points = [-2.1, -1.7, -1.2, 0.1, 0.4, 0.3, 2.2, 2.9, 1.8, 2.5];
    for c in [vec![-1.5, 0.2, 2.0], vec![-1.0, 1.0, 3.0]] {
        let centers = DVector::from_vec(c.clone());
        let (v, dc) = soft_kmeans_softmin_grad(&centers, &points, 0.5);
        crate::support::same_value("soft_kmeans", v, soft_kmeans_softmin(&centers, &points, 0.5))?;
        let want = crate::support::fd_grad(|q| soft_kmeans_softmin(&DVector::from_column_slice(q), &points, 0.5), &c);
        let got: Vec<f64> = dc.iter().copied().collect();
        crate::support::close("soft_kmeans_softmin", &got, &want, 1e-6)?;
    }
    Ok(())
}
