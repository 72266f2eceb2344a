use autograd::differentiable;

/// Mean binary cross-entropy of probabilities predicted by a logistic model.
#[differentiable]
pub fn binary_cross_entropy(w: &[f64], b: f64, #[constant] xs: &[[f64; 2]], #[constant] ys: &[f64]) -> f64 {
    let mut loss = 0.0;
    for (x, &y) in xs.iter().zip(ys) {
        let z = w[0] * x[0] + w[1] * x[1] + b;
        let p = 1.0 / (1.0 + (-z).exp());
        loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
    }
    loss / ys.len() as f64
}

pub fn check() -> Result<(), String> {
    let xs = [[0.5, 1.0], [-1.0, 0.3], [2.0, -0.5], [0.0, 0.0]];
    let ys = [1.0, 0.0, 1.0, 0.0];
    for p in [[0.3, -0.2, 0.1], [1.0, 0.5, -0.4]] {
        let (v, dw, db) = binary_cross_entropy_grad(&p[..2], p[2], &xs, &ys);
        crate::support::same_value("bce", v, binary_cross_entropy(&p[..2], p[2], &xs, &ys))?;
        let want = crate::support::fd_grad(|q| binary_cross_entropy(&q[..2], q[2], &xs, &ys), &p);
        let mut got = dw;
        got.push(db);
        crate::support::close("binary_cross_entropy", &got, &want, 1e-6)?;
    }
    Ok(())
}
