//! `#[differentiable(hessian)]` programs of `DMatrix<f64>` and
//! `DVector<f64>` arguments (README "Second order", matrix arguments):
//! a layer `z = W·x + b`, an element-wise map of it, and a sum of random
//! terms through the matrix operations `_hvp` takes (products,
//! `transpose`, `component_mul`, `map`, `sum`, `dot`, `norm`,
//! `norm_squared`, indexing, scalar times matrix), mixed with a number
//! and a slice. Checked by `_hvp` against central differences of `_grad`,
//! ⟨u, H·v⟩ = ⟨H·u, v⟩, and `_hessian`: symmetric, its value and gradient
//! those of the primal and `_grad`, H·v equal to `_hvp`'s.
//!
//! Smooth, so central differences check them without a mirror: no `max`,
//! and `norm` only of the layer shifted by 1.5, which stays off zero (the
//! map is above −1). The layer itself is zero wherever `W·x + b` is, which
//! points on the lattice of kink values reach, and `norm` has a cone there
//! (finding 014).

use super::LITS;
use crate::generator::{Program, Rng};
use std::collections::BTreeSet;
use std::fmt::Write as _;

/// `W` is `R × C`, `x` has `C` entries, `b` and `z` have `R`.
const R: usize = 2;
const C: usize = 3;
const LEN: usize = 3;

/// Program `index` of this kind (see the module docs).
pub(super) fn gen_matrix_hessian(index: usize, rng: &mut Rng) -> Program {
    let name = format!("f{index}");
    let upper = name.to_uppercase();
    let mut features: BTreeSet<&'static str> = ["shaped", "hessian", "hessian-matrix"].into();
    let owned_b = rng.chance(0.5);
    let jvp = rng.chance(0.4);
    if jvp {
        features.insert("jvp");
    }
    let map = match rng.below(4) {
        0 => "z.map(|v| v.tanh())".to_owned(),
        1 => "z.map(f64::tanh)".to_owned(),
        2 => {
            let c = rng.pick(&LITS);
            format!("z.map(|v| (v * {c:?}).tanh())")
        }
        _ => "z.map(|v| v.sin() * 0.5 + v * v * 0.25)".to_owned(),
    };
    let mut body = format!("    let z = w * x + b;\n    let h = {map};\n");
    let mut terms: Vec<String> = Vec::new();
    let pool: Vec<(&str, &'static str)> = vec![
        ("h.sum()", "matrix-sum"),
        ("(2.0 * &h).dot(&z)", "matrix-dot"),
        ("h[0] * x[1]", "matrix-index"),
        ("w[(1, 2)] * (h.transpose() * w).sum()", "matrix-product"),
        ("z.norm_squared()", "matrix-norm"),
        ("x.dot(&(w.transpose() * &h))", "matrix-transpose"),
        ("w.component_mul(w).sum()", "matrix-component-mul"),
        ("(a0 * &h).sum()", "matrix-scale"),
        ("a0 * h.norm_squared()", "matrix-norm"),
        ("xs[1] * z[0] * h[1]", "matrix-index"),
        (
            "(x.transpose() * w.transpose() * &h).sum() * xs[0]",
            "matrix-product",
        ),
    ];
    let mut pool = pool;
    pool.push(("a0.sin() * h.map(|v| v + 1.5).norm()", "matrix-norm"));
    let n_terms = rng.range(3, 5) as usize;
    for k in 0..n_terms {
        let (t, f) = pool.swap_remove(rng.below(pool.len()));
        features.insert(f);
        let c = LITS[(k + rng.below(LITS.len())) % LITS.len()];
        terms.push(format!("{c:?} * {t}"));
    }
    if rng.chance(0.5) {
        // A scalar path beside the matrix one.
        terms.push("(a0 * xs[2]).tanh()".to_owned());
    }
    let _ = writeln!(body, "    {}", terms.join(" + "));
    let attr = if jvp {
        "#[differentiable(jvp, hessian)]"
    } else {
        "#[differentiable(hessian)]"
    };
    let b_ty = if owned_b {
        "DVector<f64>"
    } else {
        "&DVector<f64>"
    };
    let source = format!(
        "{attr}\nfn {name}(a0: f64, w: &DMatrix<f64>, b: {b_ty}, x: &DVector<f64>, xs: &[f64]) -> f64 {{\n{body}}}\n"
    );
    let code = wrappers(&name, &upper, owned_b, jvp, &features);
    super::shaped_program(name, index, source, code, features)
}

