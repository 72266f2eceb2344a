//! Constructs the corpus of naturally written functions found rejected or
//! miscompiled, each now taken: `T::from(x.len())` in a generic body, a
//! `fold` whose closure binds a part before its tuple, a tuple pattern on
//! a `#[constant]` slice of pairs, a generic `fold` from `T::zero()`,
//! `x.first().copied().unwrap_or(d)`, `let Some(v) = x.first() else {
//! .. };` and the destructuring assignment `(a, b) = f(..);`, the last
//! two also through `_jvp` (and `let … else` through `_hessian`), a
//! `Vec` field of a `#[constant]` struct named by a typed local, and such
//! a field (or a row of a `Vec<Vec<f64>>` field) lent to a differentiable
//! helper, `dot(&p.v, x)`, which generated code used to move (E0507),
//! and `T::from` of a `#[constant]` float or slice element in a generic
//! body, which was taken for a differentiable value.
//!
//! Expected derivatives: closed forms where stated, else five-point central
//! differences of the plain function (`tests/fd_support`), to `FD64_ABS`
//! (1e-9) absolute or `FD64_REL` (1e-8) relative; values bit for bit.

#![allow(clippy::needless_range_loop)]

use autograd::differentiable;
use autograd::num_traits::Float;

#[path = "fd_support/mod.rs"]
mod fd_support;
use fd_support::*;

fn check(what: &str, f: impl Fn(&[f64]) -> f64, value: f64, got: &[f64], x: &[f64]) {
    assert_eq!(value.to_bits(), f(x).to_bits(), "{what}: value");
    assert_all_fd64_close(what, got, &fd64_slice(f, x));
}

/// Mean square: the count converted with `T::from(w.len())` of the
/// differentiable slice itself.
#[differentiable]
fn mean_square<T: Float>(w: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..w.len() {
        s = s + w[i] * w[i];
    }
    s / T::from(w.len()).unwrap()
}

/// A `#[constant]` slice's length converted, and `is_nan` of an element.
#[differentiable]
fn scaled_mean<T: Float>(w: &[T], #[constant] x: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..x.len() {
        if !x[i].is_nan() {
            s = s + w[i] * x[i];
        }
    }
    s / T::from(x.len()).unwrap()
}

#[test]
fn scalar_from_a_length() {
    let w = [0.5f64, -1.5, 2.0];
    let (v, dw) = mean_square_grad(&w);
    assert_eq!(v.to_bits(), mean_square(&w).to_bits());
    // Closed form: 2 w / n.
    for (d, x) in dw.iter().zip(&w) {
        assert!((d - 2.0 * x / 3.0).abs() < CF64_ABS, "{dw:?}");
    }
    let x = [1.0, f64::NAN, -2.0, 0.5];
    let w = [0.3, 0.7, -0.2, 1.1];
    let (v, dw) = scaled_mean_grad(&w, &x);
    assert_eq!(v.to_bits(), scaled_mean(&w, &x).to_bits());
    // Closed form: x / n where x is a number, 0 where it is NaN.
    assert_eq!(dw, vec![0.25, 0.0, -0.5, 0.125]);
    let (v32, dw32) = mean_square_grad(&[0.5f32, -1.5]);
    assert_eq!(v32.to_bits(), mean_square(&[0.5f32, -1.5]).to_bits());
    assert_eq!(dw32, vec![0.5f32, -1.5]);
}

/// GARCH(1,1)-like recursion: the closure binds a term, then returns the
/// tuple of the next running values.
#[differentiable]
fn fold_block_tuple(omega: f64, alpha: f64, beta: f64, #[constant] r: &[f64]) -> f64 {
    let (nll, _) = r.iter().fold((0.0, 0.1), |(acc, var), &x| {
        let term = 0.5 * (var.ln() + x * x / var);
        let next = omega + alpha * x * x + beta * var;
        (acc + term, next)
    });
    nll
}

