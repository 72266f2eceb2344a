//! The op registry: eighteen named rules behind one [`Differentiable`]
//! trait, dispatched by name.
//!
//! This is the seed's `OpRegistry` in Rust idiom. Every op's backward calls
//! the functions of [`crate::rules`]; no derivative is written twice. The
//! ops take [`Value`]s (a scalar or a `DMatrix<f64>`), check arity and
//! shapes before touching nalgebra, and report mistakes as [`OpError`]s.
//!
//! # Example
//!
//! ```
//! use autograd_runtime::{chain_rule_step, OpRegistry, Value};
//!
//! // z = x·y at x = 3, y = 4, seed 1: x gets y, y gets x.
//! let registry = OpRegistry::new();
//! let inputs = [Value::Scalar(3.0), Value::Scalar(4.0)];
//! let z = registry.forward("mul", &inputs)?;
//! let grads = registry.chain_rule_step("mul", &Value::Scalar(1.0), &inputs, &z)?;
//! assert_eq!(grads, vec![Value::Scalar(4.0), Value::Scalar(3.0)]);
//!
//! // The free function uses the built-in ops.
//! let same = chain_rule_step("mul", &Value::Scalar(1.0), &inputs, &z)?;
//! assert_eq!(same, grads);
//! # Ok::<(), autograd_runtime::OpError>(())
//! ```

use core::fmt;
use std::collections::BTreeMap;

use crate::value::{Shape, Value};

pub mod ops;

pub use ops::ReshapeOp;

/// An operation the registry and the dynamic graph can record: a forward
/// computation and its vector-Jacobian product.
///
/// # Example
///
/// ```
/// use autograd_runtime::{Differentiable, OpError, Value};
///
/// /// `3·x` for scalars.
/// struct Triple;
///
/// impl Differentiable for Triple {
///     fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
///         match inputs {
///             [Value::Scalar(x)] => Ok(Value::Scalar(3.0 * x)),
///             _ => Err(OpError::custom("triple", "takes one scalar")),
///         }
///     }
///     fn backward(&self, grad: &Value, _: &[Value], _: &Value) -> Result<Vec<Value>, OpError> {
///         match grad {
///             Value::Scalar(g) => Ok(vec![Value::Scalar(3.0 * g)]),
///             _ => Err(OpError::custom("triple", "takes a scalar gradient")),
///         }
///     }
/// }
///
/// let y = Triple.forward(&[Value::Scalar(2.0)])?;
/// assert_eq!(y, Value::Scalar(6.0));
/// # Ok::<(), OpError>(())
/// ```
pub trait Differentiable {
    /// Computes the op's output from its inputs.
    ///
    /// # Errors
    ///
    /// An [`OpError`] for a wrong number of inputs or operands whose shapes
    /// the op does not accept.
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError>;

    /// Turns the adjoint arriving at the output (`grad_output`) into one
    /// adjoint per input, in input order, each of its input's shape.
    /// `inputs` and `output` are the values of the forward pass.
    ///
    /// # Errors
    ///
    /// An [`OpError`] for a wrong number of inputs or shapes that do not fit
    /// together (for example a `grad_output` of another shape than `output`).
    fn backward(
        &self,
        grad_output: &Value,
        inputs: &[Value],
        output: &Value,
    ) -> Result<Vec<Value>, OpError>;
}

/// What went wrong in an op of the registry.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum OpError {
    /// No op is registered under this name.
    UnknownOp {
        /// The name that was looked up.
        name: String,
    },
    /// The op was given the wrong number of inputs.
    WrongArity {
        /// The op's name.
        op: String,
        /// How many inputs it takes.
        expected: usize,
        /// How many it was given.
        got: usize,
    },
    /// Operands whose shapes the op does not accept together.
    ShapeMismatch {
        /// The op's name.
        op: String,
        /// The shapes involved, in the order the requirement names them.
        shapes: Vec<Shape>,
        /// What the op requires, in words.
        requirement: String,
    },
    /// A `reshape` without a target shape was asked for its forward.
    MissingTarget {
        /// The op's name.
        op: String,
    },
    /// A backward returned a different number of adjoints than the op has
    /// inputs (only a caller's [`CustomFunction`] can).
    WrongGradientCount {
        /// The op's name.
        op: String,
        /// The number of inputs.
        expected: usize,
        /// The number of adjoints returned.
        got: usize,
    },
    /// The op's result would be a matrix of more than
    /// [`MAX_ELEMENTS`](crate::MAX_ELEMENTS) elements, or of more than
    /// `usize` counts (a `2³³ × 0` times `0 × 2³³` product); refused before
    /// anything is allocated.
    TooLarge {
        /// The op's name (`zeros` / `ones` for [`Value::zeros`] / [`Value::ones`]).
        op: String,
        /// The result's rows.
        rows: usize,
        /// The result's columns.
        cols: usize,
    },
    /// The memory for the op's result, within
    /// [`MAX_ELEMENTS`](crate::MAX_ELEMENTS), could not be reserved.
    OutOfMemory {
        /// The op's name.
        op: String,
        /// The result's rows.
        rows: usize,
        /// The result's columns.
        cols: usize,
    },
    /// An error raised by a caller's own op.
    Custom {
        /// The op's name.
        op: String,
        /// What went wrong.
        message: String,
    },
}

