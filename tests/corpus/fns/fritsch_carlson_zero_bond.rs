use autograd::differentiable;

/// Price of a semi-annual fixed-coupon bond off a zero curve interpolated
/// by a monotone cubic Hermite spline (Fritsch–Carlson) through the pillar
/// zero rates (continuously compounded).
#[differentiable]
pub fn fritsch_carlson_zero_bond(zeros: &[f64], #[constant] pillars: &[f64], #[constant] coupon: f64, #[constant] maturity: f64) -> f64 {
    let n = pillars.len();
    let mut delta = Vec::with_capacity(n - 1);
    for i in 0..n - 1 {
        delta.push((zeros[i + 1] - zeros[i]) / (pillars[i + 1] - pillars[i]));
    }
    let mut m = vec![0.0; n];
    m[0] = delta[0];
    m[n - 1] = delta[n - 2];
    for i in 1..n - 1 {
        m[i] = if delta[i - 1] * delta[i] <= 0.0 { 0.0 } else { 0.5 * (delta[i - 1] + delta[i]) };
    }
    for i in 0..n - 1 {
        if delta[i] == 0.0 {
            m[i] = 0.0;
            m[i + 1] = 0.0;
        } else {
            let a = m[i] / delta[i];
            let b = m[i + 1] / delta[i];
            let h = a.hypot(b);
            if h > 3.0 {
                m[i] = 3.0 * a / h * delta[i];
                m[i + 1] = 3.0 * b / h * delta[i];
            }
        }
    }
    let mut pv = 0.0;
    let mut t = 0.5;
    while t <= maturity + 1e-9 {
        let k = pillars.partition_point(|&p| p <= t).clamp(1, n - 1) - 1;
        let h = pillars[k + 1] - pillars[k];
        let s = (t - pillars[k]) / h;
        let h00 = (1.0 + 2.0 * s) * (1.0 - s) * (1.0 - s);
        let h10 = s * (1.0 - s) * (1.0 - s);
        let h01 = s * s * (3.0 - 2.0 * s);
        let h11 = s * s * (s - 1.0);
        let z = h00 * zeros[k] + h10 * h * m[k] + h01 * zeros[k + 1] + h11 * h * m[k + 1];
        let cash = if (t - maturity).abs() < 1e-9 { 100.0 + 50.0 * coupon } else { 50.0 * coupon };
        pv += cash * (-z * t).exp();
        t += 0.5;
    }
    pv
}

pub fn check() -> Result<(), String> {
    let pillars = [0.5, 1.0, 2.0, 3.0, 5.0, 7.0, 10.0];
    for zeros in [
        vec![0.020, 0.022, 0.025, 0.027, 0.030, 0.031, 0.0315],
        vec![0.030, 0.035, 0.036, 0.033, 0.030, 0.029, 0.0295],
        vec![0.010, 0.011, 0.030, 0.031, 0.032, 0.040, 0.041],
    ] {
        let (v, g) = fritsch_carlson_zero_bond_grad(&zeros, &pillars, 0.04, 8.0);
        crate::support::same_value("fc_bond", v, fritsch_carlson_zero_bond(&zeros, &pillars, 0.04, 8.0))?;
        let want = crate::support::fd_grad(|q| fritsch_carlson_zero_bond(q, &pillars, 0.04, 8.0), &zeros);
        crate::support::close("fritsch_carlson_zero_bond", &g, &want, 1e-6)?;
    }
    Ok(())
}
