use autograd::differentiable;

// `std::mem::swap` is lowered as `(a, b) = (b, a);` of two local
// variables; an element is swapped with `v.swap(i, j)` or assigned.
#[differentiable]
fn loss(x: f64, y: f64) -> f64 {
    let mut a = x;
    let mut v = [y, 2.0 * y];
    std::mem::swap(&mut a, &mut v[0]);
    a * v[0] + v[1]
}

fn main() {}
