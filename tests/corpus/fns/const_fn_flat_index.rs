use autograd::differentiable;

const N: usize = 3;

/// Row-major position of entry (i, j) of an N×N matrix.
#[inline]
const fn idx(i: usize, j: usize) -> usize {
    i * N + j
}

/// Least-squares residual of A·x = b with A flat row-major, plus a small
/// ridge on the diagonal and a coupling of each row to the next (cyclic).
#[differentiable]
pub fn const_fn_flat_index(a: &[f64], x: &[f64], #[constant] b: &[f64]) -> f64 {
    let mut loss = 0.0;
    for i in 0..N {
        let mut row = 0.0;
        for j in 0..N {
            row += a[idx(i, j)] * x[j];
        }
        let r = row - b[i];
        loss += r * r;
    }
    let ridge: f64 = (0..N).map(|k| a[idx(k, k)].powi(2)).sum();
    let coupling: f64 = (0..N).map(|k| a[idx(k, (k + 1) % N)] * x[(k + N - 1) % N]).sum();
    loss + 1e-2 * ridge + 0.1 * coupling
}

pub fn check() -> Result<(), String> {
    let b = [1.0, -0.5, 2.0];
    for (a, x) in [
        (vec![2.0, 0.1, -0.3, 0.4, 1.5, 0.2, -0.1, 0.3, 1.1], vec![0.5, -0.2, 1.4]),
        (vec![1.0, -0.6, 0.2, 0.3, 0.9, -0.4, 0.5, 0.1, 2.0], vec![-1.0, 0.7, 0.3]),
    ] {
        let (v, da, dx) = const_fn_flat_index_grad(&a, &x, &b);
        crate::support::same_value("flat", v, const_fn_flat_index(&a, &x, &b))?;
        let mut p = a.clone();
        p.extend_from_slice(&x);
        let want = crate::support::fd_grad(|q| const_fn_flat_index(&q[..9], &q[9..], &b), &p);
        let mut got = da.clone();
        got.extend_from_slice(&dx);
        crate::support::close("const_fn_flat_index", &got, &want, 1e-6)?;
    }
    Ok(())
}
