use autograd::differentiable;

/// An f32 training loss, as ML code on f32 writes it.
#[differentiable]
pub fn f32_sigmoid_loss(w: f32, b: f32, #[constant] x: f32, #[constant] y: f32) -> f32 {
    let p = 1.0 / (1.0 + (-(w * x + b)).exp());
    (p - y) * (p - y)
}

/// f32: relative 1e-4 against the f64 closed form 2(p−y)p(1−p)·(x, 1).
pub fn check() -> Result<(), String> {
    for (w, b, x, y) in [(0.5_f32, 0.1_f32, 2.0_f32, 1.0_f32), (-1.0, 0.3, 0.5, 0.0)] {
        let (_, dw, db) = f32_sigmoid_loss_grad(w, b, x, y);
        let p = 1.0 / (1.0 + (-(w as f64 * x as f64 + b as f64)).exp());
        let g = 2.0 * (p - y as f64) * p * (1.0 - p);
        crate::support::close("f32_sigmoid_loss", &[dw as f64, db as f64], &[g * x as f64, g], 1e-4)?;
    }
    Ok(())
}
