//! The backward rules dispatched on their operands' types.
//!
//! `#[differentiable]` calls the scalar rules directly when it can see that
//! every operand is an `f32`/`f64`. Where it cannot — nalgebra values, or
//! the result of a call — it calls the functions here, which take the
//! output adjoint and the primal values the rule needs by reference (the
//! operands and the output; `+` and `-` none, `*` no output, `m.map(f)`
//! what `f`'s rule reads) and let trait resolution pick the rule: a scalar
//! rule for scalars, and for matrices the matrix rule or the scalar rule
//! applied element by element. No formula is written here; every impl
//! delegates to a rule of [`crate::rules`].
//!
//! Each backward function `F` comes in three forms, so the reverse sweep
//! can treat matrix adjoints as buffers:
//!
//! - `F(&grad, ..) -> adjoint`: a new adjoint (the first contribution);
//! - `F_acc(&mut adjoint, &grad, ..)`: adds into an existing adjoint in
//!   place — element-wise `+=`, or `gemm`/`gemm_tr` for the product —
//!   without a temporary;
//! - `F_owned(grad, ..) -> adjoint`: takes the output adjoint by value at
//!   its last use, and element-wise rules write into its buffer.
//!
//! Two operands give `F_grad_lhs` / `F_grad_rhs`; the three-operand
//! `clamp` and `mul_add` give one function per operand
//! (`clamp_grad_x`/`_lo`/`_hi`, `mul_add_grad_a`/`_b`/`_c`), each taking the
//! output adjoint, the three operands and the output; `sin_cos_grad` takes
//! the pair of its outputs' adjoints `(grad_sin, grad_cos)` as its output
//! adjoint. Every unary scalar rule also has the `m.map(f)` forms
//! `map_F_grad` (with `_acc`, `_owned` and, where the rule reads a value,
//! `_broadcast`).
//!
//! For scalars all three are the same arithmetic as `F`. The left
//! operand's adjoint of `+` and `-` is the output adjoint itself, and
//! `add_grad_lhs_ref` / `sub_grad_lhs_ref` lend it instead of copying it.
//!
//! Supported operand types: `f32`, `f64`, `DMatrix<T>`, `DVector<T>`,
//! their transposes (`RowDVector<T>`) and the 1×1 `Matrix1<T>` of `xᵀ·y`,
//! for `T` a [`MatrixScalar`] (`f64`, and `Dual<f64>` for second order);
//! products `DMatrix·DMatrix`, `DMatrix·DVector`, `xᵀ·y`, `x·yᵀ`, `xᵀ·A` and
//! scalar·matrix.

use core::ops::AddAssign;

use nalgebra::{DMatrix, DVector, Dyn, Matrix1, RowDVector, SMatrix};

use super::linalg::{self, Dense, MatrixScalar};
use super::{reductions, shape};

/// `dot`, `cross`, `norm`, `norm_squared`, `column`, `row`: no scalar form, one
/// generic function per form over any dense storage.
pub use super::vectors::dispatch::*;

/// `determinant`: no scalar form; its value (for dual elements too), its
/// pullback in the three forms and its tangent.
pub use super::determinant::dispatch::*;
use crate::rules as s;

/// `m.norm_squared()` for any [`MatrixScalar`] element: nalgebra's needs a
/// complex field, which `Dual<f64>` is not. The sum, column by column, of
/// each column's dot product with itself, as nalgebra computes it, so at
/// `f64` (and in a dual number's real part) it is `norm_squared()` bit for
/// bit.
#[inline]
pub fn norm_squared<T, R, C, St>(m: &nalgebra::Matrix<T, R, C, St>) -> T
where
    T: MatrixScalar,
    R: nalgebra::Dim,
    C: nalgebra::Dim,
    St: nalgebra::Storage<T, R, C>,
{
    let mut res = <T as s::Real>::zero();
    for i in 0..m.ncols() {
        let col = m.column(i);
        res += col.dot(&col);
    }
    res
}

/// `m.norm()` for any [`MatrixScalar`] element: the square root of
/// [`norm_squared`], as nalgebra computes it. At the zero vector it is a
/// zero with zero tangents, the convention of `norm`'s first derivative
/// there (README), where the dual square root of a zero would give ∞·0,
/// a NaN tangent.
#[inline]
pub fn norm<T, R, C, St>(m: &nalgebra::Matrix<T, R, C, St>) -> T
where
    T: MatrixScalar,
    R: nalgebra::Dim,
    C: nalgebra::Dim,
    St: nalgebra::Storage<T, R, C>,
{
    let squared = norm_squared(m);
    let zero = <T as s::Real>::zero();
    // A dual number compares by its value.
    if squared == zero {
        zero
    } else {
        num_traits::Float::sqrt(squared)
    }
}

/// `m.max()` for any [`MatrixScalar`] element: nalgebra's needs SIMD
/// comparisons, which `Dual<f64>` has not. The scan of
/// [`reductions::max`], so the winner is the element the pullback of `max`
/// sends the adjoint to.
#[inline]
pub fn max_element<T, R, C, St>(m: &nalgebra::Matrix<T, R, C, St>) -> T
where
    T: MatrixScalar,
    R: nalgebra::Dim,
    C: nalgebra::Dim,
    St: nalgebra::Storage<T, R, C> + nalgebra::IsContiguous,
{
    reductions::max_of_elements(m.as_slice()).0
}

/// `iter.sum()`, as `f64`'s `Sum` adds (from −0), for any element type.
#[inline(always)]
fn sum_of<T: MatrixScalar>(iter: impl Iterator<Item = T>) -> T {
    iter.fold(<T as num_traits::Float>::neg_zero(), |acc, x| acc + x)
}

// ---- binary rules ----

