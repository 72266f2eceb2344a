//! The classes of vector mode and of lengths (see the module docs of
//! `classes.rs`): `lanes`, programs of 8 to 24 inputs whose `NAME_hessian`
//! and `NAME_jacobian` sweep eight lanes at once, also through calls; and
//! `const-len`, functions generic over a length.
//!
//! Each program writes its helpers into the same source. `lanes` programs
//! branch on their inputs, so they have a mirror, written next to the
//! source op by op; `const-len` programs are smooth (their branches are on
//! loop indices) and are checked against central differences only.

use super::{Class, Param, Program, Rng, Sig};
use crate::ast::lit;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// A value: its source expression, the mirror's `V` holding it (empty
/// when there is no mirror) and a bound on its magnitude.
#[derive(Clone)]
struct X {
    s: String,
    m: String,
    b: f64,
}

/// `fuzz_programs::weights`, which weigh a vector result into the entry's
/// number.
const WEIGHTS: [f64; 6] = [0.75, -0.5, 1.25, -1.0, 0.5, 1.5];

/// Past this bound a value read as a leaf is squashed through `tanh`.
const CAP: f64 = 4.0;

/// Writes a body and its mirror side by side.
struct Em<'a> {
    rng: &'a mut Rng,
    src: String,
    mir: String,
    /// The mirror's temporaries, numbered.
    t: usize,
    /// Locals, numbered.
    locals: usize,
    /// Whether a mirror is written.
    mirror: bool,
    /// Generic over the scalar `T`: literals are `T::from(..)`.
    generic: bool,
    /// Indentation, in units of four spaces.
    depth: usize,
    features: BTreeSet<&'static str>,
}

impl Em<'_> {
    fn pad(&self) -> String {
        "    ".repeat(self.depth)
    }
    fn line(&mut self, s: &str, m: &str) {
        let pad = self.pad();
        let _ = writeln!(self.src, "{pad}{s}");
        if self.mirror && !m.is_empty() {
            let _ = writeln!(self.mir, "{pad}{m}");
        }
    }
    fn open(&mut self, s: &str, m: &str) {
        self.line(s, m);
        self.depth += 1;
    }
    fn close(&mut self) {
        self.depth -= 1;
        self.line("}", "}");
    }
    fn temp(&mut self, expr: String) -> String {
        if !self.mirror {
            return String::new();
        }
        self.t += 1;
        let t = format!("t{}", self.t);
        let pad = self.pad();
        let _ = writeln!(self.mir, "{pad}let {t} = {expr};");
        t
    }
    fn local(&mut self, prefix: &str) -> String {
        self.locals += 1;
        format!("{prefix}{}", self.locals)
    }
    fn k(&mut self, v: f64) -> X {
        let s = if self.generic {
            format!("T::from({}).unwrap()", lit(v))
        } else {
            lit(v)
        };
        let m = self.temp(format!("cx.k({})", lit(v)));
        X { s, m, b: v.abs() }
    }
    fn bin(&mut self, op: char, a: &X, b: &X) -> X {
        let name = match op {
            '+' => "add",
            '-' => "sub",
            '*' => "mul",
            _ => "div",
        };
        let m = self.temp(format!("cx.{name}({}, {})", a.m, b.m));
        let bound = match op {
            '+' | '-' => a.b + b.b,
            '*' => a.b * b.b,
            // Divisors are built at least 1.
            _ => a.b,
        };
        let wrap = |x: &X| {
            if x.s.contains(' ') {
                format!("({})", x.s)
            } else {
                x.s.clone()
            }
        };
        // Left to right, as the mirror computes: `a + b - c` needs none.
        let rhs = wrap(b);
        let lhs = if op == '+' || op == '-' {
            a.s.clone()
        } else {
            wrap(a)
        };
        X {
            s: format!("{lhs} {op} {rhs}"),
            m,
            b: bound,
        }
    }
    fn method(&mut self, f: &str, a: &X) -> X {
        let m = self.temp(format!("cx.{f}({})", a.m));
        let s = if a
            .s
            .chars()
            .all(|c| c.is_alphanumeric() || "_[]".contains(c))
        {
            format!("{}.{f}()", a.s)
        } else {
            format!("({}).{f}()", a.s)
        };
        let b = match f {
            "sin" | "cos" | "tanh" => 1.0,
            "exp" => a.b.exp(),
            "sqrt" => a.b.sqrt(),
            "ln" => a.b.ln().abs().max(1.0),
            _ => a.b,
        };
        X { s, m, b }
    }
    fn powi(&mut self, a: &X, n: i32) -> X {
        let m = self.temp(format!("cx.powi({}, {n})", a.m));
        X {
            s: format!("({}).powi({n})", a.s),
            m,
            b: a.b.powi(n),
        }
    }
    /// A leaf as read: squashed when its bound is past [`CAP`].
    fn read(&mut self, x: &X) -> X {
        if x.b <= CAP {
            return x.clone();
        }
        let c = self.k(2.0 / x.b);
        let scaled = self.bin('*', x, &c);
        let mut r = self.method("tanh", &scaled);
        r.b = 1.0;
        r
    }
    fn lit_from(&mut self, xs: &[f64]) -> X {
        let v = self.rng.pick(xs);
        self.k(v)
    }
    /// A smooth term of the leaves (never a kink).
    fn term(&mut self, leaves: &[X]) -> X {
        // The first leaf (the element of the loop) most often.
        let a = if self.rng.chance(0.6) {
            leaves[0].clone()
        } else {
            self.rng.pick(leaves)
        };
        let a = self.read(&a);
        let b = self.rng.pick(leaves);
        let b = self.read(&b);
        const CS: [f64; 6] = [0.25, 0.5, 0.75, -0.5, 1.25, -0.25];
        match self.rng.below(10) {
            0 => {
                let ab = self.bin('*', &a, &b);
                let c = self.lit_from(&CS);
                self.bin('*', &ab, &c)
            }
            1 => {
                let c = self.lit_from(&CS);
                let ac = self.bin('*', &a, &c);
                self.method("sin", &ac)
            }
            2 => {
                let d = self.bin('-', &a, &b);
                let t = self.method("tanh", &d);
                let c = self.lit_from(&CS);
                self.bin('*', &t, &c)
            }
            3 => {
                let aa = self.bin('*', &a, &a);
                let c = self.lit_from(&[0.25, 0.5, -0.25]);
                self.bin('*', &aa, &c)
            }
            4 => {
                let c = self.lit_from(&CS);
                let ac = self.bin('*', &a, &c);
                let co = self.method("cos", &ac);
                self.bin('*', &co, &b)
            }
            5 => {
                let bb = self.bin('*', &b, &b);
                let one = self.k(1.0);
                let d = self.bin('+', &bb, &one);
                self.bin('/', &a, &d)
            }
            6 => {
                let c = self.lit_from(&[0.25, 0.5, -0.5]);
                let ac = self.bin('*', &a, &c);
                self.method("exp", &ac)
            }
            7 => {
                let p = self.powi(&a, 3);
                let c = self.lit_from(&[0.125, -0.125, 0.0625]);
                self.bin('*', &p, &c)
            }
            8 => {
                let aa = self.bin('*', &a, &b);
                let aa = self.bin('*', &aa, &a);
                let h = self.k(0.5);
                let s = self.bin('+', &aa, &h);
                // a²b + 0.5 may be negative: its square plus one instead.
                let ss = self.bin('*', &s, &s);
                let one = self.k(1.0);
                let p = self.bin('+', &ss, &one);
                self.method("sqrt", &p)
            }
            _ => {
                let aa = self.bin('*', &a, &a);
                let one = self.k(1.0);
                let p = self.bin('+', &aa, &one);
                self.method("ln", &p)
            }
        }
    }
    /// `s += t;` (or `s = s + t;` in a generic body).
    fn accumulate(&mut self, s: &str, t: &X) {
        let m = format!("{s} = cx.add({s}, {});", t.m);
        if self.generic {
            self.line(&format!("{s} = {s} + {};", t.s), &m);
        } else {
            self.line(&format!("{s} += {};", t.s), &m);
        }
    }
    fn zero(&self) -> &'static str {
        if self.generic { "T::zero()" } else { "0.0" }
    }
}

