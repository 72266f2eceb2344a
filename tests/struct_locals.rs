//! A struct built in the body from its fields (`let mut s = State { x, v
//! };`), read and written by field, assigned anew (`s = State { .. }`,
//! `..s`), in loops and branches, under `_grad`, `_jvp` and `_hessian`.
//!
//! Expected derivatives: closed forms (1e-12 relative) and central
//! differences of the plain function (step 1e-6, tolerance 1e-6 relative
//! to the larger of the derivative and 1).

#![allow(clippy::needless_range_loop)]

mod fd_support;

use autograd::differentiable;
use num_traits::Float;

/// A particle's state in phase space.
#[derive(Clone, Copy, Debug)]
struct State {
    x: f64,
    v: f64,
}

/// A Duffing oscillator stepped by velocity Verlet, its state a struct
/// rebuilt each step from the new position and velocity.
#[differentiable]
fn verlet(x0: f64, v0: f64, k: f64, #[constant] dt: f64, steps: usize) -> f64 {
    let accel = |x: f64| -k * x - 0.1 * x * x * x;
    let mut s = State { x: x0, v: v0 };
    let mut a = accel(s.x);
    debug_assert!(s.x.is_finite() && s.v.is_finite(), "a finite start");
    for _ in 0..steps {
        let x = s.x + s.v * dt + 0.5 * a * dt * dt;
        let a_next = accel(x);
        let v = s.v + 0.5 * (a + a_next) * dt;
        s = State { x, v };
        a = a_next;
    }
    s.x + 0.1 * s.v
}

/// A model's working state with a `Vec` and an integer field.
struct Work {
    total: f64,
    weights: Vec<f64>,
    count: usize,
    scale: f64,
}

/// Every way of writing a field: `=`, `+=`, `*=`, an element of a `Vec`
/// field, the struct assigned with `..` and branches choosing.
#[differentiable]
fn accumulate(x: &[f64], r: f64) -> f64 {
    let mut w = Work {
        total: 0.0,
        weights: vec![1.0; x.len()],
        count: 0,
        scale: r,
    };
    for i in 0..x.len() {
        w.weights[i] = w.scale * x[i];
        if x[i] > 0.0 {
            w.total += w.weights[i] * x[i];
            w.count += 1;
        } else {
            w.total -= w.weights[i];
        }
        w.scale *= 0.9;
    }
    w = Work {
        total: w.total / (w.count as f64 + 1.0),
        ..w
    };
    w.total + w.scale * w.weights[0]
}

/// A point of the plane as a generic struct, under `jvp` and `hessian`.
#[derive(Clone, Copy)]
struct Point<T> {
    x: T,
    y: T,
}

#[differentiable(jvp, hessian)]
fn rotated_norm<T: Float>(a: T, b: T, theta: T) -> T {
    let p = Point { x: a, y: b };
    let (s, c) = theta.sin_cos();
    let q = Point {
        x: c * p.x - s * p.y,
        y: s * p.x + c * p.y,
    };
    q.x * q.x * q.y + p.y
}

fn assert_close(what: &str, got: f64, want: f64) {
    let tol = 1e-6 * got.abs().max(want.abs()).max(1.0);
    assert!((got - want).abs() <= tol, "{what}: {got} vs {want}");
}

#[test]
fn a_state_struct_rebuilt_each_step_matches_central_differences() {
    for p in [[1.0, 0.0, 2.0], [0.3, -0.8, 0.7]] {
        let (v, dx, dv, dk) = verlet_grad(p[0], p[1], p[2], 0.05, 40);
        assert_eq!(v, verlet(p[0], p[1], p[2], 0.05, 40));
        let fd = fd_support::central_slice(|q| verlet(q[0], q[1], q[2], 0.05, 40), &p, 1e-6);
        for (got, want) in [dx, dv, dk].iter().zip(&fd) {
            assert_close("verlet", *got, *want);
        }
    }
    // No step: the value is x0 + 0.1 v0.
    let (_, dx, dv, dk) = verlet_grad(0.4, 0.2, 1.0, 0.05, 0);
    assert_eq!((dx, dv, dk), (1.0, 0.1, 0.0));
}

