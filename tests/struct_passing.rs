//! A `Tangent` struct passed on whole from a differentiable body (issue 36,
//! "What must work", item 6): a nested struct (`g(&p.inner, x)`), `self`
//! passed on from a method of an annotated `impl` block, in `_grad`,
//! `_grad_acc`, `_vjp`, `_check` and `_jvp`.
//!
//! Expected derivatives are closed forms (tolerance `CF64_ABS` absolute or
//! `CF64_REL` relative), each written out below from the functions'
//! formulas; `_check` compares with central differences on its own.

mod fd_support;

use approx::assert_relative_eq;
use autograd::{Tangent, differentiable};
use fd_support::{CF64_ABS, CF64_REL};

/// A polynomial `c·k·Σ wᵢ xⁱ` with a constant factor `k`.
#[derive(Clone, Debug, Tangent)]
pub struct Leaf {
    pub c: f64,
    pub w: Vec<f64>,
    #[constant]
    pub k: f64,
}

#[derive(Clone, Debug, Tangent)]
pub struct Inner {
    pub a: f64,
    pub leaf: Leaf,
}

#[derive(Clone, Debug, Tangent)]
pub struct Params {
    pub inner: Inner,
    pub w: f64,
    pub n: usize,
}

#[differentiable(jvp)]
pub fn leaf_energy(l: &Leaf, x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..l.w.len() {
        s += l.w[i] * x.powi(i as i32);
    }
    l.c * l.k * s
}

/// `a·c·k·S(x)`: passes its own nested struct on.
#[differentiable(jvp)]
pub fn inner_energy(q: &Inner, x: f64) -> f64 {
    q.a * leaf_energy(&q.leaf, x)
}

/// `a·c·k·S(x)·w + a·x`: the nested struct passed on whole and one of its
/// fields read too.
#[differentiable(jvp)]
pub fn loss(p: &Params, x: f64) -> f64 {
    inner_energy(&p.inner, x) * p.w + p.inner.a * x
}

/// `c·k·S(x) + w·n`: a struct nested two deep.
#[differentiable(jvp)]
pub fn deep(p: &Params, x: f64) -> f64 {
    leaf_energy(&p.inner.leaf, x) + p.w * p.n as f64
}

/// `a·c·k·S(x)·w`, the struct taken by value.
#[differentiable(jvp)]
pub fn owned(p: Params, x: f64) -> f64 {
    inner_energy(&p.inner, x) * p.w
}

fn params() -> Params {
    Params {
        inner: Inner {
            a: 0.8,
            leaf: Leaf {
                c: 1.5,
                w: vec![0.5, -1.25, 2.0],
                k: 2.5,
            },
        },
        w: 1.75,
        n: 3,
    }
}

/// `S(x) = Σ wᵢ xⁱ` and `S'(x)`.
fn poly(w: &[f64], x: f64) -> (f64, f64) {
    let s = w
        .iter()
        .enumerate()
        .map(|(i, wi)| wi * x.powi(i as i32))
        .sum();
    let ds = w
        .iter()
        .enumerate()
        .skip(1)
        .map(|(i, wi)| i as f64 * wi * x.powi(i as i32 - 1))
        .sum();
    (s, ds)
}

fn close(got: f64, want: f64) {
    assert_relative_eq!(got, want, epsilon = CF64_ABS, max_relative = CF64_REL);
}

/// The constant and integer fields of an adjoint are the argument's.
fn assert_constants_kept(d: &Params, p: &Params) {
    assert_eq!(d.inner.leaf.k, p.inner.leaf.k);
    assert_eq!(d.n, p.n);
}

