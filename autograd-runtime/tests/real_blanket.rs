//! `Real` reaches every `num_traits::Float` through one blanket impl: its
//! constants and conversions at `f32` and `f64` are the standard ones.

use autograd_runtime::rules::Real;

#[test]
fn constants_are_the_standard_ones_at_f32_and_f64() {
    assert_eq!(<f64 as Real>::ln_2(), core::f64::consts::LN_2);
    assert_eq!(<f64 as Real>::ln_10(), core::f64::consts::LN_10);
    assert_eq!(<f32 as Real>::ln_2(), core::f32::consts::LN_2);
    assert_eq!(<f32 as Real>::ln_10(), core::f32::consts::LN_10);
    assert_eq!(<f64 as Real>::epsilon(), f64::EPSILON);
    assert_eq!(<f32 as Real>::epsilon(), f32::EPSILON);
    assert_eq!(<f32 as Real>::two(), 2.0);
    assert_eq!(<f64 as Real>::zero(), 0.0);
    assert_eq!(<f64 as Real>::one(), 1.0);
}

#[test]
fn conversions_round_like_as() {
    let x = 0.1_f64;
    assert_eq!(<f32 as Real>::from_f64(x), x as f32);
    assert_eq!(<f32 as Real>::from_f64(f64::MAX), f64::MAX as f32);
    assert!(<f32 as Real>::from_f64(f64::NAN).is_nan());
    assert_eq!(<f32 as Real>::from_i32(16_777_217), 16_777_217_i32 as f32);
    assert_eq!(Real::to_f64(0.1_f32), 0.1_f32 as f64);
}
