use autograd::differentiable;

/// Raw identifiers as the function's and the arguments' names.
#[differentiable]
fn r#match(r#type: f64, r#in: f64) -> f64 {
    r#type * r#in
}

fn main() {
    // A differentiable function local to a block.
    #[differentiable]
    fn local(x: f64) -> f64 {
        x * 3.0
    }

    assert_eq!(match_grad(2.0, 5.0), (10.0, 5.0, 2.0));
    assert!(match_check(2.0, 5.0).is_within(1e-6, 1e-6));
    assert_eq!(local_grad(2.0), (6.0, 3.0));
}
