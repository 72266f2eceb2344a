use approx::assert_relative_eq;
use autograd::differentiable;

/// Present value of cash flows at a flat rate `r`; the flows and times are data.
#[differentiable]
fn present_value(r: f64, #[constant] cash_flows: &[f64], #[constant] times: &Vec<f64>) -> f64 {
    let mut pv = 0.0;
    for i in 0..cash_flows.len() {
        pv += cash_flows[i] * (-r * times[i]).exp();
    }
    pv
}

/// `k` is marked constant: no slot, even though it is a float.
#[differentiable]
fn scaled(x: f64, #[constant] k: f64) -> f64 {
    k * x * x
}

pub struct Settings {
    pub threshold: f64,
}

/// A constant struct, read only in a condition.
#[differentiable]
fn gated(x: f64, #[constant] s: &Settings) -> f64 {
    if x > s.threshold { x * x } else { x }
}

fn main() {
    let cf = [5.0, 5.0, 105.0];
    let t = vec![1.0, 2.0, 3.0];
    let r = 0.03;
    let (v, d) = present_value_grad(r, &cf, &t);
    assert_eq!(v, present_value(r, &cf, &t));
    let want: f64 = (0..3).map(|i| -t[i] * cf[i] * (-r * t[i]).exp()).sum();
    assert_relative_eq!(d, want, epsilon = 1e-12, max_relative = 1e-12);

    // The tuple has the value and one slot, for `x` only.
    let g: (f64, f64) = scaled_grad(3.0, 2.0);
    assert_eq!(g, (18.0, 12.0));

    let s = Settings { threshold: 1.0 };
    assert_eq!(gated_grad(3.0, &s), (9.0, 6.0));
    assert_eq!(gated_grad(0.5, &s), (0.5, 1.0));
}
