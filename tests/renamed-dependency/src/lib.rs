//! Functions differentiated through a dependency renamed to `ag`; the
//! expected values are closed forms.

#[cfg(test)]
mod tests {
    use ag::differentiable;
    use ag::nalgebra::DMatrix;

    /// Σ sin(x·yᵢ), with forward mode and second order.
    #[differentiable(jvp, hessian)]
    fn wave(x: f64, y: &[f64]) -> f64 {
        let mut s = 0.0;
        for i in 0..y.len() {
            s += (x * y[i]).sin();
        }
        s
    }

    #[derive(Clone, ag::Tangent)]
    struct Line {
        slope: f64,
        #[constant]
        scale: f64,
    }

    #[differentiable]
    fn line(p: &Line, x: f64) -> f64 {
        p.slope * x * p.scale
    }

    #[differentiable]
    fn frobenius(m: &DMatrix<f64>) -> f64 {
        m.component_mul(m).sum()
    }

    #[differentiable]
    fn residual(z: f64, c: f64) -> f64 {
        z * z - c
    }

    #[differentiable(implicit = residual)]
    fn root(c: f64) -> Result<f64, ag::solve::SolveError> {
        ag::solve::bisect(|z| residual(z, c), 0.0, c.max(1.0), 1e-14)
    }

    #[test]
    fn every_item_compiles_and_is_right_under_the_renamed_dependency() {
        let y = [1.0, 2.0];
        let (value, dx, dy) = wave_grad(0.5, &y);
        assert_eq!(value, wave(0.5, &y));
        assert!((dx - (0.5f64.cos() + 2.0 * 1.0f64.cos())).abs() < 1e-12);
        assert!((dy[0] - 0.5 * 0.5f64.cos()).abs() < 1e-12);
        let (_, tangent) = wave_jvp(0.5, &y, 1.0, &[0.0, 0.0]);
        assert!((tangent - dx).abs() < 1e-12);
        let (_, _, hessian) = wave_hessian(0.5, &y);
        let dxx = -(0.5f64.sin() + 4.0 * 1.0f64.sin());
        assert!((hessian[(0, 0)] - dxx).abs() < 1e-12);
        assert!(wave_check(0.5, &y).is_within(1e-6, 1e-6));

        let p = Line { slope: 2.0, scale: 3.0 };
        let (value, d_p, d_x) = line_grad(&p, 5.0);
        assert_eq!((value, d_p.slope, d_x), (30.0, 15.0, 6.0));

        let m = DMatrix::from_row_slice(2, 2, &[1.0, 2.0, 3.0, 4.0]);
        let (value, d_m) = frobenius_grad(&m);
        assert_eq!((value, d_m), (30.0, &m * 2.0));

        let (z, dz_dc) = root_grad(2.0).expect("a root in [0, 2]");
        assert!((z - 2f64.sqrt()).abs() < 1e-12);
        assert!((dz_dc - 0.5 / 2f64.sqrt()).abs() < 1e-9);
    }
}
