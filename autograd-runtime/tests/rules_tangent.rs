//! The tangent (forward-mode) rules.
//!
//! Scalar rules: for every rule, old and new, `NAME_tangent(ẋ..)` is
//! exactly the sum of the pullbacks at seeds `ẋᵢ`, and both match central
//! differences (the tangent along `ẋ`, each pullback along its axis), for
//! `f32` and `f64`. Matrix rules: every tangent satisfies the dot-product
//! identity ⟨J·v, u⟩ = ⟨v, Jᵀ·u⟩ against its pullback, and the product's
//! also central differences.

mod common;

use autograd_runtime::rules::{self, Real, elementwise as ew, linalg, reductions, shape};
use autograd_runtime::{central_difference, central_difference_step};
use common::{Rng, dot};
use nalgebra::{DMatrix, DVector, RowDVector};

type M = DMatrix<f64>;

/// One scalar rule of up to three operands (unused slots are 0).
struct Rule<T> {
    name: &'static str,
    arity: usize,
    primal: fn([T; 3]) -> T,
    /// `(ẋ, x, out) ↦ ẏ`.
    tangent: fn([T; 3], [T; 3], T) -> T,
    /// `(grad, x, out) ↦` the operands' adjoints.
    pullback: fn(T, [T; 3], T) -> [T; 3],
    /// A point of the domain, away from kinks and jumps, from three
    /// uniforms in [−1, 1).
    point: fn([f64; 3]) -> [f64; 3],
}

fn any(u: [f64; 3]) -> [f64; 3] {
    u.map(|u| 3.0 * u)
}
fn positive(u: [f64; 3]) -> [f64; 3] {
    u.map(|u| 0.2 + 3.0 * u.abs())
}
/// Away from 0 by at least 0.1.
fn nonzero(u: [f64; 3]) -> [f64; 3] {
    u.map(|u| (0.1 + 2.0 * u.abs()).copysign(u))
}
/// Inside (−0.9, 0.9).
fn unit(u: [f64; 3]) -> [f64; 3] {
    u.map(|u| 0.9 * u)
}
/// Between an integer plus 0.1 and plus 0.4: clear of every integer and
/// half-integer jump.
fn between_jumps(u: [f64; 3]) -> [f64; 3] {
    [(4.0 * u[0]).round() + 0.1 + 0.3 * u[1].abs(), 0.0, 0.0]
}
/// Two operands at least 0.1 apart (`max`, `min` away from their tie).
fn apart(u: [f64; 3]) -> [f64; 3] {
    [u[0], u[0] + (0.1 + u[1].abs()).copysign(u[1]), 0.0]
}

macro_rules! unary {
    ($name:ident, $grad:ident, $tangent:ident, $read:ident, $point:expr) => {
        Rule {
            name: stringify!($name),
            arity: 1,
            primal: |x| rules::$name(x[0]),
            tangent: |d, x, out| unary!(@call rules::$tangent, d[0], x[0], out, $read),
            pullback: |g, x, out| {
                [unary!(@call rules::$grad, g, x[0], out, $read), T::zero(), T::zero()]
            },
            point: $point,
        }
    };
    (@call $f:path, $g:expr, $x:expr, $out:expr, x) => {{
        let _ = $out;
        $f($g, $x)
    }};
    (@call $f:path, $g:expr, $x:expr, $out:expr, out) => {{
        let _ = $x;
        $f($g, $out)
    }};
    (@call $f:path, $g:expr, $x:expr, $out:expr, none) => {{
        let _ = ($x, $out);
        $f($g)
    }};
}

