//! IR snapshots: what lowering makes of each construct, in the IR's text
//! form (`impl Display for Function`), one small function per construct.
//! Every function lowered while the macro expands is written, so a struct
//! function shows its flat copy; a `map` shows its closure's function in
//! its statement.
//! A change to lowering is seen here in review, apart from the generated
//! Rust (the expansion snapshots, `snapshot_tests.rs`).
//! `UPDATE_SNAPSHOTS=1 cargo test -p autograd-macros ir_snapshot` rewrites
//! them (in `tests/ir/`).

use std::path::PathBuf;

fn check(name: &str, src: &str) {
    check_with(name, "", src);
}

/// The IR of every function lowered under `#[differentiable(attr)]`.
fn check_with(name: &str, attr: &str, src: &str) {
    let item: syn::ItemFn = syn::parse_str(src).expect("test input parses");
    let attr: proc_macro2::TokenStream = attr.parse().expect("attribute parses");
    let mut out = None;
    let lowered =
        crate::ir::listen(|| out = Some(crate::expand::expand(attr, quote::quote!(#item))));
    let out = out.expect("expanded").to_string();
    assert!(
        !out.contains("compile_error"),
        "`{name}` does not expand cleanly:\n{out}"
    );
    let actual = lowered.join("\n\n") + "\n";
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/ir")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() || !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert!(
        expected == actual,
        "the IR of `{name}` changed; review it and rerun with UPDATE_SNAPSHOTS=1\n--- new ---\n{actual}"
    );
}

#[test]
fn if_else() {
    check(
        "if_else",
        "fn f(x: f64, y: f64) -> f64 {
            let z = if x > y { x * y } else { x.exp() };
            let mut w = z;
            if z < 1.0 { w = w * 2.0; }
            w + x
        }",
    );
}

#[test]
fn sub_slices() {
    check(
        "sub_slices",
        "fn f(x: &[f64], k: usize) -> f64 {
            let head = &x[..2];
            let mut s = g(&x[k..k + 3]) + head[1];
            for v in &x[1..] { s += v.sin(); }
            s + x[1..][0]
        }",
    );
}

#[test]
fn while_loop() {
    check(
        "while_loop",
        "fn f(x: f64) -> f64 {
            let mut s = x;
            let mut k = 0;
            while s < 10.0 { s = s * 1.5 + x; k += 1; }
            s + k as f64
        }",
    );
}

#[test]
fn for_loops() {
    check(
        "for_loops",
        "fn f(x: &[f64], n: usize) -> f64 {
            let mut s = 0.0;
            for i in 0..x.len() { s += x[i] * x[i]; }
            for &v in x { s += v.sin(); }
            for _ in (0..n).rev() { s = s * 0.5; }
            s
        }",
    );
}

#[test]
fn match_arms() {
    check(
        "match_arms",
        "fn f(x: f64, k: i32) -> f64 {
            match k {
                0 => x * 2.0,
                1 | 2 => x.sin(),
                _ => x * x,
            }
        }",
    );
}

#[test]
fn exits() {
    check(
        "exits",
        "fn f(x: &[f64]) -> f64 {
            let mut s = 0.0;
            for i in 0..x.len() {
                if x[i] < 0.0 { continue; }
                if x[i] > 10.0 { break; }
                if s > 100.0 { return s; }
                s += x[i].ln();
            }
            s
        }",
    );
}

#[test]
fn deferred_let() {
    check(
        "deferred_let",
        "fn f(x: f64, y: f64) -> f64 {
            let z;
            if x > y { z = x * y; } else { z = y; }
            let m = if x > 0.0 { x.ln() } else { return 0.0; };
            z + m
        }",
    );
}

#[test]
fn struct_param() {
    check(
        "struct_param",
        "fn energy(p: &Oscillator, t: f64) -> f64 {
            p.k * t * t + p.m.sin()
        }",
    );
}

#[test]
fn struct_literal() {
    check(
        "struct_literal",
        "fn f(x0: f64, v0: f64, dt: f64) -> f64 {
            let mut s = State { x: x0, v: v0 };
            s.x = s.x + s.v * dt;
            s.x * s.v
        }",
    );
}

