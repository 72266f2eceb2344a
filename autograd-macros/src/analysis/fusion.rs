//! Which loops run as one fused pass: the forward sweep adds each
//! iteration's adjoint contributions as it goes, and the reverse sweep
//! only scales them, as a person writes a gradient by hand.
//!
//! A loop qualifies when its one active carried variable is an
//! accumulator, `s = s + term` or `s = s - term`, read nowhere else in the
//! body: the adjoint of `s` is then the same in every iteration, that of
//! the value after the loop, `ds`, so every contribution the body makes is
//! `ds` times the one it makes with `ds = 1`. The forward sweep adds the
//! latter ("unit" adjoints) into buffers and the reverse multiplies them by
//! `ds`, whatever the code after the loop does with `s`. The body must be
//! straight-line scalar code reading slice arguments by index (no branch,
//! inner loop, call, write, `#[cfg]` statement or other carried adjoint);
//! anything else runs as two passes. Its reverse sweep scales only by a
//! finite adjoint; by ∞ or NaN it runs the two-pass sweep (see
//! `emit::fused`), whose products alone put NaN where it belongs.

use std::collections::{HashMap, HashSet};

use super::{Analysis, carry_active, scalar_form};
use crate::ir::*;
use crate::table::Operator;

/// How a fused loop's reverse is made.
pub struct Fusion {
    /// The accumulator, an index into the loop's `carried`.
    pub acc: usize,
    /// Active values defined before the loop that its body adds
    /// contributions into (floats and slice arguments), first read first:
    /// each has a unit adjoint filled by the forward sweep.
    pub outer: Vec<ValueId>,
    /// The slices among `outer` that receive no contribution anywhere
    /// else: their adjoint is the unit buffer itself, scaled in place.
    pub sole: HashSet<ValueId>,
}

/// The fusable loops at the top level of the body, by loop id.
pub fn fused_loops(f: &Function, an: &Analysis) -> HashMap<LoopId, Fusion> {
    f.body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Loop(l) => Some((l.id, fusion(f, an, l)?)),
            _ => None,
        })
        .collect()
}

fn fusion(f: &Function, an: &Analysis, l: &Loop) -> Option<Fusion> {
    if l.checkpoint.is_some() || !matches!(l.header, LoopHeader::Range { .. }) {
        return None;
    }
    let mut active = l
        .carried
        .iter()
        .enumerate()
        .filter(|(_, c)| carry_active(an, c));
    let (acc, c) = active.next()?;
    if active.next().is_some() || f.info(c.entry).kind != Kind::Float {
        return None;
    }
    let mut entry_reads = 0;
    let mut exit_reads = 0;
    l.body.for_each_read(&mut |v| {
        entry_reads += usize::from(*v == c.entry);
        exit_reads += usize::from(*v == c.exit);
    });
    if entry_reads != 1 || exit_reads != 0 || !accumulates(l, c) {
        return None;
    }
    // A non-finite adjoint runs the two-pass sweep, computing the body
    // again from what is at hand after the loop: nothing may be needed
    // from a stack.
    if an.saves(l).stacked() {
        return None;
    }
    let mut outer = Vec::new();
    for stmt in &l.body.stmts {
        let Stmt::Let { dst, op, .. } = stmt else {
            return None;
        };
        if !straight_line(f, an, *dst, op) {
            return None;
        }
        // A value nobody reads sends no adjoint back: what it reads gets
        // no contribution from it (finding 018).
        if !an.active(*dst) {
            continue;
        }
        for v in op.reads() {
            if an.active(v) && f.info(v).block != l.body.id && !outer.contains(&v) {
                let info = f.info(v);
                let slice = info.kind == Kind::Slice && info.param.is_some();
                if !(slice || info.kind == Kind::Float) {
                    return None;
                }
                outer.push(v);
            }
        }
    }
    let sole = outer
        .iter()
        .copied()
        .filter(|&v| f.info(v).kind == Kind::Slice && read_only_here(f, l, v))
        .collect();
    Some(Fusion { acc, outer, sole })
}

