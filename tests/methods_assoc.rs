//! `#[differentiable]` on one associated function (with or without
//! `self`) or method of an `impl` block, on a whole block with an associated function without `self`
//! and an associated constant, and on a trait impl (issue 36, item 3).
//! Before this, `#[differentiable] impl Trait for Type` was rejected; a
//! trait impl holds only the trait's items, so its generated items are
//! associated functions of an inherent impl of the type.
//!
//! Expected values are closed forms, with `epsilon` and `max_relative`
//! at 1e-12 (the sums below are a few operations deep); `_check` is
//! against central differences (1e-5).

use approx::assert_relative_eq;
use autograd::{Tangent, differentiable};

const TOL: f64 = 1e-12;

#[derive(Clone, Debug, Tangent)]
pub struct Spring {
    pub k: f64,
    pub c: f64,
}

/// E(k, c, x) = ½·k·x² + c·sin x, and its derivatives by hand.
fn energy_closed(k: f64, c: f64, x: f64) -> (f64, [f64; 3], [[f64; 3]; 3]) {
    let value = 0.5 * k * x * x + c * x.sin();
    let grad = [0.5 * x * x, x.sin(), k * x + c * x.cos()];
    let hess = [
        [0.0, 0.0, x],
        [0.0, 0.0, x.cos()],
        [x, x.cos(), k - c * x.sin()],
    ];
    (value, grad, hess)
}

// The attribute on the method alone, the block without one.
impl Spring {
    pub fn new(k: f64, c: f64) -> Self {
        Spring { k, c }
    }

    #[differentiable(jvp, hessian)]
    pub fn energy(&self, x: f64) -> f64 {
        0.5 * self.k * x * x + self.c * x.sin()
    }

    pub const SCALE: f64 = 1.5;

    /// An associated function with the attribute on itself alone: its
    /// generated items are associated functions of `Spring`.
    #[differentiable(jvp, hessian)]
    pub fn energy_of(k: f64, c: f64, x: f64) -> f64 {
        0.5 * k * x * x + c * x.sin()
    }

    /// The same, taking the struct as an argument rather than `self`.
    #[differentiable(jvp, hessian)]
    pub fn energy_at(spring: &Spring, x: f64) -> f64 {
        0.5 * spring.k * x * x + spring.c * x.sin()
    }

    /// And with a slice: Σ energy over the points.
    #[differentiable]
    pub fn total_energy(k: f64, c: f64, xs: &[f64]) -> f64 {
        let mut total = 0.0;
        for &x in xs {
            total += 0.5 * k * x * x + c * x.sin();
        }
        total
    }

    /// An associated constant read by the type's name, as the method
    /// alone reads it (`Self::SCALE` is one error saying so).
    #[differentiable(jvp, hessian)]
    pub fn scaled(&self, x: f64) -> f64 {
        Spring::SCALE * (0.5 * self.k * x * x + self.c * x.sin())
    }
}

fn assert_hessian(h: &nalgebra::DMatrix<f64>, want: &[[f64; 3]; 3], s: f64) {
    for i in 0..3 {
        for j in 0..3 {
            assert_relative_eq!(h[(i, j)], s * want[i][j], epsilon = TOL, max_relative = TOL);
        }
    }
}

