//! Finding 002 (fuzz generator, loop exits): SPEC.md promises `break`
//! (also with a value), `continue` (also labelled) and "`return` anywhere" in
//! a differentiable body; the macro rejects all three with a compile error:
//!
//!     error: `break` and `continue` are not supported; express the exit in
//!            the loop's condition (`while`)
//!     error: `return` is supported only as the last statement of the function
//!
//! A clear error, not a wrong number, but a gap in the contract: these are
//! ordinary numerical Rust ("stop at the first element above t").
//!
//! Expected (closed forms; central differences of the plain functions with
//! h = 1e-6 agree to 1e-9), at xs = [0.5, 1.0, 2.0, 0.1], t = 1.5:
//!   sum_squares_until = 0.25 + 1.0 = 1.25, d/dxs = [1.0, 2.0, 0.0, 0.0]
//!   sum_squares_below = 1.26,              d/dxs = [1.0, 2.0, 0.0, 0.2]
//!   early_return(-0.5, 2.0) = 8.0, (d/dx, d/dy) = (0.0, 12.0)
//!   early_return(0.5, 2.0)  = 1.0, (d/dx, d/dy) = (2.0, 0.5)
//! The macro gives: the compile errors above (one per function).
//!
//! Generator: `FnGen::gen_loop_exit` adds `if c { [update;] break; }`,
//! `continue` (in `for` loops) and `if c { return e; }` to loop bodies.
//!
//! Status: fixed on branch `control`. `match`, `loop`, `break` (with a
//! value, labelled), `continue` (labelled) and `return` anywhere are
//! rewritten before lowering into branches and loop flags
//! (autograd-macros/src/lower/{matching,exits}.rs). The three functions and
//! their closed-form values moved to tests/control_exits.rs
//! (`finding_002_loop_exits_and_early_return`). The generator's exits are
//! on by default (`AUTOGRAD_FUZZ_EXITS=0` turns them off), with `match` and
//! `loop` added.
