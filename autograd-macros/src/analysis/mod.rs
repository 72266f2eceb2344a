//! Activity analysis and the bookkeeping the reverse sweep needs.
//!
//! A value is *varied* if it depends on a differentiable argument and
//! *useful* if the result depends on it; it is *active* if both. Only active
//! values get an adjoint and reverse code. A *use* is a place where the
//! reverse sweep adds a contribution into an active value's adjoint.

pub mod fusion;

use std::collections::{HashMap, HashSet};

use proc_macro2::TokenStream;

use crate::ctxt::Ctxt;
use crate::ir::*;
use crate::table::{Operator, Read, Rule};

pub struct Analysis {
    pub varied: ValueMap<bool>,
    pub useful: ValueMap<bool>,
    /// Number of contributions into each value's adjoint.
    pub uses: ValueMap<usize>,
    /// Adjoints created up front (zero) because a contribution comes from a
    /// nested block or through a callee's pullback.
    pub predeclare: ValueMap<bool>,
    /// Adjoints some run may leave without any contribution (every use is
    /// in a branch arm, a loop body, or behind such a value): each carries
    /// a `reached` flag, and the value's reverse runs only if a contribution
    /// arrived, so a value the result does not read on this run adds
    /// nothing (not `0·∞ = NaN` through its own partials). A call's
    /// pullback may not reach an argument (see `Reached` in the facade's
    /// runtime), so a call is a user that may not arrive. Always false in
    /// straight-line code without calls, `max`, `min` or `clamp`; only scalars and call results
    /// are gated, and scalar arguments, whose flag the pullback returns
    /// (see [`unreached_argument`]).
    pub gated: ValueMap<bool>,
    /// Reads `a[i]` whose reverse creates the adjoint of the array `a`, as
    /// a zero shaped like `a` (see [`zero_at_read`]).
    pub zero_at_read: HashSet<ValueId>,
    /// Values defined by each block, in definition order.
    pub defined_in: HashMap<BlockId, Vec<ValueId>>,
    /// Each loop's stack and recomputation, by loop id, computed once
    /// (inner loops first): recomputing them per use made the analysis of
    /// a nest exponential in its depth.
    saves: HashMap<LoopId, LoopSaves>,
    /// What the reverse sweep of each branch arm, loop body and the
    /// function's body reads (see [`Analysis::needs`]), by block.
    needs: HashMap<BlockId, HashSet<ValueId>>,
    /// The loops that run as one fused pass (see [`fusion`]).
    pub fused: HashMap<LoopId, fusion::Fusion>,
    /// Elements read in a branch arm of a loop body from an array the
    /// iteration changes, which the loop keeps on its stack (see
    /// [`LoopSaves::kept`]): the forward sweep hands each out of its
    /// branch (a zero where the other arm ran), and the reverse of the arm
    /// reads the popped element instead of computing it again.
    pub kept_in_arms: HashSet<ValueId>,
    /// The entry values of arrays carried by a loop, with the loop and the
    /// variable's name: the reverse of an iteration creates such an
    /// entry's adjoint as a zero shaped like the carried adjoint, not like
    /// the array, which it then need not have at hand.
    pub carried_arrays: HashMap<ValueId, (LoopId, String)>,
    /// The entry values of carried arrays whose loop may change their
    /// length (see [`resized_arrays`]): their adjoints change length with
    /// them, so the reverse shapes each of their zero adjoints like the
    /// value it is the adjoint of, and none is in `carried_arrays`.
    /// Each with the array's value after the loop.
    pub resized: HashMap<ValueId, ValueId>,
    /// Arrays whose length is provably a value of the function (`vec![x;
    /// d]`, stores into it, loop-carried versions of it no iteration
    /// resizes): the length's value.
    pub lengths: HashMap<ValueId, ValueId>,
    /// Errors that hold only in some configurations (a call of a function
    /// without the attribute in `#[cfg]` code), each under its `#[cfg]`:
    /// items the expansion emits next to the function.
    pub conditional_errors: TokenStream,
    /// Whether the arrays the body declares longer than a stack frame
    /// should hold are built on the heap (see [`boxes_large_arrays`]).
    pub boxes_arrays: bool,
    /// The analysis of each `map` closure's function, by the value its
    /// `map` defines: its VJP is emitted from it.
    pub closures: HashMap<ValueId, Analysis>,
    /// Loops nested in a loop whose records are made by the enclosing
    /// loop's own recording run, for every iteration of the nest, rather
    /// than by running the loop again in each enclosing iteration's
    /// reverse (see [`tape_candidates`]).
    pub taped: HashSet<LoopId>,
    /// The exit values of carried arrays whose adjoint the iteration's
    /// reverse takes over from the carried adjoint (active, not gated):
    /// no zero is shaped like them.
    taken_exits: HashSet<ValueId>,
}

impl Analysis {
    pub fn active(&self, v: ValueId) -> bool {
        self.varied[v] && self.useful[v]
    }

    pub fn active_operand(&self, o: &Operand) -> Option<ValueId> {
        o.value().filter(|v| self.active(*v))
    }

    /// What a loop saves on its stack and what its reverse recomputes.
    pub fn saves(&self, l: &Loop) -> &LoopSaves {
        &self.saves[&l.id]
    }

    /// The values the reverse sweep of `b` (a branch arm, a loop body or
    /// the function's body) reads, including those it must recompute: the
    /// closure over the block's own definitions.
    pub fn needs(&self, b: &Block) -> &HashSet<ValueId> {
        &self.needs[&b.id]
    }
}

pub fn analyze(cx: &Ctxt, f: &Function, differentiable: &[bool]) -> Analysis {
    // A closure's element is its one differentiable argument.
    let mut closures = MapClosures(Vec::new());
    closures.visit_block(&f.body);
    let closures = closures
        .0
        .into_iter()
        .map(|(v, c)| (v, analyze(cx, c, &vec![true; c.params.len()])))
        .collect();
    let n = f.values.len();
    let varied_and_useful = |silent: &HashSet<ValueId>| {
        let mut varied = ValueMap::filled(n, false);
        for (p, d) in f.params.iter().zip(differentiable) {
            varied[*p] = *d;
        }
        while varied_pass(f, &f.body, &mut varied, silent) {}
        let mut useful = ValueMap::filled(n, false);
        for r in f.outputs() {
            useful[r] = true;
        }
        while useful_pass(f, &f.body, &varied, &mut useful) {}
        (varied, useful)
    };
    let (mut varied, mut useful) = varied_and_useful(&HashSet::new());

    let mut reported = HashSet::new();
    let mut conditional_errors = TokenStream::new();
    // A plain function's tuple taken apart (`let (i, w) = cell_of(x);`) is
    // read by primal code, which no derivative reaches: where its
    // arguments vary, the error is the call's (not the primal code's).
    let mut primal_reads = PrimalReads(f, HashSet::new());
    primal_reads.visit_block(&f.body);
    let mut unannotated_reported = HashSet::new();
    for call in &f.unannotated_calls {
        let v = call.value;
        if !(varied[v] && (useful[v] || primal_reads.1.contains(&v))) {
            continue;
        }
        unannotated_reported.insert(v);
        let (cfgs, message) = (&call.cfgs, &call.message);
        if cfgs.is_empty() {
            if reported.insert(&call.written) {
                cx.error_spanned_by(&call.path, message);
            }
        } else {
            // In code that may be compiled out: the error where it is
            // compiled in, which rustc decides.
            let span = syn::spanned::Spanned::span(&call.path);
            conditional_errors.extend(quote::quote_spanned! {span=>
                #[cfg(all(#(#cfgs),*))]
                ::core::compile_error!(#message);
            });
        }
    }

    // A plain function's result no derivative needs (an index, a count, a
    // permutation) varies with its arguments only in value: without
    // derivative code it has no tangent either, and nothing after it
    // carries one through it.
    let silent: HashSet<ValueId> = f
        .unannotated_calls
        .iter()
        .map(|c| c.value)
        .filter(|v| varied[*v] && !unannotated_reported.contains(v))
        .collect();
    if !silent.is_empty() {
        (varied, useful) = varied_and_useful(&silent);
    }

    DroppedDerivatives {
        cx,
        f,
        varied: &varied,
        unannotated: &unannotated_reported,
    }
    .visit_block(&f.body);

    let mut an = Analysis {
        varied,
        useful,
        uses: ValueMap::filled(n, 0),
        predeclare: ValueMap::filled(n, false),
        gated: ValueMap::filled(n, false),
        zero_at_read: HashSet::new(),
        defined_in: HashMap::new(),
        saves: HashMap::new(),
        needs: HashMap::new(),
        fused: HashMap::new(),
        kept_in_arms: HashSet::new(),
        carried_arrays: HashMap::new(),
        resized: resized_arrays(f),
        lengths: HashMap::new(),
        conditional_errors,
        boxes_arrays: boxes_large_arrays(f),
        closures,
        taped: tape_candidates(f, &f.body),
        taken_exits: HashSet::new(),
    };
    CarriedArrays(&mut an.carried_arrays, f, &an.resized).visit_block(&f.body);
    for (v, info) in f.values.iter() {
        an.defined_in.entry(info.block).or_default().push(v);
    }
    let mut uses = Uses {
        f,
        an: &an,
        sites: Vec::new(),
        users: Vec::new(),
        element_reads: HashMap::new(),
        incoming: HashSet::new(),
        may_not_arrive: HashSet::new(),
    };
    uses.visit_block(&f.body);
    let (mut sites, mut users, element_reads, mut incoming, may_not_arrive) = (
        uses.sites,
        uses.users,
        uses.element_reads,
        uses.incoming,
        uses.may_not_arrive,
    );
    for r in f.outputs().filter(|r| an.active(*r)) {
        incoming.insert(sites.len());
        sites.push((r, f.body.id, false));
        users.push(User::Seed);
    }
    for &(v, site, through_call) in &sites {
        an.uses[v] += 1;
        if through_call || f.info(v).block != site {
            an.predeclare[v] = true;
        }
    }
    an.gated = gated(f, &an, &sites, &users, &may_not_arrive);
    for (&(v, _, _), user) in sites.iter().zip(&users) {
        // A gated value's reverse is a block of its own: what it adds into
        // must exist before it.
        if an.gated[v] || matches!(user, User::Value(d) if an.gated[*d]) {
            an.predeclare[v] = true;
        }
    }
    an.zero_at_read = zero_at_read(f, &an, &sites, &element_reads, &incoming);
    an.taken_exits = taken_exits(f, &an);
    array_lengths(&f.body, &mut an.lengths);
    Planner { f, an: &mut an }.visit_block(&f.body);
    an.kept_in_arms = kept_in_arms(f, &an);
    let body_needs = needs_stopping(f, &an, &f.body, &HashSet::new());
    an.needs.insert(f.body.id, body_needs);
    an.fused = fusion::fused_loops(f, &an);
    an
}

struct CarriedArrays<'a, 'f>(
    &'a mut HashMap<ValueId, (LoopId, String)>,
    &'f Function,
    &'a HashMap<ValueId, ValueId>,
);

impl<'f> Visitor<'f> for CarriedArrays<'_, 'f> {
    fn visit_stmt(&mut self, _: &'f Block, stmt: &'f Stmt) {
        if let Stmt::Loop(l) = stmt {
            for c in &l.carried {
                if self.1.info(c.entry).kind == Kind::Array && !self.2.contains_key(&c.entry) {
                    self.0.insert(c.entry, (l.id, c.name.clone()));
                }
            }
        }
        walk_stmt(self, stmt);
    }
}

#[cfg(test)]
thread_local! {
    /// How many times `needs_stopping` has walked a block on this thread:
    /// the count that stays linear in the number of blocks.
    pub static BLOCK_WALKS: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Fills the tables of loop saves and block needs for everything nested in
/// a block, inner blocks first, so each computation reads its inner loops'
/// and arms' results from the tables: every block is walked a bounded
/// number of times.
struct Planner<'a, 'f> {
    f: &'f Function,
    an: &'a mut Analysis,
}

impl<'f> Visitor<'f> for Planner<'_, 'f> {
    fn visit_stmt(&mut self, _: &'f Block, stmt: &'f Stmt) {
        walk_stmt(self, stmt);
        let (f, an) = (self.f, &mut *self.an);
        match stmt {
            Stmt::Let { .. } => {}
            Stmt::If(i) => {
                for arm in [&i.then_blk, &i.else_blk] {
                    let need = needs_stopping(f, an, arm, &HashSet::new());
                    an.needs.insert(arm.id, need);
                }
            }
            Stmt::Loop(l) => {
                let saves = plan_loop(f, an, l);
                let untape = an.taped.contains(&l.id) && !scalar_tape(f, &saves);
                an.saves.insert(l.id, saves);
                // A tape of anything but scalars (an array an iteration)
                // would hold far more than the run it replaces: the loop
                // runs again in its enclosing loop's reverse instead, and
                // so do the loops below it.
                if untape {
                    an.taped.remove(&l.id);
                    untape_below(f, an, l);
                }
            }
        }
    }
}

/// See [`Analysis::taken_exits`] (`emit::reverse`'s `reverse_block`
/// takes the carried adjoint over for them).
fn taken_exits(f: &Function, an: &Analysis) -> HashSet<ValueId> {
    struct Exits<'a>(&'a Function, &'a Analysis, HashSet<ValueId>);
    impl<'f> Visitor<'f> for Exits<'_> {
        fn visit_stmt(&mut self, _: &'f Block, stmt: &'f Stmt) {
            if let Stmt::Loop(l) = stmt {
                let (f, an) = (self.0, self.1);
                self.2.extend(
                    l.carried
                        .iter()
                        .filter(|c| {
                            // No flag says whether the carried adjoint
                            // arrived (`emit::reverse`'s `carried_reached`).
                            let flagged = |v: ValueId| an.active(v) && an.gated[v];
                            f.info(c.exit).kind == Kind::Array
                                && an.active(c.exit)
                                && !(carry_gated(an, c) && (flagged(c.exit) || flagged(c.init)))
                        })
                        .map(|c| c.exit),
                );
            }
            walk_stmt(self, stmt);
        }
    }
    let mut exits = Exits(f, an, HashSet::new());
    exits.visit_block(&f.body);
    exits.2
}

/// The needs of a loop's body and what the loop saves, from one walk.
fn plan_loop(f: &Function, an: &mut Analysis, l: &Loop) -> LoopSaves {
    let walk = loop_walk(f, an, l);
    // The arms' reverse reads the elements from the stack: their needs
    // stop there, so the arrays they index are not saved.
    if !walk.in_arms.is_empty() {
        restop_arms(f, an, &l.body, &walk.in_arms.iter().copied().collect());
    }
    let need = needs_stopping(f, an, &l.body, &HashSet::new());
    an.needs.insert(l.body.id, need);
    loop_saves(f, an, l, walk)
}

/// The loops that may be taped: a `for` loop at the top level of another
/// loop's body, neither of them nor any loop around them checkpointed
/// (a `#[checkpoint]` loop re-runs its body from snapshots, and bounds
/// the memory of everything in it).
///
/// A taped loop's records (its stack and cache) are made whenever its
/// enclosing loop records, by that recording run, and the enclosing
/// loop's reverse pops them, last iteration first, without running the
/// taped loop again: the nest's forward sweep records once for the whole
/// nest, as Tapenade's "to be recorded" values, instead of each level's
/// reverse re-running the level below from its saved entry state (each
/// level multiplying the work of the one below). A taped loop keeps the
/// elements it reads of arrays from outside itself (one float each, see
/// `loop_walk`), so the enclosing loop need not rebuild those arrays.
///
/// Only where running the loop again repeats expensive work (see
/// [`worth_taping`]): a loop of cheap arithmetic is cheaper to run again
/// than its tape is to write and read back.
///
/// The bound on memory: a loop stays taped only if what it stacks per
/// iteration is scalars (`scalar_tape`), so the nest's tape holds a fixed
/// number of words per innermost iteration, as the stack of one loop of
/// the nest's whole trip count would; its cached values share one
/// `Cache` budget across the nest. A loop that would stack an array per
/// iteration runs again in the enclosing reverse, as before.
fn tape_candidates(f: &Function, body: &Block) -> HashSet<LoopId> {
    /// `records`: whether the loop whose body `b` is records in the
    /// forward sweep's run or in a taped run.
    fn walk(f: &Function, b: &Block, records: bool, out: &mut HashSet<LoopId>) {
        for stmt in &b.stmts {
            let Stmt::Loop(l) = stmt else {
                // A loop in an arm runs (and records) with its arm.
                continue;
            };
            if l.checkpoint.is_some() {
                continue;
            }
            let taped =
                records && matches!(l.header, LoopHeader::Range { .. }) && worth_taping(f, b, l);
            if taped {
                out.insert(l.id);
            }
            walk(f, &l.body, taped, out);
        }
    }
    let mut out = HashSet::new();
    for stmt in &body.stmts {
        // A loop of the function's body records in the forward sweep.
        if let Stmt::Loop(l) = stmt
            && l.checkpoint.is_none()
        {
            walk(f, &l.body, true, &mut out);
        }
    }
    out
}

/// Whether running loop `l` (of block `b`) again would repeat expensive
/// work: an expensive operation or a call in it, or a read of an array
/// another loop of `b` leaves behind that does such work (which the run
/// would need rebuilt). A loop of cheap arithmetic runs again in its
/// enclosing loop's reverse, which costs less than the memory its tape
/// would take (GMM's loops over a point's coordinates).
fn worth_taping(f: &Function, b: &Block, l: &Loop) -> bool {
    fn expensive(b: &Block) -> bool {
        b.stmts.iter().any(|s| match s {
            Stmt::Loop(l) => expensive(&l.body),
            Stmt::If(i) => expensive(&i.then_blk) || expensive(&i.else_blk),
            Stmt::Let { op, .. } => match op {
                Op::Rule { rule, .. } => rule.expensive,
                Op::Call { .. } => true,
                _ => false,
            },
        })
    }
    if expensive(&l.body) {
        return true;
    }
    let mut reads = HashSet::new();
    l.body.for_each_read(&mut |v| {
        if f.info(*v).kind == Kind::Array {
            reads.insert(*v);
        }
    });
    b.stmts.iter().any(|s| match s {
        Stmt::Loop(other) => {
            other.id != l.id
                && expensive(&other.body)
                && other.carried.iter().any(|c| reads.contains(&c.after))
        }
        _ => false,
    })
}

/// Takes the loops below `l` off the tape (`l` is not taped, so nothing
/// would record them) and plans them, and `l`, again.
fn untape_below(f: &Function, an: &mut Analysis, l: &Loop) {
    for stmt in &l.body.stmts {
        if let Stmt::Loop(inner) = stmt
            && an.taped.remove(&inner.id)
        {
            untape_below(f, an, inner);
        }
    }
    restop_arms(f, an, &l.body, &HashSet::new());
    let saves = plan_loop(f, an, l);
    an.saves.insert(l.id, saves);
}

/// The elements read in arms that each loop keeps (see
/// [`Analysis::kept_in_arms`]), from the final plans.
fn kept_in_arms(f: &Function, an: &Analysis) -> HashSet<ValueId> {
    struct Kept<'a>(&'a Function, &'a Analysis, HashSet<ValueId>);
    impl<'f> Visitor<'f> for Kept<'_> {
        fn visit_stmt(&mut self, _: &'f Block, stmt: &'f Stmt) {
            if let Stmt::Loop(l) = stmt {
                let (f, body) = (self.0, l.body.id);
                let kept = self.1.saves(l).kept.iter();
                self.2.extend(kept.filter(|v| f.info(**v).block != body));
            }
            walk_stmt(self, stmt);
        }
    }
    let mut kept = Kept(f, an, HashSet::new());
    kept.visit_block(&f.body);
    kept.2
}

