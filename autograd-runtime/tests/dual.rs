//! `Dual<f64>`: each method's real part is the `f64` method's value bit for
//! bit, and its ε part the derivative, checked against central differences
//! of the `f64` method (h = 1e-6, relative tolerance 1e-6).

use autograd_runtime::Dual;
use num_traits::Float;

const H: f64 = 1e-6;
const TOL: f64 = 1e-6;

fn check_unary(name: &str, f: impl Fn(f64) -> f64, fd: impl Fn(Dual<f64>) -> Dual<f64>, x: f64) {
    let d = fd(Dual::new(x, 1.0));
    assert_eq!(d.re.to_bits(), f(x).to_bits(), "{name}({x}) value");
    let expected = (f(x + H) - f(x - H)) / (2.0 * H);
    let err = (d.eps - expected).abs() / expected.abs().max(1.0);
    assert!(
        err < TOL,
        "{name}'({x}) = {} vs differences {expected}",
        d.eps
    );
}

#[test]
fn unary_methods_match_differences() {
    type F = fn(f64) -> f64;
    type D = fn(Dual<f64>) -> Dual<f64>;
    let cases: &[(&str, F, D, &[f64])] = &[
        ("exp", f64::exp, Dual::exp, &[-1.3, 0.2, 2.0]),
        ("exp2", f64::exp2, Dual::exp2, &[-1.3, 0.7]),
        ("exp_m1", f64::exp_m1, Dual::exp_m1, &[-0.4, 1e-3, 1.1]),
        ("ln", f64::ln, Dual::ln, &[0.3, 2.5]),
        ("ln_1p", f64::ln_1p, Dual::ln_1p, &[-0.5, 0.01, 3.0]),
        ("log2", f64::log2, Dual::log2, &[0.3, 5.0]),
        ("log10", f64::log10, Dual::log10, &[0.3, 5.0]),
        ("sqrt", f64::sqrt, Dual::sqrt, &[0.2, 9.0]),
        ("cbrt", f64::cbrt, Dual::cbrt, &[-2.0, 0.3, 8.0]),
        ("recip", f64::recip, Dual::recip, &[-2.0, 0.3]),
        ("abs", f64::abs, Dual::abs, &[-2.0, 0.3]),
        ("sin", f64::sin, Dual::sin, &[-2.0, 0.3]),
        ("cos", f64::cos, Dual::cos, &[-2.0, 0.3]),
        ("tan", f64::tan, Dual::tan, &[-1.0, 0.3]),
        ("asin", f64::asin, Dual::asin, &[-0.7, 0.3]),
        ("acos", f64::acos, Dual::acos, &[-0.7, 0.3]),
        ("atan", f64::atan, Dual::atan, &[-3.0, 0.3]),
        ("sinh", f64::sinh, Dual::sinh, &[-1.0, 0.3]),
        ("cosh", f64::cosh, Dual::cosh, &[-1.0, 0.3]),
        ("tanh", f64::tanh, Dual::tanh, &[-1.0, 0.3]),
        ("asinh", f64::asinh, Dual::asinh, &[-1.0, 0.3]),
        ("acosh", f64::acosh, Dual::acosh, &[1.5, 4.0]),
        ("atanh", f64::atanh, Dual::atanh, &[-0.5, 0.3]),
        ("floor", f64::floor, Dual::floor, &[-1.5, 0.3]),
        ("fract", f64::fract, Dual::fract, &[-1.25, 0.3]),
        ("powi(3)", |x| x.powi(3), |x| x.powi(3), &[-1.5, 0.3]),
        (
            "powf(2.5)",
            |x| x.powf(2.5),
            |x| x.powf(Dual::constant(2.5)),
            &[0.5, 3.0],
        ),
        ("to_degrees", f64::to_degrees, Dual::to_degrees, &[0.5]),
    ];
    for (name, f, d, points) in cases {
        for &x in *points {
            check_unary(name, f, d, x);
        }
    }
}

