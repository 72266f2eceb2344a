//! The matrix rules: the seed's matrix examples, the lifted element-wise
//! rules against the scalar ones and against finite differences (the
//! dot-product identity), and the shape of every adjoint.

mod common;

use approx::assert_relative_eq;
use autograd_runtime::prelude::ElementwiseActivation;
use autograd_runtime::rules::{self, elementwise as ew, linalg, reductions, shape};
use common::{Rng, directional_fd, dot};
use nalgebra::{DMatrix, DVector};

type M = DMatrix<f64>;

fn x_2x3() -> M {
    M::from_row_slice(2, 3, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
}

fn m_3x2() -> M {
    M::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
}

// ---- matmul ----

#[test]
fn matmul_forward_is_the_seed_product() {
    assert_eq!(
        linalg::matmul(&x_2x3(), &m_3x2()),
        M::from_row_slice(2, 2, &[22.0, 28.0, 49.0, 64.0])
    );
}

#[test]
fn matmul_adjoints_with_an_all_ones_upstream() {
    let (x, m) = (x_2x3(), m_3x2());
    let ones = M::repeat(2, 2, 1.0);
    let dx = linalg::matmul_grad_lhs(&ones, &m);
    let dm = linalg::matmul_grad_rhs(&ones, &x);
    assert_eq!(
        dx,
        M::from_row_slice(2, 3, &[3.0, 7.0, 11.0, 3.0, 7.0, 11.0])
    );
    assert_eq!(dm, M::from_row_slice(3, 2, &[5.0, 5.0, 7.0, 7.0, 9.0, 9.0]));
    // Each adjoint has its operand's shape.
    assert_eq!(dx.shape(), x.shape());
    assert_eq!(dm.shape(), m.shape());
}

#[test]
fn matmul_adjoint_with_an_identity_upstream_is_m_transposed() {
    // Self-check 3: I·Mᵀ = Mᵀ = [[1,3,5],[2,4,6]].
    let (x, m) = (x_2x3(), m_3x2());
    let eye = M::identity(2, 2);
    let dx = linalg::matmul_grad_lhs(&eye, &m);
    assert_eq!(dx, M::from_row_slice(2, 3, &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]));
    assert_eq!(linalg::matmul_grad_rhs(&eye, &x), x.transpose());
}

#[test]
fn matmul_accumulating_forms_add_in_place() {
    let (x, m) = (x_2x3(), m_3x2());
    let ones = M::repeat(2, 2, 1.0);
    let mut dx = M::repeat(2, 3, 0.5);
    linalg::matmul_grad_lhs_acc(&mut dx, &ones, &m);
    assert_eq!(
        dx,
        M::from_row_slice(2, 3, &[3.5, 7.5, 11.5, 3.5, 7.5, 11.5])
    );
    let mut dm = M::repeat(3, 2, -1.0);
    linalg::matmul_grad_rhs_acc(&mut dm, &ones, &x);
    assert_eq!(dm, M::from_row_slice(3, 2, &[4.0, 4.0, 6.0, 6.0, 8.0, 8.0]));
}

#[test]
fn matmul_adjoints_match_the_textbook_formulas_on_many_shapes() {
    // Shapes on both sides of nalgebra's switch to its blocked kernel
    // (every dimension above 5), degenerate ones included.
    let mut rng = Rng::new(7);
    let dims = [0, 1, 2, 5, 6, 9];
    for &r in &dims {
        for &k in &dims {
            for &c in &dims {
                let a = rng.signed_matrix(r, k, 0.1, 2.0);
                let b = rng.signed_matrix(k, c, 0.1, 2.0);
                let g = rng.signed_matrix(r, c, 0.1, 2.0);
                let dx = linalg::matmul_grad_lhs(&g, &b);
                let db = linalg::matmul_grad_rhs(&g, &a);
                assert_eq!(dx.shape(), a.shape());
                assert_eq!(db.shape(), b.shape());
                assert_relative_eq!(
                    dx,
                    &g * b.transpose(),
                    epsilon = 1e-12,
                    max_relative = 1e-12
                );
                assert_relative_eq!(
                    db,
                    a.transpose() * &g,
                    epsilon = 1e-12,
                    max_relative = 1e-12
                );

                let mut acc = M::repeat(r, k, 1.0);
                linalg::matmul_grad_lhs_acc(&mut acc, &g, &b);
                assert_relative_eq!(
                    acc,
                    dx.add_scalar(1.0),
                    epsilon = 1e-12,
                    max_relative = 1e-12
                );
                let mut acc = M::repeat(k, c, 1.0);
                linalg::matmul_grad_rhs_acc(&mut acc, &g, &a);
                assert_relative_eq!(
                    acc,
                    db.add_scalar(1.0),
                    epsilon = 1e-12,
                    max_relative = 1e-12
                );
            }
        }
    }
}

