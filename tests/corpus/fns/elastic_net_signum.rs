use autograd::differentiable;

/// Elastic-net penalised least squares for a linear model y ≈ X w (rows as arrays).
#[differentiable]
pub fn elastic_net_signum(w: &[f64], #[constant] xs: &[[f64; 3]], #[constant] y: &[f64], #[constant] l1: f64, #[constant] l2: f64) -> f64 {
    let mut loss = 0.0;
    for (row, &target) in xs.iter().zip(y) {
        let pred: f64 = row.iter().zip(w).map(|(a, b)| a * b).sum();
        loss += 0.5 * (pred - target).powi(2);
    }
    let l1_term: f64 = w.iter().map(|v| v.abs()).sum();
    let l2_term: f64 = w.iter().map(|v| v * v).sum();
    loss / y.len() as f64 + l1 * l1_term + 0.5 * l2 * l2_term
}

pub fn check() -> Result<(), String> {
    let xs = [[1.0, 0.5, -0.2], [0.3, -1.0, 0.8], [2.0, 0.1, 0.4], [-0.5, 0.7, 1.0]];
    let y = [0.8, -0.4, 1.9, 0.5];
    for w in [vec![0.4, -0.3, 0.2], vec![1.0, 0.5, -0.7]] {
        let (v, g) = elastic_net_signum_grad(&w, &xs, &y, 0.01, 0.1);
        crate::support::same_value("enet", v, elastic_net_signum(&w, &xs, &y, 0.01, 0.1))?;
        let want = crate::support::fd_grad(|q| elastic_net_signum(q, &xs, &y, 0.01, 0.1), &w);
        crate::support::close("elastic_net_signum", &g, &want, 1e-6)?;
    }
    Ok(())
}
