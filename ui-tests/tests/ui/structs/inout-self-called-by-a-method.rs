use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct State {
    x: f64,
    v: f64,
}

// A method taking `&mut self` is not called from differentiable code yet.
#[differentiable]
impl State {
    fn kick(&mut self, f: f64) {
        self.v += f;
    }

    fn run(&mut self, f: f64, n: usize) -> f64 {
        for _ in 0..n {
            self.kick(f);
        }
        self.x * self.v
    }
}

fn main() {}
