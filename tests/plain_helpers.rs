//! Functions without `#[differentiable]` that a differentiable body calls
//! on its differentiable values for something no derivative goes through:
//! a permutation, a count, a bucket index. The body differentiates what it
//! computes with them (`grad`, `jvp`, `hessian`); the helpers run on the
//! values (a second-order twin passes them the real parts). Expected
//! derivatives are closed forms (tolerance `CF64_*`).

#[path = "fd_support/mod.rs"]
mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use fd_support::*;

fn close(actual: &[f64], expected: &[f64], abs: f64, rel: f64) {
    assert_eq!(actual.len(), expected.len());
    for (a, e) in actual.iter().zip(expected) {
        assert_relative_eq!(*a, *e, epsilon = abs, max_relative = rel);
    }
}

/// The indices of `l`, largest value first: what a user writes to sort by
/// a float key, `sort_by` with `partial_cmp`.
fn order_desc(l: &[f64]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..l.len()).collect();
    idx.sort_by(|&i, &j| l[j].partial_cmp(&l[i]).unwrap());
    idx
}

fn count_above(x: &[f64], level: f64) -> usize {
    x.iter().filter(|&&v| v > level).count()
}

fn bucket(t: f64) -> usize {
    (t.max(0.0) as usize).min(2)
}

/// The mean of the `tail` largest squared losses, by a plain argsort.
#[differentiable(jvp, hessian)]
fn tail_mean_square(l: &[f64], #[constant] tail: usize) -> f64 {
    let idx = order_desc(l);
    let mut s = 0.0;
    for k in 0..tail {
        s += l[idx[k]] * l[idx[k]];
    }
    s / tail as f64
}

/// A count and a bucket from plain helpers, as a loop bound and an index.
#[differentiable(jvp, hessian)]
fn bucketed(x: &[f64], t: f64) -> f64 {
    let n = count_above(x, 0.0);
    let rates = [0.01, 0.02, 0.03];
    let r = rates[bucket(t)];
    let mut s = 0.0;
    for v in x.iter().take(n) {
        s += v.exp() * t;
    }
    s * (-r * t).exp()
}

#[test]
fn a_plain_argsort_orders_the_differentiated_values() {
    let l = [0.3, 1.9, -0.4, 1.2];
    let (value, g) = tail_mean_square_grad(&l, 2);
    assert_eq!(value.to_bits(), tail_mean_square(&l, 2).to_bits());
    // The two largest are l[1] and l[3]: (l1² + l3²)/2.
    close(&g, &[0.0, l[1], 0.0, l[3]], CF64_ABS, CF64_REL);
    let dir = [1.0, 0.5, -2.0, 0.25];
    let (v, tangent) = tail_mean_square_jvp(&l, 2, &dir);
    assert_eq!(v.to_bits(), value.to_bits());
    close(
        &[tangent],
        &[l[1] * dir[1] + l[3] * dir[3]],
        CF64_ABS,
        CF64_REL,
    );
    let (_, _, h) = tail_mean_square_hessian(&l, 2);
    for i in 0..4 {
        for j in 0..4 {
            let want = if i == j && (i == 1 || i == 3) {
                1.0
            } else {
                0.0
            };
            assert_eq!(h[(i, j)], want, "H[{i}][{j}]");
        }
    }
}

#[test]
fn a_plain_count_and_bucket_bound_and_index_the_differentiated_sum() {
    let x = [0.5, -0.2, 0.8, 0.1];
    let t = 1.3;
    let (value, gx, gt) = bucketed_grad(&x, t);
    assert_eq!(value.to_bits(), bucketed(&x, t).to_bits());
    // Three values are positive: the first three of `x` are summed; t in
    // bucket 1, r = 0.02. f = t·e^(−rt)·S with S = Σ_{i<3} e^(x_i).
    let (r, n) = (0.02, 3);
    let s: f64 = x[..n].iter().map(|v| v.exp()).sum();
    let decay = (-r * t).exp();
    let want_x: Vec<f64> = (0..4)
        .map(|i| if i < n { t * decay * x[i].exp() } else { 0.0 })
        .collect();
    close(&gx, &want_x, CF64_ABS, CF64_REL);
    close(&[gt], &[s * decay * (1.0 - r * t)], CF64_ABS, CF64_REL);
    let (_, tangent) = bucketed_jvp(&x, t, &[0.0; 4], 1.0);
    close(&[tangent], &[gt], CF64_ABS, CF64_REL);
    // ∂²f/∂t² = S·e^(−rt)·(r²t − 2r).
    let (_, _, h) = bucketed_hessian(&x, t);
    close(
        &[h[(4, 4)]],
        &[s * decay * (r * r * t - 2.0 * r)],
        CF64_ABS,
        CF64_REL,
    );
}
