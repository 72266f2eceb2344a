use autograd::differentiable;

#[differentiable]
fn step(y: &mut [f64], dt: f64) {
    for i in 0..y.len() {
        y[i] -= dt * y[i];
    }
}

// A call passing an in-out argument from a differentiable body is not
// supported yet.
#[differentiable]
fn loss(y0: &[f64], dt: f64) -> f64 {
    let mut y = y0.to_vec();
    step(&mut y, dt);
    y[0]
}

fn main() {}
