//! Forward mode against the primal: for every case of the suite, one
//! `NAME_jvp` call (the value and one directional derivative, along the
//! all-ones direction) next to one primal call, in one criterion group
//! per case. Their ratio is forward mode's cost per direction.
//!
//! ```text
//! cargo bench --bench jvp                 # every case
//! cargo bench --bench jvp -- rosenbrock   # one family
//! ```
//!
//! Groups `jacobian_n16` (and `jacobian_n5`): the dense `NAME_jacobian`
//! of a function of 16 (5) inputs and twice as many outputs (so it sweeps
//! forward), whose sweeps carry `autograd::lanes::LANES` directions each
//! (vector mode, ⌈n/K⌉ sweeps), against the n one-direction sweeps of
//! `NAME_jvp` it took before, filling the same matrix; both checked equal
//! first.
//!
//! Group `jacobian_call_n16`: the same with the second output computed
//! by a call of another `#[differentiable(jvp)]` function, whose K-lane
//! JVP the caller's sweeps go through.
//!
//! ```text
//! cargo bench --bench jvp -- jacobian
//! ```
//!
//! `BENCH_CALLS=case/contender/count` (contender `primal` or `jvp`) runs
//! that many calls of one contender and nothing else, for instruction
//! counts (`benches/jvp_instructions.sh`).
//!
//! Before anything is timed, every tangent is checked against the
//! gradient (⟨∇f, 1⟩, to `1e-9` relative) and every value against the
//! primal's, bit for bit; a mismatch stops the run.

use std::hint::black_box;

use criterion::{Criterion, SamplingMode};
use nalgebra::{DMatrix, DVector};

#[allow(dead_code)]
mod cases;

use cases::{black_scholes, bond, dense, rosenbrock, zspread};

/// 2n outputs over n inputs, each reading three of them through a
/// product, a quotient and `sin`/`exp`.
#[autograd::differentiable(jvp)]
fn field(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut out = Vec::new();
    for i in 0..n {
        let (a, b, c) = (x[i], x[(i + 1) % n], x[(i + 5) % n]);
        out.push(a * b + (a - c).sin());
        out.push((b * c).exp() / (1.0 + a * a));
    }
    out
}

/// `field`'s second output, as a helper of its own.
#[autograd::differentiable(jvp)]
fn scaled_exp(a: f64, b: f64, c: f64) -> f64 {
    (b * c).exp() / (1.0 + a * a)
}

/// `field` with its second output computed by a call of `scaled_exp`:
/// the caller's K-lane sweep goes through the helper's.
#[autograd::differentiable(jvp)]
fn field_with_call(x: &[f64]) -> Vec<f64> {
    let n = x.len();
    let mut out = Vec::new();
    for i in 0..n {
        let (a, b, c) = (x[i], x[(i + 1) % n], x[(i + 5) % n]);
        out.push(a * b + (a - c).sin());
        out.push(scaled_exp(a, b, c));
    }
    out
}

/// A function's Jacobian from one sweep of its `jvp` per input, along the
/// unit directions: the forward path before vector mode.
fn jacobian_by_sweeps(
    jvp: impl Fn(&[f64], &[f64]) -> (Vec<f64>, Vec<f64>),
    x: &[f64],
    d: &mut [f64],
) -> (Vec<f64>, DMatrix<f64>) {
    let mut j = DMatrix::zeros(0, 0);
    let mut value = Vec::new();
    for k in 0..x.len() {
        d[k] = 1.0;
        let (v, t) = jvp(x, d);
        d[k] = 0.0;
        if k == 0 {
            j = DMatrix::zeros(t.len(), x.len());
            value = v;
        }
        j.column_mut(k)
            .iter_mut()
            .zip(&t)
            .for_each(|(e, t)| *e = *t);
    }
    (value, j)
}

