//! Structs as differentiable arguments.

/// A struct of parameters that a `#[differentiable]` function takes as an
/// argument (by value or `&S`) and whose adjoint is the same struct:
/// each differentiable field (`f64`, `f32`, `Vec<f64>`, `[f64; N]`,
/// `DVector<f64>`, a nested `Tangent` struct) holds its adjoint, every
/// other field (`#[constant]` ones, integers, `bool`s, `String`s, ...) a
/// clone of the argument's. Derive it: `#[derive(Clone, autograd::Tangent)]`.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `Tangent` struct",
    label = "an argument of a `#[differentiable]` function",
    note = "derive it, `#[derive(Clone, autograd::Tangent)]`, or mark the argument `#[constant]`"
)]
pub trait Tangent: Clone {
    /// The adjoint of a zero gradient at `self`: differentiable fields
    /// zero, the others clones of `self`'s.
    fn zero_adjoint(&self) -> Self;
    /// Adds `other`'s differentiable fields into `self`'s.
    fn add_adjoint(&mut self, other: &Self);

    /// Sets the constant fields that hold floats (`#[constant]` ones) back
    /// to `from`'s, in nested structs too. The wrappers of a function add
    /// each field read's adjoint into the field itself (`d.inner.a += g`,
    /// typed: a path that names no field is rustc's error at it), a
    /// constant one too; this undoes those.
    #[doc(hidden)]
    fn __restore_constants(&mut self, from: &Self);

    /// Sets the constant fields that can be read as floats (`#[constant]`
    /// `f64`, `f32` and float collections, in nested structs too) to zero:
    /// a tangent or direction of `_jvp`/`_hvp` moves no constant, whatever
    /// the caller's struct holds there.
    #[doc(hidden)]
    fn __zero_constants(&mut self);

    /// Appends the differentiable fields' entries in declaration order (a
    /// collection its elements, a nested struct its own): a row of a
    /// Jacobian.
    #[doc(hidden)]
    fn __flatten_into(&self, row: &mut Vec<f64>);

    /// A copy of `self` whose differentiable fields are taken from the
    /// front of `flat` (in the order of [`Tangent::__flatten_into`]).
    #[doc(hidden)]
    fn __from_flat(&self, flat: &mut &[f64]) -> Self;

    /// Adds the front of `flat` into the differentiable fields.
    #[doc(hidden)]
    fn __add_flat(&mut self, flat: &mut &[f64]);

    /// Compares each differentiable field's adjoint with central
    /// differences of `f`, labelled `name.field`.
    #[doc(hidden)]
    fn __check_fields(
        &self,
        adjoint: &Self,
        name: &str,
        check: &mut crate::GradientCheck,
        f: &mut dyn FnMut(&Self) -> f64,
    );
}

