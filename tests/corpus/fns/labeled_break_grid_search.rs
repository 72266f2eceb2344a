use autograd::differentiable;

/// A two-level scan that stops both loops at the first cell above a
/// threshold, then uses the cell's value.
#[differentiable]
pub fn labeled_break_grid_search(a: &[f64], #[constant] n: usize) -> f64 {
    let mut found = 0.0;
    'outer: for i in 0..n {
        for j in 0..n {
            let v = a[i * n + j] * (i + j + 1) as f64;
            if v > 1.0 {
                found = v.sqrt();
                break 'outer;
            }
        }
    }
    found + a[0]
}

pub fn check() -> Result<(), String> {
    let a = [0.1, 0.2, 0.3, 0.9, 0.05, 0.4, 0.2, 0.1, 0.7];
    let (v, g) = labeled_break_grid_search_grad(&a, 3);
    crate::support::same_value("grid", v, labeled_break_grid_search(&a, 3))?;
    let want = crate::support::fd_grad(|q| labeled_break_grid_search(q, 3), &a);
    crate::support::close("grid", &g, &want, 1e-6)?;
    Ok(())
}
