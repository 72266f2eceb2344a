use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::prelude::*;

/// σ(x) and tanh(x) through `_vjp` with seed 2.
#[differentiable]
fn sig(x: f64) -> f64 {
    x.sigmoid()
}

#[differentiable]
fn th(x: f64) -> f64 {
    x.tanh()
}

fn main() {
    let x = 0.3_f64;
    let (v, pullback) = sig_vjp(x);
    assert_eq!(v, sig(x));
    // One argument: the pullback still returns a tuple.
    let (d,) = pullback(2.0);
    let s = 1.0 / (1.0 + (-x).exp());
    assert_relative_eq!(
        d,
        2.0 * s * (1.0 - s),
        epsilon = 1e-15,
        max_relative = 1e-14
    );

    let (v, pullback) = th_vjp(x);
    assert_eq!(v, x.tanh());
    let (d,) = pullback(2.0);
    assert_relative_eq!(
        d,
        2.0 * (1.0 - x.tanh() * x.tanh()),
        epsilon = 1e-15,
        max_relative = 1e-14
    );
}
