use autograd::differentiable;

/// Weighted squared error with weights, predictions and targets walked by
/// `a.iter().zip(b.iter().zip(c.iter()))` and a nested tuple pattern.
#[differentiable]
pub fn zip3_nested_pattern(pred: &[f64], scale: f64, #[constant] w: &[f64], #[constant] y: &[f64]) -> f64 {
    let mut s = 0.0;
    for (wi, (pi, yi)) in w.iter().zip(pred.iter().zip(y.iter())) {
        let e = scale * pi - yi;
        s += wi * e * e;
    }
    s
}

pub fn check() -> Result<(), String> {
    let (w, y) = ([1.0, 0.5, 2.0], [0.3, -0.1, 1.2]);
    let p = vec![0.4, 0.1, 0.9, 1.1];
    let f = |q: &[f64]| zip3_nested_pattern(&q[..3], q[3], &w, &y);
    let (v, gp, gs) = zip3_nested_pattern_grad(&p[..3], p[3], &w, &y);
    crate::support::same_value("zip3", v, f(&p))?;
    let mut got = gp.clone();
    got.push(gs);
    crate::support::close("zip3_nested_pattern", &got, &crate::support::fd_grad(f, &p), 1e-6)
}