/// A block that shadows a running value before its tuple, and a nested
/// block in its statements.
#[differentiable]
fn fold_block_shadowing(x: &[f64], k: f64) -> f64 {
    let (s, p) = x.iter().fold((0.0, 1.0), |(s, p), v| {
        let s = s + {
            let t = v * k;
            t.sin()
        };
        (s, p * (1.0 + v * v))
    });
    s * p.ln()
}

#[test]
fn fold_closure_binding_before_its_tuple() {
    let r = [0.3, -0.5, 0.2, -0.1, 0.6];
    for p in [[0.5, 0.3, 0.6], [1.2, 0.15, 0.4]] {
        let (v, a, b, c) = fold_block_tuple_grad(p[0], p[1], p[2], &r);
        check(
            "fold_block_tuple",
            |q| fold_block_tuple(q[0], q[1], q[2], &r),
            v,
            &[a, b, c],
            &p,
        );
    }
    for (x, k) in [(vec![0.3, -0.8, 1.2], 0.7), (vec![1.5], -2.0)] {
        let (v, dx, dk) = fold_block_shadowing_grad(&x, k);
        let n = x.len();
        let mut all = x.clone();
        all.push(k);
        let mut got = dx.clone();
        got.push(dk);
        check(
            "fold_block_shadowing",
            |q| fold_block_shadowing(&q[..n], q[n]),
            v,
            &got,
            &all,
        );
    }
}

/// `for &(a, b) in pairs` and `for (a, b) in pairs.iter()` over a
/// `#[constant]` slice of tuples, also in a chain.
#[differentiable]
fn constant_pairs(s: f64, k: f64, #[constant] pairs: &[(f64, f64)]) -> f64 {
    let mut total = 0.0;
    for &(z1, z2) in pairs {
        total += (s * z1 + k * z2).tanh();
    }
    for (w, t) in pairs.iter() {
        total += w * (-k * t).exp();
    }
    let weighted: f64 = pairs.iter().map(|&(a, b)| a * s - b * k * k).sum();
    total + weighted
}

#[test]
fn tuple_patterns_on_constant_pairs() {
    let pairs = [(0.3, -1.1), (1.2, 0.4), (-0.7, 0.9)];
    for p in [[0.5, 0.2], [-1.0, 1.3]] {
        let (v, ds, dk) = constant_pairs_grad(p[0], p[1], &pairs);
        check(
            "constant_pairs",
            |q| constant_pairs(q[0], q[1], &pairs),
            v,
            &[ds, dk],
            &p,
        );
    }
}

/// Iterator chains in a generic body, from `T::zero()`.
#[differentiable]
fn generic_chains<T: Float>(x: &[T], y: &[T], k: T) -> T {
    let squares = x.iter().map(|&e| e * e).fold(T::zero(), |acc, v| acc + v);
    let dot = x
        .iter()
        .zip(y)
        .fold(T::zero(), |acc, (&a, &b)| acc + a * b * k);
    let mut weighted = T::zero();
    for (i, &v) in y.iter().enumerate() {
        weighted = weighted + v.sin() * T::from(i + 1).unwrap();
    }
    squares + dot + weighted
}

#[test]
fn generic_folds() {
    let (x, y, k) = ([0.5, -1.2, 2.0], [1.5, 0.3, -0.7], 0.8);
    let (v, dx, dy, dk) = generic_chains_grad(&x, &y, k);
    let mut all = x.to_vec();
    all.extend(y);
    all.push(k);
    let mut got = dx.clone();
    got.extend(&dy);
    got.push(dk);
    check(
        "generic_chains",
        |q| generic_chains(&q[..3], &q[3..6], q[6]),
        v,
        &got,
        &all,
    );
    let (v32, dx32, _, _) = generic_chains_grad(&[0.5f32, -1.0], &[1.5f32, 0.25], 0.5f32);
    assert_eq!(
        v32.to_bits(),
        generic_chains(&[0.5f32, -1.0], &[1.5f32, 0.25], 0.5f32).to_bits()
    );
    // Closed form: 2 x + y k.
    assert_eq!(dx32, vec![1.75f32, -1.875]);
}

