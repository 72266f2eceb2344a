//! The ADBench report (issue 37): every problem at every size of the
//! benchmark, each contender's time and its ratio to ADBench's Manual
//! derivative and to the objective, all measured in this one run, after
//! every gradient has been checked against Manual and Manual against
//! central differences.
//!
//! ```text
//! cargo run --release --example adbench_report                  # everything (~10 minutes on 2 cores)
//! cargo run --release --example adbench_report -- gmm ba        # some problems
//! cargo run --release --example adbench_report -- --quick       # the criterion bench's subset
//! cargo run --release --example adbench_report -- gmm --d 64    # the GMM sizes of one dimension
//! cargo run --release --example adbench_report -- --write-gmm DIR   # ADBench-format GMM files for gmm_jax.py
//! ```
//!
//! The contenders of a size are timed round-robin, one call each per
//! round, for at least 3 rounds and 1.5 s, after a warm-up call each; a
//! time is the fastest call in the thread's CPU time (on Linux; the machine
//! the table was measured on is shared, and wall-clock time there counts
//! the waits for a core, more of them the longer the call).

#[path = "../benches/adbench/mod.rs"]
#[allow(dead_code)]
mod adbench;

use std::hint::black_box;
use std::time::{Duration, Instant};

use adbench::{ba, data, gmm, lstm};

