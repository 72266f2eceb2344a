//! `#[differentiable(jvp)]` and `#[differentiable(hessian)]` on functions
//! taking `Tangent` structs (by reference and by value; float, `Vec<f64>`,
//! array, `DVector<f64>`, `#[constant]` and integer fields) and on `&self`
//! methods. A struct's tangent and direction are `&S` (constant fields
//! ignored: the tests put nonsense there), its gradient and H·v are `S`
//! (constant fields the argument's), `_hessian` is over the struct's
//! differentiable fields in declaration order.
//!
//! Expected: `_jvp` against central differences of the primal along the
//! tangent (step 1e-6, tolerance 1e-7 relative to 1 + |value|), `_hvp`
//! against central differences of `_grad` along the direction (step 1e-6,
//! tolerance 1e-6 relative to 1 + |H·v|), the gradient of `_hvp` equal to
//! `_grad`'s, `_hessian` symmetric with columns equal to `_hvp` along unit
//! vectors, values bit for bit the primal's.

// Differentiable bodies index their slices, as numerical code does.
#![allow(clippy::needless_range_loop)]

use autograd::{Tangent, differentiable};
use nalgebra::DVector;

#[derive(Clone, Debug, PartialEq, Tangent)]
struct Params {
    a: f64,
    w: Vec<f64>,
    c: [f64; 2],
    v: DVector<f64>,
    #[constant]
    scale: f64,
    n: usize,
}

/// Reads every kind of field: a float, a `Vec` and an array by index, a
/// `DVector` as a nalgebra value, a constant float and an integer.
#[differentiable(jvp, hessian)]
fn model(p: &Params, x: f64, y: &[f64]) -> f64 {
    let mut s = p.a * x * x;
    for i in 0..y.len() {
        s += (p.w[i] * y[i]).sin() * p.scale;
    }
    s += p.c[0] * p.c[1] * x + p.v.norm_squared() * p.a;
    s + (p.n as f64) * p.a.exp()
}

/// The same function of a struct taken by value.
#[differentiable(jvp, hessian)]
fn model_owned(p: Params, x: f64, y: &[f64]) -> f64 {
    let mut s = p.a * x * x;
    for i in 0..y.len() {
        s += (p.w[i] * y[i]).sin() * p.scale;
    }
    s += p.c[0] * p.c[1] * x + p.v.norm_squared() * p.a;
    s + (p.n as f64) * p.a.exp()
}

impl Params {
    /// A method with the attribute on itself alone.
    #[differentiable(jvp, hessian)]
    fn energy(&self, x: f64) -> f64 {
        (self.a * x).sin() + self.w[0] * self.w[1] * self.scale + self.v.norm_squared() * self.c[1]
    }
}

fn params() -> Params {
    Params {
        a: 0.7,
        w: vec![0.4, -1.1],
        c: [0.3, 1.6],
        v: DVector::from_vec(vec![0.5, -0.2]),
        scale: 2.5,
        n: 3,
    }
}

/// A tangent or direction: its constant fields hold nonsense, which
/// `_jvp` and `_hvp` ignore.
fn direction() -> Params {
    Params {
        a: 0.5,
        w: vec![-1.0, 0.25],
        c: [0.75, -0.5],
        v: DVector::from_vec(vec![1.0, 0.3]),
        scale: 1e6,
        n: 99,
    }
}

/// The differentiable fields in declaration order.
fn flat(p: &Params) -> Vec<f64> {
    let mut out = vec![p.a];
    out.extend(&p.w);
    out.extend(p.c);
    out.extend(p.v.iter());
    out
}

/// `p` moved by `s·t` in its differentiable fields.
fn moved(p: &Params, t: &Params, s: f64) -> Params {
    Params {
        a: p.a + s * t.a,
        w: p.w.iter().zip(&t.w).map(|(a, b)| a + s * b).collect(),
        c: [p.c[0] + s * t.c[0], p.c[1] + s * t.c[1]],
        v: &p.v + &t.v * s,
        ..p.clone()
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

const H: f64 = 1e-6;

fn all_close(got: &[f64], expected: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), expected.len(), "{what}: length");
    for (i, (g, e)) in got.iter().zip(expected).enumerate() {
        assert!(close(*g, *e, tol), "{what}[{i}] = {g} but {e}");
    }
}

