use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// One hidden layer with tanh, squared error against a target.
#[differentiable]
pub fn mlp_forward(w1: &DMatrix<f64>, b1: &DVector<f64>, w2: &DVector<f64>, #[constant] x: &DVector<f64>, #[constant] y: f64) -> f64 {
    let h = (w1 * x + b1).map(|v| v.tanh());
    let out = w2.dot(&h);
    (out - y).powi(2)
}

pub fn check() -> Result<(), String> {
    let x = DVector::from_vec(vec![0.5, -1.0, 2.0]);
    let w1 = DMatrix::from_row_slice(2, 3, &[0.1, 0.2, -0.1, 0.3, -0.2, 0.05]);
    let b1 = DVector::from_vec(vec![0.01, -0.02]);
    let w2 = DVector::from_vec(vec![0.7, -0.4]);
    for y in [0.3, -1.0] {
        let (v, gw1, gb1, gw2) = mlp_forward_grad(&w1, &b1, &w2, &x, y);
        crate::support::same_value("mlp", v, mlp_forward(&w1, &b1, &w2, &x, y))?;
        let mut p: Vec<f64> = w1.iter().copied().collect();
        p.extend(b1.iter());
        p.extend(w2.iter());
        let want = crate::support::fd_grad(
            |q| mlp_forward(&DMatrix::from_column_slice(2, 3, &q[..6]), &DVector::from_column_slice(&q[6..8]), &DVector::from_column_slice(&q[8..]), &x, y),
            &p,
        );
        let mut got: Vec<f64> = gw1.iter().copied().collect();
        got.extend(gb1.iter());
        got.extend(gw2.iter());
        crate::support::close("mlp_forward", &got, &want, 1e-6)?;
    }
    Ok(())
}
