use autograd::differentiable;

#[differentiable]
fn total(x: f64) -> f64 {
    let mut sum = 0.0;
    let mut add = |v: f64| {
        sum += v;
    };
    add(x);
    add(x * x);
    sum
}

fn main() {}
