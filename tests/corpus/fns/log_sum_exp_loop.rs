use autograd::differentiable;

#[differentiable]
pub fn log_sum_exp_loop(x: &[f64]) -> f64 {
    let mut m = x[0];
    for &v in x.iter().skip(1) {
        if v > m {
            m = v;
        }
    }
    let mut s = 0.0;
    for &v in x {
        s += (v - m).exp();
    }
    m + s.ln()
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.5, -1.0, 2.0], vec![3.0, 1.0, -2.0, 2.5]] {
        let (v, g) = log_sum_exp_loop_grad(&x);
        crate::support::same_value("lse", v, log_sum_exp_loop(&x))?;
        let want = crate::support::fd_grad(log_sum_exp_loop, &x);
        crate::support::close("log_sum_exp_loop", &g, &want, 1e-6)?;
    }
    Ok(())
}