#[test]
fn nested_struct_passed_on_whole() {
    let (p, x) = (params(), 0.7);
    let (a, c, k, w) = (p.inner.a, p.inner.leaf.c, p.inner.leaf.k, p.w);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let (value, dp, dx) = loss_grad(&p, x);
    assert_eq!(value.to_bits(), loss(&p, x).to_bits());
    close(value, a * c * k * s * w + a * x);
    close(dp.inner.a, c * k * s * w + x);
    close(dp.inner.leaf.c, a * k * s * w);
    for (i, dwi) in dp.inner.leaf.w.iter().enumerate() {
        close(*dwi, a * c * k * x.powi(i as i32) * w);
    }
    close(dp.w, a * c * k * s);
    close(dx, a * c * k * ds * w + a);
    assert_constants_kept(&dp, &p);

    // `_vjp` is the gradient scaled by the seed.
    let (value, pullback) = loss_vjp(&p, x);
    assert_eq!(value.to_bits(), loss(&p, x).to_bits());
    let (dp3, dx3) = pullback(3.0);
    close(dp3.inner.leaf.c, 3.0 * dp.inner.leaf.c);
    close(dp3.inner.leaf.w[2], 3.0 * dp.inner.leaf.w[2]);
    close(dp3.w, 3.0 * dp.w);
    close(dx3, 3.0 * dx);
    assert_constants_kept(&dp3, &p);

    // `_grad_acc` adds into the buffers' differentiable fields only.
    let mut buffer = p.clone();
    let mut dx_acc = 0.5;
    let value = loss_grad_acc(&p, x, &mut buffer, &mut dx_acc);
    assert_eq!(value.to_bits(), loss(&p, x).to_bits());
    close(buffer.inner.a, p.inner.a + dp.inner.a);
    close(buffer.inner.leaf.c, p.inner.leaf.c + dp.inner.leaf.c);
    close(
        buffer.inner.leaf.w[1],
        p.inner.leaf.w[1] + dp.inner.leaf.w[1],
    );
    close(buffer.w, p.w + dp.w);
    close(dx_acc, 0.5 + dx);
    assert_constants_kept(&buffer, &p);

    let check = loss_check(&p, x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
    // a, c, w[0..3], w, x.
    assert_eq!(check.components().len(), 7);
}

#[test]
fn struct_nested_two_deep_passed_on_whole() {
    let (p, x) = (params(), -1.3);
    let (c, k) = (p.inner.leaf.c, p.inner.leaf.k);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let (value, dp, dx) = deep_grad(&p, x);
    assert_eq!(value.to_bits(), deep(&p, x).to_bits());
    close(dp.inner.a, 0.0);
    close(dp.inner.leaf.c, k * s);
    for (i, dwi) in dp.inner.leaf.w.iter().enumerate() {
        close(*dwi, c * k * x.powi(i as i32));
    }
    close(dp.w, p.n as f64);
    close(dx, c * k * ds);
    assert_constants_kept(&dp, &p);
    let check = deep_check(&p, x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

#[test]
fn nested_struct_of_a_struct_taken_by_value() {
    let (p, x) = (params(), 0.45);
    let (a, c, k, w) = (p.inner.a, p.inner.leaf.c, p.inner.leaf.k, p.w);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let (value, dp, dx) = owned_grad(p.clone(), x);
    assert_eq!(value.to_bits(), owned(p.clone(), x).to_bits());
    close(dp.inner.a, c * k * s * w);
    close(dp.inner.leaf.c, a * k * s * w);
    close(dp.inner.leaf.w[0], a * c * k * w);
    close(dp.w, a * c * k * s);
    close(dx, a * c * k * ds * w);
    assert_constants_kept(&dp, &p);
    let check = owned_check(p.clone(), x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

/// `a·c·k·S(x) + w·x²`: what the methods below pass `self` on to.
#[differentiable(jvp)]
pub fn model_energy(m: &Params, x: f64) -> f64 {
    inner_energy(&m.inner, x) + m.w * x * x
}

#[differentiable]
impl Params {
    /// `(a·c·k·S(x) + w·x²)·w`: `self` passed on whole, and read.
    #[differentiable(jvp)]
    pub fn fit(&self, x: f64) -> f64 {
        model_energy(self, x) * self.w
    }

    /// `a·c·k·S(x) + w`: a nested struct of `self` passed on whole.
    #[differentiable(jvp)]
    pub fn inner_fit(&self, x: f64) -> f64 {
        inner_energy(&self.inner, x) + self.w
    }

    /// `a·c·k·S(x) + w·x²`, `self` taken by value and passed by reference.
    #[differentiable(jvp)]
    pub fn consumed(self, x: f64) -> f64 {
        model_energy(&self, x)
    }
}

#[test]
fn self_passed_on_whole() {
    let (p, x) = (params(), 1.1);
    let (a, c, k, w) = (p.inner.a, p.inner.leaf.c, p.inner.leaf.k, p.w);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let e = a * c * k * s + w * x * x;
    let (value, dp, dx) = p.fit_grad(x);
    assert_eq!(value.to_bits(), p.fit(x).to_bits());
    close(value, e * w);
    close(dp.inner.a, c * k * s * w);
    close(dp.inner.leaf.c, a * k * s * w);
    for (i, dwi) in dp.inner.leaf.w.iter().enumerate() {
        close(*dwi, a * c * k * x.powi(i as i32) * w);
    }
    // ∂/∂w of (E + w·x²)·w with E free of w.
    close(dp.w, e + w * x * x);
    close(dx, (a * c * k * ds + 2.0 * w * x) * w);
    assert_constants_kept(&dp, &p);

    let (_, pullback) = Params::fit_vjp(&p, x);
    let (dp_half, dx_half) = pullback(0.5);
    close(dp_half.w, 0.5 * dp.w);
    close(dp_half.inner.leaf.w[1], 0.5 * dp.inner.leaf.w[1]);
    close(dx_half, 0.5 * dx);

    let mut buffer = p.clone();
    let mut dx_acc = 0.0;
    let value = p.fit_grad_acc(x, &mut buffer, &mut dx_acc);
    assert_eq!(value.to_bits(), p.fit(x).to_bits());
    close(buffer.w, p.w + dp.w);
    close(buffer.inner.a, p.inner.a + dp.inner.a);
    close(dx_acc, dx);
    assert_constants_kept(&buffer, &p);

    let check = p.fit_check(x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
    assert_eq!(check.components().len(), 7);
}

#[test]
fn nested_struct_of_self_passed_on_whole() {
    let (p, x) = (params(), -0.6);
    let (a, c, k) = (p.inner.a, p.inner.leaf.c, p.inner.leaf.k);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let (value, dp, dx) = p.inner_fit_grad(x);
    assert_eq!(value.to_bits(), p.inner_fit(x).to_bits());
    close(dp.inner.a, c * k * s);
    close(dp.inner.leaf.c, a * k * s);
    close(dp.inner.leaf.w[2], a * c * k * x * x);
    close(dp.w, 1.0);
    close(dx, a * c * k * ds);
    assert_constants_kept(&dp, &p);
    let check = p.inner_fit_check(x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");

    let (value, dp, dx) = p.clone().consumed_grad(x);
    assert_eq!(value.to_bits(), p.clone().consumed(x).to_bits());
    close(dp.inner.a, c * k * s);
    close(dp.w, x * x);
    close(dx, a * c * k * ds + 2.0 * p.w * x);
    assert_constants_kept(&dp, &p);
    let check = p.clone().consumed_check(x);
    assert!(check.max_abs_error() < 1e-6, "{check:?}");
}

/// A tangent of `Params`: its constant field `k` is set, and ignored.
fn direction() -> Params {
    Params {
        inner: Inner {
            a: -0.3,
            leaf: Leaf {
                c: 0.6,
                w: vec![1.0, 0.25, -0.5],
                k: 9.0,
            },
        },
        w: 0.4,
        n: 7,
    }
}

/// The directional derivative of `a·c·k·S(x)·w + a·x` along `(t, tx)`,
/// from the closed-form partials.
fn loss_directional(p: &Params, x: f64, t: &Params, tx: f64) -> f64 {
    let (a, c, k, w) = (p.inner.a, p.inner.leaf.c, p.inner.leaf.k, p.w);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let dw: f64 = (0..3)
        .map(|i| a * c * k * x.powi(i) * w * t.inner.leaf.w[i as usize])
        .sum();
    (c * k * s * w + x) * t.inner.a
        + a * k * s * w * t.inner.leaf.c
        + dw
        + a * c * k * s * t.w
        + (a * c * k * ds * w + a) * tx
}

#[test]
fn nested_struct_passed_on_whole_in_forward_mode() {
    let (p, x, t, tx) = (params(), 0.7, direction(), -1.5);
    let (value, tangent) = loss_jvp(&p, x, &t, tx);
    assert_eq!(value.to_bits(), loss(&p, x).to_bits());
    close(tangent, loss_directional(&p, x, &t, tx));

    // Two deep: c·k·S(x) + w·n.
    let (c, k) = (p.inner.leaf.c, p.inner.leaf.k);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let dw: f64 = (0..3)
        .map(|i| c * k * x.powi(i) * t.inner.leaf.w[i as usize])
        .sum();
    let (_, tangent) = deep_jvp(&p, x, &t, tx);
    close(
        tangent,
        k * s * t.inner.leaf.c + dw + p.n as f64 * t.w + c * k * ds * tx,
    );

    // By value: a·c·k·S(x)·w, the directional derivative of `loss` less
    // that of a·x.
    let (_, tangent) = owned_jvp(p.clone(), x, &t, tx);
    close(
        tangent,
        loss_directional(&p, x, &t, tx) - (x * t.inner.a + p.inner.a * tx),
    );
}

#[test]
fn self_passed_on_whole_in_forward_mode() {
    let (p, x, t, tx) = (params(), 1.1, direction(), 0.8);
    let (a, c, k, w) = (p.inner.a, p.inner.leaf.c, p.inner.leaf.k, p.w);
    let (s, ds) = poly(&p.inner.leaf.w, x);
    let e = a * c * k * s + w * x * x;
    // Partials of (a·c·k·S(x) + w·x²)·w, as in `self_passed_on_whole`.
    let dw: f64 = (0..3)
        .map(|i| a * c * k * x.powi(i) * w * t.inner.leaf.w[i as usize])
        .sum();
    let want = c * k * s * w * t.inner.a
        + a * k * s * w * t.inner.leaf.c
        + dw
        + (e + w * x * x) * t.w
        + (a * c * k * ds + 2.0 * w * x) * w * tx;
    let (value, tangent) = p.fit_jvp(x, &t, tx);
    assert_eq!(value.to_bits(), p.fit(x).to_bits());
    close(tangent, want);

    // a·c·k·S(x) + w, of `self.inner` passed on.
    let dw: f64 = (0..3)
        .map(|i| a * c * k * x.powi(i) * t.inner.leaf.w[i as usize])
        .sum();
    let want = c * k * s * t.inner.a + a * k * s * t.inner.leaf.c + dw + t.w + a * c * k * ds * tx;
    let (_, tangent) = p.inner_fit_jvp(x, &t, tx);
    close(tangent, want);

    // a·c·k·S(x) + w·x², `self` by value.
    let want = c * k * s * t.inner.a
        + a * k * s * t.inner.leaf.c
        + dw
        + x * x * t.w
        + (a * c * k * ds + 2.0 * w * x) * tx;
    let (_, tangent) = p.clone().consumed_jvp(x, &t, tx);
    close(tangent, want);
}

/// A `pub` function with `jvp` taking a private struct: its generated
/// items name no private type where rustc forbids it (E0446, when the
/// struct call's forward mode named the struct).
#[derive(Clone, Debug, Tangent)]
struct Hidden {
    a: f64,
}

#[differentiable(jvp)]
#[allow(private_interfaces)]
pub fn hidden_energy(h: &Hidden, x: f64) -> f64 {
    h.a * x * x
}

#[test]
fn a_pub_function_of_a_private_struct_keeps_its_items() {
    let (a, x) = (1.5, -0.7);
    let h = Hidden { a };
    let (v, dh, dx) = hidden_energy_grad(&h, x);
    assert_relative_eq!(v, a * x * x, epsilon = CF64_ABS, max_relative = CF64_REL);
    assert_relative_eq!(dh.a, x * x, epsilon = CF64_ABS, max_relative = CF64_REL);
    assert_relative_eq!(dx, 2.0 * a * x, epsilon = CF64_ABS, max_relative = CF64_REL);
    // Tangent (ȧ, ẋ) = (0.5, 2): x²·0.5 + 2a·x·2.
    let (_, t) = hidden_energy_jvp(&h, x, &Hidden { a: 0.5 }, 2.0);
    let want = x * x * 0.5 + 2.0 * a * x * 2.0;
    assert_relative_eq!(t, want, epsilon = CF64_ABS, max_relative = CF64_REL);
}
