use autograd::differentiable;

/// Fit of a biquad (direct form I) IIR filter to a recorded response: mean
/// squared error of the filtered input against the target samples.
#[differentiable]
pub fn biquad_filter_fit(b: [f64; 3], a: [f64; 2], #[constant] input: &[f64], #[constant] target: &[f64]) -> f64 {
    let [b0, b1, b2] = b;
    let [a1, a2] = a;
    let (mut x1, mut x2, mut y1, mut y2) = (0.0, 0.0, 0.0, 0.0);
    let mut sse = 0.0;
    for (&x, &t) in input.iter().zip(target) {
        let y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
        x2 = x1;
        x1 = x;
        y2 = y1;
        y1 = y;
        sse += (y - t).powi(2);
    }
    sse / input.len() as f64
}

pub fn check() -> Result<(), String> {
    let input: Vec<f64> = (0..40).map(|i| (0.3 * i as f64).sin() + if i % 7 == 0 { 0.5 } else { 0.0 }).collect();
    let target: Vec<f64> = (0..40).map(|i| 0.6 * (0.3 * i as f64 - 0.4).sin()).collect();
    for p in [[0.2, 0.4, 0.2, -0.5, 0.3], [0.1, 0.3, -0.1, 0.4, 0.2]] {
        let (v, db, da) = biquad_filter_fit_grad([p[0], p[1], p[2]], [p[3], p[4]], &input, &target);
        crate::support::same_value("biquad", v, biquad_filter_fit([p[0], p[1], p[2]], [p[3], p[4]], &input, &target))?;
        let want = crate::support::fd_grad(|q| biquad_filter_fit([q[0], q[1], q[2]], [q[3], q[4]], &input, &target), &p);
        crate::support::close("biquad_filter_fit", &[db[0], db[1], db[2], da[0], da[1]], &want, 1e-6)?;
    }
    Ok(())
}
