//! The random program generator.
//!
//! Every expression is generated with an upper bound on its magnitude
//! (inputs lie in [-2, 2], matrix entries in [-1.5, 1.5]), so programs stay
//! away from overflow and from the singular points of their ops:
//!
//! - `ln`, `sqrt`, `powf`'s base, negative `powi` and every divisor are
//!   built positive, at least 0.25: `e * e + 0.5`, `e.exp()`,
//!   `1.0 + e.sigmoid()`, `e.abs() + 0.25`, ...;
//! - `exp` takes arguments bounded by 3, and anything whose bound passes
//!   [`CAP`] is squashed through `tanh`, `sin`, `cos` or `sigmoid`;
//! - a loop-carried variable is read inside its loop only through a squash,
//!   and updated by forms whose growth is known (`+=`, `*=` a factor of at
//!   most 1.25, `v = v * 0.5 + e`, ...), so its bound after the loop
//!   follows from the trip count;
//! - loops terminate: `for` over ranges, `while` guarded by a counter.
//!
//! Kinks (comparisons, `abs`, `relu`, `max`, `min`) are left in; the test
//! skips points where a finite difference would straddle one.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::ast::{
    Arg, Bin, Blk, Build, C, Cmp, E, Fl, I, M, Mir, Nary, S, Src, StopPath, Style, Un, ambiguous,
    mentions,
};

/// About how many ops one run of a program may take, calls included
/// (calls into calls into calls would otherwise grow without bound).
const MAX_COST: f64 = 3000.0;

/// The share of programs written by [`shaped`].
const SHAPED_SHARE: f64 = 0.2;

#[path = "shaped.rs"]
mod shaped;

#[path = "classes.rs"]
mod classes;

/// A class of programs the generator writes on request (see
/// `build/classes.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Cfg,
    Consts,
    NonFinite,
    SingularDet,
    SignedZeros,
    ShadowedStruct,
    LargeArray,
    SubSlice,
    InOut,
    Unreached,
    NestedGrad,
    Selection,
    Closures,
    MutableTuples,
    Lanes,
    ConstLen,
}

/// Bound past which a value is squashed (`f32` programs: a quarter of it,
/// so that rounding errors, amplified by large intermediate values, stay
/// far below the tolerances).
const CAP: f64 = 64.0;

const LITS: [f64; 12] = [
    0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0, 0.125, 0.375, 1.75,
];

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())].clone()
    }
    /// An index drawn with the given weights (zero weights never).
    fn weighted(&mut self, ws: &[u32]) -> usize {
        let total: u32 = ws.iter().sum();
        let mut r = self.below(total as usize) as u32;
        for (i, &w) in ws.iter().enumerate() {
            if r < w {
                return i;
            }
            r -= w;
        }
        unreachable!()
    }
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Shape {
    r: usize,
    c: usize,
    vec: bool,
}

impl Shape {
    fn t(self) -> Option<Shape> {
        (!self.vec).then_some(Shape {
            r: self.c,
            c: self.r,
            vec: false,
        })
    }
}

#[derive(Clone, Debug)]
pub enum Param {
    Scalar(String),
    Slice(String, usize),
    Const(String),
    N(String, i64),
    Mat(String, Shape, bool),
}

