//! The memory `#[checkpoint]` bounds: the peak bytes `NAME_grad` holds for
//! a long time-stepping loop carrying three floats, against the same loop
//! without the attribute, whose reverse sweep keeps 24 bytes an iteration.
//!
//! A global allocator counts the bytes the test's thread holds (allocated
//! and not yet freed) and their peak. The loops take 10⁷ steps: 240 MB
//! without checkpoints, under 1 MB with (a second or two in the test
//! profile, which optimizes).

use std::hint::black_box;

use autograd::differentiable;

mod alloc_support;
use alloc_support::peak_during;

/// Time steps.
const STEPS: usize = 10_000_000;

/// What the reverse sweep of an un-checkpointed step keeps: x, y and z.
const PER_STEP: usize = 3 * 8;

/// The bound: under 1 MB at 10⁷ steps; the default schedule holds about
/// 2√n states of 24 bytes (snapshots and one segment's records) and its
/// bookkeeping.
fn bound(steps: usize) -> usize {
    let root = (steps as f64).sqrt().ceil() as usize;
    (12 * PER_STEP * root).min(1_000_000)
}

#[macro_use]
mod checkpoint_support;

lorenz!(lorenz, 1e-6, allow(unused));
lorenz!(lorenz_checkpointed, 1e-6, checkpoint);

#[test]
fn a_long_euler_loop_holds_under_a_megabyte_with_checkpoint() {
    let (plain, plain_peak) = peak_during(|| lorenz_grad(black_box(0.9), 10.0, black_box(STEPS)));
    let (checked, peak) =
        peak_during(|| lorenz_checkpointed_grad(black_box(0.9), 10.0, black_box(STEPS)));
    assert_eq!(checked, plain);
    assert_eq!(checked.0, lorenz(0.9, 10.0, STEPS));
    assert!(plain_peak >= PER_STEP * STEPS, "{plain_peak}");
    assert!(
        peak <= bound(STEPS),
        "{peak} bytes held, bound {}",
        bound(STEPS)
    );
}

/// The same system integrated until its time passes `t_end`: the trip
/// count is known when the loop ends (online doubling schedule).
macro_rules! lorenz_until {
    ($name:ident, $($attr:tt)*) => {
        #[differentiable]
        fn $name(x0: f64, sigma: f64, t_end: f64) -> f64 {
            let mut x = x0;
            let mut y = 1.0;
            let mut z = 1.05;
            let mut t = 0.0;
            let h = 1e-6;
            #[$($attr)*]
            while t < t_end {
                let dx = sigma * (y - x);
                let dy = x * (28.0 - z) - y;
                let dz = x * y - 8.0 / 3.0 * z;
                x += h * dx;
                y += h * dy;
                z += h * dz;
                t += h;
            }
            x + y + z
        }
    };
}

lorenz_until!(lorenz_until, allow(unused));
lorenz_until!(lorenz_until_checkpointed, checkpoint);

#[test]
fn a_long_while_loop_holds_under_a_megabyte_with_checkpoint() {
    // About STEPS steps (t grows by rounded sums of h).
    let t_end = STEPS as f64 * 1e-6;
    let (plain, plain_peak) =
        peak_during(|| lorenz_until_grad(black_box(0.9), 10.0, black_box(t_end)));
    let (checked, peak) =
        peak_during(|| lorenz_until_checkpointed_grad(black_box(0.9), 10.0, black_box(t_end)));
    assert_eq!(checked, plain);
    assert!(plain_peak >= PER_STEP * STEPS * 99 / 100, "{plain_peak}");
    assert!(
        peak <= bound(STEPS),
        "{peak} bytes held, bound {}",
        bound(STEPS)
    );
}