/// The CPU time this thread has used, in seconds: on a shared machine
/// wall-clock time counts the time the thread waited for a core, more of
/// it the longer the call, which skews ratios between short and long
/// calls; CPU time does not.
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> f64 {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    unsafe extern "C" {
        fn clock_gettime(clock: i32, tp: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid `struct timespec` (64-bit Linux layout) that
    // clock_gettime writes.
    let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID)");
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Elsewhere, wall-clock time since the first call.
#[cfg(not(target_os = "linux"))]
fn thread_cpu_time() -> f64 {
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

/// Times the contenders round-robin, one call each per round (so that a
/// shared machine's load falls on all of them alike), after one warm-up
/// call each, for at least 3 rounds (2 when a call takes over a second)
/// and at least `ROUNDS_BUDGET` in all; returns each contender's fastest
/// call in CPU seconds of this thread.
fn time_all(contenders: &mut [&mut dyn FnMut()]) -> Vec<f64> {
    let mut slowest = 0.0f64;
    for f in contenders.iter_mut() {
        let t = thread_cpu_time();
        f();
        slowest = slowest.max(thread_cpu_time() - t);
    }
    let min_rounds = if slowest > 1.0 { 2 } else { 3 };
    let mut best = vec![f64::INFINITY; contenders.len()];
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < min_rounds || (start.elapsed() < ROUNDS_BUDGET && rounds < 2_000) {
        for (f, b) in contenders.iter_mut().zip(best.iter_mut()) {
            let t = thread_cpu_time();
            f();
            *b = b.min(thread_cpu_time() - t);
        }
        rounds += 1;
    }
    best
}

/// The least time spent timing each size.
const ROUNDS_BUDGET: Duration = Duration::from_millis(1500);

fn fmt(s: f64) -> String {
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.1} µs", s * 1e6)
    }
}

fn gmm_report(sizes: &[(usize, usize)]) {
    println!("## GMM (n = {})\n", adbench::GMM_N);
    println!(
        "| d | K | objective | Manual | `_grad` | `_grad_acc` | matrix objective | matrix `_grad` | `_grad` ÷ Manual | `_grad` ÷ objective | matrix `_grad` ÷ Manual | matrix `_grad` ÷ its objective |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &(d, k) in sizes {
        let inp = data::gmm(d, k, adbench::GMM_N);
        // Central differences cost two objectives a coordinate: fewer at
        // the large sizes (Manual is checked against every coordinate in
        // tests/adbench_gradients.rs, and every entry of every contender
        // against Manual here).
        let fd_coords = if d * d * k >= 100_000 { 4 } else { 8 };
        if let Err(e) = gmm::check(&inp, fd_coords) {
            panic!("GMM d={d} K={k}: {e}");
        }
        let mi = gmm::matrix::MatrixInput::from_adbench(&inp);
        let mut j = vec![0.0; inp.n_params()];
        let mut j2 = j.clone();
        let t = time_all(&mut [
            &mut || {
                black_box(gmm::primal(black_box(&inp)));
            },
            &mut || {
                black_box(gmm::manual::gmm_objective_d(black_box(&inp), &mut j));
            },
            &mut || {
                black_box(gmm::ours(black_box(&inp)));
            },
            &mut || {
                black_box(gmm::ours_acc(black_box(&inp), &mut j2));
            },
            &mut || {
                black_box(gmm::matrix::primal(black_box(&mi)));
            },
            &mut || {
                black_box(gmm::matrix::ours(black_box(&mi)));
            },
        ]);
        let [t_obj, t_man, t_ours, t_acc, t_mobj, t_mgrad] = t[..] else {
            unreachable!()
        };
        println!(
            "| {d} | {k} | {} | {} | {} | {} | {} | {} | {:.2} | {:.1} | {:.2} | {:.1} |",
            fmt(t_obj),
            fmt(t_man),
            fmt(t_ours),
            fmt(t_acc),
            fmt(t_mobj),
            fmt(t_mgrad),
            t_ours / t_man,
            t_ours / t_obj,
            t_mgrad / t_man,
            t_mgrad / t_mobj
        );
    }
    println!();
}

fn ba_report(shapes: &[(&str, usize, usize, usize)]) {
    println!("## BA: the whole sparse Jacobian\n");
    println!(
        "| problem | n | m | p | objective | Manual | `_jacobian` | `_jacobian_acc` | `_jacobian` ÷ Manual | `_jacobian_acc` ÷ Manual | `_jacobian_acc` ÷ objective | Manual ÷ objective |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &(name, n, m, p) in shapes {
        let inp = data::ba(n, m, p);
        if let Err(e) = ba::check(&inp, 16) {
            panic!("BA {name}: {e}");
        }
        let mut err = vec![0.0; 2 * p];
        let mut w_err = vec![0.0; p];
        let mut out = ba::BaOutput::new(&inp);
        let mut block = [0.0; 30];
        let mut out2 = ba::BaOutput::new(&inp);
        let mut out3 = ba::BaOutput::new(&inp);
        let mut block3 = ba::block();
        let t = time_all(&mut [
            &mut || ba::primal(black_box(&inp), &mut err, &mut w_err),
            &mut || ba::manual::jacobian(black_box(&inp), &mut out, &mut block),
            &mut || ba::ours(black_box(&inp), &mut out2),
            &mut || ba::ours_acc(black_box(&inp), &mut out3, &mut block3),
        ]);
        let [t_obj, t_man, t_ours, t_acc] = t[..] else {
            unreachable!()
        };
        println!(
            "| {name} | {n} | {m} | {p} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} | {:.1} |",
            fmt(t_obj),
            fmt(t_man),
            fmt(t_ours),
            fmt(t_acc),
            t_ours / t_man,
            t_acc / t_man,
            t_acc / t_obj,
            t_man / t_obj
        );
    }
    println!();
}

fn lstm_report(sizes: &[(usize, usize)]) {
    println!("## LSTM (b = {})\n", data::LSTM_BITS);
    println!(
        "| l | c | objective | Manual | reverse by hand | `_grad` | `_grad_acc` | `_grad` ÷ reverse | `_grad` ÷ Manual | `_grad` ÷ objective | reverse ÷ Manual |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    for &(l, c) in sizes {
        let inp = data::lstm(l, c);
        if let Err(e) = lstm::check(&inp, 12) {
            panic!("LSTM l={l} c={c}: {e}");
        }
        let mut j = vec![0.0; inp.n_params()];
        let mut ws = lstm::reverse::Workspace::new(&inp);
        let mut j2 = j.clone();
        let mut j3 = j.clone();
        let t = time_all(&mut [
            &mut || {
                black_box(lstm::primal(black_box(&inp)));
            },
            &mut || {
                black_box(lstm::manual::lstm_objective_d(black_box(&inp), &mut j));
            },
            &mut || {
                black_box(lstm::reverse::gradient_into(
                    black_box(&inp),
                    &mut ws,
                    &mut j2,
                ));
            },
            &mut || {
                black_box(lstm::ours(black_box(&inp)));
            },
            &mut || {
                black_box(lstm::ours_acc(black_box(&inp), &mut j3));
            },
        ]);
        let [t_obj, t_man, t_rev, t_ours, t_acc] = t[..] else {
            unreachable!()
        };
        println!(
            "| {l} | {c} | {} | {} | {} | {} | {} | {:.2} | {:.2} | {:.1} | {:.2} |",
            fmt(t_obj),
            fmt(t_man),
            fmt(t_rev),
            fmt(t_ours),
            fmt(t_acc),
            t_ours / t_rev,
            t_ours / t_man,
            t_ours / t_obj,
            t_rev / t_man
        );
    }
    println!();
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "--write-gmm") {
        let dir = std::path::PathBuf::from(args.get(i + 1).expect("--write-gmm DIR"));
        std::fs::create_dir_all(&dir).expect("create the directory");
        for d in adbench::GMM_D {
            for k in adbench::GMM_K {
                let inp = data::gmm(d, k, adbench::GMM_N);
                let path = dir.join(format!("gmm_d{d}_K{k}.txt"));
                std::fs::write(&path, data::write_gmm(&inp)).expect("write a GMM file");
                println!("{} objective {:.17e}", path.display(), gmm::primal(&inp));
            }
        }
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let picked: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| ["gmm", "ba", "lstm"].contains(a))
        .collect();
    let want = |p: &str| picked.is_empty() || picked.contains(&p);
    let started = Instant::now();
    if want("gmm") {
        let only_d: Option<usize> = args
            .iter()
            .position(|a| a == "--d")
            .map(|i| args[i + 1].parse().expect("--d takes a dimension"));
        let sizes: Vec<(usize, usize)> = if quick {
            adbench::GMM_QUICK.to_vec()
        } else {
            adbench::GMM_D
                .iter()
                .filter(|&&d| only_d.is_none_or(|o| o == d))
                .flat_map(|&d| adbench::GMM_K.iter().map(move |&k| (d, k)))
                .collect()
        };
        gmm_report(&sizes);
    }
    if want("ba") {
        let shapes: Vec<_> = if quick {
            data::BA_SHAPES[..2].to_vec()
        } else {
            data::BA_SHAPES.to_vec()
        };
        ba_report(&shapes);
    }
    if want("lstm") {
        lstm_report(&adbench::LSTM_SIZES);
    }
    println!("({} s in all)", started.elapsed().as_secs());
}
