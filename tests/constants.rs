//! `const` and `static` items read by a differentiable body (issue 36,
//! "What must work" item 1: "`const` items do not compile under
//! `hessian`"): float constants, float arrays indexed and iterated, integer
//! constants as loop bounds and indices, `std::f64::consts::PI`,
//! `f64::consts::E` and `f64::EPSILON`, at module level and inside the body,
//! in every generated item (`_grad`, `_grad_acc`, `_vjp`, `_check`, `_jvp`,
//! `_hvp`, `_hessian`, `_jacobian`), through `#[checkpoint]` loops, in a
//! method of an `impl` block, and in generic functions at f32 and f64.
//! Before the fix every `hessian` function here was rejected ("cannot
//! multiply `f64` by `__AdScalar`", or E0401 for a `const` in the body).
//!
//! Expected values are closed forms, written out per function below.

// Locals and constants written as numerical code writes them.
#![allow(clippy::needless_range_loop, clippy::approx_constant)]

use std::f64::consts::PI;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::num_traits::Float;

/// A closed form of a few operations on values of order 1: agreement to
/// 1e-12 relative (1e-13 absolute near zero) at f64.
const ABS: f64 = 1e-13;
const REL: f64 = 1e-12;

const K: f64 = 0.7;
const C: [f64; 4] = [0.5, -1.25, 0.75, 2.0];
const DEGREE: usize = 4;
const TERMS: usize = 3;
static SCALE: f64 = 1.5;
static WEIGHTS: [f64; 3] = [0.25, -0.5, 1.25];
const K32: f32 = 0.75;

/// Checks `$f` at `$x` in every generated item of a scalar function against
/// its first and second derivatives `$d1`, `$d2`.
macro_rules! every_mode {
    ($x:expr, d1 = $d1:expr, d2 = $d2:expr,
     $f:ident, $grad:ident, $acc:ident, $vjp:ident, $check:ident,
     $jvp:ident, $hvp:ident, $hessian:ident) => {{
        let x: f64 = $x;
        let (d1, d2): (f64, f64) = ($d1, $d2);
        let value = $f(x);

        let (v, g) = $grad(x);
        assert_eq!(v.to_bits(), value.to_bits(), "_grad value");
        assert_relative_eq!(g, d1, epsilon = ABS, max_relative = REL);

        let mut acc = 0.5;
        let v = $acc(x, &mut acc);
        assert_eq!(v.to_bits(), value.to_bits(), "_grad_acc value");
        assert_relative_eq!(acc, 0.5 + d1, epsilon = ABS, max_relative = REL);

        let (v, pullback) = $vjp(x);
        assert_eq!(v.to_bits(), value.to_bits(), "_vjp value");
        let (dx,) = pullback(-2.0);
        assert_relative_eq!(dx, -2.0 * d1, epsilon = ABS, max_relative = REL);

        let check = $check(x);
        assert!(check.is_within(1e-7, 1e-6), "{check:?}");

        let (v, t) = $jvp(x, 1.5);
        assert_eq!(v.to_bits(), value.to_bits(), "_jvp value");
        assert_relative_eq!(t, 1.5 * d1, epsilon = ABS, max_relative = REL);

        let (v, g, hv) = $hvp(x, 1.5);
        assert_eq!(v.to_bits(), value.to_bits(), "_hvp value");
        assert_relative_eq!(g, d1, epsilon = ABS, max_relative = REL);
        assert_relative_eq!(hv, 1.5 * d2, epsilon = ABS, max_relative = REL);

        let (v, g, h) = $hessian(x);
        assert_eq!(v.to_bits(), value.to_bits(), "_hessian value");
        assert_relative_eq!(g[0], d1, epsilon = ABS, max_relative = REL);
        assert_relative_eq!(h[(0, 0)], d2, epsilon = ABS, max_relative = REL);
    }};
}

// ---------------------------------------------------------------------------
// Module constants.

/// f = e^{Kx}: f' = K·e^{Kx}, f'' = K²·e^{Kx}.
#[differentiable(jvp, hessian)]
fn exp_k(x: f64) -> f64 {
    (K * x).exp()
}

#[test]
fn a_module_float_constant_in_every_mode() {
    for x in [-1.3, 0.4, 2.1] {
        let e = (K * x).exp();
        every_mode!(
            x,
            d1 = K * e,
            d2 = K * K * e,
            exp_k,
            exp_k_grad,
            exp_k_grad_acc,
            exp_k_vjp,
            exp_k_check,
            exp_k_jvp,
            exp_k_hvp,
            exp_k_hessian
        );
    }
}

