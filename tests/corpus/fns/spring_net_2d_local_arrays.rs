use autograd::differentiable;

/// Springs of a braced square: the four sides and one diagonal.
const EDGES: [(usize, usize); 5] = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2)];

/// Elastic energy of four masses in the plane; positions arrive flat
/// (x0, y0, x1, y1, ...) and are unpacked into a local `[[f64; 2]; 4]`.
#[differentiable]
pub fn spring_net_2d_local_arrays(flat: &[f64], #[constant] rest: &[f64], #[constant] k: f64) -> f64 {
    let mut p = [[0.0; 2]; 4];
    for i in 0..4 {
        p[i][0] = flat[2 * i];
        p[i][1] = flat[2 * i + 1];
    }
    let mut energy = 0.0;
    for (e, &(a, b)) in EDGES.iter().enumerate() {
        let len = (p[a][0] - p[b][0]).hypot(p[a][1] - p[b][1]);
        energy += 0.5 * k * (len - rest[e]).powi(2);
    }
    energy
}

pub fn check() -> Result<(), String> {
    let rest = [1.0, 1.0, 1.0, 1.0, std::f64::consts::SQRT_2];
    for flat in [vec![0.0, 0.0, 1.1, 0.05, 1.0, 0.9, -0.1, 1.2], vec![0.2, -0.1, 0.9, 0.0, 1.3, 1.1, 0.1, 0.8]] {
        let (v, g) = spring_net_2d_local_arrays_grad(&flat, &rest, 50.0);
        crate::support::same_value("springs", v, spring_net_2d_local_arrays(&flat, &rest, 50.0))?;
        let want = crate::support::fd_grad(|q| spring_net_2d_local_arrays(q, &rest, 50.0), &flat);
        crate::support::close("spring_net_2d_local_arrays", &g, &want, 1e-6)?;
    }
    Ok(())
}
