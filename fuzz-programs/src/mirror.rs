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
//! Ops the graph lacks are spelled with ops it has: `-a` is `-1 · a`,
//! `a.powi(n)` repeated products, `abs`/`max`/`min`/`clamp` pick a node,
//! `stop_gradient` makes a fresh leaf, `signum floor ceil round trunc`
//! a constant and `fract` `a` minus a constant (their conventions). The
//! other functions of the rule table (`tan`, `asin`, `hypot`, `mul_add`,
//! ...) are custom ops of the graph whose backward is their derivative's
//! closed form, written here apart from the runtime's rules
//! ([`CLOSED_FORMS`]).
//!
//! Every spelling must give the graph the program's value bit for bit,
//! the sign of a zero included: the reverse pass runs at the values the
//! graph holds, and one op off (`0 - a` is `+0` where the program's `-a`
//! is `-0`) moves it to another point, by a jump where `atan2` follows
//! (finding 010). In `f64` programs the recording mirror checks this at
//! every op ([`Mirror::graph_departure`]).

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
    // Fused, as the program computes it: the graph's `mul` then `add`
    // rounds twice.
    (
        "mul_add",
        |x| x[0].mul_add(x[1], x[2]),
        |x| vec![x[1], x[0], 1.0],
    ),
];

/// A value of the mirror: its `f64` value and, when recording, its node.
#[derive(Clone, Copy, Debug)]
pub struct V {
    /// The value.
    pub x: f64,
    id: Option<NodeId>,
    /// A hash of the expression computing it (ops and leaves): two values
    /// with the same key are computed alike by the program as well.
    key: u64,
    /// Whether the value is bit for bit the program's. In `f32` programs,
    /// transcendental functions are computed in `f64` and rounded (within
    /// an ulp of the program's), and `powi` as products in another order.
    exact: bool,
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
    /// Leaves made so far: an input's key is its position.
    leaves: u64,
    /// The first op whose value in the graph is not the mirror's.
    departure: Option<String>,
}

/// A comparison's constant operand: exact, keyed by its bits.
fn konst(x: f64) -> V {
    V {
        x,
        id: None,
        key: mix(0xC0, x.to_bits()),
        exact: true,
    }
}

fn mix(a: u64, b: u64) -> u64 {
    let mut z = a.rotate_left(17) ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 27)
}

