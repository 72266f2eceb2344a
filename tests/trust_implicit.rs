//! Regression tests for the implicit-function hook (the "Trust" issue):
//!
//! - a subnormal ∂r/∂x made λ = seed/(∂r/∂x) overflow, and
//!   `r = 1e-310·(x − c)` gave `Ok((c, inf))` where dx/dc = 1: each
//!   adjoint is now the quotient −(∂r/∂θ)/(∂r/∂x), divided last, and a
//!   quotient that is not finite while its partial is reports
//!   `SolveError::SingularDerivative` (NaN for a plain-float solver);
//! - the residual is matched to the solver's arguments by name (see
//!   `ui-tests/tests/ui/calls/implicit-residual-arguments-in-another-order.rs` for
//!   the compile error): a residual taking them in the solver's order, under
//!   the same names, gives the closed-form derivatives.
//!
//! Expected values are closed forms.

use autograd::differentiable;
use autograd::solve::{SolveError, bisect};

// ---- a subnormal ∂r/∂x ----

/// r(x, c) = 1e-310·(x − c): ∂r/∂x = 1e-310 (subnormal), ∂r/∂c = −1e-310,
/// root x = c, dx/dc = 1.
#[differentiable]
fn tiny(x: f64, c: f64) -> f64 {
    1e-310 * (x - c)
}

#[differentiable(implicit = tiny)]
fn tiny_root(c: f64) -> Result<f64, SolveError> {
    bisect(|x| tiny(x, c), c - 1.0, c + 2.0, 1e-13)
}

#[differentiable(implicit = tiny)]
fn tiny_root_plain(c: f64) -> f64 {
    bisect(|x| tiny(x, c), c - 1.0, c + 2.0, 1e-13).unwrap_or(f64::NAN)
}

#[test]
fn a_subnormal_derivative_in_the_solution_gives_the_true_derivative() {
    // 1e-310 is subnormal and 1/1e-310 overflows to +∞: the old λ.
    let (x, dx) = tiny_root_grad(0.3).unwrap();
    assert!((x - 0.3).abs() <= 1e-12, "{x}");
    assert_eq!(dx, 1.0);
    let (x, dx) = tiny_root_plain_grad(0.3);
    assert!((x - 0.3).abs() <= 1e-12, "{x}");
    assert_eq!(dx, 1.0);
    // The seed multiplies the quotient: a tiny seed keeps its precision, a
    // large one scales.
    let (_, pullback) = tiny_root_vjp(0.3).unwrap();
    assert_eq!(pullback(1e-300), (1e-300,));
    let (_, pullback) = tiny_root_plain_vjp(0.3);
    assert_eq!(pullback(-4.0), (-4.0,));
}

// ---- a quotient that overflows ----

/// r(x, c) = 1e-300·x − 1e10·c: dx/dc = 1e310, more than f64 holds.
#[differentiable]
fn steep(x: f64, c: f64) -> f64 {
    1e-300 * x - 1e10 * c
}

#[differentiable(implicit = steep)]
fn steep_root(c: f64) -> Result<f64, SolveError> {
    bisect(|x| steep(x, c), 0.0, 1e12, 1e-3)
}

#[differentiable(implicit = steep)]
fn steep_root_plain(c: f64) -> f64 {
    bisect(|x| steep(x, c), 0.0, 1e12, 1e-3).unwrap_or(f64::NAN)
}

#[test]
fn a_quotient_that_overflows_is_singular_derivative_never_infinity() {
    // c = 1e-300: the root is 1e10.
    let x = steep_root(1e-300).unwrap();
    assert!((x - 1e10).abs() <= 1e-3, "{x}");
    let err = steep_root_grad(1e-300).unwrap_err();
    assert!(
        matches!(err, SolveError::SingularDerivative { derivative } if derivative == 1e-300),
        "{err:?}"
    );
    assert!(err.to_string().contains("not differentiable"), "{err}");
    let (_, dx) = steep_root_plain_grad(1e-300);
    assert!(dx.is_nan(), "{dx}");
}