/// Horner's scheme over a `const` array, indexed from an integer `const`:
/// p = C₀ + C₁x + C₂x² + C₃x³.
#[differentiable(jvp, hessian)]
fn horner(x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..DEGREE {
        s = s * x + C[DEGREE - 1 - i];
    }
    s
}

/// The same polynomial, the array iterated.
#[differentiable(jvp, hessian)]
fn power_series(x: f64) -> f64 {
    let mut s = 0.0;
    let mut p = 1.0;
    for &c in C.iter() {
        s += c * p;
        p *= x;
    }
    s
}

fn poly_d1(x: f64) -> f64 {
    C[1] + 2.0 * C[2] * x + 3.0 * C[3] * x * x
}

fn poly_d2(x: f64) -> f64 {
    2.0 * C[2] + 6.0 * C[3] * x
}

#[test]
fn a_const_array_indexed_and_iterated_in_every_mode() {
    for x in [-0.8, 0.3, 1.6] {
        every_mode!(
            x,
            d1 = poly_d1(x),
            d2 = poly_d2(x),
            horner,
            horner_grad,
            horner_grad_acc,
            horner_vjp,
            horner_check,
            horner_jvp,
            horner_hvp,
            horner_hessian
        );
        every_mode!(
            x,
            d1 = poly_d1(x),
            d2 = poly_d2(x),
            power_series,
            power_series_grad,
            power_series_grad_acc,
            power_series_vjp,
            power_series_check,
            power_series_jvp,
            power_series_hvp,
            power_series_hessian
        );
    }
}

/// f = πx² + e·x + ε: f' = 2πx + e, f'' = 2π.
#[differentiable(jvp, hessian)]
fn float_consts(x: f64) -> f64 {
    PI * x * x + core::f64::consts::E * x + f64::EPSILON
}

/// f = π·sin x + ε·x: f' = π cos x + ε, f'' = −π sin x.
#[differentiable(jvp, hessian)]
fn float_consts_in_calls(x: f64) -> f64 {
    std::f64::consts::PI * x.sin() + x * f64::EPSILON
}

#[test]
fn std_float_constants_in_every_mode() {
    for x in [-1.1, 0.6, 2.4] {
        every_mode!(
            x,
            d1 = 2.0 * PI * x + std::f64::consts::E,
            d2 = 2.0 * PI,
            float_consts,
            float_consts_grad,
            float_consts_grad_acc,
            float_consts_vjp,
            float_consts_check,
            float_consts_jvp,
            float_consts_hvp,
            float_consts_hessian
        );
        every_mode!(
            x,
            d1 = PI * x.cos() + f64::EPSILON,
            d2 = -PI * x.sin(),
            float_consts_in_calls,
            float_consts_in_calls_grad,
            float_consts_in_calls_grad_acc,
            float_consts_in_calls_vjp,
            float_consts_in_calls_check,
            float_consts_in_calls_jvp,
            float_consts_in_calls_hvp,
            float_consts_in_calls_hessian
        );
    }
}

/// f = S·sin x + Σᵢ Wᵢ·x^{i+1} with `static`s S and W:
/// f' = S cos x + Σ (i+1)Wᵢxⁱ, f'' = −S sin x + Σ i(i+1)Wᵢx^{i−1}.
#[differentiable(jvp, hessian)]
fn statics(x: f64) -> f64 {
    let mut s = SCALE * x.sin();
    for i in 0..WEIGHTS.len() {
        s += WEIGHTS[i] * x.powi(i as i32 + 1);
    }
    s
}

#[test]
fn static_floats_and_arrays_in_every_mode() {
    for x in [-0.9, 0.5, 1.8] {
        let d1 = SCALE * x.cos() + WEIGHTS[0] + 2.0 * WEIGHTS[1] * x + 3.0 * WEIGHTS[2] * x * x;
        let d2 = -SCALE * x.sin() + 2.0 * WEIGHTS[1] + 6.0 * WEIGHTS[2] * x;
        every_mode!(
            x,
            d1 = d1,
            d2 = d2,
            statics,
            statics_grad,
            statics_grad_acc,
            statics_vjp,
            statics_check,
            statics_jvp,
            statics_hvp,
            statics_hessian
        );
    }
}

/// f = x + x² + x³ (TERMS = 3 terms, an integer bound), plus C[TERMS]·x:
/// f' = 1 + 2x + 3x² + C₃, f'' = 2 + 6x.
#[differentiable(jvp, hessian)]
fn integer_bound(x: f64) -> f64 {
    let mut s = 0.0;
    let mut p = x;
    for _ in 0..TERMS {
        s += p;
        p *= x;
    }
    s + C[TERMS] * x + (TERMS as f64) * 0.0
}