fn name_hash(name: &str) -> u64 {
    name.bytes().fold(0xCBF2_9CE4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3)
    })
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
            leaves: 0,
            departure: None,
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

    /// The first op (its name, the graph's value and the mirror's) whose
    /// value in the dynamic graph differs from the mirror's, bit for bit
    /// (a zero's sign included; NaN matches NaN), in a recording mirror of
    /// an `f64` program; `None` if every op agreed. Its gradients are then
    /// the graph's at another point than the program's. (An `f32` mirror
    /// rounds its values, the graph does not: not checked there.)
    pub fn graph_departure(&self) -> Option<&str> {
        self.departure.as_deref()
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
        self.leaf(x, mix(0x1EAF, self.leaves))
    }

    fn leaf(&mut self, x: f64, key: u64) -> V {
        let x = if self.f32 { f64::from(x as f32) } else { x };
        self.leaves += 1;
        let id = self.graph.as_mut().map(|g| g.input(x));
        V {
            x,
            id,
            key,
            exact: true,
        }
    }

    /// A constant (a leaf whose gradient nobody asks for).
    pub fn k(&mut self, x: f64) -> V {
        self.leaf(x, konst(x).key)
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
        if let (Some(g), Some(id)) = (&self.graph, id)
            && !self.f32
            && self.departure.is_none()
        {
            let held = g.value(id).ok().and_then(Value::as_scalar);
            let same = held.is_some_and(|h| h.to_bits() == x.to_bits() || h.is_nan() && x.is_nan());
            if !same {
                self.departure = Some(format!(
                    "`{name}` is {held:?} in the graph, {x:?} in the mirror"
                ));
            }
        }
        // `+ - * /` and `sqrt` of `f32` values, computed in `f64` and
        // rounded, are the correctly rounded `f32` results (and `abs` of
        // one is one).
        let rounds_alike = !self.f32 || matches!(name, "add" | "sub" | "mul" | "div" | "sqrt");
        V {
            x,
            id,
            key: args
                .iter()
                .fold(mix(0x0B, name_hash(name)), |k, a| mix(k, a.key)),
            exact: rounds_alike && args.iter().all(|a| a.exact),
        }
    }

    fn decide(&mut self, d: bool, a: V, b: V) -> bool {
        // An exact tie between values computed alike (`v.min(v)`, `abs` of
        // a constant 0) is structural: the program ties too, at every
        // nearby point, so it does not count against the margin. Nor does
        // one between values that are the program's bit for bit. A tie
        // involving a value within an ulp of the program's is a margin of
        // 0: the program may fall on either side (finding 003).
        let structural = a.key == b.key || (a.exact && b.exact);
        if a.x != b.x || !structural {
            let margin = (a.x - b.x).abs() / (1.0 + a.x.abs() + b.x.abs());
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
    /// `-a`, as `-1 · a`: exactly `-a`, a zero's sign included (`0 - a`
    /// is `+0` at `a = +0`, the program's `-a` is `-0`: finding 010).
    pub fn neg(&mut self, a: V) -> V {
        let minus_one = self.k(-1.0);
        self.op("mul", &[minus_one, a], -a.x)
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
        self.decide(a.x > 0.0, a, konst(0.0));
        self.op("relu", &[a], a.x.relu())
    }
    /// `a.abs()`: `a` or `-a`; records the side. At ±0 the side of the
    /// zero's sign (the runtime's convention, `copysign(1, a)`): `+0` is
    /// `a`, `−0` is `-1 · a`, valued `+0` as the program's `(-0.0).abs()`.
    pub fn abs(&mut self, a: V) -> V {
        let right = a.x > 0.0 || (a.x == 0.0 && a.x.is_sign_positive());
        if self.decide(right, a, konst(0.0)) {
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
        // `powi` multiplies by repeated squaring: other roundings from
        // n = 4. In `f64` programs the mirror trusts its ties all the same
        // (ties of such values were all structural in the long runs, e.g.
        // `(a * (a - b)).relu()` after a `powi(4)` in every call).
        if self.f32 && n.unsigned_abs() > 3 {
            r.exact = false;
        }
        r
    }
    /// `a.powf(b)`, the graph's `pow`.
    pub fn powf(&mut self, a: V, b: V) -> V {
        self.op("pow", &[a, b], a.x.powf(b.x))
    }
    /// `a.max(b)`: picks a node; records which.
    pub fn max(&mut self, a: V, b: V) -> V {
        if self.decide(a.x >= b.x, a, b) { a } else { b }
    }
    /// `a.min(b)`: picks a node; records which.
    pub fn min(&mut self, a: V, b: V) -> V {
        if self.decide(a.x <= b.x, a, b) { a } else { b }
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
        let mut leaf = self.leaf(x, mix(0x5709, a.key));
        leaf.exact = a.exact;
        leaf
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
        self.decide(step.rem_euclid(2.0) == 1.0, a, konst(jump));
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
    /// `a.mul_add(b, c)`, fused. (In an `f32` program, fused in `f64`
    /// then rounded: not always `f32`'s fused result, so not exact.)
    pub fn mul_add(&mut self, a: V, b: V, c: V) -> V {
        self.closed_form("mul_add", &[a, b, c])
    }
    /// `x.clamp(lo, hi)`: picks a node, `x` on a tie; records which.
    pub fn clamp(&mut self, x: V, lo: V, hi: V) -> V {
        if self.decide(x.x < lo.x, x, lo) {
            lo
        } else if self.decide(x.x > hi.x, x, hi) {
            hi
        } else {
            x
        }
    }
    /// `y.atan2(x)`; records the side of its jump (x < 0, y = ±0) and the
    /// distance to the origin, where it is not continuous.
    pub fn atan2(&mut self, y: V, x: V) -> V {
        if x.x < 0.0 {
            self.decide(y.x.is_sign_positive(), y, konst(0.0));
        }
        self.origin(y, x);
        self.closed_form("atan2", &[y, x])
    }
    /// `x.log(b)`.
    pub fn log(&mut self, x: V, b: V) -> V {
        self.closed_form("log_base", &[x, b])
    }
    /// `a.hypot(b)`: a cone at the origin (`hypot(0, t) = |t|`, finding
    /// 005), so the distance to it is recorded like `abs`'s.
    pub fn hypot(&mut self, a: V, b: V) -> V {
        self.origin(a, b);
        self.closed_form("hypot", &[a, b])
    }
    /// Records how far `(a, b)` is from the origin, the kink of `hypot` and
    /// `atan2`: the larger argument's distance from 0, its side, and
    /// whether it is the origin itself. The last is a decision of its own:
    /// there the derivative is a convention, not a limit, and a point next
    /// to it may see the same sides (`atan2(t², t²)` is π/4 on both sides
    /// of t = 0 and 0 at it, finding 015).
    fn origin(&mut self, a: V, b: V) {
        let far = if a.x.abs() >= b.x.abs() { a } else { b };
        self.decide(far.x.is_sign_positive(), far, konst(0.0));
        self.decide(far.x == 0.0, far, konst(0.0));
    }

    /// `a < b`, recorded.
    pub fn lt(&mut self, a: V, b: V) -> bool {
        self.decide(a.x < b.x, a, b)
    }
    /// `a <= b`, recorded.
    pub fn le(&mut self, a: V, b: V) -> bool {
        self.decide(a.x <= b.x, a, b)
    }
    /// `a > b`, recorded.
    pub fn gt(&mut self, a: V, b: V) -> bool {
        self.decide(a.x > b.x, a, b)
    }
    /// `a >= b`, recorded.
    pub fn ge(&mut self, a: V, b: V) -> bool {
        self.decide(a.x >= b.x, a, b)
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
    use super::{Mat, Mirror, V, minor};

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
        // From +0, as nalgebra's `sum` folds: entries that are all −0 sum
        // to +0 there, and a sign of zero decides `atan2` (finding 016).
        let mut acc = cx.k(0.0);
        for &x in &a.data {
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
    /// `a.determinant()` of a square matrix, by cofactor expansion along
    /// the first row: its graph's derivative is the cofactor matrix at
    /// every matrix, singular ones included (the value is nalgebra's up to
    /// rounding).
    pub fn det(cx: &mut Mirror, a: &Mat) -> V {
        assert_eq!(a.rows, a.cols, "a square matrix");
        let rows: Vec<usize> = (0..a.rows).collect();
        let cols: Vec<usize> = (0..a.cols).collect();
        if rows.is_empty() {
            return cx.k(1.0);
        }
        minor(cx, a, &rows, &cols)
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

/// The determinant of `a`'s submatrix on `rows × cols` (as many of each).
fn minor(cx: &mut Mirror, a: &Mat, rows: &[usize], cols: &[usize]) -> V {
    if rows.len() == 1 {
        return a.at(rows[0], cols[0]);
    }
    let mut acc: Option<V> = None;
    for (k, &c) in cols.iter().enumerate() {
        let rest: Vec<usize> = cols.iter().copied().filter(|&x| x != c).collect();
        let m = minor(cx, a, &rows[1..], &rest);
        let t = cx.mul(a.at(rows[0], c), m);
        acc = Some(match acc {
            None if k % 2 == 0 => t,
            None => cx.neg(t),
            Some(s) if k % 2 == 0 => cx.add(s, t),
            Some(s) => cx.sub(s, t),
        });
    }
    acc.expect("a column")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Finding 003: in an `f32` program `sigmoid(ln 3)` is 0.75000006, the
    /// mirror's (`f64`, rounded) exactly 0.75, so `tanh(s - 0.75) <= 0`
    /// ties in the mirror only, and the program took the other branch. A
    /// tie of a value within an ulp of the program's must reject the point.
    #[test]
    fn an_inexact_tie_is_a_zero_margin() {
        let mut m = Mirror::tracing().in_f32(true);
        let a = m.input(f64::from(3f32.ln()));
        let s = m.sigmoid(a);
        assert_eq!(s.x, 0.75);
        assert_ne!(3f32.ln().sigmoid(), 0.75, "the program's sigmoid");
        let k = m.k(0.75);
        let d = m.sub(s, k);
        let t = m.tanh(d);
        let zero = m.k(0.0);
        m.le(t, zero);
        assert_eq!(m.min_margin(), 0.0);
    }

    /// Finding 005: `hypot(tanh(a), a)` is `|a|·√2`-like at `a = 0`, a
    /// kink the trace must see (it saw none: a central difference there
    /// averaged the two slopes and was compared with the adjoint).
    #[test]
    fn the_origin_of_hypot_and_atan2_is_a_kink() {
        let trace = |op: fn(&mut Mirror, V, V) -> V, x: f64| {
            let mut m = Mirror::tracing();
            let a = m.input(x);
            let t = m.tanh(a);
            op(&mut m, t, a);
            (m.trace().to_vec(), m.min_margin())
        };
        for op in [Mirror::hypot, Mirror::atan2] {
            // Either side of the origin: different traces, so a central
            // difference across it is not taken; near it, a small margin.
            assert_ne!(trace(op, 1e-9).0, trace(op, -1e-9).0);
            assert!(trace(op, 1e-9).1 < 1e-8);
            assert!(trace(op, 0.5).1 > 0.1);
        }
    }

    /// `atan2(t², t²)` is π/4 on both sides of t = 0 and 0 at it: the
    /// sides alone do not tell the point from its neighbours (finding 015).
    #[test]
    fn the_origin_itself_is_a_decision() {
        let trace = |x: f64| {
            let mut m = Mirror::tracing();
            let t = m.input(x);
            let s = m.mul(t, t);
            m.atan2(s, s);
            m.trace().to_vec()
        };
        assert_ne!(trace(0.0), trace(1e-6));
        assert_ne!(trace(0.0), trace(-1e-6));
        assert_eq!(trace(1e-6), trace(-1e-6));
    }

    /// nalgebra's `sum` folds from +0, so entries that are all −0 sum to
    /// +0; the mirror's must too, or `atan2` downstream sees another
    /// angle (finding 016).
    #[test]
    fn a_sum_of_negative_zeros_is_positive_zero_as_in_nalgebra() {
        let entries = [-0.0, -0.0, -0.0];
        let program = nalgebra::DMatrix::from_column_slice(1, 3, &entries).sum();
        let mut m = Mirror::tracing();
        let data: Vec<V> = entries.iter().map(|&x| m.input(x)).collect();
        let mirror = mat::sum(&mut m, &Mat::new(1, 3, &data));
        assert_eq!(mirror.x.to_bits(), program.to_bits());
        assert!(program.is_sign_positive());
    }

    /// The recording mirror's gradient of `f(a)` at `a`, and its value.
    fn graph_gradient(f: fn(&mut Mirror, V) -> V, a: f64) -> (f64, f64, Option<String>) {
        let mut m = Mirror::recording();
        let a = m.input(a);
        let out = f(&mut m, a);
        let g = m.gradients(out, &[a])[0];
        (out.x, g, m.graph_departure().map(str::to_owned))
    }

    /// Finding 010: `-a` at `a = +0` is `-0`, where `atan2(-a, -a)` is
    /// `-π`; the graph's `0 - a` held `+0` (`atan2 = 0`), so its reverse
    /// pass ran at another point. `atan2(-a, -a) · a` has the derivative
    /// `atan2(-a, -a) + a · 0` there (atan2's partials at the origin are 0,
    /// the convention), `-π`; at `a = -0` it is `atan2(+0, +0) = 0`.
    #[test]
    fn negation_keeps_the_sign_of_zero_in_the_graph() {
        let f = |m: &mut Mirror, a: V| {
            let n = m.neg(a);
            let t = m.atan2(n, n);
            m.mul(t, a)
        };
        for (a, atan2) in [(0.0, -std::f64::consts::PI), (-0.0, 0.0)] {
            let (value, grad, departure) = graph_gradient(f, a);
            assert_eq!(value, 0.0);
            assert_eq!(grad, atan2, "at a = {a:?}");
            assert_eq!(departure, None);
        }
        // Negating twice, through a matrix: the sign comes back.
        let mut m = Mirror::recording();
        let a = m.input(0.0);
        let once = mat::neg(&mut m, &Mat::new(1, 1, &[a]));
        let twice = mat::neg(&mut m, &once);
        assert!(twice.data[0].x.is_sign_positive());
        assert_eq!(m.graph_departure(), None);
    }

    /// `(-0.0).abs()` is `+0`, so `atan2(|a|, -1)` at `a = -0` is `π`
    /// (it is `-π` for `-0`): `d(atan2(|a|, -1) · b)/db = π` there, and
    /// `d/da = b · ∂atan2/∂y · d|a|/da = 2 · (−1) · (−1) = 2`, abs taking
    /// the left piece at `-0` (the convention).
    #[test]
    fn abs_of_negative_zero_is_positive_zero_in_the_graph() {
        let mut m = Mirror::recording();
        let a = m.input(-0.0);
        let b = m.input(2.0);
        let r = m.abs(a);
        let minus_one = m.k(-1.0);
        let t = m.atan2(r, minus_one);
        let out = m.mul(t, b);
        let pi = std::f64::consts::PI;
        assert_eq!(out.x, 2.0 * pi);
        assert_eq!(m.gradients(out, &[a, b]), vec![2.0, pi]);
        assert_eq!(m.graph_departure(), None);
    }

    /// `abs` at ±0 under the convention `copysign(1, x)`: `d|x|/dx` is +1
    /// at `+0` and −1 at `-0`, the value `+0` at both; so `|−x²|` has
    /// derivative 0 and `|x|·|x|` second derivative 2 there (the one-sided
    /// pieces' derivatives, SPEC).
    #[test]
    fn abs_at_signed_zeros_takes_the_side_of_the_zero() {
        for (x, slope) in [(0.0, 1.0), (-0.0, -1.0)] {
            let mut m = Mirror::recording();
            let a = m.input(x);
            let r = m.abs(a);
            assert!(r.x == 0.0 && r.x.is_sign_positive());
            assert_eq!(m.gradients(r, &[a]), vec![slope]);
            assert_eq!(m.graph_departure(), None);
        }
    }

    /// The determinant's graph derivative is the cofactor matrix, at a
    /// singular matrix too: `[[0, 1, 2], [0, 3, 4], [0, 5, 6]]` (first
    /// column zero) has cofactors C₀₀ = 3·6 − 4·5 = −2, C₁₀ = −(1·6 − 2·5)
    /// = 4, C₂₀ = 1·4 − 2·3 = −2 in its first column, and det 0.
    #[test]
    fn determinant_gradient_is_the_cofactor_matrix_when_singular() {
        let mut m = Mirror::recording();
        // Column-major.
        let xs = [0.0, 0.0, 0.0, 1.0, 3.0, 5.0, 2.0, 4.0, 6.0];
        let leaves: Vec<V> = xs.iter().map(|&v| m.input(v)).collect();
        let a = Mat::new(3, 3, &leaves);
        let d = mat::det(&mut m, &a);
        assert_eq!(d.x, 0.0);
        let g = m.gradients(d, &leaves);
        assert_eq!(&g[..3], &[-2.0, 4.0, -2.0]);
        // The other columns' cofactors contain the zero column: 0.
        assert!(g[3..].iter().all(|&c| c == 0.0));
    }

    /// `mul_add` is fused in the program: `0.1 · 0.1 - 0.01` is
    /// 9.02e-19 fused and 1.73e-18 as a product and a sum. The graph
    /// must hold the fused value: `d(mul_add(a, a, c) · b)/db` is it.
    #[test]
    fn mul_add_is_fused_in_the_graph() {
        let mut m = Mirror::recording();
        let a = m.input(0.1);
        let c = m.input(-0.01);
        let b = m.input(1.0);
        let r = m.mul_add(a, a, c);
        let out = m.mul(r, b);
        let fused = 0.1f64.mul_add(0.1, -0.01);
        assert_ne!(
            fused,
            0.1 * 0.1 - 0.01,
            "rounding once and twice differ here"
        );
        // d/da = 2a·b, d/dc = b, d/db = the fused value.
        assert_eq!(m.gradients(out, &[a, c, b]), vec![0.2, 1.0, fused]);
        assert_eq!(m.graph_departure(), None);
    }

    /// An op spelled with graph ops of another value is reported: the
    /// old `-a` (`0 - a`) at `a = +0`.
    #[test]
    fn a_graph_value_other_than_the_mirrors_is_a_departure() {
        let mut m = Mirror::recording();
        let a = m.input(0.0);
        let zero = m.k(0.0);
        m.op("sub", &[zero, a], -a.x);
        let departure = m.graph_departure().expect("a departure");
        assert!(departure.contains("`sub`"), "{departure}");
        // Not checked in `f32` programs, whose graph is not rounded.
        let mut m = Mirror::recording().in_f32(true);
        let a = m.input(0.1);
        let b = m.input(0.3);
        m.mul(a, b);
        assert_eq!(m.graph_departure(), None);
    }

    /// Ties the program computes alike are not margins: `v.min(v)` of a
    /// rounded value, and comparisons of exactly computed values.
    #[test]
    fn structural_and_exact_ties_are_not_margins() {
        let mut m = Mirror::tracing().in_f32(true);
        let a = m.input(0.5);
        let t1 = m.tanh(a);
        let t2 = m.tanh(a);
        m.min(t1, t2);
        let b = m.input(0.25);
        let p = m.mul(a, b);
        let q = m.k(0.125);
        m.ge(p, q);
        let s = m.sub(a, a);
        m.abs(s);
        assert_eq!(m.min_margin(), f64::INFINITY);
    }
}
