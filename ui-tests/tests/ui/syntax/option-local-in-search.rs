use autograd::differentiable;

// An `Option` local read inside a search's closure (primal code) other than
// by `is_some` / `is_none` is one error at the local saying what to write.
#[differentiable]
fn after_first_peak(x: &[f64]) -> f64 {
    let mut peak: Option<f64> = None;
    for &v in x {
        if v > 1.0 {
            peak = Some(v);
        }
    }
    let k = x.iter().position(|&v| Some(v) == peak).unwrap_or(0);
    x[k] * 2.0
}

fn main() {
    let _ = after_first_peak(&[1.0, 2.0]);
}
