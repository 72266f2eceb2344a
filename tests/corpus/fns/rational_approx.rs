use autograd::differentiable;

const NUM: [f64; 3] = [1.0, 0.5, 0.1];
const DEN: [f64; 3] = [1.0, -0.5, 0.1];

/// A (2,2) Padé-style rational function.
#[differentiable]
pub fn rational_approx(x: f64) -> f64 {
    let n = NUM[0] + x * (NUM[1] + x * NUM[2]);
    let d = DEN[0] + x * (DEN[1] + x * DEN[2]);
    n / d
}

pub fn check() -> Result<(), String> {
    scalar_check!(rational_approx, rational_approx_grad, 1e-6, [[0.4], [-1.2], [2.0]], (x))
}