#[test]
fn every_field_write_matches_central_differences() {
    let x = [0.5, -1.2, 2.0, 0.3, -0.4];
    let r = 1.7;
    let (v, dx, dr) = accumulate_grad(&x, r);
    assert_eq!(v, accumulate(&x, r));
    let mut all = x.to_vec();
    all.push(r);
    let fd = fd_support::central_slice(|p| accumulate(&p[..5], p[5]), &all, 1e-6);
    for (i, want) in fd.iter().enumerate() {
        let got = if i < 5 { dx[i] } else { dr };
        assert_close(&format!("input {i}"), got, *want);
    }
}

#[test]
fn a_generic_struct_in_every_mode_has_the_closed_form() {
    let (a, b, t) = (0.8, -0.3, 0.6);
    // q = R(t) p; f = qx² qy + b. With u = c a − s b, w = s a + c b:
    // ∂f/∂a = 2 u c w + u² s, ∂f/∂b = −2 u s w + u² c + 1,
    // ∂f/∂t = 2 u (−w) w + u² u = u³ − 2 u w².
    let (s, c) = t.sin_cos();
    let (u, w) = (c * a - s * b, s * a + c * b);
    let want = [
        2.0 * u * c * w + u * u * s,
        -2.0 * u * s * w + u * u * c + 1.0,
        u * u * u - 2.0 * u * w * w,
    ];
    let close = |got: f64, want: f64| (got - want).abs() <= 1e-12 * want.abs().max(1.0);
    let (v, da, db, dt) = rotated_norm_grad(a, b, t);
    assert_eq!(v, rotated_norm(a, b, t));
    for (got, want) in [da, db, dt].into_iter().zip(want) {
        assert!(close(got, want), "{got} vs {want}");
    }
    let (_, tangent) = rotated_norm_jvp(a, b, t, 1.0, -2.0, 0.5);
    assert!(
        close(tangent, want[0] - 2.0 * want[1] + 0.5 * want[2]),
        "{tangent}"
    );
    let (_, g, h) = rotated_norm_hessian(a, b, t);
    for k in 0..3 {
        assert!(close(g[k], want[k]), "g[{k}]");
    }
    let fd = fd_support::central_slice(|p| rotated_norm_grad(p[0], p[1], p[2]).1, &[a, b, t], 1e-6);
    for (j, want) in fd.iter().enumerate() {
        assert_close(&format!("h[0, {j}]"), h[(0, j)], *want);
    }
    assert!(close(h[(1, 0)], h[(0, 1)]), "{h}");
}

/// An initial state given as a `Tangent` struct, copied into the local the
/// loop rebuilds: `let mut s = start;` (by value) or `let mut s = *start;`
/// (by reference), as the fields it is built from.
#[derive(Clone, Copy, Debug, autograd::Tangent)]
struct Start {
    x: f64,
    v: f64,
}

#[differentiable]
fn spring_energy(start: Start, k: f64, #[constant] dt: f64, steps: usize) -> f64 {
    let mut s = start;
    let mut energy = 0.0;
    for _ in 0..steps {
        let v = s.v - k * s.x * dt;
        let x = s.x + v * dt;
        s = Start { x, v };
        energy += (0.5 * k * s.x * s.x + 0.5 * s.v * s.v) * dt;
    }
    energy
}

#[differentiable]
fn spring_energy_by_ref(start: &Start, k: f64, #[constant] dt: f64, steps: usize) -> f64 {
    let mut s = *start;
    for _ in 0..steps {
        s = Start {
            x: s.x + s.v * dt,
            ..s
        };
        s.v -= k * s.x * dt;
    }
    s.x * s.x + s.v
}

