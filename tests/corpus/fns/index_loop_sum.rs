use autograd::differentiable;

/// The index-loop form the macro was built for: sum of softplus.
#[differentiable]
pub fn index_loop_sum(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (1.0 + x[i].exp()).ln();
    }
    s
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, 1.3, -0.7, 2.0], vec![1.1, 0.2, 0.9, -0.4]] {
        let (v, g) = index_loop_sum_grad(&x);
        crate::support::same_value("index_loop_sum", v, index_loop_sum(&x))?;
        let want = crate::support::fd_grad(|q| index_loop_sum(q), &x);
        crate::support::close("index_loop_sum", &g, &want, 1e-6)?;
    }
    Ok(())
}
