//! Iterator chains, local arrays, `match` and `loop`/`break` inside
//! `#[differentiable(jvp, hessian)]` functions: `NAME_jvp` against central
//! differences of the primal, `NAME_hvp` against central differences of
//! `NAME_grad`, and both values bit for bit the primal's.

use autograd::differentiable;

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

/// Step 1e-5: the central difference's truncation error is O(h²) ≈ 1e-10
/// and its rounding ≈ 1e-16/1e-5 = 1e-11 of the values here, so agreement
/// to 1e-6 is a real check.
const H: f64 = 1e-5;

fn moved(x: &[f64], v: &[f64], s: f64) -> Vec<f64> {
    x.iter().zip(v).map(|(x, v)| x + s * H * v).collect()
}

/// `NAME_jvp` against `(f(x + h·v) − f(x − h·v)) / 2h`, and `NAME_hvp`
/// against `(∇f(x + h·v) − ∇f(x − h·v)) / 2h`.
fn check(
    f: impl Fn(&[f64]) -> f64,
    grad: impl Fn(&[f64]) -> Vec<f64>,
    jvp: impl Fn(&[f64], &[f64]) -> (f64, f64),
    hvp: impl Fn(&[f64], &[f64]) -> (f64, Vec<f64>, Vec<f64>),
    x: &[f64],
    v: &[f64],
) {
    let (value, tangent) = jvp(x, v);
    assert_eq!(value.to_bits(), f(x).to_bits());
    let want = (f(&moved(x, v, 1.0)) - f(&moved(x, v, -1.0))) / (2.0 * H);
    assert!(close(tangent, want, 1e-6), "jvp {tangent} vs {want}");

    let (value, g, hv) = hvp(x, v);
    assert_eq!(value.to_bits(), f(x).to_bits());
    assert_eq!(g, grad(x));
    let (up, down) = (grad(&moved(x, v, 1.0)), grad(&moved(x, v, -1.0)));
    for (i, got) in hv.iter().enumerate() {
        let want = (up[i] - down[i]) / (2.0 * H);
        assert!(close(*got, want, 1e-6), "H·v[{i}] = {got} vs {want}");
    }
}

const X: [f64; 4] = [0.4, -0.7, 1.1, 0.25];
const V: [f64; 4] = [1.0, 0.5, -0.3, 2.0];

#[differentiable(jvp, hessian)]
fn chain(x: &[f64], w: &[f64]) -> f64 {
    x.iter().zip(w).map(|(a, b)| (a * b).sin() * a).sum()
}

#[test]
fn an_iterator_chain() {
    let w = [0.3, 1.2, -0.8, 2.0];
    let zeros = [0.0; 4];
    check(
        |x| chain(x, &w),
        |x| chain_grad(x, &w).1,
        |x, v| chain_jvp(x, &w, v, &zeros),
        |x, v| {
            let (value, gx, _, hx, _) = chain_hvp(x, &w, v, &zeros);
            (value, gx, hx)
        },
        &X,
        &V,
    );
}

#[differentiable(jvp, hessian)]
fn array(x: &[f64]) -> f64 {
    let a = [x[0] * x[1], x[2].exp(), 2.0 * x[3]];
    let mut s = 0.0;
    for i in 0..3 {
        s += a[i] * a[(i + 1) % 3];
    }
    s
}

#[test]
fn a_local_array() {
    check(array, |x| array_grad(x).1, array_jvp, array_hvp, &X, &V);
}

#[differentiable(jvp, hessian)]
fn matched(x: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += match (i + n) % 3 {
            0 => x[i] * x[i],
            1 => x[i].sin() * x[0],
            _ => (x[i] * x[1]).exp(),
        };
    }
    s
}

#[test]
fn a_match_in_a_loop() {
    for n in 0..3 {
        check(
            |x| matched(x, n),
            |x| matched_grad(x, n).1,
            |x, v| matched_jvp(x, n, v),
            |x, v| matched_hvp(x, n, v),
            &X,
            &V,
        );
    }
}

#[differentiable(jvp, hessian)]
fn until(x: &[f64], n: usize) -> f64 {
    let mut s = x[0];
    let mut k = 0;
    loop {
        s = s * x[1].cos() + x[2] * x[3];
        k += 1;
        if k >= n {
            break;
        }
    }
    s * s
}

#[test]
fn a_loop_with_break() {
    for n in [1, 4] {
        check(
            |x| until(x, n),
            |x| until_grad(x, n).1,
            |x, v| until_jvp(x, n, v),
            |x, v| until_hvp(x, n, v),
            &X,
            &V,
        );
    }
}
