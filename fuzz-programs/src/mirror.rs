//! The "mirror" of a generated program: the same computation, op for op,
//! written by the generator as plain Rust over [`Mirror`].
//!
//! A [`Mirror`] runs in one of two modes:
//!
//! - **tracing**: plain `f64` arithmetic only. It records every decision the
//!   program takes (each comparison, the side of every `abs`, `relu`,
//!   `max`, `min` and element-wise maximum) and the smallest relative margin
//!   of those decisions. Two points with the same trace run the same
//!   straight-line code, so a central difference between them never
//!   straddles a kink.
//! - **recording**: the same, plus every op is recorded in the runtime's
//!   dynamic graph ([`autograd::graph::Graph`]), whose reverse pass gives a
//!   second, independent gradient. Branches and loops are unrolled while the
//!   graph is built: the builder runs with concrete inputs.
//!
//! Ops the graph lacks are spelled with ops it has: `-a` is `0 - a`,
//! `a.powi(n)` repeated products, `abs`/`max`/`min`/`clamp` pick a node,
//! `stop_gradient` makes a fresh leaf, `signum floor ceil round trunc`
//! a constant and `fract` `a` minus a constant (their conventions), and
//! `mul_add` a product and a sum. The other functions of the rule table
//! (`tan`, `asin`, `hypot`, ...) are custom ops of the graph whose backward
//! is their derivative's closed form, written here apart from the
//! runtime's rules ([`CLOSED_FORMS`]).

use autograd::graph::{Graph, NodeId};
use autograd::prelude::Activation;
use autograd::{CustomFunction, OpError, Value};

