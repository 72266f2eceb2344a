use autograd::differentiable;

/// GRU weights, row-major `Vec<Vec<f64>>` as they come out of a loader.
#[derive(Clone, Debug)]
pub struct GruWeights {
    pub wz: Vec<Vec<f64>>,
    pub uz: Vec<Vec<f64>>,
    pub wr: Vec<Vec<f64>>,
    pub ur: Vec<Vec<f64>>,
    pub wh: Vec<Vec<f64>>,
    pub uh: Vec<Vec<f64>>,
}

#[differentiable]
fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

#[differentiable]
fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// One GRU step from hidden state `h` on input `x`, read out as half the
/// squared norm of the new hidden state.
#[differentiable]
pub fn gru_step_nested_helpers(x: &[f64], h: &[f64], #[constant] p: &GruWeights) -> f64 {
    let n = h.len();
    let r: Vec<f64> = (0..n).map(|i| sigmoid(dot(&p.wr[i], x) + dot(&p.ur[i], h))).collect();
    let rh: Vec<f64> = r.iter().zip(h).map(|(a, b)| a * b).collect();
    let mut out = 0.0;
    for i in 0..n {
        let z = sigmoid(dot(&p.wz[i], x) + dot(&p.uz[i], h));
        let cand = (dot(&p.wh[i], x) + dot(&p.uh[i], &rh)).tanh();
        let hi = (1.0 - z) * h[i] + z * cand;
        out += hi * hi;
    }
    0.5 * out
}

pub fn check() -> Result<(), String> {
    let m = |s: f64| -> Vec<Vec<f64>> { (0..2).map(|i| (0..2).map(|j| ((i * 2 + j) as f64 + s).sin() * 0.8).collect()).collect() };
    let p = GruWeights { wz: m(0.1), uz: m(0.7), wr: m(1.3), ur: m(2.1), wh: m(2.9), uh: m(3.4) };
    for (x, h) in [(vec![0.5, -1.0], vec![0.2, 0.4]), (vec![-0.3, 0.8], vec![-0.6, 0.1])] {
        let (v, dx, dh) = gru_step_nested_helpers_grad(&x, &h, &p);
        crate::support::same_value("gru", v, gru_step_nested_helpers(&x, &h, &p))?;
        let pt = [x[0], x[1], h[0], h[1]];
        let want = crate::support::fd_grad(|q| gru_step_nested_helpers(&q[..2], &q[2..], &p), &pt);
        crate::support::close("gru_step_nested_helpers", &[dx[0], dx[1], dh[0], dh[1]], &want, 1e-6)?;
    }
    Ok(())
}
