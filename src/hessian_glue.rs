//! What second-order code (`#[differentiable(hessian)]`) uses: re-exported
//! from `__private`, not part of the public API.

use autograd_runtime::Dual;
use autograd_runtime::dual::DualLanes;
use autograd_runtime::lanes::HESSIAN_LANES as LANES;
use num_traits::Float;

/// A function generated with `#[differentiable(hessian)]`, by the type
/// named like it. A function without the option has none, and a solver
/// whose residual lacks it is this one error.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no second order: add `hessian` to its attribute, `#[differentiable(hessian)]`",
    label = "called from a `#[differentiable(hessian)]` function",
    note = "the second order of a function differentiates the gradient of every differentiable function it calls"
)]
pub trait HasSecondOrder {}

/// A function with in-out (`&mut`) arguments generated with
/// `#[differentiable(hessian)]`, by the type named like it: `Twin` is the
/// type whose [`InOutSecondOrder`] items a caller's second order calls (its
/// twin's, or its own when it is generic over the scalar). A function
/// without the option has none: one error at the call, however many in-out
/// arguments it passes.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no second order: add `hessian` to its attribute, `#[differentiable(hessian)]`",
    label = "called from a `#[differentiable(hessian)]` function",
    note = "the second order of a function differentiates the gradient of every differentiable function it calls"
)]
pub trait InOutTwin {
    type Twin;
}

/// A call passing in-out arguments, as a caller's second order makes it:
/// `Item` is the call's hidden item (`InOutCall<J>`, the final value of
/// its `J`-th in-out argument, or `InOutResult`, its result), `A` its
/// arguments as a tuple (the in-out ones by value).
pub trait InOutSecondOrder<Item, A> {
    /// The item's value.
    type Out;
    /// What the pullback returns: one adjoint per argument.
    type Adjoints;
    /// The item's value.
    fn call(args: A) -> Self::Out;
    /// The item's value and pullback.
    fn vjp_full(args: A) -> (Self::Out, impl FnOnce(Self::Out) -> Self::Adjoints);
}

/// Compiles only if `F` is a function with `hessian`.
pub const fn assert_hessian<F: HasSecondOrder + ?Sized>() {}

/// A function generated with `#[differentiable(hessian)]`, by the type
/// named like it: its twin (the function and its reverse sweep generic over
/// the scalar `S`, taking its arguments `A` as a tuple), which a caller's
/// second order calls. A function without the option has none, and calling
/// it from a `hessian` function is this one error, at the call.
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no second order: add `hessian` to its attribute, `#[differentiable(hessian)]`",
    label = "called from a `#[differentiable(hessian)]` function",
    note = "the second order of a function differentiates the gradient of every differentiable function it calls"
)]
pub trait SecondOrder<S, A> {
    /// What the pullback returns: one adjoint per argument.
    type Adjoints;
    /// The twin's value.
    fn primal(args: A) -> S;
    /// The twin's value and pullback.
    fn vjp_full(args: A) -> (S, impl FnOnce(S) -> Self::Adjoints);
}

/// `x + v·ε`, element by element.
///
/// # Panics
///
/// If the direction's length is not the argument's.
pub fn dual_slice<T: Float>(x: &[T], v: &[T]) -> Vec<Dual<T>> {
    assert_eq!(
        x.len(),
        v.len(),
        "a direction of `_hvp` has {} elements, its argument {}",
        v.len(),
        x.len()
    );
    x.iter().zip(v).map(|(&x, &v)| Dual::new(x, v)).collect()
}

/// The elements of a constant argument, with derivative 0.
pub fn dual_constants<T: Float>(x: &[T]) -> Vec<Dual<T>> {
    x.iter().map(|&x| Dual::constant(x)).collect()
}

/// `x + v·ε` for a fixed-size array argument, element by element.
///
/// # Panics
///
/// If the direction's length is not the argument's.
pub fn dual_array<T: Float, const N: usize>(x: &[T; N], v: &[T]) -> [Dual<T>; N] {
    assert_eq!(
        N,
        v.len(),
        "a direction of `_hvp` has {} elements, its argument {}",
        v.len(),
        N
    );
    core::array::from_fn(|i| Dual::new(x[i], v[i]))
}

