//! The values the registry and the dynamic graph pass around, and the one
//! place a matrix of a new shape is allocated.

use core::fmt;

use nalgebra::{DMatrix, DVector};

use crate::registry::OpError;

/// The most elements a matrix of a new shape may have in the registry,
/// the dynamic graph and [`Value::zeros`]: 2³¹, 16 GiB of `f64`.
///
/// A new shape is one that no existing value has: the product of a
/// `rows × k` and a `k × cols` matrix, or a [`Shape`] handed to
/// [`Value::zeros`]. Its element count is computed with checked arithmetic
/// and compared with this limit before anything is allocated, so a
/// `2³³ × 0` times `0 × 2³³` product is an [`OpError::TooLarge`], never a
/// wrapped-around size or an allocation that aborts the process. Below the
/// limit the memory is reserved with `try_reserve_exact`, and a failure is
/// an [`OpError::OutOfMemory`].
///
/// The rules of [`crate::rules`], which the generated code calls on the
/// caller's own matrices, set no limit of their own: they check the
/// element count for overflow and reserve fallibly, and panic with a
/// message where these fail.
pub const MAX_ELEMENTS: usize = 1 << 31;

/// A `rows × cols` matrix of `x`: checked against [`MAX_ELEMENTS`], then
/// reserved fallibly. `op` names the operation in the error.
pub(crate) fn try_filled(
    op: &str,
    rows: usize,
    cols: usize,
    x: f64,
) -> Result<DMatrix<f64>, OpError> {
    try_filled_within(op, rows, cols, x, MAX_ELEMENTS)
}

/// A value of `like`'s shape filled with `x`: the seed or a zero adjoint of
/// a value that exists, so no element limit applies, only a fallible
/// reservation.
pub(crate) fn try_filled_like(op: &str, like: &Value, x: f64) -> Result<Value, OpError> {
    Ok(match like {
        Value::Scalar(_) => Value::Scalar(x),
        Value::Matrix(m) => {
            Value::Matrix(try_filled_within(op, m.nrows(), m.ncols(), x, usize::MAX)?)
        }
    })
}

fn try_filled_within(
    op: &str,
    rows: usize,
    cols: usize,
    x: f64,
    limit: usize,
) -> Result<DMatrix<f64>, OpError> {
    let len = rows
        .checked_mul(cols)
        .filter(|&len| len <= limit)
        .ok_or_else(|| OpError::TooLarge {
            op: op.to_owned(),
            rows,
            cols,
        })?;
    reserved(len, x)
        .map(|data| DMatrix::from_vec(rows, cols, data))
        .ok_or_else(|| OpError::OutOfMemory {
            op: op.to_owned(),
            rows,
            cols,
        })
}

/// A `rows × cols` matrix of `x` for the rules, whose shapes come from
/// their operands: never a matrix whose storage is smaller than its shape
/// (nalgebra's own constructors multiply `rows · cols` with wrapping
/// arithmetic in release builds).
///
/// # Panics
///
/// With a message naming `op` and the shape when `rows · cols` overflows
/// `usize` or the memory cannot be reserved.
pub(crate) fn filled<T: nalgebra::Scalar>(op: &str, rows: usize, cols: usize, x: T) -> DMatrix<T> {
    let Some(len) = rows.checked_mul(cols) else {
        panic!("`{op}`: a {rows}×{cols} matrix has more elements than `usize` counts");
    };
    match reserved(len, x) {
        Some(data) => DMatrix::from_vec(rows, cols, data),
        None => panic!(
            "{}",
            OpError::OutOfMemory {
                op: op.to_owned(),
                rows,
                cols
            }
        ),
    }
}

/// `len` copies of `x`, or `None` when the memory cannot be reserved.
fn reserved<T: Clone>(len: usize, x: T) -> Option<Vec<T>> {
    let mut data = Vec::new();
    data.try_reserve_exact(len).ok()?;
    data.resize(len, x);
    Some(data)
}

/// A scalar or a matrix: what an op of the registry consumes and produces.
///
/// # Example
///
/// ```
/// use autograd_runtime::{Shape, Value};
/// use nalgebra::DMatrix;
///
/// let s = Value::from(2.0);
/// let m = Value::from(DMatrix::from_element(2, 3, 1.0));
/// assert_eq!(s.shape(), Shape::Scalar);
/// assert_eq!(m.shape(), Shape::Matrix { rows: 2, cols: 3 });
/// assert_eq!(s.as_scalar(), Some(2.0));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A single `f64`.
    Scalar(f64),
    /// A dense, column-major `nalgebra` matrix.
    Matrix(DMatrix<f64>),
}

impl Value {
    /// The value's shape.
    #[inline]
    pub fn shape(&self) -> Shape {
        match self {
            Value::Scalar(_) => Shape::Scalar,
            Value::Matrix(m) => Shape::Matrix {
                rows: m.nrows(),
                cols: m.ncols(),
            },
        }
    }

