//! Differential testing of `#[differentiable]`.
//!
//! `build.rs` writes random `#[differentiable]` programs (a deterministic
//! generator, `AUTOGRAD_FUZZ_PROGRAMS` of them, 300 by default) into
//! `$OUT_DIR/generated.rs`, each with
//!
//! - its source text, so a failure can be pasted into a regression test;
//! - a *mirror*: the same computation written against [`Mirror`], which can
//!   record it in the runtime's dynamic graph ([`mirror`] explains how);
//! - flat wrappers ([`Entry`]) around the primal, `NAME_grad`, `NAME_vjp`
//!   and the mirror, all taking the inputs as one `&[f64]`.
//!
//! `tests/gradients.rs` includes that file and runs [`check`] on every
//! entry: at random points away from kinks, `NAME_grad` must return the
//! primal's value bit for bit and adjoints that agree with the dynamic
//! graph (tight tolerance) and with central finite differences of the
//! primal ([`Tolerances`] states both).
//!
//! # Testing
//!
//! `cargo test -p fuzz-programs --test gradients` checks 300 programs (CI).
//! A long run on a tree, 20 000 programs in chunks of 1 000 (20 minutes
//! alone on two cores, about an hour when the machine is shared):
//!
//! ```text
//! cd TREE && export CARGO_TARGET_DIR=$PWD/target
//! nohup nice -n 10 fuzz-programs/run-long.sh 20000 0x35 > fuzz-0x35.log 2>&1 &
//! ```
//!
//! Its last lines are the counts: `N programs generated, T tested, P
//! points, D derivatives checked; F failures (G gradient checks, C programs
//! that failed to compile, K crashes), S programs skipped (they call one
//! that failed)`; above them `classes:`, one line per class of
//! `build/classes.rs` (its programs tested, and its gradient failures,
//! compile failures and crashes: a failure counts for its program's
//! classes, `(no class)` for the others). A quarter of the programs are
//! drawn from the classes (`AUTOGRAD_FUZZ_CLASS_SHARE`, default 0.25),
//! all of them (`AUTOGRAD_FUZZ_CLASSES`, default `all`). Each failure is a
//! file under `target/fuzz-failures/seed-0x35/failures/` with its
//! messages, its features (the class tag among them), its full source and
//! the command reproducing its chunk; the summary line is appended to
//! `summary.txt` there. One class alone, every program of it:
//! `AUTOGRAD_FUZZ_CLASSES=cfg AUTOGRAD_FUZZ_CLASS_SHARE=1 FUZZ_CHUNK=300
//! fuzz-programs/run-long.sh 300 0x35C0`. `abs` at ±0 is checked against
//! `copysign(1, x)`, the runtime's convention.
//!
//! The classes (`cfg consts non-finite singular-det signed-zeros
//! shadowed-struct large-array sub-slice in-out unreached nested-grad
//! selection lanes const-len closures mutable-tuples`) are described in `build/classes.rs`; two
//! aim at the vector mode and the lengths: `lanes`, programs of 8 to 24
//! inputs whose `NAME_hessian` and `NAME_jacobian` sweep eight lanes at
//! once (also through calls), each column checked against `NAME_hvp` or
//! `NAME_jvp` along the axis and against central differences (up to
//! [`COLUMNS_UP_TO`] inputs); and `const-len`, functions generic over a
//! length (`fn f<const N: usize>(x: &[f64; N])`, also over `T: Float`)
//! calling each other at the length inferred or by turbofish. `in-out`
//! writes `#[differentiable(jvp)]` functions whose helpers update state
//! through `&mut` arguments: their `NAME_jvp` (and a two-output result's
//! `NAME_jacobian`) are checked through those calls; with a number result
//! also `hessian` (helpers included, some of 8 to 12 inputs): `NAME_hessian`
//! column by column as in `lanes`, `NAME_hessian_sparse` against it entry
//! for entry, and, for a function with `&mut` arguments of its own, its
//! second-order items leaving them as the function leaves them.

pub mod mirror;

pub use mirror::{Mat, Mirror, V, mat};

use std::fmt::Write as _;

