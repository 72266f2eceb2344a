use autograd::differentiable;

/// Scaled dot-product attention of one query over keys and values held as
/// `Vec<Vec<f64>>`, the output accumulated through `iter_mut().zip(..)`;
/// loss is the squared distance of the output to a target.
#[differentiable]
pub fn attention_vecvec_softmax(
    q: &[f64],
    #[constant] keys: &Vec<Vec<f64>>,
    #[constant] values: &Vec<Vec<f64>>,
    #[constant] target: &[f64],
) -> f64 {
    let d = q.len() as f64;
    let scores: Vec<f64> = keys
        .iter()
        .map(|k| q.iter().zip(k).map(|(a, b)| a * b).sum::<f64>() / d.sqrt())
        .collect();
    let m = scores.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let exps: Vec<f64> = scores.iter().map(|s| (s - m).exp()).collect();
    let z: f64 = exps.iter().sum();
    let mut out = vec![0.0; values[0].len()];
    for (e, v) in exps.iter().zip(values.iter()) {
        for (o, vi) in out.iter_mut().zip(v.iter()) {
            *o += e / z * vi;
        }
    }
    out.iter().zip(target).map(|(o, t)| (o - t).powi(2)).sum()
}

pub fn check() -> Result<(), String> {
    let keys = vec![vec![0.5, -0.2, 0.1], vec![-0.3, 0.8, 0.4], vec![0.9, 0.1, -0.7], vec![0.0, 0.3, 0.6]];
    let values = vec![vec![1.0, 0.0], vec![0.2, 0.9], vec![-0.5, 0.4], vec![0.3, -0.8]];
    let target = [0.1, 0.2];
    for q in [vec![0.4, -1.0, 0.7], vec![1.5, 0.3, -0.2]] {
        let (v, g) = attention_vecvec_softmax_grad(&q, &keys, &values, &target);
        crate::support::same_value("attn", v, attention_vecvec_softmax(&q, &keys, &values, &target))?;
        let want = crate::support::fd_grad(|p| attention_vecvec_softmax(p, &keys, &values, &target), &q);
        crate::support::close("attention_vecvec_softmax", &g, &want, 1e-6)?;
    }
    Ok(())
}