/// A float field read by a differentiable body: a differentiable input of
/// the function's float type `T` (`f32` for a function returning `f32`).
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` body reads a `{Self}` field of a `Tangent` struct as `{T}`",
    label = "this field is not `{T}`",
    note = "a function reads float fields of its own float type (`f64` fields in a function returning `f64`, `f32` fields in one returning `f32`); read an integer field through a cast where it is used (`p.n as usize`, `p.n as f64`), a collection field by index or iterator (`p.w[i]`, `p.w.iter()`, `p.w.len()`), and a constant field of another type (an enum) where it is matched or compared with a variant (`match p.kind`, `p.kind == Kind::A`), or pass the struct on whole to the function that needs it"
)]
#[doc(hidden)]
pub trait FloatField<T> {
    /// The field's value.
    fn value(self) -> T;
    /// The field, written by an in-out struct's body.
    fn value_mut(&mut self) -> &mut T;
    /// `self += g`: the adjoint of a read added into the field.
    fn add(&mut self, g: T);
}
impl FloatField<f64> for f64 {
    #[inline(always)]
    fn value(self) -> f64 {
        self
    }
    #[inline(always)]
    fn value_mut(&mut self) -> &mut f64 {
        self
    }
    #[inline(always)]
    fn add(&mut self, g: f64) {
        *self += g;
    }
}
impl FloatField<f32> for f32 {
    #[inline(always)]
    fn value(self) -> f32 {
        self
    }
    #[inline(always)]
    fn value_mut(&mut self) -> &mut f32 {
        self
    }
    #[inline(always)]
    fn add(&mut self, g: f32) {
        *self += g;
    }
}

/// The value of a float field read by a differentiable body.
#[doc(hidden)]
#[inline(always)]
pub fn float_field<T, F: FloatField<T>>(v: F) -> T {
    v.value()
}

/// A float field of an in-out (`&mut`) struct argument, which the body
/// writes.
#[doc(hidden)]
#[inline(always)]
pub fn float_field_mut<T, F: FloatField<T>>(v: &mut F) -> &mut T {
    v.value_mut()
}

/// `field += g`: the adjoint of a float field read, added into the field
/// of the struct's adjoint (one bound, the read's: a field of another type
/// is the read's error again).
#[doc(hidden)]
#[inline(always)]
pub fn add_float_field<T, F: FloatField<T>>(field: &mut F, g: T) {
    field.add(g);
}

/// An integer field read through a cast (`p.n as usize`): a constant.
#[diagnostic::on_unimplemented(
    message = "a `{Self}` field of a `Tangent` struct is read through a cast",
    label = "a float field is differentiable: read it without `as`",
    note = "a `#[differentiable]` body casts only integer fields (`p.n as f64`)"
)]
#[doc(hidden)]
pub trait IntField {}
macro_rules! int_fields {
    ($($t:ty),*) => {$(impl IntField for $t {})*};
}
int_fields!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, bool
);

/// The value of an integer field read through a cast.
#[doc(hidden)]
#[inline(always)]
pub fn int_field<T: IntField>(v: T) -> T {
    v
}

/// A float collection field (`Vec<f64>`, `[f64; N]`, `DVector<f64>`) as the
/// slice of its elements: a body's reads of it (`p.w[i]`, `p.w.iter()`,
/// `p.w.len()`) are reads of a `&[f64]` input.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` body reads a `{Self}` field of a `Tangent` struct by index or iterator",
    label = "this field is not `Vec<f64>`, `[f64; N]` or `DVector<f64>`",
    note = "read a float field as a value (`p.a * x`) and an integer field through a cast (`p.n as usize`)",
    note = "a field that is itself a `Tangent` struct is passed on whole (`g(&m.curve)`) where the file of the call declares the struct it is read from (`m`'s type) with `#[derive(Tangent)]`; otherwise pass its fields (`g(m.curve.level, m.curve.slope)`) or the outer struct (`g(&m)`)"
)]
#[doc(hidden)]
pub trait CollectionField {
    /// The elements, in order.
    fn elements(&self) -> &[f64];
    /// The elements, writable.
    fn elements_mut(&mut self) -> &mut [f64];
    /// The same shape, zeros.
    fn zeroed(&self) -> Self;
}

impl CollectionField for Vec<f64> {
    #[inline(always)]
    fn elements(&self) -> &[f64] {
        self
    }
    #[inline(always)]
    fn elements_mut(&mut self) -> &mut [f64] {
        self
    }
    #[inline]
    fn zeroed(&self) -> Self {
        vec![0.0; self.len()]
    }
}

impl<const N: usize> CollectionField for [f64; N] {
    #[inline(always)]
    fn elements(&self) -> &[f64] {
        self
    }
    #[inline(always)]
    fn elements_mut(&mut self) -> &mut [f64] {
        self
    }
    #[inline]
    fn zeroed(&self) -> Self {
        [0.0; N]
    }
}

impl CollectionField for nalgebra::DVector<f64> {
    #[inline(always)]
    fn elements(&self) -> &[f64] {
        self.as_slice()
    }
    #[inline(always)]
    fn elements_mut(&mut self) -> &mut [f64] {
        self.as_mut_slice()
    }
    #[inline]
    fn zeroed(&self) -> Self {
        nalgebra::DVector::zeros(self.len())
    }
}