/// The elements of a constant fixed-size array argument, with derivative 0.
pub fn dual_array_constant<T: Float, const N: usize>(x: &[T; N]) -> [Dual<T>; N] {
    x.map(Dual::constant)
}

/// A value of a `#[constant]` argument's type (which the macro cannot see)
/// passed by value to a function a twin calls: a float becomes the twin's
/// scalar, exactly and with derivative 0, as the callee's twin takes it;
/// an integer or a `bool` stays what it is.
pub trait TwinArg<Target> {
    /// The value as the callee's twin takes it.
    fn twin_arg(self) -> Target;
}

impl<S: Float> TwinArg<S> for f64 {
    fn twin_arg(self) -> S {
        // Exact for a dual number of f64 or f32 (an f32 from a literal
        // of the f32 function's own type).
        <S as num_traits::NumCast>::from(self).expect("an f64 is a float of any precision")
    }
}

impl<S: Float> TwinArg<S> for f32 {
    fn twin_arg(self) -> S {
        <S as num_traits::NumCast>::from(self).expect("an f32 is a float of any precision")
    }
}

macro_rules! twin_arg_as_is {
    ($($t:ty),*) => {$(
        impl TwinArg<$t> for $t {
            fn twin_arg(self) -> $t {
                self
            }
        }
    )*};
}
twin_arg_as_is!(
    bool, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize
);

/// See [`TwinArg`].
pub fn twin_arg<T: TwinArg<U>, U>(value: T) -> U {
    value.twin_arg()
}

/// An item a twin reads by name, a `const` or `static` of the module or of
/// the body (`K * x` with `const K: f64`): the twin computes in its scalar
/// `S`, the item keeps the type it was declared with, which only rustc
/// knows. `(&&Lift(&K)).lift::<S>()` picks by method resolution: a float
/// ([`LiftFloat`]) or an array of floats ([`LiftFloats`]) becomes `S`,
/// exactly and with derivative 0, as a literal does; anything else
/// ([`LiftAsIs`]: an integer loop bound, a `bool`) is read as it is.
pub struct Lift<'a, T: ?Sized>(pub &'a T);

/// See [`Lift`]: a float, converted to the scalar.
pub trait LiftFloat {
    /// The value in the twin's scalar.
    fn lift<S: Float>(self) -> S;
}

impl LiftFloat for &&Lift<'_, f64> {
    #[inline(always)]
    fn lift<S: Float>(self) -> S {
        <S as num_traits::NumCast>::from(*self.0).expect("an f64 is a float of any precision")
    }
}

impl LiftFloat for &&Lift<'_, f32> {
    #[inline(always)]
    fn lift<S: Float>(self) -> S {
        <S as num_traits::NumCast>::from(*self.0).expect("an f32 is a float of any precision")
    }
}

/// See [`Lift`]: an array of floats, converted element by element.
pub trait LiftFloats<const N: usize> {
    /// The elements in the twin's scalar.
    fn lift<S: Float>(self) -> [S; N];
}

impl<const N: usize> LiftFloats<N> for &&Lift<'_, [f64; N]> {
    #[inline(always)]
    fn lift<S: Float>(self) -> [S; N] {
        self.0
            .map(|x| <S as num_traits::NumCast>::from(x).expect("an f64 is a float"))
    }
}

impl<const N: usize> LiftFloats<N> for &&Lift<'_, [f32; N]> {
    #[inline(always)]
    fn lift<S: Float>(self) -> [S; N] {
        self.0
            .map(|x| <S as num_traits::NumCast>::from(x).expect("an f32 is a float"))
    }
}

/// See [`Lift`]: any other value, read as it is.
pub trait LiftAsIs {
    /// The value's own type.
    type Value;
    /// The value.
    fn lift<S>(self) -> Self::Value;
}

