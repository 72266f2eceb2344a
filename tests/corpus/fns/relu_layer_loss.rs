use autograd::differentiable;

/// A dense ReLU layer written with nested index loops over a row-major weight slice.
#[differentiable]
pub fn relu_layer_loss(weights: &[f64], #[constant] input: &[f64], #[constant] n_out: usize) -> f64 {
    let n_in = input.len();
    let mut loss = 0.0;
    for o in 0..n_out {
        let mut acc = 0.0;
        for i in 0..n_in {
            acc += weights[o * n_in + i] * input[i];
        }
        let act = if acc > 0.0 { acc } else { 0.0 };
        loss += act * act;
    }
    loss
}

pub fn check() -> Result<(), String> {
    let input = [1.0, -0.5, 0.25];
    for w in [vec![0.2, 0.1, -0.3, -0.4, 0.5, 0.9], vec![1.0, 1.0, 1.0, 0.3, -0.2, 0.1]] {
        let (v, g) = relu_layer_loss_grad(&w, &input, 2);
        crate::support::same_value("relu", v, relu_layer_loss(&w, &input, 2))?;
        let want = crate::support::fd_grad(|q| relu_layer_loss(q, &input, 2), &w);
        crate::support::close("relu_layer_loss", &g, &want, 1e-6)?;
    }
    Ok(())
}
