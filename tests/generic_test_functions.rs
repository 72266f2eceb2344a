//! Issue 36, item 7: classic optimisation test functions written generic
//! over their scalar the way an optimisation library writes them
//! (`T: Float + FromPrimitive + Sum + Product + FloatConst`, constants from
//! `T::from_f64(c).unwrap()`, `T::from(c).unwrap()`, `T::from_usize(i)`,
//! `T::one()`, `T::PI()`, `T::epsilon()`, iterator sums and products,
//! slices `&[T]` and fixed-size `&[T; 2]`), each
//! `#[differentiable(jvp, hessian)]` as written.
//!
//! Each function is checked at `f64` and at `f32` for `_grad`, `_jvp` and
//! `_hessian`:
//!
//! - every value is the primal's, bit for bit;
//! - at `f64`, the gradient and the directional derivative against
//!   five-point central differences of the primal (`fd_support::fd64`,
//!   error ≈ 2·10⁻¹³·|f| / h + 3·10⁻¹⁴·|f⁽⁵⁾|): `epsilon = 1e-8·s`,
//!   `max_relative = 1e-7`, where `s = max(1, |f(x)|)`;
//! - at `f64`, the Hessian against five-point differences of five-point
//!   differences of the primal (`H_ij = ∂_i ∂_j f`, rounding ≈ 10⁻¹⁰·|f|):
//!   `epsilon = 1e-6·s`, `max_relative = 1e-6`;
//! - at `f32`, at points exact in `f32`, the same three against the `f64`
//!   references: a few dozen `f32` roundings (2⁻²⁴ each), amplified by the
//!   cancellation inside the function, `epsilon = 1e-4·s`,
//!   `max_relative = 2e-3`.

#![allow(clippy::needless_range_loop)]

mod fd_support;

use std::f64::consts::PI;
use std::iter::{Product, Sum};

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::num_traits::{Bounded, Float, FloatConst, FromPrimitive, NumAssign, NumCast, Signed};
use fd_support::fd64;

// ---------------------------------------------------------------------------
// The functions, n-dimensional over slices.

/// Sphere: `Σ x_i²`.
#[differentiable(jvp, hessian)]
pub fn sphere<T>(param: &[T]) -> T
where
    T: Float + Sum,
{
    param.iter().map(|x| x.powi(2)).sum()
}

/// Rosenbrock: `Σ (a − x_i)² + b (x_{i+1} − x_i²)²`, `a = 1`, `b = 100`.
#[differentiable(jvp, hessian)]
pub fn rosenbrock<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive,
{
    let a = T::from_f64(1.0).unwrap();
    let b = T::from_f64(100.0).unwrap();
    let mut sum = T::zero();
    for i in 0..param.len() - 1 {
        sum = sum + (a - param[i]).powi(2) + b * (param[i + 1] - param[i].powi(2)).powi(2);
    }
    sum
}

/// Rastrigin: `a n + Σ (x_i² − a cos(2π x_i))`, `a = 10`.
#[differentiable(jvp, hessian)]
pub fn rastrigin<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + Sum,
{
    let a = T::from_f64(10.0).unwrap();
    let two_pi = T::from_f64(2.0 * PI).unwrap();
    let n = T::from_usize(param.len()).unwrap();
    a * n
        + param
            .iter()
            .map(|&x| x.powi(2) - a * (two_pi * x).cos())
            .sum::<T>()
}

/// Ackley: `−a exp(−b √(Σx²/n)) − exp(Σ cos(c x)/n) + a + e`.
#[differentiable(jvp, hessian)]
pub fn ackley<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + Sum,
{
    let a = T::from_f64(20.0).unwrap();
    let b = T::from_f64(0.2).unwrap();
    let c = T::from_f64(2.0 * PI).unwrap();
    let one = T::from_f64(1.0).unwrap();
    let n = T::from_usize(param.len()).unwrap();
    -a * (-b * ((one / n) * param.iter().map(|x| x.powi(2)).sum::<T>()).sqrt()).exp()
        - ((one / n) * param.iter().map(|&x| (c * x).cos()).sum::<T>()).exp()
        + a
        + one.exp()
}

/// Griewank: `1 + Σ x_i² / 4000 − Π cos(x_i / √i)`.
#[differentiable(jvp, hessian)]
pub fn griewank<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + Sum + Product,
{
    let d = T::from_f64(4000.0).unwrap();
    T::one() + param.iter().map(|&x| x * x).sum::<T>() / d
        - param
            .iter()
            .enumerate()
            .map(|(i, &x)| (x / T::from_usize(i + 1).unwrap().sqrt()).cos())
            .product::<T>()
}

