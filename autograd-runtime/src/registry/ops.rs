//! The eighteen built-in ops, each a unit struct implementing
//! [`Differentiable`] by calling [`crate::rules`].
//!
//! Element-wise ops take two scalars or two matrices of one shape (no
//! broadcasting); `matmul`, `sum`, `max`, `reshape` and `transpose` take
//! matrices. Every shape is checked before nalgebra sees it, so a mistake
//! is an [`OpError`], never a panic. The one op whose result has a shape
//! no input has, `matmul`, checks the result's element count against
//! [`MAX_ELEMENTS`](crate::MAX_ELEMENTS) and reserves its memory fallibly
//! ([`OpError::TooLarge`], [`OpError::OutOfMemory`]); every other result
//! is the size of an input.

use nalgebra::DMatrix;

use super::{Differentiable, OpError};
use crate::rules::{self as r, elementwise as ew, linalg, reductions, shape};
use crate::value::{Shape, Value, try_filled};

type M = DMatrix<f64>;

/// The names of the built-in ops, in the seed's order.
pub const BUILTIN_OPS: [&str; 18] = [
    "add",
    "sub",
    "mul",
    "div",
    "pow",
    "exp",
    "log",
    "sqrt",
    "relu",
    "sigmoid",
    "tanh",
    "sin",
    "cos",
    "matmul",
    "sum",
    "max",
    "reshape",
    "transpose",
];

/// The built-in op called `name`, if there is one. `reshape` comes without
/// a target shape (backward only), as in [`OpRegistry::new`](super::OpRegistry::new).
///
/// # Example
///
/// ```
/// use autograd_runtime::registry::ops::builtin;
/// use autograd_runtime::Value;
///
/// let exp = builtin("exp").unwrap();
/// assert_eq!(exp.forward(&[Value::Scalar(0.0)])?, Value::Scalar(1.0));
/// assert!(builtin("gelu").is_none());
/// # Ok::<(), autograd_runtime::OpError>(())
/// ```
pub fn builtin(name: &str) -> Option<&'static dyn Differentiable> {
    static RESHAPE: ReshapeOp = ReshapeOp { target: None };
    Some(match name {
        "add" => &AddOp,
        "sub" => &SubOp,
        "mul" => &MulOp,
        "div" => &DivOp,
        "pow" => &PowOp,
        "exp" => &ExpOp,
        "log" => &LogOp,
        "sqrt" => &SqrtOp,
        "relu" => &ReluOp,
        "sigmoid" => &SigmoidOp,
        "tanh" => &TanhOp,
        "sin" => &SinOp,
        "cos" => &CosOp,
        "matmul" => &MatMulOp,
        "sum" => &SumOp,
        "max" => &MaxOp,
        "reshape" => &RESHAPE,
        "transpose" => &TransposeOp,
        _ => return None,
    })
}

pub(super) fn builtin_boxed(name: &str) -> Option<Box<dyn Differentiable>> {
    Some(match name {
        "add" => Box::new(AddOp),
        "sub" => Box::new(SubOp),
        "mul" => Box::new(MulOp),
        "div" => Box::new(DivOp),
        "pow" => Box::new(PowOp),
        "exp" => Box::new(ExpOp),
        "log" => Box::new(LogOp),
        "sqrt" => Box::new(SqrtOp),
        "relu" => Box::new(ReluOp),
        "sigmoid" => Box::new(SigmoidOp),
        "tanh" => Box::new(TanhOp),
        "sin" => Box::new(SinOp),
        "cos" => Box::new(CosOp),
        "matmul" => Box::new(MatMulOp),
        "sum" => Box::new(SumOp),
        "max" => Box::new(MaxOp),
        "reshape" => Box::new(ReshapeOp { target: None }),
        "transpose" => Box::new(TransposeOp),
        _ => return None,
    })
}

// ---- checks shared by every op ----

