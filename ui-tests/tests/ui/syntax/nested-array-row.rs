use autograd::differentiable;

// A local array of arrays is read and written by element; a row taken as a
// value is one error saying so.
#[differentiable]
fn first_row_sum(x: f64) -> f64 {
    let p = [[x, 1.0], [2.0, x]];
    let row = p[0];
    row[0] + row[1]
}

fn main() {
    let _ = first_row_sum(1.0);
}
