//! `#[differentiable]` on arrays and `Vec`s: `[f64; N]`, `&[f64; N]` and
//! `Vec<f64>` arguments; local arrays and `Vec`s built, read and written by
//! index (`v[i] = e`, `v[i] += e`, `push`); arrays carried through loops
//! (an RK4 integrator with `[f64; 2]` state); results of several floats
//! (`[f64; N]`, `Vec<f64>`, tuples) with their `_vjp` and `_jacobian`.
//!
//! Every expected derivative comes from five-point central differences of
//! the primal (`fd_support`) or from a closed form; tolerances are stated
//! at each assertion.

// Bodies index arrays in `for i in a..b` loops, the form a
// `#[differentiable]` body iterates in; `&Vec<f64>` arguments, `Vec`
// locals and a plain write reading its own element (`v[1] = v[1] * 0.5`)
// are constructs under test.
#![allow(
    clippy::needless_range_loop,
    clippy::ptr_arg,
    clippy::useless_vec,
    clippy::assign_op_pattern
)]

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::nalgebra::{DMatrix, DVector};
use fd_support::{CF64_ABS, CF64_REL, FD32_ABS, FD32_REL, FD64_ABS, FD64_REL, fd32, fd64_slice};

/// Five-point central difference of an `f64` function at `x`, as
/// `fd_support::fd64` but with a ten times shorter step, `h = 10⁻⁴·max(1,
/// |x|)`: the loops here (an integrator over a parameter, a map iterated
/// twenty times) bend enough that the longer step's truncation error
/// `h⁴·|f⁽⁵⁾|/30` exceeds the tolerance. Rounding, ≈ 1.5·ε·|f|/h ≈
/// 3·10⁻¹²·|f|, stays well inside [`FD64_ABS`] / [`FD64_REL`].
fn fd64(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-4 * x.abs().max(1.0);
    let d1 = f(x + h) - f(x - h);
    let d2 = f(x + 2.0 * h) - f(x - 2.0 * h);
    (8.0 * d1 - d2) / (12.0 * h)
}

/// Central differences of every output of `f` with respect to every entry
/// of `x`: rows are outputs, columns the entries.
fn fd_jacobian(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64]) -> DMatrix<f64> {
    let m = f(x).len();
    let mut j = DMatrix::zeros(m, x.len());
    for c in 0..x.len() {
        for r in 0..m {
            j[(r, c)] = fd64(
                |t| {
                    let mut moved = x.to_vec();
                    moved[c] = t;
                    f(&moved)[r]
                },
                x[c],
            );
        }
    }
    j
}

/// Asserts `a ≈ b` entry by entry within the central differences'
/// tolerance (`FD64_ABS` absolute or `FD64_REL` relative).
fn assert_close(a: &[f64], b: &[f64]) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_relative_eq!(*x, *y, epsilon = FD64_ABS, max_relative = FD64_REL);
    }
}

// ---------------------------------------------------------------------------
// Array and `Vec` arguments read by index.

#[differentiable]
fn weighted_by_value(x: [f64; 3], w: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        s += x[i] * x[i] * w;
    }
    s + x[0] * x[2]
}

#[differentiable]
fn by_reference(x: &[f64; 3]) -> f64 {
    x[0].sin() * x[1] + x[2].exp()
}

#[differentiable]
fn vec_by_value(x: Vec<f64>) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (x[i] * (i as f64 + 1.0)).cos();
    }
    s
}

#[differentiable]
fn vec_by_reference(x: &Vec<f64>, y: [f64; 2]) -> f64 {
    x[0] * y[1] - x[1] * y[0]
}

#[test]
fn array_and_vec_arguments_match_central_differences() {
    let x = [0.3, -1.2, 0.7];
    let (v, dx, dw) = weighted_by_value_grad(x, 1.5);
    assert_eq!(v, weighted_by_value(x, 1.5));
    let fd: Vec<f64> = (0..3)
        .map(|i| {
            fd64(
                |t| {
                    let mut m = x;
                    m[i] = t;
                    weighted_by_value(m, 1.5)
                },
                x[i],
            )
        })
        .collect();
    assert_close(&dx, &fd);
    assert_close(&[dw], &[fd64(|t| weighted_by_value(x, t), 1.5)]);
    // The generated check agrees (its own step and tolerance).
    assert!(weighted_by_value_check(x, 1.5).is_within(1e-7, 1e-6));

    let (_, dx) = by_reference_grad(&x);
    let expected = [x[0].cos() * x[1], x[0].sin(), x[2].exp()];
    for (a, e) in dx.iter().zip(expected) {
        assert_relative_eq!(*a, e, epsilon = 1e-15, max_relative = 1e-15);
    }
    assert!(by_reference_check(&x).is_within(1e-7, 1e-6));

    let xv = vec![0.1, 0.5, -0.4, 2.0];
    let (_, dx) = vec_by_value_grad(xv.clone());
    let expected: Vec<f64> = xv
        .iter()
        .enumerate()
        .map(|(i, x)| -(i as f64 + 1.0) * (x * (i as f64 + 1.0)).sin())
        .collect();
    assert_close(&dx, &expected);
    assert!(vec_by_value_check(xv.clone()).is_within(1e-7, 1e-6));

    let (_, dx, dy) = vec_by_reference_grad(&xv, [2.0, 3.0]);
    assert_eq!((dx[0], dx[1], dx[2]), (3.0, -2.0, 0.0));
    assert_eq!(dy, [-0.5, 0.1]);
}

