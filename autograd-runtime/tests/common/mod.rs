//! Helpers shared by the integration tests: a fixed-seed RNG and the
//! dot-product form of a gradient check for matrices.
#![allow(dead_code)] // each test file uses a different subset

use nalgebra::DMatrix;

/// SplitMix64: tiny, deterministic, good enough to pick test points.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[lo, hi)`.
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * unit
    }

    /// Uniform in `[lo, hi)` with a random sign: magnitude kept away from 0.
    pub fn signed(&mut self, lo: f64, hi: f64) -> f64 {
        let x = self.uniform(lo, hi);
        if self.next_u64() & 1 == 0 { x } else { -x }
    }

    pub fn matrix(&mut self, rows: usize, cols: usize, lo: f64, hi: f64) -> DMatrix<f64> {
        DMatrix::from_fn(rows, cols, |_, _| self.uniform(lo, hi))
    }

    pub fn signed_matrix(&mut self, rows: usize, cols: usize, lo: f64, hi: f64) -> DMatrix<f64> {
        DMatrix::from_fn(rows, cols, |_, _| self.signed(lo, hi))
    }
}

/// ⟨a, b⟩ = Σ a_ij b_ij.
pub fn dot(a: &DMatrix<f64>, b: &DMatrix<f64>) -> f64 {
    a.component_mul(b).sum()
}

/// The directional derivative of `⟨f(x), c⟩` along `t` by a central
/// difference: the right-hand side of the dot-product identity
/// `⟨vjp(c), t⟩ = ⟨J·t, c⟩`.
pub fn directional_fd(
    f: impl Fn(&DMatrix<f64>) -> DMatrix<f64>,
    x: &DMatrix<f64>,
    t: &DMatrix<f64>,
    c: &DMatrix<f64>,
) -> f64 {
    let h = 1e-6;
    let plus = f(&(x + t * h));
    let minus = f(&(x - t * h));
    (dot(&plus, c) - dot(&minus, c)) / (2.0 * h)
}
