use autograd::differentiable;

/// A local `[0.0; 4]` filled by index, then a quadratic form.
#[differentiable]
pub fn array_zeros_write(x: f64, y: f64) -> f64 {
    let mut basis = [0.0; 4];
    basis[0] = 1.0;
    basis[1] = x;
    basis[2] = y;
    basis[3] = x * y;
    let w = [0.5, -1.0, 2.0, 0.25];
    let mut s = 0.0;
    for k in 0..4 {
        s += w[k] * basis[k] * basis[k];
    }
    s
}

pub fn check() -> Result<(), String> {
    scalar_check!(array_zeros_write, array_zeros_write_grad, 1e-6, [[0.3, 1.2], [-2.0, 0.5]], (x, y))
}