/// Styblinski–Tang: `½ Σ (x_i⁴ − 16 x_i² + 5 x_i)`.
#[differentiable(jvp, hessian)]
pub fn styblinski_tang<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + Sum,
{
    let n05 = T::from_f64(0.5).unwrap();
    let n16 = T::from_f64(16.0).unwrap();
    let n5 = T::from_f64(5.0).unwrap();
    n05 * param
        .iter()
        .map(|&x| x.powi(4) - n16 * x.powi(2) + n5 * x)
        .sum::<T>()
}

/// Levy, with `w_i = 1 + (x_i − 1) / 4`.
#[differentiable(jvp, hessian)]
pub fn levy<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + FloatConst,
{
    let one = T::one();
    let two = T::from_f64(2.0).unwrap();
    let four = T::from_f64(4.0).unwrap();
    let ten = T::from_f64(10.0).unwrap();
    let pi = T::PI();
    let n = param.len();
    let w1 = one + (param[0] - one) / four;
    let wn = one + (param[n - 1] - one) / four;
    let mut sum = (pi * w1).sin().powi(2);
    for i in 0..n - 1 {
        let wi = one + (param[i] - one) / four;
        sum = sum + (wi - one).powi(2) * (one + ten * (pi * wi + one).sin().powi(2));
    }
    sum + (wn - one).powi(2) * (one + (two * pi * wn).sin().powi(2))
}

/// Schwefel: `418.9829 n − Σ x_i sin(√|x_i|)`.
#[differentiable(jvp, hessian)]
pub fn schwefel<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + Sum,
{
    let c = T::from_f64(418.9829).unwrap();
    c * T::from_usize(param.len()).unwrap()
        - param.iter().map(|&x| x * x.abs().sqrt().sin()).sum::<T>()
}

/// Zakharov: `Σ x_i² + (Σ ½ i x_i)² + (Σ ½ i x_i)⁴`.
#[differentiable(jvp, hessian)]
pub fn zakharov<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + Sum,
{
    let half = T::from_f64(0.5).unwrap();
    let s1 = param.iter().map(|&x| x.powi(2)).sum::<T>();
    let s2 = param
        .iter()
        .enumerate()
        .map(|(i, &x)| half * T::from_usize(i + 1).unwrap() * x)
        .sum::<T>();
    s1 + s2.powi(2) + s2.powi(4)
}

/// Sum of squares: `Σ i x_i²`.
#[differentiable(jvp, hessian)]
pub fn sum_of_squares<T>(param: &[T]) -> T
where
    T: Float + NumCast,
{
    let mut s = T::zero();
    for (i, &x) in param.iter().enumerate() {
        s = s + T::from(i + 1).unwrap() * x * x;
    }
    s
}

/// Dixon–Price: `(x_1 − 1)² + Σ_{i≥2} i (2 x_i² − x_{i−1})²`, summed by
/// `+=` (`NumAssign`).
#[differentiable(jvp, hessian)]
pub fn dixon_price<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + NumAssign,
{
    let two = T::from_f64(2.0).unwrap();
    let mut s = (param[0] - T::one()).powi(2);
    for i in 1..param.len() {
        let w = T::from_usize(i + 1).unwrap();
        s += w * (two * param[i].powi(2) - param[i - 1]).powi(2);
    }
    s
}

/// Trid: `Σ (x_i − 1)² − Σ_{i≥2} x_i x_{i−1}`, with the bounds of a
/// library that also needs `Signed` and `Bounded` elsewhere.
#[differentiable(jvp, hessian)]
pub fn trid<T>(param: &[T]) -> T
where
    T: Float + Sum + Signed + Bounded,
{
    let one = T::one();
    let a = param.iter().map(|&x| (x - one).powi(2)).sum::<T>();
    let mut b = T::zero();
    for i in 1..param.len() {
        b = b + param[i] * param[i - 1];
    }
    a - b
}

/// Michalewicz: `−Σ sin(x_i) sin(i x_i² / π)^{2m}`, `m = 10`.
#[differentiable(jvp, hessian)]
pub fn michalewicz<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + FloatConst + Sum,
{
    let pi = T::PI();
    -param
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            x.sin()
                * (T::from_usize(i + 1).unwrap() * x.powi(2) / pi)
                    .sin()
                    .powi(20)
        })
        .sum::<T>()
}