/// What a caller needs to know about a generated function.
#[derive(Clone, Debug)]
pub struct Sig {
    pub name: String,
    fl: Fl,
    params: Vec<Param>,
    bound: f64,
    matrix: bool,
    deps: BTreeSet<usize>,
    index: usize,
    /// Whether it, or a function it calls, uses `stop_gradient`.
    stops: bool,
    /// About how many ops one call runs, callees included.
    cost: f64,
    /// The shape of the matrix it returns, `None` for a scalar.
    ret: Option<Shape>,
    /// Written by `shaped`: not called by the other programs.
    shaped: bool,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum VK {
    F,
    I { below_len: bool, max: i64 },
    Slice,
    M(Shape, bool),
}

#[derive(Clone, Debug)]
struct Var {
    name: String,
    kind: VK,
    mutable: bool,
    bound: f64,
    depth: usize,
    uid: usize,
    param: bool,
    /// An immutable value computed from the inputs (never a compile-time
    /// constant): see [`dynamic`](FnGen::dynamic).
    dynamic: bool,
    /// Initialised from a call to a generated function.
    from_call: bool,
    /// A float loop counter: read anywhere, assigned only by its loop.
    fixed: bool,
    /// How many `if` arms enclose its declaration.
    arms: usize,
}

/// How an assignment changes a variable's bound.
#[derive(Clone, Debug)]
enum Tr {
    Add(f64),
    Affine(f64, f64),
    Scale(f64),
    Set(f64),
    Max(f64),
    Opt(Box<Tr>),
    Repeat(u64, Vec<Tr>),
}

impl Tr {
    fn apply(&self, old: f64) -> f64 {
        match self {
            Tr::Add(b) => old + b,
            Tr::Affine(k, b) => k * old + b,
            Tr::Scale(s) => old * s,
            Tr::Set(b) => *b,
            Tr::Max(b) => old.max(*b),
            Tr::Opt(t) => old.max(t.apply(old)),
            Tr::Repeat(n, ts) => {
                let mut v = old;
                for _ in 0..*n {
                    v = ts.iter().fold(v, |v, t| t.apply(v));
                }
                v
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum LoopKind {
    For,
    While,
}

struct Frame {
    kind: LoopKind,
    trip: u64,
    branch: usize,
    transfers: Vec<(usize, Tr)>,
}

struct FnGen<'r> {
    rng: &'r mut Rng,
    fl: Fl,
    name: String,
    scopes: Vec<Vec<Var>>,
    frames: Vec<Frame>,
    uid: usize,
    locals: usize,
    ints: usize,
    maps: usize,
    callees: Vec<Sig>,
    used: BTreeSet<usize>,
    has_slice: bool,
    matrix: bool,
    closure: bool,
    budget: i32,
    /// About how many ops the function runs so far (see [`MAX_COST`]).
    cost: f64,
    helpers: Vec<(String, E)>,
    features: BTreeSet<&'static str>,
    /// The variable the next loop is to carry (see [`gen_combo`](Self::gen_combo)).
    next_acc: Option<usize>,
    /// Whether the next loop body is a combination's.
    intense: bool,
    /// How many `if` arms enclose the code being generated.
    arms: usize,
    /// Whether a condition is being generated.
    in_cond: bool,
    /// Whether loops may be left from the middle (`break`, `continue`,
    /// an early `return`): see [`generate`].
    exits: bool,
    /// Whether the function returns a matrix (no early `return` of a float).
    returns_matrix: bool,
    /// The bound of the values early `return`s return.
    return_bound: f64,
    /// The class this program is drawn for, if any (`build/classes.rs`).
    class: Option<Class>,
    /// The class's own random stream: the draws of the rest of the
    /// program stay those of the main one.
    cls: Rng,
    /// The `const`/`static` items the body may read.
    consts: Vec<classes::Konst>,
}

impl FnGen<'_> {
    // ---- scopes ----

    fn visible(&self) -> Vec<Var> {
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for scope in self.scopes.iter().rev() {
            for v in scope.iter().rev() {
                if seen.insert(v.name.clone()) {
                    out.push(v.clone());
                }
            }
        }
        out
    }

    fn declare(&mut self, name: &str, kind: VK, mutable: bool, bound: f64) {
        self.uid += 1;
        let var = Var {
            name: name.to_owned(),
            kind,
            mutable,
            bound,
            depth: self.frames.len(),
            uid: self.uid,
            param: false,
            dynamic: false,
            from_call: false,
            fixed: false,
            arms: self.arms,
        };
        self.scopes.last_mut().expect("a scope").push(var);
    }

    fn var_mut(&mut self, uid: usize) -> &mut Var {
        self.scopes
            .iter_mut()
            .flatten()
            .find(|v| v.uid == uid)
            .expect("a declared variable")
    }

    fn new_local(&mut self) -> String {
        self.locals += 1;
        format!("v{}", self.locals - 1)
    }

    fn floats(&self) -> Vec<Var> {
        self.visible()
            .into_iter()
            .filter(|v| v.kind == VK::F)
            .collect()
    }

    /// The float variables an assignment may target.
    fn assignable(&self) -> Vec<Var> {
        self.floats()
            .into_iter()
            .filter(|v| v.mutable && !v.fixed)
            .collect()
    }

    fn int_vars(&self) -> Vec<Var> {
        self.visible()
            .into_iter()
            .filter(|v| matches!(v.kind, VK::I { .. }))
            .collect()
    }

    fn mats(&self) -> Vec<Var> {
        self.visible()
            .into_iter()
            .filter(|v| matches!(v.kind, VK::M(..)))
            .collect()
    }

    /// Whether `e` certainly depends on the inputs at run time.
    ///
    /// `x.powi(n)` for `n` outside {-1, 0, 1, 2} is computed by repeated
    /// products at run time but folded with `pow` by LLVM when `x` is a
    /// compile-time constant (a loop index after unrolling): the two may
    /// differ in the last bit, and the primal and `NAME_grad` may fold
    /// differently, so such a base must depend on an input.
    fn dynamic(&self, e: &E) -> bool {
        match e {
            E::Idx(..) | E::End(..) | E::Sum(_) | E::MaxEl(_) | E::Det(_) => true,
            E::Konst(..) => false,
            E::Var(n) => self
                .visible()
                .iter()
                .any(|v| v.name == *n && v.dynamic && !v.mutable),
            E::Lit(_) | E::Cast(_) => false,
            E::Un(_, _, x) | E::Stop(_, x) | E::Powi(_, x, _) => self.dynamic(x),
            E::Bin(_, a, b) | E::Powf(_, a, b) | E::MaxMin(_, _, a, b) => {
                self.dynamic(a) || self.dynamic(b)
            }
            E::Nary(_, _, xs) => xs.iter().any(|x| self.dynamic(x)),
            E::If(_, t, f) => self.dynamic(&t.tail) && self.dynamic(&f.tail),
            E::Match(_, arms) => arms.iter().all(|(_, b)| self.dynamic(&b.tail)),
            E::Call(_, args) => args.iter().any(|a| match a {
                Arg::F(e) => self.dynamic(e),
                Arg::Slice(_) | Arg::Mat(..) => true,
                Arg::Const(_) | Arg::Int(_) => false,
            }),
        }
    }

    /// An input in scope to make an expression dynamic with.
    fn some_input(&mut self) -> Option<Var> {
        let inputs: Vec<Var> = self
            .floats()
            .into_iter()
            .filter(|v| v.dynamic && !v.mutable)
            .collect();
        (!inputs.is_empty()).then(|| self.rng.pick(&inputs))
    }

    fn carried(&self, v: &Var) -> bool {
        v.mutable && v.depth < self.frames.len()
    }

    /// Records an assignment's effect on `uid`'s bound.
    fn transfer(&mut self, uid: usize, tr: Tr) {
        let depth = self.frames.len();
        let arms = self.arms;
        let var = self.var_mut(uid);
        let (var_depth, var_arms, from_call) = (var.depth, var.arms, var.from_call);
        if from_call && var_depth < depth {
            self.features.insert("call-result-updated-in-loop");
        }
        if from_call && var_arms < arms {
            self.features.insert("call-result-updated-in-branch");
            if var_depth < depth {
                self.features
                    .insert("call-result-updated-in-branch-in-loop");
            }
        }
        if var_depth < depth {
            let frame = self.frames.last_mut().expect("a loop frame");
            let tr = if frame.branch > 0 {
                Tr::Opt(Box::new(tr))
            } else {
                tr
            };
            frame.transfers.push((uid, tr));
        } else {
            let v = self.var_mut(uid);
            v.bound = tr.apply(v.bound);
        }
    }

    fn bounds(&self) -> BTreeMap<usize, f64> {
        self.scopes
            .iter()
            .flatten()
            .map(|v| (v.uid, v.bound))
            .collect()
    }

    fn set_bounds(&mut self, b: &BTreeMap<usize, f64>) {
        for v in self.scopes.iter_mut().flatten() {
            if let Some(&x) = b.get(&v.uid) {
                v.bound = x;
            }
        }
    }

    // ---- scalar expressions ----

    fn style(&mut self, receiver: &E) -> Style {
        if ambiguous(receiver) || self.rng.chance(0.15) {
            Style::Path
        } else {
            Style::Method
        }
    }

    fn un(&mut self, op: Un, e: E) -> E {
        let style = if op.has_path() {
            self.style(&e)
        } else {
            Style::Method
        };
        if style == Style::Method && ambiguous(&e) {
            // `0.5.relu()` has no type: give the literal one.
            let typed = E::Bin(Bin::Add, Box::new(e), Box::new(E::Cast(I::Lit(0))));
            return E::Un(op, Style::Method, Box::new(typed));
        }
        E::Un(op, style, Box::new(e))
    }

    /// A bounded function to squash with. `sin` and `cos` only for
    /// arguments of moderate size: of a large argument they oscillate fast,
    /// which no finite difference resolves.
    fn squash_op_for(&mut self, bound: f64) -> Un {
        if bound <= 4.0 {
            self.rng.pick(&[Un::Tanh, Un::Sin, Un::Cos, Un::Sigmoid])
        } else {
            self.rng.pick(&[Un::Tanh, Un::Sigmoid])
        }
    }

    fn squash_op(&mut self) -> Un {
        self.squash_op_for(f64::INFINITY)
    }

    fn bounded(&mut self, (e, b): (E, f64), cap: f64) -> (E, f64) {
        if b <= cap {
            (e, b)
        } else {
            let op = self.squash_op_for(b);
            self.features.insert("squash");
            (self.un(op, e), 1.0)
        }
    }

    fn literal(&mut self) -> f64 {
        let v = self.rng.pick(&LITS);
        if self.rng.chance(0.3) { -v } else { v }
    }

    fn read(&mut self, v: &Var) -> (E, f64) {
        if self.carried(v) {
            if self.in_cond {
                self.features.insert("carried-condition");
            }
            // The bound inside the loop is not known yet: assume the worst.
            let op = self.squash_op();
            (self.un(op, E::Var(v.name.clone())), 1.0)
        } else {
            (E::Var(v.name.clone()), v.bound)
        }
    }

    fn gen_idx(&mut self) -> I {
        let ints = self.int_vars();
        let below: Vec<Var> = ints
            .iter()
            .filter(|v| {
                matches!(
                    v.kind,
                    VK::I {
                        below_len: true,
                        ..
                    }
                )
            })
            .cloned()
            .collect();
        let len = || Box::new(I::Len("xs".into()));
        // Indices of stencil loops (`for j in 1..xs.len() - 1`).
        let stencil: Vec<Var> = below
            .iter()
            .filter(|v| v.name.starts_with('j'))
            .cloned()
            .collect();
        match self.rng.weighted(&[
            2,
            2,
            if below.is_empty() { 0 } else { 8 },
            if ints.is_empty() { 0 } else { 3 },
            if stencil.is_empty() { 0 } else { 24 },
        ]) {
            0 => I::Lit(self.rng.range(0, 1)),
            1 => I::Sub(len(), Box::new(I::Lit(1))),
            2 => I::Var(self.rng.pick(&below).name),
            4 => {
                self.features.insert("stencil-index");
                let v = Box::new(I::Var(self.rng.pick(&stencil).name));
                let one = Box::new(I::Lit(1));
                match self.rng.below(3) {
                    0 => I::Sub(v, one),
                    1 => *v,
                    _ => I::Add(v, one),
                }
            }
            _ => {
                let v = self.rng.pick(&ints).name;
                let k = self.rng.range(0, 2);
                let base = if k == 0 {
                    I::Var(v)
                } else {
                    I::Add(Box::new(I::Var(v)), Box::new(I::Lit(k)))
                };
                I::Rem(Box::new(base), len())
            }
        }
    }

    fn leaf(&mut self) -> (E, f64) {
        if self.class == Some(Class::Consts)
            && self.cls.chance(0.3)
            && let Some(k) = self.const_leaf()
        {
            return k;
        }
        let floats = self.floats();
        let ints = self.int_vars();
        let slice = self.has_slice && !self.closure;
        match self.rng.weighted(&[
            if floats.is_empty() { 0 } else { 12 },
            2,
            if slice { 5 } else { 0 },
            if ints.is_empty() { 0 } else { 1 },
        ]) {
            0 => {
                let v = self.rng.pick(&floats);
                self.read(&v)
            }
            1 => {
                let v = self.literal();
                (E::Lit(v), v.abs())
            }
            2 if self.rng.chance(0.12) => {
                self.features.insert("first-last");
                let last = self.rng.chance(0.5);
                (E::End("xs".into(), last, self.rng.below(4)), 2.0)
            }
            2 => {
                self.features.insert("slice-index");
                (E::Idx("xs".into(), self.gen_idx()), 2.0)
            }
            _ => {
                let v = self.rng.pick(&ints);
                let VK::I { max, .. } = v.kind else {
                    unreachable!()
                };
                self.features.insert("int-cast");
                (E::Cast(I::Var(v.name)), max as f64)
            }
        }
    }

    /// A positive expression with bounds `lo <= e <= hi`, `lo >= 0.25`.
    fn gen_pos(&mut self, depth: u32) -> (E, f64, f64) {
        let c = self.rng.pick(&[0.25, 0.5, 1.0, 2.0]);
        match self.rng.below(7) {
            0 | 1 => {
                let (e, b) = self.gen_f(depth);
                let (e, b) = self.bounded((e, b), 8.0);
                let sq = E::Bin(Bin::Mul, Box::new(e.clone()), Box::new(e));
                (
                    E::Bin(Bin::Add, Box::new(sq), Box::new(E::Lit(c))),
                    c,
                    b * b + c,
                )
            }
            2 => {
                let (e, b) = self.gen_f(depth);
                let (e, b) = self.bounded((e, b), 1.25);
                (self.un(Un::Exp, e), (-b).exp(), b.exp())
            }
            3 => {
                let (e, _) = self.gen_f(depth);
                let s = self.un(Un::Sigmoid, e);
                (
                    E::Bin(Bin::Add, Box::new(E::Lit(c)), Box::new(s)),
                    c,
                    c + 1.0,
                )
            }
            4 => {
                let (e, b) = self.gen_f(depth);
                let a = self.un(Un::Abs, e);
                (E::Bin(Bin::Add, Box::new(a), Box::new(E::Lit(c))), c, b + c)
            }
            5 => {
                let (e, _) = self.gen_f(depth);
                let k = self.rng.pick(&[1.25, 1.5, 2.0]);
                let t = self.un(Un::Tanh, e);
                (
                    E::Bin(Bin::Add, Box::new(E::Lit(k)), Box::new(t)),
                    k - 1.0,
                    k + 1.0,
                )
            }
            _ => {
                let (e, b) = self.gen_f(depth);
                let (e, b) = self.bounded((e, b), 8.0);
                let st = self.style(&e);
                let p = E::Powi(st, Box::new(e), 2);
                (
                    E::Bin(Bin::Add, Box::new(p), Box::new(E::Lit(c))),
                    c,
                    b * b + c,
                )
            }
        }
    }

    fn gen_f(&mut self, depth: u32) -> (E, f64) {
        let r = self.gen_f_raw(depth);
        self.bounded(r, self.cap())
    }

    fn cap(&self) -> f64 {
        if self.fl == Fl::F32 { CAP / 4.0 } else { CAP }
    }

    /// How many times the code being generated runs per call.
    fn trips(&self) -> f64 {
        self.frames.iter().map(|f| f.trip as f64).product()
    }

    fn gen_f_raw(&mut self, depth: u32) -> (E, f64) {
        self.cost += self.trips();
        if depth == 0 || self.rng.chance(0.2) {
            return self.leaf();
        }
        let d = depth - 1;
        let callable = self.callable();
        let matrix = self.matrix && !self.closure && !self.mats().is_empty();
        let k = self.rng.weighted(&[
            14, // add/sub
            10, // mul
            6,  // div
            3,  // neg
            4,  // exp
            4,  // ln
            3,  // sqrt
            8,  // sin/cos
            4,  // tanh
            3,  // sigmoid
            3,  // abs
            3,  // relu
            4,  // powi
            4,  // powf
            5,  // max/min
            2,  // stop_gradient
            if depth >= 2 && !self.closure { 3 } else { 0 },
            12, // the other functions of the rule table
            match (callable, self.frames.is_empty() && self.arms == 0) {
                (false, _) => 0,
                (true, true) => 5,
                // Calls inside loops and branch arms: the shapes whose
                // adjoint bookkeeping is the most intricate.
                (true, false) => 10,
            },
            if matrix { 8 } else { 0 },
        ]);
        match k {
            0 => {
                let (a, ba) = self.gen_f(d);
                let (b, bb) = self.gen_f(d);
                let op = if self.rng.chance(0.6) {
                    Bin::Add
                } else {
                    Bin::Sub
                };
                (E::Bin(op, Box::new(a), Box::new(b)), ba + bb)
            }
            1 => {
                let (a, ba) = self.gen_f(d);
                let (b, bb) = self.gen_f(d);
                (E::Bin(Bin::Mul, Box::new(a), Box::new(b)), ba * bb)
            }
            2 => {
                self.features.insert("div");
                let (a, ba) = self.gen_f(d);
                let (p, lo, _) = self.gen_pos(d);
                (E::Bin(Bin::Div, Box::new(a), Box::new(p)), ba / lo)
            }
            3 => {
                let (a, ba) = self.gen_f(d);
                (E::Un(Un::Neg, Style::Method, Box::new(a)), ba)
            }
            4 => {
                self.features.insert("exp");
                let (a, ba) = self.gen_f(d);
                let (a, ba) = self.bounded((a, ba), 3.0);
                (self.un(Un::Exp, a), ba.exp())
            }
            5 => {
                self.features.insert("ln");
                let (p, lo, hi) = self.gen_pos(d);
                (self.un(Un::Ln, p), lo.ln().abs().max(hi.ln().abs()))
            }
            6 => {
                self.features.insert("sqrt");
                let (p, _, hi) = self.gen_pos(d);
                (self.un(Un::Sqrt, p), hi.sqrt())
            }
            7 => {
                let g = self.gen_f(d);
                let (a, _) = self.bounded(g, 8.0);
                let op = if self.rng.chance(0.5) {
                    Un::Sin
                } else {
                    Un::Cos
                };
                (self.un(op, a), 1.0)
            }
            8 => {
                let (a, _) = self.gen_f(d);
                (self.un(Un::Tanh, a), 1.0)
            }
            9 => {
                self.features.insert("sigmoid");
                let (a, _) = self.gen_f(d);
                (self.un(Un::Sigmoid, a), 1.0)
            }
            10 => {
                self.features.insert("abs");
                let (a, ba) = self.gen_f(d);
                (self.un(Un::Abs, a), ba)
            }
            11 => {
                self.features.insert("relu");
                let (a, ba) = self.gen_f(d);
                (self.un(Un::Relu, a), ba)
            }
            12 => {
                self.features.insert("powi");
                let mut n = self.rng.pick(&[-3, -2, -1, 0, 1, 2, 2, 3, 3, 4]);
                // See `dynamic`: powers with more than one rounding need a
                // base that is not a compile-time constant.
                let input = if matches!(n, -1..=2) {
                    None
                } else {
                    let v = self.some_input();
                    if v.is_none() {
                        n = if n < 0 { -1 } else { 2 };
                    }
                    v
                };
                if n < 0 {
                    let (mut p, mut lo, _) = self.gen_pos(d);
                    if let Some(v) = input.filter(|_| !self.dynamic(&p)) {
                        // (x² + lo) · (1 + v²): positive, at least lo.
                        let v2 = E::Bin(
                            Bin::Mul,
                            Box::new(E::Var(v.name.clone())),
                            Box::new(E::Var(v.name)),
                        );
                        let f = E::Bin(Bin::Add, Box::new(E::Lit(1.0)), Box::new(v2));
                        p = E::Bin(Bin::Mul, Box::new(p), Box::new(f));
                        lo = lo.max(0.25);
                    }
                    let st = self.style(&p);
                    (E::Powi(st, Box::new(p), n), lo.powi(n))
                } else {
                    let (mut a, mut ba) = self.gen_f(d);
                    if let Some(v) = input.filter(|_| !self.dynamic(&a)) {
                        a = E::Bin(Bin::Add, Box::new(a), Box::new(E::Var(v.name)));
                        ba += v.bound;
                    }
                    let cap = if n == 0 {
                        self.cap()
                    } else {
                        self.cap().powf(1.0 / n as f64)
                    };
                    let (a, ba) = self.bounded((a, ba), cap);
                    let st = self.style(&a);
                    (E::Powi(st, Box::new(a), n), ba.powi(n).max(1.0))
                }
            }
            13 => {
                self.features.insert("powf");
                let (mut p, mut lo, mut hi) = self.gen_pos(d);
                if hi > 16.0 {
                    let (e, _) = self.gen_f(d);
                    let s = self.un(Un::Sigmoid, e);
                    p = E::Bin(Bin::Add, Box::new(E::Lit(0.5)), Box::new(s));
                    (lo, hi) = (0.5, 1.5);
                }
                let (q, bq) = if self.rng.chance(0.5) {
                    let q = self.rng.pick(&[0.5, 1.5, 2.5, -0.5, 0.75, -1.25, 3.0]);
                    (E::Lit(q), f64::abs(q))
                } else {
                    let g = self.gen_f(d);
                    self.bounded(g, 1.5)
                };
                let st = self.style(&p);
                let bound = hi.powf(bq).max(lo.powf(-bq));
                (E::Powf(st, Box::new(p), Box::new(q)), bound)
            }
            14 => {
                let max = self.rng.chance(0.5);
                self.features.insert(if max { "max" } else { "min" });
                let (a, ba) = self.gen_f(d);
                let (b, bb) = self.gen_f(d);
                let (b, bb) = untie(&a, b, bb);
                let st = self.style(&a);
                (E::MaxMin(max, st, Box::new(a), Box::new(b)), ba.max(bb))
            }
            15 => {
                self.features.insert("stop-gradient");
                let (a, ba) = self.gen_f(d);
                let path = self.rng.pick(&[
                    StopPath::Imported,
                    StopPath::Imported,
                    StopPath::Qualified,
                    StopPath::Qualified,
                    StopPath::Absolute,
                    StopPath::Renamed,
                ]);
                self.features.insert(match path {
                    StopPath::Imported => "stop-gradient-imported",
                    StopPath::Qualified => "stop-gradient-qualified",
                    StopPath::Absolute => "stop-gradient-absolute-path",
                    StopPath::Renamed => "stop-gradient-renamed-crate",
                });
                (E::Stop(path, Box::new(a)), ba)
            }
            16 => self.gen_if_expr(d),
            17 => self.gen_elementary(d),
            18 => self.gen_call(d),
            _ => {
                let shapes = self.reach();
                let shape = self.rng.pick(&shapes.keys().copied().collect::<Vec<_>>());
                let (m, b) = self.gen_m(shape, d.min(2));
                if self.rng.chance(0.7) {
                    self.features.insert("matrix-sum");
                    (E::Sum(Box::new(m)), b * (shape.r * shape.c) as f64)
                } else {
                    self.features.insert("matrix-max");
                    (E::MaxEl(Box::new(m)), b)
                }
            }
        }
    }

    /// One of the rule table's other float functions, its arguments kept
    /// inside its domain and away from its poles (`asin` of `0.9 · tanh`,
    /// `acosh` of `1.25 + p`, `ln_1p` of `p - 0.5`, ...). The jumps of
    /// `signum floor ceil round trunc fract` and the ties of `clamp` are
    /// left in: the test skips finite differences that straddle them, and
    /// checks the conventions there (see `fuzz_programs::check`).
    fn gen_elementary(&mut self, d: u32) -> (E, f64) {
        let ops = [
            Un::Exp2,
            Un::ExpM1,
            Un::Ln1p,
            Un::Log2,
            Un::Log10,
            Un::Cbrt,
            Un::Recip,
            Un::Tan,
            Un::Asin,
            Un::Acos,
            Un::Atan,
            Un::Sinh,
            Un::Cosh,
            Un::Asinh,
            Un::Acosh,
            Un::Atanh,
            Un::Signum,
            Un::Floor,
            Un::Ceil,
            Un::Round,
            Un::Trunc,
            Un::Fract,
        ];
        let narys = [
            Nary::Log,
            Nary::Atan2,
            Nary::Hypot,
            Nary::Clamp,
            Nary::MulAdd,
        ];
        let k = self.rng.below(ops.len() + narys.len());
        if k >= ops.len() {
            return self.gen_nary(narys[k - ops.len()], d);
        }
        let op = ops[k];
        self.features.insert(match op {
            Un::Exp2 => "fn-exp2",
            Un::ExpM1 => "fn-exp_m1",
            Un::Ln1p => "fn-ln_1p",
            Un::Log2 => "fn-log2",
            Un::Log10 => "fn-log10",
            Un::Cbrt => "fn-cbrt",
            Un::Recip => "fn-recip",
            Un::Tan => "fn-tan",
            Un::Asin => "fn-asin",
            Un::Acos => "fn-acos",
            Un::Atan => "fn-atan",
            Un::Sinh => "fn-sinh",
            Un::Cosh => "fn-cosh",
            Un::Asinh => "fn-asinh",
            Un::Acosh => "fn-acosh",
            Un::Atanh => "fn-atanh",
            Un::Signum => "fn-signum",
            Un::Floor => "fn-floor",
            Un::Ceil => "fn-ceil",
            Un::Round => "fn-round",
            Un::Trunc => "fn-trunc",
            _ => "fn-fract",
        });
        let scaled = |k: f64, e: E| E::Bin(Bin::Mul, Box::new(E::Lit(k)), Box::new(e));
        let plus = |e: E, k: f64| E::Bin(Bin::Add, Box::new(e), Box::new(E::Lit(k)));
        match op {
            Un::Exp2 | Un::ExpM1 | Un::Sinh | Un::Cosh => {
                let g = self.gen_f(d);
                let (a, ba) = self.bounded(g, 3.0);
                let b = if op == Un::Exp2 { ba.exp2() } else { ba.exp() };
                (self.un(op, a), b)
            }
            Un::Tan => {
                let g = self.gen_f(d);
                let (a, _) = self.bounded(g, 1.0);
                let a = if self.rng.chance(0.5) {
                    a
                } else {
                    scaled(1.2, self.un(Un::Tanh, a))
                };
                (self.un(op, a), 1.2f64.tan())
            }
            Un::Atan
            | Un::Asinh
            | Un::Signum
            | Un::Floor
            | Un::Ceil
            | Un::Round
            | Un::Trunc
            | Un::Fract => {
                let (a, ba) = self.gen_f(d);
                let b = match op {
                    Un::Atan => 1.6,
                    Un::Asinh => ba.asinh(),
                    Un::Signum | Un::Fract => 1.0,
                    _ => ba + 1.0,
                };
                (self.un(op, a), b)
            }
            Un::Ln1p => {
                // ln_1p(p - 0.5) with p ≥ 0.25: the argument is at least -0.25.
                let (p, _, hi) = self.gen_pos(d);
                let arg = plus(p, -0.5);
                (self.un(op, arg), (0.75f64.ln()).abs().max(hi.ln_1p()))
            }
            Un::Log2 | Un::Log10 => {
                let (p, lo, hi) = self.gen_pos(d);
                (self.un(op, p), lo.log2().abs().max(hi.log2().abs()))
            }
            Un::Cbrt | Un::Recip => {
                // Away from the pole and the infinite slope at 0, both signs.
                let (p, lo, hi) = self.gen_pos(d);
                let p = if self.rng.chance(0.5) {
                    p
                } else {
                    E::Un(Un::Neg, Style::Method, Box::new(p))
                };
                let b = if op == Un::Cbrt { hi.cbrt() } else { 1.0 / lo };
                (self.un(op, p), b)
            }
            Un::Asin | Un::Acos | Un::Atanh => {
                let (a, _) = self.gen_f(d);
                let k = if op == Un::Atanh { 0.75 } else { 0.9 };
                let sq = if self.rng.chance(0.5) {
                    Un::Tanh
                } else {
                    Un::Sin
                };
                let arg = scaled(k, self.un(sq, a));
                (self.un(op, arg), 1.6)
            }
            Un::Acosh => {
                // acosh(1 + p) with p ≥ 0.25: away from the infinite slope at 1.
                let (p, _, hi) = self.gen_pos(d);
                let arg = E::Bin(Bin::Add, Box::new(E::Lit(1.0)), Box::new(p));
                (self.un(op, arg), (1.0 + hi).acosh())
            }
            _ => unreachable!("not one of the table's other functions"),
        }
    }

    fn gen_nary(&mut self, f: Nary, d: u32) -> (E, f64) {
        self.features.insert(match f {
            Nary::Log => "fn-log",
            Nary::Atan2 => "fn-atan2",
            Nary::Hypot => "fn-hypot",
            Nary::Clamp => "fn-clamp",
            Nary::MulAdd => "fn-mul_add",
        });
        let (args, b) = match f {
            Nary::Log => {
                let (p, lo, hi) = self.gen_pos(d);
                // A base in [1.5, 2.5] or a literal one, never 1.
                let (base, blo) = if self.rng.chance(0.5) {
                    let b = self.rng.pick(&[2.0, 10.0, 0.5, 3.0]);
                    (E::Lit(b), b)
                } else {
                    let (e, _) = self.gen_f(d);
                    let s = self.un(Un::Sigmoid, e);
                    (E::Bin(Bin::Add, Box::new(E::Lit(1.5)), Box::new(s)), 1.5)
                };
                let lnb = f64::ln(blo).abs().min(0.4f64.ln().abs());
                (vec![p, base], lo.ln().abs().max(hi.ln().abs()) / lnb)
            }
            Nary::Atan2 => {
                let (y, _) = self.gen_f(d);
                let (x, _) = self.gen_f(d);
                (vec![y, x], std::f64::consts::PI)
            }
            Nary::Hypot => {
                let (a, ba) = self.gen_f(d);
                let (b, bb) = self.gen_f(d);
                (vec![a, b], ba + bb)
            }
            Nary::MulAdd => {
                let (a, ba) = self.gen_f(d);
                let g = self.gen_f(d);
                let (b, bb) = self.bounded(g, 8.0);
                let (c, bc) = self.gen_f(d);
                (vec![a, b, c], ba * bb + bc)
            }
            Nary::Clamp => {
                // lo ≤ 0 ≤ hi, as `clamp` requires (it panics otherwise):
                // literals, where a point drawn at kinks puts `x` on a bound
                // (the convention gives the whole gradient to `x`), or
                // `tanh(l) - 1.5` and `1.5 · sigmoid(h)`.
                let (x, bx) = self.gen_f(d);
                let lo = if self.rng.chance(0.5) {
                    E::Lit(self.rng.pick(&[-1.5, -1.0, -0.5, 0.0]))
                } else {
                    let (l, _) = self.gen_f(d);
                    let t = self.un(Un::Tanh, l);
                    E::Bin(Bin::Sub, Box::new(t), Box::new(E::Lit(1.5)))
                };
                let hi = if self.rng.chance(0.5) {
                    E::Lit(self.rng.pick(&[0.0, 0.5, 1.0, 1.5]))
                } else {
                    let (h, _) = self.gen_f(d);
                    let s = self.un(Un::Sigmoid, h);
                    E::Bin(Bin::Mul, Box::new(E::Lit(1.5)), Box::new(s))
                };
                (vec![x, lo, hi], bx.min(2.5))
            }
        };
        // An untyped literal receiver takes the path form (see `style`).
        let style = self.style(&args[0]);
        (E::Nary(f, style, args), b)
    }

    fn gen_if_expr(&mut self, d: u32) -> (E, f64) {
        if self.exits && self.rng.chance(0.3) {
            return self.gen_match(d);
        }
        self.features.insert("if-expr");
        let c = self.gen_cond(1);
        let (t, bt) = self.gen_value_block(d);
        let (f, bf) = if self.rng.chance(0.25) {
            self.features.insert("else-if");
            let (e, b) = self.gen_if_expr(d);
            (
                Blk {
                    stmts: Vec::new(),
                    tail: e,
                },
                b,
            )
        } else {
            self.gen_value_block(d)
        };
        (E::If(Box::new(c), Box::new(t), Box::new(f)), bt.max(bf))
    }

    /// `match` on an integer variable (or the slice's length): up to three
    /// arms of a guarded binding, literals, `|` and ranges, then `_`.
    fn gen_match(&mut self, d: u32) -> (E, f64) {
        self.features.insert("match");
        let ints = self.int_vars();
        let scrutinee = if !ints.is_empty() && self.rng.chance(0.8) {
            I::Var(self.rng.pick(&ints).name)
        } else if self.has_slice {
            I::Len("xs".into())
        } else {
            I::Lit(self.rng.range(0, 3))
        };
        // Disjoint (rustc warns of an arm no value reaches), in order.
        let patterns = ["kk if kk % 2 == 1", "0", "1 | 2", "3..=5"];
        let mut arms = Vec::new();
        let mut bound: f64 = 0.0;
        for pat in patterns {
            if arms.len() == 3 || !self.rng.chance(0.6) {
                continue;
            }
            if pat.starts_with("kk") {
                self.features.insert("match-guard");
            }
            let (b, bb) = self.gen_value_block(d);
            bound = bound.max(bb);
            arms.push((pat.to_string(), b));
        }
        let (b, bb) = self.gen_value_block(d);
        arms.push(("_".to_string(), b));
        (E::Match(scrutinee, arms), bound.max(bb))
    }

    fn gen_value_block(&mut self, d: u32) -> (Blk, f64) {
        self.scopes.push(Vec::new());
        let mut stmts = Vec::new();
        if self.rng.chance(0.3) {
            self.gen_let(d, &mut stmts);
        }
        let (tail, b) = self.gen_f(d);
        self.scopes.pop();
        (Blk { stmts, tail }, b)
    }

    /// The callees that can be called here and return `ret` (`None`: a
    /// scalar).
    fn compatible_callees(&self, ret: Option<Shape>) -> Vec<usize> {
        let mats = self.mats();
        self.callees
            .iter()
            .enumerate()
            .filter(|(_, s)| s.fl == self.fl && s.ret == ret)
            .filter(|(_, s)| self.cost + self.trips() * s.cost <= MAX_COST)
            .filter(|(_, s)| {
                s.params.iter().all(|p| match p {
                    Param::Slice(..) => self.has_slice,
                    Param::Mat(_, shape, _) => mats
                        .iter()
                        .any(|v| matches!(v.kind, VK::M(s, _) if s == *shape) && v.bound <= 1.5),
                    _ => true,
                })
            })
            .map(|(i, _)| i)
            .collect()
    }

    fn callable(&self) -> bool {
        !self.closure && !self.compatible_callees(None).is_empty()
    }

    /// One of `options` (indices into the callees), its arguments, and the
    /// bookkeeping of a call to it; `None` when no argument can be made.
    fn gen_call_to(&mut self, options: &[usize], d: u32) -> Option<(Sig, Vec<Arg>)> {
        // Prefer recent functions: they are the larger ones.
        let i = options[options.len() - 1 - self.rng.below(options.len().min(40))];
        let sig = self.callees[i].clone();
        let mut args = Vec::new();
        for p in &sig.params {
            args.push(match p {
                Param::Scalar(_) => {
                    // A constant argument would make the callee's inputs
                    // compile-time constants once inlined (see `dynamic`).
                    let (mut e, mut b) = self.gen_f(d);
                    if !self.dynamic(&e) {
                        let v = self.some_input()?;
                        e = E::Bin(Bin::Add, Box::new(e), Box::new(E::Var(v.name)));
                        b += v.bound;
                    }
                    Arg::F(self.bounded((e, b), 2.0).0)
                }
                Param::Slice(..) => Arg::Slice("xs".into()),
                Param::Const(_) => Arg::Const(self.rng.pick(&[0.5, -1.5, 1.25, 2.0, -0.25])),
                Param::N(_, n) => Arg::Int(self.rng.range(1, *n)),
                Param::Mat(_, shape, by_ref) => {
                    let vars: Vec<Var> = self
                        .mats()
                        .into_iter()
                        .filter(|v| matches!(v.kind, VK::M(s, _) if s == *shape) && v.bound <= 1.5)
                        .collect();
                    if vars.is_empty() {
                        return None;
                    }
                    let v = self.rng.pick(&vars);
                    let VK::M(_, owned) = v.kind else {
                        unreachable!()
                    };
                    Arg::Mat(v.name, !owned, !by_ref)
                }
            });
        }
        self.used.insert(sig.index);
        self.features.insert("call");
        if !self.frames.is_empty() {
            self.features.insert("call-in-loop");
        }
        if self.arms > 0 {
            self.features.insert("call-in-branch");
        }
        self.cost += self.trips() * sig.cost;
        Some((sig, args))
    }

    /// A call to a generated function returning a scalar (there must be
    /// one: see [`callable`](Self::callable)).
    fn gen_call(&mut self, d: u32) -> (E, f64) {
        let options = self.compatible_callees(None);
        let Some((sig, args)) = self.gen_call_to(&options, d) else {
            return self.leaf();
        };
        // The callee's bound holds for arguments of magnitude <= 2; matrix
        // arguments here may be larger, so squash the result.
        let call = E::Call(sig.name.clone(), args);
        if sig.matrix {
            let op = self.squash_op();
            (self.un(op, call), 1.0)
        } else {
            (call, sig.bound)
        }
    }

    // ---- conditions ----

    fn gen_cond(&mut self, depth: u32) -> C {
        let outer = std::mem::replace(&mut self.in_cond, true);
        let c = self.gen_cond_inner(depth);
        self.in_cond = outer;
        c
    }

    /// The variables carried by the enclosing loops, those initialised
    /// from a call first when there are any.
    fn carried_floats(&self) -> Vec<Var> {
        let carried: Vec<Var> = self
            .floats()
            .into_iter()
            .filter(|v| self.carried(v))
            .collect();
        let from_call: Vec<Var> = carried.iter().filter(|v| v.from_call).cloned().collect();
        if from_call.is_empty() {
            carried
        } else {
            from_call
        }
    }

    fn gen_cond_inner(&mut self, depth: u32) -> C {
        let carried = self.carried_floats();
        if !carried.is_empty() && self.rng.chance(0.45) {
            // A decision on a loop-carried value: `if y.tanh() < 0.5`.
            let v = self.rng.pick(&carried);
            let (a, _) = self.read(&v);
            let op = self.rng.pick(&[Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge]);
            let b = if self.rng.chance(0.6) {
                E::Lit(self.rng.pick(&[0.0, 0.25, -0.25, 0.5]))
            } else {
                self.gen_f(1).0
            };
            let (b, _) = untie(&a, b, 0.0);
            return C::F(op, a, b);
        }
        let ints = self.int_vars();
        let consts: Vec<Var> = self
            .floats()
            .into_iter()
            .filter(|v| v.param && v.name.starts_with('k'))
            .collect();
        match self.rng.weighted(&[
            8,
            if ints.is_empty() { 0 } else { 3 },
            if depth > 0 { 2 } else { 0 },
            if depth > 0 { 1 } else { 0 },
            if consts.is_empty() { 0 } else { 2 },
        ]) {
            0 => {
                // An `if` expression inside the condition (depth-limited:
                // its own condition has none).
                let (a, _) = if depth > 0 && !self.closure && self.rng.chance(0.15) {
                    self.features.insert("if-in-condition");
                    self.gen_if_expr(0)
                } else {
                    self.gen_f(1)
                };
                let b = if self.rng.chance(0.5) {
                    E::Lit(self.literal())
                } else {
                    self.gen_f(1).0
                };
                let op = self.rng.pick(&[Cmp::Lt, Cmp::Le, Cmp::Gt, Cmp::Ge]);
                let (b, _) = untie(&a, b, 0.0);
                C::F(op, a, b)
            }
            1 => {
                self.features.insert("int-condition");
                let v = I::Var(self.rng.pick(&ints).name);
                match self.rng.below(3) {
                    0 => C::I(Cmp::Eq, I::Rem(Box::new(v), Box::new(I::Lit(2))), I::Lit(0)),
                    1 => C::I(
                        self.rng.pick(&[Cmp::Lt, Cmp::Ge, Cmp::Ne]),
                        v,
                        I::Lit(self.rng.range(1, 2)),
                    ),
                    _ => C::I(Cmp::Gt, I::Add(Box::new(v), Box::new(I::Lit(1))), I::Lit(2)),
                }
            }
            2 => {
                self.features.insert("and-or");
                let a = self.gen_cond(0);
                let b = self.gen_cond(0);
                if self.rng.chance(0.5) {
                    C::And(Box::new(a), Box::new(b))
                } else {
                    C::Or(Box::new(a), Box::new(b))
                }
            }
            3 => {
                self.features.insert("not");
                C::Not(Box::new(self.gen_cond(0)))
            }
            _ => {
                self.features.insert("constant-condition");
                let k = self.rng.pick(&consts);
                C::F(
                    self.rng.pick(&[Cmp::Lt, Cmp::Gt]),
                    E::Var(k.name),
                    E::Lit(self.rng.pick(&[0.0, 0.5, -0.5])),
                )
            }
        }
    }

    // ---- statements ----

    fn gen_let(&mut self, d: u32, out: &mut Vec<S>) {
        if self.rng.chance(0.08) {
            return self.gen_sin_cos(d, out);
        }
        let (e, b) = self.gen_f(d);
        let mutable = self.rng.chance(0.35);
        // Not a float counter: its loop would advance the shadow.
        let floats: Vec<Var> = self.floats().into_iter().filter(|v| !v.fixed).collect();
        let name = if !floats.is_empty() && self.rng.chance(0.2) {
            self.features.insert("shadowing");
            self.rng.pick(&floats).name
        } else {
            self.new_local()
        };
        let typed = ambiguous(&e) || self.rng.chance(0.15);
        if mutable {
            self.features.insert("let-mut");
        }
        let dynamic = self.dynamic(&e);
        self.declare(&name, VK::F, mutable, b);
        let v = self.scopes.last_mut().expect("a scope");
        v.last_mut().expect("declared").dynamic = dynamic;
        out.push(S::Let {
            name,
            mutable,
            typed,
            init: e,
        });
    }

    /// `let (s, c) = e.sin_cos();`, now and then with `_` for one of them.
    fn gen_sin_cos(&mut self, d: u32, out: &mut Vec<S>) {
        self.features.insert("fn-sin_cos");
        let g = self.gen_f(d);
        let (arg, _) = self.bounded(g, 8.0);
        let style = self.style(&arg);
        let dynamic = self.dynamic(&arg);
        let wild = self.rng.below(5);
        let name = |fg: &mut Self, wild: bool| {
            (!wild).then(|| {
                let n = fg.new_local();
                fg.declare(&n, VK::F, false, 1.0);
                let v = fg.scopes.last_mut().expect("a scope");
                v.last_mut().expect("declared").dynamic = dynamic;
                n
            })
        };
        let sin = name(self, wild == 0);
        let cos = name(self, wild == 1);
        out.push(S::SinCos {
            sin,
            cos,
            style,
            arg,
        });
    }

    /// An assignment to `target`, one of the forms whose effect on the
    /// bound is known.
    fn gen_assign(&mut self, target: &Var, out: &mut Vec<S>) {
        let name = target.name.clone();
        let var = || Box::new(E::Var(target.name.clone()));
        let (s, tr) = match self.rng.below(9) {
            0 => {
                self.features.insert("assign");
                let (e, b) = self.gen_f(2);
                (S::Assign(name, e), Tr::Set(b))
            }
            1 | 2 => {
                self.features.insert("compound-add");
                let (e, b) = self.gen_f(2);
                let op = if self.rng.chance(0.6) {
                    Bin::Add
                } else {
                    Bin::Sub
                };
                (S::Compound(name, op, e), Tr::Add(b))
            }
            3 => {
                self.features.insert("compound-mul");
                let g = self.gen_f(2);
                let (e, b) = self.bounded(g, 1.25);
                (S::Compound(name, Bin::Mul, e), Tr::Scale(b))
            }
            4 => {
                self.features.insert("compound-div");
                let (e, _) = self.gen_f(1);
                let c = self.rng.pick(&[1.0, 1.5, 2.0]);
                let sq = E::Bin(Bin::Mul, Box::new(e.clone()), Box::new(e));
                let p = E::Bin(Bin::Add, Box::new(E::Lit(c)), Box::new(sq));
                (S::Compound(name, Bin::Div, p), Tr::Scale(1.0 / c))
            }
            5 => {
                let (e, b) = self.gen_f(2);
                let k = self.rng.pick(&[0.5, -0.5, 0.25, 0.75]);
                let scaled = E::Bin(Bin::Mul, var(), Box::new(E::Lit(k)));
                (
                    S::Assign(name, E::Bin(Bin::Add, Box::new(scaled), Box::new(e))),
                    Tr::Affine(f64::abs(k), b),
                )
            }
            6 => {
                let op = if self.rng.chance(0.5) {
                    Bin::Add
                } else {
                    Bin::Mul
                };
                // A factor of at most 1 keeps `v = (v * e).cos()` from
                // being an expanding map (whose derivative would grow like
                // |e|^iterations).
                let g = self.gen_f(2);
                let (e, _) = self.bounded(g, if op == Bin::Mul { 1.0 } else { self.cap() });
                let inner = E::Bin(op, var(), Box::new(e));
                let sq = self.squash_op();
                (S::Assign(name, self.un(sq, inner)), Tr::Set(1.0))
            }
            7 => {
                let (e, b) = self.gen_f(2);
                let max = self.rng.chance(0.5);
                self.features.insert(if max { "max" } else { "min" });
                let st = self.style(&E::Var(target.name.clone()));
                (
                    S::Assign(name, E::MaxMin(max, st, var(), Box::new(e))),
                    Tr::Max(b),
                )
            }
            _ => {
                self.features.insert("compound-add");
                let (e, b) = self.gen_f(1);
                (S::Compound(name, Bin::Add, e), Tr::Add(b))
            }
        };
        self.transfer(target.uid, tr);
        out.push(s);
    }

    /// A mutable float variable to accumulate into: the one a combination
    /// asked for, an existing one (a call's result preferably), or a fresh
    /// `let mut`.
    fn accumulator(&mut self, out: &mut Vec<S>) -> Var {
        let muts = self.assignable();
        if let Some(uid) = self.next_acc.take()
            && let Some(v) = muts.iter().find(|v| v.uid == uid)
        {
            return v.clone();
        }
        let from_call: Vec<Var> = muts.iter().filter(|v| v.from_call).cloned().collect();
        if !from_call.is_empty() && self.rng.chance(0.6) {
            return self.rng.pick(&from_call);
        }
        if !muts.is_empty() && self.rng.chance(0.5) {
            return self.rng.pick(&muts);
        }
        let name = self.new_local();
        let (init, b) = if self.rng.chance(0.5) {
            let v = self.rng.pick(&[0.0, 1.0, 0.5]);
            (E::Lit(v), v)
        } else {
            self.gen_f(2)
        };
        let typed = ambiguous(&init) || self.rng.chance(0.2);
        self.declare(&name, VK::F, true, b);
        let name_copy = name.clone();
        out.push(S::Let {
            name,
            mutable: true,
            typed,
            init,
        });
        self.features.insert("let-mut");
        self.floats()
            .into_iter()
            .find(|v| v.name == name_copy)
            .expect("just declared")
    }

    fn gen_stmts(&mut self, n: usize, depth: u32, out: &mut Vec<S>) {
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.gen_stmt(depth, out);
        }
    }

    fn gen_stmt(&mut self, depth: u32, out: &mut Vec<S>) {
        self.budget -= 1;
        let muts = self.assignable();
        let nested = depth > 0 && self.budget > 0;
        let in_loop = !self.frames.is_empty();
        let can_loop = nested && self.frames.len() < 2;
        let k = self.rng.weighted(&[
            8,
            if muts.is_empty() { 0 } else { 6 },
            if nested { 3 } else { 0 },
            if can_loop { 4 } else { 0 },
            // `while` inside `for` as often as `for` inside `for`.
            match (can_loop, in_loop) {
                (false, _) => 0,
                (true, false) => 3,
                (true, true) => 4,
            },
            if self.matrix { 5 } else { 0 },
            if self.matrix && nested && self.frames.len() < 2 {
                5
            } else {
                0
            },
            if self.callable() { 4 } else { 0 },
            if can_loop { 4 } else { 0 },
            // An early `return` outside loops (`if c { return e; }`, or in
            // a `let`'s `if`).
            if self.exits && !in_loop && !self.returns_matrix {
                1
            } else {
                0
            },
        ]);
        let start = out.len();
        match k {
            0 => self.gen_let(2, out),
            1 => {
                let t = self.rng.pick(&muts);
                self.gen_assign(&t, out);
            }
            2 => self.gen_if_stmt(depth - 1, out),
            3 => self.gen_for(depth - 1, out),
            4 => self.gen_while(depth - 1, out),
            5 => self.gen_let_m(out),
            6 => self.gen_matrix_loop(out),
            7 => {
                self.gen_call_let(out);
            }
            8 => self.gen_combo(depth - 1, out),
            _ => self.gen_loop_exit(out),
        }
        self.gen_cfg(start, &muts, out);
    }

    /// `#[cfg]` on statements: the last statement just generated, compiled
    /// in under `#[cfg(not(any()))]` (its names then exist in one
    /// configuration only, as far as the macro can tell), and now and then
    /// a statement compiled out under `#[cfg(any())]` that would ruin the
    /// result if the sweeps ran it.
    fn gen_cfg(&mut self, start: usize, muts: &[Var], out: &mut Vec<S>) {
        // A `let` with an attribute is not rewritten, so its `if` may not
        // exit (README: one error at the exit).
        if out.len() > start
            && self.rng.chance(0.06)
            && !matches!(out.last(), Some(S::LetExit { .. }))
        {
            self.features.insert("cfg-compiled-in");
            if let Some(last) = out.pop() {
                out.push(S::Cfg(true, Box::new(last)));
            }
        }
        if !muts.is_empty() && self.rng.chance(0.04) {
            self.features.insert("cfg-compiled-out");
            let v = self.rng.pick(muts);
            out.push(S::Cfg(false, Box::new(S::Assign(v.name, E::Lit(1e300)))));
        }
    }

    /// `let [mut] v = f(..);`: a variable initialised from a call to a
    /// generated function (there must be one: see
    /// [`callable`](Self::callable)). Returns its uid when it is mutable.
    fn gen_call_let(&mut self, out: &mut Vec<S>) -> Option<usize> {
        let g = self.gen_call(1);
        let (init, b) = self.bounded(g, self.cap());
        let from_call = is_call(&init);
        let mutable = self.rng.chance(0.75);
        if from_call {
            self.features.insert("call-init");
            if mutable {
                self.features.insert("call-init-mut");
            }
        }
        let name = self.new_local();
        let typed = ambiguous(&init) || self.rng.chance(0.15);
        let dynamic = self.dynamic(&init);
        self.declare(&name, VK::F, mutable, b);
        let v = self.scopes.last_mut().expect("a scope");
        let v = v.last_mut().expect("declared");
        v.dynamic = dynamic;
        v.from_call = from_call;
        let uid = v.uid;
        out.push(S::Let {
            name,
            mutable,
            typed,
            init,
        });
        mutable.then_some(uid)
    }

    /// The shapes that hide bugs, on purpose: a call's result (or a plain
    /// value) carried through a loop next to a plain float, updated in
    /// branches (one-armed, with an empty arm) whose conditions read the
    /// carried values, with calls in the arms and loops nested either way.
    fn gen_combo(&mut self, depth: u32, out: &mut Vec<S>) {
        self.features.insert("combination");
        let carried = if self.callable() && self.rng.chance(0.85) {
            self.gen_call_let(out)
        } else {
            None
        };
        let carried = match carried {
            Some(uid) => uid,
            None => {
                let (init, b) = self.gen_f(2);
                let name = self.new_local();
                let typed = ambiguous(&init) || self.rng.chance(0.15);
                self.declare(&name, VK::F, true, b);
                out.push(S::Let {
                    name,
                    mutable: true,
                    typed,
                    init,
                });
                self.uid
            }
        };
        // A plain float beside it, for the loop to carry too.
        let name = self.new_local();
        let v = self.rng.pick(&[0.0, 0.5, 1.0]);
        self.declare(&name, VK::F, true, v);
        out.push(S::Let {
            name,
            mutable: true,
            typed: true,
            init: E::Lit(v),
        });
        self.next_acc = Some(carried);
        self.intense = true;
        if self.rng.chance(0.5) {
            self.gen_while(depth, out);
        } else {
            self.gen_for(depth, out);
        }
        self.next_acc = None;
        self.intense = false;
    }

    /// The statements of an `if` arm (`allow_empty`: possibly none).
    fn branch(&mut self, n: usize, depth: u32, allow_empty: bool) -> Vec<S> {
        self.scopes.push(Vec::new());
        self.arms += 1;
        let mut body = Vec::new();
        // Each branch does something to an outer variable most of the
        // time, to one carried by the enclosing loop preferably.
        let muts = self.assignable();
        if !muts.is_empty() && self.rng.chance(0.7) {
            let carried: Vec<Var> = muts.iter().filter(|v| self.carried(v)).cloned().collect();
            let t = if !carried.is_empty() && self.rng.chance(0.7) {
                self.rng.pick(&carried)
            } else {
                self.rng.pick(&muts)
            };
            self.gen_assign(&t, &mut body);
        }
        self.gen_stmts(n, depth, &mut body);
        if body.is_empty() && !allow_empty {
            self.gen_let(1, &mut body);
        }
        self.arms -= 1;
        self.scopes.pop();
        body
    }

    fn gen_if_stmt(&mut self, depth: u32, out: &mut Vec<S>) {
        self.features.insert("if");
        let c = self.gen_cond(1);
        if let Some(f) = self.frames.last_mut() {
            f.branch += 1;
        }
        // Two arms, one arm, an empty `then`, an empty `else`, `else if`.
        let form = self.rng.weighted(&[36, 30, 12, 10, 12]);
        let before = self.bounds();
        let n = self.rng.below(2);
        let t = if form == 2 {
            self.features.insert("empty-arm");
            Vec::new()
        } else {
            self.branch(n, depth, false)
        };
        let after_then = self.bounds();
        self.set_bounds(&before);
        let f = match form {
            1 => {
                self.features.insert("one-armed-if");
                None
            }
            3 => {
                self.features.insert("empty-arm");
                Some(Vec::new())
            }
            4 => {
                self.features.insert("else-if");
                let mut inner = Vec::new();
                self.arms += 1;
                self.gen_if_stmt(depth, &mut inner);
                self.arms -= 1;
                Some(inner)
            }
            _ => {
                let n = self.rng.below(2);
                Some(self.branch(n, depth, false))
            }
        };
        let after_else = self.bounds();
        let merged: BTreeMap<usize, f64> = after_else
            .iter()
            .map(|(&k, &v)| (k, v.max(after_then.get(&k).copied().unwrap_or(v))))
            .collect();
        self.set_bounds(&merged);
        if let Some(f) = self.frames.last_mut() {
            f.branch -= 1;
        }
        out.push(S::If(c, t, f));
    }

    fn begin_loop(&mut self, trip: u64, kind: LoopKind) {
        if let Some(outer) = self.frames.last() {
            self.features.insert("nested-loop");
            self.features.insert(match (kind, outer.kind) {
                (LoopKind::For, LoopKind::For) => "for-in-for",
                (LoopKind::For, LoopKind::While) => "for-in-while",
                (LoopKind::While, LoopKind::For) => "while-in-for",
                (LoopKind::While, LoopKind::While) => "while-in-while",
            });
        }
        self.frames.push(Frame {
            trip,
            branch: 0,
            transfers: Vec::new(),
            kind,
        });
    }

    fn end_loop(&mut self) {
        let frame = self.frames.pop().expect("a loop frame");
        let mut per_var: BTreeMap<usize, Vec<Tr>> = BTreeMap::new();
        for (uid, tr) in frame.transfers {
            per_var.entry(uid).or_default().push(tr);
        }
        let from_call: Vec<bool> = per_var
            .keys()
            .map(|&uid| self.var_mut(uid).from_call)
            .collect();
        if from_call.contains(&true) && from_call.contains(&false) {
            self.features.insert("loop-carries-call-and-float");
        }
        for (uid, trs) in per_var {
            self.transfer(uid, Tr::Repeat(frame.trip, trs));
        }
    }

    /// The body of a loop: an update of `acc`, plus a few statements; often
    /// a branch on a carried value and an update of a second carried
    /// variable (more often in a [combination](Self::gen_combo)).
    fn loop_body(&mut self, acc: &Var, depth: u32) -> Vec<S> {
        let intense = std::mem::take(&mut self.intense);
        let mut body = Vec::new();
        let n = self.rng.below(3);
        let first = self.rng.chance(0.5);
        // An exit from the middle of the body ends the loop after any
        // prefix of its iterations: every update is then optional for the
        // bounds, as in a branch.
        let exits = self.exits && self.rng.chance(if intense { 0.35 } else { 0.2 });
        if exits {
            self.frames.last_mut().expect("a loop frame").branch += 1;
        }
        let mut exit = exits;
        if first {
            self.gen_assign(acc, &mut body);
        }
        if exit && self.rng.chance(0.5) {
            self.gen_loop_exit(&mut body);
            exit = false;
        }
        if self.rng.chance(if intense { 0.85 } else { 0.3 }) {
            self.gen_if_stmt(depth, &mut body);
        }
        self.gen_stmts(n, depth, &mut body);
        if exit {
            self.gen_loop_exit(&mut body);
        }
        // A second carried variable, of the other kind than `acc` (a call's
        // result, a plain float) when there is one.
        if self.rng.chance(if intense { 0.8 } else { 0.3 }) {
            let others: Vec<Var> = self
                .assignable()
                .into_iter()
                .filter(|v| v.uid != acc.uid && self.carried(v))
                .collect();
            let contrast: Vec<Var> = others
                .iter()
                .filter(|v| v.from_call != acc.from_call)
                .cloned()
                .collect();
            let pool = if contrast.is_empty() {
                others
            } else {
                contrast
            };
            if !pool.is_empty() {
                let v = self.rng.pick(&pool);
                self.gen_assign(&v, &mut body);
            }
        }
        if !first || self.rng.chance(0.3) {
            // `acc` may have been shadowed by a `let` in the body; look it
            // up by uid.
            let acc = self
                .scopes
                .iter()
                .flatten()
                .find(|v| v.uid == acc.uid)
                .cloned()
                .expect("the accumulator");
            if self.floats().iter().any(|v| v.uid == acc.uid) {
                self.gen_assign(&acc, &mut body);
            }
        }
        if exits {
            self.frames.last_mut().expect("a loop frame").branch -= 1;
        }
        body
    }

    /// `if c { [update]; break; }`, or `continue` (in a `for`: a `while`'s
    /// counter advances at the end of its body), or an early `return`.
    fn gen_loop_exit(&mut self, out: &mut Vec<S>) {
        let in_for = self.frames.last().map(|f| f.kind) == Some(LoopKind::For);
        let in_loop = !self.frames.is_empty();
        let k = self.rng.weighted(&[
            if in_loop { 5 } else { 0 },
            if in_for { 4 } else { 0 },
            if self.returns_matrix { 0 } else { 2 },
        ]);
        let c = self.gen_cond(1);
        self.arms += 1;
        self.scopes.push(Vec::new());
        let mut arm = Vec::new();
        let carried: Vec<Var> = self
            .assignable()
            .into_iter()
            .filter(|v| self.carried(v))
            .collect();
        if !carried.is_empty() && self.rng.chance(0.5) {
            let t = self.rng.pick(&carried);
            self.gen_assign(&t, &mut arm);
        }
        match k {
            0 => {
                self.features.insert("break");
                arm.push(S::Break);
            }
            1 => {
                self.features.insert("continue");
                arm.push(S::Continue);
            }
            _ => {
                self.features.insert("early-return");
                let (e, b) = self.gen_f(2);
                self.return_bound = self.return_bound.max(b);
                arm.push(S::Return(e));
            }
        }
        self.scopes.pop();
        self.arms -= 1;
        if arm.len() == 1 && self.rng.chance(0.4) {
            // The same exit in one arm of a `let`'s `if`, the other arm the
            // value: `let v = if c { a } else { break };`.
            self.features.insert("let-if-exit");
            let exit = Box::new(arm.pop().expect("the exit"));
            let (value, b) = self.gen_f(2);
            let name = self.new_local();
            let typed = ambiguous(&value) || self.rng.chance(0.15);
            let exit_first = self.rng.chance(0.5);
            let cond = if exit_first { c } else { C::Not(Box::new(c)) };
            let dynamic = self.dynamic(&value);
            self.declare(&name, VK::F, false, b);
            let v = self.scopes.last_mut().expect("a scope");
            v.last_mut().expect("declared").dynamic = dynamic;
            out.push(S::LetExit {
                name,
                typed,
                cond,
                exit_first,
                value,
                exit,
            });
            return;
        }
        out.push(S::If(c, arm, None));
    }

    fn gen_for(&mut self, depth: u32, out: &mut Vec<S>) {
        self.features.insert("for");
        let acc = self.accumulator(out);
        let ints = self.int_vars();
        let n_param = ints.iter().find(|v| v.name == "n").cloned();
        let outer = ints.iter().find(|v| v.name.starts_with('i')).cloned();
        let k = self.rng.weighted(&[
            4,
            2,
            if self.has_slice { 4 } else { 0 },
            if self.has_slice { 1 } else { 0 },
            if n_param.is_some() { 2 } else { 0 },
            if outer.is_some() { 2 } else { 0 },
            if self.has_slice { 3 } else { 0 },
        ]);
        let len = || I::Len("xs".into());
        let (lo, hi, incl, trip, max, below_len) = match k {
            0 => {
                let n = self.rng.range(2, 4);
                (I::Lit(0), I::Lit(n), false, n as u64, n - 1, false)
            }
            1 => {
                let n = self.rng.range(1, 3);
                (I::Lit(1), I::Lit(n), true, n as u64, n, false)
            }
            2 => (I::Lit(0), len(), false, 4, 3, true),
            3 => (I::Lit(1), len(), false, 3, 3, true),
            4 => {
                self.features.insert("int-argument");
                let VK::I { max, .. } = n_param.as_ref().expect("n").kind else {
                    unreachable!()
                };
                (I::Lit(0), I::Var("n".into()), false, max as u64, max, false)
            }
            6 => {
                // A stencil loop: its index reads `xs[i - 1]`, `xs[i]` and
                // `xs[i + 1]` (see `gen_idx`); with two elements it never runs.
                self.features.insert("stencil-loop");
                let hi = I::Sub(Box::new(len()), Box::new(I::Lit(1)));
                (I::Lit(1), hi, false, 2, 2, true)
            }
            _ => {
                self.features.insert("triangular-loop");
                let o = outer.expect("an outer index");
                (I::Var(o.name), I::Lit(4), false, 4, 3, false)
            }
        };
        let rev = self.rng.chance(0.3);
        if rev {
            self.features.insert("rev");
        }
        if incl {
            self.features.insert("inclusive-range");
        }
        // `j`, not `k`: the constant argument is `k0`, and a float local
        // shadowing it must not be shadowed again by a loop index whose body
        // then assigns the float (finding 020).
        let var = if k == 6 {
            self.ints += 1;
            Some(format!("j{}", self.ints - 1))
        } else if self.rng.chance(0.85) {
            self.ints += 1;
            Some(format!("i{}", self.ints - 1))
        } else {
            None
        };
        self.begin_loop(trip, LoopKind::For);
        self.scopes.push(Vec::new());
        if let Some(v) = &var {
            self.declare(v, VK::I { below_len, max }, false, 0.0);
        }
        let body = self.loop_body(&acc, depth);
        self.scopes.pop();
        self.end_loop();
        out.push(S::For {
            var,
            lo,
            hi,
            incl,
            rev,
            body,
        });
    }

    fn gen_while(&mut self, depth: u32, out: &mut Vec<S>) {
        self.features.insert("while");
        let acc = self.accumulator(out);
        let (trip, guard, advance) = self.while_counter(out);
        self.begin_loop(trip, LoopKind::While);
        let cond = if self.rng.chance(0.5) {
            self.features.insert("while-float-condition");
            let c = self.gen_cond(0);
            C::And(Box::new(guard), Box::new(c))
        } else {
            guard
        };
        self.scopes.push(Vec::new());
        let mut body = self.loop_body(&acc, depth);
        body.push(advance);
        self.scopes.pop();
        self.end_loop();
        if self.exits && self.rng.chance(0.3) {
            // The same loop as `loop` with its condition an exit.
            self.features.insert("loop");
            let exit = S::If(C::Not(Box::new(cond)), vec![S::Break], None);
            body.insert(0, exit);
            out.push(S::Loop(body));
        } else {
            out.push(S::While(cond, body));
        }
    }

    /// Declares the counter of a `while` (before the loop): an integer
    /// `c < limit`, or a float `t < 0.625` stepped by a literal (its value
    /// does not depend on the inputs, so the trip count is fixed). Returns
    /// the trip count, the guard and the statement that advances the
    /// counter, to end the body with.
    fn while_counter(&mut self, out: &mut Vec<S>) -> (u64, C, S) {
        if self.rng.chance(0.3) {
            self.features.insert("float-counter-while");
            let step = self.rng.pick(&[0.25, 0.5]);
            let trip = self.rng.range(2, 4) as u64;
            // Half a step past the last value the body sees: no tie.
            let limit = step * (trip as f64 - 0.5);
            let name = self.new_local();
            out.push(S::Let {
                name: name.clone(),
                mutable: true,
                typed: true,
                init: E::Lit(0.0),
            });
            self.declare(&name, VK::F, true, step * trip as f64);
            let v = self.scopes.last_mut().expect("a scope");
            v.last_mut().expect("declared").fixed = true;
            let guard = C::F(Cmp::Lt, E::Var(name.clone()), E::Lit(limit));
            return (trip, guard, S::Compound(name, Bin::Add, E::Lit(step)));
        }
        self.ints += 1;
        let counter = format!("c{}", self.ints - 1);
        out.push(S::LetI(counter.clone()));
        let (limit, trip) = if self.has_slice && self.rng.chance(0.3) {
            (I::Len("xs".into()), 4)
        } else {
            let n = self.rng.range(2, 4);
            (I::Lit(n), n as u64)
        };
        self.declare(
            &counter,
            VK::I {
                below_len: false,
                max: trip as i64,
            },
            true,
            0.0,
        );
        let guard = C::I(Cmp::Lt, I::Var(counter.clone()), limit);
        (trip, guard, S::IncI(counter))
    }

    // ---- matrices ----

    /// Shapes that can be built, with how many products deep.
    fn reach(&self) -> BTreeMap<Shape, u32> {
        let mut reach = BTreeMap::new();
        for v in self.mats() {
            let VK::M(s, _) = v.kind else { unreachable!() };
            reach.insert(s, 0);
            if let Some(t) = s.t() {
                reach.entry(t).or_insert(0);
            }
        }
        for level in 1..=2 {
            let known: Vec<Shape> = reach.keys().copied().collect();
            for &a in &known {
                for &b in &known {
                    if a.vec || a.c != b.r {
                        continue;
                    }
                    let s = Shape {
                        r: a.r,
                        c: b.c,
                        vec: b.vec,
                    };
                    reach.entry(s).or_insert(level);
                }
            }
        }
        reach
    }

    fn gen_m(&mut self, target: Shape, depth: u32) -> (M, f64) {
        self.cost += self.trips() * (target.r * target.c * 3) as f64;
        let reach = self.reach();
        let level = reach[&target];
        let leaves: Vec<Var> = self
            .mats()
            .into_iter()
            .filter(|v| matches!(v.kind, VK::M(s, _) if s == target))
            .collect();
        let transposable: Vec<Var> = self
            .mats()
            .into_iter()
            .filter(|v| matches!(v.kind, VK::M(s, _) if s.t() == Some(target)))
            .collect();
        let products: Vec<(Shape, Shape)> = reach
            .iter()
            .filter(|(a, la)| !a.vec && a.r == target.r && (level == 0 || **la < level))
            .filter_map(|(&a, _)| {
                let b = Shape {
                    r: a.c,
                    c: target.c,
                    vec: target.vec,
                };
                let lb = *reach.get(&b)?;
                (level == 0 || lb < level).then_some((a, b))
            })
            .collect();
        let can_leaf = !leaves.is_empty();
        let can_t = !transposable.is_empty();
        let can_mul = !products.is_empty() && (level > 0 || depth > 0);
        let deeper = depth > 0;
        let can_call = deeper && !self.closure && !self.compatible_callees(Some(target)).is_empty();
        let k = self.rng.weighted(&[
            if can_leaf { 6 } else { 0 },
            if can_t { 3 } else { 0 },
            if can_mul { 6 } else { 0 },
            if deeper { 4 } else { 0 }, // add/sub
            if deeper { 2 } else { 0 }, // component_mul
            if deeper { 1 } else { 0 }, // component_div
            if deeper { 3 } else { 0 }, // scale
            if deeper { 3 } else { 0 }, // map
            if deeper { 2 } else { 0 }, // relu/sigmoid/neg
            if can_call { 4 } else { 0 },
            if deeper && target.r * target.c <= 6 {
                2
            } else {
                0
            }, // from elements
        ]);
        let d = depth.saturating_sub(1);
        let leaf = |v: Var| {
            let VK::M(_, owned) = v.kind else {
                unreachable!()
            };
            (M::Var(v.name, owned), v.bound)
        };
        let r = match k {
            0 => leaf(self.rng.pick(&leaves)),
            1 => {
                self.features.insert("transpose");
                let (m, b) = leaf(self.rng.pick(&transposable));
                (M::T(Box::new(m)), b)
            }
            2 => {
                self.features.insert("matmul");
                let (a, b) = self.rng.pick(&products);
                let (ma, ba) = self.gen_m(a, d);
                let (mb, bb) = self.gen_m(b, d);
                (M::MatMul(Box::new(ma), Box::new(mb)), a.c as f64 * ba * bb)
            }
            3 => {
                let (a, ba) = self.gen_m(target, d);
                let (b, bb) = self.gen_m(target, d);
                if self.rng.chance(0.6) {
                    (M::Add(Box::new(a), Box::new(b)), ba + bb)
                } else {
                    (M::Sub(Box::new(a), Box::new(b)), ba + bb)
                }
            }
            4 => {
                self.features.insert("component-mul");
                let (a, ba) = self.gen_m(target, d);
                let (b, bb) = self.gen_m(target, d);
                (M::CMul(Box::new(a), Box::new(b)), ba * bb)
            }
            5 => {
                self.features.insert("component-div");
                let (a, ba) = self.gen_m(target, d);
                let (b, _) = self.gen_m(target, d);
                let c = self.rng.pick(&[0.5, 1.0]);
                self.maps += 1;
                let helper = format!("mirror_{}_map{}", self.name, self.maps);
                let body = E::Bin(
                    Bin::Add,
                    Box::new(E::Lit(c)),
                    Box::new(E::Bin(
                        Bin::Mul,
                        Box::new(E::Var("t".into())),
                        Box::new(E::Var("t".into())),
                    )),
                );
                self.helpers.push((helper.clone(), body.clone()));
                let pos = M::MapClos(Box::new(b), helper, body);
                (M::CDiv(Box::new(a), Box::new(pos)), ba / c)
            }
            6 => {
                self.features.insert("scale");
                let (a, ba) = self.gen_m(target, d);
                let untyped = self.untyped_m(&a);
                let (s, bs) = self.scale_factor(untyped);
                match self.rng.below(3) {
                    0 => (M::ScaleL(s, Box::new(a)), ba * bs),
                    1 => (M::ScaleR(Box::new(a), s), ba * bs),
                    _ => {
                        if untyped {
                            self.features.insert("untyped-matrix-scaled");
                        }
                        let (p, lo, _) = self.gen_pos(0);
                        let p = if ambiguous(&p) {
                            E::Bin(Bin::Add, Box::new(p), Box::new(E::Cast(I::Lit(0))))
                        } else {
                            p
                        };
                        (M::DivS(Box::new(a), p), ba / lo)
                    }
                }
            }
            7 => {
                self.features.insert("map");
                let (a, ba) = self.gen_m(target, d);
                if self.rng.chance(0.3) {
                    let op = if ba <= 3.0 {
                        self.rng
                            .pick(&[Un::Exp, Un::Sin, Un::Cos, Un::Tanh, Un::Abs])
                    } else {
                        self.rng.pick(&[Un::Sin, Un::Cos, Un::Tanh])
                    };
                    let b = if op == Un::Exp {
                        ba.exp()
                    } else if op == Un::Abs {
                        ba
                    } else {
                        1.0
                    };
                    (M::MapPath(Box::new(a), op), b)
                } else {
                    let (body, b) = self.gen_closure(ba);
                    self.maps += 1;
                    let helper = format!("mirror_{}_map{}", self.name, self.maps);
                    self.helpers.push((helper.clone(), body.clone()));
                    (M::MapClos(Box::new(a), helper, body), b)
                }
            }
            9 => match self.gen_m_call(target, d) {
                Some(r) => return r,
                None => self.gen_m(target, d),
            },
            10 => {
                self.features.insert("matrix-from-elements");
                let mut elems = Vec::new();
                let mut bound: f64 = 0.0;
                for _ in 0..target.r * target.c {
                    let (e, b) = self.gen_f(d);
                    // A typed element: literals alone would leave the
                    // matrix of an ambiguous `{float}`.
                    let e = if ambiguous(&e) {
                        E::Bin(Bin::Add, Box::new(e), Box::new(E::Cast(I::Lit(0))))
                    } else {
                        e
                    };
                    elems.push(e);
                    bound = bound.max(b);
                }
                let build = match (target.vec, self.rng.chance(0.5)) {
                    (true, _) => Build::Vector,
                    (false, true) => Build::Rows,
                    (false, false) => Build::Columns,
                };
                (M::FromElems(target.r, target.c, build, elems), bound)
            }
            _ => {
                let (a, ba) = self.gen_m(target, d);
                match self.rng.below(3) {
                    0 => {
                        self.features.insert("matrix-relu");
                        (M::Relu(Box::new(a)), ba)
                    }
                    1 => {
                        self.features.insert("matrix-sigmoid");
                        (M::Sigmoid(Box::new(a)), 1.0)
                    }
                    _ => (M::Neg(Box::new(a)), ba),
                }
            }
        };
        self.bounded_m(r, self.cap())
    }

    fn bounded_m(&mut self, (m, b): (M, f64), cap: f64) -> (M, f64) {
        if b <= cap {
            (m, b)
        } else {
            // Not `sin`/`cos` of large values: see `squash_op_for`.
            let op = Un::Tanh;
            (M::MapPath(Box::new(m), op), 1.0)
        }
    }

    /// The body of `m.map(|t| ...)`: scalar code over `t` alone.
    fn gen_closure(&mut self, elem_bound: f64) -> (E, f64) {
        let scopes = std::mem::take(&mut self.scopes);
        let frames = std::mem::take(&mut self.frames);
        self.closure = true;
        self.scopes.push(Vec::new());
        self.declare("t", VK::F, false, elem_bound);
        self.scopes[0][0].dynamic = true;
        let (mut e, mut b) = self.gen_f(2);
        if !mentions(&e, "t") {
            e = E::Bin(Bin::Add, Box::new(E::Var("t".into())), Box::new(e));
            b += elem_bound;
        }
        let (e, b) = self.bounded((e, b), self.cap());
        self.closure = false;
        self.scopes = scopes;
        self.frames = frames;
        (e, b)
    }

    /// A call to a generated function returning a `target` matrix, when
    /// one can be called here.
    fn gen_m_call(&mut self, target: Shape, d: u32) -> Option<(M, f64)> {
        if self.closure {
            return None;
        }
        let options = self.compatible_callees(Some(target));
        if options.is_empty() {
            return None;
        }
        let (sig, args) = self.gen_call_to(&options, d)?;
        self.features.insert("matrix-call");
        Some(self.bounded_m((M::Call(sig.name, args), sig.bound), self.cap()))
    }

    /// Whether the macro may not see `m`'s type: it holds a call's result
    /// (see `findings/001-matrix-call-times-scalar-call.rs`).
    fn untyped_m(&self, m: &M) -> bool {
        match m {
            M::Call(..) => true,
            M::FromElems(..) => false,
            M::Var(n, _) => self.visible().iter().any(|v| v.name == *n && v.from_call),
            M::MatMul(a, b) | M::Add(a, b) | M::Sub(a, b) | M::CMul(a, b) | M::CDiv(a, b) => {
                self.untyped_m(a) || self.untyped_m(b)
            }
            M::T(a)
            | M::ScaleL(_, a)
            | M::ScaleR(a, _)
            | M::DivS(a, _)
            | M::MapClos(a, ..)
            | M::MapPath(a, _)
            | M::Relu(a)
            | M::Sigmoid(a)
            | M::Neg(a) => self.untyped_m(a),
        }
    }

    /// The scalar of `s * m` / `m * s`: any scalar expression, typed when
    /// it is a bare literal.
    fn scale_factor(&mut self, untyped: bool) -> (E, f64) {
        // A matrix of a type the macro cannot see (a call's result) times a
        // scalar of any kind, a call's result included (finding 001).
        if untyped {
            self.features.insert("untyped-matrix-scaled");
        }
        let (s, bs) = self.gen_f(1);
        if ambiguous(&s) {
            // `0.5 * m` would leave the scalar's type to inference.
            (
                E::Bin(Bin::Mul, Box::new(s), Box::new(E::Cast(I::Lit(1)))),
                bs,
            )
        } else {
            (s, bs)
        }
    }

    /// The shapes some callee returns, among those reachable here.
    fn call_shapes(&self) -> Vec<Shape> {
        let reach = self.reach();
        let mut shapes: Vec<Shape> = self
            .callees
            .iter()
            .filter_map(|s| s.ret)
            .filter(|s| reach.contains_key(s))
            .collect();
        shapes.sort();
        shapes.dedup();
        shapes
            .into_iter()
            .filter(|&s| !self.compatible_callees(Some(s)).is_empty())
            .collect()
    }

    fn gen_let_m(&mut self, out: &mut Vec<S>) {
        let call_shapes = self.call_shapes();
        let from_call = if !call_shapes.is_empty() && self.rng.chance(0.7) {
            let target = self.rng.pick(&call_shapes);
            self.gen_m_call(target, 1).map(|r| (target, r))
        } else {
            None
        };
        let (target, (m, b)) = match from_call {
            Some(r) => {
                self.features.insert("matrix-call-init");
                r
            }
            None => {
                let shapes: Vec<Shape> = self.reach().keys().copied().collect();
                let target = self.rng.pick(&shapes);
                (target, self.gen_m(target, 2))
            }
        };
        let name = self.new_local();
        let untyped = self.untyped_m(&m);
        self.declare(&name, VK::M(target, true), false, b);
        self.scopes
            .last_mut()
            .expect("a scope")
            .last_mut()
            .expect("declared")
            .from_call = untyped;
        self.features.insert("matrix-let");
        out.push(S::LetM {
            name,
            mutable: false,
            init: m,
        });
    }

    /// `let mut h = ..; for _ in 0..T { h = (.. h ..).map(squash); }`: a
    /// matrix carried through a loop (`for` or `while`, the update maybe
    /// in a one-armed `if`), initialised from a call when one returns the
    /// shape. Every assignment to `h` is squashed, so `h`'s bound is
    /// max(initial, 1) throughout.
    fn gen_matrix_loop(&mut self, out: &mut Vec<S>) {
        self.features.insert("matrix-loop");
        let shapes: Vec<Shape> = self.reach().keys().copied().collect();
        let call_shapes = self.call_shapes();
        let call = if !call_shapes.is_empty() && self.rng.chance(0.7) {
            let shape = self.rng.pick(&call_shapes);
            self.gen_m_call(shape, 1).map(|r| (shape, r))
        } else {
            None
        };
        let (shape, (init, b)) = match call {
            Some(r) => {
                self.features.insert("matrix-call-carried");
                r
            }
            None => {
                let shape = self.rng.pick(&shapes);
                (shape, self.gen_m(shape, 1))
            }
        };
        let name = self.new_local();
        let untyped = self.untyped_m(&init);
        self.declare(&name, VK::M(shape, true), true, b.max(1.0));
        self.scopes
            .last_mut()
            .expect("a scope")
            .last_mut()
            .expect("declared")
            .from_call = untyped;
        out.push(S::LetM {
            name: name.clone(),
            mutable: true,
            init,
        });
        let acc = self.accumulator(out);
        let kind = if self.rng.chance(0.5) {
            self.features.insert("matrix-while");
            LoopKind::While
        } else {
            LoopKind::For
        };
        let (trip, guard, advance) = match kind {
            LoopKind::While => {
                let (trip, guard, advance) = self.while_counter(out);
                (trip, Some(guard), Some(advance))
            }
            LoopKind::For => (self.rng.range(2, 3) as u64, None, None),
        };
        self.begin_loop(trip, kind);
        let guard = guard.map(|g| {
            if self.rng.chance(0.4) {
                self.features.insert("while-float-condition");
                let c = self.gen_cond(0);
                C::And(Box::new(g), Box::new(c))
            } else {
                g
            }
        });
        self.scopes.push(Vec::new());
        let (m, b) = self.gen_m(shape, 2);
        let op = if b <= 4.0 {
            self.rng.pick(&[Un::Tanh, Un::Sin])
        } else {
            Un::Tanh
        };
        let update = S::AssignM(name, M::MapPath(Box::new(m), op));
        let mut body = if self.rng.chance(0.35) {
            self.features.insert("matrix-update-in-branch");
            let c = self.gen_cond(1);
            if let Some(f) = self.frames.last_mut() {
                f.branch += 1;
            }
            self.arms += 1;
            let mut arm = vec![update];
            if self.rng.chance(0.5) {
                self.gen_assign(&acc, &mut arm);
            }
            self.arms -= 1;
            if let Some(f) = self.frames.last_mut() {
                f.branch -= 1;
            }
            vec![S::If(c, arm, None)]
        } else {
            vec![update]
        };
        if self.rng.chance(0.7) {
            self.gen_assign(&acc, &mut body);
        }
        self.scopes.pop();
        self.end_loop();
        match (guard, advance) {
            (Some(guard), Some(advance)) => {
                body.push(advance);
                out.push(S::While(guard, body));
            }
            _ => out.push(S::For {
                var: None,
                lo: I::Lit(0),
                hi: I::Lit(trip as i64),
                incl: false,
                rev: false,
                body,
            }),
        }
    }

    // ---- the tail ----

    /// The result of a function returning a `shape` matrix: a matrix
    /// expression plus a term scaled by the top-level locals, so their
    /// adjoints matter.
    fn gen_matrix_tail(&mut self, shape: Shape) -> (M, f64) {
        let (mut m, mut b) = self.gen_m(shape, 2);
        let locals: Vec<Var> = self
            .floats()
            .into_iter()
            .filter(|v| !v.param && self.rng.chance(0.7))
            .collect();
        let mut scale: Option<(E, f64)> = None;
        for v in locals {
            let x = self.bounded((E::Var(v.name.clone()), v.bound), self.cap());
            scale = Some(match scale {
                None => x,
                Some((e, be)) => (E::Bin(Bin::Add, Box::new(e), Box::new(x.0)), be + x.1),
            });
        }
        let (leaf, bl) = self.gen_m(shape, 0);
        // Not a matrix of unknown type times locals of unknown type (finding 001).
        if let Some(s) = scale.filter(|_| !self.untyped_m(&leaf)) {
            let (s, bs) = self.bounded(s, self.cap());
            m = M::Add(Box::new(m), Box::new(M::ScaleR(Box::new(leaf), s)));
            b += bl * bs;
        }
        self.bounded_m((m, b), self.cap())
    }

    fn gen_tail(&mut self) -> (E, f64) {
        let (mut e, mut b) = self.gen_f(3);
        // Feed most top-level locals into the result, so their adjoints
        // matter.
        let locals: Vec<Var> = self
            .floats()
            .into_iter()
            .filter(|v| !v.param && self.rng.chance(0.7))
            .collect();
        for v in locals {
            let (x, bx) = self.bounded((E::Var(v.name.clone()), v.bound), self.cap());
            let op = if self.rng.chance(0.7) {
                Bin::Add
            } else {
                Bin::Sub
            };
            e = E::Bin(op, Box::new(e), Box::new(x));
            b += bx;
        }
        (e, b)
    }
}

/// Whether `e` is a call, maybe squashed.
fn is_call(e: &E) -> bool {
    match e {
        E::Call(..) => true,
        E::Un(_, _, x) => is_call(x),
        _ => false,
    }
}

/// The variables `e` reads, split into those read inside a
/// `stop_gradient` and those read outside one.
fn reads(e: &E, stopped: bool, inside: &mut BTreeSet<String>, outside: &mut BTreeSet<String>) {
    let mut go = |x: &E, st: bool| reads(x, st, inside, outside);
    match e {
        E::Var(n) => {
            if stopped {
                inside.insert(n.clone());
            } else {
                outside.insert(n.clone());
            }
        }
        E::Stop(_, x) => go(x, true),
        E::Un(_, _, x) | E::Powi(_, x, _) => go(x, stopped),
        E::Bin(_, x, y) | E::Powf(_, x, y) | E::MaxMin(_, _, x, y) => {
            go(x, stopped);
            go(y, stopped);
        }
        E::Nary(_, _, xs) => {
            for x in xs {
                go(x, stopped);
            }
        }
        E::If(_, t, f) => {
            go(&t.tail, stopped);
            go(&f.tail, stopped);
        }
        E::Match(_, arms) => {
            for (_, b) in arms {
                go(&b.tail, stopped);
            }
        }
        E::Call(_, args) => {
            for a in args {
                if let Arg::F(x) = a {
                    go(x, stopped);
                }
            }
        }
        E::Lit(_)
        | E::Idx(..)
        | E::End(..)
        | E::Cast(_)
        | E::Sum(_)
        | E::MaxEl(_)
        | E::Konst(..)
        | E::Det(_) => {}
    }
}

/// `b`, or `b + 0.5` when `a` and `b` read a variable one inside a
/// `stop_gradient` and the other outside: `stop_gradient(v).min(v.abs())`
/// is a tie at every point, which finite differences (with the stopped copy
/// frozen) always straddle.
fn untie(a: &E, b: E, bb: f64) -> (E, f64) {
    let (mut a_in, mut a_out, mut b_in, mut b_out) = Default::default();
    reads(a, false, &mut a_in, &mut a_out);
    reads(&b, false, &mut b_in, &mut b_out);
    let shared = |x: &BTreeSet<String>, y: &BTreeSet<String>| x.intersection(y).next().is_some();
    if shared(&a_in, &b_out) || shared(&b_in, &a_out) {
        (
            E::Bin(Bin::Add, Box::new(b), Box::new(E::Lit(0.5))),
            bb + 0.5,
        )
    } else {
        (b, bb)
    }
}

fn mirror_param_ty(p: &Param) -> String {
    match p {
        Param::Scalar(n) | Param::Const(n) => format!("{n}: V"),
        Param::Slice(n, _) => format!("{n}: &[V]"),
        Param::N(n, _) => format!("{n}: usize"),
        Param::Mat(n, ..) => format!("{n}: &Mat"),
    }
}

/// A function's result expression.
enum Tail {
    F(E),
    M(M),
}

/// Everything written for one generated function.
struct Program {
    sig: Sig,
    source: String,
    code: String,
    features: Vec<&'static str>,
}

fn gen_program(
    index: usize,
    rng: &mut Rng,
    prev: &[Sig],
    exits: bool,
    class: Option<(Class, Rng)>,
) -> Program {
    let (class, mut cls) = match class {
        Some((c, r)) => (Some(c), r),
        None => (None, Rng::new(0)),
    };
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    let kind = rng.weighted(&[60, 12, if index >= 5 { 28 } else { 0 }]);
    // The classes that need a kind of program take it.
    let kind = match class {
        Some(Class::SingularDet) => 2,
        Some(Class::NonFinite | Class::SignedZeros) if kind == 2 => 0,
        _ => kind,
    };
    let fl = if kind == 1 { Fl::F32 } else { Fl::F64 };
    let matrix = kind == 2;
    let ty = fl.ty();

    // Parameters.
    let mut params = Vec::new();
    let n_scalars = if matrix {
        rng.range(0, 1)
    } else {
        rng.range(1, 3)
    };
    for i in 0..n_scalars {
        params.push(Param::Scalar(format!("a{i}")));
    }
    if matrix {
        let by_ref = |rng: &mut Rng| rng.chance(0.7);
        let r = rng.range(1, 3) as usize;
        let c = rng.range(2, 3) as usize;
        let (r, c) = if class == Some(Class::SingularDet) {
            let n = cls.range(1, 5) as usize;
            (n, n)
        } else {
            (r, c)
        };
        let s0 = Shape { r, c, vec: false };
        params.push(Param::Mat("m0".into(), s0, by_ref(rng)));
        let s1 = if rng.chance(0.7) {
            s0.t().expect("a matrix")
        } else {
            s0
        };
        if rng.chance(0.85) {
            params.push(Param::Mat("m1".into(), s1, by_ref(rng)));
        }
        if rng.chance(0.4) {
            let n = if rng.chance(0.5) { c } else { r };
            params.push(Param::Mat(
                "u0".into(),
                Shape {
                    r: n,
                    c: 1,
                    vec: true,
                },
                by_ref(rng),
            ));
        }
    } else if rng.chance(0.35) || class == Some(Class::NonFinite) {
        let len = rng.range(2, 4) as usize;
        let len = if class == Some(Class::NonFinite) {
            len.max(3)
        } else {
            len
        };
        params.push(Param::Slice("xs".into(), len));
    }
    if rng.chance(0.2) {
        params.push(Param::Const("k0".into()));
    }
    if !matrix && rng.chance(0.15) {
        params.push(Param::N("n".into(), rng.range(1, 3)));
    }
    // Shuffle (Fisher–Yates) so constant arguments sit anywhere.
    for i in (1..params.len()).rev() {
        let j = rng.below(i + 1);
        params.swap(i, j);
    }

    let callees: Vec<Sig> = prev
        .iter()
        .filter(|s| s.fl == fl && (matrix || !s.matrix) && !s.shaped)
        .cloned()
        .collect();
    let has_slice = params.iter().any(|p| matches!(p, Param::Slice(..)));
    let budget = rng.range(3, 8) as i32;
    let returns_matrix = matrix && rng.chance(0.5) && class != Some(Class::SingularDet);
    let mut g = FnGen {
        rng,
        fl,
        name: name.clone(),
        scopes: vec![Vec::new()],
        frames: Vec::new(),
        uid: 0,
        locals: 0,
        ints: 0,
        maps: 0,
        callees,
        used: BTreeSet::new(),
        has_slice,
        matrix,
        closure: false,
        budget,
        cost: 0.0,
        helpers: Vec::new(),
        features: BTreeSet::new(),
        next_acc: None,
        intense: false,
        arms: 0,
        in_cond: false,
        exits,
        returns_matrix,
        return_bound: 0.0,
        class,
        cls: Rng::new(cls.next()),
        consts: Vec::new(),
    };
    if let Some(c) = class {
        g.features.insert(c.tag());
    }
    let (module_items, body_items) = if class == Some(Class::Consts) {
        g.const_items(&upper)
    } else {
        (String::new(), String::new())
    };
    for p in &params {
        let (n, kind, bound) = match p {
            Param::Scalar(n) | Param::Const(n) => (n, VK::F, 2.0),
            Param::Slice(n, _) => (n, VK::Slice, 2.0),
            Param::N(n, v) => (
                n,
                VK::I {
                    below_len: false,
                    max: *v,
                },
                0.0,
            ),
            Param::Mat(n, s, by_ref) => (n, VK::M(*s, !by_ref), 1.5),
        };
        g.declare(n, kind, false, bound);
        let v = g.scopes[0].last_mut().expect("declared");
        v.param = true;
        // A `#[constant]` argument is a literal at every call site.
        v.dynamic = !matches!(p, Param::N(..) | Param::Const(_));
    }
    let mut body = Vec::new();
    let n = g.budget as usize;
    g.gen_stmts(n, 2, &mut body);
    let scalars: Vec<String> = params
        .iter()
        .filter_map(|p| match p {
            Param::Scalar(n) => Some(n.clone()),
            _ => None,
        })
        .collect();
    let mut extra_terms = Vec::new();
    match class {
        Some(Class::NonFinite) => extra_terms.push(g.zero_sum(&mut body)),
        Some(Class::SignedZeros) if !scalars.is_empty() => {
            extra_terms.extend(g.signed_zero_terms(&scalars, &mut body));
        }
        _ => {}
    }
    let (tail, ret_shape, bound) = if returns_matrix {
        let shapes: Vec<Shape> = g.reach().keys().copied().collect();
        let shape = g.rng.pick(&shapes);
        let (m, b) = g.gen_matrix_tail(shape);
        (Tail::M(m), Some(shape), b)
    } else {
        let (mut e, mut b) = g.gen_tail();
        for t in &extra_terms {
            e = E::Bin(Bin::Add, Box::new(e), Box::new(E::Var(t.clone())));
            b += 4.0;
        }
        if class == Some(Class::SingularDet) {
            let m1 = params.iter().find_map(|p| match p {
                Param::Mat(n, _, by_ref) if n == "m1" => Some(!by_ref),
                _ => None,
            });
            let m0_owned = params
                .iter()
                .any(|p| matches!(p, Param::Mat(n, _, false) if n == "m0"));
            let m = classes::det_of(&mut g.cls, m0_owned, m1);
            let n = params
                .iter()
                .find_map(|p| match p {
                    Param::Mat(n, s, _) if n == "m0" => Some(s.r),
                    _ => None,
                })
                .expect("m0");
            let fact: f64 = (1..=n).map(|k| k as f64).product();
            let db = fact
                * 1.5f64.powi(n as i32)
                * if m1.is_some() {
                    2.0f64.powi(n as i32)
                } else {
                    1.0
                };
            let (d, bd) = g.bounded((E::Det(Box::new(m)), db), g.cap());
            g.features.insert("determinant");
            e = E::Bin(Bin::Add, Box::new(e), Box::new(d));
            b += bd;
        }
        (Tail::F(e), None, b)
    };
    let mut tail = tail;
    if class == Some(Class::Cfg) {
        let mut deco = classes::Deco {
            rng: &mut g.cls,
            scalars: scalars.clone(),
            returns_matrix,
            features: &mut g.features,
        };
        deco.body(&mut body);
        if let Tail::F(e) = &mut tail {
            deco.tail(e);
        }
    }
    let bound = bound.max(g.return_bound);
    let ret = g.rng.chance(0.15);

    // Features.
    if fl == Fl::F32 {
        g.features.insert("f32");
    }
    if matrix {
        g.features.insert("matrix");
    }
    if has_slice {
        g.features.insert("slice");
    }
    if params.iter().any(|p| matches!(p, Param::Const(_))) {
        g.features.insert("constant-argument");
    }
    if params.iter().any(|p| matches!(p, Param::N(..))) {
        g.features.insert("int-argument");
    }
    if params
        .iter()
        .any(|p| matches!(p, Param::Mat(_, s, false) if !s.vec))
    {
        g.features.insert("matrix-by-value");
    }
    if params
        .iter()
        .any(|p| matches!(p, Param::Mat(_, s, _) if s.vec))
    {
        g.features.insert("dvector");
    }
    if ret {
        g.features.insert("return");
    }
    if returns_matrix {
        g.features.insert("matrix-result");
    }

    // The source.
    let src = Src { fl };
    let ps: Vec<String> = params
        .iter()
        .map(|p| match p {
            Param::Scalar(n) => format!("{n}: {ty}"),
            Param::Const(n) => format!("#[constant] {n}: {ty}"),
            Param::Slice(n, _) => format!("{n}: &[{ty}]"),
            Param::N(n, _) => format!("{n}: usize"),
            Param::Mat(n, s, by_ref) => {
                let t = if s.vec { "DVector" } else { "DMatrix" };
                let r = if *by_ref { "&" } else { "" };
                format!("{n}: {r}{t}<f64>")
            }
        })
        .collect();
    let ret_ty = match ret_shape {
        None => ty.to_owned(),
        Some(s) if s.vec => "DVector<f64>".to_owned(),
        Some(_) => "DMatrix<f64>".to_owned(),
    };
    let mut source = format!(
        "{module_items}#[differentiable]\nfn {name}({}) -> {ret_ty} {{\n{body_items}",
        ps.join(", ")
    );
    for s in &body {
        src.s(s, 1, &mut source);
    }
    let tail_src = match &tail {
        Tail::F(e) => src.e(e, 1).0,
        Tail::M(m) => src.owned_m(m, 1),
    };
    if ret {
        let _ = writeln!(source, "    return {tail_src};");
    } else {
        let _ = writeln!(source, "    {tail_src}");
    }
    source.push_str("}\n");

    // The mirror.
    let mut code = String::new();
    for (helper, body) in &g.helpers {
        let mut mir = Mir::new(1);
        let v = mir.e(body);
        let _ = write!(
            code,
            "fn {helper}(cx: &mut Mirror, t: V) -> V {{\n{}    {v}\n}}\n\n",
            mir.out
        );
    }
    let mut mir = Mir::new(1);
    for s in &body {
        mir.s(s);
    }
    let (v, mirror_ret) = match &tail {
        Tail::F(e) => (mir.e(e), "V"),
        Tail::M(m) => (mir.owned(m), "Mat"),
    };
    let mps: Vec<String> = params.iter().map(mirror_param_ty).collect();
    let _ = write!(
        code,
        "fn mirror_{name}(cx: &mut Mirror, {}) -> {mirror_ret} {{\n{body_items}{}    {v}\n}}\n\n",
        mps.join(", "),
        mir.out
    );

    // The flat wrappers. Differentiable inputs first, in argument order,
    // then constants.
    let mut offset = 0;
    let mut offsets: Vec<Option<(usize, usize)>> = vec![None; params.len()];
    for pass in [true, false] {
        for (i, p) in params.iter().enumerate() {
            let len = match p {
                Param::Scalar(_) if pass => 1,
                Param::Slice(_, n) if pass => *n,
                Param::Mat(_, s, _) if pass => s.r * s.c,
                Param::Const(_) if !pass => 1,
                _ => continue,
            };
            offsets[i] = Some((offset, offset + len));
            offset += len;
        }
    }
    let mut prelude = String::new();
    let mut mprelude = String::new();
    let mut args = Vec::new();
    let mut margs = Vec::new();
    let mut inputs = Vec::new();
    let mut const_inputs = Vec::new();
    let cast = if fl == Fl::F32 { " as f32" } else { "" };
    for (p, off) in params.iter().zip(&offsets) {
        match p {
            Param::Scalar(n) | Param::Const(n) => {
                let (a, _) = off.expect("an offset");
                args.push(format!("v[{a}]{cast}"));
                margs.push(format!("v[{a}]"));
                if matches!(p, Param::Scalar(_)) {
                    inputs.push(format!("Input::Scalar(\"{n}\")"));
                } else {
                    const_inputs.push(format!("Input::Constant(\"{n}\")"));
                }
            }
            Param::Slice(n, len) => {
                let (a, b) = off.expect("an offset");
                if fl == Fl::F32 {
                    let _ = writeln!(
                        prelude,
                        "    let {n}: Vec<f32> = v[{a}..{b}].iter().map(|&t| t as f32).collect();"
                    );
                    args.push(format!("&{n}"));
                } else {
                    args.push(format!("&v[{a}..{b}]"));
                }
                margs.push(format!("&v[{a}..{b}]"));
                inputs.push(format!("Input::Slice(\"{n}\", {len})"));
            }
            Param::N(_, value) => {
                args.push(value.to_string());
                margs.push(value.to_string());
            }
            Param::Mat(n, s, by_ref) => {
                let (a, b) = off.expect("an offset");
                if s.vec {
                    let _ = writeln!(
                        prelude,
                        "    let {n} = DVector::from_column_slice(&v[{a}..{b}]);"
                    );
                    inputs.push(format!("Input::Vector(\"{n}\", {})", s.r));
                } else {
                    let _ = writeln!(
                        prelude,
                        "    let {n} = DMatrix::from_column_slice({}, {}, &v[{a}..{b}]);",
                        s.r, s.c
                    );
                    inputs.push(format!("Input::Matrix(\"{n}\", {}, {})", s.r, s.c));
                }
                let _ = writeln!(
                    mprelude,
                    "    let {n} = Mat::new({}, {}, &v[{a}..{b}]);",
                    s.r, s.c
                );
                args.push(if *by_ref { format!("&{n}") } else { n.clone() });
                margs.push(format!("&{n}"));
            }
        }
    }
    inputs.extend(const_inputs);
    let arg_list = args;
    let args = arg_list.join(", ");
    let widen = |x: &str| {
        if fl == Fl::F32 {
            format!("f64::from({x})")
        } else {
            x.to_owned()
        }
    };
    let mut collect = String::new();
    let mut names = Vec::new();
    for (i, p) in params.iter().enumerate() {
        let d = format!("d{i}");
        match p {
            Param::Scalar(_) => {
                let _ = writeln!(collect, "    g.push({});", widen(&d));
            }
            Param::Slice(..) if fl == Fl::F32 => {
                let _ = writeln!(collect, "    g.extend({d}.iter().map(|&t| f64::from(t)));");
            }
            Param::Slice(..) => {
                let _ = writeln!(collect, "    g.extend_from_slice(&{d});");
            }
            Param::Mat(..) => {
                let _ = writeln!(collect, "    g.extend({d}.iter().copied());");
            }
            _ => continue,
        }
        names.push(d);
    }
    let tuple = if names.len() == 1 {
        format!("({},)", names[0])
    } else {
        format!("({})", names.join(", "))
    };
    let seed = if fl == Fl::F32 { "seed as f32" } else { "seed" };
    // `NAME_grad_acc`'s buffers, one per differentiable argument, starting
    // from `weights(n, ACC_START)`; arguments by value are cloned, since it
    // is called twice.
    let mut buffers = String::new();
    let mut buffer_args = Vec::new();
    let mut buffer_collect = String::new();
    for (i, (p, off)) in params.iter().zip(&offsets).enumerate() {
        let b = format!("b{i}");
        match (p, off) {
            (Param::Scalar(_), Some((a, _))) => {
                let _ = writeln!(buffers, "    let mut {b} = start[{a}]{cast};");
                let _ = writeln!(buffer_collect, "    g.push({});", widen(&b));
            }
            (Param::Slice(..), Some((a, z))) => {
                let _ = writeln!(
                    buffers,
                    "    let mut {b}: Vec<{ty}> = start[{a}..{z}].iter().map(|&t| t{cast}).collect();"
                );
                let _ = writeln!(
                    buffer_collect,
                    "    g.extend({b}.iter().map(|&t| {}));",
                    widen("t")
                );
            }
            (Param::Mat(_, s, _), Some((a, z))) => {
                let ctor = if s.vec {
                    format!("DVector::from_column_slice(&start[{a}..{z}])")
                } else {
                    format!(
                        "DMatrix::from_column_slice({}, {}, &start[{a}..{z}])",
                        s.r, s.c
                    )
                };
                let _ = writeln!(buffers, "    let mut {b} = {ctor};");
                let _ = writeln!(buffer_collect, "    g.extend({b}.iter().copied());");
            }
            _ => continue,
        }
        buffer_args.push(format!("&mut {b}"));
    }
    let args_twice: Vec<String> = params
        .iter()
        .zip(&arg_list)
        .map(|(p, a)| match p {
            Param::Mat(_, _, false) => format!("{a}.clone()"),
            _ => a.clone(),
        })
        .collect();
    let n_diff = offsets
        .iter()
        .zip(&params)
        .filter(|(o, p)| o.is_some() && !matches!(p, Param::Const(_)))
        .filter_map(|(o, _)| o.map(|(a, z)| z - a))
        .sum::<usize>();
    match ret_shape {
        None => {
            let _ = write!(
                code,
                "fn acc_{name}(v: &[f64]) -> (f64, Vec<f64>) {{
{prelude}    let start = fuzz_programs::weights({n_diff}, fuzz_programs::ACC_START);
{buffers}    let mut value = {name}_grad_acc({}, {});
    value = {name}_grad_acc({}, {});
    let mut g = Vec::new();
{buffer_collect}    ({}, g)
}}

",
                args_twice.join(", "),
                buffer_args.join(", "),
                args_twice.join(", "),
                buffer_args.join(", "),
                widen("value")
            );
            let _ = write!(
                code,
                "fn primal_{name}(v: &[f64]) -> f64 {{\n{prelude}    {}\n}}\n\n",
                widen(&format!("{name}({args})"))
            );
            let _ = write!(
                code,
                "fn grad_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n{prelude}    let (value, {}) = {name}_grad({args});\n    let mut g = Vec::new();\n{collect}    ({}, g)\n}}\n\n",
                names.join(", "),
                widen("value")
            );
            let _ = write!(
                code,
                "fn vjp_{name}(v: &[f64], seed: f64) -> (f64, Vec<f64>) {{\n{prelude}    let (value, pullback) = {name}_vjp({args});\n    let {tuple} = pullback({seed});\n    let mut g = Vec::new();\n{collect}    ({}, g)\n}}\n\n",
                widen("value")
            );
            let _ = write!(
                code,
                "fn graph_{name}(cx: &mut Mirror, v: &[V]) -> V {{\n{mprelude}    mirror_{name}(cx, {})\n}}\n\n",
                margs.join(", ")
            );
        }
        Some(shape) => {
            // A matrix result is checked through the scalar Σ wₖ·outₖ
            // (`fuzz_programs::weigh`): its gradient is the pullback of the
            // weights.
            let n = shape.r * shape.c;
            let seed_of = |s: &str| {
                if shape.vec {
                    format!("DVector::from_column_slice(&fuzz_programs::weights({n}, {s}))")
                } else {
                    format!(
                        "DMatrix::from_column_slice({}, {}, &fuzz_programs::weights({n}, {s}))",
                        shape.r, shape.c
                    )
                }
            };
            let _ = write!(
                code,
                "fn primal_{name}(v: &[f64]) -> f64 {{\n{prelude}    fuzz_programs::weigh({name}({args}).as_slice())\n}}\n\n"
            );
            for (wrapper, sig, s) in [("grad", "", "1.0"), ("vjp", ", seed: f64", "seed")] {
                let _ = write!(
                    code,
                    "fn {wrapper}_{name}(v: &[f64]{sig}) -> (f64, Vec<f64>) {{\n{prelude}    let (value, pullback) = {name}_vjp({args});\n    let {tuple} = pullback({});\n    let mut g = Vec::new();\n{collect}    (fuzz_programs::weigh(value.as_slice()), g)\n}}\n\n",
                    seed_of(s)
                );
            }
            let _ = write!(
                code,
                "fn graph_{name}(cx: &mut Mirror, v: &[V]) -> V {{\n{mprelude}    let out = mirror_{name}(cx, {});\n    mat::weigh(cx, &out)\n}}\n\n",
                margs.join(", ")
            );
        }
    }

