#![doc = include_str!("lib.md")]

// The README's examples run as doctests here; its text is the front page
// of the repository, not of these docs.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

// Lets the generated `::autograd::...` paths resolve inside this crate too.
extern crate self as autograd;

pub use autograd_macros::{Tangent, differentiable};

// Every runtime function of the macro's rule table exists with the
// signature the generated code calls it at: building this crate proves it.
autograd_macros::__rule_table_check!();
pub use autograd_runtime::*;
// Named apart from the glob, so that the carrier below shares its name.
pub use autograd_runtime::stop_gradient;
/// The nalgebra autograd's matrices are: 0.34, or the version a feature
/// `nalgebra_v0_33` or `nalgebra_v0_35` chooses (see the crate's docs).
#[cfg(feature = "nalgebra_v0_34")]
pub use nalgebra;
/// The nalgebra autograd's matrices are: 0.33, chosen by the feature
/// `nalgebra_v0_33`.
#[cfg(all(
    feature = "nalgebra_v0_33",
    not(feature = "nalgebra_v0_34"),
    not(feature = "nalgebra_v0_35")
))]
pub extern crate nalgebra_v0_33 as nalgebra;
/// The nalgebra autograd's matrices are: 0.35, chosen by the feature
/// `nalgebra_v0_35`.
#[cfg(all(feature = "nalgebra_v0_35", not(feature = "nalgebra_v0_34")))]
pub extern crate nalgebra_v0_35 as nalgebra;
/// The nalgebra-sparse that pairs with autograd's nalgebra: the
/// `CscMatrix` of the sparse Hessians and Jacobians ([`sparse`]).
pub use autograd_runtime::nalgebra_sparse;
/// The num-traits version whose `Float` bounds a generic differentiable
/// function (`fn f<T: num_traits::Float>(x: T) -> T`).
pub use num_traits;

/// The hidden items of [`stop_gradient`], as the macro generates them for
/// a `#[differentiable]` function (a type named like it): a `use` of
/// `stop_gradient` imports them with it, so a call by any path other than
/// `autograd::stop_gradient` is resolved by rustc, to this one or to a
/// user's function of that name.
#[doc(hidden)]
#[allow(non_camel_case_types)]
pub struct stop_gradient {}

#[doc(hidden)]
impl stop_gradient {
    /// The VJP: the value, and a pullback giving the argument no adjoint.
    #[inline(always)]
    pub fn __vjp_full<T: __private::ZeroLike>(value: T) -> (T, impl FnOnce(T) -> (T,)) {
        (value, |g: T| (g.zero_like(),))
    }

    /// Checks that a call named `stop_gradient` reached autograd's
    /// function, at the type of the call's value (`stop_gradient::<T>`).
    #[inline(always)]
    #[track_caller]
    pub fn __same_callee<T: 'static, F: Fn(T) -> T + 'static, P>(
        called: &F,
        _value: &T,
        _pullback: &P,
    ) {
        __private::same_function(called, __private::type_id_of(&stop_gradient::<T>))
    }
}

#[cfg(feature = "argmin")]
pub mod argmin;
pub mod checks;
pub mod guide;
// Named apart from the glob: the runtime's methods and the functions.
pub mod prelude;

mod hessian_glue;
mod missing_options;
mod tangent;
mod tangent_glue;
mod untuple;
mod wrappers;
pub use tangent::Tangent;
#[doc(hidden)]
pub use tangent::TangentStruct;
// The traits through which generated code finds a callee's forward mode and
// second order, also named here (the generated code names them in
// `__private`): rustc's message for a callee without them names the trait
// by this path rather than by a hidden one.
#[doc(hidden)]
pub use hessian_glue::{HasSecondOrder, InOutTwin, SecondOrder};
#[doc(hidden)]
pub use tangent_glue::{
    ForwardInOut, ForwardMode, InOutCall, InOutResult, MethodForwardMode, StructCall,
};

