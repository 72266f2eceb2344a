use autograd::differentiable;
use libm::lgamma;

// Imported by name, the call is still libm's: the error names
// `autograd::special::ln_gamma`.
#[differentiable]
fn log_binomial(n: f64, k: f64) -> f64 {
    lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0)
}

fn main() {
    let _ = log_binomial(10.0, 3.0);
    let _ = lgamma(4.0);
}