macro_rules! binary_rule {
    ($(#[$doc:meta])* $trait:ident, ($($o:ident)?), $lhs:ident, $rhs:ident, $lhs_acc:ident, $rhs_acc:ident, $lhs_owned:ident, $rhs_owned:ident) => {
        $(#[$doc])*
        pub trait $trait<B>: Sized {
            /// The operation's result type.
            type Out;
            /// The adjoint of the left operand.
            fn grad_lhs(grad: &Self::Out, a: &Self, b: &B $(, $o: &Self::Out)?) -> Self;
            /// The adjoint of the right operand.
            fn grad_rhs(grad: &Self::Out, a: &Self, b: &B $(, $o: &Self::Out)?) -> B;
            /// `*acc += grad_lhs(..)`; matrices add in place, without a
            /// temporary.
            #[inline(always)]
            fn grad_lhs_acc(acc: &mut Self, grad: &Self::Out, a: &Self, b: &B $(, $o: &Self::Out)?)
            where
                Self: AddAssign,
            {
                *acc += Self::grad_lhs(grad, a, b $(, $o)?);
            }
            /// `*acc += grad_rhs(..)`; matrices add in place, without a
            /// temporary.
            #[inline(always)]
            fn grad_rhs_acc(acc: &mut B, grad: &Self::Out, a: &Self, b: &B $(, $o: &Self::Out)?)
            where
                B: AddAssign,
            {
                *acc += Self::grad_rhs(grad, a, b $(, $o)?);
            }
            /// `grad_lhs` given the output adjoint by value: an element-wise
            /// rule reuses its buffer.
            #[inline(always)]
            fn grad_lhs_owned(grad: Self::Out, a: &Self, b: &B $(, $o: &Self::Out)?) -> Self {
                Self::grad_lhs(&grad, a, b $(, $o)?)
            }
            /// `grad_rhs` given the output adjoint by value: an element-wise
            /// rule reuses its buffer.
            #[inline(always)]
            fn grad_rhs_owned(grad: Self::Out, a: &Self, b: &B $(, $o: &Self::Out)?) -> B {
                Self::grad_rhs(&grad, a, b $(, $o)?)
            }
        }

        /// The adjoint of the left operand, by the operands' types.
        #[inline(always)]
        pub fn $lhs<A: $trait<B>, B>(grad: &A::Out, a: &A, b: &B $(, $o: &A::Out)?) -> A {
            A::grad_lhs(grad, a, b $(, $o)?)
        }

        /// The adjoint of the right operand, by the operands' types.
        #[inline(always)]
        pub fn $rhs<A: $trait<B>, B>(grad: &A::Out, a: &A, b: &B $(, $o: &A::Out)?) -> B {
            A::grad_rhs(grad, a, b $(, $o)?)
        }

        /// Adds the adjoint of the left operand into `acc`, in place.
        #[inline(always)]
        pub fn $lhs_acc<A: $trait<B> + AddAssign, B>(acc: &mut A, grad: &A::Out, a: &A, b: &B $(, $o: &A::Out)?) {
            A::grad_lhs_acc(acc, grad, a, b $(, $o)?)
        }

        /// Adds the adjoint of the right operand into `acc`, in place.
        #[inline(always)]
        pub fn $rhs_acc<A: $trait<B>, B: AddAssign>(acc: &mut B, grad: &A::Out, a: &A, b: &B $(, $o: &A::Out)?) {
            A::grad_rhs_acc(acc, grad, a, b $(, $o)?)
        }

        /// The adjoint of the left operand, taking the output adjoint by
        /// value (its last use).
        #[inline(always)]
        pub fn $lhs_owned<A: $trait<B>, B>(grad: A::Out, a: &A, b: &B $(, $o: &A::Out)?) -> A {
            A::grad_lhs_owned(grad, a, b $(, $o)?)
        }

        /// The adjoint of the right operand, taking the output adjoint by
        /// value (its last use).
        #[inline(always)]
        pub fn $rhs_owned<A: $trait<B>, B>(grad: A::Out, a: &A, b: &B $(, $o: &A::Out)?) -> B {
            A::grad_rhs_owned(grad, a, b $(, $o)?)
        }
    };
}

/// `a + b` and `a - b`: each operand's adjoint is the output adjoint passed
/// through a scalar rule, so these read no operand and take the output
/// adjoint only (operands and output share one type).
macro_rules! pass_through_rule {
    ($(#[$doc:meta])* $trait:ident, $lhs:ident, $rhs:ident, $lhs_acc:ident, $rhs_acc:ident, $lhs_owned:ident, $rhs_owned:ident) => {
        $(#[$doc])*
        pub trait $trait: Sized {
            /// The adjoint of the left operand.
            fn grad_lhs(grad: &Self) -> Self;
            /// The adjoint of the right operand.
            fn grad_rhs(grad: &Self) -> Self;
            /// `*acc += grad_lhs(grad)`, in place.
            fn grad_lhs_acc(acc: &mut Self, grad: &Self);
            /// `*acc += grad_rhs(grad)`, in place.
            fn grad_rhs_acc(acc: &mut Self, grad: &Self);
            /// `grad_lhs`, in the output adjoint's own buffer.
            fn grad_lhs_owned(grad: Self) -> Self;
            /// `grad_rhs`, in the output adjoint's own buffer.
            fn grad_rhs_owned(grad: Self) -> Self;
        }

        /// The adjoint of the left operand, by its type.
        #[inline(always)]
        pub fn $lhs<A: $trait>(grad: &A) -> A {
            A::grad_lhs(grad)
        }

        /// The adjoint of the right operand, by its type.
        #[inline(always)]
        pub fn $rhs<A: $trait>(grad: &A) -> A {
            A::grad_rhs(grad)
        }

        /// Adds the adjoint of the left operand into `acc`, in place.
        #[inline(always)]
        pub fn $lhs_acc<A: $trait>(acc: &mut A, grad: &A) {
            A::grad_lhs_acc(acc, grad)
        }

        /// Adds the adjoint of the right operand into `acc`, in place.
        #[inline(always)]
        pub fn $rhs_acc<A: $trait>(acc: &mut A, grad: &A) {
            A::grad_rhs_acc(acc, grad)
        }

        /// The adjoint of the left operand, taking the output adjoint by
        /// value (its last use).
        #[inline(always)]
        pub fn $lhs_owned<A: $trait>(grad: A) -> A {
            A::grad_lhs_owned(grad)
        }

        /// The adjoint of the right operand, taking the output adjoint by
        /// value (its last use).
        #[inline(always)]
        pub fn $rhs_owned<A: $trait>(grad: A) -> A {
            A::grad_rhs_owned(grad)
        }
    };
}

pass_through_rule!(
    /// `a + b`.
    AddRule, add_grad_lhs, add_grad_rhs, add_grad_lhs_acc, add_grad_rhs_acc, add_grad_lhs_owned, add_grad_rhs_owned
);
pass_through_rule!(
    /// `a - b`.
    SubRule, sub_grad_lhs, sub_grad_rhs, sub_grad_lhs_acc, sub_grad_rhs_acc, sub_grad_lhs_owned, sub_grad_rhs_owned
);

macro_rules! scalar_pass_through {
    ($($t:ty),*) => {$(
        scalar_pass_through!(@one $t, AddRule, add_grad_lhs, add_grad_rhs);
        scalar_pass_through!(@one $t, SubRule, sub_grad_lhs, sub_grad_rhs);
    )*};
    (@one $t:ty, $trait:ident, $lhs:ident, $rhs:ident) => {
        impl $trait for $t {
            #[inline(always)]
            fn grad_lhs(grad: &$t) -> $t {
                s::$lhs(*grad)
            }
            #[inline(always)]
            fn grad_rhs(grad: &$t) -> $t {
                s::$rhs(*grad)
            }
            #[inline(always)]
            fn grad_lhs_acc(acc: &mut $t, grad: &$t) {
                *acc += s::$lhs(*grad);
            }
            #[inline(always)]
            fn grad_rhs_acc(acc: &mut $t, grad: &$t) {
                *acc += s::$rhs(*grad);
            }
            #[inline(always)]
            fn grad_lhs_owned(grad: $t) -> $t {
                s::$lhs(grad)
            }
            #[inline(always)]
            fn grad_rhs_owned(grad: $t) -> $t {
                s::$rhs(grad)
            }
        }
    };
}
scalar_pass_through!(f32, f64);

/// d(a+b)/da = 1 ([`crate::rules::add_grad_lhs`] is the identity): the
/// output adjoint itself, lent instead of copied, for a caller that reads
/// the left operand's adjoint only by reference while the right operand's
/// adjoint takes the buffer afterwards.
#[inline(always)]
pub fn add_grad_lhs_ref<A: AddRule>(grad: &A) -> &A {
    grad
}

/// d(a-b)/da = 1 ([`crate::rules::sub_grad_lhs`] is the identity): the
/// output adjoint itself, lent instead of copied (see [`add_grad_lhs_ref`]).
#[inline(always)]
pub fn sub_grad_lhs_ref<A: SubRule>(grad: &A) -> &A {
    grad
}

/// The scalar rule per element, in the adjoint's own buffer or added in
/// place.
macro_rules! elementwise_pass_through {
    ($([$($g:tt)*] $m:ty),*) => {$(
        elementwise_pass_through!(@one [$($g)*] $m, AddRule, add_grad_lhs, add_grad_rhs);
        elementwise_pass_through!(@one [$($g)*] $m, SubRule, sub_grad_lhs, sub_grad_rhs);
    )*};
    (@one [$($g:tt)*] $m:ty, $trait:ident, $lhs:ident, $rhs:ident) => {
        impl<$($g)*> $trait for $m {
            #[inline]
            fn grad_lhs(grad: &$m) -> $m {
                grad.map(s::$lhs)
            }
            #[inline]
            fn grad_rhs(grad: &$m) -> $m {
                grad.map(s::$rhs)
            }
            #[inline]
            fn grad_lhs_acc(acc: &mut $m, grad: &$m) {
                acc.zip_apply(grad, |acc, g| *acc += s::$lhs(g));
            }
            #[inline]
            fn grad_rhs_acc(acc: &mut $m, grad: &$m) {
                acc.zip_apply(grad, |acc, g| *acc += s::$rhs(g));
            }
            #[inline]
            fn grad_lhs_owned(mut grad: $m) -> $m {
                grad.apply(|g| *g = s::$lhs(*g));
                grad
            }
            #[inline]
            fn grad_rhs_owned(mut grad: $m) -> $m {
                grad.apply(|g| *g = s::$rhs(*g));
                grad
            }
        }
    };
}
elementwise_pass_through!(
    [T: MatrixScalar] DMatrix<T>,
    [T: MatrixScalar] DVector<T>,
    [T: MatrixScalar] RowDVector<T>,
    [T: MatrixScalar, const R: usize, const C: usize] SMatrix<T, R, C>
);

binary_rule!(
    /// `a * b`: the product of scalars, the matrix product, or scaling.
    MulRule, (), mul_grad_lhs, mul_grad_rhs, mul_grad_lhs_acc, mul_grad_rhs_acc, mul_grad_lhs_owned, mul_grad_rhs_owned
);
binary_rule!(
    /// `a / b`.
    DivRule, (out), div_grad_lhs, div_grad_rhs, div_grad_lhs_acc, div_grad_rhs_acc, div_grad_lhs_owned, div_grad_rhs_owned
);
binary_rule!(
    /// `a.powf(b)`.
    PowRule, (out), pow_grad_lhs, pow_grad_rhs, pow_grad_lhs_acc, pow_grad_rhs_acc, pow_grad_lhs_owned, pow_grad_rhs_owned
);
binary_rule!(
    /// `a.max(b)` of two scalars.
    MaxRule, (out), max_grad_lhs, max_grad_rhs, max_grad_lhs_acc, max_grad_rhs_acc, max_grad_lhs_owned, max_grad_rhs_owned
);
binary_rule!(
    /// `a.min(b)` of two scalars.
    MinRule, (out), min_grad_lhs, min_grad_rhs, min_grad_lhs_acc, min_grad_rhs_acc, min_grad_lhs_owned, min_grad_rhs_owned
);
binary_rule!(
    /// `y.atan2(x)` of two scalars.
    Atan2Rule, (out), atan2_grad_lhs, atan2_grad_rhs, atan2_grad_lhs_acc, atan2_grad_rhs_acc, atan2_grad_lhs_owned, atan2_grad_rhs_owned
);
binary_rule!(
    /// `x.hypot(y)` of two scalars.
    HypotRule, (out), hypot_grad_lhs, hypot_grad_rhs, hypot_grad_lhs_acc, hypot_grad_rhs_acc, hypot_grad_lhs_owned, hypot_grad_rhs_owned
);
binary_rule!(
    /// `x.log(base)` of two scalars.
    LogRule, (out), log_grad_lhs, log_grad_rhs, log_grad_lhs_acc, log_grad_rhs_acc, log_grad_lhs_owned, log_grad_rhs_owned
);
binary_rule!(
    /// `x % m` of two scalars.
    RemRule, (out), rem_grad_lhs, rem_grad_rhs, rem_grad_lhs_acc, rem_grad_rhs_acc, rem_grad_lhs_owned, rem_grad_rhs_owned
);
binary_rule!(
    /// `x.rem_euclid(m)` of two scalars.
    RemEuclidRule, (out), rem_euclid_grad_lhs, rem_euclid_grad_rhs, rem_euclid_grad_lhs_acc, rem_euclid_grad_rhs_acc, rem_euclid_grad_lhs_owned, rem_euclid_grad_rhs_owned
);
binary_rule!(
    /// `beta(a, b)` of two scalars (`autograd::special`).
    BetaRule, (out), beta_grad_lhs, beta_grad_rhs, beta_grad_lhs_acc, beta_grad_rhs_acc, beta_grad_lhs_owned, beta_grad_rhs_owned
);
binary_rule!(
    /// `a.component_mul(&b)`.
    ComponentMulRule, (out), component_mul_grad_lhs, component_mul_grad_rhs, component_mul_grad_lhs_acc, component_mul_grad_rhs_acc, component_mul_grad_lhs_owned, component_mul_grad_rhs_owned
);
binary_rule!(
    /// `a.component_div(&b)`.
    ComponentDivRule, (out), component_div_grad_lhs, component_div_grad_rhs, component_div_grad_lhs_acc, component_div_grad_rhs_acc, component_div_grad_lhs_owned, component_div_grad_rhs_owned
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
            DivRule => div_grad_lhs(b), div_grad_rhs(b, out);
            PowRule => pow_grad_lhs(a, b), pow_grad_rhs(a, out);
            MaxRule => max_grad_lhs(a, b), max_grad_rhs(a, b);
            MinRule => min_grad_lhs(a, b), min_grad_rhs(a, b);
            Atan2Rule => atan2_grad_lhs(a, b), atan2_grad_rhs(a, b);
            HypotRule => hypot_grad_lhs(a, out), hypot_grad_rhs(b, out);
            LogRule => log_grad_lhs(a, b), log_grad_rhs(b, out);
            RemRule => rem_grad_lhs(), rem_grad_rhs(a, b, out);
            RemEuclidRule => rem_euclid_grad_lhs(), rem_euclid_grad_rhs(a, b, out);
            BetaRule => beta_grad_lhs(a, b, out), beta_grad_rhs(a, b, out);
        );
    )*};
}
scalar_binaries!(f32, f64);

macro_rules! scalar_mul {
    ($($t:ty),*) => {$(
        impl MulRule<$t> for $t {
            type Out = $t;
            #[inline(always)]
            fn grad_lhs(grad: &$t, _a: &$t, b: &$t) -> $t {
                s::mul_grad_lhs(*grad, *b)
            }
            #[inline(always)]
            fn grad_rhs(grad: &$t, a: &$t, _b: &$t) -> $t {
                s::mul_grad_rhs(*grad, *a)
            }
        }
    )*};
}
scalar_mul!(f32, f64);

/// Element-wise binary rules on two matrices of the same shape: the scalar
/// rule per element, written into the adjoint's own buffer where the sweep
/// hands it over (`_owned`) or added into the accumulated adjoint (`_acc`).
macro_rules! elementwise_binary {
    ([$($g:tt)*] $m:ty, $a:ident, $b:ident, $out:ident: $trait:ident => $lhs:ident($($la:ident),*), $rhs:ident($($ra:ident),*)) => {
        impl<$($g)*> $trait<$m> for $m {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, a: &$m, b: &$m, out: &$m) -> $m {
                <Self as $trait<$m>>::grad_lhs_owned(grad.clone(), a, b, out)
            }
            #[inline]
            fn grad_rhs(grad: &$m, a: &$m, b: &$m, out: &$m) -> $m {
                <Self as $trait<$m>>::grad_rhs_owned(grad.clone(), a, b, out)
            }
            #[inline]
            fn grad_lhs_owned(mut g: $m, $a: &$m, $b: &$m, $out: &$m) -> $m {
                for (i, gi) in g.iter_mut().enumerate() {
                    let ($a, $b, $out) = ($a[i], $b[i], $out[i]);
                    let _ = ($a, $b, $out);
                    *gi = s::$lhs(*gi $(, $la)*);
                }
                g
            }
            #[inline]
            fn grad_rhs_owned(mut g: $m, $a: &$m, $b: &$m, $out: &$m) -> $m {
                for (i, gi) in g.iter_mut().enumerate() {
                    let ($a, $b, $out) = ($a[i], $b[i], $out[i]);
                    let _ = ($a, $b, $out);
                    *gi = s::$rhs(*gi $(, $ra)*);
                }
                g
            }
            #[inline]
            fn grad_lhs_acc(acc: &mut $m, grad: &$m, $a: &$m, $b: &$m, $out: &$m) {
                for (i, (acc, g)) in acc.iter_mut().zip(grad.iter()).enumerate() {
                    let ($a, $b, $out) = ($a[i], $b[i], $out[i]);
                    let _ = ($a, $b, $out);
                    *acc += s::$lhs(*g $(, $la)*);
                }
            }
            #[inline]
            fn grad_rhs_acc(acc: &mut $m, grad: &$m, $a: &$m, $b: &$m, $out: &$m) {
                for (i, (acc, g)) in acc.iter_mut().zip(grad.iter()).enumerate() {
                    let ($a, $b, $out) = ($a[i], $b[i], $out[i]);
                    let _ = ($a, $b, $out);
                    *acc += s::$rhs(*g $(, $ra)*);
                }
            }
        }
    };
}

