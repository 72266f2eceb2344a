//! Hessian sparsity detection: the function run once on [`Tracer`], a
//! scalar carrying its value and a node of a thread-local record of which
//! inputs each value depends on and which pairs of them interact
//! non-linearly (the idea of Julia's SparseConnectivityTracer, recorded
//! lazily so that a long sum does not copy its growing index set at every
//! step).
//!
//! Comparisons read the value, so the branches taken are the point's: the
//! pattern is *local*. A run that reads no input-dependent value to decide
//! anything (no comparison, `max`/`min` pick, `clamp`, integer conversion
//! or `is_nan`-like test of a value that depends on an input) takes the
//! same path at every point, so its pattern is *global*
//! ([`Coloring::is_global`]); so is the dense pattern. A run that does is
//! local only: the pattern of the union over branches is not computed. An operation whose derivative is structurally zero
//! (`floor`, `signum`, a comparison) gives a constant; one whose second
//! derivative is structurally zero (`+`, `−`, `abs`, a product with a
//! constant) adds no interaction; every other one adds the pairs of its
//! operands' inputs, whatever its derivatives' values at the point (a
//! numerical zero is not a structural one). A value read out as a float
//! (`to_f64`, as the special functions do to call libm) leaves the record:
//! the session then gives the dense pattern, never a pattern missing
//! entries.

use core::cell::RefCell;
use core::cmp::Ordering;
use core::num::FpCategory;
use core::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Rem, Sub, SubAssign};

use num_traits::{Float, Num, NumCast, One, ToPrimitive, Zero};

use super::Coloring;

/// The node of a constant: no dependency.
const CONSTANT: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
enum Node {
    /// Flattened input `k`.
    Input(u32),
    /// Linear in both operands: no new interaction.
    Linear(u32, u32),
    /// A non-linear function of one operand: its inputs interact.
    Nonlinear(u32),
    /// `a·b`: the inputs of `a` interact with those of `b`.
    Product(u32, u32),
    /// A non-linear function of both: every pair of their inputs.
    Nonlinear2(u32, u32),
}

#[derive(Default)]
struct Tape {
    nodes: Vec<Node>,
    /// A value was read out as a float: its dependencies are lost.
    escaped: bool,
    /// An input-dependent value decided something (a comparison, a
    /// `max` pick, an integer conversion): the path may differ elsewhere.
    branched: bool,
    active: bool,
}

thread_local! {
    static TAPE: RefCell<Tape> = RefCell::new(Tape::default());
}

fn push(node: Node) -> u32 {
    TAPE.with(|t| {
        let mut t = t.borrow_mut();
        // Past u32's ids (some 50 GB of record) the pattern is the dense
        // one rather than one of aliased nodes.
        let id = u32::try_from(t.nodes.len())
            .ok()
            .filter(|&id| id < CONSTANT - 1)
            .unwrap_or_else(|| {
                t.escaped = true;
                CONSTANT - 1
            });
        if !t.escaped {
            t.nodes.push(node);
        }
        id
    })
}

/// A value and the node that records what it depends on. Implements
/// [`Float`], so a function generic over its scalar runs on it.
#[derive(Clone, Copy, Debug)]
pub struct Tracer {
    value: f64,
    node: u32,
    /// The value depends on an input, even where its derivative is
    /// structurally zero (`floor(x)`, `signum(x)`): deciding on it is a
    /// branch on the inputs.
    varies: bool,
}

/// The value, as the function's own float prints (an assertion's message
/// in a traced body).
impl std::fmt::Display for Tracer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.value, f)
    }
}

impl Default for Tracer {
    fn default() -> Self {
        Tracer::constant(0.0)
    }
}

impl Tracer {
    /// A constant: depends on no input.
    pub fn constant(value: f64) -> Self {
        Tracer {
            value,
            node: CONSTANT,
            varies: false,
        }
    }

    /// Constants: depend on no input.
    pub fn constants(x: &[f64]) -> Vec<Self> {
        x.iter().map(|&x| Tracer::constant(x)).collect()
    }

    /// The value at the point.
    pub fn value(self) -> f64 {
        self.value
    }

    fn is_constant(self) -> bool {
        self.node == CONSTANT
    }