/// Whether everything a loop stacks per iteration is a scalar, and it
/// needs no buffer of an array's length (see [`tape_candidates`]).
fn scalar_tape(f: &Function, saves: &LoopSaves) -> bool {
    saves.overwritten.is_empty()
        && saves
            .entries
            .iter()
            .chain(&saves.kept)
            .all(|v| matches!(f.info(*v).kind, Kind::Float | Kind::Int | Kind::Bool))
}

fn set(flags: &mut ValueMap<bool>, v: ValueId) -> bool {
    let slot = &mut flags[v];
    let changed = !*slot;
    *slot = true;
    changed
}

fn is(flags: &ValueMap<bool>, o: &Operand) -> bool {
    o.value().is_some_and(|v| flags[v])
}

fn varied_pass(
    f: &Function,
    b: &Block,
    varied: &mut ValueMap<bool>,
    silent: &HashSet<ValueId>,
) -> bool {
    let mut changed = false;
    for stmt in &b.stmts {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                if !f.info(*dst).kind.is_differentiable() {
                    continue;
                }
                let v = match op {
                    Op::Copy(a) => is(varied, a),
                    // A piecewise-constant result is a constant: no path
                    // runs through it (see `Rule::constant_valued`).
                    Op::Rule { rule, .. } if rule.constant_valued => false,
                    Op::Rule { rule, args, .. } => args
                        .iter()
                        .zip(rule.diff())
                        .any(|(a, d)| d && is(varied, a)),
                    Op::Index { slice, .. } => varied[*slice],
                    Op::Map { recv, inputs, .. } => {
                        varied[*recv] || inputs.iter().any(|(_, v)| varied[*v])
                    }
                    Op::Call { args, .. } => args.iter().any(|a| is(varied, &a.operand)),
                    Op::Pack { elems, .. } => elems.iter().any(|e| is(varied, e)),
                    Op::Fill { elem, .. } => is(varied, elem),
                    Op::Store { array, elem, .. } | Op::Push { array, elem } => {
                        varied[*array] || is(varied, elem)
                    }
                    Op::Len { .. }
                    | Op::StopGradient { .. }
                    | Op::Cast { .. }
                    | Op::Primal { .. }
                    | Op::Literal { .. }
                    | Op::Absent
                    | Op::Missing => false,
                };
                if v && !silent.contains(dst) {
                    changed |= set(varied, *dst);
                }
            }
            Stmt::If(i) => {
                changed |= varied_pass(f, &i.then_blk, varied, silent);
                changed |= varied_pass(f, &i.else_blk, varied, silent);
                for p in &i.phis {
                    if varied[p.then_src] || varied[p.else_src] {
                        changed |= set(varied, p.dst);
                    }
                }
            }
            Stmt::Loop(l) => {
                for c in &l.carried {
                    if varied[c.init] || varied[c.exit] {
                        changed |= set(varied, c.entry);
                        changed |= set(varied, c.after);
                    }
                }
                if let LoopHeader::While { cond_blk, .. } = &l.header {
                    changed |= varied_pass(f, cond_blk, varied, silent);
                }
                changed |= varied_pass(f, &l.body, varied, silent);
            }
        }
    }
    changed
}

fn useful_pass(
    f: &Function,
    b: &Block,
    varied: &ValueMap<bool>,
    useful: &mut ValueMap<bool>,
) -> bool {
    let mut changed = false;
    for stmt in b.stmts.iter().rev() {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                if !(useful[*dst] && varied[*dst]) {
                    continue;
                }
                let mut mark = |o: &Operand| {
                    if let Some(v) = o.value() {
                        changed |= set(useful, v);
                    }
                };
                match op {
                    Op::Copy(a) => mark(a),
                    Op::Rule { rule, args, .. } => args
                        .iter()
                        .zip(rule.diff())
                        .filter(|(_, d)| *d)
                        .for_each(|(a, _)| mark(a)),
                    Op::Index { slice, .. } => mark(&Operand::Value(*slice)),
                    Op::Map { recv, inputs, .. } => {
                        mark(&Operand::Value(*recv));
                        inputs.iter().for_each(|(_, v)| mark(&Operand::Value(*v)));
                    }
                    Op::Call { args, .. } => args.iter().for_each(|a| mark(&a.operand)),
                    Op::Pack { elems, .. } => elems.iter().for_each(mark),
                    Op::Fill { elem, .. } => mark(elem),
                    Op::Store { array, elem, .. } | Op::Push { array, elem } => {
                        mark(&Operand::Value(*array));
                        mark(elem);
                    }
                    _ => {}
                }
            }
            Stmt::If(i) => {
                for p in &i.phis {
                    if useful[p.dst] {
                        changed |= set(useful, p.then_src);
                        changed |= set(useful, p.else_src);
                    }
                }
                changed |= useful_pass(f, &i.then_blk, varied, useful);
                changed |= useful_pass(f, &i.else_blk, varied, useful);
            }
            Stmt::Loop(l) => {
                for c in &l.carried {
                    if useful[c.after] || useful[c.entry] {
                        changed |= set(useful, c.exit);
                        changed |= set(useful, c.init);
                    }
                }
                changed |= useful_pass(f, &l.body, varied, useful);
            }
        }
    }
    let _ = f;
    changed
}

/// The `map` closures' functions, with the values their `map`s define.
struct MapClosures<'a>(Vec<(ValueId, &'a Function)>);

impl<'a> Visitor<'a> for MapClosures<'a> {
    fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
        match stmt {
            Stmt::Let {
                dst,
                op: Op::Map { closure, .. },
                ..
            } => self.0.push((*dst, closure)),
            stmt => walk_stmt(self, stmt),
        }
    }
}

/// Primal-only code that computes a float from a differentiable value
/// (`x as f64`, `params.apply(x)`) would silently drop its derivative.
struct DroppedDerivatives<'a> {
    cx: &'a Ctxt,
    f: &'a Function,
    varied: &'a ValueMap<bool>,
    /// Calls of plain functions already reported: what reads them says
    /// nothing more.
    unannotated: &'a HashSet<ValueId>,
}