#[test]
fn an_integer_const_as_loop_bound_and_index_in_every_mode() {
    for x in [-1.4, 0.2, 1.1] {
        every_mode!(
            x,
            d1 = 1.0 + 2.0 * x + 3.0 * x * x + C[3],
            d2 = 2.0 + 6.0 * x,
            integer_bound,
            integer_bound_grad,
            integer_bound_grad_acc,
            integer_bound_vjp,
            integer_bound_check,
            integer_bound_jvp,
            integer_bound_hvp,
            integer_bound_hessian
        );
    }
}

// ---------------------------------------------------------------------------
// Items inside the body.

/// f = A·x² + B·x + Σ Dᵢ with `const A`, `static B`, `const D: [f64; 2]`
/// and an integer `const M` declared in the body: f' = 2Ax + B, f'' = 2A.
#[differentiable(jvp, hessian)]
fn body_items(x: f64) -> f64 {
    const A: f64 = 2.5;
    static B: f64 = -0.75;
    const D: [f64; 2] = [0.125, 0.5];
    const M: usize = 2;
    let mut s = A * x * x + B * x;
    for i in 0..M {
        s += D[i];
    }
    s
}

#[test]
fn const_and_static_items_in_the_body_in_every_mode() {
    for x in [-0.7, 0.9, 2.2] {
        every_mode!(
            x,
            d1 = 2.0 * 2.5 * x - 0.75,
            d2 = 2.0 * 2.5,
            body_items,
            body_items_grad,
            body_items_grad_acc,
            body_items_vjp,
            body_items_check,
            body_items_jvp,
            body_items_hvp,
            body_items_hessian
        );
    }
}

/// A `const` of an inner block, named like nothing outside it: the
/// generated code declares it for the whole function, which changes no
/// read. f = 4x² + K·x: f' = 8x + K, f'' = 8. (One named like a module
/// constant read outside the block is an error: ui-tests/tests/ui/const_shadowed_in_block.rs.)
#[differentiable(jvp, hessian)]
fn inner_block_const(x: f64) -> f64 {
    let y = K * x;
    let z = {
        const FOUR: f64 = 4.0;
        FOUR * x * x
    };
    z + y
}

#[test]
fn a_const_of_an_inner_block() {
    for x in [-0.6, 1.3] {
        every_mode!(
            x,
            d1 = 8.0 * x + K,
            d2 = 8.0,
            inner_block_const,
            inner_block_const_grad,
            inner_block_const_grad_acc,
            inner_block_const_vjp,
            inner_block_const_check,
            inner_block_const_jvp,
            inner_block_const_hvp,
            inner_block_const_hessian
        );
    }
}

// ---------------------------------------------------------------------------
// Two arguments: the Hessian's off-diagonal.

/// f = K·x·y + C₁·y²: ∇f = (K y, K x + 2C₁y), H = [[0, K], [K, 2C₁]].
#[differentiable(jvp, hessian)]
fn bilinear(x: f64, y: f64) -> f64 {
    K * x * y + C[1] * y * y
}

#[test]
fn the_hessian_of_two_arguments_reads_the_constants() {
    let (x, y) = (0.8, -1.7);
    let (v, g, h) = bilinear_hessian(x, y);
    assert_eq!(v.to_bits(), bilinear(x, y).to_bits());
    assert_relative_eq!(g[0], K * y, epsilon = ABS, max_relative = REL);
    assert_relative_eq!(
        g[1],
        K * x + 2.0 * C[1] * y,
        epsilon = ABS,
        max_relative = REL
    );
    let want = [[0.0, K], [K, 2.0 * C[1]]];
    for i in 0..2 {
        for j in 0..2 {
            assert_relative_eq!(h[(i, j)], want[i][j], epsilon = ABS, max_relative = REL);
        }
    }
    let (_, gx, gy, hx, hy) = bilinear_hvp(x, y, 0.5, -2.0);
    assert_relative_eq!(gx, K * y, epsilon = ABS, max_relative = REL);
    assert_relative_eq!(
        gy,
        K * x + 2.0 * C[1] * y,
        epsilon = ABS,
        max_relative = REL
    );
    assert_relative_eq!(hx, K * -2.0, epsilon = ABS, max_relative = REL);
    assert_relative_eq!(
        hy,
        K * 0.5 + 2.0 * C[1] * -2.0,
        epsilon = ABS,
        max_relative = REL
    );
}

// ---------------------------------------------------------------------------
// `_jacobian` of a vector-valued function.

/// F = (K·x₀², C₂·x₀·x₁ + π): J = [[2K x₀, 0], [C₂ x₁, C₂ x₀]].
#[differentiable(jvp)]
fn vector_valued(x: &[f64]) -> Vec<f64> {
    vec![K * x[0] * x[0], C[2] * x[0] * x[1] + PI]
}

