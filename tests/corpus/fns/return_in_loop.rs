use autograd::differentiable;

/// First-passage style: returns early from inside the loop when the level is crossed.
#[differentiable]
pub fn return_in_loop(x0: f64, growth: f64, level: f64) -> f64 {
    let mut x = x0;
    for step in 0..50 {
        x *= growth;
        if x > level {
            return x - level + step as f64;
        }
    }
    x
}

pub fn check() -> Result<(), String> {
    scalar_check!(return_in_loop, return_in_loop_grad, 1e-6, [[1.0, 1.1, 2.05], [0.5, 1.3, 10.0], [1.0, 0.9, 5.0]], (x0, growth, level))
}
