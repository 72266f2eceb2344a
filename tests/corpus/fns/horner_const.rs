use autograd::differentiable;

const COEFFS: [f64; 5] = [1.0, -0.5, 0.25, 0.125, -0.0625];

/// Polynomial by Horner's rule over a `const` coefficient array (highest degree first).
#[differentiable]
pub fn horner_const(x: f64) -> f64 {
    let mut acc = 0.0;
    for c in COEFFS.iter() {
        acc = acc * x + c;
    }
    acc
}

pub fn check() -> Result<(), String> {
    scalar_check!(horner_const, horner_const_grad, 1e-6, [[0.5], [-1.7], [3.0]], (x))
}
