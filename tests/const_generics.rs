//! Functions generic over a length, `fn f<const N: usize>(x: &[f64; N])`:
//! every generated item carries the length, at `f64` and generic over the
//! scalar, and calls between such functions (reverse, forward, second
//! order) find the callee's items at the call's length. Expected values are
//! closed forms, or five-point central differences of the primal
//! (`fd_support`, tolerances stated there).

// Index loops, as numeric code is written.
#![allow(clippy::needless_range_loop)]

use autograd::differentiable;
use autograd::nalgebra::SVector;
use autograd::num_traits::{Float, FromPrimitive};

mod fd_support;
use fd_support::{CF64_ABS, CF64_REL, assert_all_fd64_close, fd64_slice};

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= CF64_ABS.max(CF64_REL * want.abs()),
        "{what}: {got} against {want}"
    );
}

/// Σ xᵢ³: gradient 3xᵢ², Hessian diag(6xᵢ).
#[differentiable(jvp, hessian)]
fn cubes<const N: usize>(x: &[f64; N]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        s += x[i] * x[i] * x[i];
    }
    s
}

/// The mean, `N` read as a value.
#[differentiable(jvp, hessian)]
fn mean<const N: usize>(x: &[f64; N]) -> f64 {
    let s: f64 = x.iter().sum();
    s / N as f64
}

/// a·sin(xᵢ), element by element: a Jacobian of N rows.
#[differentiable(jvp)]
fn scaled_sines<const N: usize>(x: &[f64; N], a: f64) -> [f64; N] {
    let mut y = [0.0; N];
    for i in 0..N {
        y[i] = a * x[i].sin();
    }
    y
}

/// Two lengths, an array by value and a slice.
#[differentiable]
fn weighted_pairs<const N: usize, const M: usize>(x: [f64; N], w: &[f64; M], c: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..N {
        for j in 0..M {
            s += w[j] * (x[i] * c[j]).exp();
        }
    }
    s
}

/// Generic over the scalar and the length: Σ exp(xᵢ)·xᵢ.
#[differentiable(jvp, hessian)]
fn exp_weighted<T: Float, const N: usize>(x: &[T; N]) -> T {
    let mut s = T::zero();
    for v in x.iter() {
        s = s + v.exp() * *v;
    }
    s
}

/// Calls of length-generic functions, the length inferred or written.
#[differentiable(jvp, hessian)]
fn calls(x: &[f64; 3], a: f64) -> f64 {
    let y = [a * x[0], a * x[1], a * x[2]];
    2.0 * cubes(x) + mean(&y) + mean::<3>(x)
}

/// A length-generic caller passing its length on.
#[differentiable(jvp)]
fn generic_caller<const N: usize>(x: &[f64; N], a: f64) -> f64 {
    let y = scaled_sines(x, a);
    mean(&y) * cubes::<N>(x)
}

/// A checkpointed loop over a state of length N.
#[differentiable]
fn relax<const N: usize>(x: [f64; N], steps: usize) -> f64 {
    let mut s = x;
    #[checkpoint]
    for _ in 0..steps {
        for i in 0..N {
            s[i] = 0.9 * s[i] + 0.1 * s[i].sin();
        }
    }
    s.iter().sum()
}

/// As an optimisation library writes it: the length first, bounds in
/// `where`.
#[differentiable(jvp, hessian)]
pub fn rosenbrock<const N: usize, T>(param: &[T; N]) -> T
where
    T: Float + FromPrimitive,
{
    let hundred = T::from_f64(100.0).unwrap();
    let mut sum = T::zero();
    for i in 0..N - 1 {
        sum = sum
            + (T::one() - param[i]).powi(2)
            + hundred * (param[i + 1] - param[i].powi(2)).powi(2);
    }
    sum
}

/// A fixed-size nalgebra vector of a generic length.
#[differentiable(jvp, hessian)]
fn half_norm_squared<const N: usize>(x: &SVector<f64, N>) -> f64 {
    0.5 * x.norm_squared()
}

const X3: [f64; 3] = [0.7, -1.3, 2.1];
const X5: [f64; 5] = [0.3, -0.8, 1.1, 0.5, -1.9];

#[test]
fn first_order_at_two_lengths() {
    let (value, grad) = cubes_grad(&X3);
    close("value", value, X3.iter().map(|x| x * x * x).sum());
    for i in 0..3 {
        close("∂/∂xᵢ", grad[i], 3.0 * X3[i] * X3[i]);
    }
    let (_, grad5) = cubes_grad(&X5);
    assert_eq!(grad5.len(), 5);
    for i in 0..5 {
        close("∂/∂xᵢ at N = 5", grad5[i], 3.0 * X5[i] * X5[i]);
    }
    let (_, grad) = mean_grad(&X5);
    assert_eq!(grad, [0.2; 5]);

    // `_vjp` at another seed, `_grad_acc` adding into a buffer, `_check`.
    let (_, pullback) = cubes_vjp(&X3);
    let (adjoint,) = pullback(2.0);
    for i in 0..3 {
        close("vjp", adjoint[i], 6.0 * X3[i] * X3[i]);
    }
    let mut acc = [1.0; 3];
    cubes_grad_acc(&X3, &mut acc);
    for i in 0..3 {
        close("grad_acc", acc[i], 1.0 + 3.0 * X3[i] * X3[i]);
    }
    assert!(cubes_check(&X5).is_within(1e-7, 1e-6));
}

