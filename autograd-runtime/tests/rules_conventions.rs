//! The convention of every new rule at the points where its function has
//! no derivative — bounds, kinks, poles, jumps and domain edges — each as
//! stated in the rule's doc comment, for `f32` and `f64`.

use autograd_runtime::rules::{self, Real};

fn t<T: Real + core::fmt::Debug>(x: f64) -> T {
    T::from_f64(x)
}

fn inf<T: Real + core::fmt::Debug>() -> T {
    t(f64::INFINITY)
}

/// Bitwise equality of two floats, treating every NaN as equal.
fn same<T: Real + core::fmt::Debug>(a: T, b: T) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_f64().to_bits() == b.to_f64().to_bits()
}

macro_rules! assert_same {
    ($got:expr, $want:expr, $($what:tt)*) => {{
        let (got, want) = ($got, $want);
        assert!(same(got, want), "{}: got {:?}, want {:?}", format!($($what)*), got, want);
    }};
}

fn clamp_gives_the_adjoint_to_the_operand_it_returns<T: Real + core::fmt::Debug>() {
    let g = t::<T>(1.5);
    let zero = T::zero();
    // (x, lo, hi) → which operand the value comes from: 0 x, 1 lo, 2 hi.
    let cases: [(f64, f64, f64, usize); 9] = [
        (-1.0, -1.0, 2.0, 0), // at lo: a tie, to x
        (2.0, -1.0, 2.0, 0),  // at hi: a tie, to x
        (3.0, 3.0, 3.0, 0),   // lo = hi = x
        (0.5, -1.0, 2.0, 0),
        (-1.001, -1.0, 2.0, 1),
        (2.001, -1.0, 2.0, 2),
        (f64::NEG_INFINITY, -1.0, 2.0, 1),
        (f64::INFINITY, -1.0, 2.0, 2),
        (f64::NAN, -1.0, 2.0, 0), // NaN is returned as is: from x
    ];
    for (x, lo, hi, from) in cases {
        let (x, lo, hi) = (t::<T>(x), t::<T>(lo), t::<T>(hi));
        let value = rules::clamp(x, lo, hi);
        assert_same!(value, [x, lo, hi][from], "clamp({x:?}, {lo:?}, {hi:?})");
        let grads = [
            rules::clamp_grad_x(g, x, lo, hi),
            rules::clamp_grad_lo(g, x, lo),
            rules::clamp_grad_hi(g, x, hi),
        ];
        for (k, grad) in grads.into_iter().enumerate() {
            let want = if k == from { g } else { zero };
            assert_same!(grad, want, "clamp({x:?}, {lo:?}, {hi:?}) partial {k}");
        }
        assert_eq!(rules::clamp_takes_x(x, lo, hi), from == 0);
        // The tangent is the tangent of that operand.
        let (dx, dlo, dhi) = (t::<T>(0.25), t::<T>(-4.0), t::<T>(8.0));
        assert_same!(
            rules::clamp_tangent(dx, dlo, dhi, x, lo, hi),
            [dx, dlo, dhi][from],
            "clamp_tangent at {x:?}"
        );
    }
}

#[test]
fn clamp_gives_the_adjoint_to_x_at_its_bounds_and_to_the_active_bound_outside() {
    clamp_gives_the_adjoint_to_the_operand_it_returns::<f64>();
    clamp_gives_the_adjoint_to_the_operand_it_returns::<f32>();
}

#[test]
fn clamp_is_min_of_max_with_the_first_argument_winning_ties() {
    // clamp(x, lo, hi) = min(max(x, lo), hi): chaining the max/min rules,
    // whose ties go to the first argument, gives clamp's partials.
    let (lo, hi, g) = (-1.0_f64, 2.0_f64, 0.75_f64);
    for x in [
        -3.0,
        -1.0,
        -0.5,
        0.0,
        2.0,
        2.5,
        f64::NEG_INFINITY,
        f64::INFINITY,
    ] {
        let m = x.max(lo);
        let dm = rules::min_grad_lhs(g, m, hi);
        let chained = [
            rules::max_grad_lhs(dm, x, lo),
            rules::max_grad_rhs(dm, x, lo),
            rules::min_grad_rhs(g, m, hi),
        ];
        let direct = [
            rules::clamp_grad_x(g, x, lo, hi),
            rules::clamp_grad_lo(g, x, lo),
            rules::clamp_grad_hi(g, x, hi),
        ];
        assert_eq!(direct, chained, "at x = {x}");
    }
}