/// The values read by primal code that computes neither an integer nor a
/// `bool` (`Op::Primal`'s bindings): where one varies, its derivative
/// would be dropped, which [`DroppedDerivatives`] rejects.
struct PrimalReads<'a>(&'a Function, HashSet<ValueId>);

impl<'a> Visitor<'a> for PrimalReads<'_> {
    fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
        if let Stmt::Let {
            dst,
            op: Op::Primal { bindings, .. },
            ..
        } = stmt
            && !matches!(self.0.info(*dst).kind, Kind::Bool | Kind::Int)
        {
            self.1.extend(bindings.iter().map(|(_, v)| *v));
        }
        walk_stmt(self, stmt);
    }
}

impl<'a> Visitor<'a> for DroppedDerivatives<'_> {
    fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
        let (cx, varied) = (self.cx, self.varied);
        match stmt {
            Stmt::Let {
                dst,
                op: Op::Primal { expr, bindings },
                ..
            } if !matches!(self.f.info(*dst).kind, Kind::Bool | Kind::Int)
                && bindings.iter().any(|(_, v)| varied[*v])
                && !bindings.iter().any(|(_, v)| self.unannotated.contains(v)) =>
            {
                cx.error_spanned_by(
                    expr,
                    "this is not differentiated, but it reads a differentiable value; a method or field of a `#[constant]` argument may take only constants (wrap a value in `autograd::stop_gradient(..)` if no gradient should flow)",
                );
            }
            Stmt::Let {
                op: Op::Cast { arg, ty, written },
                ..
            } if is(varied, arg) => {
                let ty = crate::ctxt::type_text(ty);
                let message = if ty == "f64" || ty == "f32" {
                    format!(
                        "`as {ty}` of a differentiable value is not supported: `as` casts are for integers; keep one float type in the function"
                    )
                } else {
                    format!(
                        "`as {ty}` of a differentiable value has no derivative; wrap it in `autograd::stop_gradient(..)` to say the gradient stops here"
                    )
                };
                cx.error_spanned_by(written, message);
            }
            Stmt::Let {
                op: Op::Map { captures, .. },
                ..
            } => {
                for (ident, _) in captures.iter().filter(|(_, v)| varied[*v]) {
                    cx.error_spanned_by(
                        ident,
                        format!(
                            "the closure of `map` reads `{ident}`, which depends on a differentiable argument and is not a float: its derivative through the closure would be lost; bind the float the closure needs first (`let w0 = w[0];`, then `m.map(|v| v.sin() * w0)`: a float the closure reads gets its derivative), or bind `let c = autograd::stop_gradient(..);` before the closure and read `c` if no gradient should flow through it"
                        ),
                    );
                }
            }
            stmt => walk_stmt(self, stmt),
        }
    }
}

/// Where the reverse sweep adds into each active value's adjoint: the
/// value, the block the contribution is made in, and whether it comes
/// through a callee's pullback.
/// Whose reverse makes a contribution: a value's (its operation, or a φ
/// handing its adjoint to a source), a loop's carried adjoint (into the
/// exit value each iteration, into the initial value after the loop), or
/// the seed.
#[derive(Clone, Copy)]
enum User {
    Value(ValueId),
    Carried { entry: ValueId, after: ValueId },
    Seed,
}

/// The adjoints some run may leave without a contribution. A value is
/// always reached if the reverse of its own block always contributes to
/// it: a contribution at that block's top level by a user that is itself
/// always reached (not through a call's pullback, which says at run time
/// whether it reached the argument, nor as an operand of `max`, `min` or
/// `clamp`, which may pick another), or one in both arms of a branch
/// there (a loop body may run zero times). A carried adjoint is always reached if the value after
/// the loop and the value at the start of an iteration are. The greatest
/// such set, found by removing values until none changes.
fn gated(
    f: &Function,
    an: &Analysis,
    sites: &[(ValueId, BlockId, bool)],
    users: &[User],
    may_not_arrive: &HashSet<usize>,
) -> ValueMap<bool> {
    let n = f.values.len();
    // Scalars and call results only: a collection's zero is shaped like
    // its value, which the reverse sweep would then have to keep. A scalar
    // argument's flag is the pullback's answer to its caller.
    let flaggable = |v: ValueId| {
        let info = f.info(v);
        an.active(v)
            && match info.param {
                None => matches!(info.kind, Kind::Float | Kind::Unknown),
                Some(_) => info.kind == Kind::Float,
            }
    };
    let mut by_block: HashMap<BlockId, Vec<usize>> = HashMap::new();
    for (k, &(_, b, _)) in sites.iter().enumerate() {
        by_block.entry(b).or_default().push(k);
    }
    let mut sure = ValueMap::filled(n, true);
    loop {
        let user_sure = |u: User| match u {
            User::Seed => true,
            User::Value(d) => sure[d],
            User::Carried { entry, after } => {
                an.active(entry) && an.active(after) && sure[entry] && sure[after]
            }
        };
        let mut reached: HashMap<BlockId, HashSet<ValueId>> = HashMap::new();
        let sure_site = |k: usize| !may_not_arrive.contains(&k) && user_sure(users[k]);
        surely_reached(&f.body, &by_block, sites, &sure_site, &mut reached);
        let mut changed = false;
        for (v, info) in f.values.iter() {
            if flaggable(v) && sure[v] && !reached.get(&info.block).is_some_and(|s| s.contains(&v))
            {
                sure[v] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut gated = ValueMap::filled(n, false);
    for (v, _) in f.values.iter() {
        gated[v] = flaggable(v) && !sure[v];
    }
    gated
}

/// The values the reverse of block `b` always contributes to, for `b` and
/// every block nested in it (into `out`); see [`gated`].
fn surely_reached(
    b: &Block,
    by_block: &HashMap<BlockId, Vec<usize>>,
    sites: &[(ValueId, BlockId, bool)],
    sure_site: &dyn Fn(usize) -> bool,
    out: &mut HashMap<BlockId, HashSet<ValueId>>,
) -> HashSet<ValueId> {
    let mut here: HashSet<ValueId> = by_block
        .get(&b.id)
        .into_iter()
        .flatten()
        .filter(|&&k| sure_site(k))
        .map(|&k| sites[k].0)
        .collect();
    for stmt in &b.stmts {
        match stmt {
            Stmt::Let { .. } => {}
            Stmt::If(i) => {
                let then = surely_reached(&i.then_blk, by_block, sites, sure_site, out);
                let other = surely_reached(&i.else_blk, by_block, sites, sure_site, out);
                here.extend(then.intersection(&other));
            }
            Stmt::Loop(l) => {
                if let LoopHeader::While { cond_blk, .. } = &l.header {
                    surely_reached(cond_blk, by_block, sites, sure_site, out);
                }
                surely_reached(&l.body, by_block, sites, sure_site, out);
            }
        }
    }
    out.insert(b.id, here.clone());
    here
}

/// Whether a run of the pullback may leave the adjoint of the scalar
/// argument `v` (differentiable) without any contribution: it is not read
/// for the result, or it is gated. The pullback then says whether it
/// reached it, and a caller adds nothing through an argument it did not.
pub fn unreached_argument(f: &Function, an: &Analysis, v: ValueId) -> bool {
    f.info(v).kind == Kind::Float && (!an.active(v) || an.gated[v])
}

/// Whether a loop's carried adjoint may hold nothing that arrived: its
/// value after the loop or at the start of an iteration is gated (or
/// receives nothing).
pub fn carry_gated(an: &Analysis, c: &Carried) -> bool {
    let sure = |v: ValueId| an.active(v) && !an.gated[v];
    !(sure(c.entry) && sure(c.after))
}

struct Uses<'a> {
    f: &'a Function,
    an: &'a Analysis,
    sites: Vec<(ValueId, BlockId, bool)>,
    /// Whose reverse makes each site's contribution.
    users: Vec<User>,
    /// The sites that are reads of an array's element, with the read.
    element_reads: HashMap<usize, ValueId>,
    /// The sites whose contribution the reverse sweep of their block makes
    /// first: a φ's sources, a loop's exit values.
    incoming: HashSet<usize>,
    /// The sites whose contribution a run may not make: a call's
    /// arguments (the callee's pullback may not reach them) and the
    /// operands of a selecting rule (`max`, `min`, `clamp`: the operand
    /// not picked is not on the run's path; see `Rule::selects`).
    may_not_arrive: HashSet<usize>,
}

/// The reads `a[i]` of arrays whose reverse is the first contribution into
/// the array's adjoint: the last use of `a` in the block defining it is a
/// read (nothing after it hands back a whole adjoint), and `a`'s adjoint is
/// not created up front. There the reverse creates it as a zero shaped like
/// `a`, and so reads `a`.
fn zero_at_read(
    f: &Function,
    an: &Analysis,
    sites: &[(ValueId, BlockId, bool)],
    element_reads: &HashMap<usize, ValueId>,
    incoming: &HashSet<usize>,
) -> HashSet<ValueId> {
    let mut last: HashMap<ValueId, Option<ValueId>> = HashMap::new();
    let mut whole_first = HashSet::new();
    for (k, &(v, site, _)) in sites.iter().enumerate() {
        if f.info(v).kind != Kind::Array || f.info(v).block != site {
            continue;
        }
        if incoming.contains(&k) {
            whole_first.insert(v);
        }
        last.insert(v, element_reads.get(&k).copied());
    }
    last.into_iter()
        .filter(|(v, _)| !whole_first.contains(v) && !an.predeclare[*v])
        .filter_map(|(_, read)| read)
        .collect()
}

impl<'a> Visitor<'a> for Uses<'_> {
    fn visit_stmt(&mut self, b: &'a Block, stmt: &'a Stmt) {
        let (f, an, sites) = (self.f, self.an, &mut self.sites);
        match stmt {
            Stmt::Let { dst, op, .. } => {
                if !an.active(*dst) {
                    return;
                }
                match op {
                    Op::Copy(a) => sites.extend(an.active_operand(a).map(|v| (v, b.id, false))),
                    Op::Rule { rule, args, .. } => {
                        for (a, d) in args.iter().zip(rule.diff()) {
                            if d && let Some(v) = an.active_operand(a) {
                                if rule.selects {
                                    self.may_not_arrive.insert(sites.len());
                                }
                                sites.push((v, b.id, false));
                            }
                        }
                    }
                    Op::Map { recv, inputs, .. } => {
                        let inputs = inputs.iter().map(|(_, v)| *v);
                        for v in std::iter::once(*recv).chain(inputs) {
                            if an.active(v) {
                                sites.push((v, b.id, false));
                            }
                        }
                    }
                    Op::Call { args, .. } => {
                        for a in args {
                            if let Some(v) = an.active_operand(&a.operand) {
                                self.may_not_arrive.insert(sites.len());
                                sites.push((v, b.id, true));
                            }
                        }
                    }
                    // A nalgebra value read by index has its adjoint
                    // written by index: it must exist, zero, from the
                    // start of its block's reverse, as a callee's does.
                    Op::Index { slice, .. }
                        if an.active(*slice) && f.info(*slice).kind == Kind::Matrix =>
                    {
                        sites.push((*slice, b.id, true));
                    }
                    // An array's adjoint is indexed where it is read; a
                    // slice argument's is created up front.
                    Op::Index { slice, .. }
                        if f.info(*slice).kind == Kind::Array && an.active(*slice) =>
                    {
                        self.element_reads.insert(sites.len(), *dst);
                        sites.push((*slice, b.id, false));
                    }
                    Op::Pack { .. } | Op::Fill { .. } | Op::Store { .. } | Op::Push { .. } => {
                        for v in op.reads() {
                            if an.active(v) {
                                sites.push((v, b.id, false));
                            }
                        }
                    }
                    _ => {}
                }
                let users = &mut self.users;
                users.resize(sites.len(), User::Value(*dst));
            }
            Stmt::If(i) => {
                for p in &i.phis {
                    if an.active(p.dst) {
                        if an.active(p.then_src) {
                            self.incoming.insert(sites.len());
                            sites.push((p.then_src, i.then_blk.id, false));
                        }
                        if an.active(p.else_src) {
                            self.incoming.insert(sites.len());
                            sites.push((p.else_src, i.else_blk.id, false));
                        }
                    }
                    self.users.resize(sites.len(), User::Value(p.dst));
                }
                walk_stmt(self, stmt);
            }
            Stmt::Loop(l) => {
                for c in &l.carried {
                    if carry_active(an, c) {
                        if an.active(c.init) {
                            sites.push((c.init, b.id, false));
                        }
                        if an.active(c.exit) {
                            self.incoming.insert(sites.len());
                            sites.push((c.exit, l.body.id, false));
                        }
                    }
                    let (entry, after) = (c.entry, c.after);
                    self.users
                        .resize(sites.len(), User::Carried { entry, after });
                }
                // A `while` condition computes no adjoint.
                self.visit_block(&l.body);
            }
        }
    }
}

/// Whether an adjoint flows around the loop for this variable.
pub fn carry_active(an: &Analysis, c: &Carried) -> bool {
    an.active(c.entry) || an.active(c.after)
}

/// Whether the statement has reverse code.
pub fn has_work(an: &Analysis, stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Let { dst, .. } => an.active(*dst),
        Stmt::If(i) => {
            i.phis.iter().any(|p| an.active(p.dst))
                || block_has_work(an, &i.then_blk)
                || block_has_work(an, &i.else_blk)
        }
        Stmt::Loop(l) => {
            l.carried.iter().any(|c| carry_active(an, c)) || block_has_work(an, &l.body)
        }
    }
}