/// One argument of a generated program, in the flat input layout.
#[derive(Clone, Copy, Debug)]
pub enum Input {
    /// A differentiable scalar argument.
    Scalar(&'static str),
    /// A slice argument of this length (the length is the test's choice).
    Slice(&'static str, usize),
    /// A `DMatrix<f64>` argument, `rows × cols`, column-major.
    Matrix(&'static str, usize, usize),
    /// A `DVector<f64>` argument of this length.
    Vector(&'static str, usize),
    /// A `#[constant]` scalar argument: no adjoint; always after the
    /// differentiable ones in the flat layout.
    Constant(&'static str),
}

impl Input {
    /// How many flat components the argument takes.
    pub fn len(self) -> usize {
        match self {
            Input::Scalar(_) | Input::Constant(_) => 1,
            Input::Slice(_, n) | Input::Vector(_, n) => n,
            Input::Matrix(_, r, c) => r * c,
        }
    }

    /// Whether the argument takes no flat component (never, in practice).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    fn differentiable(self) -> bool {
        !matches!(self, Input::Constant(_))
    }

    /// The name of component `k` of this argument: `a0`, `xs[2]`, `m0[(1, 0)]`.
    fn component(self, k: usize) -> String {
        match self {
            Input::Scalar(n) | Input::Constant(n) => n.to_owned(),
            Input::Slice(n, _) | Input::Vector(n, _) => format!("{n}[{k}]"),
            Input::Matrix(n, r, _) => format!("{n}[({}, {})]", k % r, k / r),
        }
    }
}

/// A wrapper taking the flat inputs, returning a value and flat adjoints.
pub type FlatGrad = fn(&[f64]) -> (f64, Vec<f64>);

/// `NAME_jvp` along a flat direction: the value and the output tangent
/// (a vector result's weighed by [`weights`], as its value is).
pub type FlatJvp = fn(&[f64], &[f64]) -> (f64, f64);

/// `NAME_hvp` along a flat direction: the value, the gradient and H·v.
pub type FlatHvp = fn(&[f64], &[f64]) -> (f64, Vec<f64>, Vec<f64>);

/// `NAME_hessian`: the value, the flat gradient and the rows of the
/// Hessian over the flat differentiable inputs.
pub type FlatHessian = fn(&[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>);

/// A vector result's outputs.
pub type FlatOutputs = fn(&[f64]) -> Vec<f64>;

/// `NAME_jacobian`: the outputs and the rows of the Jacobian.
pub type FlatJacobian = fn(&[f64]) -> (Vec<f64>, Vec<Vec<f64>>);

/// A generated program, through flat wrappers.
#[derive(Clone, Copy, Debug)]
pub struct Entry {
    /// The function's name.
    pub name: &'static str,
    /// Its source, exactly as compiled.
    pub source: &'static str,
    /// The generated functions it calls, directly or not, callees first.
    pub deps: &'static [&'static str],
    /// Its arguments in flat-layout order (differentiable ones first).
    pub inputs: &'static [Input],
    /// Whether it computes in `f32`.
    pub f32: bool,
    /// Space-separated tags of the constructs it uses.
    pub features: &'static str,
    /// The function itself.
    pub primal: fn(&[f64]) -> f64,
    /// `NAME_grad`: the value and the flat adjoint.
    pub grad: fn(&[f64]) -> (f64, Vec<f64>),
    /// `NAME_vjp` applied to the seed.
    pub vjp: fn(&[f64], f64) -> (f64, Vec<f64>),
    /// `NAME_grad_acc` called twice on buffers holding
    /// [`weights`]`(n, `[`ACC_START`]`)`: its value and the buffers after
    /// (functions returning a float; `NAME_grad_acc` exists for those only).
    pub grad_acc: Option<FlatGrad>,
    /// The mirror, on leaves in flat-layout order; `None` for programs
    /// the mirror cannot express (iterator chains, arrays, `Vec`s, tuples,
    /// generic functions): they are smooth and checked against finite
    /// differences only.
    pub mirror: Option<fn(&mut Mirror, &[V]) -> V>,
    /// `NAME_jvp` (`#[differentiable(jvp)]`).
    pub jvp: Option<FlatJvp>,
    /// `NAME_hvp` (`#[differentiable(hessian)]`).
    pub hvp: Option<FlatHvp>,
    /// `NAME_hessian` (`#[differentiable(hessian)]`).
    pub hessian: Option<FlatHessian>,
    /// A vector result's outputs (the primal is their weighed sum).
    pub outputs: Option<FlatOutputs>,
    /// `NAME_jacobian` of a vector result.
    pub jacobian: Option<FlatJacobian>,
    /// A generic function's `NAME_grad` instantiated at `f32` (the entry
    /// itself is the `f64` instantiation), on `f32`-rounded inputs.
    pub grad_f32: Option<FlatGrad>,
    /// A generic function's `NAME_jvp` at `f32`, on `f32`-rounded inputs
    /// and tangents.
    pub jvp_f32: Option<FlatJvp>,
}

impl Entry {
    /// The number of flat inputs.
    pub fn n_inputs(&self) -> usize {
        self.inputs.iter().map(|i| i.len()).sum()
    }

    /// The number of flat inputs with an adjoint.
    pub fn n_differentiable(&self) -> usize {
        self.inputs
            .iter()
            .filter(|i| i.differentiable())
            .map(|i| i.len())
            .sum()
    }

    fn component_name(&self, mut j: usize) -> String {
        for input in self.inputs {
            if j < input.len() {
                return input.component(j);
            }
            j -= input.len();
        }
        format!("#{j}")
    }

    /// The source of this program preceded by every generated function it
    /// calls, looked up in `all`: a self-contained reproduction.
    pub fn full_source(&self, all: &[Entry]) -> String {
        let mut s = String::new();
        for dep in self.deps {
            if let Some(e) = all.iter().find(|e| e.name == *dep) {
                s.push_str(e.source);
                s.push('\n');
            }
        }
        s.push_str(self.source);
        s
    }
}

/// The scale of the non-zero values the `NAME_grad_acc` buffers start
/// from (see [`Entry::grad_acc`]).
pub const ACC_START: f64 = 0.5;

/// The inputs of a point at the non-differentiable places of the step
/// functions, `abs`, `relu`, `signum`, ties of `max`/`min`/`clamp` and
/// the comparisons (one draw in four takes each input from these): there
/// the adjoint must follow the README's conventions, which the mirror
/// implements; a central difference that straddles such a place is
/// skipped.
const KINK_VALUES: [f64; 9] = [-2.0, -1.5, -1.0, -0.5, 0.0, 0.5, 1.0, 1.5, 2.0];

/// The tolerances of [`check`]. A component passes when
/// `|a - b| <= abs · max(1, |scale|) + rel · max(|a|, |b|)`.
#[derive(Clone, Copy, Debug)]
pub struct Tolerances {
    /// Macro adjoint against the dynamic graph: relative to `max(1, |a|, |b|)`.
    pub graph: f64,
    /// Macro adjoint against finite differences: absolute part, times
    /// `max(1, |value|)` (the rounding noise of `f(x+h) - f(x-h)` grows
    /// with the value).
    pub fd_abs: f64,
    /// Macro adjoint against finite differences: relative part.
    pub fd_rel: f64,
    /// The mirror's value against the primal's, relative to `max(1, |value|)`.
    pub value: f64,
    /// Points whose smallest decision margin is below this are skipped: the
    /// primal and the mirror might decide differently there.
    pub margin: f64,
}

impl Tolerances {
    /// For `f64` programs.
    pub const F64: Tolerances = Tolerances {
        graph: 1e-9,
        fd_abs: 1e-6,
        fd_rel: 1e-5,
        value: 1e-9,
        margin: 1e-12,
    };
    /// For `f32` programs (the graph's adjoints run in `f64`, its values
    /// are rounded to `f32`; the step is `∛ε_f32`).
    pub const F32: Tolerances = Tolerances {
        graph: 2e-3,
        fd_abs: 5e-3,
        fd_rel: 2e-2,
        value: 1e-5,
        margin: 1e-6,
    };
}

/// What [`check`] saw for one program.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Points checked.
    pub accepted: usize,
    /// Points skipped because a central difference would straddle a kink
    /// (the trace differs at `x ± h`) or a decision margin is tiny.
    pub rejected: usize,
    /// Components whose first central difference missed and a second
    /// estimate (Richardson, smaller step) passed.
    pub fd_second_tries: usize,
    /// Components where the finite-difference estimates (steps h, 2h, h/8
    /// and Richardson) disagree with each other more than with the
    /// adjoint, or too few could be taken without crossing a kink: not
    /// resolvable by differences (the dynamic graph still checks them).
    pub fd_unresolved: usize,
    /// Points drawn at kinks (`KINK_VALUES`) and checked.
    pub kink_points: usize,
    /// Components of those whose central difference straddled a kink, and
    /// so was not taken (the dynamic graph still checks them).
    pub fd_skipped_at_kinks: usize,
    /// One message per failed point.
    pub failures: Vec<String>,
}

/// A small deterministic generator (SplitMix64).
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let u = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * u
    }
}

/// A seed from a name (FNV-1a), so each program's points do not depend on
/// its position in the table.
pub fn seed_of(name: &str, salt: u64) -> u64 {
    let mut h = 0xCBF2_9CE4_8422_2325_u64 ^ salt;
    for b in name.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01B3);
    }
    h
}

/// Whether the program carries the feature tag `tag`.
fn has_feature(entry: &Entry, tag: &str) -> bool {
    entry.features.split(' ').any(|f| f == tag)
}

fn sample(entry: &Entry, rng: &mut SplitMix, at_kinks: bool) -> Vec<f64> {
    let mut x = sample_plain(entry, rng, at_kinks);
    if at_kinks {
        degenerate(entry, rng, &mut x);
    }
    x
}

/// The classes' points at kinks (`build/classes.rs`): zeros of either
/// sign (`signed-zeros`), a slice's tail all zeros, where a sum of its
/// squares is 0 (`non-finite`, `unreached`, `selection`), square matrices made singular or rank
/// deficient (`singular-det`).
fn degenerate(entry: &Entry, rng: &mut SplitMix, x: &mut [f64]) {
    if has_feature(entry, "class-signed-zeros") {
        for v in x.iter_mut() {
            if *v == 0.0 && rng.next_u64().is_multiple_of(2) {
                *v = -0.0;
            }
        }
    }
    let zeros = (has_feature(entry, "class-non-finite")
        || has_feature(entry, "class-unreached")
        || has_feature(entry, "class-selection"))
        && rng.next_u64().is_multiple_of(2);
    let singular = has_feature(entry, "class-singular-det");
    let mut k = 0;
    for input in entry.inputs {
        let n = input.len();
        let part = &mut x[k..k + n];
        match *input {
            Input::Slice(..) if zeros => {
                for v in &mut part[1..] {
                    *v = if rng.next_u64().is_multiple_of(2) {
                        0.0
                    } else {
                        -0.0
                    };
                }
            }
            Input::Matrix(_, r, c) if singular && r == c => {
                let at = |i: usize, j: usize| j * r + i;
                let (a, b) = (
                    (rng.next_u64() % r as u64) as usize,
                    (rng.next_u64() % r as u64) as usize,
                );
                match rng.next_u64() % 6 {
                    // The first column zero (issue 35), or another one.
                    0 => (0..r).for_each(|i| part[at(i, 0)] = 0.0),
                    1 => (0..r).for_each(|i| part[at(i, a)] = 0.0),
                    // Two equal columns (tied pivots) or proportional rows.
                    2 if a != b => (0..r).for_each(|i| part[at(i, b)] = part[at(i, a)]),
                    3 if a != b => (0..r).for_each(|j| part[at(b, j)] = -2.0 * part[at(a, j)]),
                    // Rank one: an outer product of kink values.
                    4 => {
                        let u: Vec<f64> = (0..r).map(|i| part[at(i, 0)]).collect();
                        let w: Vec<f64> = (0..r).map(|j| part[at(0, j)].signum()).collect();
                        for i in 0..r {
                            for j in 0..r {
                                part[at(i, j)] = u[i] * w[j];
                            }
                        }
                    }
                    _ => part.iter_mut().for_each(|v| *v = 0.0),
                }
            }
            _ => {}
        }
        k += n;
    }
}

fn sample_plain(entry: &Entry, rng: &mut SplitMix, at_kinks: bool) -> Vec<f64> {
    let mut x = Vec::with_capacity(entry.n_inputs());
    for input in entry.inputs {
        let (lo, hi) = match input {
            Input::Matrix(..) | Input::Vector(..) => (-1.5, 1.5),
            _ => (-2.0, 2.0),
        };
        for _ in 0..input.len() {
            let v = if at_kinks {
                let k = KINK_VALUES
                    .iter()
                    .filter(|v| (lo..=hi).contains(*v))
                    .count();
                KINK_VALUES[(KINK_VALUES.len() - k) / 2 + (rng.next_u64() % k as u64) as usize]
            } else {
                rng.uniform(lo, hi)
            };
            x.push(if entry.f32 { f64::from(v as f32) } else { v });
        }
    }
    x
}

/// `x + h` as the program sees it (rounded to `f32` for `f32` programs).
fn shifted(x: f64, h: f64, f32: bool) -> f64 {
    if f32 {
        f64::from(x as f32 + h as f32)
    } else {
        x + h
    }
}

