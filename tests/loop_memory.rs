//! What a loop's reverse sweep holds in memory: the entry values it reads,
//! always; the results of its expensive operations only while they fit in
//! the cache's budget (`autograd::__private::Cache::BUDGET`, 1 MiB for the
//! whole loop). A longer loop recomputes them, so a loop whose reverse
//! reads no entry value holds nothing however long it runs.
//!
//! A counting global allocator measures the bytes `NAME_grad` asks for on
//! the test's thread; expected derivatives are closed forms evaluated by a
//! plain loop. Each test measures its thread's first call, whose buffer
//! pool (`autograd_runtime::pool`) is empty: the bytes asked for are the
//! bytes the call holds.

use std::hint::black_box;

use approx::relative_eq;
use autograd::differentiable;

mod alloc_support;
use alloc_support::{bytes_during, peak_during};

mod fd_support;
use fd_support::{assert_fd64_close, fd64};

/// Σ exp(x·i/n): the reverse reads each exp, and no carried value.
#[differentiable]
fn sum_of_exps(x: f64, n: usize) -> f64 {
    let mut s = 0.0;
    for i in 0..n {
        s += (x * (i as f64) / (n as f64)).exp();
    }
    s
}

/// d/dx Σ exp(x·cᵢ) = Σ cᵢ·exp(x·cᵢ).
fn sum_of_exps_derivative(x: f64, n: usize) -> f64 {
    (0..n)
        .map(|i| {
            let c = i as f64 / n as f64;
            c * (x * c).exp()
        })
        .sum()
}

/// A running sum at the top level is fused: its forward sweep adds each
/// iteration's adjoint as it goes, so nothing is kept for a reverse loop,
/// short or long. (The cache is measured on `relaxation` and on the inner
/// loops of `nested_sums`, which are not fused.)
#[test]
fn a_fused_running_sum_holds_nothing() {
    let n = 1000;
    let ((value, dx), bytes) = bytes_during(|| sum_of_exps_grad(black_box(0.4), black_box(n)));
    assert_eq!(value, sum_of_exps(0.4, n));
    let expected = sum_of_exps_derivative(0.4, n);
    assert!(
        (dx - expected).abs() <= 1e-12 * expected,
        "{dx} vs {expected}"
    );
    assert_eq!(bytes, 0);
}

#[test]
fn a_long_fused_running_sum_holds_nothing() {
    // 8 MiB of exps if they were kept: eight times the cache's budget.
    let n = 1 << 20;
    let ((value, dx), bytes) = bytes_during(|| sum_of_exps_grad(black_box(0.4), black_box(n)));
    assert_eq!(value, sum_of_exps(0.4, n));
    let expected = sum_of_exps_derivative(0.4, n);
    assert!(
        (dx - expected).abs() <= 1e-11 * expected,
        "{dx} vs {expected}"
    );
    assert_eq!(bytes, 0);
}

/// s ← s + exp(−s)/1000, n times: the reverse reads each exp, and
/// recomputing one reads the entry value s.
#[differentiable]
fn relaxation(x: f64, n: usize) -> f64 {
    let mut s = x;
    for _ in 0..n {
        s += (-s).exp() / 1000.0;
    }
    s
}

/// ds/dx by forward mode: d(s + e^−s/1000) = ds·(1 − e^−s/1000).
fn relaxation_derivative(x: f64, n: usize) -> f64 {
    let (mut s, mut ds) = (x, 1.0);
    for _ in 0..n {
        let e = (-s).exp();
        ds *= 1.0 - e / 1000.0;
        s += e / 1000.0;
    }
    ds
}

#[test]
fn a_loop_keeps_the_entry_values_a_cache_miss_reads() {
    // Under the budget: each entry value and each exp. Over it (200 000
    // exps are 1.6 MB): the entry values only.
    for (n, per_iteration) in [(1000, 16), (200_000, 8)] {
        let ((value, dx), bytes) = bytes_during(|| relaxation_grad(black_box(0.3), black_box(n)));
        assert_eq!(value, relaxation(0.3, n));
        let expected = relaxation_derivative(0.3, n);
        assert!(
            (dx - expected).abs() <= 1e-12 * expected.abs(),
            "n = {n}: {dx} vs {expected}"
        );
        assert_eq!(bytes, per_iteration * n, "n = {n}");
    }
}