fn scalar_rules<T: Real>() -> Vec<Rule<T>> {
    vec![
        // ---- arithmetic ----
        Rule {
            name: "add",
            arity: 2,
            primal: |x| rules::add(x[0], x[1]),
            tangent: |d, _, _| rules::add_tangent(d[0], d[1]),
            pullback: |g, _, _| [rules::add_grad_lhs(g), rules::add_grad_rhs(g), T::zero()],
            point: any,
        },
        Rule {
            name: "sub",
            arity: 2,
            primal: |x| rules::sub(x[0], x[1]),
            tangent: |d, _, _| rules::sub_tangent(d[0], d[1]),
            pullback: |g, _, _| [rules::sub_grad_lhs(g), rules::sub_grad_rhs(g), T::zero()],
            point: any,
        },
        Rule {
            name: "mul",
            arity: 2,
            primal: |x| rules::mul(x[0], x[1]),
            tangent: |d, x, _| rules::mul_tangent(d[0], d[1], x[0], x[1]),
            pullback: |g, x, _| {
                [
                    rules::mul_grad_lhs(g, x[1]),
                    rules::mul_grad_rhs(g, x[0]),
                    T::zero(),
                ]
            },
            point: any,
        },
        Rule {
            name: "div",
            arity: 2,
            primal: |x| rules::div(x[0], x[1]),
            tangent: |d, x, out| rules::div_tangent(d[0], d[1], x[1], out),
            pullback: |g, x, out| {
                [
                    rules::div_grad_lhs(g, x[1]),
                    rules::div_grad_rhs(g, x[1], out),
                    T::zero(),
                ]
            },
            point: |u| [3.0 * u[0], (0.5 + u[1].abs()).copysign(u[1]), 0.0],
        },
        unary!(neg, neg_grad, neg_tangent, none, any),
        Rule {
            name: "mul_add",
            arity: 3,
            primal: |x| rules::mul_add(x[0], x[1], x[2]),
            tangent: |d, x, _| rules::mul_add_tangent(d[0], d[1], d[2], x[0], x[1]),
            pullback: |g, x, _| {
                [
                    rules::mul_add_grad_a(g, x[1]),
                    rules::mul_add_grad_b(g, x[0]),
                    rules::mul_add_grad_c(g),
                ]
            },
            point: any,
        },
        Rule {
            name: "pow",
            arity: 2,
            primal: |x| rules::pow(x[0], x[1]),
            tangent: |d, x, out| rules::pow_tangent(d[0], d[1], x[0], x[1], out),
            pullback: |g, x, out| {
                [
                    rules::pow_grad_lhs(g, x[0], x[1]),
                    rules::pow_grad_rhs(g, x[0], out),
                    T::zero(),
                ]
            },
            point: |u| [0.3 + 2.0 * u[0].abs(), 2.0 * u[1], 0.0],
        },
        Rule {
            name: "powi",
            arity: 1,
            // The constant exponent rides in the second slot.
            primal: |x| rules::powi(x[0], x[1].to_f64() as i32),
            tangent: |d, x, _| rules::powi_tangent(d[0], x[0], x[1].to_f64() as i32),
            pullback: |g, x, _| {
                [
                    rules::powi_grad(g, x[0], x[1].to_f64() as i32),
                    T::zero(),
                    T::zero(),
                ]
            },
            point: |u| {
                [
                    (0.5 + 2.0 * u[0].abs()).copysign(u[0]),
                    (4.0 * u[1]).round(),
                    0.0,
                ]
            },
        },
        Rule {
            name: "max",
            arity: 2,
            primal: |x| {
                if rules::max_takes_lhs(x[0], x[1]) {
                    x[0]
                } else {
                    x[1]
                }
            },
            tangent: |d, x, _| rules::max_tangent(d[0], d[1], x[0], x[1]),
            pullback: |g, x, _| {
                [
                    rules::max_grad_lhs(g, x[0], x[1]),
                    rules::max_grad_rhs(g, x[0], x[1]),
                    T::zero(),
                ]
            },
            point: apart,
        },
        Rule {
            name: "min",
            arity: 2,
            primal: |x| {
                if rules::min_takes_lhs(x[0], x[1]) {
                    x[0]
                } else {
                    x[1]
                }
            },
            tangent: |d, x, _| rules::min_tangent(d[0], d[1], x[0], x[1]),
            pullback: |g, x, _| {
                [
                    rules::min_grad_lhs(g, x[0], x[1]),
                    rules::min_grad_rhs(g, x[0], x[1]),
                    T::zero(),
                ]
            },
            point: apart,
        },
        // ---- exponentials, logarithms, roots ----
        unary!(exp, exp_grad, exp_tangent, out, any),
        unary!(exp2, exp2_grad, exp2_tangent, out, any),
        unary!(exp_m1, exp_m1_grad, exp_m1_tangent, out, any),
        unary!(ln, ln_grad, ln_tangent, x, positive),
        unary!(ln_1p, ln_1p_grad, ln_1p_tangent, x, |u| [
            -0.8 + 3.0 * u[0].abs(),
            0.0,
            0.0
        ]),
        unary!(log2, log2_grad, log2_tangent, x, positive),
        unary!(log10, log10_grad, log10_tangent, x, positive),
        Rule {
            name: "log",
            arity: 2,
            primal: |x| rules::log(x[0], x[1]),
            tangent: |d, x, out| rules::log_tangent(d[0], d[1], x[0], x[1], out),
            pullback: |g, x, out| {
                [
                    rules::log_grad_lhs(g, x[0], x[1]),
                    rules::log_grad_rhs(g, x[1], out),
                    T::zero(),
                ]
            },
            // The base clear of 0 and 1.
            point: |u| [0.2 + 3.0 * u[0].abs(), 1.5 + 3.0 * u[1].abs(), 0.0],
        },
        unary!(sqrt, sqrt_grad, sqrt_tangent, out, positive),
        unary!(cbrt, cbrt_grad, cbrt_tangent, out, nonzero),
        unary!(recip, recip_grad, recip_tangent, out, |u| nonzero(u)
            .map(|v| v + 0.2_f64.copysign(v))),
        Rule {
            name: "hypot",
            arity: 2,
            primal: |x| rules::hypot(x[0], x[1]),
            tangent: |d, x, out| rules::hypot_tangent(d[0], d[1], x[0], x[1], out),
            pullback: |g, x, out| {
                [
                    rules::hypot_grad_lhs(g, x[0], out),
                    rules::hypot_grad_rhs(g, x[1], out),
                    T::zero(),
                ]
            },
            point: nonzero,
        },
        // ---- trigonometric ----
        unary!(sin, sin_grad, sin_tangent, x, any),
        unary!(cos, cos_grad, cos_tangent, x, any),
        unary!(tan, tan_grad, tan_tangent, out, |u| u.map(|u| 1.3 * u)),
        unary!(asin, asin_grad, asin_tangent, x, unit),
        unary!(acos, acos_grad, acos_tangent, x, unit),
        unary!(atan, atan_grad, atan_tangent, x, any),
        Rule {
            name: "atan2",
            arity: 2,
            primal: |x| rules::atan2(x[0], x[1]),
            tangent: |d, x, _| rules::atan2_tangent(d[0], d[1], x[0], x[1]),
            pullback: |g, x, _| {
                [
                    rules::atan2_grad_lhs(g, x[0], x[1]),
                    rules::atan2_grad_rhs(g, x[0], x[1]),
                    T::zero(),
                ]
            },
            // Clear of the origin and of the cut along the negative x axis.
            point: |u| [(0.3 + 2.0 * u[0].abs()).copysign(u[0]), 3.0 * u[1], 0.0],
        },
        // ---- hyperbolic ----
        unary!(sinh, sinh_grad, sinh_tangent, x, any),
        unary!(cosh, cosh_grad, cosh_tangent, x, any),
        unary!(tanh, tanh_grad, tanh_tangent, out, any),
        unary!(asinh, asinh_grad, asinh_tangent, x, any),
        unary!(acosh, acosh_grad, acosh_tangent, x, |u| [
            1.2 + 4.0 * u[0].abs(),
            0.0,
            0.0
        ]),
        unary!(atanh, atanh_grad, atanh_tangent, x, unit),
        // ---- piecewise ----
        unary!(abs, abs_grad, abs_tangent, x, nonzero),
        unary!(signum, signum_grad, signum_tangent, none, nonzero),
        unary!(floor, floor_grad, floor_tangent, none, between_jumps),
        unary!(ceil, ceil_grad, ceil_tangent, none, between_jumps),
        unary!(round, round_grad, round_tangent, none, between_jumps),
        unary!(trunc, trunc_grad, trunc_tangent, none, between_jumps),
        unary!(fract, fract_grad, fract_tangent, none, between_jumps),
        Rule {
            name: "clamp",
            arity: 3,
            primal: |x| rules::clamp(x[0], x[1], x[2]),
            tangent: |d, x, _| rules::clamp_tangent(d[0], d[1], d[2], x[0], x[1], x[2]),
            pullback: |g, x, _| {
                [
                    rules::clamp_grad_x(g, x[0], x[1], x[2]),
                    rules::clamp_grad_lo(g, x[0], x[1]),
                    rules::clamp_grad_hi(g, x[0], x[2]),
                ]
            },
            // x in every region, at least 0.1 from either bound.
            point: |u| {
                let (lo, hi) = (-1.0 + 0.2 * u[1], 1.0 + 0.2 * u[2]);
                let x = 3.0 * u[0];
                let x = if (x - lo).abs() < 0.1 || (x - hi).abs() < 0.1 {
                    x + 0.25
                } else {
                    x
                };
                [x, lo, hi]
            },
        },
        // ---- activations ----
        unary!(relu, relu_grad, relu_tangent, x, nonzero),
        unary!(sigmoid, sigmoid_grad, sigmoid_tangent, out, any),
    ]
}

