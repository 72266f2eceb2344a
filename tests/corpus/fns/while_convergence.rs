use autograd::differentiable;

/// Series for ln(1+x) summed while terms are significant.
#[differentiable]
pub fn while_convergence(x: f64) -> f64 {
    let mut term = x;
    let mut sum = 0.0;
    let mut k = 1.0;
    while term.abs() > 1e-17 && k < 200.0 {
        sum += term / k;
        term *= -x;
        k += 1.0;
    }
    sum
}

pub fn check() -> Result<(), String> {
    scalar_check!(while_convergence, while_convergence_grad, 1e-6, [[0.3], [-0.4], [0.7]], (x))
}
