//! What forward-mode code (`#[differentiable(jvp)]`) uses: re-exported
//! from `__private`, not part of the public API.

use crate::__private::rules::Real;
use crate::__private::{Lanes, NoGradient};
use nalgebra::{DMatrix, DVector};

/// A function generated with `#[differentiable(jvp)]`, by the type named
/// like it: its hidden all-arguments JVP, which a caller's forward sweep
/// calls. A function without the option has none, and calling it from a
/// forward sweep is this one error. `S` is a generic function's scalar
/// (`()` for a function of `f64` or `f32`) and `L` its lengths
/// (`([(); N],)` for `const N: usize`, `()` for none): the call's
/// arguments choose the instantiation.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no forward mode: add `jvp` to its attribute, `#[differentiable(jvp)]`",
    label = "called from a `#[differentiable(jvp)]` function",
    note = "the forward mode of a function calls the forward mode of every differentiable function it calls"
)]
pub trait ForwardMode<S = (), L = ()> {
    /// `fn(args.., tangents..) -> (value, tangent)`, one tangent per
    /// argument (`NoGradient` for a constant one).
    type Fn: Copy;
    /// The hidden JVP.
    const JVP: Self::Fn;
    /// `fn(args.., lane tangents..) -> Option<(value, lane tangent)>`:
    /// the hidden K-lane JVP, through which a caller's K-lane sweep goes
    /// (`NoLanes` where no caller's K-lane sweep can reach the function).
    type Lanes: Copy;
    /// The hidden K-lane JVP: `None`, at once, for a function whose body
    /// cannot carry lanes (or reaches a callee that cannot), so that the
    /// caller's Jacobian sweeps one direction at a time instead.
    const JVP_LANES: Self::Lanes;
}

/// The forward mode of a call passing in-out (`&mut`) arguments, by the
/// type named like the callee: `Item` is the value the call gives,
/// [`InOutCall<J>`] the final value of its `J`-th in-out argument or
/// [`InOutResult`] its result, and `St` the types in which the caller holds
/// the callee's `&mut [T]` arguments (a `Vec<T>`, a `[T; N]`), a tuple of
/// them (`()` for none), and `L` the callee's scalar and lengths in its
/// order (`(T, [(); N])` for `fn f<T: Float, const N: usize>`, `()` for
/// none), both of which the call's arguments choose. A function
/// without `jvp` has none, and such a call from a forward sweep is this
/// one error, as for [`ForwardMode`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no forward mode: add `jvp` to its attribute, `#[differentiable(jvp)]`",
    label = "called from a `#[differentiable(jvp)]` function",
    note = "the forward mode of a function calls the forward mode of every differentiable function it calls"
)]
pub trait ForwardInOut<Item, St = (), L = ()> {
    /// `fn(args.., tangents..) -> (value, tangent)`: the in-out arguments'
    /// values on entry in, the item's value and tangent out.
    type Fn: Copy;
    /// The hidden forward item.
    const JVP: Self::Fn;
}

/// The final value of a call's `J`-th in-out argument (see
/// [`ForwardInOut`]).
#[derive(Copy, Clone, Debug)]
pub struct InOutCall<const J: usize>;

/// The result of a call passing in-out arguments (see [`ForwardInOut`]).
#[derive(Copy, Clone, Debug)]
pub struct InOutResult;

/// The `ForwardMode::Lanes` of a function no caller's K-lane sweep calls:
/// a function taking `Tangent` structs (reached through its struct call)
/// and the tuple-to-array step of a call returning a tuple.
#[derive(Copy, Clone, Debug)]
pub struct NoLanes;

/// A caller's K-lane tangent as the callee's K-lane JVP takes it (see
/// [`IntoTangent`]): the tangent itself, or `NoGradient` for a constant
/// parameter (and every parameter of a JVP that returns `None` at once).
pub trait IntoLanes<T> {
    /// The conversion.
    fn into_lanes(self) -> T;
}

impl<T> IntoLanes<NoGradient> for T {
    #[inline(always)]
    fn into_lanes(self) -> NoGradient {
        NoGradient
    }
}

