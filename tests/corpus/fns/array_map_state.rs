use autograd::differentiable;

/// One explicit step of a damped oscillator, the state's energy per
/// component computed with `map`.
#[differentiable]
pub fn array_map_state(state: [f64; 2], omega: f64, damping: f64, #[constant] dt: f64) -> f64 {
    let [x, v] = state;
    let next = [x + dt * v, v - dt * (omega * omega * x + damping * v)];
    let squares = next.map(|s| s * s);
    0.5 * (omega * omega * squares[0] + squares[1])
}

pub fn check() -> Result<(), String> {
    for p in [[1.0, 0.0, 2.0, 0.1], [0.3, -0.8, 1.2, 0.5]] {
        let (v, ds, dw, dd) = array_map_state_grad([p[0], p[1]], p[2], p[3], 0.05);
        crate::support::same_value("energy", v, array_map_state([p[0], p[1]], p[2], p[3], 0.05))?;
        let want = crate::support::fd_grad(|q| array_map_state([q[0], q[1]], q[2], q[3], 0.05), &p);
        crate::support::close("array_map_state", &[ds[0], ds[1], dw, dd], &want, 1e-6)?;
    }
    Ok(())
}
