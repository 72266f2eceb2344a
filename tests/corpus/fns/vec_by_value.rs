use autograd::differentiable;

/// Takes an owned Vec, as a builder-style API would.
#[differentiable]
pub fn vec_by_value(x: Vec<f64>, scale: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (scale * x[i]).cos();
    }
    s
}

pub fn check() -> Result<(), String> {
    for (x, c) in [(vec![0.5, 1.0, -0.3], 1.5), (vec![2.0, 0.1], 0.7)] {
        let (v, dx, dc) = vec_by_value_grad(x.clone(), c);
        crate::support::same_value("vec", v, vec_by_value(x.clone(), c))?;
        let n = x.len();
        let mut p = x.clone();
        p.push(c);
        let want = crate::support::fd_grad(|q| vec_by_value(q[..n].to_vec(), q[n]), &p);
        let mut got = dx;
        got.push(dc);
        crate::support::close("vec_by_value", &got, &want, 1e-6)?;
    }
    Ok(())
}
