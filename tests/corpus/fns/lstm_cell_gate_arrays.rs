use autograd::differentiable;

#[differentiable]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// One LSTM cell over a short scalar sequence; the four gates' weights as
/// `[f64; 4]` arrays (input, forget, cell, output), the state a tuple.
#[differentiable]
pub fn lstm_cell_gate_arrays(w_x: [f64; 4], w_h: [f64; 4], b: [f64; 4], #[constant] xs: &[f64]) -> f64 {
    let (mut h, mut c) = (0.0, 0.0);
    for &x in xs {
        let mut pre = [0.0; 4];
        for g in 0..4 {
            pre[g] = w_x[g] * x + w_h[g] * h + b[g];
        }
        let i = sigmoid(pre[0]);
        let f = sigmoid(pre[1]);
        let cand = pre[2].tanh();
        let o = sigmoid(pre[3]);
        c = f * c + i * cand;
        h = o * c.tanh();
    }
    h
}

pub fn check() -> Result<(), String> {
    let xs = [0.5, -0.3, 1.2, 0.8, -1.0];
    let p = [0.4, -0.2, 0.9, 0.3, 0.1, 0.5, -0.4, 0.2, 0.0, 1.0, 0.1, -0.1];
    let arr = |q: &[f64], k: usize| [q[k], q[k + 1], q[k + 2], q[k + 3]];
    let f = |q: &[f64]| lstm_cell_gate_arrays(arr(q, 0), arr(q, 4), arr(q, 8), &xs);
    let (v, a, b, c) = lstm_cell_gate_arrays_grad(arr(&p, 0), arr(&p, 4), arr(&p, 8), &xs);
    crate::support::same_value("lstm", v, f(&p))?;
    let got: Vec<f64> = a.iter().chain(&b).chain(&c).copied().collect();
    crate::support::close("lstm_cell_gate_arrays", &got, &crate::support::fd_grad(f, &p), 1e-6)
}
