use autograd::differentiable;

/// A normal distribution, statrs-style.
pub struct Normal {
    pub mean: f64,
    pub sd: f64,
}

impl Normal {
    pub fn cdf(&self, x: f64) -> f64 {
        autograd::special::norm_cdf((x - self.mean) / self.sd)
    }
}

#[differentiable]
fn probability_below(x: f64, #[constant] n: &Normal) -> f64 {
    n.cdf(x)
}

fn main() {
    let n = Normal { mean: 0.0, sd: 1.0 };
    let _ = probability_below(0.3, &n);
}
