use autograd::differentiable;
use num_traits::Float;

/// A float literal in the caller's precision.
fn lit<T: Float>(v: f64) -> T {
    T::from(v).unwrap()
}

/// Standard normal CDF by Abramowitz–Stegun 7.1.26, generic over the float type.
#[differentiable]
pub fn norm_cdf<T: Float>(x: T) -> T {
    let z = x.abs() / lit::<T>(std::f64::consts::SQRT_2);
    let t = T::one() / (T::one() + lit::<T>(0.3275911) * z);
    let poly = t
        * (lit::<T>(0.254829592)
            + t * (lit::<T>(-0.284496736) + t * (lit::<T>(1.421413741) + t * (lit::<T>(-1.453152027) + t * lit::<T>(1.061405429)))));
    let erf = T::one() - poly * (-z * z).exp();
    if x >= T::zero() { lit::<T>(0.5) * (T::one() + erf) } else { lit::<T>(0.5) * (T::one() - erf) }
}

/// Black–Scholes call, generic over the float type.
#[differentiable]
pub fn generic_black_scholes<T: Float>(s: T, k: T, r: T, sigma: T, t: T) -> T {
    let sqrt_t = t.sqrt();
    let d1 = ((s / k).ln() + (r + lit::<T>(0.5) * sigma * sigma) * t) / (sigma * sqrt_t);
    let d2 = d1 - sigma * sqrt_t;
    s * norm_cdf(d1) - k * (-r * t).exp() * norm_cdf(d2)
}

pub fn check() -> Result<(), String> {
    scalar_check!(f, f_grad, 1e-6, [[100.0, 95.0, 0.03, 0.2, 1.0], [50.0, 60.0, 0.01, 0.35, 0.5]], (s, k, r, sigma, t))
}

fn f(s: f64, k: f64, r: f64, sigma: f64, t: f64) -> f64 {
    generic_black_scholes::<f64>(s, k, r, sigma, t)
}

fn f_grad(s: f64, k: f64, r: f64, sigma: f64, t: f64) -> (f64, f64, f64, f64, f64, f64) {
    generic_black_scholes_grad::<f64>(s, k, r, sigma, t)
}