fn step(x: f64, f32: bool) -> f64 {
    if f32 {
        f64::from(autograd::central_difference_step(x as f32))
    } else {
        autograd::central_difference_step(x)
    }
}

/// The mirror's decisions, smallest margin, value and `stop_gradient`
/// values at `x`.
fn trace_at(entry: &Entry, x: &[f64], frozen: Option<&[f64]>) -> Trace {
    let Some(mirror) = entry.mirror else {
        // Smooth programs: no decisions to trace.
        return Trace {
            decisions: Vec::new(),
            margin: f64::INFINITY,
            value: (entry.primal)(x),
            stops: Vec::new(),
        };
    };
    let mut m = match frozen {
        Some(stops) => Mirror::frozen(stops.to_vec()),
        None => Mirror::tracing(),
    }
    .in_f32(entry.f32);
    let leaves: Vec<V> = x.iter().map(|&v| m.input(v)).collect();
    let out = mirror(&mut m, &leaves);
    Trace {
        decisions: m.trace().to_vec(),
        margin: m.min_margin(),
        value: out.x,
        stops: m.stops().to_vec(),
    }
}

struct Trace {
    decisions: Vec<bool>,
    margin: f64,
    value: f64,
    stops: Vec<f64>,
}

fn close(a: f64, b: f64, abs: f64, rel: f64) -> bool {
    (a - b).abs() <= abs + rel * a.abs().max(b.abs())
}

/// Whether an adjoint from the pullback seeded with 2 is twice the one
/// seeded with 1. Tight, except below the smallest normal number of the
/// program's float type, where products round to a fixed absolute step
/// (seed 101 of the long run: 3.168480563e-314 against 3.1684805644e-314).
fn pullback_is_linear(seeded_2: f64, seeded_1: f64, f32: bool, tol: Tolerances) -> bool {
    let underflow = if f32 {
        f64::from(f32::MIN_POSITIVE)
    } else {
        f64::MIN_POSITIVE
    };
    close(seeded_2, 2.0 * seeded_1, underflow, tol.graph * 1e-3)
}

/// The central difference of component `j` between `x - h` and `x + h`,
/// or `None` when the program takes other decisions at either point.
///
/// Differences are of the primal, except in programs with
/// `stop_gradient`: there, of the mirror with every `stop_gradient` frozen
/// at its value at `x`, the function whose derivative the adjoint is.
fn central(entry: &Entry, x: &[f64], j: usize, h: f64, base: &Trace) -> Option<f64> {
    let mut p = x.to_vec();
    let xp = shifted(x[j], h, entry.f32);
    let xm = shifted(x[j], -h, entry.f32);
    if xp == xm {
        return None;
    }
    let stops = uses_stop_gradient(entry).then_some(&base.stops[..]);
    let mut f = [0.0; 2];
    for (k, v) in [xp, xm].into_iter().enumerate() {
        p[j] = v;
        let t = trace_at(entry, &p, stops);
        if t.decisions != base.decisions {
            return None;
        }
        f[k] = if stops.is_some() {
            t.value
        } else {
            (entry.primal)(&p)
        };
    }
    Some((f[0] - f[1]) / (xp - xm))
}

fn uses_stop_gradient(entry: &Entry) -> bool {
    entry
        .features
        .split(' ')
        .any(|f| f == "stop-gradient" || f == "stop-gradient-in-callee")
}

fn fmt_point(entry: &Entry, x: &[f64]) -> String {
    let mut s = String::new();
    let mut k = 0;
    for input in entry.inputs {
        let n = input.len();
        let vals = &x[k..k + n];
        let name = match input {
            Input::Scalar(n) | Input::Constant(n) => n,
            Input::Slice(n, _) | Input::Vector(n, _) | Input::Matrix(n, ..) => n,
        };
        match input {
            Input::Scalar(_) | Input::Constant(_) => {
                let _ = write!(s, "{name} = {:?}; ", vals[0]);
            }
            Input::Matrix(_, r, c) => {
                let _ = write!(s, "{name} = {r}×{c} column-major {vals:?}; ");
            }
            _ => {
                let _ = write!(s, "{name} = {vals:?}; ");
            }
        }
        k += n;
    }
    s
}

/// Checks `entry` at `samples` points drawn from `seed`: the value of
/// `NAME_grad` and `NAME_vjp` against the primal (bit for bit), the adjoint
/// against the dynamic graph and against central finite differences, and
/// `NAME_vjp` with seed 2 against twice the gradient.
///
/// Points where a central difference would straddle a kink are skipped
/// (the mirror's decision trace must be the same at `x ± h`), and drawn
/// again, up to `30 · samples` draws; except one draw in four, taken at
/// kinks (`KINK_VALUES`), where only the straddling differences are
/// skipped. Points where the primal is not finite are drawn again. `NAME_grad_acc` must add twice the gradient into its buffers.
pub fn check(entry: &Entry, seed: u64, samples: usize) -> Report {
    let tol = if entry.f32 {
        Tolerances::F32
    } else {
        Tolerances::F64
    };
    let mut rng = SplitMix::new(seed_of(entry.name, seed));
    let mut report = Report::default();
    let nd = entry.n_differentiable();
    let mut draws = 0;
    while report.accepted < samples && draws < 30 * samples && report.failures.len() < 3 {
        draws += 1;
        let at_kinks = draws % 4 == 0;
        let x = sample(entry, &mut rng, at_kinks);
        let trace = trace_at(entry, &x, None);
        // A value that overflows has no derivative to check; at a kink
        // draw, where differences may be skipped, such a point would
        // otherwise be compared as ∞ − ∞ (finding 025).
        if trace.margin < tol.margin || !(entry.primal)(&x).is_finite() {
            report.rejected += 1;
            continue;
        }
        // First differences at the default step, and the kink test. Of a
        // large input (class `large-array`), at the first and last eight
        // components and sixteen drawn ones: the dynamic graph checks
        // every component.
        let sampled = fd_components(nd, &mut rng);
        let mut fd = Vec::with_capacity(nd);
        let mut straddles = false;
        for j in 0..nd {
            if !sampled.contains(&j) {
                fd.push(None);
                continue;
            }
            let d = central(entry, &x, j, step(x[j], entry.f32), &trace);
            if d.is_none() && !at_kinks {
                straddles = true;
                break;
            }
            fd.push(d);
        }
        if straddles {
            report.rejected += 1;
            continue;
        }
        report.accepted += 1;
        if at_kinks {
            report.kink_points += 1;
            report.fd_skipped_at_kinks += fd
                .iter()
                .enumerate()
                .filter(|(j, d)| d.is_none() && sampled.contains(j))
                .count();
        }
        if let Err(msg) = check_point(entry, &x, &trace, &fd, tol, &mut report) {
            report
                .failures
                .push(format!("{} at {}\n{msg}", entry.name, fmt_point(entry, &x)));
        }
    }
    report
}

/// The components whose central differences [`check`] takes: all of them
/// up to [`FD_ALL_UP_TO`] inputs.
fn fd_components(nd: usize, rng: &mut SplitMix) -> std::collections::BTreeSet<usize> {
    if nd <= FD_ALL_UP_TO {
        return (0..nd).collect();
    }
    let mut s: std::collections::BTreeSet<usize> = (0..8).chain(nd - 8..nd).collect();
    for _ in 0..16 {
        s.insert((rng.next_u64() % nd as u64) as usize);
    }
    s
}

/// Up to this many differentiable inputs every component is checked
/// against central differences.
pub const FD_ALL_UP_TO: usize = 64;

/// Whether `a` and `b` are the same infinity, or both NaN.
fn same_non_finite(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || (a.is_infinite() && a == b)
}

/// The dynamic graph's adjoint at `x` (a mirror's program).
fn graph_gradient(entry: &Entry, mirror: fn(&mut Mirror, &[V]) -> V, x: &[f64]) -> Vec<f64> {
    let mut m = Mirror::recording().in_f32(entry.f32);
    let leaves: Vec<V> = x.iter().map(|&v| m.input(v)).collect();
    let out = mirror(&mut m, &leaves);
    m.gradients(out, &leaves[..entry.n_differentiable()])
}

