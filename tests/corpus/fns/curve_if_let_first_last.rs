use autograd::differentiable;

/// Discount factor from a zero curve given at pillars: flat extrapolation
/// before the first and after the last pillar (`first()`/`last()` matched,
/// no `?`), linear in the zero rate in between.
#[differentiable]
pub fn curve_if_let_first_last(zeros: &[f64], #[constant] pillars: &[f64], #[constant] t: f64) -> f64 {
    let z = match (pillars.first(), pillars.last()) {
        (Some(&a), _) if t <= a => *zeros.first().unwrap(),
        (_, Some(&b)) if t >= b => match zeros.last() {
            Some(&z) => z,
            None => 0.0,
        },
        _ => {
            let mut i = 1;
            while pillars[i] < t {
                i += 1;
            }
            let w = (t - pillars[i - 1]) / (pillars[i] - pillars[i - 1]);
            (1.0 - w) * zeros[i - 1] + w * zeros[i]
        }
    };
    if let Some(&last) = zeros.last() {
        // a small convexity-style adjustment beyond the curve's end
        if t > 10.0 {
            return (-z * t - 0.5 * last * last * (t - 10.0)).exp();
        }
    }
    (-z * t).exp()
}

pub fn check() -> Result<(), String> {
    let pillars = [1.0, 2.0, 5.0, 10.0];
    for z in [vec![0.02, 0.023, 0.028, 0.031], vec![0.05, 0.045, 0.04, 0.038]] {
        for t in [0.5, 3.2, 7.0, 12.0] {
            let (v, g) = curve_if_let_first_last_grad(&z, &pillars, t);
            crate::support::same_value("curve", v, curve_if_let_first_last(&z, &pillars, t))?;
            let want = crate::support::fd_grad(|q| curve_if_let_first_last(q, &pillars, t), &z);
            crate::support::close(&format!("curve_if_let_first_last t={t}"), &g, &want, 1e-6)?;
        }
    }
    Ok(())
}
