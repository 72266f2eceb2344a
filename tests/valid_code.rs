//! Valid Rust that `#[differentiable]` once rejected or expanded into code
//! that did not compile: each case compiles here and its gradient is
//! checked.
//!
//! Expected gradients are closed forms. Polynomials in small dyadic
//! numbers are exact in binary and compared with `assert_eq!`; anything
//! through `sin`, `cos` or a division is compared with `assert_relative_eq!`
//! at `epsilon = 1e-12`, `max_relative = 1e-12` (a few ulps of the values
//! involved, which are of order 1). `NAME_check` compares with central
//! differences, whose error at the step `∛ε·max(1, |x|)` is about 1e-10 for
//! these smooth functions of order-1 arguments: it is asked for 1e-7.

// Loops over indices are what a differentiable body iterates with.
#![allow(clippy::needless_range_loop)]

use approx::assert_relative_eq;
use autograd::differentiable;
use nalgebra::DMatrix;

// ---- an argument named like its function, or like a sibling ----

/// An argument named like the function: `NAME_check` calls `scale(..)`.
#[differentiable]
fn scale(x: f64, scale: f64) -> f64 {
    x * scale * scale
}

/// An argument named like the generated `_grad`, which `_check` calls.
#[differentiable]
fn damp(x: f64, damp_grad: f64) -> f64 {
    x * damp_grad
}

/// A hand-written rule whose name is also an argument's, with the
/// function's own name as the other argument.
fn shifted_rule(g: f64, shifted: f64, _shifted_rule: f64, _out: f64) -> (f64, f64) {
    (g * 2.0 * shifted, g)
}

#[differentiable(backward = shifted_rule)]
fn shifted(shifted: f64, shifted_rule: f64) -> f64 {
    shifted * shifted + shifted_rule
}

#[test]
fn an_argument_named_like_its_function() {
    // x·s²: ∂x = s², ∂s = 2xs.
    assert_eq!(scale_grad(3.0, 0.5), (0.75, 0.25, 3.0));
    let (value, pullback) = scale_vjp(3.0, 0.5);
    assert_eq!(value, scale(3.0, 0.5));
    assert_eq!(pullback(2.0), (0.5, 6.0));
    let check = scale_check(3.0, 0.5);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
    assert_eq!(check.components().len(), 2);

    assert_eq!(damp_grad(2.0, 0.25), (0.5, 0.25, 2.0));
    assert!(damp_check(2.0, 0.25).is_within(1e-7, 1e-7));

    // s² + r: ∂s = 2s, ∂r = 1.
    assert_eq!(shifted_grad(1.5, 4.0), (6.25, 3.0, 1.0));
    assert!(shifted_check(1.5, 4.0).is_within(1e-7, 1e-7));
}

#[test]
fn a_function_local_to_a_block_with_an_argument_named_like_it() {
    #[differentiable]
    fn local(x: f64, local: f64) -> f64 {
        x * local + x
    }
    // x·l + x: ∂x = l + 1, ∂l = x.
    assert_eq!(local_grad(2.0, 3.0), (8.0, 4.0, 2.0));
    assert!(local_check(2.0, 3.0).is_within(1e-7, 1e-7));
}

// ---- explicit lifetimes ----

static WEIGHTS: [f64; 3] = [0.5, 2.0, -1.0];

/// A slice borrowed for `'static`.
#[differentiable]
fn weighted(w: &'static [f64], x: f64) -> f64 {
    w[0] * x + w[1] * w[2] * x * x
}