impl CollectionField for nalgebra::DMatrix<f64> {
    /// Column-major, nalgebra's storage order.
    #[inline(always)]
    fn elements(&self) -> &[f64] {
        self.as_slice()
    }
    #[inline(always)]
    fn elements_mut(&mut self) -> &mut [f64] {
        self.as_mut_slice()
    }
    #[inline]
    fn zeroed(&self) -> Self {
        nalgebra::DMatrix::zeros(self.nrows(), self.ncols())
    }
}

/// Fixed-size vectors and matrices (`Vector3<f64>`, `SMatrix<f64, R, C>`),
/// column-major.
impl<const R: usize, const C: usize> CollectionField for nalgebra::SMatrix<f64, R, C> {
    #[inline(always)]
    fn elements(&self) -> &[f64] {
        self.as_slice()
    }
    #[inline(always)]
    fn elements_mut(&mut self) -> &mut [f64] {
        self.as_mut_slice()
    }
    #[inline]
    fn zeroed(&self) -> Self {
        Self::zeros()
    }
}

/// The elements of a collection field read by a differentiable body.
#[doc(hidden)]
#[inline(always)]
pub fn collection_field<T: CollectionField + ?Sized>(v: &T) -> &[f64] {
    v.elements()
}

/// The elements of a collection field of an in-out (`&mut`) struct
/// argument, which the body writes.
#[doc(hidden)]
#[inline(always)]
pub fn collection_field_mut<T: CollectionField + ?Sized>(v: &mut T) -> &mut [f64] {
    v.elements_mut()
}

/// `field += g`, element by element.
///
/// # Panics
///
/// If `g` has another length than the field (an adjoint buffer of another
/// shape than the argument).
#[doc(hidden)]
#[inline]
#[track_caller]
pub fn add_to_collection<T: CollectionField + ?Sized>(field: &mut T, g: &[f64]) {
    let field = field.elements_mut();
    assert_eq!(
        field.len(),
        g.len(),
        "autograd: an adjoint of {} elements added into a field of {}",
        g.len(),
        field.len()
    );
    for (a, b) in field.iter_mut().zip(g) {
        *a += *b;
    }
}

/// A vector or matrix field used as a nalgebra value (`p.w.dot(&x)`,
/// `&p.m * &x`): a body reads it as a `DMatrix<f64>` of its shape.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` body uses a `{Self}` field of a `Tangent` struct as a nalgebra value",
    label = "this field is not a nalgebra vector or matrix of `f64`",
    note = "nalgebra methods and `&p.m * &x` take `DVector<f64>`, `DMatrix<f64>` and fixed-size fields such as `Vector3<f64>`; read a `Vec<f64>` or array field by index or iterator (`p.w[i]`, `p.w.iter()`)"
)]
#[doc(hidden)]
pub trait MatrixField {
    /// A copy, as a `DMatrix<f64>` of the same shape.
    fn matrix(&self) -> nalgebra::DMatrix<f64>;
}

impl<R: nalgebra::Dim, C: nalgebra::Dim, S: nalgebra::RawStorage<f64, R, C>> MatrixField
    for nalgebra::Matrix<f64, R, C, S>
{
    #[inline]
    fn matrix(&self) -> nalgebra::DMatrix<f64> {
        nalgebra::DMatrix::from_iterator(self.nrows(), self.ncols(), self.iter().copied())
    }
}

/// The value of a vector or matrix field used as a nalgebra value.
#[doc(hidden)]
#[inline]
pub fn matrix_field<T: MatrixField + ?Sized>(v: &T) -> nalgebra::DMatrix<f64> {
    v.matrix()
}

