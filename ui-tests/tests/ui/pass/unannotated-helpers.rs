//! Plain functions next to differentiable ones: only a call whose argument
//! carries a derivative needs its callee annotated, and the check looks at
//! the module the call names, not just the function's name.
use approx::assert_relative_eq;
use autograd::differentiable;

/// Plain, and called on constants only.
fn rate(t: f64) -> f64 {
    0.01 + 0.002 * t
}

/// Plain, with an integer argument and result.
fn count(n: usize) -> usize {
    2 * n + 1
}

/// Plain, called with no arguments.
fn scale() -> f64 {
    1.5
}

/// Plain, sharing its name with an annotated function in `smooth`.
fn helper(v: f64) -> f64 {
    v + 100.0
}

mod smooth {
    use autograd::differentiable;

    #[differentiable]
    pub fn helper(v: f64) -> f64 {
        v * v
    }

    /// Calls its own module's annotated `helper`, not the plain one above.
    #[differentiable]
    pub fn uses_helper(x: f64) -> f64 {
        helper(x) + x
    }
}

mod plain {
    /// Plain, sharing its name with the annotated `smooth::helper`.
    #[allow(dead_code)]
    pub fn helper(v: f64) -> f64 {
        v - 100.0
    }
}

/// exp(−r(t)·t)·x with r(t) a plain function of a constant.
#[differentiable]
fn discount(x: f64, #[constant] t: f64) -> f64 {
    (-rate(t) * t).exp() * x
}

/// x·(2n + 1)·1.5
#[differentiable]
fn counted(x: f64, n: usize) -> f64 {
    x * count(n) as f64 * scale()
}

/// Calls the annotated `smooth::helper` by path from a module whose own
/// `helper` is plain: x² + 3x.
#[differentiable]
fn by_path(x: f64) -> f64 {
    smooth::helper(x) + 3.0 * x + 0.0 * helper(2.0)
}

fn main() {
    let t = 3.0_f64;
    let (v, d) = discount_grad(2.0, t);
    let factor = (-(0.01 + 0.002 * t) * t).exp();
    assert_eq!(v, discount(2.0, t));
    assert_relative_eq!(d, factor, epsilon = 1e-15, max_relative = 1e-15);

    assert_eq!(counted_grad(2.0, 3), (21.0, 10.5));

    // x² + x: 2x + 1.
    assert_eq!(smooth::uses_helper_grad(3.0), (12.0, 7.0));

    // x² + 3x: 2x + 3.
    assert_eq!(by_path_grad(2.0), (10.0, 7.0));
    let _ = plain::helper(0.0);
}