pub fn block_has_work(an: &Analysis, b: &Block) -> bool {
    b.stmts.iter().any(|s| has_work(an, s))
}

/// Whether a rule is emitted in its scalar form: it has one, and every
/// operand is a plain `f32`/`f64` (or an integer where no adjoint goes).
pub fn scalar_form(f: &Function, rule: &Rule, args: &[Operand]) -> bool {
    rule.has_scalar_form()
        && args.iter().zip(rule.diff()).all(|(a, d)| match a.value() {
            None => true,
            Some(v) => {
                let k = f.info(v).kind;
                k == Kind::Float || (!d && k == Kind::Int)
            }
        })
}

/// A call that borrows one of the function's own locals or by-value
/// parameters (`g(&h)`): its pullback would keep that borrow while the
/// value moves into the caller's pullback, so the call is made in the
/// reverse sweep instead, where the value is owned. So is every call of a
/// function whose pullback is reused (see `Function::reusable_pullback`).
pub fn deferred_call(f: &Function, args: &[CallArg]) -> bool {
    f.reusable_pullback || borrows_own_value(f, args)
}

/// Whether a call borrows one of the function's own locals or by-value
/// parameters (see `deferred_call`).
fn borrows_own_value(f: &Function, args: &[CallArg]) -> bool {
    args.iter().any(|a| {
        a.by_ref
            && a.operand.value().is_some_and(|v| {
                let info = f.info(v);
                info.param.is_none() || !(info.by_ref || info.kind.is_copy())
            })
    })
}

/// A deferred call, at the top level of a function whose pullback is
/// reused, that borrows nothing of the function's own: the forward sweep
/// makes it through the callee's VJP and keeps the callee's pullback where
/// that is `Clone` (a callee with a reusable pullback), so that each reverse
/// sweep does not make the call again; where it is not, the reverse sweep
/// makes the call as for any deferred call
/// (`autograd::__private::KeepPullback`).
pub fn kept_call(f: &Function, dst: ValueId, args: &[CallArg]) -> bool {
    f.reusable_pullback && f.info(dst).block == f.body.id && !borrows_own_value(f, args)
}

/// The primal values the reverse code of one operation reads.
pub fn backward_reads(f: &Function, an: &Analysis, dst: ValueId, op: &Op) -> Vec<ValueId> {
    let mut out = Vec::new();
    match op {
        Op::Rule { rule, args, syntax } if !scalar_form(f, rule, args) => {
            // The dispatched form reads what the table says it takes.
            let map = matches!(syntax, Syntax::Map(_));
            let differentiable = args.iter().zip(rule.diff()).filter(|(_, d)| *d);
            for (k, (a, _)) in differentiable.enumerate() {
                if an.active_operand(a).is_none() {
                    continue;
                }
                for r in rule.generic_reads(k, map) {
                    match r {
                        Read::Arg(i) => out.extend(args[i].value()),
                        Read::Out => out.push(dst),
                    }
                }
            }
        }
        Op::Map {
            recv,
            captures,
            inputs,
            ..
        } => {
            out.push(*recv);
            out.extend(captures.iter().chain(inputs).map(|c| c.1));
        }
        Op::Rule { rule, args, .. } => {
            for (a, p) in args.iter().zip(rule.params) {
                if !p.diff || an.active_operand(a).is_none() {
                    continue;
                }
                for r in p.reads {
                    match r {
                        Read::Arg(i) => out.extend(args[*i].value()),
                        Read::Out => out.push(dst),
                    }
                }
            }
        }
        Op::Index { slice, index } => {
            out.extend(index.value());
            // A zero shaped like the array.
            if an.zero_at_read.contains(&dst) {
                out.push(*slice);
            }
        }
        Op::Store { index, .. } => out.extend(index.value()),
        // A deferred call is made again in the reverse sweep, from its
        // arguments; otherwise the pullback comes from the call itself.
        Op::Call { args, .. } => {
            if deferred_call(f, args) {
                out.extend(args.iter().filter_map(|a| a.operand.value()));
            } else {
                out.push(dst);
            }
            // A sub-slice's adjoint goes to its elements of the whole.
            for r in args.iter().filter_map(|a| a.range.as_ref()) {
                out.extend(r.start.value());
                out.extend(r.end.value());
            }
        }
        _ => {}
    }
    out
}

/// Values of block `b` whose adjoints the reverse sweep creates up front
/// as a zero shaped like the value (`zero_like(&v)`), so it reads them:
/// whatever defines them (a `let`, a loop's entry, a φ), they must be at
/// hand when the block's reverse starts.
fn zero_shaped<'a>(
    f: &'a Function,
    an: &'a Analysis,
    b: &Block,
) -> impl Iterator<Item = ValueId> + 'a {
    an.defined_in
        .get(&b.id)
        .into_iter()
        .flatten()
        .copied()
        .filter(move |v| {
            let kind = f.info(*v).kind;
            let predeclared = an.active(*v)
                && an.predeclare[*v]
                && !kind.is_copy()
                && kind != Kind::Slice
                && !an.carried_arrays.contains_key(v)
                && !an.taken_exits.contains(v);
            // The entry of an array whose length the iteration changes,
            // receiving nothing: the adjoint the iteration hands back is a
            // zero of its length.
            let resized_unreached = an
                .resized
                .get(v)
                .is_some_and(|after| an.active(*after) && an.uses[*v] == 0 && !an.predeclare[*v]);
            predeclared || resized_unreached
        })
        // A `Vec` of a known length: a zero of that length (see
        // `emit::reverse`'s `predeclare`), the `Vec` itself not read.
        .map(move |v| match an.lengths.get(&v) {
            Some(len) if f.info(v).kind == Kind::Array && an.predeclare[v] && an.active(v) => *len,
            _ => v,
        })
}

/// Every value a statement reads anywhere inside it.
pub fn all_reads(stmt: &Stmt, out: &mut HashSet<ValueId>) {
    stmt.for_each_deep_read(&mut |v| {
        out.insert(*v);
    });
}

/// What a loop's reverse sweep takes from its stack and cache and what it
/// recomputes.
///
/// Memory per iteration, pushed by the forward sweep and popped by the
/// reverse: the entry values the reverse reads, and the results of inner
/// loops and of expensive operations on them, always (the first cannot be
/// recovered without checkpoints, the others would cost an inner loop
/// each); the results of other expensive operations only while the whole
/// loop's cache fits in `autograd::__private::Cache`'s budget (1 MiB),
/// decided when the loop starts from its trip count. A longer loop
/// recomputes them in its reverse sweep: time rather than memory without
/// bound.
pub struct LoopSaves {
    /// Loop-carried values at iteration entry that the reverse reads (or
    /// that recomputing the cached values reads).
    pub entries: Vec<ValueId>,
    /// Values an inner loop leaves behind, or expensive results computed
    /// from them, kept on the stack so the inner loop is not run again to
    /// recover them.
    pub kept: Vec<ValueId>,
    /// Results of expensive operations, cached while the loop is short.
    pub cached: Vec<ValueId>,
    /// What the reverse body recomputes before its adjoint code.
    pub recompute: HashSet<ValueId>,
    /// What computes the cached values when the cache is off: the cached
    /// values and what they read, but the kept values.
    pub cache_miss: HashSet<ValueId>,
    /// Integer counters the reverse reads at iteration entry, computed
    /// from the index instead of stacked (see [`Induction`]).
    pub inductions: Vec<Induction>,
    /// Carried arrays (entry, initial value) whose every element the body
    /// writes before reading any: the reverse needs a buffer of their
    /// length, not their entry value, and copies the initial value for it.
    pub overwritten: Vec<(ValueId, ValueId)>,
}

/// How a value of the function is defined, for walks back from a use.
enum Def<'f> {
    Op(&'f Op),
    Phi(ValueId, ValueId),
    /// The value after a loop of one of its carried variables.
    After(&'f Carried),
}

fn defs<'f>(b: &'f Block, out: &mut HashMap<ValueId, Def<'f>>) {
    for stmt in &b.stmts {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                out.insert(*dst, Def::Op(op));
            }
            Stmt::If(i) => {
                defs(&i.then_blk, out);
                defs(&i.else_blk, out);
                for p in &i.phis {
                    out.insert(p.dst, Def::Phi(p.then_src, p.else_src));
                }
            }
            Stmt::Loop(l) => {
                if let LoopHeader::While { cond_blk, .. } = &l.header {
                    defs(cond_blk, out);
                }
                defs(&l.body, out);
                for c in &l.carried {
                    out.insert(c.after, Def::After(c));
                }
            }
        }
    }
}

/// The entries of carried arrays whose loop may change their length (see
/// [`Analysis::resized`]): an iteration's exit value is not provably as
/// long as its entry value. Element writes, copies, branches and inner
/// loops that resize nothing keep the length; `push` does not, nor a
/// callee's result, nor a `Vec` built anew (`vec![e; n]`, `vec![a, b]`)
/// unless its length is written as the initial value's is. Any other
/// operation is taken to keep it, and so is any array built as a
/// fixed-size one (`[e; N]`), whose type keeps it.
fn resized_arrays(f: &Function) -> HashMap<ValueId, ValueId> {
    let mut defined = HashMap::new();
    defs(&f.body, &mut defined);
    let mut out = HashMap::new();
    Resized {
        f,
        defs: &defined,
        out: &mut out,
    }
    .visit_block(&f.body);
    out
}

struct Resized<'a, 'f> {
    f: &'f Function,
    defs: &'a HashMap<ValueId, Def<'f>>,
    out: &'a mut HashMap<ValueId, ValueId>,
}

impl<'f> Visitor<'f> for Resized<'_, 'f> {
    fn visit_stmt(&mut self, _: &'f Block, stmt: &'f Stmt) {
        // Inner loops first: an outer loop reads what they resize.
        walk_stmt(self, stmt);
        if let Stmt::Loop(l) = stmt {
            for c in &l.carried {
                if self.f.info(c.entry).kind == Kind::Array
                    && !self.fixed_size(c.init)
                    && !self.keeps_length(c.exit, c)
                {
                    self.out.insert(c.entry, c.after);
                }
            }
        }
    }
}

impl Resized<'_, '_> {
    /// Whether `v`, a value of the iteration of `c`'s loop, is provably as
    /// long as `c`'s entry value.
    fn keeps_length(&self, v: ValueId, c: &Carried) -> bool {
        if v == c.entry {
            return true;
        }
        match self.defs.get(&v) {
            Some(Def::Op(
                Op::Store { array, .. }
                | Op::Copy(Operand::Value(array))
                | Op::Map { recv: array, .. },
            )) => self.keeps_length(*array, c),
            Some(Def::Op(Op::Push { .. })) => false,
            Some(Def::Op(
                op @ (Op::Fill {
                    collection: Collection::Vec,
                    ..
                }
                | Op::Pack {
                    collection: Collection::Vec,
                    ..
                }),
            )) => written_length(op).is_some_and(|n| self.written_length_of(c.init) == Some(n)),
            Some(Def::Phi(a, b)) => self.keeps_length(*a, c) && self.keeps_length(*b, c),
            Some(Def::After(inner)) => {
                !self.out.contains_key(&inner.entry) && self.keeps_length(inner.init, c)
            }
            // A callee's result may have any length.
            Some(Def::Op(Op::Call { .. })) => false,
            _ => true,
        }
    }

    /// Whether `v` is built as a fixed-size array (`[e; N]`, `[a, b]`),
    /// through element writes and copies: its type keeps its length.
    fn fixed_size(&self, v: ValueId) -> bool {
        match self.defs.get(&v) {
            Some(Def::Op(Op::Store { array, .. } | Op::Copy(Operand::Value(array)))) => {
                self.fixed_size(*array)
            }
            Some(Def::Op(
                Op::Fill {
                    collection: Collection::Array,
                    ..
                }
                | Op::Pack {
                    collection: Collection::Array,
                    ..
                },
            )) => true,
            _ => false,
        }
    }

