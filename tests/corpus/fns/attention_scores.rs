use autograd::differentiable;
use nalgebra::DVector;

/// Single-query attention: softmax of dot products, weighted values, summed.
#[differentiable]
pub fn attention_scores(query: &DVector<f64>, keys: &[DVector<f64>], #[constant] values: &[f64]) -> f64 {
    let scale = 1.0 / (query.len() as f64).sqrt();
    let scores: Vec<f64> = keys.iter().map(|k| query.dot(k) * scale).collect();
    let max = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let weights: Vec<f64> = scores.iter().map(|s| (s - max).exp()).collect();
    let z: f64 = weights.iter().sum();
    weights.iter().zip(values).map(|(w, v)| w / z * v).sum()
}

pub fn check() -> Result<(), String> {
    let q = DVector::from_vec(vec![0.5, -0.2, 1.0]);
    let values = [1.0, -2.0];
    let keys = vec![DVector::from_vec(vec![0.1, 0.4, 0.3]), DVector::from_vec(vec![-0.5, 0.2, 0.9])];
    let (v, dq, _dk) = attention_scores_grad(&q, &keys, &values);
    crate::support::same_value("attn", v, attention_scores(&q, &keys, &values))?;
    let want = crate::support::fd_grad(|p| attention_scores(&DVector::from_column_slice(p), &keys, &values), q.as_slice());
    crate::support::close("attention_scores", dq.as_slice(), &want, 1e-6)
}