#[test]
fn binary_methods_match_differences() {
    type F = fn(f64, f64) -> f64;
    type D = fn(Dual<f64>, Dual<f64>) -> Dual<f64>;
    let cases: &[(&str, F, D)] = &[
        ("add", |a, b| a + b, |a, b| a + b),
        ("sub", |a, b| a - b, |a, b| a - b),
        ("mul", |a, b| a * b, |a, b| a * b),
        ("div", |a, b| a / b, |a, b| a / b),
        ("rem", |a, b| a % b, |a, b| a % b),
        ("powf", f64::powf, Dual::powf),
        ("log", f64::log, Dual::log),
        ("hypot", f64::hypot, Dual::hypot),
        ("atan2", f64::atan2, Dual::atan2),
        ("max", f64::max, Dual::max),
        ("min", f64::min, Dual::min),
    ];
    for (name, f, d) in cases {
        for &(a, b) in &[(1.7, 0.6), (2.3, 3.1)] {
            // Along (1, 0) and (0, 1): both partial derivatives.
            for (da, db) in [(1.0, 0.0), (0.0, 1.0)] {
                let out = d(Dual::new(a, da), Dual::new(b, db));
                assert_eq!(out.re.to_bits(), f(a, b).to_bits(), "{name} value");
                let expected = (f(a + da * H, b + db * H) - f(a - da * H, b - db * H)) / (2.0 * H);
                let err = (out.eps - expected).abs() / expected.abs().max(1.0);
                assert!(
                    err < TOL,
                    "{name} at ({a}, {b}) along ({da}, {db}): {} vs {expected}",
                    out.eps
                );
            }
        }
    }
}

#[test]
fn three_operand_methods_and_sin_cos() {
    let (a, b, c): (Dual<f64>, Dual<f64>, Dual<f64>) = (
        Dual::new(1.5, 1.0),
        Dual::new(-0.5, 2.0),
        Dual::new(0.25, -1.0),
    );
    let m = a.mul_add(b, c);
    assert_eq!(m.re.to_bits(), 1.5f64.mul_add(-0.5, 0.25).to_bits());
    // d(a·b + c) = da·b + a·db + dc.
    assert_eq!(m.eps, 1.0 * -0.5 + 1.5 * 2.0 - 1.0);
    let x = Dual::new(0.3, 2.0);
    let (s, co) = x.sin_cos();
    assert_eq!((s.re, co.re), 0.3f64.sin_cos());
    assert!((s.eps - 2.0 * 0.3f64.cos()).abs() < 1e-15);
    assert!((co.eps + 2.0 * 0.3f64.sin()).abs() < 1e-15);
    // Inside the interval the value moves; at the bounds the tangent is the
    // rule's convention (the README's clamp row).
    let inside = Dual::new(0.5, 1.0).clamp(Dual::constant(0.0), Dual::constant(1.0));
    assert_eq!((inside.re, inside.eps), (0.5, 1.0));
    let above = Dual::new(2.0, 1.0).clamp(Dual::constant(0.0), Dual::new(1.0, 3.0));
    assert_eq!((above.re, above.eps), (1.0, 3.0));
}

/// A second derivative by forward over forward: d²/dx² of x³·sin x, nested
/// duals, against the closed form 6x·sin x + 6x²·cos x − x³·sin x.
#[test]
fn nested_duals_give_second_derivatives() {
    let f = |x: Dual<Dual<f64>>| x.powi(3) * x.sin();
    let x0 = 0.8f64;
    let x = Dual::new(Dual::new(x0, 1.0), Dual::new(1.0, 0.0));
    let y = f(x);
    let closed = 6.0 * x0 * x0.sin() + 6.0 * x0 * x0 * x0.cos() - x0.powi(3) * x0.sin();
    assert!(
        (y.eps.eps - closed).abs() < 1e-12,
        "{} vs {closed}",
        y.eps.eps
    );
    // Comparisons and branches see real parts only.
    assert!(Dual::new(1.0, -5.0) > Dual::new(0.5, 9.0));
}

// ---------------------------------------------------------------------------
// The num-traits family a `T: Float + ..` body bounds its scalar by (issue
// 36, item 7): conversions and constants are constants (ε part 0) with the
// value of `f64`'s own; `Sum`, `Product`, `Signed` and `MulAdd` are `Dual`'s
// arithmetic, checked against the product rule written out.

