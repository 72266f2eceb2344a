//! The stand-ins `#[differentiable]` names for the items a function does
//! not have (`NAME_jvp` without `jvp`, `NAME_jacobian` of a function
//! returning one number, ..): the macro re-exports the one of the right
//! bound and number of arguments under the item's name, so a user's crate
//! compiles no body for them. Each takes its arguments as any types, the
//! first bound by a trait of `checks` that nothing implements (its message
//! is the error, at the call), and returns any type, so the call's other
//! uses raise nothing more. One per trait and number of arguments, up to
//! twelve (the macro writes a stand-in of its own beyond). Written out,
//! not by a macro: rustc quotes the stand-in's line in its error ("required
//! by a bound in .."), which then reads as one plain signature.

use crate::checks::{
    GenericJacobian, HessianOption, JvpOption, MatrixResult, OneResult, SeveralResults, SparseOfF64,
};

/// The most arguments a stand-in here takes.
pub const MAX_ARGUMENTS: usize = 12;

pub fn jvp_option_1<A0: JvpOption, R>(_: A0) -> R {
    unreachable!()
}
pub fn jvp_option_2<A0: JvpOption, A1, R>(_: A0, _: A1) -> R {
    unreachable!()
}
pub fn jvp_option_3<A0: JvpOption, A1, A2, R>(_: A0, _: A1, _: A2) -> R {
    unreachable!()
}
pub fn jvp_option_4<A0: JvpOption, A1, A2, A3, R>(_: A0, _: A1, _: A2, _: A3) -> R {
    unreachable!()
}
pub fn jvp_option_5<A0: JvpOption, A1, A2, A3, A4, R>(_: A0, _: A1, _: A2, _: A3, _: A4) -> R {
    unreachable!()
}
pub fn jvp_option_6<A0: JvpOption, A1, A2, A3, A4, A5, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
) -> R {
    unreachable!()
}
pub fn jvp_option_7<A0: JvpOption, A1, A2, A3, A4, A5, A6, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn jvp_option_8<A0: JvpOption, A1, A2, A3, A4, A5, A6, A7, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn jvp_option_9<A0: JvpOption, A1, A2, A3, A4, A5, A6, A7, A8, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn jvp_option_10<A0: JvpOption, A1, A2, A3, A4, A5, A6, A7, A8, A9, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn jvp_option_11<A0: JvpOption, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn jvp_option_12<A0: JvpOption, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
    _: A11,
) -> R {
    unreachable!()
}

pub fn hessian_option_1<A0: HessianOption, R>(_: A0) -> R {
    unreachable!()
}
pub fn hessian_option_2<A0: HessianOption, A1, R>(_: A0, _: A1) -> R {
    unreachable!()
}
pub fn hessian_option_3<A0: HessianOption, A1, A2, R>(_: A0, _: A1, _: A2) -> R {
    unreachable!()
}
pub fn hessian_option_4<A0: HessianOption, A1, A2, A3, R>(_: A0, _: A1, _: A2, _: A3) -> R {
    unreachable!()
}
pub fn hessian_option_5<A0: HessianOption, A1, A2, A3, A4, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
) -> R {
    unreachable!()
}
pub fn hessian_option_6<A0: HessianOption, A1, A2, A3, A4, A5, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
) -> R {
    unreachable!()
}
pub fn hessian_option_7<A0: HessianOption, A1, A2, A3, A4, A5, A6, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn hessian_option_8<A0: HessianOption, A1, A2, A3, A4, A5, A6, A7, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn hessian_option_9<A0: HessianOption, A1, A2, A3, A4, A5, A6, A7, A8, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn hessian_option_10<A0: HessianOption, A1, A2, A3, A4, A5, A6, A7, A8, A9, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn hessian_option_11<A0: HessianOption, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn hessian_option_12<A0: HessianOption, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
    _: A11,
) -> R {
    unreachable!()
}

pub fn one_result_1<A0: OneResult, R>(_: A0) -> R {
    unreachable!()
}
pub fn one_result_2<A0: OneResult, A1, R>(_: A0, _: A1) -> R {
    unreachable!()
}
pub fn one_result_3<A0: OneResult, A1, A2, R>(_: A0, _: A1, _: A2) -> R {
    unreachable!()
}
pub fn one_result_4<A0: OneResult, A1, A2, A3, R>(_: A0, _: A1, _: A2, _: A3) -> R {
    unreachable!()
}
pub fn one_result_5<A0: OneResult, A1, A2, A3, A4, R>(_: A0, _: A1, _: A2, _: A3, _: A4) -> R {
    unreachable!()
}
pub fn one_result_6<A0: OneResult, A1, A2, A3, A4, A5, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
) -> R {
    unreachable!()
}
pub fn one_result_7<A0: OneResult, A1, A2, A3, A4, A5, A6, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn one_result_8<A0: OneResult, A1, A2, A3, A4, A5, A6, A7, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn one_result_9<A0: OneResult, A1, A2, A3, A4, A5, A6, A7, A8, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn one_result_10<A0: OneResult, A1, A2, A3, A4, A5, A6, A7, A8, A9, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn one_result_11<A0: OneResult, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn one_result_12<A0: OneResult, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
    _: A11,
) -> R {
    unreachable!()
}

