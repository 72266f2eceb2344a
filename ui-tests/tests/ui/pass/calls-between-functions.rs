use approx::assert_relative_eq;
use autograd::differentiable;

mod geometry {
    use autograd::differentiable;

    #[differentiable]
    pub fn square(v: f64) -> f64 {
        v * v
    }

    pub mod nested {
        use autograd::differentiable;

        /// Calls its parent module's function through `super::`.
        #[differentiable]
        pub fn cube(v: f64) -> f64 {
            super::square(v) * v
        }
    }
}

/// A call by path into a module: 3·r².
#[differentiable]
fn area(r: f64) -> f64 {
    3.0 * geometry::square(r)
}

/// Composition three deep, by `crate::` path too: r³ · 3r² + r = 3r⁵ + r.
#[differentiable]
fn outer(r: f64) -> f64 {
    crate::geometry::nested::cube(r) * area(r) + r
}

/// A callee with a constant argument, given a constant.
#[differentiable]
fn scale(x: f64, #[constant] k: f64) -> f64 {
    x * k
}

#[differentiable]
fn twice_scaled(x: f64) -> f64 {
    scale(x, 2.0) + scale(x, 3.0)
}

/// A callee taking a slice.
#[differentiable]
fn total(x: &[f64]) -> f64 {
    let mut acc = 0.0;
    for i in 0..x.len() {
        acc += x[i];
    }
    acc
}

#[differentiable]
fn mean(x: &[f64]) -> f64 {
    total(x) / x.len() as f64
}

/// A callee called with two differentiable arguments, one of them twice.
#[differentiable]
fn product(a: f64, b: f64) -> f64 {
    a * b
}

#[differentiable]
fn square_by_product(x: f64, y: f64) -> f64 {
    product(x, x) + product(x, y)
}

/// A plain function, called on constants only: its result is a constant.
fn plain_helper(n: usize) -> f64 {
    n as f64 * 0.5
}

#[differentiable]
fn uses_plain_helper(x: f64, n: usize) -> f64 {
    let k = plain_helper(n);
    let c = plain_helper(4);
    x * k + c
}

/// A recursive function: halves x until it is at most 1.
#[differentiable]
fn halve_until_small(x: f64) -> f64 {
    if x > 1.0 {
        halve_until_small(x * 0.5)
    } else {
        x
    }
}

fn main() {
    assert_eq!(area_grad(2.0), (12.0, 12.0));
    assert_eq!(geometry::nested::cube_grad(2.0), (8.0, 12.0));

    let r = 1.5_f64;
    let (v, d) = outer_grad(r);
    assert_eq!(v, outer(r));
    assert_relative_eq!(
        v,
        3.0 * r.powi(5) + r,
        epsilon = 1e-12,
        max_relative = 1e-12
    );
    assert_relative_eq!(
        d,
        15.0 * r.powi(4) + 1.0,
        epsilon = 1e-12,
        max_relative = 1e-12
    );

    assert_eq!(twice_scaled_grad(4.0), (20.0, 5.0));

    let (v, dx) = mean_grad(&[1.0, 2.0, 3.0, 6.0]);
    assert_eq!(v, 3.0);
    assert_eq!(dx, vec![0.25; 4]);

    // x² + x·y: (2x + y, x).
    assert_eq!(square_by_product_grad(3.0, 5.0), (24.0, 11.0, 3.0));

    assert_eq!(uses_plain_helper_grad(3.0, 6), (11.0, 3.0));

    // 8 → 4 → 2 → 1: x/8, derivative 1/8.
    assert_eq!(halve_until_small_grad(8.0), (1.0, 0.125));
    assert_eq!(halve_until_small_grad(0.5), (0.5, 1.0));
}
