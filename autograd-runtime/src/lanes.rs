//! Vector-mode tangents: `K` directional derivatives carried side by side
//! through one forward sweep, so that the primal work (and every
//! derivative factor a rule computes from it, such as `cos x` for `sin x`)
//! is done once for `K` directions.
//!
//! [`Lanes<T, K>`] is the tangent of one float: a `[T; K]`, lane `j` the
//! derivative along direction `j`. It is linear (`+`, `-`, unary `-`, and
//! `*`, `/` by a scalar), which is all the element-wise rules need: the
//! generated K-lane sweep applies each rule's scalar tangent from
//! [`crate::rules`] lane by lane ([`Lanes::from_fn`]), so no derivative is
//! written twice. The lanes are a plain array, which LLVM keeps in vector
//! registers once the per-lane loop is unrolled.
//!
//! `NAME_jacobian`, `NAME_jacobian_pattern` and `NAME_jacobian_sparse` of
//! a `#[differentiable(jvp)]` function use it when their forward sweeps
//! can carry lanes ([`forward_jacobian_lanes_acc`],
//! [`jacobian_pattern_lanes`], [`jacobian_sparse_lanes`]): `⌈n/K⌉` sweeps
//! for `n` inputs, `⌈p/K⌉` for `p` colours, with `K =` [`LANES`].
//!
//! # Example
//!
//! ```
//! use autograd_runtime::lanes::Lanes;
//! use autograd_runtime::rules;
//!
//! // y = sin x along four directions at once: the scalar rule, lane by lane.
//! let x = 0.5_f64;
//! let dx = Lanes([1.0, 0.0, 2.0, -1.0]);
//! let dy = Lanes::from_fn(|k| rules::sin_tangent(dx[k], x));
//! assert_eq!(dy, dx * x.cos());
//! ```

use core::ops::{Add, AddAssign, Div, Index, IndexMut, Mul, Neg, Sub, SubAssign};

use nalgebra::{DMatrix, DefaultAllocator, Dim, Matrix, OMatrix, RawStorage, RawStorageMut};
use nalgebra_sparse::CscMatrix;

use crate::jacobian::{Outputs, Target, prepare};
use crate::pool;
use crate::rules::Real;
use crate::sparse::Coloring;

/// The number of lanes of the generated sweeps. Measured on the dense
/// Jacobian of 16 inputs (`benches/jvp.rs`, group `jacobian_n16`): 4 lanes
/// took twice the time of 8; 16 (one sweep) about a fifth less than 8,
/// but with twice the stack per tangent and most lanes idle below 16
/// inputs or colours (a banded Jacobian has 5).
pub const LANES: usize = 8;

/// The number of lanes of the generated second-order sweeps
/// (`NAME_hessian`, `NAME_hessian_sparse` at
/// [`crate::dual::DualLanes`]). Measured on Rosenbrock's dense Hessian
/// (`benches/second_order.rs`, groups `hessian_lanes_n16` and `_n100`):
/// 4 and 8 lanes cost the same per column. A lane costs about what a
/// one-direction sweep's tangent does (two lanes an instruction at the
/// default target's SSE2, and the register pressure of the lanes), so
/// what a sweep of lanes saves is the work done once per sweep: the
/// value, the gradient, the arguments' dual copies. An idle lane costs
/// as much as a used one, so the generated code sweeps lanes only while
/// more than half are used: `n` columns (or colours) take `⌈n/K⌉`
/// sweeps, unless the last `n mod K` are 2 to `K/2`, which take one
/// one-direction sweep each.
pub const HESSIAN_LANES: usize = 8;

/// The tangent of one float along `K` directions: lane `j` along
/// direction `j`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(transparent)]
pub struct Lanes<T, const K: usize>(pub [T; K]);

impl<T: Real, const K: usize> Lanes<T, K> {
    /// Every lane zero.
    #[inline(always)]
    pub fn zero() -> Self {
        Lanes([T::zero(); K])
    }

    /// Lane `k` is `f(k)`: a scalar tangent rule applied lane by lane.
    #[inline(always)]
    pub fn from_fn(mut f: impl FnMut(usize) -> T) -> Self {
        let mut out = [T::zero(); K];
        for (k, e) in out.iter_mut().enumerate() {
            *e = f(k);
        }
        Lanes(out)
    }
}

impl<T: Real, const K: usize> Default for Lanes<T, K> {
    #[inline(always)]
    fn default() -> Self {
        Self::zero()
    }
}

impl<T, const K: usize> Index<usize> for Lanes<T, K> {
    type Output = T;
    #[inline(always)]
    fn index(&self, k: usize) -> &T {
        &self.0[k]
    }
}

impl<T, const K: usize> IndexMut<usize> for Lanes<T, K> {
    #[inline(always)]
    fn index_mut(&mut self, k: usize) -> &mut T {
        &mut self.0[k]
    }
}

impl<T: Real, const K: usize> Add for Lanes<T, K> {
    type Output = Self;
    #[inline(always)]
    fn add(self, b: Self) -> Self {
        Self::from_fn(|k| self.0[k] + b.0[k])
    }
}