#[test]
fn jvp_of_a_struct_function_is_the_difference_of_the_primal() {
    let (p, t) = (params(), direction());
    let (x, y) = (0.9, [0.6, -0.4]);
    let (tx, ty) = (-0.3, [0.2, 0.5]);
    let (value, tangent) = model_jvp(&p, x, &y, &t, tx, &ty);
    assert_eq!(value.to_bits(), model(&p, x, &y).to_bits());
    let at = |s: f64| {
        let y: Vec<f64> = y.iter().zip(&ty).map(|(a, b)| a + s * b).collect();
        model(&moved(&p, &t, s), x + s * tx, &y)
    };
    let fd = (at(H) - at(-H)) / (2.0 * H);
    assert!(
        close(tangent, fd, 1e-7),
        "tangent {tangent}, difference {fd}"
    );

    let (value, tangent) = model_owned_jvp(p.clone(), x, &y, &t, tx, &ty);
    assert_eq!(value.to_bits(), model_owned(p.clone(), x, &y).to_bits());
    assert!(
        close(tangent, fd, 1e-7),
        "owned: tangent {tangent}, difference {fd}"
    );

    let (value, tangent) = p.energy_jvp(x, &t, tx);
    assert_eq!(value.to_bits(), p.energy(x).to_bits());
    let at = |s: f64| moved(&p, &t, s).energy(x + s * tx);
    let fd = (at(H) - at(-H)) / (2.0 * H);
    assert!(
        close(tangent, fd, 1e-7),
        "method: tangent {tangent}, difference {fd}"
    );
}

/// `_grad` of `model` flattened: the struct's fields, x, y.
fn model_grad_flat(p: &Params, x: f64, y: &[f64]) -> Vec<f64> {
    let (_, dp, dx, dy) = model_grad(p, x, y);
    let mut out = flat(&dp);
    out.push(dx);
    out.extend(dy);
    out
}

#[test]
fn hvp_of_a_struct_function_is_the_difference_of_its_gradient() {
    let (p, t) = (params(), direction());
    let (x, y) = (0.9, [0.6, -0.4]);
    let (tx, ty) = (-0.3, [0.2, 0.5]);
    let (value, gp, gx, gy, hp, hx, hy) = model_hvp(&p, x, &y, &t, tx, &ty);
    assert_eq!(value.to_bits(), model(&p, x, &y).to_bits());
    // Constant fields of the gradient and of H·v are the argument's.
    assert_eq!(
        (gp.scale, gp.n, hp.scale, hp.n),
        (p.scale, p.n, p.scale, p.n)
    );
    let mut g = flat(&gp);
    g.push(gx);
    g.extend(&gy);
    all_close(&g, &model_grad_flat(&p, x, &y), 1e-14, "gradient of _hvp");
    let mut hv = flat(&hp);
    hv.push(hx);
    hv.extend(&hy);
    let at = |s: f64| {
        let y: Vec<f64> = y.iter().zip(&ty).map(|(a, b)| a + s * b).collect();
        model_grad_flat(&moved(&p, &t, s), x + s * tx, &y)
    };
    let fd: Vec<f64> = at(H)
        .iter()
        .zip(at(-H))
        .map(|(a, b)| (a - b) / (2.0 * H))
        .collect();
    all_close(&hv, &fd, 1e-6, "H·v");

    // By value: the same numbers.
    let (value_owned, gp_owned, _, _, hp_owned, hx_owned, _) =
        model_owned_hvp(p.clone(), x, &y, &t, tx, &ty);
    assert_eq!(value_owned.to_bits(), value.to_bits());
    all_close(&flat(&gp_owned), &flat(&gp), 1e-14, "owned gradient");
    all_close(&flat(&hp_owned), &flat(&hp), 1e-14, "owned H·v");
    assert!(close(hx_owned, hx, 1e-14));
}

