//! Local `Vec`s under `#[differentiable(hessian)]`, every way one is built
//! (`vec![0.0; n]`, `vec![0.0; x.len()]`, `vec![1.0, 2.0, x[0]]`,
//! `Vec::with_capacity(n)` and `Vec::new()` with `push`, `x.to_vec()`,
//! `collect::<Vec<f64>>()`, a `let v: Vec<f64>`, one passed to a `hessian`
//! callee taking `&[f64]`, one in a `#[checkpoint]` loop, in a method of a
//! `Tangent` struct and in a `T: Float` function).
//!
//! Finding: a float literal inside `vec![..]` stayed `{float}` in the
//! second-order twin (the function re-expanded at a dual scalar), whose
//! `vec!` the rewrite of literals did not enter, so `vec![0.0; 3]` failed to
//! compile under `hessian` (E0308 `{float}` vs the scalar) while
//! `[0.0; 3]` worked.
//!
//! Each function is one whose Hessian is written by hand below. `_hessian`
//! is checked against it (absolute and relative 1e-12: the closed forms are
//! a few products of O(1) numbers) and against central differences of
//! `NAME_grad` (step 1e-5, absolute and relative 1e-6: truncation
//! O(h²·f⁗) ≈ 1e-10, rounding ≈ 1e-16/1e-5); `_hvp` along a direction
//! against H·v from the closed form (1e-12); `_hessian_sparse` at the
//! colouring of `_hessian_pattern` entry for entry against the dense one
//! (1e-12); every value bit for bit the primal's.

// A differentiable body indexes slices in `for i in 0..n` loops, and the
// `Vec`s are built in the ways under test, not clippy's preferred ones.
#![allow(
    clippy::needless_range_loop,
    clippy::useless_vec,
    clippy::vec_init_then_push,
    clippy::iter_cloned_collect
)]

use approx::assert_relative_eq;
use autograd::nalgebra_sparse::CscMatrix;
use autograd::num_traits::Float;
use autograd::{Tangent, differentiable};
use nalgebra::{DMatrix, DVector};

/// The point every function is evaluated at, and a direction for `_hvp`.
const X: [f64; 3] = [0.7, -1.3, 2.1];
const DIR: [f64; 3] = [0.4, 1.1, -0.6];

/// What `_grad`, `_hvp`, `_hessian` and `_hessian_sparse` return.
type Gradient = (f64, Vec<f64>);
type Hvp = (f64, Vec<f64>, Vec<f64>);
type Hessian = (f64, DVector<f64>, DMatrix<f64>);
type SparseHessian = (f64, DVector<f64>, CscMatrix<f64>);
type SparseFn<'a> = &'a dyn Fn(&[f64]) -> SparseHessian;

/// The generated items of one function of `x: &[f64]`.
struct Generated<'a> {
    primal: &'a dyn Fn(&[f64]) -> f64,
    grad: &'a dyn Fn(&[f64]) -> Gradient,
    hvp: &'a dyn Fn(&[f64], &[f64]) -> Hvp,
    hessian: &'a dyn Fn(&[f64]) -> Hessian,
    /// `None` for a generic function: sparse Hessians are of `f64`
    /// functions (a generic one has no `f64` tracer to run at).
    sparse: Option<SparseFn<'a>>,
}

/// `generated(name)`: the items `#[differentiable(hessian)]` made of `name`.
macro_rules! generated {
    ($f:ident, $grad:ident, $hvp:ident, $hessian:ident, $pattern:ident, $sparse:ident) => {
        Generated {
            primal: &|x| $f(x),
            grad: &|x| $grad(x),
            hvp: &|x, v| $hvp(x, v),
            hessian: &|x| $hessian(x),
            sparse: Some(&|x| $sparse(x, &$pattern(x))),
        }
    };
    ($f:ident, $grad:ident, $hvp:ident, $hessian:ident) => {
        Generated {
            primal: &|x| $f(x),
            grad: &|x| $grad(x),
            hvp: &|x, v| $hvp(x, v),
            hessian: &|x| $hessian(x),
            sparse: None,
        }
    };
}