/// An inner loop of 1 000, then 200 000, then 1 000 iterations (reversed:
/// the same), each caching its exps only while they fit.
#[differentiable]
fn nested_sums(x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..3 {
        let m = 1000 + (i % 2) * 199_000;
        let mut t = 0.0;
        for j in 0..m {
            t += (x * (j as f64) / (m as f64)).exp();
        }
        s += t * t / 1e6;
    }
    s
}

#[test]
fn an_inner_loop_caches_each_run_that_fits() {
    let ((value, dx), bytes) = bytes_during(|| nested_sums_grad(black_box(0.4)));
    assert_eq!(value, nested_sums(0.4));
    // d/dx Σᵢ tᵢ²/10⁶ = Σᵢ 2·tᵢ·tᵢ'/10⁶.
    let expected: f64 = [1000, 200_000, 1000]
        .iter()
        .map(|&m| {
            let t: f64 = (0..m).map(|j| (0.4 * (j as f64) / (m as f64)).exp()).sum();
            2.0 * t * sum_of_exps_derivative(0.4, m) / 1e6
        })
        .sum();
    assert!(
        (dx - expected).abs() <= 1e-11 * expected,
        "{dx} vs {expected}"
    );
    // A short run's exps; the long run's are recomputed, and the long run
    // gives the first run's buffer back to the thread's pool, where the
    // third run takes it again. The inner loop is taped (its forward run
    // caches, the outer loop's reverse does not run it again), so its
    // cache's budget holds for the three runs together: the long run
    // empties it, and the first run's exps are recomputed too. The outer
    // loop keeps each run's `t` instead (three floats, in a block of
    // four) rather than running the inner loop again to recover it.
    assert_eq!(bytes, 8 * 1000 + 8 * 4);
}

// ---------------------------------------------------------------------------
// A loop writing one element of a local array per iteration keeps that
// element, not the array (issue 35: the `while` form kept a copy of the
// whole array per iteration, 1.13 GB at n = 12 000, where the `for` form
// kept 3.4 MB). Each form below makes n passes of vₖ ← vₖ·x + c over
// k = i mod m on an array of m elements; the reverse sweep's peak must be
// O(n + m), far below the n·m·8 bytes of a copy per iteration.

#[differentiable]
fn passes_for(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = vec![1.0; m];
    for i in 0..n {
        let k = i % m;
        v[k] = v[k] * x + c;
    }
    v[0] + v[m - 1]
}

#[differentiable]
fn passes_while(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = vec![1.0; m];
    let mut i = 0;
    while i < n {
        let k = i % m;
        v[k] = v[k] * x + c;
        i += 1;
    }
    v[0] + v[m - 1]
}

#[differentiable]
fn passes_loop(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = vec![1.0; m];
    let mut i = 0;
    loop {
        if i >= n {
            break;
        }
        let k = i % m;
        v[k] = v[k] * x + c;
        i += 1;
    }
    v[0] + v[m - 1]
}

/// The `while` form on a fixed-size array (m = 256).
#[differentiable]
fn passes_array(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = [1.0; 256];
    let mut i = 0;
    while i < n {
        let k = i % m;
        v[k] = v[k] * x + c;
        i += 1;
    }
    v[0] + v[m - 1]
}

type Passes = fn(f64, f64, usize, usize) -> f64;
type PassesGrad = fn(f64, f64, usize, usize) -> (f64, f64, f64);

