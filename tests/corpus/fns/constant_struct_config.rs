use autograd::differentiable;

pub struct GridConfig {
    pub steps: usize,
    pub dt: f64,
}

/// A plain config struct passed as a constant, read by field.
#[differentiable]
pub fn constant_struct_config(x0: f64, rate: f64, #[constant] cfg: &GridConfig) -> f64 {
    let mut x = x0;
    for _ in 0..cfg.steps {
        x *= 1.0 + rate * cfg.dt;
    }
    x
}

pub fn check() -> Result<(), String> {
    let cfg = GridConfig { steps: 12, dt: 1.0 / 12.0 };
    for p in [[100.0, 0.05], [1.0, 0.3]] {
        let (v, a, b) = constant_struct_config_grad(p[0], p[1], &cfg);
        crate::support::same_value("grid", v, constant_struct_config(p[0], p[1], &cfg))?;
        let want = crate::support::fd_grad(|q| constant_struct_config(q[0], q[1], &cfg), &p);
        crate::support::close("constant_struct_config", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
