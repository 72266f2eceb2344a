//! `#[differentiable(hessian)]` on functions generic over their scalar
//! (`T: Float`): `NAME_hvp` and `NAME_hessian` at `f64` and `f32` against
//! closed forms and central differences of `NAME_grad`; a generic function
//! is its own twin (its gradient instantiated at `Dual<T>`), and a
//! non-generic `hessian` function calls it.

#![allow(clippy::needless_range_loop)]

use autograd::differentiable;
use autograd::num_traits::Float;

fn close(got: f64, want: f64, tol: f64) -> bool {
    (got - want).abs() <= tol * (1.0 + want.abs())
}

#[differentiable(hessian)]
fn rosenbrock<T: Float>(x: &[T]) -> T {
    let hundred = T::from(100.0).unwrap();
    let mut s = T::zero();
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = T::one() - x[i];
        s = s + hundred * a * a + b * b;
    }
    s
}

/// H_ii = 1200x_i² − 400x_{i+1} + 2 (i < n−1) + 200 (i > 0),
/// H_{i,i+1} = −400x_i.
fn rosenbrock_hessian_closed(x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let mut h = vec![vec![0.0; n]; n];
    for i in 0..n {
        if i + 1 < n {
            h[i][i] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
            h[i][i + 1] = -400.0 * x[i];
            h[i + 1][i] = -400.0 * x[i];
        }
        if i > 0 {
            h[i][i] += 200.0;
        }
    }
    h
}

const X: [f64; 5] = [0.3, -0.8, 1.2, 0.45, -0.1];

#[test]
fn generic_rosenbrock_hessian_at_f64_is_the_closed_form() {
    let (value, grad, h) = rosenbrock_hessian(&X);
    assert_eq!(value.to_bits(), rosenbrock(&X).to_bits());
    let (_, want_grad) = rosenbrock_grad(&X);
    let want = rosenbrock_hessian_closed(&X);
    for i in 0..5 {
        assert!(close(grad[i], want_grad[i], 1e-14));
        for j in 0..5 {
            assert!(
                close(h[(i, j)], want[i][j], 1e-12),
                "H[{i},{j}] = {} vs {}",
                h[(i, j)],
                want[i][j]
            );
        }
    }
}

#[test]
fn generic_rosenbrock_hessian_at_f32_is_the_closed_form_to_f32_rounding() {
    let x: Vec<f32> = X.iter().map(|&v| v as f32).collect();
    let (value, _, h) = rosenbrock_hessian(&x);
    assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
    let widened: Vec<f64> = x.iter().map(|&v| f64::from(v)).collect();
    let want = rosenbrock_hessian_closed(&widened);
    for i in 0..5 {
        for j in 0..5 {
            // Entries up to ~1e3 from a few f32 products: 1e-5 relative.
            assert!(
                close(f64::from(h[(i, j)]), want[i][j], 1e-5),
                "H[{i},{j}] = {} vs {}",
                h[(i, j)],
                want[i][j]
            );
        }
    }
}

/// A generic callee without `hessian`: a generic function's second order
/// instantiates it at `Dual<T>` directly.
#[differentiable]
fn softplus<T: Float>(x: T) -> T {
    (T::one() + x.exp()).ln()
}

#[differentiable(hessian)]
fn energy<T: Float>(x: T, w: &[T], #[constant] k: T) -> T {
    let mut s = k * x * x;
    for i in 0..w.len() {
        s = s + softplus(w[i] * x) * w[i].sin();
    }
    s
}

