use autograd::differentiable;

/// Tuple destructuring and swapping, as in a Fibonacci-like recurrence with weights.
#[differentiable]
pub fn tuple_locals(a: f64, b: f64) -> f64 {
    let (mut p, mut q) = (a, b);
    for _ in 0..6 {
        let t = (p, q);
        p = t.1;
        q = 0.5 * t.0 + 0.7 * t.1;
    }
    p * q
}

pub fn check() -> Result<(), String> {
    scalar_check!(tuple_locals, tuple_locals_grad, 1e-6, [[1.0, 0.5], [-0.3, 2.0]], (a, b))
}
