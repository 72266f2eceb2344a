//! The benchmark suite of the README's "Benchmarks" section: for every
//! case, the primal, our `NAME_grad` and `NAME_grad_acc`, a hand-written
//! gradient returning its result and one adding into caller buffers, the
//! runtime's dynamic graph, central differences and num-dual's forward
//! mode, in one criterion group per case. The user cases (least squares
//! as an iterator chain, a Monte Carlo path) have no graph and no dual.
//!
//! ```text
//! cargo bench --bench gradients                 # everything
//! cargo bench --bench gradients -- rosenbrock   # one family
//! benches/report.sh                             # run and write benches/RESULTS.md
//! ```
//!
//! Before anything is timed, every contender's gradient is checked against
//! the hand-written one (`cases::check_every_case`); a mismatch stops the
//! run.

use std::hint::black_box;

use criterion::{BenchmarkGroup, Criterion, SamplingMode, measurement::WallTime};

#[allow(dead_code)]
mod cases;

use cases::{
    black_scholes, bond, dense, iterators, least_squares, monte_carlo, rosenbrock, zspread,
};

/// A group with the suite's settings: flat sampling (the slow contenders
/// take milliseconds per call) and 50 samples.
fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sampling_mode(SamplingMode::Flat).sample_size(50);
    g
}

