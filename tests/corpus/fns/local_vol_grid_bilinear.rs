use autograd::differentiable;

/// The cell of `axis` holding `x` and the weight of its right end: a plain
/// helper of constants returning an index and a float.
fn bracket(axis: &[f64], x: f64) -> (usize, f64) {
    let mut i = 0;
    while i + 2 < axis.len() && axis[i + 1] <= x {
        i += 1;
    }
    let w = (x - axis[i]) / (axis[i + 1] - axis[i]);
    (i, w)
}

/// Local volatility on a (time, strike) grid stored row-major, read by
/// bilinear interpolation at off-grid quotes; the cells come from a plain
/// helper's `(usize, f64)` tuple.
#[differentiable]
pub fn local_vol_grid_bilinear(grid: &[f64], #[constant] times: &[f64], #[constant] strikes: &[f64], #[constant] probes: &[(f64, f64, f64)]) -> f64 {
    let nk = strikes.len();
    let mut loss = 0.0;
    for &(t, k, quote) in probes {
        let (i, wt) = bracket(times, t);
        let (j, wk) = bracket(strikes, k);
        let v00 = grid[i * nk + j];
        let v01 = grid[i * nk + j + 1];
        let v10 = grid[(i + 1) * nk + j];
        let v11 = grid[(i + 1) * nk + j + 1];
        let v = (1.0 - wt) * ((1.0 - wk) * v00 + wk * v01) + wt * ((1.0 - wk) * v10 + wk * v11);
        loss += (v - quote).powi(2);
    }
    loss
}

pub fn check() -> Result<(), String> {
    let times = [0.25, 0.5, 1.0];
    let strikes = [80.0, 90.0, 100.0, 110.0];
    let grid = vec![0.30, 0.26, 0.22, 0.24, 0.28, 0.25, 0.21, 0.23, 0.27, 0.24, 0.2, 0.215];
    let probes = [(0.3, 95.0, 0.22), (0.8, 85.0, 0.26), (0.6, 105.0, 0.22), (0.9, 101.0, 0.2)];
    let (v, g) = local_vol_grid_bilinear_grad(&grid, &times, &strikes, &probes);
    crate::support::same_value("lv", v, local_vol_grid_bilinear(&grid, &times, &strikes, &probes))?;
    let want = crate::support::fd_grad(|q| local_vol_grid_bilinear(q, &times, &strikes, &probes), &grid);
    crate::support::close("local_vol_grid_bilinear", &g, &want, 1e-6)
}
