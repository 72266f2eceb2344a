use autograd::differentiable;

#[differentiable(hessian)]
fn f<T: autograd::nalgebra::RealField + Copy>(x: T) -> T {
    x * x
}

fn main() {}
