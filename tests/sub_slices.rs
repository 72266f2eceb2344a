//! Sub-slices `&x[a..b]`, `&x[a..]`, `&x[..b]` (and `&x[a..b][c..]`) of
//! slice arguments, `&Vec<f64>`, `&[f64; N]`, local arrays and `Vec`s
//! (also written in loops before they are read): passed to
//! `#[differentiable]` calls, iterated, indexed, `len()` and `sum()`, in
//! every mode; and arrays passed where a slice is taken.
//!
//! Expected values come from closed forms or central differences of the
//! primal; each tolerance is stated at its assertion.

// A `#[differentiable]` body indexes slices in `for i in a..b` loops; a
// `&Vec<f64>` argument and a local `Vec` are base kinds under test.
#![allow(clippy::needless_range_loop, clippy::ptr_arg, clippy::useless_vec)]

use approx::assert_relative_eq;
use autograd::nalgebra::DVector;
use autograd::num_traits::Float;
use autograd::{central_difference, differentiable};

/// Central differences of `f` at `x`, one per element.
fn fd(f: impl Fn(&[f64]) -> f64, x: &[f64]) -> Vec<f64> {
    let mut work = x.to_vec();
    (0..x.len())
        .map(|i| {
            let d = central_difference(
                |xi: f64| {
                    work[i] = xi;
                    f(&work)
                },
                x[i],
            );
            work[i] = x[i];
            d
        })
        .collect()
}

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert_relative_eq!(*x, *y, epsilon = tol, max_relative = tol);
    }
}

/// Σ v[i]²·(i + 1), a callee taking a slice.
#[differentiable(jvp, hessian)]
fn weighted_squares(v: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i] * v[i] * (i + 1) as f64;
    }
    s
}

// ---------------------------------------------------------------------------
// A slice argument: passed, iterated, indexed, len, sum.

/// wsq(x[1..3]) + Σ x[2..] sin + x[..2][1]·len(x[1..4]) + sum(x[3..]).
#[differentiable(jvp, hessian)]
fn of_slice(x: &[f64]) -> f64 {
    let passed = weighted_squares(&x[1..3]);
    let mut iterated = 0.0;
    for v in &x[2..] {
        iterated += v.sin();
    }
    let head = &x[..2];
    let indexed = head[1] * x[1..4].len() as f64;
    let summed = x[3..].iter().sum::<f64>();
    passed + iterated + indexed + summed
}

fn of_slice_closed(x: &[f64]) -> (f64, Vec<f64>) {
    let n = x.len();
    let value = x[1] * x[1]
        + 2.0 * x[2] * x[2]
        + x[2..].iter().map(|v| v.sin()).sum::<f64>()
        + x[1] * 3.0
        + x[3..].iter().sum::<f64>();
    let mut g = vec![0.0; n];
    g[1] += 2.0 * x[1] + 3.0;
    g[2] += 4.0 * x[2];
    for i in 2..n {
        g[i] += x[i].cos();
    }
    for gi in g.iter_mut().skip(3) {
        *gi += 1.0;
    }
    (value, g)
}

