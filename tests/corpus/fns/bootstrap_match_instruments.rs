use autograd::differentiable;

/// A quoted curve instrument.
#[derive(Clone, Copy, Debug)]
pub enum Instrument {
    /// A simple-interest deposit of the given tenor in years.
    Deposit { tenor: f64 },
    /// An annual-pay par swap of the given whole number of years.
    Swap { years: usize },
}

/// Bootstraps annual discount factors from deposit and par-swap quotes
/// (matched on the instrument kind) and prices an annual-coupon bond of
/// notional 100 maturing at the last pillar off that curve.
#[differentiable]
pub fn bootstrap_match_instruments(quotes: &[f64], #[constant] instruments: &[Instrument], #[constant] coupon: f64) -> f64 {
    let mut dfs: Vec<f64> = Vec::new();
    for (q, inst) in quotes.iter().zip(instruments) {
        match inst {
            Instrument::Deposit { tenor } => {
                let df = 1.0 / (1.0 + q * tenor);
                dfs.push(df);
            }
            Instrument::Swap { years } => {
                let annuity: f64 = dfs.iter().take(years - 1).sum();
                let df = (1.0 - q * annuity) / (1.0 + q);
                dfs.push(df);
            }
        }
    }
    let coupons: f64 = dfs.iter().map(|df| coupon * df).sum();
    let last = *dfs.last().expect("at least one quote");
    coupons + 100.0 * last
}

pub fn check() -> Result<(), String> {
    let instruments = [
        Instrument::Deposit { tenor: 1.0 },
        Instrument::Swap { years: 2 },
        Instrument::Swap { years: 3 },
        Instrument::Swap { years: 4 },
        Instrument::Swap { years: 5 },
    ];
    for p in [vec![0.030, 0.032, 0.035, 0.037, 0.038], vec![0.050, 0.046, 0.043, 0.041, 0.040]] {
        let (v, dq) = bootstrap_match_instruments_grad(&p, &instruments, 4.0);
        crate::support::same_value("bootstrap", v, bootstrap_match_instruments(&p, &instruments, 4.0))?;
        let want = crate::support::fd_grad(|q| bootstrap_match_instruments(q, &instruments, 4.0), &p);
        crate::support::close("bootstrap_match_instruments", &dq, &want, 1e-6)?;
    }
    Ok(())
}
