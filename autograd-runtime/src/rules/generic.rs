//! The backward rules dispatched on their operands' types.
//!
//! `#[differentiable]` calls the scalar rules directly when it can see that
//! every operand is an `f32`/`f64`. Where it cannot — nalgebra values, or
//! the result of a call — it calls the functions here, which take the
//! output adjoint, every operand and the output by reference and let trait
//! resolution pick the rule: a scalar rule for scalars, and for matrices the
//! matrix rule or the scalar rule applied element by element. No formula
//! is written here; every impl delegates to a rule of [`crate::rules`].
//!
//! Supported operand types: `f32`, `f64`, `DMatrix<f64>`, `DVector<f64>`,
//! their transposes (`RowDVector<f64>`) and the 1×1 `Matrix1<f64>` of `xᵀ·y`;
//! products `DMatrix·DMatrix`, `DMatrix·DVector`, `xᵀ·y`, `x·yᵀ`, `xᵀ·A` and
//! scalar·matrix.

use nalgebra::{DMatrix, DVector, Dyn, Matrix1, RowDVector};

use super::{linalg, reductions, shape};
use crate::rules as s;

/// A matrix or vector the dispatched rules accept, viewed as a `DMatrix`
/// so the matrix rules are written once, for `DMatrix`.
pub trait AsDMatrix: Sized {
    /// The value as a `DMatrix` (a copy for vectors).
    fn to_dmatrix(&self) -> DMatrix<f64>;
    /// Back from a `DMatrix` of the same shape.
    fn from_dmatrix(m: DMatrix<f64>) -> Self;
}

impl AsDMatrix for DMatrix<f64> {
    #[inline]
    fn to_dmatrix(&self) -> DMatrix<f64> {
        self.clone()
    }
    #[inline]
    fn from_dmatrix(m: DMatrix<f64>) -> Self {
        m
    }
}

impl AsDMatrix for DVector<f64> {
    #[inline]
    fn to_dmatrix(&self) -> DMatrix<f64> {
        DMatrix::from_column_slice(self.nrows(), 1, self.as_slice())
    }
    #[inline]
    fn from_dmatrix(m: DMatrix<f64>) -> Self {
        DVector::from_column_slice(m.as_slice())
    }
}

impl AsDMatrix for Matrix1<f64> {
    #[inline]
    fn to_dmatrix(&self) -> DMatrix<f64> {
        DMatrix::from_element(1, 1, self[0])
    }
    #[inline]
    fn from_dmatrix(m: DMatrix<f64>) -> Self {
        Matrix1::new(m[0])
    }
}

impl AsDMatrix for RowDVector<f64> {
    #[inline]
    fn to_dmatrix(&self) -> DMatrix<f64> {
        DMatrix::from_row_slice(1, self.ncols(), self.as_slice())
    }
    #[inline]
    fn from_dmatrix(m: DMatrix<f64>) -> Self {
        RowDVector::from_row_slice(m.as_slice())
    }
}

// ---- binary rules ----

