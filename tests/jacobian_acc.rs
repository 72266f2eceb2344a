//! `NAME_jacobian_acc(args.., jac) -> RET`: the Jacobian (outputs ×
//! flattened inputs) added into the caller's matrix, for every result of
//! several floats; a matrix of another shape is a panic naming both shapes,
//! before anything is added; `NAME_jacobian` is the same code into zeros
//! (bit for bit); a bundle-adjustment block (2×15, the reprojection
//! residual of ADBench's BA) allocates nothing per call once warmed up.
//!
//! Expected values are closed forms, or central differences of the primal
//! (BA block: step 1e-6, tolerance 1e-6 relative to the block's largest
//! entry).

use std::hint::black_box;

use approx::assert_relative_eq;
use autograd::differentiable;
use autograd::nalgebra::{DMatrix, DVector, Vector3};

mod alloc_support;
use alloc_support::allocations_during;

/// (x₀x₁, x₁y, sin x₀ + y²): a slice and a float, an array result.
#[differentiable]
fn arr(x: &[f64], y: f64) -> [f64; 3] {
    [x[0] * x[1], x[1] * y, x[0].sin() + y * y]
}

fn arr_closed(x: &[f64], y: f64) -> DMatrix<f64> {
    DMatrix::from_row_slice(
        3,
        3,
        &[x[1], x[0], 0.0, 0.0, y, x[1], x[0].cos(), 0.0, 2.0 * y],
    )
}

/// (x₀x₁, exp x₁): a `Vec` result.
#[differentiable]
fn vec_out(x: &[f64]) -> Vec<f64> {
    vec![x[0] * x[1], x[1].exp()]
}

/// (a₀ + a₁, a₀a₁): a `DVector` result of an array argument.
#[differentiable]
fn dvec_out(a: &[f64; 2]) -> DVector<f64> {
    DVector::from_vec(vec![a[0] + a[1], a[0] * a[1]])
}

/// (x·y, x − y, y²): a fixed-size vector result.
#[differentiable]
fn svec_out(x: f64, y: f64) -> Vector3<f64> {
    Vector3::new(x * y, x - y, y * y)
}

/// (x·y₀, y₀ + y₁): a tuple result.
#[differentiable]
fn tuple_out(x: f64, y: &[f64]) -> (f64, f64) {
    (x * y[0], y[0] + y[1])
}

/// (x₀², x₀x₁): in `f32`.
#[differentiable]
fn f32_out(x: &[f32]) -> [f32; 2] {
    [x[0] * x[0], x[0] * x[1]]
}

/// (t, t², sin t): one input, three outputs, so `jvp` sweeps forward.
#[differentiable(jvp)]
fn curve(t: f64) -> [f64; 3] {
    [t, t * t, t.sin()]
}

/// (t₀, t₀², t₀t₁, sin t₁): a slice of two inputs, four outputs, so `jvp`
/// sweeps forward along pooled slice directions.
#[differentiable(jvp)]
fn surface(t: &[f64]) -> [f64; 4] {
    [t[0], t[0] * t[0], t[0] * t[1], t[1].sin()]
}

/// A `Tangent` struct argument: its fields are its columns.
#[derive(Clone, Debug, autograd::Tangent)]
struct Pair {
    a: f64,
    b: f64,
}

/// (a·t, b + t).
#[differentiable]
fn pair_out(p: &Pair, t: f64) -> [f64; 2] {
    [p.a * t, p.b + t]
}

/// An argument named like `_jacobian_acc`'s matrix: the two do not meet.
#[differentiable]
fn named_jac(jac: &[f64], t: f64) -> [f64; 2] {
    [jac[0] * t, jac[1] + t]
}