/// Checks every second-order item of `g` at `x` against `closed`, the
/// Hessian written by hand.
fn check(what: &str, g: Generated, x: &[f64], closed: [[f64; 3]; 3]) {
    let n = x.len();
    let value = (g.primal)(x);
    let (gvalue, grad) = (g.grad)(x);
    assert_eq!(gvalue.to_bits(), value.to_bits(), "{what}: _grad's value");

    let (hvalue, hgrad, h) = (g.hessian)(x);
    assert_eq!(
        hvalue.to_bits(),
        value.to_bits(),
        "{what}: _hessian's value"
    );
    assert_eq!(h.shape(), (n, n), "{what}");
    for i in 0..n {
        assert_relative_eq!(hgrad[i], grad[i], epsilon = 1e-12, max_relative = 1e-12);
        for j in 0..n {
            assert_relative_eq!(
                h[(i, j)],
                closed[i][j],
                epsilon = 1e-12,
                max_relative = 1e-12
            );
        }
    }
    // Central differences of the gradient, column by column.
    let step = 1e-5;
    for j in 0..n {
        let at = |s: f64| {
            let mut p = x.to_vec();
            p[j] += s * step;
            (g.grad)(&p).1
        };
        let (up, down) = (at(1.0), at(-1.0));
        for i in 0..n {
            let fd = (up[i] - down[i]) / (2.0 * step);
            assert_relative_eq!(h[(i, j)], fd, epsilon = 1e-6, max_relative = 1e-6);
        }
    }

    let (vvalue, vgrad, hv) = (g.hvp)(x, &DIR);
    assert_eq!(vvalue.to_bits(), value.to_bits(), "{what}: _hvp's value");
    for i in 0..n {
        assert_relative_eq!(vgrad[i], grad[i], epsilon = 1e-12, max_relative = 1e-12);
        let want: f64 = (0..n).map(|j| closed[i][j] * DIR[j]).sum();
        assert_relative_eq!(hv[i], want, epsilon = 1e-12, max_relative = 1e-12);
    }

    let Some(sparse) = g.sparse else { return };
    let (svalue, sgrad, sh) = sparse(x);
    assert_eq!(
        svalue.to_bits(),
        value.to_bits(),
        "{what}: _hessian_sparse's value"
    );
    let mut d = DMatrix::zeros(n, n);
    for (i, j, &v) in sh.triplet_iter() {
        d[(i, j)] = v;
    }
    for i in 0..n {
        assert_relative_eq!(sgrad[i], grad[i], epsilon = 1e-12, max_relative = 1e-12);
        for j in 0..n {
            assert_relative_eq!(d[(i, j)], h[(i, j)], epsilon = 1e-12, max_relative = 1e-12);
        }
    }
}

// ---- vec![lit; n] ----

/// `vec![0.0; 3]` written in a loop: f = x0·x1 + x0·x2.
#[differentiable(hessian)]
fn fill_literal(x: &[f64]) -> f64 {
    let mut v = vec![0.0; 3];
    for i in 0..3 {
        v[i] = x[i] * x[0];
    }
    v[1] + v[2]
}

#[test]
fn a_vec_filled_with_a_literal() {
    let h = [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0], [1.0, 0.0, 0.0]];
    let g = generated!(
        fill_literal,
        fill_literal_grad,
        fill_literal_hvp,
        fill_literal_hessian,
        fill_literal_hessian_pattern,
        fill_literal_hessian_sparse
    );
    check("vec![0.0; 3]", g, &X, h);
}

/// `vec![0.0; x.len()]` written in a loop, then summed and iterated:
/// f = (1 + x0)·S with S = Σ x_i³;
/// H_kl = 3x_l²·δ_k0 + 3x_k²·δ_l0 + 6(1 + x0)·x_k·δ_kl.
#[differentiable(hessian)]
fn fill_length(x: &[f64]) -> f64 {
    let mut v = vec![0.0; x.len()];
    for i in 0..x.len() {
        v[i] = x[i] * x[i] * x[i];
    }
    let total: f64 = v.iter().sum();
    let mut dot = 0.0;
    for a in v.iter() {
        dot += a * x[0];
    }
    total + dot
}

