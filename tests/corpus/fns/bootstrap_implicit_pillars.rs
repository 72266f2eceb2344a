use autograd::differentiable;
use autograd::solve::bisect;

/// Par swap residual of the next annual pillar: the flat forward `f` that
/// reprices swap rate `s` given the annuity and discount factor so far.
#[differentiable]
pub fn pillar_residual(f: f64, s: f64, annuity: f64, df_prev: f64) -> f64 {
    let df = df_prev / (1.0 + f);
    s * (annuity + df) + df - 1.0
}

/// The forward of one pillar, by bisection, differentiated implicitly.
#[differentiable(implicit = pillar_residual)]
pub fn pillar_forward(s: f64, annuity: f64, df_prev: f64) -> f64 {
    bisect(|f| pillar_residual(f, s, annuity, df_prev), -0.05, 0.2, 1e-15).unwrap_or(f64::NAN)
}

/// Bootstraps the curve pillar by pillar and returns the PV of a floating
/// leg plus a spread, so the result depends on every par rate through the
/// chain of solves.
#[differentiable]
pub fn bootstrap_implicit_pillars(par: &[f64], spread: f64) -> f64 {
    let mut annuity = 0.0;
    let mut df_prev = 1.0;
    let mut total = 0.0;
    'pillars: for &s in par {
        let f = pillar_forward(s, annuity, df_prev);
        if f.is_nan() {
            break 'pillars;
        }
        let df = df_prev / (1.0 + f);
        annuity += df;
        df_prev = df;
        total += (f + spread) * df;
    }
    total
}

pub fn check() -> Result<(), String> {
    let par = vec![0.02, 0.025, 0.028, 0.03];
    let (v, gp, gs) = bootstrap_implicit_pillars_grad(&par, 0.001);
    crate::support::same_value("boot", v, bootstrap_implicit_pillars(&par, 0.001))?;
    let n = par.len();
    let mut p = par.clone();
    p.push(0.001);
    let want = crate::support::fd_grad(|q| bootstrap_implicit_pillars(&q[..n], q[n]), &p);
    let mut got = gp.clone();
    got.push(gs);
    crate::support::close("bootstrap_implicit_pillars", &got, &want, 1e-6)
}
