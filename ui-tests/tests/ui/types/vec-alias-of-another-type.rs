mod queue {
    use autograd::differentiable;
    use std::collections::VecDeque as Vec;

    // `Vec` here is a `VecDeque`, not a slice-like `std::vec::Vec`.
    #[differentiable]
    pub fn total(x: &Vec<f64>) -> f64 {
        x[0] + x[1]
    }
}

fn main() {}