#[test]
fn the_jacobian_reads_the_constants() {
    let x = [1.3, -0.4];
    let (value, j) = vector_valued_jacobian(&x);
    assert_eq!(value, vector_valued(&x));
    let want = [[2.0 * K * x[0], 0.0], [C[2] * x[1], C[2] * x[0]]];
    for r in 0..2 {
        for c in 0..2 {
            assert_relative_eq!(j[(r, c)], want[r][c], epsilon = ABS, max_relative = REL);
        }
    }
    let (_, t) = vector_valued_jvp(&x, &[1.0, 0.0]);
    assert_relative_eq!(t[0], want[0][0], epsilon = ABS, max_relative = REL);
    assert_relative_eq!(t[1], want[1][0], epsilon = ABS, max_relative = REL);
}

// ---------------------------------------------------------------------------
// `#[checkpoint]` loops.

/// s₀ = x, s_{i+1} = sin(K·sᵢ) + Cᵢ for i < DEGREE, f = s_DEGREE.
#[differentiable(jvp, hessian)]
fn checkpointed(x: f64) -> f64 {
    let mut s = x;
    #[checkpoint(snapshots = 2)]
    for i in 0..DEGREE {
        s = (K * s).sin() + C[i];
    }
    s
}

/// The recurrence's closed form: s' = K cos(K s)·s',
/// s'' = −K² sin(K s)·s'² + K cos(K s)·s''.
fn checkpointed_closed(x: f64) -> (f64, f64) {
    let (mut s, mut d1, mut d2) = (x, 1.0, 0.0);
    for i in 0..DEGREE {
        let (sin, cos) = (K * s).sin_cos();
        d2 = -K * K * sin * d1 * d1 + K * cos * d2;
        d1 *= K * cos;
        s = sin + C[i];
    }
    (d1, d2)
}

#[test]
fn a_checkpointed_loop_reads_the_constants_in_every_mode() {
    for x in [-1.2, 0.35, 1.9] {
        let (d1, d2) = checkpointed_closed(x);
        every_mode!(
            x,
            d1 = d1,
            d2 = d2,
            checkpointed,
            checkpointed_grad,
            checkpointed_grad_acc,
            checkpointed_vjp,
            checkpointed_check,
            checkpointed_jvp,
            checkpointed_hvp,
            checkpointed_hessian
        );
    }
}

// ---------------------------------------------------------------------------
// A method of an `impl` block.

#[derive(Clone, Debug, autograd::Tangent)]
struct Decay {
    rate: f64,
}

impl Decay {
    /// f = e^{−rate·K·x}·π: ∂/∂x = −rate·K·f, ∂²/∂x² = (rate·K)²·f.
    #[differentiable(jvp, hessian)]
    fn value(&self, x: f64) -> f64 {
        const HALF: f64 = 0.5;
        (-self.rate * K * x).exp() * PI * (HALF + HALF)
    }
}

#[test]
fn a_method_reads_the_constants() {
    let (d, x) = (Decay { rate: 1.25 }, 0.8);
    let f = d.value(x);
    let a = d.rate * K;
    let (v, gd, gx) = d.value_grad(x);
    assert_eq!(v.to_bits(), f.to_bits());
    assert_relative_eq!(gx, -a * f, epsilon = ABS, max_relative = REL);
    assert_relative_eq!(gd.rate, -K * x * f, epsilon = ABS, max_relative = REL);
    let (_, t) = d.value_jvp(x, &Decay { rate: 0.0 }, 1.0);
    assert_relative_eq!(t, -a * f, epsilon = ABS, max_relative = REL);
    let (v, _, h) = d.value_hessian(x);
    assert_eq!(v.to_bits(), f.to_bits());
    // Flattened inputs: rate, then x.
    assert_relative_eq!(h[(1, 1)], a * a * f, epsilon = ABS, max_relative = REL);
    // ∂²f/∂rate∂x = −K·f + rate·K²·x·f.
    let cross = -K * f + d.rate * K * K * x * f;
    assert_relative_eq!(h[(0, 1)], cross, epsilon = ABS, max_relative = REL);
}

// ---------------------------------------------------------------------------
// f32.

/// f = e^{K32·x}, an f32 function reading an f32 constant.
#[differentiable(jvp, hessian)]
fn exp_k32(x: f32) -> f32 {
    (K32 * x).exp()
}

