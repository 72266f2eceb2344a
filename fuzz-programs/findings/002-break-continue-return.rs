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
//! Generator: `AUTOGRAD_FUZZ_EXITS=1` adds `if c { [update;] break; }`,
//! `continue` (in `for` loops) and `if c { return e; }` to loop bodies
//! (`FnGen::gen_loop_exit`). Off by default, since every default run would
//! fail to compile; turn it on (and make it the default) once the macro
//! takes them: `AUTOGRAD_FUZZ_EXITS=1 fuzz-programs/run-long.sh 3000 1`.

use autograd::differentiable;

/// Σ xs[i]² over the elements before the first one above `t`.
#[differentiable]
fn sum_squares_until(xs: &[f64], #[constant] t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        if xs[i] > t {
            break;
        }
        s += xs[i] * xs[i];
    }
    s
}

/// Σ xs[i]² over the elements not above `t`.
#[differentiable]
fn sum_squares_below(xs: &[f64], #[constant] t: f64) -> f64 {
    let mut s = 0.0;
    for i in 0..xs.len() {
        if xs[i] > t {
            continue;
        }
        s += xs[i] * xs[i];
    }
    s
}

/// x·y, or y³ when x is negative.
#[differentiable]
fn early_return(x: f64, y: f64) -> f64 {
    if x < 0.0 {
        return y * y * y;
    }
    x * y
}

#[test]
fn loop_exits_and_early_return() {
    let xs = [0.5, 1.0, 2.0, 0.1];
    let (v, d) = sum_squares_until_grad(&xs, 1.5);
    assert_eq!(v, 1.25);
    assert_eq!(d, vec![1.0, 2.0, 0.0, 0.0]);
    let (v, d) = sum_squares_below_grad(&xs, 1.5);
    assert!((v - 1.26).abs() < 1e-15);
    assert_eq!(d, vec![1.0, 2.0, 0.0, 0.2]);
    assert_eq!(early_return_grad(-0.5, 2.0), (8.0, 0.0, 12.0));
    assert_eq!(early_return_grad(0.5, 2.0), (1.0, 2.0, 0.5));
}
