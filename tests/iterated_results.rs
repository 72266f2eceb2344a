//! A helper's result the body iterates without naming its type (`let r =
//! residuals(p); r.iter().map(|v| v * v).sum()`): a `Vec`, an array or a
//! vector, read element by element as `let r: Vec<f64> = ..` would be.
//! Gradients against central differences of the primal (step 1e-6,
//! absolute 1e-7), tangents against the gradient.

use autograd::differentiable;

/// Residuals of an exponential decay a·e^(−b t) against data.
#[differentiable(jvp)]
fn residuals(p: &[f64], #[constant] t: &[f64], #[constant] y: &[f64]) -> Vec<f64> {
    t.iter()
        .zip(y)
        .map(|(&ti, &yi)| p[0] * (-p[1] * ti).exp() - yi)
        .collect()
}

#[differentiable(jvp)]
fn sum_of_squares(p: &[f64], #[constant] t: &[f64], #[constant] y: &[f64]) -> f64 {
    let r = residuals(p, t, y);
    r.iter().map(|v| v * v).sum()
}

#[differentiable(jvp)]
fn pair(a: f64) -> [f64; 2] {
    [a.sin(), a * a]
}

/// Weighted, by `for` over `enumerate`, over an array result by value,
/// and after an element read.
#[differentiable(jvp)]
fn mixed(p: &[f64], #[constant] t: &[f64], #[constant] y: &[f64]) -> f64 {
    let r = residuals(p, t, y);
    let mut s = r[0] * 2.0 + r.len() as f64;
    for (i, v) in r.iter().enumerate() {
        s += v * v * (i + 1) as f64;
    }
    let q = pair(p[0] * p[1]);
    for v in q {
        s += v;
    }
    s + q.iter().map(|x| x.exp()).sum::<f64>()
}

const T: [f64; 4] = [0.0, 0.5, 1.0, 2.0];
const Y: [f64; 4] = [1.1, 0.8, 0.6, 0.4];

fn check(f: impl Fn(&[f64]) -> f64, grad: &[f64], p: &[f64]) {
    for j in 0..p.len() {
        let mut up = p.to_vec();
        let mut down = p.to_vec();
        up[j] += 1e-6;
        down[j] -= 1e-6;
        let fd = (f(&up) - f(&down)) / 2e-6;
        assert!(
            (fd - grad[j]).abs() < 1e-7,
            "∂{j}: {} against {fd}",
            grad[j]
        );
    }
}

#[test]
fn a_sum_of_squared_residuals() {
    let p = [1.0, 0.5];
    let (value, grad) = sum_of_squares_grad(&p, &T, &Y);
    assert_eq!(value, sum_of_squares(&p, &T, &Y));
    check(|p| sum_of_squares(p, &T, &Y), &grad, &p);
    let (_, tangent) = sum_of_squares_jvp(&p, &T, &Y, &[0.3, -0.7]);
    assert!((tangent - (0.3 * grad[0] - 0.7 * grad[1])).abs() < 1e-12);
}

#[test]
fn iterated_several_ways() {
    let p = [0.9, 0.4];
    let (_, grad) = mixed_grad(&p, &T, &Y);
    check(|p| mixed(p, &T, &Y), &grad, &p);
    let (_, tangent) = mixed_jvp(&p, &T, &Y, &[1.0, 0.5]);
    assert!((tangent - (grad[0] + 0.5 * grad[1])).abs() < 1e-12);
}