    fn with(self, value: f64) -> Self {
        Tracer { value, ..self }
    }

    /// Also varying if `other` does (a result of both).
    fn varying(mut self, other: Self) -> Self {
        self.varies |= other.varies;
        self
    }

    /// A function of `self` with a structurally non-zero second derivative.
    fn nonlinear(self, value: f64) -> Self {
        if self.is_constant() {
            return Tracer::constant(value).varying(self);
        }
        Tracer {
            value,
            node: push(Node::Nonlinear(self.node)),
            varies: self.varies,
        }
    }

    /// A function of both, linear in each.
    fn linear(self, b: Self, value: f64) -> Self {
        match (self.is_constant(), b.is_constant()) {
            (true, _) => b.with(value).varying(self),
            (_, true) => self.with(value).varying(b),
            _ => Tracer {
                value,
                node: push(Node::Linear(self.node, b.node)),
                varies: self.varies || b.varies,
            },
        }
    }

    /// A function of both, non-linear in each.
    fn nonlinear2(self, b: Self, value: f64) -> Self {
        match (self.is_constant(), b.is_constant()) {
            (true, _) => b.nonlinear(value).varying(self),
            (_, true) => self.nonlinear(value).varying(b),
            _ => Tracer {
                value,
                node: push(Node::Nonlinear2(self.node, b.node)),
                varies: self.varies || b.varies,
            },
        }
    }

    /// One of two operands chosen by value (`max`, `min`): the chosen one,
    /// or at a tie both (a superset of either side's pattern).
    fn select(self, b: Self, value: f64, keep_self: Option<bool>) -> Self {
        if keep_self.is_some() {
            decides(&[self, b]);
        }
        match keep_self {
            Some(true) => self.with(value).varying(b),
            Some(false) => b.with(value).varying(self),
            None => self.linear(b, value),
        }
    }
}

/// One detection run: clears the record when made and when dropped.
pub struct Session {
    inputs: usize,
}

impl Session {
    /// A detection run over `inputs` flattened inputs.
    ///
    /// # Panics
    ///
    /// If a session is already running on this thread.
    #[allow(clippy::new_without_default)]
    pub fn new(inputs: usize) -> Self {
        TAPE.with(|t| {
            let mut t = t.borrow_mut();
            assert!(
                !t.active,
                "a sparsity detection is already running on this thread"
            );
            *t = Tape {
                active: true,
                ..Tape::default()
            };
        });
        Session { inputs }
    }

    /// Flattened input `k` at value `x`.
    pub fn input(&self, x: f64, k: usize) -> Tracer {
        let k = u32::try_from(k).unwrap_or_else(|_| {
            escape();
            0
        });
        Tracer {
            value: x,
            node: push(Node::Input(k)),
            varies: true,
        }
    }

    /// The inputs `offset..offset + x.len()` at the values `x`.
    pub fn inputs(&self, x: &[f64], offset: usize) -> Vec<Tracer> {
        x.iter()
            .enumerate()
            .map(|(i, &x)| self.input(x, offset + i))
            .collect()
    }

    /// The colouring of the Hessian of `out` over the session's inputs:
    /// the pairs of inputs that interact on some path to `out` (the dense
    /// pattern if a value was read out as a float).
    pub fn hessian(self, out: Tracer) -> Coloring {
        let n = self.inputs;
        let (nodes, escaped, branched) = TAPE.with(|t| {
            let mut t = t.borrow_mut();
            (core::mem::take(&mut t.nodes), t.escaped, t.branched)
        });
        if escaped {
            return Coloring::dense_hessian(n);
        }
        Coloring::hessian(n, interactions(&nodes, out.node)).with_global(!branched)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        TAPE.with(|t| *t.borrow_mut() = Tape::default());
    }
}