fn close(a: f64, b: f64, abs: f64, rel: f64) -> bool {
    a == b || (a - b).abs() <= abs + rel * a.abs().max(b.abs())
}

/// Returns the number of rules checked.
fn check_scalar_tangents<T: Real + core::fmt::Debug + core::ops::AddAssign>(
    seed: u64,
    rel: f64,
) -> usize {
    let mut rng = Rng::new(seed);
    let eps = T::epsilon().to_f64();
    let rules = scalar_rules::<T>();
    for rule in &rules {
        for _ in 0..20 {
            let u = [0; 3].map(|_| rng.uniform(-1.0, 1.0));
            let x = (rule.point)(u).map(T::from_f64);
            let mut d = [0; 3].map(|_| T::from_f64(rng.signed(0.1, 1.0)));
            d[rule.arity..].fill(T::zero());
            let out = (rule.primal)(x);
            let tangent = (rule.tangent)(d, x, out);

            // Exactly the pullbacks at seeds ẋᵢ, summed in operand order.
            let mut terms = (0..rule.arity).map(|i| (rule.pullback)(d[i], x, out)[i]);
            let first = terms.next().expect("every rule has an operand");
            let sum = terms.fold(first, |sum, term| sum + term);
            assert_eq!(
                tangent.to_f64().to_bits(),
                sum.to_f64().to_bits(),
                "{}: tangent {tangent:?} ≠ pullbacks {sum:?} at {x:?}",
                rule.name
            );

            // The tangent along ẋ against a central difference.
            let h = central_difference_step(T::zero()).to_f64();
            let along = |s: T| {
                // d is 0 beyond the rule's operands.
                let mut p = x;
                for (p, d) in p.iter_mut().zip(d).take(rule.arity) {
                    *p += s * d;
                }
                (rule.primal)(p)
            };
            let fd = central_difference(along, T::zero());
            let size = out.to_f64().abs() / h + tangent.to_f64().abs();
            assert!(
                close(tangent.to_f64(), fd, 10.0 * eps * size, rel),
                "{} at {x:?} along {d:?}: tangent {tangent:?}, central difference {fd}",
                rule.name
            );

            // Each pullback at seed 1 against a central difference on its axis.
            let adjoints = (rule.pullback)(T::one(), x, out);
            for i in 0..rule.arity {
                let axis = |v: T| {
                    let mut p = x;
                    p[i] = v;
                    (rule.primal)(p)
                };
                let fd = central_difference(axis, x[i]);
                let a = adjoints[i].to_f64();
                let h = central_difference_step(x[i]).to_f64();
                let size = out.to_f64().abs() / h + a.abs();
                assert!(
                    close(a, fd, 10.0 * eps * size, rel),
                    "{} operand {i} at {x:?}: pullback {a}, central difference {fd}",
                    rule.name
                );
            }
        }
    }
    rules.len()
}

