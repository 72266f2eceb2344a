use autograd::differentiable;

const NONE: usize = 0;

#[differentiable]
fn euler(x0: f64, n: usize) -> f64 {
    let mut x = x0;
    #[checkpoint(snapshots = NONE)]
    for _ in 0..n {
        x = x + 1e-3 * x.sin();
    }
    x
}

fn main() {}
