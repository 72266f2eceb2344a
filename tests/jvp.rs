//! Forward mode, `#[differentiable(jvp)]`: `NAME_jvp(args.., tangents..)
//! -> (value, output_tangent)`.
//!
//! Every case checks three things:
//!
//! - the value is bit for bit the primal's;
//! - the tangent against central differences of the primal along the same
//!   direction (`fd_support`'s five-point stencil, tolerances `FD64_ABS` /
//!   `FD64_REL`, for `f32` `FD32_ABS` / `FD32_REL`);
//! - the dot-product identity ⟨u, J·v⟩ = ⟨Jᵀ·u, v⟩ against `NAME_vjp` at a
//!   few pseudo-random directions `u`, `v`: both sides are the same
//!   derivative summed in different orders, so they agree to
//!   `epsilon = 1e-12`, `max_relative = 1e-12`.

mod fd_support;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::solve::{SolveError, bisect};
use fd_support::{FD32_ABS, FD32_REL, FD64_ABS, FD64_REL, fd32, fd64};
use nalgebra::{DMatrix, DVector};

/// Tolerances of the dot-product identity.
const DOT_ABS: f64 = 1e-12;
const DOT_REL: f64 = 1e-12;

/// Pseudo-random directions in [-1, 1) (xorshift), the same every run.
struct Directions(u64);