/// The `jacobian_nN` group (`jacobian_call_nN` of `field_with_call`):
/// vector mode against one sweep per input.
fn bench_jacobian(
    c: &mut Criterion,
    group: &str,
    n: usize,
    jacobian: impl Fn(&[f64]) -> (Vec<f64>, DMatrix<f64>),
    jvp: impl Fn(&[f64], &[f64]) -> (Vec<f64>, Vec<f64>) + Copy,
) {
    let x: Vec<f64> = (0..n).map(|i| 0.2 + 0.05 * i as f64).collect();
    let mut d = vec![0.0; x.len()];
    let (value, j) = jacobian(&x);
    let (by_value, by_sweeps) = jacobian_by_sweeps(jvp, &x, &mut d);
    assert_eq!(value, by_value, "{group}: value");
    for (a, b) in j.iter().zip(by_sweeps.iter()) {
        assert!((a - b).abs() <= 1e-15 * b.abs(), "{group}: {a} against {b}");
    }
    let mut g = c.benchmark_group(group);
    g.sampling_mode(SamplingMode::Flat).sample_size(50);
    g.bench_function("lanes", |b| b.iter(|| jacobian(black_box(&x))));
    g.bench_function("scalar_sweeps", |b| {
        b.iter(|| jacobian_by_sweeps(jvp, black_box(&x), &mut d))
    });
    g.finish();
}

/// A case: its primal, its JVP along the all-ones direction (directions
/// built once, outside the timing), and its gradient summed (the same
/// derivative, for the check).
struct Case {
    name: String,
    primal: Box<dyn Fn() -> f64>,
    jvp: Box<dyn Fn() -> (f64, f64)>,
    gradient_sum: f64,
}

fn every_case() -> Vec<Case> {
    let mut out = Vec::new();
    for n in cases::ROSENBROCK_SIZES {
        let inp = rosenbrock::Inputs::new(n);
        let ones = vec![1.0; n];
        let (_, g) = rosenbrock::ours(&inp);
        let x = inp.x.clone();
        out.push(Case {
            name: format!("rosenbrock_n{n}"),
            gradient_sum: g.iter().sum(),
            primal: Box::new(move || rosenbrock::rosenbrock(black_box(&inp.x))),
            jvp: Box::new(move || rosenbrock::rosenbrock_jvp(black_box(&x), black_box(&ones))),
        });
    }
    {
        let [s, k, r, v, t] = black_scholes::Inputs::new().args;
        let (_, g) = black_scholes::ours(&black_scholes::Inputs::new());
        use black_scholes::example::{call_price, call_price_jvp};
        out.push(Case {
            name: "black_scholes".into(),
            gradient_sum: g.iter().sum(),
            primal: Box::new(move || call_price(black_box(s), k, r, v, t)),
            jvp: Box::new(move || {
                call_price_jvp(black_box(s), k, r, v, t, 1.0, 1.0, 1.0, 1.0, 1.0)
            }),
        });
    }
    {
        let inp = bond::Inputs::new();
        let (_, dr, dz) = bond::ours(&inp);
        let ones = vec![1.0; inp.r.len()];
        let inp2 = bond::Inputs::new();
        out.push(Case {
            name: "bond".into(),
            gradient_sum: dr.iter().sum::<f64>() + dz,
            primal: Box::new(move || bond::primal(black_box(&inp))),
            jvp: Box::new(move || {
                bond::bond_price_jvp(black_box(&inp2.r), inp2.z, &inp2.cf, &inp2.t, &ones, 1.0)
            }),
        });
    }
    {
        let inp = dense::loops::Inputs::new();
        let (_, dw, dx, db) = dense::loops::ours(&inp);
        let inp2 = dense::loops::Inputs::new();
        let (ow, ox, ob) = (
            vec![1.0; dw.len()],
            vec![1.0; dx.len()],
            vec![1.0; db.len()],
        );
        out.push(Case {
            name: "dense_loops".into(),
            gradient_sum: dw.iter().chain(&dx).chain(&db).sum(),
            primal: Box::new(move || dense::loops::primal(black_box(&inp))),
            jvp: Box::new(move || {
                dense::loops::dense_loops_jvp(black_box(&inp2.w), &inp2.x, &inp2.b, &ow, &ox, &ob)
            }),
        });
    }
    {
        let inp = dense::matrix::Inputs::new();
        let (_, dw, dx, db) = dense::matrix::ours(&inp);
        let inp2 = dense::matrix::Inputs::new();
        let ow = DMatrix::from_element(dw.nrows(), dw.ncols(), 1.0);
        let (ox, ob) = (
            DVector::from_element(dx.len(), 1.0),
            DVector::from_element(db.len(), 1.0),
        );
        out.push(Case {
            name: "dense_nalgebra".into(),
            gradient_sum: dw.sum() + dx.sum() + db.sum(),
            primal: Box::new(move || dense::matrix::primal(black_box(&inp))),
            jvp: Box::new(move || {
                dense::matrix::dense_nalgebra_jvp(
                    black_box(&inp2.w),
                    &inp2.x,
                    &inp2.b,
                    &ow,
                    &ox,
                    &ob,
                )
            }),
        });
    }
    {
        let inp = zspread::Inputs::new();
        let (_, dr, dm) = zspread::ours(&inp);
        let inp2 = zspread::Inputs::new();
        let ones = vec![1.0; inp.r.len()];
        out.push(Case {
            name: "zspread".into(),
            gradient_sum: dr.iter().sum::<f64>() + dm,
            primal: Box::new(move || zspread::primal(black_box(&inp))),
            jvp: Box::new(move || {
                zspread::z_spread_jvp(
                    black_box(&inp2.r),
                    inp2.market,
                    &inp2.cf,
                    &inp2.t,
                    &ones,
                    1.0,
                )
                .expect("a root in the bracket")
            }),
        });
    }
    out
}

