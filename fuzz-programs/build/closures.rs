//! The class `closures` (see the module docs of `classes.rs`): closures
//! bound by `let` over `(a0: f64, a1: f64, xs: &[f64])`, as pricing and
//! simulation code writes them (a present value over `xs`, a payoff with a
//! branch, one with an early `return`, one calling another), called in
//! expressions, in an `if`'s and a `while`'s condition, in a bisection, in
//! a `map` closure, in a loop body, in an assertion, and shadowed by one
//! calling it; and a nalgebra `map` closure reading floats that carry a
//! derivative. Each closure's mirror is a closure over `cx` and `V`s.

use super::today::{Parts, emit_jvp};
use super::{Class, Program, Rng};
use crate::ast::lit;
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// A closure's source (its `let`, indented once) and its mirror's.
struct Closure {
    name: &'static str,
    source: String,
    mirror: String,
}

fn closures(rng: &mut Rng, f: &mut BTreeSet<&'static str>) -> Vec<Closure> {
    let mut out = Vec::new();
    // A present value over `xs` (a loop in the closure, `xs` captured).
    if rng.chance(0.7) {
        f.insert("closure-loop");
        let rate = lit(*[1.0, 0.5, 0.25].get(rng.below(3)).expect("a rate"));
        out.push(Closure {
            name: "pv",
            source: format!(
                "    let pv = |z: f64| -> f64 {{\n        let mut s = 0.0;\n        for i in 0..xs.len() {{\n            s += xs[i] * (-z * {rate} * (i as f64 + 1.0)).exp();\n        }}\n        s\n    }};\n"
            ),
            mirror: format!(
                "    let pv = |cx: &mut Mirror, z: V| -> V {{\n        let mut s = cx.k(0.0);\n        for i in 0..xs.len() {{\n            let r = cx.k({rate});\n            let t = cx.mul(z, r);\n            let k = cx.k(i as f64 + 1.0);\n            let t = cx.mul(t, k);\n            let t = cx.neg(t);\n            let e = cx.exp(t);\n            let p = cx.mul(xs[i], e);\n            s = cx.add(s, p);\n        }}\n        s\n    }};\n"
            ),
        });
    }
    // A payoff with a branch on an argument it captures.
    f.insert("closure-branch");
    out.push(Closure {
        name: "br",
        source: "    let br = |z: f64| if z > a1 { z * a0 } else { z * z };\n".into(),
        mirror: "    let br = |cx: &mut Mirror, z: V| -> V { if cx.gt(z, a1) { cx.mul(z, a0) } else { cx.mul(z, z) } };\n".into(),
    });
    // An early `return` in the closure's body.
    if rng.chance(0.6) {
        f.insert("closure-return");
        out.push(Closure {
            name: "rt",
            source: "    let rt = |z: f64| -> f64 {\n        if z < 0.0 {\n            return -z * a0;\n        }\n        z * a1\n    };\n".into(),
            mirror: "    let rt = |cx: &mut Mirror, z: V| -> V {\n        let zero = cx.k(0.0);\n        if cx.lt(z, zero) {\n            let t = cx.neg(z);\n            return cx.mul(t, a0);\n        }\n        cx.mul(z, a1)\n    };\n".into(),
        });
    }
    // A closure calling another.
    if rng.chance(0.6) {
        f.insert("closure-calls-closure");
        out.push(Closure {
            name: "qv",
            source: "    let qv = |z: f64| br(z) * 2.0 + z;\n".into(),
            mirror: "    let qv = |cx: &mut Mirror, z: V| -> V {\n        let b = br(cx, z);\n        let two = cx.k(2.0);\n        let t = cx.mul(b, two);\n        cx.add(t, z)\n    };\n".into(),
        });
    }
    out
}