/// Whether the exit value of `c` is `entry + term`, `term + entry` or
/// `entry - term`, defined at the top of the body.
fn accumulates(l: &Loop, c: &Carried) -> bool {
    l.body.stmts.iter().any(|s| match s {
        Stmt::Let {
            dst,
            op: Op::Rule { rule, args, .. },
            ..
        } if *dst == c.exit && args.len() == 2 => {
            let entry = |o: &Operand| o.value() == Some(c.entry);
            match rule.operator {
                Some(Operator::Add) => entry(&args[0]) || entry(&args[1]),
                Some(Operator::Sub) => entry(&args[0]),
                _ => false,
            }
        }
        _ => false,
    })
}

/// Whether the reverse of `dst = op` is scalar arithmetic on values of the
/// iteration, or adds into a slice argument's element.
fn straight_line(f: &Function, an: &Analysis, dst: ValueId, op: &Op) -> bool {
    match op {
        Op::Rule { rule, args, .. } => {
            !an.active(dst) || (f.info(dst).kind == Kind::Float && scalar_form(f, rule, args))
        }
        Op::Index { slice, .. } => {
            let info = f.info(*slice);
            !an.active(dst) || (info.kind == Kind::Slice && info.param.is_some())
        }
        Op::Copy(_) => !an.active(dst) || f.info(dst).kind == Kind::Float,
        Op::Len { .. }
        | Op::StopGradient { .. }
        | Op::Cast { .. }
        | Op::Primal { .. }
        | Op::Literal { .. } => true,
        _ => false,
    }
}

/// Whether every read of slice `x` in the function, but its length, is an
/// element read in the body of `l`.
fn read_only_here(f: &Function, l: &Loop, x: ValueId) -> bool {
    let mut others = 0usize;
    f.body
        .for_each_read(&mut |v| others += usize::from(*v == x));
    others += usize::from(f.ret.value() == Some(x));
    let mut lengths = LengthReads { x, count: 0 };
    lengths.visit_block(&f.body);
    let mut here = 0;
    for s in &l.body.stmts {
        if let Stmt::Let {
            op: Op::Index { slice, .. },
            ..
        } = s
        {
            here += usize::from(*slice == x);
        }
    }
    others == lengths.count + here
}

/// Counts `x.len()` anywhere in a block.
struct LengthReads {
    x: ValueId,
    count: usize,
}

impl<'a> Visitor<'a> for LengthReads {
    fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
        if let Stmt::Let {
            op: Op::Len { slice },
            ..
        } = stmt
        {
            self.count += usize::from(*slice == self.x);
        }
        walk_stmt(self, stmt);
    }
}

#[cfg(test)]
mod tests {
    use crate::snapshot_tests::expand_to_string;

    /// Whether loop `id` of the function's expansion is fused: its forward
    /// sweep fills unit adjoints.
    fn fused(src: &str, id: u32) -> bool {
        let out = expand_to_string("", src);
        assert!(
            out.contains("fn __vjp_full") && !out.contains("compile_error"),
            "no reverse sweep for {src}"
        );
        out.contains(&format!("__ad_u{id}_"))
    }