#[test]
fn a_loop_writing_one_element_keeps_that_element() {
    let forms: [(&str, Passes, PassesGrad, usize); 4] = [
        ("for", passes_for, passes_for_grad, 500),
        ("while", passes_while, passes_while_grad, 500),
        ("loop", passes_loop, passes_loop_grad, 500),
        ("array", passes_array, passes_array_grad, 256),
    ];
    let (x, c) = (0.999, 0.01);
    for (form, f, grad, m) in forms {
        let n = 4000;
        // On a thread of its own: the thread's buffer pool starts empty.
        let ((value, dx, dc), peak) = std::thread::spawn(move || {
            peak_during(|| grad(black_box(x), black_box(c), black_box(n), m))
        })
        .join()
        .unwrap();
        assert_eq!(value, f(x, c, n, m), "{form}");
        assert_fd64_close(form, dx, fd64(|x| f(x, c, n, m), x));
        assert_fd64_close(form, dc, fd64(|c| f(x, c, n, m), c));
        // Per iteration an index and the element (16 bytes; a growing
        // stack holds its old and new blocks at once while it moves:
        // 48), and the array's value and adjoint (a fixed-size one is
        // on the stack): 64 bytes per iteration and 32 per element bound
        // it. A copy of the array per iteration would be 16 MB.
        let bound = 64 * n + 32 * m;
        assert!(peak <= bound, "{form}: {peak} bytes at peak, bound {bound}");
    }
}

// ---------------------------------------------------------------------------
// The same write under a branch (issue 35's "every loop form"): the arm's
// reverse reads the element the arm overwrote, which the loop keeps, one
// float per iteration (a zero where the arm did not run), instead of a copy
// of the whole array per iteration.

#[differentiable]
fn branched_passes_for(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = vec![1.0; m];
    for i in 0..n {
        let k = i % m;
        if i % 3 != 0 {
            v[k] = v[k] * x + c;
        }
    }
    v[0] + v[m - 1]
}

#[differentiable]
fn branched_passes_while(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = vec![1.0; m];
    let mut i = 0;
    while i < n {
        let k = i % m;
        if i % 3 != 0 {
            v[k] = v[k] * x + c;
        }
        i += 1;
    }
    v[0] + v[m - 1]
}

/// A write in each arm, under a condition on the array itself (at x = 1.1,
/// c = 0.3 no element comes within 0.16 of 2, so the central differences
/// take the same branches).
#[differentiable]
fn branched_passes_both_arms(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = vec![1.0; m];
    let mut i = 0;
    while i < n {
        let k = i % m;
        if v[k] < 2.0 {
            v[k] = v[k] * x + c;
        } else {
            v[k] = v[k] * c + x;
        }
        i += 1;
    }
    v[0] + v[m - 1]
}

/// The `for` form on a fixed-size array (m = 256).
#[differentiable]
fn branched_passes_array(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = [1.0; 256];
    for i in 0..n {
        let k = i % m;
        if i % 3 != 0 {
            v[k] = v[k] * x + c;
        }
    }
    v[0] + v[m - 1]
}

#[test]
fn a_loop_writing_one_element_under_a_branch_keeps_that_element() {
    let forms: [(&str, Passes, PassesGrad, usize); 4] = [
        ("for", branched_passes_for, branched_passes_for_grad, 500),
        (
            "while",
            branched_passes_while,
            branched_passes_while_grad,
            500,
        ),
        (
            "both arms",
            branched_passes_both_arms,
            branched_passes_both_arms_grad,
            500,
        ),
        (
            "array",
            branched_passes_array,
            branched_passes_array_grad,
            256,
        ),
    ];
    let (x, c) = (1.1, 0.3);
    let peak = |grad: PassesGrad, n: usize, m: usize| {
        // On a thread of its own: the thread's buffer pool starts empty.
        std::thread::spawn(move || {
            peak_during(|| grad(black_box(x), black_box(c), black_box(n), m))
        })
        .join()
        .unwrap()
    };
    for (form, f, grad, m) in forms {
        let n = 4000;
        let ((value, dx, dc), at_n) = peak(grad, n, m);
        assert_eq!(value, f(x, c, n, m), "{form}");
        assert_fd64_close(form, dx, fd64(|x| f(x, c, n, m), x));
        assert_fd64_close(form, dc, fd64(|c| f(x, c, n, m), c));
        // The reverse of each iteration makes the array's adjoint afresh,
        // and the thread's pool keeps up to 64 freed arrays
        // (`autograd_runtime::pool::MAX_BLOCKS`): about 67 arrays at peak
        // whatever the trip count. A copy of the array per iteration
        // would be 16 MB.
        let bound = 64 * n + 600 * m;
        assert!(at_n <= bound, "{form}: {at_n} bytes at peak, bound {bound}");
        // Twice the iterations: at most 64 more bytes each (a copy per
        // iteration would add 8·m).
        let (_, at_2n) = peak(grad, 2 * n, m);
        assert!(
            at_2n <= at_n + 64 * n,
            "{form}: {at_n} bytes at peak for {n} iterations, {at_2n} for {}",
            2 * n
        );
    }
}

