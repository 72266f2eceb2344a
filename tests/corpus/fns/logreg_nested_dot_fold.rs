use autograd::differentiable;

/// Mean logistic loss (labels ±1) plus an L2 penalty, the whole data term a
/// `fold` over rows whose score is itself a dot-product chain.
#[differentiable]
pub fn logreg_nested_dot_fold(w: &[f64], b: f64, #[constant] xs: &[Vec<f64>], #[constant] ys: &[f64], #[constant] l2: f64) -> f64 {
    let n = ys.len() as f64;
    let data_loss = xs.iter().zip(ys).fold(0.0, |acc, (x, &y)| {
        let z: f64 = w.iter().zip(x).map(|(wi, xi)| wi * xi).sum::<f64>() + b;
        // softplus(-y z), written so that exp never overflows
        let m = -y * z;
        acc + if m > 0.0 { m + (-m).exp().ln_1p() } else { m.exp().ln_1p() }
    });
    data_loss / n + 0.5 * l2 * w.iter().map(|v| v * v).sum::<f64>()
}

pub fn check() -> Result<(), String> {
    let xs = vec![vec![1.0, 0.5, -0.2], vec![-0.3, 1.2, 0.8], vec![0.7, -1.0, 0.1], vec![2.0, 0.3, -1.5]];
    let ys = [1.0, -1.0, 1.0, -1.0];
    for (w, b) in [(vec![0.1, -0.2, 0.3], 0.05), (vec![1.5, -0.7, -2.0], -0.4)] {
        let (v, gw, gb) = logreg_nested_dot_fold_grad(&w, b, &xs, &ys, 0.1);
        crate::support::same_value("logreg", v, logreg_nested_dot_fold(&w, b, &xs, &ys, 0.1))?;
        let mut p = w.clone();
        p.push(b);
        let want = crate::support::fd_grad(|q| logreg_nested_dot_fold(&q[..3], q[3], &xs, &ys, 0.1), &p);
        let mut got = gw.clone();
        got.push(gb);
        crate::support::close("logreg_nested_dot_fold", &got, &want, 1e-6)?;
    }
    Ok(())
}