pub fn several_results_1<A0: SeveralResults, R>(_: A0) -> R {
    unreachable!()
}
pub fn several_results_2<A0: SeveralResults, A1, R>(_: A0, _: A1) -> R {
    unreachable!()
}
pub fn several_results_3<A0: SeveralResults, A1, A2, R>(_: A0, _: A1, _: A2) -> R {
    unreachable!()
}
pub fn several_results_4<A0: SeveralResults, A1, A2, A3, R>(_: A0, _: A1, _: A2, _: A3) -> R {
    unreachable!()
}
pub fn several_results_5<A0: SeveralResults, A1, A2, A3, A4, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
) -> R {
    unreachable!()
}
pub fn several_results_6<A0: SeveralResults, A1, A2, A3, A4, A5, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
) -> R {
    unreachable!()
}
pub fn several_results_7<A0: SeveralResults, A1, A2, A3, A4, A5, A6, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn several_results_8<A0: SeveralResults, A1, A2, A3, A4, A5, A6, A7, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn several_results_9<A0: SeveralResults, A1, A2, A3, A4, A5, A6, A7, A8, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn several_results_10<A0: SeveralResults, A1, A2, A3, A4, A5, A6, A7, A8, A9, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn several_results_11<A0: SeveralResults, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn several_results_12<A0: SeveralResults, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
    _: A11,
) -> R {
    unreachable!()
}

pub fn matrix_result_1<A0: MatrixResult, R>(_: A0) -> R {
    unreachable!()
}
pub fn matrix_result_2<A0: MatrixResult, A1, R>(_: A0, _: A1) -> R {
    unreachable!()
}
pub fn matrix_result_3<A0: MatrixResult, A1, A2, R>(_: A0, _: A1, _: A2) -> R {
    unreachable!()
}
pub fn matrix_result_4<A0: MatrixResult, A1, A2, A3, R>(_: A0, _: A1, _: A2, _: A3) -> R {
    unreachable!()
}
pub fn matrix_result_5<A0: MatrixResult, A1, A2, A3, A4, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
) -> R {
    unreachable!()
}
pub fn matrix_result_6<A0: MatrixResult, A1, A2, A3, A4, A5, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
) -> R {
    unreachable!()
}
pub fn matrix_result_7<A0: MatrixResult, A1, A2, A3, A4, A5, A6, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn matrix_result_8<A0: MatrixResult, A1, A2, A3, A4, A5, A6, A7, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn matrix_result_9<A0: MatrixResult, A1, A2, A3, A4, A5, A6, A7, A8, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn matrix_result_10<A0: MatrixResult, A1, A2, A3, A4, A5, A6, A7, A8, A9, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn matrix_result_11<A0: MatrixResult, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn matrix_result_12<A0: MatrixResult, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
    _: A11,
) -> R {
    unreachable!()
}

pub fn sparse_of_f64_1<A0: SparseOfF64, R>(_: A0) -> R {
    unreachable!()
}
pub fn sparse_of_f64_2<A0: SparseOfF64, A1, R>(_: A0, _: A1) -> R {
    unreachable!()
}
pub fn sparse_of_f64_3<A0: SparseOfF64, A1, A2, R>(_: A0, _: A1, _: A2) -> R {
    unreachable!()
}
pub fn sparse_of_f64_4<A0: SparseOfF64, A1, A2, A3, R>(_: A0, _: A1, _: A2, _: A3) -> R {
    unreachable!()
}
pub fn sparse_of_f64_5<A0: SparseOfF64, A1, A2, A3, A4, R>(_: A0, _: A1, _: A2, _: A3, _: A4) -> R {
    unreachable!()
}
pub fn sparse_of_f64_6<A0: SparseOfF64, A1, A2, A3, A4, A5, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
) -> R {
    unreachable!()
}
pub fn sparse_of_f64_7<A0: SparseOfF64, A1, A2, A3, A4, A5, A6, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn sparse_of_f64_8<A0: SparseOfF64, A1, A2, A3, A4, A5, A6, A7, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn sparse_of_f64_9<A0: SparseOfF64, A1, A2, A3, A4, A5, A6, A7, A8, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn sparse_of_f64_10<A0: SparseOfF64, A1, A2, A3, A4, A5, A6, A7, A8, A9, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn sparse_of_f64_11<A0: SparseOfF64, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
) -> R {
    unreachable!()
}
#[allow(clippy::too_many_arguments)]
pub fn sparse_of_f64_12<A0: SparseOfF64, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
    _: A11,
) -> R {
    unreachable!()
}

