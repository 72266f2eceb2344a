//! The values the registry and the dynamic graph pass around.

use core::fmt;

use nalgebra::{DMatrix, DVector};

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
    /// # Example
    ///
    /// ```
    /// use autograd_runtime::{Shape, Value};
    ///
    /// let z = Value::zeros(Shape::Matrix { rows: 1, cols: 2 });
    /// assert_eq!(z.as_matrix().unwrap().sum(), 0.0);
    /// ```
    #[inline]
    pub fn zeros(shape: Shape) -> Value {
        Value::filled(shape, 0.0)
    }

    /// Ones of the given shape: the seed of a reverse pass.
    #[inline]
    pub fn ones(shape: Shape) -> Value {
        Value::filled(shape, 1.0)
    }

    fn filled(shape: Shape, x: f64) -> Value {
        match shape {
            Shape::Scalar => Value::Scalar(x),
            Shape::Matrix { rows, cols } => Value::Matrix(DMatrix::from_element(rows, cols, x)),
        }
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
    /// The number of elements (1 for a scalar).
    #[inline]
    pub fn len(self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Matrix { rows, cols } => rows.saturating_mul(cols),
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
