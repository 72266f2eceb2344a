use autograd::differentiable;

// A scrutinee that is itself rejected (`then_some`) is one error there;
// the arm that binds its field reports nothing more.
// (`match-arm-binds-payload-of-local.rs` has the arm's own error.)
#[differentiable]
fn positive_part(x: f64) -> f64 {
    match (x > 0.0).then_some(x) {
        Some(v) => v,
        None => 0.0,
    }
}

fn main() {}
