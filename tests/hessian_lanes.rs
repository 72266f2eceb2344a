//! Vector mode for second order: `NAME_hessian` sweeps
//! `K = autograd::lanes::HESSIAN_LANES` columns per reverse sweep (the
//! twin's gradient at a dual number of `K` lanes), the last, partial group
//! too when it holds more than `K/2` columns (its other lanes seeded
//! zero), else one `NAME_hvp` per column; `NAME_hessian_sparse` sweeps `K`
//! colours at once the same way (`tests/lane_sweep_counts.rs` counts the
//! sweeps).
//! A function taking a fixed-size array keeps one `NAME_hvp` per column
//! (its lane copies would be arrays on the stack); `mixed` and `owned`
//! check that path at the same sizes.
//!
//! Every Hessian is checked entry for entry against the one-column path
//! (`NAME_hvp` along each unit direction, or along each colour's seed: to
//! 1e-12 relative) and against central differences of `NAME_grad`
//! (five-point stencil, step 10⁻³: truncation about 10⁻¹²·|f⁽⁵⁾|,
//! rounding about 10⁻¹³·|g|; allowed 10⁻⁷ absolute or relative). The
//! sizes straddle the lane count: n = 1, 3, K − 1, K, K + 1, 2K + 3.

// The bodies index slices in `for i in 0..n` loops.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::lanes::HESSIAN_LANES as K;
use autograd::nalgebra::DMatrix;
use autograd::num_traits::Float;

mod alloc_support;
use alloc_support::allocations_during;

/// The sizes around the lane count.
fn sizes() -> [usize; 6] {
    [1, 3, K - 1, K, K + 1, 2 * K + 3]
}

