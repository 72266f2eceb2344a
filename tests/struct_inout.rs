//! In-out (`&mut`) arguments of functions taking `Tangent` structs and of
//! methods in `#[differentiable] impl` blocks (SPEC "Arguments", the
//! `&mut` row and the paragraph after it): the generated items leave the
//! argument as the primal does; the pullback takes a seed for the result,
//! then one for each in-out argument's final value, and returns the
//! adjoints of the values on entry.
//!
//! Expected adjoints are five-point central differences of the primal run
//! on copies (`fd_support`, to `FD64_ABS` absolute or `FD64_REL`
//! relative) of the seeded objective `s·f + ⟨s_y, y_final⟩`, or closed
//! forms (to `CF64_ABS`/`CF64_REL`).
#![allow(clippy::needless_range_loop, clippy::ptr_arg)]

mod fd_support;

use autograd::{Tangent, differentiable};
use fd_support::{assert_all_fd64_close, assert_fd64_close, fd64, fd64_slice};

#[derive(Clone, Debug, PartialEq, Tangent)]
struct Model {
    k: f64,
    w: Vec<f64>,
    #[constant]
    scale: f64,
}

/// Scales `y` in place by `k·w[i]`; returns `y[0]·y[1]` after.
#[differentiable]
fn scaled(m: &Model, y: &mut [f64]) -> f64 {
    for i in 0..y.len() {
        y[i] *= m.k * m.w[i];
    }
    y[0] * y[1] * m.scale
}

/// A `Vec` that grows: the final value is longer than the entry value.
#[differentiable]
fn pushed(m: &Model, y: &mut Vec<f64>, x: f64) -> f64 {
    let last = y[y.len() - 1];
    y.push(m.k * last * x);
    y[0] * m.w[0]
}

/// An `f64` accumulator and a fixed-size array.
#[differentiable]
fn accumulate(acc: &mut f64, m: &Model, v: &mut [f64; 2]) -> f64 {
    *acc += m.k * v[0];
    v[1] = v[1] * m.w[1] + *acc;
    (m.k * *acc).sin()
}

#[differentiable]
impl Model {
    /// One explicit Euler step of y' = -k w y, in place; returns `y[0]`.
    fn step(&self, y: &mut [f64], dt: f64) -> f64 {
        for i in 0..y.len() {
            y[i] -= dt * self.k * self.w[i] * y[i];
        }
        y[0]
    }

    /// `n` steps from another method of the block, then `accumulate`
    /// (two in-out arguments) as a statement.
    fn steps(&self, y: &mut [f64], dt: f64, n: usize) -> f64 {
        let mut s = 0.0;
        for _ in 0..n {
            s += self.step(&mut *y, dt);
        }
        let mut acc = s;
        let mut v = [y[0], y[1]];
        accumulate(&mut acc, self, &mut v);
        acc + v[1]
    }
}

fn model() -> Model {
    Model {
        k: 0.7,
        w: vec![1.3, -0.4],
        scale: 2.0,
    }
}

/// `m` with `k` and `w` at `p = [k, w0, w1]`.
fn at(m: &Model, p: &[f64]) -> Model {
    Model {
        k: p[0],
        w: vec![p[1], p[2]],
        ..m.clone()
    }
}

fn params(m: &Model) -> Vec<f64> {
    vec![m.k, m.w[0], m.w[1]]
}

fn assert_model_close(what: &str, got: &Model, want: &[f64], scale: f64) {
    assert_all_fd64_close(what, &params(got), want);
    // A constant field's slot holds the argument's value.
    assert_eq!(got.scale, scale, "{what}: constant field");
}

#[test]
fn slice_grad_matches_closed_form_and_leaves_y_as_the_primal() {
    let m = model();
    let y0 = [0.5, -1.5];
    let mut y = y0.to_vec();
    let (v, dm, dy) = scaled_grad(&m, &mut y);
    let mut want_y = y0.to_vec();
    let want_v = scaled(&m, &mut want_y);
    assert_eq!(v.to_bits(), want_v.to_bits());
    assert_eq!(y, want_y);
    // f = y0 y1 k² w0 w1 s.
    let (k, w0, w1, s) = (m.k, m.w[0], m.w[1], m.scale);
    let p = y0[0] * y0[1];
    let close =
        |a: f64, b: f64| approx::assert_relative_eq!(a, b, epsilon = 1e-13, max_relative = 1e-12);
    close(dm.k, 2.0 * k * w0 * w1 * p * s);
    close(dm.w[0], k * k * w1 * p * s);
    close(dm.w[1], k * k * w0 * p * s);
    assert_eq!(dm.scale, s);
    close(dy[0], k * k * w0 * w1 * y0[1] * s);
    close(dy[1], k * k * w0 * w1 * y0[0] * s);
}