macro_rules! elementwise_binaries {
    ($([$($g:tt)*] $m:ty),*) => {$(
        elementwise_binary!([$($g)*] $m, a, b, out:
            ComponentMulRule => mul_grad_lhs(b), mul_grad_rhs(a));
        elementwise_binary!([$($g)*] $m, a, b, out:
            ComponentDivRule => div_grad_lhs(b), div_grad_rhs(b, out));
    )*};
}
elementwise_binaries!(
    [T: MatrixScalar] DMatrix<T>,
    [T: MatrixScalar] DVector<T>,
    [T: MatrixScalar] RowDVector<T>,
    [T: MatrixScalar, const R: usize, const C: usize] SMatrix<T, R, C>
);

/// The matrix product: the rules of [`linalg`], reading vectors where they
/// lie and writing into the adjoint's buffer.
macro_rules! matmul {
    ($([$($g:tt)*] $a:ty, $b:ty => $out:ty;)*) => {$(
        impl<$($g)*> MulRule<$b> for $a {
            type Out = $out;
            #[inline]
            fn grad_lhs(grad: &$out, a: &$a, b: &$b) -> $a {
                let (r, c) = a.dims();
                let mut da = <$a>::zeros_with_dims(r, c);
                linalg::any_scalar::matmul_grad_lhs_into(&mut da, grad, b);
                da
            }
            #[inline]
            fn grad_rhs(grad: &$out, a: &$a, b: &$b) -> $b {
                let (r, c) = b.dims();
                let mut db = <$b>::zeros_with_dims(r, c);
                linalg::any_scalar::matmul_grad_rhs_into(&mut db, grad, a);
                db
            }
            #[inline]
            fn grad_lhs_acc(acc: &mut $a, grad: &$out, _a: &$a, b: &$b) {
                linalg::any_scalar::matmul_grad_lhs_acc(acc, grad, b);
            }
            #[inline]
            fn grad_rhs_acc(acc: &mut $b, grad: &$out, a: &$a, _b: &$b) {
                linalg::any_scalar::matmul_grad_rhs_acc(acc, grad, a);
            }
        }
    )*};
}
matmul! {
    [T: MatrixScalar] DMatrix<T>, DMatrix<T> => DMatrix<T>;
    [T: MatrixScalar] DMatrix<T>, DVector<T> => DVector<T>;
    [T: MatrixScalar] RowDVector<T>, DMatrix<T> => RowDVector<T>;
    [T: MatrixScalar] DVector<T>, RowDVector<T> => DMatrix<T>;
    [T: MatrixScalar] RowDVector<T>, DVector<T> => Matrix1<T>;
    [T: MatrixScalar, const R: usize, const K: usize, const C: usize]
        SMatrix<T, R, K>, SMatrix<T, K, C> => SMatrix<T, R, C>;
}

