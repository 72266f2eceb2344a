//! Sparse Hessians and Jacobians (issue 39): `NAME_hessian_pattern` and
//! `NAME_hessian_sparse` of `#[differentiable(hessian)]` functions, and
//! `NAME_jacobian_pattern` and `NAME_jacobian_sparse` of vector-valued
//! `#[differentiable(jvp)]` ones. Every stored entry against the dense
//! `NAME_hessian`/`NAME_jacobian`, closed forms and central differences;
//! colours against the known minimum (3 tridiagonal, 1 diagonal).

// A differentiable body indexes slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::nalgebra::DMatrix;
use autograd::nalgebra_sparse::CscMatrix;

/// The sparse matrix as a dense one (entries outside the pattern 0).
fn dense(m: &CscMatrix<f64>) -> DMatrix<f64> {
    let mut d = DMatrix::zeros(m.nrows(), m.ncols());
    for (i, j, &v) in m.triplet_iter() {
        d[(i, j)] = v;
    }
    d
}

/// Entry for entry: the sparse matrix's stored entries equal the dense
/// one's, and every entry it does not store is 0 in the dense one.
fn assert_same(sparse: &CscMatrix<f64>, full: &DMatrix<f64>) {
    assert_eq!((sparse.nrows(), sparse.ncols()), full.shape());
    let d = dense(sparse);
    for i in 0..full.nrows() {
        for j in 0..full.ncols() {
            assert_relative_eq!(
                d[(i, j)],
                full[(i, j)],
                epsilon = 1e-12,
                max_relative = 1e-12
            );
        }
    }
}

/// A small deterministic generator of points.
fn points(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((s >> 33) % 2000) as f64 / 1000.0 - 1.0
        })
        .collect()
}

/// Column j of the Hessian by central differences of the primal's
/// gradient-free second differences: (f(x+he_i+he_j) − f(x+he_i−he_j) −
/// f(x−he_i+he_j) + f(x−he_i−he_j)) / 4h², step 1e-4 (truncation O(h²)
/// ≈ 1e-8, rounding ≈ 1e-16·f/h² ≈ 1e-8·f): agreement to 1e-5 relative.
fn hessian_by_differences(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> DMatrix<f64> {
    let h = 1e-4;
    let n = x.len();
    let at = |di: usize, si: f64, dj: usize, sj: f64| {
        let mut y = x.to_vec();
        y[di] += si * h;
        y[dj] += sj * h;
        f(&y)
    };
    DMatrix::from_fn(n, n, |i, j| {
        (at(i, 1.0, j, 1.0) - at(i, 1.0, j, -1.0) - at(i, -1.0, j, 1.0) + at(i, -1.0, j, -1.0))
            / (4.0 * h * h)
    })
}

// ---- Rosenbrock: tridiagonal ----

#[differentiable(hessian)]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = x[i + 1] - x[i] * x[i];
        let b = 1.0 - x[i];
        s += 100.0 * a * a + b * b;
    }
    s
}

/// H_ii = 1200x_i² − 400x_{i+1} + 2 (i < n−1) + 200 (i > 0),
/// H_{i,i+1} = −400x_i.
fn rosenbrock_hessian_closed(x: &[f64]) -> DMatrix<f64> {
    let n = x.len();
    let mut h = DMatrix::zeros(n, n);
    for i in 0..n {
        if i + 1 < n {
            h[(i, i)] += 1200.0 * x[i] * x[i] - 400.0 * x[i + 1] + 2.0;
            h[(i, i + 1)] = -400.0 * x[i];
            h[(i + 1, i)] = -400.0 * x[i];
        }
        if i > 0 {
            h[(i, i)] += 200.0;
        }
    }
    h
}

