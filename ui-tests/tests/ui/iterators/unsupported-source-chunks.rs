use autograd::differentiable;

#[differentiable]
fn pairs(x: &[f64]) -> f64 {
    x.chunks(2).map(|c| c[0] * c[1]).sum::<f64>()
}

fn main() {}
