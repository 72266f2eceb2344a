fn generic_scalar<T: Float>(x: T, y: &[T]) -> T {
    let mut s = T::zero();
    for i in 0..y.len() {
        s = s + y[i] * x.exp();
    }
    s * T::from(2.0).unwrap()
}
::core::compile_error! {
    "a `#[differentiable]` function taking a `Tangent` struct cannot be generic"
}
::core::compile_error! {
    "a `#[differentiable]` function taking a `Tangent` struct, or in a `#[differentiable] impl` block, returns `f64` or `f32`"
}
::core::compile_error! {
    "a `#[differentiable]` body reads a `Tangent` struct by its fields (`x.a`); passing `x` on whole is not supported, and methods call each other only within a `#[differentiable] impl` block (put the attribute on the block too)"
}
