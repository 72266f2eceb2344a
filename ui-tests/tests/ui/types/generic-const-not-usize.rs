// A const generic parameter that is not a length.
use autograd::differentiable;

#[differentiable]
fn scaled<const K: i32>(x: f64) -> f64 {
    x * K as f64
}

fn main() {}