/// What the generated code uses. Not part of the public API: names here
/// may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use crate::hessian_glue::{
        HasSecondOrder, ImplicitSecondOrder, InOutSecondOrder, InOutTwin, LaneSeed, Lift, LiftAsIs,
        LiftFloat, LiftFloats, SecondOrder, TwinArg, assert_hessian, dual_array,
        dual_array_constant, dual_constants, dual_matrix, dual_matrix_constant, dual_part,
        dual_slice, implicit_second_order, lane_array, lane_array_constant, lane_columns,
        lane_constant, lane_constants, lane_scalar, lane_slice, push_flat, push_lane_values,
        put_lanes, real_part, take_matrix, take_scalar, take_slice, twin_arg, unit_matrix,
        unit_scalar, unit_slice,
    };
    pub use autograd_runtime::dual::DualLanes;
    pub use autograd_runtime::lanes::HESSIAN_LANES;
    /// The scalar `NAME_hessian` and `NAME_hessian_sparse` run a twin's
    /// reverse sweep at: a dual number of [`HESSIAN_LANES`] lanes.
    pub type HessianDual<T> = DualLanes<T, HESSIAN_LANES>;
    pub use crate::tangent::{
        CollectionField, ConstantField, FloatField, IntField, KeepConstant, MatrixField,
        ZeroConstant, add_flat_struct, add_float_field, add_to_collection, clone_tangent,
        collection_field, collection_field_mut, flatten_struct, float_field, float_field_mut,
        int_field, matrix_field, range_field, take_collection, take_elements, take_float,
    };
    pub use crate::tangent_glue::{
        ForwardInOut, ForwardMode, InOutCall, InOutResult, IntoLanes, IntoTangent,
        MethodForwardMode, NoLanes, ScalarTangent, StructCall, ZeroTangent, into_lanes,
        into_tangent, slice_tangent,
    };
    pub use crate::untuple::{FloatArray, FloatTuple, untuple};
    pub use crate::wrappers::{
        AddInto, Buffer, Prepend, Pulled, Reached, SeededAdjoints, adjoints, grad, grad_acc,
        reached, vjp, vjp_by_acc, vjp_by_acc_reached,
    };
    pub use autograd_runtime::checkpoint;
    pub use autograd_runtime::jacobian::{
        Direction, Entries, Flatten, Outputs, Target, check_seed, forward_jacobian_acc, jacobian,
        jacobian_acc,
    };
    pub use autograd_runtime::lanes::{
        LANES, LaneDirection, LaneTangentOf, Lanes, Swept, forward_jacobian_lanes_acc,
        jacobian_pattern_lanes, jacobian_sparse_lanes, jacobian_sparse_lanes_into, lane_float,
        lane_zeros, lanes_of, per_lane, tangent_lanes,
    };
    use autograd_runtime::pool;
    pub use autograd_runtime::pool::{Rows, Stack};
    pub use autograd_runtime::rules;
    pub use num_traits::Float;
    pub use std::boxed::Box;
    pub use std::vec;
    pub use std::vec::Vec;

    pub use autograd_runtime::special::{SpecialFunction, checked as special_function};

    /// The adjoint slot of an argument that is not differentiable.
    #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
    pub struct NoGradient;

    /// Adds a callee's argument adjoint into the caller's adjoint.
    pub trait Accumulate<G> {
        /// `*self += g`.
        fn accumulate(&mut self, g: G);
    }

    /// The slot [`contribution`] gives for a [`NoGradient`]: no value has
    /// this type, so adding it in is never run (the check has failed to
    /// compile), and any adjoint takes it without a second error.
    #[derive(Debug)]
    pub enum Unreachable {}

    macro_rules! impl_unreachable_glue {
        ($([$($g:tt)*] $t:ty),*) => {$(
            // Not a type to suggest in another slot's error.
            #[diagnostic::do_not_recommend]
            impl<$($g)*> Accumulate<Unreachable> for $t {
                #[inline(always)]
                fn accumulate(&mut self, g: Unreachable) {
                    match g {}
                }
            }
        )*};
    }
    impl_unreachable_glue!(
        [] f32,
        [] f64,
        [T] Vec<T>,
        [T] [T],
        [T, const N: usize] [T; N],
        [T: nalgebra::Scalar] nalgebra::DMatrix<T>,
        [T: nalgebra::Scalar] nalgebra::DVector<T>,
        [T: nalgebra::Scalar] nalgebra::RowDVector<T>,
        [T: nalgebra::Scalar, const R: usize, const C: usize] nalgebra::SMatrix<T, R, C>
    );

    macro_rules! impl_float_glue {
        ($($t:ty),*) => {$(
            impl Accumulate<$t> for $t {
                #[inline(always)]
                fn accumulate(&mut self, g: $t) {
                    *self += g;
                }
            }
            impl ZeroLike for $t {
                #[inline(always)]
                fn zero_like(&self) -> Self {
                    0.0
                }
            }
            impl Contribution for $t {}
            impl Contribution for Vec<$t> {}
            impl<const N: usize> Contribution for [$t; N] {}
        )*};
    }
    impl_float_glue!(f32, f64);

    /// A caller's buffer for `NAME_grad_acc`, of any scalar (a
    /// second-order twin's `Vec` argument's too).
    ///
    /// # Panics
    ///
    /// If the buffer's length is not the argument's.
    impl<T: rules::Real> Accumulate<Vec<T>> for [T] {
        #[inline]
        #[track_caller]
        fn accumulate(&mut self, g: Vec<T>) {
            ::core::assert_eq!(
                self.len(),
                g.len(),
                "autograd: a gradient buffer's length differs from its argument's"
            );
            for (a, b) in self.iter_mut().zip(&g) {
                *a = *a + *b;
            }
            pool::give(g);
        }
    }

    /// A callee's adjoint of an array it took as a slice, of any scalar.
    ///
    /// # Panics
    ///
    /// If the lengths differ (they cannot: the slice was the array).
    impl<T: rules::Real, const N: usize> Accumulate<Vec<T>> for [T; N] {
        #[inline]
        #[track_caller]
        fn accumulate(&mut self, g: Vec<T>) {
            self.as_mut_slice().accumulate(g);
        }
    }

    /// A caller's buffer for `NAME_grad_acc` of an array argument, of any
    /// scalar (a generic function's `&[T; N]`, a second-order twin's).
    ///
    /// # Panics
    ///
    /// If the buffer's length is not the argument's.
    impl<T: rules::Real, const N: usize> Accumulate<[T; N]> for [T] {
        #[inline]
        #[track_caller]
        fn accumulate(&mut self, g: [T; N]) {
            ::core::assert_eq!(
                self.len(),
                N,
                "autograd: a gradient buffer's length differs from its argument's"
            );
            for (a, b) in self.iter_mut().zip(g) {
                *a = *a + b;
            }
        }
    }

    // Any scalar: a local `Vec` or array of a generic function (and of a
    // second-order twin) whose adjoint branches or loops join.
    impl<T: rules::Real> Accumulate<Vec<T>> for Vec<T> {
        #[inline]
        fn accumulate(&mut self, g: Vec<T>) {
            for (a, b) in self.iter_mut().zip(&g) {
                *a = *a + *b;
            }
            pool::give(g);
        }
    }
    impl<T: rules::Real, const N: usize> Accumulate<[T; N]> for [T; N] {
        #[inline]
        fn accumulate(&mut self, g: [T; N]) {
            for (a, b) in self.iter_mut().zip(g) {
                *a = *a + b;
            }
        }
    }

    // Any scalar: a `Vec` argument of a second-order twin. In a pooled
    // buffer: `NAME_grad_acc` gives its zero adjoints back when its
    // reverse sweep is done with them (see [`Recycle`]).
    impl<T: rules::Real> ZeroLike for Vec<T> {
        #[inline]
        fn zero_like(&self) -> Self {
            pool::zeros(self.len(), <T as rules::Real>::zero())
        }
    }

    /// `vec![elem; len]` in a buffer from the thread's pool: a local `Vec`
    /// of the sweeps, which `NAME_grad_acc` gives back when it is done.
    #[inline]
    pub fn filled<T: Clone>(elem: T, len: usize) -> Vec<T> {
        pool::zeros(len, elem)
    }

    /// What the sweeps own and copy: a `Vec`'s copy takes a pooled buffer
    /// and its buffer goes back to the pool once the sweep is done with
    /// it; any other value is cloned and dropped.
    pub trait Recycle: Sized {
        /// A copy of `self` (a loop's entry value the reverse starts from).
        fn copy(&self) -> Self;

        /// Gives `self`'s buffer to the thread's pool, if it has one.
        #[inline(always)]
        fn recycle(self) {}
    }

    impl<T: Clone> Recycle for Vec<T> {
        #[inline]
        fn copy(&self) -> Self {
            let mut v = pool::empty(self.len());
            v.extend_from_slice(self);
            v
        }

        #[inline]
        fn recycle(self) {
            pool::give(self);
        }
    }

    /// A spare buffer a loop's reverse passes from one iteration to the
    /// next.
    impl<T: Recycle> Recycle for Option<T> {
        #[inline]
        fn copy(&self) -> Self {
            self.as_ref().map(Recycle::copy)
        }

        #[inline]
        fn recycle(self) {
            if let Some(v) = self {
                v.recycle();
            }
        }
    }

    macro_rules! impl_recycle_clone {
        ($([$($g:tt)*] $t:ty),* $(,)?) => {$(
            impl<$($g)*> Recycle for $t {
                #[inline(always)]
                fn copy(&self) -> Self {
                    ::core::clone::Clone::clone(self)
                }
            }
        )*};
    }
    impl_recycle_clone!(
        [] f32,
        [] f64,
        [T: Clone, const N: usize] [T; N],
        [T: Clone, const N: usize] HeapArray<T, N>,
        [T: nalgebra::Scalar] nalgebra::DMatrix<T>,
        [T: nalgebra::Scalar] nalgebra::DVector<T>,
        [T: nalgebra::Scalar] nalgebra::RowDVector<T>,
        [T: nalgebra::Scalar, const R: usize, const C: usize] nalgebra::SMatrix<T, R, C>,
        [A: Clone] (A,),
        [A: Clone, B: Clone] (A, B),
        [A: Clone, B: Clone, C: Clone] (A, B, C),
        [A: Clone, B: Clone, C: Clone, D: Clone] (A, B, C, D),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone] (A, B, C, D, E),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone, F: Clone] (A, B, C, D, E, F),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone, F: Clone, G: Clone] (A, B, C, D, E, F, G),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone, F: Clone, G: Clone, H: Clone]
            (A, B, C, D, E, F, G, H),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone, F: Clone, G: Clone, H: Clone, I: Clone]
            (A, B, C, D, E, F, G, H, I),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone, F: Clone, G: Clone, H: Clone, I: Clone,
            J: Clone] (A, B, C, D, E, F, G, H, I, J),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone, F: Clone, G: Clone, H: Clone, I: Clone,
            J: Clone, K: Clone] (A, B, C, D, E, F, G, H, I, J, K),
        [A: Clone, B: Clone, C: Clone, D: Clone, E: Clone, F: Clone, G: Clone, H: Clone, I: Clone,
            J: Clone, K: Clone, L: Clone] (A, B, C, D, E, F, G, H, I, J, K, L),
    );

    /// A copy of `v` (see [`Recycle::copy`]).
    #[inline(always)]
    pub fn copy<T: Recycle>(v: &T) -> T {
        v.copy()
    }

    /// The spare buffer a loop's reverse handed on, or a copy of `v`.
    #[inline(always)]
    pub fn spare_or_copy<T: Recycle>(spare: &mut Option<T>, v: &T) -> T {
        match spare.take() {
            Some(buffer) => buffer,
            None => v.copy(),
        }
    }

    /// `v`, which the sweep is done with, to the pool (see
    /// [`Recycle::recycle`]).
    #[inline(always)]
    pub fn recycle<T: Recycle>(v: T) {
        v.recycle();
    }

    // Any scalar: a generic function's (and a second-order twin's) local
    // array.
    impl<T: rules::Real, const N: usize> ZeroLike for [T; N] {
        #[inline(always)]
        fn zero_like(&self) -> Self {
            [<T as rules::Real>::zero(); N]
        }
    }

    /// The sum of an adjoint's elements, in order: the adjoint of the one
    /// value `[e; n]` repeats.
    #[inline]
    pub fn element_sum<T: rules::Real>(g: &[T]) -> T {
        g.iter().fold(<T as rules::Real>::zero(), |s, v| s + *v)
    }

    macro_rules! impl_matrix_glue {
        ($([$($g:tt)*] $m:ty),*) => {$(
            impl<$($g)*> Accumulate<$m> for $m {
                #[inline]
                fn accumulate(&mut self, g: $m) {
                    *self += g;
                }
            }
            impl<$($g)*> Contribution for $m {}
            impl<$($g)*> ZeroLike for $m {
                #[inline]
                fn zero_like(&self) -> Self {
                    Self::zeros_generic(self.shape_generic().0, self.shape_generic().1)
                }
            }
        )*};
    }
    impl_matrix_glue!(
        [T: rules::linalg::MatrixScalar] nalgebra::DMatrix<T>,
        [T: rules::linalg::MatrixScalar] nalgebra::DVector<T>,
        [T: rules::linalg::MatrixScalar] nalgebra::RowDVector<T>,
        [T: rules::linalg::MatrixScalar, const R: usize, const C: usize] nalgebra::SMatrix<T, R, C>
    );

    /// `m.map(f)` in `m`'s own buffer, for a matrix nothing reads again:
    /// the same `f` on the same elements in the same order, so the same
    /// values bit for bit, without a second allocation.
    pub trait MapInPlace: Sized {
        /// The element type.
        type Elem;
        /// `self` with `f` applied to every element.
        fn map_in_place(self, f: impl Fn(Self::Elem) -> Self::Elem) -> Self;
    }

    macro_rules! impl_map_in_place {
        ($([$($g:tt)*] $m:ty),*) => {$(
            impl<$($g)*> MapInPlace for $m {
                type Elem = T;
                #[inline]
                fn map_in_place(mut self, f: impl Fn(T) -> T) -> Self {
                    self.apply(|v| *v = f(*v));
                    self
                }
            }
        )*};
    }
    impl_map_in_place!(
        [T: rules::linalg::MatrixScalar] nalgebra::DMatrix<T>,
        [T: rules::linalg::MatrixScalar] nalgebra::DVector<T>,
        [T: rules::linalg::MatrixScalar] nalgebra::RowDVector<T>,
        [T: rules::linalg::MatrixScalar, const R: usize, const C: usize] nalgebra::SMatrix<T, R, C>
    );

    #[inline(always)]
    pub fn map_in_place<M: MapInPlace>(m: M, f: impl Fn(M::Elem) -> M::Elem) -> M {
        m.map_in_place(f)
    }

    /// An adjoint a callee's pullback returns for an argument.
    ///
    /// Deliberately not implemented for [`NoGradient`]: a differentiable
    /// value passed where the callee says `#[constant]` would otherwise lose
    /// its gradient without a word.
    #[diagnostic::on_unimplemented(
        message = "a differentiable value is passed to an argument that the called function marks `#[constant]` (or that is not differentiable)",
        label = "its gradient would be lost here",
        note = "wrap the argument in `autograd::stop_gradient(..)` if no gradient should flow through it, or drop `#[constant]` in the callee"
    )]
    pub trait Contribution {}

    /// What [`contribution`] gives for a slot: the adjoint itself, or for a
    /// [`NoGradient`] (whose check fails) a type that any adjoint takes,
    /// so that the failed check is the one error.
    pub trait Checked {
        /// The slot's adjoint, or [`Unreachable`].
        type Adjoint;
        /// The slot as its adjoint.
        fn checked(self) -> Self::Adjoint;
    }

    impl<G: Contribution> Checked for G {
        type Adjoint = G;
        #[inline(always)]
        fn checked(self) -> G {
            self
        }
    }

    impl Checked for NoGradient {
        type Adjoint = Unreachable;
        fn checked(self) -> Unreachable {
            ::core::unreachable!("a `NoGradient` slot fails `Contribution` at compile time")
        }
    }

    /// A field a `match` arm binds (`tenor` of `Deposit { tenor }`), read by
    /// the macro's code as a value: through a reference to a `Copy` field
    /// (a `match` on `&Instrument` binds `tenor: &f64`) it is the field's
    /// value, so that arithmetic takes it as it takes any float; anything
    /// else (`&Vec<f64>`, a field matched by value) as bound. The choice
    /// is by method resolution: `(&Payload(v)).payload()` tries
    /// [`PayloadCopied`] on `&Payload<&T>` first, then [`PayloadAsBound`].
    #[derive(Clone, Copy)]
    pub struct Payload<T>(pub T);

    /// See [`Payload`]: a reference to a `Copy` value, read by value.
    pub trait PayloadCopied {
        type Value;
        fn payload(self) -> Self::Value;
    }

    impl<T: Copy> PayloadCopied for &Payload<&T> {
        type Value = T;
        #[inline(always)]
        fn payload(self) -> T {
            *self.0
        }
    }

    /// See [`Payload`]: any other binding, as it is.
    pub trait PayloadAsBound {
        type Value;
        fn payload(self) -> Self::Value;
    }

    impl<T> PayloadAsBound for Payload<T> {
        type Value = T;
        #[inline(always)]
        fn payload(self) -> T {
            self.0
        }
    }

    /// Checks that a pullback slot holds an adjoint (see [`Contribution`]).
    #[inline(always)]
    pub fn contribution<G: Contribution + Checked>(g: G) -> G::Adjoint {
        g.checked()
    }

    #[inline(always)]
    #[track_caller]
    pub fn accumulate<T: Accumulate<G> + ?Sized, G>(acc: &mut T, g: G) {
        acc.accumulate(g);
    }

    /// `*acc += g` for the adjoint of a value of a generic scalar type `T`
    /// (`Float` has no `+=`, and a blanket `Accumulate` for every `T` would
    /// overlap the matrices').
    #[inline(always)]
    pub fn accumulate_scalar<T: rules::Real>(acc: &mut T, g: T) {
        *acc = *acc + g;
    }

    /// `acc[i] += g[i]` for the adjoint of a slice of a generic scalar type
    /// (a caller's adjoint, or a caller's buffer for `NAME_grad_acc`).
    ///
    /// # Panics
    ///
    /// If the buffer's length is not the argument's.
    #[inline]
    #[track_caller]
    pub fn accumulate_elements<T: rules::Real>(acc: &mut [T], g: Vec<T>) {
        ::core::assert_eq!(
            acc.len(),
            g.len(),
            "autograd: a gradient buffer's length differs from its argument's"
        );
        for (a, b) in acc.iter_mut().zip(&g) {
            *a = *a + *b;
        }
        pool::give(g);
    }

    /// Checks that a call of a generic function and the derivative the
    /// generated code found for it are the same function, by the names of
    /// their instantiations: a generic function's item type is `'static`
    /// only if its scalar is, so `TypeId` cannot compare them.
    #[inline(always)]
    #[track_caller]
    pub fn same_generic_function<F>(called: &F, differentiated: &'static str) {
        let _ = called;
        if ::core::any::type_name::<F>() != differentiated {
            different_function(::core::any::type_name::<F>());
        }
    }

    /// How a caller whose own pullback is reused (`NAME_jacobian` runs it
    /// once per output, so it must be `Clone`) makes a call: `of(&vjp)`
    /// learns the callee's pullback type `P` from its VJP without calling
    /// it, then `.make(vjp, plain)` is [`KeepCloned::make`] where `P` is
    /// `Clone` (the call through its VJP, the pullback kept), else
    /// [`KeepRerun::make`] (found by auto-reference only when the first does
    /// not apply: the plain call, the reverse sweep makes the call again).
    /// The caller's reverse sweep takes either through
    /// [`KeptPullback::pullback`].
    pub struct KeepPullback<V, P>(::core::marker::PhantomData<fn() -> (V, P)>);

    impl<V, P> KeepPullback<V, P> {
        #[inline(always)]
        pub fn of<F: FnOnce() -> (V, P)>(_: &F) -> Self {
            KeepPullback(::core::marker::PhantomData)
        }
    }

    /// A callee's pullback the caller's forward sweep kept.
    pub struct Kept<P>(P);

    /// No pullback kept (it is not `Clone`): the reverse sweep makes the call
    /// again.
    pub struct Rerun<P>(::core::marker::PhantomData<fn() -> P>);

    impl<P: Clone> Clone for Kept<P> {
        #[inline(always)]
        fn clone(&self) -> Self {
            Kept(self.0.clone())
        }
    }

    impl<P> Clone for Rerun<P> {
        #[inline(always)]
        fn clone(&self) -> Self {
            Rerun(::core::marker::PhantomData)
        }
    }

    /// See [`KeepPullback`].
    pub trait KeepCloned<V, P> {
        fn make<F: FnOnce() -> (V, P), G: FnOnce() -> V>(self, vjp: F, plain: G) -> (V, Kept<P>);
    }

    impl<V, P: Clone> KeepCloned<V, P> for KeepPullback<V, P> {
        #[inline(always)]
        fn make<F: FnOnce() -> (V, P), G: FnOnce() -> V>(self, vjp: F, _: G) -> (V, Kept<P>) {
            let (value, pullback) = vjp();
            (value, Kept(pullback))
        }
    }

    /// See [`KeepPullback`].
    pub trait KeepRerun<V, P> {
        fn make<F: FnOnce() -> (V, P), G: FnOnce() -> V>(&self, vjp: F, plain: G) -> (V, Rerun<P>);
    }

    impl<V, P> KeepRerun<V, P> for KeepPullback<V, P> {
        #[inline(always)]
        fn make<F: FnOnce() -> (V, P), G: FnOnce() -> V>(&self, _: F, plain: G) -> (V, Rerun<P>) {
            (plain(), Rerun(::core::marker::PhantomData))
        }
    }

    /// The pullback of a call made through [`KeepPullback`].
    pub trait KeptPullback<P> {
        /// The kept pullback, else `call()`'s.
        fn pullback(self, call: impl FnOnce() -> P) -> P;
    }

    impl<P> KeptPullback<P> for Kept<P> {
        #[inline(always)]
        fn pullback(self, _: impl FnOnce() -> P) -> P {
            self.0
        }
    }

    impl<P> KeptPullback<P> for Rerun<P> {
        #[inline(always)]
        fn pullback(self, call: impl FnOnce() -> P) -> P {
            call()
        }
    }

    /// A callee whose sweeps add its arguments' adjoints straight into its
    /// caller's (the macro implements it for a function of slice and
    /// float arguments with an array or tuple result): a call its caller's
    /// reverse sweep makes (see the macro's `analysis::deferred_call`)
    /// then takes no zeroed adjoint per slice argument from the pool, and
    /// the caller adds nothing back. `Args`, `Seed` and `Buffers` are the
    /// arguments, a reference to the result's adjoint and the adjoints'
    /// buffers, as tuples.
    pub trait AddsInto<Args, Seed, Buffers> {
        /// Runs the callee's sweeps at `seed`, adding into `buffers`;
        /// `called` is the function the caller named, checked to be the
        /// callee (see the macro's `same_callee`).
        fn add_into<F: 'static>(called: &F, args: Args, seed: Seed, buffers: Buffers);
    }

    /// A call the caller's reverse sweep makes, for [`AddsIntoCallee`]
    /// where the callee `C` takes these arguments, else (found by
    /// auto-reference only when that does not apply) [`AddsIntoPullback`],
    /// which leaves the call to the callee's pullback.
    pub struct AddsIntoCall<C, A, S, B> {
        parts: ::core::cell::Cell<Option<(A, S, B)>>,
        callee: ::core::marker::PhantomData<fn() -> C>,
    }

    impl<C, A, S, B> AddsIntoCall<C, A, S, B> {
        #[inline(always)]
        pub fn new(args: A, seed: S, buffers: B) -> Self {
            AddsIntoCall {
                parts: ::core::cell::Cell::new(Some((args, seed, buffers))),
                callee: ::core::marker::PhantomData,
            }
        }
    }

    /// See [`AddsIntoCall`].
    pub trait AddsIntoCallee {
        /// Whether the call was made (always).
        fn add_into<F: 'static>(&self, called: &F) -> bool;
    }

    impl<C: AddsInto<A, S, B>, A, S, B> AddsIntoCallee for AddsIntoCall<C, A, S, B> {
        #[inline(always)]
        fn add_into<F: 'static>(&self, called: &F) -> bool {
            if let Some((args, seed, buffers)) = self.parts.take() {
                C::add_into(called, args, seed, buffers);
            }
            true
        }
    }

    /// See [`AddsIntoCall`].
    pub trait AddsIntoPullback {
        /// Whether the call was made (never: the caller's pullback call
        /// follows).
        fn add_into<F: 'static>(&self, called: &F) -> bool;
    }

    impl<T> AddsIntoPullback for &T {
        #[inline(always)]
        fn add_into<F: 'static>(&self, _: &F) -> bool {
            false
        }
    }

    /// The `TypeId` of a function item (every function item has a type of
    /// its own).
    #[inline(always)]
    pub fn type_id_of<F: 'static>(_: &F) -> ::core::any::TypeId {
        ::core::any::TypeId::of::<F>()
    }

    /// Checks that a call and the derivative the generated code found for
    /// it are the same function (see the macro's `same_callee`).
    #[inline(always)]
    #[track_caller]
    pub fn same_function<F: 'static>(called: &F, differentiated: ::core::any::TypeId) {
        if type_id_of(called) != differentiated {
            different_function(::core::any::type_name::<F>());
        }
    }

    #[cold]
    #[inline(never)]
    #[track_caller]
    fn different_function(called: &str) -> ! {
        ::core::panic!(
            "autograd: `{called}` is not the function whose derivative the generated code found under its name (a local item or an import shadows the one the derivative belongs to); annotate `{called}` with `#[differentiable]`, or call the intended function by its full path"
        )
    }

    /// `stop_gradient(value)` through the function the user's code named,
    /// checked to be autograd's: a function of another crate or the user's
    /// own with that name is not silently given autograd's derivative.
    #[inline(always)]
    #[track_caller]
    pub fn stop_gradient_as_called<F: FnOnce(T) -> T + 'static, T: 'static>(
        called: F,
        value: T,
    ) -> T {
        if type_id_of(&called) != type_id_of(&crate::stop_gradient::<T>) {
            different_function(::core::any::type_name::<F>());
        }
        called(value)
    }

    /// `compare(a, b)`: the comparison of `max_by(compare)` applied to two
    /// elements read by index. The closure is checked after the elements,
    /// so its parameters take their type as in the user's `max_by`.
    #[inline(always)]
    pub fn compare_by<A: ?Sized, R>(a: &A, b: &A, compare: impl FnOnce(&A, &A) -> R) -> R {
        compare(a, b)
    }

    /// The length of `x[start..end]` for an `x` of `len` elements (a
    /// sub-slice read by index or iterated), panicking with the message of
    /// that slicing where the range is out of bounds.
    #[inline]
    #[track_caller]
    pub fn sub_slice_len(len: usize, start: usize, end: usize) -> usize {
        // The same slicing of as many zero-sized elements: no memory, the
        // same checks.
        ::std::vec![(); len][start..end].len()
    }

    /// The length of `x[start..]` for an `x` of `len` elements, panicking
    /// as that slicing does.
    #[inline]
    #[track_caller]
    pub fn sub_slice_from_len(len: usize, start: usize) -> usize {
        ::std::vec![(); len][start..].len()
    }

    /// `index`, checked as indexing a sub-slice of `len` elements checks
    /// it (the generated code reads the whole at the offset index).
    #[inline]
    #[track_caller]
    pub fn sub_index(len: usize, index: usize) -> usize {
        if index >= len {
            ::core::panic!("index out of bounds: the len is {len} but the index is {index}");
        }
        index
    }

    /// The `f64` a second-order twin's number stands for, passed to a
    /// function without `#[differentiable]` (whose result carries no
    /// derivative): its real part.
    #[inline]
    pub fn real_f64<T: Float>(x: T) -> f64 {
        x.to_f64().unwrap_or(f64::NAN)
    }

    /// [`real_f64`] of each element: the `Vec<f64>` a plain function is
    /// passed in place of a twin's slice, array or `Vec`.
    pub fn real_f64s<T: Float, S: AsRef<[T]> + ?Sized>(s: &S) -> Vec<f64> {
        s.as_ref().iter().map(|&x| real_f64(x)).collect()
    }

    /// `literal`, typed like `previous`: a literal assigned to a variable
    /// takes the variable's type, as the assignment does in the primal.
    #[inline(always)]
    pub fn like<T: Copy>(previous: T, literal: T) -> T {
        let _ = previous;
        literal
    }

    /// A zero of the same type (and shape) as `v`.
    pub trait ZeroLike {
        /// The zero.
        fn zero_like(&self) -> Self;
    }

    #[inline(always)]
    pub fn zero_like<T: ZeroLike>(v: &T) -> T {
        v.zero_like()
    }

    // A tuple of floats of one type, the tangent of a tuple result, and a
    // call's tuple whose adjoint a caller adds into: of any scalar (a
    // second-order twin's dual numbers too).
    macro_rules! impl_tuple_zero {
        ($($k:tt),+) => {
            impl<T: rules::Real> ZeroLike for ($(impl_tuple_zero!(@ty $k T),)+) {
                #[inline(always)]
                fn zero_like(&self) -> Self {
                    ($(impl_tuple_zero!(@zero $k T),)+)
                }
            }
        };
        (@ty $k:tt $t:ident) => { $t };
        (@zero $k:tt $t:ident) => { <$t as rules::Real>::zero() };
    }
    impl_tuple_zero!(0, 1);
    impl_tuple_zero!(0, 1, 2);
    impl_tuple_zero!(0, 1, 2, 3);
    impl_tuple_zero!(0, 1, 2, 3, 4);
    impl_tuple_zero!(0, 1, 2, 3, 4, 5);
    impl_tuple_zero!(0, 1, 2, 3, 4, 5, 6);
    impl_tuple_zero!(0, 1, 2, 3, 4, 5, 6, 7);

    /// Checks a caller's buffer for the adjoint of a slice argument of
    /// length `len` in `NAME_grad_acc`, whose sweeps add into it in place.
    ///
    /// # Panics
    ///
    /// If the buffer's length is not the argument's.
    #[inline(always)]
    #[track_caller]
    pub fn check_buffer<T>(buffer: &[T], len: usize) {
        if buffer.len() != len {
            buffer_length(buffer.len(), len);
        }
    }

    #[cold]
    #[inline(never)]
    #[track_caller]
    fn buffer_length(buffer: usize, x: usize) -> ! {
        ::core::panic!(
            "autograd: a gradient buffer's length differs from its argument's (buffer {buffer}, argument {x})"
        )
    }

    /// A callee's adjoint added into a caller's buffer that is the
    /// caller's adjoint (`NAME_grad_acc`'s sweeps hold a slice argument's
    /// adjoint as the caller's `&mut [f64]`).
    impl<T: Accumulate<G> + ?Sized, G> Accumulate<G> for &mut T {
        #[inline(always)]
        #[track_caller]
        fn accumulate(&mut self, g: G) {
            (**self).accumulate(g);
        }
    }

    /// The adjoint of a large fixed-size array argument (`&[f64; 40_000]`):
    /// zeros on the heap, allocated there without passing through the
    /// stack, so the sweeps need no more stack than the primal (a debug
    /// build copies an array at every move).
    #[inline]
    pub fn zeros_boxed<T: rules::Real, const N: usize>(_: &[T; N]) -> Box<[T; N]> {
        match ::std::vec![<T as rules::Real>::zero(); N]
            .into_boxed_slice()
            .try_into()
        {
            Ok(zeros) => zeros,
            Err(_) => ::core::unreachable!("a boxed slice of N elements is a boxed [T; N]"),
        }
    }

    /// An array the body declares longer than a stack frame should hold
    /// (`[0.0; 40_000]`), and its adjoint, kept on the heap: the sweeps move
    /// a pointer where a debug build copies the whole array at every `let`,
    /// and a copy (a loop's carried variable) is made on the heap too.
    /// Indexing and `len()` read it as the array.
    pub struct HeapArray<T, const N: usize>(Box<[T; N]>);

    impl<T: Clone, const N: usize> HeapArray<T, N> {
        fn from_vec(v: Vec<T>) -> Self {
            match v.into_boxed_slice().try_into() {
                Ok(array) => HeapArray(array),
                Err(_) => ::core::unreachable!("a boxed slice of N elements is a boxed [T; N]"),
            }
        }
    }

    /// `[elem; N]` built on the heap without passing through the stack.
    #[inline]
    pub fn filled_boxed<T: Clone, const N: usize>(elem: T) -> HeapArray<T, N> {
        HeapArray::from_vec(::std::vec![elem; N])
    }

    impl<T: Clone, const N: usize> Clone for HeapArray<T, N> {
        #[inline]
        fn clone(&self) -> Self {
            HeapArray::from_vec(self.0.to_vec())
        }
    }

    impl<T, const N: usize> ::core::ops::Deref for HeapArray<T, N> {
        type Target = [T; N];
        #[inline(always)]
        fn deref(&self) -> &[T; N] {
            &self.0
        }
    }

    impl<T, const N: usize> ::core::ops::DerefMut for HeapArray<T, N> {
        #[inline(always)]
        fn deref_mut(&mut self) -> &mut [T; N] {
            &mut self.0
        }
    }

    impl<T: rules::Real, const N: usize> ZeroLike for HeapArray<T, N> {
        #[inline]
        fn zero_like(&self) -> Self {
            HeapArray(zeros_boxed(&self.0))
        }
    }

    /// Contributions into an adjoint held on the heap (see [`zeros_boxed`]).
    impl<A: Accumulate<G> + ?Sized, G> Accumulate<G> for Box<A> {
        #[inline(always)]
        #[track_caller]
        fn accumulate(&mut self, g: G) {
            (**self).accumulate(g);
        }
    }

    /// An empty row for a struct's adjoint flattened (`__flatten_into`),
    /// with room for `len` fields, from the thread's pool (the caller's
    /// `accumulate` gives it back).
    #[inline]
    pub fn flat_row(len: usize) -> Vec<f64> {
        pool::empty(len)
    }

    /// The adjoint of a slice argument: zeros of the same length, in a
    /// buffer from the thread's pool (`NAME_grad_acc` and a caller's
    /// `accumulate` give it back).
    #[inline]
    pub fn zeros_like_slice<T: rules::Real>(x: &[T]) -> Vec<T> {
        pool::zeros(x.len(), T::zero())
    }

    /// A fused loop's adjoint of a slice, filled for an accumulator adjoint
    /// of one, scaled to the actual adjoint `ds`; at an infinite or NaN
    /// `ds`, elements the loop never read stay zero. At a finite one every
    /// element is multiplied, as [`Seeded`] does: a dual number's
    /// comparisons see its real part only, so `0 + 2ε` is no zero and
    /// `1 + ε` no one.
    #[inline]
    pub fn scale_unit<T: rules::Real>(d: &mut [T], ds: T) {
        if ds.is_finite() {
            scale_all(d, ds);
        } else {
            for e in d.iter_mut().filter(|e| **e != T::zero()) {
                *e = *e * ds;
            }
        }
    }

    /// An adjoint computed at seed one, scaled to a finite seed `s` (the
    /// pullback of a function whose sweeps ran in its `__grad_acc_full`):
    /// the adjoints are linear in the seed, so this is what the reverse
    /// sweep at `s` gives, to rounding (exactly at seed one, which
    /// `NAME_grad` uses). At ∞ or NaN the pullback runs the sweep again
    /// instead.
    ///
    /// Every entry is multiplied, zeros and seed one included: in the
    /// second-order twin the scalar is a dual number, whose comparisons
    /// see its real part only, so an entry `0 + 2ε` (a zero gradient
    /// entry with a non-zero `H·v` entry) is no zero, and a seed `1 + ε`
    /// no one.
    pub trait Seeded<S> {
        /// `self · s`.
        fn seeded(self, s: S) -> Self;
        /// Every entry zero again, for the sweep's second run.
        fn zero(&mut self);
    }

    impl<T: rules::Real> Seeded<T> for T {
        #[inline(always)]
        fn seeded(self, s: T) -> T {
            self * s
        }
        #[inline(always)]
        fn zero(&mut self) {
            *self = T::zero();
        }
    }

    /// Each element times `s` (see [`Seeded`]).
    #[inline]
    fn scale_all<T: rules::Real>(d: &mut [T], s: T) {
        for e in d.iter_mut() {
            *e = *e * s;
        }
    }

    impl<T: rules::Real> Seeded<T> for Vec<T> {
        #[inline]
        fn seeded(mut self, s: T) -> Self {
            scale_all(&mut self, s);
            self
        }
        #[inline]
        fn zero(&mut self) {
            self.fill(T::zero());
        }
    }

    impl<T: rules::Real, const N: usize> Seeded<T> for [T; N] {
        #[inline]
        fn seeded(mut self, s: T) -> Self {
            scale_all(&mut self, s);
            self
        }
        #[inline]
        fn zero(&mut self) {
            self.fill(T::zero());
        }
    }

    impl<T: rules::Real, const N: usize> Seeded<T> for Box<[T; N]> {
        #[inline]
        fn seeded(mut self, s: T) -> Self {
            scale_all(&mut *self, s);
            self
        }
        #[inline]
        fn zero(&mut self) {
            self.fill(T::zero());
        }
    }

    impl<T, R, C, S> Seeded<T> for nalgebra::Matrix<T, R, C, S>
    where
        T: rules::Real,
        R: nalgebra::Dim,
        C: nalgebra::Dim,
        S: nalgebra::RawStorageMut<T, R, C> + nalgebra::IsContiguous,
    {
        #[inline]
        fn seeded(mut self, s: T) -> Self {
            scale_all(self.as_mut_slice(), s);
            self
        }
        #[inline]
        fn zero(&mut self) {
            self.as_mut_slice().fill(T::zero());
        }
    }

    impl<T> Seeded<T> for NoGradient {
        #[inline(always)]
        fn seeded(self, _: T) -> Self {
            self
        }
        #[inline(always)]
        fn zero(&mut self) {}
    }

    /// Adds a fused loop's unit adjoint of a slice, times `ds`, into the
    /// slice's adjoint, and gives the unit buffer back to the pool (so a
    /// gradient in steady state does not allocate it).
    #[inline]
    pub fn add_scaled<T: rules::Real>(d: &mut [T], ds: T, unit: Vec<T>) {
        for (e, u) in d.iter_mut().zip(&unit) {
            *e = *e + ds * *u;
        }
        pool::give(unit);
    }

    /// A counter stepped by `step` on each of `trips` iterations from
    /// `init`, as the reverse sweep computes it at an iteration's entry
    /// instead of stacking it.
    #[inline(always)]
    pub fn induction<T>(init: T, step: T, trips: usize) -> T
    where
        T: Copy + core::ops::Add<Output = T> + core::ops::Mul<Output = T> + TryFrom<usize>,
    {
        match T::try_from(trips) {
            Ok(t) => init + step * t,
            Err(_) => unreachable!(
                "autograd: a loop ran more iterations than its counter's type counts (a bug in autograd)"
            ),
        }
    }

    /// Pops what the forward sweep pushed. The reverse sweep pops exactly
    /// as many values as the forward sweep pushed, so the stack is never
    /// empty here.
    #[inline(always)]
    pub fn pop<T>(stack: &mut Vec<T>) -> T {
        match stack.pop() {
            Some(v) => v,
            None => {
                unreachable!("autograd: reverse sweep popped an empty stack (a bug in autograd)")
            }
        }
    }

    /// The results of a loop's expensive operations, one entry per
    /// iteration, kept only while the whole loop's take at most
    /// [`Cache::BUDGET`] bytes: beyond, the reverse sweep recomputes them
    /// rather than hold memory in proportion to the trip count.
    // `Clone`: a reusable pullback (`NAME_jacobian`'s) holds its caches.
    #[derive(Clone)]
    pub struct Cache<T> {
        /// Room for every iteration while the cache is on, none while off:
        /// a push is one comparison. Pooled, so a call in steady state
        /// does not allocate it.
        values: Stack<T>,
    }

    impl<T> Cache<T> {
        /// The most a loop's cache holds, in bytes.
        pub const BUDGET: usize = 1 << 20;

        /// A cache for loops that have not started.
        #[inline]
        pub fn new() -> Self {
            Cache {
                values: Stack::new(),
            }
        }

        /// A cache for one loop of `trips` iterations.
        #[inline]
        pub fn for_trips(trips: usize) -> Self {
            let mut cache = Cache::new();
            cache.start(trips);
            cache
        }

        /// Starts a loop of `trips` iterations: caches its values if they
        /// fit in the budget beside what the cache holds (a loop taped for
        /// a whole nest starts once per iteration of the nest, before the
        /// reverse takes anything), else holds nothing, so the reverse
        /// recomputes every run before this one too (it pops last first).
        #[inline]
        pub fn start(&mut self, trips: usize) {
            let total = self.values.len().saturating_add(trips);
            if total.saturating_mul(core::mem::size_of::<T>()) <= Self::BUDGET {
                self.values.reserve(trips);
            } else {
                self.values = Stack::new();
            }
        }

        /// One iteration's values, if the cache is on.
        #[inline(always)]
        pub fn push(&mut self, v: T) {
            if self.values.len() < self.values.capacity() {
                self.values.push(v);
            }
        }

        /// The last iteration's values not yet taken, or `None` if the
        /// cache is off.
        #[inline(always)]
        pub fn pop(&mut self) -> Option<T> {
            self.values.pop()
        }
    }

    impl<T> Default for Cache<T> {
        fn default() -> Self {
            Cache::new()
        }
    }

    /// The value of a call the forward sweep recorded in a branch. The
    /// reverse sweep takes the branch the forward sweep took, so the record
    /// is there.
    #[inline(always)]
    pub fn recorded_value<V: Clone, P>(record: &Option<(V, P)>) -> V {
        match record {
            Some((v, _)) => v.clone(),
            None => unreachable!(
                "autograd: reverse sweep in a branch the forward sweep did not take (a bug in autograd)"
            ),
        }
    }

    /// The pullback of a call the forward sweep recorded in a branch.
    #[inline(always)]
    pub fn recorded_pullback<V, P>(record: Option<(V, P)>) -> P {
        match record {
            Some((_, pb)) => pb,
            None => unreachable!(
                "autograd: reverse sweep in a branch the forward sweep did not take (a bug in autograd)"
            ),
        }
    }

    /// Multiplies an adjoint by a scalar (the implicit function theorem's
    /// quotient −(∂r/∂θ)/(∂r/∂x) by the pullback's seed).
    pub trait Scale<T> {
        /// `self · k`.
        fn scale(self, k: T) -> Self;
    }
    macro_rules! impl_scale {
        ($($t:ty),*) => {$(
            impl Scale<$t> for $t {
                #[inline(always)]
                fn scale(self, k: $t) -> Self {
                    rules::mul(self, k)
                }
            }
            impl Scale<$t> for Vec<$t> {
                #[inline]
                fn scale(mut self, k: $t) -> Self {
                    self.iter_mut().for_each(|v| *v = rules::mul(*v, k));
                    self
                }
            }
            impl Scale<$t> for NoGradient {
                #[inline(always)]
                fn scale(self, _: $t) -> Self {
                    self
                }
            }
        )*};
    }
    impl_scale!(f32, f64);
    macro_rules! impl_scale_matrix {
        ($([$($g:tt)*] $m:ty),*) => {$(
            impl<$($g)*> Scale<T> for $m {
                #[inline]
                fn scale(mut self, k: T) -> Self {
                    self.iter_mut().for_each(|v| *v = rules::mul(*v, k));
                    self
                }
            }
        )*};
    }
    impl_scale_matrix!(
        [T: rules::linalg::MatrixScalar] nalgebra::DMatrix<T>,
        [T: rules::linalg::MatrixScalar] nalgebra::DVector<T>,
        [T: rules::linalg::MatrixScalar] nalgebra::RowDVector<T>,
        [T: rules::linalg::MatrixScalar, const R: usize, const C: usize] nalgebra::SMatrix<T, R, C>
    );
    /// An operand of an arithmetic operator whose type the macro cannot
    /// see (a call's result, a method of a constant), next to a matrix: a
    /// float by value, a matrix by reference. nalgebra implements
    /// `&m * s` and `s * &m` for a float `s`, but not `&m * &s`.
    pub trait OperatorOperand {
        /// `Self` for a float, `&Self` for a matrix.
        type Operand<'a>
        where
            Self: 'a;
        fn operator_operand(&self) -> Self::Operand<'_>;
    }
    impl OperatorOperand for f64 {
        type Operand<'a> = f64;
        #[inline(always)]
        fn operator_operand(&self) -> f64 {
            *self
        }
    }
    impl OperatorOperand for f32 {
        type Operand<'a> = f32;
        #[inline(always)]
        fn operator_operand(&self) -> f32 {
            *self
        }
    }
    /// An integer of a plain helper's tuple (`let (i, w) = bracket(t);`,
    /// `i * n + j`): by value, as the primal reads it.
    macro_rules! integer_operator_operand {
        ($($t:ty),*) => {$(
            impl OperatorOperand for $t {
                type Operand<'a> = $t;
                #[inline(always)]
                fn operator_operand(&self) -> $t {
                    *self
                }
            }
        )*};
    }
    integer_operator_operand!(usize, isize, u8, u16, u32, u64, i8, i16, i32, i64);
    impl<T, R, C, S> OperatorOperand for nalgebra::Matrix<T, R, C, S>
    where
        T: nalgebra::Scalar,
        R: nalgebra::Dim,
        C: nalgebra::Dim,
        S: nalgebra::RawStorage<T, R, C>,
    {
        type Operand<'a>
            = &'a Self
        where
            Self: 'a;
        #[inline(always)]
        fn operator_operand(&self) -> &Self {
            self
        }
    }
    /// A K-lane tangent, by value (it is `Copy`), as a float's.
    impl<T: Copy, const K: usize> OperatorOperand for Lanes<T, K> {
        type Operand<'a>
            = Lanes<T, K>
        where
            Self: 'a;
        #[inline(always)]
        fn operator_operand(&self) -> Lanes<T, K> {
            *self
        }
    }
    impl<X: OperatorOperand + ?Sized> OperatorOperand for &X {
        type Operand<'a>
            = X::Operand<'a>
        where
            Self: 'a;
        #[inline(always)]
        fn operator_operand(&self) -> X::Operand<'_> {
            (**self).operator_operand()
        }
    }
    #[inline(always)]
    pub fn operator_operand<X: OperatorOperand + ?Sized>(x: &X) -> X::Operand<'_> {
        x.operator_operand()
    }

    #[inline(always)]
    pub fn scale<A: Scale<T>, T>(adjoint: A, k: T) -> A {
        adjoint.scale(k)
    }

    /// dx/dθ = −(∂r/∂θ)/(∂r/∂x) for one argument's partial ∂r/∂θ of the
    /// residual, element by element, as one quotient of the two partials:
    /// never through 1/(∂r/∂x), which overflows where ∂r/∂x is subnormal
    /// while the quotient is an ordinary number. It is computed (and
    /// checked) once, at seed 1; the pullback multiplies it by its seed, so
    /// a tiny seed never makes a subnormal intermediate and a large one
    /// overflows only where the adjoint itself does.
    pub trait ImplicitQuotient<T>: NotANumber {
        /// −self / d_solution, setting `singular` where a quotient is not
        /// finite while its partial is.
        fn implicit_quotient(self, d_solution: T, singular: &mut bool) -> Self;
    }

    /// An adjoint set to NaN in every element: a solver returning a plain
    /// float has no `Result` to report a missing derivative through.
    pub trait NotANumber: Sized {
        /// NaN in every element.
        fn not_a_number(self) -> Self;
    }

    #[inline(always)]
    fn quotient<T: rules::Real>(partial: T, d_solution: T, singular: &mut bool) -> T {
        let q = rules::neg(rules::div(partial, d_solution));
        *singular |= !q.is_finite() && partial.is_finite();
        q
    }

    macro_rules! impl_quotient {
        ($($t:ty),*) => {$(
            impl ImplicitQuotient<$t> for $t {
                #[inline(always)]
                fn implicit_quotient(self, d_solution: $t, singular: &mut bool) -> Self {
                    quotient(self, d_solution, singular)
                }
            }
            impl NotANumber for $t {
                #[inline(always)]
                fn not_a_number(self) -> Self {
                    <$t>::NAN
                }
            }
            impl ImplicitQuotient<$t> for Vec<$t> {
                #[inline]
                fn implicit_quotient(mut self, d_solution: $t, singular: &mut bool) -> Self {
                    self.iter_mut().for_each(|v| *v = quotient(*v, d_solution, singular));
                    self
                }
            }
            impl NotANumber for Vec<$t> {
                #[inline]
                fn not_a_number(mut self) -> Self {
                    self.fill(<$t>::NAN);
                    self
                }
            }
        )*};
    }
    impl_quotient!(f32, f64);
    macro_rules! impl_quotient_matrix {
        ($([$($g:tt)*] $m:ty),*) => {$(
            impl<$($g)*> ImplicitQuotient<f64> for $m {
                #[inline]
                fn implicit_quotient(mut self, d_solution: f64, singular: &mut bool) -> Self {
                    self.iter_mut().for_each(|v| *v = quotient(*v, d_solution, singular));
                    self
                }
            }
            impl<$($g)*> NotANumber for $m {
                #[inline]
                fn not_a_number(mut self) -> Self {
                    self.fill(f64::NAN);
                    self
                }
            }
        )*};
    }
    impl_quotient_matrix!(
        [] nalgebra::DMatrix<f64>,
        [] nalgebra::DVector<f64>,
        [] nalgebra::RowDVector<f64>,
        [const R: usize, const C: usize] nalgebra::SMatrix<f64, R, C>
    );
    impl<T> ImplicitQuotient<T> for NoGradient {
        #[inline(always)]
        fn implicit_quotient(self, _: T, _: &mut bool) -> Self {
            self
        }
    }
    impl NotANumber for NoGradient {
        #[inline(always)]
        fn not_a_number(self) -> Self {
            self
        }
    }

    /// Whether ∂r/∂x at a root cannot be divided by: zero or not finite.
    #[inline]
    pub fn singular_derivative<T: rules::Real>(d_solution: T) -> bool {
        d_solution == T::zero() || !d_solution.is_finite()
    }

    /// See [`ImplicitQuotient`].
    #[inline]
    pub fn implicit_quotient<A: ImplicitQuotient<T>, T>(
        partial: A,
        d_solution: T,
        singular: &mut bool,
    ) -> A {
        partial.implicit_quotient(d_solution, singular)
    }

    /// NaN in every element of a plain-float solver's quotient where the
    /// derivative does not exist (see [`NotANumber`]).
    #[inline]
    pub fn not_a_number_if<A: NotANumber>(quotient: A, singular: bool) -> A {
        if singular {
            quotient.not_a_number()
        } else {
            quotient
        }
    }

    /// A `'static` copy of a perturbed argument, for a gradient check of a
    /// function that borrows it for `'static`. The copy is leaked: such a
    /// check allocates two copies per element, and never frees them.
    pub fn leak<T: Clone + 'static>(v: &T) -> &'static T {
        Box::leak(Box::new(v.clone()))
    }

    /// The error of a solver returning a `Result` where its derivative
    /// does not exist: ∂r/∂x is zero or not finite, or a quotient is not
    /// finite while its partial is.
    #[inline]
    pub fn derivative_exists(
        singular: bool,
        d_solution: f64,
    ) -> Result<(), crate::solve::SolveError> {
        if singular {
            Err(crate::solve::SolveError::SingularDerivative {
                derivative: d_solution,
            })
        } else {
            Ok(())
        }
    }

    /// Whether a residual's parameters after the solution are the solver's
    /// own, by name (leading underscores aside: `_tol` is an unused `tol`)
    /// and in order: `#[differentiable(implicit = ..)]` checks this at
    /// compile time.
    pub const fn same_names(residual: &[&str], solver: &[&str]) -> bool {
        if residual.len() != solver.len() + 1 {
            return false;
        }
        let mut i = 0;
        while i < solver.len() {
            if !same_str(residual[i + 1], solver[i]) {
                return false;
            }
            i += 1;
        }
        true
    }

    const fn same_str(a: &str, b: &str) -> bool {
        let (a, b) = (
            unused_prefix_aside(a.as_bytes()),
            unused_prefix_aside(b.as_bytes()),
        );
        if a.len() != b.len() {
            return false;
        }
        let mut i = 0;
        while i < a.len() {
            if a[i] != b[i] {
                return false;
            }
            i += 1;
        }
        true
    }

    const fn unused_prefix_aside(mut name: &[u8]) -> &[u8] {
        while let [b'_', rest @ ..] = name {
            name = rest;
        }
        name
    }

    /// A scalar result as `f64`, for the gradient check's report.
    #[inline(always)]
    pub fn to_f64<T: rules::Real>(v: T) -> f64 {
        v.to_f64()
    }
}
