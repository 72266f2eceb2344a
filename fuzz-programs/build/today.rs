//! The classes of the macro's newest constructs (see the module docs of
//! `classes.rs`): `sub-slice`, `in-out`, `unreached`, `nested-grad` and
//! `selection`.
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
pub(super) struct Parts {
    pub(super) helpers: String,
    pub(super) body: String,
    pub(super) mhelpers: String,
    pub(super) mbody: String,
    /// The last statement of the body gives this expression (source) and
    /// this `V` (mirror).
    pub(super) result: (String, String),
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
    standalone(name, index, source, code, feats)
}

/// [`emit`] for a `#[differentiable(jvp)]` function: also `NAME_jvp`
/// (the checker holds it to `NAME_vjp` and central differences along
/// random directions), and with `outputs` a result `[f64; 2]`, checked as
/// its [`weights`](fuzz_programs::weights)-weighed sum and through
/// `NAME_jacobian`. The mirror's result is then that weighed sum. With
/// `hessian` (a number result only) `#[differentiable(jvp, hessian)]`:
/// `NAME_hvp` and `NAME_hessian` too, and the wrapper holds
/// `NAME_hessian_sparse` to the dense Hessian.
pub(super) fn emit_jvp(
    index: usize,
    n: usize,
    mut features: BTreeSet<&'static str>,
    class: Class,
    p: Parts,
    outputs: bool,
    hessian: bool,
) -> Program {
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    features.insert(class.tag());
    let ret = if outputs { "[f64; 2]" } else { "f64" };
    let attr = if hessian { "jvp, hessian" } else { "jvp" };
    let source = format!(
        "{}#[differentiable({attr})]\nfn {name}(a0: f64, a1: f64, xs: &[f64]) -> {ret} {{\n{}    {}\n}}\n",
        p.helpers, p.body, p.result.0
    );
    let (weigh, seed) = if outputs {
        (
            "fuzz_programs::weigh(&{x})",
            "<[f64; 2]>::try_from(fuzz_programs::weights(2, seed)).unwrap()",
        )
    } else {
        ("{x}", "seed")
    };
    let w = |x: &str| weigh.replace("{x}", x);
    let args = "v[0], v[1], &v[2..]";
    let mut code = String::new();
    let _ = write!(
        code,
        "{}fn mirror_{name}(cx: &mut Mirror, a0: V, a1: V, xs: &[V]) -> V {{\n{}    {}\n}}\n\n\
         fn primal_{name}(v: &[f64]) -> f64 {{\n    {}\n}}\n\n\
         fn vjp_{name}(v: &[f64], seed: f64) -> (f64, Vec<f64>) {{\n    let (value, pullback) = {name}_vjp({args});\n    let (d0, d1, d2) = pullback({seed});\n    let mut g = vec![d0, d1];\n    g.extend_from_slice(&d2[..]);\n    ({}, g)\n}}\n\n\
         fn grad_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n    vjp_{name}(v, 1.0)\n}}\n\n\
         fn jvp_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n    let (value, tangent) = {name}_jvp({args}, t[0], t[1], &t[2..]);\n    ({}, {})\n}}\n\n\
         fn graph_{name}(cx: &mut Mirror, v: &[V]) -> V {{\n    mirror_{name}(cx, v[0], v[1], &v[2..])\n}}\n\n",
        p.mhelpers,
        p.mbody,
        p.result.1,
        w(&format!("{name}({args})")),
        w("value"),
        w("value"),
        w("tangent"),
    );
    let (outs, jac) = if outputs {
        let _ = write!(
            code,
            "fn outputs_{name}(v: &[f64]) -> Vec<f64> {{\n    {name}({args}).to_vec()\n}}\n\n\
             fn jacobian_{name}(v: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {{\n    let (value, j) = {name}_jacobian({args});\n    (value.to_vec(), (0..j.nrows()).map(|r| j.row(r).iter().copied().collect()).collect())\n}}\n\n"
        );
        (
            format!("Some(outputs_{name})"),
            format!("Some(jacobian_{name})"),
        )
    } else {
        ("None".to_owned(), "None".to_owned())
    };
    let (hvp, hess) = if hessian {
        let _ = write!(
            code,
            "fn hvp_{name}(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {{\n    let (value, d0, d1, d2, h0, h1, h2) = {name}_hvp({args}, t[0], t[1], &t[2..]);\n    let mut g = vec![d0, d1];\n    g.extend_from_slice(&d2[..]);\n    let mut h = vec![h0, h1];\n    h.extend_from_slice(&h2[..]);\n    (value, g, h)\n}}\n\n\
             fn hessian_{name}(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {{\n    let (value, g, h) = {name}_hessian({args});\n    let (g, h): (Vec<f64>, _) = (g.iter().copied().collect(), fuzz_programs::rows(&h));\n    let coloring = {name}_hessian_pattern({args});\n    let (svalue, sg, sh) = {name}_hessian_sparse({args}, &coloring);\n    let sg: Vec<f64> = sg.iter().copied().collect();\n    let sh = fuzz_programs::rows(&DMatrix::from(&sh));\n    fuzz_programs::check_sparse_hessian((value, &g, &h), (svalue, &sg, &sh));\n    (value, g, h)\n}}\n\n"
        );
        (format!("Some(hvp_{name})"), format!("Some(hessian_{name})"))
    } else {
        ("None".to_owned(), "None".to_owned())
    };
    let feats: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "const ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[Input::Scalar(\"a0\"), Input::Scalar(\"a1\"), Input::Slice(\"xs\", {n})],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: Some(graph_{name}),\n    jvp: Some(jvp_{name}),\n    hvp: {hvp},\n    hessian: {hess},\n    outputs: {outs},\n    jacobian: {jac},\n    grad_f32: None,\n    jvp_f32: None,\n}};\n\n",
        feats.join(" ")
    );
    standalone(name, index, source, code, feats)
}

/// A range of at least `min` elements of a container of length `len`, as
/// users write it: `a..b`, `a..`, `..b` or `a..=b`; with its `lo..hi`.
/// A program of two scalar arguments `a0`, `a1` (and more the entry
/// lists) that no other program calls.
fn standalone(
    name: String,
    index: usize,
    source: String,
    code: String,
    features: Vec<&'static str>,
) -> Program {
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
        shaped: true,
    };
    Program {
        sig,
        source,
        code,
        features,
    }
}

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

/// `a0 * a1 * 0.5 + t0 + t1 ..`, in source and mirror.
fn sum_terms(terms: &[String]) -> (String, String) {
    let src = format!("a0 * a1 * 0.5 + {}", terms.join(" + "));
    let mut m = String::from(
        "{\n        let h = cx.mul(a0, a1);\n        let k = cx.k(0.5);\n        let mut r = cx.mul(h, k);\n",
    );
    for t in terms {
        let _ = writeln!(m, "        r = cx.add(r, {t});");
    }
    m.push_str("        r\n    }");
    (src, m)
}

// ---------------------------------------------------------------------------
// `in-out`