#[test]
fn every_scalar_tangent_is_its_pullbacks_and_matches_finite_differences_f64() {
    // The 18 seed rules and 27 new ones (sin_cos, with two outputs, below).
    assert_eq!(check_scalar_tangents::<f64>(0x7A6, 1e-6), 45);
}

#[test]
fn every_scalar_tangent_is_its_pullbacks_and_matches_finite_differences_f32() {
    assert_eq!(check_scalar_tangents::<f32>(0x7A7, 3e-3), 45);
}

fn check_sin_cos<T: Real + core::fmt::Debug>(rel: f64) {
    let mut rng = Rng::new(0x5C);
    for _ in 0..20 {
        let x = T::from_f64(rng.uniform(-4.0, 4.0));
        let dx = T::from_f64(rng.signed(0.1, 1.0));
        let (ds, dc) = rules::sin_cos_tangent(dx, x);
        // The pullback at seeds (ẋ, 0) and (0, ẋ).
        assert_eq!(ds.to_f64(), rules::sin_cos_grad(dx, T::zero(), x).to_f64());
        assert_eq!(dc.to_f64(), rules::sin_cos_grad(T::zero(), dx, x).to_f64());
        // The dot-product identity with cotangents (us, uc).
        let (us, uc) = (
            T::from_f64(rng.signed(0.5, 2.0)),
            T::from_f64(rng.signed(0.5, 2.0)),
        );
        let forward = (ds * us + dc * uc).to_f64();
        let reverse = (dx * rules::sin_cos_grad(us, uc, x)).to_f64();
        assert!(close(forward, reverse, 8.0 * T::epsilon().to_f64(), rel));
        // Both outputs' tangents against central differences.
        let fd_s = central_difference(|s: T| rules::sin_cos(x + s * dx).0, T::zero());
        let fd_c = central_difference(|s: T| rules::sin_cos(x + s * dx).1, T::zero());
        let abs = 1e3 * T::epsilon().to_f64();
        assert!(close(ds.to_f64(), fd_s, abs, rel), "sin tangent at {x:?}");
        assert!(close(dc.to_f64(), fd_c, abs, rel), "cos tangent at {x:?}");
    }
}