fn check_point(
    entry: &Entry,
    x: &[f64],
    trace: &Trace,
    fd: &[Option<f64>],
    tol: Tolerances,
    report: &mut Report,
) -> Result<(), String> {
    let nd = fd.len();
    let p = (entry.primal)(x);
    let (value, grad) = (entry.grad)(x);
    if value.to_bits() != p.to_bits() {
        return Err(format!(
            "  NAME_grad value {value:?} is not the primal's {p:?} bit for bit"
        ));
    }
    if grad.len() != nd {
        return Err(format!(
            "  NAME_grad returned {} adjoint components, expected {nd}",
            grad.len()
        ));
    }
    // A non-finite adjoint component is right where the dynamic graph
    // gives the same (an infinite derivative, 0·∞ = NaN: class
    // `non-finite`); a program without a mirror has none.
    if let Some(j) = grad.iter().position(|g| !g.is_finite()) {
        let graph = entry.mirror.map(|m| graph_gradient(entry, m, x));
        let agrees = |j: usize| {
            graph
                .as_ref()
                .is_some_and(|g| same_non_finite(grad[j], g[j]))
        };
        if !agrees(j) || (0..nd).any(|k| !grad[k].is_finite() && !agrees(k)) {
            let k = (0..nd)
                .find(|&k| !grad[k].is_finite() && !agrees(k))
                .unwrap_or(j);
            return Err(format!(
                "  adjoint of {} is {:?} (not finite; the dynamic graph's is {:?})",
                entry.component_name(k),
                grad[k],
                graph.as_ref().map(|g| g[k])
            ));
        }
    }

    // NAME_vjp with seed 2: the pullback is linear, so twice the gradient.
    let (vvalue, vgrad) = (entry.vjp)(x, 2.0);
    if vvalue.to_bits() != p.to_bits() {
        return Err(format!(
            "  NAME_vjp value {vvalue:?} is not the primal's {p:?} bit for bit"
        ));
    }
    for j in 0..nd {
        if !grad[j].is_finite() {
            if !same_non_finite(vgrad[j], 2.0 * grad[j]) {
                return Err(format!(
                    "  NAME_vjp(seed 2) adjoint of {} is {:e}, twice NAME_grad's is {:e}",
                    entry.component_name(j),
                    vgrad[j],
                    2.0 * grad[j]
                ));
            }
            continue;
        }
        if !pullback_is_linear(vgrad[j], grad[j], entry.f32, tol) {
            return Err(format!(
                "  NAME_vjp(seed 2) adjoint of {} is {:e}, twice NAME_grad's is {:e}",
                entry.component_name(j),
                vgrad[j],
                2.0 * grad[j]
            ));
        }
    }

    // NAME_grad_acc, twice into non-zero buffers.
    if let Some(acc) = entry.grad_acc {
        let (avalue, buffers) = acc(x);
        if avalue.to_bits() != p.to_bits() {
            return Err(format!(
                "  NAME_grad_acc value {avalue:?} is not the primal's {p:?} bit for bit"
            ));
        }
        let start = weights(nd, ACC_START);
        for j in 0..nd {
            let expected = start[j] + 2.0 * grad[j];
            let scale = expected.abs().max(grad[j].abs()).max(1.0);
            let right = if expected.is_finite() {
                close(buffers[j], expected, tol.graph * 1e-3 * scale, 0.0)
            } else {
                same_non_finite(buffers[j], expected)
            };
            if !right {
                return Err(format!(
                    "  NAME_grad_acc twice into {:e} gives {:e} for {}, expected {expected:e} (the start plus twice NAME_grad's)",
                    start[j],
                    buffers[j],
                    entry.component_name(j)
                ));
            }
        }
    }

    let mut msgs = String::new();
    if let Some(mirror) = entry.mirror {
        check_graph(entry, mirror, x, trace, &grad, fd, tol, &mut msgs)?;
    }
    msgs.push_str(&check_fd(entry, x, trace, &grad, fd, tol, report));
    if let Some(jvp) = entry.jvp {
        check_jvp(entry, jvp, x, trace, &grad, tol, &mut msgs);
    }
    if let Some(hvp) = entry.hvp {
        check_hvp(entry, hvp, x, trace, &grad, tol, &mut msgs);
        if let Some(hessian) = entry.hessian {
            check_hessian(entry, hessian, hvp, x, trace, &grad, &mut msgs);
        }
    }
    if let (Some(jacobian), Some(outputs)) = (entry.jacobian, entry.outputs) {
        check_jacobian(entry, jacobian, outputs, x, trace, &grad, tol, &mut msgs);
    }
    if let Some(grad_f32) = entry.grad_f32 {
        check_f32(entry, grad_f32, x, p, &grad, &mut msgs);
        if let (Some(jvp), Some(jvp_f32)) = (entry.jvp, entry.jvp_f32) {
            check_jvp_f32(jvp, jvp_f32, grad_f32, x, p, &mut msgs);
        }
    }
    if msgs.is_empty() {
        Ok(())
    } else {
        Err(format!("  value {p:?}\n{msgs}"))
    }
}

/// The macro's adjoint against the dynamic graph's.
#[allow(clippy::too_many_arguments)]
fn check_graph(
    entry: &Entry,
    mirror: fn(&mut Mirror, &[V]) -> V,
    x: &[f64],
    trace: &Trace,
    grad: &[f64],
    fd: &[Option<f64>],
    tol: Tolerances,
    msgs: &mut String,
) -> Result<(), String> {
    let nd = fd.len();
    let p = (entry.primal)(x);
    let mut m = Mirror::recording().in_f32(entry.f32);
    let leaves: Vec<V> = x.iter().map(|&v| m.input(v)).collect();
    let out = mirror(&mut m, &leaves);
    if m.trace() != trace.decisions {
        return Err(
            "  the recording mirror took other decisions than the tracing one (generator bug)"
                .into(),
        );
    }
    if !close(out.x, p, tol.value * p.abs().max(1.0), 0.0) {
        return Err(format!(
            "  the mirror computes {:?}, the primal {p:?} (generator bug: the mirror is not the same program)",
            out.x
        ));
    }
    if let Some(departure) = m.graph_departure() {
        return Err(format!(
            "  the dynamic graph does not hold the mirror's values, {departure} \
             (harness bug: its gradient would be another point's)"
        ));
    }
    let graph = m.gradients(out, &leaves[..nd]);
    let mut sensitivity: Option<Vec<f64>> = None;
    for j in 0..nd {
        let (a, g) = (grad[j], graph[j]);
        if !g.is_finite() || !a.is_finite() {
            // Where the graph's derivative is finite, the macro's must be.
            if !same_non_finite(a, g) {
                let _ = writeln!(
                    msgs,
                    "  d/d{}: macro adjoint {a:e}, dynamic graph {g:e}, finite difference {:?}",
                    entry.component_name(j),
                    fd[j]
                );
            }
            continue;
        }
        let mut tolerance = tol.graph * a.abs().max(g.abs()).max(1.0);
        if entry.f32 && !close(a, g, tolerance, 0.0) {
            // An `f32` program's rounding errors, amplified: allow ten times
            // the change of the (f64) graph gradient under a relative
            // change of 2^-22 (a few f32 ulps) of the inputs.
            let s = sensitivity.get_or_insert_with(|| {
                let shifted: Vec<f64> = x
                    .iter()
                    .enumerate()
                    .map(|(k, v)| v * (1.0 + if k % 2 == 0 { 1.0 } else { -1.0 } * 2f64.powi(-22)))
                    .collect();
                let mut m = Mirror::recording();
                let leaves: Vec<V> = shifted.iter().map(|&v| m.input(v)).collect();
                let out = mirror(&mut m, &leaves);
                let g2 = m.gradients(out, &leaves[..nd]);
                g2.iter().zip(&graph).map(|(a, b)| (a - b).abs()).collect()
            });
            tolerance += 10.0 * s[j];
        }
        if !close(a, g, tolerance, 0.0) {
            let _ = writeln!(
                msgs,
                "  d/d{}: macro adjoint {a:e}, dynamic graph {g:e}, finite difference {:?}",
                entry.component_name(j),
                fd[j]
            );
        }
    }
    Ok(())
}

