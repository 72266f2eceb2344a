// A differentiable function imported under another name brings its
// derivative with it.
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
    // 3x²: 6x.
    assert_eq!(area_grad(1.5), (6.75, 9.0));
}
