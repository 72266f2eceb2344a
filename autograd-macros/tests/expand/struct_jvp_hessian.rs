fn line(p: &Params, x: f64) -> f64 {
    (p.slope * x).sin() + p.w[0] * p.intercept
}
#[doc(hidden)]
#[allow(dead_code, unused_imports, non_snake_case, clippy::all)]
mod __autograd_flat_line {
    use super::*;
    pub fn line(
        __ad_p_slope: f64,
        __ad_p_w: &[f64],
        __ad_p_intercept: f64,
        x: f64,
    ) -> f64 {
        (__ad_p_slope * x).sin() + __ad_p_w[0] * __ad_p_intercept
    }
    #[doc(hidden)]
    #[allow(non_camel_case_types, dead_code)]
    pub struct line {}
    #[doc(hidden)]
    impl line {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        pub const __PARAMS: &[&str] = &[
            "__ad_p_slope",
            "__ad_p_w",
            "__ad_p_intercept",
            "x",
        ];
        #[doc(hidden)]
        #[inline(always)]
        pub fn __same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
            ::autograd::__private::same_function(
                called,
                ::autograd::__private::type_id_of(&line),
            )
        }
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
        pub fn __grad_acc_full<'__ad_p_w>(
            __ad_p_slope: f64,
            __ad_p_w: &'__ad_p_w [f64],
            __ad_p_intercept: f64,
            x: f64,
            __ad_b___ad_p_slope: &mut f64,
            __ad_b___ad_p_w: &mut [f64],
            __ad_b___ad_p_intercept: &mut f64,
            __ad_b_x: &mut f64,
            __ad_seed: f64,
        ) -> f64 {
            let _ = line;
            use ::autograd::__private::rules as __ad_rules;
            ::autograd::__private::check_buffer(__ad_b___ad_p_w, __ad_p_w.len());
            let __ad_v4 = __ad_p_slope * x;
            let __ad_v5 = __ad_v4.sin();
            let __ad_v6 = __ad_p_w[0];
            let __ad_v7 = __ad_v6 * __ad_p_intercept;
            let __ad_v8 = __ad_v5 + __ad_v7;
            let __ad_result = __ad_v8;
            let mut __ad_d___ad_p_w = __ad_b___ad_p_w;
            let __ad_d8 = __ad_seed;
            let __ad_d5 = __ad_rules::add_grad_lhs(__ad_d8);
            let __ad_d7 = __ad_rules::add_grad_rhs(__ad_d8);
            let __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d7, __ad_p_intercept);
            let __ad_d___ad_p_intercept = __ad_rules::mul_grad_rhs(__ad_d7, __ad_v6);
            __ad_d___ad_p_w[0] += __ad_d6;
            let __ad_d4 = __ad_rules::sin_grad(__ad_d5, __ad_v4);
            let __ad_d___ad_p_slope = __ad_rules::mul_grad_lhs(__ad_d4, x);
            let __ad_d_x = __ad_rules::mul_grad_rhs(__ad_d4, __ad_p_slope);
            *__ad_b___ad_p_slope += __ad_d___ad_p_slope;
            *__ad_b___ad_p_intercept += __ad_d___ad_p_intercept;
            *__ad_b_x += __ad_d_x;
            __ad_result
        }
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut)]
        pub fn __vjp_full<'__ad_p_w>(
            __ad_p_slope: f64,
            __ad_p_w: &'__ad_p_w [f64],
            __ad_p_intercept: f64,
            x: f64,
        ) -> (
            f64,
            impl ::core::ops::FnOnce(
                f64,
            ) -> (f64, ::autograd::__private::Vec<f64>, f64, f64) + use<'__ad_p_w>,
        ) {
            let mut __ad_b___ad_p_slope = 0.0;
            let mut __ad_b___ad_p_w = ::autograd::__private::zeros_like_slice(__ad_p_w);
            let mut __ad_b___ad_p_intercept = 0.0;
            let mut __ad_b_x = 0.0;
            let __ad_value = line::__grad_acc_full(
                __ad_p_slope,
                __ad_p_w,
                __ad_p_intercept,
                x,
                &mut __ad_b___ad_p_slope,
                &mut __ad_b___ad_p_w,
                &mut __ad_b___ad_p_intercept,
                &mut __ad_b_x,
                1.0,
            );
            (
                __ad_value,
                move |__ad_seed: f64| {
                    if ::autograd::__private::rules::Real::is_finite(__ad_seed) {
                        __ad_b___ad_p_slope = ::autograd::__private::Seeded::seeded(
                            __ad_b___ad_p_slope,
                            __ad_seed,
                        );
                        __ad_b___ad_p_w = ::autograd::__private::Seeded::seeded(
                            __ad_b___ad_p_w,
                            __ad_seed,
                        );
                        __ad_b___ad_p_intercept = ::autograd::__private::Seeded::seeded(
                            __ad_b___ad_p_intercept,
                            __ad_seed,
                        );
                        __ad_b_x = ::autograd::__private::Seeded::seeded(
                            __ad_b_x,
                            __ad_seed,
                        );
                    } else {
                        __ad_b___ad_p_slope = 0.0;
                        __ad_b___ad_p_w.fill(0.0);
                        __ad_b___ad_p_intercept = 0.0;
                        __ad_b_x = 0.0;
                        line::__grad_acc_full(
                            __ad_p_slope,
                            __ad_p_w,
                            __ad_p_intercept,
                            x,
                            &mut __ad_b___ad_p_slope,
                            &mut __ad_b___ad_p_w,
                            &mut __ad_b___ad_p_intercept,
                            &mut __ad_b_x,
                            __ad_seed,
                        );
                    }
                    (
                        __ad_b___ad_p_slope,
                        __ad_b___ad_p_w,
                        __ad_b___ad_p_intercept,
                        __ad_b_x,
                    )
                },
            )
        }
    }
    /** The value of [`line`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order.

 Generated by `#[differentiable]`; the value is bit for bit what `line` returns.*/
    #[inline]
    pub fn line_vjp<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> (f64, ::autograd::__private::Vec<f64>, f64, f64) + use<'__ad_p_w>,
    ) {
        line::__vjp_full(__ad_p_slope, __ad_p_w, __ad_p_intercept, x)
    }
    /** The value of [`line`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `line_vjp` with seed 1.*/
    #[inline]
    pub fn line_grad<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
    ) -> (f64, f64, ::autograd::__private::Vec<f64>, f64, f64) {
        ::autograd::__private::grad(
            line::__vjp_full(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
        )
    }
    /** The value of [`line`], its gradient added into one buffer per differentiable argument (`d_x += ∂line/∂x`), in argument order: nothing is allocated for the result, so a loop over data points or an optimizer reuses its buffers.

 Generated by `#[differentiable]`.

 # Panics

 If a slice buffer's length or a matrix buffer's shape is not its argument's.*/
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn line_grad_acc<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
        d___ad_p_slope: &mut f64,
        d___ad_p_w: &mut [f64],
        d___ad_p_intercept: &mut f64,
        d_x: &mut f64,
    ) -> f64 {
        line::__grad_acc_full(
            __ad_p_slope,
            __ad_p_w,
            __ad_p_intercept,
            x,
            d___ad_p_slope,
            d___ad_p_w,
            d___ad_p_intercept,
            d_x,
            1.0,
        )
    }
    /** Compares [`line_grad`] at this point with central finite differences of [`line`], component by component.

 Generated by `#[differentiable]`; see `autograd::GradientCheck` for the step and tolerance policy.*/
    #[inline]
    pub fn line_check<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
    ) -> ::autograd::GradientCheck {
        let (
            __ad__value,
            __ad__d___ad_p_slope,
            __ad__d___ad_p_w,
            __ad__d___ad_p_intercept,
            __ad__d_x,
        ) = line_grad(__ad_p_slope, __ad_p_w, __ad_p_intercept, x);
        let mut __ad__check = ::autograd::GradientCheck::new(
            ::autograd::__private::to_f64(__ad__value),
        );
        __ad__check
            .scalar(
                "__ad_p_slope",
                __ad_p_slope,
                __ad__d___ad_p_slope,
                |__ad_p_slope| line(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
            );
        __ad__check
            .slice(
                "__ad_p_w",
                __ad_p_w,
                &__ad__d___ad_p_w,
                |__ad_p_w| line(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
            );
        __ad__check
            .scalar(
                "__ad_p_intercept",
                __ad_p_intercept,
                __ad__d___ad_p_intercept,
                |__ad_p_intercept| line(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
            );
        __ad__check
            .scalar(
                "x",
                x,
                __ad__d_x,
                |x| line(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
            );
        __ad__check
    }
    #[doc(hidden)]
    impl line {
        #[doc(hidden)]
        #[inline]
        #[allow(
            unused_variables,
            unused_mut,
            unused_parens,
            unused_assignments,
            clippy::all
        )]
        pub fn __jvp_full<'__ad_p_w>(
            __ad_p_slope: f64,
            __ad_p_w: &'__ad_p_w [f64],
            __ad_p_intercept: f64,
            x: f64,
            __ad_t___ad_p_slope: f64,
            __ad_t___ad_p_w: &[f64],
            __ad_t___ad_p_intercept: f64,
            __ad_t_x: f64,
        ) -> (f64, f64) {
            use ::autograd::__private::rules as __ad_rules;
            ::autograd::__private::slice_tangent(__ad_p_w.len(), __ad_t___ad_p_w);
            let __ad_v4 = __ad_p_slope * x;
            let __ad_t4 = __ad_rules::mul_tangent(
                __ad_t___ad_p_slope,
                __ad_t_x,
                __ad_p_slope,
                x,
            );
            let __ad_v5 = __ad_v4.sin();
            let __ad_t5 = __ad_rules::sin_tangent(__ad_t4, __ad_v4);
            let __ad_v6 = __ad_p_w[0];
            let __ad_t6 = __ad_t___ad_p_w[0];
            let __ad_v7 = __ad_v6 * __ad_p_intercept;
            let __ad_t7 = __ad_rules::mul_tangent(
                __ad_t6,
                __ad_t___ad_p_intercept,
                __ad_v6,
                __ad_p_intercept,
            );
            let __ad_v8 = __ad_v5 + __ad_v7;
            let __ad_t8 = __ad_rules::add_tangent(__ad_t5, __ad_t7);
            let __ad_tr = __ad_t8;
            (__ad_v8, __ad_tr)
        }
    }
    #[doc(hidden)]
    impl line {
        #[doc(hidden)]
        #[inline]
        #[allow(
            unused_variables,
            unused_mut,
            unused_parens,
            unused_assignments,
            clippy::all
        )]
        pub fn __jvp_lanes<'__ad_p_w>(
            __ad_p_slope: f64,
            __ad_p_w: &'__ad_p_w [f64],
            __ad_p_intercept: f64,
            x: f64,
            __ad_t___ad_p_slope: ::autograd::__private::LaneTangentOf<f64>,
            __ad_t___ad_p_w: &[::autograd::__private::LaneTangentOf<f64>],
            __ad_t___ad_p_intercept: ::autograd::__private::LaneTangentOf<f64>,
            __ad_t_x: ::autograd::__private::LaneTangentOf<f64>,
        ) -> ::core::option::Option<(f64, ::autograd::__private::LaneTangentOf<f64>)> {
            use ::autograd::__private::rules as __ad_rules;
            ::autograd::__private::slice_tangent(__ad_p_w.len(), __ad_t___ad_p_w);
            let __ad_v4 = __ad_p_slope * x;
            let __ad_t4 = ::autograd::__private::per_lane(|__ad_lane| __ad_rules::mul_tangent(
                __ad_t___ad_p_slope[__ad_lane],
                __ad_t_x[__ad_lane],
                __ad_p_slope,
                x,
            ));
            let __ad_v5 = __ad_v4.sin();
            let __ad_t5 = ::autograd::__private::per_lane(|__ad_lane| __ad_rules::sin_tangent(
                __ad_t4[__ad_lane],
                __ad_v4,
            ));
            let __ad_v6 = __ad_p_w[0];
            let __ad_t6 = __ad_t___ad_p_w[0];
            let __ad_v7 = __ad_v6 * __ad_p_intercept;
            let __ad_t7 = ::autograd::__private::per_lane(|__ad_lane| __ad_rules::mul_tangent(
                __ad_t6[__ad_lane],
                __ad_t___ad_p_intercept[__ad_lane],
                __ad_v6,
                __ad_p_intercept,
            ));
            let __ad_v8 = __ad_v5 + __ad_v7;
            let __ad_t8 = ::autograd::__private::per_lane(|__ad_lane| __ad_rules::add_tangent(
                __ad_t5[__ad_lane],
                __ad_t7[__ad_lane],
            ));
            let __ad_tr = __ad_t8;
            ::core::option::Option::Some((__ad_v8, __ad_tr))
        }
    }
    #[doc(hidden)]
    #[diagnostic::do_not_recommend]
    #[allow(clippy::type_complexity)]
    impl ::autograd::__private::ForwardMode for line {
        type Fn = for<'__ad_p_w> fn(
            f64,
            &'__ad_p_w [f64],
            f64,
            f64,
            f64,
            &[f64],
            f64,
            f64,
        ) -> (f64, f64);
        const JVP: Self::Fn = line::__jvp_full;
        type Lanes = for<'__ad_p_w> fn(
            f64,
            &'__ad_p_w [f64],
            f64,
            f64,
            ::autograd::__private::LaneTangentOf<f64>,
            &[::autograd::__private::LaneTangentOf<f64>],
            ::autograd::__private::LaneTangentOf<f64>,
            ::autograd::__private::LaneTangentOf<f64>,
        ) -> ::core::option::Option<(f64, ::autograd::__private::LaneTangentOf<f64>)>;
        const JVP_LANES: Self::Lanes = line::__jvp_lanes;
    }
    /** The value of [`line`] and its directional derivative: one tangent per differentiable argument, in argument order, gives the result's tangent `J·ẋ` in one forward sweep.

 Generated by `#[differentiable(jvp)]`; the value is bit for bit what `line` returns.

 # Panics

 If a slice's tangent has another length than the slice.*/
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn line_jvp<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
        d___ad_p_slope: f64,
        d___ad_p_w: &[f64],
        d___ad_p_intercept: f64,
        d_x: f64,
    ) -> (f64, f64) {
        let _ = line;
        line::__jvp_full(
            __ad_p_slope,
            __ad_p_w,
            __ad_p_intercept,
            x,
            d___ad_p_slope,
            d___ad_p_w,
            d___ad_p_intercept,
            d_x,
        )
    }
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
    pub fn __ad_hessian_line<__AdScalar: ::autograd::__private::Float + 'static>(
        __ad_p_slope: __AdScalar,
        __ad_p_w: &[__AdScalar],
        __ad_p_intercept: __AdScalar,
        x: __AdScalar,
    ) -> __AdScalar {
        __ad_hessian_line::__vjp_full(__ad_p_slope, __ad_p_w, __ad_p_intercept, x).0
    }
    #[allow(non_camel_case_types, dead_code)]
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
    pub struct __ad_hessian_line {}
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
    impl __ad_hessian_line {
        #[doc(hidden)]
        #[allow(non_upper_case_globals)]
        pub const __PARAMS: &[&str] = &[
            "__ad_p_slope",
            "__ad_p_w",
            "__ad_p_intercept",
            "x",
        ];
        #[doc(hidden)]
        #[inline(always)]
        pub fn __same_callee<
            __AdScalar: ::autograd::__private::Float + 'static,
            Called: ::core::ops::Fn(
                    __AdScalar,
                    &[__AdScalar],
                    __AdScalar,
                    __AdScalar,
                ) -> __AdScalar,
            Pullback,
        >(called: &Called, _: &__AdScalar, _: &Pullback) {
            ::autograd::__private::same_generic_function(
                called,
                ::core::any::type_name_of_val(&__ad_hessian_line::<__AdScalar>),
            )
        }
        #[doc(hidden)]
        #[inline]
        #[allow(unused_variables, unused_mut, unused_parens, clippy::all)]
        pub fn __grad_acc_full<
            '__ad_p_w,
            __AdScalar: ::autograd::__private::Float + 'static,
        >(
            __ad_p_slope: __AdScalar,
            __ad_p_w: &'__ad_p_w [__AdScalar],
            __ad_p_intercept: __AdScalar,
            x: __AdScalar,
            __ad_b___ad_p_slope: &mut __AdScalar,
            __ad_b___ad_p_w: &mut [__AdScalar],
            __ad_b___ad_p_intercept: &mut __AdScalar,
            __ad_b_x: &mut __AdScalar,
            __ad_seed: __AdScalar,
        ) -> __AdScalar {
            let _ = __ad_hessian_line::<__AdScalar>;
            use ::autograd::__private::rules as __ad_rules;
            ::autograd::__private::check_buffer(__ad_b___ad_p_w, __ad_p_w.len());
            let __ad_v4 = __ad_p_slope * x;
            let __ad_v5 = __ad_v4.sin();
            let __ad_v6 = __ad_p_w[0];
            let __ad_v7 = __ad_v6 * __ad_p_intercept;
            let __ad_v8 = __ad_v5 + __ad_v7;
            let __ad_result = __ad_v8;
            let mut __ad_d___ad_p_w = __ad_b___ad_p_w;
            let __ad_d8 = __ad_seed;
            let __ad_d5 = __ad_rules::add_grad_lhs(__ad_d8);
            let __ad_d7 = __ad_rules::add_grad_rhs(__ad_d8);
            let __ad_d6 = __ad_rules::mul_grad_lhs(__ad_d7, __ad_p_intercept);
            let __ad_d___ad_p_intercept = __ad_rules::mul_grad_rhs(__ad_d7, __ad_v6);
            __ad_d___ad_p_w[0] = __ad_d___ad_p_w[0] + (__ad_d6);
            let __ad_d4 = __ad_rules::sin_grad(__ad_d5, __ad_v4);
            let __ad_d___ad_p_slope = __ad_rules::mul_grad_lhs(__ad_d4, x);
            let __ad_d_x = __ad_rules::mul_grad_rhs(__ad_d4, __ad_p_slope);
            *__ad_b___ad_p_slope = *__ad_b___ad_p_slope + (__ad_d___ad_p_slope);
            *__ad_b___ad_p_intercept = *__ad_b___ad_p_intercept
                + (__ad_d___ad_p_intercept);
            *__ad_b_x = *__ad_b_x + (__ad_d_x);
            __ad_result
        }
        #[doc(hidden)]
        #[inline]
        #[allow(unused_mut)]
        pub fn __vjp_full<'__ad_p_w, __AdScalar: ::autograd::__private::Float + 'static>(
            __ad_p_slope: __AdScalar,
            __ad_p_w: &'__ad_p_w [__AdScalar],
            __ad_p_intercept: __AdScalar,
            x: __AdScalar,
        ) -> (
            __AdScalar,
            impl ::core::ops::FnOnce(
                __AdScalar,
            ) -> (
                    __AdScalar,
                    ::autograd::__private::Vec<__AdScalar>,
                    __AdScalar,
                    __AdScalar,
                ) + use<'__ad_p_w, __AdScalar>,
        ) {
            let mut __ad_b___ad_p_slope = <__AdScalar as ::autograd::__private::rules::Real>::zero();
            let mut __ad_b___ad_p_w = ::autograd::__private::zeros_like_slice(__ad_p_w);
            let mut __ad_b___ad_p_intercept = <__AdScalar as ::autograd::__private::rules::Real>::zero();
            let mut __ad_b_x = <__AdScalar as ::autograd::__private::rules::Real>::zero();
            let __ad_value = __ad_hessian_line::__grad_acc_full(
                __ad_p_slope,
                __ad_p_w,
                __ad_p_intercept,
                x,
                &mut __ad_b___ad_p_slope,
                &mut __ad_b___ad_p_w,
                &mut __ad_b___ad_p_intercept,
                &mut __ad_b_x,
                <__AdScalar as ::autograd::__private::rules::Real>::one(),
            );
            (
                __ad_value,
                move |__ad_seed: __AdScalar| {
                    if ::autograd::__private::rules::Real::is_finite(__ad_seed) {
                        __ad_b___ad_p_slope = ::autograd::__private::Seeded::seeded(
                            __ad_b___ad_p_slope,
                            __ad_seed,
                        );
                        __ad_b___ad_p_w = ::autograd::__private::Seeded::seeded(
                            __ad_b___ad_p_w,
                            __ad_seed,
                        );
                        __ad_b___ad_p_intercept = ::autograd::__private::Seeded::seeded(
                            __ad_b___ad_p_intercept,
                            __ad_seed,
                        );
                        __ad_b_x = ::autograd::__private::Seeded::seeded(
                            __ad_b_x,
                            __ad_seed,
                        );
                    } else {
                        __ad_b___ad_p_slope = <__AdScalar as ::autograd::__private::rules::Real>::zero();
                        __ad_b___ad_p_w
                            .fill(
                                <__AdScalar as ::autograd::__private::rules::Real>::zero(),
                            );
                        __ad_b___ad_p_intercept = <__AdScalar as ::autograd::__private::rules::Real>::zero();
                        __ad_b_x = <__AdScalar as ::autograd::__private::rules::Real>::zero();
                        __ad_hessian_line::__grad_acc_full(
                            __ad_p_slope,
                            __ad_p_w,
                            __ad_p_intercept,
                            x,
                            &mut __ad_b___ad_p_slope,
                            &mut __ad_b___ad_p_w,
                            &mut __ad_b___ad_p_intercept,
                            &mut __ad_b_x,
                            __ad_seed,
                        );
                    }
                    (
                        __ad_b___ad_p_slope,
                        __ad_b___ad_p_w,
                        __ad_b___ad_p_intercept,
                        __ad_b_x,
                    )
                },
            )
        }
    }
    #[inline]
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
    pub fn __ad_hessian_line_vjp<
        '__ad_p_w,
        __AdScalar: ::autograd::__private::Float + 'static,
    >(
        __ad_p_slope: __AdScalar,
        __ad_p_w: &'__ad_p_w [__AdScalar],
        __ad_p_intercept: __AdScalar,
        x: __AdScalar,
    ) -> (
        __AdScalar,
        impl ::core::ops::FnOnce(
            __AdScalar,
        ) -> (
                __AdScalar,
                ::autograd::__private::Vec<__AdScalar>,
                __AdScalar,
                __AdScalar,
            ) + use<'__ad_p_w, __AdScalar>,
    ) {
        __ad_hessian_line::__vjp_full(__ad_p_slope, __ad_p_w, __ad_p_intercept, x)
    }
    #[inline]
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
    pub fn __ad_hessian_line_grad<
        '__ad_p_w,
        __AdScalar: ::autograd::__private::Float + 'static,
    >(
        __ad_p_slope: __AdScalar,
        __ad_p_w: &'__ad_p_w [__AdScalar],
        __ad_p_intercept: __AdScalar,
        x: __AdScalar,
    ) -> (
        __AdScalar,
        __AdScalar,
        ::autograd::__private::Vec<__AdScalar>,
        __AdScalar,
        __AdScalar,
    ) {
        ::autograd::__private::grad(
            __ad_hessian_line::__vjp_full(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
        )
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
    pub fn __ad_hessian_line_grad_acc<
        '__ad_p_w,
        __AdScalar: ::autograd::__private::Float + 'static,
    >(
        __ad_p_slope: __AdScalar,
        __ad_p_w: &'__ad_p_w [__AdScalar],
        __ad_p_intercept: __AdScalar,
        x: __AdScalar,
        d___ad_p_slope: &mut __AdScalar,
        d___ad_p_w: &mut [__AdScalar],
        d___ad_p_intercept: &mut __AdScalar,
        d_x: &mut __AdScalar,
    ) -> __AdScalar {
        __ad_hessian_line::__grad_acc_full(
            __ad_p_slope,
            __ad_p_w,
            __ad_p_intercept,
            x,
            d___ad_p_slope,
            d___ad_p_w,
            d___ad_p_intercept,
            d_x,
            <__AdScalar as ::autograd::__private::rules::Real>::one(),
        )
    }
    #[inline]
    #[doc(hidden)]
    #[allow(dead_code, non_snake_case, unused_mut, clippy::all)]
    pub fn __ad_hessian_line_check<
        '__ad_p_w,
        __AdScalar: ::autograd::__private::Float + 'static,
    >(
        __ad_p_slope: __AdScalar,
        __ad_p_w: &'__ad_p_w [__AdScalar],
        __ad_p_intercept: __AdScalar,
        x: __AdScalar,
    ) -> ::autograd::GradientCheck {
        let (
            __ad__value,
            __ad__d___ad_p_slope,
            __ad__d___ad_p_w,
            __ad__d___ad_p_intercept,
            __ad__d_x,
        ) = __ad_hessian_line_grad(__ad_p_slope, __ad_p_w, __ad_p_intercept, x);
        let mut __ad__check = ::autograd::GradientCheck::new(
            ::autograd::__private::to_f64(__ad__value),
        );
        __ad__check
            .scalar(
                "__ad_p_slope",
                __ad_p_slope,
                __ad__d___ad_p_slope,
                |__ad_p_slope| __ad_hessian_line(
                    __ad_p_slope,
                    __ad_p_w,
                    __ad_p_intercept,
                    x,
                ),
            );
        __ad__check
            .slice(
                "__ad_p_w",
                __ad_p_w,
                &__ad__d___ad_p_w,
                |__ad_p_w| __ad_hessian_line(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
            );
        __ad__check
            .scalar(
                "__ad_p_intercept",
                __ad_p_intercept,
                __ad__d___ad_p_intercept,
                |__ad_p_intercept| __ad_hessian_line(
                    __ad_p_slope,
                    __ad_p_w,
                    __ad_p_intercept,
                    x,
                ),
            );
        __ad__check
            .scalar(
                "x",
                x,
                __ad__d_x,
                |x| __ad_hessian_line(__ad_p_slope, __ad_p_w, __ad_p_intercept, x),
            );
        __ad__check
    }
    #[doc(hidden)]
    #[diagnostic::do_not_recommend]
    impl<
        '__ad_p_w,
        __AdScalar: ::autograd::__private::Float + 'static,
    > ::autograd::__private::SecondOrder<
        __AdScalar,
        (__AdScalar, &'__ad_p_w [__AdScalar], __AdScalar, __AdScalar),
    > for line {
        type Adjoints = (
            __AdScalar,
            ::autograd::__private::Vec<__AdScalar>,
            __AdScalar,
            __AdScalar,
        );
        #[inline(always)]
        fn primal(
            (
                __ad_a0,
                __ad_a1,
                __ad_a2,
                __ad_a3,
            ): (__AdScalar, &'__ad_p_w [__AdScalar], __AdScalar, __AdScalar),
        ) -> __AdScalar {
            __ad_hessian_line(__ad_a0, __ad_a1, __ad_a2, __ad_a3)
        }
        #[inline(always)]
        fn vjp_full(
            (
                __ad_a0,
                __ad_a1,
                __ad_a2,
                __ad_a3,
            ): (__AdScalar, &'__ad_p_w [__AdScalar], __AdScalar, __AdScalar),
        ) -> (__AdScalar, impl ::core::ops::FnOnce(__AdScalar) -> Self::Adjoints) {
            __ad_hessian_line::__vjp_full(__ad_a0, __ad_a1, __ad_a2, __ad_a3)
        }
    }
    #[doc(hidden)]
    impl ::autograd::__private::HasSecondOrder for line {}
    /** The value of [`line`], its gradient and the Hessian-vector product `H·v`: one direction per differentiable argument, in argument order; returns the value, then one gradient entry per differentiable argument, then one `H·v` entry per differentiable argument (flat, like `line_grad`).

 Generated by `#[differentiable(hessian)]`: the reverse sweep run on dual numbers (forward over reverse), at about the cost of two gradients; the value is bit for bit what `line` returns, the gradient equal to `line_grad`'s to rounding (a loop `line_grad` runs as one fused pass sums in another order).

 # Panics

 If a slice direction's length is not its argument's.*/
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn line_hvp<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
        v___ad_p_slope: f64,
        v___ad_p_w: &[f64],
        v___ad_p_intercept: f64,
        v_x: f64,
    ) -> (
        f64,
        f64,
        ::autograd::__private::Vec<f64>,
        f64,
        f64,
        f64,
        ::autograd::__private::Vec<f64>,
        f64,
        f64,
    ) {
        let _ = line;
        let (
            __ad__value,
            __ad__d___ad_p_slope,
            __ad__d___ad_p_w,
            __ad__d___ad_p_intercept,
            __ad__d_x,
        ) = __ad_hessian_line_grad::<
            ::autograd::Dual<f64>,
        >(
            <::autograd::Dual<f64>>::new(__ad_p_slope, v___ad_p_slope),
            &::autograd::__private::dual_slice(__ad_p_w, v___ad_p_w),
            <::autograd::Dual<f64>>::new(__ad_p_intercept, v___ad_p_intercept),
            <::autograd::Dual<f64>>::new(x, v_x),
        );
        (
            __ad__value.re,
            ::autograd::__private::real_part(&__ad__d___ad_p_slope),
            ::autograd::__private::real_part(&__ad__d___ad_p_w),
            ::autograd::__private::real_part(&__ad__d___ad_p_intercept),
            ::autograd::__private::real_part(&__ad__d_x),
            ::autograd::__private::dual_part(&__ad__d___ad_p_slope),
            ::autograd::__private::dual_part(&__ad__d___ad_p_w),
            ::autograd::__private::dual_part(&__ad__d___ad_p_intercept),
            ::autograd::__private::dual_part(&__ad__d_x),
        )
    }
    /** The value of [`line`], its gradient and its Hessian, over the differentiable arguments flattened in argument order (a number one entry, a slice its elements, a matrix its entries column by column).

 Generated by `#[differentiable(hessian)]`: column j is the derivative of the gradient along input j, `autograd::lanes::HESSIAN_LANES` columns a reverse sweep (forward over reverse at a dual number of that many lanes, vector mode), the last n mod HESSIAN_LANES columns one `line_hvp` each: ⌊n / HESSIAN_LANES⌋ + n mod HESSIAN_LANES sweeps for n inputs, each column equal to `line_hvp` along its input. For a twice continuously differentiable function the result is symmetric up to rounding (not averaged: each column is exactly the derivative of `line_grad` along its input, which a `stop_gradient` can make asymmetric). The value is bit for bit what `line` returns.*/
    #[allow(clippy::too_many_arguments, clippy::all)]
    pub fn line_hessian<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
    ) -> (f64, ::autograd::nalgebra::DVector<f64>, ::autograd::nalgebra::DMatrix<f64>) {
        let __ad__offset0: usize = 0usize;
        let __ad__offset1: usize = __ad__offset0 + 1usize;
        let __ad__offset2: usize = __ad__offset1 + __ad_p_w.len();
        let __ad__offset3: usize = __ad__offset2 + 1usize;
        let __ad__n: usize = 0usize + 1usize + __ad_p_w.len() + 1usize + 1usize;
        let mut __ad__grad = ::autograd::nalgebra::DVector::<f64>::zeros(__ad__n);
        let mut __ad__h = ::autograd::nalgebra::DMatrix::<f64>::zeros(__ad__n, __ad__n);
        let mut __ad__value = ::core::option::Option::None;
        let __ad__lanes_end = __ad__n - __ad__n % ::autograd::__private::HESSIAN_LANES;
        for __ad__first in (0..__ad__lanes_end)
            .step_by(::autograd::__private::HESSIAN_LANES)
        {
            let __ad__seed = ::autograd::__private::LaneSeed::columns(__ad__first);
            let (
                __ad__v,
                __ad__d___ad_p_slope,
                __ad__d___ad_p_w,
                __ad__d___ad_p_intercept,
                __ad__d_x,
            ) = __ad_hessian_line_grad::<
                ::autograd::__private::HessianDual<f64>,
            >(
                ::autograd::__private::lane_scalar(
                    __ad_p_slope,
                    __ad__seed,
                    __ad__offset0,
                ),
                &::autograd::__private::lane_slice(__ad_p_w, __ad__seed, __ad__offset1),
                ::autograd::__private::lane_scalar(
                    __ad_p_intercept,
                    __ad__seed,
                    __ad__offset2,
                ),
                ::autograd::__private::lane_scalar(x, __ad__seed, __ad__offset3),
            );
            if __ad__value.is_none() {
                let mut __ad__column = ::autograd::__private::Vec::with_capacity(
                    __ad__n,
                );
                ::autograd::__private::push_lane_values(
                    &mut __ad__column,
                    &__ad__d___ad_p_slope,
                );
                ::autograd::__private::push_lane_values(
                    &mut __ad__column,
                    &__ad__d___ad_p_w,
                );
                ::autograd::__private::push_lane_values(
                    &mut __ad__column,
                    &__ad__d___ad_p_intercept,
                );
                ::autograd::__private::push_lane_values(&mut __ad__column, &__ad__d_x);
                __ad__grad = ::autograd::nalgebra::DVector::from_vec(__ad__column);
                __ad__value = ::core::option::Option::Some(__ad__v.re);
            }
            ::autograd::__private::put_lanes(
                __ad__h.as_mut_slice(),
                __ad__n,
                &__ad__d___ad_p_slope,
                __ad__offset0,
                __ad__seed,
            );
            ::autograd::__private::put_lanes(
                __ad__h.as_mut_slice(),
                __ad__n,
                &__ad__d___ad_p_w,
                __ad__offset1,
                __ad__seed,
            );
            ::autograd::__private::put_lanes(
                __ad__h.as_mut_slice(),
                __ad__n,
                &__ad__d___ad_p_intercept,
                __ad__offset2,
                __ad__seed,
            );
            ::autograd::__private::put_lanes(
                __ad__h.as_mut_slice(),
                __ad__n,
                &__ad__d_x,
                __ad__offset3,
                __ad__seed,
            );
        }
        for __ad__j in __ad__lanes_end..__ad__n {
            let (
                __ad__v,
                __ad__d___ad_p_slope,
                __ad__d___ad_p_w,
                __ad__d___ad_p_intercept,
                __ad__d_x,
                __ad__d_h___ad_p_slope,
                __ad__d_h___ad_p_w,
                __ad__d_h___ad_p_intercept,
                __ad__d_h_x,
            ) = line_hvp(
                __ad_p_slope,
                __ad_p_w,
                __ad_p_intercept,
                x,
                ::autograd::__private::unit_scalar::<f64>(__ad__j, __ad__offset0),
                &::autograd::__private::unit_slice::<
                    f64,
                >(__ad_p_w.len(), __ad__j, __ad__offset1),
                ::autograd::__private::unit_scalar::<f64>(__ad__j, __ad__offset2),
                ::autograd::__private::unit_scalar::<f64>(__ad__j, __ad__offset3),
            );
            if __ad__value.is_none() {
                let mut __ad__column = ::autograd::__private::Vec::with_capacity(
                    __ad__n,
                );
                ::autograd::__private::push_flat(
                    &mut __ad__column,
                    __ad__d___ad_p_slope,
                );
                ::autograd::__private::push_flat(&mut __ad__column, __ad__d___ad_p_w);
                ::autograd::__private::push_flat(
                    &mut __ad__column,
                    __ad__d___ad_p_intercept,
                );
                ::autograd::__private::push_flat(&mut __ad__column, __ad__d_x);
                __ad__grad = ::autograd::nalgebra::DVector::from_vec(__ad__column);
                __ad__value = ::core::option::Option::Some(__ad__v);
            }
            let mut __ad__column = ::autograd::__private::Vec::with_capacity(__ad__n);
            ::autograd::__private::push_flat(&mut __ad__column, __ad__d_h___ad_p_slope);
            ::autograd::__private::push_flat(&mut __ad__column, __ad__d_h___ad_p_w);
            ::autograd::__private::push_flat(
                &mut __ad__column,
                __ad__d_h___ad_p_intercept,
            );
            ::autograd::__private::push_flat(&mut __ad__column, __ad__d_h_x);
            __ad__h
                .set_column(
                    __ad__j,
                    &::autograd::nalgebra::DVector::from_vec(__ad__column),
                );
        }
        let __ad__value = match __ad__value {
            ::core::option::Option::Some(v) => v,
            ::core::option::Option::None => {
                line(__ad_p_slope, __ad_p_w, __ad_p_intercept, x)
            }
        };
        (__ad__value, __ad__grad, __ad__h)
    }
    #[doc(hidden)]
    #[allow(non_camel_case_types)]
    pub type line_grad = ::autograd::checks::not_generated::gradient_4<
        <::autograd::checks::GradientOfArrays as ::autograd::checks::GradientOfNumbers>::Gradient,
    >;
    /** The sparsity pattern of [`line`]'s Hessian at this point and its star colouring, for [`line_hessian_sparse`].

 Generated by `#[differentiable(hessian)]`: one run of `line` on `autograd::sparse::Tracer`, which records the pairs of inputs that interact non-linearly. The pattern is local: it holds at every point where `line` takes the branches it takes here; it is global (`is_global()`, it holds at every point) when the run decided nothing on a value that depends on the inputs (no comparison, `max`/`min` pick, `clamp` or integer conversion of one), or the pattern is dense. Structural, not numerical: an entry that happens to be 0 here is kept.*/
    #[allow(clippy::too_many_arguments, clippy::all)]
    pub fn line_hessian_pattern<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
    ) -> ::autograd::sparse::Coloring {
        let __ad__offset0: usize = 0usize;
        let __ad__offset1: usize = __ad__offset0 + 1usize;
        let __ad__offset2: usize = __ad__offset1 + __ad_p_w.len();
        let __ad__offset3: usize = __ad__offset2 + 1usize;
        let __ad__n: usize = 0usize + 1usize + __ad_p_w.len() + 1usize + 1usize;
        let __ad__session = ::autograd::sparse::Session::new(__ad__n);
        let __ad__traced = __ad_hessian_line::<
            ::autograd::sparse::Tracer,
        >(
            __ad__session.input(__ad_p_slope, __ad__offset0),
            &__ad__session.inputs(__ad_p_w, __ad__offset1),
            __ad__session.input(__ad_p_intercept, __ad__offset2),
            __ad__session.input(x, __ad__offset3),
        );
        __ad__session.hessian(__ad__traced)
    }
    /** The value of [`line`], its gradient and its Hessian as a sparse matrix of the pattern `coloring` holds ([`line_hessian_pattern`]), over the differentiable arguments flattened as in `line_hessian`.

 Generated by `#[differentiable(hessian)]`: the Hessian along the sum of each colour's unit directions, `autograd::lanes::HESSIAN_LANES` colours a reverse sweep (vector mode), the last colours mod HESSIAN_LANES one `line_hvp` each, the entries recovered from the products. Each stored entry equals `line_hessian`'s; entries outside the pattern are not computed.

 # Panics

 If `coloring` is not of this function's number of inputs.*/
    #[allow(clippy::too_many_arguments, clippy::all)]
    pub fn line_hessian_sparse<'__ad_p_w>(
        __ad_p_slope: f64,
        __ad_p_w: &'__ad_p_w [f64],
        __ad_p_intercept: f64,
        x: f64,
        coloring: &::autograd::sparse::Coloring,
    ) -> (
        f64,
        ::autograd::nalgebra::DVector<f64>,
        ::autograd::nalgebra_sparse::CscMatrix<f64>,
    ) {
        let __ad__n: usize = 0usize + 1usize + __ad_p_w.len() + 1usize + 1usize;
        ::core::assert_eq!(
            coloring.ncols(), __ad__n,
            "the colouring is of {} inputs, the function's arguments have {}", coloring
            .ncols(), __ad__n
        );
        let __ad__offset0: usize = 0usize;
        let __ad__offset1: usize = __ad__offset0 + 1usize;
        let __ad__offset2: usize = __ad__offset1 + __ad_p_w.len();
        let __ad__offset3: usize = __ad__offset2 + 1usize;
        let __ad__colors = coloring.colors();
        let mut __ad__compressed = ::autograd::__private::vec![
            0.0f64; __ad__n * __ad__colors
        ];
        let mut __ad__value = ::core::option::Option::None;
        let mut __ad__grad = ::autograd::nalgebra::DVector::<f64>::zeros(__ad__n);
        let __ad__lanes_end = __ad__colors
            - __ad__colors % ::autograd::__private::HESSIAN_LANES;
        for __ad__first in (0..__ad__lanes_end)
            .step_by(::autograd::__private::HESSIAN_LANES)
        {
            let __ad__lane_seed = ::autograd::__private::LaneSeed::colors(
                coloring.column_colors(),
                __ad__first,
            );
            let (
                __ad__v,
                __ad__d___ad_p_slope,
                __ad__d___ad_p_w,
                __ad__d___ad_p_intercept,
                __ad__d_x,
            ) = __ad_hessian_line_grad::<
                ::autograd::__private::HessianDual<f64>,
            >(
                ::autograd::__private::lane_scalar(
                    __ad_p_slope,
                    __ad__lane_seed,
                    __ad__offset0,
                ),
                &::autograd::__private::lane_slice(
                    __ad_p_w,
                    __ad__lane_seed,
                    __ad__offset1,
                ),
                ::autograd::__private::lane_scalar(
                    __ad_p_intercept,
                    __ad__lane_seed,
                    __ad__offset2,
                ),
                ::autograd::__private::lane_scalar(x, __ad__lane_seed, __ad__offset3),
            );
            if __ad__value.is_none() {
                let mut __ad__column = ::autograd::__private::Vec::with_capacity(
                    __ad__n,
                );
                ::autograd::__private::push_lane_values(
                    &mut __ad__column,
                    &__ad__d___ad_p_slope,
                );
                ::autograd::__private::push_lane_values(
                    &mut __ad__column,
                    &__ad__d___ad_p_w,
                );
                ::autograd::__private::push_lane_values(
                    &mut __ad__column,
                    &__ad__d___ad_p_intercept,
                );
                ::autograd::__private::push_lane_values(&mut __ad__column, &__ad__d_x);
                __ad__grad = ::autograd::nalgebra::DVector::from_vec(__ad__column);
                __ad__value = ::core::option::Option::Some(__ad__v.re);
            }
            ::autograd::__private::put_lanes(
                &mut __ad__compressed,
                __ad__n,
                &__ad__d___ad_p_slope,
                __ad__offset0,
                __ad__lane_seed,
            );
            ::autograd::__private::put_lanes(
                &mut __ad__compressed,
                __ad__n,
                &__ad__d___ad_p_w,
                __ad__offset1,
                __ad__lane_seed,
            );
            ::autograd::__private::put_lanes(
                &mut __ad__compressed,
                __ad__n,
                &__ad__d___ad_p_intercept,
                __ad__offset2,
                __ad__lane_seed,
            );
            ::autograd::__private::put_lanes(
                &mut __ad__compressed,
                __ad__n,
                &__ad__d_x,
                __ad__offset3,
                __ad__lane_seed,
            );
        }
        let mut __ad__seed = ::autograd::__private::vec![0.0f64; __ad__n];
        for __ad__c in __ad__lanes_end..__ad__colors.max(1) {
            if __ad__c < __ad__colors {
                coloring.seed_into(__ad__c, &mut __ad__seed);
            }
            let mut __ad__flat = __ad__seed.clone().into_iter();
            let (
                __ad__v,
                __ad__d___ad_p_slope,
                __ad__d___ad_p_w,
                __ad__d___ad_p_intercept,
                __ad__d_x,
                __ad__d_h___ad_p_slope,
                __ad__d_h___ad_p_w,
                __ad__d_h___ad_p_intercept,
                __ad__d_h_x,
            ) = line_hvp(
                __ad_p_slope,
                __ad_p_w,
                __ad_p_intercept,
                x,
                ::autograd::__private::take_scalar(&mut __ad__flat),
                &::autograd::__private::take_slice(&mut __ad__flat, __ad_p_w.len()),
                ::autograd::__private::take_scalar(&mut __ad__flat),
                ::autograd::__private::take_scalar(&mut __ad__flat),
            );
            if __ad__value.is_none() {
                let mut __ad__column = ::autograd::__private::Vec::with_capacity(
                    __ad__n,
                );
                ::autograd::__private::push_flat(
                    &mut __ad__column,
                    __ad__d___ad_p_slope,
                );
                ::autograd::__private::push_flat(&mut __ad__column, __ad__d___ad_p_w);
                ::autograd::__private::push_flat(
                    &mut __ad__column,
                    __ad__d___ad_p_intercept,
                );
                ::autograd::__private::push_flat(&mut __ad__column, __ad__d_x);
                __ad__grad = ::autograd::nalgebra::DVector::from_vec(__ad__column);
                __ad__value = ::core::option::Option::Some(__ad__v);
            }
            if __ad__c < __ad__colors {
                let mut __ad__column = ::autograd::__private::Vec::with_capacity(
                    __ad__n,
                );
                ::autograd::__private::push_flat(
                    &mut __ad__column,
                    __ad__d_h___ad_p_slope,
                );
                ::autograd::__private::push_flat(&mut __ad__column, __ad__d_h___ad_p_w);
                ::autograd::__private::push_flat(
                    &mut __ad__column,
                    __ad__d_h___ad_p_intercept,
                );
                ::autograd::__private::push_flat(&mut __ad__column, __ad__d_h_x);
                __ad__compressed[__ad__c * __ad__n..(__ad__c + 1) * __ad__n]
                    .copy_from_slice(&__ad__column);
            }
        }
        let __ad__value = match __ad__value {
            ::core::option::Option::Some(v) => v,
            ::core::option::Option::None => ::core::unreachable!("one product at least"),
        };
        (__ad__value, __ad__grad, coloring.recover(&__ad__compressed))
    }
}
/** The value of [`line`] and its pullback: the pullback takes the adjoint of the result (the seed) and returns the adjoints of the differentiable arguments, in argument order; a `Tangent` struct's adjoint is the struct.

 Generated by `#[differentiable]`.*/
#[allow(clippy::too_many_arguments)]
fn line_vjp(
    p: &Params,
    x: f64,
) -> (f64, impl ::core::ops::FnOnce(f64) -> (Params, f64)) {
    ::autograd::__private::vjp(__autograd_line_vjp(p, x))
}
#[doc(hidden)]
#[allow(clippy::too_many_arguments)]
fn __autograd_line_vjp(
    p: &Params,
    x: f64,
) -> (
    f64,
    impl ::core::ops::FnOnce(f64) -> ::autograd::__private::Reached<(Params, f64), 2>,
) {
    let _ = line;
    let mut __ad_slot0 = <Params as ::autograd::TangentStruct>::zero_adjoint(p);
    let (__ad_value, __ad_pullback) = __autograd_flat_line::line::__vjp_full(
        ::autograd::__private::float_field::<f64, _>(p.slope),
        ::autograd::__private::collection_field(&p.w),
        ::autograd::__private::float_field::<f64, _>(p.intercept),
        x,
    );
    (
        __ad_value,
        move |__ad_seed: f64| {
            let ((__ad_field0, __ad_field1, __ad_field2, __ad_slot1), __ad_reached) = ::autograd::__private::reached(
                __ad_pullback(__ad_seed),
            );
            let __ad_reached = [true, __ad_reached[3]];
            ::autograd::__private::add_float_field::<
                f64,
                _,
            >(&mut __ad_slot0.slope, __ad_field0);
            ::autograd::__private::add_to_collection(&mut __ad_slot0.w, &__ad_field1);
            ::autograd::__private::add_float_field::<
                f64,
                _,
            >(&mut __ad_slot0.intercept, __ad_field2);
            <Params as ::autograd::TangentStruct>::__restore_constants(
                &mut __ad_slot0,
                p,
            );
            ::autograd::__private::Reached((__ad_slot0, __ad_slot1), __ad_reached)
        },
    )
}
#[doc(hidden)]
#[allow(non_camel_case_types, dead_code)]
struct line {}
#[doc(hidden)]
impl line {
    #[doc(hidden)]
    #[inline]
    pub fn __struct_call(__ad_whole0: &Params, __ad_flat0: &[f64], x: f64) -> f64 {
        let __ad_at0 = <Params as ::autograd::TangentStruct>::__from_flat(
            __ad_whole0,
            &mut &__ad_flat0[..],
        );
        line(&__ad_at0, x)
    }
    #[doc(hidden)]
    #[inline(always)]
    pub fn __struct_call__same_callee<F: 'static, V, P>(called: &F, _: &V, _: &P) {
        ::autograd::__private::same_function(
            called,
            ::autograd::__private::type_id_of(&Self::__struct_call),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(unused_variables, clippy::all)]
    pub fn __struct_call__vjp_full<'__ad_whole0, '__ad_flat0>(
        __ad_whole0: &'__ad_whole0 Params,
        __ad_flat0: &'__ad_flat0 [f64],
        x: f64,
    ) -> (
        f64,
        impl ::core::ops::FnOnce(
            f64,
        ) -> ::autograd::__private::Reached<
                (
                    ::autograd::__private::NoGradient,
                    ::autograd::__private::Vec<f64>,
                    f64,
                ),
                3,
            > + use<'__ad_whole0, '__ad_flat0>,
    ) {
        let __ad__output = Self::__struct_call(__ad_whole0, __ad_flat0, x);
        (
            __ad__output,
            move |__ad__seed: f64| {
                let ((__ad__d___ad_flat0, __ad__d_x), __ad__reached) = ::autograd::__private::reached(
                    Self::__struct_rule(
                        __ad__seed,
                        __ad_whole0,
                        __ad_flat0,
                        x,
                        __ad__output,
                    ),
                );
                ::autograd::__private::Reached(
                    (::autograd::__private::NoGradient, __ad__d___ad_flat0, __ad__d_x),
                    [true, __ad__reached[0], __ad__reached[1]],
                )
            },
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn __struct_call__jvp_full<'__ad_whole0, '__ad_flat0>(
        __ad_whole0: &'__ad_whole0 Params,
        __ad_flat0: &'__ad_flat0 [f64],
        x: f64,
        __ad__d___ad_whole0: ::autograd::__private::NoGradient,
        __ad__d___ad_flat0: &[f64],
        __ad__d_x: f64,
    ) -> (f64, f64) {
        let __ad__output = Self::__struct_call(__ad_whole0, __ad_flat0, x);
        (
            __ad__output,
            Self::__struct_jvp(
                __ad_whole0,
                __ad_flat0,
                x,
                __ad__d___ad_flat0,
                __ad__d_x,
                __ad__output,
            ),
        )
    }
    #[doc(hidden)]
    #[inline]
    #[allow(
        unused_variables,
        unused_mut,
        unused_parens,
        unused_assignments,
        clippy::all
    )]
    pub fn __struct_call__jvp_lanes<'__ad_whole0, '__ad_flat0>(
        __ad_whole0: &'__ad_whole0 Params,
        __ad_flat0: &'__ad_flat0 [f64],
        x: f64,
        __ad__d___ad_whole0: ::autograd::__private::NoGradient,
        __ad__d___ad_flat0: ::autograd::__private::NoGradient,
        __ad__d_x: ::autograd::__private::NoGradient,
    ) -> ::core::option::Option<(f64, ::autograd::__private::LaneTangentOf<f64>)> {
        ::core::option::Option::None
    }
    #[doc(hidden)]
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn __struct_rule(
        __ad_seed: f64,
        __ad_whole0: &Params,
        __ad_flat0: &[f64],
        x: f64,
        _: f64,
    ) -> ::autograd::__private::Reached<(::std::vec::Vec<f64>, f64), 2> {
        let __ad_at0 = <Params as ::autograd::TangentStruct>::__from_flat(
            __ad_whole0,
            &mut &__ad_flat0[..],
        );
        let (_, __ad_pullback) = __autograd_line_vjp(&__ad_at0, x);
        let ::autograd::__private::Reached((__ad_slot0, __ad_slot1), __ad_reached) = __ad_pullback(
            __ad_seed,
        );
        ::autograd::__private::Reached(
            (
                {
                    let mut __ad_row = ::autograd::__private::flat_row(__ad_flat0.len());
                    <Params as ::autograd::TangentStruct>::__flatten_into(
                        &__ad_slot0,
                        &mut __ad_row,
                    );
                    __ad_row
                },
                __ad_slot1,
            ),
            __ad_reached,
        )
    }
    #[doc(hidden)]
    #[allow(clippy::too_many_arguments)]
    pub fn __struct_jvp(
        __ad_whole0: &Params,
        __ad_flat0: &[f64],
        x: f64,
        __ad_tflat0: &[f64],
        __ad_t1: f64,
        _: f64,
    ) -> f64 {
        let __ad_at0 = <Params as ::autograd::TangentStruct>::__from_flat(
            __ad_whole0,
            &mut &__ad_flat0[..],
        );
        let mut __ad_tat0 = <Params as ::autograd::TangentStruct>::__from_flat(
            __ad_whole0,
            &mut &__ad_tflat0[..],
        );
        <Params as ::autograd::TangentStruct>::__zero_constants(&mut __ad_tat0);
        line_jvp(&__ad_at0, x, &__ad_tat0, __ad_t1).1
    }
}
#[doc(hidden)]
#[diagnostic::do_not_recommend]
#[allow(clippy::type_complexity)]
impl ::autograd::__private::ForwardMode<::autograd::__private::StructCall> for line {
    type Fn = fn(
        &Params,
        &[f64],
        f64,
        ::autograd::__private::NoGradient,
        &[f64],
        f64,
    ) -> (f64, f64);
    const JVP: fn(
        &Params,
        &[f64],
        f64,
        ::autograd::__private::NoGradient,
        &[f64],
        f64,
    ) -> (f64, f64) = line::__struct_call__jvp_full;
    type Lanes = ::autograd::__private::NoLanes;
    const JVP_LANES: ::autograd::__private::NoLanes = ::autograd::__private::NoLanes;
}
/** The value of [`line`] and its directional derivative along the tangents, one per differentiable argument in argument order (a `Tangent` struct's is the struct, its constant fields ignored).

 Generated by `#[differentiable(jvp)]`: one forward sweep.*/
#[allow(clippy::too_many_arguments)]
fn line_jvp(p: &Params, x: f64, t_p: &Params, t_x: f64) -> (f64, f64) {
    let _ = line;
    let mut __ad_t_p = ::core::clone::Clone::clone(t_p);
    <Params as ::autograd::TangentStruct>::__zero_constants(&mut __ad_t_p);
    __autograd_flat_line::line_jvp(
        ::autograd::__private::float_field::<f64, _>(p.slope),
        ::autograd::__private::collection_field(&p.w),
        ::autograd::__private::float_field::<f64, _>(p.intercept),
        x,
        ::autograd::__private::float_field::<f64, _>(__ad_t_p.slope),
        ::autograd::__private::collection_field(&__ad_t_p.w),
        ::autograd::__private::float_field::<f64, _>(__ad_t_p.intercept),
        t_x,
    )
}
/** The value of [`line`], its gradient and the Hessian-vector product `H·v`: one direction per differentiable argument, in argument order (a `Tangent` struct's is the struct, its constant fields ignored); returns the value, one gradient entry per differentiable argument, then one `H·v` entry per differentiable argument (a struct's are the struct, its constant fields the argument's).

 Generated by `#[differentiable(hessian)]`: forward over reverse, one call.*/
#[allow(clippy::too_many_arguments)]
fn line_hvp(
    p: &Params,
    x: f64,
    v_p: &Params,
    v_x: f64,
) -> (f64, Params, f64, Params, f64) {
    let _ = line;
    let mut __ad_v_p = ::core::clone::Clone::clone(v_p);
    <Params as ::autograd::TangentStruct>::__zero_constants(&mut __ad_v_p);
    let (
        __ad_value,
        __ad_gfield0,
        __ad_gfield1,
        __ad_gfield2,
        __ad_g1,
        __ad_hfield0,
        __ad_hfield1,
        __ad_hfield2,
        __ad_h1,
    ) = __autograd_flat_line::line_hvp(
        ::autograd::__private::float_field::<f64, _>(p.slope),
        ::autograd::__private::collection_field(&p.w),
        ::autograd::__private::float_field::<f64, _>(p.intercept),
        x,
        ::autograd::__private::float_field::<f64, _>(__ad_v_p.slope),
        ::autograd::__private::collection_field(&__ad_v_p.w),
        ::autograd::__private::float_field::<f64, _>(__ad_v_p.intercept),
        v_x,
    );
    let mut __ad_g0 = <Params as ::autograd::TangentStruct>::zero_adjoint(p);
    ::autograd::__private::add_float_field::<f64, _>(&mut __ad_g0.slope, __ad_gfield0);
    ::autograd::__private::add_to_collection(&mut __ad_g0.w, &__ad_gfield1);
    ::autograd::__private::add_float_field::<
        f64,
        _,
    >(&mut __ad_g0.intercept, __ad_gfield2);
    <Params as ::autograd::TangentStruct>::__restore_constants(&mut __ad_g0, p);
    let mut __ad_h0 = <Params as ::autograd::TangentStruct>::zero_adjoint(p);
    ::autograd::__private::add_float_field::<f64, _>(&mut __ad_h0.slope, __ad_hfield0);
    ::autograd::__private::add_to_collection(&mut __ad_h0.w, &__ad_hfield1);
    ::autograd::__private::add_float_field::<
        f64,
        _,
    >(&mut __ad_h0.intercept, __ad_hfield2);
    <Params as ::autograd::TangentStruct>::__restore_constants(&mut __ad_h0, p);
    (__ad_value, __ad_g0, __ad_g1, __ad_h0, __ad_h1)
}
/** The value of [`line`], its gradient and its Hessian, over the differentiable arguments flattened in argument order (a `Tangent` struct its differentiable fields in declaration order, a collection its elements).

 Generated by `#[differentiable(hessian)]`: column j is `line_hvp` along input j.*/
#[allow(clippy::too_many_arguments)]
fn line_hessian(
    p: &Params,
    x: f64,
) -> (f64, ::autograd::nalgebra::DVector<f64>, ::autograd::nalgebra::DMatrix<f64>) {
    let __ad_offset0: usize = 0usize;
    let __ad_len0: usize = {
        let mut __ad_row = ::autograd::__private::Vec::new();
        <Params as ::autograd::TangentStruct>::__flatten_into(p, &mut __ad_row);
        __ad_row.len()
    };
    let __ad_offset1: usize = 0usize + __ad_len0;
    let __ad_len1: usize = 1;
    let __ad_n: usize = 0usize + __ad_len0 + __ad_len1;
    let mut __ad_grad = ::autograd::nalgebra::DVector::<f64>::zeros(__ad_n);
    let mut __ad_hessian = ::autograd::nalgebra::DMatrix::<f64>::zeros(__ad_n, __ad_n);
    let mut __ad_value = ::core::option::Option::None;
    for __ad_j in 0..__ad_n {
        let (__ad_v, __ad_g0, __ad_g1, __ad_h0, __ad_h1) = line_hvp(
            p,
            x,
            &<Params as ::autograd::TangentStruct>::__from_flat(
                p,
                &mut &::autograd::__private::unit_slice::<
                    f64,
                >(__ad_len0, __ad_j, __ad_offset0)[..],
            ),
            ::autograd::__private::unit_scalar::<f64>(__ad_j, __ad_offset1),
        );
        if __ad_j == 0 {
            let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
            <Params as ::autograd::TangentStruct>::__flatten_into(
                &__ad_g0,
                &mut __ad_column,
            );
            ::autograd::__private::push_flat(&mut __ad_column, __ad_g1);
            __ad_grad = ::autograd::nalgebra::DVector::from_vec(__ad_column);
        }
        __ad_value = ::core::option::Option::Some(__ad_v);
        let mut __ad_column = ::autograd::__private::Vec::with_capacity(__ad_n);
        <Params as ::autograd::TangentStruct>::__flatten_into(
            &__ad_h0,
            &mut __ad_column,
        );
        ::autograd::__private::push_flat(&mut __ad_column, __ad_h1);
        __ad_hessian
            .set_column(__ad_j, &::autograd::nalgebra::DVector::from_vec(__ad_column));
    }
    let __ad_value = match __ad_value {
        ::core::option::Option::Some(v) => v,
        ::core::option::Option::None => line(p, x),
    };
    (__ad_value, __ad_grad, __ad_hessian)
}
/** The value of [`line`] followed by its gradient: one adjoint per differentiable argument, in argument order.

 Generated by `#[differentiable]`: `line_vjp` with seed 1.*/
#[allow(clippy::too_many_arguments)]
fn line_grad(p: &Params, x: f64) -> (f64, Params, f64) {
    let (__ad_value, __ad_pullback) = line_vjp(p, x);
    let (__ad_slot0, __ad_slot1) = __ad_pullback(1.0);
    (__ad_value, __ad_slot0, __ad_slot1)
}
/** The value of [`line`], its gradient added into one buffer per differentiable argument (`d_x += ∂line/∂x`), in argument order.

 Generated by `#[differentiable]`.*/
#[allow(clippy::too_many_arguments)]
fn line_grad_acc(p: &Params, x: f64, d_p: &mut Params, d_x: &mut f64) -> f64 {
    let (__ad_value, __ad_pullback) = line_vjp(p, x);
    let (__ad_slot0, __ad_slot1) = __ad_pullback(1.0);
    <Params as ::autograd::TangentStruct>::add_adjoint(d_p, &__ad_slot0);
    ::autograd::__private::Accumulate::accumulate(d_x, __ad_slot1);
    __ad_value
}
/** Compares [`line_grad`] at this point with central finite differences of [`line`], component by component (a `Tangent` struct field by field).

 Generated by `#[differentiable]`.*/
#[allow(clippy::too_many_arguments)]
fn line_check(p: &Params, x: f64) -> ::autograd::GradientCheck {
    let (__ad_value, __ad_slot0, __ad_slot1) = line_grad(p, x);
    let mut __ad_check = ::autograd::GradientCheck::new(
        ::autograd::__private::to_f64(__ad_value),
    );
    <Params as ::autograd::TangentStruct>::__check_fields(
        p,
        &__ad_slot0,
        "p",
        &mut __ad_check,
        &mut |__ad_at| line(__ad_at, x),
    );
    __ad_check.scalar("x", x, __ad_slot1, |__ad_at| line(p, __ad_at));
    __ad_check
}