/// The macro's adjoint against central differences: the default step,
/// then Richardson and a smaller step before calling it a failure.
fn check_fd(
    entry: &Entry,
    x: &[f64],
    trace: &Trace,
    grad: &[f64],
    fd: &[Option<f64>],
    tol: Tolerances,
    report: &mut Report,
) -> String {
    let mut msgs = String::new();
    let nd = fd.len();
    let p = (entry.primal)(x);
    let abs = tol.fd_abs * p.abs().max(1.0);
    for j in 0..nd {
        let a = grad[j];
        // Not taken: it straddles a kink (a point drawn at kinks). Not
        // finite: the dynamic graph has judged it.
        let Some(fd_j) = fd[j] else {
            continue;
        };
        if !a.is_finite() {
            continue;
        }
        if close(a, fd_j, abs, tol.fd_rel) {
            continue;
        }
        let h = step(x[j], entry.f32);
        let d2 = central(entry, x, j, 2.0 * h, trace);
        let richardson = d2.map(|d2| fd_j + (fd_j - d2) / 3.0);
        let small = central(entry, x, j, h / 8.0, trace);
        let estimates: Vec<f64> = [Some(fd_j), d2, richardson, small]
            .into_iter()
            .flatten()
            .collect();
        if estimates[1..].iter().any(|&d| close(a, d, abs, tol.fd_rel)) {
            report.fd_second_tries += 1;
            continue;
        }
        // The estimates disagree with each other (by 10 %, or by more than
        // with the adjoint): the function varies faster than these steps
        // resolve (a huge higher derivative). A wrong adjoint shows as
        // estimates that agree with each other and not with it.
        let lo = estimates.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = estimates.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let best = richardson.unwrap_or(fd_j);
        let spread = hi - lo;
        let magnitude = lo.abs().max(hi.abs());
        let independent = [d2, small].iter().flatten().count();
        if independent < 2
            || spread > 0.1 * magnitude + abs
            || close(a, best, abs + 4.0 * spread, tol.fd_rel)
        {
            report.fd_unresolved += 1;
            continue;
        }
        let _ = writeln!(
            msgs,
            "  d/d{}: macro adjoint {a:e}, finite difference {:e} (Richardson {richardson:?}, h/8 {small:?})",
            entry.component_name(j),
            fd_j,
        );
    }
    msgs
}

/// A direction for the second-order checks: varied signs and sizes,
/// shifted with the point so that successive points use different ones.
fn direction(n: usize, x: &[f64], salt: usize) -> Vec<f64> {
    let shift = x
        .iter()
        .map(|v| v.to_bits() as usize)
        .fold(salt, usize::wrapping_add);
    (0..n)
        .map(|k| weights(n + 6, 1.0)[(k + shift) % 6])
        .collect()
}

/// `x` moved by `t·v` in its first `v.len()` (differentiable) components.
fn along(x: &[f64], v: &[f64], t: f64) -> Vec<f64> {
    let mut y = x.to_vec();
    for (yk, vk) in y.iter_mut().zip(v) {
        *yk += t * vk;
    }
    y
}

/// Whether the program decides otherwise anywhere [`directional`] looks,
/// `x ± h·v` and `x ± 2h·v`, than at `x` (a point drawn at kinks, where a
/// branch ties): its differences along `v` are then not taken.
fn straddles_along(entry: &Entry, x: &[f64], v: &[f64], h: f64, trace: &Trace) -> bool {
    entry.mirror.is_some()
        && [h, -h, 2.0 * h, -2.0 * h]
            .iter()
            .any(|&t| trace_at(entry, &along(x, v, t), None).decisions != trace.decisions)
}

/// Central differences of `f` along `v` at steps `h` and `2h`, and their
/// Richardson extrapolation: three estimates of each component of ∂f/∂v.
fn directional(f: impl Fn(&[f64]) -> Vec<f64>, x: &[f64], v: &[f64], h: f64) -> [Vec<f64>; 3] {
    let diff = |h: f64| -> Vec<f64> {
        let (p, m) = (f(&along(x, v, h)), f(&along(x, v, -h)));
        p.iter().zip(&m).map(|(p, m)| (p - m) / (2.0 * h)).collect()
    };
    let (d1, d2) = (diff(h), diff(2.0 * h));
    let rich = d1.iter().zip(&d2).map(|(a, b)| a + (a - b) / 3.0).collect();
    [d1, d2, rich]
}

/// Whether `a` agrees with any of the estimates of component `i`.
fn agrees(a: f64, estimates: &[Vec<f64>; 3], i: usize, abs: f64, rel: f64) -> bool {
    estimates.iter().any(|e| close(a, e[i], abs, rel))
}

fn dot(a: &[f64], b: &[f64]) -> (f64, f64) {
    let value = a.iter().zip(b).map(|(a, b)| a * b).sum();
    let scale = a.iter().zip(b).map(|(a, b)| (a * b).abs()).sum::<f64>();
    (value, scale.max(1.0))
}

/// `NAME_jvp` along a direction: its value is the primal's bit for bit,
/// its tangent ⟨∇f, v⟩ (the dot-product identity with `NAME_vjp`, whose
/// adjoint `grad` is) and the central difference of the primal along v.
fn check_jvp(
    entry: &Entry,
    jvp: FlatJvp,
    x: &[f64],
    trace: &Trace,
    grad: &[f64],
    tol: Tolerances,
    msgs: &mut String,
) {
    let p = (entry.primal)(x);
    let v = direction(grad.len(), x, 1);
    let (value, tangent) = jvp(x, &v);
    if value.to_bits() != p.to_bits() {
        let _ = writeln!(
            msgs,
            "  NAME_jvp value {value:?} is not the primal's {p:?} bit for bit"
        );
    }
    let (expected, scale) = dot(grad, &v);
    if !close(tangent, expected, 1e-10 * scale, 0.0) {
        let _ = writeln!(
            msgs,
            "  NAME_jvp along {v:?} is {tangent:e}, ⟨NAME_vjp's adjoint, v⟩ is {expected:e}"
        );
    }
    let h = step(1.0, entry.f32);
    if straddles_along(entry, x, &v, h, trace) {
        return;
    }
    let fd = directional(|y| vec![(entry.primal)(y)], x, &v, h);
    let abs = tol.fd_abs * p.abs().max(1.0) * scale;
    if !agrees(tangent, &fd, 0, abs, tol.fd_rel) {
        let _ = writeln!(
            msgs,
            "  NAME_jvp along {v:?} is {tangent:e}, central differences of the primal {:e} (Richardson {:e})",
            fd[0][0], fd[2][0]
        );
    }
}

/// The second-order items' gradient against `NAME_grad`'s: within a few
/// ulps, not bit for bit, since `_grad` may run a fused loop (contributions
/// summed in another order) where the hessian's twin runs the two-pass
/// reverse. The ulps are those of the terms summed, which can be far larger
/// than the result: a component of 4e-4 that is a cancellation of order-1
/// terms differs by 1e-16 (findings 008 and 019). The terms are not known
/// here, so the scale is the largest component and never below 1.
fn same_gradient(g: &[f64], grad: &[f64]) -> bool {
    let scale = grad.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    g.len() == grad.len()
        && g.iter()
            .zip(grad)
            .all(|(a, b)| (a - b).abs() <= 1e-13 * a.abs().max(b.abs()).max(scale))
}

/// `NAME_hvp` along a direction: value and gradient bit for bit the
/// primal's and `NAME_grad`'s, H·v against central differences of
/// `NAME_grad` along v, and ⟨u, H·v⟩ = ⟨H·u, v⟩.
fn check_hvp(
    entry: &Entry,
    hvp: FlatHvp,
    x: &[f64],
    trace: &Trace,
    grad: &[f64],
    tol: Tolerances,
    msgs: &mut String,
) {
    let p = (entry.primal)(x);
    let nd = grad.len();
    let v = direction(nd, x, 2);
    let (value, g, hv) = hvp(x, &v);
    if value.to_bits() != p.to_bits() {
        let _ = writeln!(
            msgs,
            "  NAME_hvp value {value:?} is not the primal's {p:?} bit for bit"
        );
    }
    if !same_gradient(&g, grad) {
        let _ = writeln!(
            msgs,
            "  NAME_hvp gradient {g:?} is not NAME_grad's {grad:?} to 1e-13"
        );
    }
    let h = step(1.0, entry.f32);
    let fd = directional(|y| (entry.grad)(y).1, x, &v, h);
    let gmax = grad.iter().fold(1.0f64, |m, g| m.max(g.abs()));
    let abs = tol.fd_abs * gmax * dot(&v, &v).1.sqrt();
    let straddles = straddles_along(entry, x, &v, h, trace);
    for (i, &a) in hv.iter().enumerate().take(nd).filter(|_| !straddles) {
        if !agrees(a, &fd, i, abs, tol.fd_rel) {
            let _ = writeln!(
                msgs,
                "  (H·v)[{}] along {v:?} is {a:e}, central differences of NAME_grad {:e} (Richardson {:e})",
                entry.component_name(i),
                fd[0][i],
                fd[2][i]
            );
        }
    }
    let u = direction(nd, x, 3);
    let (_, _, hu) = hvp(x, &u);
    let (uhv, s1) = dot(&u, &hv);
    let (huv, s2) = dot(&hu, &v);
    if !close(uhv, huv, 1e-9 * s1.max(s2), 0.0) {
        let _ = writeln!(msgs, "  ⟨u, H·v⟩ = {uhv:e} but ⟨H·u, v⟩ = {huv:e}");
    }
}