#[test]
fn sin_cos_tangent_is_its_pullback_and_satisfies_the_dot_product_identity() {
    check_sin_cos::<f64>(1e-6);
    check_sin_cos::<f32>(3e-3);
}

// ---- matrix tangents: the dot-product identity ⟨J·v, u⟩ = ⟨v, Jᵀ·u⟩ ----

fn assert_identity(name: &str, forward: f64, reverse: f64) {
    assert!(
        close(forward, reverse, 1e-12, 1e-12),
        "{name}: ⟨J·v, u⟩ = {forward}, ⟨v, Jᵀ·u⟩ = {reverse}"
    );
}

#[test]
fn matmul_tangent_satisfies_the_dot_product_identity_and_finite_differences() {
    let mut rng = Rng::new(0x3A7);
    for (r, k, c) in [
        (2, 3, 4),
        (1, 5, 1),
        (4, 1, 3),
        (3, 3, 3),
        (2, 0, 3),
        (0, 2, 2),
    ] {
        let (a, b) = (
            rng.signed_matrix(r, k, 0.1, 2.0),
            rng.signed_matrix(k, c, 0.1, 2.0),
        );
        let (da, db) = (
            rng.signed_matrix(r, k, 0.1, 1.0),
            rng.signed_matrix(k, c, 0.1, 1.0),
        );
        let u = rng.signed_matrix(r, c, 0.5, 2.0);
        let tangent = linalg::matmul_tangent(&da, &db, &a, &b);
        assert_eq!(tangent.shape(), (r, c));
        let forward = dot(&tangent, &u);
        let reverse =
            dot(&da, &linalg::matmul_grad_lhs(&u, &b)) + dot(&db, &linalg::matmul_grad_rhs(&u, &a));
        assert_identity(&format!("matmul {r}×{k}·{k}×{c}"), forward, reverse);
        // Ȧ·B + A·Ḃ as nalgebra computes it.
        let direct = &da * &b + &a * &db;
        for (x, y) in tangent.iter().zip(direct.iter()) {
            assert!(close(*x, *y, 1e-13, 1e-13), "matmul tangent {x} vs {y}");
        }
        // Along the direction (Ȧ, Ḃ), by a central difference.
        let h = 1e-6;
        let plus = linalg::matmul(&(&a + &da * h), &(&b + &db * h));
        let minus = linalg::matmul(&(&a - &da * h), &(&b - &db * h));
        let fd = (dot(&plus, &u) - dot(&minus, &u)) / (2.0 * h);
        assert!(close(forward, fd, 1e-8, 1e-8), "matmul: {forward} vs {fd}");
    }
}

#[test]
fn matmul_tangent_into_reads_vectors_where_they_lie_and_overwrites() {
    let mut rng = Rng::new(0x3A8);
    let (a, da) = (
        rng.signed_matrix(3, 4, 0.1, 2.0),
        rng.signed_matrix(3, 4, 0.1, 1.0),
    );
    let x = DVector::from_fn(4, |i, _| 0.5 - i as f64);
    let dx = DVector::from_fn(4, |i, _| 0.25 * i as f64 - 0.3);
    let mut out = DVector::from_element(3, 99.0); // overwritten, not read
    linalg::matmul_tangent_into(&mut out, &da, &dx, &a, &x);
    let direct = &da * &x + &a * &dx;
    for (got, want) in out.iter().zip(direct.iter()) {
        assert!(close(*got, *want, 1e-13, 1e-13));
    }
    // xᵀ·A: a row vector times a matrix.
    let (r, dr) = (
        RowDVector::from_fn(3, |_, j| 1.0 + j as f64),
        RowDVector::from_fn(3, |_, j| 0.5 - j as f64),
    );
    let mut out = RowDVector::zeros(4);
    linalg::matmul_tangent_into(&mut out, &dr, &da, &r, &a);
    let direct = &dr * &a + &r * &da;
    for (got, want) in out.iter().zip(direct.iter()) {
        assert!(close(*got, *want, 1e-13, 1e-13));
    }
}

#[test]
#[should_panic(expected = "a tangent's shape differs")]
fn matmul_tangent_of_the_wrong_shape_panics() {
    let a = M::zeros(2, 3);
    linalg::matmul_tangent(&M::zeros(3, 2), &M::zeros(3, 2), &a, &M::zeros(3, 2));
}

