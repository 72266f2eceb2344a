use autograd::differentiable;
use nalgebra::DVector;

/// Entropy of a probability vector by iterating a DVector.
#[differentiable]
pub fn dvector_iter_sum(p: &DVector<f64>) -> f64 {
    -p.iter().map(|&pi| pi * pi.ln()).sum::<f64>()
}

pub fn check() -> Result<(), String> {
    let x = vec![0.2, 0.5, 0.3];
    let p = DVector::from_vec(x.clone());
    let (v, g) = dvector_iter_sum_grad(&p);
    crate::support::same_value("entropy", v, dvector_iter_sum(&p))?;
    let want = crate::support::fd_grad(|q| dvector_iter_sum(&DVector::from_column_slice(q)), &x);
    crate::support::close("dvector_iter_sum", g.as_slice(), &want, 1e-6)
}
