use autograd::differentiable;

/// Huber loss: an `if` / `else` as the tail expression.
#[differentiable]
fn huber(x: f64, delta: f64) -> f64 {
    if x.abs() <= delta {
        0.5 * x * x
    } else {
        delta * (x.abs() - 0.5 * delta)
    }
}

/// `else if` chains as a `let` value, with conditions using `&&`, `||` and `!`.
#[differentiable]
fn piecewise(x: f64, y: f64) -> f64 {
    let r = if x < 0.0 && y < 0.0 {
        x * y
    } else if !(x < 1.0) || y > 10.0 {
        x + y
    } else {
        let t = x * x;
        t * y
    };
    r * 2.0
}

/// `if` as a statement, assigning a mutable variable in one branch.
#[differentiable]
fn clamp_low(x: f64) -> f64 {
    let mut y = x * 3.0;
    if y < 1.0 {
        y = 1.0;
    }
    y
}

fn main() {
    assert_eq!(huber_grad(0.5, 1.0), (0.125, 0.5, 0.0));
    // delta·(|x| − delta/2) = 2·(3 − 1) = 4; ∂x = delta = 2; ∂delta = |x| − delta = 1.
    assert_eq!(huber_grad(3.0, 2.0), (4.0, 2.0, 1.0));
    assert_eq!(huber_grad(-3.0, 2.0), (4.0, -2.0, 1.0));

    assert_eq!(piecewise_grad(-1.0, -2.0), (4.0, -4.0, -2.0));
    assert_eq!(piecewise_grad(2.0, 3.0), (10.0, 2.0, 2.0));
    // 2·x²·y at (0.5, 4): 2; ∂x = 4xy = 8, ∂y = 2x² = 0.5.
    assert_eq!(piecewise_grad(0.5, 4.0), (2.0, 8.0, 0.5));

    assert_eq!(clamp_low_grad(1.0), (3.0, 3.0));
    assert_eq!(clamp_low_grad(0.1), (1.0, 0.0));
}