#[test]
fn tuples() {
    check(
        "tuples",
        "fn f(x: f64, y: f64) -> f64 {
            let t = (x * y, x + y);
            let (s, c) = x.sin_cos();
            t.0 * s + t.1 * c
        }",
    );
}

#[test]
fn nested_arrays() {
    check(
        "nested_arrays",
        "fn f(x: f64, y: f64) -> f64 {
            let mut g = [[0.0; 2]; 2];
            g[0][1] = x * y;
            g[1][0] = x + y;
            g[0][1] * g[1][0]
        }",
    );
}

#[test]
fn option_locals() {
    check(
        "option_locals",
        "fn f(x: &[f64]) -> f64 {
            let mut prev: Option<f64> = None;
            let mut tv = 0.0;
            for &v in x {
                if let Some(p) = prev { tv += (v - p).abs(); }
                prev = Some(v);
            }
            tv
        }",
    );
}

#[test]
fn first_last() {
    check(
        "first_last",
        "fn f(x: &[f64]) -> f64 {
            let a = *x.first().unwrap();
            let b = *x.last().expect(\"not empty\");
            (b / a).ln()
        }",
    );
}

#[test]
fn first_last_branches() {
    check(
        "first_last_branches",
        "fn f(x: &[f64], y: &[f64], d: f64) -> f64 {
            let a = if let Some(&v) = x.first() { v * d } else { d };
            let b = match (x.last(), y.first().copied()) {
                (Some(&u), Some(w)) if u > w => u * w,
                (Some(u), _) => *u,
                _ => 0.0,
            };
            let c = y.last().copied().unwrap_or(d);
            let Some(&e) = y.last() else { return a; };
            a + b + c + e
        }",
    );
}

#[test]
fn first_last_searches() {
    check(
        "first_last_searches",
        "fn f(x: &[f64], d: f64) -> f64 {
            let m = if let Some(&m) = x.iter().max_by(|p, q| p.total_cmp(q)) { m } else { d };
            let s = x.iter().copied().reduce(|a, b| a + b * b).unwrap_or(d);
            m * s
        }",
    );
}

#[test]
fn iter_mut() {
    check(
        "iter_mut",
        "fn f(z: &[f64]) -> f64 {
            let mut p = z.to_vec();
            for v in p.iter_mut() { *v = v.exp(); }
            p.iter().sum()
        }",
    );
}

#[test]
fn from_fn() {
    check(
        "from_fn",
        "fn f(a: [f64; 2], h: f64) -> [f64; 2] {
            std::array::from_fn(|i| a[i] * h)
        }",
    );
}

#[test]
fn closures_and_map() {
    check(
        "closures_and_map",
        "fn f(x: &DVector<f64>, k: f64, #[constant] c: f64) -> f64 {
            let sq = |v: f64| v * v * k;
            let y = x.map(|v| (c * v).exp());
            sq(y.sum())
        }",
    );
}

/// A `map` closure is a function nested in its `map`: its element the
/// parameter, the enclosing function's variables it reads its captures
/// (`k = v4` names the value each is), an element of a `#[constant]`
/// argument a constant.
#[test]
fn map_closure() {
    check(
        "map_closure",
        "fn f(m: &DMatrix<f64>, #[constant] w: &[f64], #[constant] c: f64) -> f64 {
            let k = c * 2.0;
            let y = m.map(|v| {
                let s = if v > 0.0 { v * k } else { (v * w[0]).exp() };
                s + v.sin()
            });
            y.sum()
        }",
    );
}

#[test]
fn checkpoint() {
    check(
        "checkpoint",
        "fn f(x: f64, n: usize) -> f64 {
            let mut s = x;
            #[checkpoint]
            for _ in 0..n { s = s.sin() + x; }
            s
        }",
    );
}

#[test]
fn cfg() {
    check(
        "cfg",
        "fn f(x: f64, k: i32) -> f64 {
            let mut s = x;
            #[cfg(any())]
            { s = s * 100.0; }
            #[cfg(all())]
            for _ in 0..2 { s = s * x; }
            match k {
                #[cfg(any())]
                0 => s * 2.0,
                _ => s + x,
            }
        }",
    );
}

