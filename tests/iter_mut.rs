//! `iter_mut()` of local arrays and `Vec`s, as users write in-place
//! updates: `for v in p.iter_mut() { *v = .. }`, with `enumerate`, `zip`,
//! `rev`, nested rows, `for_each`, compound assignments reading the old
//! element, under `hessian`, and in a vector result.
//!
//! Expected derivatives: closed forms (tolerance 1e-12 relative) and
//! central differences of the plain function (step 1e-6, tolerance 1e-7
//! absolute).

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;

/// Softmax cross-entropy through an in-place buffer.
#[differentiable]
fn softmax_loss(z: &[f64], #[constant] label: usize) -> f64 {
    let m = z.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut p = z.to_vec();
    for v in p.iter_mut() {
        *v = (*v - m).exp();
    }
    let s: f64 = p.iter().sum();
    for v in p.iter_mut() {
        *v /= s;
    }
    -p[label].ln()
}

/// Residuals written through `zip`, then their sum of squares.
#[differentiable]
fn line_sse(w: &[f64], #[constant] x: &[f64], #[constant] y: &[f64]) -> f64 {
    let mut r = vec![0.0; x.len()];
    for (ri, (&xi, &yi)) in r.iter_mut().zip(x.iter().zip(y)) {
        *ri = w[0] + w[1] * xi - yi;
    }
    r.iter().map(|e| e * e).sum()
}

/// Discount factors by `enumerate`, summed; the zip the other way round.
#[differentiable]
fn annuity(rates: &[f64]) -> f64 {
    let mut df = [0.0; 4];
    for (i, d) in df.iter_mut().enumerate() {
        *d = (-rates[i] * (i as f64 + 1.0)).exp();
    }
    let mut weighted = [0.0; 4];
    for (&d, w) in df.iter().zip(weighted.iter_mut()).rev() {
        *w = 0.25 * d;
    }
    weighted.iter().sum::<f64>() + df[3]
}

/// `for_each` with compound assignments and a method of the element.
#[differentiable]
fn clipped_energy(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v.iter_mut().for_each(|e| *e = e.clamp(-1.0, 1.0));
    v.iter_mut().for_each(|e: &mut f64| *e *= 2.0);
    v.iter().map(|e| e * e).sum::<f64>()
}

/// Logistic steps on an array in a loop: every update reads the old
/// element, so the reverse sweep needs each overwritten value back.
#[differentiable]
fn relax(x: &[f64], k: f64) -> f64 {
    let mut u = [x[0], x[1], x[2]];
    for _ in 0..3 {
        for v in u.iter_mut() {
            *v += k * (1.0 - *v) * *v;
        }
    }
    u[0] * u[1] + u[2]
}

/// Rows of a local array of arrays, then their elements.
#[differentiable]
fn outer_weights(x: &[f64]) -> f64 {
    let mut g = [[0.0; 2]; 2];
    for (r, row) in g.iter_mut().enumerate() {
        for (c, v) in row.iter_mut().enumerate() {
            *v = x[r] * x[c + 2];
        }
    }
    g[0][0] + 2.0 * g[0][1] + 3.0 * g[1][0] + 4.0 * g[1][1]
}

/// A vector result scaled in place.
#[differentiable]
fn scaled(x: &[f64], s: f64) -> Vec<f64> {
    let mut out = x.to_vec();
    for o in out.iter_mut() {
        *o *= s;
    }
    out
}

/// The same update under `hessian`.
#[differentiable(hessian)]
fn squashed(x: &[f64]) -> f64 {
    let mut u = x.to_vec();
    for v in u.iter_mut() {
        *v = v.tanh();
    }
    u.iter().map(|t| t * t).sum()
}

/// Central differences of the plain function, step 1e-6.
fn central(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    fd_support::central_slice(f, x, 1e-6)
}

fn assert_close(what: &str, got: &[f64], want: &[f64], tol: f64) {
    assert_eq!(got.len(), want.len(), "{what}");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * w.abs().max(1.0),
            "{what}[{i}]: {g} vs {w}"
        );
    }
}

#[test]
fn softmax_loss_has_the_closed_form_gradient() {
    let z = [0.5, -1.0, 2.0, 0.1];
    let (v, dz) = softmax_loss_grad(&z, 2);
    assert_eq!(v, softmax_loss(&z, 2));
    // ∂/∂z = softmax(z) − e_label.
    let s: f64 = z.iter().map(|t| t.exp()).sum();
    let want: Vec<f64> = (0..4)
        .map(|i| z[i].exp() / s - if i == 2 { 1.0 } else { 0.0 })
        .collect();
    assert_close("softmax", &dz, &want, 1e-12);
    assert_close(
        "softmax fd",
        &dz,
        &central(|z| softmax_loss(z, 2), &z),
        1e-7,
    );
}

