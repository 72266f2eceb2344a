//! The bodies of the generated `NAME_grad` and `NAME_grad_acc`, written
//! once: each is a call of one of these on the function's hidden VJP, so
//! an annotated function adds a call to type-check, not a copy of the code.

use autograd_runtime::rules::Real;

use crate::__private::{Accumulate, Seeded};

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

/// The hidden VJP of a function with `__grad_acc_full`, `sweep` (given
/// the adjoints to add into and the seed): the sweeps run now, at seed
/// one, into `adjoints` (zeros, one per argument), and the pullback scales
/// them by a finite seed. At ∞ or NaN that product is not the sweep's
/// (∞·0 is NaN where the sweep never multiplies, and a sum of ∞ and −∞
/// contributions is NaN where the product is ±∞): the pullback runs the
/// sweeps again, into zeros, seeded with it, so that it gives what the
/// sweep gives at every seed. Written once here, not in every function.
#[inline(always)]
pub fn vjp_by_acc<S: Real, A: SeededAdjoints<S> + Clone>(
    mut adjoints: A,
    sweep: impl Fn(&mut A, S) -> S + Clone,
) -> (S, impl FnOnce(S) -> A + Clone) {
    let value = sweep(&mut adjoints, S::one());
    (value, move |seed: S| pull_by_acc(adjoints, seed, sweep))
}

/// [`vjp_by_acc`] of a sweep that says which arguments it reached (see
/// [`Reached`]). A second run at a non-finite seed takes the same paths:
/// the first's flags stand.
#[inline(always)]
pub fn vjp_by_acc_reached<S: Real, A: SeededAdjoints<S> + Clone, const N: usize>(
    mut adjoints: A,
    sweep: impl Fn(&mut A, S) -> (S, [bool; N]) + Clone,
) -> (S, impl FnOnce(S) -> Reached<A, N> + Clone) {
    let (value, reached) = sweep(&mut adjoints, S::one());
    (value, move |seed: S| {
        Reached(pull_by_acc(adjoints, seed, sweep), reached)
    })
}

/// The adjoints at `seed` of a sweep run at seed one (see [`vjp_by_acc`]).
#[inline(always)]
fn pull_by_acc<S: Real, A: SeededAdjoints<S>, V>(
    mut adjoints: A,
    seed: S,
    sweep: impl Fn(&mut A, S) -> V,
) -> A {
    if seed.is_finite() {
        adjoints.seeded(seed)
    } else {
        adjoints.zero();
        sweep(&mut adjoints, seed);
        adjoints
    }
}

/// A tuple of adjoints, one per argument, each [`Seeded`].
pub trait SeededAdjoints<S> {
    /// Each adjoint times `s`.
    fn seeded(self, s: S) -> Self;
    /// Each adjoint zero again.
    fn zero(&mut self);
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
        impl<S: Copy, $($a: Seeded<S>),+> SeededAdjoints<S> for ($($a,)+) {
            #[inline(always)]
            fn seeded(self, s: S) -> Self {
                ($(self.$k.seeded(s),)+)
            }
            #[inline(always)]
            fn zero(&mut self) {
                $(self.$k.zero();)+
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
// with (see `autograd-macros`' `emit::thin::MAX_ARITY`).
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

/// A pullback's adjoints with the arguments whose adjoint it reached on
/// this run (`reached[k]`): a callee that may leave an argument's adjoint
/// without any contribution (an argument it does not read for its result,
/// or reads only in an arm or loop this run did not take) says so, and
/// its caller then adds nothing through that argument, as the run's graph
/// has no path there (a zero adjoint times an infinite partial is not
/// NaN where no path multiplies them). Any other pullback returns its
/// adjoints as a plain tuple: every one of them reached.
pub struct Reached<T, const N: usize>(pub T, pub [bool; N]);

/// What a hidden VJP's pullback returns: its adjoints, alone or with the
/// arguments it reached (see [`Reached`]).
pub trait Pulled {
    /// The tuple of adjoints, one per argument.
    type Adjoints;
    /// `[bool; N]`, one per argument.
    type Flags;
    /// The adjoints and which of them were reached.
    fn split(self) -> (Self::Adjoints, Self::Flags);
}

impl<T, const N: usize> Pulled for Reached<T, N> {
    type Adjoints = T;
    type Flags = [bool; N];
    #[inline(always)]
    fn split(self) -> (T, [bool; N]) {
        (self.0, self.1)
    }
}

// `NAME_grad` and `NAME_grad_acc` of a function whose pullback says which
// arguments it reached take the adjoints and leave the flags.
impl<V, T: Prepend<V>, const N: usize> Prepend<V> for Reached<T, N> {
    type With = T::With;
    #[inline(always)]
    fn prepend(self, v: V) -> T::With {
        self.0.prepend(v)
    }
}

impl<B, T: AddInto<B>, const N: usize> AddInto<B> for Reached<T, N> {
    #[inline(always)]
    #[track_caller]
    fn add_into(self, buffers: B) {
        self.0.add_into(buffers);
    }
}

/// The adjoints of a pullback's result, whether or not it says which
/// arguments it reached.
#[inline(always)]
pub fn adjoints<P: Pulled>(pulled: P) -> P::Adjoints {
    pulled.split().0
}

/// The adjoints of a pullback's result and which arguments it reached
/// (all of them where it does not say).
#[inline(always)]
pub fn reached<P: Pulled>(pulled: P) -> (P::Adjoints, P::Flags) {
    pulled.split()
}

/// `NAME_vjp` of a function whose hidden VJP says which arguments it
/// reached: the same value and pullback, returning the adjoints only.
#[inline(always)]
pub fn vjp<V, P: Pulled>(
    (value, pullback): (V, impl FnOnce(V) -> P),
) -> (V, impl FnOnce(V) -> P::Adjoints) {
    (value, move |seed: V| pullback(seed).split().0)
}

// A plain tuple is every argument reached, up to the most arguments a
// callee is expected to take.
macro_rules! all_reached {
    ($n:expr;) => {
        impl Pulled for () {
            type Adjoints = ();
            type Flags = [bool; 0];
            #[inline(always)]
            fn split(self) -> ((), [bool; 0]) {
                ((), [])
            }
        }
    };
    ($n:expr; $a:ident $($rest:ident)*) => {
        impl<$a, $($rest),*> Pulled for ($a, $($rest,)*) {
            type Adjoints = Self;
            type Flags = [bool; $n];
            #[inline(always)]
            fn split(self) -> (Self, [bool; $n]) {
                (self, [true; $n])
            }
        }
        all_reached!($n - 1; $($rest)*);
    };
}

all_reached!(32;
    A0 A1 A2 A3 A4 A5 A6 A7 A8 A9 A10 A11 A12 A13 A14 A15
    A16 A17 A18 A19 A20 A21 A22 A23 A24 A25 A26 A27 A28 A29 A30 A31);
