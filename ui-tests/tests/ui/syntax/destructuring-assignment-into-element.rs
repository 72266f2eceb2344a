use autograd::differentiable;

#[differentiable]
fn pair(x: f64) -> (f64, f64) {
    (x.sin(), x.cos())
}

// A destructuring assignment is taken into local variables and `_`; an
// element is assigned on its own.
#[differentiable]
fn rotate(x: f64) -> f64 {
    let mut v = [0.0; 2];
    let mut b = 0.0;
    (v[0], b) = pair(x);
    v[0] * b
}

fn main() {
    let _ = rotate(0.5);
}
