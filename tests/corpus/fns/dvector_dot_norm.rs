use autograd::differentiable;
use nalgebra::DVector;

/// Cosine similarity of two vectors.
#[differentiable]
pub fn dvector_dot_norm(a: &DVector<f64>, b: &DVector<f64>) -> f64 {
    a.dot(b) / (a.norm() * b.norm())
}

pub fn check() -> Result<(), String> {
    for (a, b) in [(vec![1.0, 2.0, 3.0], vec![0.5, -1.0, 2.0]), (vec![0.3, 0.1], vec![-2.0, 0.7])] {
        let (va, vb) = (DVector::from_vec(a.clone()), DVector::from_vec(b.clone()));
        let (v, ga, gb) = dvector_dot_norm_grad(&va, &vb);
        crate::support::same_value("cos", v, dvector_dot_norm(&va, &vb))?;
        let n = a.len();
        let mut p = a.clone();
        p.extend(&b);
        let want = crate::support::fd_grad(|q| dvector_dot_norm(&DVector::from_column_slice(&q[..n]), &DVector::from_column_slice(&q[n..])), &p);
        let mut got: Vec<f64> = ga.iter().copied().collect();
        got.extend(gb.iter());
        crate::support::close("dvector_dot_norm", &got, &want, 1e-6)?;
    }
    Ok(())
}
