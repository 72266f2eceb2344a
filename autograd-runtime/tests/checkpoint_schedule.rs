//! The checkpoint schedules as the generated code drives them: every
//! iteration reversed once, last first, from the right state; at most the
//! promised number of snapshots alive; and the promised number of runs.

use std::cell::Cell;
use std::rc::Rc;

use autograd_runtime::checkpoint::{Checkpoints, Step};

/// A loop's state: the iteration it is at, counting how many states are
/// alive at once.
struct State {
    at: usize,
    alive: Rc<Cell<usize>>,
    peak: Rc<Cell<usize>>,
}

impl State {
    fn new(at: usize, alive: &Rc<Cell<usize>>, peak: &Rc<Cell<usize>>) -> State {
        alive.set(alive.get() + 1);
        peak.set(peak.get().max(alive.get()));
        State {
            at,
            alive: alive.clone(),
            peak: peak.clone(),
        }
    }
    fn step(mut self) -> State {
        self.at += 1;
        self
    }
}

impl Clone for State {
    fn clone(&self) -> State {
        State::new(self.at, &self.alive, &self.peak)
    }
}

impl Drop for State {
    fn drop(&mut self) {
        self.alive.set(self.alive.get() - 1);
    }
}

/// What one run of a checkpointed loop of `trips` iterations did.
#[derive(Debug)]
struct Run {
    /// Iterations run: forward, advances and recordings.
    iterations: usize,
    /// States alive at once, the working state included.
    peak_states: usize,
    /// Iterations recorded at once.
    peak_records: usize,
}

fn run(trips: usize, mut checkpoints: Checkpoints<State>) -> Run {
    let (alive, peak) = (Rc::new(Cell::new(0)), Rc::new(Cell::new(0)));
    let mut iterations = 0;
    let mut state = State::new(0, &alive, &peak);
    for _ in 0..trips {
        checkpoints.visit(|| state.clone());
        state = state.step();
        iterations += 1;
    }
    checkpoints.finish();
    drop(state);
    let mut reversed = Vec::new();
    let mut peak_records = 0;
    while let Some(Step {
        from,
        to,
        state,
        reverse,
    }) = checkpoints.next()
    {
        assert_eq!(state.at, from);
        assert!(from < to && to <= trips);
        let mut state = state;
        let mut records = Vec::new();
        for _ in from..to {
            if reverse {
                records.push(state.at);
            }
            state = state.step();
            iterations += 1;
        }
        if reverse {
            assert!(to - from <= checkpoints.segment());
            drop(state);
            peak_records = peak_records.max(records.len());
            reversed.extend(records.into_iter().rev());
        } else {
            checkpoints.advanced(state);
        }
    }
    assert_eq!(alive.get(), 0);
    let expected: Vec<usize> = (0..trips).rev().collect();
    assert_eq!(reversed, expected, "every iteration once, last first");
    Run {
        iterations,
        peak_states: peak.get(),
        peak_records,
    }
}

fn ceil_sqrt(n: usize) -> usize {
    (1..).find(|r| r * r >= n).unwrap_or(1)
}

#[test]
fn a_range_by_default_keeps_a_snapshot_per_segment_and_runs_each_iteration_twice() {
    for trips in [0, 1, 2, 3, 10, 99, 100, 101, 1000, 12_345] {
        let r = run(trips, Checkpoints::for_trips(trips, None));
        let root = ceil_sqrt(trips);
        assert_eq!(r.iterations, 2 * trips, "{trips}: {r:?}");
        assert!(r.peak_states <= root + 1, "{trips}: {r:?}");
        assert!(r.peak_records <= root, "{trips}: {r:?}");
    }
}

#[test]
fn a_range_with_given_snapshots_stays_within_them() {
    for trips in [1, 2, 7, 64, 100, 1000, 5000] {
        for s in [1, 2, 3, 5, 10, 40] {
            let r = run(trips, Checkpoints::for_trips(trips, Some(s)));
            // S snapshots and the working state.
            assert!(r.peak_states <= s + 1, "{trips}, {s}: {r:?}");
            assert!(r.peak_records <= s, "{trips}, {s}: {r:?}");
        }
    }
}

#[test]
fn few_snapshots_cost_the_binomial_number_of_runs() {
    // 1000 iterations, 10 snapshots: segments of 10, 100 segments.
    // β(10, 2) = 66 < 100 ≤ β(10, 3) = 286, so r = 3 and the optimal
    // schedule runs 3·100 − β(11, 2) = 300 − 78 = 222 segments besides the
    // recording of each: 2 220 + 1 000 iterations. Revolve holds the
    // working state at the turn (segment 99); the forward sweep instead
    // runs the last segment (10 iterations) to give the loop's value and
    // reaches the turn again from the last snapshot, at segment 96 (30).
    let r = run(1000, Checkpoints::for_trips(1000, Some(10)));
    assert_eq!(r.iterations, 2220 + 1000 + 10 + 30);
    // One snapshot: every segment run again from the start.
    let r = run(100, Checkpoints::for_trips(100, Some(1)));
    assert_eq!(r.iterations, 100 + 100 * 99 / 2 + 100);
}

#[test]
fn a_while_loop_by_default_doubles_its_segments() {
    for trips in [0, 1, 2, 3, 4, 5, 17, 100, 1000, 4097, 100_000] {
        let r = run(trips, Checkpoints::for_while(None));
        let root = ceil_sqrt(trips);
        assert_eq!(r.iterations, 2 * trips, "{trips}: {r:?}");
        // Segments of b ≤ 2√n iterations; at most √n + 1 snapshots, the
        // most just before b doubles (then b² ≤ n), besides the working
        // state.
        assert!(r.peak_records <= 2 * root, "{trips}: {r:?}");
        assert!(r.peak_states <= root + 2, "{trips}: {r:?}");
    }
}

#[test]
fn a_while_loop_with_given_snapshots_counts_then_runs_the_binomial_schedule() {
    for trips in [0, 1, 5, 100, 1000] {
        for s in [1, 2, 4, 31] {
            let counted = run(trips, Checkpoints::for_while(Some(s)));
            let known = run(trips, Checkpoints::for_trips(trips, Some(s)));
            assert!(counted.peak_states <= s + 1, "{trips}, {s}: {counted:?}");
            assert!(counted.peak_records <= s, "{trips}, {s}: {counted:?}");
            // The forward sweep's run, then the same schedule.
            assert!(
                counted.iterations <= known.iterations + trips,
                "{trips}, {s}: {counted:?} vs {known:?}"
            );
        }
    }
}
