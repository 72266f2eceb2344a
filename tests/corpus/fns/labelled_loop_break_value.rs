use autograd::differentiable;

/// First passage of a deterministic mean-reverting path above a barrier,
/// searched by a labelled outer `loop` broken with a value from an inner `for`.
#[differentiable]
pub fn labelled_loop_break_value(x0: f64, kappa: f64, level: f64, #[constant] barrier: f64) -> f64 {
    let mut x = x0;
    let mut t = 0.0;
    let hit = 'walk: loop {
        for _ in 0..10 {
            x += kappa * (level - x) * 0.1;
            t += 0.1;
            if x > barrier {
                break 'walk x - barrier + t;
            }
        }
        if t > 50.0 {
            break 'walk x;
        }
    };
    hit * hit
}

pub fn check() -> Result<(), String> {
    let p = [0.5, 0.7, 2.0];
    let f = |q: &[f64]| labelled_loop_break_value(q[0], q[1], q[2], 1.5);
    let (v, a, b, c) = labelled_loop_break_value_grad(p[0], p[1], p[2], 1.5);
    crate::support::same_value("passage", v, f(&p))?;
    crate::support::close("labelled_loop_break_value", &[a, b, c], &crate::support::fd_grad(f, &p), 1e-6)
}
