use autograd::differentiable;

#[differentiable]
pub fn for_ref_pattern(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for &v in x {
        acc += v.tanh() * v;
    }
    acc
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = for_ref_pattern_grad(&x);
        crate::support::same_value("for_ref_pattern", v, for_ref_pattern(&x))?;
        let want = crate::support::fd_grad(|q| for_ref_pattern(q), &x);
        crate::support::close("for_ref_pattern", &g, &want, 1e-6)?;
    }
    Ok(())
}