fn cubic_sum_hessian(x: &[f64]) -> [[f64; 3]; 3] {
    let mut h = [[0.0; 3]; 3];
    for k in 0..3 {
        for l in 0..3 {
            let d = |a: usize, b: usize| if a == b { 1.0 } else { 0.0 };
            h[k][l] = 3.0 * x[l] * x[l] * d(k, 0)
                + 3.0 * x[k] * x[k] * d(l, 0)
                + 6.0 * (1.0 + x[0]) * x[k] * d(k, l);
        }
    }
    h
}

#[test]
fn a_vec_of_the_arguments_length_summed_and_iterated() {
    let g = generated!(
        fill_length,
        fill_length_grad,
        fill_length_hvp,
        fill_length_hessian,
        fill_length_hessian_pattern,
        fill_length_hessian_sparse
    );
    check("vec![0.0; x.len()]", g, &X, cubic_sum_hessian(&X));
}

// ---- vec![a, b, c] ----

/// f = 1·x1² + 2·x0²·x2.
#[differentiable(hessian)]
fn listed(x: &[f64]) -> f64 {
    let v = vec![1.0, 2.0, x[0]];
    v[0] * x[1] * x[1] + v[1] * v[2] * v[2] * x[2]
}

#[test]
fn a_vec_listing_literals_and_an_argument() {
    let [x0, _, x2] = X;
    let h = [
        [4.0 * x2, 0.0, 4.0 * x0],
        [0.0, 2.0, 0.0],
        [4.0 * x0, 0.0, 0.0],
    ];
    let g = generated!(
        listed,
        listed_grad,
        listed_hvp,
        listed_hessian,
        listed_hessian_pattern,
        listed_hessian_sparse
    );
    check("vec![1.0, 2.0, x[0]]", g, &X, h);
}

// ---- Vec::with_capacity, Vec::new and push ----

/// f = x0·(Σ x_i² + 1); H_kl = 2x_l·δ_k0 + 2x_k·δ_l0 + 2x0·δ_kl.
#[differentiable(hessian)]
fn pushed(x: &[f64]) -> f64 {
    let n = x.len();
    let mut v = Vec::with_capacity(n + 1);
    for i in 0..n {
        v.push(x[i] * x[i]);
    }
    v.push(1.0);
    let mut s = 0.0;
    for i in 0..v.len() {
        s += v[i] * x[0];
    }
    s
}

#[test]
fn a_vec_with_capacity_pushed_in_a_loop() {
    let mut h = [[0.0; 3]; 3];
    for k in 0..3 {
        for l in 0..3 {
            let d = |a: usize, b: usize| if a == b { 1.0 } else { 0.0 };
            h[k][l] = 2.0 * X[l] * d(k, 0) + 2.0 * X[k] * d(l, 0) + 2.0 * X[0] * d(k, l);
        }
    }
    let g = generated!(
        pushed,
        pushed_grad,
        pushed_hvp,
        pushed_hessian,
        pushed_hessian_pattern,
        pushed_hessian_sparse
    );
    check("Vec::with_capacity + push", g, &X, h);
}

/// f = 2·(x0·x1)·x2².
#[differentiable(hessian)]
fn new_pushed(x: &[f64]) -> f64 {
    let mut v = Vec::new();
    v.push(2.0);
    v.push(x[0] * x[1]);
    v.push(x[2] * x[2]);
    v[0] * v[1] * v[2]
}

fn product_hessian(x: &[f64]) -> [[f64; 3]; 3] {
    let [x0, x1, x2] = [x[0], x[1], x[2]];
    [
        [0.0, 2.0 * x2 * x2, 4.0 * x1 * x2],
        [2.0 * x2 * x2, 0.0, 4.0 * x0 * x2],
        [4.0 * x1 * x2, 4.0 * x0 * x2, 4.0 * x0 * x1],
    ]
}

#[test]
fn a_new_vec_pushed_a_literal_and_products() {
    let g = generated!(
        new_pushed,
        new_pushed_grad,
        new_pushed_hvp,
        new_pushed_hessian,
        new_pushed_hessian_pattern,
        new_pushed_hessian_sparse
    );
    check("Vec::new + push", g, &X, product_hessian(&X));
}