/// The camera's rotation (Rodrigues), projection, radial distortion,
/// focal length and principal point, and the weighted residual against
/// the feature: ADBench's BA reprojection residual with array arguments.
#[differentiable]
fn reproj(cam: &[f64; 11], x: &[f64; 3], w: f64, #[constant] feat: &[f64; 2]) -> [f64; 2] {
    let xo = [x[0] - cam[3], x[1] - cam[4], x[2] - cam[5]];
    let sqtheta = cam[0] * cam[0] + cam[1] * cam[1] + cam[2] * cam[2];
    let theta = sqtheta.sqrt();
    let (c, s) = (theta.cos(), theta.sin());
    let k = [cam[0] / theta, cam[1] / theta, cam[2] / theta];
    let cross = [
        k[1] * xo[2] - k[2] * xo[1],
        k[2] * xo[0] - k[0] * xo[2],
        k[0] * xo[1] - k[1] * xo[0],
    ];
    let tmp = (k[0] * xo[0] + k[1] * xo[1] + k[2] * xo[2]) * (1.0 - c);
    let xc = [
        xo[0] * c + cross[0] * s + k[0] * tmp,
        xo[1] * c + cross[1] * s + k[1] * tmp,
        xo[2] * c + cross[2] * s + k[2] * tmp,
    ];
    let p = [xc[0] / xc[2], xc[1] / xc[2]];
    let rsq = p[0] * p[0] + p[1] * p[1];
    let l = 1.0 + cam[9] * rsq + cam[10] * rsq * rsq;
    [
        w * (p[0] * l * cam[6] + cam[7] - feat[0]),
        w * (p[1] * l * cam[6] + cam[8] - feat[1]),
    ]
}

const CAM: [f64; 11] = [
    0.1, -0.2, 0.15, 0.3, -0.1, -5.0, 800.0, 320.0, 240.0, 1e-3, -2e-6,
];
const PT: [f64; 3] = [0.4, -0.3, 2.0];
const FEAT: [f64; 2] = [330.0, 230.0];

/// A matrix of distinct nonzero entries, the caller's earlier sum.
fn start(rows: usize, cols: usize) -> DMatrix<f64> {
    DMatrix::from_fn(rows, cols, |i, j| 0.5 + i as f64 - 0.25 * j as f64)
}

fn assert_added(got: &DMatrix<f64>, j0: &DMatrix<f64>, want: &DMatrix<f64>) {
    assert_eq!(got.shape(), want.shape());
    for (g, (a, b)) in got.iter().zip(j0.iter().zip(want.iter())) {
        assert_relative_eq!(*g, a + b, epsilon = 1e-12, max_relative = 1e-12);
    }
}

#[test]
fn an_array_result_adds_its_closed_form_jacobian() {
    let (x, y) = ([0.7, -1.3], 0.4);
    let j0 = start(3, 3);
    let mut jac = j0.clone();
    let value = arr_jacobian_acc(&x, y, &mut jac);
    assert_eq!(value, arr(&x, y));
    assert_added(&jac, &j0, &arr_closed(&x, y));
    // Twice: twice the Jacobian on top of J0.
    arr_jacobian_acc(&x, y, &mut jac);
    assert_added(&jac, &j0, &(arr_closed(&x, y) * 2.0));
}

#[test]
fn every_result_kind_adds_its_closed_form_jacobian() {
    let x = [0.7, -1.3];
    let j0 = start(2, 2);

    let mut jac = j0.clone();
    assert_eq!(vec_out_jacobian_acc(&x, &mut jac), vec_out(&x));
    let want = DMatrix::from_row_slice(2, 2, &[x[1], x[0], 0.0, x[1].exp()]);
    assert_added(&jac, &j0, &want);

    let mut jac = j0.clone();
    assert_eq!(dvec_out_jacobian_acc(&x, &mut jac), dvec_out(&x));
    let want = DMatrix::from_row_slice(2, 2, &[1.0, 1.0, x[1], x[0]]);
    assert_added(&jac, &j0, &want);

    let (a, b) = (1.5, -0.5);
    let j0 = start(3, 2);
    let mut jac = j0.clone();
    assert_eq!(svec_out_jacobian_acc(a, b, &mut jac), svec_out(a, b));
    let want = DMatrix::from_row_slice(3, 2, &[b, a, 1.0, -1.0, 0.0, 2.0 * b]);
    assert_added(&jac, &j0, &want);

    let j0 = start(2, 3);
    let mut jac = j0.clone();
    assert_eq!(tuple_out_jacobian_acc(a, &x, &mut jac), tuple_out(a, &x));
    let want = DMatrix::from_row_slice(2, 3, &[x[0], a, 0.0, 0.0, 1.0, 1.0]);
    assert_added(&jac, &j0, &want);
}

