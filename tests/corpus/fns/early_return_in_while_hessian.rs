use autograd::differentiable;

/// Newton's iteration for the cube root with an early return once
/// converged, under `hessian`.
#[differentiable(hessian)]
pub fn early_return_in_while_hessian(a: f64, w: f64) -> f64 {
    let mut x = 1.0;
    let mut k = 0;
    while k < 50 {
        let next = x - (x * x * x - a) / (3.0 * x * x);
        if (next - x).abs() < 1e-15 {
            return w * next * next;
        }
        x = next;
        k += 1;
    }
    w * x * x
}

pub fn check() -> Result<(), String> {
    for (a, w) in [(2.0, 0.5), (27.0, 1.5)] {
        let (v, da, dw) = early_return_in_while_hessian_grad(a, w);
        crate::support::same_value("cbrt", v, early_return_in_while_hessian(a, w))?;
        // Closed form: w·a^(2/3); ∂a = (2/3)·w·a^(−1/3), ∂w = a^(2/3).
        let want = [2.0 / 3.0 * w * a.powf(-1.0 / 3.0), a.powf(2.0 / 3.0)];
        crate::support::close("cbrt", &[da, dw], &want, 1e-9)?;
        let (_, _, h) = early_return_in_while_hessian_hessian(a, w);
        let haa = -2.0 / 9.0 * w * a.powf(-4.0 / 3.0);
        let haw = 2.0 / 3.0 * a.powf(-1.0 / 3.0);
        crate::support::close("cbrt h", &[h[(0, 0)], h[(0, 1)], h[(1, 1)]], &[haa, haw, 0.0], 1e-7)?;
    }
    Ok(())
}
