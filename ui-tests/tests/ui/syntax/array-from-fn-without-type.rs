// `std::array::from_fn` where nothing names the array's length: one error
// at the call, saying where the type may come from.
use autograd::differentiable;

#[differentiable]
fn squares(x: [f64; 3]) -> f64 {
    let sq = std::array::from_fn(|i| x[i] * x[i]);
    sq[0] + sq[1] + sq[2]
}

fn main() {}
