fn real_field_scalar<T>(x: T) -> T
where
    T: RealField + Copy,
{
    x.sin() * x
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
::core::compile_error! {
    "a `#[differentiable]` body reads a `Tangent` struct by its fields (`x.a`); passing `x` on whole is not supported, and methods call each other only within a `#[differentiable] impl` block (put the attribute on the block too)"
}
