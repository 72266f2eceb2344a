//! Calls between functions taking `Tangent` structs: a struct passed on
//! whole to a function in another module, by a path whatever its
//! spelling.
//!
//! Expected derivatives are five-point central differences of the primal
//! at every differentiable field (`fd_support::fd64`, tolerance
//! `FD64_ABS` absolute or `FD64_REL` relative).

mod fd_support;

use autograd::{Tangent, differentiable};
use fd_support::{assert_fd64_close, fd64};

#[derive(Clone, Debug, Tangent)]
struct Line {
    slope: f64,
    offset: f64,
    #[constant]
    label: String,
}

mod shapes {
    use super::Line;
    use autograd::differentiable;

    #[differentiable]
    pub fn value(l: &Line, x: f64) -> f64 {
        l.slope * x + l.offset
    }
}

/// A module whose name starts with a capital: a call `Geometry::f(..)` is
/// a function in a module, not an associated function, since no struct of
/// type `Geometry` is passed to it.
#[allow(non_snake_case)]
mod Geometry {
    use super::Line;
    use autograd::differentiable;

    #[differentiable]
    pub fn squared(l: &Line, x: f64) -> f64 {
        let v = l.slope * x + l.offset;
        v * v
    }
}

#[differentiable]
fn through_paths(l: &Line, x: f64) -> f64 {
    shapes::value(l, x).sin() + Geometry::squared(l, x) * crate::shapes::value(l, 0.5)
}

fn line() -> Line {
    Line {
        slope: 0.7,
        offset: -0.3,
        label: "l".into(),
    }
}

#[test]
fn struct_passed_on_whole_by_module_paths() {
    let l = line();
    let x = 1.3;
    let (value, dl, dx) = through_paths_grad(&l, x);
    assert_eq!(value, through_paths(&l, x));
    let slope = fd64(
        |v| {
            let q = Line {
                slope: v,
                ..l.clone()
            };
            through_paths(&q, x)
        },
        l.slope,
    );
    assert_fd64_close("slope", dl.slope, slope);
    let offset = fd64(
        |v| {
            let q = Line {
                offset: v,
                ..l.clone()
            };
            through_paths(&q, x)
        },
        l.offset,
    );
    assert_fd64_close("offset", dl.offset, offset);
    assert_fd64_close("x", dx, fd64(|v| through_paths(&l, v), x));
    assert_eq!(dl.label, "l");
}