macro_rules! binary_rule {
    ($(#[$doc:meta])* $trait:ident, $lhs:ident, $rhs:ident) => {
        $(#[$doc])*
        pub trait $trait<B>: Sized {
            /// The operation's result type.
            type Out;
            /// The adjoint of the left operand.
            fn grad_lhs(grad: &Self::Out, a: &Self, b: &B, out: &Self::Out) -> Self;
            /// The adjoint of the right operand.
            fn grad_rhs(grad: &Self::Out, a: &Self, b: &B, out: &Self::Out) -> B;
        }

        /// The adjoint of the left operand, by the operands' types.
        #[inline(always)]
        pub fn $lhs<A: $trait<B>, B>(grad: &A::Out, a: &A, b: &B, out: &A::Out) -> A {
            A::grad_lhs(grad, a, b, out)
        }

        /// The adjoint of the right operand, by the operands' types.
        #[inline(always)]
        pub fn $rhs<A: $trait<B>, B>(grad: &A::Out, a: &A, b: &B, out: &A::Out) -> B {
            A::grad_rhs(grad, a, b, out)
        }
    };
}

binary_rule!(
    /// `a + b`.
    AddRule, add_grad_lhs, add_grad_rhs
);
binary_rule!(
    /// `a - b`.
    SubRule, sub_grad_lhs, sub_grad_rhs
);
binary_rule!(
    /// `a * b`: the product of scalars, the matrix product, or scaling.
    MulRule, mul_grad_lhs, mul_grad_rhs
);
binary_rule!(
    /// `a / b`.
    DivRule, div_grad_lhs, div_grad_rhs
);
binary_rule!(
    /// `a.powf(b)`.
    PowRule, pow_grad_lhs, pow_grad_rhs
);
binary_rule!(
    /// `a.max(b)` of two scalars.
    MaxRule, max_grad_lhs, max_grad_rhs
);
binary_rule!(
    /// `a.min(b)` of two scalars.
    MinRule, min_grad_lhs, min_grad_rhs
);
binary_rule!(
    /// `a.component_mul(&b)`.
    ComponentMulRule, component_mul_grad_lhs, component_mul_grad_rhs
);
binary_rule!(
    /// `a.component_div(&b)`.
    ComponentDivRule, component_div_grad_lhs, component_div_grad_rhs
);

// The operand names come from the invocation, so the argument lists
// written there can refer to them.
macro_rules! scalar_binary {
    ($t:ty, $a:ident, $b:ident, $out:ident: $($trait:ident => $lhs:ident($($la:ident),*), $rhs:ident($($ra:ident),*);)*) => {$(
        impl $trait<$t> for $t {
            type Out = $t;
            #[inline(always)]
            fn grad_lhs(grad: &$t, $a: &$t, $b: &$t, $out: &$t) -> $t {
                let _ = ($a, $b, $out);
                s::$lhs(*grad $(, *$la)*)
            }
            #[inline(always)]
            fn grad_rhs(grad: &$t, $a: &$t, $b: &$t, $out: &$t) -> $t {
                let _ = ($a, $b, $out);
                s::$rhs(*grad $(, *$ra)*)
            }
        }
    )*};
}

macro_rules! scalar_binaries {
    ($($t:ty),*) => {$(
        scalar_binary!($t, a, b, out:
            AddRule => add_grad_lhs(), add_grad_rhs();
            SubRule => sub_grad_lhs(), sub_grad_rhs();
            MulRule => mul_grad_lhs(b), mul_grad_rhs(a);
            DivRule => div_grad_lhs(b), div_grad_rhs(b, out);
            PowRule => pow_grad_lhs(a, b), pow_grad_rhs(a, out);
            MaxRule => max_grad_lhs(a, b), max_grad_rhs(a, b);
            MinRule => min_grad_lhs(a, b), min_grad_rhs(a, b);
        );
    )*};
}
scalar_binaries!(f32, f64);

/// Element-wise binary rules on two matrices of the same shape: the scalar
/// rule per element.
macro_rules! elementwise_binary {
    ($m:ty, $a:ident, $b:ident, $out:ident: $($trait:ident => $lhs:ident($($la:ident),*), $rhs:ident($($ra:ident),*);)*) => {$(
        impl $trait<$m> for $m {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, $a: &$m, $b: &$m, $out: &$m) -> $m {
                let mut g = grad.clone();
                for (i, gi) in g.iter_mut().enumerate() {
                    let ($a, $b, $out) = ($a[i], $b[i], $out[i]);
                    let _ = ($a, $b, $out);
                    *gi = s::$lhs(*gi $(, $la)*);
                }
                g
            }
            #[inline]
            fn grad_rhs(grad: &$m, $a: &$m, $b: &$m, $out: &$m) -> $m {
                let mut g = grad.clone();
                for (i, gi) in g.iter_mut().enumerate() {
                    let ($a, $b, $out) = ($a[i], $b[i], $out[i]);
                    let _ = ($a, $b, $out);
                    *gi = s::$rhs(*gi $(, $ra)*);
                }
                g
            }
        }
    )*};
}

macro_rules! elementwise_binaries {
    ($($m:ty),*) => {$(
        elementwise_binary!($m, a, b, out:
            AddRule => add_grad_lhs(), add_grad_rhs();
            SubRule => sub_grad_lhs(), sub_grad_rhs();
            ComponentMulRule => mul_grad_lhs(b), mul_grad_rhs(a);
            ComponentDivRule => div_grad_lhs(b), div_grad_rhs(b, out);
        );
    )*};
}
elementwise_binaries!(DMatrix<f64>, DVector<f64>, RowDVector<f64>, Matrix1<f64>);

/// The matrix product: the rules of [`linalg`].
macro_rules! matmul {
    ($($a:ty, $b:ty => $out:ty;)*) => {$(
        impl MulRule<$b> for $a {
            type Out = $out;
            #[inline]
            fn grad_lhs(grad: &$out, _a: &$a, b: &$b, _out: &$out) -> $a {
                <$a>::from_dmatrix(linalg::matmul_grad_lhs(&grad.to_dmatrix(), &b.to_dmatrix()))
            }
            #[inline]
            fn grad_rhs(grad: &$out, a: &$a, _b: &$b, _out: &$out) -> $b {
                <$b>::from_dmatrix(linalg::matmul_grad_rhs(&grad.to_dmatrix(), &a.to_dmatrix()))
            }
        }
    )*};
}
matmul! {
    DMatrix<f64>, DMatrix<f64> => DMatrix<f64>;
    DMatrix<f64>, DVector<f64> => DVector<f64>;
    RowDVector<f64>, DMatrix<f64> => RowDVector<f64>;
    DVector<f64>, RowDVector<f64> => DMatrix<f64>;
    RowDVector<f64>, DVector<f64> => Matrix1<f64>;
}

/// Scaling by a scalar: the scalar product rule per element, summed for
/// the scalar's adjoint.
macro_rules! scaling {
    ($($m:ty),*) => {$(
        impl MulRule<$m> for f64 {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, _a: &f64, b: &$m, _out: &$m) -> f64 {
                grad.iter().zip(b.iter()).map(|(g, b)| s::mul_grad_lhs(*g, *b)).sum()
            }
            #[inline]
            fn grad_rhs(grad: &$m, a: &f64, _b: &$m, _out: &$m) -> $m {
                grad.map(|g| s::mul_grad_rhs(g, *a))
            }
        }
        impl MulRule<f64> for $m {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, _a: &$m, b: &f64, _out: &$m) -> $m {
                grad.map(|g| s::mul_grad_lhs(g, *b))
            }
            #[inline]
            fn grad_rhs(grad: &$m, a: &$m, _b: &f64, _out: &$m) -> f64 {
                grad.iter().zip(a.iter()).map(|(g, a)| s::mul_grad_rhs(*g, *a)).sum()
            }
        }
        impl DivRule<f64> for $m {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, _a: &$m, b: &f64, _out: &$m) -> $m {
                grad.map(|g| s::div_grad_lhs(g, *b))
            }
            #[inline]
            fn grad_rhs(grad: &$m, _a: &$m, b: &f64, out: &$m) -> f64 {
                grad.iter().zip(out.iter()).map(|(g, o)| s::div_grad_rhs(*g, *b, *o)).sum()
            }
        }
    )*};
}
scaling!(DMatrix<f64>, DVector<f64>, RowDVector<f64>, Matrix1<f64>);