// ---------------------------------------------------------------------------
// Local arrays and `Vec`s, written by index.

#[differentiable]
fn local_writes(x: f64, y: f64) -> f64 {
    let mut v = [0.0; 3];
    v[0] = x * y;
    v[1] = v[0].sin();
    // Overwritten after being read: the old `v[0]` fed `v[1]`.
    v[0] = y.exp();
    v[2] += v[0] * v[1];
    v[2] -= x;
    v[1] *= y;
    v[0] /= x;
    v[0] + v[1] * v[2]
}

#[differentiable]
fn literal_arrays(x: f64, y: f64) -> f64 {
    let a = [x, y, x * y];
    let mut b = vec![y, x];
    b[1] = a[2] + b[0];
    let c = [x; 4];
    a[0] * b[1] + b.len() as f64 * c[3] * c[1]
}

#[differentiable]
fn pushes(x: f64, n: usize) -> f64 {
    let mut v = Vec::with_capacity(n);
    let mut p = x;
    for _ in 0..n {
        v.push(p);
        p = p * x + 0.5;
    }
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i] * v[i];
    }
    s
}

/// Products of a prefix: each pushed element reads the one before it, by
/// index, in the loop that pushes (finding 034 D).
#[differentiable]
fn prefix_products(q: &[f64]) -> f64 {
    let mut v: Vec<f64> = Vec::new();
    for k in 0..q.len() {
        let a = if k > 0 { v[k - 1] } else { 1.0 };
        v.push(a * q[k]);
    }
    v.iter().sum::<f64>()
}

/// A bootstrap: each discount factor reads the sum of those before it
/// (`dfs.iter().sum()`) in the loop that pushes them (finding 034 D).
#[differentiable]
fn bootstrap_reads_its_vec(q: &[f64]) -> f64 {
    let mut dfs: Vec<f64> = Vec::new();
    for &x in q {
        let annuity: f64 = dfs.iter().sum();
        dfs.push((1.0 - x * annuity) / (1.0 + x));
    }
    dfs.iter().sum::<f64>()
}

/// The sum of the squares pushed before each element, read inside the loop
/// that pushes them and fed to an accumulator, not to the pushed value
/// (finding 034 D, the third program: its reverse sweep panicked).
#[differentiable(jvp, hessian)]
fn prefix_square_sums(q: &[f64]) -> f64 {
    let mut v: Vec<f64> = Vec::new();
    let mut total = 0.0;
    for &x in q {
        let a: f64 = v.iter().sum();
        total += a * x;
        v.push(x * x);
    }
    total
}

/// The square pushed one iteration before, read by index (`v[k - 1]`) in
/// the loop that pushes it (finding 034 D).
#[differentiable(jvp, hessian)]
fn lagged_square_products(q: &[f64]) -> f64 {
    let mut v: Vec<f64> = Vec::new();
    let mut total = 0.0;
    for k in 0..q.len() {
        if k > 0 {
            total += v[k - 1] * q[k];
        }
        v.push(q[k] * q[k]);
    }
    total
}

/// The element two before the end, found by the `Vec`'s length, read in
/// the loop that pushes it (finding 034 D).
#[differentiable(jvp, hessian)]
fn second_last_sines(q: &[f64]) -> f64 {
    let mut v: Vec<f64> = Vec::new();
    let mut total = 0.0;
    for &x in q {
        let n = v.len();
        let a = if n >= 2 { v[n - 2] } else { 0.0 };
        total += a * x + n as f64 * x;
        v.push(x.sin());
    }
    total
}

/// `prefix_square_sums` as a `while` loop (finding 034 D).
#[differentiable(jvp, hessian)]
fn prefix_square_sums_while(q: &[f64]) -> f64 {
    let mut v: Vec<f64> = Vec::new();
    let mut total = 0.0;
    let mut k = 0;
    while k < q.len() {
        let a: f64 = v.iter().sum();
        total += a * q[k];
        v.push(q[k] * q[k]);
        k += 1;
    }
    total
}

#[differentiable]
fn vec_filled_in_loop(x: &[f64]) -> f64 {
    let n = x.len();
    let mut v = vec![0.0; n];
    for i in 0..n {
        v[i] = x[i].sin() * x[(i + 1) % n];
    }
    let mut s = 0.0;
    for i in 0..n {
        s += v[i] * v[(i + 2) % n];
    }
    s
}