/// `(∇f(p + h·v) − ∇f(p − h·v)) / 2h` over (x, w): step 1e-5, truncation
/// O(h²) ≈ 1e-10, rounding ≈ 1e-11; agreement to 1e-6 is a real check.
fn energy_hv_by_differences(x: f64, w: &[f64], k: f64, vx: f64, vw: &[f64]) -> Vec<f64> {
    let h = 1e-5;
    let grad = |s: f64| {
        let ws: Vec<f64> = w.iter().zip(vw).map(|(w, v)| w + s * h * v).collect();
        let (_, dx, dw) = energy_grad(x + s * h * vx, &ws, k);
        std::iter::once(dx).chain(dw).collect::<Vec<f64>>()
    };
    let (up, down) = (grad(1.0), grad(-1.0));
    up.iter()
        .zip(&down)
        .map(|(u, d)| (u - d) / (2.0 * h))
        .collect()
}

#[test]
fn generic_hvp_through_a_generic_callee_matches_differences_of_the_gradient() {
    let (x, w, k): (f64, [f64; 3], f64) = (0.7, [0.4, -1.1, 0.9], 1.5);
    let (vx, vw) = (0.3, [1.0, -0.5, 0.25]);
    let (value, dx, dw, hx, hw) = energy_hvp(x, &w, k, vx, &vw);
    assert_eq!(value.to_bits(), energy(x, &w, k).to_bits());
    let (_, gx, gw) = energy_grad(x, &w, k);
    assert_eq!((dx, dw.clone()), (gx, gw));
    let want = energy_hv_by_differences(x, &w, k, vx, &vw);
    let got: Vec<f64> = std::iter::once(hx).chain(hw).collect();
    for (g, e) in got.iter().zip(&want) {
        assert!(close(*g, *e, 1e-6), "{g} vs {e}");
    }
}

/// A non-generic `hessian` function calling a generic `hessian` one: the
/// callee's twin is the generic function itself.
#[differentiable(hessian)]
fn caller(x: &[f64]) -> f64 {
    rosenbrock(x) * 0.5 + x[0].sin()
}

#[test]
fn a_plain_function_calls_a_generic_ones_second_order() {
    let (value, _, h) = caller_hessian(&X);
    assert_eq!(value.to_bits(), caller(&X).to_bits());
    // 0.5·H_rosenbrock − sin(x_0) at (0, 0): closed form.
    let mut want = rosenbrock_hessian_closed(&X);
    for row in &mut want {
        for e in row.iter_mut() {
            *e *= 0.5;
        }
    }
    want[0][0] -= X[0].sin();
    for i in 0..5 {
        for j in 0..5 {
            assert!(
                close(h[(i, j)], want[i][j], 1e-12),
                "H[{i},{j}] = {} vs {}",
                h[(i, j)],
                want[i][j]
            );
        }
    }
}

/// One bubble pass over a local `Vec` of the generic scalar, its elements
/// swapped in a branch inside a loop: the `Vec`'s adjoint joins after the
/// branch, at `Dual<T>` too (this did not compile: a `Vec` adjoint was
/// added into only for `f32`/`f64`).
// The element writes are the construct under test, not `swap` or
// `copy_from_slice`.
#[allow(clippy::manual_memcpy, clippy::manual_swap)]
#[differentiable(hessian)]
fn bubble_pass<T: Float>(x: &[T]) -> T {
    let mut v = vec![T::zero(); x.len()];
    for i in 0..x.len() {
        v[i] = x[i];
    }
    for i in 0..x.len() - 1 {
        if v[i] > v[i + 1] {
            let t = v[i];
            v[i] = v[i + 1];
            v[i + 1] = t;
        }
    }
    v[0] * v[1] + v[2] * v[2]
}

#[test]
fn a_vec_swapped_in_a_loop_has_the_closed_form_hessian() {
    // [3, 1, 2] → [1, 2, 3]: f = x1 x2 + x0², H = [[2, 0, 0], [0, 0, 1], [0, 1, 0]].
    let (v, g, h) = bubble_pass_hessian(&[3.0, 1.0, 2.0]);
    assert_eq!(v, 11.0);
    assert_eq!((g[0], g[1], g[2]), (6.0, 2.0, 1.0));
    let want = [[2.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]];
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(h[(i, j)], want[i][j], "h[{i},{j}]");
        }
    }
}