/// `first()`/`last()` with a default: the element, or the default for an
/// empty slice (whose derivative then flows into the default).
#[differentiable]
fn log_return_or(prices: &[f64], d: f64) -> f64 {
    let first = prices.first().copied().unwrap_or(d);
    let last = prices.last().cloned().unwrap_or(d * 2.0);
    (last / first).ln() + first
}

#[test]
fn unwrap_or_of_first_and_last() {
    for x in [vec![100.0, 101.5, 99.0], vec![3.0]] {
        let (v, dx, dd) = log_return_or_grad(&x, 1.5);
        check("log_return_or", |q| log_return_or(q, 1.5), v, &dx, &x);
        assert_eq!(dd, 0.0);
    }
    // Empty: ln 2 + d, so the derivative in d is 1.
    let (v, dx, dd) = log_return_or_grad(&[], 1.5);
    assert_eq!(v.to_bits(), log_return_or(&[], 1.5).to_bits());
    assert!(dx.is_empty());
    assert_eq!(dd, 1.0);
}

/// `let Some(..) = x.first() else { return .. };`, also on `last()` with
/// `.copied()`, and in a loop with `break` in the `else`.
#[differentiable(jvp, hessian)]
fn spread_from_open(prices: &[f64], k: f64) -> f64 {
    let Some(&open) = prices.first() else {
        return k;
    };
    let Some(close) = prices.last().copied() else {
        return 0.0;
    };
    let mut s = 0.0;
    for p in prices {
        s += (p - open).powi(2);
    }
    s * k + close / open
}

#[differentiable]
fn shrink_while_positive(x: &[f64], start: f64) -> f64 {
    let mut s = start;
    let mut n = 0;
    while n < 10 {
        let Some(&v) = x.last() else { break };
        if s < v {
            break;
        }
        s = s * 0.5 + v.sin();
        n += 1;
    }
    s
}

#[test]
fn let_else_on_first_and_last() {
    for x in [vec![1.0, 1.5, 0.9], vec![3.0]] {
        let (v, dx, dk) = spread_from_open_grad(&x, 0.3);
        check("spread_from_open", |q| spread_from_open(q, 0.3), v, &dx, &x);
        assert_fd64_close(
            "spread_from_open dk",
            dk,
            fd64(|k| spread_from_open(&x, k), 0.3),
        );
        let (v, dx, ds) = shrink_while_positive_grad(&x, 250.0);
        check(
            "shrink_while_positive",
            |q| shrink_while_positive(q, 250.0),
            v,
            &dx,
            &x,
        );
        assert_fd64_close(
            "shrink_while_positive ds",
            ds,
            fd64(|s| shrink_while_positive(&x, s), 250.0),
        );
    }
    // Forward mode along a direction, and the Hessian's row of k, against
    // differences of the function and of its gradient.
    let x = [1.0, 1.5, 0.9];
    let (dir, dk) = ([0.3, -0.2, 0.5], 0.7);
    let (v, t) = spread_from_open_jvp(&x, 0.3, &dir, dk);
    assert_eq!(v.to_bits(), spread_from_open(&x, 0.3).to_bits());
    let along = |h: f64| {
        let p: Vec<f64> = x.iter().zip(&dir).map(|(a, d)| a + h * d).collect();
        spread_from_open(&p, 0.3 + h * dk)
    };
    assert_fd64_close("spread_from_open jvp", t, fd64(along, 0.0));
    let (_, _, hess) = spread_from_open_hessian(&x, 0.3);
    for i in 0..3 {
        let want = fd64(|k| spread_from_open_grad(&x, k).1[i], 0.3);
        assert_fd64_close("spread_from_open hessian", hess[(i, 3)], want);
    }
    // The empty slice takes the `else`: the value k, whose derivative is 1.
    let (v, dx, dk) = spread_from_open_grad(&[], 0.3);
    assert_eq!((v, dx.len(), dk), (0.3, 0, 1.0));
    let (v, dx, ds) = shrink_while_positive_grad(&[], 2.0);
    assert_eq!((v, dx.len(), ds), (2.0, 0, 1.0));
}

