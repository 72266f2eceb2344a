use autograd::differentiable;

// Forward mode has no tangents for element writes yet: one error, not a
// zero tangent.
#[differentiable(jvp)]
fn smooth(x: f64) -> f64 {
    let mut v = [0.0; 2];
    v[0] = x.sin();
    v[1] = v[0] * x;
    v[1]
}

fn main() {}
