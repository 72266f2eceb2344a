use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Model {
    k: f64,
}

// Several outputs (`_jacobian`) beside an in-out argument of a function
// taking a `Tangent` struct are not generated yet.
#[differentiable]
fn scaled(m: &Model, y: &mut [f64]) -> [f64; 2] {
    y[0] *= m.k;
    [y[0], y[1]]
}

fn main() {}