#[test]
fn two_lengths_against_central_differences() {
    let c = [0.5, -0.25, 1.5, 0.75];
    let w = [1.0, 2.0, -0.5, 0.25];
    let (_, dx, dw, _) = weighted_pairs_grad([0.4, -0.6], &w, &c);
    let want = fd64_slice(|x| weighted_pairs([x[0], x[1]], &w, &c), &[0.4, -0.6]);
    assert_all_fd64_close("∂/∂x", &dx, &want);
    let want = fd64_slice(
        |w| weighted_pairs([0.4, -0.6], &[w[0], w[1], w[2], w[3]], &c),
        &w,
    );
    assert_all_fd64_close("∂/∂w", &dw, &want);
}

#[test]
fn forward_mode_and_the_jacobian() {
    let (value, tangent) = cubes_jvp(&X3, &[1.0, -2.0, 0.5]);
    close("value", value, cubes(&X3));
    let want = 3.0 * X3[0] * X3[0] - 2.0 * 3.0 * X3[1] * X3[1] + 0.5 * 3.0 * X3[2] * X3[2];
    close("jvp", tangent, want);

    let (y, jacobian) = scaled_sines_jacobian(&X3, 1.5);
    assert_eq!(y, scaled_sines(&X3, 1.5));
    assert_eq!(jacobian.shape(), (3, 4));
    for i in 0..3 {
        for j in 0..3 {
            let want = if i == j { 1.5 * X3[i].cos() } else { 0.0 };
            close("∂yᵢ/∂xⱼ", jacobian[(i, j)], want);
        }
        close("∂yᵢ/∂a", jacobian[(i, 3)], X3[i].sin());
    }
}

#[test]
fn second_order() {
    let (value, grad, hessian) = cubes_hessian(&X3);
    close("value", value, cubes(&X3));
    for i in 0..3 {
        close("gradient", grad[i], 3.0 * X3[i] * X3[i]);
        for j in 0..3 {
            let want = if i == j { 6.0 * X3[i] } else { 0.0 };
            close("Hᵢⱼ", hessian[(i, j)], want);
        }
    }
    let (_, _, hv) = cubes_hvp(&X3, &[1.0, 0.0, -1.0]);
    close("(H·v)₀", hv[0], 6.0 * X3[0]);
    close("(H·v)₂", hv[2], -6.0 * X3[2]);

    let coloring = cubes_hessian_pattern(&X5);
    assert_eq!(coloring.colors(), 1);
    let (_, _, sparse) = cubes_hessian_sparse(&X5, &coloring);
    assert_eq!(sparse.nnz(), 5);
    for (i, j, v) in sparse.triplet_iter() {
        assert_eq!(i, j);
        close("sparse Hᵢᵢ", *v, 6.0 * X5[i]);
    }
}

#[test]
fn generic_over_the_scalar_and_the_length() {
    // d/dx (x·eˣ) = (1 + x)eˣ, d² = (2 + x)eˣ.
    let (_, grad) = exp_weighted_grad(&X3);
    for i in 0..3 {
        close("f64", grad[i], (1.0 + X3[i]) * X3[i].exp());
    }
    let x32 = [0.5f32, -1.25, 2.0, 0.25];
    let (_, grad32) = exp_weighted_grad(&x32);
    for i in 0..4 {
        let want = (1.0 + x32[i] as f64) * (x32[i] as f64).exp();
        assert!((grad32[i] as f64 - want).abs() <= 1e-5 * want.abs().max(1.0));
    }
    let (_, tangent) = exp_weighted_jvp(&X3, &[0.0, 1.0, 0.0]);
    close("jvp", tangent, (1.0 + X3[1]) * X3[1].exp());
    let (_, _, hessian) = exp_weighted_hessian(&X3);
    for i in 0..3 {
        close("Hᵢᵢ", hessian[(i, i)], (2.0 + X3[i]) * X3[i].exp());
    }
    close("H₀₁", hessian[(0, 1)], 0.0);
}

