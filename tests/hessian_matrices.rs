//! `#[differentiable(hessian)]` on functions of nalgebra matrices and
//! vectors: quadratic forms and a least-squares loss against their
//! closed-form Hessians, a small tanh layer (mixed with a scalar and a
//! slice) against central differences of its `_grad`, symmetry, columns
//! equal to `_hvp` on unit vectors, and values bit for bit the primal's.
//!
//! The flattened inputs are the differentiable arguments in order, a
//! matrix's entries in column-major order (nalgebra's storage order).

use autograd::differentiable;
use nalgebra::{DMatrix, DVector};

/// xᵀ·A·x, A constant: H = A + Aᵀ.
#[differentiable(hessian)]
fn quad_const(x: &DVector<f64>, #[constant] a: &DMatrix<f64>) -> f64 {
    (x.transpose() * a * x).sum()
}

/// xᵀ·A·x in x and A: ∂²/∂x² = A + Aᵀ, ∂²/∂x_k∂A_ij = δ_ki·x_j + x_i·δ_kj,
/// ∂²/∂A² = 0.
#[differentiable(hessian)]
fn quad(x: &DVector<f64>, a: &DMatrix<f64>) -> f64 {
    x.dot(&(a * x))
}

/// ‖W·x − y‖² in W: H = kron(x·xᵀ, 2·I) in column-major flattening.
#[differentiable(hessian)]
fn least_squares(
    w: &DMatrix<f64>,
    #[constant] x: &DVector<f64>,
    #[constant] y: &DVector<f64>,
) -> f64 {
    (w * x - y).norm_squared()
}

/// A tanh layer with a scalar and a slice: products, `map`, `norm`,
/// `dot`, `sum`, indexing, scalar·vector, `transpose`, and an owned
/// vector argument.
#[differentiable(hessian)]
fn layer(w: &DMatrix<f64>, b: DVector<f64>, x: &DVector<f64>, s: f64, c: &[f64]) -> f64 {
    let z = w * x + b;
    let h = z.map(|v| v.tanh());
    let q = (h.transpose() * w).sum();
    s * h.norm() + c[0] * h.sum() + c[1] * (2.0 * &h).dot(&z) + h[0] * x[1] + w[(0, 1)] * s * q
}

/// A product of two 7×7 matrices, large enough that nalgebra multiplies
/// `f64` matrices with its blocked kernel.
#[differentiable(hessian)]
fn gram(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    (a.transpose() * b).map(|v| v.tanh()).sum()
}

