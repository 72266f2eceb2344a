//! Special functions: `erf erfc norm_cdf norm_pdf norm_inv_cdf ln_gamma
//! gamma digamma beta`, and `trigamma` (digamma's derivative).
//!
//! The values come from `libm` where it has the function (`erf`, `erfc`,
//! `lgamma`, `tgamma`, and their `f32` forms `erff`, ..), so they are
//! libm's bit for bit; the others are written here from libm's and state
//! their accuracy. Every primal is generic over [`Real`] (so over every
//! `num_traits::Float`) and takes the value through `f64` (or `f32`, for
//! a type of `f32` precision): `f32` and `f64` get the value alone, and a
//! dual number ([`crate::Dual`], which second order instantiates the
//! reverse sweep at) gets it with its derivative part from the rule's own
//! pullback below (at seed 1, the slope, times the dual part: the rule's
//! tangent), so the Hessian path uses the same formulas as `_grad` and
//! `_jvp`. Another `Float` type of neither size is taken as carrying
//! a first-order part the same way.

use core::f64::consts::{FRAC_1_SQRT_2, FRAC_2_SQRT_PI, PI};

use super::Real;

/// `1/√(2π)`.
const FRAC_1_SQRT_2PI: f64 = 0.398_942_280_401_432_7;

/// The precision a scalar type is computed at, and whether it is a plain
/// float (its value is all there is) or carries a derivative part.
fn layout<T: Real>() -> (bool, bool) {
    let single = T::epsilon().to_f64() == f64::from(f32::EPSILON);
    let plain = core::mem::size_of::<T>() == if single { 4 } else { 8 };
    (single, plain)
}

/// `f` at `x` through `f64` (`f32` for a type of `f32` precision). A type
/// carrying a derivative part gets `ẋ·slope(x, y)` added, with `ẋ` the
/// part of `x` beyond its value, and `x`, `y` the value and the result as
/// constants of the type: `slope` is the rule's pullback at seed 1, so
/// the product is the rule's tangent.
#[inline]
fn unary<T: Real>(
    x: T,
    f64_fn: fn(f64) -> f64,
    f32_fn: impl Fn(f32) -> f32,
    slope: impl Fn(T, T) -> T,
) -> T {
    let (single, plain) = layout::<T>();
    let v = x.to_f64();
    // An `f32` value widened is exact, and narrowing it back is too.
    #[allow(clippy::cast_possible_truncation)]
    let y = if single {
        f64::from(f32_fn(v as f32))
    } else {
        f64_fn(v)
    };
    let out = T::from_f64(y);
    if plain {
        return out;
    }
    let at = T::from_f64(v);
    carry(out, scaled(x - at, slope(at, out), single))
}

/// [`unary`] for two operands (computed in `f64` at either precision, and
/// rounded once).
#[inline]
fn binary<T: Real>(
    a: T,
    b: T,
    f64_fn: fn(f64, f64) -> f64,
    slopes: impl Fn(T, T, T) -> (T, T),
) -> T {
    let (single, plain) = layout::<T>();
    let (va, vb) = (a.to_f64(), b.to_f64());
    let out = T::from_f64(f64_fn(va, vb));
    if plain {
        return out;
    }
    let (at_a, at_b) = (T::from_f64(va), T::from_f64(vb));
    let (ka, kb) = slopes(at_a, at_b, out);
    let t = scaled(a - at_a, ka, single) + scaled(b - at_b, kb, single);
    carry(out, t)
}

/// `ẋ·k`, where `ẋ`'s value is a zero. An infinite slope (a pole's side,
/// Φ⁻¹ at 0 and 1) is taken as the limit of finite ones, so that the value
/// stays a zero (0·∞ would make it NaN) and the derivative part becomes
/// ±∞, or stays 0 where `ẋ`'s is.
#[inline]
fn scaled<T: Real>(dx: T, k: T, single: bool) -> T {
    if k.is_infinite() {
        let max = if single {
            f64::from(f32::MAX)
        } else {
            f64::MAX
        };
        let m = T::from_f64(max).copysign(k);
        dx * m * m
    } else {
        dx * k
    }
}

/// `out` with the derivative part `t` added; `t`'s value is a zero, which
/// must not turn a `−0` result into `+0`.
#[inline]
fn carry<T: Real>(out: T, t: T) -> T {
    if out == T::zero() && out.is_sign_negative() {
        -((-out) - t)
    } else {
        out + t
    }
}

