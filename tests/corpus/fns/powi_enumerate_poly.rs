use autograd::differentiable;

/// Taylor-like polynomial Σ cᵢ xⁱ / i! with coefficients from `enumerate`.
#[differentiable]
pub fn powi_enumerate_poly(c: &[f64], x: f64) -> f64 {
    let mut fact = 1.0;
    let mut total = 0.0;
    for (i, ci) in c.iter().enumerate() {
        if i > 0 {
            fact *= i as f64;
        }
        total += ci * x.powi(i as i32) / fact;
    }
    total
}

pub fn check() -> Result<(), String> {
    for (c, x) in [(vec![1.0, -2.0, 0.5, 0.25], 1.3), (vec![0.3, 0.1, -0.7, 1.0, 2.0], -0.8)] {
        let (v, gc, gx) = powi_enumerate_poly_grad(&c, x);
        crate::support::same_value("poly", v, powi_enumerate_poly(&c, x))?;
        let n = c.len();
        let mut p = c.clone();
        p.push(x);
        let want = crate::support::fd_grad(|q| powi_enumerate_poly(&q[..n], q[n]), &p);
        let mut got = gc.clone();
        got.push(gx);
        crate::support::close("powi_enumerate_poly", &got, &want, 1e-6)?;
    }
    Ok(())
}