#[test]
fn transpose_reshape_sum_and_max_tangents_satisfy_the_dot_product_identity() {
    let mut rng = Rng::new(0x7E5);
    let v = rng.signed_matrix(2, 6, 0.1, 1.0);

    let u = rng.signed_matrix(6, 2, 0.5, 2.0);
    assert_identity(
        "transpose",
        dot(&shape::transpose_tangent(&v), &u),
        dot(&v, &shape::transpose_grad(&u)),
    );

    let u = rng.signed_matrix(3, 4, 0.5, 2.0);
    assert_identity(
        "reshape",
        dot(&shape::reshape_tangent(&v, 3, 4), &u),
        dot(&v, &shape::reshape_grad(&u, 2, 6)),
    );

    let u = 1.7;
    assert_identity(
        "sum",
        reductions::sum_tangent(&v) * u,
        dot(&v, &reductions::sum_grad(u, 2, 6)),
    );
    assert_eq!(reductions::sum_tangent(&v), v.sum());

    // max with a tie: the first winner's tangent, as its pullback routes.
    let x = M::from_row_slice(2, 3, &[1.0, 5.0, 3.0, 5.0, -2.0, 0.0]);
    let (_, index) = reductions::max(&x);
    let v = rng.signed_matrix(2, 3, 0.1, 1.0);
    assert_eq!(reductions::max_tangent(&v, index), v[index]);
    assert_identity(
        "max",
        reductions::max_tangent(&v, index) * u,
        dot(&v, &reductions::max_grad(u, 2, 3, index)),
    );
    // A vector's max, and the empty matrix's: no element, tangent 0.
    let w = DVector::from_vec(vec![0.5, -1.0, 4.0]);
    assert_eq!(reductions::max_tangent(&w, reductions::max(&w).1), 4.0);
    let empty = M::zeros(0, 3);
    let (_, index) = reductions::max(&empty);
    assert_eq!(reductions::max_tangent(&empty, index), 0.0);
}

/// What a lifted rule reads.
#[derive(Clone, Copy)]
enum Reads {
    X,
    Out,
    Nothing,
}

macro_rules! lifted {
    ($name:ident, $grad:ident, $tangent:ident, $reads:ident, $lo:expr, $hi:expr) => {
        (
            stringify!($name),
            ew::$name as fn(&M) -> M,
            (|d: &M, x: &M, out: &M| lifted!(@call ew::$tangent, d, x, out, $reads))
                as fn(&M, &M, &M) -> M,
            (|g: &M, x: &M, out: &M| lifted!(@call ew::$grad, g, x, out, $reads))
                as fn(&M, &M, &M) -> M,
            (|d: f64, x: f64, out: f64| lifted!(@call rules::$tangent, d, x, out, $reads))
                as fn(f64, f64, f64) -> f64,
            Reads::$reads,
            $lo,
            $hi,
        )
    };
    (@call $f:path, $g:expr, $x:expr, $out:expr, X) => {{
        let _ = $out;
        $f($g, $x)
    }};
    (@call $f:path, $g:expr, $x:expr, $out:expr, Out) => {{
        let _ = $x;
        $f($g, $out)
    }};
    (@call $f:path, $g:expr, $x:expr, $out:expr, Nothing) => {{
        let _ = ($x, $out);
        $f($g)
    }};
}

type Lifted = (
    &'static str,
    fn(&M) -> M,
    fn(&M, &M, &M) -> M,
    fn(&M, &M, &M) -> M,
    fn(f64, f64, f64) -> f64,
    Reads,
    f64,
    f64,
);

