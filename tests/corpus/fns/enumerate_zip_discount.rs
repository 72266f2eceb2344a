use autograd::differentiable;

/// Discounted weighted sum, period index from `enumerate` over a zip.
#[differentiable]
pub fn enumerate_zip_discount(cash: &[f64], weights: &[f64], rate: f64) -> f64 {
    cash.iter()
        .zip(weights)
        .enumerate()
        .map(|(i, (c, w))| c * w / (1.0 + rate).powi(i as i32 + 1))
        .sum()
}

pub fn check() -> Result<(), String> {
    for (c, w, r) in [(vec![5.0, 5.0, 105.0], vec![1.0, 0.9, 0.8], 0.04), (vec![1.0, 2.0], vec![0.5, 1.5], 0.1)] {
        let (v, gc, gw, gr) = enumerate_zip_discount_grad(&c, &w, r);
        crate::support::same_value("disc", v, enumerate_zip_discount(&c, &w, r))?;
        let n = c.len();
        let mut p = c.clone();
        p.extend(&w);
        p.push(r);
        let want = crate::support::fd_grad(|q| enumerate_zip_discount(&q[..n], &q[n..2 * n], q[2 * n]), &p);
        let mut got = gc.clone();
        got.extend(&gw);
        got.push(gr);
        crate::support::close("enumerate_zip_discount", &got, &want, 1e-6)?;
    }
    Ok(())
}
