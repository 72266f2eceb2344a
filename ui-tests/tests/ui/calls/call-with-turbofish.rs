use autograd::differentiable;

fn identity<T>(v: T) -> T {
    v
}

#[differentiable]
fn passthrough(x: f64) -> f64 {
    identity::<f64>(x)
}

fn main() {}