#[test]
fn slice_argument_every_mode() {
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    let (want, g) = of_slice_closed(&x);
    assert_relative_eq!(of_slice(&x), want, epsilon = 1e-14, max_relative = 1e-14);
    // Closed form, to rounding: 1e-14.
    let (value, dx) = of_slice_grad(&x);
    assert_relative_eq!(value, want, epsilon = 1e-14, max_relative = 1e-14);
    close(&dx, &g, 1e-14);
    let (_, pullback) = of_slice_vjp(&x);
    let (dx,) = pullback(2.0);
    close(&dx, &g.iter().map(|v| 2.0 * v).collect::<Vec<_>>(), 1e-14);
    let mut acc = vec![1.0; 5];
    of_slice_grad_acc(&x, &mut acc);
    close(&acc, &g.iter().map(|v| 1.0 + v).collect::<Vec<_>>(), 1e-14);
    assert!(of_slice_check(&x).is_within(1e-7, 1e-6));
    let dir = [1.0, -0.5, 0.25, 2.0, 0.1];
    let (value, t) = of_slice_jvp(&x, &dir);
    assert_relative_eq!(value, want, epsilon = 1e-14, max_relative = 1e-14);
    let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_relative_eq!(t, dot, epsilon = 1e-14, max_relative = 1e-14);
    // Hessian: diag 2 at 1, 4 at 2, −sin at 2.., against central
    // differences of the closed gradient (1e-6).
    let (_, grad, h) = of_slice_hessian(&x);
    close(grad.as_slice(), &g, 1e-14);
    for j in 0..5 {
        let col = fd(|y| of_slice_closed(y).1[j], &x);
        for i in 0..5 {
            assert_relative_eq!(h[(i, j)], col[i], epsilon = 1e-6, max_relative = 1e-6);
        }
    }
}

// ---------------------------------------------------------------------------
// Other bases: `&Vec<f64>`, `&[f64; N]`, a local array, a local `Vec`
// written in a loop before its parts are read, a nested sub-slice, a
// nalgebra vector's `as_slice()`.

/// The same reads of any base, one shape: wsq(s[1..3]) + Σ sin s[2..] +
/// s[..2][1]·len(s[1..4]) + sum(s[3..]).
fn reads_closed(x: &[f64]) -> f64 {
    x[1] * x[1]
        + 2.0 * x[2] * x[2]
        + x[2..].iter().map(|v| v.sin()).sum::<f64>()
        + x[1] * 3.0
        + x[3..].iter().sum::<f64>()
}

#[differentiable(jvp, hessian)]
fn of_vec(x: &Vec<f64>) -> f64 {
    let part = &x[2..];
    weighted_squares(&x[1..3])
        + part.iter().map(|v| v.sin()).sum::<f64>()
        + x[..2][1] * x[1..4].len() as f64
        + x[3..].iter().sum::<f64>()
}

#[differentiable(jvp, hessian)]
fn of_array(x: &[f64; 5]) -> f64 {
    let mut iterated = 0.0;
    for (i, v) in x[2..].iter().enumerate() {
        iterated += v.sin() + 0.0 * i as f64;
    }
    weighted_squares(&x[1..3])
        + iterated
        + x[..2][1] * x[1..4].len() as f64
        + x[3..5].iter().sum::<f64>()
}

/// A local array and a local `Vec` written in a loop (`y[i] = 2·x[i]`,
/// `z[i] = x[i]²`), then read through sub-slices: the reads see the writes,
/// and the adjoints go to the elements written. (Not under `hessian`: a
/// body's local arrays are not yet supported by the second-order copy,
/// sub-slices or not.)
#[differentiable(jvp)]
fn of_locals(x: &[f64]) -> f64 {
    let mut y = [0.0; 5];
    let mut z = vec![0.0; 5];
    for i in 0..5 {
        y[i] = 2.0 * x[i];
        z[i] = x[i] * x[i];
    }
    let a = weighted_squares(&y[1..3]);
    let b: f64 = z[3..].iter().sum::<f64>();
    let tail = &z[..=2];
    let c = tail[2] * y[0..4].len() as f64;
    let mut d = 0.0;
    for v in &y[3..5] {
        d += v.exp();
    }
    a + b + c + d
}

fn of_locals_closed(x: &[f64]) -> f64 {
    4.0 * x[1] * x[1]
        + 8.0 * x[2] * x[2]
        + x[3] * x[3]
        + x[4] * x[4]
        + 4.0 * x[2] * x[2]
        + (2.0 * x[3]).exp()
        + (2.0 * x[4]).exp()
}