#[test]
fn slice_vjp_seeds_the_final_value() {
    let m = model();
    let y0 = [0.5, -1.5];
    let (seed, seed_y) = (0.8, vec![-0.3, 1.1]);
    let objective = |m: &Model, y0: &[f64]| {
        let mut y = y0.to_vec();
        let v = scaled(m, &mut y);
        seed * v + seed_y[0] * y[0] + seed_y[1] * y[1]
    };
    let mut y = y0.to_vec();
    let (v, pullback) = scaled_vjp(&m, &mut y);
    // The pullback holds no borrow of `y`: it may be read before seeding.
    let mut want_y = y0.to_vec();
    assert_eq!(v, scaled(&m, &mut want_y));
    assert_eq!(y, want_y);
    let (dm, dy) = pullback(seed, seed_y.clone());
    let want_dm = fd64_slice(|p| objective(&at(&m, p), &y0), &params(&m));
    assert_model_close("dm", &dm, &want_dm, m.scale);
    assert_all_fd64_close("dy", &dy, &fd64_slice(|y| objective(&m, y), &y0));
}

#[test]
fn growing_vec_is_seeded_at_its_final_length() {
    let m = model();
    let (y0, x) = (vec![0.5, -1.5], 1.7);
    let mut y = y0.clone();
    let (v, dm, dy, dx) = pushed_grad(&m, &mut y, x);
    let mut want_y = y0.clone();
    assert_eq!(v, pushed(&m, &mut want_y, x));
    assert_eq!(y, want_y);
    assert_eq!(y.len(), 3);
    // f = y0[0] w0: the pushed element is not in the result.
    assert_eq!((dm.k, dm.w[0], dm.w[1]), (0.0, y0[0], 0.0));
    assert_eq!(dy, vec![m.w[0], 0.0]);
    assert_eq!(dx, 0.0);
    // Seeding the pushed element: d(y_final[2]) = k·y0[1]·x.
    let (_, pullback) = pushed_vjp(&m, &mut y0.clone(), x);
    let (dm, dy, dx) = pullback(0.0, vec![0.0, 0.0, 1.0]);
    assert_eq!((dm.k, dm.w[0]), (y0[1] * x, 0.0));
    assert_eq!(dy, vec![0.0, m.k * x]);
    assert_eq!(dx, m.k * y0[1]);
}

#[test]
fn scalar_and_array_in_out() {
    let m = model();
    let (acc0, v0) = (0.4, [0.9, -0.2]);
    let (seed, seed_acc, seed_v) = (1.3, -0.6, [0.5, 0.7]);
    let objective = |m: &Model, acc0: f64, v0: [f64; 2]| {
        let (mut acc, mut v) = (acc0, v0);
        let r = accumulate(&mut acc, m, &mut v);
        seed * r + seed_acc * acc + seed_v[0] * v[0] + seed_v[1] * v[1]
    };
    let (mut acc, mut v) = (acc0, v0);
    let (r, pullback) = accumulate_vjp(&mut acc, &m, &mut v);
    let (mut want_acc, mut want_v) = (acc0, v0);
    assert_eq!(r, accumulate(&mut want_acc, &m, &mut want_v));
    assert_eq!((acc, v), (want_acc, want_v));
    let (dacc, dm, dv) = pullback(seed, seed_acc, seed_v);
    assert_fd64_close("dacc", dacc, fd64(|a| objective(&m, a, v0), acc0));
    let want_dm = fd64_slice(|p| objective(&at(&m, p), acc0, v0), &params(&m));
    assert_model_close("dm", &dm, &want_dm, m.scale);
    let want_dv = fd64_slice(|v| objective(&m, acc0, [v[0], v[1]]), &v0);
    assert_all_fd64_close("dv", &dv, &want_dv);
    // `_grad` seeds the final values with zero.
    let (mut acc, mut v) = (acc0, v0);
    let (_, dacc, dm, dv) = accumulate_grad(&mut acc, &m, &mut v);
    assert_eq!((acc, v), (want_acc, want_v));
    let (_, pullback) = accumulate_vjp(&mut acc0.clone(), &m, &mut v0.clone());
    let (dacc1, dm1, dv1) = pullback(1.0, 0.0, [0.0, 0.0]);
    assert_eq!(
        (dacc, dm.k, dm.w.clone(), dv),
        (dacc1, dm1.k, dm1.w.clone(), dv1)
    );
}

