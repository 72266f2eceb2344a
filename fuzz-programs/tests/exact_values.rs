//! The harness holds `NAME_grad`'s value to the primal's bit for bit, which
//! only means something if the build evaluates every float call at run
//! time: an optimized build lets LLVM evaluate a call whose argument it
//! sees as a constant at compile time, with another algorithm than the C
//! library (for `f32`, in `f64` rounded once more), and whether it can
//! depends on inlining and loop peeling, which differ between a function
//! and its generated code (finding 011). The programs are therefore
//! compiled at `opt-level = 0` (`[profile.test.package.fuzz-programs]` in
//! the workspace's `Cargo.toml`); these tests fail if that stops holding.

#![allow(unused_variables, unused_mut, unused_assignments, clippy::all)]

use std::hint::black_box;

use autograd::differentiable;
use autograd::prelude::*;

/// An argument at which `f32::tanh` evaluated by LLVM (in `f64`, rounded
/// to `f32`: `0x3ed6429d`) and by glibc's `tanhf` (`0x3ed6429c`) differ:
/// `sin(tanh(0.5))`, the first `a0.tanh()` of `f239` below.
const TANH_DIFFERS_AT: u32 = 0x3ee445b1;

#[test]
fn a_float_call_gives_the_same_value_with_a_constant_argument() {
    // The same closure at the same argument: a constant the optimizer can
    // see, and one it cannot.
    let tanh = |x: f32| x.tanh();
    let x = f32::from_bits(TANH_DIFFERS_AT);
    assert_eq!(tanh(x).to_bits(), tanh(black_box(x)).to_bits());
    // `powi` folded goes through `pow`, at run time it is a chain of
    // products: 0.1⁷ differs in f64 by 3 ulps.
    let seventh = |x: f64| x.powi(7);
    assert_eq!(seventh(0.1).to_bits(), seventh(black_box(0.1)).to_bits());
}

// Finding 011's programs (seed 0x6bafc86fbd1e560b, chunk of 500, f378),
// as generated: at opt-level 1 `f239`'s primal, inlined into its caller,
// had its loop peeled and the first `a0.tanh()` folded (0x3ed6429d), and
// `f239`'s generated code kept the loop and called `tanhf` (0x3ed6429c), so
// `f239_grad`'s value was one ulp from `f239`'s, and `f378_grad`'s two
// from `f378`'s.

#[differentiable]
fn f201(a0: f32, a1: f32, a2: f32) -> f32 {
    let mut v0: f32 = 1.0;
    for i0 in 0..3 {
        v0 += a0 + a2 * -3.0;
    }
    if a1 + v0.tanh() < -0.125 {
        let mut a2: f32 = -a2;
    }
    f32::tanh(v0)
}

#[differentiable]
fn f239(a1: f32, n: usize, a0: f32, a2: f32) -> f32 {
    let mut a0 = f32::tanh(0.5).sin();
    for i0 in 1..=2 {
        a0 += (a1 + a0.tanh()).tanh();
        let v0 = (1.5 + a2.sin().tanh()).ln();
        if a0.tanh() >= a0.sigmoid().sin() {
            a0 = a0.max(f32::cos(a0.tanh()) * a1.max(a0.sigmoid()));
            return a2.relu();
        }
        a0 *= v0;
    }
    if a1 / (f32::powi(a2, 2) + 0.5) <= 3.0 {
        let v1 = (a0 * a2).sigmoid().exp().cbrt();
    }
    f32::sqrt(
        (0.5 + a1.tanh().exp().powf(a2.sin()).sigmoid()).powi(-2)
            * (0.5 + a1.tanh().exp().powf(a2.sin()).sigmoid()).powi(-2)
            + 2.0,
    ) + a0
}

#[differentiable]
fn f378(a0: f32, a1: f32) -> f32 {
    let mut v0 = a0.powi(4);
    #[checkpoint]
    for _ in 0..4 {
        v0 /= 2.0 + a0 * f32::tanh(v0) * (a0 * f32::tanh(v0));
        v0 = (1.0 + (f32::min(a0, a0).abs() + 0.25)).acosh();
        let mut v1 = f201(
            (v0.tanh().exp().ln() + a0).sin(),
            a1,
            (a1 * a1 + 0.5 + -0.5).ln_1p(),
        );
        #[cfg(any())]
        {
            v0 = 1e300;
        }
    }
    let v2 = f239((a0 * a0).cos(), 2, (v0 + a1).cos(), (v0.cos() + a1).cos());
    v0 = v0 * 0.5 + v0.powi(0) * v0.min(a1);
    return v2.sin().cos() - v0;
}

#[test]
fn finding_011_values_are_the_primals_bit_for_bit() {
    // The failing point of the fuzz run, opaque to the optimizer as the
    // harness's arguments are.
    let (a0, a1) = (black_box(-1.5_f32), black_box(0.0_f32));
    let value = f378(a0, a1);
    assert_eq!(f378_grad(a0, a1).0.to_bits(), value.to_bits());
    assert_eq!(f378_vjp(a0, a1).0.to_bits(), value.to_bits());
    let (mut d0, mut d1) = (0.0, 0.0);
    assert_eq!(
        f378_grad_acc(a0, a1, &mut d0, &mut d1).to_bits(),
        value.to_bits()
    );

    // The arguments f378 passes to f239 there.
    let [b1, b0, b2] =
        [0xbf20cffd_u32, 0xbdcaabd6, 0x3f7ebf5c].map(|b| black_box(f32::from_bits(b)));
    let value = f239(b1, 2, b0, b2);
    assert_eq!(f239_grad(b1, 2, b0, b2).0.to_bits(), value.to_bits());
    assert_eq!(f239_vjp(b1, 2, b0, b2).0.to_bits(), value.to_bits());
}
