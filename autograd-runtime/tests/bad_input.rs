//! Random bad input thrown at the runtime's public API: the registry's
//! `forward` and `chain_rule_step`, the dynamic graph, `Value::zeros` /
//! `Value::ones` and both solvers. Whatever the input (unknown names, any
//! number of inputs, shapes that do not fit, empty matrices, empty
//! matrices with a huge other dimension, targets whose element count
//! overflows, NaN, infinities, tolerances of 0 or NaN), each call returns
//! a value of the documented shape or a typed error with a message; a
//! panic (or an abort) fails the property.

use autograd_runtime::graph::{Graph, GraphError};
use autograd_runtime::registry::ops::BUILTIN_OPS;
use autograd_runtime::solve::{SolveError, bisect, brent};
use autograd_runtime::{MAX_ELEMENTS, OpError, OpRegistry, Shape, Value, chain_rule_step};
use nalgebra::DMatrix;
use proptest::prelude::*;

/// Ordinary numbers and the troublesome ones, about equally often.
fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        -3.0f64..3.0,
        prop::sample::select(vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            f64::MIN_POSITIVE,
            1e300,
            -1e300,
            f64::MAX,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ]),
    ]
}

/// A matrix dimension: small, or huge (past the element limit alone, or
/// with an overflowing product with almost any other).
fn dimension() -> impl Strategy<Value = usize> {
    prop_oneof![
        3 => 0usize..4,
        1 => prop::sample::select(vec![
            1 << 17,
            MAX_ELEMENTS + 1,
            1 << 33,
            usize::MAX / 2 + 1,
            usize::MAX,
        ]),
    ]
}

/// Dimensions whose product is small enough to fill with numbers here
/// (every other product of [`dimension`]s is past [`MAX_ELEMENTS`]).
fn fillable(rows: usize, cols: usize) -> bool {
    rows.checked_mul(cols).is_some_and(|n| n <= 1 << 19)
}

/// A scalar, or a matrix of up to 3×3 (empty ones included), or of up to
/// 3 × 2¹⁷ elements with a huge dimension (2³³ × 0, 0 × usize::MAX, ..).
fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        number().prop_map(Value::Scalar),
        (0usize..4, 0usize..4).prop_flat_map(|(rows, cols)| {
            prop::collection::vec(number(), rows * cols)
                .prop_map(move |xs| Value::Matrix(DMatrix::from_column_slice(rows, cols, &xs)))
        }),
        (dimension(), dimension())
            .prop_filter("fillable", |&(rows, cols)| fillable(rows, cols))
            .prop_flat_map(|(rows, cols)| {
                number().prop_map(move |x| Value::Matrix(DMatrix::from_element(rows, cols, x)))
            }),
    ]
}

/// A built-in op's name most of the time, else a near miss or nonsense.
fn op_name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::sample::select(BUILTIN_OPS.to_vec()).prop_map(str::to_owned),
        1 => prop::sample::select(vec!["", "ADD", "log ", "gelu", "matmul2", "ln", "pow\0"])
            .prop_map(str::to_owned),
        1 => "[a-z]{0,8}",
    ]
}

fn is_builtin(name: &str) -> bool {
    BUILTIN_OPS.contains(&name)
}

