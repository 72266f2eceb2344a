use autograd::differentiable;

#[differentiable]
fn rows(x: f64, y: f64) -> f64 {
    let row = [x, y];
    let m = vec![row, row];
    m.len() as f64 * x
}

fn main() {}
