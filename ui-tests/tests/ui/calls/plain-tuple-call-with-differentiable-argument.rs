// A plain function's tuple taken apart where its argument has a derivative:
// one error at the call, never a dropped derivative (finding 034, 1).
use autograd::differentiable;

fn cell_of(x: f64) -> (usize, f64) {
    (x.floor() as usize, x.fract())
}

#[differentiable]
fn interpolate(values: &[f64], x: f64) -> f64 {
    let (i, w) = cell_of(x);
    (1.0 - w) * values[i] + w * values[i + 1]
}

fn main() {
    let _ = interpolate_grad(&[1.0, 2.0, 3.0], 1.25);
}