/// Powell: over blocks of four.
#[differentiable(jvp, hessian)]
pub fn powell<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive,
{
    let n2 = T::from_f64(2.0).unwrap();
    let n5 = T::from_f64(5.0).unwrap();
    let n10 = T::from_f64(10.0).unwrap();
    let mut s = T::zero();
    for k in 0..param.len() / 4 {
        let (a, b, c, d) = (
            param[4 * k],
            param[4 * k + 1],
            param[4 * k + 2],
            param[4 * k + 3],
        );
        s = s
            + (a + n10 * b).powi(2)
            + n5 * (c - d).powi(2)
            + (b - n2 * c).powi(4)
            + n10 * (a - d).powi(4);
    }
    s
}

// ---------------------------------------------------------------------------
// Two-dimensional functions over `&[T; 2]`, and one over `&[T; 4]`.

/// Beale.
#[differentiable(jvp, hessian)]
pub fn beale<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let [x1, x2] = *param;
    (T::from_f64(1.5).unwrap() - x1 + x1 * x2).powi(2)
        + (T::from_f64(2.25).unwrap() - x1 + x1 * x2.powi(2)).powi(2)
        + (T::from_f64(2.625).unwrap() - x1 + x1 * x2.powi(3)).powi(2)
}

/// Booth: `(x1 + 2 x2 − 7)² + (2 x1 + x2 − 5)²`.
#[differentiable(jvp, hessian)]
pub fn booth<T>(param: &[T; 2]) -> T
where
    T: Float + NumCast,
{
    let two: T = T::from(2.0).unwrap();
    let [x1, x2] = *param;
    (x1 + two * x2 - T::from(7.0).unwrap()).powi(2)
        + (two * x1 + x2 - T::from(5.0).unwrap()).powi(2)
}

/// Matyas: `0.26 (x1² + x2²) − 0.48 x1 x2`.
#[differentiable(jvp, hessian)]
pub fn matyas<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let x1 = param[0];
    let x2 = param[1];
    T::from_f64(0.26).unwrap() * (x1.powi(2) + x2.powi(2)) - T::from_f64(0.48).unwrap() * x1 * x2
}

/// Himmelblau: `(x1² + x2 − 11)² + (x1 + x2² − 7)²`.
#[differentiable(jvp, hessian)]
pub fn himmelblau<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let [x1, x2] = *param;
    let n7 = T::from_f64(7.0).unwrap();
    let n11 = T::from_f64(11.0).unwrap();
    (x1.powi(2) + x2 - n11).powi(2) + (x1 + x2.powi(2) - n7).powi(2)
}

/// Three-hump camel: `2 x1² − 1.05 x1⁴ + x1⁶ / 6 + x1 x2 + x2²`.
#[differentiable(jvp, hessian)]
pub fn three_hump_camel<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let [x1, x2] = *param;
    T::from_f64(2.0).unwrap() * x1.powi(2) - T::from_f64(1.05).unwrap() * x1.powi(4)
        + x1.powi(6) / T::from_f64(6.0).unwrap()
        + x1 * x2
        + x2.powi(2)
}

/// Easom: `−cos x1 cos x2 exp(−(x1 − π)² − (x2 − π)²)`.
#[differentiable(jvp, hessian)]
pub fn easom<T>(param: &[T; 2]) -> T
where
    T: Float + FloatConst,
{
    let [x1, x2] = *param;
    let pi = T::PI();
    -x1.cos() * x2.cos() * (-(x1 - pi).powi(2) - (x2 - pi).powi(2)).exp()
}

/// Bohachevsky (the first): `x1² + 2 x2² − 0.3 cos 3πx1 − 0.4 cos 4πx2 + 0.7`.
#[differentiable(jvp, hessian)]
pub fn bohachevsky<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive + FloatConst,
{
    let [x1, x2] = *param;
    let pi = T::PI();
    x1.powi(2) + T::from_f64(2.0).unwrap() * x2.powi(2)
        - T::from_f64(0.3).unwrap() * (T::from_f64(3.0).unwrap() * pi * x1).cos()
        - T::from_f64(0.4).unwrap() * (T::from_f64(4.0).unwrap() * pi * x2).cos()
        + T::from_f64(0.7).unwrap()
}

/// McCormick: `sin(x1 + x2) + (x1 − x2)² − 1.5 x1 + 2.5 x2 + 1`.
#[differentiable(jvp, hessian)]
pub fn mccormick<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let [x1, x2] = *param;
    (x1 + x2).sin() + (x1 - x2).powi(2) - T::from_f64(1.5).unwrap() * x1
        + T::from_f64(2.5).unwrap() * x2
        + T::one()
}