#[test]
fn conversions_and_constants_have_zero_tangent_and_f64s_value() {
    use num_traits::{Bounded, FloatConst, FromPrimitive};
    let conversions: [(Option<Dual<f64>>, f64); 6] = [
        (Dual::from_f64(0.1), 0.1f64),
        (Dual::from_f32(0.1), f64::from(0.1f32)),
        (Dual::from_usize(7), 7.0),
        (Dual::from_i32(-3), -3.0),
        (Dual::from_u64(1 << 60), (1u64 << 60) as f64),
        (Dual::from_i128(-5), -5.0),
    ];
    for (got, want) in conversions {
        let got = got.expect("in range");
        assert_eq!(got.re.to_bits(), want.to_bits());
        assert_eq!(got.eps, 0.0);
    }
    type C = fn() -> Dual<f64>;
    let constants: [(C, f64); 8] = [
        (Dual::PI, core::f64::consts::PI),
        (Dual::TAU, core::f64::consts::TAU),
        (Dual::E, core::f64::consts::E),
        (Dual::SQRT_2, core::f64::consts::SQRT_2),
        (Dual::LN_2, core::f64::consts::LN_2),
        (Dual::LOG10_2, core::f64::consts::LOG10_2),
        (<Dual<f64> as Bounded>::max_value, f64::MAX),
        (<Dual<f64> as Bounded>::min_value, f64::MIN),
    ];
    for (c, want) in constants {
        assert_eq!(c().re.to_bits(), want.to_bits());
        assert_eq!(c().eps, 0.0);
    }
    let f32_pi = <Dual<f32> as FloatConst>::PI();
    assert_eq!(f32_pi.re.to_bits(), core::f32::consts::PI.to_bits());
}

#[test]
fn sum_and_product_follow_f64_and_the_product_rule() {
    let xs = [
        Dual::new(1.5, 1.0),
        Dual::new(-0.25, 2.0),
        Dual::new(3.0, -0.5),
    ];
    let re: Vec<f64> = xs.iter().map(|d| d.re).collect();
    let s: Dual<f64> = xs.iter().sum();
    let s_owned: Dual<f64> = xs.iter().copied().sum();
    assert_eq!(s.re.to_bits(), re.iter().sum::<f64>().to_bits());
    assert_eq!(s.eps, 1.0 + 2.0 - 0.5);
    assert_eq!(s_owned.re.to_bits(), s.re.to_bits());
    // An empty sum is −0, as f64's is.
    let empty: Dual<f64> = core::iter::empty::<Dual<f64>>().sum();
    assert_eq!(empty.re.to_bits(), (-0.0f64).to_bits());
    let p: Dual<f64> = xs.iter().product();
    let p_owned: Dual<f64> = xs.iter().copied().product();
    assert_eq!(p.re.to_bits(), re.iter().product::<f64>().to_bits());
    // d(abc) = da·bc + a·db·c + ab·dc.
    let want = 1.0 * (-0.25 * 3.0) + 1.5 * 2.0 * 3.0 + 1.5 * -0.25 * -0.5;
    assert!((p.eps - want).abs() <= 1e-15 * want.abs());
    assert_eq!(p_owned.re.to_bits(), p.re.to_bits());
}

#[test]
fn signed_and_mul_add_are_floats_methods() {
    use num_traits::{MulAdd, Signed};
    let x: Dual<f64> = Dual::new(-1.25, 0.5);
    assert_eq!(Signed::abs(&x).re, 1.25);
    assert_eq!(Signed::abs(&x).eps, -0.5);
    assert_eq!(Signed::signum(&x).re, -1.0);
    assert_eq!(Signed::signum(&x).eps, 0.0);
    assert!(x.is_negative() && !x.is_positive());
    let d = Signed::abs_sub(&Dual::new(2.0, 1.0), &Dual::new(0.5, 3.0));
    assert_eq!((d.re, d.eps), (1.5, -2.0));
    let m: Dual<f64> = MulAdd::mul_add(x, Dual::new(2.0, 1.0), Dual::new(0.5, 1.0));
    assert_eq!(m.re.to_bits(), (-1.25f64).mul_add(2.0, 0.5).to_bits());
    assert_eq!(m.eps, 0.5 * 2.0 + -1.25 * 1.0 + 1.0);
}