#[test]
fn hessian_twin() {
    check_with(
        "hessian_twin",
        "hessian",
        "fn f(x: f64, y: f64) -> f64 {
            let z = x * y + 2.0;
            z.exp()
        }",
    );
}

#[test]
fn matches_macro() {
    check(
        "matches_macro",
        "fn f(x: f64, #[constant] k: usize, #[constant] o: Option<usize>) -> f64 {
            let a = matches!(k, 1 | 3..=5);
            let b = matches!(k, m if m > 2);
            let c = matches!(o, Some(j) if j + k > 3);
            if a && b || c { x * 2.0 } else { x }
        }",
    );
}

#[test]
fn tuple_from_branches() {
    check(
        "tuple_from_branches",
        "fn f(x: f64, y: f64, k: usize) -> f64 {
            let (a, b) = if x > y { (x * y, x) } else { (y, x.sin()) };
            let (c, d, e) = match k {
                0 => (a, b, 1.0),
                1 => (b, a, 2.0),
                _ => (a * b, 0.0, 3.0),
            };
            c * d * e
        }",
    );
}

#[test]
fn short_circuit() {
    check(
        "short_circuit",
        "fn f(x: f64, k: usize) -> f64 {
            let c = x > 0.0 && matches!(k, 1 | 2);
            let d = k > 3 || { let t = x * x; t > 2.0 };
            if c || d { x * 2.0 } else { x }
        }",
    );
}

/// Every place `from_fn`'s array type comes from: a typed `let`, a
/// turbofish, an assignment to an array, a `return` and the tail of a
/// function returning one; a `match` in the closure.
#[test]
fn from_fn_forms() {
    check(
        "from_fn_forms",
        "fn f(a: [f64; 2], h: f64, k: [f64; 2], #[constant] n: usize) -> [f64; 2] {
            let d: [f64; 2] = std::array::from_fn(|j| match j { 0 => a[1], _ => -h * a[0] });
            let t = std::array::from_fn::<f64, 2, _>(|i| d[i] * k[i]);
            let mut s = a;
            s = std::array::from_fn(|i| s[i] + h * t[i]);
            if n > 1 {
                return std::array::from_fn(|i| s[i] * 2.0);
            }
            std::array::from_fn(|i| s[i] + t[i])
        }",
    );
}

/// `Option` locals rebuilt whole: untyped and assigned from a `match` on
/// itself, assigned from a guarded `match` and from an `if` keeping
/// itself, then `let .. else` and `unwrap_or`.
#[test]
fn option_locals_assigned() {
    check(
        "option_locals_assigned",
        "fn f(x: &[f64], t: f64) -> f64 {
            let mut best = None;
            let mut top: Option<f64> = None;
            let mut low = None;
            for &v in x {
                best = Some(match best { Some(b) => v.max(b), None => v });
                top = match top {
                    None => Some(v * t),
                    Some(b) if v > b => Some(v),
                    Some(b) => Some(b),
                };
                low = if v < t { Some(v * t) } else { low };
            }
            let Some(b) = best else { return 0.0 };
            b * top.unwrap_or(t) + low.unwrap_or(1.0)
        }",
    );
}

/// `from_fn` in the second-order twin: its array holds the twin's scalar.
#[test]
fn from_fn_hessian() {
    check_with(
        "from_fn_hessian",
        "hessian",
        "fn f(x: &[f64], w: f64) -> f64 {
            let sq: [f64; 2] = std::array::from_fn(|i| w * x[i] * x[i]);
            let mut s = sq;
            s = std::array::from_fn(|i| s[i] * sq[i]);
            let c = std::array::from_fn::<f64, 2, _>(|i| s[i] + 1.0);
            c[0] + c[1]
        }",
    );
}