fn leaf(s: &str, b: f64) -> X {
    X {
        s: s.to_owned(),
        m: s.to_owned(),
        b,
    }
}

// ---------------------------------------------------------------------------
// `lanes`.

/// A slice the body can loop over: its name, its length and whether it
/// is the argument `xs` (whose length the helpers' loops share).
#[derive(Clone)]
struct Seq {
    name: String,
    len: usize,
    /// Its length as the body writes it (`xs.len()`, `N`, `5`).
    len_expr: String,
}

impl Seq {
    fn new(name: &str, len: usize) -> Seq {
        Seq {
            name: name.to_owned(),
            len,
            len_expr: format!("{name}.len()"),
        }
    }
}

/// `let mut s = 0.0; for i in lo..seq.len() { s += term; }`, a branch on
/// the inputs or on `i` in the body half the time; returns the sum.
fn sum_loop(e: &mut Em, seq: &Seq, scalars: &[X], others: &[Seq]) -> X {
    let s = e.local("s");
    let z = e.zero();
    let mz = e.temp("cx.k(0.0)".into());
    e.line(
        &format!("let mut {s} = {z};"),
        &format!("let mut {s} = {mz};"),
    );
    let stencil = seq.len > 2 && e.rng.chance(0.4);
    let lo = usize::from(stencil);
    let n = &seq.name;
    let len = seq.len_expr.clone();
    let while_loop = e.rng.chance(0.2);
    if while_loop {
        e.features.insert("lanes-while");
        let i = e.local("i");
        e.line(
            &format!("let mut {i} = {lo};"),
            &format!("let mut {i} = {lo};"),
        );
        e.open(
            &format!("while {i} < {len} {{"),
            &format!("while {i} < {len} {{"),
        );
        e.line(&format!("let i = {i};"), &format!("let i = {i};"));
        e.line(&format!("{i} += 1;"), &format!("{i} += 1;"));
    } else {
        e.open(
            &format!("for i in {lo}..{len} {{"),
            &format!("for i in {lo}..{len} {{"),
        );
    }
    let mut leaves = vec![leaf(&format!("{n}[i]"), 2.0)];
    if stencil {
        e.features.insert("lanes-stencil");
        leaves.push(leaf(&format!("{n}[i - 1]"), 2.0));
    }
    for o in others {
        if o.len == seq.len {
            leaves.push(leaf(&format!("{}[i]", o.name), CAP));
        }
    }
    leaves.extend(scalars.iter().cloned());
    let branch = e.rng.below(4);
    let bound = match branch {
        0 if e.mirror => {
            // On the inputs: the mirror records the decision.
            e.features.insert("lanes-branch-data");
            let a = leaves[0].clone();
            let b = e.rng.pick(&leaves[1..]);
            let b = e.read(&b);
            let m = format!("if cx.gt({}, {}) {{", a.m, b.m);
            e.open(&format!("if {} > {} {{", a.s, b.s), &m);
            let t1 = e.term(&leaves);
            e.accumulate(&s, &t1);
            e.depth -= 1;
            e.line("} else {", "} else {");
            e.depth += 1;
            let t2 = e.term(&leaves);
            e.accumulate(&s, &t2);
            e.close();
            t1.b.max(t2.b)
        }
        1 => {
            e.features.insert("lanes-branch-index");
            let k = e.rng.range(2, 3);
            let c = format!("if i % {k} == 0 {{");
            e.open(&c, &c);
            let t1 = e.term(&leaves);
            e.accumulate(&s, &t1);
            e.close();
            let t2 = e.term(&leaves);
            e.accumulate(&s, &t2);
            t1.b + t2.b
        }
        _ => {
            let t = e.term(&leaves);
            e.accumulate(&s, &t);
            t.b
        }
    };
    e.close();
    X {
        s: s.clone(),
        m: s,
        b: bound * seq.len as f64,
    }
}