/// Goldstein–Price.
#[differentiable(jvp, hessian)]
pub fn goldstein_price<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let [x1, x2] = *param;
    let n = |c: f64| T::from_f64(c).unwrap();
    (T::one()
        + (x1 + x2 + T::one()).powi(2)
            * (n(19.0) - n(14.0) * x1 + n(3.0) * x1.powi(2) - n(14.0) * x2
                + n(6.0) * x1 * x2
                + n(3.0) * x2.powi(2)))
        * (n(30.0)
            + (n(2.0) * x1 - n(3.0) * x2).powi(2)
                * (n(18.0) - n(32.0) * x1 + n(12.0) * x1.powi(2) + n(48.0) * x2
                    - n(36.0) * x1 * x2
                    + n(27.0) * x2.powi(2)))
}

/// Branin: `a (x2 − b x1² + c x1 − r)² + s (1 − t) cos x1 + s`.
#[differentiable(jvp, hessian)]
pub fn branin<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive + FloatConst,
{
    let [x1, x2] = *param;
    let pi = T::PI();
    let a = T::one();
    let b = T::from_f64(5.1).unwrap() / (T::from_f64(4.0).unwrap() * pi.powi(2));
    let c = T::from_f64(5.0).unwrap() / pi;
    let r = T::from_f64(6.0).unwrap();
    let s = T::from_f64(10.0).unwrap();
    let t = T::one() / (T::from_f64(8.0).unwrap() * pi);
    a * (x2 - b * x1.powi(2) + c * x1 - r).powi(2) + s * (T::one() - t) * x1.cos() + s
}

/// Six-hump camel: `(4 − 2.1 x1² + x1⁴/3) x1² + x1 x2 + (−4 + 4 x2²) x2²`.
#[differentiable(jvp, hessian)]
pub fn six_hump_camel<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let [x1, x2] = *param;
    let four = T::from_f64(4.0).unwrap();
    (four - T::from_f64(2.1).unwrap() * x1.powi(2) + x1.powi(4) / T::from_f64(3.0).unwrap())
        * x1.powi(2)
        + x1 * x2
        + (-four + four * x2.powi(2)) * x2.powi(2)
}

/// Colville, over `&[T; 4]`.
#[differentiable(jvp, hessian)]
pub fn colville<T>(param: &[T; 4]) -> T
where
    T: Float + FromPrimitive,
{
    let [x1, x2, x3, x4] = *param;
    let one = T::one();
    T::from_f64(100.0).unwrap() * (x1.powi(2) - x2).powi(2)
        + (x1 - one).powi(2)
        + (x3 - one).powi(2)
        + T::from_f64(90.0).unwrap() * (x3.powi(2) - x4).powi(2)
        + T::from_f64(10.1).unwrap() * ((x2 - one).powi(2) + (x4 - one).powi(2))
        + T::from_f64(19.8).unwrap() * (x2 - one) * (x4 - one)
}

// ---------------------------------------------------------------------------
// `T::epsilon()`, a longer fixed-size array, and an `f64` function over
// `&[f64; 2]`. (A const-generic `&[T; N]`: `tests/const_generics.rs`.)

/// The Euclidean norm kept away from its kink at 0 by `T::epsilon()`:
/// `√(Σ x_i² + ε)`.
#[differentiable(jvp, hessian)]
pub fn smooth_norm<T>(param: &[T]) -> T
where
    T: Float + Sum,
{
    (param.iter().map(|&x| x * x).sum::<T>() + T::epsilon()).sqrt()
}

/// Rosenbrock over `&[T; 3]`, looping to the array's length.
#[differentiable(jvp, hessian)]
pub fn rosenbrock_3<T>(param: &[T; 3]) -> T
where
    T: Float + FromPrimitive,
{
    let hundred = T::from_f64(100.0).unwrap();
    let mut sum = T::zero();
    for i in 0..param.len() - 1 {
        sum = sum
            + (T::one() - param[i]).powi(2)
            + hundred * (param[i + 1] - param[i].powi(2)).powi(2);
    }
    sum
}

/// Booth at `f64` over `&[f64; 2]`.
#[differentiable(jvp, hessian)]
pub fn booth_f64(param: &[f64; 2]) -> f64 {
    let [x1, x2] = *param;
    (x1 + 2.0 * x2 - 7.0).powi(2) + (2.0 * x1 + x2 - 5.0).powi(2)
}

/// An array by value and a constant array beside it, under `hessian`.
#[differentiable(jvp, hessian)]
pub fn weighted_booth(param: [f64; 2], #[constant] w: &[f64; 2]) -> f64 {
    let [x1, x2] = param;
    w[0] * (x1 + 2.0 * x2 - 7.0).powi(2) + w[1] * (2.0 * x1 + x2 - 5.0).powi(2)
}

