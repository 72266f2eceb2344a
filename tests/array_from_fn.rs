//! `std::array::from_fn(|i| ..)` in a `#[differentiable]` body, where the
//! array's type is known: a typed `let`, an assignment to an array, the
//! function's result (tail and `return`). Expected derivatives are closed
//! forms, or central differences of the primal (`fd_support`) where the
//! function is an integrator; tolerances are stated at each assertion.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::{FD64_ABS, FD64_REL, fd64};

/// a + h·k, element-wise, as the function's result.
#[differentiable]
fn axpy(a: [f64; 2], h: f64, k: [f64; 2]) -> [f64; 2] {
    std::array::from_fn(|i| a[i] + h * k[i])
}

/// Damped oscillator x'' = −k x − c x', explicit Euler in `[f64; 2]`
/// steps written with `from_fn` assignments and a call returning one.
#[differentiable]
fn euler(x0: f64, k: f64, c: f64, #[constant] steps: usize) -> f64 {
    let mut s = [x0, 0.0];
    let h = 0.01;
    for _ in 0..steps {
        let d: [f64; 2] = std::array::from_fn(|j| if j == 0 { s[1] } else { -k * s[0] - c * s[1] });
        s = std::array::from_fn(|i| s[i] + h * d[i]);
        s = axpy(s, 0.0, d);
    }
    s[0]
}

/// Weighted squares through a typed `let`, also in forward mode.
#[differentiable(jvp)]
fn squares(x: [f64; 3], w: f64) -> f64 {
    let sq: [f64; 3] = core::array::from_fn(|i: usize| w * x[i] * x[i]);
    sq[0] + sq[1] + sq[2]
}

/// The same of a slice, to second order.
#[differentiable(hessian)]
fn weighted_squares(x: &[f64], w: f64) -> f64 {
    let sq: [f64; 3] = std::array::from_fn(|i| w * x[i] * x[i]);
    sq[0] + sq[1] + sq[2]
}

/// The loop `from_fn` is, written by hand: an element write of a local
/// array under `hessian` did not compile before (the reverse of the write
/// zeroed the element's adjoint with an `f64` literal in the twin).
#[differentiable(hessian)]
fn weighted_squares_by_hand(x: &[f64], w: f64) -> f64 {
    let mut sq = [0.0; 3];
    for i in 0..3 {
        sq[i] = w * x[i] * x[i];
    }
    sq[0] + sq[1] + sq[2]
}

/// A turbofish names the type where nothing else does.
#[differentiable]
fn turbofish(x: [f64; 3]) -> f64 {
    let cubes = std::array::from_fn::<f64, 3, _>(|i| x[i] * x[i] * x[i]);
    cubes.iter().sum()
}

#[differentiable]
fn scaled(x: [f32; 3], s: f32) -> [f32; 3] {
    if s > 10.0 {
        return std::array::from_fn(|i| x[i]);
    }
    std::array::from_fn(|i| s * x[i] + (i as f32))
}

#[test]
fn from_fn_as_the_result_has_the_closed_form_jacobian() {
    let (a, h, k) = ([1.0, -2.0], 0.5, [3.0, 4.0]);
    let (value, jac) = axpy_jacobian(a, h, k);
    assert_eq!(value, axpy(a, h, k));
    assert_eq!(value, [2.5, 0.0]);
    // Columns: a[0], a[1], h, k[0], k[1]; exact in binary.
    let want = [[1.0, 0.0, 3.0, 0.5, 0.0], [0.0, 1.0, 4.0, 0.0, 0.5]];
    for (r, row) in want.iter().enumerate() {
        for (c, &w) in row.iter().enumerate() {
            assert_eq!(jac[(r, c)], w, "({r}, {c})");
        }
    }
}

#[test]
fn from_fn_assignments_in_a_loop_match_central_differences() {
    let (x0, k, c, steps) = (0.8, 4.0, 0.3, 60);
    let (value, d_x0, d_k, d_c) = euler_grad(x0, k, c, steps);
    assert_eq!(value.to_bits(), euler(x0, k, c, steps).to_bits());
    // Tolerance: fd_support's for five-point differences.
    for (what, got, want) in [
        ("x0", d_x0, fd64(|v| euler(v, k, c, steps), x0)),
        ("k", d_k, fd64(|v| euler(x0, v, c, steps), k)),
        ("c", d_c, fd64(|v| euler(x0, k, v, steps), c)),
    ] {
        assert!(
            (got - want).abs() <= FD64_ABS + FD64_REL * want.abs(),
            "{what}: {got} against {want}"
        );
    }
}