impl<T: Copy> LiftAsIs for &Lift<'_, T> {
    type Value = T;
    #[inline(always)]
    fn lift<S>(self) -> T {
        *self.0
    }
}

/// The real parts (values) of a gradient entry.
pub trait DualParts {
    /// The entry at the real scalar.
    type Real;
    /// The value.
    fn real_part(&self) -> Self::Real;
    /// The derivative along the seeded direction.
    fn dual_part(&self) -> Self::Real;
}

impl<T: Float> DualParts for Dual<T> {
    type Real = T;
    fn real_part(&self) -> T {
        self.re
    }
    fn dual_part(&self) -> T {
        self.eps
    }
}

impl<T: Float> DualParts for Vec<Dual<T>> {
    type Real = Vec<T>;
    fn real_part(&self) -> Vec<T> {
        self.iter().map(|d| d.re).collect()
    }
    fn dual_part(&self) -> Vec<T> {
        self.iter().map(|d| d.eps).collect()
    }
}

impl<T: Float, const N: usize> DualParts for [Dual<T>; N] {
    type Real = [T; N];
    fn real_part(&self) -> [T; N] {
        self.map(|d| d.re)
    }
    fn dual_part(&self) -> [T; N] {
        self.map(|d| d.eps)
    }
}

/// The value of a gradient entry.
pub fn real_part<D: DualParts>(d: &D) -> D::Real {
    d.real_part()
}

/// The directional derivative of a gradient entry: an entry of `H·v`.
pub fn dual_part<D: DualParts>(d: &D) -> D::Real {
    d.dual_part()
}

/// Entry `j` of the unit vector over the flattened inputs, for a number at
/// flat position `offset`.
pub fn unit_scalar<T: Float>(j: usize, offset: usize) -> T {
    if j == offset { T::one() } else { T::zero() }
}

/// The part of unit vector `j` over the flattened inputs that falls in a
/// slice of `len` elements starting at flat position `offset`.
pub fn unit_slice<T: Float>(len: usize, j: usize, offset: usize) -> Vec<T> {
    let mut v = vec![T::zero(); len];
    if let Some(slot) = j.checked_sub(offset).and_then(|i| v.get_mut(i)) {
        *slot = T::one();
    }
    v
}

/// Appends a gradient or `H·v` entry, flattened.
pub trait PushFlat<T> {
    /// `out.extend(self)`.
    fn push_flat(self, out: &mut Vec<T>);
}

impl<T: Float> PushFlat<T> for T {
    fn push_flat(self, out: &mut Vec<T>) {
        out.push(self);
    }
}

impl<T: Float> PushFlat<T> for Vec<T> {
    fn push_flat(self, out: &mut Vec<T>) {
        out.extend(self);
    }
}

impl<T: Float, const N: usize> PushFlat<T> for [T; N] {
    fn push_flat(self, out: &mut Vec<T>) {
        out.extend_from_slice(&self);
    }
}

/// `out.extend(entry)`.
pub fn push_flat<T, E: PushFlat<T>>(out: &mut Vec<T>, entry: E) {
    entry.push_flat(out);
}

impl<T: Float> PushFlat<T> for &[T] {
    fn push_flat(self, out: &mut Vec<T>) {
        out.extend_from_slice(self);
    }
}

/// The next entry of a flattened gradient, for a number.
pub fn take_scalar<T: Float>(flat: &mut std::vec::IntoIter<T>) -> T {
    flat.next().unwrap_or_else(T::nan)
}

/// The next `len` entries of a flattened gradient, for a slice.
pub fn take_slice<T: Float>(flat: &mut std::vec::IntoIter<T>, len: usize) -> Vec<T> {
    flat.by_ref().take(len).collect()
}

// ---- K directions a sweep (`NAME_hessian`, `NAME_hessian_sparse`) ----