#[test]
fn zipped_residuals_have_the_least_squares_gradient() {
    let (x, y) = ([0.0, 1.0, 2.0, 3.0], [1.0, 2.5, 2.9, 4.2]);
    let w = [0.4, 1.1];
    let (v, dw) = line_sse_grad(&w, &x, &y);
    assert_eq!(v, line_sse(&w, &x, &y));
    // ∂/∂w0 = 2 Σ r, ∂/∂w1 = 2 Σ r x.
    let r: Vec<f64> = (0..4).map(|i| w[0] + w[1] * x[i] - y[i]).collect();
    let want = [
        2.0 * r.iter().sum::<f64>(),
        2.0 * (0..4).map(|i| r[i] * x[i]).sum::<f64>(),
    ];
    assert_close("sse", &dw, &want, 1e-12);
}

#[test]
fn enumerated_and_reversed_writes_have_the_closed_form_gradient() {
    let rates = [0.01, 0.02, 0.025, 0.03];
    let (v, dr) = annuity_grad(&rates);
    assert_eq!(v, annuity(&rates));
    // d/dr_i of the 0.25 e^{-r_i (i+1)} terms, plus e^{-4 r_3}.
    let want: Vec<f64> = (0..4)
        .map(|i| {
            let t = i as f64 + 1.0;
            let d = (-rates[i] * t).exp();
            -t * d * (0.25 + if i == 3 { 1.0 } else { 0.0 })
        })
        .collect();
    assert_close("annuity", &dr, &want, 1e-12);
    assert_close("annuity fd", &dr, &central(annuity, &rates), 1e-7);
}

#[test]
fn for_each_clamps_and_scales_in_place() {
    let x = [0.3, -1.7, 0.9, 2.5];
    let (v, dx) = clipped_energy_grad(&x);
    assert_eq!(v, clipped_energy(&x));
    // 4 x² inside [-1, 1], constant outside (clamp's derivative is 0 there).
    let want: Vec<f64> = x
        .iter()
        .map(|&t| if t.abs() < 1.0 { 8.0 * t } else { 0.0 })
        .collect();
    assert_close("clipped", &dx, &want, 1e-12);
}

#[test]
fn overwritten_elements_are_restored_in_reverse() {
    let x = [0.2, 0.5, 0.7];
    for k in [0.3, 0.9] {
        let (v, dx, dk) = relax_grad(&x, k);
        assert_eq!(v, relax(&x, k));
        assert_close("relax x", &dx, &central(|x| relax(x, k), &x), 1e-7);
        let h = 1e-6;
        let want_k = (relax(&x, k + h) - relax(&x, k - h)) / (2.0 * h);
        assert!((dk - want_k).abs() < 1e-7, "relax k: {dk} vs {want_k}");
    }
}

#[test]
fn nested_rows_are_written_element_by_element() {
    let x = [0.5, -1.5, 2.0, 0.25];
    let (v, dx) = outer_weights_grad(&x);
    assert_eq!(v, outer_weights(&x));
    // x0 x2 + 2 x0 x3 + 3 x1 x2 + 4 x1 x3.
    let want = [
        x[2] + 2.0 * x[3],
        3.0 * x[2] + 4.0 * x[3],
        x[0] + 3.0 * x[1],
        2.0 * x[0] + 4.0 * x[1],
    ];
    assert_close("outer", &dx, &want, 1e-12);
}

#[test]
fn a_vector_scaled_in_place_has_the_closed_form_jacobian() {
    let x = [1.0, -2.0, 0.5];
    let (out, jac) = scaled_jacobian(&x, 3.0);
    assert_eq!(out, scaled(&x, 3.0));
    // Rows: outputs; columns: x0..x2, then s. ∂out_i/∂x_j = s δ_ij, ∂out_i/∂s = x_i.
    for i in 0..3 {
        for j in 0..3 {
            assert_eq!(jac[(i, j)], if i == j { 3.0 } else { 0.0 });
        }
        assert_eq!(jac[(i, 3)], x[i]);
    }
}

#[test]
fn tanh_in_place_under_hessian() {
    let x = [0.3, -0.8, 1.2];
    let (v, g) = squashed_grad(&x);
    assert_eq!(v, squashed(&x));
    // d/dx tanh² = 2 t (1 − t²); d² = 2 (1 − t²)(1 − 3 t²), diagonal.
    let want: Vec<f64> = x
        .iter()
        .map(|&u| 2.0 * u.tanh() * (1.0 - u.tanh().powi(2)))
        .collect();
    assert_close("squashed", &g, &want, 1e-12);
    let (_, _, h) = squashed_hessian(&x);
    for i in 0..3 {
        for j in 0..3 {
            let t = x[i].tanh();
            let want = if i == j {
                2.0 * (1.0 - t * t) * (1.0 - 3.0 * t * t)
            } else {
                0.0
            };
            assert!((h[(i, j)] - want).abs() < 1e-12, "h[{i},{j}]");
        }
    }
}