/// Named lifetimes, one bounded by the other, also in a `where` clause.
#[differentiable]
fn dot_of<'a, 'b: 'a, 'c>(x: &'a [f64], y: &'b [f64], z: &'c DMatrix<f64>) -> f64
where
    'c: 'a,
{
    x[0] * y[0] + x[1] * y[1] + z.sum() * x[0]
}

#[test]
fn a_static_slice() {
    // w0·x + w1·w2·x²: ∂w = (x, w2·x², w1·x²), ∂x = w0 + 2·w1·w2·x.
    let (value, d_w, d_x) = weighted_grad(&WEIGHTS, 2.0);
    assert_eq!(value, 0.5 * 2.0 - 2.0 * 4.0);
    assert_eq!(d_w, [2.0, -4.0, 8.0]);
    assert_eq!(d_x, 0.5 - 8.0);
    let (_, pullback) = weighted_vjp(&WEIGHTS, 2.0);
    assert_eq!(pullback(0.5), (vec![1.0, -2.0, 4.0], -3.75));
    let check = weighted_check(&WEIGHTS, 2.0);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
    assert_eq!(check.components().len(), 4);
}

#[test]
fn named_lifetimes() {
    let z = DMatrix::from_row_slice(2, 2, &[3.0, 9.0, 9.0, 0.5]);
    // x0·y0 + x1·y1 + Σz·x0: ∂x = (y0 + Σz, y1), ∂y = x, ∂z = x0 everywhere.
    let (value, d_x, d_y, d_z) = dot_of_grad(&[1.0, 2.0], &[4.0, 8.0], &z);
    assert_eq!(value, 4.0 + 16.0 + 21.5);
    assert_eq!((d_x, d_y), (vec![25.5, 8.0], vec![1.0, 2.0]));
    assert_eq!(d_z, DMatrix::from_element(2, 2, 1.0));
    assert!(dot_of_check(&[1.0, 2.0], &[4.0, 8.0], &z).is_within(1e-7, 1e-7));
}

/// Elided lifetimes are named after their argument in the generated
/// items (`'x` for `x`), which must not clash with a lifetime parameter or
/// a loop label of the same name, nor break on a raw identifier.
#[differentiable]
#[allow(clippy::needless_lifetimes, clippy::ptr_arg)]
fn labelled<'x>(x: &'x [f64], r#type: &[f64], y: &[f64], y1: &Vec<f64>) -> f64 {
    let mut s = 0.0;
    'y: for i in 0..x.len() {
        if i == 2 {
            break 'y;
        }
        s += x[i] * r#type[i] * y[i] * y1[i];
    }
    s
}

#[test]
fn elided_lifetimes_named_after_their_arguments() {
    let (x, t, y, y1) = (
        [1.0, 2.0, 3.0],
        [4.0, 5.0, 6.0],
        [0.5, 0.25, 2.0],
        vec![2.0, 4.0, 8.0],
    );
    // Σ_{i<2} x_i t_i y_i y1_i = 4 + 10 = 14; each factor's partial is the
    // product of the other three, zero at i = 2 (the loop breaks first).
    let (value, d_x, d_t, d_y, d_y1) = labelled_grad(&x, &t, &y, &y1);
    assert_eq!(value, 14.0);
    assert_eq!(d_x, vec![4.0, 5.0, 0.0]);
    assert_eq!(d_t, vec![1.0, 2.0, 0.0]);
    assert_eq!(d_y, vec![8.0, 40.0, 0.0]);
    assert_eq!(d_y1, vec![2.0, 2.5, 0.0]);
}

// ---- lint attributes on arguments ----

/// Every lint attribute is kept on the function as written and on the
/// generated ones (`expect` as `allow`, which they may not trigger): with
/// these lints denied, a lost or a misplaced attribute fails to compile.
#[deny(
    unused_variables,
    unused_mut,
    non_snake_case,
    unfulfilled_lint_expectations
)]
mod lints {
    use autograd::differentiable;

    #[differentiable]
    pub fn attributed(
        #[allow(non_snake_case)] X: f64,
        #[cfg_attr(all(), allow(unused_mut))] mut y: f64,
        #[expect(unused_variables)] unused: f64,
        #[cfg_attr(any(), deny(unused))]
        #[warn(clippy::float_cmp)]
        z: f64,
    ) -> f64 {
        X * y * z
    }
}

#[test]
fn lint_attributes_on_arguments() {
    // x·y·z: ∂x = yz, ∂y = xz, ∂unused = 0, ∂z = xy.
    assert_eq!(
        lints::attributed_grad(2.0, 3.0, 7.0, 0.5),
        (3.0, 1.5, 1.0, 0.0, 6.0)
    );
    let (_, pullback) = lints::attributed_vjp(2.0, 3.0, 7.0, 0.5);
    assert_eq!(pullback(2.0), (3.0, 2.0, 0.0, 12.0));
    assert!(lints::attributed_check(2.0, 3.0, 7.0, 0.5).is_within(1e-7, 1e-7));
}