/// Times the contenders of case module `$m` on `$inp`: the accumulating
/// ones add into buffers made once, as a caller reusing them does; `user`
/// cases have no graph and no dual.
macro_rules! contenders {
    ($c:expr, $name:expr, $($m:ident)::+, $inp:expr) => {{
        contenders!(user $c, $name, $($m)::+, $inp, |g, inp| {
            use $($m)::+ as m;
            g.bench_function("graph", |b| b.iter(|| m::graph(black_box(inp))));
            g.bench_function("dual", |b| b.iter(|| m::dual(black_box(inp))));
        });
    }};
    (user $c:expr, $name:expr, $($m:ident)::+, $inp:expr, $more:expr) => {{
        use $($m)::+ as m;
        let inp = $inp;
        let mut g = group($c, $name);
        g.bench_function("primal", |b| b.iter(|| m::primal(black_box(&inp))));
        g.bench_function("ours", |b| b.iter(|| m::ours(black_box(&inp))));
        let mut buf = m::buffers(&inp);
        g.bench_function("ours_acc", |b| {
            b.iter(|| m::ours_acc(black_box(&inp), black_box(&mut buf)))
        });
        g.bench_function("hand", |b| b.iter(|| m::hand(black_box(&inp))));
        g.bench_function("hand_acc", |b| {
            b.iter(|| m::hand_acc(black_box(&inp), black_box(&mut buf)))
        });
        g.bench_function("fd", |b| b.iter(|| m::fd(black_box(&inp))));
        let more: fn(&mut BenchmarkGroup<'_, WallTime>, &m::Inputs) = $more;
        more(&mut g, &inp);
        g.finish();
    }};
}

fn benches(c: &mut Criterion) {
    if let Err(e) = cases::check_every_case() {
        panic!("a contender disagrees with the hand-written gradient: {e}");
    }
    for n in cases::ROSENBROCK_SIZES {
        contenders!(
            c,
            &format!("rosenbrock_n{n}"),
            rosenbrock,
            rosenbrock::Inputs::new(n)
        );
    }
    contenders!(
        c,
        "black_scholes",
        black_scholes,
        black_scholes::Inputs::new()
    );
    contenders!(c, "bond", bond, bond::Inputs::new());
    contenders!(c, "dense_loops", dense::loops, dense::loops::Inputs::new());
    contenders!(
        c,
        "dense_nalgebra",
        dense::matrix,
        dense::matrix::Inputs::new()
    );
    contenders!(c, "zspread", zspread, zspread::Inputs::new());
    contenders!(
        user c,
        "least_squares",
        least_squares,
        least_squares::Inputs::new(),
        |_, _| {}
    );
    contenders!(
        user c,
        "monte_carlo",
        monte_carlo,
        monte_carlo::Inputs::new(),
        |_, _| {}
    );
    iterator_chain(c);
}

/// The gradient of an iterator chain against that of the index loop it
/// lowers to (`cargo bench --bench gradients -- iterator_chain`).
fn iterator_chain(c: &mut Criterion) {
    if let Err(e) = iterators::check() {
        panic!("{e}");
    }
    let inp = iterators::Inputs::new(1000);
    let mut g = group(c, "iterator_chain_n1000");
    g.bench_function("chain", |b| {
        b.iter(|| iterators::chain_grad_of(black_box(&inp)))
    });
    g.bench_function("index_loop", |b| {
        b.iter(|| iterators::loop_grad_of(black_box(&inp)))
    });
    g.finish();
}

/// Calls contender `$who` of case module `$m` `$calls` times, for
/// `benches/instructions.sh` (callgrind counts instructions; the
/// difference between two call counts is the cost of one call).
macro_rules! calls {
    ($who:expr, $calls:expr, $($m:ident)::+, $inp:expr) => {{
        calls!(user $who, $calls, $($m)::+, $inp, |who, inp| {
            use $($m)::+ as m;
            match who {
                "graph" => drop(black_box(m::graph(black_box(inp)))),
                "dual" => drop(black_box(m::dual(black_box(inp)))),
                other => panic!("unknown contender {other}"),
            }
        })
    }};
    (user $who:expr, $calls:expr, $($m:ident)::+, $inp:expr, $more:expr) => {{
        use $($m)::+ as m;
        let inp = $inp;
        let mut buf = m::buffers(&inp);
        let more: fn(&str, &m::Inputs) = $more;
        for _ in 0..$calls {
            match $who {
                "primal" => drop(black_box(m::primal(black_box(&inp)))),
                "ours" => drop(black_box(m::ours(black_box(&inp)))),
                "ours_acc" => drop(black_box(m::ours_acc(black_box(&inp), black_box(&mut buf)))),
                "hand" => drop(black_box(m::hand(black_box(&inp)))),
                "hand_acc" => drop(black_box(m::hand_acc(black_box(&inp), black_box(&mut buf)))),
                "fd" => drop(black_box(m::fd(black_box(&inp)))),
                other => more(other, &inp),
            }
        }
    }};
}

/// `BENCH_CALLS=case/contender/count`: run that many calls and nothing
/// else (no checks, no criterion).
fn run_calls(spec: &str) {
    let parts: Vec<&str> = spec.split('/').collect();
    let [case, who, count] = parts[..] else {
        panic!("BENCH_CALLS is case/contender/count, not {spec}");
    };
    let count: usize = count.parse().expect("a call count");
    match case {
        "black_scholes" => calls!(who, count, black_scholes, black_scholes::Inputs::new()),
        "bond" => calls!(who, count, bond, bond::Inputs::new()),
        "dense_loops" => calls!(who, count, dense::loops, dense::loops::Inputs::new()),
        "dense_nalgebra" => calls!(who, count, dense::matrix, dense::matrix::Inputs::new()),
        "zspread" => calls!(who, count, zspread, zspread::Inputs::new()),
        "least_squares" => calls!(
            user who, count, least_squares, least_squares::Inputs::new(),
            |other, _| panic!("unknown contender {other}")
        ),
        "monte_carlo" => calls!(
            user who, count, monte_carlo, monte_carlo::Inputs::new(),
            |other, _| panic!("unknown contender {other}")
        ),
        _ => {
            let n = case
                .strip_prefix("rosenbrock_n")
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("unknown case {case}"));
            calls!(who, count, rosenbrock, rosenbrock::Inputs::new(n))
        }
    }
}

fn main() {
    if let Ok(spec) = std::env::var("BENCH_CALLS") {
        run_calls(&spec);
        return;
    }
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
