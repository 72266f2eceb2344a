use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Model {
    k: f64,
}

// An in-out argument of a method and of a function taking a `Tangent`
// struct: the pullback takes a seed for the result, then one for the
// argument's final value.
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

fn main() {
    let m = Model { k: 2.0 };
    let mut y = vec![3.0, 1.0];
    // y0 ← y0 (1 - k dt): d/dk = -dt y0, d/dy0 = 1 - k dt.
    let (v, dm, dy, ddt) = m.step_grad(&mut y, 0.25);
    assert_eq!((v, dm.k, dy[0], ddt), (1.5, -0.75, 0.5, -6.0));
    assert_eq!(y, vec![1.5, 0.5]);
    // y0 ← k y0 seeded 1 for the result and 2 for the final y0: 3 k y0.
    let (_, pullback) = scaled_vjp(&m, &mut y);
    let (dm, dy) = pullback(1.0, vec![2.0, 0.0]);
    assert_eq!((dm.k, dy[0]), (4.5, 6.0));
    assert_eq!(y, vec![3.0, 0.5]);
}
