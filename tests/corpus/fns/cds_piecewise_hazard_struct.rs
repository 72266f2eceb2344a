use autograd::differentiable;

/// A credit curve: one hazard rate per year bucket, a flat discount rate.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct CreditCurve {
    pub hazards: Vec<f64>,
    pub rate: f64,
    #[constant]
    pub recovery: f64,
}

/// Survival probability to `t` under piecewise-constant hazards on unit buckets.
#[differentiable]
pub fn survival(curve: &CreditCurve, #[constant] t: f64) -> f64 {
    let mut integral = 0.0;
    let mut start = 0.0;
    for &h in &curve.hazards {
        if start >= t {
            break;
        }
        let end = (start + 1.0).min(t);
        integral += h * (end - start);
        start += 1.0;
    }
    (-integral).exp()
}

/// Par spread of a CDS with quarterly premiums, default paid at period end.
#[differentiable]
pub fn cds_piecewise_hazard_struct(curve: &CreditCurve, #[constant] maturity: f64) -> f64 {
    let n = (maturity * 4.0).round() as usize;
    let dt = 0.25;
    let (mut premium, mut protection) = (0.0, 0.0);
    let mut s_prev = 1.0;
    for i in 1..=n {
        let t = i as f64 * dt;
        let df = (-curve.rate * t).exp();
        let s = survival(curve, t);
        premium += dt * df * s;
        protection += df * (s_prev - s);
        s_prev = s;
    }
    (1.0 - curve.recovery) * protection / premium
}

pub fn check() -> Result<(), String> {
    for x in [[0.01, 0.015, 0.02, 0.025, 0.03], [0.04, 0.035, 0.05, 0.045, 0.02]] {
        let make = |q: &[f64]| CreditCurve { hazards: q[..4].to_vec(), rate: q[4], recovery: 0.4 };
        let (v, d) = cds_piecewise_hazard_struct_grad(&make(&x), 3.5);
        crate::support::same_value("cds", v, cds_piecewise_hazard_struct(&make(&x), 3.5))?;
        let want = crate::support::fd_grad(|q| cds_piecewise_hazard_struct(&make(q), 3.5), &x);
        let mut got = d.hazards.clone();
        got.push(d.rate);
        crate::support::close("cds_piecewise_hazard_struct", &got, &want, 1e-6)?;
    }
    Ok(())
}