pub(in crate::generator) fn gen_closures(index: usize, rng: &mut Rng) -> Program {
    let n = rng.range(2, 5) as usize;
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    let defs = closures(rng, &mut f);
    let names: Vec<&'static str> = defs.iter().map(|c| c.name).collect();
    let (mut body, mut mbody) = (String::new(), String::new());
    for c in &defs {
        body.push_str(&c.source);
        mbody.push_str(&c.mirror);
    }
    let mut terms: Vec<(String, String)> = Vec::new();
    let uses = rng.range(2, 4);
    for k in 0..uses {
        let c = rng.pick(&names);
        let d = rng.pick(&names);
        let r = format!("r{k}");
        match rng.below(9) {
            0 => {
                f.insert("closure-in-expression");
                let _ = writeln!(body, "    let {r} = {c}(a0) + {d}(xs[0]) * a1;");
                let _ = writeln!(
                    mbody,
                    "    let {r} = {{\n        let p = {c}(cx, a0);\n        let q = {d}(cx, xs[0]);\n        let q = cx.mul(q, a1);\n        cx.add(p, q)\n    }};"
                );
            }
            1 => {
                f.insert("closure-in-if-condition");
                let _ = writeln!(
                    body,
                    "    let {r} = if {c}(a0) > {d}(a1) {{ {c}(xs[1 % xs.len()]) }} else {{ a0 * a1 }};"
                );
                let _ = writeln!(
                    mbody,
                    "    let {r} = {{\n        let p = {c}(cx, a0);\n        let q = {d}(cx, a1);\n        if cx.gt(p, q) {{ {c}(cx, xs[1 % xs.len()]) }} else {{ cx.mul(a0, a1) }}\n    }};"
                );
            }
            2 => {
                f.insert("closure-in-bisection");
                let steps = rng.range(2, 6);
                let _ = writeln!(
                    body,
                    "    let mut lo{k} = -1.0;\n    let mut hi{k} = 2.0;\n    for _ in 0..{steps} {{\n        let mid = 0.5 * (lo{k} + hi{k});\n        if {c}(mid) > a1 {{\n            hi{k} = mid;\n        }} else {{\n            lo{k} = mid;\n        }}\n    }}\n    let {r} = lo{k} * a0 + hi{k};"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut lo{k} = cx.k(-1.0);\n    let mut hi{k} = cx.k(2.0);\n    for _ in 0..{steps} {{\n        let h = cx.k(0.5);\n        let s = cx.add(lo{k}, hi{k});\n        let mid = cx.mul(h, s);\n        let p = {c}(cx, mid);\n        if cx.gt(p, a1) {{\n            hi{k} = mid;\n        }} else {{\n            lo{k} = mid;\n        }}\n    }}\n    let {r} = {{\n        let t = cx.mul(lo{k}, a0);\n        cx.add(t, hi{k})\n    }};"
                );
            }
            3 => {
                f.insert("closure-in-while-condition");
                let _ = writeln!(
                    body,
                    "    let mut s{k} = a0.abs() + 0.1;\n    let mut n{k} = 0;\n    while {c}(s{k}) < 4.0 && n{k} < 6 {{\n        s{k} *= 1.5;\n        n{k} += 1;\n    }}\n    let {r} = s{k} * a1;"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut s{k} = {{\n        let t = cx.abs(a0);\n        let e = cx.k(0.1);\n        cx.add(t, e)\n    }};\n    let mut n{k} = 0;\n    loop {{\n        let p = {c}(cx, s{k});\n        let four = cx.k(4.0);\n        if !(cx.lt(p, four) && n{k} < 6) {{\n            break;\n        }}\n        let g = cx.k(1.5);\n        s{k} = cx.mul(s{k}, g);\n        n{k} += 1;\n    }}\n    let {r} = cx.mul(s{k}, a1);"
                );
            }
            4 => {
                f.insert("closure-in-map");
                let _ = writeln!(body, "    let {r}: f64 = xs.iter().map(|&x| {c}(x)).sum();");
                let _ = writeln!(
                    mbody,
                    "    let {r} = {{\n        let mut s = cx.k(0.0);\n        for &x in xs {{\n            let p = {c}(cx, x);\n            s = cx.add(s, p);\n        }}\n        s\n    }};"
                );
            }
            5 => {
                f.insert("closure-in-loop");
                let _ = writeln!(
                    body,
                    "    let mut {r} = 0.0;\n    for i in 0..xs.len() {{\n        {r} += {c}(xs[i]) * a0;\n    }}"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {r} = cx.k(0.0);\n    for i in 0..xs.len() {{\n        let p = {c}(cx, xs[i]);\n        let t = cx.mul(p, a0);\n        {r} = cx.add({r}, t);\n    }}"
                );
            }
            6 => {
                f.insert("closure-in-assertion");
                let _ = writeln!(
                    body,
                    "    debug_assert!({c}(a1).is_finite(), \"{c} = {{}}\", {c}(a1));\n    let {r} = {c}(a1);"
                );
                let _ = writeln!(mbody, "    let {r} = {c}(cx, a1);");
            }
            7 => {
                // A nalgebra `map` closure reading floats that carry a
                // derivative (a shift and a scale).
                f.insert("closure-map-inputs");
                let _ = writeln!(
                    body,
                    "    let v{k} = nalgebra::DVector::from_vec(vec![xs[0], xs[1], a0 * 0.5]);\n    let mu{k} = v{k}.sum() * 0.25 + a0;\n    let {r} = v{k}.map(|x| ((x - mu{k}) * a1).tanh()).sum();"
                );
                let _ = writeln!(
                    mbody,
                    "    let {r} = {{\n        let h = cx.k(0.5);\n        let e2 = cx.mul(a0, h);\n        let es = [xs[0], xs[1], e2];\n        let mut s = cx.k(-0.0);\n        for &e in &es {{\n            s = cx.add(s, e);\n        }}\n        let q = cx.k(0.25);\n        let mu = cx.mul(s, q);\n        let mu = cx.add(mu, a0);\n        let mut r = cx.k(-0.0);\n        for &e in &es {{\n            let d = cx.sub(e, mu);\n            let d = cx.mul(d, a1);\n            let t = cx.tanh(d);\n            r = cx.add(r, t);\n        }}\n        r\n    }};"
                );
            }
            _ => {
                f.insert("closure-shadowed");
                // The new closure captures the one it shadows.
                let _ = writeln!(
                    body,
                    "    let {c} = |z: f64| {c}(z) + a1 * z;\n    let {r} = {c}(a0);"
                );
                let _ = writeln!(
                    mbody,
                    "    let {c} = |cx: &mut Mirror, z: V| -> V {{\n        let p = {c}(cx, z);\n        let t = cx.mul(a1, z);\n        cx.add(p, t)\n    }};\n    let {r} = {c}(cx, a0);"
                );
            }
        }
        terms.push((r.clone(), r));
    }
    let source = terms
        .iter()
        .map(|t| t.0.as_str())
        .collect::<Vec<_>>()
        .join(" + ");
    let mut mirror = String::from("{\n        let mut s = cx.k(0.0);\n");
    for (_, m) in &terms {
        let _ = writeln!(mirror, "        s = cx.add(s, {m});");
    }
    mirror.push_str("        s\n    }");
    emit_jvp(
        index,
        n,
        f,
        Class::Closures,
        Parts {
            helpers: String::new(),
            body,
            mhelpers: String::new(),
            mbody,
            result: (source, mirror),
        },
        false,
        true,
    )
}
