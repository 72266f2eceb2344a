use autograd::differentiable;

/// Mean squared hinge loss of a linear score over the labelled points:
/// label 1 or -1, anything else is unlabelled and skipped.
#[differentiable]
pub fn masked_hinge_loss(w: &[f64], b: f64, #[constant] xs: &[Vec<f64>], #[constant] labels: &[i32]) -> f64 {
    let mut total = 0.0;
    let mut n = 0;
    for i in 0..xs.len() {
        let mut score = b;
        for j in 0..w.len() {
            score += w[j] * xs[i][j];
        }
        total += match labels[i] {
            1 => (1.0 - score).max(0.0).powi(2),
            -1 => (1.0 + score).max(0.0).powi(2),
            _ => continue,
        };
        n += 1;
    }
    total / n.max(1) as f64
}

pub fn check() -> Result<(), String> {
    let xs = vec![vec![0.5, -1.0], vec![1.5, 0.2], vec![-0.3, 0.8], vec![0.9, 0.9], vec![-1.2, 0.1]];
    let labels = [1, -1, 0, 1, -1];
    let p = [0.4, -0.7, 0.15];
    let f = |q: &[f64]| masked_hinge_loss(&q[..2], q[2], &xs, &labels);
    let (v, dw, db) = masked_hinge_loss_grad(&p[..2], p[2], &xs, &labels);
    crate::support::same_value("masked hinge", v, f(&p))?;
    let got = [dw[0], dw[1], db];
    crate::support::close("masked_hinge_loss", &got, &crate::support::fd_grad(f, &p), 1e-6)
}
