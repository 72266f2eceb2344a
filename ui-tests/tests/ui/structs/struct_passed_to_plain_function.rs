use autograd::differentiable;

#[derive(Clone, autograd::Tangent)]
struct Params {
    rate: f64,
}

/// No `#[differentiable]`: passing the struct to it is one error, at its
/// name, saying to annotate it.
fn discount(p: &Params, t: f64) -> f64 {
    (-p.rate * t).exp()
}

#[differentiable]
fn price(p: &Params, t: f64) -> f64 {
    100.0 * discount(p, t) + discount(p, 2.0 * t)
}

fn main() {
    let _ = price(&Params { rate: 0.05 }, 1.0);
}
