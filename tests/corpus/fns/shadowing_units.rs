use autograd::differentiable;

/// Converts an annual vol quoted in percent to a daily log-variance and back,
/// shadowing the same name at each step.
#[differentiable]
pub fn shadowing_units(vol_pct: f64, days: f64) -> f64 {
    let vol = vol_pct / 100.0;
    let vol = vol * (days / 252.0).sqrt();
    let var = vol * vol;
    let var = var.ln();
    let var = var.exp() + 0.5 * var;
    var
}

pub fn check() -> Result<(), String> {
    scalar_check!(shadowing_units, shadowing_units_grad, 1e-6, [[20.0, 10.0], [35.0, 63.0]], (vol_pct, days))
}
