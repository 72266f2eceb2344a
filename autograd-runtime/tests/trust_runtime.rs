//! Regression tests for calls that used to crash or give a silently wrong
//! number (the "Trust" issue):
//!
//! - shape products computed with wrapping arithmetic (a `2³³ × 0` times
//!   `0 × 2³³` product was a `2³³ × 2³³` matrix with empty storage, and the
//!   next op segfaulted) or allocations that aborted the process;
//! - `powi` at `i32::MIN` (overflow in `n − 1`), `powf` at exponent 0 (NaN
//!   at base 0), and every special case of the power rules, against closed
//!   forms and central differences.

use std::panic::{AssertUnwindSafe, catch_unwind};

use autograd_runtime::graph::{Graph, GraphError};
use autograd_runtime::rules::{self, elementwise, generic, linalg, reductions, shape};
use autograd_runtime::{MAX_ELEMENTS, OpError, OpRegistry, Shape, Value, chain_rule_step};
use nalgebra::DMatrix;

const HUGE: usize = 1 << 33;

fn too_large(op: &str, rows: usize, cols: usize) -> OpError {
    OpError::TooLarge {
        op: op.to_owned(),
        rows,
        cols,
    }
}

/// The message of a panic, which must happen.
fn panic_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}

// ---- shapes ----

#[test]
fn a_product_too_large_to_hold_is_an_error_and_the_graph_goes_on() -> Result<(), GraphError> {
    let mut g = Graph::new();
    let a = g.input(DMatrix::<f64>::zeros(HUGE, 0));
    let b = g.input(DMatrix::<f64>::zeros(0, HUGE));
    let err = g.matmul(a, b).unwrap_err();
    assert_eq!(err, GraphError::Op(too_large("matmul", HUGE, HUGE)));
    let message = err.to_string();
    assert!(
        message.contains("`matmul`") && message.contains("8589934592×8589934592"),
        "{message}"
    );
    assert_eq!(g.len(), 2, "nothing recorded on error");

    // The graph holds only sound values: ops and a reverse pass over the
    // empty inputs work.
    let e = g.exp(a)?;
    let s = g.sum(e)?;
    let grads = g.backward(s)?;
    assert_eq!(grads.matrix(a).map(|m| m.shape()), Some((HUGE, 0)));
    assert_eq!(g.value(s)?.as_scalar(), Some(0.0));
    Ok(())
}

#[test]
fn a_product_over_the_element_limit_is_refused_before_allocating() {
    // 2¹⁷ · 2¹⁷ = 2³⁴ elements, 137 GB: an error, not an aborted process.
    let side = 1 << 17;
    let mut g = Graph::new();
    let a = g.input(DMatrix::<f64>::zeros(side, 0));
    let b = g.input(DMatrix::<f64>::zeros(0, side));
    assert_eq!(
        g.matmul(a, b),
        Err(GraphError::Op(too_large("matmul", side, side)))
    );
    // A row count whose product with the columns overflows usize.
    let c = g.input(DMatrix::<f64>::zeros(usize::MAX, 0));
    let d = g.input(DMatrix::<f64>::zeros(0, 2));
    assert_eq!(
        g.matmul(c, d),
        Err(GraphError::Op(too_large("matmul", usize::MAX, 2)))
    );
    // The registry, without a graph.
    let inputs = [
        Value::Matrix(DMatrix::zeros(side, 0)),
        Value::Matrix(DMatrix::zeros(0, side)),
    ];
    assert_eq!(
        OpRegistry::new().forward("matmul", &inputs),
        Err(too_large("matmul", side, side))
    );
    assert!(side * side > MAX_ELEMENTS);
}