// ---------------------------------------------------------------------------
// The references: central differences of the `f64` primal.

/// The gradient of `f` at `x` by five-point differences in each component.
fn fd_gradient(f: &dyn Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            fd64(
                |t| {
                    let mut w = x.to_vec();
                    w[i] = t;
                    f(&w)
                },
                x[i],
            )
        })
        .collect()
}

/// The Hessian of `f` at `x`: five-point differences in `x_i` of
/// five-point differences in `x_j`.
fn fd_hessian(f: &dyn Fn(&[f64]) -> f64, x: &[f64]) -> Vec<Vec<f64>> {
    let n = x.len();
    let mut h = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in 0..n {
            h[i][j] = fd64(
                |s| {
                    let mut w = x.to_vec();
                    w[i] = s;
                    fd64(
                        |t| {
                            let mut v = w.clone();
                            v[j] = t;
                            f(&v)
                        },
                        w[j],
                    )
                },
                x[i],
            );
        }
    }
    h
}

/// The derivative of `f` at `x` along `v`.
fn fd_directional(f: &dyn Fn(&[f64]) -> f64, x: &[f64], v: &[f64]) -> f64 {
    fd64(
        |t| {
            let w: Vec<f64> = x.iter().zip(v).map(|(x, v)| x + t * v).collect();
            f(&w)
        },
        0.0,
    )
}

/// A direction with components of both signs and several sizes.
fn direction<const N: usize>() -> [f64; N] {
    core::array::from_fn(|i| [0.75, -0.5, 1.25, 0.25, -1.0, 0.5][i % 6])
}

/// Derivatives of one function, at one `f64` point and its `f32` twin.
struct Derivatives {
    value: f64,
    grad: Vec<f64>,
    tangent: f64,
    hessian: Vec<Vec<f64>>,
}

fn check(
    name: &str,
    f: &dyn Fn(&[f64]) -> f64,
    x: &[f64],
    v: &[f64],
    got: &Derivatives,
    (abs, rel, habs, hrel): (f64, f64, f64, f64),
) {
    let s = f(x).abs().max(1.0);
    let grad = fd_gradient(f, x);
    let tangent = fd_directional(f, x, v);
    let hessian = fd_hessian(f, x);
    let n = x.len();
    assert_eq!(got.grad.len(), n, "{name}: gradient length");
    for i in 0..n {
        assert_relative_eq!(got.grad[i], grad[i], epsilon = abs * s, max_relative = rel);
    }
    assert_relative_eq!(got.tangent, tangent, epsilon = abs * s, max_relative = rel);
    for i in 0..n {
        for j in 0..n {
            assert_relative_eq!(
                got.hessian[i][j],
                hessian[i][j],
                epsilon = habs * s,
                max_relative = hrel
            );
        }
    }
    let _ = got.value;
}

/// An `f32` result widened exactly.
fn widen(x: f32) -> f64 {
    From::from(x)
}

const TOL64: (f64, f64, f64, f64) = (1e-8, 1e-7, 1e-6, 1e-6);
const TOL32: (f64, f64, f64, f64) = (1e-4, 2e-3, 1e-4, 2e-3);

/// One test per function: its `_grad`, `_jvp` and `_hessian` at `f64` and
/// `f32`, at a point `$x` of `$n` components exact in `f32`.
macro_rules! corpus {
    ($($test:ident: $f:ident, $grad:ident, $jvp:ident, $hessian:ident, [$($x:expr),+ $(,)?];)*) => {$(
        #[test]
        fn $test() {
            const N: usize = [$($x),+].len();
            let x64: [f64; N] = [$($x),+];
            let v64: [f64; N] = direction::<N>();
            let primal = |x: &[f64]| -> f64 {
                let a: [f64; N] = x.try_into().unwrap();
                $f(&a)
            };

            let (value, grad) = $grad(&x64);
            let (jvp_value, tangent) = $jvp(&x64, &v64);
            let (h_value, h_grad, h) = $hessian(&x64);
            let want = $f(&x64);
            for got in [value, jvp_value, h_value] {
                assert_eq!(got.to_bits(), want.to_bits(), "{}: value", stringify!($f));
            }
            // The same sweep on dual numbers: equal to rounding (a rule's
            // tangent and its pullback may round differently).
            for i in 0..N {
                assert_relative_eq!(h_grad[i], grad[i], epsilon = 1e-15, max_relative = 1e-14);
            }
            let got = Derivatives {
                value,
                grad: grad.iter().copied().collect(),
                tangent,
                hessian: (0..N).map(|i| (0..N).map(|j| h[(i, j)]).collect()).collect(),
            };
            check(stringify!($f), &primal, &x64, &v64, &got, TOL64);

            let x32: [f32; N] = x64.map(|x| x as f32);
            let v32: [f32; N] = v64.map(|x| x as f32);
            let (value, grad) = $grad(&x32);
            let (jvp_value, tangent) = $jvp(&x32, &v32);
            let (h_value, _, h) = $hessian(&x32);
            let want = $f(&x32);
            for got in [value, jvp_value, h_value] {
                assert_eq!(got.to_bits(), want.to_bits(), "{} at f32: value", stringify!($f));
            }
            let got = Derivatives {
                value: widen(value),
                grad: grad.iter().map(|&g| widen(g)).collect(),
                tangent: widen(tangent),
                hessian: (0..N).map(|i| (0..N).map(|j| widen(h[(i, j)])).collect()).collect(),
            };
            check(stringify!($f), &primal, &x64, &v64, &got, TOL32);
        }
    )*};
}