#[test]
fn every_lifted_tangent_is_the_scalar_tangent_per_element_and_transposes_its_pullback() {
    let table: Vec<Lifted> = vec![
        lifted!(neg, neg_grad, neg_tangent, Nothing, -3.0, 3.0),
        lifted!(exp, exp_grad, exp_tangent, Out, -3.0, 3.0),
        lifted!(exp2, exp2_grad, exp2_tangent, Out, -3.0, 3.0),
        lifted!(exp_m1, exp_m1_grad, exp_m1_tangent, Out, -3.0, 3.0),
        lifted!(ln, ln_grad, ln_tangent, X, 0.2, 4.0),
        lifted!(ln_1p, ln_1p_grad, ln_1p_tangent, X, -0.8, 4.0),
        lifted!(log2, log2_grad, log2_tangent, X, 0.2, 4.0),
        lifted!(log10, log10_grad, log10_tangent, X, 0.2, 4.0),
        lifted!(sqrt, sqrt_grad, sqrt_tangent, Out, 0.2, 4.0),
        lifted!(cbrt, cbrt_grad, cbrt_tangent, Out, 0.2, 4.0),
        lifted!(recip, recip_grad, recip_tangent, Out, 0.2, 4.0),
        lifted!(sin, sin_grad, sin_tangent, X, -3.0, 3.0),
        lifted!(cos, cos_grad, cos_tangent, X, -3.0, 3.0),
        lifted!(tan, tan_grad, tan_tangent, Out, -1.3, 1.3),
        lifted!(asin, asin_grad, asin_tangent, X, -0.9, 0.9),
        lifted!(acos, acos_grad, acos_tangent, X, -0.9, 0.9),
        lifted!(atan, atan_grad, atan_tangent, X, -3.0, 3.0),
        lifted!(sinh, sinh_grad, sinh_tangent, X, -3.0, 3.0),
        lifted!(cosh, cosh_grad, cosh_tangent, X, -3.0, 3.0),
        lifted!(tanh, tanh_grad, tanh_tangent, Out, -3.0, 3.0),
        lifted!(asinh, asinh_grad, asinh_tangent, X, -3.0, 3.0),
        lifted!(acosh, acosh_grad, acosh_tangent, X, 1.2, 4.0),
        lifted!(atanh, atanh_grad, atanh_tangent, X, -0.9, 0.9),
        lifted!(abs, abs_grad, abs_tangent, X, 0.1, 3.0),
        lifted!(signum, signum_grad, signum_tangent, Nothing, 0.1, 3.0),
        lifted!(floor, floor_grad, floor_tangent, Nothing, 0.1, 0.4),
        lifted!(ceil, ceil_grad, ceil_tangent, Nothing, 0.1, 0.4),
        lifted!(round, round_grad, round_tangent, Nothing, 0.1, 0.4),
        lifted!(trunc, trunc_grad, trunc_tangent, Nothing, 0.1, 0.4),
        lifted!(fract, fract_grad, fract_tangent, Nothing, 0.1, 0.4),
        lifted!(relu, relu_grad, relu_tangent, X, 0.1, 3.0),
        lifted!(sigmoid, sigmoid_grad, sigmoid_tangent, Out, -3.0, 3.0),
    ];
    assert_eq!(table.len(), 32);
    let mut rng = Rng::new(0x11F7);
    for (name, primal, tangent, pullback, scalar, reads, lo, hi) in table {
        let x = rng.matrix(3, 2, lo, hi);
        let out = primal(&x);
        let v = rng.signed_matrix(3, 2, 0.1, 1.0);
        let u = rng.signed_matrix(3, 2, 0.5, 2.0);
        let jv = tangent(&v, &x, &out);
        for i in 0..x.len() {
            assert_eq!(jv[i], scalar(v[i], x[i], out[i]), "{name} element {i}");
        }
        assert_identity(name, dot(&jv, &u), dot(&v, &pullback(&u, &x, &out)));
        // A rule that reads nothing does not depend on x at all.
        if let Reads::Nothing = reads {
            assert_eq!(jv, tangent(&v, &M::zeros(3, 2), &M::zeros(3, 2)), "{name}");
        }
    }
}

#[test]
fn lifted_binary_tangents_transpose_their_pullbacks() {
    let mut rng = Rng::new(0xB1);
    let a = rng.matrix(2, 3, 0.3, 3.0);
    let b = rng.signed_matrix(2, 3, 0.5, 2.0);
    let (va, vb) = (
        rng.signed_matrix(2, 3, 0.1, 1.0),
        rng.signed_matrix(2, 3, 0.1, 1.0),
    );
    let u = rng.signed_matrix(2, 3, 0.5, 2.0);
    let pairs = |lhs: M, rhs: M| dot(&va, &lhs) + dot(&vb, &rhs);

    assert_identity(
        "add",
        dot(&ew::add_tangent(&va, &vb), &u),
        pairs(ew::add_grad_lhs(&u), ew::add_grad_rhs(&u)),
    );
    assert_identity(
        "sub",
        dot(&ew::sub_tangent(&va, &vb), &u),
        pairs(ew::sub_grad_lhs(&u), ew::sub_grad_rhs(&u)),
    );
    assert_identity(
        "mul",
        dot(&ew::mul_tangent(&va, &vb, &a, &b), &u),
        pairs(ew::mul_grad_lhs(&u, &b), ew::mul_grad_rhs(&u, &a)),
    );
    let out = ew::div(&a, &b);
    assert_identity(
        "div",
        dot(&ew::div_tangent(&va, &vb, &b, &out), &u),
        pairs(ew::div_grad_lhs(&u, &b), ew::div_grad_rhs(&u, &b, &out)),
    );
    let out = ew::pow(&a, &b);
    assert_identity(
        "pow",
        dot(&ew::pow_tangent(&va, &vb, &a, &b, &out), &u),
        pairs(ew::pow_grad_lhs(&u, &a, &b), ew::pow_grad_rhs(&u, &a, &out)),
    );
    // Per element, the scalar tangent.
    let t = ew::pow_tangent(&va, &vb, &a, &b, &out);
    for i in 0..t.len() {
        assert_eq!(t[i], rules::pow_tangent(va[i], vb[i], a[i], b[i], out[i]));
    }
}

