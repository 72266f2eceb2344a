use autograd::differentiable;

#[differentiable]
fn rhs(s: [f64; 2], k: f64) -> [f64; 2] {
    [s[1], -k * s[0]]
}

// A callee returning an array needs `hessian` too, as every callee of a
// `hessian` function does: one error at the call, naming `rhs`.
#[differentiable(hessian)]
fn f(x: f64, k: f64) -> f64 {
    let d = rhs([x, 0.0], k);
    d[1] * d[1]
}

fn main() {}