#[test]
fn rosenbrock_sparse_hessian_is_tridiagonal_in_three_colours() {
    for n in [2, 3, 4, 10, 57] {
        let x = points(n, n as u64);
        let coloring = rosenbrock_hessian_pattern(&x);
        // A path of at most three vertices takes 2.
        assert_eq!(coloring.colors(), if n <= 3 { 2 } else { 3 });
        assert_eq!(coloring.nnz(), 3 * n - 2, "n = {n}");
        // No branch on the inputs: the pattern holds at every point.
        assert!(coloring.is_global());
        let (value, grad, h) = rosenbrock_hessian_sparse(&x, &coloring);
        let (dense_value, dense_grad, dense_h) = rosenbrock_hessian(&x);
        assert_eq!(value, rosenbrock(&x));
        assert_eq!(value, dense_value);
        assert_eq!(grad, dense_grad);
        assert_eq!(h.nnz(), 3 * n - 2);
        assert_same(&h, &dense_h);
        assert_same(&h, &rosenbrock_hessian_closed(&x));
        let fd = hessian_by_differences(rosenbrock, &x);
        let d = dense(&h);
        for i in 0..n {
            for j in 0..n {
                assert_relative_eq!(d[(i, j)], fd[(i, j)], epsilon = 1e-4, max_relative = 1e-5);
            }
        }
    }
}

/// The pattern is structural: at x = 0 the off-diagonal entries −400x_i
/// are all 0, and the pattern still has them, so the colouring computed
/// there gives the right Hessian at another point.
#[test]
fn a_pattern_at_numerical_zeros_serves_another_point() {
    let n = 12;
    let coloring = rosenbrock_hessian_pattern(&vec![0.0; n]);
    assert_eq!((coloring.colors(), coloring.nnz()), (3, 3 * n - 2));
    let x = points(n, 3);
    let (_, _, h) = rosenbrock_hessian_sparse(&x, &coloring);
    assert_same(&h, &rosenbrock_hessian_closed(&x));
}

// ---- Rastrigin: diagonal ----

#[differentiable(hessian)]
fn rastrigin(x: &[f64]) -> f64 {
    let a = 10.0;
    let mut s = a * x.len() as f64;
    for i in 0..x.len() {
        s += x[i] * x[i] - a * (2.0 * std::f64::consts::PI * x[i]).cos();
    }
    s
}

#[test]
fn rastrigin_sparse_hessian_is_diagonal_in_one_colour() {
    let n = 40;
    let x = points(n, 11);
    let coloring = rastrigin_hessian_pattern(&x);
    assert!(coloring.is_global());
    assert_eq!((coloring.colors(), coloring.nnz()), (1, n));
    let (value, grad, h) = rastrigin_hessian_sparse(&x, &coloring);
    let (dense_value, dense_grad, dense_h) = rastrigin_hessian(&x);
    assert_eq!((value, grad), (dense_value, dense_grad));
    assert_same(&h, &dense_h);
    // H_ii = 2 + 40π²·cos(2πx_i).
    let tau = 2.0 * std::f64::consts::PI;
    let closed = DMatrix::from_fn(n, n, |i, j| {
        if i == j {
            2.0 + 10.0 * tau * tau * (tau * x[i]).cos()
        } else {
            0.0
        }
    });
    assert_same(&h, &closed);
}

// ---- scalars and a slice, a call, a constant ----

#[differentiable(hessian)]
fn pair_energy(x: &[f64], k: f64, #[constant] scale: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += scale * k * x[i].sin();
    }
    s + rosenbrock(x)
}

#[test]
fn scalars_slices_and_calls_share_the_pattern() {
    let n = 6;
    let x = points(n, 5);
    let (k, scale) = (0.7, 1.5);
    let coloring = pair_energy_hessian_pattern(&x, k, scale);
    // The tridiagonal block, the diagonal, and k with every x (k·sin x_i).
    assert_eq!(coloring.nnz(), 3 * n - 2 + 2 * n);
    let (value, grad, h) = pair_energy_hessian_sparse(&x, k, scale, &coloring);
    let (dense_value, dense_grad, dense_h) = pair_energy_hessian(&x, k, scale);
    assert_eq!((value, grad), (dense_value, dense_grad));
    assert_same(&h, &dense_h);
    let flat = |y: &[f64]| pair_energy(&y[..n], y[n], scale);
    let mut at = x.clone();
    at.push(k);
    let fd = hessian_by_differences(flat, &at);
    let d = dense(&h);
    for i in 0..=n {
        for j in 0..=n {
            assert_relative_eq!(d[(i, j)], fd[(i, j)], epsilon = 1e-4, max_relative = 1e-5);
        }
    }
}

// ---- branches: the local pattern ----

#[differentiable(hessian)]
fn branchy(x: &[f64]) -> f64 {
    if x[0] > 0.0 { x[0] * x[1] } else { x[1] * x[2] }
}

