//! Structs as differentiable arguments.

/// A struct of parameters that a `#[differentiable]` function takes as an
/// argument (by value or `&S`) and whose adjoint is the same struct:
/// each differentiable field (`f64`, `f32`) holds its adjoint, every other
/// field (`#[constant]` ones, integers, `bool`s, ...) a clone of the
/// argument's. Derive it: `#[derive(Clone, autograd::Tangent)]`.
pub trait Tangent: Clone {
    /// The adjoint of a zero gradient at `self`: differentiable fields
    /// zero, the others clones of `self`'s.
    fn zero_adjoint(&self) -> Self;
    /// Adds `other`'s differentiable fields into `self`'s.
    fn add_adjoint(&mut self, other: &Self);
}

/// What the wrappers of a function taking a [`Tangent`] struct use; not
/// part of the public API.
#[doc(hidden)]
pub trait TangentCheck: Tangent {
    /// Compares each differentiable field's adjoint with central
    /// differences of `f`, labelled `name.field`.
    fn check_fields(
        &self,
        adjoint: &Self,
        name: &str,
        check: &mut crate::GradientCheck,
        f: &mut dyn FnMut(&Self) -> f64,
    );
}

/// A float field read by a differentiable body: a differentiable input.
#[diagnostic::on_unimplemented(
    message = "a `#[differentiable]` body reads only the `f64` fields of a `Tangent` struct, not a `{Self}` field",
    label = "this field is not `f64`",
    note = "pass the value as a `#[constant]` argument instead, or compute it outside the function"
)]
#[doc(hidden)]
pub trait FloatField {}
impl FloatField for f64 {}

/// The field's value, checked to be a float.
#[doc(hidden)]
#[inline(always)]
pub fn float_field<T: FloatField>(v: T) -> T {
    v
}
