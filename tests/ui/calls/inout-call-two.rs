use autograd::differentiable;

#[differentiable]
fn swap_scaled(a: &mut f64, b: &mut f64, k: f64) {
    let t = *a;
    *a = *b * k;
    *b = t * k;
}

// A call from a differentiable body passes at most one in-out argument.
#[differentiable]
fn loss(x: f64, y: f64) -> f64 {
    let mut a = x;
    let mut b = y;
    swap_scaled(&mut a, &mut b, 2.0);
    a * b
}

fn main() {}
