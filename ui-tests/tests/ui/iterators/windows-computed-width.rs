use autograd::differentiable;

#[differentiable]
fn smooth(x: &[f64], k: usize) -> f64 {
    x.windows(k).map(|w| w[0]).sum::<f64>()
}

fn main() {}
