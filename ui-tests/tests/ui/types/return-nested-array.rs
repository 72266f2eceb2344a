use autograd::differentiable;

#[differentiable]
fn identity(x: f64) -> [[f64; 2]; 2] {
    [[x, 0.0], [0.0, x]]
}

fn main() {}