#[test]
fn a_product_over_an_empty_inner_dimension_is_zeros_with_empty_adjoints() -> Result<(), GraphError>
{
    let mut g = Graph::new();
    let a = g.input(DMatrix::<f64>::zeros(300, 0));
    let b = g.input(DMatrix::<f64>::zeros(0, 200));
    let y = g.matmul(a, b)?;
    assert_eq!(g.value(y)?, &Value::Matrix(DMatrix::zeros(300, 200)));
    let w = g.input(DMatrix::from_element(300, 200, 2.0));
    let z = g.mul(y, w)?;
    let s = g.sum(z)?;
    let grads = g.backward(s)?;
    assert_eq!(grads.matrix(a).map(|m| m.shape()), Some((300, 0)));
    assert_eq!(grads.matrix(b).map(|m| m.shape()), Some((0, 200)));
    // d(Σ y∘w)/dw = y = 0.
    assert_eq!(grads.matrix(w), Some(&DMatrix::zeros(300, 200)));
    Ok(())
}

#[test]
fn empty_matrices_with_a_huge_dimension_cost_nothing() -> Result<(), GraphError> {
    // nalgebra's map, transpose and matrix views walk every (empty) column
    // or row, or overflow computing their extent: 2⁶⁴ − 1 of them here.
    for (rows, cols) in [(0, usize::MAX), (usize::MAX, 0), (0, HUGE)] {
        let mut g = Graph::new();
        let x = g.input(DMatrix::<f64>::zeros(rows, cols));
        let e = g.exp(x)?;
        let p = g.pow(e, x)?;
        let t = g.transpose(p)?;
        let tt = g.transpose(t)?;
        let y = g.mul(tt, x)?;
        let yt = g.transpose(y)?;
        // One product sums over the huge dimension into a 0 × 0 result,
        // the other would be huge × huge.
        let (inner, outer) = if rows == 0 { (y, yt) } else { (yt, y) };
        let m = g.matmul(inner, outer)?;
        assert_eq!(g.value(m)?.shape(), Shape::Matrix { rows: 0, cols: 0 });
        let huge = rows.max(cols);
        assert_eq!(
            g.matmul(outer, inner),
            Err(GraphError::Op(too_large("matmul", huge, huge)))
        );
        let s = g.sum(m)?;
        let grads = g.backward(s)?;
        assert_eq!(grads.matrix(x).map(|m| m.shape()), Some((rows, cols)));
        assert_eq!(g.value(s)?.as_scalar(), Some(0.0));
    }
    Ok(())
}

#[test]
fn the_backward_of_a_product_checks_huge_empty_shapes() {
    let inputs = [
        Value::Matrix(DMatrix::zeros(HUGE, 0)),
        Value::Matrix(DMatrix::zeros(0, HUGE)),
    ];
    // No output of the right shape can exist: whatever is passed is refused.
    let output = Value::Matrix(DMatrix::zeros(0, 0));
    let err = chain_rule_step("matmul", &output, &inputs, &output).unwrap_err();
    assert!(
        matches!(err, OpError::ShapeMismatch { .. }),
        "{err:?}: {err}"
    );
}

#[test]
fn zeros_and_ones_of_a_shape_too_large_are_errors() {
    for (rows, cols) in [
        (usize::MAX, 2),
        (2, usize::MAX),
        (1 << 17, 1 << 17),
        (HUGE, HUGE),
    ] {
        let shape = Shape::Matrix { rows, cols };
        assert_eq!(Value::ones(shape), Err(too_large("ones", rows, cols)));
        assert_eq!(Value::zeros(shape), Err(too_large("zeros", rows, cols)));
    }
    let empty = Value::ones(Shape::Matrix {
        rows: usize::MAX,
        cols: 0,
    })
    .unwrap();
    assert_eq!(empty.as_matrix().map(|m| m.shape()), Some((usize::MAX, 0)));
    assert_eq!(Value::ones(Shape::Scalar), Ok(Value::Scalar(1.0)));
    assert_eq!(
        Value::zeros(Shape::Matrix { rows: 2, cols: 3 }),
        Ok(Value::Matrix(DMatrix::zeros(2, 3)))
    );
    let message = Value::ones(Shape::Matrix {
        rows: usize::MAX,
        cols: 2,
    })
    .unwrap_err()
    .to_string();
    assert!(
        message.contains("`ones`") && message.contains(&MAX_ELEMENTS.to_string()),
        "{message}"
    );
}

