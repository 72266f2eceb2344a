//! What every corpus check shares: five-point central differences of the
//! plain function and a comparison that names the failing component. Kept
//! apart from the runtime so no expected value comes from the code under
//! test.
//!
//! Stencil `(8(f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / 12h` with
//! `h = 10⁻⁵·max(|x|, 10⁻²)`: relative to the point, so a tiny parameter
//! (a GARCH ω of 10⁻⁵) is not stepped past zero, and small enough that a
//! function varying on a scale of 0.1 at x = 100 has truncation ≈ 10⁻⁸;
//! rounding ≈ 1.5·ε·|f|/h stays below 10⁻⁸·|f| for |x| ≥ 10⁻².
#![allow(dead_code)]

/// Five-point central differences of `f` at `x`, one entry per component.
pub fn fd_grad(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let h = 1e-5 * x[i].abs().max(1e-2);
            let at = |t: f64| {
                let mut p = x.to_vec();
                p[i] += t;
                f(&p)
            };
            (8.0 * (at(h) - at(-h)) - (at(2.0 * h) - at(-2.0 * h))) / (12.0 * h)
        })
        .collect()
}

/// The Jacobian of a vector-valued `f` by differences: `jac[out][input]`.
pub fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> Vec<Vec<f64>> {
    let outputs = f(x).len();
    let columns: Vec<Vec<f64>> = (0..outputs)
        .map(|k| fd_grad(|p| f(p)[k], x))
        .collect();
    columns
}

/// `got` against `want` component by component: each may differ by
/// `rel · max(|want_i|, 10⁻²·max_j |want_j|, 10⁻⁴)`, so a component whose
/// true value is zero is measured against the gradient's scale.
pub fn close(what: &str, got: &[f64], want: &[f64], rel: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{what}: {} components, expected {}", got.len(), want.len()));
    }
    let scale = want.iter().fold(0.0_f64, |m, w| m.max(w.abs()));
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let allowed = rel * w.abs().max(1e-2 * scale).max(1e-4);
        if !((g - w).abs() <= allowed) {
            return Err(format!(
                "{what}[{i}]: macro {g:.12e}, differences {w:.12e} (got {got:?}, want {want:?})"
            ));
        }
    }
    Ok(())
}

/// The value a generated item returns must be the plain function's, bit for bit.
pub fn same_value(what: &str, got: f64, want: f64) -> Result<(), String> {
    if got.to_bits() == want.to_bits() {
        Ok(())
    } else {
        Err(format!("{what}: value {got:e} differs from the plain function's {want:e}"))
    }
}

/// Checks a function of scalar arguments only: `scalar_check!(f, f_grad,
/// TOL, [[x0, y0], [x1, y1]], (x, y))` compares every adjoint of `f_grad`
/// at each point with differences of `f`, and the value bit for bit.
#[macro_export]
macro_rules! scalar_check {
    ($f:ident, $g:ident, $tol:expr, [$($p:expr),+ $(,)?], ($($a:ident),+)) => {{
        for p in [$($p),+] {
            let mut it = p.iter().copied();
            $(let $a: f64 = it.next().unwrap();)+
            let want_value = $f($($a),+);
            let (value, $($a),+) = $g($($a),+);
            let got = vec![$($a),+];
            $crate::support::same_value(stringify!($f), value, want_value)?;
            let want = $crate::support::fd_grad(
                |q: &[f64]| {
                    let mut it = q.iter().copied();
                    $(let $a: f64 = it.next().unwrap();)+
                    $f($($a),+)
                },
                &p,
            );
            $crate::support::close(&format!("{} at {:?}", stringify!($f), p), &got, &want, $tol)?;
        }
        Ok(())
    }};
}