impl<T: Real, const K: usize> IntoLanes<Lanes<T, K>> for Lanes<T, K> {
    #[inline(always)]
    fn into_lanes(self) -> Lanes<T, K> {
        self
    }
}

/// The lanes of a value whose type the caller cannot see, by reference.
impl<T: Real, const K: usize> IntoLanes<Lanes<T, K>> for &Lanes<T, K> {
    #[inline(always)]
    fn into_lanes(self) -> Lanes<T, K> {
        *self
    }
}

/// A float that carries no tangent: zero in every lane.
impl<T: Real, const K: usize> IntoLanes<Lanes<T, K>> for ZeroTangent {
    #[inline(always)]
    fn into_lanes(self) -> Lanes<T, K> {
        Lanes::zero()
    }
}

impl<'a, T: Real, const K: usize> IntoLanes<&'a [Lanes<T, K>]> for &'a [Lanes<T, K>] {
    #[inline(always)]
    fn into_lanes(self) -> &'a [Lanes<T, K>] {
        self
    }
}

impl<'a, T: Real, const K: usize> IntoLanes<&'a [Lanes<T, K>]> for &'a Vec<Lanes<T, K>> {
    #[inline(always)]
    fn into_lanes(self) -> &'a [Lanes<T, K>] {
        self
    }
}

impl<'a, T: Real, const K: usize, const N: usize> IntoLanes<&'a [Lanes<T, K>]>
    for &'a [Lanes<T, K>; N]
{
    #[inline(always)]
    fn into_lanes(self) -> &'a [Lanes<T, K>] {
        self
    }
}

impl<'a, T: Real, const K: usize, const N: usize> IntoLanes<&'a [Lanes<T, K>; N]>
    for &'a [Lanes<T, K>; N]
{
    #[inline(always)]
    fn into_lanes(self) -> &'a [Lanes<T, K>; N] {
        self
    }
}

impl<'a, T, R, C, S> IntoLanes<&'a nalgebra::Matrix<T, R, C, S>>
    for &'a nalgebra::Matrix<T, R, C, S>
where
    T: nalgebra::Scalar,
    R: nalgebra::Dim,
    C: nalgebra::Dim,
{
    #[inline(always)]
    fn into_lanes(self) -> &'a nalgebra::Matrix<T, R, C, S> {
        self
    }
}

/// See [`IntoLanes`].
#[inline(always)]
pub fn into_lanes<T, U: IntoLanes<T>>(u: U) -> T {
    u.into_lanes()
}

/// The [`ForwardMode`] of a function taking a `Tangent` struct, as its
/// callers' forward sweeps call it: through its struct call (each struct
/// flattened). Implemented for the type named like the function (in an
/// `impl` block, the type its struct call's module declares) when the
/// function has `jvp`.
#[doc(hidden)]
pub struct StructCall;

/// The forward mode of a function of an `impl` block taking a `Tangent`
/// struct, as its callers' forward sweeps call it (`c.discount(t)`,
/// `Model::g(m, x)`): implemented for the type, one `ID` per function
/// (a hash of its name), by a `#[differentiable(jvp)]` impl block. A
/// function with the attribute on itself alone cannot name its type, so
/// it has none.
#[diagnostic::on_unimplemented(
    message = "a method of `{Self}` called from a `#[differentiable(jvp)]` function has no forward mode",
    label = "called from a `#[differentiable(jvp)]` function",
    note = "put `#[differentiable(jvp)]` on the `impl` block of `{Self}` (with the attribute on the method alone it gives its callers' forward sweeps none), or add `jvp` to that attribute"
)]
pub trait MethodForwardMode<const ID: u64> {
    /// `fn(args.., tangents..) -> (value, tangent)`, as
    /// [`ForwardMode::Fn`].
    type Fn: Copy;
    /// The hidden JVP of the function's struct call.
    const JVP: Self::Fn;
}