impl OpError {
    /// An error of a caller's own op, for [`CustomFunction`] closures and
    /// other [`Differentiable`] implementations.
    pub fn custom(op: impl Into<String>, message: impl Into<String>) -> OpError {
        OpError::Custom {
            op: op.into(),
            message: message.into(),
        }
    }

    pub(crate) fn mismatch(op: &str, shapes: &[Shape], requirement: impl Into<String>) -> OpError {
        OpError::ShapeMismatch {
            op: op.to_owned(),
            shapes: shapes.to_vec(),
            requirement: requirement.into(),
        }
    }
}

impl fmt::Display for OpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpError::UnknownOp { name } => write!(
                f,
                "unknown op `{name}`; the built-in ops are {}",
                ops::BUILTIN_OPS.join(", ")
            ),
            OpError::WrongArity { op, expected, got } => {
                let s = if *expected == 1 { "" } else { "s" };
                write!(f, "`{op}` takes {expected} input{s}, got {got}")
            }
            OpError::ShapeMismatch {
                op,
                shapes,
                requirement,
            } => {
                write!(f, "mismatched shapes in `{op}`: ")?;
                for (i, shape) in shapes.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{shape}")?;
                }
                write!(f, " ({requirement})")
            }
            OpError::MissingTarget { op } => write!(
                f,
                "`{op}` has no target shape; build it with `ReshapeOp::new(rows, cols)` \
                 or use `Graph::reshape`"
            ),
            OpError::WrongGradientCount { op, expected, got } => write!(
                f,
                "the backward of `{op}` returned {got} adjoints for {expected} inputs"
            ),
            OpError::TooLarge { op, rows, cols } => write!(
                f,
                "`{op}` would produce a {rows}×{cols} matrix, more than the {} elements \
                 a matrix may have (`MAX_ELEMENTS`)",
                crate::MAX_ELEMENTS
            ),
            OpError::OutOfMemory { op, rows, cols } => write!(
                f,
                "`{op}` could not reserve memory for a {rows}×{cols} matrix"
            ),
            OpError::Custom { op, message } => write!(f, "`{op}`: {message}"),
        }
    }
}

impl std::error::Error for OpError {}

/// The table of ops by name that [`chain_rule_step`](OpRegistry::chain_rule_step)
/// dispatches on.
///
/// [`OpRegistry::new`] registers the eighteen built-in ops
/// ([`ops::BUILTIN_OPS`]); [`register`](OpRegistry::register) adds a
/// caller's own (a [`CustomFunction`] or any [`Differentiable`]).
///
/// # Example
///
/// ```
/// use autograd_runtime::{CustomFunction, OpError, OpRegistry, Value};
///
/// let mut registry = OpRegistry::new();
/// assert_eq!(registry.names().count(), 18);
/// registry.register(
///     "double",
///     Box::new(CustomFunction::new(
///         |inputs: &[Value]| match inputs {
///             [Value::Scalar(x)] => Ok(Value::Scalar(2.0 * x)),
///             _ => Err(OpError::custom("double", "takes one scalar")),
///         },
///         |grad: &Value, _: &[Value], _: &Value| match grad {
///             Value::Scalar(g) => Ok(vec![Value::Scalar(2.0 * g)]),
///             _ => Err(OpError::custom("double", "takes a scalar gradient")),
///         },
///     )),
/// );
/// let x = [Value::Scalar(5.0)];
/// let y = registry.forward("double", &x)?;
/// let dx = registry.chain_rule_step("double", &Value::Scalar(1.0), &x, &y)?;
/// assert_eq!((y, dx), (Value::Scalar(10.0), vec![Value::Scalar(2.0)]));
/// # Ok::<(), OpError>(())
/// ```
pub struct OpRegistry {
    ops: BTreeMap<String, Box<dyn Differentiable>>,
}