    /// The length a `Vec` was built with, through element writes and copies.
    fn written_length_of(&self, v: ValueId) -> Option<String> {
        match self.defs.get(&v)? {
            Def::Op(Op::Store { array, .. } | Op::Copy(Operand::Value(array))) => {
                self.written_length_of(*array)
            }
            Def::Op(op) => written_length(op),
            _ => None,
        }
    }
}

/// The length of `vec![e; n]` (`n`, a value or as written) or of `vec![a,
/// b]` (its element count).
fn written_length(op: &Op) -> Option<String> {
    match op {
        Op::Fill {
            len: Operand::Value(n),
            ..
        } => Some(format!("value {}", n.index())),
        Op::Fill {
            len: Operand::Const(n),
            ..
        } => Some(n.to_string()),
        Op::Pack { elems, .. } => Some(elems.len().to_string()),
        _ => None,
    }
}

/// The lengths of arrays provable from the program (see
/// [`Analysis::lengths`]), for the values of `b` and what it nests. A
/// carried array keeps its initial value's length when each iteration's
/// exit value has its entry's; branches and anything else give none.
fn array_lengths(b: &Block, lens: &mut HashMap<ValueId, ValueId>) {
    for stmt in &b.stmts {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                let len = match op {
                    Op::Fill {
                        len: Operand::Value(n),
                        ..
                    } => Some(*n),
                    Op::Store { array, .. } | Op::Copy(Operand::Value(array)) => {
                        lens.get(array).copied()
                    }
                    _ => None,
                };
                if let Some(len) = len {
                    lens.insert(*dst, len);
                }
            }
            Stmt::If(_) => {}
            Stmt::Loop(l) => {
                let before = lens.clone();
                let mut assumed: Vec<&Carried> = l
                    .carried
                    .iter()
                    .filter(|c| lens.contains_key(&c.init))
                    .collect();
                // Assume each carried array keeps its length, walk the body,
                // drop those whose exit does not, until none is dropped.
                loop {
                    *lens = before.clone();
                    for c in &assumed {
                        lens.insert(c.entry, before[&c.init]);
                    }
                    array_lengths(&l.body, lens);
                    let n = assumed.len();
                    assumed.retain(|c| lens.get(&c.exit) == Some(&before[&c.init]));
                    if assumed.len() == n {
                        break;
                    }
                }
                for c in assumed {
                    lens.insert(c.after, before[&c.init]);
                }
            }
        }
    }
}

/// How many times `b` (and what it nests) reads `v`.
fn reads_of(b: &Block, v: ValueId) -> usize {
    let mut n = 0;
    b.for_each_read(&mut |r| n += usize::from(*r == v));
    n
}

/// The carried arrays of `l` (entry, initial value) whose entry value is
/// dead: the body reads it once, as the initial value of an inner
/// `for j in 0..n` loop at its top level, `n` the array's length, whose
/// body reads its carried version once, by `a[j] = ..` at its top level
/// producing the iteration's exit value, which nothing else in that body
/// reads. Every element is then written before the array is read again.
/// Or the initial value of an inner loop at the top level whose every
/// iteration overwrites it so, that loop's result unread in the body.
/// Not in a checkpointed loop (which re-runs from snapshots).
fn overwritten(f: &Function, an: &Analysis, l: &Loop) -> Vec<(ValueId, ValueId)> {
    if l.checkpoint.is_some() {
        return Vec::new();
    }
    l.carried
        .iter()
        .filter(|c| f.info(c.entry).kind == Kind::Array && reads_of(&l.body, c.entry) == 1)
        .filter(|c| {
            let Some(len) = an.lengths.get(&c.entry) else {
                return false;
            };
            l.body.stmts.iter().any(|stmt| {
                let Stmt::Loop(inner) = stmt else {
                    return false;
                };
                // An inner loop each of whose iterations overwrites it,
                // its result unread here (after no iteration it would be
                // the entry value).
                let inner_kills = overwritten(f, an, inner);
                if inner.carried.iter().any(|ic| {
                    ic.init == c.entry
                        && inner_kills.iter().any(|(e, _)| *e == ic.entry)
                        && reads_of(&l.body, ic.after) == 0
                }) {
                    return true;
                }
                inner.carried.iter().any(|ic| {
                    ic.init == c.entry
                        && fills(inner, ic, *len)
                        && reads_of(&inner.body, ic.entry) == 1
                        && reads_of(&inner.body, ic.exit) == 0
                })
            })
        })
        .map(|c| (c.entry, c.init))
        .collect()
}

/// Whether a block holds a loop, a call or an expensive operation (at any
/// depth): work worth keeping a result of rather than doing again.
fn costly(b: &Block) -> bool {
    b.stmts.iter().any(|s| match s {
        Stmt::Loop(_) => true,
        Stmt::If(i) => costly(&i.then_blk) || costly(&i.else_blk),
        Stmt::Let { op, .. } => match op {
            Op::Rule { rule, .. } => rule.expensive,
            Op::Call { .. } => true,
            _ => false,
        },
    })
}

/// Whether `l` is `for j in 0..len` (not checkpointed) and its body's top
/// level stores `a[j] = ..` into the carried array `c`, the store's result
/// the iteration's exit value: each iteration writes one element, the
/// loop every element of an array of length `len`.
fn fills(l: &Loop, c: &Carried, len: ValueId) -> bool {
    let LoopHeader::Range {
        index: Some(j),
        start: Operand::Const(start),
        end: Operand::Value(end),
        inclusive: false,
        reversed: false,
    } = &l.header
    else {
        return false;
    };
    start.to_string() == "0"
        && *end == len
        && l.checkpoint.is_none()
        && l.body.stmts.iter().any(|s| {
            matches!(s, Stmt::Let {
                dst,
                op: Op::Store { array, index: Operand::Value(i), .. },
                ..
            } if *dst == c.exit && *array == c.entry && i == j)
        })
}

/// A carried integer that each iteration of a forward `for` loop steps by
/// a literal (`li += 1`): at the entry of iteration `i` it is
/// `init + step * (i - start)`, which the reverse computes from its own
/// index, so the loop stacks nothing for it and need not run again to fill
/// a stack.
pub struct Induction {
    pub entry: ValueId,
    pub init: ValueId,
    pub step: TokenStream,
}

/// The carried integers of `l` each iteration steps by a literal, at the
/// top level of the body (`exit = entry + lit`); only in a forward `for`
/// loop with a named index that is not checkpointed.
fn inductions(f: &Function, l: &Loop) -> Vec<Induction> {
    let LoopHeader::Range {
        index: Some(_),
        reversed: false,
        ..
    } = &l.header
    else {
        return Vec::new();
    };
    if l.checkpoint.is_some() {
        return Vec::new();
    }
    l.carried
        .iter()
        .filter(|c| f.info(c.entry).kind == Kind::Int && f.info(c.init).kind == Kind::Int)
        .filter_map(|c| {
            let step = l.body.stmts.iter().find_map(|stmt| match stmt {
                Stmt::Let {
                    dst,
                    op: Op::Rule { rule, args, .. },
                    ..
                } if *dst == c.exit && matches!(rule.operator, Some(Operator::Add)) => {
                    literal_step(args, c.entry)
                }
                _ => None,
            })?;
            Some(Induction {
                entry: c.entry,
                init: c.init,
                step,
            })
        })
        .collect()
}

/// `lit` if the operands of an addition are `entry` and an integer
/// literal, in either order.
fn literal_step(args: &[Operand], entry: ValueId) -> Option<TokenStream> {
    let [a, b] = args else {
        return None;
    };
    let lit = match (a, b) {
        (Operand::Value(v), Operand::Const(t)) | (Operand::Const(t), Operand::Value(v))
            if *v == entry =>
        {
            t
        }
        _ => return None,
    };
    syn::parse2::<syn::LitInt>(lit.clone())
        .ok()
        .map(|_| lit.clone())
}

impl LoopSaves {
    /// Whether the loop needs a stack.
    pub fn stacked(&self) -> bool {
        !self.entries.is_empty() || !self.kept.is_empty()
    }

    /// Whether the forward sweep records anything for the reverse.
    pub fn any(&self) -> bool {
        self.stacked() || !self.cached.is_empty()
    }
}

/// The stack, cache and recomputation of a loop. Values are kept in any
/// loop, cached only in `for` loops (whose trip count sets the cache's
/// budget once), and only from the top level of the body (computed on
/// every iteration), but for the elements branch arms read of an array the
/// iteration changes (handed out of their branch); the recomputation stops
/// at them, so what only they read is not recomputed either.
fn loop_saves(f: &Function, an: &Analysis, l: &Loop, walk: LoopWalk) -> LoopSaves {
    let LoopWalk {
        keepable,
        cacheable,
        in_arms,
    } = walk;
    let stops: HashSet<ValueId> = keepable.union(&cacheable).copied().collect();
    let mut recompute = needs_stopping(f, an, &l.body, &stops);
    let of_body = |set: &HashSet<ValueId>, recompute: &HashSet<ValueId>| -> Vec<ValueId> {
        an.defined_in
            .get(&l.body.id)
            .into_iter()
            .flatten()
            .copied()
            .filter(|v| set.contains(v) && recompute.contains(v))
            .collect()
    };
    let mut kept = of_body(&keepable, &recompute);
    // An element an arm reads is kept where that arm's reverse reads it.
    kept.extend(
        in_arms
            .iter()
            .copied()
            .filter(|v| an.needs[&f.info(*v).block].contains(v)),
    );
    let cached = of_body(&cacheable, &recompute);
    for v in kept.iter().chain(&cached) {
        recompute.remove(v);
    }
    let mut kept_set: HashSet<ValueId> = kept.iter().copied().collect();
    let mut cache_miss = primal_closure(&l.body, &cached, &kept_set);
    // What recomputing the cached values reads that the loop may keep (an
    // element of an array the iteration changes): kept too, one float each,
    // where the cache-off path would otherwise need the whole array at
    // every iteration's entry.
    let reached: Vec<ValueId> = of_body(&keepable, &cache_miss)
        .into_iter()
        .filter(|v| !kept_set.contains(v) && !cached.contains(v))
        .collect();
    if !reached.is_empty() {
        kept.extend(&reached);
        kept_set.extend(reached);
        cache_miss = primal_closure(&l.body, &cached, &kept_set);
    }
    let read = |e: &ValueId| recompute.contains(e) || cache_miss.contains(e);
    let inductions: Vec<Induction> = inductions(f, l)
        .into_iter()
        .filter(|i| read(&i.entry))
        .collect();
    let overwritten: Vec<(ValueId, ValueId)> = overwritten(f, an, l)
        .into_iter()
        .filter(|(e, _)| read(e))
        .collect();
    let entries = l
        .carried
        .iter()
        .map(|c| c.entry)
        .filter(|e| {
            read(e)
                && !inductions.iter().any(|i| i.entry == *e)
                && !overwritten.iter().any(|(o, _)| o == e)
        })
        .collect();
    LoopSaves {
        overwritten,
        entries,
        kept,
        cached,
        recompute,
        cache_miss,
        inductions,
    }
}

/// What a loop may keep and cache, from one walk of its body.
struct LoopWalk {
    /// Values of the body's top level the loop may keep.
    keepable: HashSet<ValueId>,
    /// Values of the body's top level the loop may cache.
    cacheable: HashSet<ValueId>,
    /// Elements of an array the iteration changes read in a branch arm of
    /// the body (or in a branch nested in one), in definition order.
    in_arms: Vec<ValueId>,
}

