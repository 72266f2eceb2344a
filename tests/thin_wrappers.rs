//! The wrappers that hand the hidden VJP on through the runtime's generic
//! helpers (every argument differentiable, at most twelve of them) and
//! those that take its tuple apart (a constant, or more arguments): the
//! same values and adjoints either way. Expected values are closed forms.

use autograd::differentiable;
use autograd::solve::{SolveError, bisect};
use nalgebra::DMatrix;

/// x·Σy + tr(m): ∂x = Σy, ∂yᵢ = x, ∂m = I.
#[differentiable]
fn mixed(x: f64, y: &[f64], m: &DMatrix<f64>) -> f64 {
    let mut s = 0.0;
    for v in y {
        s += x * v;
    }
    s + m[(0, 0)] + m[(1, 1)]
}

#[test]
fn grad_vjp_and_grad_acc_agree_with_the_closed_form() {
    let (x, y, m) = (2.0, [1.0, 3.0], DMatrix::from_element(2, 2, 5.0));
    let (value, dx, dy, dm) = mixed_grad(x, &y, &m);
    assert_eq!(value, mixed(x, &y, &m));
    assert_eq!((dx, dy), (4.0, vec![2.0, 2.0]));
    assert_eq!(dm, DMatrix::identity(2, 2));

    let (v, pullback) = mixed_vjp(x, &y, &m);
    assert_eq!(v, value);
    let (dx3, dy3, dm3) = pullback(3.0);
    assert_eq!((dx3, dy3), (12.0, vec![6.0, 6.0]));
    assert_eq!(dm3, DMatrix::identity(2, 2) * 3.0);

    let (mut bx, mut by, mut bm) = (1.0, [1.0, 1.0], DMatrix::from_element(2, 2, 1.0));
    let v = mixed_grad_acc(x, &y, &m, &mut bx, &mut by, &mut bm);
    assert_eq!(v, value);
    assert_eq!((bx, by), (5.0, [3.0, 3.0]));
    assert_eq!(bm, DMatrix::from_row_slice(2, 2, &[2.0, 1.0, 1.0, 2.0]));
    assert!(mixed_check(x, &y, &m).is_within(1e-6, 1e-6));
}

#[test]
#[should_panic(expected = "buffer's length differs")]
fn a_short_buffer_is_refused() {
    let (mut bx, mut by, mut bm) = (0.0, [0.0; 1], DMatrix::zeros(2, 2));
    mixed_grad_acc(
        1.0,
        &[1.0, 2.0],
        &DMatrix::zeros(2, 2),
        &mut bx,
        &mut by,
        &mut bm,
    );
}

/// Σ (i+1)·aᵢ over twelve arguments, the most the helpers take.
#[differentiable]
#[allow(clippy::too_many_arguments)]
fn twelve(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
) -> f64 {
    a0 + 2.0 * a1
        + 3.0 * a2
        + 4.0 * a3
        + 5.0 * a4
        + 6.0 * a5
        + 7.0 * a6
        + 8.0 * a7
        + 9.0 * a8
        + 10.0 * a9
        + 11.0 * a10
        + 12.0 * a11
}

/// The same with a thirteenth: the wrappers take the tuple apart.
#[differentiable]
#[allow(clippy::too_many_arguments)]
fn thirteen(
    a0: f64,
    a1: f64,
    a2: f64,
    a3: f64,
    a4: f64,
    a5: f64,
    a6: f64,
    a7: f64,
    a8: f64,
    a9: f64,
    a10: f64,
    a11: f64,
    a12: f64,
) -> f64 {
    twelve(a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11) + 13.0 * a12
}

#[test]
fn twelve_and_thirteen_arguments_give_their_weights() {
    let (v, d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11) =
        twelve_grad(1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0);
    let weights: Vec<f64> = (1..=13).map(f64::from).collect();
    assert_eq!(v, 78.0);
    assert_eq!(
        [d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11],
        weights[..12]
    );
    let (v, d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12) = thirteen_grad(
        1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
    );
    assert_eq!(v, 91.0);
    assert_eq!(
        [d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11, d12],
        weights[..]
    );
    let mut d = [0.0; 12];
    let [d0, d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11] = &mut d;
    let v = twelve_grad_acc(
        0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, d0, d1, d2, d3, d4, d5, d6, d7,
        d8, d9, d10, d11,
    );
    assert_eq!(v, 24.0);
    assert_eq!(d, weights[..12]);
}

/// r(x, c) = x² − c: its root is √c.
#[differentiable]
fn residual(x: f64, c: f64) -> f64 {
    x * x - c
}

/// √c by bisection: d√c/dc = 1/(2√c).
#[differentiable(implicit = residual)]
fn root(c: f64) -> Result<f64, SolveError> {
    bisect(|x| residual(x, c), 0.0, c.max(1.0), 1e-14)
}

#[test]
fn a_fallible_function_wraps_grad_and_grad_acc_in_its_result() {
    let (value, dc) = root_grad(4.0).unwrap();
    assert!((value - 2.0).abs() < 1e-12);
    assert!((dc - 0.25).abs() < 1e-9);
    let mut buffer = 1.0;
    let value = root_grad_acc(4.0, &mut buffer).unwrap();
    assert!((value - 2.0).abs() < 1e-12);
    assert!((buffer - 1.25).abs() < 1e-9);
    // No root in the bracket: the error, not a number.
    assert!(root_grad(-1.0).is_err());
    assert!(root_grad_acc(-1.0, &mut buffer).is_err());
}