// ---- unary rules ----

macro_rules! unary_rule {
    ($(#[$doc:meta])* $trait:ident, $func:ident) => {
        $(#[$doc])*
        #[diagnostic::on_unimplemented(
            message = "autograd differentiates this operation for `f32`/`f64` (and where it is element-wise, for nalgebra matrices), not for `{Self}`",
            note = "on nalgebra matrices `exp()`, `ln()`, `sqrt()`, `sin()`, `cos()`, `tanh()` are not element-wise (a square matrix's `exp()` is the matrix exponential); write `m.map(f64::exp)` for the element-wise function"
        )]
        pub trait $trait: Sized {
            /// The operation's result type.
            type Out;
            /// The adjoint of the operand.
            fn grad(grad: &Self::Out, x: &Self, out: &Self::Out) -> Self;
        }

        /// The adjoint of the operand, by its type.
        #[inline(always)]
        pub fn $func<A: $trait>(grad: &A::Out, x: &A, out: &A::Out) -> A {
            A::grad(grad, x, out)
        }
    };
}

unary_rule!(
    /// `-x`.
    NegRule, neg_grad
);
unary_rule!(
    /// `x.exp()` of a scalar.
    ExpRule, exp_grad
);
unary_rule!(
    /// `x.ln()` of a scalar.
    LnRule, ln_grad
);
unary_rule!(
    /// `x.sqrt()` of a scalar.
    SqrtRule, sqrt_grad
);
unary_rule!(
    /// `x.sin()` of a scalar.
    SinRule, sin_grad
);
unary_rule!(
    /// `x.cos()` of a scalar.
    CosRule, cos_grad
);
unary_rule!(
    /// `x.tanh()` of a scalar.
    TanhRule, tanh_grad
);
unary_rule!(
    /// `x.abs()` of a scalar.
    AbsRule, abs_grad
);
unary_rule!(
    /// `x.relu()`, element-wise on matrices.
    ReluRule, relu_grad
);
unary_rule!(
    /// `x.sigmoid()`, element-wise on matrices.
    SigmoidRule, sigmoid_grad
);
unary_rule!(
    /// `m.transpose()`.
    TransposeRule, transpose_grad
);
unary_rule!(
    /// `m.sum()`.
    SumRule, sum_grad
);
unary_rule!(
    /// `m.max()`: the largest element, the first on a tie.
    MaxElementRule, max_element_grad
);