/// How many of `count` columns (of a dense Hessian) or colours (of a
/// compressed one) `NAME_hessian` and `NAME_hessian_sparse` sweep `LANES`
/// at a time: every full group, and the last, partial one if more than
/// half its lanes are in use; the columns past them go one `NAME_hvp`
/// each. So `count` costs `⌈count / LANES⌉` sweeps unless the last group
/// holds 2 to `LANES / 2` columns, which cost one `NAME_hvp` each: an
/// idle lane costs about what a used one does (a sparse Rosenbrock
/// Hessian of 3 colours took twice as long in one 8-lane sweep as in
/// three `NAME_hvp`s, and 1.2 to 1.7 times as long in one of 4 lanes).
pub fn lane_columns(count: usize) -> usize {
    let rest = count % LANES;
    if rest > LANES / 2 {
        count
    } else {
        count - rest
    }
}

/// Which direction each of a second-order sweep's `K` lanes carries, over
/// the flattened inputs: lane `j` along input `first + j` (a dense
/// Hessian's columns) or along the sum of the inputs of colour
/// `first + j` (a compressed Hessian's).
#[derive(Clone, Copy, Debug)]
pub struct LaneSeed<'a, const K: usize> {
    colors: Option<&'a [usize]>,
    first: usize,
}

impl<'a, const K: usize> LaneSeed<'a, K> {
    /// Lane `j` along flattened input `first + j`.
    pub fn columns(first: usize) -> Self {
        LaneSeed {
            colors: None,
            first,
        }
    }

    /// Lane `j` along the inputs whose colour in `colors` (one per
    /// flattened input) is `first + j`.
    pub fn colors(colors: &'a [usize], first: usize) -> Self {
        LaneSeed {
            colors: Some(colors),
            first,
        }
    }

    /// The lane flattened input `i` is seeded in, if any.
    fn lane(&self, i: usize) -> Option<usize> {
        let column = match self.colors {
            Some(colors) => *colors.get(i)?,
            None => i,
        };
        column.checked_sub(self.first).filter(|j| *j < K)
    }

    /// `x` at flattened input `i`: its lane's derivative 1, the others 0.
    fn dual<T: Float>(&self, x: T, i: usize) -> DualLanes<T, K> {
        let mut d = DualLanes::constant_lanes(x);
        if let Some(j) = self.lane(i) {
            d.eps[j] = T::one();
        }
        d
    }
}

/// A number argument at flattened input `offset`, seeded by `seed`.
pub fn lane_scalar<T: Float, const K: usize>(
    x: T,
    seed: LaneSeed<'_, K>,
    offset: usize,
) -> DualLanes<T, K> {
    seed.dual(x, offset)
}

/// A slice argument from flattened input `offset` on, seeded by `seed`.
pub fn lane_slice<T: Float, const K: usize>(
    x: &[T],
    seed: LaneSeed<'_, K>,
    offset: usize,
) -> Vec<DualLanes<T, K>> {
    if seed.colors.is_some() {
        return x
            .iter()
            .enumerate()
            .map(|(i, &x)| seed.dual(x, offset + i))
            .collect();
    }
    // Unit columns: at most `K` entries are seeded, the rest constants.
    let mut out: Vec<DualLanes<T, K>> = x.iter().map(|&x| DualLanes::constant_lanes(x)).collect();
    for j in 0..K {
        if let Some(d) = (seed.first + j)
            .checked_sub(offset)
            .and_then(|i| out.get_mut(i))
        {
            d.eps[j] = T::one();
        }
    }
    out
}

/// A fixed-size array argument from flattened input `offset` on, seeded
/// by `seed`.
pub fn lane_array<T: Float, const K: usize, const N: usize>(
    x: &[T; N],
    seed: LaneSeed<'_, K>,
    offset: usize,
) -> [DualLanes<T, K>; N] {
    core::array::from_fn(|i| seed.dual(x[i], offset + i))
}

/// A constant number argument: derivative 0 in every lane.
pub fn lane_constant<T: Float, const K: usize>(x: T) -> DualLanes<T, K> {
    DualLanes::constant_lanes(x)
}

/// The elements of a constant slice argument: derivative 0 in every lane.
pub fn lane_constants<T: Float, const K: usize>(x: &[T]) -> Vec<DualLanes<T, K>> {
    x.iter().map(|&x| DualLanes::constant_lanes(x)).collect()
}