impl OpRegistry {
    /// A registry holding the eighteen built-in ops: `add sub mul div pow
    /// exp log sqrt relu sigmoid tanh sin cos matmul sum max reshape
    /// transpose`.
    ///
    /// `reshape` is registered without a target shape, as in the seed: its
    /// backward (which reads the input's shape) works through the registry,
    /// while a forward reshape needs [`ReshapeOp::new`] or
    /// [`Graph::reshape`](crate::graph::Graph::reshape).
    pub fn new() -> OpRegistry {
        let mut registry = OpRegistry::empty();
        for name in ops::BUILTIN_OPS {
            if let Some(op) = ops::builtin_boxed(name) {
                registry.register(name, op);
            }
        }
        registry
    }

    /// A registry with no op at all.
    pub fn empty() -> OpRegistry {
        OpRegistry {
            ops: BTreeMap::new(),
        }
    }

    /// Registers `op` under `name`, returning the op it replaces, if any.
    pub fn register(
        &mut self,
        name: impl Into<String>,
        op: Box<dyn Differentiable>,
    ) -> Option<Box<dyn Differentiable>> {
        self.ops.insert(name.into(), op)
    }

    /// The op registered under `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Differentiable> {
        self.ops.get(name).map(|op| &**op)
    }

    /// Whether an op is registered under `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.ops.contains_key(name)
    }

    /// The registered names, in sorted order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.ops.keys().map(String::as_str)
    }

    fn lookup(&self, name: &str) -> Result<&dyn Differentiable, OpError> {
        self.get(name).ok_or_else(|| OpError::UnknownOp {
            name: name.to_owned(),
        })
    }

    /// Runs the forward of the op registered under `name`.
    ///
    /// # Errors
    ///
    /// [`OpError::UnknownOp`] for an unregistered name, else whatever the
    /// op's forward reports (wrong arity, mismatched shapes).
    pub fn forward(&self, name: &str, inputs: &[Value]) -> Result<Value, OpError> {
        self.lookup(name)?.forward(inputs)
    }

    /// One step of the chain rule: the backward of the op registered under
    /// `name`, turning the adjoint of its output into one adjoint per input.
    ///
    /// The result is checked to hold one adjoint per input, each of its
    /// input's shape, so a caller's faulty [`CustomFunction`] is reported
    /// here rather than corrupting a later accumulation.
    ///
    /// # Errors
    ///
    /// [`OpError::UnknownOp`] for an unregistered name, the op's own errors
    /// (wrong arity, mismatched shapes), [`OpError::WrongGradientCount`] or
    /// [`OpError::ShapeMismatch`] for a backward whose result does not fit
    /// the inputs.
    pub fn chain_rule_step(
        &self,
        name: &str,
        grad_output: &Value,
        inputs: &[Value],
        output: &Value,
    ) -> Result<Vec<Value>, OpError> {
        let grads = self.lookup(name)?.backward(grad_output, inputs, output)?;
        check_adjoints(name, inputs, &grads)?;
        Ok(grads)
    }
}

/// One adjoint per input, each of its input's shape.
fn check_adjoints(name: &str, inputs: &[Value], grads: &[Value]) -> Result<(), OpError> {
    if grads.len() != inputs.len() {
        return Err(OpError::WrongGradientCount {
            op: name.to_owned(),
            expected: inputs.len(),
            got: grads.len(),
        });
    }
    for (input, grad) in inputs.iter().zip(grads) {
        if input.shape() != grad.shape() {
            return Err(OpError::mismatch(
                name,
                &[grad.shape(), input.shape()],
                "an adjoint must have its input's shape",
            ));
        }
    }
    Ok(())
}

impl Default for OpRegistry {
    /// The same as [`OpRegistry::new`]: all eighteen built-in ops.
    fn default() -> Self {
        OpRegistry::new()
    }
}

impl fmt::Debug for OpRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpRegistry")
            .field("ops", &self.ops.keys().collect::<Vec<_>>())
            .finish()
    }
}

