use autograd::differentiable;

/// A recursive continued fraction evaluated to a fixed depth.
#[differentiable]
pub fn recursion_power_tower(x: f64, depth: usize) -> f64 {
    if depth == 0 {
        return x;
    }
    x + 1.0 / (1.0 + recursion_power_tower(x, depth - 1))
}

pub fn check() -> Result<(), String> {
    for x in [0.5, 1.7] {
        let (v, g) = recursion_power_tower_grad(x, 5);
        crate::support::same_value("cf", v, recursion_power_tower(x, 5))?;
        let want = crate::support::fd_grad(|q| recursion_power_tower(q[0], 5), &[x]);
        crate::support::close("cf", &[g], &want, 1e-6)?;
    }
    Ok(())
}
