//! Programs of the shapes the dynamic-graph mirror cannot express: iterator
//! chains (`map`/`zip`/`fold`/`sum`, `for` over iterators and patterns),
//! local arrays and `Vec`s with index writes and `push`, `collect`, array
//! arguments, tuples, generic functions (checked at `f64` and `f32`),
//! vector results (`NAME_jacobian`) and the opt-in second-order items
//! (`NAME_jvp`, `NAME_hvp`).
//!
//! They are smooth (no comparisons or kinks), so central differences of
//! the primal check them without a mirror (`Entry::mirror` is `None`).
//! Every expression has a bound on its magnitude, as in `gen.rs`: anything
//! past [`CAP`] is squashed through `tanh`, divisors and the arguments of
//! `ln`/`sqrt` are at least 0.5. Only what README.md documents for each
//! item is written: `hessian` programs keep to scalar code, index loops
//! over slices and tuples; generic ones to index loops and tuples (no
//! iterator chains, `relu` or `sigmoid`), with `jvp` checked at `f64` and
//! `f32`. Struct programs (`fields.rs`) and `hessian` on matrices
//! (`matrix_hessian.rs`) are drawn here too.

use super::{Fl, Program, Rng, Sig};
use std::collections::BTreeSet;
use std::fmt::Write as _;

#[path = "fields.rs"]
mod fields;
#[path = "matrix_hessian.rs"]
mod matrix_hessian;

/// Past this bound an expression is squashed.
const CAP: f64 = 8.0;
/// The length of slice and array arguments.
const LEN: usize = 3;
const LITS: [f64; 8] = [0.25, 0.5, 0.75, 1.25, 1.5, -0.5, -1.0, 2.0];

#[derive(Clone, Copy, PartialEq)]
enum ArrayPass {
    Value,
    MutValue,
    Ref,
}

#[derive(Clone, Copy, PartialEq)]
enum Ret {
    Scalar,
    Vec(usize),
    Array(usize),
    Tuple(usize),
}

