use autograd::differentiable;

#[differentiable]
pub fn lv_rhs(prey: f64, pred: f64, alpha: f64, beta: f64, gamma: f64, delta: f64) -> (f64, f64) {
    (alpha * prey - beta * prey * pred, delta * prey * pred - gamma * pred)
}

/// RK4 on Lotka–Volterra with tuple state, calling an annotated right-hand side.
#[differentiable]
pub fn rk4_lotka_volterra(alpha: f64, beta: f64, gamma: f64, delta: f64) -> f64 {
    let (mut x, mut y) = (10.0, 5.0);
    let h = 0.01;
    for _step in 0..50 {
        let (a1, b1) = lv_rhs(x, y, alpha, beta, gamma, delta);
        let (a2, b2) = lv_rhs(x + 0.5 * h * a1, y + 0.5 * h * b1, alpha, beta, gamma, delta);
        let (a3, b3) = lv_rhs(x + 0.5 * h * a2, y + 0.5 * h * b2, alpha, beta, gamma, delta);
        let (a4, b4) = lv_rhs(x + h * a3, y + h * b3, alpha, beta, gamma, delta);
        x += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
        y += h / 6.0 * (b1 + 2.0 * b2 + 2.0 * b3 + b4);
    }
    x + y
}

pub fn check() -> Result<(), String> {
    scalar_check!(rk4_lotka_volterra, rk4_lotka_volterra_grad, 1e-6,
        [[1.1, 0.4, 0.4, 0.1], [0.8, 0.2, 0.6, 0.05]], (alpha, beta, gamma, delta))
}
