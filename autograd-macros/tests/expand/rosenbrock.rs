fn rosenbrock(x: &[f64]) -> f64 {
    let mut s = 0.0;
    for i in 0..x.len() - 1 {
        let a = 1.0 - x[i];
        let b = x[i + 1] - x[i] * x[i];
        s += a * a + 100.0 * b * b;
    }
    s
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct rosenbrock {}
#[doc(hidden)]
impl rosenbrock {
    #[doc(hidden)]
    #[allow(non_upper_case_globals)]
    const __PARAMS: &[&str] = &["x"];
    #[doc(hidden)]
    #[inline(always)]
    fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&rosenbrock),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
    fn __grad_acc_full<'x>(x: &'x [f64], __ad_b_x: &mut [f64], __ad_seed: f64) -> f64 {
        let _ = rosenbrock;
        use ::autograd::__private::rules as __ad_rules;
        ::autograd::__private::check_buffer(__ad_b_x, x.len());
        let __ad_v1_s = 0.0;
        let __ad_v2 = x.len();
        let __ad_v3 = __ad_v2 - 1;
        let (__ad_v17_s, __ad_u0__x) = {
            let mut __ad_d_x = &mut *__ad_b_x;
            let mut __ad_dw0_x_0 = 0.0;
            let mut __ad_c0_s = __ad_v1_s;
            for __ad_v5_i in 0..__ad_v3 {
                let __ad_v4_s = __ad_c0_s;
                let __ad_v6 = x[__ad_v5_i];
                let __ad_v7_a = 1.0 - __ad_v6;
                let __ad_v8 = __ad_v5_i + 1;
                let __ad_v9 = x[__ad_v8];
                let __ad_v10 = __ad_v6 * __ad_v6;
                let __ad_v11_b = __ad_v9 - __ad_v10;
                let __ad_v12 = __ad_v7_a * __ad_v7_a;
                let __ad_v13 = 100.0 * __ad_v11_b;
                let __ad_v14 = __ad_v13 * __ad_v11_b;
                let __ad_v15 = __ad_v12 + __ad_v14;
                let __ad_v16_s = __ad_v4_s + __ad_v15;
                let __ad_d16_s = 1.0;
                let __ad_d4_s = __ad_rules::add_grad_lhs(__ad_d16_s);
                let __ad_d15 = __ad_rules::add_grad_rhs(__ad_d16_s);
                let __ad_d12 = __ad_rules::add_grad_lhs(__ad_d15);
                let __ad_d14 = __ad_rules::add_grad_rhs(__ad_d15);
                let __ad_d13 = __ad_rules::mul_grad_lhs(__ad_d14, __ad_v11_b);
                let mut __ad_d11_b = __ad_rules::mul_grad_rhs(__ad_d14, __ad_v13);
                __ad_d11_b += __ad_rules::mul_grad_rhs(__ad_d13, 100.0);
                let mut __ad_d7_a = __ad_rules::mul_grad_lhs(__ad_d12, __ad_v7_a);
                __ad_d7_a += __ad_rules::mul_grad_rhs(__ad_d12, __ad_v7_a);
                let __ad_d9 = __ad_rules::sub_grad_lhs(__ad_d11_b);
                let __ad_d10 = __ad_rules::sub_grad_rhs(__ad_d11_b);
                let mut __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d10, __ad_v6);
                __ad_d6 += __ad_rules::mul_grad_rhs(__ad_d10, __ad_v6);
                let mut __ad_dw0_x_1 = __ad_d9;
                __ad_d6 += __ad_rules::sub_grad_rhs(__ad_d7_a);
                __ad_dw0_x_0 += __ad_d6;
                __ad_d_x[__ad_v5_i] += __ad_dw0_x_0;
                __ad_dw0_x_0 = __ad_dw0_x_1;
                __ad_c0_s = __ad_v16_s;
            }
            let __ad_v17_s = __ad_c0_s;
            if !(0..__ad_v3).is_empty() {
                __ad_d_x[__ad_v3] += __ad_dw0_x_0;
            }
            (__ad_v17_s, __ad_d_x)
        };
        let __ad_result = __ad_v17_s;
        let mut __ad_d_x = __ad_u0__x;
        let __ad_d17_s = __ad_seed;
        let __ad_dc0_s = __ad_d17_s;
        if __ad_dc0_s == 1.0 {} else {
            __ad_d_x.fill(0.0);
            let mut __ad_dc0_s = __ad_d17_s;
            let mut __ad_dw0_x_1 = 0.0;
            for __ad_v5_i in ::core::iter::Iterator::rev(0..__ad_v3) {
                let __ad_v6 = x[__ad_v5_i];
                let __ad_v7_a = 1.0 - __ad_v6;
                let __ad_v8 = __ad_v5_i + 1;
                let __ad_v9 = x[__ad_v8];
                let __ad_v10 = __ad_v6 * __ad_v6;
                let __ad_v11_b = __ad_v9 - __ad_v10;
                let __ad_v13 = 100.0 * __ad_v11_b;
                let mut __ad_dw0_x_0 = 0.0;
                let __ad_d16_s = __ad_dc0_s;
                let __ad_d4_s = __ad_rules::add_grad_lhs(__ad_d16_s);
                let __ad_d15 = __ad_rules::add_grad_rhs(__ad_d16_s);
                let __ad_d12 = __ad_rules::add_grad_lhs(__ad_d15);
                let __ad_d14 = __ad_rules::add_grad_rhs(__ad_d15);
                let __ad_d13 = __ad_rules::mul_grad_lhs(__ad_d14, __ad_v11_b);
                let mut __ad_d11_b = __ad_rules::mul_grad_rhs(__ad_d14, __ad_v13);
                __ad_d11_b += __ad_rules::mul_grad_rhs(__ad_d13, 100.0);
                let mut __ad_d7_a = __ad_rules::mul_grad_lhs(__ad_d12, __ad_v7_a);
                __ad_d7_a += __ad_rules::mul_grad_rhs(__ad_d12, __ad_v7_a);
                let __ad_d9 = __ad_rules::sub_grad_lhs(__ad_d11_b);
                let __ad_d10 = __ad_rules::sub_grad_rhs(__ad_d11_b);
                let mut __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d10, __ad_v6);
                __ad_d6 += __ad_rules::mul_grad_rhs(__ad_d10, __ad_v6);
                __ad_dw0_x_1 += __ad_d9;
                __ad_d6 += __ad_rules::sub_grad_rhs(__ad_d7_a);
                __ad_dw0_x_0 += __ad_d6;
                __ad_d_x[__ad_v8] += __ad_dw0_x_1;
                __ad_dw0_x_1 = __ad_dw0_x_0;
                __ad_dc0_s = __ad_d4_s;
            }
            if !(0..__ad_v3).is_empty() {
                __ad_d_x[0] += __ad_dw0_x_1;
            }
        }
        __ad_result
    }
    #[doc(hidden)]
    #[inline]
    fn __vjp_full<'x>(
        x: &'x [f64],
    ) -> (
        f64,
        impl ::core::ops::FnOnce(f64) -> (::autograd::__private::Vec<f64>,) + use<'x>,
    ) {
        ::autograd::__private::vjp_by_acc(
            (::autograd::__private::zeros_like_slice(x),),
            move |__ad_b, __ad_seed| rosenbrock::__grad_acc_full(
                x,
                &mut __ad_b.0,
                __ad_seed,
            ),
        )
    }
}
/** The value of [`rosenbrock`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `rosenbrock` returns.*/
#[inline]
fn rosenbrock_vjp<'x>(
    x: &'x [f64],
) -> (
    f64,
    impl ::core::ops::FnOnce(f64) -> (::autograd::__private::Vec<f64>,) + use<'x>,
) {
    rosenbrock::__vjp_full(x)
}
/** The value of [`rosenbrock`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `rosenbrock_vjp` with seed 1.*/
#[inline]
fn rosenbrock_grad<'x>(x: &'x [f64]) -> (f64, ::autograd::__private::Vec<f64>) {
    ::autograd::__private::grad(rosenbrock::__vjp_full(x))
}
/** The value of [`rosenbrock`], its gradient added into one buffer per differentiable argument (`d_x += ∂rosenbrock/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
#[inline]
fn rosenbrock_grad_acc<'x>(x: &'x [f64], d_x: &mut [f64]) -> f64 {
    rosenbrock::__grad_acc_full(x, d_x, 1.0)
}
/** Compares [`rosenbrock_grad`] at this point with central finite differences of [`rosenbrock`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
#[inline]
fn rosenbrock_check<'x>(x: &'x [f64]) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_d_x) = rosenbrock_grad(x);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    __ad_check.slice("x", x, &__ad_d_x, |x| rosenbrock(x));
    __ad_check
}