impl<T: Real, const K: usize> Sub for Lanes<T, K> {
    type Output = Self;
    #[inline(always)]
    fn sub(self, b: Self) -> Self {
        Self::from_fn(|k| self.0[k] - b.0[k])
    }
}

impl<T: Real, const K: usize> Neg for Lanes<T, K> {
    type Output = Self;
    #[inline(always)]
    fn neg(self) -> Self {
        Self::from_fn(|k| -self.0[k])
    }
}

impl<T: Real, const K: usize> Mul<T> for Lanes<T, K> {
    type Output = Self;
    #[inline(always)]
    fn mul(self, s: T) -> Self {
        Self::from_fn(|k| self.0[k] * s)
    }
}

impl<T: Real, const K: usize> Div<T> for Lanes<T, K> {
    type Output = Self;
    #[inline(always)]
    fn div(self, s: T) -> Self {
        Self::from_fn(|k| self.0[k] / s)
    }
}

// A value whose type the macro cannot see (a call's result) is an
// operand by reference, as a float's or a matrix's may be: the same
// operators on `&Lanes`, and a float times lanes from either side.
macro_rules! impl_ref_operators {
    ($($op:ident $method:ident),*) => {$(
        impl<T: Real, const K: usize> $op<&Lanes<T, K>> for Lanes<T, K> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, b: &Self) -> Self {
                $op::$method(self, *b)
            }
        }
        impl<T: Real, const K: usize> $op<Lanes<T, K>> for &Lanes<T, K> {
            type Output = Lanes<T, K>;
            #[inline(always)]
            fn $method(self, b: Lanes<T, K>) -> Lanes<T, K> {
                $op::$method(*self, b)
            }
        }
        impl<T: Real, const K: usize> $op<&Lanes<T, K>> for &Lanes<T, K> {
            type Output = Lanes<T, K>;
            #[inline(always)]
            fn $method(self, b: &Lanes<T, K>) -> Lanes<T, K> {
                $op::$method(*self, *b)
            }
        }
    )*};
}
impl_ref_operators!(Add add, Sub sub);

macro_rules! impl_scaled_ref {
    ($($op:ident $method:ident),*) => {$(
        impl<T: Real, const K: usize> $op<T> for &Lanes<T, K> {
            type Output = Lanes<T, K>;
            #[inline(always)]
            fn $method(self, s: T) -> Lanes<T, K> {
                $op::$method(*self, s)
            }
        }
        impl<T: Real, const K: usize> $op<&T> for Lanes<T, K> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, s: &T) -> Self {
                $op::$method(self, *s)
            }
        }
        impl<T: Real, const K: usize> $op<&T> for &Lanes<T, K> {
            type Output = Lanes<T, K>;
            #[inline(always)]
            fn $method(self, s: &T) -> Lanes<T, K> {
                $op::$method(*self, *s)
            }
        }
    )*};
}
impl_scaled_ref!(Mul mul, Div div);

impl<T: Real, const K: usize> Neg for &Lanes<T, K> {
    type Output = Lanes<T, K>;
    #[inline(always)]
    fn neg(self) -> Lanes<T, K> {
        -*self
    }
}

macro_rules! impl_float_times_lanes {
    ($($t:ty),*) => {$(
        impl<const K: usize> Mul<Lanes<$t, K>> for $t {
            type Output = Lanes<$t, K>;
            #[inline(always)]
            fn mul(self, l: Lanes<$t, K>) -> Lanes<$t, K> {
                l * self
            }
        }
        impl<const K: usize> Mul<&Lanes<$t, K>> for $t {
            type Output = Lanes<$t, K>;
            #[inline(always)]
            fn mul(self, l: &Lanes<$t, K>) -> Lanes<$t, K> {
                *l * self
            }
        }
        impl<const K: usize> Mul<Lanes<$t, K>> for &$t {
            type Output = Lanes<$t, K>;
            #[inline(always)]
            fn mul(self, l: Lanes<$t, K>) -> Lanes<$t, K> {
                l * *self
            }
        }
        impl<const K: usize> Mul<&Lanes<$t, K>> for &$t {
            type Output = Lanes<$t, K>;
            #[inline(always)]
            fn mul(self, l: &Lanes<$t, K>) -> Lanes<$t, K> {
                *l * *self
            }
        }
    )*};
}
impl_float_times_lanes!(f32, f64);

impl<T: Real, const K: usize> AddAssign for Lanes<T, K> {
    #[inline(always)]
    fn add_assign(&mut self, b: Self) {
        *self = *self + b;
    }
}

impl<T: Real, const K: usize> SubAssign for Lanes<T, K> {
    #[inline(always)]
    fn sub_assign(&mut self, b: Self) {
        *self = *self - b;
    }
}

/// A value's tangent along `K` directions: a float's is [`Lanes`], a
/// collection's the same collection of its elements' (`Vec<f64>` gives
/// `Vec<Lanes<f64, K>>`, a slice a `Vec`, a nalgebra matrix a matrix of
/// lanes of its shape).
pub trait LaneTangent<const K: usize> {
    /// The tangent's type.
    type Lanes;
    /// A zero tangent shaped like `self`.
    fn zero_lanes(&self) -> Self::Lanes;
}

/// The tangent along [`LANES`] directions of a value of type `X` (what the
/// generated K-lane sweeps name).
pub type LaneTangentOf<X> = <X as LaneTangent<LANES>>::Lanes;

