use autograd::differentiable;

/// A polynomial whose coefficients are the parameters.
#[differentiable]
pub fn poly_coeff_grad(coeffs: &[f64], x: f64) -> f64 {
    let mut result = 0.0;
    let mut power = 1.0;
    for c in coeffs {
        result += c * power;
        power *= x;
    }
    result
}

pub fn check() -> Result<(), String> {
    for (c, x) in [(vec![1.0, -2.0, 0.5, 0.3], 1.3), (vec![0.1, 0.2], -0.7)] {
        let (v, dc, dx) = poly_coeff_grad_grad(&c, x);
        crate::support::same_value("poly", v, poly_coeff_grad(&c, x))?;
        let n = c.len();
        let mut p = c.clone();
        p.push(x);
        let want = crate::support::fd_grad(|q| poly_coeff_grad(&q[..n], q[n]), &p);
        let mut got = dc;
        got.push(dx);
        crate::support::close("poly_coeff_grad", &got, &want, 1e-6)?;
    }
    Ok(())
}
