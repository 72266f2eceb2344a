use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Vasicek {
    kappa: f64,
    theta: f64,
    sigma: f64,
}

#[differentiable(jvp)]
impl Vasicek {
    fn b(&self, t: f64) -> f64 {
        (1.0 - (-self.kappa * t).exp()) / self.kappa
    }

    fn zero_bond(&self, r0: f64, t: f64) -> f64 {
        let b = self.b(t);
        let k2 = self.kappa * self.kappa;
        let a = (self.theta - self.sigma * self.sigma / (2.0 * k2)) * (b - t)
            - self.sigma * self.sigma * b * b / (4.0 * self.kappa);
        (a - b * r0).exp()
    }
}

/// A private model struct, its methods called from a free function with
/// `jvp`.
#[differentiable(jvp)]
pub fn private_struct_jvp_chain(kappa: f64, theta: f64, sigma: f64, r0: f64) -> f64 {
    let m = Vasicek { kappa, theta, sigma };
    let mut pv = 0.0;
    for i in 1..=3 {
        pv += 0.04 * m.zero_bond(r0, i as f64);
    }
    pv + m.zero_bond(r0, 3.0)
}

pub fn check() -> Result<(), String> {
    let p = [0.3, 0.05, 0.01, 0.03];
    let (v, a, b, c, d) = private_struct_jvp_chain_grad(p[0], p[1], p[2], p[3]);
    crate::support::same_value("vasicek", v, private_struct_jvp_chain(p[0], p[1], p[2], p[3]))?;
    let want = crate::support::fd_grad(|q| private_struct_jvp_chain(q[0], q[1], q[2], q[3]), &p);
    crate::support::close("vasicek", &[a, b, c, d], &want, 1e-6)?;
    let (_, t) = private_struct_jvp_chain_jvp(p[0], p[1], p[2], p[3], 1.0, 0.0, 0.0, 0.5);
    crate::support::close("vasicek jvp", &[t], &[want[0] + 0.5 * want[3]], 1e-6)?;
    Ok(())
}