fn arity<'a, const N: usize>(op: &str, inputs: &'a [Value]) -> Result<&'a [Value; N], OpError> {
    inputs.try_into().map_err(|_| OpError::WrongArity {
        op: op.to_owned(),
        expected: N,
        got: inputs.len(),
    })
}

fn matrix<'a>(op: &str, v: &'a Value) -> Result<&'a M, OpError> {
    v.as_matrix()
        .ok_or_else(|| OpError::mismatch(op, &[v.shape()], format!("`{op}` takes a matrix")))
}

/// The output and the incoming adjoint must both have the shape the
/// forward produces from these inputs.
fn check_output(op: &str, grad: &Value, output: &Value, expected: Shape) -> Result<(), OpError> {
    if output.shape() != expected {
        return Err(OpError::mismatch(
            op,
            &[output.shape(), expected],
            "the output must have the shape the forward produces",
        ));
    }
    if grad.shape() != expected {
        return Err(OpError::mismatch(
            op,
            &[grad.shape(), expected],
            "the incoming gradient must have the output's shape",
        ));
    }
    Ok(())
}

// ---- helpers for the element-wise rule shapes ----

/// Two scalars or two matrices of one shape.
enum Pair<'a> {
    Scalars(f64, f64),
    Matrices(&'a M, &'a M),
}

fn pair<'a>(op: &str, inputs: &'a [Value]) -> Result<Pair<'a>, OpError> {
    let [a, b] = arity::<2>(op, inputs)?;
    match (a, b) {
        (Value::Scalar(a), Value::Scalar(b)) => Ok(Pair::Scalars(*a, *b)),
        (Value::Matrix(ma), Value::Matrix(mb)) if ma.shape() == mb.shape() => {
            Ok(Pair::Matrices(ma, mb))
        }
        _ => Err(OpError::mismatch(
            op,
            &[a.shape(), b.shape()],
            "element-wise operands must have the same shape",
        )),
    }
}

fn binary_forward(
    op: &str,
    inputs: &[Value],
    scalar: fn(f64, f64) -> f64,
    matrix: fn(&M, &M) -> M,
) -> Result<Value, OpError> {
    Ok(match pair(op, inputs)? {
        Pair::Scalars(a, b) => Value::Scalar(scalar(a, b)),
        Pair::Matrices(a, b) => Value::Matrix(matrix(a, b)),
    })
}

/// What a binary element-wise backward reads, all of one shape.
enum Binary<'a> {
    Scalars {
        grad: f64,
        a: f64,
        b: f64,
        out: f64,
    },
    Matrices {
        grad: &'a M,
        a: &'a M,
        b: &'a M,
        out: &'a M,
    },
}

fn binary_backward<'a>(
    op: &str,
    grad: &'a Value,
    inputs: &'a [Value],
    output: &'a Value,
) -> Result<Binary<'a>, OpError> {
    let operands = pair(op, inputs)?;
    check_output(op, grad, output, inputs[0].shape())?;
    Ok(match (operands, grad, output) {
        (Pair::Scalars(a, b), Value::Scalar(grad), Value::Scalar(out)) => Binary::Scalars {
            grad: *grad,
            a,
            b,
            out: *out,
        },
        (Pair::Matrices(a, b), Value::Matrix(grad), Value::Matrix(out)) => {
            Binary::Matrices { grad, a, b, out }
        }
        // check_output has matched every shape to the inputs'
        _ => unreachable!("shapes checked above"),
    })
}

fn unary_forward(
    op: &str,
    inputs: &[Value],
    scalar: fn(f64) -> f64,
    matrix: fn(&M) -> M,
) -> Result<Value, OpError> {
    let [x] = arity::<1>(op, inputs)?;
    Ok(match x {
        Value::Scalar(x) => Value::Scalar(scalar(*x)),
        Value::Matrix(x) => Value::Matrix(matrix(x)),
    })
}