/// `Option` locals tested: `is_some`, `is_none`, reset to `None`, a
/// `match` with a guard, a local started with `Some(..)`.
#[test]
fn option_locals_tests() {
    check(
        "option_locals_tests",
        "fn f(x: &[f64], gate: f64) -> f64 {
            let mut pending: Option<f64> = None;
            let mut last = Some(gate);
            let mut s = 0.0;
            for &v in x {
                if v > gate {
                    pending = Some(v * gate);
                } else if pending.is_some() {
                    s += pending.unwrap_or(0.0) * v;
                    pending = None;
                }
                last = Some(v);
            }
            let r = match last {
                Some(l) if l > s => l * s,
                Some(_) => s,
                None => 1.0,
            };
            if pending.is_none() { r } else { s }
        }",
    );
}

/// An `Option` local of a generic scalar (its value starts at the
/// scalar's zero), under `hessian`: the second-order copy too.
#[test]
fn option_locals_generic() {
    check_with(
        "option_locals_generic",
        "hessian",
        "fn f(x: &[f64]) -> f64 {
            let mut last: Option<f64> = None;
            for &v in x {
                if v > 0.0 { last = Some(v); }
            }
            match last {
                Some(v) => v * v,
                None => 0.5,
            }
        }",
    );
}

/// `iter_mut()` as users write in-place updates: plain, enumerated (with
/// `_` for the count), `for_each`, a compound assignment, a branch writing
/// the element, a zip with a slice.
#[test]
fn iter_mut_forms() {
    check(
        "iter_mut_forms",
        "fn f(x: &[f64], s: f64) -> f64 {
            let mut u = x.to_vec();
            for (i, v) in u.iter_mut().enumerate() {
                if *v > 0.0 { *v = v.sin() * (i as f64); }
            }
            for (_, v) in u.iter_mut().enumerate() { *v += s; }
            let mut w = [0.0; 2];
            for v in w.iter_mut() { *v = s * s; }
            u.iter_mut().for_each(|v| *v *= w[0]);
            for (r, &xi) in u.iter_mut().zip(x) { *r = *r * xi; }
            u[0] + u[1]
        }",
    );
}

/// `matches!` with a guard on an `Option` local.
#[test]
fn option_locals_matches() {
    check(
        "option_locals_matches",
        "fn f(x: &[f64]) -> f64 {
            let mut last: Option<f64> = None;
            for &v in x {
                if v > 0.0 { last = Some(v); }
            }
            let high = matches!(last, Some(p) if p > 1.0);
            if high { x[0] * x[1] } else { x[0] }
        }",
    );
}

/// Local arrays of arrays as users write grids and small matrices: filled
/// in loops over `0..g.len()` and `0..g[i].len()`, written, accumulated and
/// scaled by element, assigned whole in a branch, read at literal indices;
/// a typed identity whose diagonal a loop over `0..2` writes.
#[test]
fn nested_arrays_loops() {
    check(
        "nested_arrays_loops",
        "fn f(x: f64, y: f64) -> f64 {
            let mut g = [[0.0; 3]; 2];
            for i in 0..g.len() {
                for j in 0..g[i].len() {
                    g[i][j] = x * (i + j) as f64 + y;
                }
            }
            g[1][2] += x * x;
            if x > y { g[0][1] *= y; } else { g = [[x, y, x], [y, x, y]]; }
            let mut p: [[f64; 2]; 2] = [[1.0, 0.0], [0.0, 1.0]];
            for k in 0..2 { p[k][k] = g[k][k] - p[k][k]; }
            let mut s = 0.0;
            for i in 0..p.len() {
                for j in 0..2 { s += p[i][j] * g[i][j]; }
            }
            s + g[0][1] * g[1][2] + (g.len() * g[0].len()) as f64
        }",
    );
}

/// The other shapes of a nested literal (`[[a, b]; 3]`, rows of a constant
/// width `[[0.0; N]; M]`), a column bounded by `0..=1`, and the rows walked
/// by `iter_mut()` (rewritten into indexing before lowering).
#[test]
fn nested_arrays_forms() {
    check(
        "nested_arrays_forms",
        "fn f(x: f64, #[constant] n: usize) -> f64 {
            const N: usize = 2;
            let mut a = [[x, 1.0]; 3];
            let mut b = [[0.0; N]; 4];
            for i in 0..a.len() {
                for j in 0..N { b[i][j] = x * b[i][j] + 1.0; }
                for j in 0..=1 { a[i][j] += a[i][0] * x; }
            }
            for row in a.iter_mut() {
                for v in row.iter_mut() { *v *= x; }
            }
            let mut t = 0.0;
            for _ in 0..n {
                for k in 0..N { t += a[2][1] * b[3][k] / b[k].len() as f64; }
            }
            t
        }",
    );
}

