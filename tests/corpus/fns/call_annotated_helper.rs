use autograd::differentiable;

#[differentiable]
pub fn discount(rate: f64, t: f64) -> f64 {
    (-rate * t).exp()
}

/// Swap par rate from discount factors computed by an annotated helper.
#[differentiable]
pub fn call_annotated_helper(r1: f64, r2: f64, r3: f64) -> f64 {
    let d1 = discount(r1, 1.0);
    let d2 = discount(r2, 2.0);
    let d3 = discount(r3, 3.0);
    (1.0 - d3) / (d1 + d2 + d3)
}

pub fn check() -> Result<(), String> {
    scalar_check!(call_annotated_helper, call_annotated_helper_grad, 1e-6, [[0.02, 0.025, 0.03], [0.05, 0.04, 0.035]], (r1, r2, r3))
}
