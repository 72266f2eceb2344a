use autograd::differentiable;
use nalgebra::DVector;

/// A diagonal tanh layer against targets: ||tanh(a ∘ x + b) - y||².
#[differentiable]
pub fn dvector_component_tanh(a: &DVector<f64>, b: &DVector<f64>, #[constant] x: &DVector<f64>, #[constant] y: &DVector<f64>) -> f64 {
    let h = (a.component_mul(x) + b).map(|v| v.tanh());
    let r = h - y;
    r.norm_squared()
}

pub fn check() -> Result<(), String> {
    let x = DVector::from_vec(vec![0.5, -1.0, 2.0]);
    let y = DVector::from_vec(vec![0.2, -0.3, 0.9]);
    for (a, b) in [(vec![0.3, 0.1, -0.2], vec![0.1, 0.0, 0.2]), (vec![1.0, -1.0, 0.5], vec![-0.3, 0.3, 0.0])] {
        let (va, vb) = (DVector::from_vec(a.clone()), DVector::from_vec(b.clone()));
        let (v, ga, gb) = dvector_component_tanh_grad(&va, &vb, &x, &y);
        crate::support::same_value("tanh", v, dvector_component_tanh(&va, &vb, &x, &y))?;
        let mut p = a.clone();
        p.extend(&b);
        let want = crate::support::fd_grad(|q| dvector_component_tanh(&DVector::from_column_slice(&q[..3]), &DVector::from_column_slice(&q[3..]), &x, &y), &p);
        let mut got: Vec<f64> = ga.iter().copied().collect();
        got.extend(gb.iter());
        crate::support::close("dvector_component_tanh", &got, &want, 1e-6)?;
    }
    Ok(())
}
