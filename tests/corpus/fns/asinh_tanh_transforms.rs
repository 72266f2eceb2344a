use autograd::differentiable;

/// A heavy-tailed regression loss on the inverse-hyperbolic-sine scale,
/// with a correlation parameter kept in (−1, 1) through `tanh` and its
/// inverse `atanh` on the prior.
#[differentiable]
pub fn asinh_tanh_transforms(beta: f64, raw_rho: f64, #[constant] x: &[f64], #[constant] y: &[f64]) -> f64 {
    let rho = raw_rho.tanh();
    let mut loss = 0.0;
    let mut prev = 0.0;
    for i in 0..x.len() {
        let resid = y[i].asinh() - (beta * x[i]).asinh() - rho * prev;
        loss += resid * resid;
        prev = resid;
    }
    loss + 0.1 * rho.atanh().powi(2) + (1.0 - rho * rho).ln().abs()
}

const X: [f64; 4] = [1.0, 5.0, -3.0, 20.0];
const Y: [f64; 4] = [2.1, 9.5, -6.3, 41.0];

pub fn check() -> Result<(), String> {
    scalar_check!(f, f_grad, 1e-6, [[2.0, 0.3], [1.7, -0.5]], (beta, raw_rho))
}

fn f(b: f64, r: f64) -> f64 {
    asinh_tanh_transforms(b, r, &X, &Y)
}

fn f_grad(b: f64, r: f64) -> (f64, f64, f64) {
    asinh_tanh_transforms_grad(b, r, &X, &Y)
}