corpus! {
    sphere_derivatives: sphere, sphere_grad, sphere_jvp, sphere_hessian, [0.5, -1.25, 2.0];
    rosenbrock_derivatives: rosenbrock, rosenbrock_grad, rosenbrock_jvp, rosenbrock_hessian, [0.5, -0.75, 1.25, 0.25];
    rastrigin_derivatives: rastrigin, rastrigin_grad, rastrigin_jvp, rastrigin_hessian, [0.375, -1.125, 2.25];
    ackley_derivatives: ackley, ackley_grad, ackley_jvp, ackley_hessian, [0.375, -1.125, 0.75];
    griewank_derivatives: griewank, griewank_grad, griewank_jvp, griewank_hessian, [1.5, -2.75, 4.25];
    styblinski_tang_derivatives: styblinski_tang, styblinski_tang_grad, styblinski_tang_jvp, styblinski_tang_hessian, [-2.5, 1.25, 3.0];
    levy_derivatives: levy, levy_grad, levy_jvp, levy_hessian, [1.5, -0.75, 2.25];
    schwefel_derivatives: schwefel, schwefel_grad, schwefel_jvp, schwefel_hessian, [4.5, -12.25, 30.5];
    zakharov_derivatives: zakharov, zakharov_grad, zakharov_jvp, zakharov_hessian, [0.5, -0.25, 0.75];
    sum_of_squares_derivatives: sum_of_squares, sum_of_squares_grad, sum_of_squares_jvp, sum_of_squares_hessian, [0.5, -1.5, 2.25];
    dixon_price_derivatives: dixon_price, dixon_price_grad, dixon_price_jvp, dixon_price_hessian, [0.75, -0.5, 1.25];
    trid_derivatives: trid, trid_grad, trid_jvp, trid_hessian, [0.5, 1.75, -1.25, 2.5];
    michalewicz_derivatives: michalewicz, michalewicz_grad, michalewicz_jvp, michalewicz_hessian, [2.25, 1.5, 1.25];
    powell_derivatives: powell, powell_grad, powell_jvp, powell_hessian, [0.5, -0.25, 0.75, 1.25];
    beale_derivatives: beale, beale_grad, beale_jvp, beale_hessian, [1.5, 0.25];
    booth_derivatives: booth, booth_grad, booth_jvp, booth_hessian, [0.75, 2.5];
    matyas_derivatives: matyas, matyas_grad, matyas_jvp, matyas_hessian, [1.25, -0.5];
    himmelblau_derivatives: himmelblau, himmelblau_grad, himmelblau_jvp, himmelblau_hessian, [2.5, 1.75];
    three_hump_camel_derivatives: three_hump_camel, three_hump_camel_grad, three_hump_camel_jvp, three_hump_camel_hessian, [0.75, -0.5];
    easom_derivatives: easom, easom_grad, easom_jvp, easom_hessian, [2.75, 3.5];
    bohachevsky_derivatives: bohachevsky, bohachevsky_grad, bohachevsky_jvp, bohachevsky_hessian, [0.375, -0.25];
    mccormick_derivatives: mccormick, mccormick_grad, mccormick_jvp, mccormick_hessian, [-0.5, -1.25];
    goldstein_price_derivatives: goldstein_price, goldstein_price_grad, goldstein_price_jvp, goldstein_price_hessian, [0.25, -0.75];
    branin_derivatives: branin, branin_grad, branin_jvp, branin_hessian, [3.0, 2.25];
    six_hump_camel_derivatives: six_hump_camel, six_hump_camel_grad, six_hump_camel_jvp, six_hump_camel_hessian, [0.125, -0.75];
    colville_derivatives: colville, colville_grad, colville_jvp, colville_hessian, [0.75, 1.25, -0.5, 1.5];
    smooth_norm_derivatives: smooth_norm, smooth_norm_grad, smooth_norm_jvp, smooth_norm_hessian, [0.5, -0.75, 1.25];
    rosenbrock_3_derivatives: rosenbrock_3, rosenbrock_3_grad, rosenbrock_3_jvp, rosenbrock_3_hessian, [0.5, -0.75, 1.25];
}

