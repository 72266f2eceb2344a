use autograd::differentiable;

/// Polynomial with differentiable coefficients, Horner by `rev().fold`.
#[differentiable]
pub fn horner_rev_fold(coeffs: &[f64], x: f64) -> f64 {
    coeffs.iter().rev().fold(0.0, |acc, &c| acc * x + c)
}

pub fn check() -> Result<(), String> {
    for (c, x) in [(vec![1.0, -2.0, 0.5, 0.25], 1.3), (vec![0.3, 0.1, -0.7], -0.8)] {
        let (v, gc, gx) = horner_rev_fold_grad(&c, x);
        crate::support::same_value("horner", v, horner_rev_fold(&c, x))?;
        let n = c.len();
        let mut p = c.clone();
        p.push(x);
        let want = crate::support::fd_grad(|q| horner_rev_fold(&q[..n], q[n]), &p);
        let mut got = gc.clone();
        got.push(gx);
        crate::support::close("horner_rev_fold", &got, &want, 1e-6)?;
    }
    Ok(())
}