/// A function the dynamic graph lacks: its name, its value and its
/// partial derivatives, as closed forms of its arguments.
type ClosedForm = (&'static str, fn(&[f64]) -> f64, fn(&[f64]) -> Vec<f64>);

/// The closed forms of [`Mirror`]'s custom ops. At the points where the
/// function is not differentiable they follow the README's conventions
/// (`hypot` and `atan2` at the origin: 0).
pub const CLOSED_FORMS: &[ClosedForm] = &[
    (
        "exp2",
        |x| x[0].exp2(),
        |x| vec![std::f64::consts::LN_2 * x[0].exp2()],
    ),
    ("exp_m1", |x| x[0].exp_m1(), |x| vec![x[0].exp()]),
    ("ln_1p", |x| x[0].ln_1p(), |x| vec![1.0 / (1.0 + x[0])]),
    (
        "log2",
        |x| x[0].log2(),
        |x| vec![1.0 / (x[0] * std::f64::consts::LN_2)],
    ),
    (
        "log10",
        |x| x[0].log10(),
        |x| vec![1.0 / (x[0] * std::f64::consts::LN_10)],
    ),
    (
        "cbrt",
        |x| x[0].cbrt(),
        |x| vec![1.0 / (3.0 * x[0].cbrt().powi(2))],
    ),
    ("recip", |x| x[0].recip(), |x| vec![-1.0 / (x[0] * x[0])]),
    ("tan", |x| x[0].tan(), |x| vec![1.0 + x[0].tan().powi(2)]),
    (
        "asin",
        |x| x[0].asin(),
        |x| vec![1.0 / (1.0 - x[0] * x[0]).sqrt()],
    ),
    (
        "acos",
        |x| x[0].acos(),
        |x| vec![-1.0 / (1.0 - x[0] * x[0]).sqrt()],
    ),
    ("atan", |x| x[0].atan(), |x| vec![1.0 / (1.0 + x[0] * x[0])]),
    ("sinh", |x| x[0].sinh(), |x| vec![x[0].cosh()]),
    ("cosh", |x| x[0].cosh(), |x| vec![x[0].sinh()]),
    (
        "asinh",
        |x| x[0].asinh(),
        |x| vec![1.0 / (x[0] * x[0] + 1.0).sqrt()],
    ),
    (
        "acosh",
        |x| x[0].acosh(),
        |x| vec![1.0 / (x[0] * x[0] - 1.0).sqrt()],
    ),
    (
        "atanh",
        |x| x[0].atanh(),
        |x| vec![1.0 / (1.0 - x[0] * x[0])],
    ),
    // log_b x = ln x / ln b.
    (
        "log_base",
        |x| x[0].log(x[1]),
        |x| {
            let lb = x[1].ln();
            vec![1.0 / (x[0] * lb), -x[0].ln() / (x[1] * lb * lb)]
        },
    ),
    (
        "atan2",
        |x| x[0].atan2(x[1]),
        |x| {
            let r2 = x[0] * x[0] + x[1] * x[1];
            if r2 == 0.0 {
                vec![0.0, 0.0]
            } else {
                vec![x[1] / r2, -x[0] / r2]
            }
        },
    ),
    (
        "hypot",
        |x| x[0].hypot(x[1]),
        |x| {
            let h = x[0].hypot(x[1]);
            if h == 0.0 {
                vec![0.0, 0.0]
            } else {
                vec![x[0] / h, x[1] / h]
            }
        },
    ),
];

/// A value of the mirror: its `f64` value and, when recording, its node.
#[derive(Clone, Copy, Debug)]
pub struct V {
    /// The value.
    pub x: f64,
    id: Option<NodeId>,
}

/// Runs a mirror: see the [module docs](self).
#[derive(Debug)]
pub struct Mirror {
    graph: Option<Graph>,
    trace: Vec<bool>,
    min_margin: f64,
    stops: Vec<f64>,
    frozen: Option<Vec<f64>>,
    f32: bool,
}

impl Mirror {
    /// A mirror that only evaluates and records decisions.
    pub fn tracing() -> Mirror {
        Mirror {
            graph: None,
            trace: Vec::new(),
            min_margin: f64::INFINITY,
            stops: Vec::new(),
            frozen: None,
            f32: false,
        }
    }

    /// Rounds every op's value to `f32`, as an `f32` program computes
    /// (exactly so for `+ - * /` and `sqrt`; within an ulp for the
    /// transcendental functions), so the mirror takes the decisions the
    /// program takes.
    pub fn in_f32(mut self, yes: bool) -> Mirror {
        self.f32 = yes;
        self
    }

    /// A tracing mirror in which the `k`-th `stop_gradient` returns
    /// `values[k]` whatever its argument: the function whose derivative
    /// `stop_gradient` semantics describe, for finite differences.
    pub fn frozen(values: Vec<f64>) -> Mirror {
        Mirror {
            frozen: Some(values),
            ..Mirror::tracing()
        }
    }

    /// The values `stop_gradient` passed through, in order.
    pub fn stops(&self) -> &[f64] {
        &self.stops
    }

    /// A mirror that also records the dynamic graph.
    pub fn recording() -> Mirror {
        Mirror {
            graph: Some(Graph::new()),
            ..Mirror::tracing()
        }
    }

    /// The decisions taken so far, in order.
    pub fn trace(&self) -> &[bool] {
        &self.trace
    }

    /// The smallest `|a - b| / (1 + |a| + |b|)` over the decisions taken
    /// between different values.
    pub fn min_margin(&self) -> f64 {
        self.min_margin
    }

    /// A leaf: an input of the program (or a constant).
    pub fn input(&mut self, x: f64) -> V {
        let x = if self.f32 { f64::from(x as f32) } else { x };
        let id = self.graph.as_mut().map(|g| g.input(x));
        V { x, id }
    }

    /// A constant (a leaf whose gradient nobody asks for).
    pub fn k(&mut self, x: f64) -> V {
        self.input(x)
    }

    /// The adjoints of `leaves` from a reverse pass seeded at `out`.
    ///
    /// # Panics
    ///
    /// When the mirror is not recording, or the graph's reverse pass fails.
    pub fn gradients(&self, out: V, leaves: &[V]) -> Vec<f64> {
        let g = self.graph.as_ref().expect("a recording mirror");
        let grads = g
            .backward(out.id.expect("a recorded output"))
            .unwrap_or_else(|e| panic!("dynamic graph reverse pass: {e}"));
        leaves
            .iter()
            .map(|l| {
                grads
                    .scalar(l.id.expect("a recorded leaf"))
                    .expect("a scalar leaf")
            })
            .collect()
    }

    /// A function of [`CLOSED_FORMS`], registered with the graph on its
    /// first use.
    fn closed_form(&mut self, name: &'static str, args: &[V]) -> V {
        let &(_, f, df) = CLOSED_FORMS
            .iter()
            .find(|(n, ..)| *n == name)
            .unwrap_or_else(|| panic!("no closed form for `{name}`"));
        let xs: Vec<f64> = args.iter().map(|a| a.x).collect();
        if let Some(g) = self.graph.as_mut()
            && !g.registry().contains(name)
        {
            let scalars = move |inputs: &[Value]| -> Result<Vec<f64>, OpError> {
                inputs
                    .iter()
                    .map(|v| {
                        v.as_scalar()
                            .ok_or_else(|| OpError::custom(name, "takes scalars"))
                    })
                    .collect()
            };
            g.register(
                name,
                Box::new(CustomFunction::new(
                    move |inputs: &[Value]| Ok(Value::Scalar(f(&scalars(inputs)?))),
                    move |grad: &Value, inputs: &[Value], _: &Value| {
                        let g = grad
                            .as_scalar()
                            .ok_or_else(|| OpError::custom(name, "takes scalars"))?;
                        Ok(df(&scalars(inputs)?)
                            .into_iter()
                            .map(|d| Value::Scalar(g * d))
                            .collect())
                    },
                )),
            );
        }
        self.op(name, args, f(&xs))
    }

    fn op(&mut self, name: &str, args: &[V], x: f64) -> V {
        let x = if self.f32 { f64::from(x as f32) } else { x };
        let id = self.graph.as_mut().map(|g| {
            let ids: Vec<NodeId> = args.iter().map(|a| a.id.expect("recorded")).collect();
            g.apply(name, &ids)
                .unwrap_or_else(|e| panic!("dynamic graph op `{name}`: {e}"))
        });
        V { x, id }
    }

    fn decide(&mut self, d: bool, a: f64, b: f64) -> bool {
        // An exact tie is structural (`v.min(v)`, `abs` of a constant 0):
        // it is a tie at every nearby point too, and the primal computes
        // it the same way, so it does not count against the margin.
        if a != b {
            let margin = (a - b).abs() / (1.0 + a.abs() + b.abs());
            self.min_margin = self.min_margin.min(margin);
        }
        self.trace.push(d);
        d
    }

    /// `a + b`.
    pub fn add(&mut self, a: V, b: V) -> V {
        self.op("add", &[a, b], a.x + b.x)
    }
    /// `a - b`.
    pub fn sub(&mut self, a: V, b: V) -> V {
        self.op("sub", &[a, b], a.x - b.x)
    }
    /// `a * b`.
    pub fn mul(&mut self, a: V, b: V) -> V {
        self.op("mul", &[a, b], a.x * b.x)
    }
    /// `a / b`.
    pub fn div(&mut self, a: V, b: V) -> V {
        self.op("div", &[a, b], a.x / b.x)
    }
    /// `-a`, as `0 - a`.
    pub fn neg(&mut self, a: V) -> V {
        let zero = self.k(0.0);
        self.op("sub", &[zero, a], -a.x)
    }
    /// `a.exp()`.
    pub fn exp(&mut self, a: V) -> V {
        self.op("exp", &[a], a.x.exp())
    }
    /// `a.ln()`, the graph's `log`.
    pub fn ln(&mut self, a: V) -> V {
        self.op("log", &[a], a.x.ln())
    }
    /// `a.sqrt()`.
    pub fn sqrt(&mut self, a: V) -> V {
        self.op("sqrt", &[a], a.x.sqrt())
    }
    /// `a.sin()`.
    pub fn sin(&mut self, a: V) -> V {
        self.op("sin", &[a], a.x.sin())
    }
    /// `a.cos()`.
    pub fn cos(&mut self, a: V) -> V {
        self.op("cos", &[a], a.x.cos())
    }
    /// `a.tanh()`.
    pub fn tanh(&mut self, a: V) -> V {
        self.op("tanh", &[a], a.x.tanh())
    }
    /// `a.sigmoid()`.
    pub fn sigmoid(&mut self, a: V) -> V {
        self.op("sigmoid", &[a], a.x.sigmoid())
    }
    /// `a.relu()`; records the side.
    pub fn relu(&mut self, a: V) -> V {
        self.decide(a.x > 0.0, a.x, 0.0);
        self.op("relu", &[a], a.x.relu())
    }
    /// `a.abs()`: `a` or `-a`; records the side. At 0, derivative 0 (the
    /// convention).
    pub fn abs(&mut self, a: V) -> V {
        if a.x == 0.0 {
            self.decide(true, a.x, 0.0);
            let zero = self.k(0.0);
            return self.op("mul", &[a, zero], 0.0);
        }
        if self.decide(a.x >= 0.0, a.x, 0.0) {
            a
        } else {
            self.neg(a)
        }
    }
    /// `a.powi(n)` as repeated products (and a quotient for `n < 0`).
    pub fn powi(&mut self, a: V, n: i32) -> V {
        if n == 0 {
            return self.k(1.0);
        }
        let mut r = a;
        for _ in 1..n.unsigned_abs() {
            r = self.mul(r, a);
        }
        if n < 0 {
            let one = self.k(1.0);
            r = self.div(one, r);
        }
        r
    }
    /// `a.powf(b)`, the graph's `pow`.
    pub fn powf(&mut self, a: V, b: V) -> V {
        self.op("pow", &[a, b], a.x.powf(b.x))
    }
    /// `a.max(b)`: picks a node; records which.
    pub fn max(&mut self, a: V, b: V) -> V {
        if self.decide(a.x >= b.x, a.x, b.x) {
            a
        } else {
            b
        }
    }
    /// `a.min(b)`: picks a node; records which.
    pub fn min(&mut self, a: V, b: V) -> V {
        if self.decide(a.x <= b.x, a.x, b.x) {
            a
        } else {
            b
        }
    }
    /// `stop_gradient(a)`: a fresh leaf with `a`'s value (or, frozen, the
    /// value recorded at the base point).
    pub fn stop(&mut self, a: V) -> V {
        let k = self.stops.len();
        let x = match &self.frozen {
            Some(values) => values.get(k).copied().unwrap_or(a.x),
            None => a.x,
        };
        self.stops.push(x);
        self.input(x)
    }
    /// `a.exp2()`.
    pub fn exp2(&mut self, a: V) -> V {
        self.closed_form("exp2", &[a])
    }
    /// `a.exp_m1()`.
    pub fn exp_m1(&mut self, a: V) -> V {
        self.closed_form("exp_m1", &[a])
    }
    /// `a.ln_1p()`.
    pub fn ln_1p(&mut self, a: V) -> V {
        self.closed_form("ln_1p", &[a])
    }
    /// `a.log2()`.
    pub fn log2(&mut self, a: V) -> V {
        self.closed_form("log2", &[a])
    }
    /// `a.log10()`.
    pub fn log10(&mut self, a: V) -> V {
        self.closed_form("log10", &[a])
    }
    /// `a.cbrt()`.
    pub fn cbrt(&mut self, a: V) -> V {
        self.closed_form("cbrt", &[a])
    }
    /// `a.recip()`.
    pub fn recip(&mut self, a: V) -> V {
        self.closed_form("recip", &[a])
    }
    /// `a.tan()`.
    pub fn tan(&mut self, a: V) -> V {
        self.closed_form("tan", &[a])
    }
    /// `a.asin()`.
    pub fn asin(&mut self, a: V) -> V {
        self.closed_form("asin", &[a])
    }
    /// `a.acos()`.
    pub fn acos(&mut self, a: V) -> V {
        self.closed_form("acos", &[a])
    }
    /// `a.atan()`.
    pub fn atan(&mut self, a: V) -> V {
        self.closed_form("atan", &[a])
    }
    /// `a.sinh()`.
    pub fn sinh(&mut self, a: V) -> V {
        self.closed_form("sinh", &[a])
    }
    /// `a.cosh()`.
    pub fn cosh(&mut self, a: V) -> V {
        self.closed_form("cosh", &[a])
    }
    /// `a.asinh()`.
    pub fn asinh(&mut self, a: V) -> V {
        self.closed_form("asinh", &[a])
    }
    /// `a.acosh()`.
    pub fn acosh(&mut self, a: V) -> V {
        self.closed_form("acosh", &[a])
    }
    /// `a.atanh()`.
    pub fn atanh(&mut self, a: V) -> V {
        self.closed_form("atanh", &[a])
    }
    /// A step function's value as a constant (derivative 0 everywhere,
    /// the convention at its jumps too); records the parity of the step it
    /// is on (two points a central difference apart are on the same step
    /// iff the parities agree) and the distance to the nearest jump.
    fn step_fn(&mut self, a: V, value: f64, step: f64, jump: f64) -> V {
        self.decide(step.rem_euclid(2.0) == 1.0, a.x, jump);
        self.k(value)
    }
    /// `a.signum()`.
    pub fn signum(&mut self, a: V) -> V {
        let positive = a.x.is_sign_positive();
        self.step_fn(a, a.x.signum(), f64::from(u8::from(positive)), 0.0)
    }
    /// `a.floor()`.
    pub fn floor(&mut self, a: V) -> V {
        self.step_fn(a, a.x.floor(), a.x.floor(), a.x.round())
    }
    /// `a.ceil()`.
    pub fn ceil(&mut self, a: V) -> V {
        self.step_fn(a, a.x.ceil(), a.x.ceil(), a.x.round())
    }
    /// `a.round()` (half away from zero: jumps at the half-integers).
    pub fn round(&mut self, a: V) -> V {
        self.step_fn(a, a.x.round(), a.x.round(), (a.x - 0.5).round() + 0.5)
    }
    /// `a.trunc()`.
    pub fn trunc(&mut self, a: V) -> V {
        self.step_fn(a, a.x.trunc(), a.x.trunc(), a.x.round())
    }
    /// `a.fract()`: `a - a.trunc()`, derivative 1 everywhere.
    pub fn fract(&mut self, a: V) -> V {
        let t = self.trunc(a);
        self.op("sub", &[a, t], a.x.fract())
    }
    /// `a.mul_add(b, c)`: a product and a sum, valued as the fused op.
    pub fn mul_add(&mut self, a: V, b: V, c: V) -> V {
        let p = self.mul(a, b);
        self.op("add", &[p, c], a.x.mul_add(b.x, c.x))
    }
    /// `x.clamp(lo, hi)`: picks a node, `x` on a tie; records which.
    pub fn clamp(&mut self, x: V, lo: V, hi: V) -> V {
        if self.decide(x.x < lo.x, x.x, lo.x) {
            lo
        } else if self.decide(x.x > hi.x, x.x, hi.x) {
            hi
        } else {
            x
        }
    }
    /// `y.atan2(x)`; records the side of its jump (x < 0, y = ±0).
    pub fn atan2(&mut self, y: V, x: V) -> V {
        if x.x < 0.0 {
            self.decide(y.x.is_sign_positive(), y.x, 0.0);
        }
        self.closed_form("atan2", &[y, x])
    }
    /// `x.log(b)`.
    pub fn log(&mut self, x: V, b: V) -> V {
        self.closed_form("log_base", &[x, b])
    }
    /// `a.hypot(b)`.
    pub fn hypot(&mut self, a: V, b: V) -> V {
        self.closed_form("hypot", &[a, b])
    }

    /// `a < b`, recorded.
    pub fn lt(&mut self, a: V, b: V) -> bool {
        self.decide(a.x < b.x, a.x, b.x)
    }
    /// `a <= b`, recorded.
    pub fn le(&mut self, a: V, b: V) -> bool {
        self.decide(a.x <= b.x, a.x, b.x)
    }
    /// `a > b`, recorded.
    pub fn gt(&mut self, a: V, b: V) -> bool {
        self.decide(a.x > b.x, a.x, b.x)
    }
    /// `a >= b`, recorded.
    pub fn ge(&mut self, a: V, b: V) -> bool {
        self.decide(a.x >= b.x, a.x, b.x)
    }
}

/// A matrix (or column vector) of mirror values, column-major like
/// nalgebra.
#[derive(Clone, Debug)]
pub struct Mat {
    rows: usize,
    cols: usize,
    data: Vec<V>,
}

impl Mat {
    /// A `rows × cols` matrix of the given values, column-major.
    ///
    /// # Panics
    ///
    /// When `data` does not hold `rows · cols` values.
    pub fn new(rows: usize, cols: usize, data: &[V]) -> Mat {
        assert_eq!(data.len(), rows * cols, "matrix data length");
        Mat {
            rows,
            cols,
            data: data.to_vec(),
        }
    }

    fn at(&self, i: usize, j: usize) -> V {
        self.data[i + j * self.rows]
    }

    fn zip(&self, other: &Mat, mut f: impl FnMut(V, V) -> V) -> Mat {
        assert_eq!((self.rows, self.cols), (other.rows, other.cols), "shapes");
        Mat {
            rows: self.rows,
            cols: self.cols,
            data: self
                .data
                .iter()
                .zip(&other.data)
                .map(|(&a, &b)| f(a, b))
                .collect(),
        }
    }

    fn each(&self, f: impl FnMut(V) -> V) -> Mat {
        Mat {
            rows: self.rows,
            cols: self.cols,
            data: self.data.iter().copied().map(f).collect(),
        }
    }
}

/// Matrix ops of the mirror, element by element through scalar ops.
pub mod mat {
    use super::{Mat, Mirror, V};

    /// `a + b`.
    pub fn add(cx: &mut Mirror, a: &Mat, b: &Mat) -> Mat {
        a.zip(b, |x, y| cx.add(x, y))
    }
    /// `a - b`.
    pub fn sub(cx: &mut Mirror, a: &Mat, b: &Mat) -> Mat {
        a.zip(b, |x, y| cx.sub(x, y))
    }
    /// `a.component_mul(&b)`.
    pub fn cmul(cx: &mut Mirror, a: &Mat, b: &Mat) -> Mat {
        a.zip(b, |x, y| cx.mul(x, y))
    }
    /// `a.component_div(&b)`.
    pub fn cdiv(cx: &mut Mirror, a: &Mat, b: &Mat) -> Mat {
        a.zip(b, |x, y| cx.div(x, y))
    }
    /// `-a`.
    pub fn neg(cx: &mut Mirror, a: &Mat) -> Mat {
        a.each(|x| cx.neg(x))
    }
    /// `a.relu()`.
    pub fn relu(cx: &mut Mirror, a: &Mat) -> Mat {
        a.each(|x| cx.relu(x))
    }
    /// `a.sigmoid()`.
    pub fn sigmoid(cx: &mut Mirror, a: &Mat) -> Mat {
        a.each(|x| cx.sigmoid(x))
    }
    /// `a.map(f)`.
    pub fn map(cx: &mut Mirror, a: &Mat, f: fn(&mut Mirror, V) -> V) -> Mat {
        a.each(|x| f(cx, x))
    }
    /// `s * a`.
    pub fn scale(cx: &mut Mirror, s: V, a: &Mat) -> Mat {
        a.each(|x| cx.mul(s, x))
    }
    /// `a * s`.
    pub fn scale_r(cx: &mut Mirror, a: &Mat, s: V) -> Mat {
        a.each(|x| cx.mul(x, s))
    }
    /// `a / s`.
    pub fn div_s(cx: &mut Mirror, a: &Mat, s: V) -> Mat {
        a.each(|x| cx.div(x, s))
    }
    /// `a.transpose()`.
    pub fn transpose(a: &Mat) -> Mat {
        let mut data = Vec::with_capacity(a.data.len());
        for i in 0..a.rows {
            for j in 0..a.cols {
                data.push(a.at(i, j));
            }
        }
        Mat {
            rows: a.cols,
            cols: a.rows,
            data,
        }
    }
    /// The matrix product `a * b`, each entry a running sum over `k`.
    pub fn matmul(cx: &mut Mirror, a: &Mat, b: &Mat) -> Mat {
        assert_eq!(a.cols, b.rows, "inner dimensions");
        let mut data = Vec::with_capacity(a.rows * b.cols);
        for j in 0..b.cols {
            for i in 0..a.rows {
                let mut acc = cx.mul(a.at(i, 0), b.at(0, j));
                for k in 1..a.cols {
                    let t = cx.mul(a.at(i, k), b.at(k, j));
                    acc = cx.add(acc, t);
                }
                data.push(acc);
            }
        }
        Mat {
            rows: a.rows,
            cols: b.cols,
            data,
        }
    }
    /// `a.sum()`.
    pub fn sum(cx: &mut Mirror, a: &Mat) -> V {
        let mut acc = a.data[0];
        for &x in &a.data[1..] {
            acc = cx.add(acc, x);
        }
        acc
    }
    /// Σ wₖ·aₖ with [`crate::weights`], the mirror of [`crate::weigh`].
    pub fn weigh(cx: &mut Mirror, a: &Mat) -> V {
        let w = crate::weights(a.data.len(), 1.0);
        let mut acc = cx.k(0.0);
        for (&x, w) in a.data.iter().zip(w) {
            let w = cx.k(w);
            let t = cx.mul(w, x);
            acc = cx.add(acc, t);
        }
        acc
    }
    /// `a.max()`: the largest entry's node; records every comparison.
    pub fn max_el(cx: &mut Mirror, a: &Mat) -> V {
        let mut best = a.data[0];
        for &x in &a.data[1..] {
            if cx.gt(x, best) {
                best = x;
            }
        }
        best
    }
}
