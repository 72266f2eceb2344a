use autograd::differentiable;

#[differentiable]
fn w(x: f64, y: f64) -> f64 {
    let z = x * y;
    z + x
}

#[test]
fn w_seed() {
    assert_eq!(w_grad(3.0, 4.0), (15.0, 5.0, 3.0));
}
