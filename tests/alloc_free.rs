//! Straight-line scalar code compiles to straight-line adjoint code with
//! no heap allocation: a counting global allocator watches `NAME_grad`
//! (and `NAME_vjp` with its pullback) of functions of 20+ operations.
//!
//! The counter is thread-local, so allocations of the test harness's other
//! threads (and of other tests of this binary running in parallel) are not
//! seen; only the window around the call is measured, after a warm-up
//! call. Inputs go through `black_box` so nothing is folded at compile
//! time.

use std::hint::black_box;

use autograd::differentiable;
use autograd::prelude::*;

mod alloc_support;
use alloc_support::allocations_during;

/// h(a, b) = a·b + sin a: a callee, so calls are measured too.
#[differentiable(jvp)]
fn h(a: f64, b: f64) -> f64 {
    a * b + a.sin()
}

/// 30+ operations: every scalar method, arithmetic, unary minus, a
/// constant argument, stop_gradient and a call.
#[differentiable(jvp)]
fn long_chain(x: f64, y: f64, z: f64, #[constant] k: f64) -> f64 {
    let a = x * y + z; // 2
    let b = a.exp() / (1.0 + y * y); // 5
    let c = (b + 1.0).ln() - x.sqrt(); // 9
    let d = c.powi(3) + z.powf(0.5) * k; // 13
    let e = d.sin() * a.cos() - (x - z).tanh(); // 19
    let f = e.abs() + (-y).relu() + (x * z).sigmoid(); // 25
    let g = f.max(a) - b.min(c); // 28
    let s = autograd::stop_gradient(g * 0.5); // 30
    let u = h(g, s) + x / y; // 33
    -(u * u) + g * k // 37
}

/// The same operations in `f32`.
#[differentiable]
fn long_chain_f32(x: f32, y: f32, z: f32) -> f32 {
    let a = x * y + z;
    let b = a.exp() / (1.0 + y * y);
    let c = (b + 1.0).ln() - x.sqrt();
    let d = c.powi(3) + z.powf(0.5);
    let e = d.sin() * a.cos() - (x - z).tanh();
    let f = e.abs() + (-y).relu() + (x * z).sigmoid();
    let g = f.max(a) - b.min(c);
    g * g + x / y
}

#[test]
fn the_counter_sees_allocations() {
    let (v, n) = allocations_during(|| black_box(vec![1.0_f64; 16]));
    assert_eq!(v.len(), 16);
    assert!(n >= 1, "the counting allocator saw {n} allocations");
}

#[test]
fn grad_of_a_long_straight_line_function_does_not_allocate() {
    let args = (0.7, 1.3, 0.4, 2.0);
    // Warm up: anything lazily initialized happens outside the window.
    let warm = long_chain_grad(args.0, args.1, args.2, args.3);
    let (out, n) = allocations_during(|| {
        let (x, y, z, k) = black_box(args);
        black_box(long_chain_grad(x, y, z, k))
    });
    assert_eq!(n, 0, "long_chain_grad allocated {n} times");
    assert_eq!(out, warm);
    assert_eq!(
        out.0.to_bits(),
        long_chain(args.0, args.1, args.2, args.3).to_bits()
    );
}

#[test]
fn jvp_does_not_allocate() {
    let args = (0.7, 1.3, 0.4, 2.0);
    let tangents = (0.5, -1.0, 0.25);
    let _ = long_chain_jvp(args.0, args.1, args.2, args.3, 1.0, 1.0, 1.0);
    let ((value, tangent), n) = allocations_during(|| {
        let (x, y, z, k) = black_box(args);
        let (dx, dy, dz) = black_box(tangents);
        black_box(long_chain_jvp(x, y, z, k, dx, dy, dz))
    });
    assert_eq!(n, 0, "long_chain_jvp allocated {n} times");
    assert_eq!(
        value.to_bits(),
        long_chain(args.0, args.1, args.2, args.3).to_bits()
    );
    // The same derivative as the gradient's, summed in another order.
    let (_, gx, gy, gz) = long_chain_grad(args.0, args.1, args.2, args.3);
    let along = gx * tangents.0 + gy * tangents.1 + gz * tangents.2;
    assert!(
        (tangent - along).abs() <= 1e-12 * along.abs().max(1.0),
        "{tangent} vs {along}"
    );
}

