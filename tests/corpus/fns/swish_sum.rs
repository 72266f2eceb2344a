use autograd::differentiable;
use autograd::prelude::sigmoid;

#[differentiable]
pub fn swish_sum(xs: &[f64], beta: f64) -> f64 {
    xs.iter().map(|&x| x * sigmoid(beta * x)).sum()
}

pub fn check() -> Result<(), String> {
    for (x, b) in [(vec![0.5, -1.0, 2.0], 1.0), (vec![3.0, -0.2], 1.7)] {
        let (v, dx, db) = swish_sum_grad(&x, b);
        crate::support::same_value("swish", v, swish_sum(&x, b))?;
        let n = x.len();
        let mut p = x.clone();
        p.push(b);
        let want = crate::support::fd_grad(|q| swish_sum(&q[..n], q[n]), &p);
        let mut got = dx;
        got.push(db);
        crate::support::close("swish_sum", &got, &want, 1e-6)?;
    }
    Ok(())
}
