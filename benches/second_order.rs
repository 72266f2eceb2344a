//! Second order, `#[differentiable(hessian)]`: what `NAME_hvp` costs next
//! to `NAME_grad`, and `NAME_hessian` next to num-dual's second-order
//! Hessian (`num_dual::hessian`, `Dual2Vec` over `Dyn`) and a hand-written
//! Hessian; and `NAME_hessian`'s vector mode (K columns a reverse sweep)
//! next to one `NAME_hvp` per column.
//!
//! ```text
//! cargo bench --bench second_order                  # everything
//! cargo bench --bench second_order -- --quick       # one quick pass
//! cargo bench --bench second_order -- hvp           # one family
//! ```
//!
//! Before anything is timed, the Hessians are checked against each other
//! and the hand-written one against central differences of the
//! hand-written gradient; a mismatch stops the run.

use std::hint::black_box;

use autograd::differentiable;
use autograd::nalgebra::{DMatrix, DVector, Dyn};
use criterion::{BenchmarkGroup, Criterion, SamplingMode, measurement::WallTime};
use num_dual::{Dual2Vec, DualNum};

#[allow(dead_code)]
mod cases;

use cases::black_scholes::example::{call_price_grad, call_price_hvp};
use cases::bond::{bond_price_grad, bond_price_hvp};
use cases::rosenbrock::{rosenbrock_grad, rosenbrock_hessian, rosenbrock_hvp};
use cases::{bond, lcg_vec, rosenbrock};

/// The dense nalgebra layer of `benches/gradients.rs`, `sum(tanh(W·x + b))`
/// with `W` 32×32, with `hessian`: a matrix `_hvp` next to its `_grad`.
#[differentiable(hessian)]
fn dense_layer(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
    (w * x + b).map(f64::tanh).sum()
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat).sample_size(30);
    g
}

/// Rosenbrock over `DualNum`s that are not `Copy` (`Dual2Vec` over `Dyn`).
fn rosenbrock_num_dual<T: DualNum<f64>>(x: &[T]) -> T {
    let mut s = T::from(0.0);
    for i in 0..x.len() - 1 {
        let a = -(x[i].clone() - 1.0);
        let b = x[i + 1].clone() - x[i].clone() * x[i].clone();
        s += a.clone() * a + b.clone() * b * 100.0;
    }
    s
}

/// num-dual's Hessian: one forward pass with second-order dual numbers
/// carrying an n-vector and an n×n matrix.
fn num_dual_hessian(x: &[f64]) -> (f64, DVector<f64>, DMatrix<f64>) {
    num_dual::hessian(
        |v: DVector<Dual2Vec<f64, f64, Dyn>>| rosenbrock_num_dual(v.as_slice()),
        &DVector::from_column_slice(x),
    )
}

/// Rosenbrock's Hessian by hand (f = Σ (1 − xᵢ)² + 100·(xᵢ₊₁ − xᵢ²)²):
/// H_ii = 2 + 1200xᵢ² − 400xᵢ₊₁ (i < n−1) + 200 (i > 0), H_i,i+1 = −400xᵢ,
/// with the hand-written gradient.
fn hand_hessian(x: &[f64]) -> (f64, DVector<f64>, DMatrix<f64>) {
    let n = x.len();
    let inp = rosenbrock::Inputs { x: x.to_vec() };
    let (value, grad) = rosenbrock::hand(&inp);
    let mut h = DMatrix::zeros(n, n);
    for i in 0..n {
        if i + 1 < n {
            h[(i, i)] += 2.0 + 1200.0 * x[i] * x[i] - 400.0 * x[i + 1];
            h[(i, i + 1)] = -400.0 * x[i];
            h[(i + 1, i)] = -400.0 * x[i];
        }
        if i > 0 {
            h[(i, i)] += 200.0;
        }
    }
    (value, DVector::from_vec(grad), h)
}

/// Rosenbrock's Hessian one column a sweep: `_hvp` along each unit
/// direction (the path `_hessian` took before vector mode).
fn hessian_by_columns(x: &[f64]) -> DMatrix<f64> {
    let n = x.len();
    let mut h = DMatrix::zeros(n, n);
    let mut v = vec![0.0; n];
    for j in 0..n {
        v[j] = 1.0;
        let (_, _, column) = rosenbrock_hvp(x, &v);
        h.column_mut(j).copy_from_slice(&column);
        v[j] = 0.0;
    }
    h
}

