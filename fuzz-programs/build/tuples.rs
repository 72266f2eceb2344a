//! The class `mutable-tuples` (see the module docs of `classes.rs`): a
//! mutable tuple local over `(a0: f64, a1: f64, xs: &[f64])`, as Rust code
//! tracks a pair: an argmax `best = (i, v)`, running sums
//! `acc = (acc.0 + v, acc.1 + v * v)`, a component written on its own
//! (`t.1 += ..`), swapped, assigned in a branch's arms, bound from an `if`,
//! and read whole (`let (p, q) = t;`). Each mirror holds the pair as two
//! `V`s.

use super::today::{Parts, emit_jvp};
use super::{Class, Program, Rng};
use std::collections::BTreeSet;
use std::fmt::Write as _;

pub(in crate::generator) fn gen_mutable_tuples(index: usize, rng: &mut Rng) -> Program {
    let n = rng.range(2, 5) as usize;
    let mut f: BTreeSet<&'static str> = BTreeSet::new();
    let (mut body, mut mbody) = (String::new(), String::new());
    let mut terms: Vec<String> = Vec::new();
    for k in 0..rng.range(2, 4) {
        let (t, r) = (format!("t{k}"), format!("r{k}"));
        match rng.below(6) {
            0 => {
                f.insert("tuple-argmax");
                let _ = writeln!(
                    body,
                    "    let mut {t} = (0usize, a0);\n    for (i, &v) in xs.iter().enumerate() {{\n        if v > {t}.1 {{\n            {t} = (i + 1, v);\n        }}\n    }}\n    let {r} = {t}.1 * a1 * ({t}.0 as f64 + 1.0);"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {t} = (0usize, a0);\n    for (i, &v) in xs.iter().enumerate() {{\n        if cx.gt(v, {t}.1) {{\n            {t} = (i + 1, v);\n        }}\n    }}\n    let {r} = {{\n        let p = cx.mul({t}.1, a1);\n        let w = cx.k({t}.0 as f64 + 1.0);\n        cx.mul(p, w)\n    }};"
                );
            }
            1 => {
                f.insert("tuple-running-sums");
                let _ = writeln!(
                    body,
                    "    let mut {t}: (f64, f64) = (0.0, a1);\n    for &v in xs {{\n        {t} = ({t}.0 + v * a0, {t}.1 + v * v);\n    }}\n    let {r} = {t}.0 * {t}.1;"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {t} = (cx.k(0.0), a1);\n    for &v in xs {{\n        let p = cx.mul(v, a0);\n        let q = cx.mul(v, v);\n        {t} = (cx.add({t}.0, p), cx.add({t}.1, q));\n    }}\n    let {r} = cx.mul({t}.0, {t}.1);"
                );
            }
            2 => {
                f.insert("tuple-component-writes");
                let _ = writeln!(
                    body,
                    "    let mut {t} = (a0, a1);\n    {t}.0 += xs[0] * 0.5;\n    {t}.1 *= a0;\n    {t}.0 = {t}.0 - {t}.1 * 0.25;\n    let {r} = {t}.0 + {t}.1;"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {t} = (a0, a1);\n    let h = cx.k(0.5);\n    let p = cx.mul(xs[0], h);\n    {t}.0 = cx.add({t}.0, p);\n    {t}.1 = cx.mul({t}.1, a0);\n    let q = cx.k(0.25);\n    let p = cx.mul({t}.1, q);\n    {t}.0 = cx.sub({t}.0, p);\n    let {r} = cx.add({t}.0, {t}.1);"
                );
            }
            3 => {
                f.insert("tuple-swaps");
                let steps = rng.range(1, 4);
                let _ = writeln!(
                    body,
                    "    let mut {t} = (a0, xs[{}]);\n    for _ in 0..{steps} {{\n        {t} = ({t}.1, {t}.0 * 0.5 + a1);\n    }}\n    let (p{k}, q{k}) = {t};\n    let {r} = p{k} * q{k};",
                    n - 1
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {t} = (a0, xs[{}]);\n    for _ in 0..{steps} {{\n        let h = cx.k(0.5);\n        let p = cx.mul({t}.0, h);\n        {t} = ({t}.1, cx.add(p, a1));\n    }}\n    let {r} = cx.mul({t}.0, {t}.1);",
                    n - 1
                );
            }
            4 => {
                f.insert("tuple-branch-assign");
                let _ = writeln!(
                    body,
                    "    let mut {t} = (a0, a1);\n    if a0 > a1 {{\n        {t} = ({t}.1, {t}.0 * xs[0]);\n    }} else {{\n        {t}.1 -= a0 * 0.5;\n    }}\n    let {r} = {t}.0 - {t}.1 * {t}.1;"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {t} = (a0, a1);\n    if cx.gt(a0, a1) {{\n        let p = cx.mul({t}.0, xs[0]);\n        {t} = ({t}.1, p);\n    }} else {{\n        let h = cx.k(0.5);\n        let p = cx.mul(a0, h);\n        {t}.1 = cx.sub({t}.1, p);\n    }}\n    let {r} = {{\n        let s = cx.mul({t}.1, {t}.1);\n        cx.sub({t}.0, s)\n    }};"
                );
            }
            _ => {
                f.insert("tuple-from-branch");
                let _ = writeln!(
                    body,
                    "    let mut {t} = if a0 < a1 {{ (a0, a1) }} else {{ (a1, a0) }};\n    for i in 0..xs.len() {{\n        {t}.1 += {t}.0 * xs[i];\n    }}\n    let {r} = {t}.0 + {t}.1;"
                );
                let _ = writeln!(
                    mbody,
                    "    let mut {t} = if cx.lt(a0, a1) {{ (a0, a1) }} else {{ (a1, a0) }};\n    for i in 0..xs.len() {{\n        let p = cx.mul({t}.0, xs[i]);\n        {t}.1 = cx.add({t}.1, p);\n    }}\n    let {r} = cx.add({t}.0, {t}.1);"
                );
            }
        }
        terms.push(r);
    }
    let source = terms.join(" + ");
    let mut mirror = String::from("{\n        let mut s = cx.k(0.0);\n");
    for r in &terms {
        let _ = writeln!(mirror, "        s = cx.add(s, {r});");
    }
    mirror.push_str("        s\n    }");
    emit_jvp(
        index,
        n,
        f,
        Class::MutableTuples,
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