/// A write in a branch nested in an arm: the element is handed out of both
/// branches. (Its reverse still makes the inner branch's array adjoint
/// shaped like the array, so the array is saved per iteration: only the
/// gradient is checked here.)
#[differentiable]
fn nested_branch_passes(x: f64, c: f64, n: usize, m: usize) -> f64 {
    let mut v = vec![1.0; m];
    for i in 0..n {
        let k = i % m;
        if i % 3 != 0 {
            if i % 2 == 0 {
                v[k] = v[k] * x + c;
            } else {
                v[k] = v[k] * c + x;
            }
        }
    }
    v[0] + v[m - 1]
}

#[test]
fn a_write_in_a_nested_branch_has_the_right_gradient() {
    let (x, c, n, m) = (0.9, 0.3, 400, 50);
    let (value, dx, dc) = nested_branch_passes_grad(x, c, n, m);
    assert_eq!(value, nested_branch_passes(x, c, n, m));
    assert_fd64_close("nested", dx, fd64(|x| nested_branch_passes(x, c, n, m), x));
    assert_fd64_close("nested", dc, fd64(|c| nested_branch_passes(x, c, n, m), c));
}

// ---------------------------------------------------------------------------
// Arrays an iteration overwrites only in part (the save/recompute plan's
// kill analysis): the entry value of a carried array is dead only when the
// body writes every element before reading any. Each case reads some
// element of the entry value, so the reverse must have it; an analysis that
// took these writes for a full overwrite would compute from a stale or
// zeroed array and miss the central differences.

/// Writes elements 0..d-1, then reads all d: element d-1 carries over.
/// (Indexed loops on purpose: the analysis reads `a[j]` stores.)
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn partly_overwritten(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut a = vec![0.5; d];
    let mut s = 0.0;
    for _ in 0..n {
        for j in 0..d - 1 {
            a[j] = (x * w[j]).sin();
        }
        for j in 0..d {
            s += a[j] * a[j];
        }
        a[d - 1] = a[d - 1] * x + a[0];
    }
    s
}

/// Writes every element, but reads a later one before it is written.
#[differentiable]
fn read_before_written(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut a = vec![0.5; d];
    let mut s = 0.0;
    for _ in 0..n {
        for j in 0..d {
            a[j] = a[d - 1 - j] * x + w[j];
        }
        s += a[0] * a[d - 1];
    }
    s
}

/// Writes the first d elements of an array that grows by one each
/// iteration, then reads the element the previous iteration pushed.
#[differentiable]
fn overwritten_then_grown(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut a = vec![0.5; d];
    let mut s = 0.0;
    for _ in 0..n {
        for j in 0..d {
            a[j] = x * w[j] + 1.0;
        }
        s += a[a.len() - 1] * a[0];
        a.push(s.sin());
    }
    s
}

/// Writes every element before reading any (GMM's `xcentered`): the
/// entry value is dead, and the gradient is the same either way.
#[differentiable]
fn fully_overwritten(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut a = vec![0.5; d];
    let mut s = 0.0;
    for i in 0..n {
        for j in 0..d {
            a[j] = (x * w[j] + i as f64).sin();
        }
        for j in 0..d {
            s += a[j] * a[d - 1 - j] * x;
        }
    }
    s
}

/// Writes every element in a loop nested two deep (GMM's `xcentered` in
/// the point and component loops): the middle loop's reverse takes its
/// buffer from a spare the outer loop passes on from one iteration to the
/// next, which must hold an array of the right length.
#[differentiable]
fn overwritten_two_loops_deep(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut a = vec![0.5; d];
    let mut s = 0.0;
    for i in 0..n {
        for k in 0..3 {
            for j in 0..d {
                a[j] = x * w[j] - (i * k) as f64;
            }
            for j in 0..d {
                s += a[j] * a[d - 1 - j] * x;
            }
        }
    }
    s
}

