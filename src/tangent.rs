//! Structs as differentiable arguments.

/// A struct of parameters that a `#[differentiable]` function takes as an
/// argument (by value or `&S`) and whose adjoint is the same struct:
/// each differentiable field (`f64`, `f32`) holds its adjoint, every other
/// field (`#[constant]` ones, integers, `bool`s, ...) a clone of the
/// argument's. Derive it: `#[derive(Clone, autograd::Tangent)]`.
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

    /// Adds `g` into the field named `field` if it is differentiable; the
    /// wrappers of a function reading the field call it. Through the trait
    /// (not an inherent method), a struct that is not `Tangent` gives one
    /// error.
    #[doc(hidden)]
    fn __add_field(&mut self, field: &str, g: f64);

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

/// A float field read by a differentiable body: a differentiable input.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` body reads a `{Self}` field of a `Tangent` struct as a float",
    label = "this field is not `f64`",
    note = "read an integer field through a cast where it is used: `p.n as usize`, `p.n as f64`"
)]
#[doc(hidden)]
pub trait FloatField {
    /// The field's value.
    fn value(self) -> f64;
}
impl FloatField for f64 {
    #[inline(always)]
    fn value(self) -> f64 {
        self
    }
}

/// The value of a float field read by a differentiable body.
#[doc(hidden)]
#[inline(always)]
pub fn float_field<T: FloatField>(v: T) -> f64 {
    v.value()
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