/// A float's tangent along [`LANES`] directions, lane `k` from `f(k)`:
/// what the generated sweeps apply a scalar tangent rule with.
#[inline(always)]
pub fn per_lane<T: Real>(f: impl FnMut(usize) -> T) -> Lanes<T, LANES> {
    Lanes::from_fn(f)
}

/// A zero tangent along [`LANES`] directions shaped like `x`.
#[inline(always)]
pub fn lane_zeros<X: LaneTangent<LANES> + ?Sized>(x: &X) -> X::Lanes {
    x.zero_lanes()
}

macro_rules! impl_float_lanes {
    ($($t:ty),*) => {$(
        impl<const K: usize> LaneTangent<K> for $t {
            type Lanes = Lanes<$t, K>;
            #[inline(always)]
            fn zero_lanes(&self) -> Self::Lanes {
                Lanes::zero()
            }
        }
    )*};
}
impl_float_lanes!(f32, f64);

impl<X: LaneTangent<K> + ?Sized, const K: usize> LaneTangent<K> for &X {
    type Lanes = X::Lanes;
    #[inline(always)]
    fn zero_lanes(&self) -> Self::Lanes {
        (**self).zero_lanes()
    }
}

impl<X: LaneTangent<K>, const K: usize> LaneTangent<K> for [X]
where
    X::Lanes: Clone,
{
    type Lanes = Vec<X::Lanes>;
    #[inline]
    fn zero_lanes(&self) -> Self::Lanes {
        match self.first() {
            // From the thread's pool, as a slice's scalar tangent.
            Some(x) => pool::zeros(self.len(), x.zero_lanes()),
            None => Vec::new(),
        }
    }
}

impl<X: LaneTangent<K>, const K: usize> LaneTangent<K> for Vec<X>
where
    X::Lanes: Clone,
{
    type Lanes = Vec<X::Lanes>;
    /// With the `Vec`'s spare capacity too: a tangent pushed to as the
    /// value is (`Vec::with_capacity(n)`, then `push` in a loop) does not
    /// grow by copies either.
    #[inline]
    fn zero_lanes(&self) -> Self::Lanes {
        let mut t = self.as_slice().zero_lanes();
        t.reserve(self.capacity() - self.len());
        t
    }
}

impl<X: LaneTangent<K>, const K: usize, const N: usize> LaneTangent<K> for [X; N] {
    type Lanes = [X::Lanes; N];
    #[inline]
    fn zero_lanes(&self) -> Self::Lanes {
        self.each_ref().map(LaneTangent::zero_lanes)
    }
}

impl<T, R, C, S, const K: usize> LaneTangent<K> for Matrix<T, R, C, S>
where
    T: Real + nalgebra::Scalar,
    R: Dim,
    C: Dim,
    S: RawStorage<T, R, C>,
    DefaultAllocator: nalgebra::allocator::Allocator<R, C>,
{
    type Lanes = OMatrix<Lanes<T, K>, R, C>;
    #[inline]
    fn zero_lanes(&self) -> Self::Lanes {
        let (r, c) = self.shape_generic();
        OMatrix::from_element_generic(r, c, Lanes::zero())
    }
}

macro_rules! impl_tuple_lanes {
    ($(($($e:ident $k:tt),*)),*) => {$(
        impl<$($e: LaneTangent<K>,)* const K: usize> LaneTangent<K> for ($($e,)*) {
            type Lanes = ($($e::Lanes,)*);
            #[inline(always)]
            fn zero_lanes(&self) -> Self::Lanes {
                ($(self.$k.zero_lanes(),)*)
            }
        }
    )*};
}
impl_tuple_lanes!(
    (A 0, B 1),
    (A 0, B 1, C 2),
    (A 0, B 1, C 2, D 3),
    (A 0, B 1, C 2, D 3, E 4),
    (A 0, B 1, C 2, D 3, E 4, F 5),
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6),
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
);

/// A value whose type the generated code cannot see (a call's result) in
/// a scalar rule of a K-lane sweep: a float is one, with its lanes; a
/// matrix is not (`None`, and the sweep gives up: its Jacobian sweeps one
/// direction at a time).
pub trait LaneValue<const K: usize>: LaneTangent<K> {
    /// The float it is.
    type Float: Real;
    /// The value as a float.
    fn lane_float(&self) -> Option<Self::Float>;
    /// Its tangent as a float's lanes.
    fn tangent_lanes(tangent: &Self::Lanes) -> Option<Lanes<Self::Float, K>>;
    /// A float's lanes as its tangent.
    fn lanes_of(&self, lanes: Lanes<Self::Float, K>) -> Option<Self::Lanes>;
}

macro_rules! impl_float_value {
    ($($t:ty),*) => {$(
        impl<const K: usize> LaneValue<K> for $t {
            type Float = $t;
            #[inline(always)]
            fn lane_float(&self) -> Option<$t> {
                Some(*self)
            }
            #[inline(always)]
            fn tangent_lanes(tangent: &Lanes<$t, K>) -> Option<Lanes<$t, K>> {
                Some(*tangent)
            }
            #[inline(always)]
            fn lanes_of(&self, lanes: Lanes<$t, K>) -> Option<Lanes<$t, K>> {
                Some(lanes)
            }
        }
    )*};
}
impl_float_value!(f32, f64);