/// The same, the outer loop growing the array after the inner ones: its
/// length differs from one outer iteration to the next, so no buffer may
/// pass between them, and the element pushed last is read.
#[differentiable]
fn overwritten_two_loops_deep_grown(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut a = vec![0.5; d];
    let mut s = 0.0;
    for i in 0..n {
        for k in 0..3 {
            for j in 0..d {
                a[j] = x * w[j] - (i * k) as f64;
            }
            s += a[a.len() - 1] * a[0] * x;
        }
        a.push(s.cos());
    }
    s
}

/// A differentiable helper reading a whole slice.
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn sum_of_squares(t: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..t.len() {
        s += t[i] * t[i];
    }
    s
}

/// A `Vec` an inner loop fills with expensive elements, kept per outer
/// iteration for a call's reverse (GMM's `main_term`, kept as rows of one
/// buffer), then written after the call, in a loop nested in another (the
/// rows of a nested loop, reserved at each of its starts).
#[differentiable]
fn kept_rows_nested(x: f64, w: &[f64], n: usize) -> f64 {
    let d = w.len();
    let mut t = vec![0.0; d];
    let mut s = 0.0;
    for r in 0..2 {
        for i in 0..n {
            for j in 0..d {
                t[j] = (x * w[j] + (i + r) as f64).sin();
            }
            s += sum_of_squares(&t);
            t[0] = t[0] * x + w[0];
            s += t[0] * t[d - 1];
        }
    }
    s
}

type Overwrite = fn(f64, &[f64], usize) -> f64;
type OverwriteGrad = fn(f64, &[f64], usize) -> (f64, f64, Vec<f64>);

#[test]
fn a_partly_overwritten_array_keeps_its_entry_value() {
    let forms: [(&str, Overwrite, OverwriteGrad); 6] = [
        ("partly", partly_overwritten, partly_overwritten_grad),
        ("read first", read_before_written, read_before_written_grad),
        ("fully", fully_overwritten, fully_overwritten_grad),
        (
            "two deep",
            overwritten_two_loops_deep,
            overwritten_two_loops_deep_grad,
        ),
        (
            "two deep, grown",
            overwritten_two_loops_deep_grown,
            overwritten_two_loops_deep_grown_grad,
        ),
        ("kept rows", kept_rows_nested, kept_rows_nested_grad),
    ];
    check_overwrites(&forms);
}

/// Found writing the test above: this gradient panicked (an index out of
/// bounds in the reverse of the push), before any kill analysis. The
/// carried adjoint started as a zero of the array's initial length, not
/// of its length after the loop.
#[test]
fn an_overwritten_array_that_grows_keeps_its_entry_value() {
    check_overwrites(&[("grown", overwritten_then_grown, overwritten_then_grown_grad)]);
}

fn check_overwrites(forms: &[(&str, Overwrite, OverwriteGrad)]) {
    let (x, w, n) = (0.7, [0.3, -0.8, 1.1, 0.45], 5);
    for &(form, f, grad) in forms {
        let (value, dx, dw) = grad(x, &w, n);
        assert_eq!(value, f(x, &w, n), "{form}");
        assert_fd64_close(form, dx, fd64(|x| f(x, &w, n), x));
        for k in 0..w.len() {
            let fd = fd64(
                |wk| {
                    let mut w = w;
                    w[k] = wk;
                    f(x, &w, n)
                },
                w[k],
            );
            assert_fd64_close(form, dw[k], fd);
        }
    }
}

// ---------------------------------------------------------------------------
// Vecs a loop grows with `push` (or builds anew at another length) while
// it reads and writes their elements: an adjoint has its array's length
// wherever the reverse creates it (after the loop, at an iteration's
// entry), never the initial value's. These gradients panicked before
// (an index out of bounds in the reverse sweep).

/// Pushes, then updates an element pushed earlier.
#[differentiable]
fn grown_then_updated(x: f64, w: &[f64], n: usize) -> f64 {
    let mut v = vec![x];
    let mut s = 0.0;
    for i in 0..n {
        v.push((v[i] * w[i % w.len()]).sin());
        v[i] = v[i] * x + v[i + 1];
        s += v[i] * v[0];
    }
    s
}

