use autograd::differentiable;

/// Cobb–Douglas utility over a bundle passed as a fixed-size array.
#[differentiable]
pub fn array_arg(x: [f64; 3]) -> f64 {
    x[0].powf(0.3) * x[1].powf(0.5) * x[2].powf(0.2)
}

pub fn check() -> Result<(), String> {
    for x in [[1.0, 2.0, 3.0], [0.5, 4.0, 1.5]] {
        let (v, g) = array_arg_grad(x);
        crate::support::same_value("cd", v, array_arg(x))?;
        let want = crate::support::fd_grad(|q| array_arg([q[0], q[1], q[2]]), &x);
        crate::support::close("array_arg", &g, &want, 1e-6)?;
    }
    Ok(())
}