#[test]
fn a_method_alone_in_every_mode() {
    let (k, c, x) = (2.0, 0.7, 0.9);
    let s = Spring::new(k, c);
    let (value, grad, hess) = energy_closed(k, c, x);

    let (v, ds, dx) = s.energy_grad(x);
    assert_eq!(v.to_bits(), s.energy(x).to_bits());
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.k, grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.c, grad[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, grad[2], epsilon = TOL, max_relative = TOL);

    let (v, pullback) = s.energy_vjp(x);
    let (ds, dx) = pullback(2.0);
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.k, 2.0 * grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, 2.0 * grad[2], epsilon = TOL, max_relative = TOL);

    let (mut acc_s, mut acc_x) = (Spring::new(1.0, 1.0), 1.0);
    s.energy_grad_acc(x, &mut acc_s, &mut acc_x);
    assert_relative_eq!(acc_s.c, 1.0 + grad[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(acc_x, 1.0 + grad[2], epsilon = TOL, max_relative = TOL);

    assert!(s.energy_check(x).max_abs_error() < 1e-5);

    let (t, tx) = (Spring::new(0.3, -0.4), 0.5);
    let (v, tangent) = s.energy_jvp(x, &t, tx);
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    let want = grad[0] * 0.3 - grad[1] * 0.4 + grad[2] * 0.5;
    assert_relative_eq!(tangent, want, epsilon = TOL, max_relative = TOL);

    let (v, gs, gx, hs, hx) = s.energy_hvp(x, &t, tx);
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(gs.k, grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(gx, grad[2], epsilon = TOL, max_relative = TOL);
    let dir = [0.3, -0.4, 0.5];
    let hv: Vec<f64> = (0..3)
        .map(|i| (0..3).map(|j| hess[i][j] * dir[j]).sum())
        .collect();
    assert_relative_eq!(hs.k, hv[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(hs.c, hv[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(hx, hv[2], epsilon = TOL, max_relative = TOL);

    let (v, g, h) = s.energy_hessian(x);
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    for i in 0..3 {
        assert_relative_eq!(g[i], grad[i], epsilon = TOL, max_relative = TOL);
    }
    assert_hessian(&h, &hess, 1.0);
}

#[test]
fn an_associated_function_alone_in_every_mode() {
    let (k, c, x) = (2.0, 0.7, 0.9);
    let (value, grad, hess) = energy_closed(k, c, x);

    let (v, dk, dc, dx) = Spring::energy_of_grad(k, c, x);
    assert_eq!(v.to_bits(), Spring::energy_of(k, c, x).to_bits());
    for (got, want) in [(v, value), (dk, grad[0]), (dc, grad[1]), (dx, grad[2])] {
        assert_relative_eq!(got, want, epsilon = TOL, max_relative = TOL);
    }
    let (_, pullback) = Spring::energy_of_vjp(k, c, x);
    let (dk, _, dx) = pullback(-2.0);
    assert_relative_eq!(dk, -2.0 * grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, -2.0 * grad[2], epsilon = TOL, max_relative = TOL);
    let (mut ak, mut ac, mut ax) = (1.0, 1.0, 1.0);
    Spring::energy_of_grad_acc(k, c, x, &mut ak, &mut ac, &mut ax);
    assert_relative_eq!(ac, 1.0 + grad[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ax, 1.0 + grad[2], epsilon = TOL, max_relative = TOL);
    assert!(Spring::energy_of_check(k, c, x).max_abs_error() < 1e-5);

    let dir = [0.3, -0.4, 0.5];
    let (_, tangent) = Spring::energy_of_jvp(k, c, x, dir[0], dir[1], dir[2]);
    let want: f64 = (0..3).map(|i| grad[i] * dir[i]).sum();
    assert_relative_eq!(tangent, want, epsilon = TOL, max_relative = TOL);
    let (_, _, h) = Spring::energy_of_hessian(k, c, x);
    assert_hessian(&h, &hess, 1.0);

    let s = Spring::new(k, c);
    let (v, ds, dx) = Spring::energy_at_grad(&s, x);
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.k, grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.c, grad[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, grad[2], epsilon = TOL, max_relative = TOL);
    let (_, tangent) = Spring::energy_at_jvp(&s, x, &Spring::new(dir[0], dir[1]), dir[2]);
    assert_relative_eq!(tangent, want, epsilon = TOL, max_relative = TOL);
    let (_, _, h) = Spring::energy_at_hessian(&s, x);
    assert_hessian(&h, &hess, 1.0);

    let xs = [0.9, -0.3, 1.7];
    let (v, dk, dc, dxs) = Spring::total_energy_grad(k, c, &xs);
    let mut want = [0.0; 3];
    let mut total = 0.0;
    for &x in &xs {
        let (value, grad, _) = energy_closed(k, c, x);
        total += value;
        want[0] += grad[0];
        want[1] += grad[1];
    }
    assert_relative_eq!(v, total, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dk, want[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dc, want[1], epsilon = TOL, max_relative = TOL);
    for (i, &x) in xs.iter().enumerate() {
        assert_relative_eq!(
            dxs[i],
            k * x + c * x.cos(),
            epsilon = TOL,
            max_relative = TOL
        );
    }
}

#[test]
fn a_method_alone_reads_an_associated_constant_by_the_type_name() {
    let (k, c, x) = (2.0, 0.7, 0.9);
    let s = Spring::new(k, c);
    let (value, grad, hess) = energy_closed(k, c, x);
    let m = Spring::SCALE;

    let (v, ds, dx) = s.scaled_grad(x);
    assert_relative_eq!(v, m * value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.k, m * grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, m * grad[2], epsilon = TOL, max_relative = TOL);
    let (_, tangent) = s.scaled_jvp(x, &Spring::new(0.0, 1.0), 0.0);
    assert_relative_eq!(tangent, m * grad[1], epsilon = TOL, max_relative = TOL);
    let (_, _, h) = s.scaled_hessian(x);
    assert_hessian(&h, &hess, m);
}

#[derive(Clone, Debug, Tangent)]
pub struct Scaled {
    pub a: f64,
}

// A whole block: an associated function without `self`, and a method
// reading an associated constant as `Self::K`.
#[differentiable(jvp, hessian)]
impl Scaled {
    const K: f64 = 1.5;

    fn value(&self, x: f64) -> f64 {
        Self::K * self.a * x * x
    }

    fn wave(x: f64) -> f64 {
        x * x.sin()
    }
}

#[test]
fn an_associated_function_without_self_in_every_mode() {
    let x: f64 = 0.8;
    // f = x·sin x: f' = sin x + x·cos x, f'' = 2·cos x − x·sin x.
    let d1 = x.sin() + x * x.cos();
    let d2 = 2.0 * x.cos() - x * x.sin();
    let (v, dx) = Scaled::wave_grad(x);
    assert_eq!(v.to_bits(), Scaled::wave(x).to_bits());
    assert_relative_eq!(dx, d1, epsilon = TOL, max_relative = TOL);
    let (_, pullback) = Scaled::wave_vjp(x);
    assert_relative_eq!(
        pullback(-3.0).0,
        -3.0 * d1,
        epsilon = TOL,
        max_relative = TOL
    );
    assert!(Scaled::wave_check(x).max_abs_error() < 1e-5);
    let (_, t) = Scaled::wave_jvp(x, 2.0);
    assert_relative_eq!(t, 2.0 * d1, epsilon = TOL, max_relative = TOL);
    let (_, g, hv) = Scaled::wave_hvp(x, 2.0);
    assert_relative_eq!(g, d1, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(hv, 2.0 * d2, epsilon = TOL, max_relative = TOL);
    let (_, _, h) = Scaled::wave_hessian(x);
    assert_relative_eq!(h[(0, 0)], d2, epsilon = TOL, max_relative = TOL);
}

#[test]
fn an_associated_constant_read_as_self_in_every_mode() {
    let (a, x) = (2.0, 0.6);
    let s = Scaled { a };
    let k = Scaled::K;
    // v = K·a·x².
    let (v, ds, dx) = s.value_grad(x);
    assert_relative_eq!(v, k * a * x * x, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.a, k * x * x, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, 2.0 * k * a * x, epsilon = TOL, max_relative = TOL);
    let (_, pullback) = s.value_vjp(x);
    let (ds, _) = pullback(0.5);
    assert_relative_eq!(ds.a, 0.5 * k * x * x, epsilon = TOL, max_relative = TOL);
    let (_, t) = s.value_jvp(x, &Scaled { a: 1.0 }, 1.0);
    let want = k * x * x + 2.0 * k * a * x;
    assert_relative_eq!(t, want, epsilon = TOL, max_relative = TOL);
    let (_, _, h) = s.value_hessian(x);
    let want = [[0.0, 2.0 * k * x], [2.0 * k * x, 2.0 * k * a]];
    for i in 0..2 {
        for j in 0..2 {
            assert_relative_eq!(h[(i, j)], want[i][j], epsilon = TOL, max_relative = TOL);
        }
    }
}

mod losses {
    pub trait Loss {
        fn loss(&self, x: f64) -> f64;
        fn inner(&self, x: f64) -> f64;
    }
}

// A trait impl, the trait named by its path (not imported): the methods
// stay in the trait impl, their generated items go in an inherent impl,
// and one method calls the other.
#[differentiable(jvp, hessian)]
impl losses::Loss for Spring {
    fn loss(&self, x: f64) -> f64 {
        self.c * self.inner(x)
    }

    fn inner(&self, x: f64) -> f64 {
        (self.k * x).sin()
    }
}

/// A free function calling a method of the trait impl.
#[differentiable]
fn doubled_loss(s: &Spring, x: f64) -> f64 {
    use losses::Loss;
    2.0 * s.loss(x)
}

#[test]
fn a_trait_impl_block_in_every_mode() {
    use losses::Loss;
    let (k, c, x) = (1.3, 0.7, 0.4);
    let s = Spring::new(k, c);
    // L = c·sin(k·x).
    let (sn, cs) = ((k * x).sin(), (k * x).cos());
    let value = c * sn;
    let grad = [c * x * cs, sn, c * k * cs];
    let hess = [
        [-c * x * x * sn, x * cs, c * cs - c * k * x * sn],
        [x * cs, 0.0, k * cs],
        [c * cs - c * k * x * sn, k * cs, -c * k * k * sn],
    ];

    let (v, ds, dx) = s.loss_grad(x);
    assert_eq!(v.to_bits(), s.loss(x).to_bits());
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.k, grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.c, grad[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, grad[2], epsilon = TOL, max_relative = TOL);
    let (_, pullback) = Spring::loss_vjp(&s, x);
    let (ds, _) = pullback(-1.0);
    assert_relative_eq!(ds.k, -grad[0], epsilon = TOL, max_relative = TOL);
    assert!(s.loss_check(x).max_abs_error() < 1e-5);
    let (_, t) = s.loss_jvp(x, &Spring::new(1.0, 0.0), 0.0);
    assert_relative_eq!(t, grad[0], epsilon = TOL, max_relative = TOL);
    let (_, g, h) = s.loss_hessian(x);
    for i in 0..3 {
        assert_relative_eq!(g[i], grad[i], epsilon = TOL, max_relative = TOL);
    }
    assert_hessian(&h, &hess, 1.0);

    let (v, ds, dx) = doubled_loss_grad(&s, x);
    assert_relative_eq!(v, 2.0 * value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(ds.c, 2.0 * grad[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, 2.0 * grad[2], epsilon = TOL, max_relative = TOL);
}

/// A trait, and its impl with the attribute on one method alone: the
/// generated items are associated functions of an inherent impl of the
/// type (`m.value_grad(x)`), as for a marked trait impl block.
pub trait Loss {
    fn value(&self, x: f64) -> f64;
}

#[derive(Clone, Debug, Tangent)]
pub struct Quadratic {
    pub a: f64,
    pub b: f64,
}

impl Loss for Quadratic {
    #[differentiable(jvp, hessian)]
    fn value(&self, x: f64) -> f64 {
        self.a * x * x + self.b.exp() * x
    }
}

#[test]
fn a_trait_impl_method_alone_in_every_mode() {
    let (a, b, x) = (1.5, -0.3, 0.8);
    let q = Quadratic { a, b };
    // v = a·x² + e^b·x: ∂a = x², ∂b = e^b·x, ∂x = 2a·x + e^b.
    let value = a * x * x + b.exp() * x;
    let grad = [x * x, b.exp() * x, 2.0 * a * x + b.exp()];
    let hess = [
        [0.0, 0.0, 2.0 * x],
        [0.0, b.exp() * x, b.exp()],
        [2.0 * x, b.exp(), 2.0 * a],
    ];
    let (v, dq, dx) = q.value_grad(x);
    assert_eq!(v.to_bits(), Loss::value(&q, x).to_bits());
    assert_relative_eq!(v, value, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dq.a, grad[0], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dq.b, grad[1], epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, grad[2], epsilon = TOL, max_relative = TOL);
    assert!(q.value_check(x).max_abs_error() < 1e-5);
    let (_, tangent) = q.value_jvp(x, &Quadratic { a: 0.0, b: 1.0 }, 0.0);
    assert_relative_eq!(tangent, grad[1], epsilon = TOL, max_relative = TOL);
    let (_, _, h) = q.value_hessian(x);
    assert_hessian(&h, &hess, 1.0);
}

/// A private struct with a marked trait impl: the generated items (all
/// `pub`, as a trait's methods are) name no private type where rustc
/// forbids it (E0446).
#[derive(Clone, Debug, Tangent)]
struct Private {
    a: f64,
}

#[differentiable(jvp)]
impl Loss for Private {
    fn value(&self, x: f64) -> f64 {
        self.a * x * x
    }
}

#[test]
fn a_trait_impl_of_a_private_struct_keeps_its_items() {
    let (a, x) = (0.8, 1.7);
    let p = Private { a };
    let (v, dp, dx) = p.value_grad(x);
    assert_relative_eq!(v, a * x * x, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dp.a, x * x, epsilon = TOL, max_relative = TOL);
    assert_relative_eq!(dx, 2.0 * a * x, epsilon = TOL, max_relative = TOL);
    let (_, t) = p.value_jvp(x, &Private { a: 1.0 }, 0.0);
    assert_relative_eq!(t, x * x, epsilon = TOL, max_relative = TOL);
}
