use autograd::differentiable;

/// Compounds until the balance doubles; `break` with a value gives the overshoot.
#[differentiable]
pub fn loop_break_value(principal: f64, rate: f64) -> f64 {
    let mut balance = principal;
    let mut years = 0;
    let overshoot = loop {
        balance *= 1.0 + rate;
        years += 1;
        if balance >= 2.0 * principal || years > 100 {
            break balance - 2.0 * principal;
        }
    };
    overshoot
}

pub fn check() -> Result<(), String> {
    scalar_check!(loop_break_value, loop_break_value_grad, 1e-6, [[100.0, 0.07], [1000.0, 0.033]], (principal, rate))
}