#[test]
fn an_f32_function_reads_an_f32_constant() {
    let x = 0.625f32;
    let e = f64::from(K32 * x).exp();
    let k = f64::from(K32);
    let (v, g) = exp_k32_grad(x);
    assert_eq!(v.to_bits(), exp_k32(x).to_bits());
    assert_relative_eq!(f64::from(g), k * e, epsilon = 1e-6, max_relative = 1e-5);
    let (_, t) = exp_k32_jvp(x, 1.0);
    assert_relative_eq!(f64::from(t), k * e, epsilon = 1e-6, max_relative = 1e-5);
    let (_, _, h) = exp_k32_hessian(x);
    assert_relative_eq!(
        f64::from(h[(0, 0)]),
        k * k * e,
        epsilon = 1e-6,
        max_relative = 1e-5
    );
}

// ---------------------------------------------------------------------------
// Generic functions: the body converts the constants itself.

/// f = e^{Kx} + C₂·x² + π·x: f' = K e^{Kx} + 2C₂x + π, f'' = K² e^{Kx} + 2C₂.
#[differentiable(jvp, hessian)]
fn generic_consts<T: Float>(x: T) -> T {
    let k = T::from(K).unwrap();
    let mut s = (k * x).exp() + T::from(PI).unwrap() * x;
    for i in 0..DEGREE {
        if i == 2 {
            s = s + T::from(C[i]).unwrap() * x * x;
        }
    }
    s
}

fn generic_closed(x: f64) -> (f64, f64) {
    let e = (K * x).exp();
    (K * e + 2.0 * C[2] * x + PI, K * K * e + 2.0 * C[2])
}

#[test]
fn a_generic_function_converting_constants_at_f64_and_f32() {
    let x = 0.75;
    let (d1, d2) = generic_closed(x);
    let (v, g) = generic_consts_grad(x);
    assert_eq!(v.to_bits(), generic_consts(x).to_bits());
    assert_relative_eq!(g, d1, epsilon = ABS, max_relative = REL);
    let (_, t) = generic_consts_jvp(x, 2.0);
    assert_relative_eq!(t, 2.0 * d1, epsilon = ABS, max_relative = REL);
    let (_, _, hv) = generic_consts_hvp(x, 2.0);
    assert_relative_eq!(hv, 2.0 * d2, epsilon = ABS, max_relative = REL);
    let (v, _, h) = generic_consts_hessian(x);
    assert_eq!(v.to_bits(), generic_consts(x).to_bits());
    assert_relative_eq!(h[(0, 0)], d2, epsilon = ABS, max_relative = REL);

    let x32 = 0.75f32;
    let (v, g) = generic_consts_grad(x32);
    assert_eq!(v.to_bits(), generic_consts(x32).to_bits());
    assert_relative_eq!(f64::from(g), d1, epsilon = 1e-5, max_relative = 1e-5);
    let (_, t) = generic_consts_jvp(x32, 2.0);
    assert_relative_eq!(f64::from(t), 2.0 * d1, epsilon = 1e-5, max_relative = 1e-5);
    let (_, _, h) = generic_consts_hessian(x32);
    assert_relative_eq!(
        f64::from(h[(0, 0)]),
        d2,
        epsilon = 1e-5,
        max_relative = 1e-5
    );
}

// ---------------------------------------------------------------------------
// More shapes numerical code gives its constants.

const TABLE: [[f64; 2]; 2] = [[1.5, -0.5], [0.25, 2.0]];
const SLICE: &[f64] = &[0.5, 1.0, -2.0];
const PAIRS: [(f64, f64); 2] = [(1.0, 0.5), (-0.25, 2.0)];
const POWER: i32 = 3;
static LIMIT: f64 = 10.0;

/// f = Σᵢⱼ Tᵢⱼ·x^{i+j} + Σ Sₖ·x + x^POWER·(K as usize == 0) + min(x², LIMIT)
/// + √K·x, with the comparison and cast taking their integer branch:
/// f = T₀₀ + (T₀₁ + T₁₀)x + T₁₁x² + ΣS·x + x³ + x² + √K·x (for x² < 10).
#[differentiable(jvp, hessian)]
fn shapes(x: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..2 {
        for j in 0..2 {
            s += TABLE[i][j] * x.powi((i + j) as i32);
        }
    }
    for &c in SLICE.iter() {
        s += c * x;
    }
    if (K as usize) == 0 {
        s += x.powi(POWER);
    }
    if x > LIMIT || K > x * x * LIMIT {
        s = 0.0;
    }
    s + (x * x).min(LIMIT) + K.sqrt() * x
}

fn shapes_closed(x: f64) -> (f64, f64) {
    let sum: f64 = SLICE.iter().sum();
    let d1 =
        TABLE[0][1] + TABLE[1][0] + 2.0 * TABLE[1][1] * x + sum + 3.0 * x * x + 2.0 * x + K.sqrt();
    let d2 = 2.0 * TABLE[1][1] + 6.0 * x + 2.0;
    (d1, d2)
}