impl Ret {
    fn ty(self) -> String {
        match self {
            Ret::Scalar => "f64".into(),
            Ret::Vec(_) => "Vec<f64>".into(),
            Ret::Array(n) => format!("[f64; {n}]"),
            Ret::Tuple(n) => format!("({})", vec!["f64"; n].join(", ")),
        }
    }
    /// `x`, a value of this type, as a `Vec<f64>`.
    fn to_vec(self, x: &str) -> String {
        match self {
            Ret::Scalar => format!("vec![{x}]"),
            Ret::Vec(_) => x.into(),
            Ret::Array(_) => format!("{x}.to_vec()"),
            Ret::Tuple(n) => format!(
                "vec![{}]",
                (0..n)
                    .map(|k| format!("{x}.{k}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
    /// A seed of this type holding `weights(n, scale)`.
    fn seed(self, scale: &str) -> String {
        match self {
            Ret::Scalar => scale.into(),
            Ret::Vec(n) => format!("fuzz_programs::weights({n}, {scale})"),
            Ret::Array(n) => {
                format!("<[f64; {n}]>::try_from(fuzz_programs::weights({n}, {scale})).unwrap()")
            }
            Ret::Tuple(n) => format!(
                "{{ let w = fuzz_programs::weights({n}, {scale}); ({}) }}",
                (0..n)
                    .map(|k| format!("w[{k}]"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }
    }
}

/// What a program may contain.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// Everything: iterator chains, arrays, `Vec`s, tuples.
    Full,
    /// `#[differentiable(hessian)]`: scalar code, index loops, tuples.
    Hessian,
    /// `fn f<T: Float>`: scalar code, index loops, tuples.
    Generic,
    /// A `#[differentiable]` method of a `Tangent` struct: scalar code,
    /// index loops, tuples, field reads and calls of another method.
    Method,
}

struct Body<'r> {
    rng: &'r mut Rng,
    kind: Kind,
    /// Scalar expressions readable here (variables, `s.tanh()`), with bounds.
    vars: Vec<(String, f64)>,
    /// Scalar locals, for the result.
    locals: Vec<(String, f64)>,
    out: String,
    next: usize,
    features: BTreeSet<&'static str>,
    has_ys: bool,
    array: Option<ArrayPass>,
    /// The method a `Kind::Method` body calls.
    callee: String,
    /// Whether the `Tangent` struct `p` of a fields program is taken by
    /// value (then passed on as `&p`).
    struct_by_value: bool,
    /// Whether the body writes fields of `p` (then taken as `mut p` by
    /// value and never passed on whole, which the macro rejects).
    field_writes: bool,
    /// Whether a struct local is shadowed by `let` (class
    /// `shadowed-struct`).
    shadow_struct: bool,
}

impl<'r> Body<'r> {
    /// An empty body over `vars`, with no `ys` and no array argument.
    fn new(rng: &'r mut Rng, kind: Kind, vars: Vec<(String, f64)>, callee: String) -> Self {
        Body {
            rng,
            kind,
            vars,
            locals: Vec::new(),
            out: String::new(),
            next: 0,
            features: BTreeSet::new(),
            has_ys: false,
            array: None,
            callee,
            struct_by_value: false,
            field_writes: false,
            shadow_struct: false,
        }
    }
}

impl Body<'_> {
    fn generic(&self) -> bool {
        self.kind == Kind::Generic
    }

    fn num(&self, x: f64) -> String {
        if self.generic() {
            format!("T::from({x:?}).unwrap()")
        } else {
            format!("{x:?}")
        }
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next += 1;
        format!("{prefix}{}", self.next)
    }

    /// A variable of `vars` or `extra`, or (one time in five) a literal;
    /// the flag says it is a literal (not a method receiver: `0.5.sin()`
    /// does not type-check).
    fn atom(&mut self, extra: &[(String, f64)]) -> (String, f64, bool) {
        let n = self.vars.len() + extra.len();
        if n == 0 || self.rng.chance(0.2) {
            let x = self.rng.pick(&LITS);
            return (self.num(x), x.abs(), !self.generic());
        }
        let k = self.rng.below(n);
        let (e, b) = if k < self.vars.len() {
            self.vars[k].clone()
        } else {
            extra[k - self.vars.len()].clone()
        };
        (e, b, false)
    }

    /// A receiver for a method call.
    fn receiver(&mut self, depth: u32, extra: &[(String, f64)]) -> (String, f64) {
        let (e, b) = self.typed_expr(depth, extra);
        let atomic = e
            .chars()
            .all(|c| c.is_alphanumeric() || "_.[]()".contains(c))
            && !e.starts_with('(');
        if atomic {
            (e, b)
        } else {
            (format!("({e})"), b)
        }
    }

    fn expr(&mut self, depth: u32, extra: &[(String, f64)]) -> (String, f64) {
        let (e, b, _) = self.expr_lit(depth, extra);
        (e, b)
    }

    /// An expression of type `f64` on its own (not literals only, whose
    /// type a method call or a tuple element would not know).
    fn typed_expr(&mut self, depth: u32, extra: &[(String, f64)]) -> (String, f64) {
        let (e, b, lit) = self.expr_lit(depth, extra);
        if lit {
            let k = self.rng.below(self.vars.len() + extra.len());
            let (v, bv) = if k < self.vars.len() {
                self.vars[k].clone()
            } else {
                extra[k - self.vars.len()].clone()
            };
            (format!("({e}) * {v}"), b * bv)
        } else {
            (e, b)
        }
    }

    fn expr_lit(&mut self, depth: u32, extra: &[(String, f64)]) -> (String, f64, bool) {
        if depth == 0 || self.rng.chance(0.2) {
            return self.atom(extra);
        }
        let d = depth - 1;
        let one = self.num(1.0);
        let half = self.num(0.5);
        let (e, b) = match self.rng.below(10) {
            0..=2 => {
                let (a, ba, la) = self.expr_lit(d, extra);
                let (c, bc, lc) = self.expr_lit(d, extra);
                let (e, b) = match self.rng.below(3) {
                    0 => (format!("{a} + {c}"), ba + bc),
                    1 => (format!("{a} - {c}"), ba + bc),
                    _ if ba * bc <= CAP => (format!("({a}) * ({c})"), ba * bc),
                    _ => (format!("{a} - {c}"), ba + bc),
                };
                return (e, b, la && lc);
            }
            3 => (format!("{}.sin()", self.receiver(d, extra).0), 1.0),
            4 => (format!("{}.cos()", self.receiver(d, extra).0), 1.0),
            5 => (format!("{}.tanh()", self.receiver(d, extra).0), 1.0),
            6 => (
                format!("{}.tanh().exp()", self.receiver(d, extra).0),
                std::f64::consts::E,
            ),
            7 => {
                let (r, b) = self.receiver(d, extra);
                (format!("({r}.powi(2) + {one}).ln()"), (b * b + 1.0).ln())
            }
            8 => {
                let (r, b) = self.receiver(d, extra);
                (
                    format!("({r}.powi(2) + {half}).sqrt()"),
                    (b * b + 0.5).sqrt(),
                )
            }
            _ => {
                let (a, ba) = self.expr(d, extra);
                let (r, _) = self.receiver(d, extra);
                (format!("({a}) / ({r}.powi(2) + {one})"), ba)
            }
        };
        if b > CAP {
            (format!("({e}).tanh()"), 1.0, false)
        } else {
            (e, b, false)
        }
    }

    fn line(&mut self, indent: usize, s: &str) {
        let _ = writeln!(self.out, "{}{s}", "    ".repeat(indent));
    }

    /// A new scalar local, readable by what follows.
    fn define(&mut self, name: String, bound: f64) {
        let read = if bound > CAP {
            (format!("{name}.tanh()"), 1.0)
        } else {
            (name.clone(), bound)
        };
        self.vars.push(read.clone());
        self.locals.push(read);
    }

    fn stmt(&mut self) {
        let full = self.kind == Kind::Full;
        let choice = if full {
            self.rng
                .weighted(&[10, 12, 8, 8, 14, 12, 12, 6, 8, 8, 0, 10])
        } else if self.kind == Kind::Method {
            self.rng.weighted(&[10, 0, 0, 0, 14, 0, 0, 0, 8, 0, 12])
        } else if self.kind == Kind::Hessian {
            // Local arrays written by index: the twin's element writes.
            self.rng.weighted(&[10, 0, 0, 0, 14, 0, 6, 0, 8, 0, 0])
        } else {
            self.rng.weighted(&[10, 0, 0, 0, 14, 0, 0, 0, 8, 0, 0])
        };
        match choice {
            10 => self.method_call(),
            0 => self.scalar_let(),
            1 => self.map_sum(),
            2 => self.zip_sum(),
            3 => self.fold(),
            4 => self.index_loop(),
            5 => self.for_iter(),
            6 => self.local_array(),
            7 => self.collect(),
            8 => self.tuple(),
            9 => self.vec_local(),
            _ => self.first_last(),
        }
    }

    /// `*xs.first().unwrap()`, `xs.last().copied().unwrap()` and their
    /// spellings, of the slice and of a local `Vec`.
    fn first_last(&mut self) {
        self.features.insert("first-last");
        if self.rng.chance(0.5) {
            return self.first_last_option();
        }
        let s = self.fresh("s");
        let first = self
            .rng
            .pick(&["*xs.first().unwrap()", "xs.first().copied().unwrap()"]);
        let last = self.rng.pick(&[
            "*xs.last().expect(\"not empty\")",
            "xs.last().copied().unwrap()",
        ]);
        let (e, b) = self.expr(2, &[]);
        if self.rng.chance(0.5) {
            // A path call types an all-literal `e`, which `(e).tanh()`
            // leaves an ambiguous `{float}` (finding 009).
            let ty = if self.generic() { "T" } else { "f64" };
            self.line(1, &format!("let {s} = {first} * {ty}::tanh({e}) - {last};"));
        } else {
            let w = self.fresh("w");
            self.line(
                1,
                &format!("let {w}: Vec<f64> = xs.iter().map(|&v| v * 0.5).collect();"),
            );
            self.line(
                1,
                &format!("let {s} = {first} * {w}.last().copied().unwrap() + ({e}) * {w}.first().unwrap();"),
            );
        }
        self.define(s, 4.0 + 2.0 * b);
    }

    /// The ends as `Option`s: `if let Some(&v) = xs.first()`, `match
    /// xs.last().copied()`, a `match` on the pair `(xs.first(), xs.last())`
    /// with a guard, `unwrap_or`. `xs` is never empty, so the `None` arms
    /// are compiled, not taken.
    fn first_last_option(&mut self) {
        self.features.insert("first-last-option");
        let s = self.fresh("s");
        let (a, b) = (self.fresh("a"), self.fresh("b"));
        let ends = vec![(a.clone(), 2.0), (b.clone(), 4.0)];
        // Typed: an arm of literals only would leave the value an
        // ambiguous `{float}` (finding 026).
        let (e, be) = self.typed_expr(2, &ends);
        let (c, bc) = self.typed_expr(2, &[]);
        let zero = self.num(0.0);
        let text = match self.rng.below(4) {
            0 => format!(
                "let {s} = if let Some(&{a}) = xs.first() {{ let {b} = {a}; {e} }} else {{ {c} }};"
            ),
            1 => format!(
                "let {s} = match xs.last().copied() {{ Some({a}) => {{ let {b} = {a} * {a}; {e} }} None => {c}, }};"
            ),
            2 => {
                self.features.insert("first-last-pair");
                format!(
                    "let {s} = match (xs.first(), xs.last()) {{ (Some(&{a}), Some(&{b})) if xs.len() > 1 => {e}, (Some(_), Some(&{b})) => {b} - {zero}, _ => {c}, }};"
                )
            }
            _ => {
                let first = self.rng.pick(&["first", "last"]);
                format!(
                    "let {s} = {{ let {a} = xs.{first}().copied().unwrap_or({zero}); let {b} = {a}; {e} }};"
                )
            }
        };
        self.line(1, &text);
        self.define(s, be.max(bc).max(4.0));
    }

    fn scalar_let(&mut self) {
        let s = self.fresh("s");
        let (e, b) = self.expr(3, &[]);
        let ty = if self.generic() { "T" } else { "f64" };
        self.line(1, &format!("let {s}: {ty} = {e};"));
        self.define(s, b);
    }

    /// `xs.iter().map(|v| ..).sum::<f64>()` and its spellings.
    fn map_sum(&mut self) {
        self.features.insert("iter-map-sum");
        let s = self.fresh("s");
        let v = vec![("v".to_owned(), 2.0)];
        let (e, b) = self.expr(3, &v);
        let chain = match self.rng.below(4) {
            0 => format!("let {s} = xs.iter().map(|v| {e}).sum::<f64>();"),
            1 => format!("let {s} = xs.iter().map(|&v| {e}).sum::<f64>();"),
            2 => format!("let {s}: f64 = xs.iter().copied().map(|v| {e}).sum();"),
            _ => {
                self.features.insert("iter-rev-take");
                format!("let {s}: f64 = xs.iter().rev().take(2).map(|v| {e}).sum();")
            }
        };
        self.line(1, &chain);
        self.define(s, LEN as f64 * b);
    }

    /// `xs.iter().zip(ys.iter()).map(|(a, b)| ..).sum()`.
    fn zip_sum(&mut self) {
        if !self.has_ys {
            return self.map_sum();
        }
        self.features.insert("iter-zip");
        let s = self.fresh("s");
        let ab = vec![("a".to_owned(), 2.0), ("b".to_owned(), 2.0)];
        let (e, b) = self.expr(3, &ab);
        let other = if self.rng.chance(0.5) {
            "ys.iter()"
        } else {
            "ys"
        };
        self.line(
            1,
            &format!("let {s}: f64 = xs.iter().zip({other}).map(|(a, b)| {e}).sum();"),
        );
        self.define(s, LEN as f64 * b);
    }

    /// `xs.iter().fold(init, |acc, v| acc * 0.5 + ..)`.
    fn fold(&mut self) {
        self.features.insert("iter-fold");
        let s = self.fresh("s");
        let x = self.rng.pick(&LITS);
        // `acc` has the literal's type, not yet known to be `f64` where a
        // method is called on it: only arithmetic reads it.
        let v = vec![("v".to_owned(), 2.0)];
        let (e, b) = self.expr(3, &v);
        self.line(
            1,
            &format!("let {s}: f64 = xs.iter().fold({x:?}, |acc, v| acc * 0.5 + {e});"),
        );
        self.define(s, x.abs() + 2.0 * b);
    }

    /// `for i in 0..xs.len() { s += ..xs[i].. }`.
    fn index_loop(&mut self) {
        self.features.insert("index-loop");
        let s = self.fresh("s");
        let x = self.rng.pick(&LITS);
        let init = self.num(x);
        let extra = vec![("xs[i]".to_owned(), 2.0), (format!("{s}.tanh()"), 1.0)];
        let (e, b) = self.expr(3, &extra);
        let ty = if self.generic() { "T" } else { "f64" };
        self.line(1, &format!("let mut {s}: {ty} = {init};"));
        self.line(1, "for i in 0..xs.len() {");
        if self.generic() {
            self.line(2, &format!("{s} = {s} + ({e}) * T::from(i + 1).unwrap();"));
        } else {
            self.line(2, &format!("{s} += ({e}) * (i as f64 + 1.0);"));
        }
        self.line(1, "}");
        self.define(s, x.abs() + 6.0 * b);
    }

    /// `for v in xs.iter()`, `for (i, v) in xs.iter().enumerate()`,
    /// `for &v in xs`, `for v in xs`.
    fn for_iter(&mut self) {
        let s = self.fresh("s");
        let (head, v, factor) = match self.rng.below(4) {
            0 => {
                self.features.insert("for-iter");
                ("for v in xs.iter() {", "v", "")
            }
            1 => {
                self.features.insert("for-enumerate");
                (
                    "for (i, v) in xs.iter().enumerate() {",
                    "v",
                    " * (i as f64 + 0.5)",
                )
            }
            2 => {
                self.features.insert("for-ref-pattern");
                ("for &v in xs {", "v", "")
            }
            _ => {
                self.features.insert("for-slice");
                ("for v in xs {", "v", "")
            }
        };
        let extra = vec![(v.to_owned(), 2.0), (format!("{s}.tanh()"), 1.0)];
        let (e, b) = self.expr(3, &extra);
        self.line(1, &format!("let mut {s}: f64 = 0.0;"));
        self.line(1, head);
        if self.rng.chance(0.5) {
            self.line(2, &format!("{s} += ({e}){factor};"));
            self.line(1, "}");
            self.define(s, 3.0 * LEN as f64 * b);
        } else {
            self.line(2, &format!("{s} = {s} * 0.5 + ({e}){factor};"));
            self.line(1, "}");
            self.define(s, 6.0 * b);
        }
    }

    /// `let mut arr: [f64; 3] = [0.0; 3]; arr[i] = ..; arr[k] += ..;` then reads, or
    /// `let arr = [e0, e1, e2];` then `arr.iter().sum()`.
    fn local_array(&mut self) {
        self.features.insert("local-array");
        let arr = self.fresh("arr");
        let s = self.fresh("s");
        if self.rng.chance(0.6) {
            self.features.insert("array-index-write");
            let extra = vec![("xs[i]".to_owned(), 2.0)];
            let (e, b) = self.expr(3, &extra);
            // Typed: with all-literal elements the array would be of an
            // ambiguous `{float}`, a method of which plain Rust rejects
            // (finding 017).
            if self.rng.chance(0.3) {
                self.features.insert("array-from-fn");
                self.line(
                    1,
                    &format!("let mut {arr}: [f64; {LEN}] = std::array::from_fn(|i| {e});"),
                );
            } else {
                self.line(1, &format!("let mut {arr}: [f64; {LEN}] = [0.0; {LEN}];"));
                self.line(1, &format!("for i in 0..{LEN} {{"));
                self.line(2, &format!("{arr}[i] = {e};"));
                self.line(1, "}");
            }
            let b = if self.rng.chance(0.7) {
                self.iter_mut_update(&arr, b)
            } else {
                b
            };
            let k = self.rng.below(LEN);
            let (u, bu) = self.expr(2, &[]);
            let op = self.rng.pick(&["+=", "-="]);
            self.line(1, &format!("{arr}[{k}] {op} {u};"));
            let j = self.rng.below(LEN);
            let c = self.rng.pick(&LITS);
            self.line(
                1,
                &format!(
                    "let {s} = {arr}[{j}] * {c:?} + {arr}[{}] - {arr}[{k}];",
                    (j + 1) % LEN
                ),
            );
            self.define(s, (b + bu) * (2.0 + c.abs()));
        } else {
            let mut elems = Vec::new();
            let mut bound = 0.0;
            for _ in 0..LEN {
                let (e, b) = self.expr(2, &[]);
                elems.push(e);
                bound += b;
            }
            self.line(1, &format!("let {arr} = [{}];", elems.join(", ")));
            self.line(1, &format!("let {s}: f64 = {arr}.iter().sum();"));
            self.define(s, bound);
        }
    }

    /// The elements of a local array or `Vec` (each within `b`) updated in
    /// place through `iter_mut()`: alone, enumerated, zipped with `xs`, or
    /// by `for_each`, reading the old element (`(*v)`) and `xs`. The new
    /// bound.
    fn iter_mut_update(&mut self, arr: &str, b: f64) -> f64 {
        self.features.insert("iter-mut");
        let v = self.fresh("v");
        let elem = format!("(*{v})");
        let op = self.rng.pick(&["=", "+=", "*="]);
        let combine = |b: f64, e: f64| match op {
            "=" => e,
            "+=" => b + e,
            _ => b * e,
        };
        match self.rng.below(4) {
            0 => {
                let (e, be) = self.expr(2, &[(elem, b)]);
                self.line(1, &format!("for {v} in {arr}.iter_mut() {{"));
                self.line(2, &format!("*{v} {op} {e};"));
                self.line(1, "}");
                combine(b, be)
            }
            1 => {
                let i = self.fresh("i");
                let (e, be) = self.expr(2, &[(elem, b), (format!("xs[{i}]"), 2.0)]);
                self.line(
                    1,
                    &format!("for ({i}, {v}) in {arr}.iter_mut().enumerate() {{"),
                );
                self.line(2, &format!("*{v} {op} {e};"));
                self.line(1, "}");
                combine(b, be)
            }
            2 => {
                let x = self.fresh("x");
                let (e, be) = self.expr(2, &[(elem, b), (x.clone(), 2.0)]);
                let (pair, chain) = if self.rng.chance(0.5) {
                    (
                        format!("({v}, &{x})"),
                        format!("{arr}.iter_mut().zip(xs.iter())"),
                    )
                } else {
                    (
                        format!("(&{x}, {v})"),
                        format!("xs.iter().zip({arr}.iter_mut()).rev()"),
                    )
                };
                self.line(1, &format!("for {pair} in {chain} {{"));
                self.line(2, &format!("*{v} {op} {e};"));
                self.line(1, "}");
                combine(b, be)
            }
            _ => {
                let (e, be) = self.expr(2, &[(elem, b)]);
                self.line(
                    1,
                    &format!("{arr}.iter_mut().for_each(|{v}| *{v} {op} {e});"),
                );
                combine(b, be)
            }
        }
    }

    /// `let w: Vec<f64> = xs.iter().map(|v| ..).collect();` then reads.
    fn collect(&mut self) {
        self.features.insert("collect");
        let w = self.fresh("w");
        let s = self.fresh("s");
        // `|&v|` and not literals only: the items are `f64` (`|v| v`
        // would collect `&f64`s; `|v| 0.5` floats of no known type).
        let v = vec![("v".to_owned(), 2.0)];
        let (e, b) = self.typed_expr(3, &v);
        self.line(
            1,
            &format!("let {w}: Vec<f64> = xs.iter().map(|&v| {e}).collect();"),
        );
        let (k, j) = (self.rng.below(LEN), self.rng.below(LEN));
        self.line(
            1,
            &format!("let {s} = {w}[{k}] - {w}[{j}].sin() * {w}.len() as f64;"),
        );
        self.define(s, b + LEN as f64);
    }

    /// `vec![0.0; xs.len()]` or `Vec::new()`, index writes, `push`, reads.
    /// Typed `Vec<f64>`: every element written may be a literal, and a
    /// `Vec<{float}>`'s `w[1].tanh()` is E0689 in plain Rust too.
    fn vec_local(&mut self) {
        self.features.insert("vec-local");
        self.features.insert("vec-push");
        let w = self.fresh("w");
        let s = self.fresh("s");
        let extra = vec![("xs[i]".to_owned(), 2.0)];
        let (e, b) = self.expr(3, &extra);
        if self.rng.chance(0.5) {
            self.line(1, &format!("let mut {w}: Vec<f64> = vec![0.0; xs.len()];"));
            self.line(1, "for i in 0..xs.len() {");
            self.line(2, &format!("{w}[i] = {e};"));
        } else {
            self.line(1, &format!("let mut {w}: Vec<f64> = Vec::new();"));
            self.line(1, "for i in 0..xs.len() {");
            self.line(2, &format!("{w}.push({e});"));
        }
        self.line(1, "}");
        let b = if self.rng.chance(0.6) {
            self.iter_mut_update(&w, b)
        } else {
            b
        };
        let (p, bp) = self.expr(2, &[]);
        self.line(1, &format!("{w}.push({p});"));
        let (u, _) = self.receiver(2, &[]);
        let k = self.rng.below(LEN + 1);
        self.line(1, &format!("{w}[{k}] *= {u}.tanh();"));
        self.line(
            1,
            &format!("let {s} = {w}[0] + {w}[{w}.len() - 1] * {w}[1].tanh();"),
        );
        self.define(s, b.max(bp) * 2.0);
    }

    /// `let s = self.gN(e);`, the struct's other method.
    fn method_call(&mut self) {
        self.features.insert("method-call");
        let s = self.fresh("s");
        let (e, _) = self.expr(2, &[]);
        let callee = self.callee.clone();
        self.line(1, &format!("let {s} = self.{callee}({e});"));
        self.define(s, CAP);
    }

    /// `let (a, b) = (e1, e2);` or `let t = (e1, e2);` read as `t.0`, `t.1`.
    fn tuple(&mut self) {
        self.features.insert("tuple");
        let (e1, b1) = self.typed_expr(3, &[]);
        let (e2, b2) = self.typed_expr(3, &[]);
        if self.rng.chance(0.5) {
            let (a, b) = (self.fresh("s"), self.fresh("s"));
            self.line(1, &format!("let ({a}, {b}) = ({e1}, {e2});"));
            self.define(a, b1);
            self.define(b, b2);
        } else {
            let t = self.fresh("t");
            let s = self.fresh("s");
            self.line(1, &format!("let {t} = ({e1}, {e2});"));
            let r = if b2 > CAP {
                format!("{t}.1.tanh()")
            } else {
                format!("{t}.1")
            };
            self.line(1, &format!("let {s} = {t}.0 * {r};"));
            self.define(s, b1 * b2.min(CAP));
        }
    }

    /// Reads and (by `mut` value) writes of the array argument `q`.
    fn array_arg(&mut self) {
        let Some(pass) = self.array else { return };
        self.features.insert("array-arg");
        if pass == ArrayPass::MutValue {
            self.features.insert("array-arg-write");
            let k = self.rng.below(LEN);
            let (e, _) = self.expr(2, &[]);
            self.line(1, &format!("q[{k}] = q[{k}] * 0.5 + {e};"));
        }
        let s = self.fresh("s");
        if pass != ArrayPass::Ref && self.rng.chance(0.5) {
            self.features.insert("array-arg-iter");
            let v = vec![("v".to_owned(), 2.0)];
            let (e, b) = self.expr(2, &v);
            self.line(1, &format!("let {s} = q.iter().map(|v| {e}).sum::<f64>();"));
            self.define(s, LEN as f64 * b);
        } else {
            let (j, k) = (self.rng.below(LEN), self.rng.below(LEN));
            self.line(
                1,
                &format!("let {s} = q[{j}] * q[{k}].tanh() + q[{}];", (j + 2) % LEN),
            );
            self.define(s, 2.0 * CAP);
        }
    }

    /// The result: every scalar local contributes.
    fn scalar_result(&mut self) -> String {
        let (e, _) = self.expr(2, &[]);
        let mut terms = vec![e];
        let locals = self.locals.clone();
        for (k, (l, _)) in locals.iter().enumerate() {
            let c = LITS[k % LITS.len()];
            terms.push(format!("{l} * {}", self.num(c)));
        }
        terms.join(" + ")
    }
}

/// Program `index`, drawn from `rng`: see the module docs.
/// A shaped program's entry: an `f64` program that no other program calls
/// (so it has no parameters to draw calls from, and no dependencies).
pub(super) fn shaped_program(
    name: String,
    index: usize,
    source: String,
    code: String,
    features: BTreeSet<&'static str>,
) -> Program {
    let sig = Sig {
        name,
        fl: Fl::F64,
        params: Vec::new(),
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
        features: features.into_iter().collect(),
    }
}

/// A `fields` program whose struct local is shadowed by `let` (class
/// `shadowed-struct`).
pub(super) fn gen_shadowed_struct(index: usize, rng: &mut Rng) -> Program {
    // A function taking a `Tangent` struct cannot be named `f32`/`f64`.
    if matches!(index, 32 | 64) {
        return gen_shaped(index, rng, false);
    }
    fields::gen_fields_with(index, rng, true)
}

/// `consts`: the class of `const`/`static` items (`build/classes.rs`),
/// here in the programs checked through `jvp` and `hessian` (a generic
/// function, a struct-taking one or a matrix one is a `hessian` one).
pub(super) fn gen_shaped(index: usize, rng: &mut Rng, consts: bool) -> Program {
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    let (kind, ret) = match rng.weighted(&[30, 14, 10, 14, 8, 36, 12]) {
        3 | 5 | 6 if consts => (Kind::Hessian, Ret::Scalar),
        0 => (Kind::Full, Ret::Scalar),
        1 => {
            let n = rng.range(2, 3) as usize;
            let ret = match rng.below(3) {
                0 => Ret::Vec(n),
                1 => Ret::Array(n),
                _ => Ret::Tuple(n),
            };
            (Kind::Full, ret)
        }
        2 => (Kind::Hessian, Ret::Scalar),
        3 => (Kind::Generic, Ret::Scalar),
        4 => (Kind::Method, Ret::Scalar),
        // A function taking a `Tangent` struct cannot be named like a
        // primitive type (an error): `f32` and `f64` draw a plain one.
        5 if !matches!(index, 32 | 64) => return fields::gen_fields(index, rng),
        5 => (Kind::Full, Ret::Scalar),
        _ => return matrix_hessian::gen_matrix_hessian(index, rng),
    };
    let method = kind == Kind::Method;
    let jvp = kind == Kind::Full && rng.chance(0.5)
        || kind == Kind::Hessian && rng.chance(0.5)
        || kind == Kind::Generic && rng.chance(0.6);
    let n_scalars = rng.range(1, 2) as usize;
    let has_ys = !matches!(kind, Kind::Generic | Kind::Method) && rng.chance(0.5);
    let array = (kind == Kind::Full && rng.chance(0.4)).then(|| match rng.below(3) {
        0 => ArrayPass::Value,
        1 => ArrayPass::MutValue,
        _ => ArrayPass::Ref,
    });
    let mut vars: Vec<(String, f64)> = (0..n_scalars).map(|i| (format!("a{i}"), 2.0)).collect();
    if method {
        vars.extend(
            ["self.w0", "self.w1", "self.c"]
                .iter()
                .map(|f| ((*f).to_owned(), 2.0)),
        );
    }
    let mut b = Body {
        has_ys,
        array,
        ..Body::new(rng, kind, vars, format!("g{index}"))
    };
    b.features.insert("shaped");
    let mut items = String::new();
    if consts {
        b.features.insert(super::Class::Consts.tag());
        b.features.insert("const-shaped");
        let k = b.rng.pick(&LITS);
        let w: Vec<f64> = (0..3).map(|_| b.rng.pick(&LITS)).collect();
        let kb = b.rng.pick(&LITS);
        let _ = writeln!(items, "const C{index}_K: f64 = {k:?};");
        let _ = writeln!(
            items,
            "static C{index}_W: [f64; 3] = [{:?}, {:?}, {:?}];",
            w[0], w[1], w[2]
        );
        b.line(1, &format!("const KB: f64 = -{kb:?};"));
        b.line(1, "use std::f64::consts::FRAC_PI_4;");
        let wb = w.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        b.vars.extend([
            (format!("C{index}_K"), k),
            (format!("C{index}_W[{}]", b.rng.below(3)), wb),
            ("KB".to_owned(), kb),
            ("FRAC_PI_4".to_owned(), 0.8),
            ("std::f64::consts::LN_2".to_owned(), 0.7),
        ]);
    }
    if b.array.is_some() {
        b.array_arg();
    }
    let n_stmts = b.rng.range(2, 5);
    for _ in 0..n_stmts {
        b.stmt();
    }
    let result = match ret {
        Ret::Scalar => b.scalar_result(),
        _ => {
            let n = match ret {
                Ret::Vec(n) | Ret::Array(n) | Ret::Tuple(n) => n,
                Ret::Scalar => unreachable!(),
            };
            let outs: Vec<String> = (0..n).map(|_| b.scalar_result()).collect();
            match ret {
                Ret::Vec(_) => format!("vec![{}]", outs.join(", ")),
                Ret::Array(_) => format!("[{}]", outs.join(", ")),
                _ => format!("({})", outs.join(", ")),
            }
        }
    };
    let generic = kind == Kind::Generic;
    let scalar_ty = if generic { "T" } else { "f64" };
    let mut params: Vec<String> = (0..n_scalars)
        .map(|i| format!("a{i}: {scalar_ty}"))
        .collect();
    params.push(format!("xs: &[{scalar_ty}]"));
    if has_ys {
        params.push("ys: &[f64]".into());
    }
    match array {
        Some(ArrayPass::Value) => params.push(format!("q: [f64; {LEN}]")),
        Some(ArrayPass::MutValue) => params.push(format!("mut q: [f64; {LEN}]")),
        Some(ArrayPass::Ref) => params.push(format!("q: &[f64; {LEN}]")),
        None => {}
    }
    let attr = match (jvp, kind) {
        (true, Kind::Hessian) => "#[differentiable(jvp, hessian)]",
        (false, Kind::Hessian) => "#[differentiable(hessian)]",
        (true, _) => "#[differentiable(jvp)]",
        (false, _) => "#[differentiable]",
    };
    let head = if generic {
        format!("fn {name}<T: autograd::num_traits::Float>")
    } else {
        format!("fn {name}")
    };
    let ret_ty = if generic { "T".to_owned() } else { ret.ty() };
    let source = if method {
        // The struct, and the program as its method beside the method it
        // calls (README: struct-taking functions are called from their
        // `impl` only).
        let vars = ["self.w0", "self.w1", "x"]
            .iter()
            .map(|v| ((*v).to_owned(), 2.0))
            .collect();
        let mut g = Body::new(b.rng, kind, vars, String::new());
        let (callee_body, bound) = g.expr(3, &[]);
        let callee_body = if bound > CAP {
            format!("({callee_body}).tanh()")
        } else {
            callee_body
        };
        let body: String = b.out.lines().map(|l| format!("    {l}\n")).collect();
        format!(
            "{items}#[derive(Clone, autograd::Tangent)]\nstruct P{index} {{\n    w0: f64,\n    w1: f64,\n    #[constant]\n    c: f64,\n}}\n\n#[differentiable]\nimpl P{index} {{\n    #[differentiable]\n    fn g{index}(&self, x: f64) -> f64 {{\n        {callee_body}\n    }}\n\n    #[differentiable]\n    fn {name}(&self, {}) -> f64 {{\n{body}        {result}\n    }}\n}}\n",
            params.join(", ")
        )
    } else {
        format!(
            "{items}{attr}\n{head}({}) -> {ret_ty} {{\n{}    {result}\n}}\n",
            params.join(", "),
            b.out
        )
    };

    let mut features = b.features;
    match (kind, ret) {
        (Kind::Hessian, _) => {
            features.insert("hessian");
        }
        (Kind::Generic, _) => {
            features.insert("generic");
        }
        (Kind::Method, _) => {
            features.insert("tangent-struct-method");
        }
        (_, Ret::Scalar) => {}
        (_, Ret::Vec(_)) => {
            features.insert("vec-result");
        }
        (_, Ret::Array(_)) => {
            features.insert("array-result");
        }
        (_, Ret::Tuple(_)) => {
            features.insert("tuple-result");
        }
    }
    if jvp {
        features.insert("jvp");
        if kind == Kind::Generic {
            features.insert("generic-jvp");
        }
    }
    let code = wrappers(
        &name,
        &upper,
        method.then(|| format!("P{index}")).as_deref(),
        n_scalars,
        has_ys,
        array,
        ret,
        kind,
        jvp,
        &features,
    );
    shaped_program(name, index, source, code, features)
}

/// The flat wrappers and the table entry (see `fuzz_programs::Entry`).
#[allow(clippy::too_many_arguments)]
fn wrappers(
    name: &str,
    upper: &str,
    receiver: Option<&str>,
    n_scalars: usize,
    has_ys: bool,
    array: Option<ArrayPass>,
    ret: Ret,
    kind: Kind,
    jvp: bool,
    features: &BTreeSet<&'static str>,
) -> String {
    // The flat layout: the receiver's fields, scalars, xs, ys, q, and the
    // receiver's constant field.
    let mut prelude = String::new();
    let mut args = Vec::new();
    let mut tangents = Vec::new();
    let mut inputs = Vec::new();
    let mut adjoints = Vec::new();
    let mut collect = String::new();
    // A generic function's arguments and adjoints at `f32`.
    let (mut prelude32, mut collect32) = (String::new(), String::new());
    // Its tangents at `f32`, bound in `tangents32` and passed by name.
    let mut tangents32 = String::new();
    let mut tangent_names32: Vec<String> = Vec::new();
    let mut k = 0;
    if let Some(s) = receiver {
        let last = 2 + n_scalars + LEN;
        let _ = writeln!(
            prelude,
            "    let p = {s} {{ w0: v[0], w1: v[1], c: v[{last}] }};"
        );
        inputs.extend([
            "Input::Scalar(\"p.w0\")".to_owned(),
            "Input::Scalar(\"p.w1\")".to_owned(),
        ]);
        adjoints.push("d_p".to_owned());
        collect.push_str("    g.push(d_p.w0);\n    g.push(d_p.w1);\n");
        k = 2;
    }
    for i in 0..n_scalars {
        let _ = writeln!(prelude, "    let a{i} = v[{k}];");
        let _ = writeln!(prelude32, "    let a{i} = v[{k}] as f32;");
        let _ = writeln!(collect32, "    g.push(f64::from(d{i}));");
        let _ = writeln!(tangents32, "    let t{i} = t[{k}] as f32;");
        tangent_names32.push(format!("t{i}"));
        args.push(format!("a{i}"));
        tangents.push(format!("t[{k}]"));
        inputs.push(format!("Input::Scalar(\"a{i}\")"));
        adjoints.push(format!("d{i}"));
        let _ = writeln!(collect, "    g.push(d{i});");
        k += 1;
    }
    let slices: &[&str] = if has_ys { &["xs", "ys"] } else { &["xs"] };
    for s in slices {
        let _ = writeln!(prelude, "    let {s} = &v[{k}..{}];", k + LEN);
        let _ = writeln!(
            prelude32,
            "    let {s}: &[f32] = &v[{k}..{}].iter().map(|&t| t as f32).collect::<Vec<f32>>();",
            k + LEN
        );
        let _ = writeln!(
            collect32,
            "    g.extend(d_{s}.iter().map(|&t| f64::from(t)));"
        );
        let _ = writeln!(
            tangents32,
            "    let t_{s}: Vec<f32> = t[{k}..{}].iter().map(|&t| t as f32).collect();",
            k + LEN
        );
        tangent_names32.push(format!("&t_{s}"));
        args.push((*s).to_owned());
        tangents.push(format!("&t[{k}..{}]", k + LEN));
        inputs.push(format!("Input::Slice(\"{s}\", {LEN})"));
        adjoints.push(format!("d_{s}"));
        let _ = writeln!(collect, "    g.extend_from_slice(&d_{s});");
        k += LEN;
    }
    if let Some(pass) = array {
        let elems: Vec<String> = (k..k + LEN).map(|j| format!("v[{j}]")).collect();
        let _ = writeln!(prelude, "    let q = [{}];", elems.join(", "));
        args.push(if pass == ArrayPass::Ref { "&q" } else { "q" }.to_owned());
        let telems: Vec<String> = (k..k + LEN).map(|j| format!("t[{j}]")).collect();
        tangents.push(format!("&[{}]", telems.join(", ")));
        inputs.push(format!("Input::Slice(\"q\", {LEN})"));
        adjoints.push("d_q".to_owned());
        let _ = writeln!(collect, "    g.extend_from_slice(&d_q);");
    }
    if receiver.is_some() {
        inputs.push("Input::Constant(\"p.c\")".to_owned());
    }
    let args = args.join(", ");
    let tangents = tangents.join(", ");
    // `NAME{suffix}(args)`, or for a method `p.NAME(args)` and
    // `S::NAME{suffix}(&p, args)`.
    let call = |suffix: &str, extra: &str| match receiver {
        Some(_) if suffix.is_empty() => format!("p.{name}({args}{extra})"),
        Some(s) => format!("{s}::{name}{suffix}(&p, {args}{extra})"),
        None => format!("{name}{suffix}({args}{extra})"),
    };
    let adj = format!("({},)", adjoints.join(", "));
    let mut code = String::new();
    let weigh = |x: &str| format!("fuzz_programs::weigh(&{})", ret.to_vec(x));
    let value = if ret == Ret::Scalar {
        "value".to_owned()
    } else {
        weigh("value")
    };
    let _ = write!(
        code,
        "fn primal_{name}(v: &[f64]) -> f64 {{\n{prelude}    {}\n}}\n\n",
        if ret == Ret::Scalar {
            call("", "")
        } else {
            weigh(&call("", ""))
        }
    );
    for (wrapper, sig, s) in [("grad", "", "1.0"), ("vjp", ", seed: f64", "seed")] {
        let _ = write!(
            code,
            "fn {wrapper}_{name}(v: &[f64]{sig}) -> (f64, Vec<f64>) {{\n{prelude}    let (value, pullback) = {};\n    let {adj} = pullback({});\n    let mut g = Vec::new();\n{collect}    ({value}, g)\n}}\n\n",
            call("_vjp", ""),
            ret.seed(s)
        );
    }
    let jvp_fn = if jvp {
        let _ = write!(
            code,
            "fn jvp_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n{prelude}    let (value, tangent) = {};\n    ({value}, {})\n}}\n\n",
            call("_jvp", &format!(", {tangents}")),
            if ret == Ret::Scalar {
                "tangent".to_owned()
            } else {
                weigh("tangent")
            }
        );
        format!("Some(jvp_{name})")
    } else {
        "None".to_owned()
    };
    let hvp_fn = if kind == Kind::Hessian {
        let hs: Vec<String> = adjoints.iter().map(|d| format!("h{d}")).collect();
        let hcollect = collect.replace("(d", "(hd").replace("(&d", "(&hd");
        let _ = write!(
            code,
            "fn hvp_{name}(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {{\n{prelude}    let (value, {}, {}) = {};\n    let mut g = Vec::new();\n{collect}    let grad = std::mem::take(&mut g);\n{hcollect}    (value, grad, g)\n}}\n\n",
            adjoints.join(", "),
            hs.join(", "),
            call("_hvp", &format!(", {tangents}"))
        );
        format!("Some(hvp_{name})")
    } else {
        "None".to_owned()
    };
    let hessian_fn = if kind == Kind::Hessian {
        let _ = write!(
            code,
            "fn hessian_{name}(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, g, h) = {};\n    (value, g.iter().copied().collect(), (0..h.nrows()).map(|r| h.row(r).iter().copied().collect()).collect())\n}}\n\n",
            call("_hessian", "")
        );
        format!("Some(hessian_{name})")
    } else {
        "None".to_owned()
    };
    let (outputs_fn, jacobian_fn) = if ret == Ret::Scalar {
        ("None".to_owned(), "None".to_owned())
    } else {
        let _ = write!(
            code,
            "fn outputs_{name}(v: &[f64]) -> Vec<f64> {{\n{prelude}    {}\n}}\n\n",
            ret.to_vec(&call("", ""))
        );
        let _ = write!(
            code,
            "fn jacobian_{name}(v: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, j) = {};\n    ({}, (0..j.nrows()).map(|r| j.row(r).iter().copied().collect()).collect())\n}}\n\n",
            call("_jacobian", ""),
            ret.to_vec("value")
        );
        (
            format!("Some(outputs_{name})"),
            format!("Some(jacobian_{name})"),
        )
    };
    let f32_fn = if kind == Kind::Generic {
        let _ = write!(
            code,
            "fn grad_f32_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n{prelude32}    let (value, {}) = {name}_grad({args});\n    let mut g = Vec::new();\n{collect32}    (f64::from(value), g)\n}}\n\n",
            adjoints.join(", ")
        );
        format!("Some(grad_f32_{name})")
    } else {
        "None".to_owned()
    };
    let jvp_f32_fn = if kind == Kind::Generic && jvp {
        let _ = write!(
            code,
            "fn jvp_f32_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n{prelude32}{}    let (value, tangent) = {name}_jvp({args}, {});\n    (f64::from(value), f64::from(tangent))\n}}\n\n",
            tangents32,
            tangent_names32.join(", ")
        );
        format!("Some(jvp_f32_{name})")
    } else {
        "None".to_owned()
    };
    let features: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "// No mirror: the dynamic graph has no iterator chains, arrays, `Vec`s,\n// tuples or generic functions; central differences check this program.\nconst ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[{}],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: None,\n    jvp: {jvp_fn},\n    hvp: {hvp_fn},\n    hessian: {hessian_fn},\n    outputs: {outputs_fn},\n    jacobian: {jacobian_fn},\n    grad_f32: {f32_fn},\n    jvp_f32: {jvp_f32_fn},\n}};\n\n",
        inputs.join(", "),
        features.join(" ")
    );
    code
}
