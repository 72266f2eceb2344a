//! `autograd::special` (issue 38, "No `erf`"): erf, erfc, norm_cdf,
//! norm_pdf, norm_inv_cdf, ln_gamma, gamma, digamma and beta, in plain
//! code and in `#[differentiable]` bodies, in every import form.
//!
//! - Values: libm's bit for bit where libm has the function (`erf`,
//!   `erfc`, `lgamma`, `tgamma`, and `erff`, .. at `f32`); the others
//!   against reference values (ψ(1) = −γ, Γ(½) = √π, Φ⁻¹(0.975), ..).
//! - Derivatives, first and second, through `_grad`, `_jvp`, `_hvp` and
//!   `_hessian` (and `_vjp`, `_grad_acc`, `map`), against closed forms:
//!   erf′ = 2/√π·e^{−x²}, Φ′ = φ, φ′ = −xφ, (Φ⁻¹)′ = 1/φ(Φ⁻¹), and ψ, ψ′,
//!   ψ″ at points where the recurrences ψ(x + 1) = ψ(x) + 1/x, .. from
//!   ψ(1) = −γ, ψ(½) = −γ − 2 ln 2, ψ′(1) = π²/6, ψ′(½) = π²/2,
//!   ψ″(1) = −2ζ(3), ψ″(½) = −14ζ(3) give them exactly. Tolerances:
//!   `epsilon = 1e-14`, `max_relative = 1e-13` at `f64` (digamma's own
//!   absolute error is below 1e-15), `epsilon = 1e-6`, `max_relative =
//!   1e-5` at `f32`.
//! - Against central differences elsewhere (negative arguments too): the
//!   first derivative of the primal and the second of the `_grad`
//!   function, by `fd_support::fd64` (its tolerances: 1e-9 absolute or
//!   1e-8 relative).
//! - Black–Scholes written with `norm_cdf`: delta = N(d1),
//!   gamma = φ(d1)/(Sσ√T), vega = S·φ(d1)·√T (`epsilon = 1e-12`,
//!   `max_relative = 1e-10`: the price's two terms cancel in every
//!   derivative but delta's).

#![allow(clippy::excessive_precision)]

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::num_traits::Float;
use autograd::special;
use autograd::special::{norm_cdf, norm_pdf};
use fd_support::{LINE32, LINE64, assert_fd64_close, fd64};
use nalgebra::DVector;

const PI: f64 = core::f64::consts::PI;
/// The Euler–Mascheroni constant γ.
const EULER: f64 = 0.577_215_664_901_532_9;
/// ζ(3), Apéry's constant.
const ZETA3: f64 = 1.202_056_903_159_594_3;

/// φ(x), written out.
fn phi(x: f64) -> f64 {
    (-x * x / 2.0).exp() / (2.0 * PI).sqrt()
}

// ---- every function, generic over its scalar ----

#[differentiable(jvp, hessian)]
fn erf_of<T: Float>(x: T) -> T {
    autograd::special::erf(x)
}

#[differentiable(jvp, hessian)]
fn erfc_of<T: Float>(x: T) -> T {
    special::erfc(x)
}

#[differentiable(jvp, hessian)]
fn norm_cdf_of<T: Float>(x: T) -> T {
    norm_cdf(x)
}

#[differentiable(jvp, hessian)]
fn norm_pdf_of<T: Float>(x: T) -> T {
    norm_pdf(x)
}

#[differentiable(jvp, hessian)]
fn norm_inv_cdf_of<T: Float>(p: T) -> T {
    special::norm_inv_cdf(p)
}

#[differentiable(jvp, hessian)]
fn ln_gamma_of<T: Float>(x: T) -> T {
    special::ln_gamma(x)
}

#[differentiable(jvp, hessian)]
fn gamma_of<T: Float>(x: T) -> T {
    special::gamma(x)
}

#[differentiable(jvp, hessian)]
fn digamma_of<T: Float>(x: T) -> T {
    special::digamma(x)
}

#[differentiable(jvp, hessian)]
fn beta_of<T: Float>(a: T, b: T) -> T {
    special::beta(a, b)
}

