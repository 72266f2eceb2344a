use autograd::differentiable;

fn loading(x: f64) -> f64 {
    (1.0 - (-x).exp()) / x
}

/// Svensson zero rate; the loading is a helper the user forgot to annotate.
#[differentiable]
pub fn svensson(b0: f64, b1: f64, b2: f64, b3: f64, tau1: f64, tau2: f64, t: f64) -> f64 {
    let x1 = t / tau1;
    let x2 = t / tau2;
    b0 + b1 * loading(x1) + b2 * (loading(x1) - (-x1).exp()) + b3 * (loading(x2) - (-x2).exp())
}

pub fn check() -> Result<(), String> {
    scalar_check!(svensson, svensson_grad, 1e-6,
        [[0.04, -0.02, 0.01, 0.005, 1.5, 8.0, 3.0], [0.03, 0.01, -0.02, 0.01, 0.8, 5.0, 12.0]],
        (b0, b1, b2, b3, tau1, tau2, t))
}
