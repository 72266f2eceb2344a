//! ADBench's three objectives (Srajer, Kukelova, Fitzgibbon, "A benchmark
//! of selected algorithmic differentiation tools on some problems in
//! computer vision and machine learning", 2018; github.com/microsoft/ADBench)
//! ported to Rust, each with ADBench's hand-derived "Manual" derivative
//! ported line for line, shared by the criterion bench
//! (`benches/adbench/main.rs`), the report (`examples/adbench_report.rs`)
//! and the correctness test (`tests/adbench_gradients.rs`), which all
//! include this file with `#[path]`: the code that is checked is the code
//! that is timed.

// A `#[differentiable]` body indexes slices in `for i in a..b` loops, as
// the C++ it ports does; clippy would rather see iterators.
// ADBench's functions take their sizes and arrays as separate arguments
// (the generated `_grad_acc` adds a buffer per array), and the LSTM port
// copies its initial state element by element, the copy a body takes.
#![allow(
    clippy::needless_range_loop,
    clippy::too_many_arguments,
    clippy::manual_memcpy
)]

pub mod ba;
pub mod data;
pub mod gmm;
pub mod lstm;

/// GMM sizes of ADBench's 1k set: d × K, n = 1000.
pub const GMM_D: [usize; 5] = [2, 10, 20, 32, 64];
/// Components.
pub const GMM_K: [usize; 6] = [5, 10, 25, 50, 100, 200];
/// Points.
pub const GMM_N: usize = 1000;
/// The GMM sizes the criterion bench times (the report times all).
pub const GMM_QUICK: [(usize, usize); 3] = [(2, 5), (10, 25), (20, 50)];
/// LSTM layers × characters.
pub const LSTM_SIZES: [(usize, usize); 4] = [(2, 1024), (2, 4096), (4, 1024), (4, 4096)];

/// The worst disagreement of `got` with `want`, entry by entry: an entry
/// passes when |got − want| ≤ abs + rel·|want|. `Err` names the first
/// failing entry.
pub fn compare(what: &str, got: &[f64], want: &[f64], abs: f64, rel: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} entries where {} are expected",
            got.len(),
            want.len()
        ));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ok = (g - w).abs() <= abs + rel * w.abs();
        if !ok {
            return Err(format!(
                "{what}: entry {i} is {g:e} where {w:e} is expected"
            ));
        }
    }
    Ok(())
}

/// Central differences of `f` at `x` in the coordinates `which`: for each,
/// (f(x + h e) − f(x − h e)) / 2h with h = ε^(1/3)·max(1, |x|).
pub fn central_differences(
    x: &[f64],
    which: &[usize],
    mut f: impl FnMut(&[f64]) -> f64,
) -> Vec<f64> {
    let mut xp = x.to_vec();
    which
        .iter()
        .map(|&i| {
            let h = f64::EPSILON.cbrt() * x[i].abs().max(1.0);
            xp[i] = x[i] + h;
            let up = f(&xp);
            xp[i] = x[i] - h;
            let down = f(&xp);
            xp[i] = x[i];
            (up - down) / (2.0 * h)
        })
        .collect()
}

/// Up to `count` coordinates of `0..len` spread evenly, always with the
/// first and the last: the coordinates a large case checks by central
/// differences (each costs two objective evaluations).
pub fn sample_coordinates(len: usize, count: usize) -> Vec<usize> {
    if len <= count {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..count).map(|i| i * (len - 1) / (count - 1)).collect();
    v.dedup();
    v
}
