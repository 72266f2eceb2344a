//! A tuple of floats that a call of a `#[differentiable]` function
//! returns, as an array: `let (a, b) = helper(x);` reads the components of
//! `untuple(helper(x))` by index, since the macro's IR has arrays but no
//! tuple values.

use crate::__private::{Accumulate, Contribution};

/// A tuple of 2 to 8 floats of one type, and the array of its components.
pub trait FloatTuple {
    /// `[T; N]`.
    type Array;
    /// The components in order.
    fn into_array(self) -> Self::Array;
    /// The tuple of an array's elements.
    fn from_array(a: Self::Array) -> Self;
}

/// The array of a [`FloatTuple`]'s components, and that tuple: what the
/// check of a call of `untuple` learns the tuple's type from.
pub trait FloatArray {
    /// `(T, .., T)`.
    type Tuple: FloatTuple<Array = Self>;
}

macro_rules! float_tuple {
    ($n:literal: $($k:tt),+) => {
        impl<T: Copy> FloatTuple for ($(float_tuple!(@ty $k T),)+) {
            type Array = [T; $n];
            #[inline(always)]
            fn into_array(self) -> [T; $n] {
                [$(self.$k),+]
            }
            #[inline(always)]
            fn from_array(a: [T; $n]) -> Self {
                ($(a[$k],)+)
            }
        }
        impl<T: Copy> FloatArray for [T; $n] {
            type Tuple = ($(float_tuple!(@ty $k T),)+);
        }
        /// The adjoint of a call's tuple, summed component by component, of
        /// any scalar (`Float` has no `+=`).
        impl<T: Copy + ::core::ops::Add<Output = T>> Accumulate<Self> for ($(float_tuple!(@ty $k T),)+) {
            #[inline(always)]
            fn accumulate(&mut self, g: Self) {
                $(self.$k = self.$k + g.$k;)+
            }
        }
        impl<T: Contribution> Contribution for ($(float_tuple!(@ty $k T),)+) {}
    };
    (@ty $k:tt $t:ident) => { $t };
}
float_tuple!(2: 0, 1);
float_tuple!(3: 0, 1, 2);
float_tuple!(4: 0, 1, 2, 3);
float_tuple!(5: 0, 1, 2, 3, 4);
float_tuple!(6: 0, 1, 2, 3, 4, 5);
float_tuple!(7: 0, 1, 2, 3, 4, 5, 6);
float_tuple!(8: 0, 1, 2, 3, 4, 5, 6, 7);

/// The components of a tuple as an array.
#[inline(always)]
pub fn untuple<T: FloatTuple>(t: T) -> T::Array {
    t.into_array()
}

/// The hidden items of `untuple`, as the macro generates them for a
/// `#[differentiable]` function: the generated code calls it by its full
/// path, so it is differentiated as an ordinary call.
#[allow(non_camel_case_types)]
pub struct untuple {}

impl untuple {
    /// The VJP: the array, and a pullback giving the array's adjoint back
    /// as the tuple's.
    #[inline(always)]
    pub fn __vjp_full<T: FloatTuple>(t: T) -> (T::Array, impl FnOnce(T::Array) -> (T,)) {
        (t.into_array(), |g: T::Array| (T::from_array(g),))
    }

    /// The JVP: the array and the tangent tuple's array (`untuple` is
    /// linear).
    #[inline(always)]
    pub fn __jvp_full<T: FloatTuple + Copy>(t: T, dt: &T) -> (T::Array, T::Array) {
        (t.into_array(), dt.into_array())
    }

    /// The check a generated call makes that it reached the function whose
    /// derivative it found: nothing to compare here, since the generated
    /// code names both [`untuple`] and its VJP by their full paths, which
    /// nothing in a user's crate shadows. (Compared by `TypeId`, a tuple of
    /// a generic scalar would need `'static`, which the caller's scalar
    /// need not be.) The bounds give the call's tuple type.
    #[inline(always)]
    pub fn __same_callee<A, F, P>(_called: &F, _value: &A, _pullback: &P)
    where
        A: FloatArray,
        F: Fn(A::Tuple) -> A,
    {
    }
}

/// A caller's forward sweep finds the JVP of `let (a, b) = helper(..)` as it
/// finds a generated one, at the tuple's type.
impl<T: FloatTuple + Copy> crate::__private::ForwardMode<T> for untuple {
    type Fn = for<'a> fn(T, &'a T) -> (T::Array, T::Array);
    const JVP: Self::Fn = untuple::__jvp_full;
    // A caller whose body calls this sweeps one direction at a time.
    type Lanes = crate::__private::NoLanes;
    const JVP_LANES: Self::Lanes = crate::__private::NoLanes;
}

/// A tuple's tangent, by reference (the caller cannot see its type).
impl<'a, T: FloatTuple> crate::__private::IntoTangent<&'a T> for &'a T {
    #[inline(always)]
    fn into_tangent(self) -> &'a T {
        self
    }
}
