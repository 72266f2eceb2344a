use autograd::differentiable;

/// Log return of a price path, knocked out (zero) when the path ever
/// drops below a barrier; a negative price stops the scan.
#[differentiable]
pub fn price_path_return(path: &[f64], barrier: f64) -> f64 {
    let start = *path.first().expect("a path");
    let end = *path.last().expect("a path");
    let mut lowest = start;
    for i in 0..path.len() {
        let p = if path[i] < 0.0 { break } else { path[i] };
        lowest = lowest.min(p);
    }
    let r = if lowest > barrier { (end / start).ln() } else { return 0.0 };
    r + 0.5 * r * r
}

pub fn check() -> Result<(), String> {
    for x in [[100.0, 103.0, 98.0, 105.0, 90.0], [50.0, 52.0, 55.0, 51.0, 40.0]] {
        let (v, dpath, db) = price_path_return_grad(&x[..4], x[4]);
        crate::support::same_value("path", v, price_path_return(&x[..4], x[4]))?;
        let want = crate::support::fd_grad(|q| price_path_return(&q[..4], q[4]), &x);
        let mut got = dpath.clone();
        got.push(db);
        crate::support::close("price_path_return", &got, &want, 1e-6)?;
    }
    Ok(())
}
