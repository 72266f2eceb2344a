use autograd::differentiable;
use std::ops::Mul;

#[differentiable]
fn square<T: Mul<Output = T> + Copy>(x: T) -> T {
    x * x
}

fn main() {}
