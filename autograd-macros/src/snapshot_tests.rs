//! Expansion snapshots: the generated code for a few functions, pretty
//! printed, so a change to what the macro writes is seen in review.
//! `UPDATE_SNAPSHOTS=1 cargo test -p autograd-macros` rewrites them.

use std::path::PathBuf;

fn expand_to_string(src: &str) -> String {
    let item: syn::ItemFn = syn::parse_str(src).expect("test input parses");
    let tokens = crate::expand::expand(proc_macro2::TokenStream::new(), quote::quote!(#item));
    let file: syn::File = syn::parse2(tokens).expect("expansion parses as items");
    prettyplease::unparse(&file)
}

fn check(name: &str, src: &str) {
    let actual = expand_to_string(src);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/expand")
        .join(format!("{name}.rs"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() || !path.exists() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap();
    assert!(
        expected == actual,
        "expansion of `{name}` changed; review it and rerun with UPDATE_SNAPSHOTS=1\n--- new ---\n{actual}"
    );
}

#[test]
fn seed_w() {
    check(
        "seed_w",
        "fn w(x: f64, y: f64) -> f64 { let z = x * y; z + x }",
    );
}

#[test]
fn accumulate_in_loop() {
    check(
        "accumulate_in_loop",
        "fn discount(rate: f64, n: usize) -> f64 {
            let mut acc = 1.0;
            for _ in 0..n {
                acc *= 1.0 / (1.0 + rate);
            }
            acc
        }",
    );
}

#[test]
fn rosenbrock() {
    check(
        "rosenbrock",
        "fn rosenbrock(x: &[f64]) -> f64 {
            let mut s = 0.0;
            for i in 0..x.len() - 1 {
                let a = 1.0 - x[i];
                let b = x[i + 1] - x[i] * x[i];
                s += a * a + 100.0 * b * b;
            }
            s
        }",
    );
}

#[test]
fn huber() {
    check(
        "huber",
        "fn huber(r: f64, delta: f64) -> f64 {
            let a = r.abs();
            if a <= delta { 0.5 * r * r } else { delta * (a - 0.5 * delta) }
        }",
    );
}

#[test]
fn dense_nalgebra() {
    check(
        "dense_nalgebra",
        "fn dense_nalgebra(w: &DMatrix<f64>, x: &DVector<f64>, b: &DVector<f64>) -> f64 {
            (w * x + b).map(f64::tanh).sum()
        }",
    );
}

#[test]
fn matrix_accumulate() {
    check(
        "matrix_accumulate",
        "fn quad(a: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
            let y = a * x + x;
            y.transpose().component_mul(&y.transpose()).sum()
        }",
    );
}

#[test]
fn matrix_broadcast_fallback() {
    check(
        "matrix_broadcast_fallback",
        "fn shared_operand(w: &DMatrix<f64>, x: &DMatrix<f64>) -> f64 {
            let z = w * x;
            let h = z.map(f64::tanh);
            let a = z.sum();
            let s = h.sum();
            s + 3.0 * a
        }",
    );
}

#[test]
fn matrix_lent_adjoint() {
    check(
        "matrix_lent_adjoint",
        "fn lent_difference(x: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
            let p = x.component_mul(x);
            let q = p - b;
            q.map(f64::exp).sum() + x.sum()
        }",
    );
}

#[test]
fn stencil_three_point() {
    check(
        "stencil_three_point",
        "fn smooth(x: &[f64]) -> f64 {
            let mut s = 0.0;
            for i in 1..x.len() - 1 {
                let d = x[i - 1] - 2.0 * x[i] + x[i + 1];
                s += d * d;
            }
            s
        }",
    );
}

#[test]
fn bond() {
    check(
        "bond",
        "fn bond_price(r: &[f64], z: f64, #[constant] cf: &[f64], #[constant] t: &[f64]) -> f64 {
            let mut p = 0.0;
            for i in 0..cf.len() {
                p += cf[i] * (-(r[i] + z) * t[i]).exp();
            }
            p
        }",
    );
}

#[test]
fn dense_loops() {
    check(
        "dense_loops",
        "fn dense_loops(w: &[f64], x: &[f64], b: &[f64]) -> f64 {
            let n = x.len();
            let mut s = 0.0;
            for i in 0..b.len() {
                let mut acc = b[i];
                for j in 0..n {
                    acc += w[i * n + j] * x[j];
                }
                s += acc.tanh();
            }
            s
        }",
    );
}

#[test]
fn map_reads_constants() {
    check(
        "map_reads_constants",
        "fn map_reads_constants(m: &DMatrix<f64>, #[constant] c: f64, n: usize) -> f64 {
            let k = n as f64 * 0.5;
            let e = m.map(|v| (v * c).sin() + k * v);
            e.sum()
        }",
    );
}

/// Prints the expansion of the function in the file named by
/// `AUTOGRAD_EXPAND`: `AUTOGRAD_EXPAND=f.rs cargo test -p autograd-macros
/// print_expansion -- --ignored --nocapture`. A debugging aid.
#[test]
#[ignore]
fn print_expansion() {
    let path = std::env::var("AUTOGRAD_EXPAND").expect("AUTOGRAD_EXPAND names a file");
    let src = std::fs::read_to_string(path).expect("the file reads");
    println!("{}", expand_to_string(&src));
}

#[test]
fn checkpointed_euler() {
    check(
        "checkpointed_euler",
        "fn decay(x0: f64, k: f64, n: usize) -> f64 {
            let mut x = x0;
            #[checkpoint]
            for _ in 0..n {
                x = x - 1e-3 * k * x.sin();
            }
            let mut t = 0.0;
            #[checkpoint(snapshots = 8)]
            while t < 1.0 {
                x = x * (1.0 - 1e-3 * x);
                t = t + 1e-2;
            }
            x
        }",
    );
}

#[test]
fn loop_exits() {
    // `break` keeps the `for` (and its reservation): the iterations after
    // it run as no-ops under the loop's flag.
    check(
        "loop_exits",
        "fn sum_squares_until(xs: &[f64], #[constant] t: f64) -> f64 {
            let mut s = 0.0;
            for i in 0..xs.len() {
                if xs[i] > t {
                    break;
                }
                s += xs[i] * xs[i];
            }
            s
        }",
    );
}
