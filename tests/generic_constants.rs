//! Generic functions whose constants of `T` are built from arithmetic and
//! float methods of other constants (`((T::from(0.25).unwrap()).cos()).powi(2)
//! + T::from(0.5).unwrap()).sqrt()`, also inside tuples): seven programs of
//! the random-program generator (seed 0x244c, chunks 0 to 2) that failed to
//! compile, the class of finding 004. Each gradient is checked at f64
//! against five-point central differences of the primal (tolerances of
//! `fd_support`), each value bit for bit against the primal's.

// The programs index their slices as the generator writes them.
#![allow(clippy::needless_range_loop)]

mod fd_support;

use autograd::differentiable;
use fd_support::{assert_all_fd64_close, fd64_slice};

#[differentiable]
fn f10<T: autograd::num_traits::Float>(a0: T, a1: T, xs: &[T]) -> T {
    let s1: T = a0 - ((a0.powi(2) + T::from(0.5).unwrap()).sqrt()).tanh();
    let (s2, s3) = (
        ((a1.tanh().exp()) * ((T::from(-0.5).unwrap()).cos())).sin(),
        (((T::from(0.75).unwrap()).powi(2) + T::from(0.5).unwrap()).sqrt()).cos(),
    );
    let s4: T = (((s1) / (a0.powi(2) + T::from(1.0).unwrap())).tanh().exp()).sin();
    let mut s5: T = T::from(2.0).unwrap();
    for i in 0..xs.len() {
        s5 = s5
            + ((s1.powi(2) + T::from(1.0).unwrap()).ln()
                - (s2.powi(2) + T::from(1.0).unwrap()).ln()
                + xs[i].sin()
                - (s1.powi(2) + T::from(1.0).unwrap()).ln())
                * T::from(i + 1).unwrap();
    }
    let s6: T = (a1.tanh().exp() + T::from(-0.5).unwrap()).tanh();
    (((a1) * (s2)).powi(2) + T::from(0.5).unwrap()).sqrt()
        + s1 * T::from(0.25).unwrap()
        + s2 * T::from(0.5).unwrap()
        + s3 * T::from(0.75).unwrap()
        + s4 * T::from(1.25).unwrap()
        + s5.tanh() * T::from(1.5).unwrap()
        + s6 * T::from(-0.5).unwrap()
}

#[differentiable]
fn f70<T: autograd::num_traits::Float>(a0: T, _a1: T, xs: &[T]) -> T {
    let (s1, s2) = (
        ((((T::from(1.5).unwrap()).tanh()).sin()).powi(2) + T::from(1.0).unwrap()).ln(),
        (a0.powi(2) + T::from(1.0).unwrap()).ln(),
    );
    let mut s3: T = T::from(0.75).unwrap();
    for i in 0..xs.len() {
        s3 = s3
            + ((s2.tanh().exp().tanh())
                / (((s3.tanh().tanh().exp()) / (s2.sin().powi(2) + T::from(1.0).unwrap()))
                    .powi(2)
                    + T::from(1.0).unwrap()))
                * T::from(i + 1).unwrap();
    }
    let t4 = (
        ((s3.cos()) * ((T::from(0.5).unwrap()) / (s2.powi(2) + T::from(1.0).unwrap()))).cos(),
        (a0.powi(2) + T::from(0.5).unwrap()).sqrt(),
    );
    let s5 = t4.0 * t4.1;
    s2.tanh().exp()
        + (s3.powi(2) + T::from(0.5).unwrap()).sqrt()
        + s1 * T::from(0.25).unwrap()
        + s2 * T::from(0.5).unwrap()
        + s3 * T::from(0.75).unwrap()
        + s5 * T::from(1.25).unwrap()
}

#[differentiable]
fn f131<T: autograd::num_traits::Float>(a0: T, a1: T, xs: &[T]) -> T {
    let mut s1: T = T::from(-1.0).unwrap();
    for i in 0..xs.len() {
        s1 = s1
            + (((a0.powi(2) + T::from(1.0).unwrap()).ln() + xs[i] - xs[i]).sin())
                * T::from(i + 1).unwrap();
    }
    let (s2, s3) = (
        a0,
        ((((T::from(0.25).unwrap()).cos()).powi(2) + T::from(0.5).unwrap()).sqrt())
            .tanh()
            .exp(),
    );
    let t4 = (
        (((T::from(1.5).unwrap()).powi(2) + T::from(1.0).unwrap()).ln())
            / (s3.powi(2) + T::from(1.0).unwrap()),
        ((((s3) / (s2.powi(2) + T::from(1.0).unwrap())) * (a0)).powi(2) + T::from(0.5).unwrap())
            .sqrt(),
    );
    let s5 = t4.0 * t4.1;
    let mut s6: T = T::from(0.75).unwrap();
    for i in 0..xs.len() {
        s6 = s6 + (a0.tanh().exp()) * T::from(i + 1).unwrap();
    }
    (a1 - T::from(-1.0).unwrap()).tanh()
        + s1 * T::from(0.25).unwrap()
        + s2 * T::from(0.5).unwrap()
        + s3 * T::from(0.75).unwrap()
        + s5 * T::from(1.25).unwrap()
        + s6.tanh() * T::from(1.5).unwrap()
}

