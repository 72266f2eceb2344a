//! The Lorenz system by explicit Euler steps (three floats carried), shared
//! by the `#[checkpoint]` tests and benchmark: `lorenz!(name, step,
//! attribute)` defines `#[differentiable] fn name(x0, sigma, n)` whose loop
//! carries the attribute (`allow(unused)` for none, `checkpoint`, ...).
//! The caller has `autograd::differentiable` in scope.

macro_rules! lorenz {
    ($name:ident, $step:expr, $($attr:tt)*) => {
        #[differentiable]
        fn $name(x0: f64, sigma: f64, n: usize) -> f64 {
            let mut x = x0;
            let mut y = 1.0;
            let mut z = 1.05;
            let h = $step;
            #[$($attr)*]
            for _ in 0..n {
                let dx = sigma * (y - x);
                let dy = x * (28.0 - z) - y;
                let dz = x * y - 8.0 / 3.0 * z;
                x += h * dx;
                y += h * dy;
                z += h * dz;
            }
            x + y + z
        }
    };
}
