use autograd::differentiable;

/// Shadowing everywhere: the argument shadowed before the loop, both
/// arguments shadowed afresh inside each iteration (the inner `y` from the
/// inner `x`), and the outer shadow read again after the loop.
#[differentiable]
pub fn tricky_shadow_in_loop(x: f64, y: f64) -> f64 {
    let mut acc = 0.0;
    let x = x * 0.5;
    for k in 0..3 {
        let x = x + k as f64 * y;
        let y = x * y;
        acc += x * y;
    }
    let acc = acc.sqrt() * x;
    acc + y
}

pub fn check() -> Result<(), String> {
    scalar_check!(tricky_shadow_in_loop, tricky_shadow_in_loop_grad, 1e-6,
        [[1.3, 0.7], [2.0, 1.5], [-0.8, 2.2]],
        (x, y))
}
