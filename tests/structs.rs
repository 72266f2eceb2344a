//! `Tangent` structs as differentiable arguments and `&self` methods.
//!
//! Expected derivatives are central differences of the primal (step 1e-6,
//! tolerance 1e-6 relative) or closed forms.

use autograd::{Tangent, differentiable};

/// Central difference of `f` at `x`.
fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-6 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs()).max(1.0)
}

/// A line fitted by least squares; `weight` is data, not a parameter;
/// `count` is read as an index.
#[derive(Clone, Debug, PartialEq, Tangent)]
struct Model {
    slope: f64,
    intercept: f64,
    #[constant]
    weight: f64,
    label: String,
    count: usize,
}

impl Model {
    fn new(slope: f64, intercept: f64) -> Model {
        Model {
            slope,
            intercept,
            weight: 0.5,
            label: "line".into(),
            count: 3,
        }
    }

    /// Weighted squared error of the line over the data points.
    #[differentiable]
    fn loss(&self, data: &[f64], y: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..data.len() {
            let r = self.slope * data[i] + self.intercept - y[i] + 0.01 * data[self.count];
            if r > 0.0 {
                s += self.weight * r * r;
            } else {
                s += r * r * self.weight;
            }
        }
        s
    }

    /// Reads a field by value: `self` consumed.
    #[differentiable]
    fn curvature(self, x: f64) -> f64 {
        (self.slope * x).sin() * self.intercept.exp()
    }
}

const DATA: [f64; 4] = [0.0, 1.0, 2.0, 3.5];
const Y: [f64; 4] = [0.9, 3.2, 4.8, 8.1];

#[test]
fn method_gradient_matches_central_differences_of_every_field() {
    let m = Model::new(1.7, 0.4);
    let (value, dm, ddata, dy) = m.loss_grad(&DATA, &Y);
    assert_eq!(value, m.loss(&DATA, &Y));
    let slope = central(
        |v| {
            Model {
                slope: v,
                ..m.clone()
            }
            .loss(&DATA, &Y)
        },
        m.slope,
    );
    let intercept = central(
        |v| {
            Model {
                intercept: v,
                ..m.clone()
            }
            .loss(&DATA, &Y)
        },
        m.intercept,
    );
    assert!(close(dm.slope, slope), "{} vs {slope}", dm.slope);
    assert!(
        close(dm.intercept, intercept),
        "{} vs {intercept}",
        dm.intercept
    );
    // The constant and non-float fields are the argument's.
    assert_eq!(dm.weight, m.weight);
    assert_eq!((dm.label.as_str(), dm.count), ("line", 3));
    for i in 0..DATA.len() {
        let dd = central(
            |v| {
                let mut d = DATA;
                d[i] = v;
                m.loss(&d, &Y)
            },
            DATA[i],
        );
        assert!(close(ddata[i], dd), "data[{i}]: {} vs {dd}", ddata[i]);
        let ddy = central(
            |v| {
                let mut y = Y;
                y[i] = v;
                m.loss(&DATA, &y)
            },
            Y[i],
        );
        assert!(close(dy[i], ddy), "y[{i}]: {} vs {ddy}", dy[i]);
    }
    assert!(m.loss_check(&DATA, &Y).max_abs_error() < 1e-5);
}

#[test]
fn method_by_value_and_vjp_seed() {
    let m = Model::new(0.3, -0.2);
    let x = 1.3;
    let (value, pullback) = m.clone().curvature_vjp(x);
    assert_eq!(value, m.clone().curvature(x));
    let (dm, dx) = pullback(2.0);
    // Closed forms: ∂/∂slope = x cos(slope x) e^b, ∂/∂b = sin(slope x) e^b.
    let e = m.intercept.exp();
    assert!(close(dm.slope, 2.0 * x * (m.slope * x).cos() * e));
    assert!(close(dm.intercept, 2.0 * (m.slope * x).sin() * e));
    assert!(close(dx, 2.0 * m.slope * (m.slope * x).cos() * e));
}

#[test]
fn grad_acc_adds_into_the_struct_buffer() {
    let m = Model::new(1.1, 0.2);
    let mut dm = Model::new(10.0, 20.0);
    let mut dy = vec![0.0; 4];
    let mut ddata = vec![1.0; 4];
    let value = m.loss_grad_acc(&DATA, &Y, &mut dm, &mut ddata, &mut dy);
    assert_eq!(value, m.loss(&DATA, &Y));
    let (_, g, gdata, gy) = m.loss_grad(&DATA, &Y);
    assert_eq!(
        (dm.slope, dm.intercept),
        (10.0 + g.slope, 20.0 + g.intercept)
    );
    // The buffer's constant fields stay as they were.
    assert_eq!(dm.weight, 0.5);
    assert_eq!(dy, gy);
    assert_eq!(ddata, gdata.iter().map(|g| 1.0 + g).collect::<Vec<_>>());
}

/// Parameters of a damped oscillator.
#[derive(Clone, Tangent)]
struct Oscillator {
    amplitude: f64,
    damping: f64,
    frequency: f64,
    #[constant]
    phase: f64,
    steps: u32,
}

fn oscillator() -> Oscillator {
    Oscillator {
        amplitude: 1.5,
        damping: 0.3,
        frequency: 2.1,
        phase: 0.25,
        steps: 5,
    }
}

/// By reference, fields read in a loop and a branch.
#[differentiable]
fn energy(p: &Oscillator, t: f64, #[constant] n: usize) -> f64 {
    let mut e = 0.0;
    let mut s = t;
    for _ in 0..n.min(p.steps as usize) {
        let x = p.amplitude * (-p.damping * s).exp() * (p.frequency * s + p.phase).cos();
        e += if x > 0.0 { x * x } else { -x * p.damping };
        s += 0.1 * p.amplitude.min(1.0);
    }
    e / p.steps as f64
}