/// `g(y, p)` of an Euler step, in source and mirror (`y`, `p` bound).
const STEPS: [(&str, &str, &str); 4] = [
    (
        "(p * y[i]).sin()",
        "(p * *y).sin()",
        "let t = cx.mul(p, y);\n    let t = cx.sin(t);",
    ),
    (
        "-p * y[i]",
        "-p * *y",
        "let t = cx.neg(p);\n    let t = cx.mul(t, y);",
    ),
    (
        "p - y[i] * y[i] * 0.5",
        "p - *y * *y * 0.5",
        "let t = cx.mul(y, y);\n    let h = cx.k(0.5);\n    let t = cx.mul(t, h);\n    let t = cx.sub(p, t);",
    ),
    (
        "y[i].tanh() * p",
        "(*y).tanh() * p",
        "let t = cx.tanh(y);\n    let t = cx.mul(t, p);",
    ),
];

pub(in crate::generator) fn gen_in_out(index: usize, rng: &mut Rng) -> Program {
    if rng.chance(0.4) {
        return gen_in_out_top(index, rng);
    }
    // Two outputs (the second the stepped state's last component, checked
    // through `NAME_jacobian` too), or a number: then with `hessian`
    // throughout, the helpers' twins called by the checked function's.
    let outputs = rng.chance(0.3);
    let hessian = !outputs;
    let attr = if hessian { "jvp, hessian" } else { "jvp" };
    // Some long enough for `NAME_hessian`'s eight-lane sweep.
    let n = if hessian && rng.chance(0.3) {
        rng.range(6, 10) as usize
    } else {
        rng.range(2, 5) as usize
    };
    let name = format!("f{index}");
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    if hessian {
        f.insert("in-out-hessian");
        if n + 2 >= 8 {
            f.insert("in-out-hessian-eight-lanes");
        }
    }
    let (mut helpers, mut mhelpers) = (String::new(), String::new());
    let (mut body, mut mbody) = (String::new(), String::new());
    let (g, g1, mg) = rng.pick(&STEPS);
    // The state: a `Vec` or an array copied from the argument.
    let array = rng.chance(0.4);
    let state_ty;
    match (array, rng.below(3)) {
        (true, _) => {
            f.insert("in-out-array-state");
            // `&mut [f64]` of an array: finding 032, fixed.
            state_ty = if rng.chance(0.5) { "slice" } else { "array" };
            let _ = writeln!(
                body,
                "    let mut state = [0.0; {n}];\n    for i in 0..{n} {{\n        state[i] = xs[i];\n    }}"
            );
        }
        (false, k) => {
            state_ty = if rng.chance(0.5) { "slice" } else { "vec" };
            let init = match k {
                0 => {
                    f.insert("in-out-to-vec");
                    "    let mut state = xs.to_vec();\n".to_owned()
                }
                1 => {
                    f.insert("in-out-vec-copy");
                    "    let mut state = vec![0.0; xs.len()];\n    for i in 0..xs.len() {\n        state[i] = xs[i];\n    }\n".to_owned()
                }
                _ => {
                    f.insert("in-out-vec-push");
                    "    let mut state = Vec::new();\n    for &v in xs {\n        state.push(v);\n    }\n".to_owned()
                }
            };
            body.push_str(&init);
        }
    }
    let _ = writeln!(mbody, "    let mut state: Vec<V> = xs.to_vec();");
    let ty = match state_ty {
        "slice" => "&mut [f64]".to_owned(),
        "vec" => "&mut Vec<f64>".to_owned(),
        _ => format!("&mut [f64; {n}]"),
    };
    f.insert(match state_ty {
        "slice" => "in-out-mut-slice",
        "vec" => "in-out-mut-vec",
        _ => "in-out-mut-array",
    });
    let len = if state_ty == "array" {
        n.to_string()
    } else {
        "y.len()".to_owned()
    };
    let _ = writeln!(
        helpers,
        "#[differentiable({attr})]\nfn {name}_step(y: {ty}, p: f64, dt: f64) {{\n    for i in 0..{len} {{\n        y[i] = y[i] + dt * ({g});\n    }}\n}}\n"
    );
    let _ = writeln!(
        mhelpers,
        "fn mirror_{name}_step(cx: &mut Mirror, y: &mut [V], p: V, dt: V) {{\n    for i in 0..y.len() {{\n        let yi = y[i];\n        let t = {{\n    let y = yi;\n    {mg}\n            t\n        }};\n        let t = cx.mul(dt, t);\n        y[i] = cx.add(yi, t);\n    }}\n}}\n"
    );
    let steps = rng.range(1, 3);
    let dt = lit(*[0.1, 0.25, 0.5].get(rng.below(3)).expect("a step"));
    let (p, q) = if rng.chance(0.5) {
        ("a0", "a1")
    } else {
        ("a1", "a0")
    };
    // How the checked function calls the stepper: once, in a loop, twice
    // (at two parameters), in the arms of a branch, or through a helper
    // passing its own in-out argument on (`step(&mut *y, ..)`, twice).
    match rng.below(5) {
        0 => {
            let _ = writeln!(body, "    {name}_step(&mut state, {p}, {dt});");
            let _ = writeln!(
                mbody,
                "    let dt = cx.k({dt});\n    mirror_{name}_step(cx, &mut state, {p}, dt);"
            );
        }
        1 => {
            f.insert("in-out-call-in-loop");
            let _ = writeln!(
                body,
                "    let dt = {dt};\n    for _ in 0..{steps} {{\n        {name}_step(&mut state, {p}, dt);\n    }}"
            );
            let _ = writeln!(
                mbody,
                "    let dt = cx.k({dt});\n    for _ in 0..{steps} {{\n        mirror_{name}_step(cx, &mut state, {p}, dt);\n    }}"
            );
        }
        2 => {
            f.insert("in-out-call-twice");
            let _ = writeln!(
                body,
                "    {name}_step(&mut state, {p}, {dt});\n    {name}_step(&mut state, {q}, {dt});"
            );
            let _ = writeln!(
                mbody,
                "    let dt = cx.k({dt});\n    mirror_{name}_step(cx, &mut state, {p}, dt);\n    mirror_{name}_step(cx, &mut state, {q}, dt);"
            );
        }
        3 => {
            // `a0 > a1` splits the points drawn: both arms are met.
            f.insert("in-out-call-in-branch");
            let _ = writeln!(
                body,
                "    if a0 > a1 {{\n        {name}_step(&mut state, {p}, {dt});\n    }} else {{\n        {name}_step(&mut state, {q}, {dt});\n        {name}_step(&mut state, {p}, {dt});\n    }}"
            );
            let _ = writeln!(
                mbody,
                "    let dt = cx.k({dt});\n    if cx.gt(a0, a1) {{\n        mirror_{name}_step(cx, &mut state, {p}, dt);\n    }} else {{\n        mirror_{name}_step(cx, &mut state, {q}, dt);\n        mirror_{name}_step(cx, &mut state, {p}, dt);\n    }}"
            );
        }
        _ => {
            f.insert("in-out-passed-on");
            let _ = writeln!(
                helpers,
                "#[differentiable({attr})]\nfn {name}_steps(y: {ty}, p: f64, q: f64, dt: f64) {{\n    {name}_step(&mut *y, p, dt);\n    {name}_step(&mut *y, q, dt);\n}}\n"
            );
            // Once (two steps): more steps of `p - y * y * 0.5` at a step
            // of 0.5 blow up to 1e11 and beyond, where H·v loses a term of
            // order 1 to tangents of 1e25 (seed 0x361b, f17 and f107).
            let _ = writeln!(body, "    {name}_steps(&mut state, {p}, {q}, {dt});");
            let _ = writeln!(
                mbody,
                "    let dt = cx.k({dt});\n    mirror_{name}_step(cx, &mut state, {p}, dt);\n    mirror_{name}_step(cx, &mut state, {q}, dt);"
            );
        }
    }
    let mut terms = vec!["total".to_owned()];
    if rng.chance(0.35) {
        // Two in-out arguments: the state and a scalar that follows it.
        f.insert("in-out-two-arguments");
        let _ = writeln!(
            helpers,
            "#[differentiable({attr})]\nfn {name}_pair(y: &mut [f64], z: &mut f64, p: f64) {{\n    for i in 0..y.len() {{\n        *z = *z + y[i] * p * 0.25;\n        y[i] = y[i] * 0.5 + (*z).sin() * 0.25;\n    }}\n}}\n"
        );
        let _ = writeln!(
            mhelpers,
            "fn mirror_{name}_pair(cx: &mut Mirror, y: &mut [V], z: &mut V, p: V) {{\n    let q = cx.k(0.25);\n    let h = cx.k(0.5);\n    for i in 0..y.len() {{\n        let t = cx.mul(y[i], p);\n        let t = cx.mul(t, q);\n        *z = cx.add(*z, t);\n        let a = cx.mul(y[i], h);\n        let s = cx.sin(*z);\n        let s = cx.mul(s, q);\n        y[i] = cx.add(a, s);\n    }}\n}}\n"
        );
        let _ = writeln!(
            body,
            "    let mut w = a1;\n    {name}_pair(&mut state, &mut w, {q});"
        );
        let _ = writeln!(
            mbody,
            "    let mut w = a1;\n    mirror_{name}_pair(cx, &mut state, &mut w, {q});"
        );
        terms.push("w".into());
    }
    if rng.chance(0.6) {
        // An accumulator through `&mut f64`.
        f.insert("in-out-mut-f64");
        let _ = writeln!(
            helpers,
            "#[differentiable({attr})]\nfn {name}_acc(acc: &mut f64, v: f64) {{\n    *acc += v * v * 0.5;\n}}\n"
        );
        let _ = writeln!(
            body,
            "    let mut total = 0.0;\n    for i in 0..{n} {{\n        {name}_acc(&mut total, state[i]);\n    }}"
        );
    } else {
        let _ = writeln!(
            body,
            "    let mut total = 0.0;\n    for i in 0..{n} {{\n        total += state[i] * state[i] * 0.5;\n    }}"
        );
    }
    let _ = writeln!(
        mbody,
        "    let mut total = cx.k(0.0);\n    for i in 0..{n} {{\n        let q = cx.mul(state[i], state[i]);\n        let h = cx.k(0.5);\n        let q = cx.mul(q, h);\n        total = cx.add(total, q);\n    }}"
    );
    if rng.chance(0.5) {
        // A scalar state stepped by `&mut f64`.
        f.insert("in-out-scalar-step");
        let _ = writeln!(
            helpers,
            "#[differentiable({attr})]\nfn {name}_step1(y: &mut f64, p: f64, dt: f64) {{\n    *y = *y + dt * ({g1});\n}}\n"
        );
        let _ = writeln!(
            body,
            "    let mut z = a1;\n    for _ in 0..{steps} {{\n        {name}_step1(&mut z, {p}, {dt});\n    }}"
        );
        let _ = writeln!(
            mbody,
            "    let mut z = [a1];\n    let dt1 = cx.k({dt});\n    for _ in 0..{steps} {{\n        mirror_{name}_step(cx, &mut z, {p}, dt1);\n    }}\n    let z = z[0];"
        );
        terms.push("z".into());
    }
    if rng.chance(0.35) {
        // A helper updating `&mut f64` whose result is read too.
        f.insert("in-out-result-read");
        let _ = writeln!(
            helpers,
            "#[differentiable({attr})]\nfn {name}_grow(y: &mut f64, r: f64) -> f64 {{\n    let old = *y;\n    *y = *y * (1.0 + r * r * 0.25);\n    old * r\n}}\n"
        );
        let _ = writeln!(
            body,
            "    let mut grown = {p};\n    let mut paid = 0.0;\n    for i in 0..{n} {{\n        paid += {name}_grow(&mut grown, state[i]);\n    }}"
        );
        let _ = writeln!(
            mbody,
            "    let mut grown = {p};\n    let mut paid = cx.k(0.0);\n    for i in 0..{n} {{\n        let old = grown;\n        let r = state[i];\n        let rr = cx.mul(r, r);\n        let c = cx.k(0.25);\n        let rr = cx.mul(rr, c);\n        let one = cx.k(1.0);\n        let s = cx.add(one, rr);\n        grown = cx.mul(grown, s);\n        let t = cx.mul(old, r);\n        paid = cx.add(paid, t);\n    }}"
        );
        terms.push("grown".into());
        terms.push("paid".into());
    }
    let (src, m) = sum_terms(&terms);
    let result = if outputs {
        f.insert("in-out-jacobian");
        let last = n - 1;
        // The first two of `fuzz_programs::weights`.
        let (w0, w1) = (lit(0.75), lit(-0.5));
        (
            format!("[{src}, state[{last}] * a1]"),
            format!(
                "{{\n        let r0 = {m};\n        let r1 = cx.mul(state[{last}], a1);\n        let w0 = cx.k({w0});\n        let w1 = cx.k({w1});\n        let r0 = cx.mul(w0, r0);\n        let r1 = cx.mul(w1, r1);\n        cx.add(r0, r1)\n    }}"
            ),
        )
    } else {
        (src, m)
    };
    emit_jvp(
        index,
        n,
        f,
        Class::InOut,
        Parts {
            helpers,
            body,
            mhelpers,
            mbody,
            result,
        },
        outputs,
        hessian,
    )
}

