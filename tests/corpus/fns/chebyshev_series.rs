use autograd::differentiable;

const CHEB: [f64; 5] = [0.8, -0.3, 0.12, 0.05, -0.02];

/// Clenshaw's recurrence for a Chebyshev series on [-1, 1].
#[differentiable]
pub fn chebyshev_series(x: f64) -> f64 {
    let mut b1 = 0.0;
    let mut b2 = 0.0;
    for k in (1..CHEB.len()).rev() {
        let b0 = 2.0 * x * b1 - b2 + CHEB[k];
        b2 = b1;
        b1 = b0;
    }
    x * b1 - b2 + CHEB[0]
}

pub fn check() -> Result<(), String> {
    scalar_check!(chebyshev_series, chebyshev_series_grad, 1e-6, [[0.3], [-0.8], [0.95]], (x))
}