    /// The scalar, or `None` for a matrix.
    #[inline]
    pub fn as_scalar(&self) -> Option<f64> {
        match self {
            Value::Scalar(x) => Some(*x),
            Value::Matrix(_) => None,
        }
    }

    /// The matrix, or `None` for a scalar.
    #[inline]
    pub fn as_matrix(&self) -> Option<&DMatrix<f64>> {
        match self {
            Value::Scalar(_) => None,
            Value::Matrix(m) => Some(m),
        }
    }

    /// Zeros of the given shape.
    ///
    /// # Errors
    ///
    /// [`OpError::TooLarge`] (op `zeros`) for a matrix of more than
    /// [`MAX_ELEMENTS`] elements, or whose element count overflows `usize`;
    /// [`OpError::OutOfMemory`] when the memory cannot be reserved.
    ///
    /// # Example
    ///
    /// ```
    /// use autograd_runtime::{OpError, Shape, Value};
    ///
    /// let z = Value::zeros(Shape::Matrix { rows: 1, cols: 2 })?;
    /// assert_eq!(z.as_matrix().unwrap().sum(), 0.0);
    ///
    /// let huge = Value::zeros(Shape::Matrix { rows: usize::MAX, cols: 2 });
    /// assert!(matches!(huge, Err(OpError::TooLarge { .. })));
    /// # Ok::<(), OpError>(())
    /// ```
    #[inline]
    pub fn zeros(shape: Shape) -> Result<Value, OpError> {
        Value::filled(shape, 0.0, "zeros")
    }

    /// Ones of the given shape: the seed of a reverse pass.
    ///
    /// # Errors
    ///
    /// As [`Value::zeros`], with op `ones`.
    #[inline]
    pub fn ones(shape: Shape) -> Result<Value, OpError> {
        Value::filled(shape, 1.0, "ones")
    }

    fn filled(shape: Shape, x: f64, op: &str) -> Result<Value, OpError> {
        Ok(match shape {
            Shape::Scalar => Value::Scalar(x),
            Shape::Matrix { rows, cols } => Value::Matrix(try_filled(op, rows, cols, x)?),
        })
    }

    /// Whether every element is finite (neither infinite nor NaN).
    pub fn is_finite(&self) -> bool {
        match self {
            Value::Scalar(x) => x.is_finite(),
            Value::Matrix(m) => m.iter().all(|x| x.is_finite()),
        }
    }
}

impl From<f64> for Value {
    #[inline]
    fn from(x: f64) -> Self {
        Value::Scalar(x)
    }
}

impl From<DMatrix<f64>> for Value {
    #[inline]
    fn from(m: DMatrix<f64>) -> Self {
        Value::Matrix(m)
    }
}

/// A column vector becomes an `n × 1` matrix.
impl From<DVector<f64>> for Value {
    #[inline]
    fn from(v: DVector<f64>) -> Self {
        let n = v.len();
        Value::Matrix(v.reshape_generic(nalgebra::Dyn(n), nalgebra::Dyn(1)))
    }
}

/// A scalar prints as a number, a matrix as nalgebra prints it.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Scalar(x) => fmt::Display::fmt(x, f),
            Value::Matrix(m) => fmt::Display::fmt(m, f),
        }
    }
}

/// The shape of a [`Value`]; printed as `scalar` or `2×3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A single number.
    Scalar,
    /// A `rows × cols` matrix.
    Matrix {
        /// Number of rows.
        rows: usize,
        /// Number of columns.
        cols: usize,
    },
}

impl Shape {
    /// The number of elements (1 for a scalar), saturating at `usize::MAX`
    /// for a shape whose element count overflows `usize` (no value has
    /// such a shape; see [`checked_len`](Shape::checked_len)).
    #[inline]
    pub fn len(self) -> usize {
        self.checked_len().unwrap_or(usize::MAX)
    }

    /// The number of elements (1 for a scalar), `None` where `rows · cols`
    /// overflows `usize`.
    ///
    /// # Example
    ///
    /// ```
    /// use autograd_runtime::Shape;
    ///
    /// assert_eq!(Shape::Matrix { rows: 2, cols: 3 }.checked_len(), Some(6));
    /// assert_eq!(Shape::Matrix { rows: 1 << 40, cols: 0 }.checked_len(), Some(0));
    /// assert_eq!(Shape::Matrix { rows: usize::MAX, cols: 2 }.checked_len(), None);
    /// ```
    #[inline]
    pub fn checked_len(self) -> Option<usize> {
        match self {
            Shape::Scalar => Some(1),
            Shape::Matrix { rows, cols } => rows.checked_mul(cols),
        }
    }

    /// Whether the shape holds no element (a matrix with a zero dimension).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Shape::Scalar => f.write_str("scalar"),
            Shape::Matrix { rows, cols } => write!(f, "{rows}×{cols}"),
        }
    }
}
