use autograd::differentiable;

/// Butcher tableau of Heun's method as `const` arrays of arrays.
const A: [[f64; 2]; 2] = [[0.0, 0.0], [1.0, 0.0]];
const B: [f64; 2] = [0.5, 0.5];

/// Logistic growth y' = r·y·(1 − y/k) integrated with an explicit
/// two-stage Runge–Kutta method read from its tableau.
#[differentiable]
pub fn heun_tableau_const(r: f64, k: f64, #[constant] y0: f64, #[constant] h: f64, #[constant] steps: usize) -> f64 {
    let mut y = y0;
    for _ in 0..steps {
        let mut stages = [0.0; 2];
        for i in 0..2 {
            let mut yi = y;
            for j in 0..i {
                yi += h * A[i][j] * stages[j];
            }
            stages[i] = r * yi * (1.0 - yi / k);
        }
        for i in 0..2 {
            y += h * B[i] * stages[i];
        }
    }
    y
}

pub fn check() -> Result<(), String> {
    for (r, k) in [(0.8, 10.0), (1.5, 3.0)] {
        let (v, dr, dk) = heun_tableau_const_grad(r, k, 0.5, 0.1, 30);
        crate::support::same_value("heun", v, heun_tableau_const(r, k, 0.5, 0.1, 30))?;
        let want = crate::support::fd_grad(|q| heun_tableau_const(q[0], q[1], 0.5, 0.1, 30), &[r, k]);
        crate::support::close("heun_tableau_const", &[dr, dk], &want, 1e-6)?;
    }
    Ok(())
}
