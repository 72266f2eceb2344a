//! GradientCheck: passes a correct adjoint, fails a wrong one and names
//! it, fails on NaN, for scalars (f64, f32), slices, matrices and vectors.

use approx::assert_relative_eq;
use autograd_runtime::{GradientCheck, Position, central_difference, central_difference_step};
use nalgebra::{DMatrix, DVector};

#[test]
fn central_difference_of_closed_forms() {
    // d/dx x³ = 3x², at 2 → 12.
    assert_relative_eq!(
        central_difference(|x: f64| x * x * x, 2.0),
        12.0,
        epsilon = 1e-8,
        max_relative = 1e-9
    );
    assert_relative_eq!(
        central_difference(|x: f64| x.exp(), 1.0),
        std::f64::consts::E,
        epsilon = 1e-8,
        max_relative = 1e-9
    );
    // f32: the step is ∛ε₃₂ ≈ 4.9e-3.
    assert_relative_eq!(
        central_difference(|x: f32| x * x, 3.0_f32),
        6.0,
        epsilon = 1e-3,
        max_relative = 1e-3
    );
}

#[test]
fn step_is_cbrt_epsilon_scaled_by_max_1_abs_x() {
    let base = f64::EPSILON.cbrt();
    assert_relative_eq!(
        central_difference_step(0.0_f64),
        base,
        epsilon = 0.0,
        max_relative = 1e-15
    );
    assert_relative_eq!(
        central_difference_step(0.25_f64),
        base,
        epsilon = 0.0,
        max_relative = 1e-15
    );
    assert_relative_eq!(
        central_difference_step(-400.0_f64),
        400.0 * base,
        epsilon = 0.0,
        max_relative = 1e-15
    );
    let base32 = f64::from(f32::EPSILON).cbrt();
    assert_relative_eq!(
        f64::from(central_difference_step(1.0_f32)),
        base32,
        epsilon = 0.0,
        max_relative = 1e-6
    );
}

fn w(x: f64, y: f64) -> f64 {
    x * y + x
}

#[test]
fn a_correct_adjoint_passes() {
    let (x, y) = (3.0, 4.0);
    let mut check = GradientCheck::new(w(x, y));
    check.scalar("x", x, 5.0, |x| w(x, y));
    check.scalar("y", y, 3.0, |y| w(x, y));
    assert!(check.is_within(1e-8, 1e-8), "{check}");
    assert!(check.max_abs_error() < 1e-8);
    assert!(check.max_rel_error() < 1e-8);
    assert_eq!(check.value(), 15.0);
    assert_eq!(check.components().len(), 2);
    let report = check.to_string();
    assert!(
        report.contains("x: adjoint") && report.contains("y: adjoint"),
        "{report}"
    );
}

#[test]
fn a_wrong_adjoint_fails_and_is_named_the_worst() {
    let (x, y) = (3.0, 4.0);
    let mut check = GradientCheck::new(w(x, y));
    check.scalar("x", x, 5.0, |x| w(x, y));
    check.scalar("y", y, 4.0, |y| w(x, y)); // should be 3
    assert!(!check.is_within(1e-6, 1e-6));
    let worst = check.worst().unwrap();
    assert_eq!(
        (worst.argument.as_str(), worst.position),
        ("y", Position::Scalar)
    );
    assert_relative_eq!(worst.abs_error, 1.0, epsilon = 1e-8, max_relative = 1e-8);
    assert_relative_eq!(worst.rel_error, 0.25, epsilon = 1e-8, max_relative = 1e-8);
    assert_relative_eq!(
        check.max_abs_error(),
        1.0,
        epsilon = 1e-8,
        max_relative = 1e-8
    );
    assert!(check.to_string().ends_with("worst: y"), "{check}");
    // A loose enough tolerance accepts it: the test is relative + absolute.
    assert!(check.is_within(1.01, 0.0));
    assert!(check.is_within(0.0, 0.3));
}

#[test]
fn nan_anywhere_fails() {
    let (x, y) = (3.0, 4.0);
    let mut nan_adjoint = GradientCheck::new(w(x, y));
    nan_adjoint.scalar("x", x, f64::NAN, |x| w(x, y));
    nan_adjoint.scalar("y", y, 3.0, |y| w(x, y));
    assert!(!nan_adjoint.is_within(1e9, 1e9));
    assert!(nan_adjoint.max_abs_error().is_nan());
    assert!(nan_adjoint.max_rel_error().is_nan());
    assert_eq!(nan_adjoint.worst().unwrap().argument, "x");

    let mut nan_function = GradientCheck::new(0.0);
    nan_function.scalar("x", 1.0, 1.0, |_: f64| f64::NAN);
    assert!(!nan_function.is_within(1e9, 1e9));

    let mut nan_value = GradientCheck::new(f64::NAN);
    nan_value.scalar("x", 1.0, 2.0, |x: f64| 2.0 * x);
    assert!(!nan_value.is_within(1e9, 1e9));
}

