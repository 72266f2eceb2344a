use autograd::differentiable;

/// A penalty accumulated through a `FnMut` closure that adds into a
/// captured total.
#[differentiable]
pub fn fnmut_closure_accumulate(x: &[f64], #[constant] lambda: f64) -> f64 {
    let mut total = 0.0;
    let mut add = |v: f64| total += v * v;
    for &v in x {
        add(v);
    }
    add(lambda * x[0]);
    total
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.3, 1.9, -0.4], vec![2.0, -1.0]] {
        let (v, g) = fnmut_closure_accumulate_grad(&x, 0.5);
        crate::support::same_value("fnmut", v, fnmut_closure_accumulate(&x, 0.5))?;
        let want = crate::support::fd_grad(|q| fnmut_closure_accumulate(q, 0.5), &x);
        crate::support::close("fnmut_closure_accumulate", &g, &want, 1e-6)?;
    }
    Ok(())
}