/// A unary function's generated items at `f64`, and its first and second
/// derivatives in closed form.
struct Unary {
    name: &'static str,
    primal: fn(f64) -> f64,
    grad: fn(f64) -> (f64, f64),
    jvp: fn(f64, f64) -> (f64, f64),
    hvp: fn(f64, f64) -> (f64, f64, f64),
    hessian: fn(f64) -> (f64, f64),
    d1: fn(f64) -> f64,
    d2: fn(f64) -> f64,
}

macro_rules! unary {
    ($name:literal, $f:ident, $grad:ident, $jvp:ident, $hvp:ident, $hessian:ident, $d1:expr, $d2:expr) => {
        Unary {
            name: $name,
            primal: $f::<f64>,
            grad: $grad::<f64>,
            jvp: $jvp::<f64>,
            hvp: $hvp::<f64>,
            hessian: |x| {
                let (_, g, h) = $hessian::<f64>(x);
                (g[0], h[(0, 0)])
            },
            d1: $d1,
            d2: $d2,
        }
    };
}

/// ψ, ψ′ and ψ″ where the recurrences give them exactly.
const POLYGAMMA: &[(f64, f64, f64, f64)] = &[
    (1.0, -EULER, PI * PI / 6.0, -2.0 * ZETA3),
    (
        0.5,
        -EULER - 2.0 * core::f64::consts::LN_2,
        PI * PI / 2.0,
        -14.0 * ZETA3,
    ),
    (2.0, 1.0 - EULER, PI * PI / 6.0 - 1.0, -2.0 * ZETA3 + 2.0),
    (
        3.5,
        -EULER - 2.0 * core::f64::consts::LN_2 + 2.0 + 1.0 / 1.5 + 1.0 / 2.5,
        PI * PI / 2.0 - 4.0 - 1.0 / 2.25 - 1.0 / 6.25,
        -14.0 * ZETA3 + 16.0 + 2.0 / 3.375 + 2.0 / 15.625,
    ),
];

fn polygamma(x: f64) -> (f64, f64, f64) {
    let &(_, a, b, c) = POLYGAMMA
        .iter()
        .find(|p| p.0 == x)
        .expect("a point of POLYGAMMA");
    (a, b, c)
}

fn erf_d1(x: f64) -> f64 {
    2.0 / PI.sqrt() * (-x * x).exp()
}

fn cases() -> Vec<(Unary, &'static [f64])> {
    const PROBABILITIES: &[f64] = &[0.001, 0.025, 0.3, 0.5, 0.7, 0.975, 0.999];
    const GAMMA_POINTS: &[f64] = &[0.5, 1.0, 2.0, 3.5];
    vec![
        (
            unary!(
                "erf",
                erf_of,
                erf_of_grad,
                erf_of_jvp,
                erf_of_hvp,
                erf_of_hessian,
                erf_d1,
                |x| -2.0 * x * erf_d1(x)
            ),
            LINE64,
        ),
        (
            unary!(
                "erfc",
                erfc_of,
                erfc_of_grad,
                erfc_of_jvp,
                erfc_of_hvp,
                erfc_of_hessian,
                |x| -erf_d1(x),
                |x| 2.0 * x * erf_d1(x)
            ),
            LINE64,
        ),
        (
            unary!(
                "norm_cdf",
                norm_cdf_of,
                norm_cdf_of_grad,
                norm_cdf_of_jvp,
                norm_cdf_of_hvp,
                norm_cdf_of_hessian,
                phi,
                |x| -x * phi(x)
            ),
            LINE64,
        ),
        (
            unary!(
                "norm_pdf",
                norm_pdf_of,
                norm_pdf_of_grad,
                norm_pdf_of_jvp,
                norm_pdf_of_hvp,
                norm_pdf_of_hessian,
                |x| -x * phi(x),
                |x| (x * x - 1.0) * phi(x)
            ),
            LINE64,
        ),
        (
            // z = Φ⁻¹(p): dz/dp = 1/φ(z), d²z/dp² = z/φ(z)².
            unary!(
                "norm_inv_cdf",
                norm_inv_cdf_of,
                norm_inv_cdf_of_grad,
                norm_inv_cdf_of_jvp,
                norm_inv_cdf_of_hvp,
                norm_inv_cdf_of_hessian,
                |p| 1.0 / phi(special::norm_inv_cdf(p)),
                |p| {
                    let z = special::norm_inv_cdf(p);
                    z / (phi(z) * phi(z))
                }
            ),
            PROBABILITIES,
        ),
        (
            unary!(
                "ln_gamma",
                ln_gamma_of,
                ln_gamma_of_grad,
                ln_gamma_of_jvp,
                ln_gamma_of_hvp,
                ln_gamma_of_hessian,
                |x| polygamma(x).0,
                |x| polygamma(x).1
            ),
            GAMMA_POINTS,
        ),
        (
            // Γ′ = Γψ, Γ″ = Γ(ψ² + ψ′), Γ from libm.
            unary!(
                "gamma",
                gamma_of,
                gamma_of_grad,
                gamma_of_jvp,
                gamma_of_hvp,
                gamma_of_hessian,
                |x| libm::tgamma(x) * polygamma(x).0,
                |x| {
                    let (psi, psi1, _) = polygamma(x);
                    libm::tgamma(x) * (psi * psi + psi1)
                }
            ),
            GAMMA_POINTS,
        ),
        (
            unary!(
                "digamma",
                digamma_of,
                digamma_of_grad,
                digamma_of_jvp,
                digamma_of_hvp,
                digamma_of_hessian,
                |x| polygamma(x).1,
                |x| polygamma(x).2
            ),
            GAMMA_POINTS,
        ),
    ]
}