/// Which primal value a unary rule's backward reads besides the adjoint.
#[derive(Clone, Copy)]
enum Reads {
    /// The input `x` (ln, relu, sin, cos).
    Input,
    /// The output, to avoid recomputing it (exp, sqrt, sigmoid, tanh).
    Output,
}

/// The backward of a unary element-wise rule `rule(grad, x or out)`.
fn unary_backward(
    op: &str,
    grad: &Value,
    inputs: &[Value],
    output: &Value,
    reads: Reads,
    scalar: fn(f64, f64) -> f64,
    matrix: fn(&M, &M) -> M,
) -> Result<Vec<Value>, OpError> {
    let [x] = arity::<1>(op, inputs)?;
    check_output(op, grad, output, x.shape())?;
    let v = match reads {
        Reads::Input => x,
        Reads::Output => output,
    };
    Ok(vec![match (grad, v) {
        (Value::Scalar(g), Value::Scalar(v)) => Value::Scalar(scalar(*g, *v)),
        (Value::Matrix(g), Value::Matrix(v)) => Value::Matrix(matrix(g, v)),
        _ => unreachable!("shapes checked above"),
    }])
}

macro_rules! unit_op {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct $name;
    };
}

// ---- arithmetic ----

unit_op!(
    /// `a + b` (registered as `add`).
    AddOp
);
impl Differentiable for AddOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        binary_forward("add", inputs, r::add, ew::add)
    }
    // d(a+b)/da = 1, d(a+b)/db = 1. Each input gets its own copy of the
    // adjoint, so accumulating into one never changes the other (the seed's
    // AddOp aliasing trap cannot happen with owned values).
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        Ok(match binary_backward("add", g, inputs, out)? {
            Binary::Scalars { grad, .. } => vec![
                Value::Scalar(r::add_grad_lhs(grad)),
                Value::Scalar(r::add_grad_rhs(grad)),
            ],
            Binary::Matrices { grad, .. } => vec![
                Value::Matrix(ew::add_grad_lhs(grad)),
                Value::Matrix(ew::add_grad_rhs(grad)),
            ],
        })
    }
}

unit_op!(
    /// `a - b` (registered as `sub`).
    SubOp
);
impl Differentiable for SubOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        binary_forward("sub", inputs, r::sub, ew::sub)
    }
    // d(a-b)/da = 1, d(a-b)/db = -1
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        Ok(match binary_backward("sub", g, inputs, out)? {
            Binary::Scalars { grad, .. } => vec![
                Value::Scalar(r::sub_grad_lhs(grad)),
                Value::Scalar(r::sub_grad_rhs(grad)),
            ],
            Binary::Matrices { grad, .. } => vec![
                Value::Matrix(ew::sub_grad_lhs(grad)),
                Value::Matrix(ew::sub_grad_rhs(grad)),
            ],
        })
    }
}

unit_op!(
    /// `a · b`, element-wise on matrices (registered as `mul`).
    MulOp
);
impl Differentiable for MulOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        binary_forward("mul", inputs, r::mul, ew::mul)
    }
    // d(a·b)/da = b, d(a·b)/db = a
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        Ok(match binary_backward("mul", g, inputs, out)? {
            Binary::Scalars { grad, a, b, .. } => vec![
                Value::Scalar(r::mul_grad_lhs(grad, b)),
                Value::Scalar(r::mul_grad_rhs(grad, a)),
            ],
            Binary::Matrices { grad, a, b, .. } => vec![
                Value::Matrix(ew::mul_grad_lhs(grad, b)),
                Value::Matrix(ew::mul_grad_rhs(grad, a)),
            ],
        })
    }
}