/// The three Hessians agree, and the hand-written one is the central
/// difference of the hand-written gradient (step 1e-6: truncation O(h²)
/// of a cubic gradient, rounding about 1e-16·|∇f|/1e-6).
fn check(x: &[f64]) -> Result<(), String> {
    let (v_ours, g_ours, h_ours) = rosenbrock_hessian(x);
    let (v_dual, g_dual, h_dual) = num_dual_hessian(x);
    let (v_hand, g_hand, h_hand) = hand_hessian(x);
    let n = x.len();
    let close = |a: f64, b: f64, tol: f64| (a - b).abs() <= tol * (1.0 + b.abs());
    for (name, v, g, h) in [
        ("ours", v_ours, &g_ours, &h_ours),
        ("num-dual", v_dual, &g_dual, &h_dual),
    ] {
        if !close(v, v_hand, 1e-12) {
            return Err(format!("{name}: value {v} vs {v_hand}"));
        }
        for i in 0..n {
            if !close(g[i], g_hand[i], 1e-10) {
                return Err(format!("{name}: gradient {i}: {} vs {}", g[i], g_hand[i]));
            }
            for j in 0..n {
                if !close(h[(i, j)], h_hand[(i, j)], 1e-10) {
                    return Err(format!(
                        "{name}: H[{i}][{j}] {} vs {}",
                        h[(i, j)],
                        h_hand[(i, j)]
                    ));
                }
            }
        }
    }
    let step = 1e-6;
    for j in 0..n {
        let shifted = |s: f64| {
            let mut y = x.to_vec();
            y[j] += s * step;
            rosenbrock::hand(&rosenbrock::Inputs { x: y }).1
        };
        let (up, down) = (shifted(1.0), shifted(-1.0));
        for i in 0..n {
            let fd = (up[i] - down[i]) / (2.0 * step);
            if !close(h_hand[(i, j)], fd, 1e-6) {
                return Err(format!(
                    "hand: H[{i}][{j}] {} vs difference {fd}",
                    h_hand[(i, j)]
                ));
            }
        }
    }
    Ok(())
}

/// The dense layer's `_hvp`: its gradient is `_grad`'s, and H·v is the
/// central difference of `_grad` along v (step 1e-6, tolerance 1e-6 of
/// the largest entry: truncation O(h²), rounding about 1e-16/1e-6).
fn check_dense(
    inp: &cases::dense::matrix::Inputs,
    dw: &DMatrix<f64>,
    dx: &DVector<f64>,
    db: &DVector<f64>,
) -> Result<(), String> {
    let (v, gw, gx, gb, hw, hx, hb) = dense_layer_hvp(&inp.w, &inp.x, &inp.b, dw, dx, db);
    let (v1, gw1, gx1, gb1) = dense_layer_grad(&inp.w, &inp.x, &inp.b);
    if v != v1 {
        return Err(format!("value {v} vs {v1}"));
    }
    let step = 1e-6;
    let at = |s: f64| dense_layer_grad(&(&inp.w + dw * s), &(&inp.x + dx * s), &(&inp.b + db * s));
    let (_, uw, ux, ub) = at(step);
    let (_, lw, lx, lb) = at(-step);
    let fd = |u: &[f64], l: &[f64]| -> Vec<f64> {
        u.iter()
            .zip(l)
            .map(|(u, l)| (u - l) / (2.0 * step))
            .collect()
    };
    // (name, `_hvp`'s gradient, `_grad`'s, H·v, the difference of `_grad`)
    let parts = [
        (
            "W",
            gw.as_slice(),
            gw1.as_slice(),
            hw.as_slice(),
            fd(uw.as_slice(), lw.as_slice()),
        ),
        (
            "x",
            gx.as_slice(),
            gx1.as_slice(),
            hx.as_slice(),
            fd(ux.as_slice(), lx.as_slice()),
        ),
        (
            "b",
            gb.as_slice(),
            gb1.as_slice(),
            hb.as_slice(),
            fd(ub.as_slice(), lb.as_slice()),
        ),
    ];
    let amax = |v: &[f64]| v.iter().fold(1.0f64, |m, e| m.max(e.abs()));
    for (name, g, g1, h, fd) in parts {
        for i in 0..g.len() {
            if (g[i] - g1[i]).abs() > 1e-13 * amax(g1) {
                return Err(format!(
                    "{name}[{i}]: gradient {} vs `_grad` {}",
                    g[i], g1[i]
                ));
            }
            if (h[i] - fd[i]).abs() > 1e-6 * amax(&fd) {
                return Err(format!(
                    "{name}[{i}]: H·v {} vs difference of `_grad` {}",
                    h[i], fd[i]
                ));
            }
        }
    }
    Ok(())
}

