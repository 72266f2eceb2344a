fn squared_distance(x: &[f64], y: &[f64]) -> f64 {
    x.iter().zip(y).map(|(a, b)| (a - b) * (a - b)).sum::<f64>()
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct squared_distance {}
#[doc(hidden)]
impl squared_distance {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x", "y"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&squared_distance),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'x, 'y>(
        x: &'x [f64],
        y: &'y [f64],
        __ad_b_x: &mut [f64],
        __ad_b_y: &mut [f64],
        __ad_seed: f64,
    ) -> f64 {
        let _ = squared_distance;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_x, x.len());
        ::autograd::__private::check_buffer(__ad_b_y, y.len());
        let __ad_v2 = x.len();
        let __ad_v3 = y.len();
        let __ad_v4 = ::core::cmp::min(__ad_v2, __ad_v3);
        let __ad_v5: f64 = -0.0;
        let (__ad_v14_sum, __ad_u0__x, __ad_u0__y) = {
            let mut __ad_d_x = &mut *__ad_b_x;
            let mut __ad_d_y = &mut *__ad_b_y;
            let mut __ad_c0_sum = __ad_v5;
            for __ad_v7_i in 0..__ad_v4 {
                let __ad_v6_sum = __ad_c0_sum;
                let __ad_v8_a = x[__ad_v7_i];
                let __ad_v9_b = y[__ad_v7_i];
                let __ad_v10 = __ad_v8_a - __ad_v9_b;
                let __ad_v11 = __ad_v8_a - __ad_v9_b;
                let __ad_v12 = __ad_v10 * __ad_v11;
                let __ad_v13 = __ad_v6_sum + __ad_v12;
                let __ad_d13 = 1.0;
                let __ad_d6_sum = __ad_rules::add_grad_lhs(__ad_d13);
                let __ad_d12 = __ad_rules::add_grad_rhs(__ad_d13);
                let __ad_d10 = __ad_rules::mul_grad_lhs(__ad_d12, __ad_v11);
                let __ad_d11 = __ad_rules::mul_grad_rhs(__ad_d12, __ad_v10);
                let mut __ad_d8_a = __ad_rules::sub_grad_lhs(__ad_d11);
                let mut __ad_d9_b = __ad_rules::sub_grad_rhs(__ad_d11);
                __ad_d8_a += __ad_rules::sub_grad_lhs(__ad_d10);
                __ad_d9_b += __ad_rules::sub_grad_rhs(__ad_d10);
                __ad_d_y[__ad_v7_i] += __ad_d9_b;
                __ad_d_x[__ad_v7_i] += __ad_d8_a;
                __ad_c0_sum = __ad_v13;
            }
            let __ad_v14_sum = __ad_c0_sum;
            (__ad_v14_sum, __ad_d_x, __ad_d_y)
        };
        let __ad_result = __ad_v14_sum;
        let mut __ad_d_x = __ad_u0__x;
        let mut __ad_d_y = __ad_u0__y;
        let __ad_d14_sum = __ad_seed;
        let __ad_dc0_sum = __ad_d14_sum;
        if __ad_dc0_sum == 1.0 {} else {
            __ad_d_x.fill(0.0);
            __ad_d_y.fill(0.0);
            let mut __ad_dc0_sum = __ad_d14_sum;
            for __ad_v7_i in ::core::iter::Iterator::rev(0..__ad_v4) {
                let __ad_v8_a = x[__ad_v7_i];
                let __ad_v9_b = y[__ad_v7_i];
                let __ad_v10 = __ad_v8_a - __ad_v9_b;
                let __ad_v11 = __ad_v8_a - __ad_v9_b;
                let __ad_d13 = __ad_dc0_sum;
                let __ad_d6_sum = __ad_rules::add_grad_lhs(__ad_d13);
                let __ad_d12 = __ad_rules::add_grad_rhs(__ad_d13);
                let __ad_d10 = __ad_rules::mul_grad_lhs(__ad_d12, __ad_v11);
                let __ad_d11 = __ad_rules::mul_grad_rhs(__ad_d12, __ad_v10);
                let mut __ad_d8_a = __ad_rules::sub_grad_lhs(__ad_d11);
                let mut __ad_d9_b = __ad_rules::sub_grad_rhs(__ad_d11);
                __ad_d8_a += __ad_rules::sub_grad_lhs(__ad_d10);
                __ad_d9_b += __ad_rules::sub_grad_rhs(__ad_d10);
                __ad_d_y[__ad_v7_i] += __ad_d9_b;
                __ad_d_x[__ad_v7_i] += __ad_d8_a;
                __ad_dc0_sum = __ad_d6_sum;
            }
        }
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'x, 'y>(
        x: &'x [f64],
        y: &'y [f64],
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (
                ::autograd::__private::Vec<f64>,
                ::autograd::__private::Vec<f64>,
            ) + use<'x, 'y>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (
                ::autograd::__private::zeros_like_slice(x),
                ::autograd::__private::zeros_like_slice(y),
            ),
            move |__ad_b, __ad_seed| squared_distance::__grad_acc_full(
                x,
                y,
                &mut __ad_b.0,
                &mut __ad_b.1,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`squared_distance`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `squared_distance` returns.*/
#[inline]
fn squared_distance_vjp<'x, 'y>(
    x: &'x [f64],
    y: &'y [f64],
) -> (
    f64,
    impl ::core::ops::FnOnce(
        f64,
    ) -> (::autograd::__private::Vec<f64>, ::autograd::__private::Vec<f64>) + use<'x, 'y>,
) {
    squared_distance::__vjp_full(x, y)
}
/** The value of [`squared_distance`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `squared_distance_vjp` with seed 1.*/
#[inline]
fn squared_distance_grad<'x, 'y>(
    x: &'x [f64],
    y: &'y [f64],
) -> (f64, ::autograd::__private::Vec<f64>, ::autograd::__private::Vec<f64>) {
    ::autograd::__private::grad(squared_distance::__vjp_full(x, y))
}
/** The value of [`squared_distance`], its gradient added into one buffer per differentiable argument (`d_x += ∂squared_distance/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn squared_distance_grad_acc<'x, 'y>(
    x: &'x [f64],
    y: &'y [f64],
    d_x: &mut [f64],
    d_y: &mut [f64],
) -> f64 {
    squared_distance::__grad_acc_full(x, y, d_x, d_y, 1.0)
}
/** Compares [`squared_distance_grad`] at this point with central finite differences of [`squared_distance`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn squared_distance_check<'x, 'y>(
    x: &'x [f64],
    y: &'y [f64],
) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x, __ad_d_y) = squared_distance_grad(x, y);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("x", x, &__ad_d_x, |x| squared_distance(x, y));
    __ad_check.slice("y", y, &__ad_d_y, |y| squared_distance(x, y));
    __ad_check
}