#[test]
fn nested_arrays_slices_casts_and_comparisons_of_constants() {
    for x in [-1.5, 0.4, 2.5] {
        let (d1, d2) = shapes_closed(x);
        every_mode!(
            x,
            d1 = d1,
            d2 = d2,
            shapes,
            shapes_grad,
            shapes_grad_acc,
            shapes_vjp,
            shapes_check,
            shapes_jvp,
            shapes_hvp,
            shapes_hessian
        );
    }
}

/// f = Σ aₖ·e^{bₖ·x} over a `const` array of pairs:
/// f' = Σ aₖbₖe^{bₖx}, f'' = Σ aₖbₖ²e^{bₖx}.
#[differentiable(jvp, hessian)]
fn pairs(x: f64) -> f64 {
    let mut s = 0.0;
    for &(a, b) in PAIRS.iter() {
        s += a * (b * x).exp();
    }
    s
}

#[test]
fn a_const_array_of_pairs() {
    for x in [-0.7, 0.3, 1.1] {
        let d1: f64 = PAIRS.iter().map(|&(a, b)| a * b * (b * x).exp()).sum();
        let d2: f64 = PAIRS.iter().map(|&(a, b)| a * b * b * (b * x).exp()).sum();
        every_mode!(
            x,
            d1 = d1,
            d2 = d2,
            pairs,
            pairs_grad,
            pairs_grad_acc,
            pairs_vjp,
            pairs_check,
            pairs_jvp,
            pairs_hvp,
            pairs_hessian
        );
    }
}

#[derive(Clone, Debug, autograd::Tangent)]
struct Gauss {
    amp: f64,
}

impl Gauss {
    const WIDTH: f64 = 0.8;

    /// f = a·e^{−x²/(2W²)}: ∂f/∂x = −x/W²·f, ∂²f/∂x² = (x²/W⁴ − 1/W²)·f.
    #[differentiable(jvp, hessian)]
    fn bump(&self, x: f64) -> f64 {
        self.amp * (-x * x / (2.0 * Gauss::WIDTH * Gauss::WIDTH)).exp()
    }
}

#[test]
fn an_associated_const() {
    let w2 = Gauss::WIDTH * Gauss::WIDTH;
    let g = Gauss { amp: 1.25 };
    for x in [-0.9, 0.2, 1.4] {
        let f = g.bump(x);
        let (v, _, dx) = g.bump_grad(x);
        assert_eq!(v.to_bits(), f.to_bits());
        assert_relative_eq!(dx, -x / w2 * f, epsilon = ABS, max_relative = REL);
        let (v, _, h) = g.bump_hessian(x);
        assert_eq!(v.to_bits(), f.to_bits());
        let d2 = (x * x / (w2 * w2) - 1.0 / w2) * f;
        // Flattened inputs: amp, then x.
        assert_relative_eq!(h[(1, 1)], d2, epsilon = ABS, max_relative = REL);
        let (_, t) = g.bump_jvp(x, &Gauss { amp: 0.0 }, 1.0);
        assert_relative_eq!(t, -x / w2 * f, epsilon = ABS, max_relative = REL);
    }
}

// ---------------------------------------------------------------------------
// A tuple `let` of lifted constants and a body `use` of a `const`
// (fuzz-programs finding 030): under `hessian` the tuple's elements stayed
// the item's references (E0369 "cannot multiply `&__AdScalar` by
// `__AdScalar`").

/// (a, b) = (FRAC_PI_4.cos() + KB, KB·2) with `use std::f64::consts::FRAC_PI_4`
/// and `const KB` in the body, and t = (sin(C₁ + C₂) + K, K) read as t.0,
/// t.1: f = FRAC_PI_4 + a·x + b·x² + t.0·t.1·x³:
/// f' = a + 2bx + 3·t.0·K·x², f'' = 2b + 6·t.0·K·x.
#[differentiable(jvp, hessian)]
fn tuple_of_constants(x: f64) -> f64 {
    const KB: f64 = -2.0;
    use std::f64::consts::FRAC_PI_4;
    let (a, b) = (FRAC_PI_4.cos() + KB, KB * 2.0);
    let t = ((C[1] + C[2]).sin() + K, K);
    FRAC_PI_4 + a * x + b * x * x + t.0 * t.1 * x * x * x
}

/// A body `use` of a module `const` alone, read as an operand and in a
/// tuple of one constant and one value: f = KU·x + (KU, x²).0·(KU, x²).1
/// = KU·x + KU·x²: f' = KU + 2·KU·x, f'' = 2·KU.
#[differentiable(jvp, hessian)]
fn used_const(x: f64) -> f64 {
    use self::used::KU;
    let (k, y) = (KU, x * x);
    KU * x + k * y
}