// ---- integer bit operations ----

/// `!` on integers and `bool`s, shifts, `^`, `&` and `|`: primal code
/// that chooses what multiplies `x`.
#[allow(clippy::nonminimal_bool)]
#[differentiable]
fn bits(x: f64, n: usize, mask: u32) -> f64 {
    let even = !n & 1;
    let m = (!mask) >> 2;
    let k = n ^ 1;
    let small = !(n > 4) | (mask == 0);
    let mut s = x * (even as f64) + x * x * (m as f64) + (k as f64);
    if small ^ (n == 2) {
        s *= x;
    }
    s
}

#[test]
fn integer_bit_operations() {
    // n = 4: even = 1, !mask >> 2 = 7 >> 2 = 1, k = 5, small: s·x.
    // s = x + x² + 5, f = x² + x³ + 5x: f' = 2x + 3x² + 5.
    let mask = !7u32;
    assert_eq!(
        bits_grad(2.0, 4, mask),
        (4.0 + 8.0 + 10.0, 4.0 + 12.0 + 5.0)
    );
    // n = 5: even = 0, k = 4, not small: f = x² + 4, f' = 2x.
    assert_eq!(bits_grad(2.0, 5, mask), (8.0, 4.0));
    // n = 2: small ^ true is false: f = x + x² + 3, f' = 1 + 2x.
    assert_eq!(bits_grad(2.0, 2, mask), (9.0, 5.0));
    assert!(bits_check(2.0, 4, mask).is_within(1e-7, 1e-7));
}

// ---- what a `map` closure may read ----

const SHIFT: f64 = 0.25;

/// A `#[constant]` argument, an integer argument, a local computed from
/// them, `std::f64::consts::PI` and a `const`, read in the closure.
#[differentiable]
fn map_constants(m: &DMatrix<f64>, #[constant] c: f64, n: usize) -> f64 {
    let k = n as f64 * 0.5;
    let e = m.map(|v| (v * c).sin() + k * v * v + std::f64::consts::PI * SHIFT);
    e.sum()
}

/// The closure reads a loop's index, and a value whose gradient is stopped.
#[differentiable]
fn map_in_loop(m: &DMatrix<f64>, x: f64) -> f64 {
    let w = autograd::stop_gradient(x * x);
    let mut acc = 0.0;
    for i in 0..3 {
        let scaled = m.map(|v| v * (i as f64) + w * v * v);
        acc += scaled.sum() * x;
    }
    acc
}

/// Data the closure reads from `#[constant]` arguments.
pub struct Params {
    pub scale: f64,
}

/// Elements and fields of `#[constant]` arguments, and a variable the loop
/// carries, read in the closure.
#[differentiable]
fn map_data(m: &DMatrix<f64>, #[constant] w: &[f64], #[constant] p: &Params) -> f64 {
    let mut k = 1.0;
    let mut acc = 0.0;
    for i in 0..2 {
        acc += m.map(|v| v * w[i] * k + p.scale * v * v).sum();
        k *= 2.0;
    }
    acc
}

/// A matrix result: `NAME_vjp` only.
#[differentiable]
fn map_matrix(m: DMatrix<f64>, #[constant] c: f64) -> DMatrix<f64> {
    m.map(|v| v * v * c)
}

#[test]
fn a_map_closure_reads_constants() {
    let m = DMatrix::from_row_slice(2, 2, &[0.5, -1.0, 2.0, 0.25]);
    let (c, n) = (1.5, 3);
    let k = 1.5;
    let (value, d_m) = map_constants_grad(&m, c, n);
    let expected: f64 = m
        .iter()
        .map(|v| (v * c).sin() + k * v * v + std::f64::consts::PI * SHIFT)
        .sum();
    assert_relative_eq!(value, expected, epsilon = 1e-12, max_relative = 1e-12);
    // ∂/∂v = c·cos(vc) + 2kv, element by element.
    for (d, v) in d_m.iter().zip(m.iter()) {
        let want = c * (v * c).cos() + 2.0 * k * v;
        assert_relative_eq!(*d, want, epsilon = 1e-12, max_relative = 1e-12);
    }
    assert!(map_constants_check(&m, c, n).is_within(1e-7, 1e-7));
}