#[test]
fn hessian_of_a_struct_function_is_symmetric_with_hvp_columns() {
    let p = params();
    let (x, y) = (0.9, [0.6, -0.4]);
    let (value, grad, h) = model_hessian(&p, x, &y);
    assert_eq!(value.to_bits(), model(&p, x, &y).to_bits());
    let n = 10;
    assert_eq!((grad.len(), h.nrows(), h.ncols()), (n, n, n));
    all_close(
        grad.as_slice(),
        &model_grad_flat(&p, x, &y),
        1e-14,
        "gradient",
    );
    for i in 0..n {
        for j in 0..n {
            assert!(
                close(h[(i, j)], h[(j, i)], 1e-12),
                "H[{i}][{j}] is not symmetric"
            );
        }
    }
    // Column j against central differences of `_grad` along input j.
    let unit = |j: usize| -> (Params, f64, Vec<f64>) {
        let mut e = vec![0.0; n];
        e[j] = 1.0;
        let t = Params {
            a: e[0],
            w: e[1..3].to_vec(),
            c: [e[3], e[4]],
            v: DVector::from_column_slice(&e[5..7]),
            ..p.clone()
        };
        (t, e[7], e[8..].to_vec())
    };
    for j in 0..n {
        let (t, tx, ty) = unit(j);
        let at = |s: f64| {
            let y: Vec<f64> = y.iter().zip(&ty).map(|(a, b)| a + s * b).collect();
            model_grad_flat(&moved(&p, &t, s), x + s * tx, &y)
        };
        let fd: Vec<f64> = at(H)
            .iter()
            .zip(at(-H))
            .map(|(a, b)| (a - b) / (2.0 * H))
            .collect();
        let column: Vec<f64> = h.column(j).iter().copied().collect();
        all_close(&column, &fd, 1e-6, &format!("column {j}"));
    }
    // The method: a's and c's entries against the closed form.
    let (_, _, hm) = p.energy_hessian(x);
    // energy = sin(a·x) + w0·w1·scale + |v|²·c1; inputs a, w0, w1, c0, c1, v0, v1, x.
    let s = (p.a * x).sin();
    assert!(close(hm[(0, 0)], -x * x * s, 1e-12));
    assert!(close(hm[(0, 7)], (p.a * x).cos() - p.a * x * s, 1e-12));
    assert!(close(hm[(1, 2)], p.scale, 1e-12));
    assert!(close(hm[(4, 5)], 2.0 * p.v[0], 1e-12));
    assert!(close(hm[(5, 5)], 2.0 * p.c[1], 1e-12));
    assert_eq!(hm[(3, 3)], 0.0);
}

/// A layer whose methods call each other in a `#[differentiable] impl`
/// block, both with `jvp` and `hessian`.
#[derive(Clone, Debug, PartialEq, Tangent)]
struct Layer {
    w: Vec<f64>,
    b: f64,
    #[constant]
    l2: f64,
}

#[differentiable]
impl Layer {
    #[differentiable(jvp, hessian)]
    fn pre(&self, x: &[f64]) -> f64 {
        let mut s = self.b;
        for i in 0..x.len() {
            s += self.w[i] * x[i];
        }
        s
    }

    #[differentiable(jvp, hessian)]
    fn loss(&self, x: &[f64]) -> f64 {
        let z = self.pre(x);
        z.tanh() + self.l2 * self.w[0] * self.w[0]
    }
}

#[test]
fn methods_calling_each_other_in_an_impl_block() {
    let layer = Layer {
        w: vec![0.3, -0.6],
        b: 0.2,
        l2: 0.5,
    };
    let x = [0.8, 0.4];
    let t = Layer {
        w: vec![1.0, 0.5],
        b: -0.25,
        l2: 7.0,
    };
    let tx = [0.1, -0.2];
    // Closed form: z = b + w·x, f = tanh z + l2·w0², f' along (t, tx) =
    // sech² z·(tb + tw·x + w·tx) + 2·l2·w0·tw0.
    let z = layer.b + layer.w[0] * x[0] + layer.w[1] * x[1];
    let sech2 = 1.0 - z.tanh().powi(2);
    let dz = t.b + t.w[0] * x[0] + t.w[1] * x[1] + layer.w[0] * tx[0] + layer.w[1] * tx[1];
    let (value, tangent) = layer.loss_jvp(&x, &t, &tx);
    assert_eq!(value.to_bits(), layer.loss(&x).to_bits());
    let expected = sech2 * dz + 2.0 * layer.l2 * layer.w[0] * t.w[0];
    assert!(
        close(tangent, expected, 1e-12),
        "tangent {tangent}, closed form {expected}"
    );
    // H·v of b: ∂/∂b of sech² z·dz·... = −2 tanh z·sech² z·dz.
    let (_, g, _, h, hx) = layer.loss_hvp(&x, &t, &tx);
    assert!(close(g.b, sech2, 1e-14));
    assert_eq!((g.l2, h.l2), (layer.l2, layer.l2));
    assert!(
        close(h.b, -2.0 * z.tanh() * sech2 * dz, 1e-12),
        "H·v of b: {}",
        h.b
    );
    // H·v of x0: ∂²f/∂x0∂· = −2 tanh z·sech² z·w0·dz + sech² z·tw0.
    let expected = -2.0 * z.tanh() * sech2 * layer.w[0] * dz + sech2 * t.w[0];
    assert!(
        close(hx[0], expected, 1e-12),
        "H·v of x0: {} vs {expected}",
        hx[0]
    );
    let (_, _, hm) = layer.loss_hessian(&x);
    // Inputs w0, w1, b, x0, x1: H[w0][w0] = −2 tanh z·sech² z·x0² + 2·l2.
    assert!(close(
        hm[(0, 0)],
        -2.0 * z.tanh() * sech2 * x[0] * x[0] + 2.0 * layer.l2,
        1e-12
    ));
    for i in 0..5 {
        for j in 0..5 {
            assert!(close(hm[(i, j)], hm[(j, i)], 1e-12));
        }
    }
}