// ---------------------------------------------------------------------------
// `unreached`

pub(in crate::generator) fn gen_unreached(index: usize, rng: &mut Rng) -> Program {
    let n = rng.range(2, 5) as usize;
    let name = format!("f{index}");
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    let (mut helpers, mut mhelpers) = (String::new(), String::new());
    // `s` is 0 at the points drawn at kinks (`xs[1..]` zeros): `sqrt` and
    // `ln` of it have an infinite derivative there.
    let mut body = String::from(
        "    let mut s = 0.0;\n    for i in 1..xs.len() {\n        s += xs[i] * xs[i];\n    }\n    let r = s.sqrt();\n",
    );
    let mut mbody = String::from(
        "    let mut s = cx.k(0.0);\n    for i in 1..xs.len() {\n        let q = cx.mul(xs[i], xs[i]);\n        s = cx.add(s, q);\n    }\n    let r = cx.sqrt(s);\n",
    );
    let mut vals = vec!["r"];
    if rng.chance(0.5) {
        f.insert("unreached-ln-zero");
        body.push_str("    let l = s.ln();\n");
        mbody.push_str("    let l = cx.ln(s);\n");
        vals.push("l");
    }
    body.push_str("    let mut out = xs[0] * a0;\n");
    mbody.push_str("    let mut out = cx.mul(xs[0], a0);\n");
    let mut helper = false;
    for _ in 0..rng.range(2, 4) {
        let v = rng.pick(&vals);
        match rng.below(6) {
            0 => {
                f.insert("unreached-if-arm");
                if rng.chance(0.5) {
                    let _ = writeln!(body, "    if a0 > 10.0 {{\n        out += {v};\n    }}");
                } else {
                    let _ = writeln!(
                        body,
                        "    if xs[0] < -5.0 {{\n        out = out * {v};\n    }} else {{\n        out += a1 * 0.5;\n    }}"
                    );
                    // The mirror takes the branch the program takes (always
                    // the `else`): `a1 * 0.5` added.
                    let _ = writeln!(
                        mbody,
                        "    {{\n        let h = cx.k(0.5);\n        let t = cx.mul(a1, h);\n        out = cx.add(out, t);\n    }}"
                    );
                }
            }
            1 => {
                f.insert("unreached-empty-loop");
                match rng.below(3) {
                    0 => {
                        let _ = writeln!(
                            body,
                            "    for i in {n}..xs.len() {{\n        out += {v} * xs[i];\n    }}"
                        );
                    }
                    1 => {
                        let _ = writeln!(
                            body,
                            "    let steps = 0;\n    for _ in 0..steps {{\n        out += {v};\n    }}"
                        );
                    }
                    _ => {
                        let _ = writeln!(
                            body,
                            "    while out > 1.0e6 {{\n        out -= {v};\n    }}"
                        );
                    }
                }
            }
            2 => {
                f.insert("unreached-match-arm");
                let _ = writeln!(
                    body,
                    "    out += match xs.len() {{\n        0 => {v},\n        _ => a1 * 0.25,\n    }};"
                );
                let _ = writeln!(
                    mbody,
                    "    {{\n        let h = cx.k(0.25);\n        let t = cx.mul(a1, h);\n        out = cx.add(out, t);\n    }}"
                );
            }
            3 => {
                f.insert("unreached-through-call");
                if !helper {
                    helper = true;
                    let _ = writeln!(
                        helpers,
                        "#[differentiable]\nfn {name}_h(v: f64, x: f64) -> f64 {{\n    if x > 10.0 {{\n        v * x\n    }} else {{\n        x * x * 0.5\n    }}\n}}\n"
                    );
                    let _ = writeln!(
                        mhelpers,
                        "fn mirror_{name}_h(cx: &mut Mirror, _v: V, x: V) -> V {{\n    let ten = cx.k(10.0);\n    let _ = cx.gt(x, ten);\n    let q = cx.mul(x, x);\n    let h = cx.k(0.5);\n    cx.mul(q, h)\n}}\n"
                    );
                }
                let x = if rng.chance(0.5) { "a0" } else { "a1" };
                let _ = writeln!(body, "    out += {name}_h({v}, {x});");
                let _ = writeln!(
                    mbody,
                    "    {{\n        let t = mirror_{name}_h(cx, {v}, {x});\n        out = cx.add(out, t);\n    }}"
                );
            }
            _ => {
                // A step function of the value: a constant, its infinite
                // partial never used. The offset keeps it off its jumps at
                // the kink points.
                let (fun, tag) = rng.pick(&[
                    ("floor", "unreached-step-floor"),
                    ("ceil", "unreached-step-ceil"),
                    ("round", "unreached-step-round"),
                    ("trunc", "unreached-step-trunc"),
                    ("signum", "unreached-step-signum"),
                ]);
                f.insert(tag);
                let off = lit(*[0.25, 0.3, -0.3].get(rng.below(3)).expect("an offset"));
                let _ = writeln!(body, "    out += (r + {off}).{fun}() * a1;");
                let _ = writeln!(
                    mbody,
                    "    {{\n        let o = cx.k({off});\n        let t = cx.add(r, o);\n        let t = cx.{fun}(t);\n        let t = cx.mul(t, a1);\n        out = cx.add(out, t);\n    }}"
                );
            }
        }
    }
    // Names the mirror computes and may not read.
    mbody.push_str("    let _ = (r, &vals_unused);\n");
    let mbody = mbody.replace("&vals_unused", if vals.len() > 1 { "l" } else { "r" });
    emit(
        index,
        n,
        f,
        Class::Unreached,
        Parts {
            helpers,
            body,
            mhelpers,
            mbody,
            result: ("out".into(), "out".into()),
        },
    )
}

