use autograd::differentiable;

struct Model;

impl Model {
    // No `self`, but inside an `impl`: the generated items are associated
    // functions too.
    #[differentiable]
    fn square(x: f64) -> f64 {
        x * x
    }
}

fn main() {
    let _ = Model::square(2.0);
}
