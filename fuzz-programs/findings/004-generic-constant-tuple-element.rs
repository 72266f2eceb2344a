//! Finding 004 (fuzz generator, `shaped` generic programs): in a generic
//! function, a tuple `let` one of whose elements depends on no
//! differentiable argument does not compile; the same function with both
//! elements depending on `a0` does.
//!
//!     error[E0308]: mismatched types: expected type parameter `T`, found `&T`
//!       --> (the `#[differentiable]` attribute)
//!     error[E0369]: cannot multiply `&T` by `T`   (at `s5 * T::from(0.5).unwrap()`)
//!     error[E0277]: the trait bound `T: AddRule` / `T: OperatorOperand` is not satisfied
//!
//! A compile error, not a wrong number, but README documents both
//! `let (a, b) = (e1, e2);` and generic functions with `T::from(2.0).unwrap()`.
//! Not bisected further for lack of time (is the tuple needed, or does any
//! inactive `T` local read in a product fail?). Found by seed 4242
//! (0x1092) of the long run: f23, f488, f983, f998 of its 1000 programs,
//! all generic with such a tuple; and by seed 777 (0x309, 300 programs):
//! f139, whose `let (s6, s7) = (constant, ..)` is the same shape.
//!
//! Expected (closed form): tuple_const(a) = sin a · sin 1.5 + 0.5 · sin 1.5,
//! d/da = cos a · sin 1.5 (the test below states it at a = 0.5).
//! The macro gave: the compile errors above.
//!
//! Status: fixed. The class is wider than tuples: any `let` of a float
//! method of a constant of `T` (`let s5 = T::from(1.5).unwrap().sin();`,
//! `T::one().exp()`, `T::from(0.5).unwrap().powi(2)`) failed as soon as it
//! met a differentiable value in an operator. Such an expression is folded
//! into one constant, whose kind the macro reads from its tokens
//! (`is_scalar_constant`, `const_kind` in autograd-macros/src/lower/mod.rs);
//! `T::from(..).unwrap()` was known as a scalar, a method of it was not, so
//! the constant was of unknown kind (perhaps a matrix): the generated code
//! passed it by reference (`a0 * &s5`) to the matrix rules, which `T` does
//! not implement. A rule-table float method of a scalar constant is now a
//! scalar constant (also `2.0_f64.ln()` in `f32`/`f64` code, which compiled
//! already: `f64` implements the by-reference operators). Regression test:
//! `finding_004_generic_constant_in_a_tuple` in tests/trust.rs (the tuple,
//! the plain `let`s, chained constants, `f64`, `f32`, and the Hessian
//! twin, against closed forms).

use autograd::differentiable;
use autograd::num_traits::Float;

#[differentiable]
fn tuple_const<T: Float>(a0: T) -> T {
    let (s4, s5) = (a0.sin(), T::from(1.5).unwrap().sin());
    s4 * s5 + s5 * T::from(0.5).unwrap()
}

// Compiles: both elements depend on `a0`.
#[differentiable]
fn tuple_var<T: Float>(a0: T) -> T {
    let (s4, s5) = (a0.sin(), a0.cos());
    s4 * s5 + s5 * T::from(0.5).unwrap()
}

#[test]
fn generic_constant_tuple_element() {
    let (s, c) = (0.5f64.sin(), 1.5f64.sin());
    let (value, d) = tuple_const_grad(0.5f64);
    assert!((value - (s * c + 0.5 * c)).abs() < 1e-15);
    assert!((d - 0.5f64.cos() * c).abs() < 1e-15);
    let _ = tuple_var_grad(0.5f64);
}