/// `BENCH_CALLS=case/contender/count`: that many calls, no checks, no
/// criterion.
fn run_calls(every: &[Case], spec: &str) {
    let parts: Vec<&str> = spec.split('/').collect();
    let [name, who, count] = parts[..] else {
        panic!("BENCH_CALLS is case/contender/count, not {spec}");
    };
    let count: usize = count.parse().expect("a call count");
    let case = every
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("unknown case {name}"));
    for _ in 0..count {
        match who {
            "primal" => drop(black_box((case.primal)())),
            "jvp" => drop(black_box((case.jvp)())),
            other => panic!("unknown contender {other}"),
        }
    }
}

fn main() {
    let every = every_case();
    if let Ok(spec) = std::env::var("BENCH_CALLS") {
        run_calls(&every, &spec);
        return;
    }
    for case in &every {
        let (value, tangent) = (case.jvp)();
        assert_eq!(
            value.to_bits(),
            (case.primal)().to_bits(),
            "{}: value",
            case.name
        );
        let tol = 1e-9 * case.gradient_sum.abs().max(1.0);
        assert!(
            (tangent - case.gradient_sum).abs() <= tol,
            "{}: tangent {tangent}, gradient along the direction {}",
            case.name,
            case.gradient_sum
        );
    }
    let mut c = Criterion::default().configure_from_args();
    bench_jacobian(&mut c, "jacobian_n16", 16, field_jacobian, field_jvp);
    bench_jacobian(&mut c, "jacobian_n5", 5, field_jacobian, field_jvp);
    bench_jacobian(
        &mut c,
        "jacobian_call_n16",
        16,
        field_with_call_jacobian,
        field_with_call_jvp,
    );
    for case in &every {
        let mut g = c.benchmark_group(format!("jvp_{}", case.name));
        g.sampling_mode(SamplingMode::Flat).sample_size(50);
        g.bench_function("primal", |b| b.iter(|| (case.primal)()));
        g.bench_function("jvp", |b| b.iter(|| (case.jvp)()));
        g.finish();
    }
    c.final_summary();
}
