use autograd::differentiable;

// `sigmoid` is `autograd::prelude::sigmoid`, not imported.
#[differentiable]
fn activation(x: f64) -> f64 {
    sigmoid(x) * 2.0
}

fn main() {
    let _ = activation(0.5);
}
