use autograd::differentiable;

/// Log density of a location-scale Student t with fixed degrees of freedom (up to a constant).
#[differentiable]
pub fn student_t_logpdf(x: f64, loc: f64, scale: f64, #[constant] nu: f64) -> f64 {
    let z = (x - loc) / scale;
    -scale.ln() - 0.5 * (nu + 1.0) * (z * z / nu).ln_1p()
}

pub fn check() -> Result<(), String> {
    for nu in [3.0, 10.0] {
        for p in [[0.5, 0.0, 1.0], [-2.0, 1.0, 0.5]] {
            let (v, a, b, c) = student_t_logpdf_grad(p[0], p[1], p[2], nu);
            crate::support::same_value("t", v, student_t_logpdf(p[0], p[1], p[2], nu))?;
            let want = crate::support::fd_grad(|q| student_t_logpdf(q[0], q[1], q[2], nu), &p);
            crate::support::close("student_t_logpdf", &[a, b, c], &want, 1e-6)?;
        }
    }
    Ok(())
}
