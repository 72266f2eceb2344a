use autograd::differentiable;

/// The cell of a uniform grid holding `x`, and the weight of its right end.
fn cell_of(x: f64, h: f64) -> (usize, f64) {
    let s = x / h;
    (s.floor() as usize, s.fract())
}

// A tuple from a function without the attribute (first-order code takes
// its components as constants) has no second-order copy to call: one
// error at the call, not rustc's errors about the dual numbers.
#[differentiable(hessian)]
fn interpolation(values: &[f64], #[constant] xs: &[f64], #[constant] h: f64) -> f64 {
    let n = values.len();
    let mut total = 0.0;
    for &x in xs {
        let (i, w) = cell_of(x, h);
        let right = (i + 1).min(n - 1);
        total += ((1.0 - w) * values[i] + w * values[right]).powi(2);
    }
    total
}

fn main() {
    let _ = interpolation_grad(&[1.0, 2.0], &[0.5], 1.0);
}
