use autograd::{Tangent, differentiable};

#[derive(Clone, Tangent)]
struct Model {
    w: f64,
}

// A function of an `impl` block is not generic yet: one error at its
// generics, saying to write the generic code as a free function.
#[differentiable]
impl Model {
    fn loss<const N: usize>(&self, x: &[f64; N]) -> f64 {
        let mut s = 0.0;
        for i in 0..N {
            s += self.w * x[i] * x[i];
        }
        s
    }
}

fn main() {}