// ---------------------------------------------------------------------------
// `nested-grad`

/// An inner function of `(a0, a1)`: its source, and the mirror's value and
/// closed-form gradient `(v, g0, g1)`.
const INNER: [(&str, &str); 5] = [
    (
        "a0 * a0 * 0.75 + a0 * a1",
        "let q = cx.mul(a0, a0);\n    let c = cx.k(0.75);\n    let q = cx.mul(q, c);\n    let p = cx.mul(a0, a1);\n    let v = cx.add(q, p);\n    let c = cx.k(1.5);\n    let g0 = cx.mul(c, a0);\n    let g0 = cx.add(g0, a1);\n    let g1 = a0;",
    ),
    (
        "(a0 * a1).sin() + a1 * a1 * 0.5",
        "let p = cx.mul(a0, a1);\n    let sp = cx.sin(p);\n    let q = cx.mul(a1, a1);\n    let h = cx.k(0.5);\n    let q = cx.mul(q, h);\n    let v = cx.add(sp, q);\n    let cp = cx.cos(p);\n    let g0 = cx.mul(cp, a1);\n    let g1 = cx.mul(cp, a0);\n    let g1 = cx.add(g1, a1);",
    ),
    (
        "(a0 * 0.5).exp() * a1",
        "let h = cx.k(0.5);\n    let e = cx.mul(a0, h);\n    let e = cx.exp(e);\n    let v = cx.mul(e, a1);\n    let g0 = cx.mul(e, h);\n    let g0 = cx.mul(g0, a1);\n    let g1 = e;",
    ),
    (
        "(a0 * a0 + a1 * a1 + 1.0).ln()",
        "let p = cx.mul(a0, a0);\n    let q = cx.mul(a1, a1);\n    let d = cx.add(p, q);\n    let one = cx.k(1.0);\n    let d = cx.add(d, one);\n    let v = cx.ln(d);\n    let two = cx.k(2.0);\n    let g0 = cx.mul(two, a0);\n    let g0 = cx.div(g0, d);\n    let g1 = cx.mul(two, a1);\n    let g1 = cx.div(g1, d);",
    ),
    (
        "a0.tanh() * a1",
        "let t = cx.tanh(a0);\n    let v = cx.mul(t, a1);\n    let one = cx.k(1.0);\n    let t2 = cx.mul(t, t);\n    let s = cx.sub(one, t2);\n    let g0 = cx.mul(s, a1);\n    let g1 = t;",
    ),
];

