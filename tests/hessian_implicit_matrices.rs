//! The implicit hook under `jvp` and `hessian` with nalgebra arguments,
//! the θ the first-order hook takes (`&DMatrix<f64>`, `&DVector<f64>`,
//! an owned `DVector<f64>`, a fixed-size `Vector3<f64>`, next to a
//! number): the solution z(θ) of x³ + k·x − ‖M·c‖² − Σc = 0.
//!
//! Expected: `_jvp` against central differences of the solver (re-solved
//! at θ ± h·v, step 1e-5, tolerance 1e-7), `_hvp` against central
//! differences of `_grad` (re-solved, step 1e-5, tolerance 1e-6 relative
//! to 1 + |H·v|: the solve's tolerance 1e-15 over the step bounds the
//! difference's error by about 1e-10), the gradient of `_hvp` equal to
//! `_grad`'s, `_hessian` symmetric with columns equal to `_hvp` on unit
//! vectors, solutions bit for bit the solver's.

use autograd::differentiable;
use autograd::solve::{SolveError, bisect};
use nalgebra::{DMatrix, DVector, Vector3};

#[differentiable(jvp, hessian)]
fn residual(x: f64, c: &DVector<f64>, m: &DMatrix<f64>, k: f64) -> f64 {
    x * x * x + k * x - (m * c).norm_squared() - c.sum()
}

#[differentiable(jvp, hessian, implicit = residual)]
fn root(c: &DVector<f64>, m: &DMatrix<f64>, k: f64) -> Result<f64, SolveError> {
    bisect(|x| residual(x, c, m, k), -10.0, 10.0, 1e-15)
}

#[differentiable(jvp, hessian)]
fn residual_owned(x: f64, c: DVector<f64>, k: f64) -> f64 {
    x * x * x + k * x - c.norm_squared() - c.sum()
}

#[differentiable(jvp, hessian, implicit = residual_owned)]
fn root_owned(c: DVector<f64>, k: f64) -> Result<f64, SolveError> {
    bisect(|x| residual_owned(x, c.clone(), k), -10.0, 10.0, 1e-15)
}

#[differentiable(jvp, hessian)]
fn residual_fixed(x: f64, c: &Vector3<f64>, k: f64) -> f64 {
    x * x * x + k * x - c.norm_squared() - c.sum()
}

#[differentiable(jvp, hessian, implicit = residual_fixed)]
fn root_fixed(c: &Vector3<f64>, k: f64) -> Result<f64, SolveError> {
    bisect(|x| residual_fixed(x, c, k), -10.0, 10.0, 1e-15)
}

const STEP: f64 = 1e-5;

/// θ flattened: c (3), m (2×3, column-major), k.
fn split(t: &[f64]) -> (DVector<f64>, DMatrix<f64>, f64) {
    (
        DVector::from_column_slice(&t[..3]),
        DMatrix::from_column_slice(2, 3, &t[3..9]),
        t[9],
    )
}

fn theta() -> Vec<f64> {
    vec![0.4, -0.3, 0.2, 0.5, -0.2, 0.1, 0.3, -0.4, 0.6, 1.5]
}

fn direction() -> Vec<f64> {
    vec![1.0, -0.5, 0.25, 0.75, -1.0, 0.5, 0.2, -0.3, 0.4, -0.6]
}

fn root_flat(t: &[f64]) -> f64 {
    let (c, m, k) = split(t);
    root(&c, &m, k).expect("a root in [-10, 10]")
}

fn root_grad_flat(t: &[f64]) -> Vec<f64> {
    let (c, m, k) = split(t);
    let (_, dc, dm, dk) = root_grad(&c, &m, k).expect("a root in [-10, 10]");
    dc.iter().chain(dm.iter()).copied().chain([dk]).collect()
}

