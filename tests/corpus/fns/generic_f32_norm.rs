use autograd::differentiable;
use num_traits::Float;

/// Euclidean norm of a 2-vector, generic, checked at f32 against f64 differences.
#[differentiable]
pub fn generic_f32_norm<T: Float>(a: T, b: T) -> T {
    (a * a + b * b).sqrt()
}

/// f32: relative tolerance 1e-5 against the f64 closed form a/r, b/r.
pub fn check() -> Result<(), String> {
    for (a, b) in [(3.0_f32, 4.0_f32), (-1.5, 0.25)] {
        let (v, da, db) = generic_f32_norm_grad(a, b);
        let r = (a as f64).hypot(b as f64);
        crate::support::close("value", &[v as f64], &[r], 1e-6)?;
        crate::support::close("generic_f32_norm", &[da as f64, db as f64], &[a as f64 / r, b as f64 / r], 1e-5)?;
    }
    Ok(())
}