pub(in crate::generator) fn gen_nested_grad(index: usize, rng: &mut Rng) -> Program {
    let n = rng.range(2, 4) as usize;
    let name = format!("f{index}");
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    let (src, msrc) = rng.pick(&INNER);
    let helpers = format!(
        "#[differentiable(hessian)]\nfn {name}_inner(a0: f64, a1: f64) -> f64 {{\n    {src}\n}}\n\n"
    );
    let mhelpers = format!(
        "fn mirror_{name}_inner(cx: &mut Mirror, a0: V, a1: V) -> (V, V, V) {{\n    {msrc}\n    (v, g0, g1)\n}}\n\n"
    );
    let lr = lit(*[0.1, 0.05, 0.25].get(rng.below(3)).expect("a rate"));
    let (mut body, mut mbody) = (String::new(), String::new());
    // The point the inner gradient is taken at: the scalar arguments or
    // slice elements.
    let (p0, p1) = if rng.chance(0.3) {
        f.insert("nested-grad-at-slice-elements");
        ("xs[0]", "xs[1]")
    } else {
        ("a0", "a1")
    };
    let _ = writeln!(mbody, "    let lr = cx.k({lr});");
    let result = if rng.chance(0.5) {
        f.insert("nested-grad-one-step");
        let _ = writeln!(
            body,
            "    let (v, g0, g1) = {name}_inner_grad({p0}, {p1});\n    let b0 = {p0} - {lr} * g0;\n    let b1 = {p1} - {lr} * g1;"
        );
        let _ = writeln!(
            mbody,
            "    let (v, g0, g1) = mirror_{name}_inner(cx, {p0}, {p1});\n    let t = cx.mul(lr, g0);\n    let b0 = cx.sub({p0}, t);\n    let t = cx.mul(lr, g1);\n    let b1 = cx.sub({p1}, t);"
        );
        (
            format!("{name}_inner(b0, b1) + v * 0.5 + xs[{}] * g1", n - 1),
            format!(
                "{{\n        let (w, _, _) = mirror_{name}_inner(cx, b0, b1);\n        let h = cx.k(0.5);\n        let t = cx.mul(v, h);\n        let r = cx.add(w, t);\n        let t = cx.mul(xs[{}], g1);\n        cx.add(r, t)\n    }}",
                n - 1
            ),
        )
    } else {
        f.insert("nested-grad-descent-loop");
        let k = rng.range(2, 3);
        let _ = writeln!(
            body,
            "    let mut x0 = {p0};\n    let mut x1 = {p1};\n    for _ in 0..{k} {{\n        let (_, g0, g1) = {name}_inner_grad(x0, x1);\n        x0 = x0 - {lr} * g0;\n        x1 -= {lr} * g1;\n    }}"
        );
        let _ = writeln!(
            mbody,
            "    let mut x0 = {p0};\n    let mut x1 = {p1};\n    for _ in 0..{k} {{\n        let (_, g0, g1) = mirror_{name}_inner(cx, x0, x1);\n        let t = cx.mul(lr, g0);\n        x0 = cx.sub(x0, t);\n        let t = cx.mul(lr, g1);\n        x1 = cx.sub(x1, t);\n    }}"
        );
        (
            format!("{name}_inner(x0, x1) * a1 + x0 * xs[{}]", n - 1),
            format!(
                "{{\n        let (w, _, _) = mirror_{name}_inner(cx, x0, x1);\n        let r = cx.mul(w, a1);\n        let t = cx.mul(x0, xs[{}]);\n        cx.add(r, t)\n    }}",
                n - 1
            ),
        )
    };
    emit(
        index,
        n,
        f,
        Class::NestedGrad,
        Parts {
            helpers,
            body,
            mhelpers,
            mbody,
            result,
        },
    )
}