/// Found writing these tests: under `hessian`, a sum over a local `Vec`
/// made by `to_vec()` or `collect()` started from an untyped `-0.0`, which
/// the second-order twin (generic in its scalar) rejected.
#[differentiable(hessian)]
fn sum_of_a_copy(x: &[f64]) -> f64 {
    let u = x.to_vec();
    let w: Vec<f64> = x.iter().map(|&t| t * t).collect();
    u.iter().map(|t| t * t).sum::<f64>() + w.iter().sum::<f64>()
}

#[test]
fn a_sum_over_a_local_vec_compiles_under_hessian() {
    let x = [0.5, -2.0];
    let (v, g, h) = sum_of_a_copy_hessian(&x);
    assert_eq!(v, sum_of_a_copy(&x));
    // 2 Σ x², so ∇ = 4x and H = 4 I.
    assert_eq!((g[0], g[1]), (2.0, -8.0));
    assert_eq!(
        (h[(0, 0)], h[(0, 1)], h[(1, 0)], h[(1, 1)]),
        (4.0, 0.0, 0.0, 4.0)
    );
}

/// The element compared in a condition, written in a branch and read after
/// it, written in a nested loop; then a `match`
/// in an enumerated `for_each` closure (issue 36: `iter_mut()` lowered
/// where it stands, its element a value that each write replaces).
/// Per element: a = x·k if x > 0 else x, b = (a + 1)²·k²; then the first
/// doubled and the others plus k, summed.
#[differentiable(hessian)]
fn damped(x: &[f64], k: f64) -> f64 {
    let mut u = x.to_vec();
    for (j, v) in u.iter_mut().enumerate() {
        if *v > 0.0 && j < 10 {
            *v *= k;
        }
        let y = *v + 1.0;
        *v = y * y;
        for _ in 0..2 {
            *v *= k;
        }
    }
    u.iter_mut().enumerate().for_each(|(i, v)| match i {
        0 => *v *= 2.0,
        _ => *v += k,
    });
    u.iter().sum()
}

#[test]
fn element_reads_after_writes_have_the_closed_form_derivatives() {
    let x = [0.5, -0.25, 1.5];
    let k = 0.75;
    let (value, gx, gk) = damped_grad(&x, k);
    assert_eq!(value, damped(&x, k));
    // Per element: s = ∂a/∂x, t = ∂a/∂k, A = a + 1, weight 2 for the first.
    let parts: Vec<(f64, f64, f64, f64, f64)> = x
        .iter()
        .enumerate()
        .map(|(i, &xi)| {
            let (a, s, t, ds) = if xi > 0.0 {
                (xi * k, k, xi, 1.0)
            } else {
                (xi, 1.0, 0.0, 0.0)
            };
            let w = if i == 0 { 2.0 } else { 1.0 };
            (w, s, t, ds, a + 1.0)
        })
        .collect();
    let want_value: f64 = parts
        .iter()
        .map(|&(w, _, _, _, a1)| w * a1 * a1 * k * k)
        .sum::<f64>()
        + 2.0 * k;
    assert_relative_eq!(value, want_value, epsilon = 1e-14, max_relative = 1e-14);
    // ∂b/∂x = 2A·k²·s, ∂b/∂k = 2A·k²·t + 2A²·k; f = Σ w·b + (n − 1)·k.
    for (i, &(w, s, _, _, a1)) in parts.iter().enumerate() {
        let want = w * 2.0 * a1 * k * k * s;
        assert_relative_eq!(gx[i], want, epsilon = 1e-14, max_relative = 1e-14);
    }
    let want_k: f64 = parts
        .iter()
        .map(|&(w, _, t, _, a1)| w * (2.0 * a1 * k * k * t + 2.0 * a1 * a1 * k))
        .sum::<f64>()
        + 2.0;
    assert_relative_eq!(gk, want_k, epsilon = 1e-13, max_relative = 1e-13);
    // H·v: ∂²b/∂x² = 2k²s², ∂²b/∂x∂k = 2t·k²·s + 4A·k·s + 2A·k²·∂s/∂k,
    // ∂²b/∂k² = 2t²k² + 8A·k·t + 2A².
    let (dx, dk) = ([1.0, -2.0, 0.5], 0.25);
    let (_, _, _, hx, hk) = damped_hvp(&x, k, &dx, dk);
    let mut want_hk = 0.0;
    for (i, &(w, s, t, ds, a1)) in parts.iter().enumerate() {
        let bxx = 2.0 * k * k * s * s;
        let bxk = 2.0 * t * k * k * s + 4.0 * a1 * k * s + 2.0 * a1 * k * k * ds;
        let bkk = 2.0 * t * t * k * k + 8.0 * a1 * k * t + 2.0 * a1 * a1;
        let want = w * (bxx * dx[i] + bxk * dk);
        assert_relative_eq!(hx[i], want, epsilon = 1e-13, max_relative = 1e-13);
        want_hk += w * (bxk * dx[i] + bkk * dk);
    }
    assert_relative_eq!(hk, want_hk, epsilon = 1e-13, max_relative = 1e-13);
}
