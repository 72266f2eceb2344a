//! The classes of the macro's newest constructs (see the module docs of
//! `classes.rs`): `sub-slice`.
//! Each is its own small program over `(a0: f64, a1: f64,
//! xs: &[f64])` with `xs` of a length the generator knows (so every range
//! it writes is in bounds), helpers in the same source, and a mirror written
//! next to it term by term.

use super::{Class, Param, Program, Rng, Sig};
use crate::ast::lit;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// One program: `helpers` (source) before the checked function, whose
/// body is `body`; the mirror's helpers and body likewise (the mirror sees
/// `cx`, `a0`, `a1` and `xs: &[V]`).
struct Parts {
    helpers: String,
    body: String,
    mhelpers: String,
    mbody: String,
    /// The last statement of the body gives this expression (source) and
    /// this `V` (mirror).
    result: (String, String),
}

fn emit(
    index: usize,
    n: usize,
    mut features: BTreeSet<&'static str>,
    class: Class,
    p: Parts,
) -> Program {
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    features.insert(class.tag());
    let source = format!(
        "{}#[differentiable]\nfn {name}(a0: f64, a1: f64, xs: &[f64]) -> f64 {{\n{}    {}\n}}\n",
        p.helpers, p.body, p.result.0
    );
    let mut code = String::new();
    let _ = write!(
        code,
        "{}fn mirror_{name}(cx: &mut Mirror, a0: V, a1: V, xs: &[V]) -> V {{\n{}    {}\n}}\n\n\
         fn primal_{name}(v: &[f64]) -> f64 {{\n    {name}(v[0], v[1], &v[2..])\n}}\n\n\
         fn grad_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n    let (value, d0, d1, d2) = {name}_grad(v[0], v[1], &v[2..]);\n    let mut g = vec![d0, d1];\n    g.extend_from_slice(&d2[..]);\n    (value, g)\n}}\n\n\
         fn vjp_{name}(v: &[f64], seed: f64) -> (f64, Vec<f64>) {{\n    let (value, pullback) = {name}_vjp(v[0], v[1], &v[2..]);\n    let (d0, d1, d2) = pullback(seed);\n    let mut g = vec![d0, d1];\n    g.extend_from_slice(&d2[..]);\n    (value, g)\n}}\n\n\
         fn graph_{name}(cx: &mut Mirror, v: &[V]) -> V {{\n    mirror_{name}(cx, v[0], v[1], &v[2..])\n}}\n\n",
        p.mhelpers, p.mbody, p.result.1
    );
    let feats: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "const ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[Input::Scalar(\"a0\"), Input::Scalar(\"a1\"), Input::Slice(\"xs\", {n})],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: Some(graph_{name}),\n    jvp: None,\n    hvp: None,\n    hessian: None,\n    outputs: None,\n    jacobian: None,\n    grad_f32: None,\n    jvp_f32: None,\n}};\n\n",
        feats.join(" ")
    );
    let sig = Sig {
        name,
        fl: crate::ast::Fl::F64,
        params: vec![Param::Scalar("a0".into()), Param::Scalar("a1".into())],
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
        features: feats,
    }
}

/// A range of at least `min` elements of a container of length `len`, as
/// users write it: `a..b`, `a..`, `..b` or `a..=b`; with its `lo..hi`.
fn range(
    rng: &mut Rng,
    len: usize,
    min: usize,
    features: &mut BTreeSet<&'static str>,
) -> (String, usize, usize) {
    let lo = rng.range(0, (len - min) as i64) as usize;
    let hi = rng.range((lo + min) as i64, len as i64) as usize;
    let text = match rng.below(4) {
        0 if hi == len => {
            features.insert("sub-slice-from");
            format!("{lo}..")
        }
        1 if lo == 0 => {
            features.insert("sub-slice-to");
            format!("..{hi}")
        }
        2 => {
            features.insert("sub-slice-inclusive");
            format!("{lo}..={}", hi - 1)
        }
        _ => {
            features.insert("sub-slice-range");
            format!("{lo}..{hi}")
        }
    };
    (text, lo, hi)
}

// ---------------------------------------------------------------------------
// `sub-slice`