mod used {
    pub const KU: f64 = 1.75;
}

/// Names of `use`d constants combined before they meet a float: negated,
/// multiplied together and added to an item. With c = ln2·π + KU,
/// f = −ln2·x + c·x²: f' = −ln2 + 2cx, f'' = 2c.
#[differentiable(jvp, hessian)]
fn used_consts_combined(x: f64) -> f64 {
    use std::f64::consts::{LN_2, PI};
    let (k, j) = (LN_2, PI);
    let m = -k;
    let c = k * j + used::KU;
    m * x + c * x * x
}

#[test]
fn a_tuple_of_constants_and_a_used_const_in_every_mode() {
    let a = std::f64::consts::FRAC_PI_4.cos() - 2.0;
    let b = -4.0;
    let t0 = (C[1] + C[2]).sin() + K;
    for x in [-0.8, 0.3, 1.7] {
        every_mode!(
            x,
            d1 = a + 2.0 * b * x + 3.0 * t0 * K * x * x,
            d2 = 2.0 * b + 6.0 * t0 * K * x,
            tuple_of_constants,
            tuple_of_constants_grad,
            tuple_of_constants_grad_acc,
            tuple_of_constants_vjp,
            tuple_of_constants_check,
            tuple_of_constants_jvp,
            tuple_of_constants_hvp,
            tuple_of_constants_hessian
        );
        every_mode!(
            x,
            d1 = 1.75 + 2.0 * 1.75 * x,
            d2 = 2.0 * 1.75,
            used_const,
            used_const_grad,
            used_const_grad_acc,
            used_const_vjp,
            used_const_check,
            used_const_jvp,
            used_const_hvp,
            used_const_hessian
        );
        let c = std::f64::consts::LN_2 * std::f64::consts::PI + 1.75;
        every_mode!(
            x,
            d1 = -std::f64::consts::LN_2 + 2.0 * c * x,
            d2 = 2.0 * c,
            used_consts_combined,
            used_consts_combined_grad,
            used_consts_combined_grad_acc,
            used_consts_combined_vjp,
            used_consts_combined_check,
            used_consts_combined_jvp,
            used_consts_combined_hvp,
            used_consts_combined_hessian
        );
    }
}

// ---------------------------------------------------------------------------
// A name bound to a lifted constant that meets a float only through a
// method call, a parenthesised sum, a negation, a function's argument, a
// comparison, an array literal or a cast (fuzz-programs finding 030,
// reopened): under `hessian` it stayed a reference (E0369 "cannot add
// `__AdScalar` to `&__AdScalar`").

/// (s2, s3) = (ln(KB² + 1), KB) with KB = −2: f = ln(s3² + 1) + s2·x + s3·x²
/// = ln5 + ln5·x − 2x²: f' = ln5 − 4x, f'' = −4.
#[differentiable(jvp, hessian)]
fn lifted_receiver(x: f64) -> f64 {
    const KB: f64 = -2.0;
    let (s2, s3) = ((KB.powi(2) + 1.0).ln(), KB);
    (s3.powi(2) + 1.0).ln() + s2 * x + s3 * x * x
}

/// k = K, a = e^{tanh(K + ln2)}: f = e^{tanh(k + ln2)}·x + (k + 1)·x²/(k + 2)
/// + (−k).exp()·x: f' = a + 2(K + 1)x/(K + 2) + e^{−K}, f'' = 2(K + 1)/(K + 2).
#[differentiable(jvp, hessian)]
fn lifted_in_parentheses(x: f64) -> f64 {
    use std::f64::consts::LN_2;
    let (k, _) = (K, 0.0);
    (k + LN_2).tanh().exp() * x + (k + 1.0) * x * x / (k + 2.0) + (-k).exp() * x
}

/// k = K, j = KU: f = f64::exp(k)·x + f64::hypot(k, j)·x² + [k, j][1]·x
/// + (k as f64)·x, plus x² where k < j (0.7 < 1.75), else x:
/// f' = e^K + 2·hypot(K, KU)·x + KU + K + 2x, f'' = 2·hypot(K, KU) + 2.
// The cast of a float constant is the construct under test.
#[allow(clippy::unnecessary_cast)]
#[differentiable(jvp, hessian)]
fn lifted_in_calls_arrays_comparisons_casts(x: f64) -> f64 {
    use self::used::KU;
    let (k, j) = (K, KU);
    let a = [k, j];
    let s = if k < j { x * x } else { x };
    f64::exp(k) * x + f64::hypot(k, j) * x * x + a[1] * x + (k as f64) * x + s
}

