//! The classes of programs outsiders wrote and the generator did not
//! (issue 35), each switchable on its own (`AUTOGRAD_FUZZ_CLASSES`, see
//! `build.rs`) and tagged `class-NAME` in the program's features, so a
//! failure says which class it belongs to:
//!
//! - `cfg`: `#[cfg(..)]` and `#[cfg_attr(..)]` with live (`all()`,
//!   `not(any())`, ..) and dead (`any()`, `not(all())`, ..) predicates on
//!   every statement kind, on match arms, on `return`/`break`/`continue`
//!   (bare and inside blocks), on loops and on `match` and `if let`
//!   statements; the mirror runs live code only;
//! - `consts`: `const`/`static` floats, float arrays read by index and
//!   `std::f64::consts` at module level and in the body (also in the
//!   `shaped` programs checked through `jvp` and `hessian`);
//! - `non-finite`: `sqrt` of a running sum (fused, or unfused by a branch)
//!   that is 0 at the points drawn at kinks, next to other terms: each
//!   adjoint component must be what the dynamic graph computes, infinite
//!   and NaN ones included;
//! - `singular-det`: `determinant()` of square matrix arguments drawn
//!   singular and rank-deficient at kink points;
//! - `signed-zeros`: `abs`, `max`, `min` and `relu` of arguments that are
//!   `+0` or `-0` at kink points (`|x|²`, `|−x²|`, `|x|·x`, `max(x, x)`);
//! - `shadowed-struct`: a struct local shadowed by `let`
//!   (`let t = Lo { x: t.v, v: t.x * 0.5 };`), in `fields.rs`;
//! - `large-array`: `&[f64; N]` and `[f64; N]` arguments with N up to 4096.
//!
//! The constructs the macro gained later each have their own small program
//! over `(a0: f64, a1: f64, xs: &[f64])`, `xs` of a length the generator
//! draws and the harness passes, with helpers in the same source
//! (`build/today.rs`):
//!
//! - `sub-slice`: `&x[a..b]`, `&x[a..]`, `&x[..b]`, `&x[a..=b]` (always in
//!   bounds for the drawn length) of the argument, of a local array and of a
//!   local `Vec` written by loops, bound by `let`, indexed, `len()`, iterated
//!   (`for v in s`, `for &v in s.iter()`, `.iter().sum::<f64>()`,
//!   `.windows(2)`, zipped with another sub-slice), sliced again, and passed
//!   to a `#[differentiable]` helper taking `&[f64]` (which may slice its
//!   argument), or the whole local array passed where a slice is taken;
//! - `in-out`: a state `Vec` or array copied from `xs` (`to_vec`, a copy
//!   loop, `push`), stepped in place by a helper taking `&mut [f64]`,
//!   `&mut Vec<f64>` or `&mut [f64; N]` (`y[i] = y[i] + dt * g(y[i], p)`),
//!   in a loop or once, or through a helper passing its own in-out argument
//!   on (`step(&mut *y, ..)`); a scalar stepped through `&mut f64`; an
//!   accumulator `*acc += ..` through `&mut f64`; two in-out arguments (a
//!   slice and a scalar that follows it); a helper updating `&mut f64`
//!   whose result is read too; and the checked function itself
//!   taking `y: &mut [f64]` or `y: &mut f64`, whose entry is the value plus
//!   the final `y` weighed by fixed seeds: its gradient is `NAME_vjp`'s
//!   pullback seeded with 1 and those weights (a local array passed as
//!   `&mut [f64]` too, finding 032). Everything is `#[differentiable(jvp)]`:
//!   `NAME_jvp` is held to `NAME_vjp` and central differences, through
//!   the helpers' forward items (the stepper called once, in a loop, twice
//!   at two parameters, or in the arms of a branch on `a0 > a1`) and, for
//!   the function taking `y`, with `y`'s tangent on entry in and its final
//!   tangent weighed like its value; some of the others return
//!   `[f64; 2]` (the sum and the last state component), checked through
//!   `NAME_jacobian` too. Those returning a number are
//!   `#[differentiable(jvp, hessian)]` throughout (some with 8 to 12
//!   inputs, for the eight-lane sweep), and so is half of the functions
//!   taking `y` (their entry is then the value alone: the weights are
//!   zero): each column of `NAME_hessian` is held to `NAME_hvp` and to
//!   central differences of `NAME_grad`, `NAME_hessian_sparse` at
//!   `NAME_hessian_pattern`'s colouring to `NAME_hessian` entry for entry,
//!   and each second-order item of a function taking `y` must leave `y` bit
//!   for bit as the function itself leaves it;
//! - `unreached`: `sqrt` and `ln` of a sum of squares that is 0 at the points
//!   drawn at kinks, read only in a branch arm not taken (`if`, `match`), a
//!   loop that runs zero times, or through a step function (`floor ceil
//!   round trunc signum`, a constant): the reverse must not multiply their
//!   infinite partials by a zero adjoint (also when read by a helper only
//!   in an arm not taken, finding 033);
//! - `nested-grad`: `NAME_grad` of a `#[differentiable(hessian)]` helper of
//!   two numbers called in the body (one gradient step, or a descent
//!   loop); the mirror writes the helper's gradient in closed form over the
//!   graph, so the graph differentiates it again;
//! - `selection`: values with an infinite slope at the points drawn at
//!   kinks (`sqrt` and `powf(0.5)` of a sum of squares of `xs[1..]`, a
//!   helper's norm, `sqrt(x²)` per element, `ln` of the sum) passed to
//!   `max`, `min` and `clamp` in either operand position, against
//!   constants, arguments and each other, as a running max/min, through
//!   `fold(.., f64::max)` and inside a helper: picked, the adjoint is the
//!   graph's; not picked, the operand adds nothing (finding 035).
//!
//! - `closures` (`build/closures.rs`): closures bound by `let` (a present
//!   value looping over `xs`, a payoff with a branch, one with an early
//!   `return`, one calling another) called in expressions, in an `if`'s
//!   and a `while`'s condition, in a bisection, in a `map` closure, in a
//!   loop body, in an assertion, and shadowed by a closure calling the one
//!   it shadows, and a nalgebra `map` closure reading floats that carry a
//!   derivative; `jvp, hessian` (a closure called in a condition once
//!   named a function the generated code has not).
//! - `mutable-tuples` (`build/tuples.rs`): a mutable tuple local tracking a
//!   pair (an argmax `best = (i, v)`, running sums, a component written on
//!   its own, swaps, assignment in a branch's arms, bound from an `if`,
//!   read whole by `let (p, q) = t;`); `jvp, hessian`.
//!
//! Vector mode and lengths (`build/lanes.rs`):
//!
//! - `lanes`: `f(a0: f64, xs: &[f64], [ys: &[f64]])` with 8 to 24 inputs,
//!   so that `NAME_hessian` (eight columns a sweep) and `NAME_jacobian`
//!   (eight directions a sweep, also through the `jvp` helpers it calls)
//!   run their lanes: `jvp, hessian` returning a number, or `jvp`
//!   returning a `Vec` or an array; sum loops (`for`, `while`, stencils
//!   `xs[i - 1]`), branches on the inputs (mirrored) and on `i`, `Vec`
//!   locals (`vec![0.0; n]` written by index, or `push`), recurrences,
//!   and calls of helpers taking `&[f64]` (the argument or a `Vec` local)
//!   that call each other; each column of `NAME_hessian` is held to
//!   `NAME_hvp` and to central differences of `NAME_grad`, of
//!   `NAME_jacobian` to `NAME_jvp`;
//! - `const-len`: functions generic over a length, `f<const N: usize>(a0,
//!   xs: &[S; N])` (or of a fixed length calling generic ones), `S` `f64`
//!   or a generic `T: Float` (checked at `f64` and `f32`), `jvp` and
//!   `hessian` or `jvp` alone (then maybe an `[f64; N]` result and its
//!   Jacobian), calling helpers generic over a length (by reference or by
//!   value, returning a number or an array, `T` first or `N` first) at
//!   `N`, at a local array's length and at a literal array's, the length
//!   inferred or by turbofish; `N` read as a value.

