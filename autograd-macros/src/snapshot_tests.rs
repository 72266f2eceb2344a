//! Expansion snapshots: the generated code for a few functions, pretty
//! printed, so a change to what the macro writes is seen in review.
//! `UPDATE_SNAPSHOTS=1 cargo test -p autograd-macros` rewrites them.

use std::path::PathBuf;

pub(crate) fn expand_to_string(attr: &str, src: &str) -> String {
    let item: syn::ItemFn = syn::parse_str(src).expect("test input parses");
    let attr: proc_macro2::TokenStream = attr.parse().expect("attribute parses");
    let tokens = crate::expand::expand(attr, quote::quote!(#item));
    let file: syn::File = syn::parse2(tokens).expect("expansion parses as items");
    prettyplease::unparse(&file)
}

fn check(name: &str, src: &str) {
    check_with(name, "", src);
}

/// The expansion of an `impl` block under `#[differentiable(attr)]`.
fn check_impl(name: &str, attr: &str, src: &str) {
    let imp: syn::ItemImpl = syn::parse_str(src).expect("test input parses");
    let tokens = crate::structs::expand_impl(attr.parse().expect("attribute parses"), imp);
    let file: syn::File = syn::parse2(tokens).expect("expansion parses as items");
    compare(name, prettyplease::unparse(&file));
}

/// The expansion under `#[differentiable(attr)]`.
fn check_with(name: &str, attr: &str, src: &str) {
    compare(name, expand_to_string(attr, src));
}

fn compare(name: &str, actual: String) {
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
fn jvp_loop_and_branch() {
    check_with(
        "jvp_loop_and_branch",
        "jvp",
        "fn damped(x: f64, k: f64, n: usize) -> f64 {
            let mut s = x;
            for _ in 0..n {
                if s > 1.0 { s = s.sqrt() * k; } else { s = s * k + x; }
            }
            s.exp()
        }",
    );
}

/// Second order: the twin (literals through the scalar, `+=` as `+`, a
/// call of the callee's twin, a cast), the callee check, `_hvp` and
/// `_hessian`.
#[test]
fn hessian_loop_call_and_cast() {
    check_with(
        "hessian_loop_call_and_cast",
        "hessian",
        "fn energy(x: f64, w: &[f64], #[constant] n: usize) -> f64 {
            let mut s = 0.5 * x * x;
            for i in 0..w.len() {
                s += softplus(w[i] * x) / (n as f64) + std::f64::consts::PI;
            }
            s
        }",
    );
}

/// Local `Vec`s under `hessian`: the twin's `vec!` elements are of its
/// scalar as `[e; n]`'s are, and a declared `Vec<f64>` keeps its type, as
/// `Vec` of the scalar.
#[test]
fn hessian_vec_locals() {
    check_with(
        "hessian_vec_locals",
        "hessian",
        "fn spread(x: &[f64]) -> f64 {
            let mut v: Vec<f64> = vec![0.0; x.len()];
            for i in 0..x.len() {
                v[i] = x[i] * x[0];
            }
            let w = vec![1.5, x[1]];
            v[1] * w[0] * w[1]
        }",
    );
}

/// `hessian` on a function of a matrix and a vector: the twin computes
/// with matrices of its scalar (`rules::linalg::MatrixScalar`), `norm` by
/// the runtime's helper; `_hvp` takes matrix directions and returns the
/// primal's value.
#[test]
fn hessian_matrix_vector() {
    check_with(
        "hessian_matrix_vector",
        "hessian",
        "fn quad(x: &DVector<f64>, a: &DMatrix<f64>) -> f64 {
            x.dot(&(a * x)) + (2.0 * x).norm()
        }",
    );
}

#[test]
fn jvp_array_writes_and_push() {
    check_with(
        "jvp_array_writes_and_push",
        "jvp",
        "fn waves(x: Vec<f64>, w: f64) -> Vec<f64> {
            let mut v = x;
            for i in 0..v.len() {
                v[i] = (w * v[i]).sin();
            }
            v.push(w);
            v
        }",
    );
}