#[test]
fn forward_sweeps_add_into_the_columns() {
    let t = 0.6;
    let j0 = start(3, 1);
    let mut jac = j0.clone();
    assert_eq!(curve_jacobian_acc(t, &mut jac), curve(t));
    let want = DMatrix::from_column_slice(3, 1, &[1.0, 2.0 * t, t.cos()]);
    assert_added(&jac, &j0, &want);
}

#[test]
fn an_f32_function_adds_into_an_f64_matrix() {
    // As `_jacobian`'s matrix, the buffer is `DMatrix<f64>` whatever the
    // function's float (SPEC).
    let x = [1.5_f32, -2.0];
    let j0 = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
    let mut jac = j0.clone();
    assert_eq!(f32_out_jacobian_acc(&x, &mut jac), f32_out(&x));
    let want = [2.0 * x[0], 0.0, x[1], x[0]].map(f64::from);
    let want = DMatrix::from_row_slice(2, 2, &want);
    for (g, (a, b)) in jac.iter().zip(j0.iter().zip(want.iter())) {
        assert_relative_eq!(*g, a + b, epsilon = 1e-6, max_relative = 1e-6);
    }
    // Into zeros, `_jacobian`'s matrix exactly.
    let (_, j) = f32_out_jacobian(&x);
    let mut zero = DMatrix::<f64>::zeros(2, 2);
    f32_out_jacobian_acc(&x, &mut zero);
    assert_eq!(zero, j);
}

#[test]
fn jacobian_acc_into_zeros_is_jacobian_bit_for_bit() {
    let (x, y) = ([0.7, -1.3], 0.4);
    let (value, j) = arr_jacobian(&x, y);
    let mut jac = DMatrix::zeros(3, 3);
    assert_eq!(arr_jacobian_acc(&x, y, &mut jac), value);
    assert_eq!(jac.as_slice().len(), j.as_slice().len());
    for (a, b) in jac.iter().zip(j.iter()) {
        assert_eq!(a.to_bits(), b.to_bits());
    }
    let (value, j) = reproj_jacobian(&CAM, &PT, 0.8, &FEAT);
    let mut jac = DMatrix::zeros(2, 15);
    assert_eq!(reproj_jacobian_acc(&CAM, &PT, 0.8, &FEAT, &mut jac), value);
    for (a, b) in jac.iter().zip(j.iter()) {
        assert_eq!(a.to_bits(), b.to_bits());
    }
    let (_, j) = curve_jacobian(0.6);
    let mut jac = DMatrix::zeros(3, 1);
    curve_jacobian_acc(0.6, &mut jac);
    assert_eq!(jac, j);
}

#[test]
#[should_panic(expected = "autograd: the Jacobian buffer is 3×2, the Jacobian 3×3")]
fn a_matrix_with_too_few_columns_panics() {
    let mut jac = DMatrix::zeros(3, 2);
    arr_jacobian_acc(&[0.7, -1.3], 0.4, &mut jac);
}

#[test]
#[should_panic(expected = "autograd: the Jacobian buffer is 2×15, the Jacobian 3×1")]
fn a_matrix_of_another_shape_panics_in_forward_sweeps() {
    let mut jac = DMatrix::zeros(2, 15);
    curve_jacobian_acc(0.6, &mut jac);
}

#[test]
fn a_wrong_shape_adds_nothing() {
    let mut jac = start(2, 3);
    let before = jac.clone();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        arr_jacobian_acc(&[0.7, -1.3], 0.4, &mut jac);
    }));
    assert!(caught.is_err());
    assert_eq!(jac, before);
}

#[test]
fn the_ba_block_matches_central_differences() {
    let w = 0.8;
    let mut jac = DMatrix::zeros(2, 15);
    let e = reproj_jacobian_acc(&CAM, &PT, w, &FEAT, &mut jac);
    assert_eq!(e, reproj(&CAM, &PT, w, &FEAT));
    let flat: Vec<f64> = CAM.iter().chain(&PT).chain([&w]).copied().collect();
    let eval = |a: &[f64]| {
        let cam: [f64; 11] = a[..11].try_into().unwrap();
        let pt: [f64; 3] = a[11..14].try_into().unwrap();
        reproj(&cam, &pt, a[14], &FEAT)
    };
    let scale = jac.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for c in 0..15 {
        let h = 1e-6 * flat[c].abs().max(1.0);
        let (mut up, mut down) = (flat.clone(), flat.clone());
        up[c] += h;
        down[c] -= h;
        let (fu, fd) = (eval(&up), eval(&down));
        for r in 0..2 {
            let fdiff = (fu[r] - fd[r]) / (2.0 * h);
            assert_relative_eq!(
                jac[(r, c)],
                fdiff,
                epsilon = 1e-6 * scale,
                max_relative = 1e-6
            );
        }
    }
}

