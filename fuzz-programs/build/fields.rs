//! Programs taking a `Tangent` struct with fields of every kind README's
//! "Structs and methods" lists: a float, a `Vec<f64>`, an array, a
//! `DVector<f64>`, a nested struct holding a float and a `bool`, an
//! integer and a `#[constant]` float. The body reads them as `p.a`,
//! `p.inner.b`, `p.w[i]`, `p.w.iter()`, `p.w.len()`, `&p.w`, `p.d.iter()`,
//! `0..p.n`, `p.n as f64`, `if p.inner.flag`, `p.w.first()`/`last()`, and
//! passes the struct on whole to another function (`h(p, x)`,
//! `h(&p, x)`; taken by value, one program in three, `h(&p, x)`) and to
//! a method of its `impl` block from outside it (`p.m(x)`, `S::m(p, x)`).
//! Taken by value, three programs in five take it as `mut p` and write
//! `p.a` and `p.inner.b` (alone, in a branch, in a loop) instead of passing
//! it on; any program may build a struct `Lo{index} { x, v }` in the body
//! and write its fields (in a loop, by `..` update, in a branch).
//! A scalar result is checked through `NAME_vjp`, a vector result through
//! `NAME_vjp` and `NAME_jacobian` (columns: the struct's differentiable
//! fields in declaration order).
//!
//! Smooth in the differentiable inputs (the `bool` and the integer are
//! constants), so central differences of the primal check them; the
//! wrappers also require the adjoint's constant fields to be clones of the
//! argument's.

use super::{Body, CAP, Kind, LEN, LITS, Ret};
use crate::generator::{Program, Rng};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// `w`'s length (the same as `xs`', so they zip), `q`'s and `d`'s.
const W: usize = LEN;
const Q: usize = 2;
const D: usize = 2;

