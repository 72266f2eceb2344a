use autograd::differentiable;

/// Shadowing across nested blocks: the same name rebound inside an inner
/// block, the outer binding read again after it; with `hessian`.
#[differentiable(hessian)]
pub fn shadow_blocks_hessian(x: f64, y: f64) -> f64 {
    let z = x * y;
    let inner = {
        let z = z.sin() + x;
        let z = z * z;
        z + y
    };
    let z = z + inner;
    let z = if z > 0.0 { z.sqrt() } else { -z };
    z * x
}

pub fn check() -> Result<(), String> {
    for p in [[0.7, 1.3], [1.5, -0.4]] {
        let f = |q: &[f64]| shadow_blocks_hessian(q[0], q[1]);
        let g = |q: &[f64]| {
            let (_, a, b) = shadow_blocks_hessian_grad(q[0], q[1]);
            [a, b]
        };
        let (v, grad, h) = shadow_blocks_hessian_hessian(p[0], p[1]);
        crate::support::same_value("shadow", v, f(&p))?;
        crate::support::close("shadow grad", grad.as_slice(), &crate::support::fd_grad(f, &p), 1e-6)?;
        for i in 0..2 {
            crate::support::close(&format!("shadow hessian row {i}"), &[h[(i, 0)], h[(i, 1)]], &crate::support::fd_grad(|q| g(q)[i], &p), 1e-5)?;
        }
    }
    Ok(())
}