/// Forward mode over slices: the benchmark's Rosenbrock.
/// A call in a K-lane sweep: through the callee's K-lane JVP, giving up
/// (`None`) where it does; its float result in scalar rules lane by lane.
#[test]
fn jvp_lanes_through_a_call() {
    check_with(
        "jvp_lanes_through_a_call",
        "jvp",
        "fn with_helper(x: &[f64]) -> Vec<f64> {
            let mut out = Vec::new();
            for i in 0..x.len() {
                out.push(2.0 * bump(x[i], x[0]) + x[i].sin());
            }
            out
        }",
    );
}

#[test]
fn jvp_rosenbrock() {
    check_with(
        "jvp_rosenbrock",
        "jvp",
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

/// Forward mode of a function generic over its scalar: generic items with
/// the function's bounds, zeros through `Real`, a generic callee's
/// tangent wrapped as `ScalarTangent`, the `ForwardMode` implementation at `T`.
#[test]
fn jvp_generic() {
    check_with(
        "jvp_generic",
        "jvp",
        "fn weighted<T>(x: T, w: &[T], #[constant] c: T) -> T where T: num_traits::Float {
            let mut s = T::zero();
            for i in 0..w.len() {
                s = s + w[i] * x.sin() + c;
            }
            logistic::<T>(s, c) * logistic(x, T::one())
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

/// Generic over its scalar: constants through `Real`, `+` for `+=`, the
/// type parameter captured by the pullback.
#[test]
fn generic_scalar() {
    check(
        "generic_scalar",
        "fn generic_scalar<T: Float>(x: T, y: &[T]) -> T {
            let mut s = T::zero();
            for i in 0..y.len() { s = s + y[i] * x.exp(); }
            s * T::from(2.0).unwrap()
        }",
    );
}

/// Generic over a `RealField` scalar: methods called through `Float`.
#[test]
fn real_field_scalar() {
    check(
        "real_field_scalar",
        "fn real_field_scalar<T>(x: T) -> T where T: RealField + Copy {
            x.sin() * x
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

/// Vector reads by index in a loop, `dot` of a column, `norm_squared`.
#[test]
fn vector_reads() {
    check(
        "vector_reads",
        "fn vector_reads(m: &DMatrix<f64>, x: &DVector<f64>) -> f64 {
            let mut s = 0.0;
            for i in 0..x.len() {
                s += m[(i, 0)] * x[i];
            }
            s + m.column(1).dot(x) + x.norm_squared()
        }",
    );
}

/// Prints the expansion of the function in the file named by
/// `AUTOGRAD_EXPAND`: `AUTOGRAD_EXPAND=f.rs cargo test -p autograd-macros
/// print_expansion -- --ignored --nocapture`, under the attribute's
/// arguments in `AUTOGRAD_ATTR` (`jvp`) if set. A debugging aid.
#[test]
#[ignore]
fn print_expansion() {
    let path = std::env::var("AUTOGRAD_EXPAND").expect("AUTOGRAD_EXPAND names a file");
    let src = std::fs::read_to_string(path).expect("the file reads");
    let attr = std::env::var("AUTOGRAD_ATTR").unwrap_or_default();
    println!("{}", expand_to_string(&attr, &src));
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

/// An iterator chain: the same loop as the index loop a user would write
/// (`for i in 0..n { let d = x[i] - y[i]; s += d * d; }`), its bound the
/// shorter slice's length, its running sum from Rust's `-0.0`.
#[test]
fn iterator_zip_map_sum() {
    check(
        "iterator_zip_map_sum",
        "fn squared_distance(x: &[f64], y: &[f64]) -> f64 {
            x.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum::<f64>()
        }",
    );
}

#[test]
fn array_writes_in_loop() {
    check(
        "array_writes_in_loop",
        "fn iterate(x: f64, y: f64, n: usize) -> [f64; 2] {
            let mut v = [x, y];
            for i in 0..n {
                v[0] = v[0].sin();
                v[1] += v[0] * (i as f64);
            }
            v
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

/// A `Tangent` struct by reference: each field read becomes an argument of
/// the flat function inside the VJP wrapper.
#[test]
fn struct_fields() {
    check(
        "struct_fields",
        "fn line(p: &Params, x: f64) -> f64 { p.slope * x + p.intercept * p.count as f64 }",
    );
}

/// A collection field (`Vec<f64>`, `[f64; N]`, `DVector<f64>`) read by
/// index and length: a `&[f64]` argument of the flat function, its
/// adjoint added back into the field.
#[test]
fn struct_collection_field() {
    check(
        "struct_collection_field",
        "fn affine(p: &Layer, x: &[f64]) -> f64 {
            let mut s = p.bias.b;
            for i in 0..p.w.len() {
                s += p.w[i] * x[i];
            }
            s
        }",
    );
}

#[test]
fn struct_jvp_hessian() {
    check_with(
        "struct_jvp_hessian",
        "jvp, hessian",
        "fn line(p: &Params, x: f64) -> f64 { (p.slope * x).sin() + p.w[0] * p.intercept }",
    );
}

#[test]
fn option_local_and_search() {
    check(
        "option_local_and_search",
        "fn total_variation(x: &[f64], #[constant] knots: &[f64], t: f64) -> f64 {
            let i = knots.iter().position(|&k| k >= t).unwrap_or(0);
            let mut prev: Option<f64> = None;
            let mut tv = 0.0;
            for &v in x {
                if let Some(p) = prev {
                    tv += (v - p).abs();
                }
                prev = Some(v);
            }
            tv * x[i]
        }",
    );
}

#[test]
fn nested_array_local() {
    check(
        "nested_array_local",
        "fn covariance_trace(q: f64, r: f64) -> f64 {
            let mut p = [[1.0, 0.0], [0.0, 1.0]];
            for _ in 0..2 {
                p = [[p[0][0] + q, p[0][1]], [p[1][0], p[1][1] + r]];
            }
            p[0][0] + p[1][1]
        }",
    );
}

#[test]
fn array_from_fn_step() {
    check(
        "array_from_fn_step",
        "fn euler_step(s: [f64; 2], h: f64, k: f64) -> f64 {
            let d: [f64; 2] = std::array::from_fn(|j| if j == 0 { s[1] } else { -k * s[0] });
            let next: [f64; 2] = std::array::from_fn(|i| s[i] + h * d[i]);
            next[0] * next[1]
        }",
    );
}

#[test]
fn iter_mut_softmax() {
    check(
        "iter_mut_softmax",
        "fn softmax_loss(z: &[f64], #[constant] label: usize) -> f64 {
            let mut p = z.to_vec();
            for v in p.iter_mut() {
                *v = v.exp();
            }
            let s: f64 = p.iter().sum();
            p.iter_mut().for_each(|v| *v /= s);
            -p[label].ln()
        }",
    );
}

#[test]
fn vector_built_from_floats() {
    check(
        "vector_built_from_floats",
        "fn spring_energy(x1: f64, y1: f64, x2: f64, y2: f64, #[constant] rest: f64) -> f64 {
            let d = Vector2::new(x2 - x1, y2 - y1);
            let stretch = d.norm() - rest;
            0.5 * stretch * stretch
        }",
    );
}

