//! Nested differentiation: a differentiable body calling `NAME_grad` of a
//! `#[differentiable(hessian)]` function (the loss after a gradient step,
//! a few steps of gradient descent unrolled, an entry of the gradient read
//! as `.k`). The call's derivative is second order: the outer reverse sweep
//! takes one `NAME_hvp` per call (v̄·g + H·ḡ), the forward sweep one along
//! the tangent (g·ẋ, H·ẋ).
//!
//! Every derivative is checked against `fd_support`'s five-point central
//! differences of the outer primal (which itself calls `NAME_grad`), to
//! `FD64_ABS` absolute or `FD64_REL` relative, and where the closed form is
//! short against it (`CF_ABS`, `CF_REL`: the same arithmetic in another
//! order, a few roundings). Every value is the primal's, bit for bit.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::{assert_fd64_close, fd64};

const CF_ABS: f64 = 1e-12;
const CF_REL: f64 = 1e-11;

const POINTS: &[(f64, f64, f64)] = &[
    (1.0, 2.0, 0.1),
    (0.7, -1.3, 0.05),
    (-1.5, 0.4, 0.2),
    (2.0, 0.25, 0.01),
];

#[differentiable(hessian, jvp)]
fn inner(x: f64, w: f64) -> f64 {
    (x * w - 1.0).powi(2) + w.sin()
}

/// The loss after one gradient step on `w` (the example of the guide).
#[differentiable(jvp)]
fn after_step(x: f64, w: f64, lr: f64) -> f64 {
    let (_, _dx, dw) = inner_grad(x, w);
    let w1 = w - lr * dw;
    inner(x, w1)
}

/// ∂inner/∂x, ∂inner/∂w.
fn inner_x(x: f64, w: f64) -> f64 {
    2.0 * w * (x * w - 1.0)
}
fn inner_w(x: f64, w: f64) -> f64 {
    2.0 * x * (x * w - 1.0) + w.cos()
}

/// `after_step`'s gradient by the chain rule, with inner's Hessian entries
/// H_ww = 2x² − sin w and H_wx = 4xw − 2.
fn after_step_closed(x: f64, w: f64, lr: f64) -> (f64, f64, f64) {
    let dw = inner_w(x, w);
    let w1 = w - lr * dw;
    let (h_ww, h_wx) = (2.0 * x * x - w.sin(), 4.0 * x * w - 2.0);
    let outer_w = inner_w(x, w1);
    (
        inner_x(x, w1) - outer_w * lr * h_wx,
        outer_w * (1.0 - lr * h_ww),
        -outer_w * dw,
    )
}

/// The three partial derivatives of a function of three numbers by
/// central differences.
fn fd3(f: impl Fn(f64, f64, f64) -> f64, x: f64, w: f64, l: f64) -> [f64; 3] {
    [
        fd64(|t| f(t, w, l), x),
        fd64(|t| f(x, t, l), w),
        fd64(|t| f(x, w, t), l),
    ]
}

#[test]
fn gradient_after_a_gradient_step() {
    for &(x, w, lr) in POINTS {
        let (value, dx, dw, dlr) = after_step_grad(x, w, lr);
        assert_eq!(value.to_bits(), after_step(x, w, lr).to_bits());
        let (cx, cw, cl) = after_step_closed(x, w, lr);
        for (got, want) in [(dx, cx), (dw, cw), (dlr, cl)] {
            assert_relative_eq!(got, want, epsilon = CF_ABS, max_relative = CF_REL);
        }
        let fd = fd3(after_step, x, w, lr);
        assert_fd64_close("d/dx", dx, fd[0]);
        assert_fd64_close("d/dw", dw, fd[1]);
        assert_fd64_close("d/dlr", dlr, fd[2]);
    }
}