    // Transitive dependencies.
    let mut deps = BTreeSet::new();
    for &u in &g.used {
        deps.insert(u);
        deps.extend(prev[u].deps.iter().copied());
    }
    let own_stop = g.features.contains("stop-gradient");
    let stops = own_stop || deps.iter().any(|&d| prev[d].stops);
    if stops && !own_stop {
        g.features.insert("stop-gradient-in-callee");
    }
    let features: Vec<&'static str> = g.features.iter().copied().collect();
    let sig = Sig {
        name: name.clone(),
        fl,
        params,
        bound,
        matrix,
        deps,
        index,
        stops,
        cost: g.cost,
        ret: ret_shape,
        shaped: false,
    };
    let deps_list: Vec<String> = sig.deps.iter().map(|d| format!("\"f{d}\"")).collect();
    let _ = write!(
        code,
        "const ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[{}],\n    inputs: &[{}],\n    f32: {},\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: {},\n    mirror: Some(graph_{name}),\n    jvp: None,\n    hvp: None,\n    hessian: None,\n    outputs: None,\n    jacobian: None,\n    grad_f32: None,\n    jvp_f32: None,\n}};\n\n",
        deps_list.join(", "),
        inputs.join(", "),
        fl == Fl::F32,
        features.join(" "),
        if ret_shape.is_none() {
            format!("Some(acc_{name})")
        } else {
            "None".to_owned()
        },
    );
    Program {
        sig,
        source,
        code,
        features,
    }
}

