mod model {
    use autograd::differentiable;

    /// Public: its generated items are public too.
    #[differentiable]
    pub fn loss(x: f64) -> f64 {
        inner(x) * 2.0
    }

    /// Crate-visible.
    #[differentiable]
    pub(crate) fn inner(x: f64) -> f64 {
        x * x
    }
}

fn main() {
    assert_eq!(model::loss_grad(3.0), (18.0, 12.0));
    assert_eq!(model::inner_grad(3.0), (9.0, 6.0));
    let (v, pullback) = model::loss_vjp(3.0);
    assert_eq!((v, pullback(0.5)), (18.0, (6.0,)));
    assert!(model::loss_check(3.0).is_within(1e-6, 1e-6));
}