#[test]
fn struct_local_verlet() {
    check(
        "struct_local_verlet",
        "fn verlet(x0: f64, v0: f64, k: f64, #[constant] dt: f64, steps: usize) -> f64 {
            let mut s = State { x: x0, v: v0 };
            let mut a = -k * s.x;
            for _ in 0..steps {
                let x = s.x + s.v * dt + 0.5 * a * dt * dt;
                let a_next = -k * x;
                s = State { x, v: s.v + 0.5 * (a + a_next) * dt };
                a = a_next;
            }
            s.x + 0.1 * s.v
        }",
    );
}

/// A callee of two in-out slices (issue 36, item 4): its `__inout_call`
/// and `__inout_call_1`, each returning one final value, taking the
/// caller's own buffers (`__AdState0`, `__AdState1`).
#[test]
fn inout_two_slices() {
    check(
        "inout_two_slices",
        "fn symplectic(q: &mut [f64], p: &mut [f64], dt: f64) {
            for i in 0..q.len() {
                p[i] -= dt * q[i];
                q[i] += dt * p[i];
            }
        }",
    );
}

/// A callee generic over its scalar with an in-out slice and a result:
/// its `__inout_call` and `__inout_result` generic over `T` and the
/// caller's buffer (`__AdState0: AsMut<[T]>`), their check instantiated
/// at the call's value and pullback, and their `ForwardInOut` impls
/// choosing `T` by the caller's arguments.
#[test]
fn inout_generic_scalar() {
    check_with(
        "inout_generic_scalar",
        "jvp",
        "fn step<T: Float>(y: &mut [T], k: T, dt: T) -> T {
            let first = y[0];
            for i in 0..y.len() {
                y[i] = y[i] + dt * (-k * y[i]);
            }
            first
        }",
    );
}