unit_op!(
    /// `a / b`, element-wise on matrices (registered as `div`).
    DivOp
);
impl Differentiable for DivOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        binary_forward("div", inputs, r::div, ew::div)
    }
    // d(a/b)/da = 1/b, d(a/b)/db = -a/b² = -out/b
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        Ok(match binary_backward("div", g, inputs, out)? {
            Binary::Scalars { grad, b, out, .. } => vec![
                Value::Scalar(r::div_grad_lhs(grad, b)),
                Value::Scalar(r::div_grad_rhs(grad, b, out)),
            ],
            Binary::Matrices { grad, b, out, .. } => vec![
                Value::Matrix(ew::div_grad_lhs(grad, b)),
                Value::Matrix(ew::div_grad_rhs(grad, b, out)),
            ],
        })
    }
}

unit_op!(
    /// `a^b` (`powf`), element-wise on matrices (registered as `pow`).
    ///
    /// Its backward is [`rules::pow_grad_lhs`](crate::rules::pow_grad_lhs)
    /// and [`rules::pow_grad_rhs`](crate::rules::pow_grad_rhs), per element
    /// for matrices, with their conventions at 0, at negative bases and at
    /// infinities.
    PowOp
);
impl Differentiable for PowOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        binary_forward("pow", inputs, r::pow, ew::pow)
    }
    // d(a^b)/da = b·a^(b-1) (0 where b = 0), d(a^b)/db = out·ln a
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        Ok(match binary_backward("pow", g, inputs, out)? {
            Binary::Scalars { grad, a, b, out } => vec![
                Value::Scalar(r::pow_grad_lhs(grad, a, b)),
                Value::Scalar(r::pow_grad_rhs(grad, a, out)),
            ],
            Binary::Matrices { grad, a, b, out } => vec![
                Value::Matrix(ew::pow_grad_lhs(grad, a, b)),
                Value::Matrix(ew::pow_grad_rhs(grad, a, out)),
            ],
        })
    }
}

// ---- elementary functions and activations ----

macro_rules! unary_op {
    ($(#[$doc:meta])* $Op:ident, $name:literal, $f:ident, $grad:ident, $reads:ident) => {
        unit_op!($(#[$doc])* $Op);
        impl Differentiable for $Op {
            fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
                unary_forward($name, inputs, r::$f, ew::$f)
            }
            fn backward(
                &self,
                g: &Value,
                inputs: &[Value],
                out: &Value,
            ) -> Result<Vec<Value>, OpError> {
                unary_backward($name, g, inputs, out, Reads::$reads, r::$grad, ew::$grad)
            }
        }
    };
}

// d/dx e^x = e^x = out
unary_op!(
    /// `e^x`, element-wise on matrices (registered as `exp`).
    ExpOp, "exp", exp, exp_grad, Output
);
// d/dx ln x = 1/x
unary_op!(
    /// The natural logarithm, element-wise on matrices (registered as `log`).
    LogOp, "log", ln, ln_grad, Input
);
// d/dx √x = 1/(2·out)
unary_op!(
    /// `√x`, element-wise on matrices (registered as `sqrt`).
    SqrtOp, "sqrt", sqrt, sqrt_grad, Output
);
// d/dx relu x = [x > 0]: 0 at ±0, the constant piece (`rules::relu_grad`)
unary_op!(
    /// `max(0, x)`, element-wise on matrices (registered as `relu`).
    ReluOp, "relu", relu, relu_grad, Input
);
// dσ/dx = out·(1 - out)
unary_op!(
    /// The logistic sigmoid, element-wise on matrices (registered as `sigmoid`).
    SigmoidOp, "sigmoid", sigmoid, sigmoid_grad, Output
);
// d/dx tanh x = 1 - out²
unary_op!(
    /// `tanh x`, element-wise on matrices (registered as `tanh`).
    TanhOp, "tanh", tanh, tanh_grad, Output
);
// d/dx sin x = cos x
unary_op!(
    /// `sin x`, element-wise on matrices (registered as `sin`).
    SinOp, "sin", sin, sin_grad, Input
);
// d/dx cos x = -sin x
unary_op!(
    /// `cos x`, element-wise on matrices (registered as `cos`).
    CosOp, "cos", cos, cos_grad, Input
);

// ---- matrix product ----

unit_op!(
    /// The matrix product `a·b` (registered as `matmul`).
    MatMulOp
);

fn matmul_operands<'a>(op: &str, inputs: &'a [Value]) -> Result<(&'a M, &'a M), OpError> {
    let [a, b] = arity::<2>(op, inputs)?;
    let (a, b) = (matrix(op, a)?, matrix(op, b)?);
    if a.ncols() != b.nrows() {
        return Err(OpError::mismatch(
            op,
            &[inputs[0].shape(), inputs[1].shape()],
            "the left operand's column count must equal the right operand's row count",
        ));
    }
    Ok((a, b))
}

impl Differentiable for MatMulOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        let (a, b) = matmul_operands("matmul", inputs)?;
        // The one new shape among the ops: checked before allocating.
        let mut out = try_filled("matmul", a.nrows(), b.ncols(), 0.0)?;
        linalg::matmul_into(&mut out, a, b);
        Ok(Value::Matrix(out))
    }
    // dL/dA = grad·Bᵀ, dL/dB = Aᵀ·grad
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        let (a, b) = matmul_operands("matmul", inputs)?;
        let expected = Shape::Matrix {
            rows: a.nrows(),
            cols: b.ncols(),
        };
        check_output("matmul", g, out, expected)?;
        let grad = matrix("matmul", g)?;
        Ok(vec![
            Value::Matrix(linalg::matmul_grad_lhs(grad, b)),
            Value::Matrix(linalg::matmul_grad_rhs(grad, a)),
        ])
    }
}