#[test]
fn method_vjp_grad_acc_and_check() {
    let m = model();
    let (y0, dt) = ([0.5, -1.5], 0.1);
    let (seed, seed_y) = (0.4, vec![1.2, -0.9]);
    let objective = |m: &Model, y0: &[f64], dt: f64| {
        let mut y = y0.to_vec();
        let v = m.step(&mut y, dt);
        seed * v + seed_y[0] * y[0] + seed_y[1] * y[1]
    };
    let mut y = y0.to_vec();
    let (v, pullback) = m.step_vjp(&mut y, dt);
    let mut want_y = y0.to_vec();
    assert_eq!(v, m.step(&mut want_y, dt));
    assert_eq!(y, want_y);
    let (dm, dy, ddt) = pullback(seed, seed_y.clone());
    let want_dm = fd64_slice(|p| objective(&at(&m, p), &y0, dt), &params(&m));
    assert_model_close("dm", &dm, &want_dm, m.scale);
    assert_all_fd64_close("dy", &dy, &fd64_slice(|y| objective(&m, y, dt), &y0));
    assert_fd64_close("ddt", ddt, fd64(|t| objective(&m, &y0, t), dt));

    // `_grad_acc` adds `_grad` into the buffers; `_check` agrees.
    let mut y = y0.to_vec();
    let (_, g_m, g_y, g_dt) = m.step_grad(&mut y, dt);
    assert_eq!(y, want_y);
    let mut d_self = Model {
        k: 1.0,
        w: vec![1.0, 1.0],
        scale: m.scale,
    };
    let (mut d_y, mut d_dt) = (vec![1.0, 1.0], 1.0);
    let mut y = y0.to_vec();
    m.step_grad_acc(&mut y, dt, &mut d_self, &mut d_y, &mut d_dt);
    assert_eq!(y, want_y);
    assert_eq!(
        (d_self.k, d_self.w.clone()),
        (1.0 + g_m.k, vec![1.0 + g_m.w[0], 1.0 + g_m.w[1]])
    );
    assert_eq!((d_y, d_dt), (vec![1.0 + g_y[0], 1.0 + g_y[1]], 1.0 + g_dt));
    let mut y = y0.to_vec();
    let check = m.step_check(&mut y, dt);
    assert_eq!(y, want_y);
    assert!(check.max_abs_error() < 1e-7, "{check:?}");
    let mut y = y0.to_vec();
    let check = scaled_check(&m, &mut y);
    assert!(check.max_abs_error() < 1e-7, "{check:?}");
}

/// A caller of each: `n` steps of the method, then `scaled`, from a
/// differentiable function taking the struct.
#[differentiable]
fn run(m: &Model, y: &mut [f64], dt: f64, n: usize) -> f64 {
    let mut s = 0.0;
    for _ in 0..n {
        s += m.step(&mut *y, dt);
    }
    s + scaled(m, &mut *y)
}

#[test]
fn called_from_differentiable_code() {
    let m = model();
    let (y0, dt, n) = ([0.5, -1.5], 0.1, 4);
    let objective = |m: &Model, y0: &[f64], dt: f64| run(m, &mut y0.to_vec(), dt, n);
    let mut y = y0.to_vec();
    let (v, dm, dy, ddt) = run_grad(&m, &mut y, dt, n);
    let mut want_y = y0.to_vec();
    assert_eq!(v, run(&m, &mut want_y, dt, n));
    assert_eq!(y, want_y);
    let want_dm = fd64_slice(|p| objective(&at(&m, p), &y0, dt), &params(&m));
    assert_model_close("dm", &dm, &want_dm, m.scale);
    assert_all_fd64_close("dy", &dy, &fd64_slice(|y| objective(&m, y, dt), &y0));
    assert_fd64_close("ddt", ddt, fd64(|t| objective(&m, &y0, t), dt));
}

#[test]
fn called_from_another_method() {
    let m = model();
    let (y0, dt, n) = ([0.5, -1.5], 0.1, 3);
    let objective = |m: &Model, y0: &[f64], dt: f64| m.steps(&mut y0.to_vec(), dt, n);
    let mut y = y0.to_vec();
    let (v, dm, dy, ddt) = m.steps_grad(&mut y, dt, n);
    let mut want_y = y0.to_vec();
    assert_eq!(v, m.steps(&mut want_y, dt, n));
    assert_eq!(y, want_y);
    let want_dm = fd64_slice(|p| objective(&at(&m, p), &y0, dt), &params(&m));
    assert_model_close("dm", &dm, &want_dm, m.scale);
    assert_all_fd64_close("dy", &dy, &fd64_slice(|y| objective(&m, y, dt), &y0));
    assert_fd64_close("ddt", ddt, fd64(|t| objective(&m, &y0, t), dt));
}

