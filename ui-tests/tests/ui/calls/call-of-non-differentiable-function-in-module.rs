use autograd::differentiable;

mod helpers {
    pub fn square(v: f64) -> f64 {
        v * v
    }
}

#[differentiable]
fn uses_helper(x: f64) -> f64 {
    helpers::square(x) + x
}

fn main() {
    let _ = uses_helper(1.0);
}
