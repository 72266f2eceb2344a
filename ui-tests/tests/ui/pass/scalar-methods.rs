use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::prelude::*;

#[differentiable]
fn exp_ln(x: f64) -> f64 {
    x.exp() * x.ln()
}

#[differentiable]
fn powers(x: f64) -> f64 {
    x.sqrt() + x.powi(3) + x.powf(0.5)
}

#[differentiable]
fn power_of_both(x: f64, y: f64) -> f64 {
    x.powf(y)
}

#[differentiable]
fn trig(x: f64) -> f64 {
    x.sin() * x.cos() + x.tanh()
}

#[differentiable]
fn clamps(x: f64, y: f64) -> f64 {
    x.abs().max(y).min(10.0)
}

#[differentiable]
fn activations(x: f64) -> f64 {
    x.sigmoid() + x.relu()
}

#[differentiable]
fn path_form(x: f64) -> f64 {
    f64::exp(x) + f64::powi(x, 2)
}

fn close(a: f64, b: f64) {
    assert_relative_eq!(a, b, epsilon = 1e-12, max_relative = 1e-12);
}

fn main() {
    let x = 2.0_f64;
    let (v, d) = exp_ln_grad(x);
    assert_eq!(v, exp_ln(x));
    close(d, x.exp() * x.ln() + x.exp() / x);

    // √4 + 4³ + 4^0.5 = 68; 1/(2·2) + 3·16 + 0.5/2 = 48.5
    assert_eq!(powers_grad(4.0), (68.0, 48.5));

    let (v, dx, dy) = power_of_both_grad(2.0, 3.0);
    assert_eq!(v, 8.0);
    close(dx, 3.0 * 4.0);
    close(dy, 8.0 * 2.0_f64.ln());

    let x = 0.7_f64;
    let (v, d) = trig_grad(x);
    assert_eq!(v, trig(x));
    close(d, (2.0 * x).cos() + 1.0 - x.tanh() * x.tanh());

    // |−3| = 3 wins the max and the min: d/dx = sign(x) = −1, d/dy = 0.
    assert_eq!(clamps_grad(-3.0, 1.0), (3.0, -1.0, 0.0));
    // y wins the max.
    assert_eq!(clamps_grad(-3.0, 5.0), (5.0, 0.0, 1.0));

    let x = 0.5_f64;
    let s = 1.0 / (1.0 + (-x).exp());
    let (v, d) = activations_grad(x);
    assert_eq!(v, activations(x));
    close(d, s * (1.0 - s) + 1.0);
    let (_, d) = activations_grad(-0.5);
    let s = 1.0 / (1.0 + 0.5_f64.exp());
    close(d, s * (1.0 - s));

    let (v, d) = path_form_grad(1.5);
    assert_eq!(v, path_form(1.5));
    close(d, 1.5_f64.exp() + 3.0);
}