// ---- `s: &mut S` with `S: Tangent` ----

#[derive(Clone, Debug, PartialEq, Tangent)]
struct State {
    x: f64,
    v: f64,
    hist: Vec<f64>,
    /// Neither read nor written by `advance`: its adjoint is its seed.
    untouched: f64,
    #[constant]
    mass: f64,
    substeps: usize,
}

/// One symplectic Euler step of a spring (x'' = -k x / m), its squared
/// position added into `hist[0]`; returns the energy after.
#[differentiable]
fn advance(s: &mut State, k: f64, dt: f64) -> f64 {
    let h = dt / s.substeps as f64;
    for _ in 0..s.substeps {
        s.v -= h * k * s.x / s.mass;
        s.x += h * s.v;
    }
    s.hist[0] += s.x * s.x;
    0.5 * s.mass * s.v * s.v + 0.5 * k * s.x * s.x
}

/// A drift returning `()`: the final value is the only output.
#[differentiable]
fn drift(s: &mut State, dt: f64) {
    s.x += dt * s.v;
}

/// `n` steps in a loop, the energy summed.
#[differentiable]
fn simulate(s: &mut State, k: f64, dt: f64, n: usize) -> f64 {
    let mut e = 0.0;
    for _ in 0..n {
        s.v -= dt * k * s.x / s.mass;
        s.x += dt * s.v;
        e += 0.5 * k * s.x * s.x;
    }
    e
}

fn state() -> State {
    State {
        x: 0.8,
        v: -0.3,
        hist: vec![0.25, 1.5],
        untouched: 4.0,
        mass: 2.0,
        substeps: 3,
    }
}

/// The differentiable fields, flattened: x, v, hist[0], hist[1], untouched.
fn flat(s: &State) -> Vec<f64> {
    vec![s.x, s.v, s.hist[0], s.hist[1], s.untouched]
}

fn unflat(s: &State, p: &[f64]) -> State {
    State {
        x: p[0],
        v: p[1],
        hist: vec![p[2], p[3]],
        untouched: p[4],
        ..s.clone()
    }
}

/// `⟨seed, flat(s_final)⟩`.
fn dot(seed: &State, s: &State) -> f64 {
    flat(seed).iter().zip(flat(s)).map(|(a, b)| a * b).sum()
}

#[test]
fn struct_vjp_seeds_the_final_value() {
    let s0 = state();
    let (k, dt) = (1.7, 0.1);
    let seed = 0.6;
    let seed_s = State {
        x: 0.9,
        v: -1.1,
        hist: vec![0.4, 0.7],
        untouched: 1.3,
        mass: 99.0,
        substeps: 99,
    };
    let objective = |s0: &State, k: f64, dt: f64| {
        let mut s = s0.clone();
        let e = advance(&mut s, k, dt);
        seed * e + dot(&seed_s, &s)
    };
    let mut s = s0.clone();
    let (e, pullback) = advance_vjp(&mut s, k, dt);
    let mut want = s0.clone();
    assert_eq!(e.to_bits(), advance(&mut want, k, dt).to_bits());
    assert_eq!(s, want);
    let (ds, dk, ddt) = pullback(seed, seed_s.clone());
    let want_ds = fd64_slice(|p| objective(&unflat(&s0, p), k, dt), &flat(&s0));
    assert_all_fd64_close("ds", &flat(&ds), &want_ds);
    // The untouched field passes its seed through; constants and integers
    // are the argument's.
    assert_eq!(ds.untouched, seed_s.untouched);
    assert_eq!((ds.mass, ds.substeps), (s0.mass, s0.substeps));
    assert_fd64_close("dk", dk, fd64(|k| objective(&s0, k, dt), k));
    assert_fd64_close("ddt", ddt, fd64(|t| objective(&s0, k, t), dt));

    // `_grad`: seed 1 for the energy, 0 for the final state.
    let mut s = s0.clone();
    let (e, ds, dk, _) = advance_grad(&mut s, k, dt);
    assert_eq!(e, advance(&mut s0.clone(), k, dt));
    assert_eq!(s, want);
    let energy = |s0: &State, k: f64| advance(&mut s0.clone(), k, dt);
    let want_ds = fd64_slice(|p| energy(&unflat(&s0, p), k), &flat(&s0));
    assert_all_fd64_close("grad ds", &flat(&ds), &want_ds);
    assert_eq!(ds.untouched, 0.0);
    assert_fd64_close("grad dk", dk, fd64(|k| energy(&s0, k), k));
    let mut s = s0.clone();
    let check = advance_check(&mut s, k, dt);
    assert_eq!(s, want);
    assert!(check.max_abs_error() < 1e-7, "{check:?}");
}