#[differentiable]
fn f578<T: autograd::num_traits::Float>(a0: T, xs: &[T]) -> T {
    let s1: T = a0.sin() - (a0) / (a0.powi(2) + T::from(1.0).unwrap()) - a0;
    let t2 = (
        (a0.powi(2) + T::from(0.5).unwrap()).sqrt(),
        ((((T::from(0.25).unwrap()) * (s1)) / ((s1 + s1).powi(2) + T::from(1.0).unwrap())).powi(2)
            + T::from(0.5).unwrap())
        .sqrt(),
    );
    let s3 = t2.0 * t2.1;
    let t4 = (
        (((T::from(1.25).unwrap()).cos()).sin()).tanh().exp(),
        ((((T::from(-1.0).unwrap()).sin()).tanh()).powi(2) + T::from(0.5).unwrap()).sqrt(),
    );
    let s5 = t4.0 * t4.1;
    let mut s6: T = T::from(0.5).unwrap();
    for i in 0..xs.len() {
        s6 = s6
            + ((((s6.tanh()) / (s3.powi(2) + T::from(1.0).unwrap()))
                / (a0.powi(2) + T::from(1.0).unwrap()))
            .tanh()
            .exp())
                * T::from(i + 1).unwrap();
    }
    s6.tanh().sin()
        + s3.cos()
        + s1 * T::from(0.25).unwrap()
        + s3 * T::from(0.5).unwrap()
        + s5 * T::from(0.75).unwrap()
        + s6.tanh() * T::from(1.25).unwrap()
}

#[differentiable]
fn f819<T: autograd::num_traits::Float>(a0: T, xs: &[T]) -> T {
    let s1: T = a0;
    let (s2, s3) = (
        ((a0.powi(2) + T::from(1.0).unwrap()).ln() + a0.tanh()).cos(),
        (T::from(2.0).unwrap()).tanh(),
    );
    let mut s4: T = T::from(0.25).unwrap();
    for i in 0..xs.len() {
        s4 = s4 + (xs[i]) * T::from(i + 1).unwrap();
    }
    s3 + s1 * T::from(0.25).unwrap()
        + s2 * T::from(0.5).unwrap()
        + s3 * T::from(0.75).unwrap()
        + s4.tanh() * T::from(1.25).unwrap()
}

#[differentiable]
fn f455<T: autograd::num_traits::Float>(a0: T, _xs: &[T]) -> T {
    let t1 = (
        ((((T::from(0.75).unwrap()) / ((T::from(-0.5).unwrap()).powi(2) + T::from(1.0).unwrap()))
            * (a0))
            .powi(2)
            + T::from(1.0).unwrap())
        .ln(),
        (a0.sin().powi(2) + T::from(1.0).unwrap()).ln(),
    );
    let s2 = t1.0 * t1.1;
    let (s3, s4) = (T::from(0.75).unwrap(), a0);
    let s5: T = ((T::from(-1.0).unwrap() + s4 - (s4) / (s2.powi(2) + T::from(1.0).unwrap()))
        .powi(2)
        + T::from(0.5).unwrap())
    .sqrt();
    let s6: T = ((T::from(2.0).unwrap()).powi(2) + T::from(1.0).unwrap()).ln();
    let (s7, s8) = (
        (((T::from(-0.5).unwrap()) / (s5.powi(2) + T::from(1.0).unwrap()))
            .tanh()
            .exp())
        .tanh(),
        (T::from(-1.0).unwrap()).tanh(),
    );
    (s5.sin().powi(2) + T::from(1.0).unwrap()).ln()
        + s2 * T::from(0.25).unwrap()
        + s3 * T::from(0.5).unwrap()
        + s4 * T::from(0.75).unwrap()
        + s5 * T::from(1.25).unwrap()
        + s6 * T::from(1.5).unwrap()
        + s7 * T::from(-0.5).unwrap()
        + s8 * T::from(-1.0).unwrap()
}

