use autograd::differentiable;
use num_traits::Float;

/// Logistic function generic over the float type.
#[differentiable]
pub fn generic_float_logistic<T: Float>(x: T, k: T) -> T {
    T::one() / (T::one() + (-k * x).exp())
}

pub fn check() -> Result<(), String> {
    scalar_check!(f, f_grad, 1e-6, [[0.5, 2.0], [-1.0, 0.7]], (x, k))
}

fn f(x: f64, k: f64) -> f64 {
    generic_float_logistic::<f64>(x, k)
}

fn f_grad(x: f64, k: f64) -> (f64, f64, f64) {
    generic_float_logistic_grad::<f64>(x, k)
}