#[test]
fn booth_at_f64_over_a_fixed_size_array() {
    let x = [0.75, 2.5];
    let v = direction::<2>();
    let (value, grad) = booth_f64_grad(&x);
    let (_, tangent) = booth_f64_jvp(&x, &v);
    let (h_value, _, h) = booth_f64_hessian(&x);
    assert_eq!(value.to_bits(), booth_f64(&x).to_bits());
    assert_eq!(h_value.to_bits(), value.to_bits());
    // Closed forms: ∇ = (10x1 + 8x2 − 34, 8x1 + 10x2 − 38), H = [[10, 8], [8, 10]].
    let (g1, g2) = (
        10.0 * x[0] + 8.0 * x[1] - 34.0,
        8.0 * x[0] + 10.0 * x[1] - 38.0,
    );
    assert_relative_eq!(grad[0], g1, epsilon = 1e-13, max_relative = 1e-13);
    assert_relative_eq!(grad[1], g2, epsilon = 1e-13, max_relative = 1e-13);
    assert_relative_eq!(
        tangent,
        g1 * v[0] + g2 * v[1],
        epsilon = 1e-13,
        max_relative = 1e-13
    );
    for (i, j, want) in [(0, 0, 10.0), (0, 1, 8.0), (1, 0, 8.0), (1, 1, 10.0)] {
        assert_relative_eq!(h[(i, j)], want, epsilon = 1e-13, max_relative = 1e-13);
    }
}

#[test]
fn an_array_by_value_beside_a_constant_array_at_f64() {
    let x = [0.75, 2.5];
    let w = [1.5, 0.25];
    let v = direction::<2>();
    let (value, grad) = weighted_booth_grad(x, &w);
    let (_, tangent) = weighted_booth_jvp(x, &w, &v);
    let (h_value, _, h) = weighted_booth_hessian(x, &w);
    assert_eq!(value.to_bits(), weighted_booth(x, &w).to_bits());
    assert_eq!(h_value.to_bits(), value.to_bits());
    // Closed forms: with a = x1 + 2x2 − 7, b = 2x1 + x2 − 5,
    // ∇ = (2w0·a + 4w1·b, 4w0·a + 2w1·b), H = [[2w0 + 8w1, 4w0 + 4w1], [4w0 + 4w1, 8w0 + 2w1]].
    let a = x[0] + 2.0 * x[1] - 7.0;
    let b = 2.0 * x[0] + x[1] - 5.0;
    let g = [
        2.0 * w[0] * a + 4.0 * w[1] * b,
        4.0 * w[0] * a + 2.0 * w[1] * b,
    ];
    let want_h = [
        [2.0 * w[0] + 8.0 * w[1], 4.0 * w[0] + 4.0 * w[1]],
        [4.0 * w[0] + 4.0 * w[1], 8.0 * w[0] + 2.0 * w[1]],
    ];
    for i in 0..2 {
        assert_relative_eq!(grad[i], g[i], epsilon = 1e-13, max_relative = 1e-13);
        for j in 0..2 {
            assert_relative_eq!(
                h[(i, j)],
                want_h[i][j],
                epsilon = 1e-13,
                max_relative = 1e-13
            );
        }
    }
    assert_relative_eq!(
        tangent,
        g[0] * v[0] + g[1] * v[1],
        epsilon = 1e-13,
        max_relative = 1e-13
    );
}