/// The elements of a constant fixed-size array argument.
pub fn lane_array_constant<T: Float, const K: usize, const N: usize>(
    x: &[T; N],
) -> [DualLanes<T, K>; N] {
    x.map(DualLanes::constant_lanes)
}

/// A gradient entry of a `K`-lane sweep: its values (the gradient) and
/// its lanes (`K` columns of the Hessian, or of the compressed Hessian).
pub trait LaneParts<T> {
    /// The entry's duals, flattened.
    fn duals(&self) -> &[DualLanes<T, LANES>];
}

impl<T: Float> LaneParts<T> for DualLanes<T, LANES> {
    fn duals(&self) -> &[DualLanes<T, LANES>] {
        core::slice::from_ref(self)
    }
}

impl<T: Float> LaneParts<T> for Vec<DualLanes<T, LANES>> {
    fn duals(&self) -> &[DualLanes<T, LANES>] {
        self
    }
}

impl<T: Float, const N: usize> LaneParts<T> for [DualLanes<T, LANES>; N] {
    fn duals(&self) -> &[DualLanes<T, LANES>] {
        self
    }
}

/// Appends a gradient entry's values, flattened.
pub fn push_lane_values<T: Float, D: LaneParts<T>>(out: &mut Vec<T>, entry: &D) {
    out.extend(entry.duals().iter().map(|d| d.re));
}

/// Writes lane `j` of each of a gradient entry's duals (at flattened rows
/// `offset..`) into column `first + j` of `out`, a column-major matrix of
/// `rows` rows, for the lanes `seed` gave a column of it.
pub fn put_lanes<T: Float, D: LaneParts<T>>(
    out: &mut [T],
    rows: usize,
    entry: &D,
    offset: usize,
    seed: LaneSeed<'_, LANES>,
) {
    if rows == 0 {
        return;
    }
    let first = seed.first;
    let count = LANES.min((out.len() / rows).saturating_sub(first));
    for (i, d) in entry.duals().iter().enumerate() {
        for j in 0..count {
            out[(first + j) * rows + offset + i] = d.eps[j];
        }
    }
}

/// The second order of an implicit solution z(θ) of r(z, θ) = 0, over the
/// flattened θ.
pub struct ImplicitSecondOrder<T> {
    /// z′ = dz/dθ = −(∂r/∂θ)/(∂r/∂z), the solver's gradient.
    pub gradient: Vec<T>,
    /// H·v of z.
    pub hvp: Vec<T>,
    /// ∂r/∂z cannot be divided by: both are NaN.
    pub singular: bool,
}

/// Differentiating r_z·z′ + r_θ = 0 along v: with u = (z′·v, v) and
/// (a_z, a_θ) = H_r·u (one Hessian-vector product of the residual,
/// `residual_hvp(z′·v)`), H·v of z is −(a_z·z′ + a_θ)/r_z. `r_z` and `r_θ`
/// are the residual's gradient at the solution; `v` the direction over θ.
pub fn implicit_second_order<T>(
    r_z: T,
    r_theta: Vec<T>,
    v: Vec<T>,
    residual_hvp: impl FnOnce(T) -> (T, Vec<T>),
) -> ImplicitSecondOrder<T>
where
    T: Float + crate::__private::ImplicitQuotient<T> + crate::__private::NotANumber,
{
    use crate::__private::{implicit_quotient, not_a_number_if, singular_derivative};
    let mut singular = singular_derivative(r_z);
    let gradient: Vec<T> = r_theta
        .into_iter()
        .map(|r| implicit_quotient(r, r_z, &mut singular))
        .collect();
    let along = gradient
        .iter()
        .zip(&v)
        .fold(T::zero(), |s, (&g, &v)| s + g * v);
    let (a_z, a_theta) = residual_hvp(along);
    let hvp = gradient
        .iter()
        .zip(a_theta)
        .map(|(&g, a)| implicit_quotient(a_z * g + a, r_z, &mut singular))
        .collect::<Vec<T>>();
    ImplicitSecondOrder {
        gradient: gradient
            .into_iter()
            .map(|g| not_a_number_if(g, singular))
            .collect(),
        hvp: hvp
            .into_iter()
            .map(|h| not_a_number_if(h, singular))
            .collect(),
        singular,
    }
}