/// A `Vec` local of `seq`'s length written by a loop (`vec![0.0; n]` and
/// index writes, or `push`).
fn vec_local(e: &mut Em, seq: &Seq, scalars: &[X]) -> Seq {
    let w = e.local("w");
    let n = &seq.name;
    let push = e.rng.chance(0.5);
    if push {
        e.features.insert("lanes-vec-push");
        e.line(
            &format!("let mut {w} = Vec::new();"),
            &format!("let mut {w}: Vec<V> = Vec::new();"),
        );
    } else {
        e.features.insert("lanes-vec-index");
        e.line(
            &format!("let mut {w} = vec![0.0; {n}.len()];"),
            &format!("let mut {w}: Vec<V> = vec![cx.k(0.0); {n}.len()];"),
        );
    }
    e.open(
        &format!("for i in 0..{n}.len() {{"),
        &format!("for i in 0..{n}.len() {{"),
    );
    let mut leaves = vec![leaf(&format!("{n}[i]"), 2.0)];
    leaves.extend(scalars.iter().cloned());
    let t = e.term(&leaves);
    let t = e.read(&t);
    if push {
        e.line(
            &format!("{w}.push({});", t.s),
            &format!("{w}.push({});", t.m),
        );
    } else {
        e.line(&format!("{w}[i] = {};", t.s), &format!("{w}[i] = {};", t.m));
    }
    e.close();
    Seq::new(&w, seq.len)
}

/// A helper `g{index}_{k}(x: &[f64], c: f64) -> f64`: a sum loop, maybe
/// a call of the helper before it.
fn lanes_helper(
    rng: &mut Rng,
    index: usize,
    k: usize,
    attr: &str,
    features: &mut BTreeSet<&'static str>,
) -> (String, String) {
    let mut e = Em {
        rng,
        src: String::new(),
        mir: String::new(),
        t: 0,
        locals: 0,
        mirror: true,
        generic: false,
        depth: 1,
        features: BTreeSet::new(),
    };
    // The helper loops over whatever slice it is passed: its length is
    // not known here, so a bound for 24.
    let seq = Seq::new("x", 24);
    let c = leaf("c", CAP);
    let mut scalars = vec![c];
    if k > 0 && e.rng.chance(0.6) {
        e.features.insert("lanes-helper-calls-helper");
        let h = e.local("h");
        let j = e.rng.below(k);
        let m = e.temp(format!("mirror_g{index}_{j}(cx, x, c)"));
        e.line(
            &format!("let {h} = g{index}_{j}(x, c);"),
            &format!("let {h} = {m};"),
        );
        scalars.push(X {
            s: h.clone(),
            m: h,
            b: 8.0,
        });
    }
    let s = sum_loop(&mut e, &seq, &scalars, &[]);
    let scale = e.k(0.125);
    let r = e.bin('*', &s, &scale);
    let r = e.read(&r);
    features.extend(e.features);
    let source = format!(
        "{attr}\nfn g{index}_{k}(x: &[f64], c: f64) -> f64 {{\n{}    {}\n}}\n\n",
        e.src, r.s
    );
    let mirror = format!(
        "fn mirror_g{index}_{k}(cx: &mut Mirror, x: &[V], c: V) -> V {{\n{}    {}\n}}\n\n",
        e.mir, r.m
    );
    (source, mirror)
}