/// `NAME_hessian`: value and gradient those of the primal and `NAME_grad`
/// (as `NAME_hvp`'s), symmetric, and H·v equal to `NAME_hvp`'s (which
/// [`check_hvp`] holds to central differences of `NAME_grad`).
// H[i][j] against H[j][i]: indices on both sides of the diagonal.
#[allow(clippy::needless_range_loop, clippy::too_many_arguments)]
fn check_hessian(
    entry: &Entry,
    hessian: FlatHessian,
    hvp: FlatHvp,
    x: &[f64],
    trace: &Trace,
    grad: &[f64],
    msgs: &mut String,
) {
    let p = (entry.primal)(x);
    let nd = grad.len();
    let (value, g, h) = hessian(x);
    if value.to_bits() != p.to_bits() {
        let _ = writeln!(
            msgs,
            "  NAME_hessian value {value:?} is not the primal's {p:?} bit for bit"
        );
    }
    if !same_gradient(&g, grad) {
        let _ = writeln!(
            msgs,
            "  NAME_hessian gradient {g:?} is not NAME_grad's {grad:?} to 1e-13"
        );
    }
    if h.len() != nd || h.iter().any(|r| r.len() != nd) {
        let _ = writeln!(msgs, "  NAME_hessian is not {nd} × {nd}");
        return;
    }
    let hmax = h.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
    for i in 0..nd {
        for j in 0..i {
            if !close(h[i][j], h[j][i], 1e-12 * hmax, 0.0) {
                let _ = writeln!(
                    msgs,
                    "  NAME_hessian is not symmetric: H[{}][{}] = {:e}, H[{}][{}] = {:e}",
                    entry.component_name(i),
                    entry.component_name(j),
                    h[i][j],
                    entry.component_name(j),
                    entry.component_name(i),
                    h[j][i]
                );
            }
        }
    }
    let v = direction(nd, x, 4);
    let (_, _, hv) = hvp(x, &v);
    for (i, row) in h.iter().enumerate() {
        let (expected, scale) = dot(row, &v);
        if !close(hv[i], expected, 1e-12 * scale, 0.0) {
            let _ = writeln!(
                msgs,
                "  (NAME_hessian·v)[{}] = {expected:e}, NAME_hvp's {:e}",
                entry.component_name(i),
                hv[i]
            );
        }
    }
    if nd > COLUMNS_UP_TO {
        return;
    }
    // Column by column: `NAME_hessian` sweeps eight columns at once (full
    // groups of eight), `NAME_hvp` one; and central differences of
    // `NAME_grad` along each axis.
    let tol = if entry.f32 {
        Tolerances::F32
    } else {
        Tolerances::F64
    };
    let gmax = grad.iter().fold(1.0f64, |m, g| m.max(g.abs()));
    for j in 0..nd {
        let mut e = vec![0.0; nd];
        e[j] = 1.0;
        let (_, _, column) = hvp(x, &e);
        let hstep = step(x[j], entry.f32);
        let fd = (!straddles_along(entry, x, &e, hstep, trace))
            .then(|| directional(|y| (entry.grad)(y).1, x, &e, hstep));
        for i in 0..nd {
            if !close(h[i][j], column[i], 1e-10 * hmax, 0.0) {
                let _ = writeln!(
                    msgs,
                    "  NAME_hessian[{}][{}] = {:e}, NAME_hvp along the axis {:e}",
                    entry.component_name(i),
                    entry.component_name(j),
                    h[i][j],
                    column[i]
                );
            }
            let Some(fd) = fd.as_ref() else {
                continue;
            };
            if !agrees(h[i][j], fd, i, tol.fd_abs * gmax, tol.fd_rel) {
                let _ = writeln!(
                    msgs,
                    "  NAME_hessian[{}][{}] = {:e}, central differences of NAME_grad {:e} (Richardson {:e})",
                    entry.component_name(i),
                    entry.component_name(j),
                    h[i][j],
                    fd[0][i],
                    fd[2][i]
                );
            }
        }
    }
}

/// Up to this many differentiable inputs, the Hessian check and
/// the Jacobian check hold every column against `NAME_hvp` or `NAME_jvp`
/// along the axis.
pub const COLUMNS_UP_TO: usize = 32;

/// A generic function's `NAME_jvp` at `f32`: its value `NAME_grad`'s at
/// `f32` bit for bit, its tangent ⟨∇f, v⟩ from `NAME_grad` at `f32` (the
/// dot-product identity) and the `f64` tangent at the same point (which
/// [`check_jvp`] holds to central differences), to `f32` tolerances.
fn check_jvp_f32(
    jvp: FlatJvp,
    jvp_f32: FlatJvp,
    grad_f32: FlatGrad,
    x: &[f64],
    p: f64,
    msgs: &mut String,
) {
    let x32: Vec<f64> = x.iter().map(|&v| f64::from(v as f32)).collect();
    let (value32, g32) = grad_f32(&x32);
    let v: Vec<f64> = direction(g32.len(), x, 5)
        .iter()
        .map(|&t| f64::from(t as f32))
        .collect();
    let (value, tangent) = jvp_f32(&x32, &v);
    if value.to_bits() != value32.to_bits() {
        let _ = writeln!(
            msgs,
            "  at f32 NAME_jvp's value {value:?} is not NAME_grad's {value32:?} bit for bit"
        );
    }
    let tol = Tolerances::F32;
    let (expected, scale) = dot(&g32, &v);
    if !close(tangent, expected, tol.fd_abs * scale, tol.fd_rel) {
        let _ = writeln!(
            msgs,
            "  at f32 NAME_jvp along {v:?} is {tangent:e}, ⟨NAME_grad's adjoint, v⟩ {expected:e}"
        );
    }
    let (_, t64) = jvp(&x32, &v);
    let abs = tol.fd_abs * p.abs().max(1.0) * scale;
    if !close(tangent, t64, abs, tol.fd_rel) {
        let _ = writeln!(
            msgs,
            "  at f32 NAME_jvp along {v:?} is {tangent:e}, at f64 {t64:e}"
        );
    }
}

/// `NAME_jacobian` of a vector result: its outputs bit for bit the
/// function's, each column against central differences of the outputs,
/// and the weighed rows against the gradient of the weighed outputs.
#[allow(clippy::too_many_arguments)]
fn check_jacobian(
    entry: &Entry,
    jacobian: FlatJacobian,
    outputs: FlatOutputs,
    x: &[f64],
    trace: &Trace,
    grad: &[f64],
    tol: Tolerances,
    msgs: &mut String,
) {
    let nd = grad.len();
    let out = outputs(x);
    let (values, rows) = jacobian(x);
    if values.len() != out.len()
        || values
            .iter()
            .zip(&out)
            .any(|(a, b)| a.to_bits() != b.to_bits())
    {
        let _ = writeln!(
            msgs,
            "  NAME_jacobian value {values:?} is not the function's {out:?} bit for bit"
        );
        return;
    }
    if rows.len() != out.len() || rows.iter().any(|r| r.len() != nd) {
        let _ = writeln!(msgs, "  NAME_jacobian is not {} × {nd}", out.len());
        return;
    }
    let w = weights(out.len(), 1.0);
    for j in 0..nd {
        let column: Vec<f64> = rows.iter().map(|r| r[j]).collect();
        let (weighed, scale) = dot(&w, &column);
        if !close(weighed, grad[j], 1e-10 * scale, 0.0) {
            let _ = writeln!(
                msgs,
                "  Σ wᵢ·J[i][{j}] = {weighed:e}, the adjoint of the weighed outputs {:e}",
                grad[j]
            );
        }
        // `NAME_jacobian` sweeps eight directions at once (full groups of
        // eight), `NAME_jvp` one: its weighed tangent along the axis.
        if let Some(jvp) = entry.jvp.filter(|_| nd <= COLUMNS_UP_TO) {
            let mut e = vec![0.0; nd];
            e[j] = 1.0;
            let (_, tangent) = jvp(x, &e);
            if !close(weighed, tangent, 1e-10 * scale, 0.0) {
                let _ = writeln!(
                    msgs,
                    "  Σ wᵢ·J[i][{}] = {weighed:e}, NAME_jvp along the axis {tangent:e}",
                    entry.component_name(j)
                );
            }
        }
        let mut e = vec![0.0; nd];
        e[j] = 1.0;
        let h = step(x[j], entry.f32);
        if straddles_along(entry, x, &e, h, trace) {
            continue;
        }
        let fd = directional(outputs, x, &e, h);
        for (i, &a) in column.iter().enumerate() {
            let abs = tol.fd_abs * out[i].abs().max(1.0);
            if !agrees(a, &fd, i, abs, tol.fd_rel) {
                let _ = writeln!(
                    msgs,
                    "  J[{i}][{}] is {a:e}, central differences {:e} (Richardson {:e})",
                    entry.component_name(j),
                    fd[0][i],
                    fd[2][i]
                );
            }
        }
    }
}

