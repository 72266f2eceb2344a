//! Reference derivatives for the integration tests: five-point central
//! differences of the primal, written here rather than taken from the
//! runtime, so no expected value comes from the code under test.
//!
//! Stencil: `(8(f(x+h) - f(x-h)) - (f(x+2h) - f(x-2h))) / 12h`, truncation
//! error `h⁴·|f⁽⁵⁾|/30`.
//!
//! - `f64`: `h = 10⁻³·max(1, |x|)`. Truncation ≈ 3·10⁻¹⁴·|f⁽⁵⁾|, rounding
//!   ≈ 1.5·ε·|f|/h ≈ 2·10⁻¹³·|f|; the tests allow [`FD64_ABS`] absolute or
//!   [`FD64_REL`] relative.
//! - `f32`: `h = 2⁻⁶·max(1, |x|)`, rounded down to a power of two so that
//!   at the dyadic points the tests use, `x ± h` and `x ± 2h` are exact in
//!   `f32`. Rounding dominates: ≈ 1.5·2⁻²⁴·|f|/h ≈ 6·10⁻⁶·|f|; the tests
//!   allow [`FD32_ABS`] absolute or [`FD32_REL`] relative.
#![allow(dead_code)]

/// Tolerances of an adjoint against its closed form (`f64`, `f32`).
pub const CF64_ABS: f64 = 1e-13;
pub const CF64_REL: f64 = 1e-12;
pub const CF32_ABS: f64 = 1e-6;
pub const CF32_REL: f64 = 1e-5;

/// Points on the whole line, away from 0.
pub const LINE64: &[f64] = &[-2.5, -1.3, -0.4, 0.3, 0.9, 1.7, 3.2];
/// Positive points (for ln, sqrt and their kin).
pub const POS64: &[f64] = &[0.2, 0.4, 1.0, 2.5, 7.0, 30.0];
/// Dyadic points (exact `x ± h`, `x ± 2h` in `f32`), away from 0.
pub const LINE32: &[f32] = &[-2.5, -1.25, -0.375, 0.25, 0.875, 1.75, 3.125];
/// Positive dyadic points.
pub const POS32: &[f32] = &[0.25, 0.375, 1.0, 2.5, 7.0, 30.0];

/// Absolute tolerance of an `f64` adjoint against [`fd64`].
pub const FD64_ABS: f64 = 1e-9;
/// Relative tolerance of an `f64` adjoint against [`fd64`].
pub const FD64_REL: f64 = 1e-8;
/// Absolute tolerance of an `f32` adjoint against [`fd32`].
pub const FD32_ABS: f64 = 2e-4;
/// Relative tolerance of an `f32` adjoint against [`fd32`].
pub const FD32_REL: f64 = 1e-3;

/// Five-point central difference of an `f64` function at `x`.
pub fn fd64(f: impl Fn(f64) -> f64, x: f64) -> f64 {
    let h = 1e-3 * x.abs().max(1.0);
    let d1 = f(x + h) - f(x - h);
    let d2 = f(x + 2.0 * h) - f(x - 2.0 * h);
    (8.0 * d1 - d2) / (12.0 * h)
}

/// Five-point central difference of an `f32` function at `x`, evaluated
/// in `f32` and combined in `f64`.
pub fn fd32(f: impl Fn(f32) -> f32, x: f32) -> f64 {
    let scale = x.abs().max(1.0);
    // The largest power of two not above scale / 64.
    let h = 2f32.powi((scale / 64.0).log2().floor() as i32);
    let at = |k: f32| f64::from(f(x + k * h));
    let d1 = at(1.0) - at(-1.0);
    let d2 = at(2.0) - at(-2.0);
    (8.0 * d1 - d2) / (12.0 * f64::from(h))
}

/// Partial derivatives of a two-argument `f64` function by [`fd64`].
pub fn fd64_2(f: impl Fn(f64, f64) -> f64, x: f64, y: f64) -> (f64, f64) {
    (fd64(|t| f(t, y), x), fd64(|t| f(x, t), y))
}

/// Partial derivatives of a two-argument `f32` function by [`fd32`].
pub fn fd32_2(f: impl Fn(f32, f32) -> f32, x: f32, y: f32) -> (f64, f64) {
    (fd32(|t| f(t, y), x), fd32(|t| f(x, t), y))
}

/// [`fd64`] in each component of `x`: the gradient of a function of a
/// slice by central differences.
pub fn fd64_slice(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            fd64(
                |xi| {
                    let mut w = x.to_vec();
                    w[i] = xi;
                    f(&w)
                },
                x[i],
            )
        })
        .collect()
}

/// Asserts that an `f64` adjoint agrees with its [`fd64`] reference, to
/// [`FD64_ABS`] absolute or [`FD64_REL`] relative.
pub fn assert_fd64_close(what: &str, got: f64, want: f64) {
    let err = (got - want).abs();
    assert!(
        err <= FD64_ABS || err <= FD64_REL * want.abs(),
        "{what}: {got} against central differences {want}"
    );
}

/// [`assert_fd64_close`] for each component, and equal lengths.
pub fn assert_all_fd64_close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert_fd64_close(&format!("{what}[{i}]"), *g, *w);
    }
}

/// Three-point central difference `(f(x + h) − f(x − h)) / 2h`, for tests
/// that state their own step.
pub fn central(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x - h)) / (2.0 * h)
}

/// [`central`] in each component of `x`.
pub fn central_slice(f: impl Fn(&[f64]) -> f64, x: &[f64], h: f64) -> Vec<f64> {
    (0..x.len())
        .map(|i| {
            let (mut up, mut down) = (x.to_vec(), x.to_vec());
            up[i] += h;
            down[i] -= h;
            (f(&up) - f(&down)) / (2.0 * h)
        })
        .collect()
}
