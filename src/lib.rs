#![doc = include_str!("../README.md")]

// Lets the generated `::autograd::...` paths resolve inside this crate too.
extern crate self as autograd;

pub use autograd_macros::differentiable;
pub use autograd_runtime::*;
/// The nalgebra version autograd's matrix rules are written for.
pub use nalgebra;

/// What the generated code uses. Not part of the public API: names here
/// may change in any release.
#[doc(hidden)]
pub mod __private {
    pub use autograd_runtime::rules;
    pub use std::boxed::Box;
    pub use std::vec::Vec;

    /// The adjoint slot of an argument that is not differentiable.
    #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
    pub struct NoGradient;

    /// Adds a callee's argument adjoint into the caller's adjoint.
    pub trait Accumulate<G> {
        /// `*self += g`.
        fn accumulate(&mut self, g: G);
    }

    macro_rules! impl_float_glue {
        ($($t:ty),*) => {$(
            impl Accumulate<$t> for $t {
                #[inline(always)]
                fn accumulate(&mut self, g: $t) {
                    *self += g;
                }
            }
            impl Accumulate<Vec<$t>> for Vec<$t> {
                #[inline]
                fn accumulate(&mut self, g: Vec<$t>) {
                    for (a, b) in self.iter_mut().zip(g) {
                        *a += b;
                    }
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
        )*};
    }
    impl_float_glue!(f32, f64);

    macro_rules! impl_matrix_glue {
        ($($m:ty),*) => {$(
            impl Accumulate<$m> for $m {
                #[inline]
                fn accumulate(&mut self, g: $m) {
                    *self += g;
                }
            }
            impl Contribution for $m {}
            impl ZeroLike for $m {
                #[inline]
                fn zero_like(&self) -> Self {
                    Self::zeros_generic(self.shape_generic().0, self.shape_generic().1)
                }
            }
        )*};
    }
    impl_matrix_glue!(
        nalgebra::DMatrix<f64>,
        nalgebra::DVector<f64>,
        nalgebra::RowDVector<f64>,
        nalgebra::Matrix1<f64>
    );

    /// `m.map(f)` in `m`'s own buffer, for a matrix nothing reads again:
    /// the same `f` on the same elements in the same order, so the same
    /// values bit for bit, without a second allocation.
    pub trait MapInPlace: Sized {
        /// `self` with `f` applied to every element.
        fn map_in_place(self, f: impl Fn(f64) -> f64) -> Self;
    }

    macro_rules! impl_map_in_place {
        ($($m:ty),*) => {$(
            impl MapInPlace for $m {
                #[inline]
                fn map_in_place(mut self, f: impl Fn(f64) -> f64) -> Self {
                    self.apply(|v| *v = f(*v));
                    self
                }
            }
        )*};
    }
    impl_map_in_place!(
        nalgebra::DMatrix<f64>,
        nalgebra::DVector<f64>,
        nalgebra::RowDVector<f64>,
        nalgebra::Matrix1<f64>
    );

    #[inline(always)]
    pub fn map_in_place<M: MapInPlace>(m: M, f: impl Fn(f64) -> f64) -> M {
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

    /// Checks that a pullback slot holds an adjoint (see [`Contribution`]).
    #[inline(always)]
    pub fn contribution<G: Contribution>(g: G) -> G {
        g
    }

    #[inline(always)]
    pub fn accumulate<T: Accumulate<G>, G>(acc: &mut T, g: G) {
        acc.accumulate(g);
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

    /// The adjoint of a slice argument: zeros of the same length.
    #[inline]
    pub fn zeros_like_slice<T: rules::Real>(x: &[T]) -> Vec<T> {
        ::std::vec![T::ZERO; x.len()]
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
    pub struct Cache<T> {
        /// Room for every iteration while the cache is on, none while off:
        /// a push is one comparison.
        values: Vec<T>,
    }

    impl<T> Cache<T> {
        /// The most a loop's cache holds, in bytes.
        pub const BUDGET: usize = 1 << 20;

        /// A cache for loops that have not started.
        #[inline]
        pub fn new() -> Self {
            Cache { values: Vec::new() }
        }

        /// A cache for one loop of `trips` iterations.
        #[inline]
        pub fn for_trips(trips: usize) -> Self {
            let mut cache = Cache::new();
            cache.start(trips);
            cache
        }

        /// Starts a loop of `trips` iterations (the reverse sweep has taken
        /// everything the previous one cached): caches its values if they
        /// fit in the budget.
        #[inline]
        pub fn start(&mut self, trips: usize) {
            if trips.saturating_mul(core::mem::size_of::<T>()) <= Self::BUDGET {
                self.values.reserve(trips);
            } else {
                self.values = Vec::new();
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
    /// `-seed / (∂r/∂x)`).
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
        ($($m:ty),*) => {$(
            impl Scale<f64> for $m {
                #[inline]
                fn scale(mut self, k: f64) -> Self {
                    self.iter_mut().for_each(|v| *v = rules::mul(*v, k));
                    self
                }
            }
        )*};
    }
    impl_scale_matrix!(
        nalgebra::DMatrix<f64>,
        nalgebra::DVector<f64>,
        nalgebra::RowDVector<f64>,
        nalgebra::Matrix1<f64>
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

    /// −seed / (∂r/∂x), the factor of the residual's partials in the
    /// implicit function theorem; NaN (never an infinity) where ∂r/∂x is zero
    /// or not finite, for a solver returning a plain float, which has no
    /// `Result` to report it through.
    #[inline]
    pub fn implicit_multiplier<T: rules::Real>(seed: T, d_solution: T) -> T {
        if d_solution != T::ZERO && d_solution.is_finite() {
            -(seed / d_solution)
        } else {
            T::from_f64(f64::NAN)
        }
    }

    /// Whether ∂r/∂x at a root can be divided by: nonzero and finite.
    #[inline]
    pub fn invertible(derivative: f64) -> Result<(), crate::solve::SolveError> {
        if derivative != 0.0 && derivative.is_finite() {
            Ok(())
        } else {
            Err(crate::solve::SolveError::SingularDerivative { derivative })
        }
    }

    /// A scalar result as `f64`, for the gradient check's report.
    pub trait ToF64 {
        /// The value as `f64`.
        fn to_f64(self) -> f64;
    }
    impl ToF64 for f64 {
        #[inline(always)]
        fn to_f64(self) -> f64 {
            self
        }
    }
    impl ToF64 for f32 {
        #[inline(always)]
        fn to_f64(self) -> f64 {
            f64::from(self)
        }
    }
    #[inline(always)]
    pub fn to_f64<T: ToF64>(v: T) -> f64 {
        v.to_f64()
    }
}
