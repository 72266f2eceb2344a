//! Checkpointing schedules for the reverse sweep of a long loop
//! (`#[checkpoint]` in a `#[differentiable]` body).
//!
//! A loop's reverse sweep needs each iteration's values in reverse order.
//! Without checkpoints, the forward sweep keeps them all: memory in
//! proportion to the trip count. With checkpoints, the forward sweep keeps
//! a few *snapshots* of the loop-carried state; the reverse sweep restores
//! one, runs the iterations after it again, recording them in a bounded
//! buffer (the loop's stack), and reverses those.
//!
//! [`Checkpoints`] decides where the snapshots go and hands the generated
//! code [`Step`]s to run: advance from a state without recording, or record
//! a segment of iterations and reverse it. The iterations are cut into
//! *segments* of [`Checkpoints::segment`] iterations, the most the buffer
//! holds; snapshots are taken at segment starts.
//!
//! - A loop whose trip count n is known when it starts (`for` over a range)
//!   gets Griewank and Walther's binomial schedule (revolve) over its
//!   segments: with s snapshots and r runs of each iteration it reverses
//!   β(s, r) = C(s + r, s) segments, which is optimal. Given S snapshots
//!   the segment is min(S, ⌈n/S⌉) iterations; by default S = ⌈√n⌉, so
//!   every segment has its snapshot and each iteration runs twice.
//! - A `while` loop's trip count is known only when it ends. By default the
//!   schedule is online: a snapshot every b iterations, b doubling and every
//!   other snapshot dropped whenever there are more than b, so at the end
//!   there are at most b snapshots of segments of b iterations: at most
//!   √n + 1 snapshots at any time (the most just before b doubles) and
//!   segments of b ≤ 2√n iterations; each iteration runs twice. Given S snapshots, the forward sweep
//!   keeps only the state the loop starts from and counts the iterations;
//!   the reverse sweep then runs the binomial schedule from it (one more run
//!   of the loop, but an optimal schedule for any S, which an online
//!   schedule with a fixed number of snapshots is not).
//!
//! In every case at most S snapshots (default: as above) and one segment's
//! records are held at once, besides the loop's working state.

/// What the generated code does next in the reverse sweep of a
/// checkpointed loop: run iterations `from..to` from `state`, the
/// loop-carried state at iteration `from`; then, if `reverse`, reverse them
/// (the run records what their reverse reads), else hand the state at `to`
/// back with [`Checkpoints::advanced`].
#[derive(Clone, Debug, PartialEq)]
pub struct Step<S> {
    /// The first iteration to run.
    pub from: usize,
    /// The iteration to stop before.
    pub to: usize,
    /// The state at the start of iteration `from`.
    pub state: S,
    /// Whether the iterations are recorded and reversed (at most
    /// [`Checkpoints::segment`] of them), or only run.
    pub reverse: bool,
}

/// Iterations `lo..hi` still to reverse; the top snapshot is the state at
/// `lo`, and `slots` snapshots (that one included) may be used for them.
#[derive(Copy, Clone, Debug)]
struct Range {
    lo: usize,
    hi: usize,
    slots: usize,
}

/// Where snapshots go while the loop runs forward.
#[derive(Clone, Debug)]
enum Forward {
    /// The binomial schedule's first descent, with the trip count known:
    /// the range the next snapshot starts.
    Binomial(Range),
    /// A `while` loop with a given number of snapshots: the initial state
    /// only, then the binomial schedule once the loop has ended.
    Counting { slots: usize },
    /// A `while` loop without: a snapshot every `segment` iterations,
    /// thinned as the loop goes on.
    Doubling,
}

/// A pending snapshot after a [`Step`] that runs only: the range it starts.
#[derive(Copy, Clone, Debug)]
struct Then {
    at: usize,
    hi: usize,
    slots: usize,
}