fn loop_walk(f: &Function, an: &Analysis, l: &Loop) -> LoopWalk {
    let mut keepable = HashSet::new();
    let mut cacheable = HashSet::new();
    let mut in_arms = Vec::new();
    // A `while` loop keeps values too (its stack grows as it runs), but
    // caches none: the cache's budget is decided from the trip count.
    let range = matches!(l.header, LoopHeader::Range { .. });
    {
        // Values that change from one iteration to the next; the others
        // are as cheap to recompute as to load (LLVM hoists them).
        let mut variant: HashSet<ValueId> = match &l.header {
            LoopHeader::Range { index, .. } => index.iter().copied().collect(),
            LoopHeader::While { .. } => HashSet::new(),
        };
        variant.extend(l.carried.iter().map(|c| c.entry));
        // A taped loop reads the arrays of the code around it (not
        // arguments) element by element: each element read is kept, one
        // float, where the enclosing loop's reverse would otherwise rebuild
        // the array, running again what computed it.
        if an.taped.contains(&l.id) {
            struct Blocks(HashSet<BlockId>);
            impl Visitor<'_> for Blocks {
                fn visit_block(&mut self, b: &Block) {
                    self.0.insert(b.id);
                    walk_block(self, b);
                }
            }
            let mut inside = Blocks(HashSet::new());
            inside.visit_block(&l.body);
            l.body.for_each_read(&mut |v| {
                let info = f.info(*v);
                if info.kind == Kind::Array
                    && info.param.is_none()
                    && !inside.0.contains(&info.block)
                {
                    variant.insert(*v);
                }
            });
        }
        // Values computed from an inner loop's results: recomputing them
        // would run the inner loop again.
        let mut from_inner = HashSet::new();
        for stmt in &l.body.stmts {
            match stmt {
                Stmt::Let { dst, op, .. } => {
                    let reads = op.reads();
                    if reads.iter().any(|r| from_inner.contains(r)) {
                        from_inner.insert(*dst);
                    }
                    if !reads.iter().any(|r| variant.contains(r)) {
                        continue;
                    }
                    variant.insert(*dst);
                    // A branch's condition on such an element (`if v[k] <
                    // 2.0`): one bool, where recomputing it would keep the
                    // whole array.
                    if f.info(*dst).kind == Kind::Bool
                        && reads
                            .iter()
                            .any(|r| f.info(*r).kind == Kind::Array && variant.contains(r))
                    {
                        keepable.insert(*dst);
                    }
                    // An element of an array the iteration changes: one
                    // float on the stack, where recomputing the read would
                    // keep the whole array (Tapenade pushes the element).
                    if let Op::Index { slice, .. } = op
                        && f.info(*slice).kind == Kind::Array
                        && variant.contains(slice)
                    {
                        keepable.insert(*dst);
                    }
                    if let Op::Rule { rule, args, .. } = op
                        && f.info(*dst).kind == Kind::Float
                        && rule.expensive
                        && scalar_form(f, rule, args)
                    {
                        if from_inner.contains(dst) {
                            keepable.insert(*dst);
                        } else if range {
                            cacheable.insert(*dst);
                        }
                    }
                }
                Stmt::If(i) => {
                    if i.cfg.is_none() {
                        arm_element_reads(f, &i.then_blk, &variant, &mut in_arms);
                        arm_element_reads(f, &i.else_blk, &variant, &mut in_arms);
                    }
                    let mut reads = HashSet::new();
                    all_reads(stmt, &mut reads);
                    // A float the branch picks from an array the iteration
                    // changes (`if k == 0 { x[i] } else { v[j] }`): one
                    // float on the stack, where recomputing the branch
                    // would keep the whole array.
                    if reads
                        .iter()
                        .any(|r| f.info(*r).kind == Kind::Array && variant.contains(r))
                    {
                        keepable.extend(
                            i.phis
                                .iter()
                                .map(|p| p.dst)
                                .filter(|d| f.info(*d).kind == Kind::Float),
                        );
                    }
                    variant.extend(i.phis.iter().map(|p| p.dst));
                    if reads.iter().any(|r| from_inner.contains(r)) {
                        from_inner.extend(i.phis.iter().map(|p| p.dst));
                    }
                }
                Stmt::Loop(inner) => {
                    let afters = inner.carried.iter().map(|c| c.after);
                    variant.extend(afters.clone());
                    from_inner.extend(afters.clone());
                    // A loop that saves nothing, or a taped one, does not
                    // run again in this loop's reverse: what it leaves
                    // behind is kept rather than recovered by running it.
                    if matches!(inner.header, LoopHeader::Range { .. })
                        && (!an.saves(inner).any() || an.taped.contains(&inner.id))
                    {
                        keepable.extend(afters.filter(|a| f.info(*a).kind == Kind::Float));
                        // An array the inner loop fills, one element per
                        // iteration (`for k in 0..n { a[k] = .. }`), each
                        // element costing a loop or an expensive operation:
                        // one float per iteration to keep, where recovering
                        // it would run that work again. An array of cheap
                        // elements is recomputed.
                        if costly(&inner.body) {
                            keepable.extend(inner.carried.iter().filter_map(|c| {
                                let len = an.lengths.get(&c.entry)?;
                                fills(inner, c, *len).then_some(c.after)
                            }));
                        }
                    }
                }
            }
        }
    }
    LoopWalk {
        keepable,
        cacheable,
        in_arms,
    }
}

/// Reads `a[i]` in a branch arm (or a branch nested in it, not a loop) of
/// an array `a` of the loop body's top level that the iteration changes:
/// one float each to keep, where the arm's reverse would otherwise read the
/// whole array.
fn arm_element_reads(f: &Function, b: &Block, variant: &HashSet<ValueId>, out: &mut Vec<ValueId>) {
    for stmt in &b.stmts {
        match stmt {
            Stmt::Let {
                dst,
                op: Op::Index { slice, .. },
                ..
            } if f.info(*slice).kind == Kind::Array
                && f.info(*dst).kind == Kind::Float
                && variant.contains(slice) =>
            {
                out.push(*dst)
            }
            Stmt::If(i) if i.cfg.is_none() => {
                arm_element_reads(f, &i.then_blk, variant, out);
                arm_element_reads(f, &i.else_blk, variant, out);
            }
            _ => {}
        }
    }
}

/// The needs of the branch arms in `b` (nested arms first), computed again
/// not looking through `stops`, the elements the loop keeps.
fn restop_arms(f: &Function, an: &mut Analysis, b: &Block, stops: &HashSet<ValueId>) {
    for stmt in &b.stmts {
        if let Stmt::If(i) = stmt {
            for arm in [&i.then_blk, &i.else_blk] {
                restop_arms(f, an, arm, stops);
                let need = needs_stopping(f, an, arm, stops);
                an.needs.insert(arm.id, need);
            }
        }
    }
}

/// The values of block `b` (and what it reads) that computing `roots`
/// needs, the roots included, not looking through `stops` (which are at
/// hand) and without them.
fn primal_closure(b: &Block, roots: &[ValueId], stops: &HashSet<ValueId>) -> HashSet<ValueId> {
    let mut need: HashSet<ValueId> = roots.iter().copied().collect();
    for stmt in b.stmts.iter().rev() {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                if need.contains(dst) && !stops.contains(dst) {
                    need.extend(op.reads());
                }
            }
            Stmt::If(i) => {
                if i.phis
                    .iter()
                    .any(|p| need.contains(&p.dst) && !stops.contains(&p.dst))
                {
                    all_reads(stmt, &mut need);
                }
            }
            Stmt::Loop(l) => {
                if l.carried
                    .iter()
                    .any(|c| need.contains(&c.after) && !stops.contains(&c.after))
                {
                    all_reads(stmt, &mut need);
                }
            }
        }
    }
    need.retain(|v| !stops.contains(v));
    need
}

/// Whether the primal sweep of a loop must run again in a recomputation:
/// a `while` loop to count its iterations, a loop with reverse work to
/// fill its stack, and any loop whose results are read.
pub fn rerun_loop(an: &Analysis, l: &Loop, filter: &HashSet<ValueId>) -> bool {
    let work = l.carried.iter().any(|c| carry_active(an, c)) || block_has_work(an, &l.body);
    // A taped loop's records were made by its enclosing loop's run.
    let record = !an.taped.contains(&l.id)
        && match l.header {
            LoopHeader::While { .. } => work,
            LoopHeader::Range { .. } => work && an.saves(l).any(),
        };
    record || l.carried.iter().any(|c| filter.contains(&c.after))
}

/// The values of `l`'s block (initial values, results) that its reverse
/// shapes a zero adjoint of a carried collection like: where the result
/// (or an iteration's entry) receives no contribution, so no adjoint of it
/// exists to carry. The initial value, or for an array whose length the
/// loop changes, the result (an iteration's entry is the body's; see
/// `zero_shaped`).
fn zero_shaped_inits<'a>(
    f: &'a Function,
    an: &'a Analysis,
    l: &'a Loop,
) -> impl Iterator<Item = ValueId> + 'a {
    let declared = |v: ValueId| an.uses[v] > 0 || an.predeclare[v];
    l.carried
        .iter()
        .filter(move |c| f.info(c.init).kind != Kind::Float)
        .filter_map(move |c| match an.resized.contains_key(&c.entry) {
            false => (!declared(c.after) || !declared(c.entry)).then_some(c.init),
            true => (!declared(c.after)).then_some(c.after),
        })
}

/// What the reverse of loop `l` reads to compute its inductions: their
/// initial values and the loop's start.
fn induction_reads(l: &Loop, saves: &LoopSaves) -> Vec<ValueId> {
    if saves.inductions.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<ValueId> = saves.inductions.iter().map(|i| i.init).collect();
    if let LoopHeader::Range { start, .. } = &l.header {
        out.extend(start.value());
    }
    out
}

/// What the reverse of loop `l` reads besides its stack: the inductions'
/// reads and the initial values it copies for overwritten arrays.
fn reverse_reads(l: &Loop, saves: &LoopSaves) -> Vec<ValueId> {
    let mut out = induction_reads(l, saves);
    out.extend(saves.overwritten.iter().map(|(_, init)| *init));
    out
}

/// [`Analysis::needs`] of `b`, not looking through `stops`: values that will be at hand
/// without recomputing them.
fn needs_stopping(
    f: &Function,
    an: &Analysis,
    b: &Block,
    stops: &HashSet<ValueId>,
) -> HashSet<ValueId> {
    #[cfg(test)]
    BLOCK_WALKS.with(|w| w.set(w.get() + 1));
    let mut need: HashSet<ValueId> = zero_shaped(f, an, b).collect();
    for stmt in b.stmts.iter().rev() {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                if an.active(*dst) {
                    need.extend(backward_reads(f, an, *dst, op));
                }
                if need.contains(dst) && !stops.contains(dst) {
                    need.extend(op.reads());
                }
            }
            Stmt::If(i) => {
                if has_work(an, stmt) {
                    need.extend(i.cond.value());
                    need.extend(an.needs(&i.then_blk));
                    need.extend(an.needs(&i.else_blk));
                }
                if i.phis
                    .iter()
                    .any(|p| need.contains(&p.dst) && !stops.contains(&p.dst))
                {
                    all_reads(stmt, &mut need);
                }
            }
            Stmt::Loop(l) => {
                let work = has_work(an, stmt);
                let saves = work.then(|| an.saves(l));
                if let Some(saves) = saves {
                    need.extend(&saves.recompute);
                    need.extend(&saves.cache_miss);
                    need.extend(reverse_reads(l, saves));
                    // The initial values (or results) whose shape the
                    // zero adjoints of its carried collections take: a
                    // result so needed runs the loop again.
                    need.extend(zero_shaped_inits(f, an, l));
                }
                let wanted = l
                    .carried
                    .iter()
                    .any(|c| need.contains(&c.after) && !stops.contains(&c.after));
                // The same decision as `rerun_loop`, with the filter this
                // walk is building.
                let rerun = wanted
                    || !an.taped.contains(&l.id)
                        && match (&l.header, &saves) {
                            (LoopHeader::While { .. }, Some(_)) => true,
                            (LoopHeader::Range { .. }, Some(saves)) => saves.any(),
                            (_, None) => false,
                        };
                if rerun {
                    all_reads(stmt, &mut need);
                } else if work {
                    // The reverse alone: the range (and the initial values
                    // above).
                    if let LoopHeader::Range { start, end, .. } = &l.header {
                        need.extend(start.value());
                        need.extend(end.value());
                    }
                }
            }
        }
    }
    need
}

/// How many times the primal sweep reads each value: every operand
/// occurrence (`v + v` reads `v` twice), branch conditions and φ sources,
/// loop bounds and carried values, and the returned value.
fn read_counts(f: &Function) -> ValueMap<usize> {
    let mut counts = ValueMap::filled(f.values.len(), 0);
    f.body.for_each_read(&mut |v| counts[*v] += 1);
    for r in f.outputs() {
        counts[r] += 1;
    }
    counts
}

/// Matrices the forward sweep may move into the one operation that reads
/// them, an operator or an element-wise `map` (`(w * x + b).map(f64::tanh)`
/// computes the sum and the tanh in the product's buffer): locals of
/// the top-level block, read once in the whole primal sweep and never by
/// the reverse sweep.
pub fn movable(f: &Function, an: &Analysis) -> HashSet<ValueId> {
    let counts = read_counts(f);
    let need = captured(f, an);
    // Read by a top-level operation, which runs once (not in a loop body).
    let top: HashSet<ValueId> = f
        .body
        .stmts
        .iter()
        .filter_map(|s| match s {
            Stmt::Let { op, .. } => Some(op.reads()),
            _ => None,
        })
        .flatten()
        .collect();
    f.values
        .iter()
        .map(|(v, _)| v)
        .filter(|v| {
            let info = f.info(*v);
            info.block == f.body.id
                && info.param.is_none()
                && !info.by_ref
                && info.kind == Kind::Matrix
                && counts[*v] == 1
                && top.contains(v)
                && !need.contains(v)
        })
        .collect()
}