/// `lanes`: `f(a0: f64, xs: &[f64], [ys: &[f64]])` with 8 to 24 inputs,
/// `#[differentiable(jvp, hessian)]` returning a number, or
/// `#[differentiable(jvp)]` returning a `Vec` or an array (its Jacobian);
/// helpers with `jvp` (and `hessian`) it calls.
pub(crate) fn gen_lanes(index: usize, rng: &mut Rng) -> Program {
    let name = format!("f{index}");
    let mut features: BTreeSet<&'static str> = BTreeSet::new();
    features.insert(Class::Lanes.tag());
    let vector = rng.chance(0.35);
    let n = rng.range(7, 18) as usize;
    let m = if rng.chance(0.5) {
        rng.range(1, 5) as usize
    } else {
        0
    };
    let total = 1 + n + m;
    let n = if total < 8 { n + 8 - total } else { n };
    let attr = if vector {
        features.insert("jvp");
        features.insert("lanes-jacobian");
        "#[differentiable(jvp)]"
    } else {
        features.insert("jvp");
        features.insert("hessian");
        features.insert("lanes-hessian");
        "#[differentiable(jvp, hessian)]"
    };
    let n_helpers = rng.range(1, 2) as usize;
    let (mut helpers, mut mhelpers) = (String::new(), String::new());
    // The helpers of a `hessian` function have `hessian`; of a `jvp` one,
    // `jvp` and sometimes `hessian` as well (all alike: they call each
    // other).
    let hattr = if !vector || rng.chance(0.5) {
        "#[differentiable(jvp, hessian)]"
    } else {
        "#[differentiable(jvp)]"
    };
    for k in 0..n_helpers {
        let (s, mi) = lanes_helper(rng, index, k, hattr, &mut features);
        helpers.push_str(&s);
        mhelpers.push_str(&mi);
    }
    let mut e = Em {
        rng,
        src: String::new(),
        mir: String::new(),
        t: 0,
        locals: 0,
        mirror: true,
        generic: false,
        depth: 1,
        features: BTreeSet::new(),
    };
    let xs = Seq::new("xs", n);
    let ys = (m > 0).then(|| Seq::new("ys", m));
    let mut scalars = vec![leaf("a0", 2.0)];
    let mut seqs: Vec<Seq> = vec![xs.clone()];
    seqs.extend(ys.clone());
    let mut vecs: Vec<Seq> = Vec::new();
    let n_stmts = e.rng.range(3, 6);
    // One statement calls a helper at least.
    let call_at = e.rng.below(n_stmts as usize);
    for at in 0..n_stmts as usize {
        let kind = if at == call_at { 3 } else { e.rng.below(5) };
        match kind {
            0 | 1 => {
                let seq = e.rng.pick(&seqs);
                let others: Vec<Seq> = vecs.clone();
                let s = sum_loop(&mut e, &seq, &scalars, &others);
                scalars.push(s);
            }
            2 => {
                let seq = e.rng.pick(&seqs);
                let w = vec_local(&mut e, &seq, &scalars);
                vecs.push(w.clone());
                seqs.push(w);
            }
            3 => {
                e.features.insert("lanes-call");
                let seq = e.rng.pick(&seqs);
                let k = e.rng.below(n_helpers);
                let c = e.rng.pick(&scalars);
                let c = e.read(&c);
                let h = e.local("h");
                let arg = if seq.name.starts_with('w') {
                    e.features.insert("lanes-call-vec-local");
                    format!("&{}", seq.name)
                } else {
                    seq.name.clone()
                };
                let mt = e.temp(format!("mirror_g{index}_{k}(cx, &{}, {})", seq.name, c.m));
                e.line(
                    &format!("let {h} = g{index}_{k}({arg}, {});", c.s),
                    &format!("let {h} = {mt};"),
                );
                scalars.push(X {
                    s: h.clone(),
                    m: h,
                    b: 8.0,
                });
            }
            _ => {
                // A recurrence over the inputs.
                e.features.insert("lanes-recurrence");
                let r = e.local("r");
                let seq = e.rng.pick(&seqs);
                e.line(&format!("let mut {r} = a0;"), &format!("let mut {r} = a0;"));
                e.open(
                    &format!("for i in 0..{}.len() {{", seq.name),
                    &format!("for i in 0..{}.len() {{", seq.name),
                );
                let rv = leaf(&r, 2.0);
                let th = e.method("tanh", &rv);
                let h = e.k(0.5);
                let a = e.bin('*', &th, &h);
                let xi = leaf(&format!("{}[i]", seq.name), CAP);
                let xi = e.read(&xi);
                let q = e.k(0.25);
                let b = e.bin('*', &xi, &q);
                let sum = e.bin('+', &a, &b);
                e.line(&format!("{r} = {};", sum.s), &format!("{r} = {};", sum.m));
                e.close();
                scalars.push(leaf(&r, 2.0));
            }
        }
    }
    // The result: the last values computed weigh most.
    let result = |e: &mut Em| -> X {
        let a0 = leaf("a0", 2.0);
        let sq = e.bin('*', &a0, &a0);
        let q = e.k(0.25);
        let mut r = e.bin('*', &sq, &q);
        let k = e.rng.range(1, 3) as usize;
        for j in 0..k {
            let pick = if j == 0 {
                scalars[scalars.len() - 1].clone()
            } else {
                e.rng.pick(&scalars)
            };
            let v = e.read(&pick);
            let t = if e.rng.chance(0.5) {
                let c = e.lit_from(&[0.5, -0.75, 1.5]);
                e.bin('*', &v, &c)
            } else {
                let leaves: Vec<X> = vec![v, e.rng.pick(&scalars)];
                e.term(&leaves)
            };
            r = e.bin('+', &r, &t);
        }
        r
    };
    let (ret_ty, tail, mtail, ret) = if vector {
        let k = e.rng.range(2, 4) as usize;
        let outs: Vec<X> = (0..k).map(|_| result(&mut e)).collect();
        let srcs: Vec<String> = outs.iter().map(|x| x.s.clone()).collect();
        // The mirror computes the weighed sum the entry checks.
        let mut acc = e.k(0.0);
        for (j, o) in outs.iter().enumerate() {
            let w = e.k(WEIGHTS[j % WEIGHTS.len()]);
            let t = e.bin('*', &w, o);
            acc = e.bin('+', &acc, &t);
        }
        let weighed = acc.m;
        if e.rng.chance(0.5) {
            features.insert("vec-result");
            (
                "Vec<f64>".to_owned(),
                format!("vec![{}]", srcs.join(", ")),
                weighed,
                Ret::Vec(k),
            )
        } else {
            features.insert("array-result");
            (
                format!("[f64; {k}]"),
                format!("[{}]", srcs.join(", ")),
                weighed,
                Ret::Array(k),
            )
        }
    } else {
        let r = result(&mut e);
        ("f64".to_owned(), r.s, r.m, Ret::Scalar)
    };
    features.extend(std::mem::take(&mut e.features));
    let params = if m > 0 {
        "a0: f64, xs: &[f64], ys: &[f64]"
    } else {
        "a0: f64, xs: &[f64]"
    };
    let source = format!(
        "{helpers}{attr}\nfn {name}({params}) -> {ret_ty} {{\n{}    {tail}\n}}\n",
        e.src
    );
    let mparams = if m > 0 {
        "a0: V, xs: &[V], ys: &[V]"
    } else {
        "a0: V, xs: &[V]"
    };
    let margs = if m > 0 {
        format!("v[0], &v[1..{}], &v[{}..]", 1 + n, 1 + n)
    } else {
        "v[0], &v[1..]".to_owned()
    };
    let mut code = format!(
        "{mhelpers}fn mirror_{name}(cx: &mut Mirror, {mparams}) -> V {{\n{}    {mtail}\n}}\n\n\
         fn graph_{name}(cx: &mut Mirror, v: &[V]) -> V {{\n    mirror_{name}(cx, {margs})\n}}\n\n",
        e.mir
    );
    let mut slices = vec![("xs", n)];
    if m > 0 {
        slices.push(("ys", m));
    }
    code.push_str(&wrappers(
        &name,
        &slices,
        ret,
        !vector,
        Some(format!("Some(graph_{name})")),
    ));
    entry(&mut code, &slices, &features);
    program(index, name, source, code, features)
}

#[derive(Clone, Copy, PartialEq)]
enum Ret {
    Scalar,
    Vec(usize),
    Array(usize),
}