macro_rules! scalar_unary {
    ($t:ty, $x:ident, $out:ident: $($trait:ident => $func:ident($($arg:ident),*);)*) => {$(
        impl $trait for $t {
            type Out = $t;
            #[inline(always)]
            fn grad(grad: &$t, $x: &$t, $out: &$t) -> $t {
                let _ = ($x, $out);
                s::$func(*grad $(, *$arg)*)
            }
        }
    )*};
}

macro_rules! scalar_unaries {
    ($($t:ty),*) => {$(
        scalar_unary!($t, x, out:
            NegRule => neg_grad();
            ExpRule => exp_grad(out);
            LnRule => ln_grad(x);
            SqrtRule => sqrt_grad(out);
            SinRule => sin_grad(x);
            CosRule => cos_grad(x);
            TanhRule => tanh_grad(out);
            AbsRule => abs_grad(x);
            ReluRule => relu_grad(x);
            SigmoidRule => sigmoid_grad(out);
        );
    )*};
}
scalar_unaries!(f32, f64);

macro_rules! elementwise_unaries {
    ($($m:ty),*) => {$(
        impl NegRule for $m {
            type Out = $m;
            #[inline]
            fn grad(grad: &$m, _x: &$m, _out: &$m) -> $m {
                grad.map(s::neg_grad)
            }
        }
        impl ReluRule for $m {
            type Out = $m;
            #[inline]
            fn grad(grad: &$m, x: &$m, _out: &$m) -> $m {
                grad.zip_map(x, s::relu_grad)
            }
        }
        impl SigmoidRule for $m {
            type Out = $m;
            #[inline]
            fn grad(grad: &$m, _x: &$m, out: &$m) -> $m {
                grad.zip_map(out, s::sigmoid_grad)
            }
        }
        impl SumRule for $m {
            type Out = f64;
            #[inline]
            fn grad(grad: &f64, x: &$m, _out: &f64) -> $m {
                <$m>::from_dmatrix(reductions::sum_grad(*grad, x.nrows(), x.ncols()))
            }
        }
        impl MaxElementRule for $m {
            type Out = f64;
            #[inline]
            fn grad(grad: &f64, x: &$m, _out: &f64) -> $m {
                let m = x.to_dmatrix();
                let (_, index) = reductions::max(&m);
                <$m>::from_dmatrix(reductions::max_grad(*grad, m.nrows(), m.ncols(), index))
            }
        }
    )*};
}
elementwise_unaries!(DMatrix<f64>, DVector<f64>, RowDVector<f64>, Matrix1<f64>);

/// Matrices whose elements the `map_*_grad` rules walk.
pub trait Elementwise: Sized {
    /// `f(grad[i], x[i], out[i])` for every element.
    fn zip3(grad: &Self, x: &Self, out: &Self, f: impl Fn(f64, f64, f64) -> f64) -> Self;
}

macro_rules! elementwise_matrices {
    ($($m:ty),*) => {$(
        impl Elementwise for $m {
            #[inline]
            fn zip3(grad: &Self, x: &Self, out: &Self, f: impl Fn(f64, f64, f64) -> f64) -> Self {
                grad.zip_zip_map(x, out, f)
            }
        }
    )*};
}
elementwise_matrices!(DMatrix<f64>, DVector<f64>, RowDVector<f64>, Matrix1<f64>);