/// Arrays an element write or a `push` may take by value, writing in the
/// array's own buffer (and the initial values a loop may take as its
/// carried variable's): locals whose last primal read is that write (every
/// other read is an earlier statement of the write's block) and that the
/// reverse sweep never reads, neither at the top level nor in a
/// recomputation of any block.
pub fn consumable_arrays(f: &Function, an: &Analysis) -> HashSet<ValueId> {
    let counts = read_counts(f);
    let up_to_write = reads_up_to_write(f);
    // What the reverse sweep reads of each block's values: the pullback's
    // captures of the top level's, a loop body's saves and recomputation
    // of its own, all an arm's reverse needs of an arm's.
    let mut reverse_reads: HashMap<BlockId, HashSet<ValueId>> = an.needs.clone();
    reverse_reads.insert(f.body.id, captured(f, an));
    struct LoopBodies<'b>(
        &'b Analysis,
        &'b mut HashMap<BlockId, HashSet<ValueId>>,
        &'b Function,
    );
    impl<'a> Visitor<'a> for LoopBodies<'_> {
        fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
            if let Stmt::Loop(l) = stmt
                && let Some(saves) = self.0.saves.get(&l.id)
            {
                let read = self.1.entry(l.body.id).or_default();
                read.clear();
                read.extend(saves.kept.iter().chain(&saves.cached));
                read.extend(&saves.cache_miss);
                // A `for` loop's reverse recomputes in forward order, so
                // only what the adjoint code reads must outlive a write,
                // and what it pushes: its entry values as an iteration
                // starts, or, with kept values, at the iteration's end.
                // Elsewhere (a `while`, a checkpointed or fused loop)
                // everything it saves or recomputes.
                let plain = matches!(l.header, LoopHeader::Range { .. })
                    && l.checkpoint.is_none()
                    && !self.0.fused.contains_key(&l.id);
                if plain {
                    // What the reverse reads but only the forward sweep
                    // consumes (the write or inner loop taking it is not
                    // run again in the reverse) may be consumed.
                    let body = &l.body;
                    let forward_only = |v: &ValueId| {
                        body.stmts
                            .iter()
                            .any(|s| consumes(s, *v) && !rerun_in_reverse(self.0, saves, s))
                    };
                    let reads = adjoint_reads(self.2, self.0, body);
                    read.extend(reads.into_iter().filter(|v| !forward_only(v)));
                    // (A `Vec` entry kept as a row is copied as the
                    // iteration starts.)
                    if !saves.kept.is_empty() {
                        let row = |v: &&ValueId| {
                            self.2.info(**v).kind == Kind::Array && self.0.lengths.contains_key(*v)
                        };
                        read.extend(saves.entries.iter().filter(|v| !row(v)));
                    }
                } else {
                    read.extend(&saves.entries);
                    read.extend(&saves.recompute);
                }
            }
            walk_stmt(self, stmt);
        }
    }
    LoopBodies(an, &mut reverse_reads, f).visit_block(&f.body);
    up_to_write
        .into_iter()
        .filter(|(v, (reads, _))| {
            let info = f.info(*v);
            info.param.is_none()
                && info.kind == Kind::Array
                && counts[*v] == *reads
                && !reverse_reads
                    .get(&info.block)
                    .is_some_and(|r| r.contains(v))
        })
        .map(|(v, _)| v)
        .collect()
}

/// Whether a statement takes array `v` by value when it may: an element
/// write or `push` into it, or a loop starting a carried variable at it.
fn consumes(stmt: &Stmt, v: ValueId) -> bool {
    match stmt {
        Stmt::Let {
            op: Op::Store { array, .. } | Op::Push { array, .. },
            ..
        } => *array == v,
        Stmt::Loop(l) => l.carried.iter().any(|c| c.init == v),
        _ => false,
    }
}

/// Whether a loop body's reverse runs a statement of the body's top level
/// again (its recomputation or cache miss); a branch is taken to be.
fn rerun_in_reverse(an: &Analysis, saves: &LoopSaves, stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Let { dst, .. } => saves.recompute.contains(dst) || saves.cache_miss.contains(dst),
        Stmt::Loop(l) => {
            rerun_loop(an, l, &saves.recompute)
                || l.carried
                    .iter()
                    .any(|c| saves.cache_miss.contains(&c.after))
        }
        Stmt::If(_) => true,
    }
}

/// [`consumable_arrays`] for a sweep with no reverse (a JVP's): arrays
/// whose last read is the write or the loop taking them as its initial
/// value, in the block they are defined in (so a loop around that block
/// does not move them twice).
pub fn consumable_arrays_forward(f: &Function) -> HashSet<ValueId> {
    let counts = read_counts(f);
    reads_up_to_write(f)
        .into_iter()
        .filter(|(v, (reads, block))| {
            let info = f.info(*v);
            info.param.is_none()
                && info.kind == Kind::Array
                && info.block == *block
                && counts[*v] == *reads
        })
        .map(|(v, _)| v)
        .collect()
}

/// Per written array (and loop's initial value): its reads up to and
/// including the write, in the write's block, and that block.
fn reads_up_to_write(f: &Function) -> HashMap<ValueId, (usize, BlockId)> {
    struct ReadsUpToWrite(HashMap<ValueId, (usize, BlockId)>);
    impl<'a> Visitor<'a> for ReadsUpToWrite {
        fn visit_block(&mut self, b: &'a Block) {
            let mut before: HashMap<ValueId, usize> = HashMap::new();
            for stmt in &b.stmts {
                stmt.for_each_deep_read(&mut |v| *before.entry(*v).or_default() += 1);
                match stmt {
                    Stmt::Let {
                        op: Op::Store { array, .. } | Op::Push { array, .. },
                        ..
                    } => {
                        self.0.insert(*array, (before[array], b.id));
                    }
                    // A loop's carried variable starts as its initial value.
                    Stmt::Loop(l) => {
                        for c in &l.carried {
                            self.0.insert(c.init, (before[&c.init], b.id));
                        }
                    }
                    _ => {}
                }
                walk_stmt(self, stmt);
            }
        }
    }
    let mut up_to_write = ReadsUpToWrite(HashMap::new());
    up_to_write.visit_block(&f.body);
    up_to_write.0
}

/// What the adjoint code of block `b`'s reverse reads, after the block's
/// recomputation (which runs in forward order, so an array it writes in
/// place is not read again there): the backward reads of its active
/// values, the zeros shaped like values, branch conditions and arms'
/// reverse sweeps, and what inner loops' reverse sweeps read (their
/// recomputation, their bounds, an initial value a zero adjoint is shaped
/// like).
fn adjoint_reads(f: &Function, an: &Analysis, b: &Block) -> HashSet<ValueId> {
    let mut need: HashSet<ValueId> = zero_shaped(f, an, b).collect();
    for stmt in &b.stmts {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                if an.active(*dst) {
                    need.extend(backward_reads(f, an, *dst, op));
                }
            }
            Stmt::If(i) => {
                if has_work(an, stmt) {
                    need.extend(i.cond.value());
                    need.extend(an.needs(&i.then_blk));
                    need.extend(an.needs(&i.else_blk));
                }
            }
            Stmt::Loop(l) => {
                if !has_work(an, stmt) {
                    continue;
                }
                let saves = an.saves(l);
                need.extend(&saves.recompute);
                need.extend(&saves.cache_miss);
                need.extend(reverse_reads(l, saves));
                if let LoopHeader::Range { start, end, .. } = &l.header {
                    need.extend(start.value());
                    need.extend(end.value());
                }
                // The reverse starts a carried adjoint (or hands one
                // back) as a zero shaped like the initial value where no
                // adjoint of the result (or of the entry) exists.
                need.extend(zero_shaped_inits(f, an, l));
                if l.checkpoint.is_some() || an.fused.contains_key(&l.id) {
                    all_reads(stmt, &mut need);
                }
            }
        }
    }
    need
}

/// The values the pullback closure captures: what the reverse sweep reads,
/// including what its recomputations of branches and loop bodies read. Unlike
/// [`Analysis::needs`] of the top-level block, a value read here does not make its own
/// operands needed: the top level is never recomputed.
fn captured(f: &Function, an: &Analysis) -> HashSet<ValueId> {
    let mut need: HashSet<ValueId> = zero_shaped(f, an, &f.body).collect();
    for stmt in &f.body.stmts {
        match stmt {
            Stmt::Let { dst, op, .. } => {
                if an.active(*dst) {
                    need.extend(backward_reads(f, an, *dst, op));
                }
            }
            Stmt::If(i) => {
                if has_work(an, stmt) {
                    need.extend(i.cond.value());
                    need.extend(an.needs(&i.then_blk));
                    need.extend(an.needs(&i.else_blk));
                    // The arms' φ sources and what they read.
                    all_reads(stmt, &mut need);
                }
            }
            Stmt::Loop(l) => {
                if has_work(an, stmt) {
                    need.extend(an.needs(&l.body));
                    need.extend(zero_shaped_inits(f, an, l));
                    let mut reads = HashSet::new();
                    all_reads(stmt, &mut reads);
                    let popped = popped_inits(an, l);
                    need.extend(reads.into_iter().filter(|v| !popped.contains(v)));
                }
            }
        }
    }
    // The result is returned from the forward sweep, and read by the
    // reverse sweep if `needs` says so; either way it is not moved.
    need.extend(f.outputs());
    need
}

/// The initial values of a loop's carried variables that its reverse
/// sweep does not read: those whose entry value each iteration pushes and
/// its reverse pops, or that it does not read (a `for` loop, neither
/// checkpointed nor fused, which re-run from the initial values), unless
/// the body reads them too.
fn popped_inits(an: &Analysis, l: &Loop) -> HashSet<ValueId> {
    let plain = matches!(l.header, LoopHeader::Range { .. })
        && l.checkpoint.is_none()
        && !an.fused.contains_key(&l.id);
    if !plain {
        return HashSet::new();
    }
    let saves = an.saves(l);
    let mut body_reads = HashSet::new();
    for stmt in &l.body.stmts {
        all_reads(stmt, &mut body_reads);
    }
    // Or whose entry value the reverse does not read at all (a loop whose
    // inner loops are taped need not run them again from it); the zero
    // adjoints shaped like an initial value are needed apart.
    let reverse = reverse_reads(l, saves);
    let needs = an.needs(&l.body);
    l.carried
        .iter()
        .filter(|c| saves.entries.contains(&c.entry) || !needs.contains(&c.entry))
        .filter(|c| !body_reads.contains(&c.init) && !reverse.contains(&c.init))
        .map(|c| c.init)
        .collect()
}

/// Reads of one slice at the loop index plus constants (`x[i]`,
/// `x[i + 1]`) in the top level of a `for` loop's body. Iteration `i` adds
/// into elements `i + min ..= i + max` only, and element `i + max` gets its
/// last contribution in reverse iteration `i`: the reverse sweep keeps the
/// pending adjoints of the window in locals, carries them to the next
/// (lower) iteration, and writes each element to memory once.
pub struct Stencil {
    pub slice: ValueId,
    /// Each read (the value it defines) with its offset from the index.
    pub reads: Vec<(ValueId, i64)>,
    pub min: i64,
    pub max: i64,
    /// The index of a read at offset `max`, in scope at the end of the body.
    pub last: ValueId,
}

/// The widest window kept in locals.
const MAX_STENCIL_WIDTH: i64 = 8;