/// `v[i] = ..; v.push(..)` alternating; the Vec is not read after the loop.
#[differentiable]
fn store_push_alternating(x: f64, w: &[f64], n: usize) -> f64 {
    let mut v = vec![x, w[0]];
    let mut s = 0.0;
    for i in 0..n {
        v[i] = v[i] * x + v[i + 1];
        v.push(v[i].sin() * w[i % w.len()]);
        s += v[i + 1] * v[0];
    }
    s
}

/// The `while` form: the length is the loop's condition.
#[differentiable]
fn grown_while(x: f64, w: &[f64], n: usize) -> f64 {
    let mut v = vec![x, w[1]];
    let mut s = 0.0;
    while v.len() < n + 2 {
        let k = v.len();
        v[0] *= x;
        v.push((v[k - 1] + v[0] * w[k % w.len()]).sin());
        s += v[k];
    }
    s
}

/// The iteration's entry is read in a branch arm only (its adjoint is
/// created up front, as a zero of the entry's length).
#[differentiable]
fn grown_after_a_branch(x: f64, w: &[f64], n: usize) -> f64 {
    let mut v = vec![x];
    let mut s = 0.0;
    for i in 0..n {
        if i % 2 == 0 {
            s += v[0] * v[v.len() - 1] * w[i % w.len()];
        }
        v.push(s.cos() * x);
    }
    s
}

/// Built anew one element longer each iteration, the entry unread: the
/// adjoint handed to the previous iteration is a zero of its length.
#[differentiable]
fn rebuilt_longer(x: f64, w: &[f64], n: usize) -> f64 {
    let mut a = vec![x; 1];
    let mut s: f64 = 0.0;
    for i in 0..n {
        a = vec![x * s.cos() + w[i % w.len()]; i + 2];
        s += a[i + 1] * a[0];
    }
    s + a[0] * a[a.len() - 1]
}

/// An inner loop grows a Vec the outer iteration declares and drops: the
/// outer reverse runs the inner loop again for the length it ended with.
#[differentiable]
fn grown_in_an_inner_loop(x: f64, w: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    for k in 0..n {
        let mut v = vec![x];
        let mut t = 0.0;
        for j in 0..k + 1 {
            t += v[j] * w[j % w.len()];
            v.push(t.sin());
        }
        s += t * x;
    }
    s
}

/// An inner loop grows the outer loop's Vec, which the outer body then
/// updates.
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn grown_by_an_inner_loop(x: f64, w: &[f64], n: usize) -> f64 {
    let mut s = 0.0;
    let mut v = vec![x];
    for _ in 0..n {
        for j in 0..2 {
            s += v[v.len() - 1] * w[j];
            v.push(s.sin() * x);
        }
        v[0] = v[0] * 0.5 + s;
    }
    s
}

/// `v` and one more element.
#[differentiable]
fn pushed_copy(v: &[f64], x: f64) -> Vec<f64> {
    let mut out = v.to_vec();
    out.push(v[v.len() - 1] * x);
    out
}

/// Replaced each iteration by a callee's longer result.
#[differentiable]
fn grown_by_a_callee(x: f64, w: &[f64], n: usize) -> f64 {
    let mut a = vec![x];
    let mut s = 0.0;
    for _ in 0..n {
        a = pushed_copy(&a, w[0]);
        s += a[a.len() - 1] * x;
    }
    s
}

/// Pushes onto its in-out `Vec`.
#[differentiable]
fn push_scaled(v: &mut Vec<f64>, x: f64) {
    let k = v.len();
    v.push(v[k - 1] * x);
}

/// Grown through an in-out helper called each iteration.
#[differentiable]
fn grown_through_an_in_out_helper(x: f64, w: &[f64], n: usize) -> f64 {
    let mut v = vec![x, w[0]];
    let mut s = 0.0;
    for _ in 0..n {
        push_scaled(&mut v, w[1]);
        s += v[v.len() - 1] * x;
    }
    s
}