/// What the build script writes.
pub struct Generated {
    /// `generated.rs`.
    pub code: String,
    /// `programs.tsv`: one line per program, `name`, the first and last
    /// line of its block in `generated.rs` and of its source there (0 when
    /// left out), its status (`tested`, `excluded`, or `skipped`: it calls
    /// an excluded function) and the generated functions it calls,
    /// comma-separated. Maps the compiler's diagnostics to programs.
    pub map: String,
}

/// The whole generated file: `n` programs from `seed`, less those whose
/// index is in `exclude` and those that call them (they are generated all
/// the same, so the others do not change).
///
/// `exits` lets loops be left from the middle (`if c { break; }`,
/// `continue` in a `for`, `if c { return e; }`), writes some `while` loops
/// as `loop` with their condition an exit, and some `if` expressions as
/// `match` on an integer (`findings/002-break-continue-return.rs`, fixed).
/// On by default; without it a seed gives the programs it gave before they
/// existed.
///
/// `classes` are drawn for a share `class_share` of the programs, from
/// each program's own stream (none: the programs of the generator before
/// the classes existed).
pub fn generate(
    n: usize,
    seed: u64,
    exclude: &BTreeSet<usize>,
    exits: bool,
    shaped: bool,
    classes: &[Class],
    class_share: f64,
) -> Generated {
    let mut rng = Rng::new(seed);
    let mut sigs: Vec<Sig> = Vec::new();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// @generated by fuzz-programs/build.rs: {n} programs, seed {seed:#x}.\n"
    );
    let mut map = String::new();
    let mut names = Vec::new();
    let mut counts: BTreeMap<&'static str, usize> = BTreeMap::new();
    let lines = |s: &str| s.bytes().filter(|&b| b == b'\n').count();
    for i in 0..n {
        // Each program's own stream decides whether it is a `shaped` one
        // and draws it, so turning them off leaves the others as they were.
        let mut own = Rng::new(seed ^ (i as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let is_shaped = shaped && own.chance(SHAPED_SHARE);
        let class = (!classes.is_empty() && own.chance(class_share)).then(|| own.pick(classes));
        let p = match class {
            None if is_shaped => shaped::gen_shaped(i, &mut own, false),
            None => gen_program(i, &mut rng, &sigs, exits, None),
            Some(Class::Consts) if is_shaped => shaped::gen_shaped(i, &mut own, true),
            Some(Class::ShadowedStruct) => shaped::gen_shadowed_struct(i, &mut own),
            Some(Class::LargeArray) => classes::gen_large_array(i, &mut own),
            Some(Class::SubSlice) => classes::today::gen_sub_slice(i, &mut own),
            Some(Class::InOut) => classes::today::gen_in_out(i, &mut own),
            Some(Class::Unreached) => classes::today::gen_unreached(i, &mut own),
            Some(Class::NestedGrad) => classes::today::gen_nested_grad(i, &mut own),
            Some(Class::Selection) => classes::today::gen_selection(i, &mut own),
            Some(Class::Lanes) => classes::lanes::gen_lanes(i, &mut own),
            Some(Class::ConstLen) => classes::lanes::gen_const_len(i, &mut own),
            Some(Class::Closures) => classes::closures::gen_closures(i, &mut own),
            Some(Class::MutableTuples) => classes::tuples::gen_mutable_tuples(i, &mut own),
            Some(c) => {
                let r = Rng::new(own.next());
                gen_program(i, &mut rng, &sigs, exits, Some((c, r)))
            }
        };
        let name = p.sig.name.clone();
        let deps: Vec<String> = p.sig.deps.iter().map(|d| format!("f{d}")).collect();
        let status = if exclude.contains(&i) {
            "excluded"
        } else if p.sig.deps.iter().any(|d| exclude.contains(d)) {
            "skipped"
        } else {
            "tested"
        };
        if status != "tested" {
            let _ = writeln!(map, "{name}\t0\t0\t0\t0\t{status}\t{}", deps.join(","));
            sigs.push(p.sig);
            continue;
        }
        let upper = name.to_uppercase();
        let start = lines(&out) + 1;
        let _ = write!(
            out,
            "// ---- {name} ----\n\nconst SOURCE_{upper}: &str = r##\"{}\"##;\n\n",
            p.source
        );
        let src_start = lines(&out) + 1;
        out.push_str(&p.source);
        let src_end = lines(&out);
        let _ = write!(out, "\n{}", p.code);
        let end = lines(&out);
        let _ = writeln!(
            map,
            "{name}\t{start}\t{end}\t{src_start}\t{src_end}\t{status}\t{}",
            deps.join(",")
        );
        for f in p.features {
            *counts.entry(f).or_default() += 1;
        }
        names.push(format!("ENTRY_{upper}"));
        sigs.push(p.sig);
    }
    let _ = writeln!(
        out,
        "/// Every generated program.\npub static ENTRIES: &[Entry] = &[\n    {}\n];",
        names.join(",\n    ")
    );
    let _ = writeln!(
        out,
        "\n/// How many programs use each construct.\npub static FEATURE_COUNTS: &[(&str, usize)] = &[\n{}];",
        counts
            .iter()
            .map(|(k, v)| format!("    (\"{k}\", {v}),\n"))
            .collect::<String>()
    );
    Generated { code: out, map }
}
