//! Sparse derivatives by colouring (issue 39): `NAME_hessian_sparse` and
//! `NAME_jacobian_sparse` next to hand-written derivatives that fill only
//! the non-zeros, and the sparse Hessians (K colours a reverse sweep) next
//! to one `NAME_hvp` per colour, in one run so that the ratios are the
//! machine's of the moment.
//!
//! ```text
//! cargo bench --bench sparse                  # everything
//! cargo bench --bench sparse -- --quick       # one quick pass
//! ```
//!
//! Targets (issue 39): Rosenbrock and Rastrigin at n = 1000 within 3× the
//! hand-written tridiagonal and diagonal Hessians; a banded Jacobian of
//! 10 000 residuals of bandwidth 5 within 3× five evaluations of the
//! residual (`_jacobian_sparse`, and `_jacobian_sparse_into` a reused
//! matrix). Before anything is timed each sparse result is checked
//! against the hand-written one; a mismatch stops the run.

// A differentiable body indexes slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

use std::hint::black_box;

use autograd::differentiable;
use autograd::nalgebra::DVector;
use autograd::nalgebra_sparse::CscMatrix;
use autograd::sparse::Coloring;
use criterion::{BenchmarkGroup, Criterion, SamplingMode, measurement::WallTime};

#[differentiable(hessian)]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

#[differentiable(hessian)]
fn rastrigin(x: &[f64]) -> f64 {
    let mut s = 10.0 * x.len() as f64;
    for i in 0..x.len() {
        s += x[i] * x[i] - 10.0 * (std::f64::consts::TAU * x[i]).cos();
    }
    s
}

/// Every pair of inputs at most 8 apart interacts (half-bandwidth 8):
/// more colours than a sweep has lanes.
#[differentiable(hessian)]
fn wide_band(x: &[f64]) -> f64 {
    let n = x.len();
    let mut s = 0.0;
    for i in 0..n {
        s += x[i].powi(4) * 0.25;
        for k in 1..9 {
            if i + k < n {
                s += (x[i] - 0.5 * x[i + k]).cos() * (k as f64).recip();
            }
        }
    }
    s
}

/// −u″ + u³ − 1 on a grid with a fourth-order stencil: bandwidth 5.
#[differentiable(jvp)]
fn banded(u: &[f64], #[constant] h: f64) -> Vec<f64> {
    let n = u.len();
    let mut r = Vec::with_capacity(n);
    let k = 1.0 / (12.0 * h * h);
    for i in 0..n {
        let l2 = if i >= 2 { u[i - 2] } else { 0.0 };
        let l1 = if i >= 1 { u[i - 1] } else { 0.0 };
        let r1 = if i + 1 < n { u[i + 1] } else { 0.0 };
        let r2 = if i + 2 < n { u[i + 2] } else { 0.0 };
        let lap = (-l2 + 16.0 * l1 - 30.0 * u[i] + 16.0 * r1 - r2) * k;
        r.push(-lap + u[i] * u[i] * u[i] - 1.0);
    }
    r
}

/// The hand-written tridiagonal Hessian of Rosenbrock with its value and
/// gradient, into a matrix of the colouring's pattern (columns in order,
/// rows sorted: i−1, i, i+1).
fn rosenbrock_hand(x: &[f64], pattern: &CscMatrix<f64>) -> (f64, DVector<f64>, CscMatrix<f64>) {
    let n = x.len();
    let mut value = 0.0;
    let mut g = DVector::zeros(n);
    let mut diag = vec![0.0; n];
    let mut off = vec![0.0; n - 1];
    for i in 0..n - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        value += a * a + 100.0 * b * b;
        g[i] += -2.0 * a - 400.0 * x[i] * b;
        g[i + 1] += 200.0 * b;
        diag[i] += 2.0 + 1200.0 * x[i] * x[i] - 400.0 * x[i + 1];
        diag[i + 1] += 200.0;
        off[i] = -400.0 * x[i];
    }
    let mut values = Vec::with_capacity(3 * n - 2);
    for j in 0..n {
        if j > 0 {
            values.push(off[j - 1]);
        }
        values.push(diag[j]);
        if j + 1 < n {
            values.push(off[j]);
        }
    }
    let h = CscMatrix::try_from_pattern_and_values(pattern.pattern().clone(), values)
        .expect("the tridiagonal pattern");
    (value, g, h)
}