// ---- to_vec, collect, a declared type ----

/// f = 3·x1² + x2·x0 (the copy's first element overwritten).
#[differentiable(hessian)]
fn copied(x: &[f64]) -> f64 {
    let mut v = x.to_vec();
    v[0] = 3.0;
    v[0] * v[1] * v[1] + v[2] * x[0]
}

#[test]
fn a_copy_of_the_argument_with_an_element_overwritten() {
    let h = [[0.0, 0.0, 1.0], [0.0, 6.0, 0.0], [1.0, 0.0, 0.0]];
    let g = generated!(
        copied,
        copied_grad,
        copied_hvp,
        copied_hessian,
        copied_hessian_pattern,
        copied_hessian_sparse
    );
    check("x.to_vec()", g, &X, h);
}

/// f = (2x0)·(2x1)·(2x2) + 0.5·x2² (a turbofish `collect` and an annotated
/// one).
#[differentiable(hessian)]
fn collected(x: &[f64]) -> f64 {
    let v = x.iter().map(|a| a * 2.0).collect::<Vec<f64>>();
    let w: Vec<f64> = x.iter().map(|a| a * 0.5).collect();
    v[0] * v[1] * v[2] + w[2] * x[2]
}

#[test]
fn a_collected_vec() {
    let [x0, x1, x2] = X;
    let h = [
        [0.0, 8.0 * x2, 8.0 * x1],
        [8.0 * x2, 0.0, 8.0 * x0],
        [8.0 * x1, 8.0 * x0, 1.0],
    ];
    let g = generated!(
        collected,
        collected_grad,
        collected_hvp,
        collected_hessian,
        collected_hessian_pattern,
        collected_hessian_sparse
    );
    check("collect::<Vec<f64>>()", g, &X, h);
}

/// f = 0.5·x0·x1 + 0.5·x2² + 3·x1 (`let v: Vec<f64>` of each form, one
/// left empty, whose element type only its declaration gives).
#[differentiable(hessian)]
fn annotated(x: &[f64]) -> f64 {
    let mut v: Vec<f64> = vec![0.5; 3];
    v[0] = x[0] * x[1];
    let mut w: Vec<f64> = Vec::new();
    w.push(3.0);
    let u: Vec<f64> = vec![x[1], 1.0];
    let empty: Vec<f64> = vec![];
    v[0] * v[1] + v[2] * x[2] * x[2] + w[0] * u[0] * u[1] + empty.len() as f64 * x[0]
}

#[test]
fn a_vec_with_its_type_written() {
    let h = [[0.0, 0.5, 0.0], [0.5, 0.0, 0.0], [0.0, 0.0, 1.0]];
    let g = generated!(
        annotated,
        annotated_grad,
        annotated_hvp,
        annotated_hessian,
        annotated_hessian_pattern,
        annotated_hessian_sparse
    );
    check("let v: Vec<f64>", g, &X, h);
}

// ---- the remaining forms ----

/// f = x0² + 1.5·x1·x2 + 4·x1·(1 + x2) + 2.25·x0²
///   = 3.25·x0² + 4·x1 + 5.5·x1·x2: `vec![x[0]; 2]`, `vec![1.0 / 3.0; 1]`,
/// `vec![]` pushed, `collect::<Vec<_>>()`, a range mapped and collected,
/// compound element writes and a `while` loop writing a `Vec`.
#[differentiable(hessian)]
fn assorted(x: &[f64]) -> f64 {
    let same = vec![x[0]; 2];
    let third = vec![1.0 / 3.0; 1];
    let mut pushed = vec![];
    pushed.push(1.5);
    pushed.push(x[1]);
    let copies = x.iter().copied().collect::<Vec<_>>();
    let indexed = (0..x.len()).map(|i| x[i] * 2.0).collect::<Vec<f64>>();
    let mut w = vec![1.0; 2];
    w[0] += x[2];
    w[1] *= 2.0;
    let mut scaled = vec![0.0; x.len()];
    let mut k = 0;
    while k < x.len() {
        scaled[k] = x[k] * 1.5;
        k += 1;
    }
    same[0] * same[1] * third[0] * 3.0
        + pushed[0] * pushed[1] * copies[2]
        + indexed[1] * w[0] * w[1]
        + scaled[0] * scaled[0]
}

