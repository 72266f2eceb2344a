use autograd::differentiable;

/// Chamfer-like distance of predicted points to a template, the nearest
/// template point found by `.map(..).fold(f64::INFINITY, f64::min)`.
#[differentiable]
pub fn nearest_fold_f64_min(pts: &[f64], #[constant] template: &[f64]) -> f64 {
    let mut total = 0.0;
    for &p in pts {
        let d = template.iter().map(|&t| (p - t) * (p - t)).fold(f64::INFINITY, f64::min);
        total += d;
    }
    total
}

pub fn check() -> Result<(), String> {
    let template = [0.0, 1.0, 2.5, 4.0];
    let x = vec![0.2, 1.4, 3.1, 3.9, -0.7];
    let (v, g) = nearest_fold_f64_min_grad(&x, &template);
    crate::support::same_value("chamfer", v, nearest_fold_f64_min(&x, &template))?;
    crate::support::close("nearest_fold_f64_min", &g, &crate::support::fd_grad(|q| nearest_fold_f64_min(q, &template), &x), 1e-6)
}
