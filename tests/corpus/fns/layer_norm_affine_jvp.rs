use autograd::differentiable;

/// Layer normalisation with gain and bias, then a dot with a fixed readout;
/// statistics by `iter().sum::<f64>() / n as f64`.
#[differentiable(jvp)]
pub fn layer_norm_affine_jvp(x: &[f64], gain: &[f64], bias: &[f64], #[constant] readout: &[f64]) -> f64 {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    let inv_std = 1.0 / (var + 1e-5).sqrt();
    let mut out = 0.0;
    for i in 0..x.len() {
        let y = gain[i] * (x[i] - mean) * inv_std + bias[i];
        out += readout[i] * y;
    }
    out
}

pub fn check() -> Result<(), String> {
    let x = vec![0.5, -1.0, 2.0, 0.1];
    let gain = vec![1.0, 0.9, 1.1, 1.2];
    let bias = vec![0.0, 0.1, -0.1, 0.05];
    let ro = [0.3, -0.7, 1.1, 0.2];
    let (v, gx, gg, gb) = layer_norm_affine_jvp_grad(&x, &gain, &bias, &ro);
    crate::support::same_value("ln", v, layer_norm_affine_jvp(&x, &gain, &bias, &ro))?;
    let mut p = x.clone();
    p.extend(&gain);
    p.extend(&bias);
    let f = |q: &[f64]| layer_norm_affine_jvp(&q[0..4], &q[4..8], &q[8..12], &ro);
    let want = crate::support::fd_grad(f, &p);
    let mut got = gx.clone();
    got.extend(&gg);
    got.extend(&gb);
    crate::support::close("layer_norm_affine_jvp", &got, &want, 1e-6)?;
    let (dx, dg, db) = ([1.0, 0.0, -1.0, 0.5], [0.1; 4], [0.2, -0.2, 0.0, 1.0]);
    let (_, jt) = layer_norm_affine_jvp_jvp(&x, &gain, &bias, &ro, &dx, &dg, &db);
    let dir: Vec<f64> = dx.iter().chain(&dg).chain(&db).copied().collect();
    let dot: f64 = want.iter().zip(&dir).map(|(a, b)| a * b).sum();
    crate::support::close("layer_norm jvp", &[jt], &[dot], 1e-6)
}