    #[test]
    fn sums_fuse() {
        for src in [
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() - 1 { let b = x[i + 1] - x[i] * x[i]; s += b * b; } s }",
            "fn f(x: &[f64], z: f64) -> f64 { let mut s = z; for i in 0..x.len() { s -= x[i] * z; } s * s.sin() }",
            "fn f(a: f64, #[constant] y: &[f64]) -> f64 { let w = a * a; let mut s = 0.0; for i in 0..y.len() { s = (a - y[i]) * w + s; } s }",
        ] {
            assert!(fused(src, 0), "not fused: {src}");
        }
    }

    #[test]
    fn other_loops_do_not() {
        for src in [
            // The accumulator is read in the body.
            "fn f(x: &[f64]) -> f64 { let mut s: f64 = 0.1; for i in 0..x.len() { s += x[i] * s.sin(); } s }",
            // Its sign alternates.
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { s = x[i] - s; } s }",
            // It is scaled.
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { s = 0.5 * s + x[i]; } s }",
            // Two accumulators.
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; let mut q = 0.0; for i in 0..x.len() { s += x[i]; q += x[i] * x[i]; } s * q }",
            // A nested loop.
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { for j in 0..i { s += x[i] * x[j]; } } s }",
            // `continue` (a branch).
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { if x[i] > 1.0 { continue; } s += x[i]; } s }",
            // An array written in the body.
            "fn f(x: &[f64]) -> f64 { let mut v = vec![0.0; x.len()]; let mut s = 0.0; for i in 0..x.len() { v[i] = x[i] * 2.0; s += v[i]; } s + v[0] }",
            // A `while` loop.
            "fn f(x: f64) -> f64 { let mut s = 0.0; let mut t = 0.0; while t < 1.0 { s += x * t; t += 0.25; } s }",
            // A call in the body.
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { s += g(x[i]); } s }",
            // A generic scalar.
            "fn f<T: Float>(x: &[T]) -> T { let mut s = T::zero(); for i in 0..x.len() { s = s + x[i] * x[i]; } s }",
        ] {
            assert!(!fused(src, 0), "fused: {src}");
        }
    }

    /// A `#[cfg]` statement in the body is a branch decided at compile
    /// time: the loop runs as two passes, whose code carries the
    /// attribute (tests/trust.rs checks the derivatives).
    #[test]
    fn cfg_in_the_body_is_not_fused() {
        for src in [
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { s += x[i] * x[i]; #[cfg(any())] { s += 100.0 * x[i]; } } s }",
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { s += x[i] * x[i]; #[cfg(not(any()))] { s += 3.0 * x[i]; } } s }",
            "fn f(x: &[f64]) -> f64 { let mut s = 0.0; for i in 0..x.len() { let t = x[i]; #[cfg(any())] let t = 100.0 * t; s += t * t; } s }",
            "fn f(x: &[f64], #[constant] c: f64) -> f64 { let mut s = 0.0; for i in 0..x.len() { #[cfg(debug_assertions)] let b = 1e6; #[cfg(debug_assertions)] assert!(c < b); s += x[i] * c; } s }",
        ] {
            assert!(!fused(src, 0), "fused: {src}");
            let out = expand_to_string("", src);
            assert!(
                out.matches("#[cfg(").count() >= 3,
                "no #[cfg] in the sweeps: {src}"
            );
        }
        // A loop under `#[cfg]` is not at the top level.
        let src = "fn f(x: &[f64]) -> f64 { let mut s = 0.0; #[cfg(not(any()))] for i in 0..x.len() { s += x[i] * x[i]; } s }";
        assert!(!fused(src, 0), "fused: {src}");
    }

    /// Finding 018: a value the body computes but nobody reads sends no
    /// adjoint back, so the loop still fuses and what that value reads gets
    /// no unit adjoint (it did, and its adjoint was then written twice).
    #[test]
    fn an_unread_value_in_the_body_does_not_reach_outside() {
        let src = "fn f(x: &[f64], z: f64) -> f64 { let mut s = 0.0; for i in 0..x.len() { let unused = z * 3.0; s += x[i] * x[i]; } s + z }";
        assert!(fused(src, 0), "not fused: {src}");
        let out = expand_to_string("", src);
        let units: Vec<&str> = out
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| w.starts_with("__ad_u0_"))
            .collect();
        assert!(!units.is_empty(), "{out}");
        assert!(units.iter().all(|w| !w.ends_with("_z")), "{units:?}");
    }

    #[test]
    fn a_loop_inside_a_branch_is_not_fused_but_a_later_one_is() {
        let src = "fn f(x: &[f64], c: bool) -> f64 {
            let mut s = 0.0;
            if c { for i in 0..x.len() { s += x[i]; } }
            let mut q = 0.0;
            for i in 0..x.len() { q += x[i] * x[i]; }
            s + q
        }";
        assert!(!fused(src, 0));
        assert!(fused(src, 1));
    }
}
