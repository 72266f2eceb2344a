//! The special functions' rules (`rules::special`, issue 38): each
//! pullback against central differences of its primal, each tangent equal
//! to its pullback at the seed, the dispatched forms equal to the scalar
//! ones, and the dual-number path (second order) carrying the tangent
//! rule's derivative. Digamma's derivatives trigamma and tetragamma against
//! their reference values, through the recurrence and the reflection.
//!
//! Tolerances: central differences (step 1e-5, three points) to 1e-7
//! relative or absolute; reference values to 1e-15 relative (2e-15 where
//! the reflection adds a term).

use autograd_runtime::Dual;
use autograd_runtime::rules::{self, generic as g};

fn central(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-5 * x.abs().max(1.0);
    (f(x + h) - f(x - h)) / (2.0 * h)
}

fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "{what}: {got} against {want}"
    );
}

type Pullback = fn(f64, f64, f64) -> f64;

type Case = (
    &'static str,
    fn(f64) -> f64,
    fn(Dual<f64>) -> Dual<f64>,
    Pullback,
    Pullback,
    &'static [f64],
);

/// Name, primal at `f64` and at a dual number, pullback (grad, x, out),
/// tangent (dx, x, out), points.
fn unary() -> Vec<Case> {
    const LINE: &[f64] = &[-2.5, -0.7, 0.0, 0.4, 1.9, 4.0];
    const GAMMA: &[f64] = &[-2.5, -0.4, 0.3, 1.0, 1.46, 2.5, 12.0];
    vec![
        (
            "erf",
            rules::erf,
            rules::erf::<Dual<f64>>,
            |g, x, _| rules::erf_grad(g, x),
            |d, x, _| rules::erf_tangent(d, x),
            LINE,
        ),
        (
            "erfc",
            rules::erfc,
            rules::erfc::<Dual<f64>>,
            |g, x, _| rules::erfc_grad(g, x),
            |d, x, _| rules::erfc_tangent(d, x),
            LINE,
        ),
        (
            "norm_cdf",
            rules::norm_cdf,
            rules::norm_cdf::<Dual<f64>>,
            |g, x, _| rules::norm_cdf_grad(g, x),
            |d, x, _| rules::norm_cdf_tangent(d, x),
            LINE,
        ),
        (
            "norm_pdf",
            rules::norm_pdf,
            rules::norm_pdf::<Dual<f64>>,
            rules::norm_pdf_grad,
            rules::norm_pdf_tangent,
            LINE,
        ),
        (
            "norm_inv_cdf",
            rules::norm_inv_cdf,
            rules::norm_inv_cdf::<Dual<f64>>,
            |g, _, y| rules::norm_inv_cdf_grad(g, y),
            |d, _, y| rules::norm_inv_cdf_tangent(d, y),
            &[0.05, 0.3, 0.5, 0.8, 0.97],
        ),
        (
            "ln_gamma",
            rules::ln_gamma,
            rules::ln_gamma::<Dual<f64>>,
            |g, x, _| rules::ln_gamma_grad(g, x),
            |d, x, _| rules::ln_gamma_tangent(d, x),
            GAMMA,
        ),
        (
            "gamma",
            rules::gamma,
            rules::gamma::<Dual<f64>>,
            rules::gamma_grad,
            rules::gamma_tangent,
            GAMMA,
        ),
        (
            "digamma",
            rules::digamma,
            rules::digamma::<Dual<f64>>,
            |g, x, _| rules::digamma_grad(g, x),
            |d, x, _| rules::digamma_tangent(d, x),
            GAMMA,
        ),
    ]
}

#[test]
fn pullbacks_are_the_derivatives_and_tangents_the_pullbacks() {
    for (name, f, dual, pullback, tangent, points) in unary() {
        for &x in points {
            let what = format!("{name} at {x}");
            let y = f(x);
            close(pullback(1.0, x, y), central(f, x), 1e-7, &what);
            assert_eq!(pullback(-0.75, x, y), tangent(-0.75, x, y), "{what}");
            // Second order: the dual number's derivative part is the tangent.
            let d = dual(Dual::new(x, -0.75));
            assert_eq!(d.re.to_bits(), y.to_bits(), "{what}: the dual's value");
            close(d.eps, tangent(-0.75, x, y), 1e-15, &what);
        }
    }
}