/// Scaling by a scalar: the scalar product rule per element, summed for
/// the scalar's adjoint.
macro_rules! scaling {
    ($([$($g:tt)*] $m:ty),*) => {$(
        impl<$($g)*> MulRule<$m> for T {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, _a: &T, b: &$m) -> T {
                sum_of(grad.iter().zip(b.iter()).map(|(g, b)| s::mul_grad_lhs(*g, *b)))
            }
            #[inline]
            fn grad_rhs(grad: &$m, a: &T, _b: &$m) -> $m {
                grad.map(|g| s::mul_grad_rhs(g, *a))
            }
            #[inline]
            fn grad_rhs_owned(mut grad: $m, a: &T, _b: &$m) -> $m {
                grad.apply(|g| *g = s::mul_grad_rhs(*g, *a));
                grad
            }
            #[inline]
            fn grad_rhs_acc(acc: &mut $m, grad: &$m, a: &T, _b: &$m) {
                acc.zip_apply(grad, |acc, g| *acc += s::mul_grad_rhs(g, *a));
            }
        }
        impl<$($g)*> MulRule<T> for $m {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, _a: &$m, b: &T) -> $m {
                grad.map(|g| s::mul_grad_lhs(g, *b))
            }
            #[inline]
            fn grad_lhs_owned(mut grad: $m, _a: &$m, b: &T) -> $m {
                grad.apply(|g| *g = s::mul_grad_lhs(*g, *b));
                grad
            }
            #[inline]
            fn grad_lhs_acc(acc: &mut $m, grad: &$m, _a: &$m, b: &T) {
                acc.zip_apply(grad, |acc, g| *acc += s::mul_grad_lhs(g, *b));
            }
            #[inline]
            fn grad_rhs(grad: &$m, a: &$m, _b: &T) -> T {
                sum_of(grad.iter().zip(a.iter()).map(|(g, a)| s::mul_grad_rhs(*g, *a)))
            }
        }
        impl<$($g)*> DivRule<T> for $m {
            type Out = $m;
            #[inline]
            fn grad_lhs(grad: &$m, _a: &$m, b: &T, _out: &$m) -> $m {
                grad.map(|g| s::div_grad_lhs(g, *b))
            }
            #[inline]
            fn grad_lhs_owned(mut grad: $m, _a: &$m, b: &T, _out: &$m) -> $m {
                grad.apply(|g| *g = s::div_grad_lhs(*g, *b));
                grad
            }
            #[inline]
            fn grad_lhs_acc(acc: &mut $m, grad: &$m, _a: &$m, b: &T, _out: &$m) {
                acc.zip_apply(grad, |acc, g| *acc += s::div_grad_lhs(g, *b));
            }
            #[inline]
            fn grad_rhs(grad: &$m, _a: &$m, b: &T, out: &$m) -> T {
                sum_of(grad.iter().zip(out.iter()).map(|(g, o)| s::div_grad_rhs(*g, *b, *o)))
            }
        }
    )*};
}
scaling!(
    [T: MatrixScalar] DMatrix<T>,
    [T: MatrixScalar] DVector<T>,
    [T: MatrixScalar] RowDVector<T>,
    [T: MatrixScalar, const R: usize, const C: usize] SMatrix<T, R, C>
);

// ---- three-operand rules ----

