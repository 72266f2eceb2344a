use autograd::differentiable;

mod shapes {
    use autograd::differentiable;

    #[differentiable]
    pub fn square(v: f64) -> f64 {
        v * v
    }
}

use shapes::square as sq;

#[differentiable]
fn area(x: f64) -> f64 {
    sq(x) * 3.0
}

fn main() {
    let _ = area(1.0);
}