impl<X: LaneValue<K> + ?Sized, const K: usize> LaneValue<K> for &X {
    type Float = X::Float;
    #[inline(always)]
    fn lane_float(&self) -> Option<X::Float> {
        (**self).lane_float()
    }
    #[inline(always)]
    fn tangent_lanes(tangent: &X::Lanes) -> Option<Lanes<X::Float, K>> {
        X::tangent_lanes(tangent)
    }
    #[inline(always)]
    fn lanes_of(&self, lanes: Lanes<X::Float, K>) -> Option<X::Lanes> {
        (**self).lanes_of(lanes)
    }
}

impl<T, R, C, S, const K: usize> LaneValue<K> for Matrix<T, R, C, S>
where
    T: Real + nalgebra::Scalar,
    R: Dim,
    C: Dim,
    S: RawStorage<T, R, C>,
    DefaultAllocator: nalgebra::allocator::Allocator<R, C>,
{
    type Float = T;
    #[inline(always)]
    fn lane_float(&self) -> Option<T> {
        None
    }
    #[inline(always)]
    fn tangent_lanes(_: &Self::Lanes) -> Option<Lanes<T, K>> {
        None
    }
    #[inline(always)]
    fn lanes_of(&self, _: Lanes<T, K>) -> Option<Self::Lanes> {
        None
    }
}

/// See [`LaneValue::lane_float`].
#[inline(always)]
pub fn lane_float<X: LaneValue<LANES>>(x: &X) -> Option<X::Float> {
    x.lane_float()
}

/// See [`LaneValue::tangent_lanes`]: the tangent `t` of the value `x`.
#[inline(always)]
pub fn tangent_lanes<X: LaneValue<LANES>>(_x: &X, t: &X::Lanes) -> Option<Lanes<X::Float, LANES>> {
    X::tangent_lanes(t)
}

/// See [`LaneValue::lanes_of`].
#[inline(always)]
pub fn lanes_of<X: LaneValue<LANES>>(x: &X, lanes: Lanes<X::Float, LANES>) -> Option<X::Lanes> {
    x.lanes_of(lanes)
}

/// A K-lane tangent of a result, entry by entry in the order of
/// [`crate::jacobian::Flatten`] (a matrix column-major).
pub trait LaneEntries<const K: usize> {
    /// Calls `f` with each entry's lanes, in order.
    fn each_entry(&self, f: &mut impl FnMut(&[f64; K]));
}

impl<T: Real, const K: usize> LaneEntries<K> for Lanes<T, K> {
    #[inline(always)]
    fn each_entry(&self, f: &mut impl FnMut(&[f64; K])) {
        f(&self.0.map(|v| v.to_f64()));
    }
}

impl<X: LaneEntries<K>, const K: usize> LaneEntries<K> for [X] {
    #[inline]
    fn each_entry(&self, f: &mut impl FnMut(&[f64; K])) {
        self.iter().for_each(|x| x.each_entry(f));
    }
}

impl<X: LaneEntries<K>, const K: usize> LaneEntries<K> for Vec<X> {
    #[inline]
    fn each_entry(&self, f: &mut impl FnMut(&[f64; K])) {
        self.as_slice().each_entry(f);
    }
}

impl<X: LaneEntries<K>, const K: usize, const N: usize> LaneEntries<K> for [X; N] {
    #[inline]
    fn each_entry(&self, f: &mut impl FnMut(&[f64; K])) {
        self.as_slice().each_entry(f);
    }
}

impl<T, R, C, S, const K: usize> LaneEntries<K> for Matrix<Lanes<T, K>, R, C, S>
where
    T: Real + nalgebra::Scalar,
    R: Dim,
    C: Dim,
    S: RawStorage<Lanes<T, K>, R, C>,
{
    #[inline]
    fn each_entry(&self, f: &mut impl FnMut(&[f64; K])) {
        self.iter().for_each(|x| x.each_entry(f));
    }
}

macro_rules! impl_tuple_entries {
    ($(($($e:ident $k:tt),*)),*) => {$(
        impl<$($e: LaneEntries<K>,)* const K: usize> LaneEntries<K> for ($($e,)*) {
            #[inline(always)]
            fn each_entry(&self, f: &mut impl FnMut(&[f64; K])) {
                $(self.$k.each_entry(f);)*
            }
        }
    )*};
}
impl_tuple_entries!(
    (A 0, B 1),
    (A 0, B 1, C 2),
    (A 0, B 1, C 2, D 3),
    (A 0, B 1, C 2, D 3, E 4),
    (A 0, B 1, C 2, D 3, E 4, F 5),
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6),
    (A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7)
);