/// A rule of three scalar operands of one type, with one dispatched
/// backward function (and its `_acc` and `_owned` forms) per operand, each
/// taking the output adjoint, the three operands and the output.
macro_rules! ternary_rule {
    ($(#[$doc:meta])* $trait:ident: $($method:ident => $func:ident, $acc:ident, $owned:ident;)*) => {
        $(#[$doc])*
        pub trait $trait: Sized {
            $(
                #[doc = concat!("The adjoint given by `", stringify!($func), "`.")]
                fn $method(grad: &Self, a: &Self, b: &Self, c: &Self, out: &Self) -> Self;
            )*
        }
        $(
            #[doc = concat!("The adjoint `", stringify!($trait), "::", stringify!($method), "`, by the operands' type.")]
            #[inline(always)]
            pub fn $func<A: $trait>(grad: &A, a: &A, b: &A, c: &A, out: &A) -> A {
                A::$method(grad, a, b, c, out)
            }
            #[doc = concat!("Adds the adjoint of `", stringify!($func), "` into `acc`.")]
            #[inline(always)]
            pub fn $acc<A: $trait + AddAssign>(acc: &mut A, grad: &A, a: &A, b: &A, c: &A, out: &A) {
                *acc += A::$method(grad, a, b, c, out);
            }
            #[doc = concat!("The adjoint of `", stringify!($func), "`, taking the output adjoint by value.")]
            #[inline(always)]
            pub fn $owned<A: $trait>(grad: A, a: &A, b: &A, c: &A, out: &A) -> A {
                A::$method(&grad, a, b, c, out)
            }
        )*
    };
}

ternary_rule!(
    /// `x.clamp(lo, hi)` of scalars.
    ClampRule:
    grad_x => clamp_grad_x, clamp_grad_x_acc, clamp_grad_x_owned;
    grad_lo => clamp_grad_lo, clamp_grad_lo_acc, clamp_grad_lo_owned;
    grad_hi => clamp_grad_hi, clamp_grad_hi_acc, clamp_grad_hi_owned;
);
ternary_rule!(
    /// `a.mul_add(b, c)` of scalars.
    MulAddRule:
    grad_a => mul_add_grad_a, mul_add_grad_a_acc, mul_add_grad_a_owned;
    grad_b => mul_add_grad_b, mul_add_grad_b_acc, mul_add_grad_b_owned;
    grad_c => mul_add_grad_c, mul_add_grad_c_acc, mul_add_grad_c_owned;
);

macro_rules! scalar_ternaries {
    ($($t:ty),*) => {$(
        impl ClampRule for $t {
            #[inline(always)]
            fn grad_x(grad: &$t, x: &$t, lo: &$t, hi: &$t, _out: &$t) -> $t {
                s::clamp_grad_x(*grad, *x, *lo, *hi)
            }
            #[inline(always)]
            fn grad_lo(grad: &$t, x: &$t, lo: &$t, _hi: &$t, _out: &$t) -> $t {
                s::clamp_grad_lo(*grad, *x, *lo)
            }
            #[inline(always)]
            fn grad_hi(grad: &$t, x: &$t, _lo: &$t, hi: &$t, _out: &$t) -> $t {
                s::clamp_grad_hi(*grad, *x, *hi)
            }
        }
        impl MulAddRule for $t {
            #[inline(always)]
            fn grad_a(grad: &$t, _a: &$t, b: &$t, _c: &$t, _out: &$t) -> $t {
                s::mul_add_grad_a(*grad, *b)
            }
            #[inline(always)]
            fn grad_b(grad: &$t, a: &$t, _b: &$t, _c: &$t, _out: &$t) -> $t {
                s::mul_add_grad_b(*grad, *a)
            }
            #[inline(always)]
            fn grad_c(grad: &$t, _a: &$t, _b: &$t, _c: &$t, _out: &$t) -> $t {
                s::mul_add_grad_c(*grad)
            }
        }
    )*};
}
scalar_ternaries!(f32, f64);

// ---- unary rules ----

macro_rules! unary_rule {
    ($(#[$doc:meta])* $trait:ident, $func:ident, $acc:ident, $owned:ident) => {
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
            /// `*acc += grad(..)`; matrices add in place, without a temporary.
            #[inline(always)]
            fn grad_acc(acc: &mut Self, grad: &Self::Out, x: &Self, out: &Self::Out)
            where
                Self: AddAssign,
            {
                *acc += Self::grad(grad, x, out);
            }
            /// `grad` given the output adjoint by value: an element-wise
            /// rule reuses its buffer.
            #[inline(always)]
            fn grad_owned(grad: Self::Out, x: &Self, out: &Self::Out) -> Self {
                Self::grad(&grad, x, out)
            }
        }

        /// The adjoint of the operand, by its type.
        #[inline(always)]
        pub fn $func<A: $trait>(grad: &A::Out, x: &A, out: &A::Out) -> A {
            A::grad(grad, x, out)
        }

        /// Adds the adjoint of the operand into `acc`, in place.
        #[inline(always)]
        pub fn $acc<A: $trait + AddAssign>(acc: &mut A, grad: &A::Out, x: &A, out: &A::Out) {
            A::grad_acc(acc, grad, x, out)
        }

        /// The adjoint of the operand, taking the output adjoint by value
        /// (its last use).
        #[inline(always)]
        pub fn $owned<A: $trait>(grad: A::Out, x: &A, out: &A::Out) -> A {
            A::grad_owned(grad, x, out)
        }
    };
}

unary_rule!(
    /// `-x`.
    NegRule, neg_grad, neg_grad_acc, neg_grad_owned
);
unary_rule!(
    /// `x.exp()` of a scalar.
    ExpRule, exp_grad, exp_grad_acc, exp_grad_owned
);
unary_rule!(
    /// `x.ln()` of a scalar.
    LnRule, ln_grad, ln_grad_acc, ln_grad_owned
);
unary_rule!(
    /// `x.sqrt()` of a scalar.
    SqrtRule, sqrt_grad, sqrt_grad_acc, sqrt_grad_owned
);
unary_rule!(
    /// `x.sin()` of a scalar.
    SinRule, sin_grad, sin_grad_acc, sin_grad_owned
);
unary_rule!(
    /// `x.cos()` of a scalar.
    CosRule, cos_grad, cos_grad_acc, cos_grad_owned
);
unary_rule!(
    /// `x.tanh()` of a scalar.
    TanhRule, tanh_grad, tanh_grad_acc, tanh_grad_owned
);
unary_rule!(
    /// `x.abs()` of a scalar.
    AbsRule, abs_grad, abs_grad_acc, abs_grad_owned
);
unary_rule!(
    /// `x.exp2()` of a scalar.
    Exp2Rule, exp2_grad, exp2_grad_acc, exp2_grad_owned
);
unary_rule!(
    /// `x.exp_m1()` of a scalar.
    ExpM1Rule, exp_m1_grad, exp_m1_grad_acc, exp_m1_grad_owned
);
unary_rule!(
    /// `x.ln_1p()` of a scalar.
    Ln1pRule, ln_1p_grad, ln_1p_grad_acc, ln_1p_grad_owned
);
unary_rule!(
    /// `x.log2()` of a scalar.
    Log2Rule, log2_grad, log2_grad_acc, log2_grad_owned
);
unary_rule!(
    /// `x.log10()` of a scalar.
    Log10Rule, log10_grad, log10_grad_acc, log10_grad_owned
);
unary_rule!(
    /// `x.cbrt()` of a scalar.
    CbrtRule, cbrt_grad, cbrt_grad_acc, cbrt_grad_owned
);
unary_rule!(
    /// `x.recip()` of a scalar.
    RecipRule, recip_grad, recip_grad_acc, recip_grad_owned
);
unary_rule!(
    /// `x.tan()` of a scalar.
    TanRule, tan_grad, tan_grad_acc, tan_grad_owned
);
unary_rule!(
    /// `x.asin()` of a scalar.
    AsinRule, asin_grad, asin_grad_acc, asin_grad_owned
);
unary_rule!(
    /// `x.acos()` of a scalar.
    AcosRule, acos_grad, acos_grad_acc, acos_grad_owned
);
unary_rule!(
    /// `x.atan()` of a scalar.
    AtanRule, atan_grad, atan_grad_acc, atan_grad_owned
);
unary_rule!(
    /// `x.sinh()` of a scalar.
    SinhRule, sinh_grad, sinh_grad_acc, sinh_grad_owned
);
unary_rule!(
    /// `x.cosh()` of a scalar.
    CoshRule, cosh_grad, cosh_grad_acc, cosh_grad_owned
);
unary_rule!(
    /// `x.asinh()` of a scalar.
    AsinhRule, asinh_grad, asinh_grad_acc, asinh_grad_owned
);
unary_rule!(
    /// `x.acosh()` of a scalar.
    AcoshRule, acosh_grad, acosh_grad_acc, acosh_grad_owned
);
unary_rule!(
    /// `x.atanh()` of a scalar.
    AtanhRule, atanh_grad, atanh_grad_acc, atanh_grad_owned
);
unary_rule!(
    /// `x.signum()` of a scalar.
    SignumRule, signum_grad, signum_grad_acc, signum_grad_owned
);
unary_rule!(
    /// `x.floor()` of a scalar.
    FloorRule, floor_grad, floor_grad_acc, floor_grad_owned
);
unary_rule!(
    /// `x.ceil()` of a scalar.
    CeilRule, ceil_grad, ceil_grad_acc, ceil_grad_owned
);
unary_rule!(
    /// `x.round()` of a scalar.
    RoundRule, round_grad, round_grad_acc, round_grad_owned
);
unary_rule!(
    /// `x.trunc()` of a scalar.
    TruncRule, trunc_grad, trunc_grad_acc, trunc_grad_owned
);
unary_rule!(
    /// `x.fract()` of a scalar.
    FractRule, fract_grad, fract_grad_acc, fract_grad_owned
);
unary_rule!(
    /// `x.to_radians()` of a scalar.
    ToRadiansRule, to_radians_grad, to_radians_grad_acc, to_radians_grad_owned
);
unary_rule!(
    /// `x.to_degrees()` of a scalar.
    ToDegreesRule, to_degrees_grad, to_degrees_grad_acc, to_degrees_grad_owned
);
unary_rule!(
    /// `x.sin_cos()` of a scalar: the output adjoint is the pair `(grad_sin, grad_cos)`.
    SinCosRule, sin_cos_grad, sin_cos_grad_acc, sin_cos_grad_owned
);
unary_rule!(
    /// `x.relu()`, element-wise on matrices.
    ReluRule, relu_grad, relu_grad_acc, relu_grad_owned
);
unary_rule!(
    /// `x.sigmoid()`, element-wise on matrices.
    SigmoidRule, sigmoid_grad, sigmoid_grad_acc, sigmoid_grad_owned
);
unary_rule!(
    /// `erf(x)` of a scalar (`autograd::special`).
    ErfRule, erf_grad, erf_grad_acc, erf_grad_owned
);
unary_rule!(
    /// `erfc(x)` of a scalar (`autograd::special`).
    ErfcRule, erfc_grad, erfc_grad_acc, erfc_grad_owned
);
unary_rule!(
    /// `norm_cdf(x)` of a scalar (`autograd::special`).
    NormCdfRule, norm_cdf_grad, norm_cdf_grad_acc, norm_cdf_grad_owned
);
unary_rule!(
    /// `norm_pdf(x)` of a scalar (`autograd::special`).
    NormPdfRule, norm_pdf_grad, norm_pdf_grad_acc, norm_pdf_grad_owned
);
unary_rule!(
    /// `norm_inv_cdf(p)` of a scalar (`autograd::special`).
    NormInvCdfRule, norm_inv_cdf_grad, norm_inv_cdf_grad_acc, norm_inv_cdf_grad_owned
);
unary_rule!(
    /// `ln_gamma(x)` of a scalar (`autograd::special`).
    LnGammaRule, ln_gamma_grad, ln_gamma_grad_acc, ln_gamma_grad_owned
);
unary_rule!(
    /// `gamma(x)` of a scalar (`autograd::special`).
    GammaRule, gamma_grad, gamma_grad_acc, gamma_grad_owned
);
unary_rule!(
    /// `digamma(x)` of a scalar (`autograd::special`).
    DigammaRule, digamma_grad, digamma_grad_acc, digamma_grad_owned
);
unary_rule!(
    /// `m.transpose()`.
    TransposeRule, transpose_grad, transpose_grad_acc, transpose_grad_owned
);
unary_rule!(
    /// `m.sum()`.
    SumRule, sum_grad, sum_grad_acc, sum_grad_owned
);
unary_rule!(
    /// `m.max()`: the largest element, the first on a tie.
    MaxElementRule, max_element_grad, max_element_grad_acc, max_element_grad_owned
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
            Exp2Rule => exp2_grad(out);
            ExpM1Rule => exp_m1_grad(out);
            Ln1pRule => ln_1p_grad(x);
            Log2Rule => log2_grad(x);
            Log10Rule => log10_grad(x);
            CbrtRule => cbrt_grad(out);
            RecipRule => recip_grad(out);
            TanRule => tan_grad(out);
            AsinRule => asin_grad(x);
            AcosRule => acos_grad(x);
            AtanRule => atan_grad(x);
            SinhRule => sinh_grad(x);
            CoshRule => cosh_grad(x);
            AsinhRule => asinh_grad(x);
            AcoshRule => acosh_grad(x);
            AtanhRule => atanh_grad(x);
            SignumRule => signum_grad();
            FloorRule => floor_grad();
            CeilRule => ceil_grad();
            RoundRule => round_grad();
            TruncRule => trunc_grad();
            FractRule => fract_grad();
            ToRadiansRule => to_radians_grad();
            ToDegreesRule => to_degrees_grad();
            ErfRule => erf_grad(x);
            ErfcRule => erfc_grad(x);
            NormCdfRule => norm_cdf_grad(x);
            NormPdfRule => norm_pdf_grad(x, out);
            NormInvCdfRule => norm_inv_cdf_grad(out);
            LnGammaRule => ln_gamma_grad(x);
            GammaRule => gamma_grad(x, out);
            DigammaRule => digamma_grad(x);
        );
        impl SinCosRule for $t {
            type Out = ($t, $t);
            #[inline(always)]
            fn grad(grad: &($t, $t), x: &$t, _out: &($t, $t)) -> $t {
                s::sin_cos_grad(grad.0, grad.1, *x)
            }
        }
    )*};
}
scalar_unaries!(f32, f64);

