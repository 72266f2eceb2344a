use autograd::differentiable;

/// # Safety
/// Always safe; `unsafe` only to need an `unsafe` block.
unsafe fn raw_square(v: f64) -> f64 {
    v * v
}

#[differentiable]
fn square(x: f64) -> f64 {
    let y = unsafe { raw_square(x) };
    y
}

fn main() {}