// ---- an exactly singular residual ----

/// r(x, c) = (x − c)³: ∂r/∂x = 0 at the root x = c.
#[differentiable]
fn triple(x: f64, c: f64) -> f64 {
    let d = x - c;
    d * d * d
}

#[differentiable(implicit = triple)]
fn triple_root(c: f64) -> Result<f64, SolveError> {
    bisect(|x| triple(x, c), c - 1.0, c + 1.0, 1e-12)
}

#[differentiable(implicit = triple)]
fn triple_root_plain(c: f64) -> f64 {
    bisect(|x| triple(x, c), c - 1.0, c + 1.0, 1e-12).unwrap_or(f64::NAN)
}

#[test]
fn an_exactly_singular_residual_is_singular_derivative() {
    assert_eq!(triple_root(0.5), Ok(0.5));
    assert_eq!(
        triple_root_grad(0.5),
        Err(SolveError::SingularDerivative { derivative: 0.0 })
    );
    let (x, dx) = triple_root_plain_grad(0.5);
    assert_eq!(x, 0.5);
    assert!(dx.is_nan(), "{dx}");
}

// ---- a partial that is itself infinite passes through ----

/// r(x, c) = x − √c: at c = 0, ∂r/∂c = −∞ and dx/dc = d√c/dc = +∞, the
/// true (one-sided) derivative; the hook reports only the infinities it
/// makes.
#[differentiable]
fn root_of(x: f64, c: f64) -> f64 {
    x - c.sqrt()
}

#[differentiable(implicit = root_of)]
fn sqrt_root(c: f64) -> Result<f64, SolveError> {
    bisect(|x| root_of(x, c), 0.0, c.max(1.0), 1e-14)
}

#[test]
fn an_infinite_partial_of_the_residual_gives_an_infinite_derivative() {
    assert_eq!(sqrt_root_grad(0.0), Ok((0.0, f64::INFINITY)));
    let (x, dx) = sqrt_root_grad(4.0).unwrap();
    assert!((x - 2.0).abs() <= 1e-13, "{x}");
    assert!((dx - 0.25).abs() <= 1e-13, "{dx}");
}

// ---- ordinary cases, several arguments, slices, f32 ----

/// The example written as the hook reads it: the residual takes
/// the solver's arguments after the solution, in the solver's order and
/// under its names (in another order it is a compile error, see
/// `ui-tests/tests/ui/calls/implicit-residual-arguments-in-another-order.rs`).
#[differentiable]
fn res(x: f64, b: f64, a: f64) -> f64 {
    x * a - b
}

#[differentiable(implicit = res)]
fn solve(b: f64, a: f64) -> Result<f64, SolveError> {
    bisect(|x| res(x, b, a), -10.0, 10.0, 1e-13)
}

#[test]
fn a_residual_taking_the_solvers_arguments_by_name_gets_each_its_own_derivative() {
    // x = b/a = 1.5 at (b, a) = (3, 2): dx/db = 1/a, dx/da = −b/a².
    let (x, db, da) = solve_grad(3.0, 2.0).unwrap();
    assert!((x - 1.5).abs() <= 1e-12, "{x}");
    assert!((db - 0.5).abs() <= 1e-11, "{db}");
    assert!((da + 0.75).abs() <= 1e-11, "{da}");
}

/// r(x, a, b) = a·x − b: x = b/a, dx/da = −b/a², dx/db = 1/a.
#[differentiable]
fn linear(x: f64, a: f64, b: f64) -> f64 {
    x * a - b
}

#[differentiable(implicit = linear)]
fn quotient(a: f64, b: f64) -> Result<f64, SolveError> {
    bisect(|x| linear(x, a, b), -100.0, 100.0, 1e-13)
}