/// The flat wrappers of `f(a0: f64, s1: &[f64], s2: &[f64]..)` (the
/// slices of `slices`), `NAME_jvp` always, `NAME_hvp` and `NAME_hessian`
/// when `hessian`; and the start of the entry, whose inputs
/// [`entry`] writes.
fn wrappers(
    name: &str,
    slices: &[(&str, usize)],
    ret: Ret,
    hessian: bool,
    mirror: Option<String>,
) -> String {
    let mut prelude = "    let a0 = v[0];\n".to_owned();
    let mut tangents = vec!["t[0]".to_owned()];
    let mut args = vec!["a0".to_owned()];
    let mut adjoints = vec!["d0".to_owned()];
    let mut collect = "    g.push(d0);\n".to_owned();
    let mut k = 1;
    for (s, len) in slices {
        let _ = writeln!(prelude, "    let {s} = &v[{k}..{}];", k + len);
        tangents.push(format!("&t[{k}..{}]", k + len));
        args.push((*s).to_owned());
        adjoints.push(format!("d_{s}"));
        let _ = writeln!(collect, "    g.extend_from_slice(&d_{s});");
        k += len;
    }
    let args = args.join(", ");
    let tangents = tangents.join(", ");
    let adj = adjoints.join(", ");
    let (to_vec, seed) = match ret {
        Ret::Scalar => (String::new(), "seed".to_owned()),
        Ret::Vec(k) => (String::new(), format!("fuzz_programs::weights({k}, seed)")),
        Ret::Array(k) => (
            ".to_vec()".to_owned(),
            format!("<[f64; {k}]>::try_from(fuzz_programs::weights({k}, seed)).unwrap()"),
        ),
    };
    let weigh = |x: &str| {
        if ret == Ret::Scalar {
            x.to_owned()
        } else {
            format!("fuzz_programs::weigh(&{x}{to_vec})")
        }
    };
    let mut code = String::new();
    let _ = write!(
        code,
        "fn primal_{name}(v: &[f64]) -> f64 {{\n{prelude}    {}\n}}\n\n",
        weigh(&format!("{name}({args})"))
    );
    let _ = write!(
        code,
        "fn vjp_{name}(v: &[f64], seed: f64) -> (f64, Vec<f64>) {{\n{prelude}    let (value, pullback) = {name}_vjp({args});\n    let ({adj},) = pullback({seed});\n    let mut g = Vec::new();\n{collect}    ({}, g)\n}}\n\n\
         fn grad_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n    vjp_{name}(v, 1.0)\n}}\n\n",
        weigh("value")
    );
    let _ = write!(
        code,
        "fn jvp_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n{prelude}    let (value, tangent) = {name}_jvp({args}, {tangents});\n    ({}, {})\n}}\n\n",
        weigh("value"),
        weigh("tangent")
    );
    let none = || "None".to_owned();
    let (mut hvp, mut hess, mut outputs, mut jac) = (none(), none(), none(), none());
    if hessian {
        let hs: Vec<String> = adjoints.iter().map(|d| format!("h{d}")).collect();
        let hcollect = collect.replace("(d", "(hd").replace("(&d", "(&hd");
        let _ = write!(
            code,
            "fn hvp_{name}(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {{\n{prelude}    let (value, {adj}, {}) = {name}_hvp({args}, {tangents});\n    let mut g = Vec::new();\n{collect}    let grad = std::mem::take(&mut g);\n{hcollect}    (value, grad, g)\n}}\n\n\
             fn hessian_{name}(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, g, h) = {name}_hessian({args});\n    (value, g.iter().copied().collect(), (0..h.nrows()).map(|r| h.row(r).iter().copied().collect()).collect())\n}}\n\n",
            hs.join(", ")
        );
        hvp = format!("Some(hvp_{name})");
        hess = format!("Some(hessian_{name})");
    } else if ret != Ret::Scalar {
        let _ = write!(
            code,
            "fn outputs_{name}(v: &[f64]) -> Vec<f64> {{\n{prelude}    {name}({args}){to_vec}\n}}\n\n\
             fn jacobian_{name}(v: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, j) = {name}_jacobian({args});\n    (value{to_vec}, (0..j.nrows()).map(|r| j.row(r).iter().copied().collect()).collect())\n}}\n\n"
        );
        outputs = format!("Some(outputs_{name})");
        jac = format!("Some(jacobian_{name})");
    }
    let mirror = mirror.unwrap_or_else(|| "None".into());
    let _ = write!(
        code,
        "const ENTRY_{}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{},\n    deps: &[],\n    f32: false,\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: {mirror},\n    jvp: Some(jvp_{name}),\n    hvp: {hvp},\n    hessian: {hess},\n    outputs: {outputs},\n    jacobian: {jac},\n    grad_f32: None,\n    jvp_f32: None,\n",
        name.to_uppercase(),
        name.to_uppercase()
    );
    code
}

/// The entry's inputs and features, and its end.
fn entry(code: &mut String, slices: &[(&str, usize)], features: &BTreeSet<&'static str>) {
    let mut inputs = vec!["Input::Scalar(\"a0\")".to_owned()];
    for (s, len) in slices {
        inputs.push(format!("Input::Slice(\"{s}\", {len})"));
    }
    let feats: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "    inputs: &[{}],\n    features: \"{}\",\n}};\n\n",
        inputs.join(", "),
        feats.join(" ")
    );
}

fn program(
    index: usize,
    name: String,
    source: String,
    code: String,
    features: BTreeSet<&'static str>,
) -> Program {
    let sig = Sig {
        name,
        fl: crate::ast::Fl::F64,
        params: vec![Param::Scalar("a0".into())],
        bound: 0.0,
        matrix: false,
        deps: BTreeSet::new(),
        index,
        stops: false,
        cost: 0.0,
        ret: None,
        // Not called by the other programs.
        shaped: true,
    };
    Program {
        sig,
        source,
        code,
        features: features.into_iter().collect(),
    }
}

// ---------------------------------------------------------------------------
// `const-len`.

/// A length-generic helper's signature: its name, whether it is generic
/// over the scalar (and then whether `T` comes before `N`), whether it
/// takes its array by value, and whether it returns an array.
#[derive(Clone)]
struct LenFn {
    name: String,
    generic: bool,
    t_first: bool,
    by_value: bool,
    array: bool,
}