fn rastrigin_hand(x: &[f64], pattern: &CscMatrix<f64>) -> (f64, DVector<f64>, CscMatrix<f64>) {
    let tau = std::f64::consts::TAU;
    let mut value = 10.0 * x.len() as f64;
    let mut g = DVector::zeros(x.len());
    let mut values = Vec::with_capacity(x.len());
    for (i, &xi) in x.iter().enumerate() {
        let (s, c) = (tau * xi).sin_cos();
        value += xi * xi - 10.0 * c;
        g[i] = 2.0 * xi + 10.0 * tau * s;
        values.push(2.0 + 10.0 * tau * tau * c);
    }
    let h = CscMatrix::try_from_pattern_and_values(pattern.pattern().clone(), values)
        .expect("the diagonal pattern");
    (value, g, h)
}

fn point(n: usize, seed: u64) -> Vec<f64> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((s >> 33) % 4000) as f64 / 1000.0 - 2.0
        })
        .collect()
}

fn same(a: &CscMatrix<f64>, b: &CscMatrix<f64>, what: &str) {
    assert_eq!(a.pattern(), b.pattern(), "{what}: patterns");
    for (k, (x, y)) in a.values().iter().zip(b.values()).enumerate() {
        assert!(
            (x - y).abs() <= 1e-10 * (1.0 + y.abs()),
            "{what}: entry {k}: {x} vs {y}"
        );
    }
}

/// A slice function's `_hvp`: value, gradient, H·v.
type Hvp = fn(&[f64], &[f64]) -> (f64, Vec<f64>, Vec<f64>);