macro_rules! elementwise_unaries {
    ($([$($g:tt)*] $m:ty),*) => {$(
        impl<$($g)*> NegRule for $m {
            type Out = $m;
            #[inline]
            fn grad(grad: &$m, _x: &$m, _out: &$m) -> $m {
                grad.map(s::neg_grad)
            }
            #[inline]
            fn grad_owned(mut grad: $m, _x: &$m, _out: &$m) -> $m {
                grad.apply(|g| *g = s::neg_grad(*g));
                grad
            }
            #[inline]
            fn grad_acc(acc: &mut $m, grad: &$m, _x: &$m, _out: &$m) {
                acc.zip_apply(grad, |acc, g| *acc += s::neg_grad(g));
            }
        }
        impl<$($g)*> ReluRule for $m {
            type Out = $m;
            #[inline]
            fn grad(grad: &$m, x: &$m, _out: &$m) -> $m {
                grad.zip_map(x, s::relu_grad)
            }
            #[inline]
            fn grad_owned(mut grad: $m, x: &$m, _out: &$m) -> $m {
                grad.zip_apply(x, |g, x| *g = s::relu_grad(*g, x));
                grad
            }
            #[inline]
            fn grad_acc(acc: &mut $m, grad: &$m, x: &$m, _out: &$m) {
                acc.zip_zip_apply(grad, x, |acc, g, x| *acc += s::relu_grad(g, x));
            }
        }
        impl<$($g)*> SigmoidRule for $m {
            type Out = $m;
            #[inline]
            fn grad(grad: &$m, _x: &$m, out: &$m) -> $m {
                grad.zip_map(out, s::sigmoid_grad)
            }
            #[inline]
            fn grad_owned(mut grad: $m, _x: &$m, out: &$m) -> $m {
                grad.zip_apply(out, |g, o| *g = s::sigmoid_grad(*g, o));
                grad
            }
            #[inline]
            fn grad_acc(acc: &mut $m, grad: &$m, _x: &$m, out: &$m) {
                acc.zip_zip_apply(grad, out, |acc, g, o| *acc += s::sigmoid_grad(g, o));
            }
        }
        impl<$($g)*> SumRule for $m {
            type Out = T;
            #[inline]
            fn grad(grad: &T, x: &$m, _out: &T) -> $m {
                let mut dx = <$m>::zeros_with_dims(x.nrows(), x.ncols());
                reductions::sum_grad_into(&mut dx, *grad);
                dx
            }
            #[inline]
            fn grad_acc(acc: &mut $m, grad: &T, _x: &$m, _out: &T) {
                reductions::sum_grad_acc(acc, *grad);
            }
        }
        impl<$($g)*> MaxElementRule for $m {
            type Out = T;
            #[inline]
            fn grad(grad: &T, x: &$m, _out: &T) -> $m {
                let mut dx = <$m>::zeros_with_dims(x.nrows(), x.ncols());
                let (_, index) = reductions::max(x);
                reductions::max_grad_acc(&mut dx, *grad, index);
                dx
            }
            #[inline]
            fn grad_acc(acc: &mut $m, grad: &T, x: &$m, _out: &T) {
                let (_, index) = reductions::max(x);
                reductions::max_grad_acc(acc, *grad, index);
            }
        }
    )*};
}
elementwise_unaries!(
    [T: MatrixScalar] DMatrix<T>,
    [T: MatrixScalar] DVector<T>,
    [T: MatrixScalar] RowDVector<T>,
    [T: MatrixScalar, const R: usize, const C: usize] SMatrix<T, R, C>
);

/// The adjoint each element of `m.sum()` receives from the sum's adjoint,
/// for a rule that takes it as one scalar (the `map_*_grad_broadcast`
/// forms) instead of a matrix of copies.
#[inline(always)]
pub fn sum_grad_element<T: s::Real>(grad: &T) -> T {
    reductions::sum_grad_element(*grad)
}

/// Matrices whose elements the `map_*_grad` rules walk.
pub trait Elementwise: Sized {
    /// The element type.
    type Elem: MatrixScalar;
    /// `f(grad[i], v[i])` for every element.
    fn zip2(grad: &Self, v: &Self, f: impl Fn(Self::Elem, Self::Elem) -> Self::Elem) -> Self;
    /// `acc[i] += f(grad[i], v[i])` for every element, in place.
    fn zip2_acc(
        acc: &mut Self,
        grad: &Self,
        v: &Self,
        f: impl Fn(Self::Elem, Self::Elem) -> Self::Elem,
    );
    /// `grad[i] = f(grad[i], v[i])` for every element, in `grad`'s own
    /// buffer.
    fn zip2_owned(grad: Self, v: &Self, f: impl Fn(Self::Elem, Self::Elem) -> Self::Elem) -> Self;
    /// `v[i] = f(v[i])` for every element, in `v`'s own buffer.
    fn apply_owned(v: Self, f: impl Fn(Self::Elem) -> Self::Elem) -> Self;
    /// `f(grad[i])` for every element.
    fn map_each(grad: &Self, f: impl Fn(Self::Elem) -> Self::Elem) -> Self;
    /// `acc[i] += f(grad[i])` for every element, in place.
    fn map_each_acc(acc: &mut Self, grad: &Self, f: impl Fn(Self::Elem) -> Self::Elem);
}

