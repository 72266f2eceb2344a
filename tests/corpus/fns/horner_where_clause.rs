use autograd::differentiable;
use num_traits::Float;

/// A polynomial in Horner form for any float type, the bound in a `where`
/// clause, coefficients lowest degree first.
#[differentiable]
pub fn horner_where_clause<T>(x: T, #[constant] coeffs: &[f64]) -> T
where
    T: Float,
{
    let mut acc = T::zero();
    for &c in coeffs.iter().rev() {
        acc = acc * x + T::from(c).unwrap();
    }
    acc
}

pub fn check() -> Result<(), String> {
    let c = [1.0, -0.5, 0.25, 0.1, -0.02];
    for x in [0.7_f64, -1.6, 2.3] {
        let (v, d) = horner_where_clause_grad(x, &c);
        crate::support::same_value("horner", v, horner_where_clause(x, &c))?;
        let want = crate::support::fd_grad(|q| horner_where_clause(q[0], &c), &[x]);
        crate::support::close("horner_where_clause", &[d], &want, 1e-6)?;
    }
    Ok(())
}