#[test]
#[should_panic(expected = "min > max")]
fn clamp_with_crossed_bounds_panics_like_the_standard_method() {
    rules::clamp(0.0_f64, 1.0, -1.0);
}

fn cone_tips_and_the_origin_give_zero<T: Real + core::fmt::Debug>() {
    let g = t::<T>(2.0);
    for (x, y) in [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0)] {
        let (x, y) = (t::<T>(x), t::<T>(y));
        let out = rules::hypot(x, y);
        assert_same!(
            rules::hypot_grad_lhs(g, x, out),
            T::zero(),
            "hypot ∂x at ({x:?}, {y:?})"
        );
        assert_same!(
            rules::hypot_grad_rhs(g, y, out),
            T::zero(),
            "hypot ∂y at ({x:?}, {y:?})"
        );
        assert_same!(
            rules::atan2_grad_lhs(g, y, x),
            T::zero(),
            "atan2 ∂y at ({y:?}, {x:?})"
        );
        // −0·g is −0: the sign of a zero adjoint carries no information.
        assert_eq!(rules::atan2_grad_rhs(g, y, x).to_f64(), 0.0, "atan2 ∂x");
    }
    // hypot on an axis: the sign of the coordinate that is not zero.
    let out = rules::hypot(T::zero(), t(-3.0));
    assert_same!(
        rules::hypot_grad_lhs(g, T::zero(), out),
        T::zero(),
        "hypot on the y axis"
    );
    assert_same!(
        rules::hypot_grad_rhs(g, t(-3.0), out),
        -g,
        "hypot on the y axis"
    );
    // hypot at an infinite operand: ∞/∞ for it, 0 for the other.
    let out = rules::hypot(inf::<T>(), t(1.0));
    assert!(rules::hypot_grad_lhs(g, inf(), out).is_nan());
    assert_same!(
        rules::hypot_grad_rhs(g, t(1.0), out),
        T::zero(),
        "hypot beside ∞"
    );
    // atan2 far away: the limit 0, unless an operand is NaN.
    for (y, x) in [
        (f64::INFINITY, 1.0),
        (1.0, f64::NEG_INFINITY),
        (f64::INFINITY, f64::INFINITY),
    ] {
        let (y, x) = (t::<T>(y), t::<T>(x));
        assert_eq!(rules::atan2_grad_lhs(g, y, x).to_f64(), 0.0);
        assert_eq!(rules::atan2_grad_rhs(g, y, x).to_f64(), 0.0);
    }
    let nan = t::<T>(f64::NAN);
    assert!(rules::atan2_grad_lhs(g, nan, inf()).is_nan());
    assert!(rules::atan2_grad_rhs(g, inf(), nan).is_nan());
}

#[test]
fn hypot_and_atan2_give_zero_at_the_origin() {
    cone_tips_and_the_origin_give_zero::<f64>();
    cone_tips_and_the_origin_give_zero::<f32>();
}