/// `Vec<f64>` taken by value in a plain `hessian` function (the flat
/// function of a struct taken by value takes its collection fields so).
#[differentiable(hessian)]
fn owned_vec(x: Vec<f64>, a: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() {
        s += (a * x[i]).sin();
    }
    s
}

#[test]
fn hessian_of_an_owned_vec_argument() {
    let (x, a) = (vec![0.4, -0.9, 1.3], 0.7);
    let (value, gx, ga) = owned_vec_grad(x.clone(), a);
    let (hvalue, grad, h) = owned_vec_hessian(x.clone(), a);
    assert_eq!(hvalue.to_bits(), value.to_bits());
    let mut g = gx.clone();
    g.push(ga);
    all_close(grad.as_slice(), &g, 1e-14, "gradient");
    // Closed form: ∂²/∂xᵢ² = −a² sin(a xᵢ), ∂²/∂xᵢ∂a = cos(a xᵢ) − a xᵢ sin(a xᵢ),
    // ∂²/∂a² = −Σ xᵢ² sin(a xᵢ).
    for i in 0..3 {
        let (c, s) = ((a * x[i]).cos(), (a * x[i]).sin());
        assert!(close(h[(i, i)], -a * a * s, 1e-12));
        assert!(close(h[(i, 3)], c - a * x[i] * s, 1e-12));
        assert!(close(h[(3, i)], c - a * x[i] * s, 1e-12));
    }
    let haa: f64 = x.iter().map(|v| -v * v * (a * v).sin()).sum();
    assert!(close(h[(3, 3)], haa, 1e-12));
    let (_, _, _, hx, ha) = owned_vec_hvp(x.clone(), a, &[1.0, 0.0, 0.0], 0.0);
    assert!(close(hx[0], h[(0, 0)], 1e-14) && close(ha, h[(3, 0)], 1e-14));
}

/// A struct next to a `Vec<f64>` taken by value.
#[differentiable(hessian)]
fn with_owned_vec(p: &Params, y: Vec<f64>) -> f64 {
    p.a * y[0] * y[1] + (p.w[0] * y[1]).sin()
}

#[test]
fn hessian_of_a_struct_next_to_an_owned_vec() {
    let (p, y) = (params(), vec![0.6, -0.4]);
    let (_, grad, h) = with_owned_vec_hessian(&p, y.clone());
    let (_, gp, gy) = with_owned_vec_grad(&p, y.clone());
    let mut g = flat(&gp);
    g.extend(&gy);
    all_close(grad.as_slice(), &g, 1e-14, "gradient");
    // Inputs a, w0, w1, c0, c1, v0, v1, y0, y1: closed-form entries.
    let u = p.w[0] * y[1];
    assert!(close(h[(0, 7)], y[1], 1e-12) && close(h[(0, 8)], y[0], 1e-12));
    assert!(close(h[(7, 8)], p.a, 1e-12));
    assert!(close(h[(1, 1)], -y[1] * y[1] * u.sin(), 1e-12));
    assert!(close(h[(1, 8)], u.cos() - u * u.sin(), 1e-12));
    assert!(close(h[(8, 8)], -p.w[0] * p.w[0] * u.sin(), 1e-12));
}