#[test]
fn f32_arguments() {
    let f = |x: f32| x.sin() * x;
    let x = 0.8_f32;
    let mut check = GradientCheck::new(f64::from(f(x)));
    check.scalar("x", x, x.cos() * x + x.sin(), f);
    assert!(check.is_within(1e-4, 1e-4), "{check}");
}

#[test]
fn slices_are_checked_element_by_element() {
    // f(v) = Σ v_i², ∇f = 2v.
    let f = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>();
    let v = [1.0, -2.0, 3.0];
    let dv = [2.0, -4.0, 6.0];
    let mut check = GradientCheck::new(f(&v));
    check.slice("v", &v, &dv, |v: &Vec<f64>| f(v));
    assert!(check.is_within(1e-8, 1e-8), "{check}");
    assert_eq!(check.components().len(), 3);

    let wrong = [2.0, -4.0, 7.0];
    let mut check = GradientCheck::new(f(&v));
    check.slice("v", &v, &wrong, |v: &Vec<f64>| f(v));
    assert!(!check.is_within(1e-6, 1e-6));
    assert_eq!(check.worst().unwrap().position, Position::Element(2));
    assert!(check.to_string().contains("worst: v[2]"), "{check}");

    // f32 slices too.
    let v32 = [0.5_f32, 1.5];
    let mut check = GradientCheck::new(1.0);
    check.slice("w", &v32, &[1.0_f32, 3.0], |v: &Vec<f32>| {
        v.iter().map(|x| x * x).sum()
    });
    assert!(check.is_within(1e-3, 1e-3), "{check}");
}

#[test]
fn a_length_mismatch_fails() {
    let mut check = GradientCheck::new(0.0);
    check.slice("v", &[1.0, 2.0], &[1.0], |v: &Vec<f64>| v[0]);
    assert!(!check.is_within(1e9, 1e9));
    assert_eq!(check.problems().len(), 1);
    assert!(
        check.to_string().contains("problem: argument `v`"),
        "{check}"
    );

    let mut check = GradientCheck::new(0.0);
    check.matrix("m", &DMatrix::zeros(2, 2), &DMatrix::zeros(2, 3), |m| {
        m.sum()
    });
    check.vector("u", &DVector::zeros(2), &DVector::zeros(3), |u| u.sum());
    assert_eq!(check.problems().len(), 2);
    assert!(!check.is_within(1e9, 1e9));
}

#[test]
fn matrices_and_vectors_are_checked_entry_by_entry() {
    // f(M) = Σ M_ij³, ∇f = 3M∘M.
    let m = DMatrix::from_row_slice(2, 3, &[1.0, -2.0, 0.5, 3.0, 0.0, -1.0]);
    let f = |m: &DMatrix<f64>| m.map(|x| x * x * x).sum();
    let dm = m.map(|x| 3.0 * x * x);
    let mut check = GradientCheck::new(f(&m));
    check.matrix("m", &m, &dm, f);
    assert!(check.is_within(1e-8, 1e-8), "{check}");

    let mut wrong = dm.clone();
    wrong[(1, 2)] += 0.5;
    let mut check = GradientCheck::new(f(&m));
    check.matrix("m", &m, &wrong, f);
    assert!(!check.is_within(1e-6, 1e-6));
    assert_eq!(
        check.worst().unwrap().position,
        Position::Entry { row: 1, col: 2 }
    );

    // f(u) = ‖u‖², ∇f = 2u.
    let u = DVector::from_vec(vec![0.5, -1.5, 2.0]);
    let mut check = GradientCheck::new(u.norm_squared());
    check.vector("u", &u, &(&u * 2.0), |u| u.norm_squared());
    assert!(check.is_within(1e-8, 1e-8), "{check}");
}

#[test]
fn an_empty_check_and_the_derives() {
    let check = GradientCheck::new(1.0);
    assert!(check.is_within(0.0, 0.0));
    assert!(check.worst().is_none());
    assert_eq!(check.max_abs_error(), 0.0);
    let copy = check.clone();
    assert_eq!(copy, check);
    assert!(format!("{check:?}").contains("GradientCheck"));
    assert!(check.to_string().contains("no component"));
}