fn domain_edges_give_the_formulas_infinity<T: Real + core::fmt::Debug>() {
    let (one, neg) = (T::one(), t::<T>(-1.0));
    for edge in [1.0, -1.0] {
        let x = t::<T>(edge);
        // asin and acos: ±∞ by the adjoint's sign, NaN for a zero adjoint.
        assert_same!(rules::asin_grad(one, x), inf(), "asin' at {edge}");
        assert_same!(rules::asin_grad(neg, x), -inf::<T>(), "asin' at {edge}");
        assert_same!(rules::acos_grad(one, x), -inf::<T>(), "acos' at {edge}");
        assert!(rules::asin_grad(T::zero(), x).is_nan(), "0·∞ at {edge}");
        // atanh: the pole, +∞ from both sides.
        assert_same!(rules::atanh_grad(one, x), inf(), "atanh' at {edge}");
    }
    for outside in [1.5, -1.5] {
        let x = t::<T>(outside);
        assert!(rules::asin(x).is_nan() && rules::asin_grad(one, x).is_nan());
        assert!(rules::acos(x).is_nan() && rules::acos_grad(one, x).is_nan());
        // atanh beyond ±1: the value is NaN, the adjoint the slope of the
        // real part, 1/(1 − x²) = −0.8.
        assert!(rules::atanh(x).is_nan());
        assert_eq!(rules::atanh_grad(one, x).to_f64(), t::<T>(-0.8).to_f64());
    }
    // acosh at 1: +∞; below: NaN, as the value.
    assert_same!(rules::acosh_grad(one, one), inf(), "acosh' at 1");
    assert!(rules::acosh_grad(one, t(0.5)).is_nan());
    // ln_1p at −1: the pole; below −1, 1/(1 + x) like ln's 1/x below 0.
    assert_same!(rules::ln_1p_grad(one, neg), inf(), "ln_1p' at −1");
    assert_eq!(rules::ln_1p_grad(one, t(-3.0)).to_f64(), -0.5);
    // cbrt at ±0: +∞ from both sides.
    for zero in [0.0, -0.0] {
        let out = rules::cbrt(t::<T>(zero));
        assert_same!(rules::cbrt_grad(one, out), inf(), "cbrt' at {zero}");
        // recip at ±0: −∞ from both sides.
        let out = rules::recip(t::<T>(zero));
        assert_same!(rules::recip_grad(one, out), -inf::<T>(), "recip' at {zero}");
        assert_same!(
            rules::recip_grad(neg, out),
            inf(),
            "recip' at {zero}, seed −1"
        );
    }
    // log2 and log10 at 0: the pole.
    assert_same!(rules::log2_grad(one, T::zero()), inf(), "log2' at 0");
    assert_same!(rules::log10_grad(one, T::zero()), inf(), "log10' at 0");
}

#[test]
fn domain_edges_give_the_ieee_value_of_the_formula() {
    domain_edges_give_the_formulas_infinity::<f64>();
    domain_edges_give_the_formulas_infinity::<f32>();
}

fn log_bases_without_a_derivative<T: Real + core::fmt::Debug>() {
    let one = T::one();
    // Base 1: the value is ±∞ (NaN at x = 1); ∂x is grad/(x·(+0)), +∞
    // for x > 0 (the one-sided limits differ in sign), ∂base the two-sided
    // limit ∓∞, NaN at x = 1.
    for (x, dx, dbase) in [
        (2.0, f64::INFINITY, f64::NEG_INFINITY),
        (0.5, f64::INFINITY, f64::INFINITY),
    ] {
        let x = t::<T>(x);
        let out = rules::log(x, one);
        assert!(out.is_infinite());
        assert_same!(rules::log_grad_lhs(one, x, one), t(dx), "log ∂x, base 1");
        assert_same!(
            rules::log_grad_rhs(one, one, out),
            t(dbase),
            "log ∂base, base 1"
        );
    }
    let out = rules::log(one, one);
    assert!(out.is_nan() && rules::log_grad_rhs(one, one, out).is_nan());
    // Base 0: ln 0 = −∞, so ∂x is 0 and ∂base NaN.
    let (x, zero) = (t::<T>(3.0), T::zero());
    let out = rules::log(x, zero);
    assert_eq!(rules::log_grad_lhs(one, x, zero).to_f64(), 0.0);
    assert!(rules::log_grad_rhs(one, zero, out).is_nan());
    // A negative base: NaN everywhere, value included.
    let base = t::<T>(-2.0);
    let out = rules::log(x, base);
    assert!(out.is_nan());
    assert!(rules::log_grad_lhs(one, x, base).is_nan());
    assert!(rules::log_grad_rhs(one, base, out).is_nan());
}

