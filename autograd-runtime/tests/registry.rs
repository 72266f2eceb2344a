//! The op registry: the seed's examples dispatched by name, all eighteen
//! ops against finite differences for scalars and matrices, and the errors.

mod common;

use approx::assert_relative_eq;
use autograd_runtime::registry::ops::{BUILTIN_OPS, builtin};
use autograd_runtime::{
    CustomFunction, Differentiable, OpError, OpRegistry, ReshapeOp, Shape, Value, chain_rule_step,
};
use common::{Rng, dot};
use nalgebra::DMatrix;

type M = DMatrix<f64>;

fn s(x: f64) -> Value {
    Value::Scalar(x)
}

fn m(rows: usize, cols: usize, row_major: &[f64]) -> Value {
    Value::Matrix(M::from_row_slice(rows, cols, row_major))
}

fn scalars(values: &[Value]) -> Vec<f64> {
    values
        .iter()
        .map(|v| v.as_scalar().expect("a scalar"))
        .collect()
}

/// forward, then backward with the given seed, through a fresh registry.
fn step(name: &str, inputs: &[Value], seed: Value) -> (Value, Vec<Value>) {
    let registry = OpRegistry::new();
    let out = registry.forward(name, inputs).unwrap();
    let grads = registry.chain_rule_step(name, &seed, inputs, &out).unwrap();
    // The free function dispatches to the same rules.
    assert_eq!(chain_rule_step(name, &seed, inputs, &out).unwrap(), grads);
    (out, grads)
}

// ---- the registry itself ----

#[test]
fn new_registers_the_eighteen_ops() {
    let registry = OpRegistry::new();
    let mut names: Vec<&str> = registry.names().collect();
    let mut expected = BUILTIN_OPS.to_vec();
    names.sort_unstable();
    expected.sort_unstable();
    assert_eq!(names, expected);
    assert_eq!(names.len(), 18);
    for name in BUILTIN_OPS {
        assert!(registry.get(name).is_some(), "{name}");
        assert!(builtin(name).is_some(), "{name}");
    }
    assert!(OpRegistry::empty().names().next().is_none());
    assert!(format!("{registry:?}").contains("matmul"));
}

// ---- the seed's worked examples ----

#[test]
fn running_example_through_the_registry() {
    // Visit add(z, x) → w first, then mul(x, y) → z, and add up x's two
    // contributions.
    for ((x, y), (dx_expected, dy_expected)) in [((3.0, 4.0), (5.0, 3.0)), ((5.0, 2.0), (3.0, 5.0))]
    {
        let (z, mul_inputs) = (x * y, [s(x), s(y)]);
        let (w, add_grads) = step("add", &[s(z), s(x)], s(1.0));
        assert_eq!(w, s(z + x));
        assert_eq!(scalars(&add_grads), [1.0, 1.0]);
        let (_, mul_grads) = step("mul", &mul_inputs, add_grads[0].clone());
        let dx = add_grads[1].as_scalar().unwrap() + mul_grads[0].as_scalar().unwrap();
        assert_eq!(
            (dx, mul_grads[1].as_scalar().unwrap()),
            (dx_expected, dy_expected)
        );
    }
}

#[test]
fn exp_at_1() {
    let (out, grads) = step("exp", &[s(1.0)], s(1.0));
    let e = std::f64::consts::E;
    assert_relative_eq!(
        out.as_scalar().unwrap(),
        e,
        epsilon = 1e-15,
        max_relative = 1e-15
    );
    assert_relative_eq!(
        grads[0].as_scalar().unwrap(),
        e,
        epsilon = 1e-15,
        max_relative = 1e-15
    );
}

