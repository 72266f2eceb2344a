use autograd::differentiable;

/// Tax on an income by bracket, with a flat top rate above the last
/// threshold; a smooth allowance phases out in the middle bracket.
#[differentiable]
pub fn progressive_tax(income: f64, allowance: f64) -> f64 {
    let taxable = if income < 12_000.0 {
        return 0.0;
    } else if income > 150_000.0 {
        return 0.45 * income;
    } else {
        income - allowance * (-(income - 12_000.0) / 50_000.0).exp()
    };
    let rate = 0.2 + 0.2 * (taxable / 150_000.0);
    rate * taxable
}

pub fn check() -> Result<(), String> {
    scalar_check!(progressive_tax, progressive_tax_grad, 1e-6,
        [[8_000.0, 5_000.0], [40_000.0, 5_000.0], [90_000.0, 12_570.0], [200_000.0, 5_000.0]], (income, allowance))
}
