use autograd::differentiable;

const P: [f64; 4] = [0.5, 1.5, -2.0, 0.75];

#[differentiable]
pub fn horner_index(x: f64) -> f64 {
    let mut y = P[P.len() - 1];
    for i in (0..P.len() - 1).rev() {
        y = y * x + P[i];
    }
    y
}

pub fn check() -> Result<(), String> {
    scalar_check!(horner_index, horner_index_grad, 1e-6, [[0.3], [-2.0], [1.1]], (x))
}