/// One step of the chain rule through a built-in op: the seed's
/// `chain_rule_step(op_name, grad_output, inputs, output)`.
///
/// Dispatches on `name` among the eighteen built-in ops without building a
/// registry; use [`OpRegistry::chain_rule_step`] for a registry with a
/// caller's own ops.
///
/// # Errors
///
/// [`OpError::UnknownOp`] for a name that is not a built-in op, else the
/// op's own errors (wrong arity, mismatched shapes).
///
/// # Example
///
/// ```
/// use autograd_runtime::{chain_rule_step, OpError, Value};
///
/// // The seed's AddOp at seed 1: both inputs get 1.
/// let inputs = [Value::Scalar(12.0), Value::Scalar(3.0)];
/// let grads = chain_rule_step("add", &Value::Scalar(1.0), &inputs, &Value::Scalar(15.0))?;
/// assert_eq!(grads, vec![Value::Scalar(1.0), Value::Scalar(1.0)]);
///
/// let err = chain_rule_step("gelu", &Value::Scalar(1.0), &inputs, &Value::Scalar(15.0));
/// assert!(matches!(err, Err(OpError::UnknownOp { .. })));
/// # Ok::<(), OpError>(())
/// ```
pub fn chain_rule_step(
    name: &str,
    grad_output: &Value,
    inputs: &[Value],
    output: &Value,
) -> Result<Vec<Value>, OpError> {
    let op = ops::builtin(name).ok_or_else(|| OpError::UnknownOp {
        name: name.to_owned(),
    })?;
    op.backward(grad_output, inputs, output)
}

type ForwardFn = dyn Fn(&[Value]) -> Result<Value, OpError>;
type BackwardFn = dyn Fn(&Value, &[Value], &Value) -> Result<Vec<Value>, OpError>;

/// An op made of a caller's forward and backward closures: the escape hatch
/// for anything the eighteen rules do not cover, such as an iterative
/// solver differentiated through the implicit function theorem.
///
/// # Example
///
/// The seed's √c by bisection: the forward runs the solver, the backward
/// is dx/dc = 1/(2x) from the implicit function theorem.
///
/// ```
/// use autograd_runtime::{solve, CustomFunction, Differentiable, OpError, Value};
///
/// let sqrt_by_bisection = CustomFunction::new(
///     |inputs: &[Value]| match inputs {
///         [Value::Scalar(c)] => solve::bisect(|x| x * x - c, 0.0, c.max(1.0), 1e-14)
///             .map(Value::Scalar)
///             .map_err(|e| OpError::custom("sqrt_by_bisection", e.to_string())),
///         _ => Err(OpError::custom("sqrt_by_bisection", "takes one scalar")),
///     },
///     |grad: &Value, _: &[Value], output: &Value| match (grad, output) {
///         (Value::Scalar(g), Value::Scalar(x)) => Ok(vec![Value::Scalar(g / (2.0 * x))]),
///         _ => Err(OpError::custom("sqrt_by_bisection", "takes scalars")),
///     },
/// );
/// let c = [Value::Scalar(2.0)];
/// let x = sqrt_by_bisection.forward(&c)?;
/// let dc = sqrt_by_bisection.backward(&Value::Scalar(1.0), &c, &x)?;
/// assert!((x.as_scalar().unwrap() - 2f64.sqrt()).abs() < 1e-13);
/// assert!((dc[0].as_scalar().unwrap() - 0.3535534).abs() < 1e-7);
/// # Ok::<(), OpError>(())
/// ```
pub struct CustomFunction {
    forward: Box<ForwardFn>,
    backward: Box<BackwardFn>,
}

impl CustomFunction {
    /// An op whose forward is `forward(inputs)` and whose backward is
    /// `backward(grad_output, inputs, output)`.
    pub fn new<F, B>(forward: F, backward: B) -> CustomFunction
    where
        F: Fn(&[Value]) -> Result<Value, OpError> + 'static,
        B: Fn(&Value, &[Value], &Value) -> Result<Vec<Value>, OpError> + 'static,
    {
        CustomFunction {
            forward: Box::new(forward),
            backward: Box::new(backward),
        }
    }
}

impl Differentiable for CustomFunction {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        (self.forward)(inputs)
    }

    fn backward(
        &self,
        grad_output: &Value,
        inputs: &[Value],
        output: &Value,
    ) -> Result<Vec<Value>, OpError> {
        (self.backward)(grad_output, inputs, output)
    }
}

impl fmt::Debug for CustomFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CustomFunction").finish_non_exhaustive()
    }
}