#[test]
fn shape_lengths_are_checked() {
    assert_eq!(
        Shape::Matrix {
            rows: usize::MAX,
            cols: 2
        }
        .checked_len(),
        None
    );
    assert_eq!(
        Shape::Matrix {
            rows: usize::MAX,
            cols: 2
        }
        .len(),
        usize::MAX
    );
    assert_eq!(
        Shape::Matrix {
            rows: HUGE,
            cols: 0
        }
        .checked_len(),
        Some(0)
    );
    assert!(
        Shape::Matrix {
            rows: HUGE,
            cols: 0
        }
        .is_empty()
    );
    assert_eq!(Shape::Scalar.checked_len(), Some(1));
}

#[test]
fn reshapes_of_empty_matrices_to_huge_shapes_are_checked() -> Result<(), GraphError> {
    let mut g = Graph::new();
    let a = g.input(DMatrix::<f64>::zeros(HUGE, 0));
    // 2³³ · 2³³ wraps to 0 in usize: still not 0 elements.
    let err = g.reshape(a, HUGE, HUGE).unwrap_err();
    assert!(
        matches!(err, GraphError::Op(OpError::ShapeMismatch { .. })),
        "{err}"
    );
    let b = g.reshape(a, 0, usize::MAX)?;
    assert_eq!(
        g.value(b)?.shape(),
        Shape::Matrix {
            rows: 0,
            cols: usize::MAX
        }
    );
    let s = g.sum(b)?;
    let grads = g.backward(s)?;
    assert_eq!(grads.matrix(a).map(|m| m.shape()), Some((HUGE, 0)));
    Ok(())
}

#[test]
fn the_matrix_rules_panic_with_a_message_never_build_an_unsound_matrix() {
    // Each of these built a matrix whose storage was smaller than its shape
    // in release builds (nalgebra multiplies rows · cols with wrapping
    // arithmetic there), or panicked on an overflow in debug builds.
    let message = panic_message(|| {
        linalg::matmul(&DMatrix::zeros(HUGE, 0), &DMatrix::zeros(0, HUGE));
    });
    assert!(
        message.contains("`matmul`") && message.contains("8589934592×8589934592"),
        "{message}"
    );
    let message = panic_message(|| {
        shape::reshape(&DMatrix::zeros(HUGE, 0), HUGE, HUGE);
    });
    assert!(message.contains("cannot be viewed as"), "{message}");
    let message = panic_message(|| {
        shape::reshape_grad_owned(DMatrix::zeros(0, 3), HUGE, HUGE);
    });
    assert!(message.contains("cannot be viewed as"), "{message}");
    let message = panic_message(|| {
        reductions::sum_grad(1.0, usize::MAX, 2);
    });
    assert!(message.contains("`sum`"), "{message}");
    let message = panic_message(|| {
        reductions::max_grad(1.0, usize::MAX, 2, 0);
    });
    assert!(message.contains("`max`"), "{message}");
    let message = panic_message(|| {
        linalg::matmul_grad_lhs(&DMatrix::zeros(usize::MAX, 0), &DMatrix::zeros(2, 0));
    });
    assert!(message.contains("`matmul`"), "{message}");
    let message = panic_message(|| {
        let mut out = DMatrix::zeros(2, 3);
        linalg::matmul_grad_lhs_into(&mut out, &DMatrix::zeros(2, 0), &DMatrix::zeros(5, 0));
    });
    assert!(message.contains("a 2×3 result cannot be"), "{message}");
    // Sound shapes still work, the empty inner dimension included.
    assert_eq!(
        linalg::matmul(&DMatrix::zeros(3, 0), &DMatrix::zeros(0, 2)),
        DMatrix::zeros(3, 2)
    );
    assert_eq!(
        shape::reshape(&DMatrix::zeros(HUGE, 0), 0, 5).shape(),
        (0, 5)
    );
}

// ---- powers ----

/// Central difference of `f` at `x` with step `h` (exact in binary).
fn central(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x - h)) / (2.0 * h)
}

fn assert_close(got: f64, want: f64, rel: f64, what: &str) {
    assert!(
        (got - want).abs() <= rel * want.abs(),
        "{what}: {got} vs {want} (relative tolerance {rel})"
    );
}

