//! `.first()` and `.last()` of slices with `.unwrap()` / `.expect(..)`
//! (also after `.copied()`): the first and last element.
//!
//! Expected derivatives: closed forms and central differences (step 1e-6,
//! tolerance 1e-7 absolute).

#![allow(clippy::needless_range_loop)]

use autograd::differentiable;

#[differentiable]
fn ends(x: &[f64]) -> f64 {
    let a = x.first().unwrap();
    let b = *x.last().unwrap();
    a * b + x.first().copied().unwrap().sin() + x.last().copied().expect("not empty").exp()
}

/// The relative move from the first to the last price.
#[differentiable]
fn total_return(prices: &[f64]) -> f64 {
    let p0 = *prices.first().expect("a price");
    let pn = *prices.last().expect("a price");
    (pn / p0).ln()
}

fn central(f: impl Fn(&[f64]) -> f64, x: &[f64], i: usize) -> f64 {
    let h = 1e-6;
    let mut up = x.to_vec();
    let mut down = x.to_vec();
    up[i] += h;
    down[i] -= h;
    (f(&up) - f(&down)) / (2.0 * h)
}

#[test]
fn first_and_last_against_closed_forms_and_central_differences() {
    let x = [0.3, -1.2, 0.8, 1.1];
    let (v, dx) = ends_grad(&x);
    assert_eq!(v, ends(&x));
    // ∂/∂x0 = x3 + cos x0, ∂/∂x3 = x0 + e^x3, the middle ones zero.
    assert!((dx[0] - (x[3] + x[0].cos())).abs() < 1e-15);
    assert!((dx[3] - (x[0] + x[3].exp())).abs() < 1e-15);
    assert_eq!((dx[1], dx[2]), (0.0, 0.0));
    for i in 0..4 {
        assert!((dx[i] - central(ends, &x, i)).abs() < 1e-7, "x[{i}]");
    }
    let p = [100.0, 101.5, 99.0, 104.0];
    let (r, dp) = total_return_grad(&p);
    assert_eq!(r, total_return(&p));
    assert!((dp[0] + 1.0 / p[0]).abs() < 1e-15 && (dp[3] - 1.0 / p[3]).abs() < 1e-15);
    assert_eq!((dp[1], dp[2]), (0.0, 0.0));
}

#[test]
fn one_element_is_first_and_last() {
    let (v, dx) = ends_grad(&[0.5]);
    assert_eq!(v, ends(&[0.5]));
    assert!((dx[0] - (2.0 * 0.5 + 0.5f64.cos() + 0.5f64.exp())).abs() < 1e-15);
}

/// Annualised log drift from the first to the last price, zero for fewer
/// than two: a `match` on the pair of ends, with a guard.
#[differentiable]
fn drift(prices: &[f64], #[constant] periods_per_year: f64) -> f64 {
    match (prices.first(), prices.last()) {
        (Some(&a), Some(&b)) if prices.len() > 1 => {
            (b / a).ln() * periods_per_year / (prices.len() - 1) as f64
        }
        _ => 0.0,
    }
}

/// Every arm shape of a tuple of ends: `Some`, `None`, `_`, a guard reading
/// the bound elements; and `if let` on a pair.
#[differentiable]
fn pair_of_ends(x: &[f64], y: &[f64]) -> f64 {
    let s = if let (Some(a), Some(b)) = (x.first().copied(), y.last().copied()) {
        a * b
    } else {
        1.0
    };
    let t = match (x.last(), y.first()) {
        (Some(&a), None) => a,
        (None, Some(&b)) => b * b,
        (Some(&a), Some(&b)) if a > b => a * b * b,
        (Some(_), Some(&b)) => 3.0 * b,
        (None, None) => 0.0,
    };
    s + t
}

#[test]
fn a_match_on_a_pair_of_ends_has_the_closed_form_gradient() {
    let x = [100.0, 101.5, 99.8, 103.2];
    let (v, dx) = drift_grad(&x, 252.0);
    assert_eq!(v, drift(&x, 252.0));
    // ∂/∂x0 = −252 / (3 x0), ∂/∂x3 = 252 / (3 x3), the middle ones zero.
    let want = [-252.0 / 3.0 / 100.0, 0.0, 0.0, 252.0 / 3.0 / 103.2];
    for i in 0..4 {
        assert!((dx[i] - want[i]).abs() < 1e-12, "{i}: {dx:?}");
    }
    assert_eq!(drift_grad(&[5.0], 252.0), (0.0, vec![0.0]));
}

#[test]
fn every_arm_of_a_pair_of_ends_matches_central_differences() {
    let cases = [
        (vec![2.0, 3.0], vec![1.5, 4.0]),
        (vec![2.0, 0.5], vec![1.5, 4.0]),
        (vec![], vec![1.5, 4.0]),
        (vec![2.0], vec![]),
        (vec![], vec![]),
    ];
    for (x, y) in cases {
        let (v, dx, dy) = pair_of_ends_grad(&x, &y);
        assert_eq!(v, pair_of_ends(&x, &y));
        for i in 0..x.len() {
            let want = central(|q| pair_of_ends(q, &y), &x, i);
            assert!((dx[i] - want).abs() < 1e-7, "x[{i}]: {} vs {want}", dx[i]);
        }
        for i in 0..y.len() {
            let want = central(|q| pair_of_ends(&x, q), &y, i);
            assert!((dy[i] - want).abs() < 1e-7, "y[{i}]: {} vs {want}", dy[i]);
        }
    }
}
