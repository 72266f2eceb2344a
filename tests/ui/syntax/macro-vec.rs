use autograd::differentiable;

#[differentiable]
fn sum_of_two(x: f64, y: f64) -> f64 {
    let v = vec![x, y];
    v[0] + v[1]
}

fn main() {}