/// Equal as IEEE values, NaN equal to NaN and the sign of zero ignored.
fn same(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

#[test]
fn powi_at_i32_min_is_computed_without_overflow() {
    let n = i32::MIN;
    let two_31 = 2f64.powi(31);
    // n·a^(n−1) with n − 1 = −2³¹ − 1 odd.
    assert_eq!(rules::powi_grad(1.0, -1.0, n), two_31);
    assert_eq!(rules::powi_grad(1.0, 1.0, n), -two_31);
    assert_eq!(rules::powi_grad(3.0, -1.0, n), 3.0 * two_31);
    assert_eq!(rules::powi_grad(1.0, 0.5, n), f64::NEG_INFINITY);
    assert_eq!(rules::powi_grad(1.0, -0.5, n), f64::INFINITY);
    assert_eq!(rules::powi_grad(1.0, 2.0, n), 0.0);
    // The pole at 0: (±0)^(odd negative) = ±∞.
    assert_eq!(rules::powi_grad(1.0, 0.0, n), f64::NEG_INFINITY);
    assert_eq!(rules::powi_grad(1.0, -0.0, n), f64::INFINITY);
    // At ±∞: (±∞)^(odd negative) = ±0.
    assert_eq!(rules::powi_grad(1.0, f64::INFINITY, n), 0.0);
    assert!(rules::powi_grad(1.0, f64::NAN, n).is_nan());
    assert_eq!(rules::powi_grad(1.0f32, -1.0, n), 2f32.powi(31));
    assert_eq!(rules::powi_grad(1.0f32, 1.0, n), -(2f32.powi(31)));

    // Against central differences at 1, with a step the function resolves:
    // (1 ± h)^n varies by e^(∓2⁻⁹); 31 squarings cost about 2³¹ ulps.
    let h = 2f64.powi(-40);
    for n in [i32::MIN, i32::MIN + 1, i32::MAX] {
        let fd = central(|a| a.powi(n), 1.0, h);
        assert_close(rules::powi_grad(1.0, 1.0, n), fd, 1e-3, &format!("n = {n}"));
    }
    // The generic form the macro calls reads the same rule.
    assert_eq!(generic::powi_grad(&1.0, &-1.0, &n, &1.0), two_31);
}

#[test]
fn powi_special_cases_follow_their_closed_forms() {
    // n = 0: a constant function of a, whatever a and the seed.
    for a in [
        0.0,
        -0.0,
        2.0,
        -3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ] {
        for g in [1.0, f64::INFINITY, f64::NAN] {
            assert_eq!(rules::powi_grad(g, a, 0), 0.0, "a = {a}, g = {g}");
        }
    }
    // At 0.
    assert_eq!(rules::powi_grad(1.0, 0.0, 1), 1.0);
    assert_eq!(rules::powi_grad(1.0, 0.0, 2), 0.0);
    assert_eq!(rules::powi_grad(1.0, 0.0, -1), f64::NEG_INFINITY);
    assert_eq!(rules::powi_grad(1.0, -0.0, -1), f64::NEG_INFINITY);
    assert_eq!(rules::powi_grad(1.0, 0.0, -2), f64::NEG_INFINITY);
    assert_eq!(rules::powi_grad(1.0, -0.0, -2), f64::INFINITY);
    // At ±∞.
    assert_eq!(rules::powi_grad(1.0, f64::INFINITY, 2), f64::INFINITY);
    assert_eq!(
        rules::powi_grad(1.0, f64::NEG_INFINITY, 2),
        f64::NEG_INFINITY
    );
    assert_eq!(rules::powi_grad(1.0, f64::NEG_INFINITY, 1), 1.0);
    assert_eq!(rules::powi_grad(1.0, f64::INFINITY, -1), 0.0);
    // Negative bases, against n·a^(n−1) and central differences.
    for (a, n, want) in [
        (-2.0, 3, 12.0),
        (-2.0, 2, -4.0),
        (-2.0, -1, -0.25),
        (-0.5, -2, 16.0),
    ] {
        assert_eq!(rules::powi_grad(1.0, a, n), want, "a = {a}, n = {n}");
        let fd = central(|x| x.powi(n), a, 2f64.powi(-20));
        assert_close(
            rules::powi_grad(1.0, a, n),
            fd,
            1e-8,
            &format!("a = {a}, n = {n}"),
        );
    }
}

#[test]
fn powf_at_exponent_zero_is_a_constant_function() {
    // d/da a^0 = 0 for every a: was NaN at a = 0 (0 · 0^(−1) = 0 · ∞).
    assert_eq!(rules::pow_grad_lhs(1.0, 0.0, 0.0), 0.0);
    for a in [
        0.0,
        -0.0,
        2.0,
        -3.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
    ] {
        for g in [1.0, f64::INFINITY, f64::NAN] {
            assert_eq!(rules::pow_grad_lhs(g, a, 0.0), 0.0, "a = {a}, g = {g}");
            assert_eq!(rules::pow_grad_lhs(g as f32, a as f32, 0.0), 0.0);
        }
    }
    // b = 1: the identity, at every base.
    for a in [0.0, -0.0, -3.0, f64::INFINITY, f64::NAN] {
        assert_eq!(rules::pow_grad_lhs(2.5, a, 1.0), 2.5, "a = {a}");
    }
}

#[test]
fn powf_special_cases_of_the_base_follow_their_closed_forms() {
    let inf = f64::INFINITY;
    let cases = [
        // (a, b, d(a^b)/da)
        (0.0, 2.0, 0.0),
        (0.0, 0.5, inf),
        (0.0, -1.0, -inf),
        (-0.0, -1.0, -inf),
        (0.0, -2.0, -inf),
        (-0.0, -2.0, inf),
        (-2.0, 3.0, 12.0),
        (-2.0, 2.0, -4.0),
        (-2.0, -1.0, -0.25),
        (inf, 2.0, inf),
        (-inf, 2.0, -inf),
        (inf, 0.5, 0.0),
        (inf, -1.0, 0.0),
        // b − 1 rounds to b: b·a^(b−1) = b·a^b / a.
        (-1.0, 2f64.powi(60), -(2f64.powi(60))),
        (-1.0, -(2f64.powi(60)), 2f64.powi(60)),
        (-2.0, 2f64.powi(60), -inf),
        (2.0, 2f64.powi(60), inf),
        (0.0, 2f64.powi(60), 0.0),
        (0.0, -(2f64.powi(60)), -inf),
        (-0.0, -(2f64.powi(60)), inf),
        (-inf, 2f64.powi(60), -inf),
    ];
    for (a, b, want) in cases {
        let got = rules::pow_grad_lhs(1.0, a, b);
        assert!(same(got, want), "d({a}^{b})/da = {got}, want {want}");
    }
    assert!(rules::pow_grad_lhs(1.0f64, -2.0, 0.5).is_nan());
    assert!(rules::pow_grad_lhs(1.0, 2.0, f64::NAN).is_nan());
    assert_eq!(
        rules::pow_grad_lhs(1.0f32, -1.0, 2f32.powi(30)),
        -(2f32.powi(30))
    );

    // A huge even exponent with a non-degenerate power:
    // a = −(1 + 2⁻⁵²), b = 2⁵³, a^(b−1) = −exp(b·ln(1 + 2⁻⁵²)) / (1 + 2⁻⁵²).
    let (u, b) = (2f64.powi(-52), 2f64.powi(53));
    let want = -b * (b * u.ln_1p()).exp() / (1.0 + u);
    assert_close(
        rules::pow_grad_lhs(1.0, -(1.0 + u), b),
        want,
        1e-13,
        "a = −(1 + 2⁻⁵²)",
    );
}

#[test]
fn powf_special_cases_of_the_exponent_follow_their_closed_forms() {
    let inf = f64::INFINITY;
    let at = |a: f64, b: f64| rules::pow_grad_rhs(1.0, a, a.powf(b));
    assert_eq!(at(0.0, 2.0), 0.0);
    assert_eq!(at(0.0, 0.0), -inf);
    assert_eq!(at(1.0, 3.0), 0.0);
    assert_eq!(at(1.0, f64::NAN), 0.0);
    assert_eq!(at(inf, 1.0), inf);
    assert_eq!(at(inf, -1.0), 0.0);
    assert_eq!(at(0.5, 2000.0), 0.0); // 0.5^2000 underflows, ln 0.5 finite
    for (a, b) in [(-2.0, 2.0), (-2.0, 2000.0), (-0.5, 2000.0), (-1.0, 0.5)] {
        assert!(at(a, b).is_nan(), "d((−{a})^{b})/db must be NaN");
    }
    for (a, b) in [(0.3f64, 1.7), (2.0, -0.5), (5.0, 3.0)] {
        let fd = central(|b| a.powf(b), b, 2f64.powi(-20));
        assert_close(at(a, b), fd, 1e-8, &format!("a = {a}, b = {b}"));
    }
}

#[test]
fn powf_base_rule_against_central_differences() {
    for (a, b) in [
        (0.3, 1.7),
        (1.7, 0.3),
        (2.0, -0.5),
        (-2.0, 3.0),
        (-1.5, -2.0),
        (4.0, 0.25),
    ] {
        let fd = central(|a| a.powf(b), a, 2f64.powi(-20));
        assert_close(
            rules::pow_grad_lhs(1.0, a, b),
            fd,
            1e-8,
            &format!("a = {a}, b = {b}"),
        );
    }
}

#[test]
fn registry_matrix_and_generic_pow_read_the_scalar_rule() {
    let inf = f64::INFINITY;
    let pairs = [
        (0.0, 0.0),
        (0.0, 2.0),
        (0.0, 0.5),
        (-0.0, -2.0),
        (-2.0, 3.0),
        (-2.0, 0.5),
        (-1.0, 2f64.powi(60)),
        (inf, 2.0),
        (f64::NAN, 0.0),
        (-0.5, 2000.0),
        (1.0, f64::NAN),
        (2.0, 3.0),
    ];
    let a = DMatrix::from_iterator(3, 4, pairs.iter().map(|p| p.0));
    let b = DMatrix::from_iterator(3, 4, pairs.iter().map(|p| p.1));
    let inputs = [Value::Matrix(a.clone()), Value::Matrix(b.clone())];
    let registry = OpRegistry::new();
    let out = registry.forward("pow", &inputs).unwrap();
    let ones = Value::ones(out.shape()).unwrap();
    let grads = registry
        .chain_rule_step("pow", &ones, &inputs, &out)
        .unwrap();
    let out_m = out.as_matrix().unwrap();
    let seed = DMatrix::repeat(3, 4, 1.0);
    let lifted = (
        elementwise::pow_grad_lhs(&seed, &a, &b),
        elementwise::pow_grad_rhs(&seed, &a, out_m),
    );
    for (i, &(x, y)) in pairs.iter().enumerate() {
        let o = x.powf(y);
        let (da, db) = (
            rules::pow_grad_lhs(1.0, x, y),
            rules::pow_grad_rhs(1.0, x, o),
        );
        let what = format!("{x}^{y}");
        assert!(
            same(grads[0].as_matrix().unwrap()[i], da),
            "registry, lhs, {what}"
        );
        assert!(
            same(grads[1].as_matrix().unwrap()[i], db),
            "registry, rhs, {what}"
        );
        assert!(same(lifted.0[i], da), "elementwise, lhs, {what}");
        assert!(same(lifted.1[i], db), "elementwise, rhs, {what}");
        assert!(
            same(generic::pow_grad_lhs(&1.0, &x, &y, &o), da),
            "generic, lhs, {what}"
        );
        assert!(
            same(generic::pow_grad_rhs(&1.0, &x, &y, &o), db),
            "generic, rhs, {what}"
        );
        let scalar = [Value::Scalar(x), Value::Scalar(y)];
        let g = chain_rule_step("pow", &Value::Scalar(1.0), &scalar, &Value::Scalar(o)).unwrap();
        assert!(same(g[0].as_scalar().unwrap(), da) && same(g[1].as_scalar().unwrap(), db));
    }
    // The point of the issue: 0^0 has a zero derivative in the base everywhere.
    assert_eq!(grads[0].as_matrix().unwrap()[0], 0.0);
}
