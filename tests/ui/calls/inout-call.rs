use autograd::differentiable;

#[differentiable]
fn step(y: &mut [f64], dt: f64) -> f64 {
    for i in 0..y.len() {
        y[i] -= dt * y[i];
    }
    y[0]
}

// A call passing an in-out argument is a statement of its own: its result
// is not read.
#[differentiable]
fn loss(y0: &[f64], dt: f64) -> f64 {
    let mut y = y0.to_vec();
    let first = step(&mut y, dt);
    first + y[1]
}

fn main() {}
