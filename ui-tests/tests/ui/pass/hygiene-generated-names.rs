use autograd::differentiable;

// Locals named like the generated code's: they must neither capture nor be
// captured by it.
#[differentiable]
fn locals(x: f64, y: f64) -> f64 {
    let __ad_v1 = x * y;
    let __ad_d1 = __ad_v1 + x;
    let __ad_seed = 2.0;
    let seed = __ad_d1 * __ad_seed;
    let value = seed - y;
    let pullback = value * x;
    let check = pullback + 1.0;
    let d_x = check * 0.5;
    let __ad_d_x = d_x + y;
    __ad_d_x
}

// Arguments named like the generated code's.
#[differentiable]
fn arguments(seed: f64, pullback: f64, __ad_seed: f64, __ad_d_seed: f64) -> f64 {
    seed * pullback + __ad_seed * __ad_d_seed
}

// Arguments named like the wrappers' locals (`value`, `check`, `d_x`).
#[differentiable]
fn wrapper_like(value: f64, check: f64, x: f64) -> f64 {
    value * check + x
}

// An argument `d_x` next to an argument `x`.
#[differentiable]
fn adjoint_like(x: f64, d_x: f64) -> f64 {
    x * x * d_x
}

fn main() {
    // value = 2(xy + x) − y; pullback = value·x; check = pullback + 1;
    // result = check/2 + y = x²y + x² − xy/2 + 1/2 + y.
    let (x, y) = (3.0, 4.0);
    let (v, dx, dy) = locals_grad(x, y);
    assert_eq!(v, locals(x, y));
    assert_eq!(v, x * x * y + x * x - x * y / 2.0 + 0.5 + y);
    assert_eq!(dx, 2.0 * x * y + 2.0 * x - y / 2.0);
    assert_eq!(dy, x * x - x / 2.0 + 1.0);
    assert!(locals_check(x, y).is_within(1e-6, 1e-6));

    assert_eq!(
        arguments_grad(1.0, 2.0, 3.0, 4.0),
        (14.0, 2.0, 1.0, 4.0, 3.0)
    );
    let (v, pullback) = arguments_vjp(1.0, 2.0, 3.0, 4.0);
    assert_eq!(v, 14.0);
    assert_eq!(pullback(2.0), (4.0, 2.0, 8.0, 6.0));
    assert!(arguments_check(1.0, 2.0, 3.0, 4.0).is_within(1e-6, 1e-6));

    assert_eq!(wrapper_like_grad(3.0, 4.0, 5.0), (17.0, 4.0, 3.0, 1.0));
    let (v, pullback) = wrapper_like_vjp(3.0, 4.0, 5.0);
    assert_eq!((v, pullback(2.0)), (17.0, (8.0, 6.0, 2.0)));
    assert!(wrapper_like_check(3.0, 4.0, 5.0).is_within(1e-6, 1e-6));

    assert_eq!(adjoint_like_grad(3.0, 2.0), (18.0, 12.0, 9.0));
    assert!(adjoint_like_check(3.0, 2.0).is_within(1e-6, 1e-6));
}