/// A generic function at `f32` against itself at `f64`, at the same
/// (`f32`-rounded) point, with [`Tolerances::F32`]'s finite-difference
/// tolerances (the `f64` gradient is checked against differences).
fn check_f32(
    entry: &Entry,
    grad_f32: FlatGrad,
    x: &[f64],
    p: f64,
    grad: &[f64],
    msgs: &mut String,
) {
    let x32: Vec<f64> = x.iter().map(|&v| f64::from(v as f32)).collect();
    let (value, g) = grad_f32(&x32);
    let (v64, g64) = (entry.grad)(&x32);
    let tol = Tolerances::F32;
    let abs = tol.fd_abs * p.abs().max(1.0);
    if !close(value, v64, abs, tol.fd_rel) {
        let _ = writeln!(msgs, "  at f32 the value is {value:e}, at f64 {v64:e}");
    }
    for j in 0..grad.len() {
        if !close(g[j], g64[j], abs, tol.fd_rel) {
            let _ = writeln!(
                msgs,
                "  at f32 d/d{} is {:e}, at f64 {:e}",
                entry.component_name(j),
                g[j],
                g64[j]
            );
        }
    }
}

/// The weights that turn a matrix result into the scalar Σ wₖ·outₖ the
/// test checks (`n` of them, column-major, times `scale`): varied signs
/// and sizes, so that no entry's adjoint can hide behind another's.
pub fn weights(n: usize, scale: f64) -> Vec<f64> {
    const W: [f64; 6] = [0.75, -0.5, 1.25, -1.0, 0.5, 1.5];
    (0..n).map(|k| W[k % W.len()] * scale).collect()
}

/// Σ wₖ·valuesₖ with the [`weights`] (scale 1), summed in order.
pub fn weigh(values: &[f64]) -> f64 {
    values
        .iter()
        .zip(weights(values.len(), 1.0))
        .fold(0.0, |s, (v, w)| s + w * v)
}

/// `NAME_hessian_sparse` (at `NAME_hessian_pattern`'s colouring) against
/// `NAME_hessian`, called from a generated wrapper: the value bit for bit,
/// the gradient to `same_gradient`'s ulps, and every entry of the
/// densified sparse Hessian the dense one's to 1e-12 of the largest entry.
/// Panics with the first difference: the
/// harness reports a panic as the program's failure, with its message.
pub fn check_sparse_hessian(dense: (f64, &[f64], &[Vec<f64>]), sparse: (f64, &[f64], &[Vec<f64>])) {
    let ((value, g, h), (svalue, sg, sh)) = (dense, sparse);
    assert!(
        svalue.to_bits() == value.to_bits(),
        "NAME_hessian_sparse value {svalue:?} is not NAME_hessian's {value:?} bit for bit"
    );
    assert!(
        same_gradient(sg, g),
        "NAME_hessian_sparse gradient {sg:?} is not NAME_hessian's {g:?}"
    );
    assert!(
        sh.len() == h.len() && sh.iter().zip(h).all(|(a, b)| a.len() == b.len()),
        "NAME_hessian_sparse is not NAME_hessian's shape"
    );
    let hmax = h.iter().flatten().fold(1.0f64, |m, v| m.max(v.abs()));
    for (i, (srow, row)) in sh.iter().zip(h).enumerate() {
        for (j, (s, d)) in srow.iter().zip(row).enumerate() {
            assert!(
                close(*s, *d, 1e-12 * hmax, 0.0),
                "NAME_hessian_sparse[{i}][{j}] = {s:e}, NAME_hessian's {d:e}"
            );
        }
    }
}

/// A matrix's rows, as the flat wrappers return a Hessian.
pub fn rows(m: &nalgebra::DMatrix<f64>) -> Vec<Vec<f64>> {
    (0..m.nrows())
        .map(|r| m.row(r).iter().copied().collect())
        .collect()
}