/// `in-out` at the top: the checked function takes `y: &mut [f64]` (or
/// `y: &mut f64`) and steps it in place, in its body or through a helper
/// (`step(&mut *y, ..)`). The harness checks the scalar
/// `value + Σ c_i · y_i(final)`: its primal calls the function on a copy,
/// its gradient is `NAME_vjp`'s pullback seeded with 1 for the value and
/// `c` for the final state, its mirror the same sum over the graph.
fn gen_in_out_top(index: usize, rng: &mut Rng) -> Program {
    let n = rng.range(2, 4) as usize;
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    f.insert(Class::InOut.tag());
    f.insert("in-out-top-level-vjp");
    f.insert("in-out-top-level-jvp");
    // Half with `hessian` too: `NAME_hvp` and `NAME_hessian` are of the
    // result alone, so the final state's weights are then zero (the entry
    // is the value), and the wrappers check that each second-order item
    // leaves `y` as the function itself leaves it.
    let hessian = rng.chance(0.5);
    let attr = if hessian { "jvp, hessian" } else { "jvp" };
    if hessian {
        f.insert("in-out-top-hessian");
    }
    let (g, g1, mg) = rng.pick(&STEPS);
    let dt = lit(*[0.1, 0.25, 0.5].get(rng.below(3)).expect("a step"));
    let scalar = rng.chance(0.35);
    let m = if scalar { 1 } else { n };
    // `y` stepped by a helper of its own (in-out through a call, also in
    // forward mode) or in the body.
    let via = rng.chance(0.5);
    if via {
        f.insert("in-out-top-via-helper");
    }
    let seeds: Vec<f64> = (0..m)
        .map(|i| {
            if hessian {
                0.0
            } else {
                [0.5, -0.75, 1.25, 0.25][i % 4]
            }
        })
        .collect();
    let seeds_text = seeds.iter().map(|c| lit(*c)).collect::<Vec<_>>().join(", ");
    let (source, mstate);
    if scalar {
        f.insert("in-out-top-mut-f64");
        source = if via {
            // Reborrowed: `y` as it is is an error (finding 039).
            let arg = "&mut *y";
            format!(
                "#[differentiable({attr})]\nfn {name}_step(y: &mut f64, p: f64, dt: f64, x: f64) {{\n    *y = *y + dt * ({g1}) * x;\n}}\n\n#[differentiable({attr})]\nfn {name}(a0: f64, a1: f64, xs: &[f64], y: &mut f64) -> f64 {{\n    let p = a0;\n    for i in 0..xs.len() {{\n        {name}_step({arg}, p, {dt}, xs[i]);\n    }}\n    *y * a1 + p\n}}\n"
            )
        } else {
            format!(
                "#[differentiable({attr})]\nfn {name}(a0: f64, a1: f64, xs: &[f64], y: &mut f64) -> f64 {{\n    let p = a0;\n    for i in 0..xs.len() {{\n        *y = *y + {dt} * ({g1}) * xs[i];\n    }}\n    *y * a1 + p\n}}\n"
            )
        };
        mstate = format!(
            "    let p = a0;\n    let dt = cx.k({dt});\n    let mut y = y[0];\n    for i in 0..xs.len() {{\n        let t = {{\n    {mg}\n            t\n        }};\n        let t = cx.mul(dt, t);\n        let t = cx.mul(t, xs[i]);\n        y = cx.add(y, t);\n    }}\n    let value = {{\n        let t = cx.mul(y, a1);\n        cx.add(t, p)\n    }};\n    let finals = [y];\n"
        );
    } else {
        f.insert("in-out-top-mut-slice");
        let step = if via {
            let arg = "&mut *y";
            format!("    {name}_step({arg}, p, {dt}, xs);\n")
        } else {
            format!(
                "    for i in 0..y.len() {{\n        y[i] = y[i] + {dt} * ({g}) * xs[i];\n    }}\n"
            )
        };
        let helper = if via {
            format!(
                "#[differentiable({attr})]\nfn {name}_step(y: &mut [f64], p: f64, dt: f64, xs: &[f64]) {{\n    for i in 0..y.len() {{\n        y[i] = y[i] + dt * ({g}) * xs[i];\n    }}\n}}\n\n"
            )
        } else {
            String::new()
        };
        source = format!(
            "{helper}#[differentiable({attr})]\nfn {name}(a0: f64, a1: f64, xs: &[f64], y: &mut [f64]) -> f64 {{\n    let p = a0;\n{step}    let mut total = 0.0;\n    for i in 0..y.len() {{\n        total += y[i] * a1;\n    }}\n    total\n}}\n"
        );
        mstate = format!(
            "    let p = a0;\n    let dt = cx.k({dt});\n    let mut ys: Vec<V> = y.to_vec();\n    for i in 0..ys.len() {{\n        let t = {{\n    let y = ys[i];\n    {mg}\n            t\n        }};\n        let t = cx.mul(dt, t);\n        let t = cx.mul(t, xs[i]);\n        ys[i] = cx.add(ys[i], t);\n    }}\n    let mut value = cx.k(0.0);\n    for i in 0..ys.len() {{\n        let t = cx.mul(ys[i], a1);\n        value = cx.add(value, t);\n    }}\n    let finals = ys;\n"
        );
    }
    // `NAME_jvp` takes the tangent of `y`'s value on entry and gives the
    // result's and the final `y`'s: the weighed scalar's tangent is
    // `t_value + Σ S_i · t_y_i`.
    let (ty_in, ty_out) = if scalar {
        ("t[2 + N_{U}]", "[ty]")
    } else {
        ("&t[2 + N_{U}..]", "ty")
    };
    let ty_in = ty_in.replace("{U}", &upper);
    let (copy, call_y, seed_y, dy) = if scalar {
        (
            "let mut y = v[2 + N_{U}];",
            "&mut y",
            "S_{U}[0] * seed",
            "g.push(dy);",
        )
    } else {
        (
            "let mut y = v[2 + N_{U}..].to_vec();",
            "&mut y",
            "S_{U}.iter().map(|c| c * seed).collect::<Vec<f64>>()",
            "g.extend_from_slice(&dy[..]);",
        )
    };
    let copy = copy.replace("{U}", &upper);
    let seed_y = seed_y.replace("{U}", &upper);
    let finals = if scalar { "[y]" } else { "y" };
    let mut code = String::new();
    let _ = write!(
        code,
        "const N_{upper}: usize = {n};\nconst S_{upper}: [f64; {m}] = [{seeds_text}];\n\n\
         fn mirror_{name}(cx: &mut Mirror, a0: V, a1: V, xs: &[V], y: &[V]) -> V {{\n{mstate}    let mut r = value;\n    for (i, y) in finals.iter().enumerate() {{\n        let c = cx.k(S_{upper}[i]);\n        let t = cx.mul(c, *y);\n        r = cx.add(r, t);\n    }}\n    r\n}}\n\n\
         /// The value plus the final state weighed by `S_{upper}`.\n\
         fn weighed_{name}(value: f64, y: &[f64]) -> f64 {{\n    let mut r = value;\n    for (i, y) in y.iter().enumerate() {{\n        if S_{upper}[i] != 0.0 {{\n            r += S_{upper}[i] * y;\n        }}\n    }}\n    r\n}}\n\n\
         fn primal_{name}(v: &[f64]) -> f64 {{\n    {copy}\n    let value = {name}(v[0], v[1], &v[2..2 + N_{upper}], {call_y});\n    weighed_{name}(value, &{finals})\n}}\n\n\
         fn vjp_{name}(v: &[f64], seed: f64) -> (f64, Vec<f64>) {{\n    {copy}\n    let (value, pullback) = {name}_vjp(v[0], v[1], &v[2..2 + N_{upper}], {call_y});\n    let (d0, d1, dxs, dy) = pullback(seed, {seed_y});\n    let mut g = vec![d0, d1];\n    g.extend_from_slice(&dxs[..]);\n    {dy}\n    (weighed_{name}(value, &{finals}), g)\n}}\n\n\
         fn grad_{name}(v: &[f64]) -> (f64, Vec<f64>) {{\n    vjp_{name}(v, 1.0)\n}}\n\n\
         fn jvp_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n    {copy}\n    let (value, tv, ty) = {name}_jvp(v[0], v[1], &v[2..2 + N_{upper}], {call_y}, t[0], t[1], &t[2..2 + N_{upper}], {ty_in});\n    let mut tangent = tv;\n    for (i, ty) in {ty_out}.iter().enumerate() {{\n        tangent += S_{upper}[i] * ty;\n    }}\n    (weighed_{name}(value, &{finals}), tangent)\n}}\n\n\
         fn graph_{name}(cx: &mut Mirror, v: &[V]) -> V {{\n    mirror_{name}(cx, v[0], v[1], &v[2..2 + {n}], &v[2 + {n}..])\n}}\n\n"
    );
    let (hvp, hess) = if hessian {
        let (hy, left) = if scalar {
            ("h.push(hy);", "[y], &[left]")
        } else {
            ("h.extend_from_slice(&hy[..]);", "y, &left")
        };
        let args = format!("v[0], v[1], &v[2..2 + N_{upper}], &mut y");
        let _ = write!(
            code,
            "fn hvp_{name}(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {{\n    {copy}\n    let mut left = y.clone();\n    {name}(v[0], v[1], &v[2..2 + N_{upper}], &mut left);\n    let (value, d0, d1, dxs, dy, h0, h1, hxs, hy) = {name}_hvp({args}, t[0], t[1], &t[2..2 + N_{upper}], {ty_in});\n    fuzz_programs::check_left_as(\"NAME_hvp\", &{left});\n    let mut g = vec![d0, d1];\n    g.extend_from_slice(&dxs[..]);\n    {dy}\n    let mut h = vec![h0, h1];\n    h.extend_from_slice(&hxs[..]);\n    {hy}\n    (value, g, h)\n}}\n\n\
             fn hessian_{name}(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {{\n    {copy}\n    let mut left = y.clone();\n    {name}(v[0], v[1], &v[2..2 + N_{upper}], &mut left);\n    let (value, g, h) = {name}_hessian({args});\n    fuzz_programs::check_left_as(\"NAME_hessian\", &{left});\n    let (g, h): (Vec<f64>, _) = (g.iter().copied().collect(), fuzz_programs::rows(&h));\n    {copy}\n    let coloring = {name}_hessian_pattern({args});\n    fuzz_programs::check_left_as(\"NAME_hessian_pattern\", &{left});\n    {copy}\n    let (svalue, sg, sh) = {name}_hessian_sparse({args}, &coloring);\n    fuzz_programs::check_left_as(\"NAME_hessian_sparse\", &{left});\n    let sg: Vec<f64> = sg.iter().copied().collect();\n    let sh = fuzz_programs::rows(&DMatrix::from(&sh));\n    fuzz_programs::check_sparse_hessian((value, &g, &h), (svalue, &sg, &sh));\n    (value, g, h)\n}}\n\n"
        );
        (format!("Some(hvp_{name})"), format!("Some(hessian_{name})"))
    } else {
        ("None".to_owned(), "None".to_owned())
    };
    let y_input = if scalar {
        "Input::Scalar(\"y\")".to_owned()
    } else {
        format!("Input::Slice(\"y\", {n})")
    };
    let feats: Vec<&str> = f.iter().copied().collect();
    let _ = write!(
        code,
        "const ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[Input::Scalar(\"a0\"), Input::Scalar(\"a1\"), Input::Slice(\"xs\", {n}), {y_input}],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: Some(graph_{name}),\n    jvp: Some(jvp_{name}),\n    hvp: {hvp},\n    hessian: {hess},\n    outputs: None,\n    jacobian: None,\n    grad_f32: None,\n    jvp_f32: None,\n}};\n\n",
        feats.join(" ")
    );
    standalone(name, index, source, code, feats)
}
// ---------------------------------------------------------------------------
// `selection`