/// An unsigned integer field bounding a range (`0..p.n`): a constant.
#[diagnostic::on_unimplemented(
    message = "a `{Self}` field of a `Tangent` struct bounds a range",
    label = "a range's bound read from a field is an unsigned integer",
    note = "cast a signed field where it is used: `0..p.n as usize`"
)]
#[doc(hidden)]
pub trait RangeField {
    /// The bound as an index.
    fn bound(self) -> usize;
}
macro_rules! range_fields {
    ($($t:ty),*) => {$(
        impl RangeField for $t {
            #[inline(always)]
            fn bound(self) -> usize {
                self as usize
            }
        }
    )*};
}
range_fields!(u8, u16, u32, usize);

/// The value of an unsigned integer field bounding a range.
#[doc(hidden)]
#[inline(always)]
pub fn range_field<T: RangeField>(v: T) -> usize {
    v.bound()
}

/// The first entry of `flat`, which then starts after it.
///
/// # Panics
///
/// If `flat` is empty (a flattened struct of another shape).
#[doc(hidden)]
#[inline(always)]
pub fn take_float(flat: &mut &[f64]) -> f64 {
    take_elements(flat, 1)[0]
}

/// The first `n` entries of `flat`, which then starts after them.
///
/// # Panics
///
/// If `flat` is shorter.
#[doc(hidden)]
#[inline(always)]
pub fn take_elements<'a>(flat: &mut &'a [f64], n: usize) -> &'a [f64] {
    assert!(
        flat.len() >= n,
        "autograd: a flattened struct is shorter than its fields"
    );
    let (head, rest) = flat.split_at(n);
    *flat = rest;
    head
}

/// A copy of the collection field `c` holding the next entries of `flat`.
#[doc(hidden)]
#[inline]
pub fn take_collection<T: CollectionField + Clone>(c: &T, flat: &mut &[f64]) -> T {
    let mut out = c.clone();
    let n = out.elements().len();
    out.elements_mut().copy_from_slice(take_elements(flat, n));
    out
}

/// [`Tangent`]'s operations as a function's generated code calls them
/// (`<S as TangentStruct>::zero_adjoint(..)`). A method of `Tangent` has
/// the supertrait `Clone` among its own bounds, this trait's only `T:
/// Tangent`: a struct that derives `Tangent` but not `Clone` is then the
/// one error at its derive, not one more per method a function calls.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a `Tangent` struct",
    label = "an argument of a `#[differentiable]` function",
    note = "derive it, `#[derive(Clone, autograd::Tangent)]`, or mark the argument `#[constant]`"
)]
#[doc(hidden)]
#[allow(missing_docs)]
pub trait TangentStruct: Sized {
    fn zero_adjoint(&self) -> Self;
    fn add_adjoint(&mut self, other: &Self);
    fn __restore_constants(&mut self, from: &Self);
    fn __zero_constants(&mut self);
    fn __flatten_into(&self, row: &mut Vec<f64>);
    fn __from_flat(&self, flat: &mut &[f64]) -> Self;
    fn __add_flat(&mut self, flat: &mut &[f64]);
    fn __check_fields(
        &self,
        adjoint: &Self,
        name: &str,
        check: &mut crate::GradientCheck,
        f: &mut dyn FnMut(&Self) -> f64,
    );
}

impl<T: Tangent> TangentStruct for T {
    #[inline(always)]
    fn zero_adjoint(&self) -> Self {
        Tangent::zero_adjoint(self)
    }
    #[inline(always)]
    fn add_adjoint(&mut self, other: &Self) {
        Tangent::add_adjoint(self, other)
    }
    #[inline(always)]
    fn __restore_constants(&mut self, from: &Self) {
        Tangent::__restore_constants(self, from)
    }
    #[inline(always)]
    fn __zero_constants(&mut self) {
        Tangent::__zero_constants(self)
    }
    #[inline(always)]
    fn __flatten_into(&self, row: &mut Vec<f64>) {
        Tangent::__flatten_into(self, row)
    }
    #[inline(always)]
    fn __from_flat(&self, flat: &mut &[f64]) -> Self {
        Tangent::__from_flat(self, flat)
    }
    #[inline(always)]
    fn __add_flat(&mut self, flat: &mut &[f64]) {
        Tangent::__add_flat(self, flat)
    }
    #[inline(always)]
    fn __check_fields(
        &self,
        adjoint: &Self,
        name: &str,
        check: &mut crate::GradientCheck,
        f: &mut dyn FnMut(&Self) -> f64,
    ) {
        Tangent::__check_fields(self, adjoint, name, check, f)
    }
}

