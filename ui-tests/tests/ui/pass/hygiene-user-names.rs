use autograd::differentiable;

#[differentiable]
fn w(x: f64, y: f64) -> f64 {
    let z = x * y;
    z + x
}

/// A local named like a generated function, holding a call's value.
#[differentiable]
fn uses_w(x: f64) -> f64 {
    let w_grad = w(x, 2.0);
    let w_vjp = w_grad * x;
    w_vjp
}

/// Arguments shadowed by `let`s of the same name, in blocks too.
#[differentiable]
fn shadowed(x: f64, y: f64) -> f64 {
    let x = x * 2.0;
    let x = x + 1.0;
    let y = {
        let x = y * 10.0;
        x + y
    };
    x * x + y
}

/// A mutable argument re-assigned with compound operators.
#[differentiable]
fn mutated(mut x: f64) -> f64 {
    x += 1.0;
    x *= x;
    x
}

fn main() {
    let w_grad = w_grad(3.0, 4.0);
    assert_eq!(w_grad, (15.0, 5.0, 3.0));

    // (2x + x)·x = 3x²: at 2, 12 and 12.
    assert_eq!(uses_w_grad(2.0), (12.0, 12.0));

    // (2x + 1)² + 11y: ∂x = 4(2x + 1), ∂y = 11.
    assert_eq!(shadowed_grad(1.0, 2.0), (31.0, 12.0, 11.0));

    // (x + 1)²: ∂x = 2(x + 1).
    assert_eq!(mutated_grad(2.0), (9.0, 6.0));
}
