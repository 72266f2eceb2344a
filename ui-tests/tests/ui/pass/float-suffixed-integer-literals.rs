use autograd::differentiable;

// `2f64` is an integer literal with a float suffix: still a float.
#[differentiable]
fn twice(x: f64) -> f64 {
    let a = 2f64;
    a * x
}

#[differentiable]
fn shifted_square(x: f64) -> f64 {
    let b = 1_f64;
    let c = b + x;
    c * x
}

fn main() {
    assert_eq!(twice_grad(3.0), (6.0, 2.0));
    // (1 + x)·x at 3: value 12, derivative 1 + 2x = 7.
    assert_eq!(shifted_square_grad(3.0), (12.0, 7.0));
}