/// A cast and a comparison before anything else tells `k` is a float:
/// f = (k as f64)·x² + x where k < x, else (k as f64)·x² with k = K = 0.7
/// (x ≠ K at the test points): f' = 2Kx + [x > K], f'' = 2K.
// The cast of a float constant is the construct under test.
#[allow(clippy::unnecessary_cast)]
#[differentiable(jvp, hessian)]
fn lifted_cast_first(x: f64) -> f64 {
    let (k, _) = (K, 0.0);
    let c = k as f64;
    if k < x { c * x * x + x } else { c * x * x }
}

#[test]
fn a_lifted_name_meeting_a_float_through_any_expression_in_every_mode() {
    let ln5 = 5.0_f64.ln();
    let a = (K + std::f64::consts::LN_2).tanh().exp();
    let h = K.hypot(used::KU);
    for x in [-0.8, 0.3, 1.7] {
        every_mode!(
            x,
            d1 = ln5 - 4.0 * x,
            d2 = -4.0,
            lifted_receiver,
            lifted_receiver_grad,
            lifted_receiver_grad_acc,
            lifted_receiver_vjp,
            lifted_receiver_check,
            lifted_receiver_jvp,
            lifted_receiver_hvp,
            lifted_receiver_hessian
        );
        every_mode!(
            x,
            d1 = a + 2.0 * (K + 1.0) * x / (K + 2.0) + (-K).exp(),
            d2 = 2.0 * (K + 1.0) / (K + 2.0),
            lifted_in_parentheses,
            lifted_in_parentheses_grad,
            lifted_in_parentheses_grad_acc,
            lifted_in_parentheses_vjp,
            lifted_in_parentheses_check,
            lifted_in_parentheses_jvp,
            lifted_in_parentheses_hvp,
            lifted_in_parentheses_hessian
        );
        every_mode!(
            x,
            d1 = K.exp() + 2.0 * h * x + used::KU + K + 2.0 * x,
            d2 = 2.0 * h + 2.0,
            lifted_in_calls_arrays_comparisons_casts,
            lifted_in_calls_arrays_comparisons_casts_grad,
            lifted_in_calls_arrays_comparisons_casts_grad_acc,
            lifted_in_calls_arrays_comparisons_casts_vjp,
            lifted_in_calls_arrays_comparisons_casts_check,
            lifted_in_calls_arrays_comparisons_casts_jvp,
            lifted_in_calls_arrays_comparisons_casts_hvp,
            lifted_in_calls_arrays_comparisons_casts_hessian
        );
        every_mode!(
            x,
            d1 = 2.0 * K * x + if x > K { 1.0 } else { 0.0 },
            d2 = 2.0 * K,
            lifted_cast_first,
            lifted_cast_first_grad,
            lifted_cast_first_grad_acc,
            lifted_cast_first_vjp,
            lifted_cast_first_check,
            lifted_cast_first_jvp,
            lifted_cast_first_hvp,
            lifted_cast_first_hessian
        );
    }
}

// ---- sums and products over arrays of constants, under `hessian` ----
//
// Fuzz seed 0x360f, program f77: `let arr = [K, K, K]; let s: f64 =
// arr.iter().sum();` in a `hessian` function was two rustc errors naming
// the second-order copy's scalar: the running sum started from a bare
// `-0.0` while the lifted constants were of that scalar.

/// Σ of an array of a module constant, times `a`: f = 3K·a.
#[differentiable(hessian)]
fn sum_of_constants(a: f64) -> f64 {
    let arr = [K, K, K];
    let s: f64 = arr.iter().sum();
    s * a
}

/// A constant array's sum and a product with a literal: f = ΣC·a + 2K.
#[differentiable(hessian)]
fn constant_array_reductions(a: f64) -> f64 {
    let s: f64 = C.iter().sum();
    let p: f64 = [K, 2.0].iter().product();
    s * a + p
}

#[test]
fn reductions_over_constants_under_hessian_match_the_closed_form() {
    let a = 1.3;
    let (v, g, h) = sum_of_constants_hessian(a);
    assert_relative_eq!(v, 3.0 * K * a, epsilon = ABS, max_relative = REL);
    assert_relative_eq!(g[0], 3.0 * K, epsilon = ABS, max_relative = REL);
    assert_eq!(h[(0, 0)], 0.0);
    let sum_c: f64 = C.iter().sum();
    let (v, g, h) = constant_array_reductions_hessian(a);
    assert_relative_eq!(v, sum_c * a + 2.0 * K, epsilon = ABS, max_relative = REL);
    assert_relative_eq!(g[0], sum_c, epsilon = ABS, max_relative = REL);
    assert_eq!(h[(0, 0)], 0.0);
    assert_relative_eq!(
        constant_array_reductions_grad(a).1,
        sum_c,
        epsilon = ABS,
        max_relative = REL
    );
}
