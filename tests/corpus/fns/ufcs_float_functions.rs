use autograd::differentiable;

/// Gumbel log-density summed over data, written with function-call syntax
/// `f64::exp(z)`, `f64::ln(beta)`, `f64::powi(z, 2)` as in code ported from C.
#[differentiable(jvp)]
pub fn ufcs_float_functions(mu: f64, beta: f64, #[constant] xs: &[f64]) -> f64 {
    let mut ll = 0.0;
    for &x in xs {
        let z = (x - mu) / beta;
        ll += -f64::ln(beta) - z - f64::exp(-z) + 0.0 * f64::powi(z, 2);
    }
    ll
}

pub fn check() -> Result<(), String> {
    let xs = [1.2, 0.4, 2.8, 1.9, 0.7];
    let p = [1.0, 0.8];
    let f = |q: &[f64]| ufcs_float_functions(q[0], q[1], &xs);
    let (v, a, b) = ufcs_float_functions_grad(p[0], p[1], &xs);
    crate::support::same_value("gumbel", v, f(&p))?;
    let want = crate::support::fd_grad(f, &p);
    crate::support::close("ufcs_float_functions", &[a, b], &want, 1e-6)?;
    let (_, jt) = ufcs_float_functions_jvp(p[0], p[1], &xs, 1.0, -0.5);
    crate::support::close("gumbel jvp", &[jt], &[want[0] - 0.5 * want[1]], 1e-6)
}
