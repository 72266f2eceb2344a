use autograd::differentiable;

/// Piecewise tax-like utility with `match` guards on the value itself,
/// `w if w < a => ..`, in forward mode too.
#[differentiable(jvp)]
pub fn match_guard_float_ranges(wealth: f64, rate: f64) -> f64 {
    let taxed = match wealth {
        w if w < 10.0 => w,
        w if w < 50.0 => 10.0 + (w - 10.0) * (1.0 - rate),
        w => 10.0 + 40.0 * (1.0 - rate) + (w - 50.0) * (1.0 - 1.5 * rate),
    };
    taxed.ln()
}

pub fn check() -> Result<(), String> {
    for p in [[5.0, 0.2], [30.0, 0.25], [80.0, 0.3]] {
        let f = |q: &[f64]| match_guard_float_ranges(q[0], q[1]);
        let (v, a, b) = match_guard_float_ranges_grad(p[0], p[1]);
        crate::support::same_value("tax", v, f(&p))?;
        let want = crate::support::fd_grad(f, &p);
        crate::support::close("match_guard_float_ranges", &[a, b], &want, 1e-6)?;
        let (_, jt) = match_guard_float_ranges_jvp(p[0], p[1], 2.0, 1.0);
        crate::support::close("tax jvp", &[jt], &[2.0 * want[0] + want[1]], 1e-6)?;
    }
    Ok(())
}