/// A differentiable argument's K-lane tangent as `K` directions among the
/// flattened inputs (in the order of [`crate::jacobian::Flatten`]): the
/// lane counterpart of [`crate::jacobian::Direction`].
pub trait LaneDirection<const K: usize> {
    /// How many flattened inputs this argument holds.
    fn lane_entries(&self) -> usize;
    /// Lane `j` becomes the unit tangent along flattened input `first + j`
    /// (zero where that is not one of this argument's, counted from
    /// `*start`); moves `*start` past this argument's entries.
    fn aim_lanes(&mut self, first: usize, start: &mut usize);
    /// Lane `j` becomes the part of the flat direction `seeds[..][j]` that
    /// falls on this argument's entries (from `*start`); moves `*start`
    /// past them.
    fn set_lanes(&mut self, seeds: &[[f64; K]], start: &mut usize);
    /// Lane `j` becomes the seed of colour `first + j`: 1 at this
    /// argument's entries whose column (counted from `*start`) has that
    /// colour in `colors` (one per flattened input), 0 elsewhere; moves
    /// `*start` past them.
    fn color_lanes(&mut self, colors: &[usize], first: usize, start: &mut usize);
    /// Done with: a pooled buffer (a slice argument's tangent) goes back
    /// to the thread's pool.
    #[inline]
    fn release_lanes(self)
    where
        Self: Sized,
    {
    }
}

/// The entries `start..` of `lanes` aimed at inputs `first..first + K`.
#[inline]
fn aim_at<T: Real, const K: usize>(lanes: &mut [Lanes<T, K>], first: usize, start: &mut usize) {
    for (i, e) in lanes.iter_mut().enumerate() {
        *e = Lanes::zero();
        if let Some(j) = (*start + i).checked_sub(first).filter(|j| *j < K) {
            e.0[j] = T::one();
        }
    }
    *start += lanes.len();
}

/// The entries `start..` of `lanes` seeded with colours `first..first + K`.
#[inline]
fn color_from<'a, T: Real + 'a, const K: usize>(
    lanes: impl Iterator<Item = &'a mut Lanes<T, K>>,
    colors: &[usize],
    first: usize,
    start: &mut usize,
) {
    for e in lanes {
        *e = Lanes::zero();
        let lane = colors.get(*start).and_then(|c| c.checked_sub(first));
        if let Some(j) = lane.filter(|j| *j < K) {
            e.0[j] = T::one();
        }
        *start += 1;
    }
}

#[inline]
fn set_from<'a, T: Real + 'a, const K: usize>(
    lanes: impl Iterator<Item = &'a mut Lanes<T, K>>,
    seeds: &[[f64; K]],
    start: &mut usize,
) {
    for e in lanes {
        let seed = seeds.get(*start).copied().unwrap_or([0.0; K]);
        *e = Lanes(seed.map(T::from_f64));
        *start += 1;
    }
}

impl<T: Real, const K: usize> LaneDirection<K> for Lanes<T, K> {
    fn lane_entries(&self) -> usize {
        1
    }
    fn aim_lanes(&mut self, first: usize, start: &mut usize) {
        aim_at(core::slice::from_mut(self), first, start);
    }
    fn set_lanes(&mut self, seeds: &[[f64; K]], start: &mut usize) {
        set_from(core::iter::once(self), seeds, start);
    }
    fn color_lanes(&mut self, colors: &[usize], first: usize, start: &mut usize) {
        color_from(core::iter::once(self), colors, first, start);
    }
}

impl<T: Real, const K: usize> LaneDirection<K> for Vec<Lanes<T, K>> {
    fn lane_entries(&self) -> usize {
        self.len()
    }
    fn aim_lanes(&mut self, first: usize, start: &mut usize) {
        aim_at(self, first, start);
    }
    fn set_lanes(&mut self, seeds: &[[f64; K]], start: &mut usize) {
        set_from(self.iter_mut(), seeds, start);
    }
    fn color_lanes(&mut self, colors: &[usize], first: usize, start: &mut usize) {
        color_from(self.iter_mut(), colors, first, start);
    }
    fn release_lanes(self) {
        pool::give(self);
    }
}

impl<T: Real, const K: usize, const N: usize> LaneDirection<K> for [Lanes<T, K>; N] {
    fn lane_entries(&self) -> usize {
        N
    }
    fn aim_lanes(&mut self, first: usize, start: &mut usize) {
        aim_at(self, first, start);
    }
    fn set_lanes(&mut self, seeds: &[[f64; K]], start: &mut usize) {
        set_from(self.iter_mut(), seeds, start);
    }
    fn color_lanes(&mut self, colors: &[usize], first: usize, start: &mut usize) {
        color_from(self.iter_mut(), colors, first, start);
    }
}

impl<T, R, C, S, const K: usize> LaneDirection<K> for Matrix<Lanes<T, K>, R, C, S>
where
    T: Real + nalgebra::Scalar,
    R: Dim,
    C: Dim,
    S: RawStorageMut<Lanes<T, K>, R, C>,
{
    fn lane_entries(&self) -> usize {
        self.len()
    }
    fn aim_lanes(&mut self, first: usize, start: &mut usize) {
        // Column-major, nalgebra's storage order, as `Flatten`.
        for e in self.iter_mut() {
            aim_at(core::slice::from_mut(e), first, start);
        }
    }
    fn set_lanes(&mut self, seeds: &[[f64; K]], start: &mut usize) {
        set_from(self.iter_mut(), seeds, start);
    }
    fn color_lanes(&mut self, colors: &[usize], first: usize, start: &mut usize) {
        color_from(self.iter_mut(), colors, first, start);
    }
}