#[differentiable(jvp)]
fn predict_update(level: f64, p: f64, z: f64, q: f64, r: f64) -> (f64, f64) {
    let p_pred = p + q;
    let gain = p_pred / (p_pred + r);
    (level + gain * (z - level), (1.0 - gain) * p_pred)
}

/// `(a, b) = f(..)` carried through a loop, a swap `(a, b) = (b, a + b)`
/// and `_` among the targets.
#[differentiable(jvp)]
fn destructuring_assignment(q: f64, r: f64, #[constant] zs: &[f64]) -> f64 {
    let (mut level, mut p) = (zs[0], 1.0);
    for &z in &zs[1..] {
        (level, p) = predict_update(level, p, z, q, r);
    }
    let (mut a, mut b) = (q, r);
    for _ in 0..4 {
        (a, b) = (b, a + b * 0.5);
    }
    let mut c = a;
    (c, _) = (c * level, b);
    level + p + c
}

#[test]
fn tuple_assignment() {
    let zs = [1.0, 1.3, 0.8, 1.6, 1.2];
    for x in [[0.1, 0.4], [0.5, 0.05]] {
        let (v, dq, dr) = destructuring_assignment_grad(x[0], x[1], &zs);
        check(
            "destructuring_assignment",
            |y| destructuring_assignment(y[0], y[1], &zs),
            v,
            &[dq, dr],
            &x,
        );
        let (v, t) = destructuring_assignment_jvp(x[0], x[1], &zs, 0.6, -0.4);
        assert_eq!(
            v.to_bits(),
            destructuring_assignment(x[0], x[1], &zs).to_bits()
        );
        let along = |h: f64| destructuring_assignment(x[0] + 0.6 * h, x[1] - 0.4 * h, &zs);
        assert_fd64_close("destructuring_assignment jvp", t, fd64(along, 0.0));
    }
}

/// A schedule of payment times: plain data, not a `Tangent` struct.
pub struct Schedule {
    pub times: Vec<f64>,
    pub notional: f64,
}

/// A `Vec` field of a `#[constant]` struct named by a typed local, then
/// indexed and iterated (windows, and a zip with a differentiable slice).
#[differentiable]
fn swap_value(rate: f64, fixed: f64, spreads: &[f64], #[constant] sched: &Schedule) -> f64 {
    let times: &[f64] = &sched.times;
    let df = |t: f64| (-rate * t).exp();
    let annuity: f64 = times.windows(2).map(|w| (w[1] - w[0]) * df(w[1])).sum();
    let float_leg = df(times[0]) - df(times[times.len() - 1]);
    let spread_pv: f64 = spreads
        .iter()
        .zip(times.iter())
        .map(|(s, t)| s * df(*t))
        .sum();
    sched.notional * (float_leg - fixed * annuity + spread_pv)
}

/// Market data as pricing code holds it: curves, a matrix of cash flows
/// per bond, and which curve point each bond reads.
pub struct Book {
    pub times: Vec<f64>,
    pub flows: Vec<Vec<f64>>,
    pub pillar: Vec<usize>,
    pub spread: Spread,
}

pub struct Spread {
    pub bumps: Vec<f64>,
}

/// The same swap with the field read and iterated in place, no typed
/// local: `sched.times[i]`, `sched.times.windows(2)`, `zip(sched.times.iter())`.
#[differentiable(jvp)]
fn swap_value_in_place(
    rate: f64,
    fixed: f64,
    spreads: &[f64],
    #[constant] sched: &Schedule,
) -> f64 {
    let df = |t: f64| (-rate * t).exp();
    let annuity: f64 = sched
        .times
        .windows(2)
        .map(|w| (w[1] - w[0]) * df(w[1]))
        .sum();
    let float_leg = df(sched.times[0]) - df(sched.times[sched.times.len() - 1]);
    let spread_pv: f64 = spreads
        .iter()
        .zip(sched.times.iter())
        .map(|(s, t)| s * df(*t))
        .sum();
    sched.notional * (float_leg - fixed * annuity + spread_pv)
}

