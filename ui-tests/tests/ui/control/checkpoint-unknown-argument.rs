use autograd::differentiable;

#[differentiable]
fn euler(x0: f64, n: usize) -> f64 {
    let mut x = x0;
    #[checkpoint(every = 100)]
    for _ in 0..n {
        x = x + 1e-3 * x.sin();
    }
    x
}

fn main() {}
