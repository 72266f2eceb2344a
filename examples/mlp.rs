//! Trains a small two-layer network, 2 → 16 → 1 with a tanh hidden layer and
//! a logistic output, on two interleaved spirals, with plain gradient descent
//! on the gradient `#[differentiable]` writes for the loss.
//!
//! The data set is generated here from a fixed seed (a splitmix64 generator,
//! no `rand`), so every run prints the same numbers.
//!
//! ```text
//! cargo run --release --example mlp
//! ```

use autograd::differentiable;
use nalgebra::DMatrix;

/// Points per spiral.
const PER_CLASS: usize = 100;
/// Hidden units.
const HIDDEN: usize = 16;
/// Full-batch gradient descent steps.
const EPOCHS: usize = 3000;
/// Step size.
const LEARNING_RATE: f64 = 0.5;

/// The network's logits for a batch `x` (n×2): tanh(X·W1 + 1·b1)·W2 + b2.
///
/// `ones` (n×1) turns the bias rows into matrices of the batch's height, so
/// the whole forward pass is matrix products and sums.
#[differentiable]
fn logits(
    w1: &DMatrix<f64>,
    b1: &DMatrix<f64>,
    w2: &DMatrix<f64>,
    b2: f64,
    #[constant] x: &DMatrix<f64>,
    #[constant] ones: &DMatrix<f64>,
) -> DMatrix<f64> {
    let hidden = (x * w1 + ones * b1).map(f64::tanh);
    hidden * w2 + ones * b2
}

/// Mean logistic loss (binary cross-entropy on the logits) of the network
/// on the batch `x` with labels `y` in {0, 1}; the forward pass is
/// [`logits`]'s.
///
/// Per point: ln(1 + e^z) - y·z, with the softplus written stably as
/// max(z, 0) + ln(1 + e^-|z|).
#[differentiable]
fn loss(
    w1: &DMatrix<f64>,
    b1: &DMatrix<f64>,
    w2: &DMatrix<f64>,
    b2: f64,
    #[constant] x: &DMatrix<f64>,
    #[constant] y: &DMatrix<f64>,
    #[constant] ones: &DMatrix<f64>,
) -> f64 {
    let hidden = (x * w1 + ones * b1).map(f64::tanh);
    let z = hidden * w2 + ones * b2;
    let softplus = z.map(|v| v.max(0.0) + (1.0 + (-v.abs()).exp()).ln());
    (softplus - y.component_mul(&z)).sum() / ones.sum()
}

/// splitmix64: a small, good-enough deterministic generator.
struct Rng(u64);

impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Standard normal (Box–Muller).
    fn normal(&mut self) -> f64 {
        let u = 1.0 - self.uniform(); // (0, 1]: ln is finite
        let v = self.uniform();
        (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    }
}

/// Two interleaved spirals, `PER_CLASS` points each, with a little noise:
/// inputs (n×2) and labels (n×1).
fn spirals(rng: &mut Rng) -> (DMatrix<f64>, DMatrix<f64>) {
    let n = 2 * PER_CLASS;
    let mut x = DMatrix::zeros(n, 2);
    let mut y = DMatrix::zeros(n, 1);
    for class in 0..2 {
        for k in 0..PER_CLASS {
            let i = class * PER_CLASS + k;
            let t = k as f64 / PER_CLASS as f64; // 0 → 1 along the arm
            let radius = 0.1 + 0.9 * t;
            let angle = 1.5 * std::f64::consts::PI * t + std::f64::consts::PI * class as f64;
            x[(i, 0)] = radius * angle.cos() + 0.03 * rng.normal();
            x[(i, 1)] = radius * angle.sin() + 0.03 * rng.normal();
            y[(i, 0)] = class as f64;
        }
    }
    (x, y)
}

/// Uniform in ±1/√fan_in.
fn init(rng: &mut Rng, rows: usize, cols: usize, fan_in: usize) -> DMatrix<f64> {
    let scale = 1.0 / (fan_in as f64).sqrt();
    DMatrix::from_fn(rows, cols, |_, _| scale * (2.0 * rng.uniform() - 1.0))
}

fn main() {
    let mut rng = Rng(2024);
    let (x, y) = spirals(&mut rng);
    let ones = DMatrix::repeat(x.nrows(), 1, 1.0);

    let mut w1 = init(&mut rng, 2, HIDDEN, 2);
    let mut b1 = DMatrix::zeros(1, HIDDEN);
    let mut w2 = init(&mut rng, HIDDEN, 1, HIDDEN);
    let mut b2 = 0.0;

    println!(
        "two spirals: {} points, network 2 → {HIDDEN} → 1, {EPOCHS} steps of gradient descent",
        x.nrows()
    );
    let start = std::time::Instant::now();
    for epoch in 0..=EPOCHS {
        let (l, dw1, db1, dw2, db2) = loss_grad(&w1, &b1, &w2, b2, &x, &y, &ones);
        if epoch % 300 == 0 {
            println!("epoch {epoch:>5}  loss {l:.4}");
        }
        if epoch == EPOCHS {
            break;
        }
        w1 -= dw1 * LEARNING_RATE;
        b1 -= db1 * LEARNING_RATE;
        w2 -= dw2 * LEARNING_RATE;
        b2 -= db2 * LEARNING_RATE;
    }
    let elapsed = start.elapsed();

    let z = logits(&w1, &b1, &w2, b2, &x, &ones);
    let correct = z
        .iter()
        .zip(y.iter())
        .filter(|&(&z, &y)| (z > 0.0) == (y > 0.5))
        .count();
    println!(
        "accuracy {correct}/{} = {:.1}%  (trained in {:.2?})",
        x.nrows(),
        100.0 * correct as f64 / x.nrows() as f64,
        elapsed
    );
}