/// The flat layout: `a0`, `w` column-major, `b`, `x`, `xs`.
fn wrappers(
    name: &str,
    upper: &str,
    owned_b: bool,
    jvp: bool,
    features: &BTreeSet<&'static str>,
) -> String {
    let (w0, b0, x0, s0) = (1, 1 + R * C, 1 + R * C + R, 1 + R * C + R + C);
    let end = s0 + LEN;
    // The arguments (`v`) and the directions (`t`) bound first: the
    // pullback borrows them.
    let bind = |v: &str| {
        format!(
            "    let {v}w = DMatrix::from_column_slice({R}, {C}, &{v}[{w0}..{b0}]);\n    let {v}b = DVector::from_column_slice(&{v}[{b0}..{x0}]);\n    let {v}x = DVector::from_column_slice(&{v}[{x0}..{s0}]);\n"
        )
    };
    let prelude = bind("v");
    let tprelude = bind("t");
    let b_arg = if owned_b { "vb.clone()" } else { "&vb" };
    let args = format!("v[0], &vw, {b_arg}, &vx, &v[{s0}..{end}]");
    let tangents = format!("t[0], &tw, &tb, &tx, &t[{s0}..{end}]");
    let flat = |p: &str| {
        format!(
            "    let mut {p}flat = vec![{p}0];\n    {p}flat.extend({p}w.iter().copied());\n    {p}flat.extend({p}b.iter().copied());\n    {p}flat.extend({p}x.iter().copied());\n    {p}flat.extend_from_slice(&{p}xs);\n"
        )
    };
    let mut code = String::new();
    let _ = write!(
        code,
        "fn primal_{name}(v: &[f64]) -> f64 {{\n{prelude}    {name}({args})\n}}\n\n"
    );
    for (wrapper, sig, s) in [("grad", "", "1.0"), ("vjp", ", seed: f64", "seed")] {
        let _ = write!(
            code,
            "fn {wrapper}_{name}(v: &[f64]{sig}) -> (f64, Vec<f64>) {{\n{prelude}    let (value, pullback) = {name}_vjp({args});\n    let (d0, dw, db, dx, dxs) = pullback({s});\n{}    (value, dflat)\n}}\n\n",
            flat("d")
        );
    }
    let _ = write!(
        code,
        "fn hvp_{name}(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {{\n{prelude}{tprelude}    let (value, g0, gw, gb, gx, gxs, h0, hw, hb, hx, hxs) = {name}_hvp({args}, {tangents});\n{}{}    (value, gflat, hflat)\n}}\n\n",
        flat("g"),
        flat("h")
    );
    let _ = write!(
        code,
        "fn hessian_{name}(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {{\n{prelude}    let (value, g, h) = {name}_hessian({args});\n    (value, g.iter().copied().collect(), (0..h.nrows()).map(|r| h.row(r).iter().copied().collect()).collect())\n}}\n\n"
    );
    let jvp_fn = if jvp {
        let _ = write!(
            code,
            "fn jvp_{name}(v: &[f64], t: &[f64]) -> (f64, f64) {{\n{prelude}{tprelude}    {name}_jvp({args}, {tangents})\n}}\n\n"
        );
        format!("Some(jvp_{name})")
    } else {
        "None".to_owned()
    };
    let features: Vec<&str> = features.iter().copied().collect();
    let _ = write!(
        code,
        "// No mirror: central differences check this program.\nconst ENTRY_{upper}: Entry = Entry {{\n    name: \"{name}\",\n    source: SOURCE_{upper},\n    deps: &[],\n    inputs: &[Input::Scalar(\"a0\"), Input::Matrix(\"w\", {R}, {C}), Input::Vector(\"b\", {R}), Input::Vector(\"x\", {C}), Input::Slice(\"xs\", {LEN})],\n    f32: false,\n    features: \"{}\",\n    primal: primal_{name},\n    grad: grad_{name},\n    vjp: vjp_{name},\n    grad_acc: None,\n    mirror: None,\n    jvp: {jvp_fn},\n    hvp: Some(hvp_{name}),\n    hessian: Some(hessian_{name}),\n    outputs: None,\n    jacobian: None,\n    grad_f32: None,\n    jvp_f32: None,\n}};\n\n",
        features.join(" ")
    );
    code
}