use super::{Class, FnGen, Param, Program, Rng, Sig};
use crate::ast::{Bin, Blk, C, Cmp, E, Fl, I, M, S, Style, Un, lit};
use std::collections::BTreeSet;
use std::fmt::Write as _;

#[path = "today.rs"]
pub(super) mod today;

#[path = "lanes.rs"]
pub(super) mod lanes;

#[path = "closures.rs"]
pub(super) mod closures;

#[path = "tuples.rs"]
pub(super) mod tuples;

impl Class {
    pub const ALL: [Class; 16] = [
        Class::Cfg,
        Class::Consts,
        Class::NonFinite,
        Class::SingularDet,
        Class::SignedZeros,
        Class::ShadowedStruct,
        Class::LargeArray,
        Class::SubSlice,
        Class::InOut,
        Class::Unreached,
        Class::NestedGrad,
        Class::Selection,
        Class::Lanes,
        Class::ConstLen,
        Class::Closures,
        Class::MutableTuples,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Class::Cfg => "cfg",
            Class::Consts => "consts",
            Class::NonFinite => "non-finite",
            Class::SingularDet => "singular-det",
            Class::SignedZeros => "signed-zeros",
            Class::ShadowedStruct => "shadowed-struct",
            Class::LargeArray => "large-array",
            Class::SubSlice => "sub-slice",
            Class::InOut => "in-out",
            Class::Unreached => "unreached",
            Class::NestedGrad => "nested-grad",
            Class::Selection => "selection",
            Class::Lanes => "lanes",
            Class::ConstLen => "const-len",
            Class::Closures => "closures",
            Class::MutableTuples => "mutable-tuples",
        }
    }

    pub fn tag(self) -> &'static str {
        match self {
            Class::Cfg => "class-cfg",
            Class::Consts => "class-consts",
            Class::NonFinite => "class-non-finite",
            Class::SingularDet => "class-singular-det",
            Class::SignedZeros => "class-signed-zeros",
            Class::ShadowedStruct => "class-shadowed-struct",
            Class::LargeArray => "class-large-array",
            Class::SubSlice => "class-sub-slice",
            Class::InOut => "class-in-out",
            Class::Unreached => "class-unreached",
            Class::NestedGrad => "class-nested-grad",
            Class::Selection => "class-selection",
            Class::Lanes => "class-lanes",
            Class::ConstLen => "class-const-len",
            Class::Closures => "class-closures",
            Class::MutableTuples => "class-mutable-tuples",
        }
    }

    /// `all`, `none`, or a comma-separated list of class names.
    pub fn parse(list: &str) -> Vec<Class> {
        let list = list.trim();
        if list.is_empty() || list == "all" {
            return Class::ALL.to_vec();
        }
        if list == "none" {
            return Vec::new();
        }
        list.split(',')
            .map(|s| {
                let s = s.trim();
                *Class::ALL
                    .iter()
                    .find(|c| c.name() == s)
                    .unwrap_or_else(|| panic!("AUTOGRAD_FUZZ_CLASSES: no class `{s}`"))
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------
// `cfg`: attributes on what the generator wrote.

const LIVE: [&str; 5] = [
    "#[cfg(all())]",
    "#[cfg(not(any()))]",
    "#[cfg(all(not(any()), all()))]",
    "#[cfg_attr(any(), cfg(any()))]",
    "#[cfg_attr(all(), cfg(all()))]",
];
const DEAD: [&str; 5] = [
    "#[cfg(any())]",
    "#[cfg(not(all()))]",
    "#[cfg(all(any(), all()))]",
    "#[cfg_attr(all(), cfg(any()))]",
    "#[cfg_attr(all(), cfg(not(all())))]",
];

/// Decorates a generated body with `#[cfg]`/`#[cfg_attr]` (see the module
/// docs), drawing from its own generator.
pub struct Deco<'a> {
    pub rng: &'a mut Rng,
    /// Float arguments, to compute dead values from.
    pub scalars: Vec<String>,
    pub returns_matrix: bool,
    pub features: &'a mut BTreeSet<&'static str>,
}

#[derive(Clone, Copy, PartialEq)]
enum Lp {
    None,
    For,
    While,
}

impl Deco<'_> {
    fn live(&mut self) -> String {
        let a = self.rng.pick(&LIVE);
        self.tag_attr(a)
    }
    fn dead(&mut self) -> String {
        let a = self.rng.pick(&DEAD);
        self.tag_attr(a)
    }
    fn tag_attr(&mut self, a: &str) -> String {
        if a.starts_with("#[cfg_attr") {
            self.features.insert("cfg-attr-cfg");
        }
        a.to_owned()
    }

    /// A value that would ruin the result if dead code ran.
    fn dead_value(&mut self) -> E {
        if !self.scalars.is_empty() && self.rng.chance(0.6) {
            let a = self.rng.pick(&self.scalars);
            E::Bin(Bin::Mul, Box::new(E::Var(a)), Box::new(E::Lit(1000.0)))
        } else {
            E::Lit(-777.0)
        }
    }

    pub fn body(&mut self, ss: &mut Vec<S>) {
        self.stmts(ss, Lp::None);
    }

    pub fn tail(&mut self, e: &mut E) {
        self.e(e);
    }

    fn stmts(&mut self, ss: &mut Vec<S>, lp: Lp) {
        let old = std::mem::take(ss);
        for mut s in old {
            self.inner(&mut s, lp);
            if self.rng.chance(0.15) {
                let d = self.dead_stmt(lp);
                ss.push(d);
            }
            let s = if self.rng.chance(0.3) {
                self.wrap_live(s)
            } else {
                s
            };
            ss.push(s);
        }
        if lp != Lp::None && self.rng.chance(0.1) {
            let d = self.dead_stmt(lp);
            ss.push(d);
        }
    }

    fn inner(&mut self, s: &mut S, lp: Lp) {
        match s {
            S::Let { init, .. } => self.e(init),
            S::Assign(_, e) | S::Compound(_, _, e) | S::Return(e) => self.e(e),
            S::If(_, t, f) => {
                self.stmts(t, lp);
                if let Some(f) = f {
                    // An `else if` chain stays one `if` statement.
                    if !matches!(&f[..], [S::If(..)]) {
                        self.stmts(f, lp);
                    } else if let Some(S::If(_, t2, f2)) = f.first_mut() {
                        self.stmts(t2, lp);
                        if let Some(f2) = f2 {
                            self.stmts(f2, lp);
                        }
                    }
                }
            }
            S::For { body, .. } => self.stmts(body, Lp::For),
            S::While(_, body) => {
                // The counter's advance stays last and bare: a `continue`
                // would skip it.
                let advance = body.pop();
                self.stmts(body, Lp::While);
                body.extend(advance);
            }
            S::Loop(body) => self.stmts(body, Lp::While),
            S::Block(body) => self.stmts(body, lp),
            _ => {}
        }
    }

    /// Match arms inside expressions: a dead arm, live attributes.
    fn e(&mut self, e: &mut E) {
        match e {
            E::Match(_, arms) => {
                for (pat, b) in arms.iter_mut() {
                    self.blk(b);
                    if self.rng.chance(0.35) {
                        self.features.insert("cfg-arm-live");
                        *pat = format!("{} {pat}", self.live());
                    }
                }
                if self.rng.chance(0.7) {
                    self.features.insert("cfg-arm-dead");
                    let at = self.rng.below(arms.len());
                    let pat = format!("{} {}", self.dead(), self.rng.pick(&["0", "1", "_"]));
                    let tail = self.dead_value();
                    arms.insert(
                        at,
                        (
                            pat,
                            Blk {
                                stmts: Vec::new(),
                                tail,
                            },
                        ),
                    );
                }
            }
            E::If(_, t, f) => {
                self.blk(t);
                self.blk(f);
            }
            E::Un(_, _, x) | E::Stop(_, x) | E::Powi(_, x, _) => self.e(x),
            E::Bin(_, a, b) | E::Powf(_, a, b) | E::MaxMin(_, _, a, b) => {
                self.e(a);
                self.e(b);
            }
            E::Nary(_, _, xs) => xs.iter_mut().for_each(|x| self.e(x)),
            _ => {}
        }
    }

    fn blk(&mut self, b: &mut Blk) {
        for s in &mut b.stmts {
            if let S::Let { init, .. } = s {
                self.e(init);
            }
        }
        self.e(&mut b.tail);
    }

    fn wrap_live(&mut self, s: S) -> S {
        match s {
            // `let` with an attribute is not rewritten (README): its `if`
            // may not exit.
            S::LetExit { .. } | S::Cfg(..) | S::Attr(..) => s,
            S::Assign(..) | S::Compound(..) | S::AssignM(..) | S::IncI(_) => {
                self.features.insert("cfg-live-block");
                let a = self.live();
                S::Attr(a, true, Box::new(S::Block(vec![s])))
            }
            S::Break | S::Continue | S::Return(_) => {
                self.features.insert("cfg-live-exit");
                let a = self.live();
                S::Attr(a, true, Box::new(s))
            }
            S::For { .. } | S::While(..) | S::Loop(_) => {
                self.features.insert("cfg-live-loop");
                let a = if self.rng.chance(0.15) {
                    self.features.insert("cfg-attr-checkpoint");
                    "#[cfg_attr(all(), checkpoint)]".to_owned()
                } else {
                    self.live()
                };
                S::Attr(a, true, Box::new(s))
            }
            S::Let { .. } | S::LetM { .. } | S::LetI(_) | S::SinCos { .. } => {
                self.features.insert("cfg-live-let");
                let a = if self.rng.chance(0.2) {
                    "#[cfg_attr(all(), allow(unused_variables))]".to_owned()
                } else {
                    self.live()
                };
                S::Attr(a, true, Box::new(s))
            }
            S::If(..) | S::Block(_) | S::Match(..) | S::IfLet(_) => {
                self.features.insert("cfg-live-if");
                let a = self.live();
                S::Attr(a, true, Box::new(s))
            }
        }
    }

    /// A statement compiled out that would ruin the result if it ran.
    fn dead_stmt(&mut self, lp: Lp) -> S {
        let ret = !self.returns_matrix;
        let k = self.rng.weighted(&[
            if ret { 4 } else { 0 },
            if lp != Lp::None { 3 } else { 0 },
            if lp == Lp::For { 3 } else { 0 },
            if ret || lp != Lp::None { 3 } else { 0 },
            2,
            if ret { 2 } else { 0 },
            if ret { 1 } else { 0 },
            if ret || lp != Lp::None { 2 } else { 0 },
            if ret || lp != Lp::None { 2 } else { 0 },
        ]);
        let attr = self.dead();
        let exit = |d: &mut Self| {
            if ret && (lp == Lp::None || d.rng.chance(0.5)) {
                S::Return(d.dead_value())
            } else {
                S::Break
            }
        };
        let s = match k {
            0 => {
                self.features.insert("cfg-dead-return");
                S::Return(self.dead_value())
            }
            1 => {
                self.features.insert("cfg-dead-break");
                S::Break
            }
            2 => {
                self.features.insert("cfg-dead-continue");
                S::Continue
            }
            3 => {
                self.features.insert("cfg-dead-block");
                S::Block(vec![exit(self)])
            }
            4 => {
                self.features.insert("cfg-dead-let");
                let name = if self.scalars.is_empty() {
                    "dead".to_owned()
                } else {
                    self.rng.pick(&self.scalars)
                };
                S::Let {
                    name,
                    mutable: false,
                    typed: true,
                    init: E::Lit(1000.0),
                }
            }
            5 => {
                self.features.insert("cfg-dead-if");
                let c = C::F(Cmp::Gt, E::Lit(1.0), E::Lit(0.0));
                let e = self.dead_value();
                S::If(c, vec![S::Return(e)], None)
            }
            // A `match` or `if let` statement, taken apart before its
            // attribute was read (it ran where compiled out).
            7 => {
                self.features.insert("cfg-dead-match");
                let arms = vec![
                    ("0".to_owned(), vec![exit(self)]),
                    ("_".to_owned(), vec![exit(self)]),
                ];
                S::Match(I::Lit(0), arms)
            }
            8 => {
                self.features.insert("cfg-dead-if-let");
                S::IfLet(vec![exit(self)])
            }
            6 => {
                self.features.insert("cfg-dead-loop");
                let e = self.dead_value();
                S::For {
                    var: None,
                    lo: I::Lit(0),
                    hi: I::Lit(2),
                    incl: false,
                    rev: false,
                    body: vec![S::Return(e)],
                }
            }
            _ => unreachable!("one kind per weight"),
        };
        S::Attr(attr, false, Box::new(s))
    }
}

// ---------------------------------------------------------------------------
// The classes drawn inside `gen_program`.

/// A `const`/`static` item readable by the body: its text (a name, or a
/// `std` path), the largest magnitude of its values, its length if it is
/// an array, and whether a `map` closure's mirror (a separate function)
/// sees it (module-level items and `std` paths).
#[derive(Clone)]
pub struct Konst {
    text: String,
    bound: f64,
    len: Option<usize>,
    module: bool,
}

const STD_CONSTS: [(&str, f64); 6] = [
    ("PI", std::f64::consts::PI),
    ("E", std::f64::consts::E),
    ("FRAC_PI_4", std::f64::consts::FRAC_PI_4),
    ("LN_2", std::f64::consts::LN_2),
    ("SQRT_2", std::f64::consts::SQRT_2),
    ("FRAC_1_SQRT_2", std::f64::consts::FRAC_1_SQRT_2),
];

impl FnGen<'_> {
    /// Declares this program's `const`/`static` items (module level and
    /// in the body) and returns their source: (module, body).
    pub(super) fn const_items(&mut self, upper: &str) -> (String, String) {
        let ty = self.fl.ty();
        let (mut module, mut body) = (String::new(), String::new());
        let lits = |g: &mut Self, n: usize| -> Vec<f64> {
            (0..n)
                .map(|_| {
                    let v = g.cls.pick(&super::LITS);
                    if g.cls.chance(0.3) { -v } else { v }
                })
                .collect()
        };
        let fmt = |v: &[f64]| v.iter().map(|x| lit(*x)).collect::<Vec<_>>().join(", ");
        let bound = |v: &[f64]| v.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        // Module level: a const and a static float, a const and a static array.
        for (kw, tag) in [("const", "const-module"), ("static", "static-module")] {
            if self.cls.chance(0.7) {
                let v = lits(self, 1);
                let name = format!("{upper}_{}", if kw == "const" { "K" } else { "S" });
                let _ = writeln!(module, "{kw} {name}: {ty} = {};", fmt(&v));
                self.consts.push(Konst {
                    text: name,
                    bound: bound(&v),
                    len: None,
                    module: true,
                });
                self.features.insert(tag);
            }
            if self.cls.chance(0.6) {
                let n = self.cls.range(2, 5) as usize;
                let v = lits(self, n);
                let name = format!("{upper}_{}", if kw == "const" { "W" } else { "T" });
                let _ = writeln!(module, "{kw} {name}: [{ty}; {n}] = [{}];", fmt(&v));
                self.consts.push(Konst {
                    text: name,
                    bound: bound(&v),
                    len: Some(n),
                    module: true,
                });
                self.features.insert("const-array");
            }
        }
        // In the body.
        if self.cls.chance(0.7) {
            let v = lits(self, 1);
            let kw = if self.cls.chance(0.5) {
                "const"
            } else {
                "static"
            };
            let _ = writeln!(body, "    {kw} KB: {ty} = {};", fmt(&v));
            self.consts.push(Konst {
                text: "KB".into(),
                bound: bound(&v),
                len: None,
                module: false,
            });
            self.features.insert("const-body");
        }
        if self.cls.chance(0.5) {
            let n = self.cls.range(2, 4) as usize;
            let v = lits(self, n);
            let kw = if self.cls.chance(0.5) {
                "const"
            } else {
                "static"
            };
            let _ = writeln!(body, "    {kw} WB: [{ty}; {n}] = [{}];", fmt(&v));
            self.consts.push(Konst {
                text: "WB".into(),
                bound: bound(&v),
                len: Some(n),
                module: false,
            });
            self.features.insert("const-body-array");
        }
        // `std::f64::consts`, as a path or imported in the body.
        let (name, value) = self.cls.pick(&STD_CONSTS);
        if self.cls.chance(0.5) {
            self.consts.push(Konst {
                text: format!("std::{ty}::consts::{name}"),
                bound: value.abs(),
                len: None,
                module: true,
            });
            self.features.insert("std-consts-path");
        } else {
            let _ = writeln!(body, "    use std::{ty}::consts::{name};");
            self.consts.push(Konst {
                text: name.to_owned(),
                bound: value.abs(),
                len: None,
                module: false,
            });
            self.features.insert("std-consts-use");
        }
        (module, body)
    }

    /// A read of one of the program's constants, if one is visible here.
    pub(super) fn const_leaf(&mut self) -> Option<(E, f64)> {
        let visible: Vec<Konst> = self
            .consts
            .iter()
            .filter(|k| k.module || !self.closure)
            .cloned()
            .collect();
        if visible.is_empty() {
            return None;
        }
        let k = self.cls.pick(&visible);
        self.features.insert("const-read");
        let idx = k.len.map(|n| {
            let loops: Vec<String> = self
                .int_vars()
                .into_iter()
                .map(|v| v.name)
                .filter(|n| n.starts_with('i') || n.starts_with('j'))
                .collect();
            if !loops.is_empty() && self.cls.chance(0.6) {
                self.features.insert("const-array-loop-index");
                let v = self.cls.pick(&loops);
                I::Rem(Box::new(I::Var(v)), Box::new(I::Lit(n as i64)))
            } else {
                I::Lit(self.cls.range(0, n as i64 - 1))
            }
        });
        Some((E::Konst(k.text, idx), k.bound))
    }

    /// `let mut s = 0.0; for i in 1..xs.len() { s += xs[i] * xs[i]; }`
    /// (or its unfused form, a branch in the body), then `let r =
    /// s.sqrt();`: 0 at the points whose `xs[1..]` are zeros, where the
    /// adjoint of `s` is infinite. Returns `r`'s name.
    pub(super) fn zero_sum(&mut self, out: &mut Vec<S>) -> String {
        let s = self.new_local();
        out.push(S::Let {
            name: s.clone(),
            mutable: true,
            typed: true,
            init: E::Lit(0.0),
        });
        self.ints += 1;
        let i = format!("i{}", self.ints - 1);
        let x = || E::Idx("xs".into(), I::Var(i.clone()));
        let sq = if self.cls.chance(0.5) {
            E::Bin(Bin::Mul, Box::new(x()), Box::new(x()))
        } else {
            E::Powi(Style::Method, Box::new(x()), 2)
        };
        let body = match self.cls.below(3) {
            0 => {
                self.features.insert("non-finite-fused");
                vec![S::Compound(s.clone(), Bin::Add, sq)]
            }
            1 => {
                self.features.insert("non-finite-unfused");
                let big = C::F(Cmp::Gt, x(), E::Lit(100.0));
                vec![S::If(
                    big,
                    vec![S::Compound(s.clone(), Bin::Add, E::Lit(1.0))],
                    Some(vec![S::Compound(s.clone(), Bin::Add, sq)]),
                )]
            }
            _ => {
                self.features.insert("non-finite-fused-assign");
                vec![S::Assign(
                    s.clone(),
                    E::Bin(Bin::Add, Box::new(E::Var(s.clone())), Box::new(sq)),
                )]
            }
        };
        out.push(S::For {
            var: Some(i),
            lo: I::Lit(1),
            hi: I::Len("xs".into()),
            incl: false,
            rev: self.cls.chance(0.3),
            body,
        });
        let r = self.new_local();
        let root = if self.cls.chance(0.7) {
            E::Un(Un::Sqrt, Style::Method, Box::new(E::Var(s)))
        } else {
            self.features.insert("non-finite-sqrt-path");
            E::Un(Un::Sqrt, Style::Path, Box::new(E::Var(s)))
        };
        out.push(S::Let {
            name: r.clone(),
            mutable: false,
            typed: false,
            init: root,
        });
        self.declare(&r, super::VK::F, false, 4.0);
        r
    }

    /// Lets of `abs`, `max`, `min`, `relu` at the kink of their arguments
    /// (the scalar arguments, drawn at ±0 at kink points); returns their
    /// names.
    pub(super) fn signed_zero_terms(
        &mut self,
        scalars: &[String],
        out: &mut Vec<S>,
    ) -> Vec<String> {
        let mut names = Vec::new();
        for _ in 0..self.cls.range(1, 3) {
            let a = self.cls.pick(scalars);
            let b = self.cls.pick(scalars);
            let v = |n: &str| Box::new(E::Var(n.to_owned()));
            let neg = |e: E| E::Un(Un::Neg, Style::Method, Box::new(e));
            let abs = |e: E| E::Un(Un::Abs, Style::Method, Box::new(e));
            let sq = E::Bin(Bin::Mul, v(&a), v(&a));
            let (e, tag) = match self.cls.below(12) {
                0 => (abs(sq), "kink-abs-square"),
                1 => (abs(neg(sq)), "kink-abs-neg-square"),
                2 => (
                    E::Powi(Style::Method, Box::new(abs(E::Var(a.clone()))), 2),
                    "kink-abs-powi",
                ),
                3 => (
                    E::Bin(Bin::Mul, Box::new(abs(E::Var(a.clone()))), v(&a)),
                    "kink-abs-times-x",
                ),
                4 => (
                    E::MaxMin(true, Style::Method, v(&a), v(&a)),
                    "kink-max-self",
                ),
                5 => (
                    E::MaxMin(false, Style::Method, v(&a), v(&a)),
                    "kink-min-self",
                ),
                6 => (abs(E::Var(a.clone())), "kink-abs"),
                7 => (abs(neg(E::Var(a.clone()))), "kink-abs-neg"),
                8 => (
                    E::MaxMin(true, Style::Method, v(&a), Box::new(neg(E::Var(a.clone())))),
                    "kink-max-neg",
                ),
                9 => (abs(E::Bin(Bin::Sub, v(&a), v(&b))), "kink-abs-difference"),
                10 => (
                    E::MaxMin(
                        self.cls.chance(0.5),
                        Style::Method,
                        v(&a),
                        Box::new(E::Bin(Bin::Mul, v(&b), Box::new(E::Lit(0.0)))),
                    ),
                    "kink-max-min-zero",
                ),
                _ => (E::Un(Un::Relu, Style::Method, v(&a)), "kink-relu"),
            };
            self.features.insert(tag);
            let name = self.new_local();
            out.push(S::Let {
                name: name.clone(),
                mutable: false,
                typed: false,
                init: e,
            });
            self.declare(&name, super::VK::F, false, 4.0);
            names.push(name);
        }
        names
    }
}

