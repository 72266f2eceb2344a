use approx::assert_relative_eq;
use autograd::differentiable;

/// The seed example: w = x·y + x.
#[differentiable]
fn w(x: f64, y: f64) -> f64 {
    let z = x * y;
    z + x
}

/// (x − y) / (x + y): ∂x = 2y/(x+y)², ∂y = −2x/(x+y)².
#[differentiable]
fn quotient(x: f64, y: f64) -> f64 {
    (x - y) / (x + y)
}

/// 3x² − x + 1 with typed and untyped lets, unary minus and literals.
#[differentiable]
fn poly(x: f64) -> f64 {
    let a: f64 = 3.0 * x * x;
    let b = -x;
    a + b + 1.0
}

/// One variable along many routes: x·x·x + x/x + (x − x) = x³ + 1.
#[differentiable]
fn many_routes(x: f64) -> f64 {
    let c = x * x * x;
    let d = x / x;
    let e = x - x;
    c + d + e
}

fn main() {
    assert_eq!(w(3.0, 4.0), 15.0);
    assert_eq!(w_grad(3.0, 4.0), (15.0, 5.0, 3.0));
    let (value, pullback) = w_vjp(3.0, 4.0);
    assert_eq!(value, 15.0);
    assert_eq!(pullback(2.0), (10.0, 6.0));
    assert!(w_check(3.0, 4.0).is_within(1e-6, 1e-6));

    let (v, dx, dy) = quotient_grad(3.0, 1.0);
    assert_eq!(v, quotient(3.0, 1.0));
    assert_relative_eq!(v, 0.5, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(dx, 2.0 / 16.0, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(dy, -6.0 / 16.0, epsilon = 1e-15, max_relative = 1e-15);

    let (v, d) = poly_grad(2.0);
    assert_eq!(v, poly(2.0));
    assert_eq!((v, d), (11.0, 11.0));

    let (v, d) = many_routes_grad(2.0);
    assert_eq!(v, many_routes(2.0));
    assert_relative_eq!(v, 9.0, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(d, 12.0, epsilon = 1e-12, max_relative = 1e-12);
}
