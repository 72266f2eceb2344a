//! A `DMatrix` of the user's own nalgebra passed to `#[differentiable]`
//! functions; the expected gradients are closed forms.

#[cfg(test)]
mod tests {
    use approx::assert_relative_eq;
    use autograd::differentiable;
    use nalgebra::{DMatrix, DVector};

    /// L(M) = Σᵢⱼ (M·M)ᵢⱼ = 1ᵀ·M·M·1.
    #[differentiable]
    fn square_sum(m: &DMatrix<f64>) -> f64 {
        let p = m * m;
        p.sum()
    }

    /// L(M, x) = xᵀ·M·x, with x a constant of the user's nalgebra too.
    #[differentiable]
    fn quadratic(m: &DMatrix<f64>, #[constant] x: &DVector<f64>) -> f64 {
        x.dot(&(m * x))
    }

    #[test]
    fn gradient_of_a_matrix_product_is_the_closed_form() {
        let m = DMatrix::from_row_slice(3, 3, &[1.0, -2.0, 0.5, 3.0, 0.25, -1.0, 2.0, 1.5, -0.75]);
        let (value, d_m) = square_sum_grad(&m);
        assert_eq!(value, (&m * &m).sum());
        // ∂L/∂M = G·Mᵀ + Mᵀ·G with G the all-ones matrix (the adjoint of
        // the sum) at both factors of the product.
        let g = DMatrix::from_element(3, 3, 1.0);
        let expected = &g * m.transpose() + m.transpose() * &g;
        assert_relative_eq!(d_m, expected, epsilon = 1e-12, max_relative = 1e-12);
    }

    #[test]
    fn gradient_of_a_quadratic_form_is_the_outer_product() {
        let m = DMatrix::from_row_slice(2, 2, &[2.0, -1.0, 0.5, 3.0]);
        let x = DVector::from_vec(vec![1.5, -0.5]);
        let (value, d_m) = quadratic_grad(&m, &x);
        assert_relative_eq!(value, x.dot(&(&m * &x)), epsilon = 1e-12);
        // ∂(xᵀMx)/∂M = x·xᵀ.
        assert_relative_eq!(d_m, &x * x.transpose(), epsilon = 1e-12, max_relative = 1e-12);
        assert!(quadratic_check(&m, &x).is_within(1e-6, 1e-6));
    }
}
