use autograd::differentiable;

// The generated code's locals (`__ad_seed`, `__ad_d_x`, ...) are hygienic:
// user code cannot name them.
#[differentiable]
fn square(x: f64) -> f64 {
    x * x + __ad_seed
}

fn main() {}