/// The differentiable fields of a nested `Tangent` struct passed on whole
/// (`g(&p.inner)`), flattened as the callee's struct call takes them; the
/// generated code does not name the nested struct's type.
#[doc(hidden)]
#[inline]
pub fn flatten_struct<T: TangentStruct>(t: &T) -> Vec<f64> {
    let mut row = Vec::new();
    t.__flatten_into(&mut row);
    row
}

/// Adds the adjoint of a nested struct passed on whole, flattened, into
/// that field of the outer struct's adjoint.
///
/// # Panics
///
/// If `flat` is shorter than the struct's differentiable fields.
#[doc(hidden)]
#[inline]
pub fn add_flat_struct<T: TangentStruct>(t: &mut T, flat: &[f64]) {
    t.__add_flat(&mut &flat[..]);
}

/// A copy of a `Tangent` struct. The derive's code clones through this
/// rather than `Clone` itself: a struct that derives `Tangent` but not
/// `Clone` is then the one error at its derive (the supertrait), not one
/// more per field the generated code copies.
#[doc(hidden)]
#[inline(always)]
pub fn clone_tangent<T: Tangent>(t: &T) -> T {
    t.clone()
}

/// A constant field of a tangent or direction, as [`Tangent::__zero_constants`]
/// sees it: one a body can read as a float (`f64`, `f32`, a float
/// collection) becomes zero ([`ZeroConstant`], chosen by method resolution
/// on `&ConstantField`), any other keeps its value ([`KeepConstant`]).
#[doc(hidden)]
pub struct ConstantField<'a, T>(pub &'a T);

// A reference, copied whatever `T` is (a derive would ask `T: Copy`): the
// generated `(&ConstantField(..)).zeroed_constant()` reaches
// [`KeepConstant`] through `&`, which moves the wrapper out of it (E0507
// on a `fn(f64) -> f64` field, any type holding a float that is not one).
impl<T> Clone for ConstantField<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for ConstantField<'_, T> {}

/// A constant field that a body can read as a float: its zero.
#[doc(hidden)]
pub trait ZeroConstant {
    /// The field's type.
    type Field;
    /// Zero, of the field's shape.
    fn zeroed_constant(self) -> Self::Field;
}

/// Any other constant field: its value.
#[doc(hidden)]
pub trait KeepConstant {
    /// The field's type.
    type Field;
    /// A clone of the field.
    fn zeroed_constant(self) -> Self::Field;
}

impl<T: Clone> KeepConstant for ConstantField<'_, T> {
    type Field = T;
    #[inline]
    fn zeroed_constant(self) -> T {
        self.0.clone()
    }
}

impl ZeroConstant for &ConstantField<'_, f64> {
    type Field = f64;
    #[inline]
    fn zeroed_constant(self) -> f64 {
        0.0
    }
}

impl ZeroConstant for &ConstantField<'_, f32> {
    type Field = f32;
    #[inline]
    fn zeroed_constant(self) -> f32 {
        0.0
    }
}

macro_rules! zero_collections {
    ($([$($g:tt)*] $t:ty),*) => {$(
        impl<$($g)*> ZeroConstant for &ConstantField<'_, $t> {
            type Field = $t;
            #[inline]
            fn zeroed_constant(self) -> $t {
                self.0.zeroed()
            }
        }
    )*};
}
zero_collections!(
    [] Vec<f64>,
    [const N: usize] [f64; N],
    [] nalgebra::DVector<f64>,
    [] nalgebra::DMatrix<f64>,
    [const R: usize, const C: usize] nalgebra::SMatrix<f64, R, C>
);