#[test]
fn a_struct_argument_copied_into_a_local_matches_central_differences() {
    let (start, k) = (Start { x: 1.0, v: -0.3 }, 2.5);
    let (v, ds, dk) = spring_energy_grad(start, k, 0.01, 200);
    assert_eq!(v, spring_energy(start, k, 0.01, 200));
    let at = |x: f64, v: f64, k: f64| spring_energy(Start { x, v }, k, 0.01, 200);
    let fd = fd_support::central_slice(|p| at(p[0], p[1], p[2]), &[1.0, -0.3, k], 1e-6);
    for (got, want) in [ds.x, ds.v, dk].iter().zip(&fd) {
        assert_close("spring_energy", *got, *want);
    }
    let (v, ds, dk) = spring_energy_by_ref_grad(&start, k, 0.05, 30);
    assert_eq!(v, spring_energy_by_ref(&start, k, 0.05, 30));
    let at = |x: f64, v: f64, k: f64| spring_energy_by_ref(&Start { x, v }, k, 0.05, 30);
    let fd = fd_support::central_slice(|p| at(p[0], p[1], p[2]), &[1.0, -0.3, k], 1e-6);
    for (got, want) in [ds.x, ds.v, dk].iter().zip(&fd) {
        assert_close("spring_energy_by_ref", *got, *want);
    }
}

/// An interval, a second struct a local is rebuilt as.
#[derive(Clone, Copy)]
struct Interval {
    lo: f64,
    hi: f64,
}

/// A struct local shadowed by `let` (issue 35: rejected with a message
/// describing the very form written): the new `s` reads the old one's
/// fields; a shadow in a block ends with it; a shadow may be of another
/// struct, and `mut`.
#[differentiable]
fn shadowed(a: f64, b: f64, steps: usize) -> f64 {
    let s = State { x: a, v: b };
    let s = State {
        x: s.v,
        v: s.x * 2.0,
    };
    let inner = {
        let s = State {
            x: s.x * s.v,
            v: s.x.sin(),
        };
        s.x + s.v
    };
    let mut s = State {
        x: s.x + inner,
        v: s.v,
    };
    for _ in 0..steps {
        s.x = s.x * 0.5 + s.v * 0.25;
    }
    let s = Interval {
        lo: s.x.min(s.v),
        hi: s.x.max(s.v) + inner,
    };
    s.hi * s.hi - s.lo
}

