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