#[test]
fn sub_and_div_at_8_and_5() {
    let (out, grads) = step("sub", &[s(8.0), s(5.0)], s(1.0));
    assert_eq!((out, scalars(&grads)), (s(3.0), vec![1.0, -1.0]));
    let (out, grads) = step("div", &[s(8.0), s(5.0)], s(1.0));
    assert_eq!(out, s(1.6));
    let g = scalars(&grads);
    assert_relative_eq!(g[0], 0.2, epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(g[1], -0.32, epsilon = 1e-15, max_relative = 1e-15);
    // Cross-check d/db against a central difference of the op's forward.
    let registry = OpRegistry::new();
    let f = |b: f64| {
        registry
            .forward("div", &[s(8.0), s(b)])
            .unwrap()
            .as_scalar()
            .unwrap()
    };
    let h = 1e-6;
    assert_relative_eq!(
        (f(5.0 + h) - f(5.0 - h)) / (2.0 * h),
        -0.32,
        epsilon = 1e-8,
        max_relative = 1e-8
    );
}

#[test]
fn pow_and_log_at_2_and_3() {
    let (out, grads) = step("pow", &[s(2.0), s(3.0)], s(1.0));
    assert_eq!(out, s(8.0));
    let g = scalars(&grads);
    assert_relative_eq!(g[0], 12.0, epsilon = 1e-12, max_relative = 1e-12);
    assert_relative_eq!(
        g[1],
        8.0 * std::f64::consts::LN_2,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    let (out, grads) = step("log", &[s(2.0)], s(1.0));
    assert_relative_eq!(
        out.as_scalar().unwrap(),
        std::f64::consts::LN_2,
        epsilon = 1e-15,
        max_relative = 1e-15
    );
    assert_eq!(scalars(&grads), [0.5]);
}

#[test]
fn relu_on_both_seed_vectors() {
    let (out, grads) = step(
        "relu",
        &[m(1, 4, &[-2.0, 3.0, -1.0, 5.0])],
        m(1, 4, &[1.0; 4]),
    );
    assert_eq!(out, m(1, 4, &[0.0, 3.0, 0.0, 5.0]));
    assert_eq!(grads, [m(1, 4, &[0.0, 1.0, 0.0, 1.0])]);
    let (_, grads) = step(
        "relu",
        &[m(1, 5, &[-3.0, 2.0, 0.0, -1.0, 5.0])],
        m(1, 5, &[1.0; 5]),
    );
    assert_eq!(grads, [m(1, 5, &[0.0, 1.0, 0.0, 0.0, 1.0])]);
    let (_, grads) = step("relu", &[s(0.0)], s(1.0));
    assert_eq!(grads, [s(0.0)]);
}

#[test]
fn sigmoid_tanh_sin_cos_at_0() {
    assert_eq!(step("sigmoid", &[s(0.0)], s(2.0)), (s(0.5), vec![s(0.5)]));
    assert_eq!(step("tanh", &[s(0.0)], s(2.0)), (s(0.0), vec![s(2.0)]));
    assert_eq!(step("sin", &[s(0.0)], s(1.0)), (s(0.0), vec![s(1.0)]));
    let (out, grads) = step("cos", &[s(0.0)], s(1.0));
    assert_eq!((out, scalars(&grads)), (s(1.0), vec![0.0]));
}

#[test]
fn sqrt_at_4() {
    assert_eq!(step("sqrt", &[s(4.0)], s(1.0)), (s(2.0), vec![s(0.25)]));
}

#[test]
fn matmul_with_ones_and_identity_upstream() {
    let x = m(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let mm = m(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let (y, grads) = step("matmul", &[x.clone(), mm.clone()], m(2, 2, &[1.0; 4]));
    assert_eq!(y, m(2, 2, &[22.0, 28.0, 49.0, 64.0]));
    assert_eq!(grads[0], m(2, 3, &[3.0, 7.0, 11.0, 3.0, 7.0, 11.0]));
    assert_eq!(grads[1], m(3, 2, &[5.0, 5.0, 7.0, 7.0, 9.0, 9.0]));
    let (_, grads) = step("matmul", &[x, mm], m(2, 2, &[1.0, 0.0, 0.0, 1.0]));
    assert_eq!(grads[0], m(2, 3, &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]));
}

#[test]
fn sum_and_max_reductions() {
    let (out, grads) = step("sum", &[m(1, 4, &[1.0, 4.0, 9.0, 16.0])], s(1.0));
    assert_eq!((out, grads), (s(30.0), vec![m(1, 4, &[1.0; 4])]));
    let (out, grads) = step("max", &[m(1, 4, &[3.0, 7.0, 2.0, 9.0])], s(1.0));
    assert_eq!((out, grads), (s(9.0), vec![m(1, 4, &[0.0, 0.0, 0.0, 1.0])]));
    let (out, grads) = step("max", &[m(1, 4, &[1.0, 5.0, 3.0, 5.0])], s(1.0));
    assert_eq!(
        (out, grads.clone()),
        (s(5.0), vec![m(1, 4, &[0.0, 1.0, 0.0, 0.0])])
    );
    assert_eq!(grads[0].as_matrix().unwrap().sum(), 1.0); // total out = total in
}

#[test]
fn reshape_and_transpose() {
    let x = Value::Matrix(M::from_iterator(2, 6, (0..12).map(f64::from)));
    let y = ReshapeOp::new(3, 4)
        .forward(std::slice::from_ref(&x))
        .unwrap();
    assert_eq!(
        y,
        Value::Matrix(M::from_iterator(3, 4, (0..12).map(f64::from)))
    );
    // The registry's reshape has no target, but its backward works.
    let g = Value::Matrix(M::from_iterator(3, 4, (0..12).map(|i| f64::from(i) * 10.0)));
    let grads = chain_rule_step("reshape", &g, std::slice::from_ref(&x), &y).unwrap();
    assert_eq!(grads[0].shape(), Shape::Matrix { rows: 2, cols: 6 });
    assert_eq!(
        grads[0].as_matrix().unwrap().as_slice(),
        g.as_matrix().unwrap().as_slice()
    );

    let a = m(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let (at, grads) = step("transpose", &[a], m(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
    assert_eq!(at, m(3, 2, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]));
    assert_eq!(grads, [m(2, 3, &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0])]);
}

// ---- all eighteen against finite differences ----

fn perturbed(v: &Value, t: &Value, h: f64) -> Value {
    match (v, t) {
        (Value::Scalar(x), Value::Scalar(t)) => Value::Scalar(x + h * t),
        (Value::Matrix(x), Value::Matrix(t)) => Value::Matrix(x + t * h),
        _ => panic!("mismatched test value"),
    }
}

fn inner(a: &Value, b: &Value) -> f64 {
    match (a, b) {
        (Value::Scalar(a), Value::Scalar(b)) => a * b,
        (Value::Matrix(a), Value::Matrix(b)) => dot(a, b),
        _ => panic!("mismatched test value"),
    }
}

fn random_like(rng: &mut Rng, v: &Value, lo: f64, hi: f64) -> Value {
    match v {
        Value::Scalar(_) => Value::Scalar(rng.signed(lo, hi)),
        Value::Matrix(x) => Value::Matrix(rng.signed_matrix(x.nrows(), x.ncols(), lo, hi)),
    }
}

/// The dot-product identity for every input: ⟨adjoint_i, t⟩ ≈ ⟨∂f/∂x_i · t, c⟩.
fn check_op(op: &dyn Differentiable, name: &str, inputs: &[Value], rng: &mut Rng) {
    let out = op.forward(inputs).unwrap();
    let c = random_like(rng, &out, 0.5, 2.0);
    let grads = op.backward(&c, inputs, &out).unwrap();
    assert_eq!(grads.len(), inputs.len(), "{name}: one adjoint per input");
    let h = 1e-6;
    for (i, input) in inputs.iter().enumerate() {
        assert_eq!(grads[i].shape(), input.shape(), "{name}: adjoint {i} shape");
        let t = random_like(rng, input, 0.1, 1.0);
        let mut plus = inputs.to_vec();
        plus[i] = perturbed(input, &t, h);
        let mut minus = inputs.to_vec();
        minus[i] = perturbed(input, &t, -h);
        let fd = (inner(&op.forward(&plus).unwrap(), &c) - inner(&op.forward(&minus).unwrap(), &c))
            / (2.0 * h);
        let adj = inner(&grads[i], &t);
        assert_relative_eq!(adj, fd, epsilon = 1e-6, max_relative = 1e-6);
    }
}

#[test]
fn every_op_matches_finite_differences_on_scalars_and_matrices() {
    let mut rng = Rng::new(29);
    let registry = OpRegistry::new();
    for _ in 0..5 {
        for (rows, cols) in [(0, 0), (2, 3)] {
            // (0, 0) stands for scalars.
            let value = |rng: &mut Rng, lo: f64, hi: f64, signed: bool| -> Value {
                match (rows, signed) {
                    (0, false) => Value::Scalar(rng.uniform(lo, hi)),
                    (0, true) => Value::Scalar(rng.signed(lo, hi)),
                    (_, false) => Value::Matrix(rng.matrix(rows, cols, lo, hi)),
                    (_, true) => Value::Matrix(rng.signed_matrix(rows, cols, lo, hi)),
                }
            };
            let any = value(&mut rng, 0.1, 2.0, true);
            let other = value(&mut rng, 0.5, 2.0, true);
            let positive = value(&mut rng, 0.3, 3.0, false);
            let exponent = value(&mut rng, 0.5, 2.5, false);
            for name in ["add", "sub", "mul", "div"] {
                check_op(
                    registry.get(name).unwrap(),
                    name,
                    &[any.clone(), other.clone()],
                    &mut rng,
                );
            }
            check_op(
                registry.get("pow").unwrap(),
                "pow",
                &[positive.clone(), exponent],
                &mut rng,
            );
            for name in ["exp", "sin", "cos", "tanh", "sigmoid", "relu"] {
                check_op(
                    registry.get(name).unwrap(),
                    name,
                    std::slice::from_ref(&any),
                    &mut rng,
                );
            }
            for name in ["log", "sqrt"] {
                check_op(
                    registry.get(name).unwrap(),
                    name,
                    std::slice::from_ref(&positive),
                    &mut rng,
                );
            }
        }
        let a = Value::Matrix(rng.signed_matrix(2, 3, 0.1, 2.0));
        let b = Value::Matrix(rng.signed_matrix(3, 4, 0.1, 2.0));
        check_op(
            registry.get("matmul").unwrap(),
            "matmul",
            &[a.clone(), b],
            &mut rng,
        );
        check_op(
            registry.get("sum").unwrap(),
            "sum",
            std::slice::from_ref(&a),
            &mut rng,
        );
        check_op(
            registry.get("max").unwrap(),
            "max",
            std::slice::from_ref(&a),
            &mut rng,
        );
        check_op(
            registry.get("transpose").unwrap(),
            "transpose",
            std::slice::from_ref(&a),
            &mut rng,
        );
        check_op(
            &ReshapeOp::new(3, 2),
            "reshape",
            std::slice::from_ref(&a),
            &mut rng,
        );
    }
}

// ---- errors ----

#[test]
fn unknown_op_is_an_error_naming_it() {
    let registry = OpRegistry::new();
    let err = registry
        .chain_rule_step("gelu", &s(1.0), &[s(1.0)], &s(1.0))
        .unwrap_err();
    assert_eq!(
        err,
        OpError::UnknownOp {
            name: "gelu".into()
        }
    );
    assert!(err.to_string().contains("`gelu`"), "{err}");
    assert!(matches!(
        chain_rule_step("gelu", &s(1.0), &[], &s(1.0)),
        Err(OpError::UnknownOp { .. })
    ));
    assert!(matches!(
        registry.forward("gelu", &[s(1.0)]),
        Err(OpError::UnknownOp { .. })
    ));
    // An error is a std error.
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert!(!boxed.to_string().is_empty());
}

#[test]
fn wrong_arity_is_an_error() {
    let registry = OpRegistry::new();
    let err = registry.forward("mul", &[s(1.0)]).unwrap_err();
    assert_eq!(
        err,
        OpError::WrongArity {
            op: "mul".into(),
            expected: 2,
            got: 1
        }
    );
    assert_eq!(err.to_string(), "`mul` takes 2 inputs, got 1");
    let err = registry
        .chain_rule_step("exp", &s(1.0), &[s(1.0), s(2.0)], &s(1.0))
        .unwrap_err();
    assert_eq!(err.to_string(), "`exp` takes 1 input, got 2");
    for name in BUILTIN_OPS {
        assert!(
            matches!(
                builtin(name).unwrap().backward(&s(1.0), &[], &s(1.0)),
                Err(OpError::WrongArity { .. })
            ),
            "{name}"
        );
    }
}

#[test]
fn mismatched_shapes_are_errors_naming_the_op_and_the_shapes() {
    let registry = OpRegistry::new();
    let a = m(2, 3, &[1.0; 6]);
    let err = registry
        .forward("matmul", &[a.clone(), a.clone()])
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("`matmul`") && msg.contains("2×3, 2×3"),
        "{msg}"
    );
    assert!(matches!(err, OpError::ShapeMismatch { ref shapes, .. } if shapes.len() == 2));

    let b = m(3, 2, &[1.0; 6]);
    let msg = registry
        .forward("add", &[a.clone(), b.clone()])
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("`add`") && msg.contains("2×3") && msg.contains("3×2"),
        "{msg}"
    );
    let msg = registry
        .forward("mul", &[s(1.0), a.clone()])
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("`mul`") && msg.contains("scalar, 2×3"),
        "{msg}"
    );

    // A gradient of the wrong shape in backward.
    let y = registry.forward("exp", std::slice::from_ref(&a)).unwrap();
    let err = registry
        .chain_rule_step("exp", &b, std::slice::from_ref(&a), &y)
        .unwrap_err();
    assert!(
        err.to_string().contains("`exp`") && err.to_string().contains("3×2"),
        "{err}"
    );
    let ab = registry.forward("matmul", &[a.clone(), b.clone()]).unwrap();
    let err = registry
        .chain_rule_step("matmul", &a, &[a.clone(), b.clone()], &ab)
        .unwrap_err();
    assert!(err.to_string().contains("`matmul`"), "{err}");

    // Matrix-only ops given a scalar; max of nothing; a reshape that loses elements.
    for name in ["sum", "max", "transpose", "matmul"] {
        let inputs: Vec<Value> = if name == "matmul" {
            vec![s(1.0), s(2.0)]
        } else {
            vec![s(1.0)]
        };
        let msg = registry.forward(name, &inputs).unwrap_err().to_string();
        assert!(
            msg.contains(&format!("`{name}`")) && msg.contains("scalar"),
            "{msg}"
        );
    }
    let msg = registry
        .forward("max", &[Value::Matrix(M::zeros(0, 3))])
        .unwrap_err()
        .to_string();
    assert!(msg.contains("`max`") && msg.contains("0×3"), "{msg}");
    let twelve = Value::Matrix(M::zeros(2, 6));
    let msg = ReshapeOp::new(5, 3)
        .forward(std::slice::from_ref(&twelve))
        .unwrap_err()
        .to_string();
    assert!(
        msg.contains("`reshape`") && msg.contains("2×6, 5×3"),
        "{msg}"
    );
}

#[test]
fn the_registry_reshape_has_no_forward() {
    let err = OpRegistry::new()
        .forward("reshape", &[m(1, 2, &[1.0, 2.0])])
        .unwrap_err();
    assert_eq!(
        err,
        OpError::MissingTarget {
            op: "reshape".into()
        }
    );
    assert!(err.to_string().contains("ReshapeOp::new"));
    assert_eq!(ReshapeOp::new(3, 4).target(), Some((3, 4)));
}

#[test]
fn custom_function_registers_and_dispatches() {
    let mut registry = OpRegistry::new();
    // f(a, b) = a·b², hand-derived backward.
    let previous = registry.register(
        "ab2",
        Box::new(CustomFunction::new(
            |inputs: &[Value]| match inputs {
                [Value::Scalar(a), Value::Scalar(b)] => Ok(Value::Scalar(a * b * b)),
                _ => Err(OpError::custom("ab2", "takes two scalars")),
            },
            |grad: &Value, inputs: &[Value], _: &Value| match (grad, inputs) {
                (Value::Scalar(g), [Value::Scalar(a), Value::Scalar(b)]) => Ok(vec![
                    Value::Scalar(g * b * b),
                    Value::Scalar(g * 2.0 * a * b),
                ]),
                _ => Err(OpError::custom("ab2", "takes scalars")),
            },
        )),
    );
    assert!(previous.is_none());
    assert!(registry.contains("ab2"));
    let inputs = [s(3.0), s(2.0)];
    let out = registry.forward("ab2", &inputs).unwrap();
    assert_eq!(out, s(12.0));
    let grads = registry
        .chain_rule_step("ab2", &s(1.0), &inputs, &out)
        .unwrap();
    assert_eq!(grads, [s(4.0), s(12.0)]);
    let err = registry.forward("ab2", &[s(1.0)]).unwrap_err();
    assert_eq!(err.to_string(), "`ab2`: takes two scalars");
    // Custom ops are not built-ins.
    assert!(chain_rule_step("ab2", &s(1.0), &inputs, &out).is_err());
}

#[test]
fn a_faulty_custom_backward_is_caught() {
    let mut registry = OpRegistry::empty();
    registry.register(
        "bad_count",
        Box::new(CustomFunction::new(
            |_: &[Value]| Ok(s(0.0)),
            |_: &Value, _: &[Value], _: &Value| Ok(vec![]),
        )),
    );
    registry.register(
        "bad_shape",
        Box::new(CustomFunction::new(
            |_: &[Value]| Ok(s(0.0)),
            |_: &Value, _: &[Value], _: &Value| Ok(vec![m(1, 2, &[0.0, 0.0])]),
        )),
    );
    let err = registry
        .chain_rule_step("bad_count", &s(1.0), &[s(1.0)], &s(0.0))
        .unwrap_err();
    assert_eq!(
        err,
        OpError::WrongGradientCount {
            op: "bad_count".into(),
            expected: 1,
            got: 0
        }
    );
    let err = registry
        .chain_rule_step("bad_shape", &s(1.0), &[s(1.0)], &s(0.0))
        .unwrap_err();
    assert!(
        err.to_string().contains("`bad_shape`") && err.to_string().contains("1×2, scalar"),
        "{err}"
    );
}