#[test]
fn log_with_base_one_zero_or_negative_gives_the_formulas_value() {
    log_bases_without_a_derivative::<f64>();
    log_bases_without_a_derivative::<f32>();
}

fn piecewise_constant_rules_give_zero<T: Real + core::fmt::Debug>() {
    type Rule<T> = (&'static str, fn(T) -> T, fn(T) -> T, fn(T) -> T);
    let table: [Rule<T>; 5] = [
        (
            "signum",
            rules::signum,
            rules::signum_grad,
            rules::signum_tangent,
        ),
        (
            "floor",
            rules::floor,
            rules::floor_grad,
            rules::floor_tangent,
        ),
        ("ceil", rules::ceil, rules::ceil_grad, rules::ceil_tangent),
        (
            "round",
            rules::round,
            rules::round_grad,
            rules::round_tangent,
        ),
        (
            "trunc",
            rules::trunc,
            rules::trunc_grad,
            rules::trunc_tangent,
        ),
    ];
    // The jumps (0 for signum, the integers, the halves for round), ±∞
    // and NaN, with finite, infinite and NaN adjoints.
    let points = [
        0.0,
        -0.0,
        1.0,
        -2.0,
        2.5,
        -0.5,
        1e30,
        f64::INFINITY,
        f64::NAN,
    ];
    for (name, f, grad, tangent) in table {
        for x in points {
            let x = t::<T>(x);
            // The value carries a NaN operand forward.
            assert_eq!(f(x).is_nan(), x.is_nan(), "{name}({x:?})");
            for g in [1.0, -3.0, f64::INFINITY, f64::NAN] {
                let g = t::<T>(g);
                assert_same!(grad(g), T::zero(), "{name}' at {x:?}, seed {g:?}");
                assert_same!(tangent(g), T::zero(), "{name} tangent, seed {g:?}");
            }
        }
    }
    // fract = x − trunc x: slope 1, at the jumps too.
    for g in [1.0, -3.0, 0.0] {
        let g = t::<T>(g);
        assert_same!(rules::fract_grad(g), g, "fract' seed {g:?}");
        assert_same!(rules::fract_tangent(g), g, "fract tangent {g:?}");
    }
    assert_eq!(rules::fract(t::<T>(-2.75)).to_f64(), -0.75);
}

#[test]
fn signum_floor_ceil_round_trunc_give_zero_and_fract_one() {
    piecewise_constant_rules_give_zero::<f64>();
    piecewise_constant_rules_give_zero::<f32>();
}

#[test]
fn mul_add_differentiates_the_exact_product() {
    // (1 + ε)(1 − ε) − 1 = −ε²: fused, the value is −ε², unfused 0. The
    // partials are those of a·b + c all the same.
    let e = f64::EPSILON;
    let (a, b, c) = (1.0 + e, 1.0 - e, -1.0);
    assert_eq!(rules::mul_add(a, b, c), -e * e);
    assert_eq!(a * b + c, 0.0);
    assert_eq!(rules::mul_add_grad_a(2.0, b), 2.0 * b);
    assert_eq!(rules::mul_add_grad_b(2.0, a), 2.0 * a);
    assert_eq!(rules::mul_add_grad_c(2.0), 2.0);
}

#[test]
fn sin_cos_pullback_is_the_sum_of_sin_and_cos_pullbacks() {
    for x in [-2.0_f64, 0.0, 0.3, 4.0] {
        assert_eq!(rules::sin_cos_grad(1.5, 0.0, x), rules::sin_grad(1.5, x));
        assert_eq!(rules::sin_cos_grad(0.0, 1.5, x), rules::cos_grad(1.5, x));
        assert_eq!(
            rules::sin_cos_tangent(1.5, x),
            (rules::sin_grad(1.5, x), rules::cos_grad(1.5, x))
        );
    }
}

/// The kink convention (ISSUE35, "Kinks: take one side"): at ±0 `abs`
/// takes the slope of the piece the zero's sign picks, `copysign(1, x)`,
/// in its pullback and its tangent; `relu` the constant piece's 0 at both
/// zeros; NaN gives 0 (no piece).
fn kinks_take_the_slope_of_one_adjacent_piece<T: Real + core::fmt::Debug>() {
    let g = t::<T>(2.5);
    for (x, slope) in [(0.0, 1.0), (-0.0, -1.0), (1e-30, 1.0), (-1e-30, -1.0)] {
        let (x, slope) = (t::<T>(x), t::<T>(slope));
        assert_same!(rules::abs_grad(g, x), slope * g, "abs' at {x:?}");
        assert_same!(rules::abs_tangent(g, x), slope * g, "abs tangent at {x:?}");
    }
    let nan = t::<T>(f64::NAN);
    assert_same!(rules::abs_grad(g, nan), T::zero(), "abs' at NaN");
    assert_same!(rules::abs_grad(g, -nan), T::zero(), "abs' at −NaN");
    for x in [0.0, -0.0] {
        let x = t::<T>(x);
        assert_same!(rules::relu_grad(g, x), T::zero(), "relu' at {x:?}");
        assert_same!(
            rules::relu_tangent(g, x),
            T::zero(),
            "relu tangent at {x:?}"
        );
    }
}

#[test]
fn abs_takes_the_side_of_the_zeros_sign_and_relu_the_constant_piece() {
    kinks_take_the_slope_of_one_adjacent_piece::<f64>();
    kinks_take_the_slope_of_one_adjacent_piece::<f32>();
}

/// Second order: the reverse rules run at dual numbers (forward over
/// reverse, as `NAME_hessian` does), so the tangent of the gradient is the
/// second derivative, and at ±0 it is the chosen piece's, exactly.
#[test]
fn second_order_through_a_kink_is_the_chosen_pieces() {
    use autograd_runtime::Dual;
    for z in [0.0_f64, -0.0] {
        let x = Dual::new(z, 1.0);
        let one = Dual::constant(1.0);
        // |x|², smooth through the kink: f' = 2x = 0, f'' = 2 on both sides.
        let a = rules::abs(x);
        let d = rules::abs_grad(rules::powi_grad(one, a, 2), x);
        assert_eq!((d.re, d.eps), (0.0, 2.0), "|x|² at {z:?}");
        // |−x·x| = x²: at +0, −x·x is −0, the left piece −(−x²): f'' = 2.
        let p = -x * x;
        let d = rules::abs_grad(one, p);
        let (dl, dr) = (rules::mul_grad_lhs(d, x), rules::mul_grad_rhs(d, -x));
        let d = rules::neg_grad(dl) + dr;
        assert_eq!((d.re, d.eps), (0.0, 2.0), "|−x²| at {z:?}");
        // |x|·x: x² on the right, −x² on the left: f'' = 2·copysign(1, x).
        let (da, dx) = (rules::mul_grad_lhs(one, x), rules::mul_grad_rhs(one, a));
        let d = rules::abs_grad(da, x) + dx;
        assert_eq!((d.re, d.eps), (0.0, 2.0_f64.copysign(z)), "|x|·x at {z:?}");
        // max(x, x), min(x, x): the first operand's piece, x: 1 and 0.
        for (lhs, rhs) in [
            (
                rules::max_grad_lhs(one, x, x),
                rules::max_grad_rhs(one, x, x),
            ),
            (
                rules::min_grad_lhs(one, x, x),
                rules::min_grad_rhs(one, x, x),
            ),
        ] {
            let d = lhs + rhs;
            assert_eq!((d.re, d.eps), (1.0, 0.0), "max/min(x, x) at {z:?}");
        }
    }
}
