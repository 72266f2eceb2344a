//! `#[differentiable(hessian)]` on fixed-size nalgebra arguments
//! (`Vector3<f64>`, `SMatrix<f64, R, C>`): the same Hessians as the
//! dynamically sized functions', against closed forms and central
//! differences of `_grad` (step 1e-6, tolerance 1e-7 relative to
//! 1 + |H|), symmetric, columns equal to `_hvp` along unit vectors, and
//! values bit for bit the primal's.

use autograd::differentiable;
use nalgebra::{DMatrix, DVector, Matrix3, SMatrix, Vector2, Vector3};

/// vᵀ·M·v + ‖2v‖² in v and M: H_vv = M + Mᵀ + 8I,
/// ∂²/∂v_k∂M_ij = δ_ki·v_j + v_i·δ_kj, H_MM = 0; `norm` and `max` too.
#[differentiable(hessian)]
fn quad3(v: &Vector3<f64>, m: &Matrix3<f64>) -> f64 {
    v.dot(&(m * v)) + (2.0 * v).norm_squared()
}

#[differentiable(hessian)]
fn quad_dyn(v: &DVector<f64>, m: &DMatrix<f64>) -> f64 {
    v.dot(&(m * v)) + (2.0 * v).norm_squared()
}

/// A tanh layer of a 2×3 matrix, an owned vector and a constant one.
#[differentiable(hessian)]
fn layer23(w: &SMatrix<f64, 2, 3>, x: Vector3<f64>, #[constant] y: &Vector2<f64>) -> f64 {
    (w * x - y).map(|e| e.tanh()).sum() + w.transpose().norm_squared() + x.norm() + x.max()
}

#[differentiable(hessian)]
fn layer_dyn(w: &DMatrix<f64>, x: DVector<f64>, #[constant] y: &DVector<f64>) -> f64 {
    (w * x.clone() - y).map(|e| e.tanh()).sum() + w.transpose().norm_squared() + x.norm() + x.max()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn assert_close(h: &DMatrix<f64>, expected: &DMatrix<f64>, tol: f64, what: &str) {
    assert_eq!(h.shape(), expected.shape(), "{what}");
    for i in 0..h.nrows() {
        for j in 0..h.ncols() {
            assert!(
                close(h[(i, j)], expected[(i, j)], tol),
                "{what}: [{i},{j}] = {} vs {}",
                h[(i, j)],
                expected[(i, j)]
            );
        }
    }
}

fn v3() -> Vector3<f64> {
    Vector3::new(0.5, -1.0, 2.0)
}

fn m3() -> Matrix3<f64> {
    Matrix3::new(1.0, 2.0, 0.0, -1.0, 0.5, 3.0, 0.25, 1.0, -2.0)
}

#[test]
fn a_fixed_size_quadratic_form_has_its_closed_form_hessian() {
    let (v, m) = (v3(), m3());
    let n = 3;
    let (value, grad, h) = quad3_hessian(&v, &m);
    assert_eq!(value.to_bits(), quad3(&v, &m).to_bits());
    let mut expected = DMatrix::zeros(n + n * n, n + n * n);
    let hvv = m + m.transpose() + Matrix3::identity() * 8.0;
    for i in 0..n {
        for j in 0..n {
            expected[(i, j)] = hvv[(i, j)];
        }
    }
    // M_ij is flattened input n + i + j·n (column-major).
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let d = (if k == i { v[j] } else { 0.0 }) + (if k == j { v[i] } else { 0.0 });
                expected[(k, n + i + j * n)] = d;
                expected[(n + i + j * n, k)] = d;
            }
        }
    }
    assert_close(&h, &expected, 1e-14, "closed form");
    // The same as the dynamically sized function's, gradient included.
    let (dv, dm) = (
        DVector::from_column_slice(v.as_slice()),
        DMatrix::from_column_slice(3, 3, m.as_slice()),
    );
    let (value_dyn, grad_dyn, h_dyn) = quad_dyn_hessian(&dv, &dm);
    assert_eq!(value.to_bits(), value_dyn.to_bits());
    assert_close(&h, &h_dyn, 1e-15, "dynamic");
    for (a, b) in grad.iter().zip(grad_dyn.iter()) {
        assert!(close(*a, *b, 1e-15));
    }
    let (_, gv, gm) = quad3_grad(&v, &m);
    for (a, b) in grad.iter().zip(gv.iter().chain(gm.iter())) {
        assert!(close(*a, *b, 1e-14));
    }
}

