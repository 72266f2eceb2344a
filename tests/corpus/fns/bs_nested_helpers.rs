use autograd::differentiable;

/// Abramowitz–Stegun 26.2.17 normal CDF.
#[differentiable]
pub fn norm_cdf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.231_641_9 * x.abs());
    let poly = t * (0.319_381_530 + t * (-0.356_563_782 + t * (1.781_477_937 + t * (-1.821_255_978 + t * 1.330_274_429))));
    let pdf = (-0.5 * x * x).exp() / (2.0 * std::f64::consts::PI).sqrt();
    let upper = pdf * poly;
    if x >= 0.0 { 1.0 - upper } else { upper }
}

#[differentiable]
pub fn d1_d2(s: f64, k: f64, r: f64, vol: f64, t: f64) -> (f64, f64) {
    let sd = vol * t.sqrt();
    let d1 = ((s / k).ln() + (r + 0.5 * vol * vol) * t) / sd;
    (d1, d1 - sd)
}

#[differentiable]
pub fn bs_call(s: f64, k: f64, r: f64, vol: f64, t: f64) -> f64 {
    let (d1, d2) = d1_d2(s, k, r, vol, t);
    s * norm_cdf(d1) - k * (-r * t).exp() * norm_cdf(d2)
}

#[differentiable]
pub fn bs_put(s: f64, k: f64, r: f64, vol: f64, t: f64) -> f64 {
    let (d1, d2) = d1_d2(s, k, r, vol, t);
    k * (-r * t).exp() * norm_cdf(-d2) - s * norm_cdf(-d1)
}

/// Straddle: call plus put, three levels of helper calls.
#[differentiable]
pub fn bs_nested_helpers(s: f64, k: f64, r: f64, vol: f64, t: f64) -> f64 {
    bs_call(s, k, r, vol, t) + bs_put(s, k, r, vol, t)
}

pub fn check() -> Result<(), String> {
    scalar_check!(bs_nested_helpers, bs_nested_helpers_grad, 1e-6, [[100.0, 95.0, 0.02, 0.25, 1.0], [50.0, 60.0, 0.05, 0.4, 0.5]], (s, k, r, vol, t))
}
