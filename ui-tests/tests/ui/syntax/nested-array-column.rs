use autograd::differentiable;

// The column of a local array of arrays is a literal below the width or a
// loop variable over the row: any other index could read the next row where
// the function would panic.
#[differentiable]
fn bad(x: f64, j: usize) -> f64 {
    let p = [[x, 1.0], [2.0, x]];
    p[0][j]
}

fn main() {
    let _ = bad(1.0, 1);
}