/// By value.
#[differentiable]
fn peak(p: Oscillator, t: f64) -> f64 {
    p.amplitude * (-p.damping * t).exp()
}

#[test]
fn struct_by_reference_against_central_differences() {
    let p = oscillator();
    let (value, dp, dt) = energy_grad(&p, 0.7, 6);
    assert_eq!(value, energy(&p, 0.7, 6));
    let field = |set: fn(&mut Oscillator, f64), at: f64| {
        central(
            |v| {
                let mut q = p.clone();
                set(&mut q, v);
                energy(&q, 0.7, 6)
            },
            at,
        )
    };
    assert!(close(
        dp.amplitude,
        field(|q, v| q.amplitude = v, p.amplitude)
    ));
    assert!(close(dp.damping, field(|q, v| q.damping = v, p.damping)));
    assert!(close(
        dp.frequency,
        field(|q, v| q.frequency = v, p.frequency)
    ));
    assert!(close(dt, central(|v| energy(&p, v, 6), 0.7)));
    // `#[constant]` and integer fields: the argument's values.
    assert_eq!((dp.phase, dp.steps), (0.25, 5));
    assert!(energy_check(&p, 0.7, 6).max_abs_error() < 1e-5);
}

#[test]
fn struct_by_value_closed_form() {
    let (value, dp, dt) = peak_grad(oscillator(), 2.0);
    let e = (-0.3f64 * 2.0).exp();
    assert_eq!(value, 1.5 * e);
    assert_eq!(dp.amplitude, e);
    assert!(close(dp.damping, -1.5 * 2.0 * e));
    assert_eq!(dp.frequency, 0.0);
    assert!(close(dt, -1.5 * 0.3 * e));
}

/// A model whose functions call each other: `#[differentiable]` on the
/// block, and on each function it differentiates.
#[derive(Clone, Tangent)]
struct Logistic {
    w: f64,
    b: f64,
    #[constant]
    l2: f64,
}

#[differentiable]
impl Logistic {
    /// Not differentiable: left as written.
    fn new(w: f64, b: f64) -> Logistic {
        Logistic { w, b, l2: 0.1 }
    }

    #[differentiable]
    fn sigmoid(z: f64) -> f64 {
        1.0 / (1.0 + (-z).exp())
    }

    #[differentiable]
    fn predict(&self, x: f64) -> f64 {
        Self::sigmoid(self.w * x + self.b)
    }

    #[differentiable]
    fn penalty(&self) -> f64 {
        self.l2 * self.w * self.w
    }

    /// Cross-entropy plus an L2 penalty, through two methods and an
    /// associated function.
    #[differentiable]
    fn loss(&self, xs: &[f64], labels: &[f64]) -> f64 {
        let mut s = self.penalty();
        for i in 0..xs.len() {
            let p = self.predict(xs[i]);
            s -= labels[i] * p.ln() + (1.0 - labels[i]) * (1.0 - p).ln();
        }
        s
    }
}

#[test]
fn impl_block_methods_calling_each_other() {
    let m = Logistic::new(0.8, -0.3);
    let (xs, labels) = ([-1.0, 0.5, 2.0, 3.0], [0.0, 1.0, 1.0, 0.0]);
    let (value, dm, dxs, _) = m.loss_grad(&xs, &labels);
    assert_eq!(value, m.loss(&xs, &labels));
    let w = central(|v| Logistic { w: v, ..m.clone() }.loss(&xs, &labels), m.w);
    let b = central(|v| Logistic { b: v, ..m.clone() }.loss(&xs, &labels), m.b);
    assert!(close(dm.w, w), "{} vs {w}", dm.w);
    assert!(close(dm.b, b), "{} vs {b}", dm.b);
    assert_eq!(dm.l2, 0.1);
    for i in 0..xs.len() {
        let d = central(
            |v| {
                let mut x = xs;
                x[i] = v;
                m.loss(&x, &labels)
            },
            xs[i],
        );
        assert!(close(dxs[i], d), "xs[{i}]: {} vs {d}", dxs[i]);
    }
    assert!(m.loss_check(&xs, &labels).max_abs_error() < 1e-5);
    // The associated function: σ' = σ(1 − σ).
    let (s, ds) = Logistic::sigmoid_grad(0.4);
    assert!(close(ds, s * (1.0 - s)));
}

/// A free differentiable function, called from a struct's function.
#[differentiable]
fn softplus(z: f64) -> f64 {
    (1.0 + z.exp()).ln()
}

#[derive(Clone, Tangent)]
struct Pair {
    u: f64,
    v: f64,
}

#[differentiable]
fn pair_energy(p: &Pair, q: Pair, x: f64) -> f64 {
    softplus(p.u * x) + q.v * p.v - softplus(q.u)
}

#[test]
fn two_structs_and_a_call_of_a_free_function() {
    let (p, q) = (Pair { u: 0.3, v: -1.2 }, Pair { u: 0.7, v: 2.0 });
    let (value, dp, dq, dx) = pair_energy_grad(&p, q.clone(), 1.5);
    assert_eq!(value, pair_energy(&p, q.clone(), 1.5));
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    // Closed forms: softplus' = σ.
    assert!(close(dp.u, 1.5 * sig(0.3 * 1.5)));
    assert!(close(dp.v, q.v));
    assert!(close(dq.u, -sig(q.u)));
    assert!(close(dq.v, p.v));
    assert!(close(dx, p.u * sig(0.3 * 1.5)));
    assert!(pair_energy_check(&p, q, 1.5).max_abs_error() < 1e-5);
}