/// `f32` computed through `f64`, rounded once.
#[allow(clippy::cast_possible_truncation)]
fn via_f64(f: fn(f64) -> f64) -> impl Fn(f32) -> f32 {
    move |x| f(f64::from(x)) as f32
}

// ---- erf, erfc ----

/// The error function, `erf x = 2/√π ∫₀ˣ e^{−t²} dt`: libm's `erf` (`erff`
/// at `f32`), bit for bit.
///
/// # Example
///
/// ```
/// use autograd_runtime::special::erf;
///
/// assert_eq!(erf(0.5_f64), 0.5204998778130465);
/// assert_eq!(erf(-0.5_f32), -0.5204999);
/// assert_eq!(erf(f64::INFINITY), 1.0);
/// ```
#[inline]
pub fn erf<T: Real>(x: T) -> T {
    unary(x, libm::erf, libm::erff, |x, _| erf_grad(T::one(), x))
}
/// d/dx erf x = 2/√π·e^{−x²}: reads the input; 0 at ±∞.
#[inline(always)]
pub fn erf_grad<T: Real>(grad: T, x: T) -> T {
    grad * (T::from_f64(FRAC_2_SQRT_PI) * (-(x * x)).exp())
}
/// ẏ = 2/√π·e^{−x²}·ẋ: [`erf_grad`] at seed ẋ.
#[inline(always)]
pub fn erf_tangent<T: Real>(dx: T, x: T) -> T {
    erf_grad(dx, x)
}

/// The complementary error function, `erfc x = 1 − erf x`, without the
/// cancellation for large `x`: libm's `erfc` (`erfcf` at `f32`), bit for
/// bit.
///
/// # Example
///
/// ```
/// use autograd_runtime::special::erfc;
///
/// assert_eq!(erfc(0.0_f64), 1.0);
/// assert!((erfc(10.0_f64) / 2.088487583762544757e-45 - 1.0).abs() < 1e-15);
/// ```
#[inline]
pub fn erfc<T: Real>(x: T) -> T {
    unary(x, libm::erfc, libm::erfcf, |x, _| erfc_grad(T::one(), x))
}
/// d/dx erfc x = −2/√π·e^{−x²} = −erf′ x: reads the input.
#[inline(always)]
pub fn erfc_grad<T: Real>(grad: T, x: T) -> T {
    -erf_grad(grad, x)
}
/// ẏ = −2/√π·e^{−x²}·ẋ: [`erfc_grad`] at seed ẋ.
#[inline(always)]
pub fn erfc_tangent<T: Real>(dx: T, x: T) -> T {
    erfc_grad(dx, x)
}

// ---- the normal distribution ----

fn norm_cdf_f64(x: f64) -> f64 {
    0.5 * libm::erfc(-x * FRAC_1_SQRT_2)
}
#[allow(clippy::cast_possible_truncation)]
fn norm_cdf_f32(x: f32) -> f32 {
    0.5 * libm::erfcf(-x * FRAC_1_SQRT_2 as f32)
}

/// The standard normal distribution function, `Φ(x) = ½·erfc(−x/√2)`,
/// accurate in both tails (libm's `erfc`, `erfcf` at `f32`).
///
/// # Example
///
/// ```
/// use autograd_runtime::special::norm_cdf;
///
/// assert_eq!(norm_cdf(0.0_f64), 0.5);
/// assert!((norm_cdf(1.959963984540054_f64) - 0.975).abs() < 1e-16);
/// // Φ(−10) = 7.6198530241605269e-24, to the rounding of −x/√2 (about
/// // x²·ε relative in the tail).
/// assert!((norm_cdf(-10.0_f64) / 7.6198530241605269e-24 - 1.0).abs() < 1e-14);
/// ```
#[inline]
pub fn norm_cdf<T: Real>(x: T) -> T {
    unary(x, norm_cdf_f64, norm_cdf_f32, |x, _| {
        norm_cdf_grad(T::one(), x)
    })
}
/// d/dx Φ(x) = φ(x), the density: reads the input.
#[inline(always)]
pub fn norm_cdf_grad<T: Real>(grad: T, x: T) -> T {
    grad * norm_pdf(x)
}
/// ẏ = φ(x)·ẋ: [`norm_cdf_grad`] at seed ẋ.
#[inline(always)]
pub fn norm_cdf_tangent<T: Real>(dx: T, x: T) -> T {
    norm_cdf_grad(dx, x)
}

