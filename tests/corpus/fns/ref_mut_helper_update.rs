use autograd::differentiable;

/// One Adam-like step written into the caller's buffers.
#[differentiable]
fn update(w: &mut [f64], m: &mut [f64], g: &[f64], lr: f64) {
    for i in 0..w.len() {
        m[i] = 0.9 * m[i] + 0.1 * g[i];
        w[i] -= lr * m[i];
    }
}

/// Two steps of gradient descent on a quadratic, then its value: the
/// gradient with respect to the initial weights and the learning rate.
#[differentiable]
pub fn ref_mut_helper_update(w0: &[f64], lr: f64) -> f64 {
    let mut w = w0.to_vec();
    let mut m = vec![0.0; w.len()];
    for _ in 0..2 {
        let g: Vec<f64> = w.iter().map(|v| 2.0 * v).collect();
        update(&mut w, &mut m, &g, lr);
    }
    w.iter().map(|v| v * v).sum()
}

pub fn check() -> Result<(), String> {
    let w0 = [1.0, -0.5];
    let (v, g, dlr) = ref_mut_helper_update_grad(&w0, 0.3);
    crate::support::same_value("adam", v, ref_mut_helper_update(&w0, 0.3))?;
    let mut all = g.clone();
    all.push(dlr);
    let want = crate::support::fd_grad(|q| ref_mut_helper_update(&q[..2], q[2]), &[1.0, -0.5, 0.3]);
    crate::support::close("adam", &all, &want, 1e-6)?;
    Ok(())
}
