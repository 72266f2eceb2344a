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

#[derive(Clone, autograd::Tangent)]
struct State {
    x: f64,
    v: f64,
}

// An in-out struct, and `&mut self`: the pullback takes a `State` seed
// for the final value and returns a `State` for the value on entry.
#[differentiable]
fn advance(s: &mut State, dt: f64) {
    s.x += dt * s.v;
}

#[differentiable]
impl State {
    fn kick(&mut self, f: f64) -> f64 {
        self.v += f;
        self.v * self.v
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
    // x ← x + dt v seeded (1, 0): dx = 1, dv = dt, ddt = v.
    let mut s = State { x: 1.0, v: 2.0 };
    let ((), pullback) = advance_vjp(&mut s, 0.5);
    let (ds, ddt) = pullback(State { x: 1.0, v: 0.0 });
    assert_eq!((ds.x, ds.v, ddt), (1.0, 0.5, 2.0));
    assert_eq!((s.x, s.v), (2.0, 2.0));
    // v ← v + f, e = v²: de/dv = de/df = 2 (v + f).
    let (e, ds, df) = s.kick_grad(1.0);
    assert_eq!((e, ds.x, ds.v, df), (9.0, 0.0, 6.0, 6.0));
    assert_eq!(s.v, 3.0);
}