/// A caller's tangent as the callee's JVP takes it: the tangent itself
/// for a differentiable parameter, `NoGradient` for a constant one (the
/// caller cannot see which the callee's parameters are).
pub trait IntoTangent<T> {
    /// The conversion.
    fn into_tangent(self) -> T;
}

impl<T> IntoTangent<NoGradient> for T {
    #[inline(always)]
    fn into_tangent(self) -> NoGradient {
        NoGradient
    }
}

macro_rules! float_tangents {
    ($($t:ty),*) => {$(
        impl IntoTangent<$t> for $t {
            #[inline(always)]
            fn into_tangent(self) -> $t {
                self
            }
        }
        // The tangent of a value whose type the caller cannot see, passed
        // by reference.
        impl IntoTangent<$t> for &$t {
            #[inline(always)]
            fn into_tangent(self) -> $t {
                *self
            }
        }
    )*};
}
float_tangents!(f32, f64);

/// The tangent of a number of a generic function's scalar type `T` (a
/// blanket `IntoTangent<T> for T` would overlap the slices' and matrices').
#[derive(Copy, Clone, Debug)]
pub struct ScalarTangent<T>(pub T);

impl<T: Real> IntoTangent<T> for ScalarTangent<T> {
    #[inline(always)]
    fn into_tangent(self) -> T {
        self.0
    }
}

impl<'a, T: Real> IntoTangent<&'a [T]> for &'a [T] {
    #[inline(always)]
    fn into_tangent(self) -> &'a [T] {
        self
    }
}

impl<'a, T: Real> IntoTangent<&'a [T]> for &'a Vec<T> {
    #[inline(always)]
    fn into_tangent(self) -> &'a [T] {
        self
    }
}

// An array passed where a slice is taken (`f(t, &y)` with `y: [f64; 2]`
// and `f` taking `&[f64]`): the coercion the primal call makes.
impl<'a, T: Real, const N: usize> IntoTangent<&'a [T]> for &'a [T; N] {
    #[inline(always)]
    fn into_tangent(self) -> &'a [T] {
        self
    }
}

impl<'a, T: Real, const N: usize> IntoTangent<&'a [T; N]> for &'a [T; N] {
    #[inline(always)]
    fn into_tangent(self) -> &'a [T; N] {
        self
    }
}

impl<'a> IntoTangent<&'a DMatrix<f64>> for &'a DMatrix<f64> {
    #[inline(always)]
    fn into_tangent(self) -> &'a DMatrix<f64> {
        self
    }
}

impl<'a> IntoTangent<&'a DVector<f64>> for &'a DVector<f64> {
    #[inline(always)]
    fn into_tangent(self) -> &'a DVector<f64> {
        self
    }
}

impl<'a, const R: usize, const C: usize> IntoTangent<&'a nalgebra::SMatrix<f64, R, C>>
    for &'a nalgebra::SMatrix<f64, R, C>
{
    #[inline(always)]
    fn into_tangent(self) -> &'a nalgebra::SMatrix<f64, R, C> {
        self
    }
}

/// The tangent of a value that depends on no differentiable argument (a
/// constant, a float that carries none), as a callee's parameter takes it.
#[derive(Copy, Clone, Debug)]
pub struct ZeroTangent;

impl<T: Real> IntoTangent<T> for ZeroTangent {
    #[inline(always)]
    fn into_tangent(self) -> T {
        T::zero()
    }
}

/// See [`IntoTangent`].
#[inline(always)]
pub fn into_tangent<T, U: IntoTangent<T>>(u: U) -> T {
    u.into_tangent()
}

/// A slice argument's tangent, checked to have the argument's `len`: the
/// forward sweep reads both at one index, and with the lengths known equal
/// one bounds check covers both reads.
///
/// # Panics
///
/// If the tangent's length is not the argument's.
#[inline(always)]
#[track_caller]
pub fn slice_tangent<T>(len: usize, tangent: &[T]) -> &[T] {
    assert_eq!(
        tangent.len(),
        len,
        "autograd: a tangent of `_jvp` has {} elements, its argument {len}",
        tangent.len()
    );
    &tangent[..len]
}
