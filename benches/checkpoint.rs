//! What `#[checkpoint]` costs: the gradient of a time-stepping loop that
//! carries three floats (explicit Euler steps of the Lorenz system), with
//! and without the attribute, at 10⁵, 10⁶ and 10⁷ steps, next to the
//! primal. The default schedule runs each step twice forward (once to give
//! the value, once to record its segment) and holds O(√n) memory; without
//! it, each step once and 24 bytes a step.
//!
//! ```text
//! cargo bench --bench checkpoint
//! cargo bench --bench checkpoint -- --warm-up-time 1 --measurement-time 2
//! ```
//!
//! Before anything is timed, both gradients are checked to agree bit for
//! bit.

use std::hint::black_box;

use autograd::differentiable;
use criterion::{Criterion, SamplingMode};

/// The step counts of the README's table.
const STEPS: [usize; 3] = [100_000, 1_000_000, 10_000_000];

#[macro_use]
#[path = "../tests/checkpoint_support/mod.rs"]
mod checkpoint_support;

lorenz!(lorenz, 1e-6, allow(unused));
lorenz!(lorenz_checkpointed, 1e-6, checkpoint);

fn benches(c: &mut Criterion) {
    for n in STEPS {
        assert_eq!(
            lorenz_grad(0.9, 10.0, n),
            lorenz_checkpointed_grad(0.9, 10.0, n),
            "the checkpointed gradient differs at n = {n}"
        );
        let mut g = c.benchmark_group(format!("checkpoint_n{n}"));
        // Milliseconds to a second per call: few, flat samples.
        g.sampling_mode(SamplingMode::Flat).sample_size(10);
        g.bench_function("primal", |b| {
            b.iter(|| lorenz(black_box(0.9), black_box(10.0), black_box(n)))
        });
        g.bench_function("grad", |b| {
            b.iter(|| lorenz_grad(black_box(0.9), black_box(10.0), black_box(n)))
        });
        g.bench_function("grad_checkpointed", |b| {
            b.iter(|| lorenz_checkpointed_grad(black_box(0.9), black_box(10.0), black_box(n)))
        });
        g.finish();
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
