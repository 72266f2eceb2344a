use autograd::differentiable;

/// Soft-margin SVM objective with a squared hinge, data as feature rows.
#[differentiable]
pub fn hinge_svm(w: &[f64], b: f64, #[constant] x: &[[f64; 3]], #[constant] y: &[f64], #[constant] c: f64) -> f64 {
    let mut loss = 0.0;
    for (i, row) in x.iter().enumerate() {
        let score = row[0] * w[0] + row[1] * w[1] + row[2] * w[2] + b;
        let margin = 1.0 - y[i] * score;
        if margin > 0.0 {
            loss += margin * margin;
        }
    }
    0.5 * w.iter().map(|wi| wi * wi).sum::<f64>() + c * loss
}

pub fn check() -> Result<(), String> {
    let x = [[1.0, 0.5, -0.2], [-0.3, 1.2, 0.8], [0.7, -1.0, 0.1], [-1.1, -0.4, 0.6]];
    let y = [1.0, -1.0, 1.0, -1.0];
    let p = [0.3, -0.2, 0.5, 0.05];
    let f = |q: &[f64]| hinge_svm(&q[..3], q[3], &x, &y, 2.0);
    let (v, gw, gb) = hinge_svm_grad(&p[..3], p[3], &x, &y, 2.0);
    crate::support::same_value("svm", v, f(&p))?;
    let mut got = gw.clone();
    got.push(gb);
    crate::support::close("hinge_svm", &got, &crate::support::fd_grad(f, &p), 1e-6)
}
