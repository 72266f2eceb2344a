use autograd::differentiable;

/// Mean, variance and skew-like moment of three inputs held in a local array.
#[differentiable]
pub fn local_array_stats(a: f64, b: f64, c: f64) -> f64 {
    let xs = [a, b, c];
    let mut mean = 0.0;
    for i in 0..3 {
        mean += xs[i] / 3.0;
    }
    let mut m2 = 0.0;
    let mut m3 = 0.0;
    for i in 0..3 {
        let d = xs[i] - mean;
        m2 += d * d;
        m3 += d * d * d;
    }
    m3 / (m2 + 1.0)
}

pub fn check() -> Result<(), String> {
    scalar_check!(local_array_stats, local_array_stats_grad, 1e-6, [[1.0, 2.0, 4.0], [-1.0, 0.5, 0.2]], (a, b, c))
}
