//! Every float method of the rule table through `#[differentiable(jvp)]`:
//! in method form `x.f()`, path form `f64::f(x)`, on a call's result (the
//! dispatched rule) and element-wise on a matrix (`m.map(f64::f)`, a
//! closure of the method, a compiled closure). Each tangent is checked
//! against central differences of the primal (`fd_support`'s `FD64_*`),
//! against the gradient by the dot-product identity (a scalar input:
//! J·v = v·∇f; tolerances `1e-12` absolute and relative, the same
//! derivative summed in another order), and the value bit for bit against
//! the primal's.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::prelude::*;
use fd_support::{FD64_ABS, FD64_REL, LINE64, POS64, fd64};
use nalgebra::DMatrix;

const DOT_ABS: f64 = 1e-12;
const DOT_REL: f64 = 1e-12;
/// Away from the jumps of the piecewise functions (integers and halves).
const STEPS64: &[f64] = &[-2.3, -0.7, 0.4, 1.6, 3.2];
const UNIT64: &[f64] = &[-0.9, -0.5, 0.1, 0.6, 0.8];

#[differentiable(jvp)]
fn identity(x: f64) -> f64 {
    x
}

/// The direction of every tangent.
const V: f64 = 0.75;

macro_rules! unary_method {
    ($name:ident: $method:ident, at = $at:expr) => {
        mod $name {
            use super::*;

            #[differentiable(jvp)]
            fn method(x: f64) -> f64 {
                x.$method() * x
            }
            #[differentiable(jvp)]
            fn path(x: f64) -> f64 {
                f64::$method(x)
            }
            #[differentiable(jvp)]
            fn dispatched(x: f64) -> f64 {
                identity(x).$method()
            }
            #[differentiable(jvp)]
            fn map_path(m: &DMatrix<f64>) -> f64 {
                m.map(f64::$method).sum()
            }
            #[differentiable(jvp)]
            fn map_closure(m: DMatrix<f64>) -> f64 {
                let y = m.map(|v| v.$method());
                y.sum()
            }
            #[differentiable(jvp)]
            fn map_compiled(m: &DMatrix<f64>) -> f64 {
                m.map(|v| 2.0 * v.$method() + v).sum()
            }

            #[test]
            fn scalar_forms() {
                let forms: [(
                    fn(f64) -> f64,
                    fn(f64, f64) -> (f64, f64),
                    fn(f64) -> (f64, f64),
                ); 3] = [
                    (method, method_jvp, method_grad),
                    (path, path_jvp, path_grad),
                    (dispatched, dispatched_jvp, dispatched_grad),
                ];
                for &x in $at {
                    for (primal, jvp, grad) in forms {
                        let (y, t) = jvp(x, V);
                        assert_eq!(y.to_bits(), primal(x).to_bits(), "value at {x}");
                        let fd = fd64(|s| primal(x + s * V), 0.0);
                        assert_relative_eq!(t, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
                        let (_, g) = grad(x);
                        assert_relative_eq!(t, g * V, epsilon = DOT_ABS, max_relative = DOT_REL);
                    }
                }
            }

            #[test]
            fn element_wise_on_a_matrix() {
                let points: &[f64] = $at;
                let m = DMatrix::from_row_slice(1, points.len(), points);
                let dm = DMatrix::from_fn(1, points.len(), |_, j| 0.5 - 0.25 * j as f64);
                let (y, t) = map_path_jvp(&m, &dm);
                assert_eq!(y.to_bits(), map_path(&m).to_bits());
                let fd = fd64(|s| map_path(&(&m + s * &dm)), 0.0);
                assert_relative_eq!(t, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
                let (_, g) = map_path_grad(&m);
                assert_relative_eq!(t, g.dot(&dm), epsilon = DOT_ABS, max_relative = DOT_REL);

                let (y, t) = map_closure_jvp(m.clone(), &dm);
                assert_eq!(y.to_bits(), map_closure(m.clone()).to_bits());
                let fd = fd64(|s| map_closure(&m + s * &dm), 0.0);
                assert_relative_eq!(t, fd, epsilon = FD64_ABS, max_relative = FD64_REL);

                let (y, t) = map_compiled_jvp(&m, &dm);
                assert_eq!(y.to_bits(), map_compiled(&m).to_bits());
                let (_, g) = map_compiled_grad(&m);
                assert_relative_eq!(t, g.dot(&dm), epsilon = DOT_ABS, max_relative = DOT_REL);
            }
        }
    };
}

unary_method!(exp: exp, at = LINE64);
unary_method!(ln: ln, at = POS64);
unary_method!(sqrt: sqrt, at = POS64);
unary_method!(sin: sin, at = LINE64);
unary_method!(cos: cos, at = LINE64);
unary_method!(tanh: tanh, at = LINE64);
unary_method!(abs: abs, at = LINE64);
unary_method!(relu: relu, at = LINE64);
unary_method!(sigmoid: sigmoid, at = LINE64);
unary_method!(exp2: exp2, at = LINE64);
unary_method!(exp_m1: exp_m1, at = LINE64);
unary_method!(ln_1p: ln_1p, at = &[-0.7, -0.2, 0.3, 1.5, 9.0]);
unary_method!(log2: log2, at = POS64);
unary_method!(log10: log10, at = POS64);
unary_method!(cbrt: cbrt, at = LINE64);
unary_method!(recip: recip, at = LINE64);
unary_method!(tan: tan, at = &[-1.2, -0.4, 0.3, 0.9, 1.3]);
unary_method!(asin: asin, at = UNIT64);
unary_method!(acos: acos, at = UNIT64);
unary_method!(atan: atan, at = LINE64);
unary_method!(sinh: sinh, at = LINE64);
unary_method!(cosh: cosh, at = LINE64);
unary_method!(asinh: asinh, at = LINE64);
unary_method!(acosh: acosh, at = &[1.2, 1.5, 2.5, 7.0, 30.0]);
unary_method!(atanh: atanh, at = UNIT64);
unary_method!(signum: signum, at = STEPS64);
unary_method!(floor: floor, at = STEPS64);
unary_method!(ceil: ceil, at = STEPS64);
unary_method!(round: round, at = STEPS64);
unary_method!(trunc: trunc, at = STEPS64);
unary_method!(fract: fract, at = STEPS64);

/// The methods of two or three operands (and `sin_cos`), in method, path
/// and dispatched forms, each argument moving along its own direction.
#[differentiable(jvp)]
fn several(x: f64, y: f64) -> f64 {
    let (s, c) = x.sin_cos();
    let a = x.powi(3) + x.powf(y) + x.max(y) + f64::min(x, y) + x.log(y + 2.0);
    let b = x.hypot(y) + f64::atan2(y, x) + x.clamp(y - 1.0, y + 1.0) + x.mul_add(y, s);
    let d = identity(x).powf(identity(y))
        + identity(x).atan2(y)
        + identity(y).clamp(0.0, x)
        + identity(x).mul_add(identity(y), c);
    a * b + d
}

#[test]
fn methods_of_several_operands() {
    for &(x, y) in &[(0.7, 1.3), (2.1, 0.4), (1.5, 1.9)] {
        for &(dx, dy) in &[(1.0, 0.0), (0.0, 1.0), (0.6, -0.8)] {
            let (value, t) = several_jvp(x, y, dx, dy);
            assert_eq!(value.to_bits(), several(x, y).to_bits());
            let fd = fd64(|s| several(x + s * dx, y + s * dy), 0.0);
            assert_relative_eq!(t, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
            let (_, gx, gy) = several_grad(x, y);
            assert_relative_eq!(
                t,
                gx * dx + gy * dy,
                epsilon = DOT_ABS,
                max_relative = DOT_REL
            );
        }
    }
}