#[test]
fn every_reverse_item_after_a_gradient_step() {
    for &(x, w, lr) in POINTS {
        let (cx, cw, cl) = after_step_closed(x, w, lr);
        let (value, pullback) = after_step_vjp(x, w, lr);
        assert_eq!(value.to_bits(), after_step(x, w, lr).to_bits());
        let (vx, vw, vl) = pullback(-2.5);
        assert_relative_eq!(vx, -2.5 * cx, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(vw, -2.5 * cw, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(vl, -2.5 * cl, epsilon = CF_ABS, max_relative = CF_REL);

        let (mut ax, mut aw, mut al) = (1.0, 2.0, 3.0);
        let value = after_step_grad_acc(x, w, lr, &mut ax, &mut aw, &mut al);
        assert_eq!(value.to_bits(), after_step(x, w, lr).to_bits());
        assert_relative_eq!(ax, 1.0 + cx, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(aw, 2.0 + cw, epsilon = CF_ABS, max_relative = CF_REL);
        assert_relative_eq!(al, 3.0 + cl, epsilon = CF_ABS, max_relative = CF_REL);

        assert!(after_step_check(x, w, lr).is_within(1e-6, 1e-5));
    }
}

#[test]
fn tangent_after_a_gradient_step() {
    for &(x, w, lr) in POINTS {
        let (tx, tw, tl) = (0.3, -1.1, 2.0);
        let (value, tangent) = after_step_jvp(x, w, lr, tx, tw, tl);
        assert_eq!(value.to_bits(), after_step(x, w, lr).to_bits());
        let (cx, cw, cl) = after_step_closed(x, w, lr);
        let closed = cx * tx + cw * tw + cl * tl;
        assert_relative_eq!(tangent, closed, epsilon = CF_ABS, max_relative = CF_REL);
        let along = fd64(|s| after_step(x + s * tx, w + s * tw, lr + s * tl), 0.0);
        assert_fd64_close("tangent", tangent, along);
    }
}

#[differentiable(hessian, jvp)]
fn fit(w: f64, a: f64) -> f64 {
    0.5 * (w - a).powi(2) + 0.1 * w.powi(4)
}

/// Three steps of gradient descent on `fit` from `w0`, unrolled in a loop,
/// then the loss there: the loop keeps each call's pullback for the
/// reverse sweep.
#[differentiable(jvp)]
fn descended(w0: f64, a: f64, lr: f64) -> f64 {
    let mut w = w0;
    for _ in 0..3 {
        let (_, dw, _) = fit_grad(w, a);
        w -= lr * dw;
    }
    fit(w, a)
}

/// `descended` by hand: w ← w − lr·(w − a + 0.4w³), with the derivatives
/// of w carried along each step (d/dw0, d/da, d/dlr).
fn descended_closed(w0: f64, a: f64, lr: f64) -> [f64; 3] {
    let (mut w, mut d) = (w0, [1.0, 0.0, 0.0]);
    for _ in 0..3 {
        let g = w - a + 0.4 * w.powi(3);
        let h = 1.0 + 1.2 * w * w;
        // dg = h·dw + ∂g/∂a·da; w' = w − lr·g.
        d = [
            d[0] - lr * h * d[0],
            d[1] - lr * (h * d[1] - 1.0),
            d[2] - g - lr * h * d[2],
        ];
        w -= lr * g;
    }
    let (fw, fa) = (w - a + 0.4 * w.powi(3), -(w - a));
    [fw * d[0], fw * d[1] + fa, fw * d[2]]
}

/// Points where the three composed steps keep the stencil's truncation
/// error (fifth derivatives of a polynomial of degree 108 in w0) within
/// `FD64_REL`: from w0 = 2 it is 2·10⁻⁸ relative.
#[test]
fn gradient_descent_unrolled_in_a_loss() {
    for &(w0, a, lr) in &[(1.5, 0.3, 0.1), (-0.8, 1.2, 0.25), (1.1, -1.0, 0.05)] {
        let (value, d0, da, dl) = descended_grad(w0, a, lr);
        assert_eq!(value.to_bits(), descended(w0, a, lr).to_bits());
        let closed = descended_closed(w0, a, lr);
        let fd = fd3(descended, w0, a, lr);
        for (k, got) in [d0, da, dl].into_iter().enumerate() {
            assert_relative_eq!(got, closed[k], epsilon = CF_ABS, max_relative = CF_REL);
            assert_fd64_close("descended", got, fd[k]);
        }
        let (t0, ta, tl) = (1.0, -0.5, 0.25);
        let (value, tangent) = descended_jvp(w0, a, lr, t0, ta, tl);
        assert_eq!(value.to_bits(), descended(w0, a, lr).to_bits());
        let along = closed[0] * t0 + closed[1] * ta + closed[2] * tl;
        assert_relative_eq!(tangent, along, epsilon = CF_ABS, max_relative = CF_REL);
    }
}

/// A step on both arguments, each entry of the gradient read as a field of
/// the call (`inner_grad(x, w).1`).
#[differentiable]
fn both_stepped(x: f64, w: f64, lr: f64) -> f64 {
    let x1 = x - lr * inner_grad(x, w).1;
    let w1 = w - lr * inner_grad(x, w).2;
    inner(x1, w1) + inner_grad(x1, w1).0
}

#[test]
fn gradient_entries_read_as_fields() {
    for &(x, w, lr) in POINTS {
        let (value, dx, dw, dlr) = both_stepped_grad(x, w, lr);
        assert_eq!(value.to_bits(), both_stepped(x, w, lr).to_bits());
        let fd = fd3(both_stepped, x, w, lr);
        assert_fd64_close("d/dx", dx, fd[0]);
        assert_fd64_close("d/dw", dw, fd[1]);
        assert_fd64_close("d/dlr", dlr, fd[2]);
    }
}

#[differentiable(hessian)]
fn power(x: f64, #[constant] c: f64, n: i32, y: f64) -> f64 {
    c * x.powi(n) * y.exp()
}

/// Constant and integer arguments of the gradient's function: its
/// gradient has entries for `x` and `y` only.
#[differentiable]
fn stepped_power(x: f64, y: f64, c: f64) -> f64 {
    let (_, gx, gy) = power_grad(x, 2.0, 3, y);
    power(x - 0.01 * gx, 2.0, 3, y - 0.01 * gy) * c
}

#[test]
fn constant_and_integer_arguments_of_the_gradient() {
    for &(x, y, c) in &[(1.2, 0.3, 1.5), (-0.7, -0.4, 0.5)] {
        let (value, dx, dy, dc) = stepped_power_grad(x, y, c);
        assert_eq!(value.to_bits(), stepped_power(x, y, c).to_bits());
        let fd = fd3(stepped_power, x, y, c);
        assert_fd64_close("d/dx", dx, fd[0]);
        assert_fd64_close("d/dy", dy, fd[1]);
        assert_fd64_close("d/dc", dc, fd[2]);
    }
}

#[differentiable(hessian)]
fn inner32(x: f32, w: f32) -> f32 {
    (x * w - 1.0).powi(2) + w.sin()
}

#[differentiable]
fn after_step32(x: f32, w: f32, lr: f32) -> f32 {
    let dw = inner32_grad(x, w).2;
    inner32(x, w - lr * dw)
}

/// The same step in `f32`: the gradient's items are of the function's
/// float (`fd_support`'s `f32` stencil and tolerances).
#[test]
fn gradient_after_a_gradient_step_in_f32() {
    use fd_support::{FD32_ABS, FD32_REL, fd32};
    for &(x, w, lr) in &[(1.0f32, 2.0f32, 0.125f32), (0.75, -1.25, 0.0625)] {
        let (value, dx, dw, dlr) = after_step32_grad(x, w, lr);
        assert_eq!(value.to_bits(), after_step32(x, w, lr).to_bits());
        let fd = [
            fd32(|t| after_step32(t, w, lr), x),
            fd32(|t| after_step32(x, t, lr), w),
            fd32(|t| after_step32(x, w, t), lr),
        ];
        for (got, want) in [dx, dw, dlr].into_iter().zip(fd) {
            assert_relative_eq!(
                f64::from(got),
                want,
                epsilon = FD32_ABS,
                max_relative = FD32_REL
            );
        }
    }
}