/// `m0.determinant()`, of `m0`, `m0ᵀ` or `m0 · m1` (square, same size).
pub(super) fn det_of(rng: &mut Rng, m0_owned: bool, m1: Option<bool>) -> M {
    let m0 = M::Var("m0".into(), m0_owned);
    match (rng.below(3), m1) {
        (1, _) => M::T(Box::new(m0)),
        (2, Some(owned)) => M::MatMul(Box::new(m0), Box::new(M::Var("m1".into(), owned))),
        _ => m0,
    }
}

// ---------------------------------------------------------------------------
// `large-array`: its own small program over `&[f64; N]` (or `[f64; N]`).

pub(super) fn gen_large_array(index: usize, rng: &mut Rng) -> Program {
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    let n = *[256usize, 1024, 4096, 4096]
        .get(rng.below(4))
        .expect("a size");
    let by_value = rng.chance(0.3);
    let mut features: BTreeSet<&'static str> = BTreeSet::new();
    features.insert(Class::LargeArray.tag());
    features.insert(if by_value {
        "large-array-by-value"
    } else {
        "large-array-by-ref"
    });
    let inv = lit(1.0 / n as f64);
    let (mut src, mut mir) = (String::new(), String::new());
    let mut terms = Vec::new();
    let mut mterms = Vec::new();
    let k = rng.range(1, 3);
    let mut used = BTreeSet::new();
    for t in 0..k {
        let form = rng.below(if n <= 1024 { 5 } else { 4 });
        if !used.insert(form) {
            continue;
        }
        let s = format!("s{t}");
        match form {
            0 => {
                features.insert("large-array-sum");
                let _ = writeln!(
                    src,
                    "    let mut {s} = 0.0;\n    for i in 0..xs.len() {{\n        {s} += (xs[i] * a0).sin();\n    }}"
                );
                let _ = writeln!(
                    mir,
                    "    let mut {s} = cx.k(0.0);\n    for i in 0..xs.len() {{\n        let t = cx.mul(xs[i], a0);\n        let t = cx.sin(t);\n        {s} = cx.add({s}, t);\n    }}"
                );
            }
            1 => {
                features.insert("large-array-stencil");
                let _ = writeln!(
                    src,
                    "    let mut {s} = 0.0;\n    for i in 1..{n} {{\n        {s} += xs[i - 1] * xs[i];\n    }}"
                );
                let _ = writeln!(
                    mir,
                    "    let mut {s} = cx.k(0.0);\n    for i in 1..{n} {{\n        let t = cx.mul(xs[i - 1], xs[i]);\n        {s} = cx.add({s}, t);\n    }}"
                );
            }
            2 => {
                features.insert("large-array-local-write");
                let _ = writeln!(
                    src,
                    "    let mut w{t} = [0.0; {n}];\n    for i in 0..{n} {{\n        w{t}[i] = xs[i] * a0 + 0.5;\n    }}\n    let mut {s} = 0.0;\n    for i in 0..{n} {{\n        {s} += w{t}[i].tanh();\n    }}"
                );
                let _ = writeln!(
                    mir,
                    "    let mut w{t} = Vec::new();\n    for i in 0..{n} {{\n        let t = cx.mul(xs[i], a0);\n        let h = cx.k(0.5);\n        w{t}.push(cx.add(t, h));\n    }}\n    let mut {s} = cx.k(0.0);\n    for i in 0..{n} {{\n        let t = cx.tanh(w{t}[i]);\n        {s} = cx.add({s}, t);\n    }}"
                );
            }
            3 => {
                features.insert("large-array-while-sum");
                let _ = writeln!(
                    src,
                    "    let mut {s} = 0.0;\n    let mut i = 0;\n    while i < xs.len() {{\n        {s} += xs[i] * xs[i] * 0.5;\n        i += 1;\n    }}"
                );
                let _ = writeln!(
                    mir,
                    "    let mut {s} = cx.k(0.0);\n    for i in 0..xs.len() {{\n        let t = cx.mul(xs[i], xs[i]);\n        let h = cx.k(0.5);\n        let t = cx.mul(t, h);\n        {s} = cx.add({s}, t);\n    }}"
                );
            }
            _ => {
                features.insert("large-array-while-write");
                let _ = writeln!(
                    src,
                    "    let mut v{t} = [0.0; {n}];\n    let mut i = 0;\n    while i < {n} {{\n        v{t}[i] = v{t}[i] * a0 + xs[i];\n        i += 1;\n    }}\n    let mut {s} = 0.0;\n    for i in 0..{n} {{\n        {s} += v{t}[i];\n    }}"
                );
                let _ = writeln!(
                    mir,
                    "    let mut v{t} = Vec::new();\n    for i in 0..{n} {{\n        let z = cx.k(0.0);\n        let t = cx.mul(z, a0);\n        v{t}.push(cx.add(t, xs[i]));\n    }}\n    let mut {s} = cx.k(0.0);\n    for i in 0..{n} {{\n        {s} = cx.add({s}, v{t}[i]);\n    }}"
                );
            }
        }
        terms.push(format!("{s} * {inv}"));
        mterms.push(s);
    }
    let ty = if by_value {
        format!("[f64; {n}]")
    } else {
        format!("&[f64; {n}]")
    };
    let source = format!(
        "#[differentiable]\nfn {name}(a0: f64, xs: {ty}) -> f64 {{\n{src}    a0 * a0 * 0.5 + {}\n}}\n",
        terms.join(" + ")
    );
    let mut m = String::new();
    let _ = writeln!(
        m,
        "    let h = cx.mul(a0, a0);\n    let k = cx.k(0.5);\n    let mut r = cx.mul(h, k);\n    let inv = cx.k({inv});"
    );
    for s in &mterms {
        let _ = writeln!(m, "    let t = cx.mul({s}, inv);\n    r = cx.add(r, t);");
    }
    let arg = if by_value {
        format!(
            "*<&[f64; {n}]>::try_from(&v[1..{}]).expect(\"the length\")",
            n + 1
        )
    } else {
        format!(
            "<&[f64; {n}]>::try_from(&v[1..{}]).expect(\"the length\")",
            n + 1
        )
    };
    let mut code = String::new();
    let _ = write!(
        code,
        "fn mirror_{name}(cx: &mut Mirror, a0: V, xs: &[V]) -> V {{\n{mir}{m}    r\n}}\n\n\
         fn primal_{name}(v: &[f64]) -> f64 {{\n    {name}(v[0], {arg})\n}}\n\n\
         fn grad_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n    let (value, d0, d1) = {name}_grad(v[0], {arg});\n    let mut g = vec![d0];\n    g.extend_from_slice(&d1[..]);\n    (value, g)\n}}\n\n\
         fn vjp_{name}(v: &[f64], seed: f64) -> (f64, Vec<f64>) {{\n    let (value, pullback) = {name}_vjp(v[0], {arg});\n    let (d0, d1) = pullback(seed);\n    let mut g = vec![d0];\n    g.extend_from_slice(&d1[..]);\n    (value, g)\n}}\n\n\
         fn graph_{name}(cx: &mut Mirror, v: &[V]) -> V {{\n    mirror_{name}(cx, v[0], &v[1..])\n}}\n\n"
    );
    let feats: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "const ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[Input::Scalar(\"a0\"), Input::Slice(\"xs\", {n})],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: Some(graph_{name}),\n    jvp: None,\n    hvp: None,\n    hessian: None,\n    outputs: None,\n    jacobian: None,\n    grad_f32: None,\n    jvp_f32: None,\n}};\n\n",
        feats.join(" ")
    );
    let sig = Sig {
        name: name.clone(),
        fl: Fl::F64,
        params: vec![Param::Scalar("a0".into())],
        bound: 0.0,
        matrix: false,
        deps: BTreeSet::new(),
        index,
        stops: false,
        cost: 0.0,
        ret: None,
        shaped: true,
    };
    Program {
        sig,
        source,
        code,
        features: feats,
    }
}