#[test]
fn first_and_second_derivatives_are_the_closed_forms_in_every_mode() {
    for (f, points) in cases() {
        for &x in points {
            let what = format!("{} at {x}", f.name);
            let value = (f.primal)(x);
            let (v, g) = (f.grad)(x);
            assert_eq!(v.to_bits(), value.to_bits(), "{what}: _grad's value");
            assert_relative_eq!(g, (f.d1)(x), epsilon = 1e-14, max_relative = 1e-13);
            // Forward mode: the same number, by the tangent rule.
            let (v, t) = (f.jvp)(x, 1.0);
            assert_eq!(v.to_bits(), value.to_bits(), "{what}: _jvp's value");
            assert_relative_eq!(t, g, epsilon = 1e-15, max_relative = 1e-15);
            let (g2, h) = (f.hessian)(x);
            assert_relative_eq!(g2, g, epsilon = 1e-15, max_relative = 1e-15);
            assert_relative_eq!(h, (f.d2)(x), epsilon = 1e-14, max_relative = 1e-13);
            let (v, g3, hv) = (f.hvp)(x, -2.0);
            assert_eq!(v.to_bits(), value.to_bits(), "{what}: _hvp's value");
            assert_relative_eq!(g3, g, epsilon = 1e-15, max_relative = 1e-15);
            assert_relative_eq!(hv, -2.0 * h, epsilon = 1e-14, max_relative = 1e-14);
        }
    }
}

#[test]
fn derivatives_agree_with_central_differences_on_the_whole_domain() {
    const GAMMA_LINE: &[f64] = &[-2.5, -1.3, -0.4, 0.2, 0.7, 1.46, 2.5, 7.0, 30.0];
    for (f, points) in cases() {
        let points: &[f64] = match f.name {
            "ln_gamma" | "digamma" => GAMMA_LINE,
            // Γ's growth (Γ⁽⁵⁾/Γ ≈ ln⁵ x) outruns the stencil's step at 30.
            "gamma" => &GAMMA_LINE[..GAMMA_LINE.len() - 1],
            "norm_inv_cdf" => &[0.2, 0.35, 0.45, 0.6, 0.8],
            _ => points,
        };
        for &x in points {
            let what = format!("{} at {x}", f.name);
            assert_fd64_close(&what, (f.grad)(x).1, fd64(f.primal, x));
            let grad = f.grad;
            assert_fd64_close(&what, (f.hessian)(x).1, fd64(|x| grad(x).1, x));
        }
    }
}