/// The interacting pairs of inputs on the paths to `out`.
fn interactions(nodes: &[Node], out: u32) -> Vec<(usize, usize)> {
    let len = nodes.len();
    let out = out as usize;
    if out >= len {
        return Vec::new();
    }
    // reached: on a path to `out`; needed: its input set is read by an
    // interaction. Operands precede their node, so one backward pass
    // settles both.
    let mut reached = vec![false; len];
    let mut needed = vec![false; len];
    reached[out] = true;
    for k in (0..len).rev() {
        let (a, b) = operands(nodes[k]);
        if reached[k] {
            for o in [a, b].into_iter().flatten() {
                reached[o] = true;
            }
            if !matches!(nodes[k], Node::Input(_) | Node::Linear(..)) {
                for o in [a, b].into_iter().flatten() {
                    needed[o] = true;
                }
            }
        }
        if needed[k] {
            for o in [a, b].into_iter().flatten() {
                needed[o] = true;
            }
        }
    }
    // The input sets of the needed nodes, forward, sorted and unique.
    let mut sets: Vec<Vec<usize>> = vec![Vec::new(); len];
    for k in 0..len {
        if !needed[k] {
            continue;
        }
        sets[k] = match nodes[k] {
            Node::Input(i) => vec![i as usize],
            node => {
                let (a, b) = operands(node);
                let mut set = a.map(|a| sets[a].clone()).unwrap_or_default();
                if let Some(b) = b {
                    set.extend_from_slice(&sets[b]);
                    set.sort_unstable();
                    set.dedup();
                }
                set
            }
        };
    }
    let mut pairs = Vec::new();
    for k in (0..len).filter(|&k| reached[k]) {
        match nodes[k] {
            Node::Nonlinear(a) => square(&sets[a as usize], &mut pairs),
            Node::Product(a, b) => {
                for &i in &sets[a as usize] {
                    pairs.extend(sets[b as usize].iter().map(|&j| (i, j)));
                }
            }
            Node::Nonlinear2(a, b) => {
                let mut both = sets[a as usize].clone();
                both.extend_from_slice(&sets[b as usize]);
                both.sort_unstable();
                both.dedup();
                square(&both, &mut pairs);
            }
            Node::Input(_) | Node::Linear(..) => {}
        }
    }
    pairs
}

fn operands(node: Node) -> (Option<usize>, Option<usize>) {
    match node {
        Node::Input(_) => (None, None),
        Node::Nonlinear(a) => (Some(a as usize), None),
        Node::Linear(a, b) | Node::Product(a, b) | Node::Nonlinear2(a, b) => {
            (Some(a as usize), Some(b as usize))
        }
    }
}

/// Every pair of `set` with itself (one triangle: the colouring mirrors).
fn square(set: &[usize], pairs: &mut Vec<(usize, usize)>) {
    for (k, &i) in set.iter().enumerate() {
        pairs.extend(set[k..].iter().map(|&j| (i, j)));
    }
}

fn escape() {
    TAPE.with(|t| t.borrow_mut().escaped = true);
}

/// The run read an input-dependent value to decide something, if one of
/// `values` depends on an input (structurally or only in value, as
/// `floor(x)`): its pattern is the point's only.
fn decides(values: &[Tracer]) {
    if values.iter().any(|v| v.varies) {
        TAPE.with(|t| t.borrow_mut().branched = true);
    }
}

impl PartialEq for Tracer {
    fn eq(&self, other: &Self) -> bool {
        decides(&[*self, *other]);
        self.value == other.value
    }
}

impl PartialOrd for Tracer {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        decides(&[*self, *other]);
        self.value.partial_cmp(&other.value)
    }
}

impl Add for Tracer {
    type Output = Self;
    fn add(self, b: Self) -> Self {
        self.linear(b, self.value + b.value)
    }
}

impl Sub for Tracer {
    type Output = Self;
    fn sub(self, b: Self) -> Self {
        self.linear(b, self.value - b.value)
    }
}

impl Mul for Tracer {
    type Output = Self;
    fn mul(self, b: Self) -> Self {
        let value = self.value * b.value;
        match (self.is_constant(), b.is_constant()) {
            (true, _) => b.with(value).varying(self),
            (_, true) => self.with(value).varying(b),
            _ => Tracer {
                value,
                node: push(Node::Product(self.node, b.node)),
                varies: self.varies || b.varies,
            },
        }
    }
}

impl Div for Tracer {
    type Output = Self;
    fn div(self, b: Self) -> Self {
        let value = self.value / b.value;
        if b.is_constant() {
            self.with(value).varying(b)
        } else {
            self.nonlinear2(b, value)
        }
    }
}

