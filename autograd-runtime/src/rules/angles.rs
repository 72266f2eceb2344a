//! Angle conversions `to_radians` and `to_degrees`: linear, each a
//! multiplication by a constant factor, so the pullback (and the tangent)
//! is the same conversion applied to the adjoint, reading nothing.

use super::Real;

macro_rules! constant_factor {
    ($($name:ident, $grad:ident, $tangent:ident: $what:literal;)*) => {$(
        #[doc = $what]
        #[inline(always)]
        pub fn $name<T: Real>(x: T) -> T {
            x.$name()
        }
        #[doc = concat!("d/dx `", stringify!($name), "` is its constant factor: the adjoint converted as `x` is; reads nothing.")]
        #[inline(always)]
        pub fn $grad<T: Real>(grad: T) -> T {
            grad.$name()
        }
        #[doc = concat!("ẏ = the factor·ẋ: [`", stringify!($grad), "`] at seed ẋ.")]
        #[inline(always)]
        pub fn $tangent<T: Real>(dx: T) -> T {
            $grad(dx)
        }
    )*};
}

constant_factor! {
    to_radians, to_radians_grad, to_radians_tangent: "Degrees to radians: `x·π/180`.";
    to_degrees, to_degrees_grad, to_degrees_tangent: "Radians to degrees: `x·180/π`.";
}
