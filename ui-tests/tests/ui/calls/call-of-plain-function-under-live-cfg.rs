use autograd::differentiable;

fn helper(v: f64) -> f64 {
    v * v
}

// Compiled in, the call needs a derivative: the same error as without the
// `#[cfg]` (compiled out, it is no error; see tests/cfg_attributes.rs).
#[differentiable]
fn uses_helper(x: f64) -> f64 {
    let mut y = x + 1.0;
    #[cfg(all())]
    {
        y = helper(y);
    }
    y * 2.0
}

fn main() {
    let _ = uses_helper(1.0);
}
