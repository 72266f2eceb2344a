use autograd::differentiable;

#[differentiable]
pub fn shadowing_chain(x: f64, y: f64) -> f64 {
    let x = x * y;
    let x = x.sin() + y;
    let y = x * x;
    let z;
    if y > 1.0 {
        z = y.sqrt();
    } else {
        z = y.cbrt();
    }
    z / x
}

pub fn check() -> Result<(), String> {
    scalar_check!(shadowing_chain, shadowing_chain_grad, 1e-6, [[0.5, 1.2], [1.0, 0.1], [-0.7, 2.0]], (x, y))
}
