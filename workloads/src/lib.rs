//! Real workloads on autograd's gradients, each a library module the
//! examples print from and the tests run at a small size:
//!
//! - [`monte_carlo`]: pathwise Greeks of Asian options by Monte Carlo, against
//!   bump-and-revalue on common random numbers;
//! - [`calibrate`]: a Nelson–Siegel–Svensson zero curve fitted to bond prices
//!   with argmin's L-BFGS on our gradient, against finite differences;
//! - [`ode_fit`]: a damped oscillator's parameters fitted to noisy
//!   observations by Levenberg–Marquardt on a Jacobian of our gradients;
//! - [`bond_data`]: the loader of `bonds.csv` and `curve.csv`, the same
//!   file the root package's pricing example compiles as its `data` module.

// A `#[differentiable]` body loops over index ranges (the macro
// differentiates `for i in a..b`, not iterators).
#![allow(clippy::needless_range_loop)]

// One loader for both packages: the root package's pricing example cannot
// depend on this crate (it depends on the root package), so the file is
// compiled into each.
#[path = "../../examples/pricing/data.rs"]
pub mod bond_data;
pub mod calibrate;
pub mod monte_carlo;
pub mod ode_fit;