/// `m.map(f64::exp)` and the like: the scalar rule per element, reading the
/// element and the mapped result. Named apart from the scalar rules so that
/// `m.exp()` (nalgebra's matrix exponential) can never reach them.
macro_rules! mapped_rules {
    ($x:ident, $out:ident: $($func:ident => $rule:ident($($arg:ident),*);)*) => {$(
        #[doc = concat!("The adjoint of `m.map(f)` where `f` is the scalar rule of `", stringify!($rule), "`.")]
        #[inline]
        pub fn $func<M: Elementwise>(grad: &M, x: &M, out: &M) -> M {
            M::zip3(grad, x, out, |g, $x, $out| {
                let _ = ($x, $out);
                s::$rule(g $(, $arg)*)
            })
        }
    )*};
}
mapped_rules!(x, out:
    map_exp_grad => exp_grad(out);
    map_ln_grad => ln_grad(x);
    map_sqrt_grad => sqrt_grad(out);
    map_sin_grad => sin_grad(x);
    map_cos_grad => cos_grad(x);
    map_tanh_grad => tanh_grad(out);
    map_abs_grad => abs_grad(x);
    map_relu_grad => relu_grad(x);
    map_sigmoid_grad => sigmoid_grad(out);
);

macro_rules! transposes {
    ($($m:ty => $t:ty),*) => {$(
        impl TransposeRule for $m {
            type Out = $t;
            #[inline]
            fn grad(grad: &$t, _x: &$m, _out: &$t) -> $m {
                <$m>::from_dmatrix(shape::transpose_grad(&grad.to_dmatrix()))
            }
        }
    )*};
}
transposes!(DMatrix<f64> => DMatrix<f64>, DVector<f64> => RowDVector<f64>, RowDVector<f64> => DVector<f64>);

// ---- rules with constant operands ----

/// `x.powi(n)`: the exponent is a constant.
pub trait PowiRule: Sized {
    /// The adjoint of the base.
    fn grad(grad: &Self, x: &Self, n: &i32, out: &Self) -> Self;
}

macro_rules! scalar_powi {
    ($($t:ty),*) => {$(
        impl PowiRule for $t {
            #[inline(always)]
            fn grad(grad: &$t, x: &$t, n: &i32, _out: &$t) -> $t {
                s::powi_grad(*grad, *x, *n)
            }
        }
    )*};
}
scalar_powi!(f32, f64);

/// The adjoint of the base of `x.powi(n)`, by its type.
#[inline(always)]
pub fn powi_grad<A: PowiRule>(grad: &A, x: &A, n: &i32, out: &A) -> A {
    A::grad(grad, x, n, out)
}

/// The adjoint of `m.reshape_generic(Dyn(rows), Dyn(cols))`: the incoming
/// adjoint reshaped back to `m`'s shape.
#[inline]
pub fn reshape_grad(
    grad: &DMatrix<f64>,
    x: &DMatrix<f64>,
    _rows: &Dyn,
    _cols: &Dyn,
    _out: &DMatrix<f64>,
) -> DMatrix<f64> {
    shape::reshape_grad(grad, x.nrows(), x.ncols())
}

/// The adjoint of `m.map(f)`: `pullback(x, g)` is the scalar pullback of
/// `f` at the element `x` applied to its adjoint `g`, element by element.
#[inline]
pub fn map_grad<M: MapElements>(grad: &M, x: &M, pullback: impl Fn(f64, f64) -> f64) -> M {
    x.zip_elements(grad, pullback)
}

/// Matrices whose elements `map_grad` pairs up.
pub trait MapElements {
    /// `f(self[i], other[i])` for every element.
    fn zip_elements(&self, other: &Self, f: impl Fn(f64, f64) -> f64) -> Self;
}

macro_rules! map_elements {
    ($($m:ty),*) => {$(
        impl MapElements for $m {
            #[inline]
            fn zip_elements(&self, other: &Self, f: impl Fn(f64, f64) -> f64) -> Self {
                self.zip_map(other, f)
            }
        }
    )*};
}
map_elements!(DMatrix<f64>, DVector<f64>, RowDVector<f64>, Matrix1<f64>);