/// The snapshots of one checkpointed loop and the schedule of its reverse
/// sweep. `S` is the loop-carried state (a tuple of the carried values).
///
/// # Example
///
/// The generated code, by hand: a loop of 10 steps carrying `x`, whose
/// reverse multiplies the adjoint by the step's derivative.
///
/// ```
/// use autograd_runtime::checkpoint::{Checkpoints, Step};
///
/// let step = |x: f64| x * x.cos();
/// let mut checkpoints = Checkpoints::for_trips(10, Some(2));
/// let mut x = 0.5;
/// for _ in 0..10 {
///     checkpoints.visit(|| x);
///     x = step(x);
/// }
/// checkpoints.finish();
/// // d x_10 / d x_0: each step's derivative, last step first.
/// let mut dx = 1.0;
/// let mut records = Vec::new();
/// while let Some(Step { from, to, state, reverse }) = checkpoints.next() {
///     let mut x = state;
///     for _ in from..to {
///         if reverse {
///             records.push(x);
///         }
///         x = step(x);
///     }
///     if reverse {
///         for _ in from..to {
///             let x = records.pop().unwrap();
///             dx *= x.cos() - x * x.sin();
///         }
///     } else {
///         checkpoints.advanced(x);
///     }
/// }
/// // The same product, last step first, without checkpoints.
/// let mut x = 0.5_f64;
/// let mut derivatives = Vec::new();
/// for _ in 0..10 {
///     derivatives.push(x.cos() - x * x.sin());
///     x = step(x);
/// }
/// let expected = derivatives.iter().rev().fold(1.0, |d, s| d * s);
/// assert_eq!(dx, expected);
/// ```
// `Clone`: a reusable pullback (`NAME_jacobian`'s) holds the checkpoints.
#[derive(Clone, Debug)]
pub struct Checkpoints<S> {
    /// Iterations per segment: the most one reversing [`Step`] records.
    segment: usize,
    /// The snapshots, a stack, and the iteration each was taken at.
    snapshots: Vec<S>,
    positions: Vec<usize>,
    /// Iterations visited by the forward sweep so far.
    visited: usize,
    /// The iteration whose state the forward sweep stores next.
    next_store: usize,
    forward: Forward,
    /// Ranges to reverse, the next on top.
    tasks: Vec<Range>,
    /// The state handed back by the last advance, at the iteration given,
    /// while nothing has used it.
    current: Option<(usize, S)>,
    then: Option<Then>,
    pending: Option<Step<S>>,
}

/// ⌈√n⌉, at least 1.
fn ceil_sqrt(n: usize) -> usize {
    let mut r = (n as f64).sqrt() as usize;
    while r.saturating_mul(r) < n {
        r += 1;
    }
    while r > 1 && (r - 1) * (r - 1) >= n {
        r -= 1;
    }
    r.max(1)
}

/// β(s, r) = C(s + r, s): the most segments s snapshots reverse with each
/// one run at most r times (saturating; zero for r < 0).
fn beta(s: usize, r: isize) -> u128 {
    if r < 0 {
        return 0;
    }
    let mut b: u128 = 1;
    for k in 1..=r as u128 {
        b = b.saturating_mul(s as u128 + k) / k;
    }
    b
}

/// Where the binomial schedule puts the next snapshot in a range of `l`
/// segments (l ≥ 2) with `s` snapshots (s ≥ 2, the range's first
/// included): `m` segments after its start. With r the least repetition
/// count such that β(s, r) ≥ l, the range reverses in the optimal
/// r·l − β(s + 1, r − 1) segment runs exactly when the first part (m
/// segments, s snapshots) needs r − 1 repetitions and the rest (l − m, s − 1)
/// needs r: β(s, r − 2) ≤ m ≤ β(s, r − 1), β(s − 1, r − 1) ≤ l − m ≤ β(s − 1, r).
fn split(l: usize, s: usize) -> usize {
    let l128 = l as u128;
    let mut r: isize = 0;
    while beta(s, r) < l128 {
        r += 1;
    }
    let m = beta(s, r - 2).max(l128.saturating_sub(beta(s - 1, r)));
    (m as usize).clamp(1, l - 1)
}

impl<S: Clone> Checkpoints<S> {
    /// The schedule of a loop of `trips` iterations (a `for` over a range),
    /// with at most `snapshots` snapshots, ⌈√trips⌉ if `None` (zero counts
    /// as one).
    pub fn for_trips(trips: usize, snapshots: Option<usize>) -> Self {
        let slots = snapshots.unwrap_or_else(|| ceil_sqrt(trips)).max(1);
        let segment = slots.min(trips.div_ceil(slots)).max(1);
        let mut c = Checkpoints::new(
            segment,
            Forward::Binomial(Range {
                lo: 0,
                hi: trips,
                slots,
            }),
        );
        // The first descent keeps at most this many snapshots, and as many
        // ranges to reverse.
        let most = slots.min(trips.div_ceil(segment));
        c.snapshots.reserve_exact(most);
        c.positions.reserve_exact(most);
        c.tasks.reserve_exact(most + 1);
        c
    }