fn benches(c: &mut Criterion) {
    for n in [5, 10, 100] {
        let x = rosenbrock::Inputs::new(n).x;
        if let Err(e) = check(&x) {
            panic!("the Hessians disagree at n = {n}: {e}");
        }
    }

    // `_hvp` ÷ `_grad`.
    for n in [10, 100, 1000] {
        let x = rosenbrock::Inputs::new(n).x;
        let v = lcg_vec(n, 3, -1.0, 1.0);
        let mut g = group(c, &format!("hvp_rosenbrock_n{n}"));
        g.bench_function("grad", |b| b.iter(|| rosenbrock_grad(black_box(&x))));
        g.bench_function("hvp", |b| {
            b.iter(|| rosenbrock_hvp(black_box(&x), black_box(&v)))
        });
        g.finish();
    }
    {
        let [s, k, r, vol, t] = cases::black_scholes::Inputs::new().args;
        let mut g = group(c, "hvp_black_scholes");
        g.bench_function("grad", |b| {
            b.iter(|| call_price_grad(black_box(s), k, r, vol, t))
        });
        g.bench_function("hvp", |b| {
            b.iter(|| call_price_hvp(black_box(s), k, r, vol, t, 1.0, 0.5, -0.5, 0.25, 1.0))
        });
        g.finish();
    }
    {
        let inp = bond::Inputs::new();
        let dr = lcg_vec(inp.r.len(), 5, -1.0, 1.0);
        let mut g = group(c, "hvp_bond");
        g.bench_function("grad", |b| {
            b.iter(|| bond_price_grad(black_box(&inp.r), inp.z, &inp.cf, &inp.t))
        });
        g.bench_function("hvp", |b| {
            b.iter(|| bond_price_hvp(black_box(&inp.r), inp.z, &inp.cf, &inp.t, &dr, 1.0))
        });
        g.finish();
    }

    {
        let inp = cases::dense::matrix::Inputs::new();
        let (n, m) = inp.w.shape();
        let dw = DMatrix::from_vec(n, m, lcg_vec(n * m, 7, -1.0, 1.0));
        let dx = DVector::from_vec(lcg_vec(m, 11, -1.0, 1.0));
        let db = DVector::from_vec(lcg_vec(n, 13, -1.0, 1.0));
        if let Err(e) = check_dense(&inp, &dw, &dx, &db) {
            panic!("the dense layer's `_hvp` disagrees: {e}");
        }
        let mut g = group(c, "hvp_dense_nalgebra");
        g.bench_function("grad", |b| {
            b.iter(|| dense_layer_grad(black_box(&inp.w), &inp.x, &inp.b))
        });
        g.bench_function("hvp", |b| {
            b.iter(|| dense_layer_hvp(black_box(&inp.w), &inp.x, &inp.b, &dw, &dx, &db))
        });
        g.finish();
    }

    // Vector mode: `_hessian` (⌈n/K⌉ reverse sweeps of K lanes) against
    // the one-column path, n `_hvp` calls along the unit directions; the
    // sizes leave 1, 4 and 7 columns past a multiple of K (9, 12, 15),
    // none (16) and 4 (100).
    for n in [9, 12, 15, 16, 100] {
        let x = rosenbrock::Inputs::new(n).x;
        let (_, _, lanes) = rosenbrock_hessian(&x);
        let columns = hessian_by_columns(&x);
        if (&lanes - &columns).amax() > 1e-12 * columns.amax() {
            panic!("the lane Hessian differs from the `_hvp` columns at n = {n}");
        }
        let mut g = group(c, &format!("hessian_lanes_n{n}"));
        g.bench_function("lanes", |b| b.iter(|| rosenbrock_hessian(black_box(&x))));
        g.bench_function("hvp_columns", |b| {
            b.iter(|| hessian_by_columns(black_box(&x)))
        });
        g.finish();
    }

    // `_hessian` against num-dual's and a hand-written Hessian.
    for n in [5, 10, 100] {
        let x = rosenbrock::Inputs::new(n).x;
        let mut g = group(c, &format!("hessian_rosenbrock_n{n}"));
        g.bench_function("ours", |b| b.iter(|| rosenbrock_hessian(black_box(&x))));
        g.bench_function("num_dual", |b| b.iter(|| num_dual_hessian(black_box(&x))));
        g.bench_function("hand", |b| b.iter(|| hand_hessian(black_box(&x))));
        g.finish();
    }
}

criterion::criterion_group!(second_order, benches);
criterion::criterion_main!(second_order);
