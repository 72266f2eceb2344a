use autograd::differentiable;

#[differentiable(jvp)]
fn inner(x: f64) -> f64 {
    x.sin() * x
}

// A forward sweep of `inner` inside another function's body: the body
// differentiates calls of `inner`, not of the items generated for it.
#[differentiable]
fn outer(x: f64) -> f64 {
    let (v, t) = inner_jvp(x, 1.0);
    v * t
}

#[differentiable]
fn outer_vjp_call(x: f64) -> f64 {
    inner_hessian_sparse(x) + x
}

fn main() {
    let _ = outer(1.0);
    let _ = outer_vjp_call(1.0);
}