impl Body<'_> {
    /// One statement reading the struct `p`.
    fn field_stmt(&mut self, n: usize) {
        let s = self.fresh("s");
        match self.rng.weighted(&[2, 2, 2, 2, 2, 2, 3, 2, 2, 2, 2]) {
            0 => {
                self.features.insert("field-vec-iter");
                let v = vec![("v".to_owned(), 2.0)];
                let (e, b) = self.expr(3, &v);
                self.line(
                    1,
                    &format!("let {s} = p.w.iter().map(|v| {e}).sum::<f64>();"),
                );
                self.define(s, W as f64 * b);
            }
            1 => {
                self.features.insert("field-vec-len-index");
                let extra = vec![("p.w[i]".to_owned(), 2.0), ("xs[i]".to_owned(), 2.0)];
                let (e, b) = self.expr(3, &extra);
                self.line(1, &format!("let mut {s}: f64 = 0.0;"));
                self.line(1, "for i in 0..p.w.len() {");
                self.line(2, &format!("{s} += ({e}) * (i as f64 + 1.0);"));
                self.line(1, "}");
                self.define(s, 6.0 * b);
            }
            2 => {
                self.features.insert("field-int");
                let extra = vec![("p.w[k]".to_owned(), 2.0), (format!("{s}.tanh()"), 1.0)];
                let (e, b) = self.expr(3, &extra);
                let x = self.rng.pick(&LITS);
                self.line(1, &format!("let mut {s}: f64 = {x:?};"));
                self.line(1, "for k in 0..p.n {");
                self.line(2, &format!("{s} = {s} * 0.5 + {e};"));
                self.line(1, "}");
                let t = self.fresh("s");
                self.line(1, &format!("let {t} = {s} * (p.n as f64 + 0.5);"));
                self.define(t, (x.abs() + 2.0 * b) * (n as f64 + 0.5));
            }
            3 => {
                self.features.insert("field-bool");
                let (e1, b1) = self.typed_expr(3, &[]);
                let (e2, b2) = self.typed_expr(3, &[]);
                let cond = if self.rng.chance(0.5) {
                    "p.inner.flag"
                } else {
                    "!p.inner.flag"
                };
                self.line(
                    1,
                    &format!("let {s} = if {cond} {{ {e1} }} else {{ {e2} }};"),
                );
                self.define(s, b1.max(b2));
            }
            4 => {
                self.features.insert("field-dvector");
                let v = vec![("v".to_owned(), 2.0)];
                let (e, b) = self.expr(3, &v);
                if self.rng.chance(0.5) {
                    self.line(1, &format!("let mut {s}: f64 = 0.0;"));
                    self.line(1, "for v in p.d.iter() {");
                    self.line(2, &format!("{s} += {e};"));
                    self.line(1, "}");
                } else {
                    self.line(
                        1,
                        &format!(
                            "let {s}: f64 = p.d.iter().map(|v| {e}).sum::<f64>() * p.d.len() as f64;"
                        ),
                    );
                }
                self.define(s, D as f64 * D as f64 * b);
            }
            5 => {
                self.features.insert("first-last");
                self.features.insert("field-first-last");
                let (e, b) = self.expr(2, &[]);
                let first = self
                    .rng
                    .pick(&["*p.w.first().unwrap()", "p.w.first().copied().unwrap()"]);
                let last = self.rng.pick(&[
                    "*p.w.last().expect(\"a weight\")",
                    "p.w.last().copied().unwrap()",
                ]);
                let head = self
                    .rng
                    .pick(&["*xs.first().unwrap()", "*xs.last().unwrap()"]);
                self.line(
                    1,
                    // `f64::tanh` types an all-literal `e`, which `(e).tanh()` leaves
                    // an ambiguous `{float}` (finding 009).
                    &format!("let {s} = {first} * f64::tanh({e}) + {last} - {head};"),
                );
                self.define(s, 6.0);
                let _ = b;
            }
            6 | 9 if self.field_writes => self.field_write(),
            9 | 10 => self.struct_local(s),
            6 => {
                self.features.insert("struct-passed-whole");
                let (e, _) = self.typed_expr(2, &[]);
                let e = format!("({e}).tanh()");
                let callee = self.callee.clone();
                let ty = callee.replace('h', "St");
                // Taken by value, `p` is lent (`h(p, ..)` would move it).
                let call = match self.rng.below(4) {
                    0 if !self.struct_by_value => format!("{callee}(p, {e})"),
                    0 | 1 => format!("{callee}(&p, {e})"),
                    2 => {
                        self.features.insert("struct-method-outside");
                        format!("p.{}({e})", callee.replace('h', "m"))
                    }
                    _ => {
                        self.features.insert("struct-method-outside");
                        let at = if self.struct_by_value { "&p" } else { "p" };
                        format!("{ty}::{}({at}, {e})", callee.replace('h', "m"))
                    }
                };
                self.line(1, &format!("let {s} = {call};"));
                self.define(s, CAP * 2.0);
            }
            7 => {
                self.features.insert("field-vec-ref-iter");
                let ab = vec![("a".to_owned(), 2.0), ("b".to_owned(), 2.0)];
                let (e, b) = self.expr(3, &ab);
                if self.rng.chance(0.5) {
                    self.line(
                        1,
                        &format!("let {s}: f64 = p.w.iter().zip(xs).map(|(a, b)| {e}).sum();"),
                    );
                } else {
                    self.line(
                        1,
                        &format!("let {s}: f64 = xs.iter().zip(&p.w).map(|(b, a)| {e}).sum();"),
                    );
                }
                self.define(s, W as f64 * b);
            }
            8 => {
                self.features.insert("field-array");
                let v = vec![("v".to_owned(), 2.0)];
                let (e, b) = self.expr(2, &v);
                self.line(1, &format!("let mut {s} = p.q[1] * p.inner.b;"));
                self.line(1, "for v in p.q.iter() {");
                self.line(2, &format!("{s} += {e};"));
                self.line(1, "}");
                self.define(s, 4.0 + Q as f64 * b);
            }
            _ => unreachable!("eleven weights"),
        }
    }

    /// A write of a float field of `p`, alone, in a branch on the `bool`
    /// field or in a loop over the integer one. Each keeps the field within
    /// the bound 2 its reads assume.
    fn field_write(&mut self) {
        self.features.insert("field-write");
        let (e, _) = self.typed_expr(3, &[]);
        match self.rng.below(4) {
            0 => self.line(1, &format!("p.a = 2.0 * f64::tanh({e});")),
            1 => self.line(1, &format!("p.a *= f64::tanh({e});")),
            2 => {
                self.features.insert("field-write-branch");
                self.line(1, "if p.inner.flag {");
                self.line(2, &format!("p.inner.b = 0.5 * p.inner.b + f64::tanh({e});"));
                self.line(1, "} else {");
                self.line(2, "p.a *= 0.5;");
                self.line(1, "}");
            }
            _ => {
                self.features.insert("field-write-loop");
                self.line(1, "for _ in 0..p.n {");
                self.line(2, &format!("p.a = 0.5 * p.a + 0.5 * f64::tanh({e});"));
                self.line(2, "p.inner.b -= 0.25 * p.inner.b;");
                self.line(1, "}");
            }
        }
    }

    /// `s`, read from a struct built in the body (`Lo{index}`, two float
    /// fields) and then written field by field, in a loop, by a
    /// functional update or in a branch.
    fn struct_local(&mut self, s: String) {
        self.features.insert("struct-local");
        let ty = self.callee.replace('h', "Lo");
        let t = self.fresh("t");
        let (e1, b1) = self.typed_expr(3, &[]);
        let (e2, b2) = self.typed_expr(3, &[]);
        self.line(1, &format!("let mut {t} = {ty} {{ x: {e1}, v: {e2} }};"));
        // Shadowed before the writes: the fields swapped.
        let shadow = self.shadow_struct.then(|| self.rng.below(3));
        if shadow == Some(0) {
            self.features.insert("struct-shadowed-swap");
            self.line(1, &format!("let mut {t} = {ty} {{ x: {t}.v, v: {t}.x }};"));
        }
        // |x| stays within max(b1, 2) + 1 and |v| within max(b2, 2).
        match self.rng.below(3) {
            0 => {
                self.features.insert("struct-local-loop");
                let a = self.fresh("a");
                self.line(1, "for _ in 0..p.n {");
                self.line(2, &format!("let {a} = {t}.x;"));
                self.line(2, &format!("{t}.x = 0.5 * {t}.x + f64::tanh({t}.v);"));
                self.line(2, &format!("{t}.v = 0.5 * {t}.v - f64::tanh({a});"));
                self.line(1, "}");
            }
            1 => {
                self.features.insert("struct-local-update");
                self.line(
                    1,
                    &format!("{t} = {ty} {{ v: 0.5 * {t}.v + f64::tanh({t}.x), ..{t} }};"),
                );
            }
            _ => {
                self.features.insert("struct-local-branch");
                self.line(1, "if p.inner.flag {");
                self.line(2, &format!("{t}.x += f64::tanh({t}.v);"));
                self.line(1, "} else {");
                self.line(2, &format!("{t}.v *= 0.5;"));
                self.line(1, "}");
            }
        }
        // Shadowed after them, by a literal or a functional update.
        match shadow {
            Some(1) => {
                self.features.insert("struct-shadowed");
                self.line(
                    1,
                    &format!("let {t} = {ty} {{ x: {t}.v, v: {t}.x * 0.5 }};"),
                );
            }
            Some(2) => {
                self.features.insert("struct-shadowed-update");
                self.line(1, &format!("let {t} = {ty} {{ v: {t}.x * 0.5, ..{t} }};"));
            }
            _ => {}
        }
        self.line(1, &format!("let {s} = 0.5 * {t}.x + {t}.v;"));
        let bound = 0.5 * (b1.max(2.0) + 1.0) + b2.max(2.0);
        self.define(s, if shadow.is_some() { 2.0 * bound } else { bound });
    }
}

