//! `floor ceil round trunc signum` are constant between their jumps: their
//! result is a constant, so no path runs through them, in every mode. An
//! infinite derivative before one reaches nothing after it: the gradient
//! through `sqrt(s).sigmoid().ceil()` at s = 0, where √'s slope is ∞, is 0,
//! not 0·∞ = NaN. Finding 029 (f197). Expected values: the closed form of
//! the function away from the step's path, which contributes 0.

use autograd::differentiable;
use autograd::prelude::*;

/// s + ceil(σ(√s)) · y: ∂/∂s = 1 (the step adds nothing), ∂/∂y =
/// ceil(σ(√s)) = 1 near s = 0; second order: only ∂²/∂s∂y through the
/// step, 0, so the Hessian is 0.
#[differentiable(jvp, hessian)]
fn through_ceil(s: f64, y: f64) -> f64 {
    s + s.sqrt().sigmoid().ceil() * y
}

#[test]
fn a_step_function_cuts_the_path_in_reverse() {
    assert_eq!(through_ceil_grad(0.0, 2.0), (2.0, 1.0, 1.0));
}

#[test]
fn a_step_function_cuts_the_path_in_forward_mode() {
    assert_eq!(through_ceil_jvp(0.0, 2.0, 1.0, 0.0), (2.0, 1.0));
    assert_eq!(through_ceil_jvp(0.0, 2.0, 0.0, 1.0), (2.0, 1.0));
}

#[test]
fn a_step_function_cuts_the_path_in_second_order() {
    let (value, g, h) = through_ceil_hessian(0.0, 2.0);
    assert_eq!((value, g[0], g[1]), (2.0, 1.0, 1.0));
    assert!(h.iter().all(|&e| e == 0.0), "{h}");
    let (_, gs, gy, hs, hy) = through_ceil_hvp(0.0, 2.0, 1.0, 1.0);
    assert_eq!((gs, gy, hs, hy), (1.0, 1.0, 0.0, 0.0));
}

/// Each step function after √x at 0 (slope ∞), plus x: slope 1.
#[differentiable]
fn every_step(x: f64) -> f64 {
    x + x.sqrt().floor() + x.sqrt().round() + x.sqrt().trunc() + x.sqrt().signum()
}

#[test]
fn every_step_function_cuts_the_path() {
    // floor 0, round 0, trunc 0, signum(+0) = 1.
    assert_eq!(every_step_grad(0.0), (1.0, 1.0));
    // Away from 0 as well: slope 1 at x = 2.25 (√x = 1.5).
    assert_eq!(every_step_grad(2.25).1, 1.0);
}

/// `fract` is no step: slope 1, so √'s ∞ goes through it.
#[differentiable]
fn through_fract(x: f64) -> f64 {
    x.sqrt().fract()
}

#[test]
fn fract_keeps_its_path() {
    assert_eq!(through_fract_grad(0.0).1, f64::INFINITY);
    assert_eq!(through_fract_grad(0.25).1, 1.0);
}

/// The same in `f32`, as the random programs wrote it.
#[differentiable]
fn through_ceil_f32(a0: f32, s: f32) -> f32 {
    a0 * s.sqrt().sigmoid().ceil() + a0
}

#[test]
fn a_step_function_cuts_the_path_f32() {
    assert_eq!(through_ceil_f32_grad(0.5, 0.0), (1.0, 2.0, 0.0));
}