#[test]
fn from_fn_into_a_typed_let_has_the_closed_form_gradient() {
    let (x, w) = ([1.0, 2.0, -3.0], 0.5);
    let (value, d_x, d_w) = squares_grad(x, w);
    assert_eq!(value, 7.0);
    // ∂/∂x_i = 2·w·x_i, ∂/∂w = Σ x_i²: exact in binary.
    assert_eq!(d_x, [1.0, 2.0, -3.0]);
    assert_eq!(d_w, 14.0);
}

#[test]
fn from_fn_in_a_return_and_the_tail_at_f32() {
    let x = [1.0_f32, 2.0, 3.0];
    let (value, pullback) = scaled_vjp(x, 2.0);
    assert_eq!(value, [2.0, 5.0, 8.0]);
    let (d_x, d_s) = pullback([1.0, 1.0, 1.0]);
    assert_eq!(d_x, [2.0, 2.0, 2.0]);
    assert_eq!(d_s, 6.0);
    let (value, pullback) = scaled_vjp(x, 20.0);
    assert_eq!(value, x);
    let (d_x, d_s) = pullback([1.0, 0.5, 0.25]);
    assert_eq!(d_x, [1.0, 0.5, 0.25]);
    assert_eq!(d_s, 0.0);
}

#[test]
fn from_fn_with_a_turbofish_has_the_closed_form_gradient() {
    let x = [1.0, -2.0, 0.5];
    let (value, d_x) = turbofish_grad(x);
    assert_eq!(value, 1.0 - 8.0 + 0.125);
    // 3·x_i²: exact in binary.
    assert_eq!(d_x, [3.0, 12.0, 0.75]);
}

#[test]
fn from_fn_in_forward_mode_and_to_second_order() {
    let (x, w) = ([1.0, 2.0, -3.0], 0.5);
    let (dx, dw) = ([1.0, 0.0, 2.0], -1.0);
    let (value, tangent) = squares_jvp(x, w, &dx, dw);
    assert_eq!(value, 7.0);
    // ∇f·v = Σ 2·w·x_i·dx_i + dw·Σ x_i² = (1 − 6) − 14: exact.
    assert_eq!(tangent, -19.0);
    let (value, gx, gw, hx, hw) = weighted_squares_hvp(&x, w, &dx, dw);
    assert_eq!((value, &gx, gw), (7.0, &vec![1.0, 2.0, -3.0], 14.0));
    // H·v: ∂/∂x_i = 2·w·dx_i + 2·x_i·dw, ∂/∂w = Σ 2·x_i·dx_i: exact.
    assert_eq!(hx, vec![-1.0, -4.0, 8.0]);
    assert_eq!(hw, 2.0 - 12.0);
    let by_hand = weighted_squares_by_hand_hvp(&x, w, &dx, dw);
    assert_eq!(by_hand, (7.0, gx, gw, hx, hw));
}

/// The closure's body is code of the body like any other: a `match` on the
/// index, an arm that loops and `break`s, a `return` giving the element
/// (issue 36: `from_fn` lowered where it stands, its closure's `match` and
/// exits rewritten as a closure's). b = [w·x0, x0² + x1², w²] (w ≤ 10),
/// f = b0·b1 + b2.
#[differentiable(hessian)]
fn banded(x: &[f64], w: f64) -> f64 {
    let b: [f64; 3] = std::array::from_fn(|i| match i {
        0 => w * x[0],
        1 => {
            let (mut s, mut j) = (0.0, 0);
            while j < x.len() {
                if j > 1 {
                    break;
                }
                s += x[j] * x[j];
                j += 1;
            }
            s
        }
        _ => {
            if w > 10.0 {
                return 0.0;
            }
            w * w
        }
    });
    b[0] * b[1] + b[2]
}

