use autograd::differentiable;

#[differentiable]
fn quartic(x: f64) -> f64 {
    fn square(v: f64) -> f64 {
        v * v
    }
    square(square(x))
}

fn main() {}