    /// The schedule of a `while` loop: online doubling without `snapshots`,
    /// else the binomial schedule once the loop has counted its iterations
    /// (see the module's documentation).
    pub fn for_while(snapshots: Option<usize>) -> Self {
        match snapshots {
            None => Checkpoints::new(1, Forward::Doubling),
            Some(s) => Checkpoints::new(1, Forward::Counting { slots: s.max(1) }),
        }
    }

    fn new(segment: usize, forward: Forward) -> Self {
        Checkpoints {
            segment,
            snapshots: Vec::new(),
            positions: Vec::new(),
            visited: 0,
            next_store: 0,
            forward,
            tasks: Vec::new(),
            current: None,
            then: None,
            pending: None,
        }
    }

    /// The forward sweep starts an iteration: `state` gives the loop-carried
    /// state if this iteration's is to be kept.
    #[inline(always)]
    pub fn visit(&mut self, state: impl FnOnce() -> S) {
        if self.visited == self.next_store {
            self.store(state());
        }
        self.visited += 1;
    }

    #[cold]
    #[inline(never)]
    fn store(&mut self, state: S) {
        let at = self.visited;
        self.snapshots.push(state);
        self.positions.push(at);
        self.next_store = match &mut self.forward {
            Forward::Binomial(range) => {
                let segments = (range.hi - range.lo).div_ceil(self.segment);
                if segments <= 1 || range.slots <= 1 {
                    usize::MAX
                } else {
                    let mid = range.lo + split(segments, range.slots) * self.segment;
                    self.tasks.push(Range { hi: mid, ..*range });
                    *range = Range {
                        lo: mid,
                        hi: range.hi,
                        slots: range.slots - 1,
                    };
                    mid
                }
            }
            Forward::Counting { .. } => usize::MAX,
            Forward::Doubling => {
                if self.snapshots.len() > self.segment {
                    self.segment *= 2;
                    let segment = self.segment;
                    let mut keep = self.positions.iter().map(|p| p % segment == 0);
                    self.snapshots.retain(|_| keep.next() == Some(true));
                    self.positions.retain(|p| p % segment == 0);
                }
                self.positions.last().map_or(0, |p| p + self.segment)
            }
        };
    }

    /// The forward sweep has left the loop: the reverse sweep's steps
    /// follow from the trip count.
    pub fn finish(&mut self) {
        let trips = self.visited;
        if trips == 0 {
            return;
        }
        match self.forward {
            Forward::Binomial(range) => self.tasks.push(range),
            Forward::Counting { slots } => {
                self.segment = slots.min(trips.div_ceil(slots)).max(1);
                self.tasks.push(Range {
                    lo: 0,
                    hi: trips,
                    slots,
                });
            }
            Forward::Doubling => {
                let ends = self.positions.iter().skip(1).copied().chain([trips]);
                let ranges = self.positions.iter().zip(ends).map(|(&lo, hi)| Range {
                    lo,
                    hi,
                    slots: usize::MAX,
                });
                self.tasks.extend(ranges);
            }
        }
    }

    /// The most iterations one reversing [`Step`] records, once the forward
    /// sweep has finished.
    pub fn segment(&self) -> usize {
        self.segment
    }