#[differentiable]
fn f492<T: autograd::num_traits::Float>(a0: T, a1: T, xs: &[T]) -> T {
    let s1: T = ((((a0.powi(2) + T::from(0.5).unwrap()).sqrt()).cos()).powi(2)
        + T::from(1.0).unwrap())
    .ln();
    let t2 = (
        ((a0) * ((a0.powi(2) + T::from(0.5).unwrap()).sqrt()))
            .tanh()
            .exp(),
        ((s1 - a1) * ((T::from(0.75).unwrap()) / (s1.powi(2) + T::from(1.0).unwrap())))
            .tanh()
            .exp(),
    );
    let s3 = t2.0 * t2.1;
    let mut s4: T = T::from(-0.5).unwrap();
    for i in 0..xs.len() {
        s4 = s4 + (s3) * T::from(i + 1).unwrap();
    }
    let s5: T = (((s1.cos()) / (a1.tanh().exp().powi(2) + T::from(1.0).unwrap())).powi(2)
        + T::from(1.0).unwrap())
    .ln();
    let (s6, s7) = (
        (((T::from(1.25).unwrap()).sin()).cos()).tanh().exp(),
        ((s3.powi(2) + T::from(0.5).unwrap()).sqrt()).tanh()
            + (s5) / (s1.powi(2) + T::from(1.0).unwrap())
            + s4.tanh()
            + s4.tanh(),
    );
    (s1.tanh().powi(2) + T::from(1.0).unwrap()).ln()
        + s1 * T::from(0.25).unwrap()
        + s3 * T::from(0.5).unwrap()
        + s4.tanh() * T::from(0.75).unwrap()
        + s5 * T::from(1.25).unwrap()
        + s6 * T::from(1.5).unwrap()
        + s7 * T::from(-0.5).unwrap()
}

/// Points (a0, a1 or nothing, then xs) away from kinks; every function is
/// smooth everywhere.
const POINTS: &[&[f64]] = &[&[0.3, -0.7, 1.1, -0.4, 2.0], &[-1.2, 0.9, 0.5, 0.25, -1.5]];

/// The gradient of `grad` (flattened: scalars, then the slice) against
/// central differences of `primal`, and the value bit for bit.
fn check(
    name: &str,
    scalars: usize,
    primal: impl Fn(&[f64]) -> f64,
    grad: impl Fn(&[f64]) -> (f64, Vec<f64>),
) {
    for x in POINTS {
        let (value, g) = grad(x);
        assert_eq!(value, primal(x), "{name}: value");
        assert!(x.len() > scalars);
        assert_all_fd64_close(name, &g, &fd64_slice(&primal, x));
    }
}

#[test]
fn constants_of_t_built_from_constants_compile_and_differentiate() {
    check(
        "f10",
        2,
        |v| f10(v[0], v[1], &v[2..]),
        |v| {
            let (y, d0, d1, dx) = f10_grad(v[0], v[1], &v[2..]);
            (y, [vec![d0, d1], dx].concat())
        },
    );
    check(
        "f70",
        2,
        |v| f70(v[0], v[1], &v[2..]),
        |v| {
            let (y, d0, d1, dx) = f70_grad(v[0], v[1], &v[2..]);
            (y, [vec![d0, d1], dx].concat())
        },
    );
    check(
        "f131",
        2,
        |v| f131(v[0], v[1], &v[2..]),
        |v| {
            let (y, d0, d1, dx) = f131_grad(v[0], v[1], &v[2..]);
            (y, [vec![d0, d1], dx].concat())
        },
    );
    check(
        "f578",
        1,
        |v| f578(v[0], &v[1..]),
        |v| {
            let (y, d0, dx) = f578_grad(v[0], &v[1..]);
            (y, [vec![d0], dx].concat())
        },
    );
    check(
        "f819",
        1,
        |v| f819(v[0], &v[1..]),
        |v| {
            let (y, d0, dx) = f819_grad(v[0], &v[1..]);
            (y, [vec![d0], dx].concat())
        },
    );
    check(
        "f455",
        1,
        |v| f455(v[0], &v[1..]),
        |v| {
            let (y, d0, dx) = f455_grad(v[0], &v[1..]);
            (y, [vec![d0], dx].concat())
        },
    );
    check(
        "f492",
        2,
        |v| f492(v[0], v[1], &v[2..]),
        |v| {
            let (y, d0, d1, dx) = f492_grad(v[0], v[1], &v[2..]);
            (y, [vec![d0, d1], dx].concat())
        },
    );
    // The same functions at f32 compile and return the primal's value.
    let xs = [0.5f32, -0.25];
    assert_eq!(f819_grad(0.3f32, &xs).0, f819(0.3f32, &xs));
    assert_eq!(f10_grad(0.3f32, -0.7, &xs).0, f10(0.3f32, -0.7, &xs));
}
