//! What keeps `NAME_jvp` lean: a constant operand contributes no tangent
//! term (the operation's tangent is the sum of its operands' pullbacks at
//! their tangents, and a constant's is zero), and a slice's tangent is
//! checked once against the slice's length, with a message.

use autograd::differentiable;

#[differentiable(jvp)]
fn affine(x: f64, v: &[f64], #[constant] k: f64) -> f64 {
    let mut s = k * x + x / k - (1.0 - x);
    for e in v {
        s += 2.0 * e - e / k;
    }
    s
}

#[test]
fn constant_operands_give_the_closed_form_tangent() {
    let (x, v, k) = (0.3, [1.0, -2.0, 0.5], 4.0);
    let (value, tangent) = affine_jvp(x, &v, k, 1.0, &[0.5, 0.25, -1.0]);
    assert_eq!(value.to_bits(), affine(x, &v, k).to_bits());
    // d/dx = k + 1/k + 1; d/dv_i = 2 − 1/k, along (0.5, 0.25, −1).
    let want = (k + 1.0 / k + 1.0) + (2.0 - 1.0 / k) * (0.5 + 0.25 - 1.0);
    assert!(
        (tangent - want).abs() <= 1e-15 * want.abs(),
        "{tangent} vs {want}"
    );
}

#[test]
#[should_panic(expected = "autograd: a tangent of `_jvp` has 2 elements, its argument 3")]
fn a_short_slice_tangent_is_a_clear_panic() {
    let _ = affine_jvp(0.3, &[1.0, -2.0, 0.5], 4.0, 1.0, &[0.5, 0.25]);
}

#[test]
#[should_panic(expected = "autograd: a tangent of `_jvp` has 4 elements, its argument 3")]
fn a_long_slice_tangent_is_a_clear_panic() {
    let _ = affine_jvp(0.3, &[1.0, -2.0, 0.5], 4.0, 1.0, &[0.5, 0.25, 1.0, 2.0]);
}