impl Directions {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 52) as f64 - 1.0
    }
    fn vec(&mut self, n: usize) -> Vec<f64> {
        (0..n).map(|_| self.next()).collect()
    }
    fn matrix(&mut self, r: usize, c: usize) -> DMatrix<f64> {
        DMatrix::from_fn(r, c, |_, _| self.next())
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

// ---------------------------------------------------------------------------
// Scalar code.

#[differentiable(jvp)]
fn scalar(x: f64, y: f64) -> f64 {
    let z = x * y + (x / y).sin();
    let w = z.exp() - y.powi(3) + x.powf(y);
    w / (1.0 + x * x)
}

#[test]
fn scalar_code() {
    let mut dirs = Directions(7);
    for &(x, y) in &[(0.3, 1.2), (1.1, 0.7), (2.4, 2.0)] {
        for _ in 0..3 {
            let (dx, dy) = (dirs.next(), dirs.next());
            let (value, tangent) = scalar_jvp(x, y, dx, dy);
            assert_eq!(value.to_bits(), scalar(x, y).to_bits());
            let fd = fd64(|t| scalar(x + t * dx, y + t * dy), 0.0);
            assert_relative_eq!(tangent, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
            // ⟨u, J·v⟩ = ⟨Jᵀ·u, v⟩.
            let u = dirs.next();
            let (_, pullback) = scalar_vjp(x, y);
            let (gx, gy) = pullback(u);
            assert_relative_eq!(
                u * tangent,
                gx * dx + gy * dy,
                epsilon = DOT_ABS,
                max_relative = DOT_REL
            );
        }
    }
}

/// A scalar function of slices and a matrix, checked against differences
/// along (dx, dv, dm) and against its VJP.
fn check_direction(
    value: f64,
    primal: f64,
    tangent: f64,
    along: impl Fn(f64) -> f64,
    adjoint_dot_direction: f64,
    u: f64,
) {
    assert_eq!(value.to_bits(), primal.to_bits(), "value");
    let fd = fd64(along, 0.0);
    assert_relative_eq!(tangent, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
    assert_relative_eq!(
        u * tangent,
        adjoint_dot_direction,
        epsilon = DOT_ABS,
        max_relative = DOT_REL
    );
}

// ---------------------------------------------------------------------------
// Loops with data-dependent trip counts, nested, `while`, `#[checkpoint]`.

#[differentiable(jvp)]
fn loops(x: f64, a: f64, n: usize) -> f64 {
    let mut s = x;
    for i in 0..n {
        let mut t = s;
        for _ in 0..i % 3 {
            t = t.sin() + a;
        }
        s = 0.5 * s + 0.25 * t * a;
    }
    // Halve until below the threshold: the trip count depends on x.
    let mut h = s * s + x;
    while h > 0.1 {
        h = h * 0.5 + a * 0.01;
    }
    let mut e = h;
    #[checkpoint]
    for _ in 0..n {
        e = e + 0.1 * (e * a).cos();
    }
    e + s
}

#[test]
fn loops_with_data_dependent_trip_counts() {
    let mut dirs = Directions(11);
    for &(x, a, n) in &[
        (0.7, 0.3, 5usize),
        (2.5, -0.6, 9),
        (0.05, 1.2, 0),
        (9.0, 0.8, 3),
    ] {
        for _ in 0..3 {
            let (dx, da, u) = (dirs.next(), dirs.next(), dirs.next());
            let (value, tangent) = loops_jvp(x, a, n, dx, da);
            let (_, pullback) = loops_vjp(x, a, n);
            let (gx, ga) = pullback(u);
            check_direction(
                value,
                loops(x, a, n),
                tangent,
                |t| loops(x + t * dx, a + t * da, n),
                gx * dx + ga * da,
                u,
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Branches, `if` expressions, `stop_gradient`, `#[constant]`.

#[differentiable(jvp)]
fn branches(x: f64, y: f64, #[constant] k: f64) -> f64 {
    let mut z = x * k;
    if x > y {
        z *= y;
    } else if x < 0.0 {
        z = -z + autograd::stop_gradient(y * y);
    }
    let w = if z > 1.0 { z.ln() } else { z * y };
    let frozen = autograd::stop_gradient(x.exp());
    w + frozen * y
}

#[test]
fn branches_and_if_expressions() {
    let mut dirs = Directions(13);
    for &(x, y) in &[(2.0, 1.5), (0.3, 0.9), (-0.5, 0.2), (1.2, 4.0)] {
        for _ in 0..3 {
            let (dx, dy, u) = (dirs.next(), dirs.next(), dirs.next());
            let (value, tangent) = branches_jvp(x, y, 1.7, dx, dy);
            let (_, pullback) = branches_vjp(x, y, 1.7);
            let (gx, gy) = pullback(u);
            // stop_gradient: the reference treats the frozen values as
            // constants at the point.
            let (fx, sy) = (x.exp(), y * y);
            let frozen = |t: f64| {
                let (x, y) = (x + t * dx, y + t * dy);
                let mut z = x * 1.7;
                if x > y {
                    z *= y;
                } else if x < 0.0 {
                    z = -z + sy;
                }
                let w = if z > 1.0 { z.ln() } else { z * y };
                w + fx * y
            };
            check_direction(
                value,
                branches(x, y, 1.7),
                tangent,
                frozen,
                gx * dx + gy * dy,
                u,
            );
        }
    }
}

// ---------------------------------------------------------------------------
// Slices.

#[differentiable(jvp)]
fn slices(x: &[f64], w: &[f64], scale: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += w[i] * (x[i] * scale).tanh();
    }
    s / x.len() as f64
}

#[test]
fn slices_of_floats() {
    let mut dirs = Directions(17);
    let x = dirs.vec(6);
    let w = dirs.vec(6);
    for _ in 0..3 {
        let (dx, dw, ds, u) = (dirs.vec(6), dirs.vec(6), dirs.next(), dirs.next());
        let (value, tangent) = slices_jvp(&x, &w, 0.8, &dx, &dw, ds);
        let (_, pullback) = slices_vjp(&x, &w, 0.8);
        let (gx, gw, gs) = pullback(u);
        let along = |t: f64| {
            let xt: Vec<f64> = x.iter().zip(&dx).map(|(a, b)| a + t * b).collect();
            let wt: Vec<f64> = w.iter().zip(&dw).map(|(a, b)| a + t * b).collect();
            slices(&xt, &wt, 0.8 + t * ds)
        };
        let adjoint = dot(&gx, &dx) + dot(&gw, &dw) + gs * ds;
        check_direction(value, slices(&x, &w, 0.8), tangent, along, adjoint, u);
    }
}

// ---------------------------------------------------------------------------
// Products of a value by a multiple of itself (`100.0 * b * b`): the
// tangent is computed as `2·(k·b)·ḃ`, which equals the product rule's
// `(k·ḃ)·b + (k·b)·ḃ` up to rounding.

#[differentiable(jvp)]
fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}

/// Every operand order, a constant argument and an inactive local as the
/// factor, and a multiple also read elsewhere (its own tangent needed).
#[differentiable(jvp)]
fn multiples(x: f64, y: f64, #[constant] k: f64, n: usize) -> f64 {
    let m = n as f64 + 0.5;
    let kx = k * x;
    let xm = x * m;
    let y3 = y * 3.0;
    let z = kx * x + x * xm + y * y3 + (2.0 * y) * y;
    z + kx.sin() + (y * k) * y
}

#[test]
fn multiples_of_a_value_times_the_value() {
    let mut dirs = Directions(29);
    let x = dirs.vec(7);
    for _ in 0..3 {
        let (dx, u) = (dirs.vec(7), dirs.next());
        let (value, tangent) = rosenbrock_jvp(&x, &dx);
        let (_, pullback) = rosenbrock_vjp(&x);
        let (gx,) = pullback(u);
        let along = |t: f64| {
            let xt: Vec<f64> = x.iter().zip(&dx).map(|(a, b)| a + t * b).collect();
            rosenbrock(&xt)
        };
        check_direction(value, rosenbrock(&x), tangent, along, dot(&gx, &dx), u);
    }
    // The closed form: ∂/∂xᵢ of (1 − xᵢ)² + 100·(xᵢ₊₁ − xᵢ²)², summed.
    let mut e = vec![0.0; 7];
    e[3] = 1.0;
    let (_, t) = rosenbrock_jvp(&x, &e);
    let g =
        -2.0 * (1.0 - x[3]) - 400.0 * x[3] * (x[4] - x[3] * x[3]) + 200.0 * (x[3] - x[2] * x[2]);
    assert_relative_eq!(t, g, epsilon = 1e-12, max_relative = 1e-13);
    for &(x, y, k, n) in &[(0.3, -1.2, 4.0, 2), (1.7, 0.4, -0.5, 0)] {
        let (dx, dy, u) = (dirs.next(), dirs.next(), dirs.next());
        let (value, tangent) = multiples_jvp(x, y, k, n, dx, dy);
        let (_, pullback) = multiples_vjp(x, y, k, n);
        let (gx, gy) = pullback(u);
        let along = |t: f64| multiples(x + t * dx, y + t * dy, k, n);
        check_direction(
            value,
            multiples(x, y, k, n),
            tangent,
            along,
            gx * dx + gy * dy,
            u,
        );
        // d/dx = 2kx + 2mx + k·cos(kx), d/dy = 6y + 4y + 2ky.
        let m = n as f64 + 0.5;
        let closed = (2.0 * k * x + 2.0 * m * x + k * (k * x).cos()) * dx
            + (6.0 * y + 4.0 * y + 2.0 * k * y) * dy;
        assert_relative_eq!(tangent, closed, epsilon = 1e-12, max_relative = 1e-12);
    }
}

// ---------------------------------------------------------------------------
// Matrices: a dense layer, element-wise maps, reductions.

#[differentiable(jvp)]
fn dense(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
    let h = (w * x + b).map(|v| v.tanh());
    let r = h.map(f64::exp);
    let y = h.component_mul(&r);
    y.sum() + h.max() + h.transpose().sum() * 0.5
}

#[test]
fn dense_layer() {
    let mut dirs = Directions(19);
    let (w, x, b) = (
        dirs.matrix(3, 4),
        DVector::from_vec(dirs.vec(4)),
        DVector::from_vec(dirs.vec(3)),
    );
    for _ in 0..3 {
        let (dw, dx, db) = (
            dirs.matrix(3, 4),
            DVector::from_vec(dirs.vec(4)),
            DVector::from_vec(dirs.vec(3)),
        );
        let u = dirs.next();
        let (value, tangent) = dense_jvp(&w, &x, &b, &dw, &dx, &db);
        let (_, pullback) = dense_vjp(&w, &x, &b);
        let (gw, gx, gb) = pullback(u);
        let along = |t: f64| dense(&(&w + t * &dw), &(&x + t * &dx), &(&b + t * &db));
        let adjoint = gw.dot(&dw) + gx.dot(&dx) + gb.dot(&db);
        check_direction(value, dense(&w, &x, &b), tangent, along, adjoint, u);
    }
}

/// A matrix result: the tangent is a matrix.
#[differentiable(jvp)]
fn layer(w: DMatrix<f64>, x: &DMatrix<f64>) -> DMatrix<f64> {
    let z = w * x;
    z.map(|v| v * v.sin()) - x.transpose() * 0.5
}

#[test]
fn matrix_result() {
    let mut dirs = Directions(23);
    let (w, x) = (dirs.matrix(3, 3), dirs.matrix(3, 3));
    let (dw, dx, u) = (dirs.matrix(3, 3), dirs.matrix(3, 3), dirs.matrix(3, 3));
    let (value, tangent) = layer_jvp(w.clone(), &x, &dw, &dx);
    assert_eq!(value, layer(w.clone(), &x));
    for i in 0..3 {
        for j in 0..3 {
            let fd = fd64(|t| layer(&w + t * &dw, &(&x + t * &dx))[(i, j)], 0.0);
            assert_relative_eq!(
                tangent[(i, j)],
                fd,
                epsilon = FD64_ABS,
                max_relative = FD64_REL
            );
        }
    }
    let (_, pullback) = layer_vjp(w.clone(), &x);
    let (gw, gx) = pullback(u.clone());
    assert_relative_eq!(
        u.dot(&tangent),
        gw.dot(&dw) + gx.dot(&dx),
        epsilon = DOT_ABS,
        max_relative = DOT_REL
    );
}

// ---------------------------------------------------------------------------
// Calls, `f32`.

#[differentiable(jvp)]
fn inner(x: f64, #[constant] c: f64, v: &[f64]) -> f64 {
    x * c + v[0] * x.cos()
}

#[differentiable(jvp)]
fn outer(x: f64, y: f64, v: &[f64]) -> f64 {
    let a = inner(x, 0.7, v);
    let b = inner(y * 2.0, 3.0, v);
    let c = inner(1.5, -2.0, v);
    a * b + c.exp() + a.sin()
}

#[test]
fn calls_of_other_jvp_functions() {
    let mut dirs = Directions(29);
    let v = dirs.vec(3);
    for &(x, y) in &[(0.4, 1.3), (-1.1, 0.2)] {
        for _ in 0..3 {
            let (dx, dy, dv, u) = (dirs.next(), dirs.next(), dirs.vec(3), dirs.next());
            let (value, tangent) = outer_jvp(x, y, &v, dx, dy, &dv);
            let (_, pullback) = outer_vjp(x, y, &v);
            let (gx, gy, gv) = pullback(u);
            let along = |t: f64| {
                let vt: Vec<f64> = v.iter().zip(&dv).map(|(a, b)| a + t * b).collect();
                outer(x + t * dx, y + t * dy, &vt)
            };
            let adjoint = gx * dx + gy * dy + dot(&gv, &dv);
            check_direction(value, outer(x, y, &v), tangent, along, adjoint, u);
        }
    }
}

#[differentiable(jvp)]
fn single(x: f32, y: f32) -> f32 {
    let mut s = x;
    for _ in 0..3 {
        s = s * y + x.sqrt();
    }
    s.ln()
}

#[test]
fn f32_functions() {
    for &(x, y) in &[(0.75f32, 1.25f32), (2.5, 0.5)] {
        for &(dx, dy) in &[(1.0f32, 0.0f32), (0.0, 1.0), (0.5, -0.25)] {
            let (value, tangent) = single_jvp(x, y, dx, dy);
            assert_eq!(value.to_bits(), single(x, y).to_bits());
            let fd = fd32(|t| single(x + t * dx, y + t * dy), 0.0);
            assert_relative_eq!(
                f64::from(tangent),
                fd,
                epsilon = FD32_ABS,
                max_relative = FD32_REL
            );
        }
    }
}

// ---------------------------------------------------------------------------
// The implicit hook: √c by bisection.

#[differentiable(jvp)]
fn residual(x: f64, c: f64) -> f64 {
    x * x - c
}

#[differentiable(jvp, implicit = residual)]
fn sqrt_by_bisection(c: f64) -> Result<f64, SolveError> {
    bisect(|x| residual(x, c), 0.0, c.max(1.0), 1e-14)
}

#[differentiable(jvp, implicit = residual)]
fn sqrt_plain(c: f64) -> f64 {
    bisect(|x| residual(x, c), 0.0, c.max(1.0), 1e-15).unwrap_or(f64::NAN)
}

#[test]
fn implicit_hook_square_root() {
    for &c in &[0.25, 2.0, 10.0] {
        let (x, dx) = sqrt_by_bisection_jvp(c, 0.5).unwrap();
        assert_eq!(x.to_bits(), sqrt_by_bisection(c).unwrap().to_bits());
        // d√c = dc/(2√c), at the solver's tolerance.
        assert_relative_eq!(
            dx,
            0.5 / (2.0 * c.sqrt()),
            epsilon = 1e-10,
            max_relative = 1e-10
        );
        let (x, dx) = sqrt_plain_jvp(c, 1.0);
        assert_eq!(x.to_bits(), sqrt_plain(c).to_bits());
        assert_relative_eq!(
            dx,
            1.0 / (2.0 * c.sqrt()),
            epsilon = 1e-10,
            max_relative = 1e-10
        );
    }
    // At c = 0 the root is 0 and ∂r/∂x = 2x = 0: no derivative.
    assert!(matches!(
        sqrt_by_bisection_jvp(0.0, 1.0),
        Err(SolveError::SingularDerivative { .. })
    ));
    assert!(sqrt_plain_jvp(0.0, 1.0).1.is_nan());
}

// ---------------------------------------------------------------------------
// A custom rule: `backward = rule, jvp = rule`.

/// softplus(x)·y, by a formula the rules would differentiate less stably.
#[differentiable(backward = softplus_backward, jvp = softplus_tangent)]
fn softplus_scaled(x: f64, y: f64) -> f64 {
    (1.0 + x.exp()).ln() * y
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn softplus_backward(grad: f64, x: f64, y: f64, out: f64) -> (f64, f64) {
    (grad * sigmoid(x) * y, grad * out / y)
}

/// `fn(args.., tangents.., output) -> output_tangent`.
fn softplus_tangent(x: f64, y: f64, dx: f64, dy: f64, out: f64) -> f64 {
    sigmoid(x) * y * dx + out / y * dy
}

#[differentiable(jvp)]
fn uses_softplus(x: f64) -> f64 {
    softplus_scaled(x, x * x) + x
}

#[test]
fn custom_tangent_rule() {
    for &x in &[-1.5, 0.2, 3.0] {
        let (value, tangent) = uses_softplus_jvp(x, 1.0);
        assert_eq!(value.to_bits(), uses_softplus(x).to_bits());
        let fd = fd64(uses_softplus, x);
        assert_relative_eq!(tangent, fd, epsilon = FD64_ABS, max_relative = FD64_REL);
        let (_, grad) = uses_softplus_grad(x);
        assert_relative_eq!(tangent, grad, epsilon = DOT_ABS, max_relative = DOT_REL);
    }
}

// ---------------------------------------------------------------------------
// Shapes and mixed scalar–matrix operators.

/// (A·B)ᵀ through tanh, divided element-wise by a reshape of C, scaled by
/// s and divided by it, negated.
#[differentiable(jvp)]
fn shapes(a: &DMatrix<f64>, b: &DMatrix<f64>, c: DMatrix<f64>, s: f64) -> f64 {
    let t = (a * b).transpose().map(|v| v.tanh());
    let d = c.reshape_generic(nalgebra::Dyn(4), nalgebra::Dyn(2));
    let e = t.component_div(&d) * s;
    let f = -(e / (s * s + 1.0));
    f.map(f64::sin).sum() + f.max()
}

#[test]
fn shapes_and_scalar_matrix_operators() {
    let mut dirs = Directions(31);
    let (a, b) = (dirs.matrix(2, 3), dirs.matrix(3, 4));
    // c away from zero: it divides.
    let c = dirs.matrix(2, 4).map(|v| 1.5 + 0.5 * v);
    for &s in &[0.7, -1.3] {
        let (da, db, dc, ds, u) = (
            dirs.matrix(2, 3),
            dirs.matrix(3, 4),
            dirs.matrix(2, 4),
            dirs.next(),
            dirs.next(),
        );
        let (value, tangent) = shapes_jvp(&a, &b, c.clone(), s, &da, &db, &dc, ds);
        let (_, pullback) = shapes_vjp(&a, &b, c.clone(), s);
        let (ga, gb, gc, gs) = pullback(u);
        let along = |t: f64| shapes(&(&a + t * &da), &(&b + t * &db), &c + t * &dc, s + t * ds);
        let adjoint = ga.dot(&da) + gb.dot(&db) + gc.dot(&dc) + gs * ds;
        check_direction(
            value,
            shapes(&a, &b, c.clone(), s),
            tangent,
            along,
            adjoint,
            u,
        );
    }
}