/// The stencils of a loop: only for a forward `for` range with an index,
/// only for reads made on every iteration (not in a branch or an inner
/// loop), and only where it saves memory traffic (two offsets, or two reads
/// at the same offset).
pub fn stencils(f: &Function, an: &Analysis, l: &Loop) -> Vec<Stencil> {
    // An array's adjoint moves with its value from one iteration to the
    // next; only a slice argument's stays in place.
    let LoopHeader::Range {
        index: Some(i),
        reversed: false,
        ..
    } = &l.header
    else {
        return Vec::new();
    };
    // Values of the body that are the index plus a constant.
    let mut offsets: HashMap<ValueId, (i64, ValueId)> = HashMap::new();
    offsets.insert(*i, (0, *i));
    // Per slice: each read, its offset and its index value.
    type Reads = Vec<(ValueId, i64, ValueId)>;
    let mut by_slice: Vec<(ValueId, Reads)> = Vec::new();
    for stmt in &l.body.stmts {
        let Stmt::Let { dst, op, .. } = stmt else {
            continue;
        };
        match op {
            Op::Rule { rule, args, .. } if f.info(*dst).kind == Kind::Int => {
                let c = match (rule.operator, args.as_slice()) {
                    (Some(Operator::Add), [Operand::Value(v), Operand::Const(c)])
                    | (Some(Operator::Add), [Operand::Const(c), Operand::Value(v)])
                        if v == i =>
                    {
                        int_literal(c)
                    }
                    (Some(Operator::Sub), [Operand::Value(v), Operand::Const(c)]) if v == i => {
                        int_literal(c).map(|c| -c)
                    }
                    _ => None,
                };
                if let Some(c) = c {
                    offsets.insert(*dst, (c, *dst));
                }
            }
            Op::Index {
                slice,
                index: Operand::Value(index),
            } if an.active(*dst) && an.active(*slice) && f.info(*slice).kind == Kind::Slice => {
                let Some(&(c, idx)) = offsets.get(index) else {
                    continue;
                };
                match by_slice.iter_mut().find(|(s, _)| s == slice) {
                    Some((_, reads)) => reads.push((*dst, c, idx)),
                    None => by_slice.push((*slice, vec![(*dst, c, idx)])),
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    for (slice, reads) in by_slice {
        let min = reads.iter().map(|r| r.1).min().unwrap_or(0);
        let Some(&(_, max, last)) = reads.iter().max_by_key(|r| r.1) else {
            continue;
        };
        let distinct: HashSet<i64> = reads.iter().map(|r| r.1).collect();
        if (distinct.len() < 2 && reads.len() < 2) || max - min > MAX_STENCIL_WIDTH {
            continue;
        }
        out.push(Stencil {
            slice,
            reads: reads.iter().map(|r| (r.0, r.1)).collect(),
            min,
            max,
            last,
        });
    }
    out
}

/// Reads `a[k]` at the top level of a `for` loop's body of an array or
/// slice `a` defined outside the loop, at an index `k` defined outside it:
/// every iteration adds into the same element of `a`'s adjoint, which
/// stays in place through the loop's reverse (only values of the loop
/// move their adjoints from one iteration to the next). The reverse sweep
/// adds into a local and the element once, after the loop, instead of
/// going through memory each iteration (the triangle's `x[i]` read in its
/// `j` loop).
pub struct InvariantRead {
    pub slice: ValueId,
    pub index: ValueId,
    /// The reads of `slice[index]`, the values they define.
    pub reads: Vec<ValueId>,
}

/// The invariant reads of a loop (see [`InvariantRead`]); not in a
/// checkpointed loop, whose reverse runs in segments.
pub fn invariant_reads(f: &Function, an: &Analysis, l: &Loop) -> Vec<InvariantRead> {
    if !matches!(l.header, LoopHeader::Range { .. }) || l.checkpoint.is_some() {
        return Vec::new();
    }
    struct Blocks(HashSet<BlockId>);
    impl<'a> Visitor<'a> for Blocks {
        fn visit_block(&mut self, b: &'a Block) {
            self.0.insert(b.id);
            walk_block(self, b);
        }
    }
    let mut blocks = Blocks(HashSet::new());
    blocks.visit_block(&l.body);
    let inside = blocks.0;
    let outside = |v: ValueId| !inside.contains(&f.info(v).block);
    let mut out: Vec<InvariantRead> = Vec::new();
    for stmt in &l.body.stmts {
        let Stmt::Let {
            dst,
            op:
                Op::Index {
                    slice,
                    index: Operand::Value(index),
                },
            ..
        } = stmt
        else {
            continue;
        };
        if !(an.active(*dst)
            && an.active(*slice)
            && f.info(*dst).kind == Kind::Float
            && matches!(f.info(*slice).kind, Kind::Slice | Kind::Array)
            && f.info(*index).kind == Kind::Int
            && outside(*slice)
            && outside(*index)
            && !an.zero_at_read.contains(dst))
        {
            continue;
        }
        match out
            .iter_mut()
            .find(|r| r.slice == *slice && r.index == *index)
        {
            Some(r) => r.reads.push(*dst),
            None => out.push(InvariantRead {
                slice: *slice,
                index: *index,
                reads: vec![*dst],
            }),
        }
    }
    out
}

/// The largest offset from the loop index a stencil read may have: far
/// beyond any useful window, and small enough that offsets, their
/// differences and their negations never overflow.
const MAX_STENCIL_OFFSET: i64 = 1 << 20;

/// A plain integer literal (`1`, `2usize`) usable as a stencil offset.
fn int_literal(t: &proc_macro2::TokenStream) -> Option<i64> {
    let lit: syn::LitInt = syn::parse2(t.clone()).ok()?;
    if !matches!(lit.suffix(), "" | "usize") {
        return None;
    }
    lit.base10_parse()
        .ok()
        .filter(|c: &i64| *c <= MAX_STENCIL_OFFSET)
}

/// Forward mode's products of a value by a multiple of itself: `v * u`
/// (or `u * v`) where `v = k * u` (or `u * k`) with a factor `k` that has
/// no tangent (a literal, a constant) and `u` a float with one. Then
/// `v̇ = k·u̇`, so the product's term `v̇·u = k·u̇·u` is `u̇·v` up to
/// rounding and its tangent is `2·v·u̇`: one product instead of three
/// (`100.0 * b * b`).
#[derive(Default)]
pub struct ScaledProducts {
    /// Each such product, mapped to `(u, v)`.
    pub products: HashMap<ValueId, (ValueId, ValueId)>,
    /// The `v`s read only by such products: nothing reads their tangent.
    pub unread: HashSet<ValueId>,
}

pub fn scaled_products(f: &Function, an: &Analysis) -> ScaledProducts {
    struct Scan<'a> {
        f: &'a Function,
        an: &'a Analysis,
        /// `v = k * u`, mapped to `u`.
        scaled: HashMap<ValueId, ValueId>,
        out: ScaledProducts,
    }
    impl<'a> Visitor<'a> for Scan<'a> {
        fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
            if let Stmt::Let {
                dst,
                op: Op::Rule { rule, args, .. },
                ..
            } = stmt
                && rule.operator == Some(Operator::Mul)
                && scalar_form(self.f, rule, args)
                && self.f.info(*dst).kind == Kind::Float
            {
                let tangent = |o: &Operand| {
                    o.value()
                        .filter(|v| self.an.varied[*v] && self.f.info(*v).kind == Kind::Float)
                };
                match (tangent(&args[0]), tangent(&args[1])) {
                    (Some(u), None) | (None, Some(u)) => {
                        self.scaled.insert(*dst, u);
                    }
                    (Some(a), Some(b)) if self.scaled.get(&a) == Some(&b) => {
                        self.out.products.insert(*dst, (b, a));
                    }
                    (Some(a), Some(b)) if self.scaled.get(&b) == Some(&a) => {
                        self.out.products.insert(*dst, (a, b));
                    }
                    _ => {}
                }
            }
            walk_stmt(self, stmt);
        }
    }
    let mut scan = Scan {
        f,
        an,
        scaled: HashMap::new(),
        out: ScaledProducts::default(),
    };
    scan.visit_block(&f.body);
    let counts = read_counts(f);
    let mut in_products: HashMap<ValueId, usize> = HashMap::new();
    for (_, v) in scan.out.products.values() {
        *in_products.entry(*v).or_default() += 1;
    }
    scan.out.unread = in_products
        .into_iter()
        .filter(|(v, n)| counts[*v] == *n)
        .map(|(v, _)| v)
        .collect();
    scan.out
}

/// Whether `op` builds an array longer than the sweeps keep on the stack
/// (`[0.0; 40_000]`, more than `STACK_ARRAY_LEN` constant elements).
pub fn large_fill(op: &Op) -> bool {
    let Op::Fill {
        elem: Operand::Const(_),
        len: Operand::Const(len),
        collection: Collection::Array,
    } = op
    else {
        return false;
    };
    syn::parse2::<syn::Expr>(len.clone()).is_ok_and(|len| {
        matches!(&len, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Int(n), .. })
            if n.base10_parse::<usize>().is_ok_and(|n| n > STACK_ARRAY_LEN))
    })
}

/// Whether every large array the body declares (see [`large_fill`]) can be
/// held in a `Box`: each of its values (element writes, copies, a loop's
/// carried variable, a branch's φ) is read only by those, by element reads
/// and by `len()`, which read a `Box` as they read the array. The sweeps
/// then move a pointer where a debug build copied the whole array at
/// every `let` (a 40 000-element local took 4.2 MB of stack in `_grad`).
pub fn boxes_large_arrays(f: &Function) -> bool {
    struct Family<'a> {
        lets: Vec<(ValueId, &'a Op)>,
        phis: Vec<&'a Phi>,
        carried: Vec<(&'a Carried, bool)>,
    }
    impl<'a> Visitor<'a> for Family<'a> {
        fn visit_stmt(&mut self, _: &'a Block, stmt: &'a Stmt) {
            match stmt {
                Stmt::Let { dst, op, .. } => self.lets.push((*dst, op)),
                Stmt::If(i) => self.phis.extend(&i.phis),
                Stmt::Loop(l) => self
                    .carried
                    .extend(l.carried.iter().map(|c| (c, l.checkpoint.is_some()))),
            }
            walk_stmt(self, stmt);
        }
    }
    let mut family = Family {
        lets: Vec::new(),
        phis: Vec::new(),
        carried: Vec::new(),
    };
    family.visit_block(&f.body);
    let mut boxed: HashSet<ValueId> = family
        .lets
        .iter()
        .filter(|(_, op)| large_fill(op))
        .map(|(v, _)| *v)
        .collect();
    if boxed.is_empty() {
        return false;
    }
    // Every value that holds one of those arrays.
    loop {
        let before = boxed.len();
        for (dst, op) in &family.lets {
            match op {
                Op::Copy(Operand::Value(v)) | Op::Store { array: v, .. } if boxed.contains(v) => {
                    boxed.insert(*dst);
                }
                _ => {}
            }
        }
        for p in &family.phis {
            if boxed.contains(&p.then_src) || boxed.contains(&p.else_src) {
                boxed.insert(p.dst);
            }
        }
        for (c, _) in &family.carried {
            if [c.init, c.entry, c.exit].iter().any(|v| boxed.contains(v)) {
                boxed.extend([c.init, c.entry, c.exit]);
            }
        }
        if boxed.len() == before {
            break;
        }
    }
    // Their reads that read a `Box` as they read the array.
    let mut fits = ValueMap::filled(f.values.len(), 0usize);
    for (_, op) in &family.lets {
        match op {
            Op::Copy(Operand::Value(v)) | Op::Index { slice: v, .. } | Op::Len { slice: v } => {
                fits[*v] += 1
            }
            Op::Store { array, elem, .. } => {
                fits[*array] += 1;
                if elem.value().is_some_and(|e| boxed.contains(&e)) {
                    return false;
                }
            }
            _ => {}
        }
    }
    for p in &family.phis {
        let sides = [p.dst, p.then_src, p.else_src].map(|v| boxed.contains(&v));
        if sides.iter().any(|b| *b) && !sides.iter().all(|b| *b) {
            return false;
        }
        fits[p.then_src] += 1;
        fits[p.else_src] += 1;
    }
    for (c, checkpoint) in &family.carried {
        if *checkpoint && boxed.contains(&c.init) {
            return false;
        }
        fits[c.init] += 1;
        fits[c.exit] += 1;
    }
    let counts = read_counts(f);
    boxed
        .iter()
        .all(|v| f.info(*v).param.is_none() && counts[*v] == fits[*v])
}

#[cfg(test)]
mod scaled_product_tests {
    use super::*;

    /// The plan of `src`'s products of a value by a multiple of itself, as
    /// text: `product = u * v` per product, then the unread `v`s.
    fn plan(src: &str) -> (Vec<String>, Vec<String>) {
        let item: syn::ItemFn = syn::parse_str(src).expect("test input parses");
        let cx = Ctxt::default();
        let sig = crate::sig::parse(&cx, &item.sig, false).expect("signature reads");
        let f = crate::lower::lower(&cx, &sig, &item.sig, &item.block);
        let diff: Vec<bool> = sig.params.iter().map(|p| p.differentiable).collect();
        let an = analyze(&cx, &f, &diff);
        assert!(cx.check().is_ok());
        let plan = scaled_products(&f, &an);
        let mut products: Vec<String> = plan
            .products
            .iter()
            .map(|(p, (u, v))| format!("{p} = {u} * {v}"))
            .collect();
        let mut unread: Vec<String> = plan.unread.iter().map(ToString::to_string).collect();
        products.sort();
        unread.sort();
        (products, unread)
    }

    #[test]
    fn a_multiple_times_its_value_in_either_order_and_only_then() {
        // `100.0 * x * x` and `x * b` with `b = x * 3.0` are products of a
        // value by a multiple of itself; `(2.0 * y) * y` is not (`y` has no
        // tangent), nor is the square `x * x`. Only `100.0 * x` is read by
        // nothing else (`b` is also read by `b.sin()`).
        let (products, unread) = plan(
            "fn f(x: f64, #[constant] y: f64) -> f64 {
                let a = 100.0 * x * x;
                let b = x * 3.0;
                let c = x * b + b.sin();
                let d = (2.0 * y) * y + x * x;
                a + c + d
            }",
        );
        assert_eq!(products.len(), 2, "{products:?}");
        assert_eq!(unread.len(), 1, "{unread:?}");
        let (p0, p1) = (&products[0], &products[1]);
        // The unread one is the first product's multiple (`100.0 * x`).
        assert!(p0.ends_with(&unread[0]) || p1.ends_with(&unread[0]));
    }
}