pub(in crate::generator) fn gen_sub_slice(index: usize, rng: &mut Rng) -> Program {
    let n = rng.range(4, 7) as usize;
    let name = format!("f{index}");
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    let (mut body, mut mbody) = (String::new(), String::new());
    let (mut helpers, mut mhelpers) = (String::new(), String::new());
    // The containers: the argument, a local array and a local `Vec`
    // written by loops.
    let mut conts = vec!["xs"];
    if rng.chance(0.5) {
        f.insert("sub-slice-of-array");
        let c = lit(*[0.25, 0.5, -0.75].get(rng.below(3)).expect("a literal"));
        let _ = writeln!(
            body,
            "    let mut w = [0.0; {n}];\n    for i in 0..{n} {{\n        w[i] = xs[i] * a0 + {c};\n    }}"
        );
        let _ = writeln!(
            mbody,
            "    let mut w: Vec<V> = Vec::new();\n    for i in 0..{n} {{\n        let t = cx.mul(xs[i], a0);\n        let c = cx.k({c});\n        w.push(cx.add(t, c));\n    }}"
        );
        conts.push("w");
    }
    if rng.chance(0.5) {
        f.insert("sub-slice-of-vec");
        if rng.chance(0.5) {
            let _ = writeln!(
                body,
                "    let mut u = Vec::with_capacity(xs.len());\n    for i in 0..xs.len() {{\n        u.push((xs[i] * a1).sin());\n    }}"
            );
            let _ = writeln!(
                mbody,
                "    let mut u: Vec<V> = Vec::new();\n    for i in 0..xs.len() {{\n        let t = cx.mul(xs[i], a1);\n        u.push(cx.sin(t));\n    }}"
            );
        } else {
            let _ = writeln!(
                body,
                "    let mut u = vec![0.0; xs.len()];\n    for i in 0..xs.len() {{\n        u[i] = xs[i].tanh() * a1;\n    }}"
            );
            let _ = writeln!(
                mbody,
                "    let mut u: Vec<V> = Vec::new();\n    for i in 0..xs.len() {{\n        let t = cx.tanh(xs[i]);\n        u.push(cx.mul(t, a1));\n    }}"
            );
        }
        conts.push("u");
    }
    let mut helper = false;
    let mut terms = Vec::new();
    for t in 0..rng.range(2, 4) {
        let c = rng.pick(&conts);
        let s = format!("s{t}");
        let r = format!("t{t}");
        match rng.below(7) {
            0 => {
                f.insert("sub-slice-index-len");
                let (rt, lo, hi) = range(rng, n, 1, &mut f);
                let k = rng.below(hi - lo);
                let _ = writeln!(
                    body,
                    "    let {s} = &{c}[{rt}];\n    let {r} = {s}[{k}] * a0 + {s}[{s}.len() - 1] * ({s}.len() as f64) * 0.25;"
                );
                let _ = writeln!(
                    mbody,
                    "    let {r} = {{\n        let p = cx.mul({c}[{}], a0);\n        let l = cx.k({});\n        let q = cx.mul({c}[{}], l);\n        let h = cx.k(0.25);\n        let q = cx.mul(q, h);\n        cx.add(p, q)\n    }};",
                    lo + k,
                    lit((hi - lo) as f64),
                    hi - 1
                );
            }
            1 => {
                let (rt, lo, hi) = range(rng, n, 1, &mut f);
                let (head, op, mop) = match rng.below(3) {
                    0 => {
                        f.insert("sub-slice-for-ref");
                        (
                            format!("for v in &{c}[{rt}]"),
                            "v * v * 0.5",
                            "let q = cx.mul(v, v);\n        let h = cx.k(0.5);\n        let q = cx.mul(q, h);",
                        )
                    }
                    1 => {
                        f.insert("sub-slice-for-bound");
                        let _ = writeln!(body, "    let {s} = &{c}[{rt}];");
                        (format!("for v in {s}"), "v.sin()", "let q = cx.sin(v);")
                    }
                    _ => {
                        f.insert("sub-slice-for-iter-pattern");
                        let _ = writeln!(body, "    let {s} = &{c}[{rt}];");
                        (
                            format!("for &v in {s}.iter()"),
                            "v * a1",
                            "let q = cx.mul(v, a1);",
                        )
                    }
                };
                let _ = writeln!(
                    body,
                    "    let mut {r} = 0.0;\n    {head} {{\n        {r} += {op};\n    }}"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {r} = cx.k(0.0);\n    for i in {lo}..{hi} {{\n        let v = {c}[i];\n        {mop}\n        {r} = cx.add({r}, q);\n    }}"
                );
            }
            2 => {
                f.insert("sub-slice-sum");
                let (rt, lo, hi) = range(rng, n, 1, &mut f);
                if rng.chance(0.5) {
                    let _ = writeln!(body, "    let {r} = {c}[{rt}].iter().sum::<f64>();");
                } else {
                    let _ = writeln!(
                        body,
                        "    let {s} = &{c}[{rt}];\n    let {r}: f64 = {s}.iter().sum();"
                    );
                }
                let _ = writeln!(
                    mbody,
                    "    let mut {r} = cx.k(0.0);\n    for i in {lo}..{hi} {{\n        {r} = cx.add({r}, {c}[i]);\n    }}"
                );
            }
            3 => {
                f.insert("sub-slice-windows");
                let (rt, lo, hi) = range(rng, n, 2, &mut f);
                let _ = writeln!(
                    body,
                    "    let {s} = &{c}[{rt}];\n    let mut {r} = 0.0;\n    for p in {s}.windows(2) {{\n        {r} += (p[1] - p[0]) * (p[1] - p[0]);\n    }}"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {r} = cx.k(0.0);\n    for i in {lo}..{} {{\n        let d = cx.sub({c}[i + 1], {c}[i]);\n        let q = cx.mul(d, d);\n        {r} = cx.add({r}, q);\n    }}",
                    hi - 1
                );
            }
            4 => {
                f.insert("sub-slice-zip");
                let (rt, lo, hi) = range(rng, n, 1, &mut f);
                let c2 = rng.pick(&conts);
                let (rt2, lo2, hi2) = range(rng, n, 1, &mut f);
                let m = (hi - lo).min(hi2 - lo2);
                let zip = if rng.chance(0.5) {
                    format!("{s}.iter().zip(&{c2}[{rt2}])")
                } else {
                    format!("{s}.iter().zip({c2}[{rt2}].iter())")
                };
                let _ = writeln!(
                    body,
                    "    let {s} = &{c}[{rt}];\n    let mut {r} = 0.0;\n    for (p, q) in {zip} {{\n        {r} += p * q;\n    }}"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {r} = cx.k(0.0);\n    for j in 0..{m} {{\n        let q = cx.mul({c}[{lo} + j], {c2}[{lo2} + j]);\n        {r} = cx.add({r}, q);\n    }}"
                );
            }
            5 => {
                f.insert("sub-slice-of-sub-slice");
                let (rt, lo, hi) = range(rng, n, 2, &mut f);
                let (rt2, lo2, hi2) = range(rng, hi - lo, 1, &mut f);
                let _ = writeln!(
                    body,
                    "    let {s} = &{c}[{rt}];\n    let {s}b = &{s}[{rt2}];\n    let {r} = {s}b[0] * {s}b[{s}b.len() - 1];"
                );
                let _ = writeln!(
                    mbody,
                    "    let {r} = cx.mul({c}[{}], {c}[{}]);",
                    lo + lo2,
                    lo + hi2 - 1
                );
            }
            _ => {
                f.insert("sub-slice-call");
                if !helper {
                    helper = true;
                    if rng.chance(0.5) {
                        let _ = writeln!(
                            helpers,
                            "#[differentiable]\nfn {name}_h(s: &[f64], c: f64) -> f64 {{\n    let mut r = 0.0;\n    for i in 0..s.len() {{\n        r += (s[i] * c).sin();\n    }}\n    r\n}}\n"
                        );
                        let _ = writeln!(
                            mhelpers,
                            "fn mirror_{name}_h(cx: &mut Mirror, s: &[V], c: V) -> V {{\n    let mut r = cx.k(0.0);\n    for i in 0..s.len() {{\n        let t = cx.mul(s[i], c);\n        let t = cx.sin(t);\n        r = cx.add(r, t);\n    }}\n    r\n}}\n"
                        );
                    } else {
                        f.insert("sub-slice-in-callee");
                        let _ = writeln!(
                            helpers,
                            "#[differentiable]\nfn {name}_h(s: &[f64], c: f64) -> f64 {{\n    let tail = &s[1..];\n    s[0] * c + tail.iter().map(|v| v * v).sum::<f64>()\n}}\n"
                        );
                        let _ = writeln!(
                            mhelpers,
                            "fn mirror_{name}_h(cx: &mut Mirror, s: &[V], c: V) -> V {{\n    let mut t = cx.k(0.0);\n    for i in 1..s.len() {{\n        let q = cx.mul(s[i], s[i]);\n        t = cx.add(t, q);\n    }}\n    let h = cx.mul(s[0], c);\n    cx.add(h, t)\n}}\n"
                        );
                    }
                }
                let (rt, lo, hi) = range(rng, n, 2, &mut f);
                let arg = if c != "xs" && rng.chance(0.2) {
                    f.insert("sub-slice-whole-local");
                    let _ = writeln!(body, "    let {r} = {name}_h(&{c}, a0);");
                    (0, n)
                } else if rng.chance(0.5) {
                    let _ = writeln!(body, "    let {r} = {name}_h(&{c}[{rt}], a0);");
                    (lo, hi)
                } else {
                    let _ = writeln!(
                        body,
                        "    let {s} = &{c}[{rt}];\n    let {r} = {name}_h({s}, a0);"
                    );
                    (lo, hi)
                };
                let _ = writeln!(
                    mbody,
                    "    let {r} = mirror_{name}_h(cx, &{c}[{}..{}], a0);",
                    arg.0, arg.1
                );
            }
        }
        terms.push(r);
    }
    let src = format!("a0 * a1 * 0.5 + {}", terms.join(" + "));
    let mut m = String::from(
        "{\n        let h = cx.mul(a0, a1);\n        let k = cx.k(0.5);\n        let mut r = cx.mul(h, k);\n",
    );
    for t in &terms {
        let _ = writeln!(m, "        r = cx.add(r, {t});");
    }
    m.push_str("        r\n    }");
    emit(
        index,
        n,
        f,
        Class::SubSlice,
        Parts {
            helpers,
            body,
            mhelpers,
            mbody,
            result: (src, m),
        },
    )
}