impl LenFn {
    /// The turbofish for length `len` (`N` or a number) and the
    /// caller's scalar `sty` (`T` or `f64`).
    fn turbofish(&self, len: &str, sty: &str) -> String {
        match (self.generic, self.t_first) {
            (false, _) => format!("::<{len}>"),
            (true, true) => format!("::<{sty}, {len}>"),
            (true, false) => format!("::<{len}, {sty}>"),
        }
    }
}

/// `fn g<const N: usize>(x: &[S; N], c: S) -> S` (a sum over `0..N`,
/// maybe a call of an earlier helper), or `-> [S; N]` element by element.
#[allow(clippy::too_many_arguments)]
fn len_helper(
    rng: &mut Rng,
    index: usize,
    k: usize,
    generic: bool,
    array: bool,
    hessian: bool,
    earlier: &[LenFn],
    features: &mut BTreeSet<&'static str>,
) -> (String, LenFn) {
    let f = LenFn {
        name: format!("g{index}_{k}"),
        generic,
        t_first: rng.chance(0.5),
        by_value: !array && rng.chance(0.3),
        array,
    };
    let mut e = Em {
        rng,
        src: String::new(),
        mir: String::new(),
        t: 0,
        locals: 0,
        mirror: false,
        generic,
        depth: 1,
        features: BTreeSet::new(),
    };
    let sty = if generic { "T" } else { "f64" };
    let mut seq = Seq::new("x", 12);
    seq.len_expr = "N".into();
    let mut scalars = vec![leaf("c", CAP)];
    // A generic body calls generic helpers only.
    // An argument cannot be dereferenced (`*x`): a helper taking its
    // array by reference calls those that do too.
    let callable: Vec<&LenFn> = earlier
        .iter()
        .filter(|g| !g.array && (g.generic || !generic) && (f.by_value || !g.by_value))
        .collect();
    if !callable.is_empty() && e.rng.chance(0.6) {
        let g = callable[e.rng.below(callable.len())].clone();
        e.features.insert("const-len-helper-calls-helper");
        let h = e.local("h");
        let fish = if e.rng.chance(0.5) {
            e.features.insert("const-len-turbofish");
            g.turbofish("N", sty)
        } else {
            String::new()
        };
        let arg = if f.by_value && !g.by_value { "&x" } else { "x" };
        e.line(&format!("let {h} = {}{fish}({arg}, c);", g.name), "");
        scalars.push(leaf(&h, 8.0));
    }
    let (body_result, ret) = if array {
        let y = e.local("y");
        let z = e.zero();
        e.line(&format!("let mut {y} = [{z}; N];"), "");
        e.open("for i in 0..N {", "");
        let mut leaves = vec![leaf("x[i]", 2.0)];
        leaves.extend(scalars.iter().cloned());
        let t = e.term(&leaves);
        let t = e.read(&t);
        e.line(&format!("{y}[i] = {};", t.s), "");
        e.close();
        (y, format!("[{sty}; N]"))
    } else {
        let s = sum_loop(&mut e, &seq, &scalars, &[]);
        let r = if e.rng.chance(0.5) {
            e.features.insert("const-len-n-as-value");
            if generic {
                format!("{} / T::from(N).unwrap()", s.s)
            } else {
                format!("{} / N as f64", s.s)
            }
        } else {
            let c = e.k(0.125);
            let r = e.bin('*', &s, &c);
            e.read(&r).s
        };
        (r, sty.to_owned())
    };
    features.extend(e.features);
    let attr = if array || !hessian {
        "#[differentiable(jvp)]"
    } else {
        "#[differentiable(jvp, hessian)]"
    };
    let generics = match (generic, f.t_first) {
        (false, _) => "<const N: usize>".to_owned(),
        (true, true) => "<T: autograd::num_traits::Float, const N: usize>".to_owned(),
        (true, false) => "<const N: usize, T: autograd::num_traits::Float>".to_owned(),
    };
    let xty = if f.by_value {
        format!("[{sty}; N]")
    } else {
        format!("&[{sty}; N]")
    };
    let source = format!(
        "{attr}\nfn {}{generics}(x: {xty}, c: {sty}) -> {ret} {{\n{}    {body_result}\n}}\n\n",
        f.name, e.src
    );
    (source, f)
}

