//! A `Tangent` struct returned by a `#[differentiable]` helper and read by
//! its fields in the caller (issue 36, "What must work", item 6):
//! `let p = make(a, b); p.u * x + p.v`, from a function of numbers and
//! from one taking a struct, in `_grad`, `_grad_acc`, `_vjp`, `_check` and
//! `_jvp`.
//!
//! Expected derivatives are closed forms (tolerance `CF64_ABS` absolute or
//! `CF64_REL` relative), written out below from the functions' formulas.

// A body indexing in a loop, and a struct returned through a local, as
// users write them.
#![allow(clippy::needless_range_loop, clippy::let_and_return)]

mod fd_support;

use approx::assert_relative_eq;
use autograd::{Tangent, differentiable};
use fd_support::{CF64_ABS, CF64_REL};

#[derive(Clone, Debug, Tangent)]
pub struct Pair {
    pub u: f64,
    pub v: f64,
}

/// `(sin(a)·b, a² + b)`, the struct built last from a local.
#[differentiable(jvp)]
pub fn make(a: f64, b: f64) -> Pair {
    let u = a.sin() * b;
    Pair { u, v: a * a + b }
}

/// `(a·w₀, a·w₁ + w₂)` of a slice, the struct held in a local.
#[differentiable(jvp)]
pub fn affine(a: f64, w: &[f64]) -> Pair {
    let p = Pair {
        u: a * w[0],
        v: a * w[1] + w[2],
    };
    p
}

/// `u·x + v²` with `(u, v) = make(a, x)`.
#[differentiable(jvp)]
pub fn use_pair(a: f64, x: f64) -> f64 {
    let p = make(a, x);
    p.u * x + p.v * p.v
}

/// `Σᵢ uᵢ·vᵢ` over `(uᵢ, vᵢ) = affine(xᵢ, w)`: the helper called in a loop.
#[differentiable]
pub fn summed(xs: &[f64], w: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        let q = affine(xs[i], w);
        s += q.u * q.v;
    }
    s
}

#[derive(Clone, Debug, Tangent)]
pub struct Model {
    pub k: f64,
    #[constant]
    pub b: f64,
}

/// `u + k·v` with `(u, v) = make(a·k, b)`: from a function taking a struct.
#[differentiable(jvp)]
pub fn with_model(m: &Model, a: f64) -> f64 {
    let p = make(a * m.k, m.b);
    p.u + p.v * m.k
}

fn close(got: f64, want: f64) {
    assert_relative_eq!(got, want, epsilon = CF64_ABS, max_relative = CF64_REL);
}

#[test]
fn struct_returned_by_a_helper_of_numbers() {
    let (a, x): (f64, f64) = (0.7, 1.3);
    // f = sin(a)·x² + (a² + x)².
    let (u, v) = (a.sin() * x, a * a + x);
    let (value, da, dx) = use_pair_grad(a, x);
    assert_eq!(value.to_bits(), use_pair(a, x).to_bits());
    close(value, u * x + v * v);
    let (want_a, want_x) = (a.cos() * x * x + 4.0 * a * v, 2.0 * a.sin() * x + 2.0 * v);
    close(da, want_a);
    close(dx, want_x);

    let (_, pullback) = use_pair_vjp(a, x);
    let (da2, dx2) = pullback(-2.0);
    close(da2, -2.0 * want_a);
    close(dx2, -2.0 * want_x);

    let (mut acc_a, mut acc_x) = (1.0, 0.5);
    let value = use_pair_grad_acc(a, x, &mut acc_a, &mut acc_x);
    assert_eq!(value.to_bits(), use_pair(a, x).to_bits());
    close(acc_a, 1.0 + want_a);
    close(acc_x, 0.5 + want_x);

    let check = use_pair_check(a, x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");

    let (value, tangent) = use_pair_jvp(a, x, 0.3, -1.1);
    assert_eq!(value.to_bits(), use_pair(a, x).to_bits());
    close(tangent, 0.3 * want_a - 1.1 * want_x);
}

#[test]
fn struct_returned_in_a_loop_from_a_slice() {
    let (xs, w) = ([0.5, -1.5, 2.0], [1.25, -0.75, 0.4]);
    // Σ xᵢw₀·(xᵢw₁ + w₂).
    let (value, dxs, dw) = summed_grad(&xs, &w);
    assert_eq!(value.to_bits(), summed(&xs, &w).to_bits());
    let mut want_w = [0.0; 3];
    for (i, x) in xs.iter().enumerate() {
        let (u, v) = (x * w[0], x * w[1] + w[2]);
        close(dxs[i], w[0] * v + u * w[1]);
        want_w[0] += x * v;
        want_w[1] += u * x;
        want_w[2] += u;
    }
    for j in 0..3 {
        close(dw[j], want_w[j]);
    }
    let check = summed_check(&xs, &w);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

#[test]
fn struct_returned_to_a_function_taking_a_struct() {
    let (m, a) = (Model { k: 1.5, b: -0.4 }, 0.6_f64);
    // f = sin(a·k)·b + k·((a·k)² + b).
    let (k, b) = (m.k, m.b);
    let z = a * k;
    let (value, dm, da) = with_model_grad(&m, a);
    assert_eq!(value.to_bits(), with_model(&m, a).to_bits());
    close(value, z.sin() * b + k * (z * z + b));
    let want_k = a * z.cos() * b + (z * z + b) + k * 2.0 * z * a;
    let want_a = k * z.cos() * b + k * 2.0 * z * k;
    close(dm.k, want_k);
    close(da, want_a);
    assert_eq!(dm.b, b);
    let check = with_model_check(&m, a);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");

    let t = Model { k: 0.5, b: 3.0 };
    let (_, tangent) = with_model_jvp(&m, a, &t, 2.0);
    close(tangent, 0.5 * want_k + 2.0 * want_a);
}