#[test]
fn the_remaining_forms() {
    let h = [[6.5, 0.0, 0.0], [0.0, 0.0, 5.5], [0.0, 5.5, 0.0]];
    let g = generated!(
        assorted,
        assorted_grad,
        assorted_hvp,
        assorted_hessian,
        assorted_hessian_pattern,
        assorted_hessian_sparse
    );
    check("other forms", g, &X, h);
}

// ---- a Vec passed to a hessian callee ----

/// v0·v1².
#[differentiable(hessian)]
fn weighted(v: &[f64]) -> f64 {
    v[0] * v[1] * v[1]
}

/// f = weighted([x0·x1, 2])·x2 + weighted([x0, x1·x2])
///   = 4·x0·x1·x2 + x0·x1²·x2².
#[differentiable(hessian)]
fn passes_vecs(x: &[f64]) -> f64 {
    let v = vec![x[0] * x[1], 2.0];
    let mut w = vec![0.0; 2];
    w[0] = x[0];
    w[1] = x[1] * x[2];
    weighted(&v) * x[2] + weighted(&w)
}

#[test]
fn vecs_passed_to_a_hessian_callee() {
    let [x0, x1, x2] = X;
    let h = [
        [
            0.0,
            4.0 * x2 + 2.0 * x1 * x2 * x2,
            4.0 * x1 + 2.0 * x1 * x1 * x2,
        ],
        [
            4.0 * x2 + 2.0 * x1 * x2 * x2,
            2.0 * x0 * x2 * x2,
            4.0 * x0 + 4.0 * x0 * x1 * x2,
        ],
        [
            4.0 * x1 + 2.0 * x1 * x1 * x2,
            4.0 * x0 + 4.0 * x0 * x1 * x2,
            2.0 * x0 * x1 * x1,
        ],
    ];
    let g = generated!(
        passes_vecs,
        passes_vecs_grad,
        passes_vecs_hvp,
        passes_vecs_hessian,
        passes_vecs_hessian_pattern,
        passes_vecs_hessian_sparse
    );
    check("a Vec passed to a callee", g, &X, h);
}

// ---- #[checkpoint] ----

/// The cubic sum of `fill_length`, its `Vec` written in a checkpointed
/// loop.
#[differentiable(hessian)]
fn checkpointed(x: &[f64]) -> f64 {
    let mut v = vec![0.0; x.len()];
    #[checkpoint(snapshots = 2)]
    for i in 0..x.len() {
        v[i] = x[i] * x[i] * x[i];
    }
    let mut total = 0.0;
    for i in 0..v.len() {
        total += v[i] + v[i] * x[0];
    }
    total
}

#[test]
fn a_vec_written_in_a_checkpointed_loop() {
    let g = generated!(
        checkpointed,
        checkpointed_grad,
        checkpointed_hvp,
        checkpointed_hessian,
        checkpointed_hessian_pattern,
        checkpointed_hessian_sparse
    );
    check("#[checkpoint]", g, &X, cubic_sum_hessian(&X));
}

/// `Vec`s built inside a checkpointed loop's body (recomputed in its
/// reverse sweep): f = Σ x_i·2·0.5·x_i = Σ x_i², H = 2I.
#[differentiable(hessian)]
fn checkpointed_body(x: &[f64]) -> f64 {
    let mut s = 0.0;
    #[checkpoint]
    for i in 0..x.len() {
        let w = vec![x[i], 2.0];
        let mut u = Vec::new();
        u.push(0.5);
        s += w[0] * w[1] * u[0] * x[i];
    }
    s
}

#[test]
fn vecs_built_in_a_checkpointed_loop_body() {
    let h = [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]];
    let g = generated!(
        checkpointed_body,
        checkpointed_body_grad,
        checkpointed_body_hvp,
        checkpointed_body_hessian,
        checkpointed_body_hessian_pattern,
        checkpointed_body_hessian_sparse
    );
    check("#[checkpoint] body", g, &X, h);
}

