use autograd::differentiable;

/// Present value of 1 paid per period for n periods; the r → 0 limit is n.
#[differentiable]
pub fn annuity_factor(r: f64, n: f64) -> f64 {
    if r.abs() < 1e-10 {
        return n;
    }
    -(-n * r.ln_1p()).exp_m1() / r
}

pub fn check() -> Result<(), String> {
    scalar_check!(annuity_factor, annuity_factor_grad, 1e-6,
        [[0.03, 10.0], [0.12, 30.0], [0.001, 5.0]], (r, n))
}