// ---- reductions ----

unit_op!(
    /// The sum of a matrix's elements, a scalar (registered as `sum`).
    SumOp
);
impl Differentiable for SumOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        let [x] = arity::<1>("sum", inputs)?;
        Ok(Value::Scalar(reductions::sum(matrix("sum", x)?)))
    }
    // d(Σx)/dx_i = 1: broadcast the scalar adjoint
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        let [x] = arity::<1>("sum", inputs)?;
        let x = matrix("sum", x)?;
        check_output("sum", g, out, Shape::Scalar)?;
        let grad = g.as_scalar().unwrap_or_default();
        Ok(vec![Value::Matrix(reductions::sum_grad(
            grad,
            x.nrows(),
            x.ncols(),
        ))])
    }
}

unit_op!(
    /// The largest element of a matrix, a scalar (registered as `max`).
    ///
    /// The winning index is not stored: the backward recomputes it from the
    /// input with the same first-wins scan
    /// ([`rules::reductions::max`](crate::rules::reductions::max)), so it is
    /// the index the forward took.
    MaxOp
);

fn nonempty<'a>(op: &str, x: &'a Value) -> Result<&'a M, OpError> {
    let m = matrix(op, x)?;
    if m.is_empty() {
        return Err(OpError::mismatch(
            op,
            &[x.shape()],
            format!("`{op}` needs at least one element"),
        ));
    }
    Ok(m)
}

impl Differentiable for MaxOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        let [x] = arity::<1>("max", inputs)?;
        Ok(Value::Scalar(reductions::max(nonempty("max", x)?).0))
    }
    // d(max x)/dx_i = 1 at the winning index, 0 elsewhere
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        let [x] = arity::<1>("max", inputs)?;
        let x = nonempty("max", x)?;
        check_output("max", g, out, Shape::Scalar)?;
        let grad = g.as_scalar().unwrap_or_default();
        let (_, index) = reductions::max(x);
        Ok(vec![Value::Matrix(reductions::max_grad(
            grad,
            x.nrows(),
            x.ncols(),
            index,
        ))])
    }
}

// ---- shape changes ----

