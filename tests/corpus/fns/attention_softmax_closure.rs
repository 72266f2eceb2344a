use autograd::differentiable;

/// Single-query attention: scores by a `let` closure called per key,
/// softmax into a `Vec`, and the weighted sum of values.
#[differentiable]
pub fn attention_softmax_closure(q: &[f64], keys: &[f64], values: &[f64], #[constant] d: usize) -> f64 {
    let n = keys.len() / d;
    let scale = 1.0 / (d as f64).sqrt();
    let score = |j: usize| {
        let mut s = 0.0;
        for k in 0..d {
            s += q[k] * keys[j * d + k];
        }
        s * scale
    };
    let mut scores = Vec::with_capacity(n);
    for j in 0..n {
        scores.push(score(j));
    }
    let m = scores.iter().cloned().fold(f64::MIN, f64::max);
    let exps: Vec<f64> = scores.iter().map(|s| (s - m).exp()).collect();
    let z: f64 = exps.iter().sum();
    let mut out = 0.0;
    for j in 0..n {
        out += exps[j] / z * values[j];
    }
    out
}

pub fn check() -> Result<(), String> {
    let q = vec![0.5, -0.2];
    let keys = vec![1.0, 0.0, 0.3, 0.8, -0.5, 1.1];
    let values = vec![2.0, -1.0, 0.5];
    let (v, gq, gk, gv) = attention_softmax_closure_grad(&q, &keys, &values, 2);
    crate::support::same_value("attn", v, attention_softmax_closure(&q, &keys, &values, 2))?;
    let p: Vec<f64> = q.iter().chain(&keys).chain(&values).copied().collect();
    let want = crate::support::fd_grad(|x| attention_softmax_closure(&x[0..2], &x[2..8], &x[8..11], 2), &p);
    let got: Vec<f64> = gq.iter().chain(&gk).chain(&gv).copied().collect();
    crate::support::close("attention_softmax_closure", &got, &want, 1e-6)
}