/// `&x[1..][1..3]`: a sub-slice of a sub-slice (x[2..4]), passed, indexed
/// and iterated.
#[differentiable(jvp, hessian)]
fn nested(x: &[f64]) -> f64 {
    let inner = &x[1..][1..3];
    let s = &x[1..5];
    weighted_squares(inner)
        + s[1..][2] * inner[0]
        + s[2..].windows(2).map(|w| w[0] * w[1]).sum::<f64>()
}

fn nested_closed(x: &[f64]) -> f64 {
    x[2] * x[2] + 2.0 * x[3] * x[3] + x[4] * x[2] + x[3] * x[4]
}

#[test]
fn every_base_against_central_differences() {
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    let xv = x.to_vec();
    let want = fd(reads_closed, &x);
    // Central differences: 1e-7 relative.
    let (v, g) = of_vec_grad(&xv);
    assert_relative_eq!(v, reads_closed(&x), epsilon = 1e-13, max_relative = 1e-13);
    close(&g, &want, 1e-7);
    let (v, g) = of_array_grad(&x);
    assert_relative_eq!(v, reads_closed(&x), epsilon = 1e-13, max_relative = 1e-13);
    close(&g, &want, 1e-7);
    let (v, g) = of_locals_grad(&x);
    assert_relative_eq!(
        v,
        of_locals_closed(&x),
        epsilon = 1e-13,
        max_relative = 1e-13
    );
    close(&g, &fd(of_locals_closed, &x), 1e-7);
    let (v, g) = nested_grad(&x);
    assert_relative_eq!(v, nested_closed(&x), epsilon = 1e-13, max_relative = 1e-13);
    close(&g, &fd(nested_closed, &x), 1e-7);
}

