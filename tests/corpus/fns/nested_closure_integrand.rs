use autograd::differentiable;

/// Simpson's rule over a closure that calls another closure, both
/// capturing the parameters.
#[differentiable]
pub fn nested_closure_integrand(a: f64, b: f64) -> f64 {
    let g = |t: f64| (-a * t).exp();
    let f = |t: f64| g(t) * (b * t).cos();
    let n = 20;
    let h = 1.0 / n as f64;
    let mut s = f(0.0) + f(1.0);
    for i in 1..n {
        let w = if i % 2 == 1 { 4.0 } else { 2.0 };
        s += w * f(i as f64 * h);
    }
    s * h / 3.0
}

pub fn check() -> Result<(), String> {
    for (a, b) in [(0.5, 2.0), (1.5, -0.3)] {
        let (v, ga, gb) = nested_closure_integrand_grad(a, b);
        crate::support::same_value("simpson", v, nested_closure_integrand(a, b))?;
        let want = crate::support::fd_grad(|q| nested_closure_integrand(q[0], q[1]), &[a, b]);
        crate::support::close("nested_closure_integrand", &[ga, gb], &want, 1e-6)?;
    }
    Ok(())
}
