use autograd::differentiable;

// The rows of a local array of arrays are not iterated: no sequence holds
// them. One error at the array, saying to read elements.
#[differentiable]
fn row_heads(x: f64) -> f64 {
    let p = [[x, 1.0], [2.0, x]];
    let mut s = 0.0;
    for row in &p {
        s += row[0];
    }
    s
}

fn main() {
    let _ = row_heads(1.0);
}