macro_rules! elementwise_matrices {
    ($([$($g:tt)*] $m:ty),*) => {$(
        impl<$($g)*> Elementwise for $m {
            type Elem = T;
            #[inline]
            fn zip2(grad: &Self, v: &Self, f: impl Fn(T, T) -> T) -> Self {
                grad.zip_map(v, f)
            }
            #[inline]
            fn zip2_acc(acc: &mut Self, grad: &Self, v: &Self, f: impl Fn(T, T) -> T) {
                acc.zip_zip_apply(grad, v, |acc, g, v| *acc += f(g, v));
            }
            #[inline]
            fn zip2_owned(mut grad: Self, v: &Self, f: impl Fn(T, T) -> T) -> Self {
                grad.zip_apply(v, |g, v| *g = f(*g, v));
                grad
            }
            #[inline]
            fn apply_owned(mut v: Self, f: impl Fn(T) -> T) -> Self {
                v.apply(|v| *v = f(*v));
                v
            }
            #[inline]
            fn map_each(grad: &Self, f: impl Fn(T) -> T) -> Self {
                grad.map(f)
            }
            #[inline]
            fn map_each_acc(acc: &mut Self, grad: &Self, f: impl Fn(T) -> T) {
                acc.zip_apply(grad, |acc, g| *acc += f(g));
            }
        }
    )*};
}
elementwise_matrices!(
    [T: MatrixScalar] DMatrix<T>,
    [T: MatrixScalar] DVector<T>,
    [T: MatrixScalar] RowDVector<T>,
    [T: MatrixScalar, const R: usize, const C: usize] SMatrix<T, R, C>
);

/// `m.map(T::exp)` and the like: the scalar rule per element, reading
/// exactly what the scalar rule reads, the element (`x`) or the mapped
/// result (`out`), so the other need not be kept. Named apart from the
/// scalar rules so that `m.exp()` (nalgebra's matrix exponential) can never
/// reach them. Each has an `_acc` form adding into an adjoint in place, an
/// `_owned` form writing into the incoming adjoint's buffer, and a
/// `_broadcast` form for an incoming adjoint that is one scalar for every
/// element (the seed of a `sum`), written into the buffer of the value the
/// rule reads, which the caller gives up.
macro_rules! mapped_rules {
    ($($func:ident, $acc:ident, $owned:ident, $broadcast:ident => $rule:ident($arg:ident);)*) => {$(
        #[doc = concat!("The adjoint of `m.map(f)` where `f` is the scalar rule of `", stringify!($rule), "`, given `", stringify!($arg), "`.")]
        #[inline]
        pub fn $func<M: Elementwise>(grad: &M, $arg: &M) -> M {
            M::zip2(grad, $arg, s::$rule)
        }
        #[doc = concat!("Adds the adjoint of `m.map(f)` (`f`: the scalar rule of `", stringify!($rule), "`) into `acc`, in place.")]
        #[inline]
        pub fn $acc<M: Elementwise>(acc: &mut M, grad: &M, $arg: &M) {
            M::zip2_acc(acc, grad, $arg, s::$rule)
        }
        #[doc = concat!("The adjoint of `m.map(f)` (`f`: the scalar rule of `", stringify!($rule), "`), written into the incoming adjoint's buffer.")]
        #[inline]
        pub fn $owned<M: Elementwise>(grad: M, $arg: &M) -> M {
            M::zip2_owned(grad, $arg, s::$rule)
        }
        #[doc = concat!("The adjoint of `m.map(f)` (`f`: the scalar rule of `", stringify!($rule), "`) for the scalar adjoint `grad` of every element, written into the buffer of `", stringify!($arg), "`.")]
        #[inline]
        pub fn $broadcast<M: Elementwise>(grad: M::Elem, $arg: M) -> M {
            M::apply_owned($arg, |v| s::$rule(grad, v))
        }
    )*};
}
mapped_rules!(
    map_exp_grad, map_exp_grad_acc, map_exp_grad_owned, map_exp_grad_broadcast => exp_grad(out);
    map_ln_grad, map_ln_grad_acc, map_ln_grad_owned, map_ln_grad_broadcast => ln_grad(x);
    map_sqrt_grad, map_sqrt_grad_acc, map_sqrt_grad_owned, map_sqrt_grad_broadcast => sqrt_grad(out);
    map_sin_grad, map_sin_grad_acc, map_sin_grad_owned, map_sin_grad_broadcast => sin_grad(x);
    map_cos_grad, map_cos_grad_acc, map_cos_grad_owned, map_cos_grad_broadcast => cos_grad(x);
    map_tanh_grad, map_tanh_grad_acc, map_tanh_grad_owned, map_tanh_grad_broadcast => tanh_grad(out);
    map_abs_grad, map_abs_grad_acc, map_abs_grad_owned, map_abs_grad_broadcast => abs_grad(x);
    map_relu_grad, map_relu_grad_acc, map_relu_grad_owned, map_relu_grad_broadcast => relu_grad(x);
    map_sigmoid_grad, map_sigmoid_grad_acc, map_sigmoid_grad_owned, map_sigmoid_grad_broadcast => sigmoid_grad(out);
    map_exp2_grad, map_exp2_grad_acc, map_exp2_grad_owned, map_exp2_grad_broadcast => exp2_grad(out);
    map_exp_m1_grad, map_exp_m1_grad_acc, map_exp_m1_grad_owned, map_exp_m1_grad_broadcast => exp_m1_grad(out);
    map_ln_1p_grad, map_ln_1p_grad_acc, map_ln_1p_grad_owned, map_ln_1p_grad_broadcast => ln_1p_grad(x);
    map_log2_grad, map_log2_grad_acc, map_log2_grad_owned, map_log2_grad_broadcast => log2_grad(x);
    map_log10_grad, map_log10_grad_acc, map_log10_grad_owned, map_log10_grad_broadcast => log10_grad(x);
    map_cbrt_grad, map_cbrt_grad_acc, map_cbrt_grad_owned, map_cbrt_grad_broadcast => cbrt_grad(out);
    map_recip_grad, map_recip_grad_acc, map_recip_grad_owned, map_recip_grad_broadcast => recip_grad(out);
    map_tan_grad, map_tan_grad_acc, map_tan_grad_owned, map_tan_grad_broadcast => tan_grad(out);
    map_asin_grad, map_asin_grad_acc, map_asin_grad_owned, map_asin_grad_broadcast => asin_grad(x);
    map_acos_grad, map_acos_grad_acc, map_acos_grad_owned, map_acos_grad_broadcast => acos_grad(x);
    map_atan_grad, map_atan_grad_acc, map_atan_grad_owned, map_atan_grad_broadcast => atan_grad(x);
    map_sinh_grad, map_sinh_grad_acc, map_sinh_grad_owned, map_sinh_grad_broadcast => sinh_grad(x);
    map_cosh_grad, map_cosh_grad_acc, map_cosh_grad_owned, map_cosh_grad_broadcast => cosh_grad(x);
    map_asinh_grad, map_asinh_grad_acc, map_asinh_grad_owned, map_asinh_grad_broadcast => asinh_grad(x);
    map_acosh_grad, map_acosh_grad_acc, map_acosh_grad_owned, map_acosh_grad_broadcast => acosh_grad(x);
    map_atanh_grad, map_atanh_grad_acc, map_atanh_grad_owned, map_atanh_grad_broadcast => atanh_grad(x);
);