/// `const-len`: `f<const N: usize>(a0, xs: &[S; N])` (or of a fixed
/// length), generic over the scalar or not, `jvp` and `hessian` or `jvp`
/// alone (then maybe an array result and its Jacobian), calling helpers
/// generic over a length at its length (inferred, or by turbofish), at a
/// local array's and at a fixed one's.
pub(crate) fn gen_const_len(index: usize, rng: &mut Rng) -> Program {
    let name = format!("f{index}");
    let mut features: BTreeSet<&'static str> = BTreeSet::new();
    features.insert(Class::ConstLen.tag());
    let generic = rng.chance(0.4);
    let hessian = rng.chance(0.5);
    let array_result = !hessian && !generic && rng.chance(0.5);
    let fixed = rng.chance(0.2);
    let len = rng.pick(&[2usize, 3, 4, 5, 8, 9, 12]);
    let sty = if generic { "T" } else { "f64" };
    features.insert("jvp");
    if hessian {
        features.insert("hessian");
    }
    if generic {
        features.insert("generic");
        features.insert("generic-jvp");
    }
    features.insert(if fixed {
        "const-len-fixed-caller"
    } else {
        "const-len-generic-caller"
    });
    // Helpers: scalar ones (with `hessian` when the function has it) and,
    // for a `jvp`-only function, one returning an array.
    let mut helpers = String::new();
    let mut fns: Vec<LenFn> = Vec::new();
    let n_helpers = rng.range(1, 3) as usize;
    for k in 0..n_helpers {
        let array = !hessian && !generic && k > 0 && rng.chance(0.5);
        // A generic function's helpers are generic; an `f64` one's may be
        // (instantiated at `f64` by the call).
        // A function generic over its scalar calls no function returning
        // an array (an error): those are the `f64` function's.
        let hgeneric = !array && (generic || rng.chance(0.3));
        if hgeneric && !generic {
            features.insert("const-len-generic-helper-at-f64");
        }
        let (s, f) = len_helper(rng, index, k, hgeneric, array, hessian, &fns, &mut features);
        helpers.push_str(&s);
        fns.push(f);
    }
    let mut e = Em {
        rng,
        src: String::new(),
        mir: String::new(),
        t: 0,
        locals: 0,
        mirror: false,
        generic,
        depth: 1,
        features: BTreeSet::new(),
    };
    let n_expr = if fixed {
        len.to_string()
    } else {
        "N".to_owned()
    };
    let mut xs = Seq::new("xs", len);
    xs.len_expr = if e.rng.chance(0.3) {
        "xs.len()".into()
    } else {
        n_expr.clone()
    };
    let mut arrays: Vec<Seq> = vec![xs];
    let mut scalars = vec![leaf("a0", 2.0)];
    let n_stmts = e.rng.range(3, 5);
    for _ in 0..n_stmts {
        match e.rng.below(4) {
            0 => {
                let seq = e.rng.pick(&arrays);
                let others: Vec<Seq> = arrays[1..].to_vec();
                let s = sum_loop(&mut e, &seq, &scalars, &others);
                scalars.push(s);
            }
            1 => {
                // A local array written by a loop.
                e.features.insert("const-len-local-array");
                let w = e.local("w");
                let z = e.zero();
                e.line(&format!("let mut {w} = [{z}; {n_expr}];"), "");
                e.open(&format!("for i in 0..{n_expr} {{"), "");
                let src = e.rng.pick(&arrays);
                let mut leaves = vec![leaf(&format!("{}[i]", src.name), CAP)];
                leaves.extend(scalars.iter().cloned());
                let t = e.term(&leaves);
                let t = e.read(&t);
                e.line(&format!("{w}[i] = {};", t.s), "");
                e.close();
                let mut seq = Seq::new(&w, len);
                seq.len_expr = n_expr.clone();
                arrays.push(seq);
            }
            _ => {
                let callable: Vec<LenFn> = fns
                    .iter()
                    .filter(|g| g.generic || !generic)
                    .cloned()
                    .collect();
                let g = e.rng.pick(&callable);
                let c = e.rng.pick(&scalars);
                let c = e.read(&c);
                // `*xs` is not read (an argument is not dereferenced): a
                // helper taking an array by value gets a local or literal one.
                let locals: Vec<Seq> = arrays[1..].to_vec();
                let at = if g.by_value && locals.is_empty() {
                    0
                } else {
                    e.rng.below(4)
                };
                let (arg, fish_len) = if at == 0 {
                    // At a fixed length of its own: a literal array.
                    e.features.insert("const-len-call-literal-array");
                    let k = e.rng.range(2, 4) as usize;
                    let elems: Vec<String> = (0..k)
                        .map(|j| match j % 3 {
                            0 => "xs[0]".to_owned(),
                            1 => c.s.clone(),
                            _ => format!("xs[{n_expr} - 1]"),
                        })
                        .collect();
                    let lit_arr = format!("[{}]", elems.join(", "));
                    let arg = if g.by_value {
                        lit_arr
                    } else {
                        format!("&{lit_arr}")
                    };
                    (arg, k.to_string())
                } else {
                    let seq = if g.by_value {
                        e.rng.pick(&locals)
                    } else {
                        e.rng.pick(&arrays)
                    };
                    let arg = match (seq.name == "xs", g.by_value) {
                        (true, _) => "xs".to_owned(),
                        (false, true) => seq.name.clone(),
                        (false, false) => format!("&{}", seq.name),
                    };
                    if seq.name != "xs" {
                        e.features.insert("const-len-call-local-array");
                    }
                    (arg, n_expr.clone())
                };
                let fish = if e.rng.chance(0.4) {
                    e.features.insert("const-len-turbofish");
                    g.turbofish(&fish_len, sty)
                } else {
                    e.features.insert("const-len-inferred");
                    String::new()
                };
                if g.by_value {
                    e.features.insert("const-len-array-by-value");
                }
                let h = e.local(if g.array { "y" } else { "h" });
                e.line(&format!("let {h} = {}{fish}({arg}, {});", g.name, c.s), "");
                if g.array {
                    e.features.insert("const-len-array-helper");
                    if fish_len == n_expr {
                        let mut seq = Seq::new(&h, len);
                        seq.len_expr = n_expr.clone();
                        arrays.push(seq);
                    } else {
                        // An array of another length: its first element.
                        scalars.push(leaf(&format!("{h}[0]"), CAP));
                    }
                } else {
                    scalars.push(leaf(&h, 8.0));
                }
            }
        }
    }
    let result = |e: &mut Em| -> X {
        let a0 = leaf("a0", 2.0);
        let sq = e.bin('*', &a0, &a0);
        let q = e.k(0.25);
        let mut r = e.bin('*', &sq, &q);
        for j in 0..e.rng.range(1, 2) {
            let pick = if j == 0 {
                scalars[scalars.len() - 1].clone()
            } else {
                e.rng.pick(&scalars)
            };
            let v = e.read(&pick);
            let c = e.lit_from(&[0.5, -0.75, 1.5]);
            let t = e.bin('*', &v, &c);
            r = e.bin('+', &r, &t);
        }
        r
    };
    let (ret_ty, tail, ret) = if array_result {
        features.insert("array-result");
        let out = e.local("out");
        e.line(&format!("let mut {out} = [0.0; {n_expr}];"), "");
        e.open(&format!("for i in 0..{n_expr} {{"), "");
        let src = e.rng.pick(&arrays);
        let r = result(&mut e);
        let mut leaves = vec![leaf(&format!("{}[i]", src.name), CAP), r];
        leaves.push(leaf("a0", 2.0));
        let t = e.term(&leaves);
        e.line(&format!("{out}[i] = {};", t.s), "");
        e.close();
        (format!("[f64; {n_expr}]"), out, Ret::Array(len))
    } else {
        let r = result(&mut e);
        (sty.to_owned(), r.s, Ret::Scalar)
    };
    features.extend(std::mem::take(&mut e.features));
    let attr = if hessian {
        "#[differentiable(jvp, hessian)]"
    } else {
        "#[differentiable(jvp)]"
    };
    let generics = match (fixed, generic) {
        (true, false) => String::new(),
        (true, true) => "<T: autograd::num_traits::Float>".to_owned(),
        (false, false) => "<const N: usize>".to_owned(),
        (false, true) => {
            if e.rng.chance(0.5) {
                "<T: autograd::num_traits::Float, const N: usize>".to_owned()
            } else {
                "<const N: usize, T: autograd::num_traits::Float>".to_owned()
            }
        }
    };
    let source = format!(
        "{helpers}{attr}\nfn {name}{generics}(a0: {sty}, xs: &[{sty}; {n_expr}]) -> {ret_ty} {{\n{}    {tail}\n}}\n",
        e.src
    );
    let code = len_wrappers(&name, len, ret, hessian, generic, &features);
    program(index, name, source, code, features)
}

