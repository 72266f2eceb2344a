use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Gbm {
    pub mu: f64,
    pub sigma: f64,
}

impl Gbm {
    #[differentiable]
    pub fn step(&self, s: f64, dt: f64, z: f64) -> f64 {
        s * ((self.mu - 0.5 * self.sigma * self.sigma) * dt + self.sigma * dt.sqrt() * z).exp()
    }
}

/// A struct built from the arguments in the body, then its method called
/// in a loop over fixed normals.
#[differentiable]
pub fn struct_local_built_then_method(mu: f64, sigma: f64, s0: f64, #[constant] z: &[f64]) -> f64 {
    let model = Gbm { mu, sigma };
    let mut s = s0;
    for &zi in z {
        s = model.step(s, 0.25, zi);
    }
    (s - 100.0).max(0.0)
}

pub fn check() -> Result<(), String> {
    let z = [0.3, -1.1, 0.7, 0.2];
    let p = [0.05, 0.2, 105.0];
    let (v, a, b, c) = struct_local_built_then_method_grad(p[0], p[1], p[2], &z);
    crate::support::same_value("gbm", v, struct_local_built_then_method(p[0], p[1], p[2], &z))?;
    let want = crate::support::fd_grad(|q| struct_local_built_then_method(q[0], q[1], q[2], &z), &p);
    crate::support::close("gbm", &[a, b, c], &want, 1e-6)?;
    Ok(())
}