#[test]
fn matmul_adjoints_satisfy_the_dot_product_identity() {
    let mut rng = Rng::new(11);
    for _ in 0..5 {
        let (a, b) = (
            rng.signed_matrix(3, 4, 0.1, 2.0),
            rng.signed_matrix(4, 2, 0.1, 2.0),
        );
        let c = rng.signed_matrix(3, 2, 0.1, 2.0);
        let (ta, tb) = (
            rng.signed_matrix(3, 4, 0.1, 1.0),
            rng.signed_matrix(4, 2, 0.1, 1.0),
        );
        let lhs = dot(&linalg::matmul_grad_lhs(&c, &b), &ta);
        let fd = directional_fd(|a| linalg::matmul(a, &b), &a, &ta, &c);
        assert_relative_eq!(lhs, fd, epsilon = 1e-7, max_relative = 1e-7);
        let rhs = dot(&linalg::matmul_grad_rhs(&c, &a), &tb);
        let fd = directional_fd(|b| linalg::matmul(&a, b), &b, &tb, &c);
        assert_relative_eq!(rhs, fd, epsilon = 1e-7, max_relative = 1e-7);
    }
}

// ---- reductions ----

#[test]
fn sum_broadcasts_its_adjoint() {
    let x = M::from_row_slice(1, 4, &[1.0, 4.0, 9.0, 16.0]);
    assert_eq!(reductions::sum(&x), 30.0);
    let dx = reductions::sum_grad(1.0, x.nrows(), x.ncols());
    assert_eq!(dx, M::repeat(1, 4, 1.0));
    let mut acc = M::repeat(1, 4, 2.0);
    reductions::sum_grad_acc(&mut acc, 0.5);
    assert_eq!(acc, M::repeat(1, 4, 2.5));
}

#[test]
fn max_routes_the_adjoint_through_the_winner() {
    let x = M::from_row_slice(1, 4, &[3.0, 7.0, 2.0, 9.0]);
    let (value, index) = reductions::max(&x);
    assert_eq!((value, index), (9.0, 3));
    assert_eq!(value, x.max()); // the value nalgebra's own max gives
    let dx = reductions::max_grad(1.0, 1, 4, index);
    assert_eq!(dx, M::from_row_slice(1, 4, &[0.0, 0.0, 0.0, 1.0]));
}

#[test]
fn max_tie_goes_to_the_first_index_and_invents_no_gradient() {
    let x = M::from_row_slice(1, 4, &[1.0, 5.0, 3.0, 5.0]);
    let (value, index) = reductions::max(&x);
    assert_eq!((value, index), (5.0, 1));
    let dx = reductions::max_grad(1.0, 1, 4, index);
    assert_eq!(dx, M::from_row_slice(1, 4, &[0.0, 1.0, 0.0, 0.0]));
    assert_eq!(dx.sum(), 1.0); // total out = total in
    let dx = reductions::max_grad(2.5, 1, 4, index);
    assert_eq!(dx.sum(), 2.5);
}