#[test]
fn every_base_every_mode() {
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    let dir = [1.0, -0.5, 0.25, 2.0, 0.1];
    let (xv, dirv) = (x.to_vec(), dir.to_vec());
    type Closed = fn(&[f64]) -> f64;
    let cases: [(&str, Closed); 4] = [
        ("vec", reads_closed),
        ("array", reads_closed),
        ("locals", of_locals_closed),
        ("nested", nested_closed),
    ];
    for (name, closed) in cases {
        let g = fd(closed, &x);
        let (grad, jvp, hessian, acc, check) = match name {
            "vec" => {
                let mut acc = vec![0.0; 5];
                of_vec_grad_acc(&xv, &mut acc);
                let (_, pb) = of_vec_vjp(&xv);
                (
                    pb(1.0).0,
                    of_vec_jvp(&xv, &dirv).1,
                    Some(of_vec_hessian(&xv).2),
                    acc,
                    of_vec_check(&xv).is_within(1e-7, 1e-6),
                )
            }
            "array" => {
                let mut acc = [0.0; 5];
                of_array_grad_acc(&x, &mut acc);
                let (_, pb) = of_array_vjp(&x);
                (
                    pb(1.0).0.to_vec(),
                    of_array_jvp(&x, &dir).1,
                    Some(of_array_hessian(&x).2),
                    acc.to_vec(),
                    of_array_check(&x).is_within(1e-7, 1e-6),
                )
            }
            "locals" => {
                let mut acc = vec![0.0; 5];
                of_locals_grad_acc(&x, &mut acc);
                let (_, pb) = of_locals_vjp(&x);
                (
                    pb(1.0).0,
                    of_locals_jvp(&x, &dir).1,
                    None,
                    acc,
                    of_locals_check(&x).is_within(1e-7, 1e-6),
                )
            }
            _ => {
                let mut acc = vec![0.0; 5];
                nested_grad_acc(&x, &mut acc);
                let (_, pb) = nested_vjp(&x);
                (
                    pb(1.0).0,
                    nested_jvp(&x, &dir).1,
                    Some(nested_hessian(&x).2),
                    acc,
                    nested_check(&x).is_within(1e-7, 1e-6),
                )
            }
        };
        // Central differences: 1e-7 relative (1e-6 for the Hessian, the
        // differences of a difference quotient of the closed form).
        close(&grad, &g, 1e-7);
        close(&acc, &g, 1e-7);
        assert!(check, "{name}");
        let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
        assert_relative_eq!(jvp, dot, epsilon = 1e-6, max_relative = 1e-6);
        let Some(hessian) = hessian else { continue };
        for j in 0..5 {
            let col = fd(|y| fd(closed, y)[j], &x);
            for i in 0..5 {
                assert_relative_eq!(hessian[(i, j)], col[i], epsilon = 1e-4, max_relative = 1e-4);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The motivating program: ADBench bundle adjustment's reprojection, as a
// user writes it, with the camera's parts as sub-slices of one slice.

/// Rotates `x` by the axis-angle `w` (Rodrigues).
#[differentiable(jvp)]
fn rodrigues_rotate(w: &[f64], x: &[f64]) -> [f64; 3] {
    let theta = (w[0] * w[0] + w[1] * w[1] + w[2] * w[2]).sqrt();
    let (s, c) = (theta.sin(), theta.cos());
    let k = [w[0] / theta, w[1] / theta, w[2] / theta];
    let kx = [
        k[1] * x[2] - k[2] * x[1],
        k[2] * x[0] - k[0] * x[2],
        k[0] * x[1] - k[1] * x[0],
    ];
    let kdx = k[0] * x[0] + k[1] * x[1] + k[2] * x[2];
    [
        x[0] * c + kx[0] * s + k[0] * kdx * (1.0 - c),
        x[1] * c + kx[1] * s + k[1] * kdx * (1.0 - c),
        x[2] * c + kx[2] * s + k[2] * kdx * (1.0 - c),
    ]
}

/// The squared reprojection error of point `x` seen by camera `cam`
/// (rotation 0..3, centre 3..6, focal 6, principal point 7..9, radial
/// distortion 9..11) against the observation `obs`.
#[differentiable(jvp)]
fn reprojection(cam: &[f64], x: &[f64], #[constant] obs: &[f64]) -> f64 {
    let centre = &cam[3..6];
    let d = [x[0] - centre[0], x[1] - centre[1], x[2] - centre[2]];
    let p = rodrigues_rotate(&cam[0..3], &d);
    let proj = [p[0] / p[2], p[1] / p[2]];
    let distorted = radial_distort(&cam[9..], &proj);
    let principal = &cam[7..9];
    let eu = cam[6] * distorted[0] + principal[0] - obs[0];
    let ev = cam[6] * distorted[1] + principal[1] - obs[1];
    eu * eu + ev * ev
}

/// `proj` scaled by 1 + k₁r² + k₂r⁴.
#[differentiable(jvp)]
fn radial_distort(kappa: &[f64], proj: &[f64]) -> [f64; 2] {
    let r2 = proj.iter().map(|v| v * v).sum::<f64>();
    let l = 1.0 + kappa[0] * r2 + kappa[1] * r2 * r2;
    [proj[0] * l, proj[1] * l]
}

#[test]
fn bundle_adjustment_reprojection_with_camera_sub_slices() {
    let cam = [
        0.1, -0.2, 0.3, 0.5, -0.4, -6.0, 2.0, 0.05, -0.03, 0.01, -0.002,
    ];
    let x = [0.3, 0.2, 1.5];
    let obs = [0.1, -0.05];
    let value = reprojection(&cam, &x, &obs);
    let (v, dcam, dx) = reprojection_grad(&cam, &x, &obs);
    assert_eq!(v.to_bits(), value.to_bits());
    // Central differences of the primal: 1e-6 relative.
    close(&dcam, &fd(|c| reprojection(c, &x, &obs), &cam), 1e-6);
    close(&dx, &fd(|p| reprojection(&cam, p, &obs), &x), 1e-6);
    assert!(reprojection_check(&cam, &x, &obs).is_within(1e-7, 1e-6));
    let dir: Vec<f64> = (0..11).map(|i| 0.1 * i as f64 - 0.4).collect();
    let (_, t) = reprojection_jvp(&cam, &x, &obs, &dir, &[0.0; 3]);
    let dot: f64 = dcam.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_relative_eq!(t, dot, epsilon = 1e-12, max_relative = 1e-12);
}

// ---------------------------------------------------------------------------
// Out of range: the generated code panics as the primal does.

#[differentiable(jvp)]
fn takes_part(x: &[f64], a: usize, b: usize) -> f64 {
    weighted_squares(&x[a..b])
}

#[differentiable(jvp)]
fn reads_part(x: &[f64], a: usize, i: usize) -> f64 {
    let s = &x[a..];
    s[i] * s.iter().sum::<f64>()
}

#[differentiable]
fn reads_nested(x: &[f64], i: usize) -> f64 {
    let s = &x[1..4];
    let t = &s[1..];
    weighted_squares(&t[..i])
}

/// Ignores a result: the call is made for its panic.
fn ignore<T>(_: T) {}

/// The panic message of `f`, which must panic.
fn message(f: impl FnOnce() + std::panic::UnwindSafe) -> String {
    let e = std::panic::catch_unwind(f).expect_err("must panic");
    match e.downcast::<String>() {
        Ok(s) => *s,
        Err(e) => e.downcast::<&str>().map(|s| s.to_string()).unwrap(),
    }
}

#[test]
fn out_of_range_panics_as_the_primal() {
    let x = [1.0, 2.0, 3.0, 4.0];
    let cases: Vec<(usize, usize)> = vec![(1, 6), (3, 2), (5, 6)];
    for (a, b) in cases {
        let want = message(move || {
            takes_part(&x, a, b);
        });
        assert_eq!(message(move || ignore(takes_part_grad(&x, a, b))), want);
        assert_eq!(
            message(move || ignore(takes_part_jvp(&x, a, b, &[0.0; 4]))),
            want
        );
    }
    for (a, i) in [(1, 3), (5, 0), (0, 4)] {
        let want = message(move || {
            reads_part(&x, a, i);
        });
        assert_eq!(message(move || ignore(reads_part_grad(&x, a, i))), want);
        assert_eq!(message(move || ignore(reads_part_vjp(&x, a, i))), want);
        assert_eq!(
            message(move || ignore(reads_part_jvp(&x, a, i, &[0.0; 4]))),
            want
        );
    }
    // `t = x[2..4]`, `t[..3]` is out of it though `x[2..5]` is not.
    let y = [1.0, 2.0, 3.0, 4.0, 5.0];
    let want = message(move || {
        reads_nested(&y, 3);
    });
    assert_eq!(want, "range end index 3 out of range for slice of length 2");
    assert_eq!(message(move || ignore(reads_nested_grad(&y, 3))), want);
    // In range, the gradient is 2·y[2] and 4·y[3].
    let (_, g) = reads_nested_grad(&y, 2);
    close(&g, &[0.0, 0.0, 6.0, 16.0, 0.0], 1e-15);
}

// ---------------------------------------------------------------------------
// Generic `T: Float` (at f32 and f64), an `f32` function, a `#[checkpoint]`
// loop, a nalgebra vector's `as_slice()`, arrays passed where a slice is
// taken.

/// Σ v[i]², generic.
#[differentiable(jvp, hessian)]
fn sum_squares<T: Float>(v: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..v.len() {
        s = s + v[i] * v[i];
    }
    s
}

/// ss(x[1..3]) + x[..2][0]·Σ x[2..].
#[differentiable(jvp)]
fn generic_parts<T: Float>(x: &[T]) -> T {
    let head = &x[..2];
    sum_squares(&x[1..3]) + head[0] * x[2..].iter().fold(T::zero(), |a, v| a + *v)
}

fn generic_parts_closed(x: &[f64]) -> f64 {
    x[1] * x[1] + x[2] * x[2] + x[0] * x[2..].iter().sum::<f64>()
}

#[differentiable(jvp)]
fn single(x: &[f32]) -> f32 {
    let s = &x[1..];
    s[0] * s[1] + x[..2].iter().map(|v| v.exp()).sum::<f32>()
}

/// A checkpointed loop whose body reads a sub-slice of the state at a
/// step-dependent offset: s = Σ_k Σ_{j<2} x[k + j]·c, c updated.
#[differentiable]
fn checkpointed(x: &[f64], n: usize) -> f64 {
    let mut c = 1.0;
    let mut s = 0.0;
    #[checkpoint]
    for k in 0..n {
        let w = &x[k..k + 2];
        s += c * (w[0] * w[1]).sin();
        c = c * 0.5 + w.iter().sum::<f64>() * 0.1;
    }
    s
}

fn checkpointed_plain(x: &[f64], n: usize) -> f64 {
    let mut c = 1.0;
    let mut s = 0.0;
    for k in 0..n {
        s += c * (x[k] * x[k + 1]).sin();
        c = c * 0.5 + (x[k] + x[k + 1]) * 0.1;
    }
    s
}

#[differentiable(jvp)]
fn of_dvector(v: &DVector<f64>) -> f64 {
    let s = &v.as_slice()[1..];
    weighted_squares(&v.as_slice()[..2]) + s.iter().sum::<f64>() * s[0]
}

fn of_dvector_closed(v: &[f64]) -> f64 {
    v[0] * v[0] + 2.0 * v[1] * v[1] + v[1..].iter().sum::<f64>() * v[1]
}

/// A local array and an array argument passed where a slice is taken.
#[differentiable(jvp, hessian)]
fn arrays_as_slices(x: &[f64; 3], t: f64) -> f64 {
    let y = [x[0] * t, x[1], x[2] * x[2]];
    weighted_squares(&y) + weighted_squares(x) + sum_squares(&y[1..])
}

fn arrays_as_slices_closed(x: &[f64]) -> f64 {
    let t = x[3];
    let y = [x[0] * t, x[1], x[2] * x[2]];
    let ws = |v: &[f64]| {
        v.iter()
            .enumerate()
            .map(|(i, a)| a * a * (i + 1) as f64)
            .sum::<f64>()
    };
    ws(&y) + ws(&x[..3]) + y[1] * y[1] + y[2] * y[2]
}

#[test]
fn generic_f32_checkpoint_nalgebra_and_arrays() {
    let x = [0.3, -1.2, 0.7, 2.0, -0.4];
    // Central differences: 1e-7 relative at f64, 1e-3 at f32.
    let (v, g) = generic_parts_grad(&x);
    assert_relative_eq!(
        v,
        generic_parts_closed(&x),
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    close(&g, &fd(generic_parts_closed, &x), 1e-7);
    let dir = [1.0, 0.5, -0.25, 0.0, 2.0];
    let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    assert_relative_eq!(
        generic_parts_jvp(&x, &dir).1,
        dot,
        epsilon = 1e-13,
        max_relative = 1e-13
    );
    let x32: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let (_, g32) = generic_parts_grad(&x32);
    let g32: Vec<f64> = g32.iter().map(|&v| v as f64).collect();
    close(&g32, &g, 1e-5);

    let (_, g) = single_grad(&x32);
    let single_closed = |y: &[f64]| y[1] * y[2] + y[0].exp() + y[1].exp();
    let want = fd(single_closed, &x[..3]);
    for (a, b) in g.iter().zip(&want) {
        assert_relative_eq!(*a as f64, *b, epsilon = 1e-5, max_relative = 1e-5);
    }
    assert_eq!(g.len(), 5);

    let (v, g) = checkpointed_grad(&x, 4);
    assert_relative_eq!(
        v,
        checkpointed_plain(&x, 4),
        epsilon = 1e-14,
        max_relative = 1e-14
    );
    close(&g, &fd(|y| checkpointed_plain(y, 4), &x), 1e-7);

    let dv = DVector::from_column_slice(&x);
    let (v, g) = of_dvector_grad(&dv);
    assert_relative_eq!(
        v,
        of_dvector_closed(&x),
        epsilon = 1e-13,
        max_relative = 1e-13
    );
    close(g.as_slice(), &fd(of_dvector_closed, &x), 1e-7);
    let dot: f64 = g.iter().zip(&dir).map(|(a, b)| a * b).sum();
    let (_, t) = of_dvector_jvp(&dv, &DVector::from_column_slice(&dir));
    assert_relative_eq!(t, dot, epsilon = 1e-13, max_relative = 1e-13);

    let (a, t) = ([0.5, -1.5, 0.8], 1.3);
    let xt = [a[0], a[1], a[2], t];
    let want = fd(arrays_as_slices_closed, &xt);
    let (v, da, dt) = arrays_as_slices_grad(&a, t);
    assert_relative_eq!(
        v,
        arrays_as_slices_closed(&xt),
        epsilon = 1e-13,
        max_relative = 1e-13
    );
    close(&[da[0], da[1], da[2], dt], &want, 1e-7);
    let (_, pb) = arrays_as_slices_vjp(&a, t);
    let (da2, dt2) = pb(1.0);
    close(&[da2[0], da2[1], da2[2], dt2], &want, 1e-7);
    let (_, tan) = arrays_as_slices_jvp(&a, t, &[1.0, 0.0, 0.0], 0.5);
    assert_relative_eq!(
        tan,
        want[0] + 0.5 * want[3],
        epsilon = 1e-6,
        max_relative = 1e-6
    );
    assert!(arrays_as_slices_check(&a, t).is_within(1e-7, 1e-6));
    let (_, _, h) = arrays_as_slices_hessian(&a, t);
    for j in 0..4 {
        let col = fd(|y| fd(arrays_as_slices_closed, y)[j], &xt);
        for i in 0..4 {
            assert_relative_eq!(h[(i, j)], col[i], epsilon = 1e-4, max_relative = 1e-4);
        }
    }
}

/// A name bound to a sub-slice, passed whole and in part: x[1]² + 2·x[2]²
/// + x[2]².
#[differentiable(jvp)]
fn named_part(x: &[f64]) -> f64 {
    let s = &x[1..=2];
    weighted_squares(s) + weighted_squares(&s[1..])
}

#[test]
fn a_named_sub_slice_passed() {
    let x = [0.5, -1.5, 0.8, 3.0];
    let (v, g) = named_part_grad(&x);
    // Closed form, to rounding: 1e-15.
    assert_relative_eq!(
        v,
        1.5 * 1.5 + 3.0 * 0.64,
        epsilon = 1e-15,
        max_relative = 1e-15
    );
    close(&g, &[0.0, -3.0, 6.0 * 0.8, 0.0], 1e-15);
    let (_, t) = named_part_jvp(&x, &[1.0, 1.0, 1.0, 1.0]);
    assert_relative_eq!(t, -3.0 + 4.8, epsilon = 1e-15, max_relative = 1e-15);
}

/// A call's result sliced (`r[1..]`) and a named sub-slice copied out
/// (`part.to_vec()`).
#[differentiable]
fn sliced_result(x: &[f64]) -> f64 {
    let r = rodrigues_rotate(&x[0..3], &x[3..6]);
    let part = &x[1..4];
    let v = part.to_vec();
    r[1..].iter().sum::<f64>() + v[0] * v[2]
}

#[test]
fn a_call_result_sliced_and_a_sub_slice_copied() {
    let x = [0.1, -0.2, 0.3, 0.5, -0.4, 1.5];
    let (v, g) = sliced_result_grad(&x);
    assert_eq!(v.to_bits(), sliced_result(&x).to_bits());
    // Central differences of the primal: 1e-7 relative.
    close(&g, &fd(sliced_result, &x), 1e-7);
}