#[test]
#[should_panic(expected = "element-wise operands of different shapes")]
fn lifted_binary_tangent_of_mismatched_shapes_panics() {
    let a = M::zeros(2, 2);
    ew::mul_tangent(&a, &a, &a, &M::zeros(2, 3));
}

/// The product's `_into`/`_acc` forms take `f64` matrices whose element
/// type nothing else names (`DMatrix::zeros(..)` straight into the call),
/// and their `any_scalar` twins run at `Dual<f64>`: real parts the `f64`
/// product, dual parts its tangent `Ȧ·B + A·Ḃ`.
#[test]
fn matmul_into_forms_infer_f64_and_any_scalar_runs_at_dual() {
    use autograd_runtime::Dual;
    let a = DMatrix::from_row_slice(2, 3, &[1.0, -2.0, 0.5, 3.0, 0.25, -1.0]);
    let b = DMatrix::from_row_slice(3, 2, &[2.0, 1.0, -1.0, 0.5, 4.0, -3.0]);
    let ab = &a * &b;
    // No argument names its element type.
    let mut out = DMatrix::zeros(2, 2);
    linalg::matmul_into(&mut out, &a, &b);
    assert_eq!(out, ab);
    let mut out = DMatrix::zeros(2, 2);
    linalg::matmul_into(&mut out, &DMatrix::zeros(2, 3), &DMatrix::zeros(3, 2));
    assert_eq!(out, M::zeros(2, 2));
    let mut out = DMatrix::zeros(2, 3);
    linalg::matmul_grad_lhs_into(&mut out, &DMatrix::zeros(2, 2), &DMatrix::zeros(3, 2));
    assert_eq!(out, M::zeros(2, 3));
    let mut out = DMatrix::zeros(3, 2);
    linalg::matmul_grad_rhs_into(&mut out, &DMatrix::zeros(2, 2), &DMatrix::zeros(2, 3));
    assert_eq!(out, M::zeros(3, 2));
    let mut acc = DMatrix::zeros(2, 3);
    linalg::matmul_grad_lhs_acc(&mut acc, &DMatrix::zeros(2, 2), &DMatrix::zeros(3, 2));
    let mut acc2 = DMatrix::zeros(3, 2);
    linalg::matmul_grad_rhs_acc(&mut acc2, &DMatrix::zeros(2, 2), &DMatrix::zeros(2, 3));
    let mut out = DMatrix::zeros(2, 2);
    linalg::matmul_tangent_into(
        &mut out,
        &DMatrix::zeros(2, 3),
        &DMatrix::zeros(3, 2),
        &DMatrix::zeros(2, 3),
        &DMatrix::zeros(3, 2),
    );
    assert_eq!(
        (acc, acc2, out),
        (M::zeros(2, 3), M::zeros(3, 2), M::zeros(2, 2))
    );

    // At Dual<f64>: A + εȦ times B + εḂ.
    let da = DMatrix::from_fn(2, 3, |i, j| 0.5 * i as f64 - 0.25 * j as f64);
    let db = DMatrix::from_fn(3, 2, |i, j| 1.0 - 0.5 * (i + j) as f64);
    let dual = |m: &M, dm: &M| m.zip_map(dm, Dual::new);
    let mut out = DMatrix::from_element(2, 2, Dual::constant(0.0));
    linalg::any_scalar::matmul_into(&mut out, &dual(&a, &da), &dual(&b, &db));
    let tangent = &da * &b + &a * &db;
    for ((got, want), dwant) in out.iter().zip(ab.iter()).zip(tangent.iter()) {
        assert!(close(got.re, *want, 1e-14, 1e-14));
        assert!(close(got.eps, *dwant, 1e-14, 1e-14));
    }
}