#[test]
fn a_shadowed_struct_local_matches_central_differences() {
    for p in [[1.5, 2.0], [-0.7, 0.4], [0.3, -1.1]] {
        let (v, da, db) = shadowed_grad(p[0], p[1], 3);
        assert_eq!(v.to_bits(), shadowed(p[0], p[1], 3).to_bits());
        let fd = fd_support::central_slice(|q| shadowed(q[0], q[1], 3), &p, 1e-6);
        for (got, want) in [da, db].iter().zip(&fd) {
            approx::assert_relative_eq!(*got, *want, epsilon = 1e-6, max_relative = 1e-6);
        }
    }
    // No step, a = 1.5, b = 2: the second `s` is (b, 2a) = (2, 3); inner =
    // 2ab + sin b = 6 + sin 2; the third `s` is (b + inner, 2a); the
    // interval is lo = 2a = 3, hi = b + 2·inner = 14 + 2 sin 2. So the value
    // is hi² − lo, ∂hi/∂a = 4b = 8, ∂hi/∂b = 1 + 2(2a + cos b), ∂lo/∂a = 2.
    let (v, da, db) = shadowed_grad(1.5, 2.0, 0);
    let hi = 14.0 + 2.0 * 2f64.sin();
    approx::assert_relative_eq!(v, hi * hi - 3.0, epsilon = 1e-12, max_relative = 1e-12);
    let (dhi_da, dhi_db) = (8.0, 1.0 + 2.0 * (3.0 + 2f64.cos()));
    approx::assert_relative_eq!(
        da,
        2.0 * hi * dhi_da - 2.0,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    approx::assert_relative_eq!(db, 2.0 * hi * dhi_db, epsilon = 1e-12, max_relative = 1e-12);
}

/// A shadowing `let` that updates the struct before it with `..s`
/// (`let s = State { v: .., ..s };`, as the random programs write it; it
/// was rejected as a struct used whole), then a `mut` shadow written by
/// field in a loop: s = (a, b) → (a, a·b) → x ← x/2 + v/4 per step.
#[differentiable]
fn shadowed_by_update(a: f64, b: f64, steps: usize) -> f64 {
    let s = State { x: a, v: b };
    let s = State { v: s.x * s.v, ..s };
    let mut s = State { x: s.x.tanh(), ..s };
    for _ in 0..steps {
        s.x = 0.5 * s.x + 0.25 * s.v;
    }
    s.x * s.v
}

#[test]
fn a_struct_local_shadowed_by_its_own_update() {
    // No step: tanh(a)·a·b: ∂a = b·(a·sech²a + tanh a), ∂b = a·tanh a.
    let (a, b) = (0.7, -1.3);
    let (v, da, db) = shadowed_by_update_grad(a, b, 0);
    let sech2 = 1.0 - a.tanh().powi(2);
    approx::assert_relative_eq!(v, a.tanh() * a * b, epsilon = 1e-12, max_relative = 1e-12);
    approx::assert_relative_eq!(
        da,
        b * (a * sech2 + a.tanh()),
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    approx::assert_relative_eq!(db, a * a.tanh(), epsilon = 1e-12, max_relative = 1e-12);
    for p in [[0.7, -1.3], [-0.4, 2.1]] {
        let (v, da, db) = shadowed_by_update_grad(p[0], p[1], 4);
        assert_eq!(v.to_bits(), shadowed_by_update(p[0], p[1], 4).to_bits());
        let fd = fd_support::central_slice(|q| shadowed_by_update(q[0], q[1], 4), &p, 1e-6);
        for (got, want) in [da, db].iter().zip(&fd) {
            approx::assert_relative_eq!(*got, *want, epsilon = 1e-6, max_relative = 1e-6);
        }
    }
}

/// A struct local whose name a float held before it (the records rewrite
/// took only a name every binding of which built a struct, so this was
/// "field access is supported on .."): lowered where it stands, each `s`
/// the binding it names. f = sin(ab) + (b·sin(ab))².
#[differentiable]
fn rebinds_a_float_name(a: f64, b: f64) -> f64 {
    let s = a * b;
    let mut s = State { x: s.sin(), v: b };
    s.v *= s.x;
    s.x + s.v * s.v
}

#[test]
fn a_struct_local_rebinding_a_float_name_has_the_closed_form() {
    for (a, b) in [(0.7, -1.3), (1.9, 0.4)] {
        let (value, da, db) = rebinds_a_float_name_grad(a, b);
        assert_eq!(value.to_bits(), rebinds_a_float_name(a, b).to_bits());
        let (u, c) = ((a * b).sin(), (a * b).cos());
        // ∂/∂a = c·b·(1 + 2b²u), ∂/∂b = c·a + 2b·u² + 2b²·u·c·a.
        let want_a = c * b * (1.0 + 2.0 * b * b * u);
        let want_b = c * a + 2.0 * b * u * u + 2.0 * b * b * u * c * a;
        approx::assert_relative_eq!(da, want_a, epsilon = 1e-12, max_relative = 1e-12);
        approx::assert_relative_eq!(db, want_b, epsilon = 1e-12, max_relative = 1e-12);
    }
}

/// A struct local named as an argument it reads (`fn f(s: f64, ..) { let
/// s = State { x: s * b, v: s }; .. }`, rejected as the previous one was),
/// under `jvp` and `hessian`: f = s·exp(s·b).
#[differentiable(jvp, hessian)]
fn named_as_its_argument(s: f64, b: f64) -> f64 {
    let s = State { x: s * b, v: s };
    s.x.exp() * s.v
}

#[test]
fn a_struct_local_named_as_an_argument_has_the_closed_form() {
    let (s, b) = (0.6_f64, -0.9_f64);
    let e = (s * b).exp();
    let grad = [e * (1.0 + s * b), s * s * e];
    // ∂²/∂s² = e·b·(2 + sb), ∂²/∂s∂b = e·s·(2 + sb), ∂²/∂b² = s³·e.
    let hess = [
        [e * b * (2.0 + s * b), e * s * (2.0 + s * b)],
        [e * s * (2.0 + s * b), s * s * s * e],
    ];
    let (value, ds, db) = named_as_its_argument_grad(s, b);
    assert_eq!(value.to_bits(), named_as_its_argument(s, b).to_bits());
    approx::assert_relative_eq!(ds, grad[0], epsilon = 1e-12, max_relative = 1e-12);
    approx::assert_relative_eq!(db, grad[1], epsilon = 1e-12, max_relative = 1e-12);
    let (_, tangent) = named_as_its_argument_jvp(s, b, 0.5, -2.0);
    let want = 0.5 * grad[0] - 2.0 * grad[1];
    approx::assert_relative_eq!(tangent, want, epsilon = 1e-12, max_relative = 1e-12);
    let (_, g, h) = named_as_its_argument_hessian(s, b);
    for i in 0..2 {
        approx::assert_relative_eq!(g[i], grad[i], epsilon = 1e-12, max_relative = 1e-12);
        for j in 0..2 {
            approx::assert_relative_eq!(
                h[(i, j)],
                hess[i][j],
                epsilon = 1e-12,
                max_relative = 1e-12
            );
        }
    }
}

/// A struct local shadowed under `#[cfg]`: where the predicate does not
/// hold, the shadow is not there (the records rewrite dropped the
/// attribute, so the derivative was of `State { x: 100.0 * s.x, ..s }`
/// whatever the configuration, and the value not the function's). The
/// function is f = a·(a·b) = a²b.
#[differentiable]
fn shadowed_under_cfg(a: f64, b: f64) -> f64 {
    let s = State { x: a, v: b };
    #[cfg(any())]
    let s = State {
        x: 100.0 * s.x,
        ..s
    };
    #[cfg(not(any()))]
    let s = State { v: s.v * s.x, ..s };
    s.x * s.v
}

#[test]
fn a_struct_local_shadowed_under_cfg_has_the_closed_form() {
    let (a, b) = (1.3, -0.7);
    let (value, da, db) = shadowed_under_cfg_grad(a, b);
    assert_eq!(value.to_bits(), shadowed_under_cfg(a, b).to_bits());
    approx::assert_relative_eq!(da, 2.0 * a * b, epsilon = 1e-12, max_relative = 1e-12);
    approx::assert_relative_eq!(db, a * a, epsilon = 1e-12, max_relative = 1e-12);
}

/// A model's buffers as fields.
struct Buffers {
    w: Vec<f64>,
    acc: f64,
}

/// A `Vec` field read as a collection every way (its length, iterated by
/// `for` and by a chain, a sub-slice, pushed to, two elements swapped, an
/// element updated), each lowered on the field's own variable. With w =
/// (a, b, ab) pushed: acc = a + b + ab, then w = (b, a, ab + acc), and the
/// value is Σw + w₁·w₂ + acc·len = 2(a + b + ab) + a(2ab + a + b) + 3(a + b + ab).
#[differentiable]
fn vec_field_as_collection(a: f64, b: f64) -> f64 {
    let mut s = Buffers {
        w: vec![a, b],
        acc: 0.0,
    };
    s.w.push(a * b);
    for v in s.w.iter() {
        s.acc += *v;
    }
    s.w.swap(0, 1);
    s.w[2] += s.acc;
    let total: f64 = s.w.iter().sum();
    let tail = &s.w[1..];
    total + tail[0] * tail[1] + s.acc * s.w.len() as f64
}

#[test]
fn a_vec_field_read_as_a_collection_has_the_closed_form() {
    for (a, b) in [(0.7, -1.3), (1.5, 0.25)] {
        let (value, da, db) = vec_field_as_collection_grad(a, b);
        assert_eq!(value.to_bits(), vec_field_as_collection(a, b).to_bits());
        // f = 5(a + b + ab) + a(2ab + a + b).
        let want = 5.0 * (a + b + a * b) + a * (2.0 * a * b + a + b);
        approx::assert_relative_eq!(value, want, epsilon = 1e-12, max_relative = 1e-12);
        let want_a = 5.0 * (1.0 + b) + (2.0 * a * b + a + b) + a * (2.0 * b + 1.0);
        let want_b = 5.0 * (1.0 + a) + a * (2.0 * a + 1.0);
        approx::assert_relative_eq!(da, want_a, epsilon = 1e-12, max_relative = 1e-12);
        approx::assert_relative_eq!(db, want_b, epsilon = 1e-12, max_relative = 1e-12);
    }
}

/// Fields assigned by destructuring, `(s.x, s.v) = (s.v, s.x * a)`, in a
/// loop, and a struct local built in a `match` arm. With two steps from
/// (a, b): (b, a²) then (a², ab); the arm for `k = 1` gives x·v = a³b.
#[differentiable]
fn destructured_into_fields(a: f64, b: f64, k: usize) -> f64 {
    let mut s = State { x: a, v: b };
    for _ in 0..2 {
        (s.x, s.v) = (s.v, s.x * a);
    }
    match k {
        0 => s.x,
        _ => {
            let p = State {
                x: s.x * s.v,
                v: 0.0,
            };
            p.x + p.v
        }
    }
}

#[test]
fn fields_assigned_by_destructuring_have_the_closed_form() {
    let (a, b) = (0.8, -1.7);
    let (value, da, db) = destructured_into_fields_grad(a, b, 1);
    assert_eq!(value.to_bits(), destructured_into_fields(a, b, 1).to_bits());
    approx::assert_relative_eq!(da, 3.0 * a * a * b, epsilon = 1e-12, max_relative = 1e-12);
    approx::assert_relative_eq!(db, a * a * a, epsilon = 1e-12, max_relative = 1e-12);
    let (_, da, db) = destructured_into_fields_grad(a, b, 0);
    approx::assert_relative_eq!(da, 2.0 * a, epsilon = 1e-12, max_relative = 1e-12);
    assert_eq!(db, 0.0);
}

/// `std::mem::swap` of two fields, in a loop: (a, b) → (ab, a) → (a², ab)
/// after two steps, so x·v = a³b.
#[differentiable]
fn fields_swapped(a: f64, b: f64) -> f64 {
    let mut s = State { x: a, v: b };
    for _ in 0..2 {
        std::mem::swap(&mut s.x, &mut s.v);
        s.x *= a;
    }
    s.x * s.v
}

#[test]
fn fields_swapped_by_mem_swap_have_the_closed_form() {
    let (a, b) = (1.2, -0.6);
    let (value, da, db) = fields_swapped_grad(a, b);
    assert_eq!(value.to_bits(), fields_swapped(a, b).to_bits());
    approx::assert_relative_eq!(da, 3.0 * a * a * b, epsilon = 1e-12, max_relative = 1e-12);
    approx::assert_relative_eq!(db, a * a * a, epsilon = 1e-12, max_relative = 1e-12);
}

/// A model struct built in the body from the arguments, its
/// `#[differentiable]` methods called on it (the struct declared in this
/// file, every field an `f64`): one with the attribute alone, and those of
/// an annotated `jvp` block.
#[derive(Clone, Debug, autograd::Tangent)]
struct Gbm {
    mu: f64,
    sigma: f64,
}

impl Gbm {
    #[differentiable]
    fn drift(&self, dt: f64) -> f64 {
        (self.mu - 0.5 * self.sigma * self.sigma) * dt
    }
}

#[derive(Clone, Debug, autograd::Tangent)]
struct Vasicek {
    kappa: f64,
    theta: f64,
}

#[differentiable(jvp)]
impl Vasicek {
    fn mean(&self, r0: f64, t: f64) -> f64 {
        self.theta + (r0 - self.theta) * (-self.kappa * t).exp()
    }
}

#[differentiable]
fn gbm_path(mu: f64, sigma: f64, s0: f64, #[constant] z: &[f64]) -> f64 {
    let model = Gbm { mu, sigma };
    let mut s = s0;
    for &zi in z {
        s *= (model.drift(0.25) + model.sigma * 0.5 * zi).exp();
    }
    s
}

#[differentiable(jvp)]
fn vasicek_path(kappa: f64, theta: f64, r0: f64) -> f64 {
    let mut m = Vasicek { kappa, theta };
    let first = m.mean(r0, 1.0);
    // A field written after a call: the next call sees the new value.
    m.theta *= 1.1;
    first + m.mean(first, 0.5)
}

#[test]
fn methods_called_on_a_struct_built_in_the_body_have_the_central_differences_gradient() {
    let z = [0.3, -1.1, 0.7, 0.2];
    let (mu, sigma, s0) = (0.05, 0.2, 100.0);
    let (value, dmu, dsigma, ds0) = gbm_path_grad(mu, sigma, s0, &z);
    assert_eq!(value.to_bits(), gbm_path(mu, sigma, s0, &z).to_bits());
    let f = |p: &[f64]| gbm_path(p[0], p[1], p[2], &z);
    let want = fd_support::fd64_slice(f, &[mu, sigma, s0]);
    fd_support::assert_all_fd64_close("gbm_path", &[dmu, dsigma, ds0], &want);

    let (kappa, theta, r0) = (0.4, 0.05, 0.02);
    let (value, dk, dt, dr) = vasicek_path_grad(kappa, theta, r0);
    assert_eq!(value.to_bits(), vasicek_path(kappa, theta, r0).to_bits());
    let f = |p: &[f64]| vasicek_path(p[0], p[1], p[2]);
    let want = fd_support::fd64_slice(f, &[kappa, theta, r0]);
    fd_support::assert_all_fd64_close("vasicek_path", &[dk, dt, dr], &want);
    let (v, tangent) = vasicek_path_jvp(kappa, theta, r0, 1.0, -2.0, 0.5);
    assert_eq!(v.to_bits(), value.to_bits());
    let along = want[0] - 2.0 * want[1] + 0.5 * want[2];
    assert!(
        (tangent - along).abs() <= 1e-6 * along.abs().max(1.0),
        "{tangent} {along}"
    );
}

/// A method taking `self` by value, called on a struct built in the body.
#[derive(Clone, Debug, autograd::Tangent)]
struct Line {
    a: f64,
    b: f64,
}

impl Line {
    #[differentiable]
    fn at(self, x: f64) -> f64 {
        self.a * x + self.b
    }
}

#[differentiable]
fn scaled_line(a: f64, b: f64, x: f64) -> f64 {
    let line = Line { a, b };
    let scale = line.a;
    line.at(x) * scale
}

#[test]
fn a_by_value_method_on_a_struct_built_in_the_body_has_the_closed_form() {
    let (a, b, x) = (2.0, 3.0, 0.5);
    let (value, da, db, dx) = scaled_line_grad(a, b, x);
    assert_eq!(value.to_bits(), scaled_line(a, b, x).to_bits());
    // f = (a x + b)·a: ∂a = 2ax + b, ∂b = a, ∂x = a².
    assert_eq!((da, db, dx), (2.0 * a * x + b, a, a * a));
}