impl Rem for Tracer {
    type Output = Self;
    /// `a − trunc(a/b)·b`: linear in each, the quotient piecewise constant.
    fn rem(self, b: Self) -> Self {
        self.linear(b, self.value % b.value)
    }
}

impl Neg for Tracer {
    type Output = Self;
    fn neg(self) -> Self {
        self.with(-self.value)
    }
}

macro_rules! assign_ops {
    ($($trait:ident $method:ident $op:tt;)*) => {$(
        impl $trait for Tracer {
            fn $method(&mut self, b: Self) {
                *self = *self $op b;
            }
        }
    )*};
}

assign_ops! {
    AddAssign add_assign +;
    SubAssign sub_assign -;
    MulAssign mul_assign *;
    DivAssign div_assign /;
}

impl Zero for Tracer {
    fn zero() -> Self {
        Tracer::constant(0.0)
    }
    fn is_zero(&self) -> bool {
        decides(&[*self]);
        self.value == 0.0
    }
}

impl One for Tracer {
    fn one() -> Self {
        Tracer::constant(1.0)
    }
}

impl Num for Tracer {
    type FromStrRadixErr = <f64 as Num>::FromStrRadixErr;
    fn from_str_radix(s: &str, radix: u32) -> Result<Self, Self::FromStrRadixErr> {
        f64::from_str_radix(s, radix).map(Tracer::constant)
    }
}

impl ToPrimitive for Tracer {
    // An integer is piecewise constant in the value: no dependency lost,
    // but an index or a count from it may differ at another point.
    fn to_i64(&self) -> Option<i64> {
        decides(&[*self]);
        self.value.to_i64()
    }
    fn to_u64(&self) -> Option<u64> {
        decides(&[*self]);
        self.value.to_u64()
    }
    fn to_f64(&self) -> Option<f64> {
        if !self.is_constant() {
            escape();
        }
        Some(self.value)
    }
    fn to_f32(&self) -> Option<f32> {
        if !self.is_constant() {
            escape();
        }
        self.value.to_f32()
    }
}

impl NumCast for Tracer {
    fn from<N: ToPrimitive>(n: N) -> Option<Self> {
        n.to_f64().map(Tracer::constant)
    }
}

macro_rules! nonlinear {
    ($($name:ident;)*) => {$(
        fn $name(self) -> Self {
            self.nonlinear(self.value.$name())
        }
    )*};
}

macro_rules! linear {
    ($($name:ident;)*) => {$(
        fn $name(self) -> Self {
            self.with(self.value.$name())
        }
    )*};
}

macro_rules! piecewise_constant {
    ($($name:ident;)*) => {$(
        fn $name(self) -> Self {
            Tracer::constant(self.value.$name()).varying(self)
        }
    )*};
}

macro_rules! on_value {
    ($($name:ident -> $ty:ty;)*) => {$(
        fn $name(self) -> $ty {
            decides(&[self]);
            self.value.$name()
        }
    )*};
}

macro_rules! constants {
    ($($name:ident;)*) => {$(
        fn $name() -> Self {
            Tracer::constant(f64::$name())
        }
    )*};
}

impl Float for Tracer {
    constants! {
        nan;
        infinity;
        neg_infinity;
        neg_zero;
        min_value;
        min_positive_value;
        max_value;
        epsilon;
    }

    on_value! {
        is_nan -> bool;
        is_infinite -> bool;
        is_finite -> bool;
        is_normal -> bool;
        classify -> FpCategory;
        is_sign_positive -> bool;
        is_sign_negative -> bool;
    }

    fn integer_decode(self) -> (u64, i16, i8) {
        if !self.is_constant() {
            escape();
        }
        self.value.integer_decode()
    }

    nonlinear! {
        ln;
        ln_1p;
        log2;
        log10;
        sin;
        cos;
        tan;
        asin;
        acos;
        atan;
        sinh;
        cosh;
        tanh;
        asinh;
        acosh;
        atanh;
        exp;
        exp2;
        exp_m1;
        sqrt;
        cbrt;
        recip;
    }