/// Nested fields indexed in place: a row of a `Vec<Vec<f64>>`, an index
/// read from a `Vec<usize>`, a field of a field; and an index loop and a
/// `for` over a field side by side.
#[differentiable(jvp)]
fn book_value(rates: &[f64], #[constant] book: &Book) -> f64 {
    let mut pv = 0.0;
    for b in 0..book.flows.len() {
        let r = rates[book.pillar[b]] + book.spread.bumps[b];
        for k in 0..book.flows[b].len() {
            pv += book.flows[b][k] * (-r * book.times[k]).exp();
        }
    }
    for &bump in &book.spread.bumps {
        if bump > 0.0 {
            pv += bump * rates[0] * rates[0];
        }
    }
    pv
}

#[test]
fn constant_struct_fields_read_in_place() {
    let sched = Schedule {
        times: vec![0.0, 0.5, 1.0, 1.5, 2.0],
        notional: 100.0,
    };
    let spreads = [0.001, 0.002, -0.001];
    for p in [[0.03, 0.025], [0.05, 0.055]] {
        // The same function as `swap_value`, so the same numbers to
        // rounding (the reads are lowered apart), and against central
        // differences.
        let typed = swap_value_grad(p[0], p[1], &spreads, &sched);
        let (v, dr, df, ds) = swap_value_in_place_grad(p[0], p[1], &spreads, &sched);
        let mut typed_all = vec![typed.1, typed.2];
        typed_all.extend(&typed.3);
        let mut got = vec![dr, df];
        got.extend(&ds);
        assert_eq!(v, typed.0);
        for (a, b) in got.iter().zip(&typed_all) {
            assert!(
                (a - b).abs() <= 1e-14 * b.abs().max(1.0),
                "{got:?} vs {typed_all:?}"
            );
        }
        let mut all = p.to_vec();
        all.extend(spreads);
        check(
            "swap_value_in_place",
            |q| swap_value_in_place(q[0], q[1], &q[2..], &sched),
            v,
            &got,
            &all,
        );
    }
    let book = Book {
        times: vec![0.5, 1.0, 2.0],
        flows: vec![vec![2.0, 2.0, 102.0], vec![5.0, 105.0]],
        pillar: vec![1, 0],
        spread: Spread {
            bumps: vec![0.002, -0.001],
        },
    };
    let rates = [0.03, 0.04];
    let (v, d) = book_value_grad(&rates, &book);
    check("book_value", |q| book_value(q, &book), v, &d, &rates);
    // Closed form: the first bond reads rate 1, the second rate 0, and the
    // positive bump adds 0.002 · r₀².
    let r1 = rates[1] + 0.002;
    let r0 = rates[0] - 0.001;
    let d1: f64 =
        -(2.0 * 0.5 * (-r1 * 0.5).exp() + 2.0 * (-r1).exp() + 102.0 * 2.0 * (-r1 * 2.0).exp());
    let d0: f64 = -(5.0 * 0.5 * (-r0 * 0.5).exp() + 105.0 * (-r0).exp()) + 2.0 * 0.002 * rates[0];
    assert!(
        (d[0] - d0).abs() < 1e-12 * d0.abs() && (d[1] - d1).abs() < 1e-12 * d1.abs(),
        "{d:?} vs {d0}, {d1}"
    );
    let (_, t) = book_value_jvp(&rates, &book, &[1.0, -0.5]);
    assert!((t - (d0 - 0.5 * d1)).abs() < 1e-12 * d0.abs(), "{t}");
}

#[test]
fn constant_struct_field_through_a_typed_local() {
    let sched = Schedule {
        times: vec![0.0, 0.5, 1.0, 1.5, 2.0],
        notional: 100.0,
    };
    let spreads = [0.001, 0.002, -0.001];
    for p in [[0.03, 0.025], [0.05, 0.055]] {
        let (v, dr, df, ds) = swap_value_grad(p[0], p[1], &spreads, &sched);
        let mut all = p.to_vec();
        all.extend(spreads);
        let mut got = vec![dr, df];
        got.extend(&ds);
        check(
            "swap_value",
            |q| swap_value(q[0], q[1], &q[2..], &sched),
            v,
            &got,
            &all,
        );
    }
}

