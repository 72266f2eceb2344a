use autograd::differentiable;

/// Dirichlet energy of a grid held as `Vec<Vec<f64>>` built from a flat
/// parameter slice.
#[differentiable]
pub fn nested_vec_grid(u: &[f64], #[constant] n: usize) -> f64 {
    let mut grid = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            grid[i][j] = u[i * n + j];
        }
    }
    let mut e = 0.0;
    for i in 0..n - 1 {
        for j in 0..n - 1 {
            let dx = grid[i + 1][j] - grid[i][j];
            let dy = grid[i][j + 1] - grid[i][j];
            e += dx * dx + dy * dy;
        }
    }
    e
}

pub fn check() -> Result<(), String> {
    let u: Vec<f64> = (0..9).map(|k| (k as f64 * 0.7).sin()).collect();
    let (v, g) = nested_vec_grid_grad(&u, 3);
    crate::support::same_value("grid", v, nested_vec_grid(&u, 3))?;
    let want = crate::support::fd_grad(|q| nested_vec_grid(q, 3), &u);
    crate::support::close("grid", &g, &want, 1e-6)?;
    Ok(())
}