#[test]
fn vjp_and_pullback_do_not_allocate() {
    let args = (0.7, 1.3, 0.4, 2.0);
    let _ = long_chain_vjp(args.0, args.1, args.2, args.3).1(1.0);
    let (out, n) = allocations_during(|| {
        let (x, y, z, k) = black_box(args);
        let (value, pullback) = long_chain_vjp(x, y, z, k);
        let pullback = black_box(pullback);
        (value, pullback(black_box(-2.0)))
    });
    assert_eq!(n, 0, "long_chain_vjp and its pullback allocated {n} times");
    // The pullback is linear in the seed.
    let (_, dx, dy, dz) = long_chain_grad(args.0, args.1, args.2, args.3);
    assert_eq!(out.1, (-2.0 * dx, -2.0 * dy, -2.0 * dz));
}

#[test]
fn f32_grad_does_not_allocate() {
    let args = (0.75_f32, 1.25_f32, 0.5_f32);
    let _ = long_chain_f32_grad(args.0, args.1, args.2);
    let (_, n) = allocations_during(|| {
        let (x, y, z) = black_box(args);
        black_box(long_chain_f32_grad(x, y, z))
    });
    assert_eq!(n, 0, "long_chain_f32_grad allocated {n} times");
}

#[test]
fn many_calls_do_not_allocate() {
    let _ = long_chain_grad(0.5, 1.5, 0.25, 1.0);
    let (sum, n) = allocations_during(|| {
        let mut sum = 0.0;
        for i in 0..1000 {
            let t = f64::from(i) * 1e-3;
            let (v, dx, dy, dz) = long_chain_grad(black_box(0.5 + t), 1.5, 0.25, 1.0);
            sum += v + dx + dy + dz;
        }
        sum
    });
    assert_eq!(n, 0, "1000 calls of long_chain_grad allocated {n} times");
    assert!(sum.is_finite());
}

/// A process whose methods a free function calls each step.
#[derive(Clone, Debug, autograd::Tangent)]
struct Gbm {
    mu: f64,
    sigma: f64,
}

#[differentiable]
impl Gbm {
    fn drift(&self, x: f64) -> f64 {
        self.mu * x
    }

    fn diffusion(&self, x: f64) -> f64 {
        self.sigma * x
    }
}

/// An Euler–Maruyama path calling the process's methods each step.
#[allow(clippy::needless_range_loop)]
#[differentiable]
fn path_of(process: &Gbm, x0: f64, dt: f64, dw: &[f64]) -> f64 {
    let mut x = x0;
    for i in 0..dw.len() {
        x = x + process.drift(x) * dt + process.diffusion(x) * dw[i];
    }
    x
}

#[test]
fn struct_method_calls_in_a_loop_allocate_per_call_not_per_step() {
    // Each call of a method passed the struct whole hands its caller the
    // struct's adjoint as a row of fields; the rows come from the pool, so
    // the gradient allocates as much at 200 steps as at 5.
    let process = Gbm {
        mu: 0.05,
        sigma: 0.2,
    };
    let count = |steps: usize| {
        let dw: Vec<f64> = (0..steps).map(|i| 0.1 * (0.37 * i as f64).sin()).collect();
        let call = || path_of_grad(black_box(&process), 100.0, 0.01, black_box(&dw));
        drop(black_box(call()));
        let (r, n) = allocations_during(|| black_box(call()));
        drop(r);
        n
    };
    assert_eq!(count(200), count(5));
}
