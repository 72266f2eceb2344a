use autograd::differentiable;

/// Prefix sums into a local Vec, then a weighted read-back.
#[differentiable]
pub fn vec_index_writes(x: &[f64]) -> f64 {
    let n = x.len();
    let mut cum = vec![0.0; n];
    cum[0] = x[0];
    for i in 1..n {
        cum[i] = cum[i - 1] + x[i];
    }
    let mut out = 0.0;
    for i in 0..n {
        out += cum[i] * cum[i] / (i + 1) as f64;
    }
    out
}

pub fn check() -> Result<(), String> {
    for x in [vec![1.0, -0.5, 2.0, 0.3], vec![0.2, 0.4]] {
        let (v, g) = vec_index_writes_grad(&x);
        crate::support::same_value("cum", v, vec_index_writes(&x))?;
        let want = crate::support::fd_grad(vec_index_writes, &x);
        crate::support::close("vec_index_writes", &g, &want, 1e-6)?;
    }
    Ok(())
}
