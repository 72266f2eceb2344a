use autograd::differentiable;

macro_rules! square {
    ($e:expr) => {{
        let t = $e;
        t * t
    }};
}

// The attribute sees `square!(..)`'s tokens, not its expansion: one error
// saying what to write instead.
#[differentiable]
fn shifted_square(x: f64) -> f64 {
    square!(x + 1.0) * 2.0
}

fn main() {}