// ---- matrices (`DMatrix<f64>`, `DVector<f64>` arguments) ----

use nalgebra::{DefaultAllocator, Dim, Scalar};
use nalgebra::{OMatrix, allocator::Allocator};

/// The dual matrix `x + v·ε` an `_hvp` passes its twin for a matrix
/// argument `x` along the direction `v`.
///
/// # Panics
///
/// If `v`'s shape is not `x`'s.
pub fn dual_matrix<T, R: Dim, C: Dim>(
    x: &OMatrix<T, R, C>,
    v: &OMatrix<T, R, C>,
) -> OMatrix<Dual<T>, R, C>
where
    T: Float + Scalar,
    DefaultAllocator: Allocator<R, C>,
{
    assert_eq!(
        x.shape(),
        v.shape(),
        "a direction of `_hvp` has shape {:?}, its argument {:?}",
        v.shape(),
        x.shape()
    );
    x.zip_map(v, Dual::new)
}

/// A constant matrix argument as dual numbers: derivative 0.
pub fn dual_matrix_constant<T, R: Dim, C: Dim>(x: &OMatrix<T, R, C>) -> OMatrix<Dual<T>, R, C>
where
    T: Float + Scalar,
    DefaultAllocator: Allocator<R, C>,
{
    x.map(Dual::constant)
}

impl<T, R: Dim, C: Dim> DualParts for OMatrix<Dual<T>, R, C>
where
    T: Float + Scalar,
    DefaultAllocator: Allocator<R, C>,
{
    type Real = OMatrix<T, R, C>;
    fn real_part(&self) -> OMatrix<T, R, C> {
        self.map(|d| d.re)
    }
    fn dual_part(&self) -> OMatrix<T, R, C> {
        self.map(|d| d.eps)
    }
}

/// The matrix of `like`'s shape with a one at flattened input `j` if it
/// falls in this argument (its entries `offset..offset + len`, column by
/// column), zeros elsewhere.
pub fn unit_matrix<T, R: Dim, C: Dim>(
    like: &OMatrix<T, R, C>,
    j: usize,
    offset: usize,
) -> OMatrix<T, R, C>
where
    T: Float + Scalar,
    DefaultAllocator: Allocator<R, C>,
{
    let mut v = like.map(|_| T::zero());
    if let Some(slot) = j
        .checked_sub(offset)
        .and_then(|i| v.as_mut_slice().get_mut(i))
    {
        *slot = T::one();
    }
    v
}

impl<T, R: Dim, C: Dim> PushFlat<T> for OMatrix<T, R, C>
where
    T: Float + Scalar,
    DefaultAllocator: Allocator<R, C>,
{
    /// The entries in column-major order, as the flattened inputs are.
    fn push_flat(self, out: &mut Vec<T>) {
        out.extend_from_slice(self.as_slice());
    }
}

/// A matrix direction (`&DMatrix<f64>`) of a solver's `_hvp`.
impl<T, R: Dim, C: Dim> PushFlat<T> for &OMatrix<T, R, C>
where
    T: Float + Scalar,
    DefaultAllocator: Allocator<R, C>,
{
    /// The entries in column-major order, as the flattened inputs are.
    fn push_flat(self, out: &mut Vec<T>) {
        out.extend_from_slice(self.as_slice());
    }
}

/// The next entries of a flattened gradient, for a matrix of `like`'s
/// shape (column-major).
pub fn take_matrix<T, R: Dim, C: Dim>(
    flat: &mut std::vec::IntoIter<T>,
    like: &OMatrix<T, R, C>,
) -> OMatrix<T, R, C>
where
    T: Float + Scalar,
    DefaultAllocator: Allocator<R, C>,
{
    like.map(|_| flat.next().unwrap_or_else(T::nan))
}