    /// The next step of the reverse sweep; `None` when every iteration has
    /// been reversed.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<Step<S>> {
        if let Some(step) = self.pending.take() {
            return Some(step);
        }
        let Range { lo, hi, slots } = self.tasks.pop()?;
        let segments = (hi - lo).div_ceil(self.segment);
        if segments <= 1 {
            let state = self.take(lo);
            return Some(Step {
                from: lo,
                to: hi,
                state,
                reverse: true,
            });
        }
        // With one snapshot, run to the last segment from it; with more,
        // keep a snapshot where the binomial schedule puts one.
        let (m, rest) = if slots <= 1 {
            (segments - 1, 0)
        } else {
            (split(segments, slots), slots - 1)
        };
        let mid = lo + m * self.segment;
        self.tasks.push(Range { lo, hi: mid, slots });
        self.then = Some(Then {
            at: mid,
            hi,
            slots: rest,
        });
        let state = self.copy(lo);
        Some(Step {
            from: lo,
            to: mid,
            state,
            reverse: false,
        })
    }

    /// The state after running a [`Step`] that does not reverse.
    pub fn advanced(&mut self, state: S) {
        let Some(Then { at, hi, slots }) = self.then.take() else {
            return;
        };
        if hi - at <= self.segment || slots == 0 {
            self.pending = Some(Step {
                from: at,
                to: hi,
                state,
                reverse: true,
            });
        } else {
            self.snapshots.push(state.clone());
            self.positions.push(at);
            self.current = Some((at, state));
            self.tasks.push(Range { lo: at, hi, slots });
        }
    }

    /// The state at `lo`, whose snapshot stays for later.
    fn copy(&mut self, lo: usize) -> S {
        match self.current.take() {
            Some((at, state)) if at == lo => state,
            _ => {
                debug_assert_eq!(self.positions.last(), Some(&lo));
                match self.snapshots.last() {
                    Some(s) => s.clone(),
                    None => unreachable!("autograd: checkpoint schedule lost a snapshot"),
                }
            }
        }
    }

    /// The state at `lo`, whose snapshot is not needed any more.
    fn take(&mut self, lo: usize) -> S {
        debug_assert_eq!(self.positions.last(), Some(&lo));
        self.positions.pop();
        let snapshot = self.snapshots.pop();
        match (self.current.take(), snapshot) {
            (Some((at, state)), _) if at == lo => state,
            (_, Some(s)) => s,
            (_, None) => unreachable!("autograd: checkpoint schedule lost a snapshot"),
        }
    }
}

/// Iteration `k` of a loop's iterator (a range), which the loop ran: the
/// reverse sweep of a segment names its iterations by position.
#[inline(always)]
pub fn iteration<I: Iterator>(mut iter: I, k: usize) -> I::Item {
    match iter.nth(k) {
        Some(i) => i,
        None => unreachable!("autograd: checkpointed loop lost an iteration"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fewest segment runs that reverse `l` segments with `s`
    /// snapshots, by exhaustive search over the first snapshot's place.
    fn optimal(l: usize, s: usize, memo: &mut Vec<Vec<Option<u128>>>) -> u128 {
        if l <= 1 {
            return 0;
        }
        if s == 1 {
            return (l * (l - 1) / 2) as u128;
        }
        if let Some(c) = memo[l][s] {
            return c;
        }
        let c = (1..l)
            .map(|m| m as u128 + optimal(l - m, s - 1, memo) + optimal(m, s, memo))
            .min()
            .unwrap_or(0);
        memo[l][s] = Some(c);
        c
    }

    /// The segment runs of the schedule `split` makes.
    fn runs(l: usize, s: usize) -> u128 {
        if l <= 1 {
            return 0;
        }
        if s == 1 {
            return (l * (l - 1) / 2) as u128;
        }
        let m = split(l, s);
        m as u128 + runs(l - m, s - 1) + runs(m, s)
    }

    #[test]
    fn the_split_is_optimal_and_matches_the_closed_form() {
        let mut memo = vec![vec![None; 10]; 121];
        for l in 1..=120 {
            for s in 1..10 {
                let best = optimal(l, s, &mut memo);
                assert_eq!(runs(l, s), best, "l = {l}, s = {s}");
                // Griewank and Walther: r·l − β(s + 1, r − 1), r the least
                // with β(s, r) ≥ l.
                let r = (0..)
                    .find(|&r: &isize| beta(s, r) >= l as u128)
                    .unwrap_or(0);
                let closed = (r as u128 * l as u128).saturating_sub(beta(s + 1, r - 1));
                assert_eq!(best, closed, "l = {l}, s = {s}");
            }
        }
    }

    #[test]
    fn ceil_sqrt_is_exact() {
        for n in 0..10_000 {
            let r = ceil_sqrt(n);
            assert!(r * r >= n && (r == 1 || (r - 1) * (r - 1) < n), "{n}: {r}");
        }
        assert_eq!(ceil_sqrt(10_000_000), 3163);
    }
}
