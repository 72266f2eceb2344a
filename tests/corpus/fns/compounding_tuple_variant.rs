use autograd::differentiable;

#[derive(Clone, Copy, Debug)]
pub enum Compounding {
    Simple,
    Periodic(u32),
    Continuous,
}

/// Discount factor for a rate under a compounding convention.
#[differentiable]
pub fn compounding_tuple_variant(rate: f64, t: f64, #[constant] comp: Compounding) -> f64 {
    match comp {
        Compounding::Simple => 1.0 / (1.0 + rate * t),
        Compounding::Periodic(n) => {
            let n = n as f64;
            (1.0 + rate / n).powf(-n * t)
        }
        Compounding::Continuous => (-rate * t).exp(),
    }
}

pub fn check() -> Result<(), String> {
    for comp in [Compounding::Simple, Compounding::Periodic(2), Compounding::Periodic(12), Compounding::Continuous] {
        for p in [[0.03, 2.5], [0.08, 10.0]] {
            let (v, a, b) = compounding_tuple_variant_grad(p[0], p[1], comp);
            crate::support::same_value("df", v, compounding_tuple_variant(p[0], p[1], comp))?;
            let want = crate::support::fd_grad(|q| compounding_tuple_variant(q[0], q[1], comp), &p);
            crate::support::close("compounding_tuple_variant", &[a, b], &want, 1e-6)?;
        }
    }
    Ok(())
}