/// `max` or `min`, as the method or the path.
fn select(rng: &mut Rng, f: &mut BTreeSet<&'static str>, max: bool, a: &str, b: &str) -> String {
    let op = if max { "max" } else { "min" };
    if rng.chance(0.3) {
        f.insert("selection-path-call");
        format!("f64::{op}({a}, {b})")
    } else {
        format!("{a}.{op}({b})")
    }
}

/// Values whose partials are infinite at the points drawn at kinks
/// (`xs[1..]` zeros: `sqrt` and `powf(0.5)` of a zero sum of squares, a
/// helper's norm of the zero tail) flow into `max`, `min` and `clamp` in
/// either operand position, against constants, arguments and each other,
/// as a running max/min over the slice and through `fold(.., f64::max)`:
/// picked, the adjoint is the graph's (NaN where it is); not picked, the
/// operand is on no path of the run and adds nothing (finding 035). The
/// first term never picks the value at the zero tail, so every program
/// meets the unpicked case at those points.
pub(in crate::generator) fn gen_selection(index: usize, rng: &mut Rng) -> Program {
    let n = rng.range(2, 5) as usize;
    let name = format!("f{index}");
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    let (mut helpers, mut mhelpers) = (String::new(), String::new());
    let mut body = String::from(
        "    let mut s = 0.0;\n    for i in 1..xs.len() {\n        s += xs[i] * xs[i];\n    }\n    let r = s.sqrt();\n",
    );
    let mut mbody = String::from(
        "    let mut s = cx.k(0.0);\n    for i in 1..xs.len() {\n        let q = cx.mul(xs[i], xs[i]);\n        s = cx.add(s, q);\n    }\n    let r = cx.sqrt(s);\n",
    );
    let mut vals = vec!["r"];
    if rng.chance(0.5) {
        f.insert("selection-powf-half");
        body.push_str("    let p = s.powf(0.5);\n");
        mbody
            .push_str("    let p = {\n        let c = cx.k(0.5);\n        cx.powf(s, c)\n    };\n");
        vals.push("p");
    }
    if rng.chance(0.5) {
        f.insert("selection-helper-norm");
        let _ = writeln!(
            helpers,
            "#[differentiable]\nfn {name}_norm(v: &[f64]) -> f64 {{\n    let mut t = 0.0;\n    for i in 0..v.len() {{\n        t += v[i] * v[i];\n    }}\n    t.sqrt()\n}}\n"
        );
        let _ = writeln!(
            mhelpers,
            "fn mirror_{name}_norm(cx: &mut Mirror, v: &[V]) -> V {{\n    let mut t = cx.k(0.0);\n    for i in 0..v.len() {{\n        let q = cx.mul(v[i], v[i]);\n        t = cx.add(t, q);\n    }}\n    cx.sqrt(t)\n}}\n"
        );
        body.push_str(&format!("    let nh = {name}_norm(&xs[1..]);\n"));
        mbody.push_str(&format!("    let nh = mirror_{name}_norm(cx, &xs[1..]);\n"));
        vals.push("nh");
    }
    body.push_str("    let mut out = xs[0] * a0;\n");
    mbody.push_str("    let mut out = cx.mul(xs[0], a0);\n");
    // The mirror's term `t`, added to `out`.
    let add = |mbody: &mut String, m: &str| {
        let _ = writeln!(mbody, "    {{\n{m}        out = cx.add(out, t);\n    }}");
    };
    let others = ["a0", "a1", "xs[0]"];
    let mut cap: Option<bool> = None;
    let terms = (rng.range(2, 4) as usize).max(vals.len());
    for k in 0..terms {
        // Each value in a term of its own first; the first term does not
        // pick `r` where it is 0.
        let (v, form) = if k == 0 {
            ("r", 10 + rng.below(2))
        } else if k < vals.len() {
            (vals[k], rng.pick(&[0, 1, 2, 3, 7]))
        } else {
            (rng.pick(&vals), rng.below(9))
        };
        match form {
            0 | 10 => {
                // Against a constant, either side; at v = 0, `max` with a
                // positive constant takes the constant.
                let max = form == 10 || rng.chance(0.5);
                let c = if form == 10 {
                    rng.pick(&[0.25, 0.5, 1.0])
                } else {
                    rng.pick(&[0.25, 0.5, 1.0, 0.0, -0.5])
                };
                f.insert(if max {
                    "selection-max-const"
                } else {
                    "selection-min-const"
                });
                let (src, mop) = if rng.chance(0.5) {
                    f.insert("selection-const-lhs");
                    let cl = if c > 0.0 && rng.chance(0.5) {
                        format!("{}_f64", lit(c))
                    } else {
                        format!("({}_f64)", lit(c))
                    };
                    let op = if max { "max" } else { "min" };
                    let src = if rng.chance(0.5) {
                        format!("f64::{op}({}, {v})", lit(c))
                    } else {
                        format!("{cl}.{op}({v})")
                    };
                    (src, format!("cx.{op}(c, {v})"))
                } else {
                    let op = if max { "max" } else { "min" };
                    (
                        select(rng, &mut f, max, v, &lit(c)),
                        format!("cx.{op}({v}, c)"),
                    )
                };
                let _ = writeln!(body, "    out += {src};");
                add(
                    &mut mbody,
                    &format!(
                        "        let c = cx.k({});\n        let t = {mop};\n",
                        lit(c)
                    ),
                );
            }
            1 => {
                // Against an argument or another such value, either side.
                let mut pool: Vec<&str> = others.to_vec();
                pool.extend(vals.iter().filter(|w| **w != v));
                let w = rng.pick(&pool);
                let max = rng.chance(0.5);
                f.insert(if max {
                    "selection-max-value"
                } else {
                    "selection-min-value"
                });
                let (a, b) = if rng.chance(0.5) { (v, w) } else { (w, v) };
                let src = select(rng, &mut f, max, a, b);
                let op = if max { "max" } else { "min" };
                let _ = writeln!(body, "    out += {src} * a1;");
                add(
                    &mut mbody,
                    &format!(
                        "        let t = cx.{op}({a}, {b});\n        let t = cx.mul(t, a1);\n"
                    ),
                );
            }
            2 | 11 => {
                // `v.clamp(lo, hi)`: at v = 0 the lower bound when it is
                // positive.
                f.insert("selection-clamp-x");
                let (lo, hi) = if form == 11 {
                    rng.pick(&[(0.25, 2.0), (0.5, 1.5), (1.0, 3.0)])
                } else {
                    rng.pick(&[(0.25, 2.0), (-1.0, 0.5), (0.0, 1.0), (-0.5, 3.0)])
                };
                let _ = writeln!(body, "    out += {v}.clamp({}, {});", lit(lo), lit(hi));
                add(
                    &mut mbody,
                    &format!(
                        "        let lo = cx.k({});\n        let hi = cx.k({});\n        let t = cx.clamp({v}, lo, hi);\n",
                        lit(lo),
                        lit(hi)
                    ),
                );
            }
            3 => {
                // `v` as a bound: `x.clamp(-v, v)` or `x.clamp(-1.0, v + 1.0)`.
                f.insert("selection-clamp-bound");
                let x = rng.pick(&others);
                if rng.chance(0.5) {
                    let _ = writeln!(body, "    out += {x}.clamp(-{v}, {v});");
                    add(
                        &mut mbody,
                        &format!(
                            "        let lo = cx.neg({v});\n        let t = cx.clamp({x}, lo, {v});\n"
                        ),
                    );
                } else {
                    let _ = writeln!(body, "    out += {x}.clamp(-1.0, {v} + 1.0);");
                    add(
                        &mut mbody,
                        &format!(
                            "        let lo = cx.k(-1.0);\n        let one = cx.k(1.0);\n        let hi = cx.add({v}, one);\n        let t = cx.clamp({x}, lo, hi);\n"
                        ),
                    );
                }
            }
            4 | 5 => {
                // A running max or min of each element's `sqrt(x²)` (slope
                // ∞ at a zero element), from an infinity, a constant, an
                // argument or `v`.
                let max = form == 4;
                f.insert(if max {
                    "selection-running-max"
                } else {
                    "selection-running-min"
                });
                let (init, minit) = match rng.below(4) {
                    0 => {
                        let inf = if max {
                            "f64::NEG_INFINITY"
                        } else {
                            "f64::INFINITY"
                        };
                        (inf.to_owned(), format!("cx.k({inf})"))
                    }
                    1 => ("0.25".to_owned(), "cx.k(0.25)".to_owned()),
                    2 => ("a1".to_owned(), "a1".to_owned()),
                    _ => {
                        f.insert("selection-running-from-value");
                        (v.to_owned(), v.to_owned())
                    }
                };
                let op = if max { "max" } else { "min" };
                let (step, mstep) = match rng.below(3) {
                    0 => (format!("m = m.{op}(q);"), format!("m = cx.{op}(m, q);")),
                    1 => (format!("m = q.{op}(m);"), format!("m = cx.{op}(q, m);")),
                    _ => (
                        format!("m = f64::{op}(m, q);"),
                        format!("m = cx.{op}(m, q);"),
                    ),
                };
                let _ = writeln!(
                    body,
                    "    {{\n        let mut m: f64 = {init};\n        for i in 1..xs.len() {{\n            let q = (xs[i] * xs[i]).sqrt();\n            {step}\n        }}\n        out += m * a0;\n    }}"
                );
                add(
                    &mut mbody,
                    &format!(
                        "        let mut m = {minit};\n        for i in 1..xs.len() {{\n            let q = cx.mul(xs[i], xs[i]);\n            let q = cx.sqrt(q);\n            {mstep}\n        }}\n        let t = cx.mul(m, a0);\n"
                    ),
                );
            }
            6 => {
                // `fold(init, f64::max)` over each element's `sqrt(x²)`.
                f.insert("selection-fold-max");
                let init = rng.pick(&["0.5", "f64::NEG_INFINITY", "f64::MIN"]);
                let _ = writeln!(
                    body,
                    "    out += xs[1..].iter().map(|v| (v * v).sqrt()).fold({init}, f64::max) * a1;"
                );
                add(
                    &mut mbody,
                    &format!(
                        "        let mut m = cx.k({init});\n        for i in 1..xs.len() {{\n            let q = cx.mul(xs[i], xs[i]);\n            let q = cx.sqrt(q);\n            m = cx.max(m, q);\n        }}\n        let t = cx.mul(m, a1);\n"
                    ),
                );
            }
            7 => {
                // Selected in a helper the value is passed to (finding 033
                // and 035 together).
                f.insert("selection-in-callee");
                let max = *cap.get_or_insert_with(|| rng.chance(0.5));
                let op = if max { "max" } else { "min" };
                if !helpers.contains(&format!("fn {name}_cap(")) {
                    let _ = writeln!(
                        helpers,
                        "#[differentiable]\nfn {name}_cap(v: f64, c: f64) -> f64 {{\n    v.{op}(c) * 0.75\n}}\n"
                    );
                    let _ = writeln!(
                        mhelpers,
                        "fn mirror_{name}_cap(cx: &mut Mirror, v: V, c: V) -> V {{\n    let t = cx.{op}(v, c);\n    let h = cx.k(0.75);\n    cx.mul(t, h)\n}}\n"
                    );
                }
                let c = rng.pick(&["a0", "a1", "0.5"]);
                let mc = if c == "0.5" { "cx.k(0.5)" } else { c };
                let _ = writeln!(body, "    out += {name}_cap({v}, {c});");
                add(
                    &mut mbody,
                    &format!(
                        "        let c = {mc};\n        let t = mirror_{name}_cap(cx, {v}, c);\n"
                    ),
                );
            }
            _ => {
                // `ln` of the zero sum is -∞ (slope ∞): `max` with a
                // finite bound never returns it there.
                f.insert("selection-ln-max");
                let c = rng.pick(&[-2.0, -3.0]);
                let lhs = rng.chance(0.5);
                let src = if lhs {
                    select(rng, &mut f, true, "s.ln()", &lit(c))
                } else {
                    format!("f64::max({}, s.ln())", lit(c))
                };
                let mop = if lhs { "cx.max(l, c)" } else { "cx.max(c, l)" };
                let _ = writeln!(body, "    out += {src};");
                add(
                    &mut mbody,
                    &format!(
                        "        let l = cx.ln(s);\n        let c = cx.k({});\n        let t = {mop};\n",
                        lit(c)
                    ),
                );
            }
        }
    }
    emit(
        index,
        n,
        f,
        Class::Selection,
        Parts {
            helpers,
            body,
            mhelpers,
            mbody,
            result: ("out".into(), "out".into()),
        },
    )
}