#[test]
fn vector_result_keeps_callee_pullback() {
    // A function with a vector result makes its calls through the callee's
    // VJP and keeps the pullback where it is `Clone`; a call borrowing a
    // local is made again in the reverse sweep, by a callee that adds into
    // the caller's adjoints where it can (`__add_into`, which this one has
    // too), else through its pullback.
    check(
        "vector_result_keeps_callee_pullback",
        "fn reproj(cam: &[f64], x: &[f64], w: f64) -> [f64; 2] {
            let p = project(cam, x);
            let q = [p[0] * w, p[1] * w];
            let r = scale(&q, &cam[0..2]);
            [r[0] + q[0], r[1]]
        }",
    );
}

/// An array the innermost loop overwrites whole, two loops deep (GMM's
/// `xcentered`): the middle loop's spare buffer is declared before the
/// outer loop's reverse and passes on between its iterations, and the
/// outer loop copies no entry value of its own.
#[test]
fn overwritten_two_loops_deep() {
    check(
        "overwritten_two_loops_deep",
        "fn f(x: f64, w: &[f64], n: usize) -> f64 {
            let d = w.len();
            let mut a = vec![0.5; d];
            let mut s = 0.0;
            for i in 0..n {
                for k in 0..3 {
                    for j in 0..d {
                        a[j] = x * w[j] - (i * k) as f64;
                    }
                    for j in 0..d {
                        s += a[j] * a[d - 1 - j] * x;
                    }
                }
            }
            s
        }",
    );
}

/// A `Vec` an inner loop fills with expensive elements, which the outer
/// loop keeps for a call's reverse (GMM's `main_term` and `logsumexp`):
/// kept as rows of one buffer (`__ad_rows1`), popped into one reused
/// `Vec`, not a copy allocated per iteration.
#[test]
fn kept_vec_rows() {
    check(
        "kept_vec_rows",
        "fn f(x: &[f64], n: usize, k: usize) -> f64 {
            let mut t = vec![0.0; k];
            let mut s = 0.0;
            for i in 0..n {
                for j in 0..k {
                    t[j] = (x[j] * i as f64).sin();
                }
                s += logsumexp(&t);
            }
            s
        }",
    );
}

/// ADBench's LSTM as a user ports it: a state `Vec` updated in place,
/// layer after layer, character after character, through a scalar helper.
#[test]
fn lstm_objective() {
    check(
        "lstm_objective",
        "fn lstm_objective(
            l: usize,
            c: usize,
            b: usize,
            main_params: &[f64],
            extra_params: &[f64],
            #[constant] state0: &[f64],
            #[constant] sequence: &[f64],
        ) -> f64 {
            let mut state = vec![0.0; 2 * l * b];
            for i in 0..2 * l * b {
                state[i] = state0[i];
            }
            let mut ypred = vec![0.0; b];
            let mut total = 0.0;
            let mut count = 0;
            for t in 0..c - 1 {
                for i in 0..b {
                    ypred[i] = sequence[t * b + i] * extra_params[i];
                }
                for layer in 0..l {
                    let wp = layer * 8 * b;
                    let hp = layer * 2 * b;
                    for i in 0..b {
                        let input = if layer == 0 {
                            ypred[i]
                        } else {
                            state[hp - 2 * b + i]
                        };
                        let forget = sigmoid(input * main_params[wp + i] + main_params[wp + 4 * b + i]);
                        let ingate =
                            sigmoid(state[hp + i] * main_params[wp + b + i] + main_params[wp + 5 * b + i]);
                        let outgate =
                            sigmoid(input * main_params[wp + 2 * b + i] + main_params[wp + 6 * b + i]);
                        let change = (state[hp + i] * main_params[wp + 3 * b + i]
                            + main_params[wp + 7 * b + i])
                            .tanh();
                        state[hp + b + i] = state[hp + b + i] * forget + ingate * change;
                        state[hp + i] = outgate * state[hp + b + i].tanh();
                    }
                }
                let last = (l - 1) * 2 * b;
                for i in 0..b {
                    ypred[i] = state[last + i] * extra_params[b + i] + extra_params[2 * b + i];
                }
                let mut sum = 0.0;
                for i in 0..b {
                    sum += ypred[i].exp();
                }
                sum += 2.0;
                let lse = sum.ln();
                for i in 0..b {
                    total += sequence[(t + 1) * b + i] * (ypred[i] - lse);
                }
                count += b;
            }
            -total / count as f64
        }",
    );
}

