//! `*x` of an argument taken by reference that is `Copy`: a fixed-size
//! array (`&[f64; N]`, `&[T; N]`) or a fixed-size nalgebra value
//! (`&Vector3<f64>`), copied into a local as `x.clone()` would. Expected
//! values are closed forms.

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::nalgebra::Vector3;
use autograd::num_traits::Float;

/// a y₀ y₁ + a y₂, through a copy of the state.
#[differentiable(jvp, hessian)]
fn scaled_state(y0: &[f64; 3], a: f64) -> f64 {
    let mut y = *y0;
    y[0] *= a;
    y[0] * y[1] + y[2] * a
}

/// The same, generic over the scalar and the length.
#[differentiable(jvp)]
fn scaled_state_generic<T: Float, const N: usize>(y0: &[T; N], a: T) -> T {
    let mut y = *y0;
    y[0] = y[0] * a;
    y[0] * y[1] + y[N - 1] * a
}

/// a² ‖v‖².
#[differentiable(hessian)]
fn scaled_norm(v: &Vector3<f64>, a: f64) -> f64 {
    let w = *v * a;
    w.dot(&w)
}

#[test]
fn a_copied_array_argument_in_every_mode() {
    let y0 = [1.0, 2.0, 3.0];
    let a = 0.5;
    let (value, dy, da) = scaled_state_grad(&y0, a);
    assert_eq!(value, scaled_state(&y0, a));
    assert_eq!(value, a * y0[0] * y0[1] + y0[2] * a);
    assert_eq!(dy, [a * y0[1], a * y0[0], a]);
    assert_eq!(da, y0[0] * y0[1] + y0[2]);
    let (_, tangent) = scaled_state_jvp(&y0, a, &[0.0, 1.0, 0.0], 2.0);
    assert_eq!(tangent, a * y0[0] + 2.0 * da);
    let (_, _, h) = scaled_state_hessian(&y0, a);
    // H[y0][y1] = a, H[yᵢ][a] = (y₁, y₀, 1), zero elsewhere.
    let want = [
        [0.0, a, 0.0, y0[1]],
        [a, 0.0, 0.0, y0[0]],
        [0.0, 0.0, 0.0, 1.0],
        [y0[1], y0[0], 1.0, 0.0],
    ];
    for i in 0..4 {
        for j in 0..4 {
            assert_eq!(h[(i, j)], want[i][j], "H[{i}][{j}]");
        }
    }
}

#[test]
fn a_copied_generic_array_argument() {
    let (value, dy, da) = scaled_state_generic_grad(&[1.0f32, 2.0, 3.0, 4.0], 0.5);
    assert_eq!(value, 0.5 * 2.0 + 4.0 * 0.5);
    assert_eq!(dy, [1.0, 0.5, 0.0, 0.5]);
    assert_eq!(da, 2.0 + 4.0);
    let (_, tangent) = scaled_state_generic_jvp(&[1.0, 2.0], 0.5, &[1.0, 0.0], 0.0);
    // y₀ y₁ a + y₁ a: ∂/∂y₀ = a y₁.
    assert_eq!(tangent, 1.0);
}

#[test]
fn a_copied_fixed_size_vector_argument() {
    let v = Vector3::new(1.0, 2.0, 3.0);
    let a = 0.5;
    let (value, dv, da) = scaled_norm_grad(&v, a);
    assert_relative_eq!(value, a * a * 14.0, max_relative = 1e-15);
    assert_relative_eq!(dv, 2.0 * a * a * v, max_relative = 1e-15);
    assert_relative_eq!(da, 2.0 * a * 14.0, max_relative = 1e-15);
    let (_, _, h) = scaled_norm_hessian(&v, a);
    // H_vv = 2a² I, H_va = 4a v, H_aa = 2‖v‖².
    for i in 0..3 {
        for j in 0..3 {
            let want = if i == j { 2.0 * a * a } else { 0.0 };
            assert_relative_eq!(h[(i, j)], want, max_relative = 1e-15);
        }
        assert_relative_eq!(h[(i, 3)], 4.0 * a * v[i], max_relative = 1e-15);
        assert_relative_eq!(h[(3, i)], 4.0 * a * v[i], max_relative = 1e-15);
    }
    assert_relative_eq!(h[(3, 3)], 28.0, max_relative = 1e-15);
}
