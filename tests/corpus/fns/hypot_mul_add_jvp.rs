use autograd::differentiable;

/// Trilateration residuals: ranges by `hypot`, the squared misfit
/// accumulated with `mul_add`.
#[differentiable(jvp)]
pub fn hypot_mul_add_jvp(x: f64, y: f64, #[constant] beacons: &[[f64; 3]]) -> f64 {
    let mut sse = 0.0_f64;
    for b in beacons {
        let r = (x - b[0]).hypot(y - b[1]);
        let e = r - b[2];
        sse = e.mul_add(e, sse);
    }
    sse
}

pub fn check() -> Result<(), String> {
    let beacons = [[0.0, 0.0, 5.1], [10.0, 0.0, 6.9], [0.0, 8.0, 5.0]];
    let p = [3.2, 4.1];
    let f = |q: &[f64]| hypot_mul_add_jvp(q[0], q[1], &beacons);
    let (v, a, b) = hypot_mul_add_jvp_grad(p[0], p[1], &beacons);
    crate::support::same_value("trilat", v, f(&p))?;
    let want = crate::support::fd_grad(f, &p);
    crate::support::close("hypot_mul_add_jvp", &[a, b], &want, 1e-6)?;
    let (jv, jt) = hypot_mul_add_jvp_jvp(p[0], p[1], &beacons, 1.0, 2.0);
    crate::support::same_value("trilat jvp", jv, v)?;
    crate::support::close("trilat jvp", &[jt], &[want[0] + 2.0 * want[1]], 1e-6)
}