#[test]
fn calls_at_the_callers_length() {
    let a = 0.8;
    let f = |x: &[f64]| calls(&[x[0], x[1], x[2]], a);
    let (_, dx, da) = calls_grad(&X3, a);
    assert_all_fd64_close("∂/∂x", &dx, &fd64_slice(f, &X3));
    // ∂/∂a = mean(x).
    close("∂/∂a", da, X3.iter().sum::<f64>() / 3.0);

    let (_, tangent) = calls_jvp(&X3, a, &[1.0, 0.0, 0.0], 0.0);
    close("jvp through calls", tangent, dx[0]);

    // Hessian: 2·diag(6xᵢ) from the cubes, ∂²/∂xᵢ∂a = 1/3 from the mean
    // of a·x.
    let (_, _, hessian) = calls_hessian(&X3, a);
    for i in 0..3 {
        close("Hᵢᵢ", hessian[(i, i)], 12.0 * X3[i]);
        close("∂²/∂xᵢ∂a", hessian[(i, 3)], 1.0 / 3.0);
    }
    close("∂²/∂a²", hessian[(3, 3)], 0.0);

    let g = |x: &[f64]| generic_caller(&[x[0], x[1], x[2], x[3], x[4]], a);
    let (_, dx, _) = generic_caller_grad(&X5, a);
    assert_all_fd64_close("length passed on", &dx, &fd64_slice(g, &X5));
    let (_, tangent) = generic_caller_jvp(&X5, a, &[0.0, 0.0, 1.0, 0.0, 0.0], 0.0);
    close("jvp, length passed on", tangent, dx[2]);
}

#[test]
fn a_checkpointed_loop_over_a_length() {
    let x = [0.4, -0.9, 1.6];
    let (value, grad) = relax_grad(x, 40);
    close("value", value, relax(x, 40));
    let want = fd64_slice(|x| relax([x[0], x[1], x[2]], 40), &x);
    assert_all_fd64_close("∂/∂x", &grad, &want);
}

#[test]
fn rosenbrock_generic_over_its_length_and_scalar() {
    // ∂/∂x₀ = −2(1 − x₀) − 400x₀(x₁ − x₀²), ∂/∂x₁ = 200(x₁ − x₀²) − 2(1 − x₁)
    // − 400x₁(x₂ − x₁²), ∂/∂x₂ = 200(x₂ − x₁²); H₀₁ = −400x₀, H₂₂ = 200.
    let x = [1.5, 2.0, 0.5];
    let (_, grad) = rosenbrock_grad(&x);
    close(
        "∂/∂x₀",
        grad[0],
        -2.0 * (1.0 - x[0]) - 400.0 * x[0] * (x[1] - x[0] * x[0]),
    );
    close(
        "∂/∂x₁",
        grad[1],
        200.0 * (x[1] - x[0] * x[0]) - 2.0 * (1.0 - x[1]) - 400.0 * x[1] * (x[2] - x[1] * x[1]),
    );
    close("∂/∂x₂", grad[2], 200.0 * (x[2] - x[1] * x[1]));
    let (_, _, hessian) = rosenbrock_hessian(&x);
    close("H₀₁", hessian[(0, 1)], -400.0 * x[0]);
    close("H₁₂", hessian[(1, 2)], -400.0 * x[1]);
    close("H₀₂", hessian[(0, 2)], 0.0);
    close("H₂₂", hessian[(2, 2)], 200.0);
    let (_, grad32) = rosenbrock_grad(&[1.5f32, 2.0, 0.5]);
    assert!((grad32[2] as f64 - grad[2]).abs() <= 1e-4 * grad[2].abs());
}

#[test]
fn a_fixed_size_vector_of_a_generic_length() {
    let x = SVector::<f64, 4>::new(1.0, -2.0, 0.5, 3.0);
    let (value, grad) = half_norm_squared_grad(&x);
    close("value", value, 0.5 * x.norm_squared());
    assert_eq!(grad, x);
    let (_, _, hessian) = half_norm_squared_hessian(&x);
    assert_eq!(hessian, autograd::nalgebra::DMatrix::identity(4, 4));
}

/// A local array of the generic length, `[0.0; N]`, under `hessian`: the
/// second-order copy read the length `N` as a number to convert (an error
/// at `N`, found by the fuzz class `const-len`). x₀²·x_{N−1}²: at N = 2,
/// H = [[2x₁², 4x₀x₁], [4x₀x₁, 2x₀²]].
#[differentiable(jvp, hessian)]
fn squares_local<const N: usize>(x: &[f64; N]) -> f64 {
    let mut w = [0.0; N];
    for i in 0..N {
        w[i] = x[i] * x[i];
    }
    w[0] * w[N - 1]
}

#[test]
fn a_local_array_of_the_generic_length_under_hessian() {
    let x = [1.5, -0.5];
    let (value, _, h) = squares_local_hessian(&x);
    close("value", value, x[0] * x[0] * x[1] * x[1]);
    let want = [
        [2.0 * x[1] * x[1], 4.0 * x[0] * x[1]],
        [4.0 * x[0] * x[1], 2.0 * x[0] * x[0]],
    ];
    for i in 0..2 {
        for j in 0..2 {
            close("H", h[(i, j)], want[i][j]);
        }
    }
}
