use autograd::differentiable;

/// Integers and `bool` are constant by nature: no slot in the tuple.
#[differentiable]
fn scaled_power(x: f64, n: i32, m: usize, flip: bool) -> f64 {
    let k = n * 2;
    let y = x.powi(k) * m as f64;
    if flip { -y } else { y }
}

/// Integer arithmetic on constants, cast to the float type.
#[differentiable]
fn mean_step(x: f64, count: u32) -> f64 {
    let half = count / 2 + 1;
    x * (half as f64) / (count as f64)
}

fn main() {
    // 3·x⁴ at x = 2: 48; derivative 12·x³ = 96.
    let g: (f64, f64) = scaled_power_grad(2.0, 2, 3, false);
    assert_eq!(g, (48.0, 96.0));
    assert_eq!(scaled_power_grad(2.0, 2, 3, true), (-48.0, -96.0));
    assert_eq!(scaled_power(2.0, 2, 3, true), -48.0);

    // count = 4: half = 3, x·3/4.
    assert_eq!(mean_step_grad(2.0, 4), (1.5, 0.75));
}