#[test]
fn max_index_is_column_major_and_nan_loses() {
    // Column-major: entry (1, 0) is linear index 1, (0, 1) is 2.
    let x = M::from_row_slice(2, 2, &[1.0, 8.0, 8.0, 2.0]);
    assert_eq!(reductions::max(&x), (8.0, 1));
    let x = M::from_row_slice(1, 3, &[f64::NAN, 2.0, 1.0]);
    assert_eq!(reductions::max(&x), (2.0, 1));
    // Empty: nalgebra's 0.0, and no element receives anything.
    let empty = M::zeros(0, 3);
    assert_eq!(reductions::max(&empty), (0.0, 0));
    assert_eq!(reductions::max_grad(1.0, 0, 3, 0).shape(), (0, 3));
    // An index outside the shape gives zeros rather than a panic.
    assert_eq!(reductions::max_grad(1.0, 1, 2, 7), M::zeros(1, 2));
}

#[test]
fn max_adjoint_matches_finite_differences_away_from_ties() {
    let mut rng = Rng::new(13);
    for _ in 0..10 {
        let x = rng.signed_matrix(3, 4, 0.1, 5.0);
        let (_, index) = reductions::max(&x);
        let dx = reductions::max_grad(1.0, 3, 4, index);
        for i in 0..x.len() {
            let mut t = M::zeros(3, 4);
            t[i] = 1.0;
            let fd = directional_fd(
                |x| M::from_element(1, 1, reductions::max(x).0),
                &x,
                &t,
                &M::repeat(1, 1, 1.0),
            );
            assert_relative_eq!(dx[i], fd, epsilon = 1e-7, max_relative = 1e-7);
        }
    }
}

// ---- shape ----

#[test]
fn reshape_2x6_to_3x4_and_back() {
    let x = M::from_iterator(2, 6, (0..12).map(f64::from));
    let y = shape::reshape(&x, 3, 4);
    assert_eq!(y.shape(), (3, 4));
    // nalgebra is column-major: the twelve values keep their storage order.
    assert_eq!(y, M::from_iterator(3, 4, (0..12).map(f64::from)));
    // A 3×4 adjoint goes back to 2×6, the same twelve values re-sliced.
    let g = M::from_iterator(3, 4, (100..112).map(f64::from));
    let dx = shape::reshape_grad(&g, 2, 6);
    assert_eq!(dx.shape(), (2, 6));
    assert_eq!(dx.as_slice(), g.as_slice());
    assert_eq!(shape::reshape_grad(&y, 2, 6), x);
}

#[test]
fn transpose_2x3_and_its_adjoint() {
    let a = x_2x3();
    let at = shape::transpose(&a);
    assert_eq!(at, M::from_row_slice(3, 2, &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]));
    let g = M::from_row_slice(3, 2, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let da = shape::transpose_grad(&g);
    assert_eq!(da.shape(), a.shape());
    assert_eq!(da, M::from_row_slice(2, 3, &[1.0, 3.0, 5.0, 2.0, 4.0, 6.0]));
    assert_eq!(shape::transpose_grad(&at), a);
}

// ---- element-wise lifts ----

#[test]
fn relu_on_the_seed_vectors_as_matrices() {
    let x = M::from_row_slice(1, 4, &[-2.0, 3.0, -1.0, 5.0]);
    let ones = M::repeat(1, 4, 1.0);
    assert_eq!(ew::relu(&x), M::from_row_slice(1, 4, &[0.0, 3.0, 0.0, 5.0]));
    assert_eq!(
        ew::relu_grad(&ones, &x),
        M::from_row_slice(1, 4, &[0.0, 1.0, 0.0, 1.0])
    );
    let x = M::from_row_slice(1, 5, &[-3.0, 2.0, 0.0, -1.0, 5.0]);
    let ones = M::repeat(1, 5, 1.0);
    assert_eq!(
        ew::relu_grad(&ones, &x),
        M::from_row_slice(1, 5, &[0.0, 1.0, 0.0, 0.0, 1.0])
    );
}

#[test]
fn sigmoid_tanh_sin_cos_at_0_as_matrices() {
    let zero = M::zeros(2, 2);
    let two = M::repeat(2, 2, 2.0);
    assert_eq!(
        ew::sigmoid_grad(&two, &ew::sigmoid(&zero)),
        M::repeat(2, 2, 0.5)
    );
    assert_eq!(ew::tanh_grad(&two, &ew::tanh(&zero)), M::repeat(2, 2, 2.0));
    assert_eq!(ew::sin_grad(&two, &zero), two);
    assert_eq!(ew::cos_grad(&two, &zero), M::zeros(2, 2));
}