#[test]
fn unit_struct_function_pullback_takes_only_the_final_seed() {
    let s0 = state();
    let dt = 0.25;
    let seed_s = State {
        x: 2.0,
        v: 0.5,
        hist: vec![1.0, -1.0],
        untouched: 3.0,
        mass: 0.0,
        substeps: 0,
    };
    let mut s = s0.clone();
    let ((), pullback) = drift_vjp(&mut s, dt);
    let mut want = s0.clone();
    drift(&mut want, dt);
    assert_eq!(s, want);
    let (ds, ddt) = pullback(seed_s.clone());
    // x₁ = x + dt v: dx = s_x, dv = s_v + dt s_x, ddt = v s_x; the rest
    // pass their seeds through.
    assert_eq!(ds.x, seed_s.x);
    assert_eq!(ds.v, seed_s.v + dt * seed_s.x);
    assert_eq!(ds.hist, seed_s.hist);
    assert_eq!(ds.untouched, seed_s.untouched);
    assert_eq!((ds.mass, ds.substeps), (s0.mass, s0.substeps));
    assert_eq!(ddt, s0.v * seed_s.x);
}

#[test]
fn time_stepper_loop_on_an_in_out_struct() {
    let s0 = state();
    let (k, dt, n) = (1.7, 0.05, 40);
    let objective = |s0: &State, k: f64, dt: f64| simulate(&mut s0.clone(), k, dt, n);
    let mut s = s0.clone();
    let (e, ds, dk, ddt) = simulate_grad(&mut s, k, dt, n);
    let mut want = s0.clone();
    assert_eq!(e, simulate(&mut want, k, dt, n));
    assert_eq!(s, want);
    let want_ds = fd64_slice(|p| objective(&unflat(&s0, p), k, dt), &flat(&s0));
    assert_all_fd64_close("ds", &flat(&ds), &want_ds);
    assert_fd64_close("dk", dk, fd64(|k| objective(&s0, k, dt), k));
    // In `dt` the forty steps make the five-point stencil's step (1e-3,
    // 2% of `dt`) too coarse: a three-point one at h = 1e-7 (truncation
    // ≈ h²·|f'''|/6 ≈ 1e-10, rounding ≈ ε·|f|/h ≈ 1e-8), to 1e-7 relative.
    let want_ddt = fd_support::central(|t| objective(&s0, k, t), dt, 1e-7);
    approx::assert_relative_eq!(ddt, want_ddt, epsilon = 1e-9, max_relative = 1e-7);
}

// ---- `&mut self` ----

#[differentiable]
impl State {
    /// A kick of the velocity by a force `f`; returns the kinetic energy.
    fn kick(&mut self, f: f64, dt: f64) -> f64 {
        self.v += dt * f / self.mass;
        0.5 * self.mass * self.v * self.v
    }
}

#[test]
fn mut_self_is_an_in_out_receiver_first_in_the_tuple() {
    let s0 = state();
    let (f, dt) = (1.2, 0.3);
    let (seed, seed_s) = (
        0.5,
        State {
            x: 0.1,
            v: 0.2,
            hist: vec![0.3, 0.4],
            untouched: 0.6,
            mass: 7.0,
            substeps: 7,
        },
    );
    let mut s = s0.clone();
    let (e, pullback) = s.kick_vjp(f, dt);
    let mut want = s0.clone();
    assert_eq!(e, want.kick(f, dt));
    assert_eq!(s, want);
    let (ds, df, ddt) = pullback(seed, seed_s.clone());
    // v₁ = v + dt f / m, e = m v₁² / 2: de/dv₁ = m v₁.
    let (m, v1) = (s0.mass, want.v);
    let g = seed * m * v1 + seed_s.v;
    let close =
        |a: f64, b: f64| approx::assert_relative_eq!(a, b, epsilon = 1e-13, max_relative = 1e-12);
    close(ds.v, g);
    close(df, g * dt / m);
    close(ddt, g * f / m);
    assert_eq!(
        (ds.x, ds.hist.clone(), ds.untouched),
        (seed_s.x, seed_s.hist.clone(), seed_s.untouched)
    );
    assert_eq!((ds.mass, ds.substeps), (s0.mass, s0.substeps));
    let mut s = s0.clone();
    let (_, ds, _, _) = s.kick_grad(f, dt);
    assert_eq!(s, want);
    close(ds.v, m * v1);
    assert_eq!(ds.x, 0.0);
}