/// One adjoint per input, each of its input's shape.
fn fits(inputs: &[Value], grads: &[Value]) -> bool {
    grads.len() == inputs.len()
        && grads
            .iter()
            .zip(inputs)
            .all(|(g, x)| g.shape() == x.shape())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn registry_calls_return_a_result_never_a_panic(
        name in op_name(),
        inputs in prop::collection::vec(value(), 0..4),
        grad_output in value(),
        output in value(),
    ) {
        let registry = OpRegistry::new();
        match registry.forward(&name, &inputs) {
            Ok(out) => {
                // A forward that accepts its inputs has a backward that
                // accepts them with a seed of the output's shape.
                let seed = Value::ones(out.shape()).unwrap();
                let grads = registry.chain_rule_step(&name, &seed, &inputs, &out);
                prop_assert!(grads.as_ref().is_ok_and(|g| fits(&inputs, g)), "{name}: {grads:?}");
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        for result in [
            registry.chain_rule_step(&name, &grad_output, &inputs, &output),
            chain_rule_step(&name, &grad_output, &inputs, &output),
        ] {
            match result {
                Ok(grads) => prop_assert!(fits(&inputs, &grads), "{name}: {grads:?}"),
                Err(OpError::UnknownOp { name: unknown }) => {
                    prop_assert!(!is_builtin(&name));
                    prop_assert_eq!(unknown, name.clone());
                }
                Err(e) => {
                    prop_assert!(is_builtin(&name), "{name}: {e}");
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }

    /// A random sequence of applications on a graph, some of them
    /// invalid, then a backward pass from every node.
    #[test]
    fn graph_calls_return_a_result_never_a_panic(
        leaves in prop::collection::vec(value(), 1..4),
        steps in prop::collection::vec((op_name(), prop::collection::vec(0usize..12, 0..3)), 0..12),
        reshapes in prop::collection::vec((0usize..12, dimension(), dimension()), 0..3),
        seed in value(),
    ) {
        let mut g = Graph::new();
        let mut ids: Vec<_> = leaves.into_iter().map(|v| g.input(v)).collect();
        let mut other = Graph::new();
        let foreign: Vec<_> = (0..14).map(|_| other.input(0.0)).collect();
        for (name, picks) in steps {
            // Indices past the end name another graph's (unknown) nodes.
            let inputs: Vec<_> = picks
                .iter()
                .map(|&k| ids.get(k).copied().unwrap_or(foreign[k]))
                .collect();
            let before = g.len();
            match g.apply(&name, &inputs) {
                Ok(id) => {
                    let values: Vec<Value> =
                        inputs.iter().map(|&i| g.value(i).unwrap().clone()).collect();
                    let expected = OpRegistry::new().forward(&name, &values).unwrap();
                    prop_assert_eq!(g.value(id).unwrap().shape(), expected.shape());
                    ids.push(id);
                }
                Err(e) => {
                    prop_assert_eq!(g.len(), before, "nothing recorded on error");
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
        for (k, rows, cols) in reshapes {
            let a = ids.get(k).copied().unwrap_or(foreign[k]);
            if let Ok(id) = g.reshape(a, rows, cols) {
                prop_assert_eq!(g.value(id).unwrap().shape(), Shape::Matrix { rows, cols });
                ids.push(id);
            }
        }
        for &id in ids.iter().chain(&foreign) {
            match g.backward(id) {
                Ok(grads) => {
                    for &leaf in &ids {
                        let adjoint = grads.get(leaf);
                        prop_assert!(adjoint.is_none_or(|a| a.shape() == g.value(leaf).unwrap().shape()));
                    }
                }
                // Only another graph's node is refused.
                Err(e) => prop_assert!(
                    matches!(e, GraphError::UnknownNode { .. }) && !ids.contains(&id),
                    "{e}"
                ),
            }
            let result = g.backward_with(id, seed.clone(), |_| {});
            if let Ok(value) = g.value(id) {
                prop_assert_eq!(
                    result.is_ok(),
                    value.shape() == seed.shape(),
                    "a seed is accepted exactly when it has the output's shape"
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// A shape's zeros and ones exist exactly when its element count is
    /// within the limit; otherwise a typed error, decided before allocating.
    #[test]
    fn zeros_and_ones_of_any_shape_return_a_result(rows in dimension(), cols in dimension()) {
        let shape = Shape::Matrix { rows, cols };
        for (result, op) in [(Value::zeros(shape), "zeros"), (Value::ones(shape), "ones")] {
            match result {
                Ok(v) => {
                    prop_assert!(fillable(rows, cols));
                    prop_assert_eq!(v.shape(), shape);
                    prop_assert_eq!(v.as_matrix().map(|m| m.len()), shape.checked_len());
                }
                Err(e) => {
                    prop_assert!(!fillable(rows, cols));
                    prop_assert!(shape.checked_len().is_none_or(|n| n > MAX_ELEMENTS));
                    prop_assert_eq!(e, OpError::TooLarge { op: op.to_owned(), rows, cols });
                }
            }
        }
    }
}

/// Functions a solver might be handed, by number.
fn residual(kind: u8, k: f64) -> impl Fn(f64) -> f64 {
    move |x: f64| match kind {
        0 => k * x - 0.5,
        1 => x * x * x - k,
        2 => k, // constant: no sign change unless 0
        3 => {
            if x < 0.25 {
                -1.0
            } else {
                1.0
            }
        } // a jump
        4 => {
            if x > k {
                f64::NAN
            } else {
                x - k
            }
        } // NaN past a point
        5 => (x * 1e300) * (x * 1e300) - k, // overflow to infinity
        _ => f64::NAN,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn solvers_return_a_root_in_the_bracket_or_an_error(
        kind in 0u8..7,
        k in number(),
        lo in number(),
        hi in number(),
        tol in prop_oneof![number(), Just(0.0), Just(-1e-12), 1e-14f64..1e-2],
    ) {
        let f = residual(kind, k);
        for (result, which) in [(bisect(&f, lo, hi, tol), "bisect"), (brent(&f, lo, hi, tol), "brent")] {
            match result {
                Ok(x) => {
                    prop_assert!(lo.is_finite() && hi.is_finite() && tol > 0.0);
                    prop_assert!(lo <= x && x <= hi, "{which}: {x} outside [{lo}, {hi}]");
                }
                Err(e) => {
                    if !lo.is_finite() || !hi.is_finite() || !tol.is_finite() {
                        prop_assert!(matches!(e, SolveError::NonFinite { .. }), "{which}: {e}");
                    } else if tol <= 0.0 {
                        prop_assert!(matches!(e, SolveError::NonPositiveTolerance { .. }), "{which}: {e}");
                    } else if lo >= hi {
                        prop_assert!(matches!(e, SolveError::EmptyBracket { .. }), "{which}: {e}");
                    }
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
}