type Unary = (&'static str, fn(&M) -> M, fn(&M, &M, &M) -> M, f64, f64);

/// (name, forward, adjoint(grad, x, out), domain lo, domain hi)
fn unary_rules() -> Vec<Unary> {
    vec![
        ("exp", ew::exp, |g, _, y| ew::exp_grad(g, y), -2.0, 2.0),
        ("ln", ew::ln, |g, x, _| ew::ln_grad(g, x), 0.3, 4.0),
        ("sqrt", ew::sqrt, |g, _, y| ew::sqrt_grad(g, y), 0.3, 4.0),
        ("sin", ew::sin, |g, x, _| ew::sin_grad(g, x), -3.0, 3.0),
        ("cos", ew::cos, |g, x, _| ew::cos_grad(g, x), -3.0, 3.0),
        ("tanh", ew::tanh, |g, _, y| ew::tanh_grad(g, y), -2.0, 2.0),
        (
            "sigmoid",
            ew::sigmoid,
            |g, _, y| ew::sigmoid_grad(g, y),
            -3.0,
            3.0,
        ),
        ("relu", ew::relu, |g, x, _| ew::relu_grad(g, x), 0.1, 3.0),
        ("abs", ew::abs, |g, x, _| ew::abs_grad(g, x), 0.1, 3.0),
        ("neg", ew::neg, |g, _, _| ew::neg_grad(g), -3.0, 3.0),
    ]
}

#[test]
fn lifted_unary_rules_match_the_scalar_rules_and_finite_differences() {
    let mut rng = Rng::new(17);
    type ScalarAdjoint = fn(f64, f64, f64) -> f64;
    let scalar: [(&str, ScalarAdjoint); 10] = [
        ("exp", |g, _, y| rules::exp_grad(g, y)),
        ("ln", |g, x, _| rules::ln_grad(g, x)),
        ("sqrt", |g, _, y| rules::sqrt_grad(g, y)),
        ("sin", |g, x, _| rules::sin_grad(g, x)),
        ("cos", |g, x, _| rules::cos_grad(g, x)),
        ("tanh", |g, _, y| rules::tanh_grad(g, y)),
        ("sigmoid", |g, _, y| rules::sigmoid_grad(g, y)),
        ("relu", |g, x, _| rules::relu_grad(g, x)),
        ("abs", |g, x, _| rules::abs_grad(g, x)),
        ("neg", |g, _, _| rules::neg_grad(g)),
    ];
    for ((name, f, adjoint, lo, hi), (sname, sadj)) in unary_rules().into_iter().zip(scalar) {
        assert_eq!(name, sname);
        for _ in 0..5 {
            // relu and abs: random signs, magnitudes away from the kink.
            let x = if lo > 0.0 && (name == "relu" || name == "abs") {
                rng.signed_matrix(3, 2, lo, hi)
            } else {
                rng.matrix(3, 2, lo, hi)
            };
            let c = rng.signed_matrix(3, 2, 0.5, 2.0);
            let y = f(&x);
            let dx = adjoint(&c, &x, &y);
            assert_eq!(dx.shape(), x.shape(), "{name}: adjoint shape");
            // Exactly the scalar rule per element.
            for i in 0..x.len() {
                assert_eq!(dx[i], sadj(c[i], x[i], y[i]), "{name} element {i}");
            }
            let t = rng.signed_matrix(3, 2, 0.1, 1.0);
            let fd = directional_fd(f, &x, &t, &c);
            assert_relative_eq!(dot(&dx, &t), fd, epsilon = 1e-7, max_relative = 1e-6);
        }
    }
}

#[test]
fn lifted_binary_rules_match_finite_differences() {
    let mut rng = Rng::new(19);
    for _ in 0..5 {
        let a = rng.matrix(2, 3, 0.3, 3.0);
        let b = rng.signed_matrix(2, 3, 0.5, 2.0);
        let c = rng.signed_matrix(2, 3, 0.5, 2.0);
        let (ta, tb) = (
            rng.signed_matrix(2, 3, 0.1, 1.0),
            rng.signed_matrix(2, 3, 0.1, 1.0),
        );

        type Binary = (&'static str, fn(&M, &M) -> M, fn(&M, &M, &M, &M) -> (M, M));
        let ops: [Binary; 5] = [
            ("add", ew::add, |g, _, _, _| {
                (ew::add_grad_lhs(g), ew::add_grad_rhs(g))
            }),
            ("sub", ew::sub, |g, _, _, _| {
                (ew::sub_grad_lhs(g), ew::sub_grad_rhs(g))
            }),
            ("mul", ew::mul, |g, a, b, _| {
                (ew::mul_grad_lhs(g, b), ew::mul_grad_rhs(g, a))
            }),
            ("div", ew::div, |g, _, b, o| {
                (ew::div_grad_lhs(g, b), ew::div_grad_rhs(g, b, o))
            }),
            ("pow", ew::pow, |g, a, b, o| {
                (ew::pow_grad_lhs(g, a, b), ew::pow_grad_rhs(g, a, o))
            }),
        ];
        for (name, f, adjoint) in ops {
            let out = f(&a, &b);
            let (da, db) = adjoint(&c, &a, &b, &out);
            assert_eq!(da.shape(), a.shape(), "{name}: lhs adjoint shape");
            assert_eq!(db.shape(), b.shape(), "{name}: rhs adjoint shape");
            let fd_a = directional_fd(|a| f(a, &b), &a, &ta, &c);
            let fd_b = directional_fd(|b| f(&a, b), &b, &tb, &c);
            assert_relative_eq!(dot(&da, &ta), fd_a, epsilon = 1e-7, max_relative = 1e-6);
            assert_relative_eq!(dot(&db, &tb), fd_b, epsilon = 1e-7, max_relative = 1e-6);
        }
        // The Hadamard product is nalgebra's component_mul.
        assert_eq!(ew::mul(&a, &b), a.component_mul(&b));
        assert_eq!(ew::div(&a, &b), a.component_div(&b));
    }
}

#[test]
fn sum_reshape_transpose_satisfy_the_dot_product_identity() {
    let mut rng = Rng::new(23);
    let x = rng.signed_matrix(2, 6, 0.1, 2.0);
    let t = rng.signed_matrix(2, 6, 0.1, 1.0);

    let c = rng.signed_matrix(3, 4, 0.5, 2.0);
    let dx = shape::reshape_grad(&c, 2, 6);
    let fd = directional_fd(|x| shape::reshape(x, 3, 4), &x, &t, &c);
    assert_relative_eq!(dot(&dx, &t), fd, epsilon = 1e-7, max_relative = 1e-7);

    let c = rng.signed_matrix(6, 2, 0.5, 2.0);
    let dx = shape::transpose_grad(&c);
    let fd = directional_fd(shape::transpose, &x, &t, &c);
    assert_relative_eq!(dot(&dx, &t), fd, epsilon = 1e-7, max_relative = 1e-7);

    let g = 1.7;
    let dx = reductions::sum_grad(g, 2, 6);
    let fd = directional_fd(
        |x| M::from_element(1, 1, reductions::sum(x)),
        &x,
        &t,
        &M::repeat(1, 1, g),
    );
    assert_relative_eq!(dot(&dx, &t), fd, epsilon = 1e-7, max_relative = 1e-7);
}

#[test]
fn activation_methods_work_on_matrices_and_vectors() {
    let m = M::from_row_slice(1, 3, &[-1.0, 0.0, 2.0]);
    assert_eq!(m.clone().relu(), ew::relu(&m));
    assert_eq!(m.clone().sigmoid(), ew::sigmoid(&m));
    let v = DVector::from_vec(vec![-1.0, 0.5]);
    assert_eq!(v.relu(), DVector::from_vec(vec![0.0, 0.5]));
}
