// Exits and `match` that earlier versions rejected (see
// tests/control_exits.rs for their values and derivatives).
use autograd::differentiable;

#[differentiable]
fn capped_sum(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        if acc > 10.0 {
            break;
        }
        acc += x[i];
    }
    acc
}

#[differentiable]
fn positive_sum(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        if x[i] < 0.0 {
            continue;
        }
        acc += x[i];
    }
    acc
}

#[differentiable]
fn first_above(x: f64) -> f64 {
    let mut y = x;
    let r = loop {
        y = y * 2.0;
        if y > 10.0 {
            break y;
        }
    };
    r
}

#[differentiable]
fn piecewise(x: f64, n: i32) -> f64 {
    match n {
        0 => x,
        _ => x * x,
    }
}

#[differentiable]
fn clipped(x: f64) -> f64 {
    if x > 1.0 {
        return 1.0;
    }
    x
}

#[differentiable]
fn doubled(x: f64, n: usize) -> f64 {
    let mut y = x;
    'outer: for _ in 0..n {
        y = y * 2.0;
    }
    y
}

fn main() {
    let _ = (capped_sum_grad(&[1.0]), positive_sum_grad(&[1.0]));
    let _ = (first_above_grad(1.0), piecewise_grad(1.0, 0));
    let _ = (clipped_grad(2.0), doubled_grad(1.0, 2));
}