/// A `Vec` read inside the loop that pushes to it: every element's adjoint
/// reaches its input. Since f8ce0d0 the entry's adjoint was a zero shaped
/// like the carried adjoint, one element longer than the entry, and every
/// element but the last got 0 (finding 034 D).
#[test]
fn a_vec_read_in_the_loop_that_pushes_it() {
    let q = [0.03, 0.032, 0.035];
    let (v, g) = prefix_products_grad(&q);
    assert_eq!(v, prefix_products(&q));
    // v = [q0, q0 q1, q0 q1 q2]: the closed form of the sum's gradient.
    let want = [1.0 + q[1] + q[1] * q[2], q[0] + q[0] * q[2], q[0] * q[1]];
    for (a, b) in g.iter().zip(&want) {
        assert_relative_eq!(*a, *b, epsilon = CF64_ABS, max_relative = CF64_REL);
    }
    let q = [0.030, 0.032, 0.035, 0.037, 0.038];
    let (v, g) = bootstrap_reads_its_vec_grad(&q);
    assert_eq!(v, bootstrap_reads_its_vec(&q));
    assert_close(&g, &fd64_slice(bootstrap_reads_its_vec, &q));
}

/// Finding 034 D, the third program and its variants: a `Vec` read inside
/// the loop that pushes it, the read feeding an accumulator. The reverse
/// sweep panicked ("popped an empty stack").
#[test]
fn a_vec_read_in_the_loop_that_pushes_it_feeding_an_accumulator() {
    let q = [0.7, -1.2, 0.4, 2.0, -0.3];
    let n = q.len();
    // total = Σ_k x_k Σ_{j<k} x_j²: ∂/∂x_m = Σ_{j<m} x_j² + 2 x_m Σ_{k>m} x_k,
    // ∂²/∂x_m∂x_l = 2 x_min(l,m) off the diagonal, 2 Σ_{k>m} x_k on it.
    let grad = |m: usize| {
        let before: f64 = q[..m].iter().map(|x| x * x).sum();
        let after: f64 = q[m + 1..].iter().sum();
        before + 2.0 * q[m] * after
    };
    let hess = |m: usize, l: usize| match m.cmp(&l) {
        std::cmp::Ordering::Equal => 2.0 * q[m + 1..].iter().sum::<f64>(),
        _ => 2.0 * q[m.min(l)],
    };
    let dir = [0.3, -0.5, 1.1, 0.2, -0.7];
    let along: f64 = (0..n).map(|m| grad(m) * dir[m]).sum();
    for f in [prefix_square_sums, prefix_square_sums_while] {
        assert!(f(&q).is_finite());
    }
    let runs = [
        (
            prefix_square_sums_grad(&q),
            prefix_square_sums_jvp(&q, &dir),
            prefix_square_sums_hessian(&q),
        ),
        (
            prefix_square_sums_while_grad(&q),
            prefix_square_sums_while_jvp(&q, &dir),
            prefix_square_sums_while_hessian(&q),
        ),
    ];
    for ((v, g), (vt, t), (vh, gh, h)) in runs {
        assert_eq!(v, prefix_square_sums(&q));
        assert_eq!((vt, vh), (v, v));
        assert_relative_eq!(t, along, epsilon = CF64_ABS, max_relative = CF64_REL);
        for m in 0..n {
            assert_relative_eq!(g[m], grad(m), epsilon = CF64_ABS, max_relative = CF64_REL);
            assert_relative_eq!(gh[m], grad(m), epsilon = CF64_ABS, max_relative = CF64_REL);
            for l in 0..n {
                let want = hess(m, l);
                assert_relative_eq!(h[(m, l)], want, epsilon = CF64_ABS, max_relative = CF64_REL);
            }
        }
    }
    // The empty slice pushes nothing and reads nothing.
    assert_eq!(prefix_square_sums_grad(&[]), (0.0, vec![]));

    // total = Σ_{k≥1} x_{k-1}² x_k: ∂/∂x_m = x_{m-1}² + 2 x_m x_{m+1}.
    let (v, g) = lagged_square_products_grad(&q);
    assert_eq!(v, lagged_square_products(&q));
    for m in 0..n {
        let left = if m > 0 { q[m - 1] * q[m - 1] } else { 0.0 };
        let right = if m + 1 < n {
            2.0 * q[m] * q[m + 1]
        } else {
            0.0
        };
        assert_relative_eq!(
            g[m],
            left + right,
            epsilon = CF64_ABS,
            max_relative = CF64_REL
        );
    }
    let (_, t) = lagged_square_products_jvp(&q, &dir);
    let want: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_relative_eq!(t, want, epsilon = CF64_ABS, max_relative = CF64_REL);
    let (_, _, h) = lagged_square_products_hessian(&q);
    for m in 0..n {
        for l in 0..n {
            let want = fd64(
                |s| {
                    let mut p = q;
                    p[l] = s;
                    lagged_square_products_grad(&p).1[m]
                },
                q[l],
            );
            assert_relative_eq!(h[(m, l)], want, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
    }

    // total = Σ_{k≥2} sin(x_{k-2}) x_k + Σ_k k x_k:
    // ∂/∂x_m = sin(x_{m-2}) + m + cos(x_m) x_{m+2}.
    let (v, g) = second_last_sines_grad(&q);
    assert_eq!(v, second_last_sines(&q));
    for m in 0..n {
        let left = if m >= 2 { q[m - 2].sin() } else { 0.0 };
        let right = if m + 2 < n {
            q[m].cos() * q[m + 2]
        } else {
            0.0
        };
        let want = left + m as f64 + right;
        assert_relative_eq!(g[m], want, epsilon = CF64_ABS, max_relative = CF64_REL);
    }
    let (_, t) = second_last_sines_jvp(&q, &dir);
    let want: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_relative_eq!(t, want, epsilon = CF64_ABS, max_relative = CF64_REL);
    let (_, _, h) = second_last_sines_hessian(&q);
    for m in 0..n {
        for l in 0..n {
            let want = fd64(
                |s| {
                    let mut p = q;
                    p[l] = s;
                    second_last_sines_grad(&p).1[m]
                },
                q[l],
            );
            assert_relative_eq!(h[(m, l)], want, epsilon = FD64_ABS, max_relative = FD64_REL);
        }
    }
}

#[test]
fn local_array_writes_match_central_differences() {
    for (x, y) in [(0.7, 0.4), (-1.3, 0.9), (2.1, -0.6)] {
        let (v, dx, dy) = local_writes_grad(x, y);
        assert_eq!(v, local_writes(x, y));
        assert_close(
            &[dx, dy],
            &[
                fd64(|t| local_writes(t, y), x),
                fd64(|t| local_writes(x, t), y),
            ],
        );
        let (_, dx, dy) = literal_arrays_grad(x, y);
        assert_close(
            &[dx, dy],
            &[
                fd64(|t| literal_arrays(t, y), x),
                fd64(|t| literal_arrays(x, t), y),
            ],
        );
    }
    for n in [0, 1, 5] {
        let (v, dx) = pushes_grad(0.8, n);
        assert_eq!(v, pushes(0.8, n));
        assert_close(&[dx], &[fd64(|t| pushes(t, n), 0.8)]);
    }
    let x = [0.3, -0.8, 1.1, 0.45, -0.2];
    let (_, dx) = vec_filled_in_loop_grad(&x);
    let fd: Vec<f64> = (0..x.len())
        .map(|i| {
            fd64(
                |t| {
                    let mut m = x;
                    m[i] = t;
                    vec_filled_in_loop(&m)
                },
                x[i],
            )
        })
        .collect();
    assert_close(&dx, &fd);
}

// ---------------------------------------------------------------------------
// The overwritten value needed by a pullback, in a loop: `v[0] =
// v[0].sin()` needs each old `v[0]` in reverse.

#[differentiable]
fn repeated_sine(x: f64, y: f64, n: usize) -> f64 {
    let mut v = vec![x, y];
    for i in 0..n {
        v[0] = v[0].sin();
        v[1] += v[0] * (i as f64);
        v[1] = v[1] * 0.5;
    }
    v[0] * v[1]
}

#[differentiable]
fn carried_array(x: f64, n: usize) -> f64 {
    let mut s = [x, 1.0, 0.0];
    let mut k = 0;
    while k < n {
        let t = s[0] * s[1];
        s = [s[1], t.cos(), s[2] + t];
        s[0] += 0.1 * s[2];
        k += 1;
    }
    s[0] + s[1] * s[2]
}

#[test]
fn overwritten_elements_in_loops_match_central_differences() {
    for n in [0, 1, 7, 40] {
        let (v, dx, dy) = repeated_sine_grad(0.9, -0.3, n);
        assert_eq!(v, repeated_sine(0.9, -0.3, n));
        assert_close(
            &[dx, dy],
            &[
                fd64(|t| repeated_sine(t, -0.3, n), 0.9),
                fd64(|t| repeated_sine(0.9, t, n), -0.3),
            ],
        );
        let (v, dx) = carried_array_grad(0.6, n);
        assert_eq!(v, carried_array(0.6, n));
        assert_close(&[dx], &[fd64(|t| carried_array(t, n), 0.6)]);
    }
}

// ---------------------------------------------------------------------------
// A damped oscillator x'' = −k·x − c·x' by RK4 with `[f64; 2]` state,
// the step's right-hand side a differentiable function returning an array.

#[differentiable(jvp)]
fn oscillator(s: [f64; 2], k: f64, c: f64) -> [f64; 2] {
    [s[1], -k * s[0] - c * s[1]]
}

#[differentiable(jvp)]
fn rk4_oscillator(k: f64, c: f64, steps: usize) -> [f64; 2] {
    let h = 0.01;
    let mut s = [1.0, 0.0];
    for _ in 0..steps {
        let k1 = oscillator(s, k, c);
        let k2 = oscillator([s[0] + 0.5 * h * k1[0], s[1] + 0.5 * h * k1[1]], k, c);
        let k3 = oscillator([s[0] + 0.5 * h * k2[0], s[1] + 0.5 * h * k2[1]], k, c);
        let k4 = oscillator([s[0] + h * k3[0], s[1] + h * k3[1]], k, c);
        s = [
            s[0] + h / 6.0 * (k1[0] + 2.0 * k2[0] + 2.0 * k3[0] + k4[0]),
            s[1] + h / 6.0 * (k1[1] + 2.0 * k2[1] + 2.0 * k3[1] + k4[1]),
        ];
    }
    s
}

#[test]
fn rk4_jacobian_matches_central_differences() {
    let (k, c, steps) = (4.0, 0.3, 300);
    let (value, j) = rk4_oscillator_jacobian(k, c, steps);
    assert_eq!(value, rk4_oscillator(k, c, steps));
    assert_eq!(j.shape(), (2, 2));
    let fd = fd_jacobian(|p| rk4_oscillator(p[0], p[1], steps).to_vec(), &[k, c]);
    assert_close(j.as_slice(), fd.as_slice());
    // The state after three seconds depends on both parameters.
    assert!(j.iter().all(|d| d.abs() > 1e-3), "{j}");

    // `_vjp` with any seed is that seed times the Jacobian.
    let seed = [0.7, -1.9];
    let (_, pullback) = rk4_oscillator_vjp(k, c, steps);
    let (dk, dc) = pullback(seed);
    let expected = DMatrix::from_row_slice(1, 2, &seed) * &j;
    assert_relative_eq!(dk, expected[0], epsilon = 1e-14, max_relative = 1e-12);
    assert_relative_eq!(dc, expected[1], epsilon = 1e-14, max_relative = 1e-12);
}

#[test]
fn rk4_jvp_is_jacobian_times_direction() {
    let (k, c, steps) = (4.0, 0.3, 300);
    let (_, j) = rk4_oscillator_jacobian(k, c, steps);
    let v = [0.7, -1.9];
    let (value, t) = rk4_oscillator_jvp(k, c, steps, v[0], v[1]);
    assert_eq!(value, rk4_oscillator(k, c, steps));
    // Forward and reverse sweeps agree to rounding (dot-product identity).
    let expected = &j * DVector::from_column_slice(&v);
    assert_relative_eq!(t[0], expected[0], epsilon = 1e-14, max_relative = 1e-12);
    assert_relative_eq!(t[1], expected[1], epsilon = 1e-14, max_relative = 1e-12);
    // And central differences along v.
    let along = |r: usize| {
        fd64(
            |h| rk4_oscillator(k + h * v[0], c + h * v[1], steps)[r],
            0.0,
        )
    };
    assert_close(&t, &[along(0), along(1)]);

    // An array argument's tangent, `&[f64; 2]`: the closed form.
    let (s, ds) = ([0.4, -1.1], [0.3, 2.0]);
    let (value, t) = oscillator_jvp(s, k, c, &ds, 0.5, -0.25);
    assert_eq!(value, oscillator(s, k, c));
    let expected = [ds[1], -0.5 * s[0] - k * ds[0] + 0.25 * s[1] - c * ds[1]];
    assert_relative_eq!(t[0], expected[0], epsilon = 1e-15, max_relative = 1e-14);
    assert_relative_eq!(t[1], expected[1], epsilon = 1e-15, max_relative = 1e-14);
}

// ---------------------------------------------------------------------------
// Results of several floats.

#[differentiable]
fn softmax(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut m = x[0];
    for i in 1..n {
        m = m.max(x[i]);
    }
    let mut e = vec![0.0; n];
    let mut total = 0.0;
    for i in 0..n {
        e[i] = (x[i] - autograd::stop_gradient(m)).exp();
        total += e[i];
    }
    for i in 0..n {
        e[i] /= total;
    }
    e
}

#[differentiable]
fn polar(r: f64, theta: f64, offset: [f64; 2]) -> (f64, f64) {
    (r * theta.cos() + offset[0], r * theta.sin() * offset[1])
}

#[test]
fn jacobians_of_vec_and_tuple_results() {
    let x = [0.2, -1.0, 0.7, 1.4];
    let (value, j) = softmax_jacobian(&x);
    assert_eq!(value, softmax(&x));
    // d softmax_i / d x_j = s_i (δ_ij − s_j).
    for r in 0..4 {
        for c in 0..4 {
            let delta = if r == c { 1.0 } else { 0.0 };
            let expected = value[r] * (delta - value[c]);
            assert_relative_eq!(j[(r, c)], expected, epsilon = 1e-15, max_relative = 1e-12);
        }
    }

    let (value, j) = polar_jacobian(1.5, 0.6, [0.25, 2.0]);
    assert_eq!(value, polar(1.5, 0.6, [0.25, 2.0]));
    // Columns: r, θ, offset[0], offset[1].
    assert_eq!(j.shape(), (2, 4));
    let fd = fd_jacobian(
        |p| {
            let (a, b) = polar(p[0], p[1], [p[2], p[3]]);
            vec![a, b]
        },
        &[1.5, 0.6, 0.25, 2.0],
    );
    assert_close(j.as_slice(), fd.as_slice());

    let (_, pullback) = polar_vjp(1.5, 0.6, [0.25, 2.0]);
    let (dr, dtheta, doffset) = pullback((2.0, -0.5));
    let row = [dr, dtheta, doffset[0], doffset[1]];
    for (c, d) in row.iter().enumerate() {
        let expected = 2.0 * j[(0, c)] - 0.5 * j[(1, c)];
        assert_relative_eq!(*d, expected, epsilon = 1e-15, max_relative = 1e-14);
    }
}

// ---------------------------------------------------------------------------
// `f32`.

#[differentiable]
fn f32_arrays(x: [f32; 2], y: f32) -> f32 {
    let mut v = [0.0_f32; 3];
    v[0] = x[0] * y;
    v[1] = v[0].sin() + x[1];
    v[0] = v[1] * v[1];
    v[2] += v[0] * x[0];
    v[2]
}

#[test]
fn f32_array_matches_central_differences() {
    let (x, y) = ([0.75_f32, -0.5], 1.25_f32);
    let (v, dx, dy) = f32_arrays_grad(x, y);
    assert_eq!(v, f32_arrays(x, y));
    let fd = [
        fd32(|t| f32_arrays([t, x[1]], y), x[0]),
        fd32(|t| f32_arrays([x[0], t], y), x[1]),
        fd32(|t| f32_arrays(x, t), y),
    ];
    for (a, e) in [dx[0], dx[1], dy].into_iter().zip(fd) {
        assert_relative_eq!(f64::from(a), e, epsilon = FD32_ABS, max_relative = FD32_REL);
    }
}

// ---------------------------------------------------------------------------
// Arrays through branches, an argument as a loop's state, and calls.

#[differentiable]
fn branches_and_arrays(x: f64, y: f64, flip: bool) -> f64 {
    let mut v = if flip { [x, y] } else { [y, x] };
    if x > 0.0 {
        v[0] = v[1] * x;
    } else {
        v[1] += y;
    }
    v[0] * v[1].exp()
}

#[differentiable]
fn state_from_argument(s0: [f64; 2], h: f64, n: usize) -> f64 {
    let mut s = s0;
    for _ in 0..n {
        // Reads in a branch: the state's adjoint exists before the branch.
        if s[0] > 0.0 {
            s[1] -= h * s[0];
        } else {
            s[1] += h * s[0] * s[0];
        }
        s[0] += h * s[1];
    }
    s[0] * s[1]
}

#[differentiable]
fn scaled(x: f64, k: f64) -> f64 {
    x * k.sin()
}

#[differentiable]
fn calls_in_vector(x: &[f64], k: f64) -> Vec<f64> {
    let mut out = Vec::with_capacity(x.len());
    for i in 0..x.len() {
        out.push(scaled(x[i], k) + x[i] * x[i]);
    }
    out
}

#[differentiable]
fn via_vector(x: &[f64], k: f64) -> f64 {
    let v = calls_in_vector(x, k);
    v[0] * v[1] + v[2]
}

#[test]
fn arrays_in_branches_loops_and_calls_match_central_differences() {
    for flip in [false, true] {
        for (x, y) in [(0.7, -0.4), (-0.6, 0.3)] {
            let (_, dx, dy) = branches_and_arrays_grad(x, y, flip);
            assert_close(
                &[dx, dy],
                &[
                    fd64(|t| branches_and_arrays(t, y, flip), x),
                    fd64(|t| branches_and_arrays(x, t, flip), y),
                ],
            );
        }
    }

    let s0 = [0.4, -0.9];
    let (_, ds, dh) = state_from_argument_grad(s0, 0.1, 25);
    let fd = [
        fd64(|t| state_from_argument([t, s0[1]], 0.1, 25), s0[0]),
        fd64(|t| state_from_argument([s0[0], t], 0.1, 25), s0[1]),
        fd64(|t| state_from_argument(s0, t, 25), 0.1),
    ];
    assert_close(&[ds[0], ds[1], dh], &fd);
    // `_grad_acc` adds into the caller's buffers.
    let (mut d_s, mut d_h) = ([1.0, 1.0], 1.0);
    let v = state_from_argument_grad_acc(s0, 0.1, 25, &mut d_s, &mut d_h);
    assert_eq!(v, state_from_argument(s0, 0.1, 25));
    assert_eq!((d_s, d_h), ([ds[0] + 1.0, ds[1] + 1.0], dh + 1.0));

    let x = [0.5, -1.1, 0.8];
    let (value, j) = calls_in_vector_jacobian(&x, 0.9);
    assert_eq!(value, calls_in_vector(&x, 0.9));
    let fd = fd_jacobian(|p| calls_in_vector(&p[..3], p[3]), &[x[0], x[1], x[2], 0.9]);
    assert_close(j.as_slice(), fd.as_slice());

    let (_, dx, dk) = via_vector_grad(&x, 0.9);
    let at = |p: &[f64]| via_vector(&p[..3], p[3]);
    let p = [x[0], x[1], x[2], 0.9];
    let fd: Vec<f64> = (0..4)
        .map(|i| {
            fd64(
                |t| {
                    let mut m = p;
                    m[i] = t;
                    at(&m)
                },
                p[i],
            )
        })
        .collect();
    assert_close(&[dx[0], dx[1], dx[2], dk], &fd);
}

#[differentiable]
fn scaled_vector(x: &DVector<f64>, s: f64) -> DVector<f64> {
    x * s
}

#[test]
fn jacobian_of_a_dvector_result() {
    let x = DVector::from_vec(vec![1.0, -2.0, 0.5]);
    let (value, j) = scaled_vector_jacobian(&x, 3.0);
    assert_eq!(value, &x * 3.0);
    // Columns: x (three entries), then s.
    let mut expected = DMatrix::zeros(3, 4);
    for i in 0..3 {
        expected[(i, i)] = 3.0;
        expected[(i, 3)] = x[i];
    }
    assert_eq!(j, expected);
}

// ---------------------------------------------------------------------------
// A checkpointed loop carrying an array, in a function with a Jacobian.

#[differentiable]
fn euler_checkpointed(k: f64, c: f64, steps: usize) -> [f64; 2] {
    let h = 0.01;
    let mut s = [1.0, 0.0];
    #[checkpoint(snapshots = 4)]
    for _ in 0..steps {
        let d = oscillator(s, k, c);
        s[0] += h * d[0];
        s[1] += h * d[1];
    }
    s
}

#[test]
fn checkpointed_array_state_matches_central_differences() {
    let (value, j) = euler_checkpointed_jacobian(4.0, 0.3, 200);
    assert_eq!(value, euler_checkpointed(4.0, 0.3, 200));
    let fd = fd_jacobian(
        |p| euler_checkpointed(p[0], p[1], 200).to_vec(),
        &[4.0, 0.3],
    );
    assert_close(j.as_slice(), fd.as_slice());
}

// ---------------------------------------------------------------------------
// A `Vec` made afresh in each iteration of an outer loop, and an `f32`
// vector result.

#[differentiable]
fn nested_vec_loops(x: &[f64], sweeps: usize) -> f64 {
    let n = x.len();
    let mut total = 0.0;
    for s in 0..sweeps {
        let mut v = vec![0.0; n];
        for i in 0..n {
            v[i] = x[i] * (s as f64 + 1.0) + total * 0.1;
        }
        for i in 0..n {
            total += v[i].sin();
        }
    }
    total
}

#[differentiable]
fn f32_scaled(x: Vec<f32>, k: f32) -> Vec<f32> {
    let mut out = x;
    for i in 0..out.len() {
        let xi = out[i];
        out[i] *= k * xi;
    }
    out
}

#[test]
fn fresh_vecs_in_loops_and_f32_jacobians() {
    let x = [0.4, -0.7, 1.3];
    let (_, dx) = nested_vec_loops_grad(&x, 3);
    let fd: Vec<f64> = (0..3)
        .map(|i| {
            fd64(
                |t| {
                    let mut m = x;
                    m[i] = t;
                    nested_vec_loops(&m, 3)
                },
                x[i],
            )
        })
        .collect();
    assert_close(&dx, &fd);

    // out_i = k·x_i²: ∂/∂x_i = 2k·x_i, ∂/∂k = x_i², exact in f32 at these
    // dyadic points.
    let x = vec![0.5_f32, -1.25, 2.0];
    let (value, j) = f32_scaled_jacobian(x.clone(), 1.5);
    assert_eq!(value, f32_scaled(x.clone(), 1.5));
    let mut expected = DMatrix::zeros(3, 4);
    for i in 0..3 {
        expected[(i, i)] = f64::from(2.0 * 1.5 * x[i]);
        expected[(i, 3)] = f64::from(x[i] * x[i]);
    }
    assert_eq!(j, expected);
}

#[test]
#[should_panic(expected = "autograd: the seed has 2 elements, the result 4")]
fn a_vec_seed_of_another_length_is_reported() {
    let (_, pullback) = softmax_vjp(&[0.2, -1.0, 0.7, 1.4]);
    let _ = pullback(vec![1.0, 0.0]);
}

// ---------------------------------------------------------------------------
// Arrays destructured by `let [a, b] = ..`: reads by constant index.

#[differentiable]
fn destructured_by_value(state: [f64; 2], k: f64) -> [f64; 2] {
    let [p, q] = state;
    [p + 0.1 * q, q - 0.1 * k * p.sin()]
}

#[differentiable]
fn destructured_by_reference(params: &[f64; 3], t: f64) -> f64 {
    let [a, _, c] = *params;
    let local = [a * t, c.exp(), params[1]];
    let [u, v, w] = local;
    u * v + w * w
}

#[test]
fn array_destructuring_matches_central_differences() {
    let (s, k) = ([0.4, -0.9], 2.5);
    let plain = |x: &[f64]| destructured_by_value([x[0], x[1]], x[2]).to_vec();
    let jac = fd_jacobian(plain, &[s[0], s[1], k]);
    for r in 0..2 {
        let (value, pullback) = destructured_by_value_vjp(s, k);
        assert_eq!(value, destructured_by_value(s, k));
        let mut seed = [0.0; 2];
        seed[r] = 1.0;
        let (ds, dk) = pullback(seed);
        let want: Vec<f64> = jac.row(r).iter().copied().collect();
        assert_close(&[ds[0], ds[1], dk], &want);
    }

    let (p, t) = ([0.7, -0.3, 0.2], 1.4);
    let (value, dp, dt) = destructured_by_reference_grad(&p, t);
    assert_eq!(value, destructured_by_reference(&p, t));
    let fd: Vec<f64> = (0..3)
        .map(|i| {
            fd64(
                |x| {
                    let mut m = p;
                    m[i] = x;
                    destructured_by_reference(&m, t)
                },
                p[i],
            )
        })
        .collect();
    assert_close(&dp, &fd);
    assert_close(&[dt], &[fd64(|x| destructured_by_reference(&p, x), t)]);
}

// `a.map(|v| ..)` of an array: written in place, a local, an argument by
// value or by reference; with a closure or a function path.

#[differentiable]
fn mapped_literal(x: f64) -> f64 {
    let v = [1.0, 2.0, 3.0].map(|c| c * x);
    v.iter().sum::<f64>()
}

#[differentiable]
fn mapped_arguments(s: [f64; 2], w: &[f64; 2], h: f64) -> f64 {
    let k = [s[0] * h, s[1] + h];
    let squares = k.map(|v| v * v);
    let sines = w.map(f64::sin);
    squares[0] * sines[1] + squares[1]
}

#[test]
fn array_map_against_closed_forms() {
    assert_eq!(mapped_literal_grad(2.0), (12.0, 6.0));
    let (s, w, h) = ([1.0, 2.0], [0.5, 0.25], 0.5);
    let (value, ds, dw, dh) = mapped_arguments_grad(s, &w, h);
    assert_eq!(value.to_bits(), mapped_arguments(s, &w, h).to_bits());
    // f = (s0·h)²·sin w1 + (s1 + h)².
    let (a, b) = (s[0] * h, s[1] + h);
    assert_eq!(ds, [2.0 * a * h * w[1].sin(), 2.0 * b]);
    assert_eq!(dw, [0.0, a * a * w[1].cos()]);
    assert_eq!(dh, 2.0 * a * s[0] * w[1].sin() + 2.0 * b);
}

/// One pass of a bubble sort over a copy (`to_owned`), elements swapped
/// with `swap`, the empty input tested with `is_empty`.
#[differentiable]
fn sorted_weights(x: &[f64], w: &[f64; 3]) -> f64 {
    if x.is_empty() {
        return 0.0;
    }
    let mut v = x.to_owned();
    for i in 0..v.len() - 1 {
        if v[i] > v[i + 1] {
            v.swap(i, i + 1);
        }
    }
    let mut s = [w[0], w[1], w[2]];
    s.swap(0, 2);
    v[0] * s[0] + v[v.len() - 1] * s[1] * v[0]
}

#[test]
fn swap_is_empty_and_to_owned_have_the_closed_form() {
    // [2, 3, 1]: the pass gives [2, 1, 3]; s = [w2, w1, w0].
    // f = v0 w2 + v2 w1 v0 = x0 w2 + x1 w1 x0.
    let (x, w) = ([2.0, 3.0, 1.0], [0.5, -1.0, 4.0]);
    let (v, dx, dw) = sorted_weights_grad(&x, &w);
    assert_eq!(v, sorted_weights(&x, &w));
    assert_eq!(v, 2.0 * 4.0 - 3.0 * 2.0);
    assert_eq!(dx, vec![4.0 - 3.0, -2.0, 0.0]);
    assert_eq!(dw, [0.0, 6.0, 2.0]);
    let (v, dx, dw) = sorted_weights_grad(&[], &w);
    assert_eq!((v, dx.len(), dw), (0.0, 0, [0.0; 3]));
}