/// A one-line body for a callee, over `vars`.
fn callee_body(rng: &mut Rng, vars: &[&str]) -> String {
    let vars = vars.iter().map(|v| ((*v).to_owned(), 2.0)).collect();
    let mut g = Body::new(rng, Kind::Full, vars, String::new());
    let (e, b) = g.typed_expr(3, &[]);
    if b > CAP { format!("({e}).tanh()") } else { e }
}

/// Program `index` of this kind (see the module docs).
pub(super) fn gen_fields(index: usize, rng: &mut Rng) -> Program {
    gen_fields_with(index, rng, false)
}

/// Program `index`; with `shadow`, one struct local at least, shadowed by
/// `let` (class `shadowed-struct`).
pub(super) fn gen_fields_with(index: usize, rng: &mut Rng, shadow: bool) -> Program {
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    let ret = if rng.chance(0.45) {
        let k = rng.range(2, 3) as usize;
        match rng.below(3) {
            0 => Ret::Vec(k),
            1 => Ret::Array(k),
            _ => Ret::Tuple(k),
        }
    } else {
        Ret::Scalar
    };
    let n = rng.range(1, W as i64) as usize;
    let n_scalars = rng.range(1, 2) as usize;
    let mut vars: Vec<(String, f64)> = (0..n_scalars).map(|i| (format!("a{i}"), 2.0)).collect();
    vars.extend(
        ["p.a", "p.inner.b", "p.q[0]", "p.d[1]", "p.w[2]"]
            .iter()
            .map(|f| ((*f).to_owned(), 2.0)),
    );
    let mut b = Body::new(rng, Kind::Full, vars, format!("h{index}"));
    b.features.insert("shaped");
    b.features.insert("struct-fields");
    b.struct_by_value = b.rng.chance(0.3);
    if b.struct_by_value {
        b.features.insert("struct-by-value");
        b.field_writes = b.rng.chance(0.6);
    }
    let by_value = b.struct_by_value;
    let p = match (by_value, b.field_writes) {
        (false, _) => "p: &",
        (true, false) => "p: ",
        (true, true) => "mut p: ",
    };
    let n_stmts = b.rng.range(3, 6);
    if b.field_writes {
        b.field_write();
    }
    if shadow {
        b.shadow_struct = true;
        b.features.insert(super::super::Class::ShadowedStruct.tag());
        let s = b.fresh("s");
        b.struct_local(s);
    }
    for _ in 0..n_stmts {
        if b.rng.chance(0.85) {
            b.field_stmt(n);
        } else {
            b.scalar_let();
        }
    }
    let result = match ret {
        Ret::Scalar => b.scalar_result(),
        Ret::Vec(k) | Ret::Array(k) | Ret::Tuple(k) => {
            b.features.insert("struct-jacobian");
            let outs: Vec<String> = (0..k).map(|_| b.scalar_result()).collect();
            match ret {
                Ret::Vec(_) => format!("vec![{}]", outs.join(", ")),
                Ret::Array(_) => format!("[{}]", outs.join(", ")),
                _ => format!("({})", outs.join(", ")),
            }
        }
    };
    let h_body = callee_body(
        b.rng,
        &["p.a", "p.q[1]", "p.d[0]", "p.inner.b", "p.w[1]", "x"],
    );
    let m_body = callee_body(
        b.rng,
        &["self.a", "self.w[0]", "self.q[1]", "self.inner.b", "x"],
    );
    let params: Vec<String> = (0..n_scalars)
        .map(|i| format!("a{i}: f64"))
        .chain(["xs: &[f64]".to_owned()])
        .collect();
    let local = if b.features.contains("struct-local") {
        format!("#[derive(Clone, Copy)]\nstruct Lo{index} {{\n    x: f64,\n    v: f64,\n}}\n\n")
    } else {
        String::new()
    };
    // The struct with the program after it (the program's source range
    // holds everything it needs).
    let source = format!(
        "{local}#[derive(Clone, autograd::Tangent)]\nstruct In{index} {{\n    b: f64,\n    flag: bool,\n}}\n\n\
         #[derive(Clone, autograd::Tangent)]\nstruct St{index} {{\n    a: f64,\n    w: Vec<f64>,\n    q: [f64; {Q}],\n    d: DVector<f64>,\n    inner: In{index},\n    n: usize,\n    #[constant]\n    c: f64,\n}}\n\n\
         #[differentiable]\nimpl St{index} {{\n    #[differentiable]\n    fn m{index}(&self, x: f64) -> f64 {{\n        {m_body}\n    }}\n}}\n\n\
         #[differentiable]\nfn h{index}(p: &St{index}, x: f64) -> f64 {{\n    {h_body}\n}}\n\n\
         #[differentiable]\nfn {name}({p}St{index}, {}) -> {} {{\n{}    {result}\n}}\n",
        params.join(", "),
        ret.ty(),
        b.out
    );
    let features = b.features;
    let code = wrappers(&name, &upper, index, n, n_scalars, ret, by_value, &features);
    super::shaped_program(name, index, source, code, features)
}

