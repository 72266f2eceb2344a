use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Model {
    k: f64,
}

// In-out arguments are not supported yet through a struct function.
#[differentiable]
impl Model {
    fn step(&self, y: &mut [f64], dt: f64) -> f64 {
        for i in 0..y.len() {
            y[i] -= dt * self.k * y[i];
        }
        y[0]
    }
}

#[differentiable]
fn scaled(m: &Model, y: &mut [f64]) -> f64 {
    y[0] *= m.k;
    y[0]
}

fn main() {}