/// Adds lanes `0..count` of `tangent` into columns `first..first + count`
/// of `jac`.
#[inline]
fn add_columns<L: LaneEntries<K> + ?Sized, E: Real + nalgebra::Scalar, const K: usize>(
    tangent: &L,
    jac: &mut DMatrix<E>,
    first: usize,
    count: usize,
) {
    let rows = jac.nrows();
    let entries = jac.as_mut_slice();
    let mut i = 0;
    tangent.each_entry(&mut |lanes| {
        for (j, v) in lanes.iter().take(count).enumerate() {
            let e = &mut entries[(first + j) * rows + i];
            *e = *e + E::from_f64(*v);
        }
        i += 1;
    });
}

/// A K-lane sweep's result: the value and its K-lane tangent, or `None`
/// where the sweep reached a call of a function without a K-lane JVP of
/// its own (see [`Swept`]).
pub type Sweep<R, L> = Option<(R, L)>;

/// What a Jacobian through K-lane sweeps gave: its result, or
/// [`Swept::Unavailable`] where the first sweep reached a callee without a
/// K-lane JVP (nothing was written; the caller sweeps one direction at a
/// time instead). The primal does not depend on the tangents, so every
/// sweep of one evaluation reaches the same calls: the first decides.
#[derive(Debug, PartialEq)]
pub enum Swept<T> {
    /// The K-lane sweeps ran.
    Done(T),
    /// A callee has no K-lane JVP.
    Unavailable,
}

/// The value of a later sweep, which reaches the calls the first did.
#[inline]
#[track_caller]
fn same_calls<R, L>(sweep: Sweep<R, L>) -> (R, L) {
    sweep.unwrap_or_else(|| {
        unreachable!("a K-lane sweep reached a call the first sweep went through")
    })
}

/// [`crate::jacobian::forward_jacobian_acc`] with `K` directions a sweep:
/// `sweep(first)` runs one K-lane forward sweep, lane `j` along flattened
/// input `first + j`, and returns the value and its K-lane tangent. The
/// value if there are fewer inputs than outputs (the Jacobian is then in
/// `jac`, from `⌈inputs / K⌉` sweeps), else `None` and `jac` untouched;
/// [`Swept::Unavailable`] (`jac` untouched) if the first sweep does.
///
/// # Panics
///
/// With [`Target::Add`], if forward sweeps are taken and `jac` is not
/// outputs × inputs (before anything is added).
#[inline]
#[track_caller]
pub fn forward_jacobian_lanes_acc<R, L, E, const K: usize>(
    inputs: usize,
    jac: &mut DMatrix<E>,
    target: Target,
    mut sweep: impl FnMut(usize) -> Sweep<R, L>,
) -> Swept<Option<R>>
where
    R: Outputs,
    L: LaneEntries<K>,
    E: Real + nalgebra::Scalar,
{
    if inputs == 0 {
        return Swept::Done(None);
    }
    let Some((value, tangent)) = sweep(0) else {
        return Swept::Unavailable;
    };
    let outputs = value.count();
    if inputs >= outputs {
        return Swept::Done(None);
    }
    prepare(jac, target, outputs, inputs);
    add_columns(&tangent, jac, 0, K.min(inputs));
    for first in (K..inputs).step_by(K) {
        add_columns(
            &same_calls(sweep(first)).1,
            jac,
            first,
            K.min(inputs - first),
        );
    }
    Swept::Done(Some(value))
}

/// [`crate::sparse::jacobian_pattern`] with `K` inputs a sweep:
/// `sweep(seeds)` as for [`jacobian_sparse_lanes`], lane `j` NaN along
/// input `first + j` (the lanes do not mix, so each lane's NaNs are the
/// outputs that input reaches, as in one sweep of its own).
pub fn jacobian_pattern_lanes<R, L, const K: usize>(
    inputs: usize,
    mut sweep: impl FnMut(&[[f64; K]]) -> Sweep<R, L>,
) -> Swept<Coloring>
where
    R: Outputs,
    L: LaneEntries<K>,
{
    let mut seeds = vec![[0.0; K]; inputs];
    let mut entries = Vec::new();
    let mut rows = None;
    for first in (0..inputs).step_by(K) {
        let count = K.min(inputs - first);
        (0..count).for_each(|j| seeds[first + j][j] = f64::NAN);
        let Some((value, t)) = sweep(&seeds) else {
            return Swept::Unavailable;
        };
        (0..count).for_each(|j| seeds[first + j][j] = 0.0);
        rows = Some(value.count());
        let mut i = 0;
        t.each_entry(&mut |lanes| {
            let reached = lanes.iter().take(count).enumerate();
            entries.extend(
                reached
                    .filter(|(_, l)| l.is_nan())
                    .map(|(j, _)| (i, first + j)),
            );
            i += 1;
        });
    }
    let rows = match rows {
        Some(rows) => rows,
        None => match sweep(&seeds) {
            Some((value, _)) => value.count(),
            None => return Swept::Unavailable,
        },
    };
    Swept::Done(Coloring::jacobian(rows, inputs, entries))
}