#[test]
fn the_local_pattern_follows_the_branch_taken() {
    let left = branchy_hessian_pattern(&[1.0, 2.0, 3.0]);
    let right = branchy_hessian_pattern(&[-1.0, 2.0, 3.0]);
    let entries = |c: &autograd::sparse::Coloring| {
        let p = c.pattern();
        (0..3)
            .flat_map(|j| p.lane(j).iter().map(move |&i| (i, j)))
            .collect::<Vec<_>>()
    };
    assert_eq!(entries(&left), vec![(1, 0), (0, 1)]);
    assert_eq!(entries(&right), vec![(2, 1), (1, 2)]);
    // Each holds only where `branchy` takes its branch.
    assert!(!left.is_global() && !right.is_global());
    let x = [-1.0, 2.0, 3.0];
    let (_, _, h) = branchy_hessian_sparse(&x, &right);
    assert_same(&h, &branchy_hessian(&x).2);
}

#[test]
#[should_panic(expected = "the colouring is of 4 inputs, the function's arguments have 5")]
fn a_colouring_of_another_size_is_refused() {
    let coloring = rosenbrock_hessian_pattern(&[1.0; 4]);
    let _ = rosenbrock_hessian_sparse(&[1.0; 5], &coloring);
}

// ---- Jacobians of vector-valued functions ----