/// The in-out arguments as a second-order item (`what`) left them against
/// what the function itself leaves, bit for bit; called from a generated
/// wrapper, panics (reported as the program's failure) when they differ.
pub fn check_left_as(what: &str, got: &[f64], primal: &[f64]) {
    assert!(
        got.len() == primal.len()
            && got
                .iter()
                .zip(primal)
                .all(|(a, b)| a.to_bits() == b.to_bits()),
        "{what} leaves the in-out argument at {got:?}, the function itself at {primal:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    // f(a, x, y) = a² sin x + a y, by hand, for the checks of entries
    // without a mirror (`build/shaped.rs`): each must pass the right
    // derivative and catch a wrong one.
    fn f(v: &[f64]) -> f64 {
        v[0] * v[0] * v[1].sin() + v[0] * v[2]
    }
    fn gradient(v: &[f64]) -> Vec<f64> {
        vec![
            2.0 * v[0] * v[1].sin() + v[2],
            v[0] * v[0] * v[1].cos(),
            v[0],
        ]
    }
    fn f_grad(v: &[f64]) -> (f64, Vec<f64>) {
        (f(v), gradient(v))
    }
    fn f_vjp(v: &[f64], seed: f64) -> (f64, Vec<f64>) {
        (f(v), gradient(v).iter().map(|g| g * seed).collect())
    }
    fn f_jvp(v: &[f64], t: &[f64]) -> (f64, f64) {
        (f(v), gradient(v).iter().zip(t).map(|(g, t)| g * t).sum())
    }
    fn f_hvp(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
        let (a, x) = (v[0], v[1]);
        let h = [
            [2.0 * x.sin(), 2.0 * a * x.cos(), 1.0],
            [2.0 * a * x.cos(), -a * a * x.sin(), 0.0],
            [1.0, 0.0, 0.0],
        ];
        let hv = h
            .iter()
            .map(|r| r.iter().zip(t).map(|(h, t)| h * t).sum())
            .collect();
        (f(v), gradient(v), hv)
    }
    // Outputs (a² sin x, a y), weighed 0.75 and -0.5 into the primal.
    fn outputs(v: &[f64]) -> Vec<f64> {
        vec![v[0] * v[0] * v[1].sin(), v[0] * v[2]]
    }
    fn weighed(v: &[f64]) -> f64 {
        weigh(&outputs(v))
    }
    fn jacobian(v: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
        let (a, x, y) = (v[0], v[1], v[2]);
        let rows = vec![
            vec![2.0 * a * x.sin(), a * a * x.cos(), 0.0],
            vec![y, 0.0, a],
        ];
        (outputs(v), rows)
    }
    fn weighed_grad(v: &[f64]) -> (f64, Vec<f64>) {
        let (_, rows) = jacobian(v);
        let g = (0..3)
            .map(|j| 0.75 * rows[0][j] - 0.5 * rows[1][j])
            .collect();
        (weighed(v), g)
    }
    fn weighed_vjp(v: &[f64], seed: f64) -> (f64, Vec<f64>) {
        let (value, g) = weighed_grad(v);
        (value, g.iter().map(|g| g * seed).collect())
    }
    fn f_grad_f32(v: &[f64]) -> (f64, Vec<f64>) {
        let w: Vec<f32> = v.iter().map(|&t| t as f32).collect();
        let value = w[0] * w[0] * w[1].sin() + w[0] * w[2];
        let g = [
            2.0 * w[0] * w[1].sin() + w[2],
            w[0] * w[0] * w[1].cos(),
            w[0],
        ];
        (f64::from(value), g.iter().map(|&t| f64::from(t)).collect())
    }

    fn f_hessian(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
        let n = v.len();
        let rows = (0..n)
            .map(|j| {
                let mut e = vec![0.0; n];
                e[j] = 1.0;
                f_hvp(v, &e).2
            })
            .collect();
        (f(v), gradient(v), rows)
    }
    fn f_jvp_f32(v: &[f64], t: &[f64]) -> (f64, f64) {
        let (value, g) = f_grad_f32(v);
        let w: Vec<f32> = t.iter().map(|&t| t as f32).collect();
        let g: Vec<f32> = g.iter().map(|&g| g as f32).collect();
        (value, f64::from(g[0] * w[0] + g[1] * w[1] + g[2] * w[2]))
    }

    const SMOOTH: Entry = Entry {
        name: "smooth",
        source: "",
        deps: &[],
        inputs: &[Input::Scalar("a"), Input::Slice("xs", 2)],
        f32: false,
        features: "",
        primal: f,
        grad: f_grad,
        vjp: f_vjp,
        grad_acc: None,
        mirror: None,
        jvp: Some(f_jvp),
        hvp: Some(f_hvp),
        hessian: Some(f_hessian),
        outputs: None,
        jacobian: None,
        grad_f32: Some(f_grad_f32),
        jvp_f32: Some(f_jvp_f32),
    };
    const VECTOR: Entry = Entry {
        primal: weighed,
        grad: weighed_grad,
        vjp: weighed_vjp,
        jvp: None,
        hvp: None,
        hessian: None,
        outputs: Some(outputs),
        jacobian: Some(jacobian),
        grad_f32: None,
        jvp_f32: None,
        ..SMOOTH
    };

    fn failures(entry: &Entry) -> String {
        check(entry, 1, 5).failures.join("\n")
    }

    #[test]
    fn right_second_order_items_pass() {
        assert_eq!(failures(&SMOOTH), "");
        assert_eq!(failures(&VECTOR), "");
    }

    #[test]
    fn a_wrong_jvp_fails() {
        fn wrong(v: &[f64], t: &[f64]) -> (f64, f64) {
            let (value, tangent) = f_jvp(v, t);
            (value, tangent + 1e-3 * v[0])
        }
        let msg = failures(&Entry {
            jvp: Some(wrong),
            ..SMOOTH
        });
        assert!(msg.contains("NAME_jvp along"), "{msg}");
    }

    #[test]
    fn a_wrong_hvp_fails() {
        // H·v of a² sin x + a y with the cross term a·y dropped.
        fn wrong(v: &[f64], t: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
            let (value, g, mut hv) = f_hvp(v, t);
            hv[0] -= t[2];
            hv[2] -= t[0];
            (value, g, hv)
        }
        let msg = failures(&Entry {
            hvp: Some(wrong),
            ..SMOOTH
        });
        assert!(msg.contains("central differences of NAME_grad"), "{msg}");
    }

    #[test]
    fn a_wrong_hessian_fails() {
        // Asymmetric: the cross term a·y only above the diagonal.
        fn asymmetric(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
            let (value, g, mut h) = f_hessian(v);
            h[2][0] = 0.0;
            (value, g, h)
        }
        let msg = failures(&Entry {
            hessian: Some(asymmetric),
            ..SMOOTH
        });
        assert!(msg.contains("not symmetric"), "{msg}");
        // Symmetric but not NAME_hvp's: the a·y term dropped both ways.
        fn wrong(v: &[f64]) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
            let (value, g, mut h) = f_hessian(v);
            h[2][0] = 0.0;
            h[0][2] = 0.0;
            (value, g, h)
        }
        let msg = failures(&Entry {
            hessian: Some(wrong),
            ..SMOOTH
        });
        assert!(msg.contains("(NAME_hessian·v)[a]"), "{msg}");
        // Column by column, against `NAME_hvp` and differences of the
        // gradient.
        assert!(
            msg.contains("NAME_hessian[xs[1]][a] = 0e0, NAME_hvp along the axis"),
            "{msg}"
        );
        assert!(
            msg.contains("NAME_hessian[xs[1]][a] = 0e0, central differences of NAME_grad"),
            "{msg}"
        );
    }

    #[test]
    fn a_jacobian_column_unlike_the_jvp_along_its_axis_fails() {
        // The weighed outputs' tangent, its a-component doubled: the
        // Jacobian (right) no longer matches it along the axis of a.
        fn wrong(v: &[f64], t: &[f64]) -> (f64, f64) {
            let (_, rows) = jacobian(v);
            let w = weights(2, 1.0);
            let tangent = (0..3)
                .map(|j| {
                    (w[0] * rows[0][j] + w[1] * rows[1][j]) * t[j] * if j == 0 { 2.0 } else { 1.0 }
                })
                .sum();
            (weighed(v), tangent)
        }
        let msg = failures(&Entry {
            jvp: Some(wrong),
            ..VECTOR
        });
        assert!(msg.contains("Σ wᵢ·J[i][a] = "), "{msg}");
        assert!(!msg.contains("Σ wᵢ·J[i][xs[0]] = "), "{msg}");
    }

    #[test]
    fn a_wrong_f32_jvp_fails() {
        fn wrong(v: &[f64], t: &[f64]) -> (f64, f64) {
            let (value, tangent) = f_jvp_f32(v, t);
            (value, tangent * 1.05 + 0.01)
        }
        let msg = failures(&Entry {
            jvp_f32: Some(wrong),
            ..SMOOTH
        });
        assert!(msg.contains("at f32 NAME_jvp along"), "{msg}");
    }

    #[test]
    fn a_wrong_jacobian_fails() {
        fn wrong(v: &[f64]) -> (Vec<f64>, Vec<Vec<f64>>) {
            let (out, mut rows) = jacobian(v);
            rows.swap(0, 1);
            (out, rows)
        }
        let msg = failures(&Entry {
            jacobian: Some(wrong),
            ..VECTOR
        });
        assert!(msg.contains("J[0]"), "{msg}");
    }

    #[test]
    fn a_wrong_f32_instantiation_fails() {
        fn wrong(v: &[f64]) -> (f64, Vec<f64>) {
            let (value, mut g) = f_grad_f32(v);
            g[1] *= 1.1;
            (value, g)
        }
        let msg = failures(&Entry {
            grad_f32: Some(wrong),
            ..SMOOTH
        });
        assert!(msg.contains("at f32 d/dxs[0]"), "{msg}");
    }

    #[test]
    fn second_order_gradient_tolerates_cancellation_rounding_only() {
        // Finding 019: a component of 4.2e-4 summed from order-1 terms.
        let grad = [-0.0004192572809644801, 0.0, 0.0, 0.0];
        let hvp = [-0.00041925728096459114, 0.0, 0.0, 0.0];
        assert!(same_gradient(&hvp, &grad));
        let mut off = grad;
        off[0] += 1e-10;
        assert!(!same_gradient(&off, &grad));
        // Relative to a large gradient, a few ulps pass and 1e-10 does not.
        let big = [1.0e6, 3.0];
        assert!(same_gradient(&[1.0e6 * (1.0 + 4e-16), 3.0], &big));
        assert!(!same_gradient(&[1.0e6 * (1.0 + 1e-10), 3.0], &big));
        assert!(!same_gradient(&grad[..2], &grad));
    }

    #[test]
    fn pullback_linearity_tolerates_underflow_only() {
        let tol = Tolerances::F64;
        // Subnormal adjoints, seen in the long run.
        assert!(pullback_is_linear(
            3.168480563e-314,
            3.1684805644e-314 / 2.0,
            false,
            tol
        ));
        // Normal ones are held to 1e-12 relative.
        assert!(pullback_is_linear(2.0 + 1e-13, 1.0, false, tol));
        assert!(!pullback_is_linear(2.0 + 1e-10, 1.0, false, tol));
        assert!(!pullback_is_linear(1e-300, 1e-300, false, tol));
        // `f32` programs: below 1.2e-38.
        let tol = Tolerances::F32;
        assert!(pullback_is_linear(3e-39, 1e-39, true, tol));
        assert!(!pullback_is_linear(3e-30, 1e-30, true, tol));
    }

    /// The message of a panic of `f`, or `None`.
    fn panic_message(f: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
        std::panic::catch_unwind(f)
            .err()
            .map(|p| p.downcast_ref::<String>().cloned().unwrap_or_default())
    }

    #[test]
    fn a_sparse_hessian_off_the_dense_one_fails() {
        let h = vec![vec![2.0, 0.5], vec![0.5, 0.0]];
        let g = [1.0, -1.0];
        assert_eq!(
            panic_message(|| check_sparse_hessian((3.0, &g, &h), (3.0, &g, &h))),
            None
        );
        // A structural zero filled in.
        let mut filled = h.clone();
        filled[1][1] = 1e-6;
        let msg = panic_message(|| check_sparse_hessian((3.0, &g, &h), (3.0, &g, &filled)));
        assert!(
            msg.as_deref()
                .is_some_and(|m| m.contains("NAME_hessian_sparse[1][1] = 1e-6")),
            "{msg:?}"
        );
        // The value not bit for bit.
        let msg = panic_message(|| check_sparse_hessian((3.0, &g, &h), (3.0 + 4e-16, &g, &h)));
        assert!(
            msg.as_deref().is_some_and(|m| m.contains("value")),
            "{msg:?}"
        );
    }

    #[test]
    fn in_out_arguments_left_otherwise_fail() {
        assert_eq!(
            panic_message(|| check_left_as("NAME_hvp", &[1.0, -0.0], &[1.0, -0.0])),
            None
        );
        // Bit for bit: -0 is not 0.
        let msg = panic_message(|| check_left_as("NAME_hvp", &[1.0, 0.0], &[1.0, -0.0]));
        assert!(
            msg.as_deref()
                .is_some_and(|m| m.contains("NAME_hvp leaves the in-out argument at [1.0, 0.0]")),
            "{msg:?}"
        );
    }
}