/// An in-out slice beside a `Tangent` struct: `_vjp`'s pullback takes a
/// seed for the result, then one for the slice's final value, and holds
/// no borrow of the slice; the struct call's in-out items
/// (`__struct_call__inout_call`, ..) rebuild the struct and run its VJP
/// again on the slice's value on entry.
#[test]
fn struct_inout_slice() {
    check(
        "struct_inout_slice",
        "fn scaled(m: &Model, y: &mut [f64]) -> f64 { y[0] *= m.k; y[0] }",
    );
}

/// An in-out struct returning `()`: each field the body reads is an
/// in-out `&mut f64` of the flat function; `_vjp`'s pullback takes the
/// struct's seed only, starts the adjoint from it and puts each field's
/// through the flat pullback.
#[test]
fn struct_inout_state() {
    check(
        "struct_inout_state",
        "fn drift(s: &mut State, dt: f64) { s.x += dt * s.v; }",
    );
}

/// ADBench's GMM as a user ports it: local `Vec`s carried through nested
/// loops, a helper called on one of them per point.
#[test]
fn gmm_objective() {
    check(
        "gmm_objective",
        "fn gmm_objective(
            d: usize,
            k: usize,
            n: usize,
            alphas: &[f64],
            means: &[f64],
            icf: &[f64],
            #[constant] x: &[f64],
            #[constant] gamma: f64,
            m: usize,
            #[constant] wishart_c: f64,
        ) -> f64 {
            let constant = -((n * d) as f64) * 0.5 * (2.0 * std::f64::consts::PI).ln();
            let icf_sz = d * (d + 1) / 2;

            let mut qdiags = vec![0.0; d * k];
            let mut sum_qs = vec![0.0; k];
            for ik in 0..k {
                for id in 0..d {
                    let q = icf[ik * icf_sz + id];
                    sum_qs[ik] += q;
                    qdiags[ik * d + id] = q.exp();
                }
            }

            let mut xcentered = vec![0.0; d];
            let mut qxcentered = vec![0.0; d];
            let mut main_term = vec![0.0; k];
            let mut slse = 0.0;
            for ix in 0..n {
                for ik in 0..k {
                    for id in 0..d {
                        xcentered[id] = x[ix * d + id] - means[ik * d + id];
                    }
                    for id in 0..d {
                        qxcentered[id] = qdiags[ik * d + id] * xcentered[id];
                    }
                    let mut li = ik * icf_sz + d;
                    for i in 0..d {
                        for j in i + 1..d {
                            qxcentered[j] += icf[li] * xcentered[i];
                            li += 1;
                        }
                    }
                    let mut sqnorm = 0.0;
                    for id in 0..d {
                        sqnorm += qxcentered[id] * qxcentered[id];
                    }
                    main_term[ik] = alphas[ik] + sum_qs[ik] - 0.5 * sqnorm;
                }
                slse += logsumexp(&main_term);
            }

            let lse_alphas = logsumexp(alphas);
            let err = constant + slse - n as f64 * lse_alphas;
            err + log_wishart_prior(d, k, gamma, m, wishart_c, &sum_qs, &qdiags, icf)
        }",
    );
}

/// A method of a `#[differentiable(jvp)]` impl block taking `&self`: its
/// struct call is associated functions of the type
/// (`Curve::__autograd_discount__struct_call..`), which a free function's
/// `c.discount(t)` calls, and the type's `MethodForwardMode` for it; the
/// flat function stays in the module next to the block.
#[test]
fn impl_method_struct_call() {
    check_impl(
        "impl_method_struct_call",
        "jvp",
        "impl Curve { fn discount(&self, t: f64) -> f64 { (-(self.rate + self.slope * t) * t).exp() } }",
    );
}