/// `m.map(f64::floor)` and the others whose scalar rule reads nothing: the
/// rule per element of the adjoint alone, in the same `_acc` and `_owned`
/// forms (no `_broadcast` form: there is no read value whose buffer it
/// could take).
macro_rules! mapped_rules_reading_nothing {
    ($($func:ident, $acc:ident, $owned:ident => $rule:ident;)*) => {$(
        #[doc = concat!("The adjoint of `m.map(f)` where `f` is the scalar rule of `", stringify!($rule), "`, which reads nothing.")]
        #[inline]
        pub fn $func<M: Elementwise>(grad: &M) -> M {
            M::map_each(grad, s::$rule)
        }
        #[doc = concat!("Adds the adjoint of `m.map(f)` (`f`: the scalar rule of `", stringify!($rule), "`) into `acc`, in place.")]
        #[inline]
        pub fn $acc<M: Elementwise>(acc: &mut M, grad: &M) {
            M::map_each_acc(acc, grad, s::$rule)
        }
        #[doc = concat!("The adjoint of `m.map(f)` (`f`: the scalar rule of `", stringify!($rule), "`), written into the incoming adjoint's buffer.")]
        #[inline]
        pub fn $owned<M: Elementwise>(grad: M) -> M {
            M::apply_owned(grad, s::$rule)
        }
    )*};
}
mapped_rules_reading_nothing!(
    map_signum_grad, map_signum_grad_acc, map_signum_grad_owned => signum_grad;
    map_floor_grad, map_floor_grad_acc, map_floor_grad_owned => floor_grad;
    map_ceil_grad, map_ceil_grad_acc, map_ceil_grad_owned => ceil_grad;
    map_round_grad, map_round_grad_acc, map_round_grad_owned => round_grad;
    map_trunc_grad, map_trunc_grad_acc, map_trunc_grad_owned => trunc_grad;
    map_fract_grad, map_fract_grad_acc, map_fract_grad_owned => fract_grad;
    map_to_radians_grad, map_to_radians_grad_acc, map_to_radians_grad_owned => to_radians_grad;
    map_to_degrees_grad, map_to_degrees_grad_acc, map_to_degrees_grad_owned => to_degrees_grad;
);

impl<T: MatrixScalar> TransposeRule for DMatrix<T> {
    type Out = DMatrix<T>;
    #[inline]
    fn grad(grad: &DMatrix<T>, _x: &DMatrix<T>, _out: &DMatrix<T>) -> DMatrix<T> {
        shape::transpose_grad(grad)
    }
    #[inline]
    fn grad_acc(acc: &mut DMatrix<T>, grad: &DMatrix<T>, _x: &DMatrix<T>, _out: &DMatrix<T>) {
        shape::transpose_grad_acc(acc, grad);
    }
}

/// A fixed-size matrix: the adjoint of `mᵀ` is the incoming adjoint
/// transposed, as [`shape::transpose_grad`].
impl<T: MatrixScalar, const R: usize, const C: usize> TransposeRule for SMatrix<T, R, C> {
    type Out = SMatrix<T, C, R>;
    #[inline]
    fn grad(grad: &SMatrix<T, C, R>, _x: &Self, _out: &SMatrix<T, C, R>) -> Self {
        grad.transpose()
    }
}

// A vector and its transpose store the same elements in the same order,
// so the adjoint is the incoming one with its shape turned.
macro_rules! vector_transposes {
    ($($m:ty => $t:ty, $r:expr, $c:expr;)*) => {$(
        impl<T: MatrixScalar> TransposeRule for $m {
            type Out = $t;
            #[inline]
            fn grad(grad: &$t, x: &$m, out: &$t) -> $m {
                <Self as TransposeRule>::grad_owned(grad.clone(), x, out)
            }
            #[inline]
            fn grad_owned(grad: $t, _x: &$m, _out: &$t) -> $m {
                let n = grad.len();
                grad.reshape_generic($r(n), $c(n))
            }
            #[inline]
            fn grad_acc(acc: &mut $m, grad: &$t, _x: &$m, _out: &$t) {
                acc.iter_mut().zip(grad.iter()).for_each(|(a, g)| *a += *g);
            }
        }
    )*};
}
vector_transposes! {
    DVector<T> => RowDVector<T>, Dyn, |_| nalgebra::U1;
    RowDVector<T> => DVector<T>, |_| nalgebra::U1, Dyn;
}

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

/// Adds the adjoint of the base of `x.powi(n)` into `acc`.
#[inline(always)]
pub fn powi_grad_acc<A: PowiRule + AddAssign>(acc: &mut A, grad: &A, x: &A, n: &i32, out: &A) {
    *acc += A::grad(grad, x, n, out);
}

/// The adjoint of the base of `x.powi(n)`, taking the output adjoint by value.
#[inline(always)]
pub fn powi_grad_owned<A: PowiRule>(grad: A, x: &A, n: &i32, out: &A) -> A {
    A::grad(&grad, x, n, out)
}

/// The adjoint of `m.reshape_generic(Dyn(rows), Dyn(cols))`: the incoming
/// adjoint reshaped back to `m`'s shape.
#[inline]
pub fn reshape_grad<T: MatrixScalar>(
    grad: &DMatrix<T>,
    x: &DMatrix<T>,
    _rows: &Dyn,
    _cols: &Dyn,
    _out: &DMatrix<T>,
) -> DMatrix<T> {
    shape::any_scalar::reshape_grad(grad, x.nrows(), x.ncols())
}

/// Adds the adjoint of `m.reshape_generic(..)` into `acc`, in place: the
/// elements keep their column-major order, so element `i` goes to `i`.
#[inline]
pub fn reshape_grad_acc<T: MatrixScalar>(
    acc: &mut DMatrix<T>,
    grad: &DMatrix<T>,
    _x: &DMatrix<T>,
    _rows: &Dyn,
    _cols: &Dyn,
    _out: &DMatrix<T>,
) {
    shape::any_scalar::reshape_grad_acc(acc, grad);
}

/// The adjoint of `m.reshape_generic(..)`, reusing the incoming adjoint's
/// buffer.
#[inline]
pub fn reshape_grad_owned<T: MatrixScalar>(
    grad: DMatrix<T>,
    x: &DMatrix<T>,
    _rows: &Dyn,
    _cols: &Dyn,
    _out: &DMatrix<T>,
) -> DMatrix<T> {
    shape::any_scalar::reshape_grad_owned(grad, x.nrows(), x.ncols())
}

/// The adjoint of `m.map(f)`: `pullback(x, g)` is the scalar pullback of
/// `f` at the element `x` applied to its adjoint `g`, element by element.
#[inline]
pub fn map_grad<M: MapElements>(
    grad: &M,
    x: &M,
    pullback: impl Fn(M::Elem, M::Elem) -> M::Elem,
) -> M {
    x.zip_elements(grad, pullback)
}

/// Adds the adjoint of `m.map(f)` into `acc`, in place (see [`map_grad`]).
#[inline]
pub fn map_grad_acc<M: Elementwise>(
    acc: &mut M,
    grad: &M,
    x: &M,
    pullback: impl Fn(M::Elem, M::Elem) -> M::Elem,
) {
    M::zip2_acc(acc, grad, x, |g, x| pullback(x, g));
}

/// The adjoint of `m.map(f)` (see [`map_grad`]), written into the incoming
/// adjoint's buffer.
#[inline]
pub fn map_grad_owned<M: Elementwise>(
    grad: M,
    x: &M,
    pullback: impl Fn(M::Elem, M::Elem) -> M::Elem,
) -> M {
    M::zip2_owned(grad, x, |g, x| pullback(x, g))
}

/// Matrices whose elements `map_grad` pairs up.
pub trait MapElements {
    /// The element type.
    type Elem: MatrixScalar;
    /// `f(self[i], other[i])` for every element.
    fn zip_elements(&self, other: &Self, f: impl Fn(Self::Elem, Self::Elem) -> Self::Elem) -> Self;
}

macro_rules! map_elements {
    ($([$($g:tt)*] $m:ty),*) => {$(
        impl<$($g)*> MapElements for $m {
            type Elem = T;
            #[inline]
            fn zip_elements(&self, other: &Self, f: impl Fn(T, T) -> T) -> Self {
                self.zip_map(other, f)
            }
        }
    )*};
}
map_elements!(
    [T: MatrixScalar] DMatrix<T>,
    [T: MatrixScalar] DVector<T>,
    [T: MatrixScalar] RowDVector<T>,
    [T: MatrixScalar, const R: usize, const C: usize] SMatrix<T, R, C>
);