/// A matrix viewed as `rows × cols` in nalgebra's column-major element
/// order (registered as `reshape`, without a target shape).
///
/// The target shape is per-call state, the one op of the eighteen that
/// carries any (as in the seed). The registry's `reshape` has none: its
/// backward reads the input's shape and works for every reshape, while its
/// forward reports [`OpError::MissingTarget`]. Build a forward reshape with
/// [`ReshapeOp::new`], or use [`Graph::reshape`](crate::graph::Graph::reshape).
///
/// # Example
///
/// ```
/// use autograd_runtime::{Differentiable, ReshapeOp, Value};
/// use nalgebra::DMatrix;
///
/// let x = Value::Matrix(DMatrix::from_iterator(2, 6, (0..12).map(f64::from)));
/// let y = ReshapeOp::new(3, 4).forward(&[x.clone()])?;
/// assert_eq!(y.shape().to_string(), "3×4");
/// let dx = ReshapeOp::new(3, 4).backward(&y, &[x.clone()], &y)?;
/// assert_eq!(dx, vec![x]);
/// # Ok::<(), autograd_runtime::OpError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReshapeOp {
    target: Option<(usize, usize)>,
}

impl ReshapeOp {
    /// A reshape to `rows × cols`.
    pub fn new(rows: usize, cols: usize) -> ReshapeOp {
        ReshapeOp {
            target: Some((rows, cols)),
        }
    }

    /// The target shape, `None` for the registry's backward-only entry.
    pub fn target(&self) -> Option<(usize, usize)> {
        self.target
    }
}

fn reshape_fits(op: &str, x: &M, rows: usize, cols: usize) -> Result<(), OpError> {
    if rows.checked_mul(cols) != Some(x.len()) {
        return Err(OpError::mismatch(
            op,
            &[
                Shape::Matrix {
                    rows: x.nrows(),
                    cols: x.ncols(),
                },
                Shape::Matrix { rows, cols },
            ],
            "a reshape keeps the number of elements",
        ));
    }
    Ok(())
}

impl Differentiable for ReshapeOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        let [x] = arity::<1>("reshape", inputs)?;
        let x = matrix("reshape", x)?;
        let (rows, cols) = self.target.ok_or_else(|| OpError::MissingTarget {
            op: "reshape".to_owned(),
        })?;
        reshape_fits("reshape", x, rows, cols)?;
        Ok(Value::Matrix(shape::reshape(x, rows, cols)))
    }
    // reshape moves no value: reshape the adjoint back to the input's shape
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        let [x] = arity::<1>("reshape", inputs)?;
        let x = matrix("reshape", x)?;
        let out_m = matrix("reshape", out)?;
        if let Some((rows, cols)) = self.target {
            reshape_fits("reshape", x, rows, cols)?;
        }
        reshape_fits("reshape", x, out_m.nrows(), out_m.ncols())?;
        check_output("reshape", g, out, out.shape())?;
        let grad = matrix("reshape", g)?;
        Ok(vec![Value::Matrix(shape::reshape_grad(
            grad,
            x.nrows(),
            x.ncols(),
        ))])
    }
}

unit_op!(
    /// The transpose of a matrix (registered as `transpose`).
    TransposeOp
);
impl Differentiable for TransposeOp {
    fn forward(&self, inputs: &[Value]) -> Result<Value, OpError> {
        let [x] = arity::<1>("transpose", inputs)?;
        Ok(Value::Matrix(shape::transpose(matrix("transpose", x)?)))
    }
    // transpose is its own inverse: the adjoint is gradᵀ
    fn backward(&self, g: &Value, inputs: &[Value], out: &Value) -> Result<Vec<Value>, OpError> {
        let [x] = arity::<1>("transpose", inputs)?;
        let x = matrix("transpose", x)?;
        let expected = Shape::Matrix {
            rows: x.ncols(),
            cols: x.nrows(),
        };
        check_output("transpose", g, out, expected)?;
        Ok(vec![Value::Matrix(shape::transpose_grad(matrix(
            "transpose",
            g,
        )?))])
    }
}