/// Data of a model: a weight vector and rows, not parameters.
#[derive(Clone, Debug)]
struct Rows {
    v: Vec<f64>,
    m: Vec<Vec<f64>>,
}

#[differentiable]
fn row_dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// `v·x + Σ_i (m_i·x)²`, the fields lent to a helper.
#[differentiable]
fn lent_fields(x: &[f64], #[constant] p: &Rows) -> f64 {
    let mut s = row_dot(&p.v, x);
    for i in 0..p.m.len() {
        let r = row_dot(&p.m[i], x);
        s += r * r;
    }
    s
}

#[test]
fn a_constant_structs_fields_lent_to_a_helper_have_the_closed_form_gradient() {
    let p = Rows {
        v: vec![1.0, 2.0],
        m: vec![vec![0.5, -1.0], vec![2.0, 0.25]],
    };
    let x = [0.3, -0.7];
    let (value, dx) = lent_fields_grad(&x, &p);
    assert_eq!(value, lent_fields(&x, &p));
    // ∂/∂x_j = v_j + 2 Σ_i (m_i·x) m_ij.
    let r: Vec<f64> =
        p.m.iter()
            .map(|row| row[0] * x[0] + row[1] * x[1])
            .collect();
    for j in 0..2 {
        let want = p.v[j] + 2.0 * r[0] * p.m[0][j] + 2.0 * r[1] * p.m[1][j];
        assert!((dx[j] - want).abs() < 1e-12, "x[{j}]: {} vs {want}", dx[j]);
    }
}

/// Horner with `#[constant]` coefficients and scale, converted by
/// `T::from` where they are used.
#[differentiable]
fn scaled_horner<T: Float>(x: T, #[constant] coeffs: &[f64], #[constant] k: f64) -> T {
    let mut s = T::zero();
    for i in (0..coeffs.len()).rev() {
        s = s * x + T::from(coeffs[i]).unwrap();
    }
    s * T::from(k).unwrap()
}

/// The same with the coefficients iterated, highest degree first.
#[differentiable]
fn iterated_horner<T: Float>(x: T, #[constant] coeffs: &[f64]) -> T {
    let mut s = T::zero();
    for &c in coeffs.iter().rev() {
        s = s * x + T::from(c).unwrap();
    }
    s
}

#[test]
fn t_from_of_iterated_constants_in_a_generic_body_has_the_closed_form_gradient() {
    let coeffs = [1.0, 2.0, 3.0];
    // 1 + 2x + 3x²: the derivative 2 + 6x, exact at these points.
    let (value, dx) = iterated_horner_grad(2.0_f64, &coeffs);
    assert_eq!(value, iterated_horner(2.0_f64, &coeffs));
    assert_eq!(dx, 14.0);
    let (value, dx) = iterated_horner_grad(-1.5_f32, &coeffs);
    assert_eq!(value, iterated_horner(-1.5_f32, &coeffs));
    assert_eq!(dx, -7.0);
}

#[test]
fn t_from_of_constants_in_a_generic_body_has_the_closed_form_gradient() {
    let coeffs = [1.0, 2.0, 3.0];
    // (1 + 2x + 3x²) k: the derivative (2 + 6x) k, exact at these points.
    let (value, dx) = scaled_horner_grad(2.0_f64, &coeffs, 0.5);
    assert_eq!(value, scaled_horner(2.0_f64, &coeffs, 0.5));
    assert_eq!(dx, 7.0);
    let (value, dx) = scaled_horner_grad(-1.5_f32, &coeffs, 2.0);
    assert_eq!(value, scaled_horner(-1.5_f32, &coeffs, 2.0));
    assert_eq!(dx, -14.0);
}