#[test]
fn a_vec_grown_in_a_loop_has_the_central_differences_gradient() {
    let forms: [(&str, Overwrite, OverwriteGrad); 9] = [
        ("updated", grown_then_updated, grown_then_updated_grad),
        (
            "alternating",
            store_push_alternating,
            store_push_alternating_grad,
        ),
        ("while", grown_while, grown_while_grad),
        ("branch", grown_after_a_branch, grown_after_a_branch_grad),
        ("rebuilt", rebuilt_longer, rebuilt_longer_grad),
        ("inner", grown_in_an_inner_loop, grown_in_an_inner_loop_grad),
        ("outer", grown_by_an_inner_loop, grown_by_an_inner_loop_grad),
        ("callee", grown_by_a_callee, grown_by_a_callee_grad),
        (
            "in-out",
            grown_through_an_in_out_helper,
            grown_through_an_in_out_helper_grad,
        ),
    ];
    let w = [0.3, -0.8, 1.1];
    for (form, f, grad) in forms {
        for n in [0, 1, 2, 4] {
            for x in [-0.6, 0.35, 0.7] {
                let (value, dx, dw) = grad(x, &w, n);
                assert_eq!(value, f(x, &w, n), "{form} n={n} x={x}");
                // Five-point differences (h = 1e-3): truncation
                // h⁴·|f⁽⁵⁾|/30, up to 1e-8 here where four iterations
                // compound cosines (checked against smaller steps).
                let want = fd64(|x| f(x, &w, n), x);
                let at = format!("{form} n={n} x={x}");
                let close = relative_eq!(dx, want, epsilon = 2e-8, max_relative = 1e-8);
                assert!(close, "{at}: {dx} against central differences {want}");
                for k in 0..w.len() {
                    let fk = |wk| {
                        let mut w = w;
                        w[k] = wk;
                        f(x, &w, n)
                    };
                    let want = fd64(fk, w[k]);
                    let close = relative_eq!(dw[k], want, epsilon = 2e-8, max_relative = 1e-8);
                    assert!(close, "{at} w[{k}]: {} against {want}", dw[k]);
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Nested loops with local `Vec`s, as ADBench's GMM is written (issue 37):
// the component loop fills `scores` one element per iteration, each element
// a loop of its own, and the point loop's `lse(&scores)` reads it in the
// reverse sweep. The point loop keeps `scores` (k floats per point) rather
// than running the component loop again per point to recover it; the
// component loop's reverse reuses one buffer for `t`, which each iteration
// overwrites whole, instead of copying its initial value per iteration; a
// carried array's adjoint starts as the adjoint carried in, not as a zero
// it is then added into.

/// `ln Σ exp(v)`.
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn lse(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i].exp();
    }
    s.ln()
}

/// Σ over points of `lse` of the squared norms of `w_c ∘ x_p`, and their
/// product (whose reverse reads the carried product: the point loop stacks
/// it with `scores`).
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn soft_scores(w: &[f64], #[constant] x: &[f64], k: usize, n: usize) -> f64 {
    let mut scores = vec![0.0; k];
    let mut t = vec![0.0; k];
    let mut total = 0.0;
    let mut product = 1.0;
    for p in 0..n {
        for c in 0..k {
            for j in 0..k {
                t[j] = w[c * k + j] * x[p * k + j];
            }
            let mut acc = 0.0;
            for j in 0..k {
                acc += t[j] * t[j];
            }
            scores[c] = 0.5 * acc;
        }
        let l = lse(&scores);
        total += l;
        product *= 0.1 * l;
    }
    total + product
}

/// The same, without the macro.
fn soft_scores_plain(w: &[f64], x: &[f64], k: usize, n: usize) -> f64 {
    let (mut total, mut product) = (0.0, 1.0);
    for p in 0..n {
        let scores: Vec<f64> = (0..k)
            .map(|c| {
                0.5 * (0..k)
                    .map(|j| (w[c * k + j] * x[p * k + j]).powi(2))
                    .sum::<f64>()
            })
            .collect();
        let l = scores.iter().map(|s| s.exp()).sum::<f64>().ln();
        total += l;
        product *= 0.1 * l;
    }
    total + product
}

#[test]
fn an_array_an_inner_loop_fills_is_kept_per_outer_iteration() {
    let (k, n) = (3, 7);
    let w: Vec<f64> = (0..k * k).map(|i| 0.3 + 0.11 * i as f64).collect();
    let x: Vec<f64> = (0..k * n)
        .map(|i| ((i * 7 % 11) as f64 - 5.0) * 0.13)
        .collect();
    let (value, dw) = soft_scores_grad(&w, &x, k, n);
    assert!(relative_eq!(
        value,
        soft_scores_plain(&w, &x, k, n),
        max_relative = 1e-13
    ));
    let fd = fd_support::fd64_slice(|w| soft_scores_plain(w, &x, k, n), &w);
    fd_support::assert_all_fd64_close("soft_scores", &dw, &fd);
    // After a warm-up call, per point the copy of `scores` the point loop
    // stacks and the buffers its reverse starts from: a few per point,
    // none per point and component (27 here; re-running the component
    // loop per point, copying `t`'s initial value for each component's
    // reverse and starting its adjoint as a zero made 83, 2 per point and
    // component more and 1 per point; copying `t` into the component
    // loop in the forward sweep, 34).
    let mut dw = vec![0.0; w.len()];
    soft_scores_grad_acc(&w, &x, k, n, &mut dw);
    let (_, count) = alloc_support::allocations_during(|| {
        soft_scores_grad_acc(black_box(&w), black_box(&x), k, n, &mut dw)
    });
    let bound = 4 * n + 4;
    assert!(
        count <= bound,
        "{count} allocations per call, more than {bound}"
    );
}

/// A state array updated element by element in an inner loop, as an LSTM
/// cell updates its hidden and cell values: a branch picks each cell's
/// input from the array (from `x` at the first cell), and a `tanh` reads
/// the element just written.
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn cell_updates(x: f64, w: &[f64], k: usize, n: usize) -> f64 {
    let mut s = vec![0.0; 2 * k];
    for j in 0..2 * k {
        s[j] = 0.1 * (j % 3) as f64;
    }
    let mut total = 0.0;
    for t in 0..n {
        for j in 0..k {
            let input = if j == 0 { x } else { s[k + j - 1] };
            let gate = (input * w[j] + s[j]).tanh();
            s[j] = s[j] * 0.5 + gate;
            s[k + j] = s[j].tanh() * input;
        }
        total += s[2 * k - 1] + s[k] * (t as f64 + 1.0);
    }
    total
}

#[test]
fn an_array_updated_in_place_keeps_the_elements_its_reverse_reads() {
    let (k, n) = (64, 5);
    let w: Vec<f64> = (0..k)
        .map(|j| 0.4 + 0.3 * ((j * 5 % 7) as f64 - 3.0) / 3.0)
        .collect();
    let x = 0.7;
    let ((value, dx, dw), bytes) =
        bytes_during(|| cell_updates_grad(black_box(x), black_box(&w), k, n));
    assert_eq!(value, cell_updates(x, &w, k, n));
    assert_fd64_close("dx", dx, fd64(|x| cell_updates(x, &w, k, n), x));
    let fd = fd_support::fd64_slice(|w| cell_updates(x, w, k, n), &w);
    fd_support::assert_all_fd64_close("dw", &dw, &fd);
    // A few floats per cell (the branch's pick and the elements read), not
    // the array: a copy of `s` per cell would be 2k floats each.
    let per_cell = bytes / (n * k * 8);
    assert!(per_cell <= 24, "{per_cell} floats per cell");
    // Past the cache's budget (the tanhs recomputed from the kept
    // elements), the same derivative as central differences.
    let (k, n) = (150_000, 1);
    let w: Vec<f64> = (0..k)
        .map(|j| 0.4 + 0.3 * ((j * 5 % 7) as f64 - 3.0) / 3.0)
        .collect();
    let (value, dx, _) = cell_updates_grad(x, &w, k, n);
    assert_eq!(value, cell_updates(x, &w, k, n));
    assert_fd64_close(
        "dx past the budget",
        dx,
        fd64(|x| cell_updates(x, &w, k, n), x),
    );
}
