use approx::assert_relative_eq;
use autograd::differentiable;

/// x·2ⁿ with a variable carried across iterations.
#[differentiable]
fn doubled(x: f64, n: usize) -> f64 {
    let mut y = x;
    for _ in 0..n {
        y *= 2.0;
    }
    y
}

/// Σ_{i=1..=n} i·xⁱ, with the power kept in an accumulator and `..=`.
#[differentiable]
fn weighted_powers(x: f64, n: i32) -> f64 {
    let mut p = 1.0;
    let mut acc = 0.0;
    for i in 1..=n {
        p = p * x;
        acc += i as f64 * p;
    }
    acc
}

/// A reversed loop and a nested loop with branches inside: an `if` value
/// and an `if` / `else` statement.
#[differentiable]
fn triangle(x: f64, n: usize) -> f64 {
    let mut acc = 0.0;
    for i in (0..n).rev() {
        for j in 0..n {
            if j % 2 == 0 {
                acc += x;
            } else {
                acc -= x;
            }
            let weight = if j <= i { j as f64 + 1.0 } else { 0.0 };
            acc += x * weight;
        }
    }
    acc
}

/// An `if` / `else` statement as the last statement of a loop body: `()`.
#[differentiable]
fn alternating(x: f64, n: usize) -> f64 {
    let mut acc = 0.0;
    for i in 0..n {
        if i % 2 == 0 {
            acc += x * x;
        } else {
            acc -= x;
        }
    }
    acc
}

/// Newton's iteration for √c, a `while` loop with a primal condition.
#[differentiable]
fn newton_sqrt(c: f64) -> f64 {
    let mut x = c;
    let mut k = 0;
    while k < 30 {
        x = 0.5 * (x + c / x);
        k += 1;
    }
    x
}

/// Halving while a primal condition on the carried value holds.
#[differentiable]
fn halve_below(x: f64) -> f64 {
    let mut y = x;
    while y > 1.0 {
        y = y * 0.5;
    }
    y
}

fn main() {
    assert_eq!(doubled_grad(3.0, 4), (48.0, 16.0));
    assert_eq!(doubled_grad(3.0, 0), (3.0, 1.0));

    // n = 3 at x = 2: 2 + 2·4 + 3·8 = 34; 1 + 4·2 + 9·4 = 45.
    assert_eq!(weighted_powers_grad(2.0, 3), (34.0, 45.0));

    // n = 3: Σ_i (1 − 1 + 1) = 3 from the alternating signs, plus
    // Σ_i Σ_{j ≤ i} (j + 1) = 1 + 3 + 6 = 10 from the weights: 13·x.
    assert_eq!(triangle_grad(2.0, 3), (26.0, 13.0));

    // n = 3: 2x² − x at x = 3: 15; derivative 4x − 1 = 11.
    assert_eq!(alternating_grad(3.0, 3), (15.0, 11.0));

    let (v, d) = newton_sqrt_grad(2.0);
    assert_eq!(v, newton_sqrt(2.0));
    assert_relative_eq!(v, 2.0_f64.sqrt(), epsilon = 1e-15, max_relative = 1e-15);
    assert_relative_eq!(
        d,
        0.5 / 2.0_f64.sqrt(),
        epsilon = 1e-12,
        max_relative = 1e-12
    );

    assert_eq!(halve_below_grad(6.0), (0.75, 0.125));
    assert_eq!(halve_below_grad(0.5), (0.5, 1.0));
}