/// The other generated items of a function over `&[T; 2]`, at `f64` and
/// `f32`: `_vjp` is `_grad` scaled by its seed, `_grad_acc` adds `_grad`
/// into a buffer, `_hvp` along `v` is `_hessian`'s `H·v`, all to rounding
/// (`max_relative = 1e-12` at `f64`, `1e-5` at `f32`), and `_check` agrees
/// with central differences.
#[test]
fn every_mode_of_a_generic_fixed_size_array_function() {
    fn modes<T>(x: [T; 2], v: [T; 2], tol: f64)
    where
        T: Float + FromPrimitive + core::fmt::Debug + 'static + Into<f64>,
    {
        let (value, grad) = beale_grad(&x);
        let seed = T::from_f64(1.5).unwrap();
        let (vjp_value, pullback) = beale_vjp(&x);
        let (adjoint,) = pullback(seed);
        let mut buffer = [T::from_f64(0.25).unwrap(); 2];
        let acc_value = beale_grad_acc(&x, &mut buffer);
        let (hvp_value, hvp_grad, hv) = beale_hvp(&x, &v);
        let (_, _, h) = beale_hessian(&x);
        for got in [vjp_value, acc_value, hvp_value] {
            assert_eq!(got, value);
        }
        let close = |got: T, want: T| {
            assert_relative_eq!(got.into(), want.into(), epsilon = tol, max_relative = tol);
        };
        for i in 0..2 {
            close(adjoint[i], seed * grad[i]);
            close(buffer[i], T::from_f64(0.25).unwrap() + grad[i]);
            close(hvp_grad[i], grad[i]);
            close(hv[i], h[(i, 0)] * v[0] + h[(i, 1)] * v[1]);
        }
    }
    modes([1.5f64, 0.25], [0.75, -0.5], 1e-12);
    modes([1.5f32, 0.25], [0.75, -0.5], 1e-5);
    assert!(beale_check(&[1.5, 0.25]).is_within(1e-6, 1e-6));
    assert!(beale_check(&[1.5f32, 0.25]).is_within(1e-2, 1e-2));
}

/// Ackley with its parameters, and the function of the point alone calling
/// it with the usual ones, as a library writes the pair.
#[differentiable(jvp, hessian)]
pub fn ackley_abc<T>(param: &[T], a: T, b: T, c: T) -> T
where
    T: Float + FromPrimitive + Sum,
{
    let one = T::from_f64(1.0).unwrap();
    let n = T::from_usize(param.len()).unwrap();
    -a * (-b * ((one / n) * param.iter().map(|x| x.powi(2)).sum::<T>()).sqrt()).exp()
        - ((one / n) * param.iter().map(|&x| (c * x).cos()).sum::<T>()).exp()
        + a
        + one.exp()
}

#[differentiable(jvp, hessian)]
pub fn ackley_default<T>(param: &[T]) -> T
where
    T: Float + FromPrimitive + Sum,
{
    ackley_abc(
        param,
        T::from_f64(20.0).unwrap(),
        T::from_f64(0.2).unwrap(),
        T::from_f64(2.0 * PI).unwrap(),
    )
}

/// A function over `&[T; 2]` called from another, which passes its own
/// array on and a local array it builds.
#[differentiable(jvp, hessian)]
pub fn beale_twice<T>(param: &[T; 2]) -> T
where
    T: Float + FromPrimitive,
{
    let swapped = [param[1], param[0]];
    beale(param) + beale(&swapped)
}

#[test]
fn calls_between_generic_functions() {
    let x: [f64; 3] = [0.375, -1.125, 0.75];
    let (value, grad) = ackley_default_grad(&x);
    let (_, want_grad) = ackley_grad(&x);
    let (_, _, h) = ackley_default_hessian(&x);
    let (_, _, want_h) = ackley_hessian(&x);
    assert_eq!(value.to_bits(), ackley(&x).to_bits());
    for i in 0..3 {
        assert_relative_eq!(grad[i], want_grad[i], epsilon = 1e-14, max_relative = 1e-13);
        for j in 0..3 {
            assert_relative_eq!(
                h[(i, j)],
                want_h[(i, j)],
                epsilon = 1e-13,
                max_relative = 1e-12
            );
        }
    }

    let p: [f64; 2] = [1.5, 0.25];
    let primal = |x: &[f64]| beale_twice(&[x[0], x[1]]);
    let (_, g) = beale_twice_grad(&p);
    let (_, _, h) = beale_twice_hessian(&p);
    let (_, tangent) = beale_twice_jvp(&p, &[0.75, -0.5]);
    let want_g = fd_gradient(&primal, &p);
    let want_h = fd_hessian(&primal, &p);
    let s = primal(&p).abs().max(1.0);
    for i in 0..2 {
        assert_relative_eq!(g[i], want_g[i], epsilon = 1e-8 * s, max_relative = 1e-7);
        for j in 0..2 {
            assert_relative_eq!(
                h[(i, j)],
                want_h[i][j],
                epsilon = 1e-6 * s,
                max_relative = 1e-6
            );
        }
    }
    assert_relative_eq!(
        tangent,
        0.75 * want_g[0] - 0.5 * want_g[1],
        epsilon = 1e-8 * s,
        max_relative = 1e-7
    );
}