#[test]
fn a_map_closure_in_a_loop() {
    let m = DMatrix::from_row_slice(1, 2, &[0.5, -2.0]);
    let x = 1.5;
    // f = x·Σ_i Σ_v (iv + w·v²), w = x² with its gradient stopped:
    // f = x·(3·Σv + 3w·Σv²); ∂v = x·(3 + 6wv); ∂x = 3Σv + 3w·Σv² (w fixed).
    let (sum_v, sum_v2) = (0.5 - 2.0, 0.25 + 4.0);
    let w = x * x;
    let (value, d_m, d_x) = map_in_loop_grad(&m, x);
    assert_eq!(value, x * (3.0 * sum_v + 3.0 * w * sum_v2));
    assert_eq!(d_x, 3.0 * sum_v + 3.0 * w * sum_v2);
    assert_eq!(
        d_m,
        DMatrix::from_row_slice(1, 2, &[x * (3.0 + 6.0 * w * 0.5), x * (3.0 - 12.0 * w)])
    );
}

#[test]
fn a_map_closure_reads_constant_data() {
    let m = DMatrix::from_row_slice(1, 2, &[0.5, -2.0]);
    let p = Params { scale: 0.25 };
    // Σ_i Σ_v (v·w_i·2^i + s·v²): ∂v = w0 + 2·w1 + 2·2·s·v.
    let w = [3.0, 0.5];
    let (value, d_m) = map_data_grad(&m, &w, &p);
    assert_eq!(value, map_data(&m, &w, &p));
    assert_eq!(value, (3.0 + 1.0) * (0.5 - 2.0) + 2.0 * 0.25 * (0.25 + 4.0));
    let d = |v: f64| 3.0 + 1.0 + 4.0 * 0.25 * v;
    assert_eq!(d_m, DMatrix::from_row_slice(1, 2, &[d(0.5), d(-2.0)]));
}

#[test]
fn a_map_closure_with_a_matrix_result() {
    let m = DMatrix::from_row_slice(1, 3, &[1.0, -0.5, 2.0]);
    let (value, pullback) = map_matrix_vjp(m.clone(), 3.0);
    assert_eq!(value, m.map(|v| v * v * 3.0));
    // seed s: ∂v = 2·c·v·s.
    let seed = DMatrix::from_row_slice(1, 3, &[1.0, 2.0, 0.5]);
    let (d_m,) = pullback(seed);
    assert_eq!(d_m, DMatrix::from_row_slice(1, 3, &[6.0, -6.0, 6.0]));
}

// ---- a module without the prelude ----

/// Generated code names everything by absolute path: nothing of the
/// prelude (`FnOnce`, `Vec`, `Clone`, `Iterator`, ..) is in scope here.
#[no_implicit_prelude]
mod bare {
    use ::autograd::differentiable;
    use ::nalgebra::DMatrix;

    #[differentiable]
    pub fn square(x: f64) -> f64 {
        x * x
    }

    /// Loops (`for` and `while`, each reversed by the generated code), a
    /// branch, and a call.
    #[differentiable]
    pub fn walk(x: &[f64], y: f64) -> f64 {
        let mut s = 0.0;
        for i in 0..x.len() {
            s += square(x[i]) * y;
        }
        for i in 0..x.len() {
            s *= 1.0 + x[i] * 0.5;
        }
        let mut j = 0;
        while j < x.len() {
            if x[j] > 0.0 {
                s += x[j];
            } else {
                s -= x[j] * y;
            }
            j += 1;
        }
        s
    }

    /// A matrix by value (cloned where the sweeps keep it) and `map`.
    #[differentiable]
    pub fn frobenius(m: DMatrix<f64>, #[constant] c: f64) -> f64 {
        let e = m.map(|v| v.sin() * c);
        let t = m.transpose() * e;
        t.sum() + m.sum()
    }

    /// A single element-wise rule, on a matrix result.
    #[differentiable]
    pub fn squash(m: DMatrix<f64>) -> DMatrix<f64> {
        m.map(f64::tanh)
    }

    /// `(2a·g, 3g)` for `a² + 3b`.
    pub fn square_plus_rule(g: f64, a: f64, _b: f64, _out: f64) -> (f64, f64) {
        (2.0 * a * g, 3.0 * g)
    }