/// The flat wrappers and entry of `f(a0, xs: &[S; len])`.
fn len_wrappers(
    name: &str,
    len: usize,
    ret: Ret,
    hessian: bool,
    generic: bool,
    features: &BTreeSet<&'static str>,
) -> String {
    let upper = name.to_uppercase();
    let prelude =
        format!("    let a0 = v[0];\n    let xs: [f64; {len}] = v[1..].try_into().unwrap();\n");
    let prelude32 = format!(
        "    let a0 = v[0] as f32;\n    let xs: [f32; {len}] = std::array::from_fn(|k| v[1 + k] as f32);\n"
    );
    let tx = format!("    let tx: [f64; {len}] = t[1..].try_into().unwrap();\n");
    let (to_vec, seed) = match ret {
        Ret::Array(k) => (
            ".to_vec()",
            format!("<[f64; {k}]>::try_from(fuzz_programs::weights({k}, seed)).unwrap()"),
        ),
        _ => ("", "seed".to_owned()),
    };
    let weigh = |x: &str| {
        if ret == Ret::Scalar {
            x.to_owned()
        } else {
            format!("fuzz_programs::weigh(&{x}{to_vec})")
        }
    };
    let mut code = String::new();
    let _ = write!(
        code,
        "fn primal_{name}(v: &[f64]) -> f64 {{\n{prelude}    {}\n}}\n\n\
         fn vjp_{name}(v: &[f64], seed: f64) -> (f64, Vec<f64>) {{\n{prelude}    let (value, pullback) = {name}_vjp(a0, &xs);\n    let (d0, d_xs) = pullback({seed});\n    let mut g = vec![d0];\n    g.extend_from_slice(&d_xs);\n    ({}, g)\n}}\n\n\
         fn grad_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n    vjp_{name}(v, 1.0)\n}}\n\n\
         fn jvp_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n{prelude}{tx}    let (value, tangent) = {name}_jvp(a0, &xs, t[0], &tx);\n    ({}, {})\n}}\n\n",
        weigh(&format!("{name}(a0, &xs)")),
        weigh("value"),
        weigh("value"),
        weigh("tangent"),
    );
    let none = || "None".to_owned();
    let (mut hvp, mut hess, mut outputs, mut jac, mut g32, mut j32) =
        (none(), none(), none(), none(), none(), none());
    if hessian {
        let _ = write!(
            code,
            "fn hvp_{name}(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {{\n{prelude}{tx}    let (value, d0, d_xs, hd0, hd_xs) = {name}_hvp(a0, &xs, t[0], &tx);\n    let mut g = vec![d0];\n    g.extend_from_slice(&d_xs);\n    let mut h = vec![hd0];\n    h.extend_from_slice(&hd_xs);\n    (value, g, h)\n}}\n\n\
             fn hessian_{name}(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, g, h) = {name}_hessian(a0, &xs);\n    (value, g.iter().copied().collect(), (0..h.nrows()).map(|r| h.row(r).iter().copied().collect()).collect())\n}}\n\n"
        );
        hvp = format!("Some(hvp_{name})");
        hess = format!("Some(hessian_{name})");
    }
    if ret != Ret::Scalar {
        let _ = write!(
            code,
            "fn outputs_{name}(v: &[f64]) -> Vec<f64> {{\n{prelude}    {name}(a0, &xs){to_vec}\n}}\n\n\
             fn jacobian_{name}(v: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, j) = {name}_jacobian(a0, &xs);\n    (value{to_vec}, (0..j.nrows()).map(|r| j.row(r).iter().copied().collect()).collect())\n}}\n\n"
        );
        outputs = format!("Some(outputs_{name})");
        jac = format!("Some(jacobian_{name})");
    }
    if generic {
        let _ = write!(
            code,
            "fn grad_f32_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n{prelude32}    let (value, d0, d_xs) = {name}_grad(a0, &xs);\n    let mut g = vec![f64::from(d0)];\n    g.extend(d_xs.iter().map(|&t| f64::from(t)));\n    (f64::from(value), g)\n}}\n\n\
             fn jvp_f32_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n{prelude32}    let tx: [f32; {len}] = std::array::from_fn(|k| t[1 + k] as f32);\n    let (value, tangent) = {name}_jvp(a0, &xs, t[0] as f32, &tx);\n    (f64::from(value), f64::from(tangent))\n}}\n\n"
        );
        g32 = format!("Some(grad_f32_{name})");
        j32 = format!("Some(jvp_f32_{name})");
    }
    let feats: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "// No mirror: smooth, checked against central differences.\nconst ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[Input::Scalar(\"a0\"), Input::Slice(\"xs\", {len})],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: None,\n    jvp: Some(jvp_{name}),\n    hvp: {hvp},\n    hessian: {hess},\n    outputs: {outputs},\n    jacobian: {jac},\n    grad_f32: {g32},\n    jvp_f32: {j32},\n}};\n\n",
        feats.join(" ")
    );
    code
}
