use autograd::differentiable;

// What `cfg_attr` adds the macro would have to evaluate its predicate to
// see; it never does.
#[differentiable]
fn arm(x: f64, k: i32) -> f64 {
    match k {
        #[cfg_attr(all(), cfg(any()))]
        0 => x * 100.0,
        _ => x * x,
    }
}

fn main() {}
