//! Constructs lowered where they stand, met in one body: a struct local
//! shadowed inside a loop that breaks, a local array of arrays written by
//! element in a branch, a GMM-shaped nest whose inner loop fills an array
//! of costly elements the outer loop reads, and a struct local fed from
//! and into an in-out float through `*acc`. Expected derivatives are
//! five-point central differences of the primal (`fd_support`), within
//! 1e-7 relative (1e-6 for second derivatives, differenced gradients).
// Index loops are the style under test.
#![allow(clippy::needless_range_loop)]

mod fd_support;
use autograd::differentiable;
use fd_support::*;

#[derive(Clone, Copy)]
struct State {
    x: f64,
    v: f64,
}

/// Struct local + nested array + shadowing in a loop with a break.
#[differentiable(jvp, hessian)]
fn mix(a: f64, b: f64) -> f64 {
    let mut s = State { x: a, v: b };
    let mut m = [[a, 0.0], [0.0, b]];
    for k in 0..4 {
        let r = k % 2;
        let s2 = State {
            x: s.v * m[r][0],
            v: s.v,
        };
        if r == 0 {
            m[0][1] += s2.x * 0.1;
        } else {
            m[1][0] -= s2.x * 0.1;
        }
        if s2.x > 5.0 {
            break;
        }
        s = State {
            x: s.x + 0.1 * s2.v,
            v: s2.x.sin(),
        };
    }
    let s = State { x: s.v, v: s.x };
    s.x * m[0][1] + s.v * m[1][0] + m[0][0] * m[1][1]
}

/// GMM-shaped: inner loop fills an array with costly elements, outer reads it.
#[differentiable]
fn nest(w: &[f64], x: &[f64]) -> f64 {
    let k = w.len();
    let mut t = vec![0.0; k];
    let mut total = 0.0;
    for i in 0..x.len() {
        for j in 0..k {
            let mut acc = 0.0;
            for d in 0..3 {
                acc += (w[j] * x[i] + d as f64).exp();
            }
            t[j] = acc.ln();
        }
        let mut mx = t[0];
        for j in 1..k {
            mx = mx.max(t[j]);
        }
        let mut s = 0.0;
        for j in 0..k {
            s += (t[j] - mx).exp() * w[j];
        }
        total += s.ln() + mx;
    }
    total
}

#[differentiable]
fn bump(acc: &mut f64, x: &[f64]) -> f64 {
    let mut st = State { x: *acc, v: 0.0 };
    for i in 0..x.len() {
        st.v += x[i] * st.x;
        *acc += st.v * 0.5;
        st.x = *acc;
    }
    st.v
}

#[test]
fn every_mode_matches_central_differences() {
    for &(a, b) in &[(0.3, 0.7), (1.2, -0.4), (2.0, 3.0)] {
        let (v, da, db) = mix_grad(a, b);
        assert_eq!(v, mix(a, b));
        let (fa, fb) = fd64_2(mix, a, b);
        assert!(
            (da - fa).abs() < 1e-7 * (1.0 + fa.abs()),
            "{a} {b} da {da} {fa}"
        );
        assert!((db - fb).abs() < 1e-7 * (1.0 + fb.abs()), "db {db} {fb}");
        let (_, t) = mix_jvp(a, b, 1.0, 0.0);
        assert!((t - fa).abs() < 1e-7 * (1.0 + fa.abs()), "jvp {t} {fa}");
        let (_, _, h) = mix_hessian(a, b);
        let haa = fd64(|s| mix_grad(s, b).1, a);
        let hab = fd64(|s| mix_grad(a, s).1, b);
        assert!(
            (h[(0, 0)] - haa).abs() < 1e-6 * (1.0 + haa.abs()),
            "haa {} {haa}",
            h[(0, 0)]
        );
        assert!(
            (h[(0, 1)] - hab).abs() < 1e-6 * (1.0 + hab.abs()),
            "hab {} {hab}",
            h[(0, 1)]
        );
    }
    let w = [0.3, -0.2, 0.5, 0.1];
    let x = [0.5, 1.5, -0.7];
    let (v, dw, _) = nest_grad(&w, &x);
    assert_eq!(v, nest(&w, &x));
    let fw = fd64_slice(|w| nest(w, &x), &w);
    for j in 0..4 {
        assert!(
            (dw[j] - fw[j]).abs() < 1e-7 * (1.0 + fw[j].abs()),
            "{j} {} {}",
            dw[j],
            fw[j]
        );
    }
    let mut acc = 0.4;
    let (r, pb) = bump_vjp(&mut acc, &x);
    let f = |a0: f64, x: &[f64]| {
        let mut a = a0;
        let r = bump(&mut a, x);
        r + 0.3 * a
    };
    let mut c = 0.4;
    assert_eq!(r, bump(&mut c, &x));
    assert_eq!(acc, c);
    let (da, dx) = pb(1.0, 0.3);
    let fa = fd64(|a| f(a, &x), 0.4);
    assert!((da - fa).abs() < 1e-7 * (1.0 + fa.abs()), "da {da} {fa}");
    let fx = fd64_slice(|x| f(0.4, x), &x);
    for i in 0..3 {
        assert!((dx[i] - fx[i]).abs() < 1e-7 * (1.0 + fx[i].abs()));
    }
}
