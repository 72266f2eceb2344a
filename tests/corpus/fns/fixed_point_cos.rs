use autograd::differentiable;

/// Fixed point of x = a cos x by iteration, with an early exit.
#[differentiable]
pub fn fixed_point_cos(a: f64) -> f64 {
    let mut x: f64 = 0.0;
    for _ in 0..200 {
        let next = a * x.cos();
        if (next - x).abs() < 1e-15 {
            break;
        }
        x = next;
    }
    x
}

pub fn check() -> Result<(), String> {
    scalar_check!(fixed_point_cos, fixed_point_cos_grad, 1e-5, [[0.5], [0.8], [0.3]], (a))
}
