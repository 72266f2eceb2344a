use autograd::differentiable;

/// The first time a geometric Brownian path crosses a barrier, as a
/// `loop` whose `break` carries the value.
#[differentiable]
pub fn loop_break_value_search(s0: f64, g: f64, #[constant] barrier: f64) -> f64 {
    let mut s = s0;
    let mut k = 0;
    let hit = loop {
        s *= 1.0 + g;
        k += 1;
        if s > barrier || k == 40 {
            break s - barrier;
        }
    };
    hit * hit + k as f64 * g
}

pub fn check() -> Result<(), String> {
    for (s0, g) in [(100.0, 0.013), (95.0, 0.021)] {
        let (v, a, b) = loop_break_value_search_grad(s0, g, 110.0);
        crate::support::same_value("hit", v, loop_break_value_search(s0, g, 110.0))?;
        let want = crate::support::fd_grad(|q| loop_break_value_search(q[0], q[1], 110.0), &[s0, g]);
        crate::support::close("hit", &[a, b], &want, 1e-6)?;
    }
    Ok(())
}