    /// A hand-written rule.
    #[differentiable(backward = square_plus_rule)]
    pub fn square_plus(a: f64, b: f64) -> f64 {
        a * a + 3.0 * b
    }
}

#[test]
fn a_module_without_the_prelude() {
    use bare::*;

    assert_eq!(square_grad(3.0), (9.0, 6.0));
    assert!(square_check(3.0).is_within(1e-7, 1e-7));

    let x = [0.5, -1.0];
    let y = 2.0;
    // After the first loop s = y·(x0² + x1²); the second multiplies by
    // p = (1 + x0/2)(1 + x1/2); the third adds x0 (> 0) and -x1·y (x1 < 0).
    let p = (1.0 + x[0] * 0.5) * (1.0 + x[1] * 0.5);
    let q = x[0] * x[0] + x[1] * x[1];
    let (value, d_x, d_y) = walk_grad(&x, y);
    assert_relative_eq!(
        value,
        y * q * p + x[0] - x[1] * y,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    let d_x0 = y * 2.0 * x[0] * p + y * q * 0.5 * (1.0 + x[1] * 0.5) + 1.0;
    let d_x1 = y * 2.0 * x[1] * p + y * q * 0.5 * (1.0 + x[0] * 0.5) - y;
    assert_relative_eq!(d_x[0], d_x0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(d_x[1], d_x1, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(d_y, q * p - x[1], epsilon = 1e-12, max_relative = 1e-12);
    assert!(walk_check(&x, y).is_within(1e-7, 1e-7));

    let m = DMatrix::from_row_slice(2, 2, &[0.5, -1.0, 2.0, 0.25]);
    let c = 0.5;
    let (value, d_m) = frobenius_grad(m.clone(), c);
    assert_eq!(value, frobenius(m.clone(), c));
    // Σ(MᵀE) = Σ_k r_k·s_k with r, s the row sums of M and E = c·sin(M):
    // ∂M_kl = s_k + r_k·c·cos(M_kl) + 1.
    let e = m.map(|v| v.sin() * c);
    for k in 0..2 {
        let (r, s) = (m.row(k).sum(), e.row(k).sum());
        for l in 0..2 {
            let want = s + r * c * m[(k, l)].cos() + 1.0;
            assert_relative_eq!(d_m[(k, l)], want, epsilon = 1e-12, max_relative = 1e-12);
        }
    }
    let check = frobenius_check(m.clone(), 0.5);
    assert!(check.is_within(1e-7, 1e-7), "{check}");
    assert_eq!(check.components().len(), 4);

    // tanh' = 1 − tanh².
    let (value, pullback) = squash_vjp(m.clone());
    let (d_m,) = pullback(DMatrix::from_element(2, 2, 2.0));
    for (d, t) in d_m.iter().zip(value.iter()) {
        assert_relative_eq!(
            *d,
            2.0 * (1.0 - t * t),
            epsilon = 1e-12,
            max_relative = 1e-12
        );
    }

    assert_eq!(square_plus_grad(1.5, 2.0), (8.25, 3.0, 3.0));
    assert!(square_plus_check(1.5, 2.0).is_within(1e-7, 1e-7));
}

// ---- a `#[constant]` argument of the user's own type, by value ----

/// Market data a pricing function takes by value: `NAME_check` calls the
/// function once per component, so it needs the data again each time.
#[derive(Clone)]
struct Market {
    rates: Vec<f64>,
}

/// Σ rᵢ·x over the market's rates, times x: ∂/∂x = 2·x·Σ rᵢ.
#[differentiable]
fn exposure(x: f64, #[constant] market: Market) -> f64 {
    let rates: &[f64] = &market.rates;
    let mut s = 0.0;
    for i in 0..rates.len() {
        s += rates[i] * x;
    }
    s * x
}

/// A type that is not `Clone`: the function and its `_grad` are still
/// generated (each takes it once); only `NAME_check` would need it twice.
struct Once(f64);

#[differentiable]
fn offset_by(x: f64, #[constant] by: Once) -> f64 {
    x * x + by.0
}

/// Borrowed quotes, under a lifetime that happens to be named like the one
/// the `_check` bound introduces: the bound picks another name.
#[derive(Clone)]
struct Quotes<'check> {
    rates: &'check [f64],
}

/// x² · r₀: ∂/∂x = 2·x·r₀.
#[differentiable]
fn quoted<'check>(x: f64, #[constant] quotes: Quotes<'check>) -> f64 {
    let rates: &[f64] = quotes.rates;
    x * x * rates[0]
}

#[test]
fn a_constant_argument_of_a_user_type_by_value_is_kept_for_the_check() {
    let market = || Market {
        rates: vec![0.5, 0.25, 1.25],
    };
    let (value, dx) = exposure_grad(1.5, market());
    assert_eq!(value, 2.0 * 1.5 * 1.5);
    assert_eq!(dx, 2.0 * 1.5 * 2.0);
    assert!(exposure_check(1.5, market()).is_within(1e-7, 1e-7));
    assert_eq!(offset_by_grad(3.0, Once(0.5)), (9.5, 6.0));
    let rates = [1.5];
    let quotes = Quotes { rates: &rates };
    assert_eq!(quoted_grad(2.0, quotes.clone()), (6.0, 6.0));
    assert!(quoted_check(2.0, quotes).is_within(1e-7, 1e-7));
}

// A generic function whose scalar parameter is named `F` (as in `F: Float`)
// or `Called`: the generated callee check named its own type parameter `F`,
// so the function did not compile (E0403) once another one called it.
#[autograd::differentiable(jvp, hessian)]
fn scaled_exp<F: num_traits::Float>(x: F, y: F) -> F {
    x * y.exp()
}

#[autograd::differentiable]
fn scaled_exp_plus_square<F: num_traits::Float>(x: F) -> F {
    scaled_exp(x, x) + x * x
}

#[autograd::differentiable]
fn sine_of<Called: num_traits::Float>(x: Called) -> Called {
    x.sin()
}

#[test]
fn a_scalar_parameter_named_f_or_called() {
    // d/dx (x·eˣ + x²) = eˣ + x·eˣ + 2x.
    let x = 0.3_f64;
    let (value, dx) = scaled_exp_plus_square_grad(x);
    assert_eq!(value.to_bits(), scaled_exp_plus_square(x).to_bits());
    assert!((dx - (x.exp() * (1.0 + x) + 2.0 * x)).abs() < 1e-15, "{dx}");
    let (_, g, h) = scaled_exp_hessian(1.0, 0.5);
    let e = 0.5_f64.exp();
    assert_eq!((g[0], g[1]), (e, e));
    assert_eq!((h[(0, 0)], h[(0, 1)], h[(1, 1)]), (0.0, e, e));
    assert_eq!(sine_of_grad(0.5_f32), (0.5_f32.sin(), 0.5_f32.cos()));
}

// ---- fields bound by a `match` on a reference ----

/// A curve instrument: matched through `&Instrument`, so its arms bind
/// `tenor: &f64` and `years: &usize` (Rust's default binding mode).
#[derive(Clone, Copy, Debug)]
enum Instrument {
    Deposit { tenor: f64 },
    Swap { years: usize },
}

/// Arithmetic on the bound references, `q * tenor` and `years - 1`,
/// expanded into `f64 * &&f64` (E0277) before such a field was read by
/// value.
#[differentiable]
fn quoted_sum(quotes: &[f64], #[constant] instruments: &[Instrument]) -> f64 {
    let mut s = 0.0;
    for (q, inst) in quotes.iter().zip(instruments) {
        match inst {
            Instrument::Deposit { tenor } => s += q * tenor,
            Instrument::Swap { years } => s += q * q * (years - 1) as f64,
        }
    }
    s
}

#[test]
fn fields_bound_through_a_reference_are_read_by_value() {
    let instruments = [
        Instrument::Deposit { tenor: 0.5 },
        Instrument::Swap { years: 3 },
    ];
    let (v, dq) = quoted_sum_grad(&[2.0, 3.0], &instruments);
    // 2 · 0.5 + 3² · 2 = 19; ∂/∂q = (0.5, 2 · 3 · 2).
    assert_eq!(v, 19.0);
    assert_eq!(dq, vec![0.5, 12.0]);
}