#[test]
fn dispatched_forms_are_the_scalar_rules() {
    let (x, g0) = (0.8_f64, 1.5);
    let out = rules::gamma(x);
    assert_eq!(g::erf_grad(&g0, &x, &rules::erf(x)), rules::erf_grad(g0, x));
    assert_eq!(g::gamma_grad(&g0, &x, &out), rules::gamma_grad(g0, x, out));
    let mut acc = 1.0;
    g::digamma_grad_acc(&mut acc, &g0, &x, &rules::digamma(x));
    assert_eq!(acc, 1.0 + rules::digamma_grad(g0, x));
    let (a, b) = (0.7, 2.2);
    let out = rules::beta(a, b);
    assert_eq!(
        g::beta_grad_lhs(&g0, &a, &b, &out),
        rules::beta_grad_lhs(g0, a, b, out)
    );
    assert_eq!(
        g::beta_grad_rhs(&g0, &a, &b, &out),
        rules::beta_grad_rhs(g0, a, b, out)
    );
    let x32 = 0.8_f32;
    assert_eq!(
        g::norm_cdf_grad(&2.0_f32, &x32, &rules::norm_cdf(x32)),
        rules::norm_cdf_grad(2.0, x32)
    );
}

#[test]
fn beta_pullbacks_and_tangent() {
    for (a, b) in [(0.5, 1.0), (2.5, 3.5), (-0.5, 2.0), (30.0, 150.0)] {
        let what = format!("beta at ({a}, {b})");
        let out = rules::beta(a, b);
        let da = rules::beta_grad_lhs(1.0, a, b, out);
        let db = rules::beta_grad_rhs(1.0, a, b, out);
        close(da, central(|t| rules::beta(t, b), a), 1e-7, &what);
        close(db, central(|t| rules::beta(a, t), b), 1e-7, &what);
        assert_eq!(
            rules::beta_tangent(0.5, -2.0, a, b, out),
            rules::beta_grad_lhs(0.5, a, b, out) + rules::beta_grad_rhs(-2.0, a, b, out)
        );
        let d = rules::beta(Dual::new(a, 0.5), Dual::new(b, -2.0));
        assert_eq!(d.re.to_bits(), out.to_bits(), "{what}");
        close(
            d.eps,
            rules::beta_tangent(0.5, -2.0, a, b, out),
            1e-15,
            &what,
        );
    }
    // Large arguments take the logarithms' branch, small ones the ratio.
    close(
        rules::beta(100.0, 100.0),
        2.208_760_693_199_938_7e-61,
        1e-13,
        "B(100, 100)",
    );
}

#[test]
fn polygammas_are_the_reference_values() {
    use core::f64::consts::PI;
    const ZETA3: f64 = 1.202_056_903_159_594_3;
    // ψ′(1) = π²/6, ψ′(½) = π²/2, ψ′(−½) = π²/2 + 4 (reflection, then
    // recurrence), ψ″(1) = −2ζ(3), ψ″(½) = −14ζ(3), ψ″(−½) = 16 − 14ζ(3) (written out:
    // computed in f64 it would cancel).
    close(rules::trigamma(1.0), PI * PI / 6.0, 1e-15, "ψ′(1)");
    close(rules::trigamma(0.5), PI * PI / 2.0, 1e-15, "ψ′(½)");
    close(rules::trigamma(-0.5), PI * PI / 2.0 + 4.0, 2e-15, "ψ′(−½)");
    close(rules::tetragamma(1.0), -2.0 * ZETA3, 1e-15, "ψ″(1)");
    close(rules::tetragamma(0.5), -14.0 * ZETA3, 1e-15, "ψ″(½)");
    close(
        rules::tetragamma(-0.5),
        -0.828_796_644_234_32,
        2e-15,
        "ψ″(−½)",
    );
    for x in [-2.5, -0.4, 0.3, 1.46, 12.0, 150.0] {
        close(
            rules::trigamma(x),
            central(rules::digamma, x),
            1e-7,
            "ψ′ = dψ/dx",
        );
        close(
            rules::tetragamma(x),
            central(rules::trigamma, x),
            1e-7,
            "ψ″ = dψ′/dx",
        );
    }
    // At the poles: ψ′ → +∞ from both sides.
    assert_eq!(rules::trigamma(0.0), f64::INFINITY);
    assert_eq!(rules::trigamma(-3.0), f64::INFINITY);
}

#[test]
fn f32_is_libms_single_precision() {
    for x in [-2.5_f32, -0.375, 0.25, 1.0, 3.125] {
        assert_eq!(rules::erf(x).to_bits(), libm::erff(x).to_bits());
        assert_eq!(rules::erfc(x).to_bits(), libm::erfcf(x).to_bits());
        assert_eq!(rules::ln_gamma(x).to_bits(), libm::lgammaf(x).to_bits());
        assert_eq!(rules::gamma(x).to_bits(), libm::tgammaf(x).to_bits());
        // Computed in f64, rounded once.
        assert_eq!(rules::digamma(x), rules::digamma(f64::from(x)) as f32);
        let d = rules::erf(Dual::new(x, 1.0_f32));
        assert_eq!(d.re.to_bits(), libm::erff(x).to_bits());
        assert_eq!(d.eps, rules::erf_tangent(1.0, x));
    }
}