/// The function's result from both branches of an `if`, and a typed `let`
/// from both branches of another: each `from_fn` takes its type from the
/// place the branch's value goes (rejected before, as untyped).
#[differentiable]
fn reflect(x: [f64; 2], s: f64) -> [f64; 2] {
    let y: [f64; 2] = if s > 1.0 {
        std::array::from_fn(|i| x[i] / s)
    } else {
        std::array::from_fn(|i| x[i])
    };
    if s > 0.0 {
        std::array::from_fn(|i| s * y[i])
    } else {
        std::array::from_fn(|i| y[1 - i] * s * s)
    }
}

#[test]
fn from_fn_with_a_match_and_a_break_has_the_closed_form_derivatives() {
    let (x, w) = ([1.5, -0.5, 4.0], 0.75);
    let (x0, x1) = (x[0], x[1]);
    let q = x0 * x0 + x1 * x1;
    let (value, d_x, d_w) = banded_grad(&x, w);
    assert_relative_eq!(
        value,
        w * x0 * q + w * w,
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    // ∂/∂x0 = w(3x0² + x1²), ∂/∂x1 = 2w·x0·x1, ∂/∂x2 = 0, ∂/∂w = x0·q + 2w.
    let want = [w * (3.0 * x0 * x0 + x1 * x1), 2.0 * w * x0 * x1, 0.0];
    for (got, want) in d_x.iter().zip(want) {
        assert_relative_eq!(*got, want, epsilon = 1e-14, max_relative = 1e-14);
    }
    assert_relative_eq!(d_w, x0 * q + 2.0 * w, epsilon = 1e-14, max_relative = 1e-14);
    // H·v against the closed-form Hessian: H_x0x0 = 6w·x0, H_x0x1 = 2w·x1,
    // H_x1x1 = 2w·x0, H_x0w = 3x0² + x1², H_x1w = 2x0·x1, H_ww = 2.
    let (dx, dw) = ([0.5, 2.0, -1.0], 1.5);
    let (_, _, _, hx, hw) = banded_hvp(&x, w, &dx, dw);
    let h_x0w = 3.0 * x0 * x0 + x1 * x1;
    let want_x = [
        6.0 * w * x0 * dx[0] + 2.0 * w * x1 * dx[1] + h_x0w * dw,
        2.0 * w * x1 * dx[0] + 2.0 * w * x0 * dx[1] + 2.0 * x0 * x1 * dw,
        0.0,
    ];
    for (got, want) in hx.iter().zip(want_x) {
        assert_relative_eq!(*got, want, epsilon = 1e-13, max_relative = 1e-13);
    }
    let want_w = h_x0w * dx[0] + 2.0 * x0 * x1 * dx[1] + 2.0 * dw;
    assert_relative_eq!(hw, want_w, epsilon = 1e-13, max_relative = 1e-13);
    // Past w = 10 the `return` makes b2 = 0: ∂/∂w = x0·q.
    let (value, _, d_w) = banded_grad(&x, 12.0);
    assert_relative_eq!(value, 12.0 * x0 * q, epsilon = 1e-14, max_relative = 1e-14);
    assert_relative_eq!(d_w, x0 * q, epsilon = 1e-14, max_relative = 1e-14);
}

#[test]
fn from_fn_in_branches_takes_the_type_of_their_value() {
    let x = [3.0, -2.0];
    for s in [2.0, 0.5, -0.5] {
        let (value, jac) = reflect_jacobian(x, s);
        assert_eq!(value, reflect(x, s));
        // Columns: x[0], x[1], s.
        let want: [[f64; 3]; 2] = if s > 1.0 {
            // s·(x/s) = x: the identity, nothing in s.
            [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]
        } else if s > 0.0 {
            [[s, 0.0, x[0]], [0.0, s, x[1]]]
        } else {
            [[0.0, s * s, 2.0 * s * x[1]], [s * s, 0.0, 2.0 * s * x[0]]]
        };
        for (r, row) in want.iter().enumerate() {
            for (c, &w) in row.iter().enumerate() {
                assert_relative_eq!(jac[(r, c)], w, epsilon = 1e-14, max_relative = 1e-14);
            }
        }
    }
}