fn flat(parts: &[&[f64]]) -> DVector<f64> {
    DVector::from_vec(parts.concat())
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

fn assert_matrix_close(h: &DMatrix<f64>, expected: &DMatrix<f64>, tol: f64) {
    assert_eq!(h.shape(), expected.shape());
    for i in 0..h.nrows() {
        for j in 0..h.ncols() {
            assert!(
                close(h[(i, j)], expected[(i, j)], tol),
                "H[{i},{j}] = {} but the closed form is {}",
                h[(i, j)],
                expected[(i, j)]
            );
        }
    }
}

fn a3() -> DMatrix<f64> {
    DMatrix::from_row_slice(3, 3, &[2.0, -1.0, 0.5, 0.25, 3.0, -2.0, 1.5, 0.75, -0.5])
}

fn x3() -> DVector<f64> {
    DVector::from_vec(vec![0.7, -1.3, 2.1])
}

#[test]
fn a_constant_quadratic_form_has_hessian_a_plus_a_transpose() {
    let (a, x) = (a3(), x3());
    let (value, grad, h) = quad_const_hessian(&x, &a);
    assert_eq!(value.to_bits(), quad_const(&x, &a).to_bits());
    let expected = &a + a.transpose();
    assert_matrix_close(&h, &expected, 1e-14);
    assert_matrix_close(
        &DMatrix::from_column_slice(3, 1, grad.as_slice()),
        &DMatrix::from_column_slice(3, 1, (&expected * &x).as_slice()),
        1e-14,
    );
}

#[test]
fn a_quadratic_form_in_x_and_a_has_its_closed_form_mixed_derivatives() {
    let (a, x) = (a3(), x3());
    let n = 3;
    let (value, grad, h) = quad_hessian(&x, &a);
    assert_eq!(value.to_bits(), quad(&x, &a).to_bits());
    assert_eq!(h.shape(), (n + n * n, n + n * n));
    let mut expected = DMatrix::zeros(n + n * n, n + n * n);
    let sym = &a + a.transpose();
    expected.view_mut((0, 0), (n, n)).copy_from(&sym);
    // A_ij is flattened input n + i + j·n.
    for k in 0..n {
        for i in 0..n {
            for j in 0..n {
                let d = (if k == i { x[j] } else { 0.0 }) + (if k == j { x[i] } else { 0.0 });
                expected[(k, n + i + j * n)] = d;
                expected[(n + i + j * n, k)] = d;
            }
        }
    }
    assert_matrix_close(&h, &expected, 1e-14);
    // ∇_A = x·xᵀ, column-major.
    let outer = &x * x.transpose();
    for (k, g) in outer.iter().enumerate() {
        assert!(close(grad[n + k], *g, 1e-14));
    }
}

#[test]
fn least_squares_has_hessian_kron_x_xt_two_identity() {
    let w = DMatrix::from_row_slice(2, 3, &[0.5, -1.0, 2.0, 1.5, 0.25, -0.75]);
    let x = x3();
    let y = DVector::from_vec(vec![0.3, -0.4]);
    let (value, _, h) = least_squares_hessian(&w, &x, &y);
    assert_eq!(value.to_bits(), least_squares(&w, &x, &y).to_bits());
    let expected = (&x * x.transpose()).kronecker(&(DMatrix::<f64>::identity(2, 2) * 2.0));
    assert_matrix_close(&h, &expected, 1e-14);
}

struct Layer {
    w: DMatrix<f64>,
    b: DVector<f64>,
    x: DVector<f64>,
    s: f64,
    c: Vec<f64>,
}

impl Layer {
    fn at() -> Self {
        Layer {
            w: DMatrix::from_row_slice(3, 2, &[0.4, -0.9, 1.1, 0.3, -0.6, 0.8]),
            b: DVector::from_vec(vec![0.1, -0.2, 0.3]),
            x: DVector::from_vec(vec![0.7, -0.5]),
            s: 1.3,
            c: vec![0.6, -0.35],
        }
    }

    fn flat(&self) -> DVector<f64> {
        flat(&[
            self.w.as_slice(),
            self.b.as_slice(),
            self.x.as_slice(),
            &[self.s],
            &self.c,
        ])
    }

    /// The arguments whose flattening is `p`.
    fn from_flat(p: &DVector<f64>) -> Self {
        let p = p.as_slice();
        Layer {
            w: DMatrix::from_column_slice(3, 2, &p[0..6]),
            b: DVector::from_column_slice(&p[6..9]),
            x: DVector::from_column_slice(&p[9..11]),
            s: p[11],
            c: p[12..14].to_vec(),
        }
    }

    /// The point `self + t·v`, `v` flattened.
    fn moved(&self, v: &DVector<f64>, t: f64) -> Self {
        Layer::from_flat(&(self.flat() + v * t))
    }

    fn grad(&self) -> (f64, DVector<f64>) {
        let (value, dw, db, dx, ds, dc) =
            layer_grad(&self.w, self.b.clone(), &self.x, self.s, &self.c);
        (
            value,
            flat(&[dw.as_slice(), db.as_slice(), dx.as_slice(), &[ds], &dc]),
        )
    }

    /// `(value, gradient, H·v)`, flattened, from `layer_hvp`.
    fn hvp(&self, v: &DVector<f64>) -> (f64, DVector<f64>, DVector<f64>) {
        let dir = Layer::from_flat(v);
        let (value, gw, gb, gx, gs, gc, hw, hb, hx, hs, hc) = layer_hvp(
            &self.w,
            self.b.clone(),
            &self.x,
            self.s,
            &self.c,
            &dir.w,
            &dir.b,
            &dir.x,
            dir.s,
            &dir.c,
        );
        (
            value,
            flat(&[gw.as_slice(), gb.as_slice(), gx.as_slice(), &[gs], &gc]),
            flat(&[hw.as_slice(), hb.as_slice(), hx.as_slice(), &[hs], &hc]),
        )
    }
}

fn directions() -> Vec<DVector<f64>> {
    let n = 14;
    let mut out: Vec<DVector<f64>> = (0..n)
        .step_by(3)
        .map(|k| DVector::from_fn(n, |i, _| if i == k { 1.0 } else { 0.0 }))
        .collect();
    out.push(DVector::from_fn(n, |i, _| ((i as f64) * 0.37).sin()));
    out.push(DVector::from_fn(n, |i, _| 1.0 - 0.1 * i as f64));
    out
}

/// H·v against the central difference (g(p + h·v) − g(p − h·v)) / 2h of
/// `_grad`: truncation O(h²·|∇³f|) and rounding O(ε/h), so with h = 1e-5
/// agreement to 1e-7 (relative to 1 + |H·v|) is expected.
#[test]
fn layer_hvp_matches_central_differences_of_grad() {
    let p = Layer::at();
    let h = 1e-5;
    for v in directions() {
        let (_, _, hv) = p.hvp(&v);
        let (_, g_plus) = p.moved(&v, h).grad();
        let (_, g_minus) = p.moved(&v, -h).grad();
        let fd = (g_plus - g_minus) / (2.0 * h);
        for i in 0..14 {
            assert!(
                close(hv[i], fd[i], 1e-7),
                "(H·v)[{i}] = {} but differences give {}",
                hv[i],
                fd[i]
            );
        }
    }
}

#[test]
fn layer_hvp_value_is_the_primal_and_its_gradient_is_grad() {
    let p = Layer::at();
    let primal = layer(&p.w, p.b.clone(), &p.x, p.s, &p.c);
    let (g_value, g) = p.grad();
    assert_eq!(g_value.to_bits(), primal.to_bits());
    for v in directions() {
        let (value, grad, _) = p.hvp(&v);
        assert_eq!(value.to_bits(), primal.to_bits());
        for i in 0..14 {
            assert!(
                close(grad[i], g[i], 1e-13),
                "gradient entry {i}: {} vs {}",
                grad[i],
                g[i]
            );
        }
    }
}

#[test]
fn layer_hessian_is_symmetric_and_its_columns_are_hvp_on_unit_vectors() {
    let p = Layer::at();
    let (value, grad, h) = layer_hessian(&p.w, p.b.clone(), &p.x, p.s, &p.c);
    assert_eq!(
        value.to_bits(),
        layer(&p.w, p.b.clone(), &p.x, p.s, &p.c).to_bits()
    );
    assert_eq!(h.shape(), (14, 14));
    assert_eq!(grad, p.grad().1);
    for i in 0..14 {
        for j in 0..14 {
            assert!(
                close(h[(i, j)], h[(j, i)], 1e-13),
                "H[{i},{j}] = {} but H[{j},{i}] = {}",
                h[(i, j)],
                h[(j, i)]
            );
        }
    }
    // Mixed blocks are there: the layer couples every argument.
    assert!(h[(0, 11)] != 0.0 && h[(6, 12)] != 0.0 && h[(9, 1)] != 0.0);
    for j in 0..14 {
        let e = DVector::from_fn(14, |i, _| if i == j { 1.0 } else { 0.0 });
        let (_, _, hv) = p.hvp(&e);
        for i in 0..14 {
            assert_eq!(h[(i, j)].to_bits(), hv[i].to_bits(), "column {j}, row {i}");
        }
    }
}

/// 7×7 factors: `f64`'s product uses nalgebra's blocked kernel there, the
/// dual twin its generic one; the value is still the primal's, and the
/// Hessian matches central differences of `_grad`.
#[test]
fn a_large_product_keeps_the_primal_value_and_matches_differences() {
    let a = DMatrix::from_fn(7, 7, |i, j| ((i * 7 + j) as f64 * 0.61).sin() * 0.5);
    let b = DMatrix::from_fn(7, 7, |i, j| ((i + 3 * j) as f64 * 0.43).cos() * 0.5);
    let (value, grad, h) = gram_hessian(&a, &b);
    assert_eq!(value.to_bits(), gram(&a, &b).to_bits());
    let (_, ga, gb) = gram_grad(&a, &b);
    let g = flat(&[ga.as_slice(), gb.as_slice()]);
    for i in 0..98 {
        assert!(close(grad[i], g[i], 1e-13));
    }
    let step = 1e-5;
    for j in [0usize, 17, 48, 49, 70, 97] {
        let shifted = |t: f64| {
            let (mut a, mut b) = (a.clone(), b.clone());
            if j < 49 {
                a.as_mut_slice()[j] += t;
            } else {
                b.as_mut_slice()[j - 49] += t;
            }
            let (_, ga, gb) = gram_grad(&a, &b);
            flat(&[ga.as_slice(), gb.as_slice()])
        };
        let fd = (shifted(step) - shifted(-step)) / (2.0 * step);
        for i in 0..98 {
            assert!(
                close(h[(i, j)], fd[i], 1e-7),
                "H[{i},{j}] = {} but differences give {}",
                h[(i, j)],
                fd[i]
            );
        }
    }
}

/// A `map` closure reading a constant, `max` and `component_mul`.
#[differentiable(hessian)]
fn mapped_max(m: &DMatrix<f64>, #[constant] k: f64) -> f64 {
    let e = m.map(|v| k * v * v + v.sin());
    e.max() * m.max() + e.sum() + e.component_mul(m).sum()
}

/// A closure `map`, `max` (away from ties) and `component_mul`: `_hessian` against central
/// differences of `_grad` (h = 1e-5, tolerance 1e-7 as above), symmetric.
#[test]
fn a_map_closure_and_max_match_differences_of_grad() {
    let m = DMatrix::from_row_slice(2, 3, &[0.3, 1.7, -0.4, 0.9, -1.1, 0.6]);
    let k = 0.8;
    let (value, grad, h) = mapped_max_hessian(&m, k);
    let (g_value, g) = mapped_max_grad(&m, k);
    assert_eq!(value.to_bits(), mapped_max(&m, k).to_bits());
    assert_eq!(g_value.to_bits(), value.to_bits());
    for i in 0..6 {
        assert!(close(grad[i], g.as_slice()[i], 1e-13));
    }
    let step = 1e-5;
    for j in 0..6 {
        let shifted = |t: f64| {
            let mut m = m.clone();
            m.as_mut_slice()[j] += t;
            mapped_max_grad(&m, k).1
        };
        let fd = (shifted(step) - shifted(-step)) / (2.0 * step);
        for i in 0..6 {
            assert!(
                close(h[(i, j)], fd.as_slice()[i], 1e-7),
                "H[{i},{j}] = {} but differences give {}",
                h[(i, j)],
                fd.as_slice()[i]
            );
            assert!(close(h[(i, j)], h[(j, i)], 1e-13));
        }
    }
    // Only the largest element (1.7, flattened input 2) enters `max`; the
    // element-wise terms give a diagonal Hessian.
    assert!(h[(2, 2)] != 0.0 && h[(0, 0)] != 0.0 && h[(2, 0)] == 0.0);
}

/// `max()`, `norm()` and `norm_squared()` of a vector and of a constant
/// matrix, next to an integer's `max(..)`: the twin computes the matrices'
/// at dual numbers with the rules' own functions (nalgebra's need a complex
/// field or SIMD comparisons), the integer's as written.
#[differentiable(hessian)]
fn widest(x: &DVector<f64>, #[constant] c: &DMatrix<f64>, n: usize) -> f64 {
    let w = n.max(3) as f64;
    w * x.norm_squared() + x.max() + x.norm() + c.norm() * c.max() * x.sum()
}

#[test]
fn an_integer_max_stays_an_integer_max_next_to_the_vector_rules() {
    let (x, c, n) = (x3(), a3(), 2);
    let (value, grad, h) = widest_hessian(&x, &c, n);
    assert_eq!(value.to_bits(), widest(&x, &c, n).to_bits());
    let (_, g) = widest_grad(&x, &c, n);
    for i in 0..3 {
        assert!(close(grad[i], g[i], 1e-14), "gradient {i}");
    }
    // w = 3: H = 2w·I + I/‖x‖ − x·xᵀ/‖x‖³ (`max` is piecewise linear).
    let r = x.norm();
    let expected =
        DMatrix::<f64>::identity(3, 3) * (6.0 + 1.0 / r) - &x * x.transpose() / r.powi(3);
    assert_matrix_close(&h, &expected, 1e-13);
    assert_matrix_close(&h, &h.transpose(), 1e-15);
    // And central differences of `_grad`.
    let step = 1e-6;
    for j in 0..3 {
        let mut e = DVector::zeros(3);
        e[j] = step;
        let (_, gp) = widest_grad(&(&x + &e), &c, n);
        let (_, gm) = widest_grad(&(&x - &e), &c, n);
        for i in 0..3 {
            let fd = (gp[i] - gm[i]) / (2.0 * step);
            assert!(
                close(h[(i, j)], fd, 1e-7),
                "H[{i},{j}] = {} vs {fd}",
                h[(i, j)]
            );
        }
    }
}

/// `s·‖x‖`: the case of random program f327 (seed 0x6301e42de7ace5e8),
/// whose `tanh` layer was the zero vector at a point drawn at the kinks.
#[differentiable(hessian)]
fn scaled_norm(s: f64, x: &DVector<f64>) -> f64 {
    s * x.norm()
}

#[test]
fn the_norm_at_the_zero_vector_has_the_zero_derivative_at_second_order_too() {
    // README's convention: ‖x‖'s derivative at the zero vector is 0. The
    // gradient there is (‖0‖, s·0) = (0, 0) for every s, so its derivative
    // along s is 0; along x, the convention's gradient s·x/‖x‖ (0 at 0)
    // gives 0 as well. The twin's dual square root of a zero used to give
    // NaN in H·v's s-component (and a Hessian that was not symmetric).
    let x = DVector::zeros(3);
    let (value, grad, h) = scaled_norm_hessian(1.5, &x);
    assert_eq!(value.to_bits(), scaled_norm(1.5, &x).to_bits());
    assert_eq!(grad.as_slice(), &[0.0; 4]);
    assert!(h.iter().all(|v| *v == 0.0), "H = {h}");
    let v = DVector::from_vec(vec![1.25, -1.0, 0.5]);
    let (_, g_s, g_x, hv_s, hv_x) = scaled_norm_hvp(1.5, &x, 0.75, &v);
    assert_eq!((g_s, hv_s), (0.0, 0.0));
    assert!(g_x.iter().chain(hv_x.iter()).all(|v| *v == 0.0));
    // Central differences of `_grad` along s alone (x stays at the kink):
    // the gradient is (0, 0) at every s.
    let step = 1e-6;
    let (_, gp_s, _) = scaled_norm_grad(1.5 + step, &x);
    let (_, gm_s, _) = scaled_norm_grad(1.5 - step, &x);
    assert_eq!((gp_s - gm_s) / (2.0 * step), h[(0, 0)]);
}