/// The rows of an array of arrays walked by `iter_mut()`, each row's
/// elements walked in turn: enumerated, by `for_each`, a row's `len()`,
/// an element compared and written in a branch.
#[test]
fn nested_arrays_rows_walked() {
    check(
        "nested_arrays_rows_walked",
        "fn f(x: f64, y: f64) -> f64 {
            let mut g = [[x, y, 1.0], [y, 2.0, x]];
            for (r, row) in g.iter_mut().enumerate() {
                let w = row.len() as f64;
                for (c, v) in row.iter_mut().enumerate() {
                    if *v > 1.0 { *v = *v * x + (r * c) as f64 / w; }
                }
            }
            g.iter_mut().for_each(|row| row.iter_mut().for_each(|v| *v *= y));
            g[0][1] * g[1][2]
        }",
    );
}

/// A struct built in the body, written by field in a loop and a branch
/// (`=`, `+=`, `*=`), assigned anew from its fields and with `..s`, and
/// read by field at the end.
#[test]
fn struct_locals_branches_loops() {
    check(
        "struct_locals_branches_loops",
        "fn f(x0: f64, v0: f64, k: f64, steps: usize) -> f64 {
            let mut s = State { x: x0, v: v0 };
            for _ in 0..steps {
                let a = -k * s.x;
                s.v += a * 0.1;
                if s.x > 1.0 {
                    s.v = -s.v;
                } else {
                    s.x *= 0.5;
                }
                s = State { x: s.x + s.v * 0.1, ..s };
            }
            s = State { v: s.x, x: s.v };
            s.x * s.v
        }",
    );
}

/// Struct locals shadowed: by a struct reading the one before, in a block
/// (the shadow ends with it), by its own update (`..s`), by another
/// struct; a `mut` shadow written in a loop.
#[test]
fn struct_locals_shadowing() {
    check(
        "struct_locals_shadowing",
        "fn f(a: f64, b: f64, steps: usize) -> f64 {
            let s = State { x: a, v: b };
            let s = State { x: s.v, v: s.x * 2.0 };
            let inner = {
                let s = State { x: s.x * s.v, v: s.x.sin() };
                s.x + s.v
            };
            let s = State { v: s.x * inner, ..s };
            let mut s = State { x: s.x + inner, ..s };
            for _ in 0..steps {
                s.x = s.x * 0.5 + s.v * 0.25;
            }
            let s = Interval { lo: s.x.min(s.v), hi: s.x.max(s.v) };
            s.hi * s.hi - s.lo
        }",
    );
}

/// A struct with a `Vec` field written by element, an integer field
/// counted and cast, and fields read in an assertion.
#[test]
fn struct_locals_field_arrays() {
    check(
        "struct_locals_field_arrays",
        "fn f(x: &[f64], r: f64) -> f64 {
            let mut w = Work { total: 0.0, weights: vec![1.0; x.len()], count: 0, scale: r };
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
            debug_assert!(w.total.is_finite());
            w = Work { total: w.total / (w.count as f64 + 1.0), ..w };
            w.total + w.scale * w.weights[0]
        }",
    );
}

/// A struct local of a generic scalar under `hessian`: the second-order
/// copy too.
#[test]
fn struct_locals_hessian() {
    check_with(
        "struct_locals_hessian",
        "hessian",
        "fn f(a: f64, b: f64, theta: f64) -> f64 {
            let p = Point { x: a, y: b };
            let (s, c) = theta.sin_cos();
            let mut q = Point { x: c * p.x - s * p.y, y: s * p.x + c * p.y };
            if q.x > 0.0 { q.y = q.y * 2.0; }
            q.x * q.x * q.y + p.y
        }",
    );
}
