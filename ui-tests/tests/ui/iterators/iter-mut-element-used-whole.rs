// The element of `iter_mut()` is used other than through `*v`: one error at
// the use, saying to write `*v`.
use autograd::differentiable;

#[differentiable]
fn normalize(x: &[f64]) -> f64 {
    let mut u = x.to_vec();
    for v in u.iter_mut() {
        let w = v;
        *w = 1.0;
    }
    u[0]
}

fn main() {}
