use autograd::differentiable;

#[derive(Clone, Debug, autograd::Tangent)]
pub struct Curve {
    pub level: f64,
    pub slope: f64,
}

#[derive(Clone, Debug, autograd::Tangent)]
pub struct Market {
    pub curve: Curve,
    pub spread: f64,
}

/// Zero rate of the curve at t.
#[differentiable]
pub fn zero_rate(c: &Curve, t: f64) -> f64 {
    c.level + c.slope * (1.0 - (-t).exp())
}

/// A risky bond: the inner curve passed on whole to a helper.
#[differentiable]
pub fn nested_struct_pass_inner(m: &Market, #[constant] times: &[f64], #[constant] coupon: f64) -> f64 {
    let mut pv = 0.0;
    for &t in times {
        let r = zero_rate(&m.curve, t) + m.spread;
        pv += coupon * (-r * t).exp();
    }
    pv + (-(zero_rate(&m.curve, times[times.len() - 1]) + m.spread) * times[times.len() - 1]).exp()
}

pub fn check() -> Result<(), String> {
    let times = [1.0, 2.0, 3.0];
    for x in [[0.02, 0.01, 0.005], [0.04, -0.01, 0.02]] {
        let make = |q: &[f64]| Market { curve: Curve { level: q[0], slope: q[1] }, spread: q[2] };
        let (v, d) = nested_struct_pass_inner_grad(&make(&x), &times, 0.05);
        crate::support::same_value("bond", v, nested_struct_pass_inner(&make(&x), &times, 0.05))?;
        let want = crate::support::fd_grad(|q| nested_struct_pass_inner(&make(q), &times, 0.05), &x);
        crate::support::close("nested_struct_pass_inner", &[d.curve.level, d.curve.slope, d.spread], &want, 1e-6)?;
    }
    Ok(())
}