/// The type named like `NAME_grad` of a function whose gradient a caller
/// cannot differentiate: without `hessian`, or of more than numbers. Its
/// parameter is `Gradient` of `FunctionWithoutHessian` or of
/// `GradientOfArrays`, which have none: naming the alias, where a
/// caller's sweeps reach the gradient's hidden items, is the one error.
/// The items are here only for the caller's code to name, with the
/// function's number of arguments (`N` in `gradient_N`). Its forward mode
/// is the parameter's, which it has not: a `jvp` caller gets that one
/// error too, not a second one naming this type.
macro_rules! gradients {
    ($($name:ident($($a:ident),+);)+) => {$(
        #[allow(non_camel_case_types)]
        pub struct $name<T>(::core::marker::PhantomData<T>);
        impl<T> $name<T> {
            pub fn __same_callee<F, V, P>(_: &F, _: &V, _: &P) {}
            #[allow(clippy::too_many_arguments)]
            pub fn __vjp_full<$($a,)+ R>($(_: $a),+) -> R {
                unreachable!()
            }
        }
        #[diagnostic::do_not_recommend]
        impl<T: NoForwardMode, S, L> crate::__private::ForwardMode<S, L> for $name<T> {
            type Fn = T::Fn;
            const JVP: T::Fn = T::JVP;
            type Lanes = T::Fn;
            const JVP_LANES: T::Fn = T::JVP;
        }
    )+};
}

/// The forward mode of a `gradient_N`, which none has (`Infallible`'s is
/// never reached).
pub trait NoForwardMode {
    type Fn: Copy;
    const JVP: Self::Fn;
}

#[diagnostic::do_not_recommend]
impl NoForwardMode for std::convert::Infallible {
    type Fn = ();
    const JVP: () = ();
}

gradients! {
    gradient_1(A0);
    gradient_2(A0, A1);
    gradient_3(A0, A1, A2);
    gradient_4(A0, A1, A2, A3);
    gradient_5(A0, A1, A2, A3, A4);
    gradient_6(A0, A1, A2, A3, A4, A5);
    gradient_7(A0, A1, A2, A3, A4, A5, A6);
    gradient_8(A0, A1, A2, A3, A4, A5, A6, A7);
    gradient_9(A0, A1, A2, A3, A4, A5, A6, A7, A8);
    gradient_10(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9);
    gradient_11(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10);
    gradient_12(A0, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11);
}

pub fn generic_jacobian_1<A0: GenericJacobian, R>(_: A0) -> R {
    unreachable!()
}

pub fn generic_jacobian_2<A0: GenericJacobian, A1, R>(_: A0, _: A1) -> R {
    unreachable!()
}

pub fn generic_jacobian_3<A0: GenericJacobian, A1, A2, R>(_: A0, _: A1, _: A2) -> R {
    unreachable!()
}

pub fn generic_jacobian_4<A0: GenericJacobian, A1, A2, A3, R>(_: A0, _: A1, _: A2, _: A3) -> R {
    unreachable!()
}

pub fn generic_jacobian_5<A0: GenericJacobian, A1, A2, A3, A4, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
) -> R {
    unreachable!()
}

pub fn generic_jacobian_6<A0: GenericJacobian, A1, A2, A3, A4, A5, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
) -> R {
    unreachable!()
}

pub fn generic_jacobian_7<A0: GenericJacobian, A1, A2, A3, A4, A5, A6, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
) -> R {
    unreachable!()
}

#[allow(clippy::too_many_arguments)]
pub fn generic_jacobian_8<A0: GenericJacobian, A1, A2, A3, A4, A5, A6, A7, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
) -> R {
    unreachable!()
}

#[allow(clippy::too_many_arguments)]
pub fn generic_jacobian_9<A0: GenericJacobian, A1, A2, A3, A4, A5, A6, A7, A8, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
) -> R {
    unreachable!()
}

#[allow(clippy::too_many_arguments)]
pub fn generic_jacobian_10<A0: GenericJacobian, A1, A2, A3, A4, A5, A6, A7, A8, A9, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
) -> R {
    unreachable!()
}

#[allow(clippy::too_many_arguments)]
pub fn generic_jacobian_11<A0: GenericJacobian, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
) -> R {
    unreachable!()
}

#[allow(clippy::too_many_arguments)]
pub fn generic_jacobian_12<A0: GenericJacobian, A1, A2, A3, A4, A5, A6, A7, A8, A9, A10, A11, R>(
    _: A0,
    _: A1,
    _: A2,
    _: A3,
    _: A4,
    _: A5,
    _: A6,
    _: A7,
    _: A8,
    _: A9,
    _: A10,
    _: A11,
) -> R {
    unreachable!()
}