/// [`crate::sparse::jacobian_sparse`] with `K` colours a sweep:
/// `sweep(colors, first)` runs one K-lane forward sweep, lane `j` along
/// the seed of colour `first + j` (see [`LaneDirection::color_lanes`];
/// `colors` the colouring's [`Coloring::column_colors`]). Each sweep's
/// rows go straight into the matrix's values: no seed or compressed
/// product is built.
///
/// # Panics
///
/// If `coloring` is not of `inputs` columns and of the value's outputs.
pub fn jacobian_sparse_lanes<R, L, const K: usize>(
    coloring: &Coloring,
    inputs: usize,
    sweep: impl FnMut(&[usize], usize) -> Sweep<R, L>,
) -> Swept<(R, CscMatrix<f64>)>
where
    R: Outputs,
    L: LaneEntries<K>,
{
    let mut matrix = coloring.zeros();
    match sparse_lanes_into(coloring, inputs, matrix.values_mut(), sweep) {
        Swept::Done(value) => Swept::Done((value, matrix)),
        Swept::Unavailable => Swept::Unavailable,
    }
}

/// [`jacobian_sparse_lanes`] into `matrix`, a matrix of the colouring's
/// pattern (from [`Coloring::zeros`] or an earlier evaluation): its
/// values are overwritten, nothing is allocated for them.
///
/// # Panics
///
/// If `coloring` is not of `inputs` columns and of the value's outputs,
/// or `matrix` has another pattern.
pub fn jacobian_sparse_lanes_into<R, L, const K: usize>(
    coloring: &Coloring,
    inputs: usize,
    matrix: &mut CscMatrix<f64>,
    sweep: impl FnMut(&[usize], usize) -> Sweep<R, L>,
) -> Swept<R>
where
    R: Outputs,
    L: LaneEntries<K>,
{
    assert!(
        matrix.pattern() == coloring.pattern(),
        "the matrix's pattern is not the colouring's"
    );
    sparse_lanes_into(coloring, inputs, matrix.values_mut(), sweep)
}

