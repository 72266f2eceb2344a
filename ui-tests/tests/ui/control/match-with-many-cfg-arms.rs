use autograd::differentiable;

// Each configured arm doubles what the macro compiles: more than four is
// refused, with the way to write it.
#[differentiable]
fn many(x: f64, k: i32) -> f64 {
    match k {
        #[cfg(feature = "a")]
        0 => x,
        #[cfg(feature = "b")]
        1 => x * 2.0,
        #[cfg(feature = "c")]
        2 => x * 3.0,
        #[cfg(feature = "d")]
        3 => x * 4.0,
        #[cfg(feature = "e")]
        4 => x * 5.0,
        _ => x * x,
    }
}

fn main() {}