/// Pairs of constant shocks taken apart by an array pattern, `let [z1, z2]
/// = normals[k];` of `#[constant] normals: &[[f64; 2]]`.
#[differentiable]
fn correlated_drift(a: f64, rho: f64, #[constant] normals: &[[f64; 2]]) -> f64 {
    let mut s = 0.0;
    for k in 0..normals.len() {
        let [z1, z2] = normals[k];
        let [_, again] = normals[k];
        s += a * z1 + rho * z2 * again;
    }
    s
}

#[test]
fn an_array_pattern_takes_apart_constant_pairs() {
    let normals = [[0.5, -1.0], [1.5, 2.0], [-0.25, 0.5]];
    let (value, da, drho) = correlated_drift_grad(0.3, 0.7, &normals);
    assert_eq!(value, correlated_drift(0.3, 0.7, &normals));
    // Σ a z1 + ρ z2²: ∂a = Σ z1 = 1.75, ∂ρ = Σ z2² = 5.25 (exact).
    assert_eq!((da, drho), (1.75, 5.25));
}

/// An array pattern of a computed array, `let [s1, s2] = log_sd.map(f64::exp);`.
#[differentiable]
fn product_of_scales(log_sd: [f64; 2], rho: f64) -> f64 {
    let [s1, s2] = log_sd.map(f64::exp);
    rho * s1 * s2
}

#[test]
fn an_array_pattern_takes_apart_a_computed_array() {
    let (value, d_log_sd, d_rho) = product_of_scales_grad([0.5, -0.25], 0.3);
    assert_eq!(value, product_of_scales([0.5, -0.25], 0.3));
    // ρ e^{a + b}: ∂a = ∂b = ρ e^{a+b}, ∂ρ = e^{a+b} (1e-15 relative).
    let e = (0.5_f64).exp() * (-0.25_f64).exp();
    assert!((d_log_sd[0] - 0.3 * e).abs() < 1e-15 && (d_log_sd[1] - 0.3 * e).abs() < 1e-15);
    assert!((d_rho - e).abs() < 1e-15, "{d_rho}");
}

/// `let Some((a, rest)) = x.split_first() else { .. };` and `split_last`
/// (finding 034, section 3): the length test, the element read by index
/// and the rest a sub-slice.
#[differentiable(hessian)]
fn head_squared_minus_rest(x: &[f64]) -> f64 {
    let Some((first, rest)) = x.split_first() else {
        return 0.0;
    };
    let s: f64 = rest.iter().sum();
    *first * first - s
}

#[differentiable]
fn last_times_product_of_rest(x: &[f64]) -> f64 {
    let Some((&last, init)) = x.split_last() else {
        return 1.0;
    };
    let mut p = 1.0;
    for v in init {
        p *= v;
    }
    last * p
}

#[test]
fn let_else_on_split_first_and_split_last() {
    // x₀² − Σᵢ₌₁ xᵢ: gradient (2x₀, −1, −1), Hessian diag(2, 0, 0).
    let x = [1.5, 2.0, 0.5];
    let (v, dx) = head_squared_minus_rest_grad(&x);
    assert_eq!(v.to_bits(), head_squared_minus_rest(&x).to_bits());
    assert_eq!(dx, vec![3.0, -1.0, -1.0]);
    let (_, _, h) = head_squared_minus_rest_hessian(&x);
    for i in 0..3 {
        for j in 0..3 {
            let expected = if i == 0 && j == 0 { 2.0 } else { 0.0 };
            assert_eq!(h[(i, j)], expected, "h[({i}, {j})]");
        }
    }
    let (v, dx) = head_squared_minus_rest_grad(&[]);
    assert_eq!((v, dx.len()), (0.0, 0));
    // x₂·x₀·x₁: each derivative the product of the other two.
    let (v, dx) = last_times_product_of_rest_grad(&x);
    assert_eq!(v.to_bits(), last_times_product_of_rest(&x).to_bits());
    assert_eq!(dx, vec![1.0, 0.75, 3.0]);
    let (v, dx) = last_times_product_of_rest_grad(&[]);
    assert_eq!((v, dx.len()), (1.0, 0));
}