/// The sparse Hessian one colour a sweep: `_hvp` along each colour's
/// seed, recovered (the path `_hessian_sparse` took before vector mode).
fn by_colours(x: &[f64], coloring: &Coloring, hvp: Hvp) -> (f64, DVector<f64>, CscMatrix<f64>) {
    let n = x.len();
    let mut compressed = Vec::with_capacity(n * coloring.colors());
    let mut seed = vec![0.0; n];
    let (mut value, mut grad) = (0.0, DVector::zeros(0));
    for c in 0..coloring.colors() {
        coloring.seed_into(c, &mut seed);
        let (v, g, h) = hvp(x, &seed);
        if c == 0 {
            (value, grad) = (v, DVector::from_vec(g));
        }
        compressed.extend(h);
    }
    (value, grad, coloring.recover(&compressed))
}

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat).sample_size(30);
    g
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    let n = 1000;

    let x = point(n, 1);
    let coloring = rosenbrock_hessian_pattern(&x);
    assert_eq!(coloring.colors(), 3);
    let template = coloring.zeros();
    let (v, g, h) = rosenbrock_hessian_sparse(&x, &coloring);
    let (hv, hg, hh) = rosenbrock_hand(&x, &template);
    assert!((v - hv).abs() <= 1e-10 * hv.abs());
    assert!((g - hg).amax() <= 1e-8);
    same(&h, &hh, "rosenbrock");
    same(
        &by_colours(&x, &coloring, rosenbrock_hvp).2,
        &hh,
        "rosenbrock by colours",
    );
    let mut gr = group(&mut c, "rosenbrock_1000");
    gr.bench_function("sparse", |b| {
        b.iter(|| rosenbrock_hessian_sparse(black_box(&x), &coloring))
    });
    gr.bench_function("hvp_per_colour", |b| {
        b.iter(|| by_colours(black_box(&x), &coloring, rosenbrock_hvp))
    });
    gr.bench_function("hand_tridiagonal", |b| {
        b.iter(|| rosenbrock_hand(black_box(&x), &template))
    });
    gr.bench_function("pattern_once", |b| {
        b.iter(|| rosenbrock_hessian_pattern(black_box(&x)))
    });
    gr.finish();

    let x = point(n, 2);
    let coloring = rastrigin_hessian_pattern(&x);
    assert_eq!(coloring.colors(), 1);
    let template = coloring.zeros();
    let (v, g, h) = rastrigin_hessian_sparse(&x, &coloring);
    let (hv, hg, hh) = rastrigin_hand(&x, &template);
    assert!((v - hv).abs() <= 1e-10 * hv.abs());
    assert!((g - hg).amax() <= 1e-8);
    same(&h, &hh, "rastrigin");
    same(
        &by_colours(&x, &coloring, rastrigin_hvp).2,
        &hh,
        "rastrigin by colours",
    );
    let mut gr = group(&mut c, "rastrigin_1000");
    gr.bench_function("sparse", |b| {
        b.iter(|| rastrigin_hessian_sparse(black_box(&x), &coloring))
    });
    gr.bench_function("hvp_per_colour", |b| {
        b.iter(|| by_colours(black_box(&x), &coloring, rastrigin_hvp))
    });
    gr.bench_function("hand_diagonal", |b| {
        b.iter(|| rastrigin_hand(black_box(&x), &template))
    });
    gr.finish();

    let x = point(n, 4);
    let coloring = wide_band_hessian_pattern(&x);
    assert!(coloring.colors() > 8);
    let (_, _, h) = wide_band_hessian_sparse(&x, &coloring);
    same(&h, &by_colours(&x, &coloring, wide_band_hvp).2, "wide band");
    let mut gr = group(
        &mut c,
        &format!("wide_band_1000_{}_colours", coloring.colors()),
    );
    gr.bench_function("sparse", |b| {
        b.iter(|| wide_band_hessian_sparse(black_box(&x), &coloring))
    });
    gr.bench_function("hvp_per_colour", |b| {
        b.iter(|| by_colours(black_box(&x), &coloring, wide_band_hvp))
    });
    gr.finish();

    let m = 10_000;
    let h = 1.0 / m as f64;
    let u = point(m, 3);
    let coloring: Coloring = banded_jacobian_pattern(&u, h);
    assert_eq!(coloring.colors(), 5);
    let (r, j) = banded_jacobian_sparse(&u, h, &coloring);
    assert_eq!(r, banded(&u, h));
    // Spot checks against the stencil: ∂rᵢ/∂uᵢ = 30k + 3uᵢ², ∂rᵢ/∂uᵢ₊₂ = k.
    let k = 1.0 / (12.0 * h * h);
    for i in [0, 17, m / 2, m - 3] {
        let diag = j
            .get_entry(i, i)
            .map(|e| e.into_value())
            .unwrap_or(f64::NAN);
        let far = j
            .get_entry(i, i + 2)
            .map(|e| e.into_value())
            .unwrap_or(f64::NAN);
        assert!((diag - (30.0 * k + 3.0 * u[i] * u[i])).abs() <= 1e-9 * diag.abs());
        assert!((far - k).abs() <= 1e-9 * k);
    }
    let mut into = coloring.zeros();
    assert_eq!(banded_jacobian_sparse_into(&u, h, &coloring, &mut into), r);
    assert_eq!(into.values(), j.values());
    let mut gr = group(&mut c, "banded_jacobian_10000");
    gr.bench_function("sparse", |b| {
        b.iter(|| banded_jacobian_sparse(black_box(&u), h, &coloring))
    });
    // Into a matrix of the pattern, as an iteration reuses it.
    gr.bench_function("sparse_into", |b| {
        b.iter(|| banded_jacobian_sparse_into(black_box(&u), h, &coloring, &mut into))
    });
    gr.bench_function("residual_x5", |b| {
        b.iter(|| {
            for _ in 0..5 {
                black_box(banded(black_box(&u), h));
            }
        })
    });
    gr.finish();
    c.final_summary();
}