// ---- a generic function, its own twin ----

/// The cubic sum of `fill_length` over `T: Float`, its `Vec`s filled with
/// `T::zero()` and `T::from(0.0).unwrap()`.
#[differentiable(hessian)]
fn generic_fill<T: Float>(x: &[T]) -> T {
    let mut v = vec![T::zero(); x.len()];
    let mut w = vec![T::from(0.0).unwrap(); x.len()];
    for i in 0..x.len() {
        v[i] = x[i] * x[i] * x[i];
        w[i] = v[i] * x[0];
    }
    let mut total = T::zero();
    for i in 0..x.len() {
        total = total + v[i] + w[i];
    }
    total
}

#[test]
fn a_generic_function_filling_vecs() {
    let g = generated!(
        generic_fill,
        generic_fill_grad,
        generic_fill_hvp,
        generic_fill_hessian
    );
    check("vec![T::zero(); n]", g, &X, cubic_sum_hessian(&X));
}

/// The other forms over `T: Float`: f = 2·(x0·x1)·x2² as `new_pushed`.
#[differentiable(hessian)]
fn generic_forms<T: Float>(x: &[T]) -> T {
    let two = T::from(2.0).unwrap();
    let listed = vec![T::one(), two, x[0]];
    let mut pushed = Vec::with_capacity(2);
    pushed.push(x[1]);
    pushed.push(x[2] * x[2]);
    let mut copy = x.to_vec();
    copy[0] = T::one();
    let doubled: Vec<T> = x.iter().map(|a| *a * two).collect();
    let empty: Vec<T> = Vec::new();
    let _ = empty;
    listed[0] * listed[1] * listed[2] * pushed[0] * pushed[1] * copy[0] * doubled[0] / (two * x[0])
}

#[test]
fn a_generic_function_building_vecs_every_way() {
    let g = generated!(
        generic_forms,
        generic_forms_grad,
        generic_forms_hvp,
        generic_forms_hessian
    );
    check("generic Vec forms", g, &X, product_hessian(&X));
}

// ---- a method of a Tangent struct ----

#[derive(Clone, Debug, PartialEq, Tangent)]
struct Scaled {
    w: Vec<f64>,
    b: f64,
}

#[differentiable]
impl Scaled {
    /// f = (w0·x0)² + (w1·x1)² + b·w0·x0.
    #[differentiable(hessian)]
    fn energy(&self, x: &[f64]) -> f64 {
        let mut v = vec![0.0; x.len()];
        for i in 0..x.len() {
            v[i] = self.w[i] * x[i];
        }
        let mut squares = Vec::new();
        for a in v.iter() {
            squares.push(a * a);
        }
        squares[0] + squares[1] + self.b * v[0]
    }
}

#[test]
fn a_method_building_vecs() {
    let p = Scaled {
        w: vec![0.8, -0.4],
        b: 1.7,
    };
    let x = [0.6, 1.9];
    let (value, _, h) = p.energy_hessian(&x);
    assert_eq!(value.to_bits(), p.energy(&x).to_bits());
    // Inputs w0, w1, b, x0, x1.
    let (w0, w1, b, x0, x1) = (p.w[0], p.w[1], p.b, x[0], x[1]);
    let want = [
        [2.0 * x0 * x0, 0.0, x0, 4.0 * w0 * x0 + b, 0.0],
        [0.0, 2.0 * x1 * x1, 0.0, 0.0, 4.0 * w1 * x1],
        [x0, 0.0, 0.0, w0, 0.0],
        [4.0 * w0 * x0 + b, 0.0, w0, 2.0 * w0 * w0, 0.0],
        [0.0, 4.0 * w1 * x1, 0.0, 0.0, 2.0 * w1 * w1],
    ];
    assert_eq!(h.shape(), (5, 5));
    for i in 0..5 {
        for j in 0..5 {
            assert_relative_eq!(h[(i, j)], want[i][j], epsilon = 1e-12, max_relative = 1e-12);
        }
    }
}