/// Central differences of each output, column by column: step 1e-6,
/// truncation O(h²·f‴) ≈ 1e-12, rounding ≈ 1e-16/1e-6 = 1e-10 relative.
fn jacobian_by_differences(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> DMatrix<f64> {
    let h = 1e-6;
    let rows = f(x).len();
    let mut j = DMatrix::zeros(rows, x.len());
    for k in 0..x.len() {
        let (mut up, mut down) = (x.to_vec(), x.to_vec());
        up[k] += h;
        down[k] -= h;
        let (fu, fd) = (f(&up), f(&down));
        for i in 0..rows {
            j[(i, k)] = (fu[i] - fd[i]) / (2.0 * h);
        }
    }
    j
}

/// The residual of −u″ + u³ = 1 on a grid, u = 0 beyond both ends, with
/// a fourth-order stencil in the interior: a band of half-width 2.
#[differentiable(jvp)]
fn banded_residual(u: &[f64], #[constant] h: f64) -> Vec<f64> {
    let n = u.len();
    let mut r = Vec::new();
    for i in 0..n {
        let l2 = if i >= 2 { u[i - 2] } else { 0.0 };
        let l1 = if i >= 1 { u[i - 1] } else { 0.0 };
        let r1 = if i + 1 < n { u[i + 1] } else { 0.0 };
        let r2 = if i + 2 < n { u[i + 2] } else { 0.0 };
        let lap = (-l2 + 16.0 * l1 - 30.0 * u[i] + 16.0 * r1 - r2) / (12.0 * h * h);
        r.push(-lap + u[i] * u[i] * u[i] - 1.0);
    }
    r
}

#[test]
fn banded_jacobian_in_five_colours() {
    let n = 30;
    let h = 0.1;
    let u = points(n, 21);
    let coloring = banded_residual_jacobian_pattern(&u, h);
    let band = (0..n as isize)
        .map(|i| ((i - 2).max(0)..=(i + 2).min(n as isize - 1)).count())
        .sum::<usize>();
    assert_eq!((coloring.colors(), coloring.nnz()), (5, band));
    let (value, j) = banded_residual_jacobian_sparse(&u, h, &coloring);
    assert_eq!(value, banded_residual(&u, h));
    let (_, dense_j) = banded_residual_jacobian(&u, h);
    assert_same(&j, &dense_j);
    let fd = jacobian_by_differences(|u| banded_residual(u, h), &u);
    let d = dense(&j);
    for i in 0..n {
        for k in 0..n {
            assert_relative_eq!(d[(i, k)], fd[(i, k)], epsilon = 1e-6, max_relative = 1e-7);
        }
    }
    // At u = 0 the cubic's derivative 3u² is 0 on the diagonal: the
    // pattern keeps it, and serves the point above.
    let at_zero = banded_residual_jacobian_pattern(&vec![0.0; n], h);
    assert_eq!((at_zero.colors(), at_zero.nnz()), (5, band));
    let (_, j) = banded_residual_jacobian_sparse(&u, h, &at_zero);
    assert_same(&j, &dense_j);
}

/// Scalars, an array and a tuple result.
#[differentiable(jvp)]
fn mix(x: &[f64], s: f64, p: [f64; 2]) -> (f64, f64, f64) {
    (
        x[0] * x[1] * s,
        (x[2] * s).sin() + x[3] * x[3],
        p[0] * p[1] + x[0],
    )
}

#[test]
fn tuple_results_and_mixed_arguments() {
    let (x, s, p) = ([0.5, -1.2, 0.3, 2.0], 0.0, [1.5, -0.5]);
    let coloring = mix_jacobian_pattern(&x, s, p);
    // Columns x0 x1 x2 x3 s p0 p1: row 0 {x0, x1, s}, row 1 {x2, x3, s},
    // row 2 {x0, p0, p1}; s = 0 zeroes ∂/∂x0 and ∂/∂x1 of row 0 and
    // ∂/∂x2 of row 1 here, which stay in the pattern.
    assert_eq!(coloring.nnz(), 9);
    let (value, j) = mix_jacobian_sparse(&x, s, p, &coloring);
    assert_eq!(value, mix(&x, s, p));
    assert_same(&j, &mix_jacobian(&x, s, p).1);
    let s = 0.8;
    let (_, j) = mix_jacobian_sparse(&x, s, p, &coloring);
    let flat = |y: &[f64]| {
        let (a, b, c) = mix(&y[..4], y[4], [y[5], y[6]]);
        vec![a, b, c]
    };
    let fd = jacobian_by_differences(flat, &[x[0], x[1], x[2], x[3], s, p[0], p[1]]);
    let d = dense(&j);
    for i in 0..3 {
        for k in 0..7 {
            assert_relative_eq!(d[(i, k)], fd[(i, k)], epsilon = 1e-6, max_relative = 1e-7);
        }
    }
}

// ---- fixed-size array arguments ----

/// f = p0²·p1 + sin(p2) + c·p0, in a `&[f64; 3]` and a `[f64; 2]` by value
/// (q0·q1) with a constant array: H has p0–p1 and q0–q1 couplings, the
/// diagonal at p0 and p2, and nothing between p and q.
#[differentiable(hessian)]
fn arrays(p: &[f64; 3], q: [f64; 2], #[constant] c: &[f64; 1]) -> f64 {
    p[0] * p[0] * p[1] + p[2].sin() + c[0] * p[0] + q[0] * q[1]
}

#[test]
fn fixed_size_array_arguments_trace_as_their_elements() {
    let (p, q, c) = ([0.7, -1.3, 0.4], [2.0, -0.5], [3.0]);
    let coloring = arrays_hessian_pattern(&p, q, &c);
    // Structural non-zeros: (0,0), (0,1), (1,0), (2,2), (3,4), (4,3).
    assert_eq!(coloring.nnz(), 6);
    let (value, grad, h) = arrays_hessian_sparse(&p, q, &c, &coloring);
    let (dense_value, dense_grad, dense_h) = arrays_hessian(&p, q, &c);
    assert_eq!(value, arrays(&p, q, &c));
    assert_eq!((value, &grad), (dense_value, &dense_grad));
    assert_same(&h, &dense_h);
    // Closed form.
    let mut closed = DMatrix::zeros(5, 5);
    closed[(0, 0)] = 2.0 * p[1];
    closed[(0, 1)] = 2.0 * p[0];
    closed[(1, 0)] = 2.0 * p[0];
    closed[(2, 2)] = -p[2].sin();
    closed[(3, 4)] = 1.0;
    closed[(4, 3)] = 1.0;
    assert_same(&h, &closed);
}

/// An argument named like the sparse items' own parameter (`coloring`):
/// theirs gives way (it was "identifier `coloring` is bound more than once").
#[differentiable(hessian)]
fn named_coloring(x: &[f64], coloring: f64) -> f64 {
    coloring * x[0] * x[1]
}

#[differentiable(jvp)]
fn residual_named_coloring(t: f64, coloring: f64, jac: f64) -> Vec<f64> {
    vec![t * coloring, t * t + jac]
}

#[test]
fn an_argument_named_coloring_or_jac() {
    let x = [2.0, 3.0];
    let c = named_coloring_hessian_pattern(&x, 1.5);
    let (value, _, h) = named_coloring_hessian_sparse(&x, 1.5, &c);
    assert_eq!(value, named_coloring(&x, 1.5));
    // ∂²/∂x0∂x1 = coloring, ∂²/∂x0∂coloring = x1, ∂²/∂x1∂coloring = x0.
    let want = DMatrix::from_row_slice(3, 3, &[0.0, 1.5, 3.0, 1.5, 0.0, 2.0, 3.0, 2.0, 0.0]);
    assert_same(&h, &want);
    let c = residual_named_coloring_jacobian_pattern(2.0, 3.0, 1.0);
    let (value, j) = residual_named_coloring_jacobian_sparse(2.0, 3.0, 1.0, &c);
    assert_eq!(value, vec![6.0, 5.0]);
    // Rows (t·c, t² + jac), columns (t, c, jac).
    let want = DMatrix::from_row_slice(2, 3, &[3.0, 2.0, 0.0, 4.0, 0.0, 1.0]);
    assert_same(&j, &want);
    let mut buffer = DMatrix::zeros(2, 3);
    residual_named_coloring_jacobian_acc(2.0, 3.0, 1.0, &mut buffer);
    assert_eq!(buffer, want);
}

// ---- into a matrix of the pattern: NAME_jacobian_sparse_into ----

#[differentiable(jvp)]
fn softplus(a: f64) -> f64 {
    (1.0 + a.exp()).ln()
}

/// A call: one direction a sweep (no K-lane sweep), the scalar path.
#[differentiable(jvp)]
fn chain_with_a_call(x: &[f64]) -> Vec<f64> {
    let mut r = Vec::new();
    for i in 0..x.len() - 1 {
        r.push(softplus(x[i] * x[i + 1]));
    }
    r
}

/// `_jacobian_sparse_into` overwrites every value of a matrix of the
/// pattern (set to NaN first) with `_jacobian_sparse`'s, in the K-lane
/// sweep (the banded residual) and the one-direction one (a call), twice
/// into the same matrix at two points.
#[test]
fn jacobian_sparse_into_refills_a_matrix_of_the_pattern() {
    let (n, h) = (23, 0.1);
    let coloring = banded_residual_jacobian_pattern(&vec![0.0; n], h);
    let mut jac = coloring.zeros();
    for seed in [3, 4] {
        let u = points(n, seed);
        jac.values_mut().fill(f64::NAN);
        let value = banded_residual_jacobian_sparse_into(&u, h, &coloring, &mut jac);
        let (fresh_value, fresh) = banded_residual_jacobian_sparse(&u, h, &coloring);
        assert_eq!(value, fresh_value);
        assert_eq!(jac.values(), fresh.values());
        assert_same(&jac, &banded_residual_jacobian(&u, h).1);
    }
    let x = points(9, 5);
    let coloring = chain_with_a_call_jacobian_pattern(&x);
    assert_eq!(coloring.colors(), 2);
    let mut jac = coloring.zeros();
    jac.values_mut().fill(f64::NAN);
    let value = chain_with_a_call_jacobian_sparse_into(&x, &coloring, &mut jac);
    assert_eq!(value, chain_with_a_call(&x));
    assert_same(&jac, &chain_with_a_call_jacobian(&x).1);
}

#[test]
#[should_panic(expected = "the matrix's pattern is not the colouring's")]
fn jacobian_sparse_into_refuses_a_matrix_of_another_pattern() {
    let u = points(10, 6);
    let coloring = banded_residual_jacobian_pattern(&u, 0.1);
    let other = chain_with_a_call_jacobian_pattern(&points(11, 6));
    let mut jac = other.zeros();
    banded_residual_jacobian_sparse_into(&u, 0.1, &coloring, &mut jac);
}

// ---- Levenberg–Marquardt on Bratu's problem (examples/sparse_lm.rs) ----

#[allow(dead_code)]
#[path = "../examples/sparse_lm.rs"]
mod sparse_lm;

/// The example's solver on 50 interior points: from u = 0 it reaches
/// ‖r‖ < 1e-10 (r scaled by h², so its entries are of the size of u,
/// about 0.14; rounding leaves some 1e-16 each), and the discrete solution
/// is the continuous one's up to the central differences' O(h²): the
/// error is h²·|u⁗|/12 integrated against the discrete Green's function,
/// below h² = 3.8e-4 here since |u⁗| ≤ 3 for λ = 1.
#[test]
fn levenberg_marquardt_with_the_sparse_jacobian_solves_bratu() {
    let (n, lambda) = (50, 1.0);
    let u = vec![0.0; n];
    let coloring = sparse_lm::bratu_jacobian_pattern(&u, lambda);
    let (u, iterations) =
        sparse_lm::solve(u, lambda, &coloring, 1e-10, 50).expect("converges in 50 iterations");
    assert!(iterations <= 10, "{iterations} iterations");
    let residual = sparse_lm::bratu(&u, lambda);
    let norm = residual.iter().map(|r| r * r).sum::<f64>().sqrt();
    assert!(norm < 1e-10, "‖r‖ = {norm:e}");
    let h = 1.0 / (n + 1) as f64;
    for (i, &ui) in u.iter().enumerate() {
        let exact = sparse_lm::exact((i + 1) as f64 * h, lambda);
        assert_relative_eq!(ui, exact, epsilon = h * h, max_relative = 0.0);
    }
}

/// θ of the exact solution satisfies θ = √(2λ)·cosh(θ/4); the example's
/// u(½) = −2 ln(1 / cosh(θ/4)) for λ = 1 is 0.1405 (θ = 1.51716).
#[test]
fn the_exact_bratu_solution_solves_its_equation() {
    let theta: f64 = 1.517_164_599_050_754_3;
    assert_relative_eq!(
        theta,
        2f64.sqrt() * (theta / 4.0).cosh(),
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    assert_relative_eq!(
        sparse_lm::exact(0.5, 1.0),
        2.0 * (theta / 4.0).cosh().ln(),
        epsilon = 1e-14,
        max_relative = 1e-12
    );
    // u″ + eᵘ = 0 at x = 0.3 by central differences (step 1e-4:
    // truncation ≈ 1e-9, rounding ≈ 1e-16/1e-8 = 1e-8).
    let (x, d) = (0.3, 1e-4);
    let u = |x: f64| sparse_lm::exact(x, 1.0);
    let second = (u(x + d) - 2.0 * u(x) + u(x - d)) / (d * d);
    assert_relative_eq!(second + u(x).exp(), 0.0, epsilon = 1e-6, max_relative = 0.0);
}

/// The residual's sparse Jacobian with the pattern found at u = 0, at
/// another point: tridiagonal in 3 colours, every stored entry equal to
/// the dense `bratu_jacobian`'s (same arithmetic, to 1e-14) and to
/// central differences of the residual (step 1e-6: the residual's third
/// derivative is h²λeᵘ ≤ 1e-3, truncation ≈ 1e-15; rounding ≈ 1e-16/1e-6
/// = 1e-10; checked to 1e-8).
#[test]
fn bratu_sparse_jacobian_against_the_dense_one_and_central_differences() {
    let n = 40;
    let coloring = sparse_lm::bratu_jacobian_pattern(&vec![0.0; n], 1.0);
    assert_eq!(coloring.colors(), 3);
    assert_eq!(coloring.nnz(), 3 * n - 2);
    let u: Vec<f64> = points(n, 7).iter().map(|p| 0.3 * p + 0.1).collect();
    let (r, j) = sparse_lm::bratu_jacobian_sparse(&u, 1.0, &coloring);
    assert_eq!(r, sparse_lm::bratu(&u, 1.0));
    let (_, full) = sparse_lm::bratu_jacobian(&u, 1.0);
    assert_same(&j, &full);
    let d = 1e-6;
    let dense = dense(&j);
    for k in 0..n {
        let mut up = u.clone();
        let mut down = u.clone();
        up[k] += d;
        down[k] -= d;
        let (rp, rm) = (sparse_lm::bratu(&up, 1.0), sparse_lm::bratu(&down, 1.0));
        for i in 0..n {
            let fd = (rp[i] - rm[i]) / (2.0 * d);
            assert_relative_eq!(dense[(i, k)], fd, epsilon = 1e-8, max_relative = 1e-8);
        }
    }
}