#[test]
fn a_fixed_size_layer_against_differences_of_its_gradient() {
    let w = SMatrix::<f64, 2, 3>::new(0.5, -1.0, 0.25, 1.5, 0.3, -0.7);
    let (x, y) = (v3(), Vector2::new(0.1, -0.2));
    let (value, grad, h) = layer23_hessian(&w, x, &y);
    assert_eq!(value.to_bits(), layer23(&w, x, &y).to_bits());
    assert_close(&h, &h.transpose(), 1e-13, "symmetry");
    // Flattened: w's 6 entries (column-major), then x's 3.
    let flat = |w: &SMatrix<f64, 2, 3>, x: &Vector3<f64>| -> Vec<f64> {
        w.iter().chain(x.iter()).copied().collect()
    };
    let unflat = |p: &[f64]| {
        (
            SMatrix::<f64, 2, 3>::from_column_slice(&p[..6]),
            Vector3::from_column_slice(&p[6..]),
        )
    };
    let gradient = |p: &[f64]| {
        let (w, x) = unflat(p);
        let (_, gw, gx) = layer23_grad(&w, x, &y);
        flat(&gw, &gx)
    };
    let p = flat(&w, &x);
    let g0 = gradient(&p);
    for (a, b) in grad.iter().zip(&g0) {
        assert!(close(*a, *b, 1e-14));
    }
    let step = 1e-6;
    for j in 0..9 {
        let (mut plus, mut minus) = (p.clone(), p.clone());
        plus[j] += step;
        minus[j] -= step;
        let (gp, gm) = (gradient(&plus), gradient(&minus));
        for i in 0..9 {
            let fd = (gp[i] - gm[i]) / (2.0 * step);
            assert!(
                close(h[(i, j)], fd, 1e-7),
                "H[{i},{j}] = {} vs {fd}",
                h[(i, j)]
            );
        }
        // Column j is H·e_j from `_hvp`.
        let mut e = [0.0; 9];
        e[j] = 1.0;
        let (dw, dx) = unflat(&e);
        let (hv_value, _, _, hw, hx) = layer23_hvp(&w, x, &y, &dw, &dx);
        assert_eq!(hv_value.to_bits(), value.to_bits());
        for (i, hij) in flat(&hw, &hx).iter().enumerate() {
            assert!(close(h[(i, j)], *hij, 1e-15));
        }
    }
    // And the dynamically sized function's Hessian.
    let (dw, dx, dy) = (
        DMatrix::from_column_slice(2, 3, w.as_slice()),
        DVector::from_column_slice(x.as_slice()),
        DVector::from_column_slice(y.as_slice()),
    );
    let (_, _, h_dyn) = layer_dyn_hessian(&dw, dx, &dy);
    assert_close(&h, &h_dyn, 1e-14, "dynamic");
}

/// `reshape_generic` under `hessian`: ‖reshape(X)·v‖² for a 2×3 `X`
/// read as 3×2, H = kron(v·vᵀ, 2I) over the reshaped entries (the same
/// column-major order as X's).
#[differentiable(hessian)]
fn reshaped(x: &DMatrix<f64>, #[constant] v: &DVector<f64>) -> f64 {
    let r = x
        .clone()
        .reshape_generic(nalgebra::Dyn(3), nalgebra::Dyn(2));
    (r * v).norm_squared()
}

#[test]
fn a_reshape_keeps_the_column_major_hessian() {
    let x = DMatrix::from_row_slice(2, 3, &[0.5, -1.0, 2.0, 1.5, 0.25, -0.75]);
    let v = DVector::from_vec(vec![0.3, -0.4]);
    let (value, _, h) = reshaped_hessian(&x, &v);
    assert_eq!(value.to_bits(), reshaped(&x, &v).to_bits());
    let expected = (&v * v.transpose()).kronecker(&(DMatrix::<f64>::identity(3, 3) * 2.0));
    assert_close(&h, &expected, 1e-14, "closed form");
}