#[test]
fn beta_partials_are_the_closed_forms() {
    // B(a, 2) = 1/(a(a + 1)) and B(1, b) = 1/b: at (1, 2), ∂a = −3/4,
    // ∂b = −1/4, ∂²a = 2(3a² + 3a + 1)/(a(a + 1))³ = 7/4, ∂²b = 2/b³ = 1/4,
    // ∂a∂b = B·((ψ(a) − ψ(a+b))(ψ(b) − ψ(a+b)) − ψ′(a+b)) with ψ(1) − ψ(3) =
    // −3/2, ψ(2) − ψ(3) = −1/2, ψ′(3) = π²/6 − 5/4.
    let (value, da, db) = beta_of_grad(1.0, 2.0);
    assert_eq!(value, 0.5);
    assert_relative_eq!(da, -0.75, epsilon = 1e-15, max_relative = 1e-14);
    assert_relative_eq!(db, -0.25, epsilon = 1e-15, max_relative = 1e-14);
    let (_, g, h) = beta_of_hessian(1.0, 2.0);
    assert_relative_eq!(g[0], da, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(h[(0, 0)], 1.75, epsilon = 1e-14, max_relative = 1e-13);
    assert_relative_eq!(h[(1, 1)], 0.25, epsilon = 1e-14, max_relative = 1e-13);
    let cross = 0.5 * (0.75 - (PI * PI / 6.0 - 1.25));
    assert_relative_eq!(h[(0, 1)], cross, epsilon = 1e-14, max_relative = 1e-13);
    assert_relative_eq!(h[(1, 0)], cross, epsilon = 1e-14, max_relative = 1e-13);
    assert_eq!(beta_of_jvp(1.0, 2.0, 1.0, -1.0), (0.5, da - db));
    // Elsewhere, against central differences of the primal and of _grad.
    for (a, b) in [(0.5, 1.0), (2.5, 3.5), (0.3, 7.0), (-0.5, 2.0)] {
        let what = format!("beta at ({a}, {b})");
        let (_, da, db) = beta_of_grad(a, b);
        assert_fd64_close(&what, da, fd64(|t| special::beta(t, b), a));
        assert_fd64_close(&what, db, fd64(|t| special::beta(a, t), b));
        let (_, _, h) = beta_of_hessian(a, b);
        assert_fd64_close(&what, h[(0, 1)], fd64(|t| beta_of_grad(a, t).1, b));
        assert_fd64_close(&what, h[(1, 1)], fd64(|t| beta_of_grad(a, t).2, b));
    }
}

/// A constant operand beside a differentiable one, to second order.
#[differentiable(jvp, hessian)]
fn beta_with_two(a: f64) -> f64 {
    special::beta(a, 2.0)
}

#[test]
fn a_constant_operand_stays_a_constant() {
    // B(a, 2) = 1/(a(a + 1)): ∂a = −(2a + 1)/(a(a + 1))², ∂²a = 2(3a² + 3a + 1)/(a(a + 1))³.
    for a in [0.5, 1.0, 3.0] {
        let q = a * (a + 1.0);
        let (value, d) = beta_with_two_grad(a);
        assert_relative_eq!(value, 1.0 / q, epsilon = 1e-15, max_relative = 1e-14);
        assert_relative_eq!(
            d,
            -(2.0 * a + 1.0) / (q * q),
            epsilon = 1e-14,
            max_relative = 1e-13
        );
        assert_eq!(beta_with_two_jvp(a, 1.0).1, d);
        let (_, _, h) = beta_with_two_hessian(a);
        let want = 2.0 * (3.0 * a * a + 3.0 * a + 1.0) / (q * q * q);
        assert_relative_eq!(h[(0, 0)], want, epsilon = 1e-14, max_relative = 1e-13);
    }
}

#[test]
fn f32_derivatives_are_the_closed_forms() {
    let close = |got: f32, want: f64| {
        assert_relative_eq!(f64::from(got), want, epsilon = 1e-6, max_relative = 1e-5);
    };
    for &x in LINE32 {
        let x64 = f64::from(x);
        assert_eq!(erf_of(x).to_bits(), libm::erff(x).to_bits());
        close(erf_of_grad(x).1, erf_d1(x64));
        close(erfc_of_jvp(x, 1.0).1, -erf_d1(x64));
        close(norm_cdf_of_grad(x).1, phi(x64));
        let (_, _, h) = norm_pdf_of_hessian(x);
        close(h[(0, 0)], (x64 * x64 - 1.0) * phi(x64));
    }
    for x in [0.5_f32, 1.0, 2.0, 3.5] {
        let (psi, psi1, psi2) = polygamma(f64::from(x));
        assert_eq!(ln_gamma_of(x).to_bits(), libm::lgammaf(x).to_bits());
        assert_eq!(gamma_of(x).to_bits(), libm::tgammaf(x).to_bits());
        close(ln_gamma_of_grad(x).1, psi);
        close(gamma_of_jvp(x, 1.0).1, libm::tgamma(f64::from(x)) * psi);
        let (_, g, h) = digamma_of_hessian(x);
        close(g[0], psi1);
        close(h[(0, 0)], psi2);
    }
    let z = special::norm_inv_cdf(0.975_f64);
    close(norm_inv_cdf_of_grad(0.975_f32).1, 1.0 / phi(z));
    close(beta_of_grad(1.0_f32, 2.0).1, -0.75);
}

// ---- values ----

#[test]
fn values_are_libms_bit_for_bit() {
    let points: [f64; 17] = [
        -30.0, -6.0, -2.5, -1.0, -0.5, -1e-300, -0.0, 0.0, 1e-10, 0.3, 0.84375, 1.25, 2.857, 6.0,
        27.0, 171.5, 200.0,
    ];
    for x in points {
        assert_eq!(
            special::erf(x).to_bits(),
            libm::erf(x).to_bits(),
            "erf({x})"
        );
        assert_eq!(
            special::erfc(x).to_bits(),
            libm::erfc(x).to_bits(),
            "erfc({x})"
        );
        assert_eq!(
            special::ln_gamma(x).to_bits(),
            libm::lgamma(x).to_bits(),
            "ln_gamma({x})"
        );
        assert_eq!(
            special::gamma(x).to_bits(),
            libm::tgamma(x).to_bits(),
            "gamma({x})"
        );
        let cdf = 0.5 * libm::erfc(-x * core::f64::consts::FRAC_1_SQRT_2);
        assert_eq!(norm_cdf(x).to_bits(), cdf.to_bits(), "norm_cdf({x})");
        // Through the generated items too.
        assert_eq!(erf_of_grad(x).0.to_bits(), libm::erf(x).to_bits());
        assert_eq!(gamma_of_hessian(x).0.to_bits(), libm::tgamma(x).to_bits());
        let x = x as f32;
        assert_eq!(
            special::erf(x).to_bits(),
            libm::erff(x).to_bits(),
            "erf({x}_f32)"
        );
        assert_eq!(special::erfc(x).to_bits(), libm::erfcf(x).to_bits());
        assert_eq!(special::ln_gamma(x).to_bits(), libm::lgammaf(x).to_bits());
        assert_eq!(special::gamma(x).to_bits(), libm::tgammaf(x).to_bits());
    }
}

#[test]
fn values_match_the_reference_values() {
    let check = |got: f64, want: f64, eps: f64| {
        assert_relative_eq!(got, want, epsilon = eps, max_relative = eps);
    };
    assert_eq!(special::erf(0.5), 0.5204998778130465);
    check(special::gamma(0.5), PI.sqrt(), 1e-15);
    check(special::ln_gamma(0.5), PI.sqrt().ln(), 1e-15);
    check(special::digamma(1.0), -EULER, 1e-15);
    check(
        special::digamma(0.5),
        -EULER - 2.0 * core::f64::consts::LN_2,
        1e-15,
    );
    // ψ(x) − ln x → 0 like −1/(2x); ψ(100) = 4.600161852738087.
    check(special::digamma(100.0), 4.600_161_852_738_087, 1e-15);
    check(special::norm_inv_cdf(0.975), 1.959963984540054, 1e-15);
    check(special::norm_inv_cdf(0.95), 1.6448536269514722, 1e-15);
    check(special::norm_inv_cdf(0.001), -3.090232306167813, 1e-15);
    check(special::norm_inv_cdf(1e-10), -6.361340902404056, 1e-14);
    check(
        special::norm_pdf(1.0),
        (-0.5_f64).exp() / (2.0 * PI).sqrt(),
        1e-16,
    );
    check(special::beta(0.5, 0.5), PI, 1e-15);
    check(special::beta(2.0, 3.0), 1.0 / 12.0, 1e-15);
    check(special::beta(-0.5, 2.0), -4.0, 1e-14);
    // Φ(Φ⁻¹(p)) = p, Φ from libm: the quantile to the accuracy erfc allows.
    for p in [1e-300, 1e-20, 0.01, 0.2, 0.5, 0.6, 0.9, 0.999_999] {
        check(norm_cdf(special::norm_inv_cdf(p)), p, 1e-13);
    }
}

#[test]
fn domains_and_poles() {
    assert_eq!(special::norm_inv_cdf(0.0), f64::NEG_INFINITY);
    assert_eq!(special::norm_inv_cdf(1.0), f64::INFINITY);
    for p in [-0.1, 1.1, f64::NAN] {
        assert!(special::norm_inv_cdf(p).is_nan(), "norm_inv_cdf({p})");
    }
    assert_eq!(special::gamma(0.0), f64::INFINITY);
    assert_eq!(special::gamma(-0.0), f64::NEG_INFINITY);
    assert!(special::gamma(-2.0).is_nan());
    assert_eq!(special::ln_gamma(-2.0), f64::INFINITY);
    assert_eq!(special::digamma(0.0), f64::NEG_INFINITY);
    assert_eq!(special::digamma(-0.0), f64::INFINITY);
    assert!(special::digamma(-2.0).is_nan());
    // The derivative of Φ⁻¹ at 0 and 1: 1/φ(∓∞) = +∞.
    assert_eq!(norm_inv_cdf_of_grad(0.0).1, f64::INFINITY);
    assert_eq!(norm_inv_cdf_of_grad(1.0).1, f64::INFINITY);
    // erf at −0 keeps its sign, at second order too.
    assert!(erf_of_hessian(-0.0).0.is_sign_negative());
}

// ---- the forms a call takes ----

mod glob_import {
    use autograd::differentiable;
    use autograd::special::*;

    /// The log density of Beta(a, b) at x.
    #[differentiable(jvp, hessian)]
    pub fn beta_log_density(x: f64, a: f64, b: f64) -> f64 {
        (a - 1.0) * x.ln() + (b - 1.0) * (1.0 - x).ln() - beta(a, b).ln()
    }
}

mod renamed_import {
    use autograd::differentiable;
    use autograd::special::ln_gamma as lgam;

    #[differentiable]
    pub fn twice_ln_gamma(x: f64) -> f64 {
        2.0 * lgam(x)
    }
}

mod own_erf {
    use autograd::differentiable;

    /// A user's own function named like a special function: calls of it
    /// stay calls of it.
    #[differentiable(hessian)]
    fn erf(x: f64) -> f64 {
        x * x
    }

    /// In the second-order twin and in a `map` closure too.
    #[differentiable(hessian)]
    pub fn calls_own_erf(x: f64) -> f64 {
        erf(x) + 1.0
    }

    #[differentiable]
    pub fn maps_own_erf(m: &nalgebra::DVector<f64>) -> f64 {
        m.map(|v| erf(v) + v).sum()
    }
}

#[test]
fn every_import_form_is_the_rule() {
    // ∂/∂a of −ln B(a, b) = ψ(a + b) − ψ(a): at (1, 2), ψ(3) − ψ(1) = 3/2.
    let (_, dx, da, db) = glob_import::beta_log_density_grad(0.25, 1.0, 2.0);
    assert_relative_eq!(dx, -1.0 / 0.75, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(
        da,
        0.25_f64.ln() + 1.5,
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    assert_relative_eq!(
        db,
        0.75_f64.ln() + 0.5,
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    let (_, t) = glob_import::beta_log_density_jvp(0.25, 1.0, 2.0, 0.5, -1.0, 2.0);
    assert_relative_eq!(
        t,
        0.5 * dx - da + 2.0 * db,
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    let (_, _, h) = glob_import::beta_log_density_hessian(0.25, 1.0, 2.0);
    // −∂²/∂a² ln B = ψ′(a) − ψ′(a + b) = π²/6 − (π²/6 − 5/4).
    assert_relative_eq!(h[(1, 1)], -1.25, epsilon = 1e-14, max_relative = 1e-13);
    let (_, d) = renamed_import::twice_ln_gamma_grad(1.0);
    assert_relative_eq!(d, -2.0 * EULER, epsilon = 1e-15, max_relative = 1e-14);
    assert_eq!(own_erf::calls_own_erf_grad(3.0), (10.0, 6.0));
    let (_, _, h) = own_erf::calls_own_erf_hessian(3.0);
    assert_eq!(h[(0, 0)], 2.0);
    let (_, g) = own_erf::maps_own_erf_grad(&DVector::from_vec(vec![1.0, -2.0]));
    assert_eq!(g, DVector::from_vec(vec![3.0, -3.0]));
}

#[differentiable]
fn erf_sum(m: &DVector<f64>) -> f64 {
    m.map(special::erf).sum() + m.map(|v| v * special::erfc(v)).sum()
}

#[differentiable]
fn erf_plain(x: f64) -> f64 {
    special::erf(2.0 * x)
}

#[test]
fn map_vjp_and_grad_acc_take_the_rule() {
    let m = DVector::from_vec(vec![-1.0, 0.25, 2.0]);
    let (value, g) = erf_sum_grad(&m);
    let erfc_terms = m.map(|v| v * special::erfc(v)).sum();
    assert_eq!(value, m.map(special::erf).sum() + erfc_terms);
    for i in 0..3 {
        // erf′(v) + erfc(v) + v·erfc′(v), erfc′ = −erf′.
        let want = erf_d1(m[i]) + special::erfc(m[i]) - m[i] * erf_d1(m[i]);
        assert_relative_eq!(g[i], want, epsilon = 1e-15, max_relative = 1e-14);
    }
    let (value, pullback) = erf_plain_vjp(0.3);
    assert_eq!(value, special::erf(0.6));
    assert_relative_eq!(
        pullback(-1.0).0,
        -2.0 * erf_d1(0.6),
        epsilon = 1e-15,
        max_relative = 1e-14
    );
    let mut dx = 1.0;
    erf_plain_grad_acc(0.3, &mut dx);
    assert_relative_eq!(
        dx,
        1.0 + 2.0 * erf_d1(0.6),
        epsilon = 1e-15,
        max_relative = 1e-14
    );
}

// ---- Black–Scholes ----

#[differentiable(hessian)]
fn call_price(spot: f64, strike: f64, rate: f64, vol: f64, time: f64) -> f64 {
    let sqrt_t = time.sqrt();
    let d1 = ((spot / strike).ln() + (rate + 0.5 * vol * vol) * time) / (vol * sqrt_t);
    let d2 = d1 - vol * sqrt_t;
    spot * norm_cdf(d1) - strike * (-rate * time).exp() * norm_cdf(d2)
}

#[test]
fn black_scholes_greeks_are_the_closed_forms() {
    for (s, k, r, v, t) in [
        (100.0, 100.0, 0.05, 0.2, 1.0),
        (50.0, 80.0, 0.01, 0.35, 0.25),
        (120.0, 90.0, 0.03, 0.15, 2.0),
    ] {
        let d1 = ((s / k).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
        let (_, delta, _, _, vega, _) = call_price_grad(s, k, r, v, t);
        assert_relative_eq!(delta, norm_cdf(d1), epsilon = 1e-12, max_relative = 1e-10);
        let want_vega = s * phi(d1) * t.sqrt();
        assert_relative_eq!(vega, want_vega, epsilon = 1e-12, max_relative = 1e-10);
        let (_, _, h) = call_price_hessian(s, k, r, v, t);
        let gamma = phi(d1) / (s * v * t.sqrt());
        assert_relative_eq!(h[(0, 0)], gamma, epsilon = 1e-12, max_relative = 1e-10);
    }
}
