use autograd::differentiable;

/// Hyper-parameter sensitivity by unrolled training: a fixed number of plain
/// gradient-descent steps on a ridge-regularised least-squares fit, then the
/// validation error of the trained weights.
#[differentiable]
pub fn unrolled_gd_validation_loss(
    log_lambda: f64,
    lr: f64,
    #[constant] x_train: &[Vec<f64>],
    #[constant] y_train: &[f64],
    #[constant] x_val: &[Vec<f64>],
    #[constant] y_val: &[f64],
) -> f64 {
    let lambda = log_lambda.exp();
    let d = x_train[0].len();
    let n = y_train.len() as f64;
    let mut w = vec![0.0; d];
    for _epoch in 0..25 {
        let mut grad = vec![0.0; d];
        for (xi, &yi) in x_train.iter().zip(y_train) {
            let pred: f64 = xi.iter().zip(&w).map(|(a, b)| a * b).sum();
            let r = pred - yi;
            for (g, &xij) in grad.iter_mut().zip(xi.iter()) {
                *g += 2.0 * r * xij / n;
            }
        }
        for (wj, gj) in w.iter_mut().zip(&grad) {
            *wj -= lr * (gj + 2.0 * lambda * *wj);
        }
    }
    let mut loss = 0.0;
    for (xi, &yi) in x_val.iter().zip(y_val) {
        let pred: f64 = xi.iter().zip(&w).map(|(a, b)| a * b).sum();
        loss += (pred - yi).powi(2);
    }
    loss / y_val.len() as f64
}

pub fn check() -> Result<(), String> {
    let x_train = vec![
        vec![1.0, 0.2, -0.5],
        vec![0.3, 1.1, 0.4],
        vec![-0.7, 0.5, 1.0],
        vec![0.9, -0.4, 0.2],
        vec![0.1, 0.8, -0.9],
    ];
    let y_train = [0.9, 1.4, 0.6, 0.3, -0.2];
    let x_val = vec![vec![0.5, 0.5, 0.0], vec![-0.2, 1.0, 0.7], vec![1.2, -0.1, -0.3]];
    let y_val = [0.8, 1.3, 0.5];
    for p in [[-2.0, 0.1], [-0.5, 0.25]] {
        let (v, dl, dlr) = unrolled_gd_validation_loss_grad(p[0], p[1], &x_train, &y_train, &x_val, &y_val);
        crate::support::same_value("unrolled", v, unrolled_gd_validation_loss(p[0], p[1], &x_train, &y_train, &x_val, &y_val))?;
        let want = crate::support::fd_grad(|q| unrolled_gd_validation_loss(q[0], q[1], &x_train, &y_train, &x_val, &y_val), &p);
        crate::support::close("unrolled_gd_validation_loss", &[dl, dlr], &want, 1e-6)?;
    }
    Ok(())
}