/// The standard normal density, `φ(x) = e^{−x²/2}/√(2π)`, in the type's
/// own arithmetic (so a dual number differentiates it as written).
///
/// # Example
///
/// ```
/// use autograd_runtime::special::norm_pdf;
///
/// assert_eq!(norm_pdf(0.0_f64), 0.3989422804014327);
/// assert!((norm_pdf(1.0_f64) - 0.24197072451914337).abs() < 1e-17);
/// ```
#[inline]
pub fn norm_pdf<T: Real>(x: T) -> T {
    (-(x * x) / T::two()).exp() * T::from_f64(FRAC_1_SQRT_2PI)
}
/// d/dx φ(x) = −x·φ(x): reads the input and the output.
#[inline(always)]
pub fn norm_pdf_grad<T: Real>(grad: T, x: T, out: T) -> T {
    grad * (-x * out)
}
/// ẏ = −x·φ(x)·ẋ: [`norm_pdf_grad`] at seed ẋ.
#[inline(always)]
pub fn norm_pdf_tangent<T: Real>(dx: T, x: T, out: T) -> T {
    norm_pdf_grad(dx, x, out)
}

/// Acklam's rational approximation of Φ⁻¹ on `(0, ½]` (relative error
/// below 1.15·10⁻⁹), refined by one Halley step on `Φ(x) − p` with libm's
/// `erfc`.
fn norm_inv_cdf_lower(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let x = if p < 0.02425 {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // Halley: u = (Φ(x) − p)/φ(x), x −= u/(1 + x·u/2). Far in the tail
    // e^{x²/2} overflows; the approximation stands there.
    let e = norm_cdf_f64(x) - p;
    let u = e * (2.0 * PI).sqrt() * (x * x / 2.0).exp();
    if u.is_finite() {
        x - u / (1.0 + x * u / 2.0)
    } else {
        x
    }
}

fn norm_inv_cdf_f64(p: f64) -> f64 {
    if p.is_nan() || !(0.0..=1.0).contains(&p) {
        f64::NAN
    } else if p == 0.0 {
        f64::NEG_INFINITY
    } else if p == 1.0 {
        f64::INFINITY
    } else if p > 0.5 {
        // 1 − p is exact here: the upper half by symmetry, computed where
        // erfc is accurate.
        -norm_inv_cdf_lower(1.0 - p)
    } else {
        norm_inv_cdf_lower(p)
    }
}

/// The standard normal quantile function `Φ⁻¹(p)`: Acklam's algorithm with
/// one Halley refinement step on libm's `erfc` (the upper half by
/// symmetry, where `1 − p` is exact). Absolute error about 2·10⁻¹⁶ near the
/// centre, relative error about 10⁻¹⁵ in the tails (`f32`: computed in
/// `f64`, rounded once).
///
/// Outside `[0, 1]` (and at NaN) it is NaN; `norm_inv_cdf(0) = −∞` and
/// `norm_inv_cdf(1) = +∞`.
///
/// # Example
///
/// ```
/// use autograd_runtime::special::norm_inv_cdf;
///
/// assert!((norm_inv_cdf(0.975_f64) - 1.959963984540054).abs() < 1e-15);
/// assert_eq!(norm_inv_cdf(0.5_f64), 0.0);
/// assert_eq!(norm_inv_cdf(0.0_f64), f64::NEG_INFINITY);
/// assert!(norm_inv_cdf(1.5_f64).is_nan());
/// ```
#[inline]
pub fn norm_inv_cdf<T: Real>(p: T) -> T {
    unary(p, norm_inv_cdf_f64, via_f64(norm_inv_cdf_f64), |_, out| {
        norm_inv_cdf_grad(T::one(), out)
    })
}
/// d/dp Φ⁻¹(p) = 1/φ(Φ⁻¹(p)) = 1/φ(out): reads the output; +∞ (times the
/// adjoint's sign) at p = 0 and 1, where φ(∓∞) = 0.
#[inline(always)]
pub fn norm_inv_cdf_grad<T: Real>(grad: T, out: T) -> T {
    grad / norm_pdf(out)
}
/// ṗ/φ(out): [`norm_inv_cdf_grad`] at seed ṗ.
#[inline(always)]
pub fn norm_inv_cdf_tangent<T: Real>(dp: T, out: T) -> T {
    norm_inv_cdf_grad(dp, out)
}

// ---- the gamma function and its logarithmic derivatives ----

fn lgamma_f32(x: f32) -> f32 {
    libm::lgammaf(x)
}

/// `ln |Γ(x)|`: libm's `lgamma` (`lgammaf` at `f32`), bit for bit. It is
/// +∞ at the poles, the non-positive integers.
///
/// # Example
///
/// ```
/// use autograd_runtime::special::ln_gamma;
///
/// assert_eq!(ln_gamma(1.0_f64), 0.0);
/// assert!((ln_gamma(0.5_f64) - 0.5723649429247001).abs() < 1e-16);
/// assert_eq!(ln_gamma(-2.0_f64), f64::INFINITY);
/// ```
#[inline]
pub fn ln_gamma<T: Real>(x: T) -> T {
    unary(x, libm::lgamma, lgamma_f32, |x, _| {
        ln_gamma_grad(T::one(), x)
    })
}
/// d/dx ln |Γ(x)| = ψ(x), the digamma function: reads the input; NaN at
/// the poles.
#[inline(always)]
pub fn ln_gamma_grad<T: Real>(grad: T, x: T) -> T {
    grad * digamma(x)
}
/// ẏ = ψ(x)·ẋ: [`ln_gamma_grad`] at seed ẋ.
#[inline(always)]
pub fn ln_gamma_tangent<T: Real>(dx: T, x: T) -> T {
    ln_gamma_grad(dx, x)
}

/// The gamma function `Γ(x)`: libm's `tgamma` (`tgammaf` at `f32`), bit for
/// bit. Its poles are the non-positive integers: `Γ(±0) = ±∞`, NaN at the
/// negative integers; it overflows to +∞ above 171.6.
///
/// # Example
///
/// ```
/// use autograd_runtime::special::gamma;
///
/// assert_eq!(gamma(5.0_f64), 24.0);
/// assert!((gamma(0.5_f64) - core::f64::consts::PI.sqrt()).abs() < 1e-15);
/// assert!(gamma(-1.0_f64).is_nan());
/// ```
#[inline]
pub fn gamma<T: Real>(x: T) -> T {
    unary(x, libm::tgamma, libm::tgammaf, |x, out| {
        gamma_grad(T::one(), x, out)
    })
}
/// d/dx Γ(x) = Γ(x)·ψ(x) = out·ψ(x): reads the input and the output.
#[inline(always)]
pub fn gamma_grad<T: Real>(grad: T, x: T, out: T) -> T {
    grad * (out * digamma(x))
}
/// ẏ = Γ(x)·ψ(x)·ẋ: [`gamma_grad`] at seed ẋ.
#[inline(always)]
pub fn gamma_tangent<T: Real>(dx: T, x: T, out: T) -> T {
    gamma_grad(dx, x, out)
}

/// `(sin πr, cos πr)` of `x`'s distance `r` to the nearest integer
/// (`|r| ≤ ½`, exact), up to the sign `(−1)ⁿ` both share, which the
/// reflections cancel: cos πr as sin(π(½ − |r|)), so that it is 0 at the
/// half-integers, where cos(π/2) would leave 6·10⁻¹⁷.
fn sin_cos_pi(x: f64) -> (f64, f64) {
    let r = x - x.round();
    ((PI * r).sin(), (PI * (0.5 - r.abs())).sin())
}

/// `π·cot(πx)`.
fn pi_cot_pi(x: f64) -> f64 {
    let (s, c) = sin_cos_pi(x);
    PI * c / s
}

/// ψ(x) for x > 0: the recurrence ψ(x) = ψ(x + 1) − 1/x up to x ≥ 10, then
/// the asymptotic series ln x − 1/(2x) − Σ B₂ₖ/(2k·x²ᵏ) to k = 7 (the next
/// term is below 10⁻²⁰ there).
fn digamma_positive(mut x: f64) -> f64 {
    let mut shift = 0.0;
    while x < 10.0 {
        shift += 1.0 / x;
        x += 1.0;
    }
    let r = 1.0 / x;
    let r2 = r * r;
    let series = r2
        * (1.0 / 12.0
            - r2 * (1.0 / 120.0
                - r2 * (1.0 / 252.0
                    - r2 * (1.0 / 240.0
                        - r2 * (1.0 / 132.0 - r2 * (691.0 / 32760.0 - r2 / 12.0))))));
    x.ln() - 0.5 * r - series - shift
}

fn digamma_f64(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == 0.0 {
        // ψ(x) ≈ −1/x beside the pole at 0.
        return if x.is_sign_negative() {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    if x < 0.0 {
        if x == x.floor() {
            return f64::NAN;
        }
        // Reflection: ψ(x) = ψ(1 − x) − π·cot(πx).
        return digamma_positive(1.0 - x) - pi_cot_pi(x);
    }
    digamma_positive(x)
}

/// The digamma function `ψ(x) = Γ′(x)/Γ(x)`, the derivative of
/// [`ln_gamma`]. Recurrence to x ≥ 10, then the asymptotic series;
/// reflection for x < 0. Absolute error below 10⁻¹⁵ for x > 0 (and
/// relative error of a few ulp away from its zero at 1.4616..; `f32`:
/// computed in `f64`, rounded once). Poles at the non-positive integers:
/// `ψ(±0) = ∓∞`, NaN at the negative integers.
///
/// # Example
///
/// ```
/// use autograd_runtime::special::digamma;
///
/// // ψ(1) = −γ, the Euler–Mascheroni constant.
/// assert!((digamma(1.0_f64) + 0.5772156649015329).abs() < 1e-15);
/// assert_eq!(digamma(0.0_f64), f64::NEG_INFINITY);
/// assert!(digamma(-3.0_f64).is_nan());
/// ```
#[inline]
pub fn digamma<T: Real>(x: T) -> T {
    unary(x, digamma_f64, via_f64(digamma_f64), |x, _| {
        digamma_grad(T::one(), x)
    })
}
/// d/dx ψ(x) = ψ′(x), the [`trigamma`] function: reads the input; +∞ at
/// the poles.
#[inline(always)]
pub fn digamma_grad<T: Real>(grad: T, x: T) -> T {
    grad * trigamma(x)
}
/// ẏ = ψ′(x)·ẋ: [`digamma_grad`] at seed ẋ.
#[inline(always)]
pub fn digamma_tangent<T: Real>(dx: T, x: T) -> T {
    digamma_grad(dx, x)
}

/// ψ′(x) for x > 0: ψ′(x) = ψ′(x + 1) + 1/x² up to x ≥ 10, then
/// 1/x + 1/(2x²) + Σ B₂ₖ/x²ᵏ⁺¹ to k = 7.
fn trigamma_positive(mut x: f64) -> f64 {
    let mut shift = 0.0;
    while x < 10.0 {
        shift += 1.0 / (x * x);
        x += 1.0;
    }
    let r = 1.0 / x;
    let r2 = r * r;
    let series = r
        * r2
        * (1.0 / 6.0
            - r2 * (1.0 / 30.0
                - r2 * (1.0 / 42.0
                    - r2 * (1.0 / 30.0
                        - r2 * (5.0 / 66.0 - r2 * (691.0 / 2730.0 - r2 * 7.0 / 6.0))))));
    r + 0.5 * r2 + series + shift
}

fn trigamma_f64(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x <= 0.0 {
        if x == x.floor() {
            // ψ′ → +∞ from both sides of a pole.
            return f64::INFINITY;
        }
        // Reflection: ψ′(x) = π²/sin²(πx) − ψ′(1 − x).
        let (s, _) = sin_cos_pi(x);
        return PI * PI / (s * s) - trigamma_positive(1.0 - x);
    }
    trigamma_positive(x)
}

/// The trigamma function `ψ′(x)`, the derivative of [`digamma`] (and so
/// the second derivative of [`ln_gamma`]), by the method of [`digamma`];
/// +∞ at the poles, the non-positive integers.
///
/// # Example
///
/// ```
/// use autograd_runtime::rules::trigamma;
///
/// // ψ′(1) = π²/6.
/// assert!((trigamma(1.0_f64) - 1.6449340668482264).abs() < 1e-15);
/// ```
#[inline]
pub fn trigamma<T: Real>(x: T) -> T {
    unary(x, trigamma_f64, via_f64(trigamma_f64), |x, _| tetragamma(x))
}

/// ψ″(x) for x > 0: ψ″(x) = ψ″(x + 1) − 2/x³ up to x ≥ 10, then
/// −1/x² − 1/x³ − Σ (2k + 1)·B₂ₖ/x²ᵏ⁺² to k = 7.
fn tetragamma_positive(mut x: f64) -> f64 {
    let mut shift = 0.0;
    while x < 10.0 {
        shift += 2.0 / (x * x * x);
        x += 1.0;
    }
    let r = 1.0 / x;
    let r2 = r * r;
    let series = r2
        * (0.5
            - r2 * (1.0 / 6.0
                - r2 * (1.0 / 6.0
                    - r2 * (3.0 / 10.0
                        - r2 * (5.0 / 6.0 - r2 * (691.0 / 210.0 - r2 * 35.0 / 2.0))))));
    -r2 * (1.0 + r + series) - shift
}

fn tetragamma_f64(x: f64) -> f64 {
    if x.is_nan() || x == f64::NEG_INFINITY {
        return f64::NAN;
    }
    if x == 0.0 {
        // ψ″(x) ≈ −2/x³ beside the pole at 0.
        return if x.is_sign_negative() {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        };
    }
    if x < 0.0 {
        if x == x.floor() {
            return f64::NAN;
        }
        // Reflection: ψ″(x) = ψ″(1 − x) − 2π³·cos(πx)/sin³(πx).
        let (s, c) = sin_cos_pi(x);
        return tetragamma_positive(1.0 - x) - 2.0 * PI * PI * PI * c / (s * s * s);
    }
    tetragamma_positive(x)
}

/// The tetragamma function `ψ″(x)`, the derivative of [`trigamma`]: what
/// makes [`digamma`] differentiable twice (its Hessian). Its own
/// derivative is not implemented: at a dual number its derivative part is
/// zero, so ψ is exact to second order, which is the highest autograd
/// computes.
#[inline]
pub fn tetragamma<T: Real>(x: T) -> T {
    unary(x, tetragamma_f64, via_f64(tetragamma_f64), |_, _| T::zero())
}

// ---- beta ----

fn beta_f64(a: f64, b: f64) -> f64 {
    let s = a + b;
    if a > 0.0 && b > 0.0 && s < 171.0 {
        // Γ(a)·Γ(b)/Γ(a + b) directly while Γ(a + b) is finite: libm's
        // tgamma to an ulp or two each, no cancellation. Divided first so
        // that two huge Γ of tiny arguments do not overflow.
        libm::tgamma(a) / libm::tgamma(s) * libm::tgamma(b)
    } else {
        // exp(ln|Γ(a)| + ln|Γ(b)| − ln|Γ(a + b)|) with the signs of the
        // three gammas (negative arguments).
        let (la, sa) = libm::lgamma_r(a);
        let (lb, sb) = libm::lgamma_r(b);
        let (ls, ss) = libm::lgamma_r(s);
        f64::from(sa * sb * ss) * (la + lb - ls).exp()
    }
}

/// The beta function `B(a, b) = Γ(a)·Γ(b)/Γ(a + b)`: the gamma ratio from
/// libm's `tgamma` while `a + b < 171` (positive arguments; relative error
/// a few ulp), else `exp(ln Γ(a) + ln Γ(b) − ln Γ(a + b))` from libm's
/// `lgamma_r`, with the gammas' signs (relative error growing like
/// 10⁻¹⁶·ln Γ). `f32`: computed in `f64`, rounded once. Undefined (NaN or
/// ±∞) where `a` or `b` is a pole of Γ.
///
/// # Example
///
/// ```
/// use autograd_runtime::special::beta;
///
/// assert_eq!(beta(1.0_f64, 1.0), 1.0);
/// assert!((beta(2.0_f64, 3.0) - 1.0 / 12.0).abs() < 1e-16);
/// assert!((beta(0.5_f64, 0.5) - core::f64::consts::PI).abs() < 1e-15);
/// ```
#[inline]
pub fn beta<T: Real>(a: T, b: T) -> T {
    binary(a, b, beta_f64, |a, b, out| {
        (
            beta_grad_lhs(T::one(), a, b, out),
            beta_grad_rhs(T::one(), a, b, out),
        )
    })
}
/// ∂/∂a B(a, b) = B(a, b)·(ψ(a) − ψ(a + b)): reads both operands and the
/// output.
#[inline(always)]
pub fn beta_grad_lhs<T: Real>(grad: T, a: T, b: T, out: T) -> T {
    grad * (out * (digamma(a) - digamma(a + b)))
}
/// ∂/∂b B(a, b) = B(a, b)·(ψ(b) − ψ(a + b)): reads both operands and the
/// output.
#[inline(always)]
pub fn beta_grad_rhs<T: Real>(grad: T, a: T, b: T, out: T) -> T {
    grad * (out * (digamma(b) - digamma(a + b)))
}
/// ẏ = B·(ψ(a) − ψ(a + b))·ȧ + B·(ψ(b) − ψ(a + b))·ḃ: the pullbacks at
/// seeds ȧ, ḃ.
#[inline(always)]
pub fn beta_tangent<T: Real>(da: T, db: T, a: T, b: T, out: T) -> T {
    beta_grad_lhs(da, a, b, out) + beta_grad_rhs(db, a, b, out)
}
