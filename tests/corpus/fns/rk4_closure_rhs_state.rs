use autograd::differentiable;

/// Duffing oscillator integrated with RK4, the right-hand side a closure
/// stored in a `let` and called four times per step; the state `[f64; 2]`.
#[differentiable]
pub fn rk4_closure_rhs_state(delta: f64, alpha: f64, beta: f64, x0: f64, #[constant] steps: usize, #[constant] h: f64) -> f64 {
    let rhs = |s: [f64; 2]| -> [f64; 2] { [s[1], -delta * s[1] - alpha * s[0] - beta * s[0].powi(3)] };
    let mut s = [x0, 0.0];
    for _ in 0..steps {
        let k1 = rhs(s);
        let k2 = rhs([s[0] + 0.5 * h * k1[0], s[1] + 0.5 * h * k1[1]]);
        let k3 = rhs([s[0] + 0.5 * h * k2[0], s[1] + 0.5 * h * k2[1]]);
        let k4 = rhs([s[0] + h * k3[0], s[1] + h * k3[1]]);
        s = [
            s[0] + h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
    }
    s[0] * s[0] + 0.5 * s[1] * s[1]
}

pub fn check() -> Result<(), String> {
    let p = [0.2, 1.0, 0.3, 1.5];
    let f = |q: &[f64]| rk4_closure_rhs_state(q[0], q[1], q[2], q[3], 40, 0.05);
    let (v, a, b, c, d) = rk4_closure_rhs_state_grad(p[0], p[1], p[2], p[3], 40, 0.05);
    crate::support::same_value("duffing", v, f(&p))?;
    crate::support::close("rk4_closure_rhs_state", &[a, b, c, d], &crate::support::fd_grad(f, &p), 1e-6)
}
