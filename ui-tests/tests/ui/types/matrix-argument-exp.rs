use autograd::differentiable;
use nalgebra::DMatrix;

// On a square `DMatrix`, nalgebra's `exp()` is the matrix exponential; the
// macro must never treat it as an element-wise exp.
#[differentiable]
fn total_exp(m: DMatrix<f64>) -> f64 {
    m.exp().sum()
}

fn main() {}
