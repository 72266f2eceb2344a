use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
pub struct Quad {
    pub a: f64,
    pub b: f64,
}

impl Quad {
    /// A method alone with `hessian`, its Hessian taken directly.
    #[differentiable(hessian)]
    pub fn energy(&self, x: f64) -> f64 {
        self.a * x * x + (self.b * x).sin()
    }
}

pub fn hessian_struct_method_alone(a: f64, b: f64, x: f64) -> f64 {
    Quad { a, b }.energy(x)
}

pub fn check() -> Result<(), String> {
    let q = Quad { a: 0.7, b: 1.3 };
    let x = 0.4;
    let (v, dq, dx) = q.energy_grad(x);
    crate::support::same_value("quad", v, q.energy(x))?;
    let want = crate::support::fd_grad(|p| hessian_struct_method_alone(p[0], p[1], p[2]), &[0.7, 1.3, 0.4]);
    crate::support::close("quad", &[dq.a, dq.b, dx], &want, 1e-6)?;
    let (_, _, h) = q.energy_hessian(x);
    // ∂²/∂x² = 2a − b² sin(bx); ∂²/∂a∂x = 2x.
    let hxx = 2.0 * 0.7 - 1.3f64 * 1.3 * (1.3f64 * 0.4).sin();
    crate::support::close("quad hxx", &[h[(2, 2)], h[(0, 2)]], &[hxx, 0.8], 1e-9)?;
    Ok(())
}