    // Linear where differentiable (abs away from its kink, fract between
    // integers).
    linear! {
        abs;
        fract;
        to_degrees;
        to_radians;
    }

    piecewise_constant! {
        floor;
        ceil;
        round;
        trunc;
        signum;
    }

    fn mul_add(self, b: Self, c: Self) -> Self {
        let product = self * b;
        product.linear(c, self.value.mul_add(b.value, c.value))
    }

    fn powi(self, n: i32) -> Self {
        let value = self.value.powi(n);
        match n {
            0 => Tracer::constant(value).varying(self),
            1 => self.with(value),
            _ => self.nonlinear(value),
        }
    }

    fn powf(self, b: Self) -> Self {
        self.nonlinear2(b, self.value.powf(b.value))
    }

    fn log(self, base: Self) -> Self {
        self.nonlinear2(base, self.value.log(base.value))
    }

    fn max(self, b: Self) -> Self {
        let keep = match self.value.partial_cmp(&b.value) {
            Some(Ordering::Greater) => Some(true),
            Some(Ordering::Less) => Some(false),
            Some(Ordering::Equal) => None,
            None => Some(b.value.is_nan()),
        };
        self.select(b, self.value.max(b.value), keep)
    }

    fn min(self, b: Self) -> Self {
        let keep = match self.value.partial_cmp(&b.value) {
            Some(Ordering::Less) => Some(true),
            Some(Ordering::Greater) => Some(false),
            Some(Ordering::Equal) => None,
            None => Some(b.value.is_nan()),
        };
        self.select(b, self.value.min(b.value), keep)
    }

    fn abs_sub(self, b: Self) -> Self {
        (self - b).max(Tracer::zero())
    }

    fn hypot(self, b: Self) -> Self {
        self.nonlinear2(b, self.value.hypot(b.value))
    }

    fn sin_cos(self) -> (Self, Self) {
        (self.sin(), self.cos())
    }

    fn atan2(self, x: Self) -> Self {
        self.nonlinear2(x, self.value.atan2(x.value))
    }

