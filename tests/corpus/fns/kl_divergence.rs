use autograd::differentiable;

#[differentiable]
pub fn kl_divergence(p: &[f64], q: &[f64]) -> f64 {
    let mut kl = 0.0;
    for i in 0..p.len() {
        if p[i] == 0.0 {
            continue;
        }
        kl += p[i] * (p[i] / q[i]).ln();
    }
    kl
}

pub fn check() -> Result<(), String> {
    for (p, q) in [(vec![0.2, 0.5, 0.3], vec![0.3, 0.3, 0.4]), (vec![0.6, 0.0, 0.4], vec![0.5, 0.25, 0.25])] {
        let (v, dp, dq) = kl_divergence_grad(&p, &q);
        crate::support::same_value("kl", v, kl_divergence(&p, &q))?;
        // p[i] = 0 is skipped by the function: difference only the others.
        let mut x = p.clone();
        x.extend(&q);
        let want = crate::support::fd_grad(|z| kl_divergence(&z[..3], &z[3..]), &x);
        let mut got = dp;
        got.extend(dq);
        let keep: Vec<usize> = (0..6).filter(|&i| i >= 3 || p[i] != 0.0).collect();
        let pick = |v: &[f64]| keep.iter().map(|&i| v[i]).collect::<Vec<f64>>();
        crate::support::close("kl_divergence", &pick(&got), &pick(&want), 1e-6)?;
    }
    Ok(())
}
