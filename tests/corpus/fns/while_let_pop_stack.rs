use autograd::differentiable;

/// Accumulates a discounted sum by popping a work stack of cash flows.
#[differentiable]
pub fn while_let_pop_stack(cf: &[f64], r: f64) -> f64 {
    let mut stack: Vec<f64> = cf.to_vec();
    let mut pv = 0.0;
    while let Some(c) = stack.pop() {
        let t = stack.len() as f64 + 1.0;
        pv += c * (-r * t).exp();
    }
    pv
}

pub fn check() -> Result<(), String> {
    let cf = [5.0, 5.0, 105.0];
    let (v, g, dr) = while_let_pop_stack_grad(&cf, 0.03);
    crate::support::same_value("stack", v, while_let_pop_stack(&cf, 0.03))?;
    let mut all = g.clone();
    all.push(dr);
    let want = crate::support::fd_grad(|q| while_let_pop_stack(&q[..3], q[3]), &[5.0, 5.0, 105.0, 0.03]);
    crate::support::close("stack", &all, &want, 1e-6)?;
    Ok(())
}
