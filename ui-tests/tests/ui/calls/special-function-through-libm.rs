use autograd::differentiable;

// libm's erf has the value of autograd's but no derivative rule: the
// error names `autograd::special::erf`.
#[differentiable]
fn norm_cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x / 2.0_f64.sqrt())
}

fn main() {
    let _ = norm_cdf(0.3);
}
