use approx::assert_relative_eq;
use autograd::differentiable;

#[differentiable]
fn w32(x: f32, y: f32) -> f32 {
    let z = x * y;
    z + x
}

#[differentiable]
fn soft(x: f32) -> f32 {
    (x.exp() + 1.0).ln() * 2.0_f32
}

fn main() {
    assert_eq!(w32_grad(3.0, 4.0), (15.0_f32, 5.0_f32, 3.0_f32));
    let (v, pullback) = w32_vjp(3.0, 4.0);
    assert_eq!(v, 15.0_f32);
    assert_eq!(pullback(0.5_f32), (2.5_f32, 1.5_f32));

    // 2·ln(1 + eˣ): derivative 2·σ(x).
    let x = 0.25_f32;
    let (v, d) = soft_grad(x);
    assert_eq!(v, soft(x));
    assert_relative_eq!(
        d,
        2.0 / (1.0 + (-x).exp()),
        epsilon = 1e-6,
        max_relative = 1e-6
    );
}
