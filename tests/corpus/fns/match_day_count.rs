use autograd::differentiable;

#[derive(Clone, Copy, Debug)]
pub enum DayCount {
    Act360,
    Act365,
    Thirty360,
}

/// Discount factor with a year fraction chosen by day-count convention.
#[differentiable]
pub fn match_day_count(rate: f64, #[constant] days: f64, #[constant] convention: DayCount) -> f64 {
    let year_fraction = match convention {
        DayCount::Act360 => days / 360.0,
        DayCount::Act365 => days / 365.0,
        DayCount::Thirty360 => (days / 30.0).floor() * 30.0 / 360.0,
    };
    1.0 / (1.0 + rate * year_fraction)
}

pub fn check() -> Result<(), String> {
    for c in [DayCount::Act360, DayCount::Act365, DayCount::Thirty360] {
        for r in [0.02, 0.07] {
            let (v, d) = match_day_count_grad(r, 181.0, c);
            crate::support::same_value("dc", v, match_day_count(r, 181.0, c))?;
            let want = crate::support::fd_grad(|q| match_day_count(q[0], 181.0, c), &[r]);
            crate::support::close(&format!("match_day_count {c:?}"), &[d], &want, 1e-6)?;
        }
    }
    Ok(())
}
