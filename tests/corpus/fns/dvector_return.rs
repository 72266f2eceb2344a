use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// A linear layer with tanh, returning the activations.
#[differentiable]
pub fn dvector_return(w: &DMatrix<f64>, x: &DVector<f64>) -> DVector<f64> {
    (w * x).map(|v| v.tanh())
}

pub fn check() -> Result<(), String> {
    let wv = vec![0.1, -0.4, 0.3, 0.2, 0.5, -0.1];
    let xv = vec![1.0, -0.5, 2.0];
    let mut p = wv.clone();
    p.extend(&xv);
    let plain = |q: &[f64]| dvector_return(&DMatrix::from_column_slice(2, 3, &q[..6]), &DVector::from_column_slice(&q[6..])).as_slice().to_vec();
    let jac = crate::support::fd_jacobian(plain, &p);
    let (w, x) = (DMatrix::from_column_slice(2, 3, &wv), DVector::from_vec(xv));
    for k in 0..2 {
        let (value, pullback) = dvector_return_vjp(&w, &x);
        let mut seed = DVector::zeros(2);
        seed[k] = 1.0;
        let (dw, dx) = pullback(seed);
        crate::support::same_value("layer", value[k], plain(&p)[k])?;
        let mut got: Vec<f64> = dw.iter().copied().collect();
        got.extend(dx.iter());
        crate::support::close(&format!("dvector_return row {k}"), &got, &jac[k], 1e-6)?;
    }
    Ok(())
}
