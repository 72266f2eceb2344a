use autograd::differentiable;

/// Pairwise soft-repulsion energy, skipping pairs with a labelled continue.
#[differentiable]
pub fn labelled_continue(pos: &[f64]) -> f64 {
    let mut energy = 0.0;
    'outer: for i in 0..pos.len() {
        for j in 0..pos.len() {
            if j <= i {
                continue;
            }
            if (pos[i] - pos[j]).abs() > 10.0 {
                continue 'outer;
            }
            energy += 1.0 / (1.0 + (pos[i] - pos[j]).powi(2));
        }
    }
    energy
}

pub fn check() -> Result<(), String> {
    for x in [vec![0.0, 0.5, 1.7, 3.0], vec![1.0, -1.0, 0.2]] {
        let (v, g) = labelled_continue_grad(&x);
        crate::support::same_value("energy", v, labelled_continue(&x))?;
        let want = crate::support::fd_grad(labelled_continue, &x);
        crate::support::close("labelled_continue", &g, &want, 1e-6)?;
    }
    Ok(())
}