#[test]
fn the_ba_block_allocates_nothing_per_call() {
    let mut jac = DMatrix::zeros(2, 15);
    // Warm up: anything lazily initialized happens outside the window.
    reproj_jacobian_acc(&CAM, &PT, 0.8, &FEAT, &mut jac);
    let (e, n) = allocations_during(|| {
        reproj_jacobian_acc(
            black_box(&CAM),
            black_box(&PT),
            black_box(0.8),
            black_box(&FEAT),
            black_box(&mut jac),
        )
    });
    assert_eq!(n, 0, "reproj_jacobian_acc allocated {n} times");
    assert_eq!(e, reproj(&CAM, &PT, 0.8, &FEAT));
}

#[test]
fn slice_arguments_and_an_array_result_allocate_nothing_per_call() {
    // The slices' adjoints come from the thread's pool and go back to it.
    let (x, y) = ([0.7, -1.3], 0.4);
    let mut jac = DMatrix::zeros(3, 3);
    arr_jacobian_acc(&x, y, &mut jac);
    let (_, n) =
        allocations_during(|| arr_jacobian_acc(black_box(&x), black_box(y), black_box(&mut jac)));
    assert_eq!(n, 0, "arr_jacobian_acc allocated {n} times");
}

#[test]
fn a_vec_result_allocates_itself_and_one_seed_per_output() {
    let x = [0.7, -1.3];
    let mut jac = DMatrix::zeros(2, 2);
    vec_out_jacobian_acc(&x, &mut jac);
    let (_, n) = allocations_during(|| vec_out_jacobian_acc(black_box(&x), black_box(&mut jac)));
    // The returned `Vec`, and the seed of each of the 2 reverse sweeps
    // (the pullback takes it by value).
    assert_eq!(n, 1 + 2, "vec_out_jacobian_acc allocated {n} times");
}

#[test]
fn forward_sweeps_along_a_slice_allocate_nothing_per_call() {
    let t = [0.6, -0.2];
    let j0 = start(4, 2);
    let mut jac = j0.clone();
    assert_eq!(surface_jacobian_acc(&t, &mut jac), surface(&t));
    let want = DMatrix::from_row_slice(
        4,
        2,
        &[1.0, 0.0, 2.0 * t[0], 0.0, t[1], t[0], 0.0, t[1].cos()],
    );
    assert_added(&jac, &j0, &want);
    let (_, n) = allocations_during(|| surface_jacobian_acc(black_box(&t), black_box(&mut jac)));
    assert_eq!(n, 0, "surface_jacobian_acc allocated {n} times");
}

#[test]
fn a_struct_argument_adds_its_fields_columns() {
    let (p, t) = (Pair { a: 1.5, b: -0.5 }, 0.7);
    let j0 = start(2, 3);
    let mut jac = j0.clone();
    assert_eq!(pair_out_jacobian_acc(&p, t, &mut jac), pair_out(&p, t));
    let want = DMatrix::from_row_slice(2, 3, &[t, 0.0, p.a, 0.0, 1.0, 1.0]);
    assert_added(&jac, &j0, &want);
    assert_eq!(pair_out_jacobian(&p, t).1, want);
}

#[test]
#[should_panic(expected = "autograd: the Jacobian buffer is 3×3, the Jacobian 2×3")]
fn a_struct_function_panics_on_a_wrong_shape() {
    let mut jac = DMatrix::zeros(3, 3);
    pair_out_jacobian_acc(&Pair { a: 1.0, b: 2.0 }, 0.5, &mut jac);
}

#[test]
fn an_argument_named_jac_is_not_the_matrix() {
    let (x, t) = ([2.0, 3.0], 0.5);
    let mut jac = DMatrix::zeros(2, 3);
    assert_eq!(named_jac_jacobian_acc(&x, t, &mut jac), named_jac(&x, t));
    let want = DMatrix::from_row_slice(2, 3, &[t, 0.0, x[0], 0.0, 1.0, 1.0]);
    assert_eq!(jac, want);
}
