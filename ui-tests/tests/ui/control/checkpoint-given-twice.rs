use autograd::differentiable;

// Two different schedules, one under `cfg_attr` (fuzz-programs finding 028):
// the macro reads a `cfg_attr` wherever its predicate may hold. The same
// one twice is read once (tests/cfg_attributes.rs).
#[differentiable]
fn power(x: f64) -> f64 {
    let mut s = 1.0;
    #[cfg_attr(all(), checkpoint)]
    #[checkpoint(snapshots = 2)]
    for _ in 0..4 {
        s = s * x;
    }
    s
}

fn main() {}