/// [`jacobian_sparse_lanes_into`] into the values of a matrix of the
/// colouring's pattern.
fn sparse_lanes_into<R, L, const K: usize>(
    coloring: &Coloring,
    inputs: usize,
    values: &mut [f64],
    mut sweep: impl FnMut(&[usize], usize) -> Sweep<R, L>,
) -> Swept<R>
where
    R: Outputs,
    L: LaneEntries<K>,
{
    crate::sparse::check_columns(coloring, inputs);
    let colors = coloring.colors();
    let mut value = None;
    let mut first = 0;
    loop {
        let swept = sweep(coloring.column_colors(), first);
        if first == 0 && swept.is_none() {
            return Swept::Unavailable;
        }
        let (v, t) = same_calls(swept);
        let mut i = 0;
        t.each_entry(&mut |lanes| {
            // Past the colouring's rows, `check_rows` below refuses.
            if i < coloring.nrows() {
                for &(c, k) in coloring.row_entries(i) {
                    if let Some(l) = c.checked_sub(first).filter(|j| *j < K) {
                        values[k] = lanes[l];
                    }
                }
            }
            i += 1;
        });
        value.get_or_insert(v);
        first += K;
        if first >= colors {
            break;
        }
    }
    let value = value.unwrap_or_else(|| unreachable!("one sweep at least"));
    crate::sparse::check_rows(coloring, &value);
    Swept::Done(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules;

    #[test]
    fn a_rule_lane_by_lane_is_the_scalar_rule_per_direction() {
        let (x, y) = (0.7_f64, -1.3_f64);
        let (dx, dy) = (Lanes([1.0, 0.0, 0.5, -2.0]), Lanes([0.0, 1.0, 3.0, 0.25]));
        let dz: Lanes<f64, 4> = Lanes::from_fn(|k| rules::mul_tangent(dx[k], dy[k], x, y));
        for k in 0..4 {
            assert_eq!(dz[k], rules::mul_tangent(dx[k], dy[k], x, y));
        }
        assert_eq!(dx + dy - dy, dx);
        assert_eq!(-(dx * 2.0) / 2.0, -dx);
    }

    #[test]
    fn aimed_lanes_are_the_unit_directions_in_flattened_order() {
        let mut a = Lanes::<f64, 4>::zero();
        let mut v = vec![Lanes::<f64, 4>::zero(); 3];
        let mut start = 0;
        a.aim_lanes(2, &mut start);
        v.aim_lanes(2, &mut start);
        assert_eq!(start, 4);
        assert_eq!(a, Lanes::zero());
        assert_eq!(v[0].0, [0.0; 4]);
        assert_eq!(v[1].0, [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(v[2].0, [0.0, 1.0, 0.0, 0.0]);
    }

    /// f(x) = (x0·x3, x1 + x2, x2², x3): two colours of four columns,
    /// its Jacobian from the colours' lanes `K` at a time (two sweeps at
    /// `K = 1`, one with an idle lane at `K = 4`), each stored entry
    /// against the closed form.
    fn recover_colour_lanes<const K: usize>() {
        let x = [2.0, -1.0, 3.0, 0.5];
        let entries = [(0, 0), (0, 3), (1, 1), (1, 2), (2, 2), (3, 3)];
        let coloring = Coloring::jacobian(4, 4, entries);
        assert_eq!(coloring.colors(), 2);
        let sweep = |colors: &[usize], first: usize| {
            let mut d = [Lanes::<f64, K>::zero(); 4];
            let mut start = 0;
            d.color_lanes(colors, first, &mut start);
            assert_eq!(start, 4);
            let value = vec![x[0] * x[3], x[1] + x[2], x[2] * x[2], x[3]];
            let tangent = vec![
                d[0] * x[3] + d[3] * x[0],
                d[1] + d[2],
                d[2] * (2.0 * x[2]),
                d[3],
            ];
            Some((value, tangent))
        };
        let Swept::Done((value, m)) = jacobian_sparse_lanes(&coloring, 4, sweep) else {
            panic!("every sweep carries lanes");
        };
        assert_eq!(value, vec![1.0, 2.0, 9.0, 0.5]);
        let expected = [
            ((0, 0), 0.5),
            ((0, 3), 2.0),
            ((1, 1), 1.0),
            ((1, 2), 1.0),
            ((2, 2), 6.0),
            ((3, 3), 1.0),
        ];
        assert_eq!(m.nnz(), expected.len());
        for ((i, j), v) in expected {
            assert_eq!(m.get_entry(i, j).map(|e| e.into_value()), Some(v));
        }
        // Into a matrix of the pattern: the same values, overwritten.
        let mut into = coloring.zeros();
        into.values_mut().fill(f64::NAN);
        let swept = jacobian_sparse_lanes_into(&coloring, 4, &mut into, sweep);
        assert_eq!(swept, Swept::Done(vec![1.0, 2.0, 9.0, 0.5]));
        assert_eq!(into.values(), m.values());
    }

    #[test]
    fn colour_lanes_recover_each_entry_into_the_matrix() {
        recover_colour_lanes::<1>();
        recover_colour_lanes::<4>();
    }

    #[test]
    #[should_panic(expected = "the matrix's pattern is not the colouring's")]
    fn a_matrix_of_another_pattern_is_refused() {
        let coloring = Coloring::jacobian(2, 2, [(0, 0), (1, 1)]);
        let mut other = Coloring::dense_jacobian(2, 2).zeros();
        jacobian_sparse_lanes_into::<_, _, 2>(&coloring, 2, &mut other, |_, _| {
            Some((vec![0.0; 2], vec![Lanes::<f64, 2>::zero(); 2]))
        });
    }

    #[test]
    fn columns_of_a_ragged_last_sweep_stay_inside_the_matrix() {
        // f(x) = (x0, x1, x2, x0 + x2, 2·x1): 3 inputs, 5 outputs, K = 2.
        let mut m = DMatrix::zeros(0, 0);
        let value = forward_jacobian_lanes_acc::<_, _, f64, 2>(3, &mut m, Target::Fresh, |first| {
            let d = |i: usize| Lanes::<f64, 2>::from_fn(|j| if first + j == i { 1.0 } else { 0.0 });
            Some((
                vec![0.0; 5],
                vec![d(0), d(1), d(2), d(0) + d(2), d(1) * 2.0],
            ))
        });
        assert_eq!(value, Swept::Done(Some(vec![0.0; 5])));
        assert_eq!(
            m,
            nalgebra::dmatrix![
                1.0, 0.0, 0.0;
                0.0, 1.0, 0.0;
                0.0, 0.0, 1.0;
                1.0, 0.0, 1.0;
                0.0, 2.0, 0.0
            ]
        );
    }

    #[test]
    fn a_first_sweep_without_lanes_leaves_the_matrix_untouched() {
        let start = DMatrix::from_element(2, 3, 7.0);
        let mut m = start.clone();
        let mut sweeps = 0;
        let swept = forward_jacobian_lanes_acc::<Vec<f64>, Vec<Lanes<f64, 2>>, f64, 2>(
            3,
            &mut m,
            Target::Add,
            |_| {
                sweeps += 1;
                None
            },
        );
        assert_eq!(swept, Swept::Unavailable);
        assert_eq!((sweeps, m), (1, start));
        let coloring = Coloring::jacobian(2, 2, [(0, 0), (1, 1)]);
        let none = |_: &[usize], _: usize| -> Sweep<Vec<f64>, Vec<Lanes<f64, 2>>> { None };
        assert_eq!(
            jacobian_sparse_lanes::<_, _, 2>(&coloring, 2, none),
            Swept::Unavailable
        );
        let pattern = jacobian_pattern_lanes::<Vec<f64>, Vec<Lanes<f64, 2>>, 2>(3, |_| None);
        assert!(matches!(pattern, Swept::Unavailable));
    }

    #[test]
    #[allow(clippy::op_ref)]
    fn operators_on_references_are_the_operators_on_values() {
        let (a, b) = (Lanes([1.0, -2.0, 0.5]), Lanes([0.25, 4.0, -1.0]));
        assert_eq!(&a + &b, a + b);
        assert_eq!(&a - b, a - b);
        assert_eq!(a + &b, a + b);
        assert_eq!(&a * 3.0, a * 3.0);
        assert_eq!(3.0 * &a, a * 3.0);
        assert_eq!(&a / &2.0, a / 2.0);
        assert_eq!(-&a, -a);
    }
}