#[test]
fn two_arguments_get_their_closed_form_derivatives() {
    for (a, b) in [(2.0, 1.0), (4.0, 3.0), (-0.5, 2.0)] {
        let (x, da, db) = quotient_grad(a, b).unwrap();
        assert!((x - b / a).abs() <= 1e-12, "{x}");
        assert!((da + b / (a * a)).abs() <= 1e-11, "a = {a}, b = {b}: {da}");
        assert!((db - 1.0 / a).abs() <= 1e-11, "a = {a}, b = {b}: {db}");
    }
}

/// r(x, w) = 1e-310·(x − w₀·w₁): dx/dw = (w₁, w₀), through a subnormal
/// ∂r/∂x, element by element.
#[differentiable]
fn tiny_product(x: f64, w: &[f64]) -> f64 {
    1e-310 * (x - w[0] * w[1])
}

#[differentiable(implicit = tiny_product)]
fn product_root(w: &[f64]) -> Result<f64, SolveError> {
    bisect(|x| tiny_product(x, w), -10.0, 10.0, 1e-13)
}

#[test]
fn slices_take_the_quotient_element_by_element() {
    let (x, dw) = product_root_grad(&[1.5, 2.0]).unwrap();
    assert!((x - 3.0).abs() <= 1e-12, "{x}");
    assert_eq!(dw.len(), 2);
    // ∂r/∂w = −1e-310·(w₁, w₀) rounds in the subnormal range: a relative
    // error of about 1e-310 / 5e-324 ≈ 2⁴³ units, 1e-13.
    assert!(
        (dw[0] - 2.0).abs() <= 1e-12 && (dw[1] - 1.5).abs() <= 1e-12,
        "{dw:?}"
    );
}

/// r(x, c) = 1e-40·(x − c) in f32, where 1e-40 is subnormal.
#[differentiable]
fn tiny32(x: f32, c: f32) -> f32 {
    1e-40 * (x - c)
}

#[differentiable(implicit = tiny32)]
fn tiny32_root(c: f32) -> f32 {
    let (mut lo, mut hi) = (c - 1.0, c + 2.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if tiny32(mid, c) < 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[test]
fn an_f32_solver_with_a_subnormal_derivative_gives_the_true_derivative() {
    // 1e-40 is subnormal in f32 and 1/1e-40 overflows to +∞.
    let (x, dx) = tiny32_root_grad(0.25);
    // The residual underflows to 0 within about 1e-5 of the root.
    assert!((x - 0.25).abs() <= 1e-4, "{x}");
    assert!((dx - 1.0).abs() <= 1e-4, "{dx}");
}

// An argument named like the solver, and a solver in a module without the
// prelude: the generated wrappers name nothing the user can shadow.
mod solver_names {
    use autograd::differentiable;

    /// r(x, root) = x² − root.
    #[differentiable]
    pub fn residual_of_root(x: f64, root: f64) -> f64 {
        x * x - root
    }

    #[differentiable(implicit = residual_of_root)]
    pub fn root(root: f64) -> f64 {
        root.sqrt()
    }
}

#[no_implicit_prelude]
mod solver_without_prelude {
    use ::autograd::differentiable;

    #[differentiable]
    pub fn cube_residual(x: f64, c: f64) -> f64 {
        x * x * x - c
    }

    #[differentiable(implicit = cube_residual)]
    pub fn cube_root(c: f64) -> ::core::result::Result<f64, ::autograd::solve::SolveError> {
        ::autograd::solve::bisect(|x| cube_residual(x, c), 0.0, 10.0, 1e-14)
    }
}

#[test]
fn solver_argument_named_like_the_solver() {
    // d√c/dc = 1/(2√c).
    let (value, d) = solver_names::root_grad(4.0);
    assert_eq!(value, 2.0);
    assert!((d - 0.25).abs() < 1e-15);
}

#[test]
fn solver_in_a_module_without_the_prelude() {
    // d∛c/dc = 1/(3c^(2/3)) = 1/12 at c = 8; the root is found to 1e-14.
    let (value, d) = solver_without_prelude::cube_root_grad(8.0).unwrap();
    assert!((value - 2.0).abs() < 1e-13);
    assert!((d - 1.0 / 12.0).abs() < 1e-12);
}
