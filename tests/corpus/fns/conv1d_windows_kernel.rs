use autograd::differentiable;

/// A 1-D "valid" convolution with a learned kernel and bias, tanh
/// activation, mean squared error against a target signal.
#[differentiable]
pub fn conv1d_windows_kernel(kernel: &[f64], bias: f64, #[constant] signal: &[f64], #[constant] target: &[f64]) -> f64 {
    signal
        .windows(kernel.len())
        .zip(target)
        .map(|(win, &t)| {
            let act = (win.iter().zip(kernel).map(|(s, k)| s * k).sum::<f64>() + bias).tanh();
            (act - t).powi(2)
        })
        .sum::<f64>()
        / target.len() as f64
}

pub fn check() -> Result<(), String> {
    let signal = [0.1, 0.5, -0.3, 0.8, 1.2, -0.6, 0.4, 0.9];
    let target = [0.2, 0.1, 0.5, 0.6, -0.1, 0.3];
    for (k, b) in [(vec![0.3, -0.2, 0.5], 0.05), (vec![-0.6, 0.9, 0.1], -0.2)] {
        let (v, gk, gb) = conv1d_windows_kernel_grad(&k, b, &signal, &target);
        crate::support::same_value("conv", v, conv1d_windows_kernel(&k, b, &signal, &target))?;
        let mut p = k.clone();
        p.push(b);
        let want = crate::support::fd_grad(|q| conv1d_windows_kernel(&q[..3], q[3], &signal, &target), &p);
        let mut got = gk.clone();
        got.push(gb);
        crate::support::close("conv1d_windows_kernel", &got, &want, 1e-6)?;
    }
    Ok(())
}