/// The flat wrappers and the table entry: the flat layout is `p.a`,
/// `p.w`, `p.q`, `p.d`, `p.inner.b`, the scalars, `xs`, then `p.c`
/// (constant; `p.inner.flag` is its sign).
#[allow(clippy::too_many_arguments)]
fn wrappers(
    name: &str,
    upper: &str,
    index: usize,
    n: usize,
    n_scalars: usize,
    ret: Ret,
    by_value: bool,
    features: &BTreeSet<&'static str>,
) -> String {
    let p = if by_value { "p.clone()" } else { "&p" };
    let fields = 1 + W + Q + D + 1;
    let c = fields + n_scalars + LEN;
    let mut prelude = format!(
        "    let p = St{index} {{\n        a: v[0],\n        w: v[1..{}].to_vec(),\n        q: [v[{}], v[{}]],\n        d: DVector::from_column_slice(&v[{}..{}]),\n        inner: In{index} {{ b: v[{}], flag: v[{c}] > 0.0 }},\n        n: {n},\n        c: v[{c}],\n    }};\n",
        1 + W,
        1 + W,
        2 + W,
        1 + W + Q,
        1 + W + Q + D,
        fields - 1,
    );
    let mut args = Vec::new();
    for i in 0..n_scalars {
        let _ = writeln!(prelude, "    let a{i} = v[{}];", fields + i);
        args.push(format!("a{i}"));
    }
    let _ = writeln!(
        prelude,
        "    let xs = &v[{}..{}];",
        fields + n_scalars,
        fields + n_scalars + LEN
    );
    args.push("xs".to_owned());
    let args = args.join(", ");
    let mut inputs = vec![
        "Input::Scalar(\"p.a\")".to_owned(),
        format!("Input::Slice(\"p.w\", {W})"),
        format!("Input::Slice(\"p.q\", {Q})"),
        format!("Input::Vector(\"p.d\", {D})"),
        "Input::Scalar(\"p.inner.b\")".to_owned(),
    ];
    inputs.extend((0..n_scalars).map(|i| format!("Input::Scalar(\"a{i}\")")));
    inputs.push(format!("Input::Slice(\"xs\", {LEN})"));
    inputs.push("Input::Constant(\"p.c\")".to_owned());
    let ds: Vec<String> = (0..n_scalars).map(|i| format!("d{i}")).collect();
    let adj = format!("(d_p, {}, d_xs)", ds.join(", "));
    // The adjoint's constant fields are the argument's clones (README).
    let collect = format!(
        "    assert!(d_p.c.to_bits() == p.c.to_bits() && d_p.n == p.n && d_p.inner.flag == p.inner.flag, \"the adjoint's constant fields are not the argument's\");\n    let mut g = vec![d_p.a];\n    g.extend_from_slice(&d_p.w);\n    g.extend_from_slice(&d_p.q);\n    g.extend(d_p.d.iter().copied());\n    g.push(d_p.inner.b);\n{}    g.extend_from_slice(&d_xs);\n",
        ds.iter()
            .map(|d| format!("    g.push({d});\n"))
            .collect::<String>()
    );
    let weigh = |x: &str| format!("fuzz_programs::weigh(&{})", ret.to_vec(x));
    let value = if ret == Ret::Scalar {
        "value".to_owned()
    } else {
        weigh("value")
    };
    let call = format!("{name}({p}, {args})");
    let mut code = String::new();
    let _ = write!(
        code,
        "fn primal_{name}(v: &[f64]) -> f64 {{\n{prelude}    {}\n}}\n\n",
        if ret == Ret::Scalar {
            call.clone()
        } else {
            weigh(&call)
        }
    );
    for (wrapper, sig, s) in [("grad", "", "1.0"), ("vjp", ", seed: f64", "seed")] {
        let _ = write!(
            code,
            "fn {wrapper}_{name}(v: &[f64]{sig}) -> (f64, Vec<f64>) {{\n{prelude}    let (value, pullback) = {name}_vjp({p}, {args});\n    let {adj} = pullback({});\n{collect}    ({value}, g)\n}}\n\n",
            ret.seed(s)
        );
    }
    let (outputs_fn, jacobian_fn) = if ret == Ret::Scalar {
        ("None".to_owned(), "None".to_owned())
    } else {
        let _ = write!(
            code,
            "fn outputs_{name}(v: &[f64]) -> Vec<f64> {{\n{prelude}    {}\n}}\n\n",
            ret.to_vec(&call)
        );
        let _ = write!(
            code,
            "fn jacobian_{name}(v: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, j) = {name}_jacobian({p}, {args});\n    ({}, (0..j.nrows()).map(|r| j.row(r).iter().copied().collect()).collect())\n}}\n\n",
            ret.to_vec("value")
        );
        (
            format!("Some(outputs_{name})"),
            format!("Some(jacobian_{name})"),
        )
    };
    let features: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "// No mirror: the dynamic graph has no structs; central differences\n// check this program.\nconst ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[{}],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: None,\n    jvp: None,\n    hvp: None,\n    hessian: None,\n    outputs: {outputs_fn},\n    jacobian: {jacobian_fn},\n    grad_f32: None,\n    jvp_f32: None,\n}};\n\n",
        inputs.join(", "),
        features.join(" ")
    );
    code
}
