use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Model {
    k: f64,
}

// `jvp` of a function taking a `Tangent` struct and an in-out argument is
// not generated yet.
#[differentiable(jvp)]
fn scaled(m: &Model, y: &mut [f64]) -> f64 {
    y[0] *= m.k;
    y[0]
}

fn main() {}
