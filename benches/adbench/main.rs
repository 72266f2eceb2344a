//! ADBench's GMM, BA and LSTM under criterion, on a representative subset
//! of the sizes (`examples/adbench_report.rs` times every size and prints
//! the ratios to Manual; `BENCHMARKS.md` holds its table).
//!
//! ```text
//! cargo bench --bench adbench                # everything here
//! cargo bench --bench adbench -- gmm         # one problem
//! ```
//!
//! Every gradient is checked against ADBench's Manual one, and Manual
//! against central differences, before anything is timed.

use std::hint::black_box;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, measurement::WallTime};

#[path = "mod.rs"]
#[allow(dead_code)]
mod adbench;

use adbench::{ba, data, gmm, lstm};

fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat).sample_size(10);
    g
}

fn benches(c: &mut Criterion) {
    for (d, k) in adbench::GMM_QUICK {
        let inp = data::gmm(d, k, adbench::GMM_N);
        if let Err(e) = gmm::check(&inp, 8) {
            panic!("GMM d={d} K={k}: {e}");
        }
        let mi = gmm::matrix::MatrixInput::from_adbench(&inp);
        let mut j = vec![0.0; inp.n_params()];
        let mut g = group(c, &format!("gmm_d{d}_K{k}"));
        g.bench_function("objective", |b| b.iter(|| gmm::primal(black_box(&inp))));
        g.bench_function("manual", |b| {
            b.iter(|| gmm::manual::gmm_objective_d(black_box(&inp), &mut j))
        });
        g.bench_function("ours", |b| b.iter(|| gmm::ours(black_box(&inp))));
        g.bench_function("ours_acc", |b| {
            b.iter(|| gmm::ours_acc(black_box(&inp), &mut j))
        });
        g.bench_function("matrix_objective", |b| {
            b.iter(|| gmm::matrix::primal(black_box(&mi)))
        });
        g.bench_function("matrix_ours", |b| {
            b.iter(|| gmm::matrix::ours(black_box(&mi)))
        });
        g.finish();
    }
    for &(name, n, m, p) in &data::BA_SHAPES[..2] {
        let inp = data::ba(n, m, p);
        if let Err(e) = ba::check(&inp, 16) {
            panic!("BA {name}: {e}");
        }
        let mut out = ba::BaOutput::new(&inp);
        let mut err = vec![0.0; 2 * p];
        let mut w_err = vec![0.0; p];
        let mut block = [0.0; 30];
        let mut g = group(c, &format!("ba_{name}"));
        g.bench_function("objective", |b| {
            b.iter(|| ba::primal(black_box(&inp), &mut err, &mut w_err))
        });
        g.bench_function("manual", |b| {
            b.iter(|| ba::manual::jacobian(black_box(&inp), &mut out, &mut block))
        });
        g.bench_function("ours", |b| b.iter(|| ba::ours(black_box(&inp), &mut out)));
        let mut jac_block = ba::block();
        g.bench_function("ours_acc", |b| {
            b.iter(|| ba::ours_acc(black_box(&inp), &mut out, &mut jac_block))
        });
        g.finish();
    }
    for (l, cc) in [(2, 1024), (4, 4096)] {
        let inp = data::lstm(l, cc);
        if let Err(e) = lstm::check(&inp, 12) {
            panic!("LSTM l={l} c={cc}: {e}");
        }
        let mut j = vec![0.0; inp.n_params()];
        let mut ws = lstm::reverse::Workspace::new(&inp);
        let mut g = group(c, &format!("lstm_l{l}_c{cc}"));
        g.bench_function("objective", |b| b.iter(|| lstm::primal(black_box(&inp))));
        g.bench_function("manual", |b| {
            b.iter(|| lstm::manual::lstm_objective_d(black_box(&inp), &mut j))
        });
        g.bench_function("reverse", |b| {
            b.iter(|| lstm::reverse::gradient_into(black_box(&inp), &mut ws, &mut j))
        });
        g.bench_function("ours", |b| b.iter(|| lstm::ours(black_box(&inp))));
        g.bench_function("ours_acc", |b| {
            b.iter(|| lstm::ours_acc(black_box(&inp), &mut j))
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
