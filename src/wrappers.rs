//! The bodies of the generated `NAME_grad` and `NAME_grad_acc`, written
//! once: each is a call of one of these on the function's hidden VJP, so
//! an annotated function adds a call to type-check, not a copy of the code.

use autograd_runtime::rules::Real;

use crate::__private::Accumulate;

/// `NAME_grad`: the value, then the pullback's adjoints at seed one.
#[inline(always)]
pub fn grad<V: Real, A: Prepend<V>>((value, pullback): (V, impl FnOnce(V) -> A)) -> A::With {
    pullback(V::one()).prepend(value)
}

/// `NAME_grad_acc`: the pullback's adjoints at seed one added into the
/// caller's buffers, one per adjoint; the value returned.
///
/// # Panics
///
/// If a slice buffer's length or a matrix buffer's shape is not its
/// argument's.
#[inline(always)]
#[track_caller]
pub fn grad_acc<V: Real, A: AddInto<B>, B>(
    (value, pullback): (V, impl FnOnce(V) -> A),
    buffers: B,
) -> V {
    pullback(V::one()).add_into(buffers);
    value
}

/// A tuple with one more element in front: `(a, b).prepend(v) == (v, a, b)`.
pub trait Prepend<V> {
    /// The longer tuple.
    type With;
    /// `(v, self..)`.
    fn prepend(self, v: V) -> Self::With;
}

/// A tuple of adjoints added, element by element, into a tuple of buffers.
pub trait AddInto<B> {
    /// `*buffer_i += adjoint_i` for every `i`.
    fn add_into(self, buffers: B);
}

/// One caller's buffer: a `&mut` to what the adjoint accumulates into.
pub trait Buffer<G> {
    /// `*self += g`.
    fn add(self, g: G);
}

impl<T: Accumulate<G> + ?Sized, G> Buffer<G> for &mut T {
    #[inline(always)]
    #[track_caller]
    fn add(self, g: G) {
        self.accumulate(g);
    }
}

// The tuples are taken apart by field, not by a pattern: a debug build
// copies a large array (an adjoint of `[f64; 40_000]`) into each binding
// of a pattern, and reads a field in place.
macro_rules! tuples {
    ($(($($a:ident $b:ident $k:tt),+))+) => {$(
        impl<V, $($a),+> Prepend<V> for ($($a,)+) {
            type With = (V, $($a),+);
            #[inline(always)]
            fn prepend(self, v: V) -> Self::With {
                (v, $(self.$k),+)
            }
        }
        impl<$($a, $b: Buffer<$a>),+> AddInto<($($b,)+)> for ($($a,)+) {
            #[inline(always)]
            #[track_caller]
            fn add_into(self, buffers: ($($b,)+)) {
                $(buffers.$k.add(self.$k);)+
            }
        }
    )+};
}

// As many differentiable arguments as the generated wrappers call these
// with (see `autograd-macros`' `codegen::wrappers::MAX_ARITY`).
tuples! {
    (A0 B0 0)
    (A0 B0 0, A1 B1 1)
    (A0 B0 0, A1 B1 1, A2 B2 2)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6, A7 B7 7)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6, A7 B7 7, A8 B8 8)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6, A7 B7 7, A8 B8 8, A9 B9 9)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6, A7 B7 7, A8 B8 8, A9 B9 9, A10 B10 10)
    (A0 B0 0, A1 B1 1, A2 B2 2, A3 B3 3, A4 B4 4, A5 B5 5, A6 B6 6, A7 B7 7, A8 B8 8, A9 B9 9, A10 B10 10, A11 B11 11)
}
