use autograd::differentiable;

/// Trimmed mean: sort a copy of the sample with an insertion sort done by
/// swaps, drop `trim` observations at each end and average the rest (the
/// median if trimming would leave nothing).
#[differentiable]
pub fn trimmed_mean_swap_sort(xs: &[f64], trim: usize) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1] > v[j] {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
    if 2 * trim >= v.len() {
        return v[v.len() / 2];
    }
    let kept = &v[trim..v.len() - trim];
    kept.iter().sum::<f64>() / kept.len() as f64
}

pub fn check() -> Result<(), String> {
    for (p, trim) in [
        (vec![3.2, -1.0, 0.4, 7.5, 2.2, 1.1, -0.3, 4.8], 2),
        (vec![0.9, 2.7, 1.3, -2.4, 5.1, 0.2, 3.3], 1),
        (vec![1.5, 0.5, 2.5], 2),
    ] {
        let (v, dx) = trimmed_mean_swap_sort_grad(&p, trim);
        crate::support::same_value("trimmed_mean", v, trimmed_mean_swap_sort(&p, trim))?;
        let want = crate::support::fd_grad(|q| trimmed_mean_swap_sort(q, trim), &p);
        crate::support::close("trimmed_mean_swap_sort", &dx, &want, 1e-6)?;
    }
    Ok(())
}