fn along(t: &[f64], v: &[f64], s: f64) -> Vec<f64> {
    t.iter().zip(v).map(|(t, v)| t + s * v).collect()
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn jvp_of_a_solver_of_matrices_is_the_difference_of_the_solver() {
    let (t, v) = (theta(), direction());
    let (c, m, k) = split(&t);
    let (vc, vm, vk) = split(&v);
    let (z, dz) = root_jvp(&c, &m, k, &vc, &vm, vk).expect("a root");
    assert_eq!(z.to_bits(), root(&c, &m, k).unwrap().to_bits());
    let fd = (root_flat(&along(&t, &v, STEP)) - root_flat(&along(&t, &v, -STEP))) / (2.0 * STEP);
    assert!(close(dz, fd, 1e-7), "ż = {dz}, difference {fd}");
}

#[test]
fn hvp_of_a_solver_of_matrices_is_the_difference_of_its_gradient() {
    let (t, v) = (theta(), direction());
    let (c, m, k) = split(&t);
    let (vc, vm, vk) = split(&v);
    let (z, gc, gm, gk, hc, hm, hk) = root_hvp(&c, &m, k, &vc, &vm, vk).expect("a root");
    assert_eq!(z.to_bits(), root(&c, &m, k).unwrap().to_bits());
    let g: Vec<f64> = gc.iter().chain(gm.iter()).copied().chain([gk]).collect();
    for (a, b) in g.iter().zip(root_grad_flat(&t)) {
        assert!(
            close(*a, b, 1e-14),
            "the gradient of _hvp is _grad's: {a} vs {b}"
        );
    }
    let hv: Vec<f64> = hc.iter().chain(hm.iter()).copied().chain([hk]).collect();
    let up = root_grad_flat(&along(&t, &v, STEP));
    let down = root_grad_flat(&along(&t, &v, -STEP));
    for i in 0..t.len() {
        let fd = (up[i] - down[i]) / (2.0 * STEP);
        assert!(close(hv[i], fd, 1e-6), "(H·v)[{i}] = {} but {fd}", hv[i]);
    }
    let (hz, hg, h) = root_hessian(&c, &m, k).expect("a root");
    assert_eq!(hz.to_bits(), z.to_bits());
    assert_eq!(hg.as_slice(), &g[..]);
    for i in 0..t.len() {
        for j in 0..t.len() {
            assert!(
                close(h[(i, j)], h[(j, i)], 1e-12),
                "H[{i}][{j}] is not symmetric"
            );
        }
        let row: f64 = (0..t.len()).map(|j| h[(i, j)] * v[j]).sum();
        assert!(close(row, hv[i], 1e-12), "(H·v)[{i}] from _hessian");
    }
}

#[test]
fn owned_and_fixed_size_vectors_of_a_solver() {
    let (c, k) = (vec![0.4, -0.3, 0.2], 1.5);
    let (v, vk) = (vec![1.0, -0.5, 0.25], -0.6);
    let grad_owned = |c: &[f64], k: f64| -> Vec<f64> {
        let (_, dc, dk) = root_owned_grad(DVector::from_column_slice(c), k).expect("a root");
        dc.iter().copied().chain([dk]).collect()
    };
    let grad_fixed = |c: &[f64], k: f64| -> Vec<f64> {
        let (_, dc, dk) = root_fixed_grad(&Vector3::from_column_slice(c), k).expect("a root");
        dc.iter().copied().chain([dk]).collect()
    };
    let shifted = |s: f64| (along(&c, &v, s), k + s * vk);
    let (cu, ku) = shifted(STEP);
    let (cd, kd) = shifted(-STEP);
    let fd: Vec<f64> = grad_owned(&cu, ku)
        .iter()
        .zip(grad_owned(&cd, kd))
        .map(|(a, b)| (a - b) / (2.0 * STEP))
        .collect();
    // Both residuals are the same function of (c, k): one difference.
    let fd_fixed: Vec<f64> = grad_fixed(&cu, ku)
        .iter()
        .zip(grad_fixed(&cd, kd))
        .map(|(a, b)| (a - b) / (2.0 * STEP))
        .collect();
    let dv = DVector::from_column_slice(&v);
    let (z, _, _, hc, hk) =
        root_owned_hvp(DVector::from_column_slice(&c), k, &dv, vk).expect("a root");
    assert_eq!(
        z.to_bits(),
        root_owned(DVector::from_column_slice(&c), k)
            .unwrap()
            .to_bits()
    );
    let hv: Vec<f64> = hc.iter().copied().chain([hk]).collect();
    let fv = Vector3::from_column_slice(&v);
    let (zf, _, _, hcf, hkf) =
        root_fixed_hvp(&Vector3::from_column_slice(&c), k, &fv, vk).expect("a root");
    assert_eq!(zf.to_bits(), z.to_bits());
    let hv_fixed: Vec<f64> = hcf.iter().copied().chain([hkf]).collect();
    for i in 0..4 {
        assert!(
            close(hv[i], fd[i], 1e-6),
            "owned (H·v)[{i}] = {} but {}",
            hv[i],
            fd[i]
        );
        assert!(
            close(hv_fixed[i], fd_fixed[i], 1e-6),
            "fixed (H·v)[{i}] = {} but {}",
            hv_fixed[i],
            fd_fixed[i]
        );
    }
    let (_, dz) = root_fixed_jvp(&Vector3::from_column_slice(&c), k, &fv, vk).expect("a root");
    let zs = |s: f64| {
        let (cs, ks) = shifted(s);
        root_fixed(&Vector3::from_column_slice(&cs), ks).unwrap()
    };
    let fd_z = (zs(STEP) - zs(-STEP)) / (2.0 * STEP);
    assert!(close(dz, fd_z, 1e-7), "ż = {dz}, difference {fd_z}");
    let (_, _, h) = root_fixed_hessian(&Vector3::from_column_slice(&c), k).expect("a root");
    for i in 0..4 {
        let row: f64 = (0..4)
            .map(|j| h[(i, j)] * if j < 3 { v[j] } else { vk })
            .sum();
        assert!(close(row, hv_fixed[i], 1e-12));
    }
}