/// A deterministic point of `n` entries in [−1, 1).
fn point(n: usize, seed: u64) -> Vec<f64> {
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

/// The one-column path: column j is `hvp` along unit direction j.
fn by_columns(n: usize, hvp: impl Fn(&[f64]) -> Vec<f64>) -> DMatrix<f64> {
    let mut h = DMatrix::zeros(n, n);
    for j in 0..n {
        let mut v = vec![0.0; n];
        v[j] = 1.0;
        h.set_column(j, &autograd::nalgebra::DVector::from_vec(hvp(&v)));
    }
    h
}

/// The Hessian by five-point central differences of the gradient `grad`
/// over the flattened inputs, step 10⁻³.
fn by_differences(x: &[f64], grad: impl Fn(&[f64]) -> Vec<f64>) -> DMatrix<f64> {
    let h = 1e-3;
    let n = x.len();
    let mut m = DMatrix::zeros(n, n);
    for j in 0..n {
        let at = |d: f64| {
            let mut y = x.to_vec();
            y[j] += d;
            grad(&y)
        };
        let (p1, m1, p2, m2) = (at(h), at(-h), at(2.0 * h), at(-2.0 * h));
        for i in 0..n {
            m[(i, j)] = (8.0 * (p1[i] - m1[i]) - (p2[i] - m2[i])) / (12.0 * h);
        }
    }
    m
}

fn assert_same(got: &DMatrix<f64>, want: &DMatrix<f64>, abs: f64, rel: f64, what: &str) {
    assert_eq!(got.shape(), want.shape(), "{what}");
    for i in 0..got.nrows() {
        for j in 0..got.ncols() {
            assert_relative_eq!(got[(i, j)], want[(i, j)], epsilon = abs, max_relative = rel);
        }
    }
}

/// The lane Hessian against the one-column path (1e-12) and central
/// differences of the gradient (1e-7).
fn check(
    what: &str,
    x: &[f64],
    lanes: &DMatrix<f64>,
    hvp: impl Fn(&[f64]) -> Vec<f64>,
    grad: impl Fn(&[f64]) -> Vec<f64>,
) {
    let n = x.len();
    assert_same(lanes, &by_columns(n, hvp), 1e-300, 1e-12, what);
    assert_same(lanes, &by_differences(x, grad), 1e-7, 1e-7, what);
}

// ---- a slice through a loop (Rosenbrock) ----

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

#[test]
fn rosenbrock_lanes_are_the_columns_and_the_differences() {
    for n in sizes().into_iter().filter(|&n| n >= 2) {
        let x = point(n, n as u64);
        let (value, grad, h) = rosenbrock_hessian(&x);
        assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
        let (_, g) = rosenbrock_grad(&x);
        assert_eq!(grad.as_slice(), &g[..], "n = {n}");
        check(
            &format!("rosenbrock n = {n}"),
            &x,
            &h,
            |v| rosenbrock_hvp(&x, v).2,
            |y| rosenbrock_grad(y).1,
        );
    }
}

// ---- branches, a loop, a number, a slice and an array ----

#[differentiable(hessian)]
fn softplus(t: f64) -> f64 {
    if t > 20.0 { t } else { (1.0 + t.exp()).ln() }
}

#[differentiable(hessian)]
fn mixed(x: f64, w: &[f64], a: [f64; 3], #[constant] scale: f64) -> f64 {
    let mut s = 0.5 * x * x + a[0] * a[1].sin() + (a[2] * x).exp();
    for i in 0..w.len() {
        let t = x * w[i] + (i as f64) * 0.1;
        if t > 0.2 {
            s += softplus(t) * w[i];
        } else {
            s -= (t * t).sin() * scale * a[i % 3];
        }
    }
    s + autograd::special::norm_cdf(x * a[2])
}

/// `mixed` over its flattened inputs (x, w.., a..).
fn mixed_flat(z: &[f64]) -> (f64, &[f64], [f64; 3]) {
    let n = z.len();
    (z[0], &z[1..n - 3], [z[n - 3], z[n - 2], z[n - 1]])
}

#[test]
fn branches_numbers_slices_and_an_array_agree_with_the_columns() {
    // Flattened: 1 + w.len() + 3; every size around K.
    for m in [0, 1, K - 5, K - 4, K - 3, 2 * K] {
        let z = point(m + 4, 7 + m as u64);
        let (x, w, a) = mixed_flat(&z);
        let (value, _, h) = mixed_hessian(x, w, a, 0.7);
        assert_eq!(value.to_bits(), mixed(x, w, a, 0.7).to_bits());
        assert_eq!(h.nrows(), m + 4);
        check(
            &format!("mixed n = {}", m + 4),
            &z,
            &h,
            |v| {
                let (vx, vw, _) = mixed_flat(v);
                let va = [v[m + 1], v[m + 2], v[m + 3]];
                let (_, _, _, _, hx, hw, ha) = mixed_hvp(x, w, a, 0.7, vx, vw, &va);
                [vec![hx], hw, ha.to_vec()].concat()
            },
            |y| {
                let (x, w, a) = mixed_flat(y);
                let (_, gx, gw, ga) = mixed_grad(x, w, a, 0.7);
                [vec![gx], gw, ga.to_vec()].concat()
            },
        );
    }
}

// ---- one input, a `Vec` by value, arrays by reference ----

#[differentiable(hessian)]
fn one(x: f64) -> f64 {
    x.sin() * x.exp() + x.powi(4)
}

#[test]
fn one_input_is_one_sweep() {
    for x in [-1.3, 0.2, 2.0] {
        let (value, grad, h) = one_hessian(x);
        assert_eq!(value.to_bits(), one(x).to_bits());
        assert_eq!(grad[0], one_grad(x).1);
        check(
            "one",
            &[x],
            &h,
            |v| vec![one_hvp(x, v[0]).2],
            |y| vec![one_grad(y[0]).1],
        );
    }
}

#[differentiable(hessian)]
fn owned(v: Vec<f64>, b: &[f64; 2]) -> f64 {
    let mut s = b[0] * b[1];
    for i in 0..v.len() {
        s += (v[i] * b[i % 2]).cos() * v[i];
    }
    s
}

#[test]
fn a_vec_by_value_and_an_array_by_reference() {
    for m in [1, K, K + 2] {
        let z = point(m + 2, 40 + m as u64);
        let split = |z: &[f64]| (z[..m].to_vec(), [z[m], z[m + 1]]);
        let (v, b) = split(&z);
        let (value, _, h) = owned_hessian(v.clone(), &b);
        assert_eq!(value.to_bits(), owned(v.clone(), &b).to_bits());
        check(
            &format!("owned n = {}", m + 2),
            &z,
            &h,
            |d| {
                let (_, _, _, hv, hb) = owned_hvp(v.clone(), &b, &d[..m], &d[m..]);
                [hv, hb.to_vec()].concat()
            },
            |y| {
                let (v, b) = split(y);
                let (_, gv, gb) = owned_grad(v, &b);
                [gv, gb.to_vec()].concat()
            },
        );
    }
}

// ---- generic over the scalar, at f64 and f32 ----

#[differentiable(hessian)]
fn generic<T: Float>(x: &[T], y: T) -> T {
    let mut s = y * y * y;
    for i in 0..x.len() {
        let t = x[i] * y - T::from(0.25).unwrap();
        s = s + if t > T::zero() {
            t.exp()
        } else {
            (t * t).sin()
        };
    }
    s
}

#[test]
fn a_generic_function_sweeps_lanes_at_f64_and_f32() {
    for m in [0, 2, K - 1, K + 4] {
        let z = point(m + 1, 90 + m as u64);
        let (value, _, h) = generic_hessian(&z[..m], z[m]);
        assert_eq!(value.to_bits(), generic(&z[..m], z[m]).to_bits());
        check(
            &format!("generic n = {}", m + 1),
            &z,
            &h,
            |d| {
                let (_, _, _, hx, hy) = generic_hvp(&z[..m], z[m], &d[..m], d[m]);
                [hx, vec![hy]].concat()
            },
            |y| {
                let (_, gx, gy) = generic_grad(&y[..m], y[m]);
                [gx, vec![gy]].concat()
            },
        );
        // At f32: the lanes are the f32 columns bit for bit (the same
        // operations), and the f64 Hessian to f32's precision.
        let z32: Vec<f32> = z.iter().map(|&v| v as f32).collect();
        let (value, _, h32) = generic_hessian(&z32[..m], z32[m]);
        assert_eq!(value.to_bits(), generic(&z32[..m], z32[m]).to_bits());
        for j in 0..=m {
            let mut d = vec![0.0_f32; m + 1];
            d[j] = 1.0;
            let (_, _, _, hx, hy) = generic_hvp(&z32[..m], z32[m], &d[..m], d[m]);
            let column = [hx, vec![hy]].concat();
            for i in 0..=m {
                assert_eq!(h32[(i, j)].to_bits(), column[i].to_bits(), "({i}, {j})");
            }
        }
        let at64 = generic_hessian(
            &z32[..m].iter().map(|&v| v as f64).collect::<Vec<_>>(),
            z32[m] as f64,
        )
        .2;
        for (a, b) in h32.iter().zip(at64.iter()) {
            assert_relative_eq!(*a as f64, *b, epsilon = 1e-3, max_relative = 1e-3);
        }
    }
}

// ---- an f32 function through a call ----

#[differentiable(hessian)]
fn inner32(a: f32, b: f32) -> f32 {
    a * b.cos() + a * a * b
}

#[differentiable(hessian)]
fn outer32(x: &[f32]) -> f32 {
    let mut s = 0.0;
    for i in 1..x.len() {
        s += inner32(x[i - 1], x[i]);
    }
    s
}

#[test]
fn an_f32_function_calling_another_sweeps_lanes() {
    for n in [2, K, K + 1] {
        let x: Vec<f32> = point(n, 3 + n as u64).iter().map(|&v| v as f32).collect();
        let (value, _, h) = outer32_hessian(&x);
        assert_eq!(value.to_bits(), outer32(&x).to_bits());
        for j in 0..n {
            let mut d = vec![0.0_f32; n];
            d[j] = 1.0;
            let (_, _, column) = outer32_hvp(&x, &d);
            for i in 0..n {
                assert_eq!(h[(i, j)].to_bits(), column[i].to_bits(), "({i}, {j})");
            }
        }
        // Closed form: ∂²/∂a² = 2b, ∂²/∂a∂b = −sin b + 2a, ∂²/∂b² = −a·cos b.
        let mut want = DMatrix::<f64>::zeros(n, n);
        for i in 1..n {
            let (a, b) = (x[i - 1] as f64, x[i] as f64);
            want[(i - 1, i - 1)] += 2.0 * b;
            want[(i - 1, i)] += -b.sin() + 2.0 * a;
            want[(i, i - 1)] += -b.sin() + 2.0 * a;
            want[(i, i)] += -a * b.cos();
        }
        for (a, b) in h.iter().zip(want.iter()) {
            assert_relative_eq!(*a as f64, *b, epsilon = 1e-5, max_relative = 1e-5);
        }
    }
}

// ---- the sweeps: ⌈n/K⌉ ----

/// Sweeps of K lanes: a sweep allocates the same whatever its lanes hold
/// (the slice's dual copy, its gradient), so K columns more cost one
/// sweep's allocations (n = K → 2K → 3K), and so does a last group of
/// more than K/2 columns (its idle lanes seeded zero); one column more
/// past a multiple of K costs one `_hvp`'s. With a sweep per column, K
/// columns more would cost K `_hvp`s' allocations.
#[test]
fn k_columns_take_one_sweep() {
    let count = |n: usize| {
        let x = point(n, 11);
        let _ = rosenbrock_hessian(&x);
        allocations_during(|| rosenbrock_hessian(&x)).1
    };
    let sweep = count(2 * K) - count(K);
    assert_eq!(count(3 * K) - count(2 * K), sweep, "a sweep's allocations");
    assert_eq!(count(K + K / 2 + 1), count(2 * K), "a partial sweep's");
    let hvp = count(K + 1) - count(K);
    assert!(hvp > 0);
    assert!(
        sweep < K * hvp,
        "a sweep {sweep} allocations, an `_hvp` {hvp}"
    );
}

// ---- sparse: more colours than lanes ----

/// Every pair of inputs at most 8 apart interacts: a band of half-width
/// 8, so 9 columns in a row are pairwise adjacent and need 9 colours at
/// least, more than `K` = 8.
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

#[test]
fn a_sparse_hessian_of_more_colours_than_lanes_is_the_dense_one() {
    for n in [5, 9, 40] {
        let x = point(n, 17 + n as u64);
        let coloring = wide_band_hessian_pattern(&x);
        if n > K {
            assert!(coloring.colors() > K, "{} colours", coloring.colors());
        }
        let (value, grad, sparse) = wide_band_hessian_sparse(&x, &coloring);
        let (dense_value, dense_grad, dense) = wide_band_hessian(&x);
        assert_eq!(value.to_bits(), dense_value.to_bits());
        assert_eq!(grad, dense_grad);
        let mut full = DMatrix::zeros(n, n);
        for (i, j, &v) in sparse.triplet_iter() {
            full[(i, j)] = v;
        }
        // Entries outside the pattern are structural zeros of the dense one.
        assert_same(&full, &dense, 1e-300, 1e-12, "wide band");
        // The one-column path: `_hvp` along each colour's seed, recovered.
        let mut compressed = Vec::new();
        for c in 0..coloring.colors() {
            compressed.extend(wide_band_hvp(&x, &coloring.seed(c)).2);
        }
        let by_colours = coloring.recover(&compressed);
        for (a, b) in sparse.values().iter().zip(by_colours.values()) {
            assert_relative_eq!(*a, *b, epsilon = 1e-300, max_relative = 1e-12);
        }
        check(
            &format!("wide band n = {n}"),
            &x,
            &dense,
            |v| wide_band_hvp(&x, v).2,
            |y| wide_band_grad(y).1,
        );
    }
}

/// Three colours, at most K/2: one `_hvp` per colour.
#[test]
fn a_sparse_rosenbrock_of_three_colours_is_the_dense_one() {
    for n in [2, 3, K + 5] {
        let x = point(n, 23 + n as u64);
        let coloring = rosenbrock_hessian_pattern(&x);
        let (value, grad, sparse) = rosenbrock_hessian_sparse(&x, &coloring);
        let (_, dense_grad, dense) = rosenbrock_hessian(&x);
        assert_eq!(value.to_bits(), rosenbrock(&x).to_bits());
        assert_eq!(grad, dense_grad);
        for (i, j, &v) in sparse.triplet_iter() {
            assert_relative_eq!(v, dense[(i, j)], epsilon = 1e-300, max_relative = 1e-12);
        }
        assert_eq!(sparse.nnz(), 3 * n - 2);
    }
}