    fn clamp(self, lo: Self, hi: Self) -> Self {
        decides(&[self, lo, hi]);
        let picked = if self.value < lo.value {
            lo.with(lo.value)
        } else if self.value > hi.value {
            hi.with(hi.value)
        } else if self.value == lo.value {
            self.linear(lo, self.value)
        } else if self.value == hi.value {
            self.linear(hi, self.value)
        } else {
            self
        };
        picked.varying(self).varying(lo).varying(hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern_of(
        n: usize,
        f: impl FnOnce(&[Tracer]) -> Tracer,
        at: &[f64],
    ) -> Vec<(usize, usize)> {
        let session = Session::new(n);
        let x = session.inputs(at, 0);
        let c = session.hessian(f(&x));
        let p = c.pattern();
        let mut entries: Vec<_> = (0..n)
            .flat_map(|j| p.lane(j).iter().map(move |&i| (i, j)))
            .filter(|&(i, j)| i <= j)
            .collect();
        entries.sort_unstable();
        entries
    }

    #[test]
    fn rosenbrock_is_tridiagonal() {
        let n = 6;
        let rosenbrock = |x: &[Tracer]| {
            let (hundred, one) = (Tracer::constant(100.0), Tracer::one());
            let mut s = Tracer::zero();
            for i in 0..x.len() - 1 {
                let a = x[i + 1] - x[i] * x[i];
                let b = one - x[i];
                s = s + hundred * a * a + b * b;
            }
            s
        };
        // At the minimum every x is 1: numerical values play no part.
        let entries = pattern_of(n, rosenbrock, &[1.0; 6]);
        let expected: Vec<_> = (0..n)
            .flat_map(|i| [(i, i), (i, i + 1)])
            .filter(|&(_, j)| j < n)
            .collect();
        assert_eq!(entries, expected);
    }

    #[test]
    fn linear_and_constant_parts_add_nothing() {
        // f = 3x0 + x1·x2 + floor(x3)·x0 + |x4| + sin(x5): x1·x2 and x5.
        let f = |x: &[Tracer]| {
            Tracer::constant(3.0) * x[0]
                + x[1] * x[2]
                + x[3].floor() * x[0]
                + x[4].abs()
                + x[5].sin()
        };
        // x2 = 0: the product's derivative in x1 is numerically 0.
        assert_eq!(
            pattern_of(6, f, &[1.0, 2.0, 0.0, 3.5, -1.0, 0.0]),
            vec![(1, 2), (5, 5)]
        );
    }

    #[test]
    fn branches_follow_the_point_and_ties_keep_both() {
        let f = |x: &[Tracer]| {
            if x[0] > x[1] { x[0] * x[0] } else { x[1].exp() }
        };
        assert_eq!(pattern_of(2, f, &[2.0, 1.0]), vec![(0, 0)]);
        assert_eq!(pattern_of(2, f, &[0.0, 1.0]), vec![(1, 1)]);
        let g = |x: &[Tracer]| x[0].max(x[1]).powi(2);
        assert_eq!(pattern_of(2, g, &[2.0, 1.0]), vec![(0, 0)]);
        assert_eq!(pattern_of(2, g, &[1.0, 1.0]), vec![(0, 0), (0, 1), (1, 1)]);
    }

    fn is_global(n: usize, f: impl FnOnce(&[Tracer]) -> Tracer, at: &[f64]) -> bool {
        let session = Session::new(n);
        let x = session.inputs(at, 0);
        session.hessian(f(&x)).is_global()
    }

    #[test]
    fn a_run_that_decides_nothing_on_the_inputs_is_global() {
        // Arithmetic, piecewise-constant and kinked functions of the
        // inputs, comparisons of constants only, a tie of `max` (both
        // sides kept), integer loop bounds: the same path everywhere.
        let f = |x: &[Tracer]| {
            let c = Tracer::constant(2.0);
            let k = if c > Tracer::one() { 3 } else { 1 };
            let mut s = x[0].abs() + x[1].floor() * x[2];
            for i in 0..k {
                s += x[i].sin() * x[i + 1];
            }
            s + x[0].max(x[3]).powi(2)
        };
        assert!(is_global(4, f, &[1.0, 2.0, 3.0, 1.0]));
        // Dense (a value read out as a float): global too.
        let g = |x: &[Tracer]| Tracer::constant(x[0].to_f64().unwrap_or(0.0)) + x[1];
        assert!(is_global(2, g, &[1.0, 1.0]));
    }

    #[test]
    fn a_run_that_decides_on_an_input_is_local() {
        type F = fn(&[Tracer]) -> Tracer;
        let at = [2.0, 1.0];
        let cases: [(&str, F); 8] = [
            (
                "a comparison",
                |x| if x[0] > x[1] { x[0] * x[0] } else { x[1] },
            ),
            ("against a constant", |x| {
                if x[0] == Tracer::zero() {
                    x[1]
                } else {
                    x[0] * x[1]
                }
            }),
            ("a max that picks", |x| x[0].max(x[1]).powi(2)),
            ("a clamp", |x| x[0].clamp(Tracer::zero(), x[1]).exp()),
            ("an index from a value", |x| {
                let k = x[0].to_usize().unwrap_or(0).min(1);
                x[k] * x[k]
            }),
            ("a test of the value", |x| {
                if x[0].is_sign_negative() {
                    x[0]
                } else {
                    x[1].exp()
                }
            }),
            ("a comparison of floor(x)", |x| {
                if x[0].floor() > Tracer::one() {
                    x[1] * x[1]
                } else {
                    x[1]
                }
            }),
            ("a comparison of signum(x) · 2", |x| {
                let s = x[0].signum() * Tracer::constant(2.0);
                if s == Tracer::constant(2.0) {
                    x[1] * x[1]
                } else {
                    x[1]
                }
            }),
        ];
        for (what, f) in cases {
            assert!(!is_global(2, f, &at), "{what}");
        }
    }

    #[test]
    fn a_value_read_as_a_float_gives_the_dense_pattern() {
        let f = |x: &[Tracer]| {
            let v = x[0].to_f64().unwrap_or(0.0);
            Tracer::constant(v.exp()) + x[1]
        };
        assert_eq!(pattern_of(2, f, &[1.0, 1.0]), vec![(0, 0), (0, 1), (1, 1)]);
    }
}
